-- trace_rules_spec.lua — the answers tracing gives through the core's single
-- rules: which values a trace knows while it is built (constant folding's
-- rule, the same the optimiser applies: op.h mf_op_call_fold) and which
-- arguments fit a trace (mf_spec_fits), for the cached call and for a
-- concrete function alike.
local tf = tf or require("moonflow")
local core = require("moonflow.core")

describe("values known while tracing", function()
  it("follow the folding rule's size cap (65536 elements per output)", function()
    local known_small, known_big
    local f = tf.func(function(x)
      local small = tf.fill({ 200, 200 }, 1.0) -- 40,000 elements: computed now
      local big = tf.fill({ 300, 300 }, 1.0)   -- 90,000: left to the run
      known_small = core.known(small) ~= nil
      known_big = core.known(big) ~= nil
      return x + tf.reduce_sum(small) + tf.reduce_sum(big)
    end)
    assert.are.equal(130001.0, f(tf.constant(1.0)):numpy())
    assert.is_true(known_small)
    assert.is_false(known_big)
  end)

  it("are never computed for random ops", function()
    local known
    local f = tf.func(function(x)
      local r = tf.random.uniform({ 3 })
      known = core.known(r) ~= nil
      return x + r
    end)
    f(tf.constant(1.0))
    assert.is_false(known)
  end)
end)

describe("fitting a trace", function()
  it("a symbolic tensor of partly known shape: compatible, not a subtype", function()
    local r = {}
    local f = tf.func(function(x)
      r.compatible = core.spec_matches(x, tf.float32, { 3 }, "compatible")
      r.subtype = core.spec_matches(x, tf.float32, { 3 }, false)
      r.exact_none = core.spec_matches(x, tf.float32, { tf.None }, true)
      r.exact_3 = core.spec_matches(x, tf.float32, { 3 }, true)
      r.other_rank = core.spec_matches(x, tf.float32, { 3, 1 }, "compatible")
      r.other_dtype = core.spec_matches(x, tf.int32, { tf.None }, "compatible")
      return x
    end, { input_signature = { tf.TensorSpec({ tf.None }, tf.float32) } })
    f(tf.constant({ 1, 2, 3 }, tf.float32))
    assert.are.same({ compatible = true, subtype = false, exact_none = true, exact_3 = false,
      other_rank = false, other_dtype = false }, r)
  end)

  it("a concrete function refuses an eager argument of another dtype; another shape runs, as TF", function()
    local double = tf.func(function(a) return a + a end)
    local cf = double:get_concrete_function(tf.TensorSpec({ 3 }, tf.float32))
    -- TF (polymorphic_function_test.py, test_concrete_function_shape_mismatch):
    -- "Calling a function from eager doesn't do any shape checking above
    -- what kernels do while executing."
    assert.are.same({ 2, 4 }, cf(tf.constant({ 1, 2 }, tf.float32)):numpy())
    assert.is_false(pcall(cf, tf.constant({ 1, 2, 3 }, tf.int32)))
    assert.are.same({ 2, 4, 6 }, cf(tf.constant({ 1, 2, 3 }, tf.float32)):numpy())
  end)

  it("the cached call picks the exact trace when there are several", function()
    local f = tf.func(function(a) return a * 2 end)
    f(tf.constant({ 1.0, 2.0 }))
    f(tf.constant({ 1.0, 2.0, 3.0 }))
    assert.are.equal(2, f:experimental_get_tracing_count())
    for _ = 1, 3 do
      assert.are.same({ 2, 4 }, f(tf.constant({ 1.0, 2.0 })):numpy())
      assert.are.same({ 2, 4, 6 }, f(tf.constant({ 1.0, 2.0, 3.0 })):numpy())
    end
    assert.are.equal(2, f:experimental_get_tracing_count())
  end)
end)

