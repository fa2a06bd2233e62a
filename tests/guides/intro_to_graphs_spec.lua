-- intro_to_graphs_spec.lua — TensorFlow's guide "Introduction to graphs and
-- tf.function" (tensorflow.org/guide/intro_to_graphs), retold in Lua with
-- the values it prints. tf.function is tf.func; keyword arguments are one
-- trailing options table.

local tf = tf or require("moonflow")
local H = require("helpers")
local G = require("guides")

G.init("Introduction to graphs and tf.function", it, pending)

local function repr(x) return H.repr(x) end

-- Lua's print while a tf.func traces (or runs eagerly), captured.
local function printed_by(fn) return H.capture(fn) end

describe("intro_to_graphs guide: Taking advantage of graphs", function()
  it("a tf.func gives the same value as the Lua function: [[12.]]", function()
    -- Define a Lua function.
    local function a_regular_function(x, y, b)
      x = tf.matmul(x, y)
      x = x + b
      return x
    end
    -- `a_function_that_uses_a_graph` is a tf.func (TF's PolymorphicFunction).
    local a_function_that_uses_a_graph = tf.func(a_regular_function)
    -- Make some tensors.
    local x1 = tf.constant({ { 1.0, 2.0 } })
    local y1 = tf.constant({ { 2.0 }, { 3.0 } })
    local b1 = tf.constant(4.0)
    local orig_value = a_regular_function(x1, y1, b1):numpy()
    -- Call a tf.func like a Lua function.
    local tf_function_value = a_function_that_uses_a_graph(x1, y1, b1):numpy()
    assert.are.same(orig_value, tf_function_value)
    assert.are.same({ { 12.0 } }, tf_function_value)
  end)

  it("tf.func applies to the functions it calls: array([[12.]], dtype=float32)", function()
    local function inner_function(x, y, b)
      x = tf.matmul(x, y)
      x = x + b
      return x
    end
    local outer_function = tf.func(function(x)
      local y = tf.constant({ { 2.0 }, { 3.0 } })
      local b = tf.constant(4.0)
      return inner_function(x, y, b)
    end)
    -- The graph holds inner_function's ops as well as outer_function's.
    local result = outer_function(tf.constant({ { 1.0, 2.0 } }))
    assert.are.equal("<tf.Tensor: shape=(1, 1), dtype=float32, numpy=array([[12.]], dtype=float32)>", repr(result))
    local types = H.op_types(outer_function:get_concrete_function(tf.constant({ { 1.0, 2.0 } })))
    local seen = {}
    for _, t in ipairs(types) do seen[t] = true end
    assert.is_true(seen.MatMul and seen.AddV2, table.concat(types, " "))
  end)
end)

describe("intro_to_graphs guide: Converting Python functions to graphs", function()
  local function simple_relu(x)
    if tf.greater(x, 0) then
      return x
    else
      return 0
    end
  end

  it("AutoGraph converts the if on a tensor: First branch, with graph: 1 / Second branch, with graph: 0", function()
    local tf_simple_relu = tf.func(simple_relu)
    assert.are.equal("First branch, with graph: 1", "First branch, with graph: " .. tf_simple_relu(tf.constant(1)):numpy())
    assert.are.equal("Second branch, with graph: 0", "Second branch, with graph: " .. tf_simple_relu(tf.constant(-1)):numpy())
  end)

  -- tf.autograph.to_code shows the converted source: Lua here, where TF
  -- shows Python; the guide says it is not meant to be read closely.
  it("tf.autograph.to_code shows the graph-generating code of simple_relu", function()
    local code = tf.autograph.to_code(simple_relu)
    assert.are.equal("string", type(code))
    assert.is_truthy(code:find("tf__simple_relu", 1, true), code)
    assert.is_truthy(code:find("tf.greater", 1, true), code)
  end)

  -- TF's graph: x (Placeholder), Greater/y (Const), Greater, cond
  -- (StatelessIf on Greater and x), then Identity. TF's cond has a second
  -- output with two more Identity nodes (cond/Identity, cond/Identity_1):
  -- the do_return flag of Python AutoGraph's return rewriting, which
  -- moonflow's Lua rewriting has no need of; its cond returns x's branch
  -- value alone.
  it("the graph itself: x Placeholder, Greater/y Const, Greater, cond StatelessIf, Identity", function()
    local tf_simple_relu = tf.func(simple_relu)
    local gd = tf_simple_relu:get_concrete_function(tf.constant(1)).graph:as_graph_def()
    local nodes = {}
    for _, n in ipairs(gd.node) do nodes[n.name] = n end
    assert.are.equal("Placeholder", nodes.x.op)
    assert.are.equal(tf.int32, nodes.x.attr.dtype)
    assert.are.equal("Const", nodes["Greater/y"].op)
    assert.are.equal("Greater", nodes.Greater.op)
    assert.are.same({ "x", "Greater/y" }, nodes.Greater.input)
    assert.are.equal("StatelessIf", nodes.cond.op)
    assert.are.equal("Greater", nodes.cond.input[1])
    assert.are.equal("x", nodes.cond.input[2])
    assert.are.equal("Identity", nodes.Identity.op)
  end)
end)

describe("intro_to_graphs guide: Polymorphism: one tf.function, many graphs", function()
  it("my_relu makes a graph per input type and reuses it: 5.5, [1. 0.], [3. 0.], then 0.0, [0. 1.] with no new graph", function()
    local my_relu = tf.func(function(x)
      return tf.maximum(0., x)
    end)
    -- my_relu creates new graphs as it observes different input types.
    assert.are.equal("tf.Tensor(5.5, shape=(), dtype=float32)", tostring(my_relu(tf.constant(5.5))))
    assert.are.equal("tf.Tensor([1. 0.], shape=(2,), dtype=float32)", tostring(my_relu({ 1, -1 })))
    assert.are.equal("tf.Tensor([3. 0.], shape=(2,), dtype=float32)", tostring(my_relu(tf.constant({ 3., -3. }))))
    assert.are.equal(3, my_relu:experimental_get_tracing_count())
    -- These two calls do *not* create new graphs.
    assert.are.equal("tf.Tensor(0.0, shape=(), dtype=float32)", tostring(my_relu(tf.constant(-2.5)))) -- Input type matches tf.constant(5.5).
    assert.are.equal("tf.Tensor([0. 1.], shape=(2,), dtype=float32)", tostring(my_relu(tf.constant({ -1., 1. })))) -- Input type matches tf.constant({3., -3.}).
    assert.are.equal(3, my_relu:experimental_get_tracing_count())

    -- There are three concrete functions (one per graph) in my_relu, and
    -- each knows its return type and shape. API.md fixes the text: Lua has
    -- no keyword arguments, so a parameter is POSITIONAL (TF:
    -- POSITIONAL_OR_KEYWORD), and moonflow leaves out TF's "Captures:"
    -- block (these functions capture nothing; TF prints "Captures:\n  None").
    assert.are.equal(table.concat({
      "Input Parameters:",
      "  x (POSITIONAL): TensorSpec(shape=(), dtype=tf.float32, name=None)",
      "Output Type:",
      "  TensorSpec(shape=(), dtype=tf.float32, name=None)",
      "",
      "Input Parameters:",
      "  x (POSITIONAL): List[Literal[1], Literal[-1]]",
      "Output Type:",
      "  TensorSpec(shape=(2,), dtype=tf.float32, name=None)",
      "",
      "Input Parameters:",
      "  x (POSITIONAL): TensorSpec(shape=(2,), dtype=tf.float32, name=None)",
      "Output Type:",
      "  TensorSpec(shape=(2,), dtype=tf.float32, name=None)",
    }, "\n"), (my_relu:pretty_printed_concrete_signatures():gsub("\n+$", "")))
  end)
end)

describe("intro_to_graphs guide: Using tf.function", function()
  -- y_true and y_pred are random (tf.random.uniform): the guide's 34 is
  -- its draw's mean squared difference, computed here in Lua for ours.
  local function draws()
    local y_true = tf.random.uniform({ 5 }, { maxval = 10, dtype = tf.int32 })
    local y_pred = tf.random.uniform({ 5 }, { maxval = 10, dtype = tf.int32 })
    local a, b, sum = y_true:numpy(), y_pred:numpy(), 0
    for i = 1, 5 do sum = sum + (a[i] - b[i]) ^ 2 end
    -- reduce_mean of int32 is integer division, as TF's.
    return y_true, y_pred, math.floor(sum) // 5
  end

  it("Graph execution vs. eager execution: get_MSE gives the same int32 mean in a graph and eagerly", function()
    local get_MSE = tf.func(function(y_true, y_pred)
      local sq_diff = tf.pow(y_true - y_pred, 2)
      return tf.reduce_mean(sq_diff)
    end)
    local y_true, y_pred, expected = draws()
    assert.is_truthy(tostring(y_true):match("^tf%.Tensor%(%[[%d ]+%], shape=%(5,%), dtype=int32%)$"), tostring(y_true))
    local graph_value = get_MSE(y_true, y_pred)
    assert.are.equal(("<tf.Tensor: shape=(), dtype=int32, numpy=%d>"):format(expected), repr(graph_value))
    tf.config.run_functions_eagerly(true)
    local ok, eager_value = pcall(get_MSE, y_true, y_pred)
    -- Don't forget to set it back when you are done.
    tf.config.run_functions_eagerly(false)
    assert.is_true(ok, tostring(eager_value))
    assert.are.equal(repr(graph_value), repr(eager_value))
  end)

  it("print runs while tracing: \"Calculating MSE!\" once in three calls, three times eagerly", function()
    local get_MSE = tf.func(function(y_true, y_pred)
      print("Calculating MSE!")
      local sq_diff = tf.pow(y_true - y_pred, 2)
      return tf.reduce_mean(sq_diff)
    end)
    local y_true, y_pred = draws()
    assert.are.same({ "Calculating MSE!" }, printed_by(function()
      local _ = get_MSE(y_true, y_pred)
      _ = get_MSE(y_true, y_pred)
      _ = get_MSE(y_true, y_pred)
    end))
    -- Now, globally set everything to run eagerly to force eager execution.
    tf.config.run_functions_eagerly(true)
    local ok, lines = pcall(printed_by, function()
      local _ = get_MSE(y_true, y_pred)
      _ = get_MSE(y_true, y_pred)
      _ = get_MSE(y_true, y_pred)
    end)
    tf.config.run_functions_eagerly(false)
    assert.is_true(ok, tostring(lines))
    assert.are.same({ "Calculating MSE!", "Calculating MSE!", "Calculating MSE!" }, lines)
  end)

  -- The page's rendering ran on a GPU, where GatherV2 does not check its
  -- indices, and shows no error; the guide's text and its comment ("All
  -- operations are run during eager execution so an error is raised")
  -- describe TF on CPU, which raises: moonflow does as TF on CPU.
  it("Non-strict execution: an unused tf.gather fails eagerly (InvalidArgumentError), not in a graph", function()
    local function unused_return_eager(x)
      -- Get index 1 will fail when #x == 1
      tf.gather(x, { 1 }) -- unused
      return x
    end
    local err = H.raises("InvalidArgumentError", "indices[0] = 1 is not in [0, 1)", unused_return_eager, tf.constant({ 0.0 }))
    assert.are.equal("InvalidArgumentError: indices[0] = 1 is not in [0, 1) [Op:GatherV2]", tostring(err))

    local unused_return_graph = tf.func(function(x)
      tf.gather(x, { 1 }) -- unused
      return x
    end)
    -- Only needed operations are run during graph execution. The error is not raised.
    assert.are.equal("tf.Tensor([0.], shape=(1,), dtype=float32)", tostring(unused_return_graph(tf.constant({ 0.0 }))))
  end)
end)

describe("intro_to_graphs guide: Seeing the speed-up", function()
  -- The guide times 1000 calls of each (4.1 s eager, 0.8 s graph on its
  -- machine); timings are machine-dependent, so what is checked is that
  -- both compute the same power, and that the graph holds the unrolled loop.
  it("power(x, 100) eagerly and as a graph give the same int32 matrix", function()
    local x = tf.random.uniform({ 10, 10 }, { minval = -1, maxval = 2, dtype = tf.int32 })
    local function power(x, y)
      local result = tf.eye(10, { dtype = tf.int32 })
      for _ = 1, y do
        result = tf.matmul(x, result)
      end
      return result
    end
    local power_as_graph = tf.func(power)
    local eager = power(x, 100)
    local graph = power_as_graph(x, 100)
    assert.are.same(eager:numpy(), graph:numpy())
    local matmuls = 0
    for _, t in ipairs(H.op_types(power_as_graph:get_concrete_function(x, 100))) do
      if t == "MatMul" then matmuls = matmuls + 1 end
    end
    assert.are.equal(100, matmuls)
  end)
end)

describe("intro_to_graphs guide: When is a tf.function tracing?", function()
  it("Tracing! once for tensors of one type; once per new Lua argument", function()
    local a_function_with_python_side_effect = tf.func(function(x)
      print("Tracing!") -- An eager-only side effect.
      return x * x + tf.constant(2)
    end)
    -- This is traced the first time; the second time through, you won't
    -- see the side effect.
    assert.are.same({
      "Tracing!",
      "tf.Tensor(6, shape=(), dtype=int32)",
      "tf.Tensor(11, shape=(), dtype=int32)",
    }, printed_by(function()
      print(a_function_with_python_side_effect(tf.constant(2)))
      print(a_function_with_python_side_effect(tf.constant(3)))
    end))
    -- This retraces each time the Lua argument changes, as a Lua argument
    -- could be an epoch count or other hyperparameter.
    assert.are.same({
      "Tracing!",
      "tf.Tensor(6, shape=(), dtype=int32)",
      "Tracing!",
      "tf.Tensor(11, shape=(), dtype=int32)",
    }, printed_by(function()
      print(a_function_with_python_side_effect(2))
      print(a_function_with_python_side_effect(3))
    end))
    assert.are.equal(3, a_function_with_python_side_effect:experimental_get_tracing_count())
  end)
end)

describe("intro_to_graphs guide: lists", function()
  G.report()
end)
