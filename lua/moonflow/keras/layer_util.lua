-- layer_util.lua — what the Keras layers of layers_core.lua and
-- layers_rnn.lua share, written as layers.lua's helpers are (a layer's
-- `_weights` in creation order, `named` for the name and trainable
-- options, `spec` for a constructor's declaration, Keras's training flag),
-- so that moving every layer onto one base class treats them alike.

local errors = require("moonflow.errors")
local dtypes = require("moonflow.tensor.dtypes")
local variables = require("moonflow.tensor.variable")
local initializers = require("moonflow.keras.initializers")
local raise = errors.raise

local util = {}

--- A weight made by init(shape), kept in layer[field] and in the layer's
--- `_weights`; its variable is named layer.name .. "/" .. (path or field).
function util.add_weight(layer, field, shape, init, trainable, path)
  local v = variables.Variable(function() return init(shape, dtypes.float32) end,
    { name = layer.name .. "/" .. (path or field), trainable = trainable ~= false and layer.trainable })
  layer[field] = v
  layer._weights[#layer._weights + 1] = v
  return v
end

function util.named(self, opts)
  if opts.name then self.name = opts.name end
  self.trainable = opts.trainable ~= false
  self._weights = {}
end

--- A layer's declaration: its positional options, its own keywords, then
--- trainable and name.
function util.spec(positional, ...)
  local s = { positional = positional, via = { util.named } }
  for _, n in ipairs({ ... }) do s[#s + 1] = n end
  s[#s + 1] = "trainable"
  s[#s + 1] = "name"
  return s
end

function util.initializer(init, default)
  if init == nil then init = default end
  return initializers.get(init)
end

--- Keras's input_spec check: "Input 0 of layer ... is incompatible".
function util.check_ndim(layer, x, want, at_least)
  local dims = x.shape:as_list()
  local ok = at_least and #dims >= want or #dims == want
  if not ok then
    local parts = {}
    for i, d in ipairs(dims) do parts[i] = d == nil and "None" or tostring(d) end
    local shape = #parts == 1 and "(" .. parts[1] .. ",)" or "(" .. table.concat(parts, ", ") .. ")"
    raise("ValueError", ('Input 0 of layer "%s" is incompatible with the layer: expected %s=%d, found ndim=%d. '
      .. "Full shape received: %s"):format(layer.name, at_least and "min_ndim" or "ndim", want, #dims, shape), 3)
  end
  return dims
end

--- Keras's training argument: layer(x, true) or layer(x, {training = true}).
function util.call_options(arg, what, accepted)
  if type(arg) == "table" and getmetatable(arg) == nil then
    for k in pairs(arg) do
      if not accepted[k] then
        local names = {}
        for n in pairs(accepted) do names[#names + 1] = n end
        table.sort(names)
        raise("TypeError", ("%s got an unexpected keyword argument '%s'. Accepted options: %s.")
          :format(what, tostring(k), table.concat(names, ", ")), 3)
      end
    end
    return arg
  end
  if arg ~= nil and type(arg) ~= "boolean" then
    raise("TypeError", what .. ": training must be a boolean, got a " .. type(arg), 3)
  end
  return { training = arg }
end

return util
