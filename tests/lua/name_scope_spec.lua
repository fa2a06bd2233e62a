-- name_scope_spec.lua — tf.name_scope (TF's ops.name_scope_v2 rules):
-- names of traced ops under a scope, nesting, uniqueness, re-entry and
-- reset, closing on every way out; the gradient and optimizer parts of a
-- traced training step named as TF names them; and what graph pictures
-- make of scopes (a box each, large ones collapsed, unused ops marked).

local function names_of(cf)
  local names = {}
  for _, op in ipairs(cf.graph:get_operations()) do names[#names + 1] = op.name end
  return names
end

local function has(names, name)
  for _, n in ipairs(names) do if n == name then return true end end
  return false
end

local function training_step()
  local w = tf.Variable(tf.ones({3, 2}), { name = "w" })
  local opt = tf.keras.optimizers.SGD(0.1)
  local step = tf.func(function(x)
    local tape = tf.GradientTape()
    local loss
    do
      local scope <close> = tf.name_scope("forward")
      loss = tf.reduce_sum(tf.matmul(x, w))
    end
    tape:stop()
    local g = tape:gradient(loss, w)
    opt:apply_gradients({ { g, w } })
    local unused = x * 3
    return loss
  end)
  return step:get_concrete_function(tf.ones({4, 3}))
end

describe("tf.name_scope", function()
  it("prefixes the names of ops traced under it, nested and made unique", function()
    local f = tf.func(function(x)
      local a, b, c
      do
        local outer <close> = tf.name_scope("outer")
        a = x + 1
        do
          local inner <close> = tf.name_scope("inner")
          assert.equal("outer/inner/", inner.name)
          b = a * 2
        end
      end
      do
        local again <close> = tf.name_scope("outer")
        assert.equal("outer_1/", again.name)
        c = b - 1
      end
      return c
    end)
    local names = names_of(f:get_concrete_function(tf.constant(1.0)))
    assert.is_true(has(names, "outer/add"), table.concat(names, " "))
    assert.is_true(has(names, "outer/inner/mul"))
    assert.is_true(has(names, "outer_1/sub"))
    assert.equal(3.0, f(tf.constant(1.0)):numpy())
  end)

  it("re-enters a scope named with a trailing '/' and leaves every scope with ''", function()
    local f = tf.func(function(x)
      local s <close> = tf.name_scope("a")
      local y = x + 1
      do
        local back <close> = tf.name_scope("a/")
        y = y * 2
      end
      do
        local top <close> = tf.name_scope("")
        y = y - 1
      end
      return y
    end)
    local names = names_of(f:get_concrete_function(tf.constant(1.0)))
    assert.is_true(has(names, "a/add"))
    assert.is_true(has(names, "a/mul"))
    assert.is_true(has(names, "sub"), table.concat(names, " "))
  end)

  it("closes when an error leaves its block, and with scope:close()", function()
    local f = tf.func(function(x)
      pcall(function()
        local s <close> = tf.name_scope("failing")
        error("boom")
      end)
      local s = tf.name_scope("closed")
      s:close()
      s:close()
      return x + 1
    end)
    local names = names_of(f:get_concrete_function(tf.constant(1.0)))
    assert.is_true(has(names, "add"), table.concat(names, " "))
  end)

  it("checks its name as TF does, and names nothing eagerly", function()
    local ok, err = pcall(tf.name_scope, "-bad")
    assert.is_false(ok)
    assert.equal("ValueError", err.type)
    assert.equal("'-bad' is not a valid scope name", err.message)
    ok, err = pcall(tf.name_scope, 3)
    assert.equal("TypeError", err.type)
    local s <close> = tf.name_scope("eager")
    assert.equal("eager/", s.name)
    assert.equal(3, (tf.constant(1) + 2):numpy())
    ok, err = pcall(function() return s.nosuch end)
    assert.equal("AttributeError", err.type)
  end)

  it("names a traced training step's parts as TF does: gradient_tape/ and the optimizer's", function()
    local names = names_of(training_step())
    assert.is_true(has(names, "forward/MatMul"), table.concat(names, " "))
    local grad, update = 0, 0
    for _, n in ipairs(names) do
      if n:match("^gradient_tape/") then grad = grad + 1 end
      if n:match("^sgd/") then update = update + 1 end
    end
    assert.is_true(grad > 0)
    assert.is_true(has(names, "sgd/AssignSubVariableOp"), table.concat(names, " "))
  end)
end)

describe("graph pictures of name scopes", function()
  it("draw each top-level scope as a box, a large one as one collapsed node", function()
    local g = training_step().graph
    local dot = g:to_dot({ collapse = false })
    assert.truthy(dot:find('label="forward/"', 1, true))
    assert.truthy(dot:find('label="gradient_tape/"', 1, true))
    assert.truthy(dot:find('label="sgd/"', 1, true))
    -- Mean/reduction_indices-style constants are not scopes
    assert.is_nil(dot:find('label="Sum/"', 1, true))
    local small = g:to_dot({ collapse = 3 })
    assert.truthy(small:find('label="gradient_tape/\\n%d+ ops %(collapsed%)", shape=box3d'), small)
    -- (a gradient is named under its forward op's scope, as in TF)
    assert.is_nil(small:find("gradient_tape/forward/MatMul", 1, true))
    -- The default collapses only scopes over 40 ops.
    assert.truthy(g:to_dot():find("gradient_tape/forward/MatMul", 1, true))
    local ok, err = pcall(g.to_dot, g, { collapse = "yes" })
    assert.equal("TypeError", err.type)
  end)

  it("mark ops nothing uses, in the picture and the text", function()
    local g = training_step().graph
    local dot = g:to_dot({ collapse = false })
    assert.truthy(dot:find('label="mul\\nMul\\n%(unused%)", style="rounded,dashed"'), dot)
    local text = g:text()
    assert.truthy(text:find("\n  mul +%= Mul%(x:0, mul/y:0%)  %-> float32 %(4, 3%)  %(unused%)\n"), text)
    -- stateful ops and the output are used by definition
    assert.is_nil(text:find("AssignSubVariableOp[^\n]*%(unused%)"))
    assert.is_nil(text:find("Identity[^\n]*%(unused%)"))
  end)
end)

-- TF's wrappers that open a name scope of their own name their node after
-- it (math_ops.add: "Add", divide is x / y: "truediv", floordiv:
-- "floordiv"); the others take the op's name; a name= option wins.
describe("traced nodes are named as TF's wrappers name them", function()
  it("tf.add is Add, tf.divide truediv, tf.math.floordiv floordiv, tf.subtract Sub", function()
    local f = tf.func(function(x, y)
      return tf.add(x, y), tf.divide(x, y), tf.math.floordiv(x, y), tf.subtract(x, y), x + y,
        tf.add(x, y, { name = "total" })
    end)
    local cf = f:get_concrete_function(tf.constant(1.0), tf.constant(2.0))
    local names = {}
    for _, op in ipairs(cf.graph:get_operations()) do
      if op.type ~= "Placeholder" and op.type ~= "Identity" then names[#names + 1] = op.name .. ":" .. op.type end
    end
    assert.are.same({ "Add:AddV2", "truediv:RealDiv", "floordiv:FloorDiv", "Sub:Sub", "add:AddV2", "total:AddV2" },
      names)
  end)
end)
