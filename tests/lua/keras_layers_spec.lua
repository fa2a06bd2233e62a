-- keras_layers_spec.lua — the Keras layers of keras_layers.lua:
-- MaxPooling2D, AveragePooling2D, Flatten, Dropout, BatchNormalization,
-- LayerNormalization, Embedding. Their values against the formulas Keras
-- documents, the `training` flag, the trainable / non-trainable split and
-- its order, and a traced training step through the optimiser.

local tf = tf or require("moonflow")
local H = require("helpers")
local L = tf.keras.layers

local function names(vars)
  local out = {}
  for i, v in ipairs(vars) do out[i] = v.name end
  return out
end

local function ramp(sizes)
  local n = 1
  for _, d in ipairs(sizes) do n = n * d end
  return tf.reshape(tf.range(1, n + 1, 1, tf.float32), sizes)
end

describe("pooling layers", function()
  it("MaxPooling2D: pool_size 2 and strides = pool_size by default", function()
    local y = L.MaxPooling2D()(ramp({ 1, 4, 4, 1 }))
    H.tensor(y, tf.float32, { 1, 2, 2, 1 }, { { { { 6 }, { 8 } }, { { 14 }, { 16 } } } })
  end)
  it("AveragePooling2D with strides and 'same' padding", function()
    local y = L.AveragePooling2D({ 2, 2 }, 2, "same")(ramp({ 1, 2, 4, 3 }))
    H.tensor(y, tf.float32, { 1, 1, 2, 3 }, { { { { 8.5, 9.5, 10.5 }, { 14.5, 15.5, 16.5 } } } })
    local z = L.AveragePooling2D({ pool_size = 3, strides = 1, padding = "valid" })(ramp({ 1, 3, 3, 1 }))
    H.tensor(z, tf.float32, { 1, 1, 1, 1 }, { { { { 5 } } } })
  end)
  it("have no variables and check their options", function()
    assert.are.same({}, L.MaxPooling2D():variables())
    H.raises("ValueError", "'valid' or 'same'", function() return L.MaxPooling2D(2, 2, "full") end)
    H.raises("ValueError", "channels_first", function() return L.AveragePooling2D(2, nil, nil, "channels_first") end)
    H.raises("TypeError", "unexpected keyword argument 'pool'", function() return L.MaxPooling2D({ pool = 2 }) end)
  end)
end)

describe("Flatten", function()
  it("keeps the batch and multiplies the rest", function()
    H.tensor(L.Flatten()(tf.zeros({ 3, 2, 2, 5 })), tf.float32, { 3, 20 })
    H.tensor(L.Flatten()(tf.zeros({ 4 })), tf.float32, { 4, 1 })
  end)
  it("works on a batch of unknown size when traced", function()
    local seen
    local f = tf.func(function(x)
      local y = L.Flatten()(x)
      seen = y.shape:as_list()
      return y
    end, { input_signature = { tf.TensorSpec({ tf.None, 2, 3 }, tf.float32) } })
    H.tensor(f(ramp({ 2, 2, 3 })), tf.float32, { 2, 6 }, { { 1, 2, 3, 4, 5, 6 }, { 7, 8, 9, 10, 11, 12 } })
    assert.are.same({ tf.None, 6 }, seen)
  end)
end)

describe("Dropout", function()
  it("is the identity unless training", function()
    local d = L.Dropout(0.5)
    local x = ramp({ 4, 4 })
    assert.are.equal(x, d(x))
    assert.are.equal(x, d(x, false))
    assert.are.equal(x, d(x, { training = false }))
  end)
  it("drops and scales when training", function()
    tf.random.set_seed(2)
    local d = L.Dropout(0.5, { seed = 4 })
    local y = d(tf.ones({ 20, 20 }), { training = true }):numpy()
    local zeros = 0
    for _, row in ipairs(y) do
      for _, v in ipairs(row) do
        assert.is_true(v == 0 or v == 2, tostring(v))
        if v == 0 then zeros = zeros + 1 end
      end
    end
    assert.is_true(zeros > 100 and zeros < 300, "zeros: " .. zeros)
    H.raises("ValueError", "between 0 and 1", function() return L.Dropout(1.5) end)
    H.raises("TypeError", "training", function() return d(tf.ones({ 2 }), { trainig = true }) end)
  end)
end)

