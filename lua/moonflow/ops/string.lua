-- string.lua — the string family (core/ops/ops_string.c): tf.strings on
-- string tensors (length, join, format, lower, upper, strip, substr,
-- split, bytes_split, to_number, as_string, reduce_join) and
-- tf.io.decode_raw. As in TF, the elementwise ones take a RaggedTensor too
-- (they map its flat values), and a split gives a RaggedTensor for a
-- vector: its rows are built from the op's sparse result (the row of each
-- piece) as TF's ragged_string_ops.py does.

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
local op_def, check_list = common.op_def, common.check_list
local to_tensor = core_ops.to_tensor
local I64 = dtypes.int64

local M = {}

-- An elementwise string op over a tensor or a RaggedTensor's flat values.
local function mapped(x, fn)
  if dispatch.is_ragged(x) then return dispatch.map_flat_values(fn, x) end
  return fn(to_tensor(x))
end

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

M.length = op_def("StringLength", function(x, unit, opts)
  return mapped(x, function(t) return op(H.StringLength, { unit = unit or "BYTE", name = opts.name }, t) end)
end, "tf.strings.length(x [, unit] [, {name=}])", "unit is \"BYTE\" (default) or \"UTF8_CHAR\".",
{ required = 1, positional = { "unit" }, "name" })

M.join = op_def("StringJoin", function(inputs, separator, opts)
  check_list(inputs, "tf.strings.join", "inputs")
  return op(H.StringJoin, { separator = separator or "", name = opts.name }, table.unpack(inputs))
end, "tf.strings.join(inputs [, separator])", "inputs is a Lua list; separator defaults to \"\".",
{ required = 1, positional = { "separator" }, "name" })

M.format = op_def("StringFormat", function(template, inputs, placeholder, summarize, opts)
  if type(template) ~= "string" then
    raise("TypeError", "tf.strings.format: template must be a Lua string, got " .. type(template), 3)
  end
  inputs = inputs or {}
  if core.is_tensor(inputs) then inputs = { inputs } end
  check_list(inputs, "tf.strings.format", "inputs")
  local args = {}
  for i = 1, #inputs do args[i] = to_tensor(inputs[i]) end
  return op(H.StringFormat, { template = template, placeholder = placeholder or "{}",
    summarize = summarize or 3, name = opts.name }, table.unpack(args))
end, "tf.strings.format(template, inputs [, placeholder] [, summarize])",
"inputs is a Lua list (or one tensor); placeholder defaults to \"{}\", summarize (elements shown at each end "
.. "of a dimension) to 3, -1 for all.", { required = 1, positional = { "inputs", "placeholder", "summarize" }, "name" })

local function case_op(opname, tfname)
  return op_def(opname, function(input, encoding, opts)
    return mapped(input, function(t) return op(H[opname], { encoding = encoding or "", name = opts.name }, t) end)
  end, tfname .. "(input [, encoding])", "Letters outside ASCII are left as they are (TF maps them with ICU "
  .. "when encoding is \"utf-8\").", { required = 1, positional = { "encoding" }, "name" })
end
M.lower = case_op("StringLower", "tf.strings.lower")
M.upper = case_op("StringUpper", "tf.strings.upper")

M.strip = op_def("StringStrip", function(input, opts)
  return mapped(input, function(t) return op(H.StringStrip, { name = opts.name }, t) end)
end, "tf.strings.strip(input)", "", { required = 1, "name" })

M.substr = op_def("Substr", function(input, pos, len, unit, opts)
  local attrs = { unit = unit or "BYTE", name = opts.name }
  local function sub(t)
    local p = core.is_tensor(pos) and pos or core_ops.constant(pos, dtypes.int32)
    local l = core.is_tensor(len) and len or core_ops.constant(len, core.dtype(p))
    return op(H.Substr, attrs, t, p, l)
  end
  return mapped(input, sub)
end, "tf.strings.substr(input, pos, len [, unit])",
"pos is 0-based (negative: from the end); unit is \"BYTE\" (default) or \"UTF8_CHAR\"; a pos past the end is "
.. "InvalidArgumentError.", { required = 3, positional = { "unit" }, "name" })

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

M.to_number = op_def("StringToNumber", function(input, out_type, opts)
  local dt = dtypes.as_dtype(out_type or dtypes.float32)
  return mapped(input, function(t) return op(H.StringToNumber, { out_type = dt, name = opts.name }, t) end)
end, "tf.strings.to_number(input [, out_type])", "out_type is float32 unless given; a string that is not a "
.. "number is InvalidArgumentError.", { required = 1, positional = { "out_type" }, "name" })

M.as_string = op_def("AsString", function(input, precision, scientific, shortest, width, fill, opts)
  local attrs = { precision = precision or -1, scientific = scientific or false, shortest = shortest or false,
    width = width or -1, fill = fill or "", name = opts.name }
  return mapped(input, function(t) return op(H.AsString, attrs, t) end)
end, "tf.strings.as_string(input [, precision] [, scientific] [, shortest] [, width] [, fill])",
"Floats print as C's %f (scientific: %e, shortest: %g) with precision digits; width pads on the left with "
.. "fill (one of \" +-0#\").",
{ required = 1, positional = { "precision", "scientific", "shortest", "width", "fill" }, "name" })

M.reduce_join = op_def("ReduceJoin", function(inputs, axis, keepdims, separator, opts)
  local t = to_tensor(inputs)
  if axis == nil then
    local r = rank_of(t)
    if r == nil then raise("ValueError", "tf.strings.reduce_join: axis=nil needs an input of known rank", 3) end
    axis = {}
    for d = 0, r - 1 do axis[#axis + 1] = d end
  end
  local ax = core.is_tensor(axis) and axis or core_ops.constant(axis, dtypes.int32)
  return op(H.ReduceJoin, { keep_dims = keepdims or false, separator = separator or "", name = opts.name }, t, ax)
end, "tf.strings.reduce_join(inputs [, axis] [, keepdims] [, separator])",
"axis (0-based, a number or a list) defaults to every axis; the strings meet in row-major order.",
{ required = 1, positional = { "axis", "keepdims", "separator" }, "name" })

M.decode_raw = op_def("DecodeRaw", function(input_bytes, out_type, little_endian, fixed_length, opts)
  if fixed_length ~= nil then
    raise("ValueError", "tf.io.decode_raw: moonflow has no fixed_length (DecodePaddedRaw)", 3)
  end
  local t = to_tensor(input_bytes)
  local le = little_endian
  if le == nil then le = true end
  return op(H.DecodeRaw, { out_type = dtypes.as_dtype(out_type), little_endian = le, name = opts.name }, t)
end, "tf.io.decode_raw(input_bytes, out_type [, little_endian] [, fixed_length])",
"The result has one more dimension than input_bytes, of the strings' length / the size of out_type; every "
.. "string must have that length.", { required = 2, positional = { "little_endian", "fixed_length" }, "name" })

M.namespaces = {
  strings = { "length", "join", "format", "lower", "upper", "strip", "substr", "split", "bytes_split",
    "to_number", "as_string", "reduce_join" },
  tf = { "as_string" },
  io = { "decode_raw" },
}

return M
