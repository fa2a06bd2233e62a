-- split_op_spec.lua — TensorFlow's split tests, ported:
-- tensorflow/python/kernel_tests/array_ops/split_op_test.py (SplitOpTest):
-- tf.split with a number of parts (Split) or a list of sizes (SplitV, one
-- of them -1), along any axis, its static shapes, errors and gradients.
--
-- Translation: _makeData is T.rand_values (tfhelpers' fixed generator);
-- inp[slices] is np_slice below, over flat row-major lists; each value
-- case runs eagerly and in a tf.func (TF's run_in_graph_and_eager_modes).
-- A TF1 placeholder is a tf.func parameter with an input_signature, and
-- sess.run is calling the traced function. gradients(s, [inp], grads) is
-- a tape gradient with output_gradients.
--
-- Left out: the int8, int4, complex64/128, bfloat16 and float8 dtypes of
-- _TEST_DTYPES (moonflow has none of them; float32 and float64 run);
-- testInt8SizeSplitsShapeFunction, testInt8SizeSplitsExecution,
-- testInt8SizeSplitsInt32Value (int8 size_splits); testSizeSplitsOverflowRaises,
-- testInputSizeAboveSizeSplitsTypeRaises and
-- testShapeFunctionRejectsSizeSplitsOverflow (they build tensors with
-- dimensions of 2^32 + 3 and 2^63 - 1 elements by zero, past what
-- moonflow's shapes were checked for in this port).

local tf = tf or require("moonflow")
local T = require("tfhelpers")

local F32, F64, I32 = tf.float32, tf.float64, tf.int32
local None = tf.None
local DTYPES = { F32, F64 }

-- inp[..., start:start+len, ...] along `dim` of a flat row-major list.
local function np_slice(values, shape, dim, start, len)
  local inner = 1
  for i = dim + 2, #shape do inner = inner * shape[i] end
  local n = shape[dim + 1]
  local outer = 1
  for i = 1, dim do outer = outer * shape[i] end
  local out = {}
  for o = 0, outer - 1 do
    for j = start, start + len - 1 do
      for k = 0, inner - 1 do out[#out + 1] = values[o * n * inner + j * inner + k + 1] end
    end
  end
  return out
end

local function flat(t) return T.flatten(T.plain(tf.reshape(t, { -1 }))) end

local function static(t)
  local s = t.shape:as_list()
  return s
end

-- Runs split eagerly and traced; check(parts, mode) sees each result list.
local function both(fn, args, check)
  check(fn(table.unpack(args)), "eager")
  check(T.quiet(tf.func(fn), table.unpack(args)), "traced")
end

-- Splits `values` of `shape` at `sizes` along `dim` and compares each part.
local function verify(values, shape, dtype, sizes_arg, dim, sizes)
  local x = T.tensor(values, shape, dtype)
  both(function(a) return tf.split(a, sizes_arg, dim) end, { x }, function(parts, mode)
    assert.are.equal(#sizes, #parts, mode)
    local d = dim < 0 and dim + #shape or dim
    local offset = 0
    for i, len in ipairs(sizes) do
      T.equal(np_slice(values, shape, d, offset, len), flat(parts[i]))
      local want = {}
      for k = 1, #shape do want[k] = shape[k] end
      want[d + 1] = len
      assert.are.same(want, static(parts[i]), mode)
      offset = offset + len
    end
  end)
end

-- _compare: np.split(x, num, dim).
local function compare(shape, dtype, dim, num)
  local sizes = {}
  for i = 1, num do sizes[i] = shape[dim + 1] // num end
  verify(T.rand_values(shape), shape, dtype, num, dim, sizes)
end

local function randint(lo, hi) return lo + math.floor(T.rand_values({ 1 })[1] * (hi - lo)) end

describe("split_op_test.py SplitOpTest", function()
  it("split_op_test.py SplitOpTest.testShapeInference", function()
    -- Known sizes that do not add up: ValueError while tracing.
    T.raises("ValueError", nil, function()
      tf.func(function(x) return tf.split(x, { 4 }, 1)[1] end):get_concrete_function(tf.TensorSpec({ 1, 10 }, F32))
    end)
    -- Unknown shape: the kernel's InvalidArgumentError when it runs.
    local f = tf.func(function(x) return tf.split(x, { 4 }) end, { input_signature = { tf.TensorSpec(nil, F64) } })
    T.raises("InvalidArgumentError", nil, T.quiet, f, tf.zeros({ 1, 10 }, F64))
    -- Scalar tensors are not permitted as num_or_size_splits.
    for _, axis in ipairs({ 0, -2 }) do
      T.raises("ValueError", nil, tf.split, tf.ones({ 4, 4 }), tf.constant(2), axis)
    end
    -- The dimensions not split stay known.
    local shapes
    tf.func(function()
      local r = tf.split(tf.ones({ 5, 2 }), tf.constant({ 2, 1, 2 }) * 1, 0)
      shapes = { static(r[1])[2], static(r[2])[2], static(r[3])[2] }
    end):get_concrete_function()
    assert.are.same({ 2, 2, 2 }, shapes)
    local g = tf.func(function(x) return tf.split(x, { 2, 2 }, 0)[1] end,
      { input_signature = { tf.TensorSpec({ None, 2 }, F32) } })
    T.equal({ { 1.0, 1.0 }, { 1.0, 1.0 } }, T.quiet(g, tf.ones({ 4, 2 })))
  end)

  it("split_op_test.py SplitOpTest.testFailWithoutExplicitNum", function()
    local f = tf.func(function(s) return tf.split({ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }, s) end,
      { input_signature = { tf.TensorSpec({ None }, I32) } })
    T.raises("ValueError", "Cannot infer argument `num` from shape", T.quiet, f, tf.constant({ 2, 2, 6 }))
  end)

  it("split_op_test.py SplitOpTest.testExplicitNum", function()
    local value = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }
    T.eager_and_traced(function()
      local size_splits = tf.constant({ 2, 2, 6 }, I32)
      local ok, err = pcall(tf.split, value, size_splits, 0, 4)
      assert.is_false(ok)
      assert.is_true(err.type == "InvalidArgumentError" or err.type == "ValueError", tostring(err))
      local r = tf.split(value, size_splits, 0, 3)
      return r[1], r[2], r[3]
    end, {}, function(_, a, b, c)
      T.equal({ 1, 2 }, a)
      T.equal({ 3, 4 }, b)
      T.equal({ 5, 6, 7, 8, 9, 10 }, c)
    end)
  end)

  it("split_op_test.py SplitOpTest.testListOfScalarTensors", function()
    local values = T.rand_values({ 11, 11 })
    T.eager_and_traced(function()
      local a, b = tf.cast(5, I32), tf.cast(6, I32)
      local r = tf.split(T.tensor(values, { 11, 11 }, F64), { a, b })
      return r[1], r[2]
    end, {}, function(_, r1, r2)
      T.equal(np_slice(values, { 11, 11 }, 0, 0, 5), flat(r1))
      T.equal(np_slice(values, { 11, 11 }, 0, 5, 6), flat(r2))
    end)
  end)

  it("split_op_test.py SplitOpTest.testSpecialCasesVariable", function()
    local v = T.rand_values({ 4, 4 })
    verify(v, { 4, 4 }, F32, { 4 }, 0, { 4 })
    verify(v, { 4, 4 }, F32, { -1, 3 }, 0, { 1, 3 })
    -- _testHugeNumberOfTensorsVariable: 1000 parts of 1 or 2 columns.
    for _, dtype in ipairs(DTYPES) do
      local sizes, total = {}, 0
      for i = 1, 1000 do sizes[i] = randint(1, 3); total = total + sizes[i] end
      local shape = { 3, total }
      local values = T.rand_values(shape)
      local parts = tf.split(T.tensor(values, shape, dtype), sizes, 1)
      local offset = 0
      for i = 1, 1000 do
        T.equal(np_slice(values, shape, 1, offset, sizes[i]), flat(parts[i]))
        offset = offset + sizes[i]
      end
    end
  end)

  it("split_op_test.py SplitOpTest.testDegenerateVariable", function()
    local v = T.rand_values({ 4, 4 })
    verify(v, { 4, 4 }, F32, { -1, 4 }, 0, { 0, 4 })
    verify(v, { 4, 4 }, F32, { 4, -1 }, 0, { 4, 0 })
    verify(v, { 4, 4 }, F32, { -1, 4 }, 1, { 0, 4 })
    verify(v, { 4, 4 }, F32, { 4, -1 }, 1, { 4, 0 })
  end)

  it("split_op_test.py SplitOpTest.testOutputShape", function()
    for _, axis in ipairs({ 1, -1 }) do
      local shapes = {}
      tf.func(function(x)
        for i, o in ipairs(tf.split(x, { 3, 7, 2 }, axis)) do shapes[i] = static(o) end
      end):get_concrete_function(tf.TensorSpec({ None, 12 }, F32))
      assert.are.same({ { None, 3 }, { None, 7 }, { None, 2 } }, shapes)
    end
  end)

  it("split_op_test.py SplitOpTest.testSplitRows", function()
    for _, dtype in ipairs(DTYPES) do compare({ 4, 4 }, dtype, 0, 4) end
  end)

  it("split_op_test.py SplitOpTest.testSplitCols", function()
    for _, dtype in ipairs(DTYPES) do compare({ 4, 4 }, dtype, 1, 4) end
  end)

  it("split_op_test.py SplitOpTest.testEmpty", function()
    for _, dtype in ipairs(DTYPES) do
      local x = tf.zeros({ 8, 0, 21 }, dtype)
      for _, case in ipairs({ { 0, 2, { 4, 0, 21 } }, { 0, 4, { 2, 0, 21 } }, { 1, 4, { 8, 0, 21 } },
        { 2, 3, { 8, 0, 7 } }, { 2, 7, { 8, 0, 3 } } }) do
        both(function(a) return tf.split(a, case[2], case[1]) end, { x }, function(parts, mode)
          assert.are.equal(case[2], #parts)
          for i = 1, case[2] do assert.are.same(case[3], static(parts[i]), mode) end
        end)
      end
    end
  end)

  it("split_op_test.py SplitOpTest.testIdentity", function()
    for _, dtype in ipairs(DTYPES) do
      for dim = 0, 2 do compare({ 2, 2, 2 }, dtype, dim, 1) end
    end
  end)

  it("split_op_test.py SplitOpTest.testSplitDim0", function()
    for _, dtype in ipairs(DTYPES) do
      compare({ 6, 10, 18 }, dtype, 0, 3)
      compare({ 6, 7, 18 }, dtype, 0, 3)
      compare({ 6, 7, 9 }, dtype, 0, 3)
    end
  end)

  it("split_op_test.py SplitOpTest.testRandom", function()
    for _, dtype in ipairs(DTYPES) do
      for _ = 1, 5 do
        for _, large in ipairs({ false, true }) do
          -- _RunAndVerify
          local shape = {}
          for i = 1, 5 do shape[i] = randint(0, 5) end
          local dim = randint(-5, 5)
          local num = large and randint(9, 15) or randint(2, 8)
          local d = dim < 0 and dim + 5 or dim
          shape[d + 1] = randint(2, 5) * num
          compare(shape, dtype, d, num)
          -- _RunAndVerifyVariable
          shape = {}
          for i = 1, 5 do shape[i] = randint(1, 5) end
          dim = randint(-5, 5)
          num = large and randint(16, 25) or randint(2, 8)
          local sizes, total = {}, 0
          for i = 1, num do sizes[i] = randint(2, 8); total = total + sizes[i] end
          d = dim < 0 and dim + 5 or dim
          shape[d + 1] = total
          verify(T.rand_values(shape), shape, dtype, sizes, dim, sizes)
        end
      end
    end
  end)

  it("split_op_test.py SplitOpTest.testGradientsAll", function()
    for _, dtype in ipairs(DTYPES) do
      local inp = T.rand(({ 4, 4 }), dtype)
      for _, case in ipairs({ { 4, { 1, 1, 1, 1 } }, { { 1, 3 }, { 1, 3 } } }) do
        local grads = {}
        for i, w in ipairs(case[2]) do grads[i] = T.rand({ 4, w }, dtype) end
        local function grad(x)
          local tape = tf.GradientTape()
          tape:watch(x)
          local s = tf.split(x, case[1], 1)
          tape:stop()
          return tape:gradient(s, x, { output_gradients = grads })
        end
        for _, g in ipairs({ grad(inp), T.quiet(tf.func(grad), inp) }) do
          local col = 0
          for i, w in ipairs(case[2]) do
            T.equal(T.plain(grads[i]), T.plain(g[(":, %d:%d"):format(col, col + w)]))
            col = col + w
          end
        end
      end
    end
  end)

  it("split_op_test.py SplitOpTest.testShapeFunctionEdgeCases", function()
    -- A TF1 graph test: the shape function's ValueError, while tracing
    -- (eagerly, TF and moonflow raise the kernel's InvalidArgumentError).
    for _, axis in ipairs({ 2, -3 }) do
      T.raises("ValueError", nil, function()
        tf.func(function() return tf.split({ { 0, 1 }, { 2, 3 } }, 4, axis) end):get_concrete_function()
      end)
      T.raises("InvalidArgumentError", nil, tf.split, { { 0, 1 }, { 2, 3 } }, 4, axis)
    end
    T.raises("ValueError", "should evenly divide", function()
      tf.func(function() return tf.split({ 0, 1, 2, 3 }, 3, 0) end):get_concrete_function()
    end)
    local shapes = {}
    tf.func(function(axis)
      for i, s in ipairs(tf.split({ { 0, 1, 2, 3 } }, 4, axis)) do shapes[i] = static(s) end
    end):get_concrete_function(tf.TensorSpec({}, I32))
    assert.are.same({ { None, None }, { None, None }, { None, None }, { None, None } }, shapes)
    local ranks = {}
    tf.func(function(x, axis)
      for i, s in ipairs(tf.split(x, 4, axis)) do ranks[i] = s.shape.rank or "unknown" end
    end):get_concrete_function(tf.TensorSpec(nil, F32), tf.TensorSpec({}, I32))
    assert.are.same({ "unknown", "unknown", "unknown", "unknown" }, ranks)
  end)

  it("split_op_test.py SplitOpTest.testVariableShapeFunction", function()
    T.raises("ValueError", nil, function()
      tf.func(function() return tf.split({ 0, 1 }, { 3, -1 }, 0) end):get_concrete_function()
    end)
    local shapes
    tf.func(function()
      local s0, s1 = table.unpack(tf.split({ 0, 1, 2 }, { 2, -1 }, 0))
      shapes = { static(s0), static(s1) }
    end):get_concrete_function()
    assert.are.same({ { 2 }, { 1 } }, shapes)
  end)

  it("split_op_test.py SplitOpTest.testSingleSplitWithMinusOne", function()
    T.eager_and_traced(function()
      return tf.split(tf.constant({ 1, 2, 3 }, I32), { -1 }, 0)[1],
        tf.split(tf.constant({}, I32), { -1 }, 0)[1],
        tf.split(tf.constant({ { 1, 2 }, { 3, 4 } }, I32), { -1 }, 0)[1],
        tf.split(tf.constant({ { 1, 2 }, { 3, 4 } }, I32), { -1 }, 1)[1]
    end, {}, function(_, a, b, c, d)
      T.equal({ 1, 2, 3 }, a)
      assert.are.same({ 0 }, static(b))
      T.equal({ { 1, 2 }, { 3, 4 } }, c)
      T.equal({ { 1, 2 }, { 3, 4 } }, d)
    end)
  end)

  it("split_op_test.py SplitOpTest.testScalarSizeSplitsRaises", function()
    T.raises({ "ValueError", "InvalidArgumentError" }, nil, tf.split, { 1, 2 }, tf.constant(2, tf.int64), 0, 1)
  end)

  it("split_op_test.py SplitOpTest.testNonexistentDimTensor", function()
    local values = tf.zeros({ 5, 30 })
    T.raises("ValueError", "Cannot infer", function()
      tf.func(function(x, s) return tf.split(values, s, x) end)
        :get_concrete_function(tf.TensorSpec(nil, I32), tf.TensorSpec(nil, I32))
    end)
    local f = tf.func(function(x, s) return tf.split(values, s, x) end,
      { input_signature = { tf.TensorSpec(nil, I32), tf.TensorSpec({ 3 }, I32) } })
    T.raises("InvalidArgumentError", "must have exactly one element", T.quiet, f,
      tf.constant({}, I32), tf.constant({ 4, 11, 15 }))
  end)

  it("split_op_test.py SplitOpTest.testNegativeSizes", function()
    local x = tf.constant({ 1, 2, 3 }, F32)
    for _, fn in ipairs({ tf.split, function(...) return T.quiet(tf.func(tf.split), ...) end }) do
      local err = T.raises({ "ValueError", "InvalidArgumentError" }, "Split size at index 1 must be >= ", fn, x, { -1, -2 }, 0)
      assert.is_truthy(err.message:find("Got: -2", 1, true), err.message)
    end
  end)

  it("split_op_test.py SplitOpTest.testBadSplitSizes", function()
    local x = tf.constant({ 1, 2 }, F32)
    for _, fn in ipairs({ tf.split, function(...) return T.quiet(tf.func(tf.split), ...) end }) do
      local err = T.raises({ "ValueError", "InvalidArgumentError" }, nil, fn, x, { 1, 2 }, 0)
      assert.is_truthy(err.message:find("Determined shape must either match input", 1, true)
        or err.message:find("can't split axis", 1, true), err.message)
    end
  end)

  for _, case in ipairs({ { "testSplitVBigTensors", nil }, { "testSplitVBigTensorsWithIrregularSplits", { 32, 16, 8, 4, 2, 1, 1 } } }) do
    it("split_op_test.py SplitOpTest." .. case[1], function()
      local x = tf.reshape(tf.range(1, 64 * 32768 + 1, 1, F32), { 1, 64, 32768 })
      local sizes = case[2]
      if not sizes then sizes = {}; for i = 1, 64 do sizes[i] = 1 end end
      local y = tf.split(x, sizes, 1)
      local start = 0
      for i, len in ipairs(sizes) do
        assert.is_true(tf.reduce_all(tf.equal(y[i], x[(":, %d:%d, :"):format(start, start + len)])):numpy())
        start = start + len
      end
    end)
  end
end)
