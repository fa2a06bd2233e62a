-- bad_arguments_spec.lua — issue 15, "Bad input": a public function given
-- an argument of the wrong kind raises a typed error naming the argument,
-- never a Lua error from inside the library. One case per site the API
-- fuzzer (tests/fuzz/api.lua) found raising untyped errors.
local tf = tf or require("moonflow")
local core = require("moonflow.core")
local H = require("helpers")

local function typed(kind, f, ...)
  local ok, e = pcall(f, ...)
  assert.is_false(ok, "expected an error")
  H.check_error_object(e)
  assert.are.equal(kind, e.type, tostring(e))
  return e
end

describe("a bad argument is a typed error", function()
  it("tf.io paths", function()
    local e = typed("TypeError", tf.io.read_npy, 5)
    assert.are.equal("tf.io.read_npy: argument 'path' must be a string, got a number", e.message)
    typed("TypeError", tf.io.read_npz, nil)
    local path = os.tmpname()
    tf.io.write_npy(path, tf.Variable({ 1.0, 2.0 }))
    assert.are.same({ 1.0, 2.0 }, tf.io.read_npy(path):numpy())
    -- another object is not asked for a read_value it does not have
    typed("ValueError", tf.io.write_npy, path, tf.func(function(x) return x end))
    os.remove(path)
  end)

  it("graph lookups by name", function()
    local g = tf.func(function(x) return x + 1 end):get_concrete_function(tf.constant(1.0)).graph
    local e = typed("TypeError", function() return g:get_tensor_by_name(3) end)
    assert.is_truthy(e.message:find("argument 'name' must be a string", 1, true))
    typed("TypeError", function() return g:get_operation_by_name({}) end)
  end)

  it("functions that take a function", function()
    typed("TypeError", tf.autograph.do_not_convert, nil)
    typed("TypeError", tf.init_scope, 5)
    typed("TypeError", tf.init_scope, nil)
    assert.are.equal(3, tf.init_scope(function(a) return a end, 3))
  end)

  it("Keras layers, optimizers and losses", function()
    local d = tf.keras.layers.Dense(2)
    typed("TypeError", function() return d:build(5) end)
    typed("TypeError", function() return d:build({ 1, 2 }) end)
    d:build(tf.TensorShape({ 1, 3 }))
    assert.are.same({ 3, 2 }, d.kernel.shape:as_list())
    local sgd = tf.keras.optimizers.SGD(0.1)
    typed("TypeError", function() return sgd:apply_gradients(5) end)
    typed("TypeError", function() return sgd:apply_gradients({ 5 }) end)
    local loss = tf.keras.losses.sparse_categorical_crossentropy({ 0 }, { { 0.9, 0.1 } })
    assert.is_true(math.abs(loss:numpy()[1] + math.log(0.9)) < 1e-5)
  end)

  it("tf.doc and tf.errors.raise", function()
    typed("TypeError", tf.doc.def, nil, "f()")
    typed("TypeError", tf.doc.def, function() end, tf.float32)
    typed("TypeError", tf.doc.render, 5)
    local e = typed("ValueError", tf.errors.raise, "ValueError", "m", tf.TensorShape({ 1 }))
    assert.are.equal("m", e.message)
  end)

  it("a table of sources or targets that contains itself", function()
    local x = tf.constant(1.0)
    local cyc = { x }
    cyc[2] = cyc
    local tape = tf.GradientTape({ persistent = true })
    typed("ValueError", function() return tape:watch(cyc) end)
    tape:watch(x)
    local y = x * x
    tape:stop()
    typed("ValueError", function() return tape:gradient(y, cyc) end)
    typed("ValueError", function() return tape:gradient(cyc, x) end)
    -- a table shared twice is not a cycle
    local shared = { x }
    assert.are.equal(2.0, tape:gradient(y, { a = shared, b = shared }).a[1]:numpy())
  end)

  it("TensorSpec methods given something else", function()
    local s = tf.TensorSpec({ 2 }, tf.float32)
    typed("TypeError", function() return s:is_compatible_with(5) end)
    assert.is_true(s:is_compatible_with(tf.zeros({ 2 })))
    assert.is_false(s:is_subtype_of(5))
    assert.is_nil(s:most_specific_common_supertype("x"))
    typed("TypeError", tf.TensorSpec, { 2 }, tf.float32, {})
  end)

  it("op wrappers' list and axis arguments", function()
    typed("TypeError", tf.nn.conv2d, tf.zeros({ 1, 3, 3, 1 }), tf.zeros({ 1, 1, 1, 1 }), true, "VALID")
    typed("TypeError", tf.unstack, tf.zeros({ 2 }), nil, "x")
    typed("TypeError", tf.lua_function, function() end, 5, tf.float32)
    typed("TypeError", tf.lua_function, function() end, { 1 }, 5)
  end)

  it("a huge init_scope or tape count does not overflow the session's counters", function()
    -- any integer is taken as it is (saturating), never cut to an int
    core.eager_scope(3)
    core.eager_scope(math.maxinteger)
    core.eager_scope(math.maxinteger)
    core.eager_scope(math.mininteger)
    local base = core.tapes(0)
    assert.are.equal(base + 3, core.tapes(3))
    assert.are.equal(2147483647, core.tapes(math.maxinteger))
    assert.are.equal(0, core.tapes(math.mininteger))
    core.tapes(base)
    local f = tf.func(function(x) return x + 1 end)
    assert.is_true(#f:get_concrete_function(tf.constant(1.0)).graph:get_operations() > 1)
  end)
end)

describe("tf.keras.Sequential", function()
  it("takes a list of callable layers", function()
    typed("TypeError", tf.keras.Sequential, 5)
    local e = typed("TypeError", tf.keras.Sequential, { tf.keras.layers.Dense(2), 3 })
    assert.are.equal("tf.keras.Sequential: argument 'layers[2]' must be a function, got a number", e.message)
    local m = tf.keras.Sequential()
    typed("TypeError", function() return m:add("relu") end)
    m:add(tf.keras.layers.Dense(1))
    assert.are.same({ 2, 1 }, m(tf.ones({ 2, 3 })).shape:as_list())
  end)
end)

describe("core.json_array", function()
  it("marks plain tables only: a table with a metatable of its own is left alone", function()
    local core = require("moonflow.core")
    local t = core.json_array({})
    assert.are.equal("[]", core.json_encode(t))
    assert.are.equal(t, core.json_array(t)) -- marking twice is fine
    local e = typed("TypeError", core.json_array, tf.float32)
    assert.truthy(e.message:find("metatable", 1, true))
    assert.are.equal("float32", tf.float32.name) -- the dtype still works
    assert.are.same({ 1 }, tf.ones({ 1 }, tf.float32).shape:as_list())
  end)
end)

-- Found by the API fuzzer: a table inside itself sent the list conversion
-- of tf.stack, tf.convert_to_tensor and their users round for ever (a Lua
-- stack overflow, untyped); a name that is no string broke name scopes.
describe("tables inside themselves, and names", function()
  it("are typed errors where a list of values is converted", function()
    local t = { 1 }
    t[2] = t
    typed("ValueError", tf.stack, t)
    typed("ValueError", tf.convert_to_tensor, t)
    local u = { tf.constant(1.0) }
    u[2] = u
    local e = typed("ValueError", tf.convert_to_tensor, u)
    assert.truthy(e.message:find("contains itself", 1, true))
    local w = {}
    w[1] = w
    typed("ValueError", tf.stack, { w })
  end)

  it("an op's name is a string", function()
    local e = typed("TypeError", tf.nn.moments, tf.ones({ 2, 3 }), { 0 }, nil, nil, { name = tf.float32 })
    assert.truthy(e.message:find("option 'name' must be a string", 1, true))
    assert.are.equal(3, tf.add(1, 2, { name = "sum" }):numpy())
  end)
end)
