-- onnx.lua — tf.onnx.export: a concrete function's graph as an ONNX model
-- (opset 17+), written by core/graph/onnx_export.c without a protobuf library.
-- Variables are exported with their current values as initializers, so the
-- file stands alone; Netron and any ONNX runtime read it.

local core = require("moonflow.core")
local options = require("moonflow.options")
local dtypes = require("moonflow.tensor.dtypes")
local func = require("moonflow.trace.func")

local M = {}

local function raise(kind, msg) error(core.error(kind, msg), 3) end

-- The concrete function to export from a concrete function, a tf.func
-- (its first trace) or a module (its first traced tf.func field, by name).
local function concrete_of(x)
  if func.is_concrete(x) then return x end
  if func.is_func(x) then
    local cfs = x:concrete_functions()
    if #cfs == 0 and x._signature then cfs = { x:get_concrete_function() } end
    if #cfs == 0 then
      raise("ValueError", ("tf.onnx.export: the tf.func '%s' has no trace to export; call it once "
        .. "or give it an input_signature"):format(x.name))
    end
    return cfs[1]
  end
  if type(x) == "table" then
    local keys = {}
    for k, v in pairs(x) do
      if type(k) == "string" and func.is_func(v) then keys[#keys + 1] = k end
    end
    table.sort(keys)
    for _, k in ipairs(keys) do
      local ok, cf = pcall(concrete_of, x[k])
      if ok then return cf end
    end
  end
  raise("TypeError", "tf.onnx.export expects a concrete function, a traced tf.func or a module with one")
end

M.export = options.def(function(f, path, opts)
  if type(path) ~= "string" then raise("TypeError", "tf.onnx.export: path must be a string") end
  opts = opts or {}
  local cf = concrete_of(f)
  local g = cf._graph
  local ins = core.graph_io(g)
  local nodes = core.graph_nodes(g)
  local captures = {}
  for i, c in ipairs(cf._captures) do
    local _, dtype = core.info(c)
    captures[i] = dtype == dtypes.resource and core.variable_value(c) or c
  end
  local names = {}
  for i = 1, #ins - #captures do names[i] = nodes[ins[i] + 1].name end
  local bytes = core.onnx_export(g, names, captures, opts.opset or 17)
  local file, msg = io.open(path, "wb")
  if not file then raise("NotFoundError", "tf.onnx.export: " .. tostring(msg)) end
  file:write(bytes)
  file:close()
  return path
end, "tf.onnx.export(concrete_function_or_module, path [, {opset = 17}])",
"Writes the graph of a concrete function (or a tf.func's first trace, or a module's first traced "
.. "tf.func) as an ONNX model: inputs named after the arguments, outputs output_0.., variables as "
.. "initializers with their current values. Elementwise ops, MatMul, Conv2D, reductions, shape ops, "
.. "If and While (as If and Loop); any other op is an UnimplementedError naming it.",
{ "opset", required = 2, types = { opset = "number" } })

return M
