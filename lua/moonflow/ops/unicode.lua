-- unicode.lua — the unicode family (core/ops/ops_unicode.c):
-- tf.strings.unicode_decode, unicode_encode and unicode_split. A scalar
-- string decodes to a vector of code points, a vector to a RaggedTensor
-- (one row per string), a RaggedTensor to one more ragged dimension; and
-- back. unicode_split is decode then encode of each character alone.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local dtypes = require("moonflow.tensor.dtypes")
local dispatch = require("moonflow.tensor.dispatch")
local options = require("moonflow.options")
local common = require("moonflow.ops.common")
local core_ops = require("moonflow.ops.core")
local shape_ops = require("moonflow.ops.shape")
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

local function decode_attrs(encoding, errors_, replacement_char, replace_control, name)
  if type(encoding) ~= "string" then
    raise("TypeError", "input_encoding must be a string such as \"UTF-8\", got " .. tostring(encoding), 4)
  end
  return { input_encoding = encoding, errors = errors_ or "replace", replacement_char = replacement_char or 65533,
    replace_control_characters = replace_control or false, name = name }
end

-- Decodes x (scalar, vector or RaggedTensor) by `rows(vector)`, which
-- returns the row splits and the values of its strings.
local function decode_any(x, fname, rows)
  if dispatch.is_ragged(x) then return dispatch.with_values(x, decode_any(x.values, fname, rows)) end
  x = to_tensor(x)
  local r = rank_of(x)
  if r == 0 then
    local _, values = rows(shape_ops.reshape(x, { 1 }))
    return values
  end
  if r and r >= 2 then return decode_any(dispatch.from_tensor(x), fname, rows) end
  if r ~= 1 then
    raise("ValueError", ("%s: moonflow decodes a scalar, a vector or a RaggedTensor; got a tensor of rank %s")
      :format(fname, tostring(r)), 4)
  end
  local splits, values = rows(x)
  return dispatch.from_row_splits(values, splits)
end

M.unicode_decode = op_def("UnicodeDecode", function(input, input_encoding, errors_, replacement_char,
                                                    replace_control_characters, opts)
  local attrs = decode_attrs(input_encoding, errors_, replacement_char, replace_control_characters, opts.name)
  return decode_any(input, "tf.strings.unicode_decode", function(v) return op(H.UnicodeDecode, attrs, v) end)
end, "tf.strings.unicode_decode(input, input_encoding [, errors] [, replacement_char] "
  .. "[, replace_control_characters])",
"input_encoding must be \"UTF-8\" in moonflow; errors is \"replace\" (default: replacement_char, U+FFFD), "
.. "\"ignore\" or \"strict\" (InvalidArgumentError).",
{ required = 2, positional = { "errors", "replacement_char", "replace_control_characters" }, "name" })

-- The code points as (values, row splits) of one row per string.
local function flat_rows(input)
  if dispatch.is_ragged(input) then
    if dispatch.is_ragged(input.values) then
      raise("ValueError", "tf.strings.unicode_encode: moonflow encodes rows of code points of ragged rank 1", 4)
    end
    return input.values, input.row_splits, nil
  end
  local t = to_tensor(input)
  local r = rank_of(t)
  if r == 1 then
    local n = shape_ops.size(t, I64)
    return t, core.op(H.Pack, { axis = 0 }, core_ops.constant(0, I64), n), true
  end
  if r == 2 then
    local shape = shape_ops.shape(t, I64)
    local n, w = core.op(H.GatherV2, {}, shape, 0, 0), core.op(H.GatherV2, {}, shape, 1, 0)
    local splits = core.op(H.Mul, {}, generate.range(core.op(H.AddV2, {}, n, core_ops.constant(1, I64)), nil, nil,
      I64), w)
    return shape_ops.reshape(t, { -1 }), splits, nil
  end
  raise("ValueError", "tf.strings.unicode_encode: input must be a vector, a matrix or a RaggedTensor of code "
    .. "points, got rank " .. tostring(r), 4)
end

M.unicode_encode = op_def("UnicodeEncode", function(input, output_encoding, errors_, replacement_char, opts)
  if type(output_encoding) ~= "string" then
    raise("TypeError", "output_encoding must be a string such as \"UTF-8\", got " .. tostring(output_encoding), 3)
  end
  local values, splits, scalar = flat_rows(input)
  if core.dtype(values) ~= dtypes.int32 then
    raise("TypeError", "tf.strings.unicode_encode: input must be int32 code points, got " .. core.dtype(values).name, 3)
  end
  local out = op(H.UnicodeEncode, { output_encoding = output_encoding, errors = errors_ or "replace",
    replacement_char = replacement_char or 65533, name = opts.name }, values, splits)
  if scalar then return shape_ops.reshape(out, {}) end
  return out
end, "tf.strings.unicode_encode(input, output_encoding [, errors] [, replacement_char])",
"input is a vector (one string), a matrix or a RaggedTensor (one string per row) of int32 code points; "
.. "output_encoding must be \"UTF-8\" in moonflow.", { required = 2, positional = { "errors", "replacement_char" },
  "name" })

M.unicode_split = options.def(function(input, input_encoding, errors_, replacement_char, opts)
  local attrs = decode_attrs(input_encoding, errors_, replacement_char, false, opts.name)
  local encode = { output_encoding = "UTF-8", errors = "replace", replacement_char = attrs.replacement_char }
  return decode_any(input, "tf.strings.unicode_split", function(v)
    local splits, cps = op(H.UnicodeDecode, attrs, v)
    local each = generate.range(core.op(H.AddV2, {}, shape_ops.size(cps, I64), core_ops.constant(1, I64)), nil,
      nil, I64)
    return splits, op(H.UnicodeEncode, encode, cps, each)
  end)
end, "tf.strings.unicode_split(input, input_encoding [, errors] [, replacement_char])",
"Splits each string into its characters, as UTF-8 strings (an ill-formed sequence becomes replacement_char, "
.. "where TF keeps its bytes).", { required = 2, positional = { "errors", "replacement_char" }, "name" })

M.namespaces = { strings = { "unicode_decode", "unicode_encode", "unicode_split" } }

return M
