-- function_gradients_spec.lua —
-- tensorflow/python/eager/polymorphic_function/gradients_test.py
-- (FunctionGradientsTest), ported: gradients through and inside tf.func.
-- backprop.implicit_grad(f)() is a tape around f() differentiated with
-- respect to the variables it watched; gradients_function(f, [0])(x) is a
-- tape watching x around f(x). tf.gradients (graph-only symbolic
-- gradients) has no moonflow counterpart, so the cases built on it are left out.

local tf = tf or require("moonflow")
local T = require("tfhelpers")

local COS_DERIVATIVES, implicit_grad = T.COS_DERIVATIVES, T.implicit_grad

describe("polymorphic_function/gradients_test.py", function()
  -- gradients_test.py: FunctionGradientsTest.testGraphModeWithGradients
  it("FunctionGradientsTest.testGraphModeWithGradients", function()
    local v = tf.Variable(1.0, { name = "v" })
    local step = tf.func(function()
      local function inner() return v * v end
      return implicit_grad(inner)
    end)
    T.equal(2.0, step())
  end)






  -- gradients_test.py: FunctionGradientsTest.testGraphFunctionWithGradients
  it("FunctionGradientsTest.testGraphFunctionWithGradients", function()
    local v = tf.Variable(1.0, { name = "v" })
    local step = tf.func(function()
      local function inner() return v * v end
      return implicit_grad(inner)
    end)
    local step_op = step:get_concrete_function()
    assert.are.equal(tf.float32, step_op.graph.outputs[1].dtype)
    assert.are.same({}, step_op.graph.outputs[1].shape:as_list())
    T.equal(2.0, step_op())
  end)

  -- gradients_test.py: FunctionGradientsTest.testDefunCondGradient
  it("FunctionGradientsTest.testDefunCondGradient", function()
    local f = tf.func(function(x)
      return tf.cond(tf.greater(x, 0.5), function() return 2 * x end, function() return 3 * x end)
    end)
    local t = tf.GradientTape()
    local x = tf.constant(1.0)
    t:watch(x)
    local y = f(x)
    t:stop()
    T.equal(2.0, t:gradient(y, x))
  end)

  -- gradients_test.py: FunctionGradientsTest.testGraphLoopGradient
  it("FunctionGradientsTest.testGraphLoopGradient", function()
    local f = tf.func(function(x)
      local r = tf.while_loop(function(_, i) return tf.less(i, 2) end,
        function(x_, i) return 2 * x_, i + 1 end, { x, 0 })
      return r
    end)
    local t = tf.GradientTape()
    local x = tf.constant(1.0)
    t:watch(x)
    local y = f(x)
    t:stop()
    T.equal(4.0, t:gradient(y, x))
  end)

  -- gradients_test.py: FunctionGradientsTest.testDefunDifferentiable
  it("FunctionGradientsTest.testDefunDifferentiable", function()
    local v = tf.Variable(1.0)
    local f = tf.func(function() return v * v end)
    T.equal(2.0, implicit_grad(f))
  end)

  -- gradients_test.py: FunctionGradientsTest.testDefunCanBeDifferentiatedTwice
  it("FunctionGradientsTest.testDefunCanBeDifferentiatedTwice", function()
    local v = tf.Variable(1.0)
    local f = tf.func(function() return v * v end)
    T.equal(2.0, implicit_grad(f))
    T.equal(2.0, implicit_grad(f))
  end)

  -- gradients_test.py: FunctionGradientsTest.testDefunCallBackprop
  it("FunctionGradientsTest.testDefunCallBackprop", function()
    local f = tf.func(function(x) return tf.add(x, x) end)
    local g = tf.func(function(x)
      local t = tf.GradientTape()
      t:watch(x)
      local y = f(x)
      t:stop()
      return t:gradient(y, x)
    end)
    T.equal(2.0, g(tf.constant(2.0)))
  end)

  -- gradients_test.py: FunctionGradientsTest.testDefunCallBackpropUsingSameObjectForMultipleArguments
  it("FunctionGradientsTest.testDefunCallBackpropUsingSameObjectForMultipleArguments", function()
    -- gradients_function(multiply, [0, 1])(x, x) watches each argument as
    -- its own source (TF expects [1, 1], not [2, 2]): two identities of x.
    local g = tf.func(function(x)
      local t = tf.GradientTape()
      local a, b = tf.identity(x), tf.identity(x)
      t:watch({ a, b })
      local y = tf.multiply(a, b)
      t:stop()
      return t:gradient(y, { a, b })
    end)
    T.equal({ 1.0, 1.0 }, g(tf.constant(1.0)))
    T.equal({ 1.0, 1.0 }, g(1.0))
  end)

  -- gradients_test.py: FunctionGradientsTest.testGradientTensorConversionWithDefun
  it("FunctionGradientsTest.testGradientTensorConversionWithDefun", function()
    local three = tf.Variable(3.0, { name = "v" })
    local f = tf.func(function(x) return tf.add(x, three) end)
    local function g(x) return f(x) end
    T.equal(1.0, implicit_grad(g, tf.constant(1.0)))
  end)

  -- gradients_test.py: FunctionGradientsTest.testGradient
  it("FunctionGradientsTest.testGradient", function()
    local matmul = tf.func(function(a, b, opts) return tf.matmul(a, b, opts) end)
    local t = tf.constant({ { 1.0, 2.0 }, { 3.0, 4.0 } })
    local tape = tf.GradientTape()
    tape:watch(t)
    local y = matmul(t, t, { transpose_a = true })
    tape:stop()
    T.equal({ { 6.0, 6.0 }, { 14.0, 14.0 } }, tape:gradient(y, t))
  end)

  -- gradients_test.py: FunctionGradientsTest.testGradientInFunction
  it("FunctionGradientsTest.testGradientInFunction", function()
    local f = tf.func(function(x)
      local t = tf.GradientTape()
      t:watch(x)
      local y = x * x
      t:stop()
      return t:gradient(y, x)
    end)
    T.equal(2.0, f(tf.constant(1.0)))
  end)

  -- gradients_test.py: FunctionGradientsTest.testGradientOfGatherWithDefun
  it("FunctionGradientsTest.testGradientOfGatherWithDefun", function()
    local v = tf.Variable({ 0.0, 1.0, 2.0 })
    local function sum_gather() return tf.reduce_sum(tf.gather(v, { 1, 2 })) end
    local gradient = implicit_grad(sum_gather)
    local defun_gradient = implicit_grad(tf.func(sum_gather))
    T.equal({ 0.0, 1.0, 1.0 }, gradient)
    T.equal(T.plain(gradient), defun_gradient)
  end)

  -- gradients_test.py: FunctionGradientsTest.testDifferentiableFunctionNoneOutputs
  it("FunctionGradientsTest.testDifferentiableFunctionNoneOutputs", function()
    local my_function = tf.func(function(x) return x, nil end)
    local x0 = tf.constant(0.0)
    local t0 = tf.GradientTape()
    t0:watch(x0)
    local y0 = my_function(x0)
    t0:stop()
    T.equal(1.0, t0:gradient(y0, x0))
    local foo = tf.func(function(a) return nil, a * a end)
    local x = tf.constant(5.0)
    local tp = tf.GradientTape()
    tp:watch(x)
    local none, r = foo(x)
    tp:stop()
    local g = tp:gradient(r, x)
    assert.is_nil(none)
    T.equal(25.0, r)
    T.equal(10.0, g)
  end)

  -- gradients_test.py: FunctionGradientsTest.testNestedDifferentiableFunction
  it("FunctionGradientsTest.testNestedDifferentiableFunction", function()
    local inner_fn = tf.func(function(a, b) return a * tf.add(a, b) end)
    local outer_fn = tf.func(function(x) return inner_fn(x, 1.0) end)
    local x = tf.constant(5.0)
    local tp = tf.GradientTape()
    tp:watch(x)
    local result = outer_fn(x)
    tp:stop()
    T.equal(2 * 5.0 + 1.0, tp:gradient(result, x))
  end)

  -- gradients_test.py: FunctionGradientsTest.testDeeplyNestedDifferentiableFunction
  it("FunctionGradientsTest.testDeeplyNestedDifferentiableFunction", function()
    local inner_inner_fn = tf.func(function(a, b) return tf.add(a, b) end)
    local inner_fn = tf.func(function(a, b) return inner_inner_fn(a, b) end)
    local middle_fn = tf.func(function(a, b) return a * inner_fn(a, b) end)
    local outer_fn = tf.func(function(x) return middle_fn(x, 1.0) end)
    local x = tf.constant(5.0)
    local tp = tf.GradientTape()
    tp:watch(x)
    local result = outer_fn(x)
    tp:stop()
    T.equal(2 * 5.0 + 1.0, tp:gradient(result, x))
  end)

  -- gradients_test.py: FunctionGradientsTest.testDeeplyNestedDifferentiableFunctionWithMultipleGradCalls
  it("FunctionGradientsTest.testDeeplyNestedDifferentiableFunctionWithMultipleGradCalls", function()
    local inner_fn = tf.func(function(a, b) return tf.add(a, b) end)
    local middle_fn = tf.func(function(a, b) return tf.multiply(a, inner_fn(a, b)) end)
    local outer_fn = tf.func(function(x) return middle_fn(x, 3.0) end)
    local x = tf.constant(5.0)
    T.equal(5.0 * (5.0 + 3.0), outer_fn(x))
    local tp = tf.GradientTape()
    tp:watch(x)
    local result = outer_fn(x)
    tp:stop()
    T.equal(2 * 5.0 + 3.0, tp:gradient(result, x))
    T.equal(5.0 * (5.0 + 3.0), outer_fn(x))
    T.equal(3.0 * (3.0 + 5.0), middle_fn(3.0, x))
    tp = tf.GradientTape()
    tp:watch(x)
    result = outer_fn(x)
    tp:stop()
    T.equal(2 * 5.0 + 3.0, tp:gradient(result, x))
    local y = tf.constant(4.0)
    tp = tf.GradientTape()
    tp:watch(y)
    result = outer_fn(y)
    tp:stop()
    T.equal(2 * 4.0 + 3.0, tp:gradient(result, y))
    tp = tf.GradientTape()
    tp:watch(y)
    result = inner_fn(y, y)
    tp:stop()
    T.equal(2.0, tp:gradient(result, y))
  end)

  -- gradients_test.py: FunctionGradientsTest.testDeeplyNestedDifferentiableFunctionGradientTapeInDefun
  it("FunctionGradientsTest.testDeeplyNestedDifferentiableFunctionGradientTapeInDefun", function()
    local inner_inner_fn = tf.func(function(a, b) return tf.add(a, b) end)
    local inner_fn = tf.func(function(a, b) return inner_inner_fn(a, b) end)
    local middle_fn = tf.func(function(a, b) return a * inner_fn(a, b) end)
    local outer_fn = tf.func(function(x)
      local tp = tf.GradientTape()
      tp:watch(x)
      local result = middle_fn(x, 1.0)
      tp:stop()
      return tp:gradient(result, x)
    end)
    T.equal(2 * 5.0 + 1.0, outer_fn(tf.constant(5.0)))
  end)

  -- gradients_test.py: FunctionGradientsTest.testDeeplyNestedDifferentiableFunctionGradientTapeInNestedDefun
  it("FunctionGradientsTest.testDeeplyNestedDifferentiableFunctionGradientTapeInNestedDefun", function()
    local inner_inner_fn = tf.func(function(a, b) return tf.add(a, b) end)
    local inner_fn = tf.func(function(a, b) return inner_inner_fn(a, b) end)
    local middle_fn = tf.func(function(a, b) return a * inner_fn(a, b) end)
    local almost_outer_fn = tf.func(function(x)
      local tp = tf.GradientTape()
      tp:watch(x)
      local result = middle_fn(x, 1.0)
      tp:stop()
      return tp:gradient(result, x)
    end)
    local outer_fn = tf.func(function(x) return almost_outer_fn(x) end)
    T.equal(2 * 5.0 + 1.0, outer_fn(tf.constant(5.0)))
  end)

  -- gradients_test.py: FunctionGradientsTest.testDeeplyNestedDifferentiableFunctionGradientTapeInMultNestedDefun
  it("FunctionGradientsTest.testDeeplyNestedDifferentiableFunctionGradientTapeInMultNestedDefun", function()
    local inner_inner_fn = tf.func(function(a, b) return tf.add(a, b) end)
    local inner_fn = tf.func(function(a, b) return inner_inner_fn(a, b) end)
    local middle_fn = tf.func(function(a, b) return a * inner_fn(a, b) end)
    local almost_outer_fn = tf.func(function(x)
      local tp = tf.GradientTape()
      tp:watch(x)
      local result = middle_fn(x, 1.0)
      tp:stop()
      return tp:gradient(result, x)
    end)
    local outer_fn = tf.func(function(x) return almost_outer_fn(x) end)
    local outer_outer_fn = tf.func(function(x) return outer_fn(x) end)
    T.equal(2 * 5.0 + 1.0, outer_outer_fn(tf.constant(5.0)))
  end)

  -- gradients_test.py: FunctionGradientsTest.testDeeplyNestedDifferentiableFunctionWithVariable
  it("FunctionGradientsTest.testDeeplyNestedDifferentiableFunctionWithVariable", function()
    local var = tf.Variable(tf.constant(1.0))
    local inner_fn = tf.func(function(a, b) return tf.add(a, b) end)
    local middle_fn = tf.func(function(a, b) return a * inner_fn(a, b) end)
    local outer_fn = tf.func(function(x) return middle_fn(x, var) end)
    local x = tf.constant(5.0)
    local tp = tf.GradientTape()
    tp:watch(x)
    local result = outer_fn(x)
    tp:stop()
    T.equal(2 * 5.0 + 1.0, tp:gradient(result, x))
  end)

  -- gradients_test.py: FunctionGradientsTest.testDeeplyNestedDifferentiableFunctionWithVariableMultipleGradCalls
  it("FunctionGradientsTest.testDeeplyNestedDifferentiableFunctionWithVariableMultipleGradCalls", function()
    local v = tf.Variable(tf.constant(3.0))
    local inner_fn = tf.func(function(a, b) return tf.add(a, b) end)
    local middle_fn = tf.func(function(a, b) return tf.multiply(a, inner_fn(a, b)) end)
    local outer_fn = tf.func(function(x) return middle_fn(x, v) end)
    local x = tf.constant(5.0)
    T.equal(5.0 * (5.0 + 3.0), outer_fn(x))
    local tp = tf.GradientTape()
    tp:watch(x)
    local result = outer_fn(x)
    tp:stop()
    T.equal(2 * 5.0 + 3.0, tp:gradient(result, x))
    T.equal(5.0 * (5.0 + 3.0), outer_fn(x))
    T.equal(3.0 * (3.0 + 5.0), middle_fn(v, x))
    local y = tf.constant(4.0)
    tp = tf.GradientTape()
    tp:watch(y)
    result = outer_fn(y)
    tp:stop()
    T.equal(2 * 4.0 + 3.0, tp:gradient(result, y))
    v:assign(tf.constant(1.5))
    tp = tf.GradientTape()
    tp:watch(y)
    result = outer_fn(y)
    tp:stop()
    T.equal(2 * 4.0 + 1.5, tp:gradient(result, y))
    tp = tf.GradientTape()
    tp:watch(y)
    result = inner_fn(y, v)
    tp:stop()
    T.equal(1.0, tp:gradient(result, y))
  end)

  -- gradients_test.py: FunctionGradientsTest.testNestedDifferentiableFunctionNoneOutputs
  it("FunctionGradientsTest.testNestedDifferentiableFunctionNoneOutputs", function()
    local foo = tf.func(function(a, b) return nil, a * tf.add(a, b), nil, 2 * a end)
    local bar = tf.func(function(x) return foo(x, 1.0) end)
    local x = tf.constant(5.0)
    local tp = tf.GradientTape({ persistent = true })
    tp:watch(x)
    local none1, r1, none2, r2 = bar(x)
    tp:stop()
    local g1 = tp:gradient(r1, x)
    local g2 = tp:gradient(r2, x)
    T.equal(30.0, r1)
    T.equal(10.0, r2)
    assert.is_nil(none1)
    assert.is_nil(none2)
    T.equal(2 * 5.0 + 1.0, g1)
    T.equal(2.0, g2)
  end)

  -- gradients_test.py: FunctionGradientsTest.testGradientWithKeywordArguments
  it("FunctionGradientsTest.testGradientWithKeywordArguments", function()
    local matmul = tf.func(function(a, b, opts) return tf.matmul(a, b, opts) end)
    local t = tf.constant({ { 1.0, 2.0 }, { 3.0, 4.0 } })
    local tape = tf.GradientTape({ persistent = true })
    tape:watch(t)
    local one = matmul(t, t, { transpose_a = true })
    tape:stop()
    T.equal({ { 6.0, 6.0 }, { 14.0, 14.0 } }, tape:gradient(one, t))
  end)

  -- gradients_test.py: FunctionGradientsTest.testIteratedGradientsPersistent
  it("FunctionGradientsTest.testIteratedGradientsPersistent", function()
    local f = tf.func(function(z) return tf.cos(z) end)
    local tape = tf.GradientTape({ persistent = true })
    local start = tf.constant(1.0)
    tape:watch(start)
    local x = f(start)
    for _, expected in ipairs(COS_DERIVATIVES) do
      T.equal(expected(start):numpy(), x)
      x = tape:gradient(x, start)
    end
    tape:stop()
  end)
  -- gradients_test.py: FunctionGradientsTest.testHigherOrderWithVariable
  it("FunctionGradientsTest.testHigherOrderWithVariable", function()
    local v = tf.Variable(1.0)
    local f = tf.func(function() return tf.cos(v) end)
    local tape = tf.GradientTape({ persistent = true })
    local x = f()
    for _, expected in ipairs(COS_DERIVATIVES) do
      T.equal(expected(tf.constant(1.0)):numpy(), x)
      x = tape:gradient(x, tape:watched_variables())[1]
    end
    tape:stop()
  end)
  -- gradients_test.py: FunctionGradientsTest.testGradientsChained
  it("FunctionGradientsTest.testGradientsChained", function()
    local f = tf.func(function(z) return tf.cos(z) end)
    local x = tf.constant(1.0)
    local t = tf.GradientTape()
    t:watch(x)
    local y = f(x)
    t:stop()
    local tt = tf.GradientTape()
    local doutputs = tf.constant(2.0)
    tt:watch(doutputs)
    local g = t:gradient(y, x, { output_gradients = doutputs })
    tt:stop()
    T.equal((-2.0 * tf.sin(x)):numpy(), g)
    local gg = tt:gradient(g, doutputs)
    T.equal((-tf.sin(x)):numpy(), gg)
  end)
  -- gradients_test.py: FunctionGradientsTest.testIteratedGradientsNested
  it("FunctionGradientsTest.testIteratedGradientsNested", function()
    local function grad(f)
      return function(primal)
        local tape = tf.GradientTape()
        tape:watch(primal)
        local primal_out = f(primal)
        tape:stop()
        return tape:gradient(primal_out, primal)
      end
    end
    local forward = tf.func(function(x) return tf.cos(x) end)
    local f = forward
    local traced_f = tf.func(f)
    local one = tf.constant(1.0)
    for _, expected in ipairs(COS_DERIVATIVES) do
      local e = expected(one):numpy()
      T.equal(e, f(one))
      T.equal(e, traced_f(one))
      T.equal(e, tf.func(f)(one))
      f = grad(f)
      traced_f = tf.func(grad(traced_f))
    end
  end)
  -- gradients_test.py: FunctionGradientsTest.testIteratedGradientsNestedWithVariable
  it("FunctionGradientsTest.testIteratedGradientsNestedWithVariable", function()
    local function grad(f)
      return function()
        local tape = tf.GradientTape()
        local primal_out = f()
        tape:stop()
        return tape:gradient(primal_out, tape:watched_variables())[1]
      end
    end
    local v = tf.Variable(2.0)
    local f = tf.func(function() return tf.cos(v) end)
    local two = tf.constant(2.0)
    for _, expected in ipairs(COS_DERIVATIVES) do
      local e = expected(two):numpy()
      T.equal(e, f())
      T.equal(e, tf.func(f)())
      f = grad(f)
    end
  end)
end)
