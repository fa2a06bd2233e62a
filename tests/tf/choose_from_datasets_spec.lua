-- choose_from_datasets_spec.lua — tensorflow/python/data/kernel_tests/
-- choose_from_datasets_test.py (ChooseFromDatasetsTest), ported.
--
-- Translation: each case runs eagerly; those that give one tensor per
-- element also inside a tf.func (data_nested_helpers). np.random.randint's
-- choices come from tfhelpers' fixed generator; the strings are Lua
-- strings (TF's bytes).
--
-- Left out: ChooseFromDatasetsCheckpointTest (iterator checkpoints).

local tf = tf or require("moonflow")
local T = require("tfhelpers")
local H = require("helpers")
local D = require("data_nested_helpers")

local Dataset = tf.data.Dataset

describe("choose_from_datasets_test.ChooseFromDatasetsTest", function()
  it("testChooseFromDatasets", function()
    local words = { "foo", "bar", "baz" }
    local datasets = {}
    for i, w in ipairs(words) do datasets[i] = Dataset.from_tensors(w):repeat_() end
    T.seed(7)
    local choices = {}
    for i = 1, 15 do choices[i] = math.min(2, math.floor(T.rand_values({ 1 })[1] * 3)) end
    local ds = Dataset.choose_from_datasets(datasets, Dataset.from_tensor_slices(tf.constant(choices, tf.int64)))
    local expected = {}
    for i, c in ipairs(choices) do expected[i] = words[c + 1] end
    D.produces(ds, expected)
  end)

  it("testChooseFromDatasetsStoppingOnEmptyDataset", function()
    local function build()
      local datasets = { Dataset.from_tensors("foo"):repeat_(2), Dataset.from_tensors("bar"):repeat_(),
        Dataset.from_tensors("baz"):repeat_() }
      local choice = Dataset.from_tensor_slices(tf.constant({ 0, 0, 0, 1, 1, 1, 2, 2, 2 }, tf.int64))
      return Dataset.choose_from_datasets(datasets, choice, true)
    end
    D.produces_both(build, { "foo", "foo" }, tf.string)
  end)

  it("testChooseFromDatasetsSkippingEmptyDatasets", function()
    local function build()
      local datasets = { Dataset.from_tensors("foo"):repeat_(2), Dataset.from_tensors("bar"):repeat_(),
        Dataset.from_tensors("baz"):repeat_() }
      local choice = Dataset.from_tensor_slices(tf.constant({ 0, 0, 0, 1, 1, 1, 2, 2, 2 }, tf.int64))
      return Dataset.choose_from_datasets(datasets, choice, { stop_on_empty_dataset = false })
    end
    D.produces_both(build, { "foo", "foo", "bar", "bar", "bar", "baz", "baz", "baz" }, tf.string)
  end)

  it("testChooseFromDatasetsChoiceDatasetIsEmpty", function()
    local function build()
      local datasets = { Dataset.from_tensors("foo"):repeat_(), Dataset.from_tensors("bar"):repeat_(),
        Dataset.from_tensors("baz"):repeat_() }
      return Dataset.choose_from_datasets(datasets, Dataset.range(0), false)
    end
    D.produces_both(build, {}, tf.string)
  end)

  it("testChooseFromDatasetsNested", function()
    local function build()
      local ds1 = Dataset.range(10):window(2)
      local ds2 = Dataset.range(10, 20):window(2)
      return Dataset.choose_from_datasets({ ds1, ds2 }, Dataset.range(2):repeat_(5))
        :flat_map(function(x) return x end)
    end
    local expected = {}
    for i = 0, 4 do
      for j = 0, 1 do
        expected[#expected + 1] = 10 * j + 2 * i
        expected[#expected + 1] = 10 * j + 2 * i + 1
      end
    end
    D.produces_both(build, expected)
  end)

  it("testErrors", function()
    local two = { Dataset.from_tensors(0), Dataset.from_tensors(1) }
    H.raises("TypeError", "tf.int64", function()
      return Dataset.choose_from_datasets(two, Dataset.from_tensors(1.0))
    end)
    H.raises("TypeError", "scalar", function()
      return Dataset.choose_from_datasets(two, Dataset.from_tensors(tf.constant({ 1.0 })))
    end)
    H.raises("InvalidArgumentError", "out of range", function()
      local ds = Dataset.choose_from_datasets({ Dataset.from_tensors(0) },
        Dataset.from_tensors(tf.constant(1, tf.int64)))
      return ds:iter():get_next()
    end)
    H.raises("ValueError", "Invalid `datasets`. `datasets` should not be empty.", function()
      return Dataset.choose_from_datasets({}, Dataset.from_tensors(1.0))
    end)
    H.raises("TypeError", "`choice_dataset` should be a `tf.data.Dataset`", function()
      return Dataset.choose_from_datasets({ Dataset.range(42) }, nil)
    end)
  end)
end)
