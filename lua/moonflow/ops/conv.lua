-- conv.lua — the conv family (core/ops/ops_conv.c): tf.nn.conv2d, its
-- strides and dilations given as TF's Python takes them (a number, or a
-- list of 1, 2 or 4).

local core = require("moonflow.core")
local state = require("moonflow.state")
local common = require("moonflow.ops.common")

local op = core.op
local H = state.H
local check_list = common.check_list

local M = {}

local function stride_list(s)
  if s == nil then return { 1, 1, 1, 1 } end
  if type(s) == "number" then return { 1, s, s, 1 } end
  check_list(s, "tf.nn.conv2d", "strides (and dilations)", 3)
  if #s == 1 then return { 1, s[1], s[1], 1 } end
  if #s == 2 then return { 1, s[1], s[2], 1 } end
  return s
end

M.conv2d = common.op_def("Conv2D", function(input, filters, strides, padding, data_format, dilations, opts)
  return op(H.Conv2D, { strides = stride_list(strides), padding = padding or "VALID",
    dilations = stride_list(dilations), data_format = data_format or "NHWC",
    name = opts.name }, input, filters)
end, "tf.nn.conv2d(input, filters, strides, padding [, data_format] [, dilations] [, {name=}])",
"padding 'VALID' (the default) or 'SAME'; strides and dilations a number or a list of 1, 2 or 4.",
{ required = 2, positional = { "strides", "padding", "data_format", "dilations" }, "name" })

M.namespaces = { nn = { "conv2d" } }

return M
