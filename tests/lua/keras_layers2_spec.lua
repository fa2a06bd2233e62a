-- keras_layers2_spec.lua — the Keras layers of layers_core.lua and
-- layers_rnn.lua: Activation, ReLU, Softmax, Reshape, Concatenate, Add,
-- Conv1D, the global poolings, and SimpleRNN / LSTM / GRU against
-- torch.nn.RNN / LSTM / GRU (keras_parts_ref.lua) with the weights mapped;
-- eagerly, traced (one While op for the time loop) and under a tape;
-- Keras's errors.

local tf = tf or require("moonflow")
local H = require("helpers")
local REF = require("keras_parts_ref").rnn
local L = tf.keras.layers

local function ramp(sizes)
  local n = 1
  for _, d in ipairs(sizes) do n = n * d end
  return tf.reshape(tf.range(1, n + 1, 1, tf.float32), sizes)
end

describe("activation layers", function()
  it("Activation takes a name or a function; an unknown name is a ValueError", function()
    H.tensor(L.Activation("relu")(tf.constant({ -1.0, 2.0 })), tf.float32, { 2 }, { 0, 2 })
    H.tensor(L.Activation(function(x) return x * 2 end)(tf.constant({ 1.5 })), tf.float32, { 1 }, { 3 })
    H.raises("ValueError", "Unknown activation function: relux", function() return L.Activation("relux") end)
  end)
  it("ReLU as Keras's backend.relu: max_value, negative_slope, threshold", function()
    local x = tf.constant({ -3.0, -1.0, 0.5, 2.0, 7.0 })
    H.tensor(L.ReLU()(x), tf.float32, { 5 }, { 0, 0, 0.5, 2, 7 })
    H.tensor(L.ReLU(6)(x), tf.float32, { 5 }, { 0, 0, 0.5, 2, 6 })
    H.tensor_close(L.ReLU({ negative_slope = 0.5 })(x), tf.float32, { 5 }, { -1.5, -0.5, 0.5, 2, 7 })
    H.tensor_close(L.ReLU(5, 0.5, 1.0)(x), tf.float32, { 5 }, { -2, -1, -0.25, 2, 5 })
    H.raises("ValueError", "max_value of a ReLU layer cannot be a negative value. Received: -1",
      function() return L.ReLU(-1) end)
    tf.keras.backend.clear_session() -- Keras numbers layer names per session
    assert.are.equal("re_lu", L.ReLU().name)
  end)
  it("Softmax over an axis", function()
    H.tensor_close(L.Softmax()(tf.constant({ { 0.0, math.log(3) } })), tf.float32, { 1, 2 }, { { 0.25, 0.75 } })
    H.tensor_close(L.Softmax(0)(tf.constant({ { 0.0 }, { math.log(3) } })), tf.float32, { 2, 1 }, { { 0.25 }, { 0.75 } })
  end)
end)

describe("Reshape", function()
  it("keeps the batch and works out one -1", function()
    H.tensor(L.Reshape({ 3, -1 })(ramp({ 2, 6 })), tf.float32, { 2, 3, 2 })
    H.tensor(L.Reshape({ 6 })(ramp({ 1, 2, 3 })), tf.float32, { 1, 6 }, { { 1, 2, 3, 4, 5, 6 } })
  end)
  it("works on a batch of unknown size when traced", function()
    local f = tf.func(function(x) return L.Reshape({ 2, 2 })(x) end,
      { input_signature = { tf.TensorSpec({ tf.None, 4 }, tf.float32) } })
    H.tensor(f(ramp({ 3, 4 })), tf.float32, { 3, 2, 2 })
  end)
  it("refuses a size that does not fit and two unknown dimensions, as Keras", function()
    H.raises("ValueError", "total size of the new array must be unchanged, input_shape = [6], output_shape = [4]",
      function() return L.Reshape({ 4 })(ramp({ 2, 6 })) end)
    H.raises("ValueError", "There must be at most one unknown dimension in output_shape",
      function() return L.Reshape({ -1, -1 }) end)
  end)
end)

