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
local func = require("moonflow.trace.func")
local base = require("moonflow.keras.base_layer")
local raise = errors.raise

local F = {}

local KerasTensor = { __name = "KerasTensor" }
KerasTensor.__index = KerasTensor
local Node = { __name = "Node" } -- a metatable: module walks skip nodes

local function is_kt(x) return getmetatable(x) == KerasTensor end
F.is_keras_tensor = is_kt

local function is_plain(v) return type(v) == "table" and getmetatable(v) == nil end

-- KerasTensors in a nest (a KerasTensor or a list of them), flattened.
local function flatten(x, out)
  out = out or {}
  if is_kt(x) then
    out[#out + 1] = x
  elseif is_plain(x) then
    for _, v in ipairs(x) do flatten(v, out) end
  end
  return out
end

local function is_symbolic(x)
  if is_kt(x) then return true end
  if is_plain(x) then
    for _, v in ipairs(x) do if is_symbolic(v) then return true end end
  end
  return false
end

local function spec_text(kt)
  return ("TensorSpec(shape=%s, dtype=tf.%s, name=%s)"):format(tostring(kt.shape), kt.dtype.name,
    kt.spec_name and ("'" .. kt.spec_name .. "'") or "None")
end

-- str(): KerasTensor(type_spec=..., name=..., description=...) as Keras 2 prints it.
KerasTensor.__tostring = function(kt)
  local layer = kt._node and kt._node.layer
  return ("KerasTensor(type_spec=%s, name='%s'%s)"):format(spec_text(kt), kt.name,
    layer and (", description=\"created by layer '%s'\""):format(layer.name) or "")
end
-- repr(): what the REPL shows.
KerasTensor.__repr = function(kt)
  local layer = kt._node and kt._node.layer
  return ("<KerasTensor: shape=%s dtype=%s%s>"):format(tostring(kt.shape), kt.dtype.name,
    layer and (" (created by layer '%s')"):format(layer.name) or "")
end

local function new_kt(shape, dtype, name, node, index, spec_name)
  return setmetatable({ shape = shape, dtype = dtype, name = name, _node = node, _index = index,
    spec_name = spec_name }, KerasTensor)
end

-- Replaces each KerasTensor of a nest by f(kt).
local function map(x, f)
  if is_kt(x) then return f(x) end
  if is_plain(x) then
    local out = {}
    for k, v in pairs(x) do out[k] = map(v, f) end
    return out
  end
  return x
end
F.map = map

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

local input_count = 0
table.insert(require("moonflow.keras.module").reset_hooks, function() input_count = 0 end)
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
  local name = opts.name
  if name == nil then
    input_count = input_count + 1
    name = "input_" .. input_count
  end
  local layer = InputLayer({ name = name, shape = shapes.TensorShape(dims) })
  local node = setmetatable({ layer = layer, inputs = {}, outputs = nil, input_layer = true }, Node)
  local kt = new_kt(shapes.TensorShape(dims), dtypes.as_dtype(opts.dtype or "float32"), name, node, 1, name)
  node.outputs = kt
  layer._inbound = setmetatable({ node }, Node)
  return kt
end, "tf.keras.Input{shape=, dtype=, name=, batch_size=}",
"A symbolic input of a functional model: a KerasTensor whose shape is (None, *shape) (the batch "
.. "dimension unknown) and dtype (float32 by default). Call layers on it, then tf.keras.Model{inputs=, outputs=}.")

-- A layer called on KerasTensors: trace it once in a scratch graph for
-- the output shapes (building it), and record the node.
function base.symbolic.call(layer, inputs, training)
  local flat = flatten(inputs)
  local specs = {}
  for i, kt in ipairs(flat) do specs[i] = shapes.TensorSpec(kt.shape:as_list(), kt.dtype) end
  local function rebuild(args)
    local i = 0
    return map(inputs, function() i = i + 1; return args[i] end)
  end
  local probe = func.func(function(...)
    return base.run(layer, rebuild({ ... }), training)
  end)
  local cf = probe:get_concrete_function(table.unpack(specs))
  local node = setmetatable({ layer = layer, inputs = inputs, training = training }, Node)
  local graph_outputs = cf.outputs
  local index = 0
  -- Named after the op that made it in the scratch graph, as Keras names
  -- a KerasTensor ('dense/BiasAdd:0'), not after the trace's output Identity.
  local function name_of(t)
    local ok, name = pcall(function()
      local op = t.op
      if op and op.type == "Identity" and op.inputs[1] then return op.inputs[1].name end
      return t.name
    end)
    return ok and name or t.name
  end
  local function wrap(t)
    index = index + 1
    return new_kt(t.shape, t.dtype, name_of(t), node, index)
  end
  -- The trace's output structure: tensor leaves index its outputs.
  local function convert(s)
    if type(s) ~= "table" then return nil end
    if s.kind == "tensor" then return wrap(graph_outputs[s.index]) end
    local res = {}
    for i, v in ipairs(s.array or {}) do res[i] = convert(v) end
    if type(s.map) == "table" then
      for k, v in pairs(s.map) do if type(k) == "string" then res[k] = convert(v) end end
    end
    return res
  end
  node.outputs = convert(cf.structured_outputs[1])
  local inbound = rawget(layer, "_inbound") or setmetatable({}, Node)
  inbound[#inbound + 1] = node
  rawset(layer, "_inbound", inbound)
  return node.outputs
end
base.symbolic.is_symbolic = is_symbolic

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
  for _, node in ipairs(model._nodes) do
    local args = map(node.inputs, function(kt) return values[kt] end)
    local training_arg = training
    if training_arg == nil then training_arg = node.training end
    local out = base.run(node.layer, args, training_arg)
    if is_kt(node.outputs) then
      values[node.outputs] = out
    else
      for k, kt in pairs(node.outputs) do values[kt] = out[k] end
    end
  end
  return map(model.outputs, function(kt) return values[kt] end)
end

F.internal = { internal = true, is_keras_tensor = true, map = true, graph = true, run = true, InputLayer = true }
return F
