-- ops_array.lua — the array ops of issue #17, as TF's Python builds them:
-- tf.split (Split / SplitV), tf.reverse (ReverseV2), tf.gather_nd
-- (GatherNd, batch_dims composed as TF's batch_gather_nd does),
-- tf.scatter_nd, tf.tensor_scatter_nd_update/add, tf.boolean_mask (Where,
-- GatherV2 and Reshape), tf.sort and tf.argsort (on TopKV2, like TF's
-- sort_ops.py), tf.math.top_k, tf.math.cumsum/cumprod, tf.one_hot (its
-- dtype worked out as array_ops.one_hot does). The module's table
-- holds the top-level functions (tf.lua publishes it); the tf.math and
-- tf.nn ones join ops.math and ops.nn, the namespaces tf.lua publishes.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local options = require("moonflow.options")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local ops = require("moonflow.ops.ops")
local raise = errors.raise

local op = core.op
local H = state.H
local def = options.def
local I32 = dtypes.int32
local to_tensor = ops.to_tensor

local M = {}

local function static_shape(x)
  local _, _, shape = core.info(x)
  return shape
end

-- A list that holds tensors (tf.split(x, {a, b}) with a, b scalar
-- tensors) becomes one stacked vector; anything else passes as it is.
local function int_list(v)
  if type(v) ~= "table" or getmetatable(v) ~= nil then return v end
  for i = 1, #v do
    if core.is_tensor(v[i]) then
      local parts = {}
      for j = 1, #v do parts[j] = v[j] end
      return ops.stack(parts)
    end
  end
  return v
end

-- TF's bool attributes refuse other values: "Expected bool for argument ...".
local function bool_arg(v, what, default)
  if v == nil then return default end
  if type(v) ~= "boolean" then
    raise("TypeError", ("Expected bool for argument '%s' not %s."):format(what, tostring(v)), 4)
  end
  return v
end

-- splits -------------------------------------------------------------------

M.split = def(function(value, num_or_size_splits, axis, num, opts)
  axis = axis or 0
  local name = opts.name or "split"
  if math.type(num_or_size_splits) == "integer" then
    return { op(H.Split, { num_split = num_or_size_splits, name = name, _dtypes = { I32 } }, axis, value) }
  end
  if num_or_size_splits == nil then
    raise("TypeError", "tf.split: num_or_size_splits is required (an integer or a list of sizes)", 3)
  end
  local sizes = int_list(num_or_size_splits)
  if not core.is_tensor(sizes) then sizes = ops.constant(sizes, I32) end
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
"Splits value along axis (0-based, default 0) into a Lua list of tensors: num_or_size_splits equal "
.. "parts (an integer, op Split) or parts of the listed sizes (a list or vector, one size may be -1, "
.. "op SplitV; num= gives the count when the sizes' length is unknown).",
{ required = 1, positional = { "num_or_size_splits", "axis", "num" }, "name" })

-- reversal -----------------------------------------------------------------

M.reverse = def(function(tensor, axis, opts)
  if axis == nil then raise("TypeError", "tf.reverse: axis is required (a list of axes)", 3) end
  return op(H.ReverseV2, { name = opts.name or "ReverseV2", _dtypes = { nil, I32 } }, tensor, int_list(axis))
end, "tf.reverse(tensor, axis)",
"tensor with the order of its elements reversed along each listed axis (0-based; negative ones "
.. "count from the end; op ReverseV2).", { required = 1, positional = { "axis" }, "name" })

-- index tuples -------------------------------------------------------------

local function slice_of(shape_vec, from, count)
  return ops.slice(shape_vec, { from }, { count })
end

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
  local pshape, ishape = ops.shape(params), ops.shape(indices)
  local batch_shape = slice_of(pshape, 0, batch_dims)
  local batch = ops.reshape(ops.reduce_prod(batch_shape), { 1 })
  local flat_params = ops.reshape(params, ops.concat({ batch, slice_of(pshape, batch_dims, -1) }, 0))
  local flat_indices = ops.reshape(indices, ops.concat({ batch, slice_of(ishape, batch_dims, -1) }, 0))
  local ones = {}
  for i = 1, ri - batch_dims do ones[i] = 1 end
  local coord = ops.reshape(ops.cast(ops.range(batch[0]), core.dtype(indices)),
    ops.concat({ batch, ops.constant(ones, I32) }, 0))
  local grid = ops.broadcast_to(coord, ops.concat({ slice_of(ops.shape(flat_indices), 0, ri - batch_dims),
    ops.constant({ 1 }, I32) }, 0))
  local out = op(H.GatherNd, { name = name }, flat_params, ops.concat({ grid, flat_indices }, -1))
  return ops.reshape(out, ops.concat({ batch_shape, slice_of(ops.shape(out), 1, -1) }, 0))
end

M.gather_nd = def(function(params, indices, batch_dims, opts)
  batch_dims = batch_dims or 0
  if math.type(batch_dims) ~= "integer" then
    raise("TypeError", "tf.gather_nd: batch_dims must be an integer, got " .. tostring(batch_dims), 3)
  end
  params = to_tensor(params)
  indices = to_tensor(indices, I32)
  if batch_dims ~= 0 then return batch_gather_nd(params, indices, batch_dims, opts.name or "GatherNd") end
  return op(H.GatherNd, { name = opts.name or "GatherNd" }, params, indices)
end, "tf.gather_nd(params, indices [, batch_dims])",
"The elements (or slices) of params addressed by the 0-based index tuples in the last axis of "
.. "indices: the result has shape indices.shape[:-1] + params.shape[k:] for tuples of length k "
.. "(op GatherNd). Out-of-range tuples are an InvalidArgumentError, as on TF's CPU.",
{ required = 1, positional = { "indices", "batch_dims" }, "name" })

M.scatter_nd = def(function(indices, updates, shape, opts)
  return op(H.ScatterNd, { name = opts.name or "ScatterNd", _dtypes = { I32, nil, I32 } },
    indices, updates, int_list(shape))
end, "tf.scatter_nd(indices, updates, shape)",
"Zeros of the given shape with updates added at the 0-based index tuples of indices (tuples that "
.. "repeat add up; op ScatterNd).", { required = 1, positional = { "updates", "shape" }, "name" })

local function tensor_scatter(opname, tfname, text)
  return def(function(tensor, indices, updates, opts)
    return op(H[opname], { name = opts.name or opname, _typed = 5, _dtypes = { nil, I32 } },
      tensor, indices, updates)
  end, tfname .. "(tensor, indices, updates)", text, { required = 1, positional = { "indices", "updates" }, "name" })
end
M.tensor_scatter_nd_update = tensor_scatter("TensorScatterUpdate", "tf.tensor_scatter_nd_update",
  "A copy of tensor with the elements (or slices) at the 0-based index tuples replaced by updates "
  .. "(op TensorScatterUpdate).")
M.tensor_scatter_nd_add = tensor_scatter("TensorScatterAdd", "tf.tensor_scatter_nd_add",
  "A copy of tensor with updates added at the 0-based index tuples (tuples that repeat add up; "
  .. "op TensorScatterAdd).")

-- boolean_mask -------------------------------------------------------------

local function compatible(a, b)
  if #a ~= #b then return false end
  for i = 1, #a do
    if a[i] >= 0 and b[i] >= 0 and a[i] ~= b[i] then return false end
  end
  return true
end

M.boolean_mask = def(function(tensor, mask, axis, opts)
  tensor = to_tensor(tensor)
  mask = to_tensor(mask, dtypes.bool)
  local mshape = static_shape(mask)
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
  local tshape = static_shape(tensor)
  if tshape and not core.is_tensor(axis) then
    if axis < 0 then axis = axis + #tshape end
    local part = table.move(tshape, axis + 1, math.min(axis + nd, #tshape), 1, {})
    if not compatible(part, mshape) then
      raise("ValueError", ("Shapes %s and %s are incompatible"):format(tostring(shapes.TensorShape(part)),
        tostring(shapes.TensorShape(mshape))), 3)
    end
  end
  local s = ops.shape(tensor)
  local leading = ops.reshape(ops.reduce_prod(slice_of(s, axis, nd), { 0 }), { 1 })
  local reshaped = ops.reshape(tensor, ops.concat({ slice_of(s, 0, axis), leading, slice_of(s, axis + nd, -1) }, 0))
  local indices = ops.squeeze(op(H.Where, nil, ops.reshape(mask, { -1 })), { 1 })
  return ops.gather(reshaped, indices, axis, { name = opts.name or "boolean_mask" })
end, "tf.boolean_mask(tensor, mask [, axis])",
"The entries of tensor where mask (a bool tensor over axes axis..axis+rank(mask)-1) is true, "
.. "flattened over the masked axes; composed as TF does (Where, GatherV2, Reshape). axis may be a "
.. "scalar int tensor.",
{ required = 1, positional = { "mask", "axis" }, "name" })

-- top_k, sort, argsort ---------------------------------------------------------

ops.math.top_k = def(function(input, k, sorted, index_type, opts)
  sorted = bool_arg(sorted, "sorted", true)
  local values, indices = op(H.TopKV2, { sorted = sorted, name = opts.name or "TopKV2",
    _dtypes = { nil, I32 } }, input, k or 1)
  if index_type ~= nil and dtypes.as_dtype(index_type) ~= I32 then
    indices = ops.cast(indices, index_type)
  end
  return values, indices
end, "tf.math.top_k(input, k [, sorted] [, index_type])",
"The k (default 1) largest entries of each row of the last axis, largest first (equal values in "
.. "order of position), and their 0-based positions (int32): two results, values and indices "
.. "(op TopKV2). NaN ranks above every number.",
{ required = 1, positional = { "k", "sorted", "index_type" }, "name" })
ops.nn.top_k = ops.math.top_k

-- TF's _descending_sort: top_k over the last axis, the sorted axis swapped
-- there and back.
local function descending(values, axis, return_argsort, name)
  local shape = static_shape(values)
  local rank = shape and #shape
  local perm
  if not (axis == -1 or (rank and axis + 1 == rank)) then
    if axis < 0 then axis = axis + (rank or 0) end
    if rank then
      if axis < 0 or axis >= rank then
        raise("InvalidArgumentError", ("Expected axis in the range [%d, %d), but got %d"):format(-rank, rank, axis), 4)
      end
      perm = {}
      for i = 0, rank - 1 do perm[i + 1] = i end
      perm[axis + 1], perm[rank] = rank - 1, axis
    else
      local r = ops.rank(values)
      perm = M.tensor_scatter_nd_update(ops.range(r), ops.stack({ ops.stack({ axis }), ops.reshape(r - 1, { 1 }) }),
        ops.stack({ r - 1, axis }))
    end
    values = ops.transpose(values, perm)
  end
  local vshape = static_shape(values)
  local k = vshape and vshape[#vshape]
  if not k or k < 0 then k = ops.shape(values)[-1] end
  local v, i = op(H.TopKV2, { sorted = true, name = name }, values, k)
  local r = return_argsort and i or v
  if perm then r = ops.transpose(r, perm) end
  return r
end

local DIRECTIONS = { ASCENDING = true, DESCENDING = true }
local function sort_or_argsort(values, axis, direction, return_argsort, name)
  direction = direction or "ASCENDING"
  if not DIRECTIONS[direction] then
    raise("ValueError", "Argument `direction` should be one of ASCENDING, DESCENDING. Received: direction="
      .. tostring(direction), 4)
  end
  axis = axis or -1
  if math.type(axis) ~= "integer" then
    raise("ValueError", "Argument `axis` must be a constant scalar. Received: axis=" .. tostring(axis), 4)
  end
  values = to_tensor(values)
  if direction == "DESCENDING" then return descending(values, axis, return_argsort, name) end
  -- TF's _ascending_sort: sort the negation descending (integers as
  -- -x - 1, which cannot overflow), then undo it.
  local dt = core.dtype(values)
  if dt.is_integer then
    local r = descending(ops.subtract(ops.negative(values), 1), axis, return_argsort, name)
    return return_argsort and r or ops.subtract(ops.negative(r), 1)
  end
  local r = descending(ops.negative(values), axis, return_argsort, name)
  return return_argsort and r or ops.negative(r)
end

M.sort = def(function(values, axis, direction, opts)
  return sort_or_argsort(values, axis, direction, false, opts.name or "sort")
end, "tf.sort(values [, axis] [, direction])",
"values sorted along axis (default -1, the last), 'ASCENDING' (default) or 'DESCENDING'; built on "
.. "TopKV2 as in TF (ascending sorts the negation descending), so NaN comes first either way.", { required = 1, positional = { "axis", "direction" }, "name" })

M.argsort = def(function(values, axis, direction, stable, opts)
  local _ = stable -- TF ignores it: the sort is stable either way
  return sort_or_argsort(values, axis, direction, true, opts.name or "argsort")
end, "tf.argsort(values [, axis] [, direction] [, stable])",
"The 0-based positions (int32) that sort values along axis (default -1), 'ASCENDING' (default) or "
.. "'DESCENDING'; equal values keep their order (stable), as in TF, which builds it on TopKV2.",
{ required = 1, positional = { "axis", "direction", "stable" }, "name" })

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
M.one_hot = def(function(indices, depth, on_value, off_value, axis, dtype, opts)
  dtype = dtype and dtypes.as_dtype(dtype)
  local on_dtype = on_value ~= nil and hinted_dtype(on_value, dtype) or nil
  local off_dtype = off_value ~= nil and hinted_dtype(off_value, dtype) or nil
  if on_dtype or off_dtype then
    if dtype then
      if on_dtype and on_dtype ~= dtype then
        raise("TypeError", ("dtype %s of on_value does not match dtype parameter %s")
          :format(on_dtype.name, dtype.name), 2)
      end
      if off_dtype and off_dtype ~= dtype then
        raise("TypeError", ("dtype %s of off_value does not match dtype parameter %s")
          :format(off_dtype.name, dtype.name), 2)
      end
    else
      dtype = on_dtype or off_dtype
    end
  else
    dtype = dtype or dtypes.float32
  end
  -- `false or 1` would lose a false on_value; TF casts the defaults 1 and 0
  -- to dtype (true and false for bool)
  local on, off = on_value, off_value
  if on == nil then on = 1 end
  if off == nil then off = 0 end
  if dtype == dtypes.bool then
    if on_value == nil then on = true end
    if off_value == nil then off = false end
  end
  on_dtype, off_dtype = on_dtype or dtype, off_dtype or dtype
  if on_dtype ~= off_dtype then
    raise("TypeError", ("dtype %s of on_value does not match dtype %s of off_value")
      :format(on_dtype.name, off_dtype.name), 2)
  end
  return op(H.OneHot, { axis = axis or -1, name = opts.name, _dtypes = { nil, I32, dtype, dtype } },
    indices, depth, on, off)
end, "tf.one_hot(indices, depth [, {on_value=, off_value=, axis=, dtype=, name=}])",
"One-hot vectors for 0-based indices; out-of-range indices give all off_value. The dtype is "
.. "dtype, else on_value's or off_value's, else float32.",
{ required = 1, positional = { "depth", "on_value", "off_value", "axis", "dtype" }, "name" })

-- scans ------------------------------------------------------------------

local function scan(opname, tfname, text)
  return def(function(x, axis, exclusive, reverse, opts)
    exclusive, reverse = bool_arg(exclusive, "exclusive", false), bool_arg(reverse, "reverse", false)
    return op(H[opname], { exclusive = exclusive, reverse = reverse,
      name = opts.name or opname, _dtypes = { nil, I32 } }, x, axis or 0)
  end, tfname .. "(x [, axis] [, exclusive] [, reverse])", text,
  { required = 1, positional = { "axis", "exclusive", "reverse" },
    types = { exclusive = "boolean", reverse = "boolean" }, "name" })
end
ops.math.cumsum = scan("Cumsum", "tf.math.cumsum",
  "Running sums of x along axis (0-based, default 0): [a, a+b, a+b+c]; exclusive=true gives "
  .. "[0, a, a+b], reverse=true sums from the end (op Cumsum).")
M.cumsum = ops.math.cumsum
ops.math.cumprod = scan("Cumprod", "tf.math.cumprod",
  "Running products of x along axis (0-based, default 0): [a, a*b, a*b*c]; exclusive=true gives "
  .. "[1, a, a*b], reverse=true multiplies from the end (op Cumprod).")

return M
