-- trace_type_spec.lua — tensorflow/core/function/trace_type/trace_type_test.py,
-- ported. moonflow keeps trace types internal (API.md: "Trace types: tensor
-- -> its TensorSpec ...; Dispatch: the most specific matching concrete
-- function is called"), so TF's `trace_type.from_value(a) == from_value(b)`
-- is observed the way a user sees it: a tf.func called with a then b traces
-- once (and once called with b then a); `!=` means it traces twice.

local tf = tf or require("moonflow")
local T = require("tfhelpers")
-- tests/tf/failing/: cases that fail today (the worklist of issue 11).
-- Each keeps the form of its passing siblings; the `moonflow instead:`
-- line says what moonflow does now. Not run by tests/run.sh.

-- True when `a` and `b` have equal trace types, seen through dispatch.
local function same_type(a, b)
  local f = tf.func(function(x) return 0 end)
  f(a)
  f(b)
  local g = tf.func(function(x) return 0 end)
  g(b)
  g(a)
  return f:experimental_get_tracing_count() == 1 and g:experimental_get_tracing_count() == 1
end

describe("trace_type_test.py", function()
  -- trace_type_test.py: TraceTypeBuilderTest.testGetDefaultPlaceholderValue
  -- moonflow instead: a plain Lua error "trace_type.lua:254: attempt to index a nil value (local 'v')" for a table with a sparse integer key ({[6] = {7}}); TF traces it
  it("TraceTypeBuilderTest.testGetDefaultPlaceholderValue", function()
    local composite_value = { 1, 2, { 3, { 4, 5 } }, { [6] = { 7 } } }
    local seen
    local f = tf.func(function(x)
      seen = x
      return 0
    end)
    f(composite_value)
    assert.are.same(composite_value, seen)
  end)
end)
