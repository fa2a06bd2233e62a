-- alloc_failure_spec.lua — allocation failure injected at every allocation a
-- representative script reaches through alloc.h (eager ops, a traced
-- function's first call and cached calls, a gradient): each run ends in a
-- clean success or a typed ResourceExhaustedError, and the session works
-- afterwards (the same script, no failure, gives the right numbers).
local tf = tf or require("moonflow")
local core = require("moonflow.core")

local function script()
  local x = tf.constant({ { 1.0, 2.0 }, { 3.0, 4.0 } })
  local y = tf.matmul(x, x) + 1
  local f = tf.func(function(a) return tf.reduce_sum(a * a) end)
  local s = f(y)
  s = f(y + 0)
  local v = tf.Variable(tf.ones({ 2 }))
  local tape, loss
  do
    local t <close> = tf.GradientTape()
    loss = tf.reduce_sum(v * v * 3)
    tape = t
  end
  local g = tape:gradient(loss, v)
  return s:numpy(), g:numpy()
end

describe("allocation failure", function()
  it("is a typed ResourceExhaustedError at every allocation, and the session stays usable", function()
    local want_s, want_g = script()
    local swept, bad = 0, {}
    for n = 1, 5000 do
      core.fail_alloc(n)
      local ok, e = pcall(script)
      local _, failed = core.fail_alloc(0)
      if not failed then
        assert.is_true(ok, tostring(e))
        break
      end
      swept = n
      if not ok and not (core.is_error(e) and e.type == "ResourceExhaustedError") then
        bad[#bad + 1] = ("allocation %d: %s"):format(n, tostring(e))
      end
      local s, g = script()
      assert.are.equal(want_s, s)
      assert.are.same(want_g, g)
    end
    print(("# swept %d allocations"):format(swept))
    assert.is_true(swept > 10, "too few allocations reached: " .. swept)
    assert.are.same({}, bad)
  end)
end)
