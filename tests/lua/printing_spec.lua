-- printing_spec.lua — tf.print's output format and options (captured via
-- output_stream), and API.md "Display and help": every public function has
-- a docstring that tf.help returns.
local tf = tf or require("moonflow")
local H = require("helpers")

local function printed(...)
  return (H.capture_print(...))
end

describe("tf.print", function()
  it("prints strings and tensors separated by spaces, ending with a newline", function()
    assert.are.equal("Executing with 10\n", printed("Executing with", tf.constant(10)))
    assert.are.equal("Executing with num_steps =  10\n", printed("Executing with num_steps = ", tf.constant(10)))
    assert.are.equal("a b c\n", printed("a", "b", "c"))
  end)

  it("prints tensors in TF's summarised form", function()
    assert.are.equal("[1 100 100 3]\n", printed(tf.constant({ 1, 100, 100, 3 })))
    assert.are.equal("[[1 2]\n [3 4]]\n", printed(tf.constant({ { 1, 2 }, { 3, 4 } })))
    assert.are.equal("2.5\n", printed(tf.constant(2.5)))
    assert.are.equal("[1.5 2]\n", printed(tf.constant({ 1.5, 2.0 })))
    assert.are.equal("[0 1 2 ... 7 8 9]\n", printed(tf.range(10)))
    assert.are.equal("[]\n", printed(tf.zeros({ 0 })))
  end)

  it("prints booleans and strings as TF does", function()
    assert.are.equal("[1 0]\n", printed(tf.constant({ true, false })))
    assert.are.equal("hi\n", printed(tf.constant("hi")))
    assert.are.equal("x [\"a\" \"b\"]\n", printed("x", tf.constant({ "a", "b" })))
  end)

  it("prints Lua values with tostring and Lua lists as [a, b]", function()
    assert.are.equal("1 2.5 true nil\n", printed(1, 2.5, true, "nil"))
    assert.are.equal("[1, 2]\n", printed({ tf.constant(1), 2 }))
  end)

  it("honours summarize", function()
    assert.are.equal("[0 1 2 3 4 5 6 7 8 9]\n", (H.capture_print_opts({ summarize = -1 }, tf.range(10))))
    assert.are.equal("[0 ... 9]\n", (H.capture_print_opts({ summarize = 1 }, tf.range(10))))
    assert.are.equal("[[0 ... 4]\n ...\n [20 ... 24]]\n",
      (H.capture_print_opts({ summarize = 1 }, tf.reshape(tf.range(25), { 5, 5 }))))
  end)

  it("honours sep and end", function()
    local chunks = {}
    tf.print("a", "b", { output_stream = function(s) chunks[#chunks + 1] = s end, sep = ",", ["end"] = "!" })
    assert.are.equal("a,b!", table.concat(chunks))
    chunks = {}
    tf.print(tf.constant(1), tf.constant(2), { output_stream = function(s) chunks[#chunks + 1] = s end, sep = "" })
    assert.are.equal("12\n", table.concat(chunks))
  end)

  it("keeps literal braces in the text", function()
    assert.are.equal("{} 3 {x}\n", printed("{}", tf.constant(3), "{x}"))
  end)

  it("writes to a Lua file given as output_stream, and to io.stdout by default", function()
    local path = os.tmpname()
    local f = assert(io.open(path, "w"))
    tf.print("to file", tf.constant({ 1, 2 }), { output_stream = f })
    f:close()
    local rf = assert(io.open(path, "r"))
    local text = rf:read("a")
    rf:close()
    os.remove(path)
    assert.are.equal("to file [1 2]\n", text)
    -- the default stream is io.stdout: capture it in a child process
    local out, status = H.run_lua('tf.print("Executing with", tf.constant(10))')
    assert.are.equal(0, status, out)
    assert.are.equal("Executing with 10\n", out)
  end)

  it("returns nothing", function()
    assert.are.equal(0, select("#", tf.print("x", { output_stream = function() end })))
  end)
end)

describe("tf.print of tables", function()
  it("shows strings inside lists and dicts quoted, as Python's repr", function()
    assert.are.equal("['a', 1] {'k': 'v'}\n", printed({ "a", 1 }, { k = "v" }))
  end)

  it("prints a table that contains itself as [...] or {...}", function()
    local t = { a = 1 }
    t.me = t
    local l = { 1 }
    l[2] = l
    assert.are.equal("{'a': 1, 'me': {...}} [1, [...]]\n", printed(t, l))
  end)
end)

describe("tf.help", function()
  local FALLBACK = "A Lua function without a docstring."
  local namespaces = { "tf", "math", "nn", "image", "strings", "random", "config", "errors" }

  it("returns the signature and description of a function", function()
    local h = tf.help(tf.range)
    assert.are.equal("string", type(h))
    assert.is_truthy(h:find("tf.range", 1, true), h)
    assert.is_truthy(h:find("limit", 1, true), h)
    assert.is_truthy(tf.help(tf.nn.conv2d):find("tf.nn.conv2d", 1, true))
  end)

  it("says when a function has no docstring", function()
    assert.are.equal(FALLBACK, tf.help(function() end))
  end)

  it("documents every public function of tf and its namespaces", function()
    local missing, count = {}, 0
    for _, ns in ipairs(namespaces) do
      local t = ns == "tf" and tf or tf[ns]
      assert.are.equal("table", type(t), "tf." .. ns .. " is missing")
      for k, v in pairs(t) do
        if type(v) == "function" and type(k) == "string" and k:sub(1, 1) ~= "_" then
          count = count + 1
          local ok, h = pcall(tf.help, v)
          local path = (ns == "tf" and "tf." or "tf." .. ns .. ".") .. k
          if not ok then
            missing[#missing + 1] = path .. " (tf.help raised " .. tostring(h) .. ")"
          elseif type(h) ~= "string" or h:match("^%s*$") or h == FALLBACK then
            missing[#missing + 1] = path
          end
        end
      end
    end
    table.sort(missing)
    assert.is_true(count > 100, "only " .. count .. " functions found")
    assert.are.same({}, missing)
  end)

  it("documents the tensor methods", function()
    local x = tf.constant({ 1, 2 })
    for _, m in ipairs({ "numpy", "lt", "le", "gt", "ge", "eq", "ne" }) do
      local h = tf.help(x[m])
      assert.are_not.equal(FALLBACK, h, "x:" .. m)
    end
    local v = tf.Variable(1)
    for _, m in ipairs({ "assign", "assign_add", "assign_sub", "read_value", "value", "numpy" }) do
      assert.are_not.equal(FALLBACK, tf.help(v[m]), "v:" .. m)
    end
  end)
end)
