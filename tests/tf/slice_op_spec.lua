-- slice_op_spec.lua — tensorflow/python/kernel_tests/array_ops/slice_op_test.py
-- (SliceTest), ported. Translation as in array_ops_spec.lua: Python's
-- a[2, k:k] is a["2, k:k"], an index holding a tensor is the
-- tf.strided_slice call TF's _slice_helper makes. NumPy's random inputs
-- become fixed ones (tf.range data, fixed indices and sizes) whose NumPy
-- results are written here; upstream gradients 1, 2, ... replace random
-- ones.
--
-- Left out: the dtypes moonflow lacks (uint8, int8, uint16, int16,
-- float16, bfloat16, float8, complex), conv3d (test3Dimension), TF1 graph
-- gradients (gradients_impl.gradients; the tape versions are here), the
-- halves of testScalarInput and testInvalidIndex that index a Python int
-- inside tf.function ("'int' object is not subscriptable": a Lua number
-- has no index at all), and testNotIterable (TF1 graph mode's
-- OperatorNotAllowedInGraphError).

local tf = tf or require("moonflow")
local T = require("tfhelpers")

-- x as a flat Lua list.
local function flat(x) return tf.reshape(x, { -1 }):numpy() end

describe("slice_op_test.py", function()
  -- slice_op_test.py: SliceTest.testEmpty and SliceTest.testInt32
  for _, dtype in ipairs({ tf.float32, tf.int32 }) do
    it("SliceTest." .. (dtype == tf.int32 and "testInt32" or "testEmpty"), function()
      local a = tf.reshape(tf.range(16, nil, nil, dtype), { 4, 4 })
      for k = 0, 3 do
        local slice_t = a[("2, %d:%d"):format(k, k)]
        assert.are.same({ 0 }, slice_t.shape:as_list())
        T.equal({}, slice_t)
      end
    end)
  end

  -- slice_op_test.py: SliceTest.testSlicingWithInt64Index
  it("SliceTest.testSlicingWithInt64Index", function()
    local a = tf.constant({ 0, 1, 2 }, tf.int32)
    local i = tf.constant(1, tf.int64)
    T.equal(1, a[i])
    -- a[i:i+1]
    T.equal({ 1 }, tf.strided_slice(a, tf.stack({ i }), tf.stack({ i + 1 }), tf.constant({ 1 }, tf.int64)))
    T.equal({ 1, 2 }, tf.slice(a, tf.constant({ 1 }, tf.int64), tf.constant({ 2 }, tf.int64)))
    local a_float32 = tf.constant({ 0, 1, 2 }, tf.float32)
    T.equal({ 1.0, 2.0 }, tf.slice(a_float32, tf.constant({ 1 }, tf.int64), tf.constant({ 2 }, tf.int64)))
  end)

  -- slice_op_test.py: SliceTest.testSlicingInt64Tensor
  it("SliceTest.testSlicingInt64Tensor", function()
    local a = tf.constant({ 0, 1, 2 }, tf.int64)
    local i = tf.constant(1, tf.int32)
    T.equal(1, a[i])
    T.equal({ 1 }, tf.strided_slice(a, tf.stack({ i }), tf.stack({ i + 1 }), { 1 }))
    T.equal(1, a[1])
    T.equal({ 1 }, a["1:2"])
    T.equal({ 1, 2 }, tf.slice(a, { 1 }, { 2 }))
  end)

  -- slice_op_test.py: SliceTest.testSelectAll
  it("SliceTest.testSelectAll", function()
    local a = tf.reshape(tf.range(256, nil, nil, tf.float32), { 4, 4, 4, 4 })
    local explicit = tf.slice(a, { 0, 0, 0, 0 }, { -1, -1, -1, -1 })
    local implicit = a[":, :, :, :"]
    T.equal(a:numpy(), explicit)
    T.equal(a:numpy(), implicit)
    assert.are.same({ 4, 4, 4, 4 }, explicit.shape:as_list())
    assert.are.same({ 4, 4, 4, 4 }, implicit.shape:as_list())
  end)

  -- slice_op_test.py: SliceTest.testSingleDimension (fixed lo, hi for NumPy's random ones)
  it("SliceTest.testSingleDimension", function()
    local a = tf.range(10, nil, nil, tf.float32)
    for _, c in ipairs({ { 0, 0 }, { 2, 7 }, { 0, 8 }, { 5, 6 } }) do
      local lo, hi = c[1], c[2]
      T.equal(hi + 0.0, a[hi])
      local want = {}
      for v = lo, hi - 1 do want[#want + 1] = v + 0.0 end
      T.equal(want, a[("%d:%d"):format(lo, hi)])
    end
  end)

  -- slice_op_test.py: SliceTest.testScalarInput (constant input)
  it("SliceTest.testScalarInput", function()
    T.raises({ "ValueError", "InvalidArgumentError" }, "Attempting to slice scalar input.",
      function() return tf.constant(0)[":"] end)
  end)

  -- slice_op_test.py: SliceTest.testInvalidIndex (constant input)
  it("SliceTest.testInvalidIndex", function()
    T.raises({ "ValueError", "InvalidArgumentError" }, "out of range",
      function() return tf.constant({ 1, 2 })["1:, 1:"] end)
  end)

  -- slice_op_test.py: SliceTest.testOutOfBoundsSizeWithConstantInput
  it("SliceTest.testOutOfBoundsSizeWithConstantInput", function()
    T.raises("InvalidArgumentError", "Expected size[0] in [0, 3]", tf.slice, tf.constant({ 0, 1, 2, 3 }), { 1 }, { 4 })
    local func = tf.func(function() return tf.slice(tf.constant({ 0, 1, 2, 3 }), { 1 }, { 4 }) end)
    T.raises("InvalidArgumentError", "Expected size[0] in [0, 3]", func)
  end)

  -- slice_op_test.py: SliceTest.testSliceMatrixDim0
  it("SliceTest.testSliceMatrixDim0", function()
    for _, cols in ipairs({ 4, 7 }) do
      local x = tf.reshape(tf.range(8 * cols, nil, nil, tf.float32), { 8, cols })
      for _, c in ipairs({ { 1, 2 }, { 3, 3 } }) do
        local b, s = c[1], c[2]
        T.equal(x[("%d:%d, :"):format(b, b + s)]:numpy(), tf.slice(x, { b, 0 }, { s, cols }))
      end
    end
  end)

  -- slice_op_test.py: SliceTest.testSingleElementAll
  it("SliceTest.testSingleElementAll", function()
    local a = tf.reshape(tf.range(16, nil, nil, tf.float32), { 4, 4 })
    T.equal({ 8.0, 9.0 }, a["2, 0:2"])
    T.equal({}, a["1, 0:0"])
    T.equal({ 0.0 }, a["0, 0:1"])
  end)

  -- slice_op_test.py: SliceTest.testSimple
  it("SliceTest.testSimple", function()
    local a = tf.reshape(tf.range(16, nil, nil, tf.float32), { 4, 4 })
    local slice_t, slice2_t = tf.slice(a, { 0, 0 }, { 2, 2 }), a[":2, :2"]
    T.equal({ { 0.0, 1.0 }, { 4.0, 5.0 } }, slice_t)
    T.equal({ { 0.0, 1.0 }, { 4.0, 5.0 } }, slice2_t)
    assert.are.same({ 2, 2 }, slice_t.shape:as_list())
    assert.are.same({ 2, 2 }, slice2_t.shape:as_list())
  end)

  -- slice_op_test.py: SliceTest.testComplex (x = 3, y = 2, z = 7 for the random ones)
  it("SliceTest.testComplex", function()
    local a = tf.reshape(tf.range(1600), { 4, 10, 10, 4 })
    local r = a[":, 3, 2:7, :"]
    assert.are.same({ 4, 5, 4 }, r.shape:as_list())
    local want = {}
    for i = 0, 3 do for v = 128, 147 do want[#want + 1] = v + 400 * i end end
    assert.are.same(want, flat(r))
  end)

  -- slice_op_test.py: SliceTest.testRandom (fixed shape, indices and sizes)
  it("SliceTest.testRandom", function()
    local a = tf.reshape(tf.range(144), { 2, 3, 4, 1, 3, 2 })
    local indices, sizes = { 1, 0, 2, 0, 1, 0 }, { 1, 2, 2, 1, 2, 2 }
    local slice_t = tf.slice(a, indices, sizes)
    local slice2_t = a["1:2, 0:2, 2:4, 0:1, 1:3, 0:2"]
    local want = { 86, 87, 88, 89, 92, 93, 94, 95, 110, 111, 112, 113, 116, 117, 118, 119 }
    assert.are.same(want, flat(slice_t))
    assert.are.same(want, flat(slice2_t))
    assert.are.same({ 1, 2, 2, 1, 2, 2 }, slice_t.shape:as_list())
    assert.are.same({ 1, 2, 2, 1, 2, 2 }, slice2_t.shape:as_list())
  end)

  -- slice_op_test.py: SliceTest.testPartialShapeInference
  it("SliceTest.testPartialShapeInference", function()
    local z = tf.zeros({ 1, 2, 3 })
    assert.are.same({ 1, 2, 3 }, z.shape:as_list())
    assert.are.same({ 1, 2, 3 }, tf.slice(z, { 0, 0, 0 }, { -1, -1, -1 }).shape:as_list())
    assert.are.same({ 1, 2, 3 }, tf.slice(z, { 0, 0, 0 }, { tf.constant(1) + 0, 2, -1 }).shape:as_list())
  end)

  -- slice_op_test.py: SliceTest.testGradientsAllTape (upstream gradients 1, 2, ... for NumPy's random ones)
  it("SliceTest.testGradientsAllTape", function()
    local function grad_slice(input_shape, begin, size)
      local n, m = 1, 1
      for _, d in ipairs(input_shape) do n = n * d end
      for _, d in ipairs(size) do m = m * d end
      local a = tf.reshape(tf.range(n, nil, nil, tf.float32), input_shape)
      local tape = tf.GradientTape()
      tape:watch(a)
      local slice_t = tf.slice(a, begin, size)
      tape:stop()
      local grads = tf.reshape(tf.range(1, m + 1, nil, tf.float32), size)
      return flat(tape:gradient(slice_t, { a }, { output_gradients = grads })[1])
    end
    T.equal({ 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 0.0, 0.0, 3.0, 4.0, 0.0, 0.0, 0.0, 0.0, 0.0 },
      grad_slice({ 4, 4 }, { 1, 1 }, { 2, 2 }))
    T.equal({ 1.0, 2.0, 0.0, 0.0, 3.0, 4.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0 },
      grad_slice({ 4, 4 }, { 0, 0 }, { 2, 2 }))
    T.equal({ 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0 },
      grad_slice({ 4, 4 }, { 2, 1 }, { 1, 2 }))
    T.equal({ 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
      0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0 }, grad_slice({ 3, 3, 3 }, { 0, 1, 0 }, { 2, 1, 1 }))
    -- _testGradientVariableSizeTape
    local inp = tf.constant({ 1.0, 2.0, 3.0 })
    local tape = tf.GradientTape()
    tape:watch(inp)
    local out = tf.slice(inp, { 1 }, { -1 })
    tape:stop()
    T.equal({ 0.0, 1.0, 1.0 }, tape:gradient(out, inp))
    -- _testGradientVariableSize2DTape
    local x = tf.constant({ { 1.0, 2.0, 3.0 }, { 4.0, 5.0, 6.0 }, { 7.0, 8.0, 7.0 } })
    tape = tf.GradientTape({ persistent = true })
    tape:watch(x)
    local loss1 = tf.reduce_sum(x[":-1, :-1"] * 1.0)
    local loss2 = tf.reduce_sum(x[":-1"][":, :-1"])
    tape:stop()
    local g1, g2 = tape:gradient(loss1, x), tape:gradient(loss2, x)
    T.equal(g1:numpy(), g2)
    T.equal({ { 1.0, 1.0, 0.0 }, { 1.0, 1.0, 0.0 }, { 0.0, 0.0, 0.0 } }, g1)
  end)

  -- slice_op_test.py: SliceTest.testComputedShape
  it("SliceTest.testComputedShape", function()
    local a = tf.constant({ { 1, 2, 3 }, { 4, 5, 6 } })
    local begin, size = tf.constant(0), tf.constant(1)
    assert.are.same({ 1, 2 }, tf.slice(a, { begin, 0 }, { size, 2 }).shape:as_list())
    local got
    tf.func(function(b)
      got = tf.slice(a, { b, 0 }, { -1, 2 }).shape:as_list()
    end):get_concrete_function(tf.TensorSpec({}, tf.int32))
    assert.are.same({ tf.None, 2 }, got)
  end)

  -- slice_op_test.py: SliceTest.testSliceOfSlice
  it("SliceTest.testSliceOfSlice", function()
    local a = tf.constant({ { 1, 2, 3 }, { 4, 5, 6 }, { 7, 8, 9 }, { 10, 11, 12 } })
    local b = a["1:, :"]
    local c = b[":-1, :"]
    local d = c["1, :"]
    local res = 2 * d - c["1, :"] + a["2, :"] - 2 * b["-2, :"]
    T.equal({ 0, 0, 0 }, res)
  end)
end)
