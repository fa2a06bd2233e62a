-- losses.lua (moonflow.keras.losses) — tf.keras.losses: Keras's loss
-- functions (one value per example) and loss classes (a callable that
-- weights the per-example values by sample_weight and reduces them:
-- "sum_over_batch_size" by default, "sum" or "none"), and `get`, which
-- model.compile uses to turn TF's string names into losses. The formulas,
-- clipping epsilon and shape checks are Keras's (keras/losses.py and
-- backend.py, TF 2.15).

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local doc = require("moonflow.doc")
local options = require("moonflow.options")
local dtypes = require("moonflow.tensor.dtypes")
local ops = require("moonflow.ops")
local nn_ops = require("moonflow.ops").nn
local modules = require("moonflow.keras.module")
local check = require("moonflow.keras.check")
local raise = errors.raise

local losses = {}

-- Keras's backend.epsilon(): predictions are clipped to [eps, 1 - eps]
-- before a logarithm.
local EPSILON = 1e-7

local function rank(t) return #t.shape:as_list() end

local function shape_text(t)
  local dims = t.shape:as_list()
  local parts = {}
  for i, d in ipairs(dims) do parts[i] = d == nil and "None" or tostring(d) end
  if #parts == 1 then return "(" .. parts[1] .. ",)" end
  return "(" .. table.concat(parts, ", ") .. ")"
end

-- TensorShape.is_compatible_with: same rank, equal known dimensions.
local function compatible(a, b)
  local da, db = a.shape:as_list(), b.shape:as_list()
  if #da ~= #db then return false end
  for i = 1, #da do
    if da[i] ~= nil and db[i] ~= nil and da[i] >= 0 and db[i] >= 0 and da[i] ~= db[i] then return false end
  end
  return true
end

-- y_pred as a tensor and y_true cast to its dtype, as every Keras loss starts.
local function prepare(y_true, y_pred)
  y_pred = ops.convert_to_tensor(y_pred)
  y_true = ops.convert_to_tensor(y_true)
  if core.dtype(y_true) ~= core.dtype(y_pred) then y_true = ops.cast(y_true, core.dtype(y_pred)) end
  return y_true, y_pred
end

