-- gradcheck_spec.lua — one harness over the op registry (DESIGN.md, house
-- rule 9): every op that claims to be differentiable is called from a small
-- table of "how to call this op" entries, and the gradient the tape gives
-- is compared with central finite differences in float64 — eagerly, with
-- the tape inside a tf.func, and (against the float64 result, loosely) in
-- float32. An op that is differentiable but has no entry here or no rule in
-- the rule table (grad/rules.lua) fails the harness, so a newly registered op cannot skip the
-- check silently. After the harness: the tape's own behaviour (unconnected
-- sources, integer paths, persistence, variables, jacobian, nested tapes,
-- tf.func calls under a tape, <close> scopes).

local tf = tf or require("moonflow")
local core = require("moonflow.core")
local H = require("helpers")

local OP = require("moonflow.state").H -- op handles by TF name
local RULES = require("moonflow.grad.rules").by_op
local op = core.op
local F64, F32, I32 = tf.float64, tf.float32, tf.int32

-- Not checked numerically -------------------------------------------------------

-- Graph plumbing: they produce values but are no computation to check.
local PLUMBING = { Const = true, Placeholder = true, NoOp = true }

-- Differentiable ops whose gradient TensorFlow itself does not define: a
-- tape that reaches one raises LookupError, as TF does. Each needs a reason.
-- (Empty today: every op moonflow registers as differentiable has a TF
-- gradient. Keep this list honest: an op goes here only with a reference to
-- TF's own registration, e.g. ops.NotDifferentiable or a missing
-- @ops.RegisterGradient.)
local TF_UNDEFINED = {}

-- Inputs --------------------------------------------------------------------------

