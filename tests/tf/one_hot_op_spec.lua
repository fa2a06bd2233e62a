-- one_hot_op_spec.lua — tensorflow/python/kernel_tests/array_ops/
-- one_hot_op_test.py (OneHotTest), ported.
--
-- Translation: _testBothOneHot runs the op on the CPU and the GPU; here
-- it runs eagerly and inside a tf.func (the traced call is the graph TF
-- builds), checking the value, the dtype asked for and that the static
-- shape is the result's shape. NumPy arrays of a dtype are tensors of
-- that dtype; Python lists and scalars are Lua tables and numbers.
-- testConvertToTensorOfCorrectDtype asks for float16, which moonflow
-- lacks: it runs with float64, which equally differs from the dtype a Lua
-- float converts to by default (float32), so the check is the same: a
-- Lua number given as on_value / off_value takes the dtype asked for.
--
-- Left out (moonflow has no such dtype): complex64 / complex128
-- (testComplex64Basic, testComplex128Basic, testComplexBatch), float16
-- (testHalfBatch) and uint8 (testOneHotUint8WithLargeArray, and the uint8
-- indices of testIndicesTypes and testPrefixDimOverflow).

local tf = tf or require("moonflow")
local T = require("tfhelpers")

-- The transpose of a matrix given as a Lua table (NumPy's .T).
local function transpose(m)
  local out = {}
  for j = 1, #m[1] do
    out[j] = {}
    for i = 1, #m do out[j][i] = m[i][j] end
  end
  return out
end

-- The shape of nested Lua data (NumPy's .shape of the truth).
local function shape_of(v)
  local s = {}
  while type(v) == "table" do
    s[#s + 1] = #v
    v = v[1]
  end
  return s
end

-- _testBothOneHot: `inputs` holds indices, depth and TF's keyword
-- arguments (on_value, off_value, axis, dtype); `raises` an error type
-- the call must raise instead. `shape` is the truth's shape when the
-- truth is empty (NumPy's np.empty keeps it; a Lua table cannot).
local function both_one_hot(truth, inputs, raises, shape)
  local opts = { on_value = inputs.on_value, off_value = inputs.off_value,
    axis = inputs.axis, dtype = inputs.dtype }
  -- No keyword arguments: no options table (an empty table would be a
  -- positional on_value, an empty list).
  if next(opts) == nil then opts = nil end
  if raises then
    T.raises(raises, nil, function() return tf.one_hot(inputs.indices, inputs.depth, opts) end)
    T.raises(raises, nil, function()
      return T.quiet(tf.func(function() return tf.one_hot(inputs.indices, inputs.depth, opts) end))
    end)
    return
  end
  local static
  T.eager_and_traced(function()
    local ans = tf.one_hot(inputs.indices, inputs.depth, opts)
    static = ans.shape:as_list()
    return ans
  end, {}, function(mode, ans)
    T.equal(truth, ans)
    if inputs.dtype then assert.are.equal(inputs.dtype, ans.dtype, mode) end
    assert.are.same(shape or shape_of(truth), ans.shape:as_list(), mode)
    assert.are.same(ans.shape:as_list(), static, mode .. " static shape")
  end)
end

local BASIC_TRUTH = { { 1, -1, -1 }, { -1, -1, 1 }, { -1, -1, -1 }, { -1, 1, -1 } }
local DEFAULT_TRUTH = { { 1, 0, 0 }, { 0, 0, 1 }, { 0, 0, 0 }, { 0, 1, 0 } }
local BATCH_TRUTH = {
  { { 1, -1, -1 }, { -1, -1, 1 }, { -1, -1, -1 }, { -1, 1, -1 } },
  { { -1, 1, -1 }, { 1, -1, -1 }, { -1, 1, -1 }, { -1, -1, -1 } },
}
local DEFAULT_BATCH_TRUTH = {
  { { 1, 0, 0 }, { 0, 0, 1 }, { 0, 0, 0 }, { 0, 1, 0 } },
  { { 0, 1, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 0 } },
}

-- np.asarray(v, dtype=dtype): a scalar tensor of that dtype.
local function scalar(v, dtype)
  if dtype == tf.int32 or dtype == tf.int64 then v = math.tointeger(v) end
  return tf.constant(v, dtype)
end

local function test_basic(dtype)
  local indices = tf.constant({ 0, 2, -1, 1 }, tf.int64)
  local on, off = scalar(1.0, dtype), scalar(-1.0, dtype)
  both_one_hot(BASIC_TRUTH, { indices = indices, depth = 3, on_value = on, off_value = off, dtype = dtype })
  both_one_hot(transpose(BASIC_TRUTH),
    { indices = indices, depth = 3, on_value = on, off_value = off, axis = 0, dtype = dtype })
end

local function test_default_basic(dtype)
  local indices = tf.constant({ 0, 2, -1, 1 }, tf.int64)
  both_one_hot(DEFAULT_TRUTH, { indices = indices, depth = 3, dtype = dtype })
  both_one_hot(transpose(DEFAULT_TRUTH), { indices = indices, depth = 3, axis = 0, dtype = dtype })
end

local function batch_indices() return tf.constant({ { 0, 2, -1, 1 }, { 1, 0, 1, -1 } }, tf.int64) end

local function test_batch(dtype)
  local on, off = scalar(1.0, dtype), scalar(-1.0, dtype)
  both_one_hot(BATCH_TRUTH, { indices = batch_indices(), depth = 3, on_value = on, off_value = off, dtype = dtype })
  both_one_hot({ transpose(BATCH_TRUTH[1]), transpose(BATCH_TRUTH[2]) },
    { indices = batch_indices(), depth = 3, on_value = on, off_value = off, axis = 1, dtype = dtype })
end

local function test_default_values_batch(dtype)
  both_one_hot(DEFAULT_BATCH_TRUTH, { indices = batch_indices(), depth = 3, dtype = dtype })
  both_one_hot({ transpose(DEFAULT_BATCH_TRUTH[1]), transpose(DEFAULT_BATCH_TRUTH[2]) },
    { indices = batch_indices(), depth = 3, axis = 1, dtype = dtype })
end

-- _testValueTypeBatch passes the same arguments as _testBatch (in another
-- keyword order).
local test_value_type_batch = test_batch

local function test_empty(dtype)
  local indices = tf.zeros({ 0, 16 }, tf.int64)
  both_one_hot({}, { indices = indices, depth = 3, on_value = scalar(1.0, dtype),
    off_value = scalar(-1.0, dtype), dtype = dtype }, nil, { 0, 16, 3 })
end

describe("one_hot_op_test.py", function()
  it("OneHotTest.testDefaultNoDtype", function()
    test_default_basic(nil)
  end)

  local names = { [tf.float32] = "Float", [tf.float64] = "Double", [tf.int32] = "Int32", [tf.int64] = "Int64" }
  for _, dtype in ipairs({ tf.float32, tf.float64, tf.int32, tf.int64 }) do
    it("OneHotTest.test" .. names[dtype] .. "Basic", function()
      test_basic(dtype)
      test_default_basic(dtype)
    end)
  end

  for _, dtype in ipairs({ tf.float32, tf.float64, tf.int32, tf.int64 }) do
    it("OneHotTest.test" .. names[dtype] .. "Batch", function()
      test_empty(dtype)
      test_batch(dtype)
      test_default_values_batch(dtype)
      test_value_type_batch(dtype)
    end)
  end

  it("OneHotTest.testSimpleCases", function()
    local eye = { { 1.0, 0.0, 0.0 }, { 0.0, 1.0, 0.0 }, { 0.0, 0.0, 1.0 } }
    both_one_hot(eye, { indices = { 0, 1, 2 }, depth = 3 })
    T.equal(tf.float32, tf.one_hot({ 0, 1, 2 }, 3).dtype)
    both_one_hot({ { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } }, { indices = { 0, 1, 2 }, depth = 3, dtype = tf.int32 })
    -- on_value=1, off_value=-1 with no dtype: the result is int32, the
    -- dtype the Lua integers convert to.
    local truth = { { 1, -1, -1 }, { -1, 1, -1 }, { -1, -1, 1 } }
    both_one_hot(truth, { indices = { 0, 1, 2 }, depth = 3, on_value = 1, off_value = -1 })
    assert.are.equal(tf.int32, tf.one_hot({ 0, 1, 2 }, 3, { on_value = 1, off_value = -1 }).dtype)
  end)

  it("OneHotTest.testSingleValueGiven", function()
    -- Only on_value provided: its dtype (int32) is the result's.
    both_one_hot({ { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } }, { indices = { 0, 1, 2 }, depth = 3, on_value = 1 })
    assert.are.equal(tf.int32, tf.one_hot({ 0, 1, 2 }, 3, { on_value = 1 }).dtype)
    -- Only off_value provided: float32.
    both_one_hot({ { 1.0, 0.0, 0.0 }, { 0.0, 1.0, 0.0 }, { 0.0, 0.0, 1.0 } },
      { indices = { 0, 1, 2 }, depth = 3, off_value = 0.0 })
    assert.are.equal(tf.float32, tf.one_hot({ 0, 1, 2 }, 3, { off_value = 0.0 }).dtype)
  end)

  it("OneHotTest.testString", function()
    local truth = { { "1.0", "0.0", "0.0" }, { "0.0", "1.0", "0.0" }, { "0.0", "0.0", "1.0" } }
    -- np.asarray(b"1.0") and constant_op.constant(b"1.0") are both string
    -- tensors here; b"1.0" is a Lua string.
    both_one_hot(truth, { indices = { 0, 1, 2 }, depth = 3,
      on_value = tf.constant("1.0"), off_value = tf.constant("0.0") })
    both_one_hot(truth, { indices = { 0, 1, 2 }, depth = 3, on_value = "1.0", off_value = "0.0" })
    assert.are.equal(tf.string, tf.one_hot({ 0, 1, 2 }, 3, { on_value = "1.0", off_value = "0.0" }).dtype)
  end)

  it("OneHotTest.testIndicesTypes", function()
    local on, off = tf.constant(1.0, tf.float32), tf.constant(-1.0, tf.float32)
    -- tf_types (constant_op.constant) and np_types (np.asarray) alike
    -- are tensors of that dtype.
    for _, itype in ipairs({ tf.int32, tf.int64 }) do
      local indices = tf.constant({ { 0, 2, -1, 1 }, { 1, 0, 1, -1 } }, itype)
      both_one_hot(BATCH_TRUTH, { indices = indices, on_value = on, off_value = off, depth = 3 })
      both_one_hot({ transpose(BATCH_TRUTH[1]), transpose(BATCH_TRUTH[2]) },
        { indices = indices, on_value = on, off_value = off, depth = 3, axis = 1 })
    end
  end)

  it("OneHotTest.testPrefixDimOverflow", function()
    for _, itype in ipairs({ tf.int32, tf.int64 }) do
      local prefix_dim_size, depth = 65536, 2
      local x, truth = {}, {}
      for i = 0, prefix_dim_size - 1 do
        x[i + 1] = i % depth
        truth[i + 1] = { 0.0, 0.0 }
        truth[i + 1][x[i + 1] + 1] = 1.0
      end
      both_one_hot(truth, { indices = tf.constant(x, itype), depth = depth, on_value = 1.0, off_value = 0.0 })
    end
  end)

  it("OneHotTest.testOnOffMismatchTypeError", function()
    both_one_hot(nil, { indices = { 0, 1, 2 }, depth = 3, on_value = tf.constant(1.0, tf.float64),
      off_value = tf.constant(0.0, tf.float32) }, "TypeError")
    T.raises("TypeError", "dtype float64 of on_value does not match dtype float32 of off_value",
      tf.one_hot, { 0, 1, 2 }, 3, { on_value = tf.constant(1.0, tf.float64), off_value = tf.constant(0.0, tf.float32) })
  end)

  it("OneHotTest.testDtypeMismatchTypeError", function()
    local on_value, off_value = tf.constant(1.0, tf.float32), tf.constant(0.0, tf.float32)
    both_one_hot(nil, { indices = { 0, 1, 2 }, depth = 3, on_value = on_value, dtype = tf.int32 }, "TypeError")
    both_one_hot(nil, { indices = { 0, 1, 2 }, depth = 3, on_value = off_value, dtype = tf.int32 }, "TypeError")
    T.raises("TypeError", "dtype float32 of on_value does not match dtype parameter int32",
      tf.one_hot, { 0, 1, 2 }, 3, { on_value = on_value, dtype = tf.int32 })
    T.raises("TypeError", "dtype float32 of off_value does not match dtype parameter int32",
      tf.one_hot, { 0, 1, 2 }, 3, { off_value = off_value, dtype = tf.int32 })
  end)

  it("OneHotTest.testConvertToTensorOfCorrectDtype", function()
    local dtype = tf.float64 -- TF's case asks for float16 (see the top)
    local truth = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } }
    both_one_hot(truth, { indices = { 0, 1, 2 }, depth = 3, on_value = 1.0,
      off_value = tf.constant(0.0, dtype), dtype = dtype })
    both_one_hot(truth, { indices = { 0, 1, 2 }, depth = 3, on_value = tf.constant(1.0, dtype),
      off_value = 0., dtype = dtype })
    both_one_hot(truth, { indices = { 0, 1, 2 }, depth = 3, on_value = 1.0, off_value = 0., dtype = dtype })
  end)
end)
