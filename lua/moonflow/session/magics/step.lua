-- %step <f> [args]: step through a tf.func node by node (tf.debug.step).
-- In a terminal a small prompt reads commands until q or the end; in
-- Jupyter the picture is drawn once and each `%step <command>` cell
-- updates it in place.

local tf = require("moonflow")
local state = require("moonflow.state")
local errors = require("moonflow.errors")
local session = require("moonflow.session")
local step = require("moonflow.debug.step")
local picture = require("moonflow.debug.picture")
local target = require("moonflow.session.magic_target")

local USAGE = "usage: %step <tf.func or concrete function> [args...] [--optimized]   (then: %step help)"

local HELP = [[commands:
  n [K]          run the next node (K nodes), into a branch, loop or call
  o              run the next node over: a branch, loop or call as one step
  c              continue to a breakpoint or the end
  b NAME|LINE    break after a node (its name, op type, or a line number)
  nan            run to the first node that makes a NaN or an infinity
  p NAME         print a node's full value (NAME:1 for its second output)
  set NAME EXPR  replace a node's value (a Lua expression) and run again what read it
  w              where: the node, its inputs, its line
  back           one step back (replays from the start)
  restart        back to the start
  q              leave the stepper]]

-- The stepper the session is in, and its display (Jupyter).
local current = { stepper = nil, handle = nil }

local function can_draw() return state.host and state.host.dot_to_svg ~= nil end

local function eval(code)
  local f, err = load("return " .. code, "=(step)", "t", session.env())
  if not f then errors.raise("SyntaxError", err, 2) end
  return f()
end

-- Runs one command line on stepper s; returns false to leave.
local function command(s, line)
  local cmd, rest = line:match("^%s*(%S*)%s*(.-)%s*$")
  if cmd == "" then cmd = "n" end
  if cmd == "q" or cmd == "quit" then return false end
  if cmd == "help" or cmd == "h" or cmd == "?" then
    print(HELP)
    return true, true
  end
  if cmd == "n" or cmd == "next" then
    for _ = 1, tonumber(rest) or 1 do
      if not s:next() then break end
    end
  elseif cmd == "o" or cmd == "over" then
    s:over()
  elseif cmd == "c" or cmd == "continue" then
    s:continue()
  elseif cmd == "b" or cmd == "break" then
    if rest == "" then errors.raise("UsageError", "b NAME|LINE", 2) end
    s:breakpoint(tonumber(rest) or rest)
    print(("breakpoint after %s %s"):format(tonumber(rest) and "line" or "node", rest))
    return true, true
  elseif cmd == "nan" then
    if not s:break_on_nan() then print("no NaN or infinity before the end") end
  elseif cmd == "p" or cmd == "print" then
    print(tostring(s:value(rest)))
    return true, true
  elseif cmd == "set" then
    local name, expr = rest:match("^(%S+)%s+(.+)$")
    if not name then errors.raise("UsageError", "set NAME EXPR", 2) end
    local rerun = s:set(name, eval(expr))
    print(("%s set; ran again: %s"):format(name, #rerun > 0 and table.concat(rerun, ", ") or "nothing"))
  elseif cmd == "w" or cmd == "where" then
    print(s:where())
    return true, true
  elseif cmd == "back" then
    s:back()
  elseif cmd == "restart" then
    s:restart()
  else
    errors.raise("UsageError", ("unknown step command '%s' (help lists them)"):format(cmd), 2)
  end
  return not s.done or true
end

local function show(s)
  if can_draw() then
    local view = picture.view(s)
    if current.handle then
      current.handle:update(view)
    else
      current.handle = tf.display(view, { display_id = true })
    end
  else
    print(picture.text(s))
  end
end

-- The terminal's prompt: commands until q, the end of input or Ctrl-C.
local function prompt(s)
  while true do
    io.write("(step) ")
    io.flush()
    local ok, line = pcall(io.read, "l")
    if not ok or line == nil then
      print()
      return
    end
    local ok2, go, quiet = pcall(command, s, line)
    if not ok2 then
      if errors.is(go, "KeyboardInterrupt") then return end
      print(tostring(go))
    elseif go == false then
      return
    elseif not quiet then
      print(picture.text(s))
      if s.done then return end
    end
  end
end

local COMMANDS = { n = true, next = true, o = true, over = true, c = true, continue = true, b = true, ["break"] = true, nan = true,
  p = true, print = true, set = true, w = true, where = true, back = true, restart = true, q = true,
  quit = true, help = true, h = true, ["?"] = true }

return {
  doc = [[%step <expr> [args] [--optimized]  step through a tf.func node by node
Runs the graph traced for args one node at a time (tf.debug.step): the branch
an if takes, a loop's body per iteration, called functions. In a terminal a
prompt reads commands (help lists them: n, c, b NAME|LINE, nan, p NAME,
set NAME EXPR, w, back, restart, q); in Jupyter each `%step <command>` cell
updates one picture: the node just run highlighted, nodes run with their
shapes and values, a NaN red. --optimized steps the graph calls run (after the
optimisation passes; a fused group is one step).]],
  run = function(args)
    local optimized = false
    args = args:gsub("%s*%-%-optimized%f[%s%z]", function() optimized = true return "" end)
    local first = args:match("^%s*(%S*)") or ""
    if current.stepper and COMMANDS[first] then
      local s = current.stepper
      local go, quiet = command(s, args)
      if go == false then
        current.stepper, current.handle = nil, nil
        print("left the stepper")
        return
      end
      if not quiet then show(s) end
      return
    end
    if first == "" or COMMANDS[first] then
      print(current.stepper and HELP or USAGE)
      return
    end
    local value, call_args, expr = target.parse(args, USAGE)
    target.check_func(value, expr, USAGE)
    local s = tf.debug.step_with({ optimized = optimized }, value,
      table.unpack(call_args or {}, 1, call_args and call_args.n or 0))
    current.stepper, current.handle = s, nil
    if can_draw() then
      show(s)
      return
    end
    print(picture.text(s))
    prompt(s)
  end,
  -- Tests and the lesson reach the session's stepper through this.
  current = function() return current.stepper end,
}
