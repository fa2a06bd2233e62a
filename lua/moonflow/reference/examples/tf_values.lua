-- tf's classes, dtypes and constants, and making, converting and showing values: examples and errors for the reference (docs/reference.md and %help).
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
  ["tf.bool"] = {
    example = [[
print(tf.bool, tf.constant({true, false}).dtype == tf.bool)
]],
    output = [[
tf.bool	true
]],
    errors = {},
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
  ["tf.double"] = {
    example = [[
print(tf.double, tf.double == tf.float64)
]],
    output = [[
tf.float64	true
]],
    errors = {},
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
      { code = [[tf.print("x", { output_strem = io.stderr })]], type = "TypeError", message = "unexpected keyword argument 'output_strem', did you mean 'output_stream'?" },
    },
  },
  ["tf.clear_output"] = {
    example = [[
io.write("50% done")
tf.clear_output()
print("finished")
]],
    output = "50% done\27[2K\rfinished\n",
    errors = {},
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
      { code = [[tf.progress(-1)]], type = "ValueError", message = "the count must be >= 0, got -1" },
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
  ["tf.string"] = {
    example = [[
print(tf.string, tf.constant("hi").dtype == tf.string)
]],
    output = [[
tf.string	true
]],
    errors = {},
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
  ["tf.variant"] = {
    example = [[
print(tf.variant)
]],
    output = [[
tf.variant
]],
    errors = {},
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