-- Moves `axis` of t to the end (Keras's losses reduce over the last axis).
local function axis_last(t, axis)
  local r = rank(t)
  local a = axis < 0 and axis + r or axis
  if a < 0 or a >= r then
    raise("ValueError", ("Invalid axis: %d for a tensor of rank %d"):format(axis, r), 4)
  end
  if a == r - 1 then return t end
  local perm = {}
  for i = 0, r - 1 do if i ~= a then perm[#perm + 1] = i end end
  perm[#perm + 1] = a
  return ops.transpose(t, perm)
end

-- Per-example losses ------------------------------------------------------------
local function mean_squared_error(y_true, y_pred)
  y_true, y_pred = prepare(y_true, y_pred)
  return ops.reduce_mean(ops.square(ops.subtract(y_pred, y_true)), -1)
end

local function mean_absolute_error(y_true, y_pred)
  y_true, y_pred = prepare(y_true, y_pred)
  return ops.reduce_mean(ops.abs(ops.subtract(y_pred, y_true)), -1)
end

local function huber(y_true, y_pred, delta)
  delta = check.number(delta, "tf.keras.losses.huber", "delta") or 1.0
  y_true, y_pred = prepare(y_true, y_pred)
  local dt = core.dtype(y_pred)
  local err = ops.subtract(y_pred, y_true)
  local abs_err = ops.abs(err)
  local d = ops.constant(delta, dt)
  local half = ops.constant(0.5, dt)
  local quadratic = half * ops.square(err)
  local linear = d * abs_err - half * ops.square(d)
  return ops.reduce_mean(ops.where(ops.less_equal(abs_err, d), quadratic, linear), -1)
end

-- max(x, 0) - x z + log(1 + exp(-|x|)): tf.nn.sigmoid_cross_entropy_with_logits.
local function sigmoid_xent(labels, logits)
  if not compatible(labels, logits) then
    raise("ValueError", ("logits and labels must have the same shape, received (%s vs %s).")
      :format(shape_text(logits), shape_text(labels)), 4)
  end
  local zeros = ops.zeros_like(logits)
  return ops.maximum(logits, zeros) - logits * labels + ops.log1p(ops.exp(-ops.abs(logits)))
end

local function crossentropy_args(what, from_logits, label_smoothing, axis)
  check.boolean(from_logits, what, "from_logits")
  check.number(label_smoothing, what, "label_smoothing")
  check.integer(axis, what, "axis")
end

local function binary_crossentropy(y_true, y_pred, from_logits, label_smoothing, axis)
  crossentropy_args("tf.keras.losses.binary_crossentropy", from_logits, label_smoothing, axis)
  y_true, y_pred = prepare(y_true, y_pred)
  local dt = core.dtype(y_pred)
  local ls = label_smoothing or 0
  if ls ~= 0 then y_true = y_true * ops.constant(1 - ls, dt) + ops.constant(0.5 * ls, dt) end
  local per
  if from_logits then
    per = sigmoid_xent(y_true, y_pred)
  else
    local eps = ops.constant(EPSILON, dt)
    local one = ops.constant(1, dt)
    local p = ops.clip_by_value(y_pred, eps, one - eps)
    per = -(y_true * ops.log(p + eps) + (one - y_true) * ops.log(one - p + eps))
  end
  return ops.reduce_mean(per, axis or -1)
end

local function categorical_crossentropy(y_true, y_pred, from_logits, label_smoothing, axis)
  crossentropy_args("tf.keras.losses.categorical_crossentropy", from_logits, label_smoothing, axis)
  y_true, y_pred = prepare(y_true, y_pred)
  axis = axis or -1
  if not compatible(y_true, y_pred) then
    raise("ValueError", ("Shapes %s and %s are incompatible"):format(shape_text(y_true), shape_text(y_pred)), 3)
  end
  local dt = core.dtype(y_pred)
  local ls = label_smoothing or 0
  if ls ~= 0 then
    local classes = ops.cast(ops.shape(y_true)[axis < 0 and rank(y_true) + axis or axis], dt)
    y_true = y_true * ops.constant(1 - ls, dt) + ops.constant(ls, dt) / classes
  end
  y_true, y_pred = axis_last(y_true, axis), axis_last(y_pred, axis)
  if from_logits then return nn_ops.softmax_cross_entropy_with_logits(y_true, y_pred) end
  local p = y_pred / ops.reduce_sum(y_pred, -1, { keepdims = true })
  local eps = ops.constant(EPSILON, dt)
  p = ops.clip_by_value(p, eps, ops.constant(1, dt) - eps)
  return -ops.reduce_sum(y_true * ops.log(p), -1)
end

local function sparse_categorical_crossentropy(y_true, y_pred, from_logits, axis)
  crossentropy_args("tf.keras.losses.sparse_categorical_crossentropy", from_logits, nil, axis)
  y_pred = ops.convert_to_tensor(y_pred)
  y_pred = axis_last(y_pred, axis or -1)
  local labels = ops.convert_to_tensor(y_true)
  if core.dtype(labels) ~= dtypes.int64 then labels = ops.cast(labels, dtypes.int32) end
  local logits = y_pred
  if not from_logits then
    local dt = core.dtype(y_pred)
    local eps = ops.constant(EPSILON, dt)
    logits = ops.log(ops.clip_by_value(y_pred, eps, ops.constant(1, dt) - eps))
  end
  -- Labels of the logits' rank (a trailing 1: shape (batch, 1)) are
  -- flattened and the result reshaped, as Keras's backend does.
  local pr = rank(logits)
  if rank(labels) ~= pr - 1 then
    local batch_shape = ops.slice(ops.shape(logits), { 0 }, { pr - 1 })
    labels = ops.reshape(labels, { -1 })
    local flat = ops.reshape(logits, ops.stack({ ops.constant(-1), ops.shape(logits)[-1] }))
    local per = nn_ops.sparse_softmax_cross_entropy_with_logits(labels, flat)
    if pr >= 3 then per = ops.reshape(per, batch_shape) end
    return per
  end
  return nn_ops.sparse_softmax_cross_entropy_with_logits(labels, logits)
end

local function fn_def(fn, signature, text, positional)
  return options.def(fn, signature, text, { positional = positional })
end

losses.mean_squared_error = fn_def(function(y_true, y_pred) return mean_squared_error(y_true, y_pred) end,
  "tf.keras.losses.mean_squared_error(y_true, y_pred)",
  "Mean of squared differences over the last axis, per example.", { "y_true", "y_pred" })
losses.mean_absolute_error = fn_def(function(y_true, y_pred) return mean_absolute_error(y_true, y_pred) end,
  "tf.keras.losses.mean_absolute_error(y_true, y_pred)",
  "Mean of absolute differences over the last axis, per example.", { "y_true", "y_pred" })
losses.huber = fn_def(function(y_true, y_pred, delta) return huber(y_true, y_pred, delta) end,
  "tf.keras.losses.huber(y_true, y_pred [, delta])",
  "The Huber loss per example: 0.5 e² where |e| <= delta (default 1), delta (|e| - 0.5 delta) beyond, "
  .. "averaged over the last axis.", { "y_true", "y_pred", "delta" })
losses.binary_crossentropy = fn_def(function(y_true, y_pred, from_logits, label_smoothing, axis)
  return binary_crossentropy(y_true, y_pred, from_logits, label_smoothing, axis)
end, "tf.keras.losses.binary_crossentropy(y_true, y_pred [, from_logits] [, label_smoothing] [, axis])",
"Binary cross-entropy averaged over axis (default -1), per example; probabilities are clipped to "
.. "[1e-7, 1 - 1e-7] unless from_logits; label_smoothing moves labels towards 0.5.",
{ "y_true", "y_pred", "from_logits", "label_smoothing", "axis" })
losses.categorical_crossentropy = fn_def(function(y_true, y_pred, from_logits, label_smoothing, axis)
  return categorical_crossentropy(y_true, y_pred, from_logits, label_smoothing, axis)
end, "tf.keras.losses.categorical_crossentropy(y_true, y_pred [, from_logits] [, label_smoothing] [, axis])",
"Cross-entropy with one-hot labels, per example (y_pred rescaled to sum to 1 and clipped unless "
.. "from_logits); label_smoothing moves labels towards 1 / classes.",
{ "y_true", "y_pred", "from_logits", "label_smoothing", "axis" })
losses.sparse_categorical_crossentropy = fn_def(function(y_true, y_pred, from_logits, axis)
  return sparse_categorical_crossentropy(y_true, y_pred, from_logits, axis)
end, "tf.keras.losses.sparse_categorical_crossentropy(y_true, y_pred [, from_logits] [, axis])",
"Cross-entropy with integer labels, per example.", { "y_true", "y_pred", "from_logits", "axis" })
losses.mse, losses.mae = losses.mean_squared_error, losses.mean_absolute_error

-- Reductions ----------------------------------------------------------------------
local REDUCTIONS = { auto = true, none = true, sum = true, sum_over_batch_size = true }
losses.Reduction = { AUTO = "auto", NONE = "none", SUM = "sum", SUM_OVER_BATCH_SIZE = "sum_over_batch_size" }
doc.def(losses.Reduction, "tf.keras.losses.Reduction",
  "The reductions a loss class takes: AUTO ('auto', which is SUM_OVER_BATCH_SIZE), NONE ('none': the "
  .. "weighted per-example losses), SUM ('sum') and SUM_OVER_BATCH_SIZE ('sum_over_batch_size': the sum "
  .. "divided by the number of per-example losses).")

local function check_reduction(r)
  if r == nil then return "sum_over_batch_size" end
  if not REDUCTIONS[r] then
    raise("ValueError", ("Invalid Reduction Key: %s. Expected keys are \"('auto', 'none', 'sum', "
      .. "'sum_over_batch_size')\""):format(tostring(r)), 4)
  end
  return r == "auto" and "sum_over_batch_size" or r
end

-- Keras's losses_utils.compute_weighted_loss: sample_weight is matched to
-- the per-example losses' rank (a trailing 1 squeezed, or one added),
-- broadcast against them, and the product reduced.
local function weighted_loss(per, sample_weight, reduction)
  per = ops.convert_to_tensor(per)
  local input_dtype = core.dtype(per)
  if not input_dtype.is_floating then per = ops.cast(per, dtypes.float32) end
  local dt = core.dtype(per)
  if sample_weight ~= nil then
    local w = ops.cast(ops.convert_to_tensor(sample_weight), dt)
    local wr, pr = rank(w), rank(per)
    if wr - pr == 1 then w = ops.squeeze(w, { -1 })
    elseif pr - wr == 1 then w = ops.expand_dims(w, -1) end
    per = ops.multiply(per, w)
  end
  local loss
  if reduction == "none" then
    loss = per
  else
    loss = ops.reduce_sum(per)
    if reduction == "sum_over_batch_size" then
      loss = ops.math.divide_no_nan(loss, ops.cast(ops.size(per), dt))
    end
  end
  if core.dtype(loss) ~= input_dtype then loss = ops.cast(loss, input_dtype) end
  return loss
end

-- Keras's squeeze_or_expand_dimensions for (y_pred, y_true): a trailing
-- axis of size 1 on the one with the higher rank goes.
local function match_ranks(y_true, y_pred)
  if not (core.is_tensor(y_true) and core.is_tensor(y_pred)) then return y_true, y_pred end
  local dt, dp = y_true.shape:as_list(), y_pred.shape:as_list()
  if #dp - #dt == 1 and dp[#dp] == 1 then y_pred = ops.squeeze(y_pred, { -1 })
  elseif #dt - #dp == 1 and dt[#dt] == 1 then y_true = ops.squeeze(y_true, { -1 }) end
  return y_true, y_pred
end

-- Loss classes -----------------------------------------------------------------------
local Loss = modules.Module:extend("Loss")
losses.Loss = Loss
options.init(Loss, "tf.keras.losses.Loss([reduction] [, name])",
  "The base of Keras's loss classes: loss(y_true, y_pred [, sample_weight]) computes loss:call(y_true, "
  .. "y_pred) per example, weights it and reduces it (reduction 'sum_over_batch_size' by default, 'sum', "
  .. "'none' or 'auto'). A subclass (Loss:extend('Name')) defines call.",
  { positional = { "reduction", "name" } }, function(self, reduction, name)
  self.reduction = check_reduction(reduction)
  if name ~= nil then self.name = check.string(name, "tf.keras.losses.Loss", "name") end
end)
local function loss_call(self, y_true, y_pred, sample_weight)
  if type(sample_weight) == "table" and getmetatable(sample_weight) == nil and sample_weight[1] == nil
    and sample_weight.sample_weight ~= nil then
    sample_weight = sample_weight.sample_weight
  end
  local per = self:call(ops.convert_to_tensor(y_true), ops.convert_to_tensor(y_pred))
  return weighted_loss(per, sample_weight, self.reduction)
end
Loss.__call = loss_call
-- Keras's Loss.call: a subclass (Loss:extend("Name")) defines its own.
function Loss:call()
  raise("NotImplementedError", "Must be implemented in subclasses.", 2)
end

-- A loss class around a per-example function: fn(y_true, y_pred, ...)
-- with the instance's options (the fields named in `args`) after them;
-- init reads the constructor's arguments into those fields.
local function loss_class(name, fn, args, signature, text, init)
  local class = Loss:extend(name)
  losses[name] = class
  -- Its own __call (extend copied the parent's; nil first, so the class's
  -- guard wraps it and a call with `.` names the class's kind).
  class.__call = nil
  class.__call = loss_call
  local positional = {}
  for i, a in ipairs(args) do positional[i] = a end
  positional[#positional + 1] = "reduction"
  positional[#positional + 1] = "name"
  options.init(class, signature, text, { positional = positional }, init)
  function class:call(y_true, y_pred)
    y_true, y_pred = match_ranks(ops.convert_to_tensor(y_true), ops.convert_to_tensor(y_pred))
    local vals = {}
    for i, a in ipairs(args) do vals[i] = self[a] end
    return fn(y_true, y_pred, table.unpack(vals, 1, #args))
  end
  return class
end

local function named(self, reduction, name, default_name)
  self.reduction = check_reduction(reduction)
  self.name = check.string(name, "tf.keras.losses", "name") or default_name
end

local REDUCTION_TEXT = " Called as loss(y_true, y_pred [, sample_weight]): the per-example losses "
  .. "weighted by sample_weight and reduced ('sum_over_batch_size' by default: their sum over their "
  .. "number; 'sum'; 'none')."

loss_class("MeanSquaredError", mean_squared_error, {}, "tf.keras.losses.MeanSquaredError([reduction] [, name])",
  "The mean squared error as a loss: mean((y_pred - y_true)²) per example." .. REDUCTION_TEXT,
  function(self, reduction, name) named(self, reduction, name, "mean_squared_error") end)
loss_class("MeanAbsoluteError", mean_absolute_error, {}, "tf.keras.losses.MeanAbsoluteError([reduction] [, name])",
  "The mean absolute error as a loss: mean(|y_pred - y_true|) per example." .. REDUCTION_TEXT,
  function(self, reduction, name) named(self, reduction, name, "mean_absolute_error") end)
loss_class("Huber", huber, { "delta" }, "tf.keras.losses.Huber([delta] [, reduction] [, name])",
  "The Huber loss: quadratic for errors up to delta (default 1.0), linear beyond." .. REDUCTION_TEXT,
  function(self, delta, reduction, name)
    if delta ~= nil and type(delta) ~= "number" then
      raise("TypeError", "tf.keras.losses.Huber: delta must be a number, got " .. tostring(delta), 3)
    end
    self.delta = delta or 1.0
    named(self, reduction, name, "huber_loss")
  end)
local function crossentropy_init(default_name)
  return function(self, from_logits, label_smoothing, axis, reduction, name)
    self.from_logits = from_logits or false
    self.label_smoothing = label_smoothing or 0.0
    self.axis = axis or -1
    named(self, reduction, name, default_name)
  end
end
loss_class("BinaryCrossentropy", binary_crossentropy, { "from_logits", "label_smoothing", "axis" },
  "tf.keras.losses.BinaryCrossentropy([from_logits] [, label_smoothing] [, axis] [, reduction] [, name])",
  "Binary cross-entropy between labels in [0, 1] and probabilities (or logits, from_logits = true), "
  .. "averaged over axis (default -1)." .. REDUCTION_TEXT,
  function(self, from_logits, label_smoothing, axis, reduction, name)
    crossentropy_init("binary_crossentropy")(self, from_logits, label_smoothing, axis, reduction, name)
  end)
loss_class("CategoricalCrossentropy", categorical_crossentropy, { "from_logits", "label_smoothing", "axis" },
  "tf.keras.losses.CategoricalCrossentropy([from_logits] [, label_smoothing] [, axis] [, reduction] [, name])",
  "Cross-entropy with one-hot labels (y_true and y_pred of the same shape)." .. REDUCTION_TEXT,
  function(self, from_logits, label_smoothing, axis, reduction, name)
    crossentropy_init("categorical_crossentropy")(self, from_logits, label_smoothing, axis, reduction, name)
  end)
loss_class("SparseCategoricalCrossentropy", sparse_categorical_crossentropy, { "from_logits" },
  "tf.keras.losses.SparseCategoricalCrossentropy([from_logits] [, reduction] [, name])",
  "Cross-entropy with integer class labels (shape (batch,) or (batch, 1))." .. REDUCTION_TEXT,
  function(self, from_logits, reduction, name)
    self.from_logits = from_logits or false
    named(self, reduction, name, "sparse_categorical_crossentropy")
  end)

-- get --------------------------------------------------------------------------------
-- The string names Keras's get accepts: functions by their names and
-- aliases, classes by theirs (an instance with the defaults).
local FUNCTION_NAMES = {
  mean_squared_error = "mean_squared_error", mse = "mean_squared_error", MSE = "mean_squared_error",
  mean_absolute_error = "mean_absolute_error", mae = "mean_absolute_error", MAE = "mean_absolute_error",
  huber = "huber", huber_loss = "huber", binary_crossentropy = "binary_crossentropy",
  categorical_crossentropy = "categorical_crossentropy",
  sparse_categorical_crossentropy = "sparse_categorical_crossentropy",
}
local CLASS_NAMES = {
  MeanSquaredError = true, MeanAbsoluteError = true, Huber = true, BinaryCrossentropy = true,
  CategoricalCrossentropy = true, SparseCategoricalCrossentropy = true,
}

losses.get = doc.def(function(identifier)
  if identifier == nil then return nil end
  if type(identifier) == "string" then
    if FUNCTION_NAMES[identifier] then return losses[FUNCTION_NAMES[identifier]] end
    if CLASS_NAMES[identifier] then return losses[identifier]() end
  elseif type(identifier) == "function" then
    return identifier
  elseif type(identifier) == "table" then
    local mt = getmetatable(identifier)
    if mt and mt.__call then return identifier end
  end
  if type(identifier) == "string" then
    raise("ValueError", ("Unknown loss function: '%s'. Please ensure you are using a "
      .. "`keras.utils.custom_object_scope` and that this object is included in the scope."):format(identifier), 2)
  end
  raise("ValueError", "Could not interpret loss function identifier: " .. tostring(identifier), 2)
end, "tf.keras.losses.get(identifier)",
"A loss from TF's string names: a function ('mse' / 'mean_squared_error', 'mae' / "
.. "'mean_absolute_error', 'huber', 'binary_crossentropy', 'categorical_crossentropy', "
.. "'sparse_categorical_crossentropy') or, for a class name ('MeanSquaredError', ...), an instance with "
.. "its defaults; a loss object or function is returned as it is, nil gives nil.")

losses.internal = { internal = true, weighted_loss = true, match_ranks = true }
losses.weighted_loss = weighted_loss
losses.match_ranks = match_ranks

return losses
