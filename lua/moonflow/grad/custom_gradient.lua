-- custom_gradient.lua — tf.custom_gradient, tf.recompute_grad and
-- tf.grad_pass_through: a function whose gradient is a Lua function of
-- the caller's choosing (TF's custom_gradient.py). The forward function
-- runs as any other (the tapes record its ops too, as TF's do), then its
-- outputs pass through one more op that every recording tape records
-- with the custom gradient: eagerly an Identity per output, traced one
-- IdentityN over outputs, arguments and variables (TF's graph mode), so
-- the graph and the tape's backward graph show it. A gradient only
-- reaches the inner ops through that record, so they never count twice.
--
-- Lua's form of TF's keyword `variables`: grad_fn receives the output
-- gradients and then an options table, grad_fn(dy1, ..., {variables =
-- {v, ...}}), as moonflow's functions take TF's keyword arguments. A
-- grad_fn "accepts variables" when its parameter list reaches that
-- table (one parameter more than the outputs) or it is vararg.

local core = require("moonflow.core")
local doc = require("moonflow.doc")
local errors = require("moonflow.errors")
local nest = require("moonflow.nest")
local ops = require("moonflow.ops")
local state = require("moonflow.state")
local variables = require("moonflow.tensor.variable")
local shapes = require("moonflow.tensor.shape")
local tapes = require("moonflow.grad.tape")
local raise = errors.raise

local M = {}

-- Numbers the gradient overrides per process, as TF's ops.uid() does (a
-- graph saved without its gradients and loaded in another process that
-- traced overrides of its own may meet the same number, as in TF).
local op_uid = 0
local saving     -- set while saved_gradients re-traces a function
-- TF's gradient registry of the overrides (ops.RegisterGradient): a
-- graph loaded in the process that traced it finds its gradient here even
-- when saved without it, as TF's does.
local registry = {}

-- The flat leaves of v in nest's order, nil kept in place (a gradient
-- of nil is "no gradient", which must still count as one).
local function flat_grads(v, out)
  if type(v) == "table" and getmetatable(v) == nil then
    local n = v.n or #v
    for i = 1, n do flat_grads(v[i], out) end
    return out
  end
  out.n = out.n + 1
  out[out.n] = v
  return out
end

-- Whether grad_fn takes the options table after nout output gradients.
local function accepts_options(grad_fn, nout)
  if type(grad_fn) ~= "function" then return true end -- a callable table
  local info = debug.getinfo(grad_fn, "u")
  return info.isvararg or info.nparams > nout
end

-- TF prints the variables as a Python list of their reprs.
local function variables_text(vars)
  local parts = {}
  for i, v in ipairs(vars) do parts[i] = tostring(v) end
  return "[" .. table.concat(parts, ", ") .. "]"
end

local function is_callable(x)
  if type(x) == "function" then return true end
  local mt = getmetatable(x)
  return type(mt) == "table" and mt.__call ~= nil
end

