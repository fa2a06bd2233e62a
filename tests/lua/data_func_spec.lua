-- data_func_spec.lua — tf.data inside tf.func (the tf.function guide's
-- "Looping over Python data" and its iterator example): AutoGraph turns
-- `for x in ds do` into one graph loop over an iterator made in the graph
-- (the graph does not grow with the number of elements; break,
-- loop-carried tensors and tf.print work), and an iterator made inside or
-- passed in advances in the graph.
local H = require("helpers")
local tf = rawget(_G, "tf") or require("moonflow")

local function op_types(f, ...)
  local types = {}
  for _, o in ipairs(f:get_concrete_function(...).graph:get_operations()) do types[#types + 1] = o.type end
  return types
end

local function count(list, name)
  local n = 0
  for _, v in ipairs(list) do if v == name then n = n + 1 end end
  return n
end

describe("tf.data inside tf.func", function()
  it("a for over a dataset is one graph loop whose size does not depend on the element count", function()
    local function summer(n)
      return tf.func(function()
        local total = tf.constant(0, tf.int64)
        for x in tf.data.Dataset.range(n) do total = total + x end
        return total
      end)
    end
    local small, large = summer(3), summer(300)
    assert.equal(3, small():numpy())
    assert.equal(44850, large():numpy())
    local a, b = op_types(small), op_types(large)
    assert.equal(#a, #b)
    assert.equal(1, count(a, "While"))
    assert.equal(1, count(a, "AnonymousIteratorV3"))
    assert.equal(1, count(a, "MakeIterator"))
    assert.equal(1, count(a, "RangeDataset"))
  end)

  it("a Lua table loop unrolls instead (the guide's comparison)", function()
    local unrolled = tf.func(function(xs)
      local total = tf.constant(0)
      for _, x in ipairs(xs) do total = total + x end
      return total
    end)
    assert.equal(6, unrolled({ 1, 2, 3 }):numpy())
    assert.equal(0, count(op_types(unrolled, { 1, 2, 3 }), "While"))
  end)

  it("break, tuples, transformations and tf.print work in the loop", function()
    local lines = {}
    local f = tf.func(function()
      local total = tf.constant(0, tf.int64)
      for x, y in tf.data.Dataset.zip(tf.data.Dataset.range(100):map(function(v) return v * 2 end),
        tf.data.Dataset.range(100)) do
        if x > 10 then break end
        tf.print("x =", x, "y =", y, { output_stream = function(s) lines[#lines + 1] = s end })
        total = total + x * y
      end
      return total
    end)
    assert.equal(0 + 2 + 8 + 18 + 32 + 50, f():numpy())
    assert.equal("x = 0 y = 0\n", lines[1])
    assert.equal(6, #lines)
    assert.equal("x = 10 y = 5\n", lines[6])
  end)

  it("an iterator made inside advances in the graph (next and get_next)", function()
    local f = tf.func(function()
      local it = tf.data.Dataset.range(10):iter()
      local a = it:next()
      local b = it:get_next()
      return a * 10 + b
    end)
    assert.equal(1, f():numpy())
    local ended = tf.func(function()
      local it = tf.data.Dataset.range(1):iter()
      it:get_next()
      return it:get_next()
    end)
    H.raises("OutOfRangeError", "End of sequence", function() return ended() end)
  end)

  it("an iterator passed in advances at each call (the guide's next(iterator) example)", function()
    local it = tf.data.Dataset.from_tensor_slices({ 10, 20, 30 }):iter()
    local f = tf.func(function(iterator) return iterator:get_next() end)
    assert.equal(10, f(it):numpy())
    assert.equal(20, f(it):numpy())
    assert.equal(30, f(it):numpy())
  end)

  it("a dataset passed in is traced by its DatasetSpec: the same element spec does not retrace", function()
    local traces = 0
    local f = tf.func(function(ds)
      traces = traces + 1
      local total = tf.constant(0, tf.int64)
      for x in ds do total = total + x end
      return total
    end)
    assert.equal(10, f(tf.data.Dataset.range(5)):numpy())
    assert.equal(45, f(tf.data.Dataset.range(10)):numpy())
    assert.equal(1, traces)
    assert.equal(3, f(tf.data.Dataset.from_tensor_slices(tf.constant({ 1, 2 }, tf.int64)))
      :numpy())
    assert.equal(1, traces)
    assert.equal(6, f(tf.data.Dataset.range(4):batch(2):map(function(b) return tf.reduce_sum(b) end)):numpy())
    assert.equal(1, traces)
    local ints = tf.func(function(ds)
      traces = traces + 1
      local total = tf.constant(0)
      for x in ds do total = total + x end
      return total
    end)
    assert.equal(6, ints(tf.data.Dataset.from_tensor_slices({ 1, 2, 3 })):numpy())
    assert.equal(2, traces)
    assert.equal("DatasetSpec(TensorSpec(shape=(), dtype=tf.int64, name=None), TensorShape([]))",
      tostring(require("moonflow.data.dataset").spec_of(tf.data.Dataset.range(3))))
  end)

  it("a new element spec retraces", function()
    local traces = 0
    local f = tf.func(function(ds)
      traces = traces + 1
      return ds:reduce(tf.constant(0, tf.int64), function(s, x) return s + tf.reduce_sum(x) end)
    end)
    assert.equal(10, f(tf.data.Dataset.range(5)):numpy())
    assert.equal(10, f(tf.data.Dataset.range(5):batch(2)):numpy())
    assert.equal(2, traces)
    assert.equal("trace #1 differs in ds: DatasetSpec(TensorSpec(shape=(), dtype=tf.int64, name=None), "
      .. "TensorShape([])) -> DatasetSpec(TensorSpec(shape=(None,), dtype=tf.int64, name=None), TensorShape([]))",
      f:concrete_functions()[2]:trace_info().reason)
  end)

  it("a loop AutoGraph did not convert refuses a dataset instead of unrolling forever", function()
    local f = tf.func(function()
      local n = 0
      for _ in tf.data.Dataset.range(3) do n = n + 1 end
      return n
    end, { autograph = false })
    H.raises("TypeError", "a `for` over a tf.data.Dataset while tracing runs as one graph loop through AutoGraph",
      function() return f() end)
  end)

  it("with functions run eagerly (%eager on) the loop is Lua's and gives the same values", function()
    local f = tf.func(function(ds)
      local total = tf.constant(0, tf.int64)
      for x in ds do
        if x > 3 then break end
        total = total + x
      end
      return total
    end)
    tf.config.run_functions_eagerly(true)
    local ok, got = pcall(f, tf.data.Dataset.range(10))
    tf.config.run_functions_eagerly(false)
    assert.is_true(ok, tostring(got))
    assert.equal(6, got:numpy())
    assert.equal(6, f(tf.data.Dataset.range(10)):numpy())
  end)

  it("a training loop over a dataset, a tape in its body, learns the same eagerly and traced", function()
    local xs = tf.constant({ 1, 2, 3, 4 }, tf.float32)
    local ds = tf.data.Dataset.from_tensor_slices({ xs, xs * 3 }):batch(2)
    local function step(w, x, y)
      local tape = tf.GradientTape()
      local loss = tf.reduce_mean((x * w - y) ^ 2)
      tape:stop()
      w:assign_sub(0.05 * tape:gradient(loss, w))
    end
    local traced_w, eager_w = tf.Variable(tf.constant(0.0)), tf.Variable(tf.constant(0.0))
    local train = tf.func(function(data)
      for x, y in data do step(traced_w, x, y) end
    end)
    for _ = 1, 5 do
      train(ds)
      for x, y in ds do step(eager_w, x, y) end
    end
    H.close(eager_w:numpy(), traced_w:numpy(), 1e-5)
    assert.is_true(math.abs(traced_w:numpy() - 3) < 0.1)
    assert.equal(1, #train:concrete_functions())
  end)

  it("a tape over a call that loops over a dataset: the gradient of a variable read in the loop", function()
    local ds = tf.data.Dataset.from_tensor_slices(tf.constant({ 1.0, 2.0, 3.0, 4.0 })):batch(2)
    local w = tf.Variable(2.0)
    local total = tf.func(function(data)
      local s = tf.constant(0.0)
      for x in data do s = s + tf.reduce_sum(x * w) end
      return s
    end)
    for _, f in ipairs({ total, function(data)
      local s = tf.constant(0.0)
      for x in data do s = s + tf.reduce_sum(x * w) end
      return s
    end }) do
      local tape = tf.GradientTape()
      local y = f(ds)
      tape:stop()
      assert.equal(20, y:numpy())
      assert.equal(10, tape:gradient(y, w):numpy())
    end
  end)

  it("the graph picture names the dataset ops as TF and shows the loop as a While", function()
    local f = tf.func(function(ds)
      local t = tf.constant(0, tf.int64)
      for x in ds:map(function(v) return v + 1 end) do t = t + x end
      return t
    end)
    local dot = f:get_concrete_function(tf.data.Dataset.range(3)).graph:to_dot()
    for _, name in ipairs({ "MapDataset", "While", "AnonymousIteratorV3", "MakeIterator",
      "IteratorGetNextAsOptional", "OptionalHasValue", "OptionalGetValue" }) do
      assert.truthy(dot:find(name, 1, true), name)
    end
    assert.is_nil(dot:find("GraphHandle", 1, true))
  end)

  it("a saved function may take a dataset's elements; a dataset argument is refused by save", function()
    local m = tf.Module()
    m.total = tf.func(function(ds)
      local t = tf.constant(0, tf.int64)
      for x in ds do t = t + x end
      return t
    end)
    assert.equal(6, m.total(tf.data.Dataset.range(4)):numpy())
    local dir = os.tmpname()
    os.remove(dir)
    H.raises("ValueError", "is the object DatasetSpec(TensorSpec(shape=(), dtype=tf.int64, name=None), "
      .. "TensorShape([])), which cannot be saved", function() return tf.saved_model.save(m, dir) end)
    local step = tf.Module()
    step.f = tf.func(function(x) return x * 2 end, { input_signature = { tf.TensorSpec({}, tf.int64) } })
    tf.saved_model.save(step, dir)
    local loaded = tf.saved_model.load(dir)
    local got = {}
    for x in tf.data.Dataset.range(3) do got[#got + 1] = loaded.f(x):numpy() end
    assert.same({ 0, 2, 4 }, got)
    os.execute("rm -rf '" .. dir .. "'")
  end)

  it("a for over an iterator is a graph loop over what it has left", function()
    local f = tf.func(function()
      local it = tf.data.Dataset.range(5):iter()
      local first = it:get_next()
      local rest = tf.constant(0, tf.int64)
      for x in it do rest = rest + x end
      return first * 100 + rest
    end)
    assert.equal(10, f():numpy())
    assert.equal(1, count(op_types(f), "While"))
    local passed = tf.data.Dataset.range(4):iter()
    passed:get_next()
    local g = tf.func(function(it)
      local total = tf.constant(0, tf.int64)
      for x in it do total = total + x end
      return total
    end)
    assert.equal(6, g(passed):numpy())
    local unconverted = tf.func(function(it)
      for _ in it do end
    end, { autograph = false })
    H.raises("TypeError", "a `for` over a tf.data iterator while tracing", function()
      return unconverted(tf.data.Dataset.range(2):iter())
    end)
    local eager = tf.data.Dataset.range(3):iter()
    eager:get_next()
    local seen = {}
    for x in eager do seen[#seen + 1] = x:numpy() end
    assert.same({ 1, 2 }, seen)
  end)
end)
