-- tape_nest_spec.lua — tape:gradient's target, sources and output_gradients
-- are nested structures, as TF's nest makes them (backprop.py: the targets
-- are nest.flatten(target), summed; the gradients are packed as sources;
-- output_gradients are flattened on their own and go one per flat target).
-- A plain table is a structure: its list part in order, then its other
-- keys sorted (TF sorts a dict's keys). The numbers are those TF prints.
local tf = tf or require("moonflow")
local H = require("helpers")

local function typed(kind, f, ...)
  local ok, e = pcall(f, ...)
  assert.is_false(ok)
  assert.is_true(tf.errors.is(e, kind), tostring(e))
  return e
end

describe("tape:gradient with nested targets", function()
  -- "Introduction to gradients and automatic differentiation", Gradients of
  -- non-scalar targets: a dictionary of targets is summed.
  it("sums a table of targets keyed by names (the guide's 3.75)", function()
    local x = tf.Variable(2.0)
    local tape = tf.GradientTape({ persistent = true })
    local y0 = x ^ 2
    local y1 = 1 / x
    tape:stop()
    H.close(3.75, tape:gradient({ y0 = y0, y1 = y1 }, x))
    H.close(3.75, tape:gradient({ y0, y1 }, x))
    H.close(3.75, tape:gradient({ y0 = y0, more = { y1 } }, x))
  end)

  it("sums targets at any depth, lists and keys mixed", function()
    local x = tf.constant(3.0)
    local tape = tf.GradientTape({ persistent = true })
    tape:watch(x)
    local a, b, c = x * 2, x * x, x * x * x
    tape:stop()
    -- 2 + 2x + 3x^2 at x = 3
    H.close(35.0, tape:gradient({ a, { sq = b, deeper = { { c } } } }, x))
    H.close(35.0, tape:gradient({ first = { a }, [1] = b, [2] = { cube = c } }, x))
  end)

  it("a variable among the targets is its handle (ones with respect to itself)", function()
    local v = tf.Variable(2.0)
    local tape = tf.GradientTape()
    local y = v * 3
    tape:stop()
    H.close(4.0, tape:gradient({ y = y, v = v }, v))
  end)

  it("a target that is nil or a Lua value is a TypeError, not a silent nil", function()
    local x = tf.constant(2.0)
    local tape = tf.GradientTape({ persistent = true })
    tape:watch(x)
    local y = x * x
    tape:stop()
    local e = typed("TypeError", function() return tape:gradient(nil, x) end)
    assert.truthy(e.message:find("received nil", 1, true), e.message)
    typed("TypeError", function() return tape:gradient(3, x) end)
    typed("TypeError", function() return tape:gradient({ y = y, n = 3 }, x) end)
    H.close(4.0, tape:gradient(y, x)) -- the tape still works
  end)
end)

describe("tape:gradient with nested sources", function()
  -- The guide's "Gradients with respect to a model": a dictionary of
  -- variables gives a dictionary of gradients.
  it("a table of sources keyed by names gives gradients keyed by the same names", function()
    local w = tf.Variable({ { 1.0, 2.0 }, { 3.0, 4.0 } }, { name = "w" })
    local b = tf.Variable({ 0.5, -0.5 }, { name = "b" })
    local x = tf.constant({ { 1.0, 2.0 } })
    local tape = tf.GradientTape()
    local y = tf.matmul(x, w) + b
    local loss = tf.reduce_mean(y ^ 2)
    tape:stop()
    local grad = tape:gradient(loss, { w = w, b = b })
    -- y = [7.5, 9.5]; dloss/dy = y; db = y, dw = x^T y
    H.close({ 7.5, 9.5 }, grad.b)
    H.close({ { 7.5, 9.5 }, { 15.0, 19.0 } }, grad.w)
    local n = 0
    for _ in pairs(grad) do n = n + 1 end
    assert.are.equal(2, n)
  end)

  it("nested sources give gradients of the same structure; unconnected ones nil, or zeros", function()
    local x, z = tf.constant(1.0), tf.constant({ 1.0, 2.0 })
    local w = tf.Variable(5.0)
    local tape = tf.GradientTape({ persistent = true })
    tape:watch({ x, z })
    local y = x * 4 + w * 2
    tape:stop()
    local g = tape:gradient(y, { p = { x, z }, q = { r = w } })
    H.close(4.0, g.p[1])
    assert.is_nil(g.p[2])
    H.close(2.0, g.q.r)
    local gz = tape:gradient(y, { p = { x, z }, q = { r = w } }, { unconnected_gradients = "zero" })
    H.close({ 0.0, 0.0 }, gz.p[2])
    H.close(4.0, gz.p[1])
  end)
end)

describe("tape:gradient's output_gradients", function()
  local function setup()
    local x = tf.constant(2.0)
    local tape = tf.GradientTape({ persistent = true })
    tape:watch(x)
    local y0, y1 = x * x, x * 3
    tape:stop()
    return tape, x, y0, y1
  end

  it("weigh the targets leaf by leaf in the targets' structure", function()
    local tape, x, y0, y1 = setup()
    -- 2 * 2x + 10 * 3 at x = 2
    H.close(38.0, tape:gradient({ a = y0, b = y1 }, x, { a = 2.0, b = 10.0 }))
    H.close(38.0, tape:gradient({ a = y0, b = { y1 } }, x, { output_gradients = { a = 2.0, b = { 10.0 } } }))
    H.close(38.0, tape:gradient({ y0, { y1 } }, x, { tf.constant(2.0), { tf.constant(10.0) } }))
  end)

  it("are flattened as TF flattens them: a list in the targets' flat order weighs them too", function()
    local tape, x, y0, y1 = setup()
    -- keys sorted: a, then b
    H.close(38.0, tape:gradient({ b = y1, a = y0 }, x, { 2.0, 10.0 }))
  end)

  it("a count that does not match the targets' is a ValueError naming both", function()
    local tape, x, y0, y1 = setup()
    local e = typed("ValueError", function() return tape:gradient({ a = y0, b = y1 }, x, { 2.0 }) end)
    assert.truthy(e.message:find("1", 1, true) and e.message:find("2", 1, true), e.message)
    typed("ValueError", function() return tape:gradient(y0, x, { 1.0, 2.0 }) end)
    typed("ValueError", function() return tape:gradient({ y0, y1 }, x, { a = 1.0, b = 2.0, c = 3.0 }) end)
    -- one weight for one target still needs no list
    H.close(8.0, tape:gradient(y0, x, 2.0))
  end)
end)

describe("tape:jacobian with nested sources", function()
  it("gives Jacobians in the sources' structure", function()
    local x = tf.constant({ 1.0, 2.0 })
    local s = tf.constant(3.0)
    local tape = tf.GradientTape({ persistent = true })
    tape:watch({ x, s })
    local y = x * x * s
    tape:stop()
    local j = tape:jacobian(y, { a = { x }, b = { c = s } })
    H.close({ { 6.0, 0.0 }, { 0.0, 12.0 } }, j.a[1])
    H.close({ 1.0, 4.0 }, j.b.c)
  end)

  it("a table of targets is a TypeError (TF's jacobian differentiates one tensor), not its first", function()
    local x = tf.constant({ 1.0, 2.0 })
    local tape = tf.GradientTape({ persistent = true })
    tape:watch(x)
    local y, z = x * x, x * 3
    tape:stop()
    typed("TypeError", function() return tape:jacobian({ y, z }, x) end)
    typed("TypeError", function() return tape:jacobian({ y = y }, x) end)
    local bx = tf.ones({ 2, 2 })
    local t2 = tf.GradientTape({ persistent = true })
    t2:watch(bx)
    local by = bx * 2
    t2:stop()
    typed("TypeError", function() return t2:batch_jacobian({ by }, bx) end)
  end)
end)
