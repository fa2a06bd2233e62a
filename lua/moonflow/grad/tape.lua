-- tape.lua — tf.GradientTape. The op path (opcall.c) hands every op to the
-- tape hook while a tape records; a tape keeps the ops that touch what it
-- watches, and tape:gradient runs them backwards through the per-op rules
-- (rules.lua, which merges each op family's). What gradient and the
-- Jacobians are handed (nested structures) and TF's warnings for integers
-- are read in tape_args.lua.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local doc = require("moonflow.doc")
local options = require("moonflow.options")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local ops = require("moonflow.ops")
local variables = require("moonflow.tensor.variable")
local rules = require("moonflow.grad.rules").by_op
local name_scope = require("moonflow.trace.name_scope").name_scope
local node_source = require("moonflow.trace.node_source")
local receiver = require("moonflow.receiver")
local nest = require("moonflow.nest")
local args = require("moonflow.grad.tape_args")
local raise = errors.raise

local tapes = {}

local function dtype_of(x) return core.dtype(x) end
local static_shape, num_elements = shapes.static, shapes.num_elements
local variable_of = variables.of_handle

local Tape = { __name = "GradientTape" }
local tmethods = {}
receiver.metatable(Tape, "tape", tmethods)
Tape.__index = receiver.index(Tape, "tape", { methods = { tmethods }, display = "GradientTape" })

local recording = state.tapes -- tapes that currently record, in creation order
-- How a tape knows a tensor. A symbolic tensor or a resource handle is
-- known by identity (two Lua objects may hold one graph output or one
-- handle). Any other eager tensor is known by its Lua object: distinct
-- op outputs may share one core tensor (Identity, StopGradient, two
-- reads of a variable return it again), and conflating them would count
-- their gradients twice (TF gives every op output its own id, too).
local identity, is_symbolic = core.identity, core.is_symbolic
local function key(x)
  if is_symbolic(x) or core.dtype(x) == dtypes.resource then return identity(x) end
  return x
end

-- As TF's tape (GradientTape::ShouldRecord): an op is recorded when a
-- watched input has a trainable dtype (floating, or a variable's
-- resource handle). Integer and boolean paths carry no gradient, so a
-- source reached only through them gets nil.
local function carries_gradient(x)
  local d = core.dtype(x)
  return d.is_floating or d == dtypes.resource
end

local function touches_tape(tape, inputs)
  local tracked = tape._tracked
  for _, x in ipairs(inputs) do
    -- a call's Lua-value argument (a number cast to its signature's
    -- dtype inside the call) is nothing a tape can watch
    if core.is_tensor(x) and tracked[key(x)] and carries_gradient(x) then return true end
  end
  return false
end

