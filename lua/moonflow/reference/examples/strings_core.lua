-- strings_core: examples and errors for the reference (docs/reference.md and %help).
return {
  ["tf.strings.join"] = {
    example = [[
print(tf.strings.join({tf.constant({"abc", "def"}), tf.constant({"g", "h"})}, "-"))
]],
    output = [[
tf.Tensor([b'abc-g' b'def-h'], shape=(2,), dtype=string)
]],
    errors = {
      { code = [[tf.strings.join({tf.constant({"a", "b"}), tf.constant({"c", "d", "e"})})]], type = "InvalidArgumentError", message = "Input shapes do not match: [2] vs. [3]" },
      { code = [[tf.strings.join({tf.constant({1, 2})})]], type = "InvalidArgumentError", message = "StringJoin expects a string tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.strings.length"] = {
    example = [[
print(tf.strings.length(tf.constant({"hello", ""})))
print(tf.strings.length(tf.constant("héllo"), "UTF8_CHAR"))
]],
    output = [[
tf.Tensor([5 0], shape=(2,), dtype=int32)
tf.Tensor(5, shape=(), dtype=int32)
]],
    errors = {
      { code = [[tf.strings.length(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "StringLength expects a string tensor for input #0(zero-based), got int32" },
      { code = [[tf.strings.length(tf.constant("a"), "WORD")]], type = "InvalidArgumentError", message = "Value for attr 'unit' of \"WORD\" is not in the list of allowed values: \"BYTE\", \"UTF8_CHAR\"" },
    },
  },
}
