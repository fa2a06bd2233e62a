-- reshape_empty_spec.lua — Reshape of an empty tensor with a -1 beside a 0
-- (issue 28's small fix, as filed: tf.reshape(tf.zeros({0, 3}), {-1, 0})
-- "should raise InvalidArgumentError ... cannot infer the missing input
-- size for an empty tensor unless all specified input sizes are non-zero").
--
-- That message is TF's Reshape kernel of 2015 (and SparseReshape's, today).
-- TF's ReshapeOp since then (reshape_op.h, ValidateSizes and Compute)
-- leaves zero sizes out of the product and, when the requested shape has a
-- zero, the input's zero dimensions out of its element count, "so we are
-- still able to infer shapes for other dimensions": {-1, 0} of a (0, 3)
-- tensor infers 3 and gives shape (3, 0), as reshape_op_test.py's
-- testZeroDimWithUnspecifiedDim ((0, 6) to (0, -1, 3) gives (0, 2, 3)).
-- moonflow keeps TF's current behaviour; these cases pin it.
local tf = tf or require("moonflow")
local H = require("helpers")

describe("Reshape of an empty tensor with -1 and 0 (TF's reshape_op.h)", function()
  it("infers the -1 from the non-zero dimensions, eagerly and traced", function()
    local f = tf.func(function(x, s) return tf.reshape(x, s) end)
    for _, call in ipairs({ tf.reshape, function(x, s) return f(x, s) end }) do
      assert.same({ 3, 0 }, call(tf.zeros({ 0, 3 }), { -1, 0 }).shape:as_list())
      assert.same({ 0, 3 }, call(tf.zeros({ 0, 3 }), { 0, -1 }).shape:as_list())
      assert.same({ 0, 2, 3 }, call(tf.zeros({ 0, 6 }), { 0, -1, 3 }).shape:as_list())
    end
  end)

  it("still refuses a non-empty tensor whose element count the shape cannot hold", function()
    H.raises("InvalidArgumentError", "Input to reshape is a tensor with 6 values, but the requested shape has 0",
      tf.reshape, tf.zeros({ 2, 3 }), { -1, 0 })
  end)
end)
