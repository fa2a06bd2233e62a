-- image.lua — the gradients of the image ops (core/ops/ops_image.c): a
-- bilinear resize's gradient is its Grad op (image_grad.py). Rule
-- conventions: rules.lua.

local core = require("moonflow.core")
local state = require("moonflow.state")

local H = state.H
local op = core.op

local rules = {}

rules.ResizeBilinear = function(n, dy)
  local a = n.attrs or {}
  return { op(H.ResizeBilinearGrad, { align_corners = a.align_corners or false,
    half_pixel_centers = a.half_pixel_centers or false }, dy[1], n.inputs[1]) }
end

return rules
