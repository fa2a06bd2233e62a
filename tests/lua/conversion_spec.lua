-- conversion_spec.lua — how Lua values and TF objects become op inputs,
-- as TensorFlow converts them: a shared type attribute is inferred from
-- the first tensor, else from the first converted value; a TensorShape is
-- a tensor where one is expected. Eager and traced alike.
local tf = tf or require("moonflow")
local H = require("helpers")

local function both(fn)
  return fn(), tf.func(fn)()
end

describe("Lua values beside each other in a binary op", function()
  it("take the first value's dtype when no input is a tensor (TF's guides: tf.maximum(0.0, [1, -1]))", function()
    for _, t in ipairs({ both(function() return tf.maximum(0.0, { 1, -1 }) end) }) do
      H.tensor(t, tf.float32, { 2 }, { 1.0, 0.0 })
    end
    for _, t in ipairs({ both(function() return tf.add(1.5, { 1, 2 }) end) }) do
      H.tensor(t, tf.float32, { 2 }, { 2.5, 3.5 })
    end
  end)

  it("a float after an integer list is TF's TypeError, not a silent int or a kernel mismatch", function()
    H.raises("TypeError", "Cannot convert 1.5 to EagerTensor of dtype int32", tf.add, { 1, 2 }, 1.5)
    H.raises("TypeError", "Cannot convert 1.5", tf.func(function() return tf.add({ 1, 2 }, 1.5) end))
  end)

  it("a tensor input still decides the dtype of every Lua value", function()
    H.tensor(tf.add({ 1, 2 }, tf.constant(0.5)), tf.float32, { 2 }, { 1.5, 2.5 })
    H.tensor(tf.constant({ 1, 2 }) + 1, tf.int32, { 2 }, { 2, 3 })
  end)
end)

describe("a TensorShape where a tensor is expected", function()
  local x = tf.ones({ 2, 3 })

  it("converts a known shape to an int32 vector (tf.reduce_prod(x.shape), tf.zeros(x.shape))", function()
    for _, t in ipairs({ both(function() return tf.reduce_prod(x.shape) end) }) do
      H.tensor(t, tf.int32, {}, 6)
    end
    H.tensor(tf.convert_to_tensor(x.shape), tf.int32, { 2 }, { 2, 3 })
    H.tensor(tf.constant(x.shape), tf.int32, { 2 }, { 2, 3 })
    H.tensor(tf.zeros(x.shape), tf.float32, { 2, 3 }, { { 0, 0, 0 }, { 0, 0, 0 } })
    H.tensor(tf.convert_to_tensor(x.shape, tf.int64), tf.int64, { 2 }, { 2, 3 })
  end)

  it("refuses a partly known shape with TF's ValueError", function()
    H.raises("ValueError", "Cannot convert a partially known TensorShape (None, 3) to a Tensor.",
      tf.reduce_prod, tf.TensorShape({ tf.None, 3 }))
    H.raises("ValueError", "Cannot convert a partially known TensorShape <unknown> to a Tensor.",
      tf.convert_to_tensor, tf.TensorShape(nil))
  end)

  it("refuses a dtype other than int32/int64 with TF's TypeError", function()
    H.raises("TypeError", "Cannot convert a TensorShape to dtype: float32", tf.convert_to_tensor, x.shape,
      tf.float32)
  end)
end)
