-- callbacks.lua — tf.keras.callbacks: what fit calls at the start and end
-- of training, of each epoch and of each batch. Callback is subclassable
-- (Callback:extend("Name") with on_epoch_end(self, epoch, logs), ...);
-- History records each epoch's logs (fit returns it); EarlyStopping stops
-- when a monitored value stops improving; ModelCheckpoint saves the model
-- or its weights each epoch; LambdaCallback takes plain functions.

local errors = require("moonflow.errors")
local doc = require("moonflow.doc")
local options = require("moonflow.options")
local modules = require("moonflow.keras.module")
local saved_model = require("moonflow.io.saved_model")
local raise = errors.raise

local C = {}

local HOOKS = { "on_train_begin", "on_train_end", "on_epoch_begin", "on_epoch_end", "on_train_batch_begin",
  "on_train_batch_end", "on_test_begin", "on_test_end", "on_predict_begin", "on_predict_end" }

local Callback = modules.Module:extend("Callback")
C.Callback = Callback
doc.def(Callback, "tf.keras.callbacks.Callback()",
  "The base of callbacks: subclass it with tf.keras.callbacks.Callback:extend(\"Name\") and define any of "
  .. "on_train_begin(self, logs), on_train_end, on_epoch_begin(self, epoch, logs), on_epoch_end, "
  .. "on_train_batch_begin(self, batch, logs), on_train_batch_end. self.model is the model fit trains.")
for _, h in ipairs(HOOKS) do Callback[h] = function() end end
function Callback:set_model(model) self.model = model end

local History = Callback:extend("History")
C.History = History
doc.def(History, "tf.keras.callbacks.History()",
  "Records each epoch's logs: history.history.loss[i], history.history.val_loss[i], ...; history.epoch "
  .. "lists the epochs (0-based). fit returns one.")
function History:init()
  self.history = {}
  self.epoch = {}
