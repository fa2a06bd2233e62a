-- call_gradient_spec.lua — gradients through calls of a tf.func (issue 11,
-- section 2): the backward pass uses what the forward call recorded and
-- never runs the function again; gradients of gradients are recorded.

local tf = tf or require("moonflow")

local function num(x) return x:numpy() end

describe("a tape over a call of a tf.func", function()
  it("does not run the function again: gradient 2.0 and v stays 2.0", function()
    local v = tf.Variable(1.0)
    local f = tf.func(function(x) v:assign_add(1.0); return x * v end)
    local x = tf.constant(2.0)
    local tape = tf.GradientTape()
    tape:watch(x)
    local y = f(x)
    assert.are.equal(4.0, num(y))
    assert.are.equal(2.0, num(v:read_value()))
    assert.are.equal(2.0, num(tape:gradient(y, x)))
    assert.are.equal(2.0, num(v:read_value()))
  end)

  it("runs a tf.print inside the function once per call", function()
    local lines = {}
    local f = tf.func(function(x) tf.print("ran", { output_stream = function(s) lines[#lines + 1] = s end }); return x * x end)
    local x = tf.constant(3.0)
    local tape = tf.GradientTape()
    tape:watch(x)
    local y = f(x)
    assert.are.equal(6.0, num(tape:gradient(y, x)))
    assert.are.equal(1, #lines)
  end)

  it("gives the gradient of a captured variable", function()
    local v = tf.Variable(3.0)
    local f = tf.func(function(x) return x * v end)
    local tape = tf.GradientTape()
    local y = f(tf.constant(2.0))
    assert.are.equal(2.0, num(tape:gradient(y, v)))
  end)
end)

describe("higher-order gradients", function()
  it("a persistent tape differentiates its own gradient eagerly: 18 at x=3", function()
    local x = tf.constant(3.0)
    local g = tf.GradientTape({ persistent = true })
    g:watch(x)
    local y = x * x * x
    local d1 = g:gradient(y, x)
    assert.are.equal(27.0, num(d1))
    assert.are.equal(18.0, num(g:gradient(d1, x)))
  end)

  it("and through a tf.func call", function()
    local cube = tf.func(function(a) return a * a * a end)
    local x = tf.constant(3.0)
    local g = tf.GradientTape({ persistent = true })
    g:watch(x)
    local d1 = g:gradient(cube(x), x)
    assert.are.equal(27.0, num(d1))
    assert.are.equal(18.0, num(g:gradient(d1, x)))
  end)

  it("and inside a tf.func", function()
    local f = tf.func(function(x)
      local g = tf.GradientTape({ persistent = true })
      g:watch(x)
      local d1 = g:gradient(x * x * x, x)
      return g:gradient(d1, x)
    end)
    assert.are.equal(18.0, num(f(tf.constant(3.0))))
  end)
end)
