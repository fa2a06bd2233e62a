-- flat_map_spec.lua — tensorflow/python/data/kernel_tests/flat_map_test.py
-- (FlatMapTest, and FlatMapCheckpointTest's pipelines for their values),
-- ported.
--
-- Translation: each case runs eagerly and inside a tf.func (the pipeline
-- built and read in its trace: data_nested_helpers). A Python list
-- [x] of one tensor is a tensor of shape (1,); in Lua {x} is a tuple, so
-- testFlatMapDataset builds its one-element vectors with tf.reshape. The
-- checkpoint tests' pipelines are checked for their elements (moonflow
-- has no iterator checkpoints); testCaptureDefunInMapFn's Defun is a
-- nested tf.func.
--
-- Left out: testSharedResourceNestedFlatMapDataset (graph sessions
-- sharing an iterator through a server), testSparse and testSparseCore
-- (sparse tensors), testRagged (a ragged map result), testTensorArray (a
-- TensorArray as a dataset element), and the checkpoint tests that only
-- check saving fails (testDisallowVariableCapture,
-- testDisallowCapturingStatefulOps).

local tf = tf or require("moonflow")
local T = require("tfhelpers")
local H = require("helpers")
local D = require("data_nested_helpers")

describe("flat_map_test.FlatMapTest", function()
  it("testFlatMapDataset", function()
    local repeats = { 1, 2, 3, 4, 5, 0, 1 }
    local function build()
      return tf.data.Dataset.from_tensor_slices(tf.constant(repeats, tf.int64))
        :flat_map(function(x) return tf.data.Dataset.from_tensors(tf.reshape(x, { 1 })):repeat_(x) end)
    end
    local expected = {}
    for _, i in ipairs(repeats) do
      for _ = 1, i do expected[#expected + 1] = { i } end
    end
    D.produces_both(build, expected)
  end)

  it("testNestedFlatMapDataset", function()
    local repeats = { { 1, 2 }, { 3, 4 }, { 5, 0 }, { 1, 7 } }
    local function build()
      return tf.data.Dataset.from_tensor_slices(tf.constant(repeats, tf.int64)):flat_map(function(x)
        return tf.data.Dataset.from_tensor_slices(x):flat_map(function(y)
          return tf.data.Dataset.from_tensors(y):repeat_(y)
        end)
      end)
    end
    local expected = {}
    for _, row in ipairs(repeats) do
      for _, i in ipairs(row) do
        for _ = 1, i do expected[#expected + 1] = i end
      end
    end
    D.produces_both(build, expected)
  end)

  it("testMapDict", function()
    local function build()
      return tf.data.Dataset.range(10):map(function(x) return { foo = x * 2, bar = x ^ 2 } end)
        :flat_map(function(d) return tf.data.Dataset.from_tensors(d.foo):repeat_(d.bar) end)
    end
    local expected = {}
    for i = 0, 9 do
      for _ = 1, i * i do expected[#expected + 1] = i * 2 end
    end
    D.produces_both(build, expected)
  end)

  it("the map_func must return a Dataset (TypeError)", function()
    H.raises("TypeError", "The `map_func` argument must return a `Dataset` object. Got "
      .. "<class 'tensorflow.python.framework.tensor.Tensor'>.", function()
      return tf.data.Dataset.range(3):flat_map(function(x) return x end)
    end)
  end)
end)

describe("flat_map_test.FlatMapCheckpointTest (the pipelines' elements)", function()
  it("testCore", function()
    local function build()
      return tf.data.Dataset.range(0, 25, 5):flat_map(function(x) return tf.data.Dataset.range(x, x + 5) end)
    end
    local expected = {}
    for i = 0, 24 do expected[i + 1] = i end
    D.produces_both(build, expected)
  end)

  it("testMapThenFlatMap", function()
    local function build()
      return tf.data.Dataset.range(5):flat_map(function()
        return tf.data.Dataset.range(100):map(function(y) return 10 * tf.cast(y, tf.int32) end)
      end)
    end
    local expected = {}
    for _ = 1, 5 do
      for y = 0, 99 do expected[#expected + 1] = 10 * y end
    end
    D.produces_both(build, expected, tf.int32)
  end)

  it("testCaptureDefunInMapFn", function()
    local defun_fn = tf.func(function(x) return tf.constant(1000) + tf.cast(x, tf.int32) end)
    local function build()
      return tf.data.Dataset.range(100):flat_map(function(x)
        return tf.data.Dataset.from_tensor_slices(tf.stack({ defun_fn(x) }))
      end)
    end
    local expected = {}
    for x = 0, 99 do expected[x + 1] = 1000 + x end
    D.produces_both(build, expected, tf.int32)
  end)
end)
