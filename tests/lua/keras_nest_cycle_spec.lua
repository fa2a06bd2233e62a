-- keras_nest_cycle_spec.lua — a Keras call given a list that contains
-- itself raises a typed error: the walks over nests of KerasTensors
-- (keras/keras_tensor.lua) visit such a list once instead of overflowing
-- the C stack (an untyped "stack overflow" the API fuzzer found).

local tf = tf or require("moonflow")

describe("Keras nests that contain themselves", function()
  it("Sequential:train_step and a layer call raise a typed error", function()
    local m = tf.keras.Sequential({ tf.keras.layers.Dense(1) })
    local cyclic = {}
    cyclic[1] = cyclic
    local ok, err = pcall(m.train_step, m, cyclic)
    assert.is_false(ok)
    assert.are.equal("table", type(err))
    assert.is_truthy(err.type)
    ok, err = pcall(function() return tf.keras.layers.Dense(1)(cyclic) end)
    assert.is_false(ok)
    assert.is_truthy(type(err) == "table" and err.type, tostring(err))
  end)

  it("a train_step or minimize that fails leaves no tape recording (the tape closes on the error)", function()
    local state = require("moonflow.state")
    local m = tf.keras.Sequential({ tf.keras.layers.Dense(1) })
    local cyclic = {}
    cyclic[1] = cyclic
    assert.is_false(pcall(m.train_step, m, cyclic))
    assert.is_false(state.tapes_recording())
    local opt = tf.keras.optimizers.SGD()
    local v = tf.Variable(1.0)
    assert.is_false(pcall(opt.minimize, opt, function() error("the loss failed") end, { v }))
    assert.is_false(state.tapes_recording())
  end)
end)
