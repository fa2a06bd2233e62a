-- control.lua — the control family (core/ops/ops_control.c): tf.cond
-- (If / StatelessIf), tf.while_loop (While / StatelessWhile) and
-- tf.TensorArray (a list of tensors whose writes are TensorListSetItem).
-- Eagerly cond and while_loop are plain Lua control flow; while tracing,
-- each branch / the loop condition and body are traced into nested
-- graphs and run by If / While ops. Gradients flow through both: the
-- gradient of a cond is a cond of the branches' gradients; the gradient
-- of a loop runs the loop backwards over the values each iteration
-- started from (kept when a tape records). This family builds on the
-- gradient tape and on nest, so tf.lua publishes it after moonflow.ops.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local doc = require("moonflow.doc")
local options = require("moonflow.options")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local ops = require("moonflow.ops")
local common = require("moonflow.ops.common")
local receiver = require("moonflow.receiver")
local nest = require("moonflow.nest")
local tapes = require("moonflow.grad.tape")
local variables = require("moonflow.tensor.variable")
local while_grad = require("moonflow.grad.while_grad")
local replay = require("moonflow.grad.replay")
local raise = errors.raise

local control_flow = {}

local H = state.H
local op = core.op
local flatten_values, pack_values, same_structure = nest.flatten_values, nest.pack_values, nest.same_structure

local function spec_of(t)
  local _, dtype, shape = core.info(t)
  return dtype, shape
end

local function shape_text(shape) return tostring(shapes.TensorShape(shape)) end

local function graph_stateful(g)
  for _, n in ipairs(core.graph_nodes(g)) do
    if n.stateful then return true end
  end
  return false
end

-- Traces fn(args...) in a nested graph whose inputs are placeholders of
-- `specs`; returns the graph, the flat outputs' structure, and the
-- captured outer values.
local function trace_branch(name, fn, specs, structure_in)
  local structure, flat
  local g, captures = state.in_trace(name, nil, nil, function()
    local phs = {}
    for i, s in ipairs(specs or {}) do phs[i] = core.placeholder(s.name or ("loop_var_" .. i), s.dtype, s.shape) end
    local args = structure_in and table.pack(pack_values(structure_in, phs)) or { n = 0 }
    local results = table.pack(fn(table.unpack(args, 1, args.n)))
    flat, structure = flatten_values(results)
    return flat
  end)
  return g, structure, captures, flat
end

-- The input index of every value a graph's inputs stand for: an input is
-- known by its identity and by those of the values it captures in turn (a
-- branch's or body's closure reads the outermost one).
local function capture_index(inputs)
  local index_of = {}
  for i, c in ipairs(inputs) do
    local s = c
    while s ~= nil do
      index_of[core.identity(s)] = index_of[core.identity(s)] or i
      s = core.is_symbolic(s) and core.capture_source(s) or nil
    end
  end
  return index_of
end

-- Sets rec.ph_index: for each placeholder of a traced record, the input
-- (capture_index) it reads. False when one reads neither an input nor a
-- constant (an eager number the graph embeds as a constant is no input).
local function index_placeholders(rec, index_of)
  rec.ph_index = {}
  for k, src in pairs(rec.placeholders) do
    rec.ph_index[k] = index_of[core.identity(src)]
    local constant = not core.is_symbolic(src) and core.dtype(src) ~= dtypes.resource
    if not rec.ph_index[k] and not constant then return false end
  end
  return true
end

