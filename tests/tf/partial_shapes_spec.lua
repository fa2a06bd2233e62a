-- partial_shapes_spec.lua — TensorFlow's tests of shape inference through
-- shape-valued inputs that are only partly known, ported:
--   tensorflow/python/framework/tensor_util_test.py (ConstantValueAsShapeTest),
--   tensorflow/core/common_runtime/shape_refiner_test.cc
--     (ShapeRefinerTest.ConstantValueAsShape_*),
--   tensorflow/core/ops/array_ops_test.cc (ArrayOpsTest.*_ShapeFn, the cases
--     with unknown input values),
--   tensorflow/python/kernel_tests/array_ops/constant_op_test.py
--     (FillTest.testShapeFunctionEdgeCases),
--   tensorflow/python/kernel_tests/array_ops/slice_op_test.py
--     (SliceTest.testPartialShapeInference, in a graph),
-- and the rules those tests exercise, from TF's sources:
-- tensorflow/core/common_runtime/shape_refiner.cc (ConstantPartialShape,
-- PartialStridedSliceShape), tensorflow/core/common_runtime/
-- eval_const_tensor.cc (TryInferFromShapes: tf.shape(x)[i] of a known
-- dimension is a constant), tensorflow/core/framework/shape_inference.cc
-- (MakeShapeFromShapeTensor) and the shape functions of
-- tensorflow/core/ops/array_ops.cc (Reshape, Fill, BroadcastTo, Tile),
-- tensorflow/core/framework/common_shape_fns.cc (SliceShape, RandomShape,
-- ScatterNdShape) and tensorflow/python/ops/image_ops_impl.py (resize's
-- set_shape of the size it can read).
--
-- Translation. TF1 placeholders become the arguments of a tf.func traced
-- over TensorSpecs (shape=nil: unknown rank), and a static shape is read
-- from inside the trace. tensor_util.constant_value_as_shape(v) is observed
-- as the static shape of tf.reshape(x, v) for an x of unknown shape inside
-- a tf.func: TF's tf.reshape sets exactly that shape on its result
-- (tensor_util.maybe_set_static_shape) on top of its C++ shape function,
-- which reads v through ConstantPartialShape. The C++ test ops
-- TensorAsShapeInt32/Int64 (MakeShapeFromShapeTensor of their input) are
-- tf.reshape of an x of unknown shape too. A static shape is a list with
-- tf.None for unknown dimensions, "unknown" for an unknown rank.

local tf = tf or require("moonflow")
local T = require("tfhelpers")

local None = tf.None
local ANY = tf.TensorSpec(nil, tf.float32)
local I32, I64 = tf.int32, tf.int64

local function static(shape)
  if shape.rank == nil then return "unknown" end
  return shape:as_list()
end

-- The static shape fn(...) has inside a trace over these specs.
local function traced_shape(fn, ...)
  local got
  tf.func(function(...) got = static(fn(...).shape) end):get_concrete_function(...)
  return got
end

-- constant_value_as_shape of what make(...) builds (see the header).
local function as_shape(make, ...)
  return traced_shape(function(x, ...) return tf.reshape(x, make(...)) end, ANY, ...)
end

