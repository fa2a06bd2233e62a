-- bound_method_spec.lua — issue 24: a tf.func defined on a tf.Module class
-- (`M.__call = tf.func(function(self, x) ... end)`) is a method, as a
-- tf.function in a Python class body is: `m.f` is bound to `m` (TF's
-- Function.__get__, polymorphic_function.py), its input_signature leaves
-- `self` out, `m.f:get_concrete_function()` needs no arguments, its tracing
-- count is that instance's, and tf.saved_model.save / tf.onnx.export find
-- it ("Introduction to modules, layers, and models": MySequentialModule's
-- `@tf.function def __call__`, saved and loaded back as a callable object).
-- A function that cannot be saved is an error naming it, never dropped.
local tf = tf or require("moonflow")
local helpers = require("helpers")
local sm = require("moonflow.io.saved_model")
local onnx = require("moonflow.io.onnx")

local function tmpdir()
  local d = os.tmpname()
  os.remove(d)
  return d
end

local function err_of(f, ...)
  local ok, e = pcall(f, ...)
  assert.is_false(ok, "expected an error")
  return e
end

-- The guide's SimpleModule as a class with a tf.func __call.
local function scaler_class()
  local Scale = tf.Module:extend("Scale")
  function Scale:init(k) self.k = tf.Variable(k, { name = "k" }) end
  Scale.__call = tf.func(function(self, x) return x * self.k end)
  return Scale
end

