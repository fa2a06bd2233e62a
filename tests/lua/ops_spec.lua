-- ops_spec.lua — every op listed in API.md "Operations": values (with
-- broadcasting, scalars and zero-size dimensions), dtype and shape errors,
-- reductions, matmul, the shape ops, nn ops against hand-computed values,
-- images, strings and tf.timestamp.
local tf = tf or require("moonflow")
local H = require("helpers")

local e = math.exp
local log = math.log

describe("elementwise binary ops", function()
  local a = tf.constant({ 1, 2, 3 })

  it("tf.add subtract multiply divide floordiv floormod pow maximum minimum", function()
    H.tensor(tf.add(a, 1), tf.int32, { 3 }, { 2, 3, 4 })
    H.tensor(tf.subtract(a, tf.constant({ { 1 }, { 2 } })), tf.int32, { 2, 3 }, { { 0, 1, 2 }, { -1, 0, 1 } })
    H.tensor(tf.multiply(a, a), tf.int32, { 3 }, { 1, 4, 9 })
    H.tensor(tf.divide(a, 2), tf.float64, { 3 }, { 0.5, 1.0, 1.5 })
    H.tensor(tf.divide(tf.constant({ 1.0, 3.0 }), 2), tf.float32, { 2 }, { 0.5, 1.5 })
    H.tensor(tf.floordiv(tf.constant({ 7, -7 }), 2), tf.int32, { 2 }, { 3, -4 })
    H.tensor(tf.floormod(tf.constant({ 7, -7 }), 3), tf.int32, { 2 }, { 1, 2 })
    H.tensor(tf.pow(2, 10), tf.int32, {}, 1024)
    H.tensor(tf.pow(tf.constant({ 4.0, 9.0 }), 0.5), tf.float32, { 2 }, { 2.0, 3.0 })
    H.tensor(tf.maximum(tf.constant({ 1, 5 }), 3), tf.int32, { 2 }, { 3, 5 })
    H.tensor(tf.minimum(tf.constant({ 1, 5 }), 3), tf.int32, { 2 }, { 1, 3 })
    H.tensor(tf.maximum(tf.constant({ { 1.0 }, { 4.0 } }), tf.constant({ 2.0, 3.0 })), tf.float32, { 2, 2 },
      { { 2.0, 3.0 }, { 4.0, 4.0 } })
  end)

  it("take Lua numbers on either side and scalars", function()
    H.tensor(tf.add(1, 2), tf.int32, {}, 3)
    H.tensor(tf.subtract(10, a), tf.int32, { 3 }, { 9, 8, 7 })
    H.tensor(tf.multiply(2.5, tf.constant(2.0)), tf.float32, {}, 5.0)
  end)

  it("work on zero-size dimensions", function()
    H.tensor(tf.add(tf.zeros({ 0, 3 }), tf.ones({ 3 })), tf.float32, { 0, 3 })
    H.tensor(tf.multiply(tf.zeros({ 0 }), 3), tf.float32, { 0 }, {})
    H.tensor(tf.maximum(tf.zeros({ 2, 0 }), tf.zeros({ 2, 1 })), tf.float32, { 2, 0 })
  end)

  it("check dtypes and shapes", function()
    H.raises("InvalidArgumentError", nil, tf.add, a, tf.constant({ 1.0, 2.0, 3.0 }))
    H.raises("InvalidArgumentError", nil, tf.maximum, a, tf.constant(1, tf.int64))
    H.raises("InvalidArgumentError", "Incompatible shapes", tf.multiply, a, tf.constant({ 1, 2 }))
    H.raises("InvalidArgumentError", nil, tf.pow, tf.constant(2), -1)
    H.raises("InvalidArgumentError", nil, tf.subtract, tf.constant({ true }), tf.constant({ false }))
  end)

  it("have tf.math aliases", function()
    for _, name in ipairs({ "add", "subtract", "multiply", "divide", "floordiv", "floormod", "pow",
      "maximum", "minimum", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
      "logical_and", "logical_or" }) do
      assert.are.equal(tf[name], tf.math[name], "tf.math." .. name)
    end
    H.tensor(tf.math.add(1, 2), tf.int32, {}, 3)
  end)
end)

