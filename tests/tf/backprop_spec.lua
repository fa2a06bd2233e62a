-- backprop_spec.lua — tensorflow/python/eager/backprop_test.py (BackpropTest),
-- ported to tf.GradientTape. Translation: `with tf.GradientTape() as t:` is
-- `local t = tf.GradientTape()` ... `t:stop()`; `with t.stop_recording():`
-- is `t:stop()` ... `t:resume()`; re-entering `with g:` is `g:resume()`;
-- keyword arguments of gradient() (output_gradients=, unconnected_gradients=)
-- go in a trailing options table. backprop.gradients_function(f)(x) is a
-- tape that watches x around f(x), differentiating the sum of f's results.
-- `constant_op.constant(v, shape=s)` is `tf.fill(s, v)`.
-- gradients_function's _ensure_unique_tensor_objects (an argument passed
-- twice is differentiated as two tensors) is a tf.identity of the second.
-- GradientDescentOptimizer(lr) is tf.keras.optimizers.SGD(lr).
--
-- Left out: what needs tf.custom_gradient, recompute_grad, make_vjp,
-- val_and_grad_function, implicit_val_and_grad, tape_lib.record_operation,
-- a GPU, SparseTensor, IndexedSlices as a type, 3-D pooling or op attr
-- introspection (testCustomGradient*, testErrors, testMakeVJP,
-- testPersistentMakeVJP, testEmptyParamsForValueAndGradFunction,
-- testNonEmptyParamsForValueAndGradFunction, testDifferentiatingFunction-
-- ThatReturnsNone, testInvalidRecordOperationMessage, testGPU*,
-- testTensorCopy*, testWatchComposite, testMaxPooling3DGradient,
-- testGetAttr*, testMakeAttr*, testRecomputeGradWithNestedFunctionAndWhileLoop,
-- AggregateIndexedSlicesGradientsTest); JacobianTest.test_nested_jacobian
-- and BatchJacobianTest's pfor variants run as their while-loop variants
-- compute the same values (moonflow has one way to compute rows).

local tf = tf or require("moonflow")
local T = require("tfhelpers")

