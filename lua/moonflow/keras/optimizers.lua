-- optimizers.lua (moonflow.keras.optimizers) — tf.keras.optimizers: SGD
-- (momentum, nesterov), Adam (amsgrad), AdamW, RMSprop (momentum,
-- centered) and Adagrad with the update rules of Keras 2.11+'s optimizers
-- (keras/optimizers/*.py), apply_gradients, minimize, and `get` for TF's
-- string names. Slots are variables the optimizer owns (its variables(),
-- so a checkpoint of it saves them); the learning rate is a number, a
-- tf.Variable or a schedule (schedules.lua) called with the step count.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local doc = require("moonflow.doc")
local options = require("moonflow.options")
local dtypes = require("moonflow.tensor.dtypes")
local ops = require("moonflow.ops")
local variables = require("moonflow.tensor.variable")
local tapes = require("moonflow.grad.tape")
local modules = require("moonflow.keras.module")
local schedules = require("moonflow.keras.schedules")
local name_scope = require("moonflow.trace.name_scope").name_scope
local argcheck = require("moonflow.argcheck")
local check = require("moonflow.keras.check")
local raise = errors.raise

local optimizers = {}

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
local function slot(opt, v, name, initial)
  if not opt._slots then opt._slots = {} end
  opt._slots[name] = opt._slots[name] or {}
  local s = opt._slots[name][v.id]
  if not s then
    s = variables.Variable(function()
      if initial then return ops.fill(v.shape:as_list(), ops.constant(initial, v.dtype)) end
      return ops.zeros(v.shape:as_list(), v.dtype)
    end, { name = v.name:gsub(":0$", "") .. "/" .. name, trainable = false })
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

-- The rate for this step: a number as it is (a constant of the graph), a
-- variable's current value, or the schedule at the step count.
local function current_lr(opt)
  local lr = opt.learning_rate
  if schedules.is_schedule(lr) then return lr(iterations(opt)) end
  if variables.is_variable(lr) then return lr:read_value() end
  return lr
end

local function check_lr(lr, what)
  if lr == nil or type(lr) == "number" or variables.is_variable(lr) or schedules.is_schedule(lr) then return lr end
  raise("TypeError", ("%s: learning_rate must be a number, a tf.Variable or a "
    .. "tf.keras.optimizers.schedules.LearningRateSchedule, got %s"):format(what, tostring(lr)), 4)
end

local function check_unit(value, what, name)
  if type(value) == "number" and (value < 0 or value > 1) then
    raise("ValueError", ("`%s` must be between [0, 1]. Received: %s=%s (in %s)")
      :format(name, name, tostring(value), what), 4)
  end
  return value
end

local Optimizer = modules.Module:extend("Optimizer")
optimizers.Optimizer = Optimizer
doc.def(Optimizer, "tf.keras.optimizers.Optimizer",
  "The base of the optimizers: opt:apply_gradients({{g, v}, ...}) updates each variable by the "
  .. "subclass's rule (its update_step) and adds one to opt.iterations; opt:minimize(loss_fn, var_list) "
  .. "differentiates loss_fn() first. Slots and iterations are opt:variables().")

-- The base is abstract: its subclasses give update_step.
Optimizer.init = function(self)
  if getmetatable(self) == Optimizer then
    raise("TypeError", "Can't instantiate abstract class Optimizer with abstract method update_step; use "
      .. "SGD, Adam, AdamW, RMSprop or Adagrad, or Optimizer:extend(name) with an update_step", 3)
  end
end

-- Gradient clipping, Keras 2's options of every optimizer (optimizer.py's
-- _clip_gradients): clipnorm per gradient, global_clipnorm over all of
-- them, clipvalue per element. clipnorm and global_clipnorm exclude each
-- other; with clipvalue too, the norm clipping is the one applied.
local CLIP_OPTIONS = { "clipnorm", "clipvalue", "global_clipnorm" }
local function clip_options(self, opts, what)
  local fname = "tf.keras.optimizers." .. what
  self.clipnorm = check.number(opts.clipnorm, fname, "clipnorm")
  self.clipvalue = check.number(opts.clipvalue, fname, "clipvalue")
  self.global_clipnorm = check.number(opts.global_clipnorm, fname, "global_clipnorm")
  if self.clipnorm ~= nil and self.global_clipnorm ~= nil then
    raise("ValueError", ("At most one of `clipnorm` and `global_clipnorm` can be set. Received: clipnorm=%s, "
      .. "global_clipnorm=%s."):format(self.clipnorm, self.global_clipnorm), 5)
  end
end

-- The gradients of the {g, v} pairs, clipped as the options say.
local function clip_gradients(self, gvs)
  local clipnorm, global, value = self.clipnorm, self.global_clipnorm, self.clipvalue
  if clipnorm and clipnorm > 0 then
    for _, gv in ipairs(gvs) do gv[1] = ops.clip_by_norm(gv[1], clipnorm) end
  elseif global and global > 0 then
    -- tf.clip_by_global_norm: every gradient times clip / max(global norm, clip).
    local squares = {}
    for i, gv in ipairs(gvs) do
      gv[1] = ops.convert_to_tensor(gv[1])
      squares[i] = ops.reduce_sum(ops.square(gv[1]))
    end
    local norm = ops.sqrt(ops.add_n(squares))
    local scale = global / ops.maximum(norm, global)
    for _, gv in ipairs(gvs) do gv[1] = gv[1] * ops.cast(scale, gv[1].dtype) end
  elseif value and value > 0 then
    for _, gv in ipairs(gvs) do gv[1] = ops.clip_by_value(gv[1], -value, value) end
  end
end

-- The common constructor part: a rate (number, variable or schedule), a
-- name and the clipping options.
local function base_init(self, learning_rate, default_lr, opts, what)
  self.learning_rate = check_lr(learning_rate, what) or default_lr
  if opts.name ~= nil then self.name = opts.name end
  clip_options(self, opts, what)
  self._slots = {}
end

-- A constructor's declaration: its positional options, then the clipping
-- options and name.
local function optimizer_spec(positional, ...)
  local spec = { positional = positional, via = { base_init, clip_options, ... } }
  for _, n in ipairs(CLIP_OPTIONS) do spec[#spec + 1] = n end
  spec[#spec + 1] = "name"
  return spec
end
local CLIP_DOC = ", clipnorm=, clipvalue=, global_clipnorm="
local CLIP_TEXT = " Every optimizer clips the gradients as Keras 2's: clipnorm (each gradient rescaled to at most "
  .. "that L2 norm), global_clipnorm (all of them rescaled by their global norm; not with clipnorm) or "
  .. "clipvalue (each element into ±clipvalue)."

-- apply_gradients and minimize are set on each optimizer class (not only
-- inherited), so that a call with `.` names the class's own kind.
local function apply_gradients(self, grads_and_vars)
  local scope <close> = name_scope(self.name or self._class_name) -- traced: the update ops are <name>/...
  local it = iterations(self)
  local gvs = pairs_of(grads_and_vars)
  if #gvs > 0 then
    clip_gradients(self, gvs)
    local lr = current_lr(self)
    self:_prepare(gvs)
    for _, gv in ipairs(gvs) do self:update_step(gv[1], gv[2], lr) end
  end
  it:assign_add(1)
  return it
end

local minimize = doc.def(function(self, loss, var_list)
  if type(loss) ~= "function" then
    raise("TypeError", "optimizer:minimize(loss, var_list): loss must be a function of no arguments "
      .. "returning the loss (moonflow has no tensor-valued form without a tape)", 2)
  end
  if type(var_list) == "function" then var_list = var_list() end
  argcheck.table(var_list, "optimizer:minimize", "var_list")
  local tape <close> = tapes.GradientTape()
  local value = loss()
  tape:stop()
  local grads = tape:gradient(value, var_list)
  local gvs = {}
  for i, v in ipairs(var_list) do gvs[i] = { grads[i], v } end
  return self:apply_gradients(gvs)
end, "optimizer:minimize(loss, var_list)",
"Records loss() on a GradientTape, differentiates it with respect to var_list (a list of variables or a "
.. "function returning one) and applies the gradients; returns opt.iterations.")

apply_gradients = doc.def(apply_gradients, "optimizer:apply_gradients(grads_and_vars)",
  "Updates each variable of the {gradient, variable} pairs (pairs with a nil gradient are skipped) by "
  .. "the optimizer's update_step(g, v, learning_rate) and adds one to opt.iterations, which it returns.")
-- A user's Optimizer:extend(name) inherits them from the base.
Optimizer.apply_gradients = apply_gradients
Optimizer.minimize = minimize
Optimizer._prepare = function() end

local function optimizer_class(name, parent)
  local class = (parent or Optimizer):extend(name)
  class.apply_gradients = apply_gradients
  class.minimize = minimize
  optimizers[name] = class
  return class
end

-- update_step(g, v, lr) is public (Keras's too): its arguments are checked
-- as apply_gradients's are.
local function step_args(g, v, lr, what)
  if not variables.is_variable(v) then argcheck.fail(what, "variable", "a tf.Variable", v, 3) end
  if type(lr) ~= "number" and not core.is_tensor(lr) then argcheck.fail(what, "learning_rate", "a number or a tensor", lr, 3) end
  return ops.convert_to_tensor(g), v, lr
end

-- SGD ------------------------------------------------------------------------------
local SGD = optimizer_class("SGD")
options.init(SGD, "tf.keras.optimizers.SGD([learning_rate] [, momentum] [, nesterov] [, {name=" .. CLIP_DOC .. "}])",
  "Gradient descent: v -= learning_rate * g (default rate 0.01). With momentum in [0, 1]: m = momentum "
  .. "* m - learning_rate * g, v += m; with nesterov, v += momentum * m - learning_rate * g (Keras's "
  .. "rules; the 'momentum' slot is made on the first apply)." .. CLIP_TEXT,
  optimizer_spec({ "learning_rate", "momentum", "nesterov" }),
  function(self, learning_rate, momentum, nesterov, opts)
  base_init(self, learning_rate, 0.01, opts, "SGD")
  check.number(momentum, "tf.keras.optimizers.SGD", "momentum")
  check.boolean(nesterov, "tf.keras.optimizers.SGD", "nesterov")
  self.momentum = check_unit(momentum or 0, "SGD", "momentum")
  self.nesterov = nesterov or false
end)
function SGD:update_step(g, v, lr)
  g, v, lr = step_args(g, v, lr, "sgd:update_step")
  if self.momentum ~= 0 then
    local m = slot(self, v, "momentum")
    m:assign(m * self.momentum - g * lr)
    if self.nesterov then
      v:assign_add(m * self.momentum - g * lr)
    else
      v:assign_add(m)
    end
  else
    v:assign_sub(g * lr)
  end
end

-- Adam / AdamW -------------------------------------------------------------------------
local Adam = optimizer_class("Adam")
local function adam_init(self, learning_rate, beta_1, beta_2, epsilon, amsgrad, opts, what)
  base_init(self, learning_rate, 0.001, opts, what)
  local fname = "tf.keras.optimizers." .. what
  check.number(beta_1, fname, "beta_1"); check.number(beta_2, fname, "beta_2")
  check.number(epsilon, fname, "epsilon"); check.boolean(amsgrad, fname, "amsgrad")
  self.beta_1 = beta_1 or 0.9
  self.beta_2 = beta_2 or 0.999
  self.epsilon = epsilon or 1e-7
  self.amsgrad = amsgrad or false
end
options.init(Adam, "tf.keras.optimizers.Adam([learning_rate] [, beta_1] [, beta_2] [, epsilon] [, amsgrad] [, {name=" .. CLIP_DOC .. "}])",
  "Adam: bias-corrected moment estimates per variable (slots 'm' and 'v', and 'vhat' with amsgrad, made "
  .. "on the first apply). Defaults: learning_rate 0.001, beta_1 0.9, beta_2 0.999, epsilon 1e-7." .. CLIP_TEXT,
  optimizer_spec({ "learning_rate", "beta_1", "beta_2", "epsilon", "amsgrad" }, adam_init),
  function(self, learning_rate, beta_1, beta_2, epsilon, amsgrad, opts)
  adam_init(self, learning_rate, beta_1, beta_2, epsilon, amsgrad, opts, "Adam")
end)
function Adam:_prepare(gvs)
  for _, gv in ipairs(gvs) do
    slot(self, gv[2], "m"); slot(self, gv[2], "v")
    if self.amsgrad then slot(self, gv[2], "vhat") end
  end
end

-- sqrt(1 - beta_2^t) / (1 - beta_1^t) at this step, t = iterations + 1.
local function bias_correction(self)
  local t = ops.cast(iterations(self):read_value() + 1, dtypes.float32)
  local b1, b2 = self.beta_1, self.beta_2
  return ops.sqrt(1 - ops.pow(ops.constant(b2), t)) / (1 - ops.pow(ops.constant(b1), t))
end
function Adam:update_step(g, v, lr)
  g, v, lr = step_args(g, v, lr, "adam:update_step")
  local b1, b2 = self.beta_1, self.beta_2
  local m, s = slot(self, v, "m"), slot(self, v, "v")
  local m_new = m:assign(m * b1 + g * (1 - b1))
  local s_new = s:assign(s * b2 + ops.square(g) * (1 - b2))
  if self.amsgrad then
    local vhat = slot(self, v, "vhat")
    s_new = vhat:assign(ops.maximum(vhat, s_new))
  end
  v:assign_sub(lr * bias_correction(self) * m_new / (ops.sqrt(s_new) + self.epsilon))
end

local AdamW = optimizer_class("AdamW", Adam)
options.init(AdamW, "tf.keras.optimizers.AdamW([learning_rate] [, weight_decay] [, beta_1] [, beta_2] "
  .. "[, epsilon] [, amsgrad] [, {name=" .. CLIP_DOC .. "}])",
  "Adam with decoupled weight decay: before each Adam step v -= v * weight_decay * learning_rate "
  .. "(default weight_decay 0.004), as Keras's AdamW." .. CLIP_TEXT,
  optimizer_spec({ "learning_rate", "weight_decay", "beta_1", "beta_2", "epsilon", "amsgrad" }, adam_init),
  function(self, learning_rate, weight_decay, beta_1, beta_2, epsilon, amsgrad, opts)
  adam_init(self, learning_rate, beta_1, beta_2, epsilon, amsgrad, opts, "AdamW")
  if weight_decay ~= nil and type(weight_decay) ~= "number" then
    raise("TypeError", "AdamW: weight_decay must be a number, got " .. tostring(weight_decay), 3)
  end
  self.weight_decay = weight_decay or 0.004
end)
function AdamW:update_step(g, v, lr)
  g, v, lr = step_args(g, v, lr, "adamw:update_step")
  if self.weight_decay ~= 0 then v:assign_sub(v * (lr * self.weight_decay)) end
  Adam.update_step(self, g, v, lr)
end

-- RMSprop --------------------------------------------------------------------------------
local RMSprop = optimizer_class("RMSprop")
options.init(RMSprop, "tf.keras.optimizers.RMSprop([learning_rate] [, rho] [, momentum] [, epsilon] [, centered] "
  .. "[, {name=" .. CLIP_DOC .. "}])",
  "RMSprop: velocity = rho * velocity + (1 - rho) * g²; v -= learning_rate * g / sqrt(velocity + epsilon) "
  .. "(centered: minus the square of the average gradient under the root; momentum: the steps "
  .. "accumulate). Defaults: learning_rate 0.001, rho 0.9, momentum 0, epsilon 1e-7." .. CLIP_TEXT,
  optimizer_spec({ "learning_rate", "rho", "momentum", "epsilon", "centered" }),
  function(self, learning_rate, rho, momentum, epsilon, centered, opts)
  base_init(self, learning_rate, 0.001, opts, "RMSprop")
  local fname = "tf.keras.optimizers.RMSprop"
  check.number(rho, fname, "rho"); check.number(momentum, fname, "momentum")
  check.number(epsilon, fname, "epsilon"); check.boolean(centered, fname, "centered")
  self.rho = rho or 0.9
  self.momentum = check_unit(momentum or 0, "RMSprop", "momentum")
  self.epsilon = epsilon or 1e-7
  self.centered = centered or false
end)
function RMSprop:update_step(g, v, lr)
  g, v, lr = step_args(g, v, lr, "rmsprop:update_step")
  local rho = self.rho
  local velocity = slot(self, v, "velocity")
  local vel = velocity:assign(velocity * rho + ops.square(g) * (1 - rho))
  local denominator
  if self.centered then
    local avg = slot(self, v, "average_gradient")
    local a = avg:assign(avg * rho + g * (1 - rho))
    denominator = vel - ops.square(a) + self.epsilon
  else
    denominator = vel + self.epsilon
  end
  local increment = g * lr * ops.rsqrt(denominator)
  if self.momentum > 0 then
    local m = slot(self, v, "momentum")
    v:assign_sub(m:assign(m * self.momentum + increment))
  else
    v:assign_sub(increment)
  end
end

-- Adagrad ----------------------------------------------------------------------------------
local Adagrad = optimizer_class("Adagrad")
options.init(Adagrad, "tf.keras.optimizers.Adagrad([learning_rate] [, initial_accumulator_value] [, epsilon] "
  .. "[, {name=" .. CLIP_DOC .. "}])",
  "Adagrad: accumulator += g²; v -= learning_rate * g / sqrt(accumulator + epsilon). Defaults: "
  .. "learning_rate 0.001, initial_accumulator_value 0.1, epsilon 1e-7." .. CLIP_TEXT,
  optimizer_spec({ "learning_rate", "initial_accumulator_value", "epsilon" }),
  function(self, learning_rate, initial_accumulator_value, epsilon, opts)
  base_init(self, learning_rate, 0.001, opts, "Adagrad")
  check.number(initial_accumulator_value, "tf.keras.optimizers.Adagrad", "initial_accumulator_value")
  check.number(epsilon, "tf.keras.optimizers.Adagrad", "epsilon")
  self.initial_accumulator_value = initial_accumulator_value or 0.1
  self.epsilon = epsilon or 1e-7
end)
function Adagrad:update_step(g, v, lr)
  g, v, lr = step_args(g, v, lr, "adagrad:update_step")
  local acc = slot(self, v, "accumulator", self.initial_accumulator_value)
  local a = acc:assign_add(ops.square(g))
  v:assign_sub(lr * g / ops.sqrt(a + self.epsilon))
end

-- get ------------------------------------------------------------------------------------------
local NAMES = { sgd = "SGD", adam = "Adam", adamw = "AdamW", rmsprop = "RMSprop", adagrad = "Adagrad" }

optimizers.get = doc.def(function(identifier)
  if type(identifier) == "string" then
    local class = NAMES[identifier:lower()]
    if class then return optimizers[class]() end
  elseif type(identifier) == "table" then
    local mt = getmetatable(identifier)
    while type(mt) == "table" do
      if mt == Optimizer then return identifier end
      mt = rawget(mt, "_parent")
    end
  end
  raise("ValueError", "Could not interpret optimizer identifier: " .. tostring(identifier), 2)
end, "tf.keras.optimizers.get(identifier)",
"An optimizer from its name ('sgd', 'adam', 'adamw', 'rmsprop', 'adagrad', any case) with Keras's "
.. "defaults; an optimizer object is returned as it is.")

optimizers.schedules = {
  LearningRateSchedule = schedules.LearningRateSchedule,
  ExponentialDecay = schedules.ExponentialDecay,
  PiecewiseConstantDecay = schedules.PiecewiseConstantDecay,
}

return optimizers
