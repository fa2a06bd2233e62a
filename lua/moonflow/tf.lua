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
local map_fn = require("moonflow.ops.map_fn")
local tensors = require("moonflow.tensor.tensor")
local variables = require("moonflow.tensor.variable")
local tapes = require("moonflow.grad.tape")
local custom_gradient = require("moonflow.grad.custom_gradient")
local func = require("moonflow.trace.func")
local graphs = require("moonflow.trace.graph")
local autograph = require("moonflow.autograph")
local progress = require("moonflow.session.progress")
local display = require("moonflow.session.display")
local io_npy = require("moonflow.io.npy")
local name_scope = require("moonflow.trace.name_scope")
local strict = require("moonflow.strict")

-- The modules of the names made on first use (strict.later, at the end),
-- by name: a header require would load them at start (issue 28).
local LATER = {
  keras = "moonflow.keras", keras_layers = "moonflow.keras.layers",
  keras_layers_core = "moonflow.keras.layers_core", keras_layers_rnn = "moonflow.keras.layers_rnn",
  keras_models = "moonflow.keras.models", keras_module = "moonflow.keras.module",
  data = "moonflow.data", saved_model = "moonflow.io.saved_model", onnx = "moonflow.io.onnx",
  debug = "moonflow.debug", ragged = "moonflow.tensor.ragged", help = "moonflow.reference.help",
}
local function later_module(key) return (require(LATER[key])) end

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
  name_scope, custom_gradient }) do
  public(module, tf)
end
-- The control family's top-level ops (it builds on the tape, above moonflow.ops).
for _, name in ipairs(control.namespaces.tf) do tf[name] = control[name] end
-- tf.map_fn and tf.vectorized_map build on tf.while_loop (ops/map_fn.lua).
for _, name in ipairs(map_fn.namespaces.tf) do tf[name] = map_fn[name] end
tf.autograph = public(autograph)
tf.progress = progress.progress
tf.display = display.display
tf.clear_output = display.clear_output
tf["function"] = tf.func
-- TF's enum of what tape:gradient gives an unconnected source: its
-- values are the strings the tape takes ("none" or "zero").
tf.UnconnectedGradients = { NONE = "none", ZERO = "zero" }
tf.io = public(io_npy)
-- tf.dtypes: the op family's cast and saturate_cast, and the dtypes.
tf.dtypes.DType, tf.dtypes.as_dtype = dtypes.DType, dtypes.as_dtype
for _, name in ipairs(dtypes.names) do tf.dtypes[name] = dtypes[name] end
-- tf.help finds a value's public name by walking tf itself.
tf.help = doc.def(function(obj) return later_module("help").text(obj, tf) end, "tf.help(obj)",
  "The docstring of a function (its signature and description) as a string, then, for a public "
  .. "name, an example with what it prints and the errors it raises for bad input.")

-- Nothing silent: tf and every namespace in it (tf.nn, tf.keras.layers,
-- ...) refuse a name they lack with AttributeError, as a Python module
-- does, instead of handing Lua's nil on (strict/init.lua).
strict.namespaces(tf, "tf")

-- Made on first use (strict.later): the parts a session may never touch
-- are parsed when it does, so they cost a session that does not nothing
-- at start, and its eager ops' collections do not walk them (issue 28).
local function later(t, name, load) strict.later(t, name, load) end
local function field(module, key)
  return function() return later_module(module)[key] end
end

later(tf, "keras", function()
  local models = later_module("keras_models")
  local k = ops.join_namespaces(later_module("keras"), later_module("keras_layers"), "tf.keras")
  -- Keras parts (issue 27): the layers of layers_core.lua and layers_rnn.lua.
  k = ops.join_namespaces(k, later_module("keras_layers_core"), "tf.keras")
  k = ops.join_namespaces(k, later_module("keras_layers_rnn"), "tf.keras")
  k = ops.join_namespaces(k, models.namespaces, "tf.keras")
  for key, v in pairs(models.top) do k[key] = v end
  return k
end)
later(tf, "Module", field("keras_module", "Module"))
-- The string families (moonflow.ops loads them on first use too).
later(tf, "strings", function() return ops.strings end)
later(tf, "as_string", function() return ops.as_string end)
later(tf.io, "decode_raw", function() return ops.io.decode_raw end)
later(tf.io, "decode_csv", field("data", "decode_csv"))
later(tf, "data", function() return public(later_module("data")) end)
later(tf, "saved_model", function()
  local saved_model = later_module("saved_model")
  return { save = saved_model.save, load = saved_model.load, SaveOptions = saved_model.SaveOptions }
end)
later(tf, "train", function() return { Checkpoint = later_module("saved_model").Checkpoint } end)
later(tf, "onnx", function() return public(later_module("onnx")) end)
-- moonflow's own: see inside a traced function (issue 29)
later(tf, "debug", function() return later_module("debug") end)
-- Ragged tensors (tensor/ragged.lua).
later(tf, "RaggedTensor", field("ragged", "RaggedTensor"))
later(tf, "RaggedTensorSpec", field("ragged", "RaggedTensorSpec"))
later(tf, "ragged", field("ragged", "ragged"))

return tf
