-- structure.lua — the Lua library's shape (issue 12), checked from the
-- source with a stock lua5.4 (run by test_structure.sh, prints TAP):
--   * no `tf._` field is read anywhere (lua/, repl/, jupyter/, tests/,
--     tutorials/): the library's modules reach each other through require;
--   * every file of lua/moonflow/ starts with its requires (one
--     `local name = require("...")` per line, nothing else before them)
--     and has no literal require later on (no late lookups);
--   * `luac5.4 -p` accepts every file;
--   * the module graph (from those requires) has no cycle;
--   * no init back-channel (a module's `init` keeping what another module
--     hands it: a require cycle the graph cannot see; rule below);
--   * no file in lua/ is over 900 lines.
local ROOT = os.getenv("MOONFLOW_ROOT") or "."
local MAX_LINES = 900

local n, failed = 0, 0
local function check(ok, name, detail)
  n = n + 1
  if ok then
    print(("ok %d - %s"):format(n, name))
  else
    failed = failed + 1
    print(("not ok %d - %s"):format(n, name))
    for line in tostring(detail or ""):gmatch("[^\n]+") do print("# " .. line) end
  end
end

local function lines_of(cmd)
  local out = {}
  local p = assert(io.popen(cmd))
  for l in p:lines() do out[#out + 1] = l end
  p:close()
  return out
end

local function read(path)
  local f = assert(io.open(path, "r"))
  local s = f:read("a")
  f:close()
  return s
end

-- The code of a Lua chunk with comments and string contents blanked (line
-- structure kept), so patterns see only code: AutoGraph's lexer does it.
local code_only = dofile(ROOT .. "/lua/moonflow/autograph/lexer.lua").code_only

-- 1. No tf._ field reads ------------------------------------------------------
do
  local private = "tf" .. "%._[%a]"   -- written so this file does not match itself
  local files = lines_of(("cd %q && find lua repl jupyter tests tutorials -type f "
    .. "\\( -name '*.lua' -o -name '*.c' -o -name '*.h' -o -name '*.py' -o -name '*.sh' -o -name '*.md' \\)"):format(ROOT))
  local hits = {}
  for _, f in ipairs(files) do
    if not f:find("structure.lua$") then
      local k = 0
      for line in (read(ROOT .. "/" .. f) .. "\n"):gmatch("([^\n]*)\n") do
        k = k + 1
        if line:find(private) or line:find('tf%[%s*"_') then hits[#hits + 1] = ("%s:%d: %s"):format(f, k, line) end
      end
    end
  end
  check(#files > 50 and #hits == 0, "no tf._ field is read anywhere (" .. #files .. " files)",
    table.concat(hits, "\n"))
end

-- The library's files and their requires ------------------------------------
local lib = lines_of(("cd %q/lua && find moonflow -name '*.lua' | sort"):format(ROOT))
local module_of = {}   -- "moonflow.autograph.parser" -> "moonflow/autograph/parser.lua"
for _, f in ipairs(lib) do
  module_of[f:gsub("%.lua$", ""):gsub("/", ".")] = f
end
module_of["moonflow"] = "moonflow/tf.lua"

local requires = {}    -- file -> {module names}
do
  local bad = {}
  for _, f in ipairs(lib) do
    local raw = read(ROOT .. "/lua/" .. f)
    local raw_lines = {}
    for line in (raw .. "\n"):gmatch("([^\n]*)\n") do raw_lines[#raw_lines + 1] = line end
    local list, header_done, k = {}, false, 0
    for line in (code_only(raw) .. "\n"):gmatch("([^\n]*)\n") do
      k = k + 1
      local name = line:match('^local [%a_][%w_]* = require%("%s*"%)[%w_.]*%s*$')
        and raw_lines[k]:match('^local [%a_][%w_]* = require%("([%w_.]+)"%)[%w_.]*%s*$')
      if name then
        if header_done then bad[#bad + 1] = ("%s:%d: a require after the file's first statement"):format(f, k) end
        list[#list + 1] = name
      elseif line:find("%S") then
        if line:find("require%s*%(%s*\"") or line:find("pcall%s*%(%s*require") then
          bad[#bad + 1] = ("%s:%d: a require that is not a header line: %s"):format(f, k, raw_lines[k])
        end
        header_done = true
      end
    end
    requires[f] = list
  end
  check(#bad == 0, "every lua/moonflow file starts with its requires, and has no other",
    table.concat(bad, "\n"))
end

-- luac -p -----------------------------------------------------------------------
do
  local bad = {}
  for _, f in ipairs(lib) do
    local out = lines_of(("luac5.4 -p %q 2>&1"):format(ROOT .. "/lua/" .. f))
    if #out > 0 then bad[#bad + 1] = table.concat(out, "\n") end
  end
  check(#bad == 0, "luac5.4 -p accepts every lua/moonflow file (" .. #lib .. ")", table.concat(bad, "\n"))
end

-- The module graph has no cycle --------------------------------------------------
do
  local WHITE, GREY, BLACK = 0, 1, 2
  local color, stack, cycle = {}, {}, nil
  local function visit(f)
    color[f] = GREY
    stack[#stack + 1] = f
    for _, m in ipairs(requires[f] or {}) do
      local g = module_of[m]
      if g and not cycle then
        if color[g] == GREY then
          local from
          for i, s in ipairs(stack) do if s == g then from = i end end
          cycle = table.concat(stack, " -> ", from) .. " -> " .. g
        elseif (color[g] or WHITE) == WHITE then
          visit(g)
        end
      end
    end
    stack[#stack] = nil
    color[f] = BLACK
  end
  local edges = 0
  for _, f in ipairs(lib) do
    edges = edges + #requires[f]
    if (color[f] or WHITE) == WHITE and not cycle then visit(f) end
  end
  check(cycle == nil and edges > 50, "the module graph (" .. edges .. " requires) has no cycle", cycle)
end

-- No init back-channel --------------------------------------------------------------
-- A back-channel is a module's exported `init` that keeps, in the module's
-- own file-scope state, what another module hands it (func.lua once gave
-- call_gradient.lua its tracing functions so, and control_flow.lua gave
-- while_grad.lua tf.while_loop): each is a require cycle the graph above
-- cannot see. The rule, on the code of every lua/moonflow file: the body of
-- a function named init defined at file scope on a file-scope table
-- (`function M.init(`, `function M:init(`, `M.init = function(`) assigns to
-- no file-scope local of that file, nor to a field or element of one,
-- unless a parameter or a local of the body shadows the name. An init that
-- sets up what it is given (options.init sets the class's own `init`)
-- keeps nothing and passes.
do
  local bad = {}
  for _, f in ipairs(lib) do
    local lines = {}
    for line in (code_only(read(ROOT .. "/lua/" .. f)) .. "\n"):gmatch("([^\n]*)\n") do lines[#lines + 1] = line end
    local file_scope = {}
    for _, line in ipairs(lines) do
      local names = line:match("^local%s+function%s+([%a_][%w_]*)") or line:match("^local%s+([%a_][%w_%s,]*)")
      for name in (names or ""):gmatch("[%a_][%w_]*") do file_scope[name] = true end
    end
    local k = 1
    while k <= #lines do
      local line = lines[k]
      local params = line:match("^function%s+[%a_][%w_]*[.:]init%s*%((.-)%)")
        or line:match("^[%a_][%w_]*%.init%s*=%s*function%s*%((.-)%)")
      if params then
        local shadowed, start = {}, k
        for name in params:gmatch("[%a_][%w_]*") do shadowed[name] = true end
        k = k + 1
        while k <= #lines and not lines[k]:match("^end") do
          local body = " " .. lines[k]
          for name in (body:match("%f[%w_]local%s+function%s+([%a_][%w_]*)")
            or body:match("%f[%w_]local%s+([%a_][%w_%s,]*)") or ""):gmatch("[%a_][%w_]*") do
            shadowed[name] = true
          end
          for name in pairs(file_scope) do
            if not shadowed[name] then
              for _, pat in ipairs({ "[^%w_.:]" .. name .. "%s*=[^=]", "[^%w_.:]" .. name .. "%s*%.[%w_.]+%s*=[^=]",
                "[^%w_.:]" .. name .. "%s*%[.-%]%s*=[^=]" }) do
                if body:find(pat) then
                  bad[#bad + 1] = ("%s:%d: the init at line %d keeps what it is given in file-scope '%s'")
                    :format(f, k, start, name)
                  break
                end
              end
            end
          end
          k = k + 1
        end
      end
      k = k + 1
    end
  end
  check(#bad == 0, "no lua/moonflow module's init keeps another module's functions (no back-channel)",
    table.concat(bad, "\n"))
end

-- File sizes ----------------------------------------------------------------------
do
  local big = {}
  for _, f in ipairs(lines_of(("cd %q && find lua -type f"):format(ROOT))) do
    local count = select(2, read(ROOT .. "/" .. f):gsub("\n", ""))
    if count > MAX_LINES then big[#big + 1] = ("%s: %d lines"):format(f, count) end
  end
  check(#big == 0, "no file in lua/ is over " .. MAX_LINES .. " lines", table.concat(big, "\n"))
end

print("1.." .. n)
os.exit(failed == 0 and 0 or 1)
