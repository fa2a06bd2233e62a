-- retrace_explain_spec.lua — why a tf.func traced again, in a line: which
-- argument paths of the closest earlier trace differ from this call's and
-- how (`y: shape (3,) -> (4,)`). The closest trace is the earlier one with
-- the fewest differing argument paths, the most recent on a tie. The same
-- text is the trace's reason (trace_info, %trace), what
-- tf.config.explain_retracing prints, and the frequent-retracing
-- warning's last sentence.

local tf = tf or require("moonflow")
local helpers = require("helpers")

local function reasons(f)
  local out = {}
  for i, cf in ipairs(f:concrete_functions()) do out[i] = cf:trace_info().reason end
  return out
end

-- Runs fn with io.stderr captured; returns what was written.
local function stderr_of(fn)
  local saved, text = io.stderr, {}
  io.stderr = { write = function(self, ...)
    for _, s in ipairs({ ... }) do text[#text + 1] = tostring(s) end
    return self
  end }
  local ok, err = pcall(fn)
  io.stderr = saved
  if not ok then error(err, 0) end
  return table.concat(text)
end

describe("a retrace's reason", function()
  it("names the argument and how it changed: shape, dtype, Lua value", function()
    local f = tf.func(function(x, y, n) return x + tf.reduce_sum(y) * n end)
    local x = tf.constant(1.0)
    f(x, tf.ones({ 3 }), 2)
    f(x, tf.ones({ 4 }), 2)
    f(x, tf.ones({ 4 }), 3)
    f(tf.constant(1), tf.ones({ 4 }, tf.int32), 3)
    assert.are.same({
      "first call",
      "trace #1 differs in y: shape (3,) -> (4,)",
      "closest earlier trace #2 (of 2) differs in n: Literal[2] -> Literal[3]",
      "closest earlier trace #3 (of 3) differs in x: dtype float32 -> int32; y: dtype float32 -> int32",
    }, reasons(f))
  end)

  it("the closest trace is the one with the fewest differing paths; ties: the most recent", function()
    local f = tf.func(function(a, b, c) return a end)
    f(1, 1, 1) -- #1
    f(1, 1, 2) -- #2: #1 differs in c
    f(1, 1, 3) -- #3: #1 and #2 differ in c alone: #2, the more recent
    f(5, 5, 5) -- #4
    f(1, 1, 7) -- #5: #4 differs in a, b and c; #3 in c alone
    local r = reasons(f)
    assert.are.equal("trace #1 differs in c: Literal[1] -> Literal[2]", r[2])
    assert.are.equal("closest earlier trace #2 (of 2) differs in c: Literal[2] -> Literal[3]", r[3])
    assert.are.equal("closest earlier trace #3 (of 4) differs in c: Literal[3] -> Literal[7]", r[5])
  end)

  it("names paths inside tables: opts[\"k\"], xs[2], keys that appear or go", function()
    local f = tf.func(function(xs, opts) return xs[1] end)
    local t = tf.constant(1)
    f({ t, 1 }, { k = "a" })
    f({ t, 2 }, { k = "a" })
    f({ t, 2 }, { k = "b" })
    f({ t, 2 }, { k = "b", m = true })
    f({ t, 2, 3 }, { k = "b", m = true })
    local r = reasons(f)
    assert.are.equal("trace #1 differs in xs[2]: Literal[1] -> Literal[2]", r[2])
    assert.are.equal("closest earlier trace #2 (of 2) differs in opts[\"k\"]: Literal['a'] -> Literal['b']", r[3])
    assert.are.equal("closest earlier trace #3 (of 3) differs in opts[\"m\"]: absent -> Literal[true]", r[4])
    assert.are.equal("closest earlier trace #4 (of 4) differs in xs[3]: absent -> Literal[3]", r[5])
  end)

  it("objects, variables and a change of kind", function()
    local f = tf.func(function(m, v) return v + 0.0 end)
    local M = {}
    local a, b = setmetatable({}, M), setmetatable({}, M)
    local v1 = tf.Variable(1.0)
    f(a, v1)
    f(b, v1)
    f(b, tf.Variable({ 1.0, 2.0 }))
    f(b, tf.constant(1.0))
    local r = reasons(f)
    assert.truthy(r[2]:find("^trace #1 differs in m: a different object %(table: 0x%x+ %-> table: 0x%x+%)$"), r[2])
    assert.are.equal("closest earlier trace #2 (of 2) differs in v: shape () -> (2,)", r[3])
    assert.are.equal("closest earlier trace #3 (of 3) differs in v: "
      .. "VariableSpec(shape=(2,), dtype=tf.float32, trainable=True, alias_id=0) -> "
      .. "TensorSpec(shape=(), dtype=tf.float32, name=None)", r[4])
  end)

  it("stays short however many traces came before", function()
    local f = tf.func(function(x) return x end)
    for i = 1, 40 do f(i) end
    local why = f:concrete_functions()[40]:trace_info().reason
    assert.are.equal("closest earlier trace #39 (of 39) differs in x: Literal[39] -> Literal[40]", why)
  end)

  it("lists three paths at most", function()
    local f = tf.func(function(a, b, c, d, e) return a end)
    f(1, 1, 1, 1, 1)
    f(2, 2, 2, 2, 2)
    assert.are.equal("trace #1 differs in a: Literal[1] -> Literal[2]; b: Literal[1] -> Literal[2]; "
      .. "c: Literal[1] -> Literal[2]; and 2 more", reasons(f)[2])
  end)

  it("tf.config.explain_retracing prints it", function()
    local g = tf.func(function(x) return x end)
    local text = stderr_of(function()
      tf.config.explain_retracing(true)
      local ok, err = pcall(function()
        g(tf.constant(1))
        g(tf.constant(1.5))
      end)
      tf.config.explain_retracing(false)
      assert(ok, err)
    end)
    assert.are.equal("tf.func 'g' retraced (trace #2): trace #1 differs in x: dtype int32 -> float32\n", text)
  end)

  it("%trace shows it", function()
    local g = tf.func(function(x) return x end)
    g(tf.zeros({ 2 }))
    g(tf.zeros({ 3 }))
    rawset(_G, "retrace_explain_g", g)
    local lines = helpers.capture(function() require("moonflow.session.magics.trace").run("retrace_explain_g") end)
    rawset(_G, "retrace_explain_g", nil)
    local text = table.concat(lines, "\n")
    assert.truthy(text:find("   why: first call\n", 1, true), text)
    assert.truthy(text:find("   why: trace #1 differs in x: shape (2,) -> (3,)\n", 1, true), text)
  end)

  it("the frequent-retracing warning ends with the latest retrace's reason", function()
    local f = tf.func(function(x) return x end)
    local warning = stderr_of(function() for i = 1, 5 do f(i) end end)
    assert.truthy(warning:find("^WARNING: 5 out of the last 5 calls to f triggered tf.func retracing%."), warning)
    assert.truthy(warning:find(" The latest retrace: closest earlier trace #4 (of 4) differs in x: "
      .. "Literal[4] -> Literal[5].\n", 1, true), warning)
  end)

  it("get_concrete_function's traces say so", function()
    local f = tf.func(function(x) return x end)
    f:get_concrete_function(tf.TensorSpec({ 2 }, tf.float32))
    f:get_concrete_function(tf.TensorSpec({ 2 }, tf.int32))
    assert.are.equal("get_concrete_function: trace #1 differs in x: dtype float32 -> int32", reasons(f)[2])
  end)
end)
