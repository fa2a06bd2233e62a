-- config: examples and errors for the reference (docs/reference.md and %help).
return {
  ["tf.config.blas"] = {
    example = [[
local b = tf.config.blas()
print(type(b.library), type(b.kernel)) -- the OpenBLAS library and kernel in use
]],
    output = [[
string	string
]],
    errors = {},
  },
  ["tf.config.explain_retracing"] = {
    example = [[
tf.config.explain_retracing(true)
local f = tf.func(function(x) return x + 1 end)
print(f(tf.constant(1)))
print(f(tf.constant(1.5))) -- a retrace: io.stderr says why (x: dtype int32 -> float32)
tf.config.explain_retracing(false)
]],
    output = [[
tf.Tensor(2, shape=(), dtype=int32)
tf.Tensor(2.5, shape=(), dtype=float32)
]],
    errors = {},
  },
  ["tf.config.functions_run_eagerly"] = {
    example = [[
print(tf.config.functions_run_eagerly())
tf.config.run_functions_eagerly(true)
print(tf.config.functions_run_eagerly())
tf.config.run_functions_eagerly(false)
]],
    output = [[
false
true
]],
    errors = {},
  },
  ["tf.config.mark_trace_output"] = {
    example = [[
-- in a REPL or notebook cell, print while tracing shows "[trace f#1] tracing (2,)";
-- switched off, the line is as printed (scripts never mark it)
tf.config.mark_trace_output(false)
local f = tf.func(function(x) print("tracing", x.shape); return x end)
f(tf.constant({1, 2}))
tf.config.mark_trace_output(true)
]],
    output = [[
tracing	(2,)
]],
    errors = {},
  },
  ["tf.config.program_path"] = {
    example = [[
local path = tf.config.program_path()
print(path:match("[^/]+$"))
]],
    output = [[
moonflow
]],
    errors = {},
  },
  ["tf.config.run_functions_eagerly"] = {
    example = [[
local f = tf.func(function(x) print("eager:", tf.executing_eagerly()); return x end)
f(tf.constant(1))
tf.config.run_functions_eagerly(true)
f(tf.constant(1))
tf.config.run_functions_eagerly(false)
]],
    output = [[
eager:	false
eager:	true
]],
    errors = {},
  },
  ["tf.config.set_strict_globals"] = {
    example = [[
tf.config.set_strict_globals(true)
print(pcall(function() return undefined_name end))
tf.config.set_strict_globals(false)
print(undefined_name)
]],
    output = [[
false	NameError: name 'undefined_name' is not defined
nil
]],
    errors = {
      { code = [[tf.config.set_strict_globals("on")]], type = "TypeError", message = "tf.config.set_strict_globals: argument 'on' must be a boolean, got a" },
    },
  },
  ["tf.config.strict_globals"] = {
    example = [[
print(tf.config.strict_globals(), tf.config.strict_globals("script"))
]],
    output = [[
true	false
]],
    errors = {},
  },
  ["tf.config.optimizer.get_enabled"] = {
    example = [[
print(tf.config.optimizer.get_enabled())
]],
    output = [[
true
]],
    errors = {},
  },
  ["tf.config.optimizer.is_enabled"] = {
    example = [[
print(tf.config.optimizer.is_enabled())
]],
    output = [[
true
]],
    errors = {},
  },
  ["tf.config.optimizer.set_enabled"] = {
    example = [[
tf.config.optimizer.set_enabled(false)
print(tf.config.optimizer.get_enabled())
tf.config.optimizer.set_enabled(true)
print(tf.config.optimizer.get_enabled())
]],
    output = [[
false
true
]],
    errors = {},
  },
}
