-- nn_pool_spec.lua — tf.nn.max_pool2d / avg_pool2d (MaxPool, AvgPool and
-- their gradients), tf.nn.dropout and tf.nn.embedding_lookup: values from
-- TensorFlow's own tests (pooling_ops_test.py: inputs 1..N, NHWC), the
-- gradients against central differences and TF's tie rule, eager against
-- traced, the options and TF's error types.

local tf = tf or require("moonflow")
local H = require("helpers")

-- TF's pooling_ops_test input: 1, 2, ..., N shaped as `sizes`.
local function ramp(sizes, dtype)
  local n = 1
  for _, d in ipairs(sizes) do n = n * d end
  return tf.reshape(tf.range(1, n + 1, 1, dtype or tf.float32), sizes)
end

local function flat(t)
  return tf.reshape(t, { -1 }):numpy()
end

-- Central differences of sum(f(x) * w) for a float64 x, as a flat list.
local function numeric_grad(f, x, w, eps)
  eps = eps or 1e-6
  local v = flat(x)
  local shape = x.shape:as_list()
  local out = {}
  for i = 1, #v do
    local up, down = { table.unpack(v) }, { table.unpack(v) }
    up[i], down[i] = v[i] + eps, v[i] - eps
    local fu = tf.reduce_sum(f(tf.reshape(tf.constant(up, tf.float64), shape)) * w):numpy()
    local fd = tf.reduce_sum(f(tf.reshape(tf.constant(down, tf.float64), shape)) * w):numpy()
    out[i] = (fu - fd) / (2 * eps)
  end
  return out
end

local function has_types(cf, ...)
  local seen = {}
  for _, t in ipairs(H.op_types(cf)) do seen[t] = true end
  for _, t in ipairs({ ... }) do
    if not seen[t] then return false, t end
  end
  return true
end

local function tape_grad(f, x, w)
  local tape <close> = tf.GradientTape()
  tape:watch(x)
  local y = tf.reduce_sum(f(x) * w)
  return flat(tape:gradient(y, x))
end

describe("tf.nn.max_pool2d (TF's pooling_ops_test values)", function()
  it("VALID 2x2 stride 2 over 1x3x3x3", function()
    H.tensor(tf.nn.max_pool2d(ramp({ 1, 3, 3, 3 }), 2, 2, "VALID"), tf.float32, { 1, 1, 1, 3 },
      { { { { 13, 14, 15 } } } })
  end)
  it("SAME 2x2 stride 2 over 1x2x3x3", function()
    local y = tf.nn.max_pool2d(ramp({ 1, 2, 3, 3 }), { 1, 2, 2, 1 }, { 1, 2, 2, 1 }, "SAME")
    H.tensor(y, tf.float32, { 1, 1, 2, 3 })
    assert.are.same({ 13, 14, 15, 16, 17, 18 }, flat(y))
  end)
  it("SAME with a non-square window: padding never wins", function()
    local y = tf.nn.max_pool2d(ramp({ 1, 2, 2, 1 }), { 1, 2 }, 1, "SAME")
    assert.are.same({ 2, 2, 4, 4 }, flat(y))
    local neg = tf.nn.max_pool2d(-ramp({ 1, 2, 2, 1 }), { 1, 2 }, 1, "SAME")
    assert.are.same({ -1, -2, -3, -4 }, flat(neg))
  end)
  it("VALID with uneven strides", function()
    assert.are.same({ 6, 8, 10, 12, 14, 16 }, flat(tf.nn.max_pool2d(ramp({ 1, 4, 4, 1 }), 2, { 1, 2 }, "VALID")))
    assert.are.same({ 6, 7, 8, 14, 15, 16 }, flat(tf.nn.max_pool2d(ramp({ 1, 4, 4, 1 }), 2, { 2, 1 }, "VALID")))
  end)
  it("SAME 2x2 stride 2 over 1x4x4x4 (Packet4)", function()
    assert.are.same({ 21, 22, 23, 24, 29, 30, 31, 32, 53, 54, 55, 56, 61, 62, 63, 64 },
      flat(tf.nn.max_pool2d(ramp({ 1, 4, 4, 4 }), 2, 2, "SAME")))
  end)
  it("a kernel smaller than the stride", function()
    assert.are.same({ 9, 12, 30, 33 }, flat(tf.nn.max_pool2d(ramp({ 1, 7, 7, 1 }), 2, 3, "VALID")))
  end)
  it("an empty batch gives an empty batch", function()
    H.tensor(tf.nn.max_pool2d(tf.zeros({ 0, 8, 8, 8 }), 3, 2, "SAME"), tf.float32, { 0, 4, 4, 8 })
  end)
  it("float64 keeps its dtype; tf.nn.max_pool is the same function", function()
    H.tensor(tf.nn.max_pool(ramp({ 1, 3, 3, 3 }, tf.float64), 2, 2, "VALID"), tf.float64, { 1, 1, 1, 3 },
      { { { { 13, 14, 15 } } } })
  end)
end)

