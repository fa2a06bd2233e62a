-- initializers.lua (moonflow.keras.initializers) — tf.keras.initializers:
-- Keras's weight initializers and `get`, which turns Keras's string names
-- into them. An initializer is what a layer calls to make a weight's first
-- value: init(shape [, dtype]) -> tensor. The classes here return such
-- functions (so a layer takes a class's instance, a name, or any function
-- of (shape, dtype) alike). The formulas are Keras's (initializers_v2.py):
-- the variance-scaling family counts fans as Keras does, and its normal
-- variants draw from a normal truncated at two standard deviations.

local errors = require("moonflow.errors")
local doc = require("moonflow.doc")
local options = require("moonflow.options")
local dtypes = require("moonflow.tensor.dtypes")
local ops = require("moonflow.ops")
local control = require("moonflow.ops.control")
local check = require("moonflow.keras.check")
local raise = errors.raise

local initializers = {}

local function float_dtype(dtype, what)
  dtype = dtype and dtypes.as_dtype(dtype) or dtypes.float32
  if not dtype.is_floating then
    raise("ValueError", ("Expected `dtype` argument to be a floating dtype for %s. Received: dtype=%s")
      :format(what, dtype.name), 4)
  end
  return dtype
end

local function shape_list(shape)
  if type(shape) == "table" and shape.as_list then return shape:as_list() end
  return shape
end

