-- sort.lua — the sort family (core/ops/ops_sort.c): tf.math.top_k
-- (TopKV2), tf.sort and tf.argsort (built on TopKV2 as TF's sort_ops.py
-- builds them), and the running scans tf.math.cumsum and tf.math.cumprod.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local options = require("moonflow.options")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local common = require("moonflow.ops.common")
local core_ops = require("moonflow.ops.core")
local elementwise = require("moonflow.ops.elementwise")
local generate = require("moonflow.ops.generate")
local shape_ops = require("moonflow.ops.shape")
local join = require("moonflow.ops.join")
local array = require("moonflow.ops.array")
local raise = errors.raise

local op = core.op
local H = state.H
local op_def, static_shape = common.op_def, shapes.of
local to_tensor = core_ops.to_tensor
local I32 = dtypes.int32

local M = {}

-- TF's bool attributes refuse other values: "Expected bool for argument ...".
local function bool_arg(v, what, default)
  if v == nil then return default end
  if type(v) ~= "boolean" then
    raise("TypeError", ("Expected bool for argument '%s' not %s."):format(what, tostring(v)), 4)
  end
  return v
end

-- top_k, sort, argsort ---------------------------------------------------------

M.top_k = op_def("TopKV2", function(input, k, sorted, index_type, opts)
  sorted = bool_arg(sorted, "sorted", true)
  local values, indices = op(H.TopKV2, { sorted = sorted, name = opts.name or "TopKV2",
    _dtypes = { nil, I32 } }, input, k or 1)
  if index_type ~= nil and dtypes.as_dtype(index_type) ~= I32 then
    indices = elementwise.cast(indices, index_type)
  end
  return values, indices
end, "tf.math.top_k(input, k [, sorted] [, index_type])",
"k defaults to 1; two results, values and indices (0-based positions, int32 unless index_type says "
.. "otherwise). NaN ranks above every number.",
{ required = 1, positional = { "k", "sorted", "index_type" }, "name" })

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
      local r = shape_ops.rank(values)
      perm = array.tensor_scatter_nd_update(generate.range(r),
        join.stack({ join.stack({ axis }), shape_ops.reshape(r - 1, { 1 }) }),
        join.stack({ r - 1, axis }))
    end
    values = shape_ops.transpose(values, perm)
  end
  local vshape = static_shape(values)
  local k = vshape and vshape[#vshape]
  if not k or k < 0 then k = shape_ops.shape(values)[-1] end
  local v, i = op(H.TopKV2, { sorted = true, name = name }, values, k)
  local r = return_argsort and i or v
  if perm then r = shape_ops.transpose(r, perm) end
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
  if dt.is_unsigned then
    -- unsigned: dtype.max - x (uint64's max, past Lua's integers, as bits)
    local offset = dt == dtypes.uint64 and core.op(H.Bitcast, { type = dt }, core.convert(-1, dtypes.int64)) or dt.max
    local r = descending(elementwise.subtract(offset, values), axis, return_argsort, name)
    return return_argsort and r or elementwise.subtract(offset, r)
  end
  if dt.is_integer then
    local r = descending(elementwise.subtract(elementwise.negative(values), 1), axis, return_argsort, name)
    return return_argsort and r or elementwise.subtract(elementwise.negative(r), 1)
  end
  local r = descending(elementwise.negative(values), axis, return_argsort, name)
  return return_argsort and r or elementwise.negative(r)
end

M.sort = options.def(function(values, axis, direction, opts)
  return sort_or_argsort(values, axis, direction, false, opts.name or "sort")
end, "tf.sort(values [, axis] [, direction])",
"values sorted along axis (default -1, the last), 'ASCENDING' (default) or 'DESCENDING'; built on "
.. "TopKV2 as in TF (ascending sorts the negation descending), so NaN comes first either way.",
{ required = 1, positional = { "axis", "direction" }, "name" })

M.argsort = options.def(function(values, axis, direction, stable, opts)
  local _ = stable -- TF ignores it: the sort is stable either way
  return sort_or_argsort(values, axis, direction, true, opts.name or "argsort")
end, "tf.argsort(values [, axis] [, direction] [, stable])",
"The 0-based positions (int32) that sort values along axis (default -1), 'ASCENDING' (default) or "
.. "'DESCENDING'; equal values keep their order (stable), as in TF, which builds it on TopKV2.",
{ required = 1, positional = { "axis", "direction", "stable" }, "name" })

-- scans ------------------------------------------------------------------

local function scan(opname, tfname, text)
  return op_def(opname, function(x, axis, exclusive, reverse, opts)
    exclusive, reverse = bool_arg(exclusive, "exclusive", false), bool_arg(reverse, "reverse", false)
    return op(H[opname], { exclusive = exclusive, reverse = reverse,
      name = opts.name or opname, _dtypes = { nil, I32 } }, x, axis or 0)
  end, tfname .. "(x [, axis] [, exclusive] [, reverse])", text,
  { required = 1, positional = { "axis", "exclusive", "reverse" },
    types = { exclusive = "boolean", reverse = "boolean" }, "name" })
end
M.cumsum = scan("Cumsum", "tf.math.cumsum",
  "axis is 0-based (default 0): [a, b, c] gives [a, a+b, a+b+c]; exclusive=true gives [0, a, a+b], "
  .. "reverse=true sums from the end.")
M.cumprod = scan("Cumprod", "tf.math.cumprod",
  "axis is 0-based (default 0): [a, b, c] gives [a, a*b, a*b*c]; exclusive=true gives [1, a, a*b], "
  .. "reverse=true multiplies from the end.")
M.namespaces = {
  tf = { "sort", "argsort", "cumsum" },
  math = { "top_k", "cumsum", "cumprod" },
  nn = { "top_k" },
}

return M
