-- concrete.lua — a ConcreteFunction: one trace of a tf.func (its graph,
-- parameter types, captures and output structure) and how it runs: fed
-- eagerly, as a call node of another trace, or through its gradient pair
-- while a tape records (grad/call_gradient.lua); its signature, printing
-- and the binding of a direct call's arguments.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local ops = require("moonflow.ops")
local nest = require("moonflow.nest")
local tapes = require("moonflow.grad.tape")
local call_gradient = require("moonflow.grad.call_gradient")
local checks = require("moonflow.trace.trace_checks")
local graphs = require("moonflow.trace.graph")
local receiver = require("moonflow.receiver")
local variables = require("moonflow.tensor.variable")
local raise = errors.raise

local concrete = {}

local Concrete = { __name = "ConcreteFunction" }
local cmethods = {}
receiver.metatable(Concrete, "concrete", cmethods)

local rebuild = nest.pack
local tracing = core.tracing

--- A ConcreteFunction of these fields (tracing.lua makes them).
function concrete.new(fields) return setmetatable(fields, Concrete) end

function concrete.is_concrete(x) return getmetatable(x) == Concrete end

-- Binding errors (a tf.func's and a concrete function's) -----------------------

local function describe_args(args, n)
  local parts = {}
  for i = 1, n do
    local v = args[i]
    local mt = getmetatable(v)
    parts[i] = mt and mt.__repr and mt.__repr(v) or tostring(v)
  end
  return "(" .. table.concat(parts, ", ") .. (n == 1 and ",)" or ")")
end
concrete.describe_args = describe_args

local function binding_error(got, want, args, n, signature, level)
  raise("TypeError", ("Binding inputs to tf.func failed due to `Can not cast %s to %s`. "
    .. "Received args: %s for signature: %s."):format(got, want, describe_args(args, n), signature),
    level + 1)
end
concrete.binding_error = binding_error

-- Running -----------------------------------------------------------------------

