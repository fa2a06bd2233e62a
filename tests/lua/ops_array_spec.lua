-- ops_array_spec.lua — the array ops of issue #17: tf.split, unstack,
-- reverse, gather_nd, scatter_nd, tensor_scatter_nd_update/add,
-- boolean_mask, sort, argsort, math.top_k, math.unsorted_segment_sum,
-- math.cumsum/cumprod; indexing with int64 scalars and matmul of unknown
-- rank. Values are TF's documented examples and cases ported from TF's
-- kernel tests (each names its file and method); every op is also run
-- traced and compared with its eager result, differentiated against finite
-- differences, and fed bad input for TF's error types.
local tf = tf or require("moonflow")
local H = require("helpers")

-- Runs fn eagerly, traced (tf.func over tensor arguments) and traced with
-- the optimiser off, and checks that all give the same values; returns
-- the eager result.
local function same_traced(fn, ...)
  local eager = fn(...)
  local traced = tf.func(fn)(...)
  tf.config.optimizer.set_enabled(false)
  local ok, plain = pcall(tf.func(fn), ...)
  tf.config.optimizer.set_enabled(true)
  assert(ok, plain)
  local function numpy_all(r)
    if tf.is_tensor(r) then return r:numpy() end
    local out = {}
    for i, t in ipairs(r) do out[i] = t:numpy() end
    return out
  end
  assert.are.same(numpy_all(eager), numpy_all(traced))
  assert.are.same(numpy_all(eager), numpy_all(plain))
  return eager
end

-- d(sum(w * fn(x)))/dx by the tape against central differences, float64.
local function gradcheck(fn, x)
  x = tf.constant(x, tf.float64)
  local flat = tf.reshape(x, { -1 }):numpy()
  local y0 = fn(x)
  local w = tf.reshape(tf.range(1, tf.size(y0) + 1, 1, tf.float64) / 7, tf.shape(y0))
  local function objective(t) return tf.reduce_sum(w * fn(t)):numpy() end
  local tape = tf.GradientTape()
  tape:watch(x)
  local loss = tf.reduce_sum(w * fn(x))
  tape:stop()
  local g = tf.reshape(tape:gradient(loss, x), { -1 }):numpy()
  local eps = 1e-6
  for i = 1, #flat do
    local up, down = { table.unpack(flat) }, { table.unpack(flat) }
    up[i], down[i] = flat[i] + eps, flat[i] - eps
    local fu = objective(tf.reshape(tf.constant(up, tf.float64), tf.shape(x)))
    local fd = objective(tf.reshape(tf.constant(down, tf.float64), tf.shape(x)))
    H.close((fu - fd) / (2 * eps), g[i], 1e-5)
  end
end

