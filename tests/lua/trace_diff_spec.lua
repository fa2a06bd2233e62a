-- trace_diff_spec.lua — tf.debug.trace_diff and %trace diff: a golden set
-- of retrace causes (shapes, dtypes, Lua values, table lengths and keys,
-- variables, objects and functions passed in) where the diff names the
-- exact argument path, the nodes added, removed and changed, and a fix.

local C = tf.constant

local Obj = {}
Obj.__index = Obj
local o1, o2 = setmetatable({ k = 1 }, Obj), setmetatable({ k = 2 }, Obj)
local v32, v64 = tf.Variable(1.0), tf.Variable(tf.constant(1.0, tf.float64))
local va, vb = tf.Variable({ 1.0, 2.0 }), tf.Variable({ 1.0, 2.0, 3.0 })
local vc = tf.Variable({ 5.0, 6.0 })
local double = function(x) return x * 2 end
local plus_two = function(x)
  return x + 2
end

-- {cause, fn, first args, second args, signature lines, {added}, {removed}, {changed}, fix word}
local CASES = {
  { "a tensor's shape", function(x) return x * 2 end, { C({ 1.0, 2.0, 3.0 }) }, { C({ 1.0, 2.0, 3.0, 4.0 }) },
    { "x: shape (3,) -> (4,)" }, {}, {}, { "x", "mul", "Identity" }, "input_signature" },
  { "a tensor's dtype", function(x) return x + x end, { C(1.0) }, { C(1) },
    { "x: dtype float32 -> int32" }, {}, {}, { "x", "add", "Identity" }, "tf.cast" },
  { "a tensor's rank", function(x) return x + 1 end, { C(1.0) }, { C({ 1.0, 2.0 }) },
    { "x: shape () -> (2,)" }, {}, {}, { "x", "add", "Identity" }, "reduce_retracing" },
  { "a Lua number", function(x, n) return x * n end, { C(1.0), 2 }, { C(1.0), 3 },
    { "n: Literal[2] -> Literal[3]" }, {}, {}, { "mul/y" }, "pass a tensor" },
  { "a Lua boolean taking another branch", function(x, flag)
      if flag then return x * 2 else return x + 1 end
    end, { C(1.0), true }, { C(1.0), false },
    { "flag: Literal[true] -> Literal[false]" }, { "add/y", "add" }, { "mul/y", "mul" }, { "Identity" }, "pass a tensor" },
  { "a Lua string", function(x, s) return x * #s end, { C(1.0), "ab" }, { C(1.0), "abc" },
    { "s: Literal['ab'] -> Literal['abc']" }, {}, {}, { "mul/y" }, "pass a tensor" },
  { "a table's length", function(t)
      local s = t[1]
      for i = 2, #t do s = s + t[i] end
      return s
    end, { { C(1.0), C(2.0) } }, { { C(1.0), C(2.0), C(3.0) } },
    { "t[3]: absent -> TensorSpec(shape=(), dtype=tf.float32, name=None)" }, { "t_3", "add_1" }, {}, { "Identity" },
    "structure" },
  { "a table's keys", function(t) return t.a + (t.b or 0) end, { { a = C(1.0) } }, { { a = C(1.0), b = C(2.0) } },
    { 't["b"]: absent -> TensorSpec(shape=(), dtype=tf.float32, name=None)' }, { "t_b" }, { "add/y" }, { "add" },
    "structure" },
  { "a shape under a table key", function(x, y) return x + tf.reduce_sum(y.hi) end,
    { C({ 1.0, 2.0, 3.0 }), { hi = C({ 1.0, 2.0, 3.0 }) } }, { C({ 1.0, 2.0, 3.0 }), { hi = C({ 1.0, 2.0, 3.0, 4.0 }) } },
    { 'y["hi"]: shape (3,) -> (4,)' }, {}, {}, { "y_hi" }, "input_signature", true },
  { "a tensor becoming a number", function(x) return tf.add(x, 1.0) end, { C(2.0) }, { 2.0 },
    { "x: TensorSpec(shape=(), dtype=tf.float32, name=None) -> Literal[2.0]" }, { "Add/x" }, { "x" }, { "Add" },
    "pass a tensor" },
  { "an argument left out, then given", function(a, b)
      if b then return a + b end
      return a
    end, { C(1.0) }, { C(1.0), C(2.0) },
    { "b: Literal[None] -> TensorSpec(shape=(), dtype=tf.float32, name=None)" }, { "b", "add" }, {}, { "Identity" },
    "pass a tensor" },
  { "a variable's dtype", function(v) return v:read_value() * 2 end, { v32 }, { v64 },
    { "v: dtype float32 -> float64" }, {}, {}, { "Read/ReadVariableOp", "mul/y", "mul" }, "tf.cast" },
  { "a variable's shape", function(v) return v:read_value() * 2 end, { va }, { vb },
    { "v: shape (2,) -> (3,)" }, {}, {}, { "Read/ReadVariableOp", "mul" }, "input_signature" },
  { "two variables that were one", function(a, b) return a:read_value() + b:read_value() end, { va, va }, { va, vc },
    { "b: alias_id 0 -> 1" }, {}, {}, {}, "variable" },
  { "an integer becoming a float", function(x, n) return x * n end, { C(1.0), 2 }, { C(1.0), 2.5 },
    { "n: Literal[2] -> Literal[2.5]" }, {}, {}, { "mul/y" }, "pass a tensor" },
  { "a different object", function(x, o) return x * o.k end, { C(1.0), o1 }, { C(1.0), o2 },
    { "o: a different object (" }, {}, {}, { "mul/y" }, "object" },
  { "a 2-D shape", function(x) return tf.reduce_sum(x, 0) end, { C({ { 1.0, 2.0, 3.0 }, { 4.0, 5.0, 6.0 } }) },
    { C({ { 1.0, 2.0 }, { 3.0, 4.0 } }) },
    { "x: shape (2, 3) -> (2, 2)" }, {}, {}, { "x", "Sum", "Identity" }, "input_signature" },
  { "the second of three arguments", function(a, b, c) return a + b * c end, { C(1.0), C(2.0), C(3.0) },
    { C(1.0), C({ 2.0, 3.0 }), C(3.0) },
    { "b: shape () -> (2,)" }, {}, {}, { "b", "mul", "add", "Identity" }, "input_signature" },
  { "a table in a list", function(t) return t[1].w * 2 end, { { { w = C({ 1.0 }) } } }, { { { w = C({ 1.0, 2.0 }) } } },
    { 't[1]["w"]: shape (1,) -> (2,)' }, {}, {}, { "t_1_w", "mul", "Identity" }, "input_signature" },
  { "an integer dtype", function(x) return x * 2 end, { C(1) }, { C(1, tf.int64) },
    { "x: dtype int32 -> int64" }, {}, {}, { "x", "mul/y", "mul", "Identity" }, "tf.cast" },
  { "a number becoming a string tensor", function(x) return tf.identity(x) end, { C(1.0) }, { C("a") },
    { "x: dtype float32 -> string" }, {}, {}, { "x", "Identity", "Identity_1" }, "tf.cast" },
  { "a different Lua function passed in", function(x, g) return g(x) end, { C(1.0), double }, { C(1.0), plus_two },
    { "g: a different object (" }, { "add/y", "add" }, { "mul/y", "mul" }, { "Identity" }, "object" },
}

