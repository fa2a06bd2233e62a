-- math_grad_spec.lua — the gradient cases of tensorflow/python/ops/math_grad_test.py
-- (and of the kernel tests of the ops math_grad.py differentiates),
-- ported. Translation: gradient_checker.compute_gradient_error(x, x_shape,
-- y, y_shape, x_init_value=v) and gradient_checker_v2.compute_gradient(f,
-- [x]) are T.check_gradient(f, {x}, tol) with f the graph from x to y; the
-- TF1 checker without x_init_value feeds np.random.random_sample values in
-- place of x's own (so does the port: T.rand(shape, dtype)). The check
-- checks the tape's Jacobian against TF's central differences (delta 1e-3)
-- both eagerly and with the tape inside a tf.func, as
-- run_in_graph_and_eager_modes does. gradients.gradients(y, xs) in a TF1
-- graph is a tape in a tf.func (and, where values are compared, eagerly
-- too). np.random draws come from tfhelpers' fixed generator; the cases
-- do not depend on the particular values.
--
-- Left out (moonflow has no such op or dtype): complex64/complex128 cases
-- (AbsOpTest's complex half, ProdGradientTest.testProdGradientComplex,
-- testProdGradientForNegativeAxisComplex), EuclideanNormGradientTest
-- (reduce_euclidean_norm), SegmentMinOrMaxGradientTest (segment_min/max),
-- MulNoNanGradientTest, XlogyTest, XdivyTest, NextAfterTest (Xlog1pyTest is
-- ported at the end);
-- PowGradTest.test_zero_grad_tape runs without check_numerics, which
-- moonflow does not have (the values are what it checks).

local tf = tf or require("moonflow")
local T = require("tfhelpers")

