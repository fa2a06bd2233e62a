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
  -- gradients_test.py: FunctionGradientsTest.testIteratedGradientsNested
  -- moonflow instead: TypeError "tf.func expects a Lua function, got table": a tf.func cannot wrap another tf.func
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
  -- moonflow instead: TypeError "tf.func expects a Lua function, got table": a tf.func cannot wrap another tf.func
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
