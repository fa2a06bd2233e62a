-- polymorphic_function_spec.lua —
-- tensorflow/python/eager/polymorphic_function/polymorphic_function_test.py
-- (FunctionTest), ported: tracing, concrete functions, captures, variables,
-- input signatures. `polymorphic_function.function` is tf.func;
-- `math_ops.matmul` wrapped directly becomes a tf.func of a Lua function
-- calling tf.matmul (TF keyword arguments in the trailing options table).

local tf = tf or require("moonflow")
local T = require("tfhelpers")

local function matmul_fn() return tf.func(function(a, b, opts) return tf.matmul(a, b, opts) end) end

describe("polymorphic_function_test.py", function()
  -- polymorphic_function_test.py: FunctionTest.testBasic
  it("FunctionTest.testBasic", function()
    local matmul = matmul_fn()
    local t = tf.constant({ { 1.0, 2.0 }, { 3.0, 4.0 } })
    local sq = matmul(t, t, { transpose_a = true })
    local sq2 = matmul(sq, t, { transpose_a = true })
    T.equal({ { 10.0, 14.0 }, { 14.0, 20.0 } }, sq)
    T.equal({ { 52.0, 76.0 }, { 74.0, 108.0 } }, sq2)
  end)


  -- polymorphic_function_test.py: FunctionTest.testVariable
  it("FunctionTest.testVariable", function()
    local v1 = tf.Variable(1.0)
    local add = tf.func(function(x, v) return x + v1 + v end)
    local v2 = tf.Variable(1.0)
    local x = tf.constant(1.0)
    T.equal(3.0, add(x, v2))
  end)

  -- polymorphic_function_test.py: FunctionTest.testVariableOnly
  it("FunctionTest.testVariableOnly", function()
    local v = tf.Variable(1.0)
    local add = tf.func(function(x) return x:assign_add(1.0) end)
    T.equal(2.0, add(v))
    -- TF: AttributeError 'no attribute'. Lua has no AttributeError: calling
    -- a method a tensor lacks is an error naming the missing method.
    local ok, err = pcall(add, tf.constant(1.0))
    assert.is_false(ok)
    assert.is_truthy(tostring(err.message or err):find("assign_add", 1, true))
  end)

  -- polymorphic_function_test.py: FunctionTest.testVariableMultiFunction
  it("FunctionTest.testVariableMultiFunction", function()
    local second = tf.func(function(dup_var, dup_var_2, some_const) return dup_var + dup_var_2 + some_const end)
    local first = tf.func(function(dup_var, some_const) return second(dup_var, dup_var, some_const) end)
    local my_const = tf.constant(1)
    local my_var = tf.Variable(2, { dtype = tf.int32 })
    T.equal(5, second(my_var, my_var, my_const))
    T.equal(5, first(my_var, my_const))
  end)


  -- polymorphic_function_test.py: FunctionTest.testInputShapeRelaxationOnInstanceMethod
  it("FunctionTest.testInputShapeRelaxationOnInstanceMethod", function()
    local unknown_dim = false
    local Foo = {}
    Foo.func = tf.func(function(self, a)
      if a.shape[0] == tf.None then unknown_dim = true end
      return a + 1
    end, { reduce_retracing = true })
    local foo = setmetatable({}, { __index = Foo })
    foo:func(tf.constant({}, tf.float32))
    assert.is_false(unknown_dim)
    foo:func(tf.constant({ 1.0 }))
    assert.is_true(unknown_dim)
    foo:func(tf.constant({ 1.0, 2.0 }))
    assert.is_true(unknown_dim)
  end)


  -- polymorphic_function_test.py: FunctionTest.testNestedShapeFunctionRelaxation
  it("FunctionTest.testNestedShapeFunctionRelaxation", function()
    local traced_shape
    local bar = tf.func(function(x_shape)
      traced_shape = x_shape.shape:as_list()
      return x_shape
    end, { reduce_retracing = true })
    local foo = tf.func(function(ones) return bar(tf.shape(ones)) end, { reduce_retracing = true })
    T.equal({ 1 }, foo(tf.ones({ 1 })))
    assert.are.same({ 1 }, traced_shape)
    for rank = 2, 5 do
      local dims = {}
      for i = 1, rank do dims[i] = 1 end
      T.equal(dims, foo(tf.ones(dims)))
      assert.are.same({ tf.None }, traced_shape)
    end
  end)

  -- polymorphic_function_test.py: FunctionTest.testBasicGraphMode
  it("FunctionTest.testBasicGraphMode", function()
    local matmul = matmul_fn()
    local sq = tf.func(function(a) return matmul(a, a) end)
    local t = tf.constant({ { 1.0, 2.0 }, { 3.0, 4.0 } })
    T.equal(tf.matmul(t, t):numpy(), sq(t))
  end)

  -- polymorphic_function_test.py: FunctionTest.testNestedInputsGraphMode
  it("FunctionTest.testNestedInputsGraphMode", function()
    local matmul = matmul_fn()
    local a_times_b = tf.func(function(inputs) return matmul(inputs.a.a, inputs.b.b) end)
    local t = tf.constant({ { 1.0, 2.0 }, { 3.0, 4.0 } })
    T.equal(tf.matmul(t, t):numpy(), a_times_b({ a = { a = t }, b = { b = t } }))
  end)

  -- polymorphic_function_test.py: FunctionTest.testNestedOutputsGraphMode
  it("FunctionTest.testNestedOutputsGraphMode", function()
    local matmul = matmul_fn()
    local pairs_mul = tf.func(function(pair_a, pair_b)
      return { a = matmul(pair_a.a, pair_b.a), b = matmul(pair_a.b, pair_b.b) }
    end)
    local a = tf.constant({ { 1.0, 2.0 }, { 1.0, 2.0 } })
    local b = tf.constant({ { 3.0, 4.0 }, { 3.0, 4.0 } })
    local out = pairs_mul({ a = a, b = b }, { a = b, b = a })
    T.equal({ a = tf.matmul(a, b):numpy(), b = tf.matmul(b, a):numpy() }, out)
  end)

  -- polymorphic_function_test.py: FunctionTest.testBasicGraphFunction
  it("FunctionTest.testBasicGraphFunction", function()
    local matmul = matmul_fn()
    local sq = tf.func(function(a) return matmul(a, a) end)
    local t = tf.constant({ { 1.0, 2.0 }, { 3.0, 4.0 } })
    local sq_op = sq:get_concrete_function(t)
    assert.are.same({ 2, 2 }, sq_op.graph.outputs[1].shape:as_list())
    T.equal(tf.matmul(t, t):numpy(), sq_op(t))
  end)

  -- polymorphic_function_test.py: FunctionTest.testInputSpecGraphFunction
  it("FunctionTest.testInputSpecGraphFunction", function()
    local matmul = matmul_fn()
    local sq = tf.func(function(a) return matmul(a, a) end)
    local sq_op = sq:get_concrete_function(tf.TensorSpec({ tf.None, tf.None }, tf.float32))
    assert.are.same({ tf.None, tf.None }, sq_op.graph.outputs[1].shape:as_list())
    local t1 = tf.constant({ { 1.0, 2.0 }, { 3.0, 4.0 } })
    T.equal(tf.matmul(t1, t1):numpy(), sq_op(t1))
    local t2 = tf.constant({ { 1.0, 2.0 }, { 3.0, 4.0 } })
    T.equal(tf.matmul(t2, t2):numpy(), sq_op(t2))
  end)


  -- polymorphic_function_test.py: FunctionTest.testNestedOutputGraphFunction
  it("FunctionTest.testNestedOutputGraphFunction", function()
    local matmul = matmul_fn()
    local sq = tf.func(function(a) return { matmul(a, a), { b = tf.constant(1.0) } } end)
    local t = tf.constant({ { 1.0, 2.0 }, { 3.0, 4.0 } })
    local sq_op = sq:get_concrete_function(t)
    local out = sq_op(t)
    T.equal(tf.matmul(t, t):numpy(), out[1])
    T.equal(1.0, out[2].b)
  end)

  -- polymorphic_function_test.py: FunctionTest.testGraphFunctionNoneOutput
  it("FunctionTest.testGraphFunctionNoneOutput", function()
    local fn = tf.func(function(unused_a, unused_b) return nil end)
    local x = tf.constant(1)
    local fn_op = fn:get_concrete_function(x, x)
    assert.is_nil(fn_op(x, x))
  end)

  -- polymorphic_function_test.py: FunctionTest.testDefunCapturedInt32
  it("FunctionTest.testDefunCapturedInt32", function()
    local x = tf.constant(1, tf.int32)
    local add_int32s = tf.func(function() return x + x end)
    T.equal(2, add_int32s())
  end)

  -- polymorphic_function_test.py: FunctionTest.testDefunReadVariable
  it("FunctionTest.testDefunReadVariable", function()
    local v = tf.Variable(1.0)
    local f = tf.func(function() return v:read_value() end)
    T.equal(1.0, f())
  end)

  -- polymorphic_function_test.py: FunctionTest.testDefunAssignAddVariable
  it("FunctionTest.testDefunAssignAddVariable", function()
    local v = tf.Variable(1.0)
    local x = tf.constant(2.0)
    local test_assign_add = tf.func(function()
      v:assign_add(x)
      return v:read_value()
    end)
    T.equal(3.0, test_assign_add())
  end)

  -- polymorphic_function_test.py: FunctionTest.testInitScopeTensorInitializationInFunction
  it("FunctionTest.testInitScopeTensorInitializationInFunction", function()
    local holder = {}
    local tensor_init = tf.func(function()
      local const
      tf.init_scope(function() const = tf.constant(2.0) end)
      if holder.v == nil then holder.v = tf.Variable(const) end
      return holder.v:read_value()
    end)
    T.equal(2.0, tensor_init())
  end)

  -- polymorphic_function_test.py: FunctionTest.testGetConcreteFunctionCreatesVariables
  it("FunctionTest.testGetConcreteFunctionCreatesVariables", function()
    local v_holder = {}
    local tensor_init = tf.func(function()
      if #v_holder == 0 then v_holder[1] = tf.Variable(5.0) end
      return v_holder[1]:read_value()
    end)
    local concrete = tensor_init:get_concrete_function()
    T.equal(5.0, concrete())
    T.equal(5.0, tensor_init())
  end)

  -- polymorphic_function_test.py: FunctionTest.testGraphModeManyFunctions
  it("FunctionTest.testGraphModeManyFunctions", function()
    local f = tf.func(function(x) return x * x end)
    local g = tf.func(function(x) return f(x) + 1 end)
    T.equal(5.0, g(tf.constant(2.0)))
  end)

  -- polymorphic_function_test.py: FunctionTest.testDict
  it("FunctionTest.testDict", function()
    local f = tf.func(function(x) return { name = x + 1 } end)
    T.equal(2.0, f(tf.constant(1.0)).name)
  end)

  -- polymorphic_function_test.py: FunctionTest.testTensorConversionWithDefun
  it("FunctionTest.testTensorConversionWithDefun", function()
    local f = tf.func(function(x) return tf.add(x, tf.constant(3)) end)
    T.equal(5, f(tf.constant(2)))
  end)

  -- polymorphic_function_test.py: FunctionTest.testTensorConversionCall
  it("FunctionTest.testTensorConversionCall", function()
    local f = tf.func(function(x) return tf.add(x, tf.constant(3)) end)
    local g = tf.func(function(x) return f(f(x)) end)
    T.equal(8, g(tf.constant(2)))
  end)

  -- polymorphic_function_test.py: FunctionTest.testCallShape
  it("FunctionTest.testCallShape", function()
    local f = tf.func(function(x) return x + 1 end)
    local seen
    local g = tf.func(function(x)
      x = f(x)
      seen = x.shape:as_list()
      return nil
    end)
    g(tf.constant(1.0))
    assert.are.same({}, seen)
  end)

  -- polymorphic_function_test.py: FunctionTest.testNestedDefunWithNoOutputAndTapedInput
  it("FunctionTest.testNestedDefunWithNoOutputAndTapedInput", function()
    local three = tf.Variable(3.0, { name = "v" })
    local f = tf.func(function(x) tf.add(x, three) end)
    local g = tf.func(function(x)
      local y = tf.add(x, three)
      f(y)
    end)
    g(three)
  end)

  -- polymorphic_function_test.py: FunctionTest.testGatherResourceWithDefun
  it("FunctionTest.testGatherResourceWithDefun", function()
    local v = tf.Variable({ 0.0, 1.0, 2.0 })
    local function sum_gather() return tf.reduce_sum(tf.gather(v, { 1, 2 })) end
    local defined = tf.func(sum_gather)
    T.equal(sum_gather():numpy(), defined())
  end)

  -- polymorphic_function_test.py: FunctionTest.testNoneOutput
  it("FunctionTest.testNoneOutput", function()
    local my_function = tf.func(function(_) return nil end)
    assert.is_nil(my_function(1))
  end)

  -- polymorphic_function_test.py: FunctionTest.testVariableCaptureInNestedFunctions
  it("FunctionTest.testVariableCaptureInNestedFunctions", function()
    local v = tf.Variable(1, { dtype = tf.int32 })
    local inner_read = tf.func(function() return v:read_value() end)
    local outer = tf.func(function() return inner_read() end)
    T.equal(1, outer())
  end)

  -- polymorphic_function_test.py: FunctionTest.testReturnCapturedEagerTensor
  it("FunctionTest.testReturnCapturedEagerTensor", function()
    local t = tf.constant(1)
    local read = tf.func(function() return t end)
    T.equal(1, read())
  end)

  -- polymorphic_function_test.py: FunctionTest.testConcreteFunctionType
  it("FunctionTest.testConcreteFunctionType", function()
    local y = tf.constant(1)
    local foo = tf.func(function(x) return { input = x, capture = y } end)
    local cf = foo:get_concrete_function(tf.TensorSpec({}, tf.int32))
    local output = cf(tf.constant(2))
    T.equal(2, output.input)
    T.equal(1, output.capture)
    assert.is_truthy(tostring(cf.function_type):find("^%(x: TensorSpec%(shape=%(%), dtype=tf.int32, name=None%)%)"))
  end)

  -- polymorphic_function_test.py: FunctionTest.testNestedSequenceInputs
  it("FunctionTest.testNestedSequenceInputs", function()
    local function my_op(inputs)
      local a, b, c = inputs[1], inputs[2], inputs[3]
      local e, f = b[1], b[2]
      local g, h = e[1], e[2]
      return { a + a, { { f + f, g + g }, h + h }, c + c }, a + f + g + h + c
    end
    local my_eager_op = tf.func(my_op)
    local r0, r1 = my_eager_op({ tf.constant(1), { { tf.constant(2), tf.constant(3) }, tf.constant(4) }, tf.constant(5) })
    T.equal(2, r0[1])
    T.equal(8, r0[2][1][1])
    T.equal(4, r0[2][1][2])
    T.equal(6, r0[2][2])
    T.equal(10, r0[3])
    T.equal(15, r1)
  end)

  -- polymorphic_function_test.py: FunctionTest.testVariablesAreTracked
  for _, reduce_retracing in ipairs({ true, false }) do
    it("FunctionTest.testVariablesAreTracked(" .. tostring(reduce_retracing) .. ")", function()
      local v = tf.Variable(1.0)
      local defined = tf.func(function(x) return v * x end, { reduce_retracing = reduce_retracing })
      T.equal({ 1.0 }, defined(tf.constant({ 1.0 })))
      v:assign(2.0)
      T.equal({ 2.0, 4.0 }, defined(tf.constant({ 1.0, 2.0 })))
    end)
  end

  -- polymorphic_function_test.py: FunctionTest.testInputSignatureMustBeSequenceOfTensorSpecs
  it("FunctionTest.testInputSignatureMustBeSequenceOfTensorSpecs", function()
    local function foo(a, b) end
    local signature = { { 2, 3 }, tf.TensorSpec({ 2, 3 }, tf.float32) }
    T.raises("TypeError", "input_signature", tf.func, foo, { input_signature = signature })
  end)


  -- polymorphic_function_test.py: FunctionTest.testMismatchedConcreteSignatureRaisesError
  it("FunctionTest.testMismatchedConcreteSignatureRaisesError", function()
    local f = tf.func(function(x) return x end)
    T.raises("TypeError", "Binding inputs to tf.func failed", f:get_concrete_function(1), tf.constant(1))
    f:get_concrete_function(tf.constant(1))(1)
    T.raises("TypeError", "Binding inputs to tf.func failed", f:get_concrete_function(1), 2)
  end)

  -- polymorphic_function_test.py: FunctionTest.testInputSignatureConversionWithDefaultArg
  it("FunctionTest.testInputSignatureConversionWithDefaultArg", function()
    local function foo(a, training)
      if training == nil then training = true end
      if training then
        return a
      else
        return -1.0 * a
      end
    end
    local defined = tf.func(foo, { input_signature = { tf.TensorSpec({}, tf.float32), tf.TensorSpec({}, tf.bool) } })
    local a = tf.constant(1.0)
    T.equal(1.0, defined(a, true))
    T.equal(-1.0, defined(a, false))
  end)

  -- polymorphic_function_test.py: FunctionTest.testDefuningInstanceMethod
  it("FunctionTest.testDefuningInstanceMethod", function()
    local integer = tf.constant(2, tf.int64)
    local Foo = {}
    Foo.__index = Foo
    function Foo.one(self, tensor) return tensor end
    Foo.two = tf.func(function(self, tensor, other)
      if other == nil then other = integer end
      return self:one(tensor), other
    end)
    local foo = setmetatable({}, Foo)
    local one, two = foo:two(tf.constant(1.0))
    T.equal(1.0, one)
    T.equal(2, two)
  end)

  -- polymorphic_function_test.py: FunctionTest.testPythonCallWithSideEffects
  it("FunctionTest.testPythonCallWithSideEffects", function()
    local state = {}
    local side_effecting_function = tf.func(function() state[#state + 1] = 0 end)
    side_effecting_function()
    assert.are.same({ 0 }, state)
    side_effecting_function()
    assert.are.same({ 0 }, state)
    side_effecting_function.lua_function()
    assert.are.same({ 0, 0 }, state)
  end)

  -- polymorphic_function_test.py: FunctionTest.testFunctionWithNestedFunctionCallAndSideEffects
  it("FunctionTest.testFunctionWithNestedFunctionCallAndSideEffects", function()
    local v1 = tf.Variable(1.0)
    local v2 = tf.Variable(1.0)
    local add_one = tf.func(function(a) a:assign_add(1.0) end)
    local side_effecting_function = tf.func(function(a, b)
      add_one(a)
      add_one(b)
      return a + b
    end)
    T.equal(4.0, side_effecting_function(v1, v2))
  end)

  -- polymorphic_function_test.py: FunctionTest.testVariableRetracingOnDtypeChanges
  for _, reduce_retracing in ipairs({ true, false }) do
    it("FunctionTest.testVariableRetracingOnDtypeChanges(" .. tostring(reduce_retracing) .. ")", function()
      local defined = tf.func(function(a, b) return a + b end, { reduce_retracing = reduce_retracing })
      defined(tf.Variable(0.0), tf.Variable(0.0))
      assert.are.equal(1, #defined:concrete_functions())
      defined(tf.Variable(0), tf.Variable(1))
      assert.are.equal(2, #defined:concrete_functions())
    end)
  end

  -- polymorphic_function_test.py: FunctionTest.testVariableRetracingDtypeShape
  it("FunctionTest.testVariableRetracingDtypeShape", function()
    local defined = tf.func(function(a, b) return a + b end)
    defined(tf.Variable(0.0), tf.Variable(0.0))
    assert.are.equal(1, #defined:concrete_functions())
    defined(tf.Variable({ 0.0, 1.0 }), tf.Variable({ 0.0, 1.0 }))
    assert.are.equal(2, #defined:concrete_functions())
    defined(tf.Variable({ { 0.0, 1.0 } }), tf.Variable({ { 0.0, 1.0 } }))
    assert.are.equal(3, #defined:concrete_functions())
  end)




  -- polymorphic_function_test.py: FunctionTest.testConcreteFunctionWithNestedTensorInputs
  it("FunctionTest.testConcreteFunctionWithNestedTensorInputs", function()
    local f = tf.func(function(x, y) return x.a + x.b, y[1] + y[2] end)
    local a, b, c = tf.constant(1000), tf.constant(200), tf.constant(30)
    local d = { a = a, b = b }
    local e = { c, 4 }
    local cf = f:get_concrete_function(d, e)
    local o1, o2 = cf(d, e)
    T.equal(1200, o1)
    T.equal(34, o2)
  end)

  -- polymorphic_function_test.py: FunctionTest.testConcreteFunctionWithNestedNonTensorInputs
  it("FunctionTest.testConcreteFunctionWithNestedNonTensorInputs", function()
    local f = tf.func(function(x, y) return x.a + x.b, y[1] + y[2] end)
    local a = { a = tf.constant(1000), b = tf.constant(200) }
    local b = { 50, 3 }
    local cf = f:get_concrete_function(a, b)
    local o1, o2 = cf(a, b)
    T.equal(1253, (o1 + o2):numpy())
  end)

  -- polymorphic_function_test.py: FunctionTest.testConcreteFunctionWithNonTensorStringInputs
  it("FunctionTest.testConcreteFunctionWithNonTensorStringInputs", function()
    local f = tf.func(function(x, y) return tf.strings.join({ x, y }) end)
    local a = tf.constant("a")
    local cf = f:get_concrete_function(a, "b")
    T.equal("ab", cf(a))
    T.equal("ab", cf(a, "b"))
  end)
  -- polymorphic_function_test.py: FunctionTest.testNestedInputSpecGraphFunction
  it("FunctionTest.testNestedInputSpecGraphFunction", function()
    local matmul = matmul_fn()
    local sq = tf.func(function(mats)
      local a, b = mats[1][1], mats[1][2]
      return matmul(a, b)
    end)
    local sq_op = sq:get_concrete_function({ {
      tf.TensorSpec({ tf.None, tf.None }, tf.float32),
      tf.TensorSpec({ tf.None, tf.None }, tf.float32),
    } })
    assert.are.same({ tf.None, tf.None }, sq_op.graph.outputs[1].shape:as_list())
    local t1 = tf.constant({ { 1.0, 2.0 }, { 3.0, 4.0 } })
    local t2 = tf.constant({ { 1.4, 2.4 }, { 3.4, 4.4 } })
    T.equal(tf.matmul(t1, t2):numpy(), sq_op({ { t1, t2 } }))
  end)
  -- polymorphic_function_test.py: FunctionTest.testInputsIncompatibleWithSignatureRaisesError
  it("FunctionTest.testInputsIncompatibleWithSignatureRaisesError", function()
    local defined = tf.func(function(a) return a end, { input_signature = { tf.TensorSpec({ 2 }, tf.float32) } })
    defined(tf.ones({ 2 }))
    local e = T.raises("TypeError", "Can not cast", defined, tf.ones({ 3 }, tf.int32))
    assert.is_truthy(e.message:find("dtype=tf.int32.* to .*dtype=tf.float32"))
    T.raises("TypeError", "Can not cast", defined, tf.ones({ 3 }))
    T.raises("TypeError", "Can not cast", defined, tf.ones({ 2, 1 }))
    T.raises("TypeError", "too many positional arguments", defined, tf.ones({ 2 }), tf.ones({ 2 }))
    T.raises("TypeError", "missing a required argument", defined)
    e = T.raises("TypeError", "Can not cast", function()
      return defined:get_concrete_function(tf.TensorSpec({ 3 }, tf.float32))
    end)
    assert.is_truthy(e.message:find("shape=%(3,%).* to .*shape=%(2,%)"))
  end)
  -- polymorphic_function_test.py: FunctionTest.testPythonFunctionNotCallable
  it("FunctionTest.testPythonFunctionNotCallable", function()
    T.raises("TypeError", "is not a callable object", tf.func, 1)
  end)
  -- polymorphic_function_test.py: FunctionTest.testFunctionModifiesInputList
  it("FunctionTest.testFunctionModifiesInputList", function()
    local function get_list() return { tf.constant(0.0), tf.constant(1.0) } end
    local append = tf.func(function(l) l[#l + 1] = tf.constant(0.0) end)
    T.raises("ValueError", "should not modify", append, get_list())
  end)
  -- polymorphic_function_test.py: FunctionTest.testFunctionModifiesInputDict
  it("FunctionTest.testFunctionModifiesInputDict", function()
    local pop = tf.func(function(m) m.t1 = nil end)
    T.raises("ValueError", "should not modify", pop, { t1 = tf.constant(0.0), t2 = tf.constant(1.0) })
  end)
  -- polymorphic_function_test.py: FunctionTest.testCapturesVariables
  it("FunctionTest.testCapturesVariables", function()
    local a = tf.Variable(1.0, { trainable = false })
    local b = tf.Variable(1.0)
    local cc = {}
    local f = tf.func(function()
      local c = cc[1]
      if c == nil then
        c = tf.Variable(1.0)
        cc[1] = c
      end
      return a + b + c + 1
    end)
    local cf = f:get_concrete_function()
    local c = cc[1]
    -- assertEqual on sets of variable refs: the same objects, any order.
    local function same_set(expected, actual)
      assert.are.equal(#expected, #actual, "number of variables")
      local seen = {}
      for _, v in ipairs(actual) do seen[v] = true end
      for _, v in ipairs(expected) do assert.is_true(seen[v] == true, "a variable is missing") end
    end
    same_set({ a, b, c }, cf.variables)
    same_set({ b, c }, cf.trainable_variables)
    same_set(cf.variables, cf.graph.variables)
    same_set(cf.trainable_variables, cf.graph.trainable_variables)
  end)
  -- polymorphic_function_test.py: FunctionTest.testReduceTracingWithNestedTFFunction
  it("FunctionTest.testReduceTracingWithNestedTFFunction", function()
    local v = tf.Variable({ 1.0, 2.0 })
    local inner_test_fn = tf.func(function(x)
      x:assign_add({ 2.0, 2.0 })
      return x
    end, { reduce_retracing = true })
    local test_fn = tf.func(function(x)
      x:assign_add({ 1.0, 1.0 })
      return inner_test_fn(x)
    end, { reduce_retracing = true })
    local tape = tf.GradientTape()
    local y = test_fn(v)
    tape:stop()
    local grad = tape:gradient(y, v)
    T.equal({ 4.0, 5.0 }, y)
    T.equal({ 1.0, 1.0 }, grad)
    tape = tf.GradientTape()
    y = test_fn(v)
    tape:stop()
    grad = tape:gradient(y, v)
    T.equal({ 7.0, 8.0 }, y)
    T.equal({ 1.0, 1.0 }, grad)
  end)

  -- polymorphic_function_test.py: FunctionTest.test_concrete_function_shape_mismatch
  it("FunctionTest.test_concrete_function_shape_mismatch", function()
    local f = tf.func(function(argument_name) return argument_name + 1.0 end)
    local f_concrete = f:get_concrete_function(tf.constant({ 1.0 }))
    T.equal({ 2.0, 3.0 }, f_concrete(tf.constant({ 1.0, 2.0 })))
    local g = tf.func(function() f_concrete(tf.constant({ 1.0, 2.0 })) end)
    local e = T.raises("TypeError", "Can not cast TensorSpec(shape=(2,)", g)
    assert.is_truthy(e.message:find("to TensorSpec(shape=(1,)", 1, true))
  end)
end)

-- Runs fn with io.stderr captured (tf.func's retracing warning goes there);
-- returns the lines written.
local function capture_stderr(fn)
  local saved = io.stderr
  local chunks = {}
  io.stderr = { write = function(self, ...)
    for _, s in ipairs({ ... }) do chunks[#chunks + 1] = tostring(s) end
    return self
  end }
  local ok, err = pcall(fn)
  io.stderr = saved
  if not ok then error(err, 0) end
  local lines = {}
  for line in table.concat(chunks):gmatch("[^\n]+") do lines[#lines + 1] = line end
  return lines
end

local function count_matching(lines, text)
  local n = 0
  for _, l in ipairs(lines) do
    if l:find(text, 1, true) then n = n + 1 end
  end
  return n
end

describe("polymorphic_function_test.py (2)", function()
  -- polymorphic_function_test.py: FunctionTest.testConcreteFunctionWithBoundNestedNonTensorInputs
  it("FunctionTest.testConcreteFunctionWithBoundNestedNonTensorInputs", function()
    local f = tf.func(function(x, y) return x.a + x.b, y[1] + y[2] end)
    local a = { a = 3000, b = 200, c = 9000 }
    local b = { tf.constant(30), 4 }
    local cf = f:get_concrete_function(a, b)
    local o1, o2 = cf(a, b)
    T.equal(3234, (o1 + o2):numpy())
  end)






  -- polymorphic_function_test.py: FunctionTest.testConcreteFunctionStructuredSignatureError (WrongDType)
  it("FunctionTest.testConcreteFunctionStructuredSignatureError_WrongDType", function()
    local func = tf.func(function(x, y, ...) return x end)
    local conc = func:get_concrete_function(tf.constant(1), 5)
    T.raises({ "TypeError", "InvalidArgumentError" }, nil, conc, tf.constant(1.0), 5)
  end)

  -- polymorphic_function_test.py: FunctionTest.testConcreteFunctionStructuredSignatureError (ExpectedIntGotDifferentInt)
  it("FunctionTest.testConcreteFunctionStructuredSignatureError_ExpectedIntGotDifferentInt", function()
    local func = tf.func(function(x, y, ...) return x end)
    local conc = func:get_concrete_function(5, 5)
    local e = T.raises("TypeError", "Binding inputs", conc, 8, 5)
    assert.is_truthy(e.message:find("Can not cast 8 to .*5"), e.message)
  end)

  -- polymorphic_function_test.py: FunctionTest.testConcreteFunctionStructuredSignatureError (ExpectedIntGotTensor)
  it("FunctionTest.testConcreteFunctionStructuredSignatureError_ExpectedIntGotTensor", function()
    local func = tf.func(function(x, y, ...) return x end)
    local conc = func:get_concrete_function(5, 5)
    local e = T.raises("TypeError", "Binding inputs", conc, tf.constant(6), 5)
    assert.is_truthy(e.message:find("Can not cast .*Tensor.* to .*5"), e.message)
  end)

  -- polymorphic_function_test.py: FunctionTest.testPrettyPrintedSignature
  it("FunctionTest.testPrettyPrintedSignature", function()
    local func = tf.func(function(x, kangaroo, octopus) return x end)
    local concrete_fn = func:get_concrete_function(tf.constant(5), tf.constant({ 10, 10, 20 }), 7)
    assert.are.equal("(x: TensorSpec(shape=(), dtype=tf.int32, name=None), kangaroo:"
      .. " TensorSpec(shape=(3,), dtype=tf.int32, name=None), octopus:"
      .. " Literal[7]) -> TensorSpec(shape=(), dtype=tf.int32, name=None)", tostring(concrete_fn.function_type))
    -- TF labels parameters POSITIONAL_OR_KEYWORD and adds "Captures:\n  None";
    -- Lua has only positional parameters and API.md fixes the printed block
    -- ("print(cf)": "a (POSITIONAL): …", then "Output Type:").
    assert.are.equal("ConcreteFunction Input Parameters:\n"
      .. "  x (POSITIONAL): TensorSpec(shape=(), dtype=tf.int32, name=None)\n"
      .. "  kangaroo (POSITIONAL): TensorSpec(shape=(3,), dtype=tf.int32, name=None)\n"
      .. "  octopus (POSITIONAL): Literal[7]\n"
      .. "Output Type:\n"
      .. "  TensorSpec(shape=(), dtype=tf.int32, name=None)", tostring(concrete_fn))
  end)

  -- polymorphic_function_test.py: FunctionTest.testIndexedSlicesAsGradientsForConcreteFunctions
  it("FunctionTest.testIndexedSlicesAsGradientsForConcreteFunctions", function()
    local summing_rnn = tf.func(function(inputs) return tf.reduce_sum(inputs, { axis = 1 }) end)
    local gradients = tf.func(function(inputs)
      local tape = tf.GradientTape()
      tape:watch(inputs)
      local hidden = summing_rnn(inputs)
      hidden = tf.gather(hidden, tf.constant({ 0 }))
      local loss = tf.reduce_mean(hidden)
      tape:stop()
      return tape:gradient(loss, inputs)
    end)
    gradients(tf.constant({ { { 1.0 }, { 2.0 } } }))
  end)

  -- polymorphic_function_test.py: FunctionTest.testShapeInferencePropagateConstNestedStack
  it("FunctionTest.testShapeInferencePropagateConstNestedStack", function()
    local f = tf.func(function(x, s)
      local old_shape = tf.shape(x)
      local new_shape = tf.stack({ old_shape[0], s }, { axis = 0 })
      return tf.ones(new_shape, tf.int32)
    end, { input_signature = { tf.TensorSpec({ tf.None, tf.None }, tf.int32), tf.TensorSpec({}, tf.int32) } })
    local g = tf.func(function(x)
      local y = f(x, 5)
      assert.are.same({ 3, 5 }, y.shape:as_list())
      return y
    end, { input_signature = { tf.TensorSpec({ 3, 6 }, tf.int32) } })
    T.equal(tf.ones({ 3, 5 }, tf.int32):numpy(), g(tf.zeros({ 3, 6 }, tf.int32)))
  end)

  -- polymorphic_function_test.py: FunctionTest.testShapeInferencePropagateConstNestedUnstackStack
  it("FunctionTest.testShapeInferencePropagateConstNestedUnstackStack", function()
    local f = tf.func(function(x, s)
      local parts = tf.unstack(tf.shape(x), { axis = 0 })
      local new_shape = tf.stack({ parts[1], s }, { axis = 0 })
      return tf.ones(new_shape, tf.int32)
    end, { input_signature = { tf.TensorSpec({ tf.None, tf.None }, tf.int32), tf.TensorSpec({}, tf.int32) } })
    local g = tf.func(function(x)
      local y = f(x, 5)
      assert.are.same({ 3, 5 }, y.shape:as_list())
      return y
    end, { input_signature = { tf.TensorSpec({ 3, 6 }, tf.int32) } })
    T.equal(tf.ones({ 3, 5 }, tf.int32):numpy(), g(tf.zeros({ 3, 6 }, tf.int32)))
  end)


  -- polymorphic_function_test.py: FunctionTest.testReadInFuncWriteOutside
  it("FunctionTest.testReadInFuncWriteOutside", function()
    for _ = 1, 30 do
      local v = tf.Variable(1.0)
      local add_one = tf.func(function() return v + 1.0 end)
      local get_v_plus_one = tf.func(function()
        local v_plus_one = add_one()
        v:assign_add(2.0)
        return v_plus_one
      end)
      T.equal(2.0, get_v_plus_one())
    end
  end)

  -- polymorphic_function_test.py: FunctionTest.testNoVariables
  it("FunctionTest.testNoVariables", function()
    local fn = tf.func(function(x) return 2 * x end)
    T.equal(8.0, fn(tf.constant(4.0)))
  end)

  -- polymorphic_function_test.py: FunctionTest.testFailIfVariablesAreCreatedMoreThanOnce
  it("FunctionTest.testFailIfVariablesAreCreatedMoreThanOnce", function()
    local fn = tf.func(function(x) return tf.Variable(1.0) + x end)
    T.raises("ValueError", nil, fn, 1.0)
  end)

  -- polymorphic_function_test.py: FunctionTest.testFailIfVariablesAreCreatedMoreThanOnceNoWeakRef
  it("FunctionTest.testFailIfVariablesAreCreatedMoreThanOnceNoWeakRef", function()
    local state = {}
    local fn = tf.func(function(x)
      state[#state + 1] = tf.Variable(1.0)
      return state[#state] + x
    end)
    T.raises("ValueError", nil, fn, 1.0)
  end)

  -- polymorphic_function_test.py: FunctionTest.testCorrectVariableCreation
  it("FunctionTest.testCorrectVariableCreation", function()
    local state = {}
    local fn = tf.func(function(x)
      if #state == 0 then state[1] = tf.Variable(2.0) end
      return state[1] * x
    end)
    T.equal(2.0, fn(tf.constant(1.0)))
    T.equal(6.0, fn(tf.constant(3.0)))
  end)

  -- polymorphic_function_test.py: FunctionTest.testFunctionInitializer
  it("FunctionTest.testFunctionInitializer", function()
    local state = {}
    local fn = tf.func(function(x)
      if #state == 0 then state[1] = tf.Variable(function() return 2.0 end) end
      return state[1] * x
    end)
    T.equal(2.0, fn(tf.constant(1.0)))
  end)

  -- polymorphic_function_test.py: FunctionTest.testFunctionMultipleVariableInitializer
  it("FunctionTest.testFunctionMultipleVariableInitializer", function()
    local state = {}
    local fn = tf.func(function(x)
      if #state == 0 then
        state[1] = tf.Variable(function() return 2.0 end)
        state[2] = tf.Variable(function() return 5.0 end)
      end
      return state[1] * x, state[2] * x
    end)
    T.returns({ 2.0, 5.0 }, fn(tf.constant(1.0)))
  end)


  -- polymorphic_function_test.py: FunctionTest.testMethod
  it("FunctionTest.testMethod", function()
    local MyModel = {}
    MyModel.__index = MyModel
    MyModel.apply = tf.func(function(self, x)
      if self.var == nil then self.var = tf.Variable(2.0) end
      return self.var * x
    end)
    local m0 = setmetatable({}, MyModel)
    T.equal(6.0, m0:apply(3.0))
    m0.var:assign(3.0)
    T.equal(9.0, m0:apply(3.0))
    local m1 = setmetatable({}, MyModel)
    T.equal(6.0, m1:apply(3.0))
  end)

  -- polymorphic_function_test.py: FunctionTest.test_unspecified_default_argument
  it("FunctionTest.test_unspecified_default_argument", function()
    local wrapped = tf.func(function(x, y)
      y = y or 2
      return x + y
    end, { input_signature = { tf.TensorSpec({}, tf.int32) } })
    T.equal(3, wrapped(tf.constant(1)))
  end)

  -- polymorphic_function_test.py: FunctionTest.test_concrete_function_from_signature (structured_input_signature has no moonflow counterpart)
  it("FunctionTest.test_concrete_function_from_signature", function()
    local compute = tf.func(function(x) return 2.0 * x end,
      { input_signature = { tf.TensorSpec(nil, tf.float32) } })
    local concrete = compute:get_concrete_function()
    T.equal(1.0, concrete(tf.constant(0.5)))
    concrete = compute:get_concrete_function(tf.TensorSpec(nil, tf.float32))
    T.equal(4.0, concrete(tf.constant(2.0)))
  end)


  -- polymorphic_function_test.py: FunctionTest.testUnderscoreName
  it("FunctionTest.testUnderscoreName", function()
    local f = tf.func(function(_) return _ + _ end)
    T.equal(2.0, f(tf.constant(1.0)))
  end)

  -- polymorphic_function_test.py: FunctionTest.testErrorMessageWhenGraphTensorIsPassedToEager
  it("FunctionTest.testErrorMessageWhenGraphTensorIsPassedToEager", function()
    local failing_function = tf.func(function()
      local a = tf.constant(1.0)
      tf.init_scope(function() return a + a end)
    end)
    local e = T.raises("TypeError", "out of scope", failing_function)
    assert.is_truthy(e.message:find("polymorphic_function_spec", 1, true), e.message)
  end)

  -- polymorphic_function_test.py: FunctionTest.testSymbolicTensorIllegalCaptureCallTimeError
  it("FunctionTest.testSymbolicTensorIllegalCaptureCallTimeError", function()
    local x
    local f1 = tf.func(function(a)
      x = a
      return a
    end)
    local f2 = tf.func(function(b) return b + x end)
    f1(tf.constant(1))
    local e = T.raises("TypeError", "out of scope", f2, tf.constant(2))
    assert.is_truthy(e.message:find("polymorphic_function_spec", 1, true), e.message)
  end)

  -- polymorphic_function_test.py: FunctionTest.testSameVariableTwice
  it("FunctionTest.testSameVariableTwice", function()
    local v = tf.Variable(1.0)
    local add = tf.func(function(a, b) return a + b end)
    T.equal(2.0, add(v, v))
  end)

  -- polymorphic_function_test.py: FunctionTest.testSameVariableTwiceWithReducedRetracing
  it("FunctionTest.testSameVariableTwiceWithReducedRetracing", function()
    local v = tf.Variable(2.0)
    local add = tf.func(function(a, b) return a + b end, { reduce_retracing = true })
    T.equal(4.0, add(v, v))
  end)

  -- polymorphic_function_test.py: FunctionTest.testVariableUpdate
  it("FunctionTest.testVariableUpdate", function()
    local v1 = tf.Variable(1.0)
    local v2 = tf.Variable(2.0)
    local v3 = tf.Variable(4, { dtype = tf.int32 })
    local trace_count = 0
    local double_variable = tf.func(function(x)
      trace_count = trace_count + 1
      x:assign_add(x:read_value())
    end)
    assert.are.equal(0, trace_count)
    double_variable(v1)
    assert.are.equal(1, trace_count)
    T.equal(2.0, v1)
    double_variable(v2)
    assert.are.equal(1, trace_count)
    T.equal(4.0, v2)
    double_variable(v3)
    assert.are.equal(2, trace_count)
    T.equal(8, v3)
  end)

  -- polymorphic_function_test.py: FunctionTest.testShapeCache
  it("FunctionTest.testShapeCache", function()
    local func = tf.func(function(x) return 2 * x end)
    local func_a = func:get_concrete_function(tf.TensorSpec({ tf.None }, tf.int32))
    local func_b = func:get_concrete_function(tf.TensorSpec({ tf.None }, tf.int32))
    assert.is_true(rawequal(func_a, func_b))
  end)

  -- polymorphic_function_test.py: FunctionTest.testCacheWithinSaveContext (outside a save context)
  it("FunctionTest.testCacheWithinSaveContext", function()
    local func = tf.func(function(x) return 2 * x end)
    local func_a = func:get_concrete_function(tf.constant(2.0))
    local func_b = func:get_concrete_function(tf.constant(2.0))
    assert.is_true(rawequal(func_a, func_b))
  end)

  -- polymorphic_function_test.py: FunctionTest.testVarAlreadyInitializedNoClobbering
  it("FunctionTest.testVarAlreadyInitializedNoClobbering", function()
    local v_holder = {}
    local add_var = tf.func(function(x)
      if #v_holder == 0 then
        v_holder[1] = tf.Variable({ 1.0, 2.0 })
        local already_initialized = tf.Variable(3.0)
        tf.init_scope(function() already_initialized:assign(10.0) end)
        v_holder[2] = already_initialized
      end
      return v_holder[1] + v_holder[2] + x
    end)
    add_var:get_concrete_function(tf.constant(2.0))
    T.equal({ 13.0, 14.0 }, add_var(tf.constant(2.0)))
  end)

  -- polymorphic_function_test.py: FunctionTest.testInitializationInNestedCall
  it("FunctionTest.testInitializationInNestedCall", function()
    local v_holder = {}
    local add_var = tf.func(function(x)
      if #v_holder == 0 then
        v_holder[1] = tf.Variable({ 1.0, 2.0 })
        local already_initialized = tf.Variable(3.0)
        tf.init_scope(function() already_initialized:assign(10.0) end)
        v_holder[2] = already_initialized
      end
      return v_holder[1] + v_holder[2] + x
    end)
    local wrapper = tf.func(function(x) return add_var(x) end)
    T.equal({ 13.0, 14.0 }, wrapper(tf.constant(2.0)))
    v_holder[2]:assign(11.0)
    T.equal({ 14.0, 15.0 }, wrapper(tf.constant(2.0)))
  end)

  -- polymorphic_function_test.py: FunctionTest.test_frequent_retracing_warning
  it("FunctionTest.test_frequent_retracing_warning", function()
    local f = tf.func(function(x) return x end)
    local lines = capture_stderr(function()
      f(1)
      f(2)
      f(3)
      f(4)
    end)
    assert.are.equal(0, #lines)
    lines = capture_stderr(function() f(5) end)
    assert.are.equal(1, #lines)
    assert.is_truthy(lines[1]:find("Tracing is expensive", 1, true))
  end)

  -- polymorphic_function_test.py: FunctionTest.test_frequent_retracing_warning_two_independent_tf_functions
  it("FunctionTest.test_frequent_retracing_warning_two_independent_tf_functions", function()
    local f = tf.func(function(x) return x end)
    local g = tf.func(function(x) return x end)
    local lines = capture_stderr(function()
      for i = 1, 4 do f(i) end
      for i = 1, 5 do g(i) end
    end)
    assert.are.equal(1, count_matching(lines, "Tracing is expensive"))
  end)

  -- polymorphic_function_test.py: FunctionTest.test_frequent_retracing_warning_nested
  it("FunctionTest.test_frequent_retracing_warning_nested", function()
    local inner = tf.func(function(x) return x + 1 end)
    local outer1 = tf.func(function(x) return inner(x) * 2 end)
    local outer2 = tf.func(function(x) return inner(x) * 3 end)
    local lines = capture_stderr(function()
      for i = 1, 4 do inner(i) end
      for i = 5, 8 do outer1(i) end
      for i = 9, 12 do outer2(i) end
    end)
    assert.are.equal(0, count_matching(lines, "Tracing is expensive"))
    lines = capture_stderr(function() outer2(13) end)
    assert.are.equal(1, count_matching(lines, "Tracing is expensive"))
  end)

  -- polymorphic_function_test.py: FunctionTest.test_frequent_retracing_warning_on_reinstantiation
  it("FunctionTest.test_frequent_retracing_warning_on_reinstantiation", function()
    local all = {}
    for i = 0, 4 do
      local lines = capture_stderr(function()
        local f = tf.func(function(x) return x end)
        f(i)
      end)
      for _, l in ipairs(lines) do all[#all + 1] = l end
      if i < 4 then assert.are.equal(0, #all) end
    end
    assert.are.equal(1, count_matching(all, "Tracing is expensive"))
  end)

  -- polymorphic_function_test.py: FunctionTest.test_retracing_warning_limits
  it("FunctionTest.test_retracing_warning_limits", function()
    local my_func = tf.func(function(x) return x end)
    local lines = capture_stderr(function()
      for i = 0, 9 do my_func(i) end
    end)
    assert.are.equal(2, count_matching(lines, "Tracing is expensive"))
  end)

  -- polymorphic_function_test.py: FunctionTest.test_experimental_get_tracing_count_function
  it("FunctionTest.test_experimental_get_tracing_count_function", function()
    local double = tf.func(function(a) return a + a end)
    double(tf.constant(1))
    double(tf.constant(2))
    assert.are.equal(1, double:experimental_get_tracing_count())
    double(tf.constant("a"))
    assert.are.equal(2, double:experimental_get_tracing_count())
  end)




  -- polymorphic_function_test.py: FunctionTest.test_recursive_tf_function
  it("FunctionTest.test_recursive_tf_function", function()
    local recursive_fn
    recursive_fn = tf.func(function(n)
      if n > 0 then return recursive_fn(n - 1) end
      return 1
    end)
    T.equal(1, recursive_fn(5))
  end)

  -- polymorphic_function_test.py: FunctionTest.test_recursive_tf_function_with_gradients
  it("FunctionTest.test_recursive_tf_function_with_gradients", function()
    local recursive_fn
    recursive_fn = tf.func(function(n, x)
      if n > 0 then
        return n * recursive_fn(n - 1, x)
      else
        return x
      end
    end)
    local x = tf.Variable(1.0)
    local tape = tf.GradientTape()
    local g = recursive_fn(5, x)
    tape:stop()
    T.equal(120.0, tape:gradient(g, x))
  end)

  -- polymorphic_function_test.py: FunctionTest.test_recursive_python_function
  it("FunctionTest.test_recursive_python_function", function()
    local function recursive_py_fn(n)
      if n > 0 then return recursive_py_fn(n - 1) end
      return 1
    end
    local recursive_fn = tf.func(function(n) return recursive_py_fn(n) end)
    T.equal(1, recursive_fn(5))
  end)

  -- polymorphic_function_test.py: FunctionTest.test_recursive_python_function_with_gradients
  it("FunctionTest.test_recursive_python_function_with_gradients", function()
    local function recursive_py_fn(n, x)
      if n > 0 then return n * recursive_py_fn(n - 1, x) end
      return x
    end
    local recursive_fn = tf.func(function(n, x) return recursive_py_fn(n, x) end)
    local x = tf.Variable(1.0)
    local tape = tf.GradientTape()
    local g = recursive_fn(5, x)
    tape:stop()
    T.equal(120.0, tape:gradient(g, x))
  end)

  -- polymorphic_function_test.py: FunctionTest.test_recursive_tf_function_call_each_other
  it("FunctionTest.test_recursive_tf_function_call_each_other", function()
    local recursive_fn1, recursive_fn2
    recursive_fn1 = tf.func(function(n)
      if n <= 1 then return 1 end
      return recursive_fn2(n - 1)
    end)
    recursive_fn2 = tf.func(function(n)
      if n <= 1 then return 2 end
      return recursive_fn1(n - 1)
    end)
    T.equal(1, recursive_fn1(5))
    T.equal(2, recursive_fn1(6))
    T.equal(2, recursive_fn2(5))
    T.equal(1, recursive_fn2(6))
  end)

  -- polymorphic_function_test.py: FunctionTest.test_recursive_tf_function_call_each_other_with_gradients
  it("FunctionTest.test_recursive_tf_function_call_each_other_with_gradients", function()
    local recursive_fn1, recursive_fn2
    recursive_fn1 = tf.func(function(n, x)
      if n <= 1 then return x end
      return n * recursive_fn2(n - 1, x)
    end)
    recursive_fn2 = tf.func(function(n, x)
      if n <= 1 then return 2 * x end
      return n * recursive_fn1(n - 1, x)
    end)
    local x = tf.Variable(1.0)
    local tape = tf.GradientTape()
    local g1 = recursive_fn1(5, x)
    tape:stop()
    T.equal(120.0, tape:gradient(g1, x))
    tape = tf.GradientTape()
    local g2 = recursive_fn2(5, x)
    tape:stop()
    T.equal(240.0, tape:gradient(g2, x))
  end)

  -- polymorphic_function_test.py: FunctionTest.test_recursive_tf_function_with_cond
  it("FunctionTest.test_recursive_tf_function_with_cond", function()
    local recursive_fn
    recursive_fn = tf.func(function(n)
      return tf.cond(tf.greater(n, 0), recursive_fn(n - 1), 1)
    end, { autograph = false })
    T.raises("RecursionError", nil, recursive_fn, tf.constant(5))
  end)

  -- polymorphic_function_test.py: MultiDeviceTest.testNestedCallWatchedVariables
  it("MultiDeviceTest.testNestedCallWatchedVariables", function()
    local v = tf.Variable(4.0)
    local f = tf.func(function() return v ^ 2.0 end)
    local function watched(fn)
      local tape = tf.GradientTape()
      fn()
      tape:stop()
      return tape:watched_variables()
    end
    local w = watched(f)
    assert.are.equal(1, #w)
    assert.is_true(rawequal(v, w[1]))
    local g = tf.func(function() return f() end)
    w = watched(g)
    assert.are.equal(1, #w)
    assert.is_true(rawequal(v, w[1]))
    local h = tf.func(function() return g() end)
    w = watched(h)
    assert.are.equal(1, #w)
    assert.is_true(rawequal(v, w[1]))
  end)

  -- polymorphic_function_test.py: FunctionTest.testConcreteFunctionWithAllBoundNestedNonTensorInputs
  it("FunctionTest.testConcreteFunctionWithAllBoundNestedNonTensorInputs", function()
    local f = tf.func(function(x, y) return x.a + x.b, y[1] + y[2] end)
    local a = { a = 5000, b = 500 }
    local b = { 50, 5 }
    local cf = f:get_concrete_function(a, b)
    local o1, o2 = cf(a, b)
    T.equal(5555, (o1 + o2):numpy())
    o1, o2 = cf()
    T.equal(5555, (o1 + o2):numpy())
  end)
  -- polymorphic_function_test.py: FunctionTest.testConcreteFunctionStructuredSignatureError (MissingArg)
  it("FunctionTest.testConcreteFunctionStructuredSignatureError_MissingArg", function()
    local func = tf.func(function(x, y, ...) return x end)
    local conc = func:get_concrete_function(1, tf.constant(2))
    T.raises("TypeError", "missing a required argument: 'y'", conc, 1)
  end)
  -- polymorphic_function_test.py: FunctionTest.testConcreteFunctionStructuredSignatureError (MissingVararg)
  it("FunctionTest.testConcreteFunctionStructuredSignatureError_MissingVararg", function()
    -- TF names the first extra positional parameter varargs_0; moonflow
    -- names it args_0 (API.md: "a vararg function's extra parameters are
    -- args_0, args_1, …"), since a Lua vararg has no name.
    local func = tf.func(function(x, y, ...) return x end)
    local conc = func:get_concrete_function(1, 2, tf.constant(1.0))
    T.raises("TypeError", "missing a required argument: 'args_0'", conc, 1, 2)
  end)
  -- polymorphic_function_test.py: FunctionTest.testConcreteFunctionStructuredSignatureError (ExtraPositionalArg)
  it("FunctionTest.testConcreteFunctionStructuredSignatureError_ExtraPositionalArg", function()
    local func = tf.func(function(x, y, ...) return x end)
    local conc = func:get_concrete_function(1, 2)
    T.raises("TypeError", "too many positional arguments", conc, 1, 2, 3)
  end)
  -- polymorphic_function_test.py: FunctionTest.testConcreteFunctionStructuredSignatureError (ExpectedDictGotTensor)
  it("FunctionTest.testConcreteFunctionStructuredSignatureError_ExpectedDictGotTensor", function()
    local func = tf.func(function(x, y, ...) return x end)
    local conc = func:get_concrete_function({ a = tf.constant(1), b = tf.constant(1) }, 5)
    local e = T.raises("TypeError", "Binding inputs", conc, tf.constant(1), 5)
    assert.is_truthy(e.message:find("Can not cast .*Tensor.* to a Dict"), e.message)
  end)
  -- polymorphic_function_test.py: FunctionTest.testInputSignatureMissingTensorSpecsFunction
  it("FunctionTest.testInputSignatureMissingTensorSpecsFunction", function()
    local sig = { input_signature = { tf.TensorSpec({}, tf.int32) } }
    local function f1(arg1, arg2, arg3) end
    T.raises("TypeError", "input_signature missing type constraint", tf.func(f1, sig), 1, 2, 3)
    local function f6(arg1, arg4)
      arg4 = arg4 or 4
      return arg1 + arg4
    end
    T.equal(5, tf.func(f6, sig)(1))
  end)
  -- polymorphic_function_test.py: FunctionTest.test_clear_cache
  it("FunctionTest.test_clear_cache", function()
    local double = tf.func(function(a) return a + a end)
    T.equal(2, double(tf.constant(1)))
    T.equal("aa", double(tf.constant("a")))
    assert.are.equal(2, double:experimental_get_tracing_count())
    double:clear_cache()
    assert.are.equal(0, double:experimental_get_tracing_count())
    T.equal(2, double(tf.constant(1)))
    assert.are.equal(1, double:experimental_get_tracing_count())
  end)
  -- polymorphic_function_test.py: FunctionTest.test_clear_cache_with_variable
  it("FunctionTest.test_clear_cache_with_variable", function()
    local v
    local f = tf.func(function(x)
      if v == nil then v = tf.Variable(1.0) end
      return v * x
    end)
    T.equal(2.0, f(tf.constant(2.0)))
    assert.are.equal(2, f:experimental_get_tracing_count())
    f:clear_cache()
    v = nil
    assert.are.equal(0, f:experimental_get_tracing_count())
    T.equal(3.0, f(tf.constant(3.0)))
    assert.are.equal(2, f:experimental_get_tracing_count())
  end)
  -- polymorphic_function_test.py: FunctionTest.testSymbolicTensorIllegalCaptureTraceTimeError
  it("FunctionTest.testSymbolicTensorIllegalCaptureTraceTimeError", function()
    local f = tf.func(function(inputs)
      local num_steps = inputs.shape[0]
      local outputs = {}
      for t in tf.range(num_steps) do
        outputs[#outputs + 1] = inputs[t]
      end
      return outputs
    end)
    T.raises("InaccessibleTensorError", "out of scope", f, tf.zeros({ 8, 42, 3 }))
  end)
  -- polymorphic_function_test.py: FunctionTest.testVariableInitializerNotConstant
  it("FunctionTest.testVariableInitializerNotConstant", function()
    local state = {}
    local fn = tf.func(function(x)
      if #state == 0 then state[1] = tf.Variable(2.0 * x) end
      return state[1] * x
    end)
    T.equal(2.0, fn(tf.constant(1.0)))
    T.equal(6.0, fn(tf.constant(3.0)))
  end)
  -- polymorphic_function_test.py: FunctionTest.test_tensor_shape_casted_to_specific
  it("FunctionTest.test_tensor_shape_casted_to_specific", function()
    local specific = tf.func(function(x)
      assert.are.same({ 1 }, x.shape:as_list())
      return x
    end, { input_signature = { tf.TensorSpec({ 1 }) } })
    local general = tf.func(function(x) return specific(x) end, { input_signature = { tf.TensorSpec(nil) } })
    T.equal({ 1.0 }, general(tf.constant({ 1.0 })))
  end)

  -- polymorphic_function_test.py: FunctionTest.testShapeInferencePropagateConstNestedConcat
  it("FunctionTest.testShapeInferencePropagateConstNestedConcat", function()
    local f = tf.func(function(d1, d2, d3)
      local new_shape = tf.concat({ tf.stack({ d1 }), tf.stack({ d2 }), tf.stack({ d3 }) }, { axis = -1 })
      return tf.ones(new_shape, tf.int32)
    end, { input_signature = { tf.TensorSpec({}, tf.int32), tf.TensorSpec({}, tf.int32), tf.TensorSpec({}, tf.int32) } })
    local g = tf.func(function()
      local y = f(1, 2, 3)
      assert.are.same({ 1, 2, 3 }, y.shape:as_list())
      return y
    end)
    T.equal(tf.ones({ 1, 2, 3 }, tf.int32):numpy(), g())
  end)
end)

-- A ConcreteFunction has two signatures (concrete_function.py,
-- ConcreteFunction.__call__): the original function's, where non-tensor
-- arguments default to the values traced with, and the flat one, the
-- tensors alone. The structured signature is tried first; when it fails
-- with a TypeError, the flat one, and when both fail the TypeError says
-- both. TF's testConcreteFunctionFlatSignatureError removes the structured
-- signature (conc._set_function_spec(None)); moonflow has no such switch,
-- so its cases are called where the structured binding fails first, and
-- the flat signature's error is the message's second part.
describe("polymorphic_function_test.py: the flat signature", function()
  -- TF's func(x, y=5, *varargs, **kwargs); the tf.func is named after
  -- the variable it is assigned to, `func`.
  local function func_fn()
    local func = tf.func(function(x, y, ...) return x end)
    return func
  end

  -- polymorphic_function_test.py: FunctionTest.testConcreteFunctionFlatSignatureError (MissingArg)
  it("FunctionTest.testConcreteFunctionFlatSignatureError_MissingArg", function()
    local conc = func_fn():get_concrete_function(tf.constant(1), tf.constant(2))
    local e = T.raises("TypeError", "missing a required argument: 'y'", conc, tf.constant(1))
    assert.is_truthy(e.message:find("\nFallback to flat signature also failed due to: "
      .. "func(x, y) missing required arguments: y.", 1, true), e.message)
  end)

  -- polymorphic_function_test.py: FunctionTest.testConcreteFunctionFlatSignatureError (ExtraPositionalArg)
  it("FunctionTest.testConcreteFunctionFlatSignatureError_ExtraPositionalArg", function()
    local conc = func_fn():get_concrete_function(tf.constant(1), tf.constant(2))
    local e = T.raises("TypeError", nil, conc, tf.constant(1), tf.constant(2), tf.constant(3))
    assert.is_truthy(e.message:find("func%(x, y%) takes 2 .* got 3"), e.message)
  end)

  -- polymorphic_function_test.py: FunctionTest.testConcreteFunctionFlatSignatureError (MissingVararg)
  it("FunctionTest.testConcreteFunctionFlatSignatureError_MissingVararg", function()
    -- TF's varargs_0 is args_0 (a Lua vararg has no name).
    local conc = func_fn():get_concrete_function(tf.constant(1), tf.constant(2), tf.constant(3))
    local e = T.raises("TypeError", nil, conc, tf.constant(1), tf.constant(2))
    assert.is_truthy(e.message:find("func(x, y, args_0) missing required arguments: args_0", 1, true),
      e.message)
  end)

  -- polymorphic_function_test.py: FunctionTest.testConcreteFunctionFlatSignatureError (ExpectedTensorGotInt)
  it("FunctionTest.testConcreteFunctionFlatSignatureError_ExpectedTensorGotInt", function()
    -- The structured signature casts a Lua number to a tensor parameter, so
    -- the flat signature is reached by leaving out a traced Lua value: x
    -- was traced with 7, the flat signature is (y).
    local conc = func_fn():get_concrete_function(7, tf.constant(2))
    local e = T.raises("TypeError", nil, conc, 5)
    assert.is_truthy(e.message:find("func(y): expected argument #0(zero-based) to be a Tensor; got number (5)",
      1, true), e.message)
  end)

  -- polymorphic_function_test.py: FunctionTest.testConcreteFunctionFlatSignatureError (WrongDType)
  it("FunctionTest.testConcreteFunctionFlatSignatureError_WrongDType", function()
    local conc = func_fn():get_concrete_function(7, tf.constant(1))
    T.raises({ "ValueError", "InvalidArgumentError", "TypeError" }, nil, conc, tf.constant(1.0))
  end)

  -- concrete_function.py, ConcreteFunction.__call__: "the arguments correspond
  -- to the flattened component tensors of the arguments that were used to
  -- construct the ConcreteFunction"; parameter names get suffixes for nested
  -- arguments.
  it("ConcreteFunction.__call__: the flat signature of nested and non-tensor arguments", function()
    local f = tf.func(function(scale, x, opts) return x.a * scale + x.b, opts.k end)
    local cf = f:get_concrete_function(10, { a = tf.constant(1), b = tf.constant(2) }, { k = "key" })
    local y, k = cf(tf.constant(3), tf.constant(4))
    T.equal(34, y)
    T.equal("key", k)
    y = cf(10, { a = tf.constant(3), b = tf.constant(4) })
    T.equal(34, y)
    local e = T.raises("TypeError", nil, cf, tf.constant(3))
    assert.is_truthy(e.message:find("f(x_a, x_b) missing required arguments: x_b.", 1, true), e.message)
  end)

  -- polymorphic_function_test.py: FunctionTest.testConcreteFunctionAmbiguousSignature
  -- (positionally: when both signatures fit, the structured one is used)
  it("FunctionTest.testConcreteFunctionAmbiguousSignature", function()
    local f = tf.func(function(x, y) return x * 10 + y end)
    local conc = f:get_concrete_function(tf.TensorSpec(nil, tf.int32), tf.TensorSpec(nil, tf.int32))
    T.equal(56, conc(tf.constant(5), tf.constant(6)))
  end)
end)

describe("concrete_function_test.py", function()
  -- concrete_function_test.py: ConcreteFunctionTest.test_generate_from_def (the call of the concrete function; FunctionDef round trips have no moonflow counterpart)
  it("ConcreteFunctionTest.test_generate_from_def", function()
    local add_dicts = tf.func(function(dict_a, dict_b)
      local result = {}
      for key in pairs(dict_a) do result[key] = dict_a[key] + dict_b[key] end
      return result
    end)
    local dict_a = { tensor = tf.constant(1), variable = tf.Variable(2), python_int = 4 }
    local dict_b = { tensor = tf.constant(2), variable = tf.Variable(5), python_int = 5 }
    local concrete_fn = add_dicts:get_concrete_function(dict_a, dict_b)
    local result = concrete_fn(dict_a, dict_b)
    T.equal(3, result.tensor)
    T.equal(7, result.variable)
    T.equal(9, result.python_int)
  end)
end)
