-- pool.lua — the pool family (core/ops/ops_pool.c): tf.nn.max_pool2d
-- (MaxPool) and tf.nn.avg_pool2d (AvgPool), with ksize and strides as
-- TF's Python takes them (_get_sequence), and TF's short names
-- tf.nn.max_pool / avg_pool.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local common = require("moonflow.ops.common")
local raise = errors.raise

local op = core.op
local H = state.H

local M = {}

-- TF's _get_sequence for the 2-D pools: an int n -> {1, n, n, 1}, a list
-- of 1, 2 or 4 ints as TF reads it.
local function window_list(v, what, fname)
  if math.type(v) == "integer" then return { 1, v, v, 1 } end
  if type(v) == "table" and getmetatable(v) == nil then
    for _, d in ipairs(v) do
      if math.type(d) ~= "integer" then
        raise("TypeError", ("%s: %s must be integers, got %s"):format(fname, what, tostring(d)), 4)
      end
    end
    if #v == 1 then return { 1, v[1], v[1], 1 } end
    if #v == 2 then return { 1, v[1], v[2], 1 } end
    if #v == 4 then return v end
    local items = {}
    for i, d in ipairs(v) do items[i] = tostring(d) end
    raise("ValueError", ("%s should be of length 1, 2 or 4. Received: %s=[%s] of length %d")
      :format(what, what, table.concat(items, ", "), #v), 4)
  end
  raise("TypeError", ("%s: %s must be an integer or a list of integers, got a %s")
    :format(fname, what, type(v)), 4)
end

local function pool(opname, fname)
  return function(input, ksize, strides, padding, data_format, opts)
    if ksize == nil or strides == nil or padding == nil then
      local missing = {}
      for _, p in ipairs({ { "ksize", ksize }, { "strides", strides }, { "padding", padding } }) do
        if p[2] == nil then missing[#missing + 1] = "'" .. p[1] .. "'" end
      end
      raise("TypeError", ("%s() missing %d required positional argument%s: %s"):format(fname, #missing,
        #missing > 1 and "s" or "", table.concat(missing, " and ")), 3)
    end
    if type(padding) ~= "string" then
      raise("ValueError", ("%s: moonflow takes padding 'SAME' or 'VALID' (a string), got a %s")
        :format(fname, type(padding)), 3)
    end
    return op(H[opname], { ksize = window_list(ksize, "ksize", fname),
      strides = window_list(strides, "strides", fname), padding = padding:upper(),
      data_format = data_format or "NHWC", name = opts.name }, input)
  end
end

local POOL_SPEC = { required = 1, positional = { "ksize", "strides", "padding", "data_format" }, "name" }
M.max_pool2d = common.op_def("MaxPool", pool("MaxPool", "tf.nn.max_pool2d"),
  "tf.nn.max_pool2d(input, ksize, strides, padding [, data_format] [, {name=}])",
  "ksize and strides an integer or a list of 1, 2 or 4; padding never wins a max. data_format 'NHWC' only.",
  POOL_SPEC)
M.avg_pool2d = common.op_def("AvgPool", pool("AvgPool", "tf.nn.avg_pool2d"),
  "tf.nn.avg_pool2d(input, ksize, strides, padding [, data_format] [, {name=}])",
  "ksize and strides an integer or a list of 1, 2 or 4, as TF. data_format 'NHWC' only.", POOL_SPEC)

M.namespaces = { nn = { "max_pool2d", "avg_pool2d", max_pool = "max_pool2d", avg_pool = "avg_pool2d" } }

return M
