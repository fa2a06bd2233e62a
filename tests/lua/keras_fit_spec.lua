-- keras_fit_spec.lua — compile / fit / evaluate / predict / train_on_batch
-- / test_on_batch (issue 27): string names and objects in compile, fit
-- on tensors and on a tf.data dataset, the History, validation data and
-- split, the traced train_function (one trace per input signature) and
-- run_eagerly giving the same numbers, a user's train_step override, the
-- progress lines for verbose 1 and 2, callbacks (a Callback subclass,
-- LambdaCallback, EarlyStopping with restore_best_weights,
-- ModelCheckpoint), and Keras's errors.

local tf = tf or require("moonflow")
local H = require("helpers")

-- A separable problem: the class is whether x1 + x2 > 0.
local function data(n, seed)
  tf.random.set_seed(seed or 7)
  local x = tf.random.normal({ n, 2 })
  local y = tf.cast(tf.greater(tf.reduce_sum(x, -1), 0), tf.int32)
  return x, y
end

local function classifier()
  return tf.keras.Sequential({
    tf.keras.layers.Dense(8, { activation = "relu" }),
    tf.keras.layers.Dense(2),
  })
end

-- Two models with the same initial weights.
local function twins()
  local a, b = classifier(), classifier()
  a(tf.ones({ 1, 2 }))
  b(tf.ones({ 1, 2 }))
  b:set_weights(a:get_weights())
  return a, b
end

local function compile(m, eager)
  m:compile({ optimizer = tf.keras.optimizers.SGD(0.1), metrics = { "accuracy" }, run_eagerly = eager,
    loss = tf.keras.losses.SparseCategoricalCrossentropy(true) })
end

