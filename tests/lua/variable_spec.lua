-- variable_spec.lua — API.md "State and gradients", the tf.Variable part:
-- construction, printing, assign/assign_add/assign_sub, reads, fields,
-- operators, and dtype/shape errors on assign.
local tf = tf or require("moonflow")
local H = require("helpers")

describe("tf.Variable", function()
  it("prints as <tf.Variable 'Variable:0' shape=() dtype=float32, numpy=1.0>", function()
    local v = tf.Variable(1.0)
    assert.are.equal("<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=1.0>", tostring(v))
    assert.are.equal(tostring(v), H.repr(v))
  end)

  it("prints its name, shape, dtype and multi-line values like TF", function()
    assert.are.equal("<tf.Variable 'x:0' shape=() dtype=int64, numpy=3>",
      tostring(tf.Variable(3, { name = "x", dtype = tf.int64 })))
    assert.are.equal("<tf.Variable 'Variable:0' shape=(2,) dtype=int32, numpy=array([1, 2], dtype=int32)>",
      tostring(tf.Variable({ 1, 2 })))
    assert.are.equal("<tf.Variable 'Variable:0' shape=(2, 2) dtype=float32, numpy=\narray([[1., 2.],\n       [3., 4.]], dtype=float32)>",
      tostring(tf.Variable({ { 1.0, 2.0 }, { 3.0, 4.0 } })))
    assert.are.equal("<tf.Variable 'Variable:0' shape=() dtype=bool, numpy=True>", tostring(tf.Variable(true)))
    assert.are.equal("<tf.Variable 'Variable:0' shape=() dtype=string, numpy=b'hi'>", tostring(tf.Variable("hi")))
    assert.are.equal("<tf.Variable 'Variable:0' shape=(2000,) dtype=int32, numpy=array([   0,    1,    2, ..., 1997, 1998, 1999], dtype=int32)>",
      tostring(tf.Variable(tf.range(2000))))
  end)

  it("takes its initial value from Lua values, tensors, variables and functions", function()
    H.tensor(tf.Variable({ 1, 2 }):read_value(), tf.int32, { 2 }, { 1, 2 })
    H.tensor(tf.Variable(tf.constant({ 1.5 })):read_value(), tf.float32, { 1 }, { 1.5 })
    H.tensor(tf.Variable(function() return tf.ones({ 2 }) end):read_value(), tf.float32, { 2 }, { 1, 1 })
    local a = tf.Variable(5)
    local b = tf.Variable(a)
    a:assign(6)
    H.tensor(b:read_value(), tf.int32, {}, 5)
  end)

  it("converts its initial value to the dtype option", function()
    local v = tf.Variable(1, { dtype = tf.float32 })
    assert.are.equal(tf.float32, v.dtype)
    assert.are.equal(1.0, v:numpy())
    H.tensor(tf.Variable(tf.constant({ 1, 2 }), { dtype = tf.float64 }):read_value(), tf.float64, { 2 }, { 1.0, 2.0 })
    H.raises("TypeError", nil, tf.Variable, 1.5, { dtype = tf.int32 })
  end)

  it("needs an initial value", function()
    H.raises("ValueError", "The `initial_value` arg to `tf.Variable` must be specified", tf.Variable)
  end)

  it("has shape, dtype, name and trainable fields", function()
    local v = tf.Variable(tf.zeros({ 2, 3 }), { name = "w" })
    assert.are.equal("(2, 3)", tostring(v.shape))
    assert.are.same({ 2, 3 }, v.shape:as_list())
    assert.are.equal(2, v.shape[0])
    assert.are.equal(tf.float32, v.dtype)
    assert.are.equal("w:0", v.name)
    assert.are.equal(true, v.trainable)
    assert.are.equal(false, tf.Variable(1, { trainable = false }).trainable)
    assert.are.equal("Variable:0", tf.Variable(1).name)
  end)

  it("reads with read_value, value and numpy", function()
    local v = tf.Variable({ { 1, 2 }, { 3, 4 } })
    H.tensor(v:read_value(), tf.int32, { 2, 2 }, { { 1, 2 }, { 3, 4 } })
    H.tensor(v:value(), tf.int32, { 2, 2 }, { { 1, 2 }, { 3, 4 } })
    assert.are.same({ { 1, 2 }, { 3, 4 } }, v:numpy())
    assert.are.equal(2.5, tf.Variable(2.5):numpy())
    assert.are.equal("integer", math.type(tf.Variable(7):numpy()))
  end)

  it("a read is a snapshot: later assignments do not change it", function()
    local v = tf.Variable(1)
    local before = v:read_value()
    v:assign(2)
    assert.are.equal(1, before:numpy())
    assert.are.equal(2, v:read_value():numpy())
  end)

  it("assign, assign_add and assign_sub return the new value", function()
    local v = tf.Variable(1.0)
    local r = v:assign(5.0)
    assert.is_true(tf.is_tensor(r))
    H.tensor(r, tf.float32, {}, 5.0)
    H.tensor(v:assign_add(2), tf.float32, {}, 7.0)
    H.tensor(v:assign_sub(tf.constant(3.0)), tf.float32, {}, 4.0)
    assert.are.equal(4.0, v:numpy())
    assert.are.equal("<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=4.0>", tostring(v))
  end)

  -- TF's _UnreadVariable: the variable itself, read when used.
  it("the value they return is the variable unread, as TF's 'UnreadVariable'", function()
    local v = tf.Variable(1.0)
    local r = v:assign(5.0)
    assert.are.equal("<tf.Variable 'UnreadVariable' shape=() dtype=float32, numpy=5.0>", tostring(r))
    assert.are.equal("UnreadVariable", r.name)
    v:assign(6.0)
    assert.are.equal(6.0, r:numpy()) -- read now, not when assigned
    r:assign_add(1.0)                 -- updates v
    assert.are.equal(7.0, v:numpy())
    assert.is_nil(v:assign(8.0, { read_value = false }))
    H.raises("TypeError", "read_value", v.assign, v, 1.0, { read_value = 1 })
    H.raises("AttributeError", "_UnreadVariable", function() return r.nosuch end)
  end)

  it("an update returned unread is watched by tapes, as a read is", function()
    local v = tf.Variable(2.0)
    local tape = tf.GradientTape()
    local y = v:assign_add(1.0) * 2.0
    tape:stop()
    assert.are.equal(v, tape:watched_variables()[1])
    assert.are.equal(2.0, tape:gradient(y, v):numpy())
    local quiet = tf.GradientTape({ watch_accessed_variables = false })
    v:assign_add(1.0)
    quiet:stop()
    assert.are.equal(0, #quiet:watched_variables())
  end)

  it("assigns tensors, Lua tables and other variables", function()
    local v = tf.Variable({ 1, 2, 3 })
    v:assign({ 4, 5, 6 })
    assert.are.same({ 4, 5, 6 }, v:numpy())
    v:assign(tf.constant({ 7, 8, 9 }))
    assert.are.same({ 7, 8, 9 }, v:numpy())
    v:assign_add(tf.Variable({ 1, 1, 1 }))
    assert.are.same({ 8, 9, 10 }, v:numpy())
    v:assign_sub({ 8, 9, 10 })
    assert.are.same({ 0, 0, 0 }, v:numpy())
  end)

  it("refuses values of another dtype", function()
    local v = tf.Variable(1.0)
    -- TF's convert_to_tensor(x, dtype=v.dtype): a ValueError, never a cast.
    H.raises("ValueError", "Tensor conversion requested dtype float32 for Tensor with dtype int32",
      v.assign, v, tf.constant(1))
    H.raises("ValueError", nil, v.assign_add, v, tf.constant(1, tf.float64))
    H.raises("ValueError", "Incompatible type conversion requested to type float32", v.assign, v, tf.Variable(1))
    H.raises("ValueError", "Incompatible type conversion requested to type float32",
      tf.convert_to_tensor, tf.Variable(1), tf.float32)
    H.raises("TypeError", nil, v.assign, v, "s")
    local i = tf.Variable(1)
    H.raises("TypeError", nil, i.assign, i, 1.5)
    assert.are.equal(1.0, v:numpy())
    assert.are.equal(1, i:numpy())
  end)

  -- An update with nothing else holding the old value is made in place (a
  -- training step's weights are not copied); one a read still holds is not.
  describe("updates in place only what no read still holds", function()
    local n = 1000
    local function ramp(scale)
      local t = {}
      for i = 1, n do t[i] = (i - 500) * scale end
      return t
    end

    it("eager: a read taken before assign_add / assign_sub keeps its values", function()
      local v = tf.Variable(ramp(0.25))
      local before = v:read_value()
      v:assign_add(tf.fill({ n }, 1.5))
      v:assign_sub(tf.fill({ n }, 0.5))
      assert.are.same(ramp(0.25), before:numpy())
      local want = ramp(0.25)
      for i = 1, n do want[i] = want[i] + 1.0 end
      assert.are.same(want, v:numpy())
    end)

    it("traced: a read before the update returns the old value, every call", function()
      local v = tf.Variable(ramp(1.0))
      local step = tf.func(function(d)
        local old = v:read_value()
        v:assign_sub(d)
        return old
      end)
      local d = tf.fill({ n }, 2.0)
      for k = 0, 4 do
        local want = ramp(1.0)
        for i = 1, n do want[i] = want[i] - 2.0 * k end
        assert.are.same(want, step(d):numpy())
      end
    end)

    it("in place and out of place give the same bits", function()
      tf.random.set_seed(3)
      local init = tf.random.normal({ n })
      local g = tf.random.normal({ n }) * 0.01
      local shared, alone = tf.Variable(init), tf.Variable(init)
      local holds = {}
      for k = 1, 5 do
        holds[k] = shared:read_value() -- keeps shared's value from being updated in place
        shared:assign_sub(g)
        alone:assign_sub(g)
      end
      local want = init
      for _ = 1, 5 do want = want - g end
      assert.are.same(want:numpy(), alone:numpy())
      assert.are.same(want:numpy(), shared:numpy())
      assert.are.same(init:numpy(), holds[1]:numpy())
    end)

    it("integer variables wrap in place as out of place", function()
      local v = tf.Variable(tf.constant({ 2147483647, -2147483648, 5 }, tf.int32))
      v:assign_add(tf.constant({ 1, 0, 1 }, tf.int32))
      v:assign_sub(tf.constant({ 0, 1, 1 }, tf.int32))
      assert.are.same({ -2147483648, 2147483647, 5 }, v:numpy())
    end)
  end)

  it("refuses values of another shape", function()
    local v = tf.Variable(1.0)
    H.raises("ValueError", "Shape mismatch", v.assign, v, tf.constant({ 1.0, 2.0 }))
    local w = tf.Variable({ 1, 2 })
    H.raises("ValueError", "are incompatible", w.assign, w, { 1, 2, 3 })
    H.raises("InvalidArgumentError", "shapes must be equal", w.assign_add, w, { { 1, 2 }, { 3, 4 } })
    assert.are.same({ 1, 2 }, w:numpy())
  end)

  describe("operators read the value", function()
    local v = tf.Variable(3.0)

    it("with tensors and Lua numbers on either side", function()
      H.tensor(v + 1, tf.float32, {}, 4.0)
      H.tensor(1 + v, tf.float32, {}, 4.0)
      H.tensor(v - 1, tf.float32, {}, 2.0)
      H.tensor(2 - v, tf.float32, {}, -1.0)
      H.tensor(v * 2, tf.float32, {}, 6.0)
      H.tensor(2 * v, tf.float32, {}, 6.0)
      H.tensor(v / 2, tf.float32, {}, 1.5)
      H.tensor(6 / v, tf.float32, {}, 2.0)
      H.tensor(v // 2, tf.float32, {}, 1.0)
      H.tensor(v % 2, tf.float32, {}, 1.0)
      H.tensor(v ^ 2, tf.float32, {}, 9.0)
      H.tensor(2 ^ v, tf.float32, {}, 8.0)
      H.tensor(-v, tf.float32, {}, -3.0)
      H.tensor(v * v, tf.float32, {}, 9.0)
      H.tensor(v + tf.constant(1.0), tf.float32, {}, 4.0)
      H.tensor(tf.constant(1.0) + v, tf.float32, {}, 4.0)
    end)

    it("in tf ops", function()
      H.tensor(tf.add(v, 1), tf.float32, {}, 4.0)
      H.tensor(tf.multiply(v, tf.constant(2.0)), tf.float32, {}, 6.0)
      H.tensor(tf.square(v), tf.float32, {}, 9.0)
      H.tensor(tf.matmul(tf.Variable({ { 1.0, 2.0 } }), tf.constant({ { 3.0 }, { 4.0 } })), tf.float32, { 1, 1 }, { { 11.0 } })
      H.tensor(tf.convert_to_tensor(v), tf.float32, {}, 3.0)
    end)

    it("with Lua numbers on the left of tf ops", function()
      H.tensor(tf.subtract(2, v), tf.float32, {}, -1.0)
      H.tensor(tf.add(1, v), tf.float32, {}, 4.0)
    end)

    it("and see assignments", function()
      local w = tf.Variable(1)
      local before = w + 0
      w:assign(10)
      H.tensor(w + 0, tf.int32, {}, 10)
      H.tensor(before, tf.int32, {}, 1)
    end)

    it("comparisons on scalars give Lua booleans", function()
      assert.is_true(v < 4)
      assert.is_true(v <= 3)
      assert.is_false(v > 3)
      assert.is_true(v == tf.Variable(3.0))
      H.tensor(tf.less(v, 4), tf.bool, {}, true)
    end)

    it("# and indexing of the value", function()
      local w = tf.Variable({ 10, 20, 30 })
      assert.are.equal(3, #w)
      H.tensor(w:read_value()[1], tf.int32, {}, 20)
    end)

    it("dtype mismatches are InvalidArgumentError, as for tensors", function()
      H.raises("InvalidArgumentError", nil, function() return v + tf.constant(1) end)
      H.raises("TypeError", nil, function() return tf.Variable(1) + 0.5 end)
    end)
  end)
end)

describe("tf.Variable eagerly and traced agree", function()
  local function traced(fn, ...) return tf.func(fn)(...) end

  it("on an assignment of another shape or dtype: the same ValueError, raised while tracing", function()
    local v = tf.Variable({ 1.0, 2.0 }, { name = "w" })
    local assign = function(x) return v:assign(x) end
    local eager = H.raises("ValueError", "Shape mismatch", assign, tf.constant({ 1.0, 2.0, 3.0 }))
    local f = tf.func(function() return v:assign(tf.constant({ 1.0, 2.0, 3.0 })) end)
    local err = H.raises("ValueError", "Shape mismatch", f.get_concrete_function, f)
    assert.is_truthy(err.message:find(eager.message, 1, true))
    H.raises("ValueError", "Tensor conversion requested dtype float32", traced,
      function() return v:assign(tf.constant({ 1, 2 })) end)
  end)

  it("on what updates return: the variable unread, chained, read where used", function()
    local v = tf.Variable({ 1.0, 2.0 })
    local printed
    local f = tf.func(function(w)
      local r = w:assign_add({ 1.0, 1.0 }):assign_add({ 1.0, 1.0 })
      printed = tostring(r)
      return r
    end)
    assert.are.same({ 3.0, 4.0 }, f(v):numpy())
    assert.are.equal("<tf.Variable 'UnreadVariable' shape=(2,) dtype=float32>", printed)
    assert.are.same({ 5.0, 6.0 }, v:assign_add({ 1.0, 1.0 }):assign_add({ 1.0, 1.0 }):numpy())
    local reads = 0
    local g = tf.func(function() v:assign_sub({ 1.0, 1.0 }) end)
    for _, op in ipairs(g:get_concrete_function().graph:get_operations()) do
      if op.type == "ReadVariableOp" then reads = reads + 1 end
    end
    assert.are.equal(0, reads)
  end)

  it("on indexing, slicing and iterating a variable", function()
    local v = tf.Variable({ 1.0, 2.0, 3.0 })
    local function use()
      local s = tf.constant(0.0)
      for x in v do s = s + x end
      return s + v[1] * 10 + v["1:"][1] * 100
    end
    assert.are.equal(326.0, use():numpy())
    assert.are.equal(326.0, traced(use):numpy())
  end)

  it("on a relaxed shape: graphs see the declared shape, values their own", function()
    local v = tf.Variable(tf.zeros({ 2, 3 }), { shape = { tf.None, 3 } })
    assert.are.equal("(None, 3)", tostring(v.shape))
    local read = tf.func(function() return v:read_value() end)
    assert.are.equal("(None, 3)", tostring(read:get_concrete_function().graph.outputs[1].shape))
    v:assign(tf.ones({ 5, 3 }))
    assert.are.same({ 5, 3 }, read().shape:as_list())
    H.raises("ValueError", "are incompatible", v.assign, v, tf.ones({ 5, 4 }))
    H.raises("ValueError", "not compatible with", tf.Variable, tf.zeros({ 2 }), { shape = { 3 } })
  end)

  -- TF's BaseResourceVariable.read_value: `with name_scope("Read")` around
  -- the read, then an Identity; value() and operators read plainly.
  it("a traced read_value is TF's Read/ReadVariableOp and Identity; value() one ReadVariableOp", function()
    local v = tf.Variable(1.0)
    local f = tf.func(function() return v:read_value() + v:value() end)
    local nodes = {}
    for _, op in ipairs(f:get_concrete_function().graph:get_operations()) do
      if op.type ~= "Placeholder" then nodes[#nodes + 1] = op.type .. " " .. op.name end
    end
    assert.are.same({ "ReadVariableOp Read/ReadVariableOp", "Identity Identity", "ReadVariableOp ReadVariableOp",
      "AddV2 add", "Identity Identity_1" }, nodes)
    assert.are.equal(2.0, f():numpy())
  end)

  it("v:numpy() is eager only: TF's NotImplementedError while tracing", function()
    local v = tf.Variable(1.0)
    H.raises("NotImplementedError", "numpy() is only available when eager execution is enabled",
      traced, function() return v:numpy() end)
  end)
end)

describe("tf.Variable names", function()
  it("take the open name scopes, eager (nested) or traced, as TF's do", function()
    do
      local a <close> = tf.name_scope("a")
      local b <close> = tf.name_scope("b")
      assert.are.equal("a/b/w:0", tf.Variable(1, { name = "w" }).name)
      local top <close> = tf.name_scope("")
      assert.are.equal("Variable:0", tf.Variable(1).name)
    end
    assert.are.equal("w:0", tf.Variable(1, { name = "w" }).name)
    local made
    local f = tf.func(function()
      local s <close> = tf.name_scope("layer")
      if not made then made = tf.Variable(1.0, { name = "kernel" }) end
      return made * 2
    end)
    f()
    assert.are.equal("layer/kernel:0", made.name)
  end)
end)

describe("tf.Variable created from a traced value on the first trace", function()
  it("is lifted: its initial value is computed from the first call's arguments", function()
    local vs = {}
    local f = tf.func(function(x)
      if #vs == 0 then vs[1] = tf.Variable(2.0 * x + 1.0) end
      return vs[1] * x
    end)
    assert.are.equal(3.0, f(tf.constant(1.0)):numpy())
    assert.are.equal(9.0, f(tf.constant(3.0)):numpy())
    assert.are.equal(3.0, vs[1]:numpy())
  end)

  it("without arguments to compute it from, is still a ValueError", function()
    local vs = {}
    local f = tf.func(function(x)
      if #vs == 0 then vs[1] = tf.Variable(2.0 * x) end
      return vs[1] * x
    end)
    local ok, err = pcall(f.get_concrete_function, f, tf.TensorSpec({}, tf.float32))
    assert.is_false(ok)
    assert.are.equal("ValueError", err.type)
    assert.is_truthy(err.message:find("symbolic tensor", 1, true))
    assert.is_true(tf.executing_eagerly())
  end)
end)
