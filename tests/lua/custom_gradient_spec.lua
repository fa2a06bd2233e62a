-- custom_gradient_spec.lua — tf.custom_gradient (TF's custom_gradient.py
-- and custom_gradient_test.py / backprop_test.py cases): eagerly, under
-- one and nested tapes, traced (IdentityN in the graph, the gradient's
-- ops in the tape's backward graph), called under a tape, with functions
-- run eagerly, with variables (grad_fn's options table), nested
-- structures, second derivatives, tf.stop_gradient, tf.recompute_grad and
-- tf.grad_pass_through; TF's errors.

local H = require("helpers")

local made = {}
local GradientTape = tf.GradientTape
before_each(function()
  tf.GradientTape = function(...)
    local t = GradientTape(...)
    made[#made + 1] = t
    return t
  end
end)
after_each(function()
  tf.GradientTape = GradientTape
  for _, t in ipairs(made) do t:stop() end
  made = {}
  tf.config.run_functions_eagerly(false)
end)

-- The guide's log1pexp: log(1 + e^x), whose plain gradient at 100 is nan.
local function log1pexp_fn(x)
  local e = tf.exp(x)
  local function grad(upstream) return upstream * (1 - 1 / (1 + e)) end
  return tf.math.log(1 + e), grad
end
local log1pexp = tf.custom_gradient(log1pexp_fn)

local function grad_of(fn, x)
  local tape = tf.GradientTape()
  tape:watch(x)
  local y = fn(x)
  tape:stop()
  return y, tape:gradient(y, x)
end

local function has(list, v)
  for _, x in ipairs(list) do if x == v then return true end end
  return false
end

describe("tf.custom_gradient eagerly", function()
  it("returns f's value and uses grad_fn under a tape (the guide's log1pexp at 100 is 1, not nan)", function()
    local y, g = grad_of(log1pexp, tf.constant(100.0))
    assert.are.equal(math.huge, y:numpy())
    assert.are.equal(1.0, g:numpy())
    local plain_y, plain_g = grad_of(function(x) return tf.math.log(1 + tf.exp(x)) end, tf.constant(100.0))
    assert.are.equal(math.huge, plain_y:numpy())
    assert.is_true(plain_g:numpy() ~= plain_g:numpy())
    local _, g0 = grad_of(log1pexp, tf.constant(0.0))
    H.close(0.5, g0)
  end)

  it("runs without a tape, and grad_fn is not called then", function()
    local called = false
    local f = tf.custom_gradient(function(x)
      return x * 2, function(dy) called = true; return dy end
    end)
    H.close(6, f(tf.constant(3.0)))
    assert.is_false(called)
  end)

  it("counts the gradient once (the inner ops are recorded but only the custom record is followed)", function()
    local f = tf.custom_gradient(function(x)
      return x * x, function(dy) return dy * 10 end
    end)
    local _, g = grad_of(f, tf.constant(3.0))
    H.close(10, g)
  end)

  it("chains with other ops and clips the gradient (the guide's clip_gradients)", function()
    local clip_gradients = tf.custom_gradient(function(y)
      local function backward(dy) return tf.clip_by_norm(dy, 0.5) end
      return y, backward
    end)
    local v = tf.Variable(2.0)
    local tape = tf.GradientTape()
    local output = clip_gradients(v * v)
    tape:stop()
    H.close(2, tape:gradient(output, v)) -- 2v * clip(1, 0.5) = 4 * 0.5
  end)

  it("works with tape:jacobian", function()
    local f = tf.custom_gradient(function(x)
      return x * x, function(dy) return dy * 3 end
    end)
    local x = tf.constant({ 1.0, 2.0 })
    local tape = tf.GradientTape({ persistent = true })
    tape:watch(x)
    local y = f(x)
    tape:stop()
    H.close({ { 3, 0 }, { 0, 3 } }, tape:jacobian(y, x))
  end)
end)

describe("tf.custom_gradient with several inputs and outputs", function()
  it("passes one dy per flat output and takes one gradient per flat argument", function()
    local seen
    local f = tf.custom_gradient(function(a, pair)
      local s, p = a + pair[1], a * pair[2]
      local function grad(ds, dp)
        seen = { ds:numpy(), dp:numpy() }
        return ds * 1, { ds * 2, dp * 3 }
      end
      return { sum = s, prod = p }, grad
    end)
    local a, b, c = tf.constant(1.0), tf.constant(2.0), tf.constant(3.0)
    local tape = tf.GradientTape()
    tape:watch({ a, b, c })
    local out = f(a, { b, c })
    tape:stop()
    H.close(3, out.prod)
    H.close(3, out.sum)
    local g = tape:gradient({ out.prod, out.sum }, { a, b, c })
    -- nest's order: the table's keys sorted, prod before sum
    assert.are.same({ 1, 1 }, seen)
    H.close(1, g[1])
    H.close(2, g[2])
    H.close(3, g[3])
  end)

  it("returns several outputs as several values, and nil is no gradient", function()
    local f = tf.custom_gradient(function(x, y)
      return x + y, x - y, function(d1, d2) return d1 + d2, nil end
    end)
    local x, y = tf.constant(1.0), tf.constant(2.0)
    local tape = tf.GradientTape()
    tape:watch({ x, y })
    local s, d = f(x, y)
    tape:stop()
    H.close(3, s)
    H.close(-1, d)
    local g = tape:gradient({ s, d }, { x, y })
    H.close(2, g[1])
    assert.is_nil(g[2])
  end)

  it("takes a method's self as no argument of the gradient (TF binds it first)", function()
    local M = tf.Module:extend("ScaleModule")
    function M:init() self.k = 3.0 end
    M.f = tf.custom_gradient(function(self, x)
      return x * self.k, function(dy) return dy * 10 end
    end)
    local m = M()
    local x = tf.constant(1.0)
    local tape = tf.GradientTape()
    tape:watch(x)
    local y = m:f(x)
    tape:stop()
    H.close(3, y)
    H.close(10, tape:gradient(y, x))
  end)

  it("is TF's ValueError when grad_fn returns the wrong number of gradients", function()
    local f = tf.custom_gradient(function(x, y)
      return x * y, function(dy) return dy end
    end)
    local x, y = tf.constant(1.0), tf.constant(2.0)
    local tape = tf.GradientTape()
    tape:watch({ x, y })
    local z = f(x, y)
    tape:stop()
    H.raises("ValueError", "custom_gradient function expected to return 2 gradients, but returned 1 instead.",
      function() tape:gradient(z, { x, y }) end)
  end)

  it("is a TypeError when f does not return grad_fn", function()
    local f = tf.custom_gradient(function(x) return x end)
    H.raises("TypeError", "must return its outputs and then grad_fn", f, tf.constant(1.0))
    H.raises("TypeError", "tf.custom_gradient expects a function", tf.custom_gradient, 3)
  end)
end)

describe("tf.custom_gradient with variables", function()
  it("hands grad_fn the variables in its options table and takes their gradients", function()
    local v = tf.Variable(2.0, { name = "v" })
    local got
    local f = tf.custom_gradient(function(x)
      local function grad(dy, opts)
        got = opts.variables
        return dy * v, { dy * 100 }
      end
      return x * v, grad
    end)
    local x = tf.constant(3.0)
    local tape = tf.GradientTape()
    tape:watch(x)
    local y = f(x)
    tape:stop()
    H.close(6, y)
    local g = tape:gradient(y, { x, v })
    assert.are.equal(1, #got)
    assert.are.equal(v, got[1])
    H.close(2, g[1])
    H.close(100, g[2])
  end)

  it("is TF's TypeError when f uses variables and grad_fn takes no options", function()
    local v = tf.Variable(2.0, { name = "v" })
    local f = tf.custom_gradient(function(x)
      return x * v, function(dy) return dy end
    end)
    H.raises("TypeError", "@tf.custom_gradient grad_fn must accept keyword argument 'variables', since "
      .. "function uses variables: [<tf.Variable 'v:0' shape=() dtype=float32, numpy=2.0>]", f, tf.constant(1.0))
  end)

  it("accepts a vararg grad_fn, and a variable passed as an argument is an input, not a variable", function()
    local v = tf.Variable(2.0)
    local f = tf.custom_gradient(function(x, w)
      return x * w, function(dy) return dy * w, dy * x end
    end)
    local tape = tf.GradientTape()
    local x = tf.constant(5.0)
    tape:watch(x)
    local y = f(x, v)
    tape:stop()
    local g = tape:gradient(y, { x, v })
    H.close(2, g[1])
    H.close(5, g[2])
    local u = tf.Variable(3.0)
    local h = tf.custom_gradient(function(x)
      return x * u, function(...)
        local dy, opts = ...
        return dy, { dy * #opts.variables }
      end
    end)
    local t2 = tf.GradientTape()
    local z = h(tf.constant(1.0))
    t2:stop()
    H.close(1, t2:gradient(z, u))
  end)

  it("is TF's ValueError when grad_fn returns the wrong number of variable gradients", function()
    local v = tf.Variable(2.0)
    local f = tf.custom_gradient(function(x)
      return x * v, function(dy, _) return dy, {} end
    end)
    local tape = tf.GradientTape()
    local y = f(tf.constant(1.0))
    tape:stop()
    H.raises("ValueError", "Must return gradient for each variable from @custom_gradient grad_fn.",
      function() tape:gradient(y, v) end)
  end)

  it("works inside tf.func with variables", function()
    local v = tf.Variable(2.0)
    local f = tf.custom_gradient(function(x)
      return x * v, function(dy, _) return dy * v, { dy * 7 } end
    end)
    local step = tf.func(function(x)
      local tape = tf.GradientTape()
      local y = f(x)
      tape:stop()
      return tape:gradient(y, v)
    end)
    H.close(7, step(tf.constant(1.0)))
  end)
end)

describe("tf.custom_gradient to higher order", function()
  it("gives second derivatives through a differentiable grad_fn (nested tapes)", function()
    local cube = tf.custom_gradient(function(x)
      return x * x * x, function(dy) return dy * 3 * x * x end
    end)
    local x = tf.constant(2.0)
    local outer = tf.GradientTape()
    outer:watch(x)
    local inner = tf.GradientTape()
    inner:watch(x)
    local y = cube(x)
    inner:stop()
    local g = inner:gradient(y, x)
    outer:stop()
    H.close(12, g)
    H.close(12, outer:gradient(g, x)) -- 6x
  end)

  it("uses a custom gradient of the grad_fn itself for the second derivative", function()
    local f = tf.custom_gradient(function(x)
      local function first(dy)
        local inner = tf.custom_gradient(function(_)
          return dy * 2 * x, function(ddy) return ddy * 42 end
        end)
        return inner(x)
      end
      return x * x, first
    end)
    local x = tf.constant(3.0)
    local outer = tf.GradientTape()
    outer:watch(x)
    local inner = tf.GradientTape()
    inner:watch(x)
    local y = f(x)
    inner:stop()
    local g = inner:gradient(y, x)
    outer:stop()
    H.close(6, g)
    H.close(42, outer:gradient(g, x))
  end)
end)

describe("tf.custom_gradient inside tf.func", function()
  it("records one IdentityN in the traced graph, and the tape's backward graph holds grad_fn's ops", function()
    local f = tf.func(function(x)
      local tape = tf.GradientTape()
      tape:watch(x)
      local y = log1pexp(x)
      tape:stop()
      return y, tape:gradient(y, x)
    end)
    local y, g = f(tf.constant(100.0))
    assert.are.equal(math.huge, y:numpy())
    H.close(1, g)
    local cf = f:get_concrete_function(tf.constant(1.0))
    local types = H.op_types(cf)
    local n = 0
    for _, t in ipairs(types) do if t == "IdentityN" then n = n + 1 end end
    assert.are.equal(1, n)
    local names = {}
    for _, op in ipairs(cf.graph:get_operations()) do names[#names + 1] = op.name end
    -- grad_fn's 1 / (1 + e), under the backward pass's name scope
    local found = false
    for _, name in ipairs(names) do
      if name:find("^gradient_tape/") and name:find("truediv") then found = true end
    end
    assert.is_true(found, table.concat(names, " "))
  end)

  it("has the custom gradient when a traced function is called under a tape, and to second order", function()
    local cube = tf.custom_gradient(function(x)
      return x * x * x, function(dy) return dy * 3 * x * x end
    end)
    local g = tf.func(function(x) return cube(x) end)
    local x = tf.constant(2.0)
    local outer = tf.GradientTape()
    outer:watch(x)
    local inner = tf.GradientTape()
    inner:watch(x)
    local y = g(x)
    inner:stop()
    local dy = inner:gradient(y, x)
    outer:stop()
    H.close(8, y)
    H.close(12, dy)
    H.close(12, outer:gradient(dy, x))
  end)

  it("gives the same with tf.config.run_functions_eagerly(true)", function()
    tf.config.run_functions_eagerly(true)
    local f = tf.func(function(x)
      local tape = tf.GradientTape()
      tape:watch(x)
      local y = log1pexp(x)
      tape:stop()
      return tape:gradient(y, x)
    end)
    H.close(1, f(tf.constant(100.0)))
  end)
end)

describe("tf.stop_gradient and tf.custom_gradient", function()
  it("stops the custom gradient before it, and grad_fn can stop one input", function()
    local f = tf.custom_gradient(function(x) return x * 2, function(dy) return dy * 5 end end)
    local x = tf.constant(1.0)
    local tape = tf.GradientTape({ persistent = true })
    tape:watch(x)
    local y1 = f(tf.stop_gradient(x))
    local y2 = tf.stop_gradient(f(x))
    local y3 = f(x)
    tape:stop()
    assert.is_nil(tape:gradient(y1, x))
    assert.is_nil(tape:gradient(y2, x))
    H.close(5, tape:gradient(y3, x))
  end)
end)

describe("tf.recompute_grad", function()
  it("gives f's gradient, running f again for it", function()
    local y = tf.Variable(3.0)
    local runs = 0
    local function my_function(x)
      runs = runs + 1
      return x * y
    end
    local g = tf.recompute_grad(my_function)
    local tape = tf.GradientTape()
    local r = tf.constant(2.0)
    tape:watch(r)
    local x0 = r
    for _ = 1, 2 do r = g(r) end
    tape:stop()
    assert.are.equal(2, runs)
    H.close(18, r)
    local grads = tape:gradient(r, { x0, y })
    assert.are.equal(4, runs)
    H.close(9, grads[1])  -- y^2
    H.close(12, grads[2]) -- 2 x0 y
  end)
end)

describe("tf.grad_pass_through", function()
  it("has f's value and an identity's gradient", function()
    local x = tf.Variable(1.0)
    local z = tf.Variable(3.0)
    local tape = tf.GradientTape()
    local y = tf.grad_pass_through(function(v) return x:assign(v) end)(z * z)
    tape:stop()
    H.close(9, y)
    H.close(6, tape:gradient(y, z))
  end)
end)

describe("tf.identity_n", function()
  it("passes a list through one IdentityN node", function()
    local f = tf.func(function(a, b)
      local r = tf.identity_n({ a, b })
      return r[1] + r[2]
    end)
    H.close(3, f(tf.constant(1.0), tf.constant(2.0)))
    assert.is_true(has(H.op_types(f:get_concrete_function(tf.constant(1.0), tf.constant(2.0))), "IdentityN"))
  end)
end)

describe("tf.custom_gradient in a SavedModel", function()
  local dir = os.tmpname()
  os.remove(dir)
  after_each(function() os.execute("rm -rf '" .. dir .. "'") end)

  local function save(keep)
    local v = tf.Variable(3.0, { name = "w" })
    local f = tf.custom_gradient(function(x)
      local e = tf.exp(x)
      return x * v + e, function(dy, _) return dy * e * 10, { dy * 100 } end
    end)
    local M = tf.Module:extend("CustomGradModule")
    M.f = tf.func(function(self, x) return f(x) end, { input_signature = { tf.TensorSpec({}) } })
    local m = M()
    m.v = v
    local opts = keep == nil and nil or { options = tf.saved_model.SaveOptions({ experimental_custom_gradients = keep }) }
    tf.saved_model.save(m, dir, opts)
  end

  it("keeps the custom gradient by default (TF's experimental_custom_gradients = true), in a fresh process", function()
    save(nil)
    local out = H.run_lua(([[
local loaded = tf.saved_model.load(%q)
local x = tf.constant(0.0)
local w = loaded.variables()[1]
local outer = tf.GradientTape()
outer:watch(x)
local t = tf.GradientTape({ persistent = true })
t:watch(x)
local y = loaded.f(x)
t:stop()
local gx = t:gradient(y, x)
outer:stop()
print(y:numpy(), gx:numpy(), t:gradient(y, w):numpy(), outer:gradient(gx, x):numpy())
print(loaded.f_gradient_1 == nil)
]]):format(dir))
    assert.are.equal("1.0\t10.0\t100.0\t10.0\ntrue\n", out)
  end)

  it("with experimental_custom_gradients = false, keeps TF's registry in this process and is TF's LookupError in a new one", function()
    local clip = tf.custom_gradient(function(y)
      return y, function(dy) return tf.clip_by_norm(dy, 0.5) end
    end)
    local M = tf.Module:extend("ClipModule")
    M.call_custom_grad = tf.func(function(self, x) return clip(x) end, { input_signature = { tf.TensorSpec(nil) } })
    tf.saved_model.save(M(), dir, { options = tf.saved_model.SaveOptions({ experimental_custom_gradients = false }) })
    local loaded = tf.saved_model.load(dir)
    local v = tf.Variable(2.0)
    local t = tf.GradientTape()
    local output = loaded.call_custom_grad(v * v)
    t:stop()
    H.close(2, t:gradient(output, v))
    local out = H.run_lua(([[
local loaded = tf.saved_model.load(%q)
local v = tf.Variable(2.0)
local t = tf.GradientTape()
local output = loaded.call_custom_grad(v * v)
t:stop()
print(output:numpy())
local ok, e = pcall(t.gradient, t, output, v)
print(e.type .. ": " .. e.message)
]]):format(dir))
    assert.are.equal("4.0\nLookupError: No gradient defined for operation 'IdentityN' (op type: IdentityN)\n",
      out:sub(1, #"4.0\nLookupError: No gradient defined for operation 'IdentityN' (op type: IdentityN)\n"))
  end)

  it("prints SaveOptions as TF and refuses other options objects", function()
    assert.are.equal("SaveOptions(experimental_custom_gradients=True)", tostring(tf.saved_model.SaveOptions()))
    H.raises("TypeError", "options must be a tf.saved_model.SaveOptions", tf.saved_model.save,
      tf.func(function(x) return x end, { input_signature = { tf.TensorSpec({}) } }), dir, { options = {} })
  end)
end)

describe("tf.custom_gradient's reference examples", function()
  it("bar(x, y) = x * y with its gradients written out: 6.0, 3.0, 2.0", function()
    local bar = tf.custom_gradient(function(x, y)
      local function grad(upstream)
        local dz_dx, dz_dy = y, x
        return upstream * dz_dx, upstream * dz_dy
      end
      return x * y, grad
    end)
    local x, y = tf.constant(2.0), tf.constant(3.0)
    local tape = tf.GradientTape({ persistent = true })
    tape:watch(x)
    tape:watch(y)
    local z = bar(x, y)
    tape:stop()
    assert.are.equal("tf.Tensor(6.0, shape=(), dtype=float32)", tostring(z))
    assert.are.equal("tf.Tensor(3.0, shape=(), dtype=float32)", tostring(tape:gradient(z, x)))
    assert.are.equal("tf.Tensor(2.0, shape=(), dtype=float32)", tostring(tape:gradient(z, y)))
  end)

  it("gives the same in the session with %eager on", function()
    local session = require("moonflow.session")
    local function eval(code)
      local ok, msg
      local printed = H.capture(function() ok, msg = session.eval(code, "=(spec)", false) end)
      assert.is_true(ok ~= false, tostring(msg))
      return printed
    end
    assert.are.same({ "Eager mode is on: tf.func functions run their Lua code directly, without tracing." },
      eval("%eager on"))
    local ok, err = pcall(function()
      local f = tf.func(function(x)
        local tape = tf.GradientTape()
        tape:watch(x)
        local y = log1pexp(x)
        tape:stop()
        return tape:gradient(y, x), tf.executing_eagerly()
      end)
      local g, eager = f(tf.constant(100.0))
      H.close(1, g)
      assert.is_true(eager)
    end)
    eval("%eager off")
    if not ok then error(err, 0) end
  end)
end)
