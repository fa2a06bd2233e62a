-- generate.lua — the gradients of the ops that make a tensor from a
-- shape (core/ops/ops_generate.c) that take one: a broadcast's gradient is
-- summed back to the input's shape, a fill's to its scalar value. Rule
-- conventions: rules.lua.

local ops = require("moonflow.ops")
local helpers = require("moonflow.grad.helpers")

local unbroadcast = helpers.unbroadcast

local rules = {}

rules.BroadcastTo = function(n, dy) return { unbroadcast(dy[1], n.inputs[1]) } end
rules.Fill = function(_, dy) return { nil, ops.reduce_sum(dy[1]) } end

return rules