describe("tensor_util_test.py", function()
  -- tensor_util_test.py: ConstantValueAsShapeTest.testConstant
  -- (np.random.rand(3).astype(np.int32) is [0, 0, 0])
  it("ConstantValueAsShapeTest.testConstant", function()
    assert.are.same({ 0, 0, 0 }, as_shape(function() return tf.constant({ 0, 0, 0 }) end))
    assert.are.same({}, as_shape(function() return tf.constant({}, I32) end))
  end)

  -- tensor_util_test.py: ConstantValueAsShapeTest.testCast
  it("ConstantValueAsShapeTest.testCast", function()
    assert.are.same({ 1, 2, 3 }, as_shape(function()
      return tf.cast(tf.shape(tf.fill({ 1, 2, 3 }, 0.0)), I64)
    end))
  end)

  -- tensor_util_test.py: ConstantValueAsShapeTest.testCastWithUnknown
  it("ConstantValueAsShapeTest.testCastWithUnknown", function()
    assert.are.same({ 1, None, 1 }, as_shape(function(f)
      return tf.cast(tf.shape(f), I64)
    end, tf.TensorSpec({ 1, None, 1 }, tf.float32)))
  end)

  -- tensor_util_test.py: ConstantValueAsShapeTest.testMinusOneBecomesNone
  -- (tf.reshape reads the constant as a shape, [?,1,?], while the graph is
  -- built; its kernel refuses two -1s when the graph runs, and eagerly)
  it("ConstantValueAsShapeTest.testMinusOneBecomesNone", function()
    assert.are.same({ None, 1, None }, as_shape(function() return tf.constant({ -1, 1, -1 }) end))
    T.raises("InvalidArgumentError", "Only one input size may be -1",
      tf.func(function(x) return tf.reshape(x, { -1, 1, -1 }) end), tf.zeros({ 4 }))
    T.raises("InvalidArgumentError", "Only one input size may be -1", tf.reshape, tf.zeros({ 4 }), { -1, 1, -1 })
  end)

  -- tensor_util_test.py: ConstantValueAsShapeTest.testShape
  it("ConstantValueAsShapeTest.testShape", function()
    assert.are.same({ 1, 2, 3 }, as_shape(function() return tf.shape(tf.fill({ 1, 2, 3 }, 0.0)) end))
  end)

  -- tensor_util_test.py: ConstantValueAsShapeTest.testPack
  it("ConstantValueAsShapeTest.testPack", function()
    assert.are.same({ 16, 37, None }, as_shape(function(p)
      return tf.stack({ tf.constant(16), 37, p })
    end, tf.TensorSpec(nil, I32)))
  end)

  -- tensor_util_test.py: ConstantValueAsShapeTest.testConcat
  it("ConstantValueAsShapeTest.testConcat", function()
    assert.are.same({ 16, 37, None, None }, as_shape(function(p)
      return tf.concat({ { 16, 37 }, p }, 0)
    end, tf.TensorSpec({ 2 }, I32)))
    assert.are.same({ 16, 37, None, 48 }, as_shape(function(p)
      return tf.concat({ { 16, 37 }, p, { 48 } }, 0)
    end, tf.TensorSpec({ 1 }, I32)))
  end)

  -- tensor_util_test.py: ConstantValueAsShapeTest.testSlice
  -- Python's constant_value_as_shape slices as Python does (the negative
  -- strides below): moonflow too. TF's C++ PartialStridedSliceShape reads
  -- a masked end as INT64_MAX whatever the stride's sign, which
  -- InferenceContext::Subshape refuses for [2::-1], [:1:-2] and [-3::-1].
  it("ConstantValueAsShapeTest.testSlice", function()
    local p4, p1 = tf.TensorSpec({ 4 }, I32), tf.TensorSpec({ 1 }, I32)
    assert.are.same({ None, None }, as_shape(function(p) return p[":2"] end, p4))
    -- begin:end
    assert.are.same({ 20, 30 }, as_shape(function() return tf.constant({ 10, 20, 30 })["1:3"] end))
    -- begin:end:stride
    assert.are.same({ 20 }, as_shape(function()
      return tf.strided_slice(tf.constant({ 10, 20, 30 }), { 1 }, { 3 }, { 2 })
    end))
    -- [1, 2, 16, 37, None, 48]
    local function orig(p) return tf.concat({ { 1, 2, 16, 37 }, p, { 48 } }, 0) end
    local cases = {
      { "2:", { 16, 37, None, 48 } },   -- begin: no end
      { "2::-1", { 16, 2, 1 } },        -- begin::negative slice
      { ":1:-2", { 48, 37 } },          -- :end:negative slice
      { "3:1:-1", { 37, 16 } },         -- begin:end:negative slice
      { "1:-3:1", { 2, 16 } },          -- begin:negative end:slice
      { "-3::1", { 37, None, 48 } },    -- negative begin::slice
      { "-3::-1", { 37, 16, 2, 1 } },   -- negative begin::negative slice
      { "-3:-5:-1", { 37, 16 } },       -- negative begin:negative end:negative slice
    }
    for _, case in ipairs(cases) do
      assert.are.same(case[2], as_shape(function(p) return orig(p)[case[1]] end, p1), case[1])
    end
    -- "Do not support shape inference for additional arguments": the
    -- Python function answers [None, None, None]; the C++ shape function
    -- evaluates the constant slice, so tf.reshape's static shape (TF's and
    -- moonflow's) is (10, 20, 30).
    assert.are.same({ 10, 20, 30 }, as_shape(function() return tf.constant({ 10, 20, 30 })["..."] end))
    -- Do not support shape inference for tensor slices.
    assert.are.same("unknown", as_shape(function(b)
      return tf.strided_slice(tf.constant({ 10, 20, 30 }), tf.stack({ b }), { 0 }, { 1 }, { end_mask = 1 })
    end, tf.TensorSpec({}, I32)))
    -- Do not support shape inference for higher rank
    T.raises("ValueError", nil, as_shape, function() return tf.constant({ { 10 }, { 20 }, { 30 } })[":, 0:"] end)
  end)