local function names(list)
  local out = {}
  for _, n in ipairs(list) do out[#out + 1] = n.name end
  table.sort(out)
  return out
end

local function sorted(t)
  local c = { table.unpack(t) }
  table.sort(c)
  return c
end

describe("tf.debug.trace_diff", function()
  for _, case in ipairs(CASES) do
    it("names the path and the nodes: " .. case[1], function()
      local f = tf.func(case[2])
      f(table.unpack(case[3], 1, #case[3]))
      f(table.unpack(case[4], 1, #case[4]))
      local d = tf.debug.trace_diff(f)
      assert.are.equal(1, d.old)
      assert.are.equal(2, d.new)
      if case[10] then
        -- x keeps its shape; only y["hi"] differs
        assert.are.equal(1, #d.signature)
      end
      assert.are.equal(#case[5], #d.signature, table.concat(d.signature, "; "))
      for k, want in ipairs(case[5]) do
        assert.are.equal(want, d.signature[k]:sub(1, #want))
      end
      assert.are.same(sorted(case[6]), names(d.added))
      assert.are.same(sorted(case[7]), names(d.removed))
      local changed = {}
      for _, c in ipairs(d.changed) do changed[#changed + 1] = c.name end
      table.sort(changed)
      for _, want in ipairs(case[8]) do
        local found = false
        for _, c in ipairs(changed) do found = found or c == want end
        assert.is_true(found, want .. " not among the changed nodes: " .. table.concat(changed, ", "))
      end
      local text = tostring(d)
      assert.truthy(text:find(case[9], 1, true), text)
      assert.truthy(text:find("  " .. d.signature[1], 1, true), text)
    end)
  end

  it("has at least 20 causes", function() assert.is_true(#CASES >= 20) end)

  it("prints +, - and ~ lines and compares chosen traces", function()
    local f = tf.func(function(x, n) return x * n end)
    f(C({ 1.0, 2.0 }), 2)
    f(C({ 1.0, 2.0, 3.0 }), 2)
    f(C({ 1.0, 2.0 }), 5)
    -- The last trace's closest earlier one is #1 (one path differs).
    local d = tf.debug.trace_diff(f)
    assert.are.equal(1, d.old)
    assert.are.equal(3, d.new)
    assert.are.same({ "n: Literal[2] -> Literal[5]" }, d.signature)
    assert.truthy(tostring(d):find("\n~ mul/y = Const: value 2 -> 5\n", 1, true), tostring(d))
    local d12 = tf.debug.trace_diff(f, 1, 2)
    assert.are.same({ "x: shape (2,) -> (3,)" }, d12.signature)
    assert.truthy(d12:dot():find('label="mul\\nMul\\nchanged\\nshape (2,) -> (3,)"', 1, true), d12:dot())
  end)

  it("refuses what it cannot compare", function()
    local f = tf.func(function(x) return x end)
    local ok, err = pcall(tf.debug.trace_diff, f)
    assert.is_false(ok)
    assert.are.equal("ValueError", err.type)
    f(C(1.0))
    f(C(1))
    ok, err = pcall(tf.debug.trace_diff, f, 1, 7)
    assert.are.equal("ValueError", err.type)
    assert.truthy(err.message:find("no trace #7", 1, true))
    ok, err = pcall(tf.debug.trace_diff, 3)
    assert.are.equal("TypeError", err.type)
  end)
end)
