-- random, image: examples and errors for the reference (docs/reference.md and %help): tf.random and tf.image.
return {
  ["tf.random.normal"] = {
    example = [[
tf.random.set_seed(7)
local a = tf.random.normal({2, 3}, { mean = 10.0, stddev = 0.5 })
tf.random.set_seed(7)
local b = tf.random.normal({2, 3}, { mean = 10.0, stddev = 0.5 })
print(a.shape, a.dtype, tf.reduce_all(tf.equal(a, b)))
print(tf.reduce_all(tf.less(tf.abs(a - 10.0), 5.0)))
]],
    output = [[
(2, 3)	tf.float32	tf.Tensor(True, shape=(), dtype=bool)
tf.Tensor(True, shape=(), dtype=bool)
]],
    errors = {
      { code = [[tf.random.normal({2}, { dtype = tf.int32 })]], type = "TypeError", message = "Value passed to parameter 'dtype' has DataType int32 not in list of" },
      { code = [[tf.random.normal({-2})]], type = "InvalidArgumentError", message = "Dimension -2 must be >= 0" },
      { code = [[tf.random.normal({2}, { stdev = 1.0 })]], type = "TypeError", message = "tf.random.normal got an unexpected keyword argument 'stdev', did you" },
    },
  },
  ["tf.random.set_seed"] = {
    example = [[
tf.random.set_seed(42)
local a = tf.random.uniform({3})
tf.random.set_seed(42)
local b = tf.random.uniform({3})
print(tf.reduce_all(tf.equal(a, b)))
]],
    output = [[
tf.Tensor(True, shape=(), dtype=bool)
]],
    errors = {
      { code = [[tf.random.set_seed("seed")]], type = "TypeError", message = "tf.random.set_seed: the seed must be an integer, got seed" },
    },
  },
  ["tf.random.uniform"] = {
    example = [[
tf.random.set_seed(1)
local x = tf.random.uniform({4}, { minval = 2, maxval = 5, dtype = tf.int32 })
print(x.shape, x.dtype)
print(tf.reduce_all(tf.logical_and(tf.greater_equal(x, 2), tf.less(x, 5))))
]],
    output = [[
(4,)	tf.int32
tf.Tensor(True, shape=(), dtype=bool)
]],
    errors = {
      { code = [[tf.random.uniform({2}, { minval = 5, maxval = 2, dtype = tf.int32 })]], type = "InvalidArgumentError", message = "Need minval < maxval: 5 >= 2" },
      { code = [[tf.random.uniform({2}, { dtype = tf.int32 })]], type = "ValueError", message = "Must specify maxval for integer dtype int32" },
      { code = [[tf.random.uniform({2}, { maxval = 1.0, dtype = "float99" })]], type = "TypeError", message = "Cannot convert float99 to a dtype" },
    },
  },
  ["tf.image.resize"] = {
    example = [[
local image = tf.reshape(tf.constant({0.0, 1.0, 2.0, 3.0}), {1, 2, 2, 1})
print(tf.reshape(tf.image.resize(image, {4, 4}), {4, 4}))
print(tf.reshape(tf.image.resize(image, {3, 3}, "nearest"), {3, 3}))
]],
    output = [=[
tf.Tensor(
[[0.   0.25 0.75 1.  ]
 [0.5  0.75 1.25 1.5 ]
 [1.5  1.75 2.25 2.5 ]
 [2.   2.25 2.75 3.  ]], shape=(4, 4), dtype=float32)
example raised: ValueError: tf.image.resize: moonflow implements method 'bilinear' only, got nearest
]=],
    errors = {
      { code = [[tf.image.resize(tf.zeros({2, 2}), {4, 4})]], type = "InvalidArgumentError", message = "input must be 4-dimensional[2,2]" },
      { code = [[tf.image.resize(tf.zeros({1, 2, 2, 1}), {4, 4}, "cubic")]], type = "ValueError", message = "tf.image.resize: moonflow implements method 'bilinear' only, got cubic" },
    },
  },
  -- The stateless draws (ops/random.lua): values from the seed alone.
  ["tf.random.experimental.stateless_fold_in"] = {
    example = [[
print(tf.random.experimental.stateless_fold_in({1, 2}, 7))
]],
    output = [[
tf.Tensor([1105988140          7], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.random.experimental.stateless_fold_in({1, 2}, 1.5)]], type = "TypeError", message = "DataType float32 not in list of allowed values: int32, int64" },
    },
  },
  ["tf.random.experimental.stateless_split"] = {
    example = [[
print(tf.random.experimental.stateless_split({1, 2}, 3))
]],
    output = [=[
tf.Tensor(
[[1105988140 1738052849]
 [-335576002  370444179]
 [  10670227 -246211131]], shape=(3, 2), dtype=int32)
]=],
    errors = {
      { code = [[tf.random.experimental.stateless_split({1, 2, 3})]], type = "InvalidArgumentError", message = "seed must have shape [2], not [3]" },
    },
  },
  ["tf.random.fold_in"] = {
    example = [[
print(tf.random.fold_in({1, 2}, 7))
]],
    output = [[
tf.Tensor([1105988140          7], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.random.fold_in({1, 2})]], type = "TypeError", message = "missing required argument" },
    },
  },
  ["tf.random.split"] = {
    example = [[
print(tf.random.split({1, 2}))
]],
    output = [=[
tf.Tensor(
[[1105988140 1738052849]
 [-335576002  370444179]], shape=(2, 2), dtype=int32)
]=],
    errors = {
      { code = [[tf.random.split({1, 2}, -1)]], type = "ValueError", message = "num must be a non-negative integer" },
    },
  },
  ["tf.random.stateless_normal"] = {
    example = [[
print(tf.random.stateless_normal({3}, {1105988140, 1738052849}))
]],
    output = [[
tf.Tensor([-0.59835213 -0.9578608   0.9002807 ], shape=(3,), dtype=float32)
]],
    errors = {
      { code = [[tf.random.stateless_normal({3}, {1, 2}, { dtype = tf.int32 })]], type = "TypeError", message = "Value passed to parameter 'dtype' has DataType int32 not in list of allowed values" },
      { code = [[tf.random.stateless_normal({3}, {1})]], type = "InvalidArgumentError", message = "seed must have shape [2], not [1]" },
    },
  },
  ["tf.random.stateless_truncated_normal"] = {
    example = [[
local x = tf.random.stateless_truncated_normal({1000}, {3, 4})
print(tf.reduce_max(tf.abs(x)) < 2.0)
print(tf.reduce_all(tf.equal(x, tf.random.stateless_truncated_normal({1000}, {3, 4}))))
]],
    output = [[
true
tf.Tensor(True, shape=(), dtype=bool)
]],
    errors = {
      { code = [[tf.random.stateless_truncated_normal({3}, {1.5, 2.5})]], type = "TypeError", message = "Value passed to parameter 'seed' has DataType float32" },
    },
  },
  ["tf.random.stateless_uniform"] = {
    example = [[
print(tf.random.stateless_uniform({3}, {1, 2}))
print(tf.random.stateless_uniform({4}, {1, 2}, { minval = 0, maxval = 10, dtype = tf.int32 }))
]],
    output = [[
tf.Tensor([0.8440604  0.19204533 0.9962232 ], shape=(3,), dtype=float32)
tf.Tensor([0 9 4 9], shape=(4,), dtype=int32)
]],
    errors = {
      { code = [[tf.random.stateless_uniform({3}, {1, 2, 3})]], type = "InvalidArgumentError", message = "seed must have shape [2], not [3]" },
      { code = [[tf.random.stateless_uniform({3}, {1, 2}, { maxval = 10, dtype = tf.int32 })]], type = "ValueError", message = "argument `minval` and `maxval` must be both None or not None" },
      { code = [[tf.random.stateless_uniform({3}, {1, 2}, { minval = 5, maxval = 3, dtype = tf.int32 })]], type = "InvalidArgumentError", message = "Need minval < maxval: 5 >= 3" },
    },
  },
}
