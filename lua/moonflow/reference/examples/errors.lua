-- errors: examples and errors for the reference (docs/reference.md and %help).
return {
  ["tf.errors.AttributeError"] = {
    example = [[
local ok, e = pcall(function() return tf.no_such_name end)
print(tf.errors.is(e, tf.errors.AttributeError), e.type == tf.errors.AttributeError)
print(e)
]],
    output = [[
true	true
AttributeError: module 'tf' has no attribute 'no_such_name'
]],
    errors = {},
  },
  ["tf.errors.FailedPreconditionError"] = {
    example = [[
local ok, e = pcall(tf.errors.raise, tf.errors.FailedPreconditionError, "an example")
print(tf.errors.FailedPreconditionError, tf.errors.is(e, tf.errors.FailedPreconditionError))
print(e)
]],
    output = [[
FailedPreconditionError	true
FailedPreconditionError: an example
]],
    errors = {},
  },
  ["tf.errors.InaccessibleTensorError"] = {
    example = [[
local ok, e = pcall(tf.errors.raise, tf.errors.InaccessibleTensorError, "an example")
print(tf.errors.InaccessibleTensorError, tf.errors.is(e, tf.errors.InaccessibleTensorError))
print(e)
]],
    output = [[
InaccessibleTensorError	true
InaccessibleTensorError: an example
]],
    errors = {},
  },
  ["tf.errors.InternalError"] = {
    example = [[
local ok, e = pcall(tf.errors.raise, tf.errors.InternalError, "an example")
print(tf.errors.InternalError, tf.errors.is(e, tf.errors.InternalError))
print(e)
]],
    output = [[
InternalError	true
InternalError: an example
]],
    errors = {},
  },
  ["tf.errors.InterruptedError"] = {
    example = [[
local ok, e = pcall(tf.errors.raise, tf.errors.InterruptedError, "an example")
print(tf.errors.InterruptedError, tf.errors.is(e, tf.errors.InterruptedError))
print(e)
]],
    output = [[
InterruptedError	true
InterruptedError: an example
]],
    errors = {},
  },
  ["tf.errors.InvalidArgumentError"] = {
    example = [[
local ok, e = pcall(tf.reshape, tf.range(6), {4, 2})
print(tf.errors.is(e, tf.errors.InvalidArgumentError), e.type == tf.errors.InvalidArgumentError)
print(e)
]],
    output = [[
true	true
InvalidArgumentError: Input to reshape is a tensor with 6 values, but the requested shape has 8 [Op:Reshape]
]],
    errors = {},
  },
  ["tf.errors.KeyError"] = {
    example = [[
local ok, e = pcall(tf.errors.raise, tf.errors.KeyError, "an example")
print(tf.errors.KeyError, tf.errors.is(e, tf.errors.KeyError))
print(e)
]],
    output = [[
KeyError	true
KeyError: an example
]],
    errors = {},
  },
  ["tf.errors.LookupError"] = {
    example = [[
local ok, e = pcall(tf.errors.raise, tf.errors.LookupError, "an example")
print(tf.errors.LookupError, tf.errors.is(e, tf.errors.LookupError))
print(e)
]],
    output = [[
LookupError	true
LookupError: an example
]],
    errors = {},
  },
  ["tf.errors.LuaError"] = {
    example = [[
local ok, e = pcall(tf.errors.raise, tf.errors.LuaError, "an example")
print(tf.errors.LuaError, tf.errors.is(e, tf.errors.LuaError))
print(e)
]],
    output = [[
LuaError	true
LuaError: an example
]],
    errors = {},
  },
  ["tf.errors.NameError"] = {
    example = [[
local ok, e = pcall(tf.errors.raise, tf.errors.NameError, "an example")
print(tf.errors.NameError, tf.errors.is(e, tf.errors.NameError))
print(e)
]],
    output = [[
NameError	true
NameError: an example
]],
    errors = {},
  },
  ["tf.errors.NotFoundError"] = {
    example = [[
local ok, e = pcall(tf.io.read_npy, "/nonexistent/x.npy")
print(tf.errors.is(e, tf.errors.NotFoundError), e.type == tf.errors.NotFoundError)
print(e)
]],
    output = [[
true	true
NotFoundError: cannot open '/nonexistent/x.npy': No such file or directory
]],
    errors = {},
  },
  ["tf.errors.NotImplementedError"] = {
    example = [[
local ok, e = pcall(tf.errors.raise, tf.errors.NotImplementedError, "an example")
print(tf.errors.NotImplementedError, tf.errors.is(e, tf.errors.NotImplementedError))
print(e)
]],
    output = [[
NotImplementedError	true
NotImplementedError: an example
]],
    errors = {},
  },
  ["tf.errors.OutOfRangeError"] = {
    example = [[
local ok, e = pcall(tf.errors.raise, tf.errors.OutOfRangeError, "an example")
print(tf.errors.OutOfRangeError, tf.errors.is(e, tf.errors.OutOfRangeError))
print(e)
]],
    output = [[
OutOfRangeError	true
OutOfRangeError: an example
]],
    errors = {},
  },
  ["tf.errors.RecursionError"] = {
    example = [[
local ok, e = pcall(tf.errors.raise, tf.errors.RecursionError, "an example")
print(tf.errors.RecursionError, tf.errors.is(e, tf.errors.RecursionError))
print(e)
]],
    output = [[
RecursionError	true
RecursionError: an example
]],
    errors = {},
  },
  ["tf.errors.ResourceExhaustedError"] = {
    example = [[
local ok, e = pcall(tf.errors.raise, tf.errors.ResourceExhaustedError, "an example")
print(tf.errors.ResourceExhaustedError, tf.errors.is(e, tf.errors.ResourceExhaustedError))
print(e)
]],
    output = [[
ResourceExhaustedError	true
ResourceExhaustedError: an example
]],
    errors = {},
  },
  ["tf.errors.RuntimeError"] = {
    example = [[
local ok, e = pcall(function()
  local x = tf.Variable(1.0)
  local tape = tf.GradientTape()
  local y = x * x
  tape:gradient(y, x)
  return tape:gradient(y, x)
end)
print(tf.errors.is(e, tf.errors.RuntimeError), e.type == tf.errors.RuntimeError)
print(e)
]],
    output = [[
true	true
RuntimeError: GradientTape.gradient can only be called once on non-persistent tapes.
]],
    errors = {},
  },
  ["tf.errors.SyntaxError"] = {
    example = [[
local ok, e = pcall(tf.errors.raise, tf.errors.SyntaxError, "an example")
print(tf.errors.SyntaxError, tf.errors.is(e, tf.errors.SyntaxError))
print(e)
]],
    output = [[
SyntaxError	true
SyntaxError: an example
]],
    errors = {},
  },
  ["tf.errors.SystemExit"] = {
    example = [[
local ok, e = pcall(tf.errors.raise, tf.errors.SystemExit, "an example")
print(tf.errors.SystemExit, tf.errors.is(e, tf.errors.SystemExit))
print(e)
]],
    output = [[
SystemExit	true
SystemExit: an example
]],
    errors = {},
  },
  ["tf.errors.TypeError"] = {
    example = [[
local ok, e = pcall(tf.constant, {1, "a"})
print(tf.errors.is(e, tf.errors.TypeError), e.type == tf.errors.TypeError)
print(e)
]],
    output = [[
true	true
TypeError: Can't convert a table mixing strings with other values to a Tensor
]],
    errors = {},
  },
  ["tf.errors.UnavailableError"] = {
    example = [[
local ok, e = pcall(tf.errors.raise, tf.errors.UnavailableError, "an example")
print(tf.errors.UnavailableError, tf.errors.is(e, tf.errors.UnavailableError))
print(e)
]],
    output = [[
UnavailableError	true
UnavailableError: an example
]],
    errors = {},
  },
  ["tf.errors.UnimplementedError"] = {
    example = [[
local ok, e = pcall(tf.errors.raise, tf.errors.UnimplementedError, "an example")
print(tf.errors.UnimplementedError, tf.errors.is(e, tf.errors.UnimplementedError))
print(e)
]],
    output = [[
UnimplementedError	true
UnimplementedError: an example
]],
    errors = {},
  },
  ["tf.errors.UsageError"] = {
    example = [[
local ok, e = pcall(tf.errors.raise, tf.errors.UsageError, "an example")
print(tf.errors.UsageError, tf.errors.is(e, tf.errors.UsageError))
print(e)
]],
    output = [[
UsageError	true
UsageError: an example
]],
    errors = {},
  },
  ["tf.errors.ValueError"] = {
    example = [[
local ok, e = pcall(tf.constant, {{1, 2}, {3}})
print(tf.errors.is(e, tf.errors.ValueError), e.type == tf.errors.ValueError)
print(e)
]],
    output = [[
true	true
ValueError: Can't convert non-rectangular Lua sequence to Tensor (ragged at axis 1)
]],
    errors = {},
  },
  ["tf.errors.is"] = {
    example = [[
local ok, e = pcall(tf.reshape, tf.range(6), {4, 2})
print(tf.errors.is(e), tf.errors.is(e, tf.errors.InvalidArgumentError), tf.errors.is(e, "TypeError"))
print(e.type)
print(tf.errors.is("just a string"))
]],
    output = [[
true	true	false
InvalidArgumentError
false
]],
    errors = {},
  },
  ["tf.errors.raise"] = {
    example = [[
local ok, e = pcall(tf.errors.raise, "ValueError", "window must be positive, got -1")
print(ok, e.type, e.message)
print(e)
]],
    output = [[
false	ValueError	window must be positive, got -1
ValueError: window must be positive, got -1
]],
    errors = {
      { code = [[tf.errors.raise("ValueError")]], type = "TypeError", message = "tf.errors.raise: argument 'message' must be a string, got nil" },
      { code = [[tf.errors.raise(42, "x")]], type = "TypeError", message = "tf.errors.raise: argument 'type' must be a string, got 42" },
    },
  },
}
