-- training_spec.lua — a two-layer MLP (tf.keras.Sequential of Dense(16,
-- relu) and Dense(k)) trained on small synthetic classification sets made
-- with seeded tf.random, eagerly and as a tf.func train step: both reach
-- the same accuracy, and the traced loss curve follows the eager one step
-- for step. One test with SGD, one with Adam.

local tf = tf or require("moonflow")
local H = require("helpers")

-- Three Gaussian blobs in the plane, 80 points each, labels 0..2: linearly
-- separable up to a handful of points; an MLP gets >= 95 %.
local function blobs()
  tf.random.set_seed(7)
  local centers = { { 2.0, 0.0 }, { -1.0, 1.7 }, { -1.0, -1.7 } }
  local xs, ys = {}, {}
  for k, c in ipairs(centers) do
    xs[k] = tf.random.normal({ 80, 2 }, { stddev = 0.6 }) + tf.constant({ c })
    ys[k] = tf.fill({ 80 }, k - 1)
  end
  return tf.concat(xs, 0), tf.concat(ys, 0), 3
end

-- Inside or outside a circle of radius^2 1.4 around the origin: not
-- linearly separable; 16 ReLU units learn it to >= 95 %.
local function circle()
  tf.random.set_seed(1)
  local x = tf.random.normal({ 256, 2 })
  local labels = tf.cast(tf.greater(tf.reduce_sum(x * x, 1), 1.4), tf.int32)
  return x, labels, 2
end

-- A model, its optimizer and an (undecorated) train step. The seed makes
-- every call build identical weights; the model is called once so its
-- variables exist before training (Keras layers create them on first call).
local function make(x, k, new_optimizer)
  tf.random.set_seed(42)
  local model = tf.keras.Sequential({
    tf.keras.layers.Dense(16, { activation = "relu" }),
    tf.keras.layers.Dense(k),
  })
  model(x)
  local opt = new_optimizer()
  local loss_fn = tf.keras.losses.SparseCategoricalCrossentropy({ from_logits = true })
  local function step(xb, yb)
    local tape = tf.GradientTape()
    local logits = model(xb)
    local loss = loss_fn(yb, logits)
    tape:stop()
    local vars = model:trainable_variables()
    local grads = tape:gradient(loss, vars)
    local gv = {}
    for i, v in ipairs(vars) do gv[i] = { grads[i], v } end
    opt:apply_gradients(gv)
    return loss
  end
  return model, step, opt
end

local function accuracy(model, x, labels)
  local predicted = tf.argmax(model(x), 1, { output_type = tf.int32 })
  return tf.reduce_mean(tf.cast(tf.equal(predicted, labels), tf.float32)):numpy()
end

local function same_weights(m1, m2, tol)
  local v1, v2 = m1:trainable_variables(), m2:trainable_variables()
  assert.are.equal(#v1, #v2)
  for i = 1, #v1 do H.close(v1[i]:numpy(), v2[i]:numpy(), tol) end
end

-- Trains both ways for `steps` steps; returns the loss curves and models.
local function train_both(data, new_optimizer, steps)
  local x, labels, k = data()
  local m_eager, eager_step = make(x, k, new_optimizer)
  local m_traced, step2, opt2 = make(x, k, new_optimizer)
  same_weights(m_eager, m_traced, 0)
  assert.are.equal(4, #m_eager:trainable_variables())
  local traced_step = tf.func(step2)
  local eager_losses, traced_losses = {}, {}
  for i = 1, steps do
    eager_losses[i] = eager_step(x, labels):numpy()
    traced_losses[i] = traced_step(x, labels):numpy()
  end
  return {
    x = x, labels = labels, m_eager = m_eager, m_traced = m_traced,
    eager = eager_losses, traced = traced_losses, traced_step = traced_step, opt = opt2,
  }
end

local function check_curves(r, tol)
  for i = 1, #r.eager do
    local e, t = r.eager[i], r.traced[i]
    assert.is_true(math.abs(e - t) <= tol * math.max(1, math.abs(e)),
      ("step %d: eager loss %.9g, traced %.9g"):format(i, e, t))
  end
end

describe("training a two-layer MLP", function()
  it("SGD on three blobs: eager and tf.func reach >= 95 % with the same loss curve", function()
    local r = train_both(blobs, function() return tf.keras.optimizers.SGD({ learning_rate = 0.3 }) end, 60)
    -- The loss falls (from about ln 3) and the curves agree step for step.
    assert.is_true(r.eager[1] > 0.8, "first loss " .. r.eager[1])
    assert.is_true(r.eager[#r.eager] < 0.25 * r.eager[1],
      ("loss %.4f -> %.4f"):format(r.eager[1], r.eager[#r.eager]))
    check_curves(r, 1e-5)
    local acc_eager, acc_traced = accuracy(r.m_eager, r.x, r.labels), accuracy(r.m_traced, r.x, r.labels)
    assert.is_true(acc_eager >= 0.95, "eager accuracy " .. acc_eager)
    assert.is_true(acc_traced >= 0.95, "traced accuracy " .. acc_traced)
    assert.are.equal(acc_eager, acc_traced)
    same_weights(r.m_eager, r.m_traced, 1e-3)
    -- SGD creates its iteration counter on the first apply: one trace that
    -- created it, one kept; no retrace afterwards.
    assert.are.equal(2, r.traced_step:experimental_get_tracing_count())
    assert.are.equal(60, r.opt.iterations:numpy())
  end)

  it("Adam on a circle: eager and tf.func reach >= 95 % with the same loss curve", function()
    local r = train_both(circle, function() return tf.keras.optimizers.Adam({ learning_rate = 0.05 }) end, 80)
    assert.is_true(r.eager[#r.eager] < 0.5 * r.eager[1],
      ("loss %.4f -> %.4f"):format(r.eager[1], r.eager[#r.eager]))
    check_curves(r, 1e-5)
    local acc_eager, acc_traced = accuracy(r.m_eager, r.x, r.labels), accuracy(r.m_traced, r.x, r.labels)
    assert.is_true(acc_eager >= 0.95, "eager accuracy " .. acc_eager)
    assert.is_true(acc_traced >= 0.95, "traced accuracy " .. acc_traced)
    assert.is_true(math.abs(acc_eager - acc_traced) <= 1 / 256, ("accuracies %g vs %g"):format(acc_eager, acc_traced))
    same_weights(r.m_eager, r.m_traced, 1e-3)
    -- Adam's slots (m, v per variable) and counter come from the first trace.
    assert.are.equal(2, r.traced_step:experimental_get_tracing_count())
    assert.are.equal(80, r.opt.iterations:numpy())
    local slots = 0
    for _, per_var in pairs(r.opt._slots) do
      for _ in pairs(per_var) do slots = slots + 1 end
    end
    assert.are.equal(8, slots)
  end)
end)
