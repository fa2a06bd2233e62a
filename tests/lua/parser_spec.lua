-- parser_spec.lua — the Lua 5.4 lexer, parser and printer AutoGraph stands
-- on (lua/moonflow/autograph/). Four claims:
--   1. round trip: every .lua file of the project and of /usr/share/lua/5.4
--      parses, prints, and the printed text compiles and parses back to the
--      very same tree, every node on its original line; small programs
--      covering every construct behave the same before and after printing
--      (results, and runtime errors with their line numbers);
--   2. errors read exactly like load()'s: incomplete input ends in
--      "near <eof>" (the REPL's continuation test), syntax and compile-time
--      errors carry the same line and text, for hand-picked chunks and for
--      every truncation and many mutations of real source;
--   3. the AST has the shape the converter relies on;
--   4. printing trees the converter builds (no lines, any nesting) gives
--      valid Lua that parses back to the same tree.
-- Pure Lua: runs under the moonflow binary and under stock lua5.4 + busted.

local function repo_root()
  local src = debug.getinfo(1, "S").source
  local path = src:sub(1, 1) == "@" and src:sub(2) or ""
  local dir = path:match("^(.*)/tests/lua/[^/]+$")
  if dir then return dir end
  if path:match("^tests/lua/") then return "." end
  return os.getenv("MOONFLOW_ROOT") or "."
end
local ROOT = repo_root()

local saved_path = package.path
package.path = ROOT .. "/lua/?.lua;" .. package.path
local lexer = require("moonflow.autograph.lexer")
local parser = require("moonflow.autograph.parser")
local printer = require("moonflow.autograph.printer")
package.path = saved_path

local function lua_files(dir)
  local list = {}
  local p = io.popen("find '" .. dir .. "' -name '*.lua' -not -path '*/.git/*' 2>/dev/null | sort")
  for f in p:lines() do list[#list + 1] = f end
  p:close()
  return list
end

local function read(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("a")
  f:close()
  return s
end

-- First difference between two trees, as ".path: a vs b" (nil when equal).
-- The path is built only on the way out of a mismatch, keeping the walk
-- cheap. opts.no_lines ignores position fields (trees printed without
-- preserve_lines); opts.added_parens lets the right tree wrap any node of
-- the left one in a Paren (the printer's own precedence parentheses).
local POSITION = { line = true, opline = true, endline = true, else_line = true, linedefined = true,
                   untilline = true, lastline = true }
local function diff(a, b, opts)
  if opts and opts.added_parens and type(a) == "table" and type(b) == "table"
     and b.tag == "Paren" and a.tag ~= "Paren" and a.tag ~= nil then
    b = b.expr
  end
  if type(a) ~= type(b) then return ": " .. type(a) .. " vs " .. type(b) end
  if type(a) ~= "table" then
    if a ~= b and not (a ~= a and b ~= b) then
      return ": " .. tostring(a) .. " vs " .. tostring(b)
    end
    if math.type(a) ~= math.type(b) then return ": integer vs float" end
    return nil
  end
  local no_lines = opts and opts.no_lines
  for k, v in pairs(a) do
    if not (no_lines and POSITION[k]) then
      local d = diff(v, b[k], opts)
      if d then return "." .. tostring(k) .. d end
    end
  end
  for k in pairs(b) do
    if a[k] == nil and not (no_lines and POSITION[k]) then
      return "." .. tostring(k) .. ": missing on the left"
    end
  end
  return nil
end

local function printed_load(src, chunkname, opts)
  local ast = assert(parser.parse(src, chunkname))
  local out = printer.print(ast, opts)
  return load(out, chunkname), out, ast
end

describe("round trip", function()
  local function round_trip(files)
    assert.is_true(#files > 0, "no files found")
    for _, path in ipairs(files) do
      local src = read(path)
      local ast, err = parser.parse(src, "@" .. path)
      -- a file Lua itself rejects (a fixture, or work in progress) must be
      -- rejected with the same message
      local chunk, lerr0 = loadfile(path)
      if not chunk then
        assert.are.equal(lerr0, err)
        goto next_file
      end
      assert(ast, err)
      local out = printer.print(ast)
      local fn, lerr = load(out, "=" .. path)
      assert(fn, "printed source of " .. path .. " does not compile: " .. tostring(lerr))
      local again = assert(parser.parse(out))
      local d = diff(ast, again)
      assert(d == nil, path .. ": tree or lines differ after printing: " .. tostring(d))
      ::next_file::
    end
  end

  it("every project .lua file: parse, print, compile, same tree on the same lines", function()
    round_trip(lua_files(ROOT))
  end)

  it("every .lua file under /usr/share/lua/5.4", function()
    round_trip(lua_files("/usr/share/lua/5.4"))
  end)

  it("without preserve_lines, one statement per line and the same tree", function()
    for _, path in ipairs({ ROOT .. "/lua/moonflow/autograph/parser.lua",
                            "/usr/share/lua/5.4/pl/pretty.lua" }) do
      local ast = assert(parser.parse(read(path)))
      local out = printer.print(ast, { preserve_lines = false })
      local again = assert(parser.parse(out))
      assert.is_nil(diff(ast, again, { no_lines = true }))
    end
  end)

  -- Real source rewritten with every token on a line of its own: then each
  -- node, operator and closing keyword has a line no other one shares, and
  -- the printed text must still put every one of them back on it.
  it("keeps every node on its line when every token has a line of its own", function()
    for _, path in ipairs({ ROOT .. "/lua/moonflow/autograph/parser.lua", "/usr/share/lua/5.4/pl/pretty.lua",
                            "/usr/share/lua/5.4/pl/OrderedMap.lua" }) do
      local f = io.open(path, "rb")
      if f then
        local toks = lexer.tokenize(f:read("a"))
        f:close()
        local parts = {}
        for k = 1, toks.n - 1 do
          local t = toks.type[k]
          parts[k] = (t == "<name>" and toks.value[k])
            or ((t == "<number>" or t == "<string>") and toks.text[k]) or t
        end
        local src = table.concat(parts, "\n")
        local ast = assert(parser.parse(src))
        local out = printer.print(ast)
        local again = assert(parser.parse(out))
        local d = diff(ast, again)
        assert(d == nil, path .. ": " .. tostring(d))
        assert(load(out))
      end
    end
  end)

  it("functions keep debug.getinfo's linedefined and lastlinedefined", function()
    local src = table.concat({
      "local t = {}",
      "local f = function",
      "  (a)",
      "  return a end",
      "local function g",
      "(",
      ") end",
      "function t.h(",
      ") return 1",
      "",
      "end",
      "return f, g, t.h",
    }, "\n")
    local want = { assert(load(src, "=fn"))() }
    local got = { assert(printed_load(src, "=fn"))() }
    for k = 1, 3 do
      local a, b = debug.getinfo(want[k], "S"), debug.getinfo(got[k], "S")
      assert.are.equal(a.linedefined, b.linedefined)
      assert.are.equal(a.lastlinedefined, b.lastlinedefined)
    end
    assert.are.equal(3, debug.getinfo(got[1], "S").linedefined)
    assert.are.equal(assert(parser.parse(src))[2].exprs[1].linedefined, 3)
  end)

  it("counts lines the way Lua does: \\r\\n, \\n\\r and \\r are one break each", function()
    local src = "local a = 1\nlocal s = [[x\ny]]\nlocal t = 'p\\\nq'\n\nreturn a,\n s, t"
    local want = assert(parser.parse(src))
    for _, nl in ipairs({ "\r\n", "\n\r", "\r" }) do
      local other = src:gsub("\n", nl)
      local ast = assert(parser.parse(other))
      -- the same lines; only string token texts keep their own line breaks
      assert.are.equal(want[3].line, ast[3].line)
      assert.are.equal(want[4].line, ast[4].line)
      assert.are.equal(want[4].exprs[2].line, ast[4].exprs[2].line)
      assert.are.equal("x\ny", ast[2].exprs[1].value)
      assert.are.equal("p\nq", ast[3].exprs[1].value)
      local out = printer.print(ast)
      local fn = assert(load(out))
      assert.are.same({ 1, "x\ny", "p\nq" }, { fn() })
      assert.is_nil(diff(ast, assert(parser.parse(out))))
      local _, e1 = load(other .. "\n x = = 1", "=crlf")
      local _, e2 = parser.parse(other .. "\n x = = 1", "=crlf")
      assert.are.equal(e1, e2)
    end
  end)

  it("keeps every statement on its line through comments, blank lines and odd layouts", function()
    local src = table.concat({
      "#!/usr/bin/env lua",
      "local a = 1 --[[ a long",
      "comment ]] local b = [==[",
      "x]==] ; local c",
      "  = a",
      "  +",
      "  b",
      "",
      "if a then",
      "  -- nothing",
      "elseif b",
      "then",
      "",
      "else c = 3 end",
      "return a, b, c",
    }, "\n")
    local ast = assert(parser.parse(src))
    local out = printer.print(ast)
    local again = assert(parser.parse(out))
    assert.is_nil(diff(ast, again))
    -- the shebang line is skipped but still counts
    assert.are.equal(2, ast[1].line)
    assert.are.equal(3, ast[2].line)
    assert.are.equal(4, ast[3].line)
    assert.are.equal(6, ast[3].exprs[1].opline)
    assert.are.equal(15, ast[5].line)
    assert.are.equal(select(2, out:gsub("\n", "")), 14)
  end)

  -- Each snippet runs as written and as printed from its tree; results and
  -- error messages (which carry line numbers) must be identical.
  local SNIPPETS = {
    goto_continue = [[
      local out = {}
      for i = 1, 5 do
        if i % 2 == 0 then goto continue end
        local sq = i * i
        out[#out + 1] = sq
        ::continue::
      end
      local j = 0
      ::top:: j = j + 1
      if j < 3 then goto top end
      return table.concat(out, ","), j
    ]],
    repeat_scope = [[
      local n, seen = 0, {}
      repeat
        local k = n * 2
        n = n + 1
        seen[n] = k
      until k >= 6
      return n, seen[1], seen[4]
    ]],
    close_and_const = [[
      local log = {}
      local function closer(name)
        return setmetatable({}, { __close = function(_, e) log[#log + 1] = name .. ":" .. tostring(e) end })
      end
      do
        local a <close> = closer("a")
        local b <close>, c <const> = closer("b"), 42
        log[#log + 1] = "body" .. c
      end
      local ok = pcall(function()
        local d <close> = closer("d")
        error("boom", 0)
      end)
      local K <const> = 10
      local function useK() return K * 2 end
      return table.concat(log, " "), ok, useK()
    ]],
    arithmetic = [[
      return 7 // 2, 7.0 // 2, -7 // 2, 7 % -3, -7 % 3, 7.5 % 2, 1 / 2, 3 / 0, -3 // 0.0,
             2 ^ 10, 2 ^ 3 ^ 2, -2 ^ 2, (-2) ^ 2, 10 - 2 - 3, 2 * 3 % 4,
             math.maxinteger + 1 == math.mininteger, math.mininteger // -1,
             "10" + 5, "3" * "4", 10 .. 20
    ]],
    bitwise = [[
      return 0xF0 & 0x3C, 0xF0 | 0x0F, 0xF0 ~ 0xFF, ~0, 1 << 62, 1 << 63, 1 << 64, -1 >> 1,
             3 | 4 & 5 ~ 6 << 1, 5 & 3 == 1, "3" & 1, 2.0 | 1, 1 | 2 ~ 3 & 4 << 1 >> 2
    ]],
    comparisons_and_logic = [[
      local t = {}
      return 1 < 2, "a" < "b", 1 == 1.0, "1" == 1, not nil, not 0, nil and 1, false or nil,
             1 and 2 or 3, nil or false, 1 < 2 == true, not 1 == 2, #"abc" + 1, -#"ab",
             t ~= {}, 2 <= 2 and 3 >= 4
    ]],
    numbers = [[
      return 0x10, 0xA.8p0, 0x1p4, 0x.8, 1e10, 3., .5, 3.e2, 1E-2, 0xffffffffffffffff,
             0x7fffffffffffffff + 0, 9223372036854775807, 9223372036854775808,
             -9223372036854775808, 1e308 * 10, 0x1P-2, 00012, 0xA, 0Xa, 1e+2,
             math.type(3), math.type(3.0), math.type(1e2), math.type(0x10)
    ]],
    strings = [===[
      local s = "tab\tnl\nq\"\\ \65\066\0671 \x41\x7a \u{48}\u{20AC}\u{7FFFFFFF} \z
                 joined" .. 'single \'q\' \a\b\f\v\r' .. "line\
continued"
      local l1 = [[
first newline dropped]]
      local l2 = [==[
]] inside ]=] too
]==]
      local l3 = [[]]
      return s, #s, l1, l2, l3, "\0" .. "\1" .. "\255", #"\z
      "
    ]===],
    varargs = [[
      local function f(...) return select("#", ...), ... end
      local function g(...) return (...) end
      local function h(a, ...) local t = { ... } return a, #t, t[2] end
      local function pass(...) return f(...) end
      local function trunc() return (f(1, 2, 3)) end
      return f(nil, nil), g(4, 5, 6), h(1, 2, 3), pass(7, 8), trunc(), select("#", g())
    ]],
    methods = [[
      local obj = { v = 1, inner = { deep = {} } }
      function obj:get() return self.v end
      function obj.set(self, v) self.v = v end
      function obj.inner.deep:name(suffix) return "deep" .. suffix end
      obj:set(5)
      local s = ("x"):rep(3)
      local t = { f = function(self, a) return a end }
      return obj:get(), obj.inner.deep:name("!"), s, ("%d"):format(7), t:f(9), #("abc"):upper()
    ]],
    closures = [[
      local function counter()
        local n = 0
        return function() n = n + 1; return n end, function() return n end
      end
      local inc, get = counter()
      inc(); inc()
      local fs = {}
      for i = 1, 3 do fs[i] = function() return i end end
      local acc = {}
      local k = 1
      while k <= 3 do local kk = k; acc[k] = function() return kk * 10 end; k = k + 1 end
      local function fact(n) if n <= 1 then return 1 end return n * fact(n - 1) end
      return get(), fs[1]() + fs[3](), acc[2](), fact(10)
    ]],
    assignment_order = [[
      local log = {}
      local t = setmetatable({}, { __newindex = function(t, k, v) log[#log + 1] = k .. "=" .. tostring(v); rawset(t, k, v) end })
      local function key(k) log[#log + 1] = "key" .. k; return k end
      local function val(v) log[#log + 1] = "val" .. v; return v end
      t[key("a")], t[key("b")] = val(1), val(2), val(3)
      local a, b, c = 1
      local x, y = 1, 2
      x, y = y, x
      local i = 1
      local arr = { 10, 20 }
      i, arr[i] = i + 1, 99
      return table.concat(log, " "), a, b, c, x, y, i, arr[1], arr[2]
    ]],
    precedence = [[
      local a, b, c, d = 2, 3, 4, 5
      return a + b * c ^ d / b - c, (a + b) * c, a .. b .. c, a ^ -b, -a ^ b,
             not a == b, a < b and b < c or d, a + b == 5 and c - d == -1,
             1 .. 2 == "12", a * -b, -(-a), - -a, a - (b - c), a / (b * c),
             a // b * c, a % b ^ c, 2 ^ 2 ^ 3, (2 ^ 2) ^ 3, a << 1 + 1, (a << 1) + 1,
             #"ab" .. "c", ("x"):rep(2) .. "y", a or b and c, (a or b) and c
    ]],
    tables = [[
      local k = "kk"
      local function two() return 1, 2 end
      local t = { 1, 2; x = 3, ["y"] = 4, [k] = 5, [10] = 6, two(), [2 + 3] = "five"; }
      local u = { two(), two() }
      local v = { (two()) }
      local w = { f = function() return "f" end, { nested = true } }
      return #t, t[3], t[4], t.x, t.y, t.kk, t[10], t[5], #u, #v, w.f(), w[1].nested
    ]],
    control = [[
      local out = {}
      for i = 10, 1, -3 do out[#out + 1] = i end
      for i = 1, 0 do out[#out + 1] = "never" end
      for i = 1.0, 2 do out[#out + 1] = math.type(i) end
      for k, v in ipairs({ "a", "b" }) do out[#out + 1] = k .. v end
      local n = 0
      while true do n = n + 1; if n > 3 then break end end
      repeat n = n - 1 until n < 0
      if n == -1 then out[#out + 1] = "neg" elseif n == 0 then out[#out + 1] = "zero" else out[#out + 1] = "?" end
      do local n = 100; out[#out + 1] = n end
      return table.concat(out, ","), n
    ]],
    sugar = [=[
      local function id(x) return x end
      local s = id"str"
      local t = id{ 1, 2 }
      local l = id[[long]]
      local m = ("%s-%s"):format("a", "b")
      local o = { m = function(self, x) return x end }
      return s, #t, l, m, o:m"sugar", o:m{ 1 }[1], type(id)
    ]=],
    runtime_error_lines = [[
      local t = {}
      local function deep(x)
        local y = x
          + t.missing
        return y
      end
      local ok, err = pcall(deep, 1)
      local ok2, err2 = pcall(function()
        return ("x") ..
          {}
      end)
      local info = debug.getinfo(deep, "S")
      local ok3, err3 = pcall(error, "lvl", 1)
      local function where() return debug.getinfo(1, "l").currentline end
      return err, err2, info.linedefined, info.lastlinedefined, ok3, err3, where()
    ]],
    semicolons_and_parens = [[
      local log = {};
      local function f(x) log[#log + 1] = x; return f end;
      ;;; f(1)(2);
      (f)(3);
      (f)(4)(5)
      local s = ("a"):upper()
      return table.concat(log, ","), s
    ]],
    labels_nested = [[
      local r = {}
      for i = 1, 3 do
        for j = 1, 3 do
          if j == 2 then goto next_i end
          r[#r + 1] = i .. j
        end
        ::next_i::
      end
      do goto skip; r[#r + 1] = "skipped"; ::skip:: end
      return table.concat(r, " ")
    ]],
    integer_float_conversion = [[
      return 3 // 1, 3.5 // 1, 2^53 + 1, math.tointeger(3.0), 7 // 0.0, -7 // 0.0, 0/0 ~= 0/0,
             1e15, 123456789012, string.format("%.17g", 0.1), 100000000000000 * 100000
    ]],
  }

  local function serialize(v, seen)
    local t = type(v)
    if t == "string" then return string.format("%q", v) end
    if t == "number" then
      if math.type(v) == "integer" then return string.format("%d", v) end
      if v ~= v then return "nan" end
      return string.format("%.17g!", v)
    end
    if t ~= "table" then return tostring(v) end
    seen = seen or {}
    if seen[v] then return "<cycle>" end
    seen[v] = true
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = k end
    table.sort(keys, function(x, y) return serialize(x) < serialize(y) end)
    local parts = {}
    for _, k in ipairs(keys) do parts[#parts + 1] = serialize(k) .. "=" .. serialize(v[k], seen) end
    return "{" .. table.concat(parts, ",") .. "}"
  end

  local function run(fn)
    local r = table.pack(pcall(fn))
    local parts = {}
    for k = 1, r.n do parts[k] = serialize(r[k]) end
    return table.concat(parts, " | ")
  end

  for name, src in pairs(SNIPPETS) do
    it("behaves the same after printing: " .. name, function()
      local orig = assert(load(src, "=" .. name))
      for _, preserve in ipairs({ true, false }) do
        local fn, out = printed_load(src, "=" .. name, { preserve_lines = preserve })
        assert(fn, "printed snippet does not compile:\n" .. out)
        local want, got = run(orig), run(fn)
        if preserve then
          assert.are.equal(want, got)
        elseif name ~= "runtime_error_lines" then
          -- without preserve_lines only messages carrying line numbers may differ
          assert.are.equal(want:gsub(name .. ":%d+:", ""), (got:gsub(name .. ":%d+:", "")))
        end
      end
    end)
  end

  it("the runtime-error snippet really reports the user's lines", function()
    local fn = printed_load(SNIPPETS.runtime_error_lines, "=snip")
    local err, err2, first, last, _, _, where = fn()
    assert.truthy(err:find("^snip:4:"), err)
    assert.truthy(err2:find("^snip:9:"), err2) -- the line of '..', as Lua has it
    assert.are.equal(2, first)
    assert.are.equal(6, last)
    assert.are.equal(14, where)
  end)
end)

describe("errors", function()
  -- the whole message must equal load()'s, chunk name and line included
  local function same_as_load(src, chunkname)
    local _, want = load(src, chunkname)
    local ast, got = parser.parse(src, chunkname)
    assert(want, "load() accepts " .. string.format("%q", src))
    assert.is_nil(ast)
    assert.are.equal(want, got)
    return got
  end

  it("incomplete input ends in near <eof>, exactly as load() says", function()
    local chunks = {
      "if x then", "if x then y() else", "f(", "f(1,", "x = {", "x = {1, 2,", "t = { a = ",
      "local function f()", "function a.b:", "function a.b:m(", "function f(a,", "x = [[abc",
      "x = [==[\n abc ]=]", "--[[ comment", "--[==[ comment\n\n]]", "x = 'abc", 'x = "a\\',
      "for i = 1, 2 do", "for k, v in pairs(t) do", "for i =", "repeat", "repeat x = 1 until",
      "while true do", "while", "do", "return f(", "x = a +", "x = not", "x = -", "local x <",
      "local x <const", "local", "local x =", "goto", "::", "::a", "x = (1", "x = a[", "x = a.",
      "a:b", "x = function", "x = function(", "if x", "if x then else",
      "local t = {\n  a = 1,\n  b = {\n", "print('a',\n'b',\n", "x = 1 ..", "x = a or",
    }
    for _, src in ipairs(chunks) do
      local msg = same_as_load(src)
      assert.truthy(msg:find("near <eof>$"), msg)
    end
  end)

  it("syntax errors: same message and line as load()", function()
    local chunks = {
      "x = = 1", "x = 1\ny = = 2", "local 1 = 2", "f() = 1", "(a) = 1", "a, f() = 1", "x",
      "a.b:c = 1", "return 1 x = 2", "if x then return 1 print(2) end", "t = {x y}",
      "t = {\nx\ny}", "f(\n1\n2)", "function f(1) end", "for x do end", "for 1 = 1, 2 do end",
      "local function 1() end", "x = 1 ... 2", "x = 3x", "x = 0x", "x = 1..2", "x = [=a",
      "x = @", "x = \1", "x = é", "x = 'a\nb'", "x = '\\q'", "x = '\\300'", "x = '\\xg'",
      "x = '\\x5g'", "x = '\\u{110000000}'", "x = '\\u{zz}'", "x = '\\uz'", "x = '\\u{12'",
      "x = a\n.\n1", "x = }", "goto 1", "::1::", "local x <1> = 2", "break = 1", "end",
      "x = 1 then", "until x", "if x then elseif end", "f{1}{2}'s'[[t]] = 1", "x = {[1] 2}",
      "a.b.c = 1 b:c = 2", "x = y z", "local a, = 1", "return return", "x = (a,b)",
      "local t = [[\nmulti\nline]] + + 1", "x = 'a' 'b' y", "x = 1 [[\nabc]]",
      "x = 1 [==[\r\nabc\r\n]==]", "x = 1 [[\n\nabc]]", "x = 1 \"a\\tb\\\nc\"",
      -- NUL bytes end Lua's %s: in chunk names, in quoted tokens, and as a token
      "x = 1 \"a\0b\"", "x = 1 \"a\\0b\"", "x = \"a\\0b\\q\"", "x = 1 [[a\0b]]", "x\0 = 1", "\0",
    }
    for _, src in ipairs(chunks) do same_as_load(src) end
  end)

  it("compile-time errors: goto, labels, break, const, attributes, varargs", function()
    local chunks = {
      "goto a", "break", "do local x end\n::a::\n goto b\n", "goto a; local x; ::a:: print(x)",
      "::a:: ::a::", "::a::\ndo\n::a::\nend", "repeat goto c; local x ::c:: until x",
      "local x <foo> = 1", "local x <close>, y <close> = 1", "local x <const> = 1; x = 2",
      "local x <close> = nil; x = 2", "local t <const> = 1\nfunction t() end\nx=1",
      "function f() local a <const> = 1; return function() a = 2 end end",
      "local a <const> = 1; local b; b, a = 1, 2", "function f() return ... end",
      "local function f(a) return function(...) return ... end, ... end",
      "for i = 1, 2 do end break", "while x do local f = function() break end end",
      "do goto out end local z ::out:: print(z)", "if x then goto e end local y\n::e::\nprint(y)",
      "goto f; do ::f:: end",
    }
    -- the limit of 200 locals per function, hidden for-loop variables included
    local function names(n) local t = {} for k = 1, n do t[k] = "v" .. k end return table.concat(t, ", ") end
    chunks[#chunks + 1] = "local " .. names(201)
    chunks[#chunks + 1] = "x = function(\n" .. names(201) .. ") end"
    chunks[#chunks + 1] = "function m:f(" .. names(200) .. ") end"
    chunks[#chunks + 1] = "local " .. names(197) .. "\nfor i = 1, 2 do end"
    chunks[#chunks + 1] = "local " .. names(195) .. "\nfor k, v in pairs(t) do end"
    chunks[#chunks + 1] = "local x <const> = 1; local y = function() x = 1 end"
    for _, src in ipairs(chunks) do same_as_load(src) end
    -- and the forms Lua accepts
    assert(parser.parse("local " .. names(200)))
    assert(parser.parse("local " .. names(196) .. "\nfor i = 1, 2 do end"))
    assert(parser.parse("do local " .. names(150) .. " end local " .. names(150)))
    assert(parser.parse("local x = function() x = 1 end"))
    for _, src in ipairs({
      "for i = 1, 3 do if i then goto continue end local x = 1 ::continue:: end",
      "do goto out; local z ::out:: end", "::a:: do ::b:: end do ::b:: end goto a",
      "local x <const> = 1; do local x = 2; x = 3 end",
      "while true do do break end end", "x = ...",
    }) do
      assert(parser.parse(src))
      assert(load(src))
    end
  end)

  it("chunk names print like load()'s: =name, @file, [string \"...\"]", function()
    local long = string.rep("x", 100)
    for _, cn in ipairs({ "=stdin", "@file.lua", "@" .. long .. ".lua", "=" .. long, "plain",
                          "two\nlines", long }) do
      same_as_load("x = = 1", cn)
    end
    same_as_load("x = = 1") -- the default chunk name is the source itself
    same_as_load(string.rep("-- long first line\n", 5) .. "x = = 1")
  end)

  it("every truncation of real source errs exactly like load()", function()
    local src = read(ROOT .. "/lua/moonflow/autograph/printer.lua")
    local n = 0
    for cut = 1, #src, 89 do
      local piece = src:sub(1, cut)
      local f, want = load(piece, "=t")
      local ast, got = parser.parse(piece, "=t")
      assert.are.equal(f == nil, ast == nil)
      assert.are.equal(want, got)
      n = n + 1
    end
    assert.is_true(n > 50)
  end)

  it("mutated real source errs exactly like load() (or compiles in both)", function()
    local files = { ROOT .. "/lua/moonflow/autograph/parser.lua", "/usr/share/lua/5.4/pl/stringx.lua",
                    "/usr/share/lua/5.4/busted/core.lua" }
    local inserts = { "(", ")", "end", "=", ",", "local", "goto x", "::x::", "break", "'", "[[",
                      "...", "..", ".", "return", "<const>", "{", "}", "--[[", "\\", "until", "0x" }
    local seed = 12345
    local function rnd(n) seed = (seed * 1103515245 + 12345) % 2147483648; return (seed >> 16) % n + 1 end
    for _, path in ipairs(files) do
      local f = io.open(path, "rb")
      if f then
        local src = f:read("a")
        f:close()
        for _ = 1, 40 do
          local p = rnd(#src)
          local q = math.min(#src, p + rnd(7) - 1)
          local m, piece = rnd(3)
          if m == 1 then piece = src:sub(1, p - 1) .. src:sub(q + 1)
          elseif m == 2 then piece = src:sub(1, q) .. src:sub(p)
          else piece = src:sub(1, p) .. inserts[rnd(#inserts)] .. src:sub(p + 1) end
          local fn, want = load(piece, "=m")
          local ast, got = parser.parse(piece, "=m")
          assert.are.equal(fn == nil, ast == nil, got or want)
          assert.are.equal(want, got)
        end
      end
    end
  end)

  it("random token soup: the same verdict and message as load(), printable when accepted", function()
    local vocab = { "x", "y", "f", "(", ")", "[", "]", "{", "}", "=", "==", ",", ";", ".", "..", "...",
      ":", "::", "+", "-", "*", "/", "//", "%", "^", "#", "&", "|", "~", "<<", ">>", "<", "<=", ">",
      ">=", "~=", "and", "or", "not", "nil", "true", "false", "local", "function", "end", "if", "then",
      "elseif", "else", "while", "do", "for", "in", "repeat", "until", "return", "break", "goto",
      "<const>", "<close>", "1", "0x1p4", "3.", ".5", "1e5", "'s'", '"a\\tb"', "[[\nl]]", "[==[x]==]",
      "\n", " ", "--c\n", "--[[c\n]]", "'\\z\n  q'", '"\\\n"', "@", "\1", "0x", "1..2", "[=",
      "'abc\n", "'\\u{7}'", "\0", "'\\0'" }
    local seed = 99
    local function rnd(n) seed = (seed * 1103515245 + 12345) % 2147483648; return (seed >> 16) % n + 1 end
    local accepted = 0
    for _ = 1, 6000 do
      local t = {}
      for k = 1, rnd(12) do t[k] = vocab[rnd(#vocab)] end
      local src = " " .. table.concat(t, " ") -- never a '#' first line
      local fn, want = load(src, "=soup")
      local ast, got = parser.parse(src, "=soup")
      assert.are.equal(want, got)
      if ast then
        accepted = accepted + 1
        assert(load(printer.print(ast)))
        assert(load(printer.print(ast, { preserve_lines = false })))
      end
    end
    assert.is_true(accepted > 20, accepted)
  end)

  it("nesting deeper than Lua's 200 levels is an error, not a crash", function()
    for _, src in ipairs({ "x = " .. ("("):rep(5000) .. "1" .. (")"):rep(5000),
                           ("do "):rep(5000) .. ("end "):rep(5000),
                           "x = " .. ("{"):rep(300) .. ("}"):rep(300),
                           "x = 1" .. (" .. 1"):rep(300), "x = " .. ("not "):rep(300) .. "1" }) do
      local ast, err = parser.parse(src, "=deep")
      assert.is_nil(ast)
      assert.truthy(err:find("^deep:1: C stack overflow near "), err)
      local ok, f = pcall(load, src)
      assert.is_true(not ok or f == nil) -- Lua refuses them as well
    end
    -- what Lua takes, we take: moderate nesting and very long flat chains
    local src = "return " .. ("("):rep(150) .. "1" .. (")"):rep(150) .. " + 2" .. (" + 1"):rep(20000)
    local fn = assert(load(printer.print(assert(parser.parse(src)))))
    assert.are.equal(20003, fn())
  end)

  it("parse_expression: one expression, and nothing after it", function()
    local e = assert(parser.parse_expression("a + b * 2"))
    assert.are.equal("Binop", e.tag)
    assert.are.equal("+", e.op)
    local _, err = parser.parse_expression("a +", "=expr")
    assert.are.equal("expr:1: unexpected symbol near <eof>", err)
    _, err = parser.parse_expression("a b", "=expr")
    assert.are.equal("expr:1: <eof> expected near 'b'", err)
    -- an expression's leading '#' is the length operator, not a "#!" line
    assert.are.equal("Unop", assert(parser.parse_expression("#t")).tag)
  end)

  it("a non-string source is a caller's mistake, raised", function()
    assert.has_error(function() parser.parse(42) end)
  end)
end)

describe("AST shape", function()
  local function stat(src) return assert(parser.parse(src))[1] end
  local function exp(src) return assert(parser.parse_expression(src)) end

  it("local with attributes, and assignments", function()
    local s = stat("local a <const>, b, c <close> = 1, f()")
    assert.are.equal("Local", s.tag)
    assert.are.same({ { name = "a", attrib = "const" }, { name = "b" }, { name = "c", attrib = "close" } }, s.names)
    assert.are.equal("Number", s.exprs[1].tag)
    assert.are.equal("Call", s.exprs[2].tag)
    s = stat("x, t.y, t[1] = 1, 2")
    assert.are.equal("Set", s.tag)
    assert.are.equal("Id", s.targets[1].tag)
    assert.are.equal("Index", s.targets[2].tag)
    assert.is_true(s.targets[2].dot)
    assert.are.same({ tag = "String", value = "y", line = 1 }, s.targets[2].key)
    assert.is_nil(s.targets[3].dot)
    assert.are.equal(2, #s.exprs)
  end)

  it("calls, method calls, function statements", function()
    local s = stat("obj.a:m(1, 'x')")
    assert.are.equal("CallStat", s.tag)
    assert.are.equal("Invoke", s.call.tag)
    assert.are.equal("m", s.call.method)
    assert.are.equal("Index", s.call.obj.tag)
    assert.are.equal(2, #s.call.args)
    s = stat("function a.b.c:m(x, ...) return self end")
    assert.are.equal("FunctionStat", s.tag)
    assert.are.equal("m", s.method)
    assert.are.same({ "x" }, s.func.params)
    assert.is_true(s.func.is_vararg)
    assert.are.equal("Index", s.target.tag)
    assert.are.equal("c", s.target.key.value)
    assert.are.equal("b", s.target.obj.key.value)
    assert.are.equal("a", s.target.obj.obj.name)
    s = stat("local function f(a, b)\n\nend")
    assert.are.equal("LocalFunction", s.tag)
    assert.are.equal("f", s.name)
    assert.are.same({ "a", "b" }, s.func.params)
    assert.is_false(s.func.is_vararg)
    assert.are.equal(3, s.func.lastline)
  end)

  it("control statements", function()
    local s = stat("if a then x() elseif b then\n y() else z() end")
    assert.are.equal("If", s.tag)
    assert.are.equal(2, #s.clauses)
    assert.are.equal(1, s.clauses[2].line)
    assert.are.equal("Id", s.clauses[2].cond.tag)
    assert.are.equal(2, s.clauses[2].body.line)
    assert.are.equal("Block", s.orelse.tag)
    s = stat("for i = 1, n do end")
    assert.are.equal("Fornum", s.tag)
    assert.are.equal("i", s.var)
    assert.is_nil(s.step)
    s = stat("for k, v in pairs(t), nil do break end")
    assert.are.equal("Forin", s.tag)
    assert.are.same({ "k", "v" }, s.names)
    assert.are.equal(2, #s.exprs)
    assert.are.equal("Break", s.body[1].tag)
    s = stat("repeat local z = 1 until z")
    assert.are.equal("Repeat", s.tag)
    assert.are.equal("Local", s.body[1].tag)
    assert.are.equal("z", s.cond.name)
    s = stat("while x do end")
    assert.are.equal("While", s.tag)
    local b = assert(parser.parse("do ::l:: goto l end return 1, 2;"))
    assert.are.equal("Do", b[1].tag)
    assert.are.same({ tag = "Label", name = "l", line = 1 }, b[1].body[1])
    assert.are.same({ tag = "Goto", name = "l", line = 1 }, b[1].body[2])
    assert.are.equal("Return", b[2].tag)
    assert.are.equal(2, #b[2].exprs)
  end)

  it("literals keep their text and Lua's values", function()
    local e = exp("0x10")
    assert.are.same({ tag = "Number", text = "0x10", value = 16, line = 1 }, e)
    assert.are.equal("float", math.type(exp("9223372036854775808").value))
    assert.are.equal(math.mininteger, exp("0x8000000000000000").value)
    assert.are.equal(10.5, exp("0xA.8p0").value)
    assert.are.equal(0.5, exp(".5").value)
    e = exp([["a\tb\65\z
              c\u{20AC}"]])
    assert.are.equal("a\tbAc\u{20AC}", e.value)
    assert.are.equal([["a\tb\65\z
              c\u{20AC}"]], e.text)
    e = exp("[==[\nx]]y]==]")
    assert.are.equal("x]]y", e.value)
    assert.are.equal("[==[\nx]]y]==]", e.text)
    assert.are.equal("Nil", exp("nil").tag)
    assert.are.equal("True", exp("true").tag)
    assert.are.equal("False", exp("false").tag)
    assert.are.equal("Dots", exp("...").tag)
  end)

  it("operators: precedence, associativity, unary, parentheses", function()
    local e = exp("a .. b .. c")
    assert.are.equal("..", e.op)
    assert.are.equal("Id", e.left.tag)
    assert.are.equal("..", e.right.op)
    e = exp("a - b - c")
    assert.are.equal("-", e.left.op)
    e = exp("-x ^ 2")
    assert.are.equal("Unop", e.tag)
    assert.are.equal("^", e.expr.op)
    e = exp("not a == b")
    assert.are.equal("==", e.op)
    assert.are.equal("not", e.left.op)
    e = exp("a or b and c < d | e ~ f & g << h .. i + j * k ^ l")
    local ops = {}
    while e.tag == "Binop" do ops[#ops + 1] = e.op; e = e.right end
    assert.are.same({ "or", "and", "<", "|", "~", "&", "<<", "..", "+", "*", "^" }, ops)
    e = exp("(f())")
    assert.are.equal("Paren", e.tag)
    assert.are.equal("Call", e.expr.tag)
    e = exp("a +\n b")
    assert.are.equal(1, e.line)
    assert.are.equal(1, e.opline)
    assert.are.equal(2, e.right.line)
  end)

  it("functions and tables", function()
    local e = exp("function(a, ...) return a end")
    assert.are.equal("Function", e.tag)
    assert.are.same({ "a" }, e.params)
    assert.is_true(e.is_vararg)
    assert.are.equal("Return", e.body[1].tag)
    e = exp("{ 1, x = 2, ['y'] = 3; [k] = 4, }")
    assert.are.equal("Table", e.tag)
    assert.are.equal("pos", e.fields[1].kind)
    assert.are.equal("named", e.fields[2].kind)
    assert.are.equal("x", e.fields[2].key)
    assert.are.equal("keyed", e.fields[3].kind)
    assert.are.equal("String", e.fields[3].key.tag)
    assert.are.equal("Id", e.fields[4].key.tag)
    assert.are.equal(4, #e.fields)
  end)

  it("walk visits every node in source order; false skips children", function()
    local ast = assert(parser.parse("local x = f(a + 1) if x then return function() y = 2 end end"))
    local tags = {}
    parser.walk(ast, function(n) tags[#tags + 1] = n.tag end)
    assert.are.same({ "Block", "Local", "Call", "Id", "Binop", "Id", "Number", "If", "Id", "Block",
                      "Return", "Function", "Block", "Set", "Id", "Number" }, tags)
    local seen = {}
    parser.walk(ast, function(n, parent)
      seen[#seen + 1] = n.tag
      if n.tag == "Function" then return false end
      if n ~= ast then assert.is_table(parent) end
    end, function(n) if n.tag == "Function" then seen[#seen + 1] = "/Function" end end)
    assert.are.equal("/Function", seen[#seen])
  end)
end)

describe("printer on synthesized trees", function()
  local function N(v) return { tag = "Number", value = v } end
  local function Id(n) return { tag = "Id", name = n } end

  it("prints nodes without lines inline and parses back to the same tree", function()
    local tree = { tag = "Block",
      { tag = "Local", names = { { name = "x" } }, exprs = { N(1) } },
      { tag = "CallStat", call = { tag = "Call", func = { tag = "Paren", expr = Id("f") }, args = {} } },
      { tag = "Return", exprs = { Id("x") } },
      { tag = "Set", targets = { Id("y") }, exprs = { N(2) } },
    }
    local out = printer.print(tree)
    assert.are.equal("local x = 1; (f)(); do return x end; y = 2", out)
    assert(load(out))
  end)

  it("mixes nodes with and without lines", function()
    local ast = assert(parser.parse("local a = 1\n\n\nreturn a"))
    table.insert(ast, 2, { tag = "Set", targets = { Id("a") }, exprs = { N(2) } })
    assert.are.equal("local a = 1; a = 2\n\n\nreturn a", printer.print(ast))
  end)

  it("values without text: every byte string, special numbers", function()
    local all = {}
    for c = 0, 255 do all[#all + 1] = string.char(c) end
    local s = table.concat(all) .. "\0001\r\n9"
    local text = printer.print({ tag = "String", value = s })
    assert.are.equal(s, load("return " .. text)())
    assert.is_nil(text:find("[\n\r]"))
    for _, v in ipairs({ 0, 1, -1, 2 ^ 53, -0.0, 0.1, 1 / 3, -1e300, 1e300, math.huge, -math.huge,
                         math.maxinteger, math.mininteger, 5e-324, 3.0, -7 }) do
      local got = load("return " .. printer.number(v))()
      assert.are.equal(math.type(v), math.type(got))
      assert.are.equal(string.format("%a", v), string.format("%a", got))
    end
    local nan = load("return " .. printer.number(0 / 0))()
    assert.is_true(nan ~= nan)
    -- a negative number is parenthesised where it matters
    local e = { tag = "Binop", op = "-", left = N(1), right = N(-1) }
    assert.are.equal(2, load("return " .. printer.print(e))())
    e = { tag = "Binop", op = "^", left = N(-2), right = N(2) }
    assert.are.equal(4.0, load("return " .. printer.print(e))())
  end)

  it("random operator trees keep their shape (precedence and associativity)", function()
    local BIN = { "or", "and", "<", "<=", "==", "~=", "|", "~", "&", "<<", ">>", "..",
                  "+", "-", "*", "/", "//", "%", "^" }
    local UN = { "not", "-", "#", "~" }
    local seed = 7
    local function rnd(n) seed = (seed * 1103515245 + 12345) % 2147483648; return (seed >> 16) % n + 1 end
    local function gen(d)
      local r = rnd(10)
      if d > 5 or r <= 2 then return Id("v" .. rnd(5)) end
      if r == 3 then return { tag = "Unop", op = UN[rnd(#UN)], expr = gen(d + 1) } end
      if r == 4 then return { tag = "Paren", expr = gen(d + 1) } end
      if r == 5 then
        return { tag = "Call", func = { tag = "Function", params = {}, is_vararg = false,
                 body = { tag = "Block" } }, args = { gen(d + 1) } }
      end
      if r == 6 then
        return { tag = "Index", obj = { tag = "String", value = "s" }, key = gen(d + 1) }
      end
      return { tag = "Binop", op = BIN[rnd(#BIN)], left = gen(d + 1), right = gen(d + 1) }
    end
    for _ = 1, 500 do
      local e = gen(0)
      local text = printer.print(e)
      local back, err = parser.parse_expression(text)
      assert(back, err)
      local d = diff(e, back, { no_lines = true, added_parens = true })
      -- parsed Strings carry their token text; that is not shape
      assert(d == nil or d:find("%.text: missing on the left$"), text .. "\n" .. tostring(d))
    end
  end)

  it("function statements whose target cannot be a funcname become assignments", function()
    local f = { tag = "Function", params = { "a" }, is_vararg = false,
                body = { tag = "Block", { tag = "Return", exprs = { Id("self") } } } }
    local s = { tag = "FunctionStat", target = { tag = "Index", obj = Id("t"), key = N(1) },
                method = "m", func = f }
    local out = printer.print(s)
    local t = { [1] = {} }
    local fn = assert(load(out, "=fs", "t", { t = t }))
    fn()
    assert.are.equal(t[1], t[1]:m(1))
  end)

  it("prints through the walker after an edit", function()
    local ast = assert(parser.parse("local y = x + 1\nreturn y * 2"))
    parser.walk(ast, function(n)
      if n.tag == "Number" then n.value, n.text = n.value * 10, nil end
    end)
    local fn = assert(load(printer.print(ast), "=w", "t", { x = 1 }))
    assert.are.equal(220, fn())
  end)
end)

describe("lexer positions and code_only", function()
  it("gives every token the byte where it starts", function()
    local src = "local s = 'a' --[[ c ]] .. [==[x]==]\n  x = 1.5"
    local toks = lexer.tokenize(src)
    local starts = {}
    for k = 1, toks.n do starts[#starts + 1] = toks.pos[k] end
    assert.are.same({ 1, 7, 9, 11, 25, 28, 40, 42, 44, #src + 1 }, starts)
    local bad = lexer.tokenize("x = 'open\n")
    assert.are.equal("<error>", bad.type[bad.n])
    assert.are.equal(5, bad.pos[bad.n])
  end)

  it("blanks comments and string contents, keeping lines and columns", function()
    local src = "#!/usr/bin/lua\nlocal a = \"end\" -- if x then\n"
      .. "--[==[ multi\nline ]==] b = [[long\nstring]] .. 'q\\'uote'\nreturn a"
    local code = lexer.code_only(src)
    assert.are.equal(#src, #code)
    assert.are.equal((" "):rep(14) .. "\nlocal a = \"   \"" .. (" "):rep(13) .. "\n"
      .. (" "):rep(12) .. "\n          b = \"\"    \n" .. (" "):rep(8) .. " .. '" .. (" "):rep(7) .. "'\nreturn a",
      code)
    assert.are.equal("x =      ", lexer.code_only("x = 'open"))
  end)
end)
