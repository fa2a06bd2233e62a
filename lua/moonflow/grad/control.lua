-- control.lua — the gradients of the control-flow ops
-- (core/ops/ops_control.c). A traced cond and a traced loop carry their
-- gradient with them (control_flow.lua, while_grad.lua), since it needs
-- the branch functions or the per-iteration values; the rules here hand
-- over to it. TensorListSetItem, the loop's accumulator write, has its
-- own. Rule conventions: rules.lua.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local ops = require("moonflow.ops")
local helpers = require("moonflow.grad.helpers")
local raise = errors.raise

local H = state.H
local op = core.op
local as_shape_of = helpers.as_shape_of

local rules = {}

-- TensorListSetItem(buffer, index, item): row `index` of the result is
-- item, the other rows the buffer's (a rank-1 "fresh" buffer of a
-- non-scalar element only gives the row count: no gradient flows to it).
rules.TensorListSetItem = function(n, dy)
  local buf, index, item = n.inputs[1], n.inputs[2], n.inputs[3]
  local g = dy[1]
  local ditem = as_shape_of(ops.gather(g, index), item)
  local _, _, sb = core.info(buf)
  local _, _, si = core.info(item)
  if not sb or not si then
    raise("ValueError", "the gradient of TensorListSetItem needs the ranks of the buffer and the item", 3)
  end
  local dbuf
  if #sb == 1 and #si > 0 then
    dbuf = ops.zeros_like(buf)
  else
    local cleared = op(H.TensorListSetItem, { resize = true }, g, index, ops.zeros_like(item))
    dbuf = ops.slice(cleared, ops.zeros_like(ops.shape(buf)), ops.shape(buf))
  end
  return { dbuf, nil, ditem }
end

-- A traced cond carries its own gradient (a cond of the branches'
-- gradients, control_flow.lua): it needs the branch functions.
rules.If = function(n, dys, present) return n.attrs._gradient(n, dys, present) end
rules.StatelessIf = rules.If
-- The loop's gradient is recorded by tf.while_loop itself (it needs the
-- per-iteration values); the op's own entry then adds nothing. A loop
-- recorded without it (no tape recorded while it was traced, or no loop
-- variable is a tensor) has no gradient: an error, never a silent zero.
rules.While = function(n)
  if n.attrs and n.attrs._loop and n.attrs._loop.differentiated then return {} end
  raise("LookupError", "No gradient recorded for this tf.while_loop (op type: While): moonflow "
    .. "differentiates a loop traced while a GradientTape records, through its tensor loop variables "
    .. "and captured values", 4)
end
rules.StatelessWhile = rules.While

return rules
