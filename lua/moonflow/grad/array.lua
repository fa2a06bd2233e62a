-- array.lua — the gradients of the array ops (core/ops/ops_array.c):
-- splits, reversal and the index-tuple gathers and scatters, as TF's
-- array_grad.py. Rule conventions: rules.lua.

local core = require("moonflow.core")
local state = require("moonflow.state")
local ops = require("moonflow.ops")

local H = state.H
local op = core.op

local function gather_nd(params, indices) return op(H.GatherNd, nil, params, indices) end

local rules = {}

-- Split(split_dim, value) and SplitV(value, size_splits, split_dim): the
-- parts' gradients joined back along the axis.
rules.Split = function(n, dy) return { nil, ops.concat(dy, n.inputs[1]) } end
rules.SplitV = function(n, dy) return { ops.concat(dy, n.inputs[3]) } end
rules.ReverseV2 = function(n, dy) return { op(H.ReverseV2, nil, dy[1], n.inputs[2]) } end

-- GatherNd and ScatterNd are each other's gradient (TF's _GatherNdGrad,
-- _ScatterNdGrad).
rules.GatherNd = function(n, dy)
  local params, indices = n.inputs[1], n.inputs[2]
  return { op(H.ScatterNd, nil, indices, dy[1], ops.shape(params, core.dtype(indices))) }
end
rules.ScatterNd = function(n, dy) return { nil, gather_nd(dy[1], n.inputs[1]) } end
-- TensorScatterUpdate: the replaced entries give tensor no gradient;
-- updates get those entries of it (TF's _TensorScatterUpdateGrad).
rules.TensorScatterUpdate = function(n, dy)
  local indices, updates = n.inputs[2], n.inputs[3]
  return { op(H.TensorScatterUpdate, nil, dy[1], indices, ops.zeros_like(updates)), nil,
    gather_nd(dy[1], indices) }
end
rules.TensorScatterAdd = function(n, dy) return { dy[1], nil, gather_nd(dy[1], n.inputs[2]) } end

-- manip_grad.py _RollGrad: the gradient rolled back.
rules.Roll = function(n, dy)
  return { op(H.Roll, nil, dy[1], -n.inputs[2], n.inputs[3]) }
end
-- math_grad.py _SegmentSumGrad: each row takes its segment's gradient.
rules.SegmentSum = function(n, dy) return { ops.gather(dy[1], n.inputs[2]) } end
-- math_grad.py _AddNGrad: every input gets the gradient.
rules.AddN = function(n, dy)
  local out = {}
  for i = 1, #n.inputs do out[i] = dy[1] end
  return out
end

return rules
