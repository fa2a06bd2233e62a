-- nn: examples and errors for the reference (docs/reference.md and %help).
return {
  ["tf.nn.avg_pool"] = {
    example = [[
local x = tf.reshape(tf.range(1.0, 17.0), {1, 4, 4, 1})
print(tf.nn.avg_pool(x, 2, 2, "VALID"))
]],
    output = [=[
tf.Tensor(
[[[[ 3.5]
   [ 5.5]]

  [[11.5]
   [13.5]]]], shape=(1, 2, 2, 1), dtype=float32)
]=],
    errors = {
      { code = [[tf.nn.avg_pool(tf.ones({4, 4}), 2, 2, "VALID")]], type = "InvalidArgumentError", message = "input must be 4-dimensional, got shape [4,4]" },
      { code = [[tf.nn.avg_pool(tf.ones({1, 4, 4, 1}), 2, 2, "SOME")]], type = "InvalidArgumentError", message = "Value for attr 'padding' of \"SOME\" is not in the list of allowed values: \"SAME\", \"VALID\"" },
    },
  },
  ["tf.nn.avg_pool2d"] = {
    example = [[
local x = tf.reshape(tf.range(1.0, 17.0), {1, 4, 4, 1})
print(tf.nn.avg_pool2d(x, 2, 2, "VALID"))
]],
    output = [=[
tf.Tensor(
[[[[ 3.5]
   [ 5.5]]

  [[11.5]
   [13.5]]]], shape=(1, 2, 2, 1), dtype=float32)
]=],
    errors = {
      { code = [[tf.nn.avg_pool2d(tf.ones({4, 4}), 2, 2, "VALID")]], type = "InvalidArgumentError", message = "input must be 4-dimensional, got shape [4,4]" },
      { code = [[tf.nn.avg_pool2d(tf.ones({1, 4, 4, 1}), 2, 2, "SOME")]], type = "InvalidArgumentError", message = "Value for attr 'padding' of \"SOME\" is not in the list of allowed values: \"SAME\", \"VALID\"" },
    },
  },
  ["tf.nn.bias_add"] = {
    example = [[
print(tf.nn.bias_add(tf.constant({{1.0, 2.0}, {3.0, 4.0}}), tf.constant({10.0, 20.0})))
]],
    output = [=[
tf.Tensor(
[[11. 22.]
 [13. 24.]], shape=(2, 2), dtype=float32)
]=],
    errors = {
      { code = [[tf.nn.bias_add(tf.constant({{1.0, 2.0}}), tf.constant({1.0, 2.0, 3.0}))]], type = "InvalidArgumentError", message = "Must provide as many biases as the last dimension of the input tensor: [3] vs. [1,2]" },
    },
  },
  ["tf.nn.conv2d"] = {
    example = [[
local x = tf.reshape(tf.range(1.0, 17.0), {1, 4, 4, 1})
local k = tf.ones({2, 2, 1, 1})
print(tf.nn.conv2d(x, k, 2, "VALID"))
]],
    output = [=[
tf.Tensor(
[[[[14.]
   [22.]]

  [[46.]
   [54.]]]], shape=(1, 2, 2, 1), dtype=float32)
]=],
    errors = {
      { code = [[tf.nn.conv2d(tf.ones({1, 4, 4, 2}), tf.ones({2, 2, 3, 1}), 1, "VALID")]], type = "InvalidArgumentError", message = "input depth must be evenly divisible by filter depth: 2 vs 3" },
      { code = [[tf.nn.conv2d(tf.ones({4, 4}), tf.ones({2, 2, 1, 1}), 1, "VALID")]], type = "InvalidArgumentError", message = "input must be 4-dimensional[4,4]" },
    },
  },
  ["tf.nn.conv2d_transpose"] = {
    example = [[
local x = tf.ones({1, 2, 2, 1})
local k = tf.ones({2, 2, 1, 1})
print(tf.reshape(tf.nn.conv2d_transpose(x, k, {1, 4, 4, 1}, 2), {4, 4}))
]],
    output = [=[
tf.Tensor(
[[1. 1. 1. 1.]
 [1. 1. 1. 1.]
 [1. 1. 1. 1.]
 [1. 1. 1. 1.]], shape=(4, 4), dtype=float32)
]=],
    errors = {
      { code = [[tf.nn.conv2d_transpose(tf.ones({1, 2, 2, 1}), tf.ones({2, 2, 1, 1}), {1, 5, 5, 1}, 2)]], type = "InvalidArgumentError", message = "Conv2DBackpropInput: Size of out_backprop doesn't match computed: actual = 2, computed = 3" },
    },
  },
  ["tf.nn.depthwise_conv2d"] = {
    example = [[
local x = tf.reshape(tf.range(1.0, 9.0), {1, 2, 2, 2})
local k = tf.ones({1, 1, 2, 2})
print(tf.nn.depthwise_conv2d(x, k, {1, 1, 1, 1}, "VALID").shape)
]],
    output = [[
(1, 2, 2, 4)
]],
    errors = {
      { code = [[tf.nn.depthwise_conv2d(tf.ones({1, 2, 2, 2}), tf.ones({1, 1, 3, 1}), {1, 1, 1, 1}, "VALID")]], type = "InvalidArgumentError", message = "DepthwiseConv2dNative: input and filter must have the same depth: 2 vs 3" },
    },
  },
  ["tf.nn.dropout"] = {
    example = [[
print(tf.nn.dropout(tf.ones({4}), 0.0))
]],
    output = [[
tf.Tensor([1. 1. 1. 1.], shape=(4,), dtype=float32)
]],
    errors = {
      { code = [[tf.nn.dropout(tf.ones({4}), 1.5)]], type = "ValueError", message = "`rate` must be a scalar tensor or a float in the range [0, 1). Received: rate=1.5" },
      { code = [[tf.nn.dropout(tf.constant({1, 2}), 0.5)]], type = "ValueError", message = "`x.dtype` must be a floating point tensor as `x` will be scaled." },
    },
  },
  ["tf.nn.elu"] = {
    example = [[
print(tf.nn.elu(tf.constant({-1.0, 0.0, 2.0})))
]],
    output = [[
tf.Tensor([-0.63212055  0.          2.        ], shape=(3,), dtype=float32)
]],
    errors = {
      { code = [[tf.nn.elu(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Elu expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.nn.embedding_lookup"] = {
    example = [[
local params = tf.constant({{1.0, 2.0}, {3.0, 4.0}, {5.0, 6.0}})
print(tf.nn.embedding_lookup(params, tf.constant({2, 0})))
]],
    output = [=[
tf.Tensor(
[[5. 6.]
 [1. 2.]], shape=(2, 2), dtype=float32)
]=],
    errors = {
      { code = [[tf.nn.embedding_lookup(tf.constant({{1.0}, {2.0}}), tf.constant({5}))]], type = "InvalidArgumentError", message = "indices[0] = 5 is not in [0, 2)" },
      { code = [[tf.nn.embedding_lookup(tf.constant({{1.0}, {2.0}}), tf.constant({0.5}))]], type = "TypeError", message = "Value passed to parameter 'indices' has DataType float32 not in list of allowed values: int16," },
    },
  },
  ["tf.nn.gelu"] = {
    example = [[
print(tf.nn.gelu(tf.constant({0.0, 1.0})))
]],
    output = [[
tf.Tensor([0.        0.8413447], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.nn.gelu(tf.constant({1, 2}))]], type = "ValueError", message = "`features.dtype` must be a floating point tensor.Received:features.dtype=<dtype: 'int32'>" },
    },
  },
  ["tf.nn.l2_normalize"] = {
    example = [[
print(tf.nn.l2_normalize(tf.constant({3.0, 4.0})))
]],
    output = [[
tf.Tensor([0.6 0.8], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.nn.l2_normalize(tf.constant({3, 4}))]], type = "TypeError", message = "Cannot convert 1e-12 to EagerTensor of dtype int32" },
    },
  },
  ["tf.nn.leaky_relu"] = {
    example = [[
print(tf.nn.leaky_relu(tf.constant({-2.0, 0.0, 2.0}), 0.5))
]],
    output = [[
tf.Tensor([-1.  0.  2.], shape=(3,), dtype=float32)
]],
    errors = {
      { code = [[tf.nn.leaky_relu(tf.constant({"a"}))]], type = "InvalidArgumentError", message = "LeakyRelu expects a float32 or float64 tensor for input #0(zero-based), got string" },
    },
  },
  ["tf.nn.log_softmax"] = {
    example = [[
print(tf.nn.log_softmax(tf.constant({0.0, 0.0})))
]],
    output = [[
tf.Tensor([-0.6931472 -0.6931472], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.nn.log_softmax(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "LogSoftmax expects a float tensor for input #0(zero-based), got int32" },
      { code = [[tf.nn.log_softmax(tf.constant({1.0, 2.0}), 3)]], type = "InvalidArgumentError", message = "`dim` must be in the range [-1, 1) where 1 is the number of dimensions in the input. Received: dim=3" },
    },
  },
  ["tf.nn.max_pool"] = {
    example = [[
local x = tf.reshape(tf.range(1.0, 17.0), {1, 4, 4, 1})
print(tf.nn.max_pool(x, 2, 2, "VALID"))
]],
    output = [=[
tf.Tensor(
[[[[ 6.]
   [ 8.]]

  [[14.]
   [16.]]]], shape=(1, 2, 2, 1), dtype=float32)
]=],
    errors = {
      { code = [[tf.nn.max_pool(tf.ones({4, 4}), 2, 2, "VALID")]], type = "InvalidArgumentError", message = "input must be 4-dimensional, got shape [4,4]" },
      { code = [[tf.nn.max_pool(tf.ones({1, 4, 4, 1}), 2, 2, "SOME")]], type = "InvalidArgumentError", message = "Value for attr 'padding' of \"SOME\" is not in the list of allowed values: \"SAME\", \"VALID\"" },
    },
  },
  ["tf.nn.max_pool2d"] = {
    example = [[
local x = tf.reshape(tf.range(1.0, 17.0), {1, 4, 4, 1})
print(tf.nn.max_pool2d(x, 2, 2, "VALID"))
]],
    output = [=[
tf.Tensor(
[[[[ 6.]
   [ 8.]]

  [[14.]
   [16.]]]], shape=(1, 2, 2, 1), dtype=float32)
]=],
    errors = {
      { code = [[tf.nn.max_pool2d(tf.ones({4, 4}), 2, 2, "VALID")]], type = "InvalidArgumentError", message = "input must be 4-dimensional, got shape [4,4]" },
      { code = [[tf.nn.max_pool2d(tf.ones({1, 4, 4, 1}), 2, 2, "SOME")]], type = "InvalidArgumentError", message = "Value for attr 'padding' of \"SOME\" is not in the list of allowed values: \"SAME\", \"VALID\"" },
    },
  },
  ["tf.nn.moments"] = {
    example = [[
local mean, variance = tf.nn.moments(tf.constant({1.0, 2.0, 3.0, 4.0}), {0})
print(mean)
print(variance)
]],
    output = [[
tf.Tensor(2.5, shape=(), dtype=float32)
tf.Tensor(1.25, shape=(), dtype=float32)
]],
    errors = {
      { code = [[tf.nn.moments(tf.constant({1.0, 2.0}), {1})]], type = "InvalidArgumentError", message = "Invalid reduction dimension (1 for input with 1 dimension(s)" },
    },
  },
  ["tf.nn.relu"] = {
    example = [[
print(tf.nn.relu(tf.constant({-1.0, 0.0, 2.0})))
]],
    output = [[
tf.Tensor([0. 0. 2.], shape=(3,), dtype=float32)
]],
    errors = {
      { code = [[tf.nn.relu(tf.constant({"a"}))]], type = "InvalidArgumentError", message = "Relu expects a float32, float64, int32 or int64 tensor for input #0(zero-based), got string" },
    },
  },
  ["tf.nn.relu6"] = {
    example = [[
print(tf.nn.relu6(tf.constant({-1.0, 3.0, 8.0})))
]],
    output = [[
tf.Tensor([0. 3. 6.], shape=(3,), dtype=float32)
]],
    errors = {
      { code = [[tf.nn.relu6(tf.constant({"a"}))]], type = "InvalidArgumentError", message = "Relu6 expects a float32, float64, int32 or int64 tensor for input #0(zero-based), got string" },
    },
  },
  ["tf.nn.selu"] = {
    example = [[
print(tf.nn.selu(tf.constant({-1.0, 0.0, 1.0})))
]],
    output = [[
tf.Tensor([-1.1113307  0.         1.050701 ], shape=(3,), dtype=float32)
]],
    errors = {
      { code = [[tf.nn.selu(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Selu expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.nn.sigmoid"] = {
    example = [[
print(tf.nn.sigmoid(tf.constant({-1.0, 0.0, 1.0})))
]],
    output = [[
tf.Tensor([0.26894143 0.5        0.7310586 ], shape=(3,), dtype=float32)
]],
    errors = {
      { code = [[tf.nn.sigmoid(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Sigmoid expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.nn.silu"] = {
    example = [[
print(tf.nn.silu(tf.constant({-1.0, 0.0, 1.0})))
]],
    output = [[
tf.Tensor([-0.26894143  0.          0.7310586 ], shape=(3,), dtype=float32)
]],
    errors = {
      { code = [[tf.nn.silu(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Sigmoid expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.nn.softmax"] = {
    example = [[
print(tf.nn.softmax(tf.constant({1.0, 1.0, 2.0})))
]],
    output = [[
tf.Tensor([0.21194156 0.21194156 0.57611686], shape=(3,), dtype=float32)
]],
    errors = {
      { code = [[tf.nn.softmax(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Softmax expects a float tensor for input #0(zero-based), got int32" },
      { code = [[tf.nn.softmax(tf.constant({1.0, 2.0}), 2)]], type = "InvalidArgumentError", message = "`dim` must be in the range [-1, 1) where 1 is the number of dimensions in the input. Received: dim=2" },
    },
  },
  ["tf.nn.softmax_cross_entropy_with_logits"] = {
    example = [[
local labels = tf.constant({{0.0, 1.0}, {1.0, 0.0}})
local logits = tf.constant({{0.0, 0.0}, {0.0, 0.0}})
print(tf.nn.softmax_cross_entropy_with_logits(labels, logits))
]],
    output = [[
tf.Tensor([0.6931472 0.6931472], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.nn.softmax_cross_entropy_with_logits(tf.constant({{0.0, 1.0}}), tf.constant({{0.0, 0.0, 0.0}}))]], type = "InvalidArgumentError", message = "logits and labels must be broadcastable: logits_size=[1,3] labels_size=[1,2]" },
    },
  },
  ["tf.nn.softplus"] = {
    example = [[
print(tf.nn.softplus(tf.constant({0.0, 1.0})))
]],
    output = [[
tf.Tensor([0.6931472 1.3132616], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.nn.softplus(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Softplus expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.nn.softsign"] = {
    example = [[
print(tf.nn.softsign(tf.constant({-1.0, 0.0, 3.0})))
]],
    output = [[
tf.Tensor([-0.5   0.    0.75], shape=(3,), dtype=float32)
]],
    errors = {
      { code = [[tf.nn.softsign(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Softsign expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.nn.sparse_softmax_cross_entropy_with_logits"] = {
    example = [[
local logits = tf.constant({{0.0, 0.0}, {0.0, 0.0}})
print(tf.nn.sparse_softmax_cross_entropy_with_logits(tf.constant({1, 0}), logits))
]],
    output = [[
tf.Tensor([0.6931472 0.6931472], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.nn.sparse_softmax_cross_entropy_with_logits(tf.constant({2}), tf.constant({{0.0, 0.0}}))]], type = "InvalidArgumentError", message = "Received a label value of 2 which is outside the valid range of [0, 2).  Label values: 2" },
      { code = [[tf.nn.sparse_softmax_cross_entropy_with_logits(tf.constant({0, 1}), tf.constant({{0.0, 0.0}}))]], type = "ValueError", message = "`labels.shape` must equal `logits.shape` except for the last dimension. Received: labels.shape=(2,)" },
    },
  },
  ["tf.nn.swish"] = {
    example = [[
print(tf.nn.swish(tf.constant({-1.0, 0.0, 1.0})))
]],
    output = [[
tf.Tensor([-0.26894143  0.          0.7310586 ], shape=(3,), dtype=float32)
]],
    errors = {
      { code = [[tf.nn.swish(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Sigmoid expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.nn.tanh"] = {
    example = [[
print(tf.nn.tanh(tf.constant({-1.0, 0.0, 1.0})))
]],
    output = [[
tf.Tensor([-0.7615941  0.         0.7615941], shape=(3,), dtype=float32)
]],
    errors = {
      { code = [[tf.nn.tanh(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Tanh expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.nn.top_k"] = {
    example = [[
local values, indices = tf.nn.top_k(tf.constant({1.0, 5.0, 3.0}), 2)
print(values)
print(indices)
]],
    output = [[
tf.Tensor([5. 3.], shape=(2,), dtype=float32)
tf.Tensor([1 2], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.nn.top_k(tf.constant({1.0, 2.0}), 3)]], type = "InvalidArgumentError", message = "input must have at least k columns. Had 2, needed 3" },
      { code = [[tf.nn.top_k(tf.constant({1.0, 2.0}), -1)]], type = "InvalidArgumentError", message = "Need k >= 0, got -1" },
    },
  },
}
