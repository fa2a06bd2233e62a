-- keras/init.lua (moonflow.keras) — the small part of tf.keras that models need: Dense and
-- Conv2D layers (on base_layer.lua's Layer: variables created on the first
-- call, so tf.func's singleton rule applies), SGD and Adam, and the basic
-- losses. Models, training and callbacks are keras/models.lua's.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local doc = require("moonflow.doc")
local options = require("moonflow.options")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local ops = require("moonflow.ops")
local nn_ops = require("moonflow.ops").nn
local variables = require("moonflow.tensor.variable")
local modules = require("moonflow.keras.module")
local base_layer = require("moonflow.keras.base_layer")
local name_scope = require("moonflow.trace.name_scope").name_scope
local argcheck = require("moonflow.argcheck")
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

-- Initializers --------------------------------------------------------------
local function fans(shape)
  if #shape == 2 then return shape[1], shape[2] end
  local receptive = 1
  for i = 1, #shape - 2 do receptive = receptive * shape[i] end
  return shape[#shape - 1] * receptive, shape[#shape] * receptive
end

keras.initializers.GlorotUniform = options.def(function(seed)
  return function(shape, dtype)
    local fan_in, fan_out = fans(shape)
    local limit = math.sqrt(6 / (fan_in + fan_out))
    return ops.random.uniform(shape, { minval = -limit, maxval = limit, dtype = dtype or dtypes.float32, seed = seed })
  end
end, "tf.keras.initializers.GlorotUniform([seed])", "Uniform in ±sqrt(6 / (fan_in + fan_out)).",
{ positional = { "seed" } })
keras.initializers.Zeros = doc.def(function()
  return function(shape, dtype) return ops.zeros(shape, dtype or dtypes.float32) end
end, "tf.keras.initializers.Zeros()", "All zeros.")

local function initializer(init, default)
  if init == nil then return default() end
  if init == "glorot_uniform" then return keras.initializers.GlorotUniform() end
  if init == "zeros" then return keras.initializers.Zeros() end
  if type(init) == "function" then return init end
  raise("ValueError", "Unknown initializer: " .. tostring(init), 3)
end

-- Layers ---------------------------------------------------------------------
-- A layer's weight (base_layer.lua's add_weight: named under the layer,
-- listed in creation order).
local function weight(layer, name, shape, init)
  return layer:add_weight({ name = name, shape = shape, initializer = init, trainable = layer.trainable })
end

local function static_dim(x, axis, what)
  local shape = getmetatable(x) == shapes.Shape and x
    or (core.is_tensor(x) or variables.is_variable(x)) and x.shape
  if not shape then argcheck.fail(what .. ":build", "x", "a tensor or a TensorShape", x, 3) end
  local dims = shape:as_list()
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
  self.kernel_initializer = initializer(opts.kernel_initializer, keras.initializers.GlorotUniform)
  self.bias_initializer = initializer(opts.bias_initializer, keras.initializers.Zeros)
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
function Dense:build(x)
  local d = static_dim(x, -1, "Dense")
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
  self.padding = (opts.padding or "valid"):upper()
  layer_options(self, opts)
end)
function Conv2D:build(x)
  local c = static_dim(x, -1, "Conv2D")
  self.kernel = weight(self, "kernel", { self.kernel_size[1], self.kernel_size[2], c, self.filters },
    self.kernel_initializer)
  if self.use_bias then self.bias = weight(self, "bias", { self.filters }, self.bias_initializer) end
  self._input_axes = { [-1] = c }
end
function Conv2D:call(x)
  local y = ops.nn.conv2d(x, self.kernel, self.strides, self.padding)
  if self.bias then y = ops.nn.bias_add(y, self.bias) end
  return self.activation(y)
end

