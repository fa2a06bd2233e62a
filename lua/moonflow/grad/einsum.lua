-- einsum.lua — the gradient of Einsum (core/ops/ops_einsum.c): TF's
-- linalg_grad.py _EinsumGrad step for step, each operand's gradient one
-- more einsum, with the labels it sums away broadcast back and the
-- batch axes "..." broadcast summed down. Rule conventions: rules.lua.

local core = require("moonflow.core")
local state = require("moonflow.state")
local ops = require("moonflow.ops")
local shapes = require("moonflow.tensor.shape")
local dtypes = require("moonflow.tensor.dtypes")

local H = state.H
local op = core.op

-- Einsum: linalg_grad.py's _EinsumGrad, step for step. Labels a gradient
-- sums away are taken in the order they appear (TF iterates a set).
local ELL = "..."
local function einsum(eq, ...) return op(H.Einsum, { equation = eq }, ...) end
local function has_ell(subs) return subs:find(ELL, 1, true) ~= nil end

-- Letters of subs not in any of the `others` strings, first appearance order.
local function only_in(subs, others)
  local list, seen = {}, {}
  for ch in subs:gmatch("%a") do
    if not seen[ch] and not others:find(ch, 1, true) then list[#list + 1] = ch end
    seen[ch] = true
  end
  return list
end

local function without(subs, list)
  local drop = {}
  for _, ch in ipairs(list) do drop[ch] = true end
  return (subs:gsub("%a", function(ch) if drop[ch] then return "" end end))
end

local function distinct(subs)
  local set, k = {}, 0
  for ch in subs:gmatch(".") do
    if not set[ch] then set[ch], k = true, k + 1 end
  end
  return k
end

-- _GetAxisFromLabel: the axis of label in subs, negative after "...".
local function axis_of(subs, label)
  local e = subs:find(ELL, 1, true)
  local head, tail = e and subs:sub(1, e - 1) or subs, e and subs:sub(e + 3) or nil
  local i = head:find(label, 1, true)
  if i then return i - 1 end
  i = tail and tail:find(label, 1, true)
  if i then return i - 1 - #tail end
  return nil
end

-- The size of axis ax (maybe negative) of x: a number when known.
local function dim_of(x, ax)
  local sx = shapes.static(x)
  if sx then return sx[ax >= 0 and ax + 1 or #sx + ax + 1] end
  local shape = ops.shape(x)
  return ops.gather(shape, ax >= 0 and ax or ops.add(ops.size(shape), ax))
end

local function shape_arg(parts)
  for _, p in ipairs(parts) do
    if core.is_tensor(p) then
      local ts = {}
      for i, q in ipairs(parts) do ts[i] = core.is_tensor(q) and ops.cast(q, dtypes.int32) or ops.constant(q, dtypes.int32) end
      return ops.stack(ts)
    end
  end
  return parts
end

-- _GetGradReduced: the gradient of "input_subs -> output_subs" where the
-- labels in `reduced` are summed away.
local function grad_reduced(g, output_subs, input_subs, x, reduced)
  local reduced_subs = table.concat(reduced)
  local axes, dims = {}, {}
  for i, ch in ipairs(reduced) do
    axes[i] = axis_of(input_subs, ch)
    dims[i] = dim_of(x, axes[i])
  end
  local repeated = distinct(input_subs) + distinct(output_subs) < #input_subs + #output_subs
  local sx = shapes.static(x)
  if not repeated and without(input_subs, reduced) == output_subs and sx then
    -- A plain reduction: the gradient broadcast back along the reduced axes.
    local kept = table.move(sx, 1, #sx, 1, {})
    for _, ax in ipairs(axes) do kept[ax >= 0 and ax + 1 or #sx + ax + 1] = 1 end
    return ops.broadcast_to(ops.reshape(g, kept), sx)
  end
  -- Traces or transposes: prepend the reduced dims to the gradient, then
  -- one einsum back to the input's subscripts.
  local sg = shapes.static(g)
  local with_reduced, ones = {}, {}
  for i = 1, #dims do with_reduced[i], ones[i] = dims[i], 1 end
  local target, shaped
  if sg then
    for _, d in ipairs(sg) do with_reduced[#with_reduced + 1], ones[#ones + 1] = d, d end
    target, shaped = shape_arg(with_reduced), ones
  else
    local gs = ops.shape(g)
    target = ops.concat({ shape_arg(dims), gs }, 0)
    shaped = ops.concat({ ops.constant(ones, dtypes.int32), gs }, 0)
  end
  local b = ops.broadcast_to(ops.reshape(g, shaped), target)
  return einsum(reduced_subs .. output_subs .. "->" .. input_subs, b)
end

-- _GetGradWrt: the VJP of a two-operand einsum for one operand.
local function grad_wrt(g, other, x, input_subs, other_subs, output_subs)
  local reduced = only_in(input_subs, output_subs .. other_subs)
  local left_subs = without(input_subs, reduced)
  local gr = einsum(output_subs .. "," .. other_subs .. "->" .. left_subs, g, other)
  if #reduced == 0 then return gr end
  return grad_reduced(gr, left_subs, input_subs, x, reduced)
end

-- _GetBcastSubshape: the axes "..." covers, as (start, count from the end).
local function bcast_range(subs)
  local e = subs:find(ELL, 1, true)
  if not e then return 0, 0 end
  return e - 1, #subs - (e + 2)
end

-- Sums the gradient over the batch axes where x broadcast against y.
local function unbroadcast_batch(gx, x, x_subs, y, y_subs)
  local xs, xe = bcast_range(x_subs)
  local ys, ye = bcast_range(y_subs)
  local sx, sy = shapes.static(x), shapes.static(y)
  local function batch(shape, s, e) return table.move(shape, s + 1, #shape - e, 1, {}) end
  if sx and sy then
    local bx, by = batch(sx, xs, xe), batch(sy, ys, ye)
    local r = math.max(#bx, #by)
    local axes = {}
    for i = 1, r do
      local dx, dy_ = bx[i - (r - #bx)], by[i - (r - #by)]
      if dx == nil or (dx == 1 and dy_ ~= nil and dy_ ~= 1) then axes[#axes + 1] = xs + i - 1 end
    end
    if #axes == 0 then return ops.reshape(gx, sx) end
    return ops.reshape(ops.reduce_sum(gx, axes), sx)
  end
  local function batch_shape(t, s, e)
    local shape = ops.shape(t)
    return ops.slice(shape, { s }, ops.reshape(ops.subtract(ops.size(shape), s + e), { 1 }))
  end
  local rx = op(H.BroadcastGradientArgs, nil, batch_shape(x, xs, xe), batch_shape(y, ys, ye))
  return ops.reshape(ops.reduce_sum(gx, ops.add(rx, xs)), ops.shape(x))
end


local rules = {}

rules.Einsum = function(n, dy)
  local eq = n.attrs.equation
  local lhs, output_subs = eq:match("^(.-)%->(.*)$")
  local g = dy[1]
  if #n.inputs == 1 then
    local x = n.inputs[1]
    local reduced = only_in(lhs, output_subs)
    if #reduced == 0 then return { einsum(output_subs .. "->" .. lhs, g) } end
    return { grad_reduced(g, output_subs, lhs, x, reduced) }
  end
  local x_subs, y_subs = lhs:match("^(.-),(.*)$")
  if has_ell(output_subs) then
    if not has_ell(x_subs) then x_subs = x_subs .. ELL end
    if not has_ell(y_subs) then y_subs = y_subs .. ELL end
  end
  local x, y = n.inputs[1], n.inputs[2]
  local gx = grad_wrt(g, y, x, x_subs, y_subs, output_subs)
  local gy = grad_wrt(g, x, y, y_subs, x_subs, output_subs)
  if not has_ell(output_subs) then return { gx, gy } end
  local sx, sy = shapes.static(x), shapes.static(y)
  if sx and sy then
    local xs, xe = bcast_range(x_subs)
    local ys, ye = bcast_range(y_subs)
    local bx, by = table.move(sx, xs + 1, #sx - xe, 1, {}), table.move(sy, ys + 1, #sy - ye, 1, {})
    if #bx == #by and table.concat(bx, ",") == table.concat(by, ",") then return { gx, gy } end
  end
  return { unbroadcast_batch(gx, x, x_subs, y, y_subs), unbroadcast_batch(gy, y, y_subs, x, x_subs) }
end

return rules