describe("merging layers", function()
  it("Concatenate along an axis", function()
    H.tensor(L.Concatenate()({ tf.zeros({ 2, 1 }), tf.ones({ 2, 2 }) }), tf.float32, { 2, 3 }, { { 0, 1, 1 }, { 0, 1, 1 } })
    H.tensor(L.Concatenate(0)({ tf.zeros({ 1, 2 }), tf.ones({ 2, 2 }) }), tf.float32, { 3, 2 })
    H.raises("ValueError", "A `Concatenate` layer requires inputs with matching shapes except for the concatenation "
      .. "axis. Received: input_shape=[(2, 2, 3), (2, 3, 3)]",
      function() return L.Concatenate()({ tf.zeros({ 2, 2, 3 }), tf.zeros({ 2, 3, 3 }) }) end)
  end)
  it("Add sums a list; shapes must agree but for ones", function()
    H.tensor(L.Add()({ tf.ones({ 2, 2 }), tf.ones({ 2, 2 }), tf.ones({ 2, 1 }) }), tf.float32, { 2, 2 }, { { 3, 3 }, { 3, 3 } })
    H.raises("ValueError", "Inputs have incompatible shapes. Received shapes (3,) and (4,)",
      function() return L.Add()({ tf.ones({ 2, 3 }), tf.ones({ 2, 4 }) }) end)
    H.raises("ValueError", "A merge layer should be called on a list of inputs",
      function() return L.Add()(tf.ones({ 2, 3 })) end)
  end)
  it("are differentiable", function()
    local a, b = tf.Variable({ { 1.0, 2.0 } }), tf.Variable({ { 3.0 } })
    local tape = tf.GradientTape({ persistent = true })
    local y = tf.reduce_sum(L.Concatenate()({ a, b }) * tf.constant({ { 1.0, 2.0, 3.0 } }))
    local z = tf.reduce_sum(L.Add()({ a, a }))
    tape:stop()
    H.close({ { 1, 2 } }, tape:gradient(y, a))
    H.close({ { 3 } }, tape:gradient(y, b))
    H.close({ { 2, 2 } }, tape:gradient(z, a))
  end)
end)

describe("Conv1D", function()
  it("convolves over steps: valid, same and causal padding, strides", function()
    local x = ramp({ 1, 4, 1 })
    local valid = L.Conv1D(1, 2, { kernel_initializer = "ones" })
    H.tensor(valid(x), tf.float32, { 1, 3, 1 }, { { { 3 }, { 5 }, { 7 } } })
    local same = L.Conv1D(1, 3, 1, "same", { kernel_initializer = "ones", bias_initializer = "ones" })
    H.tensor(same(x), tf.float32, { 1, 4, 1 }, { { { 4 }, { 7 }, { 10 }, { 8 } } })
    local causal = L.Conv1D(1, 2, nil, "causal", { kernel_initializer = "ones" })
    H.tensor(causal(x), tf.float32, { 1, 4, 1 }, { { { 1 }, { 3 }, { 5 }, { 7 } } })
    local strided = L.Conv1D(1, 2, 2, { kernel_initializer = "ones" })
    H.tensor(strided(x), tf.float32, { 1, 2, 1 }, { { { 3 }, { 7 } } })
    assert.are.same({ 2, 1, 1 }, valid.kernel.shape:as_list())
    assert.are.same({ "conv1d/kernel:0", "conv1d/bias:0" },
      { valid:variables()[1].name:gsub("conv1d_%d+", "conv1d"), (valid:variables()[2].name:gsub("conv1d_%d+", "conv1d")) })
  end)
  it("matches a Dense layer applied at each step when the kernel is 1 wide, traced and under a tape", function()
    local c = L.Conv1D(3, 1)
    local x = ramp({ 2, 5, 4 }) / 10
    local f = tf.func(function(t) return c(t) end)
    local y = f(x)
    local want = tf.matmul(tf.reshape(x, { 10, 4 }), tf.reshape(c.kernel, { 4, 3 })) + c.bias
    H.close(tf.reshape(want, { 2, 5, 3 }):numpy(), y, 1e-5)
    local tape = tf.GradientTape()
    local s = tf.reduce_sum(c(x))
    tape:stop()
    -- d sum / d kernel[0][i][f] is the sum of channel i over the batch and the steps
    local want = tf.reduce_sum(tf.reshape(x, { 10, 4 }), 0):numpy()
    local gk = tape:gradient(s, c.kernel):numpy()[1]
    for i = 1, 4 do
      for f = 1, 3 do H.close(want[i], gk[i][f], 1e-5) end
    end
  end)
  it("raises Keras's errors", function()
    H.raises("ValueError", "Invalid value for argument `filters`. Expected a strictly positive value",
      function() return L.Conv1D(0, 2) end)
    H.raises("ValueError", 'The `padding` argument must be a list/tuple or one of "valid", "same" (or "causal"',
      function() return L.Conv1D(1, 2, 1, "full") end)
    H.raises("ValueError", "expected min_ndim=3, found ndim=2. Full shape received: (2, 3)",
      function() return L.Conv1D(1, 2)(tf.zeros({ 2, 3 })) end)
  end)
end)