describe("model:compile and model:fit", function()
  before_each(function() tf.keras.backend.clear_session() end)

  it("fit before compile is Keras's RuntimeError", function()
    local x, y = data(8)
    local m = classifier()
    H.raises("RuntimeError", "You must compile your model before training/testing. Use `model.compile(optimizer, loss)`.",
      function() return m:fit(x, y, { verbose = 0 }) end)
    H.raises("RuntimeError", "You must compile your model before training/testing.",
      function() return m:evaluate(x, y, { verbose = 0 }) end)
  end)

  it("learns a separable problem: accuracy above 0.9, the History holds one loss per epoch", function()
    local x, y = data(256)
    local m = classifier()
    m:compile({ optimizer = "adam", loss = "sparse_categorical_crossentropy", metrics = { "accuracy" } })
    -- String names: the loss takes probabilities, so the model ends in softmax.
    m:add(tf.keras.layers.Dense(2, { activation = "softmax" }))
    local history = m:fit(x, y, { epochs = 30, batch_size = 32, verbose = 0 })
    assert.are.equal(30, #history.history.loss)
    assert.are.equal(30, #history.history.accuracy)
    assert.are.same(0, history.epoch[1])
    assert.is_true(history.history.loss[30] < history.history.loss[1])
    local loss, acc = table.unpack(m:evaluate(x, y, { verbose = 0 }))
    assert.is_true(acc > 0.9, "accuracy " .. acc)
    assert.is_true(loss < 0.3, "loss " .. loss)
  end)

  it("traces one train_step per input signature, reachable as model.train_function", function()
    local x, y = data(40)
    local m = classifier()
    compile(m, false)
    m:fit(x, y, { epochs = 2, batch_size = 16, shuffle = false, verbose = 0 })
    -- 40 rows in batches of 16: (16, 2) and the last (8, 2); the optimizer's
    -- variables made on the first trace retrace it once (tf.func's rule).
    assert.are.equal("table", type(m.train_function))
    assert.are.equal(3, m.train_function:experimental_get_tracing_count())
    m:fit(x, y, { epochs = 1, batch_size = 16, shuffle = false, verbose = 0 })
    assert.are.equal(3, m.train_function:experimental_get_tracing_count())
  end)

  it("run_eagerly = true runs train_step as plain Lua and gives the same losses as the traced step", function()
    local x, y = data(48)
    local a, b = twins()
    compile(a, false)
    compile(b, true)
    local ha = a:fit(x, y, { epochs = 3, batch_size = 16, shuffle = false, verbose = 0 })
    local hb = b:fit(x, y, { epochs = 3, batch_size = 16, shuffle = false, verbose = 0 })
    assert.are.equal("function", type(b.train_function))
    assert.is_truthy(tostring(a.train_function):find("train_function", 1, true), tostring(a.train_function))
    for i = 1, 3 do
      assert.is_true(math.abs(ha.history.loss[i] - hb.history.loss[i]) < 1e-5)
      assert.are.equal(ha.history.accuracy[i], hb.history.accuracy[i])
    end
  end)

  it("fits a tf.data dataset, batched, with validation_data as a dataset", function()
    local x, y = data(64)
    local ds = tf.data.Dataset.from_tensor_slices({ x, y }):batch(16)
    local m = classifier()
    compile(m, false)
    local h = m:fit(ds, { epochs = 2, validation_data = ds, verbose = 0 })
    assert.are.equal(2, #h.history.loss)
    assert.are.equal(2, #h.history.val_loss)
    assert.are.equal(2, #h.history.val_accuracy)
    H.raises("ValueError", "`y` argument is not supported when using dataset as input.",
      function() return m:fit(ds, y, { verbose = 0 }) end)
  end)

  it("validation_split holds out the last rows; validation_data takes {x, y}", function()
    local x, y = data(40)
    local m = classifier()
    compile(m, false)
    local h = m:fit(x, y, { epochs = 1, validation_split = 0.25, verbose = 0 })
    local held = m:evaluate(x["30:"], y["30:"], { verbose = 0, return_dict = true })
    assert.is_true(math.abs(h.history.val_loss[1] - held.loss) < 1e-5)
    local h2 = m:fit(x, y, { epochs = 1, validation_data = { x, y }, verbose = 0 })
    assert.is_number(h2.history.val_accuracy[1])
  end)

  it("predict, train_on_batch, test_on_batch", function()
    local x, y = data(20)
    local m = classifier()
    compile(m, false)
    local p = m:predict(x, { batch_size = 8 })
    assert.are.equal("(20, 2)", tostring(p.shape))
    H.close(m(x):numpy(), p, 1e-5)
    local before = m:test_on_batch(x, y)
    local trained = m:train_on_batch(x, y)
    assert.are.equal(2, #trained)
    assert.is_true(math.abs(trained[1] - before[1]) < 1e-5)
    assert.is_true(m:test_on_batch(x, y)[1] < before[1])
  end)

  it("a loss/label shape mismatch is the ValueError TF gives", function()
    local x = tf.ones({ 4, 2 })
    local m = classifier()
    m:compile({ optimizer = "sgd", loss = "sparse_categorical_crossentropy" })
    H.raises("ValueError", "`labels.shape` must equal `logits.shape` except for the last dimension. "
      .. "Received: labels.shape=(4, 3) and logits.shape=(4, 2)", function()
      return m:fit(x, tf.zeros({ 4, 3 }, tf.int32), { verbose = 0 })
    end)
    m:compile({ optimizer = "sgd", loss = "categorical_crossentropy" })
    H.raises("ValueError", "Shapes (4, 3) and (4, 2) are incompatible", function()
      return m:fit(x, tf.zeros({ 4, 3 }), { verbose = 0 })
    end)
  end)

  it("a per-example loss function is averaged over the batch, as Keras's compiled loss", function()
    local m = tf.keras.Sequential({ tf.keras.layers.Dense(1, { kernel_initializer = function(shape, dtype)
      return tf.zeros(shape, dtype) end }) })
    m:compile({ optimizer = "sgd", loss = function(y_true, y_pred) return tf.reduce_sum(tf.square(y_true - y_pred), -1) end })
    local x = tf.constant({ { 1.0 }, { 2.0 } })
    local y = tf.constant({ { 1.0 }, { 3.0 } })
    -- predictions 0: per example 1 and 9, mean 5
    assert.are.equal(5, m:test_on_batch(x, y))
    assert.are.equal(5, m:evaluate(x, y, { verbose = 0 }))
  end)

  it("compile refuses unknown names with Keras's messages", function()
    local m = classifier()
    H.raises("ValueError", "Unknown loss function: 'msee'", function() m:compile({ optimizer = "sgd", loss = "msee" }) end)
    H.raises("ValueError", "Could not interpret optimizer identifier: sgdd", function() m:compile({ optimizer = "sgdd", loss = "mse" }) end)
    H.raises("ValueError", "Unknown metric function: 'accurcy'", function()
      m:compile({ optimizer = "sgd", loss = "mse", metrics = { "accurcy" } })
    end)
    H.raises("TypeError", "fit() got an unexpected keyword argument 'epoch'", function()
      m:compile({ optimizer = "sgd", loss = "mse" })
      return m:fit(tf.ones({ 2, 2 }), tf.ones({ 2, 2 }), { epoch = 2 })
    end)
  end)

  it("a subclass's train_step override is what fit runs (Keras's customizing-fit guide)", function()
    local Custom = tf.keras.Model:extend("CustomModel")
    function Custom:init()
      tf.keras.Model.init(self)
      self.dense = tf.keras.layers.Dense(1)
      self.steps = 0
    end
    function Custom:call(x) return self.dense(x) end
    function Custom:train_step(d)
      local x, y = d[1], d[2]
      self.steps = self.steps + 1 -- counts traces: Lua code runs while tracing
      local tape = tf.GradientTape()
      local y_pred = self(x, { training = true })
      local loss = self:compute_loss(x, y, y_pred)
      tape:stop()
      local vars = self:trainable_variables()
      local grads = tape:gradient(loss, vars)
      local gv = {}
      for i, v in ipairs(vars) do gv[i] = { grads[i], v } end
      self.optimizer:apply_gradients(gv)
      return self:compute_metrics(x, y, y_pred, loss)
    end
    local m = Custom()
    m:compile({ optimizer = tf.keras.optimizers.SGD(0.1), loss = "mse" })
    local x = tf.constant({ { 1.0 }, { 2.0 }, { 3.0 }, { 4.0 } })
    local h = m:fit(x, 2 * x, { epochs = 20, batch_size = 4, verbose = 0 })
    assert.is_true(h.history.loss[20] < h.history.loss[1])
    assert.are.equal(m.train_function:experimental_get_tracing_count(), m.steps)
  end)
end)

describe("fit's progress lines", function()
  before_each(function() tf.keras.backend.clear_session() end)

  it("verbose 1: 'Epoch i/n' and Keras's bar line with the running loss and metrics", function()
    local x, y = data(64)
    local m = classifier()
    compile(m, false)
    local lines = H.capture(function() m:fit(x, y, { epochs = 2, batch_size = 16, verbose = 1 }) end)
    assert.are.equal(4, #lines)
    assert.are.equal("Epoch 1/2", lines[1])
    assert.are.equal("Epoch 2/2", lines[3])
    assert.is_truthy(lines[2]:match("^4/4 %[==============================%] %- %d+s %d+[mu]?s/step %- loss: %d%.%d%d%d%d %- accuracy: %d%.%d%d%d%d$"), lines[2])
  end)

  it("verbose 2: one line an epoch with its time per epoch and step; verbose 0 prints nothing", function()
    local x, y = data(32)
    local m = classifier()
    compile(m, false)
    local lines = H.capture(function() m:fit(x, y, { epochs = 1, batch_size = 16, verbose = 2, validation_data = { x, y } }) end)
    assert.are.equal("Epoch 1/1", lines[1])
    assert.is_truthy(lines[2]:match("^2/2 %- %d+s %- loss: %d%.%d+ %- accuracy: %d%.%d+ %- val_loss: %d%.%d+ %- val_accuracy: %d%.%d+ %- %d+[mu]?s/epoch %- %d+[mu]?s/step$"), lines[2])
    assert.are.same({}, H.capture(function() m:fit(x, y, { verbose = 0 }) end))
  end)
end)

describe("callbacks", function()
  before_each(function() tf.keras.backend.clear_session() end)

  it("a Callback subclass sees train, epoch and batch events with logs, and self.model", function()
    local x, y = data(32)
    local m = classifier()
    compile(m, false)
    local Recorder = tf.keras.callbacks.Callback:extend("Recorder")
    function Recorder:init() self.events = {} end
    function Recorder:on_train_begin() self.events[#self.events + 1] = "train_begin" end
    function Recorder:on_epoch_begin(epoch) self.events[#self.events + 1] = "epoch_begin " .. epoch end
    function Recorder:on_train_batch_end(batch, logs)
      self.events[#self.events + 1] = ("batch_end %d %s"):format(batch, type(logs.loss))
    end
    function Recorder:on_epoch_end(epoch, logs)
      self.events[#self.events + 1] = ("epoch_end %d %s"):format(epoch, type(logs.accuracy))
      assert.are.equal(m, self.model)
    end
    function Recorder:on_train_end() self.events[#self.events + 1] = "train_end" end
    local r = Recorder()
    m:fit(x, y, { epochs = 2, batch_size = 16, callbacks = { r }, verbose = 0 })
    assert.are.same({
      "train_begin", "epoch_begin 0", "batch_end 0 number", "batch_end 1 number", "epoch_end 0 number",
      "epoch_begin 1", "batch_end 0 number", "batch_end 1 number", "epoch_end 1 number", "train_end",
    }, r.events)
  end)

  it("LambdaCallback calls plain functions", function()
    local x, y = data(16)
    local m = classifier()
    compile(m, false)
    local seen = {}
    local cb = tf.keras.callbacks.LambdaCallback({ on_epoch_end = function(epoch, logs) seen[#seen + 1] = { epoch, logs.loss } end })
    m:fit(x, y, { epochs = 3, callbacks = { cb }, verbose = 0 })
    assert.are.equal(3, #seen)
    assert.are.equal(2, seen[3][1])
    H.raises("TypeError", "LambdaCallback: on_epoch_end must be a function", function()
      return tf.keras.callbacks.LambdaCallback({ on_epoch_end = 3 })
    end)
  end)

  it("EarlyStopping stops after patience epochs without improvement and restores the best weights", function()
    local x, y = data(16)
    local m = classifier()
    -- A learning rate this large makes the loss jump about: the best epoch is early.
    m:compile({ optimizer = tf.keras.optimizers.SGD(50.0), loss = tf.keras.losses.SparseCategoricalCrossentropy(true) })
    local stop = tf.keras.callbacks.EarlyStopping({ monitor = "loss", patience = 2, restore_best_weights = true })
    local h = m:fit(x, y, { epochs = 50, callbacks = { stop }, verbose = 0 })
    local n = #h.history.loss
    assert.is_true(n < 50, "ran all epochs")
    assert.are.equal(n - 1, stop.stopped_epoch)
    local best = math.huge
    for i = 1, n do best = math.min(best, h.history.loss[i]) end
    assert.are.equal(best, stop.best)
    assert.is_true(n - 1 - stop.best_epoch >= 2)
    H.raises("ValueError", "EarlyStopping mode maxi is unknown", function()
      return tf.keras.callbacks.EarlyStopping({ mode = "maxi" })
    end)
  end)

  it("ModelCheckpoint writes the weights each epoch, or only the best ones, readable by load_weights", function()
    local x, y = data(16)
    local m = classifier()
    compile(m, false)
    local dir = os.tmpname()
    os.remove(dir)
    local path = dir .. "_ckpt_{epoch:02d}"
    local saves = 0
    local cb = tf.keras.callbacks.ModelCheckpoint(path, { save_weights_only = true, monitor = "loss" })
    m:fit(x, y, { epochs = 2, callbacks = { cb }, verbose = 0 })
    local m2 = classifier()
    m2(tf.ones({ 1, 2 }))
    m2:load_weights(dir .. "_ckpt_02")
    H.close(m(x):numpy(), m2(x), 1e-6)
    for _, e in ipairs({ "01", "02" }) do
      local p = dir .. "_ckpt_" .. e
      assert.is_truthy(io.open(p .. "/saved_model.json"), p)
      os.execute("rm -rf '" .. p .. "'")
      saves = saves + 1
    end
    assert.are.equal(2, saves)
    H.raises("TypeError", "ModelCheckpoint: filepath must be a string", function()
      return tf.keras.callbacks.ModelCheckpoint(3)
    end)
  end)
end)

describe("progress lines redrawn in a terminal, and predict's", function()
  local progbar = require("moonflow.keras.progbar")
  before_each(function() tf.keras.backend.clear_session() end)

  it("verbose 1 in a terminal: the line is redrawn in place ('\\r') during the epoch, then ends", function()
    local x, y = data(64)
    local m = classifier()
    compile(m, false)
    local saved = progbar.is_terminal
    progbar.is_terminal = function() return true end
    local ok, lines = pcall(H.capture, function() m:fit(x, y, { epochs = 1, batch_size = 16, verbose = 1 }) end)
    progbar.is_terminal = saved
    assert(ok, lines)
    assert.are.equal(2, #lines)
    assert.are.equal("Epoch 1/1", lines[1])
    -- The first batch's line (with its ETA), then the final one over it.
    assert.is_truthy(lines[2]:match("^\r1/4 %[======>%.+%] %- ETA: %d+s %- loss: %d%.%d%d%d%d %- accuracy: %d%.%d%d%d%d"), lines[2])
    local final = lines[2]:match("\r([^\r]*)$")
    assert.is_truthy(final:match("^4/4 %[==============================%] %- %d+s %d+[mu]?s/step %- loss: %d%.%d%d%d%d %- accuracy: %d%.%d%d%d%d *$"), final)
  end)

  it("predict with verbose 1 prints Keras's progress line; silent by default", function()
    local x = data(40)
    local m = classifier()
    local lines = H.capture(function() m:predict(x, { batch_size = 16, verbose = 1 }) end)
    assert.are.equal(1, #lines)
    assert.is_truthy(lines[1]:match("^3/3 %[==============================%] %- %d+s %d+[mu]?s/step$"), lines[1])
    assert.are.same({}, H.capture(function() m:predict(x) end))
  end)
end)

describe("fit with several inputs", function()
  before_each(function() tf.keras.backend.clear_session() end)

  it("a two-input functional model trains on a list of x tensors; evaluate and predict take the list", function()
    tf.random.set_seed(5)
    local xa, xb = tf.random.normal({ 48, 2 }), tf.random.normal({ 48, 3 })
    local y = tf.reshape(tf.reduce_sum(xa, -1) - tf.reduce_sum(xb, -1), { 48, 1 })
    local a, b = tf.keras.Input({ shape = { 2 } }), tf.keras.Input({ shape = { 3 } })
    local out = tf.keras.layers.Dense(1)(tf.keras.layers.Concatenate()({ a, b }))
    local m = tf.keras.Model({ inputs = { a, b }, outputs = out })
    m:compile({ optimizer = tf.keras.optimizers.SGD(0.1), loss = "mse" })
    local h = m:fit({ xa, xb }, y, { epochs = 5, batch_size = 16, verbose = 0, validation_split = 0.25 })
    local l = h.history.loss
    assert.is_true(l[5] < l[1], ("loss %g -> %g"):format(l[1], l[5]))
    assert.are.equal(5, #h.history.val_loss)
    assert.are.equal("number", type(m:evaluate({ xa, xb }, y, { verbose = 0 })))
    H.tensor(m:predict({ xa, xb }, { batch_size = 20 }), tf.float32, { 48, 1 })
    H.raises("ValueError", "Data cardinality is ambiguous",
      function() return m:fit({ xa, xb["0:10"] }, y, { verbose = 0 }) end)
  end)
end)

describe("fit with inputs keyed by the Inputs' names", function()
  before_each(function() tf.keras.backend.clear_session() end)

  it("a table {name = tensor} feeds each Input by its name; a missing name is Keras's ValueError", function()
    tf.random.set_seed(6)
    local xa, xb = tf.random.normal({ 32, 2 }), tf.random.normal({ 32, 1 })
    local y = tf.reshape(tf.reduce_sum(xa, -1), { 32, 1 }) + xb
    local a = tf.keras.Input({ shape = { 2 }, name = "a" })
    local b = tf.keras.Input({ shape = { 1 }, name = "b" })
    local out = tf.keras.layers.Add()({ tf.keras.layers.Dense(1)(a), b })
    local m = tf.keras.Model({ inputs = { a, b }, outputs = out })
    m:compile({ optimizer = tf.keras.optimizers.SGD(0.1), loss = "mse" })
    local h = m:fit({ b = xb, a = xa }, y, { epochs = 4, batch_size = 8, verbose = 0 })
    assert.is_true(h.history.loss[4] < h.history.loss[1])
    assert.are.same(m({ xa, xb }):numpy(), m({ a = xa, b = xb }):numpy())
    H.tensor(m:predict({ a = xa, b = xb }), tf.float32, { 32, 1 })
    H.raises("ValueError", [=[Missing data for input "b". You passed a data dictionary with keys ['a']. Expected the following keys: ['a', 'b']]=],
      function() return m({ a = xa }) end)
  end)
end)

describe("metrics before compile", function()
  it("get_metrics() of a model not compiled is empty, as Keras's model.metrics", function()
    assert.are.same({}, classifier():get_metrics())
  end)
end)
