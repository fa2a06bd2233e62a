-- pad.lua — the gradients of the padding ops (Pad, MirrorPad,
-- MirrorPadGrad): the padded gradient sliced back to the input, and the
-- mirror pads each other's gradient (array_grad.py). Rule conventions:
-- rules.lua.

local core = require("moonflow.core")
local state = require("moonflow.state")
local ops = require("moonflow.ops")

local H = state.H
local op = core.op
local dtype_of = core.dtype

local rules = {}

-- array_grad.py _PadGrad: the sizes take the paddings' dtype (int64
-- paddings made an int32 size Slice refuses).
rules.Pad = function(n, dy)
  local x, paddings = n.inputs[1], n.inputs[2]
  local begin = ops.reshape(ops.slice(paddings, { 0, 0 }, { -1, 1 }), { -1 })
  return { ops.slice(dy[1], begin, ops.shape(x, dtype_of(begin))) }
end
-- array_grad.py _MirrorPadGrad and _MirrorPadGradGrad: each is the
-- other's gradient, with the same paddings and mode; paddings take none.
rules.MirrorPad = function(n, dy)
  return { op(H.MirrorPadGrad, { mode = n.attrs.mode }, dy[1], n.inputs[2]) }
end
rules.MirrorPadGrad = function(n, dy)
  return { op(H.MirrorPad, { mode = n.attrs.mode }, dy[1], n.inputs[2]) }
end

return rules
