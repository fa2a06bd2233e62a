-- reference_errors_spec.lua — errors found while writing the reference
-- examples (lua/moonflow/reference/examples/) that differed from
-- TensorFlow's, with TF's type and message.
local tf = tf or require("moonflow")

local function raised(f, ...)
  local ok, err = pcall(f, ...)
  assert.is_false(ok)
  return err
end

describe("activations on integer features", function()
  it("tf.nn.gelu: ValueError, as TF's nn_ops.gelu checks the dtype first", function()
    local err = raised(tf.nn.gelu, tf.constant({ 1, 2 }))
    assert.are.equal("ValueError", err.type)
    assert.are.equal("`features.dtype` must be a floating point tensor.Received:features.dtype=<dtype: 'int32'>",
      err.message)
  end)

  it("tf.nn.silu and tf.nn.swish: the Sigmoid op's InvalidArgumentError, as TF", function()
    for _, f in ipairs({ tf.nn.silu, tf.nn.swish }) do
      local err = raised(f, tf.constant({ 1, 2 }))
      assert.are.equal("InvalidArgumentError", err.type)
      assert.matches("Sigmoid", err.message, 1, true)
      assert.matches("int32", err.message, 1, true)
    end
  end)
end)
