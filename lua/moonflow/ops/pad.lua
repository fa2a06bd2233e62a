-- pad.lua — the pad family (core/ops/ops_pad.c): tf.pad, which is Pad
-- (PadV2 with a constant_values tensor or value) in mode CONSTANT and
-- MirrorPad in modes REFLECT and SYMMETRIC, as TF's array_ops.pad.

local errors = require("moonflow.errors")
local core = require("moonflow.core")
local state = require("moonflow.state")
local dtypes = require("moonflow.tensor.dtypes")
local common = require("moonflow.ops.common")
local core_ops = require("moonflow.ops.core")
local raise = errors.raise

local op = core.op
local H = state.H
local I32 = dtypes.int32
local to_tensor = core_ops.to_tensor

local M = {}

-- array_ops.pad: the mode is case-insensitive (NumPy's names are lower
-- case); CONSTANT pads with Pad (PadV2 for a constant_values tensor or
-- other value), REFLECT and SYMMETRIC with MirrorPad, which ignores
-- constant_values as TF's does.
local MIRROR_MODES = { REFLECT = true, SYMMETRIC = true }
M.pad = common.op_def("Pad", function(x, paddings, mode, opts)
  mode = mode == nil and "CONSTANT" or tostring(mode):upper()
  x = to_tensor(x)
  local types = { nil, I32, core.dtype(x) }
  if MIRROR_MODES[mode] then
    return op(H.MirrorPad, { name = opts.name or "MirrorPad", mode = mode, _dtypes = types }, x, paddings)
  elseif mode ~= "CONSTANT" then
    raise("ValueError", 'Value of argument `mode` expected to be one of "CONSTANT", "REFLECT", '
      .. 'or "SYMMETRIC". Received `mode` = ' .. mode, 2)
  end
  if opts.constant_values and opts.constant_values ~= 0 then
    return op(H.Pad, { name = opts.name or "Pad", _dtypes = types }, x, paddings, opts.constant_values)
  end
  return op(H.Pad, { name = opts.name or "Pad", _dtypes = types }, x, paddings)
end, "tf.pad(x, paddings [, mode] [, {constant_values=, name=}])",
"paddings is a Lua list of {before, after} per axis; that is mode 'CONSTANT', the default. Modes "
  .. "'REFLECT' and 'SYMMETRIC' are op MirrorPad (mirrored from x, 'REFLECT' without the border, "
  .. "'SYMMETRIC' with it); modes are case-insensitive.",
{ required = 1, positional = { "paddings", "mode" }, "constant_values", "name" })

M.namespaces = { tf = { "pad" } }

return M
