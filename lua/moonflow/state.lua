-- state.lua — the session's mutable state, at the bottom of the module
-- graph: the trace stack, the tape stack, run_functions_eagerly, the
-- session host and the op handles. Every other module reads and changes
-- this state only through the functions here.
--
-- The trace stack is the binding's frame stack (one frame per graph being
-- built: a tf.func trace, a cond branch, a loop body); the Lua data of a
-- frame (which tf.func, which trace number, whether it may create
-- variables) is attached to the frame in the binding, not kept in a second
-- stack. Frames are pushed only by state.in_trace, which pops them again on
-- every path out, errors included. A trace's body cannot yield its
-- coroutine (a RuntimeError): the stack is the session's, not the
-- coroutine's, so a suspended trace would leave the main program tracing.

local core = require("moonflow.core")

local state = {}

-- The switches that decide which path a tf.func call takes (fastpath.c's
-- Function.__call): run_eagerly, on_call and optimizer_enabled live in
-- call_switches, not in this table, so that every assignment (a test's
-- hook included) reaches core.set_call_switches, and the C path reads two
-- booleans instead of three table fields per call.
local call_switches = { run_eagerly = false, optimizer_enabled = true }
local CALL_SWITCH = { run_eagerly = true, on_call = true, optimizer_enabled = true }
setmetatable(state, {
  __index = call_switches,
  __newindex = function(t, key, value)
    if not CALL_SWITCH[key] then
      rawset(t, key, value)
      return
    end
    call_switches[key] = value
    core.set_call_switches(call_switches.run_eagerly or call_switches.on_call ~= nil,
      not call_switches.optimizer_enabled)
  end,
})

-- Op handles by TF name, looked up once.
state.H = setmetatable({}, {
  __index = function(t, name)
    local h = core.op_handle(name)
    t[name] = h
    return h
  end,
})

-- Traces -------------------------------------------------------------------

--- How many graphs are being built (nested traces), 0 when eager.
function state.trace_depth() return core.trace_depth() end

--- The data of the innermost tf.func trace ({fn=, number=, forbid=,
-- created=}), or nil when no tf.func is being traced.
function state.current_trace()
  for d = core.trace_depth(), 1, -1 do
    local data = core.trace_data(d)
    if data then return data end
  end
  return nil
end

--- "[trace NAME#N] ", the mark print and the session's output put before
-- what a trace writes, or nil outside tf.func traces.
function state.trace_mark()
  if not state.mark_trace_output then return nil end
  local t = state.current_trace()
  if not t then return nil end
  return ("[trace %s#%d]"):format(t.fn and t.fn.name or "tf.func", t.number or 0)
end

local function unwind(depth)
  while core.trace_depth() > depth do core.trace_abort() end
end

local function keep(err) return err end

-- lua_yieldk's message when the body of a trace (run by
-- core.call_unyieldable) tries to suspend its coroutine.
local YIELD_ACROSS = "attempt to yield across a C-call boundary"

-- The error a yield out of a trace becomes, or err itself.
local function yield_error(err)
  if err ~= YIELD_ACROSS then return err end
  return core.error("RuntimeError",
    "coroutine.yield inside a tf.func trace (or a tf.cond, tf.while_loop body being traced): a trace "
    .. "cannot be suspended, because the program would stay in graph mode until it resumed. Yield "
    .. "before or after calling the traced function, or keep the coroutine inside it (a generator "
    .. "the function creates and resumes itself may yield).")
end

-- Test hooks (nil in use): on_trace(f, cf) after every tf.func trace,
-- on_call(cf, args) before every call of a concrete function, and
-- on_optimize(graph) before a graph is optimised (an error it raises
-- fails the call, as an optimiser error would).
state.on_trace, state.on_call, state.on_optimize = nil, nil, nil

