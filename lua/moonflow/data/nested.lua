-- nested.lua — tf.data's datasets of datasets and the choosing among
-- datasets: ds:flat_map, ds:interleave, ds:window (core/data/nested.c,
-- window.c) and tf.data.Dataset.choose_from_datasets,
-- sample_from_datasets and random (core/data/directed.c). A dataset in an
-- element is structure.lua's "dataset" kind; these install themselves
-- into dataset.lua's methods and give TF's unbound forms.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local options = require("moonflow.options")
local dtypes = require("moonflow.tensor.dtypes")
local ops = require("moonflow.ops")
local structure = require("moonflow.data.structure")
local iterators = require("moonflow.data.iterator")
local D = require("moonflow.data.dataset")
local raise = errors.raise

local H = state.H
local op = core.op
local new, is_dataset = D.new, D.is_dataset
local trace_fn, need_dataset, int64, boolean = D.trace_fn, D.need_dataset, D.int64, D.boolean
local draw_seed, join_spec = D.draw_seed, D.join_spec

local M = {}

-- Datasets of datasets ---------------------------------------------------------

-- What TF names when a function returns no dataset: the Python type of
-- the value its structure describes.
local function python_type(s)
  if s.kind == "tuple" then return "<class 'tuple'>" end
  if s.kind == "dict" then return "<class 'dict'>" end
  return "<class 'tensorflow.python.framework.tensor.Tensor'>"
end

-- Traces a function of ds's elements that returns a dataset: the graph,
-- its captures and the returned dataset's (structure, specs).
local function trace_dataset_fn(ds, fn, name, what, level)
  local g, captures, s = trace_fn(name, what, fn, { { structure = ds._structure, specs = ds._specs } },
    true, level + 1)
  if s.kind ~= "dataset" then
    raise("TypeError", ("The `map_func` argument must return a `Dataset` object. Got %s.")
      :format(python_type(s)), level + 1)
  end
  return g, captures, s.structure, s.specs
end

