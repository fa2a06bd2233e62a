-- ops.lua — tf's operations: thin wrappers that turn TF's Python
-- signatures into Lua ones (trailing options table for keyword arguments)
-- and call the one op path, core.op / core.binary, with TF's op types.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local options = require("moonflow.options")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local raise = errors.raise

local op, binary = core.op, core.binary
local None = core.None

local H = state.H

-- Splits (positional, opts) where the positional argument may itself be
-- the options table: f(x, 1), f(x, {1, 2}), f(x, {axis = 1}), f(x, 1, {keepdims = true}).
local function is_opts(v)
  return type(v) == "table" and getmetatable(v) == nil and next(v) ~= nil and v[1] == nil
end

local rank_of = shapes.rank

local function shape_of(x)
  local _, _, shape = core.info(x)
  return shape
end

-- A list argument (a Lua table of tensors or values).
local function check_list(v, fname, what, level)
  if type(v) == "table" and getmetatable(v) == nil then return v end
  raise("TypeError", ("%s: %s must be a Lua list, got a %s"):format(fname, what, type(v)), (level or 2) + 1)
end

local function name_opt(opts, default)
  if opts ~= nil and type(opts) ~= "table" then
    raise("TypeError", "expected an options table such as {name=} as the last argument, got a "
      .. type(opts), 3)
  end
  if opts and opts.name then return { name = opts.name } end
  return default
end

local ops = {}

-- Every op declares its options (options.lua): TF's arguments after the
-- required ones, positional ones in TF's order; the check comes from that.
local def = options.def
ops.math, ops.nn, ops.image, ops.strings, ops.random, ops.linalg = {}, {}, {}, {}, {}, {}

local function tensor_like(x)
  if core.is_tensor(x) then return x end
  local mt = getmetatable(x)
  if mt and mt.__tf_tensor then return mt.__tf_tensor(x) end
  return nil
end

-- TF's _get_dtype_from_nested_lists: the dtype of the first tensor (or
-- variable) inside a nested Lua list; nil when it holds none. `seen`
-- holds the tables on the path walked: a table inside itself is left to
-- tf.constant, which refuses it.
local function nested_tensor_dtype(v, seen)
  seen = seen or {}
  if seen[v] then return nil end
  seen[v] = true
  for i = 1, #v do
    local t = tensor_like(v[i])
    if t then
      seen[v] = nil
      return core.dtype(t)
    end
    if type(v[i]) == "table" and getmetatable(v[i]) == nil then
      local d = nested_tensor_dtype(v[i], seen)
      if d then
        seen[v] = nil
        return d
      end
    end
  end
  seen[v] = nil
  return nil
end

-- TF's _autopacking_helper: a list that holds tensors is stacked (Pack),
-- its other entries converted to the list's dtype. Each tensor must have
-- that dtype, unless the caller asked for another one (`cast`), which
-- TF's _cast_nested_seqs_to_dtype applies to every tensor first.
local function autopack(v, dtype, cast, seen)
  seen = seen or {}
  if seen[v] then raise("ValueError", "Can't convert a Lua table that contains itself to a Tensor", 5) end
  seen[v] = true
  local parts = {}
  for i = 1, #v do
    local x = v[i]
    local t = tensor_like(x)
    if t then
      if cast and core.dtype(t) ~= dtype then t = ops.cast(t, dtype) end
      if core.dtype(t) ~= dtype then
        raise("TypeError", ("Cannot convert a list containing a tensor of dtype %s to %s (Tensor is: %s)")
          :format(core.dtype(t).name, dtype.name, getmetatable(t).__repr(t)), 4)
      end
      parts[i] = t
    elseif type(x) == "table" and getmetatable(x) == nil and nested_tensor_dtype(x) then
      parts[i] = autopack(x, dtype, cast, seen)
    else
      parts[i] = ops.constant(x, dtype)
    end
  end
  seen[v] = nil
  return ops.stack(parts)
end

local function to_tensor(x, dtype)
  local t = tensor_like(x)
  if t then return t end
  if type(x) == "table" and getmetatable(x) == nil then
    local inner = nested_tensor_dtype(x)
    if inner then return autopack(x, dtype or inner, dtype ~= nil and dtype ~= inner) end
  end
  return ops.constant(x, dtype)
end
ops.to_tensor = to_tensor

-- constants and constructors ---------------------------------------------

-- tf.constant's shape: TF's _constant_eager_impl (same size: reshape; one
-- element: fill; otherwise its TypeError).
local function python_text(v)
  if type(v) ~= "table" or getmetatable(v) ~= nil then return tostring(v) end
  local parts = {}
  for i = 1, #v do parts[i] = python_text(v[i]) end
  return "[" .. table.concat(parts, ", ") .. "]"
end

local function constant_dims(shape)
  if math.type(shape) == "integer" then shape = { shape } end
  local dims = shapes.as_shape(shape):as_list()
  for _, d in ipairs(dims) do
    if d == shapes.None then
      raise("ValueError", "tf.constant: the shape must be fully defined, got " .. tostring(shapes.as_shape(shape)), 4)
    end
  end
  return dims
end

