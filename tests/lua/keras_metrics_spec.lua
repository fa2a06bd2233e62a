-- keras_metrics_spec.lua — tf.keras.metrics: the examples of Keras's
-- docstrings (keras/metrics/*.py) for update_state / result / reset_state,
-- sample weights, state in non-trainable variables that a tf.func updates,
-- AUC against a trapezoid computed here, the metric functions, and get.

local tf = tf or require("moonflow")
local H = require("helpers")
local M = tf.keras.metrics

describe("metric classes, as Keras's docstrings show them", function()
  it("Accuracy", function()
    local m = M.Accuracy()
    m:update_state({ { 1 }, { 2 }, { 3 }, { 4 } }, { { 0 }, { 2 }, { 3 }, { 4 } })
    H.tensor_close(m:result(), tf.float32, {}, 0.75)
    m:reset_state()
    m:update_state({ { 1 }, { 2 }, { 3 }, { 4 } }, { { 0 }, { 2 }, { 3 }, { 4 } }, { 1, 1, 0, 0 })
    H.close(0.5, m:result(), 1e-7)
    assert.are.equal("accuracy", m.name)
  end)
  it("BinaryAccuracy with its threshold", function()
    local m = M.BinaryAccuracy()
    m:update_state({ { 1 }, { 1 }, { 0 }, { 0 } }, { { 0.98 }, { 1 }, { 0 }, { 0.6 } })
    H.close(0.75, m:result(), 1e-7)
    m:reset_state()
    m:update_state({ { 1 }, { 1 }, { 0 }, { 0 } }, { { 0.98 }, { 1 }, { 0 }, { 0.6 } }, { 1, 0, 0, 1 })
    H.close(0.5, m:result(), 1e-7)
    local t = M.BinaryAccuracy({ threshold = 0.7 })
    t:update_state({ { 1 }, { 1 }, { 0 }, { 0 } }, { { 0.98 }, { 1 }, { 0 }, { 0.6 } })
    H.close(1.0, t:result(), 1e-7)
  end)
  it("CategoricalAccuracy and SparseCategoricalAccuracy", function()
    local c = M.CategoricalAccuracy()
    c:update_state({ { 0, 0, 1 }, { 0, 1, 0 } }, { { 0.1, 0.9, 0.8 }, { 0.05, 0.95, 0 } })
    H.close(0.5, c:result(), 1e-7)
    c:update_state({ { 0, 0, 1 }, { 0, 1, 0 } }, { { 0.1, 0.9, 0.8 }, { 0.05, 0.95, 0 } }, { 0.7, 0.3 })
    H.close((1 + 0.3) / (2 + 1), c:result(), 1e-6)
    local s = M.SparseCategoricalAccuracy()
    s:update_state({ { 2 }, { 1 } }, { { 0.1, 0.6, 0.3 }, { 0.05, 0.95, 0 } })
    H.close(0.5, s:result(), 1e-7)
    s:reset_state()
    s:update_state({ 2, 1 }, { { 0.1, 0.6, 0.3 }, { 0.05, 0.95, 0 } }, { 0.7, 0.3 })
    H.close(0.3, s:result(), 1e-6)
  end)
  it("Mean and MeanSquaredError", function()
    local m = M.Mean()
    m:update_state({ 1, 3, 5, 7 })
    H.close(4, m:result(), 1e-7)
    m:reset_state()
    m:update_state({ 1, 3, 5, 7 }, { 1, 1, 0, 0 })
    H.close(2, m:result(), 1e-7)
    H.tensor(m.total, tf.float32, {}, 4)
    H.tensor(m.count, tf.float32, {}, 2)
    local e = M.MeanSquaredError()
    e:update_state({ { 0, 1 }, { 0, 0 } }, { { 1, 1 }, { 0, 0 } })
    H.close(0.25, e:result(), 1e-7)
    e:reset_state()
    e:update_state({ { 0, 1 }, { 0, 0 } }, { { 1, 1 }, { 0, 0 } }, { 1, 0 })
    H.close(0.5, e:result(), 1e-7)
  end)
  it("a metric called as a function updates and returns its result", function()
    local m = M.Mean()
    H.close(2, m({ 1, 3 }), 1e-7)
    H.close(3, m({ 5 }), 1e-7)
  end)
  it("keeps its state in non-trainable variables named total and count", function()
    local m = M.Mean()
    local names = {}
    for i, v in ipairs(m:variables()) do
      names[i] = v.name
      assert.is_false(v.trainable)
    end
    assert.are.same({ "total:0", "count:0" }, names)
    assert.are.same({}, m:trainable_variables())
  end)
  it("is updated inside a tf.func, across calls, and reset outside it", function()
    local acc = M.SparseCategoricalAccuracy()
    local step = tf.func(function(y, p)
      acc:update_state(y, p)
      return acc:result()
    end)
    H.close(1.0, step(tf.constant({ 1 }), tf.constant({ { 0.2, 0.8 } })), 1e-7)
    H.close(0.5, step(tf.constant({ 1 }), tf.constant({ { 0.9, 0.1 } })), 1e-7)
    acc:reset_state()
    H.close(0.0, acc:result(), 1e-7)
    H.close(1.0, step(tf.constant({ 0 }), tf.constant({ { 0.9, 0.1 } })), 1e-7)
  end)
end)

describe("Metric", function()
  it("is abstract; a subclass gives update_state and result", function()
    H.raises("TypeError", "Can't instantiate abstract class Metric", function() return M.Metric() end)
    local Count = M.Metric:extend("Count")
    function Count:init() self.n = tf.Variable(0.0, { trainable = false }) end
    function Count:update_state(x) self.n:assign_add(tf.cast(tf.size(x), tf.float32)) end
    function Count:result() return self.n:read_value() end
    local c = Count()
    c:update_state({ 1, 2, 3 })
    H.close(3, c:result())
  end)
end)

describe("AUC", function()
  it("gives Keras's docstring value", function()
    local m = M.AUC({ num_thresholds = 3 })
    m:update_state({ 0, 0, 1, 1 }, { 0, 0.5, 0.3, 0.9 })
    H.close(0.75, m:result(), 1e-6)
    m:reset_state()
    m:update_state({ 0, 0, 1, 1 }, { 0, 0.5, 0.3, 0.9 }, { 1, 0, 0, 1 })
    H.close(1.0, m:result(), 1e-6)
  end)
  it("is the trapezoid sum of the ROC curve at its thresholds, over several updates", function()
    local y = { 0, 1, 1, 0, 1, 0, 1, 1 }
    local p = { 0.1, 0.35, 0.8, 0.4, 0.62, 0.05, 0.93, 0.3 }
    local m = M.AUC(5)
    m:update_state({ table.unpack(y, 1, 4) }, { table.unpack(p, 1, 4) })
    m:update_state({ table.unpack(y, 5, 8) }, { table.unpack(p, 5, 8) })
    local th = { -1e-7, 0.25, 0.5, 0.75, 1 + 1e-7 }
    local tpr, fpr = {}, {}
    for i, t in ipairs(th) do
      local tp, fp, pos, neg = 0, 0, 0, 0
      for j = 1, #y do
        if y[j] == 1 then pos = pos + 1 else neg = neg + 1 end
        if p[j] > t then
          if y[j] == 1 then tp = tp + 1 else fp = fp + 1 end
        end
      end
      tpr[i], fpr[i] = tp / pos, fp / neg
    end
    local area = 0
    for i = 1, #th - 1 do area = area + (fpr[i] - fpr[i + 1]) * (tpr[i] + tpr[i + 1]) / 2 end
    H.close(area, m:result(), 1e-6)
    assert.are.equal(4, #m:variables())
  end)
  it("refuses a bad num_thresholds", function()
    H.raises("ValueError", "Argument `num_thresholds` must be an integer > 1", function() return M.AUC(1) end)
  end)
end)

describe("metric functions and get", function()
  it("give one value per example", function()
    H.tensor(M.binary_accuracy({ { 1, 1 }, { 0, 0 } }, { { 0.9, 0.2 }, { 0.1, 0.7 } }), tf.float32, { 2 }, { 0.5, 0.5 })
    H.tensor(M.sparse_categorical_accuracy({ 2, 1 }, { { 0.1, 0.6, 0.3 }, { 0.05, 0.95, 0 } }), tf.float32, { 2 }, { 0, 1 })
    H.tensor(M.categorical_accuracy({ { 0, 0, 1 }, { 0, 1, 0 } }, { { 0.1, 0.9, 0.8 }, { 0.05, 0.95, 0 } }), tf.float32,
      { 2 }, { 0, 1 })
    H.raises("ValueError", "Shapes (2,) and (3,) are incompatible", function() return M.accuracy({ 1, 2 }, { 1, 2, 3 }) end)
  end)
  it("get turns TF's names into metrics", function()
    assert.are.equal(M.accuracy, M.get("accuracy"))
    assert.are.equal(M.sparse_categorical_accuracy, M.get("sparse_categorical_accuracy"))
    assert.are.equal(M.mean_squared_error, M.get("mse"))
    assert.are.equal(M.AUC, getmetatable(M.get("AUC")))
    local m = M.Mean()
    assert.are.equal(m, M.get(m))
    H.raises("ValueError", "Unknown metric function: 'accuracyy'", function() return M.get("accuracyy") end)
  end)
  it("MeanMetricWrapper makes a stateful metric of a function", function()
    local m = M.MeanMetricWrapper(M.binary_accuracy, "bin")
    m:update_state({ { 1 }, { 0 } }, { { 0.9 }, { 0.8 } })
    H.close(0.5, m:result(), 1e-7)
    assert.are.equal("bin", m.name)
    H.raises("TypeError", "fn must be a function", function() return M.MeanMetricWrapper("accuracy") end)
  end)
end)
