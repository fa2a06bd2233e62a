-- range_linspace_spec.lua — TensorFlow's range and linspace tests, ported:
-- tensorflow/python/kernel_tests/array_ops/init_ops_test.py, RangeTest and
-- LinSpaceTest (tf.range, tf.linspace: values, static shapes, dtypes).
--
-- Translation: _Range checks the static shape [len(np.arange(...))] and
-- the values, eagerly and in a tf.func; _LinSpace (a TF1 graph) checks the
-- static shape [num] while tracing and the values; assertArrayNear is
-- T.equal within 1e-5. Python floats are Lua floats (2.5, 1.0).
--
-- Left out: LinSpaceTest's GPU modes (no GPU); LinSpaceNdTest and the
-- initializer classes (not in this brief).

local tf = tf or require("moonflow")
local T = require("tfhelpers")

local I32, I64, F32, F64 = tf.int32, tf.int64, tf.float32, tf.float64

local function np_arange_len(start, limit, delta)
  return math.max(0, math.ceil((limit - start) / delta))
end

local function range(start, limit, delta)
  local out
  T.eager_and_traced(function() return tf.range(start, limit, delta, { name = "range" }) end, {},
    function(mode, r)
      assert.are.same({ np_arange_len(start, limit, delta) }, r.shape:as_list(), mode)
      out = T.plain(r)
    end)
  return out
end

local function linspace(start, stop, num)
  local out
  T.eager_and_traced(function() return tf.linspace(start, stop, num) end, {}, function(mode, r)
    assert.are.same({ num }, r.shape:as_list(), mode)
    out = T.plain(r)
  end)
  return out
end

describe("init_ops_test.py RangeTest", function()
  it("init_ops_test.py RangeTest.testBasic", function()
    T.equal({ 0, 1, 2, 3, 4 }, range(0, 5, 1))
    T.equal({ 0, 2, 4 }, range(0, 5, 2))
    T.equal({ 0, 2, 4 }, range(0, 6, 2))
    T.equal({ 13, 20, 27 }, range(13, 32, 7))
    T.equal({ 100, 200, 300, 400 }, range(100, 500, 100))
    assert.are.equal(I32, tf.range(0, 5, 1).dtype)
  end)

  it("init_ops_test.py RangeTest.testLimitOnly", function()
    T.equal({ 0, 1, 2, 3, 4 }, tf.range(5))
  end)

  it("init_ops_test.py RangeTest.testEmpty", function()
    for _, start in ipairs({ 0, 5 }) do assert.are.same({}, range(start, start, 1)) end
  end)

  it("init_ops_test.py RangeTest.testNonInteger", function()
    T.equal({ 0.0, 0.5, 1.0, 1.5 }, range(0, 2, 0.5), 1e-6)
    T.equal({ 0.0, 2.5 }, range(0, 5, 2.5), 1e-6)
    T.equal({ 0.0, 0.9, 1.8, 2.7 }, range(0, 3, 0.9), 1e-6)
    T.equal({ 100.0, 200.0, 300.0, 400.0 }, range(100.0, 500.0, 100.0), 1e-6)
    assert.are.equal(F32, tf.range(0.0, 5.0, 1.0).dtype)
  end)

  it("init_ops_test.py RangeTest.testNegativeDelta", function()
    T.equal({ 5, 4, 3, 2, 1, 0 }, range(5, -1, -1))
    T.equal({ 2.5, 2.0, 1.5, 1.0, 0.5 }, range(2.5, 0, -0.5), 1e-6)
    T.equal({ -5, -8 }, range(-5, -10, -3))
  end)

  it("init_ops_test.py RangeTest.testDType", function()
    local zi32, zi64 = tf.cast(0, I32), tf.cast(0, I64)
    local zf32, zf64 = tf.cast(0, F32), tf.cast(0, F64)
    assert.are.equal(I32, tf.range(zi32, 0, 1).dtype)
    assert.are.equal(I64, tf.range(zi64, 0, 1).dtype)
    assert.are.equal(F32, tf.range(zf32, 0, 1).dtype)
    assert.are.equal(F64, tf.range(zf64, 0, 1).dtype)
    assert.are.equal(I64, tf.range(zi32, zi64, 1).dtype)
    assert.are.equal(F32, tf.range(zi64, zf32, 1).dtype)
    assert.are.equal(F64, tf.range(zf32, zf64, 1).dtype)
    assert.are.equal(F64, tf.range(zf64, zi32, 1).dtype)
    for _, dt in ipairs({ I32, I64, F32, F64 }) do
      assert.are.equal(dt, tf.range(0, 0, 1, { dtype = dt }).dtype)
    end
  end)

  it("init_ops_test.py RangeTest.testMixedDType", function()
    T.equal({ 0, 1, 2, 3 }, tf.range(tf.constant(4, I32), { dtype = I64 }))
  end)

  it("init_ops_test.py RangeTest.testLargeLimits", function()
    -- Python's 9223372036854775807 converts to int64; a Lua integer
    -- converts to int32 (API.md), so the limit is an int64 tensor here
    -- (the literal is under known differences).
    T.raises("ResourceExhaustedError", nil, tf.range, 0, tf.constant(math.maxinteger, I64))
  end)

  it("init_ops_test.py RangeTest.testLargeStarts", function()
    T.raises({ "ValueError", "InvalidArgumentError" }, nil, tf.range, { start = -1e38, limit = 1 })
  end)
end)

