-- tf: examples and errors for the reference (docs/reference.md and %help).
return {
  ["tf.abs"] = {
    example = [[
print(tf.abs(tf.constant({-2.25, 3.25})))
]],
    output = [[
tf.Tensor([2.25 3.25], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.abs(tf.constant({true}))]], type = "TypeError", message = "bool" },
    },
  },
}
