-- shape.lua — shape ops: Transpose Reshape ConcatV2 Pack Unpack ExpandDims
-- Squeeze Tile Pad MirrorPad MirrorPadGrad BroadcastTo Shape Size Rank
-- Fill ZerosLike OnesLike Range LinSpace. Invalid arguments (bad permutations, sizes, axes,
-- paddings) must raise TF's error type every way.

local ALL = { "float32", "float64", "int32", "int64", "bool" }

-- Any dtype; float64 with continuous values when the case checks gradients.
local function data(r, g, shape, grad)
  if grad then return g.rand(r, "float64", shape, "smooth") end
  return g.rand(r, r.pick(ALL), shape, "any")
end

local function permutation(r, n)
  local p = {}
  for i = 1, n do p[i] = i - 1 end
  for i = n, 2, -1 do
    local j = r.range(1, i)
    p[i], p[j] = p[j], p[i]
  end
  return p
end

return {
  {
    name = "transpose", ops = { "Transpose" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.4)
      local rank = r.range(0, 4)
      local perm = permutation(r, rank)
      if r.chance(0.2) then perm = nil
      elseif rank > 0 and r.chance(0.08) then perm[1] = r.pick({ rank, -1, perm[#perm] }) -- invalid
      end
      return { inputs = { data(r, g, g.shape(r, rank, 4), grad) }, attrs = { perm = perm }, grad = grad }
    end,
    call = function(a, x) return tf.transpose(x, a.perm) end,
    grad = { 1 },
  },
  {
    -- A shape argument known in part while tracing (core/ops/partial.h): the
    -- leading dimensions read with tf.shape, the rest flattened. No empty
    -- inputs: a -1 beside a 0 is "reshape" entry's business.
    name = "reshape_by_shape", ops = { "Reshape", "Shape", "StridedSlice", "ConcatV2" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.4)
      local rank = r.range(1, 3)
      return { inputs = { data(r, g, g.shape(r, rank, 4, false), grad) },
        attrs = { keep = r.range(0, rank) }, grad = grad }
    end,
    call = function(a, x)
      return tf.reshape(x, tf.concat({ tf.shape(x)[":" .. a.keep], { -1 } }, 0))
    end,
    grad = { 1 },
  },
  {
    name = "reshape", ops = { "Reshape" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.4)
      local shape = g.shape(r, r.range(0, 3), 4)
      local n = g.size(shape)
      local target = {}
      local left = n
      for f = 2, 4 do
        while left > 1 and left % f == 0 and r.chance(0.5) do
          target[#target + 1] = f
          left = left // f
        end
      end
      if left ~= 1 or r.chance(0.3) then target[#target + 1] = left end
      if #target > 0 and n > 0 and r.chance(0.3) then target[r.range(1, #target)] = -1 end
      if r.chance(0.08) then target[#target + 1] = 2 end -- wrong size (or not)
      return { inputs = { data(r, g, shape, grad) }, attrs = { shape = target }, grad = grad }
    end,
    call = function(a, x) return tf.reshape(x, a.shape) end,
    grad = { 1 },
  },
  {
    name = "concat", ops = { "ConcatV2" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.4)
      local rank = r.range(1, 3)
      local base = g.shape(r, rank, 3)
      local axis = r.range(-rank, rank - 1)
      local dt = grad and "float64" or r.pick(ALL)
      local xs = {}
      for i = 1, r.range(1, 3) do
        local s = g.copy(base)
        s[axis % rank + 1] = r.range(0, 3)
        if r.chance(0.04) and rank > 1 then s[(axis + 1) % rank + 1] = s[(axis + 1) % rank + 1] + 1 end
        xs[i] = g.rand(r, dt, s, grad and "smooth" or "any")
      end
      if r.chance(0.04) then axis = rank end
      return { inputs = xs, attrs = { axis = axis }, grad = grad }
    end,
    call = function(a, ...) return tf.concat({ ... }, a.axis) end,
    grad = "all",
  },
  {
    name = "stack", ops = { "Pack" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.4)
      local rank = r.range(0, 3)
      local shape = g.shape(r, rank, 3)
      local dt = grad and "float64" or r.pick(ALL)
      local xs = {}
      for i = 1, r.range(1, 3) do xs[i] = g.rand(r, dt, shape, grad and "smooth" or "any") end
      return { inputs = xs, attrs = { axis = r.range(-rank - 1 - (r.chance(0.05) and 1 or 0), rank) }, grad = grad }
    end,
    call = function(a, ...) return tf.stack({ ... }, a.axis) end,
    grad = "all",
  },
  {
    name = "unstack", ops = { "Unpack" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.4)
      local rank = r.range(1, 3)
      return { inputs = { data(r, g, g.shape(r, rank, 3), grad) }, attrs = { axis = r.range(-rank, rank - 1) },
        grad = grad }
    end,
    call = function(a, x) return tf.unstack(x, nil, a.axis) end,
    grad = { 1 },
    dynamic = false, -- tf.unstack needs the dimension to know how many results (TF's ValueError)
  },
  {
    name = "expand_dims", ops = { "ExpandDims" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.4)
      local rank = r.range(0, 3)
      return { inputs = { data(r, g, g.shape(r, rank, 3), grad) },
        attrs = { axis = r.range(-rank - 1 - (r.chance(0.05) and 1 or 0), rank + (r.chance(0.05) and 1 or 0)) },
        grad = grad }
    end,
    call = function(a, x) return tf.expand_dims(x, a.axis) end,
    grad = { 1 },
  },
  {
    name = "squeeze", ops = { "Squeeze" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.4)
      local rank = r.range(0, 4)
      local shape = g.shape(r, rank, 3)
      for i = 1, rank do if r.chance(0.4) then shape[i] = 1 end end
      local axis
      if r.chance(0.6) then
        axis = {}
        for i = 1, rank do
          if (shape[i] == 1 or r.chance(0.05)) and r.chance(0.6) then axis[#axis + 1] = i - 1 - (r.chance(0.3) and rank or 0) end
        end
      end
      return { inputs = { data(r, g, shape, grad) }, attrs = { axis = axis }, grad = grad }
    end,
    call = function(a, x) return tf.squeeze(x, a.axis) end,
    grad = { 1 },
    dynamic = false, -- squeeze without axes needs known dimensions (TF: an unknown-rank result)
  },
  {
    name = "tile", ops = { "Tile" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.4)
      local rank = r.range(0, 3)
      local m = {}
      for i = 1, rank do m[i] = r.range(0, 3) end
      if r.chance(0.05) then m[#m + 1] = 2 end -- wrong length
      return { inputs = { data(r, g, g.shape(r, rank, 3), grad) }, attrs = { multiples = m }, grad = grad }
    end,
    call = function(a, x) return tf.tile(x, a.multiples) end,
    grad = { 1 },
  },
  {
    name = "pad", ops = { "Pad" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.4)
      local rank = r.range(0, 3)
      local x = data(r, g, g.shape(r, rank, 3), grad)
      local p = {}
      for i = 1, rank do p[i] = { r.range(0, 2), r.range(0, 2) } end
      if rank > 0 and r.chance(0.05) then p[1][1] = -1 end -- negative: invalid
      local cv
      if r.chance(0.5) then
        cv = g.value(r, x.dtype, grad and "smooth" or "any")
        if gen.is_float(x.dtype) and r.chance(0.2) then cv = -0.0 end
        if x.dtype == "float32" and cv == cv and math.abs(cv) < 3e38 then cv = string.unpack("<f", string.pack("<f", cv)) end
      end
      -- a Lua number or (PadV2's path for any value) a tensor
      return { inputs = { x }, attrs = { paddings = p, constant_values = cv, as_tensor = cv ~= nil and r.chance(0.4) },
        grad = grad }
    end,
    call = function(a, x)
      local cv = a.constant_values
      if a.as_tensor then cv = tf.constant(cv, x.dtype) end
      return tf.pad(x, a.paddings, nil, { constant_values = cv })
    end,
    grad = { 1 },
  },
  {
    -- tf.pad's REFLECT and SYMMETRIC modes (any case); the gradient is
    -- MirrorPadGrad. Paddings mostly within the mirror (REFLECT: < the
    -- dimension, SYMMETRIC: <=), sometimes past it or negative.
    name = "mirror_pad", ops = { "MirrorPad", "MirrorPadGrad" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.4)
      local rank = r.range(0, 3)
      local x = data(r, g, g.shape(r, rank, 3), grad)
      local mode = r.pick({ "REFLECT", "SYMMETRIC", "reflect", "symmetric" })
      local reach = mode:upper() == "REFLECT" and 1 or 0
      local p = {}
      for i = 1, rank do
        local most = math.max(x.shape[i] - reach, 0)
        p[i] = { r.range(0, most), r.range(0, most) }
      end
      if rank > 0 and r.chance(0.05) then p[rank][2] = x.shape[rank] + 1 - reach end -- past the mirror
      if rank > 0 and r.chance(0.05) then p[1][1] = -1 end -- negative: invalid
      return { inputs = { x }, attrs = { paddings = p, mode = mode }, grad = grad }
    end,
    call = function(a, x) return tf.pad(x, a.paddings, a.mode) end,
    grad = { 1 },
  },
  {
    -- MirrorPadGrad called as MirrorPad's gradient calls it: the incoming
    -- gradient folded back; its own gradient is MirrorPad.
    name = "mirror_pad_grad", ops = { "MirrorPadGrad", "MirrorPad" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.4)
      local rank = r.range(0, 3)
      local mode = r.pick({ "REFLECT", "SYMMETRIC" })
      local reach = mode == "REFLECT" and 1 or 0
      local shape, p = {}, {}
      for i = 1, rank do
        local d = r.range(reach, 3)
        p[i] = { r.range(0, math.max(d - reach, 0)), r.range(0, math.max(d - reach, 0)) }
        shape[i] = d + p[i][1] + p[i][2]
      end
      if rank > 0 and r.chance(0.05) then p[1][2] = shape[1] end -- more than the gradient holds
      local dt = grad and "float64" or r.pick({ "float32", "float64", "int32", "int64" })
      return { inputs = { g.rand(r, dt, shape, grad and "smooth" or "finite") },
        attrs = { paddings = p, mode = mode }, grad = grad }
    end,
    call = function(a, dy)
      local p = #a.paddings > 0 and tf.constant(a.paddings, tf.int32) or tf.zeros({ 0, 2 }, tf.int32)
      return core.op("MirrorPadGrad", { mode = a.mode }, dy, p)
    end,
    grad = { 1 },
  },
  {
    name = "broadcast_to", ops = { "BroadcastTo" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.4)
      local target = g.shape(r, r.range(0, 3), 3)
      local s = {}
      for i = r.range(1, #target + 1), #target do s[#s + 1] = r.chance(0.4) and 1 or target[i] end
      if #s > 0 and r.chance(0.05) then s[1] = s[1] + 1 end
      return { inputs = { data(r, g, s, grad) }, attrs = { shape = target }, grad = grad }
    end,
    call = function(a, x) return tf.broadcast_to(x, a.shape) end,
    grad = { 1 },
  },
  {
    name = "shape_size_rank", ops = { "Shape", "Size", "Rank" },
    gen = function(r, g)
      return { inputs = { g.rand(r, r.pick(ALL), g.shape(r, r.range(0, 4), 3), "any") },
        attrs = { out = r.pick({ "int32", "int64" }) } }
    end,
    -- tf.rank and, with known dimensions, tf.shape/size would fold to
    -- constants while tracing: the unknown-dimension mode keeps them ops
    call = function(a, x) return tf.shape(x, tf[a.out]), tf.size(x, tf[a.out]), tf.rank(x) end,
  },
  {
    name = "fill", ops = { "Fill" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.4)
      local dims = g.shape(r, r.range(0, 3), 3)
      if r.chance(0.04) and #dims > 0 then dims[1] = -1 end
      return { inputs = { data(r, g, {}, grad) }, attrs = { dims = dims }, grad = grad }
    end,
    call = function(a, v) return tf.fill(a.dims, v) end,
    grad = { 1 },
  },
  {
    name = "zeros_ones_like", ops = { "ZerosLike", "OnesLike" },
    gen = function(r, g)
      return { inputs = { g.rand(r, r.pick(ALL), g.shape(r, r.range(0, 3), 3), "any") } }
    end,
    call = function(_, x) return tf.zeros_like(x), tf.ones_like(x) end,
  },
  {
    name = "range", ops = { "Range" },
    gen = function(r, g)
      local dt = r.pick(gen.NUMERIC)
      local function v(lo, hi)
        if gen.is_float(dt) then
          local x = r.chance(0.5) and r.range(lo, hi) + 0.0 or r.uniform(lo, hi)
          if dt == "float32" then x = string.unpack("<f", string.pack("<f", x)) end
          return x
        end
        return r.range(lo, hi)
      end
      local start, delta = v(-5, 5), v(-3, 3)
      local limit = start + delta * r.uniform(0, 6) + (r.chance(0.1) and -delta * 2 or 0)
      if not gen.is_float(dt) then limit = math.floor(limit) end
      if r.chance(0.05) then delta = gen.is_float(dt) and 0.0 or 0 end
      if dt == "float32" then limit = string.unpack("<f", string.pack("<f", limit)) end
      return { inputs = { g.T(dt, {}, { start }), g.T(dt, {}, { limit }), g.T(dt, {}, { delta }) } }
    end,
    call = function(_, s, l, d) return tf.range(s, l, d) end,
    dynamic = false, -- scalars: no dimension to hide
  },
  {
    name = "linspace", ops = { "LinSpace" },
    gen = function(r, g)
      local dt = r.pick(gen.FLOATS)
      local grad = dt == "float64" and r.chance(0.5)
      local n = r.range(0, 6)
      return { inputs = { g.rand(r, dt, {}, "finite"), g.rand(r, dt, {}, "finite") }, attrs = { num = n },
        grad = false }
    end,
    call = function(a, s, e) return tf.linspace(s, e, a.num) end,
    dynamic = false,
  },
}
