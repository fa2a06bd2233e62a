-- tape_args.lua — what tape:gradient and the Jacobians are handed, read
-- as TF's backprop.py reads it: targets, sources and output_gradients are
-- nested structures (nest.flatten_leaves: lists, keyed tables, any
-- nesting), each leaf checked, and TF's warnings for what carries no
-- gradient (an integer watched, differentiated or differentiated by).

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local options = require("moonflow.options")
local dtypes = require("moonflow.tensor.dtypes")
local ops = require("moonflow.ops")
local variables = require("moonflow.tensor.variable")
local nest = require("moonflow.nest")

local raise = errors.raise
local dtype_of = core.dtype

local args = {}

--- A target's value dtype (a variable's handle: the variable's).
function args.value_dtype(t)
  if dtype_of(t) == dtypes.resource then return variables.of_handle(t).dtype end
  return dtype_of(t)
end

-- As TF's backprop_util.IsTrainable: a floating value, or a resource
-- handle (a variable's), can carry a gradient. A variable is judged by
-- its value's dtype. Returns the verdict and the dtype judged.
local function trainable(x)
  local d = variables.is_variable(x) and x.dtype or dtype_of(x)
  return d.is_floating or d == dtypes.resource, d
end

-- TF's warnings for what cannot carry a gradient (backprop.py), on
-- moonflow's warning channel (io.stderr, "WARNING: "). A watched tensor
-- is told of the first WATCH_WARNINGS times in a process (TF's
-- logging.log_first_n(..., 5)); a target or a source at every
-- gradient call (TF's logging.vlog at WARN level).
local WATCH_WARNINGS = 5
local watch_warnings = 0

local function warn(text)
  io.stderr:write("WARNING: " .. text .. "\n")
end

--- tape:watch's warning for x (a tensor or a variable) that is not floating.
function args.warn_watched(x)
  local ok, d = trainable(x)
  if ok or watch_warnings >= WATCH_WARNINGS then return end
  watch_warnings = watch_warnings + 1
  warn("The dtype of the watched tensor must be floating (e.g. tf.float32), got " .. tostring(d))
end

--- tape:gradient's warnings: one per flat target, then one per flat
--- source, that is not floating.
function args.warn_untrainable(targets, sources)
  for _, t in ipairs(targets) do
    local ok, d = trainable(t)
    if not ok then
      warn("The dtype of the target tensor must be floating (e.g. tf.float32) when calling "
        .. "GradientTape.gradient, got " .. tostring(d))
    end
  end
  for _, x in ipairs(sources) do
    local ok, d = trainable(x)
    if not ok then
      warn("The dtype of the source tensor must be floating (e.g. tf.float32) when calling "
        .. "GradientTape.gradient, got " .. tostring(d))
    end
  end
end

--- Whether x is what a tape differentiates: a tensor or a tf.Variable.
function args.is_leaf(x)
  return variables.is_variable(x) or core.is_tensor(x)
end

local function describe(x)
  if x == nil then return "nil" end
  return ("%s (a %s)"):format(tostring(x), type(x))
end

-- The error levels below count from the public method's body, which
-- calls these helpers directly: 3 is its caller's line.

--- The sources as TF's nest.flatten makes them: the flat leaves (each a
--- tensor or a tf.Variable, with their count in .n) and the structure the
--- gradients are packed in (nest.pack_leaves).
function args.flatten_sources(sources, what)
  local leaves, structure = nest.flatten_leaves(sources, what .. " sources", 4)
  for i = 1, leaves.n do
    if not args.is_leaf(leaves[i]) then
      raise("TypeError", what .. " sources must be tensors, tf.Variables or tables of them, got "
        .. describe(leaves[i]), 3)
    end
  end
  return leaves, structure
end

--- The targets as TF flattens them (nest.flatten(target)): a tensor, a
--- tf.Variable, or any nesting of tables of them, which TF sums. nil, or a
--- Lua value among them, is a TypeError (TF's for None), never ignored.
function args.flatten_targets(target)
  if target == nil then
    raise("TypeError", "Argument `target` should be a list or nested structure of tensors or "
      .. "tf.Variables to be differentiated, but received nil.", 3)
  end
  local leaves, structure = nest.flatten_leaves(target, "tape:gradient target", 4)
  for i = 1, leaves.n do
    if not args.is_leaf(leaves[i]) then
      raise("TypeError", "tape:gradient target must be a tensor, a tf.Variable or a (nested) table of them, got "
        .. describe(leaves[i]), 3)
    end
  end
  return leaves, structure
end

--- For gradient() a target variable is its handle, as TF's _handle_or_self
--- makes it: the gradient of a variable with respect to itself is ones,
--- and to anything else None (a read of it made now would be recorded by
--- no tape).
function args.handles_of(targets)
  local out = {}
  for i, x in ipairs(targets) do out[i] = variables.is_variable(x) and x.handle or x end
  return out
end

-- Each target's weight: a tensor, a Lua number (made of the target's
-- dtype) or nil (the reverse pass seeds it with ones).
local function weights_for(list, targets)
  local out = {}
  for i, t in ipairs(targets) do
    local w = list[i]
    if variables.is_variable(w) then w = w:read_value() end
    if type(w) == "number" then w = ops.constant(w, args.value_dtype(t)) end
    if w ~= nil and not core.is_tensor(w) then
      raise("TypeError", "output_gradients must be tensors, numbers or (nested) tables of them, got "
        .. describe(w), 4)
    end
    out[i] = w
  end
  return out
end

--- output_gradients as TF takes them (backprop.py flattens them on their
--- own, one per flat target): in the targets' structure, or as a flat list
--- in the targets' flat order. A count that differs is a ValueError (TF's
--- tape read past the list), and so is another nesting than the targets'
--- (TF would pair the leaves by position, whatever their keys).
function args.nested_weights(weights, targets, target_structure)
  if weights == nil then return nil end
  local list, structure = nest.flatten_leaves(weights, "tape:gradient output_gradients", 4)
  if list.n ~= #targets then
    raise("ValueError", ("Length mismatch. Passed %d output_gradients for %d targets (one per tensor of "
      .. "target, in its structure or as a flat list)"):format(list.n, #targets), 3)
  end
  if not nest.is_flat(structure) and not nest.same_structure(structure, target_structure) then
    raise("ValueError", "The two structures don't have the same nested structure: output_gradients must "
      .. "nest as target does (the same keys and lists), or be a flat list in target's flattened order", 3)
  end
  return weights_for(list, targets)
end

--- The lenient weights the library's own callers pass: one value, or a
--- list in which a hole or a missing entry means ones.
function args.flat_weights(weights, targets)
  if weights == nil then return nil end
  local list = weights
  if core.is_tensor(weights) or variables.is_variable(weights) or type(weights) == "number" then
    list = { weights }
  end
  if type(list) ~= "table" then
    raise("TypeError", "output_gradients must be a tensor, a number or a list of them, got " .. tostring(weights), 4)
  end
  return weights_for(list, targets)
end

--- gradient's trailing options: TF's keyword arguments output_gradients=
--- and unconnected_gradients= (a plain table with one of those keys).
function args.is_options(x)
  return type(x) == "table" and getmetatable(x) == nil
    and (x.output_gradients ~= nil or x.unconnected_gradients ~= nil)
end

-- TF's dict of output_gradients in their positional place
-- (tape:gradient({a = y0, b = y1}, x, {a = 2.0, b = 10.0})) is a table
-- keyed by names, as an options table is: it is the weights unless a key
-- is, or nearly is, an option's name (then the options checker speaks).
local GRADIENT_OPTIONS = { "output_gradients", "unconnected_gradients" }

--- Whether w, given where output_gradients go, is TF's dict of them.
function args.keyed_weights(w)
  if type(w) ~= "table" or getmetatable(w) ~= nil or w[1] ~= nil or next(w) == nil then return false end
  for k in pairs(w) do
    if type(k) ~= "string" or options.suggest(k, GRADIENT_OPTIONS) then return false end
  end
  return true
end

local UNCONNECTED = { none = "none", zero = "zero" }

--- unconnected_gradients= as a mode, "none" or "zero" (TF's enum values).
function args.unconnected_mode(value)
  if value == nil then return "none" end
  local mode = type(value) == "string" and UNCONNECTED[value:lower()]
  if not mode then
    raise("ValueError", ("Unknown value for unconnected_gradients: '%s'"):format(tostring(value)), 4)
  end
  return mode
end

--- The one target of a Jacobian (TF's jacobian and batch_jacobian
--- differentiate one tensor): a tensor, or a variable's value.
function args.jacobian_target(target, what)
  if variables.is_variable(target) then return target:read_value() end
  if not core.is_tensor(target) then
    raise("TypeError", what .. " expects a target that is a tensor or a tf.Variable, got " .. describe(target)
      .. " (it differentiates one tensor: tf.stack a list of them, or take tape:gradient of a sum)", 3)
  end
  return target
end

return args