describe("init_ops_test.py LinSpaceTest", function()
  it("init_ops_test.py LinSpaceTest.testPositive", function()
    T.equal({ 1.0 }, linspace(1.0, 5.0, 1), 1e-5)
    T.equal({ 1.0, 5.0 }, linspace(1.0, 5.0, 2), 1e-5)
    T.equal({ 1.0, 3.0, 5.0 }, linspace(1.0, 5.0, 3), 1e-5)
    T.equal({ 1.0, 7 / 3, 11 / 3, 5.0 }, linspace(1.0, 5.0, 4), 1e-5)
  end)

  it("init_ops_test.py LinSpaceTest.testNegative", function()
    T.equal({ -1.0 }, linspace(-1.0, -5.0, 1), 1e-5)
    T.equal({ -1.0, -5.0 }, linspace(-1.0, -5.0, 2), 1e-5)
    T.equal({ -1.0, -3.0, -5.0 }, linspace(-1.0, -5.0, 3), 1e-5)
    T.equal({ -1.0, -7 / 3, -11 / 3, -5.0 }, linspace(-1.0, -5.0, 4), 1e-5)
  end)

  it("init_ops_test.py LinSpaceTest.testNegativeToPositive", function()
    T.equal({ -1.0 }, linspace(-1.0, 5.0, 1), 1e-5)
    T.equal({ -1.0, 5.0 }, linspace(-1.0, 5.0, 2), 1e-5)
    T.equal({ -1.0, 2.0, 5.0 }, linspace(-1.0, 5.0, 3), 1e-5)
    T.equal({ -1.0, 1.0, 3.0, 5.0 }, linspace(-1.0, 5.0, 4), 1e-5)
  end)

  it("init_ops_test.py LinSpaceTest.testPoint", function()
    for num = 1, 4 do
      local want = {}
      for i = 1, num do want[i] = 5.0 end
      T.equal(want, linspace(5.0, 5.0, num), 1e-5)
    end
  end)

  it("init_ops_test.py LinSpaceTest.testEndpointsAreExact", function()
    local f32 = function(v) return (string.unpack("f", string.pack("f", v))) end
    local r = linspace(0.0, 1.0, 42)
    assert.are.same({ 0.0, 1.0 }, { r[1], r[42] })
    r = linspace(-1.0, 0.0, 42)
    assert.are.same({ -1.0, 0.0 }, { r[1], r[42] })
    r = linspace(0.1, 0.2, 4)
    assert.are.same({ f32(0.1), f32(0.2) }, { r[1], r[4] })
    r = T.plain(tf.linspace(tf.constant(0.0, F64), 0.1, 12))
    assert.are.same({ 0.0, 0.1 }, { r[1], r[12] })
  end)
end)

describe("known differences", function()
  -- TF converts a Python int beyond int32 to int64, so range(0, 2^63 - 1)
  -- is a ResourceExhaustedError; API.md converts every Lua integer to
  -- int32, and one out of its range is a ValueError.
  it("init_ops_test.py RangeTest.testLargeLimits, a Lua integer limit (moonflow: ValueError)", function()
    T.raises("ValueError", "to int32: out of range", tf.range, 0, math.maxinteger)
  end)
end)
