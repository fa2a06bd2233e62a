-- call_gradient.lua — the gradient of a tf.func call made while a
-- GradientTape records (trace/concrete.lua hands such calls here): TF's
-- pair of a forward function that also returns the intermediates its
-- gradient reads, and a backward function of those, so that the function
-- runs once. It requires nothing of trace/: what it needs of tf.func it
-- asks the objects it is handed (a concrete function cf: cf:_feeds_for,
-- cf:_graph_to_run, cf:_results; its tf.func cf._fn: _new_func,
-- _trace_once).

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local nest = require("moonflow.nest")
local tapes = require("moonflow.grad.tape")
local variables = require("moonflow.tensor.variable")
local shapes = require("moonflow.tensor.shape")
local state = require("moonflow.state")
local retracing = require("moonflow.trace.retracing")
local replay = require("moonflow.grad.replay")
local dtypes = require("moonflow.tensor.dtypes")
local rules = require("moonflow.grad.rules").by_op

local raise = errors.raise
local flatten = nest.flatten

local call_gradient = {}

local retracing_backward, retraced_pair -- below

-- The gradient pair of a concrete function, as TF's forward and backward
-- functions of a call: `forward`, a trace of the same function that also
-- returns every intermediate the gradient rules read (the tensors of the
-- ops a tape inside that trace recorded), and `backward`, a tf.func of
-- (outputs, intermediates, output gradients[, intermediate gradients])
-- that replays those records in reverse over its own placeholders. The
-- backward pass never runs the forward ops again: a call under a tape
-- runs `forward` once, so its side effects (assigns, prints) happen once.
-- Nil when the forward graph holds records whose gradient re-traces Lua
-- code that reads the forward trace (If and loop gradients).
local identity, is_symbolic = core.identity, core.is_symbolic

-- A call recorded through its own gradient pair (a tf.func called in
-- the trace) replays: its entry keeps what its backward function reads
-- (`saved`), which a replay substitutes like inputs and outputs.
local function replayable(entries)
  for _, e in ipairs(entries) do
    if (e.grad_fn and not e.saved) or (e.attrs and e.attrs._gradient) then return false end
  end
  return true
end

