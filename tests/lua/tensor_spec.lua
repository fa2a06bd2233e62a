-- tensor_spec.lua — API.md "Tensors", "dtypes and conversion" and
-- "Indexing convention": constructors, shapes, fields, operators,
-- comparisons, indexing and the printed forms, character for character.
local tf = tf or require("moonflow")
local H = require("helpers")

describe("tf.constant and conversion of Lua values", function()
  it("converts integers to int32, floats to float32, booleans to bool, strings to string", function()
    H.tensor(tf.constant(3), tf.int32, {}, 3)
    H.tensor(tf.constant(2.5), tf.float32, {}, 2.5)
    H.tensor(tf.constant(true), tf.bool, {}, true)
    H.tensor(tf.constant("aa"), tf.string, {}, "aa")
  end)

  it("converts an integer beyond int32 to int64", function()
    H.tensor(tf.constant(3000000000), tf.int64, {}, 3000000000)
    H.tensor(tf.constant({1, -3000000000}), tf.int64, { 2 }, { 1, -3000000000 })
    H.tensor(tf.constant(2147483647), tf.int32, {}, 2147483647)
    H.tensor(tf.constant(-2147483648), tf.int32, {}, -2147483648)
  end)

  it("makes a float32 tensor when integers and floats are mixed", function()
    H.tensor(tf.constant({ 1, 2.5 }), tf.float32, { 2 }, { 1.0, 2.5 })
  end)

  it("gives nested sequence tables their shape", function()
    H.tensor(tf.constant({ { 1, 2, 3 }, { 4, 5, 6 } }), tf.int32, { 2, 3 }, { { 1, 2, 3 }, { 4, 5, 6 } })
    H.tensor(tf.constant({ { { true } }, { { false } } }), tf.bool, { 2, 1, 1 }, { { { true } }, { { false } } })
    H.tensor(tf.constant({ "a", "bc" }), tf.string, { 2 }, { "a", "bc" })
    H.tensor(tf.constant({}), tf.float32, { 0 }, {})
    H.tensor(tf.constant({ {}, {} }), tf.float32, { 2, 0 })
  end)

  it("rejects ragged tables with a ValueError", function()
    H.raises("ValueError", "non-rectangular", tf.constant, { { 1, 2 }, { 3 } })
    H.raises("ValueError", nil, tf.constant, { 1, { 2 } })
    H.raises("ValueError", nil, tf.constant, { { 1 }, 2 })
  end)

  it("rejects tables mixing kinds and values that are not data", function()
    H.raises("TypeError", nil, tf.constant, { true, 1 })
    H.raises("TypeError", nil, tf.constant, { "a", 1 })
    H.raises("TypeError", nil, tf.constant, function() end)
  end)

  it("converts to a requested dtype, given as a dtype or its name", function()
    H.tensor(tf.constant({ 1, 2 }, tf.float32), tf.float32, { 2 }, { 1.0, 2.0 })
    H.tensor(tf.constant({ 1, 2 }, tf.float64), tf.float64, { 2 }, { 1.0, 2.0 })
    H.tensor(tf.constant(1, tf.int64), tf.int64, {}, 1)
    H.tensor(tf.constant(1, "float32"), tf.float32, {}, 1.0)
    H.tensor(tf.constant(2.0, tf.int32), tf.int32, {}, 2)
    H.tensor(tf.constant(tf.constant({ 1, 2 }), tf.float32), tf.float32, { 2 }, { 1.0, 2.0 })
  end)

  it("refuses a float that does not fit an integer dtype and values of the wrong kind", function()
    H.raises("TypeError", "1.5", tf.constant, 1.5, tf.int32)
    H.raises("TypeError", nil, tf.constant, "a", tf.int32)
    H.raises("TypeError", nil, tf.constant, 1, tf.string)
    H.raises("ValueError", nil, tf.constant, 3000000000, tf.int32)
    H.raises("TypeError", nil, tf.constant, 1, "no_such_dtype")
  end)

  it("keeps float64 precision and rounds float32", function()
    assert.are.equal(0.1, tf.constant(0.1, tf.float64):numpy())
    local f32 = tf.constant(0.1):numpy()
    assert.are_not.equal(0.1, f32)
    assert.is_true(math.abs(f32 - 0.1) < 1e-8)
  end)
end)

describe("dtypes", function()
  it("print as tf.<name> and carry their name", function()
    for _, name in ipairs({ "float32", "float64", "int32", "int64", "bool", "string" }) do
      local dt = tf[name]
      assert.is_not_nil(dt, name)
      assert.are.equal("tf." .. name, tostring(dt))
      assert.are.equal(name, dt.name)
    end
    assert.is_not_nil(tf.resource)
    assert.are.equal("resource", tf.resource.name)
  end)

  it("tf.as_dtype accepts dtypes and names", function()
    assert.are.equal(tf.float64, tf.as_dtype("float64"))
    assert.are.equal(tf.int32, tf.as_dtype(tf.int32))
    H.raises("TypeError", nil, tf.as_dtype, "complex512")
  end)

  it("tf.cast converts between dtypes, truncating floats toward zero", function()
    H.tensor(tf.cast(tf.constant({ 1.7, -1.7 }), tf.int32), tf.int32, { 2 }, { 1, -1 })
    H.tensor(tf.cast(tf.constant({ 1, 0, 2 }), tf.bool), tf.bool, { 3 }, { true, false, true })
    H.tensor(tf.cast(tf.constant({ true, false }), tf.float32), tf.float32, { 2 }, { 1.0, 0.0 })
    H.tensor(tf.cast(tf.constant(3), tf.float64), tf.float64, {}, 3.0)
    H.tensor(tf.cast(tf.constant(3), "int64"), tf.int64, {}, 3)
    H.tensor(tf.cast({ 1, 2 }, tf.float32), tf.float32, { 2 }, { 1.0, 2.0 })
    H.tensor(tf.cast(tf.constant(5), tf.int32), tf.int32, {}, 5)
  end)
end)

