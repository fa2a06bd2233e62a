-- ragged: examples and errors for the reference (docs/reference.md and %help).
return {
  ["tf.RaggedTensor"] = {
    example = [[
local r = tf.RaggedTensor.from_row_splits({3, 1, 4, 1, 5}, {0, 4, 4, 5})
print(r)
print(r.shape, r.dtype, r.ragged_rank)
print(r:row_lengths())
print(r:to_tensor())
print(r[0])
print(r + 1)
]],
    output = [=[
<tf.RaggedTensor [[3, 1, 4, 1], [], [5]]>
(3, None)	tf.int32	1
tf.Tensor([4 0 1], shape=(3,), dtype=int64)
tf.Tensor(
[[3 1 4 1]
 [0 0 0 0]
 [5 0 0 0]], shape=(3, 4), dtype=int32)
tf.Tensor([3 1 4 1], shape=(4,), dtype=int32)
<tf.RaggedTensor [[4, 2, 5, 2], [], [6]]>
]=],
    errors = {
      { code = [[local _ = tf.RaggedTensor.from_row_splits({1, 2}, {1, 2})]], type = "InvalidArgumentError", message = "Arguments to from_row_splits do not form a valid RaggedTensor:zero" },
      { code = [[local _ = tf.ragged.constant({{1}, {2, 3}}) * tf.ragged.constant({{1, 2}, {3}})]], type = "InvalidArgumentError", message = "Inputs must have identical ragged splits" },
      { code = [=[local r = tf.ragged.constant({{1}}) return r[1]]=], type = "InvalidArgumentError", message = "slice index 1 of dimension 0 out of bounds." },
    },
  },
  ["tf.RaggedTensorSpec"] = {
    example = [[
print(tf.RaggedTensorSpec({2, tf.None}, tf.int32))
local f = tf.func(function(x) return x * 2 end)
print(f:get_concrete_function(tf.ragged.constant({{1, 2}, {3}})):pretty_printed_signature())
local g = tf.func(function(x) return tf.reduce_sum(x, 1) end,
  {input_signature = {tf.RaggedTensorSpec({tf.None, tf.None}, tf.float32)}})
print(g(tf.ragged.constant({{1.5, 2.0}, {}, {3.0}})))
print(g:get_concrete_function():pretty_printed_signature())
]],
    output = [[
RaggedTensorSpec(TensorShape([2, None]), tf.int32, 1, tf.int64)
Input Parameters:
  x (POSITIONAL): RaggedTensorSpec(TensorShape([2, None]), tf.int32, 1, tf.int64)
Output Type:
  RaggedTensorSpec(TensorShape([2, None]), tf.int32, 1, tf.int64)
tf.Tensor([3.5 0.  3. ], shape=(3,), dtype=float32)
Input Parameters:
  x (POSITIONAL): RaggedTensorSpec(TensorShape([None, None]), tf.float32, 1, tf.int64)
Output Type:
  TensorSpec(shape=(None,), dtype=tf.float32, name=None)
]],
    errors = {
      { code = [[local _ = tf.RaggedTensorSpec({2, tf.None}, "int33")]], type = "TypeError", message = "int33" },
      { code = [[local _ = tf.RaggedTensorSpec({tf.None, tf.None}, tf.float32, 2)]], type = "ValueError", message = "Argument `ragged_rank` (2) must be less than rank (2)." },
      { code = [[local _ = tf.RaggedTensorSpec({tf.None, tf.None}, tf.float32, 1, tf.float32)]], type = "ValueError", message = "row_splits_dtype must be int32 or int64" },
      { code = [[local f = tf.func(function(x) return x end, {input_signature = {tf.RaggedTensorSpec({tf.None, tf.None}, tf.float32)}})
local _ = f(tf.ragged.constant({{1}, {2, 3}}))]], type = "TypeError", message = "RaggedTensorSpec(TensorShape([2, None]), tf.int32, 1, tf.int64)" },
    },
  },
  ["tf.ragged.boolean_mask"] = {
    example = [[
local r = tf.ragged.constant({{1, 2, 3}, {4}, {5, 6}})
print(tf.ragged.boolean_mask(r, {true, false, true}))
print(tf.ragged.boolean_mask(r, tf.ragged.constant({{false, false, true}, {false}, {true, true}})))
print(tf.ragged.boolean_mask({{1, 2, 3}, {4, 5, 6}}, {{true, false, true}, {false, false, false}}))
]],
    output = [=[
<tf.RaggedTensor [[1, 2, 3], [5, 6]]>
<tf.RaggedTensor [[3], [], [5, 6]]>
<tf.RaggedTensor [[1, 3], []]>
]=],
    errors = {
      { code = [[local _ = tf.ragged.boolean_mask(tf.ragged.constant({{1}}), true)]], type = "ValueError", message = "mask cannot be scalar." },
      { code = [[local _ = tf.ragged.boolean_mask(tf.ragged.constant({{1}}), {1})]], type = "ValueError", message = "mask must have dtype bool." },
      { code = [[local _ = tf.ragged.boolean_mask(tf.ragged.constant({{1}, {2}}), tf.ragged.constant({{true, false}, {}}))]], type = "InvalidArgumentError", message = "Inputs must have identical ragged splits" },
    },
  },
  ["tf.ragged.stack"] = {
    example = [[
print(tf.ragged.stack({tf.constant({1, 2, 3}), tf.constant({4, 5})}))
local a = tf.ragged.constant({{1, 2}, {3}})
local b = tf.ragged.constant({{4}, {5, 6}})
print(tf.ragged.stack({a, b}))
print(tf.ragged.stack({a, b}, 1))
]],
    output = [=[
<tf.RaggedTensor [[1, 2, 3], [4, 5]]>
<tf.RaggedTensor [[[1, 2], [3]], [[4], [5, 6]]]>
<tf.RaggedTensor [[[1, 2], [4]], [[3], [5, 6]]]>
]=],
    errors = {
      { code = [[local _ = tf.ragged.stack({tf.ragged.constant({{1}}), tf.constant({1})})]], type = "ValueError", message = "all inputs must have the same rank" },
      { code = [[local _ = tf.ragged.stack({tf.ragged.constant({{1}})}, 3)]], type = "ValueError", message = "axis=3 out of bounds: expected -3<=axis<3" },
      { code = [[local _ = tf.ragged.stack({tf.ragged.constant({{1}}), tf.ragged.constant({{1}, {2}})}, 1)]], type = "InvalidArgumentError", message = "must have the same number of rows" },
    },
  },
  ["tf.ragged.range"] = {
    example = [[
print(tf.ragged.range({3, 5, 2}))
print(tf.ragged.range({0, 5, 8}, {3, 3, 12}, 2))
print(tf.ragged.range({0.0, 3.0}, {1.0, 4.0}, 0.5))
]],
    output = [=[
<tf.RaggedTensor [[0, 1, 2], [0, 1, 2, 3, 4], [0, 1]]>
<tf.RaggedTensor [[0, 2], [], [8, 10]]>
<tf.RaggedTensor [[0.0, 0.5], [3.0, 3.5]]>
]=],
    errors = {
      { code = [[local _ = tf.ragged.range({0, 1}, {5, 6}, {1, 0})]], type = "InvalidArgumentError", message = "Requires delta != 0" },
      { code = [[local _ = tf.ragged.range({0, 1}, {1, 2, 3})]], type = "InvalidArgumentError", message = "starts, limits, and deltas must have the same shape" },
      { code = [[local _ = tf.ragged.range({{1}})]], type = "ValueError", message = "must be rank 0 or 1" },
    },
  },
  ["tf.ragged.constant"] = {
    example = [[
print(tf.ragged.constant({{1, 2}, {3}, {}}))
print(tf.ragged.constant({{"a"}, {"b", "c"}}))
print(tf.ragged.constant({{{1, 2}, {3, 4}}, {{5, 6}}}, nil, 1).shape)
]],
    output = [=[
<tf.RaggedTensor [[1, 2], [3], []]>
<tf.RaggedTensor [[b'a'], [b'b', b'c']]>
(2, None, 2)
]=],
    errors = {
      { code = [[local _ = tf.ragged.constant({"A", {"B", "C"}})]], type = "ValueError", message = "all scalar values must have the same nesting depth" },
      { code = [[local _ = tf.ragged.constant({{1, 2}, {3}}, nil, 2)]], type = "ValueError", message = "ragged_rank must be nonnegative and less than 2" },
    },
  },
  ["tf.ragged.map_flat_values"] = {
    example = [[
local r = tf.ragged.constant({{3, 1}, {4}})
print(tf.ragged.map_flat_values(function(x) return x * 2 + 1 end, r))
]],
    output = [=[
<tf.RaggedTensor [[7, 3], [9]]>
]=],
    errors = {
      { code = [[local _ = tf.ragged.map_flat_values(function(x) return x + "a" end, tf.ragged.constant({{1}}))]], type = "TypeError", message = "Can't convert a Lua string to an int32 tensor" },
    },
  },
  ["tf.RaggedTensor.from_row_splits"] = {
    example = [[
print(tf.RaggedTensor.from_row_splits({3, 1, 4, 1, 5, 9, 2}, {0, 4, 4, 6, 7}))
]],
    output = [=[
<tf.RaggedTensor [[3, 1, 4, 1], [], [5, 9], [2]]>
]=],
    errors = {
      { code = [[local _ = tf.RaggedTensor.from_row_splits({1, 2}, {0, 2, 1, 2})]], type = "InvalidArgumentError", message = "Arguments to from_row_splits do not form a valid RaggedTensor:monotonic" },
    },
  },
  ["tf.RaggedTensor.from_row_lengths"] = {
    example = [[
print(tf.RaggedTensor.from_row_lengths({3, 1, 4, 1, 5, 9, 2}, {4, 0, 2, 1}))
]],
    output = [=[
<tf.RaggedTensor [[3, 1, 4, 1], [], [5, 9], [2]]>
]=],
    errors = {
      { code = [[local _ = tf.RaggedTensor.from_row_lengths({1, 2}, {1, 2})]], type = "InvalidArgumentError", message = "Arguments to _from_row_partition do not form a valid RaggedTensor" },
    },
  },
  ["tf.RaggedTensor.from_value_rowids"] = {
    example = [[
print(tf.RaggedTensor.from_value_rowids({3, 1, 4, 1, 5, 9, 2}, {0, 0, 0, 0, 2, 2, 3}))
print(tf.RaggedTensor.from_value_rowids({1, 2}, {0, 0}, 3))
]],
    output = [=[
<tf.RaggedTensor [[3, 1, 4, 1], [], [5, 9], [2]]>
<tf.RaggedTensor [[1, 2], [], []]>
]=],
    errors = {
      { code = [[local _ = tf.RaggedTensor.from_value_rowids({1, 2}, {1, 0})]], type = "InvalidArgumentError", message = "Arguments to from_value_rowids do not form a valid RaggedTensor:monotonic" },
    },
  },
  ["tf.RaggedTensor.from_tensor"] = {
    example = [[
print(tf.RaggedTensor.from_tensor(tf.constant({{1, 2}, {3, 4}})))
]],
    output = [=[
<tf.RaggedTensor [[1, 2], [3, 4]]>
]=],
    errors = {
      { code = [[local _ = tf.RaggedTensor.from_tensor(tf.constant({1, 2}))]], type = "ValueError", message = "tensor must have rank >= 2" },
    },
  },
  ["tf.RaggedTensor.from_nested_row_splits"] = {
    example = [[
print(tf.RaggedTensor.from_nested_row_splits({1, 2, 3, 4, 5}, {{0, 2, 3}, {0, 2, 3, 5}}))
]],
    output = [=[
<tf.RaggedTensor [[[1, 2], [3]], [[4, 5]]]>
]=],
    errors = {
      { code = [[local _ = tf.RaggedTensor.from_nested_row_splits({1, 2}, {{0, 1}, {1, 2}})]], type = "InvalidArgumentError", message = "do not form a valid RaggedTensor:zero" },
    },
  },
}
