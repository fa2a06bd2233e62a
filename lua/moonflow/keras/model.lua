-- model.lua — tf.keras.Model and tf.keras.Sequential: a Layer that also
-- trains. Three ways to make one, as in Keras: subclass it
-- (tf.keras.Model:extend("Name") with init and call), the functional API
-- (tf.keras.Model{inputs=, outputs=}, functional.lua), or Sequential.
-- compile/fit/evaluate/predict are in training.lua, summary() in summary.lua.

local errors = require("moonflow.errors")
local doc = require("moonflow.doc")
local argcheck = require("moonflow.argcheck")
local shapes = require("moonflow.tensor.shape")
local dtypes = require("moonflow.tensor.dtypes")
local func = require("moonflow.trace.func")
local modules = require("moonflow.keras.module")
local base = require("moonflow.keras.base_layer")
local functional = require("moonflow.keras.functional")
local training = require("moonflow.keras.training")
local summary = require("moonflow.keras.summary")
local kt_mod = require("moonflow.keras.keras_tensor")
local raise = errors.raise

local M = {}

local Model = base.Layer:extend("Model")
M.Model = Model

local function is_plain(v) return type(v) == "table" and getmetatable(v) == nil end

-- Keras's validate_kwargs: a key the constructor does not take is a TypeError.
local function check_keys(opts, accepted)
  for k in pairs(opts) do
    if not accepted[k] then raise("TypeError", ("Keyword argument not understood: '%s'"):format(tostring(k)), 4) end
  end
end
local MODEL_KEYS = { inputs = true, outputs = true, name = true, trainable = true, dtype = true }
local SEQUENTIAL_KEYS = { layers = true, name = true }

doc.def(Model, "tf.keras.Model([{inputs=, outputs=, name=, trainable=}])",
  "A layer with training: compile, fit, evaluate, predict, summary, save_weights. "
  .. "tf.keras.Model{inputs=, outputs=} makes a functional model from tf.keras.Input tensors and the "
  .. "layers called on them; tf.keras.Model:extend(\"Name\") a subclass (define init, calling "
  .. "tf.keras.Model.init(self, opts), and call(inputs, {training=})). Methods (tf.help(model.fit) ...): "
  .. "compile{optimizer=, loss=, metrics=, run_eagerly=}, fit(x, y, {...}) or fit(dataset, {...}), evaluate, "
  .. "predict, train_on_batch, test_on_batch, train_step(data) (override it to customize fit), summary(), "
  .. "save_weights(path), load_weights(path), get_layers(), and the Layer's. model.train_function is fit's "
  .. "traced step (%trace, %sig, %graph show it).")

--- Model.init(self [, {inputs=, outputs=, name=, trainable=}])
function Model:init(opts)
  if opts ~= nil and not is_plain(opts) then
    raise("TypeError", "tf.keras.Model takes a table of options {inputs=, outputs=, name=}", 2)
  end
  opts = opts or {}
  check_keys(opts, MODEL_KEYS)
  local inputs, outputs = opts.inputs, opts.outputs
  base.Layer.init(self, { name = opts.name, trainable = opts.trainable, dtype = opts.dtype })
  if inputs == nil and outputs == nil then return end
  if inputs == nil or outputs == nil then
    raise("TypeError", "Functional model requires both `inputs` and `outputs`.", 2)
  end
  local nodes, layers = functional.graph(inputs, outputs)
  -- A functional model is named "model", "model_1", ... as Keras's
  -- Functional, whatever class made it (unless named).
  self.inputs = inputs
  self.outputs = outputs
  self._nodes = setmetatable(nodes, { __name = "nodes" })
  self._layers = layers
  self.layers = layers -- Keras's model.layers
  self._functional = true
  self.built = true
end

function Model:call(inputs, opts)
  if rawget(self, "_functional") then
    return functional.run(self, inputs, opts and opts.training)
  end
  raise("NotImplementedError", ("Model %s does not have a `call()` method implemented."):format(
    getmetatable(self)._class_name), 3)
end

