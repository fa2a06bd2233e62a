-- keras_fidelity_spec.lua — Keras's behaviour where moonflow was silent or
-- raised another error (session 10): constructor and input_spec errors as
-- Keras words them (keras/src/utils/conv_utils.py, engine/input_spec.py),
-- seeded initializers that repeat their values (TF 2.x Keras), a
-- Sequential opened by tf.keras.Input, Conv1D's dilation_rate, the
-- optimizers' gradient clipping, and the recurrent layers' go_backwards
-- and dropout.

local tf = tf or require("moonflow")
local H = require("helpers")
local L = tf.keras.layers

describe("keras errors as Keras raises them", function()
  it("an initializer called with a shape that is not one raises a TypeError naming the shape", function()
    H.raises("TypeError", "shape", function() tf.keras.initializers.GlorotUniform()("x") end)
  end)

  it("Conv2D rejects an unknown padding at construction, with conv_utils's message", function()
    H.raises("ValueError", 'The `padding` argument must be a list/tuple or one of "valid", "same" (or "causal", '
      .. "only for `Conv1D). Received: full", function() L.Conv2D({ filters = 2, kernel_size = 3, padding = "full" }) end)
    H.raises("ValueError", "Causal padding is only supported for `Conv1D` and `SeparableConv1D`.",
      function() L.Conv2D(2, 3, { padding = "causal" }) end)
    assert.equal("SAME", L.Conv2D(2, 3, { padding = "Same" }).padding)
  end)

  it("a too-low-rank input fails Keras's input_spec check with a ValueError", function()
    H.raises("ValueError", 'Input 0 of layer "dense_x" is incompatible with the layer: expected min_ndim=2, '
      .. "found ndim=0. Full shape received: ()", function() L.Dense(2, { name = "dense_x" })(tf.constant(1.0)) end)
    H.raises("ValueError", 'Input 0 of layer "conv2d_x" is incompatible with the layer: expected min_ndim=4, '
      .. "found ndim=3. Full shape received: (1, 4, 4)",
      function() L.Conv2D(2, 3, { name = "conv2d_x" })(tf.zeros({ 1, 4, 4 })) end)
  end)

  it("categorical_crossentropy with mismatched shapes is a ValueError", function()
    H.raises("ValueError", "Shapes (2, 3) and (2, 4) are incompatible",
      function() tf.keras.losses.categorical_crossentropy(tf.zeros({ 2, 3 }), tf.zeros({ 2, 4 })) end)
  end)
end)

describe("seeded initializers", function()
  local classes = { "GlorotUniform", "GlorotNormal", "HeNormal", "HeUniform", "LecunNormal", "LecunUniform" }
  for _, name in ipairs(classes) do
    it(name .. " with a seed gives the same values on every call, and across instances", function()
      local init = tf.keras.initializers[name](7)
      local a, b = init({ 3, 4 }), init({ 3, 4 })
      assert.same(a:numpy(), b:numpy())
      assert.same(a:numpy(), tf.keras.initializers[name]({ seed = 7 })({ 3, 4 }):numpy())
    end)
  end
  it("RandomUniform, RandomNormal, TruncatedNormal, VarianceScaling and Orthogonal repeat with a seed", function()
    local I = tf.keras.initializers
    for _, init in ipairs({ I.RandomUniform(-1, 1, 3), I.RandomNormal(0, 1, 3), I.TruncatedNormal(0, 1, 3),
      I.VarianceScaling(2.0, "fan_out", "untruncated_normal", 3), I.Orthogonal(1.0, 3) }) do
      assert.same(init({ 4, 4 }):numpy(), init({ 4, 4 }):numpy())
    end
  end)
  it("an unseeded initializer draws new values per call", function()
    local init = tf.keras.initializers.GlorotUniform()
    assert.are_not.same(init({ 3, 4 }):numpy(), init({ 3, 4 }):numpy())
  end)
  it("two Dense layers with the same seeded initializer start with the same kernel", function()
    local d1 = L.Dense(3, { kernel_initializer = tf.keras.initializers.GlorotUniform(5) })
    local d2 = L.Dense(3, { kernel_initializer = tf.keras.initializers.GlorotUniform(5) })
    d1(tf.ones({ 1, 2 })); d2(tf.ones({ 1, 2 }))
    assert.same(d1.kernel:numpy(), d2.kernel:numpy())
  end)
end)