local flat_map = options.def(function(ds, fn, opts)
  need_dataset(ds, "the receiver", 3)
  -- opts.name (TF's name for the op) is accepted; moonflow names the node by its op.
  local g, captures, s, specs = trace_dataset_fn(ds, fn, "Dataset_flat_map", "Dataset.flat_map()", 3)
  local attrs = iterators.spec_attrs(specs)
  attrs.f = g
  local v = op(H.FlatMapDataset, attrs, ds._variant, table.unpack(captures))
  return new(v, s, specs, "_FlatMapDataset")
end, "ds:flat_map(map_func)",
"A dataset of the elements of the datasets map_func returns, one for each element of ds (a "
.. "tuple's items given as separate arguments), one dataset after another. map_func is traced "
.. "once, as map's function, and must return a tf.data.Dataset (TypeError otherwise). Its "
.. "cardinality is unknown (-2), as in TF.", { required = 2, "name" })

local interleave = options.def(function(ds, fn, cycle_length, block_length, num_parallel_calls,
                                       deterministic, opts)
  need_dataset(ds, "the receiver", 3)
  -- opts.name (TF's name for the op) is accepted; moonflow names the node by its op.
  local g, captures, s, specs = trace_dataset_fn(ds, fn, "Dataset_interleave", "Dataset.interleave()", 3)
  if num_parallel_calls ~= nil then
    if math.type(num_parallel_calls) ~= "integer" then
      raise("TypeError", "num_parallel_calls must be an integer, got " .. tostring(num_parallel_calls), 3)
    end
    -- TF's ParallelInterleaveDatasetV4 kernel checks it so.
    if num_parallel_calls <= 0 and num_parallel_calls ~= -1 then
      raise("InvalidArgumentError", "num_parallel_calls must be greater than zero.", 3)
    end
  end
  if deterministic ~= nil and type(deterministic) ~= "boolean" then
    raise("TypeError", "deterministic must be a boolean, got " .. tostring(deterministic), 3)
  end
  -- Their bounds are the kernel's (InvalidArgumentError, as TF's).
  local cycle = int64(cycle_length == nil and -1 or cycle_length, "cycle_length", 3)
  local block = int64(block_length == nil and 1 or block_length, "block_length", 3)
  local attrs = iterators.spec_attrs(specs)
  attrs.f = g
  attrs.num_parallel_calls = num_parallel_calls == nil and 0 or num_parallel_calls
  local inputs = { ds._variant, table.unpack(captures) }
  inputs[#inputs + 1] = cycle
  inputs[#inputs + 1] = block
  local v = op(H.InterleaveDataset, attrs, table.unpack(inputs))
  return new(v, s, specs, num_parallel_calls == nil and "_InterleaveDataset" or "_ParallelInterleaveDataset")
end, "ds:interleave(map_func [, cycle_length [, block_length [, num_parallel_calls [, deterministic]]]])",
"A dataset of the elements of the datasets map_func returns for the elements of ds: "
.. "cycle_length of them open at once, block_length (default 1) elements taken from each in "
.. "turn, a finished one replaced by the next element's, in TF's order exactly. cycle_length "
.. "nil or tf.data.AUTOTUNE is TF's default: the number of CPUs (with num_parallel_calls n: "
.. "min(n, CPUs); AUTOTUNE: (CPUs + 2) // 3). num_parallel_calls and deterministic are "
.. "accepted, but moonflow computes the elements in order on one thread: the output is always "
.. "the deterministic one. map_func is traced once and must return a tf.data.Dataset. Its "
.. "cardinality is unknown (-2), as in TF.",
{ required = 2, positional = { "cycle_length", "block_length", "num_parallel_calls", "deterministic" }, "name" })

-- The element structure of a window: ds's, each tensor a dataset of it.
local function window_structure(s, specs)
  if s.kind == "tensor" or s.kind == "dataset" then
    local inner = s.kind == "tensor" and { kind = "tensor", index = 1 }
      or { kind = "dataset", index = 1, structure = s.structure, specs = s.specs }
    return { kind = "dataset", index = s.index, structure = inner, specs = { specs[s.index] } }
  end
  local items = {}
  for k, item in pairs(s.items) do items[k] = window_structure(item, specs) end
  return { kind = s.kind, keys = s.keys, items = items }
end

local window = options.def(function(ds, size, shift, stride, drop_remainder, opts)
  need_dataset(ds, "the receiver", 3)
  -- opts.name (TF's name for the op) is accepted; moonflow names the node by its op.
  if shift == nil then shift = size end
  if stride == nil then stride = 1 end
  if drop_remainder == nil then drop_remainder = false end
  local v = op(H.WindowDataset, {}, ds._variant, int64(size, "size", 3), int64(shift, "shift", 3),
    int64(stride, "stride", 3), boolean(drop_remainder, "drop_remainder", 3))
  local specs = {}
  for i = 1, #ds._specs do specs[i] = { dtype = dtypes.variant, shape = {} } end
  return new(v, window_structure(ds._structure, ds._specs), specs, "_WindowDataset")
end, "ds:window(size [, shift [, stride [, drop_remainder]]])",
"A dataset of windows: each element is ds's element structure with a dataset in place of each "
.. "tensor (a tuple of datasets for a tuple, a dict for a dict), holding size elements (fewer at "
.. "the end unless drop_remainder), taken stride apart (default 1); a new window starts every "
.. "shift elements (default size). The guide's idiom ds:window(5, 1, 1, true):flat_map(function(w) "
.. "return w:batch(5) end) gives the sliding windows as tensors. Bad sizes raise TF's "
.. "InvalidArgumentError (\"Window size must be greater than zero.\").",
{ required = 2, positional = { "shift", "stride", "drop_remainder" }, "name" })

-- The methods, and TF's unbound forms (tf.data.Dataset.flat_map(ds, f)):
-- the same functions, which check their receiver after their options.
M.unbound = { flat_map = flat_map, interleave = interleave, window = window }
D.add_methods(M.unbound)

-- Choosing among datasets -----------------------------------------------------------

M.random = options.def(function(seed, rerandomize, opts)
  -- opts.name (TF's name for the op) is accepted; moonflow names the node by its op.
  if seed ~= nil and math.type(seed) ~= "integer" then
    raise("TypeError", "seed must be an integer, got " .. tostring(seed), 3)
  end
  if rerandomize ~= nil and type(rerandomize) ~= "boolean" then
    raise("TypeError", "rerandomize_each_iteration must be a boolean, got " .. tostring(rerandomize), 3)
  end
  local v = op(H.RandomDataset, { rerandomize_each_iteration = rerandomize or false },
    ops.constant(seed or draw_seed(), dtypes.int64), ops.constant(0, dtypes.int64))
  return new(v, { kind = "tensor", index = 1 }, { { dtype = dtypes.int64, shape = {} } }, "_RandomDataset")
end, "tf.data.Dataset.random([seed [, rerandomize_each_iteration]])",
"An endless dataset of random int64 scalars in [0, 2^32). With a seed every iteration gives the "
.. "same stream (a new one each when rerandomize_each_iteration); without, the seed comes from "
.. "moonflow's random stream (reproducible after tf.random.set_seed). moonflow's draws are not TF's.",
{ positional = { "seed", "rerandomize_each_iteration" }, "name" })

-- The datasets of a Lua list, checked, and the element they share.
local function candidates(datasets, level)
  if type(datasets) ~= "table" or getmetatable(datasets) ~= nil or #datasets == 0 then
    if is_dataset(datasets) or type(datasets) ~= "table" then
      raise("TypeError", "Invalid `datasets`. `datasets` must be a Lua list of tf.data.Datasets, got "
        .. tostring(datasets), level + 1)
    end
    raise("ValueError", "Invalid `datasets`. `datasets` should not be empty.", level + 1)
  end
  local first = datasets[1]
  local specs = {}
  for i, ds in ipairs(datasets) do
    need_dataset(ds, "datasets[" .. i .. "]", level + 1)
    local ok = structure.same(first._structure, ds._structure) and #ds._specs == #first._specs
    for k = 1, ok and #first._specs or 0 do ok = ok and ds._specs[k].dtype == first._specs[k].dtype end
    if not ok then
      raise("TypeError", ("Invalid `datasets`. `datasets` must have compatible element specs.\n Dataset 0 "
        .. "element_spec=%s.\nDataset %d element_spec=%s."):format(tostring(first.element_spec),
        i - 1, tostring(ds.element_spec)), level + 1)
    end
    for k, spec in ipairs(ds._specs) do specs[k] = i == 1 and spec or join_spec(specs[k], spec) end
  end
  return first._structure, specs
end

local function directed(selector, datasets, s, specs, stop)
  local variants = { selector._variant }
  for i, ds in ipairs(datasets) do variants[i + 1] = ds._variant end
  local v = op(H.DirectedInterleaveDataset, { stop_on_empty_dataset = stop }, table.unpack(variants))
  return new(v, s, specs, "_DirectedInterleaveDataset")
end

M.choose_from_datasets = options.def(function(datasets, choice_dataset, stop_on_empty_dataset, opts)
  -- opts.name (TF's name for the op) is accepted; moonflow names the node by its op.
  local s, specs = candidates(datasets, 3)
  if not is_dataset(choice_dataset) then
    raise("TypeError", ("Invalid `choice_dataset`. `choice_dataset` should be a `tf.data.Dataset` but is %s.")
      :format(tostring(choice_dataset)), 3)
  end
  local c = choice_dataset._specs
  if choice_dataset._structure.kind ~= "tensor" or c[1].dtype ~= dtypes.int64
    or (c[1].shape and #c[1].shape ~= 0) then
    raise("TypeError", ("Invalid `choice_dataset`. Elements of `choice_dataset` must be scalar `tf.int64` "
      .. "tensors but are %s."):format(structure.spec_text(choice_dataset._structure, c)), 3)
  end
  if stop_on_empty_dataset == nil then stop_on_empty_dataset = true end
  if type(stop_on_empty_dataset) ~= "boolean" then
    raise("TypeError", "stop_on_empty_dataset must be a boolean, got " .. tostring(stop_on_empty_dataset), 3)
  end
  return directed(choice_dataset, datasets, s, specs, stop_on_empty_dataset)
end, "tf.data.Dataset.choose_from_datasets(datasets, choice_dataset [, stop_on_empty_dataset=true])",
"A dataset of the elements of datasets (a Lua list of datasets of one structure and dtypes) in "
.. "the order choice_dataset (int64 scalars, 0-based indices into datasets) names them. With "
.. "stop_on_empty_dataset (the default) the first pick of an exhausted dataset ends it; without, "
.. "such picks are skipped until every dataset is exhausted. An index out of range raises "
.. "InvalidArgumentError when it is reached.",
{ required = 2, positional = { "stop_on_empty_dataset" }, "name" })

M.sample_from_datasets = options.def(function(datasets, weights, seed, stop_on_empty_dataset, rerandomize,
                                              opts)
  -- opts.name (TF's name for the op) is accepted; moonflow names the node by its op.
  local s, specs = candidates(datasets, 3)
  local n = #datasets
  local w
  if weights == nil then
    w = ops.constant(1.0, dtypes.float64)
    w = ops.fill({ n }, w)
  else
    w = core.is_tensor(weights) and weights or ops.convert_to_tensor(weights)
    local dt = core.dtype(w)
    if dt ~= dtypes.float32 and dt ~= dtypes.float64 then
      raise("TypeError", ("Invalid `weights`. `weights` type must be either `tf.float32` or `tf.float64` but "
        .. "is <dtype: '%s'>."):format(dt.name), 3)
    end
    local _, _, shape = core.info(w)
    if shape and (#shape ~= 1 or (shape[1] >= 0 and shape[1] ~= n)) then
      raise("ValueError", ("Invalid `weights`. The shape of `weights` should be compatible with "
        .. "`[len(datasets)]` but is %s."):format(structure.shape_text(shape)), 3)
    end
    w = ops.cast(w, dtypes.float64)
  end
  if stop_on_empty_dataset == nil then stop_on_empty_dataset = false end
  if type(stop_on_empty_dataset) ~= "boolean" then
    raise("TypeError", "stop_on_empty_dataset must be a boolean, got " .. tostring(stop_on_empty_dataset), 3)
  end
  -- As TF, one dataset is returned as it is.
  if n == 1 then return datasets[1] end
  -- A choice per random draw u in [0, 1): the first k whose cumulative
  -- share of the weights passes u.
  local bounds = ops.cumsum(w) / ops.reduce_sum(w)
  local selector = M.random(seed, { rerandomize_each_iteration = rerandomize or false }):map(function(r)
    local u = ops.cast(r, dtypes.float64) / 4294967296.0
    local k = ops.reduce_sum(ops.cast(ops.less_equal(bounds, u), dtypes.int64))
    return ops.minimum(k, ops.constant(n - 1, dtypes.int64))
  end)
  return directed(selector, datasets, s, specs, stop_on_empty_dataset)
end, "tf.data.Dataset.sample_from_datasets(datasets [, weights [, seed [, stop_on_empty_dataset=false "
.. "[, rerandomize_each_iteration]]]])",
"A dataset of elements drawn at random from datasets (a Lua list of datasets of one structure "
.. "and dtypes), each pick choosing dataset i with probability weights[i] / sum(weights) "
.. "(weights: float32/float64, default uniform). A seed makes the picks reproducible (every "
.. "iteration the same unless rerandomize_each_iteration); without one it comes from moonflow's "
.. "random stream. An exhausted dataset's picks are skipped until every dataset is exhausted, "
.. "or end the dataset when stop_on_empty_dataset. moonflow's draws are not TF's.",
{ required = 1, positional = { "weights", "seed", "stop_on_empty_dataset", "rerandomize_each_iteration" }, "name" })

return M
