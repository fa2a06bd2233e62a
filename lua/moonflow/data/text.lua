-- text.lua — the datasets that read text files: tf.data.TextLineDataset
-- (TextLineDataset op) and tf.data.experimental.CsvDataset (CSVDatasetV2),
-- core/data/text.c. Files are opened when an iteration reaches them. And
-- tf.io.decode_csv (DecodeCSV), the CSV parser over a string tensor of
-- lines, for a TextLineDataset's map.

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

-- A record default as DecodeCSV takes it: a scalar or a one-value vector
-- (the column's default), an empty vector (required); a dtype is a
-- required column of that dtype.
local function csv_default(d)
  if getmetatable(d) == dtypes.DType then return ops.zeros({ 0 }, d) end
  if core.is_tensor(d) then return d end
  return ops.constant(d)
end

-- DecodeCSV keeps select_cols as a node attribute: at most MF_ATTR_MAX_INTS.
local MAX_SELECT_COLS = 8

local function check_select_cols(select_cols, n, level)
  if select_cols == nil then return nil end
  if type(select_cols) ~= "table" or getmetatable(select_cols) ~= nil then
    raise("TypeError", "select_cols must be a Lua list of column indices, got " .. tostring(select_cols), level + 1)
  end
  for i = 2, #select_cols do
    if select_cols[i - 1] >= select_cols[i] then raise("ValueError", "select_cols is not strictly increasing.", level + 1) end
  end
  if #select_cols > 0 and select_cols[1] < 0 then
    raise("ValueError", "select_cols contains negative values.", level + 1)
  end
  if #select_cols ~= n then
    raise("ValueError", "Length of select_cols and record_defaults do not match.", level + 1)
  end
  if n > MAX_SELECT_COLS then
    raise("UnimplementedError", ("moonflow's decode_csv selects at most %d columns (select_cols), not %d; "
      .. "read them all (no select_cols) instead"):format(MAX_SELECT_COLS, n), level + 1)
  end
  return select_cols
end

M.decode_csv = options.def(function(records, record_defaults, field_delim, use_quote_delim, na_value,
                                    select_cols, opts)
  if type(record_defaults) ~= "table" or getmetatable(record_defaults) ~= nil or #record_defaults == 0 then
    raise("TypeError", "record_defaults must be a non-empty Lua list of default values or dtypes", 3)
  end
  local inputs = { core.is_tensor(records) and records or ops.constant(records) }
  for i, d in ipairs(record_defaults) do inputs[i + 1] = csv_default(d) end
  local attrs = { name = opts.name, field_delim = field_delim or ",", use_quote_delim = use_quote_delim ~= false,
    na_value = na_value or "" }
  attrs.select_cols = check_select_cols(select_cols, #record_defaults, 3)
  return { op(H.DecodeCSV, attrs, table.unpack(inputs)) }
end, "tf.io.decode_csv(records, record_defaults [, {field_delim=, use_quote_delim=, na_value=, select_cols=}])",
"Convert CSV records to tensors, one per column (a Lua list), each shaped as records (a string "
.. "tensor of any shape: one record per string, e.g. a TextLineDataset's lines in a map). "
.. "record_defaults gives each column's type and default: a value or a one-value list is used when "
.. "the field is empty or na_value; an empty tensor or a dtype makes the column required. "
.. "field_delim is one character (default \",\"); quoted fields (\"a,b\", \"\"\"\" for a quote) "
.. "unless use_quote_delim is false; select_cols (0-based, increasing) picks the columns read. "
.. "A bad record is InvalidArgumentError, as TF's (\"Expect 2 fields but have 3 in record 0\").",
{ required = 2, positional = { "field_delim", "use_quote_delim", "na_value", "select_cols" }, "name" })

return M
