-- where_op_spec.lua — tensorflow/python/kernel_tests/array_ops/
-- where_op_test.py (WhereOpTest), ported. tf.where with one argument is
-- the Where op (the 0-based coordinates of the true, or non-zero,
-- elements); with three it is SelectV2, which broadcasts.
--
-- Translation: moonflow's tf.where is TF 2's (array_ops.where_v2), so the
-- testX and testV2X pairs run the same calls; TF 1's where (the Select op)
-- gives where_v2's answer whenever condition, x and y have one shape, as
-- in testThreeArgument. _testWhere runs eagerly and inside a tf.func (the
-- graph TF's run_deprecated_v1 cases build), where the static shape must
-- be compatible with [None, rank]. NumPy's random draws come from
-- tfhelpers' fixed generator, and the expected coordinates are computed
-- here as np.where computes them. testV2PredBroadcasting's condition is a
-- NumPy int array, which TF converts to bool with astype: here it is that
-- bool array (a Lua table of integers is a Python list, which TF refuses
-- as a bool tensor).
--
-- Left out: the dtypes moonflow lacks (complex64, complex128, uint8,
-- int8, int16: testRandomComplex64/128, testRandomUint8/Int8/Int16 and
-- their V2 twins); testBatchSelect (TF 1's Select with a vector
-- condition picking rows, which moonflow has no op for); the benchmarks;
-- WhereV2GradientTapeWarningTest (it mocks tf_logging.warning; moonflow
-- has no logging module to warn through).

local tf = tf or require("moonflow")
local T = require("tfhelpers")

-- The coordinates of the true entries of a row-major flat list of
-- `shape`, flattened row by row (np.vstack(np.where(x)).T, flat).
local function where_truth(values, shape)
  local out, rank = {}, #shape
  for i = 1, #values do
    if values[i] then
      local rest, coords = i - 1, {}
      for d = rank, 1, -1 do
        coords[d] = rest % shape[d]
        rest = rest // shape[d]
      end
      for d = 1, rank do out[#out + 1] = coords[d] end
    end
  end
  return out
end

-- Compares a tensor's values with a flat list, building a message only
-- on a failure (these results have up to a million entries).
local function equal_flat(expected, t, mode)
  local got = tf.reshape(t, { -1 }):numpy()
  assert.are.equal(#expected, #got, mode .. ": number of values")
  for i = 1, #expected do
    if expected[i] ~= got[i] then
      assert.are.equal(expected[i], got[i], ("%s: value %d"):format(mode, i))
    end
  end
end

-- _testWhere: fn(x) has the expected coordinates (flat), dtype int64,
-- and a static shape compatible with [None, rank].
local function test_where(x, truth, rank)
  local static
  T.eager_and_traced(function()
    local ans = tf.where(x)
    static = ans.shape:as_list()
    return ans
  end, {}, function(mode, ans)
    assert.are.equal(tf.int64, ans.dtype, mode)
    assert.are.equal(2, #static, mode .. " static rank")
    assert.are.equal(rank, static[2], mode .. " static shape")
    assert.are.equal(rank, ans.shape[1], mode)
    equal_flat(truth, ans, mode)
  end)
end

local function wrong_numbers()
  T.raises("ValueError", "x and y must both be non-None or both be None.",
    function() return tf.where({ false, true }, { 1, 2 }, nil) end)
  T.raises("ValueError", "x and y must both be non-None or both be None.",
    function() return tf.where({ false, true }, nil, { 1, 2 }) end)
end

local function basic_vec()
  test_where({ true, false }, { 0 }, 1)
  test_where({ false, true, false }, { 1 }, 1)
  test_where({ false, false, true, false, true }, { 2, 4 }, 1)
end

local function random_vec()
  T.seed(7)
  local values = T.rand_values({ 1000000 })
  for i = 1, #values do values[i] = values[i] > 0.5 end
  test_where(tf.constant(values), where_truth(values, { 1000000 }), 1)
end

local function basic_mat()
  -- Ensure RowMajor mode
  test_where({ { true, false }, { true, false } }, { 0, 0, 1, 0 }, 2)
end

local function basic_3tensor()
  local x = { { { true, false }, { true, false } },
    { { false, true }, { false, true } },
    { { false, false }, { false, true } } }
  -- Ensure RowMajor mode
  test_where(x, { 0, 0, 0, 0, 1, 0, 1, 0, 1, 1, 1, 1, 2, 1, 1 }, 3)
end

-- _testRandom: x = (randn > 0).astype(dtype); Where takes non-zero
-- entries of any dtype as true.
local function random(dtype)
  T.seed(11)
  local shape = { 127, 33, 53 }
  local draws = T.randn_values(shape)
  local truth, values = {}, {}
  for i = 1, #draws do
    truth[i] = draws[i] > 0
    if dtype == tf.bool then
      values[i] = truth[i]
    elseif dtype.is_integer then
      values[i] = truth[i] and 1 or 0
    else
      values[i] = truth[i] and 1.0 or 0.0
    end
  end
  test_where(tf.reshape(tf.constant(values, dtype), shape), where_truth(truth, shape), 3)
end

local function three_argument()
  local x = { { -2, 3, -1 }, { 1, -3, -3 } }
  local xx, neg = {}, {}
  for i, row in ipairs(x) do
    xx[i], neg[i] = {}, {}
    for j, v in ipairs(row) do xx[i][j], neg[i][j] = v * v, -v end
  end
  T.eager_and_traced(function()
    return tf.where(tf.greater(tf.constant(x, tf.int64), 0), xx, neg)
  end, {}, function(_, ans)
    T.equal({ { 2, 9, 1 }, { 1, 3, 3 } }, ans)
  end)
end

describe("where_op_test.py", function()
  for _, prefix in ipairs({ "", "V2" }) do
    it("WhereOpTest.test" .. prefix .. "WrongNumbers", wrong_numbers)
    it("WhereOpTest.test" .. prefix .. "BasicVec", basic_vec)
    it("WhereOpTest.test" .. prefix .. "RandomVec", random_vec)
    it("WhereOpTest.test" .. prefix .. "BasicMat", basic_mat)
    it("WhereOpTest.test" .. prefix .. "Basic3Tensor", basic_3tensor)
    for _, c in ipairs({ { "Bool", tf.bool }, { "Int32", tf.int32 }, { "Int64", tf.int64 },
      { "Float", tf.float32 }, { "Double", tf.float64 } }) do
      it("WhereOpTest.test" .. prefix .. "Random" .. c[1], function() random(c[2]) end)
    end
    it("WhereOpTest.test" .. prefix .. "ThreeArgument", three_argument)
  end

  it("WhereOpTest.testV2Broadcasting", function()
    T.seed(3)
    local draws = T.randn_values({ 3, 5, 1, 1 })
    local f = T.tensor(draws, { 3, 5, 1, 1 }, tf.float64)
    local x, y = tf.zeros({ 7, 11 }, tf.float64), tf.ones({ 7, 11 }, tf.float64)
    local expected = {}
    for i = 1, 15 do
      local v = draws[i] < 0 and 0.0 or 1.0
      for _ = 1, 77 do expected[#expected + 1] = v end
    end
    T.eager_and_traced(function() return tf.where(tf.less(f, 0), x, y) end, {}, function(mode, ans)
      assert.are.same({ 3, 5, 7, 11 }, ans.shape:as_list(), mode)
      assert.are.equal(tf.float64, ans.dtype, mode)
      equal_flat(expected, ans, mode)
    end)
  end)

  it("WhereOpTest.testV2ScalarBroadcasting", function()
    local x, y = tf.zeros({ 7, 11 }, tf.float64), tf.ones({ 7, 11 }, tf.float64)
    T.eager_and_traced(function() return tf.where(tf.constant(true, tf.bool), x, y) end, {}, function(mode, ans)
      assert.are.same({ 7, 11 }, ans.shape:as_list(), mode)
      T.equal(x:numpy(), ans)
    end)
  end)

  it("WhereOpTest.testV2VectorBroadcasting", function()
    local x, y = tf.zeros({ 7 }, tf.float64), tf.ones({ 7 }, tf.float64)
    T.eager_and_traced(function() return tf.where(tf.constant({ true }, tf.bool), x, y) end, {}, function(mode, ans)
      assert.are.same({ 7 }, ans.shape:as_list(), mode)
      T.equal({ 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0 }, ans)
    end)
  end)

  it("WhereOpTest.testV2PredBroadcasting", function()
    T.seed(5)
    local pred = { { true }, { false }, { false } } -- np.array([1, 0, 0]).reshape((3, 1))
    local x, y = T.randn({ 3, 4 }, tf.float64), T.randn({ 3, 4 }, tf.float64)
    local xv, yv = x:numpy(), y:numpy()
    T.eager_and_traced(function() return tf.where(pred, x, y) end, {}, function(_, ans)
      T.equal({ xv[1], yv[2], yv[3] }, ans)
    end)
  end)
end)
