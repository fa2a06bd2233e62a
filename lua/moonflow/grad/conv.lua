-- conv.lua — the gradients of the convolutions (core/ops/ops_conv.c): a
-- convolution's gradients are its two backprops, and each backprop's are
-- the convolution and the other backprop (nn_grad.py). Rule conventions:
-- rules.lua.

local core = require("moonflow.core")
local state = require("moonflow.state")
local helpers = require("moonflow.grad.helpers")

local H = state.H
local op = core.op
local shape_tensor = helpers.shape_tensor

local rules = {}

local function conv_attrs(n)
  local a = n.attrs or {}
  return { strides = a.strides, padding = a.padding, dilations = a.dilations,
    data_format = a.data_format, explicit_paddings = a.explicit_paddings }
end
rules.Conv2D = function(n, dy)
  local x, w = n.inputs[1], n.inputs[2]
  local attrs = conv_attrs(n)
  return {
    op(H.Conv2DBackpropInput, attrs, shape_tensor(x), w, dy[1]),
    op(H.Conv2DBackpropFilter, attrs, x, shape_tensor(w), dy[1]),
  }
end
-- Both backprops are linear in each of their tensor inputs (as TF's
-- _Conv2DBackpropInputGrad and _Conv2DBackpropFilterGrad).
rules.Conv2DBackpropInput = function(n, g)
  local w, dy = n.inputs[2], n.inputs[3]
  local attrs = conv_attrs(n)
  return { nil,
    op(H.Conv2DBackpropFilter, attrs, g[1], shape_tensor(w), dy),
    op(H.Conv2D, attrs, g[1], w) }
end
rules.Conv2DBackpropFilter = function(n, g)
  local x, dy = n.inputs[1], n.inputs[3]
  local attrs = conv_attrs(n)
  return {
    op(H.Conv2DBackpropInput, attrs, shape_tensor(x), g[1], dy),
    nil,
    op(H.Conv2D, attrs, x, g[1]) }
end

-- nn_grad.py _DepthwiseConv2dNativeGrad and its backprops' rules: the
-- same pattern as Conv2D's.
rules.DepthwiseConv2dNative = function(n, dy)
  local x, w = n.inputs[1], n.inputs[2]
  local attrs = conv_attrs(n)
  return {
    op(H.DepthwiseConv2dNativeBackpropInput, attrs, shape_tensor(x), w, dy[1]),
    op(H.DepthwiseConv2dNativeBackpropFilter, attrs, x, shape_tensor(w), dy[1]),
  }
end
rules.DepthwiseConv2dNativeBackpropInput = function(n, g)
  local w, dy = n.inputs[2], n.inputs[3]
  local attrs = conv_attrs(n)
  return { nil,
    op(H.DepthwiseConv2dNativeBackpropFilter, attrs, g[1], shape_tensor(w), dy),
    op(H.DepthwiseConv2dNative, attrs, g[1], w) }
end
rules.DepthwiseConv2dNativeBackpropFilter = function(n, g)
  local x, dy = n.inputs[1], n.inputs[3]
  local attrs = conv_attrs(n)
  return {
    op(H.DepthwiseConv2dNativeBackpropInput, attrs, shape_tensor(x), g[1], dy),
    nil,
    op(H.DepthwiseConv2dNative, attrs, x, g[1]) }
end

return rules
