-- index.lua — Slice StridedSlice GatherV2 Where OneHot UnsortedSegmentSum
-- (TensorScatterUpdate: array.lua): in-range and out-of-range positions (TF's CPU
-- kernels raise InvalidArgumentError for the latter), every mask of
-- strided_slice, batch_dims.

local ALL = { "float32", "float64", "int32", "int64", "bool" }

local function data(r, g, shape, grad)
  if grad then return g.rand(r, "float64", shape, "smooth") end
  return g.rand(r, r.pick(ALL), shape, "any")
end

return {
  {
    name = "slice", ops = { "Slice" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.4)
      local shape = g.shape(r, r.range(0, 3), 4)
      local b, s = {}, {}
      for i, d in ipairs(shape) do
        b[i] = r.range(0, d)
        s[i] = r.chance(0.3) and -1 or r.range(0, d - b[i])
        if r.chance(0.04) then s[i] = d - b[i] + 1 end -- past the end
      end
      return { inputs = { data(r, g, shape, grad) }, attrs = { begin = b, size = s }, grad = grad }
    end,
    call = function(a, x) return tf.slice(x, a.begin, a.size) end,
    grad = { 1 },
  },
  {
    name = "strided_slice", ops = { "StridedSlice" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.4)
      local shape = g.shape(r, r.range(0, 4), 5)
      local b, e, s = {}, {}, {}
      local m = { begin_mask = 0, end_mask = 0, ellipsis_mask = 0, new_axis_mask = 0, shrink_axis_mask = 0 }
      local n = r.range(0, #shape + 1)
      local ellipsis_at = r.chance(0.25) and r.range(0, n) or -1
      for i = 0, n - 1 do
        local d = shape[i + 1] or 3
        b[i + 1] = r.range(-d - 1, d + 1)
        e[i + 1] = r.range(-d - 1, d + 1)
        s[i + 1] = r.pick({ 1, 1, 2, -1, -2, 3 })
        if r.chance(0.03) then s[i + 1] = 0 end -- invalid
        if r.chance(0.3) then m.begin_mask = m.begin_mask | (1 << i) end
        if r.chance(0.3) then m.end_mask = m.end_mask | (1 << i) end
        if i == ellipsis_at then m.ellipsis_mask = m.ellipsis_mask | (1 << i)
        elseif r.chance(0.1) then m.new_axis_mask = m.new_axis_mask | (1 << i)
        elseif r.chance(0.2) then
          m.shrink_axis_mask = m.shrink_axis_mask | (1 << i)
          b[i + 1] = d == 0 and 0 or r.range(-d - (r.chance(0.05) and 1 or 0), d - 1 + (r.chance(0.05) and 1 or 0))
        end
      end
      local a = g.copy(m)
      a.begin, a["end"], a.strides = b, e, s
      return { inputs = { data(r, g, shape, grad) }, attrs = a, grad = grad }
    end,
    call = function(a, x)
      return tf.strided_slice(x, a.begin, a["end"], a.strides, { begin_mask = a.begin_mask,
        end_mask = a.end_mask, ellipsis_mask = a.ellipsis_mask, new_axis_mask = a.new_axis_mask,
        shrink_axis_mask = a.shrink_axis_mask })
    end,
    grad = { 1 },
  },
  {
    name = "gather", ops = { "GatherV2" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.4)
      local rank = r.range(1, 3)
      local shape = g.shape(r, rank, 4)
      local axis = r.range(-rank, rank - 1)
      local bd = 0
      local ishape = g.shape(r, r.range(0, 2), 3)
      if rank >= 2 and r.chance(0.25) then
        bd = 1
        axis = r.range(1, rank - 1)
        ishape = { shape[1], r.range(0, 3) }
      end
      local d = shape[axis % rank + 1]
      local iv = {}
      for k = 1, g.size(ishape) do
        iv[k] = d > 0 and r.range(0, d - 1) or 0
        if r.chance(0.02) then iv[k] = r.pick({ d, -1 }) end -- out of range
      end
      return { inputs = { data(r, g, shape, grad), g.T(r.pick(gen.INTS), ishape, iv) },
        attrs = { axis = axis, batch_dims = bd }, grad = grad }
    end,
    call = function(a, p, i) return tf.gather(p, i, a.axis, a.batch_dims) end,
    grad = { 1 },
  },
  {
    name = "where", ops = { "Where" },
    gen = function(r, g)
      local dt = r.pick(ALL)
      local x = g.rand(r, dt, g.shape(r, r.range(0, 3), 4), "any")
      local zero = 0
      if dt == "bool" then zero = false elseif gen.is_float(dt) then zero = 0.0 end
      for k in ipairs(x.values) do if r.chance(0.4) then x.values[k] = zero end end
      return { inputs = { x } }
    end,
    call = function(_, x) return tf.where(x) end,
  },
  {
    name = "one_hot", ops = { "OneHot" },
    gen = function(r, g)
      local depth = r.range(0, 4)
      local ishape = g.shape(r, r.range(0, 2), 3)
      local iv = {}
      for k = 1, g.size(ishape) do iv[k] = r.range(-1, depth) end
      local dt = r.pick(ALL)
      local on, off = g.value(r, dt, "finite"), g.value(r, dt, "finite")
      if dt == "float32" then on, off = string.unpack("<f", string.pack("<f", on)), string.unpack("<f", string.pack("<f", off)) end
      return { inputs = { g.T(r.pick({ "int32", "int64" }), ishape, iv) },
        attrs = { depth = depth, on = on, off = off, axis = r.range(-1, #ishape), dtype = dt } }
    end,
    call = function(a, i) return tf.one_hot(i, a.depth, a.on, a.off, a.axis, tf[a.dtype]) end,
  },
  {
    name = "unsorted_segment_sum", ops = { "UnsortedSegmentSum" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.4)
      local shape = g.shape(r, r.range(1, 3), 4)
      -- no gradient case with 0 segments: TF's gradient (a gather from the
      -- empty gradient) raises there too
      local num = r.range(grad and 1 or 0, 4)
      local ids = {}
      local idshape = { table.unpack(shape, 1, r.range(1, #shape)) }
      for k = 1, g.size(idshape) do
        ids[k] = r.range(-1, num - 1)
        if r.chance(0.02) then ids[k] = num end -- out of range
      end
      local dt = grad and "float64" or r.pick(gen.NUMERIC)
      return { inputs = { g.rand(r, dt, shape, grad and "smooth" or "finite"), g.T(r.pick(gen.INTS), idshape, ids) },
        attrs = { num = num }, grad = grad }
    end,
    call = function(a, x, ids) return tf.math.unsorted_segment_sum(x, ids, a.num) end,
    grad = { 1 },
  },
}
