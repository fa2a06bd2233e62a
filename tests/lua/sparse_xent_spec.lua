-- sparse_xent_spec.lua — tf.nn.sparse_softmax_cross_entropy_with_logits
-- as TF's Python wrapper (nn_ops.py) shapes it: any rank of logits with
-- labels of one rank less (flattened to the 2-D op and reshaped back), and
-- TF's ValueErrors for shapes that do not fit.

local function close(want, got)
  local g = got:numpy()
  if type(want) == "number" then return assert.is_true(math.abs(want - g) < 1e-6, tostring(g)) end
  for i, w in ipairs(want) do
    if type(w) == "table" then
      for j, x in ipairs(w) do assert.is_true(math.abs(x - g[i][j]) < 1e-6, tostring(g[i][j])) end
    else
      assert.is_true(math.abs(w - g[i]) < 1e-6, tostring(g[i]))
    end
  end
end

local xent = tf.nn.sparse_softmax_cross_entropy_with_logits
local LOG3 = math.log(3)

describe("sparse_softmax_cross_entropy_with_logits", function()
  it("takes a scalar label with rank-1 logits (a scalar cost)", function()
    local cost = xent(tf.constant(1), tf.constant({ 1.0, 2.0 }))
    assert.are.same({}, cost.shape:as_list())
    close(math.log(1 + math.exp(-1)), cost)
  end)

  it("flattens higher ranks and gives the cost the labels' shape, eagerly and traced", function()
    local labels, logits = tf.constant({ { 0, 1 } }), tf.ones({ 1, 2, 3 })
    local eager = xent(labels, logits)
    assert.are.same({ 1, 2 }, eager.shape:as_list())
    close({ { LOG3, LOG3 } }, eager)
    local f = tf.func(function(l, g) return xent(l, g) end, { input_signature = {
      tf.TensorSpec(nil, tf.int32), tf.TensorSpec(nil, tf.float32) } })
    close({ { LOG3, LOG3 } }, f(labels, logits))
  end)

  it("differentiates through the reshapes", function()
    local logits = tf.constant({ { { 1.0, 2.0, 3.0 } } })
    local tape = tf.GradientTape()
    tape:watch(logits)
    local cost = xent(tf.constant({ { 2 } }), logits)
    tape:stop()
    local g = tape:gradient(cost, logits)
    assert.are.same({ 1, 1, 3 }, g.shape:as_list())
    local e = { math.exp(1), math.exp(2), math.exp(3) }
    local z = e[1] + e[2] + e[3]
    local got = g:numpy()[1][1]
    for k, want in ipairs({ e[1] / z, e[2] / z, e[3] / z - 1 }) do
      assert.is_true(math.abs(want - got[k]) < 1e-6)
    end
  end)

  it("raises TF's ValueErrors for shapes that do not fit", function()
    local ok, err = pcall(xent, tf.constant({ 0, 1 }), tf.ones({ 2 }))
    assert.equal("ValueError", err.type)
    assert.equal("`labels.shape.rank` must equal `logits.shape.rank - 1`. Received: labels.shape=(2,) of "
      .. "rank 1 and logits.shape=(2,) of rank 1", err.message)
    ok, err = pcall(xent, tf.constant({ 0, 1 }), tf.ones({ 3, 4 }))
    assert.equal("ValueError", err.type)
    assert.truthy(err.message:find("`labels.shape` must equal `logits.shape` except for the last dimension", 1, true))
    ok, err = pcall(xent, tf.constant(0), tf.constant(1.0))
    assert.is_false(ok)
    assert.equal("ValueError", err.type)
    assert.truthy(err.message:find("`logits` cannot be a scalar", 1, true))
  end)
end)
