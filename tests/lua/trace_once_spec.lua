-- trace_once_spec.lua — a tf.func runs its Lua function once per trace
-- key whether or not a GradientTape records its calls, as TF traces the
-- Python function once per input signature and derives the forward
-- function with intermediates and the backward function from that one
-- FuncGraph (concrete_function.py, _DelayedRewriteGradientFunctions):
--
--   @tf.function
--   def f(x):
--     print("Tracing!")          # printed once, on the first call
--     return x * x
--   with tf.GradientTape() as tape:
--     tape.watch(x); y = f(x)    # prints "Tracing!" once
--   tape.gradient(y, x)          # prints nothing: 6.0 for x = 3.0

local tf = tf or require("moonflow")

local function num(x) return x:numpy() end

-- Every tape a case makes stops when the case ends.
local made = {}
local GradientTape = tf.GradientTape
before_each(function()
  tf.GradientTape = function(...)
    local t = GradientTape(...)
    made[#made + 1] = t
    return t
  end
end)
after_each(function()
  tf.GradientTape = GradientTape
  for _, t in ipairs(made) do t:stop() end
  made = {}
end)

-- A function that counts (and prints, as a learner's would) its traces.
local function counted(body)
  local c = { n = 0, printed = {} }
  c.f = tf.func(function(...)
    c.n = c.n + 1
    c.printed[#c.printed + 1] = "Tracing!"
    return body(...)
  end)
  return c
end

describe("a tf.func under a GradientTape traces its Lua function once", function()
  it("(a) called first under a tape: one trace, gradient 6.0", function()
    local c = counted(function(x) return x * x end)
    local x = tf.constant(3.0)
    local tape = tf.GradientTape()
    tape:watch(x)
    local y = c.f(x)
    tape:stop()
    assert.are.equal(1, c.n)
    assert.are.same({ "Tracing!" }, c.printed)
    assert.are.equal(6.0, num(tape:gradient(y, x)))
    assert.are.equal(1, c.n)
    assert.are.equal(1, c.f:experimental_get_tracing_count())
  end)

  it("(b) called plainly, then under a tape: still one trace", function()
    local c = counted(function(x) return tf.sin(x) * x end)
    local x = tf.constant(0.0)
    c.f(x)
    assert.are.equal(1, c.n)
    local tape = tf.GradientTape()
    tape:watch(x)
    local y = c.f(x)
    tape:stop()
    -- d/dx x sin x at 0 = sin 0 + 0 cos 0 = 0
    assert.are.equal(0.0, num(tape:gradient(y, x)))
    assert.are.equal(1, c.n)
    assert.are.equal(1, c.f:experimental_get_tracing_count())
    -- and later calls under a tape trace nothing either
    local tape2 = tf.GradientTape()
    local x2 = tf.constant(2.0)
    tape2:watch(x2)
    local y2 = c.f(x2)
    tape2:stop()
    assert.are.equal(1, c.n)
    assert.is_not_nil(tape2:gradient(y2, x2))
  end)

  it("(c) under nested tapes (a second derivative): one trace", function()
    local c = counted(function(x) return x * x * x end)
    local x = tf.constant(2.0)
    local outer = tf.GradientTape()
    outer:watch(x)
    local inner = tf.GradientTape()
    inner:watch(x)
    local y = c.f(x)
    inner:stop()
    local dy = inner:gradient(y, x)
    outer:stop()
    assert.are.equal(12.0, num(dy))
    assert.are.equal(12.0, num(outer:gradient(dy, x)))
    assert.are.equal(1, c.n)
  end)

  it("(d) a persistent tape and two gradients: one trace", function()
    local c = counted(function(x, w) return x * w, x + w end)
    local x, w = tf.constant(2.0), tf.constant(5.0)
    local tape = tf.GradientTape({ persistent = true })
    tape:watch(x)
    tape:watch(w)
    local a, b = c.f(x, w)
    tape:stop()
    assert.are.equal(5.0, num(tape:gradient(a, x)))
    assert.are.equal(1.0, num(tape:gradient(b, w)))
    assert.are.equal(2.0, num(tape:gradient(a, w)))
    assert.are.equal(1, c.n)
  end)

  it("(e) a variable assigned inside: one trace, one assign per call", function()
    local v = tf.Variable(1.0)
    local c = counted(function(x)
      v:assign_add(1.0)
      return x * v
    end)
    local x = tf.constant(3.0)
    local tape = tf.GradientTape()
    tape:watch(x)
    local y = c.f(x)
    tape:stop()
    assert.are.equal(6.0, num(y))
    assert.are.equal(2.0, num(v:read_value()))
    local g = tape:gradient({ y }, { x, v })
    assert.are.equal(2.0, num(g[1]))
    assert.are.equal(3.0, num(g[2]))
    assert.are.equal(2.0, num(v:read_value()))
    assert.are.equal(1, c.n)
  end)

  it("(e) a trainable variable read inside is a source: one trace", function()
    local w = tf.Variable(4.0)
    local c = counted(function(x) return x * w * w end)
    local x = tf.constant(3.0)
    local tape = tf.GradientTape()
    local y = c.f(x)
    tape:stop()
    assert.are.equal(24.0, num(tape:gradient(y, w)))
    assert.are.equal(1, c.n)
  end)

  it("a result that does not depend on the source: None as TF, one trace", function()
    local c = counted(function(x) return tf.constant(2.0) * 3.0, x * 2.0 end)
    local x = tf.constant(1.0)
    local tape = tf.GradientTape({ persistent = true })
    tape:watch(x)
    local a, b = c.f(x)
    tape:stop()
    assert.is_nil(tape:gradient(a, x))
    assert.are.equal(2.0, num(tape:gradient(b, x)))
    assert.are.equal(1, c.n)
  end)
end)