end)

describe("shape_refiner_test.cc", function()
  local partial_1 = tf.TensorSpec({ 1, None, 3, None, 5 }, I32) -- WithPartialShape
  local partial_2 = tf.TensorSpec({ 6, None, 8 }, I32)          -- WithPartialShape2
  local scalar_non_const = tf.TensorSpec({}, I32)               -- NonConstScalarInt32

  -- shape_refiner_test.cc: ShapeRefinerTest.ConstantValueAsShape_EmptyVector
  it("ShapeRefinerTest.ConstantValueAsShape_EmptyVector", function()
    assert.are.same({}, as_shape(function(v) return v end, tf.TensorSpec({ 0 }, I32)))
  end)

  -- shape_refiner_test.cc: ShapeRefinerTest.ConstantValueAsShape_Shape
  it("ShapeRefinerTest.ConstantValueAsShape_Shape", function()
    assert.are.same({ 1, None, 3, None, 5 }, as_shape(function(p) return tf.shape(p) end, partial_1))
    assert.are.same("unknown", as_shape(function(p) return tf.shape(p) end, tf.TensorSpec(nil, I32)))
  end)

  -- shape_refiner_test.cc: ShapeRefinerTest.ConstantValueAsShape_PackInt32
  it("ShapeRefinerTest.ConstantValueAsShape_PackInt32", function()
    assert.are.same({ 10, 20, None, 40 }, as_shape(function(s)
      return tf.stack({ tf.constant(10), tf.constant(20), s, tf.constant(40) })
    end, scalar_non_const))
  end)

  -- shape_refiner_test.cc: ShapeRefinerTest.ConstantValueAsShape_PackInt64
  it("ShapeRefinerTest.ConstantValueAsShape_PackInt64", function()
    assert.are.same({ 10, 20, None, 1 << 40 }, as_shape(function(s)
      return tf.stack({ tf.constant(10, I64), tf.constant(20, I64), s, tf.constant(1 << 40, I64) })
    end, tf.TensorSpec({}, I64)))
  end)

  -- shape_refiner_test.cc: ShapeRefinerTest.ConstantValueAsShape_PackUnknownDim
  it("ShapeRefinerTest.ConstantValueAsShape_PackUnknownDim", function()
    assert.are.same({ 10, None }, as_shape(function()
      return tf.stack({ tf.constant(10, I64), tf.constant(-1, I64) })
    end))
  end)

  -- shape_refiner_test.cc: ShapeRefinerTest.ConstantValueAsShape_PackInvalidInput
  it("ShapeRefinerTest.ConstantValueAsShape_PackInvalidInput", function()
    T.raises("ValueError", "Shape must be rank 1 but is rank 2", as_shape, function()
      return tf.stack({ tf.constant({ 10, 20 }, I64), tf.constant({ 10, 21 }, I64) })
    end)
  end)

  -- shape_refiner_test.cc: ShapeRefinerTest.ConstantValueAsShape_Concat
  -- The result, [1,?,3,?,5,6,?,8,9,10,11], has eleven elements and
  -- moonflow's tensors at most eight dimensions: it is read in two slices.
  it("ShapeRefinerTest.ConstantValueAsShape_Concat", function()
    local function concat(p1, p2)
      return tf.concat({ tf.shape(p1), tf.shape(p2), tf.constant({ 9, 10, 11 }) }, 0)
    end
    assert.are.same({ 1, None, 3, None, 5, 6 }, as_shape(function(p1, p2)
      return concat(p1, p2)[":6"]
    end, partial_1, partial_2))
    assert.are.same({ None, 8, 9, 10, 11 }, as_shape(function(p1, p2)
      return concat(p1, p2)["6:"]
    end, partial_1, partial_2))
  end)

  -- shape_refiner_test.cc: ShapeRefinerTest.ConstantValueAsShape_ConcatWithUnknown
  it("ShapeRefinerTest.ConstantValueAsShape_ConcatWithUnknown", function()
    assert.are.same("unknown", as_shape(function(p1, p2, u)
      return tf.concat({ tf.shape(p1), tf.shape(p2), tf.shape(u) }, 0)
    end, partial_1, partial_2, tf.TensorSpec(nil, I32)))
  end)

  -- shape_refiner_test.cc: ShapeRefinerTest.ConstantValueAsShape_ConcatInvalidDimValue
  it("ShapeRefinerTest.ConstantValueAsShape_ConcatInvalidDimValue", function()
    T.raises("ValueError", "Invalid value in tensor used for shape: -2", as_shape, function(p1, p2)
      return tf.concat({ tf.shape(p1), tf.shape(p2), tf.constant({ 9, -2, 11 }) }, 0)
    end, partial_1, partial_2)
  end)

  -- shape_refiner_test.cc: TestStridedSlice, a slice of tf.shape of a
  -- placeholder of input_shape
  local function strided(input_shape, b, e, s, masks)
    return as_shape(function(p)
      return tf.strided_slice(tf.shape(p), { b }, { e }, { s }, masks)
    end, tf.TensorSpec(input_shape, I32))
  end

  -- shape_refiner_test.cc: ShapeRefinerTest.ConstantValueAsShape_StridedSlice
  it("ShapeRefinerTest.ConstantValueAsShape_StridedSlice", function()
    assert.are.same({ 3, None, 5 }, strided({ 1, None, 3, None, 5 }, 2, 5, 1))
  end)

  -- shape_refiner_test.cc: ShapeRefinerTest.ConstantValueAsShape_StridedSliceNegativeStride
  it("ShapeRefinerTest.ConstantValueAsShape_StridedSliceNegativeStride", function()
    assert.are.same({ 5, None, 3, None }, strided({ 1, None, 3, None, 5 }, 10, 0, -1))
  end)

  -- shape_refiner_test.cc: ShapeRefinerTest.ConstantValueAsShape_StridedSliceMasks
  it("ShapeRefinerTest.ConstantValueAsShape_StridedSliceMasks", function()
    assert.are.same({ 1, None, 3, None, 5 },
      strided({ 1, None, 3, None, 5 }, 3, 4, 1, { begin_mask = 1, end_mask = 1 }))
  end)

  -- shape_refiner_test.cc: ShapeRefinerTest.ConstantValueAsShape_StridedSliceInvalidMask
  it("ShapeRefinerTest.ConstantValueAsShape_StridedSliceInvalidMask", function()
    assert.are.same({ None, None, None }, strided({ 1, None, 3 }, 2, 3, 1, { ellipsis_mask = 1 }))
  end)

  -- The test op PartialTensorAsShapeInt32 makes the shape [v] of its scalar
  -- input's value v when that is known: tf.reshape(x, {v}).
  local function shrunk(index)
    return traced_shape(function(x, p)
      local v = tf.strided_slice(tf.shape(p), { index }, { index + 1 }, { 1 }, { shrink_axis_mask = 1 })
      return tf.reshape(x, { v })
    end, ANY, tf.TensorSpec({ 1, None, 3, None, 5 }, I32))
  end

  -- shape_refiner_test.cc: ShapeRefinerTest.ConstantValueAsShape_StridedSliceWithShrinkAxis
  it("ShapeRefinerTest.ConstantValueAsShape_StridedSliceWithShrinkAxis", function()
    assert.are.same({ 3 }, shrunk(2))
  end)

  -- shape_refiner_test.cc: ShapeRefinerTest.ConstantValueAsShape_StridedSliceWithShrinkAxisOnUnknownDim
  -- (the value is not known: TF's test op answers an unknown shape, the
  -- packed {v} of tf.reshape one unknown dimension)
  it("ShapeRefinerTest.ConstantValueAsShape_StridedSliceWithShrinkAxisOnUnknownDim", function()
    assert.are.same({ None }, shrunk(1))
  end)

  -- shape_refiner_test.cc: ShapeRefinerTest.ConstantValueAsShape_StridedSliceMulti
  it("ShapeRefinerTest.ConstantValueAsShape_StridedSliceMulti", function()
    assert.are.same("unknown", as_shape(function(p)
      return tf.strided_slice(p, { 0, 0 }, { 2, 2 }, { 1, 1 })
    end, tf.TensorSpec(nil, I32)))
  end)
end)

