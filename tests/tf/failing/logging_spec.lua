-- logging_spec.lua — tensorflow/python/kernel_tests/logging_ops_test.py
-- (PrintV2Test), ported: tf.print's formatting. TF captures sys.stderr (its
-- default stream); moonflow's default is io.stdout (API.md: "output_stream
-- is a Lua file (default io.stdout) or a function that receives the text"),
-- so these cases capture through output_stream = function.

local tf = tf or require("moonflow")
local T = require("tfhelpers")
-- tests/tf/failing/: cases that fail today (the worklist of issue 11).
-- Each keeps the form of its passing siblings; the `moonflow instead:`
-- line says what moonflow does now. Not run by tests/run.sh.

local P = T.capture_print
local PO = T.capture_print_opts

describe("logging_ops_test.py", function()
  -- logging_ops_test.py: PrintV2Test.testPrintTwoVariablesInStructWithAssignAdd
  -- moonflow instead: a table with string keys prints as [] instead of {'second': [0 1 2 ... 7 8 9]}
  it("PrintV2Test.testPrintTwoVariablesInStructWithAssignAdd", function()
    local var_one = tf.Variable(2.14)
    var_one:assign_add(1.0)
    local var_two = tf.Variable(tf.range(10))
    assert.are.equal("3.14 {'second': [0 1 2 ... 7 8 9]}\n", P(var_one, { second = var_two }))
  end)
  -- logging_ops_test.py: PrintV2Test.testPrintPlaceholderGeneration
  -- moonflow instead: a table with string keys prints as [] instead of {'{}': [0 10 20 ... 70 80 90]}
  it("PrintV2Test.testPrintPlaceholderGeneration", function()
    local tensor = tf.range(10)
    assert.are.equal("{}6 {'{}': [0 10 20 ... 70 80 90]}\n", P("{}6", { ["{}"] = tensor * 10 }))
  end)
  -- logging_ops_test.py: PrintV2Test.testPrintNoTensors
  -- moonflow instead: a table with string keys prints as [] instead of {'6': 12}
  it("PrintV2Test.testPrintNoTensors", function()
    assert.are.equal("23 [23, 5] {'6': 12}\n", P(23, { 23, 5 }, { ["6"] = 12 }))
  end)
  -- logging_ops_test.py: PrintV2Test.testPrintComplexTensorStruct
  -- moonflow instead: a table with string keys prints as [] instead of {'Big': ..., 'small': ...}
  it("PrintV2Test.testPrintComplexTensorStruct", function()
    local tensor = tf.range(10)
    local small_tensor = tf.constant({ 0.3, 12.4, -16.1 })
    local big_tensor = tf.multiply(tensor, 10)
    assert.are.equal("first: [0 1 2 ... 7 8 9] middle: {'Big': [0 10 20 ... 70 80 90], "
      .. "'small': [0.3 12.4 -16.1]} 10 [[0 2 4 ... 14 16 18], [0 1 2 ... 7 8 9]]\n",
      P("first:", tensor, "middle:", { small = small_tensor, Big = big_tensor }, 10, { tensor * 2, tensor }))
  end)
  -- logging_ops_test.py: PrintV2Test.testInvalidOutputStreamRaisesError
  -- moonflow instead: InvalidArgumentError from inside the print op ("attempt to call a nil value (method 'write')") instead of ValueError for output_stream = "unknown"
  it("PrintV2Test.testInvalidOutputStreamRaisesError", function()
    T.raises("ValueError", nil, tf.print, tf.range(10), { output_stream = "unknown" })
  end)
end)
