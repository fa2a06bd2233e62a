-- dispatch.lua — where ops meet composite tensors (TF's dispatch for
-- RaggedTensor). The op families stay ignorant of tf.RaggedTensor: an
-- elementwise wrapper, tf.concat and the string ops ask `is_ragged` and
-- hand the call to the handlers tensor/ragged.lua registers in the
-- session's state when it loads (it builds on the ops, so the ops cannot
-- require it).

local state = require("moonflow.state")

-- tf.lua loads it on first use, so maybe not yet (issue 28).
local RAGGED_MODULE = "moonflow.tensor.ragged"

local M = {}

-- state.ragged, once tensor/ragged.lua has loaded:
--   metatable                    a RaggedTensor's
--   map_flat_values(fn, rt)      fn applied to the flat values, same row splits
--   binary(fn, x, y)             fn over two operands, one of them ragged
--   concat(values, axis)         tf.concat of a list holding ragged tensors
--   from_row_splits(values, s)   a RaggedTensor (no validation: an op made s)
--   with_values(rt, values)      rt's row splits over new values
--   from_tensor(t)               a dense tensor of rank >= 2 as uniform rows
--   reduce(kind, rt, axis, keepdims)  a reduction (kind: Sum, Mean, Max, Min,
--                                Prod, Any, All, Variance) over a RaggedTensor
--   tile(rt, multiples)          tf.tile of a RaggedTensor
--   boolean_mask(data, mask, axis)  tf.boolean_mask, data or mask ragged
--   stack(values, axis)          tf.stack of a list holding ragged tensors

--- True for a tf.RaggedTensor.
function M.is_ragged(x)
  local r = state.ragged
  return r ~= nil and getmetatable(x) == r.metatable
end

--- True when any element of the Lua list `xs` is a tf.RaggedTensor.
function M.any_ragged(xs)
  if type(xs) ~= "table" then return false end
  for i = 1, #xs do
    if M.is_ragged(xs[i]) then return true end
  end
  return false
end

function M.map_flat_values(fn, rt) return state.ragged.map_flat_values(fn, rt) end
function M.binary(fn, x, y) return state.ragged.binary(fn, x, y) end
function M.concat(values, axis) return state.ragged.concat(values, axis) end
-- The handlers, for an op that makes a RaggedTensor from tensors alone:
-- tensor/ragged.lua loads on first use (tf.lua), maybe only now.
local function makers()
  if state.ragged == nil then require(RAGGED_MODULE) end
  return state.ragged
end

function M.from_row_splits(values, splits) return makers().from_row_splits(values, splits) end
function M.with_values(rt, values) return state.ragged.with_values(rt, values) end
function M.from_tensor(t) return makers().from_tensor(t) end
function M.reduce(kind, rt, axis, keepdims) return state.ragged.reduce(kind, rt, axis, keepdims) end
function M.tile(rt, multiples) return state.ragged.tile(rt, multiples) end
function M.boolean_mask(data, mask, axis) return state.ragged.boolean_mask(data, mask, axis) end
function M.stack(values, axis) return state.ragged.stack(values, axis) end

return M
