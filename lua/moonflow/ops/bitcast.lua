-- bitcast.lua — the bitcast family (core/ops/ops_bitcast.c): tf.bitcast,
-- a tensor's bytes read as another dtype.

local core = require("moonflow.core")
local state = require("moonflow.state")
local dtypes = require("moonflow.tensor.dtypes")
local common = require("moonflow.ops.common")
local core_ops = require("moonflow.ops.core")

local H = state.H
local M = {}

M.bitcast = common.op_def("Bitcast", function(input, type_, opts)
  local dt = dtypes.as_dtype(type_)
  return core.op(H.Bitcast, { type = dt, name = opts.name }, core_ops.to_tensor(input))
end, "tf.bitcast(input, type)",
"Equal sizes keep the shape; a wider input adds a last axis of size(input)/size(type); a narrower one "
  .. "needs that last axis, which goes. Bytes are little-endian.",
{ required = 2, "name" })

M.namespaces = { tf = { "bitcast" } }

return M
