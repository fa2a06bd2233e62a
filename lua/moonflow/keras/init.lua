-- keras/init.lua (moonflow.keras) — the small part of tf.keras that models need: Dense and
-- Conv2D layers (on base_layer.lua's Layer: variables created on the first
-- call, so tf.func's singleton rule applies); it gathers the optimizers,
-- losses, metrics and initializers from their files. Models, training and
-- callbacks are keras/models.lua's.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local doc = require("moonflow.doc")
local options = require("moonflow.options")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local ops = require("moonflow.ops")
local variables = require("moonflow.tensor.variable")
local modules = require("moonflow.keras.module")
local base_layer = require("moonflow.keras.base_layer")
local argcheck = require("moonflow.argcheck")
local initializers = require("moonflow.keras.initializers")
local optimizers = require("moonflow.keras.optimizers")
local losses = require("moonflow.keras.losses")
local metrics = require("moonflow.keras.metrics")
local util = require("moonflow.keras.layer_util")
local raise = errors.raise

local keras = { layers = {}, optimizers = {}, losses = {}, activations = {}, initializers = {} }

-- Activations -------------------------------------------------------------
-- Keras 2's activations (keras/activations.py, as TF 2.15 ships them).
local function keras_elu(x, alpha)
  alpha = alpha or 1.0
  local y = ops.nn.elu(x)
  if alpha == 1 then return y end
  -- backend.elu: alpha * elu where x <= 0
  return ops.where(ops.greater(x, 0), y, y * alpha)
end
local function activation(name, fn, text)
  return doc.def(fn, "tf.keras.activations." .. name .. "(x)", text)
end
local activations = {
  relu = ops.nn.relu, sigmoid = ops.sigmoid, tanh = ops.tanh, softmax = ops.nn.softmax,
  linear = function(x) return x end,
  elu = doc.def(keras_elu, "tf.keras.activations.elu(x [, alpha])",
    "The exponential linear unit: x if x > 0, else alpha * (exp(x) - 1), alpha 1 by default."),
  selu = ops.nn.selu, softplus = ops.nn.softplus, softsign = ops.nn.softsign,
  swish = activation("swish", function(x) return ops.nn.silu(x) end, "x * sigmoid(x) (tf.nn.silu)."),
  silu = activation("silu", function(x) return ops.nn.silu(x) end, "x * sigmoid(x) (tf.nn.silu)."),
  gelu = doc.def(function(x, approximate) return ops.nn.gelu(x, approximate or false) end,
    "tf.keras.activations.gelu(x [, approximate])", "The Gaussian error linear unit (tf.nn.gelu)."),
  exponential = ops.exp, relu6 = ops.nn.relu6,
  leaky_relu = activation("leaky_relu", function(x) return ops.nn.leaky_relu(x) end,
    "tf.nn.leaky_relu with alpha 0.2."),
  log_softmax = activation("log_softmax", function(x) return ops.nn.log_softmax(x) end,
    "log(softmax(x)) over the last axis (tf.nn.log_softmax)."),
  -- backend.hard_sigmoid: clip(0.2 x + 0.5, 0, 1)
  hard_sigmoid = activation("hard_sigmoid", function(x)
    x = ops.convert_to_tensor(x)
    local dt = core.dtype(x)
    local y = ops.add(ops.multiply(x, ops.constant(0.2, dt)), ops.constant(0.5, dt))
    return ops.clip_by_value(y, ops.constant(0, dt), ops.constant(1, dt))
  end, "Keras 2's piecewise linear sigmoid: 0 below -2.5, 1 above 2.5, else 0.2 x + 0.5."),
}
for name, fn in pairs(activations) do keras.activations[name] = fn end
keras.activations.get = doc.def(function(a)
  if a == nil then return activations.linear end
  if type(a) == "function" then return a end
  local fn = activations[a]
  if not fn then raise("ValueError", "Unknown activation function: " .. tostring(a), 2) end
  return fn
end, "tf.keras.activations.get(name_or_fn)", "An activation by name: 'relu', 'sigmoid', 'tanh', 'softmax', 'linear', 'elu', 'selu', 'gelu', "
  .. "'softplus', 'softsign', 'swish', 'silu', 'relu6', 'leaky_relu', 'hard_sigmoid', 'exponential', 'log_softmax'.")

-- Initializers, optimizers, losses and metrics live in their own files
-- (keras/initializers.lua, optimizers.lua, losses.lua, metrics.lua).
local function public(module)
  local out, internal = {}, module.internal or {}
  for k, v in pairs(module) do
    if not internal[k] then out[k] = v end
  end
  return out
end
keras.initializers = public(initializers)
keras.optimizers = public(optimizers)
keras.losses = public(losses)
keras.metrics = public(metrics)

-- Layers ---------------------------------------------------------------------
-- A layer's weight (base_layer.lua's add_weight: named under the layer,
-- listed in creation order).
local function weight(layer, name, shape, init)
  return layer:add_weight({ name = name, shape = shape, initializer = init, trainable = layer.trainable })
end

