-- ops_math_spec.lua — the math and linear-algebra ops of issue 17:
-- tf.clip_by_value, tf.clip_by_global_norm, tf.math.divide_no_nan,
-- tf.math.l2_normalize, tf.nn.moments, tf.einsum, tf.linalg.inv / det /
-- solve / cholesky, and softmax on a tensor of unknown rank. Values are
-- TF's kernel tests (each case names its TF file and method) or NumPy's;
-- each op eagerly, traced, and under a tape against finite differences.
local tf = tf or require("moonflow")
local H = require("helpers")

local F32, F64 = tf.float32, tf.float64

-- The op types of fn traced with these arguments.
local function traced_types(fn, ...)
  local f = tf.func(fn, { autograph = false })
  local set = {}
  for _, t in ipairs(H.op_types(f:get_concrete_function(...))) do set[t] = true end
  return set
end

-- d sum(w * fn(x)) / dx by central differences (float64 x, flat list),
-- where w is a fixed weighting that makes every output count differently.
local function numeric_grad(fn, values, shape, eps)
  eps = eps or 1e-6
  local function loss(vals)
    local y = fn(tf.reshape(tf.constant(vals, F64), shape))
    local flat = tf.reshape(y, { -1 }):numpy()
    local s = 0
    for i, v in ipairs(flat) do s = s + v * (1 + 0.1 * i) end
    return s
  end
  local g = {}
  for i = 1, #values do
    local up, down = table.move(values, 1, #values, 1, {}), table.move(values, 1, #values, 1, {})
    up[i], down[i] = values[i] + eps, values[i] - eps
    g[i] = (loss(up) - loss(down)) / (2 * eps)
  end
  return g
end

-- The tape's gradient of sum(w * fn(x)) agrees with central differences.
local function check_grad(fn, values, shape, tol)
  local x = tf.reshape(tf.constant(values, F64), shape)
  local g
  do
    local tape = tf.GradientTape()
    tape:watch(x)
    local y = fn(x)
    local n = tf.size(y):numpy()
    local w = {}
    for i = 1, n do w[i] = 1 + 0.1 * i end
    local loss = tf.reduce_sum(tf.multiply(y, tf.reshape(tf.constant(w, F64), tf.shape(y))))
    tape:stop()
    g = tape:gradient(loss, x)
  end
  H.close(numeric_grad(fn, values, shape), tf.reshape(g, { -1 }), tol or 1e-6)
end

describe("tf.nn.softmax / log_softmax on a tensor of unknown rank", function()
  local x = tf.constant({ { 1.0, 2.0, 3.0 }, { 1.0, 1.0, 4.0 } })
  for _, name in ipairs({ "softmax", "log_softmax" }) do
    it(name .. " over axis 0 and -2 traced with TensorSpec(nil)", function()
      local f = tf.func(function(t) return tf.nn[name](t, 0) end,
        { input_signature = { tf.TensorSpec(nil, F32) } })
      local g = tf.func(function(t) return tf.nn[name](t, -2) end,
        { input_signature = { tf.TensorSpec(nil, F32) } })
      local want = tf.nn[name](x, 0)
      H.close(want:numpy(), f(x), 1e-6)
      H.close(want:numpy(), g(x), 1e-6)
      H.close(tf.nn[name](x, 1):numpy(),
        tf.func(function(t) return tf.nn[name](t, 1) end, { input_signature = { tf.TensorSpec(nil, F32) } })(x), 1e-6)
    end)
  end
end)

describe("tf.math.divide_no_nan", function()
  -- math_ops_test.py DivNoNanTest.testBasic: nums/divs with 0 where divs == 0.
  it("is x / y, and 0 where y is 0 (DivNoNanTest.testBasic)", function()
    for _, dt in ipairs({ F32, F64 }) do
      local nums, divs = {}, {}
      for i = 0, 79 do nums[i + 1] = { -10 + 0.25 * i } end
      for j = 0, 23 do divs[j + 1] = -3 + 0.25 * j end
      local got = tf.math.divide_no_nan(tf.constant(nums, dt), tf.constant({ divs }, dt))
      assert.are.same({ 80, 24 }, got.shape:as_list())
      local v = got:numpy()
      for i = 1, 80 do
        for j = 1, 24 do
          local want = divs[j] == 0 and 0 or nums[i][1] / divs[j]
          if dt == F64 then assert.are.equal(want, v[i][j]) else H.close(want, v[i][j], 1e-6) end
        end
      end
    end
  end)

  it("divides integers as float64 and keeps 0/0 and x/0 at 0 (not nan, inf)", function()
    H.tensor(tf.math.divide_no_nan(tf.constant({ 1, 0, 6 }), tf.constant({ 0, 0, 4 })), F64, { 3 }, { 0, 0, 1.5 })
    H.tensor(tf.math.divide_no_nan(tf.constant({ 0.0, -1.0 }), 0.0), F32, { 2 }, { 0, 0 })
    -- Lua numbers convert as Python's do: integers to int32 (then float64), floats to float32.
    H.tensor(tf.math.divide_no_nan(3, 2), F64, {}, 1.5)
    H.tensor(tf.math.divide_no_nan(1, 0.5), F32, {}, 2)
    H.raises("TypeError", nil, tf.math.divide_no_nan, tf.constant(1.0), tf.constant(1.0, F64))
  end)

  it("is one DivNoNan op, traced and fused with its neighbours", function()
    local types = traced_types(function(a, b) return tf.math.divide_no_nan(a, b) end,
      tf.constant({ 1.0 }), tf.constant({ 2.0 }))
    assert.is_true(types.DivNoNan)
    local f = tf.func(function(a, b)
      return tf.exp(tf.math.squared_difference(tf.math.divide_no_nan(a + 1, b) * 2, a))
    end)
    local a, b = tf.constant({ 1.0, 2.0, 3.0 }), tf.constant({ 2.0, 0.0, 4.0 })
    H.close({ math.exp(1), math.exp(4), math.exp(1) }, f(a, b), 1e-6)
    -- The optimiser fuses the chain, DivNoNan and SquaredDifference included.
    local run = {}
    for _, o in ipairs(f:get_concrete_function(a, b):optimized_graph():get_operations()) do run[#run + 1] = o.type end
    assert.are.same({ "Placeholder", "Placeholder", "FusedElementwise" }, run)
  end)

  it("has TF's gradient: 0 where y is 0, finite differences elsewhere", function()
    local x, y = tf.constant({ 1.0, 2.0, 3.0 }, F64), tf.constant({ 2.0, 0.0, -4.0 }, F64)
    local tape = tf.GradientTape({ persistent = true })
    tape:watch(x)
    tape:watch(y)
    local z = tf.math.divide_no_nan(x, y)
    tape:stop()
    H.close({ 0.5, 0, -0.25 }, tape:gradient(z, x), 1e-12)
    H.close({ -0.25, 0, -3 / 16 }, tape:gradient(z, y), 1e-12)
  end)
end)

describe("tf.math.squared_difference", function()
  it("is TF's SquaredDifference op, with broadcasting and its gradient", function()
    H.tensor(tf.math.squared_difference(tf.constant({ 1, 5 }), 3), tf.int32, { 2 }, { 4, 4 })
    assert.is_true(traced_types(function(a) return tf.math.squared_difference(a, 1.0) end,
      tf.constant({ 1.0 })).SquaredDifference)
    check_grad(function(x) return tf.math.squared_difference(x, tf.constant({ 0.5, -1.0 }, F64)) end,
      { 0.3, 1.2, -0.7, 2.0 }, { 2, 2 })
  end)
end)

describe("tf.clip_by_value", function()
  -- clip_ops_test.py ClipTest.testClipByValue
  it("clips to [min, max] (ClipTest.testClipByValue)", function()
    local x = tf.constant({ { -5.0, 2.0, 3.0 }, { 4.0, 5.0, 6.0 } })
    H.tensor_close(tf.clip_by_value(x, -4.4, 4.4), F32, { 2, 3 }, { { -4.4, 2.0, 3.0 }, { 4.0, 4.4, 4.4 } })
    H.tensor(tf.clip_by_value(tf.constant({ 1, 5, 9 }), 2, 6), tf.int32, { 3 }, { 2, 5, 6 })
    -- ClipTest.testClipByValueNonFinite: nan stays nan, infinities clip.
    local nf = tf.clip_by_value(tf.constant({ 0 / 0, 1 / 0, -1 / 0 }), -1.0, 1.0):numpy()
    assert.is_true(nf[1] ~= nf[1])
    assert.are.same({ 1, -1 }, { nf[2], nf[3] })
  end)

  it("is TF's graph: Minimum then Maximum, with their gradients", function()
    local types = traced_types(function(t) return tf.clip_by_value(t, 0.0, 1.0) end, tf.constant({ 0.5 }))
    assert.is_true(types.Minimum and types.Maximum)
    local x = tf.constant({ -2.0, 0.5, 3.0 })
    local tape = tf.GradientTape()
    tape:watch(x)
    local y = tf.clip_by_value(x, -1.0, 1.0)
    tape:stop()
    H.close({ 0, 1, 0 }, tape:gradient(y, x))
  end)

  it("refuses bounds that would broadcast t to a bigger shape (TF's ValueError)", function()
    H.raises("ValueError", nil, tf.clip_by_value, tf.constant({ 1.0, 2.0 }), tf.constant({ { 0.0 }, { 1.0 } }), 5.0)
  end)
end)

describe("tf.clip_by_global_norm", function()
  -- clip_ops_test.py ClipTest.testClipByGlobalNormClipped
  it("scales every tensor by clip_norm / global_norm (testClipByGlobalNormClipped)", function()
    local x0 = tf.constant({ { -2.0, 0.0, 0.0 }, { 4.0, 0.0, 0.0 } })
    local x1 = tf.constant({ 1.0, -2.0 })
    local clipped, norm = tf.clip_by_global_norm({ x0, x1 }, 4.0)
    H.tensor_close(norm, F32, {}, 5.0)
    H.tensor_close(clipped[1], F32, { 2, 3 }, { { -1.6, 0.0, 0.0 }, { 3.2, 0.0, 0.0 } })
    H.tensor_close(clipped[2], F32, { 2 }, { 0.8, -1.6 })
    H.tensor_close(tf.linalg.global_norm({ x0, x1 }), F32, {}, 5.0)
  end)

  -- ClipTest.testClipByGlobalNormNotClipped / testClipByGlobalNormInf
  it("leaves tensors under the norm alone, and makes nan of a non-finite norm", function()
    local x0 = tf.constant({ { -2.0, 0.0, 0.0 }, { 4.0, 0.0, 0.0 } })
    local x1 = tf.constant({ 1.0, -2.0 })
    local clipped, norm = tf.clip_by_global_norm({ x0, x1 }, 6.0)
    H.tensor_close(norm, F32, {}, 5.0)
    H.tensor_close(clipped[1], F32, { 2, 3 }, { { -2.0, 0.0, 0.0 }, { 4.0, 0.0, 0.0 } })
    local inf = tf.clip_by_global_norm({ tf.constant({ 1 / 0, 1.0 }) }, 1.0)
    local v = inf[1]:numpy()
    assert.is_true(v[1] ~= v[1] and v[2] ~= v[2])
    H.raises("TypeError", "t_list", tf.clip_by_global_norm, tf.constant({ 1.0 }), 1.0)
  end)
end)

describe("tf.math.l2_normalize", function()
  -- nn_test.py L2NormalizeTest.testL2Normalize: x / ||x|| along each axis.
  it("divides by the L2 norm along axis (L2NormalizeTest.testL2Normalize)", function()
    local vals = {}
    for i = 1, 24 do vals[i] = ((i * 37) % 11) / 11 + 0.05 end
    local x = tf.reshape(tf.constant(vals, F64), { 2, 3, 4 })
    local xs = x:numpy()
    for axis = 0, 2 do
      local y = tf.math.l2_normalize(x, axis):numpy()
      for i = 1, 2 do
        for j = 1, 3 do
          for k = 1, 4 do
            local s = 0
            local idx = { i, j, k }
            local n = ({ 2, 3, 4 })[axis + 1]
            for m = 1, n do
              local p = { i, j, k }
              p[axis + 1] = m
              s = s + xs[p[1]][p[2]][p[3]] ^ 2
            end
            H.close(xs[idx[1]][idx[2]][idx[3]] / math.sqrt(s), y[i][j][k], 1e-12)
          end
        end
      end
    end
    assert.are.equal(tf.nn.l2_normalize, tf.math.l2_normalize)
  end)

  it("uses epsilon as the floor of the squared norm, and axis lists", function()
    H.tensor(tf.math.l2_normalize(tf.constant({ 0.0, 0.0 })), F32, { 2 }, { 0, 0 })
    H.tensor_close(tf.math.l2_normalize(tf.constant({ 3.0, 4.0 }), 0, { epsilon = 100 }), F32, { 2 }, { 0.3, 0.4 })
    H.tensor_close(tf.math.l2_normalize(tf.constant({ { 3.0 }, { 4.0 } }), { 0, 1 }), F32, { 2, 1 }, { { 0.6 }, { 0.8 } })
    check_grad(function(x) return tf.math.l2_normalize(x, 1) end, { 0.3, 1.2, -0.7, 2.0, 0.1, -0.4 }, { 2, 3 })
  end)
end)

describe("tf.nn.moments", function()
  -- nn_test.py MomentsTest.doOutputTest: np.mean and np.var (population).
  it("returns the mean and the population variance over axes (MomentsTest)", function()
    local vals = {}
    for i = 1, 12 do vals[i] = 1000 + ((i * 7) % 5) * 0.1 end
    local x = tf.reshape(tf.constant(vals, F64), { 3, 4 })
    local mean, var = tf.nn.moments(x, { 0 })
    local xs = x:numpy()
    local m, v = {}, {}
    for j = 1, 4 do
      local s, ss = 0, 0
      for i = 1, 3 do s = s + xs[i][j] end
      m[j] = s / 3
      for i = 1, 3 do ss = ss + (xs[i][j] - m[j]) ^ 2 end
      v[j] = ss / 3
    end
    H.tensor_close(mean, F64, { 4 }, m, 1e-12)
    H.tensor_close(var, F64, { 4 }, v, 1e-9)
    local km, kv = tf.nn.moments(x, { 0, 1 }, { keepdims = true })
    assert.are.same({ 1, 1 }, km.shape:as_list())
    assert.are.same({ 1, 1 }, kv.shape:as_list())
  end)

  it("is TF's graph (Mean, SquaredDifference, StopGradient) with TF's gradient", function()
    local types = traced_types(function(t) return (tf.nn.moments(t, { 0 })) end, tf.constant({ 1.0, 2.0 }))
    assert.is_true(types.Mean and types.SquaredDifference and types.StopGradient)
    check_grad(function(x)
      local m, v = tf.nn.moments(x, { 1 })
      return tf.stack({ m, v })
    end, { 0.3, 1.2, -0.7, 2.0, 0.1, -0.4 }, { 2, 3 })
  end)
end)

-- linear algebra ------------------------------------------------------------------

-- a (n x n, Lua rows) times b (n x k).
local function matmul(a, b)
  local out = {}
  for i = 1, #a do
    out[i] = {}
    for j = 1, #b[1] do
      local s = 0
      for k = 1, #b do s = s + a[i][k] * b[k][j] end
      out[i][j] = s
    end
  end
  return out
end

local function identity(n)
  local out = {}
  for i = 1, n do
    out[i] = {}
    for j = 1, n do out[i][j] = i == j and 1 or 0 end
  end
  return out
end

-- A reproducible n x k matrix of values in [-1, 1).
local function uniform(n, k, seed)
  local out, s = {}, seed
  for i = 1, n do
    out[i] = {}
    for j = 1, k do
      s = (s * 1103515245 + 12345) % 2147483648
      out[i][j] = s / 1073741824 - 1
    end
  end
  return out
end

local function flat(m)
  local out = {}
  for _, row in ipairs(m) do for _, v in ipairs(row) do out[#out + 1] = v end end
  return out
end

describe("tf.linalg.inv", function()
  -- matrix_inverse_op_test.py InverseOpTest.testNonsymmetric / testSymmetric
  it("inverts square matrices, batched, float32 and float64 (testNonsymmetric)", function()
    H.tensor_close(tf.linalg.inv(tf.constant({ { 1.0, 2.0 }, { 3.0, 4.0 } }, F64)), F64, { 2, 2 },
      { { -2, 1 }, { 1.5, -0.5 } }, 1e-14)
    local batch = tf.constant({ { { 1.0, 2.0 }, { 3.0, 4.0 } }, { { 1.0, 3.0 }, { 3.0, 5.0 } } })
    H.tensor_close(tf.linalg.inv(batch), F32, { 2, 2, 2 },
      { { { -2, 1 }, { 1.5, -0.5 } }, { { -1.25, 0.75 }, { 0.75, -0.25 } } }, 1e-6)
    H.tensor_close(tf.linalg.inv(tf.constant({ { 1.0, 2.0 }, { 3.0, 4.0 } }), true), F32, { 2, 2 },
      { { -2, 1.5 }, { 1, -0.5 } }, 1e-6)
    local m = uniform(9, 9, 7)
    H.close(identity(9), matmul(m, tf.linalg.inv(tf.constant(m, F64)):numpy()), 1e-12)
  end)

  -- InverseOpTest.testNotInvertible, testWrongDimensions, testNotSquare, testEmpty
  it("raises TF's errors and takes empty batches and 0x0 matrices", function()
    H.raises("InvalidArgumentError", "Input is not invertible.", tf.linalg.inv,
      tf.constant({ { 1.0, 0.0, -1.0 }, { -1.0, 1.0, 0.0 }, { 0.0, -1.0, 1.0 } }))
    H.raises("InvalidArgumentError", "must have rank >= 2", tf.linalg.inv, tf.constant({ 1.0, 2.0 }))
    H.raises("InvalidArgumentError", "Input matrix must be square.", tf.linalg.inv,
      tf.constant({ { 1.0, 2.0 }, { 3.0, 4.0 }, { 5.0, 6.0 } }))
    H.raises("InvalidArgumentError", nil, tf.linalg.inv, tf.constant({ { 1, 2 }, { 3, 4 } }))
    H.tensor(tf.linalg.inv(tf.zeros({ 0, 2, 2 })), F32, { 0, 2, 2 })
    H.tensor(tf.linalg.inv(tf.zeros({ 2, 0, 0 })), F32, { 2, 0, 0 })
  end)
end)

describe("tf.linalg.det", function()
  -- determinant_op_test.py DeterminantOpTest.testBasicDouble (values: NumPy's det)
  it("computes determinants, batched (testBasicDouble, testEmpty)", function()
    H.tensor_close(tf.linalg.det(tf.constant({ { 2.0, 3.0 }, { 3.0, 4.0 } }, F64)), F64, {}, -1, 1e-14)
    H.tensor(tf.linalg.det(tf.constant({ { 0.0, 0.0 }, { 0.0, 0.0 } }, F64)), F64, {}, 0)
    local five = { { 2, 3, 4, 5, 6 }, { 3, 4, 9, 2, 0 }, { 2, 5, 8, 3, 8 }, { 1, 6, 7, 4, 7 }, { 2, 3, 4, 5, 6 } }
    assert.is_true(math.abs(tf.linalg.det(tf.constant(five, F64)):numpy()) < 1e-11)
    -- np.linalg.det([[4, 3, 2], [1, 5, 7], [2, 8, 1]]) = -169
    H.tensor_close(tf.linalg.det(tf.constant({ { 4.0, 3.0, 2.0 }, { 1.0, 5.0, 7.0 }, { 2.0, 8.0, 1.0 } })), F32, {}, -169,
      1e-6)
    H.tensor_close(tf.linalg.det(tf.constant({ { { 2.0, 3.0 }, { 3.0, 4.0 } }, { { 1.0, 0.0 }, { 0.0, 5.0 } } })), F32,
      { 2 }, { -1, 5 }, 1e-6)
    H.tensor(tf.linalg.det(tf.zeros({ 0, 2, 2 })), F32, { 0 }, {})
    H.tensor(tf.linalg.det(tf.zeros({ 2, 0, 0 })), F32, { 2 }, { 1, 1 })
    H.raises("InvalidArgumentError", "Input matrix must be square.", tf.linalg.det,
      tf.constant({ { 1.0, 2.0, 3.0 }, { 3.0, 5.0, 4.0 } }))
    H.raises("InvalidArgumentError", "must have rank >= 2", tf.linalg.det, tf.constant({ 1.0, 2.0 }))
  end)
end)

describe("tf.linalg.solve", function()
  -- matrix_solve_op_test.py MatrixSolveOpTest.testSolve: n in 1, 2, 4, 9; nrhs in 1, 2, n
  it("solves matrix X = rhs (testSolve), adjoint and batched", function()
    for _, n in ipairs({ 1, 2, 4, 9 }) do
      local m = uniform(n, n, n)
      for _, k in ipairs({ 1, 2, n }) do
        local rhs = uniform(n, k, 100 + k)
        local x = tf.linalg.solve(tf.constant(m, F64), tf.constant(rhs, F64))
        assert.are.same({ n, k }, x.shape:as_list())
        H.close(rhs, matmul(m, x:numpy()), 1e-11)
      end
    end
    local a = tf.constant({ { 1.0, 2.0 }, { 3.0, 4.0 } }, F64)
    H.tensor_close(tf.linalg.solve(a, tf.constant({ { 1.0 }, { 2.0 } }, F64), true), F64, { 2, 1 }, { { 1 }, { 0 } }, 1e-14)
    local batch = tf.linalg.solve(tf.stack({ a, a * 2 }), tf.constant({ { { 1.0 }, { 2.0 } }, { { 1.0 }, { 2.0 } } }, F64))
    H.tensor_close(batch, F64, { 2, 2, 1 }, { { { 0 }, { 0.5 } }, { { 0 }, { 0.25 } } }, 1e-14)
  end)

  -- MatrixSolveOpTest.testNonSquareMatrix, testWrongDimensions, testNotInvertible
  it("raises TF's errors", function()
    local ns = tf.constant({ { 1.0, 2.0, 3.0 }, { 3.0, 4.0, 5.0 } })
    H.raises("InvalidArgumentError", "must be a square matrix", tf.linalg.solve, ns, ns)
    H.raises("InvalidArgumentError", "Input matrix and rhs are incompatible.", tf.linalg.solve,
      tf.constant({ { 1.0, 0.0 }, { 0.0, 1.0 } }), tf.constant({ { 1.0, 0.0 } }))
    local sing = tf.constant({ { 1.0, 0.0, -1.0 }, { -1.0, 1.0, 0.0 }, { 0.0, -1.0, 1.0 } })
    H.raises("InvalidArgumentError", "Input matrix is not invertible.", tf.linalg.solve, sing, sing)
    H.raises("InvalidArgumentError", "same outer dimensions", tf.linalg.solve, tf.zeros({ 2, 2, 2 }),
      tf.zeros({ 3, 2, 1 }))
  end)
end)

describe("tf.linalg.cholesky", function()
  -- cholesky_op_test.py CholeskyOpTest.testBasic (L by hand: NumPy's cholesky)
  it("factors symmetric positive definite matrices (testBasic), batched", function()
    local data = { { 4.0, -1.0, 2.0 }, { -1.0, 6.0, 0.0 }, { 2.0, 0.0, 5.0 } }
    local r = math.sqrt(5.75)
    local want = { { 2, 0, 0 }, { -0.5, r, 0 }, { 1, 0.5 / r, math.sqrt(4 - 0.25 / 5.75) } }
    H.tensor_close(tf.linalg.cholesky(tf.constant(data, F64)), F64, { 3, 3 }, want, 1e-14)
    H.tensor_close(tf.linalg.cholesky(tf.constant(data)), F32, { 3, 3 }, want, 1e-6)
    -- Only the lower triangle is read, as Eigen's LLT.
    local upper_junk = { { 4.0, 99.0, -7.0 }, { -1.0, 6.0, 3.0 }, { 2.0, 0.0, 5.0 } }
    H.tensor_close(tf.linalg.cholesky(tf.constant(upper_junk, F64)), F64, { 3, 3 }, want, 1e-14)
    local b = tf.linalg.cholesky(tf.constant({ data, identity(3) }, F64))
    H.close({ want, identity(3) }, b, 1e-14)
    H.tensor(tf.linalg.cholesky(tf.zeros({ 0, 2, 2 })), F32, { 0, 2, 2 })
    H.tensor(tf.linalg.cholesky(tf.zeros({ 2, 0, 0 })), F32, { 2, 0, 0 })
  end)

  -- CholeskyOpTest.testNotInvertibleCPU, testNonSquareMatrix
  it("raises TF's errors", function()
    H.raises("InvalidArgumentError", "Cholesky decomposition was not successful. The input might not be valid.",
      tf.linalg.cholesky, tf.constant({ { 1.0, -1.0, 0.0 }, { -1.0, 1.0, -1.0 }, { 0.0, -1.0, 1.0 } }))
    H.raises("InvalidArgumentError", "Input matrix must be square.", tf.linalg.cholesky,
      tf.constant({ { 1.0, 2.0, 3.0 }, { 3.0, 4.0, 5.0 } }))
  end)
end)

describe("linalg gradients and tracing", function()
  local m = flat(uniform(3, 3, 11))
  for i = 1, 3 do m[(i - 1) * 3 + i] = m[(i - 1) * 3 + i] + 3 end
  it("inv, det, solve, cholesky: tape gradients agree with finite differences", function()
    check_grad(function(x) return tf.linalg.inv(x) end, m, { 3, 3 }, 1e-6)
    check_grad(function(x) return tf.linalg.inv(x, true) end, m, { 3, 3 }, 1e-6)
    check_grad(function(x) return tf.linalg.det(x) end, m, { 3, 3 }, 1e-6)
    local rhs = tf.constant(uniform(3, 2, 5), F64)
    check_grad(function(x) return tf.linalg.solve(x, rhs) end, m, { 3, 3 }, 1e-6)
    check_grad(function(x) return tf.linalg.solve(x, rhs, true) end, m, { 3, 3 }, 1e-6)
    check_grad(function(x) return tf.linalg.solve(tf.constant(uniform(3, 3, 9), F64) + 3 * tf.eye(3, { dtype = F64 }), x) end,
      flat(uniform(3, 2, 4)), { 3, 2 }, 1e-6)
    -- The Cholesky of x x^T + 3 I: symmetric, positive definite, a function of all of x.
    check_grad(function(x)
      return tf.linalg.cholesky(tf.matmul(x, x, { transpose_b = true }) + 3 * tf.eye(3, { dtype = F64 }))
    end, m, { 3, 3 }, 1e-6)
    check_grad(function(x)
      return tf.linalg.det(tf.reshape(x, { 2, 2, 2 }))
    end, { 1.5, 0.2, -0.3, 2.0, 0.7, 1.1, -0.4, 0.9 }, { 8 }, 1e-6)
  end)

  it("trace into TF's ops and give the eager values", function()
    local x = tf.constant(uniform(3, 3, 21), F64) + 3 * tf.eye(3, { dtype = F64 })
    local f = tf.func(function(a)
      return tf.linalg.inv(a), tf.linalg.det(a), tf.linalg.solve(a, a), tf.linalg.cholesky(tf.matmul(a, a, { transpose_b = true }))
    end)
    local i, d, s, c = f(x)
    H.close(tf.linalg.inv(x):numpy(), i, 0)
    H.close(tf.linalg.det(x):numpy(), d, 0)
    H.close(tf.linalg.solve(x, x):numpy(), s, 0)
    H.close(tf.linalg.cholesky(tf.matmul(x, x, { transpose_b = true })):numpy(), c, 0)
    local types = traced_types(function(a) return tf.linalg.det(a) + tf.reduce_sum(tf.linalg.inv(a)) end, x)
    assert.is_true(types.MatrixDeterminant and types.MatrixInverse)
  end)
end)

describe("constant folding", function()
  it("folds the new ops over constants to the eager values", function()
    local f = tf.func(function()
      local a = tf.constant({ { 4.0, 1.0 }, { 1.0, 3.0 } }, F64)
      return tf.linalg.det(a), tf.linalg.cholesky(a), tf.math.divide_no_nan(a, tf.constant({ 0.0, 2.0 }, F64)),
        tf.math.squared_difference(a, 1.0)
    end)
    local d, c, q, s = f()
    H.tensor_close(d, F64, {}, 11, 1e-14)
    H.tensor_close(c, F64, { 2, 2 }, { { 2, 0 }, { 0.5, math.sqrt(2.75) } }, 1e-14)
    H.tensor(q, F64, { 2, 2 }, { { 0, 0.5 }, { 0, 1.5 } })
    H.tensor(s, F64, { 2, 2 }, { { 9, 0 }, { 0, 4 } })
  end)
end)

-- einsum --------------------------------------------------------------------------

-- NumPy's einsum of float64 operands (Debian's python3-numpy), flat.
local function numpy_einsum(eq, operands)
  local parts = {}
  for i, t in ipairs(operands) do
    local shape = t.shape:as_list()
    local vals = tf.reshape(t, { -1 }):numpy()
    local v = {}
    for j, x in ipairs(vals) do v[j] = ("%.17g"):format(x) end
    local dims = {}
    for j, d in ipairs(shape) do dims[j] = tostring(d) end
    parts[i] = ("np.array([%s], dtype=np.float64).reshape((%s))"):format(table.concat(v, ","),
      table.concat(dims, ",") .. (#dims == 1 and "," or ""))
  end
  local script = ("import numpy as np\nr = np.einsum('%s', %s)\nprint(' '.join(repr(float(v)) for v in np.ravel(r)))\n")
    :format(eq, table.concat(parts, ", "))
  local path = os.tmpname()
  local f = assert(io.open(path, "w"))
  f:write(script)
  f:close()
  local p = assert(io.popen("/usr/bin/python3 " .. path))
  local out = p:read("a")
  p:close()
  os.remove(path)
  local vals = {}
  for w in out:gmatch("%S+") do vals[#vals + 1] = tonumber(w) end
  return vals
end

local function rand(shape, seed)
  local n = 1
  for _, d in ipairs(shape) do n = n * d end
  local m = uniform(1, math.max(n, 1), seed)[1]
  if n == 0 then m = {} end
  return tf.reshape(tf.constant(m, F64), shape)
end

describe("tf.einsum", function()
  -- TF's tf.einsum docstring examples and einsum_op_test.py EinsumOpTest
  -- (testUnary, testBinary, testBroadcasting, testRepeatedLabels), against NumPy.
  local cases = {
    { "ij,jk->ik", { { 2, 3 }, { 3, 4 } } }, -- matmul
    { "ij,jk", { { 2, 3 }, { 3, 4 } } }, -- implicit output
    { "ij->ji", { { 2, 3 } } }, -- transpose
    { "ii", { { 3, 3 } } }, -- trace
    { "ii->i", { { 3, 3 } } }, -- diagonal
    { "i,j->ij", { { 3 }, { 4 } } }, -- outer product
    { "i,i->", { { 5 }, { 5 } } }, -- dot
    { "bij,bjk->bik", { { 2, 2, 3 }, { 2, 3, 4 } } }, -- batch matmul
    { "ij->", { { 2, 3 } } }, { "ij->j", { { 2, 3 } } }, { "abc->b", { { 2, 3, 4 } } }, -- reductions
    { "aab->ab", { { 2, 2, 3 } } }, { "aabb->ab", { { 2, 2, 3, 3 } } }, -- repeated labels
    { "ab,ba->", { { 2, 3 }, { 3, 2 } } }, { "ab,ab->a", { { 2, 3 }, { 2, 3 } } },
    { "ij,jk->k", { { 2, 3 }, { 3, 4 } } }, -- a label summed in one operand only
    { "...ij,...jk->...ik", { { 2, 1, 2, 3 }, { 3, 3, 2 } } }, -- broadcasting
    { "...ij,jk->...ik", { { 2, 2, 3 }, { 3, 4 } } }, { "ab...->...ab", { { 2, 3, 4, 5 } } },
    { "...i->...", { { 2, 3 } } }, { "bij,bjk,bkl->bil", { { 2, 2, 3 }, { 2, 3, 2 }, { 2, 2, 4 } } },
  }
  it("agrees with NumPy on TF's documented equations (EinsumOpTest)", function()
    for ci, c in ipairs(cases) do
      local operands = {}
      for i, shape in ipairs(c[2]) do operands[i] = rand(shape, ci * 10 + i) end
      local got = tf.einsum(c[1], table.unpack(operands))
      H.close(numpy_einsum(c[1], operands), tf.reshape(got, { -1 }), 1e-12)
    end
  end)

  it("gives TF's shapes and dtypes, integers and float32 included", function()
    H.tensor(tf.einsum("ij,jk->ik", tf.constant({ { 1, 2 }, { 3, 4 } }), tf.constant({ { 5, 6 }, { 7, 8 } })), tf.int32,
      { 2, 2 }, { { 19, 22 }, { 43, 50 } })
    H.tensor(tf.einsum("ii", tf.constant({ { 1.0, 2.0 }, { 3.0, 4.0 } })), F32, {}, 5)
    H.tensor(tf.einsum("i->ii", tf.constant({ 1.0, 2.0 })), F32, { 2, 2 }, { { 1, 0 }, { 0, 2 } })
    H.tensor(tf.einsum("ij,jk->ik", tf.zeros({ 2, 0 }), tf.zeros({ 0, 3 })), F32, { 2, 3 }, { { 0, 0, 0 }, { 0, 0, 0 } })
    H.tensor(tf.einsum("i,i", { 1.0, 2.0 }, { 3.0, 4.0 }), F32, {}, 11)
  end)

  it("raises TF's errors", function()
    local a = tf.ones({ 2, 3 })
    H.raises("ValueError", "Indices have incorrect format", tf.einsum, "ij->j>", a)
    H.raises("ValueError", "expecting 2", tf.einsum, "ij,jk->ik", a)
    H.raises("InvalidArgumentError", "Expected dimension 3 at axis 0", tf.einsum, "ij,jk->ik", a, a)
    H.raises("InvalidArgumentError", "to have rank 3", tf.einsum, "ijk->k", a)
    H.raises("InvalidArgumentError", "no ellipsis", tf.einsum, "...j->j", tf.ones({ 2, 2, 3 }))
    H.raises("InvalidArgumentError", nil, tf.einsum, "ij,jk->ik", a, tf.ones({ 3, 2 }, F64))
  end)

  it("has TF's gradient for every kind of equation", function()
    local w = rand({ 3, 4 }, 1)
    local v = rand({ 3 }, 2)
    check_grad(function(x) return tf.einsum("ij,jk->ik", x, w) end, flat(uniform(2, 3, 3)), { 2, 3 })
    check_grad(function(x) return tf.einsum("ij,jk->ik", w, x) end, flat(uniform(4, 2, 4)), { 4, 2 })
    check_grad(function(x) return tf.einsum("ii->", x) end, flat(uniform(3, 3, 5)), { 3, 3 })
    check_grad(function(x) return tf.einsum("ii->i", x) end, flat(uniform(3, 3, 6)), { 3, 3 })
    check_grad(function(x) return tf.einsum("ij->ji", x) end, flat(uniform(2, 3, 7)), { 2, 3 })
    check_grad(function(x) return tf.einsum("ij->j", x) end, flat(uniform(2, 3, 8)), { 2, 3 })
    check_grad(function(x) return tf.einsum("aab->ba", x) end, flat(uniform(1, 12, 9)), { 2, 2, 3 })
    check_grad(function(x) return tf.einsum("i,j->ij", x, v) end, flat(uniform(1, 2, 10)), { 2 })
    check_grad(function(x) return tf.einsum("ij,jk->k", x, w) end, flat(uniform(2, 3, 11)), { 2, 3 })
    check_grad(function(x) return tf.einsum("ij,j->", x, v) end, flat(uniform(2, 3, 12)), { 2, 3 })
    check_grad(function(x) return tf.einsum("bij,bjk->bik", x, rand({ 2, 3, 2 }, 3)) end, flat(uniform(1, 12, 13)),
      { 2, 2, 3 })
    check_grad(function(x) return tf.einsum("...ij,jk->...ik", x, w) end, flat(uniform(1, 12, 14)), { 2, 2, 3 })
    check_grad(function(x) return tf.einsum("...ij,...jk->...ik", x, rand({ 3, 3, 2 }, 4)) end,
      flat(uniform(1, 6, 15)), { 1, 2, 3 })
    check_grad(function(x) return tf.einsum("...ij,...jk->...ik", rand({ 2, 1, 2, 3 }, 5), x) end,
      flat(uniform(1, 18, 16)), { 3, 3, 2 })
  end)

  it("traces into one Einsum op with the eager values, and folds over constants", function()
    local a, b = rand({ 2, 3 }, 7), rand({ 3, 2 }, 8)
    local f = tf.func(function(x, y) return tf.einsum("ij,jk->ik", x, y), tf.einsum("ii", tf.einsum("ij,jk", x, y)) end)
    local m, t = f(a, b)
    H.close(tf.einsum("ij,jk->ik", a, b):numpy(), m, 0)
    H.close(tf.einsum("ii", tf.einsum("ij,jk", a, b)):numpy(), t, 0)
    assert.is_true(traced_types(function(x) return tf.einsum("ij->j", x) end, a).Einsum)
    local unknown = tf.func(function(x) return tf.einsum("...ij->...ji", x) end,
      { input_signature = { tf.TensorSpec(nil, F64) } })
    H.close(tf.einsum("...ij->...ji", rand({ 2, 2, 3 }, 9)):numpy(), unknown(rand({ 2, 2, 3 }, 9)), 0)
    local const = tf.func(function() return tf.einsum("i,i->", tf.constant({ 1.0, 2.0 }), tf.constant({ 3.0, 4.0 })) end)
    H.tensor(const(), F32, {}, 11)
  end)
end)

describe("tf.linalg.matrix_transpose / adjoint", function()
  it("swap the last two dims, for a known and an unknown rank", function()
    local x = tf.reshape(tf.range(12), { 2, 3, 2 })
    local want = { { { 0, 2, 4 }, { 1, 3, 5 } }, { { 6, 8, 10 }, { 7, 9, 11 } } }
    H.tensor(tf.linalg.matrix_transpose(x), tf.int32, { 2, 2, 3 }, want)
    H.tensor(tf.linalg.adjoint(x), tf.int32, { 2, 2, 3 }, want)
    local f = tf.func(function(t) return tf.linalg.matrix_transpose(t) end,
      { input_signature = { tf.TensorSpec(nil, tf.int32) } })
    H.tensor(f(x), tf.int32, { 2, 2, 3 }, want)
    H.raises("ValueError", "rank >= 2", tf.linalg.matrix_transpose, tf.constant({ 1, 2 }))
  end)
end)