describe("elementwise unary ops", function()
  local x = tf.constant({ -2.0, -0.5, 0.0, 0.5, 2.0 })
  local xs = { -2.0, -0.5, 0.0, 0.5, 2.0 }
  local function map(fn)
    local out = {}
    for i, v in ipairs(xs) do out[i] = fn(v) end
    return out
  end

  it("negative abs sign square", function()
    H.tensor(tf.negative(x), tf.float32, { 5 }, { 2.0, 0.5, -0.0, -0.5, -2.0 })
    H.tensor(tf.abs(x), tf.float32, { 5 }, { 2.0, 0.5, 0.0, 0.5, 2.0 })
    H.tensor(tf.abs(tf.constant({ -3, 4 })), tf.int32, { 2 }, { 3, 4 })
    H.tensor(tf.sign(x), tf.float32, { 5 }, { -1.0, -1.0, 0.0, 1.0, 1.0 })
    H.tensor(tf.sign(tf.constant({ -3, 0, 4 })), tf.int32, { 3 }, { -1, 0, 1 })
    H.tensor(tf.square(x), tf.float32, { 5 }, { 4.0, 0.25, 0.0, 0.25, 4.0 })
    H.tensor(tf.square(tf.constant(3)), tf.int32, {}, 9)
  end)

  it("sqrt rsqrt exp log log1p", function()
    H.tensor_close(tf.sqrt(tf.constant({ 0.0, 4.0, 2.0 })), tf.float32, { 3 }, { 0, 2, math.sqrt(2) })
    H.tensor_close(tf.rsqrt(tf.constant({ 4.0, 0.25 })), tf.float32, { 2 }, { 0.5, 2 })
    H.tensor_close(tf.exp(x), tf.float32, { 5 }, map(e))
    H.tensor_close(tf.log(tf.constant({ 1.0, 10.0, 0.0 })), tf.float32, { 3 }, { 0, log(10), -math.huge })
    H.tensor_close(tf.log1p(tf.constant({ 0.0, 1e-7, 1.0 })), tf.float32, { 3 }, { 0, 1e-7, log(2) }, 1e-6)
    H.tensor_close(tf.exp(tf.constant(1.0, tf.float64)), tf.float64, {}, e(1), 1e-15)
    local nan = tf.sqrt(tf.constant(-1.0)):numpy()
    assert.is_true(nan ~= nan)
  end)

  it("sin cos tanh sigmoid", function()
    H.tensor_close(tf.sin(x), tf.float32, { 5 }, map(math.sin))
    H.tensor_close(tf.cos(x), tf.float32, { 5 }, map(math.cos))
    H.tensor_close(tf.tanh(x), tf.float32, { 5 }, map(function(v) return (e(v) - e(-v)) / (e(v) + e(-v)) end))
    H.tensor_close(tf.sigmoid(x), tf.float32, { 5 }, map(function(v) return 1 / (1 + e(-v)) end))
    H.tensor_close(tf.sigmoid(tf.constant({ -100.0, 100.0 })), tf.float32, { 2 }, { 0, 1 })
  end)

  it("round (half to even) floor ceil", function()
    H.tensor(tf.round(tf.constant({ 0.5, 1.5, 2.5, -0.5, -1.5, 0.4 })), tf.float32, { 6 },
      { 0.0, 2.0, 2.0, -0.0, -2.0, 0.0 })
    H.tensor(tf.floor(tf.constant({ -1.5, 1.5, 2.0 })), tf.float32, { 3 }, { -2.0, 1.0, 2.0 })
    H.tensor(tf.ceil(tf.constant({ -1.5, 1.5, 2.0 })), tf.float32, { 3 }, { -1.0, 2.0, 2.0 })
  end)

  it("keep the shape of scalars and zero-size tensors", function()
    H.tensor(tf.exp(tf.constant(0.0)), tf.float32, {}, 1.0)
    H.tensor(tf.sqrt(tf.zeros({ 0, 2 })), tf.float32, { 0, 2 })
    H.tensor(tf.abs(tf.zeros({ 3, 0 }, tf.int32)), tf.int32, { 3, 0 })
  end)

  it("refuse dtypes they do not support", function()
    H.raises("InvalidArgumentError", nil, tf.sqrt, tf.constant(4))
    H.raises("InvalidArgumentError", nil, tf.exp, tf.constant({ 1, 2 }))
    H.raises("InvalidArgumentError", nil, tf.floor, tf.constant({ 1 }))
    H.raises("InvalidArgumentError", nil, tf.abs, tf.constant("x"))
    H.raises("InvalidArgumentError", nil, tf.negative, tf.constant(true))
  end)

  it("have tf.math aliases", function()
    for _, name in ipairs({ "negative", "abs", "sign", "square", "sqrt", "rsqrt", "exp", "log", "log1p",
      "sin", "cos", "tanh", "sigmoid", "round", "floor", "ceil", "logical_not" }) do
      assert.are.equal(tf[name], tf.math[name], "tf.math." .. name)
    end
  end)
end)

describe("logical ops", function()
  local t, f = tf.constant({ true, true, false, false }), tf.constant({ true, false, true, false })
  it("logical_and logical_or logical_not with broadcasting and Lua booleans", function()
    H.tensor(tf.logical_and(t, f), tf.bool, { 4 }, { true, false, false, false })
    H.tensor(tf.logical_or(t, f), tf.bool, { 4 }, { true, true, true, false })
    H.tensor(tf.logical_not(f), tf.bool, { 4 }, { false, true, false, true })
    H.tensor(tf.logical_and(t, true), tf.bool, { 4 }, { true, true, false, false })
    H.tensor(tf.logical_or(false, false), tf.bool, {}, false)
  end)
  it("need bool tensors", function()
    H.raises("InvalidArgumentError", nil, tf.logical_and, tf.constant(1), tf.constant(2))
    H.raises("InvalidArgumentError", nil, tf.logical_not, tf.constant(1.0))
  end)
end)

describe("tf.matmul", function()
  local a = tf.constant({ { 1.0, 2.0, 3.0 }, { 4.0, 5.0, 6.0 } })   -- 2x3
  local b = tf.constant({ { 7.0, 8.0 }, { 9.0, 10.0 }, { 11.0, 12.0 } }) -- 3x2

  it("multiplies matrices", function()
    H.tensor(tf.matmul(a, b), tf.float32, { 2, 2 }, { { 58, 64 }, { 139, 154 } })
    H.tensor(tf.matmul(b, a), tf.float32, { 3, 3 },
      { { 39, 54, 69 }, { 49, 68, 87 }, { 59, 82, 105 } })
    H.tensor(tf.matmul(tf.constant({ { 1, 2 }, { 3, 4 } }), tf.constant({ { 5, 6 }, { 7, 8 } })),
      tf.int32, { 2, 2 }, { { 19, 22 }, { 43, 50 } })
    H.tensor(tf.matmul(tf.constant({ { 1.0, 2.0 } }, tf.float64), tf.constant({ { 3.0 }, { 4.0 } }, tf.float64)),
      tf.float64, { 1, 1 }, { { 11.0 } })
  end)

  it("transposes with transpose_a and transpose_b", function()
    H.tensor(tf.matmul(a, a, { transpose_b = true }), tf.float32, { 2, 2 }, { { 14, 32 }, { 32, 77 } })
    H.tensor(tf.matmul(a, a, { transpose_a = true }), tf.float32, { 3, 3 },
      { { 17, 22, 27 }, { 22, 29, 36 }, { 27, 36, 45 } })
    H.tensor(tf.matmul(b, a, { transpose_a = true, transpose_b = true }), tf.float32, { 2, 2 },
      { { 58, 139 }, { 64, 154 } })
  end)

  it("handles zero-size inner and outer dimensions", function()
    H.tensor(tf.matmul(tf.zeros({ 2, 0 }), tf.zeros({ 0, 3 })), tf.float32, { 2, 3 },
      { { 0, 0, 0 }, { 0, 0, 0 } })
    H.tensor(tf.matmul(tf.zeros({ 0, 2 }), tf.zeros({ 2, 3 })), tf.float32, { 0, 3 })
  end)

  it("batches when a rank is above 2", function()
    local x = tf.reshape(tf.range(8, tf.float32), { 2, 2, 2 })
    H.tensor(tf.matmul(x, tf.eye(2)), tf.float32, { 2, 2, 2 }, x:numpy())
    H.tensor(tf.matmul(x, x), tf.float32, { 2, 2, 2 }, { { { 2, 3 }, { 6, 11 } }, { { 46, 55 }, { 66, 79 } } })
  end)

  it("checks shapes and dtypes", function()
    H.raises("InvalidArgumentError", "Matrix size-incompatible", tf.matmul, a, a)
    H.raises("InvalidArgumentError", nil, tf.matmul, a, tf.constant({ { 1 }, { 2 }, { 3 } }))
    H.raises("InvalidArgumentError", nil, tf.matmul, tf.constant({ 1.0, 2.0 }), tf.constant({ 1.0, 2.0 }))
  end)
end)

