-- array_ops_more_spec.lua — TF's tests of the array ops of issue 28:
-- manip_ops_test.py (RollTest), unique_op_test.py (UniqueTest),
-- bincount_op_test.py (BincountTest), segment_reduction_ops_test.py
-- (SegmentReductionOpTest, sum), array_ops_test.py (SortedSearchTest's
-- hand-coded cases, MeshgridTest, RepeatTest).
--
-- Translation: values run eagerly and inside a tf.func; NumPy's results are
-- computed in Lua. Left out: complex and float16 dtypes, the GPU tests,
-- RaggedTensor inputs and the unique_with_counts / axis variants (not in
-- moonflow), segment_mean/max/min/prod (not in moonflow), and random
-- inputs of 10^4 elements (smaller seeded ones instead).

local tf = tf or require("moonflow")
local T = require("tfhelpers")

local function both(fn, check) T.eager_and_traced(fn, {}, check) end

-- np.roll on a flat list of `shape`, row-major.
local function np_roll(flat, shape, shifts, axes)
  local n, strides = #flat, {}
  local s = 1
  for d = #shape, 1, -1 do strides[d] = s; s = s * shape[d] end
  local out = {}
  for i = 0, n - 1 do
    local rest, j = i, 0
    for d = 1, #shape do
      local idx = rest // strides[d]
      rest = rest % strides[d]
      for k, a in ipairs(axes) do
        if a % #shape + 1 == d then idx = (idx - shifts[k]) % shape[d] end
      end
      j = j + idx * strides[d]
    end
    out[i + 1] = flat[j + 1]
  end
  return out
end

describe("manip_ops_test.py RollTest", function()
  local function roll_all(values, shape, shift, axis, dtype)
    local x = T.tensor(values, shape, dtype)
    local shifts = type(shift) == "table" and shift or { shift }
    local axes = type(axis) == "table" and axis or { axis }
    both(function() return tf.roll(x, shift, axis) end, function(_, y)
      T.equal(np_roll(values, shape, shifts, axes), tf.reshape(y, { -1 }), 0)
    end)
  end
  local function randint(n)
    local v = T.rand_values({ n })
    for i = 1, n do v[i] = math.floor(v[i] * 200) - 100 end
    return v
  end
  it("testIntTypes, testFloatTypes", function()
    T.seed(11)
    for _, dt in ipairs({ tf.int32, tf.int64, tf.float32, tf.float64 }) do
      roll_all(randint(5), { 5 }, 3, 0, dt)
      roll_all(randint(60), { 3, 4, 5 }, { 1, -6, 6 }, { 0, 1, 2 }, dt)
      roll_all(randint(6), { 2, 3 }, 1, 1, dt)
    end
  end)
  it("testDuplicateAxes", function()
    T.seed(12)
    roll_all(randint(16), { 4, 4 }, { 2, 3 }, { 1, 1 }, tf.int32)
  end)
  it("testNegativeAxis", function()
    T.seed(13)
    roll_all(randint(5), { 5 }, 3, -1, tf.int32)
    roll_all(randint(16), { 4, 4 }, 3, -2, tf.int32)
    T.raises("InvalidArgumentError", "is out of range",
      function() tf.roll(tf.constant({ { 1, 2 }, { 3, 4 } }), 3, -10) end)
  end)
  it("testEmptyInput", function()
    both(function() return tf.roll(tf.zeros({ 2, 0 }), 1, 1) end, function(_, y)
      assert.are.same({ 2, 0 }, y.shape:as_list())
    end)
  end)
  it("testInvalidInputShape, testRollShiftAndAxisMustBeSameSizeRaises", function()
    T.raises("InvalidArgumentError", "input must be 1-D or higher", function() tf.roll(tf.constant(7), 1, 0) end)
    T.raises("InvalidArgumentError", "shift and axis must have the same size",
      function() tf.roll(tf.constant({ { 1, 2 }, { 4, 5 } }), { 1 }, { 0, 1 }) end)
  end)
end)

