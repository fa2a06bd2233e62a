-- string.lua — the string family (core/ops/ops_string.c): the tf.strings
-- ops on string tensors, tf.strings.length and tf.strings.join.

local core = require("moonflow.core")
local state = require("moonflow.state")
local common = require("moonflow.ops.common")

local op = core.op
local H = state.H
local op_def, check_list = common.op_def, common.check_list

local M = {}

M.length = op_def("StringLength", function(x, unit, opts)
  return op(H.StringLength, { unit = unit or "BYTE", name = opts.name }, x)
end, "tf.strings.length(x [, unit] [, {name=}])", nil, { required = 1, positional = { "unit" }, "name" })

M.join = op_def("StringJoin", function(inputs, separator, opts)
  check_list(inputs, "tf.strings.join", "inputs")
  return op(H.StringJoin, { separator = separator or "", name = opts.name }, table.unpack(inputs))
end, "tf.strings.join(inputs [, separator])", "inputs is a Lua list; separator defaults to \"\".",
{ required = 1, positional = { "separator" }, "name" })

M.namespaces = { strings = { "length", "join" } }

return M
