-- coroutine_trace_spec.lua — coroutines and tracing. A trace cannot stay
-- open across a yield: the trace stack is the session's, so a coroutine
-- suspended inside a trace would leave the main program in graph mode and
-- a collected one would leave its frame behind. Yielding out of a trace is
-- a typed RuntimeError in the coroutine; the main program stays eager and
-- the function works afterwards. Coroutines used entirely inside a traced
-- function (a generator resumed there) still yield freely.
local tf = tf or require("moonflow")
local core = require("moonflow.core")
local state = require("moonflow.state")

local function eager_and_clean()
  assert.are.equal(0, state.trace_depth())
  assert.is_true(tf.executing_eagerly())
  local y = tf.constant(2) + 1
  assert.is_false(tf.is_symbolic_tensor(y))
  assert.are.equal(3, y:numpy())
end

describe("a coroutine yielding inside a trace", function()
  it("gets a typed RuntimeError and leaves the main program eager", function()
    local yielding = true
    local f = tf.func(function(x)
      if yielding then coroutine.yield("inside") end
      return x * 2
    end)
    local co = coroutine.create(function() return f(tf.constant(3)) end)
    local ok, err = coroutine.resume(co)
    assert.is_false(ok)
    assert.is_true(core.is_error(err), tostring(err))
    assert.are.equal("RuntimeError", err.type)
    assert.truthy(err.message:find("yield", 1, true), err.message)
    assert.are.equal("dead", coroutine.status(co))
    eager_and_clean()
    -- the function still traces and runs
    yielding = false
    assert.are.equal(8, f(tf.constant(4)):numpy())
  end)

  it("fails the same way from a nested trace (a tf.cond branch)", function()
    local f = tf.func(function(x)
      return tf.cond(x > 0, function()
        coroutine.yield()
        return x + 1
      end, function() return x - 1 end)
    end)
    local ok, err = coroutine.resume(coroutine.create(function() return f(tf.constant(1)) end))
    assert.is_false(ok)
    assert.are.equal("RuntimeError", err.type)
    eager_and_clean()
  end)

  it("leaves nothing behind when the coroutine is abandoned and collected", function()
    local yielding = true
    local f = tf.func(function(x)
      if yielding then coroutine.yield() end
      return x + 1
    end)
    do
      local co = coroutine.wrap(function() return f(tf.constant(1)) end)
      pcall(co)
    end
    collectgarbage()
    collectgarbage()
    eager_and_clean()
    yielding = false
    assert.are.equal(3, f(tf.constant(2)):numpy())
  end)

  it("lets a coroutine run wholly inside a traced function yield", function()
    local f = tf.func(function(x)
      local gen = coroutine.wrap(function()
        for i = 1, 3 do coroutine.yield(i) end
      end)
      local s = x
      for _ = 1, 3 do s = s + gen() end
      return s
    end)
    assert.are.equal(16, f(tf.constant(10)):numpy())
    eager_and_clean()
  end)

  it("lets a coroutine trace a function that does not yield, then yield outside it", function()
    local f = tf.func(function(x) return x * 10 end)
    local co = coroutine.wrap(function()
      local r = f(tf.constant(1))
      coroutine.yield(r:numpy())
      return f(tf.constant(2)):numpy()
    end)
    assert.are.equal(10, co())
    eager_and_clean()
    assert.are.equal(20, co())
  end)
end)
