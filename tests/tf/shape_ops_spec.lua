-- shape_ops_spec.lua — TensorFlow's tests of the ops that change shapes and
-- join tensors, ported: tensorflow/python/kernel_tests/array_ops/
-- shape_ops_test.py (ShapeOpsTest, TileTest) and concat_op_test.py
-- (ConcatOpTest). gather, reshape and stack are reshape_gather_spec.lua.
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

describe("shape_ops_test.py", function()
  -- shape_ops_test.py: ShapeOpsTest.testBasic, testBool, testString
  for _, kind in ipairs({ "testBasic", "testBool", "testString" }) do
    it("ShapeOpsTest." .. kind, function()
      local dims = { 2, 3, 5, 7, 11, 13 }
      for rank = 1, 6 do
        local shape = table.move(dims, 1, rank, 1, {})
        local x = kind == "testBasic" and tf.zeros(shape) or tf.fill(shape, kind == "testBool" and true or "abcd")
        local size = 1
        for _, d in ipairs(shape) do size = size * d end
        T.equal(shape, tf.shape(x))
        T.equal(shape, tf.shape(x, tf.int64))
        assert.are.equal(tf.int64, tf.shape(x, tf.int64).dtype)
        T.equal(rank, tf.rank(x))
        T.equal(size, tf.size(x))
        T.equal(size, tf.size(x, tf.int64))
      end
    end)
  end

  -- shape_ops_test.py: ShapeOpsTest.testExpandDims and testExpandDimsBool
  for _, dtype in ipairs({ tf.float64, tf.bool }) do
    it("ShapeOpsTest.testExpandDims" .. (dtype == tf.bool and "Bool" or ""), function()
      local cases = {
        { { 2 }, 0, { 1, 2 } }, { { 2 }, 1, { 2, 1 } }, { { 2 }, -1, { 2, 1 } },
        { { 2, 3 }, 0, { 1, 2, 3 } }, { { 2, 3 }, 1, { 2, 1, 3 } }, { { 2, 3 }, 2, { 2, 3, 1 } },
        { { 2, 3 }, -1, { 2, 3, 1 } }, { { 2, 3 }, -2, { 2, 1, 3 } },
        { { 2, 3, 5 }, 0, { 1, 2, 3, 5 } }, { { 2, 3, 5 }, 1, { 2, 1, 3, 5 } }, { { 2, 3, 5 }, 2, { 2, 3, 1, 5 } },
        { { 2, 3, 5 }, 3, { 2, 3, 5, 1 } }, { { 2, 3, 5 }, -1, { 2, 3, 5, 1 } }, { { 2, 3, 5 }, -2, { 2, 3, 1, 5 } },
        { { 2, 3, 5 }, -3, { 2, 1, 3, 5 } }, { { 2, 3, 5 }, -4, { 1, 2, 3, 5 } },
      }
      for _, c in ipairs(cases) do
        local x = tf.zeros(c[1], dtype)
        local r = tf.expand_dims(x, c[2])
        assert.are.same(c[3], shape_list(r))
        T.equal(c[3], tf.shape(r))
        T.equal(tf.reshape(x, c[3]):numpy(), r)
      end
    end)
  end

  -- shape_ops_test.py: ShapeOpsTest.testExpandDimsErrors
  it("ShapeOpsTest.testExpandDimsErrors", function()
    T.raises(EITHER, nil, tf.expand_dims, tf.zeros({ 2, 3, 5 }), -5)
    T.raises(EITHER, nil, tf.expand_dims, { false, true, true }, -5)
    T.raises(EITHER, nil, tf.expand_dims, tf.zeros({ 2, 3, 5 }), 4)
    T.raises(EITHER, nil, tf.expand_dims, { false, true, true }, 4)
  end)

  -- shape_ops_test.py: ShapeOpsTest.testExpandDimsGradient (tape, upstream 1, 2, ...)
  it("ShapeOpsTest.testExpandDimsGradient", function()
    local inp = tf.reshape(tf.range(8, nil, nil, tf.float32), { 4, 2 })
    local tape = tf.GradientTape()
    tape:watch(inp)
    local expanded = tf.expand_dims(inp, 1)
    tape:stop()
    local dy = tf.reshape(tf.range(1, 9, nil, tf.float32), { 4, 1, 2 })
    T.equal({ { 1.0, 2.0 }, { 3.0, 4.0 }, { 5.0, 6.0 }, { 7.0, 8.0 } },
      tape:gradient(expanded, inp, { output_gradients = dy }))
  end)

  -- shape_ops_test.py: ShapeOpsTest.testExpandDimsScalar
  it("ShapeOpsTest.testExpandDimsScalar", function()
    T.equal({ 7 }, tf.expand_dims(tf.constant(7), 0))
    T.equal({ 7 }, tf.expand_dims(tf.constant(7), -1))
    T.equal({ true }, tf.expand_dims(tf.constant(true), 0))
    T.equal({ true }, tf.expand_dims(tf.constant(true), -1))
  end)

  -- shape_ops_test.py: ShapeOpsTest.testExpandDimsDimType
  it("ShapeOpsTest.testExpandDimsDimType", function()
    for _, dtype in ipairs({ tf.int32, tf.int64 }) do
      local r = tf.expand_dims(tf.zeros({ 2 }, tf.float64), tf.constant(0, dtype))
      assert.are.same({ 1, 2 }, shape_list(r))
      T.equal({ { 0.0, 0.0 } }, r)
    end
  end)

  -- shape_ops_test.py: ShapeOpsTest.testSqueeze, testSqueezeBool,
  -- testSqueezeSpecificDimension(Bool), testSqueezeAllOnes(Bool), testSqueezeOnlyOnes
  for _, dtype in ipairs({ tf.float64, tf.bool }) do
    it("ShapeOpsTest.testSqueezeSpecificDimension" .. (dtype == tf.bool and "Bool" or ""), function()
      local cases = {
        { { 2 }, nil, { 2 } }, { { 2, 3 }, nil, { 2, 3 } }, { { 2, 1, 2 }, nil, { 2, 2 } },
        { { 1, 2, 1, 3, 1 }, nil, { 2, 3 } },
        { { 1, 2, 1, 3, 1 }, { 0 }, { 2, 1, 3, 1 } }, { { 1, 2, 1, 3, 1 }, { 2, 4 }, { 1, 2, 3 } },
        { { 1, 2, 1, 3, 1 }, { 0, 4, 2 }, { 2, 3 } }, { { 1, 2, 1, 3, 1 }, { -1 }, { 1, 2, 1, 3 } },
        { { 1, 2, 1, 3, 1 }, { -3, -5 }, { 2, 3, 1 } }, { { 1, 2, 1, 3, 1 }, { -3, -5, -1 }, { 2, 3 } },
        { { 1, 1, 1 }, {}, {} }, { { 1, 1, 3 }, nil, { 3 } }, { { 1, 1, 3 }, { 0 }, { 1, 3 } },
        { { 1, 1, 3 }, { 1 }, { 1, 3 } },
      }
      for _, c in ipairs(cases) do
        local r = tf.squeeze(tf.zeros(c[1], dtype), c[2])
        assert.are.same(c[3], shape_list(r))
        T.equal(c[3], tf.shape(r))
      end
      T.raises(EITHER, nil, tf.squeeze, tf.zeros({ 1, 1, 3 }, dtype), { 2 })
    end)
  end

  -- shape_ops_test.py: ShapeOpsTest.testSqueezeErrors
  it("ShapeOpsTest.testSqueezeErrors", function()
    local x = tf.zeros({ 1, 2, 1 })
    T.raises(EITHER, nil, tf.squeeze, x, { -4 })
    T.raises(EITHER, nil, tf.squeeze, x, { 0, -4 })
    T.raises(EITHER, nil, tf.squeeze, x, { 3 })
    T.raises(EITHER, nil, tf.squeeze, x, { 2, 3 })
  end)

  -- shape_ops_test.py: ShapeOpsTest.testSqueezeGradientWithSqueezeDims (tape)
  it("ShapeOpsTest.testSqueezeGradientWithSqueezeDims", function()
    local a = tf.reshape(tf.range(8, nil, nil, tf.float32), { 4, 1, 2, 1 })
    local tape = tf.GradientTape()
    tape:watch(a)
    local squeezed = tf.squeeze(a, { 1 })
    tape:stop()
    assert.are.same({ 4, 2, 1 }, shape_list(squeezed))
    local g = tape:gradient(squeezed, a, { output_gradients = tf.reshape(tf.range(1, 9, nil, tf.float32), { 4, 2, 1 }) })
    assert.are.same({ 4, 1, 2, 1 }, shape_list(g))
    T.equal({ 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0 }, tf.reshape(g, { -1 }))
  end)

  -- shape_ops_test.py: ShapeOpsTest.testSqueezeWithUnknownShape. The
  -- errors are TF's graph-construction ValueErrors, with its Squeeze shape
  -- function's messages (graph_errors_spec.lua checks the whole text).
  it("ShapeOpsTest.testSqueezeWithUnknownShape", function()
    local spec = tf.TensorSpec({ 2, None }, tf.float32)
    assert.are.same({ 2 }, traced_shape(function(a) return tf.squeeze(a, { 1 }) end, spec))
    local rank = "unset"
    tf.func(function(a) rank = tf.squeeze(a).shape.rank end):get_concrete_function(spec)
    assert.is_nil(rank)
    T.raises("ValueError", "Can not squeeze dim[0], expected a dimension of 1, got 2 for '{{node Squeeze}}",
      function() return tf.func(function(a) return tf.squeeze(a, { 0 }) end):get_concrete_function(spec) end)
    T.raises("ValueError", "squeeze_dims[0] not in [-2,2). for '{{node Squeeze}}",
      function() return tf.func(function(a) return tf.squeeze(a, { 100 }) end):get_concrete_function(spec) end)
  end)

  describe("TileTest", function()
    -- shape_ops_test.py: TileTest.testScalar
    it("TileTest.testScalar", function()
      local tiled = tf.tile(tf.constant(7, tf.float32), {})
      assert.are.same({}, shape_list(tiled))
      T.equal(7.0, tiled)
    end)

    -- shape_ops_test.py: TileTest.testSimple
    it("TileTest.testSimple", function()
      local a = tf.constant({ { 1.5 }, { 2.5 }, { 3.5 }, { 4.5 } })
      for _, dtype in ipairs({ tf.int32, tf.int64 }) do
        local tiled = tf.tile(a, tf.constant({ 1, 4 }, dtype))
        assert.are.same({ 4, 4 }, shape_list(tiled))
        T.equal({ { 1.5, 1.5, 1.5, 1.5 }, { 2.5, 2.5, 2.5, 2.5 }, { 3.5, 3.5, 3.5, 3.5 }, { 4.5, 4.5, 4.5, 4.5 } }, tiled)
      end
    end)

    -- shape_ops_test.py: TileTest.testIdentityTileAndGrad and testEmpty
    it("TileTest.testEmpty", function()
      local a = tf.reshape(tf.range(6, nil, nil, tf.float32), { 2, 3 })
      assert.are.same({ 10, 0 }, shape_list(tf.tile(a, { 5, 0 })))
      T.equal(a:numpy(), tf.tile(a, { 1, 1 }))
    end)

    -- shape_ops_test.py: TileTest.testTypes (the dtypes moonflow has)
    it("TileTest.testTypes", function()
      local cases = { { tf.bool, { true, false, false, true } }, { tf.float32, { 1, 2, 3, 4 } },
        { tf.float64, { 1, 2, 3, 4 } }, { tf.int32, { 1, 2, 3, 4 } }, { tf.int64, { 1, 2, 3, 4 } },
        { tf.string, { "a", "b", "c", "d" } } }
      for _, c in ipairs(cases) do
        local v = c[2]
        local a = tf.constant({ { v[1] }, { v[2] }, { v[3] }, { v[4] } }, c[1])
        local tiled = tf.tile(a, { 1, 4 })
        assert.are.same({ 4, 4 }, shape_list(tiled))
        T.equal({ { v[1], v[1], v[1], v[1] }, { v[2], v[2], v[2], v[2] }, { v[3], v[3], v[3], v[3] },
          { v[4], v[4], v[4], v[4] } }, tiled)
      end
    end)

    -- shape_ops_test.py: TileTest.testInvalidDim
    it("TileTest.testInvalidDim", function()
      local a = tf.zeros({ 4, 1 })
      T.raises(EITHER, nil, tf.tile, a, { 1, 4, 2 })
      T.raises(EITHER, nil, tf.tile, a, { { 2, 3 }, { 3, 4 } })
    end)

    -- shape_ops_test.py: TileTest.testGradientSimpleReduction and testGradientStridedReduction
    it("TileTest.testGradientStridedReduction", function()
      local a = tf.constant({ { 1.0, 2.0 }, { 3.0, 4.0 }, { 5.0, 6.0 }, { 7.0, 8.0 } })
      local grad_inp = tf.reshape(tf.range(16, nil, nil, tf.float32), { 4, 4 })
      local tape = tf.GradientTape({ persistent = true })
      tape:watch(a)
      local tiled = tf.tile(a, { 1, 2 })
      local col = a[":, :1"]
      local tiled4 = tf.tile(col, tf.constant({ 1, 4 }, tf.int64))
      tape:stop()
      -- expected[:, 0] = g[:, 0] + g[:, 2]; expected[:, 1] = g[:, 1] + g[:, 3]
      T.equal({ { 2.0, 4.0 }, { 10.0, 12.0 }, { 18.0, 20.0 }, { 26.0, 28.0 } },
        tape:gradient(tiled, a, { output_gradients = grad_inp }))
      -- np.sum(grad_inp, axis=1) lands in column 0
      T.equal({ { 6.0, 0.0 }, { 22.0, 0.0 }, { 38.0, 0.0 }, { 54.0, 0.0 } },
        tape:gradient(tiled4, a, { output_gradients = grad_inp }))
    end)

    -- shape_ops_test.py: TileTest.testShapeFunctionEdgeCases
    it("TileTest.testShapeFunctionEdgeCases", function()
      local ints, any = tf.TensorSpec(nil, tf.int32), tf.TensorSpec(nil, tf.float32)
      -- Unknown multiples shape.
      local inp = tf.fill({ 4, 4, 4, 4 }, 0.0)
      assert.are.same({ None, None, None, None }, traced_shape(function(m) return tf.tile(inp, m) end, ints))
      -- Unknown input shape.
      assert.are.same({ None, None, None, None }, traced_shape(function(x) return tf.tile(x, { 2, 2, 2, 2 }) end, any))
      -- Unknown input and multiples shape.
      local rank = "unset"
      tf.func(function(x, m) rank = tf.tile(x, m).shape.rank end):get_concrete_function(any, ints)
      assert.is_nil(rank)
      -- Known input and partially known multiples.
      local small = tf.fill({ 1, 1 }, 0.0)
      assert.are.same({ None, 7 }, traced_shape(function(m) return tf.tile(small, { m, 7 }) end, ints))
      -- Mismatched input rank and multiples length: TF's Tile shape
      -- function refuses the node while it is traced.
      T.raises("ValueError", "Shape must be rank 2 but is rank 3", function()
        return traced_shape(function(x, m) return tf.tile(x, m) end, tf.TensorSpec({ None, None }, tf.float32),
          tf.TensorSpec({ 3 }, tf.int32))
      end)
    end)

    -- shape_ops_test.py: TileTest.testLargeTensor
    it("TileTest.testLargeTensor", function()
      T.raises("InvalidArgumentError", nil, tf.tile, tf.ones({ 1, 1, 1 }, tf.float64),
        { 100000000, 100000000, 100000000 })
    end)
  end)
end)

