-- onnx.lua — tf.onnx.export: a concrete function's graph as an ONNX model
-- (opset 17+), written by core/graph/onnx_export.c without a protobuf library.
-- Variables are exported with their current values as initializers, so the
-- file stands alone; Netron and any ONNX runtime read it.

local core = require("moonflow.core")
local options = require("moonflow.options")
local dtypes = require("moonflow.tensor.dtypes")
local func = require("moonflow.trace.func")
local functions = require("moonflow.io.functions")

local M = {}

local function raise(kind, msg) error(core.error(kind, msg), 3) end

-- The concrete function to export from a concrete function, a tf.func
-- (its first trace; a bound method's: its object's) or a module (the
-- first of its tf.funcs, by name, that has one; its class's methods
-- bound to it, functions.lua).
local function concrete_of(x)
  if func.is_concrete(x) then return x end
  if func.is_func(x) then
    local cfs = functions.concretes(x)
    if not cfs then
      raise("ValueError", ("tf.onnx.export: the tf.func '%s' has no trace to export; call it once "
        .. "or give it an input_signature"):format(x.name))
    end
    return cfs[1]
  end
  if type(x) == "table" then
    local found = functions.of(x)
    for _, e in ipairs(found) do
      local cfs = functions.concretes(e[2])
      if cfs then return cfs[1] end
    end
    if #found > 0 then
      local names = {}
      for i, e in ipairs(found) do names[i] = "'" .. e[1] .. "'" end
      raise("ValueError", ("tf.onnx.export: none of the module's tf.funcs (%s) has a trace to export; "
        .. "call one once or give it an input_signature"):format(table.concat(names, ", ")))
    end
  end
  raise("TypeError", "tf.onnx.export expects a concrete function, a traced tf.func or a module with one")
end

-- ONNX models carry no gradients: a tf.custom_gradient's node exports as
-- the Identity of each value, the forward computation alone, and the
-- user hears so on moonflow's warning channel (a training runtime
-- differentiating the model would use the forward ops' gradients).
local function warn_custom_gradients(cf, nodes)
  local n = 0
  for _, node in ipairs(nodes) do
    if node.type == "IdentityN" and node.attrs._gradient_op_type then n = n + 1 end
  end
  if n == 0 then return end
  io.stderr:write(("WARNING: tf.onnx.export: '%s' uses tf.custom_gradient (%d node%s): ONNX has no gradients, "
    .. "so the model holds the forward computation only and the custom gradient is not exported.\n")
    :format(cf.name, n, n == 1 and "" or "s"))
end

M.export = options.def(function(f, path, opts)
  if type(path) ~= "string" then raise("TypeError", "tf.onnx.export: path must be a string") end
  opts = opts or {}
  local cf = concrete_of(f)
  local g = cf._graph
  local ins = core.graph_io(g)
  local nodes = core.graph_nodes(g)
  warn_custom_gradients(cf, nodes)
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
.. "tf.func, its class's methods bound to it included) as an ONNX model: inputs named after the arguments, outputs output_0.., variables as "
.. "initializers with their current values. Elementwise ops, MatMul, Conv2D, reductions, shape ops, "
.. "If and While (as If and Loop); any other op is an UnimplementedError naming it. A tf.custom_gradient "
.. "exports its forward computation only (ONNX has no gradients), with a warning on stderr.",
{ "opset", required = 2, types = { opset = "number" } })

return M
