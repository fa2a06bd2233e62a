-- gradient_rules.lua — the gradient of every differentiable op, one rule per
-- op type, grouped by op family (tinygrad's gradient.py is the model). A
-- rule is written once, in ops, so it runs eagerly and inside traced
-- functions alike (where a tape records symbolic ops and the backward pass
-- becomes more graph). The tape machinery that applies them is tape.lua.

local core = require("moonflow.core")

return function(tf, doc)
local H = tf._H
local op = core.op

-- Gradient functions: GRAD[op_type](node, dys, present) -> {dx per
-- input}, where node = {inputs=, outputs=, attrs=}, dys[i] is the
-- gradient of output i (never nil: missing ones are zeros) and
-- present[i] says whether output i received a gradient at all (rules of
-- multi-output ops skip the work for outputs nothing depends on).
local GRAD = {}

local function static_shape(x)
  local _, _, shape = core.info(x)
  if not shape then return nil end
  for _, d in ipairs(shape) do if d < 0 then return nil end end
  return shape
end

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
    local r = #axes > 0 and tf.reduce_sum(g, axes, { keepdims = false }) or g
    return tf.reshape(r, sx)
  end
  local rx = op(H.BroadcastGradientArgs, nil, tf.shape(x), tf.shape(g))
  return tf.reshape(tf.reduce_sum(g, rx), tf.shape(x))
end

local function dtype_of(x) return core.dtype(x) end

-- Elementwise binary ops --------------------------------------------------
GRAD.AddV2 = function(n, dy)
  local x, y = n.inputs[1], n.inputs[2]
  if dtype_of(x) == tf.string then return {} end
  return { unbroadcast(dy[1], x), unbroadcast(dy[1], y) }
end
GRAD.Sub = function(n, dy)
  return { unbroadcast(dy[1], n.inputs[1]), unbroadcast(-dy[1], n.inputs[2]) }
end
GRAD.Mul = function(n, dy)
  local x, y = n.inputs[1], n.inputs[2]
  return { unbroadcast(dy[1] * y, x), unbroadcast(dy[1] * x, y) }
end
GRAD.RealDiv = function(n, dy)
  local x, y = n.inputs[1], n.inputs[2]
  return { unbroadcast(tf.divide(dy[1], y), x), unbroadcast(-dy[1] * x / (y * y), y) }
end
GRAD.FloorMod = function(n, dy)
  local x, y = n.inputs[1], n.inputs[2]
  if not dtype_of(x).is_floating then return {} end
  return { unbroadcast(dy[1], x), unbroadcast(-dy[1] * tf.floor(x / y), y) }
end
GRAD.Pow = function(n, dy)
  local x, y, z = n.inputs[1], n.inputs[2], n.outputs[1]
  local gx = dy[1] * y * tf.pow(x, y - 1)
  local safe = tf.where(tf.greater(x, 0), x, tf.ones_like(x))
  local gy = dy[1] * z * tf.where(tf.greater(x, 0), tf.log(safe), tf.zeros_like(x))
  return { unbroadcast(gx, x), unbroadcast(gy, y) }
end
local function minmax(cmp)
  return function(n, dy)
    local x, y = n.inputs[1], n.inputs[2]
    local pick = cmp(x, y)
    local zeros = tf.zeros_like(dy[1])
    return { unbroadcast(tf.where(pick, dy[1], zeros), x),
      unbroadcast(tf.where(pick, zeros, dy[1]), y) }
  end
end
GRAD.Maximum = minmax(tf.greater_equal)
GRAD.Minimum = minmax(tf.less_equal)
GRAD.SelectV2 = function(n, dy)
  local c, t, e = n.inputs[1], n.inputs[2], n.inputs[3]
  local zeros = tf.zeros_like(dy[1])
  return { nil, unbroadcast(tf.where(c, dy[1], zeros), t), unbroadcast(tf.where(c, zeros, dy[1]), e) }
end

-- Elementwise unary ops ----------------------------------------------------
GRAD.Neg = function(_, dy) return { -dy[1] } end
GRAD.Abs = function(n, dy) return { dy[1] * tf.sign(n.inputs[1]) } end
GRAD.Square = function(n, dy) return { dy[1] * 2 * n.inputs[1] } end
GRAD.Sqrt = function(n, dy) return { dy[1] * 0.5 / n.outputs[1] } end
GRAD.Rsqrt = function(n, dy)
  local y = n.outputs[1]
  return { dy[1] * -0.5 * y * y * y }
end
GRAD.Exp = function(n, dy) return { dy[1] * n.outputs[1] } end
GRAD.Log = function(n, dy) return { dy[1] / n.inputs[1] } end
GRAD.Log1p = function(n, dy) return { dy[1] / (1 + n.inputs[1]) } end
GRAD.Sin = function(n, dy) return { dy[1] * tf.cos(n.inputs[1]) } end
GRAD.Cos = function(n, dy) return { -dy[1] * tf.sin(n.inputs[1]) } end
GRAD.Tanh = function(n, dy) return { op(H.TanhGrad, nil, n.outputs[1], dy[1]) } end
GRAD.Sigmoid = function(n, dy) return { op(H.SigmoidGrad, nil, n.outputs[1], dy[1]) } end
GRAD.Reciprocal = function(n, dy)
  local y = n.outputs[1]
  return { -dy[1] * y * y }
end
GRAD.Relu = function(n, dy) return { op(H.ReluGrad, nil, dy[1], n.outputs[1]) } end
-- Second order: the helpers' own gradients.
GRAD.TanhGrad = function(n, g)
  local y, dy = n.inputs[1], n.inputs[2]
  return { -2 * g[1] * dy * y, g[1] * (1 - y * y) }
end
GRAD.SigmoidGrad = function(n, g)
  local y, dy = n.inputs[1], n.inputs[2]
  return { g[1] * dy * (1 - 2 * y), g[1] * y * (1 - y) }
end
GRAD.ReluGrad = function(n, g)
  local features = n.inputs[2]
  return { op(H.ReluGrad, nil, g[1], features), tf.zeros_like(features) }
end
-- RsqrtGrad(y, dy) = -0.5 * dy * y^3.
GRAD.RsqrtGrad = function(n, g)
  local y, dy = n.inputs[1], n.inputs[2]
  return { -1.5 * g[1] * dy * y * y, op(H.RsqrtGrad, nil, y, g[1]) }
end
-- As TF: the gradient of sign is zero (not None).
GRAD.Sign = function(n) return { tf.zeros_like(n.inputs[1]) } end
GRAD.SqrtGrad = function(n, g)
  local y, dy = n.inputs[1], n.inputs[2]
  local ga = g[1] / y
  return { -ga * dy / y * 0.5, ga * 0.5 }
end
GRAD.Cast = function(n, dy)
  local src = dtype_of(n.inputs[1])
  if not src.is_floating or not dtype_of(dy[1]).is_floating then return {} end
  return { tf.cast(dy[1], src) }
end
GRAD.Identity = function(_, dy) return { dy[1] } end
GRAD.ReadVariableOp = function(_, dy) return { dy[1] } end

-- Linear algebra ---------------------------------------------------------
GRAD.MatMul = function(n, dy)
  local a, b = n.inputs[1], n.inputs[2]
  local ta, tb = n.attrs and n.attrs.transpose_a, n.attrs and n.attrs.transpose_b
  local g = dy[1]
  local mm = tf.matmul
  if not ta and not tb then
    return { mm(g, b, { transpose_b = true }), mm(a, g, { transpose_a = true }) }
  elseif not ta and tb then
    return { mm(g, b), mm(g, a, { transpose_a = true }) }
  elseif ta and not tb then
    return { mm(b, g, { transpose_b = true }), mm(a, g) }
  end
  return { mm(b, g, { transpose_a = true, transpose_b = true }), mm(g, a, { transpose_a = true, transpose_b = true }) }
end
GRAD.BatchMatMulV2 = function(n, dy)
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
    return static_shape(n.outputs[1]) or tf.shape(n.outputs[1])
  end
  local sx, ax = static_shape(x), known(axes)
  if sx and ax then
    if type(ax) ~= "table" then ax = { ax } end
    local kept = table.move(sx, 1, #sx, 1, {})
    for _, a in ipairs(ax) do kept[(a % #sx) + 1] = 1 end
    return kept
  end
  local rank = tf.rank(x)
  local axes_v = tf.reshape(tf.floormod(tf.cast(axes, tf.int32) + rank, rank), { -1 })
  local ones = tf.ones_like(axes_v)
  return op(H.UnsortedSegmentSum, nil,
    tf.concat({ tf.shape(x), -(tf.gather(tf.shape(x), axes_v) - ones) }, 0),
    tf.concat({ tf.range(rank), axes_v }, 0), rank)
end

local function reduced_grad(n, g)
  local x = n.inputs[1]
  local sx = static_shape(x)
  local kept = keep_dims_shape(n)
  local shaped = tf.reshape(g, kept)
  if sx and same_static(shaped, x) then return shaped, kept end
  return tf.broadcast_to(shaped, sx or tf.shape(x)), kept
end

GRAD.Sum = function(n, dy)
  local g = reduced_grad(n, dy[1])
  return { g }
end
local function num_elements(shape)
  local c = 1
  for _, d in ipairs(shape) do c = c * d end
  return c
end

GRAD.Mean = function(n, dy)
  local g = reduced_grad(n, dy[1])
  local sx, sy = static_shape(n.inputs[1]), static_shape(n.outputs[1])
  if sx and sy then
    local count = num_elements(sx) / math.max(num_elements(sy), 1)
    return { g / count }
  end
  local count = tf.cast(tf.size(n.inputs[1]), dtype_of(g)) / tf.cast(tf.size(n.outputs[1]), dtype_of(g))
  return { g / count }
end
local function extremum_grad(n, dy)
  local x, y = n.inputs[1], n.outputs[1]
  local kept = keep_dims_shape(n)
  local yb = tf.reshape(y, kept)
  local mask = tf.cast(tf.equal(x, yb), dtype_of(x))
  local count = tf.reduce_sum(mask, n.inputs[2], { keepdims = true })
  return { mask * tf.reshape(dy[1], kept) / count }
end
GRAD.Max = extremum_grad
GRAD.Min = extremum_grad
GRAD.Prod = function(n, dy)
  local x = n.inputs[1]
  local g = reduced_grad(n, dy[1] * n.outputs[1])
  return { g / x }
end

-- Shapes ---------------------------------------------------------------
local function as_shape_of(g, x)
  return tf.reshape(g, static_shape(x) or tf.shape(x))
end
GRAD.Reshape = function(n, dy) return { as_shape_of(dy[1], n.inputs[1]) } end
GRAD.ExpandDims = GRAD.Reshape
GRAD.Squeeze = GRAD.Reshape
GRAD.Transpose = function(n, dy)
  local perm = n.inputs[2]
  local p = known(perm)
  if p then
    local inv = {}
    for i, v in ipairs(p) do inv[v + 1] = i - 1 end
    return { tf.transpose(dy[1], inv) }
  end
  local inv = op(H.UnsortedSegmentSum, nil, tf.range(tf.size(perm)), perm, tf.size(perm))
  return { tf.transpose(dy[1], inv) }
end
GRAD.BroadcastTo = function(n, dy) return { unbroadcast(dy[1], n.inputs[1]) } end
GRAD.Tile = function(n, dy)
  local x, multiples = n.inputs[1], n.inputs[2]
  local sx = tf.shape(x)
  -- [m0, s0, m1, s1, ...]: sum over the multiple axes.
  local split = tf.reshape(tf.stack({ tf.cast(multiples, tf.int32), sx }, 1), { -1 })
  local axes = tf.range(0, tf.size(split), 2)
  return { as_shape_of(tf.reduce_sum(tf.reshape(dy[1], split), axes), x) }
end
GRAD.ConcatV2 = function(n, dy)
  local nvals = #n.inputs - 1
  local axis = n.inputs[nvals + 1]
  local rank = tf.rank(n.inputs[1])
  local a = tf.floormod(tf.cast(axis, tf.int32), rank)
  local grads = {}
  local offset = tf.zeros({ 1 }, tf.int32)
  local onehot = tf.one_hot(a, rank, { dtype = tf.int32 })
  for i = 1, nvals do
    local size = tf.shape(n.inputs[i])
    local begin = tf.reshape(offset, { 1 }) * onehot
    grads[i] = tf.slice(dy[1], begin, size)
    offset = offset + tf.gather(size, a)
  end
  return grads
end
GRAD.Pack = function(n, dy)
  local axis = n.attrs and n.attrs.axis or 0
  return tf.unstack(dy[1], { axis = axis, num = #n.inputs })
end
GRAD.Unpack = function(n, dy)
  local axis = n.attrs and n.attrs.axis or 0
  return { tf.stack(dy, axis) }
end
GRAD.Pad = function(n, dy)
  local x, paddings = n.inputs[1], n.inputs[2]
  local begin = tf.reshape(tf.slice(paddings, { 0, 0 }, { -1, 1 }), { -1 })
  return { tf.slice(dy[1], begin, tf.shape(x)) }
end

-- Gradients of selections scatter back through the flat positions the
-- selection took: one rule for Slice, StridedSlice and GatherV2.
local function scatter_back(x, select, g)
  local size = tf.size(x)
  local positions = tf.reshape(tf.range(size), tf.shape(x))
  local taken = select(positions)
  local flat = op(H.UnsortedSegmentSum, nil, tf.reshape(g, { -1 }), tf.reshape(taken, { -1 }), size)
  return as_shape_of(flat, x)
end
GRAD.Slice = function(n, dy)
  local begin, size = n.inputs[2], n.inputs[3]
  return { scatter_back(n.inputs[1], function(p) return tf.slice(p, begin, size) end, dy[1]) }
end
GRAD.StridedSlice = function(n, dy)
  local a = n.attrs or {}
  local begin, end_, strides = n.inputs[2], n.inputs[3], n.inputs[4]
  return { scatter_back(n.inputs[1], function(p)
    return op(H.StridedSlice, { begin_mask = a.begin_mask or 0, end_mask = a.end_mask or 0,
      ellipsis_mask = a.ellipsis_mask or 0, new_axis_mask = a.new_axis_mask or 0,
      shrink_axis_mask = a.shrink_axis_mask or 0 }, p, begin, end_, strides)
  end, dy[1]) }
end
GRAD.GatherV2 = function(n, dy)
  local indices, axis = n.inputs[2], n.inputs[3]
  local batch_dims = n.attrs and n.attrs.batch_dims or 0
  return { scatter_back(n.inputs[1], function(p)
    return op(H.GatherV2, { batch_dims = batch_dims }, p, indices, axis)
  end, dy[1]) }
end
-- TensorScatterUpdate(tensor, indices [n, k], updates [n, ...]): the
-- replaced rows give tensor no gradient; updates get those rows of the
-- gradient (TF's _TensorScatterUpdateGrad, with gather_nd spelled as a
-- gather over the first k axes flattened).
GRAD.TensorScatterUpdate = function(n, dy)
  local t, indices, updates = n.inputs[1], n.inputs[2], n.inputs[3]
  local g = dy[1]
  local dt = op(H.TensorScatterUpdate, nil, g, indices, tf.zeros_like(updates))
  local si = static_shape(indices)
  local k = si and si[2]
  if not k then raise("ValueError", "the gradient of TensorScatterUpdate needs indices of a known shape [n, k]", 3) end
  local idx = tf.cast(indices, tf.int32)
  local shape = tf.shape(t)
  local flat = tf.gather(idx, 0, 1)
  for j = 1, k - 1 do flat = flat * tf.gather(shape, j) + tf.gather(idx, j, 1) end
  local rows = tf.reshape(g, tf.concat({ tf.constant({ -1 }), tf.slice(shape, { k }, { -1 }) }, 0))
  return { dt, nil, as_shape_of(tf.gather(rows, flat), updates) }
end
-- TensorListSetItem(buffer, index, item): row `index` of the result is
-- item, the other rows the buffer's (a rank-1 "fresh" buffer of a
-- non-scalar element only gives the row count: no gradient flows to it).
GRAD.TensorListSetItem = function(n, dy)
  local buf, index, item = n.inputs[1], n.inputs[2], n.inputs[3]
  local g = dy[1]
  local ditem = as_shape_of(tf.gather(g, index), item)
  local _, _, sb = core.info(buf)
  local _, _, si = core.info(item)
  if not sb or not si then
    raise("ValueError", "the gradient of TensorListSetItem needs the ranks of the buffer and the item", 3)
  end
  local dbuf
  if #sb == 1 and #si > 0 then
    dbuf = tf.zeros_like(buf)
  else
    local cleared = op(H.TensorListSetItem, { resize = true }, g, index, tf.zeros_like(item))
    dbuf = tf.slice(cleared, tf.zeros_like(tf.shape(buf)), tf.shape(buf))
  end
  return { dbuf, nil, ditem }
end
GRAD.UnsortedSegmentSum = function(n, dy)
  return { tf.gather(dy[1], n.inputs[2]) }
end
GRAD.Fill = function(_, dy) return { nil, tf.reduce_sum(dy[1]) } end

-- Neural network ops --------------------------------------------------------
GRAD.Softmax = function(n, dy)
  local y = n.outputs[1]
  return { y * (dy[1] - tf.reduce_sum(dy[1] * y, -1, { keepdims = true })) }
end
GRAD.LogSoftmax = function(n, dy)
  local y = n.outputs[1]
  return { dy[1] - tf.exp(y) * tf.reduce_sum(dy[1], -1, { keepdims = true }) }
end
-- The cross-entropy ops return (loss, backprop) with backprop =
-- softmax(logits) - labels. A gradient reaching backprop (second
-- derivatives: the loss's gradient is that output) flows through the
-- softmax's Jacobian into the logits, and negated into dense labels.
local function softmax_backprop_grad(logits, gg)
  local p = tf.nn.softmax(logits)
  return (gg - tf.reduce_sum(gg * p, -1, { keepdims = true })) * p
end
GRAD.SoftmaxCrossEntropyWithLogits = function(n, dy, present)
  local logits = n.inputs[1]
  local g = tf.expand_dims(dy[1], -1)
  local dlogits, dlabels = g * n.outputs[2], g * -tf.nn.log_softmax(logits)
  if present == nil or present[2] then
    dlogits = dlogits + softmax_backprop_grad(logits, dy[2])
    dlabels = dlabels - dy[2]
  end
  return { dlogits, dlabels }
end
GRAD.SparseSoftmaxCrossEntropyWithLogits = function(n, dy, present)
  local dlogits = tf.expand_dims(dy[1], -1) * n.outputs[2]
  if present == nil or present[2] then
    dlogits = dlogits + softmax_backprop_grad(n.inputs[1], dy[2])
  end
  return { dlogits }
end
local function data_format(n)
  return { data_format = n.attrs and n.attrs.data_format or "NHWC" }
end
GRAD.BiasAdd = function(n, dy)
  return { dy[1], op(H.BiasAddGrad, data_format(n), dy[1]) }
end
-- BiasAddGrad sums all but the channel axis: its gradient spreads the
-- channel values back over that shape.
GRAD.BiasAddGrad = function(n, g)
  local dy = n.inputs[1]
  local sd = static_shape(dy)
  local rank = sd and #sd or nil
  local nchw = n.attrs and n.attrs.data_format == "NCHW"
  local shaped
  if rank then
    local s = {}
    for i = 1, rank do s[i] = 1 end
    s[nchw and 2 or rank] = -1
    shaped = tf.reshape(g[1], s)
  else
    local ones = tf.ones_like(tf.shape(dy))
    local axis = nchw and 1 or tf.rank(dy) - 1
    local s = ones - tf.one_hot(axis, tf.rank(dy), { dtype = tf.int32 }) * 2
    shaped = tf.reshape(g[1], s)
  end
  return { tf.broadcast_to(shaped, sd or tf.shape(dy)) }
end
local function conv_attrs(n)
  local a = n.attrs or {}
  return { strides = a.strides, padding = a.padding, dilations = a.dilations,
    data_format = a.data_format, explicit_paddings = a.explicit_paddings }
end
local function shape_tensor(x)
  local s = static_shape(x)
  if s then return tf.constant(s, tf.int32) end
  return tf.shape(x)
end
GRAD.Conv2D = function(n, dy)
  local x, w = n.inputs[1], n.inputs[2]
  local attrs = conv_attrs(n)
  return {
    op(H.Conv2DBackpropInput, attrs, shape_tensor(x), w, dy[1]),
    op(H.Conv2DBackpropFilter, attrs, x, shape_tensor(w), dy[1]),
  }
end
-- Both backprops are linear in each of their tensor inputs (as TF's
-- _Conv2DBackpropInputGrad and _Conv2DBackpropFilterGrad).
GRAD.Conv2DBackpropInput = function(n, g)
  local w, dy = n.inputs[2], n.inputs[3]
  local attrs = conv_attrs(n)
  return { nil,
    op(H.Conv2DBackpropFilter, attrs, g[1], shape_tensor(w), dy),
    op(H.Conv2D, attrs, g[1], w) }
end
GRAD.Conv2DBackpropFilter = function(n, g)
  local x, dy = n.inputs[1], n.inputs[3]
  local attrs = conv_attrs(n)
  return {
    op(H.Conv2DBackpropInput, attrs, shape_tensor(x), g[1], dy),
    nil,
    op(H.Conv2D, attrs, x, g[1]) }
end
GRAD.ResizeBilinear = function(n, dy)
  local a = n.attrs or {}
  return { op(H.ResizeBilinearGrad, { align_corners = a.align_corners or false,
    half_pixel_centers = a.half_pixel_centers or false }, dy[1], n.inputs[1]) }
end

-- Control flow -----------------------------------------------------------
-- A traced cond carries its own gradient (a cond of the branches'
-- gradients, control_flow.lua): it needs the branch functions.
GRAD.If = function(n, dys) return n.attrs._gradient(n, dys) end
GRAD.StatelessIf = GRAD.If
-- The loop's gradient is recorded by tf.while_loop itself (it needs the
-- per-iteration values); the op's own entry adds nothing.
GRAD.While = function() return {} end
GRAD.StatelessWhile = GRAD.While

tf._gradients = GRAD
end
