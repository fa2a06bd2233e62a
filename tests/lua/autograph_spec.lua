-- autograph_spec.lua — AutoGraph for Lua and graph control flow: the seed
-- guide's examples retold in Lua, conversion that leaves Lua-only code
-- unchanged, the errors that name the local and its line, gradients
-- through converted loops and conds, and to_code.

local tf = tf or require("moonflow")

local helpers = require("helpers")
local capture = helpers.capture

local function count(list, value)
  local n = 0
  for _, v in ipairs(list) do if v == value then n = n + 1 end end
  return n
end

local op_types = helpers.op_types

-- A call that must raise a moonflow error object of type `kind`.
local function expect_error(kind, fn, ...) return helpers.raises(kind, nil, fn, ...) end

describe("graph control flow ops", function()
  -- (each test traces its own functions)
  it("tf.cond eagerly is an if; traced it is an If op picking a branch at run time", function()
    assert.are.equal(6.0, tf.cond(tf.constant(true), function() return tf.constant(6.0) end,
      function() return tf.constant(0.0) end):numpy())
    local f = tf.func(function(x)
      return tf.cond(tf.greater(x, 0), function() return x * 2 end, function() return -x end)
    end)
    assert.are.equal(6.0, f(tf.constant(3.0)):numpy())
    assert.are.equal(3.0, f(tf.constant(-3.0)):numpy())
    assert.are.equal(1, count(op_types(f:get_concrete_function(tf.constant(1.0))), "StatelessIf"))
  end)

  it("tf.cond branches must agree in structure and dtype", function()
    local f = tf.func(function(x)
      return tf.cond(tf.greater(x, 0), function() return x end, function() return tf.cast(x, tf.int32) end)
    end)
    local err = expect_error("TypeError", f, tf.constant(1.0))
    assert.truthy(err.message:find("output 1 is float32 in true_fn but int32 in false_fn", 1, true))
    local g = tf.func(function(x)
      return tf.cond(tf.greater(x, 0), function() return x, x end, function() return x end)
    end)
    expect_error("ValueError", g, tf.constant(1.0))
  end)

  it("tf.while_loop: one While op, loop-carried values, maximum_iterations", function()
    local f = tf.func(function(x)
      local i, s = tf.while_loop(function(i) return tf.less(i, 10) end,
        function(i, s) return i + 1, tf.tanh(s) end, { tf.constant(0), x })
      return s, i
    end)
    local s, i = f(tf.constant(2.0))
    local ref = 2.0
    for _ = 1, 10 do ref = math.tanh(ref) end
    assert.is_true(math.abs(s:numpy() - ref) < 1e-6)
    assert.are.equal(10, i:numpy())
    local g = tf.func(function(n)
      local _, k = tf.while_loop(function() return true end, function(a, b) return a, b + 1 end,
        { n, tf.constant(0) }, { maximum_iterations = 7 })
      return k
    end)
    assert.are.equal(7, g(tf.constant(1)):numpy())
  end)

  it("a loop variable that changes shape is an error naming it", function()
    local f = tf.func(function(x)
      while tf.reduce_sum(x) < 10 do
        x = tf.concat({ x, x }, 0)
      end
      return x
    end)
    local err = expect_error("ValueError", f, tf.constant({ 1.0 }))
    assert.truthy(err.message:find("local 'x' (loop at line", 1, true), err.message)
    assert.truthy(err.message:find("has shape (1,) before the loop, but shape (2,) after one iteration", 1, true))
  end)

  it("Ctrl-C style interrupts stop a graph loop", function()
    local core = require("moonflow.core")
    local f = tf.func(function(x)
      return tf.lua_function(function(v)
        -- simulate the user's interrupt after the loop starts
        core.check_interrupt()
        return v
      end, { x }, tf.int32)
    end)
    assert.are.equal(3, f(tf.constant(3)):numpy())
  end)
end)

