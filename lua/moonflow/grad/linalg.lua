-- linalg.lua — the gradients of the matrix products (core/ops/ops_linalg.c),
-- as TF's math_grad.py _MatMulGrad and _BatchMatMulV2Grad. Rule
-- conventions: rules.lua.

local core = require("moonflow.core")
local state = require("moonflow.state")
local ops = require("moonflow.ops")
local helpers = require("moonflow.grad.helpers")

local H = state.H
local op = core.op
local unbroadcast = helpers.unbroadcast

local rules = {}

-- math_grad.py _MatMulGrad: with an input nobody wants, one product.
rules.MatMul = function(n, dy, _, skip)
  local a, b = n.inputs[1], n.inputs[2]
  local ta, tb = n.attrs and n.attrs.transpose_a, n.attrs and n.attrs.transpose_b
  local g = dy[1]
  local mm = ops.matmul
  local function grad_a()
    if not ta and not tb then return mm(g, b, { transpose_b = true })
    elseif not ta and tb then return mm(g, b)
    elseif ta and not tb then return mm(b, g, { transpose_b = true }) end
    return mm(b, g, { transpose_a = true, transpose_b = true })
  end
  local function grad_b()
    if not ta and not tb then return mm(a, g, { transpose_a = true })
    elseif not ta and tb then return mm(g, a, { transpose_a = true })
    elseif ta and not tb then return mm(a, g) end
    return mm(g, a, { transpose_a = true, transpose_b = true })
  end
  if skip and skip[2] then return { grad_a() } end
  if skip and skip[1] then return { nil, grad_b() } end
  return { grad_a(), grad_b() }
end
rules.BatchMatMulV2 = function(n, dy)
  local a, b = n.inputs[1], n.inputs[2]
  local ax, ay = n.attrs and n.attrs.adj_x, n.attrs and n.attrs.adj_y
  local g = dy[1]
  local function bmm(p, q, tp, tq)
    return op(H.BatchMatMulV2, { adj_x = tp, adj_y = tq }, p, q)
  end
  local ga, gb
  if not ax and not ay then ga, gb = bmm(g, b, false, true), bmm(a, g, true, false)
  elseif not ax and ay then ga, gb = bmm(g, b, false, false), bmm(g, a, true, false)
  elseif ax and not ay then ga, gb = bmm(b, g, false, true), bmm(a, g, false, false)
  else ga, gb = bmm(b, g, true, true), bmm(g, a, true, true) end
  return { unbroadcast(ga, a), unbroadcast(gb, b) }
end

return rules