describe("tf.split", function()
  -- split_op_test.py: SplitOpTest._compare / testSplitRows
  it("splits into num equal parts along axis (Split)", function()
    local x = tf.reshape(tf.range(16), { 4, 4 })
    local parts = same_traced(function(t) return tf.split(t, 4, 1) end, x)
    assert.are.equal(4, #parts)
    H.tensor(parts[1], tf.int32, { 4, 1 }, { { 0 }, { 4 }, { 8 }, { 12 } })
    H.tensor(parts[4], tf.int32, { 4, 1 }, { { 3 }, { 7 }, { 11 }, { 15 } })
    local rows = tf.split(x, 2)
    H.tensor(rows[2], tf.int32, { 2, 4 }, { { 8, 9, 10, 11 }, { 12, 13, 14, 15 } })
  end)

  -- TF's docstring: split(x [5, 30], [4, 15, 11], 1) and split(x, 3, 1)
  it("splits by sizes with a -1 (SplitV), with TF's keyword names", function()
    local x = tf.zeros({ 5, 30 })
    local shapes = {}
    for i, p in ipairs(tf.split(x, { 4, 15, 11 }, 1)) do shapes[i] = p.shape:as_list() end
    assert.are.same({ { 5, 4 }, { 5, 15 }, { 5, 11 } }, shapes)
    local s = tf.split(x, { num_or_size_splits = 3, axis = 1 })
    assert.are.same({ 5, 10 }, s[3].shape:as_list())
    -- split_op_test.py: _testSpecialCasesVariable
    local v = tf.constant({ 1, 2, 3, 4 })
    local a = same_traced(function(t) return tf.split(t, { -1, 3 }) end, v)
    H.tensor(a[1], tf.int32, { 1 }, { 1 })
    H.tensor(a[2], tf.int32, { 3 }, { 2, 3, 4 })
    -- testDegenerateVariable: a -1 may take nothing
    local d = tf.split(v, { 4, -1 })
    H.tensor(d[2], tf.int32, { 0 }, {})
    -- testExplicitNum: a tensor of sizes with num=
    local e = tf.split(tf.range(1, 11), tf.constant({ 2, 2, 6 }), { num = 3 })
    H.tensor(e[3], tf.int32, { 6 }, { 5, 6, 7, 8, 9, 10 })
  end)

  it("raises TF's errors", function()
    -- testShapeFunctionEdgeCases: num does not divide the dimension
    H.raises("InvalidArgumentError", "should evenly divide", tf.split, tf.constant({ 0, 1, 2, 3 }), 3)
    H.raises("InvalidArgumentError", "split_dim", tf.split, tf.constant({ { 0, 1 }, { 2, 3 } }), 2, 2)
    -- testBadSplitSizes, testNegativeSizes
    H.raises("InvalidArgumentError", "Determined shape must either match input", tf.split,
      tf.constant({ 1.0, 2.0 }), { 1, 2 })
    H.raises("InvalidArgumentError", "Split size at index 1 must be >= 0. Got: -2", tf.split,
      tf.constant({ 1.0, 2.0, 3.0 }), { -1, -2 })
    -- testFailWithoutExplicitNum
    local f = tf.func(function(s) return tf.split(tf.range(10), s) end,
      { input_signature = { tf.TensorSpec({ tf.None }, tf.int32) } })
    H.raises("ValueError", "Cannot infer argument `num` from shape", f, tf.constant({ 2, 8 }))
  end)

  it("has a gradient (the parts concatenated)", function()
    gradcheck(function(x) return tf.split(x, { 1, 3 }, 1)[2] * 2 + 0 end, { { 1, 2, 3, 4 }, { 5, 6, 7, 8 } })
    gradcheck(function(x)
      local p = tf.split(x, 2, 0)
      return p[1] * p[2]
    end, { { 1, 2 }, { 3, 4 } })
  end)
end)

describe("tf.unstack", function()
  -- unstack_op_test.py: testSimple / testAxis0Default / testAxisOutOfRange
  it("is Unpack with num and axis, and TF's ValueErrors", function()
    local x = tf.constant({ { 1, 2, 3 }, { 4, 5, 6 } })
    local cols = same_traced(function(t) return tf.unstack(t, { axis = 1 }) end, x)
    assert.are.equal(3, #cols)
    H.tensor(cols[2], tf.int32, { 2 }, { 2, 5 })
    local rows = tf.unstack(x, 2)
    H.tensor(rows[2], tf.int32, { 3 }, { 4, 5, 6 })
    H.raises("ValueError", "Argument `axis` = 2 not in range [-2, 2)", tf.unstack, x, { axis = 2 })
    H.raises("ValueError", "Argument `axis` = 0 not in range [0, 0)", tf.unstack, tf.constant(1))
    H.raises("InvalidArgumentError", nil, tf.unstack, x, 3)
    local f = tf.func(function(t) return tf.unstack(t) end,
      { input_signature = { tf.TensorSpec({ tf.None, 3 }, tf.int32) } })
    H.raises("ValueError", "Cannot infer argument `num` from shape (None, 3)", f, x)
  end)
end)

describe("tf.reverse", function()
  -- TF's docstring of tf.reverse (ReverseV2)
  it("reverses the listed axes", function()
    local t = tf.reshape(tf.range(24), { 1, 2, 3, 4 })
    local r = same_traced(function(x) return tf.reverse(x, { 3 }) end, t)
    H.tensor(r, tf.int32, { 1, 2, 3, 4 }, { { { { 3, 2, 1, 0 }, { 7, 6, 5, 4 }, { 11, 10, 9, 8 } },
      { { 15, 14, 13, 12 }, { 19, 18, 17, 16 }, { 23, 22, 21, 20 } } } })
    H.tensor(tf.reverse(t, { 1 }), tf.int32, { 1, 2, 3, 4 }, { { { { 12, 13, 14, 15 }, { 16, 17, 18, 19 },
      { 20, 21, 22, 23 } }, { { 0, 1, 2, 3 }, { 4, 5, 6, 7 }, { 8, 9, 10, 11 } } } })
    H.tensor(tf.reverse(tf.constant({ { 1, 2 }, { 3, 4 } }), { -1, 0 }), tf.int32, { 2, 2 }, { { 4, 3 }, { 2, 1 } })
    H.tensor(tf.reverse(tf.constant({ "a", "b" }), { 0 }), tf.string, { 2 }, { "b", "a" })
    H.tensor(tf.reverse(tf.constant(5), {}), tf.int32, {}, 5)
  end)

  it("checks its axes and has a gradient", function()
    H.raises("InvalidArgumentError", "is out of valid range", tf.reverse, tf.constant({ 1, 2 }), { 1 })
    H.raises("InvalidArgumentError", "specified more than once", tf.reverse, tf.constant({ { 1 } }), { 0, -2 })
    gradcheck(function(x) return tf.reverse(x, { 1 }) * x end, { { 1, 2, 3 }, { 4, 5, 6 } })
  end)
end)

describe("tf.gather_nd", function()
  -- TF's docstring of tf.gather_nd; gather_nd_op_test.py: testSimpleDtype, testHigherRankParams
  it("gathers elements and slices by index tuples", function()
    local p = tf.constant({ { "a", "b" }, { "c", "d" } })
    H.tensor(tf.gather_nd(p, { { 0, 0 }, { 1, 1 } }), tf.string, { 2 }, { "a", "d" })
    H.tensor(tf.gather_nd(p, { { 1 }, { 0 } }), tf.string, { 2, 2 }, { { "c", "d" }, { "a", "b" } })
    local p3 = tf.constant({ { { 1, 2 }, { 3, 4 } }, { { 5, 6 }, { 7, 8 } } })
    local r = same_traced(function(x, i) return tf.gather_nd(x, i) end, p3,
      tf.constant({ { { 0, 1 } }, { { 1, 0 } } }))
    H.tensor(r, tf.int32, { 2, 1, 2 }, { { { 3, 4 } }, { { 5, 6 } } })
    H.tensor(tf.gather_nd(tf.constant({ 8, 1, 2, 3, 7, 5 }), tf.constant({ 4, 0 }, nil, { 2, 1 })),
      tf.int32, { 2 }, { 7, 8 })
    H.tensor(tf.gather_nd(p3, tf.zeros({ 0, 2 }, tf.int64)), tf.int32, { 0, 2 }, {})
  end)

  -- gather_nd_op_test.py: testIndexScalar, testEmptyIndicesLastRankMeansCopyEntireTensor,
  -- testEmptyIndicesAndParamsOKButJustEmptyParamsFails, testGradientsRank3Elements
  it("handles scalar results, empty tuples, empty params; its gradient adds up", function()
    local params = tf.transpose(tf.constant({ { -8, -1, -2, -3, -7, -5 }, { 8, 1, 2, 3, 7, 5 } }, tf.float32))
    H.tensor(tf.gather_nd(params, tf.constant({ 4, 1 })), tf.float32, {}, 7)
    local whole = tf.gather_nd(tf.constant({ { 1, 2 }, { 3, 4 } }), tf.zeros({ 2, 0 }, tf.int32))
    H.tensor(whole, tf.int32, { 2, 2, 2 }, { { { 1, 2 }, { 3, 4 } }, { { 1, 2 }, { 3, 4 } } })
    H.tensor(tf.gather_nd(tf.ones({ 3, 3 }), tf.zeros({ 0, 1 }, tf.int32)), tf.float32, { 0, 3 })
    H.tensor(tf.gather_nd(tf.zeros({ 0, 3 }), tf.zeros({ 0, 2 }, tf.int32)), tf.float32, { 0 }, {})
    H.raises("InvalidArgumentError", "Requested more than 0 entries, but params is empty.", tf.gather_nd,
      tf.zeros({ 0, 3 }), tf.zeros({ 1, 2 }, tf.int32))
    local inputs = tf.constant({ { { 1, 3 }, { 5, 7 } }, { { 2, 4 }, { 6, 8 } } }, tf.float64)
    local tape = tf.GradientTape()
    tape:watch(inputs)
    local out = tf.gather_nd(inputs, tf.constant({ { { 0, 1 }, { 1, 0 } }, { { 0, 0 }, { 1, 1 } } }, tf.int64))
    local loss = tf.reduce_sum(out * tf.constant({ { { 1, 2 }, { 3, 4 } }, { { 5, 6 }, { 7, 8 } } }, tf.float64))
    tape:stop()
    H.tensor(tape:gradient(loss, inputs), tf.float64, { 2, 2, 2 }, { { { 5, 6 }, { 1, 2 } }, { { 3, 4 }, { 7, 8 } } })
  end)

  it("takes batch_dims (TF's docstring)", function()
    local p = tf.constant({ { { 1, 2 }, { 3, 4 } }, { { 5, 6 }, { 7, 8 } } })
    H.tensor(tf.gather_nd(p, { { 1 }, { 0 } }, { batch_dims = 1 }), tf.int32, { 2, 2 }, { { 3, 4 }, { 5, 6 } })
    H.tensor(tf.gather_nd(p, { { 1, 0 }, { 0, 1 } }, 1), tf.int32, { 2 }, { 3, 6 })
  end)

  it("raises InvalidArgumentError for bad indices (testBadIndicesCPU)", function()
    H.raises("InvalidArgumentError", "indices[0,1] = [7] does not index into param shape [3]", tf.gather_nd,
      tf.constant({ 0, 1, 2 }), tf.constant({ { { 0 }, { 7 } } }))
    H.raises("InvalidArgumentError", "index innermost dimension length must be <= params rank; saw: 3 vs. 1",
      tf.gather_nd, tf.constant({ 0, 1, 2 }), tf.constant({ { 0, 0, 0 } }))
    H.raises("InvalidArgumentError", "params must be at least a vector", tf.gather_nd, tf.constant(1),
      tf.constant({ 0 }))
  end)

  it("has a gradient (a scatter_nd of the incoming gradient)", function()
    gradcheck(function(x) return tf.gather_nd(x, { { 0, 1 }, { 1, 2 }, { 0, 1 } }) end, { { 1, 2, 3 }, { 4, 5, 6 } })
    gradcheck(function(x) return tf.gather_nd(x, { { 1 }, { 1 } }) end, { { 1, 2 }, { 3, 4 } })
    gradcheck(function(x) return tf.gather_nd(x, { { 1, 0 }, { 0, 1 } }, { batch_dims = 1 }) end,
      { { { 1, 2 }, { 3, 4 } }, { { 5, 6 }, { 7, 8 } } })
  end)
end)

describe("tf.scatter_nd and tf.tensor_scatter_nd_update/add", function()
  -- TF's docstring of tf.scatter_nd; scatter_nd_ops_test.py: ScatterNdTest.testRank3ValidShape
  it("scatter_nd sums updates into zeros of shape", function()
    local r = same_traced(function(i, u) return tf.scatter_nd(i, u, { 8 }) end,
      tf.constant({ { 4 }, { 3 }, { 1 }, { 7 } }), tf.constant({ 9, 10, 11, 12 }))
    H.tensor(r, tf.int32, { 8 }, { 0, 11, 0, 10, 9, 0, 0, 12 })
    local rows = tf.scatter_nd({ { 0 }, { 2 } }, tf.constant({ { 5.0, 5.0 }, { 6.0, 6.0 } }), { 3, 2 })
    H.tensor(rows, tf.float32, { 3, 2 }, { { 5, 5 }, { 0, 0 }, { 6, 6 } })
    -- duplicates add up (ScatterNdTest.testScatterNdRepeatedIndicesAdd)
    H.tensor(tf.scatter_nd({ { 1 }, { 1 } }, tf.constant({ 2.5, 1.0 }), { 2 }), tf.float32, { 2 }, { 0, 3.5 })
    H.raises("InvalidArgumentError", "indices[1] = [8] does not index into shape [8]", tf.scatter_nd,
      tf.constant({ { 4 }, { 8 } }), tf.constant({ 1, 2 }), { 8 })
    H.raises("InvalidArgumentError", "must match dimensions", tf.scatter_nd, tf.constant({ { 4 }, { 3 } }),
      tf.constant({ 1, 2, 3 }), { 8 })
  end)

  -- TF's docstrings of tf.tensor_scatter_nd_update and tf.tensor_scatter_nd_add
  it("tensor_scatter_nd_update replaces and tensor_scatter_nd_add adds", function()
    local t = tf.constant({ 1, 2, 3, 4, 5, 6, 7, 8 })
    local idx, upd = tf.constant({ { 4 }, { 3 }, { 1 }, { 7 } }), tf.constant({ 9, 10, 11, 12 })
    H.tensor(same_traced(function(a, b, c) return tf.tensor_scatter_nd_update(a, b, c) end, t, idx, upd),
      tf.int32, { 8 }, { 1, 11, 3, 10, 9, 6, 7, 12 })
    H.tensor(same_traced(function(a, b, c) return tf.tensor_scatter_nd_add(a, b, c) end, t, idx, upd),
      tf.int32, { 8 }, { 1, 13, 3, 14, 14, 6, 7, 20 })
    -- indices of any outer rank: [2, 1, 2] into a matrix
    local m = tf.zeros({ 2, 3 })
    H.tensor(tf.tensor_scatter_nd_update(m, { { { 0, 2 } }, { { 1, 0 } } }, tf.constant({ { 7.0 }, { 8.0 } })),
      tf.float32, { 2, 3 }, { { 0, 0, 7 }, { 8, 0, 0 } })
    H.raises("InvalidArgumentError", "indices[0] = [5] does not index into shape [4]",
      tf.tensor_scatter_nd_update, tf.zeros({ 4 }), { { 5 } }, tf.constant({ 1.0 }))
    H.raises("InvalidArgumentError", nil, tf.tensor_scatter_nd_add, tf.zeros({ 4 }), { { 1 } },
      tf.constant({ 1 }))
  end)

  -- array_ops_test.cc: TensorScatterUpdate_ShapeFn; scatter_nd_ops_test.py:
  -- ScatterNdTest.testEmptyOutputShape1
  it("check shapes with TF's messages", function()
    H.raises("InvalidArgumentError", "Shape must be at least rank 1 but is rank 0", tf.tensor_scatter_nd_update,
      tf.constant(1.0), tf.zeros({ 1, 0 }, tf.int32), tf.constant({ 2.0 }))
    H.raises("InvalidArgumentError", "Indices and updates specified for empty input", tf.tensor_scatter_nd_update,
      tf.zeros({ 0, 2, 2 }), tf.zeros({ 8, 2 }, tf.int32), tf.zeros({ 8 }))
    H.raises("InvalidArgumentError", "Dimensions [0,1) of indices[shape=[8,2]] = [8] must match dimensions [0,1) "
      .. "of updates[shape=[9]] = [9]", tf.tensor_scatter_nd_update, tf.zeros({ 3, 3 }), tf.zeros({ 8, 2 }, tf.int32),
      tf.zeros({ 9 }))
    H.raises("InvalidArgumentError", "Dimensions [2,2) of input[shape=[3,3]] = [] must match dimensions [1,2) "
      .. "of updates[shape=[4,1]] = [1]", tf.tensor_scatter_nd_update, tf.zeros({ 3, 3 }), tf.zeros({ 4, 2 }, tf.int32),
      tf.zeros({ 4, 1 }))
    H.raises("InvalidArgumentError", "Indices and updates specified for empty output shape", tf.scatter_nd,
      tf.zeros({ 2, 2, 2 }, tf.int32), tf.zeros({ 2, 2, 2 }, tf.int32), { 0, 3, 2 })
  end)

  it("have gradients", function()
    gradcheck(function(u) return tf.scatter_nd({ { 2 }, { 0 }, { 2 } }, u, { 3 }) end, { 1, 2, 3 })
    gradcheck(function(t) return tf.tensor_scatter_nd_update(t * t, { { 1 } }, tf.constant({ 0.5 }, tf.float64)) end,
      { 1, 2, 3 })
    gradcheck(function(u) return tf.tensor_scatter_nd_update(tf.zeros({ 2, 2 }, tf.float64), { { 1, 0 } }, u * u) end,
      { 3 })
    gradcheck(function(t) return tf.tensor_scatter_nd_add(t, { { 1 }, { 1 } }, t["0:2"] * 3) end, { 1, 2, 3 })
  end)
end)

describe("tf.boolean_mask", function()
  -- TF's docstring of tf.boolean_mask
  it("keeps the rows where the mask is true, as TF composes it", function()
    H.tensor(tf.boolean_mask(tf.constant({ 0, 1, 2, 3 }), tf.constant({ true, false, true, false })),
      tf.int32, { 2 }, { 0, 2 })
    local t = tf.constant({ { 1, 2 }, { 3, 4 }, { 5, 6 } })
    H.tensor(same_traced(function(x, m) return tf.boolean_mask(x, m) end, t, tf.constant({ true, false, true })),
      tf.int32, { 2, 2 }, { { 1, 2 }, { 5, 6 } })
    H.tensor(tf.boolean_mask(t, { false, true }, { axis = 1 }), tf.int32, { 3, 1 }, { { 2 }, { 4 }, { 6 } })
    H.tensor(tf.boolean_mask(t, { { true, false }, { false, true }, { true, true } }), tf.int32, { 4 }, { 1, 4, 5, 6 })
    local types = H.op_types(tf.func(function(x, m) return tf.boolean_mask(x, m) end)
      :get_concrete_function(t, tf.constant({ true, false, true })))
    local seen = {}
    for _, ty in ipairs(types) do seen[ty] = true end
    assert.is_true(seen.Where and seen.GatherV2 and seen.Reshape, table.concat(types, " "))
  end)

  it("raises TF's ValueErrors and has a gradient", function()
    H.raises("ValueError", "mask cannot be scalar", tf.boolean_mask, tf.constant({ 1 }), tf.constant(true))
    H.raises({ "ValueError", "InvalidArgumentError" }, nil, tf.boolean_mask, tf.constant({ 1, 2 }),
      tf.constant({ true, false, true }))
    gradcheck(function(x) return tf.boolean_mask(x, { true, false, true }) end, { 1, 2, 3 })
  end)
end)

describe("tf.sort, tf.argsort, tf.math.top_k", function()
  -- TF's docstrings of tf.sort and tf.argsort
  it("sort ascending and descending along an axis", function()
    local a = tf.constant({ 1, 10, 26.9, 2.8, 166.32, 62.3 })
    H.tensor_close(same_traced(function(x) return tf.sort(x) end, a), tf.float32, { 6 },
      { 1, 2.8, 10, 26.9, 62.3, 166.32 })
    H.tensor_close(tf.sort(a, { direction = "DESCENDING" }), tf.float32, { 6 }, { 166.32, 62.3, 26.9, 10, 2.8, 1 })
    local mat = tf.constant({ { 3, 2, 1 }, { 2, 1, 3 }, { 1, 3, 2 } })
    H.tensor(tf.sort(mat, -1), tf.int32, { 3, 3 }, { { 1, 2, 3 }, { 1, 2, 3 }, { 1, 2, 3 } })
    H.tensor(same_traced(function(x) return tf.sort(x, 0) end, mat), tf.int32, { 3, 3 },
      { { 1, 1, 1 }, { 2, 2, 2 }, { 3, 3, 3 } })
    -- the integer trick (-x - 1) keeps the most negative value
    H.tensor(tf.sort(tf.constant({ 3, -2147483647 - 1, 0 })), tf.int32, { 3 }, { -2147483648, 0, 3 })
    H.raises("ValueError", "Argument `direction` should be one of", tf.sort, a, { direction = "UP" })
  end)

  it("argsort gives positions, ties in order (stable)", function()
    local a = tf.constant({ 1, 10, 26.9, 2.8, 166.32, 62.3 })
    H.tensor(same_traced(function(x) return tf.argsort(x) end, a), tf.int32, { 6 }, { 0, 3, 1, 2, 5, 4 })
    H.tensor(tf.argsort(a, { direction = "DESCENDING" }), tf.int32, { 6 }, { 4, 5, 2, 1, 3, 0 })
    H.tensor(tf.argsort(tf.constant({ 2, 1, 2, 1 }), { stable = true }), tf.int32, { 4 }, { 1, 3, 0, 2 })
    H.tensor(tf.argsort(tf.constant({ 2, 1, 2, 1 }), -1, "DESCENDING"), tf.int32, { 4 }, { 0, 2, 1, 3 })
  end)

  -- TF's docstring of tf.math.top_k; topk_op_test.py: TopKTest.testTop3 / testStableSort
  it("top_k returns values and int32 indices, ties lower index first", function()
    local r = same_traced(function(x)
      local v, i = tf.math.top_k(x, 3)
      return { v, i }
    end, tf.constant({ 1, 2, 98, 1, 1, 99, 3, 1, 3, 96, 4, 1 }))
    H.tensor(r[1], tf.int32, { 3 }, { 99, 98, 96 })
    H.tensor(r[2], tf.int32, { 3 }, { 5, 2, 9 })
    local v, i = tf.math.top_k(tf.constant({ { 0.1, 0.3, 0.2, 0.3 }, { 0.3, 0.1, 0.3, 0.2 } }), { k = 2 })
    H.tensor_close(v, tf.float32, { 2, 2 }, { { 0.3, 0.3 }, { 0.3, 0.3 } })
    H.tensor(i, tf.int32, { 2, 2 }, { { 1, 3 }, { 0, 2 } })
    local v1 = tf.math.top_k(tf.constant({ 5.0, 7.0 }))
    H.tensor(v1, tf.float32, { 1 }, { 7 })
    H.raises("InvalidArgumentError", "input must have at least k columns. Had 2, needed 3", tf.math.top_k,
      tf.constant({ 1, 2 }), 3)
    H.raises("InvalidArgumentError", "Need k >= 0, got -1", tf.math.top_k, tf.constant({ 1, 2 }), -1)
    H.raises("InvalidArgumentError", "input must be >= 1-D", tf.math.top_k, tf.constant(1), 1)
  end)

  it("have gradients", function()
    gradcheck(function(x) return (tf.math.top_k(x, 2)) end, { { 0.3, 0.9, 0.1 }, { 0.5, 0.2, 0.4 } })
    gradcheck(function(x) return tf.sort(x, 0) end, { { 0.3, 0.9 }, { 0.1, 0.5 } })
    gradcheck(function(x) return tf.sort(x, { direction = "DESCENDING" }) end, { 0.3, -0.9, 0.1 })
  end)
end)

describe("tf.math.cumsum and tf.math.cumprod", function()
  -- TF's docstring of tf.math.cumsum
  it("cumsum with axis, exclusive and reverse", function()
    H.tensor(same_traced(function(x) return tf.math.cumsum(x) end, tf.constant({ 2, 4, 6, 8 })),
      tf.int32, { 4 }, { 2, 6, 12, 20 })
    local x = tf.constant({ { 2, 4, 6, 8 }, { 1, 3, 5, 7 } })
    H.tensor(tf.math.cumsum(x, 0), tf.int32, { 2, 4 }, { { 2, 4, 6, 8 }, { 3, 7, 11, 15 } })
    H.tensor(tf.math.cumsum(x, { axis = 1 }), tf.int32, { 2, 4 }, { { 2, 6, 12, 20 }, { 1, 4, 9, 16 } })
    local v = tf.constant({ 2, 4, 6, 8 })
    H.tensor(tf.math.cumsum(v, { exclusive = true }), tf.int32, { 4 }, { 0, 2, 6, 12 })
    H.tensor(tf.math.cumsum(v, { reverse = true }), tf.int32, { 4 }, { 20, 18, 14, 8 })
    H.tensor(same_traced(function(t) return tf.math.cumsum(t, 0, true, true) end, v), tf.int32, { 4 },
      { 18, 14, 8, 0 })
    assert.are.equal(tf.math.cumsum, tf.cumsum)
    H.raises("InvalidArgumentError", "axis in the range [-1, 1)", tf.math.cumsum, v, 1)
  end)

  -- TF's docstring of tf.math.cumprod
  it("cumprod with exclusive and reverse", function()
    local v = tf.constant({ 2.0, 3.0, 4.0 })
    H.tensor(tf.math.cumprod(v), tf.float32, { 3 }, { 2, 6, 24 })
    H.tensor(tf.math.cumprod(v, { exclusive = true }), tf.float32, { 3 }, { 1, 2, 6 })
    H.tensor(tf.math.cumprod(v, { reverse = true }), tf.float32, { 3 }, { 24, 12, 4 })
    H.tensor(same_traced(function(t) return tf.math.cumprod(t, { exclusive = true, reverse = true }) end, v),
      tf.float32, { 3 }, { 12, 4, 1 })
  end)

  it("have gradients", function()
    for _, ex in ipairs({ false, true }) do
      for _, rev in ipairs({ false, true }) do
        gradcheck(function(x) return tf.math.cumsum(x, 1, ex, rev) end, { { 1, 2, 3 }, { 4, 5, 6 } })
        gradcheck(function(x) return tf.math.cumprod(x, 0, ex, rev) end, { { 1.5, 2 }, { -0.5, 3 }, { 2, 0.7 } })
      end
    end
  end)
end)

describe("edge cases ported from TF's tests", function()
  -- split_op_test.py: testOutputShape — parts keep the unknown dimensions
  it("split's parts have the inferred static shapes", function()
    local seen = {}
    local f = tf.func(function(x)
      for i, p in ipairs(tf.split(x, { 3, 7, 2 }, -1)) do seen[i] = p.shape:as_list() end
      return x
    end)
    f:get_concrete_function(tf.TensorSpec({ tf.None, 12 }, tf.float32))
    assert.are.same({ { tf.None, 3 }, { tf.None, 7 }, { tf.None, 2 } }, seen)
  end)

  -- scan_ops_test.py: CumsumTest.testEmpty, testAxisType, testInvalidAxis
  it("cumsum of empty tensors, int64 axes, axes out of range", function()
    H.tensor(tf.math.cumsum(tf.zeros({ 0, 3 }), 1), tf.float32, { 0, 3 })
    H.tensor(tf.math.cumsum(tf.constant({ 1, 2 }), tf.constant(0, tf.int64)), tf.int32, { 2 }, { 1, 3 })
    H.raises("InvalidArgumentError", "ScanOp: Expected scan axis in the range [-1, 1), but got -2",
      tf.math.cumsum, tf.constant({ 1 }), -2)
    H.raises("InvalidArgumentError", "ScanOp: axis must be a scalar", tf.math.cumsum, tf.constant({ 1 }), { 0 })
  end)

  -- topk_op_test.py: TopKTest.testKNegative / testTopAll; empty rows
  it("top_k of k = 0 and of every column", function()
    local v, i = tf.math.top_k(tf.zeros({ 2, 0 }), 0)
    H.tensor(v, tf.float32, { 2, 0 })
    H.tensor(i, tf.int32, { 2, 0 })
    local _, all = tf.math.top_k(tf.constant({ 2.0, 2.0, 5.0, -1.0 }), 4)
    H.tensor(all, tf.int32, { 4 }, { 2, 0, 1, 3 })
  end)

  -- TF's CPU kernel orders NaN by position (tensorflow/tensorflow#117287);
  -- moonflow ranks it above every number, as TF under XLA does, so tf.sort
  -- (the negation sorted descending) puts it first either way.
  it("NaN ranks above every number", function()
    local nan = 0 / 0
    local _, i = tf.math.top_k(tf.constant({ 1.0, 2.0, 3.0, nan }), 3)
    H.tensor(i, tf.int32, { 3 }, { 3, 2, 1 })
    H.tensor(tf.argsort(tf.constant({ 3.0, nan, 1.0 })), tf.int32, { 3 }, { 1, 2, 0 })
  end)

  -- array_ops_test.py: ReverseV2Test.testReverse0DimAuto / testReverseRowsOf3Channels
  it("reverse of strings, empty axes and int64 axes", function()
    H.tensor(tf.reverse(tf.constant({ { "a", "b" }, { "c", "d" } }), tf.constant({ 1 }, tf.int64)), tf.string,
      { 2, 2 }, { { "b", "a" }, { "d", "c" } })
    H.tensor(tf.reverse(tf.constant({ 1, 2 }), {}), tf.int32, { 2 }, { 1, 2 })
  end)
end)

describe("tf.math.unsorted_segment_sum", function()
  -- TF's docstring of tf.math.unsorted_segment_sum
  it("sums rows per segment; negative ids are dropped, also in the gradient", function()
    local c = tf.constant({ { 1, 2, 3, 4 }, { 5, 6, 7, 8 }, { 4, 3, 2, 1 } })
    H.tensor(same_traced(function(x) return tf.math.unsorted_segment_sum(x, { 0, 1, 0 }, { num_segments = 2 }) end, c),
      tf.int32, { 2, 4 }, { { 5, 5, 5, 5 }, { 5, 6, 7, 8 } })
    gradcheck(function(x) return tf.math.unsorted_segment_sum(x, { 1, -1, 1, 0 }, 2) end, { 1, 2, 3, 4 })
  end)
end)

describe("indexing and matmul fixes", function()
  it("indexes with an int64 scalar tensor", function()
    H.tensor(tf.constant({ 10, 20, 30 })[tf.constant(1, tf.int64)], tf.int32, {}, 20)
    H.tensor(tf.constant({ 10, 20, 30 })[tf.constant(-1, tf.int64)], tf.int32, {}, 30)
    local f = tf.func(function(x, i) return x[i] end)
    H.tensor(f(tf.constant({ { 1, 2 }, { 3, 4 } }), tf.constant(1, tf.int64)), tf.int32, { 2 }, { 3, 4 })
  end)

  it("matmul of unknown rank is BatchMatMulV2", function()
    local g = tf.func(function(a, b) return tf.matmul(a, b) end, { input_signature = {
      tf.TensorSpec(nil, tf.float32), tf.TensorSpec(nil, tf.float32) } })
    local r = g(tf.ones({ 2, 2, 3 }), tf.ones({ 2, 3, 2 }))
    H.tensor(r, tf.float32, { 2, 2, 2 }, { { { 3, 3 }, { 3, 3 } }, { { 3, 3 }, { 3, 3 } } })
    local types = H.op_types(g:get_concrete_function(tf.TensorSpec(nil, tf.float32), tf.TensorSpec(nil, tf.float32)))
    assert.is_truthy(table.concat(types, " "):find("BatchMatMulV2", 1, true))
    H.tensor(g(tf.ones({ 2, 3 }), tf.ones({ 3, 1 })), tf.float32, { 2, 1 }, { { 3 }, { 3 } })
  end)
end)

describe("the new ops", function()
  it("have docstrings and fold as constants in traced functions", function()
    for _, name in ipairs({ "split", "reverse", "gather_nd", "scatter_nd", "tensor_scatter_nd_update",
      "tensor_scatter_nd_add", "boolean_mask", "sort", "argsort" }) do
      assert.is_truthy(tf.help(tf[name]):find("tf." .. name, 1, true), name)
    end
    for _, name in ipairs({ "top_k", "cumsum", "cumprod", "unsorted_segment_sum" }) do
      assert.is_truthy(tf.help(tf.math[name]):find("tf.math." .. name, 1, true), name)
    end
    local f = tf.func(function()
      return tf.math.cumsum(tf.reverse(tf.constant({ 1, 2, 3 }), { 0 }))
    end)
    H.tensor(f(), tf.int32, { 3 }, { 3, 5, 6 })
    local opt = f:get_concrete_function():optimized_graph()
    local kinds = {}
    for _, o in ipairs(opt:get_operations()) do kinds[#kinds + 1] = o.type end
    assert.is_nil(table.concat(kinds, " "):find("Cumsum", 1, true), table.concat(kinds, " "))
  end)
end)

describe("bad arguments to the new ops", function()
  -- The sweep of errors_spec.lua ("bad arguments to the public functions")
  -- over this file's functions: only moonflow error objects, never a raw
  -- Lua error or a crash.
  local bad = {
    { n = 0 }, { n = 1, "x" }, { n = 1, -1 }, { n = 1, 1.5 }, { n = 1, true }, { n = 1, function() end },
    { n = 1, { 1, { 2 } } }, { n = 2, tf.constant(1), "x" }, { n = 2, tf.constant({ 1, 2 }), { 1, 2, 3 } },
    { n = 2, tf.constant("s"), tf.constant("s") }, { n = 2, tf.zeros({ 2, 2 }), tf.zeros({ 3, 3 }) },
    { n = 2, tf.zeros({ 2, 2 }), -5 }, { n = 2, tf.zeros({ 2, 2 }), 99 }, { n = 2, tf.zeros({ 2, 2 }), { axis = 7 } },
    { n = 2, tf.zeros({ 2, 2 }), 2.5 }, { n = 3, tf.zeros({ 2, 2 }), tf.zeros({ 2 }), "x" },
    { n = 2, { tf.zeros({ 2 }), "x" }, 0 }, { n = 2, tf.zeros({ 2, 2 }), { { 5, 5 } } },
    { n = 3, tf.zeros({ 2, 2 }), { { -1, 0 } }, tf.zeros({ 1 }) }, { n = 2, tf.zeros({ 0, 3 }), 0 },
    { n = 2, tf.zeros({ 4 }), { 9, -1, -1 } }, { n = 3, tf.constant({ 1, 2 }), 1, 1 },
  }
  for _, name in ipairs({ "split", "reverse", "gather_nd", "scatter_nd", "tensor_scatter_nd_update",
    "tensor_scatter_nd_add", "boolean_mask", "sort", "argsort", "math.top_k", "math.cumsum", "math.cumprod",
    "math.unsorted_segment_sum", "unstack" }) do
    it("tf." .. name .. " raises only moonflow error objects", function()
      local fn = tf
      for part in name:gmatch("[^.]+") do fn = fn[part] end
      local problems = {}
      for i, args in ipairs(bad) do
        local ok, err = pcall(fn, table.unpack(args, 1, args.n))
        if not ok and not tf.errors.is(err) then problems[#problems + 1] = ("args #%d: %s"):format(i, tostring(err)) end
      end
      assert.are.same({}, problems)
    end)
  end
end)

describe("tf.split into very many parts", function()
  it("is a prompt ResourceExhaustedError, not minutes of work", function()
    H.raises("ResourceExhaustedError", "at most", tf.split, tf.zeros({ 0 }), 100000000)
    assert.are.equal(100000, #tf.split(tf.zeros({ 0 }), 100000))
  end)
end)

describe("bool options", function()
  it("refuse other values with TF's TypeError", function()
    H.raises("TypeError", "Expected bool for argument 'exclusive' not 1.", tf.math.cumsum, tf.constant({ 1 }), 0, 1)
    H.raises("TypeError", "Expected bool for argument 'sorted'", tf.math.top_k, tf.constant({ 1 }), 1, "yes")
    H.raises("TypeError", "reverse", tf.math.cumprod, tf.constant({ 1.0 }), { reverse = 0 })
  end)
end)
