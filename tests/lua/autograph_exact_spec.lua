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
end)