-- Gives every graph the same extra inputs: the union of their captures.
-- Returns the union (outer values) in order.
local function unify_captures(graphs, nexplicit)
  local union, keys = {}, {}
  local per_graph = {}
  for gi, item in ipairs(graphs) do
    local ins = core.graph_io(item.graph)
    per_graph[gi] = {}
    for k, c in ipairs(item.captures) do
      local key = core.identity(c)
      if not keys[key] then
        keys[key] = true
        union[#union + 1] = { key = key, value = c }
      end
      per_graph[gi][key] = ins[nexplicit + k]
    end
  end
  for gi, item in ipairs(graphs) do
    local ins, outs = core.graph_io(item.graph)
    local inputs = {}
    for i = 1, nexplicit do inputs[i] = ins[i] end
    local extra_outputs = {}
    for _, u in ipairs(union) do
      local node = per_graph[gi][u.key]
      if not node then
        local dtype, shape = spec_of(u.value)
        node = core.graph_add_placeholder(item.graph, "capture", dtype, shape)
      end
      inputs[#inputs + 1] = node
      extra_outputs[#extra_outputs + 1] = { node, 0 }
    end
    if item.pass_through then
      for _, o in ipairs(extra_outputs) do outs[#outs + 1] = o end
    end
    core.graph_set_io(item.graph, inputs, outs)
  end
  local values = {}
  for i, u in ipairs(union) do values[i] = u.value end
  return values
end

-- tf.TensorArray ------------------------------------------------------------

-- A list of tensors that works inside traced loops. Its buffer is one
-- tensor (TensorListSetItem writes a row), so nest carries it through
-- control flow like any tensor.
local TensorArray = { __name = "TensorArray" }
local tamethods = {}
receiver.metatable(TensorArray, "tensor_array", tamethods)
TensorArray.__index = tamethods

local function new_array(dtype, buf, dynamic, element_shape)
  return setmetatable({ dtype = dtype, _buf = buf, dynamic_size = dynamic,
    element_shape = element_shape }, TensorArray)
end
-- nest flattens a TensorArray to its buffer and rebuilds it with `new`
-- (a table: the metatable's functions are guarded as methods).
TensorArray.__tf_array = { new = new_array }

control_flow.TensorArray = options.def(function(dtype, size, dynamic_size, opts)
  dtype = dtypes.as_dtype(dtype)
  size = size or 0
  local es = opts.element_shape
  if es and getmetatable(es) == shapes.Shape then es = es:as_list() end
  local buf
  if es and #es > 0 then
    local full = { size }
    for _, d in ipairs(es) do full[#full + 1] = d end
    buf = ops.zeros(full, dtype)
  else
    buf = ops.zeros(core.is_tensor(size) and ops.reshape(size, { 1 }) or { size }, dtype)
  end
  return new_array(dtype, buf, dynamic_size or false, es)
end, "tf.TensorArray(dtype [, {size=, dynamic_size=, element_shape=}])",
"A list of tensors that works inside traced loops: ta = ta:write(i, v) (0-based; returns the "
.. "array), ta:read(i), ta:stack(), ta:unstack(t), ta:size().",
{ required = 1, positional = { "size", "dynamic_size" }, "element_shape" })

tamethods.write = common.op_def("TensorListSetItem", function(ta, i, value)
  value = ops.convert_to_tensor(value, ta.dtype)
  local buf = op(H.TensorListSetItem, { resize = ta.dynamic_size, _dtypes = { nil, dtypes.int32 } }, ta._buf, i, value)
  local es = ta.element_shape
  if not es then
    local _, shape = spec_of(value)
    es = shape
  end
  return new_array(ta.dtype, buf, ta.dynamic_size, es)
end, "ta:write(i, value)", "Here a new TensorArray with element i (0-based) set to value; ta is unchanged.")

tamethods.read = doc.def(function(ta, i)
  return ops.gather(ta._buf, i)
end, "ta:read(i)", "Element i (0-based).")

tamethods.stack = doc.def(function(ta)
  local buf = ta._buf
  local _, shape = spec_of(buf)
  if shape and #shape == 1 and ta.element_shape and #ta.element_shape > 0 then
    local full = { shape[1] }
    for _, d in ipairs(ta.element_shape) do full[#full + 1] = d end
    return ops.zeros(full, ta.dtype)
  end
  return ops.identity(buf)
end, "ta:stack()", "All elements stacked along a new first axis.")

tamethods.unstack = doc.def(function(ta, value)
  value = ops.convert_to_tensor(value, ta.dtype)
  local _, shape = spec_of(value)
  local es = shape and table.move(shape, 2, #shape, 1, {}) or nil
  return new_array(ta.dtype, value, ta.dynamic_size, es)
end, "ta:unstack(value)", "A TensorArray whose elements are the rows of value.")

tamethods.size = doc.def(function(ta)
  return ops.shape(ta._buf)[0]
end, "ta:size()", "The number of elements, an int32 scalar.")

TensorArray.__tostring = function(ta)
  return ("<tf.TensorArray dtype=%s>"):format(ta.dtype.name)
end


-- tf.cond --------------------------------------------------------------------

local function truthy(pred, what)
  if core.is_tensor(pred) then
    local _, _, shape = core.info(pred)
    local n = 1
    for _, d in ipairs(shape) do n = n * d end
    -- One element reads as a scalar (Python's `if` on a size-1 tensor).
    if #shape ~= 0 and n ~= 1 then
      raise("ValueError", what .. " must be a scalar, got shape " .. shape_text(shape), 3)
    end
    return core.element(pred, 0) and core.element(pred, 0) ~= 0
  end
  return pred and true or false
end

local function check_branch_outputs(ta, tb, fa, fb)
  if not (ta.n == tb.n and (function()
    for i = 1, ta.n do if not same_structure(ta[i], tb[i]) then return false end end
    return true
  end)()) then
    raise("ValueError", "true_fn and false_fn arguments to tf.cond must have the same number, type, "
      .. "and overall structure of return values.", 4)
  end
  for i = 1, #fa do
    local da, db = core.dtype(fa[i]), core.dtype(fb[i])
    if da ~= db then
      raise("TypeError", ("tf.cond: output %d is %s in true_fn but %s in false_fn; the branches must "
        .. "return the same dtypes"):format(i, da.name, db.name), 4)
    end
  end
end

-- A branch or loop body that reads a captured trainable variable reads
-- it at this level too: tapes that watch accessed variables watch it.
local function note_captured_reads(caps)
  if not state.tapes_recording() then return end
  local read = {}
  for _, c in ipairs(caps) do
    local v = core.dtype(c) == dtypes.resource and variables.of_handle(c) or nil
    if v and v.trainable then read[#read + 1] = v end
  end
  tapes.note_accessed(read)
end

-- Gradient of a cond traced without its intermediates (see cond_taped):
-- a cond of the branches' gradients with respect to the captured values
-- (the If op's inputs after the predicate), which traces the branches
-- again; refused when they change state.
local function cond_grad_rerun(n, dys)
  local a = n.attrs
  replay.refuse("tf.cond", { a.then_branch, a.else_branch })
  local pred = n.inputs[1]
  local caps = table.move(n.inputs, 2, #n.inputs, 1, {})
  -- The captured values that carry a gradient: floating tensors, and the
  -- handles of trainable floating variables a branch reads (their
  -- gradient is the variable's).
  local sources, at = {}, {}
  for i, c in ipairs(caps) do
    local d = core.dtype(c)
    local v = d == dtypes.resource and variables.of_handle(c) or nil
    if d.is_floating then
      sources[#sources + 1], at[#sources + 1] = c, i
    elseif v and v.trainable and v.dtype.is_floating then
      sources[#sources + 1], at[#sources + 1] = v, i
    end
  end
  local function zeros(src)
    if variables.is_variable(src) then return ops.zeros_like(src:read_value()) end
    return ops.zeros_like(src)
  end
  local nuser = a._nuser or #dys
  local function branch(fn)
    return function()
      local tape <close> = tapes.GradientTape()
      for _, src in ipairs(sources) do tape:watch(src) end
      local results = table.pack(fn())
      local flat = flatten_values(results)
      tape:stop()
      local grads = tapes.gradient_flat(tape, flat, sources, table.move(dys, 1, nuser, 1, {}))
      local out = {}
      for k, src in ipairs(sources) do out[k] = grads[k] or zeros(src) end
      return table.unpack(out, 1, #sources)
    end
  end
  local gs = table.pack(control_flow.cond(pred, branch(a._then), branch(a._else)))
  local result = { nil }
  for k = 1, #sources do result[at[k] + 1] = gs[k] end
  return result
end

-- The gradient of one branch from what its forward run output (cond_v2's
-- _IfGrad): the branch's tape records are replayed in reverse over the
-- forward If's outputs (its results, then its intermediates), so no op
-- of the branch runs again. Returns one gradient per source (nil when
-- unconnected).
local function branch_grad(rec, n, dys, present, offset)
  local map = {}
  local key = tapes.key
  for i, t in ipairs(rec.flat) do
    if core.is_symbolic(t) then map[key(t)] = n.outputs[i] end
  end
  for j, t in ipairs(rec.inter) do map[key(t)] = n.outputs[offset + j] end
  -- A capture placeholder stands for the If's input it captured.
  for k, idx in pairs(rec.ph_index) do map[k] = n.inputs[1 + idx] end
  local entries, sub = tapes.substitute(rec.entries, map)
  local targets, seeds = {}, {}
  for i, t in ipairs(rec.flat) do
    if present[i] and core.dtype(t).is_floating then
      targets[#targets + 1], seeds[#seeds + 1] = sub(t), dys[i]
    end
  end
  for j, t in ipairs(rec.inter) do
    if present[offset + j] and core.dtype(t).is_floating then
      targets[#targets + 1], seeds[#seeds + 1] = sub(t), dys[offset + j]
    end
  end
  return tapes.backprop_entries(entries, targets, seeds)
end

-- Gradient of a cond traced with its intermediates: a cond of the
-- branches' gradients read from the forward If's outputs.
local function cond_grad(n, dys, present)
  local a = n.attrs
  local info = a._grad
  if not info then return cond_grad_rerun(n, dys) end
  present = present or {}
  local pred = n.inputs[1]
  local caps = table.move(n.inputs, 2, #n.inputs, 1, {})
  local key = tapes.key
  -- Sources: the captured floating tensors and trainable floating
  -- variables' handles (their gradient is the variable's).
  local at = {}
  for i, c in ipairs(caps) do
    local d = core.dtype(c)
    local v = d == dtypes.resource and variables.of_handle(c) or nil
    if d.is_floating or (v and v.trainable and v.dtype.is_floating) then at[#at + 1] = i end
  end
  if #at == 0 then return {} end
  local function zeros(i)
    local c = caps[i]
    if core.dtype(c) == dtypes.resource then return ops.zeros_like(variables.of_handle(c):read_value()) end
    return ops.zeros_like(c)
  end
  local function branch(rec, offset)
    return function()
      local grads = branch_grad(rec, n, dys, present, offset)
      local out = {}
      for k, i in ipairs(at) do out[k] = grads[key(caps[i])] or zeros(i) end
      return table.unpack(out, 1, #at)
    end
  end
  local gs = table.pack(control_flow.cond(pred, branch(info.t, info.nuser),
    branch(info.f, info.nuser + #info.t.inter)))
  local result = { nil }
  for k, i in ipairs(at) do result[i + 1] = gs[k] end
  return result
end

-- The records of a tape that tracked every value of a nested graph
-- being traced, kept when reached from a source: a captured value (its
-- identity names another graph, or it is eager, or a capture placeholder;
-- noted in rec.placeholders) or one of `given` (keys). Returns those
-- records, the intermediates they read (the graph's own tensors, less
-- `flat` when skip_flat), and whether a replay can substitute them all.
local function collect(tape_entries, flat, rec, given, skip_flat)
  local ok_rec = true
  local key = tapes.key
  -- An op's output is a tensor of this branch's graph (its identity
  -- names the graph); an input of another graph, or eager, is a
  -- captured value, as is a capture placeholder.
  local inner
  for _, e in ipairs(tape_entries) do
    local y = e.outputs[1]
    if y ~= nil and core.is_symbolic(y) then
      inner = core.identity(y):match("^(.-/)")
      break
    end
  end
  local function captured(x)
    if not core.is_symbolic(x) then return x end
    local src = core.capture_source(x)
    if src ~= nil then return src end
    if inner and core.identity(x):sub(1, #inner) ~= inner then return x end
    return nil
  end
  local reached, entries = {}, {}
  for k in pairs(given) do reached[k] = true end
  for _, e in ipairs(tape_entries) do
    local hit = false
    for _, x in ipairs(e.inputs) do
      local k = key(x)
      if reached[k] == nil then
        local src = captured(x)
        if src ~= nil and (core.dtype(x).is_floating or core.dtype(x) == dtypes.resource) then
          reached[k] = true
          rec.placeholders[k] = src
        end
      end
      if reached[k] then hit = true end
    end
    if hit then
      if e.grad_fn or e.saved then ok_rec = false end
      entries[#entries + 1] = e
      for _, y in ipairs(e.outputs) do reached[key(y)] = true end
    end
  end
  local seen, inter = {}, {}
  for _, t in ipairs(skip_flat and flat or {}) do
    if core.is_symbolic(t) then seen[key(t)] = true end
  end
  for k in pairs(given) do seen[k] = true end
  for _, e in ipairs(entries) do
    for _, list in ipairs({ e.inputs, e.outputs }) do
      for _, t in ipairs(list) do
        local k = key(t)
        if core.is_symbolic(t) and not seen[k] and not rec.placeholders[k] and captured(t) == nil then
          seen[k] = true
          local d = core.dtype(t)
          if d == dtypes.resource or d == dtypes.variant then ok_rec = false end
          inter[#inter + 1] = t
        end
      end
    end
  end
  return entries, inter, ok_rec
end

-- Traces one branch of a cond a tape records (cond_v2): a tape inside the
-- branch records every op that reads a captured value, and the branch
-- also returns the intermediates those records read (then zeros standing
-- for the other branch's, `pad` (specs), so both return one structure).
-- Returns the graph, structure, captures, flat results and the record,
-- or nil when the records hold something a replay cannot substitute.
local function trace_taped(name, fn, before, after)
  local rec = { placeholders = {} }
  local structure, ok_rec = nil, true
  local g, captures = state.in_trace(name, nil, nil, function()
    local tape = tapes.GradientTape({ persistent = true })
    -- Every value is tracked: the branch's sources are its captures, made
    -- as the branch reads them; records not reached from one are dropped.
    setmetatable(tape._tracked, { __index = function() return true end })
    local ok, results = pcall(function() return table.pack(fn()) end)
    tape:stop()
    if not ok then error(results, 0) end
    local flat
    flat, structure = flatten_values(results)
    local entries, inter, ok_collect = collect(tape._entries, flat, rec, {}, true)
    if not ok_collect then ok_rec = false end
    rec.entries, rec.flat, rec.inter = entries, flat, inter
    local out = table.move(flat, 1, #flat, 1, {})
    local function pad(specs)
      for _, s in ipairs(specs or {}) do
        local dims = {}
        for i, d in ipairs(s.shape or {}) do dims[i] = d >= 0 and d or 0 end
        out[#out + 1] = ops.zeros(dims, s.dtype)
      end
    end
    pad(before)
    table.move(inter, 1, #inter, #out + 1, out)
    pad(after)
    return out
  end)
  -- A result that is a captured value itself (`return x`) passes its
  -- gradient straight to that input.
  local cap_ids = {}
  for _, c in ipairs(captures) do cap_ids[core.identity(c)] = true end
  for _, t in ipairs(rec.flat) do
    if core.dtype(t).is_floating and cap_ids[core.identity(t)] then rec.placeholders[tapes.key(t)] = t end
  end
  rec.specs = {}
  for j, t in ipairs(rec.inter) do
    local dtype, shape = spec_of(t)
    rec.specs[j] = { dtype = dtype, shape = shape }
  end
  return g, structure, captures, rec, ok_rec
end

-- A traced cond a tape records: both branches return their intermediates
-- (the true branch is traced again once the false branch's are known).
-- Nil when a record cannot be replayed (nested loops or calls).
local function cond_taped(true_fn, false_fn)
  local _, _, _, rt, okt = trace_taped("cond_true", true_fn)
  if not okt then return nil end
  local gf, sf, cf, rf, okf = trace_taped("cond_false", false_fn, rt.specs, nil)
  if not okf then return nil end
  local gt, st, ct, rt2, okt2 = trace_taped("cond_true", true_fn, nil, rf.specs)
  if not okt2 or #rt2.inter ~= #rt.inter then return nil end
  for j, s in ipairs(rt2.specs) do
    if s.dtype ~= rt.specs[j].dtype then return nil end
  end
  return { gt = gt, st = st, ct = ct, gf = gf, sf = sf, cf = cf, t = rt2, f = rf }
end

control_flow.cond = options.def(function(pred, true_fn, false_fn, opts)
  if type(true_fn) ~= "function" or type(false_fn) ~= "function" then
    raise("TypeError", "tf.cond(pred, true_fn, false_fn): both branches must be functions", 2)
  end
  if not core.tracing() or not core.is_symbolic(pred) then
    if core.tracing() and core.is_tensor(pred) then
      -- An eager predicate while tracing is a constant: take its branch.
      if truthy(pred, "tf.cond's predicate") then return true_fn() end
      return false_fn()
    end
    if truthy(pred, "tf.cond's predicate") then return true_fn() end
    return false_fn()
  end
  local dtype, shape = spec_of(pred)
  if shape and #shape > 0 then
    -- As cond_v2: a predicate of one element is squeezed to a scalar.
    local one = true
    for _, d in ipairs(shape) do if d ~= 1 then one = false end end
    if not one then
      raise("ValueError", "tf.cond's predicate must be a scalar, got shape " .. shape_text(shape), 2)
    end
    pred = ops.reshape(pred, {})
  end
  if dtype ~= dtypes.bool then pred = ops.cast(pred, dtypes.bool) end
  local taped = state.tapes_recording() and cond_taped(true_fn, false_fn)
  local gt, st, ct, ft, gf, sf, cf, ff
  if taped then
    gt, st, ct, ft = taped.gt, taped.st, taped.ct, taped.t.flat
    gf, sf, cf, ff = taped.gf, taped.sf, taped.cf, taped.f.flat
  else
    gt, st, ct, ft = trace_branch("cond_true", true_fn)
    gf, sf, cf, ff = trace_branch("cond_false", false_fn)
  end
  check_branch_outputs(st, sf, ft, ff)
  local inputs = unify_captures({ { graph = gt, captures = ct }, { graph = gf, captures = cf } }, 0)
  local stateful = graph_stateful(gt) or graph_stateful(gf)
  if taped then
    local index_of = capture_index(inputs)
    for _, rec in ipairs({ taped.t, taped.f }) do
      if not index_placeholders(rec, index_of) then
        taped = nil
        break
      end
    end
  end
  note_captured_reads(inputs)
  local outs = table.pack(op(stateful and H.If or H.StatelessIf, {
    then_branch = gt, else_branch = gf, name = opts.name or "cond",
    _then = true_fn, _else = false_fn, _gradient = cond_grad,
    _grad = taped and { t = taped.t, f = taped.f, nuser = #ft } or nil, _nuser = #ft,
  }, pred, table.unpack(inputs)))
  return pack_values(st, table.move(outs, 1, #ft, 1, { n = #ft }))
end, "tf.cond(pred, true_fn, false_fn)",
"true_fn() if pred else false_fn(). Eagerly (or with a Lua boolean) it is an `if`; on a traced tensor "
.. "both branches are traced into an If op and the graph picks one at run time. The branches must "
.. "return the same structure and dtypes.", { required = 3, "name" })


-- tf.while_loop ------------------------------------------------------------

local function loop_specs(flat, structure_in, invariants)
  local specs = {}
  local kinds = {}
  local function walk(s)
    if s.kind == "tensor" or s.kind == "ta" then kinds[s.index] = s
    elseif s.kind == "table" then
      for _, x in ipairs(s.array) do walk(x) end
      for _, k in ipairs(s.keys) do walk(s.map[k]) end
    end
  end
  for i = 1, structure_in.n do walk(structure_in[i]) end
  for i, t in ipairs(flat) do
    local dtype, shape = spec_of(t)
    if kinds[i] and kinds[i].kind == "ta" then
      -- A TensorArray grows and fixes its element shape on first write.
      local es = kinds[i].element_shape
      shape = es and { -1, table.unpack(es) } or nil
    end
    -- An invariant of false: any shape, the rank too (AutoGraph's dataset loop).
    if invariants and invariants[i] ~= nil then shape = invariants[i] or nil end
    specs[i] = { dtype = dtype, shape = shape }
  end
  return specs
end

local function shapes_fit(shape, invariant)
  if invariant == nil then return true end
  if shape == nil or #shape ~= #invariant then return false end
  for i = 1, #shape do
    if invariant[i] >= 0 and shape[i] ~= invariant[i] then return false end
  end
  return true
end

local function check_body_outputs(s_in, s_out, flat_in, flat_out, specs, names)
  local same = s_in.n == s_out.n
  for i = 1, math.min(s_in.n, s_out.n) do
    if not same_structure(s_in[i], s_out[i]) then same = false end
  end
  if not same then
    raise("ValueError", "the loop body must return the same structure as the loop variables", 4)
  end
  for i = 1, #flat_in do
    local din, dout = core.dtype(flat_in[i]), core.dtype(flat_out[i])
    local name = names and names[i] or ("loop variable " .. i)
    if din ~= dout then
      -- TF's words (while_v2.py), naming the variable as TF does (its
      -- tensor's name), and as AutoGraph's source has it where known.
      local ok, tensor_name = pcall(function() return flat_in[i].name end)
      local var = names and names[i] or (ok and tensor_name) or name
      raise("TypeError", ("Loop var %s enters the loop with type <dtype: '%s'> but has type <dtype: '%s'> "
        .. "after 1 iteration. %s type should remain constant."):format(var, din.name, dout.name, var), 4)
    end
    local _, shape = spec_of(flat_out[i])
    if not shapes_fit(shape, specs[i].shape) then
      raise("ValueError", ("%s has shape %s before the loop, but shape %s after one iteration. "
        .. "Use the shape_invariants option of tf.while_loop (or a TensorArray) to allow a "
        .. "changing shape."):format(name, shape_text(specs[i].shape), shape_text(shape)), 4)
    end
  end
end

local function eager_loop(cond, body, vars, max_iter)
  local n = 0
  while (max_iter == nil or n < max_iter) and truthy(cond(table.unpack(vars, 1, vars.n)), "the loop condition") do
    core.check_interrupt()
    vars = table.pack(body(table.unpack(vars, 1, vars.n)))
    n = n + 1
  end
  return vars
end

local function identity_structure(n)
  local s = { n = n }
  for i = 1, n do s[i] = { kind = "tensor", index = i } end
  return s
end

control_flow.graph_while = function(cond, body, vars, opts)
  local flat_in, s_in = flatten_values(vars)
  local nuser = #flat_in
  local names = opts._names
  local specs = loop_specs(flat_in, s_in, opts._invariants)
  local counted = opts.maximum_iterations ~= nil
  local record = state.tapes_recording and state.tapes_recording()
  -- The loop state: the user's variables, then an iteration counter
  -- (maximum_iterations, gradients), then for gradients the value each
  -- plain tensor variable had when each iteration started.
  local state = table.move(flat_in, 1, nuser, 1, {})
  local state_specs = table.move(specs, 1, nuser, 1, {})
  local counter
  if counted or record then
    counter = #state + 1
    state[counter] = ops.constant(0)
    state_specs[counter] = { dtype = dtypes.int32, shape = {} }
  end
  local hist = {}
  if record then
    local kinds = {}
    for i = 1, s_in.n do
      if s_in[i].kind == "tensor" then kinds[s_in[i].index] = true end
    end
    for i = 1, nuser do
      -- Values keep their runtime shape through the loop (the invariant
      -- may leave dimensions unknown); the history stacks them.
      local shape = specs[i].shape
      -- A variant (a dataset iterator or optional) or resource has no
      -- value to stack and no gradient: no history.
      local dt = core.dtype(flat_in[i])
      if kinds[i] and dt ~= dtypes.variant and dt ~= dtypes.resource then
        hist[#hist + 1] = { var = i, slot = #state + 1 }
        state[#state + 1] = ops.zeros({ 0 }, core.dtype(flat_in[i]))
        state_specs[#state] = { dtype = core.dtype(flat_in[i]), shape = shape and { -1, table.unpack(shape) } or nil }
      end
    end
  end
  -- The body's trace. With `accs` (a tape records), a tape inside it
  -- records the ops reached from the loop variables and captures, and
  -- each intermediate they read is stacked per iteration in an
  -- accumulator (while_v2): the gradient replays those records, never
  -- the body. A probe (accs empty) only finds the intermediates.
  local function body_trace(accs, probe)
    local rec = { placeholders = {}, ok = true }
    local g, _, c = trace_branch("while_body", function(...)
      local ph = { ... }
      local tape
      if accs then
        tape = tapes.GradientTape({ persistent = true })
        setmetatable(tape._tracked, { __index = function() return true end })
      end
      local okb, results = pcall(function() return table.pack(body(pack_values(s_in, ph))) end)
      if tape then tape:stop() end
      if not okb then error(results, 0) end
      local flat_out, s_out = flatten_values(results)
      check_body_outputs(s_in, s_out, table.move(ph, 1, nuser, 1, {}), flat_out, specs, names)
      local out = table.move(flat_out, 1, nuser, 1, {})
      if counter then out[counter] = ph[counter] + 1 end
      for _, h in ipairs(hist) do
        out[h.slot] = op(H.TensorListSetItem, { resize = true }, ph[h.slot], ph[counter], ph[h.var])
      end
      if tape then
        local given = {}
        rec.loopvars = {}
        for _, h in ipairs(hist) do
          local kv = tapes.key(ph[h.var])
          given[kv], rec.loopvars[kv] = true, h.var
        end
        local entries, inter, okc = collect(tape._entries, flat_out, rec, given, false)
        rec.entries, rec.inter, rec.ok = entries, inter, okc
        rec.flat = table.move(flat_out, 1, nuser, 1, {})
        rec.specs = {}
        for j, t in ipairs(inter) do
          local dtype, shape = spec_of(t)
          rec.specs[j] = { dtype = dtype, shape = shape }
          local a = accs[j]
          if a and a.dtype == dtype then
            out[a.slot] = op(H.TensorListSetItem, { resize = true }, ph[a.slot], ph[counter], t)
          elseif not probe then
            rec.ok = false
          end
        end
        if not probe and #inter ~= #accs then rec.ok = false end
        for _, a in ipairs(accs) do
          if out[a.slot] == nil then out[a.slot] = ph[a.slot] end
        end
      end
      return table.unpack(out, 1, #state)
    end, state_specs, identity_structure(#state))
    return g, c, rec
  end
  local accs
  if record then
    local _, _, probe = body_trace({}, true)
    if probe.ok then
      accs = {}
      for j, sp in ipairs(probe.specs) do
        local slot = #state + 1
        accs[j] = { slot = slot, dtype = sp.dtype }
        state[slot] = ops.zeros({ 0 }, sp.dtype)
        state_specs[slot] = { dtype = sp.dtype, shape = sp.shape and { -1, table.unpack(sp.shape) } or nil }
      end
    end
  end
  local structure = identity_structure(#state)
  local max_iter = opts.maximum_iterations
  local gc, _, cc = trace_branch("while_cond", function(...)
    local ph = { ... }
    local p = cond(pack_values(s_in, ph))
    if not core.is_tensor(p) then p = ops.constant(p and true or false) end
    if core.dtype(p) ~= dtypes.bool then p = ops.cast(p, dtypes.bool) end
    if counted then p = ops.logical_and(p, ops.less(ph[counter], max_iter)) end
    return p
  end, state_specs, structure)
  local gb, cb, brec = body_trace(accs)
  local caps = unify_captures({ { graph = gc, captures = cc },
    { graph = gb, captures = cb, pass_through = true } }, #state)
  local stateful = graph_stateful(gc) or graph_stateful(gb)
  if accs and brec.ok then brec.ok = index_placeholders(brec, capture_index(caps)) end
  if not (accs and brec.ok) then brec = nil end
  local loop_info = {}
  local args = table.move(state, 1, #state, 1, {})
  for _, c in ipairs(caps) do args[#args + 1] = c end
  local outs = table.pack(op(stateful and H.While or H.StatelessWhile,
    { cond = gc, body = gb, parallel_iterations = 10, name = opts.name or "while", _loop = loop_info },
    table.unpack(args, 1, #args)))
  local results = table.move(outs, 1, nuser, 1, {})
  if record and #hist > 0 then
    for _, h in ipairs(hist) do h.buffer = outs[h.slot] end
    if brec then
      brec.buffers = {}
      for j, a in ipairs(accs) do brec.buffers[j] = outs[a.slot] end
    end
    local inputs = table.move(flat_in, 1, nuser, 1, {})
    for _, c in ipairs(caps) do inputs[#inputs + 1] = c end
    note_captured_reads(caps)
    local outputs = table.move(results, 1, nuser, 1, {})
    for _, h in ipairs(hist) do outputs[#outputs + 1] = h.buffer end
    -- The accumulators too: a gradient of the gradient reaches them.
    for _, b in ipairs(brec and brec.buffers or {}) do outputs[#outputs + 1] = b end
    loop_info.differentiated = true
    tapes.record_custom(inputs, outputs,
      while_grad.loop_grad(body, s_in, flat_in, hist, outs[counter], caps, results, gb, brec,
        control_flow.while_loop))
  end
  return pack_values(s_in, results)
end

-- shape_invariants: one shape per loop variable (each a tensor), as the
-- flat per-tensor list graph_while takes.
local function invariants_of(given, vars)
  if given == nil then return nil end
  local out = {}
  for i = 1, vars.n do
    local s = given[i]
    if not core.is_tensor(vars[i]) then
      raise("TypeError", "tf.while_loop: shape_invariants are supported when every loop variable is a tensor", 3)
    end
    if s ~= nil then
      local dims = shapes.as_shape(s):as_list()
      for j = 1, #dims do if dims[j] == shapes.None or dims[j] == nil then dims[j] = -1 end end
      out[i] = dims
    end
  end
  return out
end

control_flow.while_loop = options.def(function(cond, body, loop_vars, opts)
  if type(cond) ~= "function" or type(body) ~= "function" then
    raise("TypeError", "tf.while_loop(cond, body, loop_vars): cond and body must be functions", 2)
  end
  if type(loop_vars) ~= "table" or getmetatable(loop_vars) ~= nil then
    raise("TypeError", "tf.while_loop's loop_vars must be a Lua list of loop variables", 2)
  end
  local vars = table.pack(table.unpack(loop_vars, 1, loop_vars.n or #loop_vars))
  if not core.tracing() then
    local out = eager_loop(cond, body, vars, opts.maximum_iterations)
    return table.unpack(out, 1, out.n)
  end
  return control_flow.graph_while(cond, body, vars, { maximum_iterations = opts.maximum_iterations,
    name = opts.name, _invariants = invariants_of(opts.shape_invariants, vars) })
end, "tf.while_loop(cond, body, loop_vars [, {maximum_iterations=, shape_invariants=}])",
"Repeats loop_vars = body(loop_vars...) while cond(loop_vars...) holds; returns the final loop "
.. "variables (as multiple results). Eagerly a Lua loop; while tracing one While op whose body "
.. "appears once in the graph. Loop variables keep their dtype and shape unless shape_invariants "
.. "(or a TensorArray) allows a change (one shape per loop variable, tf.None or -1 for an unknown "
.. "dimension; loop variables that are tensors).", { required = 3, "maximum_iterations", "shape_invariants", "name" })

control_flow.namespaces = {
  tf = { "cond", "while_loop", "TensorArray" },
  lib = { "graph_while" },
}

return control_flow
