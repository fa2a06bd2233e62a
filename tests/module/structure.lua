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
--   * no module assigns into a table it got from another module's require;
--   * no file in lua/ is over 900 lines;
--   * no source file (.c .h .inc .lua) in core/ lua/ repl/ jupyter/ is over
--     900 lines, no function there over 120 lines of its own, and
--     lua/moonflow/ and core/ hold at most 12 files at their top level.
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

-- File sizes ----------------------------------------------------------------------
do
  local big = {}
  for _, f in ipairs(lines_of(("cd %q && find lua -type f"):format(ROOT))) do
    local count = select(2, read(ROOT .. "/" .. f):gsub("\n", ""))
    if count > MAX_LINES then big[#big + 1] = ("%s: %d lines"):format(f, count) end
  end
  check(#big == 0, "no file in lua/ is over " .. MAX_LINES .. " lines", table.concat(big, "\n"))
end

-- Source sizes over core/ lua/ repl/ jupyter/ -----------------------------------
-- Every source file (.c .h .inc .lua) at most MAX_LINES lines; every function
-- at most MAX_FUNCTION lines of its own (the lines it spans less those of
-- the functions nested in it, which are measured apart); at most MAX_TOP
-- files at the top of lua/moonflow/ and of core/ (the rest in rooms).
local MAX_FUNCTION, MAX_TOP = 120, 12
local SOURCE_DIRS = "core lua repl jupyter"
local sources = lines_of(("cd %q && find %s -type f \\( -name '*.c' -o -name '*.h' -o -name '*.inc' "
  .. "-o -name '*.lua' \\) | sort"):format(ROOT, SOURCE_DIRS))

do
  local big = {}
  for _, f in ipairs(sources) do
    local count = select(2, read(ROOT .. "/" .. f):gsub("\n", ""))
    if count > MAX_LINES then big[#big + 1] = ("%s: %d lines"):format(f, count) end
  end
  check(#sources > 100 and #big == 0, ("no source file in %s is over %d lines (%d files)")
    :format(SOURCE_DIRS, MAX_LINES, #sources), table.concat(big, "\n"))
end

-- Functions of a C file: {name=, line=, length=}. A brace-depth scan that
-- skips comments, string and character literals and preprocessor lines
-- (macro bodies are not functions); a function is a brace block opened at
-- depth 0 right after a ')', named by the identifier before its '('.
local function c_functions(src)
  local out, depth, i, len, line = {}, 0, 1, #src, 1
  local last, last_line = nil, 1        -- the last significant character
  local parens = {}                     -- open '(' at depth 0: {name, line}
  local head_name, head_line            -- the ')' that may open a function
  local open                            -- the function being read
  local at_line_start = true
  while i <= len do
    local c = src:sub(i, i)
    if c == "\n" then
      line, at_line_start, i = line + 1, true, i + 1
    elseif c == " " or c == "\t" or c == "\r" or c == "\f" then
      i = i + 1
    elseif at_line_start and c == "#" then
      -- a directive, with its continuation lines
      repeat
        local j = src:find("\n", i, true) or len + 1
        local cont = src:sub(j - 1, j - 1) == "\\"
        if j <= len then line = line + 1 end
        i = j + 1
      until not cont or i > len
    elseif src:sub(i, i + 1) == "//" then
      i = src:find("\n", i, true) or len + 1
    elseif src:sub(i, i + 1) == "/*" then
      local j = select(2, src:find("*/", i + 2, true)) or len
      line = line + select(2, src:sub(i, j):gsub("\n", ""))
      i = j + 1
    elseif c == '"' or c == "'" then
      local j = i + 1
      while j <= len and src:sub(j, j) ~= c do j = j + (src:sub(j, j) == "\\" and 2 or 1) end
      last, last_line, at_line_start, i = c, line, false, j + 1
    else
      at_line_start = false
      if c == "(" and depth == 0 then
        local name = src:sub(1, i - 1):match("([%a_][%w_]*)%s*$")
        parens[#parens + 1] = { name = name, line = line }
      elseif c == ")" and depth == 0 then
        local p = table.remove(parens)
        if #parens == 0 and p then head_name, head_line = p.name, p.line end
      elseif c == "{" then
        if depth == 0 and last == ")" and head_name then
          open = { name = head_name, line = head_line }
        end
        depth = depth + 1
      elseif c == "}" then
        depth = depth - 1
        if depth == 0 and open then
          open.length = line - open.line + 1
          out[#out + 1] = open
          open = nil
        end
      end
      last, last_line, i = c, line, i + 1
    end
  end
  return out
end

-- Functions of a Lua chunk, from the library's own lexer
-- (lua/moonflow/autograph/lexer.lua): {name=, line=, length=}, length
-- the lines spanned less those spanned by the functions nested directly
-- inside. Blocks: function, if, do (while's and for's too) close with
-- end; repeat with until.
package.path = ROOT .. "/lua/?.lua;" .. package.path
local lexer = require("moonflow.autograph.lexer")

local function lua_functions(src)
  local toks = lexer.tokenize(src)
  local ty, val, ln, eln = toks.type, toks.value, toks.line, toks.eline
  local out, stack = {}, {}
  local function name_at(k)
    -- function a.b:c (...)  /  local function f  /  x = function  /  [k] = function
    local parts, j = {}, k + 1
    while ty[j] == "<name>" or ty[j] == "." or ty[j] == ":" do
      parts[#parts + 1] = ty[j] == "<name>" and val[j] or ty[j]
      j = j + 1
    end
    if #parts > 0 then return table.concat(parts) end
    if ty[k - 1] == "=" and ty[k - 2] == "<name>" then return val[k - 2] end
    if ty[k - 1] == "=" and ty[k - 2] == "]" then return "[...]" end
    return "<anonymous>"
  end
  local k = 1
  while ty[k] and ty[k] ~= "<eof>" and ty[k] ~= "<error>" do
    local t = ty[k]
    if t == "function" then
      stack[#stack + 1] = { fn = true, name = name_at(k), line = ln[k], nested = 0 }
    elseif t == "if" or t == "do" or t == "repeat" then
      stack[#stack + 1] = { fn = false }
    elseif t == "end" or t == "until" then
      local b = table.remove(stack)
      if b and b.fn then
        local span = eln[k] - b.line + 1
        out[#out + 1] = { name = b.name, line = b.line, length = span - b.nested }
        for j = #stack, 1, -1 do
          if stack[j].fn then stack[j].nested = stack[j].nested + span; break end
        end
      end
    end
    k = k + 1
  end
  return out
end

-- The two scanners on small samples: what they call a function and how
-- they count it.
do
  local c = c_functions([[
#define BODY(x) { return (x); }
/* int commented(void) { } */
static const int table[] = {1, 2};
static int f(int a,
             int b) {
  const char *s = "}{";
  if (a) { return b; }
  return '}';
}
int g(void) { return 0; }
]])
  local l = lua_functions([[
local function outer(a)
  local t = { f = function() return 1 end }
  local inner = function(x)
    if x then
      return x
    end
    repeat x = x - 1 until x < 0
  end
  for i = 1, 2 do a = a + i end
  return "end function"
end
function M.thing:method() end
]])
  local got = {}
  for _, fn in ipairs(c) do got[#got + 1] = ("%s@%d=%d"):format(fn.name, fn.line, fn.length) end
  for _, fn in ipairs(l) do got[#got + 1] = ("%s@%d=%d"):format(fn.name, fn.line, fn.length) end
  local want = "f@4=6 g@10=1 f@2=1 inner@3=6 outer@1=4 M.thing:method@12=1"
  check(table.concat(got, " ") == want, "the function scanners measure C and Lua samples as intended",
    "got:  " .. table.concat(got, " ") .. "\nwant: " .. want)
end

do
  local long, seen = {}, 0
  for _, f in ipairs(sources) do
    local src = read(ROOT .. "/" .. f)
    local fns = f:find("%.lua$") and lua_functions(src) or c_functions(src)
    seen = seen + #fns
    for _, fn in ipairs(fns) do
      if fn.length > MAX_FUNCTION then
        long[#long + 1] = ("%s:%d: %s, %d lines"):format(f, fn.line, fn.name, fn.length)
      end
    end
  end
  check(seen > 1000 and #long == 0, ("no function in %s is over %d lines of its own (%d functions)")
    :format(SOURCE_DIRS, MAX_FUNCTION, seen), table.concat(long, "\n"))
end

do
  local crowded = {}
  for _, dir in ipairs({ "lua/moonflow", "core" }) do
    local files = lines_of(("cd %q && find %s -maxdepth 1 -type f"):format(ROOT, dir))
    if #files > MAX_TOP then crowded[#crowded + 1] = ("%s/: %d files"):format(dir, #files) end
  end
  check(#crowded == 0, ("lua/moonflow/ and core/ have at most %d files at their top level"):format(MAX_TOP),
    table.concat(crowded, "\n"))
end

-- The binding raises only typed error objects: lauxlib's argument checks
-- (luaL_check*, luaL_opt*) raise plain strings, so the binding calls its
-- own (mfL_check*, binding.h), and binding.h does not redefine lauxlib's.
do
  local untyped = {}
  for _, f in ipairs(lines_of(("cd %q && ls lua/binding/*.c lua/binding/*.h"):format(ROOT))) do
    local n_line = 0
    for line in read(ROOT .. "/" .. f):gmatch("[^\n]*") do
      n_line = n_line + 1
      if line:find("luaL_check%a*%s*%(") or line:find("luaL_opt%a*%s*%(") or line:find("#define%s+luaL_") then
        untyped[#untyped + 1] = ("%s:%d: %s"):format(f, n_line, line)
      end
    end
  end
  check(#untyped == 0, "the binding calls its typed argument checks, never lauxlib's luaL_check*/luaL_opt*",
    table.concat(untyped, "\n"))
end

print("1.." .. n)
os.exit(failed == 0 and 0 or 1)
