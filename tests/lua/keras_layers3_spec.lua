-- keras_layers3_spec.lua — the layers of layers_core.lua and layers_rnn.lua
-- on Keras's Layer base (issue 27): Keras's auto names and variable names
-- (lstm/lstm_cell/kernel:0), each layer in a functional model
-- (tf.keras.Input -> layer -> Model) with its summary() row as Keras
-- prints it (output shape, parameter count), the merge layers on lists of
-- KerasTensors, LSTM/GRU return_state giving several KerasTensors, a
-- Sequential of them trained by fit, and a saved model of them loaded
-- back giving the same outputs.

local tf = tf or require("moonflow")
local H = require("helpers")
local L = tf.keras.layers

local function ramp(sizes, scale)
  local n = 1
  for _, d in ipairs(sizes) do n = n * d end
  return tf.reshape(tf.range(1, n + 1, 1, tf.float32), sizes) * (scale or 0.1)
end

-- The summary line of a layer: its name-and-class column, then the rest.
local function row(lines, head)
  for _, l in ipairs(lines) do
    if l:sub(1, #head + 1) == " " .. head then return l end
  end
  error("no summary row for " .. head .. " in:\n" .. table.concat(lines, "\n"))
end
local function fields(line)
  local out = {}
  for f in line:gmatch("%S[^%s]*[^%s]*") do out[#out + 1] = f end
  return table.concat(out, " ")
end

local function tmpdir()
  local d = os.tmpname()
  os.remove(d)
  return d
end

describe("the new layers on Keras's Layer base", function()
  before_each(function() tf.keras.backend.clear_session() end)

  it("take Keras's auto names and name their variables as Keras", function()
    local a, b = L.LSTM(2), L.LSTM(2)
    assert.are.equal("lstm", a.name)
    assert.are.equal("lstm_1", b.name)
    a(ramp({ 1, 2, 3 }))
    local names = {}
    for i, v in ipairs(a:variables()) do names[i] = v.name end
    assert.are.same({ "lstm/lstm_cell/kernel:0", "lstm/lstm_cell/recurrent_kernel:0", "lstm/lstm_cell/bias:0" }, names)
    local c = L.Conv1D(2, 2)
    c(ramp({ 1, 4, 3 }))
    assert.are.same({ "conv1d/kernel:0", "conv1d/bias:0" }, { c:variables()[1].name, c:variables()[2].name })
    local g = L.GRU(2)
    g(ramp({ 1, 2, 3 }))
    assert.are.equal("gru/gru_cell/kernel:0", g:variables()[1].name)
    assert.are.equal("simple_rnn", L.SimpleRNN(2).name)
    assert.are.equal("global_average_pooling1d", L.GlobalAveragePooling1D().name)
  end)

  it("LSTM and GRU in a functional model: outputs, summary rows and parameter counts as Keras's", function()
    local inp = tf.keras.Input({ shape = { 5, 3 } })
    local seq = L.LSTM(8, { return_sequences = true })(inp)
    assert.are.equal("(None, 5, 8)", tostring(seq.shape))
    local last = L.GRU(8)(seq)
    local out = L.Dense(1)(last)
    local model = tf.keras.Model({ inputs = inp, outputs = out })
    local lines = H.capture(function() model:summary() end)
    assert.are.equal("lstm (LSTM) (None, 5, 8) 384", fields(row(lines, "lstm (LSTM)")))
    assert.are.equal("gru (GRU) (None, 8) 432", fields(row(lines, "gru (GRU)")))
    assert.are.equal("dense (Dense) (None, 1) 9", fields(row(lines, "dense (Dense)")))
    -- The model computes what the layers compute, called one after the other.
    local x = ramp({ 2, 5, 3 })
    local layers = model:get_layers()
    local want = layers[4](layers[3](layers[2](x)))
    H.tensor_close(model(x), tf.float32, { 2, 1 }, want:numpy())
  end)

  it("GRU(8) with reset_after = false and SimpleRNN: their parameter counts", function()
    local inp = tf.keras.Input({ shape = { 5, 3 } })
    local a = L.GRU(8, { reset_after = false, return_sequences = true })(inp)
    local b = L.SimpleRNN(4)(a)
    local model = tf.keras.Model({ inputs = inp, outputs = b })
    local lines = H.capture(function() model:summary() end)
    assert.are.equal("gru (GRU) (None, 5, 8) 288", fields(row(lines, "gru (GRU)")))
    assert.are.equal("simple_rnn (SimpleRNN) (None, 4) 52", fields(row(lines, "simple_rnn (SimpleRNN)")))
  end)

  it("Conv1D, the global poolings, Reshape and the activations in a functional model", function()
    local inp = tf.keras.Input({ shape = { 10, 2 } })
    local h = L.Conv1D(4, 3)(inp)
    assert.are.equal("(None, 8, 4)", tostring(h.shape))
    h = L.ReLU()(h)
    local pooled = L.GlobalAveragePooling1D()(h)
    local r = L.Reshape({ 2, 2 })(pooled)
    local s = L.Softmax()(r)
    local a = L.Activation("tanh")(s)
    local model = tf.keras.Model({ inputs = inp, outputs = a })
    local lines = H.capture(function() model:summary() end)
    assert.are.equal("conv1d (Conv1D) (None, 8, 4) 28", fields(row(lines, "conv1d (Conv1D)")))
    assert.are.equal("re_lu (ReLU) (None, 8, 4) 0", fields(row(lines, "re_lu (ReLU)")))
    -- A name wider than its column wraps, as Keras's print_row wraps it.
    assert.are.equal("global_average_pooling1d ( (None, 4) 0", fields(row(lines, "global_average_pooling1d")))
    assert.are.equal("reshape (Reshape) (None, 2, 2) 0", fields(row(lines, "reshape (Reshape)")))
    assert.are.equal("softmax (Softmax) (None, 2, 2) 0", fields(row(lines, "softmax (Softmax)")))
    assert.are.equal("activation (Activation) (None, 2, 2) 0", fields(row(lines, "activation (Activation)")))
    H.tensor(model(ramp({ 3, 10, 2 })), tf.float32, { 3, 2, 2 })
  end)

  it("GlobalMaxPooling2D after a Conv2D in a functional model", function()
    local inp = tf.keras.Input({ shape = { 4, 4, 1 } })
    local out = L.GlobalMaxPooling2D()(L.Conv2D(3, 2)(inp))
    assert.are.equal("(None, 3)", tostring(out.shape))
    local model = tf.keras.Model({ inputs = inp, outputs = out })
    H.tensor(model(ramp({ 2, 4, 4, 1 })), tf.float32, { 2, 3 })
  end)

  it("Concatenate and Add take lists of KerasTensors; the model takes a list of tensors", function()
    local a, b = tf.keras.Input({ shape = { 2 } }), tf.keras.Input({ shape = { 3 } })
    local cat = L.Concatenate()({ a, b })
    assert.are.equal("(None, 5)", tostring(cat.shape))
    local sum = L.Add()({ L.Dense(4)(cat), L.Dense(4)(a) })
    assert.are.equal("(None, 4)", tostring(sum.shape))
    local model = tf.keras.Model({ inputs = { a, b }, outputs = sum })
    local lines = H.capture(function() model:summary() end)
    -- The connections wrap in their column, as Keras's print_row wraps them.
    local crow = row(lines, "concatenate (Concatenate)")
    assert.are.equal("concatenate (Concatenate) (None, 5) 0 ['input_1[0][0]',", fields(crow))
    local after
    for i, l in ipairs(lines) do if l == crow then after = lines[i + 1] end end
    assert.are.equal("'input_2[0][0]']", fields(after))
    assert.truthy(row(lines, "add (Add)"):find("(None, 4)", 1, true))
    local xa, xb = tf.constant({ { 1.0, 2.0 } }), tf.constant({ { 3.0, 4.0, 5.0 } })
    local ls = model:get_layers()
    local d1, d2 = ls[4], ls[5]
    local want = d1(tf.concat({ xa, xb }, 1)) + d2(xa)
    H.tensor_close(model({ xa, xb }), tf.float32, { 1, 4 }, want:numpy())
    H.raises("ValueError", "A `Concatenate` layer requires inputs with matching shapes",
      function() return L.Concatenate()({ tf.keras.Input({ shape = { 2, 3 } }), tf.keras.Input({ shape = { 4, 3 } }) }) end)
    H.tensor(tf.keras.Model({ inputs = { a, b }, outputs = L.Concatenate(1)({ tf.keras.layers.Reshape({ 2, 1 })(a),
      tf.keras.layers.Reshape({ 3, 1 })(b) }) })({ xa, xb }), tf.float32, { 1, 5, 1 }, { { { 1 }, { 2 }, { 3 }, { 4 }, { 5 } } })
  end)

  it("LSTM with return_state in the functional API gives three KerasTensors", function()
    local inp = tf.keras.Input({ shape = { 4, 3 } })
    local lstm = L.LSTM(5, { return_state = true })
    local out, h, c = lstm(inp)
    for _, kt in ipairs({ out, h, c }) do
      assert.are.equal("(None, 5)", tostring(kt.shape))
    end
    local model = tf.keras.Model({ inputs = inp, outputs = { out, h, c } })
    local lines = H.capture(function() model:summary() end)
    -- Keras's summary: the three shapes as a list, wrapped in the column.
    assert.are.equal("lstm (LSTM) [(None, 5), 180 ['input_1[0][0]']", fields(row(lines, "lstm (LSTM)")))
    local x = ramp({ 2, 4, 3 })
    local got = model(x)
    local w_out, w_h, w_c = lstm(x)
    assert.are.same(w_out:numpy(), got[1]:numpy())
    assert.are.same(w_h:numpy(), got[2]:numpy())
    assert.are.same(w_c:numpy(), got[3]:numpy())
    -- GRU's final state, fed on to a Dense.
    local gout, gh = L.GRU(3, { return_state = true })(inp)
    local m2 = tf.keras.Model({ inputs = inp, outputs = L.Add()({ gout, gh }) })
    H.tensor(m2(x), tf.float32, { 2, 3 })
  end)
end)

describe("recurrent layers' initial_state in the functional API", function()
  before_each(function() tf.keras.backend.clear_session() end)

  it("an encoder's LSTM states start a decoder's LSTM (Keras's seq2seq)", function()
    local enc_in = tf.keras.Input({ shape = { 4, 3 } })
    local dec_in = tf.keras.Input({ shape = { 2, 5 } })
    local encoder = L.LSTM(6, { return_state = true })
    local _, h, c = encoder(enc_in)
    local decoder = L.LSTM(6, { return_sequences = true })
    local seq = decoder(dec_in, { initial_state = { h, c } })
    assert.are.equal("(None, 2, 6)", tostring(seq.shape))
    local model = tf.keras.Model({ inputs = { enc_in, dec_in }, outputs = seq })
    local lines = H.capture(function() model:summary() end)
    local drow = row(lines, "lstm_1 (LSTM)")
    assert.are.equal("lstm_1 (LSTM) (None, 2, 6) 288 ['input_2[0][0]',", fields(drow))
    local after
    for i, l in ipairs(lines) do if l == drow then after = { lines[i + 1], lines[i + 2] } end end
    assert.are.equal("'lstm[0][1]',", fields(after[1]))
    assert.are.equal("'lstm[0][2]']", fields(after[2]))
    local xe, xd = ramp({ 2, 4, 3 }), ramp({ 2, 2, 5 })
    local _, eh, ec = encoder(xe)
    local want = decoder(xd, { initial_state = { eh, ec } })
    H.tensor_close(model({ xe, xd }), tf.float32, { 2, 2, 6 }, want:numpy())
    -- Saved and loaded (the loaded call takes the two inputs as arguments), then trained.
    local dir = tmpdir()
    tf.saved_model.save(model, dir)
    local loaded = tf.saved_model.load(dir)
    os.execute("rm -rf '" .. dir .. "'")
    H.close(want:numpy(), loaded(xe, xd):numpy(), 1e-6)
    model:compile({ optimizer = tf.keras.optimizers.Adam(0.01), loss = "mse" })
    local h = model:fit({ xe, xd }, tf.zeros({ 2, 2, 6 }), { epochs = 3, verbose = 0 })
    assert.is_true(h.history.loss[3] < h.history.loss[1])
  end)
end)

describe("the new layers trained and saved", function()
  before_each(function() tf.keras.backend.clear_session() end)

  local function regression_data()
    tf.random.set_seed(3)
    local x = tf.random.normal({ 32, 6, 2 })
    local y = tf.reduce_mean(x, { 1, 2 })
    return x, tf.reshape(y, { 32, 1 })
  end

  local function losses_fall(model)
    local x, y = regression_data()
    model:compile({ optimizer = tf.keras.optimizers.Adam(0.01), loss = "mse" })
    local history = model:fit(x, y, { epochs = 3, batch_size = 8, verbose = 0, shuffle = false })
    local l = history.history.loss
    assert.are.equal(3, #l)
    assert.is_true(l[3] < l[1], ("loss %g -> %g"):format(l[1], l[3]))
  end

  it("a Sequential of Conv1D, ReLU, GlobalAveragePooling1D, Dense: fit lowers the loss", function()
    tf.random.set_seed(1)
    losses_fall(tf.keras.Sequential({ L.Conv1D(4, 3, { kernel_initializer = tf.keras.initializers.GlorotUniform(1) }),
      L.ReLU(), L.GlobalAveragePooling1D(), L.Dense(1) }))
  end)

  it("a Sequential of LSTM, GRU, SimpleRNN and Dense: fit lowers the loss", function()
    tf.random.set_seed(1)
    losses_fall(tf.keras.Sequential({ L.LSTM(4, { return_sequences = true }), L.GRU(4, { return_sequences = true }),
      L.SimpleRNN(3), L.Dense(1) }))
  end)

  it("a functional model of the new layers saves and loads through tf.saved_model", function()
    local inp = tf.keras.Input({ shape = { 6, 2 } })
    local conv = L.Conv1D(3, 2, { padding = "causal" })(inp)
    local seq = L.LSTM(4, { return_sequences = true })(conv)
    local pooled = L.GlobalMaxPooling1D()(seq)
    local last = L.GRU(4)(seq)
    local out = L.Dense(1)(L.Concatenate()({ pooled, last }))
    local model = tf.keras.Model({ inputs = inp, outputs = out })
    local x = ramp({ 3, 6, 2 })
    local want = model(x):numpy()
    local dir = tmpdir()
    tf.saved_model.save(model, dir)
    local loaded = tf.saved_model.load(dir)
    os.execute("rm -rf '" .. dir .. "'")
    H.close(want, loaded(x):numpy(), 1e-6)
    assert.are.equal(#model:variables(), #loaded.variables())
  end)
end)
