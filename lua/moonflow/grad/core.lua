-- core.lua — the gradients of the core ops (core/ops/ops_core.c) that
-- carry one: an identity and a variable read pass the gradient through.
-- The variable writes, prints, asserts, host callbacks and graph plumbing
-- of the family take none. Rule conventions: rules.lua.

local rules = {}

rules.Identity = function(_, dy) return { dy[1] } end
-- Each output's gradient to its input (a custom gradient's IdentityN is
-- recorded with its own gradient function instead: grad/custom_gradient.lua).
rules.IdentityN = function(_, dy, present)
  local out = {}
  for i = 1, #dy do
    if present[i] then out[i] = dy[i] end
  end
  return out
end
rules.ReadVariableOp = function(_, dy) return { dy[1] } end

return rules