describe("math_grad_test.py", function()
  -- math_grad_test.py: SquaredDifferenceOpTest.testGrad
  it("SquaredDifferenceOpTest.testGrad", function()
    local function test_grad(left_shape, right_shape)
      local l = T.randn(left_shape, tf.float64)
      local r = T.randn(right_shape, tf.float64)
      T.check_gradient(function(left) return tf.math.squared_difference(left, r) end, { l }, 1e-10, T.V1)
      T.check_gradient(function(right) return tf.math.squared_difference(l, right) end, { r }, 1e-10, T.V1)
    end
    test_grad({ 1, 2, 3, 2 }, { 3, 2 })
    test_grad({ 2, 4 }, { 3, 2, 4 })
  end)

  -- math_grad_test.py: AbsOpTest.testComplexAbs (the float32 half)
  it("AbsOpTest.testComplexAbs", function()
    -- The biased normal draws TF makes are replaced by the checker's
    -- random_sample values (no x_init_value), as in TF.
    T.check_gradient(tf.abs, { T.rand({ 3, 3 }, tf.float32) }, 2e-5, T.V1)
    -- Ensure stability near the pole at zero.
    T.check_gradient(tf.abs, { T.rand({ 3, 3 }, tf.float32) }, 100.0, T.V1)
  end)

  -- math_grad_test.py: MinOrMaxGradientTest.testMinGradient
  it("MinOrMaxGradientTest.testMinGradient", function()
    -- inputs = constant([1.0]), fed random_sample values by the checker
    local inputs = T.rand({ 1 }, tf.float32)
    T.check_gradient(function(x) return tf.reduce_min(tf.concat({ x, x }, 0)) end, { inputs }, 1e-4, T.V1)
  end)

  -- math_grad_test.py: MinOrMaxGradientTest.testMaxGradient
  it("MinOrMaxGradientTest.testMaxGradient", function()
    local inputs = T.rand({ 1 }, tf.float32)
    T.check_gradient(function(x) return tf.reduce_max(tf.concat({ x, x }, 0)) end, { inputs }, 1e-4, T.V1)
  end)

  -- math_grad_test.py: MaximumOrMinimumGradientTest.testMaximumGradient
  it("MaximumOrMinimumGradientTest.testMaximumGradient", function()
    -- inputs = constant([1., 2., 3., 4.]), fed random_sample values
    local inputs = T.rand({ 4 }, tf.float32)
    T.check_gradient(function(x) return tf.maximum(x, 3.0) end, { inputs }, 1e-4, T.V1)
  end)

  -- math_grad_test.py: MaximumOrMinimumGradientTest.testMinimumGradient
  it("MaximumOrMinimumGradientTest.testMinimumGradient", function()
    local inputs = T.rand({ 4 }, tf.float32)
    T.check_gradient(function(x) return tf.minimum(x, 2.0) end, { inputs }, 1e-4, T.V1)
  end)

  -- math_grad_test.py: ProdGradientTest.testProdGradient
  it("ProdGradientTest.testProdGradient", function()
    -- inputs = constant([[1., 2.], [3., 4.]]), fed random_sample values
    local inputs = T.rand({ 2, 2 }, tf.float32)
    T.check_gradient(function(x) return tf.reduce_prod(x) end, { inputs }, 1e-4, T.V1)
  end)

  -- math_grad_test.py: ProdGradientTest.testProdGradientForNegativeAxis
  it("ProdGradientTest.testProdGradientForNegativeAxis", function()
    local inputs = T.rand({ 2, 2 }, tf.float32)
    T.check_gradient(function(x) return tf.reduce_prod(x, -1) end, { inputs }, 1e-4, T.V1)
  end)

  -- math_grad_test.py: FloorModGradientTest.testFloorModGradient
  it("FloorModGradientTest.testFloorModGradient", function()
    -- Making sure the input is not near the discontinuity point where
    -- x/y == floor(x/y)
    local ns = tf.constant({ 17.0 }, tf.float32)
    -- inputs = constant([131.]), fed random_sample values
    local inputs = T.rand({ 1 }, tf.float32)
    T.check_gradient(function(x) return tf.math.floormod(x, ns) end, { inputs }, 1e-4, T.V1)
  end)

  -- math_grad_test.py: DivNoNanGradientTest.testBasicGradient
  it("DivNoNanGradientTest.testBasicGradient", function()
    -- inputs = constant(np.arange(-3, 3)), fed random_sample values
    local inputs = T.rand({ 6 }, tf.float32)
    T.check_gradient(function(x) return tf.math.divide_no_nan(x, 1 + tf.abs(x)) end, { inputs }, 1e-4, T.V1)
  end)

  -- math_grad_test.py: DivNoNanGradientTest.testGradientWithDenominatorIsZero
  it("DivNoNanGradientTest.testGradientWithDenominatorIsZero", function()
    T.eager_and_traced(function()
      local x = tf.constant({ -3.0, -2.0, -1.0, 0.0, 1.0, 2.0 }, tf.float32)
      local y = tf.zeros_like(x, tf.float32)
      local tape = tf.GradientTape()
      tape:watch({ x, y })
      local outputs = tf.math.divide_no_nan(x, y)
      tape:stop()
      return tape:gradient(outputs, { x, y })
    end, {}, function(_, grads)
      T.equal({ 0.0, 0.0, 0.0, 0.0, 0.0, 0.0 }, grads[1])
      T.equal({ 0.0, 0.0, 0.0, 0.0, 0.0, 0.0 }, grads[2])
    end)
  end)

  -- math_grad_test.py: PowGradTest.test_zero_grad_tf_gradients
  it("PowGradTest.test_zero_grad_tf_gradients", function()
    local f = tf.func(function()
      local x = tf.constant({ -1.0, 0.0, 1.0 })
      local tape = tf.GradientTape()
      tape:watch(x)
      local y = tf.pow(x, 2)
      tape:stop()
      return tape:gradient(y, x)
    end)
    T.equal({ -2.0, 0.0, 2.0 }, f())
  end)

  -- math_grad_test.py: PowGradTest.test_zero_grad_tape
  it("PowGradTest.test_zero_grad_tape", function()
    local x = tf.constant({ -1, 0.0, 1.0 })
    local tape = tf.GradientTape()
    tape:watch(x)
    local g = tape:gradient(tf.pow(x, 2), x)
    tape:stop()
    T.equal({ -2.0, 0.0, 2.0 }, g)
  end)
end)

-- tensorflow/python/kernel_tests/math_ops/reduction_ops_test.py: the
-- gradient cases. _compareGradient(x, axes) is compute_gradient(t, ...,
-- x_init_value=x, delta=1) with assertAllClose(jacob_t, jacob_n, rtol, atol).
local function incremental(shape, dtype, scale)
  local values = {}
  for i = 1, T.count_elements(shape) do values[i] = (i - 1) / (scale or 1) end
  return values
end

-- _compareGradient: an axes list of one also runs as a scalar axis, as TF's does.
local function compare_gradient(reduce, values, shape, dtype, axes, rtol, atol)
  local function f(t)
    if axes == "none" then return reduce(t) end
    return reduce(t, axes, false)
  end
  if type(axes) == "table" and #axes == 1 then
    compare_gradient(reduce, values, shape, dtype, axes[1], rtol, atol)
  end
  T.check_jacobians(f, { T.tensor(values, shape, dtype) }, rtol, atol, { delta = 1 })
