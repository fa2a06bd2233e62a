-- data_nested_spec.lua — tf.data's datasets of datasets: window, flat_map
-- and interleave, with the printed forms, element specs, cardinalities
-- and errors TensorFlow gives, the tf.data guide's idioms ("Time series
-- windowing", "Consuming sets of files"), and how they run inside
-- tf.func, under a prefetch and when an iterator is dropped mid-stream.
-- TF's own kernel tests are ported in tests/tf (flat_map_spec,
-- interleave_spec, window_spec).
local H = require("helpers")
local tf = rawget(_G, "tf") or require("moonflow")

local range = tf.data.Dataset.range

local elements, card = H.elements, H.card

local function from_tensors(x) return tf.data.Dataset.from_tensors(x) end

describe("tf.data window", function()
  it("prints as TF: a _WindowDataset of DatasetSpecs, whose elements are _VariantDatasets", function()
    local ds = range(7):window(3, 2)
    assert.equal("<_WindowDataset element_spec=DatasetSpec(TensorSpec(shape=(), dtype=tf.int64, name=None), "
      .. "TensorShape([]))>", tostring(ds))
    assert.equal("DatasetSpec(TensorSpec(shape=(), dtype=tf.int64, name=None), TensorShape([]))",
      tostring(ds.element_spec))
    local w = ds:iter():get_next()
    assert.equal("<_VariantDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>", tostring(w))
    local windows = {}
    for x in ds do windows[#windows + 1] = elements(x) end
    assert.same({ { 0, 1, 2 }, { 2, 3, 4 }, { 4, 5, 6 }, { 6 } }, windows)
  end)

  it("a tuple element gives a tuple of datasets, a dict a dict of them", function()
    local pairs_ds = tf.data.Dataset.zip(range(4), range(10, 14)):window(2)
    assert.equal("<_WindowDataset element_spec=(DatasetSpec(TensorSpec(shape=(), dtype=tf.int64, name=None), "
      .. "TensorShape([])), DatasetSpec(TensorSpec(shape=(), dtype=tf.int64, name=None), TensorShape([])))>",
      tostring(pairs_ds))
    local got = {}
    for a, b in pairs_ds do got[#got + 1] = { elements(a), elements(b) } end
    assert.same({ { { 0, 1 }, { 10, 11 } }, { { 2, 3 }, { 12, 13 } } }, got)
    local dict = tf.data.Dataset.from_tensor_slices({ a = tf.constant({ 1, 2, 3 }), b = tf.constant({ 4.0, 5.0, 6.0 }) })
      :window(2, 1, 1, true)
    assert.equal("{'a': DatasetSpec(TensorSpec(shape=(), dtype=tf.int32, name=None), TensorShape([])), "
      .. "'b': DatasetSpec(TensorSpec(shape=(), dtype=tf.float32, name=None), TensorShape([]))}",
      (tostring(dict):match("element_spec=(.*)>$")))
    local zipped = dict:flat_map(function(d) return tf.data.Dataset.zip({ a = d.a:batch(2), b = d.b:batch(2) }) end)
    assert.same({ { a = { 1, 2 }, b = { 4, 5 } }, { a = { 2, 3 }, b = { 5, 6 } } }, elements(zipped))
  end)

  it("the guide's idiom: window(5, 1, 1, true) then flat_map(batch(5)) gives sliding windows", function()
    local ds = range(7):window(5, 1, 1, true):flat_map(function(w) return w:batch(5) end)
    assert.equal("<_FlatMapDataset element_spec=TensorSpec(shape=(None,), dtype=tf.int64, name=None)>",
      tostring(ds))
    assert.same({ { 0, 1, 2, 3, 4 }, { 1, 2, 3, 4, 5 }, { 2, 3, 4, 5, 6 } }, elements(ds))
  end)

  it("the guide's make_window_dataset (window_size=10, shift=5, stride=3) prints its output", function()
    local range_ds = range(100000)
    local function make_window_dataset(ds, window_size, shift, stride)
      local windows = ds:window(window_size, shift, stride)
      return windows:flat_map(function(sub) return sub:batch(window_size, true) end)
    end
    -- the guide prints example.numpy(); the tensor's repr shows the same array
    local lines = {}
    for example in make_window_dataset(range_ds, 10, 5, 3):take(3) do lines[#lines + 1] = tostring(example) end
    assert.same({ "tf.Tensor([ 0  3  6  9 12 15 18 21 24 27], shape=(10,), dtype=int64)",
      "tf.Tensor([ 5  8 11 14 17 20 23 26 29 32], shape=(10,), dtype=int64)",
      "tf.Tensor([10 13 16 19 22 25 28 31 34 37], shape=(10,), dtype=int64)" }, lines)
  end)

  it("has TF's cardinality", function()
    assert.equal(5, card(range(10):window(3, 2)))
    assert.equal(4, card(range(10):window(3, 2, 1, true)))
    assert.equal(2, card(range(10):window(4, 3, 2, true)))
    assert.equal(0, card(range(2):window(3, 1, 1, true)))
    assert.equal(3, card(range(7):window(3)))
    assert.equal(tf.data.INFINITE_CARDINALITY, card(range(3):repeat_():window(2)))
    assert.equal(tf.data.UNKNOWN_CARDINALITY, card(range(9):filter(function(x) return tf.greater(x, 2) end):window(2)))
    -- a window's own dataset knows its length
    assert.equal(2, range(3):window(2):iter():get_next():cardinality():numpy())
  end)

  it("raises TF's errors for bad sizes", function()
    H.raises("InvalidArgumentError", "Window size must be greater than zero.", function() return range(3):window(0) end)
    H.raises("InvalidArgumentError", "Window shift must be greater than zero.", function() return range(3):window(2, 0) end)
    H.raises("InvalidArgumentError", "Window stride must be greater than zero.", function()
      return range(3):window(2, 1, -1)
    end)
    H.raises("TypeError", "size must be an integer", function() return range(3):window(1.5) end)
    H.raises("TypeError", "drop_remainder must be a boolean", function() return range(3):window(2, 1, 1, 1) end)
  end)
end)

describe("tf.data flat_map and interleave", function()
  it("print as TF and have an unknown cardinality", function()
    local fm = range(3):flat_map(function(x) return range(x) end)
    assert.equal("<_FlatMapDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>", tostring(fm))
    assert.same({ 0, 0, 1 }, elements(fm))
    assert.equal(tf.data.UNKNOWN_CARDINALITY, card(fm))
    local il = range(3):interleave(function(x) return range(x) end, 2)
    assert.equal("<_InterleaveDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>", tostring(il))
    assert.equal(tf.data.UNKNOWN_CARDINALITY, card(il))
    local par = range(3):interleave(function(x) return range(x) end, 2, 1, tf.data.AUTOTUNE, true)
    assert.equal("<_ParallelInterleaveDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>",
      tostring(par))
    assert.same(elements(il), elements(par))
  end)

  it("interleave takes block_length elements from cycle_length datasets in turn", function()
    local ds = range(1, 4):interleave(function(x) return from_tensors(x):repeat_(6) end, 2, 4)
    assert.same({ 1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 2, 2, 3, 3, 3, 3, 3, 3 }, elements(ds))
  end)

  it("the map_func's arguments are the element's (a tuple unpacked), its result a nest", function()
    local ds = tf.data.Dataset.from_tensor_slices({ tf.constant({ 1, 2 }), tf.constant({ 10, 20 }) })
      :flat_map(function(a, b) return tf.data.Dataset.from_tensors({ a + b, { k = a * b } }):repeat_(a) end)
    assert.equal("<_FlatMapDataset element_spec=(TensorSpec(shape=(), dtype=tf.int32, name=None), "
      .. "{'k': TensorSpec(shape=(), dtype=tf.int32, name=None)})>", tostring(ds))
    assert.same({ { 11, { k = 10 } }, { 22, { k = 40 } }, { 22, { k = 40 } } }, elements(ds))
  end)

  it("a dataset made outside the function may be returned (captured)", function()
    local outer = range(2)
    assert.same({ 0, 1, 0, 1, 0, 1 }, elements(range(3):flat_map(function() return outer end)))
  end)

  it("the guide's files: interleave(TextLineDataset, cycle_length=3) takes a line of each file in turn", function()
    local names = {}
    for i = 1, 3 do
      names[i] = os.tmpname()
      local f = io.open(names[i], "w")
      f:write(("file%d line1\nfile%d line2\n"):format(i, i))
      f:close()
    end
    local files_ds = tf.data.Dataset.from_tensor_slices(tf.constant(names))
    local lines_ds = files_ds:interleave(tf.data.TextLineDataset, 3)
    local got = {}
    for line in lines_ds do got[#got + 1] = line:numpy() end
    for _, name in ipairs(names) do os.remove(name) end
    assert.same({ "file1 line1", "file2 line1", "file3 line1", "file1 line2", "file2 line2", "file3 line2" }, got)
  end)

  it("raise TF's errors", function()
    H.raises("TypeError", "The `map_func` argument must return a `Dataset` object. Got <class 'tuple'>.", function()
      return range(3):flat_map(function(x) return x, x end)
    end)
    H.raises("TypeError", "The `map_func` argument must return a `Dataset` object. Got <class 'dict'>.", function()
      return range(3):interleave(function(x) return { a = x } end)
    end)
    H.raises("TypeError", "Dataset.flat_map() expects a function", function() return range(3):flat_map(42) end)
    H.raises("InvalidArgumentError", "cycle_length must be greater than zero.", function()
      return range(3):interleave(from_tensors, 0)
    end)
    H.raises("InvalidArgumentError", "block_length must be greater than zero.", function()
      return range(3):interleave(from_tensors, 2, 0)
    end)
    H.raises("InvalidArgumentError", "num_parallel_calls must be greater than zero.", function()
      return range(3):interleave(from_tensors, 2, 1, 0)
    end)
    H.raises("TypeError", "deterministic must be a boolean", function()
      return range(3):interleave(from_tensors, 2, 1, 2, "yes")
    end)
    -- an error in an inner dataset reaches the consumer, typed
    local bad = range(3):flat_map(function(x) return from_tensors(tf.fill({ x }, x)):batch(1):unbatch():batch(2) end)
    assert.same({ {}, { 1 }, { 2, 2 } }, elements(bad:map(function(b) return tf.reshape(b, { -1 }) end)))
  end)
end)

describe("tf.data datasets of datasets inside tf.func", function()
  it("a pipeline built and read in the trace gives the eager values", function()
    local f = tf.func(function(n)
      local ds = range(n):window(3, 1, 1, true):flat_map(function(w) return w:batch(3) end)
        :interleave(function(b) return tf.data.Dataset.from_tensor_slices(b) end, 2, 2)
      return ds:reduce(tf.constant(0, tf.int64), function(s, x) return s * 7 + x end)
    end)
    local eager = range(6):window(3, 1, 1, true):flat_map(function(w) return w:batch(3) end)
      :interleave(function(b) return tf.data.Dataset.from_tensor_slices(b) end, 2, 2)
    local want = 0
    for _, x in ipairs(elements(eager)) do want = want * 7 + x end
    assert.equal(want, f(tf.constant(6, tf.int64)):numpy())
  end)

  it("a window dataset passed in is traced by its DatasetSpec; a window's methods trace into the graph", function()
    local traces = 0
    local f = tf.func(function(ds)
      traces = traces + 1
      local total = tf.constant(0, tf.int64)
      for w in ds do total = total + w:reduce(tf.constant(0, tf.int64), function(a, b) return a + b end) end
      return total
    end)
    assert.equal(45, f(range(10):window(4)):numpy())
    assert.equal(20, f(range(5):window(2, 1)):numpy()) -- 1 + 3 + 5 + 7 + 4
    assert.equal(1, traces)
  end)
end)

describe("tf.data datasets of datasets under prefetch and when dropped", function()
  it("a prefetch over flat_map, interleave and window gives the same elements", function()
    local function build()
      return range(20):window(4, 3):interleave(function(w) return w:map(function(x) return x * 2 end) end, 2, 3)
    end
    local want = elements(build())
    assert.same(want, elements(build():prefetch(2)))
    assert.same(want, elements(build():prefetch(tf.data.AUTOTUNE)))
    local pure = range(20):window(5):flat_map(function(w) return w:batch(2) end)
    assert.same(elements(pure), elements(pure:prefetch(3)))
  end)

  it("a function returning a generator's dataset runs on the session's thread under a prefetch", function()
    local gen = tf.data.Dataset.from_generator(function() for i = 1, 3 do coroutine.yield(i) end end,
      { output_signature = tf.TensorSpec({}, tf.int32) })
    local ds = range(2):flat_map(function() return gen end):prefetch(2)
    assert.same({ 1, 2, 3, 1, 2, 3 }, elements(ds))
  end)

  it("iterators dropped mid-stream leave no buffer behind", function()
    local function work()
      local ds = range(100):window(5, 2, 2):interleave(function(w) return w:batch(2) end, 3, 2)
      local it = ds:iter()
      for _ = 1, 4 do it:get_next() end
      local p = range(50):window(3):flat_map(function(w) return w end):prefetch(2):iter()
      p:get_next()
      local w = range(30):window(10):iter()
      local inner = w:get_next():iter()
      inner:get_next()
    end
    H.leaves_no_buffers(work)
  end)
end)

describe("tf.data sample_from_datasets and random", function()
  local D = tf.data.Dataset

  it("a seed makes the picks reproducible; every element of every dataset comes out once", function()
    local function build(seed)
      return D.sample_from_datasets({ range(0, 50), range(100, 150) }, { 0.5, 0.5 }, seed)
    end
    local a, b = elements(build(7)), elements(build(7))
    assert.same(a, b)
    assert.same(a, elements(build(7))) -- and again for a second iteration of one dataset
    assert.equal(100, #a)
    local sorted = {}
    for i, x in ipairs(a) do sorted[i] = x end
    table.sort(sorted)
    for i = 1, 50 do
      assert.equal(i - 1, sorted[i])
      assert.equal(99 + i, sorted[50 + i])
    end
    -- each dataset's own order is kept
    local last0, last1 = -1, 99
    for _, x in ipairs(a) do
      if x < 100 then assert.is_true(x > last0); last0 = x else assert.is_true(x > last1); last1 = x end
    end
    assert.are_not.same(a, elements(build(8)))
  end)

  it("weights set the proportions; a zero weight is never picked", function()
    local ds = D.sample_from_datasets({ D.from_tensors(0):repeat_(), D.from_tensors(1):repeat_(),
      D.from_tensors(2):repeat_() }, tf.constant({ 0.2, 0.0, 0.8 }), 3):take(2000)
    local count = { [0] = 0, [1] = 0, [2] = 0 }
    for _, x in ipairs(elements(ds)) do count[x] = count[x] + 1 end
    assert.equal(0, count[1])
    assert.is_true(count[0] > 300 and count[0] < 500, tostring(count[0]))
    assert.equal(2000, count[0] + count[2])
  end)

  it("stop_on_empty_dataset ends at the first pick of an exhausted dataset; one dataset is itself", function()
    local ds = D.sample_from_datasets({ range(3), range(10, 1000) }, nil, 5, true)
    local got = elements(ds)
    local small = 0
    for _, x in ipairs(got) do if x < 3 then small = small + 1 end end
    assert.equal(3, small)
    assert.is_true(#got < 990)
    local one = range(3)
    assert.equal(one, D.sample_from_datasets({ one }))
  end)

  it("random gives the same stream per iteration with a seed, a new one with rerandomize_each_iteration", function()
    local ds = D.random(11):take(5)
    assert.equal("<_RandomDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>", tostring(D.random(1)))
    assert.equal(tf.data.INFINITE_CARDINALITY, card(D.random(1)))
    local a = elements(ds)
    assert.same(a, elements(ds))
    for _, x in ipairs(a) do assert.is_true(x >= 0 and x < 2 ^ 32) end
    local re = D.random(11, true):take(5)
    assert.are_not.same(elements(re), elements(re))
  end)

  it("raise TF's errors", function()
    H.raises("TypeError", "Invalid `weights`. `weights` type must be either `tf.float32` or `tf.float64` but is "
      .. "<dtype: 'int32'>.", function() return D.sample_from_datasets({ range(2), range(2) }, { 1, 2 }) end)
    H.raises("ValueError", "Invalid `weights`. The shape of `weights` should be compatible with "
      .. "`[len(datasets)]` but is (3,).", function()
      return D.sample_from_datasets({ range(2), range(2) }, { 1.0, 2.0, 3.0 })
    end)
    H.raises("ValueError", "Invalid `datasets`. `datasets` should not be empty.", function()
      return D.sample_from_datasets({})
    end)
    H.raises("TypeError", "Invalid `datasets`. `datasets` must have compatible element specs.", function()
      return D.sample_from_datasets({ range(2), D.from_tensors("a") })
    end)
  end)
end)
