-- relu_op_spec.lua — tensorflow/python/kernel_tests/nn_ops/relu_op_test.py,
-- ported for the activations of issue 27: Relu6Test, LeakyReluTest,
-- EluTest, SeluTest (ReluTest's relu is covered by nn_grad_spec.lua).
--
-- Translation: values run eagerly and inside a tf.func, assertAllClose
-- (AccordingToType) is T.equal within 1e-6 (float32: 1e-6 relative to the
-- NumPy value computed in Lua doubles); gradient_checker_v2's max_error
-- is T.check_gradient (eager and traced tapes) with TF's bounds.
--
-- Left out: the float16 and bfloat16 passes but Relu6's (exact in
-- them; the others need assertAllClose's half tolerances, which this
-- port's T.equal does not take), the GPU tests, and CreluTest (moonflow
-- has no tf.nn.crelu).

local tf = tf or require("moonflow")
local T = require("tfhelpers")

local NUMBERS = { { -9, 7, -5, 3, -1 }, { 1, -3, 5, -7, 9 } }
local SMOOTH = { { -0.9, -0.7, -0.5, -0.3, -0.1 }, { 0.1, 0.3, 0.5, 0.7, 0.9 } }

local function map2(rows, f)
  local out = {}
  for i, r in ipairs(rows) do
    out[i] = {}
    for j, v in ipairs(r) do out[i][j] = f(v) end
  end
  return out
end

-- assertAllClose with NaN where NumPy has NaN.
local function same(want, got)
  got = T.plain(got)
  local function walk(w, g, path)
    if type(w) == "table" then
      for i = 1, #w do walk(w[i], g[i], path .. "[" .. i .. "]") end
    elseif w ~= w then
      assert.is_true(g ~= g, "NaN expected at " .. path)
    else
      T.equal(w, g)
    end
  end
  walk(want, got, "")
end

local function compare(f, np_f, values, dtype)
  local x = tf.constant(values, dtype)
  T.eager_and_traced(function() return f(x) end, {}, function(mode, y)
    assert.are.same(x.shape:as_list(), y.shape:as_list(), mode)
    same(map2(type(values[1]) == "table" and values or { values }, np_f), type(values[1]) == "table" and y or { y })
  end)
end

local function grad_of(f)
  return function(x)
    local tape = tf.GradientTape()
    tape:watch(x)
    local y = f(x)
    tape:stop()
    return tape:gradient(y, x)
  end
end

describe("relu_op_test.py Relu6Test", function()
  local function np_relu6(v) return math.min(math.max(v, 0), 6) end
  it("testNumbersCPU", function()
    for _, dt in ipairs({ tf.int32, tf.int64, tf.float16, tf.float32, tf.float64, tf.bfloat16 }) do
      compare(tf.nn.relu6, np_relu6, NUMBERS, dt)
    end
  end)
  it("testNaNPropagation", function()
    local nan = 0 / 0
    for _, dt in ipairs({ tf.float16, tf.float32, tf.float64, tf.bfloat16 }) do
      compare(tf.nn.relu6, function(v) return v ~= v and v or np_relu6(v) end, { -1, nan, 1, 7, nan }, dt)
    end
  end)
  it("testGradientFloat32, testGradientFloat64", function()
    local x = { { -0.9, -0.7, -0.5, -0.3, -0.1 }, { 6.1, 6.3, 6.5, 6.7, 6.9 } }
    T.check_gradient(tf.nn.relu6, { tf.constant(x, tf.float32) }, 1e-4)
    T.check_gradient(tf.nn.relu6, { tf.constant(x, tf.float64) }, 1e-10)
  end)
end)

