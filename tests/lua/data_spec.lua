-- data_spec.lua — tf.data eagerly: the sources, transformations and
-- iterators, with the values, printed forms, cardinalities and errors
-- TensorFlow gives (cases ported from tensorflow/python/data/kernel_tests:
-- range_test, batch_test, padded_batch_test, take_test, skip_test,
-- repeat_test, zip_test, concatenate_test, enumerate_test, shuffle_test,
-- cache_test, map_test, filter_test, unbatch_test, reduce_test,
-- from_tensor_slices_test, iterator_test).
local H = require("helpers")
local tf = rawget(_G, "tf") or require("moonflow")

-- Every element as Lua values (tuples as lists), as list(ds.as_numpy_iterator()).
local elements, card = H.elements, H.card

describe("tf.data sources", function()
  it("from_tensor_slices of a Lua list is a dataset of scalars, printed as TF prints it", function()
    local ds = tf.data.Dataset.from_tensor_slices({ 1, 2, 3 })
    assert.equal("<_TensorSliceDataset element_spec=TensorSpec(shape=(), dtype=tf.int32, name=None)>",
      tostring(ds))
    assert.same({ 1, 2, 3 }, elements(ds))
    assert.equal(3, card(ds))
    assert.equal("TensorSpec(shape=(), dtype=tf.int32, name=None)", tostring(ds.element_spec))
  end)

  it("from_tensor_slices of a tuple and of a dict nests as TF nests them", function()
    local ds = tf.data.Dataset.from_tensor_slices({ tf.constant({ { 1, 2 }, { 3, 4 } }), tf.constant({ "a", "b" }) })
    assert.equal("<_TensorSliceDataset element_spec=(TensorSpec(shape=(2,), dtype=tf.int32, name=None), "
      .. "TensorSpec(shape=(), dtype=tf.string, name=None))>", tostring(ds))
    assert.same({ { { 1, 2 }, "a" }, { { 3, 4 }, "b" } }, elements(ds))
    local d = tf.data.Dataset.from_tensor_slices({ a = { 1, 2 }, b = { 3.5, 4 } })
    assert.equal("<_TensorSliceDataset element_spec={'a': TensorSpec(shape=(), dtype=tf.int32, name=None), "
      .. "'b': TensorSpec(shape=(), dtype=tf.float32, name=None)}>", tostring(d))
    assert.same({ { a = 1, b = 3.5 }, { a = 2, b = 4 } }, elements(d))
  end)

  it("from_tensor_slices of a nested Lua list is one tensor (a Python list converts)", function()
    local ds = tf.data.Dataset.from_tensor_slices({ { 7, 8 }, { 9, 10 } })
    assert.same({ { 7, 8 }, { 9, 10 } }, elements(ds))
    assert.equal("TensorSpec(shape=(2,), dtype=tf.int32, name=None)", tostring(ds.element_spec))
  end)

  it("from_tensor_slices refuses what TF refuses, when TF does", function()
    H.raises("ValueError", "Dimensions 3 and 4 are not compatible", function()
      return tf.data.Dataset.from_tensor_slices({ tf.zeros({ 3 }), tf.zeros({ 4 }) })
    end)
    H.raises("ValueError", "Unbatching a tensor is only supported for rank >= 1", function()
      return tf.data.Dataset.from_tensor_slices(tf.constant(5))
    end)
    H.raises("ValueError", nil, function() return tf.data.Dataset.from_tensor_slices({ { 1, 2 }, { 3 } }) end)
    H.raises("TypeError", "expected tensors", function()
      return tf.data.Dataset.from_tensor_slices({ print })
    end)
  end)

  it("from_tensors is one element", function()
    local ds = tf.data.Dataset.from_tensors({ 1, 2, 3 })
    assert.equal("<_TensorDataset element_spec=TensorSpec(shape=(3,), dtype=tf.int32, name=None)>", tostring(ds))
    assert.same({ { 1, 2, 3 } }, elements(ds))
    assert.equal(1, card(ds))
  end)

  it("range counts as Python's range, in int64", function()
    assert.equal("<_RangeDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>",
      tostring(tf.data.Dataset.range(5)))
    assert.same({ 0, 1, 2, 3, 4 }, elements(tf.data.Dataset.range(5)))
    assert.same({ 2, 3, 4 }, elements(tf.data.Dataset.range(2, 5)))
    assert.same({ 1, 3 }, elements(tf.data.Dataset.range(1, 5, 2)))
    assert.same({ 5, 3 }, elements(tf.data.Dataset.range(5, 1, -2)))
    assert.same({}, elements(tf.data.Dataset.range(5, 1)))
    assert.equal(2, card(tf.data.Dataset.range(1, 5, 2)))
    assert.equal(0, card(tf.data.Dataset.range(5, 1)))
    H.raises("InvalidArgumentError", "step must be a non-zero integer. [Op:RangeDataset]", function()
      return tf.data.Dataset.range(0, 5, 0)
    end)
  end)
end)

