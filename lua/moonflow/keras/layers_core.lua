-- layers_core.lua — Keras layers without recurrence that go between the
-- others: Activation, ReLU, Softmax, Reshape, Concatenate, Add, Conv1D and
-- the global poolings. Keras layers on base_layer.Layer (build on the first
-- call, weights by add_weight, usable on KerasTensors) with Keras's
-- constructor options and errors (keras/layers/*, TF 2.15).

local errors = require("moonflow.errors")
local options = require("moonflow.options")
local shapes = require("moonflow.tensor.shape")
local ops = require("moonflow.ops")
local nn_ops = require("moonflow.ops").nn
local base = require("moonflow.keras.base_layer")
local keras = require("moonflow.keras")
local util = require("moonflow.keras.layer_util")
local check = require("moonflow.keras.check")
local raise = errors.raise

local layers = {}
local named, spec = util.named, util.spec

-- A shape as Python prints a tuple: (None, 2, 3), (4,).
local function tuple(dims)
  local parts = {}
  for i, d in ipairs(dims) do parts[i] = (d == nil or d == shapes.None) and "None" or tostring(d) end
  if #parts == 1 then return "(" .. parts[1] .. ",)" end
  return "(" .. table.concat(parts, ", ") .. ")"
end
local function pylist(list)
  local parts = {}
  for i, d in ipairs(list) do parts[i] = tostring(d) end
  return "[" .. table.concat(parts, ", ") .. "]"
end

-- Activations --------------------------------------------------------------------
local Activation = base.Layer:extend("Activation")
layers.Activation = Activation
options.init(Activation, "tf.keras.layers.Activation(activation [, {name=}])",
  "Applies an activation: a name Keras knows ('relu', 'softmax', ...; tf.keras.activations.get) or a "
  .. "function of a tensor.", spec({ "activation" }), function(self, activation, opts)
  named(self, opts)
  if activation == nil then
    raise("TypeError", "Activation.__init__() missing 1 required positional argument: 'activation'", 3)
  end
  self.activation = keras.activations.get(activation)
end)
Activation.supports_masking = true
function Activation:call(x)
  return self.activation(ops.convert_to_tensor(x))
end

local ReLU = base.Layer:extend("ReLU")
layers.ReLU = ReLU
options.init(ReLU, "tf.keras.layers.ReLU([max_value] [, negative_slope] [, threshold] [, {name=}])",
  "The rectified linear unit, generalised as Keras's: x where threshold <= x (below max_value when "
  .. "given), negative_slope * (x - threshold) below the threshold. Defaults: no max_value, "
  .. "negative_slope 0, threshold 0.", spec({ "max_value", "negative_slope", "threshold" }),
  function(self, max_value, negative_slope, threshold, opts)
  named(self, opts)
  for _, p in ipairs({ { "max_value", max_value }, { "negative_slope", negative_slope }, { "threshold", threshold } }) do
    if p[2] ~= nil and type(p[2]) ~= "number" then
      raise("TypeError", ("ReLU: %s must be a number, got %s"):format(p[1], tostring(p[2])), 3)
    end
    if p[2] ~= nil and p[2] < 0 then
      raise("ValueError", ("%s of a ReLU layer cannot be a negative value. Received: %s"):format(p[1], tostring(p[2])), 3)
    end
  end
  self.max_value, self.negative_slope, self.threshold = max_value, negative_slope or 0.0, threshold or 0.0
end)
ReLU.supports_masking = true
-- Keras's backend.relu, branch for branch.
function ReLU:call(x)
  x = ops.convert_to_tensor(x)
  local alpha, threshold, max_value = self.negative_slope, self.threshold, self.max_value
  if alpha ~= 0 and max_value == nil and threshold == 0 then return ops.nn.leaky_relu(x, alpha) end
  local negative
  if alpha ~= 0 then negative = ops.nn.relu(threshold ~= 0 and threshold - x or -x) end
  local y
  if threshold ~= 0 then
    y = x * ops.cast(ops.greater(x, threshold), x.dtype)
  elseif max_value == 6 then
    y, max_value = ops.nn.relu6(x), nil
  else
    y = ops.nn.relu(x)
  end
  if max_value ~= nil then y = ops.clip_by_value(y, 0, max_value) end
  if negative then y = y - negative * alpha end
  return y
end

local Softmax = base.Layer:extend("Softmax")
layers.Softmax = Softmax
options.init(Softmax, "tf.keras.layers.Softmax([axis] [, {name=}])",
  "The softmax over axis (default -1).", spec({ "axis" }), function(self, axis, opts)
  named(self, opts)
  if axis ~= nil and math.type(axis) ~= "integer" then
    raise("TypeError", "Softmax: axis must be an integer, got " .. tostring(axis), 3)
  end
  self.axis = axis or -1
end)
Softmax.supports_masking = true
function Softmax:call(x)
  return nn_ops.softmax(ops.convert_to_tensor(x), self.axis)
end

-- Reshape --------------------------------------------------------------------------
local Reshape = base.Layer:extend("Reshape")
layers.Reshape = Reshape
options.init(Reshape, "tf.keras.layers.Reshape(target_shape [, {name=}])",
  "Reshapes each example to target_shape (a list; one entry may be -1, worked out from the size); "
  .. "the batch axis stays.", spec({ "target_shape" }), function(self, target_shape, opts)
  named(self, opts)
  if type(target_shape) ~= "table" then
    raise("TypeError", "Reshape: target_shape must be a list of integers, got " .. tostring(target_shape), 3)
  end
  local unknown
  for i, d in ipairs(target_shape) do
    if math.type(d) ~= "integer" or (d < 1 and d ~= -1) then
      raise("ValueError", ("Reshape: target_shape must hold positive integers (and at most one -1), got %s")
        :format(pylist(target_shape)), 3)
    end
    if d == -1 then
      if unknown then
        raise("ValueError", ("There must be at most one unknown dimension in output_shape. Received: "
          .. "output_shape=%s."):format(tuple(target_shape)), 3)
      end
      unknown = i
    end
  end
  self.target_shape = target_shape
end)

-- Keras's _fix_unknown_dimension: the -1 worked out from the known size.
local function fix_unknown(input_dims, target)
  local size = 1
  for _, d in ipairs(input_dims) do size = size * d end
  local known, unknown = 1, nil
  for i, d in ipairs(target) do
    if d == -1 then unknown = i else known = known * d end
  end
  local out = table.move(target, 1, #target, 1, {})
  local msg = ("total size of the new array must be unchanged, input_shape = %s, output_shape = %s")
    :format(pylist(input_dims), pylist(target))
  if unknown then
    if known == 0 or size % known ~= 0 then raise("ValueError", msg, 4) end
    out[unknown] = size // known
  elseif known ~= size then
    raise("ValueError", msg, 4)
  end
  return out
end

function Reshape:call(x)
  x = ops.convert_to_tensor(x)
  local dims = util.check_ndim(self, x, 1, true)
  local rest, all_known = {}, true
  for i = 2, #dims do
    rest[#rest + 1] = dims[i]
    if dims[i] == nil or dims[i] == shapes.None then all_known = false end
  end
  if not all_known then
    -- Shapes known only at run time: the batch from the tensor, the rest as given.
    return ops.reshape(x, ops.concat({ ops.slice(ops.shape(x), { 0 }, { 1 }), ops.constant(self.target_shape) }, 0))
  end
  local target = fix_unknown(rest, self.target_shape)
  local batch = dims[1]
  if batch == nil or batch == shapes.None then batch = -1 end
  return ops.reshape(x, { batch, table.unpack(target) })
end

-- Merging ----------------------------------------------------------------------------
-- A static dimension (not None, as a KerasTensor's batch is).
local function known(d) return math.type(d) == "integer" and d >= 0 end

local function tensor_list(inputs, what)
  if type(inputs) ~= "table" or getmetatable(inputs) ~= nil then
    raise("ValueError", ("A merge layer should be called on a list of inputs. Received: inputs=%s (not a "
      .. "list of tensors)"):format(tostring(inputs)), 3)
  end
  local out = {}
  for i, t in ipairs(inputs) do out[i] = ops.convert_to_tensor(t) end
  if #out < 1 then
    raise("ValueError", ("A %s layer should be called on a list of at least 1 input. Got 0 inputs."):format(what), 3)
  end
  return out
end

local Concatenate = base.Layer:extend("Concatenate")
layers.Concatenate = Concatenate
options.init(Concatenate, "tf.keras.layers.Concatenate([axis] [, {name=}])",
  "Concatenates a list of tensors (or of KerasTensors, in a functional model) along axis (default -1); "
  .. "their other dimensions must match.",
  spec({ "axis" }), function(self, axis, opts)
  named(self, opts)
  if axis ~= nil and math.type(axis) ~= "integer" then
    raise("TypeError", "Concatenate: axis must be an integer, got " .. tostring(axis), 3)
  end
  self.axis = axis or -1
end)
function Concatenate:call(inputs)
  local xs = tensor_list(inputs, "`Concatenate`")
  local all = {}
  for i, t in ipairs(xs) do all[i] = t.shape:as_list() end
  local rank = #all[1]
  local axis = self.axis < 0 and self.axis + rank or self.axis
  local ok = axis >= 0 and axis < rank
  for _, dims in ipairs(all) do
    if #dims ~= rank then ok = false end
    for d = 1, ok and rank or 0 do
      local a, b = all[1][d], dims[d]
      if d - 1 ~= axis and known(a) and known(b) and a ~= b then ok = false end
    end
  end
  if not ok then
    local texts = {}
    for i, dims in ipairs(all) do texts[i] = tuple(dims) end
    raise("ValueError", ("A `Concatenate` layer requires inputs with matching shapes except for the "
      .. "concatenation axis. Received: input_shape=[%s]"):format(table.concat(texts, ", ")), 2)
  end
  return ops.concat(xs, axis)
end

local Add = base.Layer:extend("Add")
layers.Add = Add
options.init(Add, "tf.keras.layers.Add([{name=}])",
  "Adds a list of tensors (or of KerasTensors, in a functional model) of the same shape (dimensions of "
  .. "size 1 broadcast, as Keras allows).",
  spec({}), function(self, opts)
  named(self, opts)
end)
function Add.call(_, inputs)
  local xs = tensor_list(inputs, "merge")
  -- Keras's _compute_elemwise_op_output_shape, on the shapes without the batch.
  local function rest(t)
    local dims = t.shape:as_list()
    return table.move(dims, 2, #dims, 1, {})
  end
  local shape = rest(xs[1])
  for i = 2, #xs do
    local other = rest(xs[i])
    local short, long = #shape <= #other and shape or other, #shape <= #other and other or shape
    local merged = table.move(long, 1, #long - #short, 1, {})
    for j = 1, #short do
      local a, b = long[#long - #short + j], short[j]
      if not known(a) or not known(b) then merged[#merged + 1] = -1
      elseif a == 1 then merged[#merged + 1] = b
      elseif b == 1 or a == b then merged[#merged + 1] = a
      else
        raise("ValueError", ("Inputs have incompatible shapes. Received shapes %s and %s")
          :format(tuple(shape), tuple(other)), 2)
      end
    end
    shape = merged
  end
  local y = xs[1]
  for i = 2, #xs do y = ops.add(y, xs[i]) end
  return y
end

-- Conv1D -------------------------------------------------------------------------------
local Conv1D = base.Layer:extend("Conv1D")
layers.Conv1D = Conv1D
options.init(Conv1D, "tf.keras.layers.Conv1D(filters, kernel_size [, strides] [, padding] [, {dilation_rate=, activation=, "
  .. "use_bias=, kernel_initializer=, bias_initializer=, trainable=, name=}])",
  "A 1-D convolution over (batch, steps, channels) input: kernel (kernel_size, channels, filters). "
  .. "padding 'valid' (default), 'same' or 'causal' (zeros before the sequence, so step t sees steps "
  .. "<= t). dilation_rate d spaces the kernel's taps d steps apart (not with strides > 1). Variables are "
  .. "made on the first call. Defaults: strides 1, dilation_rate 1, no activation, use_bias true, "
  .. "glorot_uniform kernel, zeros bias.",
  spec({ "filters", "kernel_size", "strides", "padding" }, "dilation_rate", "activation", "use_bias",
    "kernel_initializer", "bias_initializer"),
  function(self, filters, kernel_size, strides, padding, opts)
  named(self, opts)
  if math.type(filters) ~= "integer" or filters <= 0 then
    raise("ValueError", ("Invalid value for argument `filters`. Expected a strictly positive value. "
      .. "Received filters=%s."):format(tostring(filters)), 3)
  end
  local function one(v, what)
    if type(v) == "table" and #v == 1 then v = v[1] end
    if math.type(v) ~= "integer" or v <= 0 then
      raise("ValueError", ("The `%s` argument must be a tuple of 1 integers. Received: %s")
        :format(what, tostring(v)), 4)
    end
    return v
  end
  self.filters = filters
  self.kernel_size = one(kernel_size, "kernel_size")
  self.strides = one(strides or 1, "strides")
  self.dilation_rate = one(opts.dilation_rate or 1, "dilation_rate")
  self.padding = util.padding(padding, "Conv1D")
  self.activation = keras.activations.get(opts.activation)
  self.use_bias = check.boolean(opts.use_bias, "tf.keras.layers.Conv1D", "use_bias") ~= false
  self.kernel_initializer = util.initializer(opts.kernel_initializer, "glorot_uniform")
  self.bias_initializer = util.initializer(opts.bias_initializer, "zeros")
end)
function Conv1D:build(x)
  local dims = util.check_ndim(self, x, 3, true)
  if self.strides > 1 and self.dilation_rate > 1 then
    -- Keras 2's Conv1D meets tf.nn.convolution's check on its first call.
    raise("ValueError", ("`strides > 1` not supported in conjunction with `dilation_rate > 1`. Received: "
      .. "strides=[%d] and dilation_rate=[%d]"):format(self.strides, self.dilation_rate), 3)
  end
  local c = dims[#dims]
  if c == nil or c == shapes.None then
    raise("ValueError", "The channel dimension of the inputs should be defined. Found None.", 3)
  end
  util.add_weight(self, "kernel", { self.kernel_size, c, self.filters }, self.kernel_initializer)
  if self.use_bias then util.add_weight(self, "bias", { self.filters }, self.bias_initializer) end
end
-- A 1-D convolution is a 2-D one over a height of 1.
function Conv1D:call(x)
  x = ops.convert_to_tensor(x)
  util.check_ndim(self, x, 3)
  local padding = self.padding:upper()
  if padding == "CAUSAL" then
    x = ops.pad(x, { { 0, 0 }, { (self.kernel_size - 1) * self.dilation_rate, 0 }, { 0, 0 } })
    padding = "VALID"
  end
  local y = nn_ops.conv2d(ops.expand_dims(x, 1), ops.expand_dims(self.kernel, 0), { 1, self.strides }, padding,
    "NHWC", { 1, self.dilation_rate })
  y = ops.squeeze(y, { 1 })
  if self.bias then y = nn_ops.bias_add(y, self.bias) end
  return self.activation(y)
end

-- Global pooling ---------------------------------------------------------------------------
local function global_pooling(class_name, reduce, rank, what, masked_mean)
  local class = base.Layer:extend(class_name)
  layers[class_name] = class
  local axes = rank == 4 and { 1, 2 } or { 1 }
  options.init(class, ("tf.keras.layers.%s([data_format] [, keepdims] [, {name=}])"):format(class_name),
    ("The %s over the %s axes of channels_last input: (batch, %s, channels) -> (batch, channels), or "
      .. "with keepdims the reduced axes kept as 1.%s"):format(what, rank == 4 and "spatial" or "steps",
      rank == 4 and "rows, cols" or "steps", masked_mean and " Given a mask (the call's {mask =}, or the one "
      .. "a Sequential or functional model passes on), the mean of the unmasked steps." or ""),
    spec({ "data_format", "keepdims" }), function(self, data_format, keepdims, opts)
      named(self, opts)
      if data_format ~= nil and data_format ~= "channels_last" then
        raise("ValueError", ("%s: only data_format 'channels_last' is supported, got %s")
          :format(class_name, tostring(data_format)), 3)
      end
      self.data_format = "channels_last"
      self.keepdims = check.boolean(keepdims, "tf.keras.layers." .. class_name, "keepdims") or false
    end)
  class.call = function(self, x, opts)
    x = ops.convert_to_tensor(x)
    util.check_ndim(self, x, rank)
    local mask = opts and opts.mask
    if mask ~= nil and masked_mean then
      -- Keras's GlobalAveragePooling1D: the mean over the unmasked steps.
      local m = ops.expand_dims(ops.cast(mask, x.dtype), 2)
      return ops.reduce_sum(x * m, axes, self.keepdims) / ops.reduce_sum(m, axes, self.keepdims)
    end
    return reduce(x, axes, self.keepdims)
  end
  if masked_mean then
    -- It takes the mask (the call's mask option) and ends it.
    class._call_options = {}
    class.supports_masking = true
    class.compute_mask = function() return nil end
  end
end
global_pooling("GlobalAveragePooling2D", ops.reduce_mean, 4, "mean")
global_pooling("GlobalMaxPooling2D", ops.reduce_max, 4, "maximum")
global_pooling("GlobalAveragePooling1D", ops.reduce_mean, 3, "mean", true)
global_pooling("GlobalMaxPooling1D", ops.reduce_max, 3, "maximum")
layers.GlobalAvgPool2D = layers.GlobalAveragePooling2D
layers.GlobalMaxPool2D = layers.GlobalMaxPooling2D
layers.GlobalAvgPool1D = layers.GlobalAveragePooling1D
layers.GlobalMaxPool1D = layers.GlobalMaxPooling1D

return { layers = layers }