end

local function compare_gradient_axes(reduce, values, shape, dtype, rtol, atol)
  for _, axes in ipairs({ "none", {}, 0, { 1 }, { 2 }, { 1, 2 }, { 0, 1, 2, 3 } }) do
    compare_gradient(reduce, values, shape, dtype, axes, rtol, atol)
  end
end

-- testEmptyGradients: compute_gradient_error(x, [0, 3], y, [0]) == 0.
local function empty_gradients(reduce)
  local e1, e2 = T.check_gradient(function(x) return reduce(x, { 1 }) end, { tf.zeros({ 0, 3 }) }, 1e-300, T.V1)
  assert.are.equal(0, e1)
  assert.are.equal(0, e2)
end

describe("reduction_ops_test.py", function()
  local S = { 2, 3, 4, 2 }

  -- reduction_ops_test.py: SumReductionTest.testGradient (real dtypes)
  it("SumReductionTest.testGradient", function()
    for _, dtype in ipairs({ tf.float32, tf.float64 }) do
      compare_gradient_axes(tf.reduce_sum, incremental(S), S, dtype, 1e-8, 1e-8)
    end
  end)

  -- reduction_ops_test.py: SumReductionTest.testEmptyGradients
  it("SumReductionTest.testEmptyGradients", function() empty_gradients(tf.reduce_sum) end)

  -- reduction_ops_test.py: MeanReductionTest.testGradient
  it("MeanReductionTest.testGradient", function()
    for _, dtype in ipairs({ tf.float32, tf.float64 }) do
      compare_gradient_axes(tf.reduce_mean, incremental(S), S, dtype, 1e-3, 1e-3)
    end
  end)

  -- reduction_ops_test.py: MeanReductionTest.testEmptyGradients
  it("MeanReductionTest.testEmptyGradients", function() empty_gradients(tf.reduce_mean) end)

  -- reduction_ops_test.py: ProdReductionTest.testGradientWithZeros
  it("ProdReductionTest.testGradientWithZeros", function()
    local x = incremental(S, tf.float32, 20)
    -- No zeros in input
    compare_gradient_axes(tf.reduce_prod, x, S, tf.float32, 1e-3, 1e-3)
    -- x[:, :, k, :] = 0 for the k in `ks` (all of them: all zeros)
    local function zeroed(ks)
      local out = table.move(x, 1, #x, 1, {})
      for i = 1, #out do
        local k = ((i - 1) // 2) % 4
        if ks[k] then out[i] = 0 end
      end
      return out
    end
    compare_gradient_axes(tf.reduce_prod, zeroed({ [0] = true }), S, tf.float32, 1e-3, 1e-3)
    compare_gradient_axes(tf.reduce_prod, zeroed({ [3] = true }), S, tf.float32, 1e-3, 1e-3)
    compare_gradient_axes(tf.reduce_prod, zeroed({ [2] = true }), S, tf.float32, 1e-3, 1e-3)
    compare_gradient_axes(tf.reduce_prod, zeroed({ [0] = true, true, true, true }), S, tf.float32, 1e-3, 1e-3)
  end)

  -- reduction_ops_test.py: ProdReductionTest.testEmptyGradients
  it("ProdReductionTest.testEmptyGradients", function() empty_gradients(tf.reduce_prod) end)

  for _, case in ipairs({ { "Min", tf.reduce_min, 1.0 }, { "Max", tf.reduce_max, -49.0 } }) do
    local name, reduce, start = case[1], case[2], case[3]
    -- x = np.arange(start, start + 48).reshape(s), float64
    local x = {}
    for i = 1, 48 do x[i] = start + i - 1 end
    local function check(axes)
      compare_gradient(reduce, x, S, tf.float64, axes, 1e-8, 1e-8)
    end
    -- reduction_ops_test.py: MinReductionTest.testGradient / MaxReductionTest.testGradient
    it(name .. "ReductionTest.testGradient", function() check({ 1, 2 }) end)
    -- reduction_ops_test.py: MinReductionTest.testGradient2 / MaxReductionTest.testGradient2
    it(name .. "ReductionTest.testGradient2", function() check({ 1 }) end)
    -- reduction_ops_test.py: MinReductionTest.testGradient3 / MaxReductionTest.testGradient3
    it(name .. "ReductionTest.testGradient3", function() check({ 2 }) end)
    -- reduction_ops_test.py: MinReductionTest.testGradient4 / MaxReductionTest.testGradient4
    it(name .. "ReductionTest.testGradient4", function() check("none") end)
    -- reduction_ops_test.py: MinReductionTest.testEmptyGradients / MaxReductionTest.testEmptyGradients
    it(name .. "ReductionTest.testEmptyGradients", function() empty_gradients(reduce) end)
  end
end)

-- tensorflow/python/kernel_tests/math_ops/matmul_op_test.py: MatMulGradientTest,
-- generated for every m, n, k in {1, 3, 5}, each pair of transpose or
-- adjoint options (adjoint is the transpose for real dtypes) and dtype; one
-- case here per dtype and option pair (TF's name less the sizes), looping
-- over the sizes. The complex, integer, float16 and bfloat16 dtypes and the
-- placeholder (non-static-shape) variants are left out, as TF skips the
-- latter three.
describe("matmul_op_test.py", function()
  local TRANS = { { false, false }, { true, false }, { false, true } } -- {adjoint, transpose}
  -- _GetTransposedMatrices: the matrix a product with these options takes.
  local function effective(values, rows, cols, adjoint, transpose, dtype)
    local t = T.tensor(values, { rows, cols }, dtype)
    if adjoint or transpose then return tf.transpose(t) end
    return t
  end
  for _, dtype in ipairs({ tf.float32, tf.float64 }) do
    -- delta = eps ** (1 / 3), tol = 20 * delta
    local eps = dtype == tf.float32 and 2 ^ -23 or 2 ^ -52
    local delta = eps ^ (1 / 3)
    local tol = 20 * delta
    for _, ta in ipairs(TRANS) do
      for _, tb in ipairs(TRANS) do
        local opts = { adjoint_a = ta[1], transpose_a = ta[2], adjoint_b = tb[1], transpose_b = tb[2] }
        local name = ("MatMulGradientTest.test_MatMulGradientTest_True_%s_m_n_k_%s_%s_%s_%s"):format(
          dtype.name, tostring(ta[1]), tostring(ta[2]), tostring(tb[1]), tostring(tb[2]))
        -- matmul_op_test.py: MatMulGradientTest (generated)
        it(name, function()
          for _, m in ipairs({ 1, 3, 5 }) do
            for _, n in ipairs({ 1, 3, 5 }) do
              for _, k in ipairs({ 1, 3, 5 }) do
                local a_np, b_np = {}, {}
                for i, v in ipairs(T.randn_values({ m, k })) do a_np[i] = 5 * v - 5 end
                for i, v in ipairs(T.randn_values({ k, n })) do b_np[i] = 5 * v - 5 end
                local a = effective(a_np, m, k, ta[1], ta[2], dtype)
                local b = effective(b_np, k, n, tb[1], tb[2], dtype)
                T.check_jacobians(function(x) return tf.matmul(x, b, opts) end, { a }, tol, tol, { delta = delta })
                T.check_jacobians(function(x) return tf.matmul(a, x, opts) end, { b }, tol, tol, { delta = delta })
              end
            end
          end
        end)
      end
    end
  end
end)

-- tensorflow/python/kernel_tests/math_ops/cwise_ops_binary_test.py: the
-- gradient halves of BinaryOpTest (_compareGradientX/Y: compute_gradient
-- of 1.1 * f(x, y) for float inputs, with x_init_value and TF1's delta,
-- assertAllClose with 1e-3 for float32 and 1e-5 for float64). Left out:
-- the value comparisons against NumPy (_compareCpu: op tests, not
-- gradients), float16, bfloat16, integer and complex dtypes, and the ops
-- moonflow lacks (atan2, igamma, igammac, zeta, polygamma, xlogy, ...).
describe("cwise_ops_binary_test.py", function()
  local GRAD_TOL = { float32 = 1e-3, float64 = 1e-5 }

  local function compare_gradients(x, y, f)
    local tol = GRAD_TOL[x.dtype.name]
    T.check_jacobians(function(t) return 1.1 * f(t, y) end, { x }, tol, tol, T.V1)
    T.check_jacobians(function(t) return 1.1 * f(x, t) end, { y }, tol, tol, T.V1)
  end

  -- np.linspace(a, b, n) as a flat list.
  local function linspace(a, b, n)
    local out = {}
    for i = 0, n - 1 do out[i + 1] = n == 1 and a or a + i * (b - a) / (n - 1) end
    return out
  end

  local ADD = function(x, y) return x + y end
  local SUB = function(x, y) return x - y end
  local MUL = function(x, y) return x * y end
  local TRUEDIV = function(x, y) return x / y end

  local function basic(dtype)
    local shape = { 1, 3, 5 }
    local x = T.tensor(linspace(-5, 20, 15), shape, dtype)
    local y = T.tensor(linspace(20, -5, 15), shape, dtype)
    -- floordiv has no gradient check in TF (_compareBoth skips it)
    for _, f in ipairs({ tf.add, tf.subtract, tf.multiply, ADD, SUB, MUL }) do compare_gradients(x, y, f) end
    for _, f in ipairs({ tf.truediv, TRUEDIV }) do compare_gradients(x, y + 0.1, f) end
  end

  -- cwise_ops_binary_test.py: BinaryOpTest.testFloatBasic (the gradients)
  it("BinaryOpTest.testFloatBasic", function() basic(tf.float32) end)

  -- cwise_ops_binary_test.py: BinaryOpTest.testDoubleBasic (the gradients)
  it("BinaryOpTest.testDoubleBasic", function() basic(tf.float64) end)

  -- cwise_ops_binary_test.py: BinaryOpTest.testFloatDifferentShapes
  it("BinaryOpTest.testFloatDifferentShapes", function()
    T.eager_and_traced(function()
      local inx = tf.constant({ { 1.0, 2.0 }, { 3.0, 4.0 } })
      local iny = tf.constant({ { 1.0 }, { 2.0 } })
      local tape = tf.GradientTape()
      tape:watch({ inx, iny })
      local s = tf.reduce_sum(inx * iny)
      tape:stop()
      return tape:gradient(s, { inx, iny })
    end, {}, function(_, g)
      -- gx is simply the broadcasted y
      T.equal({ { 1.0, 1.0 }, { 2.0, 2.0 } }, g[1])
      -- gy is x's column summed up
      T.equal({ { 3.0 }, { 7.0 } }, g[2])
    end)
  end)

  -- _compareBCast: x = 1 + linspace(0, 5, size) over each shape.
  local function bcast(xs, ys, funcs)
    for _, dtype in ipairs({ tf.float32, tf.float64 }) do
      for _, f in ipairs(funcs) do
        for _, pair in ipairs({ { xs, ys }, { ys, xs } }) do
          local a, b = pair[1], pair[2]
          local av, bv = linspace(0, 5, T.count_elements(a)), linspace(0, 5, T.count_elements(b))
          for i = 1, #av do av[i] = av[i] + 1 end
          for i = 1, #bv do bv[i] = bv[i] + 1 end
          compare_gradients(T.tensor(av, a, dtype), T.tensor(bv, b, dtype), f)
        end
      end
    end
  end
  local FUNCS = {
    A = { tf.add, ADD },
    B = { tf.subtract, SUB, tf.pow },
    C = { tf.multiply, MUL },
    D = { tf.truediv, TRUEDIV }, -- floordiv has no gradient check in TF
  }
  local SHAPES = {
    { { 1, 3, 2 }, { 1 } }, { { 1, 3, 2 }, { 2 } }, { { 1, 3, 2 }, { 3, 2 } }, { { 1, 3, 2 }, { 3, 1 } },
    { { 1, 3, 2 }, { 1, 3, 2 } }, { { 1, 3, 2 }, { 2, 3, 1 } }, { { 1, 3, 2 }, { 2, 1, 1 } },
    { { 1, 3, 2 }, { 1, 3, 1 } }, { { 2, 1, 5 }, { 2, 3, 1 } }, { { 2, 0, 5 }, { 2, 0, 1 } },
    { { 2, 3, 0 }, { 2, 3, 1 } }, { { 1, 3, 2 }, { 1, 3, 2 } }, { { 1, 1, 1, 1, 3, 2 }, { 1, 3, 2 } },
    { { 1, 3, 2, 1, 1 }, { 1 } }, { { 2, 3, 1, 1, 5 }, { 1 } }, { { 10, 3, 1, 2 }, { 3, 1, 2 } },
  }
  for k, shapes in ipairs(SHAPES) do
    for _, letter in ipairs({ "A", "B", "C", "D" }) do
      local name = ("BinaryOpTest.testBCast_%d%s"):format(k - 1, letter)
      -- cwise_ops_binary_test.py: BinaryOpTest.testBCast_<n><A-D> (the gradients)
      it(name, function() bcast(shapes[1], shapes[2], FUNCS[letter]) end)
    end
  end

  -- cwise_ops_binary_test.py: BinaryOpTest.testZeroPowGrad (real dtypes)
  it("BinaryOpTest.testZeroPowGrad", function()
    for _, dtype in ipairs({ tf.float32, tf.float64 }) do
      local x = tf.constant(0.0, dtype)
      -- y = constant(2.0): the checker feeds a random_sample value
      local y = T.rand({}, dtype)
      local e1, e2 = T.check_gradient(function(t) return tf.pow(x, t) end, { y }, 1e-300, T.V1)
      assert.are.equal(0, e1)
      assert.are.equal(0, e2)
    end
  end)
end)

describe("topk_op_test.py", function()
  -- topk_op_test.py: TopKTest.testTopKGradients (a TF1 graph: traced, and eagerly)
  it("TopKTest.testTopKGradients", function()
    T.eager_and_traced(function(inputs)
      local tape = tf.GradientTape()
      tape:watch(inputs)
      local values = tf.math.top_k(inputs, 3)
      tape:stop()
      return tape:gradient(values, inputs, tf.constant({ { 1.0, 2.0, 3.0 }, { 4.0, 5.0, 6.0 } }))
    end, { tf.constant({ { 2.0, -1.0, 1000.0, 3.0, 4.0 }, { 1.0, 5.0, 2.0, 4.0, 3.0 } }) }, function(_, grad)
      assert.are.same({ { 0.0, 0.0, 1.0, 3.0, 2.0 }, { 0.0, 4.0, 0.0, 5.0, 6.0 } }, grad:numpy())
    end)
  end)
end)

-- tensorflow/python/kernel_tests/linalg/einsum_op_test.py: EinsumGradTest.
-- gen_linalg_ops.einsum(xs, s), the raw op, is the Einsum op called through
-- moonflow's op handles (tf.einsum, like TF's wrapper, refuses "->").
-- Left out: the complex dtypes.
describe("einsum_op_test.py", function()
  local core = require("moonflow.core")
  local OP = require("moonflow.state").H
  local function gen_einsum(s, ...) return core.op(OP.Einsum, { equation = s }, ...) end

  -- _check_gradient: max_error(compute_gradient) < 10 * sqrt(resolution).
  local function check_gradient(s, ...)
    local shapes = { ... }
    for _, dtype in ipairs({ tf.float32, tf.float64 }) do
      local tol = 10 * math.sqrt(dtype == tf.float32 and 1e-6 or 1e-15)
      local inputs = {}
      for i, shape in ipairs(shapes) do inputs[i] = T.randn(shape, dtype) end
      T.check_gradient(function(...) return gen_einsum(s, ...) end, inputs, tol)
    end
  end

  -- einsum_op_test.py: EinsumGradTest.testUnary
  it("EinsumGradTest.testUnary", function()
    check_gradient("->", {})
    check_gradient("aaa->a", { 3, 3, 3 })
    check_gradient("aabcd->ad", { 3, 3, 5, 4, 4 })
    check_gradient("aabcd->add", { 3, 3, 5, 4, 4 })
    check_gradient("abcd->da", { 3, 5, 4, 2 })
  end)

  -- einsum_op_test.py: EinsumGradTest.testUnaryEllipsis
  it("EinsumGradTest.testUnaryEllipsis", function()
    check_gradient("...->...", {})
    check_gradient("...->", {})
    check_gradient("->...", {})
    -- Tests from dask
    check_gradient("a...a->a...", { 2, 2 })
    check_gradient("a...a->", { 2, 2 })
    check_gradient("a...a->...", { 2, 5, 1, 2 })
    check_gradient("a...a->a...", { 2, 1, 2 })
    check_gradient("a...a->a...", { 2, 3, 4, 5, 2 })
    check_gradient("...ijk->...ki", { 3, 4, 5 })
    check_gradient("...ijk->...ki", { 1, 3, 4, 5 })
    check_gradient("...ijk->...ki", { 2, 2, 3, 4, 5 })
    check_gradient("ab...cd->da...", { 3, 5, 2, 3, 4, 2 })
  end)

  -- einsum_op_test.py: EinsumGradTest.testBinarySimple
  it("EinsumGradTest.testBinarySimple", function()
    check_gradient(",->", {}, {})
    check_gradient("a,a->", { 3 }, { 3 })
    check_gradient("a,a->a", { 3 }, { 3 })
    check_gradient("ab,b->a", { 3, 4 }, { 4 })
    check_gradient("ab,ab->", { 3, 4 }, { 3, 4 })
    check_gradient("ab,bc->ac", { 3, 4 }, { 4, 5 })
    check_gradient("nij,jk->nik", { 5, 2, 3 }, { 3, 4 })
    check_gradient("abc,bad->abcd", { 1, 2, 3 }, { 2, 1, 4 })
    -- Based on https://github.com/google/jax/issues/37#issuecomment-448572187
    check_gradient("sa,shb->shab", { 2, 1 }, { 2, 3, 4 })
  end)

  -- einsum_op_test.py: EinsumGradTest.testEmpty
  it("EinsumGradTest.testEmpty", function()
    -- From Transformer XL.
    check_gradient("ibnd,ijbn->jnd", { 1, 0, 5, 10 }, { 1, 1, 0, 5 })
  end)

  -- einsum_op_test.py: EinsumGradTest.testReducedIndices
  it("EinsumGradTest.testReducedIndices", function()
    check_gradient("ba,b->", { 3, 2 }, { 3 })
    check_gradient("ab,ab->", { 3, 4 }, { 3, 4 })
    check_gradient("ijkm,ijln->ijmn", { 2, 3, 3, 4 }, { 2, 3, 3, 2 })
    check_gradient("abce,badf->abcd", { 1, 2, 3, 4 }, { 2, 1, 4, 3 })
  end)

  -- einsum_op_test.py: EinsumGradTest.testReducedIndicesWithRepeatedLabels
  it("EinsumGradTest.testReducedIndicesWithRepeatedLabels", function()
    check_gradient("abce,badf->bcba", { 1, 2, 3, 4 }, { 2, 1, 4, 3 })
  end)

  -- einsum_op_test.py: EinsumGradTest.testRepeatedLabels
  it("EinsumGradTest.testRepeatedLabels", function()
    check_gradient("aba,a->b", { 3, 4, 3 }, { 3 })
    check_gradient("ijj,k->ik", { 2, 3, 3 }, { 4 })
    check_gradient("ill,k->ik", { 2, 3, 3 }, { 4 })
    -- From https://github.com/dask/dask/pull/3412#discussion_r182413444
    check_gradient("aab,bc->ac", { 1, 1, 3 }, { 3, 4 })
    check_gradient("aab,bcc->ac", { 2, 2, 3 }, { 3, 4, 4 })
  end)

  -- einsum_op_test.py: EinsumGradTest.testEmptyWithRepeatedLabels
  it("EinsumGradTest.testEmptyWithRepeatedLabels", function()
    check_gradient("aab,bc->ac", { 0, 0, 10 }, { 10, 10 })
    check_gradient("aab,bc->ac", { 1, 1, 0 }, { 0, 10 })
    check_gradient("aaab,bc->c", { 0, 0, 0, 3 }, { 3, 4 })
  end)

  -- einsum_op_test.py: EinsumGradTest.testBroadcasting
  it("EinsumGradTest.testBroadcasting", function()
    check_gradient("...ij,...jk->...ik", { 3, 2 }, { 2, 4 })
    check_gradient("ij...,jk...->ik...", { 3, 2, 1 }, { 2, 4 })
    check_gradient("...ij,...jk->...ik", { 3, 1, 3, 2 }, { 1, 5, 2, 4 })
    check_gradient("i...j,j...k->i...k", { 3, 1, 2, 2 }, { 2, 2, 3, 1, 4 })
  end)

  -- einsum_op_test.py: EinsumGradTest.testBroadcastingWithRepeatedLabels
  it("EinsumGradTest.testBroadcastingWithRepeatedLabels", function()
    check_gradient("ij,jk...k->i...", { 3, 2 }, { 2, 4, 1, 4 })
    check_gradient("aab,b...c->a...c", { 1, 1, 3 }, { 3, 1, 1, 4 })
  end)
end)

-- tensorflow/python/kernel_tests/linalg/linalg_grad_test.py: ShapeTest and
-- the generated MatrixSolveGradient cases of MatrixBinaryFunctorGradientTest
-- (one case here per dtype and size, looping over the batch shapes and
-- adjoint). Left out: MatrixTriangularSolve, BandedTriangularSolve and
-- MatrixSolveLs (moonflow has no such ops); TF itself disables the unary
-- cases.
describe("linalg_grad_test.py", function()
  -- linalg_grad_test.py: ShapeTest.testBatchGradientUnknownSize
  it("ShapeTest.testBatchGradientUnknownSize", function()
    local f = tf.func(function(batch_size, matrix_size)
      -- array_ops.diag(ones([n])) is tf.eye(n) (moonflow has no tf.linalg.diag)
      local batch_identity = tf.tile(tf.expand_dims(tf.eye(matrix_size), 0), tf.stack({ batch_size, 1, 1 }))
      local tape = tf.GradientTape()
      tape:watch(batch_identity)
      local determinants = tf.linalg.det(batch_identity)
      local reduced = tf.reduce_sum(determinants)
      tape:stop()
      return batch_identity, tape:gradient(reduced, batch_identity)
    end, { input_signature = { tf.TensorSpec({}, tf.int32), tf.TensorSpec({}, tf.int32) } })
    local batch_identity, sum_grad = f(tf.constant(3), tf.constant(4))
    T.equal(T.plain(batch_identity), sum_grad)
  end)

  -- _GetMatrixBinaryFunctorGradientTest(linalg_ops.matrix_solve, ...):
  -- RandomInput() draws the same seeded matrix each time, so the fixed
  -- argument and the differentiated one hold equal values (as separate
  -- tensors).
  for _, dtype in ipairs({ tf.float32, tf.float64 }) do
    for _, size in ipairs({ 2, 5, 10 }) do
      -- linalg_grad_test.py: MatrixBinaryFunctorGradientTest.test_MatrixSolveGradient_<dtype>_<shape>_adj_<adjoint>
      it(("MatrixBinaryFunctorGradientTest.test_MatrixSolveGradient_%s_*_%d_%d_adj_*"):format(dtype.name, size, size),
        function()
          local extras = { {}, { 2 }, { 3 } }
          -- We skip the rank 4, size 10 case: it is slow and conceptually
          -- covered by the other cases.
          if size < 10 then extras[#extras + 1] = { 3, 2 } end
          local eps = dtype == tf.float32 and 2 ^ -23 or 2 ^ -52
          local delta = eps ^ (1 / 3)
          local tol = dtype == tf.float64 and 1e-6 or 0.05
          for _, extra in ipairs(extras) do
            local shape = table.move(extra, 1, #extra, 1, {})
            shape[#shape + 1], shape[#shape + 2] = size, size
            -- np.random.seed(1); np.random.uniform(-1, 1, size)
            T.seed(1)
            local values = {}
            for i, r in ipairs(T.rand_values(shape)) do values[i] = 2 * r - 1 end
            local function random_input() return T.tensor(values, shape, dtype) end
            local fixed = random_input()
            for _, adjoint in ipairs({ false, true }) do
              T.check_jacobians(function(x) return tf.linalg.solve(x, fixed, adjoint) end, { random_input() }, tol, tol,
                { delta = delta })
              T.check_jacobians(function(y) return tf.linalg.solve(fixed, y, adjoint) end, { random_input() }, tol, tol,
                { delta = delta })
            end
          end
        end)
    end
  end
end)

-- math_grad_test.py Xlog1pyTest: gradients(xlog1py(x, y)) wrt x and y,
-- eagerly and traced (run_deprecated_v1's graph gradients); float16 left
-- out (moonflow has none).
describe("math_grad_test.py Xlog1pyTest", function()
  local function grads(x, y)
    local tape <close> = tf.GradientTape({ persistent = true })
    tape:watch(x)
    tape:watch(y)
    local z = tf.math.xlog1py(x, y)
    return tape:gradient(z, x), tape:gradient(z, y)
  end
  local function both(x, y, check)
    for _, dtype in ipairs({ tf.float32, tf.float64 }) do
      local a, b = tf.constant(x, dtype), tf.constant(y, dtype)
      T.eager_and_traced(grads, { a, b }, check)
    end
  end
  it("testNonZeroValuesGrad", function()
    both(0.1, 3.1, function(_, gx, gy)
      T.equal(T.plain(tf.math.log1p(tf.cast(3.1, gx.dtype))), gx)
      T.equal(T.plain(tf.cast(0.1, gx.dtype) / (1 + tf.cast(3.1, gx.dtype))), gy)
    end)
  end)
  it("testZeroXGrad", function()
    both(0.0, 3.1, function(_, gx, gy)
      T.equal(0.0, gx)
      T.equal(0.0, gy)
    end)
  end)
  it("testNegOneYGrad", function()
    both(0.1, -1.0, function(_, gx, gy)
      assert.are.equal(-math.huge, gx:numpy())
      assert.are.equal(math.huge, gy:numpy())
    end)
  end)
  it("testZeroXNegOneYGrad", function()
    both(0.0, -1.0, function(_, gx, gy)
      T.equal(0.0, gx)
      T.equal(0.0, gy)
    end)
  end)
end)