describe("tf.data iteration", function()
  it("for x in ds walks the elements; for x, y in ds unpacks a tuple", function()
    local seen = {}
    for x in tf.data.Dataset.range(3) do seen[#seen + 1] = x:numpy() end
    assert.same({ 0, 1, 2 }, seen)
    local pairs_seen = {}
    for x, y in tf.data.Dataset.from_tensor_slices({ tf.constant({ 1, 2 }), tf.constant({ 10, 20 }) }) do
      pairs_seen[#pairs_seen + 1] = { x:numpy(), y:numpy() }
    end
    assert.same({ { 1, 10 }, { 2, 20 } }, pairs_seen)
  end)

  it("loops over one dataset may nest, and a loop may break", function()
    local ds = tf.data.Dataset.range(3)
    local n = 0
    for _ in ds do
      for _ in ds do n = n + 1 end
    end
    assert.equal(9, n)
    for x in ds do
      if x:numpy() == 1 then break end
    end
    assert.same({ 0, 1, 2 }, elements(ds))
  end)

  it("an iterator's get_next raises OutOfRangeError at the end, next gives nil", function()
    local it = tf.data.Dataset.range(2):iter()
    assert.equal(0, it:get_next():numpy())
    assert.equal(1, it:next():numpy())
    assert.is_nil(it:next())
    H.raises("OutOfRangeError", "End of sequence [Op:IteratorGetNext]", function() return it:get_next() end)
  end)

  it("as_numpy_iterator gives Lua values", function()
    local got = {}
    for i, x in tf.data.Dataset.from_tensor_slices({ 1, 2, 3 }):enumerate(5):as_numpy_iterator() do
      got[#got + 1] = { i, x }
    end
    assert.same({ { 5, 1 }, { 6, 2 }, { 7, 3 } }, got)
  end)
end)

describe("tf.data transformations", function()
  local range = tf.data.Dataset.range

  it("batch stacks; the last batch is short unless drop_remainder", function()
    local ds = range(10):batch(4)
    assert.equal("<_BatchDataset element_spec=TensorSpec(shape=(None,), dtype=tf.int64, name=None)>", tostring(ds))
    assert.same({ { 0, 1, 2, 3 }, { 4, 5, 6, 7 }, { 8, 9 } }, elements(ds))
    assert.equal(3, card(ds))
    local dropped = range(10):batch(4, { drop_remainder = true })
    assert.equal("TensorSpec(shape=(4,), dtype=tf.int64, name=None)", tostring(dropped.element_spec))
    assert.same({ { 0, 1, 2, 3 }, { 4, 5, 6, 7 } }, elements(dropped))
    assert.equal(2, card(dropped))
    assert.same(elements(dropped), elements(range(10):batch{ 4, drop_remainder = true }))
    assert.same(elements(dropped), elements(range(10):batch{ batch_size = 4, drop_remainder = true }))
    H.raises("TypeError", "unexpected keyword argument 'drop'", function() return range(10):batch{ 4, drop = true } end)
    H.raises("InvalidArgumentError", "Batch size must be greater than zero. [Op:BatchDatasetV2]", function()
      return range(10):batch(0)
    end)
  end)

  it("batch refuses elements of different shapes when it runs, as TF's kernel", function()
    local ds = range(3):map(function(x) return tf.fill({ x }, x) end):batch(3)
    H.raises("InvalidArgumentError", "Cannot batch tensors with different shapes in component 0. First element "
      .. "had shape [0] and element 1 had shape [1].", function() return ds:iter():get_next() end)
  end)

  it("unbatch splits batches, and refuses scalars", function()
    local ds = tf.data.Dataset.from_tensor_slices({ { 1, 2, 3 }, { 4, 5, 6 } }):unbatch()
    assert.equal("<_UnbatchDataset element_spec=TensorSpec(shape=(), dtype=tf.int32, name=None)>", tostring(ds))
    assert.same({ 1, 2, 3, 4, 5, 6 }, elements(ds))
    assert.same({ 0, 1, 2, 3, 4 }, elements(range(5):batch(2):unbatch()))
    H.raises("ValueError", "Cannot unbatch an input with scalar components.", function() return range(3):unbatch() end)
  end)

  it("padded_batch pads to the longest, or to padded_shapes with padding_values", function()
    local ds = range(4):map(function(x) return tf.fill({ x }, x) end)
    local pb = ds:padded_batch(2)
    assert.equal("<_PaddedBatchDataset element_spec=TensorSpec(shape=(None, None), dtype=tf.int64, name=None)>",
      tostring(pb))
    assert.same({ { { 0 }, { 1 } }, { { 2, 2, 0 }, { 3, 3, 3 } } }, elements(pb))
    local fixed = ds:padded_batch(2, { 4 }, -1)
    assert.equal("TensorSpec(shape=(None, 4), dtype=tf.int64, name=None)", tostring(fixed.element_spec))
    assert.same({ { { -1, -1, -1, -1 }, { 1, -1, -1, -1 } }, { { 2, 2, -1, -1 }, { 3, 3, 3, -1 } } }, elements(fixed))
    H.raises("InvalidArgumentError", "Attempted to pad to a smaller size than the input element.", function()
      return ds:padded_batch(4, { 2 }):iter():get_next()
    end)
  end)

  it("take, skip and repeat count as TF's (-1: all / none / forever)", function()
    assert.same({ 0, 1, 2 }, elements(range(5):take(3)))
    assert.same({ 0, 1, 2, 3, 4 }, elements(range(5):take(-1)))
    assert.same({ 3, 4 }, elements(range(5):skip(3)))
    assert.same({}, elements(range(5):skip(-1)))
    assert.same({ 0, 1, 0, 1, 0, 1 }, elements(range(2):repeat_(3)))
    assert.same({ 0, 1, 0, 1, 0 }, elements(range(2):repeat_():take(5)))
    assert.equal("<_TakeDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>", tostring(range(5):take(3)))
    assert.equal(3, card(range(5):take(3)))
    assert.equal(2, card(range(5):skip(3)))
    assert.equal(6, card(range(2):repeat_(3)))
    assert.equal(tf.data.INFINITE_CARDINALITY, card(range(2):repeat_()))
    assert.equal(7, card(range(2):repeat_():take(7)))
    assert.same({}, elements(range(0):repeat_()))
  end)

  it("zip pairs datasets as tuples or dicts, as long as the shortest", function()
    local ds = tf.data.Dataset.zip(range(3), range(10, 15))
    assert.equal("<_ZipDataset element_spec=(TensorSpec(shape=(), dtype=tf.int64, name=None), "
      .. "TensorSpec(shape=(), dtype=tf.int64, name=None))>", tostring(ds))
    assert.same({ { 0, 10 }, { 1, 11 }, { 2, 12 } }, elements(ds))
    assert.equal(3, card(ds))
    local d = tf.data.Dataset.zip({ x = range(2), y = tf.data.Dataset.from_tensor_slices({ "a", "b" }) })
    assert.same({ { x = 0, y = "a" }, { x = 1, y = "b" } }, elements(d))
  end)

  it("concatenate appends, and refuses other element types", function()
    local ds = range(3):concatenate(range(3, 5))
    assert.equal("<_ConcatenateDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>", tostring(ds))
    assert.same({ 0, 1, 2, 3, 4 }, elements(ds))
    assert.equal(5, card(ds))
    local ragged = range(2):batch(2, { drop_remainder = true }):concatenate(range(3):batch(3, { drop_remainder = true }))
    assert.equal("TensorSpec(shape=(None,), dtype=tf.int64, name=None)", tostring(ragged.element_spec))
    H.raises("TypeError", "Incompatible dataset elements:", function()
      return range(3):concatenate(tf.data.Dataset.from_tensor_slices({ 1.5 }))
    end)
  end)

  it("enumerate pairs a counter with each element (a zip, as TF builds it)", function()
    local ds = tf.data.Dataset.from_tensor_slices({ 1, 2, 3 }):enumerate(5)
    assert.equal("<_ZipDataset element_spec=(TensorSpec(shape=(), dtype=tf.int64, name=None), "
      .. "TensorSpec(shape=(), dtype=tf.int32, name=None))>", tostring(ds))
    assert.same({ { 5, 1 }, { 6, 2 }, { 7, 3 } }, elements(ds))
  end)

  it("shuffle permutes, is reproducible with a seed, and reshuffles each iteration by default", function()
    local function sorted(t)
      local c = table.move(t, 1, #t, 1, {})
      table.sort(c)
      return c
    end
    local all = elements(range(20))
    local ds = range(20):shuffle(20, { seed = 42 })
    assert.equal("<_ShuffleDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>", tostring(ds))
    local first, second = elements(ds), elements(ds)
    assert.same(all, sorted(first))
    assert.same(all, sorted(second))
    assert.are_not.same(all, first)
    assert.are_not.same(first, second)
    assert.same(first, elements(range(20):shuffle(20, { seed = 42 })))
    local fixed = range(20):shuffle(20, { seed = 42, reshuffle_each_iteration = false })
    assert.same(elements(fixed), elements(fixed))
    assert.same({ 0, 1, 2 }, elements(range(3):shuffle(1)))
    assert.equal(20, card(ds))
    tf.random.set_seed(3)
    local a = elements(range(20):shuffle(20))
    tf.random.set_seed(3)
    assert.same(a, elements(range(20):shuffle(20)))
    H.raises("InvalidArgumentError", "buffer_size must be greater than zero.", function() return range(3):shuffle(0) end)
  end)

  it("cache keeps the first complete pass: a shuffle before it is read back in the same order", function()
    local ds = range(20):shuffle(20, { seed = 1 }):cache()
    assert.equal("<_CacheDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>", tostring(ds))
    local first = elements(ds)
    assert.same(first, elements(ds))
    assert.equal(20, card(ds))
  end)

  it("map traces its function once, unpacks tuples, and gives the traced element spec", function()
    local traces = 0
    local ds = range(5):map(function(x)
      traces = traces + 1
      return x * x
    end)
    assert.equal("<_MapDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>", tostring(ds))
    assert.same({ 0, 1, 4, 9, 16 }, elements(ds))
    assert.same({ 0, 1, 4, 9, 16 }, elements(ds))
    assert.equal(1, traces)
    local pairs_ds = tf.data.Dataset.from_tensor_slices({ tf.constant({ 1, 2 }), tf.constant({ 10.5, 20.5 }) })
      :map(function(x, y) return { y, tf.cast(x, tf.float32) + y } end)
    assert.equal("(TensorSpec(shape=(), dtype=tf.float32, name=None), TensorSpec(shape=(), dtype=tf.float32, name=None))",
      require("moonflow.data.structure").spec_text(pairs_ds._structure, pairs_ds._specs))
    assert.same({ { 10.5, 11.5 }, { 20.5, 22.5 } }, elements(pairs_ds))
    local two = range(3):map(function(x) return x, x + 1 end)
    assert.same({ { 0, 1 }, { 1, 2 }, { 2, 3 } }, elements(two))
  end)

  it("map captures outer tensors and reads variables when it runs", function()
    local scale = tf.constant(10, tf.int64)
    local v = tf.Variable(tf.constant(1, tf.int64))
    local ds = range(3):map(function(x) return x * scale + v end)
    assert.same({ 1, 11, 21 }, elements(ds))
    v:assign(tf.constant(2, tf.int64))
    assert.same({ 2, 12, 22 }, elements(ds))
  end)

  it("map refuses a function returning a non-tensor, as TF does", function()
    H.raises("TypeError", "Unsupported return value from function passed to Dataset.map(): None.", function()
      return range(3):map(function() end)
    end)
    H.raises("TypeError", "Unsupported return value from function passed to Dataset.map()", function()
      return range(3):map(function() return print end)
    end)
    H.raises("TypeError", "Dataset.map() expects a function", function() return range(3):map(3) end)
  end)

  it("filter keeps the elements its predicate accepts; its cardinality is unknown", function()
    local ds = range(10):filter(function(x) return tf.equal(x % 2, 0) end)
    assert.equal("<_FilterDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>", tostring(ds))
    assert.same({ 0, 2, 4, 6, 8 }, elements(ds))
    assert.equal(tf.data.UNKNOWN_CARDINALITY, card(ds))
    H.raises("ValueError", "`predicate` must return a `tf.bool` scalar tensor", function()
      return range(3):filter(function(x) return x end)
    end)
  end)

  it("reduce folds from an initial state, and relaxes a growing state's shape", function()
    local total = range(5):reduce(tf.constant(0, tf.int64), function(s, x) return s + x end)
    assert.equal(10, total:numpy())
    local count = tf.data.Dataset.from_tensor_slices({ "a", "b", "c" })
      :reduce(tf.constant(0, tf.int64), function(s, _) return s + 1 end)
    assert.equal(3, count:numpy())
    local grown = range(3):reduce(tf.zeros({ 0 }, tf.int64), function(s, x)
      return tf.concat({ s, tf.reshape(x, { 1 }) }, 0)
    end)
    assert.same({ 0, 1, 2 }, grown:numpy())
    H.raises("TypeError", "The element types for the new state must match the initial state.", function()
      return range(3):reduce(tf.constant(0.5), function(_, x) return x end)
    end)
  end)

  it("a pipeline of several stages gives TF's values", function()
    local ds = tf.data.Dataset.from_tensor_slices({ 1, 2, 3, 4, 5, 6, 7 })
      :map(function(x) return x * 2 end)
      :filter(function(x) return tf.greater(x, 4) end)
      :batch(2)
      :repeat_(2)
    assert.same({ { 6, 8 }, { 10, 12 }, { 14 }, { 6, 8 }, { 10, 12 }, { 14 } }, elements(ds))
  end)

  it("a dataset's variant tensor prints as TF's", function()
    assert.equal("tf.Tensor(<RangeDatasetOp::Dataset>, shape=(), dtype=variant)",
      tostring(range(3)._variant))
    H.raises("TypeError", "a variant tensor (a dataset, an iterator) has no value to convert", function()
      return range(3)._variant:numpy()
    end)
  end)
end)

describe("tf.data prefetch", function()
  local range = tf.data.Dataset.range

  it("gives the input's elements in order, from a producer thread, for a pure pipeline", function()
    local ds = range(100):map(function(x) return x * 2 end):batch(7):prefetch(tf.data.AUTOTUNE)
    assert.equal("<_PrefetchDataset element_spec=TensorSpec(shape=(None,), dtype=tf.int64, name=None)>",
      tostring(ds))
    local want = elements(range(100):map(function(x) return x * 2 end):batch(7))
    assert.same(want, elements(ds))
    assert.same(want, elements(ds))
    assert.equal(15, card(ds))
    assert.same({ 0, 1, 2 }, elements(range(3):prefetch(1)))
  end)

  it("an iterator dropped before its end stops its producer", function()
    for _ = 1, 20 do
      local it = range(1000):prefetch(4):iter()
      it:get_next()
    end
    collectgarbage()
    collectgarbage()
  end)

  it("hands an error of the input over in order, after the elements before it", function()
    local ds = range(4):map(function(x) return tf.fill({ x % 3 }, x) end):batch(2):prefetch(2)
    local it = ds:iter()
    assert.same({ {}, { 1 } }, elements(range(4):map(function(x) return tf.fill({ x % 3 }, x) end):take(2)))
    local ok, err = pcall(it.get_next, it)
    assert.is_false(ok)
    assert.equal("InvalidArgumentError", err.type)
    assert.truthy(err.message:find("Cannot batch tensors with different shapes", 1, true))
  end)

  it("runs a pipeline with a variable on the calling thread, with the same values", function()
    local v = tf.Variable(tf.constant(5, tf.int64))
    local ds = range(3):map(function(x) return x + v end):prefetch(2)
    assert.same({ 5, 6, 7 }, elements(ds))
  end)
end)

describe("tf.data.Dataset.from_generator", function()
  it("takes a generator that yields, runs it anew per iteration, and prints as TF", function()
    local runs = 0
    local ds = tf.data.Dataset.from_generator(function()
      runs = runs + 1
      for i = 1, 3 do coroutine.yield(i) end
    end, { output_signature = tf.TensorSpec({}, tf.int32) })
    assert.equal("<_FlatMapDataset element_spec=TensorSpec(shape=(), dtype=tf.int32, name=None)>", tostring(ds))
    assert.same({ 1, 2, 3 }, elements(ds))
    assert.same({ 1, 2, 3 }, elements(ds))
    assert.equal(2, runs)
    assert.equal(tf.data.UNKNOWN_CARDINALITY, card(ds))
  end)

  it("takes a generator returning a list or an iterator, with tuple elements", function()
    local ds = tf.data.Dataset.from_generator(function() return { { 1, { 1, 2 } }, { 2, { 3 } } } end,
      { output_signature = { tf.TensorSpec({}, tf.int64), tf.TensorSpec({ tf.None }, tf.float32) } })
    assert.same({ { 1, { 1, 2 } }, { 2, { 3 } } }, elements(ds))
    local n = 0
    local counted = tf.data.Dataset.from_generator(function()
      return function()
        n = n + 1
        if n <= 2 then return n * 10 end
      end
    end, { output_signature = tf.TensorSpec({}, tf.int64) })
    assert.same({ 10, 20 }, elements(counted))
  end)

  it("feeds the transformations, and a prefetch of it runs on the session's thread", function()
    local ds = tf.data.Dataset.from_generator(function()
      for i = 0, 4 do coroutine.yield(i) end
    end, { output_signature = tf.TensorSpec({}, tf.int64) })
    assert.same({ { 0, 2 }, { 4, 6 }, { 8 } }, elements(ds:map(function(x) return x * 2 end):batch(2):prefetch(2)))
  end)

  it("refuses a yielded element that does not fit output_signature, when it is reached", function()
    local ds = tf.data.Dataset.from_generator(function() return { { 1, 2, 3 } } end,
      { output_signature = tf.TensorSpec({ 2 }, tf.int32) })
    H.raises("InvalidArgumentError", "TypeError: `generator` yielded an element of shape (3,) where an element "
      .. "of shape (2,) was expected.", function() return ds:iter():get_next() end)
    local typed = tf.data.Dataset.from_generator(function() return { tf.constant(1.5) } end,
      { output_signature = tf.TensorSpec({}, tf.int32) })
    H.raises("InvalidArgumentError", "TypeError: `generator` yielded an element of type float32 where an element "
      .. "of type int32 was expected.", function() return typed:iter():get_next() end)
    local nested = tf.data.Dataset.from_generator(function() return { 1 } end,
      { output_signature = { tf.TensorSpec({}, tf.int32), tf.TensorSpec({}, tf.int32) } })
    H.raises("InvalidArgumentError", "yielded an element that did not match the expected structure",
      function() return nested:iter():get_next() end)
    H.raises("TypeError", "The `output_types` argument can not be None if `output_signature` is not specified.",
      function() return tf.data.Dataset.from_generator(function() end) end)
  end)

  it("an error raised in the generator reaches the caller", function()
    local ds = tf.data.Dataset.from_generator(function() tf.errors.raise("ValueError", "bad input") end,
      { output_signature = tf.TensorSpec({}, tf.int32) })
    H.raises("ValueError", "bad input", function() return ds:iter():get_next() end)
  end)
end)

describe("tf.data text files", function()
  local function write(text)
    local path = os.tmpname()
    local f = assert(io.open(path, "wb"))
    f:write(text)
    f:close()
    return path
  end

  it("TextLineDataset reads the lines of files in order, without their ends", function()
    local a, b = write("hello\nworld\r\n\nlast"), write("second file\n")
    local ds = tf.data.TextLineDataset({ a, b })
    assert.equal("<TextLineDatasetV2 element_spec=TensorSpec(shape=(), dtype=tf.string, name=None)>", tostring(ds))
    assert.same({ "hello", "world", "", "last", "second file" }, elements(ds))
    assert.same({ 5, 5, 0, 4, 11 }, elements(ds:map(function(s) return tf.strings.length(s) end)))
    os.remove(a)
    os.remove(b)
  end)

  it("a missing file is NotFoundError when the iteration reaches it", function()
    local ds = tf.data.TextLineDataset("/nonexistent/moonflow.txt")
    H.raises("NotFoundError", "/nonexistent/moonflow.txt; No such file or directory [Op:IteratorGetNext]",
      function() return ds:iter():get_next() end)
  end)

  it("CsvDataset types columns by their defaults, skips a header, unquotes and selects", function()
    local path = write('a,b,c\n1,2.5,"x,y"\n3,,z\r\n')
    local ds = tf.data.experimental.CsvDataset(path, { tf.int32, 0.0, "?" }, { header = true })
    assert.equal("<CsvDatasetV2 element_spec=(TensorSpec(shape=(), dtype=tf.int32, name=None), "
      .. "TensorSpec(shape=(), dtype=tf.float32, name=None), TensorSpec(shape=(), dtype=tf.string, name=None))>",
      tostring(ds))
    assert.same({ { 1, 2.5, "x,y" }, { 3, 0, "z" } }, elements(ds))
    local picked = tf.data.experimental.CsvDataset(path, { "", "" }, { header = true, select_cols = { 0, 2 } })
    assert.same({ { "1", "x,y" }, { "3", "z" } }, elements(picked))
    local required = tf.data.experimental.CsvDataset(path, { 0, tf.float32, "" }, { header = true })
    H.raises("InvalidArgumentError", "Field 1 is required but missing in record 1!", function()
      local it = required:iter()
      it:get_next()
      return it:get_next()
    end)
    local bad = tf.data.experimental.CsvDataset(path, { 0, 0.0, "" })
    H.raises("InvalidArgumentError", "Field 0 in record 0 is not a valid int32: a", function()
      return bad:iter():get_next()
    end)
    os.remove(path)
  end)
end)

describe("tf.io.decode_csv", function()
  local function values(ts)
    local r = {}
    for i, t in ipairs(ts) do r[i] = t:numpy() end
    return r
  end

  it("parses each record into one tensor per column, typed and shaped as TF's", function()
    local cols = tf.io.decode_csv(tf.constant({ "1,2.5,a", '3,,"b,c"', '-4,1e3,"say ""hi"""' }), { 0, 1.0, "" })
    assert.equal(3, #cols)
    assert.equal("tf.Tensor([ 1  3 -4], shape=(3,), dtype=int32)", tostring(cols[1]))
    assert.equal("tf.Tensor([   2.5    1.  1000. ], shape=(3,), dtype=float32)", tostring(cols[2]))
    assert.same({ "a", "b,c", 'say "hi"' }, cols[3]:numpy())
    -- defaults as one-value lists and tensors, int64 and float64 columns, a 2-D batch of records
    local grid = tf.io.decode_csv(tf.constant({ { "1,2", "3,4" } }), { tf.constant({ 7 }, tf.int64), tf.constant({ 0.5 }, tf.float64) })
    assert.equal("tf.Tensor([[1 3]], shape=(1, 2), dtype=int64)", tostring(grid[1]))
    assert.equal(tf.float64, grid[2].dtype)
    assert.same({ { 2, 4 } }, grid[2]:numpy())
  end)

  it("field_delim, na_value, select_cols and use_quote_delim", function()
    local cols = tf.io.decode_csv({ "a;NA;c;d", "e;5;g;" }, { "", 0, "" },
      { field_delim = ";", na_value = "NA", select_cols = { 0, 1, 3 } })
    assert.same({ { "a", "e" }, { 0, 5 }, { "d", "" } }, values(cols))
    local raw = tf.io.decode_csv({ '"x",y' }, { "", "" }, { use_quote_delim = false })
    assert.same({ { '"x"' }, { "y" } }, values(raw))
  end)

  it("bad records are TF's InvalidArgumentError", function()
    H.raises("InvalidArgumentError", "Expect 2 fields but have 3 in record 1 [Op:DecodeCSV]", function()
      return tf.io.decode_csv({ "1,2", "1,2,3" }, { 0, 0 })
    end)
    H.raises("InvalidArgumentError", "Expect 2 fields but have 1 in record 0 [Op:DecodeCSV]", function()
      return tf.io.decode_csv({ "1" }, { 0, 0 })
    end)
    H.raises("InvalidArgumentError", "Field 1 in record 0 is not a valid float: x [Op:DecodeCSV]", function()
      return tf.io.decode_csv({ "1,x" }, { 0, 0.0 })
    end)
    H.raises("InvalidArgumentError", "Field 0 in record 0 is not a valid int32: 99999999999 [Op:DecodeCSV]", function()
      return tf.io.decode_csv({ "99999999999" }, { 0 })
    end)
    H.raises("InvalidArgumentError", "Field 1 is required but missing in record 0! [Op:DecodeCSV]", function()
      return tf.io.decode_csv({ "1," }, { 0, tf.int32 })
    end)
    H.raises("InvalidArgumentError", "Quote inside a string has to be escaped by another quote", function()
      return tf.io.decode_csv({ '"a"b",c' }, { "", "" })
    end)
    H.raises("InvalidArgumentError", "Unquoted fields cannot have quotes/CRLFs inside", function()
      return tf.io.decode_csv({ 'a"b' }, { "" })
    end)
    H.raises("InvalidArgumentError", "field_delim should be only 1 char", function()
      return tf.io.decode_csv({ "1" }, { 0 }, { field_delim = ";;" })
    end)
    H.raises("InvalidArgumentError", "There should only be 1 default per field but field 0 has 2", function()
      return tf.io.decode_csv({ "1" }, { { 1, 2 } })
    end)
    H.raises("ValueError", "select_cols is not strictly increasing.", function()
      return tf.io.decode_csv({ "1,2" }, { 0, 0 }, { select_cols = { 1, 0 } })
    end)
    H.raises("ValueError", "Length of select_cols and record_defaults do not match.", function()
      return tf.io.decode_csv({ "1,2" }, { 0, 0 }, { select_cols = { 1 } })
    end)
    H.raises("UnimplementedError", "selects at most 8 columns (select_cols), not 9", function()
      return tf.io.decode_csv({ "1,2,3,4,5,6,7,8,9" }, { 0, 0, 0, 0, 0, 0, 0, 0, 0 },
        { select_cols = { 0, 1, 2, 3, 4, 5, 6, 7, 8 } })
    end)
    H.raises("TypeError", "record_defaults must be a non-empty Lua list", function()
      return tf.io.decode_csv({ "1" }, 0)
    end)
  end)

  it("parses a TextLineDataset's lines in a map, and is one DecodeCSV node when traced", function()
    local path = os.tmpname()
    local f = assert(io.open(path, "w"))
    f:write("1,0.5\n2,1.5\n")
    f:close()
    local ds = tf.data.TextLineDataset(path):map(function(line) return tf.io.decode_csv(line, { 0, 0.0 }) end)
    assert.equal("<_MapDataset element_spec=(TensorSpec(shape=(), dtype=tf.int32, name=None), "
      .. "TensorSpec(shape=(), dtype=tf.float32, name=None))>", tostring(ds))
    assert.same({ { 1, 0.5 }, { 2, 1.5 } }, elements(ds))
    os.remove(path)
    local parse = tf.func(function(lines) return tf.io.decode_csv(lines, { 0, 0.0 }) end)
    local out = parse(tf.constant({ "3,4" }))
    assert.same({ { 3 }, { 4 } }, values(out))
    local types = {}
    for _, op in ipairs(parse:get_concrete_function(tf.constant({ "3,4" })).graph:get_operations()) do
      types[#types + 1] = op.type
    end
    assert.truthy(table.concat(types, " "):find("DecodeCSV", 1, true))
  end)
end)

describe("tf.data memory", function()
  it("iterating pipelines, to the end or not, leaves no buffer behind", function()
    local function work()
      local v = tf.Variable(tf.constant(1, tf.int64))
      local ds = tf.data.Dataset.range(50):map(function(x) return x + v end):filter(function(x)
        return tf.equal(x % 3, 0)
      end):shuffle(8, { seed = 3 }):batch(4):cache():prefetch(2)
      elements(ds)
      elements(ds)
      local it = tf.data.Dataset.range(100):prefetch(4):iter()
      it:get_next()
      local g = tf.data.Dataset.from_generator(function() for i = 1, 5 do coroutine.yield(i) end end,
        { output_signature = tf.TensorSpec({}, tf.int32) })
      local git = g:iter()
      git:get_next()
    end
    H.leaves_no_buffers(work)
  end)
end)

describe("tf.data functions", function()
  it("map runs its function optimised (fused) as TF's Grappler does, with the same bits as traced", function()
    local x = tf.random.uniform({ 300, 7 }, { seed = 4 })
    local function f(v) return tf.tanh(v * 2.0 + 1.0) * 0.5 - tf.exp(-v) end
    local function all(ds)
      local rows = {}
      for b in ds do rows[#rows + 1] = b end
      return tf.concat(rows, 0)
    end
    local fused = all(tf.data.Dataset.from_tensor_slices(x):map(f):batch(64))
    tf.config.optimizer.set_enabled(false)
    local ok, plain = pcall(function() return all(tf.data.Dataset.from_tensor_slices(x):map(f):batch(64)) end)
    tf.config.optimizer.set_enabled(true)
    assert(ok, plain)
    assert.is_true(tf.reduce_all(tf.equal(fused, plain)):numpy())
    assert.is_true(tf.reduce_all(tf.equal(fused, f(x))):numpy())
  end)
end)
