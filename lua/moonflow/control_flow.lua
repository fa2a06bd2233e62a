-- control_flow.lua — tf.cond, tf.while_loop and tf.TensorArray. Eagerly
-- they are plain Lua control flow; while tracing, each branch / the loop
-- condition and body are traced into nested graphs and run by If / While
-- ops. Gradients flow through both: the gradient of a cond is a cond of
-- the branches' gradients; the gradient of a loop runs the loop backwards
-- over the values each iteration started from (kept when a tape records).

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local doc = require("moonflow.doc")
local options = require("moonflow.options")
local dtypes = require("moonflow.dtypes")
local shapes = require("moonflow.shape")
local ops = require("moonflow.ops")
local nest = require("moonflow.nest")
local tapes = require("moonflow.tape")
local variables = require("moonflow.variable")
local raise = errors.raise

local control_flow = {}

local H = state.H
local op = core.op


local nest = nest
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

-- Gradient of a cond: a cond of the branches' gradients with respect to
-- the captured values (the If op's inputs after the predicate).
local function cond_grad(n, dys)
  local a = n.attrs
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
  local function branch(fn)
    return function()
      local tape = tapes.GradientTape()
      for _, src in ipairs(sources) do tape:watch(src) end
      local results = table.pack(fn())
      local flat = flatten_values(results)
      tape:stop()
      local grads = tape:gradient(flat, sources, dys)
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
  local gt, st, ct, ft = trace_branch("cond_true", true_fn)
  local gf, sf, cf, ff = trace_branch("cond_false", false_fn)
  check_branch_outputs(st, sf, ft, ff)
  local inputs = unify_captures({ { graph = gt, captures = ct }, { graph = gf, captures = cf } }, 0)
  local stateful = graph_stateful(gt) or graph_stateful(gf)
  note_captured_reads(inputs)
  local outs = table.pack(op(stateful and H.If or H.StatelessIf, {
    then_branch = gt, else_branch = gf, name = opts.name or "cond",
    _then = true_fn, _else = false_fn, _gradient = cond_grad,
  }, pred, table.unpack(inputs)))
  return pack_values(st, outs)
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
    if invariants and invariants[i] ~= nil then shape = invariants[i] end
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

-- The gradient of a traced loop: run it backwards over the values each
-- iteration started from (history buffers), re-running the body under a
-- tape at each step. Gradients reach the loop variables that are plain
-- tensors and the captured values; TensorArray contents do not carry
-- gradients.
local function loop_grad(body, s_in, flat_in, hist, n_iter, caps, final)
  return function(_, dys, present)
    -- Gradients of the history buffers (a gradient of this gradient
    -- reads them): buffer[k] is the variable at the start of iteration k,
    -- so its gradient adds to that variable's at step k.
    local dbuf = {}
    for j, h in ipairs(hist) do
      local k = #final + j
      if present and present[k] then dbuf[h] = dys[k] end
    end
    local float_vars, float_caps = {}, {}
    for _, h in ipairs(hist) do
      if core.dtype(flat_in[h.var]).is_floating then float_vars[#float_vars + 1] = h end
    end
    -- Captured values that carry a gradient: floating tensors, and the
    -- handles of trainable floating variables the body reads.
    local cap_vars = {}
    for i, c in ipairs(caps) do
      local d = core.dtype(c)
      if d.is_floating then
        float_caps[#float_caps + 1] = i
      elseif d == dtypes.resource then
        local v = variables.of_handle(c)
        if v and v.trainable and v.dtype.is_floating then
          float_caps[#float_caps + 1] = i
          cap_vars[i] = v
        end
      end
    end
    local init = { n_iter - 1 }
    for _, h in ipairs(float_vars) do init[#init + 1] = dys[h.var] end
    for _, ci in ipairs(float_caps) do
      init[#init + 1] = cap_vars[ci] and ops.zeros_like(cap_vars[ci]:read_value()) or ops.zeros_like(caps[ci])
    end
    local nv = #float_vars
    local outs = table.pack(control_flow.while_loop(function(k) return ops.greater_equal(k, 0) end, function(k, ...)
      local g = { ... }
      local vals = table.move(final, 1, #final, 1, {})
      for _, h in ipairs(hist) do vals[h.var] = ops.gather(h.buffer, k) end
      local tape = tapes.GradientTape()
      local sources = {}
      for _, h in ipairs(float_vars) do
        tape:watch(vals[h.var])
        sources[#sources + 1] = vals[h.var]
      end
      for _, ci in ipairs(float_caps) do
        local source = cap_vars[ci] or caps[ci]
        tape:watch(source)
        sources[#sources + 1] = source
      end
      local results = table.pack(body(pack_values(s_in, vals)))
      tape:stop()
      local flat_out = flatten_values(results)
      local targets, seeds = {}, {}
      for i, h in ipairs(float_vars) do
        targets[i] = flat_out[h.var]
        seeds[i] = g[i]
      end
      local grads = tape:gradient(targets, sources, seeds)
      local next_ = { k - 1 }
      for i, h in ipairs(float_vars) do
        local gi = grads[i] or ops.zeros_like(g[i])
        if dbuf[h] then gi = gi + ops.gather(dbuf[h], k) end
        next_[#next_ + 1] = gi
      end
      for j = 1, #float_caps do
        local gc = grads[nv + j]
        next_[#next_ + 1] = gc and (g[nv + j] + gc) or g[nv + j]
      end
      return table.unpack(next_)
    end, init))
    local result = {}
    for i, h in ipairs(float_vars) do result[h.var] = outs[1 + i] end
    for j, ci in ipairs(float_caps) do result[#flat_in + ci] = outs[1 + nv + j] end
    return result
  end
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
      if kinds[i] then
        hist[#hist + 1] = { var = i, slot = #state + 1 }
        state[#state + 1] = ops.zeros({ 0 }, core.dtype(flat_in[i]))
        state_specs[#state] = { dtype = core.dtype(flat_in[i]), shape = shape and { -1, table.unpack(shape) } or nil }
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
  local gb, _, cb = trace_branch("while_body", function(...)
    local ph = { ... }
    local results = table.pack(body(pack_values(s_in, ph)))
    local flat_out, s_out = flatten_values(results)
    check_body_outputs(s_in, s_out, table.move(ph, 1, nuser, 1, {}), flat_out, specs, names)
    local out = table.move(flat_out, 1, nuser, 1, {})
    if counter then out[counter] = ph[counter] + 1 end
    for _, h in ipairs(hist) do
      out[h.slot] = op(H.TensorListSetItem, { resize = true }, ph[h.slot], ph[counter], ph[h.var])
    end
    return table.unpack(out, 1, #state)
  end, state_specs, structure)
  local caps = unify_captures({ { graph = gc, captures = cc },
    { graph = gb, captures = cb, pass_through = true } }, #state)
  local stateful = graph_stateful(gc) or graph_stateful(gb)
  local loop_info = {}
  local args = table.move(state, 1, #state, 1, {})
  for _, c in ipairs(caps) do args[#args + 1] = c end
  local outs = table.pack(op(stateful and H.While or H.StatelessWhile,
    { cond = gc, body = gb, parallel_iterations = 10, name = opts.name or "while", _loop = loop_info },
    table.unpack(args, 1, #args)))
  local results = table.move(outs, 1, nuser, 1, {})
  if record and #hist > 0 then
    for _, h in ipairs(hist) do h.buffer = outs[h.slot] end
    local inputs = table.move(flat_in, 1, nuser, 1, {})
    for _, c in ipairs(caps) do inputs[#inputs + 1] = c end
    note_captured_reads(caps)
    local outputs = table.move(results, 1, nuser, 1, {})
    for _, h in ipairs(hist) do outputs[#outputs + 1] = h.buffer end
    loop_info.differentiated = true
    tapes.record_custom(inputs, outputs,
      loop_grad(body, s_in, flat_in, hist, outs[counter], caps, results))
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

-- Library-internal (the other modules' view, not part of tf).
control_flow.internal = { graph_while = true, internal = true }

return control_flow
