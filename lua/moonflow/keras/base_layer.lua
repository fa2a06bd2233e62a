-- base_layer.lua — tf.keras.layers.Layer: the base a Keras layer (a
-- built-in one or a user's subclass) sits on. A layer is a tf.Module
-- with Keras's life cycle: `init` takes the configuration, `build(input_shape)`
-- runs once, on the first call, with the input's TensorShape and makes the
-- weights, `call(inputs, {training=})` computes. The first call runs under
-- the layer's name scope, so its variables are named as TF names them
-- ("dense/kernel:0", "my_model/dense_1/w:0" for a nested layer).
-- Calling a layer on a symbolic KerasTensor (tf.keras.Input) records a
-- node of a functional model instead of computing (functional.lua).

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local doc = require("moonflow.doc")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local ops = require("moonflow.ops")
local variables = require("moonflow.tensor.variable")
local modules = require("moonflow.keras.module")
local scopes = require("moonflow.trace.name_scope")
local state = require("moonflow.state")
local receiver = require("moonflow.receiver")
local func = require("moonflow.trace.func")
local kt_mod = require("moonflow.keras.keras_tensor")
local initializers = require("moonflow.keras.initializers")
local raise = errors.raise
local name_scope = scopes.name_scope

local base = {}

local Layer = modules.Module:extend("Layer")
modules.numbered(Layer)
base.Layer = Layer


local function is_plain(v) return type(v) == "table" and getmetatable(v) == nil end
local function is_layer(x)
  local mt = getmetatable(x)
  while type(mt) == "table" do
    if mt == Layer then return true end
    mt = rawget(mt, "_parent")
  end
  return false
end
base.is_layer = is_layer

-- The fields every layer has, whether or not a subclass's init called
-- Layer.init (Keras raises when super().__init__ is skipped; Lua code
-- that forgets it still gets a working layer).
local function ensure(self)
  if rawget(self, "_weights") == nil then rawset(self, "_weights", {}) end
  if rawget(self, "trainable") == nil then rawset(self, "trainable", true) end
  if rawget(self, "built") == nil then rawset(self, "built", false) end
end

doc.def(Layer, "tf.keras.layers.Layer([{name=, trainable=, dtype=}])",
  "The base of Keras layers. Subclass it with tf.keras.layers.Layer:extend(\"Name\") and define init "
  .. "(call tf.keras.layers.Layer.init(self, opts) in it), build(input_shape) (runs once, on the first "
  .. "call, with the input's TensorShape: make the weights there with self:add_weight), and "
  .. "call(inputs, {training=}). Names are numbered as Keras numbers them (my_layer, my_layer_1, ...). "
  .. "Methods: add_weight{name=, shape=, initializer=, trainable=, dtype=}, variables(), trainable_variables(), "
  .. "non_trainable_variables() (creation order), count_params(), get_config(), get_weights(), set_weights(values); "
  .. "layer.trainable = false freezes it.")

--- Layer.init(self [, {name=, trainable=, dtype=}]): the base's part of a subclass's init.
function Layer:init(opts)
  if opts ~= nil and not is_plain(opts) then
    raise("TypeError", "Layer.init(self, opts): opts must be a table of options, got a " .. type(opts), 2)
  end
  opts = opts or {}
  for k in pairs(opts) do
    if k ~= "name" and k ~= "trainable" and k ~= "dtype" then
      raise("TypeError", ("Keyword argument not understood: '%s'"):format(tostring(k)), 2)
    end
  end
  if opts.name ~= nil then
    if type(opts.name) ~= "string" then raise("TypeError", "a layer's name must be a string", 2) end
    rawset(self, "name", opts.name)
  end
  rawset(self, "trainable", opts.trainable ~= false)
  rawset(self, "_dtype", opts.dtype and dtypes.as_dtype(opts.dtype) or dtypes.float32)
  rawset(self, "_weights", {})
  rawset(self, "built", false)
end

-- A Keras layer's build by default makes nothing.
function Layer:build(_) end

function Layer:call(inputs)
  return inputs
end

-- A weight's initializer: keras/initializers.lua's, by Keras's string name
-- or as an object or function (Keras's default: glorot_uniform).
local function resolve_initializer(init)
  return initializers.get(init == nil and "glorot_uniform" or init)
end

-- A weight's shape: a list of non-negative integers (or a TensorShape).
local function check_shape(shape)
  if getmetatable(shape) == shapes.Shape then shape = shape:as_list() end
  if type(shape) ~= "table" or getmetatable(shape) ~= nil then
    raise("TypeError", "add_weight: shape must be a list of integers or a TensorShape, got " .. tostring(shape), 3)
  end
  for i, d in ipairs(shape) do
    if math.type(d) ~= "integer" or d < 0 then
      raise("ValueError", ("add_weight: shape[%d] must be a non-negative integer, got %s"):format(i, tostring(d)), 3)
    end
  end
  return shape
end

--- layer:add_weight{name=, shape=, initializer=, trainable=, dtype=} -> a tf.Variable the layer tracks.
Layer.add_weight = doc.def(function(self, opts)
  ensure(self)
  if opts ~= nil and not is_plain(opts) then
    raise("TypeError", "add_weight takes a table of options {name=, shape=, initializer=, trainable=, dtype=}", 2)
  end
  opts = opts or {}
  for k in pairs(opts) do
    if k ~= "name" and k ~= "shape" and k ~= "initializer" and k ~= "trainable" and k ~= "dtype" then
      raise("TypeError", ("add_weight() got an unexpected keyword argument '%s'"):format(tostring(k)), 2)
    end
  end
  local shape = check_shape(opts.shape or {})
  local dtype = opts.dtype and dtypes.as_dtype(opts.dtype) or rawget(self, "_dtype") or dtypes.float32
  local init = resolve_initializer(opts.initializer)
  local trainable = opts.trainable ~= false
  -- Made outside the layer's call (in init), the weight still takes the
  -- layer's name scope, as Keras's add_weight does.
  local scope = not rawget(self, "_in_call") and name_scope(self.name .. "/") or nil
  local v = variables.Variable(function() return init(shape, dtype) end,
    { name = opts.name or "Variable", trainable = trainable, dtype = dtype })
  if scope then scope:close() end
  local made = self._weights
  made[#made + 1] = v
  return v
end, "layer:add_weight{name=, shape=, initializer=, trainable=, dtype=}",
"Makes a weight the layer owns: a tf.Variable named under the layer ('dense/kernel:0'), initialized by "
.. "initializer (a function (shape, dtype) or a Keras name: 'glorot_uniform' (default), 'zeros', 'ones', "
.. "...), trainable unless trainable = false.")

-- Variables -------------------------------------------------------------
-- Keras lists a layer's weights in creation order, a frozen sublayer's
-- (trainable = false) among the non-trainable ones: walk the layer tree
-- (module.lua's walk: fields, tables, submodules), then order by creation.
local function walk(obj, frozen, out, seen)
  seen[obj] = true
  local own_frozen = frozen or (is_layer(obj) and rawget(obj, "trainable") == false)
  local function visit(v)
    if variables.is_variable(v) then
      if not seen[v] then
        seen[v] = true
        out[#out + 1] = { v = v, frozen = own_frozen }
      end
    elseif type(v) == "table" and not seen[v] then
      if modules.is_module(v) then
        walk(v, own_frozen, out, seen)
      elseif getmetatable(v) == nil then
        seen[v] = true
        for _, k in ipairs(modules.sorted_keys(v)) do visit(rawget(v, k)) end
      end
    end
  end
  for _, k in ipairs(modules.sorted_keys(obj)) do
    -- A compiled model's optimizer (its slots) is not the model's.
    if k ~= "_inbound" and k ~= "optimizer" then visit(rawget(obj, k)) end
  end
  return out
end

local function gather(self, pick)
  local found = walk(self, false, {}, {})
  table.sort(found, function(a, b) return a.v.id < b.v.id end)
  local out = {}
  for _, e in ipairs(found) do
    if pick(e) then out[#out + 1] = e.v end
  end
  return out
end

Layer.variables = doc.def(function(self)
  return gather(self, function() return true end)
end, "layer:variables()", "All the layer's weights and its sublayers', in creation order (Keras's layer.weights).")
Layer.weights = Layer.variables
Layer.trainable_variables = doc.def(function(self)
  return gather(self, function(e) return e.v.trainable and not e.frozen end)
end, "layer:trainable_variables()",
"The trainable weights, in creation order; none when the layer (or the sublayer holding them) has trainable = false.")
Layer.trainable_weights = Layer.trainable_variables
Layer.non_trainable_variables = doc.def(function(self)
  return gather(self, function(e) return not e.v.trainable or e.frozen end)
end, "layer:non_trainable_variables()",
"The weights that training leaves alone: non-trainable ones and all of a frozen (trainable = false) layer's.")
Layer.non_trainable_weights = Layer.non_trainable_variables

-- These override the methods every module has and answer as a module's.
for _, k in ipairs({ "variables", "trainable_variables", "non_trainable_variables" }) do
  rawset(Layer, k, receiver.guard(rawget(Layer, k), k, "module", "Module", modules.is_module))
end

-- Masks (Keras's): a layer that supports masking passes its input's mask
-- on; one that does not ends it. Embedding(mask_zero) and Masking make
-- masks, the recurrent layers and GlobalAveragePooling1D use them;
-- Sequential and functional models carry them from layer to layer.
Layer.supports_masking = false
Layer.compute_mask = doc.def(function(self, _, mask)
  if self.supports_masking then return mask end
  return nil
end, "layer:compute_mask(inputs [, mask])",
"The mask of the layer's output for these inputs and their mask (a bool tensor, true where a step counts): "
.. "the input's mask for a layer that supports masking (layer.supports_masking: Dense, Dropout, Activation, "
.. "...), nil for one that does not; Embedding(mask_zero) and Masking make one, a recurrent layer keeps it "
.. "with return_sequences. Sequential and functional models pass the masks along by themselves.")

Layer.count_params = doc.def(function(self)
  local n = 0
  for _, v in ipairs(self:variables()) do n = n + shapes.num_elements(v.shape:as_list()) end
  return n
end, "layer:count_params()", "The number of scalars in the layer's weights.")

Layer.get_config = doc.def(function(self)
  ensure(self)
  return { name = self.name, trainable = self.trainable, dtype = (rawget(self, "_dtype") or dtypes.float32).name }
end, "layer:get_config()", "The layer's configuration as a table: name, trainable, dtype (subclasses add theirs).")

Layer.get_weights = doc.def(function(self)
  local out = {}
  for i, v in ipairs(self:variables()) do out[i] = v:numpy() end
  return out
end, "layer:get_weights()", "The weights' values as Lua tables (v:numpy()), in creation order.")

Layer.set_weights = doc.def(function(self, values)
  local vars = self:variables()
  if type(values) ~= "table" or #values ~= #vars then
    raise("ValueError", ("You called `set_weights(weights)` on layer \"%s\" with a weight list of length %s, "
      .. "but the layer was expecting %d weights."):format(self.name, type(values) == "table" and #values or "?", #vars), 2)
  end
  for i, v in ipairs(vars) do v:assign(values[i]) end
end, "layer:set_weights(values)", "Assigns each weight (creation order) from a list of values (get_weights's form).")

-- Calling ----------------------------------------------------------------
-- Keras's training argument: layer(x, true) or layer(x, {training = true}).
-- A layer class may accept more options of the call (the recurrent
-- layers' initial_state) in its _call_options; they are returned apart,
-- with a mask, which such a layer's call judges itself.
local function training_of(arg, self)
  local extra
  if is_plain(arg) then
    local more = getmetatable(self)._call_options
    for k, v in pairs(arg) do
      if more and (more[k] or k == "mask") then
        extra = extra or {}
        extra[k] = v
      elseif k ~= "training" and k ~= "mask" then
        local accepted = { "training", "mask" }
        for name in pairs(more or {}) do accepted[#accepted + 1] = name end
        table.sort(accepted)
        raise("TypeError", ("%s.call() got an unexpected keyword argument '%s'. Accepted options: %s.")
          :format(getmetatable(self)._class_name, tostring(k), table.concat(accepted, ", ")), 3)
      end
    end
    arg = arg.training
  end
  if arg ~= nil and type(arg) ~= "boolean" then
    raise("TypeError", "training must be a boolean, got a " .. type(arg), 3)
  end
  return arg, extra
end

local function is_tensorish(x) return core.is_tensor(x) or variables.is_variable(x) end

-- Inputs: a tensor, a list or table of inputs (several tensors), or a
-- Lua table of numbers (one tensor).
local function prepare(x)
  if is_tensorish(x) then return x end
  if is_plain(x) then
    local nested = false
    for _, v in pairs(x) do
      if is_tensorish(v) or (is_plain(v) and v[1] == nil and next(v) ~= nil) then nested = true end
    end
    if not nested then return ops.convert_to_tensor(x) end
    local out = {}
    for k, v in pairs(x) do out[k] = prepare(v) end
    return out
  end
  return ops.convert_to_tensor(x)
end

local function shape_of(x)
  if is_tensorish(x) then return x.shape end
  if is_plain(x) then
    local out = {}
    for k, v in pairs(x) do out[k] = shape_of(v) end
    return out
  end
  return nil
end
base.shape_of = shape_of

-- A layer that declares input_axes (Dense: {[-1] = in_features}) checks
-- every input against them after build, as Keras's InputSpec does.
local function check_input_spec(self, x)
  local axes = rawget(self, "_input_axes")
  if not axes or not is_tensorish(x) then return end
  local dims = x.shape:as_list()
  for axis, want in pairs(axes) do
    local d = dims[axis < 0 and #dims + axis + 1 or axis + 1]
    if d ~= nil and d ~= shapes.None and d ~= want then
      raise("ValueError", ('Input 0 of layer "%s" is incompatible with the layer: expected axis %d of '
        .. "input shape to have value %d, but received input with shape %s"):format(self.name, axis, want,
        tostring(x.shape)), 4)
    end
  end
end

local function run(self, inputs, training, extra)
  ensure(self)
  -- Sequential's layers are named as their own (dense/kernel:0), a
  -- subclassed model's under it (my_model/dense/kernel:0), as Keras does.
  local scope <close> = not rawget(getmetatable(self), "_no_scope") and name_scope(self.name) or nil
  rawset(self, "_in_call", true)
  local _ <close> = setmetatable({}, { __close = function() rawset(self, "_in_call", nil) end })
  if not self.built then
    -- Keras builds in the init scope (tf_utils.maybe_init_scope): a
    -- build first met while tracing makes its variables eagerly, under
    -- the name scope open in the graph.
    local prefix = scopes.current_prefix()
    local input_shape = shape_of(inputs)
    state.in_eager_scope(function()
      local s <close> = prefix ~= "" and name_scope(prefix) or nil
      self:build(input_shape)
    end)
    rawset(self, "built", true)
    rawset(self, "_build_input_shape", shape_of(inputs))
  end
  check_input_spec(self, inputs)
  local call_opts = { training = training }
  for k, v in pairs(extra or {}) do call_opts[k] = v end
  return self:call(inputs, call_opts)
end
base.run = run

-- A layer called on KerasTensors: trace it once in a scratch graph for
-- the output shapes (building it), and record the node.
local flatten, map, new_kt, Node = kt_mod.flatten, kt_mod.map, kt_mod.new, kt_mod.Node
local function symbolic_call(layer, inputs, training, extra)
  -- Options holding KerasTensors (a decoder's initial_state) join the
  -- node's inputs after the call's own, so the model's graph reaches them.
  local extra_keys = {}
  for _, k in ipairs(modules.sorted_keys(extra or {})) do
    if kt_mod.is_symbolic(extra[k]) then extra_keys[#extra_keys + 1] = k end
  end
  local call_inputs = inputs
  if #extra_keys > 0 then
    inputs = { inputs }
    for i, k in ipairs(extra_keys) do inputs[i + 1] = extra[k] end
  end
  local flat = flatten(inputs)
  local specs = {}
  for i, kt in ipairs(flat) do specs[i] = shapes.TensorSpec(kt.shape:as_list(), kt.dtype) end
  local function rebuild(args)
    local i = 0
    return map(inputs, function() i = i + 1; return args[i] end)
  end
  local probe = func.func(function(...)
    local args = rebuild({ ... })
    if #extra_keys == 0 then return run(layer, args, training, extra) end
    local call_args, merged = base.split_inputs(args, extra, extra_keys)
    return run(layer, call_args, training, merged)
  end)
  local cf = probe:get_concrete_function(table.unpack(specs))
  local node = setmetatable({ layer = layer, inputs = inputs, training = training, extra = extra,
    extra_keys = #extra_keys > 0 and extra_keys or nil, call_inputs = call_inputs }, Node)
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
  -- A call with several results (an RNN's return_state) gives as many
  -- KerasTensors; the node keeps them as a list.
  local structure = cf.structured_outputs
  local n = structure.n or #structure
  if n > 1 then
    local outs = {}
    for i = 1, n do outs[i] = convert(structure[i]) end
    node.outputs, node.multi = outs, true
  else
    node.outputs = convert(structure[1])
  end
  local inbound = rawget(layer, "_inbound") or setmetatable({}, Node)
  inbound[#inbound + 1] = node
  rawset(layer, "_inbound", inbound)
  if node.multi then return table.unpack(node.outputs) end
  return node.outputs
end


--- The call's inputs and options from a node's inputs whose tail holds
--- the options' KerasTensors' values (symbolic_call's layout).
function base.split_inputs(args, extra, extra_keys)
  local merged = {}
  for k, v in pairs(extra) do merged[k] = v end
  for i, k in ipairs(extra_keys) do merged[k] = args[i + 1] end
  return args[1], merged
end

Layer.__call = function(self, inputs, opts)
  local training, extra = training_of(opts, self)
  if kt_mod.is_symbolic(inputs) then return symbolic_call(self, inputs, training, extra) end
  return run(self, prepare(inputs), training, extra)
end

base.internal = { internal = true, is_layer = true, run = true, shape_of = true, split_inputs = true }
return base
