-- layer_util.lua — what the Keras layers of layers_core.lua and
-- layers_rnn.lua share on top of base_layer.Layer: `named` for the name
-- and trainable options, `spec` for a constructor's declaration, weights
-- kept as fields, Keras's ndim check and call options.

local errors = require("moonflow.errors")
local shapes = require("moonflow.tensor.shape")
local initializers = require("moonflow.keras.initializers")
local raise = errors.raise

local util = {}

--- A weight made by the layer's add_weight (under its name scope, as
--- Keras names it: conv1d/kernel:0, lstm/lstm_cell/kernel:0), kept in
--- layer[field] too.
function util.add_weight(layer, field, shape, init, trainable, path)
  local v = layer:add_weight({ name = path or field, shape = shape, initializer = init,
    trainable = trainable ~= false })
  layer[field] = v
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

--- A layer's initializer option: keras/initializers.lua's, by Keras's
--- name or as an object or function; `default` (a name) when absent.
function util.initializer(init, default)
  if init == nil then init = default end
  return initializers.get(init)
end

--- A convolution's padding, lower case, checked at construction as
--- Keras's conv_utils.normalize_padding and its Conv base check it
--- ("causal" is for Conv1D only). Absent: "valid".
function util.padding(value, class_name)
  if value == nil then return "valid" end
  local p = type(value) == "string" and value:lower() or tostring(value)
  if p ~= "valid" and p ~= "same" and p ~= "causal" then
    raise("ValueError", ('The `padding` argument must be a list/tuple or one of "valid", "same" (or "causal", '
      .. "only for `Conv1D). Received: %s"):format(p), 4)
  end
  if p == "causal" and class_name ~= "Conv1D" then
    raise("ValueError", "Causal padding is only supported for `Conv1D` and `SeparableConv1D`.", 4)
  end
  return p
end

--- Keras's input_spec check: "Input 0 of layer ... is incompatible" (x a
--- tensor or, in build, a TensorShape).
function util.check_ndim(layer, x, want, at_least)
  local dims = (getmetatable(x) == shapes.Shape and x or x.shape):as_list()
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
