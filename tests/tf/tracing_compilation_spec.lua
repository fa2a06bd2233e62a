-- tracing_compilation_spec.lua —
-- tensorflow/python/eager/polymorphic_function/tracing_compilation_test.py
-- (TracingCompilationTest), ported. The test's `compiled_fn` is tf.func; the
-- length of its FunctionCache is the number of traced concrete functions,
-- f:experimental_get_tracing_count(). Python keyword arguments have no Lua
-- form, so only the positional calls of each test are kept.

local tf = tf or require("moonflow")
local T = require("tfhelpers")

local count = T.count

describe("tracing_compilation_test.py", function()
  -- tracing_compilation_test.py: TracingCompilationTest.testBackwardNoneGradient
  it("TracingCompilationTest.testBackwardNoneGradient", function()
    local model = tf.Variable(1.0, { name = "model" })
    local cnt = tf.Variable(0)
    local forward_pass = tf.func(function(value)
      cnt:assign_add(1)
      local residuals = value - model
      local loss = 0.5 * tf.reduce_mean(tf.pow(residuals, 2))
      return loss, cnt
    end)
    local t = tf.GradientTape()
    local loss = forward_pass(tf.constant({ 7.0 }))
    t:stop()
    T.equal(-6.0, t:gradient(loss, model))
  end)

  -- tracing_compilation_test.py: TracingCompilationTest.testInputShapeFunctionRelaxation
  it("TracingCompilationTest.testInputShapeFunctionRelaxation", function()
    local unknown_dim = false
    local func = tf.func(function(a)
      if a.shape[0] == tf.None then unknown_dim = true end
      return a + 1
    end, { reduce_retracing = true })
    func(tf.constant({}, tf.float32))
    assert.is_false(unknown_dim)
    assert.are.equal(1, count(func))
    func(tf.constant({ 1.0 }))
    assert.is_true(unknown_dim)
    assert.are.equal(2, count(func))
    func(tf.constant({ 1.0, 2.0 }))
    assert.is_true(unknown_dim)
  end)

  -- tracing_compilation_test.py: TracingCompilationTest.testNestedInputShapeFunctionRelaxation
  it("TracingCompilationTest.testNestedInputShapeFunctionRelaxation", function()
    local unknown_dim = false
    local func = tf.func(function(a_, b_)
      assert.are.same({}, b_[1].shape:as_list())
      if b_[2].shape[0] == tf.None then unknown_dim = true end
      return b_[1] + 1
    end, { reduce_retracing = true })
    local a = "hi"
    local b0 = tf.constant(1.0)
    func(a, { b0, tf.constant({}, tf.float32) })
    assert.is_false(unknown_dim)
    assert.are.equal(1, count(func))
    func(a, { b0, tf.constant({ 1.0 }) })
    assert.is_true(unknown_dim)
    assert.are.equal(2, count(func))
    func(a, { b0, tf.constant({ 1.0, 1.0 }) })
    assert.is_true(unknown_dim)
    assert.are.equal(2, count(func))
    unknown_dim = false
    a = "bye"
    func(a, { b0, tf.constant({}, tf.float32) })
    assert.is_false(unknown_dim)
    assert.are.equal(3, count(func))
    func(a, { b0, tf.constant({ 1.0 }) })
    assert.is_true(unknown_dim)
    assert.are.equal(4, count(func))
  end)

  -- tracing_compilation_test.py: TracingCompilationTest.testCacheObjectHashCollisions
  it("TracingCompilationTest.testCacheObjectHashCollisions", function()
    local Foo = { __eq = function() return true end }
    local defined = tf.func(function(foo) return tf.constant({ 1 }) end)
    defined(setmetatable({}, Foo))
    assert.are.equal(1, count(defined))
    defined(setmetatable({}, Foo))
    assert.are.equal(2, count(defined))
  end)

  -- tracing_compilation_test.py: TracingCompilationTest.testCacheTensorDtypeCollision (complex64/128 -> float32/64: moonflow has no complex dtypes)
  it("TracingCompilationTest.testCacheTensorDtypeCollision", function()
    local defined = tf.func(function(t) return t + t end)
    defined(tf.constant({ { 1.0 } }, tf.float32))
    assert.are.equal(1, count(defined))
    defined(tf.constant({ { 1.0 } }, tf.float64))
    assert.are.equal(2, count(defined))
  end)

  -- tracing_compilation_test.py: TracingCompilationTest.testCacheTensorShapeCollision
  it("TracingCompilationTest.testCacheTensorShapeCollision", function()
    local defined = tf.func(function(t) return t + t end)
    defined(tf.constant({ { 1.0 } }))
    assert.are.equal(1, count(defined))
    defined(tf.constant({ 1.0 }))
    assert.are.equal(2, count(defined))
  end)

  -- tracing_compilation_test.py: TracingCompilationTest.testCacheTensorShapeDtypeCollision
  it("TracingCompilationTest.testCacheTensorShapeDtypeCollision", function()
    local defined = tf.func(function(t) return t + t end)
    defined(tf.constant({ { 1.0 } }, tf.float32))
    assert.are.equal(1, count(defined))
    defined(tf.constant({ 1.0 }, tf.float64))
    assert.are.equal(2, count(defined))
  end)

  -- tracing_compilation_test.py: TracingCompilationTest.testCacheTensorUnknownShapesCollisionRelaxedShapes
  it("TracingCompilationTest.testCacheTensorUnknownShapesCollisionRelaxedShapes", function()
    local defined = tf.func(function(t) return t + t end, { reduce_retracing = true })
    defined(tf.constant(1.0))
    assert.are.equal(1, count(defined))
    defined(tf.constant({ 1.0 }))
    assert.are.equal(2, count(defined))
    defined(tf.constant({ 1.0, 2.0 }))
    assert.are.equal(2, count(defined))
    defined(tf.constant({ 1.0, 1.0, 1.0 }, tf.float32))
    assert.are.equal(2, count(defined))
  end)


  -- tracing_compilation_test.py: TracingCompilationTest.testInputSignatureWithCompatibleInputs
  it("TracingCompilationTest.testInputSignatureWithCompatibleInputs", function()
    local func = tf.func(function(a)
      assert.are.same({ tf.None, tf.None }, a.shape:as_list())
      return tf.shape(a)
    end, { input_signature = { tf.TensorSpec({ tf.None, tf.None }, tf.float32) } })
    T.equal({ 3, 1 }, func({ { 0 }, { 1.0 }, { 1 } }))
    T.equal({ 2, 2 }, func({ { 1, 1 }, { 2, 2 } }))
    T.raises("TypeError", nil, func, { 0.0, 1.0, 2.0 })
    T.raises("TypeError", nil, func, { { "wrong dtype" } })
  end)

  -- tracing_compilation_test.py: TracingCompilationTest.testNestedInputSignatures
  it("TracingCompilationTest.testNestedInputSignatures", function()
    local foo = tf.func(function(a, b)
      assert.are.same({ 2, tf.None }, a[1].shape:as_list())
      assert.are.same({ 2, tf.None }, a[2].shape:as_list())
      assert.are.same({ 1 }, b.shape:as_list())
      return { a, b }
    end, { input_signature = {
      { tf.TensorSpec({ 2, tf.None }, tf.float32), tf.TensorSpec({ 2, tf.None }, tf.float32) },
      tf.TensorSpec({ 1 }, tf.float32),
    } })
    local a = tf.ones({ 2, 1 })
    local b = tf.ones({ 1 })
    local out = foo({ a, a }, b)
    assert.are.equal(1, count(foo))
    T.equal({ { a:numpy(), a:numpy() }, b:numpy() }, out)
    a = tf.ones({ 2, 3 })
    b = tf.ones({ 2, 5 })
    local c = tf.ones({ 1 })
    out = foo({ a, b }, c)
    assert.are.equal(1, count(foo))
    T.equal({ { a:numpy(), b:numpy() }, c:numpy() }, out)
    out = foo({ a:numpy(), b:numpy() }, c:numpy())
    assert.are.equal(1, count(foo))
    T.equal({ { a:numpy(), b:numpy() }, c:numpy() }, out)
  end)



  -- tracing_compilation_test.py: TracingCompilationTest.testInputsIncompatibleWithNestedSignatureRaisesError
  it("TracingCompilationTest.testInputsIncompatibleWithNestedSignatureRaisesError", function()
    local spec = tf.TensorSpec({ 1 }, tf.float32)
    local defined = tf.func(function(a, b) return { a, b } end, { input_signature = { { spec, spec }, { spec, spec } } })
    local a = tf.ones({ 1 })
    T.raises("TypeError", nil, defined, { a, a, a }, { a })
    T.raises("TypeError", nil, defined, { a }, { a, a, a })
    defined({ a, a }, { a, a })
  end)

  -- tracing_compilation_test.py: TracingCompilationTest.testInputSignatureWithKeywordPositionalArgs
  it("TracingCompilationTest.testInputSignatureWithKeywordPositionalArgs", function()
    local foo = tf.func(function(flt, integer) return flt, integer end,
      { input_signature = { tf.TensorSpec({}, tf.float32), tf.TensorSpec({}, tf.int64) } })
    local out1, out2 = foo(tf.constant(1.0), tf.constant(2, tf.int64))
    assert.are.equal(1, count(foo))
    T.equal(1.0, out1)
    T.equal(2, out2)
  end)

  -- tracing_compilation_test.py: TracingCompilationTest.testInputSignatureWithKeywordArgs
  it("TracingCompilationTest.testInputSignatureWithKeywordArgs", function()
    local x = tf.func(function(a, b) return a, b end,
      { input_signature = { tf.TensorSpec({}, tf.float32), tf.TensorSpec({}, tf.int32) } }):get_concrete_function()
    local r1, r2 = x(tf.constant(5.0), tf.constant(5))
    T.equal(5.0, r1)
    T.equal(5, r2)
  end)

  -- tracing_compilation_test.py: TracingCompilationTest.testInputSignatureWithKeywordOnlyArgs
  it("TracingCompilationTest.testInputSignatureWithKeywordOnlyArgs", function()
    local function f(a, b, c, d)
      c = c or 3
      d = d or 4
      assert.is_true(tf.is_tensor(a))
      assert.is_true(tf.is_tensor(b))
      return a + b + c + d
    end
    local defined = tf.func(f, { input_signature = { tf.TensorSpec({}, tf.int32), tf.TensorSpec({}, tf.int32) } })
    T.equal(10, defined(1, 2))
  end)

  -- tracing_compilation_test.py: TracingCompilationTest.testTensorKeywordArguments
  it("TracingCompilationTest.testTensorKeywordArguments", function()
    local defined = tf.func(function(a, b) return b end)
    local a = tf.constant(2.0)
    local b = tf.constant({ 1.0, 2.0 })
    local one = defined(a, b)
    assert.are.equal(1, count(defined))
    local five = defined(b, a)
    assert.are.equal(2, count(defined))
    T.equal({ 1.0, 2.0 }, one)
    T.equal(2.0, five)
  end)


  -- tracing_compilation_test.py: TracingCompilationTest.testCallingFunctionWithDifferentVariables
  it("TracingCompilationTest.testCallingFunctionWithDifferentVariables", function()
    local foo = tf.func(function(v)
      v:assign_add(1.0)
      return v:read_value()
    end)
    local v = tf.Variable(0.0)
    local graph_function = foo:get_concrete_function(v)
    assert.are.equal(1, #graph_function.graph.inputs)
    assert.are.equal(0, #graph_function.graph.captures)
    T.equal(1.0, graph_function(v))
    T.equal(2.0, graph_function(v))
    local w = tf.Variable(0.0)
    local bar = tf.func(function(_) return tf.constant(1.0) end)
    graph_function = bar:get_concrete_function(v)
    T.equal(1.0, graph_function(v))
    T.equal(1.0, graph_function(w))
  end)

  -- tracing_compilation_test.py: TracingCompilationTest.testCallingFunctionWithNonTensorsFails
  it("TracingCompilationTest.testCallingFunctionWithNonTensorsFails", function()
    local foo = tf.func(function(x) return x end)
    local graph_function = foo:get_concrete_function(tf.constant(1.0))
    T.raises({ "TypeError", "ValueError" }, nil, graph_function, "Not a Tensor.")
  end)
  -- tracing_compilation_test.py: TracingCompilationTest.testInputSignatureWithMatchingInputs
  it("TracingCompilationTest.testInputSignatureWithMatchingInputs", function()
    local defined = tf.func(function(a)
      assert.are.same({ 2 }, a.shape:as_list())
      return a
    end, { input_signature = { tf.TensorSpec({ 2 }, tf.float32) } })
    local a = tf.ones({ 2 })
    T.equal({ 1.0, 1.0 }, defined(a))
    assert.are.equal(1, count(defined))
    T.equal({ 1.0, 1.0 }, defined:get_concrete_function()(a))
    T.equal({ 1.0, 1.0 }, defined:get_concrete_function(a)(a))
    T.equal({ 1.0, 1.0 }, defined:get_concrete_function(tf.TensorSpec({ 2 }, tf.float32))(a))
    assert.are.equal(1, count(defined))
    local bar = tf.func(function(x)
      assert.are.same({ 2, tf.None }, x.shape:as_list())
      return x
    end, { input_signature = { tf.TensorSpec({ 2, tf.None }, tf.float32) } })
    T.equal({ { 1.0 }, { 1.0 } }, bar(tf.ones({ 2, 1 })))
    assert.are.equal(1, count(bar))
    T.equal({ { 1.0, 1.0, 1.0 }, { 1.0, 1.0, 1.0 } }, bar(tf.ones({ 2, 3 })))
    assert.are.equal(1, count(bar))
  end)
  -- tracing_compilation_test.py: TracingCompilationTest.testNestedInputSignaturesWithDict
  it("TracingCompilationTest.testNestedInputSignaturesWithDict", function()
    local bar = tf.func(function(a)
      assert.are.same({ 2, tf.None }, a.a.shape:as_list())
      assert.are.same({ 2, tf.None }, a.b.shape:as_list())
      assert.are.same({ 1 }, a.c.shape:as_list())
      return a
    end, { input_signature = { {
      a = tf.TensorSpec({ 2, tf.None }, tf.float32),
      b = tf.TensorSpec({ 2, tf.None }, tf.float32),
      c = tf.TensorSpec({ 1 }, tf.float32),
    } } })
    local a = tf.ones({ 2, 3 })
    local b = tf.ones({ 1 })
    local out = bar({ a = a, b = a, c = b })
    T.equal({ a = a:numpy(), b = a:numpy(), c = b:numpy() }, out)
    out = bar({ a = a:numpy(), b = a:numpy(), c = b:numpy() })
    T.equal({ a = a:numpy(), b = a:numpy(), c = b:numpy() }, out)
  end)
  -- tracing_compilation_test.py: TracingCompilationTest.testEagerCaptures
  -- (g.captures holds {external, internal} pairs: internal_captures are the
  -- second elements; _EAGER_CONST_THRESHOLD is 128 as in TF)
  it("TracingCompilationTest.testEagerCaptures", function()
    local large_tensor = tf.ones({ 256 })
    local small_tensor = tf.ones({ 4 })
    local v = tf.Variable(0.0)
    for _, case in ipairs({ { large_tensor, "Placeholder" }, { small_tensor, "Const" }, { v, "Placeholder" } }) do
      local captured, op_type = case[1], case[2]
      local test_fn = tf.func(function() return captured + 1 end)
      local g = test_fn:get_concrete_function().graph
      local internal_captures = {}
      for i, c in ipairs(g.captures) do internal_captures[i] = c[2] end
      assert.are.equal(1, #internal_captures)
      assert.are.equal(op_type, internal_captures[1].op.type)
    end
  end)

  -- tracing_compilation_test.py: TracingCompilationTest.testInputSignatureMustBeSequenceOfTensorSpecs
  it("TracingCompilationTest.testInputSignatureMustBeSequenceOfTensorSpecs", function()
    local function foo(a, b) end
    T.raises("TypeError", "input_signature must be either a tuple or a list", tf.func, foo,
      { input_signature = { t1 = tf.TensorSpec({}, tf.float32) } })
  end)
end)