describe("BatchNormalization", function()
  local x = tf.constant({ { 1, 10 }, { 3, 20 }, { 5, 60 } }, tf.float32)
  it("splits gamma and beta (trainable) from the moving statistics (not), in Keras's order", function()
    local bn = L.BatchNormalization({ name = "bn" })
    bn(x)
    assert.are.same({ "bn/gamma:0", "bn/beta:0" }, names(bn:trainable_variables()))
    assert.are.same({ "bn/moving_mean:0", "bn/moving_variance:0" }, names(bn:non_trainable_variables()))
    assert.are.same({ "bn/gamma:0", "bn/beta:0", "bn/moving_mean:0", "bn/moving_variance:0" },
      names(bn:variables()))
    local plain = L.BatchNormalization({ center = false, scale = false, name = "plain" })
    plain(x)
    assert.are.same({}, plain:trainable_variables())
  end)
  it("inference (the default) uses the moving statistics: x / sqrt(1 + epsilon) at first", function()
    local bn = L.BatchNormalization()
    local y = bn(x)
    H.close({ { 1 / math.sqrt(1.001), 10 / math.sqrt(1.001) }, { 3 / math.sqrt(1.001), 20 / math.sqrt(1.001) },
      { 5 / math.sqrt(1.001), 60 / math.sqrt(1.001) } }, y)
    H.close({ 0, 0 }, bn.moving_mean:numpy())
  end)
  it("training normalises with the batch's statistics and moves the averages", function()
    local bn = L.BatchNormalization(-1, 0.9, 0.001)
    local y = bn(x, true)
    -- column 0: mean 3, biased variance 8/3; column 1: mean 30, variance 1400/3
    local v0, v1 = 8 / 3, 1400 / 3
    H.close({ { -2 / math.sqrt(v0 + 0.001), -20 / math.sqrt(v1 + 0.001) },
      { 0, -10 / math.sqrt(v1 + 0.001) }, { 2 / math.sqrt(v0 + 0.001), 30 / math.sqrt(v1 + 0.001) } }, y, 1e-5)
    H.close({ 0.3, 3.0 }, bn.moving_mean:numpy(), 1e-6)
    H.close({ 0.9 + 0.1 * v0, 0.9 + 0.1 * v1 }, bn.moving_variance:numpy(), 1e-5)
  end)
  it("a frozen layer (trainable = false) runs in inference mode and moves nothing", function()
    local bn = L.BatchNormalization({ trainable = false })
    bn(x, { training = true })
    H.close({ 0, 0 }, bn.moving_mean:numpy())
    assert.are.same({}, bn:trainable_variables())
  end)
  it("casts a float64 input to its float32, as Keras's dtype policy", function()
    local y = L.BatchNormalization()(tf.constant({ { 1, 2 } }, tf.float64), true)
    H.tensor(y, tf.float32, { 1, 2 }, { { 0, 0 } })
    H.tensor(L.LayerNormalization()(tf.constant({ { 1, 1 } }, tf.float64)), tf.float32, { 1, 2 }, { { 0, 0 } })
  end)
  it("normalises the channels of an NHWC batch", function()
    local bn = L.BatchNormalization()
    local y = bn(ramp({ 2, 2, 2, 3 }), true)
    H.tensor(y, tf.float32, { 2, 2, 2, 3 })
    H.close({ 0, 0, 0 }, tf.reduce_mean(y, { 0, 1, 2 }), 1e-5)
    assert.are.same({ 3 }, bn.gamma.shape:as_list())
  end)
end)

