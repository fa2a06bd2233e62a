-- call_node_spec.lua — a tf.func called while another is traced keeps its
-- own traces and concrete functions and is called through a call node
-- (TF's PartitionedCall / StatefulPartitionedCall), not inlined (issue 11,
-- "Calls of one tf.func inside another's trace").

local tf = tf or require("moonflow")
local core = require("moonflow.core")
local helpers = require("helpers")

local function expect_error(kind, fn, ...) return helpers.raises(kind, nil, fn, ...) end

local function nodes_of_type(graph_handle, typ)
  local out = {}
  for _, n in ipairs(core.graph_nodes(graph_handle)) do
    if n.type == typ then out[#out + 1] = n end
  end
  return out
end

local function traced_graph(f, ...) return f:get_concrete_function(...)._graph end

describe("a tf.func called inside another's trace", function()
  it("has its own trace and concrete function, called through a PartitionedCall node", function()
    local inner = tf.func(function(x) return x * 2.0 end)
    local outer = tf.func(function(x) return inner(x) + 1.0 end)
    assert.are.equal(7.0, outer(tf.constant(3.0)):numpy())
    assert.are.equal(1, inner:experimental_get_tracing_count())
    assert.are.equal(1, #inner:concrete_functions())
    local g = traced_graph(outer, tf.constant(3.0))
    local calls = nodes_of_type(g, "PartitionedCall")
    assert.are.equal(1, #calls)
    assert.are.equal(0, #nodes_of_type(g, "Mul"), "the callee's ops stay in its own graph")
    assert.are.equal(inner:concrete_functions()[1]._graph, calls[1].attrs.f)
    -- the eager call of inner reuses the trace the outer trace made
    assert.are.equal(8.0, inner(tf.constant(4.0)):numpy())
    assert.are.equal(1, inner:experimental_get_tracing_count())
  end)

  it("a function with state is a StatefulPartitionedCall, never pruned or merged", function()
    local v = tf.Variable(0.0)
    local bump = tf.func(function(x)
      v:assign_add(x)
      return x
    end)
    local outer = tf.func(function(x)
      bump(x)
      bump(x)
      return x * 3.0
    end)
    assert.are.equal(3.0, outer(tf.constant(1.0)):numpy())
    assert.are.equal(2.0, v:numpy())
    local cf = outer:get_concrete_function(tf.constant(1.0))
    assert.are.equal(2, #nodes_of_type(cf._graph, "StatefulPartitionedCall"))
    local opt = cf:optimized_graph()
    assert.are.equal(2, #nodes_of_type(opt._handle, "StatefulPartitionedCall"))
  end)

  it("two calls of a pure function on the same input are merged by the optimiser", function()
    local inner = tf.func(function(x) return tf.exp(x) end)
    local outer = tf.func(function(x) return inner(x) + inner(x) end)
    local cf = outer:get_concrete_function(tf.constant(0.0))
    assert.are.equal(2, #nodes_of_type(cf._graph, "PartitionedCall"))
    local opt = cf:optimized_graph()
    assert.are.equal(1, #nodes_of_type(opt._handle, "PartitionedCall"))
    assert.are.equal(2.0, outer(tf.constant(0.0)):numpy())
  end)

  it("graph text and DOT show the call node naming its function, the callee nested", function()
    local inner = tf.func(function(x) return x * 2.0 end)
    local outer = tf.func(function(x) return inner(x) end)
    local g = outer:get_concrete_function(tf.constant(1.0)).graph
    local text = g:text()
    assert.truthy(text:find("PartitionedCall = PartitionedCall(x:0)", 1, true), text)
    assert.truthy(text:find("f = inner: 4 ops", 1, true), text)
    assert.truthy(text:find("mul      = Mul(x:0, mul/y:0)", 1, true), text)
    local dot = g:to_dot()
    assert.truthy(dot:find('subgraph cluster_n1_f {', 1, true), dot)
    assert.truthy(dot:find('label="f = inner"', 1, true), dot)
  end)

  it("recursion on Lua values: one trace and one concrete function per level", function()
    local recursive_fn
    recursive_fn = tf.func(function(n)
      if n > 0 then return recursive_fn(n - 1) end
      return 1
    end)
    assert.are.equal(1, recursive_fn(5):numpy())
    assert.are.equal(6, recursive_fn:experimental_get_tracing_count())
    assert.are.equal(6, #recursive_fn:concrete_functions())
    local g = traced_graph(recursive_fn, 5)
    assert.are.equal(1, #nodes_of_type(g, "PartitionedCall"))
    -- calls made inside a trace are no eager retracing: no warning
    local written = {}
    local saved = io.stderr
    io.stderr = { write = function(self, ...)
      for _, x in ipairs({ ... }) do written[#written + 1] = tostring(x) end
      return self
    end }
    local ok, err = pcall(recursive_fn, 7)
    io.stderr = saved
    assert.is_true(ok, tostring(err))
    assert.are.equal("", table.concat(written))
  end)

  it("recursion on tensors is still refused with a RecursionError", function()
    local recursive_fn
    recursive_fn = tf.func(function(n) return recursive_fn(n - 1) end)
    local err = expect_error("RecursionError", recursive_fn, tf.constant(5))
    assert.truthy(err.message:find("called itself 48 levels deep", 1, true))
    assert.is_true(tf.executing_eagerly())
  end)

  it("the inner input_signature applies: a Lua number is cast, a wrong dtype refused", function()
    local inner = tf.func(function(x) return x + 1.0 end, { input_signature = { tf.TensorSpec({}, tf.float32) } })
    assert.are.equal(3.0, tf.func(function() return inner(2) end)():numpy())
    local err = expect_error("TypeError", tf.func(function(x) return inner(x) end), tf.constant(2))
    assert.truthy(err.message:find("Binding inputs to tf.func failed", 1, true))
    assert.are.equal(1, #inner:concrete_functions())
  end)

  it("a signature's static shape is the call's: TF's set_shape, no check when the call runs", function()
    local inner = tf.func(function(x) return x * 2.0 end, { input_signature = { tf.TensorSpec({ 2 }, tf.float32) } })
    local outer = tf.func(function(x) return inner(x) end,
      { input_signature = { tf.TensorSpec({ tf.None }, tf.float32) } })
    assert.are.same({ 2.0, 4.0 }, outer(tf.constant({ 1.0, 2.0 })):numpy())
    assert.are.same({ 2 }, outer:get_concrete_function().outputs[1].shape:as_list())
    assert.are.same({ 2.0, 4.0, 6.0 }, outer(tf.constant({ 1.0, 2.0, 3.0 })):numpy())
    expect_error("TypeError", tf.func(function() return inner(tf.constant({ 1.0, 2.0, 3.0 })) end))
  end)

  it("a concrete function can be called inside another trace", function()
    local inner = tf.func(function(x) return x * 10.0 end)
    local cf = inner:get_concrete_function(tf.TensorSpec({}, tf.float32))
    local outer = tf.func(function(x) return cf(x) + 1.0 end)
    assert.are.equal(51.0, outer(tf.constant(5.0)):numpy())
    assert.are.equal(1, #nodes_of_type(traced_graph(outer, tf.constant(5.0)), "PartitionedCall"))
  end)

  it("a function defined inside the trace may capture the trace's tensors", function()
    local outer = tf.func(function(x)
      local scaled = tf.func(function(y) return x * y end)
      return scaled(tf.constant(2.0)) + scaled(tf.constant(3.0))
    end)
    assert.are.equal(20.0, outer(tf.constant(4.0)):numpy())
    assert.are.equal(25.0, outer(tf.constant(5.0)):numpy())
  end)

  it("shape inference flows through the call (known values included)", function()
    local f = tf.func(function(x) return tf.ones(tf.shape(x) * 2) end,
      { input_signature = { tf.TensorSpec({ tf.None, tf.None }, tf.float32) } })
    local outer = tf.func(function(x)
      local y = f(x)
      assert.are.same({ 4, 6 }, y.shape:as_list())
      return y
    end)
    assert.are.same({ 4, 6 }, outer(tf.zeros({ 2, 3 })).shape:as_list())
  end)
end)

describe("gradients through a call node", function()
  it("a tape inside the trace differentiates through the call", function()
    local inner = tf.func(function(x) return x * x end)
    local outer = tf.func(function(x)
      local tape = tf.GradientTape()
      tape:watch(x)
      local y = inner(x) * 3.0
      tape:stop()
      return tape:gradient(y, x)
    end)
    assert.are.equal(24.0, outer(tf.constant(4.0)):numpy())
    local g = traced_graph(outer, tf.constant(4.0))
    assert.are.equal(2, #nodes_of_type(g, "PartitionedCall"), "the forward and the backward call")
  end)

  it("a tape over the eager call of a function containing a call: side effects run once", function()
    local v = tf.Variable(1.0)
    local inner = tf.func(function(x)
      v:assign_add(1.0)
      return x * v
    end)
    local outer = tf.func(function(x) return inner(x) + x end)
    local x = tf.constant(2.0)
    local tape = tf.GradientTape()
    tape:watch(x)
    local y = outer(x)
    tape:stop()
    assert.are.equal(6.0, y:numpy())
    assert.are.equal(3.0, tape:gradient(y, x):numpy())
    assert.are.equal(2.0, v:numpy(), "the gradient did not run the function again")
  end)

  it("variables read by the callee get their gradient", function()
    local w = tf.Variable(3.0)
    local inner = tf.func(function(x) return x * w end)
    local outer = tf.func(function(x) return inner(x) * 2.0 end)
    local tape = tf.GradientTape()
    local y = outer(tf.constant(5.0))
    tape:stop()
    assert.are.equal(10.0, tape:gradient(y, w):numpy())
  end)

  it("a call of a function holding a tf.cond, under a tape inside the trace and eagerly", function()
    local inner = tf.func(function(x)
      return tf.cond(x > 0, function() return x * x end, function() return -x end)
    end)
    local outer = tf.func(function(x)
      local tape = tf.GradientTape()
      tape:watch(x)
      local y = inner(x) * 2.0
      tape:stop()
      return tape:gradient(y, x)
    end)
    assert.are.equal(12.0, outer(tf.constant(3.0)):numpy())
    assert.are.equal(-2.0, outer(tf.constant(-3.0)):numpy())
    local x = tf.constant(3.0)
    local tape = tf.GradientTape()
    tape:watch(x)
    local y = tf.func(function(a) return inner(a) + a end)(x)
    tape:stop()
    assert.are.equal(7.0, tape:gradient(y, x):numpy())
  end)

  it("a tape over the eager call of a function whose tf.while_loop reads a variable", function()
    local w = tf.Variable(2.0)
    local loop = tf.func(function(x)
      local _, acc = tf.while_loop(function(i) return i < 2 end,
        function(i, acc) return i + 1, acc * w end, { tf.constant(0), x })
      return acc
    end)
    local x = tf.constant(3.0)
    local tape = tf.GradientTape()
    tape:watch(x)
    local z = tf.func(function(a) return loop(a) end)(x)
    tape:stop()
    assert.are.equal(12.0, z:numpy())
    assert.are.equal(4.0, tape:gradient(z, x):numpy())
  end)

  it("a call of a function with an assign and a tf.cond, under a tape inside the trace, runs once", function()
    local v = tf.Variable(1.0)
    local inner = tf.func(function(x)
      v:assign_add(1.0)
      local scale = v:read_value()
      return tf.cond(x > 0, function() return x * scale end, function() return x end)
    end)
    local outer = tf.func(function(x)
      local tape = tf.GradientTape()
      tape:watch(x)
      local y = inner(x)
      tape:stop()
      return tape:gradient(y, x)
    end)
    assert.are.equal(2.0, outer(tf.constant(3.0)):numpy())
    assert.are.equal(2.0, v:numpy())
    assert.are.equal(3.0, outer(tf.constant(3.0)):numpy())
    assert.are.equal(3.0, v:numpy())
  end)

  it("second order through nested calls", function()
    local cube = tf.func(function(x) return x * x * x end)
    local outer = tf.func(function(x) return cube(x) end)
    local x = tf.constant(3.0)
    local tape = tf.GradientTape({ persistent = true })
    tape:watch(x)
    local y = outer(x)
    local d1 = tape:gradient(y, x)
    tape:stop()
    assert.are.equal(27.0, d1:numpy())
    assert.are.equal(18.0, tape:gradient(d1, x):numpy())
  end)
end)