describe("array_ops_test.cc", function()
  -- array_ops_test.cc: ArrayOpsTest.Fill_ShapeFn
  it("ArrayOpsTest.Fill_ShapeFn", function()
    assert.are.same("unknown", traced_shape(function(d) return tf.fill(d, 0.0) end, tf.TensorSpec({ None }, I32)))
    assert.are.same({ None, None, None, None },
      traced_shape(function(d) return tf.fill(d, 0.0) end, tf.TensorSpec({ 4 }, I32)))
    assert.are.same({ 1, 2, 3, 4 }, traced_shape(function() return tf.fill({ 1, 2, 3, 4 }, 0.0) end))
  end)

  -- array_ops_test.cc: ArrayOpsTest.Reshape_ShapeFn (unknown new shapes)
  it("ArrayOpsTest.Reshape_ShapeFn", function()
    local vec = tf.TensorSpec({ None }, I32)
    assert.are.same("unknown", traced_shape(function(x, s) return tf.reshape(x, s) end,
      tf.TensorSpec({ None }, tf.float32), vec))
    assert.are.same("unknown", traced_shape(function(x, s) return tf.reshape(x, s) end,
      tf.TensorSpec({ 4 }, tf.float32), vec))
    assert.are.same({ 1, 2, 3 }, traced_shape(function(x) return tf.reshape(x, { 1, 2, 3 }) end,
      tf.TensorSpec({ None }, tf.float32)))
    assert.are.same({ None, 2, 3 }, traced_shape(function(x) return tf.reshape(x, { -1, 2, 3 }) end,
      tf.TensorSpec({ None, 2, 3 }, tf.float32)))
  end)

  -- array_ops_test.cc: ArrayOpsTest.Tile_ShapeFn
  it("ArrayOpsTest.Tile_ShapeFn", function()
    assert.are.same("unknown", traced_shape(function(x, m) return tf.tile(x, m) end, ANY, tf.TensorSpec(nil, I32)))
    assert.are.same({ None, None, None, None }, traced_shape(function(x, m) return tf.tile(x, m) end,
      tf.TensorSpec({ 2, 3, 1, 4 }, tf.float32), tf.TensorSpec(nil, I32)))
    T.raises("ValueError", nil, traced_shape, function(x, m) return tf.tile(x, m) end,
      tf.TensorSpec({ 2, 3, 1, 4 }, tf.float32), tf.TensorSpec({ 4, 1 }, I32))
    assert.are.same({ None, None, None, None }, traced_shape(function(x, m) return tf.tile(x, m) end,
      ANY, tf.TensorSpec({ 4 }, I32)))
    for _, dt in ipairs({ I32, I64 }) do
      assert.are.same({ 4, 9, 4, 20 }, traced_shape(function(x) return tf.tile(x, tf.constant({ 2, 3, 4, 5 }, dt)) end,
        tf.TensorSpec({ 2, 3, 1, 4 }, tf.float32)))
    end
  end)

  -- array_ops_test.cc: ArrayOpsTest.Slice_ShapeFn (unknown begin and sizes)
  it("ArrayOpsTest.Slice_ShapeFn", function()
    local x = tf.TensorSpec({ 2, 3, 4, 5 }, tf.float32)
    local slice = function(a, b, s) return tf.slice(a, b, s) end
    assert.are.same({ None, None, None, None },
      traced_shape(slice, x, tf.TensorSpec({ 4 }, I32), tf.TensorSpec({ 4 }, I32)))
    assert.are.same({ None, None, None, None },
      traced_shape(slice, x, tf.TensorSpec({ None }, I32), tf.TensorSpec({ None }, I32)))
    assert.are.same("unknown", traced_shape(slice, ANY, tf.TensorSpec({ None }, I32), tf.TensorSpec({ None }, I32)))
    assert.are.same({ None, None, None, None },
      traced_shape(slice, ANY, tf.TensorSpec({ 4 }, I32), tf.TensorSpec({ None }, I32)))
    assert.are.same({ 1, 2, 1, 3 }, traced_shape(function(a) return tf.slice(a, { 0, 1, 2, 1 }, { 1, 2, 1, 3 }) end, x))
    assert.are.same({ 2, 2, 1, 4 }, traced_shape(function(a) return tf.slice(a, { 0, 1, 2, 1 }, { -1, -1, 1, -1 }) end, x))
  end)
end)

