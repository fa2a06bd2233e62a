-- functional.lua — Keras's functional API: tf.keras.Input makes a symbolic
-- KerasTensor (a shape with a None batch dimension and a dtype, no value);
-- a layer called on one records a node (which layer, which inputs) and
-- returns new KerasTensors whose shapes come from tracing the layer once
-- in a scratch graph (the layer builds there, its variables lifted out as
-- tf.func's first trace lifts them). tf.keras.Model{inputs=, outputs=}
-- walks the nodes back from the outputs and replays them on real tensors.

local errors = require("moonflow.errors")
local doc = require("moonflow.doc")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local modules = require("moonflow.keras.module")
local base = require("moonflow.keras.base_layer")
local kt_mod = require("moonflow.keras.keras_tensor")
local raise = errors.raise

local F = {}

local is_kt, flatten, map, new_kt = kt_mod.is_keras_tensor, kt_mod.flatten, kt_mod.map, kt_mod.new
local Node = kt_mod.Node
F.is_keras_tensor = is_kt
F.map = map

local function is_plain(v) return type(v) == "table" and getmetatable(v) == nil end

-- InputLayer: the layer a tf.keras.Input belongs to.
local InputLayer = base.Layer:extend("InputLayer")
F.InputLayer = InputLayer
doc.def(InputLayer, "tf.keras.layers.InputLayer{shape=, name=}",
  "The layer a tf.keras.Input belongs to: the first layers of a functional model (its output is its input).")
function InputLayer:init(opts)
  if not is_plain(opts) then
    raise("TypeError", "tf.keras.layers.InputLayer takes a table of options {shape=, name=}", 2)
  end
  base.Layer.init(self, { name = opts.name })
  self.built = true
  self._input_shape = opts.shape
end
function InputLayer:call(x) return x end

F.Input = doc.def(function(opts)
  if opts ~= nil and not is_plain(opts) then
    raise("TypeError", "tf.keras.Input takes a table of options {shape=, dtype=, name=, batch_size=}", 2)
  end
  opts = opts or {}
  for k in pairs(opts) do
    if k ~= "shape" and k ~= "dtype" and k ~= "name" and k ~= "batch_size" then
      raise("TypeError", ("Keyword argument not understood: '%s'"):format(tostring(k)), 2)
    end
  end
  local shape = opts.shape
  if getmetatable(shape) == shapes.Shape then shape = shape:as_list() end
  if shape == nil then
    raise("ValueError", "Please provide to Input a `shape` or a `tensor` or a `type_spec` argument. "
      .. "Note that `shape` does not include the batch dimension.", 2)
  end
  if math.type(shape) == "integer" then shape = { shape } end
  if type(shape) ~= "table" then raise("TypeError", "tf.keras.Input: shape must be a list of integers", 2) end
  local dims = { opts.batch_size or shapes.None }
  for i = 1, #shape do dims[i + 1] = shape[i] end
  -- Keras names inputs input_1, input_2, ... (1-based, unlike layers).
  local name = opts.name or modules.unique_name("input", false)
  local layer = InputLayer({ name = name, shape = shapes.TensorShape(dims) })
  local node = setmetatable({ layer = layer, inputs = {}, outputs = nil, input_layer = true }, Node)
  local kt = new_kt(shapes.TensorShape(dims), dtypes.as_dtype(opts.dtype or "float32"), name, node, 1, name)
  node.outputs = kt
  layer._inbound = setmetatable({ node }, Node)
  return kt
end, "tf.keras.Input{shape=, dtype=, name=, batch_size=}",
"A symbolic input of a functional model: a KerasTensor whose shape is (None, *shape) (the batch "
.. "dimension unknown) and dtype (float32 by default). Call layers on it, then tf.keras.Model{inputs=, outputs=}.")

-- The nodes that compute `outputs` from `inputs`, in an order that runs
-- each after its inputs' nodes; a KerasTensor that no input reaches is
-- Keras's "Graph disconnected" ValueError.
function F.graph(inputs, outputs)
  local given = {}
  for _, kt in ipairs(flatten(inputs)) do given[kt] = true end
  local order, done, layers, layer_seen = {}, {}, {}, {}
  local function add_layer(l)
    if not layer_seen[l] then
      layer_seen[l] = true
      layers[#layers + 1] = l
    end
  end
  local function visit(kt)
    local node = kt._node
    if given[kt] then
      add_layer(node.layer)
      return
    end
    if node.input_layer then
      local accessed = {}
      for _, n in ipairs(order) do accessed[#accessed + 1] = "'" .. n.layer.name .. "'" end
      raise("ValueError", ("Graph disconnected: cannot obtain value for tensor %s at layer \"%s\". "
        .. "The following previous layers were accessed without issue: [%s]"):format(tostring(kt),
        F.consumer and F.consumer.name or node.layer.name, table.concat(accessed, ", ")), 4)
    end
    if done[node] then return end
    for _, inp in ipairs(flatten(node.inputs)) do
      local previous = F.consumer
      F.consumer = node.layer
      visit(inp)
      F.consumer = previous
    end
    done[node] = true
    order[#order + 1] = node
    add_layer(node.layer)
  end
  for _, kt in ipairs(flatten(outputs)) do
    if not is_kt(kt) then raise("TypeError", "tf.keras.Model: outputs must be KerasTensors made from tf.keras.Input", 4) end
    visit(kt)
  end
  -- Inputs never used still belong to the model (Keras lists them first).
  local ordered = {}
  for _, kt in ipairs(flatten(inputs)) do ordered[#ordered + 1] = kt._node.layer end
  for _, l in ipairs(layers) do
    if getmetatable(l) ~= InputLayer then ordered[#ordered + 1] = l end
  end
  return order, ordered
end

-- Runs the recorded nodes on real tensors.
function F.run(model, x, training)
  local values = {}
  local flat_in = flatten(model.inputs)
  if is_plain(x) and x[1] == nil and next(x) ~= nil then
    -- A table keyed by the Inputs' names, as Keras takes a dict.
    local list, names = {}, {}
    for i, kt in ipairs(flat_in) do
      names[i] = "'" .. kt._node.layer.name .. "'"
      list[i] = x[kt._node.layer.name]
    end
    for i, kt in ipairs(flat_in) do
      if list[i] == nil then
        local keys = {}
        for k in pairs(x) do keys[#keys + 1] = "'" .. tostring(k) .. "'" end
        table.sort(keys)
        raise("ValueError", ('Missing data for input "%s". You passed a data dictionary with keys [%s]. '
          .. "Expected the following keys: [%s]"):format(kt._node.layer.name, table.concat(keys, ", "),
          table.concat(names, ", ")), 4)
      end
    end
    x = #list == 1 and list[1] or list
  end
  if #flat_in == 1 then
    if is_plain(x) and #x == 1 then x = x[1] end
    values[flat_in[1]] = x
  else
    if not is_plain(x) or #x ~= #flat_in then
      raise("ValueError", ('Layer "%s" expects %d input(s), but it received %d input tensors.'):format(
        model.name, #flat_in, is_plain(x) and #x or 1), 4)
    end
    for i, kt in ipairs(flat_in) do values[kt] = x[i] end
  end
  -- Masks ride along the graph as Keras's _keras_mask does: a layer that
  -- takes one (a recurrent layer) gets its input's, compute_mask gives the next.
  local masks = {}
  for _, node in ipairs(model._nodes) do
    local args = map(node.inputs, function(kt) return values[kt] end)
    local extra = node.extra
    if node.extra_keys then args, extra = base.split_inputs(args, node.extra, node.extra_keys) end
    local in_mask = is_kt(node.inputs) and masks[node.inputs] or nil
    if in_mask ~= nil and getmetatable(node.layer)._call_options and not (extra and extra.mask ~= nil) then
      local with = { mask = in_mask }
      for k, v in pairs(extra or {}) do with[k] = v end
      extra = with
    end
    local training_arg = training
    if training_arg == nil then training_arg = node.training end
    if node.multi then
      local outs = table.pack(base.run(node.layer, args, training_arg, extra))
      for i, kt in ipairs(node.outputs) do values[kt] = outs[i] end
      masks[node.outputs[1]] = node.layer:compute_mask(args, in_mask)
    elseif is_kt(node.outputs) then
      local out = base.run(node.layer, args, training_arg, extra)
      values[node.outputs] = out
      masks[node.outputs] = node.layer:compute_mask(args, in_mask)
    else
      local out = base.run(node.layer, args, training_arg, extra)
      for k, kt in pairs(node.outputs) do values[kt] = out[k] end
    end
  end
  return map(model.outputs, function(kt) return values[kt] end)
end

F.internal = { internal = true, is_keras_tensor = true, map = true, graph = true, run = true, InputLayer = true }
return F