describe("reductions", function()
  local m = tf.constant({ { 1, 2, 3 }, { 4, 5, 6 } })
  local f = tf.constant({ { 1.0, 2.0 }, { 3.0, 5.0 } })

  it("reduce_sum over all axes, one axis, several axes, negative axes", function()
    H.tensor(tf.reduce_sum(m), tf.int32, {}, 21)
    H.tensor(tf.reduce_sum(m, 0), tf.int32, { 3 }, { 5, 7, 9 })
    H.tensor(tf.reduce_sum(m, 1), tf.int32, { 2 }, { 6, 15 })
    H.tensor(tf.reduce_sum(m, -1), tf.int32, { 2 }, { 6, 15 })
    H.tensor(tf.reduce_sum(m, { 0, 1 }), tf.int32, {}, 21)
    H.tensor(tf.reduce_sum(m, { axis = 1 }), tf.int32, { 2 }, { 6, 15 })
  end)

  it("keepdims keeps reduced axes with size 1", function()
    H.tensor(tf.reduce_sum(m, { axis = 1, keepdims = true }), tf.int32, { 2, 1 }, { { 6 }, { 15 } })
    H.tensor(tf.reduce_sum(m, 0, { keepdims = true }), tf.int32, { 1, 3 }, { { 5, 7, 9 } })
    H.tensor(tf.reduce_max(m, { keepdims = true }), tf.int32, { 1, 1 }, { { 6 } })
  end)

  it("reduce_mean reduce_max reduce_min reduce_prod", function()
    H.tensor(tf.reduce_mean(f), tf.float32, {}, 2.75)
    H.tensor(tf.reduce_mean(f, 1), tf.float32, { 2 }, { 1.5, 4.0 })
    H.tensor(tf.reduce_mean(m), tf.int32, {}, 3) -- integer mean truncates, as in TF
    H.tensor(tf.reduce_max(m, 0), tf.int32, { 3 }, { 4, 5, 6 })
    H.tensor(tf.reduce_min(m, 1), tf.int32, { 2 }, { 1, 4 })
    H.tensor(tf.reduce_prod(m, 1), tf.int32, { 2 }, { 6, 120 })
    H.tensor(tf.reduce_prod(f), tf.float32, {}, 30.0)
  end)

  it("reduce_any reduce_all", function()
    local b = tf.constant({ { true, false }, { true, true } })
    H.tensor(tf.reduce_any(b), tf.bool, {}, true)
    H.tensor(tf.reduce_all(b), tf.bool, {}, false)
    H.tensor(tf.reduce_all(b, 1), tf.bool, { 2 }, { false, true })
    H.tensor(tf.reduce_any(tf.constant({ false, false })), tf.bool, {}, false)
    H.raises("InvalidArgumentError", nil, tf.reduce_any, tf.constant({ 1, 0 }))
  end)

  it("reduce empty tensors to the identity of the reduction", function()
    H.tensor(tf.reduce_sum(tf.zeros({ 0 })), tf.float32, {}, 0.0)
    H.tensor(tf.reduce_sum(tf.zeros({ 0, 3 }), 0), tf.float32, { 3 }, { 0, 0, 0 })
    H.tensor(tf.reduce_prod(tf.constant({}, tf.int32)), tf.int32, {}, 1)
    H.tensor(tf.reduce_all(tf.constant({}, tf.bool)), tf.bool, {}, true)
    H.tensor(tf.reduce_any(tf.constant({}, tf.bool)), tf.bool, {}, false)
    H.tensor(tf.reduce_max(tf.zeros({ 0 })), tf.float32, {}, -math.huge)
  end)

  it("reduce a scalar to itself", function()
    H.tensor(tf.reduce_sum(tf.constant(4)), tf.int32, {}, 4)
  end)

  it("refuse an axis out of range", function()
    H.raises("InvalidArgumentError", nil, tf.reduce_sum, m, 2)
    H.raises("InvalidArgumentError", nil, tf.reduce_mean, m, -3)
  end)

  it("have tf.math aliases", function()
    for _, name in ipairs({ "reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod",
      "reduce_any", "reduce_all" }) do
      assert.are.equal(tf[name], tf.math[name], "tf.math." .. name)
    end
  end)
end)

describe("argmax and argmin", function()
  local m = tf.constant({ { 1, 9, 3 }, { 7, 2, 8 } })
  it("return 0-based int64 positions along an axis (default 0)", function()
    H.tensor(tf.argmax(tf.constant({ 1, 5, 3 })), tf.int64, {}, 1)
    H.tensor(tf.argmax(m), tf.int64, { 3 }, { 1, 0, 1 })
    H.tensor(tf.argmax(m, 1), tf.int64, { 2 }, { 1, 2 })
    H.tensor(tf.argmin(m, 1), tf.int64, { 2 }, { 0, 1 })
    H.tensor(tf.argmin(m, -1), tf.int64, { 2 }, { 0, 1 })
    H.tensor(tf.argmax(tf.constant({ 2.0, 7.5, 7.5 })), tf.int64, {}, 1) -- first of ties
    H.tensor(tf.argmax(m, { axis = 0, output_type = tf.int32 }), tf.int32, { 3 }, { 1, 0, 1 })
    assert.are.equal(tf.argmax, tf.math.argmax)
  end)
  it("refuse empty axes and axes out of range", function()
    H.raises("InvalidArgumentError", nil, tf.argmax, tf.zeros({ 0 }))
    H.raises("InvalidArgumentError", nil, tf.argmax, m, 2)
  end)
end)