-- Runs f(args) with a variable watcher (a tape the paused-recording
-- rule leaves alone, TF's VariableWatcher): f's results and the
-- trainable variables it read, in creation order.
local function run_watched(f, args)
  local watcher = tapes.GradientTape()
  watcher._watcher = true
  local results = table.pack(pcall(f, table.unpack(args, 1, args.n)))
  watcher:stop()
  if not results[1] then error(results[2], 0) end
  return table.pack(table.unpack(results, 2, results.n)), watcher:watched_variables()
end

-- The variables f used that are not among its arguments.
local function used_variables(watched, args)
  local given = {}
  local function walk(v, seen)
    if variables.is_variable(v) then
      given[v] = true
    elseif type(v) == "table" and getmetatable(v) == nil and not seen[v] then
      seen[v] = true
      for _, x in pairs(v) do walk(x, seen) end
    end
  end
  for i = 1, args.n do walk(args[i], {}) end
  local out = {}
  for _, v in ipairs(watched) do
    if not given[v] then out[#out + 1] = v end
  end
  return out
end

-- A gradient given as a Lua number becomes a tensor of its input's dtype.
local function as_gradient(g, x)
  if type(g) == "number" then return ops.constant(g, core.dtype(x)) end
  if g ~= nil and not core.is_tensor(g) then
    local mt = getmetatable(g)
    if mt and mt.__tf_tensor then return mt.__tf_tensor(g) end
    raise("TypeError", "@tf.custom_gradient grad_fn must return tensors (or nil for no gradient), got "
      .. tostring(g), 4)
  end
  return g
end

-- The tape's gradient function of one call: dys holds the gradients of
-- the entry's outputs (the flat results first); it answers one gradient
-- per entry input: `pad` nils (a traced IdentityN's outputs among its
-- inputs), then the arguments', then the variables'.
local function tape_grad_fn(grad_fn, nout, nargs, vars, pad, inputs_of)
  return function(entry, dys)
    local call = table.move(dys, 1, nout, 1, {})
    local input_grads, variable_grads
    if #vars > 0 then
      call[nout + 1] = { variables = vars }
      local r = table.pack(grad_fn(table.unpack(call, 1, nout + 1)))
      input_grads, variable_grads = r[1], r[2]
      local count = type(variable_grads) == "table" and (variable_grads.n or #variable_grads) or -1
      for k in pairs(type(variable_grads) == "table" and variable_grads or {}) do
        if math.type(k) == "integer" and k > count then count = k end
      end
      if count ~= #vars then
        raise("ValueError", "Must return gradient for each variable from @custom_gradient grad_fn.", 3)
      end
      input_grads = flat_grads(input_grads, { n = 0 })
    else
      local r = table.pack(grad_fn(table.unpack(call, 1, nout)))
      input_grads = flat_grads(r, { n = 0 })
      variable_grads = {}
    end
    if input_grads.n ~= nargs then
      raise("ValueError", ("custom_gradient function expected to return %d gradients, but returned %d instead.")
        :format(nargs, input_grads.n), 3)
    end
    local inputs = inputs_of(entry)
    local out = {}
    for k = 1, nargs do out[pad + k] = as_gradient(input_grads[k], inputs[pad + k]) end
    for k = 1, #vars do out[pad + nargs + k] = as_gradient(variable_grads[k], inputs[pad + nargs + k]) end
    return out
  end
end

local function entry_inputs(entry) return entry.inputs end

-- An argument nest can flatten (tensors, variables, Lua values, plain
-- tables of them). Anything else, an object such as a method's self, takes
-- no gradient and no place among the gradients grad_fn returns (TF binds
-- a method's self before the decorator sees the arguments).
local function is_value(v)
  local tv = type(v)
  if tv == "table" then
    local mt = getmetatable(v)
    return mt == nil or variables.is_variable(v) or (type(mt) == "table" and (mt.__tf_tensor ~= nil
      or mt.__tf_array ~= nil))
  end
  return tv == "number" or tv == "string" or tv == "boolean" or core.is_tensor(v)
end

local function call_custom(f, args)
  local results, watched = run_watched(f, args)
  local grad_fn = results.n > 0 and results[results.n] or nil
  if results.n < 2 or not is_callable(grad_fn) then
    raise("TypeError", "@tf.custom_gradient: f must return its outputs and then grad_fn, a function of "
      .. "the output gradients; got " .. (results.n == 0 and "nothing" or "a last value " .. tostring(grad_fn)
        .. " of type " .. type(grad_fn)), 3)
  end
  local vars = used_variables(watched, args)
  local flat_out, structures = {}, {}
  for i = 1, results.n - 1 do structures[i] = nest.flatten(results[i], flat_out) end
  if #vars > 0 and not accepts_options(grad_fn, #flat_out) then
    raise("TypeError", "@tf.custom_gradient grad_fn must accept keyword argument 'variables', since "
      .. "function uses variables: " .. variables_text(vars), 3)
  end
  -- The inputs the tapes record: the arguments' leaves (a variable
  -- argument is read, so its gradient reaches it through the read), then
  -- the variables f used, read here where the tapes see the read.
  local flat_args = {}
  for i = 1, args.n do
    if is_value(args[i]) then nest.flatten(args[i], flat_args) end
  end
  local inputs = table.move(flat_args, 1, #flat_args, 1, {})
  for _, v in ipairs(vars) do inputs[#inputs + 1] = v:read_value() end
  local outs, recorded_inputs, recorded_outputs, pad
  local grad = tape_grad_fn(grad_fn, #flat_out, #flat_args, vars, core.tracing() and #flat_out or 0, entry_inputs)
  if core.tracing() then
    local all = table.move(flat_out, 1, #flat_out, 1, {})
    table.move(inputs, 1, #inputs, #all + 1, all)
    -- TF's gradient override: the node names its gradient, which a saved
    -- model keeps (io/saved_model.lua).
    op_uid = op_uid + 1
    local op_type = "CustomGradient-" .. op_uid
    recorded_outputs = tapes.stop_recording(function()
      return { core.op("IdentityN", { name = "IdentityN", _gradient_op_type = op_type }, table.unpack(all)) }
    end)
    recorded_inputs, pad = all, #flat_out
    outs = table.move(recorded_outputs, 1, #flat_out, 1, {})
    registry[op_type] = grad
    if saving and core.trace_depth() == saving.depth then
      saving.trace(recorded_inputs, recorded_outputs, #flat_out, grad)
    end
  else
    outs = tapes.stop_recording(function()
      local r = {}
      for i, y in ipairs(flat_out) do r[i] = ops.identity(y) end
      return r
    end)
    recorded_inputs, recorded_outputs, pad = inputs, outs, 0
  end
  tapes.record_custom(recorded_inputs, recorded_outputs, grad)
  local packed = {}
  for i = 1, results.n - 1 do packed[i] = nest.pack(structures[i], outs) end
  return table.unpack(packed, 1, results.n - 1)
end

-- The traced gradient of one custom-gradient node while its function is
-- traced again for saving: a concrete function of the output gradients
-- that captures what grad_fn reads of the forward pass (TF traces
-- grad_fn so for a SavedModel, save.py _trace_gradient_functions).
local function trace_saved(found, new_func, inputs, outputs, nout, grad)
  local node = outputs[1].name:match("^(.*):%d+$")
  local specs = {}
  for i = 1, nout do
    local _, dtype, shape = core.info(outputs[i])
    specs[i] = shapes.TensorSpec(shape, dtype)
  end
  local connected = {}
  local backward = new_func(function(...)
    local grads = grad({ inputs = inputs }, { ... })
    local out = {}
    for k = nout + 1, #inputs do
      if grads[k] ~= nil then
        connected[k - nout] = true
        out[#out + 1] = grads[k]
      else
        connected[k - nout] = false
      end
    end
    return table.unpack(out, 1, #out)
  end, { name = node .. "_gradient", autograph = false })
  local ok, cf = pcall(backward.get_concrete_function, backward, table.unpack(specs, 1, nout))
  if not ok then
    local msg = type(cf) == "table" and cf.message or tostring(cf)
    raise("ValueError", ("Error when tracing gradients for SavedModel.\n\n%s\n\nYou may need to update the "
      .. "custom gradient, or disable saving gradients with the option "
      .. "tf.saved_model.SaveOptions{experimental_custom_gradients = false}.\n\tProblematic op name: %s")
      :format(msg, node), 0)
  end
  found[#found + 1] = { node = node, cf = cf, nout = nout, connected = connected }
end

--- saved_gradients(cf) -> list: traces cf's function again, and with it
-- the gradient of each custom-gradient node of its graph (its own level,
-- not nested graphs), as {node = name, cf = the gradient's concrete
-- function of the output gradients, whose symbolic captures are tensors
-- of that trace named as cf's graph names them, nout = its number of
-- output gradients, connected = per recorded input (arguments then
-- variables) whether it has a gradient, in the gradient's output order}.
function M.saved_gradients(cf)
  local found = {}
  local fn = cf._fn
  local function new_func(f, opts) return fn:_new_func(f, opts) end
  local wrapper = fn:_new_func(function(...)
    local outer = saving
    saving = { depth = core.trace_depth(), trace = function(...) trace_saved(found, new_func, ...) end }
    local r = table.pack(pcall(fn:_callable(), ...))
    saving = outer
    if not r[1] then error(r[2], 0) end
    return table.unpack(r, 2, r.n)
  end, { name = cf.name, autograph = false })
  wrapper._params = fn._params
  wrapper:_trace_once(cf._types, nil, { forbid = true, reason = "saving custom gradients" })
  return found
end

M.custom_gradient = doc.def(function(f)
  if not is_callable(f) then
    raise("TypeError", "tf.custom_gradient expects a function f(...) returning its outputs and grad_fn, got "
      .. tostring(f), 2)
  end
  return function(...)
    return call_custom(f, table.pack(...))
  end
end, "tf.custom_gradient(f)",
"A function with f's outputs whose gradient is f's grad_fn. f(...) returns its outputs (one or more, each a "
.. "tensor or a table of them) and then grad_fn. A tape differentiating through the result calls "
.. "grad_fn(dy1, ..., dyN) with one gradient per flat output, and it returns one gradient per flat argument "
.. "(several results or one table; nil for none). When f reads tf.Variables that are not its arguments, "
.. "grad_fn is called grad_fn(dy1, ..., dyN, {variables = {v1, ...}}) (Lua's form of TF's keyword "
.. "`variables`) and returns two values: the argument gradients and a list with one gradient per variable; "
.. "a grad_fn whose parameters stop before that options table (and is not vararg) is TF's TypeError. "
.. "Eagerly each output passes an Identity op; inside tf.func outputs, arguments and variables pass one "
.. "IdentityN node, as TF's graph mode records it. grad_fn's own ops are recorded by outer tapes, so a "
.. "differentiable grad_fn gives second derivatives.")

-- TF's recompute_grad: a custom gradient that runs f again under its own
-- tape, so outer tapes keep none of f's intermediates.
M.recompute_grad = doc.def(function(f)
  if not is_callable(f) then
    raise("TypeError", "tf.recompute_grad expects a function, got " .. tostring(f), 2)
  end
  return M.custom_gradient(function(...)
    local args = table.pack(...)
    local result = tapes.stop_recording(function() return table.pack(f(table.unpack(args, 1, args.n))) end)
    local flat = {}
    for i = 1, result.n do nest.flatten(result[i], flat) end
    local nout = #flat
    local function grad(...)
      local dys = table.pack(...)
      local opts = dys[nout + 1]
      local vars = type(opts) == "table" and opts.variables or nil
      local tape <close> = tapes.GradientTape()
      local id_args = {}
      for i = 1, args.n do
        local a = args[i]
        id_args[i] = core.is_tensor(a) and ops.identity(a) or a
        if core.is_tensor(a) then tape:watch(id_args[i]) end
      end
      if vars then tape:watch(vars) end
      local again = table.pack(f(table.unpack(id_args, 1, args.n)))
      tape:stop()
      local targets = {}
      for i = 1, again.n do nest.flatten(again[i], targets) end
      local sources, at = {}, {}
      for i = 1, args.n do
        if core.is_tensor(args[i]) then
          sources[#sources + 1] = id_args[i]
          at[i] = #sources
        end
      end
      local nt = #sources
      for _, v in ipairs(vars or {}) do sources[#sources + 1] = v end
      local seeds = table.move(dys, 1, nout, 1, {})
      local grads = tape:gradient(targets, sources, seeds, { unconnected_gradients = "zero" })
      local dx = { n = args.n }
      for i = 1, args.n do dx[i] = at[i] and grads[at[i]] or nil end
      if not vars then return dx end
      return dx, table.move(grads, nt + 1, nt + #vars, 1, {})
    end
    local outs = table.move(result, 1, result.n, 1, {})
    outs[result.n + 1] = grad
    return table.unpack(outs, 1, result.n + 1)
  end)
end, "tf.recompute_grad(f)",
"A function computing f whose gradient runs f again (under its own tape) instead of keeping f's "
.. "intermediates on the outer tapes: less memory, more computation. Variables f reads get gradients.")

-- TF's grad_pass_through: f's values, the gradient of an identity.
M.grad_pass_through = doc.def(function(f)
  if not is_callable(f) then
    raise("TypeError", "tf.grad_pass_through expects a function, got " .. tostring(f), 2)
  end
  return M.custom_gradient(function(...)
    local result = table.pack(f(...))
    local function grad(...)
      local all = table.pack(...)
      local last = all[all.n]
      if type(last) == "table" and getmetatable(last) == nil and last.variables then
        return table.pack(table.unpack(all, 1, all.n - 1)), { n = #last.variables }
      end
      return ...
    end
    local outs = table.move(result, 1, result.n, 1, {})
    outs[result.n + 1] = grad
    return table.unpack(outs, 1, result.n + 1)
  end)
end, "tf.grad_pass_through(f)",
"A function with f's values whose gradient is that of an identity (each output's gradient goes to the "
.. "argument in its place); variables f reads get none.")

--- registered(op_type) -> the tape gradient function (entry, dys) of the
-- override op_type traced in this process, or nil.
function M.registered(op_type) return registry[op_type] end

M.internal = { saved_gradients = true, registered = true, internal = true }

return M
