-- func_spec.lua — tf.func: every tracing example of the seed documents
-- (../shared/seeds/) that needs neither gradients nor AutoGraph, retold in
-- Lua, one test per example: which calls trace, what Lua print shows and
-- when, results, signatures, graph op types, errors and their texts.

local tf = tf or require("moonflow")

local helpers = require("helpers")
local capture = helpers.capture
local repr = helpers.repr
local op_types = helpers.op_types

-- A call that must raise a moonflow error object of type `kind`.
local function expect_error(kind, fn, ...) return helpers.raises(kind, nil, fn, ...) end

describe("guide: basics", function()
  it("a tf.func is called like the Lua function (add of two ones)", function()
    local add = tf.func(function(a, b) return a + b end)
    assert.are.equal("<tf.Tensor: shape=(2, 2), dtype=float32, numpy=\narray([[2., 2.],\n       [2., 2.]], dtype=float32)>",
      repr(add(tf.ones({ 2, 2 }), tf.ones({ 2, 2 }))))
  end)

  it("tf.funcs compose with eager code (dense_layer)", function()
    local add = tf.func(function(a, b) return a + b end)
    local function dense_layer(x, w, b) return add(tf.matmul(x, w), b) end
    assert.are.equal("<tf.Tensor: shape=(3, 2), dtype=float32, numpy=\narray([[3., 3.],\n       [3., 3.],\n       [3., 3.]], dtype=float32)>",
      repr(dense_layer(tf.ones({ 3, 2 }), tf.ones({ 2, 2 }), tf.ones({ 2 }))))
  end)
end)

describe("guide: tracing", function()
  local double
  before_each(function()
    double = tf.func(function(a)
      print("Tracing with", a)
      return a + a
    end)
  end)

  it("traces once per dtype and prints only while tracing", function()
    local lines = capture(function()
      print(double(tf.constant(1)))
      print(double(tf.constant(1.1)))
      print(double(tf.constant("a")))
      print(double(tf.constant("b")))
    end)
    assert.are.same({
      'Tracing with\tTensor("a:0", shape=(), dtype=int32)',
      "tf.Tensor(2, shape=(), dtype=int32)",
      'Tracing with\tTensor("a:0", shape=(), dtype=float32)',
      "tf.Tensor(2.2, shape=(), dtype=float32)",
      'Tracing with\tTensor("a:0", shape=(), dtype=string)',
      "tf.Tensor(b'aa', shape=(), dtype=string)",
      "tf.Tensor(b'bb', shape=(), dtype=string)",
    }, lines)
    assert.are.equal(3, double:experimental_get_tracing_count())
    assert.are.equal("double", double.name)
  end)

  it("pretty_printed_concrete_signatures lists every trace", function()
    capture(function()
      double(tf.constant(1)); double(tf.constant(1.1)); double(tf.constant("a"))
    end)
    local blocks = {}
    for _, dt in ipairs({ "int32", "float32", "string" }) do
      blocks[#blocks + 1] = ("Input Parameters:\n  a (POSITIONAL): TensorSpec(shape=(), dtype=tf.%s, name=None)\n"
        .. "Output Type:\n  TensorSpec(shape=(), dtype=tf.%s, name=None)"):format(dt, dt)
    end
    assert.are.equal(table.concat(blocks, "\n\n"), double:pretty_printed_concrete_signatures())
  end)
end)

