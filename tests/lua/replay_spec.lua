-- replay_spec.lua — "replaying this op changes state", stated once
-- (grad/replay.lua) and read by the call gradients and the control-flow
-- gradients: the answer for every op of the registry, the search of a
-- graph and the graphs nested in it, and no second copy in the library.

local tf = tf or require("moonflow")
local core = require("moonflow.core")
local replay = require("moonflow.grad.replay")

local ROOT = os.getenv("MOONFLOW_ROOT") or "."

-- The ops whose second run is not the first one's: variable writes,
-- output, host callbacks, random draws, the clock. Every other op replays
-- to the same effect: pure computations, variable reads, asserts (a check
-- that passed passes again), and the ops that hold graphs (If, While,
-- StatefulPartitionedCall), whose graphs are searched instead.
local CHANGES = {
  AssignVariableOp = true, AssignAddVariableOp = true, AssignSubVariableOp = true,
  PrintV2 = true, EagerLuaFunc = true, RandomStandardNormal = true, RandomUniform = true,
  Timestamp = true,
  -- tf.data: an iterator's cursor moves (GetNext) or restarts (MakeIterator).
  MakeIterator = true, IteratorGetNext = true, IteratorGetNextAsOptional = true,
}

describe("replay.changes_state", function()
  it("answers for every registry op as the rule says", function()
    local wrong, seen = {}, {}
    for _, o in ipairs(core.op_list()) do
      seen[o.name] = true
      local want = CHANGES[o.name] or false
      if replay.changes_state(o.name) ~= want then
        wrong[#wrong + 1] = ("%s: %s, the rule says %s"):format(o.name, tostring(not want), tostring(want))
      end
    end
    assert.are.same({}, wrong)
    for name in pairs(CHANGES) do assert.is_true(seen[name], name .. " is not in the registry") end
  end)

  it("is the registry's own flag, exported for every op", function()
    for _, o in ipairs(core.op_list()) do
      assert.are.equal("boolean", type(o.changes_state_on_replay), o.name)
      assert.are.equal(CHANGES[o.name] or false, o.changes_state_on_replay, o.name)
    end
  end)

  it("refuses an op type the registry does not have", function()
    local ok, err = pcall(replay.changes_state, "TruncatedNormal")
    assert.is_false(ok)
    assert.matches("'TruncatedNormal' is not an op of the registry", tostring(err), 1, true)
  end)
end)

describe("replay.changing_op", function()
  it("is nil for a graph of pure computations and variable reads", function()
    local w = tf.Variable(2.0)
    local f = tf.func(function(x) return tf.sin(x) * w end)
    assert.is_nil(replay.changing_op(f:get_concrete_function(tf.constant(1.0))._graph))
  end)

  it("names a state-changing op of the graph", function()
    local v = tf.Variable(0.0)
    local f = tf.func(function(x) v:assign_add(x); return x end)
    assert.are.equal("AssignAddVariableOp", replay.changing_op(f:get_concrete_function(tf.constant(1.0))._graph))
  end)

  it("finds one inside a branch of a cond and a call of a tf.func", function()
    local inner = tf.func(function(x) return x + tf.random.normal({}) end)
    local f = tf.func(function(x)
      return tf.cond(x > 0, function() return inner(x) end, function() return x end)
    end)
    assert.are.equal("RandomStandardNormal", replay.changing_op(f:get_concrete_function(tf.constant(1.0))._graph))
  end)
end)

describe("replay.refuse", function()
  local function graph_of(fn) return tf.func(fn):get_concrete_function(tf.constant(1.0))._graph end

  it("lets graphs without state-changing ops pass", function()
    replay.refuse("tf.cond", { graph_of(function(x) return x * 2 end), nil })
  end)

  it("raises UnimplementedError naming the op and what would run again", function()
    local lines = {}
    local g = graph_of(function(x)
      tf.print(x, { output_stream = function(s) lines[#lines + 1] = s end })
      return x
    end)
    local ok, err = pcall(replay.refuse, "tf.while_loop", { g })
    assert.is_false(ok)
    assert.are.equal("UnimplementedError", err.type)
    assert.matches("the gradient of this tf.while_loop runs its body again, which hold a PrintV2 op",
      err.message, 1, true)
    assert.matches("move the side effect out of the loop body", err.message, 1, true)
  end)
end)

describe("the replay-state fact", function()
  it("is written in grad/replay.lua only", function()
    local p = assert(io.popen(("cd %q && grep -rlE '(PrintV2|AssignAddVariableOp|Timestamp) *= *true' lua"):format(ROOT)))
    local files = {}
    for l in p:lines() do
      if l ~= "lua/moonflow/grad/replay.lua" then files[#files + 1] = l end
    end
    p:close()
    assert.are.same({}, files)
  end)
end)
