-- backward_ops_spec.lua — the ops a traced backward pass holds are those
-- TF's math_grad.py rules make: a graph of a tape's gradient is one of the
-- things moonflow shows, so the same computation written with other ops
-- (dy * 0.5 / y for SqrtGrad, dy / x for dy * reciprocal(x)) is a
-- difference from TF, not a detail. Each case traces one op's gradient
-- and lists the op types under gradient_tape/.
local tf = tf or require("moonflow")
local H = require("helpers")

-- The op types of the backward pass (ops named under gradient_tape/) of
-- fn's gradient at x.
local function backward_types(fn, x)
  local f = tf.func(function(t)
    local tape = tf.GradientTape()
    tape:watch(t)
    local y = fn(t)
    tape:stop()
    return tape:gradient(y, t)
  end)
  local types = {}
  for _, op in ipairs(f:get_concrete_function(x).graph:get_operations()) do
    if op.name:match("^gradient_tape/") and op.type ~= "Const" and op.type ~= "OnesLike" then
      types[#types + 1] = op.type
    end
  end
  table.sort(types)
  return types, f(x)
end

describe("a traced backward pass holds TF's ops", function()
  local x = tf.constant({ 0.5, 2.0, 4.0 })

  it("sqrt: SqrtGrad", function()
    local types, g = backward_types(tf.sqrt, x)
    assert.are.same({ "SqrtGrad" }, types)
    H.close({ 0.5 / math.sqrt(0.5), 0.5 / math.sqrt(2), 0.25 }, g)
  end)

  it("rsqrt: RsqrtGrad", function()
    local types, g = backward_types(tf.math.rsqrt, x)
    assert.are.same({ "RsqrtGrad" }, types)
    H.close({ -0.5 * 0.5 ^ -1.5, -0.5 * 2 ^ -1.5, -0.5 * 4 ^ -1.5 }, g)
  end)

  it("log: grad * reciprocal(x)", function()
    local types, g = backward_types(tf.log, x)
    assert.are.same({ "Mul", "Reciprocal" }, types)
    H.close({ 2.0, 0.5, 0.25 }, g)
  end)

  it("log1p: grad * reciprocal(1 + x)", function()
    local types, g = backward_types(tf.math.log1p, x)
    assert.are.same({ "AddV2", "Mul", "Reciprocal" }, types)
    H.close({ 1 / 1.5, 1 / 3, 1 / 5 }, g)
  end)

  it("slice: the gradient padded back (array_grad.py _SliceGrad)", function()
    local types, g = backward_types(function(t) return tf.slice(t, { 1 }, { 1 }) * 3 end, x)
    local seen = {}
    for _, t in ipairs(types) do seen[t] = true end
    assert.is_true(seen.Pad, table.concat(types, " "))
    assert.is_nil(seen.UnsortedSegmentSum, table.concat(types, " "))
    H.close({ 0.0, 3.0, 0.0 }, g)
  end)

  it("mirror pad: MirrorPadGrad, and MirrorPad back (array_grad.py _MirrorPadGrad)", function()
    local types, g = backward_types(function(t) return tf.pad(t, { { 2, 1 } }, "REFLECT") end, x)
    assert.are.same({ "MirrorPadGrad" }, types)
    H.close({ 1.0, 3.0, 2.0 }, g) -- [4 2 | 0.5 2 4 | 2]: x[1] thrice, x[2] twice
    local second = tf.func(function(t)
      local outer = tf.GradientTape()
      outer:watch(t)
      local inner = tf.GradientTape()
      inner:watch(t)
      local y = tf.pad(t, { { 1, 1 } }, "SYMMETRIC")
      inner:stop()
      local dy = inner:gradient(y, t, tf.constant({ 1.0, 2.0, 3.0, 4.0, 5.0 }))
      outer:stop()
      return outer:gradient(dy, t)
    end)
    local seen = {}
    for _, op in ipairs(second:get_concrete_function(x).graph:get_operations()) do seen[op.type] = true end
    assert.is_true(seen.MirrorPadGrad and seen.MirrorPad)
  end)

  it("reduce_sum and reduce_mean of known shapes: a Reshape and a Tile (_SumGrad)", function()
    local types, g = backward_types(function(t) return tf.reduce_sum(tf.reshape(t, { 3, 1 }), 1) end, x)
    local seen = {}
    for _, t in ipairs(types) do seen[t] = true end
    assert.is_true(seen.Tile, table.concat(types, " "))
    assert.is_nil(seen.BroadcastTo, table.concat(types, " "))
    H.close({ 1.0, 1.0, 1.0 }, g)
    types, g = backward_types(function(t) return tf.reduce_mean(t) end, x)
    assert.are.same({ "RealDiv", "Reshape", "Tile" }, types)
    H.close({ 1 / 3, 1 / 3, 1 / 3 }, g)
  end)

  it("reduce_max: (indicators / count) * grad", function()
    local types, g = backward_types(function(t) return tf.reduce_max(tf.concat({ t, t }, 0)) end, x)
    -- the concat's gradient slices; the max's divides before it multiplies
    local seen = {}
    for _, t in ipairs(types) do seen[t] = true end
    assert.is_true(seen.RealDiv and seen.Mul and seen.Equal, table.concat(types, " "))
    H.close({ 0.0, 0.0, 1.0 }, g)
  end)
end)
