-- index.lua — the index family (core/ops/ops_index.c): elements picked by
-- position: tf.slice, tf.strided_slice, tf.gather (GatherV2),
-- tf.one_hot, tf.math.unsorted_segment_sum, and tf.boolean_mask, which
-- TF's Python builds on Where, GatherV2 and Reshape.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local options = require("moonflow.options")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local common = require("moonflow.ops.common")
local core_ops = require("moonflow.ops.core")
local shape_ops = require("moonflow.ops.shape")
local join = require("moonflow.ops.join")
local reduce = require("moonflow.ops.reduce")
local dispatch = require("moonflow.tensor.dispatch")
local raise = errors.raise

local op = core.op
local H = state.H
local op_def, shape_of = common.op_def, shapes.of
local to_tensor = core_ops.to_tensor
local int_list = join.int_list
local I32 = dtypes.int32

local M = {}

M.slice = op_def("Slice", function(x, begin, size, opts)
  return op(H.Slice, { _dtypes = { nil, I32, I32 }, name = opts.name }, x, int_list(begin),
    int_list(size))
end, "tf.slice(x, begin, size)", "begin is 0-based.", { required = 1, positional = { "begin", "size" }, "name" })

M.strided_slice = op_def("StridedSlice", function(x, begin, end_, strides, opts)
  if strides == nil then
    if not core.is_tensor(begin) and type(begin) ~= "table" then
      raise("TypeError", "tf.strided_slice: begin must be a list or a tensor of integers, got a "
        .. type(begin), 2)
    end
    strides = {}
    local n = #begin
    for i = 1, n do strides[i] = 1 end
  end
  return op(H.StridedSlice, {
    begin_mask = opts.begin_mask or 0, end_mask = opts.end_mask or 0,
    ellipsis_mask = opts.ellipsis_mask or 0, new_axis_mask = opts.new_axis_mask or 0,
    shrink_axis_mask = opts.shrink_axis_mask or 0, name = opts.name or "strided_slice",
    _dtypes = { nil, I32, I32, I32 },
  }, x, int_list(begin), int_list(end_), int_list(strides))
end, "tf.strided_slice(x, begin, end [, strides] [, {begin_mask=, end_mask=, ...}])",
"Explicit bounds, 0-based; strides default to 1.",
{ required = 1, positional = { "begin", "end", "strides" }, "begin_mask", "end_mask", "ellipsis_mask",
  "new_axis_mask", "shrink_axis_mask", "name" })

-- TF's third positional argument is the deprecated validate_indices;
-- moonflow takes axis there (and as {axis=}).
-- As TF's array_ops.gather, axis defaults to batch_dims (the first axis
-- after the batch axes), not 0.
M.gather = op_def("GatherV2", function(params, indices, axis, batch_dims, opts)
  batch_dims = batch_dims or 0
  if axis == nil then axis = batch_dims end
  return op(H.GatherV2, { batch_dims = batch_dims, name = opts.name or "GatherV2" },
    params, indices, axis)
end, "tf.gather(params, indices [, axis] [, batch_dims] [, {name=}])",
"axis defaults to batch_dims, the first axis after the batch axes.",
{ required = 1, positional = { "indices", "axis", "batch_dims" }, "name" })

M.unsorted_segment_sum = op_def("UnsortedSegmentSum", function(data, segment_ids, num_segments, opts)
  return op(H.UnsortedSegmentSum, { name = opts.name }, data, segment_ids, num_segments)
end, "tf.math.unsorted_segment_sum(data, segment_ids, num_segments)", nil,
{ required = 1, positional = { "segment_ids", "num_segments" }, "name" })

--- shape_vec[from : from + count] (count -1: to the end); library-internal.
function M.slice_of(shape_vec, from, count)
  return M.slice(shape_vec, { from }, { count })
end
local slice_of = M.slice_of

-- boolean_mask -------------------------------------------------------------

local function compatible(a, b)
  if #a ~= #b then return false end
  for i = 1, #a do
    if a[i] >= 0 and b[i] >= 0 and a[i] ~= b[i] then return false end
  end
  return true
end

