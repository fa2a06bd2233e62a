-- logging_spec.lua — tensorflow/python/kernel_tests/logging_ops_test.py
-- (PrintV2Test), ported: tf.print's formatting. TF captures sys.stderr (its
-- default stream); moonflow's default is io.stdout (API.md: "output_stream
-- is a Lua file (default io.stdout) or a function that receives the text"),
-- so these cases capture through output_stream = function.

local tf = tf or require("moonflow")
local T = require("tfhelpers")

local P = T.capture_print
local PO = T.capture_print_opts

describe("logging_ops_test.py", function()
  -- logging_ops_test.py: PrintV2Test.testPrintOneTensor
  it("PrintV2Test.testPrintOneTensor", function()
    assert.are.equal("[0 1 2 ... 7 8 9]\n", P(tf.range(10)))
  end)

  -- logging_ops_test.py: PrintV2Test.testPrintOneStringTensor
  it("PrintV2Test.testPrintOneStringTensor", function()
    local letters = {}
    for c in ("abcdefghijklmnopqrstuvwxyz"):gmatch(".") do letters[#letters + 1] = c end
    assert.are.equal('["a" "b" "c" ... "x" "y" "z"]\n', P(tf.constant(letters)))
  end)

  -- logging_ops_test.py: PrintV2Test.testPrintOneTensorVarySummarize
  it("PrintV2Test.testPrintOneTensorVarySummarize", function()
    assert.are.equal("[0 ... 9]\n", PO({ summarize = 1 }, tf.range(10)))
    assert.are.equal("[0 1 ... 8 9]\n", PO({ summarize = 2 }, tf.range(10)))
    assert.are.equal("[0 1 2 ... 7 8 9]\n", PO({ summarize = 3 }, tf.range(10)))
    assert.are.equal("[0 1 2 3 4 5 6 7 8 9]\n", PO({ summarize = -1 }, tf.range(10)))
  end)

  -- logging_ops_test.py: PrintV2Test.testPrintOneVariable
  it("PrintV2Test.testPrintOneVariable", function()
    local var = tf.Variable(tf.range(10))
    assert.are.equal("[0 1 2 ... 7 8 9]\n", P(var))
  end)


  -- logging_ops_test.py: PrintV2Test.testPrintTwoTensors
  it("PrintV2Test.testPrintTwoTensors", function()
    local tensor = tf.range(10)
    assert.are.equal("[0 1 2 ... 7 8 9] [0 10 20 ... 70 80 90]\n", P(tensor, tensor * 10))
  end)

  -- logging_ops_test.py: PrintV2Test.testPrintTwoTensorsDifferentSep
  it("PrintV2Test.testPrintTwoTensorsDifferentSep", function()
    local tensor = tf.range(10)
    assert.are.equal("[0 1 2 ... 7 8 9]<separator>[0 10 20 ... 70 80 90]\n",
      PO({ sep = "<separator>" }, tensor, tensor * 10))
  end)



  -- logging_ops_test.py: PrintV2Test.testPrintFloatScalar
  it("PrintV2Test.testPrintFloatScalar", function()
    for _, dtype in ipairs({ tf.float32, tf.float64 }) do
      assert.are.equal("43.5\n", P(tf.constant(43.5, dtype)))
    end
  end)

  -- logging_ops_test.py: PrintV2Test.testPrintStringScalar
  it("PrintV2Test.testPrintStringScalar", function()
    assert.are.equal("scalar\n", P(tf.constant("scalar")))
  end)

  -- logging_ops_test.py: PrintV2Test.testPrintStringScalarDifferentEnd
  it("PrintV2Test.testPrintStringScalarDifferentEnd", function()
    assert.are.equal("scalar<customend>", PO({ ["end"] = "<customend>" }, tf.constant("scalar")))
  end)


  -- logging_ops_test.py: PrintV2Test.testPrintOneTensorStdout
  it("PrintV2Test.testPrintOneTensorStdout", function()
    local lines = T.capture(function() tf.print(tf.range(10), { output_stream = io.stdout }) end)
    assert.are.same({ "[0 1 2 ... 7 8 9]" }, lines)
  end)

  -- logging_ops_test.py: PrintV2Test.testPrintTensorsToFile (a Lua file stands for TF's "file://" stream)
  it("PrintV2Test.testPrintTensorsToFile", function()
    local name = os.tmpname()
    local f = assert(io.open(name, "w"))
    tf.print(tf.range(0, 10), { output_stream = f })
    tf.print(tf.range(11, 20), { output_stream = f })
    f:close()
    f = assert(io.open(name, "r"))
    local line_0, line_1 = f:read("l"), f:read("l")
    f:close()
    os.remove(name)
    assert.is_truthy(line_0:find("[0 1 2 ... 7 8 9]", 1, true))
    assert.is_truthy(line_1:find("[11 12 13 ... 17 18 19]", 1, true))
  end)


  -- logging_ops_test.py: PrintV2Test.testPrintsOrderedInDefun
  it("PrintV2Test.testPrintsOrderedInDefun", function()
    local chunks = {}
    local sink = function(s) chunks[#chunks + 1] = s end
    local prints = tf.func(function()
      tf.print("A", { output_stream = sink })
      tf.print("B", { output_stream = sink })
      tf.print("C", { output_stream = sink })
    end)
    prints()
    assert.are.equal("A\nB\nC\n", table.concat(chunks))
  end)

  -- logging_ops_test.py: PrintV2Test.testPrintInDefunWithoutExplicitEvalOfPrint
  it("PrintV2Test.testPrintInDefunWithoutExplicitEvalOfPrint", function()
    local chunks = {}
    local f = tf.func(function()
      local tensor = tf.range(10)
      tf.print(tensor, { output_stream = function(s) chunks[#chunks + 1] = s end })
      return tensor
    end)
    f()
    assert.are.equal("[0 1 2 ... 7 8 9]\n", table.concat(chunks))
    chunks = {}
    f()
    assert.are.equal("[0 1 2 ... 7 8 9]\n", table.concat(chunks))
  end)
  -- logging_ops_test.py: PrintV2Test.testPrintTwoVariablesInStructWithAssignAdd
  it("PrintV2Test.testPrintTwoVariablesInStructWithAssignAdd", function()
    local var_one = tf.Variable(2.14)
    var_one:assign_add(1.0)
    local var_two = tf.Variable(tf.range(10))
    assert.are.equal("3.14 {'second': [0 1 2 ... 7 8 9]}\n", P(var_one, { second = var_two }))
  end)
  -- logging_ops_test.py: PrintV2Test.testPrintPlaceholderGeneration
  it("PrintV2Test.testPrintPlaceholderGeneration", function()
    local tensor = tf.range(10)
    assert.are.equal("{}6 {'{}': [0 10 20 ... 70 80 90]}\n", P("{}6", { ["{}"] = tensor * 10 }))
  end)
  -- logging_ops_test.py: PrintV2Test.testPrintNoTensors
  it("PrintV2Test.testPrintNoTensors", function()
    assert.are.equal("23 [23, 5] {'6': 12}\n", P(23, { 23, 5 }, { ["6"] = 12 }))
  end)
  -- logging_ops_test.py: PrintV2Test.testPrintComplexTensorStruct
  it("PrintV2Test.testPrintComplexTensorStruct", function()
    local tensor = tf.range(10)
    local small_tensor = tf.constant({ 0.3, 12.4, -16.1 })
    local big_tensor = tf.multiply(tensor, 10)
    assert.are.equal("first: [0 1 2 ... 7 8 9] middle: {'Big': [0 10 20 ... 70 80 90], "
      .. "'small': [0.3 12.4 -16.1]} 10 [[0 2 4 ... 14 16 18], [0 1 2 ... 7 8 9]]\n",
      P("first:", tensor, "middle:", { small = small_tensor, Big = big_tensor }, 10, { tensor * 2, tensor }))
  end)
  -- logging_ops_test.py: PrintV2Test.testInvalidOutputStreamRaisesError
  it("PrintV2Test.testInvalidOutputStreamRaisesError", function()
    T.raises("ValueError", nil, tf.print, tf.range(10), { output_stream = "unknown" })
  end)
end)
