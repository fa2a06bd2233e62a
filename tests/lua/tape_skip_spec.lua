-- tape_skip_spec.lua — a tape leaves out gradients nobody can ask for, as
-- TF's does (tape.h's unneeded_gradients, handed to the rules of
-- math_grad.py as skip_input_indices): an input neither watched, nor made
-- by a recorded op, nor a source of the gradient gets none computed. The
-- graphs below are traced, unoptimised, so what the backward pass made is
-- what they hold; the op counts are those TF's own tape gives.
local tf = tf or require("moonflow")
local H = require("helpers")

local function count(cf, type)
  local n = 0
  for _, t in ipairs(H.op_types(cf)) do if t == type then n = n + 1 end end
  return n
end

describe("a tape skips gradients nobody asked for", function()
  it("x @ w with x unwatched: one product for dw, not two", function()
    local w = tf.Variable(tf.reshape(tf.range(6.0), { 3, 2 }))
    local f = tf.func(function(x)
      local t = tf.GradientTape()
      local y = tf.reduce_sum(tf.matmul(x, w))
      t:stop()
      return t:gradient(y, w)
    end)
    local x = tf.constant({ { 1.0, 2.0, 3.0 }, { 4.0, 5.0, 6.0 } })
    local cf = f:get_concrete_function(x)
    assert.are.equal(2, count(cf, "MatMul")) -- the forward product and dw = x^T dy
    -- dw[i][j] = sum over rows of x[.][i]
    assert.are.same({ { 5, 5 }, { 7, 7 }, { 9, 9 } }, f(x):numpy())
  end)

  it("a watched x is needed: both products", function()
    local w = tf.Variable(tf.reshape(tf.range(6.0), { 3, 2 }))
    local f = tf.func(function(x)
      local t = tf.GradientTape()
      t:watch(x)
      local y = tf.reduce_sum(tf.matmul(x, w))
      t:stop()
      return t:gradient(y, w)
    end)
    local cf = f:get_concrete_function(tf.constant({ { 1.0, 2.0, 3.0 } }))
    assert.are.equal(3, count(cf, "MatMul"))
  end)

  it("eager results are the same either way", function()
    local w = tf.Variable({ { 1.0, -2.0 }, { 0.5, 3.0 } })
    local x = tf.constant({ { 2.0, 1.0 }, { -1.0, 4.0 } })
    local t1 = tf.GradientTape()
    local y1 = tf.reduce_sum(tf.matmul(x, w) * tf.matmul(x, w))
    t1:stop()
    local t2 = tf.GradientTape({ persistent = true })
    t2:watch(x)
    local y2 = tf.reduce_sum(tf.matmul(x, w) * tf.matmul(x, w))
    t2:stop()
    assert.are.same(t2:gradient(y2, w):numpy(), t1:gradient(y1, w):numpy())
    assert.are.same(y2:numpy(), y1:numpy())
  end)

  it("v * scalar constant: the backward pass is one Mul (TF's _MulGrad shortcut)", function()
    local v = tf.Variable({ 1.0, 2.0, 3.0 })
    local f = tf.func(function()
      local t = tf.GradientTape()
      local y = tf.reduce_sum(v * 3.0)
      t:stop()
      return t:gradient(y, v)
    end)
    local cf = f:get_concrete_function()
    -- forward v * 3 and backward dy * 3; no dy * v for the constant
    assert.are.equal(2, count(cf, "Mul"))
    assert.are.same({ 3, 3, 3 }, f():numpy())
  end)

  it("a broadcast constant's gradient is not summed down: no Sum for it", function()
    local b = tf.Variable({ 1.0, 2.0, 3.0 })
    local c = tf.constant({ { 1.0, 2.0, 3.0 }, { 4.0, 5.0, 6.0 } })
    local f = tf.func(function()
      local t = tf.GradientTape()
      local y = tf.reduce_sum((b - c) * c)
      t:stop()
      return t:gradient(y, b)
    end)
    local cf = f:get_concrete_function()
    -- y = sum((b - c) * c): db = sum over rows of c. Kept: dy * c for
    -- (b - c), its sum down to b's shape. Skipped: dy * (b - c) for c, and
    -- -g for c in the Sub.
    assert.are.equal(2, count(cf, "Sum")) -- reduce_sum's own, and db's
    assert.are.equal(0, count(cf, "Neg"))
    assert.are.same({ 5, 7, 9 }, f():numpy())
  end)

  it("a source is never skipped, watched or not (TF: sources count as needed)", function()
    local x = tf.constant(3.0)
    local c = tf.constant(2.0)
    local t = tf.GradientTape({ persistent = true })
    t:watch(x)
    local y = x * c
    t:stop()
    assert.are.equal(2.0, t:gradient(y, x):numpy())
    assert.are.equal(3.0, t:gradient(y, c):numpy())
  end)
end)
