-- advanced_autodiff_spec.lua — TensorFlow's guide "Advanced automatic
-- differentiation" (tensorflow.org/guide/advanced_autodiff), retold in Lua
-- with the values it prints.
--
-- `with tf.GradientTape() as t:` is `local t = tf.GradientTape()` ...
-- `t:stop()`; keyword arguments are one trailing options table; Python's
-- builtin abs(t) is tf.abs(t) (Lua has no __abs metamethod). The guide's
-- inputs are random (tf.random.normal): its printed shapes are checked,
-- and its values through what holds for every draw.

local tf = tf or require("moonflow")
local H = require("helpers")
local G = require("guides")

G.init("Advanced automatic differentiation", it, pending)

local function repr(x) return H.repr(x) end

-- The guide's Dense, BatchNormalization, Dense stack: the shapes of its
-- jacobian and batch_jacobian (BatchNormalization mixes the batch, so the
-- slices are not diagonal).
local function bn_jacobian_shapes(activation)
  local x = tf.random.normal({ 7, 5 })
  local layer1 = tf.keras.layers.Dense(8, { activation = activation })
  local bn = tf.keras.layers.BatchNormalization()
  local layer2 = tf.keras.layers.Dense(6, { activation = activation })
  local tape = tf.GradientTape({ persistent = true, watch_accessed_variables = false })
  tape:watch(x)
  local y = layer1(x)
  y = bn(y, { training = true })
  y = layer2(y)
  tape:stop()
  local j = tape:jacobian(y, x)
  assert.are.equal("j.shape: (7, 6, 7, 5)", ("j.shape: %s"):format(tostring(j.shape)))
  local jb = tape:batch_jacobian(y, x)
  assert.are.equal("jb.shape: (7, 6, 5)", ("jb.shape: %s"):format(tostring(jb.shape)))
end

describe("advanced_autodiff guide: Controlling gradient recording", function()
  -- `with t.stop_recording():` is t:stop() ... t:resume() in moonflow: a
  -- tape records from creation until tape:stop() (API.md), and resume()
  -- records again, as TF's stop_recording context leaves and re-enters
  -- the tape.
  it("Stop recording: dz/dx: tf.Tensor(4.0, shape=(), dtype=float32), dz/dy: None", function()
    local x = tf.Variable(2.0)
    local y = tf.Variable(3.0)
    local t = tf.GradientTape()
    local x_sq = x * x
    t:stop()
    local y_sq = y * y
    t:resume()
    local z = x_sq + y_sq
    t:stop()
    local grad = t:gradient(z, { x = x, y = y })
    assert.are.equal("dz/dx: tf.Tensor(4.0, shape=(), dtype=float32)", G.printed("dz/dx:", grad.x)) -- 2*x => 4
    assert.are.equal("dz/dy: None", G.printed("dz/dy:", grad.y))
  end)

  it("Reset/start recording from scratch: dz/dx: tf.Tensor(4.0, ...), dz/dy: None", function()
    local x = tf.Variable(2.0)
    local y = tf.Variable(3.0)
    local reset = true
    local t = tf.GradientTape()
    local y_sq = y * y
    if reset then
      -- Throw out all the tape recorded so far.
      t:reset()
    end
    local z = x * x + y_sq
    t:stop()
    local grad = t:gradient(z, { x = x, y = y })
    assert.are.equal("dz/dx: tf.Tensor(4.0, shape=(), dtype=float32)", G.printed("dz/dx:", grad.x))
    assert.are.equal("dz/dy: None", G.printed("dz/dy:", grad.y))
  end)
end)