describe("tf.nn.avg_pool2d (TF's pooling_ops_test values)", function()
  it("VALID 2x2 stride 2 over 1x3x3x3", function()
    assert.are.same({ 7, 8, 9 }, flat(tf.nn.avg_pool2d(ramp({ 1, 3, 3, 3 }), 2, 2, "VALID")))
  end)
  it("SAME averages the real pixels only", function()
    assert.are.same({ 8.5, 9.5, 10.5, 14.5, 15.5, 16.5 },
      flat(tf.nn.avg_pool2d(ramp({ 1, 2, 4, 3 }), 2, 2, "SAME")))
    assert.are.same({ 2, 3, 3, 4, 6, 7, 7, 8, 10, 11, 11, 12, 14, 15, 15, 16 },
      flat(tf.nn.avg_pool2d(ramp({ 2, 2, 2, 2 }), { 1, 2 }, 1, "SAME")))
  end)
  it("SAME 3x3 stride 2 over 1x4x4x4 (Packet4)", function()
    assert.are.same({ 21, 22, 23, 24, 27, 28, 29, 30, 45, 46, 47, 48, 51, 52, 53, 54 },
      flat(tf.nn.avg_pool2d(ramp({ 1, 4, 4, 4 }), 3, 2, "SAME")))
  end)
  it("uneven strides and a kernel smaller than the stride", function()
    assert.are.same({ 7, 8, 9, 16, 17, 18 }, flat(tf.nn.avg_pool2d(ramp({ 1, 3, 3, 3 }), 2, { 1, 2 }, "VALID")))
    assert.are.same({ 5, 8, 26, 29 }, flat(tf.nn.avg_pool2d(ramp({ 1, 7, 7, 1 }), 2, 3, "VALID")))
  end)
end)

