-- tensor_array.lua — tf.TensorArray: a list of tensors that works inside
-- traced loops. Its buffer is one tensor (TensorListSetItem writes a row),
-- so nest.lua carries it through control flow like any tensor.

local core = require("moonflow.core")
local state = require("moonflow.state")
local doc = require("moonflow.doc")
local options = require("moonflow.options")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local ops = require("moonflow.ops.ops")
local receiver = require("moonflow.receiver")

local tensor_array = {}

local H = state.H
local op = core.op

local function spec_of(t)
  local _, dtype, shape = core.info(t)
  return dtype, shape
end

local TensorArray = { __name = "TensorArray" }
local tamethods = {}
receiver.metatable(TensorArray, "tensor_array", tamethods)
TensorArray.__index = tamethods

local function new_array(dtype, buf, dynamic, element_shape)
  return setmetatable({ dtype = dtype, _buf = buf, dynamic_size = dynamic,
    element_shape = element_shape }, TensorArray)
end
tensor_array.new = new_array

-- TensorArray ----------------------------------------------------------------

tensor_array.TensorArray = options.def(function(dtype, size, dynamic_size, opts)
  dtype = dtypes.as_dtype(dtype)
  size = size or 0
  local es = opts.element_shape
  if es and getmetatable(es) == shapes.Shape then es = es:as_list() end
  local buf
  if es and #es > 0 then
    local full = { size }
    for _, d in ipairs(es) do full[#full + 1] = d end
    buf = ops.zeros(full, dtype)
  else
    buf = ops.zeros(core.is_tensor(size) and ops.reshape(size, { 1 }) or { size }, dtype)
  end
  return new_array(dtype, buf, dynamic_size or false, es)
end, "tf.TensorArray(dtype [, {size=, dynamic_size=, element_shape=}])",
"A list of tensors that works inside traced loops: ta = ta:write(i, v) (0-based; returns the "
.. "array), ta:read(i), ta:stack(), ta:unstack(t), ta:size().",
{ required = 1, positional = { "size", "dynamic_size" }, "element_shape" })

tamethods.write = doc.def(function(ta, i, value)
  value = ops.convert_to_tensor(value, ta.dtype)
  local buf = op(H.TensorListSetItem, { resize = ta.dynamic_size, _dtypes = { nil, dtypes.int32 } }, ta._buf, i, value)
  local es = ta.element_shape
  if not es then
    local _, shape = spec_of(value)
    es = shape
  end
  return new_array(ta.dtype, buf, ta.dynamic_size, es)
end, "ta:write(i, value)", "A TensorArray with element i (0-based) set to value.")

tamethods.read = doc.def(function(ta, i)
  return ops.gather(ta._buf, i)
end, "ta:read(i)", "Element i (0-based).")

tamethods.stack = doc.def(function(ta)
  local buf = ta._buf
  local _, shape = spec_of(buf)
  if shape and #shape == 1 and ta.element_shape and #ta.element_shape > 0 then
    local full = { shape[1] }
    for _, d in ipairs(ta.element_shape) do full[#full + 1] = d end
    return ops.zeros(full, ta.dtype)
  end
  return ops.identity(buf)
end, "ta:stack()", "All elements stacked along a new first axis.")

tamethods.unstack = doc.def(function(ta, value)
  value = ops.convert_to_tensor(value, ta.dtype)
  local _, shape = spec_of(value)
  local es = shape and table.move(shape, 2, #shape, 1, {}) or nil
  return new_array(ta.dtype, value, ta.dynamic_size, es)
end, "ta:unstack(value)", "A TensorArray whose elements are the rows of value.")

tamethods.size = doc.def(function(ta)
  return ops.shape(ta._buf)[0]
end, "ta:size()", "The number of elements, an int32 scalar.")

TensorArray.__tostring = function(ta)
  return ("<tf.TensorArray dtype=%s>"):format(ta.dtype.name)
end

tensor_array.metatable = TensorArray

-- Library-internal (the other modules' view, not part of tf).
tensor_array.internal = { new = true, metatable = true, internal = true }

return tensor_array
