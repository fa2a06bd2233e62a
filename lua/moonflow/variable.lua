-- variable.lua — tf.Variable: a handle to mutable state. Reads and writes
-- are ops (ReadVariableOp, Assign*VariableOp), so inside traced functions
-- they become graph nodes that run in program order, and the variable is
-- captured by reference (a resource input), never by value.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local doc = require("moonflow.doc")
local options = require("moonflow.options")
local dtypes = require("moonflow.dtypes")
local shapes = require("moonflow.shape")
local ops = require("moonflow.ops")
local tensors = require("moonflow.tensor")
local receiver = require("moonflow.receiver")
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

function variables.register_handle(handle, v) handle_variables[handle] = v end

function variables.of_handle(handle)
  local v = handle_variables[handle]
  if v then return v end
  if core.is_tensor(handle) and not core.is_symbolic(handle) and core.dtype(handle) == dtypes.resource then
    return state.variable_by_id(core.variable_info(handle))
  end
end

local function read(v)
  return op(H.ReadVariableOp, { dtype = v.dtype, name = "ReadVariableOp" }, v.handle)
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

variables.Variable = options.def(function(initial, dtype, opts)
  if initial == nil then raise("ValueError", "tf.Variable needs an initial value", 2) end
  dtype = dtype and dtypes.as_dtype(dtype) or nil
  check_creation()
  -- Initial values are computed outside any graph being traced.
  local t = state.in_eager_scope(function() return initial_tensor(initial, dtype) end)
  local name = opts.name or "Variable"
  local trainable = opts.trainable
  if trainable == nil then trainable = true end
  local handle = core.variable_new(t, name, trainable)
  local id = core.variable_info(handle)
  local v = setmetatable({
    handle = handle, dtype = core.dtype(t), shape = shapes.TensorShape(select(3, core.info(t))),
    name = name .. ":0", trainable = trainable, id = id,
  }, Variable)
  state.variables[id] = v
  return v
end, "tf.Variable(initial [, dtype] [, {dtype=, name=, trainable=}])",
"Mutable state: a handle to a value that assign/assign_add/assign_sub replace. Operators read "
.. "the value. Inside tf.func the variable is captured by reference.",
{ required = 1, positional = { "dtype" }, "name", "trainable" })

-- Inside a trace, a variable passed as an argument is a proxy whose
-- handle is the resource placeholder of the graph.
function variables.proxy(example, handle)
  local v = setmetatable({ handle = handle, dtype = example.dtype, shape = example.shape,
    name = example.name, trainable = example.trainable, id = example.id, _proxy = true }, Variable)
  variables.register_handle(handle, v)
  return v
end

receiver.metatable(Variable, "variable", methods)
Variable.__index = function(v, k)
  receiver.check(v, Variable, "__index", "variable")
  local m = methods[k]
  if m ~= nil then return m end
  -- v[i], v["1:, ::2"], v[tf.newaxis]: TF's _slice_helper_var slices
  -- the variable's current value.
  if type(k) ~= "string" or k:sub(1, 1) ~= "_" then
    local r = tensors.getitem(read(v), k, 2)
    if r ~= nil then return r end
  end
  return receiver.missing(v, k, "ResourceVariable", { methods }, nil, 2)
end
Variable.__tf_tensor = read

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

Variable.__tostring = function(v)
  local head = ("<tf.Variable '%s' shape=%s dtype=%s"):format(v.name, tostring(v.shape), v.dtype.name)
  if core.tracing() then return head .. ">" end
  local value = core.format(core.variable_value(v.handle), "numpy_repr")
  return head .. ", numpy=" .. (value:find("\n") and "\n" or "") .. value .. ">"
end
Variable.__repr = Variable.__tostring
Variable.__mimebundle = function(v)
  return { ["text/plain"] = Variable.__tostring(v) }
end

methods.read_value = doc.def(read, "v:read_value()", "The current value (a ReadVariableOp in graphs).")
methods.value = doc.def(read, "v:value()", "The current value as a tensor, same as read_value.")
methods.numpy = doc.def(function(v)
  if core.tracing() then
    raise("TypeError", "v:numpy() is not available while tracing: the value is read when the "
      .. "graph runs. Use v:read_value().", 2)
  end
  return core.numpy(core.variable_value(v.handle))
end, "v:numpy()", "The current value as Lua data (eager only).")

local function assigner(opname, verb)
  local h = H[opname]
  return function(v, x, opts)
    local value = x
    if is_variable(value) then value = read(value) end
    op(h, { dtype = v.dtype, name = opts.name or opname, _dtypes = { nil, v.dtype } },
      v.handle, value)
    return read(v)
  end, verb
end
methods.assign = options.def(assigner("AssignVariableOp"), "v:assign(x)",
  "Stores x (same dtype and shape) in the variable; returns the new value.", { required = 2, "name" })
methods.assign_add = options.def(assigner("AssignAddVariableOp"), "v:assign_add(x)",
  "Adds x to the variable; returns the new value.", { required = 2, "name" })
methods.assign_sub = options.def(assigner("AssignSubVariableOp"), "v:assign_sub(x)",
  "Subtracts x from the variable; returns the new value.", { required = 2, "name" })

-- Library-internal (the other modules' view, not part of tf).
variables.internal = { metatable = true, is_variable = true, proxy = true, register_handle = true,
  of_handle = true, internal = true }

return variables
