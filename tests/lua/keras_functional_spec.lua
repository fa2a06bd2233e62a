-- keras_functional_spec.lua — Keras's functional API (issue 27):
-- tf.keras.Input's symbolic KerasTensor (printed as Keras prints it, a
-- None batch dimension), layers called on it, tf.keras.Model{inputs=,
-- outputs=} with several inputs and outputs, called eagerly and inside
-- tf.func, summary() (the chain table and the "Connected to" one), and
-- the disconnected-graph ValueError.

local tf = tf or require("moonflow")
local H = require("helpers")

describe("tf.keras.Input", function()
  before_each(function() tf.keras.backend.clear_session() end)

  it("is a KerasTensor with a None batch dimension, printed as Keras prints it", function()
    local x = tf.keras.Input({ shape = { 3 } })
    assert.are.equal("KerasTensor(type_spec=TensorSpec(shape=(None, 3), dtype=tf.float32, name='input_1'), "
      .. "name='input_1', description=\"created by layer 'input_1'\")", tostring(x))
    assert.are.equal("<KerasTensor: shape=(None, 3) dtype=float32 (created by layer 'input_1')>",
      getmetatable(x).__repr(x))
    local y = tf.keras.Input({ shape = { 4, 2 }, dtype = "int32", name = "ids" })
    assert.are.equal("(None, 4, 2)", tostring(y.shape))
    assert.are.equal("int32", y.dtype.name)
    assert.are.equal("ids", y.name)
  end)

  it("needs a shape, and refuses unknown options", function()
    H.raises("ValueError", "Please provide to Input a `shape`", function() return tf.keras.Input({}) end)
    H.raises("TypeError", "Keyword argument not understood: 'shap'", function() return tf.keras.Input({ shap = { 3 } }) end)
  end)

  it("a layer called on it gives a KerasTensor of the output shape and builds the layer", function()
    local x = tf.keras.Input({ shape = { 3 } })
    local d = tf.keras.layers.Dense(5)
    local y = d(x)
    assert.are.equal("(None, 5)", tostring(y.shape))
    assert.is_true(d.built)
    assert.are.equal("dense/kernel:0", d:variables()[1].name)
    assert.are.equal("KerasTensor(type_spec=TensorSpec(shape=(None, 5), dtype=tf.float32, name=None), "
      .. "name='dense/BiasAdd:0', description=\"created by layer 'dense'\")", tostring(y))
    local model = tf.keras.Model({ inputs = x, outputs = y })
    assert.are.equal(2, #model.layers)
    assert.are.equal("input_1", model.layers[1].name)
  end)
end)

describe("a functional tf.keras.Model", function()
  before_each(function() tf.keras.backend.clear_session() end)

  it("computes what its layers compute, eagerly and inside a tf.func", function()
    local inputs = tf.keras.Input({ shape = { 3 } })
    local d1 = tf.keras.layers.Dense(4, { activation = "relu" })
    local d2 = tf.keras.layers.Dense(2)
    local outputs = d2(d1(inputs))
    local model = tf.keras.Model({ inputs = inputs, outputs = outputs })
    assert.are.equal("model", model.name)
    local x = tf.constant({ { 1.0, 2.0, 3.0 }, { -1.0, 0.5, 2.0 } })
    local want = d2(d1(x)):numpy()
    H.close(want, model(x), 1e-6)
    local f = tf.func(function(t) return model(t) end)
    H.close(want, f(x), 1e-6)
    assert.are.equal(4, #model:trainable_variables())
  end)

  it("takes several inputs and gives several outputs", function()
    local a = tf.keras.Input({ shape = { 2 }, name = "a" })
    local b = tf.keras.Input({ shape = { 3 }, name = "b" })
    local Join = tf.keras.layers.Layer:extend("Join")
    function Join:call(xs) return tf.concat({ xs[1], xs[2] }, -1) end
    local joined = Join()({ a, b })
    assert.are.equal("(None, 5)", tostring(joined.shape))
    local function ones(shape, dtype) return tf.ones(shape, dtype) end
    local head1 = tf.keras.layers.Dense(1, { kernel_initializer = ones })(joined)
    local head2 = tf.keras.layers.Dense(2, { kernel_initializer = ones })(joined)
    local model = tf.keras.Model({ inputs = { a, b }, outputs = { head1, head2 } })
    local out = model({ tf.constant({ { 1.0, 2.0 } }), tf.constant({ { 3.0, 4.0, 5.0 } }) })
    H.tensor(out[1], tf.float32, { 1, 1 }, { { 15 } })
    H.tensor(out[2], tf.float32, { 1, 2 }, { { 15, 15 } })
    H.raises("ValueError", 'Layer "model" expects 2 input(s), but it received 1 input tensors.',
      function() return model(tf.constant({ { 1.0, 2.0 } })) end)
  end)

  it("summary() of a chain: the InputLayer row, (None, n) shapes, totals", function()
    local inputs = tf.keras.Input({ shape = { 3 } })
    local x = tf.keras.layers.Dense(3)(inputs)
    x = tf.keras.layers.Dense(2)(x)
    local model = tf.keras.Model({ inputs = inputs, outputs = x })
    local lines = H.capture(function() model:summary() end)
    assert.are.same({
      'Model: "model"',
      "_________________________________________________________________",
      " Layer (type)                Output Shape              Param #   ",
      "=================================================================",
      " input_1 (InputLayer)        [(None, 3)]               0         ",
      "                                                                 ",
      " dense (Dense)               (None, 3)                 12        ",
      "                                                                 ",
      " dense_1 (Dense)             (None, 2)                 8         ",
      "                                                                 ",
      "=================================================================",
      "Total params: 20 (80.00 Byte)",
      "Trainable params: 20 (80.00 Byte)",
      "Non-trainable params: 0 (0.00 Byte)",
      "_________________________________________________________________",
    }, lines)
  end)

  it("summary() of a model with two inputs: the wide table with 'Connected to'", function()
    local a = tf.keras.Input({ shape = { 2 } })
    local b = tf.keras.Input({ shape = { 2 } })
    local Sum = tf.keras.layers.Layer:extend("Sum")
    function Sum:call(xs) return xs[1] + xs[2] end
    local s = Sum()({ a, b })
    local y = tf.keras.layers.Dense(1)(s)
    local model = tf.keras.Model({ inputs = { a, b }, outputs = y })
    local lines = H.capture(function() model:summary() end)
    assert.are.equal(" Layer (type)                Output Shape                 Param #   Connected to                  ", lines[3])
    assert.are.equal(" input_1 (InputLayer)        [(None, 2)]                  0         []                            ", lines[5])
    assert.are.equal(" sum (Sum)                   (None, 2)                    0         ['input_1[0][0]',             ", lines[9])
    assert.are.equal("                                                                     'input_2[0][0]']             ", lines[10])
    assert.are.equal(" dense (Dense)               (None, 1)                    3         ['sum[0][0]']                 ", lines[12])
    assert.are.equal("Total params: 3 (12.00 Byte)", lines[15])
  end)

  it("with an input the outputs do not depend on is Keras's 'Graph disconnected' ValueError", function()
    local a = tf.keras.Input({ shape = { 3 } })
    local b = tf.keras.Input({ shape = { 3 } })
    local y = tf.keras.layers.Dense(2)(b)
    H.raises("ValueError", "Graph disconnected: cannot obtain value for tensor KerasTensor(type_spec=TensorSpec("
      .. "shape=(None, 3), dtype=tf.float32, name='input_2'), name='input_2', description=\"created by layer "
      .. "'input_2'\") at layer \"dense\". The following previous layers were accessed without issue: []",
      function() return tf.keras.Model({ inputs = a, outputs = y }) end)
  end)

  it("takes the built-in layers (Flatten, Dropout, BatchNormalization); training reaches them", function()
    local inputs = tf.keras.Input({ shape = { 2, 2 } })
    local x = tf.keras.layers.Flatten()(inputs)
    assert.are.equal("(None, 4)", tostring(x.shape))
    x = tf.keras.layers.BatchNormalization()(x)
    local y = tf.keras.layers.Dropout(0.5, { seed = 1 })(x)
    local model = tf.keras.Model({ inputs = inputs, outputs = y })
    assert.are.same({ "batch_normalization/gamma:0", "batch_normalization/beta:0" },
      (function() local n = {} for i, v in ipairs(model:trainable_variables()) do n[i] = v.name end return n end)())
    assert.are.equal(2, #model:non_trainable_variables())
    local data = tf.constant({ { { 1.0, 2.0 }, { 3.0, 4.0 } }, { { 5.0, 6.0 }, { 7.0, 8.0 } } })
    -- Inference: the moving statistics (0 and 1) and no dropout.
    H.close({ { 1, 2, 3, 4 }, { 5, 6, 7, 8 } }, model(data), 1e-2)
    -- Training: the batch's statistics, and dropout zeroes some values.
    local trained = model(data, { training = true }):numpy()
    local zeros = 0
    for _, row in ipairs(trained) do for _, v in ipairs(row) do if v == 0 then zeros = zeros + 1 end end end
    assert.is_true(zeros > 0)
  end)

  it("needs both inputs and outputs", function()
    local a = tf.keras.Input({ shape = { 3 } })
    H.raises("TypeError", "Functional model requires both `inputs` and `outputs`.",
      function() return tf.keras.Model({ inputs = a }) end)
  end)
end)