describe("relu_op_test.py LeakyReluTest", function()
  local function np_leaky(alpha) return function(v) return math.max(v, alpha * v) end end
  it("testNumbersCPU", function()
    for _, dt in ipairs({ tf.int32, tf.int64, tf.float32, tf.float64 }) do
      compare(function(x) return tf.nn.leaky_relu(x, 0.2) end, np_leaky(0.2), NUMBERS, dt)
    end
    -- integer features are made float32 (nn_ops.leaky_relu)
    assert.are.equal(tf.float32, tf.nn.leaky_relu(tf.constant(NUMBERS)).dtype)
  end)
  it("testNaNPropagation", function()
    local nan = 0 / 0
    for _, dt in ipairs({ tf.float32, tf.float64 }) do
      compare(function(x) return tf.nn.leaky_relu(x, 0.2) end,
        function(v) return v ~= v and v or np_leaky(0.2)(v) end, { -1, nan, 1, nan }, dt)
    end
  end)
  it("testGradientFloat32, testGradientFloat64, testGradGradFloat32, testGradGradFloat64", function()
    T.check_gradient(tf.nn.leaky_relu, { tf.constant(SMOOTH, tf.float32) }, 1e-4)
    T.check_gradient(tf.nn.leaky_relu, { tf.constant(SMOOTH, tf.float64) }, 1e-10)
    T.check_gradient(grad_of(tf.nn.leaky_relu), { tf.constant(SMOOTH, tf.float32) }, 1e-4)
    T.check_gradient(grad_of(tf.nn.leaky_relu), { tf.constant(SMOOTH, tf.float64) }, 1e-10)
  end)
  it("testGradientScalar", function()
    -- GradientDescentOptimizer(0.2).minimize(leaky_relu(x, 0.05)^2), one step
    local x = tf.Variable(-100.0)
    local tape = tf.GradientTape()
    local loss = tf.nn.leaky_relu(x, 0.05) ^ 2
    tape:stop()
    x:assign_sub(0.2 * tape:gradient(loss, x))
    T.equal(-99.9, x:read_value(), 1e-5)
  end)
  it("testUnexpectedAlphaValue", function()
    local x = { { -0.9, 0.7, -0.5, 0.3, -0.01 }, { 0.1, -0.3, 0.5, -2.7, 0.9 } }
    T.equal({ { -9.0, 0.7, -5.0, 0.3, -0.1 }, { 0.1, -3.0, 0.5, -27.0, 0.9 } },
      tf.nn.leaky_relu(tf.constant(x, tf.float64), 10))
    T.equal({ { 9.0, 0.7, 5.0, 0.3, 0.1 }, { 0.1, 3.0, 0.5, 27.0, 0.9 } },
      tf.nn.leaky_relu(tf.constant(x, tf.float64), -10))
  end)
end)

describe("relu_op_test.py EluTest", function()
  local function np_elu(v) return v < 0 and math.exp(v) - 1 or v end
  it("testNumbersCPU", function()
    for _, dt in ipairs({ tf.float32, tf.float64 }) do compare(tf.nn.elu, np_elu, NUMBERS, dt) end
  end)
  it("testNaNPropagation", function()
    local nan = 0 / 0
    for _, dt in ipairs({ tf.float32, tf.float64 }) do
      compare(tf.nn.elu, function(v) return v ~= v and v or np_elu(v) end, { -1, nan, 1, nan }, dt)
    end
  end)
  it("testGradientFloat32, testGradientFloat64", function()
    T.check_gradient(tf.nn.elu, { tf.constant(SMOOTH, tf.float32) }, 1e-4)
    T.check_gradient(tf.nn.elu, { tf.constant(SMOOTH, tf.float64) }, 1e-6)
  end)
  it("testGradGrad", function()
    -- _elu_grad_grad: exp(x) below 0, else 0
    for _, v in ipairs({ -1., -0.5, 0.5, 1. }) do
      local x = tf.constant(v)
      local tape = tf.GradientTape({ persistent = true })
      tape:watch(x)
      local y = tf.nn.elu(x)
      local dy = tape:gradient(y, x)
      tape:stop()
      local got = tape:gradient(dy, x):numpy()
      local want = v < 0 and math.exp(v) or 0
      assert.is_true(math.abs(got - want) < 1e-4, ("x = %g: %g, want %g"):format(v, got, want))
    end
  end)
  it("testGradGradFloat32, testGradGradFloat64", function()
    T.check_gradient(grad_of(tf.nn.elu), { tf.constant(SMOOTH, tf.float32) }, 1e-4)
    T.check_gradient(grad_of(tf.nn.elu), { tf.constant(SMOOTH, tf.float64) }, 1e-6)
  end)
end)

describe("relu_op_test.py SeluTest", function()
  local function np_selu(v)
    local scale, scale_alpha = 1.0507009873554804934193349852946, 1.7580993408473768599402175208123
    return v < 0 and scale_alpha * (math.exp(v) - 1) or scale * v
  end
  it("testNpSelu, testNumbers", function()
    T.equal({ { -1.0433095, 0.73549069, -0.6917582, 0.3152103, -0.16730527 },
      { 0.1050701, -0.45566732, 0.5253505, -0.88505305, 0.9456309 } },
      tf.nn.selu(tf.constant({ { -0.9, 0.7, -0.5, 0.3, -0.1 }, { 0.1, -0.3, 0.5, -0.7, 0.9 } }, tf.float64)))
    for _, dt in ipairs({ tf.float32, tf.float64 }) do compare(tf.nn.selu, np_selu, NUMBERS, dt) end
  end)
  it("testGradientFloat32, testGradientFloat64, testGradGradFloat32, testGradGradFloat64", function()
    T.check_gradient(tf.nn.selu, { tf.constant(SMOOTH, tf.float32) }, 1e-4, { delta = 1.0 / 1024 })
    T.check_gradient(tf.nn.selu, { tf.constant(SMOOTH, tf.float64) }, 1e-6)
    T.check_gradient(grad_of(tf.nn.selu), { tf.constant(SMOOTH, tf.float32) }, 1e-4, { delta = 1.0 / 1024 })
    T.check_gradient(grad_of(tf.nn.selu), { tf.constant(SMOOTH, tf.float64) }, 1e-6)
  end)
end)
