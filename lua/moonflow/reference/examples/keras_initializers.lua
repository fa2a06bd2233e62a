-- keras_initializers: examples and errors for the reference (docs/reference.md and %help).
return {
  ["tf.keras.initializers.Constant"] = {
    example = [[
print(tf.keras.initializers.Constant(0.5)({2, 2}))
]],
    output = [=[
tf.Tensor(
[[0.5 0.5]
 [0.5 0.5]], shape=(2, 2), dtype=float32)
]=],
    errors = {
      { code = [[tf.keras.initializers.Constant("a")]], type = "TypeError", message = "`value` must be a number" },
    },
  },
  ["tf.keras.initializers.GlorotNormal"] = {
    example = [[
local w = tf.keras.initializers.GlorotNormal(1)({4, 6})
print(w.shape)
print(tf.reduce_all(tf.less_equal(tf.abs(w), 2 * (2 / 10) ^ 0.5 / 0.8796)))
]],
    output = [[
(4, 6)
tf.Tensor(True, shape=(), dtype=bool)
]],
    errors = {
      { code = [[tf.keras.initializers.GlorotNormal(1)({2, 2}, tf.int32)]], type = "ValueError", message = "Expected `dtype` argument to be a floating dtype" },
    },
  },
  ["tf.keras.initializers.HeNormal"] = {
    example = [[
local w = tf.keras.initializers.HeNormal(1)({4, 6})
print(w.shape)
print(tf.reduce_all(tf.less_equal(tf.abs(w), 2 * (2 / 4) ^ 0.5 / 0.8796)))
]],
    output = [[
(4, 6)
tf.Tensor(True, shape=(), dtype=bool)
]],
    errors = {
      { code = [[tf.keras.initializers.HeNormal(1)({2, 2}, tf.int32)]], type = "ValueError", message = "Expected `dtype` argument to be a floating dtype" },
    },
  },
  ["tf.keras.initializers.HeUniform"] = {
    example = [[
local w = tf.keras.initializers.HeUniform(1)({4, 6})
print(w.shape)
print(tf.reduce_all(tf.less_equal(tf.abs(w), (6 / 4) ^ 0.5)))
]],
    output = [[
(4, 6)
tf.Tensor(True, shape=(), dtype=bool)
]],
    errors = {
      { code = [[tf.keras.initializers.HeUniform(1)({2, 2}, tf.int32)]], type = "ValueError", message = "Expected `dtype` argument to be a floating dtype" },
    },
  },
  ["tf.keras.initializers.LecunNormal"] = {
    example = [[
local w = tf.keras.initializers.LecunNormal(1)({4, 6})
print(w.shape)
print(tf.reduce_all(tf.less_equal(tf.abs(w), 2 * (1 / 4) ^ 0.5 / 0.8796)))
]],
    output = [[
(4, 6)
tf.Tensor(True, shape=(), dtype=bool)
]],
    errors = {
      { code = [[tf.keras.initializers.LecunNormal(1)({2, 2}, tf.int32)]], type = "ValueError", message = "Expected `dtype` argument to be a floating dtype" },
    },
  },
  ["tf.keras.initializers.LecunUniform"] = {
    example = [[
local w = tf.keras.initializers.LecunUniform(1)({4, 6})
print(w.shape)
print(tf.reduce_all(tf.less_equal(tf.abs(w), (3 / 4) ^ 0.5)))
]],
    output = [[
(4, 6)
tf.Tensor(True, shape=(), dtype=bool)
]],
    errors = {
      { code = [[tf.keras.initializers.LecunUniform(1)({2, 2}, tf.int32)]], type = "ValueError", message = "Expected `dtype` argument to be a floating dtype" },
    },
  },
  ["tf.keras.initializers.Orthogonal"] = {
    example = [[
local q = tf.keras.initializers.Orthogonal(1.0, 1)({3, 3})
-- q's columns are orthonormal: qᵀq is the identity (up to rounding, whose
-- sign depends on the BLAS kernel's summation order, hence abs)
print(tf.abs(tf.round(tf.matmul(q, q, {transpose_a = true}))))
]],
    output = [=[
tf.Tensor(
[[1. 0. 0.]
 [0. 1. 0.]
 [0. 0. 1.]], shape=(3, 3), dtype=float32)
]=],
    errors = {
      { code = [[tf.keras.initializers.Orthogonal()({3})]], type = "ValueError", message = "The tensor to initialize must be at least two-dimensional" },
    },
  },
  ["tf.keras.initializers.RandomNormal"] = {
    example = [[
local w = tf.keras.initializers.RandomNormal(0.0, 1.0, 4)({1000})
print(w.shape, tf.abs(tf.reduce_mean(w)) < 0.2)
]],
    output = [[
(1000,)	true
]],
    errors = {
      { code = [[tf.keras.initializers.RandomNormal()({2}, tf.int32)]], type = "ValueError", message = "Expected `dtype` argument to be a floating dtype" },
    },
  },
  ["tf.keras.initializers.TruncatedNormal"] = {
    example = [[
local w = tf.keras.initializers.TruncatedNormal(0.0, 1.0, 5)({500})
print(tf.reduce_max(tf.abs(w)) <= 2)
]],
    output = [[
true
]],
    errors = {
      { code = [[tf.keras.initializers.TruncatedNormal()({2}, tf.int32)]], type = "ValueError", message = "Expected `dtype` argument to be a floating dtype" },
    },
  },
  ["tf.keras.initializers.VarianceScaling"] = {
    example = [[
local init = tf.keras.initializers.VarianceScaling(2.0, "fan_in", "uniform", 3)
local w = init({8, 2})
print(tf.reduce_all(tf.less_equal(tf.abs(w), (3 * 2.0 / 8) ^ 0.5)))
]],
    output = [[
tf.Tensor(True, shape=(), dtype=bool)
]],
    errors = {
      { code = [[tf.keras.initializers.VarianceScaling(-1.0)]], type = "ValueError", message = "Argument `scale` must be positive float. Received: scale=-1.0" },
      { code = [[tf.keras.initializers.VarianceScaling(1.0, "fan_sum")]], type = "ValueError", message = "Invalid `mode` argument" },
    },
  },
  ["tf.keras.initializers.constant"] = {
    example = [[
print(tf.keras.initializers.constant(3)({3}, tf.int32))
]],
    output = [[
tf.Tensor([3 3 3], shape=(3,), dtype=int32)
]],
    errors = {
      { code = [[tf.keras.initializers.constant({3})]], type = "TypeError", message = "`value` must be a number" },
    },
  },
  ["tf.keras.initializers.get"] = {
    example = [[
print(tf.keras.initializers.get("ones")({2}))
print(tf.keras.initializers.get(nil))
]],
    output = [[
tf.Tensor([1. 1.], shape=(2,), dtype=float32)
nil
]],
    errors = {
      { code = [[tf.keras.initializers.get("glorot")]], type = "ValueError", message = "Could not interpret initializer identifier: glorot" },
    },
  },
  ["tf.keras.initializers.glorot_normal"] = {
    example = [[
local w = tf.keras.initializers.glorot_normal(1)({4, 6})
print(w.shape)
print(tf.reduce_all(tf.less_equal(tf.abs(w), 2 * (2 / 10) ^ 0.5 / 0.8796)))
]],
    output = [[
(4, 6)
tf.Tensor(True, shape=(), dtype=bool)
]],
    errors = {
      { code = [[tf.keras.initializers.glorot_normal(1)({2, 2}, tf.int32)]], type = "ValueError", message = "Expected `dtype` argument to be a floating dtype" },
    },
  },
  ["tf.keras.initializers.glorot_uniform"] = {
    example = [[
local w = tf.keras.initializers.glorot_uniform(1)({4, 6})
print(w.shape)
print(tf.reduce_all(tf.less_equal(tf.abs(w), (6 / 10) ^ 0.5)))
]],
    output = [[
(4, 6)
tf.Tensor(True, shape=(), dtype=bool)
]],
    errors = {
      { code = [[tf.keras.initializers.glorot_uniform(1)({2, 2}, tf.int32)]], type = "ValueError", message = "Expected `dtype` argument to be a floating dtype" },
    },
  },
  ["tf.keras.initializers.he_normal"] = {
    example = [[
local w = tf.keras.initializers.he_normal(1)({4, 6})
print(w.shape)
print(tf.reduce_all(tf.less_equal(tf.abs(w), 2 * (2 / 4) ^ 0.5 / 0.8796)))
]],
    output = [[
(4, 6)
tf.Tensor(True, shape=(), dtype=bool)
]],
    errors = {
      { code = [[tf.keras.initializers.he_normal(1)({2, 2}, tf.int32)]], type = "ValueError", message = "Expected `dtype` argument to be a floating dtype" },
    },
  },
  ["tf.keras.initializers.he_uniform"] = {
    example = [[
local w = tf.keras.initializers.he_uniform(1)({4, 6})
print(w.shape)
print(tf.reduce_all(tf.less_equal(tf.abs(w), (6 / 4) ^ 0.5)))
]],
    output = [[
(4, 6)
tf.Tensor(True, shape=(), dtype=bool)
]],
    errors = {
      { code = [[tf.keras.initializers.he_uniform(1)({2, 2}, tf.int32)]], type = "ValueError", message = "Expected `dtype` argument to be a floating dtype" },
    },
  },
  ["tf.keras.initializers.lecun_normal"] = {
    example = [[
local w = tf.keras.initializers.lecun_normal(1)({4, 6})
print(w.shape)
print(tf.reduce_all(tf.less_equal(tf.abs(w), 2 * (1 / 4) ^ 0.5 / 0.8796)))
]],
    output = [[
(4, 6)
tf.Tensor(True, shape=(), dtype=bool)
]],
    errors = {
      { code = [[tf.keras.initializers.lecun_normal(1)({2, 2}, tf.int32)]], type = "ValueError", message = "Expected `dtype` argument to be a floating dtype" },
    },
  },
  ["tf.keras.initializers.lecun_uniform"] = {
    example = [[
local w = tf.keras.initializers.lecun_uniform(1)({4, 6})
print(w.shape)
print(tf.reduce_all(tf.less_equal(tf.abs(w), (3 / 4) ^ 0.5)))
]],
    output = [[
(4, 6)
tf.Tensor(True, shape=(), dtype=bool)
]],
    errors = {
      { code = [[tf.keras.initializers.lecun_uniform(1)({2, 2}, tf.int32)]], type = "ValueError", message = "Expected `dtype` argument to be a floating dtype" },
    },
  },
  ["tf.keras.initializers.ones"] = {
    example = [[
print(tf.keras.initializers.ones()({2}))
]],
    output = [[
tf.Tensor([1. 1.], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.initializers.ones()({-1})]], type = "InvalidArgumentError", message = "Dimension -1 must be >= 0" },
    },
  },
  ["tf.keras.initializers.orthogonal"] = {
    example = [[
local q = tf.keras.initializers.orthogonal({gain = 2.0, seed = 3})({2, 4})
-- q's rows are orthogonal with norm 2: qqᵀ is 4 times the identity (abs:
-- the sign of a rounded zero follows the BLAS kernel's summation order)
print(tf.abs(tf.round(tf.matmul(q, q, {transpose_b = true}))))
]],
    output = [=[
tf.Tensor(
[[4. 0.]
 [0. 4.]], shape=(2, 2), dtype=float32)
]=],
    errors = {
      { code = [[tf.keras.initializers.orthogonal()({2}, tf.int32)]], type = "ValueError", message = "Expected `dtype` argument to be a floating dtype" },
    },
  },
  ["tf.keras.initializers.random_normal"] = {
    example = [[
print(tf.keras.initializers.random_normal({stddev = 0.01, seed = 1})({2, 3}).shape)
]],
    output = [[
(2, 3)
]],
    errors = {
      { code = [[tf.keras.initializers.random_normal({std = 1})]], type = "TypeError", message = "unexpected keyword argument 'std'" },
    },
  },
  ["tf.keras.initializers.random_uniform"] = {
    example = [[
local w = tf.keras.initializers.random_uniform(0, 1, 3)({50})
print(tf.reduce_min(w) >= 0, tf.reduce_max(w) < 1)
]],
    output = [[
true	true
]],
    errors = {
      { code = [[tf.keras.initializers.random_uniform({low = 0})]], type = "TypeError", message = "unexpected keyword argument 'low'" },
    },
  },
  ["tf.keras.initializers.truncated_normal"] = {
    example = [[
print(tf.keras.initializers.truncated_normal({stddev = 0.1, seed = 1})({2, 2}).shape)
]],
    output = [[
(2, 2)
]],
    errors = {
      { code = [[tf.keras.initializers.truncated_normal({sd = 1})]], type = "TypeError", message = "unexpected keyword argument 'sd'" },
    },
  },
  ["tf.keras.initializers.variance_scaling"] = {
    example = [[
local w = tf.keras.initializers.variance_scaling({scale = 1.0, distribution = "uniform", seed = 2})({3, 3})
print(w.shape)
]],
    output = [[
(3, 3)
]],
    errors = {
      { code = [[tf.keras.initializers.variance_scaling(1.0, "fan_in", "cauchy")]], type = "ValueError", message = "Invalid `distribution` argument" },
    },
  },
  ["tf.keras.initializers.zeros"] = {
    example = [[
print(tf.keras.initializers.zeros()({2}, tf.float64))
]],
    output = [[
tf.Tensor([0. 0.], shape=(2,), dtype=float64)
]],
    errors = {
      { code = [[tf.keras.initializers.zeros()({-1})]], type = "InvalidArgumentError", message = "Dimension -1 must be >= 0" },
    },
  },
}