describe("constructors", function()
  it("tf.zeros and tf.ones default to float32 and take a dtype", function()
    H.tensor(tf.zeros({ 2, 3 }), tf.float32, { 2, 3 }, { { 0, 0, 0 }, { 0, 0, 0 } })
    H.tensor(tf.ones({ 2 }, tf.int32), tf.int32, { 2 }, { 1, 1 })
    H.tensor(tf.zeros({}, tf.int64), tf.int64, {}, 0)
    H.tensor(tf.zeros(3), tf.float32, { 3 }, { 0, 0, 0 })
    H.tensor(tf.ones({ 2, 1 }, tf.float64), tf.float64, { 2, 1 }, { { 1 }, { 1 } })
    H.tensor(tf.zeros({ 0, 4 }), tf.float32, { 0, 4 })
  end)

  it("tf.zeros and tf.ones make bool tensors", function()
    H.tensor(tf.zeros({ 2 }, tf.bool), tf.bool, { 2 }, { false, false })
    H.tensor(tf.ones({ 2 }, tf.bool), tf.bool, { 2 }, { true, true })
  end)

  it("tf.fill takes its dtype from the value", function()
    H.tensor(tf.fill({ 2, 2 }, 7), tf.int32, { 2, 2 }, { { 7, 7 }, { 7, 7 } })
    H.tensor(tf.fill({ 2 }, 1.5), tf.float32, { 2 }, { 1.5, 1.5 })
    H.tensor(tf.fill({ 2 }, true), tf.bool, { 2 }, { true, true })
    H.tensor(tf.fill({ 1 }, "s"), tf.string, { 1 }, { "s" })
    H.tensor(tf.fill({}, 3), tf.int32, {}, 3)
  end)

  it("tf.range covers start, limit, delta and dtype, 0-based", function()
    H.tensor(tf.range(3), tf.int32, { 3 }, { 0, 1, 2 })
    H.tensor(tf.range(1, 10, 3), tf.int32, { 3 }, { 1, 4, 7 })
    H.tensor(tf.range(10, 0, -3), tf.int32, { 4 }, { 10, 7, 4, 1 })
    H.tensor(tf.range(2, 5), tf.int32, { 3 }, { 2, 3, 4 })
    H.tensor(tf.range(1, 2, 0.25), tf.float32, { 4 }, { 1, 1.25, 1.5, 1.75 })
    H.tensor(tf.range(5, tf.float64), tf.float64, { 5 }, { 0, 1, 2, 3, 4 })
    H.tensor(tf.range(0, 3, 1, tf.int64), tf.int64, { 3 }, { 0, 1, 2 })
    H.tensor(tf.range(3, { dtype = tf.float32 }), tf.float32, { 3 }, { 0, 1, 2 })
    H.tensor(tf.range(0), tf.int32, { 0 }, {})
    H.tensor(tf.range(tf.constant(4)), tf.int32, { 4 }, { 0, 1, 2, 3 })
  end)

  it("tf.range rejects a zero delta and a limit it cannot reach", function()
    H.raises("InvalidArgumentError", nil, tf.range, 1, 5, 0)
    H.raises("InvalidArgumentError", nil, tf.range, 5, 1)
  end)

  it("tf.eye makes identity matrices", function()
    H.tensor(tf.eye(3), tf.float32, { 3, 3 }, { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } })
    H.tensor(tf.eye(2, 3), tf.float32, { 2, 3 }, { { 1, 0, 0 }, { 0, 1, 0 } })
    H.tensor(tf.eye(2, { dtype = tf.int32 }), tf.int32, { 2, 2 }, { { 1, 0 }, { 0, 1 } })
  end)

  it("tf.linspace spaces num values evenly, endpoints included", function()
    H.tensor_close(tf.linspace(0, 1, 5), tf.float32, { 5 }, { 0, 0.25, 0.5, 0.75, 1 })
    H.tensor_close(tf.linspace(-1.0, 1.0, 3), tf.float32, { 3 }, { -1, 0, 1 })
    H.tensor_close(tf.linspace(2, 10, 1), tf.float32, { 1 }, { 2 })
    H.tensor_close(tf.linspace(tf.constant(0.0, tf.float64), tf.constant(1.0, tf.float64), 3),
      tf.float64, { 3 }, { 0, 0.5, 1 }, 1e-12)
  end)
end)

describe("tf.random", function()
  local function mean_std(t)
    local v = t:numpy()
    local n, s, s2 = #v, 0, 0
    for i = 1, n do s = s + v[i] end
    local m = s / n
    for i = 1, n do s2 = s2 + (v[i] - m) ^ 2 end
    return m, math.sqrt(s2 / n)
  end

  it("tf.random.normal has the shape, dtype, mean and stddev asked for", function()
    local x = tf.random.normal({ 2, 3 })
    H.tensor(x, tf.float32, { 2, 3 })
    local y = tf.random.normal({ 20000 }, { mean = 5, stddev = 0.5 })
    local m, s = mean_std(y)
    assert.is_true(math.abs(m - 5) < 0.05, "mean " .. m)
    assert.is_true(math.abs(s - 0.5) < 0.05, "stddev " .. s)
    H.tensor(tf.random.normal({ 2 }, { dtype = tf.float64 }), tf.float64, { 2 })
  end)

  it("tf.random.uniform stays in [minval, maxval)", function()
    local x = tf.random.uniform({ 5000 }, { minval = -2, maxval = 3 })
    H.tensor(x, tf.float32, { 5000 })
    local v = x:numpy()
    local lo, hi = math.huge, -math.huge
    for i = 1, #v do lo, hi = math.min(lo, v[i]), math.max(hi, v[i]) end
    assert.is_true(lo >= -2 and hi < 3, ("range [%g, %g]"):format(lo, hi))
    assert.is_true(lo < -1.9 and hi > 2.9, "values do not cover the interval")
    local m = mean_std(tf.random.uniform({ 20000 }))
    assert.is_true(math.abs(m - 0.5) < 0.02, "mean " .. m)
  end)

  it("tf.random.uniform makes integers with an integer dtype and needs maxval for them", function()
    local x = tf.random.uniform({ 1000 }, { minval = 2, maxval = 5, dtype = tf.int32 })
    H.tensor(x, tf.int32, { 1000 })
    local seen = {}
    for _, v in ipairs(x:numpy()) do
      assert.is_true(v >= 2 and v < 5, "value " .. v)
      seen[v] = true
    end
    assert.is_true(seen[2] and seen[3] and seen[4], "not every integer in [2, 5) drawn")
    H.raises("ValueError", "maxval", tf.random.uniform, { 2 }, { dtype = tf.int32 })
  end)

  it("tf.random.set_seed makes the sequence of random ops reproducible", function()
    tf.random.set_seed(1234)
    local a1 = tf.random.normal({ 4 }):numpy()
    local a2 = tf.random.uniform({ 3 }):numpy()
    tf.random.set_seed(1234)
    local b1 = tf.random.normal({ 4 }):numpy()
    local b2 = tf.random.uniform({ 3 }):numpy()
    assert.are.same(a1, b1)
    assert.are.same(a2, b2)
    -- successive calls differ
    assert.are_not.same(a1, tf.random.normal({ 4 }):numpy())
    tf.random.set_seed(4321)
    assert.are_not.same(a1, tf.random.normal({ 4 }):numpy())
  end)

  it("an op seed with the global seed reproduces the op's values", function()
    tf.random.set_seed(7)
    local a = tf.random.normal({ 3 }, { seed = 5 }):numpy()
    tf.random.set_seed(7)
    local b = tf.random.normal({ 3 }, { seed = 5 }):numpy()
    assert.are.same(a, b)
  end)
end)

