-- split.lua — the split family (core/ops/ops_split.c): tf.strings.split
-- and tf.strings.bytes_split. A scalar gives a vector, a vector a
-- RaggedTensor (one row per string), a RaggedTensor or a dense tensor of
-- rank >= 2 one more ragged dimension; the rows are built from the op's
-- sparse result (the row of each piece) as TF's ragged_string_ops.py does.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local dtypes = require("moonflow.tensor.dtypes")
local dispatch = require("moonflow.tensor.dispatch")
local common = require("moonflow.ops.common")
local core_ops = require("moonflow.ops.core")
local shape_ops = require("moonflow.ops.shape")
local index = require("moonflow.ops.index")
local array = require("moonflow.ops.array")
local generate = require("moonflow.ops.generate")

local op = core.op
local H = state.H
local raise = errors.raise
local op_def = common.op_def
local to_tensor = core_ops.to_tensor
local I64 = dtypes.int64

local M = {}

local function rank_of(t)
  local _, _, shape = core.info(t)
  return shape and #shape or nil
end

-- The rows of a split's sparse result (indices, values, dense shape) for
-- `n` input strings: a RaggedTensor whose row i holds the pieces of row i.
local function rows_of(indices, values, n)
  local rowids = index.gather(indices, 0, 1)
  local splits = array.searchsorted(rowids, generate.range(core.op(H.AddV2, {}, n, core_ops.constant(1, I64)),
    nil, nil, I64), "left", I64)
  return dispatch.from_row_splits(values, splits)
end

-- A split of a scalar (a vector), a vector (a RaggedTensor) or a
-- RaggedTensor (one more ragged dimension), by `split(vector)`.
local function split_any(x, fname, split)
  if dispatch.is_ragged(x) then
    return dispatch.with_values(x, split_any(x.values, fname, split))
  end
  x = to_tensor(x)
  local r = rank_of(x)
  if r == 0 then
    local idx, vals = split(shape_ops.reshape(x, { 1 }))
    local _ = idx
    return vals
  end
  if r and r >= 2 then return split_any(dispatch.from_tensor(x), fname, split) end
  if r ~= 1 then
    raise("ValueError", ("%s: moonflow splits a scalar, a vector or a RaggedTensor; got a tensor of rank %s")
      :format(fname, tostring(r)), 4)
  end
  local idx, vals = split(x)
  return rows_of(idx, vals, shape_ops.size(x, I64))
end

M.split = op_def("StringSplitV2", function(input, sep, maxsplit, opts)
  local sep_t = core_ops.constant(sep or "")
  return split_any(input, "tf.strings.split", function(v)
    return op(H.StringSplitV2, { maxsplit = maxsplit or -1, name = opts.name }, v, sep_t)
  end)
end, "tf.strings.split(input [, sep] [, maxsplit])",
"A scalar gives a vector, a vector a RaggedTensor of one row per string. sep nil or \"\" splits at runs of "
.. "whitespace; maxsplit -1 (default) splits at every separator.",
{ required = 1, positional = { "sep", "maxsplit" }, "name" })

M.bytes_split = op_def("StringSplit", function(input, opts)
  local empty = core_ops.constant("")
  return split_any(input, "tf.strings.bytes_split", function(v)
    return op(H.StringSplit, { skip_empty = false, name = opts.name }, v, empty)
  end)
end, "tf.strings.bytes_split(input)", "A scalar gives a vector of one-byte strings, a vector a RaggedTensor.",
{ required = 1, "name" })

M.namespaces = { strings = { "split", "bytes_split" } }

return M
