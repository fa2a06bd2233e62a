-- autograph_spec.lua — TensorFlow's AutoGraph reference tests
-- (tensorflow/python/autograph/tests/*_test.py), ported. Each TF test runs a
-- Python function eagerly and as a tf.function and asserts both agree
-- (assertFunctionMatchesEager); here the expected values are what the
-- plain Python function returns for the same inputs, and the case asserts
-- the tf.func of the Lua translation returns them.
--
-- Translation notes (syntax only):
-- * `for x in l` over a Python list is `for _, x in ipairs(l)` (the *_list
--   variants); over a tensor it is `for x in t do`, which AutoGraph converts.
-- * Python's loop variable outlives the loop; Lua's does not, so
--   `for i in l: pass; return i` assigns the loop value to an outer local.
-- * `continue` is `goto continue` with `::continue::` closing the body.
-- * A local that Python creates inside a branch or loop is declared
--   (`local i`) before it in Lua: Lua needs the declaration, Python does not.
-- * Python bools used as numbers (`bool(1)` in test_composition) are Lua
--   integers: `0 < true` is an error in Lua.

local tf = tf or require("moonflow")
local T = require("tfhelpers")
-- tests/tf/failing/: cases that fail today (the worklist of issue 11).
-- Each keeps the form of its passing siblings; the `moonflow instead:`
-- line says what moonflow does now. Not run by tests/run.sh.

local R = require("autograph_refs")

describe("cond_basic_test.py", function()
  -- cond_basic_test.py: ReferenceTest.test_nested_if_temporarily_undefined_return_illegal
  -- moonflow instead: returns 1 or 2 (no error): the converter copies the `return 2` after the outer `if` into both inner branches, so no branch lacks a return; TF moves the tail into an else only when the if body always returns, and raises ValueError "... must also have a return"
  it("test_nested_if_temporarily_undefined_return_illegal(True, True)", function() T.raises("ValueError", "must also have a return", tf.func(R.nested_if_temporarily_undefined_return), tf.constant(true), tf.constant(true)) end)
  -- cond_basic_test.py: ReferenceTest.test_nested_if_temporarily_undefined_return_illegal
  -- moonflow instead: returns 1 or 2 (no error): the converter copies the `return 2` after the outer `if` into both inner branches, so no branch lacks a return; TF moves the tail into an else only when the if body always returns, and raises ValueError "... must also have a return"
  it("test_nested_if_temporarily_undefined_return_illegal(True, False)", function() T.raises("ValueError", "must also have a return", tf.func(R.nested_if_temporarily_undefined_return), tf.constant(true), tf.constant(false)) end)
  -- cond_basic_test.py: ReferenceTest.test_nested_if_temporarily_undefined_return_illegal
  -- moonflow instead: returns 1 or 2 (no error): the converter copies the `return 2` after the outer `if` into both inner branches, so no branch lacks a return; TF moves the tail into an else only when the if body always returns, and raises ValueError "... must also have a return"
  it("test_nested_if_temporarily_undefined_return_illegal(False, True)", function() T.raises("ValueError", "must also have a return", tf.func(R.nested_if_temporarily_undefined_return), tf.constant(false), tf.constant(true)) end)
  -- cond_basic_test.py: ReferenceTest.test_nested_if_temporarily_undefined_return_illegal
  -- moonflow instead: returns 1 or 2 (no error): the converter copies the `return 2` after the outer `if` into both inner branches, so no branch lacks a return; TF moves the tail into an else only when the if body always returns, and raises ValueError "... must also have a return"
  it("test_nested_if_temporarily_undefined_return_illegal(False, False)", function() T.raises("ValueError", "must also have a return", tf.func(R.nested_if_temporarily_undefined_return), tf.constant(false), tf.constant(false)) end)
end)

describe("loop_scoping_test.py", function()
  -- loop_scoping_test.py: LoopScopingTest.test_for_defines_iterate_tf_range
  -- moonflow instead: InvalidArgumentError "loop must iterate at least once to initialize 'i'" at run time; TF returns (0, 0): a tf.range loop initializes its iterate with the start value (the Lua port's `i = x` makes i a loop-created local)
  it("test_for_defines_iterate_tf_range", function() T.matches(R.for_defines_iterate, table.pack(0, tf.range), {0, 0}) end)
end)
