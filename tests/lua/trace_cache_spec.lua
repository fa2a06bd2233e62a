-- trace_cache_spec.lua — which trace runs a tf.func call's arguments
-- (trace/cache.lua): the cached call of the last trace, tested once in C
-- for the C path and the Lua dispatcher alike, and the search of every
-- trace when that test misses.

local tf = tf or require("moonflow")

local helpers = require("helpers")
local core = require("moonflow.core")

-- How many calls since the last look the C path ran.
local function c_calls(f) return core.counter_take(f._detector.fast_calls) end

describe("the trace cache", function()
  before_each(function()
    -- The C path is for calls no tape records: a tape another spec left
    -- recording would send every call here down the Lua path.
    assert.is_false(require("moonflow.state").tapes_recording(), "a tape is left recording")
  end)

  it("runs calls with Lua-value arguments in C once the trace is armed", function()
    local f = tf.func(function(x, k, name) return x * k end)
    local x = tf.constant({ 1.0, 2.0 })
    f(x, 3, "a")
    c_calls(f)
    for i = 1, 3 do
      helpers.tensor(f(x, 3, "a"), tf.float32, { 2 }, { 3.0, 6.0 })
      assert.are.equal(1, c_calls(f), "call " .. i)
    end
    -- Another literal is another trace: the Lua path traces it.
    helpers.tensor(f(x, 4, "a"), tf.float32, { 2 }, { 4.0, 8.0 })
    assert.are.equal(0, c_calls(f))
    helpers.tensor(f(x, 4, "b"), tf.float32, { 2 }, { 4.0, 8.0 })
    assert.are.equal(0, c_calls(f))
    assert.are.equal(3, f:experimental_get_tracing_count())
    -- 3 and 3.0 are one literal in Lua (3 == 3.0), as in the dispatcher.
    helpers.tensor(f(x, 3.0, "a"), tf.float32, { 2 }, { 3.0, 6.0 })
    assert.are.equal(3, f:experimental_get_tracing_count())
  end)

  it("runs a method's calls on the same receiver in C, and not on another", function()
    local f = tf.func(function(self, x) return x + self.k end)
    local a, b = { k = 1 }, { k = 2 }
    local x = tf.constant(1.0)
    f(a, x)
    c_calls(f)
    helpers.tensor(f(a, x), tf.float32, {}, 2.0)
    assert.are.equal(1, c_calls(f))
    helpers.tensor(f(b, x), tf.float32, {}, 3.0)
    assert.are.equal(0, c_calls(f))
    assert.are.equal(1, f:experimental_get_tracing_count(a))
    assert.are.equal(1, f:experimental_get_tracing_count(b))
  end)

  it("picks the most specific of a receiver's traces, whatever the function's own traces", function()
    -- TF's dispatch: of the traces a call fits, the most specific one.
    local f = tf.func(function(self, x)
      if x.shape[0] == 3 then return x * 0 end
      return x + 1
    end, { reduce_retracing = true })
    local obj = {}
    f(obj, tf.constant({ 1.0, 2.0, 3.0 }))          -- traces (3,)
    f(obj, tf.constant({ 1.0, 2.0, 3.0, 4.0 }))     -- traces (None,)
    f(7, tf.constant({ 1.0, 2.0 }))                 -- the function's own first trace
    f(obj, tf.constant({ 1.0, 2.0, 3.0, 4.0, 5.0 })) -- runs (None,)
    helpers.tensor(f(obj, tf.constant({ 1.0, 2.0, 3.0 })), tf.float32, { 3 }, { 0.0, 0.0, 0.0 })
    assert.are.equal(2, f:experimental_get_tracing_count(obj))
  end)

  it("reuses the trace for calls whose results are a table (the Lua path rebuilds them)", function()
    local runs = 0
    local f = tf.func(function(x) runs = runs + 1 return { y = x + 1 } end)
    local x = tf.constant(1.0)
    f(x)
    for _ = 1, 3 do helpers.tensor(f(x).y, tf.float32, {}, 2.0) end
    assert.are.equal(1, runs)
    assert.are.equal(1, f:experimental_get_tracing_count())
  end)

  it("does not keep a method's receiver alive through the armed trace", function()
    local f = tf.func(function(self, x) return x + 1 end)
    local weak = setmetatable({}, { __mode = "v" })
    do
      local obj = {}
      weak[1] = obj
      f(obj, tf.constant(1.0))
      f(obj, tf.constant(1.0))
    end
    collectgarbage()
    collectgarbage()
    assert.is_nil(weak[1])
  end)

  it("makes a cached call's result and nothing else, with tensor and Lua-value arguments", function()
    local f = tf.func(function(x) return x + 1 end)
    local g = tf.func(function(x, k) return x * k end)
    local x = tf.constant(1.0)
    for _ = 1, 10 do f(x) g(x, 3) end
    collectgarbage()
    collectgarbage("stop")
    local ok, err = pcall(function()
      for _, call in ipairs({ function() return f(x) end, function() return g(x, 3) end }) do
        local a0, m0 = core.fail_alloc(0), collectgarbage("count")
        for _ = 1, 100 do call() end
        local a1, m1 = core.fail_alloc(0), collectgarbage("count")
        -- one core allocation (the result's buffer), and in Lua the
        -- result's userdata (64 bytes): no table, no closure
        assert.are.equal(100, a1 - a0)
        assert.is_true((m1 - m0) * 1024 / 100 <= 64, ("%.0f Lua bytes a call"):format((m1 - m0) * 1024 / 100))
      end
    end)
    collectgarbage("restart")
    assert(ok, err)
  end)
end)
