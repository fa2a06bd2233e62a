-- tf's elementwise math, comparisons, reductions and matrix products: examples and errors for the reference (docs/reference.md and %help).
return {
  ["tf.abs"] = {
    example = [[
print(tf.abs(tf.constant({-2.25, 3.25})))
]],
    output = [[
tf.Tensor([2.25 3.25], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.abs(tf.constant({true, false}))]], type = "InvalidArgumentError", message = "Abs expects a float32, float64, int32 or int64 tensor for input" },
    },
  },
  ["tf.acos"] = {
    example = [[
print(tf.acos(tf.constant({1.0, 0.0})))
]],
    output = [[
tf.Tensor([0.        1.5707964], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.acos(tf.constant({true, false}))]], type = "InvalidArgumentError", message = "Acos expects a float32 or float64 tensor for input #0(zero-based), got" },
    },
  },
  ["tf.acosh"] = {
    example = [[
print(tf.acosh(tf.constant({1.0, 2.0})))
]],
    output = [[
tf.Tensor([0.       1.316958], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.acosh(tf.constant({true, false}))]], type = "InvalidArgumentError", message = "Acosh expects a float32 or float64 tensor for input #0(zero-based), got" },
    },
  },
  ["tf.add"] = {
    example = [[
print(tf.add(tf.constant({1, 2}), tf.constant({10, 20})))
]],
    output = [[
tf.Tensor([11 22], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.add(tf.constant({1, 2, 3}), tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [3] vs. [2]" },
    },
  },
  ["tf.add_n"] = {
    example = [[
print(tf.add_n({tf.constant({1, 2}), tf.constant({3, 4}), tf.constant({5, 6})}))
]],
    output = [[
tf.Tensor([ 9 12], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.add_n({})]], type = "ValueError", message = "Inputs must be an iterable of at least one Tensor/IndexedSlices with" },
      { code = [[tf.add_n({tf.constant({1, 2}), tf.constant({1.0, 2.0})})]], type = "InvalidArgumentError", message = "cannot compute AddN as input #1(zero-based) was expected to be a int32" },
    },
  },
  ["tf.argmax"] = {
    example = [[
print(tf.argmax(tf.constant({{1, 9, 3}, {7, 2, 8}}), 1))
]],
    output = [[
tf.Tensor([1 2], shape=(2,), dtype=int64)
]],
    errors = {
      { code = [[tf.argmax(tf.constant({1, 2}), 3)]], type = "InvalidArgumentError", message = "Expected dimension in the range [-1, 1), but got 3" },
    },
  },
  ["tf.argmin"] = {
    example = [[
print(tf.argmin(tf.constant({{1, 9, 3}, {7, 2, 8}}), 0))
]],
    output = [[
tf.Tensor([0 1 0], shape=(3,), dtype=int64)
]],
    errors = {
      { code = [[tf.argmin(tf.constant({1, 2}), 3)]], type = "InvalidArgumentError", message = "Expected dimension in the range [-1, 1), but got 3" },
    },
  },
  ["tf.asin"] = {
    example = [[
print(tf.asin(tf.constant({0.0, 1.0})))
]],
    output = [[
tf.Tensor([0.        1.5707964], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.asin(tf.constant({true, false}))]], type = "InvalidArgumentError", message = "Asin expects a float32 or float64 tensor for input #0(zero-based), got" },
    },
  },
  ["tf.asinh"] = {
    example = [[
print(tf.asinh(tf.constant({0.0, 1.0})))
]],
    output = [[
tf.Tensor([0.        0.8813736], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.asinh(tf.constant({true, false}))]], type = "InvalidArgumentError", message = "Asinh expects a float32 or float64 tensor for input #0(zero-based), got" },
    },
  },
  ["tf.atan"] = {
    example = [[
print(tf.atan(tf.constant({0.0, 1.0})))
]],
    output = [[
tf.Tensor([0.        0.7853982], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.atan(tf.constant({true, false}))]], type = "InvalidArgumentError", message = "Atan expects a float32 or float64 tensor for input #0(zero-based), got" },
    },
  },
  ["tf.atan2"] = {
    example = [[
print(tf.atan2(tf.constant({1.0, -1.0}), tf.constant({1.0, 1.0})))
]],
    output = [[
tf.Tensor([ 0.7853982 -0.7853982], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.atan2(tf.constant({1, 2}), tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Atan2 expects a float32 or float64 tensor for input #0(zero-based), got" },
    },
  },
  ["tf.atanh"] = {
    example = [[
print(tf.atanh(tf.constant({0.0, 0.5})))
]],
    output = [[
tf.Tensor([0.         0.54930615], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.atanh(tf.constant({true, false}))]], type = "InvalidArgumentError", message = "Atanh expects a float32 or float64 tensor for input #0(zero-based), got" },
    },
  },
  ["tf.ceil"] = {
    example = [[
print(tf.ceil(tf.constant({1.2, -1.2})))
]],
    output = [[
tf.Tensor([ 2. -1.], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.ceil(tf.constant({true, false}))]], type = "InvalidArgumentError", message = "Ceil expects a float32 or float64 tensor for input #0(zero-based), got" },
    },
  },
  ["tf.clip_by_global_norm"] = {
    example = [[
local clipped, norm = tf.clip_by_global_norm({tf.constant({3.0, 4.0})}, 1.0)
print(clipped[1])
print(norm)
]],
    output = [[
tf.Tensor([0.6 0.8], shape=(2,), dtype=float32)
tf.Tensor(5.0, shape=(), dtype=float32)
]],
    errors = {
      { code = [[tf.clip_by_global_norm(tf.constant({3.0, 4.0}), 1.0)]], type = "TypeError", message = "tf.clip_by_global_norm: `t_list` should be a sequence of tensors." },
    },
  },
  ["tf.clip_by_norm"] = {
    example = [[
print(tf.clip_by_norm(tf.constant({3.0, 4.0}), 1.0))
]],
    output = [[
tf.Tensor([0.6 0.8], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.clip_by_norm(tf.constant({1, 2}), 1.0)]], type = "InvalidArgumentError", message = "Sqrt expects a float32 or float64 tensor for input #0(zero-based), got" },
    },
  },
  ["tf.clip_by_value"] = {
    example = [[
print(tf.clip_by_value(tf.constant({-2, 0, 5}), -1, 3))
]],
    output = [[
tf.Tensor([-1  0  3], shape=(3,), dtype=int32)
]],
    errors = {
      { code = [[tf.clip_by_value(tf.constant({1, 2}), tf.constant({0, 0, 0}), 1)]], type = "InvalidArgumentError", message = "Incompatible shapes: [2] vs. [3]" },
    },
  },
  ["tf.cos"] = {
    example = [[
print(tf.cos(tf.constant({0.0, 3.1415927})))
]],
    output = [[
tf.Tensor([ 1. -1.], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.cos(tf.constant({true, false}))]], type = "InvalidArgumentError", message = "Cos expects a float32 or float64 tensor for input #0(zero-based), got" },
    },
  },
  ["tf.cosh"] = {
    example = [[
print(tf.cosh(tf.constant({0.0, 1.0})))
]],
    output = [[
tf.Tensor([1.        1.5430807], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.cosh(tf.constant({true, false}))]], type = "InvalidArgumentError", message = "Cosh expects a float32 or float64 tensor for input #0(zero-based), got" },
    },
  },
  ["tf.cumsum"] = {
    example = [[
print(tf.cumsum(tf.constant({1, 2, 3})))
print(tf.cumsum(tf.constant({1, 2, 3}), 0, { exclusive = true, reverse = true }))
]],
    output = [[
tf.Tensor([1 3 6], shape=(3,), dtype=int32)
tf.Tensor([5 3 0], shape=(3,), dtype=int32)
]],
    errors = {
      { code = [[tf.cumsum(tf.constant({1, 2}), 1)]], type = "InvalidArgumentError", message = "ScanOp: Expected scan axis in the range [-1, 1), but got 1" },
    },
  },
  ["tf.divide"] = {
    example = [[
print(tf.divide(tf.constant({6.0, 7.0}), tf.constant({2.0, 2.0})))
]],
    output = [[
tf.Tensor([3.  3.5], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.divide(tf.constant({1, 2, 3}), tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [3] vs. [2]" },
    },
  },
  ["tf.einsum"] = {
    example = [[
print(tf.einsum("ij,jk->ik", tf.constant({{1, 2}}), tf.constant({{3}, {4}})))
]],
    output = [=[
tf.Tensor([[11]], shape=(1, 1), dtype=int32)
]=],
    errors = {
      { code = [[tf.einsum("ij,jk->ik", tf.constant({{1, 2}}), tf.constant({{3, 4}}))]], type = "InvalidArgumentError", message = "Expected dimension 2 at axis 0 of the input shaped [1,2] but got" },
    },
  },
  ["tf.equal"] = {
    example = [[
print(tf.equal(tf.constant({1, 2, 3}), tf.constant({1, 0, 3})))
]],
    output = [[
tf.Tensor([ True False  True], shape=(3,), dtype=bool)
]],
    errors = {
      { code = [[tf.equal(tf.constant({1, 2, 3}), tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [3] vs. [2]" },
    },
  },
  ["tf.exp"] = {
    example = [[
print(tf.exp(tf.constant({0.0, 1.0})))
]],
    output = [[
tf.Tensor([1.        2.7182817], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.exp(tf.constant({true, false}))]], type = "InvalidArgumentError", message = "Exp expects a float32 or float64 tensor for input #0(zero-based), got" },
    },
  },
  ["tf.floor"] = {
    example = [[
print(tf.floor(tf.constant({1.8, -1.2})))
]],
    output = [[
tf.Tensor([ 1. -2.], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.floor(tf.constant({true, false}))]], type = "InvalidArgumentError", message = "Floor expects a float32 or float64 tensor for input #0(zero-based), got" },
    },
  },
  ["tf.floordiv"] = {
    example = [[
print(tf.floordiv(tf.constant({7, -7}), tf.constant({2, 2})))
]],
    output = [[
tf.Tensor([ 3 -4], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.floordiv(tf.constant({1, 2, 3}), tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [3] vs. [2]" },
    },
  },
  ["tf.floormod"] = {
    example = [[
print(tf.floormod(tf.constant({7, -7}), tf.constant({3, 3})))
]],
    output = [[
tf.Tensor([1 2], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.floormod(tf.constant({1, 2, 3}), tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [3] vs. [2]" },
    },
  },
  ["tf.greater"] = {
    example = [[
print(tf.greater(tf.constant({1, 5}), tf.constant({3, 3})))
]],
    output = [[
tf.Tensor([False  True], shape=(2,), dtype=bool)
]],
    errors = {
      { code = [[tf.greater(tf.constant({1, 2, 3}), tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [3] vs. [2]" },
    },
  },
  ["tf.greater_equal"] = {
    example = [[
print(tf.greater_equal(tf.constant({1, 3}), tf.constant({3, 3})))
]],
    output = [[
tf.Tensor([False  True], shape=(2,), dtype=bool)
]],
    errors = {
      { code = [[tf.greater_equal(tf.constant({1, 2, 3}), tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [3] vs. [2]" },
    },
  },
  ["tf.less"] = {
    example = [[
print(tf.less(tf.constant({1, 5}), tf.constant({3, 3})))
]],
    output = [[
tf.Tensor([ True False], shape=(2,), dtype=bool)
]],
    errors = {
      { code = [[tf.less(tf.constant({1, 2, 3}), tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [3] vs. [2]" },
    },
  },
  ["tf.less_equal"] = {
    example = [[
print(tf.less_equal(tf.constant({1, 3}), tf.constant({3, 3})))
]],
    output = [[
tf.Tensor([ True  True], shape=(2,), dtype=bool)
]],
    errors = {
      { code = [[tf.less_equal(tf.constant({1, 2, 3}), tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [3] vs. [2]" },
    },
  },
  ["tf.log"] = {
    example = [[
print(tf.log(tf.constant({1.0, 2.7182817})))
]],
    output = [[
tf.Tensor([0. 1.], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.log(tf.constant({true, false}))]], type = "InvalidArgumentError", message = "Log expects a float32 or float64 tensor for input #0(zero-based), got" },
    },
  },
  ["tf.log1p"] = {
    example = [[
print(tf.log1p(tf.constant({0.0, 1.0})))
]],
    output = [[
tf.Tensor([0.        0.6931472], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.log1p(tf.constant({true, false}))]], type = "InvalidArgumentError", message = "Log1p expects a float32 or float64 tensor for input #0(zero-based), got" },
    },
  },
  ["tf.logical_and"] = {
    example = [[
print(tf.logical_and(tf.constant({true, true}), tf.constant({true, false})))
]],
    output = [[
tf.Tensor([ True False], shape=(2,), dtype=bool)
]],
    errors = {
      { code = [[tf.logical_and(tf.constant({1, 0}), tf.constant({1, 1}))]], type = "InvalidArgumentError", message = "LogicalAnd expects a bool tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.logical_not"] = {
    example = [[
print(tf.logical_not(tf.constant({true, false})))
]],
    output = [[
tf.Tensor([False  True], shape=(2,), dtype=bool)
]],
    errors = {
      { code = [[tf.logical_not(tf.constant({1, 0}))]], type = "InvalidArgumentError", message = "LogicalNot expects a bool tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.logical_or"] = {
    example = [[
print(tf.logical_or(tf.constant({true, false}), tf.constant({false, false})))
]],
    output = [[
tf.Tensor([ True False], shape=(2,), dtype=bool)
]],
    errors = {
      { code = [[tf.logical_or(tf.constant({1, 0}), tf.constant({1, 1}))]], type = "InvalidArgumentError", message = "LogicalOr expects a bool tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.matmul"] = {
    example = [[
print(tf.matmul(tf.constant({{1, 2}, {3, 4}}), tf.constant({{5}, {6}})))
]],
    output = [=[
tf.Tensor(
[[17]
 [39]], shape=(2, 1), dtype=int32)
]=],
    errors = {
      { code = [[tf.matmul(tf.constant({{1, 2}}), tf.constant({{1, 2}}))]], type = "InvalidArgumentError", message = "Matrix size-incompatible: In[0]: [1,2], In[1]: [1,2]" },
      { code = [[tf.matmul(tf.constant({{1, 2}}), tf.constant({{1.0}, {2.0}}))]], type = "InvalidArgumentError", message = "cannot compute MatMul as input #1(zero-based) was expected to be a" },
    },
  },
  ["tf.maximum"] = {
    example = [[
print(tf.maximum(tf.constant({1, 5}), tf.constant({3, 3})))
]],
    output = [[
tf.Tensor([3 5], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.maximum(tf.constant({1, 2, 3}), tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [3] vs. [2]" },
    },
  },
  ["tf.minimum"] = {
    example = [[
print(tf.minimum(tf.constant({1, 5}), tf.constant({3, 3})))
]],
    output = [[
tf.Tensor([1 3], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.minimum(tf.constant({1, 2, 3}), tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [3] vs. [2]" },
    },
  },
  ["tf.mod"] = {
    example = [[
print(tf.mod(tf.constant({7, -7}), tf.constant({3, 3})))
]],
    output = [[
tf.Tensor([1 2], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.mod(tf.constant({1, 2, 3}), tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [3] vs. [2]" },
    },
  },
  ["tf.multiply"] = {
    example = [[
print(tf.multiply(tf.constant({1, 2}), tf.constant({10, 20})))
]],
    output = [[
tf.Tensor([10 40], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.multiply(tf.constant({1, 2, 3}), tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [3] vs. [2]" },
    },
  },
  ["tf.negative"] = {
    example = [[
print(tf.negative(tf.constant({1, -2})))
]],
    output = [[
tf.Tensor([-1  2], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.negative(tf.constant({true}))]], type = "InvalidArgumentError", message = "Neg expects a float32, float64, int32 or int64 tensor for input" },
    },
  },
  ["tf.norm"] = {
    example = [[
print(tf.norm(tf.constant({3.0, 4.0})))
]],
    output = [[
tf.Tensor(5.0, shape=(), dtype=float32)
]],
    errors = {
      { code = [[tf.norm(tf.constant({3.0, 4.0}), "fro", 0)]], type = "ValueError", message = "'ord' must be a supported vector norm, got fro" },
    },
  },
  ["tf.not_equal"] = {
    example = [[
print(tf.not_equal(tf.constant({1, 2, 3}), tf.constant({1, 0, 3})))
]],
    output = [[
tf.Tensor([False  True False], shape=(3,), dtype=bool)
]],
    errors = {
      { code = [[tf.not_equal(tf.constant({1, 2, 3}), tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [3] vs. [2]" },
    },
  },
  ["tf.pow"] = {
    example = [[
print(tf.pow(tf.constant({2, 3}), tf.constant({3, 2})))
]],
    output = [[
tf.Tensor([8 9], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.pow(tf.constant({1, 2, 3}), tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [3] vs. [2]" },
    },
  },
  ["tf.realdiv"] = {
    example = [[
print(tf.realdiv(tf.constant({6.0, 7.0}), tf.constant({2.0, 2.0})))
]],
    output = [[
tf.Tensor([3.  3.5], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.realdiv(tf.constant({1, 2, 3}), tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [3] vs. [2]" },
    },
  },
  ["tf.reciprocal"] = {
    example = [[
print(tf.reciprocal(tf.constant({2.0, 4.0})))
]],
    output = [[
tf.Tensor([0.5  0.25], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.reciprocal(tf.constant({true}))]], type = "InvalidArgumentError", message = "Reciprocal expects a float32 or float64 tensor for input" },
    },
  },
  ["tf.reduce_all"] = {
    example = [[
print(tf.reduce_all(tf.constant({{true, false}, {true, true}}), 1))
]],
    output = [[
tf.Tensor([False  True], shape=(2,), dtype=bool)
]],
    errors = {
      { code = [[tf.reduce_all(tf.constant({1, 0}))]], type = "InvalidArgumentError", message = "All expects a bool tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.reduce_any"] = {
    example = [[
print(tf.reduce_any(tf.constant({{true, false}, {false, false}}), 1))
]],
    output = [[
tf.Tensor([ True False], shape=(2,), dtype=bool)
]],
    errors = {
      { code = [[tf.reduce_any(tf.constant({1, 0}))]], type = "InvalidArgumentError", message = "Any expects a bool tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.reduce_logsumexp"] = {
    example = [[
print(tf.reduce_logsumexp(tf.constant({0.0, 0.0})))
]],
    output = [[
tf.Tensor(0.6931472, shape=(), dtype=float32)
]],
    errors = {
      { code = [[tf.reduce_logsumexp(tf.constant({1.0}), 2)]], type = "InvalidArgumentError", message = "Invalid reduction dimension (2 for input with 1 dimension(s)" },
    },
  },
  ["tf.reduce_max"] = {
    example = [[
print(tf.reduce_max(tf.constant({{1, 5}, {7, 2}}), 0))
]],
    output = [[
tf.Tensor([7 5], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.reduce_max(tf.constant({1, 2}), 1)]], type = "InvalidArgumentError", message = "Invalid reduction dimension (1 for input with 1 dimension(s)" },
    },
  },
  ["tf.reduce_mean"] = {
    example = [[
print(tf.reduce_mean(tf.constant({{1.0, 2.0}, {3.0, 4.0}})))
print(tf.reduce_mean(tf.constant({1, 2})))
]],
    output = [[
tf.Tensor(2.5, shape=(), dtype=float32)
tf.Tensor(1, shape=(), dtype=int32)
]],
    errors = {
      { code = [[tf.reduce_mean(tf.constant({1.0, 2.0}), 1)]], type = "InvalidArgumentError", message = "Invalid reduction dimension (1 for input with 1 dimension(s)" },
    },
  },
  ["tf.reduce_min"] = {
    example = [[
print(tf.reduce_min(tf.constant({{1, 5}, {7, 2}}), 1, true))
]],
    output = [=[
tf.Tensor(
[[1]
 [2]], shape=(2, 1), dtype=int32)
]=],
    errors = {
      { code = [[tf.reduce_min(tf.constant({1, 2}), -2)]], type = "InvalidArgumentError", message = "Invalid reduction dimension (-2 for input with 1 dimension(s)" },
    },
  },
  ["tf.reduce_prod"] = {
    example = [[
print(tf.reduce_prod(tf.constant({{1, 2}, {3, 4}}), 1))
]],
    output = [[
tf.Tensor([ 2 12], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.reduce_prod(tf.constant({1, 2}), 1)]], type = "InvalidArgumentError", message = "Invalid reduction dimension (1 for input with 1 dimension(s)" },
    },
  },
  ["tf.reduce_sum"] = {
    example = [[
print(tf.reduce_sum(tf.constant({{1, 2}, {3, 4}})))
print(tf.reduce_sum(tf.constant({{1, 2}, {3, 4}}), 0))
]],
    output = [[
tf.Tensor(10, shape=(), dtype=int32)
tf.Tensor([4 6], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.reduce_sum(tf.constant({1, 2}), 1)]], type = "InvalidArgumentError", message = "Invalid reduction dimension (1 for input with 1 dimension(s)" },
    },
  },
  ["tf.round"] = {
    example = [[
print(tf.round(tf.constant({0.5, 1.5, 2.6})))
]],
    output = [[
tf.Tensor([0. 2. 3.], shape=(3,), dtype=float32)
]],
    errors = {
      { code = [[tf.round(tf.constant({true, false}))]], type = "InvalidArgumentError", message = "Round expects a float32, float64, int32 or int64 tensor for input" },
    },
  },
  ["tf.rsqrt"] = {
    example = [[
print(tf.rsqrt(tf.constant({4.0, 16.0})))
]],
    output = [[
tf.Tensor([0.5  0.25], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.rsqrt(tf.constant({true, false}))]], type = "InvalidArgumentError", message = "Rsqrt expects a float32 or float64 tensor for input #0(zero-based), got" },
    },
  },
  ["tf.sigmoid"] = {
    example = [[
print(tf.sigmoid(tf.constant({0.0})))
]],
    output = [[
tf.Tensor([0.5], shape=(1,), dtype=float32)
]],
    errors = {
      { code = [[tf.sigmoid(tf.constant({true, false}))]], type = "InvalidArgumentError", message = "Sigmoid expects a float32 or float64 tensor for input #0(zero-based)," },
    },
  },
  ["tf.sign"] = {
    example = [[
print(tf.sign(tf.constant({-2.0, 0.0, 3.0})))
]],
    output = [[
tf.Tensor([-1.  0.  1.], shape=(3,), dtype=float32)
]],
    errors = {
      { code = [[tf.sign(tf.constant({true, false}))]], type = "InvalidArgumentError", message = "Sign expects a float32, float64, int32 or int64 tensor for input" },
    },
  },
  ["tf.sin"] = {
    example = [[
print(tf.sin(tf.constant({0.0, 1.5707964})))
]],
    output = [[
tf.Tensor([0. 1.], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.sin(tf.constant({true, false}))]], type = "InvalidArgumentError", message = "Sin expects a float32 or float64 tensor for input #0(zero-based), got" },
    },
  },
  ["tf.sinh"] = {
    example = [[
print(tf.sinh(tf.constant({0.0, 1.0})))
]],
    output = [[
tf.Tensor([0.        1.1752012], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.sinh(tf.constant({true, false}))]], type = "InvalidArgumentError", message = "Sinh expects a float32 or float64 tensor for input #0(zero-based), got" },
    },
  },
  ["tf.sqrt"] = {
    example = [[
print(tf.sqrt(tf.constant({4.0, 9.0})))
]],
    output = [[
tf.Tensor([2. 3.], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.sqrt(tf.constant({true, false}))]], type = "InvalidArgumentError", message = "Sqrt expects a float32 or float64 tensor for input #0(zero-based), got" },
    },
  },
  ["tf.square"] = {
    example = [[
print(tf.square(tf.constant({2, -3})))
]],
    output = [[
tf.Tensor([4 9], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.square(tf.constant({true, false}))]], type = "InvalidArgumentError", message = "Square expects a float32, float64, int32 or int64 tensor for input" },
    },
  },
  ["tf.subtract"] = {
    example = [[
print(tf.subtract(tf.constant({10, 20}), tf.constant({1, 2})))
]],
    output = [[
tf.Tensor([ 9 18], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.subtract(tf.constant({1, 2, 3}), tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [3] vs. [2]" },
    },
  },
  ["tf.tan"] = {
    example = [[
print(tf.tan(tf.constant({0.0, 0.7853982})))
]],
    output = [[
tf.Tensor([0. 1.], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.tan(tf.constant({true, false}))]], type = "InvalidArgumentError", message = "Tan expects a float32 or float64 tensor for input #0(zero-based), got" },
    },
  },
  ["tf.tanh"] = {
    example = [[
print(tf.tanh(tf.constant({0.0, 1.0})))
]],
    output = [[
tf.Tensor([0.        0.7615941], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.tanh(tf.constant({true, false}))]], type = "InvalidArgumentError", message = "Tanh expects a float32 or float64 tensor for input #0(zero-based), got" },
    },
  },
  ["tf.truediv"] = {
    example = [[
print(tf.truediv(tf.constant({6, 7}), tf.constant({2, 2})))
]],
    output = [[
tf.Tensor([3.  3.5], shape=(2,), dtype=float64)
]],
    errors = {
      { code = [[tf.truediv(tf.constant({1, 2, 3}), tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [3] vs. [2]" },
    },
  },
  ["tf.truncatediv"] = {
    example = [[
print(tf.truncatediv(tf.constant({7, -7}), tf.constant({2, 2})))
]],
    output = [[
tf.Tensor([ 3 -3], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.truncatediv(tf.constant({1, 2, 3}), tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [3] vs. [2]" },
    },
  },
  ["tf.truncatemod"] = {
    example = [[
print(tf.truncatemod(tf.constant({7, -7}), tf.constant({3, 3})))
]],
    output = [[
tf.Tensor([ 1 -1], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.truncatemod(tf.constant({1, 2, 3}), tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [3] vs. [2]" },
    },
  },
}
