-- autodiff_spec.lua — TensorFlow's guide "Introduction to gradients and
-- automatic differentiation" (tensorflow.org/guide/autodiff), retold in
-- Lua with the values it prints.
--
-- `with tf.GradientTape() as tape:` is `local tape = tf.GradientTape()` ...
-- `tape:stop()` (API.md); Python's keyword arguments are one trailing
-- options table; a dict is a string-keyed table; None is nil.

local tf = tf or require("moonflow")
local H = require("helpers")
local T = require("tfhelpers")
local G = require("guides")

G.init("Introduction to gradients and automatic differentiation", it, pending)

local function repr(x) return H.repr(x) end

describe("autodiff guide: Gradient tapes", function()
  it("dy_dx of y = x**2 at x = 3.0 is 6.0", function()
    local x = tf.Variable(3.0)
    local tape = tf.GradientTape()
    local y = x ^ 2
    tape:stop()
    assert.are.equal("<tf.Tensor: shape=(), dtype=float32, numpy=9.0>", repr(y))
    -- dy = 2x * dx
    local dy_dx = tape:gradient(y, x)
    assert.are.equal(6.0, dy_dx:numpy())
  end)

  -- w is drawn at random, so the guide's printed numbers differ from run to
  -- run; what holds for every draw is checked: the shapes it prints, and
  -- loss = mean(y**2) over y's two elements, so dl/dy = y, dl/db = y and
  -- dl/dw = x^T y.
  it("[dl_dw, dl_db] = tape.gradient(loss, [w, b]): each gradient has its source's shape", function()
    local w = tf.Variable(tf.random.normal({ 3, 2 }), { name = "w" })
    local b = tf.Variable(tf.zeros(2, tf.float32), { name = "b" })
    local x = { { 1., 2., 3. } }
    local tape = tf.GradientTape({ persistent = true })
    -- x @ w: Lua has no @ operator; tf.matmul converts the nested table.
    local y = tf.matmul(x, w) + b
    local loss = tf.reduce_mean(y ^ 2)
    tape:stop()
    local grads = tape:gradient(loss, { w, b })
    local dl_dw, dl_db = grads[1], grads[2]
    assert.are.equal("(3, 2)", tostring(w.shape))
    assert.are.equal("(3, 2)", tostring(dl_dw.shape))
    H.close(y[0]:numpy(), dl_db, 1e-5)
    H.close(tf.matmul(tf.constant(x), y, { transpose_a = true }):numpy(), dl_dw, 1e-5)

    -- "Here is the gradient calculation again, this time passing a
    -- dictionary of variables"
    local my_vars = { w = w, b = b }
    local grad = tape:gradient(loss, my_vars)
    assert.is_truthy(repr(grad.b):match("^<tf%.Tensor: shape=%(2,%), dtype=float32, numpy=array%(%[.*%], dtype=float32%)>$"),
      repr(grad.b))
    H.close(dl_db:numpy(), grad.b, 0)
    H.close(dl_dw:numpy(), grad.w, 0)
  end)
end)

