-- elementwise.lua — the elementwise family (core/ops/ops_elementwise.c):
-- the unary and binary math ops, tf.cast, tf.where (SelectV2; Where with
-- the condition alone), tf.nn.relu, and the composites built on them as
-- TF's Python builds them: tf.math.logical_xor, tf.clip_by_value
-- (Minimum then Maximum, clip_ops.py).

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local options = require("moonflow.options")
local dtypes = require("moonflow.tensor.dtypes")
local common = require("moonflow.ops.common")
local core_ops = require("moonflow.ops.core")
local dispatch = require("moonflow.tensor.dispatch")
local raise = errors.raise

local op, binary = core.op, core.binary
local H = state.H
local op_def, name_opt = common.op_def, common.name_opt
local to_tensor = core_ops.to_tensor

local M = {}

local function unary(tfname, opname)
  local h = H[opname]
  local f = function(x, opts)
    if type(x) == "table" and dispatch.is_ragged(x) then
      return dispatch.map_flat_values(function(v) return op(h, name_opt(opts), v) end, x)
    end
    return op(h, name_opt(opts), x)
  end
  return op_def(opname, f, tfname .. "(x)", nil, { required = 1, via = { name_opt }, "name" })
end

-- default_name: the node's name when TF's wrapper opens a name scope of
-- its own (math_ops.add's "Add", floordiv's "floordiv"); else the op's.
local function bin(tfname, opname, default_name)
  local h = H[opname]
  local default = default_name and { name = default_name } or nil
  local f = function(x, y, opts)
    if (type(x) == "table" or type(y) == "table") and (dispatch.is_ragged(x) or dispatch.is_ragged(y)) then
      return dispatch.binary(function(a, b) return binary(h, a, b, name_opt(opts, default)) end, x, y)
    end
    return binary(h, x, y, name_opt(opts, default))
  end
  return op_def(opname, f, tfname .. "(x, y)", "Broadcasts like NumPy; x and y must have one dtype (a Lua "
    .. "number takes the tensor's).", { required = 2, via = { name_opt }, "name" })
end

local UNARIES = {
  { "negative", "Neg" }, { "abs", "Abs" }, { "sign", "Sign" }, { "square", "Square" }, { "sqrt", "Sqrt" },
  { "rsqrt", "Rsqrt" }, { "exp", "Exp" }, { "log", "Log" }, { "log1p", "Log1p" }, { "sin", "Sin" },
  { "cos", "Cos" }, { "tanh", "Tanh" }, { "sigmoid", "Sigmoid" }, { "round", "Round" }, { "floor", "Floor" },
  { "ceil", "Ceil" }, { "reciprocal", "Reciprocal" }, { "logical_not", "LogicalNot" },
  { "sinh", "Sinh" }, { "cosh", "Cosh" }, { "tan", "Tan" }, { "asin", "Asin" }, { "acos", "Acos" },
  { "atan", "Atan" }, { "asinh", "Asinh" }, { "acosh", "Acosh" }, { "atanh", "Atanh" },
}
-- TF has these in tf.math only (softplus and softsign in tf.nn too).
local MATH_UNARIES = {
  { "expm1", "Expm1" }, { "lgamma", "Lgamma" }, { "digamma", "Digamma" }, { "erf", "Erf" }, { "erfc", "Erfc" },
  { "rint", "Rint" }, { "is_nan", "IsNan" }, { "is_inf", "IsInf" }, { "is_finite", "IsFinite" },
  { "softplus", "Softplus" }, { "softsign", "Softsign" },
}
local BINARIES = {
  { "add", "AddV2", "Add" }, { "subtract", "Sub" }, { "multiply", "Mul" }, { "floordiv", "FloorDiv", "floordiv" },
  { "floormod", "FloorMod" }, { "pow", "Pow" }, { "maximum", "Maximum" }, { "minimum", "Minimum" },
  { "equal", "Equal" }, { "not_equal", "NotEqual" }, { "less", "Less" }, { "less_equal", "LessEqual" },
  { "greater", "Greater" }, { "greater_equal", "GreaterEqual" }, { "logical_and", "LogicalAnd" },
  { "logical_or", "LogicalOr" }, { "atan2", "Atan2" }, { "truncatediv", "TruncateDiv" },
  { "truncatemod", "TruncateMod" },
}
-- TF has these in tf.math only.
local MATH_BINARIES = { { "xdivy", "Xdivy" }, { "xlogy", "Xlogy" }, { "polygamma", "Polygamma" },
  { "xlog1py", "Xlog1py" }, { "zeta", "Zeta" }, { "igamma", "Igamma" }, { "igammac", "Igammac" } }
