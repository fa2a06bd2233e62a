-- keras_optimizers_spec.lua — tf.keras.optimizers: SGD (momentum,
-- nesterov), Adam (amsgrad), AdamW, RMSprop (centered, momentum) and
-- Adagrad against torch.optim (keras_parts_ref.lua, made by
-- tests/diff/keras_parts_reference.py) for five steps, eagerly and inside a
-- tf.func; learning-rate schedules and variables; minimize; slots; get.

local tf = tf or require("moonflow")
local H = require("helpers")
local REF = require("keras_parts_ref")
local O = tf.keras.optimizers

-- Five steps on loss = sum(c * w^2) from w0; the weights after each.
local function run(opt, traced, steps)
  local w = tf.Variable(REF.w0)
  local c = tf.constant(REF.c)
  local function step()
    local tape = tf.GradientTape()
    local loss = tf.reduce_sum(c * w * w)
    tape:stop()
    opt:apply_gradients({ { tape:gradient(loss, w), w } })
    return loss
  end
  if traced then step = tf.func(step) end
  local out = {}
  for i = 1, steps or 5 do
    step()
    out[i] = w:numpy()
  end
  return out, w, step
end

local CASES = {
  { "SGD", "sgd", function() return O.SGD(0.1) end },
  { "SGD with momentum", "sgd_momentum", function() return O.SGD(0.1, 0.9) end },
  { "SGD with nesterov momentum", "sgd_nesterov", function() return O.SGD({ learning_rate = 0.1, momentum = 0.9, nesterov = true }) end },
  { "Adam", "adam", function() return O.Adam(0.1) end },
  { "Adam with amsgrad", "adam_amsgrad", function() return O.Adam({ learning_rate = 0.1, amsgrad = true }) end },
  { "AdamW", "adamw", function() return O.AdamW(0.1, 0.1) end },
  { "RMSprop", "rmsprop", function() return O.RMSprop(0.01) end },
  { "RMSprop centered with momentum", "rmsprop_centered_momentum",
    function() return O.RMSprop({ learning_rate = 0.01, momentum = 0.5, centered = true }) end },
  { "Adagrad", "adagrad", function() return O.Adagrad(0.1) end },
}

