-- dataset.lua — tf.data.Dataset: the Lua face of the core's datasets
-- (core/data/, ops in core/ops/ops_data.c). A Dataset holds the scalar
-- variant tensor an op made (TF's _variant_tensor), the element's
-- structure and its component specs (structure.lua), and the Python class
-- name TF prints. Every transformation is one op call, as in TF; map,
-- filter and reduce trace their function once into a graph the core runs
-- per element (Lua side effects in it happen at that trace only, as
-- Python's do in TF).

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local doc = require("moonflow.doc")
local state = require("moonflow.state")
local options = require("moonflow.options")
local receiver = require("moonflow.receiver")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local ops = require("moonflow.ops")
local structure = require("moonflow.data.structure")
local iterators = require("moonflow.data.iterator")
local generators = require("moonflow.data.generator")
local raise = errors.raise

local H = state.H
local op = core.op

local M = {}

local Dataset = { __name = "Dataset" }
local methods = {}
receiver.metatable(Dataset, "dataset", methods)

local function new(variant, s, specs, class)
  return setmetatable({ _variant = variant, _structure = s, _specs = specs, _class = class }, Dataset)
end

local function is_dataset(v) return getmetatable(v) == Dataset end
M.is_dataset = is_dataset

Dataset.__index = receiver.index(Dataset, "dataset", {
  methods = { methods },
  fields = {
    element_spec = function(ds) return structure.element_spec(ds._structure, ds._specs) end,
  },
})

function Dataset.__tostring(ds)
  return ("<%s element_spec=%s>"):format(ds._class, structure.spec_text(ds._structure, ds._specs))
end
Dataset.__repr = Dataset.__tostring

-- DatasetSpec -------------------------------------------------------------------

-- The trace type of a dataset given to a tf.func (trace/trace_type.lua's
-- interface): the trace receives a dataset of the same element spec whose
-- variant is a graph input, and a call feeds the dataset's variant.
-- Another dataset of the same element spec (or a more specific one)
-- reuses the trace, as in TF.
local spec_of

local Spec = { kind = "dataset" }

local function new_spec(s, specs)
  return setmetatable({ structure = s, specs = specs }, Spec)
end

-- What saved_model.lua names when it refuses a dataset argument.
function Spec.__index(spec, k)
  if k == "text" then return tostring(spec) end
  return Spec[k]
end

-- Does shape a fit shape b (b's known dimensions equal)?
local function shape_fits(a, b)
  if b == nil then return true end
  if a == nil or #a ~= #b then return false end
  for i = 1, #b do
    if b[i] >= 0 and a[i] ~= b[i] then return false end
  end
  return true
end

local function same_layout(a, b)
  if b.kind ~= "dataset" or not structure.same(a.structure, b.structure) or #a.specs ~= #b.specs then
    return false
  end
  for i, spec in ipairs(a.specs) do
    if spec.dtype ~= b.specs[i].dtype then return false end
  end
  return true
end

function Spec:is_subtype_of(o)
  if not same_layout(self, o) then return false end
  for i, spec in ipairs(self.specs) do
    if not shape_fits(spec.shape, o.specs[i].shape) then return false end
  end
  return true
end

function Spec:supertype(o)
  if not same_layout(self, o) then return nil end
  local specs = {}
  for i, a in ipairs(self.specs) do
    local b, shape = o.specs[i], nil
    if a.shape and b.shape and #a.shape == #b.shape then
      shape = {}
      for d = 1, #a.shape do shape[d] = a.shape[d] == b.shape[d] and a.shape[d] or -1 end
    end
    specs[i] = { dtype = a.dtype, shape = shape }
  end
  return new_spec(self.structure, specs)
end

function Spec:__tostring()
  return ("DatasetSpec(%s, TensorShape([]))"):format(structure.spec_text(self.structure, self.specs))
end

function Spec:placeholder(name)
  local variant = core.placeholder(name, dtypes.variant, {})
  return new(variant, self.structure, self.specs, "_VariantDataset")
end

function Spec:feeds(v, out) out[#out + 1] = v._variant end

function Spec:accepts(v)
  if is_dataset(v) and spec_of(v):is_subtype_of(self) then return true end
  return false, is_dataset(v) and tostring(spec_of(v)) or tostring(v)
end

--- The DatasetSpec of a dataset (tostring: TF's repr).
function spec_of(ds) return new_spec(ds._structure, ds._specs) end
M.spec_of = spec_of

-- A dataset given to a tf.func is traced by its DatasetSpec.
function Dataset.__tf_trace_type(ds) return spec_of(ds) end

-- A dataset inside an element (a flat_map function's result, a window's
-- components) is its variant scalar; read back it is a _VariantDataset,
-- as TF rebuilds one from a DatasetSpec.
structure.register_dataset({
  is = is_dataset,
  parts = function(ds) return ds._variant, ds._structure, ds._specs end,
  wrap = function(variant, s, specs) return new(variant, s, specs, "_VariantDataset") end,
  spec = function(s, specs) return new_spec(s, specs) end,
})

-- Arguments ----------------------------------------------------------------

-- An int64 scalar from a Lua integer or an integer tensor.
local function int64(v, what, level)
  if core.is_tensor(v) then
    local dt = core.dtype(v)
    if not dt.is_integer then
      raise("TypeError", ("%s must be an integer, got a %s tensor"):format(what, dt.name), level + 1)
    end
    return dt == dtypes.int64 and v or ops.cast(v, dtypes.int64)
  end
  if math.type(v) ~= "integer" then
    raise("TypeError", ("%s must be an integer, got %s"):format(what, tostring(v)), level + 1)
  end
  return ops.constant(v, dtypes.int64)
end

local function boolean(v, what, level)
  if core.is_tensor(v) then return v end
  if type(v) ~= "boolean" then
    raise("TypeError", ("%s must be a boolean, got %s"):format(what, tostring(v)), level + 1)
  end
  return ops.constant(v)
end

local function need_dataset(v, what, level)
  if not is_dataset(v) then
    raise("TypeError", ("%s must be a tf.data.Dataset, got %s"):format(what, tostring(v)), level + 1)
  end
  return v
end

-- The same element, another variant (take, skip, repeat, shuffle, cache).
local function same_element(ds, variant, class)
  return new(variant, ds._structure, ds._specs, class)
end

-- Functions of elements -------------------------------------------------------

-- Traces fn over placeholders of the given structures and specs: fn gets
-- each structure's value (a tuple's items as separate arguments when
-- `unpack` says so). Returns the graph, its captured outer values and the
-- result's (structure, specs). `name` is the trace's name, `what` the
-- transformation in messages ("Dataset.map()").
local function trace_fn(name, what, fn, inputs, unpack, level)
  if type(fn) ~= "function" and not (type(fn) == "table" and getmetatable(fn) and getmetatable(fn).__call) then
    raise("TypeError", ("%s expects a function, got %s"):format(what, tostring(fn)), level + 1)
  end
  local out_s, out_flat
  local g, captures = state.in_trace(name, nil, nil, function()
    local args, n = {}, 0
    local k = 0
    for _, input in ipairs(inputs) do
      local flat = {}
      for i, spec in ipairs(input.specs) do
        k = k + 1
        flat[i] = core.placeholder("args_" .. (k - 1), spec.dtype, spec.shape)
      end
      local value = structure.pack(input.structure, flat)
      if unpack and input.structure.kind == "tuple" then
        for _, v in ipairs(value) do
          n = n + 1
          args[n] = v
        end
      else
        n = n + 1
        args[n] = value
      end
    end
    local results = table.pack(fn(table.unpack(args, 1, n)))
    local result = results.n > 1 and { table.unpack(results, 1, results.n) } or results[1]
    local ok, s, flat = pcall(structure.flatten, result, what)
    if not ok or result == nil then
      raise("TypeError", ("Unsupported return value from function passed to %s: %s.")
        :format(what, result == nil and "None" or tostring(result)), level + 2)
    end
    out_s, out_flat = s, flat
    return flat
  end)
  -- As TF's Grappler optimises a dataset's functions: the function a
  -- pipeline runs per element is the optimised graph (its elementwise ops
  -- fused), unless tf.config.optimizer.set_enabled(false).
  if state.optimizer_enabled then g = core.optimize(g) end
  return g, captures, out_s, structure.specs_of(out_flat)
end

-- Sources ---------------------------------------------------------------------

local function components_of(value, what, level)
  local s, flat = structure.flatten(value, what, level + 1)
  if #flat == 0 then
    raise("ValueError", "Invalid `element`. `element` should not be empty.", level + 1)
  end
  return s, flat
end

M.from_tensor_slices = doc.def(function(tensors)
  local s, flat = components_of(tensors, "from_tensor_slices", 2)
  local specs = structure.specs_of(flat)
  local first
  for _, spec in ipairs(specs) do
    if spec.shape and #spec.shape == 0 then
      raise("ValueError", "Unbatching a tensor is only supported for rank >= 1", 2)
    end
    local d = spec.shape and spec.shape[1] or -1
    if first and first >= 0 and d >= 0 and d ~= first then
      raise("ValueError", ("Dimensions %d and %d are not compatible"):format(first, d), 2)
    end
    if not first or first < 0 then first = d end
  end
  for _, spec in ipairs(specs) do
    local shape = spec.shape and table.move(spec.shape, 2, #spec.shape, 1, {}) or nil
    spec.shape = shape
  end
  return new(op(H.TensorSliceDataset, {}, table.unpack(flat)), s, specs, "_TensorSliceDataset")
end, "tf.data.Dataset.from_tensor_slices(tensors)",
"A dataset of the slices of tensors along their first dimension. tensors is a tensor, a Lua "
.. "list of numbers (one tensor, as TF converts a Python list), or a nest of them: a Lua list of "
.. "tensors is a tuple, a table with string keys a dict; every component must have the same first "
.. "dimension (ValueError otherwise).")

M.from_tensors = doc.def(function(tensors)
  local s, flat = components_of(tensors, "from_tensors", 2)
  return new(op(H.TensorDataset, {}, table.unpack(flat)), s, structure.specs_of(flat), "_TensorDataset")
end, "tf.data.Dataset.from_tensors(tensors)",
"A dataset of one element: tensors (a tensor or a nest of them, as from_tensor_slices takes).")

M.range = doc.def(function(...)
  local args = table.pack(...)
  local n = args.n
  if n > 0 and type(args[n]) == "table" and not core.is_tensor(args[n]) then n = n - 1 end
  local start, stop, step = 0, nil, 1
  if n == 1 then
    stop = args[1]
  elseif n == 2 or n == 3 then
    start, stop, step = args[1], args[2], args[3] or 1
  else
    raise("TypeError", "tf.data.Dataset.range takes stop, or start, stop [, step]", 2)
  end
  local v = op(H.RangeDataset, {}, int64(start, "start", 2), int64(stop, "stop", 2), int64(step, "step", 2))
  return new(v, { kind = "tensor", index = 1 }, { { dtype = dtypes.int64, shape = {} } }, "_RangeDataset")
end, "tf.data.Dataset.range(stop) / range(start, stop [, step])",
"A dataset of the int64 scalars start, start + step, ... up to (not including) stop, as Python's "
.. "range.")

M.from_generator = options.def(function(generator, output_types, output_shapes, args, output_signature, opts)
  if output_signature == nil and output_types ~= nil then
    -- TF's older form: dtypes (and shapes) instead of TensorSpecs.
    local open = {}
    local function specs_of(t, sh)
      if getmetatable(t) == dtypes.DType then
        if sh ~= nil and (type(sh) ~= "table" or (getmetatable(sh) ~= nil and getmetatable(sh) ~= shapes.Shape)) then
          raise("TypeError", "output_shapes must be shapes (Lua lists of dimensions) nested as output_types, got "
            .. tostring(sh), 4)
        end
        return shapes.TensorSpec(sh, t)
      end
      if type(t) ~= "table" or getmetatable(t) ~= nil or open[t] then
        raise("TypeError", "output_types must be a dtype or a (nested) table of dtypes, got " .. tostring(t), 4)
      end
      open[t] = true
      local out = {}
      for k, v in pairs(t) do out[k] = specs_of(v, type(sh) == "table" and getmetatable(sh) == nil and sh[k] or nil) end
      open[t] = nil
      return out
    end
    output_signature = specs_of(output_types, output_shapes)
  end
  if args ~= nil then
    if type(args) ~= "table" or getmetatable(args) ~= nil then
      raise("TypeError", "args must be a Lua list of the generator's arguments, got " .. tostring(args), 3)
    end
    local inner = generator
    if type(inner) ~= "function" then raise("TypeError", "`generator` must be a Python callable.", 3) end
    generator = function() return inner(table.unpack(args)) end
  end
  return generators.from_generator(new, generator, output_signature, opts.name, 2)
end, generators.doc[1], generators.doc[2],
{ required = 1, positional = { "output_types", "output_shapes", "args", "output_signature" }, "name" })

-- The datasets a zip argument holds, in structure order, and the
-- element structure built from theirs.
local function zip_structure(arg, level)
  local list, open = {}, {}
  local function walk(v)
    if is_dataset(v) then
      list[#list + 1] = v
      return { kind = "dataset", ds = v }
    end
    if type(v) == "table" and getmetatable(v) == nil and next(v) ~= nil and not open[v] then
      open[v] = true
      local node = structure.table_node(v, nil, walk)
      open[v] = nil
      return node
    end
    raise("TypeError", "tf.data.Dataset.zip: the arguments must be datasets or (nested) tables of "
      .. "datasets, got " .. tostring(v), level + 3)
  end
  local shape = walk(arg)
  local specs, offset = {}, 0
  local function element(z)
    if z.kind == "dataset" then
      local s = structure.shifted(z.ds._structure, offset)
      for _, spec in ipairs(z.ds._specs) do specs[#specs + 1] = spec end
      offset = offset + #z.ds._specs
      return s
    end
    local items = {}
    if z.kind == "tuple" then
      for i, item in ipairs(z.items) do items[i] = element(item) end
    else
      for _, k in ipairs(z.keys) do items[k] = element(z.items[k]) end
    end
    return { kind = z.kind, keys = z.keys, items = items }
  end
  return list, element(shape), specs
end

M.zip = doc.def(function(...)
  local n = select("#", ...)
  local arg = n == 1 and (...) or { ... }
  if n == 1 and is_dataset(arg) then arg = { arg } end
  local list, s, specs = zip_structure(arg, 1)
  local variants = {}
  for i, ds in ipairs(list) do variants[i] = ds._variant end
  return new(op(H.ZipDataset, {}, table.unpack(variants)), s, specs, "_ZipDataset")
end, "tf.data.Dataset.zip(a, b, ...) / zip({a, b}) / zip({x = a, y = b})",
"A dataset of the elements of the given datasets side by side (a tuple, or a dict), as long as "
.. "the shortest.")

-- Transformations -------------------------------------------------------------

-- ds:batch{64, drop_remainder = true} / ds:batch{batch_size = 64}: the
-- arguments in one table, Lua's keyword call.
local function table_call(args, names, what)
  local out = { args.batch_size or args[1] }
  for k in pairs(args) do
    if k ~= 1 and k ~= "batch_size" and not names[k] then
      raise("TypeError", ("%s got an unexpected keyword argument '%s'"):format(what, tostring(k)), 4)
    end
  end
  return out
end

methods.batch = options.def(function(ds, batch_size, drop_remainder)
  if type(batch_size) == "table" and getmetatable(batch_size) == nil then
    local args = batch_size
    batch_size = table_call(args, { drop_remainder = true, num_parallel_calls = true, deterministic = true,
      name = true }, "ds:batch")[1]
    drop_remainder = args.drop_remainder
  end
  local drop = drop_remainder or false
  local size = int64(batch_size, "batch_size", 3)
  local static = not core.is_tensor(batch_size) and drop and batch_size or -1
  local specs = {}
  for i, spec in ipairs(ds._specs) do
    local shape = spec.shape and { static, table.unpack(spec.shape) } or nil
    specs[i] = { dtype = spec.dtype, shape = shape }
  end
  local v = op(H.BatchDatasetV2, { parallel_copy = false }, ds._variant, size, boolean(drop, "drop_remainder", 3))
  return new(v, ds._structure, specs, "_BatchDataset")
end, "ds:batch(batch_size [, {drop_remainder=false}]) / ds:batch{batch_size, drop_remainder=}",
"Combines consecutive elements into batches (stacked on a new first axis); the last batch may be "
.. "smaller unless drop_remainder. num_parallel_calls and deterministic are accepted and ignored.",
{ required = 2, positional = { "drop_remainder", "num_parallel_calls", "deterministic" }, "name" })

local function shape_list(v, level)
  if v == nil then return nil end
  if getmetatable(v) == shapes.Shape then v = v:as_list() end
  if core.is_tensor(v) then v = core.numpy(v) end
  if type(v) ~= "table" then
    raise("TypeError", "padded_shapes entries must be shapes (lists of integers or tf.None), got "
      .. tostring(v), level + 1)
  end
  local out = {}
  for i = 1, #v do
    local d = v[i]
    out[i] = (d == shapes.None or d == nil) and -1 or d
  end
  return out
end

-- Per component of ds: the values of a nest matching ds's structure (or
-- one value for a one-tensor element).
local function per_component(ds, value, what, level)
  local out = {}
  local function walk(s, v)
    if s.kind == "tensor" then
      out[s.index] = v
      return
    end
    if type(v) ~= "table" or getmetatable(v) ~= nil then
      raise("ValueError", ("%s must have the structure of the element"):format(what), level + 3)
    end
    if s.kind == "tuple" then
      for i, item in ipairs(s.items) do walk(item, v[i]) end
    else
      for _, k in ipairs(s.keys) do walk(s.items[k], v[k]) end
    end
  end
  if value ~= nil then walk(ds._structure, value) end
  return out
end

methods.padded_batch = options.def(function(ds, batch_size, padded_shapes, padding_values, drop_remainder)
  local drop = drop_remainder or false
  local given_shapes = per_component(ds, padded_shapes, "padded_shapes", 2)
  local given_values = per_component(ds, padding_values, "padding_values", 2)
  local n = #ds._specs
  local shape_tensors, value_tensors, specs = {}, {}, {}
  local static = not core.is_tensor(batch_size) and drop and batch_size or -1
  for i = 1, n do
    local spec = ds._specs[i]
    local shape = shape_list(given_shapes[i], 3) or spec.shape
    if not shape then
      raise("ValueError", "You must provide `padded_shapes` argument because component " .. (i - 1)
        .. " has unknown rank.", 3)
    end
    if spec.shape and #shape ~= #spec.shape then
      raise("ValueError", ("The padded shape %s is not compatible with the shape %s of the corresponding "
        .. "input component."):format(structure.shape_text(shape), structure.shape_text(spec.shape)), 3)
    end
    shape_tensors[i] = ops.constant(#shape > 0 and shape or {}, dtypes.int64)
    if #shape == 0 then shape_tensors[i] = ops.reshape(shape_tensors[i], { 0 }) end
    local pv = given_values[i]
    if pv == nil then pv = spec.dtype == dtypes.string and "" or 0 end
    value_tensors[i] = ops.convert_to_tensor(pv, spec.dtype)
    local out = { static }
    for d = 1, #shape do
      out[d + 1] = shape[d] >= 0 and shape[d] or (spec.shape and spec.shape[d] or -1)
    end
    specs[i] = { dtype = spec.dtype, shape = out }
  end
  local inputs = { ds._variant, int64(batch_size, "batch_size", 3) }
  for i = 1, n do inputs[#inputs + 1] = shape_tensors[i] end
  for i = 1, n do inputs[#inputs + 1] = value_tensors[i] end
  inputs[#inputs + 1] = boolean(drop, "drop_remainder", 3)
  local v = op(H.PaddedBatchDatasetV2, { parallel_copy = false }, table.unpack(inputs))
  return new(v, ds._structure, specs, "_PaddedBatchDataset")
end, "ds:padded_batch(batch_size [, padded_shapes [, padding_values]] [, {drop_remainder=false}])",
"Batches elements of different shapes: each component is padded to padded_shapes (a dimension "
.. "tf.None or -1, or padded_shapes nil: the longest in the batch) with padding_values (default 0, "
.. "or \"\" for strings).",
{ required = 2, positional = { "padded_shapes", "padding_values", "drop_remainder" }, "name" })

methods.unbatch = doc.def(function(ds)
  local specs = {}
  for i, spec in ipairs(ds._specs) do
    if spec.shape and #spec.shape == 0 then
      raise("ValueError", "Cannot unbatch an input with scalar components.", 2)
    end
    specs[i] = { dtype = spec.dtype, shape = spec.shape and table.move(spec.shape, 2, #spec.shape, 1, {}) or nil }
  end
  return new(op(H.UnbatchDataset, {}, ds._variant), ds._structure, specs, "_UnbatchDataset")
end, "ds:unbatch()", "Splits each element's components along their first dimension into elements.")

local function count_transformation(opname, class, default, sig, text)
  return doc.def(function(ds, count)
    if count == nil then
      if default == nil then raise("TypeError", sig .. " takes a count", 2) end
      count = default
    end
    return same_element(ds, op(H[opname], {}, ds._variant, int64(count, "count", 2)), class)
  end, sig, text)
end

methods.take = count_transformation("TakeDataset", "_TakeDataset", nil, "ds:take(count)",
  "A dataset of at most count elements of ds (count -1: all of them).")
methods.skip = count_transformation("SkipDataset", "_SkipDataset", nil, "ds:skip(count)",
  "A dataset of ds's elements after the first count (count -1: none of them).")
methods["repeat"] = count_transformation("RepeatDataset", "_RepeatDataset", -1, "ds:repeat([count])",
  "ds repeated count times; nil or -1 repeats forever. (`repeat` is a Lua keyword: write "
  .. "ds:repeat_(n) or ds[\"repeat\"](ds, n).)")
methods.repeat_ = methods["repeat"]

-- The most specific spec both fit (TF's most_specific_compatible_type).
local function join_spec(a, b)
  if not a.shape or not b.shape or #a.shape ~= #b.shape then return { dtype = a.dtype } end
  local shape = {}
  for i = 1, #a.shape do shape[i] = a.shape[i] == b.shape[i] and a.shape[i] or -1 end
  return { dtype = a.dtype, shape = shape }
end

methods.concatenate = doc.def(function(ds, other)
  need_dataset(other, "dataset", 2)
  local ok = structure.same(ds._structure, other._structure)
  for i = 1, ok and #ds._specs or 0 do ok = ok and ds._specs[i].dtype == other._specs[i].dtype end
  if not ok then
    raise("TypeError", ("Incompatible dataset elements:\n  %s vs.   %s")
      :format(structure.spec_text(ds._structure, ds._specs), structure.spec_text(other._structure, other._specs)), 2)
  end
  local specs = {}
  for i = 1, #ds._specs do specs[i] = join_spec(ds._specs[i], other._specs[i]) end
  return new(op(H.ConcatenateDataset, {}, ds._variant, other._variant), ds._structure, specs,
    "_ConcatenateDataset")
end, "ds:concatenate(other)", "A dataset of ds's elements, then other's (same structure and dtypes).")

methods.enumerate = options.def(function(ds, start)
  local counter = M.range(start or 0, math.maxinteger)
  return M.zip(counter, ds)
end, "ds:enumerate([start])", "A dataset of (i, element) pairs, i counting from start (default 0), "
.. "as TF builds it: zip(range(start, max int64), ds).", { required = 1, positional = { "start" }, "name" })

-- A shuffle's seeds when none is given: drawn from moonflow's random
-- stream, so tf.random.set_seed makes the order reproducible.
local function draw_seed()
  local u = ops.random.uniform({}, 0, 2147483647)
  return math.floor(core.numpy(u)) + 1
end

methods.shuffle = options.def(function(ds, buffer_size, seed, reshuffle)
  if seed ~= nil and math.type(seed) ~= "integer" then
    raise("TypeError", "seed must be an integer, got " .. tostring(seed), 3)
  end
  if reshuffle == nil then reshuffle = true end
  if type(reshuffle) ~= "boolean" then
    raise("TypeError", "reshuffle_each_iteration must be a boolean, got " .. tostring(reshuffle), 3)
  end
  local v = op(H.ShuffleDataset, { reshuffle_each_iteration = reshuffle }, ds._variant,
    int64(buffer_size, "buffer_size", 3), ops.constant(seed or draw_seed(), dtypes.int64),
    ops.constant(0, dtypes.int64))
  return same_element(ds, v, "_ShuffleDataset")
end, "ds:shuffle(buffer_size [, {seed=, reshuffle_each_iteration=true}])",
"Randomly shuffles the elements through a buffer of buffer_size elements. Each new iteration draws a new order unless "
.. "reshuffle_each_iteration is false. Without a seed the order comes from moonflow's random "
.. "stream (reproducible after tf.random.set_seed). moonflow's orders are not TF's.",
{ required = 2, positional = { "seed", "reshuffle_each_iteration" }, "name" })

methods.cache = options.def(function(ds, filename)
  if filename ~= nil and filename ~= "" then
    raise("UnimplementedError", "moonflow caches datasets in memory only: ds:cache() without a filename", 3)
  end
  return same_element(ds, op(H.CacheDataset, {}, ds._variant, ops.constant("")), "_CacheDataset")
end, "ds:cache()", "Keeps the elements in memory once a first iteration has read them all; later "
.. "iterations read them from there.", { required = 1, positional = { "filename" }, "name" })

methods.prefetch = options.def(function(ds, buffer_size)
  return same_element(ds, op(H.PrefetchDataset, {}, ds._variant, int64(buffer_size, "buffer_size", 3)),
    "_PrefetchDataset")
end, "ds:prefetch(buffer_size)",
"Computes up to buffer_size elements ahead of their use (tf.data.AUTOTUNE: 8, doubled up to 64 "
.. "each time the consumer finds the buffer empty, as TF's autotuner grows it). When every stage "
.. "upstream runs in C (sources, transformations, map/filter functions of pure ops) a producer "
.. "thread of the iterator's own computes them while the session's thread works; a pipeline "
.. "with a stage that must run on the session's thread (from_generator, a function with "
.. "variables, random ops, prints or nested calls) is computed when asked, on that thread.",
{ required = 2, "name" })

methods.map = options.def(function(ds, fn)
  local g, captures, s, specs = trace_fn("Dataset_map", "Dataset.map()", fn,
    { { structure = ds._structure, specs = ds._specs } }, true, 3)
  local v = op(H.MapDataset, { f = g, use_inter_op_parallelism = true, preserve_cardinality = true },
    ds._variant, table.unpack(captures))
  return new(v, s, specs, "_MapDataset")
end, "ds:map(fn [, {num_parallel_calls=, deterministic=}])",
"A dataset of fn(element) for each element (a tuple's items are given as separate arguments). "
.. "fn is traced once into a graph, as TF traces it: Lua side effects in it happen at that trace "
.. "only. It may return tensors, Lua values or nests of them; num_parallel_calls is accepted "
.. "and ignored (elements are mapped in order).",
{ required = 2, positional = { "num_parallel_calls", "deterministic" }, "name" })

methods.filter = options.def(function(ds, predicate)
  local g, captures, s, specs = trace_fn("Dataset_filter", "Dataset.filter()", predicate,
    { { structure = ds._structure, specs = ds._specs } }, true, 3)
  if s.kind ~= "tensor" or specs[1].dtype ~= dtypes.bool or not specs[1].shape or #specs[1].shape ~= 0 then
    raise("ValueError", ("Invalid `predicate`. `predicate` must return a `tf.bool` scalar tensor, but its "
      .. "return type is %s."):format(structure.spec_text(s, specs)), 3)
  end
  local v = op(H.FilterDataset, { predicate = g }, ds._variant, table.unpack(captures))
  return same_element(ds, v, "_FilterDataset")
end, "ds:filter(predicate)",
"A dataset of the elements for which predicate(element) (a boolean scalar) is true; traced once "
.. "as map's function.", { required = 2, "name" })

methods.reduce = doc.def(function(ds, initial_state, reduce_func)
  local s_state, flat_state = structure.flatten(initial_state, "initial_state", 2)
  local state_specs = structure.specs_of(flat_state)
  local g, captures, s, specs
  -- As TF: retraced with the shapes relaxed until the new state fits the old.
  for _ = 1, 2 do
    g, captures, s, specs = trace_fn("Dataset_reduce", "Dataset.reduce()", reduce_func,
      { { structure = s_state, specs = state_specs }, { structure = ds._structure, specs = ds._specs } },
      false, 2)
    if not structure.same(s, s_state) then
      raise("TypeError", "The structure of the new state must match the initial state. Expected "
        .. structure.spec_text(s_state, state_specs) .. "; got " .. structure.spec_text(s, specs) .. ".", 2)
    end
    local relaxed, same = {}, true
    for i, spec in ipairs(specs) do
      if spec.dtype ~= state_specs[i].dtype then
        raise("TypeError", ("The element types for the new state must match the initial state. Expected %s; "
          .. "got %s."):format(tostring(state_specs[i].dtype), tostring(spec.dtype)), 2)
      end
      relaxed[i] = join_spec(state_specs[i], spec)
      same = same and structure.shape_text(relaxed[i].shape) == structure.shape_text(state_specs[i].shape)
    end
    if same then break end
    state_specs = relaxed
  end
  local inputs = { ds._variant }
  for _, t in ipairs(flat_state) do inputs[#inputs + 1] = t end
  for _, t in ipairs(captures) do inputs[#inputs + 1] = t end
  local outs = table.pack(op(H.ReduceDataset, { f = g, n_state = #flat_state }, table.unpack(inputs)))
  return structure.pack(s_state, outs)
end, "ds:reduce(initial_state, reduce_func)",
"Folds reduce_func(state, element) over the elements, starting from initial_state; returns the "
.. "final state (same structure as initial_state).")

methods.cardinality = doc.def(function(ds)
  return op(H.DatasetCardinality, {}, ds._variant)
end, "ds:cardinality()",
"The number of elements as an int64 scalar tensor: tf.data.INFINITE_CARDINALITY (-1) or "
.. "tf.data.UNKNOWN_CARDINALITY (-2) when not known.")

-- Iteration ---------------------------------------------------------------------

methods.iter = doc.def(function(ds)
  return iterators.new(ds._variant, ds._structure, ds._specs)
end, "ds:iter()",
"A new iterator over the elements (TF's iter(ds)): it:get_next() gives the next element or raises "
.. "OutOfRangeError at the end; it:next() gives nil at the end.")

-- `for x in ds do` / `for x, y in ds do`: the generic for calls the
-- dataset with the previous first value; the loop's iterator is found by
-- it (a fresh value each element), so loops over one dataset may nest.
local loops = setmetatable({}, { __mode = "k" })

function Dataset.__call(ds, _, previous)
  if core.tracing() then
    raise("TypeError", "a `for` over a tf.data.Dataset while tracing runs as one graph loop through "
      .. "AutoGraph (tf.func's default); this loop was not converted (autograph = false, or a body "
      .. "with `return` or `goto`): iterate it:get_next() in a tf.while_loop instead", 2)
  end
  local it = previous ~= nil and loops[previous] or nil
  if not it then it = iterators.new(ds._variant, ds._structure, ds._specs) end
  local values = table.pack(iterators.next_values(it))
  if values[1] ~= nil and (type(values[1]) == "table" or type(values[1]) == "userdata") then
    loops[values[1]] = it
  end
  return table.unpack(values, 1, values.n)
end

methods.as_numpy_iterator = doc.def(function(ds)
  local it = iterators.new(ds._variant, ds._structure, ds._specs)
  return function()
    local element = it:next()
    if element == nil then return nil end
    local function numpy(v)
      if core.is_tensor(v) then return core.numpy(v) end
      local out = {}
      for k, x in pairs(v) do out[k] = numpy(x) end
      return out
    end
    local value = numpy(element)
    if ds._structure.kind == "tuple" then return table.unpack(value, 1, #ds._structure.items) end
    return value
  end
end, "ds:as_numpy_iterator()",
"An iterator function over the elements as Lua values (each tensor's :numpy()); use it in "
.. "`for x in ds:as_numpy_iterator() do` (a tuple's items come as separate loop values).")

M.Dataset = Dataset
M.methods = methods
M.new = new
M.int64 = int64
--- Adds methods made elsewhere (nested.lua's flat_map, interleave,
--- window) to every dataset's.
function M.add_methods(fns)
  for name, fn in pairs(fns) do methods[name] = fn end
end
-- What nested.lua's transformations share with these.
M.trace_fn = trace_fn
M.need_dataset = need_dataset
M.boolean = boolean
M.draw_seed = draw_seed
M.join_spec = join_spec

return M
