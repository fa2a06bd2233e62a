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
