-- random.lua — RandomStandardNormal RandomUniform. No two ways of running
-- give the same numbers in TF either (eager and traced draw from different
-- seeds), so these entries are `random`: the driver checks the shape and
-- dtype, that the same global and op seeds give the same numbers again
-- (eager, and in a fresh tf.func), that a second call draws new ones, and
-- ops_reference.py tests the distribution (Kolmogorov-Smirnov, at a level
-- no correct generator fails).

local function entry(name, op, fn)
  return {
    name = name, ops = { op }, random = true,
    gen = function(r, g)
      local shape = { r.range(1, 40), r.range(20, 60) }
      if r.chance(0.1) then shape = { r.range(0, 2), 3 } end
      return { inputs = {}, attrs = { shape = shape, dtype = r.pick(gen.FLOATS), seed = r.pick({ 0, 1, 7, 12345 }),
        global = r.range(1, 1000) } }
    end,
    call = function(a) return fn(a.shape, { dtype = tf[a.dtype], seed = a.seed ~= 0 and a.seed or nil }) end,
  }
end

local function stateless_entry(name, op, fn, dts, bounded)
  return {
    name = name, ops = { op },
    gen = function(r)
      local shape = { r.range(1, 40), r.range(20, 60) }
      if r.chance(0.1) then shape = { r.range(0, 2), 3 } end
      local lo = r.range(-50, 50)
      return { inputs = {}, attrs = { shape = shape, dtype = r.pick(dts), seed = { r.range(-1000, 1000), r.range(0, 9) },
        minval = bounded and lo or nil, maxval = bounded and lo + r.range(1, 100) or nil } }
    end,
    call = function(a)
      return tf.random[fn](a.shape, a.seed, { dtype = tf[a.dtype], minval = a.minval, maxval = a.maxval })
    end,
  }
end

return {
  entry("random_normal", "RandomStandardNormal", tf.random.normal),
  entry("random_uniform", "RandomUniform", tf.random.uniform),
  {
    -- tf.nn.dropout (a uniform sample, a comparison, a select): the kept
    -- share and the scale of what is kept
    name = "dropout", ops = { "RandomUniform", "SelectV2" }, random = true,
    gen = function(r)
      return { inputs = {}, attrs = { shape = { r.range(10, 40), r.range(20, 60) }, dtype = r.pick(gen.FLOATS),
        rate = r.pick({ 0.1, 0.25, 0.5, 0.9 }), seed = r.pick({ 0, 3 }), global = r.range(1, 1000) } }
    end,
    call = function(a)
      return tf.nn.dropout(tf.ones(a.shape, tf[a.dtype]), a.rate, nil, a.seed ~= 0 and a.seed or nil)
    end,
  },
  -- The stateless ops (tf.random.stateless_*): the values are a function
  -- of (seed, shape, dtype), so these are ordinary entries (eager, traced,
  -- unoptimised and with unknown dimensions, bit for bit) whose reference
  -- checks the distribution as above; tests/lua/stateless_random_spec.lua
  -- checks TF's documented values.
  stateless_entry("stateless_uniform", "StatelessRandomUniform", "stateless_uniform", gen.FLOATS),
  stateless_entry("stateless_normal", "StatelessRandomNormal", "stateless_normal", gen.FLOATS),
  stateless_entry("stateless_truncated_normal", "StatelessTruncatedNormal", "stateless_truncated_normal", gen.FLOATS),
  stateless_entry("stateless_uniform_int", "StatelessRandomUniformInt", "stateless_uniform", { "int32", "int64" }, true),
  stateless_entry("stateless_uniform_full_int", "StatelessRandomUniformFullInt", "stateless_uniform",
    { "int32", "int64" }),
}
