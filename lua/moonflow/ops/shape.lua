-- shape.lua — the shape family (core/ops/ops_shape.c): a tensor's shape,
-- size and rank, and the ops that rearrange its dimensions: tf.reshape,
-- tf.transpose, tf.expand_dims, tf.squeeze, tf.tile.

local core = require("moonflow.core")
local state = require("moonflow.state")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local common = require("moonflow.ops.common")
local core_ops = require("moonflow.ops.core")
local elementwise = require("moonflow.ops.elementwise")
local generate = require("moonflow.ops.generate")
local dispatch = require("moonflow.tensor.dispatch")

local op = core.op
local H = state.H
local op_def, name_opt = common.op_def, common.name_opt
local to_tensor, shape_arg = core_ops.to_tensor, core_ops.shape_arg
local rank_of = shapes.rank
local I32 = dtypes.int32

local M = {}

M.shape = op_def("Shape", function(x, out_type, opts)
  return op(H.Shape, { out_type = out_type and dtypes.as_dtype(out_type) or dtypes.int32, name = opts.name }, x)
end, "tf.shape(x [, out_type])", "Its values are known only when the graph runs (x.shape is the static one).",
{ required = 1, positional = { "out_type" }, "name" })
M.size = op_def("Size", function(x, out_type, opts)
  return op(H.Size, { out_type = out_type and dtypes.as_dtype(out_type) or dtypes.int32, name = opts.name }, x)
end, "tf.size(x [, out_type])", "int32 unless out_type says otherwise.",
{ required = 1, positional = { "out_type" }, "name" })
M.rank = op_def("Rank", function(x, opts) return op(H.Rank, { name = opts.name }, x) end, "tf.rank(x)",
  nil, { required = 1, "name" })

M.reshape = op_def("Reshape", function(x, shape, opts)
  return op(H.Reshape, { _dtypes = { nil, I32 }, name = opts.name }, x, shape_arg(shape))
end, "tf.reshape(x, shape)", "shape is a Lua list, a TensorShape or an int32 vector.",
{ required = 1, positional = { "shape" }, "name" })

M.transpose = op_def("Transpose", function(x, perm, opts)
  x = to_tensor(x)
  if perm == nil then
    local r = rank_of(x)
    if not r then
      local rk = M.rank(x)
      perm = elementwise.subtract(elementwise.subtract(rk, 1), generate.range(rk))
    else
      perm = {}
      for i = r - 1, 0, -1 do perm[#perm + 1] = i end
    end
  end
  return op(H.Transpose, { _dtypes = { nil, I32 }, name = opts.name }, x, perm)
end, "tf.transpose(x [, perm])", "perm (0-based) reverses the axes by default.",
{ required = 1, positional = { "perm" }, "name" })

M.expand_dims = op_def("ExpandDims", function(x, axis, opts)
  return op(H.ExpandDims, name_opt(opts), x, axis)
end, "tf.expand_dims(x, axis)", "axis is 0-based.",
{ required = 1, positional = { "axis" }, via = { name_opt }, "name" })

M.squeeze = op_def("Squeeze", function(x, axis, opts)
  if type(axis) == "number" then axis = { axis } end
  return op(H.Squeeze, { squeeze_dims = axis or {}, name = opts.name }, x)
end, "tf.squeeze(x [, axis])", "axis: a 0-based axis or a list of them.",
{ required = 1, positional = { "axis" }, "name" })

M.tile = op_def("Tile", function(x, multiples, opts)
  if type(x) == "table" and dispatch.is_ragged(x) then return dispatch.tile(x, multiples) end
  return op(H.Tile, { _dtypes = { nil, I32 }, name = opts.name }, x, shape_arg(multiples))
end, "tf.tile(x, multiples)", nil, { required = 1, positional = { "multiples" }, "name" })

M.namespaces = {
  tf = { "shape", "size", "rank", "reshape", "transpose", "expand_dims", "squeeze", "tile" },
}

return M
