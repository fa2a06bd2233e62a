-- numerics_spec.lua — numbers TensorFlow gives that moonflow once got
-- wrong: buffer reuse in graphs, integer overflow, out-of-range casts,
-- signed zeros. Each case was a silent wrong answer.

local H = require("helpers")
local tf = H.tf

-- Runs fn(...) traced with the optimiser on, traced with it off, and
-- eagerly; returns the three results as Lua data.
local function three_ways(fn, ...)
  local was = tf.config.optimizer.is_enabled()
  local on = tf.func(fn)(...)
  tf.config.optimizer.set_enabled(false)
  local ok, off = pcall(tf.func(fn), ...)
  tf.config.optimizer.set_enabled(was)
  assert(ok, off)
  return on:numpy(), off:numpy(), fn(...):numpy()
end

describe("graph buffer reuse", function()
  it("never writes a broadcast output over a smaller input still being read", function()
    local a = tf.constant({ 1, 2, 3, 4 })
    local b = tf.constant({ { 3 }, { 6 }, { 9 }, { 12 } })
    local want = {
      { true, true, true, true },
      { false, true, true, true },
      { false, false, true, true },
      { false, false, false, true },
    }
    local on, off, eager = three_ways(function(x, y) return tf.greater_equal(x * 3, y) end, a, b)
    assert.are.same(want, eager)
    assert.are.same(want, on)
    assert.are.same(want, off)
  end)

  it("never reuses a wider input's buffer for narrower elements", function()
    local x = tf.constant({ 1.0, 2.0 }, tf.float64)
    local y = tf.constant({ { 1 }, { 3 }, { 4 }, { 5 }, { 0 }, { 2 }, { 9 }, { 3.5 } }, tf.float64)
    local on, off, eager = three_ways(function(p, q) return tf.less(p + p, q) end, x, y)
    assert.are.same(eager, on)
    assert.are.same(eager, off)
    assert.are.same({ true, false }, eager[2])
  end)

  it("never lends a slice of a larger buffer", function()
    local x = tf.constant({ 1, 2, 3, 4, 5, 6, 7, 8 })
    local y = tf.constant({ { 10, 20, 30, 40 }, { 50, 60, 70, 80 } })
    local on, off, eager = three_ways(function(p, q) return (p * p)[":4"] + q end, x, y)
    local want = { { 11, 24, 39, 56 }, { 51, 64, 79, 96 } }
    assert.are.same(want, eager)
    assert.are.same(want, on)
    assert.are.same(want, off)
  end)
end)
