-- strict_spec.lua — names are never silently nil: a namespace refuses an
-- unknown name with AttributeError (a did-you-mean, or "moonflow has no
-- ... yet" for a TensorFlow name moonflow lacks); a session global never
-- assigned is a NameError with the Lua spelling of a Python habit.
local H = require("helpers")
local strict = require("moonflow.strict")

describe("a strict namespace", function()
  local function ns()
    return strict.namespace({ relu = 1, softmax = 2, moments = 3 }, "tf.nn")
  end

  it("gives its names as before", function()
    assert.equal(1, ns().relu)
    assert.equal(2, ns().softmax)
  end)

  it("refuses a typo with AttributeError and the closest name", function()
    H.raises("AttributeError", "module 'tf.nn' has no attribute 'relux'. Did you mean: 'relu'?",
      function() return ns().relux end)
  end)

  it("says which TensorFlow names moonflow lacks", function()
    H.raises("AttributeError", "module 'tf.nn' has no attribute 'ctc_loss': moonflow has no tf.nn.ctc_loss yet",
      function() return ns().ctc_loss end)
  end)

  it("stays writable and walkable", function()
    local t = ns()
    t.extra = 4
    assert.equal(4, t.extra)
    local n = 0
    for _ in pairs(t) do n = n + 1 end
    assert.equal(4, n)
    assert.is_nil(rawget(t, "nothing"))
  end)

  it("reaches nested plain tables through strict.namespaces", function()
    local root = strict.namespaces({ keras = { layers = { Dense = 1 } } }, "tf")
    H.raises("AttributeError", "module 'tf.keras.layers' has no attribute 'Densse'. Did you mean: 'Dense'?",
      function() return root.keras.layers.Densse end)
  end)
end)

describe("strict session globals", function()
  it("make a never-assigned global a NameError, and switch off", function()
    local env = { model = 1 }
    strict.globals(env, true)
    H.raises("NameError", "name 'modle' is not defined. Did you mean: 'model'?", function() return env.modle end)
    H.raises("NameError", "name 'None' is not defined: Lua's None is nil (in a shape: tf.None)",
      function() return env.None end)
    H.raises("NameError", "name 'True' is not defined: Lua's True is true", function() return env.True end)
    strict.globals(env, false)
    assert.is_nil(env.modle)
  end)
end)

describe("the tf namespaces", function()
  local tf = tf or require("moonflow")

  it("refuse a typo with AttributeError and the closest name, at every level", function()
    H.raises("AttributeError", "module 'tf' has no attribute 'reduce_summ'. Did you mean: 'reduce_sum'?",
      function() return tf.reduce_summ end)
    H.raises("AttributeError", "module 'tf.keras.layers' has no attribute 'Densse'. Did you mean: 'Dense'?",
      function() return tf.keras.layers.Densse end)
    H.raises("AttributeError", "module 'tf.nn' has no attribute 'reluu'. Did you mean: 'relu'?",
      function() return tf.nn.reluu end)
  end)

  -- (tf.nn.crelu: tf.nn.elu, the example before, exists since issue 28)
  it("say when TensorFlow has a name moonflow lacks, so {activation = tf.nn.crelu} is never a linear layer", function()
    H.raises("AttributeError", "moonflow has no tf.nn.crelu yet", function()
      return tf.keras.layers.Dense(2, { activation = tf.nn.crelu })
    end)
    -- (tf.float16, the example before, is a dtype since issue 28's "Dtypes")
    H.raises("AttributeError", "moonflow has no tf.complex64 yet", function() return tf.constant(1, tf.complex64) end)
  end)

  it("cover every plain table tf hands out", function()
    local strict_ns = require("moonflow.strict")
    local function walk(t, path, seen)
      if seen[t] then return end
      seen[t] = true
      assert.is_true(strict_ns.is_namespace(t), path .. " is not strict")
      for k, v in pairs(t) do
        local plain = type(v) == "table" and getmetatable(v) == nil and next(v) ~= nil
        for key in pairs(plain and v or {}) do
          if type(key) == "string" and key:sub(1, 2) == "__" then plain = false end
        end
        if type(k) == "string" and (plain or strict_ns.is_namespace(v)) then
          walk(v, path .. "." .. k, seen)
        end
      end
    end
    walk(tf, "tf", {})
  end)
end)
