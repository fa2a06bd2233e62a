-- debug_step_spec.lua — tf.debug.step runs a traced function node by node:
-- the same bits as a call, each executed node visited once (per iteration
-- in loops), the branch an If takes, While bodies per iteration,
-- PartitionedCalls stepped into or over, breakpoints by name, op type and
-- line, break_on_nan at the node an op-by-op eager run finds first, and
-- set changing exactly what is downstream.

local core = require("moonflow.core")
local step = require("moonflow.debug.step")

local function here() return debug.getinfo(2, "l").currentline end

local function bits(t) return core.format(t, "print", 1000) end

-- Every step of a stepper, run to the end.
local function all_steps(s)
  local steps = {}
  while true do
    local r = s:next()
    if not r then return steps end
    steps[#steps + 1] = r
  end
end

local LINE = here()
local branchy = tf.func(function(x)
  local y = x * 2
  if tf.reduce_sum(y) > 0 then
    y = y + 1
  else
    y = y - 1
  end
  local i = tf.constant(0)
  while i < 3 do
    y = y * 2
    i = i + 1
  end
  return y
end)

describe("tf.debug.step", function()
  it("steps to the bits a call gives, visiting each executed node once per iteration", function()
    local x = tf.constant({ 1.5, -0.25 })
    local s = tf.debug.step(branchy, x)
    local steps = all_steps(s)
    tf.config.optimizer.set_enabled(false)
    local want = branchy(x)
    tf.config.optimizer.set_enabled(true)
    assert.are.equal(bits(want), bits(s.results[1]))
    local visits = {}
    for _, r in ipairs(steps) do
      local key = r.graph .. "|" .. r.node .. "|" .. tostring(r.iteration)
      assert.is_nil(visits[key], key .. " visited twice")
      visits[key] = true
    end
    -- The else branch is not stepped; the body runs three times.
    local bodies, elses = 0, 0
    for _, r in ipairs(steps) do
      if r.graph:find("/body$") and r.type == "Mul" then bodies = bodies + 1 end
      if r.graph:find("else_branch") then elses = elses + 1 end
    end
    assert.are.equal(3, bodies)
    assert.are.equal(0, elses)
    local loop = steps[#steps - 1]
    assert.are.equal("StatelessWhile", loop.type)
    assert.are.equal(3, loop.iterations)
    assert.is_nil(s:next())
  end)

  it("takes the else branch when the condition is false", function()
    local s = tf.debug.step(branchy, tf.constant({ -1.0, -2.0 }))
    local r = s:run_to("Sub")
    assert.truthy(r.graph:find("/else_branch$"), r.graph)
    assert.are.equal(LINE + 6, r.source.line)
    assert.are.same({ -3, -5 }, r.outputs[1]:numpy())
  end)

  it("runs to a node name, an op type and a line, and shows values", function()
    local s = tf.debug.step(branchy, tf.constant({ 1.0, 2.0 }))
    local r = s:run_to("mul")
    assert.are.equal("Mul", r.type)
    assert.are.equal("y", r.source.name)
    assert.are.same({ 2, 4 }, s:value("mul"):numpy())
    r = s:run_to(LINE + 10)
    assert.are.equal(LINE + 10, r.source.line)
    assert.are.equal(1, r.iteration)
    assert.are.same({ 6, 10 }, s:value("mul"):numpy())
    local where = s:where()
    assert.truthy(where:find(("made at debug_step_spec.lua:%d: y = y * 2"):format(LINE + 10), 1, true), where)
    assert.truthy(where:find("in  loop_var_1:0 = [3 5]", 1, true), where)
    assert.truthy(where:find("out mul:0 = [6 10]", 1, true), where)
    r = s:run_to("StatelessWhile")
    assert.are.same({ 24, 40 }, r.outputs[1]:numpy())
    assert.is_nil(s:run_to("no such node"))
    assert.is_true(s.done)
  end)

  it("stops at breakpoints and goes back and restarts", function()
    local s = tf.debug.step(branchy, tf.constant({ 1.0, 2.0 }))
    s:breakpoint("AddV2")
    local r = s:continue()
    assert.are.equal("add", r.node)
    local n = r.number
    r = s:continue()
    assert.are.equal("AddV2", r.type)
    assert.are.equal(1, r.iteration)
    local before = r.number
    r = s:back()
    assert.are.equal(before - 1, r.number)
    assert.are.equal(before - 1, s.count)
    assert.is_true(n < before)
    assert.are.equal(0, s:restart().count)
    assert.are.equal(1, s:next().number)
  end)

  it("set replaces a value and runs again exactly what read it", function()
    local f = tf.func(function(a, b)
      local p = a * 2
      local q = b + 1
      local r = p + q
      local u = q * 3
      return r, u
    end)
    local s = tf.debug.step(f, tf.constant(1.0), tf.constant(10.0))
    s:run_to("mul_1")
    local rerun = s:set("mul", 100)
    assert.are.same({ "add_1" }, rerun)
    assert.are.equal(111, s:value("add_1"):numpy())
    assert.are.equal(33, s:value("mul_1"):numpy())
    local r, u = s:finish()
    assert.are.equal(111, r:numpy())
    assert.are.equal(33, u:numpy())
    local ok, err = pcall(s.set, s, "nope", 1)
    assert.is_false(ok)
    assert.are.equal("ValueError", err.type)
  end)

  it("break_on_nan stops at the node an op-by-op eager run finds first", function()
    local f = tf.func(function(x)
      local l = tf.math.log(x)
      local s = tf.sqrt(x - 1)
      local z = l * s
      return z
    end)
    local x = tf.constant({ 2.0, 0.5 })
    local s = tf.debug.step(f, x)
    local r = s:break_on_nan()
    -- eagerly: log(x) is finite, x - 1 is finite, sqrt(-0.5) is the first NaN
    assert.is_false(tf.math.log(x):numpy()[2] ~= tf.math.log(x):numpy()[2])
    assert.are.equal("Sqrt", r.type)
    assert.is_true(r.nonfinite)
    assert.truthy(step.describe(r):find("NaN/Inf!", 1, true))
  end)

  it("steps into a PartitionedCall, or over it", function()
    local inner = tf.func(function(v) return v * 3 end)
    local outer = tf.func(function(x) return inner(x) + 1 end)
    local x = tf.constant(2.0)
    local into = all_steps(tf.debug.step(outer, x))
    local found
    for _, r in ipairs(into) do
      if r.type == "Mul" then found = r end
    end
    assert.truthy(found and found.graph:find("PartitionedCall"), "the call's Mul is a step")
    local over = all_steps(tf.debug.step_with({ into_calls = false }, outer, x))
    for _, r in ipairs(over) do assert.are_not.equal("Mul", r.type) end
    assert.is_true(#over < #into)
    -- over(): the call as one step, chosen step by step
    local s = tf.debug.step(outer, x)
    local r = s:over()
    assert.truthy(r.type:find("PartitionedCall"), r.type)
    assert.are.equal(6, r.outputs[1]:numpy())
    assert.are.equal(7, s:finish():numpy())
  end)

  it("steps the optimised graph on request, a fused group as one step", function()
    local f = tf.func(function(x) return tf.nn.relu(x * 2 + 1) * 3 - x end)
    local x = tf.constant({ 1.0, -2.0, 3.0 })
    local s = tf.debug.step_with({ optimized = true }, f, x)
    local steps = all_steps(s)
    assert.are.equal(bits(f(x)), bits(s.results[1]))
    local fused
    for _, r in ipairs(steps) do fused = fused or r.fused end
    if fused then assert.is_true(#fused > 1) end
  end)

  it("shows a variable's value before and after a node that assigns it", function()
    local v = tf.Variable({ 1.0, 2.0 })
    local f = tf.func(function(x)
      v:assign_add(x)
      return v:read_value() * 2
    end)
    local s = tf.debug.step(f, tf.constant({ 10.0, 20.0 }))
    local r = s:run_to("AssignAddVariableOp")
    assert.are.equal(1, #r.variables)
    assert.are.same({ 1, 2 }, r.variables[1].before:numpy())
    assert.are.same({ 11, 22 }, r.variables[1].after:numpy())
    assert.truthy(s:where():find("variable " .. v.name .. ": [1 2] -> [11 22]", 1, true), s:where())
    assert.truthy(tostring(r):find("-> (no outputs)", 1, true), tostring(r))
    assert.are.same({ 22, 44 }, s:finish():numpy())
  end)

  it("prints tf.print's output when its node runs", function()
    local log = {}
    local f = tf.func(function(x)
      local y = x + 1
      tf.print("y is", y, { output_stream = function(text) log[#log + 1] = text end })
      return y * 2
    end)
    local s = tf.debug.step(f, tf.constant(1.0))
    s:run_to("AddV2")
    assert.are.same({}, log)
    local r = s:run_to("PrintV2")
    assert.are.equal("PrintV2", r.type)
    assert.are.equal(1, #log)
    assert.truthy(log[1]:find("y is 2", 1, true), log[1])
    s:finish()
    assert.are.equal(1, #log)
  end)

  it("refuses what is not a function", function()
    local ok, err = pcall(tf.debug.step, 42)
    assert.is_false(ok)
    assert.are.equal("TypeError", err.type)
  end)
end)
