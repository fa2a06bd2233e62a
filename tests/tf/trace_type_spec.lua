-- trace_type_spec.lua — tensorflow/core/function/trace_type/trace_type_test.py,
-- ported. moonflow keeps trace types internal (API.md: "Trace types: tensor
-- -> its TensorSpec ...; Dispatch: the most specific matching concrete
-- function is called"), so TF's `trace_type.from_value(a) == from_value(b)`
-- is observed the way a user sees it: a tf.func called with a then b traces
-- once (and once called with b then a); `!=` means it traces twice.

local tf = tf or require("moonflow")
local T = require("tfhelpers")

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
  -- trace_type_test.py: TraceTypeBuilderTest.testVariableAliasing
  it("TraceTypeBuilderTest.testVariableAliasing", function()
    local v1 = tf.Variable({ 1 })
    local v2 = tf.Variable({ 1 })
    local v3 = tf.Variable({ 1 })
    local all_unique = { v1, v2, v3 }
    local all_same = { v1, v1, v1 }
    assert.is_false(same_type(all_unique, all_same))
    local w3 = tf.Variable({ 2 })
    local w4 = tf.Variable({ 2 })
    local w5 = tf.Variable({ 2 })
    assert.is_true(same_type(all_unique, { w3, w4, w5 }))
    assert.is_true(same_type(all_same, { w4, w4, w4 }))
  end)

  -- trace_type_test.py: TraceTypeBuilderTest.testTensorEquality
  it("TraceTypeBuilderTest.testTensorEquality", function()
    local tensor_a = tf.zeros({ 11, 3, 5 }, tf.int32)
    local tensor_b = tf.zeros({ 11, 4, 5 }, tf.int32)
    local tensor_c = tf.zeros({ 11, 3, 5 }, tf.float32)
    local tensor_d = tf.ones({ 11, 3, 5 }, tf.int32)
    assert.is_false(same_type(tensor_a, tensor_b))
    assert.is_false(same_type(tensor_a, tensor_c))
    assert.is_false(same_type(tensor_b, tensor_c))
    assert.is_true(same_type(tensor_a, tensor_d))
  end)

  -- trace_type_test.py: TraceTypeBuilderTest.testTensorAndSpecEquality (tensor == spec)
  it("TraceTypeBuilderTest.testTensorAndSpecEquality", function()
    local f = tf.func(function(x) return x end)
    f:get_concrete_function(tf.TensorSpec({ 11, 3, 5 }, tf.int32))
    f(tf.zeros({ 11, 3, 5 }, tf.int32))
    assert.are.equal(1, f:experimental_get_tracing_count())
  end)

  -- trace_type_test.py: TraceTypeBuilderTest.testTensorShapeUnknown
  it("TraceTypeBuilderTest.testTensorShapeUnknown", function()
    local f = tf.func(function(x) return x end)
    f:get_concrete_function(tf.TensorSpec(nil, tf.int32))
    f:get_concrete_function(tf.TensorSpec(nil, tf.int32))
    assert.are.equal(1, f:experimental_get_tracing_count())
  end)

  -- trace_type_test.py: TraceTypeBuilderTest.testListEquality (Python lists and tuples are both Lua tables)
  it("TraceTypeBuilderTest.testListEquality", function()
    local trace_a = { 1, 2, 3, 4 }
    local trace_b = { 1, 2, 2, 4 }
    local trace_c = { 1, 2, 3 }
    local trace_d = { 1, 2, 3, 4 }
    assert.is_false(same_type(trace_a, trace_b))
    assert.is_false(same_type(trace_a, trace_c))
    assert.is_false(same_type(trace_b, trace_c))
    assert.is_true(same_type(trace_a, trace_d))
  end)

  -- trace_type_test.py: TraceTypeBuilderTest.testDictEquality
  it("TraceTypeBuilderTest.testDictEquality", function()
    local trace_a = { [1] = 2, [3] = 4 }
    local trace_b = { [1] = 2, [3] = 2 }
    local trace_c = { [1] = 2, [3] = 0 }
    local trace_d = { [3] = 4, [1] = 2 }
    assert.is_false(same_type(trace_a, trace_b))
    assert.is_false(same_type(trace_a, trace_c))
    assert.is_false(same_type(trace_b, trace_c))
    assert.is_true(same_type(trace_a, trace_d))
  end)

  -- trace_type_test.py: TraceTypeBuilderTest.testDictEquality (string keys, Lua's usual dict)
  it("TraceTypeBuilderTest.testDictEquality_string_keys", function()
    local trace_a = { a = 2, c = 4 }
    local trace_b = { a = 2, c = 2 }
    local trace_d = { c = 4, a = 2 }
    assert.is_false(same_type(trace_a, trace_b))
    assert.is_true(same_type(trace_a, trace_d))
  end)

  -- trace_type_test.py: TraceTypeBuilderTest.testCustomUnequableTypeSucceeds (identity typing of objects)
  it("TraceTypeBuilderTest.testCustomUnequableTypeSucceeds", function()
    local CustomUnequable = { __eq = function() error("unequable") end }
    local object_a = setmetatable({}, CustomUnequable)
    local object_b = setmetatable({}, CustomUnequable)
    local f = tf.func(function(x) return 0 end)
    f(object_a)
    f(object_a)
    assert.are.equal(1, f:experimental_get_tracing_count())
    f(object_b)
    assert.are.equal(2, f:experimental_get_tracing_count())
  end)


  -- trace_type_test.py: TraceTypeBuilderTest.testBadReturnType
  it("TraceTypeBuilderTest.testBadReturnType", function()
    -- __tf_tracing_type returns a value compared with ==; TF requires a
    -- TraceType and raises TypeError for a plain 1. moonflow documents any
    -- value as allowed (API.md: "a table whose metatable has
    -- __tf_tracing_type(self) is typed by the value that returns (compared
    -- with ==)"), so the call works and equal returns share a trace.
    local MyClass = { __tf_tracing_type = function() return 1 end }
    local f = tf.func(function(x) return 0 end)
    f(setmetatable({}, MyClass))
    f(setmetatable({}, MyClass))
    assert.are.equal(1, f:experimental_get_tracing_count())
  end)
  -- trace_type_test.py: TraceTypeBuilderTest.testGetDefaultPlaceholderValue
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

describe("trace_type_test.py: CastDefaultTypesTest", function()
  -- trace_type_test.py: CastDefaultTypesTest.testLiteral
  it("CastDefaultTypesTest.testLiteral", function()
    local f = tf.func(function(x) return x end)
    local cf = f:get_concrete_function(1.5)
    T.equal(1.5, cf(1.5))
    T.raises("TypeError", "Can not cast 1 to Literal[1.5]", cf, 1)
  end)

  -- trace_type_test.py: CastDefaultTypesTest.testTupleAndList
  it("CastDefaultTypesTest.testTupleAndList", function()
    local f = tf.func(function(x) return x end)
    local cf = f:get_concrete_function({ tf.constant(1.0, tf.float32), tf.constant(2.0, tf.float32) })
    local value = cf({ 1, 2 })
    assert.are.equal(2, #value)
    T.equal({ 1.0, 2.0 }, value)
    assert.are.equal(tf.float32, value[1].dtype)
    assert.are.equal(tf.float32, value[2].dtype)
  end)

  -- trace_type_test.py: CastDefaultTypesTest.testDict
  it("CastDefaultTypesTest.testDict", function()
    local f = tf.func(function(x) return x end)
    local cf = f:get_concrete_function({ x = tf.constant(1.0, tf.float32), y = tf.constant(2.0, tf.float32) })
    local value = cf({ x = 1, y = 2 })
    T.equal({ x = 1.0, y = 2.0 }, value)
    assert.are.equal(tf.float32, value.x.dtype)
    assert.are.equal(tf.float32, value.y.dtype)
  end)
end)

describe("polymorphic_function_test.py: trace types of variables", function()
  -- polymorphic_function_test.py: FunctionTest.testVariableAliasIdInStructuredInputSignature
  for _, reduce_retracing in ipairs({ true, false }) do
    it("FunctionTest.testVariableAliasIdInStructuredInputSignature(" .. tostring(reduce_retracing) .. ")", function()
      local foo = tf.func(function(v1, v2) return v1 + v2 end, { reduce_retracing = reduce_retracing })
      local v1 = tf.Variable(1.0)
      local v2 = tf.Variable(2.0)
      local cf1 = foo:get_concrete_function(v1, v1)
      local cf2 = foo:get_concrete_function(v1, v2)
      assert.are_not.equal(cf1, cf2)
      assert.are.equal(2, foo:experimental_get_tracing_count())
      T.equal(2.0, cf1(v1, v1))
      T.equal(3.0, cf2(v1, v2))
    end)
  end
end)
