-- tape_lifetime_spec.lua — a tape made while tracing records that trace's
-- graph only: when the trace ends, by returning or by an error, the tape
-- stops, as TF's `with tf.GradientTape():` block ends with the function.
-- Before, a tape left recording (no stop(), no <close>) stayed on the
-- recording list and recorded the ops of every later trace at its depth.
local tf = tf or require("moonflow")
local state = require("moonflow.state")

-- (Other specs may leave eager tapes recording: counts are compared with
-- what was there before.)
describe("a tape made in a trace", function()
  it("stops when its trace returns", function()
    local before = #state.tapes
    local left
    local f = tf.func(function(x)
      left = tf.GradientTape()
      left:watch(x)
      return x * x
    end)
    f(tf.constant(2.0))
    assert.are.equal(before, #state.tapes)
    assert.is_truthy(tostring(left):find("stopped", 1, true))
    -- a later trace at the same depth records nothing on it
    local g = tf.func(function(x) return x + 1 end)
    g(tf.constant(1.0))
    assert.is_truthy(tostring(left):find("1 ops recorded", 1, true))
  end)

  it("stops when its trace fails", function()
    local before = #state.tapes
    local f = tf.func(function(x)
      local t = tf.GradientTape()
      t:watch(x)
      local _ = x * 2
      error(tf.errors.ValueError)
    end)
    assert.is_false(pcall(f, tf.constant(1.0)))
    assert.are.equal(before, #state.tapes)
  end)

  it("keeps an outer tape recording", function()
    local before = #state.tapes
    local outer = tf.GradientTape()
    local f = tf.func(function(x)
      local inner = tf.GradientTape()
      inner:watch(x)
      return x * 3
    end)
    local x = tf.constant(2.0)
    outer:watch(x)
    local y = f(x)
    assert.are.equal(before + 1, #state.tapes)
    assert.is_true(rawequal(outer, state.tapes[#state.tapes]))
    outer:stop()
    assert.are.equal(3.0, outer:gradient(y, x):numpy())
  end)
end)