describe("concat_op_test.py", function()
  local function grid(shape, start)
    local n = 1
    for _, d in ipairs(shape) do n = n * d end
    return tf.reshape(tf.range(start or 0, (start or 0) + n, nil, tf.float32), shape)
  end

  -- concat_op_test.py: ConcatOpTest.testHStack, testVStack and test4DStack
  it("ConcatOpTest.testHStack", function()
    local p1, p2 = grid({ 4, 4 }), grid({ 4, 4 }, 100)
    local c = tf.concat({ p1, p2 }, 0)
    assert.are.same({ 8, 4 }, shape_list(c))
    T.equal(p1:numpy(), c[":4, :"])
    T.equal(p2:numpy(), c["4:, :"])
    c = tf.concat({ p1, p2 }, 1)
    assert.are.same({ 4, 8 }, shape_list(c))
    T.equal(p1:numpy(), c[":, :4"])
    T.equal(p2:numpy(), c[":, 4:"])
    local q1, q2 = grid({ 2, 3, 1, 1 }), grid({ 2, 3, 4, 1 }, 100)
    c = tf.concat({ q1, q2 }, 2)
    assert.are.same({ 2, 3, 5, 1 }, shape_list(c))
    T.equal(q1:numpy(), c[":, :, :1, :"])
    T.equal(q2:numpy(), c[":, :, 1:, :"])
  end)

  -- concat_op_test.py: ConcatOpTest.testRefType
  it("ConcatOpTest.testRefType", function()
    local v1, v2 = tf.Variable(grid({ 4, 4 })), tf.Variable(grid({ 4, 4 }, 100))
    local c = tf.concat({ v1, v2 }, 0)
    assert.are.same({ 8, 4 }, shape_list(c))
    T.equal(v1:numpy(), c[":4, :"])
    T.equal(v2:numpy(), c["4:, :"])
  end)

  -- concat_op_test.py: ConcatOpTest.testInvalidConcatDimTypeAndShape (eager)
  it("ConcatOpTest.testInvalidConcatDimTypeAndShape", function()
    local a, b = tf.Variable(tf.constant(1.0, nil, { 1 })), tf.Variable(tf.constant(2.0, nil, { 1 }))
    T.raises("TypeError", nil, tf.concat, 1, 4.2)
    T.raises(EITHER, nil, tf.concat, { a, b }, { 3 })
    T.raises("ValueError", nil, tf.concat, {}, 0)
    T.raises(EITHER, nil, tf.concat, { a, b }, tf.constant(0, nil, { 1 }))
  end)

  -- concat_op_test.py: ConcatOpTest.testScalars
  it("ConcatOpTest.testScalars", function()
    local arr = tf.convert_to_tensor({ 0.2, 0.3 })
    local outs = {}
    for i = 0, arr.shape[0] - 1 do outs[#outs + 1] = arr[i] ^ 2 end
    T.raises(EITHER, "Can't concatenate scalars (use tf.stack instead)", tf.concat, outs, 0)
  end)

  -- concat_op_test.py: ConcatOpTest.testGradientsSimple, testGradientsFirstDim and testGradientsLastDim
  it("ConcatOpTest.testGradientsSimple", function()
    for _, c in ipairs({ { -2, function(x) return { 10, x, 2 } end, { 10, 9, 2 } },
      { 1, function(x) return { 10, x, 2 } end, { 10, 9, 2 } },
      { 0, function(x) return { x, 10, 2 } end, { 9, 10, 2 } },
      { -1, function(x) return { 10, 2, x } end, { 10, 2, 9 } } }) do
      local axis, shape_of, out_shape = c[1], c[2], c[3]
      local inp = {}
      for i, x in ipairs({ 1, 2, 6 }) do inp[i] = grid(shape_of(x), 100 * i) end
      local tape = tf.GradientTape()
      for _, t in ipairs(inp) do tape:watch(t) end
      local concat = tf.concat(inp, axis)
      tape:stop()
      local grad_inp = grid(out_shape, 7)
      local grads = tape:gradient(concat, inp, { output_gradients = grad_inp })
      T.equal(grad_inp:numpy(), tf.concat(grads, axis))
    end
  end)

  -- concat_op_test.py: ConcatOpTest.testShapeError (eager: TF's kernel raises InvalidArgumentError)
  it("ConcatOpTest.testShapeError", function()
    T.raises(EITHER, nil, tf.concat, { tf.fill({ 4, 4, 4, 4 }, 10.0), tf.fill({ 4, 4, 4 }, 20.0) }, 1)
    T.raises(EITHER, nil, tf.concat, { tf.fill({ 1, 2, 1 }, 10.0), tf.fill({ 3, 2, 1 }, 20.0) }, 1)
    T.raises(EITHER, nil, tf.concat, { tf.fill({ 4, 4, 4 }, 10.0), tf.fill({ 4, 4, 4 }, 20.0) }, 3)
    T.raises(EITHER, nil, tf.concat, { tf.fill({ 4, 4, 4 }, 10.0), tf.fill({ 4, 4, 4 }, 20.0) }, -4)
  end)

  -- concat_op_test.py: ConcatOpTest.testShapeWithUnknownConcatDim
  it("ConcatOpTest.testShapeWithUnknownConcatDim", function()
    local any, dim = tf.TensorSpec(nil, tf.float32), tf.TensorSpec({}, tf.int32)
    local c1, c2 = tf.fill({ 4, 4, 4, 4 }, 10.0), tf.fill({ 4, 4, 4, 4 }, 20.0)
    local rank, rank2
    tf.func(function(p1, p2, d)
      rank = tf.concat({ p1, c1, p2, c2 }, d).shape.rank
      rank2 = tf.concat({ p1, p2 }, d).shape.rank
    end):get_concrete_function(any, any, dim)
    assert.are.equal(4, rank)
    assert.is_nil(rank2)
    -- TF's ConcatV2 shape function refuses the node while it is traced.
    T.raises("ValueError", "Shape must be rank 4 but is rank 3", function()
      tf.func(function(p1, p2, d) return tf.concat({ p1, c1, p2, tf.fill({ 4, 4, 4 }, 30.0) }, d) end)
        :get_concrete_function(any, any, dim)
    end)
  end)

  -- concat_op_test.py: ConcatOpTest.testZeroSize
  it("ConcatOpTest.testZeroSize", function()
    for _, shape0 in ipairs({ {}, { 2 } }) do
      for _, shape1 in ipairs({ {}, { 3 } }) do
        for n0 = 0, 2 do
          for n1 = 0, 2 do
            local s0, s1 = table.move(shape0, 1, #shape0, 1, {}), table.move(shape0, 1, #shape0, 1, {})
            s0[#s0 + 1], s1[#s1 + 1] = n0, n1
            table.move(shape1, 1, #shape1, #s0 + 1, s0)
            table.move(shape1, 1, #shape1, #s1 + 1, s1)
            local x0, x1 = grid(s0), grid(s1, 50)
            local tape = tf.GradientTape()
            tape:watch({ x0, x1 })
            local c = tf.concat({ x0, x1 }, #shape0)
            tape:stop()
            local want = table.move(shape0, 1, #shape0, 1, {})
            want[#want + 1] = n0 + n1
            table.move(shape1, 1, #shape1, #want + 1, want)
            assert.are.same(want, shape_list(c))
            local dc = grid(want, 3)
            local dxs = tape:gradient(c, { x0, x1 }, { output_gradients = dc })
            T.equal(dc:numpy(), tf.concat(dxs, #shape0))
          end
        end
      end
    end
  end)

  -- concat_op_test.py: ConcatOpTest.testIndexedSlicesConcatDim1Grad (values, not the error bound)
  it("ConcatOpTest.testIndexedSlicesConcatDim1Grad", function()
    local xs = { grid({ 6, 2 }), grid({ 6, 1 }, 20) }
    local tape = tf.GradientTape()
    tape:watch(xs)
    local output = tf.gather(tf.concat(xs, 1), { 1, 2, 0, 5 })
    tape:stop()
    local g = tape:gradient(output, xs)
    T.equal({ { 1.0, 1.0 }, { 1.0, 1.0 }, { 1.0, 1.0 }, { 0.0, 0.0 }, { 0.0, 0.0 }, { 1.0, 1.0 } }, g[1])
    T.equal({ { 1.0 }, { 1.0 }, { 1.0 }, { 0.0 }, { 0.0 }, { 1.0 } }, g[2])
  end)

  -- concat_op_test.py: ConcatOpTest.testConcatEmpty
  it("ConcatOpTest.testConcatEmpty", function()
    local output = tf.concat({ {}, {} }, 0)
    assert.are.same({ 0 }, shape_list(output))
  end)

  -- concat_op_test.py: ConcatOpTest.testConcatInvalidAxis (eager)
  it("ConcatOpTest.testConcatInvalidAxis", function()
    T.raises(EITHER, nil, tf.concat, { { 1 }, { 2 } }, 1)
  end)

  -- concat_op_test.py: ConcatOpTest.testConcatInvalidAxisInTfFunction: the
  -- axis fails TF's ConcatV2 shape function while the function is traced,
  -- a ValueError (graph_errors_spec.lua checks the whole text).
  it("ConcatOpTest.testConcatInvalidAxisInTfFunction", function()
    local concat_wrapper = tf.func(function()
      return tf.concat({ { 1, 2, 3 }, { 4, 5, 6 } }, 0xb500005b)
    end)
    T.raises("ValueError", "Rank cannot exceed kint32max for '{{node concat}}", concat_wrapper)
  end)

  -- concat_op_test.py: ConcatOpTest.testConcatNegativeAxis, testConcatDtype and testConcatAxisType
  it("ConcatOpTest.testConcatNegativeAxis", function()
    local t1, t2 = { { 1, 2, 3 }, { 4, 5, 6 } }, { { 7, 8, 9 }, { 10, 11, 12 } }
    local c = tf.concat({ t1, t2 }, -2)
    assert.are.same({ 4, 3 }, shape_list(c))
    T.equal({ { 1, 2, 3 }, { 4, 5, 6 }, { 7, 8, 9 }, { 10, 11, 12 } }, c)
    for _, dtype in ipairs({ tf.int32, tf.int64 }) do
      c = tf.concat({ tf.constant(t1, dtype), tf.constant(t2, dtype) }, -1)
      assert.are.same({ 2, 6 }, shape_list(c))
      T.equal({ { 1, 2, 3, 7, 8, 9 }, { 4, 5, 6, 10, 11, 12 } }, c)
      c = tf.concat({ t1, t2 }, tf.constant(1, dtype))
      assert.are.same({ 2, 6 }, shape_list(c))
      T.equal({ { 1, 2, 3, 7, 8, 9 }, { 4, 5, 6, 10, 11, 12 } }, c)
    end
  end)
end)
