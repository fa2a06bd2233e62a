-- variable.lua — tf.Variable: a handle to mutable state. Reads and writes
-- are ops (ReadVariableOp, Assign*VariableOp), so inside traced functions
-- they become graph nodes that run in program order, and the variable is
-- captured by reference (a resource input), never by value.
--
-- As TF's assign methods, v:assign(x) and its kin return an "unread
-- variable" (TF's _UnreadVariable): the same variable under the name
-- 'UnreadVariable', read when it is used, so an update whose result goes
-- unused reads nothing and the results chain (v:assign_add(1):assign_add(1)).

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local doc = require("moonflow.doc")
local options = require("moonflow.options")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local ops = require("moonflow.ops")
local tensors = require("moonflow.tensor.tensor")
local receiver = require("moonflow.receiver")
local name_scope = require("moonflow.trace.name_scope")
local graphs = require("moonflow.trace.graph")
local raise = errors.raise

local variables = {}

local H = state.H
local op = core.op
local Variable = { __name = "Variable" }
local methods = {}
variables.metatable = Variable

local function is_variable(x) return getmetatable(x) == Variable end
variables.is_variable = is_variable

-- TF's rule for tf.func: variables may be created on a function's first
-- trace only; a trace that creates them is traced again with creation
-- forbidden (func.lua), and that trace must not create any.
local function check_creation()
  local trace = state.current_trace()
  if not trace then return end
  if trace.forbid then
    raise("ValueError", ("tf.func only supports singleton tf.Variables created on the first "
      .. "call. Make sure the tf.Variable is only created once or created outside tf.func "
      .. "('%s', trace #%d). See the guide section \"Creating tf.Variables\"."):format(
      trace.fn.name, trace.number), 4)
  end
  trace.created = true
end

-- Which Variable a handle belongs to: the eager handles the tape was
-- told about (tape:watch) and the proxies of variables passed to traced
-- functions; any other eager handle by its resource id.
local handle_variables = setmetatable({}, { __mode = "k" })
-- A proxy's placeholder by its graph identity too: a gradient walks the
-- graph's nodes (core.graph_tensor), which are other userdata for the same
-- tensor. Weak values: while a proxy lives, its handle keeps its graph
-- (and so the identity) alive.
local proxy_by_identity = setmetatable({}, { __mode = "v" })

function variables.register_handle(handle, v)
  handle_variables[handle] = v
  if core.is_symbolic(handle) then proxy_by_identity[core.identity(handle)] = v end
end

function variables.of_handle(handle)
  local v = handle_variables[handle]
  if v then return v end
  if core.is_tensor(handle) and core.dtype(handle) == dtypes.resource then
    if core.is_symbolic(handle) then return proxy_by_identity[core.identity(handle)] end
    return state.variable_by_id(core.variable_info(handle))
  end
end

local function read(v)
  return op(H.ReadVariableOp, { dtype = v.dtype, name = "ReadVariableOp" }, v.handle)
end

-- TF's variable_accessed: recording tapes that watch accessed variables
-- watch a trainable one that an update returns unread (no read op tells
-- them, as it does for reads).
local function accessed(v)
  if v.trainable and state.on_variable_accessed then state.on_variable_accessed(v) end
end

