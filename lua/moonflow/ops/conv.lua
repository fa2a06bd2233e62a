-- conv.lua — the conv family (core/ops/ops_conv.c): tf.nn.conv2d, its
-- strides and dilations given as TF's Python takes them (a number, or a
-- list of 1, 2 or 4).

local core = require("moonflow.core")
local state = require("moonflow.state")
local common = require("moonflow.ops.common")
local errors = require("moonflow.errors")
local dtypes = require("moonflow.tensor.dtypes")
local join = require("moonflow.ops.join")

local op = core.op
local H = state.H
local check_list = common.check_list
local raise = errors.raise

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

-- nn_ops.conv2d_transpose_v2: the gradient of conv2d with respect to its
-- input, Conv2DBackpropInput, with output_shape as its input_sizes.
M.conv2d_transpose = common.op_def("Conv2DBackpropInput",
  function(input, filters, output_shape, strides, padding, data_format, dilations, opts)
    if output_shape == nil then raise("TypeError", "tf.nn.conv2d_transpose: output_shape is required", 3) end
    if strides == nil then raise("TypeError", "tf.nn.conv2d_transpose: strides is required", 3) end
    return op(H.Conv2DBackpropInput, { strides = stride_list(strides), padding = padding or "SAME",
      dilations = stride_list(dilations), data_format = data_format or "NHWC",
      name = opts.name or "conv2d_transpose", _dtypes = { dtypes.int32 } }, join.int_list(output_shape), filters, input)
  end, "tf.nn.conv2d_transpose(input, filters, output_shape, strides [, padding] [, data_format] [, dilations])",
  "padding 'SAME' (the default) or 'VALID'; filters are [height, width, output_channels, in_channels]; "
  .. "output_shape a Lua list or an int32 vector.",
  { required = 3, positional = { "strides", "padding", "data_format", "dilations" }, "name" })

-- nn_impl.depthwise_conv2d_v2: DepthwiseConv2dNative named "depthwise";
-- a dilation rate is the op's dilations attribute here, where TF's Python
-- wraps the op in SpaceToBatch/BatchToSpace (the same values).
M.depthwise_conv2d = common.op_def("DepthwiseConv2dNative",
  function(input, filter, strides, padding, data_format, dilations, opts)
    if strides == nil or padding == nil then
      raise("TypeError", "tf.nn.depthwise_conv2d: strides and padding are required", 3)
    end
    return op(H.DepthwiseConv2dNative, { strides = stride_list(strides), padding = padding,
      dilations = stride_list(dilations), data_format = data_format or "NHWC",
      name = opts.name or "depthwise" }, input, filter)
  end, "tf.nn.depthwise_conv2d(input, filter, strides, padding [, data_format] [, dilations])",
  "filter is [height, width, in_channels, channel_multiplier]; the output has in_channels * "
  .. "channel_multiplier channels. strides and dilations a number or a list of 1, 2 or 4.",
  { required = 2, positional = { "strides", "padding", "data_format", "dilations" }, "name" })

M.namespaces = { nn = { "conv2d", "conv2d_transpose", "depthwise_conv2d" } }

return M
