-- elementwise.lua — the gradients of the elementwise ops
-- (core/ops/ops_elementwise.c): TF's math_grad.py and nn_grad.py written in
-- ops. A rule is rule(node, dys, present, skip) -> {dx per input}, where
-- node = {inputs=, outputs=, attrs=}, dys[i] is the gradient of output i
-- (never nil: missing ones are zeros), present[i] says whether output i
-- received a gradient at all, and skip[k] that nobody wants input k's.

local core = require("moonflow.core")
local state = require("moonflow.state")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
-- ops.lua's table with ops_math.lua's additions (divide_no_nan)
local ops = require("moonflow.ops")
local helpers = require("moonflow.grad.helpers")

local H = state.H
local op = core.op
local static_shape = shapes.static
local unbroadcast, same_static = helpers.unbroadcast, helpers.same_static
local dtype_of = core.dtype

local rules = {}

-- Binary ops with broadcasting ------------------------------------------------
-- skip[k] (tape.lua's unneeded): input k's gradient is wanted by nobody.
-- As TF's math_grad.py, these rules then leave its work out, and answer
-- early for a scalar second input nobody wants.
local function is_scalar(x)
  local sx = static_shape(x)
  return sx ~= nil and #sx == 0
end

-- TF's _ShapesFullySpecifiedAndEqual(x, y, grad).
local function fully_equal(x, y, g)
  local sx = static_shape(x)
  if not sx then return false end
  for _, d in ipairs(sx) do if d < 0 then return false end end
  return same_static(x, y) and same_static(x, g)
end

-- unbroadcast(f(), x) unless x is skipped (f makes the gradient's ops).
local function wanted(skip, k, f, x)
  if skip and skip[k] then return nil end
  return unbroadcast(f(), x)
end

rules.AddV2 = function(n, dy, _, skip)
  local x, y = n.inputs[1], n.inputs[2]
  if dtype_of(x) == dtypes.string then return {} end
  local g = dy[1]
  if skip and skip[2] and is_scalar(y) then return { g } end
  if fully_equal(x, y, g) then return { g, g } end
  local function grad() return g end
  return { wanted(skip, 1, grad, x), wanted(skip, 2, grad, y) }
end
rules.Sub = function(n, dy, _, skip)
  local x, y = n.inputs[1], n.inputs[2]
  local g = dy[1]
  if skip and skip[2] and is_scalar(y) then return { g } end
  if fully_equal(x, y, g) then return { g, -g } end
  return { wanted(skip, 1, function() return g end, x), wanted(skip, 2, function() return -g end, y) }
end
rules.Mul = function(n, dy, _, skip)
  local x, y = n.inputs[1], n.inputs[2]
  local g = dy[1]
  if skip and skip[2] and is_scalar(y) then return { g * y } end
  return { wanted(skip, 1, function() return g * y end, x), wanted(skip, 2, function() return g * x end, y) }
end
-- math_grad.py _RealDivGrad: grad / y and grad * ((-x / y) / y).
rules.RealDiv = function(n, dy)
  local x, y = n.inputs[1], n.inputs[2]
  return { unbroadcast(ops.divide(dy[1], y), x), unbroadcast(dy[1] * ((-x / y) / y), y) }
end
rules.FloorMod = function(n, dy)
  local x, y = n.inputs[1], n.inputs[2]
  if not dtype_of(x).is_floating then return {} end
  return { unbroadcast(dy[1], x), unbroadcast(-dy[1] * ops.floor(x / y), y) }
end
rules.Pow = function(n, dy, _, skip)
  local x, y, z = n.inputs[1], n.inputs[2], n.outputs[1]
  local function gx() return dy[1] * y * ops.pow(x, y - 1) end
  if skip and skip[2] and is_scalar(y) then return { gx() } end
  local function gy()
    local safe = ops.where(ops.greater(x, 0), x, ops.ones_like(x))
    return dy[1] * z * ops.where(ops.greater(x, 0), ops.log(safe), ops.zeros_like(x))
  end
  return { wanted(skip, 1, gx, x), wanted(skip, 2, gy, y) }
end
local function minmax(cmp)
  return function(n, dy, _, skip)
    local x, y = n.inputs[1], n.inputs[2]
    local pick = cmp(x, y)
    local zeros = ops.zeros_like(dy[1])
    -- TF's _MaximumMinimumGradInputOnly: no sum down to x's shape.
    if skip and skip[2] and is_scalar(y) then return { ops.where(pick, dy[1], zeros) } end
    return { wanted(skip, 1, function() return ops.where(pick, dy[1], zeros) end, x),
      wanted(skip, 2, function() return ops.where(pick, zeros, dy[1]) end, y) }
  end
end
rules.Maximum = minmax(ops.greater_equal)
rules.Minimum = minmax(ops.less_equal)
rules.SelectV2 = function(n, dy)
  local c, t, e = n.inputs[1], n.inputs[2], n.inputs[3]
  local zeros = ops.zeros_like(dy[1])
  return { nil, unbroadcast(ops.where(c, dy[1], zeros), t), unbroadcast(ops.where(c, zeros, dy[1]), e) }
end

-- math_grad.py _DivNoNanGrad
rules.DivNoNan = function(n, dy)
  local x, y = n.inputs[1], n.inputs[2]
  local dnn = ops.math.divide_no_nan
  return { unbroadcast(dnn(dy[1], y), x), unbroadcast(ops.multiply(dy[1], dnn(dnn(-x, y), y)), y) }
end
-- math_grad.py _SquaredDifferenceGrad
rules.SquaredDifference = function(n, dy, _, skip)
  local x, y = n.inputs[1], n.inputs[2]
  local gx = ops.multiply(ops.multiply(dy[1], 2), ops.subtract(x, y))
  if fully_equal(x, y, dy[1]) then return { gx, -gx } end
  return { not (skip and skip[1]) and unbroadcast(gx, x) or nil,
    not (skip and skip[2]) and unbroadcast(-gx, y) or nil }
end

-- Elementwise unary ops ----------------------------------------------------
rules.Neg = function(_, dy) return { -dy[1] } end
rules.Abs = function(n, dy) return { dy[1] * ops.sign(n.inputs[1]) } end
-- The unary rules compute what math_grad.py's do, with its ops: a traced
-- backward pass holds SqrtGrad, RsqrtGrad and Reciprocal where TF's does.
rules.Square = function(n, dy) return { dy[1] * (n.inputs[1] * 2) } end
rules.Sqrt = function(n, dy) return { op(H.SqrtGrad, nil, n.outputs[1], dy[1]) } end
rules.Rsqrt = function(n, dy) return { op(H.RsqrtGrad, nil, n.outputs[1], dy[1]) } end
rules.Exp = function(n, dy) return { dy[1] * n.outputs[1] } end
rules.Log = function(n, dy) return { dy[1] * ops.math.reciprocal(n.inputs[1]) } end
rules.Log1p = function(n, dy) return { dy[1] * ops.math.reciprocal(1 + n.inputs[1]) } end
-- d/dx (e^x - 1) = e^x; TF's _Expm1Grad.
rules.Expm1 = function(n, dy) return { dy[1] * ops.exp(n.inputs[1]) } end
rules.Sin = function(n, dy) return { dy[1] * ops.cos(n.inputs[1]) } end
rules.Cos = function(n, dy) return { -dy[1] * ops.sin(n.inputs[1]) } end
rules.Tanh = function(n, dy) return { op(H.TanhGrad, nil, n.outputs[1], dy[1]) } end
rules.Sigmoid = function(n, dy) return { op(H.SigmoidGrad, nil, n.outputs[1], dy[1]) } end
rules.Reciprocal = function(n, dy)
  local y = n.outputs[1]
  return { -dy[1] * y * y }
end
rules.Relu = function(n, dy) return { op(H.ReluGrad, nil, dy[1], n.outputs[1]) } end
-- Second order: the helpers' own gradients.
rules.TanhGrad = function(n, g)
  local y, dy = n.inputs[1], n.inputs[2]
  return { -2 * g[1] * dy * y, g[1] * (1 - y * y) }
end
rules.SigmoidGrad = function(n, g)
  local y, dy = n.inputs[1], n.inputs[2]
  return { g[1] * dy * (1 - 2 * y), g[1] * y * (1 - y) }
end
rules.ReluGrad = function(n, g)
  local features = n.inputs[2]
  return { op(H.ReluGrad, nil, g[1], features), ops.zeros_like(features) }
end
-- RsqrtGrad(y, dy) = -0.5 * dy * y^3.
rules.RsqrtGrad = function(n, g)
  local y, dy = n.inputs[1], n.inputs[2]
  return { -1.5 * g[1] * dy * ops.square(y), op(H.RsqrtGrad, nil, y, g[1]) }
end
-- As TF: the gradient of sign is zero (not None).
rules.Sign = function(n) return { ops.zeros_like(n.inputs[1]) } end
-- math_grad.py _SqrtGradGrad: ga = grad / y; (-ga * the op's output, 0.5 * ga).
rules.SqrtGrad = function(n, g)
  local ga = g[1] / n.inputs[1]
  return { -ga * n.outputs[1], 0.5 * ga }
end
-- math_grad.py's rules for the trigonometric, hyperbolic and special
-- functions, with its ops.
rules.Sinh = function(n, dy) return { dy[1] * ops.cosh(n.inputs[1]) } end
rules.Cosh = function(n, dy) return { dy[1] * ops.sinh(n.inputs[1]) } end
rules.Tan = function(n, dy) return { dy[1] * ops.square(ops.math.reciprocal(ops.cos(n.inputs[1]))) } end
local function inv_sqrt_one_minus_square(x) return ops.math.reciprocal(ops.sqrt(1 - ops.square(x))) end
rules.Asin = function(n, dy) return { dy[1] * inv_sqrt_one_minus_square(n.inputs[1]) } end
rules.Acos = function(n, dy) return { -dy[1] * inv_sqrt_one_minus_square(n.inputs[1]) } end
rules.Atan = function(n, dy) return { dy[1] * ops.math.reciprocal(1 + ops.square(n.inputs[1])) } end
-- _AsinhGrad and _AcoshGrad from the op's output y: 1 / cosh(y), 1 / sinh(y).
rules.Asinh = function(n, dy) return { dy[1] / ops.cosh(n.outputs[1]) } end
rules.Acosh = function(n, dy) return { dy[1] / ops.sinh(n.outputs[1]) } end
rules.Atanh = function(n, dy) return { dy[1] * ops.math.reciprocal(1 - ops.square(n.inputs[1])) } end
rules.Lgamma = function(n, dy) return { dy[1] * ops.math.digamma(n.inputs[1]) } end
rules.Digamma = function(n, dy)
  local x = n.inputs[1]
  return { dy[1] * ops.math.polygamma(ops.ones_like(x), x) }
end
-- _PolygammaGrad: none for the order, polygamma(a + 1, x) for x.
rules.Polygamma = function(n, dy)
  local a, x = n.inputs[1], n.inputs[2]
  return { nil, unbroadcast(dy[1] * ops.math.polygamma(a + 1, x), x) }
end
local TWO_OVER_ROOT_PI = 2 / math.sqrt(math.pi)
rules.Erf = function(n, dy)
  local x = n.inputs[1]
  return { dy[1] * (TWO_OVER_ROOT_PI * ops.exp(-ops.square(x))) }
end
rules.Erfc = function(n, dy)
  local x = n.inputs[1]
  return { dy[1] * (-TWO_OVER_ROOT_PI * ops.exp(-ops.square(x))) }
end
-- _Atan2Grad: grad / (x^2 + y^2) times x for y, -y for x.
rules.Atan2 = function(n, dy)
  local y, x = n.inputs[1], n.inputs[2]
  local inv = dy[1] / (ops.square(x) + ops.square(y))
  return { unbroadcast(x * inv, y), unbroadcast(-y * inv, x) }
end
-- _XDivyGrad and _XLogyGrad: the partials are 0 where x is 0.
local function nonzero(x) return ops.cast(ops.not_equal(x, 0), dtype_of(x)) end
rules.Xdivy = function(n, dy)
  local x, y = n.inputs[1], n.inputs[2]
  local px = ops.math.xdivy(nonzero(x), y)
  local py = ops.math.xdivy(-x, ops.square(y))
  return { unbroadcast(px * dy[1], x), unbroadcast(py * dy[1], y) }
end
rules.Xlogy = function(n, dy)
  local x, y = n.inputs[1], n.inputs[2]
  local px = ops.math.xlogy(nonzero(x), y)
  local py = ops.math.xdivy(x, y)
  return { unbroadcast(px * dy[1], x), unbroadcast(py * dy[1], y) }
end

rules.Xlog1py = function(n, dy)
  local x, y = n.inputs[1], n.inputs[2]
  local px = ops.math.xlog1py(nonzero(x), y)
  local py = ops.math.xdivy(x, y + 1)
  return { unbroadcast(px * dy[1], x), unbroadcast(py * dy[1], y) }
end
-- _ZetaGrad: none for the exponent, -x zeta(x + 1, q) for q.
rules.Zeta = function(n, dy)
  local x, q = n.inputs[1], n.inputs[2]
  return { nil, unbroadcast(dy[1] * (-x * ops.math.zeta(x + 1, q)), q) }
end
-- _IgammaGrad: IgammaGradA for a; for x, the density x^(a-1) e^-x / Gamma(a)
-- in log space (Gamma(a) overflows long before the quotient does).
-- _IgammacGrad: both negated.
local function igamma_grads(n, dy, sign)
  local a, x = n.inputs[1], n.inputs[2]
  local pa = op(H.IgammaGradA, nil, a, x)
  local px = ops.exp(-x + (a - 1) * ops.math.log(x) - ops.math.lgamma(a))
  return { unbroadcast(sign * (pa * dy[1]), a), unbroadcast(sign * (px * dy[1]), x) }
end
rules.Igamma = function(n, dy) return igamma_grads(n, dy, 1) end
rules.Igammac = function(n, dy) return igamma_grads(n, dy, -1) end

-- _BetaincGrad: none for a and b (TF defines none); for x the integrand
-- x^(a-1) (1-x)^(b-1) / B(a, b), in log space, with xlogy and xlog1py so
-- that it tends to 0 at the ends where a or b is 1. Summed to x's shape
-- (x may be the scalar of the three).
rules.Betainc = function(n, dy)
  local a, b, x = n.inputs[1], n.inputs[2], n.inputs[3]
  local lgamma = ops.math.lgamma
  local log_beta = lgamma(a) + lgamma(b) - lgamma(a + b)
  local px = ops.exp(ops.math.xlog1py(b - 1, -x) + ops.math.xlogy(a - 1, x) - log_beta)
  return { nil, nil, unbroadcast(px * dy[1], x) }
end

-- special_math_ops' Bessel rules (math_grad.py), from the recurrences
-- I0' = I1, J0' = -J1, K0' = -K1, and Z1' = Z0 - Z1 / x for I, J, Y.
-- Where the quotient by x is 0 / 0 the limit is put instead (0.5 for I1e
-- and J1 as TF; for I1 also 0.5, where TF's rule says 1.0, which is not
-- I1's derivative at 0).
local function at_zero(x, limit, v) return ops.where(ops.equal(x, 0), ops.ones_like(x) * limit, v) end
local special = ops.math.special
rules.BesselI0 = function(n, dy) return { dy[1] * ops.math.bessel_i1(n.inputs[1]) } end
rules.BesselI0e = function(n, dy)
  local x, y = n.inputs[1], n.outputs[1]
  return { dy[1] * (ops.math.bessel_i1e(x) - ops.sign(x) * y) }
end
rules.BesselI1 = function(n, dy)
  local x, y = n.inputs[1], n.outputs[1]
  return { dy[1] * at_zero(x, 0.5, ops.math.bessel_i0(x) - y / x) }
end
rules.BesselI1e = function(n, dy)
  local x, y = n.inputs[1], n.outputs[1]
  return { dy[1] * at_zero(x, 0.5, ops.math.bessel_i0e(x) - y * (ops.sign(x) + ops.math.reciprocal(x))) }
end
rules.BesselK0 = function(n, dy) return { dy[1] * -special.bessel_k1(n.inputs[1]) } end
rules.BesselK0e = function(n, dy)
  local x, y = n.inputs[1], n.outputs[1]
  return { dy[1] * (y - special.bessel_k1e(x)) }
end
rules.BesselK1 = function(n, dy)
  local x, y = n.inputs[1], n.outputs[1]
  return { dy[1] * (-special.bessel_k0(x) - y / x) }
end
rules.BesselK1e = function(n, dy)
  local x, y = n.inputs[1], n.outputs[1]
  return { dy[1] * (y * (1 - ops.math.reciprocal(x)) - special.bessel_k0e(x)) }
end
rules.BesselJ0 = function(n, dy) return { dy[1] * -special.bessel_j1(n.inputs[1]) } end
rules.BesselJ1 = function(n, dy)
  local x, y = n.inputs[1], n.outputs[1]
  return { dy[1] * at_zero(x, 0.5, special.bessel_j0(x) - y / x) }
end
rules.BesselY0 = function(n, dy) return { dy[1] * -special.bessel_y1(n.inputs[1]) } end
-- _DawsnGrad, _ExpintGrad, _FresnelCosGrad, _FresnelSinGrad, _SpenceGrad.
rules.Dawsn = function(n, dy)
  local x, y = n.inputs[1], n.outputs[1]
  return { dy[1] * (1 - 2 * x * y) }
end
rules.Expint = function(n, dy)
  local x = n.inputs[1]
  return { dy[1] * ops.exp(x) / x }
end
local HALF_PI = math.pi / 2
rules.FresnelCos = function(n, dy) return { dy[1] * ops.cos(HALF_PI * ops.square(n.inputs[1])) } end
rules.FresnelSin = function(n, dy) return { dy[1] * ops.sin(HALF_PI * ops.square(n.inputs[1])) } end
rules.Spence = function(n, dy)
  local x = n.inputs[1]
  local partial = ops.math.log(x) / (1 - x)
  return { dy[1] * ops.where(ops.equal(x, 1), -ops.ones_like(x), partial) }
end
rules.BesselY1 = function(n, dy)
  local x, y = n.inputs[1], n.outputs[1]
  return { dy[1] * (special.bessel_y0(x) - y / x) }
end

-- nn_grad.py's activation rules: each through its backprop op.
rules.Softplus = function(n, dy) return { op(H.SoftplusGrad, nil, dy[1], n.inputs[1]) } end
rules.Softsign = function(n, dy) return { op(H.SoftsignGrad, nil, dy[1], n.inputs[1]) } end
rules.Elu = function(n, dy) return { op(H.EluGrad, nil, dy[1], n.outputs[1]) } end
rules.Selu = function(n, dy) return { op(H.SeluGrad, nil, dy[1], n.outputs[1]) } end
rules.Relu6 = function(n, dy) return { op(H.Relu6Grad, nil, dy[1], n.outputs[1]) } end
-- _LeakyReluGrad from the features, and _LeakyReluGradGrad.
local function alpha_of(n) return { alpha = n.attrs.alpha } end
rules.LeakyRelu = function(n, dy) return { op(H.LeakyReluGrad, alpha_of(n), dy[1], n.inputs[1]) } end
rules.LeakyReluGrad = function(n, g)
  local x = n.inputs[2]
  return { op(H.LeakyReluGrad, alpha_of(n), g[1], x), ops.zeros_like(x) }
end
-- Their second order: _SoftplusGradGrad, _EluGradGrad, _SeluGradGrad,
-- _Relu6GradGrad; SoftsignGrad's by hand (TF has none):
-- g / (1 + |x|)^2 has d/dx = -2 g sign(x) / (1 + |x|)^3.
rules.SoftplusGrad = function(n, g)
  local d, x = n.inputs[1], n.inputs[2]
  return { op(H.SoftplusGrad, nil, g[1], x), g[1] * d / (ops.exp(-x) + 2 + ops.exp(x)) }
end
rules.SoftsignGrad = function(n, g)
  local d, x = n.inputs[1], n.inputs[2]
  local one_plus = 1 + ops.abs(x)
  return { op(H.SoftsignGrad, nil, g[1], x), -2 * g[1] * d * ops.sign(x) / (one_plus * one_plus * one_plus) }
end
local function grad_grad(grad_op)
  return function(n, g)
    local d, y = n.inputs[1], n.inputs[2]
    return { op(grad_op, nil, g[1], y), ops.where(ops.less(y, 0), g[1] * d, ops.zeros_like(y)) }
  end
end
rules.EluGrad = grad_grad(H.EluGrad)
rules.SeluGrad = grad_grad(H.SeluGrad)
rules.Relu6Grad = function(n, g)
  local x = n.inputs[2]
  return { op(H.Relu6Grad, nil, g[1], x), ops.zeros_like(x) }
end

rules.Cast = function(n, dy)
  local src = dtype_of(n.inputs[1])
  if not src.is_floating or not dtype_of(dy[1]).is_floating then return {} end
  return { ops.cast(dy[1], src) }
end

return rules
