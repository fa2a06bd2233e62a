-- errors.lua — tf.errors: the type names of moonflow's error objects (the
-- binding's one list, core.error_names, which C raises from too), and the
-- one `raise` every Lua module reports errors with.

local core = require("moonflow.core")
local doc = require("moonflow.doc")

local errors = {}
for _, name in ipairs(core.error_names) do errors[name] = name end

--- Raises an error object of `type` with `message` at `level`.
errors.raise = doc.def(function(type_, message, level)
  for _, arg in ipairs({ { "type", type_ }, { "message", message } }) do
    if type(arg[2]) ~= "string" then
      error(core.error("TypeError", ("tf.errors.raise: argument '%s' must be a string, got %s")
        :format(arg[1], tostring(arg[2]))), 2)
    end
  end
  error(core.error(type_, message), (math.type(level) == "integer" and level or 1) + 1)
end, "tf.errors.raise(type, message [, level])",
"Raises a moonflow error object {type=, message=}; tostring gives 'type: message'.")

--- True when `v` is a moonflow error object (of `type_`, when given).
errors.is = doc.def(function(v, type_)
  return core.is_error(v) and (type_ == nil or v.type == type_)
end, "tf.errors.is(value [, type])",
"True when value is a moonflow error object, of the given type name when one is given.")

return errors