describe("AutoGraph: the guide's examples", function()
  it("fizzbuzz: a graph loop over tf.range; Lua print once per branch, tf.print every step", function()
    local fizzbuzz = tf.func(function(n)
      for i in tf.range(1, n + 1) do
        print("Tracing for loop")
        if i % 15 == 0 then
          print("Tracing fizzbuzz branch")
          tf.print("fizzbuzz")
        elseif i % 3 == 0 then
          print("Tracing fizz branch")
          tf.print("fizz")
        elseif i % 5 == 0 then
          print("Tracing buzz branch")
          tf.print("buzz")
        else
          print("Tracing default branch")
          tf.print(i)
        end
      end
    end)
    local lines = capture(function() fizzbuzz(tf.constant(5)) end)
    assert.are.same({ "Tracing for loop", "Tracing fizzbuzz branch", "Tracing fizz branch",
      "Tracing buzz branch", "Tracing default branch", "1", "2", "fizz", "4", "buzz" }, lines)
    lines = capture(function() fizzbuzz(tf.constant(20)) end)
    assert.are.equal(20, #lines)
    assert.are.equal("fizzbuzz", lines[15])
    local code = tf.autograph.to_code(fizzbuzz)
    assert.truthy(load(code), "to_code output is valid Lua")
    assert.truthy(code:find("ag__.for_stmt", 1, true))
  end)

  it("the tanh while loop: tf.print each iteration, one While op", function()
    local f = tf.func(function(x)
      while tf.reduce_sum(x) > 1 do
        tf.print(x)
        x = tf.tanh(x)
      end
      return x
    end)
    tf.random.set_seed(3)
    local x0 = tf.random.uniform({ 5 })
    local lines = {}
    local result
    lines = capture(function() result = f(x0) end)
    -- The same loop run eagerly in Lua gives the same values.
    local x, n = x0, 0
    while tf.reduce_sum(x):numpy() > 1 do
      x = tf.tanh(x)
      n = n + 1
    end
    assert.are.equal(n, #lines)
    assert.are.same(x:numpy(), result:numpy())
    local types = op_types(f:get_concrete_function(x0))
    assert.are.equal(1, count(types, "StatelessWhile") + count(types, "While"))
    assert.truthy(load(tf.autograph.to_code(f)))
  end)

  it("dynamic RNN with a TensorArray", function()
    local function rnn_step(inp, state) return inp + state end
    local dynamic_rnn = tf.func(function(input_data, initial_state)
      input_data = tf.transpose(input_data, { 1, 0, 2 })
      local max_seq_len = input_data.shape[0]
      local states = tf.TensorArray(tf.float32, { size = max_seq_len })
      local state = initial_state
      for i in tf.range(max_seq_len) do
        state = rnn_step(input_data[i], state)
        states = states:write(i, state)
      end
      return tf.transpose(states:stack(), { 1, 0, 2 })
    end)
    tf.random.set_seed(7)
    local input = tf.random.uniform({ 2, 3, 4 })
    local out = dynamic_rnn(input, tf.zeros({ 2, 4 }))
    assert.are.equal("(2, 3, 4)", tostring(out.shape))
    local inp = input:numpy()
    local o = out:numpy()
    for b = 1, 2 do
      for f = 1, 4 do
        local acc = 0
        for t = 1, 3 do
          acc = acc + inp[b][t][f]
          assert.is_true(math.abs(o[b][t][f] - acc) < 1e-5)
        end
      end
    end
    assert.truthy(load(tf.autograph.to_code(dynamic_rnn)))
  end)

  it("a for over a Lua table unrolls (the graph grows with the data); tf.range gives one While", function()
    local train = tf.func(function(dataset)
      local loss = tf.constant(0)
      for _, pair in ipairs(dataset) do
        loss = loss + tf.abs(pair[2] - pair[1])
      end
      return loss
    end)
    local small, big = {}, {}
    for i = 1, 3 do small[i] = { 1, 1 } end
    for i = 1, 10 do big[i] = { 1, 1 } end
    local n_small = #train:get_concrete_function(small).graph:as_graph_def().node
    local n_big = #train:get_concrete_function(big).graph:as_graph_def().node
    assert.is_true(n_big > n_small + 6, ("%d vs %d nodes"):format(n_small, n_big))
    local train_range = tf.func(function(n)
      local loss = tf.constant(0)
      for _ in tf.range(n) do loss = loss + 1 end
      return loss
    end)
    local types = op_types(train_range:get_concrete_function(tf.constant(10)))
    assert.are.equal(1, count(types, "Range"))
    assert.are.equal(1, count(types, "StatelessWhile"))
    assert.are.equal(10, train_range(tf.constant(10)):numpy())
    assert.are.equal(1, train_range:experimental_get_tracing_count())
  end)

  it("a numeric for stays a Lua loop and is unrolled (add_10)", function()
    local add_10 = tf.func(function(x)
      for _ = 1, 10 do x = x + 1 end
      return x
    end)
    assert.are.equal(10, add_10(tf.constant(0)):numpy())
    assert.are.equal(10, count(op_types(add_10:get_concrete_function(tf.constant(0))), "AddV2"))
  end)

  it("if on a Lua value is a plain if; on a tensor a cond", function()
    local f = tf.func(function(x, training)
      if training then x = x * 2 end
      if x > 3 then x = x - 3 else x = x + 3 end
      return x
    end)
    assert.are.equal(5.0, f(tf.constant(2.0), false):numpy())
    assert.are.equal(1.0, f(tf.constant(2.0), true):numpy())
    local types = op_types(f:get_concrete_function(tf.constant(2.0), true))
    assert.are.equal(1, count(types, "StatelessIf"))
  end)
end)

describe("AutoGraph: statements", function()
  it("return inside converted branches", function()
    local g = tf.func(function(x)
      if x > 0 then return x * 2 end
      return -x
    end)
    assert.are.equal(6.0, g(tf.constant(3.0)):numpy())
    assert.are.equal(2.0, g(tf.constant(-2.0)):numpy())
  end)

  it("break in a tensor loop", function()
    local f = tf.func(function(n)
      local s = tf.constant(0)
      for i in tf.range(n) do
        if i > 5 then break end
        s = s + i
      end
      return s
    end)
    assert.are.equal(15, f(tf.constant(10)):numpy())
  end)

  it("goto continue in a tensor loop", function()
    local f = tf.func(function(n)
      local s = tf.constant(0)
      for i in tf.range(n) do
        if i % 2 == 0 then goto continue end
        s = s + i
        ::continue::
      end
      return s
    end)
    assert.are.equal(25, f(tf.constant(10)):numpy())
  end)

  it("while with break, and repeat ... until on tensors", function()
    local f = tf.func(function(x)
      local n = tf.constant(0)
      while true do
        x = x / 2
        n = n + 1
        if x < 1 then break end
      end
      return n
    end)
    assert.are.equal(4, f(tf.constant(10.0)):numpy())
    local g = tf.func(function(x)
      local n = tf.constant(0)
      repeat
        local half = x / 2
        x = half
        n = n + 1
      until half < 1
      return n
    end)
    assert.are.equal(4, g(tf.constant(10.0)):numpy())
  end)

  it("and/or/not become logical ops on tensors, Lua semantics otherwise", function()
    local f = tf.func(function(x, flag)
      local y = 0
      if x > 0 and x < 10 and not (x == 5) then y = 1 end
      local opts = flag or "default"
      return y, opts
    end)
    local y, opts = f(tf.constant(3), nil)
    assert.are.equal(1, y:numpy())
    assert.are.equal("default", opts:numpy())
    assert.are.equal(0, f(tf.constant(5), nil):numpy())
  end)

  it("functions called from converted code are converted too", function()
    local function clip(v)
      if v > 1 then return tf.constant(1.0) end
      return v
    end
    local f = tf.func(function(x) return clip(x) * 2 end)
    assert.are.equal(2.0, f(tf.constant(5.0)):numpy())
    assert.are.equal(1.0, f(tf.constant(0.5)):numpy())
  end)

  it("upvalues stay bound: assignments in converted code are seen outside", function()
    local calls = 0
    local f = tf.func(function(x)
      calls = calls + 1
      return x
    end)
    f(tf.constant(1))
    f(tf.constant(1.0))
    assert.are.equal(2, calls)
  end)

  it("a local defined on one path only is an error naming it and its line", function()
    local f = tf.func(function(x)
      local y
      if x > 0 then y = x end
      return y
    end)
    local err = expect_error("ValueError", f, tf.constant(1.0))
    assert.truthy(err.message:find("local 'y'", 1, true))
    assert.truthy(err.message:find("at line %d+"))
  end)

  it("a local a tensor loop creates is its value when the loop runs, an InvalidArgumentError naming it when not (TF)", function()
    local f = tf.func(function(n)
      local last
      for i in tf.range(n) do last = i end
      return last
    end)
    assert.are.equal(2, f(tf.constant(3)):numpy())
    local err = expect_error("InvalidArgumentError", f, tf.constant(0))
    assert.truthy(err.message:find("loop must iterate at least once to initialize 'last'", 1, true))
  end)

  it("a loop variable that changes dtype is an error naming it", function()
    local f = tf.func(function(x)
      local acc = tf.constant(0)
      while x > 0 do
        x = x - 1
        acc = tf.cast(acc, tf.float32) + 1.5
      end
      return acc
    end)
    local err = expect_error("TypeError", f, tf.constant(3.0))
    assert.truthy(err.message:find("local 'acc'", 1, true))
    assert.truthy(err.message:find("enters the loop with type <dtype: 'int32'> but has type <dtype: 'float32'> "
      .. "after 1 iteration", 1, true), err.message)
  end)

  it("autograph = false and do_not_convert keep the function as written", function()
    local f = tf.func(function(x)
      if x > 0 then return x end
      return -x
    end, { autograph = false })
    expect_error("TypeError", f, tf.constant(1.0))
    local raw = tf.autograph.do_not_convert(function(x)
      if x > 0 then return x end
      return -x
    end)
    expect_error("TypeError", tf.func(raw), tf.constant(1.0))
  end)

  it("errors in converted code point at the user's line", function()
    local f = tf.func(function(x)
      local y = x + 1
      local z = y.nonexistent_field
      return z
    end)
    local ok, err = pcall(f, tf.constant(1))
    assert.is_false(ok)
    local text = tostring(err)
    local here = debug.getinfo(1, "l").currentline
    assert.truthy(text:find("autograph_spec.lua:" .. (here - 6), 1, true), text)
  end)
end)

describe("AutoGraph: Lua-only code behaves the same converted", function()
  local cases = {
    function(n) local s = 0 for i = 1, n do if i % 3 == 0 then s = s + i elseif i % 5 == 0 then s = s - i else s = s + 1 end end return s end,
    function(n) local i, out = 0, {} while i < n do i = i + 1 if i == 4 then goto skip end out[#out + 1] = i ::skip:: end return table.concat(out, ",") end,
    function(n) local t = {} repeat local sq = n * n t[#t + 1] = sq n = n - 1 until sq < 10 return #t, t[1] end,
    function(n) local x = n > 3 and "big" or "small" return x, not (n == 2), n ~= 7 end,
    function(...) local s = 0 for _, v in ipairs({ ... }) do if v > 2 then break end s = s + v end return s, select("#", ...) end,
    function(n) local function fact(k) if k <= 1 then return 1 end return k * fact(k - 1) end return fact(n) end,
    function(n) local acc = {} for k, v in pairs({ a = 1, b = 2 }) do acc[#acc + 1] = k .. v end table.sort(acc) return table.concat(acc) end,
    function(n) local x <const> = n * 2 do local y = x // 3 return y, x % 3, x / 4, 7 & n, n | 8, n ~ 3, n << 2 end end,
    function(n) if n > 10 then return "a" elseif n > 5 then return "b" end return "c" end,
    function(n) local r = 0 while true do r = r + 1 if r >= n then break end end return r end,
    function(s) local count = 0 for w in s:gmatch("%a+") do count = count + #w end return count end,
  }
  local args = { 20, 9, 5, 6, nil, 6, 0, 9, 7, 4, "hello moonflow world" }

  it("every construct gives the same results converted and unconverted", function()
    for i, fn in ipairs(cases) do
      local conv = require("moonflow.autograph").convert(fn)
      assert.are_not.equal(fn, conv, "case " .. i .. " was converted")
      local a = table.pack(pcall(fn, args[i], i == 5 and 2 or nil, i == 5 and 3 or nil))
      local b = table.pack(pcall(conv, args[i], i == 5 and 2 or nil, i == 5 and 3 or nil))
      assert.are.same(a, b, "case " .. i)
    end
  end)
end)

describe("gradients through converted control flow", function()
  it("a loss through a converted while loop and a cond matches finite differences", function()
    local function loss_fn(w)
      local x = tf.constant(0.5, tf.float64)
      local i = tf.constant(0)
      while i < 3 do
        x = tf.tanh(x * w + 0.1)
        i = i + 1
      end
      local y
      if x > 0 then y = x * x * w else y = -x end
      return y
    end
    local grad_of = tf.func(function(w)
      local tape = tf.GradientTape()
      tape:watch(w)
      local y = loss_fn(w)
      tape:stop()
      return y, tape:gradient(y, w)
    end)
    local w0 = 0.8
    local y, g = grad_of(tf.constant(w0, tf.float64))
    local eps = 1e-6
    local yp = grad_of(tf.constant(w0 + eps, tf.float64))
    local ym = grad_of(tf.constant(w0 - eps, tf.float64))
    local numeric = (yp:numpy() - ym:numpy()) / (2 * eps)
    assert.is_true(math.abs(g:numpy() - numeric) < 1e-6, ("analytic %g numeric %g"):format(g:numpy(), numeric))
    assert.is_true(y:numpy() > 0)
  end)
end)

-- A temporary source file for one describe block: its path, and a writer
-- that replaces its text; the file goes after each test.
local function temp_source()
  local path = os.tmpname()
  after_each(function() os.remove(path) end)
  return path, function(text)
    local f = assert(io.open(path, "w"))
    f:write(text)
    f:close()
  end
end

-- A source file is parsed once for all the functions defined in it, and
-- parsed again when its text changes.
describe("AutoGraph's parse of a source file", function()
  local path, write = temp_source()

  it("serves every function of the file, and a changed file is read again", function()
    write("local tf = ...\n"
      .. "local function neg_abs(x)\n  if x > 0 then return -x else return x end\nend\n"
      .. "local function pos_abs(x)\n  if x < 0 then return -x else return x end\nend\n"
      .. "return neg_abs, pos_abs\n")
    local neg_abs, pos_abs = assert(loadfile(path))(tf)
    local f, g = tf.func(neg_abs), tf.func(pos_abs)
    assert.are.equal(-3.0, f(tf.constant(3.0)):numpy())
    assert.are.equal(-2.0, f(tf.constant(-2.0)):numpy())
    assert.are.equal(3.0, g(tf.constant(-3.0)):numpy())
    -- The file now holds another function, defined on other lines: its
    -- conversion comes from the new text.
    write("local tf = ...\n\n\n\n\n\n\n\n"
      .. "local function double_pos(x)\n  if x > 0 then return x * 2 else return x end\nend\n"
      .. "return double_pos\n")
    local double_pos = assert(loadfile(path))(tf)
    local h = tf.func(double_pos)
    assert.are.equal(6.0, h(tf.constant(3.0)):numpy())
    assert.are.equal(-1.0, h(tf.constant(-1.0)):numpy())
    assert.truthy(tf.autograph.to_code(double_pos):find("x * 2", 1, true))
  end)
end)

-- AutoGraph reads the traced function's own lines, not its whole file: the
-- first trace in a process costs the function's size, not the file's.
describe("AutoGraph converts only the function asked for", function()
  local path, write = temp_source()

  local parser = require("moonflow.autograph.parser")
  -- The texts handed to the parser while fn runs.
  local function parsed_during(fn)
    local seen, parse = {}, parser.parse
    parser.parse = function(text, ...)
      seen[#seen + 1] = text
      return parse(text, ...)
    end
    local ok, err = pcall(fn)
    parser.parse = parse
    assert(ok, err)
    return seen
  end

  it("parses the function's lines and none of the rest of its file", function()
    local pad = {}
    for i = 1, 50 do pad[i] = ("local function pad_%d(x) return x + %d end"):format(i, i) end
    write("local tf = ...\n" .. table.concat(pad, "\n") .. "\n"
      .. "local function sign(x)\n  if x > 0 then return x * 0 + 1 end\n  return x * 0 - 1\nend\n"
      .. table.concat(pad, "\n") .. "\nreturn sign\n")
    local sign = assert(loadfile(path))(tf)
    local f = tf.func(sign)
    local texts = parsed_during(function()
      assert.are.equal(1.0, f(tf.constant(3.0)):numpy())
      assert.are.equal(-1.0, f(tf.constant(-3.0)):numpy())
    end)
    assert.is_true(#texts >= 1)
    for _, text in ipairs(texts) do assert.is_nil(text:find("pad_", 1, true)) end
  end)

  it("finds functions that share their first or last line with other code", function()
    write(table.concat({
      "local tf = ...",
      "local t = { k = 10 }",
      "t.one = tf.func(function(x) if x > 0 then return x else return -x end end), 3 -- trailing",
      "t.two = tf.func(function(x)",
      "  if x > 0 then return x * 2 end",
      "  return x * 3 end, { name = 'two' })",
      "function t.three(x) if x > 0 then return x + 1 end return x - 1 end",
      "function t:four(x) if x > 0 then return x + self.k end return x - self.k end",
      "t.five = { function(x) return x end, function(x, y) if x > y then return x end return y end }",
      "local s = [[ function(x) ]] local function six(x) --[[ end ]]",
      "  if x > 0 then return x * 6 end return x end",
      "t.six = six",
      "t.seven = { 'function(y) return y end', tf.func(function(x) if x > 0 then return x * 7 end return x end) }",
      "local doc = [[ a long string",
      "function(y) return y end ]] t.eight = tf.func(function(x) if x > 0 then return x * 8 end return x end)",
      "return t",
    }, "\n") .. "\n")
    local t = assert(loadfile(path))(tf)
    local three, four = tf.func(t.three), tf.func(function(x) return t:four(x) end)
    local five, six = tf.func(t.five[2]), tf.func(t.six)
    assert.are.equal(2.0, t.one(tf.constant(-2.0)):numpy())
    assert.are.equal(2.0, t.one(tf.constant(2.0)):numpy())
    assert.are.equal(4.0, t.two(tf.constant(2.0)):numpy())
    assert.are.equal(-6.0, t.two(tf.constant(-2.0)):numpy())
    assert.are.equal(3.0, three(tf.constant(2.0)):numpy())
    assert.are.equal(-3.0, three(tf.constant(-2.0)):numpy())
    assert.are.equal(12.0, four(tf.constant(2.0)):numpy())
    assert.are.equal(-12.0, four(tf.constant(-2.0)):numpy())
    assert.are.equal(5.0, five(tf.constant(5.0), tf.constant(1.0)):numpy())
    assert.are.equal(4.0, five(tf.constant(2.0), tf.constant(4.0)):numpy())
    assert.are.equal(12.0, six(tf.constant(2.0)):numpy())
    assert.are.equal(-2.0, six(tf.constant(-2.0)):numpy())
    -- `function` in a string before the traced one, on the same line
    assert.are.equal(14.0, t.seven[2](tf.constant(2.0)):numpy())
    assert.are.equal(-2.0, t.seven[2](tf.constant(-2.0)):numpy())
    assert.are.equal(16.0, t.eight(tf.constant(2.0)):numpy())
    assert.are.equal(-2.0, t.eight(tf.constant(-2.0)):numpy())
    assert.truthy(tf.autograph.to_code(t.five[2]):find("ag__.if_", 1, true))
  end)
end)

-- Conditions on Lua values take the runtime's plain path: the same
-- results and errors as unconverted Lua, and no graph control flow.
describe("AutoGraph on Lua-valued conditions", function()
  it("runs a Lua `if` chain as Lua does, adding no cond to the graph", function()
    local function pick(x, n, flag)
      local out = x
      for i = 1, n do
        local k = i % 3
        if k == 1 then out = out * 2 elseif k == 2 then out = out + 1 else out = out - 3 end
      end
      if flag then out = out + 100 end
      if nil then out = out * 0 end
      return out
    end
    local f = tf.func(pick)
    local want = pick(tf.constant(1.0), 7, false):numpy()
    assert.are.equal(want, f(tf.constant(1.0), 7, false):numpy())
    assert.are.equal(want + 100, f(tf.constant(1.0), 7, true):numpy())
    local types = {}
    for _, op in ipairs(f:get_concrete_function(tf.constant(1.0), 7, false).graph:get_operations()) do
      types[op.type] = true
    end
    assert.is_nil(types.If)
    assert.is_nil(types.StatelessIf)
  end)

  it("keeps Lua's error for comparing a number with a string", function()
    local f = tf.func(function(x, s)
      if s < 1 then return x end
      return x + 1
    end)
    local ok, err = pcall(f, tf.constant(1.0), "a")
    assert.is_false(ok)
    assert.truthy(tostring(err):find("attempt to compare", 1, true), tostring(err))
  end)
end)

-- Functions whose definitions start and end on the same lines, with as
-- many parameters: debug info tells them apart by neither, and each must
-- still get its own conversion (the one its bytecode was compiled from).
describe("AutoGraph tells apart functions defined on one line", function()
  local path, write = temp_source()

  it("converts each of two functions on one line of a file as itself", function()
    write("local tf = ...\n"
      .. "local f, g = tf.func(function(x) return x + 1 end), tf.func(function(x) return x * 2 end)\n"
      .. "local p, q = function(x) if x > 0 then return x + 10 end return x end, "
      .. "function(x) if x > 0 then return x * 10 end return -x end\n"
      .. "return f, g, p, q\n")
    local f, g, p, q = assert(loadfile(path))(tf)
    assert.are.equal(4.0, f(tf.constant(3.0)):numpy())
    assert.are.equal(6.0, g(tf.constant(3.0)):numpy())
    local tp, tq = tf.func(p), tf.func(q)
    assert.are.equal(13.0, tp(tf.constant(3.0)):numpy())
    assert.are.equal(-3.0, tp(tf.constant(-3.0)):numpy())
    assert.are.equal(30.0, tq(tf.constant(3.0)):numpy())
    assert.are.equal(3.0, tq(tf.constant(-3.0)):numpy())
    assert.truthy(tf.autograph.to_code(p):find("x + 10", 1, true))
    assert.truthy(tf.autograph.to_code(q):find("x * 10", 1, true))
    assert.is_nil(tf.autograph.to_code(q):find("x + 10", 1, true))
  end)

  it("tells a function from the one it is nested in, on the same line", function()
    write("local tf = ...\n"
      .. "local outer = function(x) return function(y) if y > 0 then return y * x end return y end end\n"
      .. "return outer\n")
    local outer = assert(loadfile(path))(tf)
    local inner = tf.func(outer(tf.constant(5.0)))
    assert.are.equal(10.0, inner(tf.constant(2.0)):numpy())
    assert.are.equal(-2.0, inner(tf.constant(-2.0)):numpy())
  end)

  it("converts each of two functions on one line of a loaded string", function()
    -- (the chunk's name is its text, as load gives it)
    local chunk = assert(load("local tf = ...\n"
      .. "return tf.func(function(x) return x - 1 end), tf.func(function(x) return x / 4 end)\n"))
    local f, g = chunk(tf)
    assert.are.equal(7.0, f(tf.constant(8.0)):numpy())
    assert.are.equal(2.0, g(tf.constant(8.0)):numpy())
  end)

  it("keeps one conversion for closures of one definition", function()
    write("local tf = ...\n"
      .. "local make = function(k) return tf.func(function(x) return x * k end), tf.func(function(x) return x + k end) end\n"
      .. "return make\n")
    local make = assert(loadfile(path))(tf)
    local m2, a2 = make(2)
    local m3, a3 = make(3)
    assert.are.equal(8.0, m2(tf.constant(4.0)):numpy())
    assert.are.equal(6.0, a2(tf.constant(4.0)):numpy())
    assert.are.equal(12.0, m3(tf.constant(4.0)):numpy())
    assert.are.equal(7.0, a3(tf.constant(4.0)):numpy())
  end)
end)