--- Builds a graph: pushes a frame named `name` carrying `data`, runs
-- body() (under xpcall with `handler`), which returns the list of output
-- tensors followed by any other values, and closes the frame with those
-- outputs. Returns the graph, its captures, then body's other values (the
-- small eager tensors it embedded as Consts are left in
-- state.last_const_captures for the caller, see core.trace_end). On
-- an error anywhere (the body, the outputs, closing the frame) the frames
-- pushed since are popped and the error is raised again.
function state.in_trace(name, data, handler, body)
  local base = core.trace_depth()
  core.trace_begin(name, data)
  local h = handler or keep
  local r = table.pack(xpcall(core.call_unyieldable, function(e) return h(yield_error(e)) end, body))
  state.stop_inner_tapes(base)
  if r[1] then
    local ok, g, captures, const_captures = pcall(core.trace_end, r[2])
    if ok then
      state.last_const_captures = const_captures
      return g, captures, table.unpack(r, 3, r.n)
    end
    r[2] = g
  end
  unwind(base)
  error(r[2], 0)
end

--- Runs fn(...) with ops executing eagerly even while tracing
-- (tf.init_scope); the scope closes on every path out.
function state.in_eager_scope(fn, ...)
  core.eager_scope(1)
  local r = table.pack(pcall(fn, ...))
  core.eager_scope(-1)
  if not r[1] then error(r[2], 0) end
  return table.unpack(r, 2, r.n)
end

-- Tapes ----------------------------------------------------------------------

-- The tapes that record, in the order they started.
state.tapes = {}

--- True when at least one tape records.
function state.tapes_recording() return #state.tapes > 0 end

--- Adds `tape` to the recording tapes; `hook` is the binding's per-op
-- recorder (called after every op while a tape records).
function state.push_tape(tape, hook)
  state.tapes[#state.tapes + 1] = tape
  core.tapes(1)
  core.set_tape_hook(hook)
end

--- Removes `tape` from the recording tapes.
function state.remove_tape(tape)
  for i, t in ipairs(state.tapes) do
    if t == tape then
      table.remove(state.tapes, i)
      core.tapes(-1)
      if #state.tapes == 0 then core.set_tape_hook(nil) end
      return
    end
  end
end

--- Stops the tapes made inside traces deeper than `depth`. A tape records
-- the graph it was made in; once that trace ends (by returning or by an
-- error) it has nothing left to record, as TF's `with tape:` block would
-- have ended. A tape left recording (no stop(), no <close>) stayed in the
-- list and recorded the ops of every later trace at its depth.
function state.stop_inner_tapes(depth)
  local stopped = false
  for i = #state.tapes, 1, -1 do
    local t = state.tapes[i]
    if (t._level or 0) > depth then
      t._recording = false
      table.remove(state.tapes, i)
      core.tapes(-1)
      stopped = true
    end
  end
  if stopped and #state.tapes == 0 then core.set_tape_hook(nil) end
end

-- Variables -----------------------------------------------------------------

-- on_variable_accessed(v): set by tape.lua, told of a trainable variable
-- that an update returned unread (TF's variable_accessed).
state.on_variable_accessed = nil

-- Every variable by resource id, held weakly (graph.variables, the tape).
state.variables = setmetatable({}, { __mode = "v" })

--- The tf.Variable with resource id `id`, or nil.
function state.variable_by_id(id) return state.variables[id] end

-- Switches -------------------------------------------------------------------

-- tf.config.run_functions_eagerly: every tf.func runs its Lua function.
state.run_eagerly = false
-- tf.config.explain_retracing: every retrace says why on io.stderr.
state.explain_retracing = false
-- tf.config.mark_trace_output: print's "[trace f#n]" mark while tracing.
state.mark_trace_output = true
-- tf.config.optimizer.set_enabled: tf.func runs optimised graphs.
state.optimizer_enabled = true
-- tf.config.set_strict_globals: a never-assigned global read by a cell
-- is a NameError (nil: the default, on for cells typed at a prompt or in a
-- notebook, off for scripts).
state.strict_globals = nil
-- Set by the session: called by tf.config.set_strict_globals.
state.on_strict_globals = nil

-- The session host (write, display, input, clock, listdir, sources,
-- frontend), set by the session before the library loads; nil when the
-- library runs in a plain Lua interpreter.
state.host = package.loaded["moonflow.host"]

return state