describe("advanced_autodiff guide: Stop gradient flow with precision", function()
  it("tf.stop_gradient: dz/dx: tf.Tensor(4.0, ...), dz/dy: None", function()
    local x = tf.Variable(2.0)
    local y = tf.Variable(3.0)
    local t = tf.GradientTape()
    local y_sq = y ^ 2
    local z = x ^ 2 + tf.stop_gradient(y_sq)
    t:stop()
    local grad = t:gradient(z, { x = x, y = y })
    assert.are.equal("dz/dx: tf.Tensor(4.0, shape=(), dtype=float32)", G.printed("dz/dx:", grad.x))
    assert.are.equal("dz/dy: None", G.printed("dz/dy:", grad.y))
  end)
end)

-- Establish an identity operation, but clip during the gradient pass.
-- (The decorator @tf.custom_gradient is a call in Lua.)
local function clip_gradients_of(custom_gradient)
  return custom_gradient(function(y)
    local function backward(dy)
      return tf.clip_by_norm(dy, 0.5)
    end
    return y, backward
  end)
end

describe("advanced_autodiff guide: Custom gradients", function()
  G.it("advanced/custom_gradient", "tf.custom_gradient clips the gradient 4 to 2: tf.Tensor(2.0, shape=(), dtype=float32)", function()
    local clip_gradients = clip_gradients_of(tf.custom_gradient)
    local v = tf.Variable(2.0)
    local t = tf.GradientTape()
    local output = clip_gradients(v * v)
    t:stop()
    assert.are.equal("tf.Tensor(2.0, shape=(), dtype=float32)", tostring(t:gradient(output, v))) -- calls "backward", which clips 4 to 2
  end)

  -- The guide sends numerically stable gradients to tf.custom_gradient's
  -- reference, whose log1pexp example this is: the plain gradient at 100
  -- is nan, the custom one 1.0.
  it("tf.custom_gradient's log1pexp: the gradient at x = 100 is 1.0, not nan", function()
    local function log1pexp_plain(x) return tf.math.log(1 + tf.exp(x)) end
    local log1pexp = tf.custom_gradient(function(x)
      local e = tf.exp(x)
      local function grad(upstream) return upstream * (1 - 1 / (1 + e)) end
      return tf.math.log(1 + e), grad
    end)
    local x = tf.constant(100.0)
    local tape = tf.GradientTape({ persistent = true })
    tape:watch(x)
    local y_plain, y = log1pexp_plain(x), log1pexp(x)
    tape:stop()
    assert.are.equal("tf.Tensor(nan, shape=(), dtype=float32)", tostring(tape:gradient(y_plain, x)))
    assert.are.equal("tf.Tensor(1.0, shape=(), dtype=float32)", tostring(tape:gradient(y, x)))
  end)

  G.it("advanced/custom_gradient_savedmodel", "Custom gradients in SavedModel: the loaded function's gradient is 2.0", function()
    local clip_gradients = clip_gradients_of(tf.custom_gradient)
    local MyModule = tf.Module:extend("MyModule")
    MyModule.call_custom_grad = tf.func(function(self, x)
      return clip_gradients(x)
    end, { input_signature = { tf.TensorSpec(nil) } })
    local model = MyModule()
    local dir = os.tmpname()
    os.remove(dir)
    tf.saved_model.save(model, dir, { options = tf.saved_model.SaveOptions({ experimental_custom_gradients = true }) })
    -- The loaded gradients will be the same as the above example.
    local v = tf.Variable(2.0)
    local loaded = tf.saved_model.load(dir)
    local t = tf.GradientTape()
    local output = loaded.call_custom_grad(v * v)
    t:stop()
    assert.are.equal("tf.Tensor(2.0, shape=(), dtype=float32)", tostring(t:gradient(output, v)))
    os.execute("rm -rf " .. H.shell_quote(dir))
  end)
end)