describe("shapes and fields", function()
  local x = tf.constant({ { 1.0, 2.0 }, { 3.0, 4.0 } })

  it("x.shape prints like TF", function()
    assert.are.equal("(2, 2)", tostring(x.shape))
    assert.are.equal("(3,)", tostring(tf.zeros({ 3 }).shape))
    assert.are.equal("()", tostring(tf.constant(1).shape))
    assert.are.equal("(0, 3)", tostring(tf.zeros({ 0, 3 }).shape))
  end)

  it("a TensorShape prints unknown dimensions as None and an unknown rank as <unknown>", function()
    assert.are.equal("(None, 2)", tostring(tf.TensorShape({ tf.None, 2 })))
    assert.are.equal("(None,)", tostring(tf.TensorShape({ tf.None })))
    assert.are.equal("()", tostring(tf.TensorShape({})))
    assert.are.equal("<unknown>", tostring(tf.TensorShape(nil)))
    assert.are.equal("None", tostring(tf.None))
  end)

  it("x.shape[i] is 0-based, negative from the end, and checked", function()
    local s = tf.zeros({ 2, 3, 4 }).shape
    assert.are.equal(2, s[0])
    assert.are.equal(3, s[1])
    assert.are.equal(4, s[2])
    assert.are.equal(4, s[-1])
    H.raises("OutOfRangeError", nil, function() return s[3] end)
    assert.are.equal(tf.None, tf.TensorShape({ tf.None, 2 })[0])
    H.raises("ValueError", nil, function() return tf.TensorShape(nil)[0] end)
  end)

  it("as_list and rank", function()
    local s = tf.zeros({ 2, 3, 4 }).shape
    assert.are.same({ 2, 3, 4 }, s:as_list())
    assert.are.equal(3, s.rank)
    assert.are.same({}, tf.constant(1).shape:as_list())
    assert.are.equal(0, tf.constant(1).shape.rank)
    assert.are.same({ tf.None, 2 }, tf.TensorShape({ tf.None, 2 }):as_list())
    assert.is_nil(tf.TensorShape(nil).rank)
    H.raises("ValueError", nil, function() return tf.TensorShape(nil):as_list() end)
  end)

  it("shapes compare by their dimensions", function()
    assert.is_true(tf.zeros({ 2, 3 }).shape == tf.TensorShape({ 2, 3 }))
    assert.is_false(tf.zeros({ 2, 3 }).shape == tf.TensorShape({ 3, 2 }))
  end)

  it("x.dtype, x.ndim and #x", function()
    assert.are.equal(tf.float32, x.dtype)
    assert.are.equal("tf.float32", tostring(x.dtype))
    assert.are.equal(2, x.ndim)
    assert.are.equal(0, tf.constant(1).ndim)
    assert.are.equal(2, #x)
    assert.are.equal(5, #tf.zeros({ 5, 1 }))
    assert.are.equal(0, #tf.zeros({ 0 }))
    H.raises("TypeError", nil, function() return #tf.constant(1) end)
  end)

  it("an unknown field is an AttributeError (as in TF) and tensors are immutable", function()
    H.raises("AttributeError", "'EagerTensor' object has no attribute 'foo'", function() return x.foo end)
    H.raises("TypeError", nil, function() x[0] = 1 end)
    H.raises("TypeError", nil, function() x.shape = 1 end)
  end)
end)

describe("x:numpy()", function()
  it("gives a Lua number, boolean or string for rank 0", function()
    local i = tf.constant(3):numpy()
    assert.are.equal("integer", math.type(i))
    assert.are.equal(3, i)
    local f = tf.constant(2.5):numpy()
    assert.are.equal("float", math.type(f))
    assert.are.equal(2.5, f)
    assert.are.equal(true, tf.constant(true):numpy())
    assert.are.equal(false, tf.constant(false):numpy())
    assert.are.equal("aa", tf.constant("aa"):numpy())
    assert.are.equal("integer", math.type(tf.constant(3, tf.int64):numpy()))
    assert.are.equal("float", math.type(tf.constant(3, tf.float64):numpy()))
  end)

  it("gives nested 1-based tables otherwise", function()
    local v = tf.constant({ { 1, 2 }, { 3, 4 } }):numpy()
    assert.are.equal(1, v[1][1])
    assert.are.equal(3, v[2][1])
    assert.are.equal(4, v[2][2])
    assert.is_nil(v[0])
    assert.are.same({ {}, {} }, tf.zeros({ 2, 0 }):numpy())
    assert.are.same({ "x", "yz" }, tf.constant({ "x", "yz" }):numpy())
    assert.are.same({ 1.5 }, tf.constant({ 1.5 }):numpy())
  end)

  it("keeps binary strings intact", function()
    local s = "a\0b\255"
    assert.are.equal(s, tf.constant(s):numpy())
    assert.are.equal(4, tf.strings.length(tf.constant(s)):numpy())
  end)
end)

describe("operators", function()
  local a = tf.constant({ 1, 2, 3 })
  local f = tf.constant({ 1.0, 2.0, 4.0 })

  it("+ - * with tensors and Lua numbers on either side", function()
    H.tensor(a + a, tf.int32, { 3 }, { 2, 4, 6 })
    H.tensor(a + 1, tf.int32, { 3 }, { 2, 3, 4 })
    H.tensor(1 + a, tf.int32, { 3 }, { 2, 3, 4 })
    H.tensor(a - 1, tf.int32, { 3 }, { 0, 1, 2 })
    H.tensor(10 - a, tf.int32, { 3 }, { 9, 8, 7 })
    H.tensor(a * 2, tf.int32, { 3 }, { 2, 4, 6 })
    H.tensor(2 * a, tf.int32, { 3 }, { 2, 4, 6 })
    H.tensor(f * 0.5, tf.float32, { 3 }, { 0.5, 1.0, 2.0 })
    H.tensor(0.5 * f, tf.float32, { 3 }, { 0.5, 1.0, 2.0 })
    H.tensor(f + 1, tf.float32, { 3 }, { 2.0, 3.0, 5.0 })
  end)

  it("broadcast like NumPy", function()
    local col = tf.constant({ { 10 }, { 20 } })
    H.tensor(col + a, tf.int32, { 2, 3 }, { { 11, 12, 13 }, { 21, 22, 23 } })
    H.tensor(a * col, tf.int32, { 2, 3 }, { { 10, 20, 30 }, { 20, 40, 60 } })
    H.tensor(tf.constant(5) - a, tf.int32, { 3 }, { 4, 3, 2 })
    H.tensor(tf.zeros({ 2, 0 }) + tf.zeros({ 1, 0 }), tf.float32, { 2, 0 })
    H.tensor(tf.zeros({ 0 }) + 1, tf.float32, { 0 }, {})
  end)

  it("refuse shapes that do not broadcast with InvalidArgumentError", function()
    H.raises("InvalidArgumentError", "Incompatible shapes", function() return a + tf.constant({ 1, 2 }) end)
    H.raises("InvalidArgumentError", nil, function() return tf.zeros({ 2, 3 }) * tf.zeros({ 3, 2 }) end)
  end)

  it("/ is true division: integers give float64", function()
    H.tensor(a / 2, tf.float64, { 3 }, { 0.5, 1.0, 1.5 })
    H.tensor(3 / tf.constant({ 1, 2 }), tf.float64, { 2 }, { 3.0, 1.5 })
    H.tensor(tf.constant({ 1, 2 }) / tf.constant({ 2, 4 }), tf.float64, { 2 }, { 0.5, 0.5 })
    H.tensor(f / 2, tf.float32, { 3 }, { 0.5, 1.0, 2.0 })
    H.tensor(tf.constant(1, tf.int64) / 4, tf.float64, {}, 0.25)
    H.tensor(tf.constant(1) / 0, tf.float64, {}, math.huge)
  end)

  it("// and % floor like Python", function()
    H.tensor(tf.constant(7) // 2, tf.int32, {}, 3)
    H.tensor(tf.constant(-7) // 2, tf.int32, {}, -4)
    H.tensor(7 // tf.constant(-2), tf.int32, {}, -4)
    H.tensor(tf.constant(-7) % 3, tf.int32, {}, 2)
    H.tensor(tf.constant(7) % -3, tf.int32, {}, -2)
    H.tensor(tf.constant({ -3.5, 3.5 }) % 2, tf.float32, { 2 }, { 0.5, 1.5 })
    H.tensor(tf.constant({ 1.0, 2.0, -3.0 }) // 2, tf.float32, { 3 }, { 0.0, 1.0, -2.0 })
  end)

  it("^ raises to a power", function()
    H.tensor(a ^ 2, tf.int32, { 3 }, { 1, 4, 9 })
    H.tensor(2 ^ tf.constant({ 1.0, 3.0 }), tf.float32, { 2 }, { 2.0, 8.0 })
    H.tensor_close(tf.constant(2.0) ^ 0.5, tf.float32, {}, math.sqrt(2))
  end)

  it("unary - negates", function()
    H.tensor(-a, tf.int32, { 3 }, { -1, -2, -3 })
    H.tensor(-tf.constant(2.5), tf.float32, {}, -2.5)
  end)

  it("+ and .. concatenate string tensors elementwise, with Lua strings on either side", function()
    local s = tf.constant({ "a", "b" })
    H.tensor(s + tf.constant("c"), tf.string, { 2 }, { "ac", "bc" })
    H.tensor(s .. tf.constant({ "x", "y" }), tf.string, { 2 }, { "ax", "by" })
    H.tensor(s .. "!", tf.string, { 2 }, { "a!", "b!" })
    H.tensor("<" .. s, tf.string, { 2 }, { "<a", "<b" })
    H.tensor(s + "c", tf.string, { 2 }, { "ac", "bc" })
    H.tensor("c" + s, tf.string, { 2 }, { "ca", "cb" })
    H.tensor(tf.add(tf.constant("x"), tf.constant("y")), tf.string, {}, "xy")
  end)

  it("a Lua number takes the tensor's dtype", function()
    H.tensor(tf.constant({ 1, 2 }, tf.int64) + (1 << 40), tf.int64, { 2 }, { (1 << 40) + 1, (1 << 40) + 2 })
    H.tensor(tf.constant(0.0, tf.float64) + 0.1, tf.float64, {}, 0.1)
    H.tensor(tf.constant({ 1.0 }) + 1, tf.float32, { 1 }, { 2.0 })
    H.tensor(tf.constant(2, tf.int64) * 2.0, tf.int64, {}, 4)
  end)

  it("a float that does not fit an integer tensor is an error", function()
    H.raises("TypeError", "1.5", function() return a + 1.5 end)
    H.raises("TypeError", nil, function() return 0.5 * a end)
    H.raises({ "ValueError", "InvalidArgumentError" }, nil, function() return a + (1 << 40) end)
  end)

  it("two tensors of different dtypes are never promoted", function()
    H.raises("InvalidArgumentError", nil, function() return a + f end)
    H.raises("InvalidArgumentError", nil, function() return f * a end)
    H.raises("InvalidArgumentError", nil, function() return a - tf.constant({ 1, 2, 3 }, tf.int64) end)
    H.raises("InvalidArgumentError", nil, function() return a / f end)
    H.raises("InvalidArgumentError", nil, function() return tf.constant(1.0) + tf.constant(1.0, tf.float64) end)
  end)

  it("refuse dtypes the op does not support", function()
    H.raises("InvalidArgumentError", nil, function() return tf.constant(true) + tf.constant(true) end)
    H.raises("InvalidArgumentError", nil, function() return tf.constant("a") - tf.constant("b") end)
    H.raises("InvalidArgumentError", nil, function() return -tf.constant("a") end)
  end)

  it("integer division by zero is an InvalidArgumentError", function()
    H.raises("InvalidArgumentError", "division by zero", function() return tf.constant(1) // 0 end)
    H.raises("InvalidArgumentError", "division by zero", function() return tf.constant({ 4, 5 }) % 0 end)
  end)
end)

-- The operators run eager tensor pairs (and a tensor with a Lua number)
-- through a fast path in C; every other case goes the general way. Both
-- must give the same answers, and the fast path must step aside for
-- tapes, traces, variables and released tensors.
describe("operators' eager fast path", function()
  it("gives what tf.add / tf.subtract / tf.multiply give, in every dtype", function()
    for _, dt in ipairs({ tf.float32, tf.float64, tf.int32, tf.int64 }) do
      local x, y = tf.constant({ 7, -3 }, dt), tf.constant({ 2, 5 }, dt)
      assert.are.same(tf.add(x, y):numpy(), (x + y):numpy())
      assert.are.same(tf.subtract(x, y):numpy(), (x - y):numpy())
      assert.are.same(tf.multiply(x, y):numpy(), (x * y):numpy())
      assert.are.same(tf.math.floordiv(x, y):numpy(), (x // y):numpy())
      assert.are.same(tf.math.floormod(x, y):numpy(), (x % y):numpy())
      assert.are.equal(dt, (x + y).dtype)
      assert.are.equal(dt, (x + 1).dtype)
      assert.are.equal(dt, (2 * x).dtype)
    end
  end)

  it("converts a Lua number at the int32 limits exactly, and refuses one past them", function()
    H.tensor(tf.constant(0) + 2147483647, tf.int32, {}, 2147483647)
    H.tensor(-2147483648 + tf.constant(0), tf.int32, {}, -2147483648)
    H.raises({ "ValueError", "InvalidArgumentError" }, nil, function() return tf.constant(0) + 2147483648 end)
    H.tensor(tf.constant(1.5, tf.float64) * 3, tf.float64, {}, 4.5)
  end)

  it("records on a tape", function()
    local x = tf.constant(3.0)
    local tape = tf.GradientTape()
    tape:watch(x)
    local y
    do
      local t <close> = tape
      y = x * x + x * 2 - 1
    end
    H.tensor(tape:gradient(y, x), tf.float32, {}, 8.0)
  end)

  it("adds graph nodes while tracing, and runs eagerly under tf.init_scope", function()
    local eager_inside
    local f = tf.func(function(v)
      assert.is_true(tf.is_symbolic_tensor(v + v))
      assert.is_true(tf.is_symbolic_tensor(v * 2))
      tf.init_scope(function()
        eager_inside = tf.constant(2.0) + tf.constant(3.0)
      end)
      return v + v
    end)
    H.tensor(f(tf.constant(4.0)), tf.float32, {}, 8.0)
    assert.is_false(tf.is_symbolic_tensor(eager_inside))
    H.tensor(eager_inside, tf.float32, {}, 5.0)
    local ops = {}
    for _, op in ipairs(f:get_concrete_function(tf.constant(4.0)).graph:get_operations()) do
      ops[#ops + 1] = op.type
    end
    assert.is_truthy(table.concat(ops, " "):find("AddV2"))
  end)

  it("takes variables on either side", function()
    local v = tf.Variable(tf.constant({ 1.0, 2.0 }))
    H.tensor(v + tf.constant({ 1.0, 1.0 }), tf.float32, { 2 }, { 2.0, 3.0 })
    H.tensor(tf.constant({ 1.0, 1.0 }) - v, tf.float32, { 2 }, { 0.0, -1.0 })
    H.tensor(v * 2, tf.float32, { 2 }, { 2.0, 4.0 })
  end)

  it("raises a typed error when recording on a broken tape state fails", function()
    local state = require("moonflow.state")
    local x = tf.constant(1.0)
    do
      local t <close> = tf.GradientTape()
      state.tapes[#state.tapes + 1] = 5 -- what a misuse of the internals could leave
      local ok, e = pcall(function() return x + x end)
      table.remove(state.tapes)
      assert.is_false(ok)
      assert.are.equal("InternalError", e.type)
      assert.truthy(e.message:find("recording AddV2 on a tape failed", 1, true), e.message)
    end
    H.tensor(x + x, tf.float32, {}, 2.0)
  end)

  it("refuses a released tensor", function()
    local x = tf.constant(1.0)
    getmetatable(x).__gc(x)
    H.raises("ValueError", "released", function() return x + tf.constant(1.0) end)
    H.raises("ValueError", "released", function() return 1 + x end)
  end)
end)

describe("comparisons", function()
  local a = tf.constant({ 1, 2, 3 })

  it("are elementwise functions returning bool tensors", function()
    H.tensor(tf.equal(a, 2), tf.bool, { 3 }, { false, true, false })
    H.tensor(tf.not_equal(a, 2), tf.bool, { 3 }, { true, false, true })
    H.tensor(tf.less(a, 2), tf.bool, { 3 }, { true, false, false })
    H.tensor(tf.less_equal(a, 2), tf.bool, { 3 }, { true, true, false })
    H.tensor(tf.greater(a, 2), tf.bool, { 3 }, { false, false, true })
    H.tensor(tf.greater_equal(a, 2), tf.bool, { 3 }, { false, true, true })
    H.tensor(tf.less(1, a), tf.bool, { 3 }, { false, true, true })
    H.tensor(tf.equal(tf.constant({ "a", "b" }), "b"), tf.bool, { 2 }, { false, true })
    H.tensor(tf.math.equal(a, a), tf.bool, { 3 }, { true, true, true })
  end)

  it("are methods: x:lt(y) x:le(y) x:gt(y) x:ge(y) x:eq(y) x:ne(y)", function()
    H.tensor(a:lt(2), tf.bool, { 3 }, { true, false, false })
    H.tensor(a:le(2), tf.bool, { 3 }, { true, true, false })
    H.tensor(a:gt(2), tf.bool, { 3 }, { false, false, true })
    H.tensor(a:ge(2), tf.bool, { 3 }, { false, true, true })
    H.tensor(a:eq(2), tf.bool, { 3 }, { false, true, false })
    H.tensor(a:ne(2), tf.bool, { 3 }, { true, false, true })
    H.tensor(a:lt(tf.constant({ { 2 }, { 4 } })), tf.bool, { 2, 3 },
      { { true, false, false }, { true, true, true } })
  end)

  it("broadcast and check dtypes like the arithmetic ops", function()
    H.raises("InvalidArgumentError", nil, tf.less, a, tf.constant({ 1.0, 2.0, 3.0 }))
    H.raises("InvalidArgumentError", nil, tf.equal, a, tf.constant({ 1, 2 }))
  end)

  it("== < <= > >= ~= on eager scalar tensors give Lua booleans", function()
    local one, two = tf.constant(1), tf.constant(2)
    assert.are.equal(true, one == tf.constant(1))
    assert.are.equal(false, one == two)
    assert.are.equal(true, one ~= two)
    assert.are.equal(true, one < two)
    assert.are.equal(false, two < one)
    assert.are.equal(true, one <= one)
    assert.are.equal(true, two > one)
    assert.are.equal(true, two >= two)
    assert.are.equal(true, one < 2)
    assert.are.equal(false, one <= 0)
    assert.are.equal(true, 0 < one)
    assert.are.equal(true, tf.constant(1.5) > 1)
    assert.are.equal(true, tf.constant({ { 7 } }) == tf.constant({ { 7 } }))
  end)

  it("on larger tensors raise ValueError (ambiguous truth value)", function()
    H.raises("ValueError", "ambiguous", function() return a == tf.constant({ 1, 2, 3 }) end)
    H.raises("ValueError", "ambiguous", function() return a < 2 end)
    H.raises("ValueError", "ambiguous", function() return a <= tf.constant(2) end)
    H.raises("ValueError", "ambiguous", function() return 2 > a end)
    H.raises("ValueError", "ambiguous", function() return tf.zeros({ 0 }) == tf.zeros({ 0 }) end)
  end)
end)

describe("indexing", function()
  local v = tf.constant({ 10, 20, 30, 40, 50 })
  local m = tf.reshape(tf.range(6), { 2, 3 })
  local c = tf.reshape(tf.range(24), { 2, 3, 4 })

  it("x[i] takes row i of axis 0, 0-based, negative from the end", function()
    H.tensor(v[0], tf.int32, {}, 10)
    H.tensor(v[4], tf.int32, {}, 50)
    H.tensor(v[-1], tf.int32, {}, 50)
    H.tensor(v[-5], tf.int32, {}, 10)
    H.tensor(m[1], tf.int32, { 3 }, { 3, 4, 5 })
    H.tensor(m[-2], tf.int32, { 3 }, { 0, 1, 2 })
    H.tensor(m[1][2], tf.int32, {}, 5)
  end)

  it("x[t] takes a scalar int tensor", function()
    H.tensor(v[tf.constant(2)], tf.int32, {}, 30)
    H.tensor(v[tf.constant(-1)], tf.int32, {}, 50)
    H.tensor(m[tf.constant(0)], tf.int32, { 3 }, { 0, 1, 2 })
  end)

  it("an index out of range is an InvalidArgumentError, a fractional one a TypeError", function()
    H.raises("InvalidArgumentError", "out of bounds", function() return v[5] end)
    H.raises("InvalidArgumentError", nil, function() return v[-6] end)
    H.raises("TypeError", nil, function() return v[1.5] end)
    H.raises({ "InvalidArgumentError", "ValueError" }, nil, function() return tf.constant(3)[0] end)
  end)

  it("takes NumPy slice strings", function()
    H.tensor(c[":, ::2, ::2"], tf.int32, { 2, 2, 2 }, { { { 0, 2 }, { 8, 10 } }, { { 12, 14 }, { 20, 22 } } })
    H.tensor(c["..., 0"], tf.int32, { 2, 3 }, { { 0, 4, 8 }, { 12, 16, 20 } })
    H.tensor(v["1:-1"], tf.int32, { 3 }, { 20, 30, 40 })
    H.tensor(v["None"], tf.int32, { 1, 5 }, { { 10, 20, 30, 40, 50 } })
    H.tensor(v[":, None"], tf.int32, { 5, 1 }, { { 10 }, { 20 }, { 30 }, { 40 }, { 50 } })
    H.tensor(v["::-1"], tf.int32, { 5 }, { 50, 40, 30, 20, 10 })
    H.tensor(v[":2"], tf.int32, { 2 }, { 10, 20 })
    H.tensor(v["3:"], tf.int32, { 2 }, { 40, 50 })
    H.tensor(v["-2:"], tf.int32, { 2 }, { 40, 50 })
    H.tensor(v["1:100"], tf.int32, { 4 }, { 20, 30, 40, 50 })
    H.tensor(v["3:1"], tf.int32, { 0 }, {})
    H.tensor(v[":"], tf.int32, { 5 }, { 10, 20, 30, 40, 50 })
    H.tensor(m[":, 1"], tf.int32, { 2 }, { 1, 4 })
    H.tensor(m["1, :"], tf.int32, { 3 }, { 3, 4, 5 })
    H.tensor(m["-1, -1"], tf.int32, {}, 5)
    H.tensor(c["1, ..."], tf.int32, { 3, 4 })
    H.tensor(c["..., 1:3"], tf.int32, { 2, 3, 2 })
    H.tensor(c[" 0 , 1 , 2 "], tf.int32, {}, 6)
  end)

  it("rejects bad slice strings with typed errors", function()
    H.raises("InvalidArgumentError", "strides[0] must be non-zero", function() return v["1:2:0"] end)
    H.raises({ "ValueError", "TypeError" }, nil, function() return v["1:x"] end)
    H.raises({ "ValueError", "InvalidArgumentError" }, nil, function() return v["0, 0"] end)
    H.raises("InvalidArgumentError", nil, function() return m["5, 0"] end)
  end)

  it("tf.slice, tf.strided_slice and tf.gather take tensors as bounds", function()
    H.tensor(tf.slice(v, tf.constant({ 1 }), tf.constant({ 2 })), tf.int32, { 2 }, { 20, 30 })
    H.tensor(tf.strided_slice(v, tf.constant({ 0 }), tf.constant({ 5 }), tf.constant({ 2 })),
      tf.int32, { 3 }, { 10, 30, 50 })
    H.tensor(tf.gather(v, tf.constant({ 4, 0 })), tf.int32, { 2 }, { 50, 10 })
  end)
end)

describe("printing", function()
  local function repr(x) return H.repr(x) end

  it("tostring and print give TF's str format (API.md examples)", function()
    assert.are.equal("tf.Tensor([4 1], shape=(2,), dtype=int32)", tostring(tf.constant({ 4, 1 })))
    assert.are.equal("tf.Tensor(2.2, shape=(), dtype=float32)", tostring(tf.constant(2.2)))
    assert.are.equal("tf.Tensor(b'aa', shape=(), dtype=string)", tostring(tf.constant("aa")))
    assert.are.equal("tf.Tensor(2, shape=(), dtype=int32)", tostring(tf.constant(2)))
    assert.are.equal("tf.Tensor([1 2 3], shape=(3,), dtype=int32)", tostring(tf.constant({ 1, 2, 3 })))
  end)

  it("print writes the str form", function()
    local lines = {}
    local old = print
    _G.print = function(...)
      local parts = table.pack(...)
      for i = 1, parts.n do parts[i] = tostring(parts[i]) end
      lines[#lines + 1] = table.concat(parts, "\t")
    end
    local ok, err = pcall(function() print(tf.constant({ 4, 1 })) end)
    _G.print = old
    assert(ok, err)
    assert.are.same({ "tf.Tensor([4 1], shape=(2,), dtype=int32)" }, lines)
  end)

  it("multi-line values start on a new line", function()
    assert.are.equal("tf.Tensor(\n[[2. 2.]\n [2. 2.]], shape=(2, 2), dtype=float32)",
      tostring(tf.fill({ 2, 2 }, 2.0)))
    assert.are.equal("tf.Tensor(\n[[[0 1]\n  [2 3]]\n\n [[4 5]\n  [6 7]]], shape=(2, 2, 2), dtype=int32)",
      tostring(tf.reshape(tf.range(8), { 2, 2, 2 })))
    assert.are.equal("tf.Tensor([[0 1 2 3 4]], shape=(1, 5), dtype=int32)",
      tostring(tf.reshape(tf.range(5), { 1, 5 })))
  end)

  it("formats values as NumPy does", function()
    assert.are.equal("tf.Tensor([1. 2.], shape=(2,), dtype=float32)", tostring(tf.constant({ 1, 2 }, tf.float32)))
    assert.are.equal("tf.Tensor([1.5 2. ], shape=(2,), dtype=float32)", tostring(tf.constant({ 1.5, 2.0 })))
    assert.are.equal("tf.Tensor([-1.5   2.25], shape=(2,), dtype=float32)", tostring(tf.constant({ -1.5, 2.25 })))
    assert.are.equal("tf.Tensor([ True False], shape=(2,), dtype=bool)", tostring(tf.constant({ true, false })))
    assert.are.equal("tf.Tensor(True, shape=(), dtype=bool)", tostring(tf.constant(true)))
    assert.are.equal("tf.Tensor([ 1 -1], shape=(2,), dtype=int32)", tostring(tf.constant({ 1, -1 })))
    assert.are.equal("tf.Tensor([b'a' b'bc'], shape=(2,), dtype=string)", tostring(tf.constant({ "a", "bc" })))
    assert.are.equal("tf.Tensor(b\"it's\", shape=(), dtype=string)", tostring(tf.constant("it's")))
    assert.are.equal("tf.Tensor(b'a\\nb', shape=(), dtype=string)", tostring(tf.constant("a\nb")))
    assert.are.equal("tf.Tensor([1.e+10 1.e+00], shape=(2,), dtype=float32)", tostring(tf.constant({ 1e10, 1 })))
    assert.are.equal("tf.Tensor([ nan  inf -inf], shape=(3,), dtype=float32)",
      tostring(tf.constant({ 0 / 0, 1 / 0, -1 / 0 })))
    assert.are.equal("tf.Tensor([0.1  0.25], shape=(2,), dtype=float64)", tostring(tf.constant({ 0.1, 0.25 }, tf.float64)))
    assert.are.equal("tf.Tensor(0.1, shape=(), dtype=float64)", tostring(tf.constant(0.1, tf.float64)))
    assert.are.equal("tf.Tensor(1e-05, shape=(), dtype=float32)", tostring(tf.constant(1e-5)))
    assert.are.equal("tf.Tensor(3000000000, shape=(), dtype=int64)", tostring(tf.constant(3000000000)))
    assert.are.equal("tf.Tensor([], shape=(0, 3), dtype=float32)", tostring(tf.zeros({ 0, 3 })))
    assert.are.equal("tf.Tensor([], shape=(0,), dtype=int32)", tostring(tf.range(0)))
  end)

  it("the repr is TF's <tf.Tensor: ...> with NumPy's array repr", function()
    assert.are.equal("<tf.Tensor: shape=(2, 2), dtype=float32, numpy=\narray([[2., 2.],\n       [2., 2.]], dtype=float32)>",
      repr(tf.fill({ 2, 2 }, 2.0)))
    assert.are.equal("<tf.Tensor: shape=(), dtype=float32, numpy=2.2>", repr(tf.constant(2.2)))
    assert.are.equal("<tf.Tensor: shape=(), dtype=int32, numpy=3>", repr(tf.constant(3)))
    assert.are.equal("<tf.Tensor: shape=(), dtype=bool, numpy=True>", repr(tf.constant(true)))
    assert.are.equal("<tf.Tensor: shape=(), dtype=string, numpy=b'aa'>", repr(tf.constant("aa")))
    assert.are.equal("<tf.Tensor: shape=(2,), dtype=int32, numpy=array([4, 1], dtype=int32)>",
      repr(tf.constant({ 4, 1 })))
    assert.are.equal("<tf.Tensor: shape=(2,), dtype=float64, numpy=array([0.5, 0.5])>",
      repr(tf.constant({ 0.5, 0.5 }, tf.float64)))
    assert.are.equal("<tf.Tensor: shape=(2,), dtype=int64, numpy=array([0, 2])>",
      repr(tf.constant({ 0, 2 }, tf.int64)))
    assert.are.equal("<tf.Tensor: shape=(2,), dtype=bool, numpy=array([ True, False])>",
      repr(tf.constant({ true, false })))
    assert.are.equal("<tf.Tensor: shape=(2,), dtype=string, numpy=array([b'a', b'bc'], dtype=object)>",
      repr(tf.constant({ "a", "bc" })))
    assert.are.equal("<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1.5, 2. ], dtype=float32)>",
      repr(tf.constant({ 1.5, 2.0 })))
    assert.are.equal("<tf.Tensor: shape=(0, 3), dtype=float32, numpy=array([], shape=(0, 3), dtype=float32)>",
      repr(tf.zeros({ 0, 3 })))
    assert.are.equal("<tf.Tensor: shape=(0,), dtype=float32, numpy=array([], dtype=float32)>",
      repr(tf.zeros({ 0 })))
  end)

  it("summarises long tensors with ... as NumPy does (threshold 1000, 3 edge items)", function()
    assert.are.equal("tf.Tensor([   0    1    2 ... 1997 1998 1999], shape=(2000,), dtype=int32)",
      tostring(tf.range(2000)))
    assert.are.equal("tf.Tensor([   0    1    2 ...  998  999 1000], shape=(1001,), dtype=int32)",
      tostring(tf.range(1001)))
    assert.is_nil(tostring(tf.range(1000)):find("...", 1, true))
    assert.are.equal("tf.Tensor([0. 0. 0. ... 0. 0. 0.], shape=(1001,), dtype=float32)", tostring(tf.zeros({ 1001 })))
    assert.are.equal("<tf.Tensor: shape=(2000,), dtype=int32, numpy=array([   0,    1,    2, ..., 1997, 1998, 1999], dtype=int32)>",
      repr(tf.range(2000)))
    local m = tf.reshape(tf.range(2000), { 40, 50 })
    assert.are.equal(table.concat({
      "tf.Tensor(",
      "[[   0    1    2 ...   47   48   49]",
      " [  50   51   52 ...   97   98   99]",
      " [ 100  101  102 ...  147  148  149]",
      " ...",
      " [1850 1851 1852 ... 1897 1898 1899]",
      " [1900 1901 1902 ... 1947 1948 1949]",
      " [1950 1951 1952 ... 1997 1998 1999]], shape=(40, 50), dtype=int32)",
    }, "\n"), tostring(m))
    assert.are.equal(table.concat({
      "<tf.Tensor: shape=(40, 50), dtype=int32, numpy=",
      "array([[   0,    1,    2, ...,   47,   48,   49],",
      "       [  50,   51,   52, ...,   97,   98,   99],",
      "       [ 100,  101,  102, ...,  147,  148,  149],",
      "       ...,",
      "       [1850, 1851, 1852, ..., 1897, 1898, 1899],",
      "       [1900, 1901, 1902, ..., 1947, 1948, 1949],",
      "       [1950, 1951, 1952, ..., 1997, 1998, 1999]], dtype=int32)>",
    }, "\n"), repr(m))
  end)

  it("wraps long rows at NumPy's line width of 75", function()
    local s = tostring(tf.range(30))
    assert.are.equal("tf.Tensor(\n[ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19 20 21 22 23\n 24 25 26 27 28 29], shape=(30,), dtype=int32)", s)
  end)
end)

describe("symbolic tensors (inside tf.func)", function()
  -- autograph = false: these check what a traced tensor does when Lua
  -- itself needs a value, which AutoGraph would otherwise rewrite.
  local function trace(fn, signature)
    local out = {}
    local f = tf.func(function(x)
      fn(x, out)
      return x
    end, { autograph = false, input_signature = signature })
    return f, out
  end

  it("print as Tensor(\"x:0\", shape=(), dtype=float32)", function()
    local f, out = trace(function(x, o) o.str = tostring(x) end)
    f(tf.constant(1.0))
    assert.are.equal('Tensor("x:0", shape=(), dtype=float32)', out.str)
  end)

  it("have shapes with unknown dimensions and ranks from the signature", function()
    local f, out = trace(function(x, o) o.shape = tostring(x.shape) o.dim = x.shape[0] end,
      { tf.TensorSpec({ tf.None, 2 }, tf.float32) })
    f(tf.zeros({ 3, 2 }))
    assert.are.equal("(None, 2)", out.shape)
    assert.are.equal(tf.None, out.dim)
    local g, out2 = trace(function(x, o) o.shape = tostring(x.shape) o.rank = x.shape.rank end,
      { tf.TensorSpec(nil, tf.float32) })
    g(tf.zeros({ 3, 2 }))
    assert.are.equal("<unknown>", out2.shape)
    assert.is_nil(out2.rank)
  end)

  it("raise TypeError pointing at tf.cond when used as Lua booleans", function()
    local f, out = trace(function(x, o)
      o.lt = select(2, pcall(function() return x < 1 end))
      o.eq = select(2, pcall(function() return x == tf.constant(1.0) end))
      o.le = select(2, pcall(function() return 0 <= x end))
    end)
    f(tf.constant(1.0))
    for _, k in ipairs({ "lt", "eq", "le" }) do
      local e = out[k]
      H.check_error_object(e)
      assert.are.equal("TypeError", e.type, k)
      assert.is_truthy(e.message:find("tf.cond", 1, true), e.message)
    end
  end)

  it("have no numpy value: asking for one says it is symbolic", function()
    local f, out = trace(function(x, o) o.err = select(2, pcall(function() return x:numpy() end)) end)
    f(tf.constant(1.0))
    H.check_error_object(out.err)
    assert.are.equal("TypeError", out.err.type)
    assert.is_truthy(out.err.message:find("symbolic", 1, true), out.err.message)
  end)
end)

describe("the library's shape readers (moonflow.tensor.shape)", function()
  local shapes = require("moonflow.tensor.shape")
  it("read a tensor's shape as a list: partial (of), fully known (static), its rank", function()
    local x = tf.constant({ { 1, 2, 3 }, { 4, 5, 6 } })
    assert.are.same({ 2, 3 }, shapes.of(x))
    assert.are.same({ 2, 3 }, shapes.static(x))
    assert.are.equal(2, shapes.rank(x))
    local seen = {}
    local f = tf.func(function(a)
      seen.of, seen.static, seen.rank = shapes.of(a), shapes.static(a), shapes.rank(a)
      return a
    end, { input_signature = { tf.TensorSpec({ tf.None, 3 }, tf.float32) } })
    f(tf.ones({ 2, 3 }))
    assert.are.same({ -1, 3 }, seen.of)
    assert.is_nil(seen.static)
    assert.are.equal(2, seen.rank)
  end)
end)