-- A small deterministic generator (independent of tf.random's state).
local rng_state = 20240611
local function rnd()
  rng_state = (rng_state * 6364136223846793005 + 1442695040888963407) & 0x7fffffffffffffff
  return ((rng_state >> 11) & 0xfffffffff) / 0x1000000000
end

local function count(shape)
  local n = 1
  for _, d in ipairs(shape) do n = n * d end
  return n
end

-- Argument specs: U(shape, lo, hi) uniform floats; D(shape, lo, hi)
-- distinct values at least (hi-lo)/(2n) apart (no ties, for Max/Min);
-- V(values [, shape]) explicit floats; Q(values, shape, dtype) dyadic
-- values kept exactly in the given dtype. Float specs are float64 unless
-- they say otherwise, and are differentiated; anything else in `args`
-- (Lua values, integer or boolean tensors) is passed as it is.
local function U(shape, lo, hi) return { spec = true, shape = shape, lo = lo or -1, hi = hi or 1 } end
local function D(shape, lo, hi) return { spec = true, shape = shape, lo = lo or -1, hi = hi or 1, distinct = true } end
local function V(values, shape) return { spec = true, shape = shape or { #values }, values = values } end
local function Q(values, shape, dtype)
  return { spec = true, shape = shape or { #values }, values = values, dtype = dtype, exact = true }
end

local function materialize(spec)
  if spec.values then return table.move(spec.values, 1, #spec.values, 1, {}) end
  local n = count(spec.shape)
  local out = {}
  if spec.distinct then
    local order = {}
    for i = 1, n do order[i] = i end
    for i = n, 2, -1 do
      local j = 1 + math.floor(rnd() * i)
      order[i], order[j] = order[j], order[i]
    end
    for i = 1, n do out[i] = spec.lo + (spec.hi - spec.lo) * (order[i] - 0.5 + 0.2 * (rnd() - 0.5)) / n end
  else
    for i = 1, n do out[i] = spec.lo + (spec.hi - spec.lo) * rnd() end
  end
  return out
end

local function tensor_of(flat, shape, dtype)
  return tf.reshape(tf.constant(flat, dtype), shape)
end

-- The call table ------------------------------------------------------------------
-- CALLS[op type] = list of { name, args = {...}, fn = function(args...) ->
-- output tensor(s) }. `eps`/`tol` override the defaults for one entry;
-- `f32 = false` skips the float32 pass (the entry is about dtypes);
-- `graph_only = true` marks ops that only exist in graphs (control flow:
-- eagerly it is plain Lua), so the eager pass checks the numbers only;
-- `unknown_dims = false` skips the pass traced with unknown dimensions
-- (for calls that need static shapes, each with its reason);
-- `fixed = { [i] = true }` builds float argument i from its spec but does
-- not differentiate it, and `first_order_only = true` skips the second-
-- order pass (both where TF's rule deliberately is not the mathematical
-- derivative, each with its reason).
-- Each entry must produce its op: on the eager tape and in the traced graph.

local CALLS = {}

local function unary(name, fn, lo, hi)
  CALLS[name] = {
    { "{2,3}", args = { U({ 2, 3 }, lo, hi) }, fn = fn },
    { "scalar", args = { U({}, lo, hi) }, fn = fn },
  }
end
unary("Neg", tf.negative)
unary("Abs", tf.abs, 0.2, 2)
CALLS.Abs[#CALLS.Abs + 1] = { "negative", args = { U({ 4 }, -2, -0.2) }, fn = tf.abs }
-- sign is flat away from 0: TF's gradient is zeros there (not None).
CALLS.Sign = { { "both signs", args = { V({ -1.5, 0.7, 2.0, -0.2 }, { 2, 2 }) }, fn = tf.sign } }
unary("Square", tf.square, -2, 2)
unary("Sqrt", tf.sqrt, 0.3, 3)
unary("Rsqrt", tf.math.rsqrt, 0.3, 3)
unary("Exp", tf.exp, -2, 2)
unary("Log", tf.log, 0.2, 3)
unary("Log1p", tf.math.log1p, -0.7, 2)
unary("Expm1", tf.math.expm1, -2, 2)
unary("Sin", tf.sin, -3, 3)
unary("Cos", tf.cos, -3, 3)
unary("Tanh", tf.tanh, -2, 2)
unary("Sigmoid", tf.sigmoid, -3, 3)
unary("Reciprocal", tf.math.reciprocal, 0.3, 2)
CALLS.Reciprocal[#CALLS.Reciprocal + 1] = { "negative", args = { U({ 3 }, -2, -0.3) }, fn = tf.math.reciprocal }
CALLS.Relu = {
  { "both signs", args = { V({ -1.5, -0.3, 0.4, 1.2, -0.8, 2.0 }, { 2, 3 }) }, fn = tf.nn.relu },
}
CALLS.Identity = { { "{2,3}", args = { U({ 2, 3 }) }, fn = tf.identity } }
CALLS.IdentityN = { { "two of {2,3} and {3}", args = { U({ 2, 3 }), U({ 3 }) },
  fn = function(a, b) local r = tf.identity_n({ a, b }); return r[1] * r[2] end } }
unary("Sinh", tf.sinh, -2, 2)
unary("Cosh", tf.cosh, -2, 2)
unary("Tan", tf.tan, -1.2, 1.2)
unary("Asin", tf.asin, -0.8, 0.8)
unary("Acos", tf.acos, -0.8, 0.8)
unary("Atan", tf.atan, -3, 3)
unary("Asinh", tf.asinh, -3, 3)
unary("Acosh", tf.acosh, 1.3, 3)
unary("Atanh", tf.atanh, -0.8, 0.8)
unary("Lgamma", tf.math.lgamma, 0.3, 4)
CALLS.Lgamma[#CALLS.Lgamma + 1] = { "negative", args = { U({ 3 }, -1.8, -1.2) }, fn = tf.math.lgamma }
unary("Digamma", tf.math.digamma, 0.3, 4)
unary("Erf", tf.math.erf, -2, 2)
unary("Erfc", tf.math.erfc, -2, 2)
unary("Softplus", tf.nn.softplus, -3, 3)
unary("Softsign", tf.nn.softsign, -3, 3)
-- the activations with a kink at 0 (and Relu6's at 6): values away from it
local kinked = V({ -1.5, -0.3, 0.4, 1.2, -0.8, 2.0 }, { 2, 3 })
CALLS.Elu = { { "both signs", args = { kinked }, fn = tf.nn.elu } }
CALLS.Selu = { { "both signs", args = { kinked }, fn = tf.nn.selu } }
CALLS.LeakyRelu = {
  { "default alpha", args = { kinked }, fn = function(x) return tf.nn.leaky_relu(x) end },
  { "alpha 0.05", args = { kinked }, fn = function(x) return tf.nn.leaky_relu(x, 0.05) end },
}
CALLS.LeakyReluGrad = {
  { "{2,3}", args = { U({ 2, 3 }), V({ -1.5, -0.3, 0.4, 1.2, -0.8, 2.0 }, { 2, 3 }) }, fixed = { [2] = true },
    fn = function(g, f) return op(OP.LeakyReluGrad, { alpha = 0.3 }, g, f) end },
}
CALLS.Relu6 = { { "both sides", args = { V({ -1.5, 6.5, 0.4, 5.2, -0.8, 2.0 }, { 2, 3 }) }, fn = tf.nn.relu6 } }

-- Cast is linear: dyadic values and eps are exact in both dtypes, so the
-- float32 side adds no rounding to the differences.
CALLS.Cast = {
  { "float32 -> float64", args = { Q({ 0.5, -1.25, 2.0, 0.375 }, { 2, 2 }, F32) }, eps = 2 ^ -10, f32 = false,
    fn = function(x) return tf.cast(x, F64) end },
  { "float64 -> float32", args = { Q({ 0.5, -1.25, 2.0, 0.375 }, { 2, 2 }, F64) }, eps = 2 ^ -10, f32 = false,
    fn = function(x) return tf.cast(x, F32) end },
}

-- Broadcasting binary ops: equal shapes, {2,3} with {3}, {2,1} with {1,3},
-- a scalar with a matrix, and {3} with {2,3}.
local function binary(name, fn, lo, hi, ylo, yhi)
  ylo, yhi = ylo or lo, yhi or hi
  CALLS[name] = {
    { "{2,3} {2,3}", args = { U({ 2, 3 }, lo, hi), U({ 2, 3 }, ylo, yhi) }, fn = fn },
    { "{2,3} {3}", args = { U({ 2, 3 }, lo, hi), U({ 3 }, ylo, yhi) }, fn = fn },
    { "{3} {2,3}", args = { U({ 3 }, lo, hi), U({ 2, 3 }, ylo, yhi) }, fn = fn },
    { "{2,1} {1,3}", args = { U({ 2, 1 }, lo, hi), U({ 1, 3 }, ylo, yhi) }, fn = fn },
    { "{} {2,3}", args = { U({}, lo, hi), U({ 2, 3 }, ylo, yhi) }, fn = fn },
  }
end
binary("AddV2", tf.add)
binary("Sub", tf.subtract)
binary("Mul", tf.multiply)
binary("RealDiv", tf.divide, -2, 2, 0.5, 2)
binary("Pow", tf.pow, 0.5, 2, -1.5, 1.5)
binary("SquaredDifference", tf.math.squared_difference)
binary("DivNoNan", tf.math.divide_no_nan, -2, 2, 0.5, 2)
binary("Atan2", tf.atan2, -2, 2, 0.5, 2)
CALLS.Atan2[#CALLS.Atan2 + 1] = { "x < 0", args = { U({ 3 }, 0.3, 2), U({ 3 }, -2, -0.5) }, fn = tf.atan2 }
binary("Xdivy", tf.math.xdivy, -2, 2, 0.5, 2)
binary("Xlogy", tf.math.xlogy, -2, 2, 0.5, 2)
-- Polygamma: the order is a whole number (not differentiated, as TF's rule).
CALLS.Polygamma = {
  { "orders 0..2", args = { V({ 0, 1, 2 }), U({ 3 }, 0.5, 3) }, fixed = { [1] = true }, fn = tf.math.polygamma },
}
binary("Xlog1py", tf.math.xlog1py, -2, 2, -0.5, 2)
-- Igamma and Igammac: first order only, as TF, whose IgammaGradA (the
-- derivative in a) has no gradient of its own.
binary("Igamma", tf.math.igamma, 0.5, 3, 0.3, 4)
binary("Igammac", tf.math.igammac, 0.5, 3, 0.3, 4)
for _, name in ipairs({ "Igamma", "Igammac" }) do
  for _, e in ipairs(CALLS[name]) do e.first_order_only = true end
end
-- Zeta: the exponent is not differentiated (TF's rule: q only).
CALLS.Zeta = {
  { "{3} {2,3}", args = { U({ 3 }, 1.5, 4), U({ 2, 3 }, 0.5, 3) }, fixed = { [1] = true }, fn = tf.math.zeta },
  { "{} {3}", args = { U({}, 2, 3), U({ 3 }, 0.5, 3) }, fixed = { [1] = true }, fn = tf.math.zeta },
}
-- Betainc: a and b are not differentiated (TF's rule: x only); x a
-- tensor of a's shape, and a scalar summed over a's shape.
CALLS.Betainc = {
  { "{2,3} x3", args = { U({ 2, 3 }, 0.5, 3), U({ 2, 3 }, 0.5, 3), U({ 2, 3 }, 0.2, 0.8) },
    fixed = { [1] = true, [2] = true }, fn = tf.math.betainc },
  { "{3} {} {}", args = { U({ 3 }, 0.5, 3), U({}, 1.5, 3), U({}, 0.2, 0.8) },
    fixed = { [1] = true, [2] = true }, fn = tf.math.betainc },
}
-- Svd: the singular values alone, and with the vectors (their signs are
-- LAPACK's choice, constant under the small steps of the differences).
-- With the vectors TF's rule needs the matrix dimensions (its
-- NotImplementedError without them): no unknown-dimension pass there.
local function svd_uv(x) return tf.linalg.svd(x) end
CALLS.Svd = {
  { "s of {3,2}", args = { U({ 3, 2 }) }, fn = function(x) return (tf.linalg.svd(x, false, false)) end },
  { "s, u, v of {2,3}", args = { U({ 2, 3 }) }, fn = svd_uv, unknown_dims = false },
  { "s, u, v of {2,3,2}", args = { U({ 2, 3, 2 }) }, fn = svd_uv, unknown_dims = false },
  { "full {3,2}", args = { U({ 3, 2 }) }, fn = function(x) return tf.linalg.svd(x, true) end,
    first_order_only = true, unknown_dims = false },
}
unary("BesselI0", tf.math.bessel_i0, -3, 3)
unary("BesselI0e", tf.math.bessel_i0e, 0.2, 3)
CALLS.BesselI0e[#CALLS.BesselI0e + 1] = { "negative", args = { U({ 3 }, -3, -0.2) }, fn = tf.math.bessel_i0e }
unary("BesselI1", tf.math.bessel_i1, -3, 3)
unary("BesselI1e", tf.math.bessel_i1e, 0.2, 3)
CALLS.BesselI1e[#CALLS.BesselI1e + 1] = { "negative", args = { U({ 3 }, -3, -0.2) }, fn = tf.math.bessel_i1e }
unary("BesselK0", tf.math.special.bessel_k0, 0.3, 4)
unary("BesselK0e", tf.math.special.bessel_k0e, 0.3, 4)
unary("BesselK1", tf.math.special.bessel_k1, 0.3, 4)
unary("BesselK1e", tf.math.special.bessel_k1e, 0.3, 4)
unary("BesselJ0", tf.math.special.bessel_j0, -6, 6)
unary("BesselJ1", tf.math.special.bessel_j1, -6, 6)
unary("BesselY0", tf.math.special.bessel_y0, 0.3, 6)
unary("BesselY1", tf.math.special.bessel_y1, 0.3, 6)
unary("Dawsn", tf.math.special.dawsn, -4, 7)
unary("Expint", tf.math.special.expint, 0.3, 5)
unary("FresnelCos", tf.math.special.fresnel_cos, -2, 2)
unary("FresnelSin", tf.math.special.fresnel_sin, -2, 2)
unary("Spence", tf.math.special.spence, 0.2, 3)
-- floormod(x, y) = x - floor(x/y)*y: x/y kept inside (0.25, 0.75) + k, away
-- from the jumps.
CALLS.FloorMod = {
  { "{2,3} {3}", args = { V({ 1.4, 2.6, 3.3, -1.3, -2.5, -0.3 }, { 2, 3 }), V({ 1.0, 1.1, 0.9 }) }, fn = tf.floormod },
  { "{} {2}", args = { V({ 2.3 }, {}), V({ 1.0, -0.7 }) }, fn = tf.floormod },
}

-- Maximum/Minimum: no ties, every pair at least 0.1 apart.
local function minmax(name, fn)
  local x = { 0.3, -0.6, 1.1, 0.0, 0.8, -1.2 }
  local y = { 0.5, -0.9, 0.7, 0.4, 0.6, -0.4 }
  CALLS[name] = {
    { "{2,3} {2,3}", args = { V(x, { 2, 3 }), V(y, { 2, 3 }) }, fn = fn },
    { "{2,3} {3}", args = { V(x, { 2, 3 }), V({ 0.5, -0.3, 0.95 }) }, fn = fn },
    { "{} {2,3}", args = { V({ 0.45 }, {}), V(y, { 2, 3 }) }, fn = fn },
  }
end
minmax("Maximum", tf.maximum)
minmax("Minimum", tf.minimum)

CALLS.SelectV2 = {
  { "{2,3} all", args = { tf.constant({ { true, false, true }, { false, false, true } }), U({ 2, 3 }), U({ 2, 3 }) },
    fn = tf.where },
  { "cond {3}, t {2,3}, e {}", args = { tf.constant({ true, false, true }), U({ 2, 3 }), U({}) }, fn = tf.where },
  { "cond {2,1}, t {3}, e {2,3}", args = { tf.constant({ { true }, { false } }), U({ 3 }), U({ 2, 3 }) },
    fn = tf.where },
}

-- The gradient helpers are ops too (their gradients give second orders).
local function helper(name, ylo, yhi)
  CALLS[name] = {
    { "{2,3}", args = { U({ 2, 3 }, ylo, yhi), U({ 2, 3 }) }, fn = function(a, b) return op(OP[name], nil, a, b) end },
  }
end
helper("TanhGrad", -0.9, 0.9)
helper("SigmoidGrad", 0.1, 0.9)
helper("SqrtGrad", 0.3, 2)
helper("RsqrtGrad", 0.3, 2)
local function act_helper(name, features)
  CALLS[name] = {
    { "{2,3}", args = { U({ 2, 3 }), V(features, { 2, 3 }) }, fn = function(g, f) return op(OP[name], nil, g, f) end },
  }
end
act_helper("SoftplusGrad", { -1.5, -0.3, 0.4, 1.2, -0.8, 2.0 })
act_helper("SoftsignGrad", { -1.5, -0.3, 0.4, 1.2, -0.8, 2.0 })
act_helper("EluGrad", { -0.7, -0.3, 0.4, 1.2, -0.5, 2.0 })
act_helper("SeluGrad", { -1.2, -0.3, 0.4, 1.2, -0.5, 2.0 })
act_helper("Relu6Grad", { -1.5, 6.5, 0.4, 5.2, -0.8, 2.0 })
CALLS.ReluGrad = {
  { "{2,3}", args = { U({ 2, 3 }), V({ -1.5, -0.3, 0.4, 1.2, -0.8, 2.0 }, { 2, 3 }) },
    fn = function(g, f) return op(OP.ReluGrad, nil, g, f) end },
}

-- Reductions: all axes, one axis, a negative axis, two axes, keep_dims.
local function reduction(name, fn, spec_of)
  CALLS[name] = {
    { "all axes", args = { spec_of({ 2, 3 }) }, fn = function(x) return fn(x) end },
    { "axis 0", args = { spec_of({ 2, 3 }) }, fn = function(x) return fn(x, 0) end },
    { "axis -1 keepdims", args = { spec_of({ 2, 3 }) }, fn = function(x) return fn(x, -1, { keepdims = true }) end },
    { "axes {0,2} of rank 3", args = { spec_of({ 2, 3, 2 }) }, fn = function(x) return fn(x, { 0, 2 }) end },
    { "axes {1} rank 3 keepdims", args = { spec_of({ 2, 3, 2 }) },
      fn = function(x) return fn(x, { 1 }, { keepdims = true }) end },
    { "axis as a tensor", args = { spec_of({ 2, 3 }), tf.constant(1) }, fn = function(x, a) return fn(x, a) end },
  }
end
reduction("Sum", tf.reduce_sum, function(s) return U(s) end)
reduction("Mean", tf.reduce_mean, function(s) return U(s) end)
reduction("Max", tf.reduce_max, function(s) return D(s) end)
reduction("Min", tf.reduce_min, function(s) return D(s) end)
reduction("Prod", tf.reduce_prod, function(s) return U(s, 0.5, 1.5) end)
CALLS.Prod[#CALLS.Prod + 1] = { "negative factors", args = { V({ -0.5, 1.2, -1.5, 0.7 }, { 2, 2 }) },
  fn = function(x) return tf.reduce_prod(x, 1) end }

-- Shapes.
CALLS.Transpose = {
  { "2-D", args = { U({ 2, 3 }) }, fn = function(x) return tf.transpose(x) end },
  { "perm {1,2,0}", args = { U({ 2, 3, 4 }) }, fn = function(x) return tf.transpose(x, { 1, 2, 0 }) end },
  { "perm as a tensor", args = { U({ 2, 3, 2 }), tf.constant({ 2, 0, 1 }) }, fn = tf.transpose },
}
CALLS.Reshape = {
  { "{2,3} -> {3,2}", args = { U({ 2, 3 }) }, fn = function(x) return tf.reshape(x, { 3, 2 }) end },
  { "-1", args = { U({ 2, 2, 3 }) }, fn = function(x) return tf.reshape(x, { -1, 2 }) end },
  { "to scalar", args = { U({ 1, 1 }) }, fn = function(x) return tf.reshape(x, {}) end },
}
CALLS.ConcatV2 = {
  { "axis 0, three inputs", args = { U({ 1, 3 }), U({ 2, 3 }), U({ 3, 3 }) },
    fn = function(a, b, c) return tf.concat({ a, b, c }, 0) end },
  { "axis 1", args = { U({ 2, 1 }), U({ 2, 3 }) }, fn = function(a, b) return tf.concat({ a, b }, 1) end },
  { "axis -1 rank 3", args = { U({ 2, 2, 1 }), U({ 2, 2, 2 }) }, fn = function(a, b) return tf.concat({ a, b }, -1) end },
}
CALLS.Pack = {
  { "axis 0", args = { U({ 2, 3 }), U({ 2, 3 }) }, fn = function(a, b) return tf.stack({ a, b }) end },
  { "axis 1, three", args = { U({ 2 }), U({ 2 }), U({ 2 }) }, fn = function(a, b, c) return tf.stack({ a, b, c }, 1) end },
  { "axis -1", args = { U({ 2, 2 }), U({ 2, 2 }) }, fn = function(a, b) return tf.stack({ a, b }, -1) end },
}
-- (num given: with unknown dimensions tf.unstack cannot infer it, as in TF.)
CALLS.Unpack = {
  { "axis 0", args = { U({ 3, 2 }) }, fn = function(x) return table.unpack(tf.unstack(x, { num = 3 })) end },
  { "axis 1", args = { U({ 2, 3, 2 }) }, fn = function(x) return table.unpack(tf.unstack(x, { axis = 1, num = 3 })) end },
  { "one output used", args = { U({ 3, 2 }) }, fn = function(x) return tf.unstack(x, { num = 3 })[2] end },
  { "num inferred", args = { U({ 2, 2 }) }, fn = function(x) return table.unpack(tf.unstack(x)) end,
    unknown_dims = false },
}
CALLS.ExpandDims = {
  { "axis 0", args = { U({ 2, 3 }) }, fn = function(x) return tf.expand_dims(x, 0) end },
  { "axis -1", args = { U({ 2, 3 }) }, fn = function(x) return tf.expand_dims(x, -1) end },
}
CALLS.Squeeze = {
  { "all", args = { U({ 1, 3, 1 }) }, fn = function(x) return tf.squeeze(x) end },
  { "axis 2", args = { U({ 1, 3, 1 }) }, fn = function(x) return tf.squeeze(x, 2) end },
}
CALLS.Tile = {
  { "{2,3} x {2,1}", args = { U({ 2, 3 }) }, fn = function(x) return tf.tile(x, { 2, 1 }) end },
  { "{2,1,2} x {1,3,2}", args = { U({ 2, 1, 2 }) }, fn = function(x) return tf.tile(x, { 1, 3, 2 }) end },
  { "multiples as a tensor", args = { U({ 3 }), tf.constant({ 2 }) }, fn = tf.tile },
}
CALLS.Pad = {
  { "2-D", args = { U({ 2, 3 }) }, fn = function(x) return tf.pad(x, { { 1, 0 }, { 2, 1 } }) end },
  { "constant_values", args = { U({ 2, 2 }) },
    fn = function(x) return tf.pad(x, { { 0, 1 }, { 1, 1 } }, { constant_values = 0.5 }) end },
  { "rank 3", args = { U({ 1, 2, 2 }) }, fn = function(x) return tf.pad(x, { { 1, 1 }, { 0, 0 }, { 0, 2 } }) end },
}
CALLS.MirrorPad = {
  { "REFLECT 2-D", args = { U({ 2, 3 }) }, fn = function(x) return tf.pad(x, { { 1, 0 }, { 2, 1 } }, "REFLECT") end },
  { "SYMMETRIC rank 3", args = { U({ 2, 1, 2 }) },
    fn = function(x) return tf.pad(x, { { 2, 1 }, { 1, 0 }, { 0, 2 } }, "symmetric") end },
}
CALLS.MirrorPadGrad = {
  { "REFLECT", args = { U({ 4, 6 }) },
    fn = function(g) return op(OP.MirrorPadGrad, { mode = "REFLECT" }, g, tf.constant({ { 1, 0 }, { 2, 1 } })) end },
  { "SYMMETRIC", args = { U({ 5, 3 }) },
    fn = function(g) return op(OP.MirrorPadGrad, { mode = "SYMMETRIC" }, g, tf.constant({ { 2, 1 }, { 0, 1 } })) end },
}
CALLS.BroadcastTo = {
  { "{3} -> {2,3}", args = { U({ 3 }) }, fn = function(x) return tf.broadcast_to(x, { 2, 3 }) end },
  { "{2,1} -> {2,2,3}", args = { U({ 2, 1 }) }, fn = function(x) return tf.broadcast_to(x, { 2, 2, 3 }) end },
}
CALLS.Fill = {
  { "scalar value", args = { U({}) }, fn = function(v) return tf.fill({ 2, 3 }, v) end },
}

-- Indexing.
CALLS.Slice = {
  { "2-D", args = { U({ 3, 4 }) }, fn = function(x) return tf.slice(x, { 1, 1 }, { 2, 2 }) end },
  { "size -1", args = { U({ 3, 4 }) }, fn = function(x) return tf.slice(x, { 0, 2 }, { -1, -1 }) end },
}
CALLS.StridedSlice = {
  { "plain", args = { U({ 4, 5 }) }, fn = function(x) return tf.strided_slice(x, { 1, 0 }, { 3, 5 }, { 1, 2 }) end },
  { "begin/end masks", args = { U({ 4, 5 }) },
    fn = function(x) return tf.strided_slice(x, { 2, 1 }, { 0, 4 }, { 1, 1 }, { begin_mask = 1, end_mask = 2 }) end },
  { "negative stride", args = { U({ 4, 5 }) },
    fn = function(x) return tf.strided_slice(x, { 3, 4 }, { 0, 0 }, { -1, -2 }, { end_mask = 1 }) end },
  { "shrink axis", args = { U({ 4, 5 }) },
    fn = function(x) return tf.strided_slice(x, { 1, 0 }, { 2, 5 }, { 1, 1 }, { shrink_axis_mask = 1 }) end },
  { "new axis + ellipsis", args = { U({ 2, 3, 4 }) },
    fn = function(x) return tf.strided_slice(x, { 0, 0, 1 }, { 0, 0, 3 }, { 1, 1, 1 },
      { new_axis_mask = 1, ellipsis_mask = 2 }) end },
  { "numpy string", args = { U({ 4, 4 }) }, fn = function(x) return x["1:, ::2"] end },
}
CALLS.GatherV2 = {
  { "axis 0 with repeats", args = { U({ 4, 3 }), tf.constant({ 2, 0, 2, 3 }) }, fn = function(x, i) return tf.gather(x, i) end },
  { "axis 1", args = { U({ 2, 4 }), tf.constant({ { 3, 1 }, { 1, 1 } }) }, fn = function(x, i) return tf.gather(x, i, 1) end },
  { "batch_dims 1", args = { U({ 2, 4 }), tf.constant({ { 0, 3 }, { 2, 2 } }) },
    fn = function(x, i) return tf.gather(x, i, 1, { batch_dims = 1 }) end },
}
CALLS.UnsortedSegmentSum = {
  { "3 segments", args = { U({ 5, 2 }), tf.constant({ 0, 2, 0, 1, 2 }) },
    fn = function(x, ids) return tf.math.unsorted_segment_sum(x, ids, 3) end },
}

-- Dense updates (TensorArray is built on TensorListSetItem).
CALLS.TensorScatterUpdate = {
  { "rows of a matrix", args = { U({ 4, 3 }), tf.constant({ { 1 }, { 3 } }), U({ 2, 3 }) },
    fn = function(t, i, u) return op(OP.TensorScatterUpdate, nil, t, i, u) end },
  { "k = 2 of rank 3", args = { U({ 2, 3, 2 }), tf.constant({ { 0, 1 }, { 1, 2 } }), U({ 2, 2 }) },
    fn = function(t, i, u) return op(OP.TensorScatterUpdate, nil, t, i, u) end },
}
CALLS.TensorListSetItem = {
  { "vector rows", args = { U({ 3, 2 }), tf.constant(1), U({ 2 }) },
    fn = function(b, i, x) return op(OP.TensorListSetItem, nil, b, i, x) end },
  { "scalar rows", args = { U({ 3 }), tf.constant(2), U({}) },
    fn = function(b, i, x) return op(OP.TensorListSetItem, nil, b, i, x) end },
  { "resize past the end", args = { U({ 2, 2 }), tf.constant(3), U({ 2 }) },
    fn = function(b, i, x) return op(OP.TensorListSetItem, { resize = true }, b, i, x) end },
  { "fresh buffer", args = { U({ 3 }), tf.constant(0), U({ 2 }) },
    fn = function(b, i, x) return op(OP.TensorListSetItem, nil, b, i, x) end },
  { "TensorArray write/stack", args = { U({ 2 }), U({ 2 }) }, fn = function(a, b)
    local ta = tf.TensorArray(a.dtype, { size = 2 })
    ta = ta:write(0, a * b)
    ta = ta:write(1, a + b)
    return ta:stack()
  end },
}

-- Control flow exists only in graphs (eagerly tf.cond and tf.while_loop
-- are Lua control flow); both branches, and a loop over a captured value.
local function cond_fn(x, y)
  return tf.cond(tf.greater(tf.reduce_sum(x), 0), function() return x * y end, function() return tf.sin(x) - y end)
end
CALLS.StatelessIf = {
  { "true branch", args = { U({ 3 }, 0.1, 1), U({ 3 }) }, fn = cond_fn, graph_only = true },
  { "false branch", args = { U({ 3 }, -1, -0.1), U({ 3 }) }, fn = cond_fn, graph_only = true },
  { "branch with a captured tensor", args = { U({ 2 }), U({}) }, graph_only = true,
    fn = function(x, s) return tf.cond(tf.constant(true), function() return x * s * s end, function() return x end) end },
}
CALLS.StatelessWhile = {
  { "acc = acc * x + 1, three times", args = { U({ 2 }, 0.5, 1.5) }, graph_only = true, fn = function(x)
    local _, acc = tf.while_loop(function(i) return tf.less(i, 3) end,
      function(i, a) return i + 1, a * x + 1 end, { tf.constant(0), tf.ones_like(x) })
    return acc
  end },
  { "two carried values", args = { U({}, 0.5, 1.5), U({ 2 }) }, graph_only = true, fn = function(s, v)
    local _, a, b = tf.while_loop(function(i) return tf.less(i, 2) end,
      function(i, a, b) return i + 1, a * s + b, tf.sin(b) end, { tf.constant(0), v, v })
    return a, b
  end },
}

-- Linear algebra.
CALLS.MatMul = {
  { "plain", args = { U({ 2, 3 }), U({ 3, 4 }) }, fn = function(a, b) return tf.matmul(a, b) end },
  { "transpose_a", args = { U({ 3, 2 }), U({ 3, 4 }) }, fn = function(a, b) return tf.matmul(a, b, { transpose_a = true }) end },
  { "transpose_b", args = { U({ 2, 3 }), U({ 4, 3 }) }, fn = function(a, b) return tf.matmul(a, b, { transpose_b = true }) end },
  { "both", args = { U({ 3, 2 }), U({ 4, 3 }) },
    fn = function(a, b) return tf.matmul(a, b, { transpose_a = true, transpose_b = true }) end },
}
CALLS.BatchMatMulV2 = {
  { "same batch", args = { U({ 2, 2, 3 }), U({ 2, 3, 2 }) }, fn = function(a, b) return tf.matmul(a, b) end },
  { "broadcast rank", args = { U({ 2, 2, 3 }), U({ 3, 4 }) }, fn = function(a, b) return tf.matmul(a, b) end },
  { "broadcast batch 1", args = { U({ 1, 2, 3 }), U({ 3, 3, 2 }) }, fn = function(a, b) return tf.matmul(a, b) end },
  { "adj_x", args = { U({ 2, 3, 2 }), U({ 2, 3, 2 }) }, fn = function(a, b) return tf.matmul(a, b, { transpose_a = true }) end },
  { "adj_y", args = { U({ 2, 2, 3 }), U({ 2, 4, 3 }) }, fn = function(a, b) return tf.matmul(a, b, { transpose_b = true }) end },
  { "adj both, rank 4", args = { U({ 2, 1, 3, 2 }), U({ 3, 2, 3 }) },
    fn = function(a, b) return tf.matmul(a, b, { transpose_a = true, transpose_b = true }) end },
}

-- Square-matrix ops: inputs kept well conditioned by adding 3 I.
local function well(x) return x + 3 * tf.eye(3, { dtype = x.dtype }) end
CALLS.MatrixInverse = {
  { "{3,3}", args = { U({ 3, 3 }) }, fn = function(x) return tf.linalg.inv(well(x)) end },
  { "adjoint, batch", args = { U({ 2, 3, 3 }) }, fn = function(x) return tf.linalg.inv(well(x), true) end },
}
CALLS.MatrixDeterminant = {
  { "{3,3}", args = { U({ 3, 3 }) }, fn = function(x) return tf.linalg.det(well(x)) end },
  { "batch {2,3,3}", args = { U({ 2, 3, 3 }) }, fn = function(x) return tf.linalg.det(well(x)) end },
}
CALLS.MatrixSolve = {
  { "{3,3} {3,2}", args = { U({ 3, 3 }), U({ 3, 2 }) }, fn = function(a, b) return tf.linalg.solve(well(a), b) end },
  { "adjoint, batch", args = { U({ 2, 3, 3 }), U({ 2, 3, 1 }) },
    fn = function(a, b) return tf.linalg.solve(well(a), b, true) end },
}
-- The Cholesky factor of x x^T + 3 I (symmetric positive definite).
CALLS.Cholesky = {
  { "{3,3}", args = { U({ 3, 3 }) }, fn = function(x) return tf.linalg.cholesky(well(tf.matmul(x, x, { transpose_b = true }))) end },
}
CALLS.Einsum = {
  { "matmul", args = { U({ 2, 3 }), U({ 3, 4 }) }, fn = function(a, b) return tf.einsum("ij,jk->ik", a, b) end },
  { "trace", args = { U({ 3, 3 }) }, fn = function(a) return tf.einsum("ii", a) end },
  { "diagonal", args = { U({ 3, 3 }) }, fn = function(a) return tf.einsum("ii->i", a) end },
  { "reduce and transpose", args = { U({ 2, 3, 4 }) }, fn = function(a) return tf.einsum("abc->cb", a) end },
  { "broadcast batch", args = { U({ 2, 1, 2, 3 }), U({ 3, 3, 2 }) },
    fn = function(a, b) return tf.einsum("...ij,...jk->...ik", a, b) end },
}

-- Neural network ops.
CALLS.Softmax = {
  { "last axis", args = { U({ 2, 4 }, -2, 2) }, fn = function(x) return tf.nn.softmax(x) end },
  { "axis 0", args = { U({ 3, 2 }, -2, 2) }, fn = function(x) return tf.nn.softmax(x, 0) end },
}
CALLS.LogSoftmax = {
  { "last axis", args = { U({ 2, 4 }, -2, 2) }, fn = function(x) return tf.nn.log_softmax(x) end },
  { "rank 3", args = { U({ 2, 2, 3 }, -2, 2) }, fn = function(x) return tf.nn.log_softmax(x) end },
}
-- TF's rule (nn_grad.py _SoftmaxCrossEntropyWithLogitsGrad) gives the
-- labels no gradient through the second output, the backprop softmax -
-- labels, whose derivative in the labels is -1; moonflow's gives what TF's
-- does. So the labels are checked numerically through the loss alone
-- (first order), and are fixed (not differentiated) where the backprop
-- output or a second derivative is involved.
CALLS.SoftmaxCrossEntropyWithLogits = {
  { "loss", args = { V({ 0.2, 0.5, 0.3, 0.0, 1.0, 0.0 }, { 2, 3 }), U({ 2, 3 }, -2, 2) },
    fn = function(labels, logits) return tf.nn.softmax_cross_entropy_with_logits(labels, logits) end,
    first_order_only = true },
  { "loss, labels fixed", args = { V({ 0.2, 0.5, 0.3, 0.0, 1.0, 0.0 }, { 2, 3 }), U({ 2, 3 }, -2, 2) },
    fn = function(labels, logits) return tf.nn.softmax_cross_entropy_with_logits(labels, logits) end,
    fixed = { true } },
  -- The second output (the backprop) matters for second derivatives.
  { "loss and backprop", args = { V({ 0.2, 0.5, 0.3, 0.0, 1.0, 0.0 }, { 2, 3 }), U({ 2, 3 }, -2, 2) },
    fn = function(labels, logits) return op(OP.SoftmaxCrossEntropyWithLogits, nil, logits, labels) end,
    fixed = { true } },
}
CALLS.SparseSoftmaxCrossEntropyWithLogits = {
  { "loss", args = { tf.constant({ 2, 0, 1 }), U({ 3, 4 }, -2, 2) },
    fn = function(labels, logits) return tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits) end },
  { "loss and backprop", args = { tf.constant({ 2, 0, 1 }), U({ 3, 4 }, -2, 2) },
    fn = function(labels, logits) return op(OP.SparseSoftmaxCrossEntropyWithLogits, nil, logits, labels) end },
}
CALLS.BiasAdd = {
  { "rank 2", args = { U({ 3, 2 }), U({ 2 }) }, fn = tf.nn.bias_add },
  { "rank 4 NHWC", args = { U({ 1, 2, 2, 3 }), U({ 3 }) }, fn = tf.nn.bias_add },
}
CALLS.BiasAdd[#CALLS.BiasAdd + 1] = { "NCHW", args = { U({ 2, 3, 2, 2 }), U({ 3 }) },
  fn = function(x, b) return op(OP.BiasAdd, { data_format = "NCHW" }, x, b) end }
CALLS.BiasAddGrad = {
  { "rank 2", args = { U({ 3, 2 }) }, fn = function(g) return op(OP.BiasAddGrad, nil, g) end },
  { "rank 4 NHWC", args = { U({ 2, 2, 2, 3 }) }, fn = function(g) return op(OP.BiasAddGrad, nil, g) end },
  { "rank 4 NCHW", args = { U({ 2, 3, 2, 2 }) },
    fn = function(g) return op(OP.BiasAddGrad, { data_format = "NCHW" }, g) end },
}
CALLS.Conv2D = {
  { "VALID", args = { U({ 1, 4, 4, 2 }), U({ 3, 3, 2, 3 }) },
    fn = function(x, w) return tf.nn.conv2d(x, w, 1, "VALID") end },
  { "SAME", args = { U({ 2, 3, 3, 1 }), U({ 2, 2, 1, 2 }) },
    fn = function(x, w) return tf.nn.conv2d(x, w, 1, "SAME") end },
  { "VALID stride 2", args = { U({ 1, 5, 5, 2 }), U({ 3, 3, 2, 2 }) },
    fn = function(x, w) return tf.nn.conv2d(x, w, 2, "VALID") end },
  { "SAME strides {2,1}, odd size", args = { U({ 1, 5, 4, 2 }), U({ 3, 2, 2, 2 }) },
    fn = function(x, w) return tf.nn.conv2d(x, w, { 2, 1 }, "SAME") end },
  { "dilations 2", args = { U({ 1, 5, 5, 1 }), U({ 2, 2, 1, 2 }) },
    fn = function(x, w) return tf.nn.conv2d(x, w, 1, "VALID", { dilations = 2 }) end },
}
-- The backprops of Conv2D are differentiable too (second derivatives).
local function conv_attrs(strides, padding)
  return { strides = { 1, strides, strides, 1 }, padding = padding, dilations = { 1, 1, 1, 1 } }
end
CALLS.Conv2DBackpropInput = {
  { "VALID", args = { U({ 3, 3, 2, 3 }), U({ 1, 2, 2, 3 }) },
    fn = function(w, dy) return op(OP.Conv2DBackpropInput, conv_attrs(1, "VALID"), { 1, 4, 4, 2 }, w, dy) end },
  { "SAME stride 2", args = { U({ 2, 2, 1, 2 }), U({ 1, 3, 2, 2 }) },
    fn = function(w, dy) return op(OP.Conv2DBackpropInput, conv_attrs(2, "SAME"), { 1, 5, 4, 1 }, w, dy) end },
}
CALLS.Conv2DBackpropFilter = {
  { "VALID", args = { U({ 1, 4, 4, 2 }), U({ 1, 2, 2, 3 }) },
    fn = function(x, dy) return op(OP.Conv2DBackpropFilter, conv_attrs(1, "VALID"), x, { 3, 3, 2, 3 }, dy) end },
  { "SAME stride 2", args = { U({ 1, 5, 4, 1 }), U({ 1, 3, 2, 2 }) },
    fn = function(x, dy) return op(OP.Conv2DBackpropFilter, conv_attrs(2, "SAME"), x, { 2, 2, 1, 2 }, dy) end },
}

-- Pooling (ops_pool.c): distinct inputs, so no window holds a tie that a
-- finite difference would split.
local function pool_attrs(k, st, padding)
  return { ksize = { 1, k, k, 1 }, strides = { 1, st, st, 1 }, padding = padding }
end
CALLS.MaxPool = {
  { "VALID", args = { D({ 1, 4, 4, 2 }) }, fn = function(x) return tf.nn.max_pool2d(x, 2, 1, "VALID") end },
  { "SAME stride 2, odd size", args = { D({ 2, 3, 5, 1 }) },
    fn = function(x) return tf.nn.max_pool2d(x, { 2, 3 }, 2, "SAME") end },
}
CALLS.AvgPool = {
  { "VALID", args = { U({ 1, 4, 4, 2 }) }, fn = function(x) return tf.nn.avg_pool2d(x, 2, 1, "VALID") end },
  { "SAME stride 2, odd size", args = { U({ 2, 3, 5, 1 }) },
    fn = function(x) return tf.nn.avg_pool2d(x, { 2, 3 }, 2, "SAME") end },
}
-- The gradients' gradients: through `grad` (the routing inputs get zeros).
local POOL_X = tf.constant({ { { { 0.1 }, { 0.9 }, { 0.3 } }, { { 0.7 }, { 0.2 }, { 0.8 } },
  { { 0.4 }, { 0.6 }, { 0.5 } } } }, F64)
CALLS.MaxPoolGrad = {
  { "VALID", args = { U({ 1, 2, 2, 1 }) }, fn = function(dy)
    local x = tf.cast(POOL_X, dy.dtype)
    return op(OP.MaxPoolGrad, pool_attrs(2, 1, "VALID"), x, tf.nn.max_pool2d(x, 2, 1, "VALID"), dy)
  end },
}
CALLS.MaxPoolGradGrad = {
  { "SAME", args = { U({ 1, 3, 3, 1 }) }, fn = function(g)
    local x = tf.cast(POOL_X, g.dtype)
    return op(OP.MaxPoolGradGrad, pool_attrs(2, 2, "SAME"), x, tf.nn.max_pool2d(x, 2, 2, "SAME"), g)
  end },
}
CALLS.AvgPoolGrad = {
  { "SAME stride 2", args = { U({ 1, 2, 3, 2 }) },
    fn = function(dy) return op(OP.AvgPoolGrad, pool_attrs(2, 2, "SAME"), { 1, 3, 5, 2 }, dy) end },
}

-- ResizeBilinear gives float32 whatever the input; it is linear in the
-- image, so a large eps costs no accuracy and keeps the float32 rounding
-- out of the differences.
local function resize(opts)
  return function(x) return op(OP.ResizeBilinear, opts, x, { 3, 5 }) end
end
CALLS.ResizeBilinear = {
  { "half_pixel_centers up", args = { U({ 1, 2, 3, 2 }) }, eps = 0.25, f32 = false,
    fn = resize({ align_corners = false, half_pixel_centers = true }) },
  { "align_corners", args = { U({ 2, 2, 3, 1 }) }, eps = 0.25, f32 = false,
    fn = resize({ align_corners = true, half_pixel_centers = false }) },
  { "legacy down", args = { U({ 1, 4, 7, 1 }) }, eps = 0.25, f32 = false,
    fn = resize({ align_corners = false, half_pixel_centers = false }) },
  { "tf.image.resize", args = { U({ 1, 2, 2, 1 }) }, eps = 0.25, f32 = false,
    fn = function(x) return tf.image.resize(x, { 3, 3 }) end },
}

-- Array ops of issue #17 (ops_array.c, ops_sort.c) ----------------------------------
CALLS.Split = {
  { "3 parts of axis 1", args = { U({ 2, 6 }) }, fn = function(x) return tf.split(x, 3, 1) end },
}
CALLS.SplitV = {
  { "sizes with -1", args = { U({ 5, 2 }) }, fn = function(x) return tf.split(x, { 2, -1 }) end },
}
CALLS.ReverseV2 = {
  { "two axes", args = { U({ 2, 3, 2 }) }, fn = function(x) return tf.reverse(x, { 0, -1 }) end },
}
CALLS.Roll = {
  { "two axes", args = { U({ 2, 3, 2 }) }, fn = function(x) return tf.roll(x, { 1, -2 }, { 0, 1 }) end },
}
CALLS.SegmentSum = {
  { "rows by sorted ids", args = { U({ 4, 2 }), tf.constant({ 0, 0, 2, 3 }) },
    fn = function(x, ids) return tf.math.segment_sum(x, ids) end },
}
CALLS.AddN = {
  { "three", args = { U({ 2, 3 }), U({ 2, 3 }), U({ 2, 3 }) }, fn = function(a, b, c) return tf.add_n({ a, b, c }) end },
}
CALLS.DepthwiseConv2dNative = {
  { "SAME, stride 2, multiplier 2", args = { U({ 1, 4, 4, 2 }), U({ 2, 2, 2, 2 }) },
    fn = function(x, w) return tf.nn.depthwise_conv2d(x, w, 2, "SAME") end },
  { "VALID, dilation 2", args = { U({ 1, 5, 5, 2 }), U({ 2, 2, 2, 1 }) },
    fn = function(x, w) return tf.nn.depthwise_conv2d(x, w, 1, "VALID", "NHWC", 2) end },
}
CALLS.DepthwiseConv2dNativeBackpropInput = {
  { "SAME", args = { U({ 2, 2, 2, 2 }), U({ 1, 2, 2, 4 }) },
    fn = function(w, dy) return op(OP.DepthwiseConv2dNativeBackpropInput, { strides = { 1, 2, 2, 1 }, padding = "SAME" },
      tf.constant({ 1, 4, 4, 2 }), w, dy) end },
}
CALLS.DepthwiseConv2dNativeBackpropFilter = {
  { "SAME", args = { U({ 1, 4, 4, 2 }), U({ 1, 2, 2, 4 }) },
    fn = function(x, dy) return op(OP.DepthwiseConv2dNativeBackpropFilter, { strides = { 1, 2, 2, 1 }, padding = "SAME" },
      x, tf.constant({ 2, 2, 2, 2 }), dy) end },
}
CALLS.GatherNd = {
  { "elements, repeated", args = { U({ 3, 2 }), tf.constant({ { 2, 1 }, { 0, 0 }, { 2, 1 } }) },
    fn = function(x, i) return tf.gather_nd(x, i) end },
  { "rows", args = { U({ 3, 2 }), tf.constant({ { { 1 } }, { { 2 } } }) }, fn = function(x, i) return tf.gather_nd(x, i) end },
}
CALLS.ScatterNd = {
  { "repeated tuples", args = { tf.constant({ { 1 }, { 3 }, { 1 } }), U({ 3, 2 }) },
    fn = function(i, u) return tf.scatter_nd(i, u, { 4, 2 }) end },
}
CALLS.TensorScatterAdd = {
  { "elements", args = { U({ 2, 3 }), tf.constant({ { 0, 2 }, { 1, 1 }, { 0, 2 } }), U({ 3 }) },
    fn = function(t, i, u) return tf.tensor_scatter_nd_add(t, i, u) end },
}
CALLS.TopKV2 = {
  { "k = 2 of rows", args = { D({ 2, 4 }) }, fn = function(x) return (tf.math.top_k(x, 2)) end },
  { "sort along axis 0", args = { D({ 3, 2 }) }, fn = function(x) return tf.sort(x, 0) end },
}
CALLS.Cumsum = {
  { "exclusive", args = { U({ 2, 3 }) }, fn = function(x) return tf.math.cumsum(x, 1, { exclusive = true }) end },
  { "reverse", args = { U({ 3, 2 }) }, fn = function(x) return tf.math.cumsum(x, 0, { reverse = true }) end },
}
CALLS.Cumprod = {
  { "axis 1", args = { U({ 2, 3 }, 0.5, 2) }, fn = function(x) return tf.math.cumprod(x, 1) end },
  { "exclusive reverse", args = { U({ 3 }, -2, -0.5) },
    fn = function(x) return tf.math.cumprod(x, 0, true, true) end },
}

-- The check ---------------------------------------------------------------------------

local function pack(...) return table.pack(...) end

-- Output tensors of a call, as a list (a function may return a table).
local function outputs_of(r)
  if r.n == 1 and type(r[1]) == "table" and not core.is_tensor(r[1]) then
    return table.move(r[1], 1, #r[1], 1, {})
  end
  return table.move(r, 1, r.n, 1, {})
end

-- The scalar objective: sum_k <u_k, y_k> in float64, over the float outputs.
local function objective(outs, weights)
  local total
  for k, y in ipairs(outs) do
    if weights[k] then
      local yd = core.dtype(y) == F64 and y or tf.cast(y, F64)
      local term = tf.reduce_sum(weights[k] * yd)
      total = total and total + term or term
    end
  end
  return total
end

-- Builds an entry's concrete arguments in dtype (float64, or float32 for
-- the float32 pass; exact specs keep their own dtype).
local function build_args(entry, values, dtype)
  local args, diff = {}, {}
  for i, a in ipairs(entry.args) do
    if type(a) == "table" and a.spec then
      args[i] = tensor_of(values[i], a.shape, a.dtype or dtype)
      if not (entry.fixed and entry.fixed[i]) then diff[#diff + 1] = i end
    else
      args[i] = a
    end
  end
  return args, diff
end

local function shape_list(x)
  local _, _, s = core.info(x)
  return s
end

local function same_list(a, b)
  if #a ~= #b then return false end
  for i = 1, #a do if a[i] ~= b[i] then return false end end
  return true
end

local function flat(x)
  local v = x:numpy()
  local out = {}
  local function walk(t)
    if type(t) == "table" then for _, e in ipairs(t) do walk(e) end else out[#out + 1] = t end
  end
  walk(v)
  return out
end

-- The tape's gradients of the objective with respect to the float
-- arguments, in a list aligned with `diff`.
local function tape_gradients(fn, args, diff, weights, nargs)
  local tape = tf.GradientTape()
  for _, i in ipairs(diff) do tape:watch(args[i]) end
  local outs = outputs_of(pack(fn(table.unpack(args, 1, nargs))))
  local obj = objective(outs, weights)
  tape:stop()
  local recorded = {}
  for _, e in ipairs(tape._entries) do recorded[e.type] = true end
  local sources = {}
  for k, i in ipairs(diff) do sources[k] = args[i] end
  local grads = tape:gradient(obj, sources)
  return grads, recorded
end

-- Checks one entry of op `name`; returns a list of failure messages.
local function check_entry(name, entry)
  local failures = {}
  local function fail(fmt, ...) failures[#failures + 1] = ("%s [%s]: " .. fmt):format(name, entry[1], ...) end
  local eps = entry.eps or 1e-6
  local tol = entry.tol or 1e-5
  local nargs = #entry.args
  local values = {}
  for i, a in ipairs(entry.args) do
    if type(a) == "table" and a.spec then values[i] = materialize(a) end
  end
  local args, diff = build_args(entry, values, F64)

  -- Fixed cotangent weights for the float outputs.
  local outs = outputs_of(pack(entry.fn(table.unpack(args, 1, nargs))))
  local weights = {}
  for k, y in ipairs(outs) do
    if core.dtype(y).is_floating then weights[k] = tensor_of(materialize(U(shape_list(y))), shape_list(y), F64) end
  end

  -- Numeric gradient: central differences of the objective, element by element.
  local function f_at(i, j, delta)
    local saved = values[i][j]
    values[i][j] = saved + delta
    local a = build_args(entry, values, F64)
    values[i][j] = saved
    return objective(outputs_of(pack(entry.fn(table.unpack(a, 1, nargs)))), weights):numpy()
  end
  local numeric = {}
  for k, i in ipairs(diff) do
    numeric[k] = {}
    for j = 1, #values[i] do
      numeric[k][j] = (f_at(i, j, eps) - f_at(i, j, -eps)) / (2 * eps)
    end
  end

  local function compare(mode, grads, xs, tolerance)
    for k, i in ipairs(diff) do
      local g = grads[k]
      local x = xs[i]
      if g == nil then
        fail("%s: the gradient of argument %d is nil", mode, i)
      else
        local want_dtype = core.dtype(x)
        if core.dtype(g) ~= want_dtype then
          fail("%s: gradient %d has dtype %s, the argument %s", mode, i, core.dtype(g).name, want_dtype.name)
        elseif not same_list(shape_list(g), shape_list(x)) then
          fail("%s: gradient %d has shape %s, the argument %s", mode, i, tostring(g.shape), tostring(x.shape))
        else
          local got = flat(g)
          for j, want in ipairs(numeric[k]) do
            if math.abs(got[j] - want) > tolerance * math.max(1, math.abs(want)) then
              fail("%s: d/d(arg %d)[%d]: numeric %.10g, tape %.10g", mode, i, j - 1, want, got[j])
              break
            end
          end
        end
      end
    end
  end

  -- Eager.
  local ok, err = pcall(function()
    local grads, recorded = tape_gradients(entry.fn, args, diff, weights, nargs)
    if not recorded[name] and not entry.graph_only then fail("eager: the call never recorded a %s op", name) end
    compare("eager", grads, args, tol)
  end)
  if not ok then fail("eager: %s", tostring(err)) end

  -- The tape inside a tf.func.
  ok, err = pcall(function()
    local traced = tf.func(function(...)
      local a = table.pack(...)
      local grads = tape_gradients(entry.fn, a, diff, weights, nargs)
      return table.unpack(grads, 1, #diff)
    end, { name = "gradcheck_" .. name, autograph = false }) -- the harness's helpers are plain Lua
    local grads = pack(traced(table.unpack(args, 1, nargs)))
    local in_graph = false
    for _, o in ipairs(traced:concrete_functions()[1].graph:get_operations()) do
      if o.type == name then in_graph = true end
    end
    if not in_graph then fail("tf.func: the traced graph has no %s op", name) end
    compare("tf.func", grads, args, tol)
    -- A second call runs the graph without tracing again.
    local again = pack(traced(table.unpack(args, 1, nargs)))
    compare("tf.func (2nd call)", again, args, tol)
  end)
  if not ok then fail("tf.func: %s", tostring(err)) end

  -- The same with every dimension of the float arguments unknown while
  -- tracing (an input_signature of None dimensions): the rules' dynamic
  -- shape paths.
  if entry.unknown_dims ~= false then
    ok, err = pcall(function()
      local signature = {}
      for i, a in ipairs(entry.args) do
        if type(a) == "table" and a.spec then
          local dims = {}
          for d = 1, #a.shape do dims[d] = tf.None end
          signature[i] = tf.TensorSpec(dims, core.dtype(args[i]))
        else
          signature[i] = tf.TensorSpec(shape_list(a), core.dtype(a))
        end
      end
      local traced = tf.func(function(...)
        local a = table.pack(...)
        local grads = tape_gradients(entry.fn, a, diff, weights, nargs)
        return table.unpack(grads, 1, #diff)
      end, { name = "gradcheck_dynamic_" .. name, autograph = false, input_signature = signature })
      compare("tf.func, unknown dims", pack(traced(table.unpack(args, 1, nargs))), args, tol)
    end)
    if not ok then fail("tf.func, unknown dims: %s", tostring(err)) end
  end

  -- float32: the same rule, looser against the float64 numbers.
  if entry.f32 ~= false then
    ok, err = pcall(function()
      local a32, d32 = build_args(entry, values, F32)
      local grads = tape_gradients(entry.fn, a32, d32, weights, nargs)
      compare("float32", grads, a32, 2e-3)
    end)
    if not ok then fail("float32: %s", tostring(err)) end
  end

  -- Second order: h(x) = <tape gradient of the objective, d> for a fixed
  -- direction d, differentiated by an outer tape (so the rule's own ops
  -- are differentiated), against central differences of h. A nil second
  -- gradient is right only where h does not depend on the argument.
  if entry.first_order_only then return failures end
  ok, err = pcall(function()
    local dirs = {}
    for k, i in ipairs(diff) do
      local shape = entry.args[i].shape
      dirs[k] = tensor_of(materialize(U(shape)), shape, F64)
    end
    local function h_of(a)
      local grads = tape_gradients(entry.fn, a, diff, weights, nargs)
      local total
      for k = 1, #diff do
        if grads[k] ~= nil then
          local g = grads[k]
          if core.dtype(g) ~= F64 then g = tf.cast(g, F64) end
          local term = tf.reduce_sum(g * dirs[k])
          if total == nil then total = term else total = total + term end
        end
      end
      return total
    end
    local outer = tf.GradientTape()
    for _, i in ipairs(diff) do outer:watch(args[i]) end
    local h = h_of(args)
    outer:stop()
    local sources = {}
    for k, i in ipairs(diff) do sources[k] = args[i] end
    local second = outer:gradient(h, sources)
    for k, i in ipairs(diff) do
      local numeric2 = {}
      for j = 1, #values[i] do
        local saved = values[i][j]
        values[i][j] = saved + eps
        local hp = h_of((build_args(entry, values, F64))):numpy()
        values[i][j] = saved - eps
        local hm = h_of((build_args(entry, values, F64))):numpy()
        values[i][j] = saved
        numeric2[j] = (hp - hm) / (2 * eps)
      end
      local got = second[k] and flat(second[k]) or nil
      for j, want in ipairs(numeric2) do
        local have = got and got[j] or 0
        if math.abs(have - want) > 10 * tol * math.max(1, math.abs(want)) then
          fail("second order: d/d(arg %d)[%d] of <gradient, d>: numeric %.10g, tape %s", i, j - 1, want,
            got and ("%.10g"):format(have) or "nil")
          break
        end
      end
    end
  end)
  if not ok then fail("second order: %s", tostring(err)) end
  return failures
end

local function differentiable_ops(op_list)
  local list = {}
  for _, o in ipairs(op_list or core.op_list()) do
    if not (o.no_gradient or o.random or o.stateful or PLUMBING[o.name]) then list[#list + 1] = o.name end
  end
  return list
end

-- What keeps the registry from being fully checked: differentiable ops
-- without a gradient rule or without a call entry.
local function coverage_problems(op_list)
  local missing = {}
  for _, name in ipairs(differentiable_ops(op_list)) do
    if not TF_UNDEFINED[name] then
      if not RULES[name] then missing[#missing + 1] = name .. ": no gradient rule in grad/<family>.lua" end
      if not CALLS[name] or #CALLS[name] == 0 then
        missing[#missing + 1] = name .. ": no entry in the call table of tests/lua/gradcheck_spec.lua"
      end
    end
  end
  return missing
end

describe("gradient check harness", function()
  it("every differentiable op has a gradient rule and a call entry (or is listed as TF-undefined)", function()
    assert.are.same({}, coverage_problems())
  end)

  it("fails for a new differentiable op without a call entry or rule, and for a wrong rule", function()
    local ops = core.op_list()
    ops[#ops + 1] = { name = "FreshlyRegisteredOp" }
    ops[#ops + 1] = { name = "FreshlyRegisteredNoGrad", no_gradient = true }
    assert.are.same({ "FreshlyRegisteredOp: no gradient rule in grad/<family>.lua",
      "FreshlyRegisteredOp: no entry in the call table of tests/lua/gradcheck_spec.lua" }, coverage_problems(ops))
    local good = RULES.Square
    RULES.Square = function(n, dy) return { dy[1] * 2.001 * n.inputs[1] } end
    local ok, failures = pcall(check_entry, "Square", CALLS.Square[1])
    RULES.Square = good
    assert.is_true(ok, tostring(failures))
    assert.is_true(#failures >= 4, "a 0.05 % error went unnoticed")
    assert.are.same({}, check_entry("Square", CALLS.Square[1]))
  end)

  it("lists only registered, differentiable ops in its call table and TF-undefined list", function()
    local registered = {}
    for _, o in ipairs(core.op_list()) do registered[o.name] = o end
    local stray = {}
    for name in pairs(CALLS) do
      local o = registered[name]
      if not o then stray[#stray + 1] = name .. " is not a registered op"
      elseif o.no_gradient then stray[#stray + 1] = name .. " is registered as not differentiable" end
    end
    for name in pairs(TF_UNDEFINED) do
      if CALLS[name] then stray[#stray + 1] = name .. " is both TF-undefined and in the call table" end
    end
    table.sort(stray)
    assert.are.same({}, stray)
  end)

  for _, name in ipairs(differentiable_ops()) do
    if CALLS[name] then
      it(("%s: tape gradients match central differences (float64 eager, in tf.func; float32)"):format(name), function()
        local failures = {}
        for _, entry in ipairs(CALLS[name]) do
          for _, f in ipairs(check_entry(name, entry)) do failures[#failures + 1] = f end
        end
        assert.are.same({}, failures)
      end)
    end
  end
end)

-- The tape ----------------------------------------------------------------------------

local function repr(x) return getmetatable(x).__repr(x) end

describe("tf.GradientTape", function()
  it("gives nil for sources the target does not depend on", function()
    local x, z = tf.constant(2.0), tf.constant(5.0)
    local v = tf.Variable(1.0)
    local tape = tf.GradientTape()
    tape:watch({ x, z })
    local y = x * x
    tape:stop()
    local g = tape:gradient(y, { x, z, v })
    H.close(4.0, g[1])
    assert.is_nil(g[2])
    assert.is_nil(g[3])
  end)

  it("gives nil through integer paths and for integer sources (as TF: not recorded)", function()
    local x = tf.constant(2.5)
    local tape = tf.GradientTape({ persistent = true })
    tape:watch(x)
    local through_int = tf.cast(tf.cast(x, tf.int32), tf.float32) * 3
    local i = tf.constant(2)
    tape:watch(i) -- TF warns: the dtype of the watched tensor must be floating
    local j = i * 3
    local k = tf.gather(x * tf.ones({ 3 }), i)
    tape:stop()
    assert.is_nil(tape:gradient(through_int, x))
    assert.is_nil(tape:gradient(j, i))
    assert.is_nil(tape:gradient(k, i)) -- indices carry no gradient
    H.close(1.0, tape:gradient(k, x))
    -- stop_gradient cuts the path too.
    local t2 = tf.GradientTape()
    t2:watch(x)
    local s = tf.stop_gradient(x * x) * x
    t2:stop()
    H.close(6.25, t2:gradient(s, x))
  end)

  it("allows many gradient calls on a persistent tape; a non-persistent one raises on the second", function()
    local x = tf.constant(3.0)
    local tape = tf.GradientTape({ persistent = true })
    tape:watch(x)
    local y = x * x
    local z = y * y
    tape:stop()
    H.close(6.0, tape:gradient(y, x))
    H.close(108.0, tape:gradient(z, x))
    H.close(6.0, tape:gradient(y, x))
    local once = tf.GradientTape()
    once:watch(x)
    local w = x * x
    once:stop()
    H.close(6.0, once:gradient(w, x))
    H.raises("RuntimeError", "GradientTape.gradient can only be called once on non-persistent tapes",
      function() return once:gradient(w, x) end)
  end)

  it("watches trainable variables it reads, and variables given to watch", function()
    local v = tf.Variable(2.0)
    local frozen = tf.Variable(3.0, { trainable = false })
    local tape = tf.GradientTape({ persistent = true })
    local y = v * v * frozen
    tape:stop()
    H.close(12.0, tape:gradient(y, v))
    assert.is_nil(tape:gradient(y, frozen)) -- not trainable: not watched
    local watched = tape:watched_variables()
    assert.are.equal(1, #watched)
    assert.are.equal(v, watched[1])
    local t2 = tf.GradientTape()
    t2:watch(frozen)
    local y2 = v * frozen * frozen
    t2:stop()
    local g = t2:gradient(y2, { v, frozen })
    H.close(9.0, g[1])
    H.close(12.0, g[2])
  end)

  it("with watch_accessed_variables = false watches only what watch names", function()
    local a, b = tf.Variable(2.0), tf.Variable(5.0)
    local tape = tf.GradientTape({ watch_accessed_variables = false })
    tape:watch(a)
    local y = a * b
    tape:stop()
    local g = tape:gradient(y, { a, b })
    H.close(5.0, g[1])
    assert.is_nil(g[2])
    -- As TF: the variables given to watch are the watched ones.
    local w = tape:watched_variables()
    assert.are.equal(1, #w)
    assert.is_true(rawequal(a, w[1]))
  end)

  it("returns gradients in the structure of the sources, and takes output_gradients", function()
    local x = tf.constant({ 1.0, 2.0 })
    local v = tf.Variable({ { 1.0, 0.0 }, { 0.0, 2.0 } })
    local tape = tf.GradientTape({ persistent = true })
    tape:watch(x)
    local y = tf.matmul(tf.reshape(x, { 1, 2 }), v)
    tape:stop()
    local g = tape:gradient(y, { x = x, params = { v } })
    H.close({ 1.0, 2.0 }, g.x)
    H.close({ { 1.0, 1.0 }, { 2.0, 2.0 } }, g.params[1])
    H.close({ 3.0, 4.0 }, tape:gradient(y, x, tf.constant({ { 3.0, 2.0 } })))
  end)

  it("computes a small Jacobian (y = x^2 -> diag(2x); a matrix map)", function()
    local x = tf.constant({ 1.0, 2.0, 3.0 })
    local tape = tf.GradientTape()
    tape:watch(x)
    local y = x * x
    tape:stop()
    local j = tape:jacobian(y, x)
    assert.are.same({ 3, 3 }, j.shape:as_list())
    H.close({ { 2, 0, 0 }, { 0, 4, 0 }, { 0, 0, 6 } }, j)
    local w = tf.Variable({ { 1.0, 2.0 }, { 3.0, 4.0 }, { 5.0, 6.0 } })
    local t2 = tf.GradientTape()
    local z = tf.matmul(w, tf.constant({ { 1.0 }, { -1.0 } })) -- (3, 1)
    t2:stop()
    local jw = t2:jacobian(z, w)
    assert.are.same({ 3, 1, 3, 2 }, jw.shape:as_list())
    H.close({ { { { 1, -1 }, { 0, 0 }, { 0, 0 } } }, { { { 0, 0 }, { 1, -1 }, { 0, 0 } } },
      { { { 0, 0 }, { 0, 0 }, { 1, -1 } } } }, jw)
    -- Inside a tf.func (static shapes), and nil for an unconnected source as in TF.
    local traced = tf.func(function(u)
      local t = tf.GradientTape()
      t:watch(u)
      local v = tf.stack({ u[0] * u[1], tf.sin(u[0]) })
      t:stop()
      return t:jacobian(v, u)
    end)
    local jt = traced(tf.constant({ 2.0, 3.0 }))
    assert.are.same({ 2, 2 }, jt.shape:as_list())
    H.close({ { 3.0, 2.0 }, { math.cos(2.0), 0.0 } }, jt)
    local t3 = tf.GradientTape()
    t3:watch(x)
    local unrelated = tf.constant({ 1.0, 2.0 }) * 2
    t3:stop()
    assert.is_nil(t3:jacobian(unrelated, x))
  end)

  it("nests for second derivatives: d2/dx2 of x^3 at x = 2 is 12", function()
    local x = tf.constant(2.0)
    local outer = tf.GradientTape()
    outer:watch(x)
    local inner = tf.GradientTape()
    inner:watch(x)
    local y = x * x * x
    inner:stop()
    local dy = inner:gradient(y, x)
    outer:stop()
    H.close(12.0, dy)
    H.close(12.0, outer:gradient(dy, x))
    -- The same inside a tf.func, and through tf.pow.
    local second = tf.func(function(t)
      local o = tf.GradientTape()
      o:watch(t)
      local i = tf.GradientTape()
      i:watch(t)
      local u = tf.pow(t, 3)
      i:stop()
      local du = i:gradient(u, t)
      o:stop()
      return o:gradient(du, t)
    end)
    H.close(12.0, second(tf.constant(2.0)))
  end)

  it("second derivatives through BiasAdd, Conv2D and cross-entropy (their gradients' gradients)", function()
    -- d/dx of sum(d/db sum(bias_add(x, b)^2)) = d/dx sum(2 (x + b)) = 2
    local x = tf.constant({ { 1.0, 2.0 } })
    local b = tf.constant({ 0.5, -0.5 })
    local outer = tf.GradientTape()
    outer:watch(x)
    local inner = tf.GradientTape()
    inner:watch(b)
    local y = tf.nn.bias_add(x, b)
    local loss = tf.reduce_sum(y * y)
    inner:stop()
    local gb = inner:gradient(loss, b)
    local s = tf.reduce_sum(gb)
    outer:stop()
    H.close({ { 2.0, 2.0 } }, outer:gradient(s, x))
    -- conv: l = sum(conv(x, w)^2), dl/dx = 2 conv^T(conv(x, w)); for a 1x1
    -- filter w = (p, q): |dl/dx|^2 = 4 (p^2 + q^2)^2 sum(x^2), so
    -- d/dw = 16 (p^2 + q^2) sum(x^2) (p, q) = 16 * 1.25 * 30 * (0.5, -1).
    local xi = tf.reshape(tf.constant({ 1.0, 2.0, 3.0, 4.0 }, tf.float64), { 1, 2, 2, 1 })
    local w = tf.reshape(tf.constant({ 0.5, -1.0 }, tf.float64), { 1, 1, 1, 2 })
    local o2 = tf.GradientTape()
    o2:watch(w)
    local i2 = tf.GradientTape()
    i2:watch(xi)
    local c = tf.nn.conv2d(xi, w, 1, "VALID")
    local l = tf.reduce_sum(c * c)
    i2:stop()
    local gx = i2:gradient(l, xi)
    local z = tf.reduce_sum(gx * gx)
    o2:stop()
    H.close({ { { { 300.0, -600.0 } } } }, o2:gradient(z, w))
    -- Hessian of softmax cross-entropy: diag(p) - p p^T.
    local logits = tf.constant({ { 0.0, math.log(2.0), math.log(5.0) } }, tf.float64)
    local labels = tf.constant({ { 0.0, 1.0, 0.0 } }, tf.float64)
    local o3 = tf.GradientTape()
    o3:watch(logits)
    local i3 = tf.GradientTape()
    i3:watch(logits)
    local ce = tf.nn.softmax_cross_entropy_with_logits(labels, logits)
    i3:stop()
    local gl = i3:gradient(ce, logits)
    o3:stop()
    local p = { 0.125, 0.25, 0.625 }
    local hessian = o3:jacobian(gl, logits)
    local want = {}
    for r = 1, 3 do
      want[r] = {}
      for c2 = 1, 3 do want[r][c2] = (r == c2 and p[r] or 0) - p[r] * p[c2] end
    end
    H.close({ { { want[1] }, { want[2] }, { want[3] } } }, tf.reshape(hessian, { 1, 3, 1, 3 }))
  end)

  it("differentiates through a call of a tf.func (the guide's add(v, 1.0) gives 1.0)", function()
    local add = tf.func(function(a, b) return a + b end)
    local v = tf.Variable(1.0)
    local tape = tf.GradientTape()
    local result = add(v, 1.0)
    tape:stop()
    assert.are.equal("<tf.Tensor: shape=(), dtype=float32, numpy=1.0>", repr(tape:gradient(result, v)))
    -- Tensor parameters, captured variables, several results, second order.
    local w = tf.Variable(3.0)
    local f = tf.func(function(x) return x * x * w, x + w end)
    local x = tf.constant(2.0)
    local t = tf.GradientTape({ persistent = true })
    t:watch(x)
    local y1, y2 = f(x)
    local total = y1 + 10 * y2
    t:stop()
    local g = t:gradient(total, { x, w })
    H.close(2 * 2 * 3 + 10, g[1])
    H.close(4 + 10, g[2])
    local cube = tf.func(function(u) return u * u * u end)
    local o = tf.GradientTape()
    o:watch(x)
    local i = tf.GradientTape()
    i:watch(x)
    local c = cube(x)
    i:stop()
    local dc = i:gradient(c, x)
    o:stop()
    H.close(12.0, dc)
    H.close(12.0, o:gradient(dc, x))
  end)

  it("records within a `local tape <close>` scope and stops at its end", function()
    local x = tf.constant(3.0)
    local y, tape
    do
      local t <close> = tf.GradientTape()
      t:watch(x)
      y = x * x
      tape = t
    end
    local after = y * 10 -- not recorded: the scope has closed
    assert.is_truthy(tostring(tape):find("stopped", 1, true))
    H.close(6.0, tape:gradient(y, x))
    local t2
    do
      local t <close> = tf.GradientTape({ persistent = true })
      t:watch(x)
      y = x * x
      t2 = t
    end
    after = y * 10
    assert.is_nil(t2:gradient(after, x))
    -- An error inside the scope still closes it.
    local escaped
    local ok = pcall(function()
      local t <close> = tf.GradientTape()
      escaped = t
      error("boom")
    end)
    assert.is_false(ok)
    assert.is_truthy(tostring(escaped):find("stopped", 1, true))
  end)

  it("works inside tf.func with variables (a traced training step)", function()
    local v = tf.Variable({ 1.0, -2.0 })
    local step = tf.func(function(x)
      local tape = tf.GradientTape()
      local loss = tf.reduce_sum(tf.square(v * x - 1))
      tape:stop()
      local g = tape:gradient(loss, v)
      v:assign_sub(0.1 * g)
      return loss
    end)
    local x = tf.constant({ 2.0, 0.5 })
    -- loss = (2 - 1)^2 + (-1 - 1)^2 = 5; g = 2 (v x - 1) x = (4, -2)
    H.close(5.0, step(x))
    H.close({ 0.6, -1.8 }, v:numpy())
    step(x)
    assert.are.equal(1, step:experimental_get_tracing_count())
  end)
end)