describe("constant_op_test.py", function()
  -- constant_op_test.py: FillTest.testShapeFunctionEdgeCases
  it("FillTest.testShapeFunctionEdgeCases", function()
    -- Non-vector dimensions.
    T.raises("ValueError", nil, traced_shape, function() return tf.fill({ { 0, 1 }, { 2, 3 } }, 1.0) end)
    -- Non-scalar value.
    T.raises("ValueError", nil, traced_shape, function() return tf.fill({ 3, 2 }, { 1.0, 2.0 }) end)
    -- Partial dimension information.
    assert.are.same({ None, None, None, None },
      traced_shape(function(d) return tf.fill(d, 3.0) end, tf.TensorSpec({ 4 }, I32)))
    assert.are.same({ None, 17 }, traced_shape(function(n) return tf.fill({ n, 17 }, 1.0) end, tf.TensorSpec({}, I32)))
  end)
end)

describe("slice_op_test.py", function()
  -- slice_op_test.py: SliceTest.testPartialShapeInference, traced; and the
  -- example of common_shape_fns.cc's SliceShape, where the first size is
  -- not known ("returns [None, 1, None]": a size of -1 among sizes that are
  -- not all known is an unknown dimension).
  it("SliceTest.testPartialShapeInference", function()
    local got = {}
    tf.func(function(n)
      local z = tf.zeros({ 1, 2, 3 })
      got[1] = z.shape:as_list()
      got[2] = tf.slice(z, { 0, 0, 0 }, { -1, -1, -1 }).shape:as_list()
      got[3] = tf.slice(z, { 0, 0, 0 }, { tf.constant(1) + 0, 2, -1 }).shape:as_list()
      got[4] = tf.slice(z, { 0, 0, 0 }, { n, 1, -1 }).shape:as_list()
    end):get_concrete_function(tf.TensorSpec({}, I32))
    assert.are.same({ { 1, 2, 3 }, { 1, 2, 3 }, { 1, 2, 3 }, { None, 1, None } }, got)
  end)
end)

