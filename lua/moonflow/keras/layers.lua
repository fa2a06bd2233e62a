-- layers.lua — the Keras layers that go around Dense and Conv2D in a
-- small model: MaxPooling2D, AveragePooling2D, Flatten, Dropout,
-- BatchNormalization, LayerNormalization and Embedding, as tf.Module
-- subclasses with Keras's constructor options. Dropout and
-- BatchNormalization take Keras's `training` flag (layer(x, true) or
-- layer(x, {training = true}); default false, inference, as a Keras layer
-- called outside fit). Variables are created on the first call (tf.func's
-- singleton rule applies) and listed in Keras's order: a layer keeps them
-- in `_weights` too, which sorts before its named fields.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local doc = require("moonflow.doc")
local options = require("moonflow.options")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local ops = require("moonflow.ops")
local variables = require("moonflow.tensor.variable")
local modules = require("moonflow.keras.module")
local keras = require("moonflow.keras")
local nn_ops = require("moonflow.ops").nn
local util = require("moonflow.keras.layer_util")
local check = require("moonflow.keras.check")
-- The layers sit on tf.keras.layers.Layer: its __call builds them once under
-- their name scope, takes the training flag and KerasTensors, calls `call`.
local base = require("moonflow.keras.base_layer")
local raise = errors.raise

-- This module's part of tf.keras (tf.lua joins it to keras/init.lua's).
local layers = {}

-- Initializers: keras/initializers.lua's, by name or object.
local initializer = util.initializer

