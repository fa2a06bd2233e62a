-- dispatch.lua — where ops meet composite tensors (TF's dispatch for
-- RaggedTensor). The op families stay ignorant of tf.RaggedTensor: an
-- elementwise wrapper, tf.concat and the string ops ask `dispatch.is_ragged`
-- and hand the call to the handlers that tensor/ragged.lua installs when it
-- loads (it builds on the ops, so it cannot be required by them).

local M = {}

--- True for a tf.RaggedTensor (false until tensor/ragged.lua has loaded).
function M.is_ragged(x)
  local mt = M.ragged_metatable
  return mt ~= nil and getmetatable(x) == mt
end

--- True when any element of the Lua list `xs` is a tf.RaggedTensor.
function M.any_ragged(xs)
  if M.ragged_metatable == nil or type(xs) ~= "table" then return false end
  for i = 1, #xs do
    if getmetatable(xs[i]) == M.ragged_metatable then return true end
  end
  return false
end

-- Installed by tensor/ragged.lua:
--   M.map_flat_values(fn, rt)      fn applied to the flat values, same row splits
--   M.binary(fn, x, y)             fn over two operands, one of them ragged
--   M.concat(values, axis)         tf.concat of a list holding ragged tensors
--   M.from_row_splits(values, s)   a RaggedTensor (no validation: an op made s)
--   M.with_values(rt, values)      rt's row splits over new values
--   M.from_tensor(t)               a dense tensor of rank >= 2 as uniform rows

return M
