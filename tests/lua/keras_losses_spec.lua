-- keras_losses_spec.lua — tf.keras.losses: the per-example functions
-- against torch.nn.functional (keras_parts_ref.lua), the classes'
-- reductions and sample weights as Keras's docs show them, eagerly, traced
-- and under a tape, Keras's shape errors, and get.

local tf = tf or require("moonflow")
local H = require("helpers")
local REF = require("keras_parts_ref").losses
local L = tf.keras.losses

describe("loss functions against torch", function()
  it("mean_squared_error, mean_absolute_error and huber per example", function()
    H.close(REF.mse, L.mean_squared_error(REF.reg_true, REF.reg_pred), 1e-6)
    H.close(REF.mse, L.mse(REF.reg_true, REF.reg_pred), 1e-6)
    H.close(REF.mae, L.mean_absolute_error(REF.reg_true, REF.reg_pred), 1e-6)
    H.close(REF.huber, L.huber(REF.reg_true, REF.reg_pred), 1e-6)
    -- torch's huber_loss with delta 2 is Keras's (both are delta * (|e| - delta / 2) beyond delta).
    H.close(REF.huber_2, L.huber(REF.reg_true, REF.reg_pred, 2.0), 1e-6)
  end)
  it("the cross-entropies, from probabilities and from logits", function()
    H.close(REF.bce, L.binary_crossentropy(REF.bin_true, REF.bin_pred), 1e-5)
    H.close(REF.bce_logits, L.binary_crossentropy(REF.bin_true, REF.logits, true), 1e-5)
    H.close(REF.cce, L.categorical_crossentropy(REF.y_true, REF.probs), 1e-5)
    H.close(REF.cce_logits, L.categorical_crossentropy(REF.y_true, REF.logits, { from_logits = true }), 1e-5)
    H.close(REF.cce_logits_smooth, L.categorical_crossentropy(REF.y_true, REF.logits, true, 0.2), 1e-5)
    H.close(REF.scce_logits, L.sparse_categorical_crossentropy({ 1, 2 }, REF.logits, true), 1e-5)
    H.close(REF.scce_logits, L.sparse_categorical_crossentropy({ { 1 }, { 2 } }, REF.logits, true), 1e-5)
    H.close(REF.cce, L.sparse_categorical_crossentropy({ 1, 2 }, REF.probs), 1e-5)
  end)
  it("clip probabilities to [1e-7, 1 - 1e-7] as Keras does", function()
    -- Keras: -log(1e-7 + 1e-7) for a certain, wrong prediction
    H.close({ -math.log(2e-7) }, L.binary_crossentropy({ { 1.0 } }, { { 0.0 } }), 1e-4)
    H.close({ -math.log(1e-7) }, L.categorical_crossentropy({ { 1.0, 0.0 } }, { { 0.0, 1.0 } }), 1e-4)
  end)
end)

-- The examples of Keras's docstrings (keras/losses.py).
describe("loss classes", function()
  local y_true = { { 0.0, 1.0 }, { 0.0, 0.0 } }
  local y_pred = { { 1.0, 1.0 }, { 1.0, 0.0 } }
  it("MeanSquaredError: reductions and sample_weight", function()
    H.tensor_close(L.MeanSquaredError()(y_true, y_pred), tf.float32, {}, 0.5)
    H.close(0.25, L.MeanSquaredError()(y_true, y_pred, { 0.7, 0.3 }), 1e-6)
    H.close(1.0, L.MeanSquaredError("sum")(y_true, y_pred), 1e-6)
    H.tensor_close(L.MeanSquaredError({ reduction = "none" })(y_true, y_pred), tf.float32, { 2 }, { 0.5, 0.5 })
    assert.are.equal("mean_squared_error", L.MeanSquaredError().name)
  end)
  it("MeanAbsoluteError and Huber", function()
    H.close(0.5, L.MeanAbsoluteError()(y_true, y_pred), 1e-6)
    H.close(0.25, L.MeanAbsoluteError()(y_true, y_pred, { 0.7, 0.3 }), 1e-6)
    local hp = { { 0.6, 0.4 }, { 0.4, 0.6 } }
    H.close(0.155, L.Huber()(y_true, hp), 1e-6)
    H.close(0.09, L.Huber()(y_true, hp, { 1, 0 }), 1e-6)
    H.close(0.31, L.Huber({ reduction = "sum" })(y_true, hp), 1e-6)
    assert.are.equal("huber_loss", L.Huber().name)
  end)
  it("BinaryCrossentropy: probabilities, logits, label smoothing", function()
    local p = { { 0.6, 0.4 }, { 0.4, 0.6 } }
    H.close(0.815, L.BinaryCrossentropy()(y_true, p), 1e-3)
    H.close(0.458, L.BinaryCrossentropy()(y_true, p, { 1, 0 }), 1e-3)
    local logits = { { -18.6, 0.51 }, { 2.94, -12.8 } }
    H.close(0.865, L.BinaryCrossentropy(true)(y_true, logits), 1e-3)
    -- label_smoothing 0.2: labels 0.1 and 0.9
    local want = L.binary_crossentropy({ { 0.1, 0.9 }, { 0.1, 0.1 } }, logits, true)
    H.close(tf.reduce_mean(want):numpy(),
      L.BinaryCrossentropy({ from_logits = true, label_smoothing = 0.2 })(y_true, logits), 1e-6)
  end)
  it("CategoricalCrossentropy and SparseCategoricalCrossentropy", function()
    local oh = { { 0, 1, 0 }, { 0, 0, 1 } }
    local p = { { 0.05, 0.95, 0 }, { 0.1, 0.8, 0.1 } }
    H.close(1.177, L.CategoricalCrossentropy()(oh, p), 1e-3)
    H.close(0.814, L.CategoricalCrossentropy()(oh, p, { 0.3, 0.7 }), 1e-3)
    H.close(2.354, L.CategoricalCrossentropy({ reduction = "sum" })(oh, p), 1e-3)
    H.close(1.177, L.SparseCategoricalCrossentropy()({ 1, 2 }, p), 1e-3)
    H.close(0.814, L.SparseCategoricalCrossentropy()({ 1, 2 }, p, { 0.3, 0.7 }), 1e-3)
    H.tensor_close(L.SparseCategoricalCrossentropy({ reduction = "none" })({ 1, 2 }, p), tf.float32, { 2 },
      { 0.0513, 2.303 }, 1e-3)
  end)
  it("work traced and under a tape (gradient of MSE is 2 (y_pred - y_true) / n)", function()
    local loss = L.MeanSquaredError()
    local f = tf.func(function(a, b) return loss(a, b) end)
    H.close(0.5, f(tf.constant(y_true), tf.constant(y_pred)), 1e-6)
    local p = tf.Variable(y_pred)
    local tape = tf.GradientTape()
    local l = loss(y_true, p)
    tape:stop()
    H.close({ { 0.5, 0.0 }, { 0.5, 0.0 } }, tape:gradient(l, p), 1e-6)
    -- softmax cross-entropy from logits: softmax - labels, over the batch
    local z = tf.Variable({ { 0.0, 0.0 } })
    local tape2 = tf.GradientTape()
    local l2 = L.SparseCategoricalCrossentropy(true)({ 1 }, z)
    tape2:stop()
    H.close({ { 0.5, -0.5 } }, tape2:gradient(l2, z), 1e-6)
  end)
end)

