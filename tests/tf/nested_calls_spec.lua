-- nested_calls_spec.lua — tensorflow/python/eager/function_test.py
-- (FunctionTest), ported: a tf.function called inside another's trace.
-- TF's graph-mode `tf_function.Defun(dtypes.int32, dtypes.int32)` is a
-- tf.func with that input_signature.

local tf = tf or require("moonflow")
local T = require("tfhelpers")

describe("function_test.py", function()
  -- function_test.py: FunctionTest.testNestedFunctions
  it("FunctionTest.testNestedFunctions", function()
    local add = tf.func(function(a, b) return tf.add(a, b) end,
      { input_signature = { tf.TensorSpec({}, tf.int32), tf.TensorSpec({}, tf.int32) } })
    local add_one = tf.func(function(x) return add(x, 1) end)
    T.equal(3, add_one(tf.constant(2)))
  end)

  -- function_test.py: FunctionTest.testBasicGraphFunction (sq calls the
  -- tf.function matmul: its own concrete function; the output shape is
  -- inferred through the call)
  it("FunctionTest.testBasicGraphFunction", function()
    local matmul = tf.func(function(a, b) return tf.matmul(a, b) end)
    local sq = tf.func(function(a) return matmul(a, a) end)
    local t = tf.constant({ { 1.0, 2.0 }, { 3.0, 4.0 } })
    local sq_op = sq:get_concrete_function(t)
    assert.are.same({ 2, 2 }, sq_op.outputs[1].shape:as_list())
    T.equal(tf.matmul(t, t):numpy(), sq_op(t))
  end)
end)
