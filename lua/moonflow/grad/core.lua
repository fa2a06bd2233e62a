-- core.lua — the gradients of the core ops (core/ops/ops_core.c) that
-- carry one: an identity and a variable read pass the gradient through.
-- The variable writes, prints, asserts, host callbacks and graph plumbing
-- of the family take none. Rule conventions: rules.lua.

local rules = {}

rules.Identity = function(_, dy) return { dy[1] } end
rules.ReadVariableOp = function(_, dy) return { dy[1] } end

return rules
