-- capture_gradient_spec.lua — an eager tensor a tf.func captures (an
-- upvalue, not an argument) is an input of the call, as in TF (a
-- ConcreteFunction's captured_inputs are fed to its call op, and the tape
-- records the call with them), so a tape that watches it gets its gradient.
-- Issue 11.

local tf = tf or require("moonflow")

local function value(t) return t:numpy() end

describe("gradients of tensors a tf.func captures", function()
  it("a small captured scalar (embedded as a Const) gets its gradient", function()
    local x = tf.constant(3.0)
    local f = tf.func(function() return x * x end)
    local t = tf.GradientTape()
    t:watch(x)
    local y = f()
    t:stop()
    local g = t:gradient(y, x)
    assert.is_not_nil(g)
    assert.are.equal(6.0, value(g))
  end)

  it("a large captured tensor (a Placeholder capture) gets its gradient", function()
    local x = tf.ones({ 200 })
    local f = tf.func(function() return tf.reduce_sum(x * x) end)
    local t = tf.GradientTape()
    t:watch(x)
    local y = f()
    t:stop()
    local g = t:gradient(y, x)
    assert.is_not_nil(g)
    local got = value(g)
    assert.are.equal(200, #got)
    for i = 1, 200 do assert.are.equal(2.0, got[i]) end
  end)

  it("a second call of the same trace still connects the capture", function()
    local x = tf.constant(2.0)
    local f = tf.func(function() return x * x * x end)
    f()
    local t = tf.GradientTape()
    t:watch(x)
    local y = f()
    t:stop()
    assert.are.equal(12.0, value(t:gradient(y, x)))
  end)

  it("a capture and an argument both get their gradients", function()
    local x = tf.constant(3.0)
    local f = tf.func(function(a) return a * x end)
    local a = tf.constant(5.0)
    local t = tf.GradientTape({ persistent = true })
    t:watch(x)
    t:watch(a)
    local y = f(a)
    t:stop()
    assert.are.equal(5.0, value(t:gradient(y, x)))
    assert.are.equal(3.0, value(t:gradient(y, a)))
  end)

  it("two Lua tensors sharing one value are two captures (stop_gradient blocks its own)", function()
    local x = tf.constant(3.0)
    local s = tf.stop_gradient(x)
    local f = tf.func(function() return s * x end)
    local t = tf.GradientTape()
    t:watch(x)
    local y = f()
    t:stop()
    assert.are.equal(3.0, value(t:gradient(y, x)))
  end)

  it("a captured variable still gets its gradient", function()
    local v = tf.Variable({ 1.0, 2.0 })
    local f = tf.func(function() return tf.reduce_sum(v * v) end)
    local t = tf.GradientTape()
    local y = f()
    t:stop()
    assert.are.same({ 2.0, 4.0 }, value(t:gradient(y, v)))
  end)

  it("a capture used in a loop or a branch of the function gets its gradient", function()
    local x = tf.constant(3.0)
    local loop = tf.func(function()
      local a, i = tf.constant(1.0), tf.constant(0)
      while i < 2 do
        a = a * x
        i = i + 1
      end
      return a
    end)
    local branch = tf.func(function()
      return tf.cond(x > 2.0, function() return x * x end, function() return x end)
    end)
    for _, f in ipairs({ loop, branch }) do
      local t = tf.GradientTape()
      t:watch(x)
      local y = f()
      t:stop()
      local g = t:gradient(y, x)
      assert.is_not_nil(g)
      assert.are.equal(6.0, value(g))
    end
  end)

  it("inside an outer tf.func trace the capture gets its gradient too", function()
    local x = tf.constant(3.0)
    local f = tf.func(function() return x * x end)
    local outer = tf.func(function()
      local t = tf.GradientTape()
      t:watch(x)
      local y = f()
      t:stop()
      return t:gradient(y, x)
    end)
    local g = outer()
    assert.is_not_nil(g)
    assert.are.equal(6.0, value(g))
  end)
end)