describe("LayerNormalization", function()
  it("normalises each example over the last axis", function()
    local ln = L.LayerNormalization({ name = "ln" })
    local y = ln(tf.constant({ { 1, 2, 3 }, { 2, 2, 8 } }, tf.float32))
    local s0, s1 = math.sqrt(2 / 3 + 0.001), math.sqrt(8 + 0.001)
    H.close({ { -1 / s0, 0, 1 / s0 }, { -2 / s1, -2 / s1, 4 / s1 } }, y, 1e-5)
    assert.are.same({ "ln/gamma:0", "ln/beta:0" }, names(ln:trainable_variables()))
    assert.are.same({}, ln:non_trainable_variables())
  end)
  it("takes a list of axes", function()
    local ln = L.LayerNormalization({ 1, 2 })
    local y = ln(ramp({ 2, 2, 3 }))
    H.close({ 0, 0 }, tf.reduce_mean(y, { 1, 2 }), 1e-5)
    assert.are.same({ 2, 3 }, ln.gamma.shape:as_list())
  end)
end)

describe("Embedding", function()
  it("looks up rows of a trainable table made on the first call", function()
    local e = L.Embedding(5, 3, { name = "emb" })
    local y = e(tf.constant({ { 0, 4 }, { 2, 2 } }))
    H.tensor(y, tf.float32, { 2, 2, 3 })
    assert.are.same({ "emb/embeddings:0" }, names(e:trainable_variables()))
    local t = e.embeddings:numpy()
    assert.are.same(t[5], y:numpy()[1][2])
    for _, row in ipairs(t) do
      for _, v in ipairs(row) do assert.is_true(v >= -0.05 and v < 0.05) end
    end
    H.raises("ValueError", "should be positive", function() return L.Embedding(0, 3) end)
  end)
  it("takes an initializer and trains through a tape", function()
    local e = L.Embedding(3, 2, { embeddings_initializer = "ones" })
    local tape <close> = tf.GradientTape()
    local loss = tf.reduce_sum(e(tf.constant({ 1, 1, 2 })))
    local g = tape:gradient(loss, e:trainable_variables())
    H.tensor(g[1], tf.float32, { 3, 2 }, { { 0, 0 }, { 2, 2 }, { 1, 1 } })
  end)
end)

describe("a small convolutional model", function()
  it("trains in a tf.func step: eager and traced give the same variables", function()
    local function model()
      return {
        conv = L.Conv2D(2, 3, { padding = "same", kernel_initializer = function(shape)
          return tf.reshape(tf.range(1, 19, 1, tf.float32), shape) / 10
        end }),
        bn = L.BatchNormalization(),
        pool = L.MaxPooling2D(),
        drop = L.Dropout(0.25),
        flat = L.Flatten(),
        dense = L.Dense(3, { kernel_initializer = function(shape)
          return tf.reshape(tf.cos(tf.range(0, 24, 1, tf.float32)), shape)
        end }),
      }
    end
    local function forward(m, x, training)
      local h = tf.nn.relu(m.bn(m.conv(x), training))
      return m.dense(m.flat(m.drop(m.pool(h), training)))
    end
    local x = tf.reshape(tf.sin(tf.range(0, 32, 1, tf.float32)), { 2, 4, 4, 1 })
    local labels = tf.constant({ 0, 2 })
    local function step(m, opt)
      local tape <close> = tf.GradientTape()
      local logits = forward(m, x, true)
      local loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits))
      local vars = {}
      for _, k in ipairs({ "conv", "bn", "dense" }) do
        for _, v in ipairs(m[k]:trainable_variables()) do vars[#vars + 1] = v end
      end
      local grads = tape:gradient(loss, vars)
      local pairs_ = {}
      for i, v in ipairs(vars) do pairs_[i] = { grads[i], v } end
      opt:apply_gradients(pairs_)
      return loss
    end
    local a, b = model(), model()
    local oa, ob = tf.keras.optimizers.SGD(0.1), tf.keras.optimizers.SGD(0.1)
    local traced = tf.func(function() return step(b, ob) end)
    for i = 1, 3 do
      tf.random.set_seed(i)
      local la = step(a, oa)
      tf.random.set_seed(i)
      local lb = traced()
      H.close(la:numpy(), lb:numpy(), 1e-5)
    end
    H.close(a.bn.moving_mean:numpy(), b.bn.moving_mean:numpy(), 1e-5)
    H.close(a.dense.kernel:numpy(), b.dense.kernel:numpy(), 1e-5)
    assert.are_not.same({ 0, 0 }, a.bn.moving_mean:numpy())
  end)
end)
