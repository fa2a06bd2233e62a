-- autograph_exact_spec.lua — AutoGraph must not change what a program
-- means: each function here is run as plain Lua on eager tensors, traced
-- by tf.func (twice, the second call retracing), and under
-- tf.config.run_functions_eagerly(true), and all must give the same answer.

local tf = tf or require("moonflow")

local helpers = require("helpers")

-- Lua data for a result: tensors become their numpy value.
local function plain(v)
  if tf.is_tensor(v) then return v:numpy() end
  if type(v) == "table" then
    local out = {}
    for k, x in pairs(v) do out[k] = plain(x) end
    return out
  end
  return v
end

local function results(f, ...)
  local r = table.pack(f(...))
  local out = { n = r.n }
  for i = 1, r.n do out[i] = plain(r[i]) end
  return out
end

-- Runs fn as plain Lua, traced, retraced with args2 (a second signature),
-- and eagerly through tf.func; asserts every run gives the plain answer.
local function same_everywhere(fn, args, args2)
  local expect = results(fn, table.unpack(args, 1, args.n or #args))
  local f = tf.func(fn)
  assert.are.same(expect, results(f, table.unpack(args, 1, args.n or #args)), "traced")
  if args2 then
    assert.are.same(results(fn, table.unpack(args2, 1, args2.n or #args2)),
      results(f, table.unpack(args2, 1, args2.n or #args2)), "retraced")
  end
  tf.config.run_functions_eagerly(true)
  local ok, got = pcall(results, tf.func(fn), table.unpack(args, 1, args.n or #args))
  tf.config.run_functions_eagerly(false)
  assert.is_true(ok, tostring(got))
  assert.are.same(expect, got, "run_functions_eagerly")
  return expect
end

describe("AutoGraph elseif at the top level of a function", function()
  it("if / elseif / else on a tensor carries the local through every branch", function()
    local fn = function(x)
      local y = tf.constant(0)
      if x > 10 then y = y + 1 elseif x > 5 then y = y + 2 else y = y + 3 end
      return y
    end
    assert.are.same({ 2, n = 1 }, same_everywhere(fn, { tf.constant(7) }, { tf.constant(11) }))
    assert.are.same({ 3, n = 1 }, same_everywhere(fn, { tf.constant(1) }))
  end)

  it("if / elseif without else keeps the local when no branch runs", function()
    local fn = function(x)
      local y = tf.constant(0)
      if x > 10 then y = y + 1 elseif x > 5 then y = y + 2 end
      return y
    end
    assert.are.same({ 2, n = 1 }, same_everywhere(fn, { tf.constant(7) }, { tf.constant(1) }))
  end)

  it("a Lua condition then a tensor elseif does not return early", function()
    local fn = function(x)
      local y = tf.constant(0)
      if 1 > 2 then y = x elseif x < 5 then y = y + 1 end
      return y
    end
    assert.are.same({ 1, n = 1 }, same_everywhere(fn, { tf.constant(3) }, { tf.constant(9) }))
  end)
end)

describe("AutoGraph varargs", function()
  it("`...` inside a converted if and loop of a vararg function", function()
    local fn = function(x, ...)
      local n = tf.constant(0)
      if x > 0 then n = n + select("#", ...) end
      local t = { ... }
      if x > 1 then n = n + #t end
      while n < 10 do n = n + (...) end
      return n, ...
    end
    assert.are.same({ 10, 1, 2, n = 3 }, same_everywhere(fn, { tf.constant(3), 1, 2 }, { tf.constant(-1), 1, 2, 3 }))
  end)
end)

describe("AutoGraph errors point at the user's line", function()
  it("error() and calling an undefined global", function()
    local line = debug.getinfo(1, "l").currentline
    local f = tf.func(function(x) if x > 0 then error("boom") end return x end)
    local g = tf.func(function(x) undefined_global_fn(x) return x end)
    local ok, err = pcall(f, tf.constant(1))
    assert.is_false(ok)
    assert.truthy(tostring(err):find("autograph_exact_spec.lua:" .. (line + 1) .. ": boom", 1, true), tostring(err))
    ok, err = pcall(g, tf.constant(1))
    assert.is_false(ok)
    assert.truthy(tostring(err):find("autograph_exact_spec.lua:" .. (line + 2)
      .. ": attempt to call a nil value (global 'undefined_global_fn')", 1, true), tostring(err))
    assert.is_false(tostring(err):find("runtime.lua", 1, true) ~= nil, tostring(err))
  end)

  it("a bad comparison and a method call on nil blame the user's line", function()
    local line = debug.getinfo(1, "l").currentline
    local f = tf.func(function(x, t) if t.missing < 3 then return x end return x end)
    local g = tf.func(function(x, t) local y = t.missing:foo(x) return y end)
    local ok, err = pcall(f, tf.constant(1), {})
    assert.is_false(ok)
    assert.truthy(tostring(err):find("autograph_exact_spec.lua:" .. (line + 1) .. ": attempt to compare nil with number",
      1, true), tostring(err))
    ok, err = pcall(g, tf.constant(1), {})
    assert.is_false(ok)
    assert.truthy(tostring(err):find("autograph_exact_spec.lua:" .. (line + 2) .. ": attempt to index a nil value",
      1, true), tostring(err))
  end)

  it("a method call on nil in a tail call blames the user's line", function()
    local line = debug.getinfo(1, "l").currentline
    local f = tf.func(function(x, t) return t.missing:foo(x) end)
    local g = tf.func(function(x, t) return t:nomethod(x) end)
    local ok, err = pcall(f, tf.constant(1), {})
    assert.is_false(ok)
    assert.truthy(tostring(err):find("autograph_exact_spec.lua:" .. (line + 1) .. ": attempt to index a nil value",
      1, true), tostring(err))
    ok, err = pcall(g, tf.constant(1), {})
    assert.is_false(ok)
    assert.are.equal("TypeError", err.type)
    assert.truthy(tostring(err):find("autograph_exact_spec.lua:" .. (line + 2), 1, true), tostring(err))
    assert.truthy(tostring(err):find("method 'nomethod'", 1, true), tostring(err))
  end)
end)

describe("iterating tensors with ipairs", function()
  it("eagerly walks every row: rows 0..n-1 at Lua indices 1..n", function()
    local x = tf.constant({ { 1, 2 }, { 3, 4 }, { 5, 6 } })
    local seen = {}
    for i, row in ipairs(x) do seen[#seen + 1] = { i, row:numpy() } end
    assert.are.same({ { 1, { 1, 2 } }, { 2, { 3, 4 } }, { 3, { 5, 6 } } }, seen)
    assert.are.same({ 3, 4 }, x[1]:numpy())
  end)

  it("traced with a known first dimension walks the rows too", function()
    local fn = function(x)
      local s = tf.constant(0)
      for i, row in ipairs(x) do s = s + i * tf.reduce_sum(row) end
      return s
    end
    same_everywhere(fn, { tf.constant({ { 1, 2 }, { 3, 4 } }) }, { tf.constant({ { 1 }, { 2 }, { 3 } }) })
  end)

  it("a traced tensor with an unknown first dimension is a TypeError naming the way", function()
    local spec = { tf.TensorSpec({ tf.None, 2 }, tf.float32) }
    for _, autograph in ipairs({ true, false }) do
      local f = tf.func(function(x)
        local s = tf.constant(0.0)
        for _, row in ipairs(x) do s = s + tf.reduce_sum(row) end
        return s
      end, { input_signature = spec, autograph = autograph })
      local err = helpers.raises("TypeError", nil, f, tf.ones({ 3, 2 }))
      assert.truthy(err.message:find("for ... in", 1, true), err.message)
      assert.truthy(err.message:find("tf.range", 1, true), err.message)
    end
    local g = tf.func(function(x) return tf.keras.Sequential(x) end, { input_signature = spec })
    helpers.raises("TypeError", nil, g, tf.ones({ 3, 2 }))
    assert.is_true(tf.executing_eagerly())
  end)
end)

describe("eager iteration of tensors", function()
  it("`for i in tf.range(3)` and `for row in t` walk axis 0 in plain Lua", function()
    local s, n = 0, 0
    for i in tf.range(3) do
      s = s + i:numpy()
      n = n + 1
    end
    assert.are.same({ 3, 3 }, { s, n })
    local rows = {}
    for row in tf.constant({ { 1, 2 }, { 3, 4 } }) do rows[#rows + 1] = row:numpy() end
    assert.are.same({ { 1, 2 }, { 3, 4 } }, rows)
    for _ in tf.constant({}) do error("an empty tensor has no rows") end
    helpers.raises("TypeError", nil, function() for _ in tf.constant(1) do end end)
  end)

  it("a tf.func looping over tf.range and a tensor gives the same answer eagerly", function()
    local fn = function(x)
      local s = tf.constant(0.0)
      for i in tf.range(3) do s = s + tf.cast(i, tf.float32) end
      for row in x do
        if tf.reduce_sum(row) > 2 then s = s + tf.reduce_sum(row) else s = s - 1 end
      end
      return s
    end
    same_everywhere(fn, { tf.constant({ { 1.0, 2.0 }, { 0.5, 0.5 } }) }, { tf.constant({ 4.0, 1.0, 2.0 }) })
  end)
end)

describe("AutoGraph return and goto continue", function()
  local x3 = { tf.constant(3) }
  local x8 = { tf.constant(8) }

  it("a return nested in a tensor if, and in a do block", function()
    same_everywhere(function(x)
      if x > 0 then
        if x > 2 then return x * 2 end
        x = x + 100
      end
      return x
    end, x3, { tf.constant(1) })
    same_everywhere(function(x)
      local y = x
      do
        if x > 1 then return y + 1 end
        y = y * 5
      end
      return y - 1
    end, x3, { tf.constant(0) })
  end)

  it("a closure sees what a returning branch assigned, and a traced branch does not see the other's", function()
    same_everywhere(function(x)
      local y = x
      local function get() return y end
      if x > 0 then
        y = y + 1
        return get()
      end
      y = y * 10
      return get() + y
    end, { tf.constant(3) }, { tf.constant(-2) })
    same_everywhere(function(x, flag)
      local y = x
      local function get() return y end
      if flag then
        y = y + 1
        return get()
      end
      return get()
    end, { tf.constant(3), true }, { tf.constant(3), false })
  end)

  it("return inside tensor while, repeat and for-in tf.range loops", function()
    local w = function(x)
      local i = tf.constant(0)
      while i < 10 do
        i = i + 1
        if i > x then return i * 10 end
      end
      return i
    end
    assert.are.same({ 40, n = 1 }, same_everywhere(w, x3, { tf.constant(20) }))
    local r = function(x)
      local i = tf.constant(0)
      repeat
        i = i + 1
        if i > x then return i * 10, i end
      until i >= 10
      return i, i
    end
    assert.are.same({ 40, 4, n = 2 }, same_everywhere(r, x3, { tf.constant(20) }))
    local f = function(x)
      local s = tf.constant(0)
      for i in tf.range(10) do
        s = s + i
        if s > x then return s end
      end
      return -s
    end
    assert.are.same({ 6, n = 1 }, same_everywhere(f, x3, { tf.constant(100) }))
    local nested = function(x)
      local s = tf.constant(0)
      for i in tf.range(4) do
        for j in tf.range(4) do
          s = s + i * j
          if s > x then return s, i end
        end
      end
      return s, tf.constant(-1)
    end
    same_everywhere(nested, x8, { tf.constant(1000) })
  end)

  it("a return of a call's values from a loop, with the functions on one line", function()
    local fn = function(x) local function two(a) return a, a + 1 end for i in tf.range(5) do if i > x then return two(i) end end return x, x end
    assert.are.same({ 3, 4, n = 2 }, same_everywhere(fn, { tf.constant(2) }, { tf.constant(9) }))
  end)

  it("goto continue in while, repeat, numeric for, generic for and for-in tf.range", function()
    local forms = {
      function(x)
        local i, s = tf.constant(0), tf.constant(0)
        while i < 6 do
          i = i + 1
          if i > x then goto continue end
          s = s + i
          ::continue::
        end
        return s
      end,
      function(x)
        local i, s = tf.constant(0), tf.constant(0)
        repeat
          i = i + 1
          if i > x then goto continue end
          s = s + i
          ::continue::
        until i >= 6
        return s
      end,
      function(x)
        local s = tf.constant(0)
        for i = 1, 6 do
          if s > x then goto continue end
          s = s + i
          ::continue::
        end
        return s
      end,
      function(x)
        local s = tf.constant(0)
        for _, v in ipairs({ 1, 2, 3, 4 }) do
          if s > x then goto continue end
          s = s + v
          ::continue::
        end
        return s
      end,
      function(x)
        local s = tf.constant(0)
        for i in tf.range(6) do
          if i > x then goto continue end
          s = s + i
          ::continue::
        end
        return s
      end,
    }
    for _, fn in ipairs(forms) do same_everywhere(fn, x3, { tf.constant(1) }) end
  end)

  it("a break nested in a tensor if skips the rest of the body (found by the program generator)", function()
    local fn = function(x)
      local a, b = tf.reduce_sum(x), tf.constant(0)
      for c in x do
        b = a + c
        if (b % 3) > 0 then
          a = a - 2
        else
          if not (b <= 0) then
            b = (b * 3) % 101
            break
          end
        end
        a = b + a
      end
      return a, b
    end
    assert.are.same({ 28, 99, n = 2 }, same_everywhere(fn, { tf.constant({ 4, -2, 5 }) }, { tf.constant({ 1, 2 }) }))
  end)

  it("statements after ifs that may break or continue run under a guard, not copied into every branch", function()
    local fn = function(x)
      local s = tf.constant(0)
      for i in tf.range(12) do
        if i > 0 then if x > 30 then break end end
        s = s + 1
        if i > 1 then if x > 20 then goto continue end end
        s = s + 2
        if i > 2 then if x > 10 then break end end
        s = s + 3
        if i > 3 then if x > 5 then goto continue end end
        s = s + 4
        if i > 4 then if x > 2 then break end end
        s = s + 5
        if i > 5 then if x > 1 then goto continue end end
        s = s + 6
        if i > 6 then if x > 0 then break end end
        s = s + 7
        if i > 7 then if x > -1 then goto continue end end
        s = s + 8
        ::continue::
      end
      return s
    end
    assert.is_true(#tf.autograph.to_code(fn) < 20000)
    for _, v in ipairs({ 40, 25, 15, 7, 3, 2, 1, 0, -5 }) do same_everywhere(fn, { tf.constant(v) }) end
  end)

  it("the same guard in numeric for and repeat bodies", function()
    local fornum = function(x)
      local s = tf.constant(0)
      for i = 1, 6 do
        if i > 1 then if x > 1 then goto continue end end
        s = s + 1
        if i > 2 then if x > 4 then goto continue end end
        s = s + 10
        if i > 3 then if x > 8 then goto continue end end
        s = s + 100
        ::continue::
      end
      return s
    end
    local rep = function(x)
      local s, i = tf.constant(0), tf.constant(0)
      repeat
        i = i + 1
        if i > 1 then if x > 1 then goto continue end end
        s = s + 1
        if i > 2 then if x > 4 then goto continue end end
        s = s + 10
        ::continue::
      until i >= 5
      return s
    end
    for _, v in ipairs({ -1, 2, 5, 9 }) do
      same_everywhere(fornum, { tf.constant(v) })
      same_everywhere(rep, { tf.constant(v) })
    end
    assert.is_true(#tf.autograph.to_code(fornum) < 4000)
  end)

  it("assigning to a for-in tf.range loop variable changes only that iteration", function()
    local fn = function(x)
      local s = tf.constant(0)
      for i in tf.range(4) do
        i = i * x
        s = s + i
      end
      return s
    end
    assert.are.same({ 18, n = 1 }, same_everywhere(fn, x3, { tf.constant(2) }))
  end)

  it("a break or return that depends on a tensor inside a Lua loop is a TypeError naming it and the line", function()
    local line = debug.getinfo(1, "l").currentline
    local f = tf.func(function(x)
      local s = tf.constant(0)
      for i = 1, 5 do
        s = s + i
        if s > x then return s end
      end
      return s
    end)
    local err = helpers.raises("TypeError", nil, f, tf.constant(3))
    assert.truthy(err.message:find("line " .. (line + 5), 1, true), err.message)
    assert.truthy(err.message:find("a `return` out of a Lua loop", 1, true), err.message)
    assert.is_true(tf.executing_eagerly())
  end)
end)

describe("run_functions_eagerly runs what tracing runs", function()
  it("an `if` on a bool tensor and `==` with a tensor take the traced branch, eagerly too", function()
    local fn = function(x)
      if tf.equal(x, 1) then return x * 10 end
      if x == 2 then return x * 100 end
      return x
    end
    local f = tf.func(fn)
    local traced = {}
    for i = 1, 3 do traced[i] = f(tf.constant(i)):numpy() end
    assert.are.same({ 10, 200, 3 }, traced)
    tf.config.run_functions_eagerly(true)
    local ok, eager = pcall(function()
      local out = {}
      for i = 1, 3 do out[i] = f(tf.constant(i)):numpy() end
      return out
    end)
    tf.config.run_functions_eagerly(false)
    assert.is_true(ok, tostring(eager))
    assert.are.same(traced, eager)
  end)
end)
