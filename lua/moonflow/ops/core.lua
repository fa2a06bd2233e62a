-- core.lua — the core family (core/ops/ops_core.c): tf.constant (Const)
-- and the conversions every other family starts from (to_tensor, and
-- shape_arg for shape-like arguments), tf.identity, tf.stop_gradient,
-- tf.timestamp, tf.lua_function (EagerLuaFunc, TF's py_function) and
-- tf.print (PrintV2 of a StringFormat).
-- Every family builds on this one, so it requires none of them: the few
-- Cast, Pack, Reshape and Fill nodes a conversion needs are built here
-- with core.op directly, exactly as tf.cast, tf.stack, tf.reshape and
-- tf.fill build them.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local options = require("moonflow.options")
local common = require("moonflow.ops.common")
local raise = errors.raise

local op = core.op
local H = state.H
local op_def, name_opt, shape_of = common.op_def, common.name_opt, shapes.of
local I32 = dtypes.int32

local M = {}

-- The nodes tf.cast(t, dtype) (t of another dtype) and tf.stack(parts)
-- build, for the conversions below.
local function cast_node(t, dtype)
  return op(H.Cast, { DstT = dtype, name = "Cast" }, t)
end

local function stack_node(parts)
  return op(H.Pack, { axis = 0, _typed = (1 << #parts) - 1, name = "stack" }, table.unpack(parts))
end

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
      if cast and core.dtype(t) ~= dtype then t = cast_node(t, dtype) end
      if core.dtype(t) ~= dtype then
        raise("TypeError", ("Cannot convert a list containing a tensor of dtype %s to %s (Tensor is: %s)")
          :format(core.dtype(t).name, dtype.name, getmetatable(t).__repr(t)), 4)
      end
      parts[i] = t
    elseif type(x) == "table" and getmetatable(x) == nil and nested_tensor_dtype(x) then
      parts[i] = autopack(x, dtype, cast, seen)
    else
      parts[i] = M.constant(x, dtype)
    end
  end
  seen[v] = nil
  return stack_node(parts)
end

--- A tensor from a tensor, a tensor-like value (a variable) or a Lua
--- value (lists holding tensors are stacked); library-internal.
local function to_tensor(x, dtype)
  local t = tensor_like(x)
  if t then return t end
  if type(x) == "table" and getmetatable(x) == nil then
    local inner = nested_tensor_dtype(x)
    if inner then return autopack(x, dtype or inner, dtype ~= nil and dtype ~= inner) end
  end
  return M.constant(x, dtype)
end
M.to_tensor = to_tensor

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

local function reshape_node(t, dims)
  return op(H.Reshape, { _dtypes = { nil, I32 } }, t, dims)
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
  if have == want then return reshape_node(t, dims) end
  if have == 1 then return op(H.Fill, { _dtypes = { I32 } }, dims, reshape_node(t, {})) end
  raise("TypeError", ("Eager execution of tf.constant with unsupported shape. Tensor %s (converted from %s) "
    .. "has %d elements, but got `shape` %s with %d elements)."):format(tostring(t), python_text(value), have,
    tostring(shapes.TensorShape(dims)), want), 3)
end

M.constant = op_def("Const", function(value, dtype, shape, opts)
  if dtype ~= nil then dtype = dtypes.as_dtype(dtype) end
  local t
  if core.is_tensor(value) then
    t = value
    if core.is_symbolic(t) then
      if dtype and core.dtype(t) ~= dtype then t = cast_node(t, dtype) end
      if shape ~= nil then t = reshape_node(t, constant_dims(shape)) end
      return t
    end
    if dtype and core.dtype(t) ~= dtype then t = cast_node(t, dtype) end
  else
    local mt = getmetatable(value)
    if mt and mt.__tf_tensor then
      t = mt.__tf_tensor(value)
      if dtype and core.dtype(t) ~= dtype then t = cast_node(t, dtype) end
      if core.is_symbolic(t) then
        if shape ~= nil then t = reshape_node(t, constant_dims(shape)) end
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
"Made from a Lua value: integers become int32, floats float32, booleans bool, "
.. "strings string; nested sequence tables give the shape. With a shape, a value of that size is "
.. "reshaped and a single value is broadcast to it (TF's TypeError otherwise). Eagerly it is the "
.. "tensor itself; inside a traced function, a Const node.",
{ required = 1, positional = { "dtype", "shape" }, "name" })

M.convert_to_tensor = options.def(function(value, dtype, opts)
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

--- A shape-like argument (a list, a TensorShape, an integer, a tensor):
--- Lua values stay Lua values, which the op path converts (to int32, by
--- `_dtypes`) into eager tensors or, while tracing, Const nodes named
--- after the op's argument ("Reshape/shape"); library-internal.
function M.shape_arg(shape)
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

M.identity = op_def("Identity", function(x, opts) return op(H.Identity, name_opt(opts), x) end,
  "tf.identity(x)", "A new node in a traced graph.", { required = 1, via = { name_opt }, "name" })
M.stop_gradient = op_def("StopGradient", function(x, opts) return op(H.StopGradient, name_opt(opts), x) end,
  "tf.stop_gradient(x)", nil, { required = 1, via = { name_opt }, "name" })

-- TF's identity_n: a list in, the same list out, through one IdentityN
-- node (the node tf.custom_gradient records inside a traced function).
M.identity_n = op_def("IdentityN", function(input, opts)
  if type(input) ~= "table" or getmetatable(input) ~= nil or #input == 0 then
    raise("TypeError", "tf.identity_n expects a non-empty Lua list of tensors, got " .. tostring(input), 1)
  end
  local tensors = {}
  for i, x in ipairs(input) do tensors[i] = M.convert_to_tensor(x) end
  return { op(H.IdentityN, name_opt(opts), table.unpack(tensors)) }
end, "tf.identity_n(input)", "Each tensor of the list, as a list.", { required = 1, via = { name_opt }, "name" })
M.timestamp = op_def("Timestamp", function(opts) return op(H.Timestamp, { name = opts.name }) end,
  "tf.timestamp()", "An op, so it runs again at each run of a traced graph.", { "name" })

M.lua_function = op_def("EagerLuaFunc", function(fn, inputs, Tout, opts)
  if type(fn) ~= "function" then
    raise("TypeError", "tf.lua_function expects a Lua function", 1)
  end
  if inputs ~= nil and type(inputs) ~= "table" then
    raise("TypeError", "tf.lua_function: inputs must be a Lua list of tensors, got a " .. type(inputs), 1)
  end
  local single = getmetatable(Tout) == core.dtype_metatable
  if not single and Tout ~= nil and type(Tout) ~= "table" then
    raise("TypeError", "tf.lua_function: Tout must be a dtype or a Lua list of dtypes, got " .. tostring(Tout), 1)
  end
  local touts = single and { Tout } or Tout or {}
  local types = {}
  for i, t in ipairs(touts) do types[i] = dtypes.as_dtype(t) end
  local args = {}
  for i = 1, #(inputs or {}) do args[i] = to_tensor(inputs[i]) end
  local outs = table.pack(core.op(H.EagerLuaFunc, { func = fn, Tout = types,
    name = opts.name or "EagerLuaFunc" }, table.unpack(args)))
  if single then return outs[1] end
  return table.unpack(outs, 1, outs.n)
end, "tf.lua_function(fn, inputs, Tout)",
"The Lua side: fn(tensors...) runs eagerly each time the op runs, even inside a traced function. "
.. "Tout is a dtype (one result) or a list of dtypes.", { required = 3, "name" })

-- tf.print -----------------------------------------------------------------------

-- tf.print is an op (StringFormat + PrintV2), so it prints every time the
-- graph runs, unlike Lua's print, which runs only while tracing.
local OPTION_KEYS = { output_stream = true, sep = true, ["end"] = true, summarize = true, name = true }

local function is_options(v)
  if type(v) ~= "table" or getmetatable(v) ~= nil or v[1] ~= nil then return false end
  for k in pairs(v) do
    if not OPTION_KEYS[k] then return false end
  end
  return next(v) ~= nil
end

local OPTION_NAMES = { "output_stream", "sep", "end", "summarize", "name" }

-- A last table of string keys one of which is an option's name mistyped
-- ({output_strem = 1}) would print as a dict and drop the option without
-- a word: Python refuses such a keyword, so this is TF's TypeError.
local function check_mistyped_options(v)
  if type(v) ~= "table" or getmetatable(v) ~= nil or v[1] ~= nil then return end
  for k in pairs(v) do
    local near = type(k) == "string" and options.suggest(k, OPTION_NAMES)
    if near then
      raise("TypeError", ("tf.print got an unexpected keyword argument '%s', did you mean '%s'? (to print "
        .. "a table with this key, pass an options table after it, e.g. {sep = \" \"})"):format(k, near))
    end
  end
end

-- The keys of a table that is not a plain list, in the order TF's nest
-- sorts a dict's keys (numbers first, numerically, then strings); nil for
-- a list, which prints as [a, b].
local function dict_keys(x)
  local n, keys, list = #x, {}, true
  for k in pairs(x) do
    keys[#keys + 1] = k
    if not (math.type(k) == "integer" and k >= 1 and k <= n) then list = false end
  end
  if list then return nil end
  table.sort(keys, function(a, b)
    local na, nb = type(a) == "number", type(b) == "number"
    if na ~= nb then return na end
    if na or type(a) == type(b) and type(a) == "string" then return a < b end
    return tostring(a) < tostring(b)
  end)
  return keys
end

-- A dict key as Python's repr shows it: strings quoted.
local function key_text(k)
  if type(k) == "string" then return "'" .. k .. "'" end
  return tostring(k)
end

-- Template text for one argument; tensors become MARK (replaced by the
-- placeholder once all literal text, dict keys included, is known) and
-- are collected.
local MARK = "\0"
local template_of

-- An element of a list or dict: a Lua string shows quoted, as in the
-- Python repr TF prints a structure with.
local function element_of(x, tensors, open)
  if type(x) == "string" then return key_text(x) end
  return template_of(x, tensors, open)
end

-- `open` holds the tables being printed: a table inside itself prints as
-- [...] or {...}, as Python's repr shows a recursive list or dict.
function template_of(x, tensors, open)
  if core.is_tensor(x) then
    tensors[#tensors + 1] = x
    return MARK
  end
  local mt = getmetatable(x)
  if mt and mt.__tf_tensor then
    tensors[#tensors + 1] = mt.__tf_tensor(x)
    return MARK
  end
  if type(x) == "table" and mt == nil then
    open = open or {}
    local keys = dict_keys(x)
    if open[x] then return keys and "{...}" or "[...]" end
    open[x] = true
    local parts = {}
    if not keys then
      for i = 1, #x do parts[i] = element_of(x[i], tensors, open) end
      open[x] = nil
      return "[" .. table.concat(parts, ", ") .. "]"
    end
    for i, k in ipairs(keys) do
      parts[i] = key_text(k) .. ": " .. element_of(x[k], tensors, open)
    end
    open[x] = nil
    return "{" .. table.concat(parts, ", ") .. "}"
  end
  return tostring(x)
end

-- A placeholder that occurs in none of the literal text (StringFormat has
-- no escape syntax).
local function placeholder_for(parts)
  local text = table.concat(parts, "\0")
  local p = "{}"
  local k = 0
  while text:find(p, 1, true) do
    k = k + 1
    p = "{" .. k .. "}"
  end
  return p
end

-- TF checks output_stream when tf.print is called, not when the op runs.
local function check_stream(stream)
  if stream == nil or type(stream) == "function" or io.type(stream) == "file" then return end
  local ok, write = pcall(function() return stream.write end)
  if ok and (type(write) == "function" or getmetatable(write) and getmetatable(write).__call) then return end
  raise("ValueError", tostring(stream) .. " is not a valid output stream for tf.print: "
    .. "expected a Lua file, a function receiving the text, or an object with a write method")
end

local function sink(stream)
  check_stream(stream)
  if type(stream) == "function" then return stream end
  return function(text)
    local f = stream or io.stdout
    f:write(text)
    if f.flush then f:flush() end
  end
end

M.print = op_def("PrintV2", function(...)
  local args = table.pack(...)
  local opts = {}
  if args.n > 0 and is_options(args[args.n]) then
    opts = args[args.n]
    args.n = args.n - 1
  elseif args.n > 0 then
    check_mistyped_options(args[args.n])
  end
  local tensors, parts, literal = {}, {}, {}
  for i = 1, args.n do
    local x = args[i]
    if core.is_tensor(x) or type(x) == "table" then
      parts[i] = x
    else
      parts[i] = tostring(x)
      literal[#literal + 1] = parts[i]
    end
  end
  for i = 1, args.n do
    if type(parts[i]) ~= "string" then
      parts[i] = template_of(parts[i], tensors)
      literal[#literal + 1] = (parts[i]:gsub(MARK, "\1"))
    end
  end
  local ph = placeholder_for(literal)
  for i = 1, args.n do parts[i] = parts[i]:gsub(MARK, ph) end
  local write = sink(opts.output_stream)
  local formatted
  local only = args.n == 1 and core.is_tensor(args[1]) and args[1]
  if only and core.dtype(only) == dtypes.string and #select(3, core.info(only)) == 0 then
    formatted = only -- a lone string scalar prints bare, as in TF
  else
    formatted = core.op(H.StringFormat, { template = table.concat(parts, opts.sep or " "),
      placeholder = ph, summarize = opts.summarize or 3 }, table.unpack(tensors))
  end
  core.op(H.PrintV2, { ["end"] = opts["end"] or "\n", name = opts.name,
    output_callback = function(t) write(core.element(t, 0)) end }, formatted)
end, "tf.print(... [, {output_stream=, sep=, end=, summarize=, name=}])",
"Here its arguments, formatted by op StringFormat: inside a traced function it prints every time "
.. "the graph runs (Lua's print runs only while tracing). Tensors are shown as [1 2 3]; output_stream is a Lua "
.. "file (default io.stdout) or a function receiving the text. A last table naming one of these "
.. "options is the options (any other key in it is an error); a table naming none is printed.",
{ vararg = "some", "output_stream", "sep", "end", "summarize", "name" })

M.namespaces = {
  tf = { "constant", "convert_to_tensor", "identity", "identity_n", "stop_gradient", "timestamp", "lua_function", "print" },
  lib = { "to_tensor", "shape_arg" },
}

return M