describe("global pooling", function()
  it("averages or takes the maximum over the spatial or step axes", function()
    local x = ramp({ 1, 2, 2, 2 })
    H.tensor(L.GlobalAveragePooling2D()(x), tf.float32, { 1, 2 }, { { 4, 5 } })
    H.tensor(L.GlobalAveragePooling2D({ keepdims = true })(x), tf.float32, { 1, 1, 1, 2 }, { { { { 4, 5 } } } })
    H.tensor(L.GlobalMaxPooling2D()(x), tf.float32, { 1, 2 }, { { 7, 8 } })
    H.tensor(L.GlobalAveragePooling1D()(ramp({ 1, 3, 2 })), tf.float32, { 1, 2 }, { { 3, 4 } })
    H.tensor(L.GlobalMaxPooling1D()(ramp({ 1, 3, 2 })), tf.float32, { 1, 2 }, { { 5, 6 } })
  end)
  it("checks the input's rank as Keras's input_spec", function()
    tf.keras.backend.clear_session() -- Keras numbers layer names per session
    H.raises("ValueError", 'Input 0 of layer "global_average_pooling2d" is incompatible with the layer: expected '
      .. "ndim=4, found ndim=3. Full shape received: (2, 3, 4)",
      function() return L.GlobalAveragePooling2D()(tf.zeros({ 2, 3, 4 })) end)
  end)
end)

describe("the layers together", function()
  it("give the same values and gradients eagerly and traced", function()
    tf.random.set_seed(3)
    local conv = L.Conv1D(3, 2, 1, "same", { activation = "tanh" })
    local layers = {
      L.Reshape({ 4, 2 }), conv, L.ReLU({ negative_slope = 0.1 }), L.Softmax(),
      L.GlobalAveragePooling1D(), L.Activation("sigmoid"),
    }
    local function model(x)
      for _, l in ipairs(layers) do x = l(x) end
      local pooled = L.GlobalMaxPooling1D()(L.Reshape({ 3, 1 })(x))
      return L.Add()({ L.Concatenate()({ x, pooled }), tf.ones({ 1, 4 }) })
    end
    local function with_grads(x)
      local tape = tf.GradientTape()
      local y = model(x)
      local loss = tf.reduce_sum(y * tf.constant({ { 1.0, -2.0, 0.5, 3.0 } }))
      tape:stop()
      local g = tape:gradient(loss, { conv.kernel, conv.bias })
      return y, g[1], g[2]
    end
    local x = ramp({ 2, 8 }) / 10
    local eager = table.pack(with_grads(x))
    local traced = table.pack(tf.func(with_grads)(x))
    H.tensor(eager[1], tf.float32, { 2, 4 })
    for i = 1, 3 do H.close(eager[i]:numpy(), traced[i], 1e-5) end
    assert.is_true(tf.reduce_max(tf.abs(eager[2])):numpy() > 0)
  end)
end)

