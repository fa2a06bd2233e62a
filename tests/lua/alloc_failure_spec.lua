-- alloc_failure_spec.lua — allocation failure injected at every allocation a
-- representative script reaches through alloc.h (eager ops, a traced
-- function's first call and cached calls, a gradient): each run ends in a
-- clean success or a typed ResourceExhaustedError, and the session works
-- afterwards (the same script, no failure, gives the right numbers); the
-- same for a trace whose shapes rest on partial values.
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

-- A trace whose shapes rest on partial values (core/ops/partial.h): each call
-- traces a new function, so every run makes them anew.
local function partial_script()
  local f = tf.func(function(x, n)
    local s = tf.shape(x)
    local y = tf.reshape(x, { s[0], 37, 2 })
    local z = tf.zeros(tf.concat({ tf.cast(s, tf.int64)["1:"], tf.stack({ tf.cast(n, tf.int64) }) }, 0))
    return y, tf.broadcast_to(tf.ones({ 3 }), { n, 3 }), z
  end)
  local cf = f:get_concrete_function(tf.TensorSpec({ tf.None, 74 }), tf.TensorSpec({}, tf.int32))
  local shapes = {}
  for i, t in ipairs(cf.graph.outputs) do shapes[i] = tostring(t.shape) end
  local y, b, z = f(tf.zeros({ 2, 74 }), tf.constant(4))
  return table.concat(shapes, " "), tostring(y.shape) .. tostring(b.shape) .. tostring(z.shape)
end

-- Runs `run` with its nth allocation failing, for n = 1, 2, ... until a
-- run fails none; `check` runs after each (the session must still work).
-- Returns how many were swept and what went wrong.
local function sweep(run, check)
  local swept, bad = 0, {}
  for n = 1, 5000 do
    core.fail_alloc(n)
    local ok, e = pcall(run)
    local _, failed = core.fail_alloc(0)
    if not failed then
      assert.is_true(ok, tostring(e))
      break
    end
    swept = n
    if not ok and not (core.is_error(e) and e.type == "ResourceExhaustedError") then
      bad[#bad + 1] = ("allocation %d: %s"):format(n, tostring(e))
    end
    check()
  end
  return swept, bad
end

describe("allocation failure", function()
  it("in a trace of partly known shapes is a typed ResourceExhaustedError", function()
    local want_specs, want_run = partial_script()
    assert.are.equal("(None, 37, 2) (None, 3) (74, None)", want_specs)
    local swept, bad = sweep(partial_script, function()
      local specs, run = partial_script()
      assert.are.equal(want_specs, specs)
      assert.are.equal(want_run, run)
    end)
    print(("# swept %d allocations"):format(swept))
    assert.is_true(swept > 10, "too few allocations reached: " .. swept)
    assert.are.same({}, bad)
  end)

  it("is a typed ResourceExhaustedError at every allocation, and the session stays usable", function()
    local want_s, want_g = script()
    local swept, bad = sweep(script, function()
      local s, g = script()
      assert.are.equal(want_s, s)
      assert.are.same(want_g, g)
    end)
    print(("# swept %d allocations"):format(swept))
    assert.is_true(swept > 10, "too few allocations reached: " .. swept)
    assert.are.same({}, bad)
  end)
end)
