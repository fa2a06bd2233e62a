-- tf: examples and errors for the reference (docs/reference.md and %help).
return {
  ["tf.DType"] = {
    example = [[
local d = tf.as_dtype("float32")
print(d, d.name, d.size, d.is_floating, d == tf.float32)
]],
    output = [[
tf.float32	float32	4	true	true
]],
    errors = {
      { code = [[tf.as_dtype("float99")]], type = "TypeError", message = "Cannot convert float99 to a dtype" },
    },
  },
  ["tf.GradientTape"] = {
    example = [[
local x = tf.Variable(3.0)
local tape <close> = tf.GradientTape()
local y = x * x
print(tape:gradient(y, x))
]],
    output = [[
tf.Tensor(6.0, shape=(), dtype=float32)
]],
    errors = {
      { code = [[tf.GradientTape({persist = true})]], type = "TypeError", message = "tf.GradientTape got an unexpected keyword argument 'persist' Accepted" },
      { code = [[
local x = tf.Variable(1.0)
local tape = tf.GradientTape()
local y = x * x
tape:gradient(y, x)
tape:gradient(y, x)]], type = "RuntimeError", message = "GradientTape.gradient can only be called once on non-persistent tapes." },
    },
  },
  ["tf.Module"] = {
    example = [[
local Scale = tf.Module:extend("Scale")
function Scale:init(k) self.k = tf.Variable(k, { name = "k" }) end
Scale.__call = tf.func(function(self, x) return self.k * x end)
local m = Scale(2.0)
print(m(tf.constant(3.0)))
print(#m:trainable_variables())
]],
    output = [[
tf.Tensor(6.0, shape=(), dtype=float32)
1
]],
    errors = {
      { code = [[tf.Module:extend(42)]], type = "TypeError", message = "Module:extend(name) needs a class name" },
    },
  },
  ["tf.None"] = {
    example = [[
local x = tf.constant({1, 2, 3})
print(tf.None)
print(x[tf.None].shape)
]],
    output = [[
None
(1, 3)
]],
    errors = {},
  },
  ["tf.Tensor"] = {
    example = [[
local x = tf.constant({{1, 2}, {3, 4}})
print(x.shape, x.dtype, x.ndim)
print(x:numpy()[2][1])
print(x + 1)
]],
    output = [=[
(2, 2)	tf.int32	2
3
tf.Tensor(
[[2 3]
 [4 5]], shape=(2, 2), dtype=int32)
]=],
    errors = {
      { code = [[local _ = tf.constant({1, 2}) + tf.constant({1, 2, 3})]], type = "InvalidArgumentError", message = "Incompatible shapes: [2] vs. [3]" },
    },
  },
  ["tf.TensorArray"] = {
    example = [[
local ta = tf.TensorArray(tf.float32, { size = 2 })
ta = ta:write(0, 1.5)
ta = ta:write(1, 2.5)
print(ta:stack())
]],
    output = [[
tf.Tensor([1.5 2.5], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.TensorArray(tf.float32, { size = -1 })]], type = "InvalidArgumentError", message = "Dimension -1 must be >= 0" },
    },
  },
  ["tf.TensorShape"] = {
    example = [[
local s = tf.TensorShape({2, 3})
print(s, s.rank, s:num_elements())
]],
    output = [[
(2, 3)	2	6
]],
    errors = {
      { code = [[tf.TensorShape("2x3")]], type = "TypeError", message = "a TensorShape needs a list of dimensions or nil, got 2x3" },
    },
  },
  ["tf.TensorSpec"] = {
    example = [[
print(tf.TensorSpec({tf.None, 3}, tf.float32))
]],
    output = [[
TensorSpec(shape=(None, 3), dtype=tf.float32, name=None)
]],
    errors = {
      { code = [[tf.TensorSpec({2}, "floaty")]], type = "TypeError", message = "Cannot convert floaty to a dtype" },
    },
  },
  ["tf.Variable"] = {
    example = [[
local v = tf.Variable({1.0, 2.0})
v:assign_add({0.5, 0.5})
print(v)
]],
    output = [[
<tf.Variable 'Variable:0' shape=(2,) dtype=float32, numpy=array([1.5, 2.5], dtype=float32)>
]],
    errors = {
      { code = [[tf.Variable({1.0, 2.0}):assign({1.0, 2.0, 3.0})]], type = "ValueError", message = "Cannot assign value to variable ' Variable:0': Shape mismatch.The" },
    },
  },
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
  ["tf.as_dtype"] = {
    example = [[
print(tf.as_dtype("int64"), tf.as_dtype(tf.float32))
]],
    output = [[
tf.int64	tf.float32
]],
    errors = {
      { code = [[tf.as_dtype("float99")]], type = "TypeError", message = "Cannot convert float99 to a dtype" },
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
  ["tf.bool"] = {
    example = [[
print(tf.bool, tf.constant({true, false}).dtype == tf.bool)
]],
    output = [[
tf.bool	true
]],
    errors = {},
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
  ["tf.cast"] = {
    example = [[
print(tf.cast(tf.constant({1.8, -2.5}), tf.int32))
]],
    output = [[
tf.Tensor([ 1 -2], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.cast(tf.constant({1}), "int99")]], type = "TypeError", message = "Cannot convert int99 to a dtype" },
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
  ["tf.cond"] = {
    example = [[
local x = tf.constant(5)
print(tf.cond(x > 3, function() return x * 2 end, function() return x end))
]],
    output = [[
tf.Tensor(10, shape=(), dtype=int32)
]],
    errors = {
      { code = [[tf.cond(tf.constant(true), 1, function() return 2 end)]], type = "TypeError", message = "tf.cond(pred, true_fn, false_fn): both branches must be functions" },
    },
  },
  ["tf.constant"] = {
    example = [[
print(tf.constant({{1, 2}, {3, 4}}))
print(tf.constant(0, tf.float32, {2, 2}))
]],
    output = [=[
tf.Tensor(
[[1 2]
 [3 4]], shape=(2, 2), dtype=int32)
tf.Tensor(
[[0. 0.]
 [0. 0.]], shape=(2, 2), dtype=float32)
]=],
    errors = {
      { code = [[tf.constant({{1, 2}, {3}})]], type = "ValueError", message = "Can't convert non-rectangular Lua sequence to Tensor (ragged at axis 1)" },
      { code = [[tf.constant({1, "a"})]], type = "TypeError", message = "Can't convert a table mixing strings with other values to a Tensor" },
    },
  },
  ["tf.convert_to_tensor"] = {
    example = [[
print(tf.convert_to_tensor({1.5, 2.5}))
print(tf.convert_to_tensor(3, tf.float64))
]],
    output = [[
tf.Tensor([1.5 2.5], shape=(2,), dtype=float32)
tf.Tensor(3.0, shape=(), dtype=float64)
]],
    errors = {
      { code = [[tf.convert_to_tensor({1.5}, tf.int32)]], type = "TypeError", message = "Cannot convert 1.5 to EagerTensor of dtype int32" },
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
  ["tf.custom_gradient"] = {
    example = [[
local clip_grad = tf.custom_gradient(function(x)
  return tf.identity(x), function(dy) return tf.clip_by_value(dy, -0.5, 0.5) end
end)
local x = tf.constant(2.0)
local tape <close> = tf.GradientTape()
tape:watch(x)
local y = clip_grad(x * 3.0)
print(tape:gradient(y, x))
]],
    output = [[
tf.Tensor(1.5, shape=(), dtype=float32)
]],
    errors = {
      { code = [[tf.custom_gradient(42)]], type = "TypeError", message = "tf.custom_gradient expects a function f(...) returning its outputs and" },
    },
  },
  ["tf.display"] = {
    example = [[
tf.display(tf.constant({1, 2}))
]],
    output = [[
<tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>
]],
    errors = {
      { code = [[tf.display(1, { dispaly_id = true })]], type = "TypeError", message = "tf.display got an unexpected keyword argument 'dispaly_id', did you" },
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
  ["tf.double"] = {
    example = [[
print(tf.double, tf.double == tf.float64)
]],
    output = [[
tf.float64	true
]],
    errors = {},
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
  ["tf.executing_eagerly"] = {
    example = [[
print(tf.executing_eagerly())
local f = tf.func(function(x) print(tf.executing_eagerly()); return x end)
f(tf.constant(1))
]],
    output = [[
true
false
]],
    errors = {},
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
  ["tf.float32"] = {
    example = [[
print(tf.float32, tf.float32.size, tf.constant(1.5).dtype == tf.float32)
]],
    output = [[
tf.float32	4	true
]],
    errors = {},
  },
  ["tf.float64"] = {
    example = [[
print(tf.float64, tf.float64.size)
]],
    output = [[
tf.float64	8
]],
    errors = {},
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
  ["tf.func"] = {
    example = [[
local f = tf.func(function(x) return x * x + 1 end)
print(f(tf.constant(3)))
print(f:get_concrete_function(tf.TensorSpec({}, tf.int32)))
]],
    output = [[
tf.Tensor(10, shape=(), dtype=int32)
ConcreteFunction Input Parameters:
  x (POSITIONAL): TensorSpec(shape=(), dtype=tf.int32, name=None)
Output Type:
  TensorSpec(shape=(), dtype=tf.int32, name=None)
]],
    errors = {
      { code = [[tf.func(42)]], type = "TypeError", message = "42 is not a callable object: tf.func expects a Lua function, got number" },
      { code = [[tf.func(function(x) return x end, { autograf = false })]], type = "TypeError", message = "tf.func got an unexpected keyword argument 'autograf', did you mean" },
    },
  },
  ["tf.function"] = {
    example = [[
local f = tf["function"](function(x) return 2 * x end)
print(f(tf.constant({1.0, 2.0})))
]],
    output = [[
tf.Tensor([2. 4.], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf["function"]("not a function")]], type = "TypeError", message = "not a function is not a callable object: tf.func expects a Lua" },
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
  ["tf.grad_pass_through"] = {
    example = [[
local x = tf.Variable(1.0)
local z = tf.constant(3.0)
local tape <close> = tf.GradientTape()
tape:watch(z)
local y = tf.grad_pass_through(function(v) return x:assign(v) end)(z * z)
print(tape:gradient(y, z))
]],
    output = [[
tf.Tensor(6.0, shape=(), dtype=float32)
]],
    errors = {
      { code = [[tf.grad_pass_through(42)]], type = "TypeError", message = "tf.grad_pass_through expects a function, got 42" },
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
  ["tf.help"] = {
    example = [[
print(tf.help(tf.float32))
]],
    output = [[
tf.float32

Example:

    print(tf.float32, tf.float32.size, tf.constant(1.5).dtype == tf.float32)
    --> tf.float32	4	true
]],
    errors = {},
  },
  ["tf.identity"] = {
    example = [[
print(tf.identity(tf.constant({1, 2})))
]],
    output = [[
tf.Tensor([1 2], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.identity(tf.constant({1}), { nme = "x" })]], type = "TypeError", message = "tf.identity got an unexpected keyword argument 'nme', did you mean" },
    },
  },
  ["tf.identity_n"] = {
    example = [[
local r = tf.identity_n({tf.constant(1), tf.constant({2.0, 3.0})})
print(r[1], r[2])
]],
    output = [[
tf.Tensor(1, shape=(), dtype=int32)	tf.Tensor([2. 3.], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.identity_n(tf.constant(1))]], type = "TypeError", message = "tf.identity_n expects a non-empty Lua list of tensors, got tf.Tensor(1," },
    },
  },
  ["tf.init_scope"] = {
    example = [[
local f = tf.func(function(x)
  tf.init_scope(function() print("eager inside:", tf.executing_eagerly()) end)
  return x
end)
f(tf.constant(1))
]],
    output = [[
eager inside:	true
]],
    errors = {
      { code = [[tf.init_scope(42)]], type = "TypeError", message = "tf.init_scope: argument 'fn' must be a function, got a number" },
    },
  },
  ["tf.int32"] = {
    example = [[
print(tf.int32, tf.constant(1).dtype == tf.int32, tf.int32.max)
]],
    output = [[
tf.int32	true	2147483647
]],
    errors = {},
  },
  ["tf.int64"] = {
    example = [[
print(tf.int64, tf.int64.size)
]],
    output = [[
tf.int64	8
]],
    errors = {},
  },
  ["tf.is_symbolic_tensor"] = {
    example = [[
print(tf.is_symbolic_tensor(tf.constant(1)))
local f = tf.func(function(x) print(tf.is_symbolic_tensor(x)); return x end)
f(tf.constant(1))
]],
    output = [[
false
true
]],
    errors = {},
  },
  ["tf.is_tensor"] = {
    example = [[
print(tf.is_tensor(tf.constant(1)), tf.is_tensor(1), tf.is_tensor(tf.Variable(1.0)))
]],
    output = [[
true	false	true
]],
    errors = {},
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
  ["tf.lua_function"] = {
    example = [[
local f = tf.func(function(x)
  return tf.lua_function(function(t) return t * 10 end, {x}, tf.int32)
end)
print(f(tf.constant({1, 2})))
]],
    output = [[
tf.Tensor([10 20], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.lua_function(42, {}, tf.int32)]], type = "TypeError", message = "tf.lua_function expects a Lua function" },
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
  ["tf.name_scope"] = {
    example = [[
local f = tf.func(function(x)
  local scope <close> = tf.name_scope("block")
  return tf.identity(x, { name = "out" })
end)
local g = f:get_concrete_function(tf.TensorSpec({}, tf.float32)).graph
for _, op in ipairs(g:get_operations()) do
  if op.type == "Identity" then print(op.name) end
end
]],
    output = [[
block/out
Identity
]],
    errors = {
      { code = [[tf.name_scope(42)]], type = "TypeError", message = "tf.name_scope: name must be a string, got a number" },
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
  ["tf.newaxis"] = {
    example = [[
local x = tf.constant({1, 2, 3})
print(x[tf.newaxis].shape)
print(x[":, tf.newaxis"].shape)
]],
    output = [[
(1, 3)
(3, 1)
]],
    errors = {},
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
  ["tf.print"] = {
    example = [[
tf.print("x:", tf.constant({1, 2, 3}))
tf.print(tf.range(10), { summarize = 2 })
]],
    output = [[
x: [1 2 3]
[0 1 ... 8 9]
]],
    errors = {
      { code = [[tf.print("x", { output_stream = 42 })]], type = "ValueError", message = "42 is not a valid output stream for tf.print: expected a Lua file, a" },
    },
  },
  ["tf.progress"] = {
    example = [[
local total = 0
for i in tf.progress(3, { label = "steps" }) do total = total + i end
print(total)
]],
    output = [[
6
]],
    errors = {
      { code = [[tf.progress("x")]], type = "TypeError", message = "tf.progress expects a count or a list, got string" },
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
  ["tf.recompute_grad"] = {
    example = [[
local f = tf.recompute_grad(function(x) return x * x end)
local x = tf.constant(3.0)
local tape <close> = tf.GradientTape()
tape:watch(x)
print(tape:gradient(f(x), x))
]],
    output = [[
tf.Tensor(6.0, shape=(), dtype=float32)
]],
    errors = {
      { code = [[tf.recompute_grad(42)]], type = "TypeError", message = "tf.recompute_grad expects a function, got 42" },
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
  ["tf.resource"] = {
    example = [[
print(tf.resource)
]],
    output = [[
tf.resource
]],
    errors = {},
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
  ["tf.stop_gradient"] = {
    example = [[
local x = tf.constant(2.0)
local tape <close> = tf.GradientTape()
tape:watch(x)
local y = x * tf.stop_gradient(x)
print(tape:gradient(y, x))
]],
    output = [[
tf.Tensor(2.0, shape=(), dtype=float32)
]],
    errors = {
      { code = [[tf.stop_gradient(tf.constant(1), { nme = "s" })]], type = "TypeError", message = "tf.stop_gradient got an unexpected keyword argument 'nme', did you mean" },
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
  ["tf.string"] = {
    example = [[
print(tf.string, tf.constant("hi").dtype == tf.string)
]],
    output = [[
tf.string	true
]],
    errors = {},
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
  ["tf.timestamp"] = {
    example = [[
local t = tf.timestamp()
print(t.dtype, t.shape, t:numpy() > 1.6e9)
]],
    output = [[
tf.float64	()	true
]],
    errors = {
      { code = [[tf.timestamp({ nme = "t" })]], type = "TypeError", message = "tf.timestamp got an unexpected keyword argument 'nme', did you mean" },
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
  ["tf.variant"] = {
    example = [[
print(tf.variant)
]],
    output = [[
tf.variant
]],
    errors = {},
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
  ["tf.while_loop"] = {
    example = [[
local i, acc = tf.while_loop(function(i) return i < 4 end,
  function(i, acc) return i + 1, acc * 2 end, {tf.constant(0), tf.constant(1)})
print(i, acc)
]],
    output = [[
tf.Tensor(4, shape=(), dtype=int32)	tf.Tensor(16, shape=(), dtype=int32)
]],
    errors = {
      { code = [[tf.while_loop(function(i) return i < 4 end, 42, {tf.constant(0)})]], type = "TypeError", message = "tf.while_loop(cond, body, loop_vars): cond and body must be functions" },
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
  ["tf.UnconnectedGradients.NONE"] = {
    example = [[
local x, y = tf.constant(1.0), tf.constant(2.0)
local tape <close> = tf.GradientTape()
tape:watch(x)
print(tape:gradient(y * 2, x, { unconnected_gradients = tf.UnconnectedGradients.NONE }))
]],
    output = [[
nil
]],
    errors = {},
  },
  ["tf.UnconnectedGradients.ZERO"] = {
    example = [[
local x, y = tf.constant(1.0), tf.constant(2.0)
local tape <close> = tf.GradientTape()
tape:watch(x)
print(tape:gradient(y * 2, x, { unconnected_gradients = tf.UnconnectedGradients.ZERO }))
]],
    output = [[
tf.Tensor(0.0, shape=(), dtype=float32)
]],
    errors = {},
  },
}