-- Recurrent layers ------------------------------------------------------------------
local X = tf.constant(REF.x, tf.float32)

local function with_weights(layer, w)
  layer(X)
  layer.kernel:assign(w.kernel)
  layer.recurrent_kernel:assign(w.recurrent_kernel)
  layer.bias:assign(w.bias)
  return layer
end

local function count_ops(cf, kind)
  local n = 0
  for _, t in ipairs(H.op_types(cf)) do if t == kind then n = n + 1 end end
  return n
end

describe("recurrent layers against torch", function()
  local cases = {
    { "SimpleRNN", L.SimpleRNN, REF.simple, 1 },
    { "LSTM", L.LSTM, REF.lstm, 2 },
    { "GRU", L.GRU, REF.gru, 1 },
  }
  for _, case in ipairs(cases) do
    local name, class, ref, nstates = case[1], case[2], case[3], case[4]
    it(name .. ": every step's output and the final state, eagerly", function()
      local layer = with_weights(class(2, { return_sequences = true, return_state = true }), ref)
      local results = table.pack(layer(X))
      assert.are.equal(1 + nstates, results.n)
      H.tensor_close(results[1], tf.float32, { 2, 4, 2 }, ref.sequences, 1e-5)
      H.tensor_close(results[2], tf.float32, { 2, 2 }, ref.h, 1e-5)
      if nstates == 2 then H.tensor_close(results[3], tf.float32, { 2, 2 }, ref.c, 1e-5) end
      -- without return_sequences: the last output only
      local last = with_weights(class(2), ref)(X)
      H.tensor_close(last, tf.float32, { 2, 2 }, ref.h, 1e-5)
    end)
    it(name .. ": traced, the time loop is one While op, and a batch of unknown size works", function()
      local layer = with_weights(class(2, { return_sequences = true }), ref)
      local f = tf.func(function(x) return layer(x) end,
        { input_signature = { tf.TensorSpec({ tf.None, 4, 3 }, tf.float32) } })
      H.tensor_close(f(X), tf.float32, { 2, 4, 2 }, ref.sequences, 1e-5)
      local cf = f:get_concrete_function()
      assert.are.equal(1, count_ops(cf, "While") + count_ops(cf, "StatelessWhile"))
      assert.are.equal(0, count_ops(cf, "Tanh") + count_ops(cf, "Sigmoid"), "the step is in the loop's body")
    end)
    it(name .. ": gradients under a tape agree eagerly and traced", function()
      local layer = with_weights(class(2), ref)
      local function grads(x)
        local tape = tf.GradientTape()
        local loss = tf.reduce_sum(tf.square(layer(x)))
        tape:stop()
        return tape:gradient(loss, { layer.kernel, layer.recurrent_kernel, layer.bias })
      end
      local eager = grads(X)
      local traced = table.pack(tf.func(function(x) return table.unpack(grads(x)) end)(X))
      for i = 1, 3 do
        H.close(eager[i]:numpy(), traced[i], 1e-5)
        assert.is_true(tf.reduce_max(tf.abs(eager[i])):numpy() > 0)
      end
      -- against a finite difference on one kernel entry
      local k = layer.kernel:numpy()
      local function loss_at(delta)
        local kk = layer.kernel:numpy()
        kk[1][1] = k[1][1] + delta
        layer.kernel:assign(kk)
        local l = tf.reduce_sum(tf.square(layer(X))):numpy()
        layer.kernel:assign(k)
        return l
      end
      local fd = (loss_at(1e-2) - loss_at(-1e-2)) / 2e-2
      H.close(fd, eager[1]:numpy()[1][1], 2e-3)
    end)
  end
end)