-- Keras's _compute_fans: a kernel's last two axes are its fans, the axes
-- before them the receptive field they are multiplied by.
local function fans(shape)
  if #shape < 1 then return 1, 1 end
  if #shape == 1 then return shape[1], shape[1] end
  if #shape == 2 then return shape[1], shape[2] end
  local receptive = 1
  for i = 1, #shape - 2 do receptive = receptive * shape[i] end
  return shape[#shape - 1] * receptive, shape[#shape] * receptive
end

-- A standard normal truncated to [-2, 2]: values outside are drawn again
-- until none is left (TF's TruncatedNormal keeps the same distribution).
local function truncated_standard(shape, dtype)
  local x = ops.random.normal(shape, { dtype = dtype })
  local function outside(v) return ops.reduce_any(ops.greater(ops.abs(v), 2)) end
  return (control.while_loop(outside, function(v)
    local again = ops.random.normal(shape, { dtype = dtype })
    return ops.where(ops.greater(ops.abs(v), 2), again, v)
  end, { x }))
end

-- A seeded initializer gives the same values on every call, and so does
-- every initializer of a kind with that seed: as TF-Keras's and Keras 3's
-- backends, the draw is stateless, from the seed pair [seed, 0], so
-- nothing is kept between calls. Unseeded draws come from the session's
-- stream, new every call.
local DRAW = {
  uniform = function(shape, dtype) return ops.random.uniform(shape, { dtype = dtype }) end,
  normal = function(shape, dtype) return ops.random.normal(shape, { dtype = dtype }) end,
  truncated = truncated_standard,
}
local STATELESS = {
  uniform = function(shape, dtype, seed) return ops.random.stateless_uniform(shape, { seed, 0 }, { dtype = dtype }) end,
  normal = function(shape, dtype, seed) return ops.random.stateless_normal(shape, { seed, 0 }, { dtype = dtype }) end,
  truncated = function(shape, dtype, seed)
    return ops.random.stateless_truncated_normal(shape, { seed, 0 }, { dtype = dtype })
  end,
}
local function standard(kind, shape, dtype, seed)
  if seed == nil then return DRAW[kind](shape, dtype) end
  return STATELESS[kind](shape, dtype, seed)
end

local SEEDED = " With a seed, every call for a shape gives the same values (as does every initializer with "
  .. "that seed), as TF 2.x Keras's; unseeded, each call draws new ones."

local function truncated(shape, mean, stddev, dtype, seed)
  local x = standard("truncated", shape, dtype, seed)
  return x * ops.constant(stddev, dtype) + ops.constant(mean, dtype)
end

-- Uniform in [minval, maxval) and normal (mean, stddev), as
-- tf.random.uniform and tf.random.normal scale their standard draws.
local function uniform(shape, minval, maxval, dtype, seed)
  local x = standard("uniform", shape, dtype.is_floating and dtype or dtypes.float32, seed)
  if maxval - minval ~= 1 then x = x * (maxval - minval) end
  if minval ~= 0 then x = x + minval end
  if not dtype.is_floating then x = ops.cast(ops.floor(x), dtype) end
  return x
end
local function normal(shape, mean, stddev, dtype, seed)
  local x = standard("normal", shape, dtype, seed)
  if stddev ~= 1 then x = x * stddev end
  if mean ~= 0 then x = x + mean end
  return x
end

-- VarianceScaling: the heart of the Glorot, He and LeCun initializers.
local MODES = { fan_in = true, fan_out = true, fan_avg = true }
local DISTRIBUTIONS = { truncated_normal = true, untruncated_normal = true, uniform = true, normal = true }
local function variance_scaling(scale, mode, distribution, seed, what)
  check.integer(seed, "tf.keras.initializers." .. what, "seed")
  if type(scale) ~= "number" or scale <= 0 then
    raise("ValueError", ("Argument `scale` must be positive float. Received: scale=%s"):format(tostring(scale)), 4)
  end
  if not MODES[mode] then
    raise("ValueError", ("Invalid `mode` argument: expected one of {'fan_in', 'fan_out', 'fan_avg'}. "
      .. "Received: mode=%s"):format(tostring(mode)), 4)
  end
  if not DISTRIBUTIONS[distribution] then
    raise("ValueError", ("Invalid `distribution` argument: expected one of {'normal', 'uniform', "
      .. "'truncated_normal', 'untruncated_normal'}. Received: distribution=%s"):format(tostring(distribution)), 4)
  end
  return function(shape, dtype)
    shape = check.shape(shape, what)
    dtype = float_dtype(dtype, what)
    local fan_in, fan_out = fans(shape)
    local n = mode == "fan_in" and fan_in or mode == "fan_out" and fan_out or (fan_in + fan_out) / 2
    local s = scale / math.max(1, n)
    if distribution == "truncated_normal" or distribution == "normal" then
      -- The stddev of a standard normal truncated to (-2, 2).
      return truncated(shape, 0, math.sqrt(s) / 0.87962566103423978, dtype, seed)
    elseif distribution == "untruncated_normal" then
      return normal(shape, 0, math.sqrt(s), dtype, seed)
    end
    local limit = math.sqrt(3 * s)
    return uniform(shape, -limit, limit, dtype, seed)
  end
end

initializers.VarianceScaling = options.def(function(scale, mode, distribution, seed)
  return variance_scaling(scale or 1.0, mode or "fan_in", distribution or "truncated_normal", seed,
    "VarianceScaling")
end, "tf.keras.initializers.VarianceScaling([scale] [, mode] [, distribution] [, seed])",
"Samples scaled to the layer's fans: variance scale / n, n = fan_in, fan_out or their mean (mode); "
.. "distribution 'truncated_normal' (default; stddev corrected for the truncation at two standard "
.. "deviations), 'untruncated_normal' or 'uniform' (within ±sqrt(3 scale / n)). Defaults: scale 1.0, "
.. "mode 'fan_in'." .. SEEDED, { positional = { "scale", "mode", "distribution", "seed" } })

local function scaling_class(name, scale, mode, distribution, text)
  initializers[name] = options.def(function(seed)
    return variance_scaling(scale, mode, distribution, seed, name)
  end, ("tf.keras.initializers.%s([seed])"):format(name), text .. SEEDED, { positional = { "seed" } })
end
scaling_class("GlorotUniform", 1.0, "fan_avg", "uniform",
  "Uniform in ±sqrt(6 / (fan_in + fan_out)) (Keras's default kernel initializer).")
scaling_class("GlorotNormal", 1.0, "fan_avg", "truncated_normal",
  "Truncated normal with stddev sqrt(2 / (fan_in + fan_out)).")
scaling_class("HeNormal", 2.0, "fan_in", "truncated_normal", "Truncated normal with stddev sqrt(2 / fan_in).")
scaling_class("HeUniform", 2.0, "fan_in", "uniform", "Uniform in ±sqrt(6 / fan_in).")
scaling_class("LecunNormal", 1.0, "fan_in", "truncated_normal", "Truncated normal with stddev sqrt(1 / fan_in).")
scaling_class("LecunUniform", 1.0, "fan_in", "uniform", "Uniform in ±sqrt(3 / fan_in).")

initializers.Zeros = doc.def(function()
  return function(shape, dtype)
    return ops.zeros(shape_list(shape), dtype and dtypes.as_dtype(dtype) or dtypes.float32)
  end
end, "tf.keras.initializers.Zeros()", "All zeros.")

initializers.Ones = doc.def(function()
  return function(shape, dtype)
    return ops.ones(shape_list(shape), dtype and dtypes.as_dtype(dtype) or dtypes.float32)
  end
end, "tf.keras.initializers.Ones()", "All ones.")

initializers.Constant = options.def(function(value)
  value = value == nil and 0 or value
  if type(value) ~= "number" then
    raise("TypeError", ("tf.keras.initializers.Constant: `value` must be a number (Keras's constant "
      .. "initializer takes a scalar), got a %s"):format(type(value)), 3)
  end
  return function(shape, dtype)
    dtype = dtype and dtypes.as_dtype(dtype) or dtypes.float32
    return ops.fill(shape_list(shape), ops.constant(value, dtype))
  end
end, "tf.keras.initializers.Constant([value])", "Every element value (default 0).",
{ positional = { "value" } })

initializers.RandomUniform = options.def(function(minval, maxval, seed)
  local what = "tf.keras.initializers.RandomUniform"
  check.number(minval, what, "minval"); check.number(maxval, what, "maxval"); check.integer(seed, what, "seed")
  return function(shape, dtype)
    dtype = dtype and dtypes.as_dtype(dtype) or dtypes.float32
    return uniform(check.shape(shape, what), minval or -0.05, maxval or 0.05, dtype, seed)
  end
end, "tf.keras.initializers.RandomUniform([minval] [, maxval] [, seed])",
"Uniform in [minval, maxval) (default ±0.05; Keras's 'uniform')." .. SEEDED, { positional = { "minval", "maxval", "seed" } })

initializers.RandomNormal = options.def(function(mean, stddev, seed)
  local what = "tf.keras.initializers.RandomNormal"
  check.number(mean, what, "mean"); check.number(stddev, what, "stddev"); check.integer(seed, what, "seed")
  return function(shape, dtype)
    dtype = float_dtype(dtype, "RandomNormal")
    return normal(check.shape(shape, what), mean or 0.0, stddev or 0.05, dtype, seed)
  end
end, "tf.keras.initializers.RandomNormal([mean] [, stddev] [, seed])",
"Normal with mean (default 0) and stddev (default 0.05; Keras's 'normal')." .. SEEDED,
{ positional = { "mean", "stddev", "seed" } })

initializers.TruncatedNormal = options.def(function(mean, stddev, seed)
  local what = "tf.keras.initializers.TruncatedNormal"
  check.number(mean, what, "mean"); check.number(stddev, what, "stddev"); check.integer(seed, what, "seed")
  return function(shape, dtype)
    dtype = float_dtype(dtype, "TruncatedNormal")
    return truncated(check.shape(shape, what), mean or 0.0, stddev or 0.05, dtype, seed)
  end
end, "tf.keras.initializers.TruncatedNormal([mean] [, stddev] [, seed])",
"Normal with mean (default 0) and stddev (default 0.05), values more than two standard deviations "
.. "from the mean drawn again." .. SEEDED, { positional = { "mean", "stddev", "seed" } })

-- Orthogonal: the Q of a QR factorisation of a normal matrix, signs fixed
-- so that R's diagonal is positive (Keras's Orthogonal). Gram-Schmidt on
-- the sample gives that Q directly; the factorisation runs on the host, as
-- a weight's first value is made once, outside any traced function.
local function orthonormal_columns(a, rows, cols)
  local q = {}
  for j = 1, cols do
    local v = {}
    for i = 1, rows do v[i] = a[i][j] end
    for k = 1, j - 1 do
      local dot = 0
      for i = 1, rows do dot = dot + q[k][i] * v[i] end
      for i = 1, rows do v[i] = v[i] - dot * q[k][i] end
    end
    local norm = 0
    for i = 1, rows do norm = norm + v[i] * v[i] end
    norm = math.sqrt(norm)
    for i = 1, rows do v[i] = norm > 0 and v[i] / norm or 0 end
    q[j] = v
  end
  return q
end

initializers.Orthogonal = options.def(function(gain, seed)
  local what = "tf.keras.initializers.Orthogonal"
  check.number(gain, what, "gain"); check.integer(seed, what, "seed")
  gain = gain or 1.0
  return function(shape, dtype)
    shape = check.shape(shape, what)
    dtype = float_dtype(dtype, "Orthogonal")
    if #shape < 2 then
      raise("ValueError", ("The tensor to initialize must be at least two-dimensional. Received: "
        .. "shape=(%s) of rank %d."):format(table.concat(shape, ", "), #shape), 2)
    end
    local rows = 1
    for i = 1, #shape - 1 do rows = rows * shape[i] end
    local cols = shape[#shape]
    local tall, narrow = math.max(rows, cols), math.min(rows, cols)
    local a = standard("normal", { tall, narrow }, dtypes.float64, seed):numpy()
    local q = orthonormal_columns(a, tall, narrow)
    -- q[j] is column j of the tall factor; a wide kernel takes its transpose.
    local out = {}
    for r = 1, rows do
      local row = {}
      for c = 1, cols do
        row[c] = gain * (rows >= cols and q[c][r] or q[r][c])
      end
      out[r] = row
    end
    return ops.reshape(ops.constant(out, dtype), shape)
  end
end, "tf.keras.initializers.Orthogonal([gain] [, seed])",
"An orthogonal matrix (rows or columns orthonormal, whichever are fewer) times gain (default 1), "
.. "reshaped to the weight's shape: Keras's default recurrent_initializer." .. SEEDED, { positional = { "gain", "seed" } })

-- Keras's string names (and its class names) for get.
local NAMES = {
  glorot_uniform = "GlorotUniform", glorot_normal = "GlorotNormal", he_normal = "HeNormal",
  he_uniform = "HeUniform", lecun_normal = "LecunNormal", lecun_uniform = "LecunUniform",
  zeros = "Zeros", zero = "Zeros", ones = "Ones", one = "Ones", constant = "Constant",
  random_normal = "RandomNormal", normal = "RandomNormal", random_uniform = "RandomUniform",
  uniform = "RandomUniform", truncated_normal = "TruncatedNormal", orthogonal = "Orthogonal",
  variance_scaling = "VarianceScaling",
}

initializers.get = doc.def(function(identifier)
  if identifier == nil then return nil end
  if type(identifier) == "function" then return identifier end
  local mt = getmetatable(identifier)
  if type(identifier) == "table" and mt and mt.__call then return identifier end
  if type(identifier) == "string" then
    local class = NAMES[identifier] or (rawget(initializers, identifier) and identifier)
    if class and class ~= "get" then
      return initializers[class]()
    end
  end
  raise("ValueError", "Could not interpret initializer identifier: " .. tostring(identifier), 2)
end, "tf.keras.initializers.get(identifier)",
"An initializer from Keras's string name ('glorot_uniform', 'glorot_normal', 'he_normal', 'he_uniform', "
.. "'lecun_normal', 'lecun_uniform', 'zeros', 'ones', 'constant', 'random_normal', 'random_uniform', "
.. "'truncated_normal', 'orthogonal', or a class name), made with its defaults; an initializer or a "
.. "function of (shape, dtype) is returned as it is; nil gives nil.")

-- The snake_case names are functions too in tf.keras.initializers: each
-- makes its initializer with the given options.
for name, class in pairs(NAMES) do
  if name ~= "zero" and name ~= "one" and name ~= "normal" and name ~= "uniform" then
    initializers[name] = initializers[class]
  end
end

return initializers
