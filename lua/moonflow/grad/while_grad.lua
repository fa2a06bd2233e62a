-- while_grad.lua — the gradient of a traced tf.while_loop (while_v2's
-- way): the loop runs backwards over the values each iteration started
-- from, replaying the body's recorded steps over the intermediates the
-- forward loop accumulated, so nothing in the body runs twice.
-- control_flow.lua builds the forward loop and calls loop_grad, with
-- tf.while_loop (the backward pass is a loop too) as an argument.

local core = require("moonflow.core")
local dtypes = require("moonflow.tensor.dtypes")
local ops = require("moonflow.ops")
local nest = require("moonflow.nest")
local tapes = require("moonflow.grad.tape")
local replay = require("moonflow.grad.replay")
local variables = require("moonflow.tensor.variable")

local while_grad = {}

local flatten_values, pack_values = nest.flatten_values, nest.pack_values
-- One step of a loop's gradient from the records of its body's trace:
-- the loop variables' values at iteration k (vals), the intermediates
-- the accumulators kept for it, the captures; returns the gradients of
-- the floating loop variables then of the captures, as tape:gradient.
local function replay_step(rec, vals, caps, k, float_vars, float_caps, cap_vars, g, dacc)
  local key = tapes.key
  local map = {}
  for kv, i in pairs(rec.loopvars) do map[kv] = vals[i] end
  for j, t in ipairs(rec.inter) do map[key(t)] = ops.gather(rec.buffers[j], k) end
  for kv, idx in pairs(rec.ph_index) do map[kv] = caps[idx] end
  local entries, sub = tapes.substitute(rec.entries, map)
  local targets, seeds = {}, {}
  for i, h in ipairs(float_vars) do
    targets[i] = sub(rec.flat[h.var])
    seeds[i] = g[i]
  end
  -- Gradients that reached the accumulators (a gradient of a gradient)
  -- flow in at the intermediate they hold for this step.
  for j, t in pairs(dacc) do
    if core.dtype(rec.inter[j]).is_floating then
      targets[#targets + 1], seeds[#seeds + 1] = sub(rec.inter[j]), ops.gather(t, k)
    end
  end
  local gr = tapes.backprop_entries(entries, targets, seeds)
  local grads = {}
  for i, h in ipairs(float_vars) do grads[i] = gr[key(vals[h.var])] end
  local nv = #float_vars
  for j, ci in ipairs(float_caps) do
    grads[nv + j] = gr[key(cap_vars[ci] and cap_vars[ci].handle or caps[ci])]
    if cap_vars[ci] and grads[nv + j] == nil then grads[nv + j] = gr[key(caps[ci])] end
  end
  return grads
end

-- The gradient of a traced loop: run it backwards over the values each
-- iteration started from (history buffers), re-running the body under a
-- tape at each step. Gradients reach the loop variables that are plain
-- tensors and the captured values; TensorArray contents do not carry
-- gradients.
local function loop_grad(body, s_in, flat_in, hist, n_iter, caps, final, body_graph, rec, while_loop)
  return function(_, dys, present)
    if not rec then replay.refuse("tf.while_loop", { body_graph }) end
    -- Gradients of the history buffers (a gradient of this gradient
    -- reads them): buffer[k] is the variable at the start of iteration k,
    -- so its gradient adds to that variable's at step k.
    local dbuf = {}
    for j, h in ipairs(hist) do
      local k = #final + j
      if present and present[k] then dbuf[h] = dys[k] end
    end
    local dacc = {}
    for j = 1, rec and #rec.inter or 0 do
      local k = #final + #hist + j
      if present and present[k] then dacc[j] = dys[k] end
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
    local outs = table.pack(while_loop(function(k) return ops.greater_equal(k, 0) end, function(k, ...)
      local g = { ... }
      local vals = table.move(final, 1, #final, 1, {})
      for _, h in ipairs(hist) do vals[h.var] = ops.gather(h.buffer, k) end
      local tape <close> = tapes.GradientTape()
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
      local grads
      if rec then
        tape:stop()
        grads = replay_step(rec, vals, caps, k, float_vars, float_caps, cap_vars, g, dacc)
      else
        local results = table.pack(body(pack_values(s_in, vals)))
        tape:stop()
        local flat_out = flatten_values(results)
        local targets, seeds = {}, {}
        for i, h in ipairs(float_vars) do
          targets[i] = flat_out[h.var]
          seeds[i] = g[i]
        end
        grads = tapes.gradient_flat(tape, targets, sources, seeds)
      end
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

while_grad.loop_grad = loop_grad

return while_grad