end
function History:on_epoch_end(epoch, logs)
  self.epoch[#self.epoch + 1] = epoch
  for k, v in pairs(logs or {}) do
    self.history[k] = self.history[k] or {}
    table.insert(self.history[k], v)
  end
end

-- The callbacks of one fit, History last, each told the model.
local CallbackList = {}
CallbackList.__index = CallbackList
function C.CallbackList(list, history, model)
  if type(list) ~= "table" then raise("TypeError", "fit: callbacks must be a list of callbacks", 4) end
  local all = {}
  for i, cb in ipairs(list) do
    if type(cb) ~= "table" or type(cb.on_epoch_end) ~= "function" then
      raise("TypeError", ("fit: callbacks[%d] is not a tf.keras.callbacks.Callback"):format(i), 4)
    end
    all[#all + 1] = cb
  end
  all[#all + 1] = history
  for _, cb in ipairs(all) do cb:set_model(model) end
  return setmetatable({ list = all }, CallbackList)
end
function CallbackList:call(hook, ...)
  for _, cb in ipairs(self.list) do cb[hook](cb, ...) end
end

-- EarlyStopping -------------------------------------------------------------
local EarlyStopping = Callback:extend("EarlyStopping")
C.EarlyStopping = EarlyStopping
options.init(EarlyStopping, "tf.keras.callbacks.EarlyStopping([{monitor=, min_delta=, patience=, verbose=, mode=, baseline=, restore_best_weights=, start_from_epoch=}])",
  "Stops fit when the monitored value (monitor, 'val_loss' by default) has not improved by more than "
  .. "min_delta for patience epochs; mode 'min', 'max' or 'auto' (max for accuracies); "
  .. "restore_best_weights puts back the weights of the best epoch.",
  { "monitor", "min_delta", "patience", "verbose", "mode", "baseline", "restore_best_weights", "start_from_epoch" },
  function(self, opts)
  self.monitor = opts.monitor or "val_loss"
  self.patience = opts.patience or 0
  self.verbose = opts.verbose or 0
  self.baseline = opts.baseline
  self.min_delta = math.abs(opts.min_delta or 0)
  self.restore_best_weights = opts.restore_best_weights == true
  self.start_from_epoch = opts.start_from_epoch or 0
  local mode = opts.mode or "auto"
  if mode ~= "auto" and mode ~= "min" and mode ~= "max" then
    raise("ValueError", ("EarlyStopping mode %s is unknown, fallback to auto mode."):format(tostring(mode)), 3)
  end
  if mode == "auto" then
    mode = (self.monitor:find("acc") or self.monitor:find("auc")) and "max" or "min"
  end
  self.mode = mode
  self.stopped_epoch = 0
end)
local function improved(self, current, reference)
  if reference == nil then return true end
  if self.mode == "max" then return current - self.min_delta > reference end
  return current + self.min_delta < reference
end
function EarlyStopping:on_train_begin()
  self.wait = 0
  self.stopped_epoch = 0
  self.best = self.baseline
  self.best_weights = nil
  self.best_epoch = 0
end
function EarlyStopping:on_epoch_end(epoch, logs)
  local current = logs and logs[self.monitor]
  if current == nil or epoch < self.start_from_epoch then
    if current == nil then
      local keys = {}
      for k in pairs(logs or {}) do keys[#keys + 1] = k end
      table.sort(keys)
      io.stderr:write(("WARNING: Early stopping conditioned on metric `%s` which is not available. "
        .. "Available metrics are: %s\n"):format(self.monitor, table.concat(keys, ",")))
    end
    return
  end
  if self.restore_best_weights and self.best_weights == nil then self.best_weights = self.model:get_weights() end
  self.wait = self.wait + 1
  if improved(self, current, self.best) then
    self.best = current
    self.best_epoch = epoch
    if self.restore_best_weights then self.best_weights = self.model:get_weights() end
    self.wait = 0
    return
  end
  if self.wait >= self.patience and epoch > 0 then
    self.stopped_epoch = epoch
    self.model.stop_training = true
    if self.restore_best_weights and self.best_weights then
      if self.verbose > 0 then print("Restoring model weights from the end of the best epoch: " .. (self.best_epoch + 1) .. ".") end
      self.model:set_weights(self.best_weights)
    end
  end
end
function EarlyStopping:on_train_end()
  if self.stopped_epoch > 0 and self.verbose > 0 then
    print(("Epoch %d: early stopping"):format(self.stopped_epoch + 1))
  end
end

-- LambdaCallback ----------------------------------------------------------------
local LambdaCallback = Callback:extend("LambdaCallback")
C.LambdaCallback = LambdaCallback
options.init(LambdaCallback, "tf.keras.callbacks.LambdaCallback{on_epoch_begin=, on_epoch_end=, on_train_batch_begin=, on_train_batch_end=, on_train_begin=, on_train_end=}",
  "A callback made of plain functions: on_epoch_end(epoch, logs), on_train_batch_end(batch, logs), "
  .. "on_train_begin(logs), ... (on_batch_begin/on_batch_end are the train-batch hooks).",
  { "on_epoch_begin", "on_epoch_end", "on_batch_begin", "on_batch_end", "on_train_batch_begin",
    "on_train_batch_end", "on_train_begin", "on_train_end" }, function(self, opts)
  local given = { on_epoch_begin = opts.on_epoch_begin, on_epoch_end = opts.on_epoch_end,
    on_batch_begin = opts.on_batch_begin, on_batch_end = opts.on_batch_end,
    on_train_batch_begin = opts.on_train_batch_begin, on_train_batch_end = opts.on_train_batch_end,
    on_train_begin = opts.on_train_begin, on_train_end = opts.on_train_end }
  for k, fn in pairs(given) do
    if type(fn) ~= "function" then
      raise("TypeError", ("LambdaCallback: %s must be a function, got a %s"):format(k, type(fn)), 3)
    end
    local hook = k == "on_batch_begin" and "on_train_batch_begin" or k == "on_batch_end" and "on_train_batch_end" or k
    self[hook] = function(_, ...) return fn(...) end
  end
end)

-- ModelCheckpoint ---------------------------------------------------------------------
local ModelCheckpoint = Callback:extend("ModelCheckpoint")
C.ModelCheckpoint = ModelCheckpoint
options.init(ModelCheckpoint, "tf.keras.callbacks.ModelCheckpoint(filepath [, {monitor=, verbose=, save_best_only=, save_weights_only=, mode=}])",
  "Saves the model each epoch at filepath ('{epoch}' or '{epoch:02d}' in it is the 1-based epoch): its "
  .. "weights as a checkpoint (save_weights_only) or a SavedModel (tf.saved_model.save); with "
  .. "save_best_only, only when the monitored value ('val_loss') improves.",
  { positional = { "filepath" }, "monitor", "verbose", "save_best_only", "save_weights_only", "mode" },
  function(self, filepath, opts)
  if type(filepath) ~= "string" then
    raise("TypeError", "ModelCheckpoint: filepath must be a string, got a " .. type(filepath), 3)
  end
  self.filepath = filepath
  self.monitor = opts.monitor or "val_loss"
  self.verbose = opts.verbose or 0
  self.save_best_only = opts.save_best_only == true
  self.save_weights_only = opts.save_weights_only == true
  local mode = opts.mode or "auto"
  if mode == "auto" then mode = (self.monitor:find("acc") or self.monitor:find("auc")) and "max" or "min" end
  self.mode = mode
  self.min_delta = 0
end)
local function format_path(path, epoch, logs)
  return (path:gsub("{([%w_]+):?([^}]*)}", function(key, fmt)
    local v = key == "epoch" and epoch or logs[key]
    if v == nil then return nil end
    if fmt ~= "" then return ("%" .. fmt):format(v) end
    return tostring(v)
  end))
end
function ModelCheckpoint:on_epoch_end(epoch, logs)
  local current = logs and logs[self.monitor]
  if self.save_best_only then
    if current == nil then
      io.stderr:write(("WARNING: Can save best model only with %s available, skipping.\n"):format(self.monitor))
      return
    end
    if not improved(self, current, self.best) then return end
    self.best = current
  end
  local path = format_path(self.filepath, epoch + 1, logs or {})
  if self.save_weights_only then
    self.model:save_weights(path)
  else
    saved_model.save(self.model, path)
  end
  if self.verbose > 0 then print(("Epoch %d: saving model to %s"):format(epoch + 1, path)) end
end

C.internal = { internal = true, CallbackList = true }
return C
