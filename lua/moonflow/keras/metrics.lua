-- metrics.lua (moonflow.keras.metrics) — tf.keras.metrics: stateful
-- metrics (update_state(y_true, y_pred [, sample_weight]), result(),
-- reset_state()) whose state lives in non-trainable variables made when
-- the metric is, so a metric updated inside a tf.func keeps its state
-- between calls and traces, as Keras's metrics do; the metric functions
-- (one value per example); and `get`, which model.compile uses.
-- Formulas and variable names are Keras's (keras/metrics/*.py, TF 2.15).

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local doc = require("moonflow.doc")
local options = require("moonflow.options")
local dtypes = require("moonflow.tensor.dtypes")
local ops = require("moonflow.ops")
local variables = require("moonflow.tensor.variable")
local modules = require("moonflow.keras.module")
local losses = require("moonflow.keras.losses")
local check = require("moonflow.keras.check")
local raise = errors.raise

local metrics = {}
local F32 = dtypes.float32

local function rank(t) return #t.shape:as_list() end

local function as_float(x)
  x = ops.convert_to_tensor(x)
  if core.dtype(x) ~= F32 then x = ops.cast(x, F32) end
  return x
end

-- Metric functions ------------------------------------------------------------------
local function shape_text(t)
  local dims = t.shape:as_list()
  local parts = {}
  for i, d in ipairs(dims) do parts[i] = tostring(d) end
  if #parts == 1 then return "(" .. parts[1] .. ",)" end
  return "(" .. table.concat(parts, ", ") .. ")"
end

local function check_compatible(a, b)
  local da, db = a.shape:as_list(), b.shape:as_list()
  local ok = #da == #db
  for i = 1, ok and #da or 0 do
    if da[i] >= 0 and db[i] >= 0 and da[i] ~= db[i] then ok = false end
  end
  if not ok then
    raise("ValueError", ("Shapes %s and %s are incompatible"):format(shape_text(a), shape_text(b)), 4)
  end
end

local function accuracy(y_true, y_pred)
  y_true, y_pred = ops.convert_to_tensor(y_true), ops.convert_to_tensor(y_pred)
  check_compatible(y_true, y_pred)
  if core.dtype(y_true) ~= core.dtype(y_pred) then y_pred = ops.cast(y_pred, core.dtype(y_true)) end
  return ops.cast(ops.equal(y_true, y_pred), F32)
end

local function binary_accuracy(y_true, y_pred, threshold)
  y_pred = ops.convert_to_tensor(y_pred)
  local dt = core.dtype(y_pred)
  y_pred = ops.cast(ops.greater(y_pred, ops.constant(threshold or 0.5, dt)), dt)
  y_true = ops.convert_to_tensor(y_true)
  if core.dtype(y_true) ~= dt then y_true = ops.cast(y_true, dt) end
  return ops.reduce_mean(ops.cast(ops.equal(y_true, y_pred), F32), -1)
end

-- Keras's metrics_utils.sparse_categorical_matches: labels of the
-- predictions' rank lose their trailing 1; matches are argmax == label.
local function sparse_categorical_matches(y_true, y_pred)
  y_true, y_pred = ops.convert_to_tensor(y_true), ops.convert_to_tensor(y_pred)
  if rank(y_true) == rank(y_pred) and y_true.shape:as_list()[rank(y_true)] == 1 then
    y_true = ops.squeeze(y_true, { -1 })
  end
  local predicted = ops.argmax(y_pred, -1)
  if core.dtype(predicted) ~= core.dtype(y_true) then predicted = ops.cast(predicted, core.dtype(y_true)) end
  return ops.cast(ops.equal(y_true, predicted), F32)
end

local function categorical_accuracy(y_true, y_pred)
  return sparse_categorical_matches(ops.argmax(ops.convert_to_tensor(y_true), -1), y_pred)
end

metrics.accuracy = options.def(function(y_true, y_pred) return accuracy(y_true, y_pred) end,
  "tf.keras.metrics.accuracy(y_true, y_pred)", "1.0 where y_pred equals y_true, else 0.0, elementwise.",
  { positional = { "y_true", "y_pred" } })
metrics.binary_accuracy = options.def(function(y_true, y_pred, threshold)
  return binary_accuracy(y_true, y_pred, threshold)
end, "tf.keras.metrics.binary_accuracy(y_true, y_pred [, threshold])",
"The fraction of the last axis where (y_pred > threshold) equals y_true (threshold 0.5), per example.",
{ positional = { "y_true", "y_pred", "threshold" } })
metrics.categorical_accuracy = options.def(function(y_true, y_pred) return categorical_accuracy(y_true, y_pred) end,
  "tf.keras.metrics.categorical_accuracy(y_true, y_pred)",
  "1.0 where argmax(y_pred) is argmax(y_true) (one-hot labels), per example.", { positional = { "y_true", "y_pred" } })