local function constant_shape(t, value, shape)
  local dims = constant_dims(shape)
  local want = 1
  for _, d in ipairs(dims) do want = want * d end
  local have = 1
  for _, d in ipairs(shape_of(t)) do have = have * d end
  local same = #dims == #shape_of(t)
  for i, d in ipairs(dims) do same = same and shape_of(t)[i] == d end
  if same then return t end
  if have == want then return ops.reshape(t, dims) end
  if have == 1 then return ops.fill(dims, ops.reshape(t, {})) end
  raise("TypeError", ("Eager execution of tf.constant with unsupported shape. Tensor %s (converted from %s) "
    .. "has %d elements, but got `shape` %s with %d elements)."):format(tostring(t), python_text(value), have,
    tostring(shapes.TensorShape(dims)), want), 3)
end

ops.constant = def(function(value, dtype, shape, opts)
  if dtype ~= nil then dtype = dtypes.as_dtype(dtype) end
  local t
  if core.is_tensor(value) then
    t = value
    if core.is_symbolic(t) then
      if dtype and core.dtype(t) ~= dtype then t = ops.cast(t, dtype) end
      if shape ~= nil then t = ops.reshape(t, constant_dims(shape)) end
      return t
    end
    if dtype and core.dtype(t) ~= dtype then t = ops.cast(t, dtype) end
  else
    local mt = getmetatable(value)
    if mt and mt.__tf_tensor then
      t = mt.__tf_tensor(value)
      if dtype and core.dtype(t) ~= dtype then t = ops.cast(t, dtype) end
      if core.is_symbolic(t) then
        if shape ~= nil then t = ops.reshape(t, constant_dims(shape)) end
        return t
      end
    else
      t = core.convert(value, dtype)
    end
  end
  if shape ~= nil then t = state.in_eager_scope(function() return constant_shape(t, value, shape) end) end
  if core.tracing() then
    return op(H.Const, { value = t, dtype = core.dtype(t), name = opts.name or "Const" })
  end
  return t
end, "tf.constant(value [, dtype] [, shape] [, {name=}])",
"Creates a tensor from a Lua value: integers become int32, floats float32, booleans bool, "
.. "strings string; nested sequence tables give the shape. With a shape, a value of that size is "
.. "reshaped and a single value is broadcast to it (TF's TypeError otherwise). Inside a traced "
.. "function it is a Const node.", { required = 1, positional = { "dtype", "shape" }, "name" })

ops.convert_to_tensor = def(function(value, dtype, opts)
  dtype = dtype and dtypes.as_dtype(dtype)
  if core.is_tensor(value) then
    if dtype and core.dtype(value) ~= dtype then
      raise("ValueError", ("Tensor conversion requested dtype %s for Tensor with dtype %s: %s")
        :format(dtype.name, core.dtype(value).name, core.tensor_metatable.__repr(value)), 2)
    end
    return value
  end
  -- A tensor-like value (a tf.Variable) converts itself: given the dtype,
  -- it refuses another one with TF's message.
  local mt = getmetatable(value)
  if mt and mt.__tf_tensor then return mt.__tf_tensor(value, dtype) end
  return to_tensor(value, dtype)
end, "tf.convert_to_tensor(value [, dtype])", "A tensor from a tensor, variable or Lua value.",
{ required = 1, positional = { "dtype" } })

-- Shapes, axes and other integer arguments stay Lua values: the op path
-- converts them (to int32, by `_dtypes`) into eager tensors or, while
-- tracing, Const nodes named after the op's argument ("Reshape/shape").
local I32 = dtypes.int32
local function shape_arg(shape)
  if core.is_tensor(shape) then return shape end
  if getmetatable(shape) == shapes.Shape then shape = shape:as_list() end
  if math.type(shape) == "integer" then shape = { shape } end
  -- {n, 37} with n a scalar tensor is packed, as TF's autopacking does
  if type(shape) == "table" and getmetatable(shape) == nil then
    for i = 1, #shape do
      if core.is_tensor(shape[i]) then return to_tensor(shape, I32) end
    end
  end
  return shape
end

ops.fill = def(function(dims, value, opts)
  return op(H.Fill, { _dtypes = { I32 }, name = opts.name }, shape_arg(dims), value)
end, "tf.fill(dims, value)", "A tensor of shape `dims` filled with `value` (its dtype).", { required = 2, "name" })

local function filled(v)
  return function(shape, dtype, opts)
    dtype = dtype and dtypes.as_dtype(dtype) or dtypes.float32
    local value = v
    if dtype == dtypes.bool then value = v ~= 0 elseif dtype == dtypes.string then value = "" end
    return op(H.Fill, { _dtypes = { I32, dtype }, name = opts.name }, shape_arg(shape), value)
  end
end
local FILL_OPTS = { required = 1, positional = { "dtype" }, "name" }
ops.zeros = def(filled(0), "tf.zeros(shape [, dtype])", "A tensor of zeros (float32 by default).", FILL_OPTS)
ops.ones = def(filled(1), "tf.ones(shape [, dtype])", "A tensor of ones (float32 by default).",
  { required = 1, positional = { "dtype" }, "name" })
local function filled_like(opname)
  return function(x, dtype, opts)
    if dtype ~= nil then x = ops.cast(x, dtype) end
    return op(H[opname], { name = opts.name }, x)
  end
end
ops.zeros_like = def(filled_like("ZerosLike"), "tf.zeros_like(x [, dtype])",
  "Zeros with the shape and dtype (or the given dtype) of x.", { required = 1, positional = { "dtype" }, "name" })
ops.ones_like = def(filled_like("OnesLike"), "tf.ones_like(x [, dtype])",
  "Ones with the shape and dtype (or the given dtype) of x.", { required = 1, positional = { "dtype" }, "name" })