local function initial_tensor(initial, dtype)
  if type(initial) == "function" then initial = initial() end
  if is_variable(initial) then initial = read(initial) end
  local t = initial
  if core.is_tensor(t) then
    -- On a first trace, TF lifts a value computed from the arguments
    -- (func.lua evaluates it on the call's arguments).
    local trace = core.is_symbolic(t) and state.current_trace()
    local lifted = trace and not trace.forbid and trace.lift and trace.lift(t)
    if lifted then t = lifted end
    if core.is_symbolic(t) then
      raise("ValueError", "tf.Variable's initial value " .. tensors.symbolic_text(t)
        .. " is a symbolic tensor of the function being traced. tf.func only supports "
        .. "singleton tf.Variables created on the first call, from values known outside the "
        .. "graph: create the variable outside the function, or from a constant.", 4)
    end
    if dtype and core.dtype(t) ~= dtype then t = ops.cast(t, dtype) end
  else
    t = core.convert(t, dtype)
  end
  return t
end

local function callable(f)
  if type(f) == "function" then return true end
  local mt = getmetatable(f)
  return type(mt) == "table" and rawget(mt, "__call") ~= nil
end

local function lua_repr(x)
  if type(x) == "string" then return ("%q"):format(x) end
  return tostring(x)
end

-- The declared shape: the initial value's, or the `shape` option (which
-- may leave dimensions or the rank unknown) when it fits that value.
local function declared_shape(t, shape)
  local have = shapes.TensorShape(select(3, core.info(t)))
  if shape == nil then return have end
  shape = shapes.as_shape(shape)
  if not have:is_compatible_with(shape) then
    raise("ValueError", ("In this `tf.Variable` creation, the initial value's shape (%s) is not "
      .. "compatible with the explicitly supplied `shape` argument (%s)."):format(tostring(have),
      tostring(shape)), 4)
  end
  return shape
end

variables.Variable = options.def(function(initial, dtype, opts)
  if initial == nil then
    raise("ValueError", "The `initial_value` arg to `tf.Variable` must be specified except when "
      .. "you are not providing a `variable_def`. You provided neither.", 2)
  end
  local constraint = opts.constraint
  if constraint ~= nil and not callable(constraint) then
    raise("ValueError", ("Argument `constraint` must be None or a callable. Got a %s: %s"):format(
      type(constraint), lua_repr(constraint)), 2)
  end
  dtype = dtype and dtypes.as_dtype(dtype) or nil
  check_creation()
  -- TF names a variable under the name scope open where it is made, the
  -- traced function's (init_scope keeps it) or the eager one.
  local name = name_scope.current_prefix() .. (opts.name or "Variable")
  -- Initial values are computed outside any graph being traced.
  local t = state.in_eager_scope(function() return initial_tensor(initial, dtype) end)
  local shape = declared_shape(t, opts.shape)
  local trainable = opts.trainable
  if trainable == nil then trainable = true end
  local handle = core.variable_new(t, name, trainable)
  if opts.shape ~= nil then core.variable_set_shape(handle, shape.rank and shape:as_list() or nil) end
  local id = core.variable_info(handle)
  local v = setmetatable({
    handle = handle, dtype = core.dtype(t), shape = shape, name = name .. ":0",
    trainable = trainable, id = id, constraint = constraint,
  }, Variable)
  state.variables[id] = v
  return v
end, "tf.Variable(initial [, dtype] [, {dtype=, name=, trainable=, shape=, constraint=}])",
"Mutable state: a handle to a value that assign/assign_add/assign_sub replace. Operators read "
.. "the value. Inside tf.func the variable is captured by reference. The name is taken under the "
.. "open tf.name_scope ('outer/w:0'); shape = tf.TensorShape(nil) (or dimensions tf.None) lets "
.. "values of other shapes be assigned; constraint is kept as v.constraint.",
{ required = 1, positional = { "dtype" }, "name", "trainable", "shape", "constraint" })

-- Inside a trace, a variable passed as an argument is a proxy whose
-- handle is the resource placeholder of the graph.
function variables.proxy(example, handle)
  local v = setmetatable({ handle = handle, dtype = example.dtype, shape = example.shape,
    name = example.name, trainable = example.trainable, id = example.id,
    constraint = example.constraint, _proxy = true }, Variable)
  variables.register_handle(handle, v)
  return v
end

-- TF's _UnreadVariable: the variable `v` again, named 'UnreadVariable'.
local function unread(v)
  return setmetatable({ handle = v.handle, dtype = v.dtype, shape = v.shape, name = "UnreadVariable",
    trainable = v.trainable, id = v.id, constraint = v.constraint, _proxy = v._proxy, _unread = true },
    Variable)
end

receiver.metatable(Variable, "variable", methods)

