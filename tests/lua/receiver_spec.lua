-- receiver_spec.lua — issue 14's first Python habit: a method called with
-- `.` instead of `:` (`double.get_concrete_function(x)`, `v.assign(2.0)`,
-- `x.shape.as_list()`) is a TypeError that says how to call it, from every
-- method of every object the library makes; and an unknown field of a
-- tf.func, concrete function, graph, operation or variable is an
-- AttributeError with a "did you mean" instead of nil.
local tf = tf or require("moonflow")
local H = require("helpers")

local function err_of(f, ...)
  local ok, e = pcall(f, ...)
  assert.is_false(ok, "expected an error")
  H.check_error_object(e)
  return e
end

-- A tape that does not go on recording the later specs' ops.
local function stopped_tape()
  local tape = tf.GradientTape()
  tape:stop()
  return tape
end

-- One object of every kind whose methods the library defines, by the
-- label an unnamed receiver gets in the message.
local function samples()
  local double = tf.func(function(x) return x + x end)
  local cf = double:get_concrete_function(tf.TensorSpec({ 2 }, tf.float32))
  local g = cf.graph
  local tmp = os.tmpname()
  os.remove(tmp)
  return {
    { "tensor", tf.constant({ 1.0, 2.0 }) },
    { "variable", tf.Variable(tf.ones({ 2 })) },
    { "shape", tf.TensorShape({ 2, 3 }) },
    { "spec", tf.TensorSpec({ 2 }, tf.float32) },
    { "func", double },
    { "concrete", cf },
    { "graph", g },
    { "operation", g:get_operations()[1] },
    { "tape", stopped_tape() },
    { "module", tf.Module() },
    { "dense", tf.keras.layers.Dense(2) },
    { "conv2d", tf.keras.layers.Conv2D(2, 3) },
    { "sequential", tf.keras.Sequential({ tf.keras.layers.Dense(2) }) },
    { "sgd", tf.keras.optimizers.SGD(0.1) },
    { "adam", tf.keras.optimizers.Adam(0.1) },
    { "mean_squared_error", tf.keras.losses.MeanSquaredError() },
    { "sparse_categorical_crossentropy", tf.keras.losses.SparseCategoricalCrossentropy() },
    { "tensor_array", tf.TensorArray(tf.float32, { size = 2 }) },
    { "checkpoint", tf.train.Checkpoint({ v = tf.Variable(1.0) }) },
    { "bar", select(2, tf.progress(3)) },
  }
end

local OPERATORS = { __add = true, __sub = true, __mul = true, __div = true, __idiv = true, __mod = true,
  __pow = true, __unm = true, __concat = true, __lt = true, __le = true, __gc = true }

-- The methods an object answers: its metatable's functions, its __index
-- table's, and for an __index function the functions of the tables it
-- closes over that indexing the object really returns.
local function methods_of(obj)
  local out, seen = {}, {}
  local function collect(t, answered)
    if type(t) ~= "table" or seen[t] then return end
    seen[t] = true
    for k, v in pairs(t) do
      if type(k) == "string" and type(v) == "function" and not out[k] then
        local ok, got = true, v
        if answered then ok, got = pcall(function() return obj[k] end) end
        if ok and rawequal(got, v) then out[k] = v end
      end
    end
  end
  local mt = getmetatable(obj)
  collect(mt)
  local idx = rawget(mt, "__index")
  if type(idx) == "table" then collect(idx) end
  if type(idx) == "function" then
    for i = 1, 60 do
      local name, v = debug.getupvalue(idx, i)
      if not name then break end
      if type(v) == "table" and v ~= tf and v ~= _G then collect(v, true) end
    end
  end
  -- A Keras object's class chain: the methods its classes define.
  local class = mt
  while type(class) == "table" and rawget(class, "_parent") ~= nil do
    class = rawget(class, "_parent")
    collect(class)
  end
  return out
end

local BASE = { variables = true, trainable_variables = true, non_trainable_variables = true, submodules = true }

local function is_private(name)
  return name:sub(1, 1) == "_" and name:sub(2, 2) ~= "_"
end

