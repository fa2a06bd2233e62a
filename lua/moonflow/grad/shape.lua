-- shape.lua — the gradients of the shape ops (core/ops/ops_shape.c):
-- reshapes give the gradient the input's shape back, a transpose the
-- inverse permutation, a tile the sum over its copies (array_grad.py).
-- Rule conventions: rules.lua.

local core = require("moonflow.core")
local state = require("moonflow.state")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local ops = require("moonflow.ops")
local helpers = require("moonflow.grad.helpers")

local H = state.H
local op = core.op
local static_shape = shapes.static
local known, as_shape_of = helpers.known, helpers.as_shape_of

local rules = {}

rules.Reshape = function(n, dy) return { as_shape_of(dy[1], n.inputs[1]) } end
rules.ExpandDims = rules.Reshape
rules.Squeeze = rules.Reshape
rules.Transpose = function(n, dy)
  local perm = n.inputs[2]
  local p = known(perm)
  if p then
    local inv = {}
    for i, v in ipairs(p) do inv[v + 1] = i - 1 end
    return { ops.transpose(dy[1], inv) }
  end
  local inv = op(H.UnsortedSegmentSum, nil, ops.range(ops.size(perm)), perm, ops.size(perm))
  return { ops.transpose(dy[1], inv) }
end

-- moonflow's tensors have at most this many dimensions (core/tensor/tensor.h).
local MAX_RANK = 8

-- Tile's gradient one tiled axis at a time, for inputs whose rank r
-- makes TF's rank-2r reshape too deep for moonflow. Axis i is summed as
-- the middle of [A, m_i, B]: A the (already summed) axes before it, B
-- the rest; every reshape has rank 3.
local function tile_grad_by_axis(x, multiples, g, r)
  local sx, m = static_shape(x), known(multiples)
  local sg = static_shape(g)
  if sx and m and sg then
    local cur = g
    for i = 1, r do
      if m[i] ~= 1 then
        local a, b = 1, sx[i]
        for k = 1, i - 1 do a = a * sx[k] end
        for k = i + 1, r do b = b * sg[k] end
        cur = ops.reduce_sum(ops.reshape(cur, { a, m[i], b }), 1)
      end
    end
    return ops.reshape(cur, sx)
  end
  local xs, ms = ops.shape(x), ops.cast(multiples, dtypes.int32)
  local gs = ops.shape(g)
  local cur = g
  for i = 0, r - 1 do
    local a = ops.reduce_prod(ops.slice(xs, { 0 }, { i }))
    local b = ops.gather(xs, i) * ops.reduce_prod(ops.slice(gs, { i + 1 }, { r - i - 1 }))
    cur = ops.reduce_sum(ops.reshape(cur, ops.stack({ a, ops.gather(ms, i), b })), 1)
  end
  return ops.reshape(cur, xs)
end

-- array_grad.py _TileGrad: dy reshaped to [m0, s0, m1, s1, ...] and
-- summed over the multiple axes.
rules.Tile = function(n, dy)
  local x, multiples = n.inputs[1], n.inputs[2]
  local r = shapes.rank(x)
  if r and 2 * r > MAX_RANK then return { tile_grad_by_axis(x, multiples, dy[1], r) } end
  local sx = ops.shape(x)
  local split = ops.reshape(ops.stack({ ops.cast(multiples, dtypes.int32), sx }, 1), { -1 })
  local axes = ops.range(0, ops.size(split), 2)
  return { as_shape_of(ops.reduce_sum(ops.reshape(dy[1], split), axes), x) }
end

return rules