-- Keras's input_spec (min_ndim) is checked before the dimension is read.
local function static_dim(layer, x, axis, what, min_ndim)
  local shape = getmetatable(x) == shapes.Shape and x
    or (core.is_tensor(x) or variables.is_variable(x)) and x.shape
  if not shape then argcheck.fail(what .. ":build", "x", "a tensor or a TensorShape", x, 3) end
  local dims = util.check_ndim(layer, shape, min_ndim, true)
  local d = dims[axis < 0 and #dims + axis + 1 or axis + 1]
  if d == nil or d == shapes.None then
    raise("ValueError", ("The last dimension of the inputs to %s should be defined. Found None."):format(what), 3)
  end
  return d
end

-- The options every layer with a kernel and a bias takes.
local LAYER_OPTIONS = { "activation", "use_bias", "kernel_initializer", "bias_initializer", "trainable", "name" }
local function layer_options(self, opts)
  base_layer.Layer.init(self, { name = opts.name })
  self.activation = keras.activations.get(opts.activation)
  self._activation_name = type(opts.activation) == "string" and opts.activation
    or opts.activation == nil and "linear" or "function"
  self.use_bias = opts.use_bias ~= false
  self.trainable = opts.trainable ~= false
  self.kernel_initializer = util.initializer(opts.kernel_initializer, "glorot_uniform")
  self.bias_initializer = util.initializer(opts.bias_initializer, "zeros")
end

-- A layer's declared options: its positional ones, then the common ones.
local function layer_spec(positional)
  local spec = { positional = positional, via = { layer_options } }
  for i, n in ipairs(LAYER_OPTIONS) do spec[i] = n end
  return spec
end

local Dense = base_layer.Layer:extend("Dense")
keras.layers.Dense = Dense
options.init(Dense, "tf.keras.layers.Dense(units [, {activation=, use_bias=, kernel_initializer=, bias_initializer=, trainable=, name=}])",
  "A densely connected layer: activation(x·kernel + bias). Its variables are created on the first call. "
  .. "Defaults when an option is absent (a nil option is absent: Lua cannot tell them apart): no "
  .. "activation (linear), use_bias true, kernel_initializer glorot_uniform, bias_initializer zeros.",
  layer_spec({ "units" }), function(self, units, opts)
  if math.type(units) ~= "integer" or units < 1 then
    raise("ValueError", "Dense units must be a positive integer, got " .. tostring(units), 3)
  end
  self.units = units
  layer_options(self, opts)
end)
Dense.supports_masking = true
function Dense:build(x)
  local d = static_dim(self, x, -1, "Dense", 2)
  self.kernel = weight(self, "kernel", { d, self.units }, self.kernel_initializer)
  if self.use_bias then self.bias = weight(self, "bias", { self.units }, self.bias_initializer) end
  self._input_axes = { [-1] = d }
end
function Dense:get_config()
  local config = base_layer.Layer.get_config(self)
  config.units = self.units
  config.activation = self._activation_name
  config.use_bias = self.use_bias
  return config
end
function Dense:call(x)
  x = ops.convert_to_tensor(x)
  util.check_ndim(self, x, 2, true)
  local y = ops.matmul(x, self.kernel)
  if self.bias then y = ops.nn.bias_add(y, self.bias) end
  return self.activation(y)
end

local Conv2D = base_layer.Layer:extend("Conv2D")
keras.layers.Conv2D = Conv2D
local CONV_SPEC = layer_spec({ "filters", "kernel_size" })
table.insert(CONV_SPEC, 1, "padding")
table.insert(CONV_SPEC, 1, "strides")
options.init(Conv2D, "tf.keras.layers.Conv2D(filters, kernel_size [, {strides=, padding=, activation=, use_bias=, kernel_initializer=, bias_initializer=, trainable=, name=}])",
  "A 2-D convolution layer over NHWC input; padding 'valid' or 'same'. Variables are created on the first call. "
  .. "Defaults when an option is absent (a nil option is absent): strides 1, padding 'valid', no activation "
  .. "(linear), use_bias true, kernel_initializer glorot_uniform, bias_initializer zeros.",
  CONV_SPEC, function(self, filters, kernel_size, opts)
  self.filters = filters
  self.kernel_size = type(kernel_size) == "number" and { kernel_size, kernel_size } or kernel_size
  local s = opts.strides or 1
  self.strides = type(s) == "number" and { s, s } or s
  self.padding = util.padding(opts.padding, "Conv2D"):upper()
  layer_options(self, opts)
end)
function Conv2D:build(x)
  local c = static_dim(self, x, -1, "Conv2D", 4)
  self.kernel = weight(self, "kernel", { self.kernel_size[1], self.kernel_size[2], c, self.filters },
    self.kernel_initializer)
  if self.use_bias then self.bias = weight(self, "bias", { self.filters }, self.bias_initializer) end
  self._input_axes = { [-1] = c }
end
function Conv2D:call(x)
  x = ops.convert_to_tensor(x)
  util.check_ndim(self, x, 4, true)
  local y = ops.nn.conv2d(x, self.kernel, self.strides, self.padding)
  if self.bias then y = ops.nn.bias_add(y, self.bias) end
  return self.activation(y)
end

return keras
