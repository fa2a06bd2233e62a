-- reliability_spec.lua — what a hostile caller meets: typed errors from the
-- binding for bad arguments, a released tensor that raises instead of
-- crashing, and Lua memory running out in x:numpy() (a ResourceExhaustedError,
-- after which the session allocates again without a manual collectgarbage()).
local tf = tf or require("moonflow")
local core = require("moonflow.core")

local function raised(fn, ...)
  local ok, e = pcall(fn, ...)
  assert.is_false(ok, "expected an error")
  return e
end

describe("the binding's argument checks", function()
  it("raise typed errors, never lauxlib strings", function()
    for _, call in ipairs({
      function() core.set_seed("x") end,
      function() core.set_seed(1.5) end,
      function() core.op({}) end,
      function() core.run(1) end,
      function() core.graph_nodes(tf.constant(1)) end,
      function() getmetatable(tf.constant(1)).__gc(5) end,
      function() getmetatable(tf.float32).__tostring(5) end,
    }) do
      local e = raised(call)
      assert.is_true(core.is_error(e), "untyped: " .. tostring(e))
      assert.is_string(e.type)
    end
  end)
end)

describe("a released tensor", function()
  it("raises a ValueError on use instead of reading a null graph", function()
    local x = tf.constant({ 1, 2 })
    getmetatable(x).__gc(x)
    for _, use in ipairs({
      function() return x + 1 end,
      function() return x:numpy() end,
      function() return x.shape end,
      function() return tostring(x) end,
    }) do
      local e = raised(use)
      assert.is_true(core.is_error(e), "untyped: " .. tostring(e))
      assert.are.equal("ValueError", e.type)
      assert.truthy(e.message:find("released", 1, true))
    end
  end)
end)

describe("x:numpy() past Lua's memory", function()
  it("raises ResourceExhaustedError and the next allocation succeeds", function()
    local x = tf.zeros({ 200000 })
    collectgarbage()
    core.lua_memory_limit(1 << 20) -- 200,000 numbers need ~3 MB of table
    local ok, e = pcall(function() return x:numpy() end)
    core.lua_memory_limit(nil)
    assert.is_false(ok)
    assert.is_true(core.is_error(e), "untyped: " .. tostring(e))
    assert.are.equal("ResourceExhaustedError", e.type)
    -- under the same cap, no collectgarbage(): a smaller conversion fits
    core.lua_memory_limit(1 << 20)
    local ok2, small = pcall(function() return tf.zeros({ 1000 }):numpy() end)
    core.lua_memory_limit(nil)
    assert.is_true(ok2, tostring(small))
    assert.are.equal(1000, #small)
  end)
end)
