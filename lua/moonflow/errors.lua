-- errors.lua — tf.errors: the type names of moonflow's error objects, and
-- tf.errors.raise for Lua code that reports errors the same way.

local core = require("moonflow.core")

local names = {
  "TypeError", "ValueError", "InvalidArgumentError", "OutOfRangeError",
  "ResourceExhaustedError", "InterruptedError", "NotFoundError",
  "FailedPreconditionError", "UnimplementedError", "InternalError", "UsageError",
}

return function(tf, doc)
local errors = {}
for _, n in ipairs(names) do errors[n] = n end

--- Raises an error object of `type` with `message` at `level`.
errors.raise = doc.def(function(type_, message, level)
  error(core.error(type_, message), (level or 1) + 1)
end, "tf.errors.raise(type, message [, level])",
"Raises a moonflow error object {type=, message=}; tostring gives 'type: message'.")

--- True when `v` is a moonflow error object (of `type_`, when given).
errors.is = doc.def(function(v, type_)
  return core.is_error(v) and (type_ == nil or v.type == type_)
end, "tf.errors.is(value [, type])",
"True when value is a moonflow error object, of the given type name when one is given.")

tf.errors = errors
end