metrics.sparse_categorical_accuracy = options.def(function(y_true, y_pred)
  return sparse_categorical_matches(y_true, y_pred)
end, "tf.keras.metrics.sparse_categorical_accuracy(y_true, y_pred)",
"1.0 where argmax(y_pred) equals the integer label, per example.", { positional = { "y_true", "y_pred" } })
metrics.mean_squared_error = losses.mean_squared_error
metrics.mean_absolute_error = losses.mean_absolute_error
metrics.mse, metrics.mae = losses.mse, losses.mae
metrics.binary_crossentropy = losses.binary_crossentropy
metrics.categorical_crossentropy = losses.categorical_crossentropy
metrics.sparse_categorical_crossentropy = losses.sparse_categorical_crossentropy

-- sample_weight given positionally or as {sample_weight = ...}.
local function weight_option(w)
  if type(w) == "table" and getmetatable(w) == nil and w[1] == nil and w.sample_weight ~= nil then
    return w.sample_weight
  end
  return w
end

-- Metric classes ---------------------------------------------------------------------------
local function state_variable(metric, name, shape)
  local v = variables.Variable(function() return ops.zeros(shape or {}, F32) end,
    { name = name, trainable = false })
  local made = rawget(metric, "_weights") or {}
  made[#made + 1] = v
  metric._weights = made
  return v
end

local Metric = modules.Module:extend("Metric")
metrics.Metric = Metric
doc.def(Metric, "tf.keras.metrics.Metric",
  "The base of the metrics: metric:update_state(...) accumulates into the metric's variables, "
  .. "metric:result() is the value so far, metric:reset_state() starts again; metric(...) updates and "
  .. "returns the result.")
local function metric_call(self, ...)
  self:update_state(...)
  return self:result()
end
local reset_state = doc.def(function(self)
  for _, v in ipairs(rawget(self, "_weights") or {}) do
    v:assign(ops.zeros(v.shape:as_list(), v.dtype))
  end
end, "metric:reset_state()", "Sets the metric's state variables back to zero.")

-- Keras's Metric is abstract: a subclass gives update_state and result.
Metric.init = function(self)
  if getmetatable(self) == Metric then
    raise("TypeError", "Can't instantiate abstract class Metric with abstract methods result, update_state", 3)
  end
end

-- The shared methods are set on each class (a call with `.` names its kind).
local function metric_class(name, parent)
  local class = (parent or Metric):extend(name)
  metrics[name] = class
  class.__call = nil -- extend copied the parent's: unset, so the class's guard wraps its own
  class.__call = metric_call
  class.reset_state = reset_state
  class.reset_states = reset_state
  return class
end

-- Mean: total and count, a weighted mean of everything it was given.
local function mean_init(self, name, default_name)
  self.name = check.string(name, "tf.keras.metrics", "name") or default_name
  self.total = state_variable(self, "total")
  self.count = state_variable(self, "count")
end

-- Keras's Reduce.update_state with WEIGHTED_MEAN: the weights match the
-- values' rank (squeezed or broadcast), total += sum(values * w),
-- count += sum(w) (the number of values when there are no weights).
local function accumulate(self, values, sample_weight)
  values = as_float(values)
  local count
  if sample_weight ~= nil then
    local w = as_float(sample_weight)
    local vr, wr = rank(values), rank(w)
    if wr - vr == 1 and w.shape:as_list()[wr] == 1 then w = ops.squeeze(w, { -1 })
    elseif vr - wr == 1 then w = ops.expand_dims(w, -1) end
    w = ops.broadcast_to(w, ops.shape(values))
    values = values * w
    count = ops.reduce_sum(w)
  else
    count = ops.cast(ops.size(values), F32)
  end
  self.total:assign_add(ops.reduce_sum(values))
  self.count:assign_add(count)
end

local function mean_result(self)
  return ops.math.divide_no_nan(self.total:read_value(), self.count:read_value())
end

local Mean = metric_class("Mean")
options.init(Mean, "tf.keras.metrics.Mean([name])",
  "The (weighted) mean of the values given to update_state(values [, sample_weight]); state: the "
  .. "variables total and count.", { positional = { "name" } }, function(self, name)
  mean_init(self, name, "mean")
end)
Mean.update_state = doc.def(function(self, values, sample_weight)
  accumulate(self, values, sample_weight)
end, "mean:update_state(values [, sample_weight])", "Adds the values (weighted) to the running mean.")
mean_result = doc.def(mean_result, "metric:result()", "The metric's value so far (0 before any update).")
Mean.result = mean_result

-- A mean of a per-example function of (y_true, y_pred): Keras's MeanMetricWrapper.
local MeanMetricWrapper = metric_class("MeanMetricWrapper")
options.init(MeanMetricWrapper, "tf.keras.metrics.MeanMetricWrapper(fn [, name])",
  "A metric that averages fn(y_true, y_pred) (a per-example function such as "
  .. "tf.keras.metrics.binary_accuracy) over everything given to update_state(y_true, y_pred [, "
  .. "sample_weight]).", { required = 1, positional = { "name" } }, function(self, fn, name)
  if type(fn) ~= "function" then
    raise("TypeError", "tf.keras.metrics.MeanMetricWrapper: fn must be a function, got " .. tostring(fn), 3)
  end
  self._fn = fn
  mean_init(self, name, "mean_metric_wrapper")
end)
MeanMetricWrapper.update_state = doc.def(function(self, y_true, y_pred, sample_weight)
  sample_weight = weight_option(sample_weight)
  -- Keras's MeanMetricWrapper casts both to the metric's dtype (float32).
  y_true, y_pred = losses.match_ranks(as_float(y_true), as_float(y_pred))
  accumulate(self, self._fn(y_true, y_pred), sample_weight)
end, "metric:update_state(y_true, y_pred [, sample_weight])",
"Adds the metric's per-example values for this batch (weighted) to its running mean.")
MeanMetricWrapper.result = mean_result

local function wrapper_class(class_name, fn, default_name, text)
  local class = metric_class(class_name, MeanMetricWrapper)
  class.update_state = MeanMetricWrapper.update_state
  class.result = mean_result
  options.init(class, ("tf.keras.metrics.%s([name])"):format(class_name), text, { positional = { "name" } },
    function(self, name)
      self._fn = fn
      mean_init(self, name, default_name)
    end)
  return class
end
wrapper_class("Accuracy", accuracy, "accuracy", "How often predictions equal labels (elementwise).")
wrapper_class("CategoricalAccuracy", categorical_accuracy, "categorical_accuracy",
  "How often argmax(y_pred) matches the one-hot label's argmax.")
wrapper_class("SparseCategoricalAccuracy", sparse_categorical_matches, "sparse_categorical_accuracy",
  "How often argmax(y_pred) matches the integer label.")
wrapper_class("MeanSquaredError", metrics.mean_squared_error, "mean_squared_error",
  "The mean of the per-example mean squared errors.")
wrapper_class("MeanAbsoluteError", metrics.mean_absolute_error, "mean_absolute_error",
  "The mean of the per-example mean absolute errors.")

local BinaryAccuracy = metric_class("BinaryAccuracy", MeanMetricWrapper)
BinaryAccuracy.update_state = MeanMetricWrapper.update_state
BinaryAccuracy.result = mean_result
options.init(BinaryAccuracy, "tf.keras.metrics.BinaryAccuracy([name] [, dtype] [, threshold])",
  "How often (y_pred > threshold) equals the binary label (threshold 0.5).",
  { positional = { "name", "dtype", "threshold" } }, function(self, name, _, threshold)
  self.threshold = check.number(threshold, "tf.keras.metrics.BinaryAccuracy", "threshold") or 0.5
  self._fn = function(y_true, y_pred) return binary_accuracy(y_true, y_pred, self.threshold) end
  mean_init(self, name, "binary_accuracy")
end)

-- AUC ----------------------------------------------------------------------------------------
-- Keras's AUC (curve 'ROC', summation 'interpolation'): a confusion
-- matrix at num_thresholds thresholds in [0, 1] (plus -1e-7 and 1 + 1e-7 at
-- the ends), accumulated in variables; the result is the trapezoid sum of
-- the true-positive rate over the false-positive rate.
local AUC = metric_class("AUC")
options.init(AUC, "tf.keras.metrics.AUC([num_thresholds] [, {name=}])",
  "The area under the ROC curve, approximated as Keras does: true/false positives and negatives at "
  .. "num_thresholds (default 200) evenly spaced thresholds, accumulated over update_state(y_true, y_pred "
  .. "[, sample_weight]) calls (labels 0 or 1, predictions probabilities), summed with the trapezoid rule.",
  { positional = { "num_thresholds" }, "name" }, function(self, num_thresholds, opts)
  num_thresholds = num_thresholds or 200
  if math.type(num_thresholds) ~= "integer" or num_thresholds <= 1 then
    raise("ValueError", ("Argument `num_thresholds` must be an integer > 1. Received: num_thresholds=%s")
      :format(tostring(num_thresholds)), 3)
  end
  self.num_thresholds = num_thresholds
  local t = { -1e-7 }
  for i = 1, num_thresholds - 2 do t[#t + 1] = i / (num_thresholds - 1) end
  t[#t + 1] = 1 + 1e-7
  self.thresholds = t
  self.name = opts.name or "auc"
  self.true_positives = state_variable(self, "true_positives", { num_thresholds })
  self.true_negatives = state_variable(self, "true_negatives", { num_thresholds })
  self.false_positives = state_variable(self, "false_positives", { num_thresholds })
  self.false_negatives = state_variable(self, "false_negatives", { num_thresholds })
end)
AUC.update_state = doc.def(function(self, y_true, y_pred, sample_weight)
  sample_weight = weight_option(sample_weight)
  local pred = ops.reshape(as_float(y_pred), { 1, -1 })
  local label = ops.reshape(ops.cast(ops.convert_to_tensor(y_true), dtypes.bool), { 1, -1 })
  local w = sample_weight ~= nil
    and ops.reshape(ops.broadcast_to(as_float(sample_weight), ops.shape(ops.convert_to_tensor(y_pred))), { 1, -1 })
    or ops.ones_like(pred)
  local thresholds = ops.reshape(ops.constant(self.thresholds, F32), { -1, 1 })
  local above = ops.greater(pred, thresholds) -- (thresholds, examples)
  local pos, neg = ops.cast(label, F32), ops.cast(ops.logical_not(label), F32)
  local up, down = ops.cast(above, F32), ops.cast(ops.logical_not(above), F32)
  local function count(a, b) return ops.reduce_sum(a * b * w, 1) end
  self.true_positives:assign_add(count(up, pos))
  self.false_positives:assign_add(count(up, neg))
  self.true_negatives:assign_add(count(down, neg))
  self.false_negatives:assign_add(count(down, pos))
end, "auc:update_state(y_true, y_pred [, sample_weight])", "Adds this batch to the confusion matrices.")
AUC.result = doc.def(function(self)
  local n = self.num_thresholds
  local tp, fp = self.true_positives:read_value(), self.false_positives:read_value()
  local tn, fn = self.true_negatives:read_value(), self.false_negatives:read_value()
  local recall = ops.math.divide_no_nan(tp, tp + fn)
  local fp_rate = ops.math.divide_no_nan(fp, fp + tn)
  local head, tail = { 0 }, { 1 }
  local function lo(t) return ops.slice(t, head, { n - 1 }) end
  local function hi(t) return ops.slice(t, tail, { n - 1 }) end
  local heights = (lo(recall) + hi(recall)) / 2
  return ops.reduce_sum((lo(fp_rate) - hi(fp_rate)) * heights)
end, "auc:result()", "The area under the ROC curve so far.")

-- get ------------------------------------------------------------------------------------------
local FUNCTION_NAMES = {
  accuracy = "accuracy", acc = "accuracy", binary_accuracy = "binary_accuracy",
  categorical_accuracy = "categorical_accuracy", sparse_categorical_accuracy = "sparse_categorical_accuracy",
  mse = "mean_squared_error", mean_squared_error = "mean_squared_error", mae = "mean_absolute_error",
  mean_absolute_error = "mean_absolute_error", binary_crossentropy = "binary_crossentropy",
  categorical_crossentropy = "categorical_crossentropy",
  sparse_categorical_crossentropy = "sparse_categorical_crossentropy",
}
local CLASS_NAMES = {
  Accuracy = true, BinaryAccuracy = true, CategoricalAccuracy = true, SparseCategoricalAccuracy = true,
  Mean = true, MeanSquaredError = true, MeanAbsoluteError = true, AUC = true,
}

local function is_metric(x)
  local mt = getmetatable(x)
  while type(mt) == "table" do
    if mt == Metric then return true end
    mt = rawget(mt, "_parent")
  end
  return false
end

metrics.get = doc.def(function(identifier)
  if type(identifier) == "string" then
    if FUNCTION_NAMES[identifier] then return metrics[FUNCTION_NAMES[identifier]] end
    if CLASS_NAMES[identifier] then return metrics[identifier]() end
  elseif type(identifier) == "function" or is_metric(identifier) then
    return identifier
  end
  if type(identifier) == "string" then
    raise("ValueError", ("Unknown metric function: '%s'. Please ensure you are using a "
      .. "`keras.utils.custom_object_scope` and that this object is included in the scope."):format(identifier), 2)
  end
  raise("ValueError", "Could not interpret metric identifier: " .. tostring(identifier), 2)
end, "tf.keras.metrics.get(identifier)",
"A metric from TF's string names: a per-example function ('accuracy' / 'acc', 'binary_accuracy', "
.. "'categorical_accuracy', 'sparse_categorical_accuracy', 'mse', 'mae', the cross-entropies) or, for a "
.. "class name ('Accuracy', 'AUC', ...), an instance; a metric object or function is returned as it is. "
.. "tf.keras.metrics.MeanMetricWrapper(fn, name) makes a stateful metric of a function.")

return metrics