describe("shape ops", function()
  local m = tf.constant({ { 1, 2, 3 }, { 4, 5, 6 } })

  it("tf.transpose reverses axes or follows perm", function()
    H.tensor(tf.transpose(m), tf.int32, { 3, 2 }, { { 1, 4 }, { 2, 5 }, { 3, 6 } })
    local c = tf.reshape(tf.range(6), { 1, 2, 3 })
    H.tensor(tf.transpose(c, { 1, 0, 2 }), tf.int32, { 2, 1, 3 }, { { { 0, 1, 2 } }, { { 3, 4, 5 } } })
    H.tensor(tf.transpose(c, { perm = { 2, 1, 0 } }), tf.int32, { 3, 2, 1 })
    H.tensor(tf.transpose(tf.constant(1)), tf.int32, {}, 1)
    H.raises("InvalidArgumentError", nil, tf.transpose, m, { 0, 0 })
  end)

  it("tf.reshape with -1 and size checks", function()
    H.tensor(tf.reshape(tf.range(6), { -1, 2 }), tf.int32, { 3, 2 }, { { 0, 1 }, { 2, 3 }, { 4, 5 } })
    H.tensor(tf.reshape(tf.range(6), { 2, 3 }), tf.int32, { 2, 3 }, { { 0, 1, 2 }, { 3, 4, 5 } })
    H.tensor(tf.reshape(tf.constant({ 7 }), {}), tf.int32, {}, 7)
    H.tensor(tf.reshape(tf.zeros({ 0, 3 }), { 3, 0 }), tf.float32, { 3, 0 })
    H.tensor(tf.reshape(m, tf.constant({ 6 })), tf.int32, { 6 }, { 1, 2, 3, 4, 5, 6 })
    H.raises("InvalidArgumentError", "6 values", tf.reshape, tf.range(6), { 4 })
    H.raises("InvalidArgumentError", nil, tf.reshape, tf.range(6), { -1, -1 })
  end)

  it("tf.concat joins along an existing axis", function()
    local a, b = tf.constant({ { 1, 2 } }), tf.constant({ { 3, 4 } })
    H.tensor(tf.concat({ a, b }, 0), tf.int32, { 2, 2 }, { { 1, 2 }, { 3, 4 } })
    H.tensor(tf.concat({ a, b }, 1), tf.int32, { 1, 4 }, { { 1, 2, 3, 4 } })
    H.tensor(tf.concat({ a, b }, -1), tf.int32, { 1, 4 }, { { 1, 2, 3, 4 } })
    H.tensor(tf.concat({ a }, 0), tf.int32, { 1, 2 }, { { 1, 2 } })
    H.tensor(tf.concat({ tf.zeros({ 0, 2 }), tf.ones({ 1, 2 }) }, 0), tf.float32, { 1, 2 }, { { 1, 1 } })
    H.raises("InvalidArgumentError", nil, tf.concat, { a, tf.constant({ { 1, 2, 3 } }) }, 0)
    H.raises("InvalidArgumentError", nil, tf.concat, { a, tf.constant({ { 1.0, 2.0 } }) }, 0)
    H.raises("InvalidArgumentError", nil, tf.concat, { a, b }, 2)
  end)

  it("tf.stack and tf.unstack", function()
    local a, b = tf.constant({ 1, 2 }), tf.constant({ 3, 4 })
    H.tensor(tf.stack({ a, b }), tf.int32, { 2, 2 }, { { 1, 2 }, { 3, 4 } })
    H.tensor(tf.stack({ a, b }, 1), tf.int32, { 2, 2 }, { { 1, 3 }, { 2, 4 } })
    H.tensor(tf.stack({ a, b }, { axis = -1 }), tf.int32, { 2, 2 }, { { 1, 3 }, { 2, 4 } })
    H.tensor(tf.stack({ tf.constant(1), tf.constant(2) }), tf.int32, { 2 }, { 1, 2 })
    H.raises("InvalidArgumentError", nil, tf.stack, { a, tf.constant({ 1, 2, 3 }) })
    local parts = tf.unstack(tf.constant({ { 1, 2 }, { 3, 4 }, { 5, 6 } }))
    assert.are.equal(3, #parts)
    H.tensor(parts[1], tf.int32, { 2 }, { 1, 2 })
    H.tensor(parts[3], tf.int32, { 2 }, { 5, 6 })
    local cols = tf.unstack(tf.constant({ { 1, 2 }, { 3, 4 } }), { axis = 1 })
    assert.are.equal(2, #cols)
    H.tensor(cols[2], tf.int32, { 2 }, { 2, 4 })
    assert.are.same({}, tf.unstack(tf.zeros({ 0, 2 })))
  end)

  it("tf.expand_dims and tf.squeeze", function()
    H.tensor(tf.expand_dims(tf.constant({ 1, 2 }), 0), tf.int32, { 1, 2 }, { { 1, 2 } })
    H.tensor(tf.expand_dims(tf.constant({ 1, 2 }), 1), tf.int32, { 2, 1 }, { { 1 }, { 2 } })
    H.tensor(tf.expand_dims(tf.constant({ 1, 2 }), -1), tf.int32, { 2, 1 })
    H.tensor(tf.expand_dims(tf.constant(5), 0), tf.int32, { 1 }, { 5 })
    H.raises("InvalidArgumentError", nil, tf.expand_dims, tf.constant({ 1, 2 }), 3)
    H.tensor(tf.squeeze(tf.zeros({ 1, 2, 1 })), tf.float32, { 2 })
    H.tensor(tf.squeeze(tf.zeros({ 1, 2, 1 }), { 2 }), tf.float32, { 1, 2 })
    H.tensor(tf.squeeze(tf.zeros({ 1, 2, 1 }), 0), tf.float32, { 2, 1 })
    H.tensor(tf.squeeze(tf.zeros({ 1, 2, 1 }), { axis = { 0, 2 } }), tf.float32, { 2 })
    H.raises("InvalidArgumentError", nil, tf.squeeze, tf.zeros({ 1, 2 }), 1)
  end)

  it("tf.tile", function()
    H.tensor(tf.tile(tf.constant({ 1, 2 }), { 3 }), tf.int32, { 6 }, { 1, 2, 1, 2, 1, 2 })
    H.tensor(tf.tile(tf.constant({ { 1, 2 } }), { 2, 2 }), tf.int32, { 2, 4 }, { { 1, 2, 1, 2 }, { 1, 2, 1, 2 } })
    H.tensor(tf.tile(tf.constant({ 1, 2 }), { 0 }), tf.int32, { 0 }, {})
    H.raises("InvalidArgumentError", nil, tf.tile, tf.constant({ 1, 2 }), { 2, 2 })
  end)

  it("tf.pad with zeros or constant_values", function()
    H.tensor(tf.pad(tf.constant({ { 1, 2 } }), { { 1, 0 }, { 0, 2 } }), tf.int32, { 2, 4 },
      { { 0, 0, 0, 0 }, { 1, 2, 0, 0 } })
    H.tensor(tf.pad(tf.constant({ { 1, 2 } }), { { 1, 0 }, { 0, 2 } }, { constant_values = 9 }), tf.int32, { 2, 4 },
      { { 9, 9, 9, 9 }, { 1, 2, 9, 9 } })
    H.tensor(tf.pad(tf.constant({ 1.0 }), { { 2, 1 } }), tf.float32, { 4 }, { 0, 0, 1, 0 })
    H.raises("InvalidArgumentError", nil, tf.pad, tf.constant({ 1 }), { { -1, 0 } })
    H.raises("InvalidArgumentError", nil, tf.pad, tf.constant({ 1 }), { { 1, 0 }, { 0, 1 } })
  end)

  it("tf.slice with size -1 meaning to the end", function()
    local x = tf.reshape(tf.range(12), { 3, 4 })
    H.tensor(tf.slice(tf.range(10), { 2 }, { 3 }), tf.int32, { 3 }, { 2, 3, 4 })
    H.tensor(tf.slice(x, { 1, 1 }, { 2, 2 }), tf.int32, { 2, 2 }, { { 5, 6 }, { 9, 10 } })
    H.tensor(tf.slice(x, { 1, 2 }, { -1, -1 }), tf.int32, { 2, 2 }, { { 6, 7 }, { 10, 11 } })
    H.tensor(tf.slice(x, { 0, 0 }, { 0, 4 }), tf.int32, { 0, 4 })
    H.raises("InvalidArgumentError", nil, tf.slice, x, { 2, 0 }, { 2, 1 })
  end)

  it("tf.strided_slice with strides and masks", function()
    local x = tf.reshape(tf.range(12), { 3, 4 })
    H.tensor(tf.strided_slice(tf.range(10), { 1 }, { 8 }, { 3 }), tf.int32, { 3 }, { 1, 4, 7 })
    H.tensor(tf.strided_slice(tf.range(5), { -1 }, { -6 }, { -1 }), tf.int32, { 5 }, { 4, 3, 2, 1, 0 })
    H.tensor(tf.strided_slice(x, { 0, 1 }, { 3, 3 }), tf.int32, { 3, 2 }, { { 1, 2 }, { 5, 6 }, { 9, 10 } })
    H.tensor(tf.strided_slice(x, { 1, 0 }, { 2, 0 }, { 1, 1 }, { end_mask = 2, shrink_axis_mask = 1 }),
      tf.int32, { 4 }, { 4, 5, 6, 7 })
    H.raises("InvalidArgumentError", nil, tf.strided_slice, tf.range(5), { 0 }, { 2 }, { 0 })
  end)

  it("tf.gather along an axis, 0-based, checking indices", function()
    local p = tf.constant({ { 1, 2, 3 }, { 4, 5, 6 } })
    H.tensor(tf.gather(tf.constant({ 10, 20, 30 }), { 2, 0, 2 }), tf.int32, { 3 }, { 30, 10, 30 })
    H.tensor(tf.gather(p, 1), tf.int32, { 3 }, { 4, 5, 6 })
    H.tensor(tf.gather(p, { 2, 0 }, 1), tf.int32, { 2, 2 }, { { 3, 1 }, { 6, 4 } })
    H.tensor(tf.gather(p, { { 1 }, { 0 } }), tf.int32, { 2, 1, 3 })
    H.tensor(tf.gather(tf.constant({ "a", "b" }), { 1 }), tf.string, { 1 }, { "b" })
    H.tensor(tf.gather(p, tf.constant({}, tf.int32)), tf.int32, { 0, 3 })
    H.raises("InvalidArgumentError", "not in [0, 3)", tf.gather, tf.constant({ 10, 20, 30 }), { 5 })
    H.raises("InvalidArgumentError", nil, tf.gather, tf.constant({ 10, 20, 30 }), { -1 })
  end)

  it("tf.where selects with broadcasting, or lists coordinates", function()
    local c = tf.constant({ true, false, true })
    H.tensor(tf.where(c, tf.constant({ 1, 2, 3 }), tf.constant({ 4, 5, 6 })), tf.int32, { 3 }, { 1, 5, 3 })
    H.tensor(tf.where(c, 1.0, 0.0), tf.float32, { 3 }, { 1.0, 0.0, 1.0 })
    H.tensor(tf.where(tf.constant({ { true }, { false } }), tf.constant({ 1, 2 }), 0), tf.int32, { 2, 2 },
      { { 1, 2 }, { 0, 0 } })
    H.tensor(tf.where(c), tf.int64, { 2, 1 }, { { 0 }, { 2 } })
    H.tensor(tf.where(tf.constant({ { false, true }, { true, false } })), tf.int64, { 2, 2 }, { { 0, 1 }, { 1, 0 } })
    H.tensor(tf.where(tf.constant({ false })), tf.int64, { 0, 1 })
    H.raises("InvalidArgumentError", nil, tf.where, c, tf.constant({ 1, 2, 3 }), tf.constant({ 1.0, 2.0, 3.0 }))
    H.raises("InvalidArgumentError", nil, tf.where, tf.constant({ true, false }), tf.constant({ 1, 2, 3 }), 0)
  end)

  it("tf.one_hot with depth, on/off values, axis and dtype", function()
    H.tensor(tf.one_hot(tf.constant({ 0, 2, 5 }), 3), tf.float32, { 3, 3 },
      { { 1, 0, 0 }, { 0, 0, 1 }, { 0, 0, 0 } })
    H.tensor(tf.one_hot({ 1 }, 2, { on_value = 5, off_value = -1, dtype = tf.int32 }), tf.int32, { 1, 2 },
      { { -1, 5 } })
    H.tensor(tf.one_hot(tf.constant({ 0, 1 }), 3, { axis = 0 }), tf.float32, { 3, 2 },
      { { 1, 0 }, { 0, 1 }, { 0, 0 } })
    H.tensor(tf.one_hot(tf.constant(1), 2), tf.float32, { 2 }, { 0, 1 })
  end)

  it("tf.one_hot with dtype bool defaults to true and false; a variable's dtype is read without a read", function()
    H.tensor(tf.one_hot({ 0, 2 }, 2, { dtype = tf.bool }), tf.bool, { 2, 2 }, { { true, false }, { false, false } })
    H.tensor(tf.one_hot({ 1 }, 2, { off_value = false }), tf.bool, { 1, 2 }, { { false, true } })
    local v = tf.Variable(2.0)
    local f = tf.func(function(i) return tf.one_hot(i, 2, { off_value = v, dtype = tf.float32 }) end)
    H.tensor(f(tf.constant({ 1 })), tf.float32, { 1, 2 }, { { 2, 1 } })
    local reads = 0
    for _, o in ipairs(f:get_concrete_function(tf.TensorSpec({ 1 }, tf.int32)).graph:get_operations()) do
      if o.type == "ReadVariableOp" then reads = reads + 1 end
    end
    assert.are.equal(1, reads)
  end)

  it("tf.shape tf.size tf.rank", function()
    H.tensor(tf.shape(tf.zeros({ 2, 3 })), tf.int32, { 2 }, { 2, 3 })
    H.tensor(tf.shape(tf.constant(1)), tf.int32, { 0 }, {})
    H.tensor(tf.shape(tf.zeros({ 2, 3 }), tf.int64), tf.int64, { 2 }, { 2, 3 })
    H.tensor(tf.size(tf.zeros({ 2, 3 })), tf.int32, {}, 6)
    H.tensor(tf.size(tf.zeros({ 0, 3 })), tf.int32, {}, 0)
    H.tensor(tf.rank(tf.zeros({ 2, 3 })), tf.int32, {}, 2)
    H.tensor(tf.rank(tf.constant("s")), tf.int32, {}, 0)
  end)

  it("tf.identity and tf.stop_gradient pass values through", function()
    H.tensor(tf.identity(tf.constant({ 1, 2 })), tf.int32, { 2 }, { 1, 2 })
    H.tensor(tf.identity(tf.constant("s")), tf.string, {}, "s")
    H.tensor(tf.stop_gradient(tf.constant({ 1.5 })), tf.float32, { 1 }, { 1.5 })
  end)
end)

describe("tf.nn", function()
  it("relu", function()
    H.tensor(tf.nn.relu(tf.constant({ -1.0, 0.0, 2.0 })), tf.float32, { 3 }, { 0, 0, 2 })
    H.tensor(tf.nn.relu(tf.constant({ -3, 4 })), tf.int32, { 2 }, { 0, 4 })
    assert.are.equal(tf.sigmoid, tf.nn.sigmoid)
  end)

  it("softmax along the last axis or a given one", function()
    local s1 = 1 / (1 + e(1) + e(2))
    H.tensor_close(tf.nn.softmax(tf.constant({ 0.0, 1.0, 2.0 })), tf.float32, { 3 }, { s1, e(1) * s1, e(2) * s1 })
    H.tensor_close(tf.nn.softmax(tf.constant({ { 1.0, 1.0 }, { 0.0, 1000.0 } })), tf.float32, { 2, 2 },
      { { 0.5, 0.5 }, { 0.0, 1.0 } })
    local h = 1 / (1 + e(2))
    H.tensor_close(tf.nn.softmax(tf.constant({ { 0.0, 1.0 }, { 2.0, 1.0 } }), 0), tf.float32, { 2, 2 },
      { { h, 0.5 }, { 1 - h, 0.5 } })
    H.tensor_close(tf.nn.softmax(tf.constant({ { 0.0, 1.0 }, { 2.0, 1.0 } }), { axis = 0 }), tf.float32, { 2, 2 },
      { { h, 0.5 }, { 1 - h, 0.5 } })
    H.raises("InvalidArgumentError", nil, tf.nn.softmax, tf.constant({ 1, 2 }))
  end)

  it("log_softmax, stably", function()
    local lse = log(1 + e(1) + e(2))
    H.tensor_close(tf.nn.log_softmax(tf.constant({ 0.0, 1.0, 2.0 })), tf.float32, { 3 }, { -lse, 1 - lse, 2 - lse })
    H.tensor_close(tf.nn.log_softmax(tf.constant({ 0.0, 1000.0 })), tf.float32, { 2 }, { -1000, 0 })
  end)

  it("softmax_cross_entropy_with_logits, positional or {labels=, logits=}", function()
    local logits = tf.constant({ { 0.0, 1.0, 2.0 }, { 1.0, 1.0, 1.0 } })
    local labels = tf.constant({ { 0.0, 0.0, 1.0 }, { 0.5, 0.5, 0.0 } })
    local lse = log(1 + e(1) + e(2))
    local want = { lse - 2, log(3) }
    H.tensor_close(tf.nn.softmax_cross_entropy_with_logits(labels, logits), tf.float32, { 2 }, want)
    H.tensor_close(tf.nn.softmax_cross_entropy_with_logits({ labels = labels, logits = logits }),
      tf.float32, { 2 }, want)
    H.raises("InvalidArgumentError", nil, tf.nn.softmax_cross_entropy_with_logits,
      tf.constant({ { 1.0, 0.0 } }), logits)
  end)

  it("sparse_softmax_cross_entropy_with_logits with 0-based labels", function()
    local logits = tf.constant({ { 0.0, 1.0, 2.0 }, { 1.0, 1.0, 1.0 } })
    local lse = log(1 + e(1) + e(2))
    H.tensor_close(tf.nn.sparse_softmax_cross_entropy_with_logits(tf.constant({ 2, 0 }), logits),
      tf.float32, { 2 }, { lse - 2, log(3) })
    H.tensor_close(tf.nn.sparse_softmax_cross_entropy_with_logits({ labels = tf.constant({ 0, 1 }), logits = logits }),
      tf.float32, { 2 }, { lse, log(3) })
    H.raises("InvalidArgumentError", nil, tf.nn.sparse_softmax_cross_entropy_with_logits,
      tf.constant({ 3, 0 }), logits)
  end)

  describe("conv2d (NHWC input, HWIO filters)", function()
    local img = tf.reshape(tf.range(1, 10, tf.float32), { 1, 3, 3, 1 }) -- 1..9

    it("VALID", function()
      H.tensor(tf.nn.conv2d(img, tf.ones({ 2, 2, 1, 1 }), 1, "VALID"), tf.float32, { 1, 2, 2, 1 },
        { { { { 12 }, { 16 } }, { { 24 }, { 28 } } } })
      -- a non-symmetric filter checks that it is correlation, not convolution
      local k = tf.reshape(tf.constant({ 1.0, 0.0, 0.0, -1.0 }), { 2, 2, 1, 1 })
      H.tensor(tf.nn.conv2d(img, k, 1, "VALID"), tf.float32, { 1, 2, 2, 1 },
        { { { { -4 }, { -4 } }, { { -4 }, { -4 } } } })
      H.tensor(tf.nn.conv2d(img, tf.ones({ 3, 3, 1, 1 }), 1, "VALID"), tf.float32, { 1, 1, 1, 1 }, { { { { 45 } } } })
    end)

    it("SAME pads at the bottom and right for even filters", function()
      H.tensor(tf.nn.conv2d(img, tf.ones({ 2, 2, 1, 1 }), 1, "SAME"), tf.float32, { 1, 3, 3, 1 },
        { { { { 12 }, { 16 }, { 9 } }, { { 24 }, { 28 }, { 15 } }, { { 15 }, { 17 }, { 9 } } } })
      H.tensor(tf.nn.conv2d(img, tf.ones({ 3, 3, 1, 1 }), 1, "SAME"), tf.float32, { 1, 3, 3, 1 },
        { { { { 12 }, { 21 }, { 16 } }, { { 27 }, { 45 }, { 33 } }, { { 24 }, { 39 }, { 28 } } } })
    end)

    it("strides", function()
      H.tensor(tf.nn.conv2d(img, tf.ones({ 3, 3, 1, 1 }), 2, "SAME"), tf.float32, { 1, 2, 2, 1 },
        { { { { 12 }, { 16 } }, { { 24 }, { 28 } } } })
      H.tensor(tf.nn.conv2d(img, tf.ones({ 1, 1, 1, 1 }), { 2, 1 }, "VALID"), tf.float32, { 1, 2, 3, 1 },
        { { { { 1 }, { 2 }, { 3 } }, { { 7 }, { 8 }, { 9 } } } })
    end)

    it("several input and output channels", function()
      -- 1x2x2x2 input, 1x1x2x2 filter: out[c] = sum_i in[i] * f[i][c]
      local x = tf.constant({ { { { 1.0, 2.0 }, { 3.0, 4.0 } }, { { 5.0, 6.0 }, { 7.0, 8.0 } } } })
      local f = tf.constant({ { { { 1.0, 0.0 }, { 1.0, 2.0 } } } })
      H.tensor(tf.nn.conv2d(x, f, 1, "VALID"), tf.float32, { 1, 2, 2, 2 },
        { { { { 3, 4 }, { 7, 8 } }, { { 11, 12 }, { 15, 16 } } } })
    end)

    it("checks padding, ranks and channels", function()
      H.raises("InvalidArgumentError", nil, tf.nn.conv2d, img, tf.ones({ 2, 2, 2, 1 }), 1, "VALID")
      H.raises("InvalidArgumentError", nil, tf.nn.conv2d, img, tf.ones({ 2, 2, 1, 1 }), 1, "FOO")
      H.raises("InvalidArgumentError", nil, tf.nn.conv2d, tf.ones({ 3, 3, 1 }), tf.ones({ 2, 2, 1, 1 }), 1, "VALID")
      H.raises("InvalidArgumentError", "negative", tf.nn.conv2d, img, tf.ones({ 5, 5, 1, 1 }), 1, "VALID")
      -- as in TF, a filter one larger than the input gives an empty output
      H.tensor(tf.nn.conv2d(img, tf.ones({ 4, 4, 1, 1 }), 1, "VALID"), tf.float32, { 1, 0, 0, 1 })
    end)

    -- float32 3x3 stride-1 filters (a path of their own for enough channels):
    -- each output within 2e-6 of its scale sum |x| |w| against the float64
    -- convolution; eager, traced and unoptimised traced results bitwise equal.
    it("3x3 stride 1: float64 reference, eager = traced", function()
      tf.random.set_seed(7)
      local cases = {
        { { 1, 27, 19, 32 }, 24, "VALID" }, { { 2, 21, 19, 17 }, 19, "SAME" },
        { { 3, 14, 9, 16 }, 40, "SAME" }, { { 2, 34, 9, 64 }, 16, "VALID" },
      } -- (four: a fifth trace of one function in a row warns)
      for _, case in ipairs(cases) do
        local shape, oc, pad = case[1], case[2], case[3]
        local x = tf.random.uniform(shape) * 2 - 1
        local w = tf.random.uniform({ 3, 3, shape[4], oc }) * 2 - 1
        local y = tf.nn.conv2d(x, w, 1, pad)
        local x64, w64 = tf.cast(x, tf.float64), tf.cast(w, tf.float64)
        local want = tf.nn.conv2d(x64, w64, 1, pad)
        local scale = tf.nn.conv2d(tf.abs(x64), tf.abs(w64), 1, pad)
        local err = tf.reduce_max(tf.abs(tf.cast(y, tf.float64) - want) / scale):numpy()
        assert.is_true(err <= 2e-6, ("%s -> %d %s: error / scale %g"):format(tostring(x.shape), oc, pad, err))
        local f = tf.func(function(a, b) return tf.nn.conv2d(a, b, 1, pad) end)
        assert.is_true(tf.reduce_all(tf.equal(f(x, w), y)):numpy())
        tf.config.optimizer.set_enabled(false)
        local ok, same = pcall(function()
          local g = tf.func(function(a, b) return tf.nn.conv2d(a, b, 1, pad) end)
          return tf.reduce_all(tf.equal(g(x, w), y)):numpy()
        end)
        tf.config.optimizer.set_enabled(true)
        assert.is_true(ok and same)
      end
    end)

    it("3x3 stride 1: the input gradient against float64, eager = traced", function()
      tf.random.set_seed(8)
      local x = tf.random.uniform({ 2, 17, 15, 24 }) * 2 - 1
      local w = tf.random.uniform({ 3, 3, 24, 20 }) * 2 - 1
      local dy = tf.random.uniform({ 2, 17, 15, 20 }) * 2 - 1
      local function grad(a, b, d)
        local tape = tf.GradientTape()
        tape:watch(a)
        local y = tf.nn.conv2d(a, b, 1, "SAME")
        tape:stop()
        return tape:gradient(y, { a }, { d })[1]
      end
      local g = grad(x, w, dy)
      local want = grad(tf.cast(x, tf.float64), tf.cast(w, tf.float64), tf.cast(dy, tf.float64))
      local scale = grad(tf.cast(x, tf.float64), tf.abs(tf.cast(w, tf.float64)), tf.abs(tf.cast(dy, tf.float64)))
      local err = tf.reduce_max(tf.abs(tf.cast(g, tf.float64) - want) / scale):numpy()
      assert.is_true(err <= 4e-6, ("error / scale %g"):format(err))
      assert.is_true(tf.reduce_all(tf.equal(tf.func(grad)(x, w, dy), g)):numpy())
    end)
  end)
end)

describe("tf.image.resize", function()
  it("resizes bilinearly with half-pixel centres (TF2 default)", function()
    local x = tf.reshape(tf.range(4, tf.float32), { 1, 2, 2, 1 }) -- [[0 1] [2 3]]
    H.tensor_close(tf.image.resize(x, { 4, 4 }), tf.float32, { 1, 4, 4, 1 }, {
      { { { 0 }, { 0.25 }, { 0.75 }, { 1 } },
        { { 0.5 }, { 0.75 }, { 1.25 }, { 1.5 } },
        { { 1.5 }, { 1.75 }, { 2.25 }, { 2.5 } },
        { { 2 }, { 2.25 }, { 2.75 }, { 3 } } } })
    H.tensor_close(tf.image.resize(x, { 1, 1 }), tf.float32, { 1, 1, 1, 1 }, { { { { 1.5 } } } })
    H.tensor_close(tf.image.resize(x, { 2, 2 }), tf.float32, { 1, 2, 2, 1 }, { { { { 0 }, { 1 } }, { { 2 }, { 3 } } } })
  end)

  it("takes HWC images and integer images, giving float32", function()
    H.tensor(tf.image.resize(tf.ones({ 2, 2, 3 }), { 3, 5 }), tf.float32, { 3, 5, 3 })
    H.tensor_close(tf.image.resize(tf.fill({ 1, 2, 2, 1 }, 7), { 3, 3 }), tf.float32, { 1, 3, 3, 1 },
      { { { { 7 }, { 7 }, { 7 } }, { { 7 }, { 7 }, { 7 } }, { { 7 }, { 7 }, { 7 } } } })
  end)

  it("refuses images that are not 3-D or 4-D", function()
    H.raises("InvalidArgumentError", nil, tf.image.resize, tf.ones({ 2, 2 }), { 3, 3 })
  end)
end)

describe("strings", function()
  it("tf.strings.length counts bytes or UTF-8 characters", function()
    H.tensor(tf.strings.length(tf.constant({ "ab", "cde", "" })), tf.int32, { 3 }, { 2, 3, 0 })
    H.tensor(tf.strings.length(tf.constant("h\xc3\xa9")), tf.int32, {}, 3)
    H.tensor(tf.strings.length(tf.constant("h\xc3\xa9"), { unit = "UTF8_CHAR" }), tf.int32, {}, 2)
    H.raises("InvalidArgumentError", nil, tf.strings.length, tf.constant(1))
  end)

  it("tf.strings.join joins elementwise with a separator, broadcasting scalars", function()
    H.tensor(tf.strings.join({ tf.constant({ "a", "b" }), tf.constant({ "x", "y" }) }, "-"), tf.string, { 2 },
      { "a-x", "b-y" })
    H.tensor(tf.strings.join({ tf.constant({ "a", "b" }), tf.constant("!") }), tf.string, { 2 }, { "a!", "b!" })
    H.tensor(tf.strings.join({ "x", "y", "z" }, { separator = "," }), tf.string, {}, "x,y,z")
    H.raises("InvalidArgumentError", nil, tf.strings.join, { tf.constant({ "a", "b" }), tf.constant({ "a", "b", "c" }) })
  end)

  it("string + concatenates", function()
    H.tensor(tf.add(tf.constant({ "a" }), tf.constant({ "b" })), tf.string, { 1 }, { "ab" })
  end)
end)

describe("tf.timestamp", function()
  it("is the wall-clock time in seconds as a float64 scalar, fresh at each call", function()
    local t = tf.timestamp()
    H.tensor(t, tf.float64, {})
    assert.is_true(math.abs(t:numpy() - os.time()) < 5, "timestamp " .. t:numpy() .. " vs os.time " .. os.time())
    local t2 = tf.timestamp()
    assert.is_true(t2:numpy() >= t:numpy())
    -- sub-second resolution
    local frac = false
    for _ = 1, 5 do
      local v = tf.timestamp():numpy()
      if v ~= math.floor(v) then frac = true end
    end
    assert.is_true(frac, "timestamp has no sub-second part")
  end)
end)
