-- debug_profile_spec.lua — tf.debug.profile: per-node self time, calls,
-- output bytes, fused groups and lines of the graph calls run, sorted by
-- time and rolled up by name scope; the nodes' times add up to the graph
-- runs' wall time; profiling stops on every path out.

local core = require("moonflow.core")

local function here() return debug.getinfo(2, "l").currentline end

local LINE = here()
local w = tf.Variable(tf.random.normal({ 128, 128 }, 0, 1, { seed = 1 }))
local heavy = tf.func(function(x)
  local h = tf.matmul(x, w)
  local a
  do
    local scope <close> = tf.name_scope("block")
    a = tf.nn.relu(h * 2 + 1)
  end
  if tf.reduce_sum(a) > 0 then
    a = tf.matmul(a, w)
  end
  return tf.reduce_sum(a)
end)

describe("tf.debug.profile", function()
  local x = tf.random.normal({ 128, 128 }, 0, 1, { seed = 2 })

  it("times every node and the times add up to the runs' wall time", function()
    local p = tf.debug.profile_with({ runs = 12 }, heavy, x)
    assert.are.equal(12, p.runs)
    assert.are.equal(12, p.graph_runs)
    assert.is_true(p.wall > 0)
    assert.is_true(math.abs(p.node_time - p.wall) <= 0.1 * p.wall,
      ("nodes %.6f s, wall %.6f s"):format(p.node_time, p.wall))
    for k = 2, #p.rows do assert.is_true(p.rows[k - 1].self >= p.rows[k].self) end
    local mm
    for _, r in ipairs(p.rows) do
      if r.type == "MatMul" and not r.nested then mm = r end
      assert.are.equal(12, r.calls, r.node)
    end
    assert.are.equal(12 * 128 * 128 * 4, mm.bytes)
    assert.are.equal(LINE + 3, mm.source.line)
    assert.are.equal("h = tf.matmul(x, w)", mm.source.text)
    local text = tostring(p)
    assert.truthy(text:find("profile of heavy: 12 runs", 1, true), text)
    assert.truthy(text:find("line " .. (LINE + 3) .. ": h = tf.matmul(x, w)", 1, true), text)
    assert.truthy(text:find("by name scope:", 1, true), text)
  end)

  it("rolls up by name scope and lists a fused group's nodes", function()
    local p = tf.debug.profile(heavy, x)
    local scopes = {}
    for _, s in ipairs(p.scopes) do scopes[s.scope] = s end
    assert.truthy(scopes["block"] or scopes["(top level)"])
    local fused
    for _, r in ipairs(p.rows) do fused = fused or r.fused end
    if fused then
      assert.is_true(#fused > 1)
      assert.truthy(tostring(p):find("fused: ", 1, true))
    end
    local dot = p:dot()
    assert.truthy(dot:find("ms self, 10 calls", 1, true), dot)
  end)

  it("stops profiling on an error and when done", function()
    local bad = tf.func(function(v, i) return tf.gather(v, i) end)
    local ok, err = pcall(tf.debug.profile, bad, tf.constant({ 1.0 }), tf.constant(3))
    assert.is_false(ok)
    assert.are.equal("InvalidArgumentError", err.type)
    ok, err = pcall(core.profile_stop)
    assert.is_false(ok)
    assert.are.equal("ValueError", err.type)
    ok, err = pcall(tf.debug.profile_with, { runs = 0 }, heavy, x)
    assert.are.equal("ValueError", err.type)
    ok, err = pcall(tf.debug.profile, "heavy")
    assert.are.equal("TypeError", err.type)
  end)
end)
