-- pool.lua — the gradients of the pooling ops (core/ops/ops_pool.c), as TF
-- registers them in nn_grad.py: MaxPool -> MaxPoolGrad -> MaxPoolGradGrad
-- -> MaxPoolGrad, AvgPool <-> AvgPoolGrad. The routing ops take no
-- gradient through the values that choose the route (orig_input,
-- orig_output): zeros, as TF's. Rule conventions: rules.lua.

local core = require("moonflow.core")
local state = require("moonflow.state")
local ops = require("moonflow.ops")
local helpers = require("moonflow.grad.helpers")

local H = state.H
local op = core.op
local shape_tensor = helpers.shape_tensor

local function pool_attrs(n)
  local a = n.attrs or {}
  return { ksize = a.ksize, strides = a.strides, padding = a.padding, data_format = a.data_format }
end

local rules = {}

rules.MaxPool = function(n, dy)
  return { op(H.MaxPoolGrad, pool_attrs(n), n.inputs[1], n.outputs[1], dy[1]) }
end
rules.MaxPoolGrad = function(n, g)
  local x, y = n.inputs[1], n.inputs[2]
  return { ops.zeros_like(x), ops.zeros_like(y), op(H.MaxPoolGradGrad, pool_attrs(n), x, y, g[1]) }
end
rules.MaxPoolGradGrad = function(n, g)
  local x, y = n.inputs[1], n.inputs[2]
  return { ops.zeros_like(x), ops.zeros_like(y), op(H.MaxPoolGrad, pool_attrs(n), x, y, g[1]) }
end
rules.AvgPool = function(n, dy)
  return { op(H.AvgPoolGrad, pool_attrs(n), shape_tensor(n.inputs[1]), dy[1]) }
end
rules.AvgPoolGrad = function(n, g)
  return { nil, op(H.AvgPool, pool_attrs(n), g[1]) }
end

return rules
