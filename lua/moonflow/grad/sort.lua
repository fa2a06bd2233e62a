-- sort.lua — the gradients of the ordering ops (core/ops/ops_sort.c):
-- top-k and the scans, as TF's nn_grad.py and math_grad.py. Rule
-- conventions: rules.lua.

local core = require("moonflow.core")
local state = require("moonflow.state")
local ops = require("moonflow.ops")

local H = state.H
local op = core.op

-- TF's div_no_nan: 0 where the divisor is 0.
local function div_no_nan(x, y)
  local zero = ops.equal(y, 0)
  local safe = ops.where(zero, ops.ones_like(y), y)
  return ops.where(zero, ops.zeros_like(x), x / safe)
end

local rules = {}

-- TopKV2: the values' gradient goes back to the positions they came from
-- (TF's _TopKGrad: one scatter over the flattened input).
rules.TopKV2 = function(n, dy)
  local x, idx = n.inputs[1], n.outputs[2]
  local in_shape = ops.shape(x)
  local cols = in_shape[-1]
  local k = ops.shape(idx)[-1]
  local rows2d = ops.reshape(idx, ops.stack({ -1, k }))
  local offsets = ops.expand_dims(ops.range(ops.shape(rows2d)[0]) * cols, -1)
  local flat = ops.reshape(rows2d + offsets, { -1 })
  local g = op(H.ScatterNd, nil, ops.expand_dims(flat, -1), ops.reshape(dy[1], { -1 }),
    ops.reshape(ops.reduce_prod(in_shape), { 1 }))
  return { ops.reshape(g, in_shape) }
end

-- Scans: a cumsum's gradient is the cumsum the other way; a cumprod's is
-- TF's _CumprodGrad (cumsum of prod * dy the other way, over x, with 0
-- where x is 0).
local function scan_attrs(n, flip)
  local a = n.attrs or {}
  local reverse = a.reverse or false
  if flip then reverse = not reverse end
  return { exclusive = a.exclusive or false, reverse = reverse }
end
rules.Cumsum = function(n, dy)
  return { op(H.Cumsum, scan_attrs(n, true), dy[1], n.inputs[2]) }
end
rules.Cumprod = function(n, dy)
  local x, axis = n.inputs[1], n.inputs[2]
  local prod = op(H.Cumprod, scan_attrs(n, false), x, axis)
  local out = op(H.Cumsum, scan_attrs(n, true), prod * dy[1], axis)
  return { div_no_nan(out, x) }
end

return rules
