-- rules.lua — the one table of gradient rules, merged from the op
-- families. Each family's rules live in grad/<family>.lua, named after the
-- C file that defines its ops (core/ops/ops_<family>.c), as a plain table
-- {OpName = rule}; this module is the one place they meet, and it refuses
-- two rules for one op and a rule for an op the registry does not have.
--
-- A rule is rule(node, dys, present, skip) -> {dx per input}, where node =
-- {inputs=, outputs=, attrs=}, dys[i] is the gradient of output i (never
-- nil: missing ones are zeros), present[i] says whether output i received
-- a gradient at all (rules of multi-output ops skip the work for outputs
-- nothing depends on) and skip[k] that nobody wants input k's gradient.
-- A rule is written in ops, so it runs eagerly and inside traced
-- functions alike; tape.lua applies them.

local core = require("moonflow.core")
local array = require("moonflow.grad.array")
local control = require("moonflow.grad.control")
local conv = require("moonflow.grad.conv")
local core_ops = require("moonflow.grad.core")
local einsum = require("moonflow.grad.einsum")
local elementwise = require("moonflow.grad.elementwise")
local generate = require("moonflow.grad.generate")
local image = require("moonflow.grad.image")
local index = require("moonflow.grad.index")
local join = require("moonflow.grad.join")
local lapack = require("moonflow.grad.lapack")
local linalg = require("moonflow.grad.linalg")
local nn = require("moonflow.grad.nn")
local pad = require("moonflow.grad.pad")
local pool = require("moonflow.grad.pool")
local reduce = require("moonflow.grad.reduce")
local shape = require("moonflow.grad.shape")
local sort = require("moonflow.grad.sort")

local M = {}

-- The families that have gradient rules, by name. The others (call,
-- fused, random, string) have none: their ops are not differentiable, or
-- (calls) are differentiated through the called function (call_gradient.lua).
local FAMILIES = {
  { name = "array", rules = array }, { name = "control", rules = control },
  { name = "conv", rules = conv }, { name = "core", rules = core_ops },
  { name = "einsum", rules = einsum }, { name = "elementwise", rules = elementwise },
  { name = "generate", rules = generate }, { name = "image", rules = image },
  { name = "index", rules = index }, { name = "join", rules = join },
  { name = "lapack", rules = lapack }, { name = "linalg", rules = linalg },
  { name = "nn", rules = nn }, { name = "pad", rules = pad },
  { name = "pool", rules = pool }, { name = "reduce", rules = reduce },
  { name = "shape", rules = shape }, { name = "sort", rules = sort },
}

--- merge(families, registered) -> by_op, family_of. families is a list of
-- {name=, rules={OpName = rule}}; registered is a set of the registry's op
-- names. Errors on an op two families give a rule for, and on a rule for
-- an op that is not registered (a misspelt or removed op would otherwise
-- hold a rule nothing reaches).
function M.merge(families, registered)
  local by_op, family_of = {}, {}
  for _, family in ipairs(families) do
    local names = {}
    for name in pairs(family.rules) do names[#names + 1] = name end
    table.sort(names) -- a stable first error
    for _, name in ipairs(names) do
      if family_of[name] then
        error(("two gradient rules for op '%s': in family '%s' and in family '%s'")
          :format(name, family_of[name], family.name), 2)
      end
      if not registered[name] then
        error(("family '%s' has a gradient rule for op '%s', which is not in the op registry")
          :format(family.name, name), 2)
      end
      by_op[name], family_of[name] = family.rules[name], family.name
    end
  end
  return by_op, family_of
end

local registered = {}
for _, o in ipairs(core.op_list()) do registered[o.name] = true end

-- by_op[op_type] is the rule of that op (the table the tape reads);
-- family_of[op_type] names the family that gives it.
M.by_op, M.family_of = M.merge(FAMILIES, registered)

-- The family names, in FAMILIES' order.
M.families = {}
for i, f in ipairs(FAMILIES) do M.families[i] = f.name end

return M
