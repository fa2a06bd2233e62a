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
local options = require("moonflow.options")
local doc = require("moonflow.doc")
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

-- roll, unique, searchsorted, segments, counts, add_n ----------------------------

M.roll = op_def("Roll", function(input, shift, axis, opts)
  if shift == nil or axis == nil then raise("TypeError", "tf.roll: shift and axis are required", 3) end
  return op(H.Roll, { name = opts.name, _dtypes = { nil, I32, I32 } }, input, int_list(shift), int_list(axis))
end, "tf.roll(input, shift, axis)",
"shift and axis are integers or equal-length lists (0-based axes; shifts on one axis add up).",
{ required = 1, positional = { "shift", "axis" }, "name" })

M.unique = op_def("Unique", function(x, out_idx, opts)
  local out = out_idx and dtypes.as_dtype(out_idx) or I32
  return op(H.Unique, { out_idx = out, name = opts.name }, x)
end, "tf.unique(x [, out_idx])",
"Two results, y and idx (0-based, int32 unless out_idx says otherwise). x must be a vector.",
{ required = 1, positional = { "out_idx" }, "name" })

-- The last dimension of x: its static size, else read from its shape.
local function last_dim(x, fname)
  local s = static_shape(x)
  if s == nil then raise("ValueError", fname .. ": the rank of its inputs must be known", 4) end
  if #s == 0 then raise("ValueError", fname .. ": inputs must have rank >= 1", 4) end
  if s[#s] >= 0 then return s[#s] end
  return index.gather(shape_ops.shape(x), #s - 1)
end

M.searchsorted = op_def("LowerBound", function(sorted_sequence, values, side, out_type, opts)
  side = side or "left"
  if side ~= "left" and side ~= "right" then
    raise("ValueError", ("Argument `side` must be either 'right' or 'left'. Received: `side` = '%s'.")
      :format(tostring(side)), 3)
  end
  sorted_sequence, values = to_tensor(sorted_sequence), to_tensor(values)
  local seq2 = shape_ops.reshape(sorted_sequence, int_list({ -1, last_dim(sorted_sequence, "tf.searchsorted") }))
  local val2 = shape_ops.reshape(values, int_list({ -1, last_dim(values, "tf.searchsorted") }))
  local h = side == "right" and H.UpperBound or H.LowerBound
  local out = op(h, { out_type = out_type and dtypes.as_dtype(out_type) or I32 }, seq2, val2)
  return shape_ops.reshape(out, shape_ops.shape(values), { name = opts.name })
end, "tf.searchsorted(sorted_sequence, values [, side] [, out_type])",
"0-based insertion points of values into each innermost row of sorted_sequence: side 'left' (LowerBound, "
.. "the default) or 'right' (UpperBound); int32 unless out_type says otherwise.",
{ required = 2, positional = { "side", "out_type" }, "name" })

M.segment_sum = op_def("SegmentSum", function(data, segment_ids, opts)
  return op(H.SegmentSum, { name = opts.name }, data, segment_ids)
end, "tf.math.segment_sum(data, segment_ids)",
"segment_ids: sorted, 0-based, one per row of data; the result has (last id + 1) rows.",
{ required = 2, "name" })

-- bincount_ops.bincount: the size is max(arr) + 1 (0 for an empty arr),
-- raised to minlength and capped at maxlength; counts in dtype, or sums of
-- weights in theirs.
M.bincount = op_def("Bincount", function(arr, weights, minlength, maxlength, dtype, opts)
  -- bincount_ops: arr is converted as int32 (a Lua list, even an empty one)
  arr = core.is_tensor(arr) and arr or to_tensor(arr, I32)
  local adt = core.dtype(arr)
  if not adt.is_integer then
    raise("TypeError", ("tf.math.bincount: arr must be an integer tensor, got %s"):format(adt.name), 3)
  end
  if adt ~= I32 then arr = elementwise.cast(arr, I32) end
  local flat = shape_ops.reshape(arr, { -1 })
  local nonempty = elementwise.cast(elementwise.greater(reduce.reduce_prod(shape_ops.shape(arr)), 0), I32)
  local size = nonempty * (reduce.reduce_max(flat) + 1)
  if minlength ~= nil then size = elementwise.maximum(to_tensor(minlength, I32), size) end
  if maxlength ~= nil then size = elementwise.minimum(to_tensor(maxlength, I32), size) end
  local w
  if weights ~= nil then
    w = shape_ops.reshape(to_tensor(weights), { -1 })
  else
    w = core_ops.constant({}, dtype and dtypes.as_dtype(dtype) or I32)
  end
  return op(H.Bincount, { name = opts.name }, flat, size, w)
end, "tf.math.bincount(arr [, weights] [, minlength] [, maxlength] [, dtype])",
"Counts over [0, max(arr)] (at least minlength, at most maxlength bins; values beyond are left out), in "
.. "dtype (int32 by default), or the sums of weights in their dtype. Negative values are an "
.. "InvalidArgumentError.", { required = 1, positional = { "weights", "minlength", "maxlength", "dtype" }, "name" })

M.add_n = op_def("AddN", function(inputs, opts)
  if type(inputs) ~= "table" or getmetatable(inputs) ~= nil or #inputs == 0 then
    raise("ValueError", "Inputs must be an iterable of at least one Tensor/IndexedSlices with the same dtype "
      .. "and shape.", 3)
  end
  -- math_ops.add_n: one input is itself (an Identity when named).
  if #inputs == 1 then
    local x = to_tensor(inputs[1])
    return opts.name and core_ops.identity(x, { name = opts.name }) or x
  end
  local xs = {}
  for i = 1, #inputs do xs[i] = inputs[i] end
  local dt
  for _, x in ipairs(xs) do if core.is_tensor(x) then dt = core.dtype(x) break end end
  for i = 1, #xs do xs[i] = to_tensor(xs[i], dt) end
  return op(H.AddN, { name = opts.name }, table.unpack(xs))
end, "tf.add_n(inputs)", "inputs is a Lua list of tensors of one dtype and shape.", { required = 1, "name" })

-- array_ops.meshgrid: each input reshaped to its own axis, times ones of the
-- full shape; 'xy' indexing swaps the first two axes.
M.meshgrid = doc.def(function(...)
  local args = table.pack(...)
  local opts = {}
  local last = args[args.n]
  if type(last) == "table" and getmetatable(last) == nil and (last.indexing ~= nil or last.name ~= nil) then
    opts = last
    args.n = args.n - 1
  end
  local indexing = opts.indexing or "xy"
  if indexing ~= "xy" and indexing ~= "ij" then
    raise("ValueError", ("Argument `indexing` parameter must be either 'xy' or 'ij', got '%s'"):format(
      tostring(indexing)), 2)
  end
  local ndim = args.n
  local xs = {}
  for i = 1, ndim do xs[i] = to_tensor(args[i]) end
  local function ones_but(i, v)
    local s = {}
    for k = 1, ndim do s[k] = k == i and v or 1 end
    return s
  end
  local out, sizes = {}, {}
  for i = 1, ndim do
    out[i] = shape_ops.reshape(xs[i], ones_but(i, -1))
    sizes[i] = shape_ops.size(xs[i])
  end
  if indexing == "xy" and ndim > 1 then
    local s0, s1 = { 1, -1 }, { -1, 1 }
    for _ = 3, ndim do s0[#s0 + 1], s1[#s1 + 1] = 1, 1 end
    out[1], out[2] = shape_ops.reshape(out[1], s0), shape_ops.reshape(out[2], s1)
    sizes[1], sizes[2] = sizes[2], sizes[1]
  end
  if ndim == 0 then return end
  local mult = generate.ones(join.stack(sizes), core.dtype(xs[1]))
  for i = 1, ndim do out[i] = elementwise.multiply(out[i], mult) end
  return table.unpack(out, 1, ndim)
end, "tf.meshgrid(x1, x2, ... [, {indexing=}])",
"N-D coordinate grids from N vectors, one result each: 'xy' (Cartesian, the default) or 'ij' (matrix) "
.. "indexing, as TF's array_ops.meshgrid builds them.")

-- array_ops.repeat_with_axis: a scalar count tiles a new axis and folds it
-- in; a list of counts tiles to the largest and keeps, per element, as
-- many copies as its count (a sequence mask through boolean_mask).
M["repeat"] = options.def(function(input, repeats, axis, opts)
  local data = to_tensor(input)
  if axis == nil then
    data = shape_ops.reshape(data, { -1 })
    axis = 0
  end
  local rank = shapes.rank(data)
  if rank == nil then raise("ValueError", "tf.repeat: the rank of input must be known", 2) end
  if rank == 0 then
    data = shape_ops.reshape(data, { 1 })
    rank = 1
  end
  if math.type(axis) ~= "integer" or axis < -rank or axis >= rank then
    raise("ValueError", ("axis=%s out of bounds: expected %d<=axis<%d"):format(tostring(axis), -rank, rank), 2)
  end
  if axis < 0 then axis = axis + rank end
  repeats = to_tensor(repeats, I32)
  if core.dtype(repeats) ~= I32 then repeats = elementwise.cast(repeats, I32) end
  local data_shape = shape_ops.shape(data)
  local function dims(from, to) -- data_shape[from:to], 0-based, to exclusive
    if to <= from then return core_ops.constant({}, I32) end
    return index.slice(data_shape, { from }, { to - from })
  end
  local expanded = shape_ops.expand_dims(data, axis + 1)
  local function tile_axis(count)
    local m = {}
    for k = 0, rank do m[k + 1] = k == axis + 1 and count or 1 end
    return shape_ops.tile(expanded, int_list(m))
  end
  local rs = static_shape(repeats)
  local n = 1
  for _, d in ipairs(rs or { -1 }) do n = d < 0 and -1 or n * d end
  if n == 1 then
    local r = shape_ops.reshape(repeats, {})
    local dim = elementwise.multiply(index.slice(data_shape, { axis }, { 1 }), r)
    local result_shape = join.concat({ dims(0, axis), dim, dims(axis + 1, rank) }, 0)
    return shape_ops.reshape(tile_axis(r), result_shape, { name = opts.name })
  end
  local reps = generate.broadcast_to(repeats, index.slice(data_shape, { axis }, { 1 }))
  local reps_original = reps
  if axis > 0 then reps = generate.broadcast_to(reps, dims(0, axis + 1)) end
  local max_repeat = elementwise.maximum(reduce.reduce_max(reps), 0)
  local steps = generate.range(0, max_repeat, 1)
  local mask = elementwise.less(steps, shape_ops.expand_dims(reps, -1))
  local masked = index.boolean_mask(tile_axis(max_repeat), mask)
  if axis == 0 then return opts.name and core_ops.identity(masked, { name = opts.name }) or masked end
  local dim = shape_ops.reshape(reduce.reduce_sum(reps_original), { 1 })
  local result_shape = join.concat({ dims(0, axis), dim, dims(axis + 1, rank) }, 0)
  return shape_ops.reshape(masked, result_shape, { name = opts.name })
end, "tf.repeat(input, repeats [, axis])",
"Repeats each element (or slice along axis, 0-based) as many times as repeats says: one count for all, "
.. "or one per element of that axis. Without axis the input is flattened first.",
{ required = 2, positional = { "axis" }, "name" })

M.namespaces = {
  tf = { "split", "reverse", "gather_nd", "scatter_nd", "tensor_scatter_nd_update", "tensor_scatter_nd_add",
    "roll", "unique", "searchsorted", "add_n", "meshgrid", "repeat" },
  math = { "segment_sum", "bincount", "add_n" },
}

return M