-- Helpers -----------------------------------------------------------------------
local function add_weight(layer, name, shape, init, trainable)
  local v = variables.Variable(function() return init(shape, dtypes.float32) end,
    { name = name, trainable = trainable and layer.trainable }) -- under the layer's name scope
  layer[name] = v
  layer._weights[#layer._weights + 1] = v
  return v
end

local function named(self, opts)
  if opts.name then self.name = opts.name end
  self.trainable = opts.trainable ~= false
  self._weights = {}
end

-- A layer's spec: its positional options, its own keywords, then name and trainable.
local function spec(positional, ...)
  local s = { positional = positional, via = { named } }
  for _, n in ipairs({ ... }) do s[#s + 1] = n end
  s[#s + 1] = "trainable"
  s[#s + 1] = "name"
  return s
end

-- Keras's training argument: layer(x, true) or layer(x, {training = true}).
local function training_flag(arg, what)
  if type(arg) == "table" and getmetatable(arg) == nil then
    for k in pairs(arg) do
      if k ~= "training" then
        raise("TypeError", ("%s got an unexpected keyword argument '%s'. Accepted options: training.")
          :format(what, tostring(k)), 3)
      end
    end
    arg = arg.training
  end
  if arg ~= nil and type(arg) ~= "boolean" then
    raise("TypeError", what .. ": training must be a boolean, got a " .. type(arg), 3)
  end
  return arg == true
end

local function pair(v, what, layer)
  if math.type(v) == "integer" then return { v, v } end
  if type(v) == "table" and #v == 2 and math.type(v[1]) == "integer" and math.type(v[2]) == "integer" then
    return { v[1], v[2] }
  end
  raise("ValueError", ("The `%s` argument of %s must be an integer or a list of 2 integers. Received: %s")
    :format(what, layer, tostring(v)), 4)
end

local function check_format(data_format, layer)
  local f = data_format or "channels_last"
  if f == "channels_first" then
    raise("ValueError", layer .. ": data_format 'channels_first' (NCHW) is not supported on the CPU; "
      .. "moonflow pools channels_last (NHWC) images only", 4)
  end
  if f ~= "channels_last" then
    raise("ValueError", ("%s: data_format must be 'channels_last' or 'channels_first', got %s"):format(layer,
      tostring(f)), 4)
  end
  return f
end

-- Pooling -------------------------------------------------------------------------
local function pooling_layer(class_name, fn)
  local class = base.Layer:extend(class_name)
  layers[class_name] = class
  options.init(class, ("tf.keras.layers.%s([pool_size] [, strides] [, padding] [, data_format] [, {name=}])")
    :format(class_name), ("2-D %s pooling of NHWC images: pool_size (default 2) and strides (default "
    .. "pool_size) an integer or {h, w}; padding 'valid' (default) or 'same'."):format(
      class_name == "MaxPooling2D" and "max" or "average"),
    spec({ "pool_size", "strides", "padding", "data_format" }),
    function(self, pool_size, strides, padding, data_format, opts)
      named(self, opts)
      self.pool_size = pair(pool_size or 2, "pool_size", class_name)
      self.strides = strides ~= nil and pair(strides, "strides", class_name) or self.pool_size
      local p = (padding or "valid"):lower()
      if p ~= "valid" and p ~= "same" then
        raise("ValueError", ("The `padding` argument must be a string 'valid' or 'same'. Received: %s")
          :format(tostring(padding)), 3)
      end
      self.padding = p
      self.data_format = check_format(data_format, class_name)
    end)
  class.call = function(self, x)
    return fn(ops.convert_to_tensor(x), self.pool_size, self.strides, self.padding:upper())
  end
  return class
end
pooling_layer("MaxPooling2D", nn_ops.max_pool2d)
pooling_layer("AveragePooling2D", nn_ops.avg_pool2d)
layers.MaxPool2D = layers.MaxPooling2D
layers.AvgPool2D = layers.AveragePooling2D

-- Flatten ---------------------------------------------------------------------------
local Flatten = base.Layer:extend("Flatten")
layers.Flatten = Flatten
options.init(Flatten, "tf.keras.layers.Flatten([data_format] [, {name=}])",
  "Reshapes each example to one dimension: (batch, ...) -> (batch, product of the rest).",
  spec({ "data_format" }), function(self, data_format, opts)
  named(self, opts)
  self.data_format = data_format or "channels_last"
end)
function Flatten:call(x)
  x = ops.convert_to_tensor(x)
  local dims = x.shape:as_list()
  if #dims == 0 then raise("ValueError", "Flatten needs inputs of rank >= 1, got a scalar", 2) end
  if self.data_format == "channels_first" and #dims > 2 then
    local perm = { 0 }
    for i = 2, #dims - 1 do perm[#perm + 1] = i end
    perm[#perm + 1] = 1
    x = ops.transpose(x, perm)
    dims = x.shape:as_list()
  end
  local rest = 1
  for i = 2, #dims do
    if dims[i] == shapes.None then rest = nil break end
    rest = rest * dims[i]
  end
  if rest and dims[1] ~= shapes.None then return ops.reshape(x, { dims[1], rest }) end
  if rest then return ops.reshape(x, { -1, rest }) end
  return ops.reshape(x, ops.stack({ ops.shape(x)[0], ops.constant(-1) }))
end

-- Dropout ---------------------------------------------------------------------------
local Dropout = base.Layer:extend("Dropout")
layers.Dropout = Dropout
options.init(Dropout, "tf.keras.layers.Dropout(rate [, noise_shape] [, seed] [, {name=}])",
  "tf.nn.dropout when called with training = true (layer(x, true) or layer(x, {training = true})); "
  .. "x unchanged otherwise.",
  spec({ "rate", "noise_shape", "seed" }), function(self, rate, noise_shape, seed, opts)
  named(self, opts)
  if type(rate) ~= "number" or rate < 0 or rate > 1 then
    raise("ValueError", ("Invalid value received for argument `rate`. Expected a float value between 0 "
      .. "and 1. Received: rate=%s"):format(tostring(rate)), 3)
  end
  self.rate, self.noise_shape, self.seed = rate, noise_shape, seed
end)
Dropout.supports_masking = true
function Dropout:call(x, opts)
  x = ops.convert_to_tensor(x)
  if training_flag(opts, "Dropout") and self.rate > 0 then
    return nn_ops.dropout(x, self.rate, self.noise_shape, self.seed)
  end
  return x
end

-- Normalisation -----------------------------------------------------------------------
-- The axes a normalisation reduces over or keeps, from `axis` (an integer
-- or a list, negative from the end) and the input's rank.
local function norm_axes(axis, rank, layer)
  local list = type(axis) == "table" and axis or { axis }
  local keep = {}
  for _, a in ipairs(list) do
    if math.type(a) ~= "integer" then
      raise("TypeError", layer .. ": axis must be an integer or a list of integers, got " .. tostring(a), 4)
    end
    local p = a < 0 and a + rank or a
    if p < 0 or p >= rank then
      raise("ValueError", ("Invalid axis: %d (input rank %d) in %s"):format(a, rank, layer), 4)
    end
    keep[p] = true
  end
  return keep
end

-- The parameter shape (the kept axes' sizes) and the broadcast shape (1
-- elsewhere) for an input of static dims.
local function param_shapes(dims, keep, layer)
  local pshape, bshape = {}, {}
  for i = 0, #dims - 1 do
    if keep[i] then
      if dims[i + 1] == shapes.None then
        raise("ValueError", ("%s: the normalised axis %d of the input must be known, found None")
          :format(layer, i), 4)
      end
      pshape[#pshape + 1] = dims[i + 1]
      bshape[i + 1] = dims[i + 1]
    else
      bshape[i + 1] = 1
    end
  end
  return pshape, bshape
end

local function moments(x, keep, rank)
  local axes = {}
  for i = 0, rank - 1 do if not keep[i] then axes[#axes + 1] = i end end
  local mean = ops.reduce_mean(x, axes, true)
  local var = ops.reduce_mean(ops.square(x - ops.stop_gradient(mean)), axes, true)
  return mean, var
end

-- (x - mean) / sqrt(var + eps) * gamma + beta, in the order of TF's
-- tf.nn.batch_normalization: one multiplier and one offset.
local function normalize(x, mean, var, gamma, beta, eps)
  local inv = ops.rsqrt(var + eps)
  if gamma then inv = inv * gamma end
  local offset = beta and beta - mean * inv or -mean * inv
  return x * inv + offset
end

local NORM_OPTIONS = { "center", "scale", "beta_initializer", "gamma_initializer" }

local function norm_options(self, axis, epsilon, opts)
  self.axis = axis == nil and -1 or axis
  self.epsilon = epsilon or 1e-3
  self.center = opts.center ~= false
  self.scale = opts.scale ~= false
  self.beta_initializer = initializer(opts.beta_initializer, "zeros")
  self.gamma_initializer = initializer(opts.gamma_initializer, "ones")
end

local BatchNormalization = base.Layer:extend("BatchNormalization")
layers.BatchNormalization = BatchNormalization
local BN_SPEC = spec({ "axis", "momentum", "epsilon" }, "moving_mean_initializer", "moving_variance_initializer",
  table.unpack(NORM_OPTIONS))
table.insert(BN_SPEC.via, norm_options)
options.init(BatchNormalization, "tf.keras.layers.BatchNormalization([axis] [, momentum] [, epsilon] "
  .. "[, {center=, scale=, beta_initializer=, gamma_initializer=, moving_mean_initializer=, "
  .. "moving_variance_initializer=, trainable=, name=}])",
  "Normalises over the batch (training = true: the batch's mean and variance, and the moving averages "
  .. "move: moving = moving * momentum + batch * (1 - momentum)) or with the moving statistics (training "
  .. "false, the default). gamma and beta are trainable, moving_mean and moving_variance are not. axis "
  .. "-1, momentum 0.99, epsilon 0.001 by default; the variance is the batch's biased one (Keras 3).",
  BN_SPEC, function(self, axis, momentum, epsilon, opts)
  named(self, opts)
  norm_options(self, axis, epsilon, opts)
  self.momentum = momentum or 0.99
  self.moving_mean_initializer = initializer(opts.moving_mean_initializer, "zeros")
  self.moving_variance_initializer = initializer(opts.moving_variance_initializer, "ones")
end)
BatchNormalization.supports_masking = true
-- build's argument: the input's TensorShape (or a tensor, called directly).
local function dims_of(x)
  return (getmetatable(x) == shapes.Shape and x or x.shape):as_list()
end
function BatchNormalization:build(x)
  local dims = dims_of(x)
  self._keep = norm_axes(self.axis, #dims, "BatchNormalization")
  local pshape, bshape = param_shapes(dims, self._keep, "BatchNormalization")
  self._bshape = bshape
  if self.scale then add_weight(self, "gamma", pshape, self.gamma_initializer, true) end
  if self.center then add_weight(self, "beta", pshape, self.beta_initializer, true) end
  add_weight(self, "moving_mean", pshape, self.moving_mean_initializer, false)
  add_weight(self, "moving_variance", pshape, self.moving_variance_initializer, false)
end
local function shaped(v, bshape) return v and ops.reshape(v, bshape) end
-- Keras casts floating inputs to the layer's float32 (its dtype policy).
local function float32_input(x)
  x = ops.convert_to_tensor(x)
  local dt = core.dtype(x)
  if dt.is_floating and dt ~= dtypes.float32 then return ops.cast(x, dtypes.float32) end
  return x
end
function BatchNormalization:call(x, opts)
  x = float32_input(x)
  local training = training_flag(opts, "BatchNormalization")
  local b = self._bshape
  local gamma, beta = shaped(self.gamma, b), shaped(self.beta, b)
  -- A frozen layer (trainable = false) runs in inference mode, as Keras's.
  if training and self.trainable then
    local mean, var = moments(x, self._keep, #b)
    local m = self.momentum
    local flat = self.moving_mean.shape:as_list()
    self.moving_mean:assign(self.moving_mean * m + ops.reshape(mean, flat) * (1 - m))
    self.moving_variance:assign(self.moving_variance * m + ops.reshape(var, flat) * (1 - m))
    return normalize(x, mean, var, gamma, beta, self.epsilon)
  end
  return normalize(x, shaped(self.moving_mean, b), shaped(self.moving_variance, b), gamma, beta,
    self.epsilon)
end

local LayerNormalization = base.Layer:extend("LayerNormalization")
local LN_SPEC = spec({ "axis", "epsilon" }, table.unpack(NORM_OPTIONS))
table.insert(LN_SPEC.via, norm_options)
layers.LayerNormalization = LayerNormalization
options.init(LayerNormalization, "tf.keras.layers.LayerNormalization([axis] [, epsilon] [, {center=, scale=, "
  .. "beta_initializer=, gamma_initializer=, trainable=, name=}])",
  "Normalises each example over axis (default -1, an integer or a list) with its own mean and (biased) "
  .. "variance, then scales by gamma and shifts by beta (trainable, shaped as those axes). epsilon 0.001.",
  LN_SPEC, function(self, axis, epsilon, opts)
  named(self, opts)
  norm_options(self, axis, epsilon, opts)
end)
LayerNormalization.supports_masking = true
function LayerNormalization:build(x)
  local dims = dims_of(x)
  local reduce = norm_axes(self.axis, #dims, "LayerNormalization")
  -- The statistics run over the given axes; the parameters are shaped as them.
  local pshape, bshape = param_shapes(dims, reduce, "LayerNormalization")
  self._reduce, self._bshape = reduce, bshape
  if self.scale then add_weight(self, "gamma", pshape, self.gamma_initializer, true) end
  if self.center then add_weight(self, "beta", pshape, self.beta_initializer, true) end
end
function LayerNormalization:call(x)
  x = float32_input(x)
  local keep = {}
  for i = 0, #self._bshape - 1 do keep[i] = not self._reduce[i] end
  local mean, var = moments(x, keep, #self._bshape)
  return normalize(x, mean, var, shaped(self.gamma, self._bshape), shaped(self.beta, self._bshape),
    self.epsilon)
end

-- Embedding -----------------------------------------------------------------------------
local Embedding = base.Layer:extend("Embedding")
layers.Embedding = Embedding
options.init(Embedding, "tf.keras.layers.Embedding(input_dim, output_dim [, {embeddings_initializer=, "
  .. "mask_zero=, trainable=, name=}])",
  "Looks up rows of a trainable (input_dim, output_dim) table for integer ids (0-based): "
  .. "tf.nn.embedding_lookup. The table is made on the first call ('uniform' in ±0.05 by default). With "
  .. "mask_zero = true id 0 is padding: the layer's mask (compute_mask) is ids ~= 0, which a Sequential or "
  .. "functional model passes to the layers after it (a recurrent layer skips the padded steps).",
  spec({ "input_dim", "output_dim" }, "embeddings_initializer", "mask_zero"), function(self, input_dim, output_dim, opts)
  named(self, opts)
  for _, p in ipairs({ { "input_dim", input_dim }, { "output_dim", output_dim } }) do
    if math.type(p[2]) ~= "integer" or p[2] <= 0 then
      raise("ValueError", ("Both `input_dim` and `output_dim` should be positive, Received input_dim=%s "
        .. "and output_dim=%s"):format(tostring(input_dim), tostring(output_dim)), 3)
    end
  end
  self.input_dim, self.output_dim = input_dim, output_dim
  self.embeddings_initializer = initializer(opts.embeddings_initializer, "uniform")
  self.mask_zero = check.boolean(opts.mask_zero, "tf.keras.layers.Embedding", "mask_zero") or false
  self.supports_masking = self.mask_zero
end)
function Embedding:compute_mask(ids)
  if not self.mask_zero then return nil end
  return ops.not_equal(ops.convert_to_tensor(ids), 0)
end
function Embedding:build()
  add_weight(self, "embeddings", { self.input_dim, self.output_dim }, self.embeddings_initializer, true)
end
function Embedding:call(ids)
  ids = ops.convert_to_tensor(ids)
  if not core.dtype(ids).is_integer then ids = ops.cast(ids, dtypes.int32) end
  return nn_ops.embedding_lookup(self.embeddings, ids)
end

-- Masking ---------------------------------------------------------------------------------
local Masking = base.Layer:extend("Masking")
layers.Masking = Masking
options.init(Masking, "tf.keras.layers.Masking([mask_value] [, {name=}])",
  "Marks the timesteps of (batch, steps, features) input whose features all equal mask_value (default 0) "
  .. "as padding: it zeroes them, and its mask (compute_mask: some feature differs from mask_value) goes "
  .. "to the layers after it in a Sequential or functional model (a recurrent layer skips those steps).",
  spec({ "mask_value" }), function(self, mask_value, opts)
  named(self, opts)
  if mask_value ~= nil and type(mask_value) ~= "number" then
    raise("TypeError", "tf.keras.layers.Masking: mask_value must be a number, got " .. tostring(mask_value), 3)
  end
  self.mask_value = mask_value or 0.0
end)
Masking.supports_masking = true
local function kept(self, x)
  return ops.reduce_any(ops.not_equal(x, ops.cast(self.mask_value, core.dtype(x))), -1, true)
end
function Masking:compute_mask(x)
  return ops.squeeze(kept(self, ops.convert_to_tensor(x)), { -1 })
end
function Masking:call(x)
  x = ops.convert_to_tensor(x)
  return x * ops.cast(kept(self, x), core.dtype(x))
end

return { layers = layers }