-- What TF's shape functions make of the shape arguments tracing builds
-- most (a batch dimension read with tf.shape, a traced scalar packed with
-- constants). No TF test names these cases; each names the function whose
-- rule it checks.
describe("shape_refiner.cc and the shape functions", function()
  local x = tf.TensorSpec({ None, 74 }, tf.float32)
  local n = tf.TensorSpec({}, I32)

  -- shape_refiner.cc: ShapeRefiner::ConstantPartialShape (Pack) with
  -- eval_const_tensor.cc: TryInferFromShapes; array_ops.cc: SetOutputShapeForReshape
  it("ConstantPartialShape.Pack (tf.reshape)", function()
    assert.are.same({ None, 37, 2 }, traced_shape(function(a) return tf.reshape(a, { tf.shape(a)[0], 37, 2 }) end, x))
    assert.are.same({ None, 37 }, traced_shape(function(a, k) return tf.reshape(a, { k, 37 }) end, x, n))
    -- the one unknown dimension of a fully known input is inferred
    assert.are.same({ 2, 37 }, traced_shape(function(a, k) return tf.reshape(a, { k, 37 }) end,
      tf.TensorSpec({ 74 }, tf.float32), n))
    -- a contradiction is TF's graph-construction error, which shows what
    -- was known of the shape
    local err = T.raises("ValueError", "Dimension size must be evenly divisible by 5 but is 74",
      traced_shape, function(a, k) return tf.reshape(a, { k, 5 }) end, tf.TensorSpec({ 74 }, tf.float32), n)
    assert.truthy(err.message:find("with input shapes: [74], [2] and with input tensors computed as "
      .. "partial shapes: input[1] = [?,5].", 1, true), err.message)
    -- tf.shape(x)[1] of a known dimension is a constant: reshape reads 74
    assert.are.same({ None, 74 }, traced_shape(function(a) return tf.reshape(a, { -1, tf.shape(a)[1] }) end, x))
  end)

  -- eval_const_tensor.cc: TryInferFromShapes (tf.unstack(tf.shape(x))[i])
  it("TryInferFromShapes.Unpack", function()
    assert.are.same({ 74 }, traced_shape(function(a) return tf.fill({ tf.unstack(tf.shape(a))[2] }, 0.0) end, x))
    assert.are.same({ None }, traced_shape(function(a) return tf.fill({ tf.unstack(tf.shape(a))[1] }, 0.0) end, x))
  end)

  -- shape_refiner.cc: ShapeRefiner::ConstantPartialShape (Shape, ConcatV2,
  -- StridedSlice, Cast); array_ops.cc: Fill
  it("ConstantPartialShape.Shape (tf.zeros, tf.ones, tf.fill)", function()
    assert.are.same({ None, 74 }, traced_shape(function(a) return tf.zeros(tf.shape(a)) end, x))
    assert.are.same({ None, 74, 2 }, traced_shape(function(a) return tf.ones(tf.concat({ tf.shape(a), { 2 } }, 0)) end, x))
    assert.are.same({ 74 }, traced_shape(function(a) return tf.zeros(tf.shape(a)["1:"]) end, x))
    assert.are.same({ None }, traced_shape(function(a) return tf.zeros(tf.shape(a)[":1"]) end, x))
    assert.are.same({ None, 74 }, traced_shape(function(a)
      return tf.zeros(tf.cast(tf.shape(a, I64), I32))
    end, x))
    assert.are.same({ None, 3 }, traced_shape(function(k) return tf.fill({ k, 3 }, 1.0) end, n))
    -- ConstantPartialShape has no rule for other producers: a gather or an
    -- identity of tf.shape(x) is a vector of unknown elements
    assert.are.same({ None }, traced_shape(function(a) return tf.zeros(tf.gather(tf.shape(a), { 1 })) end, x))
    assert.are.same({ None, None }, traced_shape(function(a) return tf.zeros(tf.identity(tf.shape(a))) end, x))
  end)

  -- array_ops.cc: BroadcastTo (an input dimension above 1 fills the
  -- output's unknown one)
  it("BroadcastTo", function()
    local y = tf.TensorSpec({ 3 }, tf.float32)
    assert.are.same({ None, 3 }, traced_shape(function(v, k) return tf.broadcast_to(v, { k, 3 }) end, y, n))
    assert.are.same({ None, 3 }, traced_shape(function(v, k) return tf.broadcast_to(v, { k, k }) end, y, n))
    assert.are.same({ None, None }, traced_shape(function(v, k) return tf.broadcast_to(v, { k, k }) end,
      tf.TensorSpec({ 1 }, tf.float32), n))
    T.raises("ValueError", "Dimensions must be equal, but are 3 and 4", traced_shape,
      function(v, k) return tf.broadcast_to(v, { k, 4 }) end, y, n)
    T.raises("ValueError", nil, traced_shape, function(v, k) return tf.broadcast_to(v, { k }) end,
      tf.TensorSpec({ 2, 3 }, tf.float32), n)
  end)

  -- array_ops.cc: Tile (InferenceContext::Multiply per dimension)
  it("Tile", function()
    assert.are.same({ None, 518 }, traced_shape(function(a, m) return tf.tile(a, { m, 7 }) end, x, n))
    assert.are.same({ 0, None }, traced_shape(function(a, m) return tf.tile(a, { 0, m }) end,
      tf.TensorSpec({ 5, 1 }, tf.float32), n))
    assert.are.same({ None, 6 }, traced_shape(function(a, m) return tf.tile(a, { m, 1 }) end,
      tf.TensorSpec({ 2, 6 }, tf.float32), n))
  end)

  -- common_shape_fns.cc: SliceShape (partly known begin and sizes)
  it("SliceShape", function()
    assert.are.same({ None, 10 }, traced_shape(function(a, k) return tf.slice(a, { 0, 0 }, { k, 10 }) end, x, n))
    assert.are.same({ 5, 70 }, traced_shape(function(a, k) return tf.slice(a, { k, 4 }, { 5, -1 }) end, x, n))
  end)

  -- common_shape_fns.cc: RandomShape; random_ops.py's maybe_set_static_shape
  it("RandomShape", function()
    assert.are.same({ None, 5 }, traced_shape(function(k) return tf.random.normal({ k, 5 }) end, n))
    assert.are.same({ None, 74 }, traced_shape(function(a) return tf.random.uniform(tf.shape(a)) end, x))
  end)

  -- common_shape_fns.cc: ScatterNdShape
  it("ScatterNdShape", function()
    assert.are.same({ None, 3 }, traced_shape(function(k)
      return tf.scatter_nd({ { 0 }, { 1 } }, tf.ones({ 2, 3 }), { k, 3 })
    end, n))
  end)

  -- image_ops_impl.py: _resize_images_common sets the static height and
  -- width it reads with constant_value_as_shape
  it("ResizeImages", function()
    assert.are.same({ None, None, 16, 3 }, traced_shape(function(img, h)
      return tf.image.resize(img, { h, 16 })
    end, tf.TensorSpec({ None, 8, 8, 3 }, tf.float32), n))
  end)

  -- nn_grad.py: _Conv2DGrad and _AvgPoolGrad pass tf.shape(input): the
  -- gradients keep the input's known dimensions (nn_ops.cc:
  -- Conv2DBackpropInputShape, AvgPoolGrad's shape function)
  it("Conv2DBackpropInputShape and AvgPoolGrad", function()
    local got = {}
    tf.func(function(img)
      local w = tf.ones({ 3, 3, 3, 4 })
      local tape = tf.GradientTape()
      tape:watch(img)
      local y = tf.reduce_sum(tf.nn.conv2d(img, w, 1, "SAME")) + tf.reduce_sum(tf.nn.avg_pool2d(img, 2, 2, "VALID"))
      tape:stop()
      got = tape:gradient(y, img).shape:as_list()
    end):get_concrete_function(tf.TensorSpec({ None, 8, 8, 3 }, tf.float32))
    assert.are.same({ None, 8, 8, 3 }, got)
  end)

  -- The shapes are the graph's: the traced and the optimised graph, and a
  -- saved function loaded again, show the same ones, and the values are
  -- checked when the graph runs (TF's kernels' errors).
  it("ConstantPartialShape (saved, optimised and run)", function()
    local f = tf.func(function(a, k)
      return tf.reshape(a, { tf.shape(a)[0], 37, 2 }), tf.broadcast_to(tf.ones({ 3 }), { k, 3 })
    end)
    local cf = f:get_concrete_function(x, n)
    local outs = cf.graph.outputs
    assert.are.same({ None, 37, 2 }, outs[1].shape:as_list())
    assert.are.same({ None, 3 }, outs[2].shape:as_list())
    local opt = cf:optimized_graph().outputs
    assert.are.same({ None, 37, 2 }, opt[1].shape:as_list())
    assert.are.same({ None, 3 }, opt[2].shape:as_list())
    local a, b = cf(tf.zeros({ 2, 74 }), tf.constant(4))
    assert.are.same({ 2, 37, 2 }, a.shape:as_list())
    assert.are.same({ 4, 3 }, b.shape:as_list())
    local dir = os.tmpname()
    os.remove(dir)
    local m = tf.Module()
    m.f = f
    tf.saved_model.save(m, dir)
    local loaded = tf.saved_model.load(dir)
    local lcf = loaded.f:get_concrete_function(x, n)
    assert.are.same({ None, 37, 2 }, lcf.graph.outputs[1].shape:as_list())
    assert.are.same({ None, 3 }, lcf.graph.outputs[2].shape:as_list())
    os.execute("rm -rf '" .. dir .. "'")
  end)

  -- The static dimensions a partly known shape gives are checked when the
  -- graph runs, as TF's kernels check them.
  it("ConstantPartialShape (run-time checks)", function()
    local bt = tf.func(function(v, k) return tf.broadcast_to(v, { k }) end)
    T.equal({ 1.0, 2.0, 3.0 }, bt(tf.constant({ 1.0, 2.0, 3.0 }), tf.constant(3)))
    T.raises("InvalidArgumentError", nil, bt, tf.constant({ 1.0, 2.0, 3.0 }), tf.constant(5))
    local rs = tf.func(function(v, k) return tf.reshape(v, { k, 37 }) end)
    T.raises("InvalidArgumentError", "74", rs, tf.zeros({ 74 }), tf.constant(3))
    -- (2, 37) reshaped to {k, 37} is (2, 37) while tracing: the optimised
    -- graph keeps the Reshape that checks k
    T.raises("InvalidArgumentError", "74", rs, tf.zeros({ 2, 37 }), tf.constant(3))
    local params = tf.reshape(tf.range(20.0), { 5, 4 })
    local sl = tf.func(function(b) return tf.slice(params, tf.stack({ b, 0 }), { 2, 2 }) end)
    T.equal({ { 4.0, 5.0 }, { 8.0, 9.0 } }, sl(tf.constant(1)))
    T.raises("InvalidArgumentError", nil, sl, tf.constant(10))
  end)
end)
