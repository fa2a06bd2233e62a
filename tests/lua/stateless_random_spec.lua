-- stateless_random_spec.lua — tf.random.stateless_*: values from (seed,
-- shape, dtype) alone, TF's values where TF's docs print them, TF's errors.

local function numpy(t) return t:numpy() end

describe("tf.random.experimental.stateless_split", function()
  it("gives TF's documented seeds for seed [1, 2]", function()
    local s = tf.random.experimental.stateless_split({ 1, 2 }, 3)
    assert.same({ { 1105988140, 1738052849 }, { -335576002, 370444179 }, { 10670227, -246211131 } }, numpy(s))
    assert.equal(tf.int32, s.dtype)
    assert.same(numpy(s), numpy(tf.random.split({ 1, 2 }, 3)))
  end)
  it("fold_in stacks a draw from the seed with the data", function()
    local f = tf.random.experimental.stateless_fold_in({ 1, 2 }, 5)
    assert.same({ 1105988140, 5 }, numpy(f))
  end)
end)

describe("tf.random.stateless_normal", function()
  it("gives TF's documented values for the first split seed", function()
    local s = tf.random.experimental.stateless_split({ 1, 2 }, 3)
    local x = tf.random.stateless_normal({ 3 }, s[0])
    assert.equal("tf.Tensor([-0.59835213 -0.9578608   0.9002807 ], shape=(3,), dtype=float32)", tostring(x))
  end)
  it("has mean 0 and stddev 1, scaled by stddev and shifted by mean", function()
    local x = tf.random.stateless_normal({ 20000 }, { 3, 4 }, { mean = 5, stddev = 2 })
    assert.is_true(math.abs(tf.reduce_mean(x):numpy() - 5) < 0.1)
    assert.is_true(math.abs(tf.math.reduce_std(x):numpy() - 2) < 0.1)
  end)
end)

describe("stateless draws", function()
  local cases = {
    { "uniform", tf.random.stateless_uniform },
    { "normal", tf.random.stateless_normal },
    { "truncated_normal", tf.random.stateless_truncated_normal },
  }
  for _, c in ipairs(cases) do
    for _, dt in ipairs({ "float16", "bfloat16", "float32", "float64" }) do
      it(c[1] .. " " .. dt .. " repeats for a seed, eagerly and traced, and differs for another", function()
        tf.random.set_seed(1)
        local a = c[2]({ 5, 7 }, { 11, 12 }, { dtype = tf[dt] })
        tf.random.set_seed(99)
        local b = c[2]({ 5, 7 }, tf.constant({ 11, 12 }, tf.int64), { dtype = tf[dt] })
        local traced = tf.func(function(s) return c[2]({ 5, 7 }, s, { dtype = tf[dt] }) end)(tf.constant({ 11, 12 }))
        assert.equal(tf[dt], a.dtype)
        assert.same(numpy(a), numpy(b))
        assert.same(numpy(a), numpy(traced))
        assert.are_not.same(numpy(a), numpy(c[2]({ 5, 7 }, { 11, 13 }, { dtype = tf[dt] })))
      end)
    end
  end
  it("truncated_normal stays inside two standard deviations", function()
    local x = tf.random.stateless_truncated_normal({ 10000 }, { 1, 2 }, { dtype = tf.float64 })
    assert.is_true(tf.reduce_max(tf.abs(x)):numpy() < 2)
    assert.is_true(math.abs(tf.math.reduce_std(x):numpy() - 0.8796) < 0.03)
  end)
  it("uniform lies in [minval, maxval) with the right mean", function()
    local x = tf.random.stateless_uniform({ 10000 }, { 1, 2 }, { minval = -3, maxval = 5 })
    assert.is_true(tf.reduce_min(x):numpy() >= -3 and tf.reduce_max(x):numpy() < 5)
    assert.is_true(math.abs(tf.reduce_mean(x):numpy() - 1) < 0.15)
  end)
  it("integer uniform takes minval and maxval, or neither (the whole range)", function()
    local x = tf.random.stateless_uniform({ 1000 }, { 1, 2 }, { minval = 3, maxval = 7, dtype = tf.int64 })
    assert.equal(tf.int64, x.dtype)
    assert.equal(3, tf.reduce_min(x):numpy())
    assert.equal(6, tf.reduce_max(x):numpy())
    assert.equal(tf.int32, tf.random.stateless_uniform({ 2 }, { 1, 2 }, { dtype = tf.int32 }).dtype)
  end)
end)

describe("stateless errors, as TF's", function()
  local function err(f, ...)
    local ok, e = pcall(f, ...)
    assert.is_false(ok)
    return e
  end
  it("a seed of the wrong shape is an InvalidArgumentError", function()
    local e = err(tf.random.stateless_uniform, { 3 }, { 1, 2, 3 })
    assert.equal("InvalidArgumentError", e.type)
    assert.truthy(tostring(e):find("seed must have shape [2], not [3]", 1, true))
  end)
  it("an integer dtype with only one of minval and maxval is a ValueError", function()
    local e = err(tf.random.stateless_uniform, { 3 }, { 1, 2 }, { maxval = 3, dtype = tf.int32 })
    assert.equal("ValueError", e.type)
    assert.truthy(tostring(e):find("must be both None or not None", 1, true))
  end)
  it("minval >= maxval for integers is an InvalidArgumentError", function()
    local e = err(tf.random.stateless_uniform, { 3 }, { 1, 2 }, { minval = 5, maxval = 3, dtype = tf.int32 })
    assert.equal("InvalidArgumentError", e.type)
    assert.truthy(tostring(e):find("Need minval < maxval: 5 >= 3", 1, true))
  end)
  it("a float seed and an integer normal dtype are TypeErrors", function()
    assert.equal("TypeError", err(tf.random.stateless_normal, { 3 }, { 1.5, 2.5 }).type)
    assert.equal("TypeError", err(tf.random.stateless_normal, { 3 }, { 1, 2 }, { dtype = tf.int32 }).type)
  end)
end)

describe("seeded Keras initializers draw statelessly", function()
  it("RandomNormal, RandomUniform and TruncatedNormal with seed s are the stateless draws from [s, 0]", function()
    local K = tf.keras.initializers
    assert.same(numpy(tf.random.stateless_normal({ 3, 4 }, { 7, 0 }, { stddev = 0.05 })),
      numpy(K.RandomNormal({ seed = 7 })({ 3, 4 })))
    assert.same(numpy(tf.random.stateless_uniform({ 3, 4 }, { 7, 0 }, { minval = -0.05, maxval = 0.05 })),
      numpy(K.RandomUniform({ seed = 7 })({ 3, 4 })))
    assert.same(numpy(tf.random.stateless_truncated_normal({ 3, 4 }, { 7, 0 }, { stddev = 0.05 })),
      numpy(K.TruncatedNormal({ seed = 7 })({ 3, 4 })))
  end)
  it("a seeded initializer gives the same values under tf.func as eagerly", function()
    local init = tf.keras.initializers.GlorotUniform({ seed = 3 })
    local eager = init({ 4, 5 })
    assert.same(numpy(eager), numpy(tf.func(function() return init({ 4, 5 }) end)()))
  end)
end)
