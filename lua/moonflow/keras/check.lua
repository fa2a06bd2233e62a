-- check.lua — the argument checks of the Keras parts (initializers,
-- losses, metrics, optimizers, layers): an argument of the wrong kind is a
-- TypeError naming the function and the argument (argcheck.lua's words),
-- never a Lua error from inside the library. nil passes: it means the
-- argument's default.

local argcheck = require("moonflow.argcheck")
local shapes = require("moonflow.tensor.shape")

local check = {}

function check.number(v, fname, argname)
  if v ~= nil and type(v) ~= "number" then argcheck.fail(fname, argname, "a number", v, 2) end
  return v
end

function check.integer(v, fname, argname)
  if v ~= nil and math.type(v) ~= "integer" then argcheck.fail(fname, argname, "an integer", v, 2) end
  return v
end

function check.boolean(v, fname, argname)
  if v ~= nil and type(v) ~= "boolean" then argcheck.fail(fname, argname, "a boolean", v, 2) end
  return v
end

function check.string(v, fname, argname)
  if v ~= nil and type(v) ~= "string" then argcheck.fail(fname, argname, "a string", v, 2) end
  return v
end

--- A weight's shape: a list of non-negative integers or a TensorShape
--- fully known; returned as a Lua list.
function check.shape(shape, fname)
  if getmetatable(shape) == shapes.Shape then shape = shape:as_list() end
  local ok = type(shape) == "table" and getmetatable(shape) == nil
  for _, d in ipairs(ok and shape or {}) do
    if math.type(d) ~= "integer" or d < 0 then ok = false end
  end
  if ok and next(shape) ~= nil and #shape == 0 then ok = false end
  if not ok then argcheck.fail(fname, "shape", "a list of non-negative integers", shape, 2) end
  return shape
end

return check