M.boolean_mask = options.def(function(tensor, mask, axis, opts)
  if dispatch.is_ragged(tensor) or dispatch.is_ragged(mask) then return dispatch.boolean_mask(tensor, mask, axis) end
  tensor = to_tensor(tensor)
  mask = to_tensor(mask, dtypes.bool)
  local mshape = shape_of(mask)
  if mshape == nil then
    raise("ValueError", "Number of mask dimensions must be specified, even if some dimensions are None.  "
      .. "E.g. shape=[None] is ok, but shape=None is not.", 3)
  end
  local nd = #mshape
  if nd == 0 then raise("ValueError", "mask cannot be scalar.", 3) end
  axis = axis or 0
  -- TF takes the axis's constant value when it has one; a traced axis
  -- stays a tensor and the shapes are cut at run time.
  if core.is_tensor(axis) and not core.is_symbolic(axis) then axis = axis:numpy() end
  if math.type(axis) ~= "integer" and not core.is_tensor(axis) then
    raise("TypeError", "tf.boolean_mask: axis must be an integer, got " .. tostring(axis), 3)
  end
  local tshape = shape_of(tensor)
  if tshape and not core.is_tensor(axis) then
    if axis < 0 then axis = axis + #tshape end
    local part = table.move(tshape, axis + 1, math.min(axis + nd, #tshape), 1, {})
    if not compatible(part, mshape) then
      raise("ValueError", ("Shapes %s and %s are incompatible"):format(tostring(shapes.TensorShape(part)),
        tostring(shapes.TensorShape(mshape))), 3)
    end
  end
  local s = shape_ops.shape(tensor)
  local leading = shape_ops.reshape(reduce.reduce_prod(slice_of(s, axis, nd), { 0 }), { 1 })
  local reshaped = shape_ops.reshape(tensor, join.concat({ slice_of(s, 0, axis), leading,
    slice_of(s, axis + nd, -1) }, 0))
  local indices = shape_ops.squeeze(op(H.Where, nil, shape_ops.reshape(mask, { -1 })), { 1 })
  return M.gather(reshaped, indices, axis, { name = opts.name or "boolean_mask" })
end, "tf.boolean_mask(tensor, mask [, axis])",
"The entries of tensor where mask (a bool tensor over axes axis..axis+rank(mask)-1) is true, "
.. "flattened over the masked axes; composed as TF does (Where, GatherV2, Reshape). axis may be a "
.. "scalar int tensor.",
{ required = 1, positional = { "mask", "axis" }, "name" })

-- one_hot --------------------------------------------------------------------

-- The dtype a value takes when a tensor is made of it with `hint` as
-- TF's dtype_hint: `hint` if it converts to it, else its own. Lua values
-- convert eagerly (core.convert: a Const node in a trace would go unused);
-- a variable gives its dtype unread, as a read would add a node too.
local function hinted_dtype(v, hint)
  if core.is_tensor(v) then return core.dtype(v) end
  local mt = getmetatable(v)
  if mt and mt.__tf_tensor then return v.dtype end
  local convert = type(v) == "table" and to_tensor or core.convert
  local ok, converted = pcall(convert, v, hint)
  if not ok then converted = convert(v) end
  return core.dtype(converted)
end

-- As TF's array_ops.one_hot: the result's dtype is `dtype`, else the
-- dtype of on_value or off_value (whichever is given, converted with
-- dtype as a hint), else float32; given values of another dtype are a
-- TypeError before any op is built.
local function one_hot_dtype(on_value, off_value, dtype)
  local on_dtype = on_value ~= nil and hinted_dtype(on_value, dtype) or nil
  local off_dtype = off_value ~= nil and hinted_dtype(off_value, dtype) or nil
  if on_dtype or off_dtype then
    if dtype then
      if on_dtype and on_dtype ~= dtype then
        raise("TypeError", ("dtype %s of on_value does not match dtype parameter %s")
          :format(on_dtype.name, dtype.name), 3)
      end
      if off_dtype and off_dtype ~= dtype then
        raise("TypeError", ("dtype %s of off_value does not match dtype parameter %s")
          :format(off_dtype.name, dtype.name), 3)
      end
    else
      dtype = on_dtype or off_dtype
    end
  else
    dtype = dtype or dtypes.float32
  end
  on_dtype, off_dtype = on_dtype or dtype, off_dtype or dtype
  if on_dtype ~= off_dtype then
    raise("TypeError", ("dtype %s of on_value does not match dtype %s of off_value")
      :format(on_dtype.name, off_dtype.name), 3)
  end
  return dtype
end

M.one_hot = op_def("OneHot", function(indices, depth, on_value, off_value, axis, dtype, opts)
  dtype = one_hot_dtype(on_value, off_value, dtype and dtypes.as_dtype(dtype))
  -- `false or 1` would lose a false on_value; TF casts the defaults 1 and 0
  -- to dtype (true and false for bool)
  local on, off = on_value, off_value
  if on == nil then on = 1 end
  if off == nil then off = 0 end
  if dtype == dtypes.bool then
    if on_value == nil then on = true end
    if off_value == nil then off = false end
  end
  return op(H.OneHot, { axis = axis or -1, name = opts.name, _dtypes = { nil, I32, dtype, dtype } },
    indices, depth, on, off)
end, "tf.one_hot(indices, depth [, {on_value=, off_value=, axis=, dtype=, name=}])",
"indices are 0-based; out-of-range ones give all off_value. on_value and off_value default to 1 and 0; "
.. "the dtype is dtype, else on_value's or off_value's, else float32.",
{ required = 1, positional = { "depth", "on_value", "off_value", "axis", "dtype" }, "name" })

M.namespaces = {
  tf = { "slice", "strided_slice", "gather", "boolean_mask", "one_hot" },
  math = { "unsorted_segment_sum" },
  lib = { "slice_of" },
}

return M
