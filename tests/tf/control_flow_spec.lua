-- control_flow_spec.lua — tensorflow/python/kernel_tests/control_flow/
-- while_v2_test.py (WhileV2Test) and cond_v2_test.py (CondV2Test), ported.
-- Most of those tests build a TF1 graph and call tf.gradients on it; the TF2
-- form of the same computation, and the one moonflow has, is a tf.func with
-- a GradientTape inside: the loop or cond is traced into a While/If op and
-- differentiated there. Gradients for an input that the taken branch does
-- not use are zeros, as cond_v2's gradient gives them (the If op consumes
-- the input, so it is connected).

local tf = tf or require("moonflow")
local T = require("tfhelpers")

-- CondV2Test._testCond: for pred True, [[True]], False, [[False]], the value
-- of the cond and its gradients with respect to x and y (the constants 1.0
-- and `y0`, built inside the function as TF builds them in the graph).
-- `branches(x, y)` returns true_fn, false_fn; expected[true|false] =
-- { value, { dx, dy } }. TF's _testCond feeds four predicates; each case
-- below runs the scalar ones, and testBasic_squeezed_predicate runs the
-- [[True]] / [[False]] ones (cond_v2 squeezes a one-element predicate).
local SCALAR_PREDS = { { true, true }, { false, false } }
local MATRIX_PREDS = { { true, { { true } } }, { false, { { false } } } }
local function test_cond(branches, y0, expected, preds)
  local f = tf.func(function(pred)
    local x = tf.constant(1.0)
    local y = tf.constant(y0)
    local tape = tf.GradientTape()
    tape:watch({ x, y })
    local true_fn, false_fn = branches(x, y, pred)
    local out = table.pack(tf.cond(pred, true_fn, false_fn))
    tape:stop()
    local targets = {}
    for i = 1, out.n do targets[i] = out[i] end
    return out[1], out.n > 1 and out[2] or nil, tape:gradient(targets, { x, y })
  end)
  for _, p in ipairs(preds or SCALAR_PREDS) do
    local e = expected[p[1]]
    local v1, v2, grads = f(tf.constant(p[2]))
    if type(e[1]) == "table" then
      T.equal(e[1], { v1, v2 })
    else
      T.equal(e[1], v1)
    end
    T.equal(e[2], grads)
  end
end

