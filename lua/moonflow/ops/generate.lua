-- generate.lua — the generate family (core/ops/ops_generate.c): tensors
-- made from a shape or a range: tf.fill, tf.zeros / tf.ones (Fill),
-- tf.zeros_like / tf.ones_like, tf.range, tf.linspace, tf.broadcast_to,
-- and tf.eye, an identity matrix built as TF builds it (a OneHot of a
-- range).

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local options = require("moonflow.options")
local dtypes = require("moonflow.tensor.dtypes")
local common = require("moonflow.ops.common")
local core_ops = require("moonflow.ops.core")
local elementwise = require("moonflow.ops.elementwise")
local raise = errors.raise

local op = core.op
local H = state.H
local op_def = common.op_def
local shape_arg = core_ops.shape_arg
local I32 = dtypes.int32

local M = {}

-- Splits (positional, opts) where the positional argument may itself be
-- the options table: f(x, 1), f(x, {1, 2}), f(x, {axis = 1}), f(x, 1, {keepdims = true}).
local function is_opts(v)
  return type(v) == "table" and getmetatable(v) == nil and next(v) ~= nil and v[1] == nil
end

M.fill = op_def("Fill", function(dims, value, opts)
  return op(H.Fill, { _dtypes = { I32 }, name = opts.name }, shape_arg(dims), value)
end, "tf.fill(dims, value)", "The dtype is value's.", { required = 2, "name" })

local function filled(v)
  return function(shape, dtype, opts)
    dtype = dtype and dtypes.as_dtype(dtype) or dtypes.float32
    local value = v
    if dtype == dtypes.bool then value = v ~= 0 elseif dtype == dtypes.string then value = "" end
    return op(H.Fill, { _dtypes = { I32, dtype }, name = opts.name }, shape_arg(shape), value)
  end
end
local FILL_OPTS = { required = 1, positional = { "dtype" }, "name" }
M.zeros = options.def(filled(0), "tf.zeros(shape [, dtype])", "A tensor of zeros (float32 by default).", FILL_OPTS)
M.ones = options.def(filled(1), "tf.ones(shape [, dtype])", "A tensor of ones (float32 by default).",
  { required = 1, positional = { "dtype" }, "name" })
local function filled_like(opname)
  return function(x, dtype, opts)
    if dtype ~= nil then x = elementwise.cast(x, dtype) end
    return op(H[opname], { name = opts.name }, x)
  end
end
M.zeros_like = op_def("ZerosLike", filled_like("ZerosLike"), "tf.zeros_like(x [, dtype])",
  "Given a dtype, x is cast to it first.", { required = 1, positional = { "dtype" }, "name" })
M.ones_like = op_def("OnesLike", filled_like("OnesLike"), "tf.ones_like(x [, dtype])",
  "Given a dtype, x is cast to it first.", { required = 1, positional = { "dtype" }, "name" })

-- tf.range's arguments: ([start,] limit [, delta] [, dtype] [, opts]),
-- any of start, limit and delta also in the options.
local function range_args(...)
  local args = table.pack(...)
  local dtype, opts
  local n = args.n
  if n > 0 and getmetatable(args[n]) == core.dtype_metatable then
    dtype = args[n]
    n = n - 1
  elseif n > 0 and is_opts(args[n]) then
    opts = args[n]
    dtype = opts.dtype and dtypes.as_dtype(opts.dtype)
    n = n - 1
  end
  opts = opts or {}
  if n > 3 then raise("TypeError", "tf.range takes ([start,] limit [, delta] [, dtype])", 3) end
  -- TF's range(start, limit=None, delta=1): a lone start is the limit.
  local start, limit, delta = table.unpack(args, 1, n)
  for i, key in ipairs({ "start", "limit", "delta" }) do
    if opts[key] ~= nil then
      if args[i] ~= nil and i <= n then
        raise("TypeError", "tf.range got multiple values for argument '" .. key .. "'", 3)
      end
      if key == "start" then start = opts[key] elseif key == "limit" then limit = opts[key] else delta = opts[key] end
    end
  end
  if start == nil then raise("TypeError", "tf.range takes ([start,] limit [, delta] [, dtype])", 3) end
  if limit == nil then start, limit = 0, start end
  if delta == nil then delta = 1 end
  return start, limit, delta, dtype, opts
end

M.range = op_def("Range", function(...)
  local start, limit, delta, dtype, opts = range_args(...)
  if not dtype then
    dtype = dtypes.int32
    for _, v in ipairs({ start, limit, delta }) do
      if core.is_tensor(v) then
        local d = core.dtype(v)
        if d.is_floating or d == dtypes.int64 then dtype = d end
      elseif math.type(v) == "float" then
        if not dtype.is_floating then dtype = dtypes.float32 end
      end
    end
  end
  local function as(v)
    if core.is_tensor(v) then
      return core.dtype(v) == dtype and v or elementwise.cast(v, dtype)
    end
    return v
  end
  return op(H.Range, { name = opts.name or "range", _dtypes = { dtype, dtype, dtype } }, as(start), as(limit),
    as(delta))
end, "tf.range([start,] limit [, delta] [, dtype] [, {start=, limit=, delta=, dtype=, name=}])",
"0-based like every position in moonflow: tf.range(3) is [0 1 2]. int32 unless a float or dtype is given.",
{ vararg = true, "start", "limit", "delta", "dtype", "name" })

M.linspace = op_def("LinSpace", function(start, stop, num, opts)
  local dt = (core.is_tensor(start) and core.dtype(start)) or dtypes.float32
  return op(H.LinSpace, { name = opts.name or "LinSpace", _dtypes = { dt, dt, I32 } }, start, stop, num)
end, "tf.linspace(start, stop, num)", "float32 unless start is a tensor of another dtype.",
{ required = 1, positional = { "stop", "num" }, "name" })

M.eye = options.def(function(n, num_columns, opts)
  local dtype = opts.dtype and dtypes.as_dtype(opts.dtype) or dtypes.float32
  local cols = num_columns or n
  -- as TF's eye (a diagonal of ones): a negative size is ones' error
  for _, d in ipairs({ n, cols }) do
    if type(d) == "number" and d < 0 then
      raise("InvalidArgumentError", ("Dimension %s must be >= 0"):format(math.tointeger(d) or d), 3)
    end
  end
  local idx = M.range(n)
  return op(H.OneHot, { axis = -1, name = opts.name or "eye", _dtypes = { nil, I32, dtype, dtype } }, idx, cols, 1, 0)
end, "tf.eye(n [, m] [, {dtype=}])", "The n×m identity matrix (float32 by default).",
{ required = 1, positional = { "num_columns" }, "dtype", "name" })

M.broadcast_to = op_def("BroadcastTo", function(x, shape, opts)
  return op(H.BroadcastTo, { _dtypes = { nil, I32 }, name = opts.name }, x, shape_arg(shape))
end, "tf.broadcast_to(x, shape)", nil, { required = 1, positional = { "shape" }, "name" })

M.namespaces = {
  tf = { "fill", "zeros", "ones", "zeros_like", "ones_like", "range", "linspace", "eye", "broadcast_to" },
}

return M