describe("autodiff guide: Gradients with respect to a model", function()
  it("a Dense layer's gradients, listed with its trainable variables: kernel (3, 2), then bias (2,)", function()
    local layer = tf.keras.layers.Dense(2, { activation = "relu" })
    local x = tf.constant({ { 1., 2., 3. } })
    local tape = tf.GradientTape()
    -- Forward pass
    local y = layer(x)
    local loss = tf.reduce_mean(y ^ 2)
    tape:stop()
    -- Calculate gradients with respect to every trainable variable
    local grad = tape:gradient(loss, layer:trainable_variables())
    local lines = {}
    for i, var in ipairs(layer:trainable_variables()) do
      lines[i] = ("%s, shape: %s"):format(var.name, tostring(grad[i].shape))
    end
    -- Keras numbers its layers (dense, dense_1, ...) and this suite makes
    -- others before this one; the exact names are checked below, in a
    -- fresh session where this is the first Dense, as in the guide.
    assert.are.equal(2, #lines)
    assert.is_truthy(lines[1]:match("^dense[_%d]*/kernel:0, shape: %(3, 2%)$"), lines[1])
    assert.is_truthy(lines[2]:match("^dense[_%d]*/bias:0, shape: %(2,%)$"), lines[2])
  end)

  it("in a fresh session, as the guide prints it: dense/kernel:0, shape: (3, 2) / dense/bias:0, shape: (2,)", function()
    local out, status = H.run_lua([[
      local layer = tf.keras.layers.Dense(2, { activation = "relu" })
      local x = tf.constant({ { 1., 2., 3. } })
      local tape = tf.GradientTape()
      local y = layer(x)
      local loss = tf.reduce_mean(y ^ 2)
      tape:stop()
      local grad = tape:gradient(loss, layer:trainable_variables())
      for i, var in ipairs(layer:trainable_variables()) do
        print(("%s, shape: %s"):format(var.name, tostring(grad[i].shape)))
      end
    ]])
    assert.are.equal(0, status, out)
    assert.are.equal("dense/kernel:0, shape: (3, 2)\ndense/bias:0, shape: (2,)\n", out)
  end)
end)

describe("autodiff guide: Controlling what the tape watches", function()
  it("only the trainable variable gets a gradient: 6.0, None, None, None", function()
    -- A trainable variable
    local x0 = tf.Variable(3.0, { name = "x0" })
    -- Not trainable
    local x1 = tf.Variable(3.0, { name = "x1", trainable = false })
    -- Not a Variable: A variable + tensor returns a tensor.
    local x2 = tf.Variable(2.0, { name = "x2" }) + 1.0
    -- Not a variable
    local x3 = tf.constant(3.0, { name = "x3" })

    local tape = tf.GradientTape()
    local y = (x0 ^ 2) + (x1 ^ 2) + (x2 ^ 2)
    tape:stop()
    local grad = tape:gradient(y, { x0, x1, x2, x3 })
    -- for g in grad: print(g) -- a Lua list cannot hold nil in the middle:
    -- the positions are read one by one, as the guide's loop prints them.
    local printed = {}
    for i = 1, 4 do printed[i] = grad[i] == nil and "None" or tostring(grad[i]) end
    assert.are.same({ "tf.Tensor(6.0, shape=(), dtype=float32)", "None", "None", "None" }, printed)

    -- [var.name for var in tape.watched_variables()]
    local names = {}
    for i, var in ipairs(tape:watched_variables()) do names[i] = var.name end
    assert.are.same({ "x0:0" }, names)
  end)

  it("tape.watch(x) records a tensor: dy_dx = 6.0", function()
    local x = tf.constant(3.0)
    local tape = tf.GradientTape()
    tape:watch(x)
    local y = x ^ 2
    tape:stop()
    -- dy = 2x * dx
    local dy_dx = tape:gradient(y, x)
    assert.are.equal(6.0, dy_dx:numpy())
  end)

  G.it("autodiff/softplus", "watch_accessed_variables=False: dy/dx0: None, dy/dx1: 0.9999546", function()
    local x0 = tf.Variable(0.0)
    local x1 = tf.Variable(10.0)
    local tape = tf.GradientTape({ watch_accessed_variables = false })
    tape:watch(x1)
    local y0 = tf.math.sin(x0)
    local y1 = tf.nn.softplus(x1)
    local y = y0 + y1
    local ys = tf.reduce_sum(y)
    tape:stop()
    -- dys/dx1 = exp(x1) / (1 + exp(x1)) = sigmoid(x1)
    local grad = tape:gradient(ys, { x0 = x0, x1 = x1 })
    assert.is_nil(grad.x0)
    H.close(0.9999546, grad.x1, 1e-6)
  end)

  -- The same check with softplus spelled out (log(1 + exp(x)), whose
  -- gradient is the same sigmoid(x1)).
  it("watch_accessed_variables=False, softplus written as log1p(exp(x)): dy/dx0: None, dy/dx1: 0.9999546", function()
    local x0 = tf.Variable(0.0)
    local x1 = tf.Variable(10.0)
    local tape = tf.GradientTape({ watch_accessed_variables = false })
    tape:watch(x1)
    local y0 = tf.math.sin(x0)
    local y1 = tf.math.log1p(tf.exp(x1))
    local y = y0 + y1
    local ys = tf.reduce_sum(y)
    tape:stop()
    local grad = tape:gradient(ys, { x0 = x0, x1 = x1 })
    assert.are.equal("dy/dx0: None", G.printed("dy/dx0:", grad.x0))
    H.close(0.9999546, grad.x1, 1e-6)
  end)
end)

describe("autodiff guide: Intermediate results", function()
  it("the gradient of z with respect to the intermediate y is 18.0", function()
    local x = tf.constant(3.0)
    local tape = tf.GradientTape()
    tape:watch(x)
    local y = x * x
    local z = y * y
    tape:stop()
    -- dz_dy = 2 * y and y = x ** 2 = 9
    assert.are.equal(18.0, tape:gradient(z, y):numpy())
  end)

  it("a persistent tape gives several gradients: [  4. 108.] and [2. 6.]", function()
    local x = tf.constant({ 1, 3.0 })
    local tape = tf.GradientTape({ persistent = true })
    tape:watch(x)
    local y = x * x
    local z = y * y
    tape:stop()
    local dz_dx = tape:gradient(z, x) -- [4.0, 108.0] (4 * x**3 at x = [1.0, 3.0])
    local dy_dx = tape:gradient(y, x) -- [2.0, 6.0] (2 * x at x = [1.0, 3.0])
    assert.are.same({ 4.0, 108.0 }, dz_dx:numpy())
    assert.are.same({ 2.0, 6.0 }, dy_dx:numpy())
    -- The guide prints the NumPy arrays; a tensor's str shows them alike.
    assert.are.equal("tf.Tensor([  4. 108.], shape=(2,), dtype=float32)", tostring(dz_dx))
    assert.are.equal("tf.Tensor([2. 6.], shape=(2,), dtype=float32)", tostring(dy_dx))
    -- del tape: dropping the last reference frees it.
    tape = nil
    collectgarbage()
  end)
end)

describe("autodiff guide: Gradients of non-scalar targets", function()
  it("a persistent tape gives each target's gradient: 4.0 and -0.25", function()
    local x = tf.Variable(2.0)
    local tape = tf.GradientTape({ persistent = true })
    local y0 = x ^ 2
    local y1 = 1 / x
    tape:stop()
    assert.are.equal(4.0, tape:gradient(y0, x):numpy())
    assert.are.equal(-0.25, tape:gradient(y1, x):numpy())
  end)

  it("a list of targets gives the gradient of their sum: 3.75", function()
    local x = tf.Variable(2.0)
    local tape = tf.GradientTape()
    local y0 = x ^ 2
    local y1 = 1 / x
    tape:stop()
    assert.are.equal(3.75, tape:gradient({ y0, y1 }, x):numpy())
  end)

  it("a dict of targets {y0=, y1=} gives the gradient of their sum: 3.75", function()
    local x = tf.Variable(2.0)
    local tape <close> = tf.GradientTape()
    local y0 = x ^ 2
    local y1 = 1 / x
    tape:stop()
    local g = tape:gradient({ y0 = y0, y1 = y1 }, x)
    assert.is_true(tf.is_tensor(g), "tape:gradient({y0 = y0, y1 = y1}, x) gave " .. tostring(g))
    assert.are.equal(3.75, g:numpy())
  end)

  it("a non-scalar target gives the gradient of its sum: 7.0", function()
    local x = tf.Variable(2.)
    local tape = tf.GradientTape()
    local y = x * { 3., 4. }
    tape:stop()
    assert.are.equal(7.0, tape:gradient(y, x):numpy())
  end)

  -- The guide plots y and dy/dx; the plot's data is checked instead:
  -- the gradient of the sum of an elementwise sigmoid is sigmoid' = y (1 - y).
  it("the gradient of the sum of an elementwise sigmoid is each element's derivative", function()
    local x = tf.linspace(-10.0, 10.0, 200 + 1)
    local tape = tf.GradientTape()
    tape:watch(x)
    local y = tf.nn.sigmoid(x)
    tape:stop()
    local dy_dx = tape:gradient(y, x)
    assert.are.equal("(201,)", tostring(dy_dx.shape))
    H.close((y * (1 - y)):numpy(), dy_dx, 1e-6)
    H.close(0.25, dy_dx[100], 1e-7) -- at x = 0
  end)
end)

describe("autodiff guide: Control flow", function()
  it("only the branch taken is recorded: dv0 = 1.0, dv1 = None, dx = None", function()
    local x = tf.constant(1.0)
    local v0 = tf.Variable(2.0)
    local v1 = tf.Variable(2.0)
    local tape = tf.GradientTape({ persistent = true })
    tape:watch(x)
    local result
    -- An eager scalar tensor compared with > is a Lua boolean (API.md).
    if x > 0.0 then
      result = v0
    else
      result = v1 ^ 2
    end
    tape:stop()
    local g = tape:gradient(result, { v0, v1 })
    local dv0, dv1 = g[1], g[2]
    assert.are.equal("tf.Tensor(1.0, shape=(), dtype=float32)", tostring(dv0))
    assert.is_nil(dv1)
    local dx = tape:gradient(result, x)
    assert.is_nil(dx)
  end)
end)

describe("autodiff guide: Cases where gradient returns None", function()
  it("a target not connected to the source gives None", function()
    local x = tf.Variable(2.)
    local y = tf.Variable(3.)
    local tape = tf.GradientTape()
    local z = y * y
    tape:stop()
    assert.is_nil(tape:gradient(z, x))
  end)

  it("1. Replaced a variable with a tensor: ResourceVariable : tf.Tensor(1.0, ...), then EagerTensor : None", function()
    local x = tf.Variable(2.0)
    local printed = {}
    for epoch = 0, 1 do
      local tape = tf.GradientTape()
      local y = x + 1
      tape:stop()
      -- type(x).__name__: Lua has no class names for these; the kind is
      -- named from what x is.
      local kind = T.is_variable(x) and "ResourceVariable" or "EagerTensor"
      local g = tape:gradient(y, x)
      printed[epoch + 1] = kind .. " : " .. (g == nil and "None" or tostring(g))
      x = x + 1 -- This should be `x:assign_add(1)`
    end
    assert.are.same({ "ResourceVariable : tf.Tensor(1.0, shape=(), dtype=float32)", "EagerTensor : None" }, printed)
  end)

  it("2. Did calculations outside of TensorFlow: None", function()
    local x = tf.Variable({ { 1.0, 2.0 }, { 3.0, 4.0 } }, { dtype = tf.float32 })
    local tape = tf.GradientTape()
    local x2 = x ^ 2
    -- This step is calculated in Lua (the guide uses np.mean(x2, axis=0)).
    local rows = x2:numpy()
    local y = {}
    for j = 1, #rows[1] do y[j] = (rows[1][j] + rows[2][j]) / 2 end
    -- Like most ops, reduce_mean converts the Lua table to a constant tensor.
    y = tf.reduce_mean(y, { axis = 0 })
    tape:stop()
    assert.is_nil(tape:gradient(y, x))
  end)

  it("3. Took gradients through an integer: None, with the watched tensor's warning", function()
    local x = tf.constant(10)
    local g, result
    local err = G.stderr_of(function()
      g = tf.GradientTape()
      g:watch(x)
      local y = x * x
      g:stop()
      result = g:gradient(y, x)
    end)
    assert.is_nil(result)
    -- TF writes "WARNING:tensorflow:... got tf.int32"; the check below
    -- compares TF's three texts.
    assert.is_truthy(err:find("The dtype of the watched tensor must be floating (e.g. tf.float32), got", 1, true), err)
    assert.is_truthy(err:find("int32", 1, true), err)
  end)

  it("3. Took gradients through an integer: TF's three warnings, for the watched tensor, the target and the source", function()
    local x = tf.constant(10)
    local err = G.stderr_of(function()
      local g <close> = tf.GradientTape()
      g:watch(x)
      local y = x * x
      g:stop()
      g:gradient(y, x)
    end)
    for _, text in ipairs({
      "The dtype of the watched tensor must be floating (e.g. tf.float32), got tf.int32",
      "The dtype of the target tensor must be floating (e.g. tf.float32) when calling GradientTape.gradient, got tf.int32",
      "The dtype of the source tensor must be floating (e.g. tf.float32) when calling GradientTape.gradient, got tf.int32",
    }) do
      assert.is_truthy(err:find(text, 1, true), "no warning '" .. text .. "' in: " .. err)
    end
  end)

  it("4. Took gradients through a stateful object: None", function()
    local x0 = tf.Variable(3.0)
    local x1 = tf.Variable(0.0)
    local tape = tf.GradientTape()
    -- Update x1 = x1 + x0.
    x1:assign_add(x0)
    -- The tape starts recording from x1.
    local y = x1 ^ 2 -- y = (x1 + x0)**2
    tape:stop()
    -- This doesn't work.
    assert.is_nil(tape:gradient(y, x0)) -- dy/dx0 = 2*(x1 + x0)
  end)
end)

describe("autodiff guide: No gradient registered", function()
  G.it("autodiff/adjust_contrast", "LookupError: gradient registry has no entry for: AdjustContrastv2", function()
    local image = tf.Variable({ { { 0.5, 0.0, 0.0 } } })
    local delta = tf.Variable(0.1)
    local tape = tf.GradientTape()
    local new_image = tf.image.adjust_contrast(image, delta)
    tape:stop()
    H.raises("LookupError", "gradient registry has no entry for: AdjustContrastv2", function()
      return tape:gradient(new_image, { image, delta })
    end)
  end)
end)

describe("autodiff guide: Zeros instead of None", function()
  G.it("autodiff/unconnected_enum", "unconnected_gradients=tf.UnconnectedGradients.ZERO: tf.Tensor([0. 0.], ...)", function()
    local x = tf.Variable({ 2., 2. })
    local y = tf.Variable(3.)
    local tape = tf.GradientTape()
    local z = y ^ 2
    tape:stop()
    assert.are.equal("tf.Tensor([0. 0.], shape=(2,), dtype=float32)",
      tostring(tape:gradient(z, x, { unconnected_gradients = tf.UnconnectedGradients.ZERO })))
  end)

  -- moonflow names TF's enum values by their strings ("none", "zero"),
  -- which TF also accepts (UnconnectedGradients("zero")).
  it("unconnected_gradients = \"zero\": tf.Tensor([0. 0.], shape=(2,), dtype=float32)", function()
    local x = tf.Variable({ 2., 2. })
    local y = tf.Variable(3.)
    local tape = tf.GradientTape()
    local z = y ^ 2
    tape:stop()
    assert.are.equal("tf.Tensor([0. 0.], shape=(2,), dtype=float32)",
      tostring(tape:gradient(z, x, { unconnected_gradients = "zero" })))
  end)
end)

describe("autodiff guide: lists", function()
  G.report()
end)