ops.range = def(function(...)
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
  if n > 3 then raise("TypeError", "tf.range takes ([start,] limit [, delta] [, dtype])", 2) end
  -- TF's range(start, limit=None, delta=1): a lone start is the limit.
  local start, limit, delta = table.unpack(args, 1, n)
  for i, key in ipairs({ "start", "limit", "delta" }) do
    if opts[key] ~= nil then
      if args[i] ~= nil and i <= n then raise("TypeError", "tf.range got multiple values for argument '" .. key .. "'", 2) end
      if key == "start" then start = opts[key] elseif key == "limit" then limit = opts[key] else delta = opts[key] end
    end
  end
  if start == nil then raise("TypeError", "tf.range takes ([start,] limit [, delta] [, dtype])", 2) end
  if limit == nil then start, limit = 0, start end
  if delta == nil then delta = 1 end
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
      return core.dtype(v) == dtype and v or ops.cast(v, dtype)
    end
    return v
  end
  return op(H.Range, { name = opts.name or "range", _dtypes = { dtype, dtype, dtype } }, as(start), as(limit),
    as(delta))
end, "tf.range([start,] limit [, delta] [, dtype] [, {start=, limit=, delta=, dtype=, name=}])",
"The sequence start, start+delta, ... up to but excluding limit (0-based like every position in "
.. "moonflow: tf.range(3) is [0 1 2]). int32 unless a float or dtype is given.",
{ vararg = true, "start", "limit", "delta", "dtype", "name" })

ops.linspace = def(function(start, stop, num, opts)
  local dt = (core.is_tensor(start) and core.dtype(start)) or dtypes.float32
  return op(H.LinSpace, { name = opts.name or "LinSpace", _dtypes = { dt, dt, I32 } }, start, stop, num)
end, "tf.linspace(start, stop, num)", "num evenly spaced values from start to stop inclusive.",
{ required = 1, positional = { "stop", "num" }, "name" })

ops.eye = def(function(n, num_columns, opts)
  local dtype = opts.dtype and dtypes.as_dtype(opts.dtype) or dtypes.float32
  local cols = num_columns or n
  local idx = ops.range(n)
  return op(H.OneHot, { axis = -1, name = opts.name or "eye", _dtypes = { nil, I32, dtype, dtype } }, idx, cols, 1, 0)
end, "tf.eye(n [, m] [, {dtype=}])", "The n×m identity matrix (float32 by default).",
{ required = 1, positional = { "num_columns" }, "dtype", "name" })

-- elementwise math ---------------------------------------------------------

local function unary(tfname, opname, text)
  local h = H[opname]
  local f = function(x, opts) return op(h, name_opt(opts), x) end
  return def(f, tfname .. "(x)", text, { required = 1, via = { name_opt }, "name" })
end

-- default_name: the node's name when TF's wrapper opens a name scope of
-- its own (math_ops.add's "Add", floordiv's "floordiv"); else the op's.
local function bin(tfname, opname, text, default_name)
  local h = H[opname]
  local default = default_name and { name = default_name } or nil
  local f = function(x, y, opts) return binary(h, x, y, name_opt(opts, default)) end
  return def(f, tfname .. "(x, y)", text .. " Broadcasts like NumPy; both must have one dtype.",
    { required = 2, via = { name_opt }, "name" })
end

local unaries = {
  { "negative", "Neg", "-x elementwise." }, { "abs", "Abs", "|x| elementwise." },
  { "sign", "Sign", "-1, 0 or 1 elementwise." }, { "square", "Square", "x*x elementwise." },
  { "sqrt", "Sqrt", "Square root elementwise." }, { "rsqrt", "Rsqrt", "1/sqrt(x) elementwise." },
  { "exp", "Exp", "e^x elementwise." }, { "log", "Log", "Natural logarithm elementwise." },
  { "log1p", "Log1p", "log(1+x) elementwise." }, { "sin", "Sin", "Sine elementwise." },
  { "cos", "Cos", "Cosine elementwise." }, { "tanh", "Tanh", "Hyperbolic tangent elementwise." },
  { "sigmoid", "Sigmoid", "1/(1+e^-x) elementwise." },
  { "round", "Round", "Rounds half to even, elementwise." },
  { "floor", "Floor", "Largest integer not above x, elementwise." },
  { "ceil", "Ceil", "Smallest integer not below x, elementwise." },
  { "reciprocal", "Reciprocal", "1/x elementwise." },
  { "logical_not", "LogicalNot", "Boolean not elementwise." },
}
for _, u in ipairs(unaries) do
  local f = unary("tf." .. u[1], u[2], u[3])
  ops[u[1]] = f
  ops.math[u[1]] = f
end
ops.math.negative = ops.negative

local binaries = {
  { "add", "AddV2", "x + y elementwise (string tensors concatenate).", "Add" },
  { "subtract", "Sub", "x - y elementwise." }, { "multiply", "Mul", "x * y elementwise." },
  { "floordiv", "FloorDiv", "Floor of x / y elementwise.", "floordiv" },
  { "floormod", "FloorMod", "x mod y elementwise; the result takes the sign of y." },
  { "pow", "Pow", "x ^ y elementwise." }, { "maximum", "Maximum", "max(x, y) elementwise." },
  { "minimum", "Minimum", "min(x, y) elementwise." },
  { "equal", "Equal", "x == y elementwise (bool)." }, { "not_equal", "NotEqual", "x ~= y elementwise (bool)." },
  { "less", "Less", "x < y elementwise (bool)." }, { "less_equal", "LessEqual", "x <= y elementwise (bool)." },
  { "greater", "Greater", "x > y elementwise (bool)." },
  { "greater_equal", "GreaterEqual", "x >= y elementwise (bool)." },
  { "logical_and", "LogicalAnd", "Boolean and elementwise." },
  { "logical_or", "LogicalOr", "Boolean or elementwise." },
}
for _, b in ipairs(binaries) do
  local f = bin("tf." .. b[1], b[2], b[3], b[4])
  ops[b[1]] = f
  ops.math[b[1]] = f
