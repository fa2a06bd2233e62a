-- nn_grad_spec.lua — the gradient cases of tensorflow/python/ops/nn_grad_test.py
-- and of the kernel tests of the ops nn_grad.py differentiates
-- (tensorflow/python/kernel_tests/nn_ops/: relu_op_test.py,
-- xent_op_test_base.py, ...), ported. Translation as in math_grad_spec.lua:
-- gradient_checker(_v2) cases are T.check_gradient / T.check_jacobians
-- (eager and traced; the TF1 checker feeds random_sample values where no
-- x_init_value is given, and steps by 1e-3: T.V1); a placeholder is a
-- tf.func parameter; the ops of a TF1 graph are those of a tf.func's
-- concrete function; GradientDescentOptimizer(lr).minimize(loss) is a tape
-- and tf.keras.optimizers.SGD(lr):apply_gradients.
--
-- Left out (moonflow has no such op or dtype): Relu6OpTest, EluGradOpTest,
-- SeluGradOpTest, SwishGradOpTest, DepthwiseConv2dTest and
-- Conv2dOpTest.testConv2dBackpropFilterGrad (depthwise_conv2d); from
-- relu_op_test.py the Relu6, LeakyRelu, Elu, Selu, CRelu, GELU cases and
-- ReluTest.testGradientFloat16; from xent_op_test_base.py the float16 and
-- bfloat16 cases (testHalf, testBfloat16, testLabelsBroadcast); from
-- bias_op_base.py the float16 and bfloat16 halves (the gradient cases run
-- _computeGradient's eager branch, TF 2's); from pooling_ops_test.py the
-- NCHW configurations (GPU-only in TF's GetTestConfigs), explicit paddings
-- (moonflow's pools take 'SAME' and 'VALID'), MaxPoolWithArgmax and the
-- raw gen_nn_ops calls (testMaxPoolGradEagerShapeErrors and friends); the
-- direct MaxPoolGrad cases take the pool's gradient for output_backprop,
-- which is that op.

local tf = tf or require("moonflow")
local T = require("tfhelpers")
local H = require("helpers")

local function has_op(cf, type)
  for _, t in ipairs(H.op_types(cf)) do
    if t == type then return true end
  end
  return false
end

describe("nn_grad_test.py", function()
  -- nn_grad_test.py: SoftmaxOpTest.testSoftmaxGradGradExtendType
  it("SoftmaxOpTest.testSoftmaxGradGradExtendType", function()
    local function f(x)
      assert.are.equal(tf.float32, x.dtype)
      local tape = tf.GradientTape()
      tape:watch(x)
      local y = tf.nn.softmax(x)
      tape:stop()
      return tape:gradient(y, x)
    end
    local x = tf.constant({ { -2, -1, 1, 3 }, { 5, 7, 8, 9 } }, tf.float32)
    T.check_gradient(f, { x }, 1e-4)
  end)

  -- Conv2dOpTest.run_test: compute_gradient_error(x, ..., y, ...) < 1e-3.
  -- nn_grad_test.py: Conv2dOpTest.testConv2dGradWRTInput
  it("Conv2dOpTest.testConv2dGradWRTInput", function()
    local f = tf.fill({ 2, 2, 3, 2 }, 0.5)
    -- x is a placeholder: the checker feeds random_sample values
    T.check_gradient(function(x) return tf.nn.conv2d(x, f, { 1, 1, 1, 1 }, "SAME") end,
      { T.rand({ 1, 4, 4, 3 }) }, 1e-3, T.V1)
  end)

  -- nn_grad_test.py: Conv2dOpTest.testConv2dGradWRTFilter
  it("Conv2dOpTest.testConv2dGradWRTFilter", function()
    local x = tf.fill({ 1, 4, 4, 3 }, 0.5)
    T.check_gradient(function(f) return tf.nn.conv2d(x, f, { 1, 1, 1, 1 }, "SAME") end,
      { T.rand({ 2, 2, 3, 2 }) }, 1e-3, T.V1)
  end)
end)

describe("relu_op_test.py", function()
  -- The gradient test for ReLU is a bit tricky as the derivative is not well
  -- defined at around zero and we want to avoid that in terms of input values.
  local X = { { -0.9, -0.7, -0.5, -0.3, -0.1 }, { 0.1, 0.3, 0.5, 0.7, 0.9 } }
  local function relu_grad(x)
    local tape = tf.GradientTape()
    tape:watch(x)
    local y = tf.nn.relu(x)
    tape:stop()
    return tape:gradient(y, x)
  end

  -- relu_op_test.py: ReluTest.testGradientFloat32
  it("ReluTest.testGradientFloat32", function()
    T.check_gradient(tf.nn.relu, { tf.constant(X, tf.float32) }, 1e-6, { delta = 1 / 1024 })
  end)

  -- relu_op_test.py: ReluTest.testGradientFloat64
  it("ReluTest.testGradientFloat64", function()
    T.check_gradient(tf.nn.relu, { tf.constant(X, tf.float64) }, 1e-15, { delta = 1 / 1024 })
  end)

  -- relu_op_test.py: ReluTest.testGradGradFloat32
  it("ReluTest.testGradGradFloat32", function()
    T.check_gradient(function(x)
      assert.are.equal(tf.float32, x.dtype)
      return relu_grad(x)
    end, { tf.constant(X, tf.float32) }, 1e-4, { delta = 1 / 1024 })
  end)

  -- relu_op_test.py: ReluTest.testGradGradFloat64
  it("ReluTest.testGradGradFloat64", function()
    T.check_gradient(function(x)
      assert.are.equal(tf.float64, x.dtype)
      return relu_grad(x)
    end, { tf.constant(X, tf.float64) }, 1e-10, { delta = 1 / 1024 })
  end)

  -- relu_op_test.py: ReluTest.testGradientScalar
  it("ReluTest.testGradientScalar", function()
    local x = tf.Variable(100.0)
    local function loss() return tf.nn.relu(x) ^ 2 end
    local optimizer = tf.keras.optimizers.SGD(0.25)
    local tape = tf.GradientTape()
    local l = loss()
    tape:stop()
    optimizer:apply_gradients({ { tape:gradient(l, x), x } })
    T.equal(50.0, x:read_value())
  end)

  -- relu_op_test.py: ReluTest.testGradientNoElement
  it("ReluTest.testGradientNoElement", function()
    local x = tf.zeros({ 2, 0 }, tf.float32)
    local theoretical = T.compute_gradient(relu_grad, { x })
    -- z = jacobian_t of the only argument: a 0 x 0 matrix
    assert.are.same({}, theoretical[1])
  end)
end)

describe("xent_op_test_base.py", function()
  -- _opFwdBwd: the loss and its gradient for the logits.
  local function fwd_bwd(labels, logits)
    logits = tf.convert_to_tensor(logits)
    local tape = tf.GradientTape()
    tape:watch(logits)
    local loss = tf.nn.softmax_cross_entropy_with_logits(labels, logits)
    tape:stop()
    return loss, tape:gradient(loss, logits)
  end

  -- _npXent: the loss and the backprop (softmax - labels) along the last axis.
  local function np_xent(labels, logits)
    local losses, grads = {}, {}
    for i, row in ipairs(logits) do
      local m = -math.huge
      for _, v in ipairs(row) do m = math.max(m, v) end
      local e, s = {}, 0
      for j, v in ipairs(row) do e[j] = math.exp(v - m); s = s + e[j] end
      local l, g = 0, {}
      for j = 1, #row do
        local p = e[j] / s
        g[j] = p - labels[i][j]
        l = l - labels[i][j] * math.log(p + 1e-20)
      end
      losses[i], grads[i] = l, g
    end
    return losses, grads
  end

  -- _testXent2D, eagerly and traced.
  local function xent_2d(labels, logits, dtype, tol)
    local np_loss, np_gradient = np_xent(labels, logits)
    T.eager_and_traced(function()
      return fwd_bwd(tf.constant(labels, dtype), tf.constant(logits, dtype))
    end, {}, function(_, loss, gradient)
      T.equal(np_loss, loss, tol)
      T.equal(np_gradient, gradient, tol)
    end)
  end

  -- xent_op_test_base.py: XentOpTestBase.testSingleClass (float32)
  it("XentOpTestBase.testSingleClass", function()
    local loss, gradient = fwd_bwd(tf.constant({ { -1.0 }, { 0.0 }, { 1.0 }, { 1.0 } }),
      tf.constant({ { 1.0 }, { -1.0 }, { 0.0 }, { 1.0 } }))
    T.equal({ 0.0, 0.0, 0.0, 0.0 }, loss)
    T.equal({ { 2.0 }, { 1.0 }, { 0.0 }, { 0.0 } }, gradient)
  end)

  local LABELS = { { 0.0, 0.0, 0.0, 1.0 }, { 0.0, 0.5, 0.5, 0.0 } }
  local LOGITS = { { 1.0, 1.0, 1.0, 1.0 }, { 1.0, 2.0, 3.0, 4.0 } }

  -- xent_op_test_base.py: XentOpTestBase.testFloat
  it("XentOpTestBase.testFloat", function() xent_2d(LABELS, LOGITS, tf.float32, 1e-6) end)

  -- xent_op_test_base.py: XentOpTestBase.testDouble
  it("XentOpTestBase.testDouble", function() xent_2d(LABELS, LOGITS, tf.float64, 1e-6) end)

  local LABELS_3x4 = { 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.5, 0.0, 0.5 }

  -- xent_op_test_base.py: XentOpTestBase.testGradient
  it("XentOpTestBase.testGradient", function()
    local labels = T.tensor(LABELS_3x4, { 3, 4 }, tf.float64)
    local function xent(logits) return tf.nn.softmax_cross_entropy_with_logits(labels, logits) end
    -- logits = constant(...): the checker feeds random_sample values
    T.check_gradient(xent, { T.rand({ 3, 4 }, tf.float64) }, 5e-8, T.V1)
    -- Check that no extra computation gets performed. When only the first
    -- derivative is requested, the second derivative must not be computed.
    -- So when there is no second derivative, there is no `BatchMatMul` op
    -- in the graph.
    local f = tf.func(function(logits)
      local tape = tf.GradientTape()
      tape:watch(logits)
      local x = xent(logits)
      tape:stop()
      return tape:gradient(x, logits)
    end)
    local cf = f:get_concrete_function(tf.TensorSpec({ 3, 4 }, tf.float64))
    assert.is_false(has_op(cf, "BatchMatMul"))
    assert.is_false(has_op(cf, "BatchMatMulV2"))
  end)

  -- xent_op_test_base.py: XentOpTestBase.testGradientLabelWithV2
  it("XentOpTestBase.testGradientLabelWithV2", function()
    local logits = T.tensor({ 0.1, 0.2, 0.3, 0.4, 0.1, 0.4, 0.9, 1.6, 0.1, 0.8, 2.7, 6.4 }, { 3, 4 }, tf.float64)
    T.check_gradient(function(labels) return tf.nn.softmax_cross_entropy_with_logits(labels, logits) end,
      { T.rand({ 3, 4 }, tf.float64) }, 5e-8, T.V1)
  end)

  -- xent_op_test_base.py: XentOpTestBase.testSecondGradient
  it("XentOpTestBase.testSecondGradient", function()
    local labels = T.tensor({ 0.0, 0.0, 1.0 / 3, 0.0, 1.0 / 3, 0.0, 0.0, 0.0, 0.0, 0.5 / 3, 0.0, 0.5 / 3 },
      { 12 }, tf.float64)
    local function gradients(logits)
      local tape = tf.GradientTape()
      tape:watch(logits)
      local x = tf.nn.softmax_cross_entropy_with_logits(labels, logits)
      local loss = tf.reduce_sum(x)
      tape:stop()
      return tape:gradient(loss, logits)
    end
    T.check_gradient(gradients, { T.rand({ 12 }, tf.float64) }, 5e-8, T.V1)
    -- Check how second derivative is calculated.
    -- (it is equivalent to a `BatchMatMul` op being in the graph because of
    -- the implementation in SoftmaxCrossEntropyWithLogitsGrad)
    local f = tf.func(function(logits)
      local tape = tf.GradientTape()
      tape:watch(logits)
      local g = gradients(logits)
      tape:stop()
      return tape:gradient(g, logits)
    end)
    local cf = f:get_concrete_function(tf.TensorSpec({ 12 }, tf.float64))
    assert.is_true(has_op(cf, "BatchMatMulV2"))
  end)

  -- _npXent along axis `dim` of a rank-3 array (nested Lua tables).
  local function np_xent_3d(labels, logits, dim)
    local sizes = { #logits, #logits[1], #logits[1][1] }
    local function at(t, idx) return t[idx[1]][idx[2]][idx[3]] end
    local out = {}
    local others = {}
    for d = 1, 3 do if d ~= dim + 1 then others[#others + 1] = d end end
    for a = 1, sizes[others[1]] do
      out[a] = {}
      for b = 1, sizes[others[2]] do
        local idx = {}
        idx[others[1]], idx[others[2]] = a, b
        local m, s = -math.huge, 0
        for k = 1, sizes[dim + 1] do idx[dim + 1] = k; m = math.max(m, at(logits, idx)) end
        for k = 1, sizes[dim + 1] do idx[dim + 1] = k; s = s + math.exp(at(logits, idx) - m) end
        local l = 0
        for k = 1, sizes[dim + 1] do
          idx[dim + 1] = k
          l = l - at(labels, idx) * math.log(math.exp(at(logits, idx) - m) / s + 1e-20)
        end
        out[a][b] = l
      end
    end
    return out
  end

  -- xent_op_test_base.py: XentOpTestBase.test3D
  it("XentOpTestBase.test3D", function()
    local labels = { { { 0., 0., 0., 1. }, { 0., 1., 0., 0. } }, { { 0., 0.5, 0.5, 0. }, { 0.5, 0.5, 0., 0. } },
      { { 0., 1., 0., 0. }, { 0., 0., 1., 0. } } }
    local logits = { { { 1., 1., 1., 1. }, { 1., 2., 3., 4. } }, { { 2., 3., 4., 5. }, { 6., 7., 8., 9. } },
      { { 5., 4., 3., 2. }, { 1., 2., 3., 4. } } }
    for _, dim in ipairs({ 0, 1, -1 }) do
      local loss = tf.nn.softmax_cross_entropy_with_logits(tf.constant(labels), tf.constant(logits), dim)
      T.equal(np_xent_3d(labels, logits, dim % 3), loss, 1e-5)
    end
  end)

  -- xent_op_test_base.py: XentOpTestBase.testZeroDimension
  it("XentOpTestBase.testZeroDimension", function()
    local labels, logits = tf.zeros({ 0, 2, 4 }), tf.zeros({ 0, 2, 4 })
    local loss = tf.nn.softmax_cross_entropy_with_logits(labels, logits)
    assert.are.same({ 0, 2 }, loss.shape:as_list())
  end)
end)

describe("xent_op_test_base.py, in a graph", function()
  -- xent_op_test_base.py: XentOpTestBase.testShapeMismatch. In a graph
  -- (a TF1 graph, as in a tf.function) the op's shape function refuses
  -- [2, 3] labels for [2, 2] logits while the graph is built: ValueError.
  it("XentOpTestBase.testShapeMismatch", function()
    local f = tf.func(function()
      local logits = tf.constant({ { 0.0, 1.0 }, { 2.0, 3.0 } })
      local tape = tf.GradientTape()
      tape:watch(logits)
      local loss = tf.nn.softmax_cross_entropy_with_logits(tf.constant({ { 0.0, 1.0, 0.0 }, { 1.0, 0.0, 0.0 } }), logits)
      tape:stop()
      return loss, tape:gradient(loss, logits)
    end)
    T.raises("ValueError", "logits and labels must be broadcastable", T.quiet, f)
  end)
end)

describe("bias_op_base.py", function()
  -- _NHWCToNCHW: the channel axis moved to second place.
  local function to_nchw(values, shape)
    local n = #shape
    local perm = { 0, n - 1 }
    for i = 1, n - 2 do perm[#perm + 1] = i end
    local t = tf.transpose(T.tensor(values, shape, tf.float64), perm)
    return T.flatten(t:numpy()), t.shape:as_list()
  end

  -- _testGradient / _computeGradient (eager): the Jacobians for the input,
  -- the bias, and BiasAddGrad's (the bias gradient of bias_add(x, b) *
  -- upstream, as a function of upstream).
  local function test_gradient(values, shape, bias, dtype, data_format)
    if data_format == "NCHW" then values, shape = to_nchw(values, shape) end
    local input_tensor = T.tensor(values, shape, dtype)
    local bias_tensor = tf.constant(bias, dtype)
    local function bias_add(i, b) return tf.nn.bias_add(i, b, data_format) end
    local size = T.count_elements(shape)
    local threshold = dtype == tf.float64 and 1e-10 or (size >= 512 and 5e-2 or 5e-3)
    T.check_jacobians(function(i) return bias_add(i, bias_tensor) end, { input_tensor }, threshold, threshold)
    T.check_jacobians(function(b) return bias_add(input_tensor, b) end, { bias_tensor }, threshold, threshold)
    -- Test gradient of BiasAddGrad
    local function bias_add_grad_function(upstream_gradients)
      local tape = tf.GradientTape()
      tape:watch(bias_tensor)
      local bias_add_output = bias_add(input_tensor, bias_tensor)
      local gradient_injector_output = bias_add_output * upstream_gradients
      tape:stop()
      return tape:gradient(gradient_injector_output, bias_tensor)
    end
    local upstream = {}
    for i, r in ipairs(T.rand_values(shape)) do upstream[i] = 2 * r - 1 end
    T.check_jacobians(bias_add_grad_function, { T.tensor(upstream, shape, dtype) }, threshold, threshold)
  end

  local function arange(from, to)
    local out = {}
    for v = from, to - 1 do out[#out + 1] = v end
    return out
  end

  -- bias_op_base.py: BiasAddTestBase.testGradientTensor2D (float32, float64)
  it("BiasAddTestBase.testGradientTensor2D", function()
    for _, dtype in ipairs({ tf.float32, tf.float64 }) do
      test_gradient({ 1.0, 2.0, 3.0, 4.0, 5.0, 6.0 }, { 3, 2 }, { 1.3, 2.4 }, dtype, "NHWC")
    end
  end)

  -- bias_op_base.py: BiasAddTestBase.testGradientTensor3D (float32, float64)
  it("BiasAddTestBase.testGradientTensor3D", function()
    for _, data_format in ipairs({ "NHWC", "NCHW" }) do
      for _, dtype in ipairs({ tf.float32, tf.float64 }) do
        test_gradient({ 1.0, 2.0, 3.0, 4.0, 5.0, 6.0 }, { 1, 3, 2 }, { 1.3, 2.4 }, dtype, data_format)
      end
    end
  end)

  -- bias_op_base.py: BiasAddTestBase.testGradientTensor4D (float32, float64)
  it("BiasAddTestBase.testGradientTensor4D", function()
    for _, dtype in ipairs({ tf.float32, tf.float64 }) do
      test_gradient(arange(1, 49), { 2, 3, 4, 2 }, { 1.3, 2.4 }, dtype, "NHWC")
      test_gradient(arange(1, 513), { 64, 2, 2, 2 }, { 1.3, 2.4 }, dtype, "NHWC")
      test_gradient(arange(1, 513), { 2, 2, 2, 64 }, T.rand_values({ 64 }), dtype, "NHWC")
    end
  end)

  -- bias_op_base.py: BiasAddTestBase.testGradientTensor5D (float32, float64)
  it("BiasAddTestBase.testGradientTensor5D", function()
    for _, data_format in ipairs({ "NHWC", "NCHW" }) do
      for _, dtype in ipairs({ tf.float32, tf.float64 }) do
        test_gradient(arange(1, 49), { 1, 2, 3, 4, 2 }, { 1.3, 2.4 }, dtype, data_format)
      end
    end
  end)

  -- bias_op_base.py: BiasAddTestBase.test1x1Image
  it("BiasAddTestBase.test1x1Image", function()
    for _, data_format in ipairs({ "NHWC", "NCHW" }) do
      test_gradient(arange(1, 129), { 4, 1, 1, 32 }, T.rand_values({ 32 }), tf.float32, data_format)
    end
  end)

  -- bias_op_base.py: BiasAddTestBase.testEmptyGradient
  it("BiasAddTestBase.testEmptyGradient", function()
    for _, shape in ipairs({ { 0, 0 }, { 2, 0 }, { 0, 2 } }) do
      test_gradient(T.randn_values(shape), shape, T.randn_values({ shape[#shape] }), tf.float64, "NHWC")
    end
    for _, data_format in ipairs({ "NHWC", "NCHW" }) do
      for _, shape in ipairs({ { 4, 3, 0 }, { 4, 0, 3 }, { 0, 4, 3 } }) do
        test_gradient(T.randn_values(shape), shape, T.randn_values({ shape[#shape] }), tf.float64, data_format)
      end
    end
  end)
end)

describe("pooling_ops_test.py", function()
  local function arange_values(n)
    local out = {}
    for i = 1, n do out[i] = i end
    return out
  end

  -- _ConstructAndTestGradient (NHWC): compute_gradient_error of the pool
  -- with delta 1e-2; max pools are fed arange(1, n + 1) (no ties), avg
  -- pools the checker's random_sample values.
  local function construct_and_test_gradient(pool, input_sizes, output_sizes, window_rows, window_cols,
      row_stride, col_stride, padding)
    local total = T.count_elements(input_sizes)
    local x, tol
    if pool == tf.nn.avg_pool then
      x, tol = T.rand(input_sizes), 1e-4
    else
      x, tol = T.tensor(arange_values(total), input_sizes), 1e-3
    end
    local function f(t)
      local y = pool(t, { 1, window_rows, window_cols, 1 }, { 1, row_stride, col_stride, 1 }, padding)
      assert.are.same(output_sizes, y.shape:as_list())
      return y
    end
    T.check_gradient(f, { x }, tol, { delta = 1e-2 })
  end

  -- _ConstructAndTestSecondGradient: the error of gradients(t ** 2, input)
  -- (TF passes window_rows for both window dimensions there).
  local function construct_and_test_second_gradient(pool, input_sizes, output_sizes, window_rows, _,
      row_stride, col_stride, padding)
    local total = T.count_elements(input_sizes)
    local x = T.tensor(arange_values(total), input_sizes)
    local function t_g(input)
      local tape = tf.GradientTape()
      tape:watch(input)
      local t = pool(input, { 1, window_rows, window_rows, 1 }, { 1, row_stride, col_stride, 1 }, padding)
      assert.are.same(output_sizes, t.shape:as_list())
      local sq = t ^ 2
      tape:stop()
      return tape:gradient(sq, input)
    end
    T.check_gradient(t_g, { x }, 1e-2, { delta = 1e-2 })
  end

  local MAX_CASES = {
    { { 1, 3, 3, 1 }, { 1, 3, 3, 1 }, 1, 1, 1, 1, "VALID" }, -- ValidPadding1_1
    { { 1, 3, 3, 1 }, { 1, 2, 2, 1 }, 1, 1, 2, 2, "VALID" }, -- ValidPadding1_2
    { { 2, 6, 6, 3 }, { 2, 5, 5, 3 }, 2, 2, 1, 1, "VALID" }, -- ValidPadding2_1_6
    { { 2, 7, 7, 3 }, { 2, 6, 6, 3 }, 2, 2, 1, 1, "VALID" }, -- ValidPadding2_1_7
    { { 2, 2, 2, 3 }, { 2, 1, 1, 3 }, 2, 2, 2, 2, "VALID" }, -- ValidPadding2_2
    { { 2, 2, 4, 3 }, { 2, 2, 4, 3 }, 1, 1, 1, 1, "SAME" }, -- SamePadding1_1
    { { 2, 2, 4, 3 }, { 2, 1, 2, 3 }, 1, 1, 2, 2, "SAME" }, -- SamePadding1_2
    { { 2, 2, 4, 3 }, { 2, 2, 4, 3 }, 2, 2, 1, 1, "SAME" }, -- SamePadding2_1
    { { 2, 2, 4, 3 }, { 2, 1, 2, 3 }, 2, 2, 2, 2, "SAME" }, -- SamePadding2_2
    { { 1, 7, 7, 1 }, { 1, 7, 7, 1 }, 3, 3, 1, 1, "SAME" }, -- SamePadding3_1
  }

  -- pooling_ops_test.py: PoolingTest.testMaxPoolGrad (NHWC; 'SAME' and 'VALID')
  it("PoolingTest.testMaxPoolGrad", function()
    for _, c in ipairs(MAX_CASES) do construct_and_test_gradient(tf.nn.max_pool, table.unpack(c)) end
  end)

  -- pooling_ops_test.py: PoolingTest.testMaxPoolGradGrad (NHWC)
  it("PoolingTest.testMaxPoolGradGrad", function()
    for _, k in ipairs({ 1, 3, 4, 5, 6, 8, 9, 10 }) do
      construct_and_test_second_gradient(tf.nn.max_pool, table.unpack(MAX_CASES[k]))
    end
  end)

  -- pooling_ops_test.py: PoolingTest.testAvgPoolGrad (NHWC)
  it("PoolingTest.testAvgPoolGrad", function()
    for _, c in ipairs({
      { { 2, 3, 3, 3 }, { 2, 3, 3, 3 }, 1, 1, 1, 1, "VALID" }, -- ValidPadding1_1
      { { 2, 3, 3, 3 }, { 2, 2, 2, 3 }, 1, 1, 2, 2, "VALID" }, -- ValidPadding1_2
      { { 2, 3, 3, 3 }, { 2, 2, 2, 3 }, 2, 2, 1, 1, "VALID" }, -- ValidPadding2_1
      { { 2, 2, 2, 3 }, { 2, 1, 1, 3 }, 2, 2, 2, 2, "VALID" }, -- ValidPadding2_2
      { { 2, 2, 4, 3 }, { 2, 2, 4, 3 }, 1, 1, 1, 1, "SAME" }, -- SamePadding1_1
      { { 2, 2, 4, 3 }, { 2, 1, 2, 3 }, 1, 1, 2, 2, "SAME" }, -- SamePadding1_2
      { { 2, 2, 4, 3 }, { 2, 2, 4, 3 }, 2, 2, 1, 1, "SAME" }, -- SamePadding2_1
      { { 2, 2, 4, 3 }, { 2, 1, 2, 3 }, 2, 2, 2, 2, "SAME" }, -- SamePadding2_2
      { { 1, 7, 7, 1 }, { 1, 7, 7, 1 }, 3, 3, 1, 1, "SAME" }, -- SamePadding3_1
    }) do
      construct_and_test_gradient(tf.nn.avg_pool, table.unpack(c))
    end
  end)

  -- _testMaxPoolGradDirect: MaxPoolGrad(input, max_pool(input), backprop),
  -- the pool's gradient for output_gradients = backprop, eagerly and traced.
  local function max_pool_grad_direct(input_data, output_backprop, expected, input_sizes, output_sizes,
      window_rows, window_cols, row_stride, col_stride, padding)
    local input = T.tensor(input_data, input_sizes)
    local backprop = T.tensor(output_backprop, output_sizes)
    T.eager_and_traced(function(x)
      local tape = tf.GradientTape()
      tape:watch(x)
      local y = tf.nn.max_pool(x, { 1, window_rows, window_cols, 1 }, { 1, row_stride, col_stride, 1 }, padding)
      tape:stop()
      return tape:gradient(y, x, backprop)
    end, { input }, function(_, got)
      assert.are.same(input_sizes, got.shape:as_list())
      T.equal(expected, T.flatten(got:numpy()), 1e-6)
    end)
  end

  -- pooling_ops_test.py: PoolingTest.testMaxPoolGradDirect (all but the
  -- explicit paddings)
  it("PoolingTest.testMaxPoolGradDirect", function()
    local nan = 0 / 0
    -- _testMaxPoolGradDirect1_1: all inputs equal, each window's gradient
    -- goes to its first maximum
    max_pool_grad_direct({ 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0 },
      { 11.0, 12.0, 13.0, 15.0, 16.0, 17.0, 19.0, 20.0, 21.0 },
      { 11.0, 12.0, 13.0, 0.0, 15.0, 16.0, 17.0, 0.0, 19.0, 20.0, 21.0, 0.0, 0.0, 0.0, 0.0, 0.0 },
      { 1, 4, 4, 1 }, { 1, 3, 3, 1 }, 2, 2, 1, 1, "VALID")
    -- _testMaxPoolGradDirect1_2
    max_pool_grad_direct({ 1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0 },
      { 11.0, 12.0, 13.0, 15.0, 16.0, 17.0, 19.0, 20.0, 21.0 },
      { 11.0, 0.0, 25.0, 0.0, 0.0, 31.0, 0.0, 17.0, 19.0, 0.0, 41.0, 0.0, 0.0, 0.0, 0.0, 0.0 },
      { 1, 4, 4, 1 }, { 1, 3, 3, 1 }, 2, 2, 1, 1, "VALID")
    -- _testMaxPoolGradDirect1_3
    max_pool_grad_direct({ 1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0 },
      { 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0 },
      { 54, 0.0, 62, 0.0, 0.0, 60, 0.0, 22.0, 47, 0.0, 51, 0.0, 0.0, 0.0, 0.0, 0.0 },
      { 1, 4, 4, 1 }, { 1, 4, 4, 1 }, 3, 3, 1, 1, "SAME")
    -- _testMaxPoolGradDirectWithNans2_1 (TF's CPU kernel: NaNs propagate
    -- the gradient as if they were the maximum)
    local nans = {}
    for i = 1, 16 do nans[i] = nan end
    max_pool_grad_direct(nans, { 11.0, 12.0, 13.0, 15.0, 16.0, 17.0, 19.0, 20.0, 21.0 },
      { 11.0, 12.0, 13.0, 0.0, 15.0, 16.0, 17.0, 0.0, 19.0, 20.0, 21.0, 0.0, 0.0, 0.0, 0.0, 0.0 },
      { 1, 4, 4, 1 }, { 1, 3, 3, 1 }, 2, 2, 1, 1, "VALID")
    -- _testMaxPoolGradDirectWithNans2_2
    max_pool_grad_direct(nans, { nan, 12.0, 13.0, 15.0, nan, 17.0, 19.0, 20.0, nan },
      { nan, 12.0, 13.0, 0.0, 15.0, nan, 17.0, 0.0, 19.0, 20.0, nan, 0.0, 0.0, 0.0, 0.0, 0.0 },
      { 1, 4, 4, 1 }, { 1, 3, 3, 1 }, 2, 2, 1, 1, "VALID")
  end)
end)
