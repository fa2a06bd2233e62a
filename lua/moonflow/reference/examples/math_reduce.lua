-- math_reduce: examples and errors for the reference (docs/reference.md and %help).
return {
  ["tf.math.add_n"] = {
    example = [[
print(tf.math.add_n({tf.constant({1, 2}), tf.constant({3, 4}), tf.constant({5, 6})}))
]],
    output = [[
tf.Tensor([ 9 12], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.math.add_n({tf.constant({1, 2}), tf.constant({1, 2, 3})})]], type = "InvalidArgumentError", message = "Inputs to operation AddN of type AddN must have the same size and shape.  Input 0: [2] != input 1:" },
      { code = [[tf.math.add_n({})]], type = "ValueError", message = "Inputs must be an iterable of at least one Tensor/IndexedSlices with the same dtype and shape." },
    },
  },
  ["tf.math.argmax"] = {
    example = [[
print(tf.math.argmax(tf.constant({{1, 9, 3}, {8, 2, 7}})))
print(tf.math.argmax(tf.constant({{1, 9, 3}, {8, 2, 7}}), 1))
]],
    output = [[
tf.Tensor([1 0 1], shape=(3,), dtype=int64)
tf.Tensor([1 0], shape=(2,), dtype=int64)
]],
    errors = {
      { code = [[tf.math.argmax(tf.constant({1, 2}), 1)]], type = "InvalidArgumentError", message = "Expected dimension in the range [-1, 1), but got 1" },
    },
  },
  ["tf.math.argmin"] = {
    example = [[
print(tf.math.argmin(tf.constant({{1, 9, 3}, {8, 2, 7}})))
print(tf.math.argmin(tf.constant({{1, 9, 3}, {8, 2, 7}}), 1))
]],
    output = [[
tf.Tensor([0 1 0], shape=(3,), dtype=int64)
tf.Tensor([0 1], shape=(2,), dtype=int64)
]],
    errors = {
      { code = [[tf.math.argmin(tf.constant({1, 2}), 1)]], type = "InvalidArgumentError", message = "Expected dimension in the range [-1, 1), but got 1" },
    },
  },
  ["tf.math.bincount"] = {
    example = [[
print(tf.math.bincount(tf.constant({1, 1, 3, 0})))
]],
    output = [[
tf.Tensor([1 2 0 1], shape=(4,), dtype=int32)
]],
    errors = {
      { code = [[tf.math.bincount(tf.constant({1, -1}))]], type = "InvalidArgumentError", message = "Input arr must be non-negative!" },
    },
  },
  ["tf.math.count_nonzero"] = {
    example = [[
local x = tf.constant({{0, 1, 0}, {1, 1, 0}})
print(tf.math.count_nonzero(x))
print(tf.math.count_nonzero(x, 1))
]],
    output = [[
tf.Tensor(3, shape=(), dtype=int64)
tf.Tensor([1 2], shape=(2,), dtype=int64)
]],
    errors = {
      { code = [[tf.math.count_nonzero(tf.constant({1, 0}), 1)]], type = "InvalidArgumentError", message = "Invalid reduction dimension (1 for input with 1 dimension(s)" },
    },
  },
  ["tf.math.cumprod"] = {
    example = [[
print(tf.math.cumprod(tf.constant({1, 2, 3, 4})))
print(tf.math.cumprod(tf.constant({1, 2, 3, 4}), 0, true))
]],
    output = [[
tf.Tensor([ 1  2  6 24], shape=(4,), dtype=int32)
tf.Tensor([1 1 2 6], shape=(4,), dtype=int32)
]],
    errors = {
      { code = [[tf.math.cumprod(tf.constant({1, 2}), 1)]], type = "InvalidArgumentError", message = "ScanOp: Expected scan axis in the range [-1, 1), but got 1" },
    },
  },
  ["tf.math.cumsum"] = {
    example = [[
print(tf.math.cumsum(tf.constant({1, 2, 3, 4})))
print(tf.math.cumsum(tf.constant({1, 2, 3, 4}), 0, true))
]],
    output = [[
tf.Tensor([ 1  3  6 10], shape=(4,), dtype=int32)
tf.Tensor([0 1 3 6], shape=(4,), dtype=int32)
]],
    errors = {
      { code = [[tf.math.cumsum(tf.constant({1, 2}), 1)]], type = "InvalidArgumentError", message = "ScanOp: Expected scan axis in the range [-1, 1), but got 1" },
    },
  },
  ["tf.math.reduce_all"] = {
    example = [[
local x = tf.constant({{true, true}, {false, true}})
print(tf.math.reduce_all(x))
print(tf.math.reduce_all(x, 1))
]],
    output = [[
tf.Tensor(False, shape=(), dtype=bool)
tf.Tensor([ True False], shape=(2,), dtype=bool)
]],
    errors = {
      { code = [[tf.math.reduce_all(tf.constant({1, 0}))]], type = "InvalidArgumentError", message = "All expects a bool tensor for input #0(zero-based), got int32" },
      { code = [[tf.math.reduce_all(tf.constant({true}), 1)]], type = "InvalidArgumentError", message = "Invalid reduction dimension (1 for input with 1 dimension(s)" },
    },
  },
  ["tf.math.reduce_any"] = {
    example = [[
local x = tf.constant({{true, true}, {false, true}})
print(tf.math.reduce_any(x))
print(tf.math.reduce_any(x, 1))
]],
    output = [[
tf.Tensor(True, shape=(), dtype=bool)
tf.Tensor([ True  True], shape=(2,), dtype=bool)
]],
    errors = {
      { code = [[tf.math.reduce_any(tf.constant({1, 0}))]], type = "InvalidArgumentError", message = "Any expects a bool tensor for input #0(zero-based), got int32" },
      { code = [[tf.math.reduce_any(tf.constant({true}), 1)]], type = "InvalidArgumentError", message = "Invalid reduction dimension (1 for input with 1 dimension(s)" },
    },
  },
  ["tf.math.reduce_euclidean_norm"] = {
    example = [[
local x = tf.constant({{3.0, 4.0}, {6.0, 8.0}})
print(tf.math.reduce_euclidean_norm(x))
print(tf.math.reduce_euclidean_norm(x, 1))
]],
    output = [[
tf.Tensor(11.18034, shape=(), dtype=float32)
tf.Tensor([ 5. 10.], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.reduce_euclidean_norm(tf.constant({{3.0, 4.0}, {6.0, 8.0}}), 2)]], type = "InvalidArgumentError", message = "Invalid reduction dimension (2 for input with 2 dimension(s)" },
    },
  },
  ["tf.math.reduce_logsumexp"] = {
    example = [[
local x = tf.constant({{0.0, 0.0}, {1.0, 1.0}})
print(tf.math.reduce_logsumexp(x))
print(tf.math.reduce_logsumexp(x, 1))
]],
    output = [[
tf.Tensor(2.0064087, shape=(), dtype=float32)
tf.Tensor([0.6931472 1.6931472], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.reduce_logsumexp(tf.constant({{0.0, 0.0}, {1.0, 1.0}}), 2)]], type = "InvalidArgumentError", message = "Invalid reduction dimension (2 for input with 2 dimension(s)" },
    },
  },
  ["tf.math.reduce_max"] = {
    example = [[
local x = tf.constant({{1, 2}, {3, 4}})
print(tf.math.reduce_max(x))
print(tf.math.reduce_max(x, 1))
]],
    output = [[
tf.Tensor(4, shape=(), dtype=int32)
tf.Tensor([2 4], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.math.reduce_max(tf.constant({{1, 2}, {3, 4}}), 2)]], type = "InvalidArgumentError", message = "Invalid reduction dimension (2 for input with 2 dimension(s)" },
    },
  },
  ["tf.math.reduce_mean"] = {
    example = [[
local x = tf.constant({{1.0, 2.0}, {3.0, 4.0}})
print(tf.math.reduce_mean(x))
print(tf.math.reduce_mean(x, 1))
]],
    output = [[
tf.Tensor(2.5, shape=(), dtype=float32)
tf.Tensor([1.5 3.5], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.reduce_mean(tf.constant({{1.0, 2.0}, {3.0, 4.0}}), 2)]], type = "InvalidArgumentError", message = "Invalid reduction dimension (2 for input with 2 dimension(s)" },
    },
  },
  ["tf.math.reduce_min"] = {
    example = [[
local x = tf.constant({{1, 2}, {3, 4}})
print(tf.math.reduce_min(x))
print(tf.math.reduce_min(x, 1))
]],
    output = [[
tf.Tensor(1, shape=(), dtype=int32)
tf.Tensor([1 3], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.math.reduce_min(tf.constant({{1, 2}, {3, 4}}), 2)]], type = "InvalidArgumentError", message = "Invalid reduction dimension (2 for input with 2 dimension(s)" },
    },
  },
  ["tf.math.reduce_prod"] = {
    example = [[
local x = tf.constant({{1, 2}, {3, 4}})
print(tf.math.reduce_prod(x))
print(tf.math.reduce_prod(x, 1))
]],
    output = [[
tf.Tensor(24, shape=(), dtype=int32)
tf.Tensor([ 2 12], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.math.reduce_prod(tf.constant({{1, 2}, {3, 4}}), 2)]], type = "InvalidArgumentError", message = "Invalid reduction dimension (2 for input with 2 dimension(s)" },
    },
  },
  ["tf.math.reduce_std"] = {
    example = [[
local x = tf.constant({{1.0, 2.0}, {3.0, 4.0}})
print(tf.math.reduce_std(x))
print(tf.math.reduce_std(x, 1))
]],
    output = [[
tf.Tensor(1.118034, shape=(), dtype=float32)
tf.Tensor([0.5 0.5], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.reduce_std(tf.constant({{1.0, 2.0}, {3.0, 4.0}}), 2)]], type = "InvalidArgumentError", message = "Invalid reduction dimension (2 for input with 2 dimension(s)" },
      { code = [[tf.math.reduce_std(tf.constant({1, 2}))]], type = "TypeError", message = "Input must be either real or complex." },
    },
  },
  ["tf.math.reduce_sum"] = {
    example = [[
local x = tf.constant({{1, 2}, {3, 4}})
print(tf.math.reduce_sum(x))
print(tf.math.reduce_sum(x, 1))
]],
    output = [[
tf.Tensor(10, shape=(), dtype=int32)
tf.Tensor([3 7], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.math.reduce_sum(tf.constant({{1, 2}, {3, 4}}), 2)]], type = "InvalidArgumentError", message = "Invalid reduction dimension (2 for input with 2 dimension(s)" },
    },
  },
  ["tf.math.reduce_variance"] = {
    example = [[
local x = tf.constant({{1.0, 2.0}, {3.0, 4.0}})
print(tf.math.reduce_variance(x))
print(tf.math.reduce_variance(x, 1))
]],
    output = [[
tf.Tensor(1.25, shape=(), dtype=float32)
tf.Tensor([0.25 0.25], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.reduce_variance(tf.constant({{1.0, 2.0}, {3.0, 4.0}}), 2)]], type = "InvalidArgumentError", message = "Invalid reduction dimension (2 for input with 2 dimension(s)" },
      { code = [[tf.math.reduce_variance(tf.constant({1, 2}))]], type = "TypeError", message = "Input must be either real or complex." },
    },
  },
  ["tf.math.segment_sum"] = {
    example = [[
print(tf.math.segment_sum(tf.constant({1, 2, 3, 4}), tf.constant({0, 0, 1, 1})))
]],
    output = [[
tf.Tensor([3 7], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.math.segment_sum(tf.constant({1, 2}), tf.constant({1, 0}))]], type = "InvalidArgumentError", message = "segment ids are not increasing" },
      { code = [[tf.math.segment_sum(tf.constant({1, 2}), tf.constant({0}))]], type = "InvalidArgumentError", message = "segment_ids should be the same size as dimension 0 of input." },
    },
  },
  ["tf.math.top_k"] = {
    example = [[
local values, indices = tf.math.top_k(tf.constant({1.0, 5.0, 3.0}), 2)
print(values)
print(indices)
]],
    output = [[
tf.Tensor([5. 3.], shape=(2,), dtype=float32)
tf.Tensor([1 2], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.math.top_k(tf.constant({1.0, 2.0}), 3)]], type = "InvalidArgumentError", message = "input must have at least k columns. Had 2, needed 3" },
    },
  },
  ["tf.math.unsorted_segment_sum"] = {
    example = [[
print(tf.math.unsorted_segment_sum(tf.constant({1, 2, 3, 4}), tf.constant({1, 0, 1, 0}), 2))
]],
    output = [[
tf.Tensor([6 4], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.math.unsorted_segment_sum(tf.constant({1, 2}), tf.constant({0, 5}), 2)]], type = "InvalidArgumentError", message = "segment_ids[1] = 5 is out of range [0, 2)" },
    },
  },
}
