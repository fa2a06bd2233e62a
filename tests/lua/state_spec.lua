-- state_spec.lua — the session state after a failed trace: whatever stage of
-- tracing fails (binding the arguments, making placeholders, AutoGraph, the
-- body, packing the outputs, closing the graph, optimising it), the error
-- reaches the caller and tf.executing_eagerly(), the trace stack and the
-- tape stack are exactly as before, and the next op runs eagerly.
local tf = tf or require("moonflow")
local state = require("moonflow.state")

local function snapshot()
  return {
    eager = tf.executing_eagerly(),
    depth = state.trace_depth(),
    trace = state.current_trace(),
    tapes = #state.tapes,
  }
end

-- Runs fn (expected to fail) and checks the state did not move.
local function fails_cleanly(fn, ...)
  local before = snapshot()
  local ok, err = pcall(fn, ...)
  assert.is_false(ok, "expected an error")
  assert.are.same(before, snapshot())
  -- The next op runs as before the failure: eagerly, or into the
  -- enclosing trace's graph.
  local y = tf.constant(2) + 1
  assert.are.equal(not before.eager, tf.is_symbolic_tensor(y))
  if before.eager then assert.are.equal(3, y:numpy()) end
  return err
end

local function leaked_tensor()
  local leaked
  tf.func(function(a)
    leaked = a + 1
    return leaked
  end)(tf.constant(1))
  return leaked
end

-- Runs check eagerly, under a recording tape and, when `nested` (a stage a
-- tf.func called inside another trace also goes through: it is traced
-- inline), inside another trace (a new input shape each time: a new trace).
local current_check
local outer = tf.func(function(x)
  current_check("inside another trace")
  return x
end)
local outer_calls = 0

local function each_context(check, nested)
  check("eagerly")
  local tape = tf.GradientTape()
  check("under a recording tape")
  tape:stop()
  if not nested then return end
  current_check = check
  outer_calls = outer_calls + 1
  outer(tf.zeros({ outer_calls }))
end

describe("a failed trace leaves the session as it was", function()
  it("when the arguments do not bind to the input_signature", function()
    each_context(function()
      local f = tf.func(function(x) return x end, { input_signature = { tf.TensorSpec({ 2 }, tf.float32) } })
      local err = fails_cleanly(f, tf.constant({ 1, 2, 3 }))
      assert.are.equal("TypeError", err.type)
    end)
  end)

  it("when a placeholder cannot be made", function()
    each_context(function()
      local f = tf.func(function(x) return x end)
      local err = fails_cleanly(f.get_concrete_function, f, tf.TensorSpec({ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 }, tf.float32))
      assert.are.equal("ValueError", err.type)
    end, true)
  end)

  it("when AutoGraph rejects the function", function()
    each_context(function()
      -- A return that depends on a tensor cannot stop a numeric Lua loop.
      local f = tf.func(function(x)
        for i = 1, 3 do
          if x > i then return x end
        end
        return x
      end)
      fails_cleanly(f, tf.constant(3))
    end, true)
  end)

  it("when AutoGraph fails internally", function()
    each_context(function()
      local f = tf.func(function(x) return x end)
      local autograph = require("moonflow.autograph")
      local convert = autograph.convert
      autograph.convert = function() tf.errors.raise("InternalError", "AutoGraph test failure") end
      local ok, err = pcall(fails_cleanly, f, tf.constant(1))
      autograph.convert = convert
      assert.is_true(ok, tostring(err))
    end, true)
  end)

  it("when the body raises", function()
    each_context(function()
      local f = tf.func(function(x)
        if tf.executing_eagerly() == false then error("x") end
        return x
      end, { autograph = false })
      local err = fails_cleanly(f, tf.constant(1))
      assert.is_truthy(tostring(err):find("x", 1, true))
    end, true)
  end)

  it("when the body uses a tensor of a finished trace", function()
    local leaked = leaked_tensor()
    each_context(function()
      local f = tf.func(function(x) return x + leaked end)
      local err = fails_cleanly(f, tf.constant(1))
      assert.are.equal("TypeError", err.type)
    end, true)
  end)

  it("when the function returns a tensor of a finished trace", function()
    local leaked = leaked_tensor()
    each_context(function()
      local f = tf.func(function(x) return x, leaked end)
      local err = fails_cleanly(f, tf.constant(1))
      assert.are.equal("TypeError", err.type)
      assert.is_truthy(err.message:find("out of scope", 1, true))
    end)
  end)

  it("when the function returns a tensor of a loop body it traced", function()
    each_context(function()
      local f = tf.func(function(inputs)
        local outputs = {}
        for t in tf.range(inputs.shape[0]) do outputs[#outputs + 1] = inputs[t] end
        return outputs
      end)
      local err = fails_cleanly(f, tf.zeros({ 4, 2 }))
      assert.are.equal("InaccessibleTensorError", err.type)
      assert.is_truthy(err.message:find("out of scope", 1, true))
    end)
  end)

  it("when an output cannot be packed", function()
    each_context(function()
      local f = tf.func(function(x) return { x, print } end)
      fails_cleanly(f, tf.constant(1))
    end)
  end)

  it("when the optimiser fails", function()
    each_context(function()
      local f = tf.func(function(x) return x * 2 end)
      state.on_optimize = function() error(tf.errors.raise("InternalError", "optimiser test failure")) end
      local ok, err = pcall(fails_cleanly, f, tf.constant(1))
      state.on_optimize = nil
      assert.is_true(ok, tostring(err))
      assert.are.equal(4, f(tf.constant(2)):numpy())
    end)
  end)

  it("when a cond branch fails inside a trace", function()
    local f = tf.func(function(x)
      return tf.cond(x > 0, function() error("branch failure") end, function() return x end)
    end)
    fails_cleanly(f, tf.constant(1))
  end)
end)

describe("the trace stack", function()
  it("is the binding's frame stack, with the tf.func's data on its frames", function()
    assert.are.equal(0, state.trace_depth())
    assert.is_nil(state.current_trace())
    local seen
    local f = tf.func(function(x)
      seen = { depth = state.trace_depth(), trace = state.current_trace(), mark = state.trace_mark() }
      return tf.cond(x > 0, function()
        seen.branch_depth = state.trace_depth()
        seen.branch_trace = state.current_trace()
        return x
      end, function() return x end)
    end)
    f(tf.constant(1))
    assert.are.equal(1, seen.depth)
    assert.are.equal(1, seen.trace.number)
    assert.are.equal("[trace f#1]", seen.mark)
    assert.are.equal(2, seen.branch_depth)
    assert.are.equal(seen.trace, seen.branch_trace)
    assert.are.equal(0, state.trace_depth())
  end)
end)

describe("the public tf table", function()
  it("holds no library-internal field, and the aliases modules share with internals", function()
    for k in pairs(tf) do
      assert.is_false(type(k) == "string" and k:sub(1, 1) == "_" and k ~= "__version__", "tf." .. tostring(k))
    end
    for k in pairs(tf.autograph) do assert.is_false(k:sub(1, 1) == "_" or k == "convert", "tf.autograph." .. k) end
    assert.are.equal(tf.divide, tf.truediv)
    assert.are.equal(tf.divide, tf.math.truediv)
    assert.is_nil(rawget(tf, "to_tensor"))
    assert.is_nil(rawget(tf, "internal"))
  end)
end)
