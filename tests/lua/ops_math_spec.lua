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
    H.raises("TypeError", nil, tf.math.divide_no_nan, tf.constant(1.0), tf.constant(1.0, F64))
  end)

  it("is one DivNoNan op, traced and fused with its neighbours", function()
    local types = traced_types(function(a, b) return tf.math.divide_no_nan(a, b) end,
      tf.constant({ 1.0 }), tf.constant({ 2.0 }))
    assert.is_true(types.DivNoNan)
    local f = tf.func(function(a, b) return tf.exp(tf.math.divide_no_nan(a + 1, b) * 2) end)
    local a, b = tf.constant({ 1.0, 2.0, 3.0 }), tf.constant({ 2.0, 0.0, 4.0 })
    H.close({ math.exp(2), 1, math.exp(2) }, f(a, b), 1e-6)
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
