-- join.lua — the gradients of the joining ops (core/ops/ops_join.c): a
-- concatenation's gradient is sliced back into its parts, a stack's
-- unstacked and an unstack's stacked (array_grad.py). Rule conventions:
-- rules.lua.

local dtypes = require("moonflow.tensor.dtypes")
local ops = require("moonflow.ops")

local rules = {}

rules.ConcatV2 = function(n, dy)
  local nvals = #n.inputs - 1
  local axis = n.inputs[nvals + 1]
  local rank = ops.rank(n.inputs[1])
  local a = ops.floormod(ops.cast(axis, dtypes.int32), rank)
  local grads = {}
  local offset = ops.zeros({ 1 }, dtypes.int32)
  local onehot = ops.one_hot(a, rank, { dtype = dtypes.int32 })
  for i = 1, nvals do
    local size = ops.shape(n.inputs[i])
    local begin = ops.reshape(offset, { 1 }) * onehot
    grads[i] = ops.slice(dy[1], begin, size)
    offset = offset + ops.gather(size, a)
  end
  return grads
end
rules.Pack = function(n, dy)
  local axis = n.attrs and n.attrs.axis or 0
  return ops.unstack(dy[1], { axis = axis, num = #n.inputs })
end
rules.Unpack = function(n, dy)
  local axis = n.attrs and n.attrs.axis or 0
  return { ops.stack(dy, axis) }
end

return rules