--- model.layers: the model's layers (functional: inputs first; subclassed: the tracked sublayers).
function Model:get_layers()
  if rawget(self, "_functional") then return self._layers end
  local out = {}
  for _, m in ipairs(self:submodules()) do
    if base.is_layer(m) then
      local direct = false
      for _, k in ipairs(modules.sorted_keys(self)) do
        local v = rawget(self, k)
        if rawequal(v, m) then direct = true end
        if is_plain(v) then
          for _, w in pairs(v) do if rawequal(w, m) then direct = true end end
        end
      end
      if direct then out[#out + 1] = m end
    end
  end
  table.sort(out, function(a, b) return modules.created(a) < modules.created(b) end)
  return out
end

Model.summary = doc.def(function(self, opts)
  local print_fn = type(opts) == "table" and opts.print_fn or nil
  if not self.built and not rawget(self, "_functional") then
    raise("ValueError", "This model has not yet been built. Build the model first by calling `build()` or "
      .. "by calling the model on a batch of data.", 2)
  end
  if getmetatable(self) == M.Sequential then M.sequential_shapes(self) end
  summary.summary(self, print_fn)
end, "model:summary([{print_fn=}])", "Prints Keras's table of the model's layers: name (type), output shape, "
.. "parameter count, and the totals (trainable, non-trainable) with their size in bytes.")

-- A Sequential's layers' output shapes, batch dimension None: each layer
-- traced once on the previous one's output spec.
function M.sequential_shapes(self)
  local input = rawget(self, "_build_input_shape")
  if getmetatable(input) ~= shapes.Shape then return end
  local dims = input:as_list()
  dims[1] = shapes.None
  local spec = shapes.TensorSpec(dims, rawget(self, "_input_dtype") or dtypes.float32)
  local out = {}
  for _, l in ipairs(self.layers) do
    local cf = func.func(function(x) return l(x) end):get_concrete_function(spec)
    local o = cf.outputs[1]
    local d = o.shape:as_list()
    local parts = {}
    for i, v in ipairs(d) do parts[i] = v == shapes.None and "None" or tostring(v) end
    out[l] = #parts == 1 and "(" .. parts[1] .. ",)" or "(" .. table.concat(parts, ", ") .. ")"
    spec = shapes.TensorSpec(d, o.dtype)
  end
  rawset(self, "_sequential_shapes", setmetatable(out, { __mode = "k" }))
end

-- compile, fit, evaluate, predict, ... (training.lua).
for k, fn in pairs(training.methods) do Model[k] = fn end

-- Sequential ------------------------------------------------------------
local Sequential = Model:extend("Sequential")
M.Sequential = Sequential
rawset(Sequential, "_no_scope", true)
doc.def(Sequential, "tf.keras.Sequential([layers] [, {layers=, name=}])",
  "A model that calls its layers in order (a Model: compile, fit, summary ...). Layers may be added "
  .. "with model:add(layer). A tf.keras.Input as the first element (or the first added) gives the input's "
  .. "shape: the model is built at once (each layer built and checked against the shape before it, as "
  .. "Keras does), so summary() shows the shapes before any call.")

-- A layer added after an Input is built on the output so far: called on
-- its KerasTensor (base_layer's symbolic call builds it and gives the next).
local function build_on(self, layer)
  local x = rawget(self, "_symbolic_output")
  if x == nil then return end
  if base.is_layer(layer) then
    rawset(self, "_symbolic_output", layer(x))
  else
    rawset(self, "_symbolic_output", nil) -- a plain function: the shapes stop being known here
  end
end

local function set_input(self, input)
  rawset(self, "_build_input_shape", input.shape)
  rawset(self, "_input_dtype", input.dtype)
  rawset(self, "_symbolic_output", input)
  rawset(self, "built", true)
end

function Sequential:init(layers, opts)
  if is_plain(layers) and layers[1] == nil and next(layers) ~= nil and opts == nil then
    layers, opts = nil, layers
  end
  if opts ~= nil then
    argcheck.table(opts, "tf.keras.Sequential", "opts")
    check_keys(opts, SEQUENTIAL_KEYS)
    if layers == nil then layers = opts.layers end
  end
  if layers ~= nil then argcheck.table(layers, "tf.keras.Sequential", "layers") end
  Model.init(self, { name = opts and opts.name })
  self.layers = {}
  for i, l in ipairs(layers or {}) do
    if i == 1 and kt_mod.is_keras_tensor(l) then
      set_input(self, l)
    else
      self:add(argcheck.callable(l, "tf.keras.Sequential", "layers[" .. i .. "]"))
    end
  end
end
-- Each layer gets the mask the one before made (Keras's compute_mask):
-- a recurrent layer after Embedding(mask_zero) skips the padded steps.
function Sequential:call(x, opts)
  local mask = type(opts) == "table" and opts.mask or nil
  for _, l in ipairs(self.layers) do
    if base.is_layer(l) then
      local y = l(x, mask ~= nil and { training = opts and opts.training, mask = mask } or opts)
      mask = l:compute_mask(x, mask)
      x = y
    else
      x, mask = l(x), nil
    end
  end
  return x
end
function Sequential:add(layer)
  if #self.layers == 0 and kt_mod.is_keras_tensor(layer) and not self.built then
    set_input(self, layer)
    return
  end
  argcheck.callable(layer, "sequential:add", "layer")
  build_on(self, layer)
  self.layers[#self.layers + 1] = layer
end
function Sequential:get_layers() return self.layers end

M.internal = { internal = true }
return M
