-- composite.lua — public functions TF composes from registry ops, checked
-- as the user calls them: clip_by_value (Minimum, Maximum), boolean_mask
-- (Where, GatherV2), l2_normalize (Sum, Rsqrt), nn.moments (Mean,
-- SquaredDifference, StopGradient). Their ops have cases of their own;
-- these check the composition (broadcast bounds, masks over leading axes,
-- the epsilon floor, moments' stopped mean).

local function xs(r, g, shape, grad)
  if grad then return g.rand(r, "float64", shape, "smooth") end
  return g.rand(r, r.pick(gen.FLOATS), shape, r.chance(0.8) and "finite" or "any")
end

return {
  {
    name = "clip_by_value", ops = { "Minimum", "Maximum" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.5)
      local x = xs(r, g, g.shape(r, r.range(0, 3), 4), grad)
      local lo = g.value(r, "float64", "smooth") - 1
      local hi = lo + r.uniform(0, 3)
      if x.dtype == "float32" then
        lo, hi = string.unpack("<f", string.pack("<f", lo)), string.unpack("<f", string.pack("<f", hi))
      end
      return { inputs = { x }, attrs = { lo = lo, hi = hi }, grad = grad }
    end,
    call = function(a, x) return tf.clip_by_value(x, a.lo, a.hi) end,
    grad = { 1 },
  },
  {
    name = "boolean_mask", ops = { "Where", "GatherV2" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.5)
      local shape = g.shape(r, r.range(1, 3), 4)
      local k = r.range(1, #shape)
      local mshape = { table.unpack(shape, 1, k) }
      return { inputs = { xs(r, g, shape, grad), g.rand(r, "bool", mshape) }, grad = grad }
    end,
    call = function(_, x, m) return tf.boolean_mask(x, m) end,
    grad = { 1 },
  },
  {
    name = "l2_normalize", ops = { "Sum", "Rsqrt" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.5)
      local rank = r.range(1, 3)
      local x = xs(r, g, g.shape(r, rank, 4, not grad), grad)
      -- sometimes all zeros along an axis: the epsilon floor
      if not grad and r.chance(0.2) then for i in ipairs(x.values) do x.values[i] = 0.0 end end
      return { inputs = { x }, attrs = { axis = r.range(-rank, rank - 1) }, grad = grad }
    end,
    call = function(a, x) return tf.math.l2_normalize(x, a.axis) end,
    grad = { 1 },
  },
  {
    name = "moments", ops = { "Mean", "SquaredDifference", "StopGradient" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.5)
      local rank = r.range(1, 3)
      local axes = {}
      for i = 0, rank - 1 do if r.chance(0.5) then axes[#axes + 1] = i end end
      if #axes == 0 then axes[1] = 0 end
      return { inputs = { xs(r, g, g.shape(r, rank, 4, false), grad) }, attrs = { axes = axes, keepdims = r.chance(0.3) },
        grad = grad }
    end,
    call = function(a, x) return tf.nn.moments(x, a.axes, nil, a.keepdims) end,
    grad = { 1 },
  },
}