end
ops.mod = ops.floormod
ops.math.mod = ops.floormod
ops.math.floordiv = ops.floordiv
ops.math.logical_xor = def(function(x, y, opts)
  return ops.logical_and(ops.logical_or(x, y), ops.logical_not(ops.logical_and(x, y)), { name = opts.name })
end, "tf.math.logical_xor(x, y)", "Boolean exclusive or elementwise.", { required = 2, "name" })

local function truediv(x, y, attrs)
  local tx = core.is_tensor(x) and core.dtype(x) or nil
  local ty = core.is_tensor(y) and core.dtype(y) or nil
  if tx and ty and tx ~= ty then
    raise("InvalidArgumentError", ("x and y must have the same dtype, got %s != %s"):format(tx.name, ty.name), 3)
  end
  local dt = tx or ty
  if dt and dt.is_integer then
    -- TF divides integers as float64.
    x = op(H.Cast, { DstT = dtypes.float64 }, to_tensor(x, dt))
    y = op(H.Cast, { DstT = dtypes.float64 }, to_tensor(y, dt))
  end
  return binary(H.RealDiv, x, y, attrs)
end
ops.true_divide = truediv
-- TF's divide is x / y: its node is named truediv, as the operator's.
local TRUEDIV = { name = "truediv" }
ops.divide = def(function(x, y, opts) return truediv(x, y, name_opt(opts, TRUEDIV)) end,
  "tf.divide(x, y)", "x / y elementwise; integers are divided as float64, as in TF.",
  { required = 2, via = { name_opt }, "name" })
ops.truediv = ops.divide
ops.math.divide = ops.divide
ops.math.truediv = ops.divide
ops.realdiv = ops.divide

ops.cast = def(function(x, dtype, opts)
  dtype = dtypes.as_dtype(dtype)
  x = to_tensor(x)
  if core.dtype(x) == dtype then return op(H.Identity, name_opt(opts, { name = "Cast" }), x) end
  return op(H.Cast, { DstT = dtype, name = opts.name or "Cast" }, x)
end, "tf.cast(x, dtype)", "x converted to dtype (floats truncate toward zero into integers).",
{ required = 1, positional = { "dtype" }, "name" })

ops.where = def(function(cond, x, y, opts)
  if x == nil and y == nil then return op(H.Where, name_opt(opts), cond) end
  -- TF's where_v2 refuses one branch alone before building any op.
  if x == nil or y == nil then raise("ValueError", "x and y must both be non-None or both be None.", 2) end
  return op(H.SelectV2, { _typed = 6, name = opts.name or "SelectV2" }, cond, x, y)
end, "tf.where(condition [, x, y])",
"With x and y: elementwise x where condition else y (broadcasting). Alone: the 0-based "
.. "coordinates of the true elements, int64 [n, rank].", { required = 1, positional = { "x", "y" }, "name" })

-- nn ---------------------------------------------------------------------

ops.nn.relu = unary("tf.nn.relu", "Relu", "max(x, 0) elementwise.")
ops.nn.sigmoid = ops.sigmoid
ops.nn.tanh = ops.tanh
ops.math.sigmoid = ops.sigmoid

