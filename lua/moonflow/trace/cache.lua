-- cache.lua — which trace runs a tf.func call's arguments.
--
-- A tf.func keeps its traces in pools (tracing.pool_of: the function's
-- own, or one per receiver of a method). TF's answer for a call is the
-- most specific trace of the pool whose parameter types are supertypes
-- of the arguments' types (`search`, below). Most calls repeat the last
-- one, so that answer is cached:
--
--   * The key. After a call ran the function's last trace (`_last`),
--     `arm` makes a record of it (core.func_record, fastpath.c): the
--     trace's graphs, captures and, per parameter, what an argument must
--     be to select it: an eager tensor that fits the placeholder's spec,
--     an equal Lua value of the same type, the same object (held weakly).
--     A trace with other parameters (variables, tables, __tf_tracing_type
--     values) or that captured another trace's tensors is not armed.
--   * The mode. A tensor fits exactly, unless the trace is the only one of
--     its pool, when a subtype fits too: with several traces a more
--     specific one may exist, and an exact fit is the only one that no
--     other trace can beat.
--   * The one hit test: record_fits in fastpath.c. The C path of
--     Function.__call (core.func_call) runs it and, on a hit with no trace
--     open and no tape recording, runs the graph and returns its outputs
--     (a trace whose results are no flat list of tensors leaves that to
--     Lua). Every other call reaches the Lua dispatcher (func.lua), whose
--     first step is `hit`: the same test through core.func_fits.
--   * A miss searches the pool (`search`) and traces when nothing fits.
--   * Disarm whenever the cached answer may change: a new trace in any pool
--     (tracing.trace, before and after, as a call made while tracing may
--     arm), clear_cache. The optimiser switch picks one of two records
--     (the graph as traced, or its optimised copy once a call made it).
--   * The C path is taken only while no switch says otherwise (functions
--     run eagerly, state.on_call): `call_for`'s C function checks them.

local core = require("moonflow.core")
local T = require("moonflow.trace.trace_type")

local cache = {}

-- f -> its record for calls with the optimiser on / off.
local armed = setmetatable({}, { __mode = "k" })
local armed_plain = setmetatable({}, { __mode = "k" })

function cache.disarm(f)
  armed[f], armed_plain[f], f._armed_for, f._armed_opt = nil, nil, nil, nil
end

local KIND = { tensor = "t", literal = "l", object = "o" }

-- A trace's key: its parameters' kinds (a string, fastpath.c's KIND_*)
-- and the Lua values and objects they must be (weakly held); nil when a
-- parameter has another kind or its object is gone.
local function key_of(cf)
  local kinds, values = {}, setmetatable({}, { __mode = "v" })
  for i, t in ipairs(cf._types) do
    kinds[i] = KIND[t.kind]
    if not kinds[i] then return nil end
    if t.kind == "literal" then
      values[i] = t.value
    elseif t.kind == "object" then
      values[i] = t:get()
      if values[i] == nil then return nil end
    end
  end
  return table.concat(kinds), values
end

local func_record = core.func_record

--- After a call ran f's last trace: arms the cache with it (again once a
-- call made its optimised graph). Returns the call's results.
function cache.arm(f, ...)
  local last = rawget(f, "_last")
  if last and not last._scoped
    and (rawget(f, "_armed_for") ~= last or rawget(f, "_armed_opt") ~= last._run_graph) then
    local kinds, values = key_of(last)
    if kinds then
      local exact, counter = not last._pool or #last._pool ~= 1, f._detector.fast_calls
      armed[f] = last._run_graph and func_record(last._run_graph, last._graph, last._captures, exact,
        counter, kinds, values, last._simple)
      armed_plain[f] = func_record(last._graph, last._graph, last._captures, exact, counter, kinds,
        values, last._simple)
      f._armed_for, f._armed_opt = last, last._run_graph
    end
  end
  return ...
end

local func_fits = core.func_fits

--- The armed trace when the arguments (args[1 .. n]) hit it, else nil.
function cache.hit(f, args, n)
  local record = armed_plain[f]
  if record and func_fits(record, table.unpack(args, 1, n)) then return rawget(f, "_armed_for") end
  return nil
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

--- The most specific trace of the pool for arguments of these types, or nil.
function cache.search(pool, types)
  local best
  for _, cf in ipairs(pool) do
    if T.all_subtypes(types, cf._types) and callable_here(cf) then
      if best == nil or T.all_subtypes(cf._types, best._types) then best = cf end
    end
  end
  return best
end

--- Function.__call: the C path (core.func_call_for, fastpath.c) for an
-- armed f while no switch (state.run_eagerly, state.on_call) says
-- otherwise, picking armed or armed_plain by state.optimizer_enabled (the
-- C side reads the switches as state.lua mirrors them); else slow(f, ...),
-- which is also the C path's way out.
function cache.call_for(slow)
  return core.func_call_for(slow, armed, armed_plain)
end

return cache
