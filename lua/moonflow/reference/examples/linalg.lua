-- linalg: examples and errors for the reference (docs/reference.md and %help).
return {
  ["tf.linalg.adjoint"] = {
    example = [[
print(tf.linalg.adjoint(tf.constant({{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}})))
]],
    output = [=[
tf.Tensor(
[[1. 4.]
 [2. 5.]
 [3. 6.]], shape=(3, 2), dtype=float32)
]=],
    errors = {
      { code = [[tf.linalg.adjoint(tf.constant({1.0, 2.0}))]], type = "ValueError", message = "Argument `a` should be a (batch) matrix with rank >= 2.  Received `a` = tf.Tensor([1. 2.]," },
    },
  },
  ["tf.linalg.cholesky"] = {
    example = [[
print(tf.linalg.cholesky(tf.constant({{4.0, 2.0}, {2.0, 2.0}})))
]],
    output = [=[
tf.Tensor(
[[2. 0.]
 [1. 1.]], shape=(2, 2), dtype=float32)
]=],
    errors = {
      { code = [[tf.linalg.cholesky(tf.constant({{1.0, 2.0, 3.0}}))]], type = "InvalidArgumentError", message = "Input matrix must be square." },
      { code = [[tf.linalg.cholesky(tf.constant({{1, 0}, {0, 1}}))]], type = "InvalidArgumentError", message = "Cholesky expects a float tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.linalg.det"] = {
    example = [[
print(tf.linalg.det(tf.constant({{1.0, 2.0}, {3.0, 4.0}})))
]],
    output = [[
tf.Tensor(-2.0, shape=(), dtype=float32)
]],
    errors = {
      { code = [[tf.linalg.det(tf.constant({{1.0, 2.0, 3.0}}))]], type = "InvalidArgumentError", message = "Input matrix must be square." },
    },
  },
  ["tf.linalg.einsum"] = {
    example = [[
local a = tf.constant({{1.0, 2.0}, {3.0, 4.0}})
local b = tf.constant({{5.0, 6.0}, {7.0, 8.0}})
print(tf.linalg.einsum("ij,jk->ik", a, b))
]],
    output = [=[
tf.Tensor(
[[19. 22.]
 [43. 50.]], shape=(2, 2), dtype=float32)
]=],
    errors = {
      { code = [[tf.linalg.einsum("ij,jk->ik", tf.constant({{1.0, 2.0}}), tf.constant({{1.0, 2.0}}))]], type = "InvalidArgumentError", message = "Expected dimension 2 at axis 0 of the input shaped [1,2] but got dimension 1" },
      { code = [[tf.linalg.einsum("ij->ik", tf.constant({{1.0, 2.0}}))]], type = "InvalidArgumentError", message = "Output subscripts name a label no input has in einsum equation: ij->ik" },
    },
  },
  ["tf.linalg.global_norm"] = {
    example = [[
print(tf.linalg.global_norm({tf.constant({3.0}), tf.constant({{4.0}})}))
]],
    output = [[
tf.Tensor(5.0, shape=(), dtype=float32)
]],
    errors = {
      { code = [[tf.linalg.global_norm(tf.constant({3.0, 4.0}))]], type = "TypeError", message = "tf.linalg.global_norm: `t_list` should be a sequence of tensors. Received a tensor." },
    },
  },
  ["tf.linalg.inv"] = {
    example = [[
print(tf.linalg.inv(tf.constant({{2.0, 0.0}, {0.0, 4.0}})))
]],
    output = [=[
tf.Tensor(
[[0.5  0.  ]
 [0.   0.25]], shape=(2, 2), dtype=float32)
]=],
    errors = {
      { code = [[tf.linalg.inv(tf.constant({{1.0, 2.0}, {2.0, 4.0}}))]], type = "InvalidArgumentError", message = "Input is not invertible." },
      { code = [[tf.linalg.inv(tf.constant({{1.0, 2.0, 3.0}}))]], type = "InvalidArgumentError", message = "Input matrix must be square." },
    },
  },
  ["tf.linalg.l2_normalize"] = {
    example = [[
print(tf.linalg.l2_normalize(tf.constant({3.0, 4.0})))
]],
    output = [[
tf.Tensor([0.6 0.8], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.linalg.l2_normalize(tf.constant({3, 4}))]], type = "TypeError", message = "Cannot convert 1e-12 to EagerTensor of dtype int32" },
    },
  },
  ["tf.linalg.matmul"] = {
    example = [[
local a = tf.constant({{1.0, 2.0}, {3.0, 4.0}})
print(tf.linalg.matmul(a, a))
print(tf.linalg.matmul(a, a, {transpose_b = true}))
]],
    output = [=[
tf.Tensor(
[[ 7. 10.]
 [15. 22.]], shape=(2, 2), dtype=float32)
tf.Tensor(
[[ 5. 11.]
 [11. 25.]], shape=(2, 2), dtype=float32)
]=],
    errors = {
      { code = [[tf.linalg.matmul(tf.constant({{1.0, 2.0}}), tf.constant({{1.0, 2.0}}))]], type = "InvalidArgumentError", message = "Matrix size-incompatible: In[0]: [1,2], In[1]: [1,2]" },
      { code = [[tf.linalg.matmul(tf.constant({{1.0}}), tf.constant({{1}}))]], type = "InvalidArgumentError", message = "cannot compute MatMul as input #1(zero-based) was expected to be a float tensor but is a int32" },
    },
  },
  ["tf.linalg.matrix_transpose"] = {
    example = [[
print(tf.linalg.matrix_transpose(tf.constant({{1, 2, 3}, {4, 5, 6}})))
]],
    output = [=[
tf.Tensor(
[[1 4]
 [2 5]
 [3 6]], shape=(3, 2), dtype=int32)
]=],
    errors = {
      { code = [[tf.linalg.matrix_transpose(tf.constant({1, 2, 3}))]], type = "ValueError", message = "Argument `a` should be a (batch) matrix with rank >= 2.  Received `a` = tf.Tensor([1 2 3]," },
    },
  },
  ["tf.linalg.norm"] = {
    example = [[
local x = tf.constant({{3.0, 4.0}, {6.0, 8.0}})
print(tf.linalg.norm(x))
print(tf.linalg.norm(x, "euclidean", 1))
]],
    output = [[
tf.Tensor(11.18034, shape=(), dtype=float32)
tf.Tensor([ 5. 10.], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.linalg.norm(tf.constant({3.0, 4.0}), "nuclear")]], type = "ValueError", message = "'ord' must be a supported vector norm, got nuclear" },
    },
  },
  ["tf.linalg.solve"] = {
    example = [[
local a = tf.constant({{2.0, 0.0}, {0.0, 4.0}})
print(tf.linalg.solve(a, tf.constant({{2.0}, {8.0}})))
]],
    output = [=[
tf.Tensor(
[[1.]
 [2.]], shape=(2, 1), dtype=float32)
]=],
    errors = {
      { code = [[tf.linalg.solve(tf.constant({{1.0, 2.0}, {2.0, 4.0}}), tf.constant({{1.0}, {1.0}}))]], type = "InvalidArgumentError", message = "Input matrix is not invertible." },
      { code = [[tf.linalg.solve(tf.constant({{1.0, 0.0}, {0.0, 1.0}}), tf.constant({{1.0}, {1.0}, {1.0}}))]], type = "InvalidArgumentError", message = "Input matrix and rhs are incompatible." },
    },
  },
}