describe("recurrent layer options", function()
  it("name their weights as Keras, in Keras's order", function()
    local names = {}
    local l = L.LSTM(3, { name = "enc" })
    l(tf.zeros({ 1, 2, 5 }))
    for i, v in ipairs(l:variables()) do names[i] = v.name .. " " .. tostring(v.shape) end
    assert.are.same({ "enc/lstm_cell/kernel:0 (5, 12)", "enc/lstm_cell/recurrent_kernel:0 (3, 12)",
      "enc/lstm_cell/bias:0 (12,)" }, names)
    local g = L.GRU(3)
    g(tf.zeros({ 1, 2, 5 }))
    assert.are.same({ 2, 9 }, g.bias.shape:as_list())
    local g2 = L.GRU(3, { reset_after = false })
    H.tensor(g2(tf.zeros({ 1, 2, 5 })), tf.float32, { 1, 3 })
    assert.are.same({ 9 }, g2.bias.shape:as_list())
  end)
  it("LSTM's forget-gate bias starts at one (unit_forget_bias), the recurrent kernel orthogonal", function()
    local l = L.LSTM(2)
    l(tf.zeros({ 1, 1, 3 }))
    H.tensor(l.bias, tf.float32, { 8 }, { 0, 0, 1, 1, 0, 0, 0, 0 })
    local u = tf.reshape(l.recurrent_kernel, { 2, 8 })
    H.close({ { 1, 0 }, { 0, 1 } }, tf.matmul(u, u, { transpose_b = true }), 1e-5)
    local l2 = L.LSTM(2, { unit_forget_bias = false })
    l2(tf.zeros({ 1, 1, 3 }))
    H.tensor(l2.bias, tf.float32, { 8 }, { 0, 0, 0, 0, 0, 0, 0, 0 })
  end)
  it("take an initial state", function()
    local s = with_weights(L.SimpleRNN(2), REF.simple)
    local h0 = tf.constant({ { 0.5, -0.5 }, { 0.1, 0.2 } })
    local y = s(X, { initial_state = { h0 } })
    local function step(t, i) return tf.transpose(t, { 1, 0, 2 })[i] end
    local x0 = step(X, 0)
    -- one step by hand: tanh(x_0 W + h0 U + b) is the first output
    local seq = with_weights(L.SimpleRNN(2, { return_sequences = true }), REF.simple)(X, { initial_state = h0 })
    H.close(tf.tanh(tf.matmul(x0, s.kernel) + tf.matmul(h0, s.recurrent_kernel) + s.bias):numpy(),
      step(seq, 0), 1e-5)
    H.close(step(seq, 3):numpy(), y, 1e-6)
    H.raises("ValueError", "An `initial_state` was passed that is not compatible with `cell.state_size`",
      function() return L.LSTM(2)(X, { initial_state = { h0 } }) end)
  end)
  it("raise Keras's errors for bad units and inputs", function()
    H.raises("ValueError", "Received an invalid value for argument `units`, expected a positive integer, got 0",
      function() return L.LSTM(0) end)
    H.raises("ValueError", "expected ndim=3, found ndim=2", function() return L.GRU(2)(tf.zeros({ 2, 3 })) end)
    H.raises("TypeError", "unexpected keyword argument 'return_sequence'",
      function() return L.SimpleRNN(2, { return_sequence = true }) end)
    -- (session 10: the recurrent layers take a mask; one not shaped (batch, timesteps) is Keras's ValueError)
    H.raises("ValueError", "the mask must be shaped (batch, timesteps)", function() return L.SimpleRNN(2)(X, { mask = 1 }) end)
    H.raises("TypeError", "tf.keras.layers.LSTM: argument 'return_sequences' must be a boolean, got a number",
      function() return L.LSTM(2, { return_sequences = 1 }) end)
  end)
end)