describe("backprop_test.py", function()
  -- backprop_test.py: BackpropTest.testImplicitGradWithResourceVariable
  it("BackpropTest.testImplicitGradWithResourceVariable", function()
    local x = tf.Variable(tf.constant(1.0), { name = "x" })
    local t = tf.GradientTape()
    local b = tf.constant(2.0)
    local c = tf.add(x:value(), b)
    local y = tf.add(c, tf.constant(3.0))
    t:stop()
    local grads = t:gradient(y, { x })
    T.equal(1.0, grads[1])
  end)

  -- backprop_test.py: BackpropTest.testNoOpBehaviorConsistent (NoFunction and Function)
  for _, variant in ipairs({ "NoFunction", "Function" }) do
    it("BackpropTest.testNoOpBehaviorConsistent_" .. variant, function()
      local function f(x)
        local x1 = tf.identity(x)
        local x2 = tf.add(x, 0)
        local x3 = tf.subtract(x, 0)
        local x4 = tf.multiply(x, 1)
        local t = tf.GradientTape()
        t:watch(x)
        t:watch(x1)
        t:watch(x2)
        t:watch(x3)
        t:watch(x4)
        local y1 = x * 2.0
        local y2 = x1 * 3.0
        local y3 = x2 * 3.0
        local y4 = x3 * 3.0
        local y5 = x4 * 3.0
        local loss = y1 + y2 + y3 + y4 + y5
        t:stop()
        return t:gradient(loss, { x, x1, x2, x3, x4 })
      end
      if variant == "Function" then f = tf.func(f) end
      T.equal({ 2.0, 3.0, 3.0, 3.0, 3.0 }, f(tf.constant(10.0)))
    end)
  end

  -- backprop_test.py: BackpropTest.testWhereGradient
  it("BackpropTest.testWhereGradient", function()
    local function g(v)
      local x = tf.constant(v)
      local t = tf.GradientTape()
      t:watch(x)
      local y = tf.where(tf.less(x, 10), x, x * x)
      t:stop()
      return t:gradient(y, x)
    end
    T.equal(1.0, g(5.0))
    T.equal(100.0, g(50.0))
  end)

  -- backprop_test.py: BackpropTest.testTwoTargets
  it("BackpropTest.testTwoTargets", function()
    local t = tf.GradientTape()
    local x = tf.constant(3.0)
    local y = tf.constant(2.0)
    t:watch({ x, y })
    local xx = 2 * x
    local yy = 3 * y
    t:stop()
    local g = t:gradient({ xx, yy }, { x, y })
    T.equal(2.0, g[1])
    T.equal(3.0, g[2])
  end)



  -- backprop_test.py: BackpropTest.testGradientInteger
  it("BackpropTest.testGradientInteger", function()
    local int_tensor = tf.constant(1)
    local t = tf.GradientTape()
    t:watch(int_tensor)
    local y = int_tensor + int_tensor
    t:stop()
    assert.is_nil(t:gradient(y, int_tensor))
  end)


  -- backprop_test.py: BackpropTest.testTapeNoOpGradient
  it("BackpropTest.testTapeNoOpGradient", function()
    local x = tf.constant(3.0)
    local t = tf.GradientTape()
    t:watch(x)
    local y = x
    t:stop()
    T.equal(1.0, t:gradient(y, x))
  end)

  -- backprop_test.py: BackpropTest.testTapeIdentityGradientIsIdentity
  it("BackpropTest.testTapeIdentityGradientIsIdentity", function()
    local x = tf.constant(3.0)
    local t = tf.GradientTape()
    t:watch(x)
    local y = tf.identity(x)
    t:stop()
    T.equal(1.0, t:gradient(y, x))
  end)

  -- backprop_test.py: BackpropTest.testFunctionIndexedSlicesGradient
  it("BackpropTest.testFunctionIndexedSlicesGradient", function()
    local f = tf.func(function(x) return x + 1 end)
    local t = tf.GradientTape()
    local x = tf.constant({ 1.0 })
    t:watch(x)
    local y = f(x)
    y = tf.gather(y, { 0 })
    t:stop()
    T.equal({ 1.0 }, t:gradient(y, x))
  end)

  -- backprop_test.py: BackpropTest.testTapeGradientMultiTargetOneIsSource
  it("BackpropTest.testTapeGradientMultiTargetOneIsSource", function()
    local x = tf.constant(2.0)
    local t = tf.GradientTape()
    t:watch(x)
    local y = x * x
    t:stop()
    T.equal(5.0, t:gradient({ x, y }, x))
  end)

  -- backprop_test.py: BackpropTest.testTapeNoOpGradientWithMultiTargetAllSource
  it("BackpropTest.testTapeNoOpGradientWithMultiTargetAllSource", function()
    local x = tf.constant(3.0)
    local t = tf.GradientTape()
    t:watch(x)
    local y = x
    t:stop()
    T.equal(2.0, t:gradient({ y, y }, x))
  end)

  -- backprop_test.py: BackpropTest.testTapeNoOpGradientWithMultiTargetMultiSource
  it("BackpropTest.testTapeNoOpGradientWithMultiTargetMultiSource", function()
    local x = tf.constant(3.0)
    local y = tf.constant(5.0)
    local t = tf.GradientTape()
    t:watch(x)
    t:watch(y)
    local z = y * y
    t:stop()
    T.equal({ 1.0, 11.0 }, t:gradient({ x, y, z }, { x, y }))
  end)




  -- backprop_test.py: BackpropTest.testTapeNoOpOnVariableIsIdentity
  it("BackpropTest.testTapeNoOpOnVariableIsIdentity", function()
    local v0 = tf.Variable(1.0)
    local t = tf.GradientTape()
    local y = v0:read_value()
    t:stop()
    T.equal(1.0, t:gradient(y, v0))
  end)

  -- backprop_test.py: BackpropTest.testTapeNoOpGradient2By2
  it("BackpropTest.testTapeNoOpGradient2By2", function()
    local a_2_by_2 = tf.fill({ 2, 2 }, 2.0)
    local tape = tf.GradientTape({ persistent = true })
    tape:watch(a_2_by_2)
    tape:stop()
    local dy_dy = tape:gradient(a_2_by_2, { a_2_by_2 })[1]
    T.equal({ { 1.0, 1.0 }, { 1.0, 1.0 } }, dy_dy)
  end)

  -- backprop_test.py: BackpropTest.testTapeNoOpGradientMultiTarget2By2
  it("BackpropTest.testTapeNoOpGradientMultiTarget2By2", function()
    local a_2_by_2 = tf.fill({ 2, 2 }, 2.0)
    local tape = tf.GradientTape({ persistent = true })
    tape:watch(a_2_by_2)
    tape:stop()
    local dy_dy = tape:gradient({ a_2_by_2, a_2_by_2 }, { a_2_by_2 })[1]
    T.equal({ { 2.0, 2.0 }, { 2.0, 2.0 } }, dy_dy)
  end)

  -- backprop_test.py: BackpropTest.testTapeStopRecording
  it("BackpropTest.testTapeStopRecording", function()
    local t = tf.GradientTape()
    local x = tf.Variable(1.0)
    t:stop()
    local y = x * x
    t:resume()
    t:stop()
    assert.is_nil(t:gradient(y, x))
  end)

  -- backprop_test.py: BackpropTest.testTapeStopStartRecording
  it("BackpropTest.testTapeStopStartRecording", function()
    local t = tf.GradientTape({ persistent = true })
    local x = tf.Variable(1.0)
    local x2 = x * 2
    t:stop()
    local y = x2 * x2
    t:resume()
    local z = x2 * x2
    t:stop()
    assert.is_nil(t:gradient(y, x2))
    T.equal(4.0, t:gradient(z, x2))
  end)




  -- backprop_test.py: BackpropTest.testGradientNone
  it("BackpropTest.testGradientNone", function()
    local logits = tf.constant({ { 0.0, 0.0 } })
    local labels = tf.constant({ { 1.0, 0.0 } })
    local t = tf.GradientTape()
    t:watch(logits)
    local loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits({ logits = logits, labels = labels }),
      { axis = tf.constant({ 0 }) })
    t:stop()
    T.equal({ { -0.5, 0.5 } }, t:gradient(loss, logits))
  end)

  -- backprop_test.py: BackpropTest.testGradientWithinTapeBlock
  it("BackpropTest.testGradientWithinTapeBlock", function()
    local v1 = tf.Variable(1.0)
    local t = tf.GradientTape()
    local loss = 2 * v1
    local grad = t:gradient(loss, v1)
    t:stop()
    T.equal(2.0, grad)
    t = tf.GradientTape({ persistent = true })
    loss = 2 * v1
    grad = t:gradient(loss, v1)
    t:stop()
    T.equal(2.0, grad)
  end)

  -- backprop_test.py: BackpropTest.testWatchingIsTapeLocal
  it("BackpropTest.testWatchingIsTapeLocal", function()
    local x1 = tf.Variable(2.0, { trainable = false })
    local x2 = tf.Variable(2.0, { trainable = false })
    local tape1 = tf.GradientTape()
    local tape2 = tf.GradientTape()
    tape1:watch(x1)
    tape2:watch({ x1, x2 })
    local y = x1 ^ 3
    local z = x2 ^ 2
    local d = tape2:gradient({ y, z }, { x1, x2 })
    tape2:stop()
    local d2 = tape1:gradient({ d[1], d[2] }, { x1, x2 })
    tape1:stop()
    T.equal(12.0, d2[1])
    assert.is_nil(d2[2])
  end)

  -- backprop_test.py: BackpropTest.testGradGrad
  it("BackpropTest.testGradGrad", function()
    local x = tf.constant(3.0)
    local outer = tf.GradientTape()
    outer:watch(x)
    local inner = tf.GradientTape()
    inner:watch(x)
    local y = x * x
    inner:stop()
    local value = inner:gradient(y, x)
    outer:stop()
    T.equal(2.0, outer:gradient(value, x))
  end)

  -- backprop_test.py: BackpropTest.testGradGradExp
  it("BackpropTest.testGradGradExp", function()
    local x = tf.constant(0.0)
    local outer = tf.GradientTape()
    outer:watch(x)
    local inner = tf.GradientTape()
    inner:watch(x)
    local y = tf.exp(x)
    inner:stop()
    local value = inner:gradient(y, x)
    outer:stop()
    T.equal(1.0, outer:gradient(value, x))
  end)

  -- backprop_test.py: BackpropTest.testArgmax
  it("BackpropTest.testArgmax", function()
    local x = tf.constant({ 0.0 })
    local t = tf.GradientTape()
    t:watch(x)
    local i = tf.stop_gradient(tf.argmax(x))
    t:stop()
    assert.is_nil(t:gradient(i, x))
  end)

  -- backprop_test.py: BackpropTest.testCPU
  it("BackpropTest.testCPU", function()
    local x = tf.constant(1.0)
    local t = tf.GradientTape()
    t:watch(x)
    local b = tf.constant(2.0)
    local c = tf.add(x, b)
    local y = tf.add(c, tf.constant(3.0))
    t:stop()
    T.equal(1.0, t:gradient(y, x))
  end)

  -- backprop_test.py: BackpropTest.testEmptyParams
  it("BackpropTest.testEmptyParams", function()
    local x = tf.constant(1.0)
    local y = tf.constant(2.0)
    local t = tf.GradientTape()
    t:watch({ x, y })
    local r = x * y
    t:stop()
    local g = t:gradient(r, { x, y })
    T.equal(2.0, g[1])
    T.equal(1.0, g[2])
  end)

  -- backprop_test.py: BackpropTest.testUnconnectedNone
  it("BackpropTest.testUnconnectedNone", function()
    local v = tf.Variable(1.0, { name = "testUnconnectedNone" })
    local t = tf.GradientTape()
    v:read_value()
    local r = tf.constant(1.0)
    t:stop()
    assert.is_nil(t:gradient(r, v))
  end)

  -- backprop_test.py: BackpropTest.testGradientTapeReEnterContext
  it("BackpropTest.testGradientTapeReEnterContext", function()
    local g = tf.GradientTape()
    local x = tf.constant(3.0)
    g:watch(x)
    local y = 2 * x
    g:stop()
    g:resume()
    local z = 2 * y
    g:stop()
    T.equal({ 4.0 }, g:gradient(z, { x }))
  end)

  -- backprop_test.py: BackpropTest.testGradientTapeRepeatedSource
  it("BackpropTest.testGradientTapeRepeatedSource", function()
    local g = tf.GradientTape({ persistent = false })
    local x = tf.constant(3.0)
    g:watch(x)
    local y = 2 * x
    g:stop()
    T.equal({ 2.0, 2.0 }, g:gradient(y, { x, x }))
  end)

  -- backprop_test.py: BackpropTest.testPersistentGradientTapeRepeatedSource
  it("BackpropTest.testPersistentGradientTapeRepeatedSource", function()
    local g = tf.GradientTape({ persistent = true })
    local x = tf.constant(3.0)
    local y = tf.constant(5.0)
    g:watch(x)
    g:watch(y)
    local z = x * x + x * y
    g:stop()
    T.equal({ 11.0, 11.0 }, g:gradient(z, { x, x }))
    T.equal({ 3.0, 11.0 }, g:gradient(z, { y, x }))
  end)

  -- backprop_test.py: BackpropTest.testGradientTapeStructure
  it("BackpropTest.testGradientTapeStructure", function()
    local g = tf.GradientTape({ persistent = true })
    local x1 = tf.constant(3.0)
    local x2 = tf.constant(3.1)
    local x3 = tf.constant(3.2)
    g:watch(x1)
    g:watch(x2)
    g:watch(x3)
    local y = x1 + 2 * x2 + 3 * x3
    g:stop()
    T.equal(1.0, g:gradient(y, x1))
    T.equal({ 1.0 }, g:gradient(y, { x1 }))
    T.equal({ 1.0, 2.0 }, g:gradient(y, { x1, x2 }))
    T.equal({ { 1.0, 2.0 }, { 2.0, 3.0 } }, g:gradient(y, { { x1, x2 }, { x2, x3 } }))
    T.equal({ 1.0, 2.0, { 1.0, 3.0 } }, g:gradient(y, { x1, x2, { x1, x3 } }))
    T.equal({ 1.0, { x2 = 2.0, x3 = 3.0 } }, g:gradient(y, { x1, { x2 = x2, x3 = x3 } }))
  end)

  -- backprop_test.py: BackpropTest.testGradientTape
  it("BackpropTest.testGradientTape", function()
    local g = tf.GradientTape()
    local x = tf.constant(3.0)
    g:watch(x)
    local y = x * x
    local gg = tf.GradientTape()
    gg:watch(y)
    local z = 2 * y
    gg:stop()
    local inner_grad = gg:gradient(z, { y })[1]
    T.equal(2.0, inner_grad)
    y = y + inner_grad
    g:stop()
    T.equal(6.0, g:gradient(y, { x })[1])
  end)

  -- backprop_test.py: BackpropTest.testGadientTapeCalledOnConstantTarget
  it("BackpropTest.testGadientTapeCalledOnConstantTarget", function()
    local g = tf.GradientTape()
    local x = tf.Variable({ 3.0 })
    local y = tf.Variable({ 2.0 })
    g:stop()
    assert.is_nil(g:gradient(x, y))
  end)

  -- backprop_test.py: BackpropTest.testGradientTapeWithCond
  it("BackpropTest.testGradientTapeWithCond", function()
    local x = tf.constant(3.0)
    local g = tf.GradientTape()
    g:watch(x)
    local y = tf.cond(tf.less(x, x), function() return x end, function() return x * x end)
    g:stop()
    T.equal(6.0, g:gradient(y, { x })[1])
  end)

  -- backprop_test.py: BackpropTest.testGradientTapeWithWhileLoop
  it("BackpropTest.testGradientTapeWithWhileLoop", function()
    local i = tf.constant(1)
    local x = tf.constant(2.0)
    local g = tf.GradientTape()
    g:watch({ x })
    local _, y = tf.while_loop(function(i_, _) return tf.less(i_, 3) end,
      function(i_, x_) return i_ + 1, x_ * 2 end, { i, x })
    g:stop()
    T.equal(4.0, g:gradient(y, { x })[1])
  end)


  -- backprop_test.py: BackpropTest.testPersistentTape
  it("BackpropTest.testPersistentTape", function()
    local g = tf.GradientTape({ persistent = true })
    local x = tf.constant(3.0)
    g:watch(x)
    local y = x * x
    local z = y * y
    g:stop()
    T.equal(4.0 * 3 * 3 * 3, g:gradient(z, { x })[1])
    T.equal(2.0 * 3, g:gradient(y, { x })[1])
  end)


  -- backprop_test.py: BackpropTest.testPersistentNestedTape
  it("BackpropTest.testPersistentNestedTape", function()
    local g = tf.GradientTape({ persistent = true })
    local x = tf.constant(3.0)
    g:watch(x)
    local y = x * x
    local gg = tf.GradientTape({ persistent = true })
    gg:watch(y)
    local z = 2 * y
    gg:stop()
    local inner_grad
    for _ = 1, 2 do
      inner_grad = gg:gradient(z, { y })[1]
      T.equal(2.0, inner_grad)
    end
    y = y + inner_grad
    g:stop()
    T.equal(6.0, g:gradient(y, { x })[1])
    T.equal(12.0, g:gradient(z, { x })[1])
  end)

  -- backprop_test.py: BackpropTest.testGradientTapeVariable
  it("BackpropTest.testGradientTapeVariable", function()
    local v = tf.Variable(1.0, { name = "v" })
    local g = tf.GradientTape()
    local y = v * v
    g:stop()
    T.equal(2.0, g:gradient(y, { v })[1])
  end)

  -- backprop_test.py: BackpropTest.testNestedGradients
  it("BackpropTest.testNestedGradients", function()
    local x = tf.constant(3.0)
    local g = tf.GradientTape()
    g:watch(x)
    local y = x * x
    local z = y * y
    g:stop()
    local r = g:gradient(z, { x, y })
    T.equal(108.0, r[1])
    T.equal(18.0, r[2])
  end)

  -- backprop_test.py: BackpropTest.testUnconnectedGradientsDefault
  it("BackpropTest.testUnconnectedGradientsDefault", function()
    local x = tf.constant(1.0)
    local y = tf.constant(3.0)
    local g = tf.GradientTape()
    g:watch({ x, y })
    local z = y * 2
    g:stop()
    assert.is_nil(g:gradient(z, x))
  end)






  -- backprop_test.py: BackpropTest.testDifferentiatingScalarCache
  it("BackpropTest.testDifferentiatingScalarCache", function()
    local g = tf.GradientTape({ persistent = false })
    local x1 = tf.constant(3.0)
    local x2 = tf.constant(3.0)
    g:watch(x1)
    g:watch(x2)
    local y = x1 + x2
    g:stop()
    T.equal({ 1.0 }, g:gradient(y, { x1 }))
  end)

  -- backprop_test.py: BackpropTest.testVariablesAndConstantsProduceTheSameGradients
  it("BackpropTest.testVariablesAndConstantsProduceTheSameGradients", function()
    local function get_grads(a, b)
      local tape = tf.GradientTape()
      tape:watch({ a, b })
      local y = a ^ 3
      local z = b ^ 2
      tape:stop()
      return tape:gradient({ y, z }, { a, b })
    end
    local gc = get_grads(tf.constant(2.0), tf.constant(2.0))
    local gv = get_grads(tf.Variable(2.0), tf.Variable(2.0))
    T.equal(T.plain(gc), gv)
    T.equal({ 12.0, 4.0 }, gc)
  end)

  -- backprop_test.py: BackpropTest.testOutput
  it("BackpropTest.testOutput", function()
    local x = tf.constant({ 0.0, 1.0, 2.0 })
    local t = tf.GradientTape()
    t:watch(x)
    local a, b = x + 2, x * x
    t:stop()
    T.equal({ 1.0, 3.0, 5.0 }, t:gradient({ a, b }, x))
  end)

  -- backprop_test.py: BackpropTest.testReturnSameThing
  it("BackpropTest.testReturnSameThing", function()
    local x = tf.constant(1.0)
    local t = tf.GradientTape()
    t:watch(x)
    local a, b = x, 2 * x
    t:stop()
    T.equal(3.0, t:gradient({ a, b }, x))
  end)

  -- backprop_test.py: BackpropTest.testMultiValueConvertToTensor
  it("BackpropTest.testMultiValueConvertToTensor", function()
    local x = tf.Variable(tf.constant({ 1.0 }), { name = "x" })
    local t = tf.GradientTape()
    local a = tf.add(x:value(), 1.0)
    local b = tf.stack({ a, a }, { axis = 0 })
    local r = tf.reduce_mean(b)
    t:stop()
    T.equal({ 1.0 }, t:gradient(r, x))
  end)



  -- backprop_test.py: BackpropTest.testHigherOrderGradient
  it("BackpropTest.testHigherOrderGradient", function()
    local g = tf.GradientTape({ persistent = true })
    local x = tf.constant(3.0)
    g:watch(x)
    local y = x ^ 3
    local dy_dx = g:gradient(y, x)
    local d2y_dx2 = g:gradient(dy_dx, x)
    g:stop()
    local d3y_dx3 = g:gradient(d2y_dx2, x)
    T.equal(27.0, y)
    T.equal(27.0, dy_dx)
    T.equal(18.0, d2y_dx2)
    T.equal(6.0, d3y_dx3)
  end)
  -- backprop_test.py: BackpropTest.testOutputGradUsedInComputation
  it("BackpropTest.testOutputGradUsedInComputation", function()
    local t = tf.GradientTape()
    local x = tf.constant(3.0)
    local y = tf.constant(2.0)
    t:watch({ x, y })
    local loss = x * y
    t:stop()
    local g = t:gradient({ loss, x }, { x }, { output_gradients = { 1.0, 2.0 } })
    T.equal(4.0, g[1])
  end)
  -- backprop_test.py: BackpropTest.testDy
  it("BackpropTest.testDy", function()
    local x = tf.constant(1.0)
    local t = tf.GradientTape()
    t:watch(x)
    local y = x
    t:stop()
    T.equal(2.0, t:gradient(y, x, { output_gradients = tf.constant(2.0) }))
  end)
  -- backprop_test.py: BackpropTest.testImplicitGradOrdering
  it("BackpropTest.testImplicitGradOrdering", function()
    local v0 = tf.Variable(1.0)
    local v1 = tf.Variable(2.0)
    local t = tf.GradientTape()
    local x = v1 * v1
    local y = v0 * v0
    local _ = x + y
    t:stop()
    -- implicit_grad's (grad, var) pairs are the tape's watched variables, in
    -- creation order (v0 before v1), whatever order the code read them.
    local watched = t:watched_variables()
    assert.are.equal(2, #watched)
    assert.is_true(rawequal(v0, watched[1]))
    assert.is_true(rawequal(v1, watched[2]))
  end)
  -- backprop_test.py: BackpropTest.testTapeGradientStringTarget
  it("BackpropTest.testTapeGradientStringTarget", function()
    local s = tf.constant("unknown", tf.string)
    local x = tf.constant(3.0)
    local t = tf.GradientTape()
    t:watch(x)
    t:watch(s)
    t:stop()
    assert.is_nil(t:gradient(s, x))
  end)
  -- backprop_test.py: BackpropTest.testTapeNoOpGradientStringSourceAndTarget
  it("BackpropTest.testTapeNoOpGradientStringSourceAndTarget", function()
    local s = tf.constant("unknown", tf.string)
    local t = tf.GradientTape()
    t:watch(s)
    t:stop()
    assert.is_nil(t:gradient(s, s))
  end)
  -- backprop_test.py: BackpropTest.testTapeNoOpGradientWithMultiTargetMultiSourceIncludeString
  it("BackpropTest.testTapeNoOpGradientWithMultiTargetMultiSourceIncludeString", function()
    local x = tf.constant(3.0)
    local y = tf.constant(5.0)
    local s = tf.constant("unknown", tf.string)
    local t = tf.GradientTape()
    t:watch(x)
    t:watch(y)
    t:watch(s)
    local z = y * y
    t:stop()
    local grads = t:gradient({ x, y, z, s }, { x, y, s })
    T.equal(1.0, grads[1])
    T.equal(11.0, grads[2])
    assert.is_nil(grads[3])
  end)
  -- backprop_test.py: BackpropTest.testTapeReset
  it("BackpropTest.testTapeReset", function()
    local t = tf.GradientTape()
    local v = tf.Variable(1.0)
    local loss = v * v
    t:reset()
    loss = loss + v * v
    t:stop()
    T.equal(2.0, t:gradient(loss, v))
  end)
  -- backprop_test.py: BackpropTest.testAutomaticWatchedVariables
  it("BackpropTest.testAutomaticWatchedVariables", function()
    local t = tf.GradientTape()
    assert.are.equal(0, #t:watched_variables())
    local v = tf.Variable(1.0)
    local loss = v * v
    local w = t:watched_variables()
    assert.are.equal(1, #w)
    assert.is_true(rawequal(v, w[1]))
    t:reset()
    assert.are.equal(0, #t:watched_variables())
    loss = loss + v * v
    w = t:watched_variables()
    assert.are.equal(1, #w)
    assert.is_true(rawequal(v, w[1]))
    t:stop()
  end)
  -- backprop_test.py: BackpropTest.testExplicitWatchedVariables
  it("BackpropTest.testExplicitWatchedVariables", function()
    local t = tf.GradientTape()
    assert.are.equal(0, #t:watched_variables())
    local v = tf.Variable(1.0)
    t:watch(v)
    local w = t:watched_variables()
    assert.are.equal(1, #w)
    assert.is_true(rawequal(v, w[1]))
    t:reset()
    assert.are.equal(0, #t:watched_variables())
    t:watch(v)
    w = t:watched_variables()
    assert.are.equal(1, #w)
    assert.is_true(rawequal(v, w[1]))
    t:stop()
  end)
  -- backprop_test.py: BackpropTest.testGradientTapeGradientCalledMultipleTimes
  it("BackpropTest.testGradientTapeGradientCalledMultipleTimes", function()
    local g = tf.GradientTape()
    local x = tf.constant(3.0)
    g:watch(x)
    local y = x * x
    local z = y * y
    g:stop()
    g:gradient(z, { x })
    T.raises(nil, "GradientTape.gradient can only be called once", function() return g:gradient(y, { x }) end)
  end)
  -- backprop_test.py: BackpropTest.testUnconnectedGradientsZeros
  it("BackpropTest.testUnconnectedGradientsZeros", function()
    local x = tf.fill({ 2, 2 }, 1.0)
    local y = tf.constant(3.0)
    local g = tf.GradientTape()
    g:watch({ x, y })
    local z = y * 2
    g:stop()
    T.equal({ { 0.0, 0.0 }, { 0.0, 0.0 } }, g:gradient(z, x, { unconnected_gradients = "zero" }))
  end)
  -- backprop_test.py: BackpropTest.testUnconnectedGradientsVariablesZeros
  it("BackpropTest.testUnconnectedGradientsVariablesZeros", function()
    local x = tf.Variable(tf.fill({ 2, 2 }, 1.0))
    local y = tf.Variable(tf.constant(3.0))
    local g = tf.GradientTape()
    g:watch({ x, y })
    local z = y * 2
    g:stop()
    T.equal({ { 0.0, 0.0 }, { 0.0, 0.0 } }, g:gradient(z, x, { unconnected_gradients = "zero" }))
  end)
  -- backprop_test.py: BackpropTest.testUnknownUnconnectedGradientsValueGiven
  it("BackpropTest.testUnknownUnconnectedGradientsValueGiven", function()
    local x = tf.constant(1.0)
    local y = tf.constant(1.0)
    local g = tf.GradientTape()
    g:watch({ x, y })
    local z = y * 2
    g:stop()
    T.raises("ValueError", "Unknown value for unconnected_gradients: 'nonsense'", function()
      return g:gradient(z, x, { unconnected_gradients = "nonsense" })
    end)
  end)
  -- backprop_test.py: BackpropTest.testUnconnectedGradientsNestedDefunZeros
  it("BackpropTest.testUnconnectedGradientsNestedDefunZeros", function()
    local f = tf.func(function(x) return x * x end)
    local h = tf.func(function(y) return tf.stop_gradient(f(y)) end)
    local x = tf.constant(1.0)
    local g = tf.GradientTape()
    g:watch(x)
    local k = x + 2.0
    local y = h(k)
    g:stop()
    T.equal(0.0, g:gradient(y, x, { unconnected_gradients = "zero" }))
  end)
  -- backprop_test.py: BackpropTest.testSelectivelyWatchVariables
  it("BackpropTest.testSelectivelyWatchVariables", function()
    local x1 = tf.Variable(1.0)
    local x2 = tf.Variable(1.0)
    local tape = tf.GradientTape({ watch_accessed_variables = false })
    tape:watch(x2)
    local y = x1 ^ 2
    local z = x2 ^ 3
    tape:stop()
    local w = tape:watched_variables()
    assert.are.equal(1, #w)
    assert.is_true(rawequal(x2, w[1]))
    local g = tape:gradient({ y, z }, { x1, x2 })
    assert.is_nil(g[1])
    T.equal(3.0, g[2])
  end)
  -- backprop_test.py: BackpropTest.testWatchedVariablesAfterNonPersistentGradientCall
  it("BackpropTest.testWatchedVariablesAfterNonPersistentGradientCall", function()
    local tape = tf.GradientTape({ persistent = false })
    local x = tf.Variable(1.0)
    tape:watch(x)
    tape:stop()
    tape:gradient(x, x)
    local w = tape:watched_variables()
    assert.are.equal(1, #w)
    assert.is_true(rawequal(x, w[1]))
  end)
  -- backprop_test.py: BackpropTest.testWatchedVariablesOnlyHasVariablesFromLastTape
  it("BackpropTest.testWatchedVariablesOnlyHasVariablesFromLastTape", function()
    local tape = tf.GradientTape({ persistent = false })
    local x = tf.Variable(1.0)
    tape:watch(x)
    tape:stop()
    tape = tf.GradientTape({ persistent = false })
    local z = tf.Variable(2.0)
    tape:watch(z)
    tape:stop()
    tape:gradient(z, z)
    local w = tape:watched_variables()
    assert.are.equal(1, #w)
    assert.is_true(rawequal(z, w[1]))
  end)
  -- backprop_test.py: BackpropTest.testWatchedVariablesRespectReset
  it("BackpropTest.testWatchedVariablesRespectReset", function()
    local tape = tf.GradientTape({ persistent = false })
    local x = tf.Variable(1.0)
    tape:watch(x)
    local w = tape:watched_variables()
    assert.are.equal(1, #w)
    assert.is_true(rawequal(x, w[1]))
    tape:reset()
    local z = tf.Variable(2.0)
    tape:watch(z)
    w = tape:watched_variables()
    assert.are.equal(1, #w)
    assert.is_true(rawequal(z, w[1]))
    tape:stop()
    tape:gradient(z, z)
    w = tape:watched_variables()
    assert.are.equal(1, #w)
    assert.is_true(rawequal(z, w[1]))
  end)
end)

-- JacobianTest._jacobian(experimental_use_pfor=False): moonflow has no pfor,
-- so the while-loop variants are the ones ported.
local function jacobian_case()
  local g = tf.GradientTape({ persistent = true })
  local x = tf.constant({ 1.0, 2.0 })
  local y = tf.constant({ 3.0, 4.0 })
  g:watch(x)
  g:watch(y)
  local z = x * x * y
  g:stop()
  return g:jacobian(z, { x, y })
end

describe("backprop_test.py: JacobianTest", function()


  -- backprop_test.py: JacobianTest.test_parallel_iterations
  it("JacobianTest.test_parallel_iterations", function()
    local g = tf.GradientTape({ persistent = true })
    local x = tf.constant({ { 1.0, 2.0 }, { 3.0, 4.0 } })
    g:watch(x)
    local y = tf.matmul(x, x)
    g:stop()
    T.equal(T.plain(g:jacobian(y, x, { parallel_iterations = 2 })), g:jacobian(y, x, { parallel_iterations = 3 }))
  end)
  -- backprop_test.py: JacobianTest.testWhileLoop
  it("JacobianTest.testWhileLoop", function()
    -- answer = [diag(2 * x * y), diag(x * x)]
    T.equal({ { { 6.0, 0.0 }, { 0.0, 16.0 } }, { { 1.0, 0.0 }, { 0.0, 4.0 } } }, jacobian_case())
  end)
  -- backprop_test.py: JacobianTest.testWhileLoopDefun
  it("JacobianTest.testWhileLoopDefun", function()
    local f = tf.func(jacobian_case)
    T.equal({ { { 6.0, 0.0 }, { 0.0, 16.0 } }, { { 1.0, 0.0 }, { 0.0, 4.0 } } }, f())
  end)
end)

describe("backprop_test.py (more)", function()
  -- backprop_test.py: BackpropTest.testAggregateGradients
  it("BackpropTest.testAggregateGradients", function()
    local function fn(x)
      local g1 = tf.nn.embedding_lookup(x, tf.constant({ 0, 1 }, tf.int64))
      local g2 = tf.nn.embedding_lookup(x, tf.constant({ 2, 3 }, tf.int64))
      local g3 = tf.nn.embedding_lookup(x, tf.constant({ 1, 3 }, tf.int64))
      return g1 * g2 * g3
    end
    local var = T.rand({ 4, 2 })
    -- the graph and eager gradients agree (as TF's graph and eager runs),
    -- and are those of the products
    T.eager_and_traced(function(x)
      local t = tf.GradientTape()
      t:watch(x)
      local y = fn(x)
      t:stop()
      return t:gradient(y, x)
    end, { var }, function(_, grad)
      local v = T.plain(var)
      local want = {}
      for r = 1, 4 do want[r] = { 0, 0 } end
      for c = 1, 2 do
        local a, b, d = { v[1][c], v[2][c] }, { v[3][c], v[4][c] }, { v[2][c], v[4][c] }
        for k = 1, 2 do
          want[k][c] = want[k][c] + b[k] * d[k]
          want[k + 2][c] = want[k + 2][c] + a[k] * d[k]
          local row = k == 1 and 2 or 4
          want[row][c] = want[row][c] + a[k] * b[k]
        end
      end
      T.equal(want, grad, 1e-6)
    end)
  end)

  -- backprop_test.py: BackpropTest.testAggregateGradientsWithTensor
  it("BackpropTest.testAggregateGradientsWithTensor", function()
    local function fn(x)
      local g1 = tf.nn.embedding_lookup(x, tf.constant({ 0, 1 }, tf.int64))
      local g2 = tf.reduce_sum(x * tf.constant(2.0))
      return g1 * g2
    end
    local var = T.rand({ 4, 2 })
    local results = {}
    T.eager_and_traced(function(x)
      local t = tf.GradientTape()
      t:watch(x)
      local y = fn(x)
      t:stop()
      return t:gradient(y, x)
    end, { var }, function(mode, grad) results[mode] = T.plain(grad) end)
    T.equal(results.eager, results.traced, 1e-6)
    -- d/dx of sum(x[0:2]) * 2 sum(x): rows 0, 1 get 2 sum(x) + 2 s01, rows 2, 3 get 2 s01
    local v = T.plain(var)
    local total, s01 = 0, 0
    for r = 1, 4 do for c = 1, 2 do total = total + v[r][c] end end
    for r = 1, 2 do for c = 1, 2 do s01 = s01 + v[r][c] end end
    T.equal({ { 2 * total + 2 * s01, 2 * total + 2 * s01 }, { 2 * total + 2 * s01, 2 * total + 2 * s01 },
      { 2 * s01, 2 * s01 }, { 2 * s01, 2 * s01 } }, results.eager, 1e-5)
  end)

  -- backprop_test.py: BackpropTest.testGradientInsideLoop
  it("BackpropTest.testGradientInsideLoop", function()
    local v = tf.Variable(1.0)
    local f = tf.func(function()
      local function body(_)
        local _ = v + 1.0 -- This reads the variable inside the loop context
        local t = tf.GradientTape()
        local result = v * 2
        t:stop()
        assert.is_not_nil(t:gradient(result, v))
        return 1.0
      end
      return tf.while_loop(function() return false end, body, { 1.0 })
    end, { autograph = false })
    f()
  end)

  -- backprop_test.py: BackpropTest.testPythonMax (Lua's math.max compares
  -- the variables' values, as Python's max does)
  it("BackpropTest.testPythonMax", function()
    local x = { tf.Variable(2.0), tf.Variable(3.0), tf.Variable(5.0) }
    local t = tf.GradientTape()
    local f = math.max(x[1], x[2], x[3])
    t:stop()
    local grad = t:gradient(f, x)
    T.equal(5.0, f)
    assert.is_nil(grad[1])
    assert.is_nil(grad[2])
    T.equal(1.0, grad[3])
  end)

  -- backprop_test.py: BackpropTest.testNestedSelfContexts
  it("BackpropTest.testNestedSelfContexts", function()
    local v1 = tf.Variable(1.0)
    local _ = v1
    local t = tf.GradientTape()
    T.raises("ValueError", "Tape is still recording", function() t:resume() end)
    t:stop()
  end)

  -- backprop_test.py: BackpropTest.testSecondGrad
  it("BackpropTest.testSecondGrad", function()
    local function first(x)
      local l = tf.constant({ { 0.0 } })
      x = tf.nn.softmax_cross_entropy_with_logits(l, x)
      return tf.reduce_sum(x, tf.constant({ 0 }))
    end
    local function second(x)
      local t = tf.GradientTape()
      t:watch(x)
      local y = first(x)
      t:stop()
      return tf.reduce_sum(t:gradient(y, x), tf.constant({ 0 }))
    end
    local f = tf.constant({ { 0.1 } })
    local t = tf.GradientTape()
    t:watch(f)
    local y = second(f)
    t:stop()
    T.equal({ { 0.0 } }, t:gradient(y, f))
  end)

  -- backprop_test.py: BackpropTest.testStopGradient
  it("BackpropTest.testStopGradient", function()
    local x = tf.constant({ 0.0 })
    local t = tf.GradientTape()
    t:watch(x)
    local y = tf.stop_gradient(tf.argmax(x))
    t:stop()
    assert.is_nil(t:gradient(y, x))
  end)

  -- backprop_test.py: BackpropTest.testMulType
  it("BackpropTest.testMulType", function()
    local x = tf.constant(3.0)
    local t = tf.GradientTape()
    t:watch(x)
    local y = tf.multiply(x, x)
    t:stop()
    T.equal(6.0, t:gradient(y, x))
  end)

  -- backprop_test.py: BackpropTest.testArgsGradientFunction
  it("BackpropTest.testArgsGradientFunction", function()
    local function f(...)
      local args = { ... }
      return args[1] * args[1]
    end
    local x = tf.constant(1.0)
    local t = tf.GradientTape()
    t:watch(x)
    local y = f(x)
    t:stop()
    T.equal(2.0, t:gradient(y, x))
  end)

  -- backprop_test.py: BackpropTest.testPartial
  it("BackpropTest.testPartial", function()
    local function f(x, y) return x * y end
    local two = tf.constant(2.0)
    local part = function(y) return f(two, y) end
    local x = tf.constant(1.0)
    local t = tf.GradientTape()
    t:watch(x)
    local y = part(x)
    t:stop()
    T.equal(2.0, t:gradient(y, x))
  end)

  -- backprop_test.py: BackpropTest.testExceptionSafety
  it("BackpropTest.testExceptionSafety", function()
    local function gradients_function(f, x)
      local t <close> = tf.GradientTape()
      t:watch(x)
      local y = f(x)
      t:stop()
      return t:gradient(y, x)
    end
    local ok = pcall(gradients_function, function() error(tf.errors.ValueError) end, tf.constant(1.0))
    assert.is_false(ok)
    T.equal(2.0, gradients_function(function(x) return x * x end, tf.constant(1.0)))
  end)

  -- backprop_test.py: BackpropTest.testMultiValuePreservesIfNotDiffedAgainst
  it("BackpropTest.testMultiValuePreservesIfNotDiffedAgainst", function()
    local i = tf.constant({ { { { 1.0 } } } })
    local k = tf.constant({ { { { 2.0 } } } })
    local s = { 1, 1, 1, 1 }
    local t = tf.GradientTape()
    t:watch(i)
    local y = tf.nn.conv2d(i, k, s, "SAME")
    t:stop()
    T.equal({ { { { 2.0 } } } }, t:gradient(y, i))
  end)

  -- backprop_test.py: BackpropTest.testSameObjectForMultipleArguments
  it("BackpropTest.testSameObjectForMultipleArguments", function()
    local function np_g(x, y)
      local a, b = x, y
      if rawequal(x, y) then b = tf.identity(y) end
      local t = tf.GradientTape()
      t:watch({ a, b })
      local r = tf.multiply(a, b)
      t:stop()
      local g = t:gradient(r, { a, b })
      return { g[1]:numpy(), g[2]:numpy() }
    end
    local x = tf.constant(1.0)
    T.equal({ 1.0, 1.0 }, np_g(x, x))
    x = tf.constant({ { 1.0 } })
    T.equal({ { { 1.0 } }, { { 1.0 } } }, np_g(x, x))
    local v = tf.Variable(1.0, { name = "testSameObjectForMultipleArguments.Variable" })
    T.equal({ 1.0, 1.0 }, np_g(v, v))
  end)

  -- backprop_test.py: BackpropTest.testImplicitGradOverEmbeddingLookup
  it("BackpropTest.testImplicitGradOverEmbeddingLookup", function()
    local batch_size, embedding_size, vocab_size, lrn_rate = 8, 512, 1000, 0.1
    local random_init = tf.random.uniform({ vocab_size, embedding_size })
    local x = tf.ones({ batch_size }, tf.int64)
    local embedding = tf.Variable(random_init, { dtype = tf.float32, name = "embedding" })
    local function f()
      local embedded_x = tf.nn.embedding_lookup(embedding, x)
      return tf.constant(1.0, tf.float32) - embedded_x
    end
    local grad = T.implicit_grad(f)
    -- TF's gradient is IndexedSlices (indices all 1, values all -1);
    -- moonflow's is their dense sum: row 1 gets -8, the others 0.
    local dense = tf.tensor_scatter_nd_add(tf.zeros({ vocab_size, embedding_size }), { { 1 } },
      tf.fill({ 1, embedding_size }, -batch_size * 1.0))
    -- (compared in tensor ops: half a million Lua numbers are slow to walk)
    T.equal(0.0, tf.reduce_max(tf.abs(grad - dense)))
    local opt = tf.keras.optimizers.SGD(lrn_rate)
    opt:apply_gradients({ { grad, embedding } })
    local expected = random_init - lrn_rate * dense
    T.equal(0.0, tf.reduce_max(tf.abs(expected - embedding:read_value())), 1e-6)
  end)

  -- backprop_test.py: BackpropTest.testZerosCacheDoesntLeakAcrossGraphs
  it("BackpropTest.testZerosCacheDoesntLeakAcrossGraphs", function()
    local get_grad = tf.func(function()
      local t = tf.fill({ 10, 4 }, 1.0)
      local x = tf.fill({ 10, 4 }, 2.0)
      local tape = tf.GradientTape()
      tape:watch(x)
      local x1 = tf.split(x, 2, 1)[1]
      local y1 = x1 ^ 2
      local y = tf.concat({ y1, t }, 1)
      tape:stop()
      return tape:gradient(y, x)
    end)
    local grad1 = T.plain(get_grad())
    local grad2 = T.plain(tf.func(get_grad.lua_function)())
    T.equal(grad1, grad2)
    for r = 1, 10 do T.equal({ 4.0, 4.0, 0.0, 0.0 }, grad1[r]) end
  end)

  -- backprop_test.py: BackpropTest.testUnknownShapes
  it("BackpropTest.testUnknownShapes", function()
    local f = tf.func(function(a)
      local tape = tf.GradientTape()
      tape:watch(a)
      local b = a ^ 3
      tape:stop()
      return b, tape:gradient(b, a)
    end, { input_signature = { tf.TensorSpec(nil, tf.float32) } })
    T.returns({ 8.0, 12.0 }, f(tf.constant(2.0)))
  end)

  -- backprop_test.py: BackpropTest.testWatchBadThing (np.array(1.) is a Lua number)
  it("BackpropTest.testWatchBadThing", function()
    local g = tf.GradientTape()
    T.raises("ValueError", "not tf.Tensor or tf.Variable", function() g:watch(1.0) end)
    g:stop()
  end)

  -- backprop_test.py: BackpropTest.testNameScope
  it("BackpropTest.testNameScope", function()
    local function fn(x)
      local scope <close> = tf.name_scope("my_scope")
      local a = tf.cos(x)
      local b = tf.cos(x)
      return tf.add(a, b)
    end
    local grad_fn = tf.func(function(x)
      local t = tf.GradientTape()
      t:watch(x)
      local y = fn(x)
      t:stop()
      return t:gradient(y, x)
    end)
    local num_sin_ops_found = 0
    for _, op in ipairs(grad_fn:get_concrete_function(tf.constant(1.0)).graph:get_operations()) do
      if op.type == "Sin" then
        num_sin_ops_found = num_sin_ops_found + 1
        assert.is_truthy(op.name:find("gradient_tape/my_scope/", 1, true), op.name)
      end
    end
    assert.are.equal(2, num_sin_ops_found)
  end)
end)

-- JacobianTest._jacobian(experimental_use_pfor=True): the same values.
describe("backprop_test.py: JacobianTest (more)", function()
  local function jacobian_pfor()
    local g = tf.GradientTape()
    local x = tf.constant({ 1.0, 2.0 })
    local y = tf.constant({ 3.0, 4.0 })
    g:watch(x)
    g:watch(y)
    local z = x * x * y
    g:stop()
    return g:jacobian(z, { x, y }, { experimental_use_pfor = true })
  end
  local ANSWER = { { { 6.0, 0.0 }, { 0.0, 16.0 } }, { { 1.0, 0.0 }, { 0.0, 4.0 } } }

  -- backprop_test.py: JacobianTest.testPfor
  it("JacobianTest.testPfor", function() T.equal(ANSWER, jacobian_pfor()) end)

  -- backprop_test.py: JacobianTest.testPforDefun
  it("JacobianTest.testPforDefun", function() T.equal(ANSWER, tf.func(jacobian_pfor)()) end)

  -- backprop_test.py: JacobianTest.testPersistentTape
  it("JacobianTest.testPersistentTape", function()
    local g = tf.GradientTape()
    local x = tf.constant({ 1.0, 2.0 })
    g:watch(x)
    local y = x * x
    g:stop()
    T.raises("RuntimeError", "persistent", function() return g:jacobian(y, x, { experimental_use_pfor = false }) end)
  end)

  -- backprop_test.py: JacobianTest.test_nested_jacobian (in a graph, as TF runs it)
  it("JacobianTest.test_nested_jacobian", function()
    local f = tf.func(function()
      local x = tf.ones({ 10, 2 })
      local g = tf.GradientTape({ persistent = false })
      g:watch(x)
      local gg = tf.GradientTape({ persistent = false })
      gg:watch(x)
      local y = tf.reduce_sum(tf.square(x))
      gg:stop()
      local dy_x = gg:jacobian(y, x)
      g:stop()
      return g:batch_jacobian(dy_x, x)
    end)
    local answer = {}
    for i = 1, 10 do answer[i] = { { 2.0, 0.0 }, { 0.0, 2.0 } } end
    T.equal(answer, f())
  end)

  -- backprop_test.py: JacobianTest.test_indexed_slices
  it("JacobianTest.test_indexed_slices", function()
    local g = tf.GradientTape({ persistent = true })
    local inp = tf.random.uniform({ 3, 2 })
    g:watch(inp)
    local output = tf.nn.embedding_lookup(inp, { 0, 2 })
    g:stop()
    T.equal(T.plain(g:jacobian(output, inp, { experimental_use_pfor = true })),
      g:jacobian(output, inp, { experimental_use_pfor = false }))
  end)
end)

describe("backprop_test.py: BatchJacobianTest", function()
  local function batch_jacobian_case(use_pfor)
    local g = tf.GradientTape({ persistent = not use_pfor })
    local x = tf.constant({ { 1.0, 2.0 }, { 3.0, 4.0 } })
    local y = tf.constant({ { 3.0, 4.0 }, { 5.0, 6.0 } })
    g:watch(x)
    local z = x * x * y
    g:stop()
    return g:batch_jacobian(z, x, { experimental_use_pfor = use_pfor })
  end
  -- stack([diag(2 * x[0] * y[0]), diag(2 * x[1] * y[1])])
  local ANSWER = { { { 6.0, 0.0 }, { 0.0, 16.0 } }, { { 30.0, 0.0 }, { 0.0, 48.0 } } }

  -- backprop_test.py: BatchJacobianTest.testPfor
  it("BatchJacobianTest.testPfor", function() T.equal(ANSWER, batch_jacobian_case(true)) end)

  -- backprop_test.py: BatchJacobianTest.testWhileLoop
  it("BatchJacobianTest.testWhileLoop", function() T.equal(ANSWER, batch_jacobian_case(false)) end)

  -- backprop_test.py: BatchJacobianTest.testPforDefun
  it("BatchJacobianTest.testPforDefun", function()
    T.equal(ANSWER, tf.func(function() return batch_jacobian_case(true) end)())
  end)

  -- backprop_test.py: BatchJacobianTest.testWhileLoopDefun
  it("BatchJacobianTest.testWhileLoopDefun", function()
    T.equal(ANSWER, tf.func(function() return batch_jacobian_case(false) end)())
  end)

  -- backprop_test.py: BatchJacobianTest.testPersistentTape
  it("BatchJacobianTest.testPersistentTape", function()
    local g = tf.GradientTape()
    local x = tf.constant({ { 1.0, 2.0 } })
    g:watch(x)
    local y = x * x
    g:stop()
    T.raises("RuntimeError", "persistent", function() return g:batch_jacobian(y, x, { experimental_use_pfor = false }) end)
  end)

  -- backprop_test.py: BatchJacobianTest.testBadShape
  it("BatchJacobianTest.testBadShape", function()
    local x = tf.random.uniform({ 2, 3 })
    local g = tf.GradientTape()
    local y = tf.concat({ x, x }, 0)
    g:stop()
    T.raises("ValueError", "Need first dimension", function() return g:batch_jacobian(y, x) end)
  end)

  -- backprop_test.py: BatchJacobianTest.testBadInputRank
  it("BatchJacobianTest.testBadInputRank", function()
    local x = tf.random.uniform({ 2 })
    local g = tf.GradientTape()
    local y = tf.random.uniform({ 2, 2 })
    g:stop()
    T.raises("ValueError", "must have rank at least 2", function() return g:batch_jacobian(y, x) end)
  end)

  -- backprop_test.py: BatchJacobianTest.testBadOutputRank
  it("BatchJacobianTest.testBadOutputRank", function()
    local x = tf.random.uniform({ 2, 2 })
    local g = tf.GradientTape()
    local y = tf.random.uniform({ 2 })
    g:stop()
    T.raises("ValueError", "must have rank at least 2", function() return g:batch_jacobian(y, x) end)
  end)

  -- backprop_test.py: BatchJacobianTest.test_parallel_iterations
  it("BatchJacobianTest.test_parallel_iterations", function()
    local g = tf.GradientTape({ persistent = true })
    local x = tf.constant({ { 1.0, 2 }, { 3, 4 } })
    g:watch(x)
    local w = tf.constant({ { 1.0, 2, 3, 4 }, { 5, 6, 7, 8 } })
    local y = tf.matmul(x, w)
    g:stop()
    T.equal(T.plain(g:batch_jacobian(y, x, { parallel_iterations = 2 })),
      g:batch_jacobian(y, x, { parallel_iterations = 3 }))
  end)

  -- backprop_test.py: BatchJacobianTest.test_degenerate_shape (each parameterization)
  for _, use_function in ipairs({ true, false }) do
    for _, use_pfor in ipairs({ true, false }) do
      it(("BatchJacobianTest.test_degenerate_shape(%s, %s)"):format(tostring(use_function), tostring(use_pfor)), function()
        local function f(x)
          local tape = tf.GradientTape({ persistent = true })
          tape:watch(x)
          local y = x ^ 2
          tape:stop()
          return tape:batch_jacobian(y, x, { experimental_use_pfor = use_pfor })
        end
        if use_function then f = tf.func(f) end
        T.equal({ 1, 0, 0 }, tf.shape(T.quiet(f, tf.zeros({ 1, 0 }))))
      end)
    end
  end
end)