describe("a tf.func on a tf.Module class is a bound method", function()
  it("m.f is bound to m: m.f(x) and m:f(x) are the same call, and m.f is m.f", function()
    local M = tf.Module:extend("M")
    function M:init() self.v = tf.Variable(2.0) end
    M.f = tf.func(function(self, x) return x * self.v end)
    local m = M()
    helpers.tensor(m.f(tf.constant(3.0)), tf.float32, {}, 6.0)
    helpers.tensor(m:f(tf.constant(3.0)), tf.float32, {}, 6.0)
    assert.is_true(rawequal(m.f, m.f))
    assert.is_false(rawequal(m.f, M.f))
    assert.are.equal(1, m.f:experimental_get_tracing_count())
    assert.is_truthy(tostring(m.f):find("^<tf.func 'f'"), tostring(m.f))
    assert.is_true(require("moonflow.trace.func").is_func(m.f))
  end)

  it("counts that instance's traces, and the class's function counts them all", function()
    local Scale = scaler_class()
    local a, b = Scale(2.0), Scale(3.0)
    a(tf.constant(1.0))
    a(tf.constant({ 1.0, 2.0 }))
    b(tf.constant(1.0))
    assert.are.equal(2, a.__call:experimental_get_tracing_count())
    assert.are.equal(1, b.__call:experimental_get_tracing_count())
    assert.are.equal(3, Scale.__call:experimental_get_tracing_count())
    assert.are.equal(2, #a.__call:concrete_functions())
    assert.are.equal(1, #b.__call:concrete_functions())
    b.__call:clear_cache()
    assert.are.equal(0, b.__call:experimental_get_tracing_count())
    assert.are.equal(2, a.__call:experimental_get_tracing_count())
  end)

  it("leaves self out of its input_signature; get_concrete_function() needs no arguments", function()
    local M = tf.Module:extend("M")
    function M:init() self.v = tf.Variable({ 1.0, 2.0 }) end
    local spec = tf.TensorSpec({ 2 }, tf.float32, "x")
    M.__call = tf.func(function(self, x) return x + self.v end, { input_signature = { spec } })
    local m = M()
    assert.are.equal(1, #m.__call.input_signature)
    assert.are.equal(1, #M.__call.input_signature)
    local cf = m.__call:get_concrete_function()
    assert.is_true(require("moonflow.trace.func").is_concrete(cf))
    assert.are.equal(1, m.__call:experimental_get_tracing_count())
    -- the call that follows uses that trace
    helpers.tensor(m(tf.constant({ 1.0, 1.0 })), tf.float32, { 2 }, { 2.0, 3.0 })
    assert.are.equal(1, m.__call:experimental_get_tracing_count())
    assert.is_true(rawequal(cf, m.__call:get_concrete_function()))
  end)

  it("binds get_concrete_function's arguments after self", function()
    local Scale = scaler_class()
    local m = Scale(2.0)
    local cf = m.__call:get_concrete_function(tf.TensorSpec({ 3 }, tf.float32))
    assert.are.equal(1, m.__call:experimental_get_tracing_count())
    assert.is_true(rawequal(cf, m.__call:concrete_functions()[1]))
  end)

  it("an inherited method is bound too", function()
    local Scale = scaler_class()
    local Sub = Scale:extend("Sub")
    local s = Sub(4.0)
    helpers.tensor(s.__call(tf.constant(1.0)), tf.float32, {}, 4.0)
    assert.are.equal(1, s.__call:experimental_get_tracing_count())
  end)

  it("a tf.func whose first parameter is not self, or an instance's own field, is not bound", function()
    local M = tf.Module:extend("M")
    M.helper = tf.func(function(x) return x * 2 end)
    local m = M()
    m.own = tf.func(function(x) return x + 1 end)
    assert.is_true(rawequal(M.helper, m.helper))
    helpers.tensor(m.helper(tf.constant(1.0)), tf.float32, {}, 2.0)
    helpers.tensor(m.own(tf.constant(1.0)), tf.float32, {}, 2.0)
  end)
end)

describe("tf.saved_model.save finds a module's class-level tf.func methods", function()
  it("saves MySequentialModule's __call and loads a callable object (the modules guide)", function()
    local Dense = tf.Module:extend("Dense")
    function Dense:init(in_features, out_features)
      self.w = tf.Variable(tf.ones({ in_features, out_features }), { name = "w" })
      self.b = tf.Variable(tf.zeros({ out_features }), { name = "b" })
    end
    function Dense:__call(x) return tf.nn.relu(tf.matmul(x, self.w) + self.b) end
    local Seq = tf.Module:extend("MySequentialModule")
    function Seq:init()
      self.dense_1 = Dense(3, 3)
      self.dense_2 = Dense(3, 2)
    end
    Seq.__call = tf.func(function(self, x) return self.dense_2(self.dense_1(x)) end)
    local model = Seq()
    helpers.tensor(model(tf.constant({ { 2.0, 2.0, 2.0 } })), tf.float32, { 1, 2 }, { { 18.0, 18.0 } })
    model(tf.constant({ { { 2.0, 2.0, 2.0 }, { 2.0, 2.0, 2.0 } } })) -- a second trace (rank 3)
    local dir = tmpdir()
    sm.save(model, dir)
    local loaded = sm.load(dir)
    helpers.tensor(loaded(tf.constant({ { 2.0, 2.0, 2.0 } })), tf.float32, { 1, 2 }, { { 18.0, 18.0 } })
    helpers.tensor(loaded.__call(tf.constant({ { 1.0, 1.0, 1.0 } })), tf.float32, { 1, 2 }, { { 9.0, 9.0 } })
    assert.is_not_nil(loaded.signatures.serving_default)
    assert.are.equal(4, #loaded.variables())
    os.execute("rm -rf '" .. dir .. "'")
  end)

  it("saves only that instance's traces, with its own variables", function()
    local Scale = scaler_class()
    local a, b = Scale(2.0), Scale(3.0)
    a(tf.constant(1.0))
    b(tf.constant({ 1.0, 2.0 }))
    local dir = tmpdir()
    sm.save(b, dir)
    local loaded = sm.load(dir)
    helpers.tensor(loaded(tf.constant({ 2.0, 2.0 })), tf.float32, { 2 }, { 6.0, 6.0 })
    -- a's trace (a scalar) was not saved: a scalar does not fit b's
    local e = err_of(loaded.__call, tf.constant(1.0))
    assert.are.equal("TypeError", e.type)
    os.execute("rm -rf '" .. dir .. "'")
  end)

  it("saves a method with an input_signature never called", function()
    local M = tf.Module:extend("M")
    function M:init() self.v = tf.Variable(10.0) end
    M.add = tf.func(function(self, x) return x + self.v end,
      { input_signature = { tf.TensorSpec({}, tf.float32, "x") } })
    local dir = tmpdir()
    sm.save(M(), dir)
    helpers.tensor(sm.load(dir).add(tf.constant(1.0)), tf.float32, {}, 11.0)
    os.execute("rm -rf '" .. dir .. "'")
  end)

  it("refuses a method it cannot save, naming it, instead of dropping it", function()
    local M = tf.Module:extend("M")
    M.forward = tf.func(function(self, x) return x end)
    local e = err_of(sm.save, M(), tmpdir())
    assert.are.equal("ValueError", e.type)
    assert.is_truthy(e.message:find("'forward'", 1, true), e.message)
  end)

  it("takes a bound method as signatures, alone or in a table; refuses an unbound one", function()
    local Scale = scaler_class()
    local m = Scale(2.0)
    m(tf.constant(1.0))
    local dir = tmpdir()
    sm.save(m, dir, { signatures = m.__call })
    helpers.tensor(sm.load(dir).signatures.serving_default(tf.constant(4.0)), tf.float32, {}, 8.0)
    os.execute("rm -rf '" .. dir .. "'")
    sm.save(m, dir, { signatures = { serve = m.__call } })
    helpers.tensor(sm.load(dir).signatures.serve(tf.constant(4.0)), tf.float32, {}, 8.0)
    os.execute("rm -rf '" .. dir .. "'")
    local e = err_of(sm.save, m, dir, { signatures = { serve = Scale.__call } })
    assert.are.equal("ValueError", e.type)
    assert.is_truthy(e.message:find("'serve'", 1, true), e.message)
    assert.is_truthy(e.message:find("m.__call", 1, true) or e.message:find("bound", 1, true), e.message)
  end)
end)

describe("tf.onnx.export finds a module's class-level tf.func methods", function()
  it("exports the instance's trace of its __call", function()
    local Scale = scaler_class()
    local m = Scale(2.0)
    m(tf.constant({ 1.0, 2.0 }))
    local path = os.tmpname()
    assert.are.equal(path, onnx.export(m, path))
    local f = assert(io.open(path, "rb"))
    local bytes = f:read("a")
    f:close()
    os.remove(path)
    assert.is_truthy(#bytes > 0)
    assert.is_truthy(bytes:find("Mul", 1, true))
  end)

  it("a module with no traced function is an error naming its functions", function()
    local Scale = scaler_class()
    local e = err_of(onnx.export, Scale(2.0), os.tmpname())
    assert.is_truthy(e.message:find("__call", 1, true), e.message)
  end)
end)
