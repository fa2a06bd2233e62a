-- concrete_call_spec.lua — calling a ConcreteFunction with its tensors
-- only: the Lua values it was traced with (an object, a number, a table of
-- options) are bound at trace time, as in TF, whose ConcreteFunction takes
-- the original signature (non-tensor arguments equal to the traced ones,
-- or left out at the end) or the flat one (the tensors alone).

local tf = tf or require("moonflow")
local helpers = require("helpers")

-- A model as a user writes one: an object (a table with a metatable)
-- holding variables, and an evaluation function taking it.
local Model = {}
Model.__index = Model
local function new_model(w) return setmetatable({ w = tf.Variable(w) }, Model) end
function Model:__call(x) return x * self.w end

local function evaluate(model, x, opts)
  local y = model(x)
  if opts and opts.double then y = y * 2.0 end
  return tf.reduce_sum(y)
end

describe("ConcreteFunction calls", function()
  it("cf(x): the object it was traced with is bound (the issue's example)", function()
    local model = new_model(3.0)
    local x = tf.constant({ 1.0, 2.0 })
    local cf = tf.func(evaluate):get_concrete_function(model, x)
    assert.are.equal(9.0, cf(x):numpy())
    assert.are.equal(15.0, cf(tf.constant({ 2.0, 3.0 })):numpy())
    -- the structured signature still works, with the same object
    assert.are.equal(9.0, cf(model, x):numpy())
    -- and the variable is read when the function runs, not when traced
    model.w:assign(4.0)
    assert.are.equal(12.0, cf(x):numpy())
  end)

  it("a different object is refused: non-tensor arguments must equal the traced ones", function()
    local evaluate_tf = tf.func(evaluate)
    local cf = evaluate_tf:get_concrete_function(new_model(3.0), tf.constant({ 1.0 }))
    local err = helpers.raises("TypeError", "Binding inputs to tf.func failed", cf, new_model(3.0),
      tf.constant({ 1.0 }))
    assert.truthy(err.message:find("Fallback to flat signature also failed due to: "
      .. "evaluate_tf(x) takes 1 positional arguments, got 2.", 1, true), err.message)
  end)

  it("a number and a table of options are bound too", function()
    local f = tf.func(function(model, scale, x, opts) return evaluate(model, x * scale, opts) end)
    local model = new_model(1.0)
    local cf = f:get_concrete_function(model, 10.0, tf.TensorSpec({ tf.None }, tf.float32), { double = true })
    assert.are.equal(60.0, cf(tf.constant({ 1.0, 2.0 })):numpy())
    assert.are.equal(60.0, cf(model, 10.0, tf.constant({ 1.0, 2.0 }), { double = true }):numpy())
    -- trailing Lua values may be left out of the original signature
    assert.are.equal(60.0, cf(model, 10.0, tf.constant({ 1.0, 2.0 })):numpy())
    local err = helpers.raises("TypeError", "Can not cast 5.0 to Literal[10.0]", cf, model, 5.0,
      tf.constant({ 1.0 }))
    assert.truthy(err.message:find("Fallback to flat signature also failed", 1, true), err.message)
  end)

  it("cf(x) inside another tf.func and under a tape", function()
    local model = new_model(2.0)
    local cf = tf.func(evaluate):get_concrete_function(model, tf.TensorSpec({ 2 }, tf.float32))
    local outer = tf.func(function(x) return cf(x) + 1.0 end)
    assert.are.equal(7.0, outer(tf.constant({ 1.0, 2.0 })):numpy())
    local tape = tf.GradientTape()
    local y = cf(tf.constant({ 1.0, 2.0 }))
    tape:stop()
    assert.are.equal(3.0, tape:gradient(y, model.w):numpy())
  end)

  it("a flat argument that is no tensor says so", function()
    local evaluate_tf = tf.func(evaluate)
    local cf = evaluate_tf:get_concrete_function(new_model(2.0), tf.constant({ 1.0 }))
    local err = helpers.raises("TypeError", nil, cf, { 1.0 })
    assert.truthy(err.message:find("evaluate_tf(x): expected argument #0(zero-based) to be a Tensor; got table",
      1, true), err.message)
  end)
end)
