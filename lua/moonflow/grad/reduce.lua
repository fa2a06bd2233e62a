-- reduce.lua — the gradients of the reductions (core/ops/ops_reduce.c), as
-- TF's math_grad.py: _SumGrad, _MeanGrad, _MinOrMaxGrad, _ProdGrad. With
-- the input's shape and the axes known, the gradient graph uses static
-- shapes. Rule conventions: rules.lua.

local core = require("moonflow.core")
local state = require("moonflow.state")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local ops = require("moonflow.ops")
local helpers = require("moonflow.grad.helpers")

local H = state.H
local op = core.op
local static_shape, num_elements = shapes.static, shapes.num_elements
local known = helpers.known
local dtype_of = core.dtype

local rules = {}

-- The shape of x with the reduced axes set to 1 (what keep_dims gives),
-- as a Lua list when static, else as a tensor.
local function keep_dims_shape(n)
  local x, axes = n.inputs[1], n.inputs[2]
  if n.attrs and n.attrs.keep_dims then
    return static_shape(n.outputs[1]) or ops.shape(n.outputs[1])
  end
  local sx, ax = static_shape(x), known(axes)
  if sx and ax then
    if type(ax) ~= "table" then ax = { ax } end
    local kept = table.move(sx, 1, #sx, 1, {})
    for _, a in ipairs(ax) do kept[(a % #sx) + 1] = 1 end
    return kept
  end
  local rank = ops.rank(x)
  local axes_v = ops.reshape(ops.floormod(ops.cast(axes, dtypes.int32) + rank, rank), { -1 })
  local ones = ops.ones_like(axes_v)
  return op(H.UnsortedSegmentSum, nil,
    ops.concat({ ops.shape(x), -(ops.gather(ops.shape(x), axes_v) - ones) }, 0),
    ops.concat({ ops.range(rank), axes_v }, 0), rank)
end

-- dy reshaped to the kept dims (unless keep_dims) and broadcast to the
-- input's shape: _SumGrad's general path, and _ProdGrad's first step.
local function reduced_grad(n, g)
  local input_shape = ops.shape(n.inputs[1])
  if not (n.attrs and n.attrs.keep_dims) then g = ops.reshape(g, keep_dims_shape(n)) end
  return ops.broadcast_to(g, input_shape)
end

-- math_grad.py _SumGrad. With the input's rank and the axes known, a
-- reduction of every axis (in order) is a Reshape to ones and a Tile, and
-- a traced one of a fully known shape a Reshape to the kept dims and a
-- Tile by the rest; else reduced_grad's Reshape and BroadcastTo.
local function sum_grad(n, g)
  local x = n.inputs[1]
  local _, _, shape = core.info(x)
  local ax = known(n.inputs[2])
  if shape and ax then
    if type(ax) ~= "table" then ax = { ax } end
    local rank = #shape
    local all = #ax == rank
    for i, a in ipairs(ax) do if a ~= i - 1 then all = false end end
    local full = static_shape(x)
    if all then
      local ones = {}
      for i = 1, rank do ones[i] = 1 end
      return ops.tile(ops.reshape(g, ones), full and ops.constant(full, dtypes.int32) or ops.shape(x))
    elseif full and core.tracing() then
      local kept = keep_dims_shape(n)
      local scaling = {}
      for i = 1, rank do scaling[i] = full[i] // math.max(kept[i], 1) end
      return ops.tile(ops.reshape(g, kept), scaling)
    end
  end
  return reduced_grad(n, g)
end

rules.Sum = function(n, dy) return { sum_grad(n, dy[1]) } end

-- math_grad.py _MeanGrad: the sum's gradient over input size // output size.
rules.Mean = function(n, dy)
  local g = sum_grad(n, dy[1])
  local sx, sy = static_shape(n.inputs[1]), static_shape(n.outputs[1])
  if sx and sy then
    return { g / ops.constant(num_elements(sx) // math.max(num_elements(sy), 1), dtype_of(g)) }
  end
  local factor = ops.floordiv(ops.reduce_prod(ops.shape(n.inputs[1])),
    ops.maximum(ops.reduce_prod(ops.shape(n.outputs[1])), 1))
  return { g / ops.cast(factor, dtype_of(g)) }
end
local function extremum_grad(n, dy)
  local x, y = n.inputs[1], n.outputs[1]
  local kept = keep_dims_shape(n)
  local yb = ops.reshape(y, kept)
  -- math_grad.py _MinOrMaxGrad: ties share the gradient, (indicators / count) * grad.
  local mask = ops.cast(ops.equal(x, yb), dtype_of(x))
  local count = ops.reduce_sum(mask, n.inputs[2], { keepdims = true })
  return { ops.divide(mask, count) * ops.reshape(dy[1], kept) }
end
rules.Max = extremum_grad
rules.Min = extremum_grad
-- The reduced axes of Prod node n first, then the others: the
-- permutation, its inverse, and the sizes of the two groups, as Lua
-- values when x's shape and the axes are known now, else as tensors.
local function prod_layout(x, axes)
  local sx, ax = static_shape(x), known(axes)
  if sx and ax then
    if type(ax) ~= "table" then ax = { ax } end
    local perm, is_reduced = {}, {}
    for _, a in ipairs(ax) do
      local k = a % #sx
      if not is_reduced[k] then perm[#perm + 1], is_reduced[k] = k, true end
    end
    local reduced_num, other_num = 1, 1
    for k = 0, #sx - 1 do
      if is_reduced[k] then reduced_num = reduced_num * sx[k + 1]
      else perm[#perm + 1], other_num = k, other_num * sx[k + 1] end
    end
    local inv = {}
    for i, p in ipairs(perm) do inv[p + 1] = i - 1 end
    return perm, inv, reduced_num, other_num
  end
  local rank, shape = ops.rank(x), ops.shape(x)
  local reduced = ops.floormod(ops.reshape(ops.cast(axes, dtypes.int32), { -1 }) + rank, rank)
  local is_reduced = ops.greater(ops.reduce_sum(ops.one_hot(reduced, rank, { dtype = dtypes.int32 }), 0), 0)
  local other = ops.reshape(ops.cast(ops.where(ops.logical_not(is_reduced)), dtypes.int32), { -1 })
  local perm = ops.concat({ reduced, other }, 0)
  local inv = op(H.UnsortedSegmentSum, nil, ops.range(rank), perm, rank)
  return perm, inv, ops.reduce_prod(ops.gather(shape, reduced)), ops.reduce_prod(ops.gather(shape, other))
end

-- math_grad.py _ProdGrad: each entry's gradient is the product of the
-- other entries it was reduced with, an exclusive cumprod from each side
-- (dividing the product by the entry gave NaN where an entry is 0).
rules.Prod = function(n, dy)
  local x = n.inputs[1]
  local g = reduced_grad(n, dy[1])
  local perm, inv, reduced_num, other_num = prod_layout(x, n.inputs[2])
  local permuted = ops.transpose(x, perm)
  local reshaped = ops.reshape(permuted, type(reduced_num) == "number" and { reduced_num, other_num }
    or ops.stack({ reduced_num, other_num }))
  local function cumprod(reverse)
    return op(H.Cumprod, { exclusive = true, reverse = reverse, _dtypes = { nil, dtypes.int32 } }, reshaped, 0)
  end
  local y = ops.reshape(cumprod(false) * cumprod(true), static_shape(permuted) or ops.shape(permuted))
  return { g * ops.transpose(y, inv) }
end

return rules
