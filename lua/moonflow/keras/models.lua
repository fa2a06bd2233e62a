-- models.lua — the part of tf.keras that models and training make
-- (tf.lua joins it to keras/init.lua's and keras/layers.lua's):
-- tf.keras.Model, Sequential and Input (model.lua, functional.lua),
-- tf.keras.layers.Layer, Input and InputLayer (base_layer.lua,
-- functional.lua), tf.keras.callbacks (callbacks.lua) and
-- tf.keras.backend.clear_session.

local doc = require("moonflow.doc")
local modules = require("moonflow.keras.module")
local base = require("moonflow.keras.base_layer")
local functional = require("moonflow.keras.functional")
local model = require("moonflow.keras.model")
local callbacks = require("moonflow.keras.callbacks")

local M = {}

-- tf.keras's own names.
M.top = { Model = model.Model, Sequential = model.Sequential, Input = functional.Input }

-- Names inside tf.keras's namespaces.
M.namespaces = {
  layers = { Layer = base.Layer, InputLayer = functional.InputLayer, Input = functional.Input },
  callbacks = {},
  backend = {
    clear_session = doc.def(function() modules.reset_names() end, "tf.keras.backend.clear_session()",
      "Starts Keras's layer names afresh: the next Dense is 'dense' again, the next Input 'input_1'."),
  },
}
for _, k in ipairs({ "Callback", "History", "EarlyStopping", "LambdaCallback", "ModelCheckpoint" }) do
  M.namespaces.callbacks[k] = callbacks[k]
end

return M
