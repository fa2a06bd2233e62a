-- replay.lua — whether running an op a second time changes state: a
-- variable write, output, a host callback, a random draw or the clock
-- makes the second run differ from the first. A gradient that runs
-- forward ops again (a tf.func call's re-traced backward function, a cond
-- gradient that re-traces its branches) must not meet such an op; the
-- call gradients (call_gradient.lua) and the control-flow gradients
-- (control_flow.lua, while_grad.lua) ask here.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local raise = errors.raise

local replay = {}

-- op type -> boolean, for every op of the registry (fixed at startup):
-- the registry's own flag (MF_OP_CHANGES_ON_REPLAY, core/ops/op.h), the
-- one place the fact is stated. Ops holding graphs (If, While, calls) are
-- not flagged: changing_op searches their graphs and names the op inside.
local CHANGES = {}
for _, o in ipairs(core.op_list()) do
  CHANGES[o.name] = o.changes_state_on_replay == true
end

--- changes_state(op_type) -> boolean: whether replaying an op of this
-- type changes state. Errors for a type the registry does not have.
function replay.changes_state(op_type)
  local changes = CHANGES[op_type]
  if changes == nil then
    error(("replay.changes_state: '%s' is not an op of the registry"):format(tostring(op_type)), 2)
  end
  return changes
end

--- changing_op(graph) -> op type or nil: an op of graph, or of a graph
-- nested in one of its nodes' attributes (branches, loop bodies, called
-- functions), whose replay changes state.
function replay.changing_op(g)
  local graph_mt = getmetatable(g)
  local function search(graph)
    for _, n in ipairs(core.graph_nodes(graph)) do
      if replay.changes_state(n.type) then return n.type end
      for _, a in pairs(n.attrs or {}) do
        if type(a) == "userdata" and getmetatable(a) == graph_mt then
          local found = search(a)
          if found then return found end
        end
      end
    end
    return nil
  end
  return search(g)
end

--- refuse(what, graphs): raises UnimplementedError when a gradient of
-- `what` ("tf.cond" or "tf.while_loop") would run one of graphs (its
-- branches or body; nil entries end the list) again and it holds an op
-- whose replay changes state: a wrong count, print or draw is never the
-- answer.
function replay.refuse(what, graphs)
  for _, g in ipairs(graphs) do
    local changes = g and replay.changing_op(g)
    if changes then
      raise("UnimplementedError", ("the gradient of this %s runs its %s again, which hold a %s op that "
        .. "must not run twice (its effect would happen twice, or a read would see the changed state); "
        .. "moonflow cannot differentiate it yet: move the side effect out of the %s")
        :format(what, what == "tf.cond" and "branches" or "body", changes,
          what == "tf.cond" and "branch" or "loop body"), 6)
    end
  end
end

return replay