-- Fields: the tensor methods a variable has too (TF's Variable carries
-- the Tensor operators), the elementwise comparisons x:lt(y) ..., read
-- on the variable's current value; and its constraint, TF's None.
local fields = { constraint = function() return nil end }
for _, k in ipairs({ "lt", "le", "gt", "ge", "eq", "ne" }) do
  fields[k] = function()
    return function(self, ...)
      local t = read(self)
      return t[k](t, ...)
    end
  end
end

Variable.__index = receiver.index(Variable, "variable", {
  methods = { methods },
  fields = fields,
  -- v[i], v["1:, ::2"], v[tf.newaxis], v[mask]: TF's _slice_helper_var
  -- slices the variable's current value. A field name reads nothing.
  other = function(v, k)
    local field = type(k) == "string" and k:find("^[%a_][%w_]*$") and k ~= "None" and k ~= "newaxis"
    if not field then return tensors.getitem(read(v), k, 3) end
  end,
  display = function(v) return rawget(v, "_unread") and "_UnreadVariable" or "ResourceVariable" end,
})

-- TF's _dense_var_to_tensor: a variable converted to another dtype
-- (tf.convert_to_tensor(v, dtype), assigning it to a variable) is an
-- error, never a cast.
local function converted(v, dtype, level)
  if dtype and dtype ~= v.dtype then
    raise("ValueError", ("Incompatible type conversion requested to type %s for `tf.Variable of type "
      .. "%s. (Variable: %s)"):format(dtype.name, v.dtype.name, tostring(v)), level + 1)
  end
  return read(v)
end
Variable.__tf_tensor = function(v, dtype)
  return converted(v, dtype ~= nil and dtypes.as_dtype(dtype) or nil, 3)
end
Variable.__tf_is_tensor = true -- tf.is_tensor(v), as TF's variables are tensors

-- `for row in v do`: Python's iter(v), over one read of the value.
local iterating = setmetatable({}, { __mode = "k" }) -- row -> the value it came from
Variable.__call = function(v, s, control)
  if s ~= nil then raise("TypeError", "'ResourceVariable' object is not callable", 2) end
  local value = control ~= nil and iterating[control] or read(v)
  local row = core.tensor_metatable.__call(value, nil, control)
  if row ~= nil then iterating[row] = value end
  return row
end

-- Operators read the variable first, so a Lua number on either side
-- converts to the variable's dtype (2 - v, 2 * v).
local function operand(x)
  if is_variable(x) then return read(x) end
  return x
end
for _, name in ipairs(tensors.operators) do
  local f = core.tensor_metatable[name]
  if name == "__unm" then
    Variable[name] = function(a) return f(operand(a)) end
  else
    Variable[name] = function(a, b) return f(operand(a), operand(b)) end
  end
end
Variable.__len = function(v) return #read(v) end

-- As TF's __repr__: the value read through v:read_value(), or
-- "<unavailable>" when that fails; no value while tracing.
Variable.__tostring = function(v)
  local head = ("<tf.Variable '%s' shape=%s dtype=%s"):format(v.name, tostring(v.shape), v.dtype.name)
  if core.tracing() then return head .. ">" end
  local ok, value = pcall(function() return core.format(v:read_value(), "numpy_repr") end)
  if not ok then value = "<unavailable>" end
  return head .. ", numpy=" .. (value:find("\n") and "\n" or "") .. value .. ">"
end
Variable.__repr = Variable.__tostring
Variable.__mimebundle = function(v)
  return { ["text/plain"] = Variable.__tostring(v) }
end

