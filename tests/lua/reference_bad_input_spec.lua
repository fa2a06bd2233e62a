-- reference_bad_input_spec.lua — bad input the reference's error entries
-- found answered without a typed error (a raw Lua error, or a value TF
-- refuses to give): each now raises TF's type and message.

local function error_of(fn, ...)
  local ok, err = pcall(fn, ...)
  assert.is_false(ok, "no error")
  assert.is_true(tf.errors.is(err), "not a moonflow error: " .. tostring(err))
  return err
end

describe("bad input found by the reference's examples", function()
  it("tf.saved_model.save of a value that is not a module or a function is TF's ValueError", function()
    local dir = os.tmpname()
    os.remove(dir)
    local err = error_of(tf.saved_model.save, 42, dir)
    assert.are.equal("ValueError", err.type)
    assert.truthy(err.message:find("Expected an object of type `Trackable`, such as `tf.Module` or a "
      .. "subclass of the `Trackable` class, for export. Got 42", 1, true), err.message)
  end)

  it("tf.train.Checkpoint of a value that is not a variable or a module is TF's ValueError", function()
    local err = error_of(tf.train.Checkpoint, { weights = 42 })
    assert.are.equal("ValueError", err.type)
    assert.truthy(err.message:find("`Checkpoint` was expecting weights to be a trackable object (an "
      .. "object derived from `Trackable`), got 42", 1, true), err.message)
    err = error_of(tf.train.Checkpoint, 42)
    assert.are.equal("TypeError", err.type)
    -- what it saves is still accepted
    local M = tf.Module:extend("CkptSpecModule")
    function M:init() self.v = tf.Variable(1.0) end
    assert.is_table(tf.train.Checkpoint({ v = tf.Variable(1.0), m = M() }))
  end)

  it("tf.debug.step_with and profile_with: options that are not a table, or unknown keys, are TypeErrors", function()
    local f = tf.func(function(x) return x * 2 end)
    local err = error_of(tf.debug.step_with, 42, f, tf.constant(1.0))
    assert.are.equal("TypeError", err.type)
    assert.truthy(err.message:find("tf.debug.step_with: argument 'opts' must be a table, got a number", 1, true), err.message)
    err = error_of(tf.debug.step_with, { optimised = true }, f, tf.constant(1.0))
    assert.are.equal("TypeError", err.type)
    assert.truthy(err.message:find("tf.debug.step_with got an unexpected keyword argument 'optimised', "
      .. "did you mean 'optimized'?", 1, true), err.message)
    err = error_of(tf.debug.profile_with, { run = 3 }, f, tf.constant(1.0))
    assert.truthy(err.message:find("tf.debug.profile_with got an unexpected keyword argument 'run', "
      .. "did you mean 'runs'?", 1, true), err.message)
    assert.are.equal(7.0, tf.debug.step_with({ optimized = true }, f, tf.constant(3.5)):finish():numpy())
  end)

  it("tf.random.normal of an integer dtype is TF's TypeError, not zeros", function()
    local err = error_of(tf.random.normal, { 2 }, { dtype = tf.int32 })
    assert.are.equal("TypeError", err.type)
    assert.truthy(err.message:find("Value passed to parameter 'dtype' has DataType int32 not in list of "
      .. "allowed values: float32, float64", 1, true), err.message)
  end)

  it("tf.random.uniform of an integer dtype needs minval < maxval (TF's InvalidArgumentError)", function()
    local err = error_of(tf.random.uniform, { 2 }, { minval = 5, maxval = 2, dtype = tf.int32 })
    assert.are.equal("InvalidArgumentError", err.type)
    assert.truthy(err.message:find("Need minval < maxval: 5 >= 2", 1, true), err.message)
    err = error_of(tf.random.uniform, { 2 }, { minval = 2, maxval = 2, dtype = tf.int64 })
    assert.truthy(err.message:find("Need minval < maxval: 2 >= 2", 1, true), err.message)
  end)
end)

describe("more bad input found by the reference's examples", function()
  it("tf.eye of a negative size is the InvalidArgumentError tf.ones gives, not tf.range's", function()
    local err = error_of(tf.eye, -1)
    assert.are.equal("InvalidArgumentError", err.type)
    assert.truthy(err.message:find("Dimension -1 must be >= 0", 1, true), err.message)
    err = error_of(tf.eye, 2, -3)
    assert.truthy(err.message:find("Dimension -3 must be >= 0", 1, true), err.message)
    assert.are.same({ 0, 0 }, tf.eye(0).shape:as_list())
  end)

  it("tf.errors.raise needs a type name and a message, both strings (TypeError)", function()
    local err = error_of(tf.errors.raise, "ValueError")
    assert.are.equal("TypeError", err.type)
    assert.truthy(err.message:find("tf.errors.raise: argument 'message' must be a string, got nil", 1, true), err.message)
    err = error_of(tf.errors.raise, 42, "x")
    assert.truthy(err.message:find("tf.errors.raise: argument 'type' must be a string, got 42", 1, true), err.message)
  end)
end)
