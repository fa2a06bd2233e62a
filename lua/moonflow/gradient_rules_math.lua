-- gradient_rules_math.lua — the gradients of issue 17's math and
-- linear-algebra ops, as TF defines them (math_grad.py, linalg_grad.py).
-- gradient_rules.lua calls this with its rule table and its unbroadcast
-- helper (sums a gradient down to an input's shape where it broadcast).

local core = require("moonflow.core")
local state = require("moonflow.state")
local ops = require("moonflow.ops")
require("moonflow.ops_math")

local H = state.H
local op = core.op

return function(rules, unbroadcast)
  -- math_grad.py _DivNoNanGrad
  rules.DivNoNan = function(n, dy)
    local x, y = n.inputs[1], n.inputs[2]
    local dnn = ops.math.divide_no_nan
    return { unbroadcast(dnn(dy[1], y), x), unbroadcast(ops.multiply(dy[1], dnn(dnn(-x, y), y)), y) }
  end

  -- math_grad.py _SquaredDifferenceGrad
  rules.SquaredDifference = function(n, dy)
    local x, y = n.inputs[1], n.inputs[2]
    local gx = ops.multiply(ops.multiply(dy[1], 2), ops.subtract(x, y))
    return { unbroadcast(gx, x), unbroadcast(-gx, y) }
  end

  local _ = op
  local _ = H
end
