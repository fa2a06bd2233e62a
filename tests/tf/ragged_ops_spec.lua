-- ragged_ops_spec.lua — ops on tf.RaggedTensor against TensorFlow's own
-- tests: tensorflow/python/ops/ragged/ ragged_reduce_op_test.py (the
-- reductions, their axes, keepdims and empty rows), the broadcasting
-- cases of ragged_elementwise_ops_test.py and of the guide "Ragged
-- tensors" (Broadcasting), ragged_tensor_test.py's RaggedTensorSpec parts
-- (construction, printing, input_signature), ragged_tile_op_test.py,
-- ragged_boolean_mask_op_test.py, ragged_stack_op_test.py and
-- ragged_range_op_test.py.
--
-- Translation: values compare through to_list() / numpy(); axes are
-- 0-based as in TF. Left out, argued: int32 row splits (moonflow's
-- RaggedTensors keep int64 ones), graph-mode-only checks of a non-constant
-- axis tensor (a tf.func's traced axis stands for them), uniform_row_length
-- (keepdims on a ragged result gives a ragged dimension of rows of length
-- 1 where TF keeps a uniform one: the values are the same, the static
-- shape says None), tf.map_fn over ragged elems (moonflow's map_fn maps dense tensors).

local tf = tf or require("moonflow")
local T = require("tfhelpers")

local MAX_INT32, MIN_INT32 = 2147483647, -2147483648

local function plain(x)
  if tf.is_tensor(x) then return x:numpy() end
  return x:to_list()
end

describe("ragged_reduce_op_test.py: testReduce", function()
  local rt = { { 3, 1, 4 }, { 1, 5 }, { 9 }, { 2, 6 } }
  local bools = { { true, true }, { true, true, false, true }, { false, true } }
  local r6 = { { 0, 1, 2, 3 }, { 4 }, {}, { 5, 6 }, { 7 }, { 8, 9 } }
  local r2 = { { { 1, 2 }, {}, { 3, 4, 5 } }, { { 6, 7 }, {}, { 8 } }, {}, { { 9 } } }
  local CASES = {
    { "reduce_sum", rt, 0, false, { 15, 12, 4 } },
    { "reduce_sum", rt, -2, false, { 15, 12, 4 } },
    { "reduce_sum", rt, 1, false, { 8, 6, 9, 8 } },
    { "reduce_sum", rt, -1, false, { 8, 6, 9, 8 } },
    { "reduce_prod", rt, 0, false, { 54, 30, 4 } },
    { "reduce_prod", rt, 1, false, { 12, 5, 9, 12 } },
    { "reduce_min", rt, 0, false, { 1, 1, 4 } },
    { "reduce_min", rt, 1, false, { 1, 1, 9, 2 } },
    { "reduce_max", rt, 0, false, { 9, 6, 4 } },
    { "reduce_max", rt, 1, false, { 4, 5, 9, 6 } },
    { "reduce_mean", rt, 0, false, { 3.75, 4, 4 } },
    { "reduce_any", bools, 0, false, { true, true, false, true } },
    { "reduce_any", bools, 1, false, { true, true, true } },
    { "reduce_all", bools, 0, false, { false, true, false, true } },
    { "reduce_all", bools, 1, false, { true, false, false } },
    { "reduce_sum", rt, 0, true, { { 15, 12, 4 } } },
    { "reduce_sum", rt, -2, true, { { 15, 12, 4 } } },
    { "reduce_sum", rt, 1, true, { { 8 }, { 6 }, { 9 }, { 8 } } },
    { "reduce_sum", rt, -1, true, { { 8 }, { 6 }, { 9 }, { 8 } } },
    { "reduce_prod", rt, 0, true, { { 54, 30, 4 } } },
    { "reduce_prod", rt, 1, true, { { 12 }, { 5 }, { 9 }, { 12 } } },
    { "reduce_min", rt, 0, true, { { 1, 1, 4 } } },
    { "reduce_min", rt, 1, true, { { 1 }, { 1 }, { 9 }, { 2 } } },
    { "reduce_max", rt, 0, true, { { 9, 6, 4 } } },
    { "reduce_max", rt, 1, true, { { 4 }, { 5 }, { 9 }, { 6 } } },
    { "reduce_mean", rt, 0, true, { { 3.75, 4, 4 } } },
    { "reduce_any", bools, 0, true, { { true, true, false, true } } },
    { "reduce_any", bools, 1, true, { { true }, { true }, { true } } },
    { "reduce_all", bools, 0, true, { { false, true, false, true } } },
    { "reduce_all", bools, 1, true, { { true }, { false }, { false } } },
    -- axis=None
    { "reduce_sum", r6, nil, false, 45 },
    { "reduce_prod", r6, nil, false, 0 },
    { "reduce_min", r6, nil, false, 0 },
    { "reduce_max", r6, nil, false, 9 },
    { "reduce_mean", r6, nil, false, 4.5 },
    -- axis=0
    { "reduce_sum", r6, 0, false, { 24, 16, 2, 3 } },
    { "reduce_prod", r6, 0, false, { 0, 54, 2, 3 } },
    { "reduce_min", r6, 0, false, { 0, 1, 2, 3 } },
    { "reduce_max", r6, 0, false, { 8, 9, 2, 3 } },
    { "reduce_mean", r6, 0, false, { 4.8, 16 / 3, 2, 3 } },
    -- axis=1: an empty row is the identity (dtype max for min, min for max)
    { "reduce_sum", r6, 1, false, { 6, 4, 0, 11, 7, 17 } },
    { "reduce_prod", r6, 1, false, { 0, 4, 1, 30, 7, 72 } },
    { "reduce_min", r6, 1, false, { 0, 4, MAX_INT32, 5, 7, 8 } },
    { "reduce_max", r6, 1, false, { 3, 4, MIN_INT32, 6, 7, 9 } },
    -- ragged_rank=2
    { "reduce_sum", r2, {}, false, r2 },
    { "reduce_sum", r2, nil, false, 45 },
    { "reduce_sum", r2, 0, false, { { 16, 9 }, {}, { 11, 4, 5 } } },
    { "reduce_sum", r2, 1, false, { { 4, 6, 5 }, { 14, 7 }, {}, { 9 } } },
    { "reduce_sum", r2, 2, false, { { 3, 0, 12 }, { 13, 0, 8 }, {}, { 9 } } },
    { "reduce_sum", r2, { 0, 1 }, false, { 27, 13, 5 } },
    { "reduce_sum", r2, { 0, 2 }, false, { 25, 0, 20 } },
    { "reduce_sum", r2, { 1, 2 }, false, { 15, 21, 0, 9 } },
    { "reduce_sum", r2, { 0, 1, 2 }, false, 45 },
    { "reduce_sum", r2, {}, true, r2 },
    { "reduce_sum", r2, nil, true, { { { 45 } } } },
    { "reduce_sum", r2, 0, true, { { { 16, 9 }, {}, { 11, 4, 5 } } } },
    { "reduce_sum", r2, 1, true, { { { 4, 6, 5 } }, { { 14, 7 } }, { {} }, { { 9 } } } },
    { "reduce_sum", r2, 2, true, { { { 3 }, { 0 }, { 12 } }, { { 13 }, { 0 }, { 8 } }, {}, { { 9 } } } },
    { "reduce_sum", r2, { 0, 1 }, true, { { { 27, 13, 5 } } } },
    { "reduce_sum", r2, { 0, 2 }, true, { { { 25 }, { 0 }, { 20 } } } },
    { "reduce_sum", r2, { 1, 2 }, true, { { { 15 } }, { { 21 } }, { { 0 } }, { { 9 } } } },
    { "reduce_sum", r2, { 0, 1, 2 }, true, { { { 45 } } } },
    { "reduce_sum", r2, { -2, -1 }, false, { 15, 21, 0, 9 } },
    { "reduce_sum", r2, { -3, -2, -1 }, false, 45 },
    -- reduce_mean, ragged_rank=2
    { "reduce_mean", { { { 1, 2 }, { 3, 4, 5 } }, { { 6, 7 }, { 8 } }, { { 9 } } }, 0, false,
      { { 16 / 3, 4.5 }, { 5.5, 4, 5 } } },
    { "reduce_mean", { { { 1, 2 }, { 3, 4, 5 } }, { { 6, 7 }, { 8 } }, { { 9 } } }, 1, false,
      { { 2, 3, 5 }, { 7, 7 }, { 9 } } },
    { "reduce_mean", { { { 1, 2 }, { 3, 4, 5 } }, { { 6, 7 }, { 8 } }, { { 9 } } }, 2, false,
      { { 1.5, 4 }, { 6.5, 8 }, { 9 } } },
  }
  for i, c in ipairs(CASES) do
    local name, input, axis, keepdims, want = c[1], c[2], c[3], c[4], c[5]
    it(("case %d: %s(axis=%s, keepdims=%s)"):format(i, name, type(axis) == "table"
      and "{" .. table.concat(axis, ",") .. "}" or tostring(axis), tostring(keepdims)), function()
      local x = tf.ragged.constant(input)
      local got = plain(tf[name](x, axis, keepdims))
      if type(want) == "table" then T.equal(want, got, 1e-12) else assert.are.equal(want, got) end
      -- tf.math's names dispatch the same way.
      assert.are.same(got, plain(tf.math[name](x, axis, keepdims)))
    end)
  end

  local function variance(...)
    local v, n, m = { ... }, select("#", ...), 0
    if n == 0 then return 0 / 0 end
    for _, x in ipairs(v) do m = m + x / n end
    local s = 0
    for _, x in ipairs(v) do s = s + (x - m) ^ 2 / n end
    return s
  end
  local VARIANCE = {
    { "reduce_variance", { { 3, 1, 4 }, { 1, 1 }, { 9 }, { 2, 1 } }, 0, false, { 9.6875, 0, 0 } },
    { "reduce_std", { { 3, 1, 4 }, { 3, 1 }, { 2 }, { 2, 1 } }, 0, false, { 0.5, 0, 0 } },
    { "reduce_variance", { { 3, 1, 4 }, { 1, 1 }, { 9 }, { 2, 1 } }, 0, true, { { 9.6875, 0, 0 } } },
    { "reduce_variance", r6, nil, false, variance(0, 1, 2, 3, 4, 5, 6, 7, 8, 9) },
    { "reduce_std", r6, nil, false, math.sqrt(variance(0, 1, 2, 3, 4, 5, 6, 7, 8, 9)) },
    { "reduce_variance", { { 0, 1, 2, 3 }, { 1 }, {}, { 2, 1 }, { 3 }, { 4, 1 } }, 0, false,
      { variance(0, 1, 2, 3, 4), variance(1, 1, 1), 0, 0 } },
    { "reduce_variance", { { { 6, 2 }, { 3, 4, 5 } }, { { 6, 7 }, { 8 } }, { { 9 } } }, 1, false,
      { { variance(6, 3), variance(2, 4), 0 }, { variance(6, 8), 0 }, { 0 } } },
    { "reduce_std", { { { 6, 2 }, { 6, 9, 9 } }, { { 6, 7 }, { 8 } }, { { 9 } } }, 2, false,
      { { math.sqrt(variance(6, 2)), math.sqrt(variance(6, 9, 9)) }, { math.sqrt(variance(6, 7)), 0 }, { 0 } } },
  }
  for i, c in ipairs(VARIANCE) do
    it(("variance case %d: tf.math.%s(axis=%s, keepdims=%s)"):format(i, c[1], tostring(c[3]), tostring(c[4])),
      function()
        local got = plain(tf.math[c[1]](tf.ragged.constant(c[2]), c[3], c[4]))
        if type(c[5]) == "table" then T.equal(c[5], got, 1e-9) else assert.is_true(math.abs(c[5] - got) < 1e-9) end
      end)
  end

  it("testVarianceNan: an empty row's variance is nan", function()
    local v = tf.math.reduce_variance(tf.ragged.constant({ { 0, 1, 2, 3 }, { 4 }, {}, { 5, 6 } }), 1):numpy()
    T.equal({ 1.25, 0 }, { v[1], v[2] }, 1e-12)
    assert.is_true(v[3] ~= v[3])
    assert.are.equal(0.25, v[4])
  end)

  it("testReduceKeepsInnerDimensionShape", function()
    local rt4 = tf.ragged.constant({ { { { 1, 1 } } } }, nil, 2)
    assert.are.equal("(1, None, None, 2)", tostring(rt4.shape))
    assert.are.equal("(1, None, 2)", tostring(tf.reduce_sum(rt4, 2).shape))
  end)

  it("testMeanNan: the mean of an empty row is nan, and integers average as float64", function()
    local m = tf.reduce_mean(tf.ragged.constant({ { 0, 1, 2, 3 }, { 4 }, {}, { 5, 6 }, { 7 }, { 8, 9 } }), 1)
    assert.are.equal(tf.float64, m.dtype)
    local v = m:numpy()
    assert.are.same({ 1.5, 4, 5.5, 7, 8.5 }, { v[1], v[2], v[4], v[5], v[6] })
    assert.is_true(v[3] ~= v[3])
  end)

  it("float rows: an empty row's max is the dtype's lowest, its min the highest, as UnsortedSegmentMax", function()
    local x = tf.ragged.constant({ { 1.5, -2.0 }, {} })
    assert.are.equal("tf.Tensor([ 1.5000000e+00 -3.4028235e+38], shape=(2,), dtype=float32)",
      tostring(tf.reduce_max(x, 1)))
    assert.are.equal("tf.Tensor([-2.0000000e+00  3.4028235e+38], shape=(2,), dtype=float32)",
      tostring(tf.reduce_min(x, 1)))
  end)

  it("the guide's reduce_mean over each row prints as TF", function()
    local digits = tf.ragged.constant({ { 3, 1, 4, 1 }, {}, { 5, 9, 2 }, { 6 }, {} })
    assert.are.equal("tf.Tensor([2.25              nan 5.33333333 6.                nan], shape=(5,), "
      .. "dtype=float64)", tostring(tf.reduce_mean(digits, 1)))
  end)

  it("testErrors: axis must be an int, within the rank", function()
    local x = tf.ragged.constant({ { 1, 2, 3 }, { 4, 5 } })
    T.raises("TypeError", "axis must be an int; got str", tf.reduce_sum, x, { "x" })
    T.raises("ValueError", "axis=2 out of bounds: expected -2<=axis<2", tf.reduce_sum, x, 2)
    T.raises("ValueError", "axis=-3 out of bounds: expected -2<=axis<2", tf.reduce_max, x, -3)
    T.raises("ValueError", "axis must be known at graph construction time.", tf.func(function(r, a)
      return tf.reduce_sum(r, a)
    end), x, tf.constant(0))
  end)

  it("a constant axis tensor is read eagerly", function()
    local x = tf.ragged.constant({ { 1, 2, 3 }, { 4, 5 } })
    assert.are.same({ 6, 9 }, tf.reduce_sum(x, tf.constant(1)):numpy())
  end)

  it("traced: a tf.func reduces its RaggedTensor argument, rows of any length", function()
    local f = tf.func(function(r)
      return tf.reduce_sum(r, 1), tf.reduce_max(r, 0), tf.reduce_mean(r), tf.reduce_any(tf.greater(r, 4), 1)
    end)
    local s, m, mean, any = f(tf.ragged.constant({ { 3, 1, 4 }, { 1, 5 }, { 9 }, { 2, 6 } }))
    assert.are.same({ 8, 6, 9, 8 }, s:numpy())
    assert.are.same({ 9, 6, 4 }, m:numpy())
    assert.are.equal(31 / 8, mean:numpy())
    assert.are.same({ false, true, true, true }, any:numpy())
    s = f(tf.ragged.constant({ { 1 }, {}, { 2, 2, 2, 2, 2 }, { 7 } }))
    assert.are.same({ 1, 0, 10, 7 }, s:numpy())
    assert.are.equal(1, T.count(f))
  end)

  it("under a tape: reduce_sum and reduce_max have gradients through the flat values", function()
    local v = tf.Variable({ 1.0, 2.0, 3.0, 4.0 })
    local g, gm
    local tape = tf.GradientTape()
        local r = tf.RaggedTensor.from_row_splits(v * 1, { 0, 3, 3, 4 })
    local loss = tf.reduce_sum(tf.reduce_sum(r, 1) * tf.constant({ 1.0, 2.0, 3.0 }))
    local lmax = tf.reduce_sum(tf.reduce_max(r, 1) * tf.constant({ 1.0, 0.0, 1.0 }))
    tape:stop()
    g = tape:gradient(loss, v)
    assert.are.same({ 1, 1, 1, 3 }, g:numpy())
    local tape2 = tf.GradientTape()
        r = tf.RaggedTensor.from_row_splits(v * 1, { 0, 3, 3, 4 })
    lmax = tf.reduce_sum(tf.reduce_max(r, 1) * tf.constant({ 1.0, 0.0, 1.0 }))
    tape2:stop()
    gm = tape2:gradient(lmax, v)
    assert.are.same({ 0, 0, 1, 1 }, gm:numpy())
  end)
end)

describe("ragged elementwise ops: broadcasting with dense tensors", function()
  it("guide: a scalar, a [nrows, 1] column, a [1, 1] tensor, an inner vector", function()
    local x = tf.ragged.constant({ { 1, 2 }, { 3 } })
    assert.are.equal("<tf.RaggedTensor [[4, 5], [6]]>", tostring(x + 3))
    x = tf.ragged.constant({ { 10, 87, 12 }, { 19, 53 }, { 12, 32 } })
    assert.are.equal("<tf.RaggedTensor [[1010, 1087, 1012], [2019, 2053], [3012, 3032]]>",
      tostring(x + tf.constant({ { 1000 }, { 2000 }, { 3000 } })))
    x = tf.ragged.constant({ { { 1, 2 }, { 3, 4 }, { 5, 6 } }, { { 7, 8 } } }, nil, 1)
    assert.are.equal("<tf.RaggedTensor [[[11, 12], [13, 14], [15, 16]], [[17, 18]]]>",
      tostring(x + tf.constant({ { 10 } })))
    x = tf.ragged.constant({ { { { 1 }, { 2 } }, {}, { { 3 } }, { { 4 } } }, { { { 5 }, { 6 } }, { { 7 } } } }, nil, 2)
    assert.are.equal("<tf.RaggedTensor [[[[11, 21, 31], [12, 22, 32]], [], [[13, 23, 33]], [[14, 24, 34]]], "
      .. "[[[15, 25, 35], [16, 26, 36]], [[17, 27, 37]]]]>", tostring(x + tf.constant({ 10, 20, 30 })))
  end)

  it("a [1] tensor, a tf.constant scalar, dense on the left", function()
    local x = tf.ragged.constant({ { 1, 2 }, { 3 }, {} })
    assert.are.same({ { 6, 7 }, { 8 }, {} }, (x + tf.constant({ 5 })):to_list())
    assert.are.same({ { 2, 4 }, { 6 }, {} }, (x * tf.constant(2)):to_list())
    assert.are.same({ { 9, 8 }, { 17 }, {} }, tf.subtract(tf.constant({ { 10 }, { 20 }, { 30 } }), x):to_list())
    assert.are.same({ { 11, 12 }, { 23 }, {} }, (tf.constant({ { 10 }, { 20 }, { 30 } }) + x):to_list())
  end)

  it("a dense tensor of the ragged's full shape when every row has that length", function()
    local x = tf.ragged.constant({ { 1, 2 }, { 3, 4 } })
    assert.are.same({ { 11, 22 }, { 33, 44 } }, (x + tf.constant({ { 10, 20 }, { 30, 40 } })):to_list())
  end)

  it("guide: incompatible shapes are TF's errors", function()
    local x = tf.ragged.constant({ { 1, 2 }, { 3, 4, 5, 6 }, { 7 } })
    local y = tf.constant({ { 1, 2, 3, 4 }, { 5, 6, 7, 8 }, { 9, 10, 11, 12 } })
    T.raises("InvalidArgumentError", "Unable to broadcast: dimension size mismatch in dimension",
      function() return x + y end)
    T.raises("InvalidArgumentError", "Unable to broadcast: dimension size mismatch in dimension",
      function() return x + tf.constant({ { 1 }, { 2 } }) end)
    T.raises("InvalidArgumentError", "Incompatible shapes",
      function() return tf.ragged.constant({ { { 1, 2 } }, { { 3, 4 } } }, nil, 1) + tf.constant({ 1, 2, 3 }) end)
  end)

  it("traced: broadcasting in a tf.func, rows of any length", function()
    local f = tf.func(function(r, col) return r * col end)
    assert.are.same({ { 2, 4 }, { 9 } }, f(tf.ragged.constant({ { 1, 2 }, { 3 } }), tf.constant({ { 2 }, { 3 } })):to_list())
    assert.are.same({ { 2 }, { 6, 3 } }, f(tf.ragged.constant({ { 1 }, { 2, 1 } }), tf.constant({ { 2 }, { 3 } })):to_list())
    assert.are.equal(1, T.count(f))
  end)

  it("under a tape: the dense operand's gradient sums over each row", function()
    local col = tf.Variable({ { 1.0 }, { 2.0 } })
    local tape = tf.GradientTape()
        local y = tf.ragged.constant({ { 1.0, 2.0 }, { 3.0 } }) * col
    local loss = tf.reduce_sum(y)
    tape:stop()
    assert.are.same({ { 3 }, { 3 } }, tape:gradient(loss, col):numpy())
  end)
end)

describe("ragged_tensor_test.py: RaggedTensorSpec", function()
  it("construction and printing", function()
    assert.are.equal("RaggedTensorSpec(TensorShape([None, None]), tf.float32, 1, tf.int64)",
      tostring(tf.RaggedTensorSpec({ tf.None, tf.None })))
    assert.are.equal("RaggedTensorSpec(TensorShape([None, None, None]), tf.int32, 2, tf.int64)",
      tostring(tf.RaggedTensorSpec({ tf.None, tf.None, tf.None }, tf.int32)))
    assert.are.equal("RaggedTensorSpec(TensorShape([2, None, 3]), tf.string, 1, tf.int32)",
      tostring(tf.RaggedTensorSpec({ 2, tf.None, 3 }, tf.string, 1, tf.int32)))
    local s = tf.RaggedTensorSpec({ tf.None, tf.None }, tf.float32, 1)
    assert.are.equal(tf.float32, s.dtype)
    assert.are.equal(1, s.ragged_rank)
    assert.are.equal(tf.int64, s.row_splits_dtype)
    assert.are.equal("(None, None)", tostring(s.shape))
  end)

  it("testRaggedTensorSpecErrors", function()
    T.raises("ValueError", "must be less than rank (2)", tf.RaggedTensorSpec, { tf.None, tf.None }, tf.float32, 2)
    T.raises("ValueError", "ragged_rank must be non-negative", tf.RaggedTensorSpec, { tf.None, tf.None },
      tf.float32, -1)
    T.raises("ValueError", "row_splits_dtype must be int32 or int64", tf.RaggedTensorSpec, { tf.None, tf.None },
      tf.float32, 1, tf.float32)
  end)

  it("an input_signature of RaggedTensorSpec: one trace for every row length", function()
    local f = tf.func(function(x) return tf.reduce_sum(x, 1) end,
      { input_signature = { tf.RaggedTensorSpec({ tf.None, tf.None }, tf.float32, 1) } })
    assert.are.same({ 3, 3 }, f(tf.ragged.constant({ { 1.0, 2.0 }, { 3.0 } })):numpy())
    assert.are.same({ 0, 6, 1 }, f(tf.ragged.constant({ {}, { 1.0, 2.0, 3.0 }, { 1.0 } })):numpy())
    assert.are.equal(1, T.count(f))
    local sig = f:get_concrete_function():pretty_printed_signature()
    assert.are.equal("Input Parameters:\n  x (POSITIONAL): RaggedTensorSpec(TensorShape([None, None]), tf.float32, 1, "
      .. "tf.int64)\nOutput Type:\n  TensorSpec(shape=(None,), dtype=tf.float32, name=None)", sig)
  end)

  it("a call that does not fit the signature is TF's TypeError", function()
    local f = tf.func(function(x) return x end,
      { input_signature = { tf.RaggedTensorSpec({ tf.None, tf.None }, tf.float32, 1) } })
    T.raises("TypeError", "RaggedTensorSpec(TensorShape([2, None]), tf.int32, 1, tf.int64)", f,
      tf.ragged.constant({ { 1, 2 }, { 3 } }))
    T.raises("TypeError", "Binding inputs to tf.func failed", f, tf.ragged.constant({ { 1, 2 }, { 3 } }))
    T.raises("TypeError", "Can not cast TensorSpec(shape=(1, 1), dtype=tf.float32, name=None) to RaggedTensorSpec",
      f, tf.constant({ { 1.0 } }))
  end)

  it("a shape of unknown rank takes ragged tensors of any rank with that ragged_rank", function()
    local s = tf.RaggedTensorSpec(nil, tf.float32, 1)
    assert.are.equal("RaggedTensorSpec(TensorShape(None), tf.float32, 1, tf.int64)", tostring(s))
    T.raises("ValueError", "Must specify ragged_rank or a shape with a known rank", tf.RaggedTensorSpec, nil)
    local f = tf.func(function(x) return tf.reduce_sum(x) end, { input_signature = { s } })
    assert.are.equal(6, f(tf.ragged.constant({ { 1.0 }, { 2.0, 3.0 } })):numpy())
    assert.are.equal(10, f(tf.ragged.constant({ { { 1.0, 2.0 } }, { { 3.0, 4.0 } } }, nil, 1)):numpy())
    assert.are.equal(1, T.count(f))
  end)

  it("get_concrete_function takes a RaggedTensorSpec", function()
    local f = tf.func(function(x) return x * 2 end)
    local cf = f:get_concrete_function(tf.RaggedTensorSpec({ tf.None, tf.None }, tf.int32))
    assert.are.same({ { 2 }, { 4, 6 } }, cf(tf.ragged.constant({ { 1 }, { 2, 3 } })):to_list())
  end)
end)

describe("RaggedTensor methods moonflow leaves out", function()
  it("to_sparse: moonflow has no SparseTensor, a typed error", function()
    T.raises("AttributeError", "moonflow has no SparseTensor", function()
      return tf.ragged.constant({ { 1 } }):to_sparse()
    end)
  end)
end)

describe("ragged_tile_op_test.py and the guide's tf.tile", function()
  it("guide: tf.tile(digits, {1, 2})", function()
    local digits = tf.ragged.constant({ { 3, 1, 4, 1 }, {}, { 5, 9, 2 }, { 6 }, {} })
    assert.are.equal("<tf.RaggedTensor [[3, 1, 4, 1, 3, 1, 4, 1], [], [5, 9, 2, 5, 9, 2], [6, 6], []]>",
      tostring(tf.tile(digits, { 1, 2 })))
  end)

  it("testTile: every axis, zero multiples, ragged_rank 2 and inner dimensions", function()
    local rt = tf.ragged.constant({ { 1, 2 }, { 3 } })
    assert.are.same({ { 1, 2 }, { 3 }, { 1, 2 }, { 3 } }, tf.tile(rt, { 2, 1 }):to_list())
    assert.are.same({ { 1, 2, 1, 2, 1, 2 }, { 3, 3, 3 } }, tf.tile(rt, { 1, 3 }):to_list())
    assert.are.same({ { 1, 2, 1, 2 }, { 3, 3 }, { 1, 2, 1, 2 }, { 3, 3 } }, tf.tile(rt, tf.constant({ 2, 2 })):to_list())
    assert.are.same({ {}, {} }, tf.tile(rt, { 1, 0 }):to_list())
    assert.are.equal(0, #tf.tile(rt, { 0, 1 }):to_list())
    local r2 = tf.ragged.constant({ { { 1, 2 }, { 3 } }, { { 4 } } })
    assert.are.same({ { { 1, 2 }, { 3 }, { 1, 2 }, { 3 } }, { { 4 }, { 4 } } }, tf.tile(r2, { 1, 2, 1 }):to_list())
    assert.are.same({ { { 1, 2, 1, 2 }, { 3, 3 } }, { { 4, 4 } } }, tf.tile(r2, { 1, 1, 2 }):to_list())
    local ri = tf.ragged.constant({ { { 1, 2 } }, { { 3, 4 }, { 5, 6 } } }, nil, 1)
    assert.are.same({ { { 1, 2, 1, 2 } }, { { 3, 4, 3, 4 }, { 5, 6, 5, 6 } } }, tf.tile(ri, { 1, 1, 2 }):to_list())
  end)

  it("multiples of the wrong length: TF's InvalidArgumentError", function()
    T.raises("InvalidArgumentError", "Expected multiples argument to be a vector of length 2 but got length 3",
      tf.tile, tf.ragged.constant({ { 1 } }), { 1, 2, 3 })
  end)

  it("traced and under a tape", function()
    local f = tf.func(function(r, m) return tf.tile(r, m) end)
    assert.are.same({ { 1, 1 }, {}, { 2, 3, 2, 3 } }, f(tf.ragged.constant({ { 1 }, {}, { 2, 3 } }), tf.constant({ 1, 2 })):to_list())
    local v = tf.Variable({ 1.0, 2.0, 3.0 })
    local tape = tf.GradientTape()
    local r = tf.RaggedTensor.from_row_splits(v * 1, { 0, 2, 3 })
    local loss = tf.reduce_sum(tf.tile(r, { 2, 3 }))
    tape:stop()
    assert.are.same({ 6, 6, 6 }, tape:gradient(loss, v):numpy())
  end)
end)

describe("ragged_boolean_mask_op_test.py", function()
  it("testDocStringExamples", function()
    assert.are.same({ { 1, 3 }, {}, { 7 } }, tf.ragged.boolean_mask({ { 1, 2, 3 }, { 4, 5, 6 }, { 7, 8, 9 } },
      { { true, false, true }, { false, false, false }, { true, false, false } }):to_list())
    assert.are.same({ { 3 }, {}, { 5, 6 } }, tf.ragged.boolean_mask(tf.ragged.constant({ { 1, 2, 3 }, { 4 }, { 5, 6 } }),
      tf.ragged.constant({ { false, false, true }, { false }, { true, true } })):to_list())
    assert.are.same({ { 1, 2, 3 }, { 5, 6 } }, tf.ragged.boolean_mask(tf.ragged.constant({ { 1, 2, 3 }, { 4 }, { 5, 6 } }),
      { true, false, true }):to_list())
  end)

  it("tf.boolean_mask dispatches on a RaggedTensor; ragged_rank 2", function()
    local r = tf.ragged.constant({ { { 1, 2 }, { 3 } }, { { 4, 5, 6 } } })
    local m = tf.ragged.constant({ { { true, false }, { true } }, { { false, true, true } } })
    assert.are.same({ { { 1 }, { 3 } }, { { 5, 6 } } }, tf.boolean_mask(r, m):to_list())
    assert.are.same({ { { 4, 5, 6 } } }, tf.boolean_mask(r, { false, true }):to_list())
  end)

  it("testErrors", function()
    local r = tf.ragged.constant({ { 1, 2, 3 }, { 4 } })
    T.raises("ValueError", "mask cannot be scalar.", tf.ragged.boolean_mask, r, true)
    T.raises("ValueError", "mask must have dtype bool.", tf.ragged.boolean_mask, r, { 1, 0 })
    T.raises("ValueError", "mask.shape.ndims must be less than or equal to data.shape.ndims.",
      tf.ragged.boolean_mask, r, tf.ragged.constant({ { { true } } }))
    T.raises("InvalidArgumentError", "Inputs must have identical ragged splits", tf.ragged.boolean_mask, r,
      tf.ragged.constant({ { true }, { false, true, true } }))
  end)

  it("traced", function()
    local f = tf.func(function(r, m) return tf.boolean_mask(r, m) end)
    assert.are.same({ { 2 }, {} }, f(tf.ragged.constant({ { 1, 2 }, { 3 } }), tf.ragged.constant({ { false, true }, { false } }))
      :to_list())
  end)
end)

describe("ragged_stack_op_test.py", function()
  it("axis 0: each input is one row; axis 1: the i-th rows together; deeper axes", function()
    assert.are.same({ { 1, 2, 3 }, { 4, 5 } }, tf.ragged.stack({ tf.constant({ 1, 2, 3 }), tf.constant({ 4, 5 }) })
      :to_list())
    local a = tf.ragged.constant({ { 1, 2, 3 }, { 4 }, { 5, 6 } })
    assert.are.same({ { { 1, 2, 3 }, { 4 }, { 5, 6 } }, { { 7 }, {} } }, tf.stack({ a, tf.ragged.constant({ { 7 }, {} }) })
      :to_list())
    assert.are.same({ { { 1, 2, 3 }, { 7 } }, { { 4 }, {} }, { { 5, 6 }, { 8 } } },
      tf.stack({ a, tf.ragged.constant({ { 7 }, {}, { 8 } }) }, 1):to_list())
    assert.are.same({ { { 1, 2, 3 }, { 7, 8 } }, { { 4 }, { 9, 0 } } },
      tf.ragged.stack({ tf.ragged.constant({ { 1, 2, 3 }, { 4 } }), tf.constant({ { 7, 8 }, { 9, 0 } }) }, -2):to_list())
    assert.are.same({ { { 1, 5 }, { 2, 6 } }, { { 3, 7 }, { 4, 8 } } },
      tf.ragged.stack({ tf.constant({ { 1, 2 }, { 3, 4 } }), tf.constant({ { 5, 6 }, { 7, 8 } }) }, 2):to_list())
  end)

  it("errors: ranks, axis, row counts", function()
    local a = tf.ragged.constant({ { 1, 2 }, { 3 } })
    T.raises("ValueError", "axis=3 out of bounds: expected -3<=axis<3", tf.ragged.stack, { a, a }, 3)
    T.raises("ValueError", "all inputs must have the same rank", tf.ragged.stack, { a, tf.constant({ 1 }) })
    T.raises("InvalidArgumentError", "must have the same number of rows", tf.ragged.stack,
      { a, tf.ragged.constant({ { 1 } }) }, 1)
  end)

  it("traced", function()
    local f = tf.func(function(x, y) return tf.stack({ x, y }) end)
    assert.are.same({ { { 1 }, { 2, 3 } }, { {} } }, f(tf.ragged.constant({ { 1 }, { 2, 3 } }), tf.ragged.constant({ {} }, tf.int32))
      :to_list())
  end)
end)

describe("ragged_range_op_test.py", function()
  it("testDocStringExamples", function()
    assert.are.same({ { 0, 1, 2 }, { 0, 1, 2, 3, 4 }, { 0, 1 } }, tf.ragged.range({ 3, 5, 2 }):to_list())
    assert.are.same({ { 0, 1, 2 }, {}, { 8, 9, 10, 11 } }, tf.ragged.range({ 0, 5, 8 }, { 3, 3, 12 }):to_list())
    assert.are.same({ { 0, 2 }, {}, { 8, 10 } }, tf.ragged.range({ 0, 5, 8 }, { 3, 3, 12 }, 2):to_list())
  end)

  it("testBasicRanges, negative deltas, empty and broadcast arguments", function()
    assert.are.same({ { 0, 1, 2, 3 }, { 0, 1, 2, 3, 4 } }, tf.ragged.range({ 4, 5 }):to_list())
    assert.are.same({ { 0, 1, 2, 3 }, {}, { 8, 9 } }, tf.ragged.range({ 0, 3, 8 }, { 4, 3, 10 }):to_list())
    assert.are.same({ { 0, 1, 2, 3, 4, 5 }, {}, { 8, 10 }, { 5, 4, 3, 2, 1 } },
      tf.ragged.range({ 0, 3, 8, 5 }, { 6, 3, 12, 0 }, { 1, 1, 2, -1 }):to_list())
    assert.are.same({ { 5, 4, 3 }, { 5, 4, 3, 2 }, {} }, tf.ragged.range(5, { 2, 1, 10 }, -1):to_list())
    assert.are.same({ { 0 } }, tf.ragged.range(1):to_list())
  end)

  it("testFloatRanges and dtypes", function()
    local r = tf.ragged.range({ 0.0, 3.0 }, { 1.0, 4.0 }, 0.5)
    assert.are.equal(tf.float32, r.dtype)
    assert.are.same({ { 0, 0.5 }, { 3, 3.5 } }, r:to_list())
    assert.are.equal(tf.int64, tf.ragged.range({ 2 }, nil, 1, tf.int64).dtype)
  end)

  it("testBadDeltas and shapes", function()
    T.raises("InvalidArgumentError", "Requires delta != 0", tf.ragged.range, { 0, 1 }, { 5, 6 }, { 1, 0 })
    T.raises("ValueError", "must be rank 0 or 1", tf.ragged.range, { { 1 } })
    T.raises("InvalidArgumentError", "starts, limits, and deltas must have the same shape",
      tf.ragged.range, { 0, 1 }, { 1, 2, 3 })
  end)

  it("traced", function()
    local f = tf.func(function(n) return tf.ragged.range(n) end)
    assert.are.same({ { 0 }, {}, { 0, 1 } }, f(tf.constant({ 1, 0, 2 })):to_list())
  end)
end)
