-- data: examples and errors for the reference (docs/reference.md and %help).
return {
  ["tf.data.AUTOTUNE"] = {
    example = [[
print(tf.data.AUTOTUNE)
local ds = tf.data.Dataset.range(4):batch(2):prefetch(tf.data.AUTOTUNE)
for b in ds do print(b) end
]],
    output = [[
-1
tf.Tensor([0 1], shape=(2,), dtype=int64)
tf.Tensor([2 3], shape=(2,), dtype=int64)
]],
    errors = {},
  },
  ["tf.data.INFINITE_CARDINALITY"] = {
    example = [[
print(tf.data.INFINITE_CARDINALITY)
-- ds:repeat_() is ds:repeat() (`repeat` is a Lua keyword)
print(tf.data.Dataset.range(2):repeat_():cardinality():numpy() == tf.data.INFINITE_CARDINALITY)
]],
    output = [[
-1
true
]],
    errors = {},
  },
  ["tf.data.UNKNOWN_CARDINALITY"] = {
    example = [[
print(tf.data.UNKNOWN_CARDINALITY)
local ds = tf.data.Dataset.range(5):filter(function(x) return x % 2 == 0 end)
print(ds:cardinality():numpy() == tf.data.UNKNOWN_CARDINALITY)
]],
    output = [[
-2
true
]],
    errors = {},
  },
  ["tf.data.TextLineDataset"] = {
    example = [[
local path = os.tmpname()
local f = io.open(path, "w")
f:write("first line\nsecond line\n")
f:close()
local ds = tf.data.TextLineDataset(path)
print(ds)
for line in ds do print(line) end
os.remove(path)
]],
    output = [[
<TextLineDatasetV2 element_spec=TensorSpec(shape=(), dtype=tf.string, name=None)>
tf.Tensor(b'first line', shape=(), dtype=string)
tf.Tensor(b'second line', shape=(), dtype=string)
]],
    errors = {
      { code = [[for _ in tf.data.TextLineDataset("/nonexistent/lines.txt") do end]], type = "NotFoundError", message = "/nonexistent/lines.txt; No such file or directory" },
      { code = [[tf.data.TextLineDataset(42)]], type = "TypeError", message = "`filenames` must be a string, a list of strings or a string tensor, got" },
    },
  },
  ["tf.data.Dataset.from_generator"] = {
    example = [[
local ds = tf.data.Dataset.from_generator(function()
  return coroutine.wrap(function()
    for i = 1, 3 do coroutine.yield(i * i) end
  end)
end, { output_signature = tf.TensorSpec({}, tf.int32) })
for x in ds do print(x) end
]],
    output = [[
tf.Tensor(1, shape=(), dtype=int32)
tf.Tensor(4, shape=(), dtype=int32)
tf.Tensor(9, shape=(), dtype=int32)
]],
    errors = {
      { code = [[tf.data.Dataset.from_generator(function() end)]], type = "TypeError", message = "The `output_types` argument can not be None if `output_signature` is" },
      { code = [[tf.data.Dataset.from_generator(42, { output_signature = tf.TensorSpec({}, tf.int32) })]], type = "TypeError", message = "`generator` must be a Python callable." },
    },
  },
  ["tf.data.Dataset.from_tensor_slices"] = {
    example = [[
local ds = tf.data.Dataset.from_tensor_slices({{1, 2}, {3, 4}})
print(ds)
for row in ds do print(row) end
for d in tf.data.Dataset.from_tensor_slices({x = {1, 2}, y = {"a", "b"}}) do print(d.x, d.y) end
]],
    output = [[
<_TensorSliceDataset element_spec=TensorSpec(shape=(2,), dtype=tf.int32, name=None)>
tf.Tensor([1 2], shape=(2,), dtype=int32)
tf.Tensor([3 4], shape=(2,), dtype=int32)
tf.Tensor(1, shape=(), dtype=int32)	tf.Tensor(b'a', shape=(), dtype=string)
tf.Tensor(2, shape=(), dtype=int32)	tf.Tensor(b'b', shape=(), dtype=string)
]],
    errors = {
      { code = [[tf.data.Dataset.from_tensor_slices(tf.constant(1))]], type = "ValueError", message = "Unbatching a tensor is only supported for rank >= 1" },
      { code = [[tf.data.Dataset.from_tensor_slices({x = {1, 2}, y = {1, 2, 3}})]], type = "ValueError", message = "Dimensions 2 and 3 are not compatible" },
    },
  },
  ["tf.data.Dataset.from_tensors"] = {
    example = [[
local ds = tf.data.Dataset.from_tensors({1, 2, 3})
print(ds)
for x in ds do print(x) end
]],
    output = [[
<_TensorDataset element_spec=TensorSpec(shape=(3,), dtype=tf.int32, name=None)>
tf.Tensor([1 2 3], shape=(3,), dtype=int32)
]],
    errors = {
      { code = [[tf.data.Dataset.from_tensors(nil)]], type = "TypeError", message = "from_tensors: expected tensors, Lua numbers, booleans, strings or" },
    },
  },
  ["tf.data.Dataset.range"] = {
    example = [[
print(tf.data.Dataset.range(3))
for x in tf.data.Dataset.range(1, 7, 2) do print(x) end
]],
    output = [[
<_RangeDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>
tf.Tensor(1, shape=(), dtype=int64)
tf.Tensor(3, shape=(), dtype=int64)
tf.Tensor(5, shape=(), dtype=int64)
]],
    errors = {
      { code = [[tf.data.Dataset.range(1, 5, 0)]], type = "InvalidArgumentError", message = "step must be a non-zero integer." },
      { code = [[tf.data.Dataset.range("a")]], type = "TypeError", message = "stop must be an integer, got a" },
    },
  },
  ["tf.data.Dataset.zip"] = {
    example = [[
local a = tf.data.Dataset.range(2)
local b = tf.data.Dataset.from_tensor_slices({"x", "y"})
for i, s in tf.data.Dataset.zip(a, b) do print(i, s) end
print(tf.data.Dataset.zip({x = a, y = b}))
]],
    output = [[
tf.Tensor(0, shape=(), dtype=int64)	tf.Tensor(b'x', shape=(), dtype=string)
tf.Tensor(1, shape=(), dtype=int64)	tf.Tensor(b'y', shape=(), dtype=string)
<_ZipDataset element_spec={'x': TensorSpec(shape=(), dtype=tf.int64, name=None), 'y': TensorSpec(shape=(), dtype=tf.string, name=None)}>
]],
    errors = {
      { code = [[tf.data.Dataset.zip(tf.data.Dataset.range(2), 42)]], type = "TypeError", message = "tf.data.Dataset.zip: the arguments must be datasets or (nested) tables" },
    },
  },
  ["tf.data.experimental.AUTOTUNE"] = {
    example = [[
print(tf.data.experimental.AUTOTUNE, tf.data.experimental.AUTOTUNE == tf.data.AUTOTUNE)
]],
    output = [[
-1	true
]],
    errors = {},
  },
  ["tf.data.experimental.CsvDataset"] = {
    example = [[
local path = os.tmpname()
local f = io.open(path, "w")
f:write("id,score,name\n1,0.5,ann\n2,,bob\n")
f:close()
local ds = tf.data.experimental.CsvDataset(path, {tf.int32, 0.0, ""}, { header = true })
print(ds)
for id, score, name in ds do print(id, score, name) end
os.remove(path)
]],
    output = [[
<CsvDatasetV2 element_spec=(TensorSpec(shape=(), dtype=tf.int32, name=None), TensorSpec(shape=(), dtype=tf.float32, name=None), TensorSpec(shape=(), dtype=tf.string, name=None))>
tf.Tensor(1, shape=(), dtype=int32)	tf.Tensor(0.5, shape=(), dtype=float32)	tf.Tensor(b'ann', shape=(), dtype=string)
tf.Tensor(2, shape=(), dtype=int32)	tf.Tensor(0.0, shape=(), dtype=float32)	tf.Tensor(b'bob', shape=(), dtype=string)
]],
    errors = {
      { code = [[tf.data.experimental.CsvDataset("x.csv", {}, { header = true })]], type = "TypeError", message = "record_defaults must be a non-empty Lua list of default values or dtypes" },
      { code = [[tf.data.experimental.CsvDataset("x.csv", {0}, { heder = true })]], type = "TypeError", message = "tf.data.experimental.CsvDataset got an unexpected keyword argument" },
    },
  },
  ["tf.data.experimental.INFINITE_CARDINALITY"] = {
    example = [[
print(tf.data.experimental.INFINITE_CARDINALITY == tf.data.INFINITE_CARDINALITY)
]],
    output = [[
true
]],
    errors = {},
  },
  ["tf.data.experimental.UNKNOWN_CARDINALITY"] = {
    example = [[
print(tf.data.experimental.UNKNOWN_CARDINALITY == tf.data.UNKNOWN_CARDINALITY)
]],
    output = [[
true
]],
    errors = {},
  },
  ["tf.data.Dataset.flat_map"] = {
    example = [[
local ds = tf.data.Dataset.range(4):flat_map(function(x) return tf.data.Dataset.range(x) end)
print(ds)
for x in ds do print(x) end
print(ds:cardinality())
]],
    output = [[
<_FlatMapDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>
tf.Tensor(0, shape=(), dtype=int64)
tf.Tensor(0, shape=(), dtype=int64)
tf.Tensor(1, shape=(), dtype=int64)
tf.Tensor(0, shape=(), dtype=int64)
tf.Tensor(1, shape=(), dtype=int64)
tf.Tensor(2, shape=(), dtype=int64)
tf.Tensor(-2, shape=(), dtype=int64)
]],
    errors = {
      { code = [[tf.data.Dataset.range(3):flat_map(function(x) return x end)]], type = "TypeError", message = "The `map_func` argument must return a `Dataset` object. Got <class 'tensorflow.python.framework.tensor.Tensor'>." },
      { code = [[tf.data.Dataset.range(3):flat_map(42)]], type = "TypeError", message = "Dataset.flat_map() expects a function" },
    },
  },
  ["tf.data.Dataset.interleave"] = {
    example = [[
local ds = tf.data.Dataset.range(1, 4):interleave(function(x)
  return tf.data.Dataset.from_tensors(x):repeat_(3)
end, 2, 2)
print(ds)
local out = {}
for x in ds do out[#out + 1] = x:numpy() end
print(table.concat(out, " "))
]],
    output = [[
<_InterleaveDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>
1 1 2 2 1 2 3 3 3
]],
    errors = {
      { code = [[tf.data.Dataset.range(3):interleave(tf.data.Dataset.from_tensors, 0)]], type = "InvalidArgumentError", message = "cycle_length must be greater than zero." },
      { code = [[tf.data.Dataset.range(3):interleave(tf.data.Dataset.from_tensors, 2, 0)]], type = "InvalidArgumentError", message = "block_length must be greater than zero." },
      { code = [[tf.data.Dataset.range(3):interleave(function(x) return { x } end)]], type = "TypeError", message = "The `map_func` argument must return a `Dataset` object. Got <class 'tuple'>." },
    },
  },
  ["tf.data.Dataset.window"] = {
    example = [[
local ds = tf.data.Dataset.range(7):window(3, 2)
print(ds)
for w in ds do print(w, w:cardinality():numpy()) end
local sliding = tf.data.Dataset.range(6):window(4, 1, 1, true):flat_map(function(w) return w:batch(4) end)
for b in sliding do print(b) end
]],
    output = [[
<_WindowDataset element_spec=DatasetSpec(TensorSpec(shape=(), dtype=tf.int64, name=None), TensorShape([]))>
<_VariantDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>	3
<_VariantDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>	3
<_VariantDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>	3
<_VariantDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>	1
tf.Tensor([0 1 2 3], shape=(4,), dtype=int64)
tf.Tensor([1 2 3 4], shape=(4,), dtype=int64)
tf.Tensor([2 3 4 5], shape=(4,), dtype=int64)
]],
    errors = {
      { code = [[tf.data.Dataset.range(3):window(0)]], type = "InvalidArgumentError", message = "Window size must be greater than zero." },
      { code = [[tf.data.Dataset.range(3):window(2, 0)]], type = "InvalidArgumentError", message = "Window shift must be greater than zero." },
      { code = [[tf.data.Dataset.range(3):window(1.5)]], type = "TypeError", message = "size must be an integer" },
    },
  },
  ["tf.data.Dataset.choose_from_datasets"] = {
    example = [[
local D = tf.data.Dataset
local words = { D.from_tensors("foo"):repeat_(), D.from_tensors("bar"):repeat_() }
local ds = D.choose_from_datasets(words, D.from_tensor_slices(tf.constant({ 0, 1, 1, 0 }, tf.int64)))
print(ds)
for w in ds do print(w) end
]],
    output = [[
<_DirectedInterleaveDataset element_spec=TensorSpec(shape=(), dtype=tf.string, name=None)>
tf.Tensor(b'foo', shape=(), dtype=string)
tf.Tensor(b'bar', shape=(), dtype=string)
tf.Tensor(b'bar', shape=(), dtype=string)
tf.Tensor(b'foo', shape=(), dtype=string)
]],
    errors = {
      { code = [[tf.data.Dataset.choose_from_datasets({}, tf.data.Dataset.range(3))]], type = "ValueError", message = "Invalid `datasets`. `datasets` should not be empty." },
      { code = [[tf.data.Dataset.choose_from_datasets({ tf.data.Dataset.range(3) }, tf.data.Dataset.from_tensors(1.0))]], type = "TypeError", message = "Elements of `choice_dataset` must be scalar `tf.int64` tensors" },
      { code = [[for _ in tf.data.Dataset.choose_from_datasets({ tf.data.Dataset.range(3) }, tf.data.Dataset.range(2, 3)) do end]], type = "InvalidArgumentError", message = "Selector index out of range: 2 >= 1" },
    },
  },
  ["tf.data.Dataset.sample_from_datasets"] = {
    example = [[
local D = tf.data.Dataset
local ds = D.sample_from_datasets({ D.range(0, 4), D.range(100, 104) }, { 0.25, 0.75 }, 42)
print(ds)
local a, b = 0, 0
for x in ds do if x:numpy() < 100 then a = a + 1 else b = b + 1 end end
print(a, b)
]],
    output = [[
<_DirectedInterleaveDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>
4	4
]],
    errors = {
      { code = [[tf.data.Dataset.sample_from_datasets({ tf.data.Dataset.range(3), tf.data.Dataset.range(3) }, { 1, 2 })]], type = "TypeError", message = "`weights` type must be either `tf.float32` or `tf.float64`" },
      { code = [[tf.data.Dataset.sample_from_datasets({ tf.data.Dataset.range(3), tf.data.Dataset.range(3) }, { 1.0, 2.0, 3.0 })]], type = "ValueError", message = "The shape of `weights` should be compatible with `[len(datasets)]`" },
    },
  },
  ["tf.data.Dataset.random"] = {
    example = [[
local ds = tf.data.Dataset.random(42):take(3)
print(ds)
local first, again = {}, {}
for x in ds do first[#first + 1] = x:numpy() end
for x in ds do again[#again + 1] = x:numpy() end
print(#first, first[1] == again[1] and first[3] == again[3])
]],
    output = [[
<_TakeDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>
3	true
]],
    errors = {
      { code = [[tf.data.Dataset.random(1.5)]], type = "TypeError", message = "seed must be an integer" },
    },
  },
}
