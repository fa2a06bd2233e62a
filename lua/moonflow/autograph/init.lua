-- autograph/init.lua (moonflow.autograph) — tf.autograph: converts the Lua source of traced
-- functions (converter.lua) so that `if`, `while`, `repeat` and `for` on
-- tensors become graph control flow, and binds the converted function to
-- the original's upvalues and environment (assignments to upvalues are
-- seen by the rest of the program). Errors point at the user's lines: the
-- converted code keeps every original statement on its original line.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local doc = require("moonflow.doc")
local argcheck = require("moonflow.argcheck")
local source = require("moonflow.source")
local parser = require("moonflow.autograph.parser")
local printer = require("moonflow.autograph.printer")
local converter = require("moonflow.autograph.converter")
local runtime = require("moonflow.autograph.runtime")
local raise = errors.raise

local autograph = {}

local converted = setmetatable({}, { __mode = "k" }) -- fn -> converted fn
local skip = setmetatable({}, { __mode = "k" })      -- do_not_convert
local plans = {}                                     -- source key -> {code=, upvalues=} | {failed=}
local warned = {}

local in_library = source.in_library

local function upvalue_names(fn)
  local names = {}
  for i = 1, math.huge do
    local name = debug.getupvalue(fn, i)
    if name == nil then break end
    names[#names + 1] = name
  end
  return names
end

-- Parsed source files by chunk name: a file is parsed once for all the
-- functions defined in it, and again only when its text has changed (the
-- text itself is the key, which no modification time can get wrong).
-- Chunks typed into a session define their functions once and are not kept.
local parsed = {}                                    -- "@path" -> {text=, ast=, err=}

local function parse_source(text, chunkname)
  local p = parsed[chunkname]
  if p and p.text == text then return p.ast, p.err end
  local ast, err = parser.parse(text, chunkname)
  if chunkname:sub(1, 1) == "@" then parsed[chunkname] = { text = text, ast = ast, err = err } end
  return ast, err
end

-- The Function node of the function defined on lines first..last, parsed
-- from those lines alone: the first trace of a function then costs its own
-- size, not its file's. The text starts at a `function` keyword of the
-- first line (as an expression after `return` when `(` follows it, else as
-- a function statement: `local` dropped, `a.b:m` kept) and ends at an
-- `end` of the last line; the grammar fixes where the function ends, so
-- only the right pair parses to a function on exactly these lines. Leading
-- newlines keep every line number. Returns nil when no pair does (say, a
-- `function` keyword on a line above its `(`): the caller parses the file.
local FUNCTION_KW, END_KW = "%f[%w_]function%f[^%w_]", "%f[%w_]end%f[^%w_]"
local MAX_TRIES = 16

-- Whether byte p of text is code, not inside a string or a comment (a
-- `function` there would parse, as the wrong function). Scans from the
-- chunk's start, jumping from one quote, `--` or `[` to the next, so it
-- costs the strings and comments above p, not their bytes; false when
-- unsure (an unfinished string, a "\z" escape): the caller then parses
-- the whole file.
local find, byte, match = string.find, string.byte, string.match
local DASH, BRACKET, NL, BACKSLASH = byte("-"), byte("["), byte("\n"), byte("\\")
local function in_code(text, p)
  local pos = 1
  if byte(text, 1) == byte("#") then pos = (find(text, "\n", 1, true) or #text) + 1 end
  while true do
    local s = find(text, "[\"'%-%[]", pos)
    if not s or s >= p then return true end
    local c = byte(text, s)
    if c == DASH then
      if byte(text, s + 1) ~= DASH then
        pos = s + 1
      else
        local eqs = match(text, "^%[(=*)%[", s + 2)
        local close
        if eqs then
          close = select(2, find(text, "]" .. eqs .. "]", s + 4 + #eqs, true))
        else
          close = find(text, "\n", s + 2, true)
        end
        if not close or close >= p then return false end
        pos = close + 1
      end
    elseif c == BRACKET then
      local eqs = match(text, "^%[(=*)%[", s)
      if eqs then
        local close = select(2, find(text, "]" .. eqs .. "]", s + 2 + #eqs, true))
        if not close or close >= p then return false end
        pos = close + 1
      else
        pos = s + 1
      end
    else
      local stop = c == byte('"') and '[\\\n"]' or "[\\\n']"
      local q = s + 1
      while true do
        local e = find(text, stop, q)
        if not e then return false end
        local ec = byte(text, e)
        if ec == BACKSLASH then
          if byte(text, e + 1) == byte("z") then return false end
          q = e + 2
        elseif ec == NL then
          return false
        else
          q = e + 1
          break
        end
      end
      if q > p then return false end
      pos = q
    end
  end
end

local function line_start(text, pos, from, to)
  for _ = from, to - 1 do
    local nl = text:find("\n", pos, true)
    if not nl then return nil end
    pos = nl + 1
  end
  return pos
end

-- Every candidate for the function, as converter.find_functions lists
-- them: one per `function` keyword of the first line whose text parses to
-- a function on exactly these lines (several when functions share their
-- lines); nil when none does.
local function own_lines(text, chunkname, info)
  local first, last = info.linedefined, info.lastlinedefined
  local s = line_start(text, 1, 1, first)
  local ls = s and line_start(text, s, first, last)
  if not ls then return nil end
  local first_end = (text:find("\n", s, true) or #text + 1) - 1
  local e = (text:find("\n", ls, true) or #text + 1) - 1
  local lead, tries, found = ("\n"):rep(first - 1), 0, {}
  local fs, fe = text:find(FUNCTION_KW, s)
  while fs and fs <= first_end do
    if in_code(text, fs) then
      local prefix = text:find("^%s*%(", fe + 1) and "return " or ""
      local qs, qe = text:find(END_KW, math.max(ls, fe + 1))
      while qs and qe <= e do
        tries = tries + 1
        if tries > MAX_TRIES then return nil end
        local ast = parser.parse(lead .. prefix .. text:sub(fs, qe), chunkname)
        local fnode, method
        if ast then fnode, method = converter.find_function(ast, first, last, info.nparams, info.isvararg) end
        if fnode then
          found[#found + 1] = { node = fnode, method = method }
          break
        end
        qs, qe = text:find(END_KW, qe + 1)
      end
    end
    fs, fe = text:find(FUNCTION_KW, fe + 1)
  end
  return found[1] and found or nil
end

-- The parts of a function's bytecode that its text alone fixes: from its
-- parameter count through its instructions and constants, read from
-- string.dump (stripped) in Lua 5.4's format. What the dump has before
-- (source, lines) and after (upvalue descriptors, which point into the
-- enclosing function) is left out, so a function compiled from its text
-- alone, its upvalues declared as locals around it, gives the same string.
local function dump_size(d, pos)
  local x, b = 0, nil
  repeat
    b = byte(d, pos)
    pos = pos + 1
    x = (x << 7) | (b & 0x7f)
  until b >= 0x80
  return x, pos
end

local LUA_VNUMINT, LUA_VNUMFLT, LUA_VSHRSTR, LUA_VLNGSTR = 3, 19, 4, 20

local function code_of(fn)
  local d = string.dump(fn, true)
  if d:sub(1, 5) ~= "\27Lua\x54" then return d end
  local isize, nsize = byte(d, 14), byte(d, 15)
  -- header: signature 4, version, format, LUAC_DATA 6, three sizes, LUAC_INT, LUAC_NUM; then
  -- the main function's upvalue count
  local pos = 4 + 1 + 1 + 6 + 3 + isize + nsize + 1 + 1
  local n
  n, pos = dump_size(d, pos) -- source (absent when stripped)
  if n > 0 then pos = pos + n - 1 end
  n, pos = dump_size(d, pos) -- linedefined
  n, pos = dump_size(d, pos) -- lastlinedefined
  local start = pos
  pos = pos + 3 -- numparams, is_vararg, maxstacksize
  n, pos = dump_size(d, pos)
  pos = pos + 4 * n -- instructions
  n, pos = dump_size(d, pos)
  for _ = 1, n do
    local tag = byte(d, pos)
    pos = pos + 1
    if tag == LUA_VNUMINT then
      pos = pos + isize
    elseif tag == LUA_VNUMFLT then
      pos = pos + nsize
    elseif tag == LUA_VSHRSTR or tag == LUA_VLNGSTR then
      local size
      size, pos = dump_size(d, pos)
      if size > 0 then pos = pos + size - 1 end
    end
  end
  return d:sub(start, pos - 1)
end

-- The node converted for a method (`function a:m(x)`): the parser's
-- parameters leave out the implicit self, which the function takes first.
local function with_self(fnode, method)
  if not method then return fnode end
  local node = {}
  for k, v in pairs(fnode) do node[k] = v end
  node.params = { "self", table.unpack(fnode.params) }
  return node
end

-- Which of several candidates fn was compiled from: each is printed and
-- compiled with fn's upvalues as locals around it, and the one whose
-- bytecode is fn's wins. Nil when none is (say, an upvalue that is a
-- <const> of the enclosing function, compiled into fn as a constant).
local function pick(found, fn, ups, info)
  local want = code_of(fn)
  local head = ups[1] and ("local " .. table.concat(ups, ", ") .. "\n") or ""
  for _, c in ipairs(found) do
    local ret = { tag = "Return", exprs = { with_self(c.node, c.method) } }
    local code = head .. printer.print({ tag = "Block", ret }, { preserve_lines = false })
    local loader = load(code, "=(autograph candidate)", "t", {})
    local candidate = loader and loader()
    if type(candidate) == "function" and code_of(candidate) == want then return c.node, c.method end
  end
  return nil, ("it is one of %d functions defined on line %d, and none of their sources compiles to "
    .. "its bytecode"):format(#found, info.linedefined)
end

-- The function's Function node: from its own lines, else from its file's
-- parse; or nil and why not. The third result is whether several
-- functions share its lines (the node is then the one fn was compiled
-- from).
local function function_node(text, info, fn, ups)
  local found = own_lines(text, info.source, info)
  if not found then
    local ast, err = parse_source(text, info.source)
    if not ast then return nil, "its source does not parse: " .. tostring(err) end
    found = converter.find_functions(ast, info.linedefined, info.lastlinedefined, info.nparams,
      info.isvararg)
    if not found[1] then return nil, "its definition was not found in the source" end
  end
  if not found[2] then return found[1].node, found[1].method, false end
  local fnode, method = pick(found, fn, ups, info)
  return fnode, method, true
end

-- Parses and converts the function's source once per definition site: a
-- site is its chunk, lines and parameters, and where several functions
-- share those, its bytecode too (plans[key].by_code).
local function plan_for(fn, info)
  local key = ("%s:%d:%d:%d:%s"):format(info.source, info.linedefined, info.lastlinedefined,
    info.nparams, tostring(info.isvararg))
  local site = plans[key]
  if site and not site.by_code then return site end
  local code = site and code_of(fn)
  if site and site.by_code[code] then return site.by_code[code] end
  local ups = {}
  for _, n in ipairs(upvalue_names(fn)) do
    if n ~= "_ENV" and n ~= "ag__" then ups[#ups + 1] = n end
  end
  local plan, several
  local text = source.text(info.source)
  if not text then
    plan = { failed = "its source is not available" }
  else
    local fnode, method
    fnode, method, several = function_node(text, info, fn, ups)
    if not fnode then
      plan = { failed = method }
    else
      local conv = converter.convert_function(with_self(fnode, method))
      plan = { code = printer.print(converter.chunk(conv, ups), { preserve_lines = true, ret_calls = true }),
        node = conv, upvalues = ups }
    end
  end
  if several then
    site = site or { by_code = {} }
    site.by_code[code or code_of(fn)] = plan
    plans[key] = site
  else
    plans[key] = plan
  end
  return plan
end

-- What converted code calls (its `ag__`): the runtime's helpers, and calls
-- that convert the Lua functions they call first.
local ag = {}
for k, v in pairs(runtime) do ag[k] = v end

local function env_of(fn)
  for i = 1, math.huge do
    local name, value = debug.getupvalue(fn, i)
    if name == nil then return _G end
    if name == "_ENV" then return value end
  end
end

local function convert_uncached(fn)
  local info = debug.getinfo(fn, "Su")
  if info.what ~= "Lua" or in_library(info.source) then return fn end
  -- Functions made by converted code (they see `ag__`) are converted
  -- already: their definitions were part of the converted source.
  for _, name in ipairs(upvalue_names(fn)) do
    if name == "ag__" then return fn end
  end
  local plan = plan_for(fn, info)
  if plan.failed then
    if not warned[plan] then
      warned[plan] = true
      io.stderr:write(("WARNING: AutoGraph could not transform the function at %s:%d (%s); it runs "
        .. "as is.\n"):format(info.short_src, info.linedefined, plan.failed))
    end
    return fn
  end
  local loader, err = load(plan.code, info.source, "t", env_of(fn))
  if not loader then
    -- Branches and loop bodies become nested functions; a very deeply
    -- nested function can pass one of Lua's own limits once converted.
    if err:find("C stack overflow", 1, true) or err:find("too many", 1, true)
      or err:find("too long", 1, true) or err:find("overflow", 1, true) then
      raise("UnimplementedError", ("AutoGraph cannot convert the function at %s line %d: its "
        .. "converted code passes a limit of Lua (%s). Split it into smaller functions."):format(
        info.short_src, info.linedefined, (err:gsub("^.-:%d+: ", ""))))
    end
    raise("InternalError", "AutoGraph produced code that does not compile: " .. err)
  end
  local nf = loader(ag)
  -- Share the original's upvalues, so both see the same variables.
  local index = {}
  for i, name in ipairs(upvalue_names(fn)) do index[name] = i end
  for i, name in ipairs(upvalue_names(nf)) do
    local j = index[name]
    if j and name ~= "ag__" then debug.upvaluejoin(nf, i, fn, j) end
  end
  converted[nf] = nf
  return nf
end

local function convert(fn)
  local c = converted[fn]
  if c then return c end
  if skip[fn] or ag._made[fn] then return fn end
  c = convert_uncached(fn)
  converted[fn] = c
  return c
end

-- How Lua names a called variable in its "attempt to call" message: a
-- local or upvalue of the converted function, else a global.
local function variable_kind(name)
  for i = 1, math.huge do
    local n = debug.getlocal(3, i)
    if n == nil then break end
    if n == name then return "local" end
  end
  local caller = debug.getinfo(3, "f").func
  for i = 1, math.huge do
    local n = debug.getupvalue(caller, i)
    if n == nil then break end
    if n == name then return "upvalue" end
  end
  return "global"
end

-- The function converted code calls for `f(...)`, which it then calls
-- itself: a Lua function converted, anything callable as is, anything
-- else Lua's own "attempt to call" error at the user's line.
function ag.callee(f, name, kind)
  if type(f) == "function" then return convert(f) end
  local mt = (type(f) == "table" or type(f) == "userdata") and debug.getmetatable(f)
  if mt and mt.__call ~= nil then return f end
  local what = name and (" (%s '%s')"):format(kind or variable_kind(name), name) or ""
  error(("attempt to call a %s value%s"):format(type(f), what), 2)
end

-- `obj:method(...)` in converted code is `ag__.bind(obj, "method")(...)`:
-- bind runs as a plain expression of the user's chunk (never a tail call,
-- even in `return obj:m(x)`), so a nil receiver or method is blamed on the
-- user's line; the call it returns converts the method and passes obj.
function ag.bind(obj, method)
  local t = type(obj)
  if t ~= "table" and t ~= "userdata" and t ~= "string" then
    error(("attempt to index a %s value"):format(t), 2)
  end
  local f = obj[method]
  if f == nil then
    raise("TypeError", ("attempt to call a nil value (method '%s')"):format(method), 1)
  end
  if type(f) == "function" then f = convert(f) end
  return function(...) return f(obj, ...) end
end

--- The converted form of fn (fn itself when it cannot or must not be converted).
autograph.convert = convert

autograph.to_code = doc.def(function(f)
  -- A tf.func (func.lua, above this module) keeps its Lua function.
  if type(f) == "table" and type(rawget(f, "lua_function")) == "function" then f = f.lua_function end
  if type(f) ~= "function" then
    raise("TypeError", "tf.autograph.to_code expects a function or a tf.func", 1)
  end
  local info = debug.getinfo(f, "Su")
  if info.what ~= "Lua" then
    raise("ValueError", "tf.autograph.to_code: a C function has no Lua source", 1)
  end
  local plan = plan_for(f, info)
  if plan.failed then
    raise("ValueError", "tf.autograph.to_code: cannot convert this function: " .. plan.failed, 1)
  end
  local line = source.line(info.source, info.linedefined) or ""
  local base = line:match("function%s+[%w_%.:]-([%a_][%w_]*)%s*%(")
    or line:match("([%a_][%w_]*)%s*=%s*tf%s*[%.%[]") or line:match("([%a_][%w_]*)%s*=%s*function")
    or "fn"
  local name = "tf__" .. base
  local stat = { tag = "FunctionStat", target = { tag = "Id", name = name }, func = plan.node }
  return printer.print({ tag = "Block", stat }, { preserve_lines = false, ret_calls = true })
end, "tf.autograph.to_code(f)",
"The Lua source AutoGraph makes of f (a function or tf.func): control flow on tensors becomes "
.. "ag__.if_stmt / ag__.while_stmt / ag__.for_stmt calls, comparisons ag__.lt and friends.")

autograph.do_not_convert = doc.def(function(fn)
  argcheck.callable(fn, "tf.autograph.do_not_convert", "fn")
  skip[fn] = true
  return fn
end, "tf.autograph.do_not_convert(fn)",
"Marks fn so AutoGraph never converts it (when traced, or when called from converted code); returns fn.")

autograph.internal = { convert = true, internal = true }

return autograph
