-- reshape_gather_spec.lua — TensorFlow's tests of gather, reshape and stack,
-- ported: tensorflow/python/kernel_tests/array_ops/gather_op_test.py
-- (GatherTest), reshape_op_test.py (ReshapeTest) and stack_op_test.py
-- (StackOpTest, AutomaticStackingTest).
--
-- Translation as in array_ops_spec.lua. NumPy's random inputs become
-- tf.range data; NumPy's expected shapes (np.expand_dims, np.squeeze,
-- np.tile) are written out. TF1 graph-mode tests (run_deprecated_v1,
-- placeholders) run eagerly, where TF's kernels raise
-- InvalidArgumentError, or trace a tf.func over input_signature specs
-- where they check static shapes. tf.gather's third positional argument is
-- moonflow's axis (TF's is the deprecated validate_indices).
--
-- Left out: dtypes moonflow lacks (int16, int8, uint8/16/32/64, float16,
-- bfloat16, float8, complex, quantized), SparseTensor shapes, shape_n,
-- size_internal, parallel_stack/parallel_concat, concat_offset, ref
-- variables, TF1 gradient_checker error bounds (tape gradients with fixed
-- upstream gradients are checked instead), import_graph_def, the XLA and
-- GPU variants, IndexedSlices gradient types.

local tf = tf or require("moonflow")
local T = require("tfhelpers")

local None = tf.None
local EITHER = { "ValueError", "InvalidArgumentError" }

local function shape_list(x) return x.shape:as_list() end

-- The static shape a traced function gives fn(...) for these input specs.
local function traced_shape(fn, ...)
  local got
  tf.func(function(...) got = fn(...).shape:as_list() end):get_concrete_function(...)
  return got
end