-- Optimizers ---------------------------------------------------------------
local function pairs_of(grads_and_vars)
  local out = {}
  argcheck.table(grads_and_vars, "apply_gradients", "grads_and_vars")
  for _, gv in ipairs(grads_and_vars) do
    if type(gv) ~= "table" then raise("TypeError", "apply_gradients expects {gradient, variable} pairs", 3) end
    local g, v = gv[1], gv[2]
    if not variables.is_variable(v) then raise("TypeError", "apply_gradients expects {gradient, variable} pairs", 3) end
    if g ~= nil then out[#out + 1] = { g, v } end
  end
  return out
end

-- Slots are keyed by the variable's resource id, not its Lua object: a
-- variable passed to a tf.func is a new proxy object in every trace, and
-- the second trace must find the slots the first one created.
local function slot(opt, v, name)
  opt._slots[name] = opt._slots[name] or {}
  local s = opt._slots[name][v.id]
  if not s then
    s = variables.Variable(function() return ops.zeros(v.shape:as_list(), v.dtype) end,
      { name = v.name:gsub(":0$", "") .. "/" .. name, trainable = false })
    opt._slots[name][v.id] = s
  end
  return s
end

local function iterations(opt)
  if not opt.iterations then
    opt.iterations = variables.Variable(0, { dtype = dtypes.int64, name = "iteration", trainable = false })
  end
  return opt.iterations
end

local Optimizer = modules.Module:extend("Optimizer")

local SGD = Optimizer:extend("SGD")
keras.optimizers.SGD = SGD
options.init(SGD, "tf.keras.optimizers.SGD([learning_rate] [, momentum] [, {name=}])",
  "Gradient descent: v -= learning_rate * g (with momentum when given).",
  { positional = { "learning_rate", "momentum" }, "name" }, function(self, learning_rate, momentum, opts)
  self.learning_rate = learning_rate or 0.01
  self.momentum = momentum or 0
  if opts.name then self.name = opts.name end
  self._slots = {}
end)
function SGD:apply_gradients(grads_and_vars)
  local scope <close> = name_scope(self.name or "SGD") -- traced: the update ops are SGD/...
  local it = iterations(self)
  for _, gv in ipairs(pairs_of(grads_and_vars)) do
    local g, v = gv[1], gv[2]
    if self.momentum ~= 0 then
      local m = slot(self, v, "momentum")
      m:assign(m * self.momentum - g * self.learning_rate)
      v:assign_add(m)
    else
      v:assign_sub(g * self.learning_rate)
    end
  end
  it:assign_add(1)
end

local Adam = Optimizer:extend("Adam")
keras.optimizers.Adam = Adam
options.init(Adam, "tf.keras.optimizers.Adam([learning_rate] [, beta_1] [, beta_2] [, epsilon] [, {name=}])",
  "Adam: bias-corrected moment estimates per variable (slots created on the first apply).",
  { positional = { "learning_rate", "beta_1", "beta_2", "epsilon" }, "name" },
  function(self, learning_rate, beta_1, beta_2, epsilon, opts)
  self.learning_rate = learning_rate or 0.001
  self.beta_1 = beta_1 or 0.9
  self.beta_2 = beta_2 or 0.999
  self.epsilon = epsilon or 1e-7
  if opts.name then self.name = opts.name end
  self._slots = {}
end)
function Adam:apply_gradients(grads_and_vars)
  local scope <close> = name_scope(self.name or "Adam") -- traced: the update ops are Adam/...
  local it = iterations(self)
  local gvs = pairs_of(grads_and_vars)
  for _, gv in ipairs(gvs) do slot(self, gv[2], "m"); slot(self, gv[2], "v") end
  local t = ops.cast(it:read_value() + 1, dtypes.float32)
  local b1, b2 = self.beta_1, self.beta_2
  local lr = self.learning_rate * ops.sqrt(1 - ops.pow(ops.constant(b2), t)) / (1 - ops.pow(ops.constant(b1), t))
  for _, gv in ipairs(gvs) do
    local g, v = gv[1], gv[2]
    local m, s = slot(self, v, "m"), slot(self, v, "v")
    local m_new = m:assign(m * b1 + g * (1 - b1))
    local s_new = s:assign(s * b2 + ops.square(g) * (1 - b2))
    v:assign_sub(lr * m_new / (ops.sqrt(s_new) + self.epsilon))
  end
  it:assign_add(1)
end

-- Losses -------------------------------------------------------------------
local function mse(y_true, y_pred)
  return ops.reduce_mean(ops.square(ops.subtract(y_pred, ops.cast(y_true, core.dtype(y_pred)))), -1)
end
local function sparse_cce(y_true, y_pred, from_logits)
  y_pred = ops.convert_to_tensor(y_pred)
  local labels = ops.cast(ops.convert_to_tensor(y_true), dtypes.int32)
  local logits = from_logits and y_pred or ops.log(ops.maximum(y_pred, 1e-7))
  if #labels.shape:as_list() == #y_pred.shape:as_list() then labels = ops.squeeze(labels, { -1 }) end
  return nn_ops.sparse_softmax_cross_entropy_with_logits(labels, logits)
end
local function cce(y_true, y_pred, from_logits)
  local labels = ops.cast(ops.convert_to_tensor(y_true), core.dtype(y_pred))
  if from_logits then return nn_ops.softmax_cross_entropy_with_logits(labels, y_pred) end
  local p = y_pred / ops.reduce_sum(y_pred, -1, { keepdims = true })
  return -ops.reduce_sum(labels * ops.log(ops.maximum(p, 1e-7)), -1)
end

keras.losses.mean_squared_error = options.def(function(y_true, y_pred) return mse(y_true, y_pred) end,
  "tf.keras.losses.mean_squared_error(y_true, y_pred)",
  "Mean of squared differences over the last axis, per example.", { positional = { "y_true", "y_pred" } })
keras.losses.sparse_categorical_crossentropy = options.def(function(y_true, y_pred, from_logits)
  return sparse_cce(y_true, y_pred, from_logits)
end, "tf.keras.losses.sparse_categorical_crossentropy(y_true, y_pred [, from_logits])",
"Cross-entropy with integer labels, per example.", { positional = { "y_true", "y_pred", "from_logits" } })
keras.losses.categorical_crossentropy = options.def(function(y_true, y_pred, from_logits)
  return cce(y_true, y_pred, from_logits)
end, "tf.keras.losses.categorical_crossentropy(y_true, y_pred [, from_logits])",
"Cross-entropy with one-hot labels, per example.", { positional = { "y_true", "y_pred", "from_logits" } })

local function init_named(self, opts)
  self.from_logits = false
  if opts.name then self.name = opts.name end
end

local function loss_class(name, per_example, signature, text, spec)
  local class = modules.Module:extend(name)
  local init = function(self, from_logits, opts)
    self.from_logits = from_logits or false
    if opts.name then self.name = opts.name end
  end
  if not spec.positional then
    init = function(self, opts) return init_named(self, opts) end
  end
  keras.losses[name] = options.init(class, signature, text, spec, init)
  class.__call = function(self, y_true, y_pred)
    return ops.reduce_mean(per_example(y_true, y_pred, self.from_logits))
  end
  return class
end
loss_class("MeanSquaredError", mse, "tf.keras.losses.MeanSquaredError([{name=}])",
  "A callable loss: the mean squared error averaged over the batch.", { via = { init_named }, "name" })
loss_class("SparseCategoricalCrossentropy", sparse_cce,
  "tf.keras.losses.SparseCategoricalCrossentropy([from_logits] [, {name=}])",
  "A callable loss: cross-entropy with integer labels averaged over the batch.",
  { positional = { "from_logits" }, "name" })
loss_class("CategoricalCrossentropy", cce, "tf.keras.losses.CategoricalCrossentropy([from_logits] [, {name=}])",
  "A callable loss: cross-entropy with one-hot labels averaged over the batch.",
  { positional = { "from_logits" }, "name" })

return keras