describe("unique_op_test.py UniqueTest", function()
  local function check(values, dtype, out_idx)
    local x = tf.constant(values, dtype)
    both(function() return tf.unique(x, out_idx) end, function(_, y, idx)
      assert.are.equal(out_idx or tf.int32, idx.dtype)
      local yv, iv = T.plain(y), T.plain(idx)
      assert.are.equal(#values, #iv)
      local distinct, seen = 0, {}
      for _, v in ipairs(values) do if not seen[v] then seen[v] = true; distinct = distinct + 1 end end
      assert.are.equal(distinct, #yv)
      for i, v in ipairs(values) do assert.are.equal(v, yv[iv[i] + 1]) end
    end)
  end
  it("testInt32, testInt32OutIdxInt64, testInt64", function()
    T.seed(21)
    local v = T.rand_values({ 700 })
    for i = 1, #v do v[i] = 2 + math.floor(v[i] * 8) end
    check(v, tf.int32)
    check(v, tf.int32, tf.int64)
    check(v, tf.int64)
  end)
  it("testString", function()
    T.seed(22)
    local v = T.rand_values({ 700 })
    for i = 1, #v do v[i] = tostring(2 + math.floor(v[i] * 8)) end
    check(v, tf.string)
  end)
  it("testBool", function()
    check({ true, false, false, true, true }, tf.bool)
  end)
  it("testFloat with NaN (each NaN its own value) and signed zeros (one value)", function()
    local nan = 0 / 0
    both(function() return tf.unique(tf.constant({ 1, nan, -0.0, 0.0, nan, 1 })) end, function(_, y, idx)
      local yv = T.plain(y)
      assert.are.equal(4, #yv)
      assert.is_true(yv[2] ~= yv[2] and yv[4] ~= yv[4])
      assert.are.equal(-math.huge, 1 / yv[3]) -- the first zero kept is -0
      T.equal({ 0, 1, 2, 2, 3, 0 }, idx, 0)
    end)
  end)
  it("rejects a matrix (unique expects a 1D vector)", function()
    T.raises("InvalidArgumentError", "unique expects a 1D vector.", function() tf.unique(tf.constant({ { 1 } })) end)
  end)
end)

describe("bincount_op_test.py BincountTest", function()
  it("test_empty", function()
    T.equal({ 0, 0, 0, 0, 0 }, tf.math.bincount({}, nil, 5), 0)
    T.equal({ 0 }, tf.math.bincount({}, nil, 1), 0)
    T.equal({}, tf.math.bincount({}, nil, 0), 0)
    assert.are.equal(tf.float64, tf.math.bincount({}, nil, 0, nil, tf.float64).dtype)
  end)
  it("test_values", function()
    both(function()
      return tf.math.bincount(tf.constant({ 1, 1, 1, 2, 2, 3 })),
        tf.math.bincount(tf.constant({ 1, 1, 2, 1, 2, 3, 1, 2, 3, 4, 1, 2, 3, 4, 5 })),
        tf.math.bincount(tf.constant({ 1, 1, 2, 1, 2, 3, 1, 2, 3, 4, 1, 2, 3, 4, 5, 0, 0, 0, 0, 0, 0 })),
        tf.math.bincount(tf.range(1000))
    end, function(_, a, b, c, d)
      T.equal({ 0, 3, 2, 1 }, a, 0)
      T.equal({ 0, 5, 4, 3, 2, 1 }, b, 0)
      T.equal({ 6, 5, 4, 3, 2, 1 }, c, 0)
      local ones = {}
      for i = 1, 1000 do ones[i] = 1 end
      T.equal(ones, d, 0)
    end)
  end)
  it("test_maxlength", function()
    T.equal({ 1 }, tf.math.bincount(tf.constant({ 0 }), nil, nil, 3), 0)
    T.equal({ 0, 1 }, tf.math.bincount(tf.constant({ 1 }), nil, nil, 3), 0)
    T.equal({}, tf.math.bincount({}, nil, nil, 3), 0)
  end)
  it("test_random_with_weights", function()
    T.seed(31)
    for _, dt in ipairs({ tf.int32, tf.float32, tf.float64 }) do
      local arr, w = T.rand_values({ 100 }), T.rand_values({ 100 })
      local want = {}
      for i = 1, 100 do
        arr[i] = math.floor(arr[i] * 50)
        w[i] = dt == tf.int32 and math.floor(w[i] * 10) or w[i]
      end
      local n = 0
      for i = 1, 100 do n = math.max(n, arr[i] + 1) end
      for k = 1, n do want[k] = 0 end
      for i = 1, 100 do want[arr[i] + 1] = want[arr[i] + 1] + w[i] end
      local got = tf.math.bincount(tf.constant(arr), tf.constant(w, dt))
      assert.are.equal(dt, got.dtype)
      T.equal(want, got, dt == tf.float32 and 1e-5 or 1e-12)
    end
  end)
  it("test_negative", function()
    T.raises("InvalidArgumentError", "Input arr must be non-negative!",
      function() tf.math.bincount(tf.constant({ 1, 2, 3, -1, 6, 8 })) end)
  end)
end)

describe("segment_reduction_ops_test.py SegmentReductionOpTest (segment_sum)", function()
  it("testValues", function()
    for _, dt in ipairs({ tf.float32, tf.float64, tf.int32, tf.int64 }) do
      -- indices = [i // 3 for i in range(n)], data (n, 4) = 1..4n
      local n, data, ids = 10, {}, {}
      for i = 0, n - 1 do
        ids[i + 1] = i // 3
        data[i + 1] = {}
        for k = 1, 4 do data[i + 1][k] = i * 4 + k end
      end
      local want = {}
      for i = 0, n - 1 do
        local row = want[ids[i + 1] + 1] or { 0, 0, 0, 0 }
        for k = 1, 4 do row[k] = row[k] + data[i + 1][k] end
        want[ids[i + 1] + 1] = row
      end
      both(function() return tf.math.segment_sum(tf.constant(data, dt), tf.constant(ids)) end,
        function(_, y) T.equal(want, y, 0) end)
    end
  end)
  it("testSegmentIdsGap (missing segments are 0)", function()
    T.equal({ { 1, 2 }, { 0, 0 }, { 0, 0 }, { 8, 10 } },
      tf.math.segment_sum(tf.constant({ { 1, 2 }, { 3, 4 }, { 5, 6 } }), tf.constant({ 0, 3, 3 })), 0)
  end)
  it("testSegmentIdsInvalid (not increasing, negative)", function()
    T.raises("InvalidArgumentError", "segment ids are not increasing",
      function() tf.math.segment_sum(tf.constant({ 1, 2, 3 }), tf.constant({ 0, 2, 1 })) end)
    T.raises("InvalidArgumentError", "segment ids must be >= 0",
      function() tf.math.segment_sum(tf.constant({ 1, 2 }), tf.constant({ -1, 0 })) end)
    T.raises("InvalidArgumentError", "segment_ids should be the same size as dimension 0 of input",
      function() tf.math.segment_sum(tf.constant({ 1, 2 }), tf.constant({ 0, 0, 1 })) end)
  end)
  it("testGradient", function()
    T.seed(41)
    T.check_gradient(function(x) return tf.math.segment_sum(x, tf.constant({ 0, 0, 1, 3 })) end,
      { T.rand({ 4, 3 }, tf.float64) }, 1e-8)
  end)
end)

describe("array_ops_test.py SortedSearchTest", function()
  it("testUpperBoundFloatHandCoded, testLowerBoundFloatHandCoded", function()
    local cdf = { 0, .2, .5, .6, .8, 1. }
    local arr = { .04, .99, .53, .58, .31, .01, .79, .8, .21 }
    local function np_search(side)
      local out = {}
      for i, v in ipairs(arr) do
        local k = 0
        for _, c in ipairs(cdf) do if (side == "right" and c <= v) or (side == "left" and c < v) then k = k + 1 end end
        out[i] = k
      end
      return out
    end
    both(function()
      return tf.searchsorted(tf.constant(cdf), tf.constant(arr), "right"),
        tf.searchsorted(tf.constant(cdf), tf.constant(arr), "left")
    end, function(_, r, l)
      T.equal(np_search("right"), r, 0)
      T.equal(np_search("left"), l, 0)
    end)
  end)
  it("testInt64, 2-D batches, out_type", function()
    local seq = tf.constant({ { 0, 3, 9, 9, 10 }, { 1, 2, 3, 4, 5 } }, tf.int64)
    local vals = tf.constant({ { 2, 4, 9 }, { 0, 2, 6 } }, tf.int64)
    local y = tf.searchsorted(seq, vals, "left", tf.int64)
    assert.are.equal(tf.int64, y.dtype)
    T.equal({ { 1, 2, 2 }, { 0, 1, 5 } }, y, 0)
    T.equal({ { 1, 2, 4 }, { 0, 2, 5 } }, tf.searchsorted(seq, vals, "right"), 0)
  end)
  it("rejects another side", function()
    T.raises("ValueError", "Argument `side` must be either 'right' or 'left'",
      function() tf.searchsorted(tf.constant({ 1 }), tf.constant({ 1 }), "middle") end)
  end)
end)

describe("array_ops_test.py MeshgridTest", function()
  local function np_meshgrid(xs, indexing)
    -- 2-D only, as the cases below
    local a, b = xs[1], xs[2]
    local X, Y = {}, {}
    if indexing == "xy" then
      for i = 1, #b do
        X[i], Y[i] = {}, {}
        for j = 1, #a do X[i][j], Y[i][j] = a[j], b[i] end
      end
    else
      for i = 1, #a do
        X[i], Y[i] = {}, {}
        for j = 1, #b do X[i][j], Y[i][j] = a[i], b[j] end
      end
    end
    return X, Y
  end
  it("testCompare", function()
    for _, dt in ipairs({ tf.int32, tf.int64, tf.float32, tf.float64 }) do
      for _, indexing in ipairs({ "xy", "ij" }) do
        local a, b = { 1, 2, 3 }, { 4, 5, 6, 7 }
        both(function() return tf.meshgrid(tf.constant(a, dt), tf.constant(b, dt), { indexing = indexing }) end,
          function(_, X, Y)
            local wx, wy = np_meshgrid({ a, b }, indexing)
            T.equal(wx, X, 0)
            T.equal(wy, Y, 0)
          end)
      end
    end
    local X, Y, Z = tf.meshgrid(tf.constant({ 1, 2 }), tf.constant({ 3 }), tf.constant({ 4, 5, 6 }))
    assert.are.same({ 1, 2, 3 }, X.shape:as_list())
    assert.are.same({ 1, 2, 3 }, Z.shape:as_list())
    T.equal({ { { 3, 3, 3 }, { 3, 3, 3 } } }, Y, 0)
  end)
end)

describe("array_ops_test.py RepeatTest", function()
  -- np.repeat on a flat list (axis None) or rows of a 2-D list (axis 0/1)
  local function np_repeat(rows, reps, axis)
    local out = {}
    if axis == nil then
      local flat = {}
      for _, r in ipairs(rows) do for _, v in ipairs(r) do flat[#flat + 1] = v end end
      for i, v in ipairs(flat) do
        local k = type(reps) == "table" and reps[i] or reps
        for _ = 1, k do out[#out + 1] = v end
      end
    elseif axis == 0 then
      for i, r in ipairs(rows) do
        local k = type(reps) == "table" and reps[i] or reps
        for _ = 1, k do out[#out + 1] = r end
      end
    else
      for i, r in ipairs(rows) do
        out[i] = {}
        for j, v in ipairs(r) do
          local k = type(reps) == "table" and reps[j] or reps
          for _ = 1, k do out[i][#out[i] + 1] = v end
        end
      end
    end
    return out
  end
  it("testRepeatScalar, testRepeatMatrix, testRepeatMatrixAxis", function()
    local data = { { 1, 2, 3 }, { 4, 5, 6 } }
    for _, case in ipairs({ { 3, nil }, { 2, 0 }, { 2, 1 }, { { 1, 2 }, 0 }, { { 0, 2, 1 }, 1 },
      { { 1, 0, 2, 1, 3, 1 }, nil } }) do
      local reps, axis = case[1], case[2]
      both(function() return tf["repeat"](tf.constant(data), reps, axis) end,
        function(mode, y) T.equal(np_repeat(data, reps, axis), y, 0) end)
    end
    T.equal({ 5, 5, 5 }, tf["repeat"](5, 3), 0)
  end)
end)
