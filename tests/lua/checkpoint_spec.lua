-- checkpoint_spec.lua — tf.train.Checkpoint never restores silently into
-- nothing: a model whose variables are made on its first call, read before
-- that call, is a typed error naming the object and the way out.
local tf = tf or require("moonflow")
local H = require("helpers")

local function tmpdir()
  local path = os.tmpname()
  os.remove(path)
  return path
end

describe("tf.train.Checkpoint read", function()
  local x = tf.constant({ { 1, 2, 3 } }, tf.float32)

  it("restores a called model's weights", function()
    local dir = tmpdir()
    local m = tf.keras.Sequential({ tf.keras.layers.Dense(2) })
    local y = m(x)
    tf.train.Checkpoint({ model = m }):write(dir)
    local fresh = tf.keras.Sequential({ tf.keras.layers.Dense(2) })
    fresh(x)
    tf.train.Checkpoint({ model = fresh }):read(dir)
    assert.same(y:numpy(), fresh(x):numpy())
  end)

  it("into a model not yet called is a FailedPreconditionError naming it, not fresh random weights", function()
    local dir = tmpdir()
    local m = tf.keras.Sequential({ tf.keras.layers.Dense(2) })
    m(x)
    tf.train.Checkpoint({ model = m }):write(dir)
    local fresh = tf.keras.Sequential({ tf.keras.layers.Dense(2) })
    H.raises("FailedPreconditionError", "'model' has 0 variables but the checkpoint at " .. dir .. " holds 2",
      function() tf.train.Checkpoint({ model = fresh }):read(dir) end)
    fresh(x)
    tf.train.Checkpoint({ model = fresh }):read(dir)
    assert.same(m(x):numpy(), fresh(x):numpy())
  end)
end)