describe("while_v2_test.py", function()
  -- while_v2_test.py: WhileV2Test.testSingleLoopVar
  it("WhileV2Test.testSingleLoopVar", function()
    local f = tf.func(function()
      local x = tf.constant(2.0)
      local tape = tf.GradientTape()
      tape:watch(x)
      local ret = tf.while_loop(function(v) return tf.less(v, 8.0) end, function(v) return v * v end, { x })
      tape:stop()
      return ret, tape:gradient(ret, { x })
    end)
    local ret, grad = f()
    T.equal(16.0, ret)
    T.equal({ 32.0 }, grad)
  end)


  -- while_v2_test.py: WhileV2Test.testMultipleLoopVarsBasic
  it("WhileV2Test.testMultipleLoopVarsBasic", function()
    local f = tf.func(function()
      local x = tf.constant(5.0)
      local y = tf.constant(3.0)
      local tape = tf.GradientTape()
      tape:watch(x)
      local r1, r2 = tf.while_loop(function(v, _) return tf.less(v, 45.0) end,
        function(v, w) return v * w, w end, { x, y })
      tape:stop()
      return r1, r2, tape:gradient({ r1, r2 }, { x })
    end)
    local r1, r2, grad = f()
    T.equal({ 45.0, 3.0 }, { r1, r2 })
    T.equal({ 9.0 }, grad)
  end)

  -- while_v2_test.py: WhileV2Test.testMultipleLoopNonscalarCond
  it("WhileV2Test.testMultipleLoopNonscalarCond", function()
    local f = tf.func(function()
      local x = tf.constant({ { 5.0 } })
      local y = tf.constant(3.0)
      local tape = tf.GradientTape()
      tape:watch(x)
      local r1, r2 = tf.while_loop(function(v, _) return tf.less(v, 45.0) end,
        function(v, w) return v * w, w end, { x, y })
      tape:stop()
      return r1, r2, tape:gradient({ r1, r2 }, { x })
    end)
    local r1, r2, grad = f()
    T.equal({ { 45.0 } }, r1)
    T.equal(3.0, r2)
    T.equal({ { { 9.0 } } }, grad)
  end)

  -- while_v2_test.py: WhileV2Test.testMultipleLoopVars
  it("WhileV2Test.testMultipleLoopVars", function()
    local f = tf.func(function()
      local x = tf.constant(5.0)
      local y = tf.constant(3.0)
      local tape = tf.GradientTape({ persistent = true })
      tape:watch({ x, y })
      local r1, r2 = tf.while_loop(function(v, _) return tf.less(v, 45.0) end,
        function(v, w) return v * w, v + w end, { x, y })
      tape:stop()
      return { r1, r2 }, {
        tape:gradient(r1, x), tape:gradient(r2, x), tape:gradient({ r1, r2 }, x),
        tape:gradient(r1, y), tape:gradient(r2, y), tape:gradient({ r1, r2 }, y),
      }
    end)
    local ret, grads = f()
    T.equal({ 120.0, 23.0 }, ret)
    T.equal({ 39.0, 4.0, 43.0, 55.0, 6.0, 61.0 }, grads)
  end)

  -- while_v2_test.py: WhileV2Test.testGradientTape
  it("WhileV2Test.testGradientTape", function()
    local f = tf.func(function()
      local t = tf.GradientTape()
      local x = tf.constant(2.0)
      t:watch(x)
      local ret = tf.while_loop(function(v) return tf.less(v, 4.0) end, function(v) return v * v end, { x })
      t:stop()
      return t:gradient(ret, x)
    end)
    T.equal(4.0, f())
  end)

  -- while_v2_test.py: WhileV2Test.testMultipleWhileLoopsWithFunc
  it("WhileV2Test.testMultipleWhileLoopsWithFunc", function()
    local x = tf.constant(2.0)
    local Fn = tf.func(function()
      local ret1 = tf.while_loop(function(v) return tf.less(v, 4.0) end, function(v) return v * v end, { x },
        { name = "while_1" })
      local ret2 = tf.while_loop(function(v) return tf.less(v, 16.0) end, function(v) return v * v end, { x },
        { name = "while_2" })
      return ret1, ret2
    end)
    local graph = Fn:get_concrete_function().graph
    local while_1 = graph:get_operation_by_name("while_1")
    local while_2 = graph:get_operation_by_name("while_2")
    assert.are.equal("StatelessWhile", while_1.type)
    assert.are.equal("StatelessWhile", while_2.type)
    assert.are.equal(0, #while_1.control_inputs)
    assert.are.equal(0, #while_2.control_inputs)
  end)

  -- while_v2_test.py: WhileV2Test.testMultipleWhileLoopsWithDeps
  it("WhileV2Test.testMultipleWhileLoopsWithDeps", function()
    local x = tf.Variable(2.0)
    local c = tf.constant(2.0)
    local Fn = tf.func(function()
      local function Body1(v)
        x:assign(x)
        return v * x
      end
      local ret1 = tf.while_loop(function(v) return tf.less(v, 4.0) end, Body1, { c }, { name = "while_1" })
      local function Body2(v)
        x:assign(x)
        return v * x * x
      end
      local ret2 = tf.while_loop(function(v) return tf.less(v, 16.0) end, Body2, { c }, { name = "while_2" })
      return ret1, ret2
    end)
    local graph = Fn:get_concrete_function().graph
    local while_1 = graph:get_operation_by_name("while_1")
    local while_2 = graph:get_operation_by_name("while_2")
    assert.are.equal("While", while_1.type)
    assert.are.equal("While", while_2.type)
    assert.are.equal(0, #while_1.control_inputs)
    assert.are.equal(1, #while_2.control_inputs)
    assert.are.equal(while_1.name, while_2.control_inputs[1].name)
  end)


  -- while_v2_test.py: WhileV2Test.testGradientTapeResourceVariable
  for _, dtype in ipairs({ tf.float32, tf.float64 }) do
    it("WhileV2Test.testGradientTapeResourceVariable(" .. dtype.name .. ")", function()
      local v = tf.Variable(1.0, { dtype = dtype })
      local fnWithLoop = tf.func(function()
        local tape = tf.GradientTape()
        local _, x = tf.while_loop(function(i, _) return tf.less(i, 2) end,
          function(i, x_) return i + 1, x_ * v end, { 0, tf.constant(2.0, dtype) })
        tape:stop()
        return tape:gradient(x, v)
      end)
      T.equal(4.0, fnWithLoop())
    end)
  end
  -- while_v2_test.py: WhileV2Test.testMultipleWhileLoopsEager
  it("WhileV2Test.testMultipleWhileLoopsEager", function()
    local Func = tf.func(function()
      local x = tf.constant(2.0)
      local outer = tf.GradientTape()
      outer:watch(x)
      local inner = tf.GradientTape()
      inner:watch(x)
      local ret1 = tf.while_loop(function(v) return tf.less(v, 4.0) end, function(v) return v * v end, { x })
      local ret2 = tf.while_loop(function(v) return tf.less(v, 16.0) end, function(v) return v * v end, { ret1 })
      inner:stop()
      local grad = inner:gradient(ret2, { x })[1]
      outer:stop()
      local grad_grad = outer:gradient(grad, { x })[1]
      return grad, grad_grad
    end)
    local grad, grad_grad = Func()
    T.equal(32.0, grad)
    T.equal(48.0, grad_grad)
  end)
  -- while_v2_test.py: WhileV2Test.testDoubleDerivativeEager
  it("WhileV2Test.testDoubleDerivativeEager", function()
    local Func = tf.func(function()
      local x = tf.constant(2.0)
      local outer = tf.GradientTape()
      outer:watch(x)
      local inner = tf.GradientTape()
      inner:watch(x)
      local ret = tf.while_loop(function(v) return tf.less(v, 8.0) end, function(v) return v ^ 2 end, { x })
      inner:stop()
      local grad = inner:gradient(ret, { x })[1]
      outer:stop()
      local grad_grad = outer:gradient(grad, { x })[1]
      return ret, grad, grad_grad
    end)
    local ret, grad, grad_grad = Func()
    T.equal(16.0, ret)
    T.equal(32.0, grad)
    T.equal(48.0, grad_grad)
  end)
end)

describe("cond_v2_test.py", function()
  -- cond_v2_test.py: CondV2Test.testBasic
  it("CondV2Test.testBasic", function()
    test_cond(function(x, y)
      return function() return x * 2.0 end, function() return y * 3.0 end
    end, 2.0, { [true] = { 2.0, { 2.0, 0.0 } }, [false] = { 6.0, { 0.0, 3.0 } } })
  end)


  -- cond_v2_test.py: CondV2Test.testMultipleOutputs
  it("CondV2Test.testMultipleOutputs", function()
    test_cond(function(x, y)
      return function() return x * y, y end, function() return x, y * 3.0 end
    end, 3.0, { [true] = { { 3.0, 3.0 }, { 3.0, 2.0 } }, [false] = { { 1.0, 9.0 }, { 1.0, 3.0 } } })
  end)

  -- cond_v2_test.py: CondV2Test.testBasic2
  it("CondV2Test.testBasic2", function()
    test_cond(function(x, y)
      return function() return x * y * 2.0 end, function() return 2.0 end
    end, 2.0, { [true] = { 4.0, { 4.0, 2.0 } }, [false] = { 2.0, { 0.0, 0.0 } } })
  end)

  -- cond_v2_test.py: CondV2Test.testNoInputs
  it("CondV2Test.testNoInputs", function()
    local f = tf.func(function(pred)
      return tf.cond(pred, function() return tf.constant(1.0) end, function() return tf.constant(2.0) end)
    end)
    T.equal(1.0, f(tf.constant(true)))
    T.equal(2.0, f(tf.constant(false)))
  end)

  -- cond_v2_test.py: CondV2Test.testNestedFunctionInCond
  it("CondV2Test.testNestedFunctionInCond", function()
    test_cond(function(x, y)
      local function false_fn()
        local fn = tf.func(function()
          local nested_fn = tf.func(function() return x * y * 2.0 end)
          return nested_fn()
        end)
        return fn()
      end
      return function() return 2.0 end, false_fn
    end, 2.0, { [true] = { 2.0, { 0.0, 0.0 } }, [false] = { 4.0, { 4.0, 2.0 } } })
  end)

  -- cond_v2_test.py: CondV2Test.testDoubleNestedFunctionInCond
  it("CondV2Test.testDoubleNestedFunctionInCond", function()
    test_cond(function(x, y)
      local function true_fn()
        local fn = tf.func(function()
          local nested_fn = tf.func(function()
            local nested_nested_fn = tf.func(function() return x * y * 2.0 end)
            return nested_nested_fn()
          end)
          return nested_fn()
        end)
        return fn()
      end
      return true_fn, function() return 2.0 end
    end, 2.0, { [true] = { 4.0, { 4.0, 2.0 } }, [false] = { 2.0, { 0.0, 0.0 } } })
  end)



  -- cond_v2_test.py: CondV2Test._createCond (the op type assertion)
  it("CondV2Test._createCond: a cond on constants is one StatelessIf", function()
    local f = tf.func(function()
      local pred = tf.constant(true)
      local x = tf.constant(1.0)
      return tf.cond(pred, function() return x end, function() return x + 1 end)
    end)
    local types = {}
    for _, op in ipairs(f:get_concrete_function().graph:get_operations()) do types[op.type] = (types[op.type] or 0) + 1 end
    assert.are.equal(1, types.StatelessIf)
    T.equal(1.0, f())
  end)
  -- cond_v2_test.py: CondV2Test.testNestedCond
  it("CondV2Test.testNestedCond", function()
    test_cond(function(x, y, pred)
      local function false_fn()
        return tf.cond(pred, function() return x * y * 2.0 end, function() return x * 5.0 end)
      end
      return function() return 2.0 end, false_fn
    end, 2.0, { [true] = { 2.0, { 0.0, 0.0 } }, [false] = { 5.0, { 5.0, 0.0 } } })
  end)
  -- cond_v2_test.py: CondV2Test.testNestedCondBothBranches
  it("CondV2Test.testNestedCondBothBranches", function()
    test_cond(function(x, y, pred)
      local function true_fn() return tf.cond(pred, function() return x + y end, function() return x * x end) end
      local function false_fn() return tf.cond(pred, function() return x - y end, function() return y * y end) end
      return true_fn, false_fn
    end, 2.0, { [true] = { 3.0, { 1.0, 1.0 } }, [false] = { 4.0, { 0.0, 4.0 } } })
  end)
  -- cond_v2_test.py: CondV2Test.testBasic (the [[True]] and [[False]] predicates of _testCond)
  it("CondV2Test.testBasic_squeezed_predicate", function()
    test_cond(function(x, y)
      return function() return x * 2.0 end, function() return y * 3.0 end
    end, 2.0, { [true] = { 2.0, { 2.0, 0.0 } }, [false] = { 6.0, { 0.0, 3.0 } } }, MATRIX_PREDS)
  end)
end)
