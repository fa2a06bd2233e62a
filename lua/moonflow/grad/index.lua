-- index.lua — the gradients of the indexing ops (core/ops/ops_index.c):
-- a selection's gradient goes back to the positions it took, a segment
-- sum's to the rows of each segment (array_grad.py, math_grad.py). Rule
-- conventions: rules.lua.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local ops = require("moonflow.ops")
local helpers = require("moonflow.grad.helpers")
local raise = errors.raise

local H = state.H
local op = core.op
local as_shape_of = helpers.as_shape_of
local dtype_of = core.dtype

local rules = {}

-- Gradients of selections scatter back through the flat positions the
-- selection took: one rule for Slice, StridedSlice and GatherV2.
local function scatter_back(x, select, g)
  local size = ops.size(x)
  local positions = ops.reshape(ops.range(size), ops.shape(x))
  local taken = select(positions)
  local flat = op(H.UnsortedSegmentSum, nil, ops.reshape(g, { -1 }), ops.reshape(taken, { -1 }), size)
  return as_shape_of(flat, x)
end
-- array_grad.py _SliceGrad: dy padded back to the input's shape, begin
-- zeros before and the rest after each axis.
rules.Slice = function(n, dy)
  local x, begin = n.inputs[1], n.inputs[2]
  local index_dtype = dtype_of(begin)
  local slice_size = ops.shape(n.outputs[1], index_dtype)
  local shape = ops.stack({ ops.rank(x), 1 })
  local before_pad = ops.reshape(begin, shape)
  local after_pad = ops.reshape(ops.shape(x, index_dtype) - slice_size - begin, shape)
  return { ops.pad(dy[1], ops.concat({ before_pad, after_pad }, 1)) }
end
rules.StridedSlice = function(n, dy)
  local a = n.attrs or {}
  local begin, end_, strides = n.inputs[2], n.inputs[3], n.inputs[4]
  return { scatter_back(n.inputs[1], function(p)
    return op(H.StridedSlice, { begin_mask = a.begin_mask or 0, end_mask = a.end_mask or 0,
      ellipsis_mask = a.ellipsis_mask or 0, new_axis_mask = a.new_axis_mask or 0,
      shrink_axis_mask = a.shrink_axis_mask or 0 }, p, begin, end_, strides)
  end, dy[1]) }
end
rules.GatherV2 = function(n, dy)
  local indices, axis = n.inputs[2], n.inputs[3]
  local batch_dims = n.attrs and n.attrs.batch_dims or 0
  -- As array_grad.py _GatherV2Grad, which resolves a negative batch_dims
  -- against the indices' static rank.
  if batch_dims < 0 and shapes.rank(indices) == nil then
    raise("ValueError", ("Currently, it is unsupported to take the gradient of tf.gather when batch_dims < 0 "
      .. "and the rank of the indices is unknown. Please pass a positive batch_dims or use tf.ensure_shape "
      .. "to update the shape of indices when calling tf.gather. Got batch_dims=%d and indices=%s")
      :format(batch_dims, tostring(indices)), 3)
  end
  return { scatter_back(n.inputs[1], function(p)
    return op(H.GatherV2, { batch_dims = batch_dims }, p, indices, axis)
  end, dy[1]) }
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

return rules
