-- array.lua — the array family (core/ops/ops_array.c): tf.split (Split /
-- SplitV), tf.reverse (ReverseV2), and the ops that address elements by
-- index tuples: tf.gather_nd (GatherNd; batch_dims composed as TF's
-- batch_gather_nd does), tf.scatter_nd, tf.tensor_scatter_nd_update and
-- tf.tensor_scatter_nd_add.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local common = require("moonflow.ops.common")
local core_ops = require("moonflow.ops.core")
local elementwise = require("moonflow.ops.elementwise")
local generate = require("moonflow.ops.generate")
local shape_ops = require("moonflow.ops.shape")
local join = require("moonflow.ops.join")
local index = require("moonflow.ops.index")
local reduce = require("moonflow.ops.reduce")
local raise = errors.raise

local op = core.op
local H = state.H
local op_def, static_shape = common.op_def, shapes.of
local to_tensor = core_ops.to_tensor
local int_list, slice_of = join.int_list, index.slice_of
local I32 = dtypes.int32

local M = {}

-- splits -------------------------------------------------------------------

M.split = op_def("Split", function(value, num_or_size_splits, axis, num, opts)
  axis = axis or 0
  local name = opts.name or "split"
  if math.type(num_or_size_splits) == "integer" then
    return { op(H.Split, { num_split = num_or_size_splits, name = name, _dtypes = { I32 } }, axis, value) }
  end
  if num_or_size_splits == nil then
    raise("TypeError", "tf.split: num_or_size_splits is required (an integer or a list of sizes)", 3)
  end
  local sizes = int_list(num_or_size_splits)
  if not core.is_tensor(sizes) then sizes = core_ops.constant(sizes, I32) end
  local sshape = static_shape(sizes)
  if sshape and #sshape == 0 then
    raise("ValueError", "Rank-0 tensors are not supported as the num_or_size_splits argument to split. "
      .. "Argument provided: " .. tostring(num_or_size_splits), 3)
  end
  if num == nil then
    if sshape and sshape[1] and sshape[1] >= 0 then num = sshape[1] end
    if num == nil then
      raise("ValueError", "Cannot infer argument `num` from shape "
        .. tostring(shapes.TensorShape(sshape)), 3)
    end
  end
  return { op(H.SplitV, { num_split = num, name = name, _dtypes = { nil, nil, I32 } }, value, sizes, axis) }
end, "tf.split(value, num_or_size_splits [, axis] [, num])",
"Here axis is 0-based (default 0) and the result a Lua list. With a list or vector of sizes instead of "
.. "a count (one size may be -1) it is op SplitV; num= gives the count when the sizes' length is unknown.",
{ required = 1, positional = { "num_or_size_splits", "axis", "num" }, "name" })

-- reversal -----------------------------------------------------------------

M.reverse = op_def("ReverseV2", function(tensor, axis, opts)
  if axis == nil then raise("TypeError", "tf.reverse: axis is required (a list of axes)", 3) end
  return op(H.ReverseV2, { name = opts.name or "ReverseV2", _dtypes = { nil, I32 } }, tensor, int_list(axis))
end, "tf.reverse(tensor, axis)",
"axis is a list of 0-based axes; negative ones count from the end.", { required = 1, positional = { "axis" }, "name" })

-- index tuples -------------------------------------------------------------

-- TF's batch_gather_nd: the batch dimensions become one, whose coordinate
-- is prepended to every index tuple, and come back afterwards.
local function batch_gather_nd(params, indices, batch_dims, name)
  local ri = #(static_shape(indices) or raise("ValueError",
    "tf.gather_nd: batch_dims needs indices of a known rank", 4))
  local rp = #(static_shape(params) or raise("ValueError",
    "tf.gather_nd: batch_dims needs params of a known rank", 4))
  if batch_dims < 0 or batch_dims >= ri or batch_dims >= rp then
    raise("ValueError", ("tf.gather_nd: batch_dims = %d must be less than rank(indices) = %d and "
      .. "rank(params) = %d"):format(batch_dims, ri, rp), 4)
  end
  local pshape, ishape = shape_ops.shape(params), shape_ops.shape(indices)
  local batch_shape = slice_of(pshape, 0, batch_dims)
  local batch = shape_ops.reshape(reduce.reduce_prod(batch_shape), { 1 })
  local flat_params = shape_ops.reshape(params, join.concat({ batch, slice_of(pshape, batch_dims, -1) }, 0))
  local flat_indices = shape_ops.reshape(indices, join.concat({ batch, slice_of(ishape, batch_dims, -1) }, 0))
  local ones = {}
  for i = 1, ri - batch_dims do ones[i] = 1 end
  local coord = shape_ops.reshape(elementwise.cast(generate.range(batch[0]), core.dtype(indices)),
    join.concat({ batch, core_ops.constant(ones, I32) }, 0))
  local grid = generate.broadcast_to(coord, join.concat({ slice_of(shape_ops.shape(flat_indices), 0, ri - batch_dims),
    core_ops.constant({ 1 }, I32) }, 0))
  local out = op(H.GatherNd, { name = name }, flat_params, join.concat({ grid, flat_indices }, -1))
  return shape_ops.reshape(out, join.concat({ batch_shape, slice_of(shape_ops.shape(out), 1, -1) }, 0))
end

M.gather_nd = op_def("GatherNd", function(params, indices, batch_dims, opts)
  batch_dims = batch_dims or 0
  if math.type(batch_dims) ~= "integer" then
    raise("TypeError", "tf.gather_nd: batch_dims must be an integer, got " .. tostring(batch_dims), 3)
  end
  params = to_tensor(params)
  indices = to_tensor(indices, I32)
  if batch_dims ~= 0 then return batch_gather_nd(params, indices, batch_dims, opts.name or "GatherNd") end
  return op(H.GatherNd, { name = opts.name or "GatherNd" }, params, indices)
end, "tf.gather_nd(params, indices [, batch_dims])",
"Tuples are 0-based; for tuples of length k the result has shape indices.shape[:-1] + params.shape[k:]. "
.. "Out-of-range tuples are an InvalidArgumentError, as on TF's CPU.",
{ required = 1, positional = { "indices", "batch_dims" }, "name" })

M.scatter_nd = op_def("ScatterNd", function(indices, updates, shape, opts)
  return op(H.ScatterNd, { name = opts.name or "ScatterNd", _dtypes = { I32, nil, I32 } },
    indices, updates, int_list(shape))
end, "tf.scatter_nd(indices, updates, shape)",
"Index tuples are 0-based.", { required = 1, positional = { "updates", "shape" }, "name" })

local function tensor_scatter(opname, tfname, text)
  return op_def(opname, function(tensor, indices, updates, opts)
    return op(H[opname], { name = opts.name or opname, _typed = 5, _dtypes = { nil, I32 } },
      tensor, indices, updates)
  end, tfname .. "(tensor, indices, updates)", text, { required = 1, positional = { "indices", "updates" }, "name" })
end
M.tensor_scatter_nd_update = tensor_scatter("TensorScatterUpdate", "tf.tensor_scatter_nd_update",
  "Index tuples are 0-based.")
M.tensor_scatter_nd_add = tensor_scatter("TensorScatterAdd", "tf.tensor_scatter_nd_add",
  "Index tuples are 0-based.")

M.namespaces = {
  tf = { "split", "reverse", "gather_nd", "scatter_nd", "tensor_scatter_nd_update", "tensor_scatter_nd_add" },
}

return M