describe("Loss", function()
  it("a subclass defines call; the base weights and reduces it", function()
    local Abs = L.Loss:extend("Abs")
    function Abs:call(y_true, y_pred) return tf.reduce_mean(tf.abs(y_pred - y_true), -1) end
    H.close(1.5, Abs()({ { 1.0, 2.0 } }, { { 0.0, 4.0 } }), 1e-6)
    H.close(3.0, Abs("sum")({ { 1.0, 2.0 }, { 1.0, 2.0 } }, { { 0.0, 4.0 }, { 0.0, 4.0 } }), 1e-6)
    H.raises("NotImplementedError", "Must be implemented in subclasses.", function() return L.Loss()({ 1.0 }, { 1.0 }) end)
  end)
end)

describe("loss errors", function()
  it("shapes that do not match are Keras's errors", function()
    H.raises("ValueError", "Shapes (2, 3) and (2, 2) are incompatible",
      function() return L.CategoricalCrossentropy()({ { 0, 1, 0 }, { 1, 0, 0 } }, { { 0.5, 0.5 }, { 0.5, 0.5 } }) end)
    H.raises("ValueError", "logits and labels must have the same shape, received ((2, 2) vs (2, 3))",
      function() return L.BinaryCrossentropy(true)({ { 0, 1, 0 }, { 1, 0, 0 } }, { { 0.5, 0.5 }, { 0.5, 0.5 } }) end)
    H.raises("InvalidArgumentError", nil,
      function() return L.MeanSquaredError()({ { 0, 1, 0 } }, { { 0.5, 0.5 } }) end)
  end)
  it("options of the wrong kind are TypeErrors naming them", function()
    H.raises("TypeError", "tf.keras.losses.binary_crossentropy: argument 'from_logits' must be a boolean, got a string",
      function() return L.binary_crossentropy({ { 1.0 } }, { { 0.5 } }, "yes") end)
    H.raises("TypeError", "argument 'label_smoothing' must be a number",
      function() return L.CategoricalCrossentropy({ label_smoothing = {} })({ { 1.0 } }, { { 0.5 } }) end)
    H.raises("TypeError", "argument 'axis' must be an integer",
      function() return L.sparse_categorical_crossentropy({ 0 }, { { 0.5 } }, false, 0.5) end)
  end)
  it("an unknown reduction is Keras's ValueError", function()
    H.raises("ValueError", "Invalid Reduction Key: mean.", function() return L.MeanSquaredError("mean") end)
    H.raises("TypeError", "unexpected keyword argument 'from_logit'", function()
      return L.BinaryCrossentropy({ from_logit = true })
    end)
  end)
end)

describe("tf.keras.losses.get", function()
  it("turns TF's names into losses", function()
    assert.are.equal(L.mean_squared_error, L.get("mse"))
    assert.are.equal(L.mean_squared_error, L.get("mean_squared_error"))
    assert.are.equal(L.mean_absolute_error, L.get("mae"))
    assert.are.equal(L.sparse_categorical_crossentropy, L.get("sparse_categorical_crossentropy"))
    assert.are.equal(L.categorical_crossentropy, L.get("categorical_crossentropy"))
    assert.are.equal(L.binary_crossentropy, L.get("binary_crossentropy"))
    assert.are.equal(L.huber, L.get("huber"))
    assert.are.equal(L.Huber, getmetatable(L.get("Huber")))
    local obj = L.MeanSquaredError()
    assert.are.equal(obj, L.get(obj))
    assert.is_nil(L.get(nil))
  end)
  it("refuses an unknown name with Keras's ValueError", function()
    H.raises("ValueError", "Unknown loss function: 'msee'", function() return L.get("msee") end)
    H.raises("ValueError", "Could not interpret loss function identifier: 7", function() return L.get(7) end)
  end)
end)
