-- keras_model: examples and errors for the reference (docs/reference.md and %help).
return {
  ["tf.keras.layers.Layer"] = {
    example = [=[
local Scale = tf.keras.layers.Layer:extend("Scale")
function Scale:build(input_shape)
  self.w = self:add_weight({ name = "w", shape = { input_shape[-1] }, initializer = "ones" })
end
function Scale:call(x) return x * self.w end
local s = Scale()
print(s(tf.constant({ { 1.0, 2.0 } })))
print(s:variables()[1].name, s:count_params())
]=],
    output = [=[
tf.Tensor([[1. 2.]], shape=(1, 2), dtype=float32)
scale/w:0	2
]=],
    errors = {
      { code = [[tf.keras.layers.Layer({ nme = "x" })]], type = "TypeError", message = "Keyword argument not understood: 'nme'" },
      { code = [[tf.keras.layers.Layer()(tf.ones({ 1 }), { training = 1 })]], type = "TypeError", message = "training must be a boolean" },
    },
  },
  ["tf.keras.Model"] = {
    example = [=[
local inputs = tf.keras.Input({ shape = { 3 } })
local ones = function(shape, dtype) return tf.ones(shape, dtype) end
local outputs = tf.keras.layers.Dense(2, { kernel_initializer = ones })(inputs)
local model = tf.keras.Model({ inputs = inputs, outputs = outputs })
print(model(tf.constant({ { 1.0, 2.0, 3.0 } })))
model:summary()
]=],
    output = [=[
tf.Tensor([[6. 6.]], shape=(1, 2), dtype=float32)
Model: "model"
_________________________________________________________________
 Layer (type)                Output Shape              Param #   
=================================================================
 input_1 (InputLayer)        [(None, 3)]               0         
                                                                 
 dense (Dense)               (None, 2)                 8         
                                                                 
=================================================================
Total params: 8 (32.00 Byte)
Trainable params: 8 (32.00 Byte)
Non-trainable params: 0 (0.00 Byte)
_________________________________________________________________
]=],
    errors = {
      { code = [[tf.keras.Model({ inputs = tf.keras.Input({ shape = { 2 } }) })]], type = "TypeError", message = "Functional model requires both `inputs` and `outputs`." },
      { code = [[tf.keras.Model({ bogus = 1 })]], type = "TypeError", message = "Keyword argument not understood: 'bogus'" },
      { code = [[local a, b = tf.keras.Input({ shape = { 2 } }), tf.keras.Input({ shape = { 2 } })
tf.keras.Model({ inputs = a, outputs = tf.keras.layers.Dense(1)(b) })]], type = "ValueError", message = "Graph disconnected: cannot obtain value for tensor" },
      { code = [[local m = tf.keras.Sequential({ tf.keras.layers.Dense(1) })
m:fit(tf.ones({ 2, 1 }), tf.ones({ 2, 1 }))]], type = "RuntimeError", message = "You must compile your model before training/testing. Use `model.compile(optimizer, loss)`." },
    },
  },
  ["tf.keras.Sequential"] = {
    example = [=[
local ones = function(shape, dtype) return tf.ones(shape, dtype) end
local model = tf.keras.Sequential({ tf.keras.layers.Dense(1, { kernel_initializer = ones }) })
model:compile({ optimizer = tf.keras.optimizers.SGD(0.05), loss = "mse" })
local x = tf.constant({ { 1.0 }, { 2.0 }, { 3.0 } })
local history = model:fit(x, 2 * x, { epochs = 3, batch_size = 3, shuffle = false, verbose = 0 })
print(#history.history.loss, history.history.loss[1])
print(model.layers[1].name)
-- opened by an Input: built at once, so summary() shows the shapes
local built = tf.keras.Sequential({ tf.keras.Input({ shape = { 4 } }), tf.keras.layers.Dense(2) })
print(built.built, #built.layers, built:count_params())
]=],
    output = [=[
3	4.6666665077209
dense
true	1	10
]=],
    errors = {
      { code = [[tf.keras.Sequential({ 3 })]], type = "TypeError", message = "layers[1]" },
      { code = [[tf.keras.Sequential():summary()]], type = "ValueError", message = "This model has not yet been built." },
      { code = [[tf.keras.Sequential({ tf.keras.layers.Dense(1) }, { nam = "x" })]], type = "TypeError", message = "Keyword argument not understood: 'nam'" },
      { code = [[tf.keras.Sequential({ tf.keras.Input({ shape = { 4 } }), tf.keras.layers.Conv2D(1, 1) })]], type = "ValueError", message = "expected min_ndim=4, found ndim=2. Full shape received: (None, 4)" },
    },
  },
  ["tf.keras.Input"] = {
    example = [=[
local x = tf.keras.Input({ shape = { 3 }, name = "features" })
print(x)
print(x.shape, x.dtype)
]=],
    output = [=[
KerasTensor(type_spec=TensorSpec(shape=(None, 3), dtype=tf.float32, name='features'), name='features', description="created by layer 'features'")
(None, 3)	tf.float32
]=],
    errors = {
      { code = [[tf.keras.Input({})]], type = "ValueError", message = "Please provide to Input a `shape`" },
      { code = [[tf.keras.Input({ shap = { 3 } })]], type = "TypeError", message = "Keyword argument not understood: 'shap'" },
    },
  },
  ["tf.keras.layers.Input"] = {
    example = [=[
print(tf.keras.layers.Input({ shape = { 2, 2 } }).shape)
]=],
    output = [=[
(None, 2, 2)
]=],
    errors = {
      { code = [[tf.keras.layers.Input({})]], type = "ValueError", message = "Please provide to Input a `shape`" },
    },
  },
  ["tf.keras.layers.InputLayer"] = {
    example = [=[
local x = tf.keras.Input({ shape = { 4 } })
local model = tf.keras.Model({ inputs = x, outputs = x })
print(model:get_layers()[1].name, model:get_layers()[1].built)
]=],
    output = [=[
input_1	true
]=],
    errors = {
      { code = [[tf.keras.layers.InputLayer(3)]], type = "TypeError", message = "tf.keras.layers.InputLayer" },
    },
  },
  ["tf.keras.backend.clear_session"] = {
    example = [=[
print(tf.keras.layers.Dense(1).name, tf.keras.layers.Dense(1).name)
tf.keras.backend.clear_session()
print(tf.keras.layers.Dense(1).name)
]=],
    output = [=[
dense	dense_1
dense
]=],
    errors = {},
  },
  ["tf.keras.callbacks.Callback"] = {
    example = [=[
local Printer = tf.keras.callbacks.Callback:extend("Printer")
function Printer:on_epoch_end(epoch, logs) print("epoch", epoch, logs.loss ~= nil) end
local model = tf.keras.Sequential({ tf.keras.layers.Dense(1) })
model:compile({ optimizer = "sgd", loss = "mse" })
model:fit(tf.ones({ 4, 1 }), tf.ones({ 4, 1 }), { epochs = 2, verbose = 0, callbacks = { Printer() } })
]=],
    output = [=[
epoch	0	true
epoch	1	true
]=],
    errors = {
      { code = [[local m = tf.keras.Sequential({ tf.keras.layers.Dense(1) })
m:compile({ optimizer = "sgd", loss = "mse" })
m:fit(tf.ones({ 2, 1 }), tf.ones({ 2, 1 }), { verbose = 0, callbacks = { 3 } })]], type = "TypeError", message = "callbacks[1] is not a tf.keras.callbacks.Callback" },
    },
  },
  ["tf.keras.callbacks.History"] = {
    example = [=[
local model = tf.keras.Sequential({ tf.keras.layers.Dense(1) })
model:compile({ optimizer = "sgd", loss = "mse" })
local history = model:fit(tf.ones({ 4, 1 }), tf.ones({ 4, 1 }), { epochs = 3, verbose = 0 })
print(#history.history.loss, history.epoch[1], history.epoch[3])
]=],
    output = [=[
3	0	2
]=],
    errors = {
      { code = [[tf.keras.callbacks.History().on_epoch_end(0, {})]], type = "TypeError", message = "call on_epoch_end with ':'" },
    },
  },
  ["tf.keras.callbacks.EarlyStopping"] = {
    example = [=[
local stop = tf.keras.callbacks.EarlyStopping({ monitor = "loss", patience = 1 })
print(stop.monitor, stop.patience, stop.mode)
print(tf.keras.callbacks.EarlyStopping({ monitor = "val_accuracy" }).mode)
]=],
    output = [=[
loss	1	min
max
]=],
    errors = {
      { code = [[tf.keras.callbacks.EarlyStopping({ mode = "maxi" })]], type = "ValueError", message = "EarlyStopping mode maxi is unknown" },
      { code = [[tf.keras.callbacks.EarlyStopping({ patiense = 2 })]], type = "TypeError", message = "patiense" },
    },
  },
  ["tf.keras.callbacks.LambdaCallback"] = {
    example = [=[
local model = tf.keras.Sequential({ tf.keras.layers.Dense(1) })
model:compile({ optimizer = "sgd", loss = "mse" })
local cb = tf.keras.callbacks.LambdaCallback({ on_train_end = function() print("done") end })
model:fit(tf.ones({ 2, 1 }), tf.ones({ 2, 1 }), { verbose = 0, callbacks = { cb } })
]=],
    output = [=[
done
]=],
    errors = {
      { code = [[tf.keras.callbacks.LambdaCallback({ on_epoch_end = 3 })]], type = "TypeError", message = "LambdaCallback: on_epoch_end must be a function" },
    },
  },
  ["tf.keras.callbacks.ModelCheckpoint"] = {
    example = [=[
local dir = os.tmpname()
os.remove(dir)
local model = tf.keras.Sequential({ tf.keras.layers.Dense(1) })
model:compile({ optimizer = "sgd", loss = "mse" })
local cb = tf.keras.callbacks.ModelCheckpoint(dir .. "_{epoch:02d}", { save_weights_only = true })
model:fit(tf.ones({ 2, 1 }), tf.ones({ 2, 1 }), { epochs = 2, verbose = 0, callbacks = { cb } })
print(io.open(dir .. "_02/saved_model.json") ~= nil)
os.execute("rm -rf " .. dir .. "_01 " .. dir .. "_02")
]=],
    output = [=[
true
]=],
    errors = {
      { code = [[tf.keras.callbacks.ModelCheckpoint(3)]], type = "TypeError", message = "ModelCheckpoint: filepath must be a string" },
    },
  },
}
