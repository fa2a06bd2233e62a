-- array_ops_spec.lua — TensorFlow's indexing and slicing tests, ported:
-- tensorflow/python/kernel_tests/array_ops/array_ops_test.py
-- (StridedSliceTest, StridedSliceShapeTest, StridedSliceGradTest,
-- ShapeSizeRankTest, PadTest, OperatorShapeTest, ReverseV2Test,
-- BatchMatrixTransposeTest, BooleanMaskTest, SliceAssignTest,
-- IdentityTest, StopGradientTest); slice_op_test.py is slice_op_spec.lua.
--
-- Translation: Python's x[a, b:c, ...] is x["a, b:c, ..."] (a NumPy slice
-- string; x[()] is x[""], np.newaxis is None), and an index that holds a
-- tensor is the tf.strided_slice call TF's _slice_helper makes (bounds
-- stacked, the masks set bit by bit). StridedSliceChecker compares with
-- NumPy's x[spec]: those expected values were computed with NumPy from
-- the same arrays and written here as Lua tables, with the static shape
-- TF also checks. assertRaises(ValueError or InvalidArgumentError) cases
-- accept both; TF's TF1 graph-mode tests (run_deprecated_v1) are run
-- eagerly, where TF's kernels raise InvalidArgumentError. Graph-mode
-- shape checks (def_function.function(...).get_concrete_function) become
-- tf.func traces over input_signature specs.
--
-- Left out (moonflow has no such thing): dtypes int16, int8, uint8,
-- bfloat16, float16, float8, complex64/128 (STRIDED_SLICE_TYPES is run
-- over int32, int64, float32, float64 and bool); GPU/device and memory
-- leak tests; sliced assignment (var[...].assign, tensor_strided_slice_
-- update, strided_slice_grad as a public op); SparseTensor shapes;
-- sequence_mask, meshgrid, searchsorted, repeat, unravel_index,
-- invert_permutation, quantize ops, guarantee_const, snapshot,
-- mirror_pad_grad, batch_gather_nd, tensor lists; slicing with
-- tensor_shape.Dimension; TF1 placeholders and sessions.

local tf = tf or require("moonflow")
local T = require("tfhelpers")

-- StridedSliceChecker: x[spec] has NumPy's value and static shape.
local function check(x, spec, expected, shape)
  local r = x[spec]
  T.equal(expected, r)
  assert.are.same(shape, r.shape:as_list())
end

