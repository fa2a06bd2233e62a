-- gradient_rules_array.lua — the gradients of the array ops of issue #17
-- (ops_array.c, ops_sort.c), TF's rules (array_grad.py, math_grad.py,
-- nn_grad.py) written in ops. gradient_rules.lua calls install(rules) so
-- the one rule table holds them; the same conventions apply: rule(node,
-- dys, present) -> {dx per input}, missing output gradients are zeros.

local core = require("moonflow.core")
local state = require("moonflow.state")
local dtypes = require("moonflow.tensor.dtypes")
local ops = require("moonflow.ops")

local H = state.H
local op = core.op

local function gather_nd(params, indices) return op(H.GatherNd, nil, params, indices) end

-- TF's div_no_nan: 0 where the divisor is 0.
local function div_no_nan(x, y)
  local zero = ops.equal(y, 0)
  local safe = ops.where(zero, ops.ones_like(y), y)
  return ops.where(zero, ops.zeros_like(x), x / safe)
end

local function install(rules)
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

  -- UnsortedSegmentSum: each row gets its segment's gradient; rows with a
  -- negative id were dropped and get zeros (TF's _GatherDropNegatives).
  rules.UnsortedSegmentSum = function(n, dy)
    local ids = n.inputs[2]
    local clipped = ops.maximum(ids, ops.zeros_like(ids))
    local gathered = ops.gather(dy[1], clipped)
    local keep = ops.greater_equal(ids, 0)
    local gshape = ops.shape(gathered)
    local ones = ops.ones(ops.reshape(ops.rank(gathered) - ops.rank(keep), { 1 }), dtypes.int32)
    keep = ops.reshape(keep, ops.concat({ ops.shape(keep), ones }, 0))
    keep = ops.logical_and(keep, ops.fill(gshape, true))
    return { ops.where(keep, gathered, ops.zeros_like(gathered)) }
  end
end

return { install = install }
