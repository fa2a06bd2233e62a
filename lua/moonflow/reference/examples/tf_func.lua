-- tf's tracing, control flow and gradient functions: examples and errors for the reference (docs/reference.md and %help).
return {
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
  -- tf.map_fn and tf.vectorized_map (ops/map_fn.lua)
  ["tf.map_fn"] = {
    example = [[
print(tf.map_fn(function(x) return x * x end, tf.constant({1, 2, 3})))
local r = tf.map_fn(function(e) return {e.a + e.b, e.a * e.b} end,
  {a = tf.constant({1.0, 2.0}), b = tf.constant({3.0, 4.0})},
  {fn_output_signature = {tf.float32, tf.float32}})
print(r[1], r[2])
]],
    output = [[
tf.Tensor([1 4 9], shape=(3,), dtype=int32)
tf.Tensor([4. 6.], shape=(2,), dtype=float32)	tf.Tensor([3. 8.], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.map_fn(function(x) return x end, tf.constant(1))]], type = "ValueError", message = "elems must be a 1+ dimensional Tensor, not a scalar" },
      { code = [[tf.map_fn(function(x) return x end, {})]], type = "ValueError", message = "elems must be a Tensor or (possibly nested) sequence of Tensors" },
      { code = [[tf.map_fn(function(x) return x end, {tf.constant({1, 2}), tf.constant({1, 2, 3})})]], type = "ValueError", message = "Dimensions 2 and 3 are not compatible" },
      { code = [[tf.map_fn(function(x) return {x, x} end, tf.constant({1, 2}))]], type = "TypeError", message = "The two structures don't have the same nested structure" },
      { code = [[tf.map_fn(function(x) return tf.cast(x, tf.float32) end, tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "TensorArray dtype is int32 but Op is trying to write dtype float32" },
      { code = [[tf.map_fn(function(x) return x end, tf.constant({1}), {bogus = 1})]], type = "TypeError", message = "unexpected keyword argument 'bogus'" },
    },
  },
  ["tf.vectorized_map"] = {
    example = [[
print(tf.vectorized_map(function(row) return tf.reduce_sum(row) end, tf.constant({{1, 2}, {3, 4}})))
]],
    output = [[
tf.Tensor([3 7], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.vectorized_map(function(x) return x end, tf.constant(1))]], type = "ValueError", message = "elems must be a 1+ dimensional Tensor, not a scalar" },
    },
  },
}