-- The Lua list {a, a+1, ..., b}.
local function range_list(a, b)
  local out = {}
  for v = a, b do out[#out + 1] = v end
  return out
end

-- x as a flat Lua list (for the long NumPy results, compared flat).
local function flat(x) return tf.reshape(x, { -1 }):numpy() end

local function ref_tensor(dtype)
  local x = tf.reshape(tf.range(1, 19), { 3, 2, 3 })
  if dtype == tf.bool then return tf.cast(x % 3, tf.bool) end
  return tf.cast(x, dtype)
end

local RAW_SHRINK = { { { { { 1, 2, 4, 5 }, { 5, 6, 7, 8 }, { 9, 10, 11, 12 } } },
  { { { 13, 14, 15, 16 }, { 17, 18, 19, 20 }, { 21, 22, 23, 24 } } } } }

describe("array_ops_test.py", function()
  describe("StridedSliceTest", function()
    -- array_ops_test.py: StridedSliceTest.test_basic_slice
    for _, dtype in ipairs({ tf.int32, tf.int64, tf.float32, tf.float64 }) do
      it("StridedSliceTest.test_basic_slice (" .. dtype.name .. ")", function()
        local x = ref_tensor(dtype)
        local s = tf.constant(5, dtype)
        check(x, ":, :, :", { { { 1, 2, 3 }, { 4, 5, 6 } }, { { 7, 8, 9 }, { 10, 11, 12 } }, { { 13, 14, 15 }, { 16, 17, 18 } } }, { 3, 2, 3 })
        check(x, "::, ::, ::", { { { 1, 2, 3 }, { 4, 5, 6 } }, { { 7, 8, 9 }, { 10, 11, 12 } }, { { 13, 14, 15 }, { 16, 17, 18 } } }, { 3, 2, 3 })
        check(x, "::1, ::1, ::1", { { { 1, 2, 3 }, { 4, 5, 6 } }, { { 7, 8, 9 }, { 10, 11, 12 } }, { { 13, 14, 15 }, { 16, 17, 18 } } }, { 3, 2, 3 })
        check(x, "::1, ::5, ::2", { { { 1, 3 } }, { { 7, 9 } }, { { 13, 15 } } }, { 3, 1, 2 })
        check(x, "::-1, :, :", { { { 13, 14, 15 }, { 16, 17, 18 } }, { { 7, 8, 9 }, { 10, 11, 12 } }, { { 1, 2, 3 }, { 4, 5, 6 } } }, { 3, 2, 3 })
        check(x, ":, ::-1, :", { { { 4, 5, 6 }, { 1, 2, 3 } }, { { 10, 11, 12 }, { 7, 8, 9 } }, { { 16, 17, 18 }, { 13, 14, 15 } } }, { 3, 2, 3 })
        check(x, ":, :, ::-1", { { { 3, 2, 1 }, { 6, 5, 4 } }, { { 9, 8, 7 }, { 12, 11, 10 } }, { { 15, 14, 13 }, { 18, 17, 16 } } }, { 3, 2, 3 })
        check(x, "-2::-1, :, ::1", { { { 7, 8, 9 }, { 10, 11, 12 } }, { { 1, 2, 3 }, { 4, 5, 6 } } }, { 2, 2, 3 })
        check(x, "-2::-1, :, ::2", { { { 7, 9 }, { 10, 12 } }, { { 1, 3 }, { 4, 6 } } }, { 2, 2, 2 })
        check(s, "None", { 5 }, { 1 })
        check(s, "...", 5, {})
        check(s, "", 5, {})
      end)
    end

    -- array_ops_test.py: StridedSliceTest.test_basic_slice (bool: x % 3 as bool)
    it("StridedSliceTest.test_basic_slice (bool)", function()
      local x = ref_tensor(tf.bool)
      check(x, "::-1, :, ::2", { { { true, false }, { true, false } }, { { true, false }, { true, false } },
        { { true, false }, { true, false } } }, { 3, 2, 2 })
      check(x, ":, -1, 1:", { { true, false }, { true, false }, { true, false } }, { 3, 2 })
      check(x, "-2::-1, :, ::1", { { { true, true, false }, { true, true, false } },
        { { true, true, false }, { true, true, false } } }, { 2, 2, 3 })
      check(tf.constant(true), "None", { true }, { 1 })
    end)

    -- array_ops_test.py: StridedSliceTest.testDegenerateSlices
    it("StridedSliceTest.testDegenerateSlices", function()
      local x = ref_tensor(tf.int32)
      local aligned = tf.reshape(tf.range(1, 97), { 3, 4, 8 })
      check(x, "0:-1:-1, :, :", {}, { 0, 2, 3 })
      check(x, "-1:0, :, :", {}, { 0, 2, 3 })
      check(x, "-1:0, 2:2, 2:3:-1", {}, { 0, 0, 0 })
      check(aligned, "1:0", {}, { 0, 4, 8 })
    end)

    -- array_ops_test.py: StridedSliceTest.testEllipsis
    it("StridedSliceTest.testEllipsis", function()
      local x = tf.constant({ { { { { 1, 2 }, { 3, 4 }, { 5, 6 } } }, { { { 7, 8 }, { 9, 10 }, { 11, 12 } } } } })
      check(x, "0:", { { { { { 1, 2 }, { 3, 4 }, { 5, 6 } } }, { { { 7, 8 }, { 9, 10 }, { 11, 12 } } } } }, { 1, 2, 1, 3, 2 })
      check(x, "0:, ...", { { { { { 1, 2 }, { 3, 4 }, { 5, 6 } } }, { { { 7, 8 }, { 9, 10 }, { 11, 12 } } } } }, { 1, 2, 1, 3, 2 })
      check(x, "...", { { { { { 1, 2 }, { 3, 4 }, { 5, 6 } } }, { { { 7, 8 }, { 9, 10 }, { 11, 12 } } } } }, { 1, 2, 1, 3, 2 })
      check(x, "0:1, ...", { { { { { 1, 2 }, { 3, 4 }, { 5, 6 } } }, { { { 7, 8 }, { 9, 10 }, { 11, 12 } } } } }, { 1, 2, 1, 3, 2 })
      check(x, "..., 0:1", { { { { { 1 }, { 3 }, { 5 } } }, { { { 7 }, { 9 }, { 11 } } } } }, { 1, 2, 1, 3, 1 })
      check(x, "0:1, ..., 0:1", { { { { { 1 }, { 3 }, { 5 } } }, { { { 7 }, { 9 }, { 11 } } } } }, { 1, 2, 1, 3, 1 })
      T.raises({ "ValueError", "InvalidArgumentError" }, "Multiple ellipses", function() return x["..., :, ..."] end)
    end)

    -- array_ops_test.py: StridedSliceTest.testShrink
    it("StridedSliceTest.testShrink", function()
      local x = tf.constant(RAW_SHRINK)
      check(x, ":, :, :, :, 3", { { { { 5, 8, 12 } }, { { 16, 20, 24 } } } }, { 1, 2, 1, 3 })
      check(x, "..., 3", { { { { 5, 8, 12 } }, { { 16, 20, 24 } } } }, { 1, 2, 1, 3 })
      check(x, ":, 0", { { { { 1, 2, 4, 5 }, { 5, 6, 7, 8 }, { 9, 10, 11, 12 } } } }, { 1, 1, 3, 4 })
      check(x, ":, :, 0", { { { { 1, 2, 4, 5 }, { 5, 6, 7, 8 }, { 9, 10, 11, 12 } }, { { 13, 14, 15, 16 }, { 17, 18, 19, 20 }, { 21, 22, 23, 24 } } } }, { 1, 2, 3, 4 })
    end)

    -- array_ops_test.py: StridedSliceTest.testBothNewAxisAndShrink
    it("StridedSliceTest.testBothNewAxisAndShrink", function()
      local f = tf.func(function(inp) return inp["None, :, 0"] end,
        { input_signature = { tf.TensorSpec({ 2, 2 }, tf.int32) } })
      T.equal({ { 1, 1 } }, f(tf.constant({ { 1, 1 }, { 1, 1 } })))
    end)

    -- array_ops_test.py: StridedSliceTest.testTensorIndexing
    it("StridedSliceTest.testTensorIndexing", function()
      local x = tf.constant(RAW_SHRINK)
      local bar, bar2 = tf.constant(2), tf.constant(3)
      -- x[..., bar:bar2] and x[..., bar], as TF's _slice_helper builds them
      local r = tf.strided_slice(x, tf.stack({ 0, bar }), tf.stack({ 0, bar2 }), tf.stack({ 1, 1 }),
        { ellipsis_mask = 1 })
      T.equal({ { { { { 4 }, { 7 }, { 11 } } }, { { { 15 }, { 19 }, { 23 } } } } }, r)
      r = tf.strided_slice(x, tf.stack({ 0, bar }), tf.stack({ 0, bar + 1 }), { 1, 1 },
        { ellipsis_mask = 1, shrink_axis_mask = 2 })
      T.equal({ { { { 4, 7, 11 } }, { { 15, 19, 23 } } } }, r)
      check(x, "..., 3", { { { { 5, 8, 12 } }, { { 16, 20, 24 } } } }, { 1, 2, 1, 3 })
      -- x[..., 2**64 // 2**63]
      check(x, "..., 2", { { { { 4, 7, 11 } }, { { 15, 19, 23 } } } }, { 1, 2, 1, 3 })
    end)

    -- array_ops_test.py: StridedSliceTest.testTensorIndexingTypeError
    it("StridedSliceTest.testTensorIndexingTypeError", function()
      local x = ref_tensor(tf.int32)
      local expected = "Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar "
        .. "tf.int32/tf.int64 tensors are valid indices"
      T.raises("TypeError", expected, function() return x[tf.constant("foo")] end)
      T.raises("TypeError", expected, function() return x[0.0] end)
      T.raises("TypeError", expected, function() return x[tf.constant(0.0)] end)
      T.raises("TypeError", expected, function() return x[tf.constant({ 1, 2, 3 })] end)
      T.raises("TypeError", expected, function() return x[{ 2.1, -0.7, 1.5 }] end)
      T.raises("TypeError", expected, function() return x["0.5"] end)
      -- checker["foo"]: in Lua x["foo"] is also the field x.foo, so the
      -- miss is Python's AttributeError of x.foo
      T.raises("AttributeError", "no attribute 'foo'", function() return x["foo"] end)
    end)

    -- array_ops_test.py: StridedSliceTest.testExpand
    it("StridedSliceTest.testExpand", function()
      local x = tf.constant(RAW_SHRINK)
      check(x, "None", { { { { { { 1, 2, 4, 5 }, { 5, 6, 7, 8 }, { 9, 10, 11, 12 } } }, { { { 13, 14, 15, 16 }, { 17, 18, 19, 20 }, { 21, 22, 23, 24 } } } } } }, { 1, 1, 2, 1, 3, 4 })
      check(x, "..., None", { { { { { { 1 }, { 2 }, { 4 }, { 5 } }, { { 5 }, { 6 }, { 7 }, { 8 } }, { { 9 }, { 10 }, { 11 }, { 12 } } } }, { { { { 13 }, { 14 }, { 15 }, { 16 } }, { { 17 }, { 18 }, { 19 }, { 20 } }, { { 21 }, { 22 }, { 23 }, { 24 } } } } } }, { 1, 2, 1, 3, 4, 1 })
      check(x, "..., None, :", { { { { { { 1, 2, 4, 5 } }, { { 5, 6, 7, 8 } }, { { 9, 10, 11, 12 } } } }, { { { { 13, 14, 15, 16 } }, { { 17, 18, 19, 20 } }, { { 21, 22, 23, 24 } } } } } }, { 1, 2, 1, 3, 1, 4 })
      check(x, ":, ..., None, :, :", { { { { { { 1, 2, 4, 5 }, { 5, 6, 7, 8 }, { 9, 10, 11, 12 } } } }, { { { { 13, 14, 15, 16 }, { 17, 18, 19, 20 }, { 21, 22, 23, 24 } } } } } }, { 1, 2, 1, 1, 3, 4 })
      check(x, ":, :, None, :, 2::-1", { { { { { { 9, 10, 11, 12 }, { 5, 6, 7, 8 }, { 1, 2, 4, 5 } } } }, { { { { 21, 22, 23, 24 }, { 17, 18, 19, 20 }, { 13, 14, 15, 16 } } } } } }, { 1, 2, 1, 1, 3, 4 })
      check(x, "None, ..., None", { { { { { { { 1 }, { 2 }, { 4 }, { 5 } }, { { 5 }, { 6 }, { 7 }, { 8 } }, { { 9 }, { 10 }, { 11 }, { 12 } } } }, { { { { 13 }, { 14 }, { 15 }, { 16 } }, { { 17 }, { 18 }, { 19 }, { 20 } }, { { 21 }, { 22 }, { 23 }, { 24 } } } } } } }, { 1, 1, 2, 1, 3, 4, 1 })
      check(x, "None, :, 0", { { { { { 1, 2, 4, 5 }, { 5, 6, 7, 8 }, { 9, 10, 11, 12 } } } } }, { 1, 1, 1, 3, 4 })
      assert.are.same({ 1, 1, 2, 1, 3, 4 }, x[tf.newaxis].shape:as_list())
    end)

    -- array_ops_test.py: StridedSliceTest.testExpandVariable
    it("StridedSliceTest.testExpandVariable", function()
      local x = tf.Variable(7, tf.int32)
      local y = x["None"]
      assert.are.same({ 1 }, y.shape:as_list())
      T.equal({ 7 }, y)
    end)

    -- array_ops_test.py: StridedSliceTest.testVariableSliceEagerMemory (the slice itself)
    it("StridedSliceTest.testVariableSliceEagerMemory", function()
      local v = tf.Variable({ 1.0, 2.0 })
      T.equal(1.0, v[0])
      T.equal({ 2.0, 1.0 }, v["::-1"])
      T.equal(2.0, v[tf.constant(1)])
    end)

    -- array_ops_test.py: StridedSliceTest.testOptimizedCases
    it("StridedSliceTest.testOptimizedCases", function()
      local x = tf.reshape(tf.range(1, 97), { 3, 4, 8 })
      for spec, want in pairs({ [":"] = { 1, 96, { 3, 4, 8 } }, ["..."] = { 1, 96, { 3, 4, 8 } },
        ["None, ..., None"] = { 1, 96, { 1, 3, 4, 8, 1 } }, ["1:"] = { 33, 96, { 2, 4, 8 } },
        ["None, 1:"] = { 33, 96, { 1, 2, 4, 8 } } }) do
        local r = x[spec]
        assert.are.same(range_list(want[1], want[2]), flat(r), spec)
        assert.are.same(want[3], r.shape:as_list(), spec)
      end
    end)

    -- array_ops_test.py: StridedSliceTest.testMasks
    it("StridedSliceTest.testMasks", function()
      local x = ref_tensor(tf.int32)
      T.equal(range_list(3, 18), x[tf.greater(x, 2)])
      T.equal({ 1, 2, 3, 4, 5 }, x[tf.less_equal(x, 5)])
      T.equal({ { 1, 2, 3 }, { 4, 5, 6 } }, x[tf.constant(0)])
      local raw = tf.constant(RAW_SHRINK)
      T.equal({ 4, 5, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24 },
        raw[tf.greater_equal(raw, 4)])
      T.equal({ 1, 2, 4, 5, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18 }, raw[tf.less(raw, 19)])
      T.equal({ { { { 1, 2, 4, 5 }, { 5, 6, 7, 8 }, { 9, 10, 11, 12 } } },
        { { { 13, 14, 15, 16 }, { 17, 18, 19, 20 }, { 21, 22, 23, 24 } } } }, raw[tf.constant(0)])
      local raw1 = tf.constant({ { 1, 2, 4, 5 }, { 5, 6, 7, 8 }, { 9, 10, 11, 12 } })
      T.equal({ { 1, 2, 4, 5 }, { 9, 10, 11, 12 } }, raw1[tf.constant({ true, false, true })])
      -- a Python bool index is boolean_mask too: a scalar mask is its ValueError
      T.raises("ValueError", "mask cannot be scalar", function() return raw1[true] end)
    end)

    -- array_ops_test.py: StridedSliceTest.testInt64GPU (on the CPU)
    it("StridedSliceTest.testInt64GPU", function()
      local x = tf.constant({ 1.0, 2.0, 3.0 })
      local s = tf.strided_slice(x, tf.constant({ 2 }, tf.int64), tf.constant({ 3 }, tf.int64),
        tf.constant({ 1 }, tf.int64))
      T.equal({ 3.0 }, s)
    end)
  end)

  describe("StridedSliceShapeTest", function()
    -- array_ops_test.py: StridedSliceShapeTest.testUnknown
    it("StridedSliceShapeTest.testUnknown", function()
      local rank = "unset"
      local f = tf.func(function(x)
        rank = x["..."].shape.rank
      end)
      f:get_concrete_function(tf.TensorSpec(nil, tf.float32))
      assert.is_nil(rank)
    end)

    -- array_ops_test.py: StridedSliceShapeTest.testScalarInput
    it("StridedSliceShapeTest.testScalarInput", function()
      T.raises({ "ValueError", "InvalidArgumentError" }, "Attempting to slice scalar input.",
        tf.strided_slice, tf.constant(3), { 0 }, { 1 })
    end)

    -- array_ops_test.py: StridedSliceShapeTest.testTensorShapeUncertain
    it("StridedSliceShapeTest.testTensorShapeUncertain", function()
      local None = tf.None
      local cases = {
        { "3:5", { 2, None, 7 } },
        { "3:5, :, 4", { 2, None } },
        { "3:5, 3:4, 4", { 2, None } },
        { "3:5, :, 5:10", { 2, None, 2 } },
        { "3:5, :, 50:3", { 2, None, 0 } },
        { "3:5, :, None, 50:3", { 2, None, 1, 0 } },
        { "1:5:2, :, None, 50:3", { 2, None, 1, 0 } },
        { ":5:3, :, None, 50:3", { 2, None, 1, 0 } },
        { ":2:3, :, None, 50:3", { 1, None, 1, 0 } },
        { "::-1, :, None, ::-2", { 5, None, 1, 4 } },
      }
      for _, c in ipairs(cases) do
        local got
        local f = tf.func(function(x) got = x[c[1]].shape:as_list() end)
        f:get_concrete_function(tf.TensorSpec({ 5, None, 7 }, tf.float32))
        assert.are.same(c[2], got, c[1])
      end
    end)

    -- array_ops_test.py: StridedSliceShapeTest.testTensorValuedIndexShape
    it("StridedSliceShapeTest.testTensorValuedIndexShape", function()
      local None = tf.None
      local x_spec, i_spec = tf.TensorSpec({ 5, 3, 7 }, tf.float32), tf.TensorSpec({}, tf.int32)
      local got = {}
      -- x[y]
      tf.func(function(x, y) got[1] = x[y].shape:as_list() end):get_concrete_function(x_spec, i_spec)
      -- x[y, ::-1] and x[y, ::-2], as _slice_helper builds them
      tf.func(function(x, y)
        got[2] = tf.strided_slice(x, tf.stack({ y, 0 }), tf.stack({ y + 1, 0 }), { 1, -1 },
          { begin_mask = 2, end_mask = 2, shrink_axis_mask = 1 }).shape:as_list()
        got[3] = tf.strided_slice(x, tf.stack({ y, 0 }), tf.stack({ y + 1, 0 }), { 1, -2 },
          { begin_mask = 2, end_mask = 2, shrink_axis_mask = 1 }).shape:as_list()
      end):get_concrete_function(x_spec, i_spec)
      -- x[y, s:2]
      tf.func(function(x, y, s)
        got[4] = tf.strided_slice(x, tf.stack({ y, s }), tf.stack({ y + 1, 2 }), { 1, 1 },
          { shrink_axis_mask = 1 }).shape:as_list()
      end):get_concrete_function(x_spec, i_spec, i_spec)
      assert.are.same({ { 3, 7 }, { 3, 7 }, { 2, 7 }, { None, 7 } }, got)
    end)
  end)

  describe("StridedSliceGradTest", function()
    -- array_ops_test.py: StridedSliceGradTest.testGradient (GradSliceChecker:
    -- the gradient of (var * var)[spec] with var[spec] as the output
    -- gradient is 2 var^2 where the slice reads, 0 elsewhere)
    it("StridedSliceGradTest.testGradient", function()
      local var = tf.Variable(tf.reshape(tf.range(1, 97, 1, tf.float32), { 6, 4, 4 }))
      local function grad_of(spec)
        -- <close>: as TF's `with`, a slice that raises stops the tape too
        local tape <close> = tf.GradientTape({ persistent = true })
        local val = var * var
        local slice_var = var[spec]
        local slice_val = val[spec]
        tape:stop()
        return tape:gradient(slice_val, var, { output_gradients = slice_var })
      end
      local function expected(positions)
        local want = {}
        for i = 0, 95 do want[i + 1] = 0.0 end
        for _, p in ipairs(positions) do want[p + 1] = 2.0 * (p + 1) * (p + 1) end
        return want
      end
      local function grad_case(spec, positions)
        assert.are.same(expected(positions), flat(grad_of(spec)), spec)
      end
      grad_case("2:6:2, 1:3, 1:3", { 37, 38, 41, 42, 69, 70, 73, 74 })
      grad_case("3:0:-2, 1:3, 1:3", { 21, 22, 25, 26, 53, 54, 57, 58 })
      grad_case("3:0:-2, None, 1:3, 2, None", { 22, 26, 54, 58 })
      grad_case("3:0:-2, 1:3, 2", { 22, 26, 54, 58 })
      grad_case(":, -1, :", { 12, 13, 14, 15, 28, 29, 30, 31, 44, 45, 46, 47, 60, 61, 62, 63, 76, 77, 78, 79,
        92, 93, 94, 95 })
      grad_case(":, -2, :", { 8, 9, 10, 11, 24, 25, 26, 27, 40, 41, 42, 43, 56, 57, 58, 59, 72, 73, 74, 75,
        88, 89, 90, 91 })
      T.raises({ "ValueError", "InvalidArgumentError" }, "out of bounds", grad_of, ":, -200, :")
      T.raises({ "ValueError", "InvalidArgumentError" }, "out of bounds", grad_of, ":, 200, :")
      -- masks: var[raw > 51] and var[raw <= 76]
      local raw = tf.reshape(tf.range(1, 97, 1, tf.float32), { 6, 4, 4 })
      assert.are.same(expected(range_list(51, 95)), flat(grad_of(tf.greater(raw, 51))))
      assert.are.same(expected(range_list(0, 75)), flat(grad_of(tf.less_equal(raw, 76))))
    end)

    -- array_ops_test.py: StridedSliceGradTest.testGradientZero
    it("StridedSliceGradTest.testGradientZero", function()
      local var = tf.Variable(8.0)
      local tape = tf.GradientTape()
      local val = var * var
      local slice_var, slice_val = var[""], val[""]
      tape:stop()
      T.equal(128.0, tape:gradient(slice_val, var, { output_gradients = slice_var }))
    end)

    -- array_ops_test.py: StridedSliceGradTest.testInt64Indices
    it("StridedSliceGradTest.testInt64Indices", function()
      local tape = tf.GradientTape()
      local a = tf.range(3, nil, nil, tf.float32)
      tape:watch(a)
      local index = tf.constant(1, tf.int64)
      local b = 2.0 * a[index]
      tape:stop()
      T.equal({ 0.0, 2.0, 0.0 }, tape:gradient(b, a))
    end)
  end)

  -- array_ops_test.py: SliceAssignTest.testInvalidSlice
  it("SliceAssignTest.testInvalidSlice", function()
    local foo = tf.constant({ 1, 2, 3 })
    T.raises("AttributeError", "no attribute 'assign'", function()
      return foo[":2"]:assign(tf.constant({ 1, 2 }))
    end)
  end)

  describe("ShapeSizeRankTest", function()
    -- array_ops_test.py: ShapeSizeRankTest.testDenseShape
    it("ShapeSizeRankTest.testDenseShape", function()
      local t_value = { { 0, 42 }, { 24, 0 } }
      T.equal({ 2, 2 }, tf.shape(t_value))
      T.equal(4, tf.size(t_value))
      T.equal(2, tf.rank(t_value))
      local t = tf.constant(t_value)
      T.equal({ 2, 2 }, tf.shape(t))
      T.equal(4, tf.size(t))
      T.equal(2, tf.rank(t))
    end)

    -- array_ops_test.py: ShapeSizeRankTest.testSizeDtype
    it("ShapeSizeRankTest.testSizeDtype", function()
      assert.are.equal(tf.int32, tf.size({ 1 }).dtype)
      assert.are.equal(tf.int64, tf.size({ 1 }, { out_type = tf.int64 }).dtype)
    end)
  end)

  -- array_ops_test.py: PadTest.testEager
  it("PadTest.testEager", function()
    local t = tf.constant({ { 1, 2, 3 }, { 4, 5, 6 } })
    local paddings = tf.constant({ { 1, 1 }, { 2, 2 } })
    T.equal({ { 0, 0, 0, 0, 0, 0, 0 }, { 0, 0, 1, 2, 3, 0, 0 }, { 0, 0, 4, 5, 6, 0, 0 }, { 0, 0, 0, 0, 0, 0, 0 } },
      tf.pad(t, paddings, "CONSTANT"))
  end)

  describe("OperatorShapeTest", function()
    -- array_ops_test.py: OperatorShapeTest.testExpandScalar
    it("OperatorShapeTest.testExpandScalar", function()
      assert.are.same({ 1 }, tf.expand_dims("hello", { 0 }).shape:as_list())
    end)

    -- array_ops_test.py: OperatorShapeTest.testSqueezeScalar
    it("OperatorShapeTest.testSqueezeScalar", function()
      assert.are.same({}, tf.squeeze("hello", {}).shape:as_list())
    end)

    -- array_ops_test.py: OperatorShapeTest.testSqueezeMatrix
    it("OperatorShapeTest.testSqueezeMatrix", function()
      local matrix = { { 1, 2, 3 } }
      assert.are.same({ 3 }, tf.squeeze(matrix, { 0 }).shape:as_list())
      T.raises(nil, "Can not squeeze dim[1], expected a dimension of 1, got 3", tf.squeeze, matrix, { 1 })
    end)

    -- array_ops_test.py: OperatorShapeTest.testSqueezeScalarDim
    it("OperatorShapeTest.testSqueezeScalarDim", function()
      assert.are.same({ 3 }, tf.squeeze({ { 1, 2, 3 } }, 0).shape:as_list())
    end)

    -- array_ops_test.py: OperatorShapeTest.testExpandDimsWithNonScalarDim
    it("OperatorShapeTest.testExpandDimsWithNonScalarDim", function()
      T.raises(nil, "must be a tensor with a single value", tf.expand_dims, 1, { 0, 1 })
    end)

    -- array_ops_test.py: OperatorShapeTest.testReshapeWithManyDims
    it("OperatorShapeTest.testReshapeWithManyDims", function()
      local ones = {}
      for i = 1, 254 do ones[i] = 1 end
      T.raises("InvalidArgumentError", "too many dimensions", tf.reshape, { { 1 } }, tf.constant(ones, tf.int64))
    end)
  end)

  describe("ReverseV2Test", function()
    -- array_ops_test.py: ReverseV2Test.testReverse0DimAuto
    it("ReverseV2Test.testReverse0DimAuto", function()
      T.equal(4, tf.reverse(4, {}))
    end)

    -- array_ops_test.py: ReverseV2Test.testReverse1DimAuto (the dtypes moonflow has)
    it("ReverseV2Test.testReverse1DimAuto", function()
      for _, dtype in ipairs({ tf.int32, tf.int64, tf.float32, tf.float64 }) do
        for _, axis_dtype in ipairs({ tf.int32, tf.int64 }) do
          local x = tf.constant({ 1, 120, 3, 40, 5 }, dtype)
          T.equal({ 5, 40, 3, 120, 1 }, tf.reverse(x, tf.constant({ 0 }, axis_dtype)))
        end
      end
      T.equal({ true, false, false }, tf.reverse({ false, false, true }, { 0 }))
      T.equal({ "c", "b", "a" }, tf.reverse({ "a", "b", "c" }, { 0 }))
    end)

    -- array_ops_test.py: ReverseV2Test.testReverse2DimAuto
    it("ReverseV2Test.testReverse2DimAuto", function()
      local x = { { 1, 120, 3 }, { 4, 5, 60 } }
      for _, axis_dtype in ipairs({ tf.int32, tf.int64 }) do
        local function rev(axes) return tf.reverse(x, tf.constant(axes, axis_dtype)) end
        T.equal({ { 4, 5, 60 }, { 1, 120, 3 } }, rev({ 0 }))
        T.equal({ { 4, 5, 60 }, { 1, 120, 3 } }, rev({ -2 }))
        T.equal({ { 3, 120, 1 }, { 60, 5, 4 } }, rev({ 1 }))
        T.equal({ { 3, 120, 1 }, { 60, 5, 4 } }, rev({ -1 }))
        T.equal({ { 60, 5, 4 }, { 3, 120, 1 } }, rev({ 1, 0 }))
      end
    end)

    -- array_ops_test.py: ReverseV2Test.testInvalidAxis
    it("ReverseV2Test.testInvalidAxis", function()
      local x = tf.constant({ { 1, 2, 3 }, { 4, 5, 6 } }, tf.float32)
      local kinds = { "ValueError", "InvalidArgumentError" }
      T.raises(kinds, "is out of valid range", tf.reverse, x, { -30 })
      T.raises(kinds, "is out of valid range", tf.reverse, x, { 2 })
      T.raises(kinds, "axis 0 specified more than once", tf.reverse, x, { 0, -2 })
    end)

    -- array_ops_test.py: ReverseV2Test.testInvalid
    it("ReverseV2Test.testInvalid", function()
      local x = tf.constant({ { 1, 2, 3 }, { 4, 5, 6 } }, tf.float32)
      local func = tf.func(function(ax) return tf.reverse(x, ax) end)
      local kinds = { "ValueError", "InvalidArgumentError" }
      T.raises(kinds, "is out of valid range", func, tf.constant({ -30 }))
      T.raises(kinds, "is out of valid range", func, tf.constant({ 2 }))
      T.raises(kinds, "axis 0 specified more than once", func, tf.constant({ 0, -2 }))
    end)

    -- array_ops_test.py: ReverseV2Test.testReverseRowsOf3Channels (small sizes)
    it("ReverseV2Test.testReverseRowsOf3Channels", function()
      for _, outer in ipairs({ 1, 2 }) do
        for _, middle in ipairs({ 0, 1, 2, 7 }) do
          local x = tf.reshape(tf.range(outer * middle * 3, nil, nil, tf.float32), { outer, middle, 3 })
          local want = {}
          for o = 0, outer - 1 do
            want[o + 1] = {}
            for m = 0, middle - 1 do
              local src = (o * middle + (middle - 1 - m)) * 3
              want[o + 1][m + 1] = { src, src + 1.0, src + 2.0 }
            end
          end
          T.equal(want, tf.reverse(x, { 1 }))
        end
      end
    end)

    -- array_ops_test.py: ReverseV2Test.testReverseInvalidShape
    it("ReverseV2Test.testReverseInvalidShape", function()
      local v = tf.reverse(tf.zeros({ 0, 1, 1 }, tf.float64), { 1 })
      assert.are.same({ 0, 1, 1 }, v.shape:as_list())
    end)
  end)

  describe("BatchMatrixTransposeTest", function()
    -- array_ops_test.py: BatchMatrixTransposeTest.testNonBatchMatrix
    it("BatchMatrixTransposeTest.testNonBatchMatrix", function()
      local transposed = tf.matrix_transpose({ { 1, 2, 3 }, { 4, 5, 6 } })
      assert.are.same({ 3, 2 }, transposed.shape:as_list())
      T.equal({ { 1, 4 }, { 2, 5 }, { 3, 6 } }, transposed)
    end)

    -- array_ops_test.py: BatchMatrixTransposeTest.testBatchMatrix
    it("BatchMatrixTransposeTest.testBatchMatrix", function()
      local batch = { { { 1, 2, 3 }, { 4, 5, 6 } }, { { 11, 22, 33 }, { 44, 55, 66 } } }
      local transposed = tf.matrix_transpose(batch)
      assert.are.same({ 2, 3, 2 }, transposed.shape:as_list())
      T.equal({ { { 1, 4 }, { 2, 5 }, { 3, 6 } }, { { 11, 44 }, { 22, 55 }, { 33, 66 } } }, transposed)
    end)

    -- array_ops_test.py: BatchMatrixTransposeTest.testNonBatchMatrixDynamicallyDefined
    -- and testBatchMatrixDynamicallyDefined
    it("BatchMatrixTransposeTest.testBatchMatrixDynamicallyDefined", function()
      local transpose = tf.func(function(matrix)
        assert.is_nil(matrix.shape.rank)
        return tf.matrix_transpose(matrix)
      end, { input_signature = { tf.TensorSpec(nil, tf.int32) } })
      T.equal({ { 1, 4 }, { 2, 5 }, { 3, 6 } }, transpose(tf.constant({ { 1, 2, 3 }, { 4, 5, 6 } })))
      T.equal({ { { 1, 4 }, { 2, 5 }, { 3, 6 } }, { { 11, 44 }, { 22, 55 }, { 33, 66 } } },
        transpose(tf.constant({ { { 1, 2, 3 }, { 4, 5, 6 } }, { { 11, 22, 33 }, { 44, 55, 66 } } })))
    end)

    -- array_ops_test.py: BatchMatrixTransposeTest.testTensorWithStaticRankLessThanTwoRaisesBecauseNotAMatrix
    it("BatchMatrixTransposeTest.testTensorWithStaticRankLessThanTwoRaisesBecauseNotAMatrix", function()
      T.raises("ValueError", "should be a ", tf.matrix_transpose, { 1, 2, 3 })
    end)
  end)

  describe("BooleanMaskTest", function()
    -- array_ops_test.py: BooleanMaskTest.testMaskDim1ArrDim2 (a fixed mask for NumPy's random one)
    it("BooleanMaskTest.testMaskDim1ArrDim2", function()
      local arr = tf.constant({ { 1.0, 2.0, 3.0, 4.0, 5.0 }, { 6.0, 7.0, 8.0, 9.0, 10.0 } })
      T.equal({ { 6.0, 7.0, 8.0, 9.0, 10.0 } }, tf.boolean_mask(arr, { false, true }))
      T.equal({ { 1.0, 3.0 }, { 6.0, 8.0 } }, tf.boolean_mask(arr, { true, false, true, false, false }, 1))
    end)

    -- array_ops_test.py: BooleanMaskTest.testEmptyInput2D
    it("BooleanMaskTest.testEmptyInput2D", function()
      local r = tf.boolean_mask(tf.zeros({ 2, 0 }), { true, false })
      assert.are.same({ 0 }, { r.shape:as_list()[2] })
      assert.are.same({ 1, 0 }, tf.shape(r):numpy())
    end)

    -- array_ops_test.py: BooleanMaskTest.testEmptyOutput
    it("BooleanMaskTest.testEmptyOutput", function()
      local r = tf.boolean_mask(tf.ones({ 2, 3, 4 }), tf.zeros({ 2, 3 }, tf.bool))
      assert.are.same({ 0, 4 }, tf.shape(r):numpy())
      assert.are.same(4, r.shape:as_list()[2])
    end)

    -- array_ops_test.py: BooleanMaskTest.testWorksWithDimensionsEqualToNoneDuringGraphBuild
    it("BooleanMaskTest.testWorksWithDimensionsEqualToNoneDuringGraphBuild", function()
      local func = tf.func(function(t, m) return tf.boolean_mask(t, m) end)
      local f = func:get_concrete_function(tf.TensorSpec(nil, tf.int32), tf.TensorSpec({ tf.None }, tf.bool))
      T.equal({ { 3, 4 } }, f(tf.constant({ { 1, 2 }, { 3, 4 } }), tf.constant({ false, true })))
    end)

    -- array_ops_test.py: BooleanMaskTest.testMaskDimensionsSetToNoneRaises
    it("BooleanMaskTest.testMaskDimensionsSetToNoneRaises", function()
      local func = tf.func(function(t, m) return tf.boolean_mask(t, m) end)
      T.raises("ValueError", "dimensions must be specified", function()
        return func:get_concrete_function(tf.TensorSpec({ tf.None, 2 }, tf.int32), tf.TensorSpec(nil, tf.bool))
      end)
    end)

    -- array_ops_test.py: BooleanMaskTest.testMaskHasMoreDimsThanTensorRaises
    it("BooleanMaskTest.testMaskHasMoreDimsThanTensorRaises", function()
      T.raises("ValueError", "incompatible", tf.boolean_mask, { 1, 2, 3, 4 }, { { true, true }, { false, false } })
    end)

    -- array_ops_test.py: BooleanMaskTest.testMaskIsScalarRaises
    it("BooleanMaskTest.testMaskIsScalarRaises", function()
      T.raises("ValueError", "mask cannot be scalar", tf.boolean_mask, 1, true)
    end)

    -- array_ops_test.py: BooleanMaskTest.testMaskShapeDifferentThanFirstPartOfTensorShapeRaises
    it("BooleanMaskTest.testMaskShapeDifferentThanFirstPartOfTensorShapeRaises", function()
      T.raises("ValueError", "incompatible", tf.boolean_mask, { { 1, 2 }, { 3, 4 } }, { true, true, true })
    end)

    -- array_ops_test.py: BooleanMaskTest.testStringMask
    it("BooleanMaskTest.testStringMask", function()
      local func = tf.func(function(tile_input)
        local string_tensor = tf.tile({ { "hello" } }, tile_input)
        local bool_tensor = tf.tile({ { true } }, tile_input)
        return tf.boolean_mask(string_tensor, bool_tensor)
      end)
      T.equal({ "hello", "hello", "hello", "hello" }, func(tf.constant({ 2, 2 })))
    end)

    -- array_ops_test.py: BooleanMaskTest.testMaskWithAxisTensor
    it("BooleanMaskTest.testMaskWithAxisTensor", function()
      local f = tf.func(function()
        return tf.boolean_mask({ 1, 2, 3 }, { true, false, true }, tf.constant(0, tf.int32))
      end, { autograph = false })
      T.equal({ 1, 3 }, f())
    end)

    -- array_ops_test.py: BooleanMaskTest.testMaskWithAxisNonConstTensor
    it("BooleanMaskTest.testMaskWithAxisNonConstTensor", function()
      local f = tf.func(function(axis)
        return tf.boolean_mask({ 1, 2, 3 }, { true, false, true }, axis)
      end, { autograph = false, input_signature = { tf.TensorSpec(nil, tf.int32) } })
      T.equal({ 1, 3 }, f(tf.constant(0, tf.int32)))
    end)
  end)

  -- array_ops_test.py: IdentityTest.testIdentityVariable
  it("IdentityTest.testIdentityVariable", function()
    local v = tf.Variable(1.0)
    local result = tf.identity(v)
    assert.is_true(tf.is_tensor(result))
    T.equal(1.0, result)
  end)

  describe("StopGradientTest", function()
    -- array_ops_test.py: StopGradientTest.testStopGradient
    it("StopGradientTest.testStopGradient", function()
      local x = tf.zeros({ 3 })
      T.equal({ 0.0, 0.0, 0.0 }, tf.stop_gradient(x))
    end)

    -- array_ops_test.py: StopGradientTest.testStopGradientGradientTape
    it("StopGradientTest.testStopGradientGradientTape", function()
      local x = tf.zeros({ 3 })
      local tape = tf.GradientTape()
      tape:watch(x)
      local y = tf.stop_gradient(x)
      tape:stop()
      assert.is_nil(tape:gradient(y, x))
    end)
  end)
end)
