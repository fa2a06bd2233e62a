-- keras_training: examples and errors for the reference (docs/reference.md and %help).
return {
  ["tf.keras.losses.BinaryCrossentropy"] = {
    example = [[
local bce = tf.keras.losses.BinaryCrossentropy()
print(bce({{0, 1}, {0, 0}}, {{0.6, 0.4}, {0.4, 0.6}}))
print(tf.keras.losses.BinaryCrossentropy({from_logits = true})({{0, 1}}, {{-18.6, 0.51}}))
]],
    output = [[
tf.Tensor(0.81492424, shape=(), dtype=float32)
tf.Tensor(0.23515666, shape=(), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.losses.BinaryCrossentropy(true)({{0, 1, 0}}, {{0.5, 0.5}})]], type = "ValueError", message = "logits and labels must have the same shape, received ((1, 2) vs (1, 3))." },
      { code = [[tf.keras.losses.BinaryCrossentropy({reduction = "mean"})]], type = "ValueError", message = "Invalid Reduction Key: mean." },
    },
  },
  ["tf.keras.losses.Huber"] = {
    example = [[
local h = tf.keras.losses.Huber()
print(h({{0, 1}, {0, 0}}, {{0.6, 0.4}, {0.4, 0.6}}))
print(h({{0, 1}, {0, 0}}, {{0.6, 0.4}, {0.4, 0.6}}, {1, 0}))
]],
    output = [[
tf.Tensor(0.155, shape=(), dtype=float32)
tf.Tensor(0.09, shape=(), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.losses.Huber("one")]], type = "TypeError", message = "delta must be a number" },
    },
  },
  ["tf.keras.losses.Loss"] = {
    example = [[
local Abs = tf.keras.losses.Loss:extend("Abs")
function Abs:call(y_true, y_pred) return tf.reduce_mean(tf.abs(y_pred - y_true), -1) end
print(Abs()({{1.0, 2.0}}, {{0.0, 4.0}}))
]],
    output = [[
tf.Tensor(1.5, shape=(), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.losses.Loss()({1.0}, {1.0})]], type = "NotImplementedError", message = "Must be implemented in subclasses." },
      { code = [[tf.keras.losses.Loss("mean")]], type = "ValueError", message = "Invalid Reduction Key: mean." },
    },
  },
  ["tf.keras.losses.MeanAbsoluteError"] = {
    example = [[
local mae = tf.keras.losses.MeanAbsoluteError()
print(mae({{0, 1}, {0, 0}}, {{1, 1}, {1, 0}}))
print(tf.keras.losses.MeanAbsoluteError("none")({{0, 1}, {0, 0}}, {{1, 1}, {1, 0}}))
]],
    output = [[
tf.Tensor(0, shape=(), dtype=int32)
tf.Tensor([0 0], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.keras.losses.MeanAbsoluteError("avg")]], type = "ValueError", message = "Invalid Reduction Key: avg." },
    },
  },
  ["tf.keras.losses.Reduction"] = {
    example = [[
print(tf.keras.losses.Reduction.SUM_OVER_BATCH_SIZE)
print(tf.keras.losses.MeanSquaredError(tf.keras.losses.Reduction.SUM)({{0, 1}, {0, 0}}, {{1, 1}, {1, 0}}))
]],
    output = [[
sum_over_batch_size
tf.Tensor(0, shape=(), dtype=int32)
]],
    errors = {
    },
  },
  ["tf.keras.losses.binary_crossentropy"] = {
    example = [[
print(tf.keras.losses.binary_crossentropy({{0, 1}, {0, 0}}, {{0.6, 0.4}, {0.4, 0.6}}))
]],
    output = [[
tf.Tensor([0.9162905  0.71355796], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.losses.binary_crossentropy({{0, 1}}, {{1.0, 2.0}}, true, 0, 5)]], type = "InvalidArgumentError", message = "Invalid reduction dimension (5 for input with 2 dimension(s)" },
    },
  },
  ["tf.keras.losses.get"] = {
    example = [[
print(tf.keras.losses.get("mse") == tf.keras.losses.mean_squared_error)
print(tf.keras.losses.get("SparseCategoricalCrossentropy").name)
]],
    output = [[
true
sparse_categorical_crossentropy
]],
    errors = {
      { code = [[tf.keras.losses.get("msee")]], type = "ValueError", message = "Unknown loss function: 'msee'" },
    },
  },
  ["tf.keras.losses.huber"] = {
    example = [[
print(tf.keras.losses.huber({{0.0, 3.0}}, {{0.5, 0.0}}, 1.0))
]],
    output = [[
tf.Tensor([1.3125], shape=(1,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.losses.huber({{0.0, 1.0}}, {{1.0, 2.0, 3.0}})]], type = "InvalidArgumentError", message = "Incompatible shapes" },
    },
  },
  ["tf.keras.losses.mae"] = {
    example = [[
print(tf.keras.losses.mae({{0.0, 1.0}}, {{1.0, 3.0}}))
]],
    output = [[
tf.Tensor([1.5], shape=(1,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.losses.mae({{0.0, 1.0}}, {{1.0, 2.0, 3.0}})]], type = "InvalidArgumentError", message = "Incompatible shapes" },
    },
  },
  ["tf.keras.losses.mean_absolute_error"] = {
    example = [[
print(tf.keras.losses.mean_absolute_error({{0.0, 1.0}}, {{1.0, 3.0}}))
]],
    output = [[
tf.Tensor([1.5], shape=(1,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.losses.mean_absolute_error({{0.0, 1.0}}, {{1.0, 2.0, 3.0}})]], type = "InvalidArgumentError", message = "Incompatible shapes" },
    },
  },
  ["tf.keras.losses.mse"] = {
    example = [[
print(tf.keras.losses.mse({{0.0, 1.0}}, {{1.0, 3.0}}))
]],
    output = [[
tf.Tensor([2.5], shape=(1,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.losses.mse({{0.0, 1.0}}, {{1.0, 2.0, 3.0}})]], type = "InvalidArgumentError", message = "Incompatible shapes" },
    },
  },
  ["tf.keras.metrics.AUC"] = {
    example = [[
local m = tf.keras.metrics.AUC({num_thresholds = 3})
m:update_state({0, 0, 1, 1}, {0, 0.5, 0.3, 0.9})
print(m:result())
]],
    output = [[
tf.Tensor(0.75, shape=(), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.metrics.AUC(1)]], type = "ValueError", message = "Argument `num_thresholds` must be an integer > 1. Received: num_thresholds=1" },
    },
  },
  ["tf.keras.metrics.Accuracy"] = {
    example = [[
local m = tf.keras.metrics.Accuracy()
m:update_state({{1}, {2}, {3}, {4}}, {{0}, {2}, {3}, {4}})
print(m:result())
m:reset_state()
m:update_state({{1}, {2}, {3}, {4}}, {{0}, {2}, {3}, {4}}, {1, 1, 0, 0})
print(m:result())
]],
    output = [[
tf.Tensor(0.75, shape=(), dtype=float32)
tf.Tensor(0.5, shape=(), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.metrics.Accuracy():update_state({1, 2}, {1, 2, 3})]], type = "ValueError", message = "Shapes (2,) and (3,) are incompatible" },
    },
  },
  ["tf.keras.metrics.BinaryAccuracy"] = {
    example = [[
local m = tf.keras.metrics.BinaryAccuracy()
m:update_state({{1}, {1}, {0}, {0}}, {{0.98}, {1}, {0}, {0.6}})
print(m:result())
]],
    output = [[
tf.Tensor(0.75, shape=(), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.metrics.BinaryAccuracy({threshhold = 0.7})]], type = "TypeError", message = "unexpected keyword argument 'threshhold'" },
    },
  },
  ["tf.keras.metrics.CategoricalAccuracy"] = {
    example = [[
local m = tf.keras.metrics.CategoricalAccuracy()
m:update_state({{0, 0, 1}, {0, 1, 0}}, {{0.1, 0.9, 0.8}, {0.05, 0.95, 0}})
print(m:result())
]],
    output = [[
tf.Tensor(0.5, shape=(), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.metrics.CategoricalAccuracy({bogus = 1})]], type = "TypeError", message = "unexpected keyword argument 'bogus'" },
    },
  },
  ["tf.keras.metrics.Mean"] = {
    example = [[
local m = tf.keras.metrics.Mean()
m:update_state({1, 3, 5, 7})
print(m:result())
m:reset_state()
m:update_state({1, 3, 5, 7}, {1, 1, 0, 0})
print(m:result(), m.total, m.count)
]],
    output = [[
tf.Tensor(4.0, shape=(), dtype=float32)
tf.Tensor(2.0, shape=(), dtype=float32)	<tf.Variable 'total:0' shape=() dtype=float32, numpy=4.0>	<tf.Variable 'count:0' shape=() dtype=float32, numpy=2.0>
]],
    errors = {
      { code = [[tf.keras.metrics.Mean():update_state({1, 3}, {1, 1, 1})]], type = "InvalidArgumentError", message = "" },
    },
  },
  ["tf.keras.metrics.MeanAbsoluteError"] = {
    example = [[
local m = tf.keras.metrics.MeanAbsoluteError()
m:update_state({{0, 1}, {0, 0}}, {{1, 1}, {0, 0}})
print(m:result())
]],
    output = [[
tf.Tensor(0.25, shape=(), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.metrics.MeanAbsoluteError():update_state({{0, 1}}, {{1, 1, 1}})]], type = "InvalidArgumentError", message = "Incompatible shapes" },
    },
  },
  ["tf.keras.metrics.MeanMetricWrapper"] = {
    example = [[
local m = tf.keras.metrics.MeanMetricWrapper(tf.keras.metrics.binary_accuracy, "bin")
m:update_state({{1}, {0}}, {{0.9}, {0.8}})
print(m.name, m:result())
]],
    output = [[
bin	tf.Tensor(0.5, shape=(), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.metrics.MeanMetricWrapper("accuracy")]], type = "TypeError", message = "fn must be a function" },
    },
  },
  ["tf.keras.metrics.MeanSquaredError"] = {
    example = [[
local m = tf.keras.metrics.MeanSquaredError()
m:update_state({{0, 1}, {0, 0}}, {{1, 1}, {0, 0}})
print(m:result())
]],
    output = [[
tf.Tensor(0.25, shape=(), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.metrics.MeanSquaredError():update_state({{0, 1}}, {{1, 1, 1}})]], type = "InvalidArgumentError", message = "Incompatible shapes" },
    },
  },
  ["tf.keras.metrics.Metric"] = {
    example = [[
local Count = tf.keras.metrics.Metric:extend("Count")
function Count:init() self.n = tf.Variable(0.0, {trainable = false}) end
function Count:update_state(x) self.n:assign_add(tf.cast(tf.size(x), tf.float32)) end
function Count:result() return self.n:read_value() end
local c = Count()
c:update_state({1, 2, 3})
print(c:result())
]],
    output = [[
tf.Tensor(3.0, shape=(), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.metrics.Metric()]], type = "TypeError", message = "Can't instantiate abstract class Metric with abstract methods result, update_state" },
    },
  },
  ["tf.keras.metrics.SparseCategoricalAccuracy"] = {
    example = [[
local m = tf.keras.metrics.SparseCategoricalAccuracy()
m:update_state({{2}, {1}}, {{0.1, 0.6, 0.3}, {0.05, 0.95, 0}})
print(m:result())
]],
    output = [[
tf.Tensor(0.5, shape=(), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.metrics.SparseCategoricalAccuracy():update_state({1, 2, 0}, {{0.1, 0.9}, {0.9, 0.1}})]], type = "InvalidArgumentError", message = "Incompatible shapes" },
    },
  },
  ["tf.keras.metrics.accuracy"] = {
    example = [[
print(tf.keras.metrics.accuracy({1, 2, 3}, {1, 0, 3}))
]],
    output = [[
tf.Tensor([1. 0. 1.], shape=(3,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.metrics.accuracy({1, 2}, {1, 2, 3})]], type = "ValueError", message = "Shapes (2,) and (3,) are incompatible" },
    },
  },
  ["tf.keras.metrics.binary_accuracy"] = {
    example = [[
print(tf.keras.metrics.binary_accuracy({{1, 1}, {0, 0}}, {{0.9, 0.2}, {0.1, 0.7}}))
]],
    output = [[
tf.Tensor([0.5 0.5], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.metrics.binary_accuracy({{1, 1}}, {{0.9, 0.2, 0.3}})]], type = "InvalidArgumentError", message = "Incompatible shapes" },
    },
  },
  ["tf.keras.metrics.binary_crossentropy"] = {
    example = [[
print(tf.keras.metrics.binary_crossentropy({{0, 1}}, {{0.5, 0.5}}))
]],
    output = [[
tf.Tensor([0.69314694], shape=(1,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.metrics.binary_crossentropy({{0, 1}}, {{1.0, 2.0, 3.0}}, true)]], type = "ValueError", message = "logits and labels must have the same shape" },
    },
  },
  ["tf.keras.metrics.categorical_accuracy"] = {
    example = [[
print(tf.keras.metrics.categorical_accuracy({{0, 0, 1}, {0, 1, 0}}, {{0.1, 0.9, 0.8}, {0.05, 0.95, 0}}))
]],
    output = [[
tf.Tensor([0. 1.], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.metrics.categorical_accuracy({{0, 1}, {1, 0}, {1, 0}}, {{0.1, 0.9}, {0.9, 0.1}})]], type = "InvalidArgumentError", message = "Incompatible shapes" },
    },
  },
  ["tf.keras.metrics.categorical_crossentropy"] = {
    example = [[
print(tf.keras.metrics.categorical_crossentropy({{0, 1}}, {{0.5, 0.5}}))
]],
    output = [[
tf.Tensor([0.6931472], shape=(1,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.metrics.categorical_crossentropy({{0, 1}}, {{0.2, 0.3, 0.5}})]], type = "ValueError", message = "Shapes (1, 2) and (1, 3) are incompatible" },
    },
  },
  ["tf.keras.metrics.get"] = {
    example = [[
print(tf.keras.metrics.get("accuracy") == tf.keras.metrics.accuracy)
print(tf.keras.metrics.get("AUC").name)
]],
    output = [[
true
auc
]],
    errors = {
      { code = [[tf.keras.metrics.get("accuracyy")]], type = "ValueError", message = "Unknown metric function: 'accuracyy'" },
    },
  },
  ["tf.keras.metrics.mae"] = {
    example = [[
print(tf.keras.metrics.mae({{0.0, 1.0}}, {{1.0, 3.0}}))
]],
    output = [[
tf.Tensor([1.5], shape=(1,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.metrics.mae({{0.0, 1.0}}, {{1.0, 2.0, 3.0}})]], type = "InvalidArgumentError", message = "Incompatible shapes" },
    },
  },
  ["tf.keras.metrics.mean_absolute_error"] = {
    example = [[
print(tf.keras.metrics.mean_absolute_error({{0.0, 1.0}}, {{1.0, 3.0}}))
]],
    output = [[
tf.Tensor([1.5], shape=(1,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.metrics.mean_absolute_error({{0.0, 1.0}}, {{1.0, 2.0, 3.0}})]], type = "InvalidArgumentError", message = "Incompatible shapes" },
    },
  },
  ["tf.keras.metrics.mean_squared_error"] = {
    example = [[
print(tf.keras.metrics.mean_squared_error({{0.0, 1.0}}, {{1.0, 3.0}}))
]],
    output = [[
tf.Tensor([2.5], shape=(1,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.metrics.mean_squared_error({{0.0, 1.0}}, {{1.0, 2.0, 3.0}})]], type = "InvalidArgumentError", message = "Incompatible shapes" },
    },
  },
  ["tf.keras.metrics.mse"] = {
    example = [[
print(tf.keras.metrics.mse({{0.0, 1.0}}, {{1.0, 3.0}}))
]],
    output = [[
tf.Tensor([2.5], shape=(1,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.metrics.mse({{0.0, 1.0}}, {{1.0, 2.0, 3.0}})]], type = "InvalidArgumentError", message = "Incompatible shapes" },
    },
  },
  ["tf.keras.metrics.sparse_categorical_accuracy"] = {
    example = [[
print(tf.keras.metrics.sparse_categorical_accuracy({2, 1}, {{0.1, 0.6, 0.3}, {0.05, 0.95, 0}}))
]],
    output = [[
tf.Tensor([0. 1.], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.metrics.sparse_categorical_accuracy({1, 2, 0}, {{0.1, 0.9}, {0.9, 0.1}})]], type = "InvalidArgumentError", message = "Incompatible shapes" },
    },
  },
  ["tf.keras.metrics.sparse_categorical_crossentropy"] = {
    example = [[
print(tf.keras.metrics.sparse_categorical_crossentropy({1}, {{0.5, 0.5}}))
]],
    output = [[
tf.Tensor([0.6931472], shape=(1,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.metrics.sparse_categorical_crossentropy({2}, {{0.0, 0.0}}, true)]], type = "InvalidArgumentError", message = "Received a label value of 2 which is outside the valid range of [0, 2)" },
    },
  },
  ["tf.keras.optimizers.Adagrad"] = {
    example = [[
local v = tf.Variable(1.0)
local opt = tf.keras.optimizers.Adagrad(0.1)
opt:apply_gradients({{tf.constant(2.0), v}})
print(tf.round(v * 1000) / 1000)
]],
    output = [[
tf.Tensor(0.901, shape=(), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.optimizers.Adagrad("fast")]], type = "TypeError", message = "learning_rate must be a number, a tf.Variable or a" },
    },
  },
  ["tf.keras.optimizers.AdamW"] = {
    example = [[
local v = tf.Variable(1.0)
local opt = tf.keras.optimizers.AdamW({learning_rate = 0.1, weight_decay = 0.5})
opt:apply_gradients({{tf.constant(2.0), v}})
print(tf.round(v * 1000) / 1000)
]],
    output = [[
tf.Tensor(0.85, shape=(), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.optimizers.AdamW(0.1, "a lot")]], type = "TypeError", message = "AdamW: weight_decay must be a number" },
    },
  },
  ["tf.keras.optimizers.Optimizer"] = {
    example = [[
local Sign = tf.keras.optimizers.Optimizer:extend("Sign")
function Sign:init(lr) self.learning_rate = lr end
function Sign:update_step(g, v, lr) v:assign_sub(tf.sign(g) * lr) end
local v = tf.Variable({1.0, -1.0})
Sign(0.5):apply_gradients({{tf.constant({3.0, -2.0}), v}})
print(v:read_value())
]],
    output = [[
tf.Tensor([ 0.5 -0.5], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.optimizers.Optimizer()]], type = "TypeError", message = "Can't instantiate abstract class Optimizer" },
    },
  },
  ["tf.keras.optimizers.RMSprop"] = {
    example = [[
local v = tf.Variable(1.0)
local opt = tf.keras.optimizers.RMSprop(0.1)
opt:apply_gradients({{tf.constant(2.0), v}})
print(tf.round(v * 1000) / 1000)
]],
    output = [[
tf.Tensor(0.684, shape=(), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.optimizers.RMSprop({momentum = 2})]], type = "ValueError", message = "`momentum` must be between [0, 1]" },
    },
  },
  ["tf.keras.optimizers.get"] = {
    example = [[
print(tf.keras.optimizers.get("adam").learning_rate)
print(tf.keras.optimizers.get("sgd").learning_rate)
]],
    output = [[
0.001
0.01
]],
    errors = {
      { code = [[tf.keras.optimizers.get("adamax2")]], type = "ValueError", message = "Could not interpret optimizer identifier: adamax2" },
    },
  },
  ["tf.keras.optimizers.schedules.ExponentialDecay"] = {
    example = [[
local s = tf.keras.optimizers.schedules.ExponentialDecay(0.1, 10, 0.5, true)
print(s(0), s(15), s(25))
]],
    output = [[
tf.Tensor(0.1, shape=(), dtype=float32)	tf.Tensor(0.05, shape=(), dtype=float32)	tf.Tensor(0.025, shape=(), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.optimizers.schedules.ExponentialDecay(0.1, 0, 0.5)]], type = "ValueError", message = "`decay_steps` must be positive" },
    },
  },
  ["tf.keras.optimizers.schedules.LearningRateSchedule"] = {
    example = [[
local Half = tf.keras.optimizers.schedules.LearningRateSchedule:extend("Half")
Half.__call = function(self, step) return 1.0 / (tf.cast(step, tf.float32) + 1) end
print(Half()(3))
]],
    output = [[
tf.Tensor(0.25, shape=(), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.optimizers.schedules.LearningRateSchedule()(1)]], type = "NotImplementedError", message = "must override `__call__(self, step)`" },
    },
  },
  ["tf.keras.optimizers.schedules.PiecewiseConstantDecay"] = {
    example = [[
local s = tf.keras.optimizers.schedules.PiecewiseConstantDecay({10, 20}, {1.0, 0.5, 0.1})
print(s(10), s(11), s(21))
]],
    output = [[
tf.Tensor(1.0, shape=(), dtype=float32)	tf.Tensor(0.5, shape=(), dtype=float32)	tf.Tensor(0.1, shape=(), dtype=float32)
]],
    errors = {
      { code = [[tf.keras.optimizers.schedules.PiecewiseConstantDecay({10}, {1.0})]], type = "ValueError", message = "The length of boundaries should be 1 less than the length of values" },
    },
  },
}
