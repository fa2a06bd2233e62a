-- dtypes: examples and errors for the reference (docs/reference.md and %help).
return {
  ["tf.bfloat16"] = {
    example = [[
print(tf.bfloat16, tf.bfloat16.size, tf.bfloat16.is_floating, tf.bfloat16.is_unsigned)
print(tf.constant({1, 0.1}, tf.bfloat16))
]],
    output = [[
tf.bfloat16	2	true	false
tf.Tensor([1 0.100098], shape=(2,), dtype=bfloat16)
]],
    errors = {
      { code = [[local _ = tf.constant(1, tf.bfloat16) * tf.constant(1.0)]], type = "InvalidArgumentError", message = "was expected to be a bfloat16 tensor but is a float tensor" },
    },
  },
  ["tf.bitcast"] = {
    example = [[
print(tf.bitcast(tf.constant(1.0), tf.int32))
print(tf.bitcast(tf.constant({1, 256}, tf.int16), tf.uint8))
print(tf.bitcast(tf.constant({{1, 0, 0, 0}}, tf.uint8), tf.int32))
]],
    output = [==[
tf.Tensor(1065353216, shape=(), dtype=int32)
tf.Tensor(
[[1 0]
 [0 1]], shape=(2, 2), dtype=uint8)
tf.Tensor([1], shape=(1,), dtype=int32)
]==],
    errors = {
      { code = [[tf.bitcast(tf.constant({{1, 2, 3}}, tf.int8), tf.int32)]], type = "InvalidArgumentError", message = "Cannot bitcast from 6 to 3" },
      { code = [[tf.bitcast(tf.constant({true}), tf.int8)]], type = "InvalidArgumentError", message = "got bool" },
      { code = [[tf.func(function(x) return tf.bitcast(x, tf.int32) end)(tf.zeros({2, 3}, tf.int8))]], type = "ValueError", message = "Cannot bitcast from int8 to int32 due to shape. 3 does not match 4" },
    },
  },
  ["tf.dtypes.DType"] = {
    example = [[
print(getmetatable(tf.float16) == tf.dtypes.DType, tf.float16.name)
]],
    output = [[
true	float16
]],
    errors = {
      { code = [[tf.dtypes.as_dtype(42)]], type = "TypeError", message = "Cannot convert 42 to a dtype" },
    },
  },
  ["tf.dtypes.as_dtype"] = {
    example = [[
print(tf.dtypes.as_dtype("half"), tf.dtypes.as_dtype(tf.uint8))
]],
    output = [[
tf.float16	tf.uint8
]],
    errors = {
      { code = [[tf.dtypes.as_dtype("float17")]], type = "TypeError", message = "Cannot convert float17 to a dtype" },
    },
  },
  ["tf.dtypes.bfloat16"] = {
    example = [[
print(tf.dtypes.bfloat16, tf.dtypes.bfloat16.size, tf.dtypes.bfloat16.is_floating, tf.dtypes.bfloat16.is_unsigned)
print(tf.constant({1, 0.1}, tf.dtypes.bfloat16))
]],
    output = [[
tf.bfloat16	2	true	false
tf.Tensor([1 0.100098], shape=(2,), dtype=bfloat16)
]],
    errors = {
      { code = [[local _ = tf.constant(1, tf.dtypes.bfloat16) * tf.constant(1.0)]], type = "InvalidArgumentError", message = "was expected to be a bfloat16 tensor but is a float tensor" },
    },
  },
  ["tf.dtypes.bool"] = {
    example = [[
print(tf.dtypes.bool, tf.dtypes.bool == tf.bool)
]],
    output = [[
tf.bool	true
]],
    errors = {},
  },
  ["tf.dtypes.cast"] = {
    example = [[
print(tf.dtypes.cast(tf.constant({300.7, -1.5}), tf.uint8))
print(tf.dtypes.cast(tf.constant({65519, 65520}), tf.float16))
]],
    output = [[
tf.Tensor([ 44 255], shape=(2,), dtype=uint8)
tf.Tensor([65504.    inf], shape=(2,), dtype=float16)
]],
    errors = {
      { code = [[tf.dtypes.cast(tf.constant({1}), "float17")]], type = "TypeError", message = "Cannot convert float17 to a dtype" },
    },
  },
  ["tf.dtypes.double"] = {
    example = [[
print(tf.dtypes.double, tf.dtypes.double == tf.double)
]],
    output = [[
tf.float64	true
]],
    errors = {},
  },
  ["tf.dtypes.float16"] = {
    example = [[
print(tf.dtypes.float16, tf.dtypes.float16.size, tf.dtypes.float16.is_floating, tf.dtypes.float16.is_unsigned)
print(tf.constant({1, 0.1}, tf.dtypes.float16))
]],
    output = [[
tf.float16	2	true	false
tf.Tensor([1.  0.1], shape=(2,), dtype=float16)
]],
    errors = {
      { code = [[local _ = tf.constant(1, tf.dtypes.float16) * tf.constant(1.0)]], type = "InvalidArgumentError", message = "was expected to be a half tensor but is a float tensor" },
    },
  },
  ["tf.dtypes.float32"] = {
    example = [[
print(tf.dtypes.float32, tf.dtypes.float32 == tf.float32)
]],
    output = [[
tf.float32	true
]],
    errors = {},
  },
  ["tf.dtypes.float64"] = {
    example = [[
print(tf.dtypes.float64, tf.dtypes.float64 == tf.float64)
]],
    output = [[
tf.float64	true
]],
    errors = {},
  },
  ["tf.dtypes.half"] = {
    example = [[
print(tf.dtypes.half, tf.dtypes.half.size, tf.dtypes.half.is_floating, tf.dtypes.half.is_unsigned)
print(tf.constant({1, 0.5}, tf.dtypes.half))
]],
    output = [[
tf.float16	2	true	false
tf.Tensor([1.  0.5], shape=(2,), dtype=float16)
]],
    errors = {
      { code = [[local _ = tf.constant(1, tf.dtypes.half) * tf.constant(1.0)]], type = "InvalidArgumentError", message = "was expected to be a half tensor but is a float tensor" },
    },
  },
  ["tf.dtypes.int16"] = {
    example = [[
print(tf.dtypes.int16, tf.dtypes.int16.size, tf.dtypes.int16.is_floating, tf.dtypes.int16.is_unsigned)
print(tf.constant({1, 300}, tf.dtypes.int16))
]],
    output = [[
tf.int16	2	false	false
tf.Tensor([  1 300], shape=(2,), dtype=int16)
]],
    errors = {
      { code = [[tf.constant(40000, tf.dtypes.int16)]], type = "TypeError", message = "Cannot convert 40000 to EagerTensor of dtype int16" },
    },
  },
  ["tf.dtypes.int32"] = {
    example = [[
print(tf.dtypes.int32, tf.dtypes.int32 == tf.int32)
]],
    output = [[
tf.int32	true
]],
    errors = {},
  },
  ["tf.dtypes.int64"] = {
    example = [[
print(tf.dtypes.int64, tf.dtypes.int64 == tf.int64)
]],
    output = [[
tf.int64	true
]],
    errors = {},
  },
  ["tf.dtypes.int8"] = {
    example = [[
print(tf.dtypes.int8, tf.dtypes.int8.size, tf.dtypes.int8.is_floating, tf.dtypes.int8.is_unsigned)
print(tf.constant({1, -128}, tf.dtypes.int8))
]],
    output = [[
tf.int8	1	false	false
tf.Tensor([   1 -128], shape=(2,), dtype=int8)
]],
    errors = {
      { code = [[tf.constant(128, tf.dtypes.int8)]], type = "TypeError", message = "Cannot convert 128 to EagerTensor of dtype int8" },
    },
  },
  ["tf.dtypes.resource"] = {
    example = [[
print(tf.dtypes.resource, tf.dtypes.resource == tf.resource)
]],
    output = [[
tf.resource	true
]],
    errors = {},
  },
  ["tf.dtypes.saturate_cast"] = {
    example = [[
print(tf.dtypes.saturate_cast(tf.constant({-300, 100, 300}), tf.uint8))
print(tf.dtypes.saturate_cast(tf.constant({-1e10, 3.7, 1e10}), tf.int32))
print(tf.cast(tf.constant({-300, 100, 300}), tf.uint8))
]],
    output = [[
tf.Tensor([  0 100 255], shape=(3,), dtype=uint8)
tf.Tensor([-2147483648           3  2147483520], shape=(3,), dtype=int32)
tf.Tensor([212 100  44], shape=(3,), dtype=uint8)
]],
    errors = {
      { code = [[tf.dtypes.saturate_cast(tf.constant(1), "int3")]], type = "TypeError", message = "Cannot convert int3 to a dtype" },
    },
  },
  ["tf.dtypes.string"] = {
    example = [[
print(tf.dtypes.string, tf.dtypes.string == tf.string)
]],
    output = [[
tf.string	true
]],
    errors = {},
  },
  ["tf.dtypes.uint16"] = {
    example = [[
print(tf.dtypes.uint16, tf.dtypes.uint16.size, tf.dtypes.uint16.is_floating, tf.dtypes.uint16.is_unsigned)
print(tf.constant({1, 65535}, tf.dtypes.uint16))
]],
    output = [[
tf.uint16	2	false	true
tf.Tensor([    1 65535], shape=(2,), dtype=uint16)
]],
    errors = {
      { code = [[tf.constant(-1, tf.dtypes.uint16)]], type = "TypeError", message = "Cannot convert -1 to EagerTensor of dtype uint16" },
    },
  },
  ["tf.dtypes.uint32"] = {
    example = [[
print(tf.dtypes.uint32, tf.dtypes.uint32.size, tf.dtypes.uint32.is_floating, tf.dtypes.uint32.is_unsigned)
print(tf.constant({1, 4294967295}, tf.dtypes.uint32))
]],
    output = [[
tf.uint32	4	false	true
tf.Tensor([         1 4294967295], shape=(2,), dtype=uint32)
]],
    errors = {
      { code = [[tf.constant(-1, tf.dtypes.uint32)]], type = "TypeError", message = "Cannot convert -1 to EagerTensor of dtype uint32" },
    },
  },
  ["tf.dtypes.uint64"] = {
    example = [[
print(tf.dtypes.uint64, tf.dtypes.uint64.size, tf.dtypes.uint64.is_floating, tf.dtypes.uint64.is_unsigned)
print(tf.constant({1, 7}, tf.dtypes.uint64))
]],
    output = [[
tf.uint64	8	false	true
tf.Tensor([1 7], shape=(2,), dtype=uint64)
]],
    errors = {
      { code = [[tf.constant(-1, tf.dtypes.uint64)]], type = "TypeError", message = "Cannot convert -1 to EagerTensor of dtype uint64" },
    },
  },
  ["tf.dtypes.uint8"] = {
    example = [[
print(tf.dtypes.uint8, tf.dtypes.uint8.size, tf.dtypes.uint8.is_floating, tf.dtypes.uint8.is_unsigned)
print(tf.constant({1, 255}, tf.dtypes.uint8))
]],
    output = [[
tf.uint8	1	false	true
tf.Tensor([  1 255], shape=(2,), dtype=uint8)
]],
    errors = {
      { code = [[tf.constant(300, tf.dtypes.uint8)]], type = "TypeError", message = "Cannot convert 300 to EagerTensor of dtype uint8" },
    },
  },
  ["tf.dtypes.variant"] = {
    example = [[
print(tf.dtypes.variant, tf.dtypes.variant == tf.variant)
]],
    output = [[
tf.variant	true
]],
    errors = {},
  },
  ["tf.float16"] = {
    example = [[
print(tf.float16, tf.float16.size, tf.float16.is_floating, tf.float16.is_unsigned)
print(tf.constant({1, 0.1}, tf.float16))
]],
    output = [[
tf.float16	2	true	false
tf.Tensor([1.  0.1], shape=(2,), dtype=float16)
]],
    errors = {
      { code = [[local _ = tf.constant(1, tf.float16) * tf.constant(1.0)]], type = "InvalidArgumentError", message = "was expected to be a half tensor but is a float tensor" },
    },
  },
  ["tf.half"] = {
    example = [[
print(tf.half, tf.half.size, tf.half.is_floating, tf.half.is_unsigned)
print(tf.constant({1, 0.5}, tf.half))
]],
    output = [[
tf.float16	2	true	false
tf.Tensor([1.  0.5], shape=(2,), dtype=float16)
]],
    errors = {
      { code = [[local _ = tf.constant(1, tf.half) * tf.constant(1.0)]], type = "InvalidArgumentError", message = "was expected to be a half tensor but is a float tensor" },
    },
  },
  ["tf.int16"] = {
    example = [[
print(tf.int16, tf.int16.size, tf.int16.is_floating, tf.int16.is_unsigned)
print(tf.constant({1, 300}, tf.int16))
]],
    output = [[
tf.int16	2	false	false
tf.Tensor([  1 300], shape=(2,), dtype=int16)
]],
    errors = {
      { code = [[tf.constant(40000, tf.int16)]], type = "TypeError", message = "Cannot convert 40000 to EagerTensor of dtype int16" },
    },
  },
  ["tf.int8"] = {
    example = [[
print(tf.int8, tf.int8.size, tf.int8.is_floating, tf.int8.is_unsigned)
print(tf.constant({1, -128}, tf.int8))
]],
    output = [[
tf.int8	1	false	false
tf.Tensor([   1 -128], shape=(2,), dtype=int8)
]],
    errors = {
      { code = [[tf.constant(128, tf.int8)]], type = "TypeError", message = "Cannot convert 128 to EagerTensor of dtype int8" },
    },
  },
  ["tf.saturate_cast"] = {
    example = [[
print(tf.saturate_cast(tf.constant({-300, 100, 300}), tf.uint8))
print(tf.saturate_cast(tf.constant({-1e10, 3.7, 1e10}), tf.int32))
print(tf.cast(tf.constant({-300, 100, 300}), tf.uint8))
]],
    output = [[
tf.Tensor([  0 100 255], shape=(3,), dtype=uint8)
tf.Tensor([-2147483648           3  2147483520], shape=(3,), dtype=int32)
tf.Tensor([212 100  44], shape=(3,), dtype=uint8)
]],
    errors = {
      { code = [[tf.saturate_cast(tf.constant(1), "int3")]], type = "TypeError", message = "Cannot convert int3 to a dtype" },
    },
  },
  ["tf.uint16"] = {
    example = [[
print(tf.uint16, tf.uint16.size, tf.uint16.is_floating, tf.uint16.is_unsigned)
print(tf.constant({1, 65535}, tf.uint16))
]],
    output = [[
tf.uint16	2	false	true
tf.Tensor([    1 65535], shape=(2,), dtype=uint16)
]],
    errors = {
      { code = [[tf.constant(-1, tf.uint16)]], type = "TypeError", message = "Cannot convert -1 to EagerTensor of dtype uint16" },
    },
  },
  ["tf.uint32"] = {
    example = [[
print(tf.uint32, tf.uint32.size, tf.uint32.is_floating, tf.uint32.is_unsigned)
print(tf.constant({1, 4294967295}, tf.uint32))
]],
    output = [[
tf.uint32	4	false	true
tf.Tensor([         1 4294967295], shape=(2,), dtype=uint32)
]],
    errors = {
      { code = [[tf.constant(-1, tf.uint32)]], type = "TypeError", message = "Cannot convert -1 to EagerTensor of dtype uint32" },
    },
  },
  ["tf.uint64"] = {
    example = [[
print(tf.uint64, tf.uint64.size, tf.uint64.is_floating, tf.uint64.is_unsigned)
print(tf.constant({1, 7}, tf.uint64))
]],
    output = [[
tf.uint64	8	false	true
tf.Tensor([1 7], shape=(2,), dtype=uint64)
]],
    errors = {
      { code = [[tf.constant(-1, tf.uint64)]], type = "TypeError", message = "Cannot convert -1 to EagerTensor of dtype uint64" },
    },
  },
  ["tf.uint8"] = {
    example = [[
print(tf.uint8, tf.uint8.size, tf.uint8.is_floating, tf.uint8.is_unsigned)
print(tf.constant({1, 255}, tf.uint8))
]],
    output = [[
tf.uint8	1	false	true
tf.Tensor([  1 255], shape=(2,), dtype=uint8)
]],
    errors = {
      { code = [[tf.constant(300, tf.uint8)]], type = "TypeError", message = "Cannot convert 300 to EagerTensor of dtype uint8" },
    },
  },
}
