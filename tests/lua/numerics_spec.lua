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

describe("tf.cast from floats to integers", function()
  -- TF's Cast is a C++ static_cast; on x86 an out-of-range or NaN value
  -- converts to the "integer indefinite", the minimum integer (NumPy's
  -- astype gives the same).
  it("gives the minimum integer for NaN and out-of-range values, eagerly and traced", function()
    local x = tf.constant({ 3e9, -3e9, 0 / 0, math.huge, -math.huge, 2.9, -2.9, 2147483520.0 })
    local want = { -2147483648, -2147483648, -2147483648, -2147483648, -2147483648, 2, -2, 2147483520 }
    assert.are.same(want, tf.cast(x, tf.int32):numpy())
    local on, off = three_ways(function(t) return tf.cast(t, tf.int32) end, x)
    assert.are.same(want, on)
    assert.are.same(want, off)
    assert.are.equal(-2147483648, tf.cast(tf.constant(3e9), tf.int32):numpy())
  end)

  it("does the same into int64", function()
    local x = tf.constant({ 1e19, -1e19, 0 / 0, -9.5 }, tf.float64)
    assert.are.same({ math.mininteger, math.mininteger, math.mininteger, -9 },
      tf.cast(x, tf.int64):numpy())
  end)
end)

describe("tf.range", function()
  it("refuses start > limit with a positive delta, as TF's Range kernel", function()
    H.raises("InvalidArgumentError", "Requires start <= limit when delta > 0: 4/0", tf.range, 4, 0, 2)
    H.raises("InvalidArgumentError", "Requires start >= limit when delta < 0: 0/4", tf.range, 0, 4, -2)
    H.raises("InvalidArgumentError", "Requires delta != 0", tf.range, 0, 4, 0)
    local f = tf.func(function(a, b, c) return tf.range(a, b, c) end)
    H.raises("InvalidArgumentError", "Requires start <= limit when delta > 0: 4/0", f,
      tf.constant(4), tf.constant(0), tf.constant(2))
  end)

  it("adds delta step by step in floating point, as TF's kernel does", function()
    -- TF: val = start; repeat out[i] = val; val += delta, so the rounding
    -- errors add up: tf.range(0, 1, 0.1)[7] is 0.70000005, not 0.7.
    local r = tf.range(0.0, 1.0, 0.1):numpy()
    local acc, want = 0.0, {}
    for i = 1, 10 do
      want[i] = acc
      acc = string.unpack("f", string.pack("f", acc + string.unpack("f", string.pack("f", 0.1))))
    end
    assert.are.same(want, r)
    assert.are.equal(string.unpack("f", string.pack("f", 0.70000005)), r[8])
  end)
end)

describe("integer overflow", function()
  -- TF's integer kernels wrap around (two's complement).
  it("wraps in v:assign_add and v:assign_sub", function()
    local v = tf.Variable(2147483647)
    v:assign_add(1)
    assert.are.equal(-2147483648, v:numpy())
    v:assign_sub(1)
    assert.are.equal(2147483647, v:numpy())
    local w = tf.Variable(tf.constant(math.maxinteger, tf.int64))
    w:assign_add(tf.constant(1, tf.int64))
    assert.are.equal(math.mininteger, w:numpy())
    local f = tf.func(function() v:assign_add(1); return v:read_value() end)
    assert.are.equal(-2147483648, f():numpy())
  end)

  it("wraps in add, subtract, multiply and negate", function()
    local big = tf.constant(2147483647)
    assert.are.equal(-2147483648, (big + 1):numpy())
    assert.are.equal(2147483647, (tf.constant(-2147483648) - 1):numpy())
    assert.are.equal(-2, (big * 2):numpy())
    assert.are.equal(-2147483648, (-tf.constant(-2147483648)):numpy())
  end)
end)

describe("the optimiser's algebraic simplification", function()
  -- -0.0 + 0.0 is +0.0 in IEEE arithmetic, so x + 0 is not x for floats
  -- (x - 0 and x + -0.0 are); eager and traced results must be the same bits.
  local function bits(v) return ("%a"):format(v) end

  it("keeps x + 0.0 for floats, which turns -0.0 into +0.0", function()
    local x = tf.constant({ -0.0, 1.5, -2.0 })
    for _, fn in ipairs({
      function(t) return tf.add(t, 0.0) end,
      function(t) return 0.0 + t end,
      function(t) return tf.subtract(t, -0.0) end,
    }) do
      local on, off, eager = three_ways(fn, x)
      assert.are.equal("0x0p+0", bits(eager[1]))
      assert.are.equal(bits(eager[1]), bits(on[1]))
      assert.are.equal(bits(eager[1]), bits(off[1]))
    end
  end)

  it("still drops x - 0.0, x + -0.0 and x * 1, which keep every bit", function()
    local x = tf.constant({ -0.0, 1.5 })
    for _, fn in ipairs({
      function(t) return t - 0.0 end,
      function(t) return t + -0.0 end,
      function(t) return t * 1.0 end,
    }) do
      local cf = tf.func(fn):get_concrete_function(x)
      local types = {}
      for _, o in ipairs(cf:optimized_graph():get_operations()) do types[o.type] = true end
      assert.is_nil(types.AddV2)
      assert.is_nil(types.Sub)
      assert.is_nil(types.Mul)
      local on, off, eager = three_ways(fn, x)
      assert.are.equal("-0x0p+0", bits(eager[1]))
      assert.are.equal("-0x0p+0", bits(on[1]))
      assert.are.equal("-0x0p+0", bits(off[1]))
    end
  end)
end)
