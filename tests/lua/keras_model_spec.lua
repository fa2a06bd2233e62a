-- keras_model_spec.lua — tf.keras.layers.Layer and tf.keras.Model as
-- subclassable bases (issue 27): the build step (once, on the first call,
-- with the input's TensorShape), add_weight, variables in creation order,
-- trainable = false freezing, nested layers tracked as attributes and in
-- tables, Keras's numbered names and TF's variable names, get_config,
-- summary() of a subclassed model and of a Sequential, and Keras's errors.

local tf = tf or require("moonflow")
local H = require("helpers")

local function names(vars)
  local out = {}
  for i, v in ipairs(vars) do out[i] = v.name end
  return out
end

local function linear_class()
  local Linear = tf.keras.layers.Layer:extend("Linear")
  function Linear:init(units, opts)
    tf.keras.layers.Layer.init(self, opts)
    self.units = units
    self.build_calls = 0
  end
  function Linear:build(input_shape)
    self.build_calls = self.build_calls + 1
    self.seen_shape = input_shape
    self.w = self:add_weight({ name = "w", shape = { input_shape[-1], self.units }, initializer = "ones" })
    self.b = self:add_weight({ name = "b", shape = { self.units }, initializer = "zeros" })
  end
  function Linear:call(x)
    return tf.matmul(x, self.w) + self.b
  end
  return Linear
end

describe("a tf.keras.layers.Layer subclass", function()
  before_each(function() tf.keras.backend.clear_session() end)

  it("builds once, on the first call, with the input's TensorShape, under its name", function()
    local Linear = linear_class()
    local layer = Linear(2)
    assert.are.equal("linear", layer.name)
    assert.are.same({}, layer:variables())
    assert.is_false(layer.built)
    local y = layer(tf.constant({ { 1.0, 2.0, 3.0 } }))
    H.tensor(y, tf.float32, { 1, 2 }, { { 6, 6 } })
    assert.is_true(layer.built)
    assert.are.equal("(1, 3)", tostring(layer.seen_shape))
    layer(tf.constant({ { 1.0, 1.0, 1.0 }, { 2.0, 2.0, 2.0 } }))
    assert.are.equal(1, layer.build_calls)
    assert.are.same({ "linear/w:0", "linear/b:0" }, names(layer:variables()))
    assert.are.equal(8, layer:count_params())
  end)

  it("numbers Keras's names (linear, linear_1, ...) and starts afresh after clear_session", function()
    local Linear = linear_class()
    assert.are.equal("linear", Linear(1).name)
    assert.are.equal("linear_1", Linear(1).name)
    assert.are.equal("custom", Linear(1, { name = "custom" }).name)
    tf.keras.backend.clear_session()
    assert.are.equal("linear", Linear(1).name)
  end)

  it("takes a Lua table of numbers as its input, and the training flag in call's options", function()
    local Flag = tf.keras.layers.Layer:extend("Flag")
    function Flag:call(x, opts)
      if opts.training then return x * 2 end
      return x
    end
    local f = Flag()
    H.tensor(f({ 1.0, 2.0 }), tf.float32, { 2 }, { 1, 2 })
    H.tensor(f({ 1.0, 2.0 }, { training = true }), tf.float32, { 2 }, { 2, 4 })
    H.tensor(f({ 1.0, 2.0 }, true), tf.float32, { 2 }, { 2, 4 })
    H.raises("TypeError", "training must be a boolean", function() return f({ 1.0 }, { training = 1 }) end)
    H.raises("TypeError", "unexpected keyword argument 'trainig'", function() return f({ 1.0 }, { trainig = true }) end)
  end)

  it("lists non-trainable weights apart, and trainable = false freezes the layer's weights", function()
    local Counter = tf.keras.layers.Layer:extend("Counter")
    function Counter:build(input_shape)
      self.scale = self:add_weight({ name = "scale", shape = { input_shape[-1] }, initializer = "ones" })
      self.count = self:add_weight({ name = "count", shape = {}, initializer = "zeros", trainable = false })
    end
    function Counter:call(x)
      self.count:assign_add(1.0)
      return x * self.scale
    end
    local c = Counter()
    c(tf.ones({ 2, 3 }))
    assert.are.same({ "counter/scale:0" }, names(c:trainable_variables()))
    assert.are.same({ "counter/count:0" }, names(c:non_trainable_variables()))
    assert.are.same({ "counter/scale:0", "counter/count:0" }, names(c:variables()))
    c.trainable = false
    assert.are.same({}, c:trainable_variables())
    assert.are.same({ "counter/scale:0", "counter/count:0" }, names(c:non_trainable_variables()))
  end)

  it("get_config gives name, trainable and dtype; Dense adds its own", function()
    local Linear = linear_class()
    assert.are.same({ name = "linear", trainable = true, dtype = "float32" }, Linear(3):get_config())
    local cfg = tf.keras.layers.Dense(4, { activation = "relu" }):get_config()
    assert.are.equal(4, cfg.units)
    assert.are.equal("relu", cfg.activation)
    assert.are.equal("dense", cfg.name)
    assert.is_true(cfg.use_bias)
  end)

  it("add_weight refuses an unknown initializer and an unknown option", function()
    local Bad = tf.keras.layers.Layer:extend("Bad")
    function Bad:build() self.w = self:add_weight({ name = "w", shape = { 2 }, initializer = "nope" }) end
    H.raises("ValueError", "Could not interpret initializer identifier: nope", function() return Bad()(tf.ones({ 2 })) end)
    local l = Bad()
    H.raises("TypeError", "add_weight() got an unexpected keyword argument 'shap'", function()
      return l:add_weight({ name = "w", shap = { 2 } })
    end)
  end)
end)

describe("Dense on the Layer base", function()
  before_each(function() tf.keras.backend.clear_session() end)

  it("is a Layer: numbered names, built flag, dense/kernel:0 and dense_1/kernel:0", function()
    local a, b = tf.keras.layers.Dense(2), tf.keras.layers.Dense(2)
    a(tf.ones({ 1, 3 }))
    b(tf.ones({ 1, 3 }))
    assert.are.same({ "dense/kernel:0", "dense/bias:0" }, names(a:variables()))
    assert.are.same({ "dense_1/kernel:0", "dense_1/bias:0" }, names(b:variables()))
    assert.is_true(a.built)
  end)

  it("refuses an input whose last dimension changed after build, as Keras's InputSpec", function()
    local d = tf.keras.layers.Dense(2)
    d(tf.ones({ 1, 3 }))
    H.raises("ValueError", 'Input 0 of layer "dense" is incompatible with the layer: expected axis -1 of input '
      .. "shape to have value 3, but received input with shape (1, 4)", function() return d(tf.ones({ 1, 4 })) end)
  end)

  it("the same check inside a tf.func", function()
    local d = tf.keras.layers.Dense(2)
    local f = tf.func(function(x) return d(x) end)
    f(tf.ones({ 2, 3 }))
    H.raises("ValueError", "expected axis -1 of input shape to have value 3, but received input with shape (2, 5)",
      function() return f(tf.ones({ 2, 5 })) end)
  end)
end)

describe("a tf.keras.Model subclass", function()
  before_each(function() tf.keras.backend.clear_session() end)

  local function mlp_class(Linear)
    local MLP = tf.keras.Model:extend("MLP")
    function MLP:init(opts)
      tf.keras.Model.init(self, opts)
      self.hidden = Linear(4)
      self.blocks = { Linear(3), Linear(2) } -- layers in a table are tracked too
    end
    function MLP:call(x)
      x = tf.nn.relu(self.hidden(x))
      for _, b in ipairs(self.blocks) do x = b(x) end
      return x
    end
    return MLP
  end

  it("tracks nested layers as attributes and in tables; variables in creation order under its name", function()
    local MLP = mlp_class(linear_class())
    local m = MLP()
    local y = m(tf.ones({ 2, 5 }))
    assert.are.equal("(2, 2)", tostring(y.shape))
    assert.are.same({
      "mlp/linear/w:0", "mlp/linear/b:0", "mlp/linear_1/w:0", "mlp/linear_1/b:0",
      "mlp/linear_2/w:0", "mlp/linear_2/b:0",
    }, names(m:trainable_variables()))
    assert.are.equal(3, #m:submodules())
    assert.are.equal(5 * 4 + 4 + 4 * 3 + 3 + 3 * 2 + 2, m:count_params())
  end)

  it("freezing one sublayer moves its weights to the non-trainable ones", function()
    local MLP = mlp_class(linear_class())
    local m = MLP()
    m(tf.ones({ 1, 5 }))
    m.hidden.trainable = false
    assert.are.same({ "mlp/linear_1/w:0", "mlp/linear_1/b:0", "mlp/linear_2/w:0", "mlp/linear_2/b:0" },
      names(m:trainable_variables()))
    assert.are.same({ "mlp/linear/w:0", "mlp/linear/b:0" }, names(m:non_trainable_variables()))
  end)

  it("is callable inside a tf.func, building there with its variables lifted out", function()
    local MLP = mlp_class(linear_class())
    local m = MLP()
    local f = tf.func(function(x) return m(x) end)
    local traced = f(tf.ones({ 2, 5 }))
    H.close(m(tf.ones({ 2, 5 })):numpy(), traced, 1e-6)
    assert.are.equal(6, #m:variables())
  end)

  it("summary(): Keras's table, 'multiple' output shapes, totals", function()
    local MLP = mlp_class(linear_class())
    local m = MLP()
    H.raises("ValueError", "This model has not yet been built. Build the model first by calling `build()` or by "
      .. "calling the model on a batch of data.", function() m:summary() end)
    m(tf.ones({ 1, 5 }))
    local lines = H.capture(function() m:summary() end)
    assert.are.same({
      'Model: "mlp"',
      "_________________________________________________________________",
      " Layer (type)                Output Shape              Param #   ",
      "=================================================================",
      " linear (Linear)             multiple                  24        ",
      "                                                                 ",
      " linear_1 (Linear)           multiple                  15        ",
      "                                                                 ",
      " linear_2 (Linear)           multiple                  8         ",
      "                                                                 ",
      "=================================================================",
      "Total params: 47 (188.00 Byte)",
      "Trainable params: 47 (188.00 Byte)",
      "Non-trainable params: 0 (0.00 Byte)",
      "_________________________________________________________________",
    }, lines)
  end)

  it("without call, a subclass is Keras's NotImplementedError", function()
    local Empty = tf.keras.Model:extend("Empty")
    H.raises("NotImplementedError", "Model Empty does not have a `call()` method implemented.",
      function() return Empty()(tf.ones({ 1, 2 })) end)
  end)
end)

describe("tf.keras.Sequential as a Model", function()
  before_each(function() tf.keras.backend.clear_session() end)

  it("summary(): output shapes with a None batch dimension, params, totals in bytes", function()
    local m = tf.keras.Sequential({ tf.keras.layers.Dense(64, { activation = "relu" }), tf.keras.layers.Dense(10) })
    m(tf.ones({ 2, 3 }))
    local lines = H.capture(function() m:summary() end)
    assert.are.same({
      'Model: "sequential"',
      "_________________________________________________________________",
      " Layer (type)                Output Shape              Param #   ",
      "=================================================================",
      " dense (Dense)               (None, 64)                256       ",
      "                                                                 ",
      " dense_1 (Dense)             (None, 10)                650       ",
      "                                                                 ",
      "=================================================================",
      "Total params: 906 (3.54 KB)",
      "Trainable params: 906 (3.54 KB)",
      "Non-trainable params: 0 (0.00 Byte)",
      "_________________________________________________________________",
    }, lines)
  end)

  it("keeps its layers' own variable names (dense/kernel:0) and takes add()", function()
    local m = tf.keras.Sequential()
    m:add(tf.keras.layers.Dense(2))
    m(tf.ones({ 1, 3 }))
    assert.are.same({ "dense/kernel:0", "dense/bias:0" }, names(m:variables()))
    assert.are.equal("sequential", m.name)
  end)
end)
