-- map_fn_spec.lua — tensorflow/python/kernel_tests/control_flow/map_fn_test.py
-- (MapFnTest), ported: each value case runs eagerly and inside tf.func (TF's
-- run_in_graph_and_eager_modes). numpy int arrays are int64 in TF's tests,
-- so `nums` is an int64 tensor here; a Python tuple or list is a Lua list.

local tf = tf or require("moonflow")
local T = require("tfhelpers")

local NUMS = { 1, 2, 3, 4, 5, 6 }
local function nums() return tf.constant(NUMS, tf.int64) end

describe("map_fn_test.py", function()
  it("testMap_Simple", function()
    T.eager_and_traced(function(elems)
      return tf.map_fn(function(x) return tf.multiply(tf.add(x, 3), 2) end, elems)
    end, { tf.constant(NUMS) }, function(_, r)
      T.equal({ 8, 10, 12, 14, 16, 18 }, r)
      assert.are.equal(tf.int32, r.dtype)
    end)
  end)

  it("testMapOverScalarErrors", function()
    T.raises("ValueError", "elements in elems must be 1+ dimensional Tensors, not scalars",
      tf.map_fn, function(x) return x end, { 1, 2 })
    T.raises("ValueError", "elems must be a 1+ dimensional Tensor, not a scalar",
      tf.map_fn, function(x) return x end, 1)
    T.raises("ValueError", "elems must be a 1+ dimensional Tensor, not a scalar",
      tf.func(function() return tf.map_fn(function(x) return x end, tf.constant(1)) end))
  end)

  it("testMap_MultiOutputMismatchedDtype: fn's output and dtype differ in structure", function()
    T.raises("TypeError", "two structures don't have the same nested structure", tf.map_fn,
      function(x) return { (x + 3) * 2, -(x + 3) * 2 } end, nums(), { dtype = tf.int64 })
    T.raises("TypeError", "two structures don't have the same nested structure", tf.map_fn,
      function(x) return { (x + 3) * 2, -(x + 3) * 2 } end, nums(), { dtype = { tf.int64, tf.int64, tf.int64 } })
    T.raises("TypeError", "two structures don't have the same nested structure",
      tf.func(function(e) return tf.map_fn(function(x) return { x, x } end, e) end), nums())
  end)

  it("a dtype fn_output_signature does not cast: writing another dtype is an error (TensorArray write)", function()
    T.raises("InvalidArgumentError", "TensorArray dtype is int64 but Op is trying to write dtype float32",
      tf.map_fn, function(x) return tf.cast(x, tf.float32) end, nums())
    T.eager_and_traced(function(e)
      return tf.map_fn(function(x) return tf.cast(x, tf.float32) * 0.5 end, e, { fn_output_signature = tf.float32 })
    end, { nums() }, function(_, r)
      T.equal({ 0.5, 1, 1.5, 2, 2.5, 3 }, r)
      assert.are.equal(tf.float32, r.dtype)
    end)
  end)

  it("testMap_Grad: gradients with respect to a capture and to elems", function()
    local function grads(param, elems)
      local tape = tf.GradientTape()
      tape:watch({ param, elems })
      local y = tf.map_fn(function(x) return tf.multiply(tf.square(x), param) end, elems)
      tape:stop()
      return tape:gradient(y, { param, elems })
    end
    T.eager_and_traced(grads, { tf.constant(2.0), tf.constant({ 1.0, 2.0, 3.0, 4.0, 5.0, 6.0 }) },
      function(_, g)
        T.equal(91.0, g[1])
        T.equal({ 4.0, 8.0, 12.0, 16.0, 20.0, 24.0 }, g[2])
      end)
  end)

  it("back_prop=false: no gradient flows through the results", function()
    T.eager_and_traced(function(x)
      local tape = tf.GradientTape()
      tape:watch(x)
      local y = tf.map_fn(function(e) return e * e end, x, { back_prop = false })
      tape:stop()
      return y, tape:gradient(tf.reduce_sum(y), x)
    end, { tf.constant({ 1.0, 2.0 }) }, function(_, y, g)
      T.equal({ 1, 4 }, y)
      assert.is_nil(g)
    end)
  end)

  it("testMap_MultiInputSingleOutput", function()
    T.eager_and_traced(function(n)
      return tf.map_fn(function(x) return x[1] * x[2][1] + x[2][2] end, { n, { n, -n } }, { dtype = tf.int64 })
    end, { nums() }, function(_, r)
      assert.are.same({ 6 }, r.shape:as_list())
      T.equal({ 0, 2, 6, 12, 20, 30 }, r)
    end)
  end)

  it("testMap_MultiOutput", function()
    T.eager_and_traced(function(n)
      return tf.map_fn(function(x) return { (x + 3) * 2, -(x + 3) * 2 } end, n, { dtype = { tf.int64, tf.int64 } })
    end, { nums() }, function(_, r)
      assert.are.equal(2, #r)
      T.equal({ 8, 10, 12, 14, 16, 18 }, r[1])
      T.equal({ -8, -10, -12, -14, -16, -18 }, r[2])
    end)
  end)

  it("testMap_MultiInputSameStructureOutput", function()
    T.eager_and_traced(function(n)
      return tf.map_fn(function(x) return { x[2][1], { x[2][2], x[1] } } end, { n, { 2 * n, -n } })
    end, { nums() }, function(_, r)
      T.equal({ 2, 4, 6, 8, 10, 12 }, r[1])
      T.equal({ -1, -2, -3, -4, -5, -6 }, r[2][1])
      T.equal(NUMS, r[2][2])
    end)
  end)

  it("dict elems and outputs (a nest with keys)", function()
    T.eager_and_traced(function(a, b)
      return tf.map_fn(function(x) return { s = x.a + x.b, d = x.a - x.b } end, { a = a, b = b },
        { fn_output_signature = { s = tf.float32, d = tf.float32 } })
    end, { tf.constant({ 1.0, 2.0 }), tf.constant({ 10.0, 20.0 }) }, function(_, r)
      T.equal({ 11, 22 }, r.s)
      T.equal({ -9, -18 }, r.d)
    end)
  end)

  it("testMapShape and a TensorSpec signature", function()
    T.eager_and_traced(function(x)
      return tf.map_fn(function(e) return e end, x),
        tf.map_fn(function(e) return tf.reduce_sum(e) end, x, { fn_output_signature = tf.TensorSpec({}, tf.int32) })
    end, { tf.constant({ { 1, 2, 3 }, { 4, 5, 6 } }) }, function(_, y, s)
      assert.are.same({ 2, 3 }, y.shape:as_list())
      T.equal({ { 1, 2, 3 }, { 4, 5, 6 } }, y)
      T.equal({ 6, 15 }, s)
    end)
  end)

  it("testMapEmptyScalar", function()
    T.eager_and_traced(function(e) return tf.map_fn(function() return 1 end, e) end,
      { tf.constant({}, tf.int32) }, function(_, r)
        assert.are.same({ 0 }, r.shape:as_list())
        assert.are.equal(tf.int32, r.dtype)
      end)
  end)

  it("testMapEmptyTensor", function()
    T.eager_and_traced(function(e) return tf.map_fn(function() return tf.zeros({ 3, 2 }) end, e) end,
      { tf.constant({}, tf.float32) }, function(_, r)
        assert.are.same({ 0, 3, 2 }, r.shape:as_list())
      end)
  end)

  it("traced, the graph holds one While op (fn's body once), not n copies", function()
    local f = tf.func(function(e) return tf.map_fn(function(x) return x * x end, e) end)
    local graph = f:get_concrete_function(tf.constant({ 1.0, 2.0, 3.0, 4.0 })).graph
    local loops, muls = 0, 0
    for _, o in ipairs(graph:get_operations()) do
      if o.type == "While" or o.type == "StatelessWhile" then loops = loops + 1 end
      if o.type == "Mul" then muls = muls + 1 end
    end
    assert.are.equal(1, loops)
    assert.are.equal(0, muls)
    T.equal({ 1, 4, 9, 16 }, f(tf.constant({ 1.0, 2.0, 3.0, 4.0 })))
  end)

  it("traced with unknown dimensions (input_signature with tf.None)", function()
    local x = tf.constant({ { 1.0, 2.0 }, { 3.0, 4.0 }, { 5.0, 6.0 } })
    local function double(e) return tf.map_fn(function(r) return r * 2.0 end, e) end
    local rows = tf.func(double, { input_signature = { tf.TensorSpec({ tf.None, 2 }, tf.float32) } })
    local cols = tf.func(double, { input_signature = { tf.TensorSpec({ 3, tf.None }, tf.float32) } })
    T.equal({ { 2, 4 }, { 6, 8 }, { 10, 12 } }, rows(x))
    T.equal({ { 2, 4 }, { 6, 8 }, { 10, 12 } }, cols(x))
    local function grad(e)
      local tape = tf.GradientTape()
      tape:watch(e)
      local r = tf.map_fn(function(row) return row * 2.0 end, e,
        { fn_output_signature = tf.TensorSpec({ 2 }, tf.float32) })
      tape:stop()
      return tape:gradient(r, e)
    end
    T.equal({ { 2, 2 }, { 2, 2 }, { 2, 2 } },
      tf.func(grad, { input_signature = { tf.TensorSpec({ tf.None, 2 }, tf.float32) } })(x))
    T.raises("ValueError", "a gradient needs the static shape of fn's output", tf.func(function(e)
      local tape = tf.GradientTape()
      tape:watch(e)
      local r = double(e)
      tape:stop()
      return tape:gradient(r, e)
    end, { input_signature = { tf.TensorSpec({ 3, tf.None }, tf.float32) } }), x)
  end)

  it("errors: an empty nest, dimension 0 mismatch, a non-function fn, unknown options", function()
    local id = function(x) return x end
    T.raises("ValueError", "elems must be a Tensor or (possibly nested) sequence of Tensors", tf.map_fn, id, {})
    T.raises("ValueError", "Dimensions 2 and 3 are not compatible", tf.map_fn, id,
      { tf.constant({ 1, 2 }), tf.constant({ 1, 2, 3 }) })
    T.raises("TypeError", "maps dense tensors only", tf.map_fn, id, tf.ragged.constant({ { 1, 2 }, { 3 } }))
    T.raises("TypeError", "fn_output_signature must be a dtype, a tf.TensorSpec or a nest of them", tf.map_fn, id,
      tf.constant({ 1 }), { fn_output_signature = tf.RaggedTensorSpec({ tf.None }, tf.int32) })
    T.raises("TypeError", "fn must be callable", tf.map_fn, 1, tf.constant({ 1 }))
    T.raises("TypeError", "unexpected keyword argument 'bogus'", tf.map_fn, id, tf.constant({ 1 }), { bogus = 1 })
    T.raises("TypeError", "back_prop must be a boolean", tf.map_fn, id, tf.constant({ 1 }), { back_prop = 1 })
    T.equal({ 1 }, tf.map_fn(id, tf.constant({ 1 }), { parallel_iterations = 1, back_prop = false,
      swap_memory = true, infer_shape = false, name = "m" }))
  end)

  it("tf.vectorized_map gives map_fn's values (TF's fallback_to_while_loop)", function()
    T.eager_and_traced(function(x)
      return tf.vectorized_map(function(e) return tf.reduce_sum(e * e) end, x)
    end, { tf.constant({ { 1.0, 2.0 }, { 3.0, 4.0 } }) }, function(_, r) T.equal({ 5, 25 }, r) end)
    T.raises("TypeError", "unexpected keyword argument", tf.vectorized_map, function(x) return x end,
      tf.constant({ 1 }), { dtype = tf.int32 })
  end)
end)