describe("a Sequential opened by tf.keras.Input", function()
  it("is built at once, its layers exclude the input, and summary shows the shapes", function()
    local model = tf.keras.Sequential({ tf.keras.Input({ shape = { 4 } }), L.Dense(2, { name = "d" }) })
    assert.is_true(model.built)
    assert.equal(1, #model.layers)
    assert.equal(10, model:count_params())
    local lines = {}
    model:summary({ print_fn = function(l) lines[#lines + 1] = l end })
    local text = table.concat(lines, "\n")
    assert.truthy(text:find("d (Dense)", 1, true), text)
    assert.truthy(text:find("(None, 2)", 1, true), text)
    assert.truthy(text:find("Total params: 10", 1, true), text)
    H.tensor_close(model(tf.zeros({ 3, 4 })), tf.float32, { 3, 2 }, { { 0, 0 }, { 0, 0 }, { 0, 0 } })
  end)
  it("checks the input's shape against the layers at once", function()
    H.raises("ValueError", "expected min_ndim=4",
      function() tf.keras.Sequential({ tf.keras.Input({ shape = { 4 } }), L.Conv2D(1, 1) }) end)
  end)
  it("builds a layer added after the input", function()
    local model = tf.keras.Sequential({ tf.keras.Input({ shape = { 3 } }) })
    model:add(L.Dense(2))
    assert.equal(8, model:count_params())
  end)
  it("an Input anywhere but first is an error, as Keras's", function()
    H.raises("TypeError", "layers[2]",
      function() tf.keras.Sequential({ L.Dense(2), tf.keras.Input({ shape = { 4 } }) }) end)
  end)
end)

describe("optimizers' gradient clipping (Keras 2's _clip_gradients)", function()
  local O = tf.keras.optimizers
  local function step(opt, grads)
    local vars, gvs = {}, {}
    for i, g in ipairs(grads) do
      vars[i] = tf.Variable(tf.zeros({ #g }))
      gvs[i] = { tf.constant(g), vars[i] }
    end
    opt:apply_gradients(gvs)
    local out = {}
    for i, v in ipairs(vars) do out[i] = v end
    return out
  end
  it("clipnorm rescales each gradient to at most that norm", function()
    local v = step(O.SGD(1.0, { clipnorm = 1.0 }), { { 3.0, 4.0 }, { 0.3, 0.4 } })
    H.tensor_close(v[1], tf.float32, { 2 }, { -0.6, -0.8 }, 1e-6)
    H.tensor_close(v[2], tf.float32, { 2 }, { -0.3, -0.4 }, 1e-6)
  end)
  it("global_clipnorm rescales all gradients by their global norm", function()
    local v = step(O.SGD(1.0, { global_clipnorm = 1.0 }), { { 3.0 }, { 4.0 } })
    H.tensor_close(v[1], tf.float32, { 1 }, { -0.6 }, 1e-6)
    H.tensor_close(v[2], tf.float32, { 1 }, { -0.8 }, 1e-6)
  end)
  it("clipvalue clips each element", function()
    local v = step(O.Adagrad(1.0, { clipvalue = 0.5 }), { { 3.0, -4.0, 0.25 } })
    -- Adagrad: acc = 0.1 + g²; v -= g / sqrt(acc + 1e-7), g clipped to ±0.5
    H.tensor_close(v[1], tf.float32, { 3 }, { -0.5 / math.sqrt(0.35), 0.5 / math.sqrt(0.35),
      -0.25 / math.sqrt(0.1625) }, 1e-5)
  end)
  it("every optimizer takes them", function()
    for _, name in ipairs({ "SGD", "Adam", "AdamW", "RMSprop", "Adagrad" }) do
      local opt = O[name]({ clipnorm = 1.0, clipvalue = 2.0 })
      assert.equal(1.0, opt.clipnorm)
      assert.equal(2.0, opt.clipvalue)
      assert.equal(0.5, O[name]({ global_clipnorm = 0.5 }).global_clipnorm)
    end
  end)
  it("clipnorm and global_clipnorm together are a ValueError, as Keras's", function()
    H.raises("ValueError", "At most one of `clipnorm` and `global_clipnorm` can be set. Received: clipnorm=1.0, "
      .. "global_clipnorm=2.0.", function() O.Adam({ clipnorm = 1.0, global_clipnorm = 2.0 }) end)
    H.raises("TypeError", "clipnorm", function() O.SGD({ clipnorm = "big" }) end)
  end)
  it("an option Keras's optimizers have and moonflow's lack is a TypeError naming it", function()
    H.raises("TypeError", "use_ema", function() O.SGD({ use_ema = true }) end)
  end)
end)

describe("Conv1D's dilation_rate", function()
  local x = tf.reshape(tf.range(1, 7, 1, tf.float32), { 1, 6, 1 })
  it("spaces the kernel's taps dilation_rate steps apart", function()
    local conv = L.Conv1D(1, 2, { dilation_rate = 2, kernel_initializer = "ones", use_bias = false })
    H.tensor_close(conv(x), tf.float32, { 1, 4, 1 }, { { { 4 }, { 6 }, { 8 }, { 10 } } })
    assert.equal(2, conv.dilation_rate)
  end)
  it("with causal padding, pads (kernel_size - 1) * dilation_rate steps before", function()
    local conv = L.Conv1D(1, 2, { padding = "causal", dilation_rate = 2, kernel_initializer = "ones", use_bias = false })
    H.tensor_close(conv(x), tf.float32, { 1, 6, 1 }, { { { 1 }, { 2 }, { 4 }, { 6 }, { 8 }, { 10 } } })
  end)
  it("with same padding, keeps the length", function()
    local conv = L.Conv1D(1, 2, { padding = "same", dilation_rate = 2, kernel_initializer = "ones", use_bias = false })
    H.tensor_close(conv(x), tf.float32, { 1, 6, 1 }, { { { 2 }, { 4 }, { 6 }, { 8 }, { 10 }, { 5 } } })
  end)
  it("bad values are ValueErrors as Keras's", function()
    H.raises("ValueError", "The `dilation_rate` argument must be a tuple of 1 integers",
      function() L.Conv1D(1, 2, { dilation_rate = 0 }) end)
    H.raises("ValueError", "`strides > 1` not supported in conjunction with `dilation_rate > 1`. Received: "
      .. "strides=[2] and dilation_rate=[2]", function() L.Conv1D(1, 2, 2, { dilation_rate = 2 })(x) end)
  end)
end)

describe("recurrent layers' go_backwards, dropout and recurrent_dropout", function()
  local function linear_rnn(opts)
    local o = { kernel_initializer = "ones", recurrent_initializer = "ones", use_bias = false, activation = "linear",
      return_sequences = true }
    for k, v in pairs(opts) do o[k] = v end
    return L.SimpleRNN(1, o)
  end
  local function rows(t)
    local out = {}
    for i, r in ipairs(t:numpy()) do
      out[i] = {}
      for j, v in ipairs(r) do out[i][j] = v[1] end
    end
    return out
  end
  it("go_backwards runs the sequence from its end and returns the outputs in that order", function()
    local x = tf.reshape(tf.constant({ 1.0, 2.0, 3.0 }), { 1, 3, 1 })
    H.tensor_close(linear_rnn({ go_backwards = true })(x), tf.float32, { 1, 3, 1 }, { { { 3 }, { 5 }, { 6 } } })
    H.tensor_close(linear_rnn({})(x), tf.float32, { 1, 3, 1 }, { { { 1 }, { 3 }, { 6 } } })
    local lstm = L.LSTM(2, { go_backwards = true, return_state = true })
    local out, h, c = lstm(tf.ones({ 2, 3, 4 }))
    assert.same({ 2, 2 }, out.shape:as_list())
    assert.same({ 2, 2 }, c.shape:as_list())
  end)
  it("dropout drops input features with one mask for every step, in training only", function()
    local rnn = linear_rnn({ recurrent_initializer = "zeros", dropout = 0.5 })
    local x = tf.ones({ 16, 4, 1 })
    H.tensor_close(rnn(x), tf.float32, { 16, 4, 1 }, tf.ones({ 16, 4, 1 }):numpy())
    for _, r in ipairs(rows(rnn(x, { training = true }))) do
      assert.truthy(r[1] == 0 or r[1] == 2, "a kept input is scaled by 1 / (1 - rate)")
      for j = 2, 4 do assert.equal(r[1], r[j]) end
    end
  end)
  it("recurrent_dropout drops the state in the recurrent product, one mask for every step", function()
    local rnn = linear_rnn({ recurrent_dropout = 0.5 })
    local x = tf.ones({ 16, 3, 1 })
    H.tensor_close(rnn(x), tf.float32, { 16, 3, 1 }, tf.reshape(tf.tile(tf.constant({ 1.0, 2.0, 3.0 }), { 16 }),
      { 16, 3, 1 }):numpy())
    for _, r in ipairs(rows(rnn(x, true))) do
      assert.truthy((r[1] == 1 and r[2] == 1 and r[3] == 1) or (r[1] == 1 and r[2] == 3 and r[3] == 7),
        table.concat(r, ", "))
    end
  end)
  it("LSTM and GRU take them, and infer as without them", function()
    for _, class in ipairs({ "LSTM", "GRU" }) do
      local a = L[class](3, { dropout = 0.3, recurrent_dropout = 0.3 })
      local b = L[class](3)
      local x = tf.reshape(tf.range(0, 24, 1, tf.float32), { 2, 4, 3 }) * 0.1
      a(x); b(x)
      b:set_weights(a:get_weights())
      H.tensor_close(a(x), tf.float32, { 2, 3 }, b(x):numpy(), 1e-6)
      local trained = a(x, { training = true })
      assert.same({ 2, 3 }, trained.shape:as_list())
    end
  end)
  it("a bad value is a typed error naming the option", function()
    H.raises("TypeError", "dropout", function() L.GRU(2, { dropout = "half" }) end)
    H.raises("TypeError", "go_backwards", function() L.LSTM(2, { go_backwards = 1 }) end)
  end)
end)

describe("masking: Embedding(mask_zero) and Masking feed the recurrent layers", function()
  -- ids (2, 4): the second sequence is padded with zeros after two steps.
  local ids = tf.constant({ { 1, 2, 3, 1 }, { 2, 1, 0, 0 } })
  local function linear_rnn(class, opts)
    local o = { kernel_initializer = "ones", recurrent_initializer = "ones", use_bias = false, activation = "linear" }
    for k, v in pairs(opts or {}) do o[k] = v end
    return L[class](1, o)
  end

  it("Embedding's compute_mask is ids ~= 0 with mask_zero, nil without", function()
    local e = L.Embedding(4, 2, { mask_zero = true })
    H.tensor(e:compute_mask(ids), tf.bool, { 2, 4 }, { { true, true, true, true }, { true, true, false, false } })
    assert.is_nil(L.Embedding(4, 2):compute_mask(ids))
    assert.is_true(e.supports_masking)
  end)

  it("Masking zeroes the masked steps and gives their mask", function()
    local x = tf.constant({ { { 1.0, 2.0 }, { 0.0, 0.0 }, { 3.0, 0.0 } } })
    local m = L.Masking()
    H.tensor(m(x), tf.float32, { 1, 3, 2 }, { { { 1, 2 }, { 0, 0 }, { 3, 0 } } })
    H.tensor(m:compute_mask(x), tf.bool, { 1, 3 }, { { true, false, true } })
    H.tensor(L.Masking(1.0)(tf.constant({ { { 1.0 }, { 2.0 } } })), tf.float32, { 1, 2, 1 }, { { { 0 }, { 2 } } })
  end)

  it("a recurrent layer called with a mask keeps its state and repeats its output at masked steps", function()
    local x = tf.ones({ 1, 4, 1 })
    local mask = tf.constant({ { true, false, true, true } })
    local rnn = linear_rnn("SimpleRNN", { return_sequences = true, return_state = true })
    local seq, h = rnn(x, { mask = mask })
    H.tensor_close(seq, tf.float32, { 1, 4, 1 }, { { { 1 }, { 1 }, { 2 }, { 3 } } })
    H.tensor_close(h, tf.float32, { 1, 1 }, { { 3 } })
  end)

  it("a Sequential passes the Embedding's mask to the RNN: padded steps change nothing", function()
    for _, class in ipairs({ "SimpleRNN", "GRU", "LSTM" }) do
      local emb = L.Embedding(4, 3, { mask_zero = true, embeddings_initializer = tf.keras.initializers.RandomUniform(-1, 1, 3) })
      local model = tf.keras.Sequential({ emb, L[class](2) })
      local padded = model(tf.constant({ { 2, 1, 0, 0 } }))
      local short = model(tf.constant({ { 2, 1 } }))
      H.tensor_close(padded, tf.float32, { 1, 2 }, short:numpy(), 1e-6)
    end
  end)

  it("a functional model passes masks along its graph", function()
    local inp = tf.keras.Input({ shape = { 4 }, dtype = "int32" })
    local emb = L.Embedding(4, 3, { mask_zero = true })
    local out = L.LSTM(2)(emb(inp))
    local model = tf.keras.Model({ inputs = inp, outputs = out })
    local padded = model(tf.constant({ { 3, 1, 0, 0 } }))
    local short = L.LSTM(2)
    short(emb(tf.constant({ { 3, 1 } })))
    short:set_weights(model.layers[3]:get_weights())
    H.tensor_close(padded, tf.float32, { 1, 2 }, short(emb(tf.constant({ { 3, 1 } }))):numpy(), 1e-6)
  end)

  it("GlobalAveragePooling1D averages the unmasked steps only", function()
    local x = tf.constant({ { { 1.0 }, { 3.0 }, { 100.0 } } })
    H.tensor_close(L.GlobalAveragePooling1D()(x, { mask = tf.constant({ { true, true, false } }) }), tf.float32,
      { 1, 1 }, { { 2 } })
    local model = tf.keras.Sequential({ L.Masking(100.0), L.GlobalAveragePooling1D() })
    H.tensor_close(model(x), tf.float32, { 1, 1 }, { { 2 } })
  end)

  it("Dense passes the mask on; a return_sequences = false RNN ends it", function()
    local e = L.Embedding(4, 2, { mask_zero = true })
    local m = e:compute_mask(ids)
    assert.equal(m, L.Dense(2):compute_mask(tf.zeros({ 2, 4, 2 }), m))
    assert.is_nil(L.LSTM(2):compute_mask(tf.zeros({ 2, 4, 2 }), m))
    assert.equal(m, L.LSTM(2, { return_sequences = true }):compute_mask(tf.zeros({ 2, 4, 2 }), m))
  end)

  it("a bad mask is a typed error", function()
    H.raises("ValueError", "mask", function() L.SimpleRNN(1)(tf.ones({ 1, 4, 1 }), { mask = tf.constant({ { true } }) }) end)
  end)
end)

describe("a masked model in fit", function()
  it("trains through the traced step, padded steps masked", function()
    local model = tf.keras.Sequential({ L.Embedding(5, 3, { mask_zero = true }), L.GRU(2, { dropout = 0.2 }), L.Dense(1) })
    model:compile({ optimizer = tf.keras.optimizers.SGD(0.1, { clipnorm = 1.0 }), loss = "mse" })
    local x = tf.constant({ { 1, 2, 0, 0 }, { 3, 4, 1, 0 } })
    local history = model:fit(x, tf.constant({ { 1.0 }, { 0.0 } }), { epochs = 2, verbose = 0 })
    assert.equal(2, #history.history.loss)
    assert.truthy(history.history.loss[2] == history.history.loss[2], "a finite loss")
    H.tensor_close(model(tf.constant({ { 1, 2, 0, 0 } })), tf.float32, { 1, 1 }, model(tf.constant({ { 1, 2 } })):numpy(), 1e-6)
  end)
end)

describe("models' constructors reject unknown keywords", function()
  it("Sequential and Model raise Keras's TypeError for a key they do not take", function()
    H.raises("TypeError", "Keyword argument not understood: 'nam'",
      function() tf.keras.Sequential({ L.Dense(1) }, { nam = "x" }) end)
    H.raises("TypeError", "Keyword argument not understood: 'nam'", function() tf.keras.Sequential({ nam = "x" }) end)
    H.raises("TypeError", "Keyword argument not understood: 'bogus'", function() tf.keras.Model({ bogus = 1 }) end)
    assert.equal("seq", tf.keras.Sequential({ layers = { L.Dense(1) }, name = "seq" }).name)
    assert.equal(1, #tf.keras.Sequential({ layers = { L.Dense(1) } }).layers)
  end)
end)