describe("optimizer steps against torch.optim", function()
  for _, case in ipairs(CASES) do
    it(case[1] .. ", eagerly and traced", function()
      local eager = run(case[3](), false)
      H.close(REF.optimizers[case[2]], eager, 2e-5)
      local traced = run(case[3](), true)
      H.close(REF.optimizers[case[2]], traced, 2e-5)
    end)
  end

  it("a traced step is not traced again after its first call and its optimizer's slots are made once", function()
    local opt = O.Adam(0.1)
    local _, _, step = run(opt, true, 1)
    local first = step:experimental_get_tracing_count()
    for _ = 1, 4 do step() end
    assert.are.equal(first, step:experimental_get_tracing_count())
    local names = {}
    for _, v in ipairs(opt:variables()) do names[#names + 1] = v.name end
    table.sort(names)
    assert.are.same({ "adam/Variable/m:0", "adam/Variable/v:0", "adam/iteration:0" }, names)
    assert.are.equal(5, opt.iterations:numpy())
  end)
end)

describe("optimizer defaults and options", function()
  it("use Keras's defaults", function()
    local sgd, adam, rms, ada, adamw = O.SGD(), O.Adam(), O.RMSprop(), O.Adagrad(), O.AdamW()
    assert.are.same({ 0.01, 0, false }, { sgd.learning_rate, sgd.momentum, sgd.nesterov })
    assert.are.same({ 0.001, 0.9, 0.999, 1e-7, false }, { adam.learning_rate, adam.beta_1, adam.beta_2, adam.epsilon, adam.amsgrad })
    assert.are.same({ 0.001, 0.9, 0, 1e-7, false }, { rms.learning_rate, rms.rho, rms.momentum, rms.epsilon, rms.centered })
    assert.are.same({ 0.001, 0.1, 1e-7 }, { ada.learning_rate, ada.initial_accumulator_value, ada.epsilon })
    assert.are.same({ 0.001, 0.004 }, { adamw.learning_rate, adamw.weight_decay })
  end)
  it("refuse a momentum outside [0, 1] and a learning rate of the wrong kind", function()
    H.raises("ValueError", "`momentum` must be between [0, 1]", function() return O.SGD(0.1, 1.5) end)
    H.raises("ValueError", "`momentum` must be between [0, 1]", function() return O.RMSprop({ momentum = -1 }) end)
    H.raises("TypeError", "learning_rate must be a number, a tf.Variable or a", function() return O.Adam("fast") end)
    H.raises("TypeError", "unexpected keyword argument 'lr'", function() return O.SGD({ lr = 0.1 }) end)
    H.raises("TypeError", "tf.keras.optimizers.SGD: argument 'nesterov' must be a boolean, got a string",
      function() return O.SGD(0.1, 0.9, "yes") end)
    H.raises("TypeError", "tf.keras.optimizers.Adam: argument 'beta_1' must be a number, got a string",
      function() return O.Adam(0.1, "b") end)
    H.raises("TypeError", "adam:update_step: argument 'variable' must be a tf.Variable, got a number",
      function() return O.Adam(0.1):update_step(tf.constant(1.0), 2, 0.1) end)
  end)
end)

describe("learning rates", function()
  it("a schedule is called with the step count at every apply, eagerly and traced", function()
    for _, traced in ipairs({ false, true }) do
      local sched = O.schedules.ExponentialDecay(0.1, 2, 0.5, true)
      local got = run(O.SGD(sched), traced)
      -- The same five steps with the rate 0.1 * 0.5^floor(step / 2), step 0..4.
      local w, want = { table.unpack(REF.w0) }, {}
      for k = 0, 4 do
        local lr = 0.1 * 0.5 ^ (k // 2)
        for i = 1, 3 do w[i] = w[i] - lr * 2 * REF.c[i] * w[i] end
        want[k + 1] = { w[1], w[2], w[3] }
      end
      H.close(want, got, 1e-6)
    end
  end)
  it("ExponentialDecay and PiecewiseConstantDecay give Keras's values", function()
    local smooth = O.schedules.ExponentialDecay(0.1, 10, 0.5)
    H.close(0.1 * 0.5 ^ 2.5, smooth(25):numpy(), 1e-6)
    H.close(0.1 * 0.5 ^ 2, O.schedules.ExponentialDecay(0.1, 10, 0.5, true)(25):numpy(), 1e-6)
    local pw = O.schedules.PiecewiseConstantDecay({ 10, 20 }, { 1.0, 0.5, 0.1 })
    local got = {}
    for i, s in ipairs({ 0, 10, 11, 20, 21, 100 }) do got[i] = pw(s):numpy() end
    H.close({ 1.0, 1.0, 0.5, 0.5, 0.1, 0.1 }, got, 1e-7)
    H.raises("ValueError", "The length of boundaries should be 1 less than the length of values",
      function() return O.schedules.PiecewiseConstantDecay({ 10 }, { 1.0 }) end)
    H.raises("ValueError", "`decay_steps` must be positive", function() return O.schedules.ExponentialDecay(0.1, 0, 0.5) end)
  end)
  it("a variable learning rate is read at every step, without a retrace", function()
    local lr = tf.Variable(0.1)
    local opt = O.SGD(lr)
    local w = tf.Variable({ 1.0 })
    local step = tf.func(function()
      opt:apply_gradients({ { tf.constant({ 1.0 }), w } })
    end)
    step()
    local first = step:experimental_get_tracing_count()
    lr:assign(0.5)
    step()
    H.close({ 0.4 }, w:numpy(), 1e-6)
    assert.are.equal(first, step:experimental_get_tracing_count())
  end)
end)

describe("slots in checkpoints", function()
  it("a training stopped and resumed from a checkpoint of the model and its optimizer goes on as one run", function()
    local dir = os.tmpname()
    os.remove(dir)
    local c = tf.constant(REF.c)
    local function step(w, opt)
      opt:minimize(function() return tf.reduce_sum(c * w * w) end, { w })
    end
    local w1, opt1 = tf.Variable(REF.w0), O.Adam(0.1)
    for _ = 1, 3 do step(w1, opt1) end
    tf.train.Checkpoint({ w = w1, optimizer = opt1 }):write(dir)
    for _ = 1, 2 do step(w1, opt1) end
    -- a fresh optimizer has its slots after one step; the checkpoint then overwrites them
    local w2, opt2 = tf.Variable({ 0.0, 0.0, 0.0 }), O.Adam(0.1)
    opt2:apply_gradients({ { tf.zeros({ 3 }), w2 } })
    tf.train.Checkpoint({ w = w2, optimizer = opt2 }):read(dir)
    assert.are.equal(3, opt2.iterations:numpy())
    for _ = 1, 2 do step(w2, opt2) end
    H.close(w1:numpy(), w2:numpy(), 1e-6)
    H.close(REF.optimizers.adam[5], w2:numpy(), 2e-5)
  end)
end)

describe("minimize", function()
  it("differentiates the loss function and applies the gradients", function()
    local w = tf.Variable(REF.w0)
    local c = tf.constant(REF.c)
    local opt = O.SGD(0.1)
    for _ = 1, 5 do opt:minimize(function() return tf.reduce_sum(c * w * w) end, { w }) end
    H.close(REF.optimizers.sgd[5], w:numpy(), 1e-6)
    H.raises("TypeError", "loss must be a function", function() return opt:minimize(tf.constant(1.0), { w }) end)
  end)
end)

describe("Optimizer", function()
  it("is abstract; a subclass with an update_step gets apply_gradients and minimize", function()
    H.raises("TypeError", "Can't instantiate abstract class Optimizer", function() return O.Optimizer() end)
    local Sign = O.Optimizer:extend("Sign")
    function Sign:init(lr) self.learning_rate = lr end
    function Sign:update_step(g, v, lr) v:assign_sub(tf.sign(g) * lr) end
    local v = tf.Variable({ 1.0, -1.0 })
    local opt = Sign(0.5)
    opt:apply_gradients({ { tf.constant({ 3.0, -2.0 }), v } })
    opt:minimize(function() return tf.reduce_sum(v) end, { v })
    H.tensor(v:read_value(), tf.float32, { 2 }, { 0, -1 })
    assert.are.equal(2, opt.iterations:numpy())
  end)
  it("a schedule must define __call", function()
    H.raises("NotImplementedError", "must override `__call__(self, step)`",
      function() return O.schedules.LearningRateSchedule()(1) end)
    local Half = O.schedules.LearningRateSchedule:extend("Half")
    Half.__call = function(_, step) return 1.0 / (tf.cast(step, tf.float32) + 1) end
    local w = tf.Variable({ 1.0 })
    local opt = O.SGD(Half())
    for _ = 1, 2 do opt:apply_gradients({ { tf.constant({ 1.0 }), w } }) end
    H.close({ 1.0 - 1.0 - 0.5 }, w:numpy(), 1e-6)
  end)
end)

describe("tf.keras.optimizers.get", function()
  it("makes an optimizer from TF's names and passes an optimizer through", function()
    for name, class in pairs({ sgd = O.SGD, adam = O.Adam, adamw = O.AdamW, rmsprop = O.RMSprop, adagrad = O.Adagrad,
      Adam = O.Adam, SGD = O.SGD }) do
      assert.are.equal(class, getmetatable(O.get(name)), name)
    end
    local opt = O.Adam(0.5)
    assert.are.equal(opt, O.get(opt))
  end)
  it("refuses anything else with Keras's ValueError", function()
    H.raises("ValueError", "Could not interpret optimizer identifier: adamax2", function() return O.get("adamax2") end)
    H.raises("ValueError", "Could not interpret optimizer identifier: 3", function() return O.get(3) end)
  end)
end)