describe("guide: controlling retracing", function()
  it("input_signature: one trace, binding errors with TF's text", function()
    local next_collatz = tf.func(function(x)
      print("Tracing with", x)
      return tf.where(tf.equal(x % 2, 0), x // 2, 3 * x + 1)
    end, { input_signature = { tf.TensorSpec({ tf.None }, tf.int32) } })
    local lines = capture(function() print(next_collatz(tf.constant({ 1, 2 }))) end)
    assert.are.same({ 'Tracing with\tTensor("x:0", shape=(None,), dtype=int32)',
      "tf.Tensor([4 1], shape=(2,), dtype=int32)" }, lines)
    local err = expect_error("TypeError", next_collatz, tf.constant({ { 1, 2 }, { 3, 4 } }))
    assert.are.equal("Binding inputs to tf.func failed due to `Can not cast TensorSpec(shape=(2, 2), "
      .. "dtype=tf.int32, name=None) to TensorSpec(shape=(None,), dtype=tf.int32, name=None)`. Received "
      .. "args: (<tf.Tensor: shape=(2, 2), dtype=int32, numpy=\narray([[1, 2],\n       [3, 4]], dtype=int32)>,) "
      .. "for signature: (x: TensorSpec(shape=(None,), dtype=tf.int32, name=None)).", err.message)
    err = expect_error("TypeError", next_collatz, tf.constant({ 1.0, 2.0 }))
    assert.truthy(err.message:find("`Can not cast TensorSpec(shape=(2,), dtype=tf.float32, name=None) to "
      .. "TensorSpec(shape=(None,), dtype=tf.int32, name=None)`", 1, true))
    assert.are.equal(1, next_collatz:experimental_get_tracing_count())
  end)

  it("a None dimension is a wildcard: no retrace", function()
    local g = tf.func(function(x) print("Tracing with", x) return x end,
      { input_signature = { tf.TensorSpec({ tf.None }, tf.int32) } })
    local lines = capture(function()
      print(g(tf.constant({ 1, 2, 3 })))
      print(g(tf.constant({ 1, 2, 3, 4, 5 })))
    end)
    assert.are.same({ 'Tracing with\tTensor("x:0", shape=(None,), dtype=int32)',
      "tf.Tensor([1 2 3], shape=(3,), dtype=int32)", "tf.Tensor([1 2 3 4 5], shape=(5,), dtype=int32)" }, lines)
  end)

  it("reduce_retracing generalises to the common supertype", function()
    local g = tf.func{ reduce_retracing = true }(function(x) print("Tracing with", x) return x end)
    local lines = capture(function()
      print(g(tf.constant({ 1, 2, 3 })))
      print(g(tf.constant({ 1, 2, 3, 4, 5 })))
      print(g(tf.constant({ 1, 2, 3, 4, 5, 6, 7 })))
      print(g(tf.constant({ 1, 2, 3, 4, 5, 6, 7, 8, 9 })))
    end)
    assert.are.same({
      'Tracing with\tTensor("x:0", shape=(3,), dtype=int32)', "tf.Tensor([1 2 3], shape=(3,), dtype=int32)",
      'Tracing with\tTensor("x:0", shape=(None,), dtype=int32)', "tf.Tensor([1 2 3 4 5], shape=(5,), dtype=int32)",
      "tf.Tensor([1 2 3 4 5 6 7], shape=(7,), dtype=int32)", "tf.Tensor([1 2 3 4 5 6 7 8 9], shape=(9,), dtype=int32)",
    }, lines)
    assert.are.equal(2, g:experimental_get_tracing_count())
  end)

  it("a rank change relaxes to an unknown rank; dtype changes never relax", function()
    local g = tf.func{ reduce_retracing = true }(function(x) return x end)
    g(tf.constant({ 1, 2 }))
    g(tf.constant({ { 1, 2 } }))
    local sigs = g:pretty_printed_concrete_signatures()
    assert.truthy(sigs:find("TensorSpec(shape=<unknown>, dtype=tf.int32, name=None)", 1, true))
    g(tf.constant({ 1.0 }))
    assert.are.equal(3, g:experimental_get_tracing_count())
  end)

  it("Lua values retrace per value; tensors reuse the trace (train(num_steps))", function()
    local train = tf.func(function(num_steps)
      print("Tracing with num_steps = ", num_steps)
      tf.print("Executing with num_steps = ", num_steps)
    end)
    local lines = capture(function()
      train(10)
      train(20)
      train(tf.constant(10))
      train(tf.constant(20))
    end)
    assert.are.same({
      "Tracing with num_steps = \t10", "Executing with num_steps =  10",
      "Tracing with num_steps = \t20", "Executing with num_steps =  20",
      'Tracing with num_steps = \tTensor("num_steps:0", shape=(), dtype=int32)',
      "Executing with num_steps =  10", "Executing with num_steps =  20",
    }, lines)
  end)

  it("wrapping the same function twice traces twice (tf.func(f)())", function()
    local function f()
      print("Tracing!")
      tf.print("Executing")
    end
    local lines = capture(function()
      tf.func(f)()
      tf.func(f)()
    end)
    assert.are.same({ "Tracing!", "Executing", "Tracing!", "Executing" }, lines)
  end)

  it("objects are typed by identity; __tf_tracing_type types them by value (fruits)", function()
    local get_mixed_flavor = tf.func(function(fruit_a, fruit_b)
      return fruit_a.flavor + fruit_b.flavor
    end)
    local Apple = { __index = { flavor = tf.constant({ 1, 2 }) } }
    local Mango = { __index = { flavor = tf.constant({ 3, 4 }) } }
    get_mixed_flavor(setmetatable({}, Apple), setmetatable({}, Mango))
    get_mixed_flavor(setmetatable({}, Apple), setmetatable({}, Mango))
    assert.are.equal(2, get_mixed_flavor:experimental_get_tracing_count())

    local AppleT = { __index = { flavor = tf.constant({ 1, 2 }) }, __tf_tracing_type = function() return "Apple" end }
    local MangoT = { __index = { flavor = tf.constant({ 3, 4 }) }, __tf_tracing_type = function() return "Mango" end }
    local g = tf.func(function(a, b) return a.flavor + b.flavor end)
    g(setmetatable({}, AppleT), setmetatable({}, MangoT))
    local r = g(setmetatable({}, AppleT), setmetatable({}, MangoT))
    assert.are.equal(1, g:experimental_get_tracing_count())
    assert.are.equal("<tf.Tensor: shape=(2,), dtype=int32, numpy=array([4, 6], dtype=int32)>", repr(r))
  end)

  it("plain tables are typed by structure: order matters for lists, not for keys", function()
    local f = tf.func(function(t) return t[1] end)
    f({ 1, 2 }); f({ 1, 2 })
    assert.are.equal(1, f:experimental_get_tracing_count())
    f({ 2, 1 })
    assert.are.equal(2, f:experimental_get_tracing_count())
    local g = tf.func(function(t) return t.a end)
    g({ a = 1, b = 2 }); g({ b = 2, a = 1 })
    assert.are.equal(1, g:experimental_get_tracing_count())
  end)

  it("variables are typed by dtype, shape and alias pattern", function()
    local f = tf.func(function(a, b) return a:read_value() + (b and b:read_value() or 0) end)
    local v1, v2 = tf.Variable(1.0), tf.Variable(2.0)
    assert.are.equal(1.0, f(v1):numpy())
    assert.are.equal(2.0, f(v2):numpy())
    assert.are.equal(1, f:experimental_get_tracing_count())
    assert.are.equal(2.0, f(v1, v1):numpy())
    assert.are.equal(3.0, f(v1, v2):numpy())
    assert.are.equal(3, f:experimental_get_tracing_count())
  end)

  it("warns after 5 traces in quick succession", function()
    local f = tf.func(function(x) return x end)
    local saved = io.stderr
    local text = {}
    io.stderr = { write = function(self, s) text[#text + 1] = s return self end }
    local ok, err = pcall(function()
      for i = 1, 5 do f(i) end
    end)
    io.stderr = saved
    assert(ok, err)
    local warning = table.concat(text)
    assert.truthy(warning:find("^WARNING: 5 out of the last 5 calls to f triggered tf.func retracing%."))
  end)

  it("explains every retrace when asked", function()
    local f = tf.func(function(x) return x end)
    local saved = io.stderr
    local text = {}
    io.stderr = { write = function(self, s) text[#text + 1] = s return self end }
    tf.config.explain_retracing(true)
    local ok, err = pcall(function()
      f(tf.constant(1))
      f(tf.constant(1.5))
    end)
    tf.config.explain_retracing(false)
    io.stderr = saved
    assert(ok, err)
    local msg = table.concat(text)
    assert.truthy(msg:find("tf.func 'f' retraced (trace #2)", 1, true))
    assert.truthy(msg:find("tf.func 'f' retraced (trace #2): trace #1 differs in x: dtype int32 -> float32",
      1, true), msg)
  end)
end)

describe("guide: concrete functions", function()
  local double
  before_each(function()
    double = tf.func(function(a) return a + a end)
  end)

  it("get_concrete_function from a tensor or a TensorSpec; printing; function_type", function()
    local double_strings = double:get_concrete_function(tf.constant("a"))
    assert.are.equal("tf.Tensor(b'aa', shape=(), dtype=string)", tostring(double_strings(tf.constant("a"))))
    assert.are.equal("tf.Tensor(b'bb', shape=(), dtype=string)", tostring(double_strings(tf.constant("b"))))
    local from_spec = double:get_concrete_function(tf.TensorSpec({}, tf.string))
    assert.are.equal("tf.Tensor(b'cc', shape=(), dtype=string)", tostring(from_spec(tf.constant("c"))))
    assert.are.equal(1, double:experimental_get_tracing_count())
    assert.are.equal("ConcreteFunction Input Parameters:\n  a (POSITIONAL): TensorSpec(shape=(), dtype=tf.string, name=None)\n"
      .. "Output Type:\n  TensorSpec(shape=(), dtype=tf.string, name=None)", tostring(double_strings))
    assert.are.equal("(a: TensorSpec(shape=(), dtype=tf.string, name=None)) -> TensorSpec(shape=(), dtype=tf.string, name=None)",
      tostring(double_strings.function_type))
  end)

  it("a concrete function rejects other dtypes with InvalidArgumentError", function()
    local double_strings = double:get_concrete_function(tf.constant("a"))
    local err = expect_error("InvalidArgumentError", double_strings, tf.constant(1))
    assert.truthy(err.message:find("as input #0(zero-based) was expected to be a string tensor but is a int32 tensor", 1, true))
  end)

  it("Lua values stay in the signature as literals (square = pow with b=2)", function()
    local pow = tf.func(function(a, b) return a ^ b end)
    local square = pow:get_concrete_function(tf.TensorSpec(nil, tf.float32), 2)
    assert.are.equal("ConcreteFunction Input Parameters:\n"
      .. "  a (POSITIONAL): TensorSpec(shape=<unknown>, dtype=tf.float32, name=None)\n"
      .. "  b (POSITIONAL): Literal[2]\nOutput Type:\n  TensorSpec(shape=<unknown>, dtype=tf.float32, name=None)",
      tostring(square))
    assert.are.equal(100.0, square(tf.constant(10.0)):numpy())
    local err = expect_error("TypeError", square, tf.constant(10.0), 3)
    assert.truthy(err.message:find("Binding inputs to tf.func failed due to `Can not cast 3 to Literal[2]`", 1, true))
  end)

  it("graph: as_graph_def lists inputs -> node", function()
    local double_strings = double:get_concrete_function(tf.constant("a"))
    local lines = {}
    for _, node in ipairs(double_strings.graph:as_graph_def().node) do
      lines[#lines + 1] = ("{%s} -> %s"):format(table.concat(node.input, ", "), node.name)
    end
    assert.are.same({ "{} -> a", "{a, a} -> add", "{add} -> Identity" }, lines)
  end)
end)

describe("seed 001: tracing mechanics", function()
  it("dynamic_resize: retrace on shape change and on a Lua value becoming a tensor", function()
    local dynamic_resize = tf.func(function(x, new_height)
      print(("Tracing dynamic_resize with x shape: %s, new_height: %s"):format(tostring(x.shape), tostring(new_height)))
      tf.print("Executing graph for shape:", tf.shape(x), "and height:", new_height)
      local resized = tf.image.resize(x, { new_height, tf.shape(x)[1] })
      return tf.reduce_sum(resized)
    end)
    local img1 = tf.random.normal({ 1, 100, 100, 3 })
    local lines = capture(function()
      dynamic_resize(img1, 50)
      dynamic_resize(tf.random.normal({ 1, 100, 100, 3 }), 50)
      dynamic_resize(tf.random.normal({ 1, 120, 120, 3 }), 50)
      dynamic_resize(img1, tf.constant(60))
    end)
    assert.are.same({
      "Tracing dynamic_resize with x shape: (1, 100, 100, 3), new_height: 50",
      "Executing graph for shape: [1 100 100 3] and height: 50",
      "Executing graph for shape: [1 100 100 3] and height: 50",
      "Tracing dynamic_resize with x shape: (1, 120, 120, 3), new_height: 50",
      "Executing graph for shape: [1 120 120 3] and height: 50",
      'Tracing dynamic_resize with x shape: (1, 100, 100, 3), new_height: Tensor("new_height:0", shape=(), dtype=int32)',
      "Executing graph for shape: [1 100 100 3] and height: 60",
    }, lines)
    assert.are.equal(3, dynamic_resize:experimental_get_tracing_count())
  end)

  it("stable_resize: an input_signature with None dimensions reuses one graph", function()
    local stable_resize = tf.func(function(x, new_height)
      print(("Tracing stable_resize with spec: %s, %s"):format(tostring(x.shape), tostring(new_height.shape)))
      tf.print("Executing stable graph for shape:", tf.shape(x), "and height:", new_height)
      local new_width = tf.shape(x)[2]
      return tf.reduce_sum(tf.image.resize(x, { new_height, new_width }))
    end, { input_signature = { tf.TensorSpec({ tf.None, tf.None, tf.None, 3 }, tf.float32),
      tf.TensorSpec({}, tf.int32) } })
    local lines = capture(function()
      stable_resize(tf.random.normal({ 1, 100, 120, 3 }), tf.constant(50))
      stable_resize(tf.random.normal({ 2, 80, 90, 3 }), tf.constant(40))
    end)
    assert.are.same({
      "Tracing stable_resize with spec: (None, None, None, 3), ()",
      "Executing stable graph for shape: [1 100 120 3] and height: 50",
      "Executing stable graph for shape: [2 80 90 3] and height: 40",
    }, lines)
    expect_error("TypeError", stable_resize, tf.random.normal({ 1, 100, 120, 3 }), tf.constant(50.0))
  end)

  it("simple_computation: operations, inputs, outputs, captures, variables", function()
    local simple_computation = tf.func(function(a, b)
      local c = tf.matmul(a, b)
      local d = tf.add(c, 1.0)
      return tf.nn.relu(d)
    end)
    local cf = simple_computation:get_concrete_function(tf.TensorSpec({ 2, 2 }, tf.float32),
      tf.TensorSpec({ 2, 2 }, tf.float32))
    local g = cf.graph
    assert.are.same({}, g.captures)
    assert.are.same({}, g.variables)
    local ops = {}
    for _, op in ipairs(g:get_operations()) do ops[#ops + 1] = op.name .. " (type: " .. op.type .. ")" end
    assert.are.same({ "a (type: Placeholder)", "b (type: Placeholder)", "MatMul (type: MatMul)",
      "Add/y (type: Const)", "Add (type: AddV2)", "Relu (type: Relu)", "Identity (type: Identity)" }, ops)
    local ins = {}
    for i, t in ipairs(g.inputs) do ins[i] = repr(t) end
    assert.are.same({ "<tf.Tensor 'a:0' shape=(2, 2) dtype=float32>", "<tf.Tensor 'b:0' shape=(2, 2) dtype=float32>" }, ins)
    assert.are.equal("<tf.Tensor 'Identity:0' shape=(2, 2) dtype=float32>", repr(g.outputs[1]))
  end)

  it("state_example: Lua values are captured at trace time, variables by reference", function()
    local external_lua_var = 10
    local external_tf_var = tf.Variable(10, { dtype = tf.int32 })
    local state_example = tf.func(function()
      local result_lua = external_lua_var * 2
      tf.print("Lua var based result (trace time value):", result_lua)
      external_tf_var:assign_add(1)
      tf.print("TF Variable current value:", external_tf_var)
    end)
    local lines = capture(function()
      state_example()
      external_lua_var = 100
      state_example()
      state_example()
    end)
    assert.are.same({
      "Lua var based result (trace time value): 20", "TF Variable current value: 11",
      "Lua var based result (trace time value): 20", "TF Variable current value: 12",
      "Lua var based result (trace time value): 20", "TF Variable current value: 13",
    }, lines)
    assert.are.equal(100, external_lua_var)
    assert.are.equal(13, external_tf_var:numpy())
    local cf = state_example:get_concrete_function()
    assert.are.equal(1, #cf.graph.variables)
    assert.are.equal(external_tf_var, cf.graph.variables[1])
    local types = op_types(cf)
    local assign, read
    for i, t in ipairs(types) do
      if t == "AssignAddVariableOp" then assign = assign or i end
      if t == "ReadVariableOp" then read = read or i end
    end
    assert.truthy(assign and read and assign < read, "the read must follow the write")
  end)
end)

describe("seed 000: variables and input signatures", function()
  it("example 1: pass a variable's value() to a scalar signature", function()
    local simple_function = tf.func(function(x) return x + 2.0 end,
      { input_signature = { tf.TensorSpec({}, tf.float32) } })
    local my_var = tf.Variable(1.0, { dtype = tf.float32 })
    assert.are.equal("Result: tf.Tensor(3.0, shape=(), dtype=float32)", "Result: " .. tostring(simple_function(my_var:value())))
    my_var:assign(3.0)
    assert.are.equal("tf.Tensor(5.0, shape=(), dtype=float32)", tostring(simple_function(my_var:value())))
  end)

  it("example 2: two signature entries, values follow the variables", function()
    local another_function = tf.func(function(x, factor) return x * tf.cast(factor, tf.float32) end,
      { input_signature = { tf.TensorSpec({ 2 }, tf.float32), tf.TensorSpec({}, tf.int32) } })
    local my_var = tf.Variable({ 1.0, 2.0 }, { dtype = tf.float32 })
    local my_factor = tf.Variable(2, { dtype = tf.int32 })
    assert.are.same({ 2.0, 4.0 }, another_function(my_var:value(), my_factor:value()):numpy())
    my_var:assign({ 3.0, 4.0 })
    my_factor:assign(3)
    assert.are.same({ 9.0, 12.0 }, another_function(my_var:value(), my_factor:value()):numpy())
    assert.are.equal(1, another_function:experimental_get_tracing_count())
  end)

  it("example 3: a method tf.func on a tf.Module; self is outside the signature", function()
    local MyModel = tf.Module:extend("MyModel")
    function MyModel:init() self.my_var = tf.Variable(tf.random.normal({ 10 }), { dtype = tf.float32 }) end
    MyModel.forward = tf.func(function(self, x) return x + self.my_var end,
      { input_signature = { tf.TensorSpec({ 10 }, tf.float32) } })
    local model = MyModel()
    local input = tf.random.normal({ 10 }, { dtype = tf.float32 })
    local r1 = model:forward(input)
    assert.are.same((input + model.my_var):numpy(), r1:numpy())
    model.my_var:assign(tf.random.normal({ 10 }, { dtype = tf.float32 }))
    local r2 = model:forward(input)
    assert.are.same((input + model.my_var):numpy(), r2:numpy())
    assert.are_not.same(r1:numpy(), r2:numpy())
    assert.are.equal(1, MyModel.forward:experimental_get_tracing_count())
    assert.are.same({ model.my_var }, model:trainable_variables())
  end)
end)

describe("seed 002: sharing variables", function()
  it("example 3: a variable passed as an argument is shared by reference", function()
    local shared_variable = tf.Variable(0.0)
    local function_a = tf.func(function(shared_var)
      shared_var:assign_add(1.0)
      return shared_var:read_value()
    end)
    local function_b = tf.func(function(shared_var) return shared_var:read_value() end)
    local result_a = function_a(shared_variable)
    local result_b = function_b(shared_variable)
    assert.are.equal("Result from function_a: 1.0, Result from function_b: 1.0",
      ("Result from function_a: %s, Result from function_b: %s"):format(result_a:numpy(), result_b:numpy()))
    function_a(shared_variable)
    assert.are.equal(2.0, shared_variable:numpy())
  end)
end)

describe("seed 004: symbolic tensors, signatures, resources", function()
  it("tf_cube: print shows a symbolic tensor, only when tracing", function()
    local tf_cube = tf.func(function(x)
      print("x =", x)
      return x ^ 3
    end)
    local lines = capture(function()
      assert.are.equal("<tf.Tensor: shape=(), dtype=float32, numpy=8.0>", repr(tf_cube(tf.constant(2.0))))
      tf_cube(tf.constant(3.0))
      tf_cube(tf.constant(4.0))
      tf_cube(2)
      tf_cube(3)
      tf_cube(tf.constant({ { 1.0, 2.0 } }))
      tf_cube(tf.constant({ { 3.0, 4.0 }, { 5.0, 6.0 } }))
      tf_cube(tf.constant({ { 7.0, 8.0 }, { 9.0, 10.0 } }))
    end)
    -- As TensorFlow's guide (which wins over the book): without
    -- reduce_retracing, a new shape traces with that exact shape.
    assert.are.same({
      'x =\tTensor("x:0", shape=(), dtype=float32)',
      "x =\t2", "x =\t3",
      'x =\tTensor("x:0", shape=(1, 2), dtype=float32)',
      'x =\tTensor("x:0", shape=(2, 2), dtype=float32)',
    }, lines)
  end)

  it("shrink: a [None, 28, 28] signature accepts any batch and rejects other shapes", function()
    local shrink = tf.func(function(images) return images[":, ::2, ::2"] end,
      { input_signature = { tf.TensorSpec({ tf.None, 28, 28 }, tf.float32) } })
    assert.are.equal("(100, 14, 14)", tostring(shrink(tf.random.uniform({ 100, 28, 28 })).shape))
    assert.are.equal("(50, 14, 14)", tostring(shrink(tf.random.uniform({ 50, 28, 28 })).shape))
    assert.are.equal(1, shrink:experimental_get_tracing_count())
    expect_error("TypeError", shrink, tf.random.uniform({ 2, 2, 2 }))
  end)

  it("add_10: a numeric for loop is unrolled into 10 adds", function()
    local add_10 = tf.func(function(x)
      for _ = 1, 10 do x = x + 1 end
      return x
    end)
    assert.are.equal(10, add_10(tf.constant(0)):numpy())
    local types = op_types(add_10:get_concrete_function(tf.constant(0)))
    local adds = 0
    for _, t in ipairs(types) do if t == "AddV2" then adds = adds + 1 end end
    assert.are.equal(10, adds)
    local names = {}
    for _, op in ipairs(add_10:get_concrete_function(tf.constant(0)).graph:get_operations()) do
      if op.type == "AddV2" then names[#names + 1] = op.name end
    end
    assert.are.equal("add", names[1])
    assert.are.equal("add_9", names[10])
  end)

  it("resources are passed by reference: assign inside a tf.func changes the caller's variable", function()
    local counter = tf.Variable(0)
    local increment = tf.func(function(c, by) c:assign_add(by or 1) end)
    increment(counter)
    increment(counter)
    assert.are.equal(2, counter:numpy())
    increment(counter, 5)
    assert.are.equal(7, counter:numpy())
  end)
end)

describe("guide: limitations and known issues", function()
  it("Lua side effects run only while tracing; tf.print on every call", function()
    local f = tf.func(function(x)
      print("Traced with", x)
      tf.print("Executed with", x)
    end)
    local lines = capture(function() f(1); f(1); f(2) end)
    assert.are.same({ "Traced with\t1", "Executed with 1", "Executed with 1", "Traced with\t2", "Executed with 2" }, lines)
  end)

  it("tf.lua_function runs Lua at every graph run", function()
    local tf_wrapper = tf.func(function(x, y)
      print("Tracing.")
      return tf.lua_function(function(a, b)
        print("Executing eagerly.")
        return a + b
      end, { x, y }, tf.float32)
    end)
    local result
    local lines = capture(function()
      result = tf_wrapper(tf.constant(1.0), tf.constant(2.0)):numpy()
      tf_wrapper(tf.constant(1.0), tf.constant(2.0))
    end)
    assert.are.equal(3.0, result)
    assert.are.same({ "Tracing.", "Executing eagerly.", "Executing eagerly." }, lines)
  end)

  it("appending to a Lua table happens once", function()
    local external_list = {}
    local side_effect = tf.func(function(x)
      print("Lua side effect")
      external_list[#external_list + 1] = x
    end)
    capture(function() side_effect(1); side_effect(1); side_effect(1) end)
    assert.are.equal(1, #external_list)
  end)

  it("a Lua counter guarding assign_add is captured: v increases every call", function()
    local Model = tf.Module:extend("Model")
    function Model:init() self.v = tf.Variable(0); self.counter = 0 end
    Model.__call = tf.func(function(self)
      if self.counter == 0 then
        self.counter = self.counter + 1
        self.v:assign_add(1)
      end
      return self.v:read_value()
    end)
    local m = Model()
    assert.are.same({ 1, 2, 3 }, { m():numpy(), m():numpy(), m():numpy() })
  end)

  it("tf.init_scope lifts the update out of the graph: 1, 1, 1", function()
    local Model = tf.Module:extend("Model")
    function Model:init() self.v = tf.Variable(0); self.counter = 0 end
    Model.__call = tf.func(function(self)
      if self.counter == 0 then
        tf.init_scope(function()
          self.counter = self.counter + 1
          self.v:assign_add(1)
        end)
      end
      return self.v:read_value()
    end)
    local m = Model()
    assert.are.same({ 1, 1, 1 }, { m():numpy(), m():numpy(), m():numpy() })
  end)

  it("a Lua iterator is consumed once, at trace time", function()
    local buggy_consume_next = tf.func(function(iterator) tf.print("Value:", iterator()) end)
    local values, i = { 1, 2, 3 }, 0
    local iterator = function() i = i + 1 return values[i] end
    local lines = capture(function()
      buggy_consume_next(iterator); buggy_consume_next(iterator); buggy_consume_next(iterator)
    end)
    assert.are.same({ "Value: 1", "Value: 1", "Value: 1" }, lines)
  end)

  it("leaked tensors: no value, and using them in another trace is out of scope", function()
    local x
    local leaky_function = tf.func(function(a)
      x = a + 1
      return a + 2
    end)
    assert.are.equal(3, leaky_function(tf.constant(1)):numpy())
    local err = expect_error("TypeError", function() return x:numpy() end)
    assert.truthy(err.message:find("symbolic tensor", 1, true))
    local captures_leaked_tensor = tf.func(function(b)
      b = b + x
      return b
    end)
    err = expect_error("TypeError", captures_leaked_tensor, tf.constant(2))
    assert.truthy(err.message:find("^<tf.Tensor 'add:0' shape=%(%) dtype=int32> is out of scope and cannot be used here%. Use return values"))
    assert.truthy(err.line, "the error carries the user's line")
  end)

  it("unbounded recursion while tracing is a clear error", function()
    local recursive_fn
    recursive_fn = tf.func(function(n) return recursive_fn(n - 1) end)
    local err = expect_error("RecursionError", recursive_fn, tf.constant(5))
    assert.truthy(err.message:find("recursive tf.funcs are not supported", 1, true))
  end)

  it("recursion on Lua values terminates: one trace per level", function()
    local recursive_fn
    local traces = 0
    recursive_fn = tf.func(function(n)
      traces = traces + 1
      if n > 0 then return recursive_fn(n - 1) end
      return 1
    end)
    assert.are.equal("<tf.Tensor: shape=(), dtype=int32, numpy=1>", repr(recursive_fn(5)))
    assert.are.equal(6, traces)
  end)

  it("global and upvalue Lua values are frozen at trace time; variables are not", function()
    local foo = 1
    local buggy_add = tf.func(function() return 1 + foo end)
    local recommended_add = tf.func(function(f) return 1 + f end)
    assert.are.equal("tf.Tensor(2, shape=(), dtype=int32)", tostring(buggy_add()))
    assert.are.equal("tf.Tensor(2, shape=(), dtype=int32)", tostring(recommended_add(foo)))
    foo = 100
    assert.are.equal("tf.Tensor(2, shape=(), dtype=int32)", tostring(buggy_add()))
    assert.are.equal("tf.Tensor(101, shape=(), dtype=int32)", tostring(recommended_add(foo)))
    local bar = tf.Variable(1)
    local variable_add = tf.func(function() return 1 + bar end)
    assert.are.equal("tf.Tensor(2, shape=(), dtype=int32)", tostring(variable_add()))
    bar:assign(100)
    assert.are.equal("tf.Tensor(101, shape=(), dtype=int32)", tostring(variable_add()))
  end)

  it("Lua objects are typed by identity: mutating one does not retrace", function()
    local SimpleModel = tf.Module:extend("SimpleModel")
    function SimpleModel:init() self.bias = 0.0; self.weight = 2.0 end
    local evaluate = tf.func(function(model, x) return model.weight * x + model.bias end)
    local simple_model = SimpleModel()
    local x = tf.constant(10.0)
    assert.are.equal("tf.Tensor(20.0, shape=(), dtype=float32)", tostring(evaluate(simple_model, x)))
    simple_model.bias = simple_model.bias + 5.0
    assert.are.equal("tf.Tensor(20.0, shape=(), dtype=float32)", tostring(evaluate(simple_model, x)))
    local new_model = SimpleModel()
    new_model.bias = new_model.bias + 5.0
    local evaluate_with_bias = tf.func(function(model, x2) return model.weight * x2 + model.bias end)
      :get_concrete_function(new_model, x)
    assert.are.equal("tf.Tensor(25.0, shape=(), dtype=float32)", tostring(evaluate_with_bias(new_model, x)))
  end)

  it("variables as attributes are read at run time (BetterModel)", function()
    local better_model = { bias = tf.Variable(0.0), weight = tf.Variable(2.0) }
    local evaluate = tf.func(function(model, x) return model.weight * x + model.bias end)
    local x = tf.constant(10.0)
    assert.are.equal("tf.Tensor(20.0, shape=(), dtype=float32)", tostring(evaluate(better_model, x)))
    better_model.bias:assign_add(5.0)
    assert.are.equal("tf.Tensor(25.0, shape=(), dtype=float32)", tostring(evaluate(better_model, x)))
    assert.are.equal(1, evaluate:experimental_get_tracing_count())
  end)

  it("creating a variable on every call raises the singleton ValueError on the first call", function()
    local f = tf.func(function(x)
      local v = tf.Variable(1.0)
      return v
    end)
    local err = expect_error("ValueError", f, 1.0)
    assert.truthy(err.message:find("^tf.func only supports singleton tf.Variables created on the first call"))
    assert.truthy(err.line, "the error carries the user's line")
  end)

  it("a variable created lazily once works; the first call traces twice (Count)", function()
    local Count = tf.Module:extend("Count")
    function Count:init() self.count = nil end
    Count.__call = tf.func(function(self)
      if self.count == nil then self.count = tf.Variable(0) end
      return self.count:assign_add(1)
    end)
    local c = Count()
    assert.are.equal("tf.Tensor(1, shape=(), dtype=int32)", tostring(c()))
    assert.are.equal("tf.Tensor(2, shape=(), dtype=int32)", tostring(c()))
    assert.are.equal(2, Count.__call:experimental_get_tracing_count())
  end)
end)

describe("eager toggle and helpers", function()
  it("run_functions_eagerly switches every tf.func live", function()
    local f = tf.func(function(x)
      print("running Lua")
      return x * 2
    end)
    local lines = capture(function()
      f(tf.constant(1)); f(tf.constant(2))
      tf.config.run_functions_eagerly(true)
      assert.is_true(tf.executing_eagerly())
      f(tf.constant(3)); f(tf.constant(4))
      tf.config.run_functions_eagerly(false)
      f(tf.constant(5))
    end)
    assert.are.same({ "running Lua", "running Lua", "running Lua" }, lines)
    assert.is_false(tf.config.functions_run_eagerly())
  end)

  it("tf.executing_eagerly is false while tracing", function()
    local seen
    local f = tf.func(function(x) seen = tf.executing_eagerly() return x end)
    f(tf.constant(1))
    assert.is_false(seen)
    assert.is_true(tf.executing_eagerly())
  end)

  it("a symbolic tensor used as a Lua boolean raises TypeError naming it", function()
    local f = tf.func(function(x)
      if x > 0 then return x end
      return -x
    end, { autograph = false })
    local err = expect_error("TypeError", f, tf.constant(1))
    assert.truthy(err.message:find('Tensor("x:0", shape=(), dtype=int32)', 1, true))
  end)

  it("returns Lua values as tensors and nested tables of tensors", function()
    local f = tf.func(function(x) return 1, { a = x, b = { x * 2, true } }, "s" end)
    local one, t, s = f(tf.constant(3))
    assert.are.equal("tf.Tensor(1, shape=(), dtype=int32)", tostring(one))
    assert.are.equal(3, t.a:numpy())
    assert.are.equal(6, t.b[1]:numpy())
    assert.are.equal(true, t.b[2]:numpy())
    assert.are.equal("s", s:numpy())
  end)

  it("vararg parameters are named args_0, args_1, ...", function()
    local f = tf.func(function(...) return select("#", ...) end)
    local cf = f:get_concrete_function(tf.constant(1), tf.constant(2.0))
    assert.truthy(tostring(cf):find("args_0 (POSITIONAL): TensorSpec(shape=(), dtype=tf.int32, name=None)", 1, true))
    assert.truthy(tostring(cf):find("args_1 (POSITIONAL): TensorSpec(shape=(), dtype=tf.float32, name=None)", 1, true))
  end)

  it("names come from the defining source, or the name option", function()
    local my_step = tf.func(function(x) return x end)
    assert.are.equal("my_step", my_step.name)
    local other = tf.func(function(x) return x end, { name = "custom" })
    assert.are.equal("custom", other.name)
  end)

  it("graphs render as text and DOT", function()
    local f = tf.func(function(a, b) return tf.nn.relu(tf.matmul(a, b) + 1.0) end)
    local g = f:get_concrete_function(tf.TensorSpec({ 2, 2 }), tf.TensorSpec({ 2, 2 })).graph
    local text = g:text()
    assert.truthy(text:find("MatMul%s+= MatMul%(a:0, b:0%)"))
    assert.truthy(text:find("Relu", 1, true))
    local dot = g:to_dot()
    assert.truthy(dot:find("^digraph"))
    assert.truthy(dot:find("MatMul", 1, true))
  end)
end)

describe("functions defined on one line inside a tf.func", function()
  it("a local function on the same line is called, not converted forever", function()
    local f = tf.func(function(x) local h=function(y) return y*2 end; return h(x) end)
    assert.are.equal(6, f(tf.constant(3)):numpy())
    assert.are.equal(8, f(tf.constant(4)):numpy())
    local k = tf.func(function(x) local h = function(y) local z = function(w) return w * 3 end; return z(y) + 1 end; return h(x) end)
    assert.are.equal(7, k(tf.constant(2)):numpy())
  end)

  it("a tf.func made and called on the same line runs", function()
    local f = tf.func(function(x) local h=tf.func(function(y) return y*2 end); return h(x) end)
    assert.are.equal(6, f(tf.constant(3)):numpy())
    local g = tf.func(function(x) return tf.func(function(y) if y > 0 then return y + 1 else return y - 1 end end)(x) end)
    assert.are.equal(4, g(tf.constant(3)):numpy())
    assert.are.equal(-4, g(tf.constant(-3)):numpy())
  end)
end)

-- A cached call takes one C call (core.func_call, fastpath.c);
-- everything it does not cover must still go the general way.
describe("the cached call's C path", function()
  it("checks every call's arguments: another shape or dtype retraces, a fitting one does not", function()
    local f = tf.func(function(x) return x * 2 end)
    helpers.tensor(f(tf.constant({ 1.0, 2.0 })), tf.float32, { 2 }, { 2.0, 4.0 })
    helpers.tensor(f(tf.constant({ 3.0, 4.0 })), tf.float32, { 2 }, { 6.0, 8.0 })
    assert.are.equal(1, f:experimental_get_tracing_count())
    helpers.tensor(f(tf.constant({ 1.0, 2.0, 3.0 })), tf.float32, { 3 }, { 2.0, 4.0, 6.0 })
    helpers.tensor(f(tf.constant({ 1, 2 })), tf.int32, { 2 }, { 2, 4 })
    assert.are.equal(3, f:experimental_get_tracing_count())
    helpers.tensor(f(tf.constant({ 5, 6 })), tf.int32, { 2 }, { 10, 12 })
    helpers.tensor(f(tf.constant(2.0)), tf.float32, {}, 4.0)
    assert.are.equal(4, f:experimental_get_tracing_count())
    -- A Lua number is a literal argument: its own trace.
    assert.are.equal(6, f(3):numpy())
    assert.are.equal(5, f:experimental_get_tracing_count())
  end)

  it("feeds captures, and sees a variable's new value", function()
    local v = tf.Variable(1.0)
    local c = tf.constant(10.0)
    local f = tf.func(function(x) return x + c + v end)
    helpers.tensor(f(tf.constant(1.0)), tf.float32, {}, 12.0)
    helpers.tensor(f(tf.constant(2.0)), tf.float32, {}, 13.0)
    v:assign(5.0)
    helpers.tensor(f(tf.constant(2.0)), tf.float32, {}, 17.0)
    assert.are.equal(1, f:experimental_get_tracing_count())
  end)

  it("inlines inside another trace, records on a tape, and runs unoptimised graphs", function()
    local inner = tf.func(function(x) return x * x end)
    local x = tf.constant(3.0)
    helpers.tensor(inner(x), tf.float32, {}, 9.0)
    local outer = tf.func(function(y) return inner(y) + 1 end)
    helpers.tensor(outer(x), tf.float32, {}, 10.0)
    local tape = tf.GradientTape()
    tape:watch(x)
    local y
    do
      local t <close> = tape
      y = inner(x)
    end
    helpers.tensor(tape:gradient(y, x), tf.float32, {}, 6.0)
    tf.config.optimizer.set_enabled(false)
    local ok, err = pcall(function()
      local g = tf.func(function(a) return a - 1 end)
      helpers.tensor(g(x), tf.float32, {}, 2.0)
      helpers.tensor(g(tf.constant(5.0)), tf.float32, {}, 4.0)
      assert.are.equal(1, g:experimental_get_tracing_count())
    end)
    tf.config.optimizer.set_enabled(true)
    assert(ok, err)
  end)

  it("counts cached calls in the frequent-retracing warning", function()
    local f = tf.func(function(x) return x * 1 end)
    local saved = io.stderr
    local text = {}
    io.stderr = { write = function(self, s) text[#text + 1] = s return self end }
    local ok, err = pcall(function()
      local same = tf.constant({ 1.0 })
      for _ = 1, 3 do f(same) end -- one trace, two cached calls
      for n = 2, 5 do f(tf.zeros({ n })) end
    end)
    io.stderr = saved
    assert(ok, err)
    local warning = table.concat(text)
    assert.truthy(warning:find("^WARNING: 5 out of the last 7 calls to f triggered tf.func retracing%."), warning)
  end)

  -- How many calls since the last look the C path ran (the retracing
  -- detector's counter of them: retracing.lua).
  local function c_calls(f)
    return require("moonflow.core").counter_take(f._detector.fast_calls)
  end

  it("runs every call after the tracing one, of several arguments and results, in C", function()
    local f = tf.func(function(a, b) return a + b, a * b end)
    local a, b = tf.constant({ 1.0, 2.0 }), tf.constant({ 3.0, 4.0 })
    c_calls(f)
    local s, p = f(a, b)
    assert.are.equal(0, c_calls(f))
    for i = 1, 3 do
      s, p = f(a, b)
      helpers.tensor(s, tf.float32, { 2 }, { 4.0, 6.0 })
      helpers.tensor(p, tf.float32, { 2 }, { 3.0, 8.0 })
      assert.are.equal(1, c_calls(f), "call " .. i)
    end
    assert.are.equal(2, select("#", f(b, a)))
    assert.are.equal(1, c_calls(f))
    -- Another dtype does not fit: the Lua path retraces, then arms the new trace.
    local s2 = f(tf.constant(1), tf.constant(2))
    helpers.tensor(s2, tf.int32, {}, 3)
    assert.are.equal(0, c_calls(f))
    helpers.tensor((f(tf.constant(5), tf.constant(2))), tf.int32, {}, 7)
    assert.are.equal(1, c_calls(f))
    assert.are.equal(2, f:experimental_get_tracing_count())
  end)

  it("leaves calls to the Lua path whenever a switch says so", function()
    local state = require("moonflow.state")
    local runs = 0
    local f = tf.func(function(x) runs = runs + 1 return x + 1 end)
    local x = tf.constant(1.0)
    f(x)
    f(x)
    assert.are.equal(1, runs)
    -- functions run eagerly: the Lua function runs
    tf.config.run_functions_eagerly(true)
    local ok, err = pcall(function() helpers.tensor(f(x), tf.float32, {}, 2.0) end)
    tf.config.run_functions_eagerly(false)
    assert(ok, err)
    assert.are.equal(2, runs)
    -- state.on_call sees each call
    local seen = 0
    state.on_call = function() seen = seen + 1 end
    ok, err = pcall(function() helpers.tensor(f(x), tf.float32, {}, 2.0) end)
    state.on_call = nil
    assert(ok, err)
    assert.are.equal(1, seen)
    -- the optimiser off and on again: the same trace, either graph
    tf.config.optimizer.set_enabled(false)
    ok, err = pcall(function() helpers.tensor(f(x), tf.float32, {}, 2.0) end)
    tf.config.optimizer.set_enabled(true)
    assert(ok, err)
    helpers.tensor(f(x), tf.float32, {}, 2.0)
    assert.are.equal(1, f:experimental_get_tracing_count())
    -- a trace made since (another signature) and clear_cache: traced again
    f:get_concrete_function(tf.TensorSpec({ 3 }, tf.float32))
    helpers.tensor(f(x), tf.float32, {}, 2.0)
    f:clear_cache()
    helpers.tensor(f(x), tf.float32, {}, 2.0)
    assert.are.equal(1, f:experimental_get_tracing_count())
    assert.are.equal(4, runs)
    -- a function returning nothing returns nothing
    local g = tf.func(function(v) end)
    g(x)
    assert.are.equal(0, select("#", g(x)))
  end)

  it("raises a kernel's error from the cached call", function()
    local f = tf.func(function(a, b) return a // b end)
    helpers.tensor(f(tf.constant(7), tf.constant(2)), tf.int32, {}, 3)
    helpers.raises("InvalidArgumentError", "division by zero", function() return f(tf.constant(7), tf.constant(0)) end)
  end)
end)
