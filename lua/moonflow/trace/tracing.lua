-- tracing.lua — making a trace of a tf.func: the Lua function run on
-- placeholders inside a graph (state.in_trace), its results flattened,
-- checked (arguments it changed, variables it created, recursion) and
-- kept as a ConcreteFunction in the pool of traces a call may use, with
-- the reason no earlier trace fitted.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local source = require("moonflow.source")
local nest = require("moonflow.nest")
local checks = require("moonflow.trace.trace_checks")
local concrete = require("moonflow.trace.concrete")
local cache = require("moonflow.trace.cache")
local node_source = require("moonflow.trace.node_source")
local tapes = require("moonflow.grad.tape")
local raise = errors.raise

local tracing = {}

-- A tf.func that calls itself while being traced is refused at this depth
-- (its stopping condition is a tensor, so the trace would never end).
-- Each level costs three of Lua's 200 C levels (see C_CALLS_REFUSED_AT),
-- so plain recursion meets this limit before the C stack's.
local RECURSION_LIMIT = 48

local flatten = nest.flatten

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

-- Lua's C stack: every call from C back into Lua (a pcall, a metamethod,
-- a tape's hook, each trace's xpcall) counts towards LUAI_MAXCCALLS
-- (200), and past it Lua raises an untyped "C stack overflow" from
-- wherever it happens to be. A level of recursion costs 3 of them for a
-- plain call (Function.__call is a C function, which calls the Lua path
-- when the call is not a cached one) and 7 or more when it also traces a
-- tf.cond branch or records on a tape, so recursion is refused while this
-- much is left.
local C_CALLS_REFUSED_AT = 150

-- How many C-to-Lua calls are open: the C functions on the stack below
-- the top one and the Lua functions the VM called as metamethods, for
-- iterators or hooks (each a nested luaD_call, as C's).
local function c_calls_open()
  local n, level = 0, 3
  while true do
    local info = debug.getinfo(level, "Sn")
    if not info then return n end
    local how = info.namewhat
    if info.what == "C" or how == "metamethod" or how == "for iterator" or how == "hook" then
      n = n + 1
    end
    level = level + 1
  end
end

-- Where the user's function recursed: the innermost frame of its own
-- code (its body, or a closure written inside it, such as a tf.cond
-- branch), else, when every such frame was a tail call, its definition.
-- Returns file, line and whether the line is the definition's.
local function recursion_site(self)
  local def = debug.getinfo(self.lua_function, "S")
  for level = 3, math.huge do
    local info = debug.getinfo(level, "Sl")
    if not info then break end
    if info.source == def.source and info.currentline > 0 and info.linedefined >= def.linedefined
      and info.lastlinedefined <= def.lastlinedefined then
      return info.short_src, info.currentline, false
    end
  end
  return def.short_src, def.linedefined, true
end

-- TF's RecursionError (Python's, which its tracing runs into): a typed
-- error naming the function and the user's line, raised before Lua's C
-- stack runs out, so the traces and tapes unwind normally.
local function recursion_error(self, levels, why)
  local file, line, defined = recursion_site(self)
  local err = core.error("RecursionError", ("tf.func '%s' called itself %d levels deep while being "
    .. "traced%s. Recursion on tensors never ends at trace time because its stopping condition is a "
    .. "tensor: recursive tf.funcs are not supported. Use a loop (`while` on a tensor, which "
    .. "AutoGraph turns into tf.while_loop).\n\nin user code, while tracing tf.func '%s'%s:\n  %s:%d")
    :format(self.name, levels, why or "", self.name,
      defined and " (its definition: the recursive call is a tail call, which leaves no line)" or "",
      file, line))
  err.file, err.line = file, line
  return err
end

local function check_recursion(self)
  if not core.tracing() then return end
  local levels = open_traces(self)
  if levels == 0 then return end
  if levels >= RECURSION_LIMIT then error(recursion_error(self, levels), 0) end
  if c_calls_open() >= C_CALLS_REFUSED_AT then
    error(recursion_error(self, levels, " (as deep as Lua's C stack allows)"), 0)
  end
end

local function trace_once(self, types, args, opts)
  check_recursion(self)
  local names = param_names(self, #types)
  local start = core.now()
  local number = self._count + 1
  local data = { fn = self, number = number, forbid = opts.forbid }
  local fn = self:_callable()
  local structure, record = {}, nil
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
    -- What a call a tape records derives its forward and backward
    -- functions from, with the graph (call_gradient.lua).
    -- (The leaves only: the receiver of a method must not be kept.)
    local tensors, vars = tapes.call_leaves(types, targs)
    record = { tensors = tensors, vars = vars, flat = flat }
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
  local cf = concrete.new({
    name = self.name, _fn = self, _types = types, _names = names, _graph = g,
    _captures = captures, _const_captures = const_captures, _structure = structure, _number = number,
    _id = concrete_ids, _created = data.created,
    _trace_seconds = core.now() - start, _traced_at = os.date("%H:%M:%S"),
    _reason = opts.reason, _feeds = {}, _trace_record = record,
  })
  for _, c in ipairs(captures) do
    if core.is_symbolic(c) then cf._scoped = true end
  end
  cf._simple = true
  for i = 1, structure.n do
    if structure[i].kind ~= "tensor" or structure[i].index ~= i then cf._simple = false end
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
  cache.disarm(self)
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
  cf._pool = pool -- the traces a call that fits cf may choose from (cache.lua)
  cache.disarm(self) -- a call made while tracing may have armed it
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

tracing.param_names, tracing.trace_once, tracing.pool_of = param_names, trace_once, pool_of
tracing.trace, tracing.generalize = trace, generalize

return tracing
