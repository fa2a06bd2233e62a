-- tape_integer_spec.lua — gradients through integers are nil, and the tape
-- says why as TF's does (backprop.py). Three warnings, each on its own
-- occasion: tape:watch of a tensor that is not floating (TF logs it with
-- log_first_n(..., 5): the first five times in a process), and every call
-- of tape:gradient for each flat target and each flat source that is not
-- floating (TF's logging.vlog at WARN level: every time). TF's "tf.int32"
-- is the dtype's repr, moonflow's tostring(dtype). The text is TF's
-- printed by "Introduction to gradients and automatic differentiation",
-- "Gradients through an integer or string".
local tf = tf or require("moonflow")
local H = require("helpers")

local WATCHED = "WARNING: The dtype of the watched tensor must be floating (e.g. tf.float32), got tf.int32"
local TARGET = "WARNING: The dtype of the target tensor must be floating (e.g. tf.float32) when calling "
  .. "GradientTape.gradient, got tf.int32"
local SOURCE = "WARNING: The dtype of the source tensor must be floating (e.g. tf.float32) when calling "
  .. "GradientTape.gradient, got tf.int32"

-- The lines fn writes to io.stderr, and what it returns.
local function stderr_of(fn)
  local text, saved = {}, io.stderr
  io.stderr = { write = function(self, ...)
    for _, s in ipairs({ ... }) do text[#text + 1] = tostring(s) end
    return self
  end }
  local ok, r = pcall(fn)
  io.stderr = saved
  if not ok then error(r, 0) end
  local lines = {}
  for line in table.concat(text):gmatch("[^\n]+") do lines[#lines + 1] = line end
  return lines, r
end

describe("gradients through integers", function()
  it("print TF's three warnings, then nil (the guide's example, in a fresh process)", function()
    local out = H.run_lua([[
      io.stdout:setvbuf("no")
      local x = tf.constant(10)
      local g = tf.GradientTape()
      g:watch(x)
      local y = x * x
      g:stop()
      print(g:gradient(y, x))
    ]])
    assert.are.equal(table.concat({ WATCHED, TARGET, SOURCE, "nil", "" }, "\n"), out)
  end)

  it("tape:gradient warns on every call, for each integer target and each integer source", function()
    local x, f = tf.constant(10), tf.constant(1.5)
    local tape = tf.GradientTape({ persistent = true })
    local y = x * x
    local z = f * f
    tape:stop()
    local lines, g = stderr_of(function() return tape:gradient({ y, z }, { x, f, x }) end)
    assert.are.same({ TARGET, SOURCE, SOURCE }, lines)
    assert.is_nil(g[1])
    lines = stderr_of(function() return tape:gradient({ a = y, b = y }, f) end)
    assert.are.same({ TARGET, TARGET }, lines)
  end)

  it("an integer variable is named by its value's dtype, as a source and as a target", function()
    local v = tf.Variable(3)
    local tape = tf.GradientTape({ persistent = true })
    local y = v * 2
    tape:stop()
    local lines, g = stderr_of(function() return tape:gradient(y, v) end)
    assert.are.same({ TARGET, SOURCE }, lines)
    assert.is_nil(g)
    lines = stderr_of(function() return tape:gradient({ v }, { v, v }) end)
    assert.are.same({ TARGET, SOURCE, SOURCE }, lines)
  end)

  it("floating targets and sources say nothing", function()
    local x = tf.constant(2.0)
    local v = tf.Variable(1.0, { dtype = tf.float64 })
    local tape = tf.GradientTape()
    local lines = stderr_of(function()
      tape:watch(x)
      tape:watch(v)
      return nil
    end)
    local y = x * x
    tape:stop()
    assert.are.same({}, lines)
    local grads
    lines, grads = stderr_of(function() return tape:gradient(y, { x, v }) end)
    assert.are.same({}, lines)
    H.close(4.0, grads[1])
  end)

  it("tape:jacobian warns once per call, not once per row", function()
    local x = tf.constant({ 1, 2, 3 })
    local tape = tf.GradientTape({ persistent = true })
    local y = x * 2
    tape:stop()
    local lines, j = stderr_of(function() return tape:jacobian(y, x) end)
    assert.are.same({ TARGET, SOURCE }, lines)
    assert.is_nil(j)
  end)

  it("tape:watch warns the first five times in a process, as TF's log_first_n", function()
    local out = H.run_lua([[
      local tape = tf.GradientTape()
      for _ = 1, 7 do tape:watch(tf.constant(1)) end
      tape:watch(tf.Variable(2))
      tape:watch(tf.constant(1.0))
    ]])
    local n = 0
    for line in out:gmatch("[^\n]+") do
      assert.are.equal(WATCHED, line)
      n = n + 1
    end
    assert.are.equal(5, n)
  end)
end)
