-- keras_saving_spec.lua — saving Keras models (issue 27): a functional, a
-- subclassed and a Sequential model through tf.saved_model.save/load (the
-- call traced for the model's input specs, a None batch dimension; the
-- loaded object callable without the Lua classes, its variables restored),
-- and their weights through checkpoints (save_weights/load_weights).
-- Nothing silent: an unbuilt model and a tf.func the saver would drop are
-- errors.

local tf = tf or require("moonflow")
local H = require("helpers")

local function tmpdir()
  local d = os.tmpname()
  os.remove(d)
  return d
end
local function remove(d) os.execute("rm -rf '" .. d .. "'") end

local function subclassed()
  local Block = tf.keras.Model:extend("Block")
  function Block:init()
    tf.keras.Model.init(self)
    self.inner = tf.keras.layers.Dense(4, { activation = "relu" })
    self.out = tf.keras.layers.Dense(2)
  end
  function Block:call(x) return self.out(self.inner(x)) end
  return Block
end

describe("tf.saved_model.save of a Keras model", function()
  before_each(function() tf.keras.backend.clear_session() end)

  it("a functional model loads as a callable object, for any batch size", function()
    local inputs = tf.keras.Input({ shape = { 3 } })
    local y = tf.keras.layers.Dense(2)(tf.keras.layers.Dense(4, { activation = "relu" })(inputs))
    local m = tf.keras.Model({ inputs = inputs, outputs = y })
    local dir = tmpdir()
    tf.saved_model.save(m, dir)
    local loaded = tf.saved_model.load(dir)
    remove(dir)
    local x1 = tf.constant({ { 1.0, 2.0, 3.0 } })
    local x3 = tf.constant({ { 1.0, 2.0, 3.0 }, { 0.0, -1.0, 2.0 }, { 4.0, 4.0, 4.0 } })
    assert.are.same(m(x1):numpy(), loaded(x1):numpy())
    assert.are.same(m(x3):numpy(), loaded.signatures.serving_default(x3):numpy())
    assert.are.equal(4, #loaded.variables())
    H.raises(nil, nil, function() return loaded(tf.constant({ { 1.0, 2.0 } })) end)
  end)

  it("a subclassed model saves the call it was built with; the loaded one has no Lua class", function()
    local Block = subclassed()
    local m = Block()
    local x = tf.constant({ { 1.0, 2.0 }, { 3.0, 4.0 } })
    local want = m(x):numpy()
    local dir = tmpdir()
    tf.saved_model.save(m, dir)
    local loaded = tf.saved_model.load(dir)
    remove(dir)
    assert.are_not.equal(Block, getmetatable(loaded))
    assert.are.same(want, loaded(x):numpy())
    -- The restored variables train further: gradients flow through the loaded call.
    local tape = tf.GradientTape()
    local loss = tf.reduce_sum(loaded(x))
    tape:stop()
    local grads = tape:gradient(loss, loaded.trainable_variables())
    assert.are.equal(4, #grads)
  end)

  it("a fitted Sequential saves without its train_function", function()
    local m = tf.keras.Sequential({ tf.keras.layers.Dense(1) })
    m:compile({ optimizer = "sgd", loss = "mse" })
    local x = tf.constant({ { 1.0 }, { 2.0 } })
    m:fit(x, x, { epochs = 1, verbose = 0 })
    local dir = tmpdir()
    tf.saved_model.save(m, dir)
    local loaded = tf.saved_model.load(dir)
    remove(dir)
    assert.are.same(m(x):numpy(), loaded(x):numpy())
    assert.is_nil(rawget(loaded, "train_function"))
  end)

  it("an unbuilt model is Keras's ValueError; a tf.func the model holds must be listed in signatures", function()
    local Block = subclassed()
    local dir = tmpdir()
    H.raises("ValueError", "cannot be saved because the input shape is not available",
      function() tf.saved_model.save(Block(), dir) end)
    local m = Block()
    m(tf.ones({ 1, 2 }))
    m.double = tf.func(function(x) return m(x) * 2 end)
    H.raises("ValueError", "holds the tf.func 'double', which saving the model's call would drop",
      function() tf.saved_model.save(m, dir) end)
    remove(dir)
  end)
end)

describe("model:save_weights and model:load_weights", function()
  before_each(function() tf.keras.backend.clear_session() end)

  it("round-trip the weights through a checkpoint into another instance", function()
    local Block = subclassed()
    local a, b = Block(), Block()
    local x = tf.constant({ { 1.0, -2.0 } })
    a(x)
    b(x)
    local dir = tmpdir()
    a:save_weights(dir)
    b:load_weights(dir)
    remove(dir)
    assert.are.same(a(x):numpy(), b(x):numpy())
  end)

  it("into a model whose variables do not exist yet is an error, never silent", function()
    local Block = subclassed()
    local a = Block()
    a(tf.ones({ 1, 2 }))
    local dir = tmpdir()
    a:save_weights(dir)
    H.raises("FailedPreconditionError", "its variables are made on its first call", function() Block():load_weights(dir) end)
    remove(dir)
    H.raises("TypeError", "path must be a string", function() a:save_weights(3) end)
  end)
end)