local function last_axis(fn, opname)
  return function(logits, axis, opts)
    -- An eager tensor axis is read as TF's constant_value reads it; a
    -- traced one stays an error (see softmax_op_spec's known differences).
    if core.is_tensor(axis) and not core.is_symbolic(axis) and axis.shape.rank == 0 then axis = axis:numpy() end
    if axis ~= nil and math.type(axis) ~= "integer" then
      raise("TypeError", "axis must be an integer, got " .. tostring(axis), 2)
    end
    local r = rank_of(logits) or rank_of(to_tensor(logits))
    logits = to_tensor(logits)
    if axis == nil or axis == -1 or (r and axis == r - 1) then
      return op(H[opname], name_opt(opts), logits)
    end
    if r and (axis < -r or axis >= r) then
      -- nn_ops.py's _wrap_2d_function check, raised before any op is built.
      raise("InvalidArgumentError", ("`dim` must be in the range [%d, %d) where %d is the number of dimensions "
        .. "in the input. Received: dim=%d"):format(-r, r, r, axis), 2)
    end
    if r == nil then
      -- Unknown rank: TF's _swap_axis of axis and the last one, the
      -- permutation computed in the graph (the identity when they agree).
      local rk = ops.rank(logits)
      local a = axis < 0 and ops.add(rk, axis) or ops.constant(axis, I32)
      local last = ops.subtract(rk, 1)
      local i = ops.range(0, rk, 1)
      local swap = ops.where(ops.equal(i, a), last, ops.where(ops.equal(i, last), a, i))
      return ops.transpose(op(H[opname], nil, ops.transpose(logits, swap)), swap)
    end
    -- Move the axis last, apply, move it back.
    local perm = {}
    for i = 0, r - 1 do perm[#perm + 1] = i end
    local a = axis < 0 and r + axis or axis
    perm[a + 1], perm[r] = perm[r], perm[a + 1]
    local moved = ops.transpose(logits, perm)
    return ops.transpose(op(H[opname], nil, moved), perm)
  end
end
ops.nn.softmax = def(last_axis(nil, "Softmax"), "tf.nn.softmax(logits [, axis])",
  "exp(x) / sum(exp(x)) along axis (default the last).",
  { required = 1, positional = { "axis" }, via = { name_opt }, "name" })
ops.nn.log_softmax = def(last_axis(nil, "LogSoftmax"), "tf.nn.log_softmax(logits [, axis])",
  "log(softmax(x)) along axis (default the last), computed stably.",
  { required = 1, positional = { "axis" }, via = { name_opt }, "name" })
ops.math.softmax = ops.nn.softmax

ops.nn.bias_add = def(function(value, bias, data_format, opts)
  return op(H.BiasAdd, { name = opts.name, data_format = data_format }, value, bias)
end, "tf.nn.bias_add(value, bias [, data_format])",
"value + bias over the channel dimension: the last one ('NHWC', the default), or the second ('NCHW').",
{ required = 2, positional = { "data_format" }, types = { data_format = "string" }, "name" })

local function stride_list(s)
  if s == nil then return { 1, 1, 1, 1 } end
  if type(s) == "number" then return { 1, s, s, 1 } end
  check_list(s, "tf.nn.conv2d", "strides (and dilations)", 3)
  if #s == 1 then return { 1, s[1], s[1], 1 } end
  if #s == 2 then return { 1, s[1], s[2], 1 } end
  return s
end
ops.nn.conv2d = def(function(input, filters, strides, padding, data_format, dilations, opts)
  return op(H.Conv2D, { strides = stride_list(strides), padding = padding or "VALID",
    dilations = stride_list(dilations), data_format = data_format or "NHWC",
    name = opts.name }, input, filters)
end, "tf.nn.conv2d(input, filters, strides, padding [, data_format] [, dilations] [, {name=}])",
"2-D convolution, NHWC input and HWIO filters; padding 'VALID' or 'SAME'; strides a number or list.",
{ required = 2, positional = { "strides", "padding", "data_format", "dilations" }, "name" })

-- TF's adjoint_a / adjoint_b: the conjugate transpose, which for
-- moonflow's real dtypes is the transpose; asking for both is TF's error.
local function adjoint_or_transpose(opts, x)
  local t, adj = opts["transpose_" .. x], opts["adjoint_" .. x]
  if t and adj then
    raise("ValueError", ("Only one of `transpose_%s` and `adjoint_%s` can be True. Received `transpose_%s`=True, "
      .. "`adjoint_%s`=True."):format(x, x, x, x), 4)
  end
  return (t or adj) and true or false
end

ops.matmul = def(function(a, b, opts)
  a, b = to_tensor(a), to_tensor(b)
  local ta, tb = adjoint_or_transpose(opts, "a"), adjoint_or_transpose(opts, "b")
  local ra, rb = rank_of(a), rank_of(b)
  -- TF's matmul: BatchMatMul unless both ranks are known and at most 2.
  if not ra or not rb or ra > 2 or rb > 2 then
    return binary(H.BatchMatMulV2, a, b, { adj_x = ta, adj_y = tb, name = opts.name })
  end
  return binary(H.MatMul, a, b, { transpose_a = ta, transpose_b = tb, name = opts.name })
end, "tf.matmul(a, b [, {transpose_a=, transpose_b=, adjoint_a=, adjoint_b=, name=}])",
"Matrix product a·b (OpenBLAS for floats); batched when either has rank > 2. adjoint_a/adjoint_b are TF's "
.. "conjugate transposes, the transposes for real dtypes.",
{ required = 2, types = { transpose_a = "boolean", transpose_b = "boolean", adjoint_a = "boolean",
  adjoint_b = "boolean", name = "string" }, "transpose_a", "transpose_b", "adjoint_a", "adjoint_b", "name" })
ops.linalg.matmul = ops.matmul

-- reductions -------------------------------------------------------------

local function axis_tensor(x, axis)
  if axis == nil then
    local r = rank_of(x)
    if r then
      local all = {}
      for i = 0, r - 1 do all[#all + 1] = i end
      return all
    end
    return ops.range(0, ops.rank(x), 1)
  end
  return axis
end

local function reduction(name, opname, text)
  local h = H[opname]
  return def(function(x, axis, keepdims, opts)
    x = to_tensor(x)
    return op(h, { keep_dims = keepdims or false, name = opts.name, _dtypes = { nil, I32 } }, x,
      axis_tensor(x, axis))
  end, name .. "(x [, axis] [, keepdims] [, {name=}])", text .. " over axis (0-based; nil: all axes).",
  { required = 1, positional = { "axis", "keepdims" }, "name" })
end
for _, r in ipairs({
  { "reduce_sum", "Sum", "Sum" }, { "reduce_mean", "Mean", "Mean" }, { "reduce_max", "Max", "Maximum" },
  { "reduce_min", "Min", "Minimum" }, { "reduce_prod", "Prod", "Product" },
  { "reduce_any", "Any", "Logical or" }, { "reduce_all", "All", "Logical and" },
}) do
  ops[r[1]] = reduction("tf." .. r[1], r[2], r[3])
  ops.math[r[1]] = ops[r[1]]
end

local function arg_reduction(name, opname)
  local h = H[opname]
  return def(function(x, axis, output_type, opts)
    local out = output_type and dtypes.as_dtype(output_type) or dtypes.int64
    return op(h, { output_type = out, name = opts.name }, x, axis or 0)
  end, name .. "(x [, axis] [, output_type] [, {name=}])",
  "The 0-based index of the " .. (opname == "ArgMax" and "largest" or "smallest")
  .. " value along axis (default 0), int64 unless output_type says otherwise.",
  { required = 1, positional = { "axis", "output_type" }, "name" })
end
ops.argmax = arg_reduction("tf.argmax", "ArgMax")
ops.argmin = arg_reduction("tf.argmin", "ArgMin")
ops.math.argmax, ops.math.argmin = ops.argmax, ops.argmin

-- shapes -----------------------------------------------------------------

ops.shape = def(function(x, out_type, opts)
  return op(H.Shape, { out_type = out_type and dtypes.as_dtype(out_type) or dtypes.int32, name = opts.name }, x)
end, "tf.shape(x [, out_type])", "The dynamic shape of x as an int32 vector.",
{ required = 1, positional = { "out_type" }, "name" })
ops.size = def(function(x, out_type, opts)
  return op(H.Size, { out_type = out_type and dtypes.as_dtype(out_type) or dtypes.int32, name = opts.name }, x)
end, "tf.size(x [, out_type])", "The number of elements of x, an int32 scalar.",
{ required = 1, positional = { "out_type" }, "name" })
ops.rank = def(function(x, opts) return op(H.Rank, { name = opts.name }, x) end, "tf.rank(x)",
  "The rank of x, an int32 scalar.", { required = 1, "name" })

ops.reshape = def(function(x, shape, opts)
  return op(H.Reshape, { _dtypes = { nil, I32 }, name = opts.name }, x, shape_arg(shape))
end, "tf.reshape(x, shape)", "x with a new shape of the same size; one dimension may be -1.",
{ required = 1, positional = { "shape" }, "name" })

ops.transpose = def(function(x, perm, opts)
  x = to_tensor(x)
  if perm == nil then
    local r = rank_of(x)
    if not r then
      local rk = ops.rank(x)
      perm = ops.subtract(ops.subtract(rk, 1), ops.range(rk))
    else
      perm = {}
      for i = r - 1, 0, -1 do perm[#perm + 1] = i end
    end
  end
  return op(H.Transpose, { _dtypes = { nil, I32 }, name = opts.name }, x, perm)
end, "tf.transpose(x [, perm])", "x with its axes permuted (reversed by default).",
{ required = 1, positional = { "perm" }, "name" })

local function values_list(values)
  if core.is_tensor(values) then return ops.unstack(values) end
  return values
end

ops.concat = def(function(values, axis, opts)
  values = values_list(values)
  check_list(values, "tf.concat", "values")
  if #values == 0 then
    raise("ValueError", "List argument 'values' to 'ConcatV2' Op with length 0 shorter than minimum "
      .. "length 2.", 3)
  end
  local args = {}
  for i = 1, #values do args[i] = values[i] end
  args[#args + 1] = axis or 0
  local mask = (1 << #values) - 1
  return op(H.ConcatV2, { _typed = mask, name = opts.name or "concat" }, table.unpack(args))
end, "tf.concat(values, axis)", "Joins a list of tensors along an existing axis.",
{ required = 1, positional = { "axis" }, "name" })

-- The static rank of a tensor, variable or Lua value (nil when unknown,
-- or for a table inside itself, which conversion then refuses).
local function value_rank(v, seen)
  if core.is_tensor(v) then
    local shape = shape_of(v)
    return shape and #shape
  end
  local mt = getmetatable(v)
  if mt and mt.__tf_tensor then return value_rank(mt.__tf_tensor(v)) end
  if type(v) == "table" and mt == nil then
    if v[1] == nil then return 1 end
    seen = seen or {}
    if seen[v] then return nil end
    seen[v] = true
    local inner = value_rank(v[1], seen)
    return inner and inner + 1
  end
  if type(v) == "number" or type(v) == "boolean" or type(v) == "string" then return 0 end
  return nil
end

ops.stack = def(function(values, axis, opts)
  check_list(values, "tf.stack", "values")
  axis = axis or 0
  -- TF's stack checks the axis against the first value's static rank + 1.
  local rank = math.type(axis) == "integer" and value_rank(values[1])
  if rank then
    local n = rank + 1
    if axis < -n or axis >= n then
      raise("ValueError", ("Argument `axis` = %d not in range [%d, %d)"):format(axis, -n, n), 3)
    end
  end
  local mask = (1 << #values) - 1
  return op(H.Pack, { axis = axis or 0, _typed = mask, name = opts.name or "stack" }, table.unpack(values))
end, "tf.stack(values [, axis])", "Stacks a list of tensors along a new axis.",
{ required = 1, positional = { "axis" }, "name" })

ops.unstack = def(function(value, num, axis, opts)
  value = to_tensor(value)
  axis = axis or 0
  if math.type(axis) ~= "integer" then
    raise("TypeError", "tf.unstack: axis must be an integer, got " .. tostring(axis), 2)
  end
  if num == nil then
    -- TF's unstack: the axis checked against a known rank, num from its dimension.
    local shape = shape_of(value)
    if shape then
      if axis < -#shape or axis >= #shape then
        raise("ValueError", ("Argument `axis` = %d not in range [%d, %d)"):format(axis, -#shape, #shape), 3)
      end
      num = shape[(axis < 0 and #shape + axis or axis) + 1]
      if num < 0 then num = nil end
    end
    if num == nil then
      raise("ValueError", "Cannot infer argument `num` from shape " .. tostring(shapes.TensorShape(shape)), 3)
    end
  end
  return { op(H.Unpack, { num = num, axis = axis, name = opts.name or "unstack" }, value) }
end, "tf.unstack(value [, num] [, axis] [, {name=}])", "A Lua list of the tensors along axis.",
{ required = 1, positional = { "num", "axis" }, "name" })

ops.expand_dims = def(function(x, axis, opts)
  return op(H.ExpandDims, name_opt(opts), x, axis)
end, "tf.expand_dims(x, axis)", "x with a new size-1 axis at position axis.",
{ required = 1, positional = { "axis" }, via = { name_opt }, "name" })

ops.squeeze = def(function(x, axis, opts)
  if type(axis) == "number" then axis = { axis } end
  return op(H.Squeeze, { squeeze_dims = axis or {}, name = opts.name }, x)
end, "tf.squeeze(x [, axis])", "x without size-1 axes (all, or those listed).",
{ required = 1, positional = { "axis" }, "name" })

ops.tile = def(function(x, multiples, opts)
  return op(H.Tile, { _dtypes = { nil, I32 }, name = opts.name }, x, shape_arg(multiples))
end, "tf.tile(x, multiples)", "x repeated multiples[i] times along each axis.",
{ required = 1, positional = { "multiples" }, "name" })

-- array_ops.pad: the mode is case-insensitive (NumPy's names are lower
-- case); CONSTANT pads with Pad (PadV2 for a constant_values tensor or
-- other value), REFLECT and SYMMETRIC with MirrorPad, which ignores
-- constant_values as TF's does.
local MIRROR_MODES = { REFLECT = true, SYMMETRIC = true }
ops.pad = def(function(x, paddings, mode, opts)
  mode = mode == nil and "CONSTANT" or tostring(mode):upper()
  x = to_tensor(x)
  local types = { nil, I32, core.dtype(x) }
  if MIRROR_MODES[mode] then
    return op(H.MirrorPad, { name = opts.name or "MirrorPad", mode = mode, _dtypes = types }, x, paddings)
  elseif mode ~= "CONSTANT" then
    raise("ValueError", 'Value of argument `mode` expected to be one of "CONSTANT", "REFLECT", '
      .. 'or "SYMMETRIC". Received `mode` = ' .. mode, 2)
  end
  if opts.constant_values and opts.constant_values ~= 0 then
    return op(H.Pad, { name = opts.name or "Pad", _dtypes = types }, x, paddings, opts.constant_values)
  end
  return op(H.Pad, { name = opts.name or "Pad", _dtypes = types }, x, paddings)
end, "tf.pad(x, paddings [, mode] [, {constant_values=, name=}])",
"x padded with paddings[i] = {before, after} per axis: with constant_values (mode 'CONSTANT', "
  .. "the default), or mirrored from x ('REFLECT' without the border, 'SYMMETRIC' with it; "
  .. "modes are case-insensitive).",
{ required = 1, positional = { "paddings", "mode" }, "constant_values", "name" })

ops.broadcast_to = def(function(x, shape, opts)
  return op(H.BroadcastTo, { _dtypes = { nil, I32 }, name = opts.name }, x, shape_arg(shape))
end,
  "tf.broadcast_to(x, shape)", "x broadcast to shape.", { required = 1, positional = { "shape" }, "name" })

local function int_vector(v)
  if core.is_tensor(v) then return v end
  local has_tensor = false
  if type(v) == "table" then
    for i = 1, #v do if core.is_tensor(v[i]) then has_tensor = true end end
  end
  if has_tensor then
    local parts = {}
    for i = 1, #v do parts[i] = v[i] end
    return ops.stack(parts)
  end
  return v
end

ops.slice = def(function(x, begin, size, opts)
  return op(H.Slice, { _dtypes = { nil, I32, I32 }, name = opts.name }, x, int_vector(begin),
    int_vector(size))
end, "tf.slice(x, begin, size)", "The block starting at begin (0-based) of the given size (-1: to the end).",
{ required = 1, positional = { "begin", "size" }, "name" })

ops.strided_slice = def(function(x, begin, end_, strides, opts)
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
  }, x, int_vector(begin), int_vector(end_), int_vector(strides))
end, "tf.strided_slice(x, begin, end [, strides] [, {begin_mask=, end_mask=, ...}])",
"NumPy-style slicing with explicit bounds (0-based) and TF's masks.",
{ required = 1, positional = { "begin", "end", "strides" }, "begin_mask", "end_mask", "ellipsis_mask",
  "new_axis_mask", "shrink_axis_mask", "name" })

-- TF's third positional argument is the deprecated validate_indices;
-- moonflow takes axis there (and as {axis=}).
-- As TF's array_ops.gather, axis defaults to batch_dims (the first axis
-- after the batch axes), not 0.
ops.gather = def(function(params, indices, axis, batch_dims, opts)
  batch_dims = batch_dims or 0
  if axis == nil then axis = batch_dims end
  return op(H.GatherV2, { batch_dims = batch_dims, name = opts.name or "GatherV2" },
    params, indices, axis)
end, "tf.gather(params, indices [, axis] [, batch_dims] [, {name=}])",
"Rows (0-based indices) of params along axis (default: batch_dims, the first axis after the batch axes).",
{ required = 1, positional = { "indices", "axis", "batch_dims" }, "name" })

ops.identity = def(function(x, opts) return op(H.Identity, name_opt(opts), x) end,
  "tf.identity(x)", "x itself, as a new node.", { required = 1, via = { name_opt }, "name" })
ops.stop_gradient = def(function(x, opts) return op(H.StopGradient, name_opt(opts), x) end,
  "tf.stop_gradient(x)", "x, through which no gradient flows.", { required = 1, via = { name_opt }, "name" })

ops.math.unsorted_segment_sum = def(function(data, segment_ids, num_segments, opts)
  return op(H.UnsortedSegmentSum, { name = opts.name }, data, segment_ids, num_segments)
end, "tf.math.unsorted_segment_sum(data, segment_ids, num_segments)", "Sums of data rows per segment id.",
{ required = 1, positional = { "segment_ids", "num_segments" }, "name" })

-- images and strings --------------------------------------------------------

ops.image.resize = def(function(images, size, method, opts)
  if method ~= nil and method ~= "bilinear" then
    raise("ValueError", "tf.image.resize: moonflow implements method 'bilinear' only, got " .. tostring(method), 2)
  end
  images = to_tensor(images)
  local r = rank_of(images)
  local batched = images
  if r == 3 then batched = ops.expand_dims(images, 0) end
  if core.dtype(batched) ~= dtypes.float32 then batched = ops.cast(batched, dtypes.float32) end
  local out = op(H.ResizeBilinear, { align_corners = false, half_pixel_centers = true,
    name = opts.name, _dtypes = { nil, I32 } }, batched, int_vector(size))
  if r == 3 then out = ops.squeeze(out, { 0 }) end
  return out
end, "tf.image.resize(images, {height, width} [, method])",
"Bilinear resize of NHWC (or HWC) images to the given size; float32 results.",
{ required = 1, positional = { "size", "method" }, "name" })

ops.strings.length = def(function(x, unit, opts)
  return op(H.StringLength, { unit = unit or "BYTE", name = opts.name }, x)
end, "tf.strings.length(x [, unit] [, {name=}])", "The length of each string, in bytes or UTF8_CHAR.",
{ required = 1, positional = { "unit" }, "name" })

ops.strings.join = def(function(inputs, separator, opts)
  check_list(inputs, "tf.strings.join", "inputs")
  return op(H.StringJoin, { separator = separator or "", name = opts.name }, table.unpack(inputs))
end, "tf.strings.join(inputs [, separator])", "Joins string tensors elementwise with separator.",
{ required = 1, positional = { "separator" }, "name" })

ops.timestamp = def(function(opts) return op(H.Timestamp, { name = opts.name }) end,
  "tf.timestamp()", "Wall-clock seconds since the epoch as a float64 scalar; an op, so it runs at each graph run.",
  { "name" })

-- random -----------------------------------------------------------------

local function random_op(opname, shape, dtype, seed, opts)
  dtype = dtype and dtypes.as_dtype(dtype) or dtypes.float32
  return op(H[opname], { dtype = dtype.is_floating and dtype or dtypes.float32, seed = seed or 0, seed2 = 0,
    name = opts.name, _dtypes = { I32 } }, shape_arg(shape)), dtype
end

-- A distribution parameter: a Lua number, or a tensor of the sample's dtype.
local function number_or_tensor(v, like)
  if type(v) == "number" or core.is_tensor(v) then return v end
  return to_tensor(v, core.dtype(like))
end

ops.random.normal = def(function(shape, mean, stddev, dtype, seed, opts)
  local x
  x, dtype = random_op("RandomStandardNormal", shape, dtype, seed, opts)
  stddev, mean = number_or_tensor(stddev or 1, x), number_or_tensor(mean or 0, x)
  if stddev ~= 1 then x = x * stddev end
  if mean ~= 0 then x = x + mean end
  if dtype ~= core.dtype(x) then x = ops.cast(x, dtype) end
  return x
end, "tf.random.normal(shape [, {mean=, stddev=, dtype=, seed=, name=}])", "Normally distributed values.",
{ required = 1, positional = { "mean", "stddev", "dtype", "seed" }, "name" })

ops.random.uniform = def(function(shape, minval, maxval, dtype, seed, opts)
  local x
  x, dtype = random_op("RandomUniform", shape, dtype, seed, opts)
  local lo, hi = number_or_tensor(minval or 0, x), number_or_tensor(maxval or 1, x)
  if dtype.is_integer then
    if maxval == nil then raise("ValueError", "Must specify maxval for integer dtype " .. dtype.name, 2) end
    return ops.cast(ops.floor(x * (hi - lo) + lo), dtype)
  end
  if hi - lo ~= 1 then x = x * (hi - lo) end
  if lo ~= 0 then x = x + lo end
  return x
end, "tf.random.uniform(shape [, {minval=, maxval=, dtype=, seed=, name=}])", "Uniform values in [minval, maxval).",
{ required = 1, positional = { "minval", "maxval", "dtype", "seed" }, "name" })

ops.random.set_seed = def(function(seed)
  local n = math.tointeger(seed)
  if n == nil then raise("TypeError", "tf.random.set_seed: the seed must be an integer, got " .. tostring(seed), 2) end
  core.set_seed(n)
end,
  "tf.random.set_seed(seed)", "Makes the random ops that follow reproducible.", { required = 1 })

-- Library-internal (the other modules' view, not part of tf).
ops.internal = { to_tensor = true, true_divide = true, internal = true }

return ops
