-- tf's shapes, indexing, slicing, joining, sorting and making arrays: examples and errors for the reference (docs/reference.md and %help).
return {
  ["tf.argsort"] = {
    example = [[
print(tf.argsort(tf.constant({30, 10, 20})))
print(tf.argsort(tf.constant({30, 10, 20}), { direction = "DESCENDING" }))
]],
    output = [[
tf.Tensor([1 2 0], shape=(3,), dtype=int32)
tf.Tensor([0 2 1], shape=(3,), dtype=int32)
]],
    errors = {
      { code = [[tf.argsort(tf.constant({1, 2}), { direction = "UP" })]], type = "ValueError", message = "Argument `direction` should be one of ASCENDING, DESCENDING. Received:" },
    },
  },
  ["tf.boolean_mask"] = {
    example = [[
print(tf.boolean_mask(tf.constant({1, 2, 3, 4}), tf.constant({true, false, true, false})))
]],
    output = [[
tf.Tensor([1 3], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.boolean_mask(tf.constant({1, 2, 3}), tf.constant({true, false}))]], type = "ValueError", message = "Shapes (3,) and (2,) are incompatible" },
    },
  },
  ["tf.broadcast_to"] = {
    example = [[
print(tf.broadcast_to(tf.constant({1, 2, 3}), {2, 3}))
]],
    output = [=[
tf.Tensor(
[[1 2 3]
 [1 2 3]], shape=(2, 3), dtype=int32)
]=],
    errors = {
      { code = [[tf.broadcast_to(tf.constant({1, 2, 3}), {2, 2})]], type = "InvalidArgumentError", message = "Incompatible shapes: [3] vs. [2,2]" },
    },
  },
  ["tf.concat"] = {
    example = [[
print(tf.concat({tf.constant({{1, 2}}), tf.constant({{3, 4}})}, 0))
]],
    output = [=[
tf.Tensor(
[[1 2]
 [3 4]], shape=(2, 2), dtype=int32)
]=],
    errors = {
      { code = [[tf.concat({tf.constant({{1, 2}}), tf.constant({{3, 4, 5}})}, 0)]], type = "InvalidArgumentError", message = "ConcatOp : Dimension 1 in both shapes must be equal: shape[0] = [1,2]" },
    },
  },
  ["tf.expand_dims"] = {
    example = [[
print(tf.expand_dims(tf.constant({1, 2}), 0).shape)
print(tf.expand_dims(tf.constant({1, 2}), -1).shape)
]],
    output = [[
(1, 2)
(2, 1)
]],
    errors = {
      { code = [[tf.expand_dims(tf.constant({1, 2}), 3)]], type = "InvalidArgumentError", message = "Tried to expand dim index 3 for tensor with 1 dimensions." },
    },
  },
  ["tf.eye"] = {
    example = [[
print(tf.eye(2))
print(tf.eye(2, 3, { dtype = tf.int32 }))
]],
    output = [=[
tf.Tensor(
[[1. 0.]
 [0. 1.]], shape=(2, 2), dtype=float32)
tf.Tensor(
[[1 0 0]
 [0 1 0]], shape=(2, 3), dtype=int32)
]=],
    errors = {
      { code = [[tf.eye(-1)]], type = "InvalidArgumentError", message = "Dimension -1 must be >= 0" },
      { code = [[tf.eye(2, { dtype = "int99" })]], type = "TypeError", message = "Cannot convert int99 to a dtype" },
    },
  },
  ["tf.fill"] = {
    example = [[
print(tf.fill({2, 3}, 9))
]],
    output = [=[
tf.Tensor(
[[9 9 9]
 [9 9 9]], shape=(2, 3), dtype=int32)
]=],
    errors = {
      { code = [[tf.fill({2, -3}, 9)]], type = "InvalidArgumentError", message = "Dimension -3 must be >= 0" },
    },
  },
  ["tf.gather"] = {
    example = [[
print(tf.gather(tf.constant({10, 20, 30}), tf.constant({2, 0})))
print(tf.gather(tf.constant({{1, 2}, {3, 4}}), tf.constant({1}), 1))
]],
    output = [=[
tf.Tensor([30 10], shape=(2,), dtype=int32)
tf.Tensor(
[[2]
 [4]], shape=(2, 1), dtype=int32)
]=],
    errors = {
      { code = [[tf.gather(tf.constant({10, 20, 30}), tf.constant({3}))]], type = "InvalidArgumentError", message = "indices[0] = 3 is not in [0, 3)" },
    },
  },
  ["tf.gather_nd"] = {
    example = [[
print(tf.gather_nd(tf.constant({{1, 2}, {3, 4}}), tf.constant({{0, 1}, {1, 0}})))
]],
    output = [[
tf.Tensor([2 3], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.gather_nd(tf.constant({{1, 2}, {3, 4}}), tf.constant({{2, 0}}))]], type = "InvalidArgumentError", message = "indices[0] = [2, 0] does not index into param shape [2,2]" },
    },
  },
  ["tf.linspace"] = {
    example = [[
print(tf.linspace(0.0, 1.0, 5))
]],
    output = [[
tf.Tensor([0.   0.25 0.5  0.75 1.  ], shape=(5,), dtype=float32)
]],
    errors = {
      { code = [[tf.linspace(0.0, 1.0, 0)]], type = "InvalidArgumentError", message = "Requires num > 0: 0" },
    },
  },
  ["tf.matrix_transpose"] = {
    example = [[
print(tf.matrix_transpose(tf.constant({{1, 2, 3}})))
]],
    output = [=[
tf.Tensor(
[[1]
 [2]
 [3]], shape=(3, 1), dtype=int32)
]=],
    errors = {
      { code = [[tf.matrix_transpose(tf.constant({1, 2}))]], type = "ValueError", message = "Argument `a` should be a (batch) matrix with rank >= 2.  Received `a` =" },
    },
  },
  ["tf.meshgrid"] = {
    example = [[
local X, Y = tf.meshgrid(tf.constant({1, 2, 3}), tf.constant({4, 5}))
print(X)
print(Y)
]],
    output = [=[
tf.Tensor(
[[1 2 3]
 [1 2 3]], shape=(2, 3), dtype=int32)
tf.Tensor(
[[4 4 4]
 [5 5 5]], shape=(2, 3), dtype=int32)
]=],
    errors = {
      { code = [[tf.meshgrid(tf.constant({1}), tf.constant({2}), { indexing = "zz" })]], type = "ValueError", message = "Argument `indexing` parameter must be either 'xy' or 'ij', got 'zz'" },
    },
  },
  ["tf.one_hot"] = {
    example = [[
print(tf.one_hot(tf.constant({0, 2}), 3))
]],
    output = [=[
tf.Tensor(
[[1. 0. 0.]
 [0. 0. 1.]], shape=(2, 3), dtype=float32)
]=],
    errors = {
      { code = [[tf.one_hot(tf.constant({0.5}), 3)]], type = "InvalidArgumentError", message = "OneHot expects a int32 or int64 tensor for input #0(zero-based), got" },
    },
  },
  ["tf.ones"] = {
    example = [[
print(tf.ones({2, 2}))
print(tf.ones({3}, tf.int32))
]],
    output = [=[
tf.Tensor(
[[1. 1.]
 [1. 1.]], shape=(2, 2), dtype=float32)
tf.Tensor([1 1 1], shape=(3,), dtype=int32)
]=],
    errors = {
      { code = [[tf.ones({-1})]], type = "InvalidArgumentError", message = "Dimension -1 must be >= 0" },
    },
  },
  ["tf.ones_like"] = {
    example = [[
print(tf.ones_like(tf.constant({{1, 2}, {3, 4}})))
]],
    output = [=[
tf.Tensor(
[[1 1]
 [1 1]], shape=(2, 2), dtype=int32)
]=],
    errors = {
      { code = [[tf.ones_like(tf.constant({1}), "int99")]], type = "TypeError", message = "Cannot convert int99 to a dtype" },
    },
  },
  ["tf.pad"] = {
    example = [[
print(tf.pad(tf.constant({{1, 2}}), {{1, 0}, {0, 1}}))
]],
    output = [=[
tf.Tensor(
[[0 0 0]
 [1 2 0]], shape=(2, 3), dtype=int32)
]=],
    errors = {
      { code = [[tf.pad(tf.constant({{1, 2}}), {{1, 0}})]], type = "InvalidArgumentError", message = "The first dimension of paddings must be the rank of inputs[1,2], [1,2]" },
    },
  },
  ["tf.range"] = {
    example = [[
print(tf.range(5))
print(tf.range(1, 2, 0.25))
]],
    output = [[
tf.Tensor([0 1 2 3 4], shape=(5,), dtype=int32)
tf.Tensor([1.   1.25 1.5  1.75], shape=(4,), dtype=float32)
]],
    errors = {
      { code = [[tf.range(1, 5, 0)]], type = "InvalidArgumentError", message = "Requires delta != 0: 0" },
    },
  },
  ["tf.rank"] = {
    example = [[
print(tf.rank(tf.zeros({2, 3})))
]],
    output = [[
tf.Tensor(2, shape=(), dtype=int32)
]],
    errors = {
      { code = [[tf.rank(tf.zeros({2}), { nme = "r" })]], type = "TypeError", message = "tf.rank got an unexpected keyword argument 'nme', did you mean 'name'?" },
    },
  },
  ["tf.repeat"] = {
    example = [[
-- `repeat` is a Lua keyword: tf["repeat"]
print(tf["repeat"](tf.constant({1, 2}), 2))
print(tf["repeat"](tf.constant({1, 2}), {1, 3}))
]],
    output = [[
tf.Tensor([1 1 2 2], shape=(4,), dtype=int32)
tf.Tensor([1 2 2 2], shape=(4,), dtype=int32)
]],
    errors = {
      { code = [[tf["repeat"](tf.constant({1, 2}), {1, 2, 3})]], type = "InvalidArgumentError", message = "Incompatible shapes: [3] vs. [2]" },
    },
  },
  ["tf.reshape"] = {
    example = [[
print(tf.reshape(tf.range(6), {2, -1}))
]],
    output = [=[
tf.Tensor(
[[0 1 2]
 [3 4 5]], shape=(2, 3), dtype=int32)
]=],
    errors = {
      { code = [[tf.reshape(tf.range(6), {4, 2})]], type = "InvalidArgumentError", message = "Input to reshape is a tensor with 6 values, but the requested shape has" },
    },
  },
  ["tf.reverse"] = {
    example = [[
print(tf.reverse(tf.constant({{1, 2}, {3, 4}}), {1}))
]],
    output = [=[
tf.Tensor(
[[2 1]
 [4 3]], shape=(2, 2), dtype=int32)
]=],
    errors = {
      { code = [[tf.reverse(tf.constant({1, 2}), {1})]], type = "InvalidArgumentError", message = "'axis'[0] = 1 is out of valid range [0, 0" },
    },
  },
  ["tf.roll"] = {
    example = [[
print(tf.roll(tf.constant({1, 2, 3, 4}), 1, 0))
]],
    output = [[
tf.Tensor([4 1 2 3], shape=(4,), dtype=int32)
]],
    errors = {
      { code = [[tf.roll(tf.constant({1, 2}), 1, 1)]], type = "InvalidArgumentError", message = "axis 1 is out of range" },
    },
  },
  ["tf.scatter_nd"] = {
    example = [[
print(tf.scatter_nd(tf.constant({{1}, {3}}), tf.constant({9, 7}), {5}))
]],
    output = [[
tf.Tensor([0 9 0 7 0], shape=(5,), dtype=int32)
]],
    errors = {
      { code = [[tf.scatter_nd(tf.constant({{5}}), tf.constant({9}), {5})]], type = "InvalidArgumentError", message = "indices[0] = [5] does not index into shape [5]" },
    },
  },
  ["tf.searchsorted"] = {
    example = [[
print(tf.searchsorted(tf.constant({1, 3, 5}), tf.constant({2, 5})))
print(tf.searchsorted(tf.constant({1, 3, 5}), tf.constant({2, 5}), "right"))
]],
    output = [[
tf.Tensor([1 2], shape=(2,), dtype=int32)
tf.Tensor([1 3], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.searchsorted(tf.constant({1, 3}), tf.constant({2}), "middle")]], type = "ValueError", message = "Argument `side` must be either 'right' or 'left'. Received: `side` =" },
    },
  },
  ["tf.shape"] = {
    example = [[
print(tf.shape(tf.zeros({2, 3})))
]],
    output = [[
tf.Tensor([2 3], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.shape(tf.zeros({2}), tf.float32)]], type = "InvalidArgumentError", message = "Value for attr 'out_type' of float32 is not in the list of allowed" },
    },
  },
  ["tf.size"] = {
    example = [[
print(tf.size(tf.zeros({2, 3})))
]],
    output = [[
tf.Tensor(6, shape=(), dtype=int32)
]],
    errors = {
      { code = [[tf.size(tf.zeros({2}), tf.float32)]], type = "InvalidArgumentError", message = "Value for attr 'out_type' of float32 is not in the list of allowed" },
    },
  },
  ["tf.slice"] = {
    example = [[
print(tf.slice(tf.constant({{1, 2, 3}, {4, 5, 6}}), {0, 1}, {2, 2}))
]],
    output = [=[
tf.Tensor(
[[2 3]
 [5 6]], shape=(2, 2), dtype=int32)
]=],
    errors = {
      { code = [[tf.slice(tf.constant({1, 2, 3}), {2}, {2})]], type = "InvalidArgumentError", message = "Expected size[0] in [0, 1], but got 2" },
    },
  },
  ["tf.sort"] = {
    example = [[
print(tf.sort(tf.constant({3, 1, 2})))
print(tf.sort(tf.constant({3, 1, 2}), -1, "DESCENDING"))
]],
    output = [[
tf.Tensor([1 2 3], shape=(3,), dtype=int32)
tf.Tensor([3 2 1], shape=(3,), dtype=int32)
]],
    errors = {
      { code = [[tf.sort(tf.constant({1, 2}), -1, "UP")]], type = "ValueError", message = "Argument `direction` should be one of ASCENDING, DESCENDING. Received:" },
    },
  },
  ["tf.split"] = {
    example = [[
local parts = tf.split(tf.range(6), 3)
print(#parts, parts[1], parts[3])
print(tf.split(tf.range(5), {2, 3})[2])
]],
    output = [[
3	tf.Tensor([0 1], shape=(2,), dtype=int32)	tf.Tensor([4 5], shape=(2,), dtype=int32)
tf.Tensor([2 3 4], shape=(3,), dtype=int32)
]],
    errors = {
      { code = [[tf.split(tf.range(5), 2)]], type = "InvalidArgumentError", message = "Number of ways to split should evenly divide the split dimension, but" },
    },
  },
  ["tf.squeeze"] = {
    example = [[
print(tf.squeeze(tf.zeros({1, 2, 1})).shape)
]],
    output = [[
(2,)
]],
    errors = {
      { code = [[tf.squeeze(tf.zeros({1, 2}), 1)]], type = "InvalidArgumentError", message = "Can not squeeze dim[1], expected a dimension of 1, got 2" },
    },
  },
  ["tf.stack"] = {
    example = [[
print(tf.stack({tf.constant({1, 2}), tf.constant({3, 4})}))
print(tf.stack({tf.constant({1, 2}), tf.constant({3, 4})}, 1))
]],
    output = [=[
tf.Tensor(
[[1 2]
 [3 4]], shape=(2, 2), dtype=int32)
tf.Tensor(
[[1 3]
 [2 4]], shape=(2, 2), dtype=int32)
]=],
    errors = {
      { code = [[tf.stack({tf.constant({1, 2}), tf.constant({3})})]], type = "InvalidArgumentError", message = "Shapes of all inputs must match: values[0].shape = [2] !=" },
    },
  },
  ["tf.strided_slice"] = {
    example = [[
print(tf.strided_slice(tf.range(10), {1}, {8}, {3}))
]],
    output = [[
tf.Tensor([1 4 7], shape=(3,), dtype=int32)
]],
    errors = {
      { code = [[tf.strided_slice(tf.range(10), {1}, {8}, {0})]], type = "InvalidArgumentError", message = "strides[0] must be non-zero" },
    },
  },
  ["tf.tensor_scatter_nd_add"] = {
    example = [[
print(tf.tensor_scatter_nd_add(tf.constant({1, 1, 1}), tf.constant({{0}, {2}}), tf.constant({5, 7})))
]],
    output = [[
tf.Tensor([6 1 8], shape=(3,), dtype=int32)
]],
    errors = {
      { code = [[tf.tensor_scatter_nd_add(tf.constant({1, 1}), tf.constant({{3}}), tf.constant({5}))]], type = "InvalidArgumentError", message = "indices[0] = [3] does not index into shape [2]" },
    },
  },
  ["tf.tensor_scatter_nd_update"] = {
    example = [[
print(tf.tensor_scatter_nd_update(tf.constant({1, 1, 1}), tf.constant({{0}, {2}}), tf.constant({5, 7})))
]],
    output = [[
tf.Tensor([5 1 7], shape=(3,), dtype=int32)
]],
    errors = {
      { code = [[tf.tensor_scatter_nd_update(tf.constant({1, 1}), tf.constant({{3}}), tf.constant({5}))]], type = "InvalidArgumentError", message = "indices[0] = [3] does not index into shape [2]" },
    },
  },
  ["tf.tile"] = {
    example = [[
print(tf.tile(tf.constant({{1, 2}}), {2, 2}))
]],
    output = [=[
tf.Tensor(
[[1 2 1 2]
 [1 2 1 2]], shape=(2, 4), dtype=int32)
]=],
    errors = {
      { code = [[tf.tile(tf.constant({{1, 2}}), {2})]], type = "InvalidArgumentError", message = "Expected multiples argument to be a vector of length 2 but got length 1" },
    },
  },
  ["tf.transpose"] = {
    example = [[
print(tf.transpose(tf.constant({{1, 2, 3}, {4, 5, 6}})))
]],
    output = [=[
tf.Tensor(
[[1 4]
 [2 5]
 [3 6]], shape=(3, 2), dtype=int32)
]=],
    errors = {
      { code = [[tf.transpose(tf.constant({{1, 2}}), {0, 2})]], type = "InvalidArgumentError", message = "2 is out of range [0 .. 2)" },
    },
  },
  ["tf.unique"] = {
    example = [[
local y, idx = tf.unique(tf.constant({1, 1, 2, 4, 4, 4, 7, 8, 8}))
print(y)
print(idx)
]],
    output = [[
tf.Tensor([1 2 4 7 8], shape=(5,), dtype=int32)
tf.Tensor([0 0 1 2 2 2 3 4 4], shape=(9,), dtype=int32)
]],
    errors = {
      { code = [[tf.unique(tf.constant({{1, 2}}))]], type = "InvalidArgumentError", message = "unique expects a 1D vector." },
    },
  },
  ["tf.unstack"] = {
    example = [[
local rows = tf.unstack(tf.constant({{1, 2}, {3, 4}}))
print(#rows, rows[1], rows[2])
]],
    output = [[
2	tf.Tensor([1 2], shape=(2,), dtype=int32)	tf.Tensor([3 4], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.unstack(tf.constant({{1, 2}}), 3)]], type = "InvalidArgumentError", message = "Input shape axis 0 must equal 3, got shape [1,2]" },
    },
  },
  ["tf.where"] = {
    example = [[
print(tf.where(tf.constant({true, false, true})))
print(tf.where(tf.constant({true, false}), tf.constant({1, 2}), tf.constant({10, 20})))
]],
    output = [=[
tf.Tensor(
[[0]
 [2]], shape=(2, 1), dtype=int64)
tf.Tensor([ 1 20], shape=(2,), dtype=int32)
]=],
    errors = {
      { code = [[tf.where(tf.constant({true, false}), tf.constant({1, 2, 3}), tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "then [3] and else [2] must be broadcastable" },
    },
  },
  ["tf.zeros"] = {
    example = [[
print(tf.zeros({2, 3}))
]],
    output = [=[
tf.Tensor(
[[0. 0. 0.]
 [0. 0. 0.]], shape=(2, 3), dtype=float32)
]=],
    errors = {
      { code = [[tf.zeros({2, -3})]], type = "InvalidArgumentError", message = "Dimension -3 must be >= 0" },
    },
  },
  ["tf.zeros_like"] = {
    example = [[
print(tf.zeros_like(tf.constant({1.5, 2.5})))
]],
    output = [[
tf.Tensor([0. 0.], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.zeros_like(tf.constant({1}), "int99")]], type = "TypeError", message = "Cannot convert int99 to a dtype" },
    },
  },
}
