-- string.lua — the string family (core/ops/ops_string.c): tf.strings on
-- string tensors (length, join, format, lower, upper, strip, substr,
-- to_number, as_string, reduce_join) and tf.io.decode_raw. As in TF, the
-- elementwise ones take a RaggedTensor too (they map its flat values).

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local dtypes = require("moonflow.tensor.dtypes")
local dispatch = require("moonflow.tensor.dispatch")
local common = require("moonflow.ops.common")
local core_ops = require("moonflow.ops.core")
local shape_ops = require("moonflow.ops.shape")

local op = core.op
local H = state.H
local raise = errors.raise
local op_def, check_list = common.op_def, common.check_list
local to_tensor = core_ops.to_tensor

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
  strings = { "length", "join", "format", "lower", "upper", "strip", "substr", "to_number", "as_string",
    "reduce_join" },
  tf = { "as_string" },
  io = { "decode_raw" },
}

return M
