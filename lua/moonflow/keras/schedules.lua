-- schedules.lua (moonflow.keras.schedules) — tf.keras.optimizers.schedules:
-- learning rates that depend on the optimizer's step. An optimizer given a
-- schedule as its learning_rate calls it with its `iterations` (the steps
-- taken before this one) at every apply_gradients, so a traced train step
-- reads the step from the variable and the rate changes without a retrace.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local options = require("moonflow.options")
local dtypes = require("moonflow.tensor.dtypes")
local variables = require("moonflow.tensor.variable")
local ops = require("moonflow.ops")
local modules = require("moonflow.keras.module")
local check = require("moonflow.keras.check")
local raise = errors.raise

local schedules = {}

local function as_float_step(step)
  if variables.is_variable(step) then step = step:read_value() end
  step = ops.convert_to_tensor(step)
  if core.dtype(step) ~= dtypes.float32 then step = ops.cast(step, dtypes.float32) end
  return step
end

local LearningRateSchedule = modules.Module:extend("LearningRateSchedule")
schedules.LearningRateSchedule = LearningRateSchedule
options.init(LearningRateSchedule, "tf.keras.optimizers.schedules.LearningRateSchedule()",
  "The base of learning-rate schedules: schedule(step) is the rate at that step (a float32 scalar). "
  .. "A subclass (LearningRateSchedule:extend('Name')) defines __call; an optimizer takes any instance "
  .. "as its learning_rate.", {}, function() end)

LearningRateSchedule.__call = function(self)
  raise("NotImplementedError", ("Learning rate schedule '%s' must override `__call__(self, step)`.")
    :format(getmetatable(self)._class_name), 2)
end

local function is_schedule(x)
  local mt = getmetatable(x)
  while type(mt) == "table" do
    if mt == LearningRateSchedule then return true end
    mt = rawget(mt, "_parent")
  end
  return false
end

local ExponentialDecay = LearningRateSchedule:extend("ExponentialDecay")
schedules.ExponentialDecay = ExponentialDecay
options.init(ExponentialDecay, "tf.keras.optimizers.schedules.ExponentialDecay(initial_learning_rate, "
  .. "decay_steps, decay_rate [, staircase] [, name])",
  "initial_learning_rate * decay_rate ^ (step / decay_steps); with staircase = true the exponent is "
  .. "floored, so the rate drops every decay_steps steps.",
  { required = 3, positional = { "staircase", "name" } },
  function(self, initial_learning_rate, decay_steps, decay_rate, staircase, name)
  for _, p in ipairs({ { "initial_learning_rate", initial_learning_rate }, { "decay_steps", decay_steps },
    { "decay_rate", decay_rate } }) do
    if type(p[2]) ~= "number" then
      raise("TypeError", ("ExponentialDecay: `%s` must be a number, got %s"):format(p[1], tostring(p[2])), 3)
    end
  end
  if decay_steps <= 0 then
    raise("ValueError", ("ExponentialDecay: `decay_steps` must be positive. Received: decay_steps=%s")
      :format(tostring(decay_steps)), 3)
  end
  self.initial_learning_rate, self.decay_steps, self.decay_rate = initial_learning_rate, decay_steps, decay_rate
  self.staircase = check.boolean(staircase, "ExponentialDecay", "staircase") or false
  self.name = check.string(name, "ExponentialDecay", "name") or "ExponentialDecay"
end)
ExponentialDecay.__call = function(self, step)
  local p = as_float_step(step) / ops.constant(self.decay_steps, dtypes.float32)
  if self.staircase then p = ops.floor(p) end
  return ops.constant(self.initial_learning_rate, dtypes.float32)
    * ops.pow(ops.constant(self.decay_rate, dtypes.float32), p)
end

local PiecewiseConstantDecay = LearningRateSchedule:extend("PiecewiseConstantDecay")
schedules.PiecewiseConstantDecay = PiecewiseConstantDecay
options.init(PiecewiseConstantDecay, "tf.keras.optimizers.schedules.PiecewiseConstantDecay(boundaries, "
  .. "values [, name])",
  "values[1] while step <= boundaries[1], values[2] while step <= boundaries[2], ..., the last value "
  .. "after the last boundary (one value more than boundaries).",
  { required = 2, positional = { "name" } }, function(self, boundaries, values, name)
  if type(boundaries) ~= "table" or type(values) ~= "table" then
    raise("TypeError", "PiecewiseConstantDecay: boundaries and values must be lists of numbers", 3)
  end
  for i, b in ipairs(boundaries) do check.number(b, "PiecewiseConstantDecay", "boundaries[" .. i .. "]") end
  for i, v in ipairs(values) do check.number(v, "PiecewiseConstantDecay", "values[" .. i .. "]") end
  if #boundaries ~= #values - 1 then
    raise("ValueError", "The length of boundaries should be 1 less than the length of values", 3)
  end
  self.boundaries, self.values = boundaries, values
  self.name = check.string(name, "PiecewiseConstantDecay", "name") or "PiecewiseConstant"
end)
PiecewiseConstantDecay.__call = function(self, step)
  local s = as_float_step(step)
  -- From the last interval back: the first boundary the step is within wins.
  local rate = ops.constant(self.values[#self.values], dtypes.float32)
  for i = #self.boundaries, 1, -1 do
    rate = ops.where(ops.less_equal(s, ops.constant(self.boundaries[i], dtypes.float32)),
      ops.constant(self.values[i], dtypes.float32), rate)
  end
  return rate
end

schedules.internal = { internal = true, is_schedule = true }
schedules.is_schedule = is_schedule

return schedules
