-- keras_core: examples and errors for the reference (docs/reference.md and %help).
return {
  ["tf.keras.activations.elu"] = {
    example = [[
print(tf.keras.activations.elu(tf.constant({-1.0, 0.0, 1.0})))
]],
    output = [[
tf.Tensor([-0.63212055  0.          1.        ], shape=(3,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.activations.elu(tf.constant({"a"}))]], type = "InvalidArgumentError", message = "Elu expects a float32 or float64 tensor for input #0(zero-based), got string" },
    },
  },
  ["tf.keras.activations.exponential"] = {
    example = [[
print(tf.keras.activations.exponential(tf.constant({0.0, 1.0})))
]],
    output = [[
tf.Tensor([1.        2.7182817], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.activations.exponential(tf.constant({"a"}))]], type = "InvalidArgumentError", message = "Exp expects a float32 or float64 tensor for input #0(zero-based), got string" },
    },
  },
  ["tf.keras.activations.gelu"] = {
    example = [[
print(tf.keras.activations.gelu(tf.constant({0.0, 1.0})))
]],
    output = [[
tf.Tensor([0.        0.8413447], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.activations.gelu(tf.constant({"a"}))]], type = "ValueError", message = "`features.dtype` must be a floating point tensor.Received:features.dtype=<dtype: 'string'>" },
    },
  },
  ["tf.keras.activations.get"] = {
    example = [[
local relu = tf.keras.activations.get("relu")
print(relu(tf.constant({-1.0, 2.0})))
]],
    output = [[
tf.Tensor([0. 2.], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.activations.get("no_such_activation")]], type = "ValueError", message = "Unknown activation function" },
    },
  },
  ["tf.keras.activations.hard_sigmoid"] = {
    example = [[
print(tf.keras.activations.hard_sigmoid(tf.constant({-3.0, 0.0, 1.0})))
]],
    output = [[
tf.Tensor([0.  0.5 0.7], shape=(3,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.activations.hard_sigmoid(tf.constant({"a"}))]], type = "TypeError", message = "Can't convert a Lua number to a string tensor" },
    },
  },
  ["tf.keras.activations.leaky_relu"] = {
    example = [[
print(tf.keras.activations.leaky_relu(tf.constant({-1.0, 0.0, 1.0})))
]],
    output = [[
tf.Tensor([-0.2  0.   1. ], shape=(3,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.activations.leaky_relu(tf.constant({"a"}))]], type = "InvalidArgumentError", message = "LeakyRelu expects a float32 or float64 tensor for input #0(zero-based), got string" },
    },
  },
  ["tf.keras.activations.log_softmax"] = {
    example = [[
print(tf.keras.activations.log_softmax(tf.constant({0.0, 0.0})))
]],
    output = [[
tf.Tensor([-0.6931472 -0.6931472], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.activations.log_softmax(tf.constant({"a"}))]], type = "InvalidArgumentError", message = "LogSoftmax expects a float tensor for input #0(zero-based), got string" },
    },
  },
  ["tf.keras.activations.relu"] = {
    example = [[
print(tf.keras.activations.relu(tf.constant({-1.0, 0.0, 2.0})))
]],
    output = [[
tf.Tensor([0. 0. 2.], shape=(3,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.activations.relu(tf.constant({"a"}))]], type = "InvalidArgumentError", message = "Relu expects a float32, float64, int32 or int64 tensor for input #0(zero-based), got string" },
    },
  },
  ["tf.keras.activations.relu6"] = {
    example = [[
print(tf.keras.activations.relu6(tf.constant({-1.0, 3.0, 8.0})))
]],
    output = [[
tf.Tensor([0. 3. 6.], shape=(3,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.activations.relu6(tf.constant({"a"}))]], type = "InvalidArgumentError", message = "Relu6 expects a float32, float64, int32 or int64 tensor for input #0(zero-based), got string" },
    },
  },
  ["tf.keras.activations.selu"] = {
    example = [[
print(tf.keras.activations.selu(tf.constant({-1.0, 0.0, 1.0})))
]],
    output = [[
tf.Tensor([-1.1113307  0.         1.050701 ], shape=(3,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.activations.selu(tf.constant({"a"}))]], type = "InvalidArgumentError", message = "Selu expects a float32 or float64 tensor for input #0(zero-based), got string" },
    },
  },
  ["tf.keras.activations.sigmoid"] = {
    example = [[
print(tf.keras.activations.sigmoid(tf.constant({-1.0, 0.0, 1.0})))
]],
    output = [[
tf.Tensor([0.26894143 0.5        0.7310586 ], shape=(3,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.activations.sigmoid(tf.constant({"a"}))]], type = "InvalidArgumentError", message = "Sigmoid expects a float32 or float64 tensor for input #0(zero-based), got string" },
    },
  },
  ["tf.keras.activations.silu"] = {
    example = [[
print(tf.keras.activations.silu(tf.constant({-1.0, 0.0, 1.0})))
]],
    output = [[
tf.Tensor([-0.26894143  0.          0.7310586 ], shape=(3,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.activations.silu(tf.constant({"a"}))]], type = "InvalidArgumentError", message = "Sigmoid expects a float32 or float64 tensor for input #0(zero-based), got string" },
    },
  },
  ["tf.keras.activations.softmax"] = {
    example = [[
print(tf.keras.activations.softmax(tf.constant({{1.0, 1.0, 2.0}})))
]],
    output = [=[
tf.Tensor([[0.21194156 0.21194156 0.57611686]], shape=(1, 3), dtype=float32)
]=],
    errors = {
      { code = [[tf.keras.activations.softmax(tf.constant({"a"}))]], type = "InvalidArgumentError", message = "Softmax expects a float tensor for input #0(zero-based), got string" },
    },
  },
  ["tf.keras.activations.softplus"] = {
    example = [[
print(tf.keras.activations.softplus(tf.constant({0.0, 1.0})))
]],
    output = [[
tf.Tensor([0.6931472 1.3132616], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.activations.softplus(tf.constant({"a"}))]], type = "InvalidArgumentError", message = "Softplus expects a float32 or float64 tensor for input #0(zero-based), got string" },
    },
  },
  ["tf.keras.activations.softsign"] = {
    example = [[
print(tf.keras.activations.softsign(tf.constant({-1.0, 3.0})))
]],
    output = [[
tf.Tensor([-0.5   0.75], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.activations.softsign(tf.constant({"a"}))]], type = "InvalidArgumentError", message = "Softsign expects a float32 or float64 tensor for input #0(zero-based), got string" },
    },
  },
  ["tf.keras.activations.swish"] = {
    example = [[
print(tf.keras.activations.swish(tf.constant({-1.0, 0.0, 1.0})))
]],
    output = [[
tf.Tensor([-0.26894143  0.          0.7310586 ], shape=(3,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.activations.swish(tf.constant({"a"}))]], type = "InvalidArgumentError", message = "Sigmoid expects a float32 or float64 tensor for input #0(zero-based), got string" },
    },
  },
  ["tf.keras.activations.tanh"] = {
    example = [[
print(tf.keras.activations.tanh(tf.constant({0.0, 1.0})))
]],
    output = [[
tf.Tensor([0.        0.7615941], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.activations.tanh(tf.constant({"a"}))]], type = "InvalidArgumentError", message = "Tanh expects a float32 or float64 tensor for input #0(zero-based), got string" },
    },
  },
  ["tf.keras.initializers.GlorotUniform"] = {
    example = [[
local init = tf.keras.initializers.GlorotUniform(1)
local w = init({2, 3})
print(w.shape)
print(tf.reduce_all(tf.less_equal(tf.abs(w), (6 / 5) ^ 0.5)))
-- seeded: every call (and every GlorotUniform(1)) gives the same values
print(tf.reduce_all(tf.equal(w, init({2, 3}))), tf.reduce_all(tf.equal(w, tf.keras.initializers.GlorotUniform(1)({2, 3}))))
]],
    output = [[
(2, 3)
tf.Tensor(True, shape=(), dtype=bool)
tf.Tensor(True, shape=(), dtype=bool)	tf.Tensor(True, shape=(), dtype=bool)
]],
    errors = {
      { code = [[tf.keras.initializers.GlorotUniform()("x")]], type = "TypeError", message = "argument 'shape' must be a list of non-negative integers, got a string" },
      { code = [[tf.keras.initializers.GlorotUniform({seed = 1, mode = "fan_in"})]], type = "TypeError", message = "tf.keras.initializers.GlorotUniform got an unexpected keyword argument 'mode' Accepted options:" },
    },
  },
  ["tf.keras.initializers.Ones"] = {
    example = [[
print(tf.keras.initializers.Ones()({2, 2}))
]],
    output = [=[
tf.Tensor(
[[1. 1.]
 [1. 1.]], shape=(2, 2), dtype=float32)
]=],
    errors = {
      { code = [[tf.keras.initializers.Ones()({-1})]], type = "InvalidArgumentError", message = "Dimension -1 must be >= 0" },
    },
  },
  ["tf.keras.initializers.RandomUniform"] = {
    example = [[
local init = tf.keras.initializers.RandomUniform(-1.0, 1.0, 7)
local w = init({100})
print(w.shape)
print(tf.reduce_all(tf.less_equal(tf.abs(w), 1.0)))
]],
    output = [[
(100,)
tf.Tensor(True, shape=(), dtype=bool)
]],
    errors = {
      { code = [[tf.keras.initializers.RandomUniform({min = -1.0})]], type = "TypeError", message = "tf.keras.initializers.RandomUniform got an unexpected keyword argument 'min' Accepted options:" },
    },
  },
  ["tf.keras.initializers.Zeros"] = {
    example = [[
print(tf.keras.initializers.Zeros()({3}))
]],
    output = [[
tf.Tensor([0. 0. 0.], shape=(3,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.initializers.Zeros()({-1})]], type = "InvalidArgumentError", message = "Dimension -1 must be >= 0" },
    },
  },
  ["tf.keras.layers.AveragePooling2D"] = {
    example = [[
local x = tf.reshape(tf.range(1.0, 17.0), {1, 4, 4, 1})
local pool = tf.keras.layers.AveragePooling2D(2)
print(tf.reshape(pool(x), {2, 2}))
]],
    output = [=[
tf.Tensor(
[[ 3.5  5.5]
 [11.5 13.5]], shape=(2, 2), dtype=float32)
]=],
    errors = {
      { code = [[tf.keras.layers.AveragePooling2D(2, 2, "full")]], type = "ValueError", message = "The `padding` argument must be a string 'valid' or 'same'. Received: full" },
    },
  },
  ["tf.keras.layers.AvgPool2D"] = {
    example = [[
local x = tf.reshape(tf.range(1.0, 17.0), {1, 4, 4, 1})
local pool = tf.keras.layers.AvgPool2D(2)
print(tf.reshape(pool(x), {2, 2}))
]],
    output = [=[
tf.Tensor(
[[ 3.5  5.5]
 [11.5 13.5]], shape=(2, 2), dtype=float32)
]=],
    errors = {
      { code = [[tf.keras.layers.AvgPool2D(2, 2, "full")]], type = "ValueError", message = "The `padding` argument must be a string 'valid' or 'same'. Received: full" },
    },
  },
  ["tf.keras.layers.BatchNormalization"] = {
    example = [[
local bn = tf.keras.layers.BatchNormalization()
print(tf.round(bn(tf.constant({{1.0, 2.0}, {3.0, 6.0}}), true) * 1000))
]],
    output = [=[
tf.Tensor(
[[-1000. -1000.]
 [ 1000.  1000.]], shape=(2, 2), dtype=float32)
]=],
    errors = {
      { code = [[tf.keras.layers.BatchNormalization({bogus = 1})]], type = "TypeError", message = "tf.keras.layers.BatchNormalization got an unexpected keyword argument 'bogus' Accepted options:" },
    },
  },
  ["tf.keras.layers.Conv2D"] = {
    example = [[
local conv = tf.keras.layers.Conv2D(1, 2, {kernel_initializer = tf.keras.initializers.Ones()})
local x = tf.reshape(tf.range(1.0, 10.0), {1, 3, 3, 1})
print(tf.reshape(conv(x), {2, 2}))
]],
    output = [=[
tf.Tensor(
[[12. 16.]
 [24. 28.]], shape=(2, 2), dtype=float32)
]=],
    errors = {
      { code = [[tf.keras.layers.Conv2D(1, 2, {bogus = 1})]], type = "TypeError", message = "tf.keras.layers.Conv2D got an unexpected keyword argument 'bogus' Accepted options: filters," },
      { code = [[tf.keras.layers.Conv2D({filters = 2, kernel_size = 3, padding = "full"})]], type = "ValueError", message = 'The `padding` argument must be a list/tuple or one of "valid", "same" (or "causal", only for `Conv1D). Received: full' },
      { code = [[tf.keras.layers.Conv2D(2, 3, {name = "conv2d"})(tf.zeros({1, 4, 4}))]], type = "ValueError", message = 'Input 0 of layer "conv2d" is incompatible with the layer: expected min_ndim=4, found ndim=3. Full shape received: (1, 4, 4)' },
    },
  },
  ["tf.keras.layers.Dense"] = {
    example = [[
local dense = tf.keras.layers.Dense(2, {kernel_initializer = tf.keras.initializers.Ones(), bias_initializer = tf.keras.initializers.Ones()})
print(dense(tf.constant({{1.0, 2.0, 3.0}})))
print(dense.kernel.shape)
]],
    output = [=[
tf.Tensor([[7. 7.]], shape=(1, 2), dtype=float32)
(3, 2)
]=],
    errors = {
      { code = [[tf.keras.layers.Dense(2, {activation = "nope"})]], type = "ValueError", message = "Unknown activation function" },
      { code = [[tf.keras.layers.Dense(2, {units2 = 1})]], type = "TypeError", message = "tf.keras.layers.Dense got an unexpected keyword argument 'units2', did you mean 'units'? Accepted" },
      { code = [[tf.keras.layers.Dense(2)(tf.constant(1.0))]], type = "ValueError", message = "is incompatible with the layer: expected min_ndim=2, found ndim=0. Full shape received: ()" },
    },
  },
  ["tf.keras.layers.Dropout"] = {
    example = [[
local drop = tf.keras.layers.Dropout(0.5)
print(drop(tf.ones({4})))
]],
    output = [[
tf.Tensor([1. 1. 1. 1.], shape=(4,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.layers.Dropout(1.5)(tf.ones({2}), true)]], type = "ValueError", message = "Invalid value received for argument `rate`. Expected a float value between 0 and 1. Received:" },
    },
  },
  ["tf.keras.layers.Embedding"] = {
    example = [[
local emb = tf.keras.layers.Embedding(3, 2, {embeddings_initializer = tf.keras.initializers.Ones()})
print(emb(tf.constant({0, 2})))
-- mask_zero: id 0 is padding; a recurrent layer after it skips those steps
local masked = tf.keras.layers.Embedding(3, 2, {mask_zero = true})
print(masked:compute_mask(tf.constant({{1, 2, 0}})))
]],
    output = [=[
tf.Tensor(
[[1. 1.]
 [1. 1.]], shape=(2, 2), dtype=float32)
tf.Tensor([[ True  True False]], shape=(1, 3), dtype=bool)
]=],
    errors = {
      { code = [[tf.keras.layers.Embedding(3, 2)(tf.constant({5}))]], type = "InvalidArgumentError", message = "indices[0] = 5 is not in [0, 3)" },
      { code = [[tf.keras.layers.Embedding(3, 2, {mask_zero = 1})]], type = "TypeError", message = "mask_zero" },
    },
  },
  ["tf.keras.layers.Flatten"] = {
    example = [[
print(tf.keras.layers.Flatten()(tf.ones({2, 2, 3})).shape)
]],
    output = [[
(2, 6)
]],
    errors = {
      { code = [[tf.keras.layers.Flatten({bogus = 1})]], type = "TypeError", message = "tf.keras.layers.Flatten got an unexpected keyword argument 'bogus' Accepted options: data_format," },
    },
  },
  ["tf.keras.layers.LayerNormalization"] = {
    example = [[
local ln = tf.keras.layers.LayerNormalization()
print(tf.round(ln(tf.constant({{1.0, 3.0}, {2.0, 2.0}})) * 1000))
]],
    output = [=[
tf.Tensor(
[[-1000.  1000.]
 [    0.     0.]], shape=(2, 2), dtype=float32)
]=],
    errors = {
      { code = [[tf.keras.layers.LayerNormalization(5)(tf.ones({2, 2}))]], type = "ValueError", message = "Invalid axis: 5 (input rank 2) in LayerNormalization" },
    },
  },
  ["tf.keras.layers.MaxPool2D"] = {
    example = [[
local x = tf.reshape(tf.range(1.0, 17.0), {1, 4, 4, 1})
local pool = tf.keras.layers.MaxPool2D(2)
print(tf.reshape(pool(x), {2, 2}))
]],
    output = [=[
tf.Tensor(
[[ 6.  8.]
 [14. 16.]], shape=(2, 2), dtype=float32)
]=],
    errors = {
      { code = [[tf.keras.layers.MaxPool2D(2, 2, "full")]], type = "ValueError", message = "The `padding` argument must be a string 'valid' or 'same'. Received: full" },
    },
  },
  ["tf.keras.layers.MaxPooling2D"] = {
    example = [[
local x = tf.reshape(tf.range(1.0, 17.0), {1, 4, 4, 1})
local pool = tf.keras.layers.MaxPooling2D(2)
print(tf.reshape(pool(x), {2, 2}))
]],
    output = [=[
tf.Tensor(
[[ 6.  8.]
 [14. 16.]], shape=(2, 2), dtype=float32)
]=],
    errors = {
      { code = [[tf.keras.layers.MaxPooling2D(2, 2, "full")]], type = "ValueError", message = "The `padding` argument must be a string 'valid' or 'same'. Received: full" },
    },
  },
  ["tf.keras.losses.CategoricalCrossentropy"] = {
    example = [[
local loss = tf.keras.losses.CategoricalCrossentropy()
print(loss(tf.constant({{0.0, 1.0}}), tf.constant({{0.5, 0.5}})))
]],
    output = [[
tf.Tensor(0.6931472, shape=(), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.losses.CategoricalCrossentropy({bogus = 1})]], type = "TypeError", message = "tf.keras.losses.CategoricalCrossentropy got an unexpected keyword argument 'bogus' Accepted" },
    },
  },
  ["tf.keras.losses.MeanSquaredError"] = {
    example = [[
local mse = tf.keras.losses.MeanSquaredError()
print(mse(tf.constant({{0.0, 1.0}, {0.0, 0.0}}), tf.constant({{1.0, 1.0}, {1.0, 0.0}})))
]],
    output = [[
tf.Tensor(0.5, shape=(), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.losses.MeanSquaredError()(tf.constant({{1.0, 2.0}}), tf.constant({{1.0, 2.0, 3.0}}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [1,3] vs. [1,2]" },
    },
  },
  ["tf.keras.losses.SparseCategoricalCrossentropy"] = {
    example = [[
local loss = tf.keras.losses.SparseCategoricalCrossentropy(true)
print(loss(tf.constant({1, 0}), tf.constant({{0.0, 0.0}, {0.0, 0.0}})))
]],
    output = [[
tf.Tensor(0.6931472, shape=(), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.losses.SparseCategoricalCrossentropy(true)(tf.constant({2}), tf.constant({{0.0, 0.0}}))]], type = "InvalidArgumentError", message = "Received a label value of 2 which is outside the valid range of [0, 2).  Label values: 2" },
    },
  },
  ["tf.keras.losses.categorical_crossentropy"] = {
    example = [[
print(tf.keras.losses.categorical_crossentropy(tf.constant({{0.0, 1.0}, {1.0, 0.0}}), tf.constant({{0.5, 0.5}, {0.5, 0.5}})))
]],
    output = [[
tf.Tensor([0.6931472 0.6931472], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.losses.categorical_crossentropy(tf.constant({{0.0, 1.0}}), tf.constant({{"a", "b"}}))]], type = "UnimplementedError", message = "to string is not supported" },
    },
  },
  ["tf.keras.losses.mean_squared_error"] = {
    example = [[
print(tf.keras.losses.mean_squared_error(tf.constant({{0.0, 1.0}, {0.0, 0.0}}), tf.constant({{1.0, 1.0}, {1.0, 0.0}})))
]],
    output = [[
tf.Tensor([0.5 0.5], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.losses.mean_squared_error(tf.constant({{1.0, 2.0}}), tf.constant({{1.0, 2.0, 3.0}}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [1,3] vs. [1,2]" },
    },
  },
  ["tf.keras.losses.sparse_categorical_crossentropy"] = {
    example = [[
print(tf.keras.losses.sparse_categorical_crossentropy(tf.constant({1, 0}), tf.constant({{0.0, 0.0}, {0.0, 0.0}}), true))
]],
    output = [[
tf.Tensor([0.6931472 0.6931472], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.losses.sparse_categorical_crossentropy(tf.constant({2}), tf.constant({{0.0, 0.0}}), true)]], type = "InvalidArgumentError", message = "Received a label value of 2 which is outside the valid range of [0, 2).  Label values: 2" },
    },
  },
  ["tf.keras.optimizers.Adam"] = {
    example = [[
local v = tf.Variable(1.0)
local opt = tf.keras.optimizers.Adam(0.1)
opt:apply_gradients({{tf.constant(2.0), v}})
print(tf.round(v * 1000) / 1000)
]],
    output = [[
tf.Tensor(0.9, shape=(), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.optimizers.Adam({rate = 0.1})]], type = "TypeError", message = "tf.keras.optimizers.Adam got an unexpected keyword argument 'rate', did you mean 'name'? Accepted" },
      { code = [[tf.keras.optimizers.Adam({clipnorm = 1.0, global_clipnorm = 1.0})]], type = "ValueError", message = "At most one of `clipnorm` and `global_clipnorm` can be set. Received: clipnorm=1.0, global_clipnorm=1.0." },
    },
  },
  ["tf.keras.optimizers.SGD"] = {
    example = [[
local v = tf.Variable(1.0)
local opt = tf.keras.optimizers.SGD(0.1)
opt:apply_gradients({{tf.constant(2.0), v}})
print(v)
-- gradient clipping: clipvalue per element (clipnorm per gradient, global_clipnorm over all)
local w = tf.Variable({0.0, 0.0})
tf.keras.optimizers.SGD(1.0, {clipvalue = 0.5}):apply_gradients({{tf.constant({2.0, -0.25}), w}})
print(w:numpy()[1], w:numpy()[2])
]],
    output = [[
<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=0.8>
-0.5	0.25
]],
    errors = {
      { code = [[tf.keras.optimizers.SGD({rate = 0.1})]], type = "TypeError", message = "tf.keras.optimizers.SGD got an unexpected keyword argument 'rate', did you mean 'name'? Accepted" },
      { code = [[tf.keras.optimizers.SGD({clipnorm = 1.0, global_clipnorm = 2.0})]], type = "ValueError", message = "At most one of `clipnorm` and `global_clipnorm` can be set." },
      { code = [[tf.keras.optimizers.SGD({clipvalue = "big"})]], type = "TypeError", message = "clipvalue" },
    },
  },
}
