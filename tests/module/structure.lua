-- structure.lua — the Lua library's shape (issue 12), checked from the
-- source with a stock lua5.4 (run by test_structure.sh, prints TAP):
--   * no `tf._` field is read anywhere (lua/, repl/, jupyter/, tests/,
--     tutorials/): the library's modules reach each other through require;
--   * every file of lua/moonflow/ starts with its requires (one
--     `local name = require("...")` per line, nothing else before them)
--     and has no literal require later on (no late lookups);
--   * `luac5.4 -p` accepts every file;
--   * the module graph (from those requires) has no cycle;
--   * no module assigns into a table it got from another module's require;
--   * no function in lua/moonflow/ops/ has over 120 lines of its own;
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
-- structure kept), so patterns see only code.
local function code_only(src)
  local out, i, len = {}, 1, #src
  local function keep_newlines(s) return (s:gsub("[^\n]", " ")) end
  while i <= len do
    local c = src:sub(i, i)
    local long = src:match("^%-%-%[(=*)%[", i)
    if long then
      local close = "]" .. long .. "]"
      local j = select(2, src:find(close, i, true)) or len
      out[#out + 1] = keep_newlines(src:sub(i, j))
      i = j + 1
    elseif src:sub(i, i + 1) == "--" then
      local j = src:find("\n", i, true) or len + 1
      out[#out + 1] = keep_newlines(src:sub(i, j - 1))
      i = j
    elseif c == '"' or c == "'" then
      local j = i + 1
      while j <= len and src:sub(j, j) ~= c do
        j = j + (src:sub(j, j) == "\\" and 2 or 1)
      end
      out[#out + 1] = c .. keep_newlines(src:sub(i + 1, j - 1)) .. c
      i = j + 1
    elseif src:match("^%[=*%[", i) then
      local eq = src:match("^%[(=*)%[", i)
      local close = "]" .. eq .. "]"
      local j = select(2, src:find(close, i, true)) or len
      out[#out + 1] = '""' .. keep_newlines(src:sub(i + 2, j))
      i = j + 1
    else
      local j = src:find("[%-\"'%[]", i) or len + 1
      if j == i then j = i + 1 end
      out[#out + 1] = src:sub(i, j - 1)
      i = j
    end
  end
  return table.concat(out)
end

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

-- No module writes into another module's table -------------------------------------
-- A table a module gets from require (or a field path of one, `local layers
-- = keras.layers`) is the other module's: assigning into it (`other.x = `,
-- `other.nn.x = `, `function other.f()`, rawset(other, ...)) builds one
-- module's table from another, so the table's contents are found nowhere
-- in one place. A module returns its own table; its requirer composes.
-- Two are written from outside by design: moonflow.state (the session's
-- mutable state: its fields are the settings and registries modules
-- share) and the binding moonflow.core, whose types' metatables the Lua
-- half of each type completes (tensor/tensor.lua's operators).
local WRITABLE = { ["moonflow.state"] = true, ["moonflow.core"] = true }
do
  local bad = {}
  for _, f in ipairs(lib) do
    local raw_lines = {}
    for line in (read(ROOT .. "/lua/" .. f) .. "\n"):gmatch("([^\n]*)\n") do raw_lines[#raw_lines + 1] = line end
    local other = {}   -- local name -> true when it holds (a part of) another module's table
    local k = 0
    for line in (code_only(read(ROOT .. "/lua/" .. f)) .. "\n"):gmatch("([^\n]*)\n") do
      k = k + 1
      local function flag(what) bad[#bad + 1] = ("%s:%d: %s: %s"):format(f, k, what, raw_lines[k]) end
      local names, rhs = line:match("^%s*local%s+([%a_][%w_%s,]*)=%s*(.-)%s*$")
      if names then
        local i = 0
        local items = {}
        for item in (rhs .. ","):gmatch("([^,]*),") do items[#items + 1] = item:match("^%s*(.-)%s*$") end
        for name in names:gmatch("[%a_][%w_]*") do
          i = i + 1
          local item = items[i] or ""
          local base = item:match("^([%a_][%w_]*)[%.%w_]*$")
          local required = item:find("^require%s*%(") and raw_lines[k]:match('require%s*%(%s*"([%w_.]+)"%s*%)')
          other[name] = (required ~= nil and not WRITABLE[required]) or (base ~= nil and other[base] == true) or nil
        end
      else
        local lhs = line:match("^%s*([^=]-[^=~<>])=[^=]")
        if lhs and not lhs:find("^%s*local%s") and not lhs:find("[%(\"]") then
          for target in (lhs .. ","):gmatch("([^,]*),") do
            local base = target:match("^%s*([%a_][%w_]*)%s*[%.%[]")
            if base and other[base] then flag("assigns into " .. base .. ", another module's table") end
          end
        end
        local fbase = line:match("^%s*function%s+([%a_][%w_]*)[%.:]")
        if fbase and other[fbase] then flag("defines a function in " .. fbase .. ", another module's table") end
        local rbase = line:match("rawset%s*%(%s*([%a_][%w_]*)")
        if rbase and other[rbase] then flag("rawsets into " .. rbase .. ", another module's table") end
      end
    end
  end
  check(#bad == 0, "no lua/moonflow module assigns into a table it got from another module", table.concat(bad, "\n"))
end

-- Function sizes ------------------------------------------------------------------
-- No function of the op families (lua/moonflow/ops/) has over MAX_FUNCTION
-- lines of its own code (the lines of the closures it holds counted apart).
-- Blocks open with function, if, do, repeat and close with end, until.
local MAX_FUNCTION = 120
do
  local big = {}
  for _, f in ipairs(lib) do
    if f:find("^moonflow/ops/") then
      local code, stack, line, pos = code_only(read(ROOT .. "/lua/" .. f)), {}, 1, 1
      while true do
        local s, e, word = code:find("([%a_][%w_]*)", pos)
        if not s then break end
        line = line + select(2, code:sub(pos, s - 1):gsub("\n", ""))
        pos = e + 1
        local after_dot = s > 1 and code:sub(s - 1, s - 1):find("[.:]") ~= nil
        if after_dot then
          -- a field name (t.end is not Lua, but t.do_x is a name)
        elseif word == "function" or word == "if" or word == "do" or word == "repeat" then
          stack[#stack + 1] = { kind = word, start = line, nested = 0 }
        elseif word == "end" or word == "until" then
          local b = table.remove(stack)
          if b and b.kind == "function" then
            local total = line - b.start + 1
            if total - b.nested > MAX_FUNCTION then
              big[#big + 1] = ("%s:%d: a function of %d lines of its own"):format(f, b.start, total - b.nested)
            end
            for i = #stack, 1, -1 do
              if stack[i].kind == "function" then
                stack[i].nested = stack[i].nested + total
                break
              end
            end
          end
        end
      end
    end
  end
  check(#big == 0, "no function in lua/moonflow/ops/ has over " .. MAX_FUNCTION .. " lines of its own code",
    table.concat(big, "\n"))
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
