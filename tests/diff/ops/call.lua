-- call.lua — PartitionedCall and StatefulPartitionedCall: a tf.func called
-- inside another keeps its own trace and is called through one of these
-- nodes. Eagerly the inner function runs its own graph; traced, the outer
-- graph calls it; values and gradients through the call must be the same
-- bit for bit, and the composite's.

-- One inner function per entry (not per case): each case is a new shape or
-- dtype, a new trace of the same function, as a program's helper would be.
local inner = tf.func(function(x, y) return tf.sin(x) * y + x end, { autograph = false, name = "diff_inner" })
local scale = tf.Variable(1.5, { dtype = tf.float64, name = "diff_scale" })
local inner_stateful = tf.func(function(x) return x * tf.cast(scale, x.dtype) - tf.square(x) end,
  { autograph = false, name = "diff_inner_stateful" })

local function float_pair(r, g, grad)
  local dt = grad and "float64" or r.pick(gen.FLOATS)
  local shape = g.shape(r, r.range(0, 3), 4)
  return dt, shape
end

return {
  {
    name = "call", ops = { "PartitionedCall" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.5)
      local dt, shape = float_pair(r, g, grad)
      local kind = grad and "smooth" or "any"
      return { inputs = { g.rand(r, dt, shape, kind), g.rand(r, dt, shape, kind) }, grad = grad }
    end,
    call = function(_, x, y) return inner(x, y) end,
    grad = { 1, 2 },
  },
  {
    name = "call_stateful", ops = { "StatefulPartitionedCall" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.5)
      local dt, shape = float_pair(r, g, grad)
      return { inputs = { g.rand(r, dt, shape, grad and "smooth" or "any") }, grad = grad }
    end,
    call = function(_, x) return inner_stateful(x) end,
    grad = { 1 },
  },
}