-- Nested control flow (a cond inside a cond's gradient branch, a loop
-- in a branch) takes the innermost graph's capture placeholders as its
-- inputs, not the outer tensors the tape watches. A placeholder that
-- captures a tracked value is linked to it by an Identity record, so
-- gradients reach the outer value (else they were silently zero).
local capture_source = core.capture_source
local function link_captures(tape, inputs)
  local linked = false
  for _, x in ipairs(inputs) do
    if is_symbolic(x) and not tape._tracked[key(x)] then
      local src = capture_source(x)
      if src ~= nil and tape._tracked[key(src)] and carries_gradient(src) then
        tape._entries[#tape._entries + 1] = { type = "Identity", attrs = {}, inputs = { src }, outputs = { x } }
        tape._tracked[key(x)] = true
        linked = true
      end
    end
  end
  return linked
end

local function reaches_tape(tape, inputs)
  if touches_tape(tape, inputs) then return true end
  return core.tracing() and link_captures(tape, inputs)
end

-- A tape records the ops of the graph level it was created at: eager
-- tapes never see the symbolic ops of a trace that runs meanwhile (a
-- tf.func traced on its first call, a cond branch), and a tape inside a
-- traced function never sees eager ops (init_scope) or nested graphs.
local function level() return core.tracing() and core.trace_depth() or 0 end

-- The name scope an op is recorded under while tracing ("forward/"), nil
-- at the top or eagerly: TF's forward_pass_name_scope, under which the
-- op's gradient is named (gradient_tape/forward/MatMul).
local function forward_scope()
  if not core.tracing() then return nil end
  local graph = core.current_graph()
  local prefix = core.name_scope_set(graph, nil)
  core.name_scope_set(graph, prefix)
  return prefix
end

local function record(opname, attrs, inputs, outputs)
  local here = level()
  for _, tape in ipairs(recording) do
    local touches = tape._level == here and reaches_tape(tape, inputs)
    if not touches and opname == "ReadVariableOp" and tape._watch_accessed and tape._level == here then
      local v = variable_of(inputs[1])
      if v and v.trainable then
        touches = true
        tape._tracked[key(inputs[1])] = true
        tape._watched_vars[v] = true
      end
    end
    if touches then
      tape._entries[#tape._entries + 1] = { type = opname, attrs = attrs, inputs = inputs, outputs = outputs,
        scope = forward_scope() }
      for _, y in ipairs(outputs) do tape._tracked[key(y)] = true end
    end
  end
end

-- TF's variable_accessed, for an update returned unread (variable.lua):
-- the recording tapes of this level that watch accessed variables watch it.
state.on_variable_accessed = function(v)
  local here = level()
  for _, tape in ipairs(recording) do
    if tape._watch_accessed and tape._level == here then
      tape._tracked[key(v.handle)] = true
      tape._watched_vars[variable_of(v.handle) or v] = true
    end
  end
end

local function start(tape)
  if tape._recording then return end
  tape._recording = true
  state.push_tape(tape, record)
end

local function stop(tape)
  if not tape._recording then return end
  tape._recording = false
  state.remove_tape(tape)
end

tapes.GradientTape = options.def(function(opts)
  local tape = setmetatable({
    _entries = {}, _tracked = {}, _watched_vars = {},
    _persistent = opts.persistent or false,
    _watch_accessed = opts.watch_accessed_variables ~= false,
    _used = false, _recording = false, _level = level(),
  }, Tape)
  start(tape)
  return tape
end, "tf.GradientTape([{persistent=, watch_accessed_variables=}])",
"Records operations from creation until tape:stop() or the end of a `local tape <close> = ...` "
.. "scope; tape:gradient(target, sources) then differentiates. Trainable variables read while "
.. "recording are watched automatically.", { types = { persistent = "boolean", watch_accessed_variables = "boolean" },
  "persistent", "watch_accessed_variables" })

Tape.__close = function(tape) stop(tape) end

tmethods.stop = doc.def(function(tape) stop(tape) end, "tape:stop()", "Stops recording.")
-- Re-entering a recording tape is TF's ValueError (GradientTape._push_tape).
tmethods.resume = doc.def(function(tape)
  if tape._recording then
    raise("ValueError", "Tape is still recording, This can happen if you try to re-enter an already-active tape.", 2)
  end
  start(tape)
end, "tape:resume()", "Records again after tape:stop() (TF's re-entered `with tape:`); a tape that is recording "
.. "is a ValueError.")

local function keys_of(x)
  if variables.is_variable(x) then return key(x.handle) end
  return key(x)
end

-- A table of sources that contains itself (on the path walked: a table
-- shared twice is fine) is a ValueError, not a stack overflow.
local function cycle(what, level)
  raise("ValueError", what .. ": the table contains itself (a cycle)", level + 1)
end

local function watch(tape, x, seen)
  if type(x) == "table" and not variables.is_variable(x) then
    if seen[x] then cycle("tape:watch", 3) end
    seen[x] = true
    for _, v in ipairs(x) do watch(tape, v, seen) end
    seen[x] = nil
    return
  end
  if variables.is_variable(x) then
    args.warn_watched(x)
    tape._tracked[key(x.handle)] = true
    tape._watched_vars[x] = true
    variables.register_handle(x.handle, x)
    return
  end
  if not core.is_tensor(x) then
    -- TF's text (tape.py, _extract_tensors_and_variables), with Lua's type name.
    raise("ValueError", ("Passed in object %s of type '%s', not tf.Tensor or tf.Variable."):format(
      tostring(x), type(x)), 2)
  end
  args.warn_watched(x)
  tape._tracked[key(x)] = true
  -- A capture placeholder (a cond's gradient branch watches its inputs)
  -- is the outer value the branch's Lua code computes with: gradients
  -- that reach that value reach x.
  local src = is_symbolic(x) and capture_source(x) or nil
  while src ~= nil and not tape._tracked[key(src)] do
    tape._entries[#tape._entries + 1] = { type = "Identity", attrs = {}, inputs = { x }, outputs = { src } }
    tape._tracked[key(src)] = true
    x = src
    src = is_symbolic(x) and capture_source(x) or nil
  end
end

tmethods.watch = doc.def(function(tape, x) watch(tape, x, {}) end, "tape:watch(x)",
  "Makes the tape record operations on x (a tensor, variable, or table of them).")

-- As TF, in creation order (TF sorts them by unique id), whatever order
-- the code read them in.
tmethods.watched_variables = doc.def(function(tape)
  local list = {}
  for v in pairs(tape._watched_vars) do list[#list + 1] = v end
  table.sort(list, function(a, b) return a.id < b.id end)
  return list
end, "tape:watched_variables()",
"The variables the tape watches (given to watch, or trainable ones it saw being read), in creation order.")

tmethods.reset = doc.def(function(tape)
  tape._entries, tape._tracked, tape._watched_vars = {}, {}, {}
  tape._used = false
end, "tape:reset()", "Forgets everything recorded so far (and what was watched); a recording tape keeps "
.. "recording.")

-- The inputs of entry e whose gradient nobody can ask for, as TF's tape
-- finds them (tape.h, unneeded_gradients): neither watched nor made by a
-- recorded op (tape._tracked holds both), nor a source of this gradient.
-- TF hands them to the rules as skip_input_indices, and the rules of
-- MatMul, Add, Sub, Mul, Pow, Maximum, Minimum and SquaredDifference leave
-- their work out (a tape over x @ w does one product for dw, not two).
-- nil when none are, or when the tape tracks nothing (a replay).
local function unneeded(tape, e, sources)
  local tracked = tape._tracked
  if not tracked then return nil end
  local skip
  for k, x in ipairs(e.inputs) do
    -- A Lua value among a call's inputs (a non-tensor argument) has none.
    local id = core.is_tensor(x) and key(x) or nil
    if id == nil or (not tracked[id] and not sources[id]) then
      skip = skip or {}
      skip[k] = true
    end
  end
  return skip
end

-- The ones that seed a target's gradient (a variable's handle seeds with
-- ones of the variable's value).
local function ones_for(t)
  if dtype_of(t) ~= dtypes.resource then return ops.ones_like(t) end
  local v = variable_of(t)
  local shape = v.shape:as_list()
  for _, d in ipairs(shape) do
    if d == shapes.None then return ops.ones_like(v:read_value()) end
  end
  return ops.ones(shape, v.dtype)
end

-- The reverse pass over the recorded entries: the gradients of every
-- tensor reached, by key. sources (keys) are never skipped.
local function backprop(tape, targets, target_grads, sources)
  sources = sources or {}
  local grads = {}
  local function add(x, g)
    if g == nil or not core.is_tensor(x) then return end -- a Lua value has no gradient
    local k = key(x)
    local old = grads[k]
    grads[k] = old and old + g or g
  end
  for i, t in ipairs(targets) do
    add(t, target_grads and target_grads[i] or ones_for(t))
  end
  for i = #tape._entries, 1, -1 do
    local e = tape._entries[i]
    local any = false
    for _, y in ipairs(e.outputs) do
      if grads[key(y)] then any = true break end
    end
    if any then
      local dys, present = {}, {}
      for k, y in ipairs(e.outputs) do
        present[k] = grads[key(y)] ~= nil
        -- A resource or variant output (a loop passing a variable's
        -- handle or a dataset iterator through) carries no gradient here
        -- and has no zeros.
        local d = dtype_of(y)
        dys[k] = grads[key(y)] or ((d ~= dtypes.resource and d ~= dtypes.variant) and ops.zeros_like(y) or nil)
      end
      local rule = e.grad_fn or rules[e.type]
      if not rule then
        raise("LookupError", ("No gradient defined for operation '%s' (op type: %s)"):format(e.type, e.type), 3)
      end
      -- Traced, as TF's backprop.py _gradient_function names them: the
      -- rule's ops under "gradient_tape/" and the forward op's scope.
      local scope <close> = core.tracing() and name_scope("gradient_tape/" .. (e.scope or "")) or nil
      local of <close> = core.tracing() and node_source.gradient_of(e.outputs[1]) or nil
      local dxs = rule(e, dys, present, unneeded(tape, e, sources))
      for k, x in ipairs(e.inputs) do
        if dxs[k] ~= nil then add(x, dxs[k]) end
      end
    end
  end
  return grads
end

-- Runs fn with a non-persistent tape paused (it is spent). A persistent
-- tape, as TF's, records its own backward ops while it records, so a
-- gradient of the gradient can be taken; outer tapes record them too.
local function paused(tape, fn)
  if tape._persistent then return fn() end
  local was = tape._recording
  stop(tape)
  local ok, r = pcall(fn)
  if was then start(tape) end
  if not ok then error(r, 0) end
  return r
end

local function zeros_for(source)
  if variables.is_variable(source) then return ops.zeros_like(source:read_value()) end
  return ops.zeros_like(source)
end

-- Targets that cannot carry a gradient (strings, ...) contribute none.
-- Their weights stay paired with them (a nil weight means ones).
local function differentiable_targets(targets, weights)
  local ts, ws = {}, weights and {} or nil
  for i, t in ipairs(targets) do
    local d = args.value_dtype(t)
    if d.is_numeric or d == dtypes.bool then
      ts[#ts + 1] = t
      if ws then ws[#ts] = weights[i] end
    end
  end
  return ts, ws
end

-- The gradients of the flat targets (weighted by tgrads, or ones) with
-- respect to each flat source, in order: the reverse pass itself, shared
-- by tape:gradient, the Jacobians and the library's own tapes. Spends a
-- tape that is not persistent.
local function gradient_values(tape, targets, tgrads, leaves, mode)
  targets, tgrads = differentiable_targets(targets, tgrads)
  -- Traced, the backward pass is named as TF names it: gradient_tape/...
  local scope <close> = name_scope("gradient_tape")
  local values = paused(tape, function()
    local source_keys = {}
    for _, leaf in ipairs(leaves) do source_keys[keys_of(leaf)] = true end
    local grads = backprop(tape, targets, tgrads, source_keys)
    local out = {}
    for i, s in ipairs(leaves) do
      local g = grads[keys_of(s)]
      if g == nil and mode == "zero" then g = zeros_for(s) end
      out[i] = g
    end
    return out
  end)
  if not tape._persistent then
    tape._entries, tape._tracked = {}, {}
  end
  return values
end

local function check_unused(tape)
  if tape._used and not tape._persistent then
    raise("RuntimeError", "GradientTape.gradient can only be called once on non-persistent tapes.", 3)
  end
end

local checked_gradient = options.def(function(tape, target, sources, output_gradients, opts)
  if args.is_options(output_gradients) and opts == nil then output_gradients, opts = nil, output_gradients end
  opts = opts or {}
  if output_gradients == nil then output_gradients = opts.output_gradients end
  local mode = args.unconnected_mode(opts.unconnected_gradients)
  check_unused(tape)
  local targets, target_structure = args.flatten_targets(target)
  local leaves, structure = args.flatten_sources(sources, "tape:gradient")
  local tgrads = args.nested_weights(output_gradients, targets, target_structure)
  args.warn_untrainable(targets, leaves)
  tape._used = true
  local values = gradient_values(tape, args.handles_of(targets), tgrads, leaves, mode)
  return nest.pack_leaves(structure, values)
end, "tape:gradient(target, sources [, output_gradients] [, {output_gradients=, unconnected_gradients=}])",
"d(target)/d(sources), as TF's: target is a tensor, a tf.Variable or a (nested) table of them (lists "
.. "or named keys), and the gradient is that of their sum; sources is the same kind of structure, and "
.. "the result has its structure. output_gradients weighs each target (a tensor or number per target, "
.. "in target's structure or as a flat list in its order; the count must match); a source the target "
.. "does not depend on gives nil, or zeros with unconnected_gradients = \"zero\". A target or source "
.. "that is not floating (an integer) has no gradient: each is warned of, as TF warns.",
{ required = 3, positional = { "output_gradients" }, "unconnected_gradients",
  types = { unconnected_gradients = "string" } })

tmethods.gradient = function(tape, target, sources, ...)
  if select("#", ...) == 1 and args.keyed_weights((...)) then
    return checked_gradient(tape, target, sources, { output_gradients = (...) })
  end
  return checked_gradient(tape, target, sources, ...)
end
do
  local record = doc.get(checked_gradient)
  doc.def(tmethods.gradient, record.signature, record.text)
  doc.get(tmethods.gradient).options = record.options
end

--- The library's own gradient of a tape it made (a cond branch, a call's
-- backward function, a loop body): the flat targets (a list; anything
-- but tensors and variables in it is skipped), the sources (a list or
-- table of tensors and variables, answered in its structure) and the
-- seeds (a list, a hole meaning ones). Nothing is warned of: the user
-- asked for none of these.
function tapes.gradient_flat(tape, targets, sources, seeds)
  check_unused(tape)
  local flat = {}
  for _, x in ipairs(targets) do
    if args.is_leaf(x) then flat[#flat + 1] = x end
  end
  local leaves, structure = args.flatten_sources(sources, "gradient")
  local values = gradient_values(tape, args.handles_of(flat), args.flat_weights(seeds, flat), leaves, "none")
  tape._used = true
  return nest.pack_leaves(structure, values)
end

-- The Jacobian of the flat target y with respect to one source.
local function jacobian_one(tape, y, source, mode)
  -- One gradient per element of the target, unrolled: the target's shape
  -- must be known (always so eagerly; inside tf.func, a static shape).
  local sy = static_shape(y)
  if not sy then
    raise("ValueError", "tape:jacobian needs a target of known shape, got " .. tostring(y.shape)
      .. " (inside tf.func, give the function an input_signature with static dimensions)", 2)
  end
  local n = num_elements(sy)
  local is_var = variables.is_variable(source)
  local ss = is_var and source.shape:as_list() or static_shape(source)
  local rows, connected = {}, false
  local persistent = tape._persistent
  tape._persistent = true
  local ok, err = pcall(function()
    for i = 0, n - 1 do
      local seed = ops.reshape(ops.one_hot(i, n, { dtype = dtype_of(y) }), sy)
      rows[i + 1] = gradient_values(tape, { y }, { seed }, { source }, "none")[1]
      if rows[i + 1] ~= nil then connected = true end
    end
  end)
  tape._persistent = persistent
  tape._used = true
  if not ok then error(err, 0) end
  -- As TF (unconnected_gradients NONE): a source the target does not
  -- depend on gives nil.
  if not connected and n > 0 and mode ~= "zero" then return nil end
  local shape
  if ss then
    shape = table.move(sy, 1, #sy, 1, {})
    table.move(ss, 1, #ss, #sy + 1, shape)
  else
    shape = ops.concat({ ops.constant(sy, dtypes.int32), ops.shape(source) }, 0)
  end
  if n == 0 then return ops.zeros(shape, is_var and source.dtype or dtype_of(source)) end
  local example
  for i = 1, n do example = example or rows[i] end
  if example == nil then return ops.zeros(shape, is_var and source.dtype or dtype_of(source)) end
  for i = 1, n do rows[i] = rows[i] or ops.zeros_like(example) end
  return ops.reshape(ops.stack(rows), shape)
end

-- TF's parallel_iterations and experimental_use_pfor choose how the rows
-- are computed, never what they are: moonflow computes them one by one.
-- But as TF's, the while-loop form (experimental_use_pfor = false) takes
-- many gradients of the tape, which eagerly needs a persistent one.
local function check_jacobian_tape(tape, opts, what)
  if tape._used and not tape._persistent then
    raise("RuntimeError", "A non-persistent GradientTape can only be used to compute one set of "
      .. "gradients (or jacobians)", 3)
  end
  if opts and opts.experimental_use_pfor == false and not core.tracing() and not tape._persistent then
    raise("RuntimeError", "GradientTape must be created with persistent=True to compute the " .. what
      .. " with eager execution enabled and with  experimental_use_pfor set to False.", 3)
  end
end

tmethods.jacobian = options.def(function(tape, target, sources, opts)
  check_jacobian_tape(tape, opts, "jacobian")
  local mode = args.unconnected_mode(opts and opts.unconnected_gradients)
  local y = args.jacobian_target(target, "tape:jacobian")
  local leaves, structure = args.flatten_sources(sources, "tape:jacobian")
  -- TF's jacobian differentiates through gradient() once per call (its
  -- loop body is traced once): its warnings come once, not per row.
  args.warn_untrainable({ target }, leaves)
  local values = {}
  for i, source in ipairs(leaves) do values[i] = jacobian_one(tape, y, source, mode) end
  tape._used = true
  return nest.pack_leaves(structure, values)
end, "tape:jacobian(target, sources [, {unconnected_gradients=, parallel_iterations=}])",
"The Jacobian of target with respect to each source (a tensor, a tf.Variable or a table of them, "
.. "and the result has the same structure): shape target.shape + source.shape.",
{ required = 3, "unconnected_gradients", "parallel_iterations", "experimental_use_pfor",
  types = { unconnected_gradients = "string", parallel_iterations = "number",
    experimental_use_pfor = "boolean" } })

-- The per-example rows of a batch Jacobian: d target[:, j] / d source
-- for each flat position j of a target row, one weighted gradient each
-- (the weights pick position j in every example; examples are assumed
-- independent, as TF's batch_jacobian assumes).
local function batch_rows(tape, y, x, batch, row_size)
  local rows, connected = {}, false
  local persistent = tape._persistent
  tape._persistent = true
  local ok, err = pcall(function()
    for j = 0, row_size - 1 do
      local pick = ops.reshape(ops.one_hot(j, row_size, { dtype = dtype_of(y) }), { 1, row_size })
      local seed = ops.reshape(ops.broadcast_to(pick, { batch, row_size }), static_shape(y))
      rows[j + 1] = gradient_values(tape, { y }, { seed }, { x }, "none")[1]
      if rows[j + 1] ~= nil then connected = true end
    end
  end)
  tape._persistent = persistent
  if not ok then error(err, 0) end
  return rows, connected
end

tmethods.batch_jacobian = options.def(function(tape, target, source, opts)
  check_jacobian_tape(tape, opts, "batch_jacobian")
  local mode = args.unconnected_mode(opts and opts.unconnected_gradients)
  local y = args.jacobian_target(target, "tape:batch_jacobian")
  local x = variables.is_variable(source) and source:read_value() or source
  if not core.is_tensor(y) or not core.is_tensor(x) then
    raise("TypeError", "tape:batch_jacobian expects a target and a source that are tensors or tf.Variables, got "
      .. tostring(target) .. " and " .. tostring(source), 2)
  end
  args.warn_untrainable({ target }, { source })
  local sy, sx = y.shape, x.shape
  for _, s in ipairs({ sy, sx }) do
    if s.rank ~= nil and s.rank < 2 then
      raise("ValueError", ("Shape %s must have rank at least 2"):format(tostring(s)), 2)
    end
  end
  local by, bx = sy.rank and sy[0], sx.rank and sx[0]
  if by ~= nil and bx ~= nil and by ~= shapes.None and bx ~= shapes.None and by ~= bx then
    raise("ValueError", ("Need first dimension of target shape (%s) and source shape (%s) to match."):format(
      tostring(sy), tostring(sx)), 2)
  end
  local ys, xs = static_shape(y), static_shape(x)
  if not ys or not xs then
    raise("ValueError", "tape:batch_jacobian needs a target and a source of known shape, got " .. tostring(sy)
      .. " and " .. tostring(sx) .. " (inside tf.func, give the function an input_signature with static dimensions)", 2)
  end
  local batch = ys[1]
  local row_size = batch > 0 and num_elements(ys) // batch or 0
  local rows, connected = batch_rows(tape, y, source, batch, row_size)
  tape._used = true
  local shape = table.move(ys, 1, #ys, 1, {})
  table.move(xs, 2, #xs, #shape + 1, shape)
  if row_size == 0 or batch == 0 then return ops.zeros(shape, dtype_of(x)) end
  if not connected and mode ~= "zero" then return nil end
  for j = 1, row_size do rows[j] = rows[j] or ops.zeros_like(x) end
  -- [row, batch, x...] -> [batch, row, x...] -> target.shape + source.shape[1:]
  local out = ops.reshape(ops.stack(rows), { row_size, batch, -1 })
  return ops.reshape(ops.transpose(out, { 1, 0, 2 }), shape)
end, "tape:batch_jacobian(target, source [, {unconnected_gradients=, parallel_iterations=, experimental_use_pfor=}])",
"Per-example Jacobians: for target [b, y1, ...] and source [b, x1, ...], the [b, y1, ..., x1, ...] tensor whose "
.. "[i, ...] is the Jacobian of target[i] with respect to source[i] (target[i] must depend on source[i] alone).",
{ required = 3, "unconnected_gradients", "parallel_iterations", "experimental_use_pfor",
  types = { unconnected_gradients = "string", parallel_iterations = "number", experimental_use_pfor = "boolean" } })

function Tape.__tostring(tape)
  return ("<tf.GradientTape %s, %d ops recorded%s>"):format(tape._recording and "recording" or "stopped",
    #tape._entries, tape._persistent and ", persistent" or "")
end

--- Runs fn() with every recording tape paused but variable watchers
-- (tf.custom_gradient's, which TF's stop_recording leaves alone too), and
-- returns what fn returns. Tapes made inside fn record as usual.
function tapes.stop_recording(fn)
  local before = table.move(recording, 1, #recording, 1, {})
  for _, t in ipairs(before) do
    if not t._watcher then state.remove_tape(t) end
  end
  local r = table.pack(pcall(fn))
  local now = table.move(recording, 1, #recording, 1, {})
  local was = {}
  for _, t in ipairs(before) do was[t] = true end
  for _, t in ipairs(now) do state.remove_tape(t) end
  for _, t in ipairs(before) do
    if t._recording then state.push_tape(t, record) end
  end
  for _, t in ipairs(now) do
    if not was[t] then state.push_tape(t, record) end
  end
  if not r[1] then error(r[2], 0) end
  return table.unpack(r, 2, r.n)
end

-- Records an op whose gradient is computed by grad_fn(node, dys) on every
-- recording tape that tracks one of its inputs (control flow uses it).
tapes.record_custom = function(inputs, outputs, grad_fn)
  local here = level()
  for _, tape in ipairs(recording) do
    if tape._level == here and reaches_tape(tape, inputs) then
      tape._entries[#tape._entries + 1] = { type = "Custom", inputs = inputs, outputs = outputs,
        grad_fn = grad_fn, scope = forward_scope() }
      for _, y in ipairs(outputs) do tape._tracked[key(y)] = true end
    end
  end
end

-- The differentiable leaves of a call's arguments (or of the placeholders
-- a trace made for them), in one order for both: the tensors, then the
-- trainable variables, each also found inside tables, as the trace types
-- describe them.
tapes.call_leaves = function(types, args)
  local tensors, vars = {}, {}
  local function walk(t, v)
    if v == nil then return end
    if t.kind == "tensor" then
      tensors[#tensors + 1] = v
    elseif t.kind == "variable" then
      if v.trainable then vars[#vars + 1] = v end
    elseif t.kind == "table" then
      for i, s in ipairs(t.array) do walk(s, v[i]) end
      for _, k in ipairs(t.keys) do walk(t.map[k], v[k]) end
    end
  end
  for i, t in ipairs(types) do walk(t, args[i]) end
  return tensors, vars
end

-- The sources a call of concrete function cf differentiates, in the order
-- of its recorded inputs: the tensor arguments, the trainable variable
-- arguments, the trainable variables it captures, then the floating
-- tensors it captures (as TF, captures are inputs of the call).
tapes.call_sources = function(cf, args)
  local tensors, vars = tapes.call_leaves(cf._types, args)
  local inputs, captured, captured_tensors = table.move(tensors, 1, #tensors, 1, {}), {}, {}
  for _, v in ipairs(vars) do inputs[#inputs + 1] = v.handle end
  for _, c in ipairs(cf._captures) do
    if core.dtype(c) == dtypes.resource then
      local v = variable_of(c)
      if v and v.trainable then
        captured[#captured + 1] = v
        inputs[#inputs + 1] = v.handle
      end
    elseif core.dtype(c).is_floating then
      captured_tensors[#captured_tensors + 1] = c
    end
  end
  -- Small tensors embedded as Consts are inputs of the call all the same
  -- (TF appends a by-value capture to graph.inputs and records it on the
  -- tape: capture_container.py, capture_by_value).
  for _, pair in ipairs(cf._const_captures or {}) do
    if core.dtype(pair[1]).is_floating then captured_tensors[#captured_tensors + 1] = pair[1] end
  end
  table.move(captured_tensors, 1, #captured_tensors, #inputs + 1, inputs)
  return inputs, vars, captured, captured_tensors
end

-- Variables read inside a nested graph (a call, a loop body) count as
-- accessed by the tapes that record at this level.
tapes.note_accessed = function(vars)
  local here = level()
  for _, tape in ipairs(recording) do
    if tape._watch_accessed and tape._level == here then
      for _, v in ipairs(vars) do
        tape._tracked[key(v.handle)] = true
        tape._watched_vars[v] = true
      end
    end
  end
end

-- Whether a call of cf with args would be recorded by any tape: one at
-- this level that tracks an input, or that watches the trainable
-- variables the call reads. Calls no tape records run as plain calls.
tapes.would_record = function(cf, args)
  local here = level()
  local inputs = tapes.call_sources(cf, args)
  for _, tape in ipairs(recording) do
    if tape._level == here then
      if reaches_tape(tape, inputs) then return true end
      if tape._watch_accessed then
        for _, x in ipairs(inputs) do
          if core.is_tensor(x) and core.dtype(x) == dtypes.resource then return true end
        end
      end
    end
  end
  return false
end

-- Records a call of concrete function cf: one op whose inputs are the
-- call's sources and whose outputs are `outs` (then the intermediates
-- the forward variant returned, so that a gradient of the gradient
-- reaches them); grad_fn(node, dys, present) gives one gradient per input.
-- `saved`, when given, lists what grad_fn reads besides the entry's
-- outputs (a replay of the entry substitutes it too).
tapes.record_call = function(cf, args, outs, grad_fn, intermediates, saved)
  if #recording == 0 then return end
  local inputs, arg_vars, captured = tapes.call_sources(cf, args)
  local vars = table.move(arg_vars, 1, #arg_vars, 1, {})
  for _, v in ipairs(captured) do vars[#vars + 1] = v end
  tapes.note_accessed(vars)
  local here = level()
  local outputs = table.move(outs, 1, outs.n or #outs, 1, {})
  if intermediates then table.move(intermediates, 1, #intermediates, #outputs + 1, outputs) end
  for _, tape in ipairs(recording) do
    if tape._level == here and touches_tape(tape, inputs) then
      tape._entries[#tape._entries + 1] = { type = "StatefulPartitionedCall", inputs = inputs,
        outputs = outputs, grad_fn = grad_fn, saved = saved, scope = forward_scope() }
      for _, y in ipairs(outputs) do tape._tracked[key(y)] = true end
    end
  end
end

-- The reverse pass over recorded entries (a tape's, or a forward
-- graph's as a backward function replays them): the gradients of
-- every tensor reached, by key.
tapes.backprop_entries = function(entries, targets, seeds)
  return backprop({ _entries = entries }, targets, seeds)
end
tapes.key = key

--- Recorded entries with their tensors replaced through map (keyed by
-- tapes.key; a tensor map does not hold stays), and the replacement
-- function: how cond and while gradients replay a branch's or body's
-- records over the forward op's outputs.
function tapes.substitute(entries, map)
  local function sub(t)
    local m = map[key(t)]
    if m ~= nil then return m end
    return t
  end
  local function sub_all(list)
    local out = {}
    for i, t in ipairs(list or {}) do out[i] = sub(t) end
    return out
  end
  local out = {}
  for i, e in ipairs(entries) do
    out[i] = { type = e.type, attrs = e.attrs, inputs = sub_all(e.inputs), outputs = sub_all(e.outputs),
      scope = e.scope }
  end
  return out, sub
end

-- Library-internal (the other modules' view, not part of tf).
tapes.internal = { gradient_flat = true, record_custom = true, stop_recording = true, record_call = true, note_accessed = true, would_record = true, call_sources = true, call_leaves = true, backprop_entries = true,
  key = true, substitute = true, internal = true }

return tapes