describe("pooling gradients", function()
  local x = tf.constant({ 0.3, -1.2, 0.8, 0.05, 1.7, -0.4, 0.9, 0.25, -0.6, 1.1, 0.45, -0.15,
    0.6, -0.9, 1.3, 0.2, -0.35, 0.75 }, tf.float64)
  x = tf.reshape(x, { 1, 3, 3, 2 })
  local cases = {
    { "max VALID 2x2 stride 1", function(v) return tf.nn.max_pool2d(v, 2, 1, "VALID") end, { 1, 2, 2, 2 } },
    { "max SAME 2x2 stride 2", function(v) return tf.nn.max_pool2d(v, 2, 2, "SAME") end, { 1, 2, 2, 2 } },
    { "avg VALID 2x2 stride 1", function(v) return tf.nn.avg_pool2d(v, 2, 1, "VALID") end, { 1, 2, 2, 2 } },
    { "avg SAME 3x2 stride 2", function(v) return tf.nn.avg_pool2d(v, { 3, 2 }, 2, "SAME") end, { 1, 2, 2, 2 } },
  }
  for _, c in ipairs(cases) do
    it(c[1] .. " matches central differences", function()
      local w = tf.reshape(tf.range(1, 9, 1, tf.float64), c[3])
      H.close(numeric_grad(c[2], x, w), tape_grad(c[2], x, w), 1e-6)
    end)
  end
  it("a tie sends max_pool's gradient to the window's first maximum, as TF's CPU kernel", function()
    local ones = tf.ones({ 1, 2, 2, 1 })
    local g = tape_grad(function(v) return tf.nn.max_pool2d(v, 2, 2, "VALID") end, ones, 1)
    assert.are.same({ 1, 0, 0, 0 }, g)
  end)
  it("second derivatives: the gradient's gradient goes through MaxPoolGradGrad and AvgPool", function()
    -- g = d sum(f(x) * w) / dx is linear in w; d sum(g * x) / dw reads x
    -- back through the same windows: max_pool(x) for max (x has no ties),
    -- avg_pool(x) for avg.
    for _, f in ipairs({ tf.nn.max_pool2d, tf.nn.avg_pool2d }) do
      local w = tf.reshape(tf.range(1, 9, 1, tf.float64), { 1, 2, 2, 2 })
      local outer <close> = tf.GradientTape()
      outer:watch(w)
      local inner <close> = tf.GradientTape()
      inner:watch(x)
      local y = tf.reduce_sum(f(x, 2, 1, "VALID") * w)
      local g = inner:gradient(y, x)
      local gw = outer:gradient(tf.reduce_sum(g * x), w)
      H.close(flat(f(x, 2, 1, "VALID")), flat(gw), 1e-12)
    end
  end)
end)

describe("pooling traced", function()
  it("a tf.func gives the eager values and the gradient, optimised and not", function()
    local x = tf.reshape(tf.sin(tf.range(0, 32, 1, tf.float32)), { 2, 4, 4, 1 })
    local f = tf.func(function(v)
      local tape <close> = tf.GradientTape()
      tape:watch(v)
      local y = tf.nn.max_pool2d(v, 2, 2, "SAME") + tf.slice(tf.nn.avg_pool2d(v, { 3, 3 }, 1, "VALID"), { 0, 0, 0, 0 }, { 2, 2, 2, 1 })
      return y, tape:gradient(tf.reduce_sum(y * y), v)
    end)
    local tape <close> = tf.GradientTape()
    tape:watch(x)
    local y = tf.nn.max_pool2d(x, 2, 2, "SAME") + tf.slice(tf.nn.avg_pool2d(x, { 3, 3 }, 1, "VALID"), { 0, 0, 0, 0 }, { 2, 2, 2, 1 })
    local g = tape:gradient(tf.reduce_sum(y * y), x)
    local ty, tg = f(x)
    assert.are.same(y:numpy(), ty:numpy())
    assert.are.same(g:numpy(), tg:numpy())
    assert.is_true(has_types(f:get_concrete_function(x), "MaxPool", "AvgPool", "MaxPoolGrad", "AvgPoolGrad"))
    tf.config.optimizer.set_enabled(false)
    local uy, ug = f(x)
    tf.config.optimizer.set_enabled(true)
    assert.are.same(y:numpy(), uy:numpy())
    assert.are.same(g:numpy(), ug:numpy())
  end)
  it("an input of unknown height keeps the other dimensions", function()
    local traced_shape
    local f = tf.func(function(v)
      local y = tf.nn.max_pool2d(v, 2, 2, "SAME")
      traced_shape = y.shape:as_list()
      return y
    end, { input_signature = { tf.TensorSpec({ 2, tf.None, 6, 3 }, tf.float32) } })
    f:get_concrete_function()
    assert.are.same({ 2, tf.None, 3, 3 }, traced_shape)
    H.tensor(f(tf.zeros({ 2, 5, 6, 3 })), tf.float32, { 2, 3, 3, 3 })
  end)
end)

