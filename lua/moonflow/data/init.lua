-- moonflow.data — tf.data: Dataset (dataset.lua), its iterator
-- (iterator.lua) and the constants of TF's tf.data namespace.

local datasets = require("moonflow.data.dataset")
local text = require("moonflow.data.text")
local nested = require("moonflow.data.nested")

local data = {}

-- tf.data.Dataset: the class, whose fields are the static constructors.
local Dataset = {}
for _, name in ipairs({ "from_tensor_slices", "from_tensors", "range", "zip", "from_generator" }) do
  Dataset[name] = datasets[name]
end
for _, name in ipairs({ "choose_from_datasets", "sample_from_datasets", "random" }) do
  Dataset[name] = nested[name]
end
-- The transformations of datasets of datasets are TF's unbound methods
-- too (tf.data.Dataset.flat_map(ds, f) is ds:flat_map(f)), so the
-- reference lists them with their examples.
for _, name in ipairs({ "flat_map", "interleave", "window" }) do
  Dataset[name] = nested.unbound[name]
end
data.Dataset = Dataset

data.TextLineDataset = text.TextLineDataset

data.AUTOTUNE = -1
data.INFINITE_CARDINALITY = -1
data.UNKNOWN_CARDINALITY = -2
data.experimental = { AUTOTUNE = -1, INFINITE_CARDINALITY = -1, UNKNOWN_CARDINALITY = -2,
  CsvDataset = text.CsvDataset }

-- tf.io.decode_csv, which tf.lua puts in tf.io.
data.decode_csv = text.decode_csv

data.internal = { decode_csv = true, internal = true }
data.is_dataset = datasets.is_dataset
data.internal.is_dataset = true

return data