describe("a method called with `.` instead of `:`", function()
  it("is a TypeError naming the variable the user wrote", function()
    local double = tf.func(function(a) return a + a end)
    local x = tf.constant({ 1.0, 2.0 })
    local e = err_of(function() local r = double.get_concrete_function(x); return r end)
    assert.are.equal("TypeError", e.type)
    assert.are.equal("call get_concrete_function with ':' (double:get_concrete_function(...)) (lesson 13 lists the differences: %tutorial 13-from-python)", e.message)

    local v = tf.Variable(1.0)
    e = err_of(function() local r = v.assign(2.0); return r end)
    assert.are.equal("call assign with ':' (v:assign(...)) (lesson 13 lists the differences: %tutorial 13-from-python)", e.message)

    e = err_of(function() local r = x.shape.as_list(); return r end)
    assert.are.equal("call as_list with ':' (x.shape:as_list(...)) (lesson 13 lists the differences: %tutorial 13-from-python)", e.message)

    local tape = tf.GradientTape()
    local y = x * x
    tape:stop()
    e = err_of(function() local r = tape.gradient(y, x); return r end)
    assert.are.equal("call gradient with ':' (tape:gradient(...)) (lesson 13 lists the differences: %tutorial 13-from-python)", e.message)

    e = err_of(function() local r = x.numpy(); return r end)
    assert.are.equal("call numpy with ':' (x:numpy(...)) (lesson 13 lists the differences: %tutorial 13-from-python)", e.message)

    local layer = tf.keras.layers.Dense(2)
    e = err_of(function() local r = layer.build(x); return r end)
    assert.are.equal("call build with ':' (layer:build(...)) (lesson 13 lists the differences: %tutorial 13-from-python)", e.message)
  end)

  it("names the variable in a REPL cell too, where the call is the cell's value (a tail call)", function()
    local session = require("moonflow.session")
    _G.spec_double = tf.func(function(a) return a + a end)
    _G.spec_x = tf.constant({ 1.0 })
    local e = err_of(session.eval, "spec_double.get_concrete_function(spec_x)", "=(receiver spec)", false)
    assert.are.equal("call get_concrete_function with ':' (spec_double:get_concrete_function(...)) (lesson 13 lists the differences: %tutorial 13-from-python)", e.message)
    e = err_of(session.eval, "spec_x.shape.as_list()", "=(receiver spec)", false)
    assert.are.equal("call as_list with ':' (spec_x.shape:as_list(...)) (lesson 13 lists the differences: %tutorial 13-from-python)", e.message)
    _G.spec_double, _G.spec_x = nil, nil
  end)

  it("is a TypeError from every method of every kind of object, named after the kind", function()
    local checked = 0
    for _, s in ipairs(samples()) do
      local kind, obj = s[1], s[2]
      local methods = methods_of(obj)
      local names = {}
      for k in pairs(methods) do
        -- a tensor's and a variable's == is elementwise (an operator)
        local operator = OPERATORS[k] or (k == "__eq" and (kind == "tensor" or kind == "variable"))
        if not is_private(k) and not operator then names[#names + 1] = k end
      end
      table.sort(names)
      assert.is_true(#names > 0, kind .. " has no methods")
      for _, name in ipairs(names) do
        local fn = methods[name]
        for _, wrong in ipairs({ 42, "x" }) do
          if name == "__eq" then
            assert.is_false(fn(wrong, obj), kind .. ":__eq with a " .. type(wrong))
          else
            local ok, e = pcall(fn, wrong)
            assert.is_false(ok, ("%s:%s(%s) did not fail"):format(kind, name, tostring(wrong)))
            assert.is_true(tf.errors.is(e, "TypeError"),
              ("%s:%s(%s) raised %s"):format(kind, name, tostring(wrong), tostring(e)))
            -- A tensor's metamethods are the binding's per-op path: its C
            -- checks type the receiver ("expected a tensor, got number").
            if not (kind == "tensor" and name:sub(1, 2) == "__") then
              -- extend's receiver is a class, not an instance; every module
              -- shares tf.Module's methods
              local label = name == "extend" and "Module" or BASE[name] and "module" or kind
              local want = ("call %s with ':' (%s:%s(...))"):format(name, label, name)
              assert.are.equal(want, e.message:sub(1, #want), tostring(e))
            end
            checked = checked + 1
          end
        end
      end
    end
    assert.is_true(checked > 150, "only " .. checked .. " methods checked")
  end)

  it("still runs with the right receiver, and leaves a user's class functions alone", function()
    local double = tf.func(function(a) return a + a end)
    local cf = double.get_concrete_function(double, tf.constant(1.0))
    assert.are.equal(4.0, cf(tf.constant(2.0)):numpy())
    local M = tf.Module:extend("M")
    function M.new(n) return n * 2 end
    assert.are.equal(6, M.new(3))
    assert.are.equal("<M 'm'>", tostring(M()))
  end)

  it("keeps the method's docstring", function()
    local d = tf.doc.get(getmetatable(tf.TensorShape({ 1 })).__index(tf.TensorShape({ 1 }), "as_list"))
    assert.are.equal("shape:as_list()", d.signature)
  end)
end)

describe("an unknown field", function()
  local double = tf.func(function(a) return a + a end)
  local cf = double:get_concrete_function(tf.TensorSpec({ 2 }, tf.float32))
  local v = tf.Variable(1.0)
  local cases = {
    { "tf.func", double, "get_concrete_functoin", "Function", "get_concrete_function" },
    { "concrete function", cf, "grph", "ConcreteFunction", "graph" },
    { "graph", cf.graph, "get_operation", "FuncGraph", "get_operations" },
    { "operation", cf.graph:get_operations()[1], "nme", "Operation", "name" },
    { "variable", v, "assing", "ResourceVariable", "assign" },
    { "shape", tf.TensorShape({ 2 }), "as_lst", "TensorShape", "as_list" },
    { "tape", stopped_tape(), "gradiant", "GradientTape", "gradient" },
  }
  for _, c in ipairs(cases) do
    it("of a " .. c[1] .. " is an AttributeError with a suggestion", function()
      local e = err_of(function() return c[2][c[3]] end)
      assert.are.equal("AttributeError", e.type)
      assert.are.equal(("'%s' object has no attribute '%s'. Did you mean: '%s'?"):format(c[4], c[3], c[5]),
        e.message)
    end)
  end

  it("without a close name has no suggestion, and known fields still answer", function()
    local e = err_of(function() return v.zzzzzzzzzz end)
    assert.are.equal("'ResourceVariable' object has no attribute 'zzzzzzzzzz'", e.message)
    assert.are.equal("Variable:0", v.name)
    assert.are.equal(tf.float32, v.dtype)
    assert.are.equal("double", double.name)
    assert.is_truthy(cf.graph)
    assert.are.equal(1, #cf.outputs)
  end)

  it("is tf.errors.AttributeError", function()
    assert.are.equal("AttributeError", tf.errors.AttributeError)
  end)
end)

describe("receiver.index", function()
  local receiver = require("moonflow.receiver")
  local Point = { __name = "Point" }
  local methods = { norm = function(p) return math.abs(p.x) + math.abs(p.y) end }
  receiver.metatable(Point, "point", methods)
  Point.__index = receiver.index(Point, "point", {
    methods = { methods },
    fields = { sum = function(p) return p.x + p.y end, nothing = function() return nil end },
    other = function(p, k) if k == 1 then return p.x end end,
    extra = { "x", "y" },
  })
  local p = setmetatable({ x = 1, y = -2 }, Point)

  it("answers methods, computed fields, then other keys", function()
    assert.are.equal(3, p:norm())
    assert.are.equal(-1, p.sum)
    assert.is_nil(p.nothing)
    assert.are.equal(1, p[1])
    methods.later = function() return "later" end
    assert.are.equal("later", p:later())
  end)

  it("checks the receiver and names the misses", function()
    local e = err_of(function() return Point.__index(5, "norm") end)
    assert.are.equal("TypeError", e.type)
    e = err_of(function() return p.sun end)
    assert.are.equal("'Point' object has no attribute 'sun'. Did you mean: 'sum'?", e.message)
    assert.is_nil(p._private)
  end)

  it("tells completion the names it answers", function()
    local names = receiver.index_names(Point.__index)
    table.sort(names)
    assert.are.same({ "later", "norm", "nothing", "sum", "x", "y" }, names)
    assert.is_nil(receiver.index_names(print))
  end)

  it("answers nil for a miss when open, and checks nothing when unchecked", function()
    local Open = {}
    local plain = { norm = function(o) return o.x + o.y end }
    Open.__index = receiver.index(Open, "open", { methods = { plain }, open = true, unchecked = true })
    local o = setmetatable({ x = 2, y = 2 }, Open)
    assert.is_nil(o.whatever)
    assert.are.equal(4, o:norm())
    assert.is_nil(Open.__index(5, "whatever"))
  end)
end)
