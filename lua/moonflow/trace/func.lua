-- func.lua — tf.func (TF's tf.function): a Lua function traced into
-- graphs, one ConcreteFunction per input signature (concrete.lua, made by
-- tracing.lua), and the dispatch of each call to one of them: the trace
-- cache's hit test first (cache.lua, which tells the whole protocol),
-- then input_signature binding, trace types (trace_type.lua), the search
-- of the traces and TF's retracing rules, binding errors and warnings.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local doc = require("moonflow.doc")
local options = require("moonflow.options")
local source = require("moonflow.source")
local T = require("moonflow.trace.trace_type")
local checks = require("moonflow.trace.trace_checks")
local concrete = require("moonflow.trace.concrete")
local cache = require("moonflow.trace.cache")
local tracing = require("moonflow.trace.tracing")
local autograph = require("moonflow.autograph")
local receiver = require("moonflow.receiver")
local retracing = require("moonflow.trace.retracing")
local raise = errors.raise

local func = {}

local detector_for = retracing.detector_for
local called_without_tracing, called_with_tracing = retracing.called_without_tracing, retracing.called_with_tracing
local param_names, pool_of, trace = tracing.param_names, tracing.pool_of, tracing.trace
local describe_args, binding_error = concrete.describe_args, concrete.binding_error

local Function = { __name = "Function" }
local fmethods = {}
receiver.metatable(Function, "func", fmethods)
-- input_signature is nil (TF's None) when no signature was given.
local NO_SIGNATURE = { input_signature = function() return nil end }
Function.__index = receiver.index(Function, "func", { methods = { fmethods }, fields = NO_SIGNATURE,
  display = "Function" })

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
      binding_error(got, tostring(t), args, n, "(" .. table.concat(params, ", ") .. ")", 4)
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

-- Which trace runs these arguments: the cache's hit test, else the
-- search of the pool by trace types, else a new trace (cache.lua).
-- TF's frequent-retracing detector counts eager calls only: a call made
-- while another function is traced is part of that trace.
local function dispatch(self, args, n)
  local eager = not core.tracing()
  local cf = cache.hit(self, args, n)
  if cf then
    if eager then called_without_tracing(self._detector) end
    return cf
  end
  local types
  if self._signature then
    types = bind_signature(self, args, n)
  else
    types = T.of_args(args, arg_count(self, n))
    self_identity(self, types, args)
  end
  local pool = pool_of(self, args)
  cf = cache.search(pool, types)
  if cf then
    if eager then called_without_tracing(self._detector) end
    return cf
  end
  local reason = checks.explain(param_names(self, #types), types, pool)
  if eager then
    called_with_tracing(self._detector, self.name, function() return checks.reason_text(reason) end)
  end
  if self._reduce and not self._signature then types = tracing.generalize(self, types, pool) end
  return trace(self, types, args, reason)
end

-- Function.__call's Lua path: every call the C path (cache.call_for)
-- leaves to it.
local function call(self, ...)
  -- Eagerly, the AutoGraph-converted code still runs: in Lua a tensor in
  -- a plain `if` is always true, so only the converted code means what
  -- the trace means.
  if state.run_eagerly then return self:_callable()(...) end
  if core.tracing() then return self:_call_in_trace(...) end
  local n = select("#", ...)
  local args = table.pack(...)
  local cf = dispatch(self, args, n)
  self._last = cf
  return cache.arm(self, concrete.run(cf, args))
end
Function.__call = call
-- The receiver guard (receiver.metatable) wraps `call`; the C path comes
-- before it: a receiver that is no tf.func is never armed.
rawset(Function, "__call", cache.call_for(rawget(Function, "__call")))

-- Called while another function is being traced: this function keeps
-- its own traces (dispatch, retracing rules, input_signature binding as
-- for an eager call) and the caller's graph calls the concrete function
-- through a call node (concrete.call_in_trace).
function fmethods._call_in_trace(self, ...)
  local n = select("#", ...)
  local args = table.pack(...)
  local cf = dispatch(self, args, n)
  return concrete.call_in_trace(cf, args)
end

function fmethods._callable(self)
  if self._autograph then
    if not self._converted then self._converted = autograph.convert(self.lua_function) end
    return self._converted
  end
  return self.lua_function
end

-- What call_gradient.lua needs of a function whose calls a tape records:
-- a trace of it with these types (its forward variant) and tf.funcs of
-- its helpers (forward and backward functions), reached through the
-- function so that call_gradient.lua requires nothing of trace/.
fmethods._trace_once = tracing.trace_once
function fmethods._new_func(_, fn, opts) return func.func(fn, opts) end

-- Methods ----------------------------------------------------------------

fmethods.get_concrete_function = doc.def(function(self, ...)
  local n = select("#", ...)
  local args = table.pack(...)
  if self._method and n == 0 then
    -- The class's method: its traces are per object (tracing.pool_of).
    raise("TypeError", ("get_concrete_function: '%s' is a method (its first parameter is self) and "
      .. "its traces belong to an object: call it on the method bound to one, obj.%s:"
      .. "get_concrete_function(), or pass the object first"):format(self.name, self.name), 2)
  end
  if self._signature and n == 0 then
    local cf = self._concrete[1]
    if not cf then cf = trace(self, self._signature, nil, "get_concrete_function") end
    return cf
  end
  local count = self._signature and n or arg_count(self, n)
  local types = self._signature and bind_signature(self, args, n) or T.of_concrete_args(args, count)
  self_identity(self, types, args)
  local pool = pool_of(self, args)
  local cf = cache.search(pool, types)
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
  cache.disarm(self)
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

-- Bound methods -------------------------------------------------------------
-- A method (a tf.func whose first parameter is `self`) read from an
-- instance of the class holding it (module.lua) is bound to that instance,
-- as Python binds a tf.function of a class body (TF's Function.__get__):
-- one bound Function per instance, kept weakly (`m.f` is `m.f`), whose
-- traces, tracing count and concrete functions are the method's traces
-- for that receiver (tracing.pool_of), whose input_signature leaves self
-- out, and whose get_concrete_function() needs no arguments when the
-- method has an input_signature. Lua's `m:f(x)` passes m again: a first
-- argument that is the receiver itself is taken as that `:`, so `m.f(x)`
-- and `m:f(x)` are the same call.

local Bound = { __name = "Function" }
local bmethods = {}
receiver.metatable(Bound, "func", bmethods)
Bound.__index = receiver.index(Bound, "func", { methods = { bmethods }, fields = NO_SIGNATURE,
  display = "Function" })

function Bound.__call(b, ...)
  local r = rawget(b, "_receiver")
  if rawequal((...), r) then return b._unbound(...) end
  return b._unbound(r, ...)
end

function fmethods._bind(self, obj)
  local b = self._bound[obj]
  if b then return b end
  local fn = self.lua_function
  b = setmetatable({
    name = self.name, input_signature = rawget(self, "input_signature"),
    lua_function = function(...) return fn(obj, ...) end,
    _unbound = self, _receiver = obj, _method = false, _vararg = self._vararg,
    _params = table.move(self._params, 2, #self._params, 1, {}),
  }, Bound)
  self._bound[obj] = b
  return b
end

-- The receiver's traces, oldest first.
local function bound_concrete(b)
  local p = b._unbound._per_receiver[b._receiver] or {}
  local out = table.move(p, 1, #p, 1, {})
  table.sort(out, function(x, y) return x._id < y._id end)
  return out
end

bmethods.get_concrete_function = doc.def(function(b, ...)
  local f, r = b._unbound, b._receiver
  if not (f._signature and select("#", ...) == 0) then return f:get_concrete_function(r, ...) end
  local args = { r, n = 1 }
  local types = T.of_args(args, 1)
  self_identity(f, types, args)
  for i, t in ipairs(f._signature) do types[i + 1] = t end
  local pool = pool_of(f, args)
  return cache.search(pool, types) or trace(f, types, args, "get_concrete_function")
end, "m.f:get_concrete_function(...)", "The ConcreteFunction of the method bound to m for these "
.. "arguments (self left out), tracing one if needed; with an input_signature, no arguments.")

bmethods.experimental_get_tracing_count = doc.def(function(b)
  return b._unbound:experimental_get_tracing_count(b._receiver)
end, "m.f:experimental_get_tracing_count()", "How many times the method has been traced for m.")

bmethods.concrete_functions = doc.def(bound_concrete, "m.f:concrete_functions()",
  "The method's ConcreteFunctions traced for m, oldest first.")

bmethods.pretty_printed_concrete_signatures = doc.def(function(b)
  local blocks = {}
  for i, cf in ipairs(bound_concrete(b)) do blocks[i] = cf:pretty_printed_signature() end
  return table.concat(blocks, "\n\n")
end, "m.f:pretty_printed_concrete_signatures()", "The input parameters and output type of each of m's traces.")

bmethods.clear_cache = doc.def(function(b)
  b._unbound._per_receiver[b._receiver] = nil
  b._unbound._last = nil
  cache.disarm(b._unbound)
end, "m.f:clear_cache()", "Forgets the method's traces for m (its tracing count for m restarts at 0).")

function Bound.__tostring(b)
  local n = #bound_concrete(b)
  return ("<tf.func '%s' bound to %s (%d trace%s)>"):format(b.name, tostring(b._receiver), n,
    n == 1 and "" or "s")
end
Bound.__repr = Bound.__tostring
function Bound.__help(b) return Function.__help(b._unbound) end

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
    _bound = setmetatable({}, { __mode = "k" }), input_signature = opts.input_signature,
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

func.is_func = function(x)
  local mt = getmetatable(x)
  return mt == Function or mt == Bound
end
-- A tf.func a class binds to its instances: its first parameter is self.
func.is_method = function(x) return getmetatable(x) == Function and x._method end
func.is_bound = function(x) return getmetatable(x) == Bound end
func.is_concrete = concrete.is_concrete

-- Library-internal (the other modules' view, not part of tf).
func.internal = { is_func = true, is_concrete = true, is_method = true, is_bound = true, internal = true }

return func
