-- func.lua — tf.func (TF's tf.function): a Lua function traced into
-- graphs, one ConcreteFunction per input signature, dispatched by trace
-- types (trace_type.lua), with TF's retracing rules, binding errors and
-- warnings, plus an explanation of every retrace.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local doc = require("moonflow.doc")
local options = require("moonflow.options")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local source = require("moonflow.source")
local ops = require("moonflow.ops")
local variables = require("moonflow.tensor.variable")
local nest = require("moonflow.nest")
local tapes = require("moonflow.grad.tape")
local call_gradient = require("moonflow.grad.call_gradient")
local T = require("moonflow.trace.trace_type")
local checks = require("moonflow.trace.trace_checks")
local graphs = require("moonflow.trace.graph")
local autograph = require("moonflow.autograph")
local receiver = require("moonflow.receiver")
local retracing = require("moonflow.trace.retracing")
local raise = errors.raise

local RECURSION_LIMIT = 64

local func = {}

local detector_for = retracing.detector_for
local called_without_tracing, called_with_tracing = retracing.called_without_tracing, retracing.called_with_tracing

local call_in_trace -- below: a call while another function is traced


local Function = { __name = "Function" }
local Concrete = { __name = "ConcreteFunction" }
local fmethods, cmethods = {}, {}
receiver.metatable(Function, "func", fmethods)
receiver.metatable(Concrete, "concrete", cmethods)
Function.__index = function(self, k)
  receiver.check(self, Function, "__index", "func")
  local m = fmethods[k]
  if m ~= nil then return m end
  return receiver.missing(self, k, "Function", { fmethods }, nil, 2)
end

-- Naming ----------------------------------------------------------------

local source_line = source.line

-- `local double = tf.func(...)` -> "double": the name the caller binds.
local function guess_name(level)
  local info = debug.getinfo(level + 1, "Sl")
  local line = info and source_line(info.source, info.currentline)
  if line then
    local name = line:match("([%a_][%w_]*)%s*=%s*tf%s*[%.%[]")
      or line:match("function%s+[%w_%.:]-([%a_][%w_]*)%s*%(")
    if name then return name end
  end
  return "function"
end

local function params_of(fn)
  local info = debug.getinfo(fn, "u")
  local names = {}
  for i = 1, info.nparams do names[i] = debug.getlocal(fn, i) end
  return names, info.isvararg
end

-- Errors while tracing --------------------------------------------------------

-- Where an error in traced code came from: the first frame in user code.
local function user_frame(level)
  for l = level, level + 40 do
    local info = debug.getinfo(l, "Sl")
    if not info then return nil end
    local src = info.source
    if info.currentline and info.currentline > 0 and src ~= "=[C]"
      and not source.in_library(src) then
      return info.short_src, info.currentline
    end
  end
end

local function trace_error_handler(name)
  return function(err)
    if core.is_error(err) and not err.line then
      local file, line = user_frame(3)
      if file then
        err.file, err.line = file, line
        err.message = err.message .. ("\n\nin user code, while tracing tf.func '%s':\n  %s:%d")
          :format(name, file, line)
      end
    elseif type(err) == "string" then
      return err
    end
    return err
  end
end

-- Function.__call's C path (core.func_call, below the dispatch) runs
-- armed[f], f's record (core.func_record) of its last trace, for calls
-- with the optimiser on, armed_plain[f] with it off; disarmed whenever
-- that trace may no longer be the one to run.
local armed = setmetatable({}, { __mode = "k" })
local armed_plain = setmetatable({}, { __mode = "k" })
local function disarm(self)
  armed[self], armed_plain[self], self._armed_for, self._armed_opt = nil, nil, nil, nil
end

-- Outputs -------------------------------------------------------------------

local flatten, rebuild = nest.flatten, nest.pack

local function output_type_text(s, specs)
  if s.kind == "tensor" then return tostring(specs[s.index]) end
  if s.kind == "nil" then return "Literal[None]" end
  local parts = {}
  for i, x in ipairs(s.array) do parts[i] = output_type_text(x, specs) end
  if #s.keys == 0 then return "List[" .. table.concat(parts, ", ") .. "]" end
  for _, k in ipairs(s.keys) do
    parts[#parts + 1] = ("['%s', %s]"):format(tostring(k), output_type_text(s.map[k], specs))
  end
  return "Dict[" .. table.concat(parts, ", ") .. "]"
end

-- Tracing ---------------------------------------------------------------

local function param_names(self, n)
  local names = {}
  for i = 1, n do
    names[i] = self._params[i] or ("args_" .. (i - #self._params - 1))
  end
  return names
end

local concrete_ids = 0

-- How many traces of this function are open (it called itself while
-- being traced): each level is a trace of its own.
local function open_traces(self)
  local n = 0
  for d = 1, state.trace_depth() do
    local data = core.trace_data(d)
    if data and data.fn == self then n = n + 1 end
  end
  return n
end

local function refuse_recursion(self)
  raise("RecursionError", ("tf.func '%s' called itself %d levels deep while being traced. "
    .. "Recursion on tensors never ends at trace time because its stopping condition is a "
    .. "tensor: recursive tf.funcs are not supported. Use a loop (`while` on a tensor, which "
    .. "AutoGraph turns into tf.while_loop)."):format(self.name, RECURSION_LIMIT), 4)
end

local function trace_once(self, types, args, opts)
  if core.tracing() and open_traces(self) >= RECURSION_LIMIT then refuse_recursion(self) end
  local names = param_names(self, #types)
  local start = core.now()
  local number = self._count + 1
  local data = { fn = self, number = number, forbid = opts.forbid }
  local fn = self:_callable()
  local structure = {}
  local g, captures = state.in_trace(self.name, data, trace_error_handler(self.name), function()
    local targs = {}
    for i, t in ipairs(types) do targs[i] = t:placeholder(names[i], data, args and args[i]) end
    data.lift = checks.lifter(types, targs, args)
    local snaps = {}
    for i, t in ipairs(types) do
      if t.kind == "table" then snaps[i] = checks.snapshot(targs[i], {}) end
    end
    local results = table.pack(fn(table.unpack(targs, 1, #types)))
    checks.inputs_unmodified(self.name, names, snaps)
    local flat = {}
    for i = 1, results.n do structure[i] = flatten(results[i], flat) end
    structure.n = results.n
    return flat
  end)
  -- The small eager tensors embedded as Consts: no feeds, but inputs of
  -- the call for a tape (TF's by-value captures, see trace.c).
  local const_captures = state.last_const_captures or {}
  state.last_const_captures = nil
  -- Traces of this function made meanwhile (it called itself) count too.
  self._count = self._count + 1
  number = self._count
  concrete_ids = concrete_ids + 1
  local cf = setmetatable({
    name = self.name, _fn = self, _types = types, _names = names, _graph = g,
    _captures = captures, _const_captures = const_captures, _structure = structure, _number = number,
    _id = concrete_ids, _created = data.created,
    _trace_seconds = core.now() - start, _traced_at = os.date("%H:%M:%S"),
    _reason = opts.reason, _feeds = {},
  }, Concrete)
  for _, c in ipairs(captures) do
    if core.is_symbolic(c) then cf._scoped = true end
  end
  cf._simple = true
  for i = 1, structure.n do
    if structure[i].kind ~= "tensor" or structure[i].index ~= i then cf._simple = false end
  end
  -- Every parameter a tensor: a call's arguments are its feeds as they are.
  cf._direct = cf._simple
  for _, t in ipairs(types) do
    if t.kind ~= "tensor" then cf._direct = false end
  end
  return cf
end

-- The traces a call may use: a method's traces live in a table keyed
-- weakly by the receiver, so they die with it (TF keys its bound-method
-- cache by a weak reference to the instance).
local function pool_of(self, args)
  if self._method then
    local r = args and args[1]
    local tr = type(r)
    if tr == "table" or tr == "userdata" then
      local p = self._per_receiver[r]
      if not p then
        p = { count = 0 }
        self._per_receiver[r] = p
      end
      return p
    end
  end
  return self._concrete
end

-- Variables may be created only on a function's first trace. A method
-- (first parameter `self`) is a function per receiver, as TF binds a
-- tf.function per instance: each object's first trace may create them.
local function creation_forbidden(self, pool)
  if pool ~= self._concrete then return #pool > 0 or pool.count > 0 end
  return #self._concrete > 0 or self._count > 0
end

local function trace(self, types, args, reason)
  disarm(self)
  local pool = pool_of(self, args)
  local cf = trace_once(self, types, args, { forbid = creation_forbidden(self, pool), reason = reason })
  if pool ~= self._concrete then pool.count = pool.count + 1 end
  if cf._created then
    -- As TF: a first trace that created variables is followed by a trace
    -- in which creating them is an error; that trace is the one kept.
    if type(reason) == "table" then
      reason.suffix = "; traced again because the first trace created variables"
    else
      reason = reason .. "; traced again because the first trace created variables"
    end
    cf = trace_once(self, types, args, { forbid = true, reason = reason })
    if pool ~= self._concrete then pool.count = pool.count + 1 end
  end
  pool[#pool + 1] = cf
  disarm(self) -- a call made while tracing may have armed it
  if not cf._scoped then self._last = cf end
  if state.explain_retracing and #pool > 1 then
    io.stderr:write(("tf.func '%s' retraced (trace #%d): %s\n"):format(self.name, cf._number,
      checks.reason_text(reason)))
  end
  if state.on_trace then state.on_trace(self, cf) end
  return cf
end

local function generalize(self, types, pool)
  for i = #pool, 1, -1 do
    local old = pool[i]._types
    if #old == #types then
      local sup = {}
      for k = 1, #types do
        sup[k] = types[k]:supertype(old[k])
        if not sup[k] then sup = nil break end
      end
      if sup then return sup end
    end
  end
  return types
end

-- Dispatch --------------------------------------------------------------

local function arg_count(self, n)
  if self._vararg then return math.max(n, #self._params) end
  if n > #self._params then
    raise("TypeError", ("Binding inputs to tf.func failed due to `too many positional arguments`. "
      .. "%s(%s) takes %d positional arguments but %d were given."):format(
      self.name, table.concat(self._params, ", "), #self._params, n), 4)
  end
  return #self._params
end

local function describe_args(args, n)
  local parts = {}
  for i = 1, n do
    local v = args[i]
    local mt = getmetatable(v)
    parts[i] = mt and mt.__repr and mt.__repr(v) or tostring(v)
  end
  return "(" .. table.concat(parts, ", ") .. (n == 1 and ",)" or ")")
end

local function function_type_params(cf)
  local parts = {}
  for i, t in ipairs(cf._types) do parts[i] = cf._names[i] .. ": " .. tostring(t) end
  return "(" .. table.concat(parts, ", ") .. ")"
end

local function binding_error(self_name, got, want, args, n, signature, level)
  raise("TypeError", ("Binding inputs to tf.func failed due to `Can not cast %s to %s`. "
    .. "Received args: %s for signature: %s."):format(got, want, describe_args(args, n), signature),
    level + 1)
end

-- input_signature: every call must fit the signature's one trace.
local function bind_signature(self, args, n)
  local offset = self._method and 1 or 0
  local want = #self._signature + offset
  if n ~= want then
    local what
    if n < want then
      what = ("missing a required argument: '%s'"):format(self._params[n + 1] or ("args_" .. n - #self._params))
    elseif n <= #self._params or self._vararg then
      what = ("input_signature missing type constraint for parameter '%s' (the signature covers %d "
        .. "of %s()'s parameters)"):format(self._params[want + 1] or ("args_" .. want - #self._params),
        want, self.name)
    else
      what = "too many positional arguments"
    end
    raise("TypeError", ("Binding inputs to tf.func failed due to `%s`. Received args: %s for "
      .. "signature: %s() under its input_signature."):format(what, describe_args(args, n), self.name), 4)
  end
  local types = {}
  if self._method then types[1] = T.of_args(args, 1)[1] end
  for i, t in ipairs(self._signature) do
    local ok, got = t:accepts(args[i + offset])
    if not ok then
      local params = {}
      for k, s in ipairs(self._signature) do params[k] = self._params[k + offset] .. ": " .. tostring(s) end
      binding_error(self.name, got, tostring(t), args, n, "(" .. table.concat(params, ", ") .. ")", 4)
    end
    types[i + offset] = t
  end
  return types
end

local function self_identity(self, types, args)
  if self._method and types[1] and types[1].kind == "table" then
    types[1] = T.Object.new(args[1])
  end
end

-- A trace made inside another one may capture that trace's tensors: it
-- can be called only while that trace is open.
local in_scope = core.in_scope
local function callable_here(cf)
  if not cf._scoped then return true end
  for _, c in ipairs(cf._captures) do
    if not in_scope(c) then return false end
  end
  return true
end

local function lookup(pool, types)
  local best
  for _, cf in ipairs(pool) do
    if T.all_subtypes(types, cf._types) and callable_here(cf) then
      if best == nil or T.all_subtypes(cf._types, best._types) then best = cf end
    end
  end
  return best
end

-- TF's frequent-retracing detector counts eager calls only: a call made
-- while another function is traced is part of that trace.
local function dispatch(self, args, n)
  local types
  if self._signature then
    types = bind_signature(self, args, n)
  else
    types = T.of_args(args, arg_count(self, n))
    self_identity(self, types, args)
  end
  local pool = pool_of(self, args)
  local cf = lookup(pool, types)
  local eager = not core.tracing()
  if cf then
    if eager then called_without_tracing(self._detector) end
    return cf
  end
  local reason = checks.explain(param_names(self, #types), types, pool)
  if eager then called_with_tracing(self._detector, self.name) end
  if self._reduce and not self._signature then types = generalize(self, types, pool) end
  return trace(self, types, args, reason)
end

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
local run_recorded = call_gradient.init({
  func = function(...) return func.func(...) end, trace_once = trace_once,
  feeds_of = feeds_of, graph_to_run = graph_to_run, results_of = results_of,
})

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

function call_in_trace(cf, args)
  local feeds = {}
  for i, t in ipairs(cf._types) do t:feeds(args[i], feeds) end
  for _, c in ipairs(cf._captures) do feeds[#feeds + 1] = c end
  if state.tapes_recording() and tapes.would_record(cf, args) then
    return run_recorded(cf, args, feeds, cf._graph, call_node, traced_graph)
  end
  return results_of(cf, call_node(cf._graph, feeds))
end


-- Cheap check that `cf` is the right trace for these arguments without
-- computing trace types: each tensor argument matches its spec exactly
-- (or the function has just one trace to choose from), each literal is
-- equal. Anything else takes the full path.
local spec_matches = core.spec_matches
local function fast_fits(self, cf, n, ...)
  if n ~= #cf._types then return false end
  local exact = #self._concrete ~= 1
  for i = 1, n do
    local t = cf._types[i]
    local v = select(i, ...)
    local kind = t.kind
    if kind == "tensor" then
      if not spec_matches(v, t.spec.dtype, t.spec.shape._dims, exact) then return false end
    elseif kind == "literal" then
      if v ~= t.value or type(v) ~= type(t.value) then return false end
    elseif kind == "object" then
      if not rawequal(v, t.ref[1]) then return false end
    else
      return false
    end
  end
  return true
end

local tracing = core.tracing
local func_record = core.func_record

-- After a call ran the last trace, arms core.func_call (below) with what
-- the trace holds now (the optimised graph once a call made it); trace
-- and clear_cache disarm. Returns the call's results.
local function arm(self, ...)
  local last = rawget(self, "_last")
  if last and last._direct and not last._scoped
    and (rawget(self, "_armed_for") ~= last or rawget(self, "_armed_opt") ~= last._run_graph) then
    local exact, counter = #self._concrete ~= 1, self._detector.fast_calls
    armed[self] = last._run_graph
      and func_record(last._run_graph, last._graph, last._captures, exact, counter)
    armed_plain[self] = func_record(last._graph, last._graph, last._captures, exact, counter)
    self._armed_for, self._armed_opt = last, last._run_graph
  end
  return ...
end

-- Function.__call's Lua path: every call the C path (above) leaves to it.
local function call(self, ...)
  -- Eagerly, the AutoGraph-converted code still runs: in Lua a tensor in
  -- a plain `if` is always true, so only the converted code means what
  -- the trace means.
  if state.run_eagerly then return self:_callable()(...) end
  if tracing() then return self:_call_in_trace(...) end
  local last = self._last
  if last and not state.tapes_recording() then
    local n = select("#", ...)
    if fast_fits(self, last, n, ...) then
      called_without_tracing(self._detector)
      return arm(self, run(last, { ... }))
    end
  end
  local n = select("#", ...)
  local args = table.pack(...)
  local cf = dispatch(self, args, n)
  self._last = cf
  return arm(self, run(cf, args))
end
Function.__call = call
-- The hot path, one C call: core.func_call runs the armed trace when no
-- trace is open, no tape records and the arguments fit, else `call`.
-- Not while run_functions_eagerly or state.on_call is on, nor while f's
-- own trace is open (trace disarms first: a recursion adds no C level).
-- A receiver that is no tf.func is never armed: `call`'s guard says so.
local guarded_call = rawget(Function, "__call")
local func_call = core.func_call_for(guarded_call)
rawset(Function, "__call", function(self, ...)
  local record = (state.optimizer_enabled and armed or armed_plain)[self]
  if record and not state.run_eagerly and not state.on_call then
    return func_call(record, self, ...)
  end
  return guarded_call(self, ...)
end)

-- Called while another function is being traced: this function keeps
-- its own traces (dispatch, retracing rules, input_signature binding as
-- for an eager call) and the caller's graph calls the concrete function
-- through a call node (call_in_trace).
function fmethods._call_in_trace(self, ...)
  local n = select("#", ...)
  local args = table.pack(...)
  local cf = dispatch(self, args, n)
  return call_in_trace(cf, args)
end

function fmethods._callable(self)
  if self._autograph then
    if not self._converted then self._converted = autograph.convert(self.lua_function) end
    return self._converted
  end
  return self.lua_function
end

-- Methods ----------------------------------------------------------------

fmethods.get_concrete_function = doc.def(function(self, ...)
  local n = select("#", ...)
  local args = table.pack(...)
  if self._signature and n == 0 then
    local cf = self._concrete[1]
    if not cf then cf = trace(self, self._signature, nil, "get_concrete_function") end
    return cf
  end
  local count = self._signature and n or arg_count(self, n)
  local types = self._signature and bind_signature(self, args, n) or T.of_concrete_args(args, count)
  self_identity(self, types, args)
  local pool = pool_of(self, args)
  local cf = lookup(pool, types)
  if cf then return cf end
  return trace(self, types, args, checks.explain(param_names(self, #types), types, pool,
    "get_concrete_function: "))
end, "f:get_concrete_function(...)",
"The ConcreteFunction for these arguments (tensors, tf.TensorSpecs or Lua values), tracing one if needed.")

fmethods.experimental_get_tracing_count = doc.def(function(self, receiver)
  if receiver ~= nil and self._method then
    local p = self._per_receiver[receiver]
    return p and p.count or 0
  end
  return self._count
end, "f:experimental_get_tracing_count([receiver])", "How many times the function has been traced; "
.. "for a method, given a receiver, how many times for that object (TF's count of a bound method).")

fmethods.clear_cache = doc.def(function(self)
  self._concrete = {}
  self._per_receiver = setmetatable({}, { __mode = "k" })
  self._count = 0
  self._last = nil
  disarm(self)
end, "f:clear_cache()", "Forgets every trace: the next call traces again (the tracing count restarts at 0).")

-- Every live trace: the function's own, then its methods' receivers'.
local function all_concrete(self)
  local out = table.move(self._concrete, 1, #self._concrete, 1, {})
  for _, p in pairs(self._per_receiver) do table.move(p, 1, #p, #out + 1, out) end
  table.sort(out, function(a, b) return a._id < b._id end)
  return out
end

fmethods.concrete_functions = doc.def(function(self)
  return all_concrete(self)
end, "f:concrete_functions()", "The list of ConcreteFunctions traced so far, oldest first.")

fmethods.pretty_printed_concrete_signatures = doc.def(function(self)
  local blocks = {}
  for i, cf in ipairs(all_concrete(self)) do blocks[i] = cf:pretty_printed_signature() end
  return table.concat(blocks, "\n\n")
end, "f:pretty_printed_concrete_signatures()",
"The input parameters and output type of every trace, one block per trace.")

function Function.__tostring(self)
  local n = #all_concrete(self)
  return ("<tf.func '%s' (%d trace%s)>"):format(self.name, n, n == 1 and "" or "s")
end
Function.__repr = Function.__tostring

function Function.__help(self)
  local params = table.concat(self._params, ", ") .. (self._vararg and (#self._params > 0 and ", ..." or "...") or "")
  local lines = { ("tf.func %s(%s)"):format(self.name, params) }
  local d = doc.get(self.lua_function)
  if d then lines[#lines + 1] = "\n" .. doc.render(d) end
  if #all_concrete(self) > 0 then
    lines[#lines + 1] = "\nTraces:\n" .. self:pretty_printed_concrete_signatures()
  end
  return table.concat(lines, "\n")
end

-- ConcreteFunction ------------------------------------------------------------

local CONCRETE_FIELDS = { "graph", "function_type", "structured_outputs", "inputs", "outputs",
  "captured_inputs", "variables", "trainable_variables" }

function Concrete.__index(cf, k)
  receiver.check(cf, Concrete, "__index", "concrete")
  local m = cmethods[k]
  if m then return m end
  if k == "graph" then return graphs.wrap(cf._graph, cf) end
  if k == "function_type" then return cf:_function_type() end
  if k == "structured_outputs" then return cf._structure end
  if k == "inputs" then return graphs.wrap(cf._graph, cf).inputs end
  if k == "outputs" then return graphs.wrap(cf._graph, cf).outputs end
  if k == "captured_inputs" then return cf:_all_captures() end
  if k == "variables" then return graphs.wrap(cf._graph, cf).variables end
  if k == "trainable_variables" then return graphs.wrap(cf._graph, cf).trainable_variables end
  return receiver.missing(cf, k, "ConcreteFunction", { cmethods }, CONCRETE_FIELDS, 2)
end

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

function Concrete.__call(cf, ...)
  local n = select("#", ...)
  local args = table.pack(...)
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
        binding_error(cf.name, tostring(shapes.TensorSpec(shape, dtype)), tostring(t.spec), args, n,
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
        binding_error(cf.name, tostring(shapes.TensorSpec(shape, dtype)), tostring(t.spec), args, n,
          cf:_function_type().text, 2)
      end
      args[i] = tv
    elseif t.kind == "table" and (type(v) ~= "table" or getmetatable(v) ~= nil) then
      binding_error(cf.name, describe_args({ v }, 1):sub(2, -3), structure_name(t), args, n,
        cf:_function_type().text, 2)
    else
      local ok, got = t:accepts(v)
      if not ok then
        binding_error(cf.name, got, tostring(t), args, n, cf:_function_type().text, 2)
      end
    end
  end
  n = #cf._types
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

-- tf.func -------------------------------------------------------------------

local function make(fn, opts, name)
  if func.is_func(fn) then
    -- tf.function(tf.function(f)), as TF: the outer function's trace
    -- calls the inner one, which keeps its own traces.
    local inner = fn
    fn = function(...) return inner(...) end
    local self = make(fn, opts, name)
    self._params, self._vararg = inner._params, inner._vararg
    self._method = inner._method
    self._autograph = false -- the inner function converts its own code
    self._detector = retracing.new()
    return self
  end
  if type(fn) ~= "function" then
    raise("TypeError", ("%s is not a callable object: tf.func expects a Lua function, got %s")
      :format(tostring(fn), type(fn)), 3)
  end
  local params, vararg = params_of(fn)
  local self = setmetatable({
    lua_function = fn, name = opts.name or name, _params = params, _vararg = vararg,
    _concrete = {}, _count = 0, _reduce = opts.reduce_retracing and true or false,
    _autograph = opts.autograph ~= false, _detector = detector_for(fn),
    _method = params[1] == "self", _per_receiver = setmetatable({}, { __mode = "k" }),
  }, Function)
  if opts.input_signature then
    local is = opts.input_signature
    if type(is) ~= "table" or getmetatable(is) ~= nil or #T.map_keys(is, #is) > 0 then
      raise("TypeError", ("input_signature must be either a tuple or a list (a Lua list of "
        .. "tf.TensorSpec), got %s"):format(tostring(is)), 3)
    end
    local sig = {}
    for i, s in ipairs(opts.input_signature) do sig[i] = T.from_spec(s) end
    local offset = self._method and 1 or 0
    if not vararg and #sig + offset > #params then
      raise("TypeError", ("input_signature has %d entries but %s takes %d parameters"):format(
        #sig, self.name, #params - offset), 3)
    end
    self._signature = sig
  end
  return self
end

func.func = options.def(function(fn, opts)
  if fn == nil then
    local name = guess_name(2)
    return function(f) return make(f, opts, opts.name or name) end
  end
  return make(fn, opts, opts.name or guess_name(2))
end, "tf.func(fn [, {input_signature=, reduce_retracing=, autograph=, name=}])",
"TF's tf.function (`function` is a Lua keyword; tf[\"function\"] works too). Returns a callable "
.. "that traces fn into a graph per input signature and runs the graph on later calls. Also a "
.. "decorator: tf.func{reduce_retracing = true}(fn).",
{ positional = { "func" }, via = { make }, "input_signature", "reduce_retracing", "autograph", "name" })

func.is_func = function(x) return getmetatable(x) == Function end
func.is_concrete = function(x) return getmetatable(x) == Concrete end

-- Library-internal (the other modules' view, not part of tf).
func.internal = { is_func = true, is_concrete = true, internal = true }

return func