-- The special functions: TF has the Bessel I's in tf.math and
-- tf.math.special, the rest in tf.math.special only.
local BESSEL_MATH = { { "bessel_i0", "BesselI0" }, { "bessel_i0e", "BesselI0e" }, { "bessel_i1", "BesselI1" },
  { "bessel_i1e", "BesselI1e" } }
local BESSEL_SPECIAL = { { "bessel_j0", "BesselJ0" }, { "bessel_j1", "BesselJ1" }, { "bessel_y0", "BesselY0" },
  { "bessel_y1", "BesselY1" }, { "bessel_k0", "BesselK0" }, { "bessel_k0e", "BesselK0e" },
  { "bessel_k1", "BesselK1" }, { "bessel_k1e", "BesselK1e" }, { "dawsn", "Dawsn" }, { "expint", "Expint" },
  { "fresnel_cos", "FresnelCos" }, { "fresnel_sin", "FresnelSin" }, { "spence", "Spence" } }
-- The names tf and tf.math both list.
local both = {}
for _, u in ipairs(UNARIES) do
  M[u[1]] = unary("tf." .. u[1], u[2])
  both[#both + 1] = u[1]
end
local math_only = {}
for _, u in ipairs(MATH_UNARIES) do
  M[u[1]] = unary("tf.math." .. u[1], u[2])
  math_only[#math_only + 1] = u[1]
end
for _, b in ipairs(BINARIES) do
  M[b[1]] = bin("tf." .. b[1], b[2], b[3])
  both[#both + 1] = b[1]
end
for _, b in ipairs(MATH_BINARIES) do
  M[b[1]] = bin("tf.math." .. b[1], b[2], b[3])
  math_only[#math_only + 1] = b[1]
end
local special_names = {}
for _, u in ipairs(BESSEL_MATH) do
  M[u[1]] = unary("tf.math." .. u[1], u[2])
  math_only[#math_only + 1] = u[1]
  special_names[#special_names + 1] = u[1]
end
for _, u in ipairs(BESSEL_SPECIAL) do
  M[u[1]] = unary("tf.math.special." .. u[1], u[2])
  special_names[#special_names + 1] = u[1]
end

-- math_ops.log_sigmoid: -softplus(-x), its nodes named as TF's name
-- scope names them (LogSigmoid/Neg, LogSigmoid/Softplus, LogSigmoid).
M.log_sigmoid = op_def("Softplus", function(x, opts)
  local scope = opts.name or "LogSigmoid"
  local inner = M.softplus(M.negative(to_tensor(x), { name = scope .. "/Neg" }), { name = scope .. "/Softplus" })
  return M.negative(inner, { name = scope })
end, "tf.math.log_sigmoid(x)", "log(1 / (1 + exp(-x))) as -softplus(-x), exact for large |x|.",
{ required = 1, "name" })
math_only[#math_only + 1] = "log_sigmoid"

-- tf.math.betainc: the three inputs take one dtype, the first tensor's
-- (TF's eager conversion reads the dtype attr from any tensor input), and
-- are scalars or of one shape (the kernel does not broadcast).
M.betainc = op_def("Betainc", function(a, b, x, opts)
  local dt
  for _, v in ipairs({ a, b, x }) do
    if core.is_tensor(v) then
      dt = core.dtype(v)
      break
    end
  end
  local function convert(v) return core.is_tensor(v) and v or (dt and core.convert(v, dt) or to_tensor(v)) end
  return op(H.Betainc, name_opt(opts), convert(a), convert(b), convert(x))
end, "tf.math.betainc(a, b, x)", "Float32 or float64; NaN where a <= 0, b <= 0 or x is outside [0, 1]. "
  .. "The gradient is for x only (none for a and b, as TF's).", { required = 3, via = { name_opt }, "name" })
math_only[#math_only + 1] = "betainc"

-- The activations TF's nn namespace has as ops.
M.elu = unary("tf.nn.elu", "Elu")
M.selu = unary("tf.nn.selu", "Selu")
M.relu6 = unary("tf.nn.relu6", "Relu6")

-- nn_ops.leaky_relu: integer features are made float32 first.
M.leaky_relu = op_def("LeakyRelu", function(features, alpha, opts)
  local x = to_tensor(features)
  if core.dtype(x).is_integer then x = M.cast(x, dtypes.float32) end
  alpha = alpha == nil and 0.2 or alpha
  if type(alpha) ~= "number" then raise("TypeError", "tf.nn.leaky_relu: alpha must be a number", 3) end
  return op(H.LeakyRelu, { alpha = alpha + 0.0, name = opts.name }, x)
end, "tf.nn.leaky_relu(features [, alpha])", "Integer features are cast to float32 first, as in TF.",
{ required = 1, positional = { "alpha" }, "name" })

M.logical_xor = options.def(function(x, y, opts)
  return M.logical_and(M.logical_or(x, y), M.logical_not(M.logical_and(x, y)), { name = opts.name })
end, "tf.math.logical_xor(x, y)", "Boolean exclusive or elementwise.", { required = 2, "name" })

--- x / y as TF's truediv: integers divided as float64; library-internal.
function M.true_divide(x, y, attrs)
  local tx = core.is_tensor(x) and core.dtype(x) or nil
  local ty = core.is_tensor(y) and core.dtype(y) or nil
  if tx and ty and tx ~= ty then
    raise("InvalidArgumentError", ("x and y must have the same dtype, got %s != %s"):format(tx.name, ty.name), 3)
  end
  local dt = tx or ty
  if dt and dt.is_integer then
    -- TF's _TRUEDIV_TABLE: the 8- and 16-bit integers as float32, the rest as float64.
    local to = dt.size <= 2 and dtypes.float32 or dtypes.float64
    x = op(H.Cast, { DstT = to }, to_tensor(x, dt))
    y = op(H.Cast, { DstT = to }, to_tensor(y, dt))
  end
  return binary(H.RealDiv, x, y, attrs)
end
local truediv = M.true_divide
-- TF's divide is x / y: its node is named truediv, as the operator's.
local TRUEDIV = { name = "truediv" }
M.divide = op_def("RealDiv", function(x, y, opts)
  if dispatch.is_ragged(x) or dispatch.is_ragged(y) then
    return dispatch.binary(function(a, b) return truediv(a, b, name_opt(opts, TRUEDIV)) end, x, y)
  end
  return truediv(x, y, name_opt(opts, TRUEDIV))
end,
  "tf.divide(x, y)", "Integers are divided as float64, as in TF.",
  { required = 2, via = { name_opt }, "name" })

M.cast = op_def("Cast", function(x, dtype, opts)
  if dispatch.is_ragged(x) then
    return dispatch.map_flat_values(function(v) return M.cast(v, dtype, opts) end, x)
  end
  dtype = dtypes.as_dtype(dtype)
  x = to_tensor(x)
  if core.dtype(x) == dtype then return op(H.Identity, name_opt(opts, { name = "Cast" }), x) end
  return op(H.Cast, { DstT = dtype, name = opts.name or "Cast" }, x)
end, "tf.cast(x, dtype)", "dtype is a tf dtype or its name.",
{ required = 1, positional = { "dtype" }, "name" })

M.where = op_def("SelectV2", function(cond, x, y, opts)
  if x == nil and y == nil then return op(H.Where, name_opt(opts), cond) end
  -- TF's where_v2 refuses one branch alone before building any op.
  if x == nil or y == nil then raise("ValueError", "x and y must both be non-None or both be None.", 2) end
  return op(H.SelectV2, { _typed = 6, name = opts.name or "SelectV2" }, cond, x, y)
end, "tf.where(condition [, x, y])",
"With the condition alone it is op Where: the 0-based coordinates of the true elements, int64 [n, rank].",
{ required = 1, positional = { "x", "y" }, "name" })

M.relu = unary("tf.nn.relu", "Relu")

M.divide_no_nan = op_def("DivNoNan", function(x, y, opts)
  local tx = core.is_tensor(x) and core.dtype(x) or nil
  local ty = core.is_tensor(y) and core.dtype(y) or nil
  if tx and ty and tx ~= ty then
    raise("TypeError", ("`x` and `y` must have the same dtype, got %s != %s."):format(tx.name, ty.name), 2)
  end
  -- TF converts y first and x to y's dtype.
  if not tx and not ty then
    y = to_tensor(y)
    ty = core.dtype(y)
  end
  local dt = ty or tx
  x, y = to_tensor(x, dt), to_tensor(y, dt)
  if dt.is_integer then
    -- TF's _TRUEDIV_TABLE: integers divide as float64.
    x, y = M.cast(x, dtypes.float64), M.cast(y, dtypes.float64)
  end
  return op(H.DivNoNan, { name = opts.name }, x, y)
end, "tf.math.divide_no_nan(x, y)", "Integers divide as float64.", { required = 2, "name" })

M.squared_difference = op_def("SquaredDifference", function(x, y, opts)
  return core.binary(H.SquaredDifference, x, y, { name = opts.name })
end, "tf.math.squared_difference(x, y)", nil, { required = 2, "name" })

-- TF's TensorShape.assert_is_compatible_with.
local function check_compatible(a, b)
  if not a.shape:is_compatible_with(b.shape) then
    raise("ValueError", ("Shapes %s and %s are incompatible"):format(tostring(a.shape), tostring(b.shape)), 4)
  end
end

-- TF's clip_ops.clip_by_value: Minimum then Maximum, refusing bounds that
-- would broadcast t to a bigger shape.
M.clip_by_value = options.def(function(t, clip_value_min, clip_value_max, opts)
  t = to_tensor(t)
  local t_min = M.minimum(t, clip_value_max)
  check_compatible(t, t_min)
  local t_max = M.maximum(t_min, clip_value_min, { name = opts.name })
  check_compatible(t, t_max)
  return t_max
end, "tf.clip_by_value(t, clip_value_min, clip_value_max)",
"t with every element clipped to [clip_value_min, clip_value_max] (NaN stays NaN).",
{ required = 3, "name" })

-- The bound of dtype `out` (its min with sign -1, its max with +1) as a
-- value of dtype `in_dt`, moved toward zero where rounding took it past
-- the bound (float32's 2^31 for int32's max), as TF's saturate_cast does
-- with np.nextafter. uint64's max, 2^64 - 1, is a float in Lua: 2^64
-- itself is already past it.
local INT_OF_SIZE = { [2] = "int16", [4] = "int32", [8] = "int64" }

-- The float scalar t one unit nearer zero: its magnitude's bits less one.
local function toward_zero(t, in_dt)
  local bits = dtypes[INT_OF_SIZE[in_dt.size]]
  local b = op(H.Bitcast, { type = bits }, t)
  return op(H.Bitcast, { type = in_dt }, op(H.Sub, nil, b, core.convert(1, bits)))
end

local function saturation_limit(in_dt, out, sign)
  local bound = sign < 0 and out.min or out.max
  local t = core.convert(bound, in_dt)
  local v = t:numpy()
  local past
  if sign < 0 then
    past = v < bound
  else
    past = v > bound or (out == dtypes.uint64 and v >= bound)
  end
  if in_dt.is_floating and past then t = toward_zero(t, in_dt) end
  return t
end

M.saturate_cast = options.def(function(value, dtype, opts)
  dtype = dtypes.as_dtype(dtype)
  value = to_tensor(value)
  local in_dt = core.dtype(value)
  if in_dt.min ~= nil and dtype.min ~= nil then
    if in_dt.min < dtype.min then value = M.maximum(value, saturation_limit(in_dt, dtype, -1)) end
    if in_dt.max > dtype.max then value = M.minimum(value, saturation_limit(in_dt, dtype, 1)) end
  end
  return M.cast(value, dtype, { name = opts.name })
end, "tf.saturate_cast(value, dtype)",
"Casts value to dtype, clipping it first to the range dtype holds (no wrapping, no integer "
  .. "indefinite): the bounds as values of value's dtype, rounded toward zero, as in TF.",
{ required = 2, "name" })

local tf_names = table.move(both, 1, #both, 1, {})
for _, k in ipairs({ "divide", "cast", "where", "clip_by_value", "saturate_cast" }) do
  tf_names[#tf_names + 1] = k
end
tf_names.mod, tf_names.truediv, tf_names.realdiv = "floormod", "divide", "divide"
local math_names = table.move(both, 1, #both, 1, {})
table.move(math_only, 1, #math_only, #math_names + 1, math_names)
for _, k in ipairs({ "logical_xor", "divide", "divide_no_nan", "squared_difference" }) do
  math_names[#math_names + 1] = k
end
math_names.mod, math_names.truediv = "floormod", "divide"

M.namespaces = {
  tf = tf_names,
  math = math_names,
  ["math.special"] = special_names,
  nn = { "relu", "sigmoid", "tanh", "softplus", "softsign", "elu", "selu", "relu6", "leaky_relu" },
  lib = { "true_divide" },
  dtypes = { "cast", "saturate_cast" },
}

return M