describe("pooling errors", function()
  it("refuses NCHW with an InvalidArgumentError, as TF on the CPU", function()
    H.raises("InvalidArgumentError", "only supports NHWC",
      function() return tf.nn.max_pool2d(tf.zeros({ 1, 1, 4, 4 }), 2, 2, "VALID", "NCHW") end)
    H.raises("InvalidArgumentError", "only supports NHWC",
      function() return tf.nn.avg_pool2d(tf.zeros({ 1, 1, 4, 4 }), 2, 2, "VALID", { data_format = "NCHW" }) end)
  end)
  it("needs a 4-D float input", function()
    H.raises("InvalidArgumentError", "must be 4-dimensional",
      function() return tf.nn.max_pool2d(tf.zeros({ 4, 4, 1 }), 2, 2, "VALID") end)
    H.raises("InvalidArgumentError", nil,
      function() return tf.nn.avg_pool2d(tf.zeros({ 1, 4, 4, 1 }, tf.int32), 2, 2, "VALID") end)
  end)
  it("checks ksize, strides and padding", function()
    H.raises("TypeError", "missing 2 required positional arguments: 'strides' and 'padding'",
      function() return tf.nn.max_pool2d(tf.zeros({ 1, 4, 4, 1 }), 2) end)
    H.raises("ValueError", "ksize should be of length 1, 2 or 4",
      function() return tf.nn.max_pool2d(tf.zeros({ 1, 4, 4, 1 }), { 2, 2, 2 }, 2, "VALID") end)
    H.raises("InvalidArgumentError", "'padding'",
      function() return tf.nn.max_pool2d(tf.zeros({ 1, 4, 4, 1 }), 2, 2, "FULL") end)
    H.raises("UnimplementedError", "batch dimension",
      function() return tf.nn.max_pool2d(tf.zeros({ 2, 4, 4, 1 }), { 2, 2, 2, 1 }, 1, "VALID") end)
    H.raises("InvalidArgumentError", "larger than the input tensor dimension",
      function() return tf.nn.max_pool2d(tf.ones({ 1, 1, 1, 1 }), { 1, 2 }, 1, "VALID") end)
    H.raises("TypeError", "unexpected keyword argument 'stride'",
      function() return tf.nn.avg_pool2d(tf.zeros({ 1, 4, 4, 1 }), 2, { stride = 2 }) end)
  end)
end)

describe("tf.nn.dropout", function()
  it("zeroes with probability rate and scales the rest by 1 / (1 - rate)", function()
    tf.random.set_seed(7)
    local x = tf.fill({ 100, 50 }, 3.0)
    local y = tf.nn.dropout(x, 0.25)
    local kept, zeros = 0, 0
    for _, row in ipairs(y:numpy()) do
      for _, v in ipairs(row) do
        if v == 0 then zeros = zeros + 1 else
          assert.are.equal(4.0, v)
          kept = kept + 1
        end
      end
    end
    -- 5000 Bernoulli(0.25) draws: the zeros lie within 6 standard deviations.
    assert.is_true(math.abs(zeros - 1250) < 6 * math.sqrt(5000 * 0.25 * 0.75), "zeros: " .. zeros)
    assert.are.equal(5000, kept + zeros)
  end)
  it("draws from the session's random stream: tf.random.set_seed repeats it", function()
    tf.random.set_seed(3)
    local a = tf.nn.dropout(tf.ones({ 4, 8 }), 0.5, { seed = 11 })
    tf.random.set_seed(3)
    local b = tf.nn.dropout(tf.ones({ 4, 8 }), 0.5, { seed = 11 })
    assert.are.same(a:numpy(), b:numpy())
    local c = tf.nn.dropout(tf.ones({ 4, 8 }), 0.5, { seed = 11 })
    assert.are_not.same(a:numpy(), c:numpy())
  end)
  it("noise_shape shares one mask along the dimensions of size 1", function()
    tf.random.set_seed(5)
    local y = tf.nn.dropout(tf.ones({ 6, 20 }), 0.5, { 1, 20 }):numpy()
    for r = 2, 6 do assert.are.same(y[1], y[r]) end
    local z = tf.nn.dropout(tf.ones({ 6, 20 }), 0.5, { tf.None, 1 }):numpy()
    for r = 1, 6 do
      for c = 2, 20 do assert.are.equal(z[r][1], z[r][c]) end
    end
  end)
  it("its gradient is the same mask, scaled", function()
    tf.random.set_seed(9)
    local x = tf.fill({ 3, 7 }, 1.0)
    local tape <close> = tf.GradientTape()
    tape:watch(x)
    local y = tf.nn.dropout(x, 0.5)
    local g = tape:gradient(tf.reduce_sum(y), x)
    assert.are.same(y:numpy(), g:numpy())
  end)
  it("runs traced, with a tensor rate", function()
    tf.random.set_seed(1)
    local f = tf.func(function(v, r) return tf.nn.dropout(v, r) end)
    local y = f(tf.ones({ 50 }), tf.constant(0.8)):numpy()
    for _, v in ipairs(y) do assert.is_true(v == 0 or math.abs(v - 5) < 1e-5, tostring(v)) end
  end)
  it("returns x itself for rate 0 and checks its arguments as TF", function()
    local x = tf.ones({ 2 })
    assert.are.equal(x, tf.nn.dropout(x, 0))
    H.raises("ValueError", "range [0, 1)", function() return tf.nn.dropout(x, 1) end)
    H.raises("ValueError", "range [0, 1)", function() return tf.nn.dropout(x, -0.1) end)
    H.raises("ValueError", "floating point", function() return tf.nn.dropout(tf.constant({ 1, 2 }), 0.5) end)
    H.raises("TypeError", "unexpected keyword argument 'rates'", function() return tf.nn.dropout(x, 0.5, { rates = 1 }) end)
    H.raises("TypeError", "noise_shape must be a list", function() return tf.nn.dropout(x, 0.5, "x") end)
  end)
end)

