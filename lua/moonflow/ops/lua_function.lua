-- lua_function.lua — tf.lua_function, the escape hatch (TF's
-- py_function): an op that calls a Lua function each time the graph runs.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local doc = require("moonflow.doc")
local options = require("moonflow.options")
local dtypes = require("moonflow.tensor.dtypes")
local ops = require("moonflow.ops.ops")
local raise = errors.raise

local lua_function = {}

local H = state.H

lua_function.lua_function = options.def(function(fn, inputs, Tout, opts)
  if type(fn) ~= "function" then
    raise("TypeError", "tf.lua_function expects a Lua function", 1)
  end
  if inputs ~= nil and type(inputs) ~= "table" then
    raise("TypeError", "tf.lua_function: inputs must be a Lua list of tensors, got a " .. type(inputs), 1)
  end
  local single = getmetatable(Tout) == core.dtype_metatable
  if not single and Tout ~= nil and type(Tout) ~= "table" then
    raise("TypeError", "tf.lua_function: Tout must be a dtype or a Lua list of dtypes, got " .. tostring(Tout), 1)
  end
  local touts = single and { Tout } or Tout or {}
  local types = {}
  for i, t in ipairs(touts) do types[i] = dtypes.as_dtype(t) end
  local args = {}
  for i = 1, #(inputs or {}) do args[i] = ops.to_tensor(inputs[i]) end
  local outs = table.pack(core.op(H.EagerLuaFunc, { func = fn, Tout = types,
    name = opts.name or "EagerLuaFunc" }, table.unpack(args)))
  if single then return outs[1] end
  return table.unpack(outs, 1, outs.n)
end, "tf.lua_function(fn, inputs, Tout)",
"An op that calls fn(tensors...) eagerly each time it runs, even inside a traced function "
.. "(TF's py_function). Tout is a dtype (one result) or a list of dtypes.", { required = 3, "name" })

return lua_function
