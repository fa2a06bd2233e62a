-- lifetime_spec.lua — Lua values used past their life or built from the
-- wrong kind of table: each raises a typed error, never crashes or
-- silently gives an empty tensor.

local H = require("helpers")
local tf = H.tf

describe("a tensor released by hand (tf.Tensor.__gc)", function()
  it("raises ValueError on every later use, and a second __gc is harmless", function()
    -- In a child process: before the fix this crashed the interpreter.
    local out, status = H.run_lua([[
      local x = tf.constant({1, 2})
      tf.Tensor.__gc(x)
      tf.Tensor.__gc(x)
      local uses = {
        function() return x:numpy() end,
        function() return x.shape end,
        function() return x.dtype end,
        function() return x + 1 end,
        function() return tf.add(x, x) end,
        function() return tf.reduce_sum(x) end,
        function() return tostring(x) end,
        function() return x[0] end,
        function() return tf.func(function(a) return a * 2 end)(x) end,
      }
      for i, use in ipairs(uses) do
        local ok, err = pcall(use)
        assert(not ok, "use " .. i .. " succeeded")
        assert(tf.errors.is(err), "use " .. i .. ": not a typed error: " .. tostring(err))
        assert(err.type == "ValueError", "use " .. i .. ": " .. tostring(err))
        assert(err.message:find("tensor was released", 1, true), "use " .. i .. ": " .. err.message)
      end
      local s = tf.constant(3)
      tf.Tensor.__gc(s)
      collectgarbage()
      print("survived")
    ]])
    assert.are.equal(0, status, out)
    assert.truthy(out:find("survived", 1, true), out)
  end)
end)

describe("tf.constant of a table that is not a sequence", function()
  it("raises ValueError naming the key instead of giving an empty tensor", function()
    H.raises("ValueError", '"a"', tf.constant, { a = 1 })
    H.raises("ValueError", '"b"', tf.constant, { 1, 2, b = 3 })
    H.raises("ValueError", "2.5", tf.constant, { { 1, [2.5] = 2 } })
    H.raises("ValueError", nil, tf.constant, { [5] = 1 })
    H.raises("ValueError", nil, tf.add, tf.constant({ 1 }), { x = 1 })
  end)

  it("still converts sequences, including empty ones", function()
    H.tensor(tf.constant({}), tf.float32, { 0 }, {})
    H.tensor(tf.constant({ { 1, 2 }, { 3, 4 } }), tf.int32, { 2, 2 }, { { 1, 2 }, { 3, 4 } })
  end)
end)

describe("tf.pad's constant_values", function()
  -- As TF's array_ops.pad (tensorflow/python/ops/array_ops.py): a Python
  -- scalar equal to zero (and -0.0 == 0) takes the Pad op, which pads with
  -- +0.0; any other value, or a tensor, takes PadV2 and pads with exactly
  -- that value, sign of zero included.
  it("pads with a -0.0 tensor's sign kept, and with +0.0 for the number -0.0, as TF", function()
    local p = tf.pad(tf.constant({ 1.0 }), { { 1, 1 } }, { constant_values = tf.constant(-0.0) })
    local v = p:numpy()
    assert.are.equal("-0x0p+0", ("%a"):format(v[1]))
    assert.are.equal("-0x0p+0", ("%a"):format(v[3]))
    assert.are.equal(1.0, v[2])
    local f = tf.func(function(x, c) return tf.pad(x, { { 1, 0 } }, { constant_values = c }) end)
    local r = f(tf.constant({ 2.0 }, tf.float64), tf.constant(-0.0, tf.float64)):numpy()
    assert.are.equal("-0x0p+0", ("%a"):format(r[1]))
    local q = tf.pad(tf.constant({ 1.0 }), { { 1, 0 } }, { constant_values = -0.0 })
    assert.are.equal("0x0p+0", ("%a"):format(q:numpy()[1]))
  end)
end)
