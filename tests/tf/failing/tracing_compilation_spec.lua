-- tracing_compilation_spec.lua —
-- tensorflow/python/eager/polymorphic_function/tracing_compilation_test.py
-- (TracingCompilationTest), ported. The test's `compiled_fn` is tf.func; the
-- length of its FunctionCache is the number of traced concrete functions,
-- f:experimental_get_tracing_count(). Python keyword arguments have no Lua
-- form, so only the positional calls of each test are kept.

local tf = tf or require("moonflow")
local T = require("tfhelpers")
-- tests/tf/failing/: cases that fail today (the worklist of issue 11).
-- Each keeps the form of its passing siblings; the `moonflow instead:`
-- line says what moonflow does now. Not run by tests/run.sh.

local count = T.count

describe("tracing_compilation_test.py", function()
  -- tracing_compilation_test.py: TracingCompilationTest.testEagerCaptures
  -- moonflow instead: a small captured eager tensor (4 elements) becomes a Placeholder; TF embeds it as a Const
  it("TracingCompilationTest.testEagerCaptures", function()
    local large_tensor = tf.ones({ 256 })
    local small_tensor = tf.ones({ 4 })
    local v = tf.Variable(0.0)
    for _, case in ipairs({ { large_tensor, 1 }, { small_tensor, 0 }, { v, 1 } }) do
      local captured, placeholders = case[1], case[2]
      local test_fn = tf.func(function() return captured + 1 end)
      local g = test_fn:get_concrete_function().graph
      assert.are.equal(1, #g.captures)
      local n = 0
      for _, op in ipairs(g:get_operations()) do
        if op.type == "Placeholder" then n = n + 1 end
      end
      -- TF captures a small eager tensor as a Const, a large one and a variable handle as a Placeholder
      assert.are.equal(placeholders, n)
    end
  end)
end)
