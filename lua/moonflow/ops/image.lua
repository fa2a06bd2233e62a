-- image.lua — the image family (core/ops/ops_image.c): tf.image.resize,
-- bilinear (ResizeBilinear with TF2's half-pixel centres) on a batch or a
-- single HWC image.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local common = require("moonflow.ops.common")
local core_ops = require("moonflow.ops.core")
local elementwise = require("moonflow.ops.elementwise")
local shape_ops = require("moonflow.ops.shape")
local join = require("moonflow.ops.join")
local raise = errors.raise

local op = core.op
local H = state.H
local to_tensor = core_ops.to_tensor
local rank_of = shapes.rank
local I32 = dtypes.int32

local M = {}

M.resize = common.op_def("ResizeBilinear", function(images, size, method, opts)
  if method ~= nil and method ~= "bilinear" then
    raise("ValueError", "tf.image.resize: moonflow implements method 'bilinear' only, got " .. tostring(method), 2)
  end
  images = to_tensor(images)
  local r = rank_of(images)
  local batched = images
  if r == 3 then batched = shape_ops.expand_dims(images, 0) end
  if core.dtype(batched) ~= dtypes.float32 then batched = elementwise.cast(batched, dtypes.float32) end
  local out = op(H.ResizeBilinear, { align_corners = false, half_pixel_centers = true,
    name = opts.name, _dtypes = { nil, I32 } }, batched, join.int_list(size))
  if r == 3 then out = shape_ops.squeeze(out, { 0 }) end
  return out
end, "tf.image.resize(images, {height, width} [, method])",
"Also a single HWC image; method 'bilinear' only.",
{ required = 1, positional = { "size", "method" }, "name" })

M.namespaces = { image = { "resize" } }

return M