describe("tf.nn.embedding_lookup", function()
  local params = tf.constant({ { 1, 2 }, { 3, 4 }, { 5, 6 }, { 7, 8 } }, tf.float32)
  it("gathers rows for ids of any shape", function()
    H.tensor(tf.nn.embedding_lookup(params, tf.constant({ { 3, 0 }, { 1, 1 } })), tf.float32, { 2, 2, 2 },
      { { { 7, 8 }, { 1, 2 } }, { { 3, 4 }, { 3, 4 } } })
    H.tensor(tf.nn.embedding_lookup(params, { 2 }), tf.float32, { 1, 2 }, { { 5, 6 } })
  end)
  it("takes shards split as TF2's div strategy", function()
    local shards = { tf.constant({ { 1, 2 }, { 3, 4 } }), tf.constant({ { 5, 6 }, { 7, 8 } }) }
    H.tensor(tf.nn.embedding_lookup(shards, tf.constant({ 3, 0, 2 })), tf.int32, { 3, 2 },
      { { 7, 8 }, { 1, 2 }, { 5, 6 } })
  end)
  it("clips each embedding to max_norm", function()
    local e = tf.nn.embedding_lookup(tf.constant({ { 3.0, 4.0 }, { 0.3, 0.4 } }), tf.constant({ 0, 1 }), 1.0)
    H.close({ { 0.6, 0.8 }, { 0.3, 0.4 } }, e)
  end)
  it("its gradient is dense: each id's rows summed", function()
    local v = tf.Variable(params)
    local tape <close> = tf.GradientTape()
    local y = tf.nn.embedding_lookup(v, tf.constant({ 1, 3, 1 }))
    local g = tape:gradient(tf.reduce_sum(y * tf.constant({ { 1, 1 }, { 2, 2 }, { 10, 10 } }, tf.float32)), v)
    H.tensor(g, tf.float32, { 4, 2 }, { { 0, 0 }, { 11, 11 }, { 0, 0 }, { 2, 2 } })
  end)
  it("is a GatherV2 when traced, and refuses float ids", function()
    local f = tf.func(function(p, i) return tf.nn.embedding_lookup(p, i) end)
    assert.are.same({ { 5, 6 } }, f(params, tf.constant({ 2 })):numpy())
    assert.is_true(has_types(f:get_concrete_function(params, tf.constant({ 2 })), "GatherV2"))
    H.raises("TypeError", "int32, int64", function() return tf.nn.embedding_lookup(params, tf.constant({ 1.0 })) end)
  end)
end)
