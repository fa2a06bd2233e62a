-- debug: examples and errors for the reference (docs/reference.md and %help).
return {
  ["tf.debug.profile"] = {
    example = [[
local f = tf.func(function(x) return tf.matmul(x, x) + 1 end)
local p = tf.debug.profile(f, tf.ones({2, 2}))
print(p.runs, p.graph_runs)
-- rows come slowest first; by name here, as times vary from run to run
table.sort(p.rows, function(a, b) return a.node < b.node end)
for _, row in ipairs(p.rows) do print(row.node, row.type, row.calls) end
]],
    output = [[
10	10
MatMul	MatMul	10
add	AddV2	10
]],
    errors = {
      { code = [[tf.debug.profile(42)]], type = "TypeError", message = "tf.debug.profile: expected a tf.func or a concrete function, got number" },
    },
  },
  ["tf.debug.profile_with"] = {
    example = [[
local f = tf.func(function(x) return x * 2 end)
local p = tf.debug.profile_with({ runs = 3 }, f, tf.constant(1.0))
print(p.runs, p.rows[1].calls)
]],
    output = [[
3	3
]],
    errors = {
      { code = [[tf.debug.profile_with({ runs = 0 }, tf.func(function(x) return x end), tf.constant(1))]], type = "ValueError", message = "tf.debug.profile: runs must be a positive integer, got 0" },
      { code = [[tf.debug.profile_with({ run = 3 }, tf.func(function(x) return x end), tf.constant(1))]], type = "TypeError", message = "tf.debug.profile_with got an unexpected keyword argument 'run', did you" },
    },
  },
  ["tf.debug.step"] = {
    example = [[
local f = tf.func(function(x) return x * 2 + 1 end)
local s = tf.debug.step(f, tf.constant(3.0))
print(s:where())
s:next()
print(s:where())
print(s:finish())
]],
    output = [[
before the first node of f
step 1: mul (Mul) in f
  made at tf.debug.step example:1: f = tf.func(function(x) return x * 2 + 1 end)
  in  x:0 = 3
  in  mul/y:0 = 2
  out mul:0 = 6
tf.Tensor(7.0, shape=(), dtype=float32)
]],
    errors = {
      { code = [[tf.debug.step(42)]], type = "TypeError", message = "tf.debug.step: expected a tf.func or a concrete function, got number" },
    },
  },
  ["tf.debug.step_with"] = {
    example = [[
local f = tf.func(function(x) return x * 2 + 1 end)
local s = tf.debug.step_with({ optimized = true }, f, tf.constant(3.0))
print(s:finish())
]],
    output = [[
tf.Tensor(7.0, shape=(), dtype=float32)
]],
    errors = {
      { code = [[tf.debug.step_with({ optimised = true }, tf.func(function(x) return x end), tf.constant(1))]], type = "TypeError", message = "tf.debug.step_with got an unexpected keyword argument 'optimised', did" },
      { code = [[tf.debug.step_with({ optimized = true }, 42)]], type = "TypeError", message = "tf.debug.step: expected a tf.func or a concrete function, got number" },
    },
  },
  ["tf.debug.trace_diff"] = {
    example = [[
local f = tf.func(function(x) return x * 2 + 1 end)
f(tf.constant(3.0))
f(tf.constant({1.0, 2.0}))
print(tf.debug.trace_diff(f))
]],
    output = [[
f: trace #1 -> trace #2
signature:
  x: shape () -> (2,)
graph:
~ x = Placeholder: shape () -> (2,)
~ mul = Mul: shape () -> (2,)
~ add = AddV2: shape () -> (2,)
~ Identity = Identity: shape () -> (2,)
fix to consider:
  shapes differ: give tf.func an input_signature with None for the dimensions that vary, or reduce_retracing = true
]],
    errors = {
      { code = [[
local f = tf.func(function(x) return x end)
f(tf.constant(1))
tf.debug.trace_diff(f)]], type = "ValueError", message = "f has 1 trace: trace_diff needs two" },
    },
  },
  ["tf.autograph.do_not_convert"] = {
    example = [[
local f = tf.func(tf.autograph.do_not_convert(function(x)
  if x > 0 then return x end -- plain Lua `if`: x must be a value here
  return -x
end))
print(f(3))
]],
    output = [[
tf.Tensor(3, shape=(), dtype=int32)
]],
    errors = {
      { code = [[tf.autograph.do_not_convert(nil)]], type = "TypeError", message = "tf.autograph.do_not_convert: argument 'fn' must be a function, got nil" },
    },
  },
  ["tf.autograph.to_code"] = {
    example = [[
print(tf.autograph.to_code(function(x)
  if x > 0 then return x end
  return -x
end))
]],
    output = [[
function tf__fn(x)
  return ag__.ret(ag__.if_return(ag__.gt(x, 0), function()
    return x
  end, function()
    return -x
  end, {names = {}, line = 2}))
end

]],
    errors = {
      { code = [[tf.autograph.to_code(42)]], type = "TypeError", message = "tf.autograph.to_code expects a function or a tf.func" },
    },
  },
}
