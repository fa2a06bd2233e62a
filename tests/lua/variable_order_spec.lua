-- variable_order_spec.lua — the order a model lists its variables in, as
-- TensorFlow: a Keras layer lists the weights it made in creation order
-- (Dense: kernel, bias), a tf.Module its fields sorted by name
-- (module.py's _flatten_module), submodules after its own, depth first.
local tf = tf or require("moonflow")

local function names(vars)
  local out = {}
  for i, v in ipairs(vars) do out[i] = v.name end
  return out
end

describe("a Keras layer's variables", function()
  -- Keras numbers layers per session (dense, dense_1, ...): start afresh,
  -- as the other spec files in this process made layers before.
  before_each(function() tf.keras.backend.clear_session() end)
  it("are in creation order: Dense kernel before bias (Keras's layer.weights)", function()
    local d = tf.keras.layers.Dense(2)
    d(tf.ones({ 1, 3 }))
    assert.same({ "dense/kernel:0", "dense/bias:0" }, names(d:trainable_variables()))
    assert.same({ "dense/kernel:0", "dense/bias:0" }, names(d:variables()))
  end)

  it("keep creation order in Conv2D and BatchNormalization, trainable or not", function()
    local c = tf.keras.layers.Conv2D(2, 3)
    c(tf.ones({ 1, 5, 5, 1 }))
    assert.same({ "conv2d/kernel:0", "conv2d/bias:0" }, names(c:trainable_variables()))
    local bn = tf.keras.layers.BatchNormalization()
    bn(tf.ones({ 2, 3 }))
    assert.same({ "batch_normalization/gamma:0", "batch_normalization/beta:0" }, names(bn:trainable_variables()))
    assert.same({ "batch_normalization/moving_mean:0", "batch_normalization/moving_variance:0" },
      names(bn:non_trainable_variables()))
  end)

  it("list a Sequential's layers in order, each layer's weights in creation order", function()
    local s = tf.keras.Sequential({ tf.keras.layers.Dense(2, { name = "first" }),
      tf.keras.layers.Dense(1, { name = "second" }) })
    s(tf.ones({ 1, 3 }))
    assert.same({ "first/kernel:0", "first/bias:0", "second/kernel:0", "second/bias:0" },
      names(s:trainable_variables()))
  end)
end)

describe("a tf.Module's variables", function()
  it("are its fields sorted by name, as TF's tf.Module (the modules guide's Dense: b before w)", function()
    local M = tf.Module:extend("M")
    function M:init()
      self.w = tf.Variable(tf.ones({ 2 }), { name = "w" })
      self.b = tf.Variable(tf.zeros({ 2 }), { name = "b" })
    end
    assert.same({ "b:0", "w:0" }, names(M():trainable_variables()))
  end)
end)