-- The tensors a call feeds: each parameter's, then the captures.
local function feeds_of(cf, args)
  local feeds = cf._feeds
  for i = #feeds, 1, -1 do feeds[i] = nil end
  for i, t in ipairs(cf._types) do t:feeds(args[i], feeds) end
  for _, c in ipairs(cf._captures) do feeds[#feeds + 1] = c end
  return feeds
end

-- Empties a call's feeds, then returns the rest: the table is kept for the
-- next call, and holding the tensors kept each concrete function's last
-- arguments alive (5,000 retraces on growing shapes held ~50 MB of them).
local function release_feeds(feeds, ...)
  for i = #feeds, 1, -1 do feeds[i] = nil end
  return ...
end

local function results_of(cf, outs)
  local s = cf._structure
  local results = {}
  for i = 1, s.n do results[i] = rebuild(s[i], outs) end
  return table.unpack(results, 1, s.n)
end

-- The graph a call runs: the traced graph's optimised copy, made once
-- per concrete function (cf._graph stays the graph as traced, for
-- display), or the traced graph itself while
-- tf.config.optimizer.set_enabled(false).
local function optimized(cf)
  if not cf._run_graph then
    if state.on_optimize then state.on_optimize(cf._graph) end
    cf._run_graph, cf._opt_stats = core.optimize(cf._graph)
  end
  return cf._run_graph
end
local function graph_to_run(cf)
  if not state.optimizer_enabled then return cf._graph end
  return cf._run_graph or optimized(cf)
end

-- A call while a tape records: call_gradient.lua.
local run_recorded = call_gradient.run_recorded

local function run_graph(g, feeds) return table.pack(core.run(g, feeds)) end

local function run(cf, args)
  if state.on_call then state.on_call(cf, args) end
  local feeds = feeds_of(cf, args)
  local graph = graph_to_run(cf)
  if not state.tapes_recording() or not tapes.would_record(cf, args) then
    if cf._simple then return release_feeds(feeds, core.run(graph, feeds)) end
    return results_of(cf, table.pack(release_feeds(feeds, core.run(graph, feeds))))
  end
  return run_recorded(cf, args, feeds, graph, run_graph)
end

-- A call while another function is traced: a node of the caller's graph
-- that calls the concrete function's graph as traced (the caller's graph
-- is optimised as a whole, the callee's graph with it), TF's
-- StatefulPartitionedCall when the function has state, side effects or
-- randomness (never pruned or merged), else PartitionedCall.
local H = state.H
local function call_node(g, feeds)
  local stateful = core.graph_stateful(g)
  return table.pack(core.op(stateful and H.StatefulPartitionedCall or H.PartitionedCall, { f = g },
    table.unpack(feeds)))
end
local function traced_graph(cf) return cf._graph end

local function call_in_trace(cf, args)
  local feeds = {}
  for i, t in ipairs(cf._types) do t:feeds(args[i], feeds) end
  for _, c in ipairs(cf._captures) do feeds[#feeds + 1] = c end
  if state.tapes_recording() and tapes.would_record(cf, args) then
    return run_recorded(cf, args, feeds, cf._graph, call_node, traced_graph)
  end
  return results_of(cf, call_node(cf._graph, feeds))
end

concrete.run, concrete.call_in_trace = run, call_in_trace

-- What a call under a tape needs of a concrete function (call_gradient.lua
-- reads them through these methods, so that it requires nothing of trace/).
cmethods._feeds_for = feeds_of

-- The same trace returning these tensors of its graph ({node, index},
-- 0-based) after its outputs: a call's forward variant (call_gradient.lua),
-- fed as cf is. Its graph is a copy: cf's own keeps its outputs.
function cmethods._with_outputs(cf, refs)
  local fields = {}
  for k, v in pairs(cf) do fields[k] = v end
  fields._graph, fields._run_graph, fields._opt_stats = core.graph_with_outputs(cf._graph, refs), nil, nil
  fields._feeds, fields._trace_record, fields._grad_pair, fields._traced_pair = {}, nil, nil, nil
  fields._bwd, fields._derived = nil, nil
  return setmetatable(fields, Concrete)
end
cmethods._graph_to_run = graph_to_run
cmethods._results = results_of

-- Signature and printing ---------------------------------------------------------

local function output_type_text(s, specs)
  if s.kind == "tensor" then return tostring(specs[s.index]) end
  if s.kind == "nil" then return "Literal[None]" end
  if s.kind == "composite" then return s.spec_text(table.move(specs, s.first, s.first + s.n - 1, 1, {})) end
  local parts = {}
  for i, x in ipairs(s.array) do parts[i] = output_type_text(x, specs) end
  if #s.keys == 0 then return "List[" .. table.concat(parts, ", ") .. "]" end
  for _, k in ipairs(s.keys) do
    parts[#parts + 1] = ("['%s', %s]"):format(tostring(k), output_type_text(s.map[k], specs))
  end
  return "Dict[" .. table.concat(parts, ", ") .. "]"
end

local function function_type_params(cf)
  local parts = {}
  for i, t in ipairs(cf._types) do parts[i] = cf._names[i] .. ": " .. tostring(t) end
  return "(" .. table.concat(parts, ", ") .. ")"
end

-- A concrete function's computed fields, as TF's ConcreteFunction.
local concrete_fields = {
  graph = function(cf) return graphs.wrap(cf._graph, cf) end,
  function_type = function(cf) return cf:_function_type() end,
  structured_outputs = function(cf) return cf._structure end,
  captured_inputs = function(cf) return cf:_all_captures() end,
}
for _, k in ipairs({ "inputs", "outputs", "variables", "trainable_variables" }) do
  concrete_fields[k] = function(cf) return graphs.wrap(cf._graph, cf)[k] end
end

Concrete.__index = receiver.index(Concrete, "concrete", { methods = { cmethods }, fields = concrete_fields,
  display = "ConcreteFunction" })

local function output_specs(cf)
  local specs = {}
  local g = graphs.wrap(cf._graph, cf)
  for i, t in ipairs(g.outputs) do specs[i] = shapes.TensorSpec(t.shape._dims, t.dtype) end
  return specs
end

local function output_text(cf)
  local s = cf._structure
  local specs = output_specs(cf)
  if s.n == 0 then return "Literal[None]" end
  if s.n == 1 then return output_type_text(s[1], specs) end
  local parts = {}
  for i = 1, s.n do parts[i] = output_type_text(s[i], specs) end
  return "Tuple[" .. table.concat(parts, ", ") .. "]"
end

-- What the function captured, as TF's captured_inputs: the fed captures,
-- then the small tensors embedded as Consts (TF lists its by-value
-- captures too).
function cmethods._all_captures(cf)
  local all = table.move(cf._captures, 1, #cf._captures, 1, {})
  for _, pair in ipairs(cf._const_captures or {}) do all[#all + 1] = pair[1] end
  return all
end

function cmethods.pretty_printed_signature(cf)
  local lines = { "Input Parameters:" }
  if #cf._types == 0 then lines[#lines + 1] = "  (none)" end
  for i, t in ipairs(cf._types) do
    lines[#lines + 1] = ("  %s (POSITIONAL): %s"):format(cf._names[i], tostring(t))
  end
  lines[#lines + 1] = "Output Type:"
  lines[#lines + 1] = "  " .. output_text(cf)
  local captures = cf:_all_captures()
  if #captures > 0 then
    lines[#lines + 1] = "Captures:"
    for _, c in ipairs(captures) do
      local _, dtype, shape = core.info(c)
      local id = dtype == dtypes.resource and core.variable_info(c) or core.identity(c)
      lines[#lines + 1] = ("  %s: %s"):format(tostring(id), tostring(shapes.TensorSpec(shape, dtype)))
    end
  end
  return table.concat(lines, "\n")
end

function cmethods._function_type(cf)
  local text = function_type_params(cf) .. " -> " .. output_text(cf)
  return setmetatable({ text = text, parameters = cf._types, names = cf._names },
    { __tostring = function(ft) return ft.text end, __name = "FunctionType" })
end

function Concrete.__tostring(cf)
  return "ConcreteFunction " .. cf:pretty_printed_signature()
end
Concrete.__repr = Concrete.__tostring

-- In a notebook: the signature as text and the graph as a picture.
function Concrete.__mimebundle(cf)
  local bundle = graphs.Graph.__mimebundle(graphs.wrap(cf._graph, cf))
  bundle["text/plain"] = tostring(cf)
  return bundle
end

-- The value a tensor-free parameter was traced with (a literal, or a table
-- of literals): TF binds it as the parameter's default. nil, false when
-- the parameter needs a tensor (it cannot be left out).
local function bound_default(t)
  if t.kind == "literal" then return true, t.value end
  if t.kind == "table" then
    local out = {}
    for i, x in ipairs(t.array) do
      local ok, v = bound_default(x)
      if not ok then return false end
      out[i] = v
    end
    for _, k in ipairs(t.keys) do
      local ok, v = bound_default(t.map[k])
      if not ok then return false end
      out[k] = v
    end
    return true, out
  end
  return false
end

-- TF's binding message for a structure argument of the wrong kind.
local function structure_name(t)
  if t.kind ~= "table" then return tostring(t) end
  if #t.keys == 0 then return "a List" end
  if #t.array == 0 then return "a Dict" end
  return "a Table"
end

local function call_binding_error(cf, what, args, n)
  raise("TypeError", ("Binding inputs to tf.func failed due to `%s`. Received args: %s for "
    .. "signature: %s."):format(what, describe_args(args, n), cf:_function_type().text), 3)
end

-- The original signature: each argument as traced (a tensor of a
-- compatible spec, an equal Lua value, the same object, a table of the
-- same structure); Lua values left out at the end are the traced ones
-- (TF's defaults). Fills `args` with the values the call runs on.
local function bind_structured(cf, args, n)
  if n > #cf._types then call_binding_error(cf, "too many positional arguments", args, n) end
  for i = n + 1, #cf._types do
    local ok, v = bound_default(cf._types[i])
    if not ok then
      call_binding_error(cf, ("missing a required argument: '%s'"):format(cf._names[i]), args, n)
    end
    args[i] = v
  end
  for i, t in ipairs(cf._types) do
    local v = args[i]
    if t.kind == "tensor" then
      local tv = ops.to_tensor(v, t.spec.dtype)
      local _, dtype, shape = core.info(tv)
      if dtype ~= t.spec.dtype and tracing() then
        binding_error(tostring(shapes.TensorSpec(shape, dtype)), tostring(t.spec), args, n,
          cf:_function_type().text, 2)
      elseif dtype ~= t.spec.dtype then
        raise("InvalidArgumentError", ("cannot compute __inference_%s_%d as input #%d(zero-based) "
          .. "was expected to be a %s tensor but is a %s tensor [Op:__inference_%s_%d]"):format(
          cf.name, cf._id, i - 1, t.spec.dtype.name, dtype.name, cf.name, cf._id), 2)
      end
      -- As TF: inside another trace a shape the trace was not made for is
      -- a binding error; an eager call runs the graph on the value (its
      -- ops take the shapes they are given).
      if not t.spec.shape:is_compatible_with(shape) and tracing() then
        binding_error(tostring(shapes.TensorSpec(shape, dtype)), tostring(t.spec), args, n,
          cf:_function_type().text, 2)
      end
      args[i] = tv
    elseif t.kind == "table" and (type(v) ~= "table" or getmetatable(v) ~= nil) then
      binding_error(describe_args({ v }, 1):sub(2, -3), structure_name(t), args, n,
        cf:_function_type().text, 2)
    else
      local ok, got = t:accepts(v)
      if not ok then
        binding_error(got, tostring(t), args, n, cf:_function_type().text, 2)
      end
    end
  end
  return args
end

-- The flat signature: the tensors (and variables) of the parameters, in
-- order, named as their placeholders (x, x_a, x_1, ...); the Lua values,
-- objects and structures around them are the traced ones.
local function flat_params(cf)
  local flat = cf._flat
  if flat then return flat end
  flat = {}
  local function walk(t, name)
    if t.kind == "tensor" or t.kind == "variable" then
      flat[#flat + 1] = name
    elseif t.kind == "table" then
      for i, x in ipairs(t.array) do walk(x, name .. "_" .. i) end
      for _, k in ipairs(t.keys) do walk(t.map[k], name .. "_" .. tostring(k)) end
    end
  end
  for i, t in ipairs(cf._types) do walk(t, cf._names[i]) end
  cf._flat = flat
  return flat
end

-- A parameter's value rebuilt from the flat arguments from position pos
-- on; returns it and the next position.
local function unflatten(t, flat, pos)
  if t.kind == "tensor" or t.kind == "variable" then return flat[pos], pos + 1 end
  if t.kind == "literal" then return t.value, pos end
  if t.kind == "object" then return t:get(), pos end
  if t.kind == "custom" then return t.ref[1], pos end
  local out = {}
  for i, x in ipairs(t.array) do out[i], pos = unflatten(x, flat, pos) end
  for _, k in ipairs(t.keys) do out[k], pos = unflatten(t.map[k], flat, pos) end
  return out, pos
end

local function flat_error(cf, text)
  raise("TypeError", ("%s(%s)%s"):format(cf.name, table.concat(flat_params(cf), ", "), text), 0)
end

-- TF's _call_with_flat_signature: exactly the flat tensors, each a tensor
-- or a variable; then bound as the original signature.
local function bind_flat(cf, args, n)
  local names = flat_params(cf)
  if n > #names then flat_error(cf, (" takes %d positional arguments, got %d."):format(#names, n)) end
  if n < #names then
    flat_error(cf, (" missing required arguments: %s."):format(table.concat(names, ", ", n + 1)))
  end
  for i = 1, n do
    local v = args[i]
    if not (core.is_tensor(v) or variables.is_variable(v)) then
      local mt = getmetatable(v)
      flat_error(cf, (": expected argument #%d(zero-based) to be a Tensor; got %s (%s)."):format(
        i - 1, type(mt) == "table" and type(mt.__name) == "string" and mt.__name or type(v), tostring(v)))
    end
  end
  local structured, pos = {}, 1
  for i, t in ipairs(cf._types) do structured[i], pos = unflatten(t, args, pos) end
  return bind_structured(cf, structured, #cf._types)
end

-- As TF's ConcreteFunction.__call__: the original signature, else (on a
-- TypeError) the flat one; when both fail, the TypeError says why each did.
local function bind_call(cf, ...)
  local n = select("#", ...)
  local ok, args = pcall(bind_structured, cf, table.pack(...), n)
  if ok then return args end
  local structured_err = args
  if not errors.is(structured_err, "TypeError") then error(structured_err, 0) end
  local flat_ok, flat = pcall(bind_flat, cf, table.pack(...), n)
  if flat_ok then return flat end
  if not (errors.is(flat, "TypeError") or errors.is(flat, "ValueError")) then error(flat, 0) end
  raise("TypeError", structured_err.message .. "\nFallback to flat signature also failed due to: "
    .. flat.message, 3)
end

-- The stepper (moonflow.debug.step) binds a call's arguments as a call does.
cmethods._bind_call = bind_call

function Concrete.__call(cf, ...)
  local args = bind_call(cf, ...)
  local n = #cf._types
  if tracing() then return call_in_trace(cf, args) end
  if state.run_eagerly then return cf._fn:_callable()(table.unpack(args, 1, n)) end
  return run(cf, args)
end

cmethods.trace_info = function(cf)
  return { number = cf._number, reason = checks.reason_text(cf._reason), seconds = cf._trace_seconds,
    at = cf._traced_at, ops = #core.graph_nodes(cf._graph) }
end

-- The graph calls run (whether or not the optimiser is on now) and what
-- the passes did: {nodes_before=, nodes_after=, folded=, simplified=,
-- merged=, pruned=, fused=}.
cmethods.optimized_graph = function(cf)
  return graphs.wrap(optimized(cf), cf), cf._opt_stats
end

return concrete
