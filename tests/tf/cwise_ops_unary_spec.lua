-- cwise_ops_unary_spec.lua — tensorflow/python/kernel_tests/math_ops/
-- cwise_ops_unary_test.py (UnaryOpTest), ported for the unary ops moonflow
-- has: abs, negative (and unary -), reciprocal, square, sqrt, rsqrt, exp,
-- expm1, log, log1p, tanh, sigmoid, sign, sin, cos, sinh, cosh, asinh,
-- acosh, atanh, log_sigmoid, asin, acos, atan, tan, lgamma, erf, erfc,
-- bessel_i0e, bessel_i1e.
--
-- Translation: _compareBoth runs the op on the CPU and the GPU; here
-- _compareCpu's checks run eagerly and inside a tf.func: the value is
-- assertAllClose's (rtol = atol = 1e-6) to the NumPy function computed in
-- Lua doubles, the static shape is the input's, and for float inputs
-- the TF1 gradient checker's Jacobians (delta 1e-3 for float32, 1e-5 for
-- float64; tolerance 1e-3 / 1e-5) agree, as T.check_jacobians (eager and
-- traced tapes). Integer inputs check values only, as TF does.
--
-- Left out:
-- - (nothing of the ops: bessel_i0e and bessel_i1e, whose references
--   are SciPy's special.i0e / i1e, are computed here by their power
--   series, within 1e-15 on these inputs.) lgamma, erf and erfc's NumPy
--   references are Python's math functions, computed here in Lua (a
--   Lanczos lgamma, erf's Taylor series: within 1e-13 on these inputs).
-- - _ABS (Python's abs() on a tensor): Lua has no abs operator or
--   metamethod, so it is tf.abs again.
-- - _compareBothSparse: moonflow has no SparseTensor.
-- - dtypes moonflow lacks: testHalfBasic (float16), testBFloat16Basic,
--   testInt8Basic, testUInt8Basic, testInt16Basic, testUInt16Basic,
--   testUInt32Basic, testUInt64Basic, testComplex64Basic,
--   testComplex128Basic, testComplexAbsGradGrad.
-- - testGradGrad's reciprocal_grad: moonflow has no ReciprocalGrad op
--   (reciprocal's gradient is -dy * y * y, the same values); the raw
--   RsqrtGrad, SigmoidGrad, SqrtGrad and TanhGrad run through moonflow's
--   op handles, as math_grad_spec.lua calls the raw Einsum op; complex
--   dtypes are left out.

local tf = tf or require("moonflow")
local T = require("tfhelpers")

local function to_float32(v) return (string.unpack("f", string.pack("f", v))) end

-- np.arange(start, stop, step).astype(dtype), reshaped to `shape` (flat).
local function arange(start, stop, step, dtype)
  local out = {}
  local n = math.ceil((stop - start) / step)
  for i = 0, n - 1 do
    local v = start + i * step
    if dtype == tf.float32 then v = to_float32(v + 0.0)
    elseif dtype == tf.float64 then v = v + 0.0 end
    out[#out + 1] = v
  end
  return out
end

local function map(list, fn, dtype)
  local out = {}
  for i, v in ipairs(list) do
    local r = fn(v)
    if dtype == tf.float32 then r = to_float32(r) end
    out[i] = r
  end
  return out
end

local function sign(v)
  if v > 0 then return math.tointeger(v) and 1 or 1.0 end
  if v < 0 then return math.tointeger(v) and -1 or -1.0 end
  return v
end

-- The NumPy functions, on Lua numbers.
local np = {
  abs = function(v) return math.abs(v) end,
  negative = function(v) return -v end,
  inv = function(v) return 1.0 / v end,
  square = function(v) return v * v end,
  sqrt = math.sqrt,
  rsqrt = function(v) return 1.0 / math.sqrt(v) end,
  exp = math.exp,
  expm1 = function(v) return math.exp(v) - 1 end,
  log = math.log,
  log1p = function(v) return math.log(1 + v) end,
  tanh = function(v)
    if v > 20 then return 1.0 elseif v < -20 then return -1.0 end
    local e = math.exp(2 * v)
    return (e - 1) / (e + 1)
  end,
  sigmoid = function(v) return 1.0 / (1.0 + math.exp(-v)) end,
  sign = sign,
  sin = math.sin,
  cos = math.cos,
  sinh = function(v) return (math.exp(v) - math.exp(-v)) / 2 end,
  cosh = function(v) return (math.exp(v) + math.exp(-v)) / 2 end,
  tan = math.tan,
  arcsin = math.asin,
  arccos = math.acos,
  arctan = function(v) return math.atan(v) end,
  arcsinh = function(v)
    local a = math.abs(v)
    local r = math.log(a + math.sqrt(a * a + 1))
    return v < 0 and -r or r
  end,
  arccosh = function(v) return math.log(v + math.sqrt(v * v - 1)) end,
  arctanh = function(v) return 0.5 * math.log((1 + v) / (1 - v)) end,
  log_sigmoid = function(v) return -math.log(1 + math.exp(-v)) end,
}

-- math.erf by its Taylor series (|x| <= 3 here), math.erfc as 1 - erf.
function np.erf(v)
  local sum, term, n = 0.0, v, 0
  repeat
    local add = term / (2 * n + 1)
    sum = sum + add
    n = n + 1
    term = -term * v * v / n
  until math.abs(add) < 1e-17 * math.abs(sum) or n > 200
  return 2 / math.sqrt(math.pi) * sum
end
function np.erfc(v) return 1 - np.erf(v) end

-- scipy.special.i0e / i1e: e^-|x| times the power series of I0 and I1.
local function bessel_i(order, v)
  local h, sum, term, k = v / 2, 0.0, order == 0 and 1.0 or v / 2, 0
  repeat
    sum = sum + term
    k = k + 1
    term = term * h * h / (k * (k + order))
  until math.abs(term) < 1e-18 * math.abs(sum) or k > 200
  return sum * math.exp(-math.abs(v))
end
function np.i0e(v) return bessel_i(0, v) end
function np.i1e(v) return bessel_i(1, v) end

-- math.lgamma by Lanczos's approximation (g = 7, 9 terms) and the
-- reflection formula; _replace_domain_error_with_inf's inf at the poles.
local LANCZOS = { 0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
  -176.61503916999185, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
  1.5056327351493116e-7 }
function np.lgamma(v)
  if v <= 0 and v == math.floor(v) then return math.huge end
  if v < 0.5 then return math.log(math.pi / math.abs(math.sin(math.pi * v))) - np.lgamma(1 - v) end
  local x = v - 1
  local a = LANCZOS[1]
  local t = x + 7.5
  for i = 2, 9 do a = a + LANCZOS[i] / (x + i - 1) end
  return 0.5 * math.log(2 * math.pi) + (x + 0.5) * math.log(t) - t + math.log(a)
end

local neg_operator = function(x) return -x end

-- _compareCpu(x, np_func, tf_func): x is flat `values` of `shape` and
-- `dtype`.
local function compare(values, shape, dtype, np_func, tf_func)
  local x = T.tensor(values, shape, dtype)
  local expected = map(values, np_func, dtype)
  T.eager_and_traced(function() return tf_func(x) end, {}, function(mode, y)
    assert.are.equal(dtype, y.dtype, mode)
    assert.are.same(shape, y.shape:as_list(), mode)
    if #expected > 0 then
      T.equal(expected, tf.reshape(y, { -1 }), dtype.is_integer and 0 or 1e-6)
    end
  end)
  if dtype.is_integer or #values == 0 then return end
  local tol = dtype == tf.float32 and 1e-3 or 1e-5
  local delta = dtype == tf.float32 and 1e-3 or 1e-5
  T.check_jacobians(tf_func, { x }, tol, tol, { delta = delta })
end

-- The inputs of testFloatBasic / testDoubleBasic: x = arange(-3, 3) of
-- shape (1, 3, 2); y = x + 0.5 (no zero); z = x + 15.5 (all positive).
local function basic_inputs(dtype)
  local x = arange(-3, 3, 1, dtype)
  local y = map(x, function(v) return v + 0.5 end, dtype)
  local z = map(x, function(v) return v + 15.5 end, dtype)
  return x, y, z
end

local function float_basic(dtype)
  local x, y, z = basic_inputs(dtype)
  -- w = x - x.min() + 1.02 (all above 1); k = arange(-0.90, 0.90, 0.25)
  -- (inside (-1, 1))
  local w = map(x, function(v) return v + 3 + 1.02 end, dtype)
  local k = arange(-0.90, 0.90, 0.25, dtype)
  local s = { 1, 3, 2 }
  compare(x, s, dtype, np.abs, tf.abs)
  compare(x, s, dtype, np.abs, tf.math.abs)
  compare(x, s, dtype, np.negative, tf.negative)
  compare(x, s, dtype, np.negative, neg_operator)
  compare(y, s, dtype, np.inv, tf.math.reciprocal)
  compare(x, s, dtype, np.square, tf.square)
  compare(z, s, dtype, np.sqrt, tf.sqrt)
  compare(z, s, dtype, np.rsqrt, tf.math.rsqrt)
  compare(x, s, dtype, np.exp, tf.exp)
  compare(x, s, dtype, np.expm1, tf.math.expm1)
  compare(z, s, dtype, np.log, tf.math.log)
  compare(z, s, dtype, np.log1p, tf.math.log1p)
  compare(x, s, dtype, np.tanh, tf.tanh)
  compare(x, s, dtype, np.sigmoid, tf.sigmoid)
  compare(y, s, dtype, np.sign, tf.sign)
  compare(x, s, dtype, np.sin, tf.sin)
  compare(x, s, dtype, np.cos, tf.cos)
  compare(x, s, dtype, np.sinh, tf.math.sinh)
  compare(x, s, dtype, np.cosh, tf.math.cosh)
  compare(x, s, dtype, np.arcsinh, tf.math.asinh)
  compare(w, s, dtype, np.arccosh, tf.math.acosh)
  compare(k, { #k }, dtype, np.arctanh, tf.math.atanh)
  compare(x, s, dtype, np.log_sigmoid, tf.math.log_sigmoid)
  compare(k, { #k }, dtype, np.arcsin, tf.math.asin)
  compare(k, { #k }, dtype, np.arccos, tf.math.acos)
  compare(x, s, dtype, np.arctan, tf.math.atan)
  compare(x, s, dtype, np.tan, tf.math.tan)
  compare(y, s, dtype, np.lgamma, tf.math.lgamma)
  compare(x, s, dtype, np.erf, tf.math.erf)
  compare(x, s, dtype, np.erfc, tf.math.erfc)
  compare(x, s, dtype, np.i0e, tf.math.bessel_i0e)
  compare(x, s, dtype, np.i1e, tf.math.bessel_i1e)
end

describe("cwise_ops_unary_test.py", function()
  it("UnaryOpTest.testFloatBasic", function() float_basic(tf.float32) end)

  it("UnaryOpTest.testFloatTanhEdge", function()
    compare(arange(40, 46, 1, tf.float32), { 6 }, tf.float32, np.tanh, tf.tanh)
    compare(arange(-40, -34, 1, tf.float32), { 6 }, tf.float32, np.tanh, tf.tanh)
  end)

  it("UnaryOpTest.testFloatEmpty", function()
    local s = { 2, 0, 5 }
    for _, pair in ipairs({
      { np.abs, tf.abs }, { np.negative, tf.negative }, { np.negative, neg_operator },
      { np.inv, tf.math.reciprocal }, { np.square, tf.square }, { np.sqrt, tf.sqrt },
      { np.rsqrt, tf.math.rsqrt }, { np.exp, tf.exp }, { np.expm1, tf.math.expm1 }, { np.log, tf.math.log },
      { np.log1p, tf.math.log1p }, { np.tanh, tf.tanh }, { np.sigmoid, tf.sigmoid },
      { np.sign, tf.sign }, { np.sin, tf.sin }, { np.cos, tf.cos },
      { np.sinh, tf.math.sinh }, { np.cosh, tf.math.cosh }, { np.arcsinh, tf.math.asinh },
      { np.arccosh, tf.math.acosh }, { np.arctanh, tf.math.atanh }, { np.log_sigmoid, tf.math.log_sigmoid },
      { np.arcsin, tf.math.asin }, { np.arccos, tf.math.acos }, { np.arctan, tf.math.atan },
      { np.tan, tf.math.tan }, { np.lgamma, tf.math.lgamma }, { np.erf, tf.math.erf }, { np.erfc, tf.math.erfc },
      { np.i0e, tf.math.bessel_i0e }, { np.i1e, tf.math.bessel_i1e },
    }) do
      compare({}, s, tf.float32, pair[1], pair[2])
    end
  end)

  it("UnaryOpTest.testDoubleBasic", function() float_basic(tf.float64) end)

  it("UnaryOpTest.testInt32Basic", function()
    local x, s = arange(-6, 6, 2, tf.int32), { 1, 3, 2 }
    compare(x, s, tf.int32, np.abs, tf.abs)
    compare(x, s, tf.int32, np.negative, tf.negative)
    compare(x, s, tf.int32, np.negative, neg_operator)
    compare(x, s, tf.int32, np.square, tf.square)
    compare(x, s, tf.int32, np.sign, tf.sign)
  end)

  it("UnaryOpTest.testInt64Basic", function()
    local x, s = arange(-6 << 40, 6 << 40, 2 << 40, tf.int64), { 1, 3, 2 }
    compare(x, s, tf.int64, np.abs, tf.abs)
    compare(x, s, tf.int64, np.negative, tf.negative)
    compare(x, s, tf.int64, np.negative, neg_operator)
    compare(x, s, tf.int64, np.sign, tf.sign)
  end)

  it("UnaryOpTest.testGradGrad", function()
    local core = require("moonflow.core")
    local OP = require("moonflow.state").H
    T.seed(7)
    local function rand(dtype, lo, hi)
      local u = T.rand_values({ 5 })
      for i, v in ipairs(u) do u[i] = lo + (hi - lo) * v end
      return tf.constant(u, dtype)
    end
    for _, case in ipairs({
      { OP.RsqrtGrad, 0.1, 3 }, { OP.SigmoidGrad, -2, 2 },
      { OP.SqrtGrad, 0.1, 3 }, { OP.TanhGrad, -2, 2 },
    }) do
      local h, lo, hi = case[1], case[2], case[3]
      for _, dt in ipairs({ { tf.float32, 5e-4 }, { tf.float64, 1e-6 } }) do
        local dtype, tol = dt[1], dt[2]
        T.check_jacobians(function(x, y) return core.op(h, nil, x, y) end,
          { rand(dtype, lo, hi), rand(dtype, lo, hi) }, tol, tol, T.V1)
      end
    end
  end)

  it("UnaryOpTest.testInt64Square", function()
    local x = arange(-6 << 20, 6 << 20, 2 << 20, tf.int64)
    compare(x, { 1, 3, 2 }, tf.int64, np.square, tf.square)
  end)
end)