describe("arguments and traces held by a tf.func", function()
  it("a table that contains itself is a TypeError naming the cycle", function()
    local f = tf.func(function(x) return 1 end)
    local t = { a = 1 }
    t.self = t
    local ok, err = pcall(f, t)
    assert.is_false(ok)
    assert.are.equal("TypeError", err.type)
    assert.is_truthy(err.message:find("argument 1.self refers back to argument 1", 1, true), err.message)
    local ok2, err2 = pcall(f, _G)
    assert.is_false(ok2)
    assert.are.equal("TypeError", err2.type)
    assert.is_truthy(err2.message:find("refers back to", 1, true), err2.message)
    -- A table met twice without a cycle is no cycle.
    local shared = { 1, 2 }
    assert.are.equal(1, f({ shared, shared }):numpy())
  end)

  it("a method's traces die with their receiver", function()
    local Counter = tf.Module:extend("Counter")
    Counter.step = tf.func(function(self, x) return x + 1 end)
    for _ = 1, 50 do
      local c = Counter()
      c:step(tf.constant(1))
    end
    collectgarbage()
    collectgarbage()
    assert.are.equal(0, #Counter.step:concrete_functions())
    local keep = Counter()
    keep:step(tf.constant(1))
    keep:step(tf.constant(2))
    keep:step(tf.constant({ 1, 2 }))
    assert.are.equal(2, Counter.step:experimental_get_tracing_count(keep))
    collectgarbage()
    assert.are.equal(2, #Counter.step:concrete_functions())
  end)

  it("a retrace's explanation is bounded and built when asked for", function()
    local f = tf.func(function(x) return x end)
    for i = 1, 40 do f(i) end
    local cfs = f:concrete_functions()
    assert.are.equal("first call", cfs[1]:trace_info().reason)
    local why = cfs[40]:trace_info().reason
    assert.are.equal("closest earlier trace #39 (of 39) differs in x: Literal[39] -> Literal[40]", why)
  end)
end)

describe("a tf.func with input_signature called inside another trace", function()
  it("refuses arguments that do not fit, as an eager call does", function()
    local inner = tf.func(function(x) return x * 2 end, { input_signature = { tf.TensorSpec({ 2 }, tf.float32) } })
    local outer = tf.func(function(x) return inner(x) end)
    local ok, err = pcall(outer, tf.constant({ 1, 2 }, tf.int32))
    assert.is_false(ok)
    assert.are.equal("TypeError", err.type)
    assert.is_truthy(err.message:find("Can not cast", 1, true), err.message)
    assert.is_true(tf.executing_eagerly())
    assert.are.same({ 2, 4 }, outer(tf.constant({ 1, 2 }, tf.float32)):numpy())
  end)
end)

describe("binding a call to a tf.func", function()
  it("too many arguments is TF's binding error", function()
    local f = tf.func(function(a, b) return a end)
    local ok, err = pcall(f, 1, 2, 3)
    assert.is_false(ok)
    assert.are.equal("TypeError", err.type)
    assert.is_truthy(err.message:find("too many positional arguments", 1, true), err.message)
    assert.is_truthy(err.message:find("takes 2 positional arguments but 3 were given", 1, true), err.message)
  end)
end)

describe("a concrete function called inside another trace", function()
  it("runs its function on arguments that fit and refuses others with TF's binding error", function()
    local f = tf.func(function(x) return x + 1.0 end)
    local cf = f:get_concrete_function(tf.constant({ 1.0 }))
    local g = tf.func(function(x) return cf(x) * 2.0 end)
    assert.are.same({ 4.0 }, g(tf.constant({ 1.0 })):numpy())
    local h = tf.func(function() return cf(tf.constant({ 1.0, 2.0 })) end)
    local ok, err = pcall(h)
    assert.is_false(ok)
    assert.are.equal("TypeError", err.type)
    assert.is_truthy(err.message:find("Can not cast TensorSpec(shape=(2,)", 1, true), err.message)
    assert.is_truthy(err.message:find("to TensorSpec(shape=(1,)", 1, true), err.message)
    assert.is_true(tf.executing_eagerly())
  end)
end)