-- TF's read_value: in a graph, a ReadVariableOp under the name scope
-- "Read" and an Identity of it (an unread variable's is the plain read);
-- eagerly the Identity would change nothing visible, so there is none.
local function read_value(v)
  if not core.tracing() or rawget(v, "_unread") then return read(v) end
  local value
  do
    local scope <close> = name_scope.name_scope("Read")
    value = read(v)
  end
  return ops.identity(value)
end

methods.read_value = doc.def(read_value, "v:read_value()",
  "The current value; in graphs Read/ReadVariableOp and an Identity, as TF's.")
methods.value = doc.def(read, "v:value()", "The current value as a tensor: one ReadVariableOp in graphs.")
methods.numpy = doc.def(function(v)
  if core.tracing() then
    raise("NotImplementedError", "numpy() is only available when eager execution is enabled.", 2)
  end
  return core.numpy(v:read_value())
end, "v:numpy()", "The current value as Lua data (eager only; NotImplementedError while tracing).")
methods.get_shape = doc.def(function(v) return v.shape end, "v:get_shape()", "Same as v.shape.")
methods.sparse_read = options.def(function(v, indices, opts)
  return ops.gather(read(v), indices, opts.name and { name = opts.name } or nil)
end, "v:sparse_read(indices [, {name=}])", "Rows `indices` (0-based) of the value: tf.gather of a read.",
{ required = 2, "name" })
methods.gather_nd = options.def(function(v, indices, opts)
  return ops.gather_nd(read(v), indices, opts.name and { name = opts.name } or nil)
end, "v:gather_nd(indices [, {name=}])", "The elements or slices at `indices`: tf.gather_nd of a read.",
{ required = 2, "name" })

-- TF's convert_to_tensor(value, dtype=v.dtype): a tensor or variable of
-- another dtype is a ValueError (never converted); a Lua value converts
-- (TypeError when it does not fit). Returns the tensor and what to pass
-- to the op (a Lua value stays one, so a trace makes it a Const).
local function update_value(v, x, level)
  if is_variable(x) then x = converted(x, v.dtype, level + 1) end
  if core.is_tensor(x) then
    if core.dtype(x) ~= v.dtype then
      raise("ValueError", ("Tensor conversion requested dtype %s for Tensor with dtype %s: %s"):format(
        v.dtype.name, core.dtype(x).name, core.tensor_metatable.__repr(x)), level + 1)
    end
    return x, x
  end
  local t = core.convert(tensors.value(x), v.dtype)
  return t, core.tracing() and x or t
end

-- TF checks an assignment's static shape before making the op.
local function check_assign_shape(v, t, level)
  local have = shapes.TensorShape(select(3, core.info(t)))
  if not v.shape:is_compatible_with(have) then
    raise("ValueError", ("Cannot assign value to variable ' %s': Shape mismatch.The variable shape %s, "
      .. "and the assigned value shape %s are incompatible."):format(v.name, tostring(v.shape),
      tostring(have)), level + 1)
  end
end

local function assigner(opname, checks_shape)
  local h = H[opname]
  return function(v, x, opts)
    local t, value = update_value(v, x, 2)
    if checks_shape then check_assign_shape(v, t, 2) end
    op(h, { dtype = v.dtype, name = opts.name or opname, _dtypes = { nil, v.dtype } }, v.handle, value)
    if opts.read_value == false then
      -- TF returns the assign Operation while a graph is built, None eagerly.
      if core.tracing() then return graphs.last_operation(core.current_graph()) end
      return nil
    end
    accessed(v)
    return unread(v)
  end
end

local ASSIGN_OPTIONS = { required = 2, "use_locking", "name", "read_value",
  types = { read_value = "boolean" } }
local RETURNS = " Returns the variable unread (printed as 'UnreadVariable'; it reads the value when "
  .. "used); with {read_value = false}, nil eagerly and the assign Operation while traced."
methods.assign = options.def(assigner("AssignVariableOp", true),
  "v:assign(x [, {read_value=, name=, use_locking=}])",
  "Stores x (same dtype, a compatible shape: ValueError otherwise) in the variable." .. RETURNS,
  ASSIGN_OPTIONS)
methods.assign_add = options.def(assigner("AssignAddVariableOp"),
  "v:assign_add(x [, {read_value=, name=, use_locking=}])", "Adds x to the variable." .. RETURNS,
  ASSIGN_OPTIONS)
methods.assign_sub = options.def(assigner("AssignSubVariableOp"),
  "v:assign_sub(x [, {read_value=, name=, use_locking=}])", "Subtracts x from the variable." .. RETURNS,
  ASSIGN_OPTIONS)

-- Library-internal (the other modules' view, not part of tf).
variables.internal = { metatable = true, is_variable = true, proxy = true, register_handle = true,
  of_handle = true, internal = true }

return variables
