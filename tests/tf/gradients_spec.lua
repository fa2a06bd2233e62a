-- gradients_spec.lua — tensorflow/python/ops/gradients_test.py, ported.
-- Those tests call tf.gradients on a TF1 graph; the TF2 form, and moonflow's,
-- is a GradientTape inside a tf.func (the computation is traced into a
-- graph and differentiated there). `constant(v, shape=s)` is tf.fill(s, v).

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
