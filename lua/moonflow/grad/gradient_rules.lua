-- gradient_rules.lua — the gradient of every differentiable op, one rule per
-- op type, grouped by op family (tinygrad's gradient.py is the model). A
-- rule is written once, in ops, so it runs eagerly and inside traced
-- functions alike (where a tape records symbolic ops and the backward pass
-- becomes more graph). The tape machinery that applies them is tape.lua.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local ops = require("moonflow.ops")
local ops_array = require("moonflow.ops")
local math_rules = require("moonflow.grad.gradient_rules_math")
local array_rules = require("moonflow.grad.gradient_rules_array")
local pool_rules = require("moonflow.grad.gradient_rules_nn")
local raise = errors.raise

local H = state.H
local op = core.op

-- The rules: rules[op_type](node, dys, present) -> {dx per
-- input}, where node = {inputs=, outputs=, attrs=}, dys[i] is the
-- gradient of output i (never nil: missing ones are zeros) and
-- present[i] says whether output i received a gradient at all (rules of
-- multi-output ops skip the work for outputs nothing depends on).
local rules = {}

local static_shape, num_elements = shapes.static, shapes.num_elements

local function same_static(a, b)
  local sa, sb = static_shape(a), static_shape(b)
  if not sa or not sb or #sa ~= #sb then return false end
  for i = 1, #sa do if sa[i] ~= sb[i] then return false end end
  return true
end

-- Sums g down to x's shape where x was broadcast.
local function unbroadcast(g, x)
  if same_static(g, x) then return g end
  local sg, sx = static_shape(g), static_shape(x)
  if sg and sx then
    local axes = {}
    local lead = #sg - #sx
    for i = 1, #sg do
      local dx = i > lead and sx[i - lead] or nil
      if dx == nil or (dx == 1 and sg[i] ~= 1) then axes[#axes + 1] = i - 1 end
    end
    local r = #axes > 0 and ops.reduce_sum(g, axes, { keepdims = false }) or g
    return ops.reshape(r, sx)
  end
  local rx = op(H.BroadcastGradientArgs, nil, ops.shape(x), ops.shape(g))
  return ops.reshape(ops.reduce_sum(g, rx), ops.shape(x))
end

local function dtype_of(x) return core.dtype(x) end

-- Elementwise binary ops --------------------------------------------------
-- skip[k] (tape.lua's unneeded): input k's gradient is wanted by nobody.
-- As TF's math_grad.py, these rules then leave its work out, and answer
-- early for a scalar second input nobody wants.
local function is_scalar(x)
  local sx = static_shape(x)
  return sx ~= nil and #sx == 0
end

-- TF's _ShapesFullySpecifiedAndEqual(x, y, grad).
local function fully_equal(x, y, g)
  local sx = static_shape(x)
  if not sx then return false end
  for _, d in ipairs(sx) do if d < 0 then return false end end
  return same_static(x, y) and same_static(x, g)
end

-- unbroadcast(f(), x) unless x is skipped (f makes the gradient's ops).
local function wanted(skip, k, f, x)
  if skip and skip[k] then return nil end
  return unbroadcast(f(), x)
end

rules.AddV2 = function(n, dy, _, skip)
  local x, y = n.inputs[1], n.inputs[2]
  if dtype_of(x) == dtypes.string then return {} end
  local g = dy[1]
  if skip and skip[2] and is_scalar(y) then return { g } end
  if fully_equal(x, y, g) then return { g, g } end
  local function grad() return g end
  return { wanted(skip, 1, grad, x), wanted(skip, 2, grad, y) }
end
rules.Sub = function(n, dy, _, skip)
  local x, y = n.inputs[1], n.inputs[2]
  local g = dy[1]
  if skip and skip[2] and is_scalar(y) then return { g } end
  if fully_equal(x, y, g) then return { g, -g } end
  return { wanted(skip, 1, function() return g end, x), wanted(skip, 2, function() return -g end, y) }
end
rules.Mul = function(n, dy, _, skip)
  local x, y = n.inputs[1], n.inputs[2]
  local g = dy[1]
  if skip and skip[2] and is_scalar(y) then return { g * y } end
  return { wanted(skip, 1, function() return g * y end, x), wanted(skip, 2, function() return g * x end, y) }
end
-- math_grad.py _RealDivGrad: grad / y and grad * ((-x / y) / y).
rules.RealDiv = function(n, dy)
  local x, y = n.inputs[1], n.inputs[2]
  return { unbroadcast(ops.divide(dy[1], y), x), unbroadcast(dy[1] * ((-x / y) / y), y) }
end
rules.FloorMod = function(n, dy)
  local x, y = n.inputs[1], n.inputs[2]
  if not dtype_of(x).is_floating then return {} end
  return { unbroadcast(dy[1], x), unbroadcast(-dy[1] * ops.floor(x / y), y) }
end
rules.Pow = function(n, dy, _, skip)
  local x, y, z = n.inputs[1], n.inputs[2], n.outputs[1]
  local function gx() return dy[1] * y * ops.pow(x, y - 1) end
  if skip and skip[2] and is_scalar(y) then return { gx() } end
  local function gy()
    local safe = ops.where(ops.greater(x, 0), x, ops.ones_like(x))
    return dy[1] * z * ops.where(ops.greater(x, 0), ops.log(safe), ops.zeros_like(x))
  end
  return { wanted(skip, 1, gx, x), wanted(skip, 2, gy, y) }
end
local function minmax(cmp)
  return function(n, dy, _, skip)
    local x, y = n.inputs[1], n.inputs[2]
    local pick = cmp(x, y)
    local zeros = ops.zeros_like(dy[1])
    -- TF's _MaximumMinimumGradInputOnly: no sum down to x's shape.
    if skip and skip[2] and is_scalar(y) then return { ops.where(pick, dy[1], zeros) } end
    return { wanted(skip, 1, function() return ops.where(pick, dy[1], zeros) end, x),
      wanted(skip, 2, function() return ops.where(pick, zeros, dy[1]) end, y) }
  end
end
rules.Maximum = minmax(ops.greater_equal)
rules.Minimum = minmax(ops.less_equal)
rules.SelectV2 = function(n, dy)
  local c, t, e = n.inputs[1], n.inputs[2], n.inputs[3]
  local zeros = ops.zeros_like(dy[1])
  return { nil, unbroadcast(ops.where(c, dy[1], zeros), t), unbroadcast(ops.where(c, zeros, dy[1]), e) }
end

-- Elementwise unary ops ----------------------------------------------------
rules.Neg = function(_, dy) return { -dy[1] } end
rules.Abs = function(n, dy) return { dy[1] * ops.sign(n.inputs[1]) } end
-- The unary rules compute what math_grad.py's do, with its ops: a traced
-- backward pass holds SqrtGrad, RsqrtGrad and Reciprocal where TF's does.
rules.Square = function(n, dy) return { dy[1] * (n.inputs[1] * 2) } end
rules.Sqrt = function(n, dy) return { op(H.SqrtGrad, nil, n.outputs[1], dy[1]) } end
rules.Rsqrt = function(n, dy) return { op(H.RsqrtGrad, nil, n.outputs[1], dy[1]) } end
rules.Exp = function(n, dy) return { dy[1] * n.outputs[1] } end
rules.Log = function(n, dy) return { dy[1] * ops.math.reciprocal(n.inputs[1]) } end
rules.Log1p = function(n, dy) return { dy[1] * ops.math.reciprocal(1 + n.inputs[1]) } end
rules.Sin = function(n, dy) return { dy[1] * ops.cos(n.inputs[1]) } end
rules.Cos = function(n, dy) return { -dy[1] * ops.sin(n.inputs[1]) } end
rules.Tanh = function(n, dy) return { op(H.TanhGrad, nil, n.outputs[1], dy[1]) } end
rules.Sigmoid = function(n, dy) return { op(H.SigmoidGrad, nil, n.outputs[1], dy[1]) } end
rules.Reciprocal = function(n, dy)
  local y = n.outputs[1]
  return { -dy[1] * y * y }
end
rules.Relu = function(n, dy) return { op(H.ReluGrad, nil, dy[1], n.outputs[1]) } end
-- Second order: the helpers' own gradients.
rules.TanhGrad = function(n, g)
  local y, dy = n.inputs[1], n.inputs[2]
  return { -2 * g[1] * dy * y, g[1] * (1 - y * y) }
end
rules.SigmoidGrad = function(n, g)
  local y, dy = n.inputs[1], n.inputs[2]
  return { g[1] * dy * (1 - 2 * y), g[1] * y * (1 - y) }
end
rules.ReluGrad = function(n, g)
  local features = n.inputs[2]
  return { op(H.ReluGrad, nil, g[1], features), ops.zeros_like(features) }
end
-- RsqrtGrad(y, dy) = -0.5 * dy * y^3.
rules.RsqrtGrad = function(n, g)
  local y, dy = n.inputs[1], n.inputs[2]
  return { -1.5 * g[1] * dy * ops.square(y), op(H.RsqrtGrad, nil, y, g[1]) }
end
-- As TF: the gradient of sign is zero (not None).
rules.Sign = function(n) return { ops.zeros_like(n.inputs[1]) } end
-- math_grad.py _SqrtGradGrad: ga = grad / y; (-ga * the op's output, 0.5 * ga).
rules.SqrtGrad = function(n, g)
  local ga = g[1] / n.inputs[1]
  return { -ga * n.outputs[1], 0.5 * ga }
end
rules.Cast = function(n, dy)
  local src = dtype_of(n.inputs[1])
  if not src.is_floating or not dtype_of(dy[1]).is_floating then return {} end
  return { ops.cast(dy[1], src) }
end
rules.Identity = function(_, dy) return { dy[1] } end
rules.ReadVariableOp = function(_, dy) return { dy[1] } end

-- Linear algebra ---------------------------------------------------------
-- math_grad.py _MatMulGrad: with an input nobody wants, one product.
rules.MatMul = function(n, dy, _, skip)
  local a, b = n.inputs[1], n.inputs[2]
  local ta, tb = n.attrs and n.attrs.transpose_a, n.attrs and n.attrs.transpose_b
  local g = dy[1]
  local mm = ops.matmul
  local function grad_a()
    if not ta and not tb then return mm(g, b, { transpose_b = true })
    elseif not ta and tb then return mm(g, b)
    elseif ta and not tb then return mm(b, g, { transpose_b = true }) end
    return mm(b, g, { transpose_a = true, transpose_b = true })
  end
  local function grad_b()
    if not ta and not tb then return mm(a, g, { transpose_a = true })
    elseif not ta and tb then return mm(g, a, { transpose_a = true })
    elseif ta and not tb then return mm(a, g) end
    return mm(g, a, { transpose_a = true, transpose_b = true })
  end
  if skip and skip[2] then return { grad_a() } end
  if skip and skip[1] then return { nil, grad_b() } end
  return { grad_a(), grad_b() }
end
rules.BatchMatMulV2 = function(n, dy)
  local a, b = n.inputs[1], n.inputs[2]
  local ax, ay = n.attrs and n.attrs.adj_x, n.attrs and n.attrs.adj_y
  local g = dy[1]
  local function bmm(p, q, tp, tq)
    return op(H.BatchMatMulV2, { adj_x = tp, adj_y = tq }, p, q)
  end
  local ga, gb
  if not ax and not ay then ga, gb = bmm(g, b, false, true), bmm(a, g, true, false)
  elseif not ax and ay then ga, gb = bmm(g, b, false, false), bmm(g, a, true, false)
  elseif ax and not ay then ga, gb = bmm(b, g, false, true), bmm(a, g, false, false)
  else ga, gb = bmm(b, g, true, true), bmm(g, a, true, true) end
  return { unbroadcast(ga, a), unbroadcast(gb, b) }
end

-- Reductions ---------------------------------------------------------------
-- The value of t as Lua data when it is known now (eager, or a constant
-- of the trace), else nil: static shapes keep gradient graphs small.
local function known(t)
  local k = core.known(t)
  return k and core.numpy(k) or nil
end

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
  local is_reduced = ops.greater(ops.reduce_sum(ops_array.one_hot(reduced, rank, { dtype = dtypes.int32 }), 0), 0)
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

-- Shapes ---------------------------------------------------------------
local function as_shape_of(g, x)
  return ops.reshape(g, static_shape(x) or ops.shape(x))
end
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
rules.BroadcastTo = function(n, dy) return { unbroadcast(dy[1], n.inputs[1]) } end
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
rules.ConcatV2 = function(n, dy)
  local nvals = #n.inputs - 1
  local axis = n.inputs[nvals + 1]
  local rank = ops.rank(n.inputs[1])
  local a = ops.floormod(ops.cast(axis, dtypes.int32), rank)
  local grads = {}
  local offset = ops.zeros({ 1 }, dtypes.int32)
  local onehot = ops_array.one_hot(a, rank, { dtype = dtypes.int32 })
  for i = 1, nvals do
    local size = ops.shape(n.inputs[i])
    local begin = ops.reshape(offset, { 1 }) * onehot
    grads[i] = ops.slice(dy[1], begin, size)
    offset = offset + ops.gather(size, a)
  end
  return grads
end
rules.Pack = function(n, dy)
  local axis = n.attrs and n.attrs.axis or 0
  return ops.unstack(dy[1], { axis = axis, num = #n.inputs })
end
rules.Unpack = function(n, dy)
  local axis = n.attrs and n.attrs.axis or 0
  return { ops.stack(dy, axis) }
end
-- array_grad.py _PadGrad: the sizes take the paddings' dtype (int64
-- paddings made an int32 size Slice refuses).
rules.Pad = function(n, dy)
  local x, paddings = n.inputs[1], n.inputs[2]
  local begin = ops.reshape(ops.slice(paddings, { 0, 0 }, { -1, 1 }), { -1 })
  return { ops.slice(dy[1], begin, ops.shape(x, dtype_of(begin))) }
end
-- array_grad.py _MirrorPadGrad and _MirrorPadGradGrad: each is the
-- other's gradient, with the same paddings and mode; paddings take none.
rules.MirrorPad = function(n, dy)
  return { op(H.MirrorPadGrad, { mode = n.attrs.mode }, dy[1], n.inputs[2]) }
end
rules.MirrorPadGrad = function(n, dy)
  return { op(H.MirrorPad, { mode = n.attrs.mode }, dy[1], n.inputs[2]) }
end

-- Gradients of selections scatter back through the flat positions the
-- selection took: one rule for Slice, StridedSlice and GatherV2.
local function scatter_back(x, select, g)
  local size = ops.size(x)
  local positions = ops.reshape(ops.range(size), ops.shape(x))
  local taken = select(positions)
  local flat = op(H.UnsortedSegmentSum, nil, ops.reshape(g, { -1 }), ops.reshape(taken, { -1 }), size)
  return as_shape_of(flat, x)
end
-- array_grad.py _SliceGrad: dy padded back to the input's shape, begin
-- zeros before and the rest after each axis.
rules.Slice = function(n, dy)
  local x, begin = n.inputs[1], n.inputs[2]
  local index_dtype = dtype_of(begin)
  local slice_size = ops.shape(n.outputs[1], index_dtype)
  local shape = ops.stack({ ops.rank(x), 1 })
  local before_pad = ops.reshape(begin, shape)
  local after_pad = ops.reshape(ops.shape(x, index_dtype) - slice_size - begin, shape)
  return { ops.pad(dy[1], ops.concat({ before_pad, after_pad }, 1)) }
end
rules.StridedSlice = function(n, dy)
  local a = n.attrs or {}
  local begin, end_, strides = n.inputs[2], n.inputs[3], n.inputs[4]
  return { scatter_back(n.inputs[1], function(p)
    return op(H.StridedSlice, { begin_mask = a.begin_mask or 0, end_mask = a.end_mask or 0,
      ellipsis_mask = a.ellipsis_mask or 0, new_axis_mask = a.new_axis_mask or 0,
      shrink_axis_mask = a.shrink_axis_mask or 0 }, p, begin, end_, strides)
  end, dy[1]) }
end
rules.GatherV2 = function(n, dy)
  local indices, axis = n.inputs[2], n.inputs[3]
  local batch_dims = n.attrs and n.attrs.batch_dims or 0
  -- As array_grad.py _GatherV2Grad, which resolves a negative batch_dims
  -- against the indices' static rank.
  if batch_dims < 0 and shapes.rank(indices) == nil then
    raise("ValueError", ("Currently, it is unsupported to take the gradient of tf.gather when batch_dims < 0 "
      .. "and the rank of the indices is unknown. Please pass a positive batch_dims or use tf.ensure_shape "
      .. "to update the shape of indices when calling tf.gather. Got batch_dims=%d and indices=%s")
      :format(batch_dims, tostring(indices)), 3)
  end
  return { scatter_back(n.inputs[1], function(p)
    return op(H.GatherV2, { batch_dims = batch_dims }, p, indices, axis)
  end, dy[1]) }
end
-- TensorListSetItem(buffer, index, item): row `index` of the result is
-- item, the other rows the buffer's (a rank-1 "fresh" buffer of a
-- non-scalar element only gives the row count: no gradient flows to it).
rules.TensorListSetItem = function(n, dy)
  local buf, index, item = n.inputs[1], n.inputs[2], n.inputs[3]
  local g = dy[1]
  local ditem = as_shape_of(ops.gather(g, index), item)
  local _, _, sb = core.info(buf)
  local _, _, si = core.info(item)
  if not sb or not si then
    raise("ValueError", "the gradient of TensorListSetItem needs the ranks of the buffer and the item", 3)
  end
  local dbuf
  if #sb == 1 and #si > 0 then
    dbuf = ops.zeros_like(buf)
  else
    local cleared = op(H.TensorListSetItem, { resize = true }, g, index, ops.zeros_like(item))
    dbuf = ops.slice(cleared, ops.zeros_like(ops.shape(buf)), ops.shape(buf))
  end
  return { dbuf, nil, ditem }
end
rules.Fill = function(_, dy) return { nil, ops.reduce_sum(dy[1]) } end

-- Neural network ops --------------------------------------------------------
rules.Softmax = function(n, dy)
  local y = n.outputs[1]
  return { y * (dy[1] - ops.reduce_sum(dy[1] * y, -1, { keepdims = true })) }
end
rules.LogSoftmax = function(n, dy)
  local y = n.outputs[1]
  return { dy[1] - ops.exp(y) * ops.reduce_sum(dy[1], -1, { keepdims = true }) }
end
-- The cross-entropy ops return (loss, backprop) with backprop =
-- softmax(logits) - labels. A gradient reaching backprop (second
-- derivatives: the loss's gradient is that output) flows through the
-- softmax's Jacobian into the logits, as nn_grad.py computes it: a
-- batched [1, n] x [n, 1] product per row (so a traced second derivative
-- holds a BatchMatMulV2, as TF's does).
local function softmax_backprop_grad(logits, gg)
  local p = ops.nn.softmax(logits)
  local rowdot = op(H.BatchMatMulV2, { adj_x = false, adj_y = false }, ops.expand_dims(gg, 1), ops.expand_dims(p, 2))
  return (gg - ops.squeeze(rowdot, { 1 })) * p
end
-- nn_grad.py _SoftmaxCrossEntropyWithLogitsGrad. The labels' gradient is
-- the loss's alone: TF's rule gives none through the backprop output
-- (whose derivative in the labels is -1), and neither does moonflow.
rules.SoftmaxCrossEntropyWithLogits = function(n, dy, present)
  local logits = n.inputs[1]
  local g = ops.expand_dims(dy[1], -1)
  local dlogits = g * n.outputs[2]
  if present == nil or present[2] then dlogits = dlogits + softmax_backprop_grad(logits, dy[2]) end
  return { dlogits, g * -ops.nn.log_softmax(logits) }
end
rules.SparseSoftmaxCrossEntropyWithLogits = function(n, dy, present)
  local dlogits = ops.expand_dims(dy[1], -1) * n.outputs[2]
  if present == nil or present[2] then
    dlogits = dlogits + softmax_backprop_grad(n.inputs[1], dy[2])
  end
  return { dlogits }
end
local function data_format(n)
  return { data_format = n.attrs and n.attrs.data_format or "NHWC" }
end
rules.BiasAdd = function(n, dy)
  return { dy[1], op(H.BiasAddGrad, data_format(n), dy[1]) }
end
-- BiasAddGrad sums all but the channel axis: its gradient spreads the
-- channel values back over that shape.
rules.BiasAddGrad = function(n, g)
  local dy = n.inputs[1]
  local sd = static_shape(dy)
  local rank = sd and #sd or nil
  local nchw = n.attrs and n.attrs.data_format == "NCHW"
  local shaped
  if rank then
    local s = {}
    for i = 1, rank do s[i] = 1 end
    s[nchw and 2 or rank] = -1
    shaped = ops.reshape(g[1], s)
  else
    local ones = ops.ones_like(ops.shape(dy))
    local axis = nchw and 1 or ops.rank(dy) - 1
    local s = ones - ops_array.one_hot(axis, ops.rank(dy), { dtype = dtypes.int32 }) * 2
    shaped = ops.reshape(g[1], s)
  end
  return { ops.broadcast_to(shaped, sd or ops.shape(dy)) }
end
local function conv_attrs(n)
  local a = n.attrs or {}
  return { strides = a.strides, padding = a.padding, dilations = a.dilations,
    data_format = a.data_format, explicit_paddings = a.explicit_paddings }
end
local function shape_tensor(x)
  local s = static_shape(x)
  if s then return ops.constant(s, dtypes.int32) end
  return ops.shape(x)
end
rules.Conv2D = function(n, dy)
  local x, w = n.inputs[1], n.inputs[2]
  local attrs = conv_attrs(n)
  return {
    op(H.Conv2DBackpropInput, attrs, shape_tensor(x), w, dy[1]),
    op(H.Conv2DBackpropFilter, attrs, x, shape_tensor(w), dy[1]),
  }
end
-- Both backprops are linear in each of their tensor inputs (as TF's
-- _Conv2DBackpropInputGrad and _Conv2DBackpropFilterGrad).
rules.Conv2DBackpropInput = function(n, g)
  local w, dy = n.inputs[2], n.inputs[3]
  local attrs = conv_attrs(n)
  return { nil,
    op(H.Conv2DBackpropFilter, attrs, g[1], shape_tensor(w), dy),
    op(H.Conv2D, attrs, g[1], w) }
end
rules.Conv2DBackpropFilter = function(n, g)
  local x, dy = n.inputs[1], n.inputs[3]
  local attrs = conv_attrs(n)
  return {
    op(H.Conv2DBackpropInput, attrs, shape_tensor(x), g[1], dy),
    nil,
    op(H.Conv2D, attrs, x, g[1]) }
end
rules.ResizeBilinear = function(n, dy)
  local a = n.attrs or {}
  return { op(H.ResizeBilinearGrad, { align_corners = a.align_corners or false,
    half_pixel_centers = a.half_pixel_centers or false }, dy[1], n.inputs[1]) }
end

-- Control flow -----------------------------------------------------------
-- A traced cond carries its own gradient (a cond of the branches'
-- gradients, control_flow.lua): it needs the branch functions.
rules.If = function(n, dys, present) return n.attrs._gradient(n, dys, present) end
rules.StatelessIf = rules.If
-- The loop's gradient is recorded by tf.while_loop itself (it needs the
-- per-iteration values); the op's own entry then adds nothing. A loop
-- recorded without it (no tape recorded while it was traced, or no loop
-- variable is a tensor) has no gradient: an error, never a silent zero.
rules.While = function(n)
  if n.attrs and n.attrs._loop and n.attrs._loop.differentiated then return {} end
  raise("LookupError", "No gradient recorded for this tf.while_loop (op type: While): moonflow "
    .. "differentiates a loop traced while a GradientTape records, through its tensor loop variables "
    .. "and captured values", 4)
end
rules.StatelessWhile = rules.While

-- Math and linear algebra (gradient_rules_math.lua) ----------------------------
math_rules.install(rules, unbroadcast, fully_equal)

-- Array ops of issue #17 (splits, reversal, index tuples, top-k, scans)
-- and UnsortedSegmentSum: gradient_rules_array.lua ------------------------
array_rules.install(rules)

-- Pooling (gradient_rules_nn.lua) ----------------------------------------
pool_rules.install(rules, shape_tensor)

return rules