describe("gather_op_test.py", function()
  local data2 = { { 0, 1, 2 }, { 3, 4, 5 }, { 6, 7, 8 }, { 9, 10, 11 }, { 12, 13, 14 } }

  -- gather_op_test.py: GatherTest.testScalar1D
  it("GatherTest.testScalar1D", function()
    for _, dtype in ipairs({ tf.int64, tf.float32 }) do
      for _, itype in ipairs({ tf.int32, tf.int64 }) do
        local params = tf.constant({ 0, 1, 2, 3, 7, 5 }, dtype)
        local g = tf.gather(params, tf.constant(4, itype))
        T.equal(7, g)
        assert.are.same({}, shape_list(g))
        g = tf.gather(params, tf.constant({ 1, 2, 2, 4, 5 }, itype))
        T.equal({ 1, 2, 2, 7, 5 }, g)
        assert.are.same({ 5 }, shape_list(g))
      end
    end
  end)

  -- gather_op_test.py: GatherTest.testScalar2D and testSimpleTwoD32
  it("GatherTest.testSimpleTwoD32", function()
    for _, itype in ipairs({ tf.int32, tf.int64 }) do
      local params = tf.constant(data2, tf.float32)
      T.equal({ 6, 7, 8 }, tf.gather(params, tf.constant(2, itype), 0))
      T.equal({ 2, 5, 8, 11, 14 }, tf.gather(params, tf.constant(2, itype), 1))
      local g = tf.gather(params, tf.constant({ 0, 1, 0, 2 }, itype), 0)
      assert.are.same({ 4, 3 }, shape_list(g))
      T.equal({ { 0, 1, 2 }, { 3, 4, 5 }, { 0, 1, 2 }, { 6, 7, 8 } }, g)
      g = tf.gather(params, tf.constant({ 0, 1, 0, 2 }, itype), 1)
      assert.are.same({ 5, 4 }, shape_list(g))
      T.equal({ { 0, 1, 0, 2 }, { 3, 4, 3, 5 }, { 6, 7, 6, 8 }, { 9, 10, 9, 11 }, { 12, 13, 12, 14 } }, g)
    end
  end)

  -- gather_op_test.py: GatherTest.testHigherRankGradientTape (fixed indices, upstream ones)
  it("GatherTest.testHigherRankGradientTape", function()
    local params = tf.reshape(tf.range(12, nil, nil, tf.float32), { 2, 1, 3, 2 })
    local index_cases = { tf.constant(1), tf.zeros({ 0 }, tf.int32), tf.zeros({ 2, 0 }, tf.int32),
      tf.constant({ { 1, 0, 1 }, { 2, 2, 0 } }) }
    for _, indices in ipairs(index_cases) do
      local c = { nil, 2 }
      local tape = tf.GradientTape()
      tape:watch(params)
      local g = tf.gather(params, indices, tf.constant(c[2]))
      local gn = tf.gather(params, indices, tf.constant(c[2] - 4))
      tape:stop()
      T.equal(g:numpy(), gn)
      local want = { 2, 1 }
      for _, d in ipairs(shape_list(indices)) do want[#want + 1] = d end
      want[#want + 1] = 2
      assert.are.same(want, shape_list(g))
      local grad = tape:gradient(g, params)
      assert.are.same({ 2, 1, 3, 2 }, shape_list(grad))
      T.equal(tf.reduce_sum(grad):numpy() + 0.0, tf.cast(tf.size(g), tf.float32))
    end
  end)

  -- gather_op_test.py: GatherTest.testString
  it("GatherTest.testString", function()
    local params = { { "asdf", "zxcv" }, { "qwer", "uiop" } }
    T.equal({ "qwer", "uiop" }, tf.gather(params, 1, 0))
    T.equal({ "asdf", "qwer" }, tf.gather(params, 0, 1))
  end)

  -- gather_op_test.py: GatherTest.testUnknownIndices and testUnknownAxis
  it("GatherTest.testUnknownAxis", function()
    local params = tf.constant({ { 0, 1, 2 } })
    local ints = tf.TensorSpec(nil, tf.int32)
    local rank = "unset"
    tf.func(function(i) rank = tf.gather(params, i).shape.rank end):get_concrete_function(ints)
    assert.is_nil(rank)
    assert.are.same({ None, None, None },
      traced_shape(function(axis) return tf.gather(params, { { 0, 0 }, { 0, 0 } }, axis) end, ints))
    tf.func(function(i, axis) rank = tf.gather(params, i, axis).shape.rank end):get_concrete_function(ints, ints)
    assert.is_nil(rank)
  end)

  -- gather_op_test.py: GatherTest.testBadIndicesType
  it("GatherTest.testBadIndicesType", function()
    T.raises({ "TypeError", "InvalidArgumentError" }, "float", tf.gather, { 0 }, 0.0)
  end)

  -- gather_op_test.py: GatherTest.testBadIndicesCPU
  it("GatherTest.testBadIndicesCPU", function()
    local params = { { 0, 1, 2 }, { 3, 4, 5 } }
    T.raises("InvalidArgumentError", "indices[0,0] = 7 is not in [0, 2)", tf.gather, params, { { 7 } }, 0)
    T.raises("InvalidArgumentError", "indices[0,0] = 7 is not in [0, 3)", tf.gather, params, { { 7 } }, 1)
  end)

  -- gather_op_test.py: GatherTest.testBadAxis
  it("GatherTest.testBadAxis", function()
    local unknown = tf.func(function(x, i, axis) return tf.gather(x, i, axis) end,
      { autograph = false, input_signature = { tf.TensorSpec(nil, tf.int32), tf.TensorSpec(nil, tf.int32),
        tf.TensorSpec(nil, tf.int32) } })
    -- TF 2 runs this eagerly: the kernel's message, which TF's test sees
    -- too when the axis is not known while the graph is built (its graph
    -- half, a constant axis, is in graph_errors_spec.lua)
    for _, bad_axis in ipairs({ 1, 2, -2 }) do
      local want = ("Expected axis in the range [-1, 1), but got %d"):format(bad_axis)
      T.raises("InvalidArgumentError", want, tf.gather, { 0, 1, 2 }, 0, bad_axis)
      T.raises(EITHER, want, unknown, tf.constant({ 0, 1, 2 }), tf.constant(0), tf.constant(bad_axis))
    end
  end)

  -- gather_op_test.py: GatherTest.testBatchDimsExtremeBounds
  it("GatherTest.testBatchDimsExtremeBounds", function()
    local params, indices = tf.constant({ { 0.69 } }), tf.constant({ 0 })
    for _, bd in ipairs({ -2147483648, 2147483647 }) do
      T.raises(EITHER, "Expected batch_dims in the range", tf.gather, params, indices, nil, bd)
    end
  end)

  -- gather_op_test.py: GatherTest.testEmptySlices
  it("GatherTest.testEmptySlices", function()
    for _, itype in ipairs({ tf.int32, tf.int64 }) do
      local indices = tf.constant({ 3, 4 }, itype)
      assert.are.same({ 2, 0, 0 }, shape_list(tf.gather(tf.zeros({ 7, 0, 0 }), indices, 0)))
      assert.are.same({ 0, 2, 0 }, shape_list(tf.gather(tf.zeros({ 0, 7, 0 }), indices, 1)))
      assert.are.same({ 0, 0, 2 }, shape_list(tf.gather(tf.zeros({ 0, 0, 7 }), indices, 2)))
    end
  end)

  -- gather_op_test.py: GatherTest.testBatchDims (the parameter sets; axis, batch_dims)
  it("GatherTest.testBatchDims", function()
    local cases = {
      { 0, nil, { 6, 7, 8, 9 }, { { 2, 1 }, { 0, 3 } }, { { 8, 7 }, { 6, 9 } } },
      { 0, nil, { 6, 7, 8, 9 }, { { { 3, 1 }, { 2, 0 } }, { { 0, 3 }, { 2, 2 } } },
        { { { 9, 7 }, { 8, 6 } }, { { 6, 9 }, { 8, 8 } } } },
      { 1, nil, { { 10, 11, 12, 13 }, { 20, 21, 22, 23 } }, { { 2, 1 }, { 0, 3 } }, { { 12, 11 }, { 20, 23 } } },
      { 2, nil, { { { 100, 101 }, { 110, 111 } }, { { 200, 201 }, { 210, 211 } } },
        { { { 0, 1 }, { 1, 0 } }, { { 0, 0 }, { 1, 1 } } }, { { { 100, 101 }, { 111, 110 } }, { { 200, 200 }, { 211, 211 } } } },
      { -1, nil, { { 10, 11, 12, 13 }, { 20, 21, 22, 23 } }, { { 2, 1 }, { 0, 3 } }, { { 12, 11 }, { 20, 23 } } },
      { -1, nil, { { { 100, 101 }, { 110, 111 } }, { { 200, 201 }, { 210, 211 } } },
        { { { 0, 1 }, { 1, 0 } }, { { 0, 0 }, { 1, 1 } } }, { { { 100, 101 }, { 111, 110 } }, { { 200, 200 }, { 211, 211 } } } },
      { 1, nil, { { 10, 11, 12, 13 }, { 20, 21, 22, 23 } }, { 2, 1 }, { 12, 21 } },
      { 2, nil, { { { 100, 101, 102, 103 }, { 110, 111, 112, 113 } }, { { 200, 201, 202, 203 }, { 210, 211, 212, 213 } } },
        { { 2, 1 }, { 0, 3 } }, { { 102, 111 }, { 200, 213 } } },
      { 1, nil, { { 10, 11, 12, 13 }, { 20, 21, 22, 23 } }, { { { 3, 1 }, { 2, 0 } }, { { 0, 3 }, { 2, 2 } } },
        { { { 13, 11 }, { 12, 10 } }, { { 20, 23 }, { 22, 22 } } } },
      { 1, 2, { { { 10, 11, 12 }, { 13, 14, 15 } }, { { 20, 21, 22 }, { 23, 24, 25 } } },
        { { { 0, 1, 2, 1, 0 } }, { { 0, 1, 2, 1, 0 } } },
        { { { { 10, 11, 12, 11, 10 } }, { { 13, 14, 15, 14, 13 } } }, { { { 20, 21, 22, 21, 20 } }, { { 23, 24, 25, 24, 23 } } } } },
      { nil, 1, { { 10, 11, 12 }, { 13, 14, 15 } }, { 1, 0 }, { { 11, 10 }, { 14, 13 } } },
      { -3, 1, { { 0, 1, 2 }, { 3, 4, 5 } }, { { { 0, 1 }, { 1, 0 } } }, { { { { 0, 1 }, { 1, 0 } } }, { { { 3, 4 }, { 4, 3 } } } } },
    }
    for _, c in ipairs(cases) do
      local bd, axis, params, indices, expected = c[1], c[2], c[3], c[4], c[5]
      T.equal(expected, tf.gather(params, indices, axis, bd))
      -- the same for strings
      local function str(v)
        if type(v) == "table" then
          local o = {}
          for k, x in ipairs(v) do o[k] = str(x) end
          return o
        end
        return tostring(v)
      end
      T.equal(str(expected), tf.gather(str(params), indices, axis, bd))
      -- the gradient has the params' shape
      local zeros = tf.zeros_like(tf.constant(params), tf.float32)
      local tape = tf.GradientTape()
      tape:watch(zeros)
      local result = tf.gather(zeros * 2 + zeros, indices, axis, bd)
      tape:stop()
      T.equal(tf.shape(params):numpy(), tf.shape(tape:gradient(result, zeros)), 1e-6)
    end
  end)

  -- gather_op_test.py: GatherTest.testBatchDimsMatchesPythonBatching (the shapes)
  it("GatherTest.testBatchDimsMatchesPythonBatching", function()
    local params = tf.reshape(tf.range(2 * 3 * 4 * 5 * 2 * 2), { 2, 3, 4, 5, 2, 2 })
    for _, c in ipairs({ { 2, { 2, 3, 2, 2, 2, 5, 2, 2 } }, { 3, { 2, 3, 4, 2, 2, 2, 2, 2 } },
      { -4, { 2, 3, 2, 2, 2, 5, 2, 2 } }, { -1, { 2, 3, 4, 5, 2, 2, 2, 2 } } }) do
      local indices = tf.reshape(tf.range(2 * 3 * 2 * 2 * 2) % 2, { 2, 3, 2, 2, 2 })
      assert.are.same(c[2], shape_list(tf.gather(params, indices, c[1], 2)))
    end
  end)

  -- gather_op_test.py: GatherTest.testGatherResourceVariable
  it("GatherTest.testGatherResourceVariable", function()
    local v = tf.Variable(tf.constant({ { 1, 2 }, { 3, 4 }, { 5, 6 } }))
    T.equal({ { 1, 2 }, { 5, 6 } }, tf.gather(v, { 0, 2 }))
  end)
end)

describe("reshape_op_test.py", function()
  -- reshape_op_test.py: ReshapeTest._testReshape, over the basic cases (int32 and int64 shapes)
  local function check_reshape(x, shape, want)
    for _, dtype in ipairs({ tf.int32, tf.int64 }) do
      local r = tf.reshape(x, tf.constant(shape, dtype))
      assert.are.same(want, shape_list(r))
      T.equal(want, tf.shape(r))
      T.equal(tf.reshape(x, { -1 }):numpy(), tf.reshape(r, { -1 }))
    end
  end

  -- reshape_op_test.py: ReshapeTest.testBoolBasic, testFloatBasic, testDoubleBasic, testInt32Basic
  it("ReshapeTest.testFloatBasic", function()
    local base = tf.reshape(tf.range(1, 7), { 1, 6 })
    for _, dtype in ipairs({ tf.float32, tf.float64, tf.int32 }) do
      check_reshape(tf.cast(base, dtype), { 2, 3 }, { 2, 3 })
    end
    check_reshape(tf.greater(base, 3), { 2, 3 }, { 2, 3 })
  end)

  -- reshape_op_test.py: ReshapeTest.testFloatReshapeThreeDimensions and the unspecified-dim cases
  it("ReshapeTest.testFloatUnspecifiedDim", function()
    check_reshape(tf.reshape(tf.range(1, 28, nil, tf.float32), { 1, 27 }), { 3, 3, 3 }, { 3, 3, 3 })
    local x = tf.range(1, 7, nil, tf.float32)
    check_reshape(x, { -1 }, { 6 })
    check_reshape(x, { -1, 2 }, { 3, 2 })
    check_reshape(x, { 3, -1 }, { 3, 2 })
  end)

  -- reshape_op_test.py: ReshapeTest.testZeroDimBasic, testZeroDimReshapeR1, testZeroDimReshapeR3
  it("ReshapeTest.testZeroDimBasic", function()
    local x = tf.zeros({ 0, 6 })
    check_reshape(x, { 0, 2, 3 }, { 0, 2, 3 })
    check_reshape(x, { -1 }, { 0 })
    check_reshape(x, { -1, 2, 3 }, { 0, 2, 3 })
  end)

  -- reshape_op_test.py: ReshapeTest.testFloatEmpty
  it("ReshapeTest.testFloatEmpty", function()
    local x = tf.zeros({ 0, 0, 0, 0 })
    for _, c in ipairs({ { { 1, 2, 3, 0 }, { 1, 2, 3, 0 } }, { { 1, 0, 0, 4 }, { 1, 0, 0, 4 } },
      { { 0, 0, 0, 0 }, { 0, 0, 0, 0 } }, { { 1, 2, 0 }, { 1, 2, 0 } }, { { 0, 0, 0 }, { 0, 0, 0 } },
      { { 1, -1, 5 }, { 1, 0, 5 } } }) do
      check_reshape(x, c[1], c[2])
    end
  end)

  -- reshape_op_test.py: ReshapeTest.testZeroDimWithUnspecifiedDim
  it("ReshapeTest.testZeroDimWithUnspecifiedDim", function()
    check_reshape(tf.zeros({ 0, 6 }), { 0, -1, 3 }, { 0, 2, 3 })
  end)

  -- reshape_op_test.py: ReshapeTest.testFloatReshapeGradThreeDimensions (tape)
  it("ReshapeTest.testFloatReshapeGradThreeDimensions", function()
    local x = tf.reshape(tf.range(1, 25, nil, tf.float32), { 2, 3, 4 })
    local tape = tf.GradientTape()
    tape:watch(x)
    local y = tf.reshape(x, { 1, 8, 3 })
    tape:stop()
    local g = tape:gradient(y, x, { output_gradients = tf.reshape(tf.range(24, nil, nil, tf.float32), { 1, 8, 3 }) })
    T.equal(tf.reshape(tf.range(24, nil, nil, tf.float32), { 2, 3, 4 }):numpy(), g)
  end)

  -- reshape_op_test.py: ReshapeTest.testErrors (eager: TF's kernel messages)
  it("ReshapeTest.testErrors", function()
    T.raises(EITHER, "17", tf.reshape, tf.fill({ 23, 29, 31 }, 0.0), { 17, -1 })
    T.raises(EITHER, "4096", tf.reshape, tf.fill({ 32, 128 }, 0.0), { 4095 })
  end)

  -- reshape_op_test.py: ReshapeTest.testPartialShapes
  it("ReshapeTest.testPartialShapes", function()
    local any = tf.TensorSpec(nil, tf.float32)
    -- Unknown input shape, partial new shape.
    assert.are.same({ 1, 1, None, 1 }, traced_shape(function(x) return tf.reshape(x, { 1, 1, -1, 1 }) end, any))
    -- Unknown input shape, unknown new shape.
    local rank = "unset"
    tf.func(function(x, s) rank = tf.reshape(x, s).shape.rank end):get_concrete_function(any,
      tf.TensorSpec(nil, tf.int32))
    assert.is_nil(rank)
    -- Unknown input shape, known rank for new shape.
    assert.are.same({ None, None, None },
      traced_shape(function(x, s) return tf.reshape(x, s) end, any, tf.TensorSpec({ 3 }, tf.int32)))
    -- Unknown input shape, partial new shape using `tf.stack()`.
    assert.are.same({ None, 37 },
      traced_shape(function(x, n) return tf.reshape(x, { n, 37 }) end, any, tf.TensorSpec(nil, tf.int32)))
    -- Unknown input shape, partial new shape using `tf.concat()`.
    assert.are.same({ None, None, 37, 42 },
      traced_shape(function(x, s) return tf.reshape(x, tf.concat({ s, { 37, 42 } }, 0)) end, any,
        tf.TensorSpec({ 2 }, tf.int32)))
    -- Unknown input shape, partial new shape using `tf.shape()`.
    assert.are.same({ None, 37, None },
      traced_shape(function(x, p) return tf.reshape(x, tf.shape(p)) end, any,
        tf.TensorSpec({ None, 37, None }, tf.float32)))
  end)

  -- reshape_op_test.py: ReshapeTest.testTensorShape
  it("ReshapeTest.testTensorShape", function()
    local x = tf.zeros({ 1, 100 })
    assert.are.same({ 100, 1 }, shape_list(tf.reshape(x, tf.TensorShape({ 100, 1 }))))
  end)

  -- reshape_op_test.py: ReshapeTest.testTooLargeShape
  it("ReshapeTest.testTooLargeShape", function()
    T.raises("InvalidArgumentError", "too many elements", tf.reshape, { 1 }, { 21943, 45817, 30516, 61760, 38987 })
  end)
end)

describe("stack_op_test.py", function()
  -- np_split_squeeze: the slices of `data` along axis, as a Lua list
  local function split_squeeze(data, axis)
    return tf.unstack(data, nil, axis)
  end

  -- stack_op_test.py: StackOpTest.testSimple and testAgainstNumpy
  it("StackOpTest.testSimple", function()
    for _, shape in ipairs({ { 2 }, { 3 }, { 2, 3 }, { 3, 2 }, { 8, 2, 10 }, { 2, 2, 3 }, { 4, 1, 2, 2 } }) do
      local n = 1
      for _, d in ipairs(shape) do n = n * d end
      for _, dtype in ipairs({ tf.bool, tf.float32, tf.int32, tf.int64 }) do
        local data = tf.reshape(tf.range(n), shape)
        data = dtype == tf.bool and tf.less(data % 3, 1) or tf.cast(data, dtype)
        for axis = -#shape, #shape - 1 do
          local c = tf.stack(split_squeeze(data, axis), axis)
          assert.are.same(shape, shape_list(c))
          T.equal(data:numpy(), c)
        end
      end
    end
  end)

  -- stack_op_test.py: StackOpTest.testConst
  it("StackOpTest.testConst", function()
    local a = tf.constant({ 1, 2, 3, 4, 5, 6 })
    assert.are.same({ 2, 3 }, shape_list(tf.reshape(a, tf.stack({ 2, 3 }))))
    T.equal({ 1.5, 2.5 }, tf.stack({ 1.5, 2.5 }))
    T.equal({ { 1, 2 }, { 3, 4 } }, tf.stack({ { 1, 2 }, { 3, 4 } }))
  end)

  -- stack_op_test.py: StackOpTest.testGradientsAxis0 and testGradientsAxis1 (tape)
  it("StackOpTest.testGradientsAxis1", function()
    local xs = { tf.constant({ 1.0, 2.0, 3.0 }), tf.constant({ 4.0, 5.0, 6.0 }) }
    for _, axis in ipairs({ 0, 1 }) do
      local tape = tf.GradientTape()
      tape:watch(xs)
      local s = tf.stack(xs, axis)
      tape:stop()
      local dy = axis == 0 and tf.constant({ { 1.0, 2.0, 3.0 }, { 4.0, 5.0, 6.0 } })
        or tf.constant({ { 1.0, 4.0 }, { 2.0, 5.0 }, { 3.0, 6.0 } })
      local g = tape:gradient(s, xs, { output_gradients = dy })
      T.equal({ 1.0, 2.0, 3.0 }, g[1])
      T.equal({ 4.0, 5.0, 6.0 }, g[2])
    end
  end)

  -- stack_op_test.py: StackOpTest.testZeroSizeCPU (stack; parallel_stack is TF1 only)
  it("StackOpTest.testZeroSizeCPU", function()
    for _, shape in ipairs({ { 0 }, { 3, 0 }, { 0, 3 } }) do
      local x = tf.zeros({ 2, table.unpack(shape) }, tf.int32)
      local p = tf.stack(tf.unstack(x))
      assert.are.same({ 2, table.unpack(shape) }, shape_list(p))
    end
  end)

  -- stack_op_test.py: StackOpTest.testAxis0DefaultCPU
  it("StackOpTest.testAxis0DefaultCPU", function()
    T.equal({ { 1, 2, 3 }, { 4, 5, 6 } }, tf.stack({ tf.constant({ 1, 2, 3 }), tf.constant({ 4, 5, 6 }) }))
  end)

  -- stack_op_test.py: StackOpTest.testDimOutOfRange and testDimOutOfNegativeRange
  it("StackOpTest.testDimOutOfRange", function()
    local t = { tf.constant({ 1, 2, 3 }), tf.constant({ 4, 5, 6 }) }
    T.raises("ValueError", "Argument `axis` = 2 not in range [-2, 2)", tf.stack, t, 2)
    T.raises("ValueError", "Argument `axis` = -3 not in range [-2, 2)", tf.stack, t, -3)
  end)

  -- stack_op_test.py: StackOpTest.testZeroDimUnmatch
  it("StackOpTest.testZeroDimUnmatch", function()
    T.raises(EITHER, "Shapes", tf.stack, { tf.zeros({ 0, 3 }), tf.zeros({ 1, 3 }) })
  end)

  -- stack_op_test.py: AutomaticStackingTest.testSimple
  it("AutomaticStackingTest.testSimple", function()
    T.equal({ 1, 0, 2 }, tf.convert_to_tensor({ 1, tf.constant(0), 2 }))
    T.equal({ { 0, 0, 0 }, { 0, 1, 0 }, { 0, 0, 0 } },
      tf.convert_to_tensor({ { 0, 0, 0 }, { 0, tf.constant(1), 0 }, { 0, 0, 0 } }))
    T.equal({ { 0, 0, 0 }, { 0, 1, 0 }, { 0, 0, 0 } },
      tf.convert_to_tensor({ { 0, 0, 0 }, tf.constant({ 0, 1, 0 }), { 0, 0, 0 } }))
    T.equal({ { 0, 0, 0 }, { 0, 1, 0 }, { 0, 0, 0 } },
      tf.convert_to_tensor({ tf.constant({ 0, 0, 0 }), tf.constant({ 0, 1, 0 }), tf.constant({ 0, 0, 0 }) }))
  end)

  -- stack_op_test.py: AutomaticStackingTest.testWithNDArray (a tensor for the ndarray)
  it("AutomaticStackingTest.testWithNDArray", function()
    local result = tf.convert_to_tensor({ { { 0.0, 0.0 }, tf.constant({ 1.0, 1.0 }) },
      tf.constant({ { 2.0, 2.0 }, { 3.0, 3.0 } }, tf.float32) })
    T.equal({ { { 0.0, 0.0 }, { 1.0, 1.0 } }, { { 2.0, 2.0 }, { 3.0, 3.0 } } }, result)
  end)

  -- stack_op_test.py: AutomaticStackingTest.testDtype
  it("AutomaticStackingTest.testDtype", function()
    local zeros = { 0.0, 0.0, 0.0 }
    assert.are.equal(tf.float32, tf.convert_to_tensor({ zeros, zeros, zeros }).dtype)
    local f64 = tf.constant(zeros, tf.float64)
    assert.are.equal(tf.float64, tf.convert_to_tensor({ zeros, f64, zeros }).dtype)
    assert.are.equal(tf.float64, tf.convert_to_tensor({ zeros, zeros, zeros }, tf.float64).dtype)
    assert.are.equal(tf.float32, tf.convert_to_tensor({ zeros, f64, zeros }, tf.float32).dtype)
    assert.are.equal(tf.float32, tf.convert_to_tensor({ f64 }, tf.float32).dtype)
    T.raises("TypeError", "Cannot convert a list containing a tensor of dtype float64 to float32",
      tf.convert_to_tensor, { tf.constant(zeros, tf.float32), f64, zeros })
  end)

  -- stack_op_test.py: AutomaticStackingTest.testDtypeConversionWhenTensorDtypeMismatch
  it("AutomaticStackingTest.testDtypeConversionWhenTensorDtypeMismatch", function()
    local t_0 = tf.convert_to_tensor({ 0.0, 0.0, 0.0 })
    assert.are.equal(tf.float32, t_0.dtype)
    local t_1 = tf.convert_to_tensor({ 0, 0, 0 })
    assert.are.equal(tf.int32, t_1.dtype)
    assert.are.equal(tf.float64, tf.convert_to_tensor({ t_0, t_0, t_1 }, tf.float64).dtype)
  end)
end)
