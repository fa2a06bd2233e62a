-- pool.lua — MaxPool AvgPool and, through their gradients (and
-- MaxPoolGrad's, second order), MaxPoolGrad MaxPoolGradGrad AvgPoolGrad.
-- Gradient cases use continuous values, so no window has a tie.

-- No NaN: TF's CPU max pool leaves it to Eigen's order of comparisons.
local function pool_case(r, g, max)
  local grad = g.grad_case(r, 0.5)
  local dt = grad and "float64" or r.pick(gen.FLOATS)
  local shape = { r.range(1, 2), r.range(1, 6), r.range(1, 6), r.range(1, 2) }
  local k = { r.range(1, 3), r.range(1, 3) }
  local s = { r.range(1, 3), r.range(1, 3) }
  local kind = grad and "smooth" or ((max or r.chance(0.8)) and "finite" or "any")
  return { inputs = { g.rand(r, dt, shape, kind) },
    attrs = { ksize = k, strides = s, padding = r.pick({ "VALID", "SAME" }) }, grad = grad }
end

return {
  {
    name = "max_pool", ops = { "MaxPool", "MaxPoolGrad" },
    gen = function(r, g) return pool_case(r, g, true) end,
    call = function(a, x) return tf.nn.max_pool2d(x, a.ksize, a.strides, a.padding) end,
    grad = { 1 },
  },
  {
    name = "avg_pool", ops = { "AvgPool", "AvgPoolGrad" },
    gen = pool_case,
    call = function(a, x) return tf.nn.avg_pool2d(x, a.ksize, a.strides, a.padding) end,
    grad = { 1 },
  },
  {
    -- MaxPoolGrad called as max_pool2d's gradient calls it: its gradient
    -- with respect to the incoming gradient is MaxPoolGradGrad
    name = "max_pool_grad", ops = { "MaxPoolGrad", "MaxPoolGradGrad" },
    gen = function(r, g)
      local c = pool_case(r, g, true)
      local x = c.inputs[1]
      local ok, y = pcall(tf.nn.max_pool2d, tf.reshape(tf.constant(x.values, tf[x.dtype]), x.shape),
        c.attrs.ksize, c.attrs.strides, c.attrs.padding)
      -- (a window the input cannot hold: the case raises every way)
      c.inputs[2] = g.rand(r, x.dtype, ok and y.shape:as_list() or x.shape, "smooth")
      return c
    end,
    call = function(a, x, dy)
      local y = tf.nn.max_pool2d(x, a.ksize, a.strides, a.padding)
      local function four(v) return { 1, v[1], v[2], 1 } end
      return core.op("MaxPoolGrad", { ksize = four(a.ksize), strides = four(a.strides), padding = a.padding,
        data_format = "NHWC" }, x, y, dy)
    end,
    grad = { 1, 2 },
  },
}