-- The backward function for one set of present output gradients: `mask`
-- lists, over the outputs then the floating intermediates, those that
-- received a gradient; it takes just those (an absent one is no zero
-- seed, so a source reached only through it stays unconnected: nil).
local function build_backward(cf, rec, mask)
  local nout, ninter = #rec.flat, #rec.inter
  local backward = cf._fn:_new_func(function(...)
    local all = table.pack(...)
    local map = {}
    for i, t in ipairs(rec.flat) do
      if is_symbolic(t) then map[identity(t)] = all[i] end
    end
    for j, t in ipairs(rec.inter) do map[identity(t)] = all[nout + j] end
    local function sub(t)
      if is_symbolic(t) then return map[identity(t)] or t end
      return t
    end
    local function sub_all(list)
      local out = {}
      for i, t in ipairs(list) do out[i] = sub(t) end
      return out
    end
    local entries = {}
    for i, e in ipairs(rec.entries) do
      entries[i] = { type = e.type, attrs = e.attrs, inputs = sub_all(e.inputs), outputs = sub_all(e.outputs),
        grad_fn = e.grad_fn, saved = e.saved and sub_all(e.saved), scope = e.scope }
    end
    local targets, seeds = {}, {}
    local next_dy = nout + ninter
    for i, t in ipairs(rec.flat) do
      if mask[i] then
        next_dy = next_dy + 1
        targets[#targets + 1], seeds[#seeds + 1] = sub(t), all[next_dy]
      end
    end
    for k, j in ipairs(rec.dinter) do
      if mask[nout + k] then
        next_dy = next_dy + 1
        targets[#targets + 1], seeds[#seeds + 1] = all[nout + j], all[next_dy]
      end
    end
    local grads = tapes.backprop_entries(entries, targets, seeds)
    local out = {}
    for i, src in ipairs(rec.sources) do out[i] = grads[tapes.key(sub(src))] end
    return table.unpack(out, 1, #rec.sources)
  end, { name = cf.name .. "_backward", autograph = false })
  -- Its own retracing detector: every concrete function has a backward
  -- function of this one Lua definition, which is no user's retracing.
  backward._detector = retracing.new()
  return backward
end

-- Runs cf's Lua function on the forward trace's parameters under a
-- persistent tape watching every source of the call (call_sources'
-- order): returns the tape, the sources (variables as their handles) and
-- the flat outputs.
local function run_taped(cf, params, captured, captured_tensors)
  local tape = tapes.GradientTape({ persistent = true })
  local sources = {}
  local function watch(x)
    -- A tensor that carries no gradient (a resource handle among a
    -- backward function's inputs, integers) stays unwatched: its
    -- gradient is nil.
    if variables.is_variable(x) or core.dtype(x).is_floating then tape:watch(x) end
    sources[#sources + 1] = variables.is_variable(x) and x.handle or x
  end
  local tensors, vars = tapes.call_leaves(cf._types, params)
  for _, x in ipairs(tensors) do watch(x) end
  for _, v in ipairs(vars) do watch(v) end
  for _, v in ipairs(captured) do watch(v) end
  for _, c in ipairs(captured_tensors) do watch(c) end
  -- Flattening reads a returned variable: the tape records that read.
  -- The tape stops on every path out (an error would leave it recording).
  local flat = {}
  local ok, err = pcall(function()
    local results = table.pack(cf._fn:_callable()(table.unpack(params, 1, #cf._types)))
    for i = 1, results.n do flatten(results[i], flat) end
  end)
  tape:stop()
  if not ok then error(err, 0) end
  return tape, sources, flat
end

-- The gradient pair made from the function's one trace (TF's
-- _DelayedRewriteGradientFunctions: the forward and backward functions
-- come from the FuncGraph, the Python function runs once): the ops its
-- trace recorded (cf._trace_record) that a source reaches are the
-- records the backward function replays, and the forward variant is a
-- copy of the traced graph that also returns the tensors they read. Nil
-- when those ops hold one whose gradient needs more than its record (an
-- If or While traced with no tape recording, a call of another tf.func)
-- or a tensor of another graph: the pair is then made by tracing again.
local carries = function(x)
  local d = core.dtype(x)
  return d.is_floating or d == dtypes.resource
end

-- What a tape would record of cf's graph: each node whose op a tape
-- records (not the ones the registry marks not differentiable), as an
-- entry {type=, attrs=, inputs=, outputs=, scope=} over tensors of the
-- graph (core.graph_tensor, known by identity as the trace's own), with
-- its capture placeholders standing for the values captured (eager
-- tensors, variables' handles) and its embedded Consts for the small
-- tensors they hold, as the Lua code used them.
local NO_GRADIENT = {}
for _, o in ipairs(core.op_list()) do NO_GRADIENT[o.name] = o.no_gradient == true end

local function graph_entries(cf, nodes)
  local g = cf._graph
  local stands = {}
  local ins = core.graph_io(g)
  local nparams = #ins - #cf._captures
  for k, c in ipairs(cf._captures) do stands[ins[nparams + k]] = c end
  for _, pair in ipairs(cf._const_captures or {}) do stands[pair[2]] = pair[1] end
  -- A Const the trace embedded (a Lua number, an eager constant) is the
  -- eager value the op was given, as a tape records it.
  for i, n in ipairs(nodes) do
    if n.type == "Const" and stands[i - 1] == nil and core.is_tensor(n.attrs.value) then
      stands[i - 1] = n.attrs.value
    end
  end
  local tensor_of = function(node, index)
    if index == 0 and stands[node] ~= nil then return stands[node] end
    return core.graph_tensor(g, node, index)
  end
  -- The Identity nodes the trace adds for the outputs are no op of the
  -- function's (the records end at the values it returned).
  local _, outs = core.graph_io(g)
  local is_output = {}
  for _, o in ipairs(outs) do
    if nodes[o[1] + 1].type == "Identity" then is_output[o[1] + 1] = true end
  end
  local entries = {}
  for i, n in ipairs(nodes) do
    if not NO_GRADIENT[n.type] and n.type ~= "Placeholder" and n.type ~= "Const" and not is_output[i] then
      local inputs, outputs = {}, {}
      for k, ref in ipairs(n.inputs) do
        inputs[k] = tensor_of(n.input_nodes[k], tonumber(ref:match(":(%d+)$")))
      end
      for k = 1, #n.outputs do outputs[k] = tensor_of(i - 1, k - 1) end
      entries[#entries + 1] = { type = n.type, attrs = n.attrs, inputs = inputs, outputs = outputs,
        scope = n.name:match("^(.*/)") }
    end
  end
  return entries
end

local function derived_rec(cf, captured, captured_tensors)
  local r = cf._trace_record
  -- A function that captured tensors of an enclosing trace reads them as
  -- its records name them, not as its captures do: traced again.
  if not r or cf._scoped then return nil end
  local key = tapes.key
  local sources, reached = {}, {}
  local function source(x)
    local s = variables.is_variable(x) and x.handle or x
    sources[#sources + 1] = s
    if variables.is_variable(x) or core.dtype(x).is_floating then reached[key(s)] = true end
  end
  for _, list in ipairs({ r.tensors, r.vars, captured, captured_tensors }) do
    for _, x in ipairs(list) do source(x) end
  end
  -- A call of another tf.func is no op a tape records (its gradient is
  -- its callee's pair, which this graph's call node does not return).
  local nodes = core.graph_nodes(cf._graph)
  for _, n in ipairs(nodes) do
    if n.type == "PartitionedCall" or n.type == "StatefulPartitionedCall" then return nil end
  end
  local entries = {}
  for _, e in ipairs(graph_entries(cf, nodes)) do
    local hit = false
    for _, x in ipairs(e.inputs) do
      if core.is_tensor(x) and reached[key(x)] and carries(x) then
        hit = true
        break
      end
    end
    if hit then
      if not rules[e.type] or e.attrs._gradient_op_type or e.type == "If" or e.type == "StatelessIf"
        or e.type == "While" or e.type == "StatelessWhile" then
        return nil
      end
      entries[#entries + 1] = e
      for _, y in ipairs(e.outputs) do reached[key(y)] = true end
    end
  end
  -- The intermediates: every tensor of the graph the records read,
  -- as {node, index} of the graph.
  local seen, inter, refs = {}, {}, {}
  for _, t in ipairs(r.flat) do
    if is_symbolic(t) then seen[identity(t)] = true end
  end
  for _, e in ipairs(entries) do
    for _, list in ipairs({ e.inputs, e.outputs }) do
      for _, t in ipairs(list) do
        if is_symbolic(t) and not seen[identity(t)] then
          local id = identity(t)
          seen[id] = true
          local node, index = id:match("/(%d+):(%d+)$")
          inter[#inter + 1] = t
          refs[#refs + 1] = { tonumber(node), tonumber(index) }
        end
      end
    end
  end
  local rec = { entries = entries, flat = r.flat, inter = inter, sources = sources, dinter = {} }
  for j, t in ipairs(inter) do
    if core.dtype(t).is_floating then rec.dinter[#rec.dinter + 1] = j end
  end
  return rec, refs
end

local function gradient_pair(cf, args)
  if cf._grad_pair ~= nil then return cf._grad_pair or nil end
  local _, _, captured, captured_tensors = tapes.call_sources(cf, args)
  local derived, refs = derived_rec(cf, captured, captured_tensors)
  if derived then
    local pair = { forward = cf:_with_outputs(refs), nout = #derived.flat, ninter = #derived.inter,
      dinter = derived.dinter, rec = derived, cf = cf, backwards = {} }
    cf._grad_pair = pair
    return pair
  end
  return retraced_pair(cf, args, captured, captured_tensors)
end

-- The gradient pair of a trace whose record cannot give it (derived_rec):
-- the function traced again under a tape.
function retraced_pair(cf, args, captured, captured_tensors)
  local rec = {}
  local wrapper = cf._fn:_new_func(function(...)
    local params = table.pack(...)
    local tape, sources, flat = run_taped(cf, params, captured, captured_tensors)
    local seen, inter = {}, {}
    for _, t in ipairs(flat) do
      if is_symbolic(t) then seen[identity(t)] = true end
    end
    for _, e in ipairs(tape._entries) do
      for _, list in ipairs({ e.inputs, e.outputs, e.saved }) do
        for _, t in ipairs(list) do
          if is_symbolic(t) and not seen[identity(t)] then
            seen[identity(t)] = true
            inter[#inter + 1] = t
          end
        end
      end
    end
    rec.entries, rec.flat, rec.inter, rec.sources = tape._entries, flat, inter, sources
    -- The intermediates a gradient can flow into (floating ones).
    rec.dinter = {}
    for j, t in ipairs(inter) do
      if core.dtype(t).is_floating then rec.dinter[#rec.dinter + 1] = j end
    end
    local out = table.move(flat, 1, #flat, 1, {})
    table.move(inter, 1, #inter, #out + 1, out)
    return table.unpack(out, 1, #out)
  end, { name = cf.name, autograph = false })
  -- The forward variant is the same function traced again: its trace
  -- names its parameters as the function does.
  wrapper._params = cf._fn._params
  local forward = wrapper:_trace_once(cf._types, args, { forbid = true, reason = "gradient" })
  if not replayable(rec.entries) then
    cf._grad_pair = false
    return nil
  end
  local pair = { forward = forward, nout = #rec.flat, ninter = #rec.inter, dinter = rec.dinter,
    rec = rec, cf = cf, backwards = {} }
  cf._grad_pair = pair
  return pair
end

-- One tape entry for a call run through its gradient pair. The entry's
-- outputs start with the call's outputs and its `saved` list holds every
-- intermediate: read from the entry, so that a replay of the entry (the
-- call made inside another function's forward trace) reads its own.
local function pair_grad_fn(pair)
  local nout, ninter, nd = pair.nout, pair.ninter, #pair.dinter
  return function(e, dys, present)
    local mask, bits = {}, {}
    local call = table.move(e.outputs, 1, nout, 1, {})
    table.move(e.saved, 1, ninter, nout + 1, call)
    local n = nout + ninter
    for k = 1, nout + nd do
      mask[k] = present[k] and true or false
      bits[k] = mask[k] and "1" or "0"
      if mask[k] then
        n = n + 1
        call[n] = dys[k]
      end
    end
    local key = table.concat(bits)
    local fn = pair.backwards[key]
    if not fn then
      fn = build_backward(pair.cf, pair.rec, mask)
      pair.backwards[key] = fn
    end
    return { fn(table.unpack(call, 1, n)) }
  end
end

-- The gradient pair of a concrete function whose forward trace holds
-- records a replay cannot substitute (a tf.cond's or tf.while_loop's
-- gradient re-traces Lua code that reads the forward trace): the backward
-- function is traced inside the forward trace, right after the forward
-- pass, so what it reads of that pass it captures; the forward variant
-- returns those captured tensors after its outputs. A call runs the
-- forward variant once and the gradient feeds the backward function what
-- that run returned: nothing runs twice, unless the backward function
-- itself holds ops that change state (a cond's gradient re-traces its
-- branches), which `changes` names.
local function traced_pair(cf, args)
  if cf._traced_pair ~= nil then return cf._traced_pair or nil end
  local _, _, captured, captured_tensors = tapes.call_sources(cf, args)
  local pair = { cf = cf }
  local wrapper = cf._fn:_new_func(function(...)
    local params = table.pack(...)
    local tape, sources, flat = run_taped(cf, params, captured, captured_tensors)
    local specs = {}
    for i, t in ipairs(flat) do
      local _, dtype, shape = core.info(t)
      specs[i] = shapes.TensorSpec(shape, dtype)
    end
    local connected = {}
    local backward = cf._fn:_new_func(function(...)
      local grads = tapes.gradient_flat(tape, flat, sources, { ... })
      local out = {}
      for i = 1, #sources do
        if grads[i] ~= nil then
          connected[i] = true
          out[#out + 1] = grads[i]
        end
      end
      return table.unpack(out, 1, #out)
    end, { name = cf.name .. "_backward", autograph = false })
    backward._detector = retracing.new()
    pair.backward = backward:get_concrete_function(table.unpack(specs, 1, #specs))
    pair.connected, pair.nout, pair.nsources = connected, #flat, #sources
    -- The forward values the backward function captured, by capture.
    local out = table.move(flat, 1, #flat, 1, {})
    pair.carried = {}
    for k, c in ipairs(pair.backward._captures) do
      if is_symbolic(c) then
        out[#out + 1] = c
        pair.carried[k] = #out - #flat
      end
    end
    return table.unpack(out, 1, #out)
  end, { name = cf.name, autograph = false })
  wrapper._params = cf._fn._params
  pair.forward = wrapper:_trace_once(cf._types, args, { forbid = true, reason = "gradient" })
  cf._traced_pair = pair
  return pair
end

-- The gradient of a call run through its traced pair.
local function traced_grad_fn(pair, saved, exec, graph_of)
  return function(_, dys)
    local bcf = pair.backward
    local changes = replay.changing_op(bcf._graph)
    if changes then
      raise("UnimplementedError", ("tf.func '%s' holds a tf.cond or tf.while_loop whose gradient runs "
        .. "its body again, and there a %s op that must not run twice: put the GradientTape inside "
        .. "the tf.func to differentiate it"):format(pair.cf.name, changes), 5)
    end
    local feeds = {}
    for i = 1, pair.nout do feeds[i] = dys[i] end
    for k, c in ipairs(bcf._captures) do
      feeds[#feeds + 1] = pair.carried[k] and saved[pair.carried[k]] or c
    end
    local outs = exec(graph_of(bcf), feeds)
    local grads, j = {}, 0
    for i = 1, pair.nsources do
      if pair.connected[i] then
        j = j + 1
        grads[i] = outs[j]
      end
    end
    return grads
  end
end

-- A call while a tape records: one recorded op (see gradient_pair).
-- exec(graph, feeds) runs a graph (eagerly, or as a call node of the
-- graph being traced) and returns its outputs packed; graph_of(cf) is the
-- graph it runs for a concrete function (by default cf:_graph_to_run()).
local function graph_to_run(cf) return cf:_graph_to_run() end
function call_gradient.run_recorded(cf, args, feeds, graph, exec, graph_of)
  graph_of = graph_of or graph_to_run
  local pair = gradient_pair(cf, args)
  local changes = not pair and replay.changing_op(cf._graph)
  if changes then
    -- Side effects must run once: the gradient reads what the forward
    -- variant returned (traced_pair).
    local tp = traced_pair(cf, args)
    local fwd_feeds = {}
    for i, t in ipairs(tp.forward:_feeds_for(args)) do fwd_feeds[i] = t end
    local all = exec(graph_of(tp.forward), fwd_feeds)
    local outs = table.move(all, 1, tp.nout, 1, { n = tp.nout })
    local saved = table.move(all, tp.nout + 1, all.n, 1, {})
    tapes.record_call(cf, args, outs, traced_grad_fn(tp, saved, exec, graph_of))
    return cf:_results(outs)
  end
  if not pair then
    -- No state changes: the gradient traces the function again (which
    -- also gives a gradient of the gradient).
    local outs = exec(graph, feeds)
    local _, _, captured, captured_tensors = tapes.call_sources(cf, args)
    local backward = retracing_backward(cf, captured, captured_tensors)
    local nparams, nouts = #cf._types, outs.n
    tapes.record_call(cf, args, outs, function(_, dys)
      local call = table.move(args, 1, nparams, 1, {})
      table.move(dys, 1, nouts, nparams + 1, call)
      return { backward(table.unpack(call, 1, nparams + nouts)) }
    end)
    return cf:_results(outs)
  end
  local fwd = pair.forward
  local fwd_feeds = {}
  for i, t in ipairs(fwd:_feeds_for(args)) do fwd_feeds[i] = t end
  local all = exec(graph_of(fwd), fwd_feeds)
  local outs = table.move(all, 1, pair.nout, 1, { n = pair.nout })
  local inter = table.move(all, pair.nout + 1, all.n, 1, {})
  local carried = {}
  for k, j in ipairs(pair.dinter) do carried[k] = inter[j] end
  tapes.record_call(cf, args, outs, pair_grad_fn(pair), carried, inter)
  return cf:_results(outs)
end

-- The backward function of a call whose graph holds If or loop records
-- (see gradient_pair): a tf.func that traces the forward pass again under
-- a tape. It runs the forward ops a second time, side effects included.
function retracing_backward(cf, captured, captured_tensors)
  if cf._bwd then return cf._bwd end
  local nparams = #cf._types
  local fn = cf._fn
  cf._bwd = fn:_new_func(function(...)
    local all = table.pack(...)
    local args = table.pack(table.unpack(all, 1, nparams))
    local dys = { table.unpack(all, nparams + 1, all.n) }
    local tape <close> = tapes.GradientTape()
    local sources = {}
    local tensors, vars = tapes.call_leaves(cf._types, args)
    for _, x in ipairs(tensors) do
      if core.dtype(x).is_floating then tape:watch(x) end
      sources[#sources + 1] = x
    end
    for _, v in ipairs(vars) do
      tape:watch(v)
      sources[#sources + 1] = v
    end
    for _, v in ipairs(captured) do sources[#sources + 1] = v end
    -- The captured tensors are inputs of the call too (call_sources'
    -- order): the Lua function reads the very tensors the tape watches.
    for _, c in ipairs(captured_tensors) do
      tape:watch(c)
      sources[#sources + 1] = c
    end
    local results = table.pack(fn:_callable()(table.unpack(args, 1, nparams)))
    tape:stop()
    local flat = {}
    for i = 1, results.n do flatten(results[i], flat) end
    local grads = tapes.gradient_flat(tape, flat, sources, dys)
    return table.unpack(grads, 1, #sources)
  end, { name = cf.name .. "_backward" })
  return cf._bwd
end

call_gradient.internal = { run_recorded = true, internal = true }

return call_gradient
