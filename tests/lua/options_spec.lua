-- options_spec.lua — issue 18 "Options and arguments" and issue 11's "every TF
-- keyword argument works in the trailing options table": one options checker,
-- generated from each public function's declared options (doc record's
-- `options`); unknown keys, non-tables in the options slot, TF's positional
-- arguments given by keyword, and tf.constant's shape.
local tf = tf or require("moonflow")
local H = require("helpers")
local strict = require("moonflow.strict")

local function err_of(fn, ...)
  local ok, e = pcall(fn, ...)
  assert.is_false(ok, "expected an error")
  return e
end

-- Every public callable reachable from tf with declared options.
local function declared()
  local out, seen = {}, {}
  local function walk(t, path, depth)
    if seen[t] or depth > 4 then return end
    seen[t] = true
    for k, v in pairs(t) do
      if type(k) == "string" and k:sub(1, 1) ~= "_" then
        local d = (type(v) == "function" or type(v) == "table") and tf.doc.get(v)
        if d and d.options then out[#out + 1] = { path .. "." .. k, v, d.options } end
        local namespace = type(v) == "table" and (getmetatable(v) == nil or strict.is_namespace(v))
        if namespace then walk(v, path .. "." .. k, depth + 1) end
      end
    end
  end
  walk(tf, "tf", 0)
  table.sort(out, function(a, b) return a[1] < b[1] end)
  return out
end

local function all_names(spec)
  local names = {}
  for _, n in ipairs(spec.positional or {}) do names[#names + 1] = n end
  for _, n in ipairs(spec) do names[#names + 1] = n end
  return names
end

-- A one-edit typo of a name: two neighbouring letters swapped (or the last doubled).
local function typo(name)
  for i = 1, #name - 1 do
    local a, b = name:sub(i, i), name:sub(i + 1, i + 1)
    if a ~= b then return name:sub(1, i - 1) .. b .. a .. name:sub(i + 2) end
  end
  return name .. name:sub(-1)
end

describe("the options checker", function()
  local x = tf.constant({ { 1.0, 2.0 }, { 3.0, 4.0 } })

  it("refuses a mistyped key, naming it, the accepted ones and a suggestion", function()
    local e = err_of(tf.matmul, x, x, { tranpose_b = true })
    assert.equal("TypeError", e.type)
    assert.truthy(e.message:find("tranpose_b", 1, true))
    assert.truthy(e.message:find("did you mean 'transpose_b'", 1, true))
    assert.truthy(e.message:find("transpose_a, transpose_b", 1, true))
  end)

  it("covers every op, layer, optimizer and tf.func, tape, variable, loop and print", function()
    local names = {}
    for _, d in ipairs(declared()) do names[d[1]] = true end
    for _, n in ipairs({ "tf.matmul", "tf.reduce_sum", "tf.concat", "tf.gather", "tf.one_hot", "tf.constant",
      "tf.func", "tf.GradientTape", "tf.Variable", "tf.TensorArray", "tf.while_loop", "tf.cond", "tf.print",
      "tf.random.normal", "tf.random.uniform", "tf.keras.layers.Dense", "tf.keras.layers.Conv2D",
      "tf.keras.optimizers.SGD", "tf.keras.optimizers.Adam", "tf.nn.conv2d", "tf.range", "tf.add",
      "tf.keras.losses.SparseCategoricalCrossentropy" }) do
      assert.is_true(names[n], n .. " declares its options")
    end
  end)

  it("sweep: every declared key of every public function, mistyped once, is an error naming it", function()
    local silent, count = {}, 0
    for _, d in ipairs(declared()) do
      local path, fn, spec = d[1], d[2], d[3]
      local names = all_names(spec)
      for _, name in ipairs(names) do
        local bad = typo(name)
        local opts = { [bad] = true }
        -- tf.print prints a last table naming none of its options.
        if spec.vararg == "some" then opts[names[name == names[1] and 2 or 1]] = true end
        local at = spec.vararg and 1 or (spec.required or 0) + #(spec.positional or {}) + 1
        -- The options table in its last slot, and (where TF's positional
        -- arguments may be left out) right after the required arguments.
        local from = spec.vararg and 1 or (spec.required or 0) + 1
        for _, slot in ipairs(from < at and { at, from } or { at }) do
          local call = { [slot] = opts }
          local ok, e = pcall(fn, table.unpack(call, 1, slot))
          count = count + 1
          if ok or type(e) ~= "table" or not tostring(e.message):find(bad, 1, true)
            or not tostring(e.message):find("'" .. name .. "'", 1, true) then
            silent[#silent + 1] = path .. " {" .. bad .. "} at " .. slot .. ": " .. tostring(ok and "no error" or e)
          end
        end
      end
    end
    assert.is_true(count > 150, "swept " .. count .. " keys")
    assert.same({}, silent)
  end)

  it("static: every declared key is read by its function's body (or the helpers it names)", function()
    local unread = {}
    local cache = {}
    local function body(fn)
      local info = debug.getinfo(fn, "S")
      local src = info.source:sub(1, 1) == "@" and info.source:sub(2)
      if not src then return "" end
      if not cache[src] then
        local lines, f = {}, assert(io.open(src))
        for l in f:lines() do lines[#lines + 1] = l end
        f:close()
        cache[src] = lines
      end
      return table.concat(cache[src], "\n", info.linedefined, info.lastlinedefined)
    end
    for _, d in ipairs(declared()) do
      local spec = d[3]
      local text = body(spec.impl)
      for _, h in ipairs(spec.via or {}) do text = text .. "\n" .. body(h) end
      for _, name in ipairs(all_names(spec)) do
        if not text:find("%f[%w_]" .. name .. "%f[^%w_]") then unread[#unread + 1] = d[1] .. "." .. name end
      end
    end
    assert.same({}, unread)
  end)

  it("a non-table in the options slot is a TypeError saying what goes there", function()
    local a = tf.constant({ { 1.0 } })
    for _, call in ipairs({
      function() return tf.GradientTape(true) end,
      function() return tf.matmul(a, a, true) end,
      function() return tf.keras.layers.Conv2D(2, 3, 1) end,
      function() return tf.add(a, a, 3) end,
      function() return tf.func(function(v) return v end, true) end,
    }) do
      local e = err_of(call)
      assert.equal("TypeError", e.type)
      assert.truthy(e.message:find("options table", 1, true), e.message)
    end
  end)

  it("takes TF's positional arguments positionally", function()
    local opt = tf.keras.optimizers.SGD(0.1)
    assert.equal(0.1, opt.learning_rate)
    assert.equal(0.5, tf.keras.optimizers.Adam(0.5).learning_rate)
    local c = tf.keras.layers.Conv2D(2, 3)
    assert.equal(2, c.filters)
    assert.same({ 3, 3 }, c.kernel_size)
    assert.equal(4, tf.keras.layers.Dense(4).units)
    H.tensor(tf.reduce_sum(x, 1, true), tf.float32, { 2, 1 }, { { 3.0 }, { 7.0 } })
  end)

  it("takes TF's positional arguments by keyword in the options table", function()
    local v = tf.constant({ 1, 2 })
    H.tensor(tf.concat({ v, v }, { axis = 0 }), tf.int32, { 4 }, { 1, 2, 1, 2 })
    H.tensor(tf.reduce_sum(x, { axis = 1 }), tf.float32, { 2 }, { 3.0, 7.0 })
    H.tensor(tf.reduce_sum(x, { axis = 1, keepdims = true }), tf.float32, { 2, 1 }, { { 3.0 }, { 7.0 } })
    H.tensor(tf.gather(x, { 1 }, { axis = 1 }), tf.float32, { 2, 1 }, { { 2.0 }, { 4.0 } })
    H.tensor(tf.one_hot({ 0, 2 }, { depth = 3 }), tf.float32, { 2, 3 }, { { 1, 0, 0 }, { 0, 0, 1 } })
    H.tensor(tf.expand_dims(v, { axis = 0 }), tf.int32, { 1, 2 }, { { 1, 2 } })
    H.tensor(tf.cast(v, { dtype = tf.float32 }), tf.float32, { 2 }, { 1.0, 2.0 })
    H.tensor(tf.reshape(v, { shape = { 2, 1 } }), tf.int32, { 2, 1 }, { { 1 }, { 2 } })
    H.tensor(tf.zeros({ 2 }, { dtype = tf.int32 }), tf.int32, { 2 }, { 0, 0 })
    H.tensor(tf.matmul(x, x, { transpose_b = true }), tf.float32, { 2, 2 }, { { 5.0, 11.0 }, { 11.0, 25.0 } })
    H.tensor(tf.argmax(x, { axis = 1 }), tf.int64, { 2 }, { 1, 1 })
    H.tensor(tf.tile(v, { multiples = { 2 } }), tf.int32, { 4 }, { 1, 2, 1, 2 })
    local e = err_of(tf.reduce_sum, x, 1, { axis = 0 })
    assert.equal("TypeError", e.type)
    assert.truthy(e.message:find("multiple values for argument 'axis'", 1, true))
    assert.equal(0.25, tf.keras.optimizers.SGD({ learning_rate = 0.25 }).learning_rate)
    assert.equal(5, tf.keras.layers.Dense({ units = 5 }).units)
  end)
end)

describe("tf.constant(value, dtype, shape)", function()
  it("broadcasts a scalar to the shape, positionally and as {shape=}", function()
    H.tensor(tf.constant(7, nil, { 2, 3 }), tf.int32, { 2, 3 }, { { 7, 7, 7 }, { 7, 7, 7 } })
    H.tensor(tf.constant(1.5, tf.float32, { 2 }), tf.float32, { 2 }, { 1.5, 1.5 })
    H.tensor(tf.constant(0, { shape = { 3 } }), tf.int32, { 3 }, { 0, 0, 0 })
  end)

  it("reshapes a value of the right size", function()
    H.tensor(tf.constant({ 1, 2, 3, 4 }, nil, { 2, 2 }), tf.int32, { 2, 2 }, { { 1, 2 }, { 3, 4 } })
  end)

  it("raises TF's error when the size does not fit", function()
    local e = err_of(tf.constant, { 1, 2, 3 }, nil, { 2, 2 })
    assert.equal("TypeError", e.type)
    assert.truthy(e.message:find("Eager execution of tf.constant with unsupported shape", 1, true), e.message)
    assert.truthy(e.message:find("(converted from [1, 2, 3]) has 3 elements, but got `shape` (2, 2) with 4 elements",
      1, true), e.message)
  end)

  it("honours the shape inside tf.func, for Lua values and traced tensors", function()
    local f = tf.func(function(x) return tf.constant(x, nil, { 2, 1 }) + tf.constant(3.0, tf.float32, { 2 }) end)
    H.tensor(f(tf.constant({ 1.0, 2.0 })), tf.float32, { 2, 2 }, { { 4.0, 4.0 }, { 5.0, 5.0 } })
  end)
end)

describe("declared option types", function()
  it("are checked when given", function()
    local x = tf.ones({ 2, 2 })
    local e = err_of(tf.matmul, x, x, { transpose_b = 1 })
    assert.equal("TypeError", e.type)
    assert.truthy(e.message:find("option 'transpose_b' must be a boolean, got a number", 1, true), e.message)
    e = err_of(tf.GradientTape, { persistent = "yes" })
    assert.truthy(e.message:find("option 'persistent' must be a boolean", 1, true), e.message)
  end)
end)

describe("shape_invariants of tf.while_loop", function()
  it("let a loop variable change shape inside tf.func (the option used to be ignored)", function()
    local f = tf.func(function(x)
      return tf.while_loop(function(v) return tf.size(v) < 8 end, function(v) return tf.concat({ v, v }, 0) end,
        { x }, { shape_invariants = { { tf.None } } })
    end)
    H.tensor(f(tf.constant({ 1, 2 })), tf.int32, { 8 }, { 1, 2, 1, 2, 1, 2, 1, 2 })
  end)
end)

describe("variable methods", function()
  it("check their options too", function()
    local v = tf.Variable(1.0)
    local e = err_of(v.assign_add, v, 1.0, { nmae = "x" })
    assert.equal("TypeError", e.type)
    assert.truthy(e.message:find("did you mean 'name'", 1, true), e.message)
    assert.equal(3.0, v:assign_add(2.0, { name = "add" }):numpy())
  end)

  it("tape:gradient and tape:jacobian refuse mistyped keys and keep TF's", function()
    local x = tf.constant(1.0)
    local tape = tf.GradientTape({ persistent = true })
    tape:watch(x)
    local y = x * 2
    tape:stop()
    local ok, e = pcall(tape.gradient, tape, y, x, { unconected_gradients = "zero" })
    assert.is_false(ok)
    assert.equal("TypeError", e.type)
    assert.truthy(e.message:find("did you mean 'unconnected_gradients'", 1, true), e.message)
    ok, e = pcall(tape.jacobian, tape, y, x, { parallel_iteration = 2 })
    assert.is_false(ok)
    assert.truthy(e.message:find("did you mean 'parallel_iterations'", 1, true), e.message)
    assert.equal(8.0, tape:gradient(y, x, { output_gradients = 4.0 }):numpy())
    assert.equal(6.0, tape:gradient(y, x, 3.0):numpy())
    assert.equal(0.0, tape:gradient(y, tf.constant(5.0), { unconnected_gradients = "zero" }):numpy())
    assert.equal(2.0, tape:jacobian(y, x, { parallel_iterations = 2 }):numpy())
  end)
end)