describe("advanced_autodiff guide: Multiple tapes", function()
  it("each tape watches its own tensor: 1.0 and 0.25", function()
    local x0 = tf.constant(0.0)
    local x1 = tf.constant(0.0)
    local tape0, tape1 = tf.GradientTape(), tf.GradientTape()
    tape0:watch(x0)
    tape1:watch(x1)
    local y0 = tf.math.sin(x0)
    local y1 = tf.nn.sigmoid(x1)
    local y = y0 + y1
    local ys = tf.reduce_sum(y)
    tape1:stop()
    tape0:stop()
    assert.are.equal(1.0, tape0:gradient(ys, x0):numpy()) -- cos(x) => 1.0
    assert.are.equal(0.25, tape1:gradient(ys, x1):numpy()) -- sigmoid(x1)*(1-sigmoid(x1)) => 0.25
  end)

  it("Higher-order gradients: dy_dx: 3.0, d2y_dx2: 6.0", function()
    local x = tf.Variable(1.0) -- Create a Tensorflow variable initialized to 1.0
    local t2 = tf.GradientTape()
    local t1 = tf.GradientTape()
    local y = x * x * x
    t1:stop()
    -- Compute the gradient inside the outer `t2` tape, which means the
    -- gradient computation is differentiable as well.
    local dy_dx = t1:gradient(y, x)
    t2:stop()
    local d2y_dx2 = t2:gradient(dy_dx, x)
    assert.are.equal("dy_dx: 3.0", G.printed("dy_dx:", dy_dx:numpy())) -- 3 * x**2 => 3.0
    assert.are.equal("d2y_dx2: 6.0", G.printed("d2y_dx2:", d2y_dx2:numpy())) -- 6 * x => 6.0
  end)

  G.it("advanced/norm", "Example: Input gradient regularization: [TensorShape([5, 10]), TensorShape([10])]", function()
    local x = tf.random.normal({ 7, 5 })
    local layer = tf.keras.layers.Dense(10, { activation = tf.nn.relu })
    local t2 = tf.GradientTape()
    -- The inner tape only takes the gradient with respect to the input,
    -- not the variables.
    local t1 = tf.GradientTape({ watch_accessed_variables = false })
    t1:watch(x)
    local y = layer(x)
    local out = tf.reduce_sum(layer(x) ^ 2)
    t1:stop()
    -- 1. Calculate the input gradient.
    local g1 = t1:gradient(out, x)
    -- 2. Calculate the magnitude of the input gradient.
    local g1_mag = tf.norm(g1)
    t2:stop()
    -- 3. Calculate the gradient of the magnitude with respect to the model.
    local dg1_mag = t2:gradient(g1_mag, layer:trainable_variables())
    assert.are.same({ "TensorShape([5, 10])", "TensorShape([10])" }, { repr(dg1_mag[1].shape), repr(dg1_mag[2].shape) })
    assert.are.equal("(7, 10)", tostring(y.shape))
  end)

  -- The same example with the norm written out (sqrt of the sum of
  -- squares, tf.norm's default), so that the nested tapes are checked
  -- while tf.norm is pending.
  it("Example: Input gradient regularization, tf.norm written as sqrt(sum(g**2)): [TensorShape([5, 10]), TensorShape([10])]", function()
    local x = tf.random.normal({ 7, 5 })
    local layer = tf.keras.layers.Dense(10, { activation = tf.nn.relu })
    local t2 = tf.GradientTape()
    local t1 = tf.GradientTape({ watch_accessed_variables = false })
    t1:watch(x)
    local out = tf.reduce_sum(layer(x) ^ 2)
    t1:stop()
    local g1 = t1:gradient(out, x)
    local g1_mag = tf.sqrt(tf.reduce_sum(g1 ^ 2))
    t2:stop()
    local dg1_mag = t2:gradient(g1_mag, layer:trainable_variables())
    local shapes = {}
    for i, g in ipairs(dg1_mag) do shapes[i] = repr(g.shape) end
    assert.are.same({ "TensorShape([5, 10])", "TensorShape([10])" }, shapes)
  end)
end)

describe("advanced_autodiff guide: Jacobians", function()
  it("Scalar source: the Jacobian has the target's shape: (201,) (201,)", function()
    local x = tf.linspace(-10.0, 10.0, 200 + 1)
    local delta = tf.Variable(0.0)
    local tape = tf.GradientTape()
    local y = tf.nn.sigmoid(x + delta)
    tape:stop()
    local dy_dx = tape:jacobian(y, delta)
    assert.are.equal("(201,)", tostring(y.shape))
    assert.are.equal("(201,)", tostring(dy_dx.shape))
    -- The plotted curve: each element's derivative, sigmoid' = y (1 - y).
    H.close((y * (1 - y)):numpy(), dy_dx, 1e-6)
  end)

  it("Tensor source: shapes (7, 10), (5, 10), (7, 10, 5, 10); summed over the target it is the gradient", function()
    local x = tf.random.normal({ 7, 5 })
    local layer = tf.keras.layers.Dense(10, { activation = tf.nn.relu })
    local tape = tf.GradientTape({ persistent = true })
    local y = layer(x)
    tape:stop()
    assert.are.equal("TensorShape([7, 10])", repr(y.shape))
    assert.are.equal("TensorShape([5, 10])", repr(layer.kernel.shape))
    local j = tape:jacobian(y, layer.kernel)
    assert.are.equal("TensorShape([7, 10, 5, 10])", repr(j.shape))

    local g = tape:gradient(y, layer.kernel)
    assert.are.equal("g.shape: (5, 10)", G.printed("g.shape:", g.shape))
    local j_sum = tf.reduce_sum(j, { axis = { 0, 1 } })
    local delta = tf.reduce_max(tf.abs(g - j_sum)):numpy()
    -- The guide prints delta: 2.3841858e-07 (float32 rounding); it asserts < 1e-3.
    assert.is_true(delta < 1e-3, "delta " .. delta)
  end)

  it("Example: Hessian: layer.kernel.shape: (5, 8), h.shape: (5, 8, 5, 8); one Newton step", function()
    local x = tf.random.normal({ 7, 5 })
    local layer1 = tf.keras.layers.Dense(8, { activation = tf.nn.relu })
    local layer2 = tf.keras.layers.Dense(6, { activation = tf.nn.relu })
    local t2 = tf.GradientTape()
    local t1 = tf.GradientTape()
    x = layer1(x)
    x = layer2(x)
    local loss = tf.reduce_mean(x ^ 2)
    t1:stop()
    local g = t1:gradient(loss, layer1.kernel)
    t2:stop()
    local h = t2:jacobian(g, layer1.kernel)
    assert.are.equal("layer.kernel.shape: (5, 8)", ("layer.kernel.shape: %s"):format(tostring(layer1.kernel.shape)))
    assert.are.equal("h.shape: (5, 8, 5, 8)", ("h.shape: %s"):format(tostring(h.shape)))

    -- Flatten the Hessian into a matrix and the gradient into a vector.
    local n_params = tf.reduce_prod(layer1.kernel.shape)
    local g_vec = tf.reshape(g, { n_params, 1 })
    local h_mat = tf.reshape(h, { n_params, n_params })
    assert.are.equal("(40, 1)", tostring(g_vec.shape))
    assert.are.equal("(40, 40)", tostring(h_mat.shape))
    -- "The Hessian matrix should be symmetric" (the guide shows it as an image).
    H.close(tf.transpose(h_mat):numpy(), h_mat, 1e-5)

    -- The Newton's method update step.
    local eps = 1e-3
    local eye_eps = tf.eye(h_mat.shape[0]) * eps
    -- X(k+1) = X(k) - (∇²f(X(k)))^-1 @ ∇f(X(k))
    local update = tf.linalg.solve(h_mat + eye_eps, g_vec)
    assert.are.equal("(40, 1)", tostring(update.shape))
    -- (h_mat + eps I) update = g_vec, up to float32 rounding: a relu
    -- network's Hessian may be near singular, so the residual is bounded
    -- relative to |A| |update| (a backward-stable solve), not to g alone.
    local a = h_mat + eye_eps
    local residual = tf.sqrt(tf.reduce_sum((tf.matmul(a, update) - g_vec) ^ 2)):numpy()
    local scale = tf.sqrt(tf.reduce_sum(a ^ 2)):numpy() * tf.sqrt(tf.reduce_sum(update ^ 2)):numpy()
      + tf.sqrt(tf.reduce_sum(g_vec ^ 2)):numpy()
    assert.is_true(residual <= 1e-4 * scale, ("residual %g, scale %g"):format(residual, scale))
    -- Reshape the update and apply it to the variable.
    local before = layer1.kernel:numpy()
    layer1.kernel:assign_sub(tf.reshape(update, layer1.kernel.shape))
    H.close((tf.constant(before) - tf.reshape(update, { 5, 8 })):numpy(), layer1.kernel, 1e-6)
  end)
end)

-- The guide's batch Jacobian layers use tf.nn.elu; its checks also run
-- with relu (whose batch Jacobian has the same diagonal structure).
local function batch_jacobian_case(activation)
  local x = tf.random.normal({ 7, 5 })
  local layer1 = tf.keras.layers.Dense(8, { activation = activation })
  local layer2 = tf.keras.layers.Dense(6, { activation = activation })
  local tape = tf.GradientTape({ persistent = true, watch_accessed_variables = false })
  tape:watch(x)
  local y = layer1(x)
  y = layer2(y)
  tape:stop()
  assert.are.equal("TensorShape([7, 6])", repr(y.shape))
  -- The full Jacobian is (batch, outs, batch, ins).
  local j = tape:jacobian(y, x)
  assert.are.equal("TensorShape([7, 6, 7, 5])", repr(j.shape))
  -- Every (batch, batch) slice is diagonal (the guide's image).
  local slice = j[":, 0, :, 0"]:numpy()
  for a = 1, 7 do
    for b = 1, 7 do
      if a ~= b then assert.are.equal(0, slice[a][b], ("slice [%d][%d]"):format(a, b)) end
    end
  end
  local j_sum = tf.reduce_sum(j, { axis = 2 })
  assert.are.equal("(7, 6, 5)", tostring(j_sum.shape))
  local j_select = tf.einsum("bxby->bxy", j)
  assert.are.equal("(7, 6, 5)", tostring(j_select.shape))
  local jb = tape:batch_jacobian(y, x)
  assert.are.equal("TensorShape([7, 6, 5])", repr(jb.shape))
  local err = tf.reduce_max(tf.abs(jb - j_sum))
  assert.is_true(err:numpy() < 1e-3)
  -- The guide prints 0.0: each example's row is the same sum either way.
  -- A bound keeps this machine-independent (BLAS kernels may order sums).
  assert.is_true(err:numpy() <= 1e-6, "error " .. err:numpy())
end

describe("advanced_autodiff guide: Batch Jacobian", function()
  G.it("advanced/elu", "batch_jacobian of two elu Dense layers: (7, 6), (7, 6, 7, 5), (7, 6, 5), error 0.0", function()
    batch_jacobian_case(tf.nn.elu)
  end)

  it("batch_jacobian of two Dense layers (relu for the guide's elu): (7, 6), (7, 6, 7, 5), (7, 6, 5), error 0.0", function()
    batch_jacobian_case(tf.nn.relu)
  end)

  G.it("advanced/elu_bn", "with BatchNormalization between elu layers: j.shape: (7, 6, 7, 5), jb.shape: (7, 6, 5)", function()
    bn_jacobian_shapes(tf.nn.elu)
  end)

  it("with BatchNormalization between the layers (relu for elu): the slices are not diagonal; j (7, 6, 7, 5), jb (7, 6, 5)", function()
    bn_jacobian_shapes(tf.nn.relu)
  end)
end)

describe("advanced_autodiff guide: lists", function()
  G.report()
end)
