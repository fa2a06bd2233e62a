-- training.lua — Model:compile, fit, evaluate, predict, train_on_batch,
-- test_on_batch, save_weights/load_weights. As in Keras, fit runs
-- model:train_step(data) for each batch through model.train_function, a
-- tf.func (one trace per input signature: %trace, %sig and %graph show
-- it), or plainly when compile's run_eagerly is true. A subclass may
-- override train_step (Keras's "customizing what happens in fit").
-- Losses and metrics are running means over the epoch, kept in
-- variables the step updates (Keras's Mean metrics), so the progress line
-- shows the same numbers Keras shows.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local doc = require("moonflow.doc")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local ops = require("moonflow.ops")
local variables = require("moonflow.tensor.variable")
local func = require("moonflow.trace.func")
local tapes = require("moonflow.grad.tape")
local data = require("moonflow.data")
local callbacks = require("moonflow.keras.callbacks")
local progbar = require("moonflow.keras.progbar")
local keras = require("moonflow.keras")
local argcheck = require("moonflow.argcheck")
local saved_model = require("moonflow.io.saved_model")
local saved_functions = require("moonflow.io.functions")
local raise = errors.raise

-- The methods model.lua gives tf.keras.Model.
local T = { methods = {} }
local Model = T.methods

local function is_plain(v) return type(v) == "table" and getmetatable(v) == nil end

-- Metrics: keras/metrics.lua's Mean, fed fn(y, y_pred) where compile picks
-- a per-example function (its "accuracy" variant, a metric function by name).
local function new_mean(name, fn)
  local m = keras.metrics.Mean(name)
  m.fn = fn
  return m
end

local function rank(t) return #t.shape:as_list() end
local function last(t) local d = t.shape:as_list(); return d[#d] end

-- Keras's "accuracy": binary, sparse categorical or categorical, chosen by
-- the loss or, failing that, the shapes (compile_utils.py's get_metric_function).
local function accuracy_fn(loss_name)
  return function(y_true, y_pred)
    y_true = ops.convert_to_tensor(y_true)
    local kind = loss_name == "sparse_categorical_crossentropy" and "sparse"
      or loss_name == "categorical_crossentropy" and "categorical"
      or loss_name == "binary_crossentropy" and "binary"
    if not kind then
      if last(y_pred) == 1 then kind = "binary"
      elseif rank(y_true) < rank(y_pred) or last(y_true) == 1 then kind = "sparse"
      else kind = "categorical" end
    end
    if kind == "binary" then
      local p = ops.cast(ops.greater(y_pred, 0.5), dtypes.float32)
      return ops.cast(ops.equal(p, ops.cast(y_true, dtypes.float32)), dtypes.float32)
    end
    local pred = ops.argmax(y_pred, -1)
    local truth
    if kind == "sparse" then
      truth = y_true
      if rank(truth) == rank(y_pred) then truth = ops.squeeze(truth, { -1 }) end
      truth = ops.cast(truth, dtypes.int64)
    else
      truth = ops.argmax(y_true, -1)
    end
    return ops.cast(ops.equal(ops.cast(pred, dtypes.int64), truth), dtypes.float32)
  end
end

-- Losses and optimizers by name: keras/losses.lua's and optimizers.lua's get.
local function get_loss(loss)
  return keras.losses.get(loss), type(loss) == "string" and loss or nil
end

local function get_optimizer(opt)
  return keras.optimizers.get(opt)
end

-- Keras's check of labels against predictions before the loss: the
-- messages TF's ops give (nn_ops.py's sparse check, shape compatibility).
local function check_shapes(loss_name, y_true, y_pred)
  local t, p = y_true.shape:as_list(), y_pred.shape:as_list()
  if loss_name == "sparse_categorical_crossentropy" then
    local ok = (#t == #p - 1) or (#t == #p and t[#t] == 1)
    for i = 1, #p - 1 do
      if ok and t[i] ~= nil and t[i] ~= shapes.None and p[i] ~= shapes.None and t[i] ~= p[i] then ok = false end
    end
    if not ok then
      raise("ValueError", ("`labels.shape` must equal `logits.shape` except for the last dimension. "
        .. "Received: labels.shape=%s and logits.shape=%s"):format(tostring(y_true.shape), tostring(y_pred.shape)), 5)
    end
  elseif loss_name == "categorical_crossentropy" or loss_name == "binary_crossentropy" then
    local ok = #t == #p
    for i = 1, ok and #p or 0 do
      if t[i] ~= shapes.None and p[i] ~= shapes.None and t[i] ~= p[i] then ok = false end
    end
    if not ok then
      raise("ValueError", ("Shapes %s and %s are incompatible"):format(tostring(y_true.shape), tostring(y_pred.shape)), 5)
    end
  end
end

-- compile -------------------------------------------------------------------
Model.compile = doc.def(function(self, opts)
  if not is_plain(opts) then
    raise("TypeError", "model:compile takes a table of options {optimizer=, loss=, metrics=, run_eagerly=}", 2)
  end
  for k in pairs(opts) do
    if k ~= "optimizer" and k ~= "loss" and k ~= "metrics" and k ~= "run_eagerly" then
      raise("TypeError", ("Invalid keyword argument(s) in `compile()`: ({'%s'},). Valid keyword arguments "
        .. "include \"cloning\", \"experimental_run_tf_function\", \"distribute\", \"target_tensors\", "
        .. "or \"sample_weight_mode\"."):format(tostring(k)), 2)
    end
  end
  self.optimizer = get_optimizer(opts.optimizer or "rmsprop")
  local loss_fn, loss_name = get_loss(opts.loss)
  self.loss = opts.loss
  self._loss_fn, self._loss_name = loss_fn, loss_name
  -- Held in a table with a metatable: the model's variables (and
  -- save_weights) leave compile's metric state out, as Keras's do.
  self._trackers = setmetatable({ loss = new_mean("loss") }, { __name = "metric trackers" })
  local metrics = setmetatable({}, { __name = "metrics" })
  for i, m in ipairs(opts.metrics or {}) do
    if m == "accuracy" or m == "acc" then
      metrics[i] = new_mean("accuracy", accuracy_fn(loss_name))
    elseif type(m) == "string" or type(m) == "function" then
      local got = keras.metrics.get(m)
      metrics[i] = type(got) == "function" and new_mean(type(m) == "string" and m or "mean", got) or got
    elseif type(m) == "table" and m.update_state and m.result then
      metrics[i] = m
    else
      raise("ValueError", "Could not interpret metric identifier: " .. tostring(m), 2)
    end
  end
  self._metrics = metrics
  self.run_eagerly = opts.run_eagerly == true
  self.train_function, self.test_function, self.predict_function = nil, nil, nil
  self._compiled = true
end, "model:compile{optimizer=, loss=, metrics=, run_eagerly=}",
"Configures training: optimizer (an object or 'sgd', 'adam', 'rmsprop', ...), loss (a function "
.. "(y_true, y_pred), a loss object or 'mse', 'sparse_categorical_crossentropy', ...), metrics "
.. "({'accuracy'}, ...), run_eagerly (true: train_step runs eagerly instead of as a tf.func).")

local function require_compiled(self, level)
  if not rawget(self, "_compiled") then
    raise("RuntimeError", "You must compile your model before training/testing. Use "
      .. "`model.compile(optimizer, loss)`.", (level or 2) + 1)
  end
end

--- model:compute_loss(x, y, y_pred): the compiled loss (Keras's compute_loss).
local function check_prediction(y_pred, what)
  if not (core.is_tensor(y_pred) or variables.is_variable(y_pred)) then
    raise("TypeError", ("%s: y_pred must be a tensor (the model's output), got a %s"):format(what, type(y_pred)), 3)
  end
end

Model.compute_loss = doc.def(function(self, _, y, y_pred)
  require_compiled(self, 2)
  check_prediction(y_pred, "model:compute_loss")
  y = ops.convert_to_tensor(y)
  if self._loss_name then check_shapes(self._loss_name, y, y_pred) end
  local loss = self._loss_fn(y, y_pred)
  -- A per-example loss function (tf.keras.losses.get's, or the user's) is
  -- averaged over the batch, as Keras's compiled loss does (SUM_OVER_BATCH_SIZE).
  if (core.is_tensor(loss) or variables.is_variable(loss)) and #loss.shape:as_list() > 0 then
    loss = ops.reduce_mean(loss)
  end
  local extra = rawget(self, "_extra_losses")
  for _, l in ipairs(extra or {}) do loss = loss + l end
  return loss
end, "model:compute_loss(x, y, y_pred)", "The compiled loss of predictions y_pred against labels y.")

--- model:compute_metrics(x, y, y_pred): updates the metrics, returns their results.
Model.compute_metrics = doc.def(function(self, _, y, y_pred, loss)
  require_compiled(self, 2)
  check_prediction(y_pred, "model:compute_metrics")
  y = ops.convert_to_tensor(y)
  local logs = {}
  if loss ~= nil then
    local batch = ops.cast(ops.shape(y_pred)[0], dtypes.float32)
    self._trackers.loss:update_state(loss, batch)
    logs.loss = self._trackers.loss:result()
  end
  for _, m in ipairs(self._metrics) do
    if m.fn then m:update_state(m.fn(y, y_pred)) else m:update_state(y, y_pred) end
    logs[m.name] = m:result()
  end
  return logs
end, "model:compute_metrics(x, y, y_pred [, loss])",
"Updates the compiled metrics (and the loss's running mean) with one batch; returns their results by name.")

--- model:get_metrics(): the compiled metrics, the loss's mean first (Keras's model.metrics).
Model.get_metrics = doc.def(function(self)
  -- Before compile there are none (Keras's model.metrics is []).
  if rawget(self, "_trackers") == nil then return {} end
  local out = { self._trackers.loss }
  for _, m in ipairs(self._metrics or {}) do out[#out + 1] = m end
  return out
end, "model:get_metrics()", "The model's metrics: the loss's running mean, then the compiled ones.")

local function log_order(self)
  local order = { "loss" }
  for _, m in ipairs(self._metrics or {}) do order[#order + 1] = m.name end
  local n = #order
  for i = 1, n do order[n + i] = "val_" .. order[i] end
  return order
end

local function reset_metrics(self)
  for _, m in ipairs(self:get_metrics()) do m:reset_state() end
end

local function split(data)
  if is_plain(data) then return data[1], data[2] end
  return data, nil
end

Model.train_step = doc.def(function(self, data)
  local x, y = split(data)
  local tape <close> = tapes.GradientTape()
  local y_pred = self(x, { training = true })
  local loss = self:compute_loss(x, y, y_pred)
  tape:stop()
  local vars = self:trainable_variables()
  local grads = tape:gradient(loss, vars)
  local gv = {}
  for i, v in ipairs(vars) do gv[i] = { grads[i], v } end
  self.optimizer:apply_gradients(gv)
  return self:compute_metrics(x, y, y_pred, loss)
end, "model:train_step(data)",
"One training step on data = {x, y}: forward pass under a tape, the compiled loss, the optimizer's "
.. "update, the metrics; returns the logs {loss=, accuracy=, ...}. Override it in a subclass to customize fit.")

Model.test_step = doc.def(function(self, data)
  local x, y = split(data)
  local y_pred = self(x, { training = false })
  local loss = self:compute_loss(x, y, y_pred)
  return self:compute_metrics(x, y, y_pred, loss)
end, "model:test_step(data)", "One evaluation step on data = {x, y}: the loss and metrics, no update.")

Model.predict_step = doc.def(function(self, data)
  local x = split(data)
  return self(x, { training = false })
end, "model:predict_step(data)", "One prediction step: the model's output on a batch.")

-- The step functions: tf.funcs (one trace per input signature) unless
-- run_eagerly.
local function step_function(self, field, method)
  local f = rawget(self, field)
  if f then return f end
  -- Several inputs (a list) are wrapped so that the step's split does
  -- not take the second input for y.
  local step = function(x, y)
    if y == nil and is_plain(x) then return self[method](self, { x }) end
    return self[method](self, y == nil and x or { x, y })
  end
  if self.run_eagerly then
    f = step
  else
    -- Keras's make_train_function: reduce_retracing, so a last short
    -- batch generalizes the trace instead of adding one per shape.
    f = func.func(step, { name = field, reduce_retracing = true })
  end
  rawset(self, field, f)
  return f
end

local function numbers(logs)
  local out = {}
  for k, v in pairs(logs) do
    out[k] = (core.is_tensor(v) or variables.is_variable(v)) and v:numpy() or v
  end
  return out
end

-- Batches ------------------------------------------------------------------
local function is_dataset(x) return data.is_dataset(x) end

-- The rows of the data: its first dimension, known.
-- Several inputs: a list of tensors, or a table of them keyed by the
-- Inputs' names (its first key in order stands for all).
local function first_of(t)
  if t[1] ~= nil then return t[1] end
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = tostring(k) end
  table.sort(keys)
  return t[keys[1]]
end

local function rows(t)
  if is_plain(t) then t = first_of(t) end
  local dims = t.shape:as_list()
  if #dims == 0 or dims[1] == nil or dims[1] == shapes.None then
    raise("ValueError", ("Expected the data to have a known first (batch) dimension, got shape %s")
      :format(tostring(t.shape)), 4)
  end
  return dims[1]
end

local function slice(t, idx, a, b)
  if is_plain(t) then
    local out = {}
    for k, v in pairs(t) do out[k] = slice(v, idx, a, b) end
    return out
  end
  if idx then return ops.gather(t, idx[("%d:%d"):format(a, b)]) end
  return t[("%d:%d"):format(a, b)]
end

-- The batches of an epoch: {x, y} pairs, from a dataset or from tensors.
local function batches(x, y, batch_size, shuffle)
  if is_dataset(x) then
    local list = {}
    for bx, by in x do list[#list + 1] = { bx, by } end
    return list
  end
  local n = rows(x)
  local idx = shuffle and ops.argsort(ops.random.uniform({ n })) or nil
  local list = {}
  for a = 0, n - 1, batch_size do
    local b = math.min(a + batch_size, n)
    list[#list + 1] = { slice(x, idx, a, b), y ~= nil and slice(y, idx, a, b) or nil }
  end
  return list
end

local function as_tensor(v)
  if v == nil or is_dataset(v) then return v end
  if core.is_tensor(v) then return v end
  local one = is_plain(v) and first_of(v)
  if one ~= nil and (core.is_tensor(one) or variables.is_variable(one)) then
    -- Several inputs (a multi-input model's): tensors of as many rows.
    local out = {}
    local first = ops.convert_to_tensor(one).shape:as_list()[1]
    for k, t in pairs(v) do
      out[k] = ops.convert_to_tensor(t)
      local n = out[k].shape:as_list()[1]
      if n ~= first then
        raise("ValueError", ("Data cardinality is ambiguous: x sizes: %s, %s. Make sure all arrays contain "
          .. "the same number of samples."):format(tostring(first), tostring(n)), 4)
      end
    end
    return out
  end
  if type(v) ~= "table" and type(v) ~= "number" and type(v) ~= "boolean" then
    raise("TypeError", "Unexpected value for the data: a " .. type(v) .. ". Expected tensors or a tf.data.Dataset.", 4)
  end
  return ops.convert_to_tensor(v)
end

-- Keras's checks of the counts fit, evaluate and predict take.
local function check_count(v, name, min, default)
  if v == nil then return default end
  if math.type(v) ~= "integer" or v < min then
    raise("ValueError", ("Argument `%s` must be an integer >= %d. Received: %s=%s"):format(name, min, name,
      tostring(v)), 4)
  end
  return v
end
local function check_verbose(v)
  if v == nil or v == "auto" then return 1 end
  if v ~= 0 and v ~= 1 and v ~= 2 then
    raise("ValueError", "Argument `verbose` must be 0, 1, 2 or 'auto'. Received: verbose=" .. tostring(v), 4)
  end
  return v
end

local FIT_OPTIONS = { epochs = true, batch_size = true, validation_data = true, validation_split = true,
  shuffle = true, callbacks = true, verbose = true, initial_epoch = true, steps_per_epoch = true }

local function fit_args(x, y, opts, what, allowed)
  if is_dataset(x) and opts == nil and is_plain(y) then y, opts = nil, y end
  if opts == nil and is_plain(y) and y[1] == nil and next(y) ~= nil then
    local any = false
    for k in pairs(y) do if allowed[k] then any = true end end
    if any then y, opts = nil, y end
  end
  opts = opts or {}
  if not is_plain(opts) then
    raise("TypeError", ("%s: the options must be a table, got a %s"):format(what, type(opts)), 4)
  end
  for k in pairs(opts) do
    if not allowed[k] then
      raise("TypeError", ("%s() got an unexpected keyword argument '%s'"):format(what, tostring(k)), 4)
    end
  end
  if x == nil then raise("ValueError", "Unexpected value for `x`: nil. Expected tensors or a tf.data.Dataset.", 4) end
  if is_dataset(x) and y ~= nil then
    raise("ValueError", "`y` argument is not supported when using dataset as input.", 4)
  end
  return as_tensor(x), as_tensor(y), opts
end

local function evaluate_batches(self, list)
  reset_metrics(self)
  local fn = step_function(self, "test_function", "test_step")
  local logs = {}
  for _, b in ipairs(list) do logs = fn(b[1], b[2]) end
  return numbers(logs)
end

Model.fit = doc.def(function(self, x, y, opts)
  require_compiled(self)
  x, y, opts = fit_args(x, y, opts, "fit", FIT_OPTIONS)
  local epochs = check_count(opts.epochs, "epochs", 0, 1)
  local batch_size = check_count(opts.batch_size, "batch_size", 1, 32)
  local verbose = check_verbose(opts.verbose)
  if opts.validation_split ~= nil and (type(opts.validation_split) ~= "number" or opts.validation_split < 0
    or opts.validation_split >= 1) then
    raise("ValueError", "`validation_split` must be a float between 0 and 1. Received: " .. tostring(opts.validation_split), 2)
  end
  if y == nil and not is_dataset(x) then
    raise("ValueError", "Target data is missing. Your model has a loss: pass y (labels) to fit, or a dataset of (x, y).", 2)
  end
  local shuffle = opts.shuffle ~= false
  local val = opts.validation_data
  if opts.validation_split and not is_dataset(x) then
    local n = rows(x)
    local split_at = math.floor(n * (1 - opts.validation_split))
    val = { slice(x, nil, split_at, n), slice(y, nil, split_at, n) }
    x, y = slice(x, nil, 0, split_at), slice(y, nil, 0, split_at)
  elseif opts.validation_split then
    raise("ValueError", "`validation_split` is only supported for Tensors or NumPy arrays, found following "
      .. "types in the input: [Dataset]", 2)
  end
  local history = callbacks.History()
  local list = callbacks.CallbackList(opts.callbacks or {}, history, self)
  self.stop_training = false
  local train_fn = step_function(self, "train_function", "train_step")
  list:call("on_train_begin", {})
  for epoch = opts.initial_epoch or 0, epochs - 1 do
    reset_metrics(self)
    list:call("on_epoch_begin", epoch, {})
    local bs = batches(x, y, batch_size, shuffle and not is_dataset(x))
    local bar = progbar.new(#bs, verbose, epoch + 1, epochs, log_order(self))
    local logs = {}
    for i, b in ipairs(bs) do
      list:call("on_train_batch_begin", i - 1, {})
      logs = numbers(train_fn(b[1], b[2]))
      list:call("on_train_batch_end", i - 1, logs)
      bar:update(i, logs)
      if self.stop_training then break end
    end
    if val then
      local vx, vy = val, nil
      if not is_dataset(val) then vx, vy = as_tensor(val[1]), as_tensor(val[2]) end
      local vlogs = evaluate_batches(self, batches(vx, vy, batch_size, false))
      for k, v in pairs(vlogs) do logs["val_" .. k] = v end
    end
    bar:finish(logs)
    list:call("on_epoch_end", epoch, logs)
    if self.stop_training then break end
  end
  list:call("on_train_end", {})
  return history
end, "model:fit(x, y [, {epochs=, batch_size=, validation_data=, validation_split=, shuffle=, callbacks=, verbose=}]) or model:fit(dataset [, {...}])",
"Trains the compiled model: epochs (1) passes over the data in batches of batch_size (32; a dataset "
.. "is used as batched), shuffled each epoch unless shuffle = false, one train_step per batch through "
.. "model.train_function (a tf.func, or plain Lua with run_eagerly). Prints Keras's progress line per epoch "
.. "(verbose 1, 2; 0 silent). Returns a History: history.history.loss[epoch], ...")

local EVAL_OPTIONS = { batch_size = true, verbose = true, return_dict = true, callbacks = true }
Model.evaluate = doc.def(function(self, x, y, opts)
  require_compiled(self)
  x, y, opts = fit_args(x, y, opts, "evaluate", EVAL_OPTIONS)
  if y == nil and not is_dataset(x) then
    raise("ValueError", "Target data is missing. Your model has a loss: pass y (labels) to evaluate, or a dataset of (x, y).", 2)
  end
  local bs = batches(x, y, check_count(opts.batch_size, "batch_size", 1, 32), false)
  local verbose = check_verbose(opts.verbose)
  local logs = evaluate_batches(self, bs)
  local bar = progbar.new(#bs, verbose, nil, nil, log_order(self))
  bar:update(#bs, logs)
  bar:finish(logs)
  if opts.return_dict then return logs end
  if #self._metrics == 0 then return logs.loss end
  local out = { logs.loss }
  for _, m in ipairs(self._metrics) do out[#out + 1] = logs[m.name] end
  return out
end, "model:evaluate(x, y [, {batch_size=, verbose=, return_dict=}]) or model:evaluate(dataset [, {...}])",
"The loss (and metrics: a list {loss, metric...}, or a table by name with return_dict) over the data.")

local PREDICT_OPTIONS = { batch_size = true, verbose = true }
Model.predict = doc.def(function(self, x, opts)
  if is_plain(x) and opts == nil and x[1] == nil and next(x) ~= nil and not core.is_tensor(first_of(x)) then
    raise("ValueError", "Unexpected value for `x`: a table of options. Expected tensors or a tf.data.Dataset.", 2)
  end
  x, _, opts = fit_args(x, nil, opts, "predict", PREDICT_OPTIONS)
  local fn = step_function(self, "predict_function", "predict_step")
  local outs = {}
  local bs = batches(x, nil, check_count(opts.batch_size, "batch_size", 1, 32), false)
  -- Silent unless asked: the tutorials' predict outputs print no bar.
  local bar = progbar.new(#bs, opts.verbose == nil and 0 or check_verbose(opts.verbose))
  for i, b in ipairs(bs) do
    local out = fn(b[1])
    bar:update(i, {})
    if not core.is_tensor(out) then
      raise("ValueError", "moonflow's predict concatenates one output tensor per batch; this model returns a "
        .. type(out), 2)
    end
    outs[#outs + 1] = out
  end
  bar:finish({})
  if #outs == 0 then raise("ValueError", "Unexpected result of `predict_function` (Empty batch_outputs). Please "
    .. "use `Model.compile(..., run_eagerly=True)`, or `tf.config.run_functions_eagerly(True)` for more information "
    .. "of where went wrong, or file a issue/bug to `tf.keras`.", 2) end
  if #outs == 1 then return outs[1] end
  return ops.concat(outs, 0)
end, "model:predict(x [, {batch_size=, verbose=}])", "The model's outputs on x, computed in batches and concatenated; "
.. "verbose 1 (or 2) prints Keras's progress line (0, the default here, is silent).")

Model.train_on_batch = doc.def(function(self, x, y)
  require_compiled(self)
  if x == nil or y == nil then raise("ValueError", "model:train_on_batch(x, y) needs x and y", 2) end
  reset_metrics(self)
  local logs = numbers(step_function(self, "train_function", "train_step")(as_tensor(x), as_tensor(y)))
  if #self._metrics == 0 then return logs.loss end
  local out = { logs.loss }
  for _, m in ipairs(self._metrics) do out[#out + 1] = logs[m.name] end
  return out
end, "model:train_on_batch(x, y)", "One training step on one batch; returns the loss (or {loss, metrics...}).")

Model.test_on_batch = doc.def(function(self, x, y)
  require_compiled(self)
  if x == nil or y == nil then raise("ValueError", "model:test_on_batch(x, y) needs x and y", 2) end
  reset_metrics(self)
  local logs = numbers(step_function(self, "test_function", "test_step")(as_tensor(x), as_tensor(y)))
  if #self._metrics == 0 then return logs.loss end
  local out = { logs.loss }
  for _, m in ipairs(self._metrics) do out[#out + 1] = logs[m.name] end
  return out
end, "model:test_on_batch(x, y)", "The loss (or {loss, metrics...}) on one batch, no update.")

-- Weights through checkpoints ------------------------------------------------
Model.save_weights = doc.def(function(self, path)
  if type(path) ~= "string" then raise("TypeError", "model:save_weights(path): path must be a string", 2) end
  return saved_model.Checkpoint({ model = self }):write(path)
end, "model:save_weights(path)", "Writes the model's variables as a checkpoint (tf.train.Checkpoint) at path.")

Model.load_weights = doc.def(function(self, path)
  if type(path) ~= "string" then raise("TypeError", "model:load_weights(path): path must be a string", 2) end
  saved_model.Checkpoint({ model = self }):read(path)
end, "model:load_weights(path)", "Reads a checkpoint written by save_weights into the model's variables "
.. "(the model must have been called once, so its variables exist).")

-- Saving through tf.saved_model ----------------------------------------------
-- What tf.saved_model.save(model, dir) saves of a Keras model: its call,
-- traced for its input specs (a functional model's Inputs, else the shape
-- it was built with, batch dimension None), as __call (the loaded object
-- is callable) and serving_default. Nothing is dropped silently: a
-- tf.func the model holds besides its step functions is an error that
-- says to list it in signatures.
local STEP_FUNCTIONS = { train_function = true, test_function = true, predict_function = true }

local function input_specs(self)
  if rawget(self, "_functional") then
    local specs = {}
    local flat = is_plain(self.inputs) and self.inputs or { self.inputs }
    for i, kt in ipairs(flat) do specs[i] = shapes.TensorSpec(kt.shape:as_list(), kt.dtype, kt.name) end
    return specs, is_plain(self.inputs)
  end
  local shape = rawget(self, "_build_input_shape")
  if getmetatable(shape) ~= shapes.Shape then
    raise("ValueError", ("Model %s cannot be saved because the input shape is not available. Please specify an "
      .. "input shape either by calling `build(input_shape)` directly, or by calling the model on actual data "
      .. "using `Model()`, `Model.fit()`, or `Model.predict()`."):format(tostring(self)), 4)
  end
  local dims = shape:as_list()
  dims[1] = shapes.None
  return { shapes.TensorSpec(dims, dtypes.float32) }, false
end

Model._saved_model_signatures = function(self)
  for _, entry in ipairs(saved_functions.of(self)) do
    local top = entry[1]:match("^[^.]+")
    if not STEP_FUNCTIONS[top] then
      raise("ValueError", ("tf.saved_model.save: the Keras model '%s' holds the tf.func '%s', which saving the "
        .. "model's call would drop: pass signatures = {serving_default = ..., %s = ...} to save it too"):format(
        self.name, entry[1], entry[1]:gsub("%.", "_")), 4)
    end
  end
  local specs, several = input_specs(self)
  local call
  if several then
    call = func.func(function(...) return self({ ... }, { training = false }) end, { input_signature = specs, name = "__call" })
  else
    call = func.func(function(x) return self(x, { training = false }) end, { input_signature = specs, name = "__call" })
  end
  return { __call = call, serving_default = call }
end

T.internal = { internal = true }
return T
