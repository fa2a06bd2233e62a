-- tensor_array.lua — tf.TensorArray: a list of tensors that works inside
-- traced loops. Its buffer is one tensor (TensorListSetItem writes a row),
-- so nest.lua carries it through control flow like any tensor.

local core = require("moonflow.core")

return function(tf, doc)
local H = tf._H
local op = core.op

local function spec_of(t)
  local _, dtype, shape = core.info(t)
  return dtype, shape
end

local TensorArray = { __name = "TensorArray" }
local tamethods = {}
TensorArray.__index = tamethods

local function new_array(dtype, buf, dynamic, element_shape)
  return setmetatable({ dtype = dtype, _buf = buf, dynamic_size = dynamic,
    element_shape = element_shape }, TensorArray)
end
tf._new_tensor_array = new_array

-- TensorArray ----------------------------------------------------------------

tf.TensorArray = doc.def(function(dtype, opts)
  opts = opts or {}
  dtype = tf.as_dtype(dtype)
  local size = opts.size or 0
  local es = opts.element_shape
  if es and getmetatable(es) == tf._TensorShape then es = es:as_list() end
  local buf
  if es and #es > 0 then
    local full = { size }
    for _, d in ipairs(es) do full[#full + 1] = d end
    buf = tf.zeros(full, dtype)
  else
    buf = tf.zeros(core.is_tensor(size) and tf.reshape(size, { 1 }) or { size }, dtype)
  end
  return new_array(dtype, buf, opts.dynamic_size or false, es)
end, "tf.TensorArray(dtype [, {size=, dynamic_size=, element_shape=}])",
"A list of tensors that works inside traced loops: ta = ta:write(i, v) (0-based; returns the "
.. "array), ta:read(i), ta:stack(), ta:unstack(t), ta:size().")

tamethods.write = doc.def(function(ta, i, value)
  value = tf.convert_to_tensor(value, ta.dtype)
  local buf = op(H.TensorListSetItem, { resize = ta.dynamic_size, _dtypes = { nil, tf.int32 } }, ta._buf, i, value)
  local es = ta.element_shape
  if not es then
    local _, shape = spec_of(value)
    es = shape
  end
  return new_array(ta.dtype, buf, ta.dynamic_size, es)
end, "ta:write(i, value)", "A TensorArray with element i (0-based) set to value.")

tamethods.read = doc.def(function(ta, i)
  return tf.gather(ta._buf, i)
end, "ta:read(i)", "Element i (0-based).")

tamethods.stack = doc.def(function(ta)
  local buf = ta._buf
  local _, shape = spec_of(buf)
  if shape and #shape == 1 and ta.element_shape and #ta.element_shape > 0 then
    local full = { shape[1] }
    for _, d in ipairs(ta.element_shape) do full[#full + 1] = d end
    return tf.zeros(full, ta.dtype)
  end
  return tf.identity(buf)
end, "ta:stack()", "All elements stacked along a new first axis.")

tamethods.unstack = doc.def(function(ta, value)
  value = tf.convert_to_tensor(value, ta.dtype)
  local _, shape = spec_of(value)
  local es = shape and table.move(shape, 2, #shape, 1, {}) or nil
  return new_array(ta.dtype, value, ta.dynamic_size, es)
end, "ta:unstack(value)", "A TensorArray whose elements are the rows of value.")

tamethods.size = doc.def(function(ta)
  return tf.shape(ta._buf)[0]
end, "ta:size()", "The number of elements, an int32 scalar.")

TensorArray.__tostring = function(ta)
  return ("<tf.TensorArray dtype=%s>"):format(ta.dtype.name)
end

tf._TensorArray = TensorArray
end
