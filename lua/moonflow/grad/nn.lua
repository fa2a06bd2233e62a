-- nn.lua — the gradients of the neural-network ops (core/ops/ops_nn.c):
-- softmax, log-softmax, the cross-entropies and the bias add, as TF's
-- nn_grad.py. Rule conventions: rules.lua.

local core = require("moonflow.core")
local state = require("moonflow.state")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local ops = require("moonflow.ops")

local H = state.H
local op = core.op
local static_shape = shapes.static

local rules = {}

rules.Softmax = function(n, dy)
  local y = n.outputs[1]
  return { y * (dy[1] - ops.reduce_sum(dy[1] * y, -1, { keepdims = true })) }
end
rules.LogSoftmax = function(n, dy)
  local y = n.outputs[1]
  return { dy[1] - ops.exp(y) * ops.reduce_sum(dy[1], -1, { keepdims = true }) }
end
-- The cross-entropy ops return (loss, backprop) with backprop =
-- softmax(logits) - labels. A gradient reaching backprop (second
-- derivatives: the loss's gradient is that output) flows through the
-- softmax's Jacobian into the logits, as nn_grad.py computes it: a
-- batched [1, n] x [n, 1] product per row (so a traced second derivative
-- holds a BatchMatMulV2, as TF's does).
local function softmax_backprop_grad(logits, gg)
  local p = ops.nn.softmax(logits)
  local rowdot = op(H.BatchMatMulV2, { adj_x = false, adj_y = false }, ops.expand_dims(gg, 1), ops.expand_dims(p, 2))
  return (gg - ops.squeeze(rowdot, { 1 })) * p
end
-- nn_grad.py _SoftmaxCrossEntropyWithLogitsGrad. The labels' gradient is
-- the loss's alone: TF's rule gives none through the backprop output
-- (whose derivative in the labels is -1), and neither does moonflow.
rules.SoftmaxCrossEntropyWithLogits = function(n, dy, present)
  local logits = n.inputs[1]
  local g = ops.expand_dims(dy[1], -1)
  local dlogits = g * n.outputs[2]
  if present == nil or present[2] then dlogits = dlogits + softmax_backprop_grad(logits, dy[2]) end
  return { dlogits, g * -ops.nn.log_softmax(logits) }
end
rules.SparseSoftmaxCrossEntropyWithLogits = function(n, dy, present)
  local dlogits = ops.expand_dims(dy[1], -1) * n.outputs[2]
  if present == nil or present[2] then
    dlogits = dlogits + softmax_backprop_grad(n.inputs[1], dy[2])
  end
  return { dlogits }
end
local function data_format(n)
  return { data_format = n.attrs and n.attrs.data_format or "NHWC" }
end
rules.BiasAdd = function(n, dy)
  return { dy[1], op(H.BiasAddGrad, data_format(n), dy[1]) }
end
-- BiasAddGrad sums all but the channel axis: its gradient spreads the
-- channel values back over that shape.
rules.BiasAddGrad = function(n, g)
  local dy = n.inputs[1]
  local sd = static_shape(dy)
  local rank = sd and #sd or nil
  local nchw = n.attrs and n.attrs.data_format == "NCHW"
  local shaped
  if rank then
    local s = {}
    for i = 1, rank do s[i] = 1 end
    s[nchw and 2 or rank] = -1
    shaped = ops.reshape(g[1], s)
  else
    local ones = ops.ones_like(ops.shape(dy))
    local axis = nchw and 1 or ops.rank(dy) - 1
    local s = ones - ops.one_hot(axis, ops.rank(dy), { dtype = dtypes.int32 }) * 2
    shaped = ops.reshape(g[1], s)
  end
  return { ops.broadcast_to(shaped, sd or ops.shape(dy)) }
end

return rules
