-- keras_activations_spec.lua — tf.keras.activations by name (what
-- Dense{activation = "elu"} and the other layers resolve), with the values
-- Keras 2 (TF 2.15) gives, eagerly and inside a tf.func.
local tf = tf or require("moonflow")

local X = { -3.0, -1.0, 0.0, 0.5, 3.0 }

local function sigmoid(v) return 1 / (1 + math.exp(-v)) end
local function erf(v)
  local sum, term, n = 0.0, v, 0
  repeat
    local add = term / (2 * n + 1)
    sum = sum + add
    n = n + 1
    term = -term * v * v / n
  until math.abs(add) < 1e-17 * math.abs(sum) or n > 200
  return 2 / math.sqrt(math.pi) * sum
end
local SCALE, ALPHA = 1.0507009873554804934193349852946, 1.6732632423543772848170429916717

-- Keras 2's definitions, on Lua numbers.
local WANT = {
  elu = function(v) return v > 0 and v or math.exp(v) - 1 end,
  selu = function(v) return v > 0 and SCALE * v or SCALE * ALPHA * (math.exp(v) - 1) end,
  gelu = function(v) return 0.5 * v * (1 + erf(v / math.sqrt(2))) end,
  softplus = function(v) return math.log(1 + math.exp(v)) end,
  softsign = function(v) return v / (1 + math.abs(v)) end,
  swish = function(v) return v * sigmoid(v) end,
  silu = function(v) return v * sigmoid(v) end,
  relu6 = function(v) return math.min(math.max(v, 0), 6) end,
  leaky_relu = function(v) return v > 0 and v or 0.2 * v end,
  hard_sigmoid = function(v) return math.min(math.max(0.2 * v + 0.5, 0), 1) end,
  exponential = math.exp,
  relu = function(v) return math.max(v, 0) end,
  sigmoid = sigmoid,
  tanh = function(v) return (math.exp(2 * v) - 1) / (math.exp(2 * v) + 1) end,
  linear = function(v) return v end,
}

local function close(want, got, name)
  local g = got:numpy()
  for i, v in ipairs(want) do
    assert.is_true(math.abs(g[i] - v) <= 1e-6 * math.max(1, math.abs(v)),
      ("%s element %d: %.9g, want %.9g"):format(name, i, g[i], v))
  end
end

describe("tf.keras.activations.get", function()
  for name, f in pairs(WANT) do
    it("'" .. name .. "' gives Keras's values, eagerly and traced", function()
      local act = tf.keras.activations.get(name)
      local want = {}
      for i, v in ipairs(X) do want[i] = f(v) end
      local x = tf.constant(X)
      close(want, act(x), name)
      close(want, tf.func(function(t) return act(t) end)(x), name .. " (traced)")
      assert.are.equal(act, tf.keras.activations[name])
    end)
  end

  it("'log_softmax' is log(softmax(x)) over the last axis", function()
    local y = tf.keras.activations.get("log_softmax")(tf.constant({ { 1.0, 2.0, 3.0 } }))
    local s = math.exp(1) + math.exp(2) + math.exp(3)
    close({ 1 - math.log(s), 2 - math.log(s), 3 - math.log(s) }, y[0], "log_softmax")
  end)

  it("a Dense layer takes the names", function()
    for _, name in ipairs({ "elu", "selu", "gelu", "swish", "leaky_relu", "hard_sigmoid", "softplus" }) do
      local layer = tf.keras.layers.Dense(2, { activation = name, kernel_initializer = function(shape, dtype) return tf.ones(shape, dtype) end })
      local y = layer(tf.constant({ { -1.0, 0.25 } }))
      close({ WANT[name](-0.75), WANT[name](-0.75) }, y[0], name)
    end
  end)

  it("an unknown name is a ValueError", function()
    local ok, err = pcall(tf.keras.activations.get, "elux")
    assert.is_false(ok)
    assert.are.equal("ValueError", err.type)
  end)
end)
