-- tf.lua — assembles the `tf` table, the Lua face of moonflow, from the
-- library's modules (README.md, "Layout", says which module owns what).
-- The op namespaces (tf.nn, tf.math, ...) and top-level ops come built
-- from the op families by moonflow.ops; this file only publishes them.
-- Positions inside tensors are 0-based (x[0], axis=0, tf.range(3) = [0 1 2]);
-- Lua tables returned by :numpy() are ordinary 1-based tables.

local core = require("moonflow.core")
local doc = require("moonflow.doc")
local errors = require("moonflow.errors")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local config = require("moonflow.config")
local ops = require("moonflow.ops")
local control = require("moonflow.ops.control")
local tensors = require("moonflow.tensor.tensor")
local variables = require("moonflow.tensor.variable")
local ragged = require("moonflow.tensor.ragged")
local tapes = require("moonflow.grad.tape")
local custom_gradient = require("moonflow.grad.custom_gradient")
local func = require("moonflow.trace.func")
local graphs = require("moonflow.trace.graph")
local modules = require("moonflow.keras.module")
local autograph = require("moonflow.autograph")
local keras = require("moonflow.keras")
local keras_layers = require("moonflow.keras.layers")
local keras_layers_core = require("moonflow.keras.layers_core")
local keras_layers_rnn = require("moonflow.keras.layers_rnn")
local keras_models = require("moonflow.keras.models")
local progress = require("moonflow.session.progress")
local display = require("moonflow.session.display")
local io_npy = require("moonflow.io.npy")
local saved_model = require("moonflow.io.saved_model")
local onnx = require("moonflow.io.onnx")
local name_scope = require("moonflow.trace.name_scope")
local strict = require("moonflow.strict")
local data = require("moonflow.data")
local debug_tools = require("moonflow.debug")
local help = require("moonflow.reference.help")

-- A module's public part: everything but the names it lists as
-- library-internal (module.internal), which other modules require it for.
local function public(module, into)
  into = into or {}
  local internal = module.internal or {}
  for k, v in pairs(module) do
    if not internal[k] then into[k] = v end
  end
  return into
end

local tf = {}
tf.__version__ = core.version
tf.doc = doc
tf.errors = errors
for _, module in ipairs({ dtypes, shapes, config, ops, tensors, variables, tapes, func, graphs,
  modules, name_scope, custom_gradient }) do
  public(module, tf)
end
-- The control family's top-level ops (it builds on the tape, above moonflow.ops).
for _, name in ipairs(control.namespaces.tf) do tf[name] = control[name] end
tf.autograph = public(autograph)
tf.keras = ops.join_namespaces(keras, keras_layers, "tf.keras")
-- Keras parts (issue 27): the layers of layers_core.lua and layers_rnn.lua.
tf.keras = ops.join_namespaces(tf.keras, keras_layers_core, "tf.keras")
tf.keras = ops.join_namespaces(tf.keras, keras_layers_rnn, "tf.keras")
tf.keras = ops.join_namespaces(tf.keras, keras_models.namespaces, "tf.keras")
for k, v in pairs(keras_models.top) do tf.keras[k] = v end
tf.progress = progress.progress
tf.display = display.display
tf.clear_output = display.clear_output
tf["function"] = tf.func
-- TF's enum of what tape:gradient gives an unconnected source: its
-- values are the strings the tape takes ("none" or "zero").
tf.UnconnectedGradients = { NONE = "none", ZERO = "zero" }
tf.io = public(io_npy)
for k, v in pairs(ops.io) do tf.io[k] = v end -- tf.io.decode_raw (the string family)
tf.saved_model = { save = saved_model.save, load = saved_model.load, SaveOptions = saved_model.SaveOptions }
tf.train = { Checkpoint = saved_model.Checkpoint }
tf.onnx = public(onnx)
tf.data = public(data)
tf.debug = debug_tools -- moonflow's own: see inside a traced function (issue 29)
tf.io.decode_csv = data.decode_csv
-- tf.dtypes: the op family's cast and saturate_cast, and the dtypes.
tf.dtypes.DType, tf.dtypes.as_dtype = dtypes.DType, dtypes.as_dtype
for _, name in ipairs(dtypes.names) do tf.dtypes[name] = dtypes[name] end
-- Ragged tensors (tensor/ragged.lua).
tf.RaggedTensor = ragged.RaggedTensor
tf.RaggedTensorSpec = ragged.RaggedTensorSpec
tf.ragged = ragged.ragged
-- tf.help finds a value's public name by walking tf itself.
tf.help = doc.def(function(obj) return help.text(obj, tf) end, "tf.help(obj)",
  "The docstring of a function (its signature and description) as a string, then, for a public "
  .. "name, an example with what it prints and the errors it raises for bad input.")

-- Nothing silent: tf and every namespace in it (tf.nn, tf.keras.layers,
-- ...) refuse a name they lack with AttributeError, as a Python module
-- does, instead of handing Lua's nil on (strict/init.lua).
return strict.namespaces(tf, "tf")
