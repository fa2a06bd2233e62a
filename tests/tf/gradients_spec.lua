-- gradients_spec.lua — tensorflow/python/ops/gradients_test.py, ported.
-- Those tests call tf.gradients on a TF1 graph; the TF2 form, and moonflow's,
-- is a GradientTape inside a tf.func (the computation is traced into a
-- graph and differentiated there). `constant(v, shape=s)` is tf.fill(s, v).
-- A TF1 graph's ops are those of the tf.func's concrete function.
-- gradients.hessians(ys, xs) is an outer persistent tape's jacobian of an
-- inner tape's gradient (TF builds it the same way: the Jacobian of the
-- gradient, shaped x.shape + x.shape).
--
-- Left out: the colocation and device cases, aggregation methods other
-- than TF's default (EXPERIMENTAL_ACCUMULATE_N, EXPERIMENTAL_TREE), the
-- cases that need a custom op, IndexedSlices as a type, TF1 Defun and
-- ref variables (testNoGradientForStringOutputs*, testSingletonIndexedSlices,
-- testNonDifferentiableSwitchInWhileLoop, testVariableAsGraphElementGradient,
-- testVariableRefGradient, testStopGradients (stop_gradients=),
-- FunctionGradientsTest's grad_func / python_grad_func cases,
-- IndexedSlicesToTensorTest, OnlyRealGradientsTest (complex)),
-- testCapturedNested (tf.gradients across function captures back into
-- the outer graph: a GradientTape records one graph level, as TF 2's does),
-- PreventGradientTest (no prevent_gradient), testHessianInvalidDimension
-- (no tf.hessians), and what needs tf.custom_gradient, recompute_grad or
-- grad_pass_through (GetDependentVariablesTest, CustomGradientTest,
-- TensorListGradientsTest, VariablesGradientTest, GradPassThroughTest but
-- its first assertion). testPartialDerivatives keeps its total
-- derivatives; its half with stop_gradients= is left out.

local tf = tf or require("moonflow")
local T = require("tfhelpers")

-- gradients.gradients(ys, xs) inside a graph: the tape-in-tf.func form.
-- `build()` returns the target(s) and the list of sources, all made
-- inside the traced function.
local function graph_gradients(build)
  local f = tf.func(function()
    local tape = tf.GradientTape({ persistent = true })
    local ys, xs = build(tape)
    tape:stop()
    return tape:gradient(ys, xs)
  end)
  return f()
end

-- testDependentYs: three gradient calls on one watched x = 3.0 in a
-- tf.func; build returns the three targets.
local function graph_gradients_3(build)
  local f = tf.func(function()
    local tape = tf.GradientTape({ persistent = true })
    local x = tf.constant(3.0)
    tape:watch(x)
    local a, b, c = build(tape, x)
    tape:stop()
    return tape:gradient(a, x), tape:gradient(b, x), tape:gradient(c, x)
  end)
  return f()
end

describe("gradients_test.py", function()
  -- gradients_test.py: GradientsTest.testBoundaryContinue
  it("GradientsTest.testBoundaryContinue", function()
    local grads = graph_gradients(function(tape)
      local x = tf.constant(1.0)
      tape:watch(x)
      local y = x * 2.0
      local z = y * 3.0
      return z, { x, y }
    end)
    assert.is_not_nil(grads[1])
    assert.is_not_nil(grads[2])
    T.equal(6.0, grads[1])
  end)

  -- gradients_test.py: GradientsTest.testBoundaryStop
  it("GradientsTest.testBoundaryStop", function()
    local grads = graph_gradients(function(tape)
      local c = tf.constant(1.0)
      local x = tf.identity(c)
      tape:watch(x)
      local y = x + 1.0
      local z = y + 1
      return z, { x }
    end)
    assert.is_not_nil(grads[1])
    T.equal(1.0, grads[1])
  end)

  -- gradients_test.py: GradientsTest.testAggregationMethodAddN (aggregation_method has no moonflow counterpart; ADD_N is TF's default)
  it("GradientsTest.testAggregationMethodAddN", function()
    local grads = graph_gradients(function(tape)
      local x = tf.constant(1.0)
      tape:watch(x)
      local y = x * 2.0
      local z = y + y + y + y + y + y + y + y + y + y
      return z, { x, y }
    end)
    T.equal(20.0, grads[1])
    T.equal(10.0, grads[2])
  end)

  -- gradients_test.py: FunctionGradientsTest.testFunctionGradientsBasic
  it("FunctionGradientsTest.testFunctionGradientsBasic", function()
    local f = tf.func(function(x) return x * x + 1.0 end, { input_signature = { tf.TensorSpec(nil, tf.float32) } })
    local grads = graph_gradients(function(tape)
      local two = tf.constant({ 2.0 })
      tape:watch(two)
      return f(two), two
    end)
    T.equal({ 4.0 }, grads)
  end)

  -- gradients_test.py: FunctionGradientsTest.testFunctionGradientsComposition
  it("FunctionGradientsTest.testFunctionGradientsComposition", function()
    local f = tf.func(function(x) return x * x + 1.0 end, { input_signature = { tf.TensorSpec(nil, tf.float32) } })
    local grads = graph_gradients(function(tape)
      local two = tf.constant({ 2.0 })
      tape:watch(two)
      return f(f(two)), two
    end)
    T.equal({ 40.0 }, grads)
  end)

  -- gradients_test.py: StopGradientTest.testStopGradient
  it("StopGradientTest.testStopGradient", function()
    local f = tf.func(function()
      local tape = tf.GradientTape()
      local inp = tf.fill({ 100, 32 }, 1.0)
      tape:watch(inp)
      local out = tf.stop_gradient(inp)
      tape:stop()
      return tape:gradient(out, inp) == nil
    end)
    T.equal(true, f())
  end)

  -- gradients_test.py: HessianVectorProductTest.testHessianVectorProduct (fixed values instead of RandomState draws)
  it("HessianVectorProductTest.testHessianVectorProduct", function()
    local m = 4
    local mat_value = { { 0.5, -1.2, 0.3, 2.0 }, { 1.1, 0.4, -0.7, 0.2 }, { -0.3, 0.9, 1.5, -1.0 }, { 0.8, -0.6, 0.1, 0.7 } }
    local v_value = { { 0.3 }, { -1.1 }, { 0.6 }, { 2.0 } }
    local x_value = { { -0.4 }, { 0.5 }, { 1.2 }, { -0.9 } }
    -- hess_v = (A + A^T) v
    local hess_v_value = {}
    for i = 1, m do
      local s = 0
      for j = 1, m do s = s + (mat_value[i][j] + mat_value[j][i]) * v_value[j][1] end
      hess_v_value[i] = { s }
    end
    local f = tf.func(function(mat, v, x)
      local outer = tf.GradientTape()
      outer:watch(x)
      local inner = tf.GradientTape()
      inner:watch(x)
      local mat_x = tf.matmul(mat, x)
      local x_mat_x = tf.matmul(tf.transpose(x), mat_x)
      inner:stop()
      local grad = inner:gradient(x_mat_x, x)
      local gv = tf.reduce_sum(grad * v)
      outer:stop()
      return outer:gradient(gv, x)
    end)
    T.equal(hess_v_value, f(tf.constant(mat_value), tf.constant(v_value), tf.constant(x_value)), 1e-5)
  end)
end)

-- The op that produced tensor t of a graph.
local function producer(t) return t.op end

-- The op a traced function's first result comes from (through the
-- Identity that returns it).
local function result_op(cf)
  local out = producer(cf.graph.outputs[1])
  if out.type == "Identity" then out = producer(out.inputs[1]) end
  return out
end

describe("gradients_test.py (more)", function()
  -- gradients_test.py: GradientsTest.testGradients
  it("GradientsTest.testGradients", function()
    local f = tf.func(function()
      local inp = tf.fill({ 32, 100 }, 1.0)
      local w = tf.fill({ 100, 10 }, 1.0)
      local b = tf.fill({ 10 }, 1.0)
      local tape = tf.GradientTape()
      tape:watch(w)
      local xw = tf.matmul(inp, w, { name = "xw" })
      local h = tf.nn.bias_add(xw, b, { name = "h" })
      tape:stop()
      return tape:gradient(h, w)
    end)
    local w_grad = result_op(f:get_concrete_function())
    assert.are.equal("MatMul", w_grad.type)
    assert.is_true(w_grad:get_attr("transpose_a"))
    assert.is_false(w_grad:get_attr("transpose_b"))
  end)

  -- gradients_test.py: GradientsTest.testUnusedOutput
  it("GradientsTest.testUnusedOutput", function()
    local f = tf.func(function()
      local w = tf.fill({ 2, 2 }, 1.0)
      local x = tf.fill({ 2, 2 }, 1.0)
      local tape = tf.GradientTape()
      tape:watch(w)
      local wx = tf.matmul(w, x)
      local split_wx = tf.split(wx, 2, 0)
      local c = tf.reduce_sum(split_wx[2])
      tape:stop()
      return tape:gradient(c, { w })[1]
    end)
    assert.are.equal("MatMul", result_op(f:get_concrete_function()).type)
    T.equal({ { 0.0, 0.0 }, { 2.0, 2.0 } }, f())
  end)

  -- gradients_test.py: GradientsTest.testVariableReadValueGradient
  it("GradientsTest.testVariableReadValueGradient", function()
    local f = tf.func(function(var)
      local tape = tf.GradientTape()
      local y = var:read_value()
      tape:stop()
      return tape:gradient(y, var)
    end)
    local var = tf.Variable(tf.constant(100.0))
    assert.is_not_nil(f(var))
    T.equal(1.0, f(var))
  end)

  -- gradients_test.py: GradientsTest.testVariableDefaultGrad (float32, float64)
  for _, dtype in ipairs({ tf.float32, tf.float64 }) do
    it("GradientsTest.testVariableDefaultGrad_" .. dtype.name, function()
      local var = tf.Variable(tf.constant(100.0, dtype))
      local f = tf.func(function()
        local tape = tf.GradientTape()
        local dummy_const = tf.constant(0.0)
        tape:stop()
        return tape:gradient(dummy_const, var, { unconnected_gradients = "zero" })
      end)
      local gradient = f()
      assert.is_not_nil(gradient)
      assert.are.equal(dtype, gradient.dtype)
    end)
  end

  -- gradients_test.py: GradientsTest.testDependentYs
  it("GradientsTest.testDependentYs", function()
    local g1, g2, g3 = graph_gradients_3(function(tape, x)
      local y = tf.square(x)
      local y1 = tf.square(y)
      local y2 = tf.square(y1)
      local z = tf.identity(y)
      local z2 = tf.identity(y2)
      return { y, y2 }, y + y2, { z, z2 }
    end)
    T.equal(17502.0, g1)
    T.equal(17502.0, g2)
    T.equal(17502.0, g3)
  end)

  -- gradients_test.py: GradientsTest.testPartialDerivatives (the total derivatives)
  it("GradientsTest.testPartialDerivatives", function()
    local grads = graph_gradients(function(tape)
      local x = tf.constant(1.0)
      tape:watch(x)
      local y = 2 * x
      local z = x + y
      return z, { x, y }
    end)
    T.equal({ 3.0, 1.0 }, grads)
  end)

  -- gradients_test.py: GradientsTest.testUnconnectedGradientsNoneUnconnectedGradients
  it("GradientsTest.testUnconnectedGradientsNoneUnconnectedGradients", function()
    local f = tf.func(function()
      local x = tf.fill({ 2, 2 }, 1.0)
      local y = tf.fill({ 3, 1 }, 3.0)
      local tape = tf.GradientTape()
      tape:watch({ x, y })
      tape:stop()
      return tape:gradient({ y }, { x }, { unconnected_gradients = "none" })[1] == nil
    end)
    T.equal(true, f())
  end)

  -- gradients_test.py: GradientsTest.testUnconnectedGradientsZerosUnconnectedGradients
  it("GradientsTest.testUnconnectedGradientsZerosUnconnectedGradients", function()
    local f = tf.func(function()
      local x = tf.fill({ 2, 2 }, 1.0)
      local y = tf.fill({ 3, 1 }, 3.0)
      local tape = tf.GradientTape()
      tape:watch({ x, y })
      tape:stop()
      return tape:gradient({ y }, { x }, { unconnected_gradients = "zero" })[1]
    end)
    T.equal({ { 0.0, 0.0 }, { 0.0, 0.0 } }, f())
  end)

  -- gradients_test.py: GradientsTest.testUnconnectedGradientsZeroConnectedGradients
  it("GradientsTest.testUnconnectedGradientsZeroConnectedGradients", function()
    local f = tf.func(function()
      local x = tf.constant(1.0)
      local tape = tf.GradientTape()
      tape:watch(x)
      local y = x * 3.0
      tape:stop()
      return tape:gradient({ y }, { x }, { unconnected_gradients = "zero" })[1]
    end)
    T.equal(3.0, f())
  end)

  -- gradients_test.py: GradientsTest.testUnknownUnconnectedGradientsValueGiven
  it("GradientsTest.testUnknownUnconnectedGradientsValueGiven", function()
    local f = tf.func(function()
      local x = tf.constant(1.0)
      local y = tf.constant(1.0)
      local tape = tf.GradientTape()
      tape:watch({ x, y })
      tape:stop()
      return tape:gradient({ y }, { x }, { unconnected_gradients = "nonsense" })
    end)
    T.raises("ValueError", "Unknown value for unconnected_gradients: 'nonsense'", f)
  end)

  -- gradients_test.py: FunctionGradientsTest.testGradientWrtCaptured
  it("FunctionGradientsTest.testGradientWrtCaptured", function()
    local x = tf.constant(1.0)
    local Foo = tf.func(function()
      local tape = tf.GradientTape()
      tape:watch(x)
      local y = tf.multiply(x, 2.0, { name = "y" })
      tape:stop()
      return tape:gradient(y, x)
    end)
    T.equal(2.0, Foo())
  end)

  -- gradients_test.py: FunctionGradientsTest.testGradientOfCaptured
  it("FunctionGradientsTest.testGradientOfCaptured", function()
    local x = tf.constant(1.0)
    local tape = tf.GradientTape({ persistent = true })
    tape:watch(x)
    local y = tf.multiply(x, 2.0, { name = "y" })
    tape:stop()
    local Foo = tf.func(function() return tape:gradient(y, x) end)
    T.equal(2.0, Foo())
  end)

  -- gradients_test.py: FunctionGradientsTest.testCapturedResourceVariable
  it("FunctionGradientsTest.testCapturedResourceVariable", function()
    local var = tf.Variable(1.0, { name = "var" })
    local Foo = tf.func(function()
      local tape = tf.GradientTape()
      local y = tf.multiply(var, 2.0, { name = "y" })
      tape:stop()
      return tape:gradient(y, var)
    end)
    T.equal(2.0, Foo())
  end)

  -- gradients_test.py: FunctionGradientsTest.testCapturedFromFunction
  it("FunctionGradientsTest.testCapturedFromFunction", function()
    local x = tf.constant(1.0, tf.float32)
    local Outer = tf.func(function()
      local y = tf.multiply(x, 2.0, { name = "y" })
      local Inner = tf.func(function()
        local tape = tf.GradientTape()
        tape:watch(y)
        local z = tf.multiply(y, 3.0, { name = "z" })
        tape:stop()
        return tape:gradient(z, y)
      end)
      return Inner()
    end)
    T.equal(3.0, Outer())
  end)

  -- gradients_test.py: FunctionGradientsTest.testCapturedEagerTensors
  it("FunctionGradientsTest.testCapturedEagerTensors", function()
    local c = tf.constant(2.0, tf.float32)
    local Foo = tf.func(function()
      local x = tf.constant(10.0)
      local tape = tf.GradientTape()
      tape:watch(x)
      local y = tf.multiply(x, c, { name = "y" })
      -- Regression test for b/122564611.
      local z = tf.multiply(c, y, { name = "z" })
      tape:stop()
      return tape:gradient(z, x)
    end)
    T.equal(4.0, Foo())
  end)

  -- gradients.hessians(ys, xs): for each x, the Jacobian of the gradient.
  local function hessians(build)
    return tf.func(function(...)
      local xs = { ... }
      local outer = tf.GradientTape({ persistent = true })
      outer:watch(xs)
      local inner = tf.GradientTape()
      inner:watch(xs)
      local ys = build(table.unpack(xs))
      inner:stop()
      local grads = inner:gradient(ys, xs)
      local hess = {}
      for i, x in ipairs(xs) do hess[i] = outer:jacobian(grads[i], x) end
      outer:stop()
      return hess
    end)
  end

  -- hess_value = mat_value + mat_value.T
  local function sym(mat)
    local m, out = #mat, {}
    for i = 1, m do
      out[i] = {}
      for j = 1, m do out[i][j] = mat[i][j] + mat[j][i] end
    end
    return out
  end

  -- gradients_test.py: HessianTest.testHessian1D
  it("HessianTest.testHessian1D", function()
    local m = 4
    local mat = T.randn({ m, m })
    local x = T.randn({ m })
    local h = hessians(function(v)
      return tf.reduce_sum(tf.reshape(v, { m, 1 }) * mat * tf.reshape(v, { 1, m }))
    end)(x)
    T.equal(sym(T.plain(mat)), h[1], 1e-5)
  end)

  -- gradients_test.py: HessianTest.testHessian1D_multi
  it("HessianTest.testHessian1D_multi", function()
    local m, n = 4, 3
    local mats, xs = {}, {}
    for i = 1, n do mats[i], xs[i] = T.randn({ m, m }), T.randn({ m }) end
    local h = hessians(function(...)
      local ys = {}
      for i, v in ipairs({ ... }) do
        ys[i] = tf.reduce_sum(tf.reshape(v, { m, 1 }) * mats[i] * tf.reshape(v, { 1, m }))
      end
      return ys
    end)(table.unpack(xs))
    for i = 1, n do T.equal(sym(T.plain(mats[i])), h[i], 1e-5) end
  end)

  -- The Hessian of 1/2 * sum(x^T x) for an m x n x: 1 where the two
  -- entries share a column (the block structure np.bmat builds).
  local function check_2d(m, n)
    local x = T.randn({ m, n })
    local h = hessians(function(v) return tf.reduce_sum(tf.matmul(tf.transpose(v), v) * 0.5) end)(x)[1]
    assert.are.same({ m, n, m, n }, h.shape:as_list())
    local want = {}
    for i = 1, m do
      want[i] = {}
      for j = 1, n do
        want[i][j] = {}
        for k = 1, m do
          want[i][j][k] = {}
          for l = 1, n do want[i][j][k][l] = (i == k) and 1.0 or 0.0 end
        end
      end
    end
    T.equal(want, h, 1e-5)
  end

  -- gradients_test.py: HessianTest.testHessian2D_square_matrix
  it("HessianTest.testHessian2D_square_matrix", function() check_2d(3, 3) end)

  -- gradients_test.py: HessianTest.testHessian2D_non_square_matrix
  it("HessianTest.testHessian2D_non_square_matrix", function() check_2d(3, 4) end)

  -- gradients_test.py: ResourceCondTest.testBasic
  it("ResourceCondTest.testBasic", function()
    local gamma = tf.Variable(T.rand({ 3 }), { name = "gamma" })
    local f = tf.func(function(training)
      local inputs = tf.ones({ 3 }, tf.float32)
      local tape = tf.GradientTape()
      local output = tf.cond(training, function() return inputs + gamma end, function() return inputs end)
      tape:stop()
      return tape:gradient(output, { gamma })[1]
    end)
    assert.is_not_nil(f(tf.constant(true)))
    T.equal({ 1.0, 1.0, 1.0 }, f(tf.constant(true)))
  end)

  -- gradients_test.py: CustomGradientTest.testRVGradientsDynamicCond
  it("CustomGradientTest.testRVGradientsDynamicCond", function()
    local alpha = tf.Variable(T.rand({ 1 }))
    local f = tf.func(function(conditional)
      local tape = tf.GradientTape()
      local output = tf.cond(conditional, function() return alpha * 2 end, function() return alpha * 3 end)
      tape:stop()
      return tape:gradient(output, { alpha })[1]
    end)
    T.equal({ 2.0 }, f(tf.constant(true)))
    T.equal({ 3.0 }, f(tf.constant(false)))
  end)

  -- gradients_test.py: GradPassThroughTest.test_gradients_v2 (its first
  -- assertion: assign is not differentiable)
  it("GradPassThroughTest.test_gradients_v2", function()
    local x = tf.Variable(1.0, { name = "x" })
    local z = tf.Variable(3.0, { name = "z" })
    -- Verify that assign op is not differentiable
    local tape = tf.GradientTape()
    local y = x:assign(z ^ 2)
    tape:stop()
    assert.is_nil(tape:gradient(y, z))
  end)
end)
