-- keras_parts: examples and errors for the reference (docs/reference.md and %help).
return {
  ["tf.keras.layers.Activation"] = {
    example = [[
print(tf.keras.layers.Activation("relu")(tf.constant({-1.0, 2.0})))
]],
    output = [[
tf.Tensor([0. 2.], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.layers.Activation("relux")]], type = "ValueError", message = "Unknown activation function: relux" },
    },
  },
  ["tf.keras.layers.Add"] = {
    example = [[
print(tf.keras.layers.Add()({tf.ones({1, 2}), tf.ones({1, 2})}))
]],
    output = [=[
tf.Tensor([[2. 2.]], shape=(1, 2), dtype=float32)
]=],
    errors = {
      { code = [[tf.keras.layers.Add()({tf.ones({2, 3}), tf.ones({2, 4})})]], type = "ValueError", message = "Inputs have incompatible shapes. Received shapes (3,) and (4,)" },
      { code = [[tf.keras.layers.Add()(tf.ones({2, 3}))]], type = "ValueError", message = "A merge layer should be called on a list of inputs" },
    },
  },
  ["tf.keras.layers.Concatenate"] = {
    example = [[
print(tf.keras.layers.Concatenate()({tf.zeros({2, 1}), tf.ones({2, 2})}))
]],
    output = [=[
tf.Tensor(
[[0. 1. 1.]
 [0. 1. 1.]], shape=(2, 3), dtype=float32)
]=],
    errors = {
      { code = [[tf.keras.layers.Concatenate()({tf.zeros({2, 2, 3}), tf.zeros({2, 3, 3})})]], type = "ValueError", message = "A `Concatenate` layer requires inputs with matching shapes except for the concatenation axis. Received: input_shape=[(2, 2, 3), (2, 3, 3)]" },
    },
  },
  ["tf.keras.layers.Conv1D"] = {
    example = [[
local conv = tf.keras.layers.Conv1D(1, 2, {kernel_initializer = "ones"})
print(conv(tf.reshape(tf.range(1.0, 5.0), {1, 4, 1})))
-- dilation_rate 2: the taps are two steps apart
local dilated = tf.keras.layers.Conv1D(1, 2, {dilation_rate = 2, kernel_initializer = "ones"})
print(tf.reshape(dilated(tf.reshape(tf.range(1.0, 5.0), {1, 4, 1})), {2}))
]],
    output = [=[
tf.Tensor(
[[[3.]
  [5.]
  [7.]]], shape=(1, 3, 1), dtype=float32)
tf.Tensor([4. 6.], shape=(2,), dtype=float32)
]=],
    errors = {
      { code = [[tf.keras.layers.Conv1D(0, 2)]], type = "ValueError", message = "Invalid value for argument `filters`. Expected a strictly positive value. Received filters=0." },
      { code = [[tf.keras.layers.Conv1D(1, 2)(tf.zeros({2, 3}))]], type = "ValueError", message = "expected min_ndim=3, found ndim=2" },
      { code = [[tf.keras.layers.Conv1D(1, 2, 2, {dilation_rate = 2})(tf.zeros({1, 6, 1}))]], type = "ValueError", message = "`strides > 1` not supported in conjunction with `dilation_rate > 1`. Received: strides=[2] and dilation_rate=[2]" },
      { code = [[tf.keras.layers.Conv1D(1, 2, {dilation_rate = 0})]], type = "ValueError", message = "The `dilation_rate` argument must be a tuple of 1 integers" },
    },
  },
  ["tf.keras.layers.GRU"] = {
    example = [[
local x = tf.reshape(tf.range(0.0, 1.2, 0.1), {2, 3, 2})
local gru = tf.keras.layers.GRU(4, {return_sequences = true})
print(gru(x).shape)
print(gru.bias.shape)
]],
    output = [[
(2, 3, 4)
(2, 12)
]],
    errors = {
      { code = [[tf.keras.layers.GRU(-2)]], type = "ValueError", message = "Received an invalid value for argument `units`" },
      { code = [[tf.keras.layers.GRU(2, {recurrent_dropout = "half"})]], type = "TypeError", message = "recurrent_dropout" },
    },
  },
  ["tf.keras.layers.GlobalAveragePooling1D"] = {
    example = [[
local x = tf.reshape(tf.range(1.0, 9.0), {1, 4, 2})
print(tf.keras.layers.GlobalAveragePooling1D()(x))
]],
    output = [=[
tf.Tensor([[4. 5.]], shape=(1, 2), dtype=float32)
]=],
    errors = {
      { code = [[tf.keras.layers.GlobalAveragePooling1D()(tf.zeros({2, 3}))]], type = "ValueError", message = "expected ndim=3" },
    },
  },
  ["tf.keras.layers.GlobalAveragePooling2D"] = {
    example = [[
local x = tf.reshape(tf.range(1.0, 9.0), {1, 2, 2, 2})
print(tf.keras.layers.GlobalAveragePooling2D()(x))
]],
    output = [=[
tf.Tensor([[4. 5.]], shape=(1, 2), dtype=float32)
]=],
    errors = {
      { code = [[tf.keras.layers.GlobalAveragePooling2D()(tf.zeros({2, 3, 4}))]], type = "ValueError", message = "expected ndim=4" },
    },
  },
  ["tf.keras.layers.GlobalAvgPool1D"] = {
    example = [[
local x = tf.reshape(tf.range(1.0, 9.0), {1, 4, 2})
print(tf.keras.layers.GlobalAvgPool1D()(x))
]],
    output = [=[
tf.Tensor([[4. 5.]], shape=(1, 2), dtype=float32)
]=],
    errors = {
      { code = [[tf.keras.layers.GlobalAvgPool1D()(tf.zeros({2, 3}))]], type = "ValueError", message = "expected ndim=3" },
    },
  },
  ["tf.keras.layers.GlobalAvgPool2D"] = {
    example = [[
local x = tf.reshape(tf.range(1.0, 9.0), {1, 2, 2, 2})
print(tf.keras.layers.GlobalAvgPool2D()(x))
]],
    output = [=[
tf.Tensor([[4. 5.]], shape=(1, 2), dtype=float32)
]=],
    errors = {
      { code = [[tf.keras.layers.GlobalAvgPool2D()(tf.zeros({2, 3, 4}))]], type = "ValueError", message = "expected ndim=4" },
    },
  },
  ["tf.keras.layers.GlobalMaxPool1D"] = {
    example = [[
local x = tf.reshape(tf.range(1.0, 9.0), {1, 4, 2})
print(tf.keras.layers.GlobalMaxPool1D()(x))
]],
    output = [=[
tf.Tensor([[7. 8.]], shape=(1, 2), dtype=float32)
]=],
    errors = {
      { code = [[tf.keras.layers.GlobalMaxPool1D()(tf.zeros({2, 3}))]], type = "ValueError", message = "expected ndim=3" },
    },
  },
  ["tf.keras.layers.GlobalMaxPool2D"] = {
    example = [[
local x = tf.reshape(tf.range(1.0, 9.0), {1, 2, 2, 2})
print(tf.keras.layers.GlobalMaxPool2D()(x))
]],
    output = [=[
tf.Tensor([[7. 8.]], shape=(1, 2), dtype=float32)
]=],
    errors = {
      { code = [[tf.keras.layers.GlobalMaxPool2D()(tf.zeros({2, 3, 4}))]], type = "ValueError", message = "expected ndim=4" },
    },
  },
  ["tf.keras.layers.GlobalMaxPooling1D"] = {
    example = [[
local x = tf.reshape(tf.range(1.0, 9.0), {1, 4, 2})
print(tf.keras.layers.GlobalMaxPooling1D()(x))
]],
    output = [=[
tf.Tensor([[7. 8.]], shape=(1, 2), dtype=float32)
]=],
    errors = {
      { code = [[tf.keras.layers.GlobalMaxPooling1D()(tf.zeros({2, 3}))]], type = "ValueError", message = "expected ndim=3" },
    },
  },
  ["tf.keras.layers.GlobalMaxPooling2D"] = {
    example = [[
local x = tf.reshape(tf.range(1.0, 9.0), {1, 2, 2, 2})
print(tf.keras.layers.GlobalMaxPooling2D()(x))
]],
    output = [=[
tf.Tensor([[7. 8.]], shape=(1, 2), dtype=float32)
]=],
    errors = {
      { code = [[tf.keras.layers.GlobalMaxPooling2D()(tf.zeros({2, 3, 4}))]], type = "ValueError", message = "expected ndim=4" },
    },
  },
  ["tf.keras.layers.LSTM"] = {
    example = [[
local x = tf.reshape(tf.range(0.0, 1.2, 0.1), {2, 3, 2})
local lstm = tf.keras.layers.LSTM(4, {return_state = true})
local out, h, c = lstm(x)
print(out.shape, h.shape, c.shape)
for _, v in ipairs(lstm:variables()) do print(v.name, v.shape) end
]],
    output = [[
(2, 4)	(2, 4)	(2, 4)
lstm/lstm_cell/kernel:0	(2, 16)
lstm/lstm_cell/recurrent_kernel:0	(4, 16)
lstm/lstm_cell/bias:0	(16,)
]],
    errors = {
      { code = [[tf.keras.layers.LSTM(2)(tf.zeros({1, 2, 3}), {initial_state = {tf.zeros({1, 2})}})]], type = "ValueError", message = "An `initial_state` was passed that is not compatible with `cell.state_size`" },
      { code = [[tf.keras.layers.LSTM(2, {return_sequence = true})]], type = "TypeError", message = "unexpected keyword argument 'return_sequence'" },
      { code = [[tf.keras.layers.LSTM(2, {dropout = "half"})]], type = "TypeError", message = "dropout" },
    },
  },
  ["tf.keras.layers.Masking"] = {
    example = [[
local x = tf.constant({{{1.0, 2.0}, {0.0, 0.0}, {3.0, 4.0}}})
local masking = tf.keras.layers.Masking(0.0)
print(masking:compute_mask(x))
-- a recurrent layer after it keeps its state over the masked step
local model = tf.keras.Sequential({masking, tf.keras.layers.SimpleRNN(1, {kernel_initializer = "ones",
  recurrent_initializer = "ones", use_bias = false, activation = "linear"})})
print(model(x))
]],
    output = [=[
tf.Tensor([[ True False  True]], shape=(1, 3), dtype=bool)
tf.Tensor([[10.]], shape=(1, 1), dtype=float32)
]=],
    errors = {
      { code = [[tf.keras.layers.Masking("zero")]], type = "TypeError", message = "mask_value must be a number" },
      { code = [[tf.keras.layers.SimpleRNN(1)(tf.ones({1, 3, 1}), {mask = tf.constant({{true}})})]], type = "ValueError", message = "the mask must be shaped (batch, timesteps)" },
    },
  },
  ["tf.keras.layers.ReLU"] = {
    example = [[
print(tf.keras.layers.ReLU(6)(tf.constant({-1.0, 2.0, 7.0})))
print(tf.keras.layers.ReLU({negative_slope = 0.5})(tf.constant({-1.0, 2.0})))
]],
    output = [[
tf.Tensor([0. 2. 6.], shape=(3,), dtype=float32)
tf.Tensor([-0.5  2. ], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.layers.ReLU(-1)]], type = "ValueError", message = "max_value of a ReLU layer cannot be a negative value. Received: -1" },
    },
  },
  ["tf.keras.layers.Reshape"] = {
    example = [[
print(tf.keras.layers.Reshape({3, -1})(tf.zeros({2, 6})).shape)
]],
    output = [[
(2, 3, 2)
]],
    errors = {
      { code = [[tf.keras.layers.Reshape({4})(tf.zeros({2, 6}))]], type = "ValueError", message = "total size of the new array must be unchanged, input_shape = [6], output_shape = [4]" },
      { code = [[tf.keras.layers.Reshape({-1, -1})]], type = "ValueError", message = "There must be at most one unknown dimension in output_shape" },
    },
  },
  ["tf.keras.layers.SimpleRNN"] = {
    example = [[
local x = tf.reshape(tf.range(0.0, 1.2, 0.1), {2, 3, 2})
local rnn = tf.keras.layers.SimpleRNN(4, {return_sequences = true, return_state = true})
local seq, h = rnn(x)
print(seq.shape, h.shape)
-- go_backwards: from the last step (the outputs in that order); dropout only in training
local back = tf.keras.layers.SimpleRNN(1, {go_backwards = true, return_sequences = true, activation = "linear",
  kernel_initializer = "ones", recurrent_initializer = "ones", use_bias = false, dropout = 0.5})
print(tf.reshape(back(tf.reshape(tf.constant({1.0, 2.0, 3.0}), {1, 3, 1})), {3}))
]],
    output = [[
(2, 3, 4)	(2, 4)
tf.Tensor([3. 5. 6.], shape=(3,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.layers.SimpleRNN(0)]], type = "ValueError", message = "Received an invalid value for argument `units`, expected a positive integer, got 0" },
      { code = [[tf.keras.layers.SimpleRNN(2)(tf.zeros({2, 3}))]], type = "ValueError", message = "expected ndim=3, found ndim=2" },
      { code = [[tf.keras.layers.SimpleRNN(2, {go_backwards = 1})]], type = "TypeError", message = "go_backwards" },
    },
  },
  ["tf.keras.layers.Softmax"] = {
    example = [[
print(tf.keras.layers.Softmax()(tf.constant({{1.0, 2.0}})))
]],
    output = [=[
tf.Tensor([[0.26894143 0.7310586 ]], shape=(1, 2), dtype=float32)
]=],
    errors = {
      { code = [[tf.keras.layers.Softmax(0.5)]], type = "TypeError", message = "axis must be an integer" },
    },
  },
}
