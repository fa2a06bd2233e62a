-- text.lua — the datasets that read text files: tf.data.TextLineDataset
-- (TextLineDataset op) and tf.data.experimental.CsvDataset (CSVDatasetV2),
-- core/data/text.c. Files are opened when an iteration reaches them.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local options = require("moonflow.options")
local state = require("moonflow.state")
local dtypes = require("moonflow.tensor.dtypes")
local ops = require("moonflow.ops")
local datasets = require("moonflow.data.dataset")
local raise = errors.raise

local H = state.H
local op = core.op

local M = {}

local function filenames_of(filenames, level)
  if type(filenames) == "string" or (type(filenames) == "table" and getmetatable(filenames) == nil) then
    return ops.constant(filenames)
  end
  if core.is_tensor(filenames) and core.dtype(filenames) == dtypes.string then return filenames end
  raise("TypeError", "`filenames` must be a string, a list of strings or a string tensor, got "
    .. tostring(filenames), level + 1)
end

local function compression_of(kind, level)
  if kind == nil or kind == "" then return ops.constant("") end
  raise("UnimplementedError", "moonflow reads uncompressed files only, not " .. tostring(kind), level + 1)
end

M.TextLineDataset = options.def(function(filenames, compression_type, buffer_size, opts)
  local v = op(H.TextLineDataset, { name = opts.name }, filenames_of(filenames, 3), compression_of(compression_type, 3),
    datasets.int64(buffer_size or 0, "buffer_size", 3))
  return datasets.new(v, { kind = "tensor", index = 1 }, { { dtype = dtypes.string, shape = {} } },
    "TextLineDatasetV2")
end, "tf.data.TextLineDataset(filenames [, {compression_type=, buffer_size=}])",
"A dataset of the lines of one or more text files (a string or a list of them), in order, "
.. "without their line ends (\"\\n\", \"\\r\\n\"). Uncompressed files only. A missing file is "
.. "NotFoundError when an iteration reaches it.",
{ required = 1, positional = { "compression_type", "buffer_size" }, "name" })

M.CsvDataset = options.def(function(filenames, record_defaults, compression_type, buffer_size, header,
                                    field_delim, use_quote_delim, na_value, select_cols, opts)
  if type(record_defaults) ~= "table" or getmetatable(record_defaults) ~= nil or #record_defaults == 0 then
    raise("TypeError", "record_defaults must be a non-empty Lua list of default values or dtypes", 3)
  end
  local defaults, specs, items = {}, {}, {}
  for i, d in ipairs(record_defaults) do
    if getmetatable(d) == dtypes.DType then
      defaults[i] = ops.zeros({ 0 }, d) -- no default: the column is required
    else
      defaults[i] = core.is_tensor(d) and d or ops.constant(d)
    end
    specs[i] = { dtype = core.dtype(defaults[i]), shape = {} }
    items[i] = { kind = "tensor", index = i }
  end
  local cols = select_cols and ops.constant(select_cols, dtypes.int64) or ops.zeros({ 0 }, dtypes.int64)
  local inputs = { filenames_of(filenames, 3), compression_of(compression_type, 3),
    datasets.int64(buffer_size or 0, "buffer_size", 3), ops.constant(header or false),
    ops.constant(field_delim or ","), ops.constant(use_quote_delim ~= false), ops.constant(na_value or ""),
    cols }
  for _, d in ipairs(defaults) do inputs[#inputs + 1] = d end
  inputs[#inputs + 1] = ops.zeros({ 0 }, dtypes.int64)
  local v = op(H.CSVDatasetV2, { name = opts.name }, table.unpack(inputs))
  local s = #items == 1 and items[1] or { kind = "tuple", items = items }
  return datasets.new(v, s, specs, "CsvDatasetV2")
end, "tf.data.experimental.CsvDataset(filenames, record_defaults [, {header=, field_delim=, "
.. "use_quote_delim=, na_value=, select_cols=}])",
"A dataset of the records of CSV files: one scalar per column (a tuple), typed by record_defaults "
.. "(a value is the column's default when the field is empty; a dtype makes the column "
.. "required). header skips each file's first line; select_cols (0-based, increasing) picks "
.. "columns; quoted fields (\"a,b\", \"\"\"\" for a quote) unless use_quote_delim is false.",
{ required = 2, positional = { "compression_type", "buffer_size", "header", "field_delim",
  "use_quote_delim", "na_value", "select_cols" }, "name" })

return M
