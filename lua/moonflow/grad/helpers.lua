-- helpers.lua — what the gradient rules of several op families share:
-- summing a gradient back down to a broadcast input's shape, reading a
-- tensor's value when it is known now, and shapes as Lua lists or tensors
-- (static shapes keep gradient graphs small). Each family's own helpers
-- stay in its file.

local core = require("moonflow.core")
local state = require("moonflow.state")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local ops = require("moonflow.ops")

local H = state.H
local op = core.op
local static_shape = shapes.static

local helpers = {}

--- Whether a and b have the same fully static shape.
function helpers.same_static(a, b)
  local sa, sb = static_shape(a), static_shape(b)
  if not sa or not sb or #sa ~= #sb then return false end
  for i = 1, #sa do if sa[i] ~= sb[i] then return false end end
  return true
end

--- Sums g down to x's shape where x was broadcast.
function helpers.unbroadcast(g, x)
  if helpers.same_static(g, x) then return g end
  local sg, sx = static_shape(g), static_shape(x)
  if sg and sx then
    local axes = {}
    local lead = #sg - #sx
    for i = 1, #sg do
      local dx = i > lead and sx[i - lead] or nil
      if dx == nil or (dx == 1 and sg[i] ~= 1) then axes[#axes + 1] = i - 1 end
    end
    local r = #axes > 0 and ops.reduce_sum(g, axes, { keepdims = false }) or g
    return ops.reshape(r, sx)
  end
  local rx = op(H.BroadcastGradientArgs, nil, ops.shape(x), ops.shape(g))
  return ops.reshape(ops.reduce_sum(g, rx), ops.shape(x))
end

--- The value of t as Lua data when it is known now (eager, or a constant
-- of the trace), else nil.
function helpers.known(t)
  local k = core.known(t)
  return k and core.numpy(k) or nil
end

--- g reshaped to x's shape (static when known).
function helpers.as_shape_of(g, x)
  return ops.reshape(g, static_shape(x) or ops.shape(x))
end

--- x's shape as an int32 tensor: a constant when static.
function helpers.shape_tensor(x)
  local s = static_shape(x)
  if s then return ops.constant(s, dtypes.int32) end
  return ops.shape(x)
end

return helpers
