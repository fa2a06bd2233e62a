-- function_gradients_spec.lua —
-- tensorflow/python/eager/polymorphic_function/gradients_test.py
-- (FunctionGradientsTest), ported: gradients through and inside tf.func.
-- backprop.implicit_grad(f)() is a tape around f() differentiated with
-- respect to the variables it watched; gradients_function(f, [0])(x) is a
-- tape watching x around f(x). tf.gradients (graph-only symbolic
-- gradients) has no moonflow counterpart, so the cases built on it are left out.

local tf = tf or require("moonflow")
local T = require("tfhelpers")
-- tests/tf/failing/: cases that fail today (the worklist of issue 11).
-- Each keeps the form of its passing siblings; the `moonflow instead:`
-- line says what moonflow does now. Not run by tests/run.sh.

local COS_DERIVATIVES, implicit_grad = T.COS_DERIVATIVES, T.implicit_grad

describe("polymorphic_function/gradients_test.py", function()
  -- gradients_test.py: FunctionGradientsTest.testFunctionHasNoSecondOrderGradient
  -- moonflow instead: InvalidArgumentError "logits must be 2-D, but got shape [2]": sparse_softmax_cross_entropy_with_logits rejects rank-1 logits with scalar labels
  it("FunctionGradientsTest.testFunctionHasNoSecondOrderGradient", function()
    local v = tf.Variable(1.0)
    local f = tf.func(function(labels, logits)
      return tf.func(function(l, lg)
        return tf.nn.sparse_softmax_cross_entropy_with_logits({ labels = l, logits = lg })
      end)(labels, logits + v)
    end)
    local f_grad = tf.func(function()
      local tape = tf.GradientTape()
      local logits = tf.constant({ 1.0, 2.0 })
      tape:watch(logits)
      local out = f(tf.constant(1), logits)
      tape:stop()
      return tape:gradient(out, logits)
    end)
    assert.are.same({ 2 }, f_grad().shape:as_list())
  end)
end)
