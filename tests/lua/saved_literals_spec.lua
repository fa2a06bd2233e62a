-- saved_literals_spec.lua — tf.saved_model.save keeps the Lua-value parts
-- of each trace's input signature (TF's structured_input_signature keeps
-- Python values): a loaded function accepts the same Lua values again
-- (equal values select that trace, tensors are matched by spec) and lists
-- its options with their values when nothing matches, as TF's
-- "Could not find matching concrete function" ValueError. A tf.func of a
-- module never traced is saved with no trace (TF: "Found untraced
-- functions ... will not be directly callable"), and calling it after
-- loading is TF's "Found zero restored functions" ValueError.
local tf = tf or require("moonflow")
local helpers = require("helpers")
local sm = require("moonflow.io.saved_model")

local function tmpdir()
  local d = os.tmpname()
  os.remove(d)
  return d
end

local function rm(dir) os.execute("rm -rf '" .. dir .. "'") end

local function err_of(f, ...)
  local ok, e = pcall(f, ...)
  assert.is_false(ok, "expected an error")
  return e
end

local function saved_json(dir)
  local f = assert(io.open(dir .. "/saved_model.json"))
  local text = f:read("a")
  f:close()
  return text
end

describe("tf.saved_model.save keeps Lua-value arguments", function()
  it("a module's tf.func traced on nested Lua lists: the loaded one takes the same lists", function()
    local M = tf.Module:extend("M")
    function M:init() self.w = tf.Variable(2.0, { name = "w" }) end
    M.__call = tf.func(function(self, x) return tf.constant(x) * self.w end)
    local m = M()
    local r1 = m({ { 2.0, 2.0, 2.0 } })
    local r2 = m({ { { 1.0, 2.0 }, { 3.0, 4.0 } } })
    local dir = tmpdir()
    sm.save(m, dir)
    local loaded = sm.load(dir)
    assert.is_truthy(saved_json(dir):find('"version": 2', 1, true))
    rm(dir)
    assert.are.same(r1:numpy(), loaded({ { 2.0, 2.0, 2.0 } }):numpy())
    assert.are.same(r2:numpy(), loaded({ { { 1.0, 2.0 }, { 3.0, 4.0 } } }):numpy())
    assert.are.same(r1:numpy(), loaded.__call({ { 2.0, 2.0, 2.0 } }):numpy())
    -- integers equal to the floats traced select that trace too (Lua's 2 == 2.0, Python's)
    assert.are.same(r1:numpy(), loaded({ { 2, 2, 2 } }):numpy())
  end)

  it("other values: TF's ValueError listing the options with their values", function()
    local f = tf.func(function(x, scale, name) return tf.constant(x) * scale end)
    f({ 1.0, 2.0 }, 3, "a")
    f({ 1.0 }, 0.5, "b")
    local dir = tmpdir()
    sm.save(f, dir)
    local loaded = sm.load(dir)
    rm(dir)
    local name = f.name
    helpers.tensor(loaded[name]({ 1.0, 2.0 }, 3, "a"), tf.float32, { 2 }, { 3.0, 6.0 })
    helpers.tensor(loaded[name]({ 1.0 }, 0.5, "b"), tf.float32, { 1 }, { 0.5 })
    local e = err_of(loaded[name], { 1.0, 2.0 }, 3, "b")
    assert.are.equal("ValueError", e.type)
    assert.are.equal("Could not find matching concrete function to call loaded from the SavedModel. Got:\n"
      .. "  Positional arguments (3 total):\n"
      .. "    * [1.0, 2.0]\n    * 3\n    * 'b'\n"
      .. "  Keyword arguments: {}\n\n"
      .. " Expected these arguments to match one of the following 2 option(s):\n\n"
      .. "Option 1:\n  Positional arguments (3 total):\n    * [1.0, 2.0]\n    * 3\n    * 'a'\n"
      .. "  Keyword arguments: {}\n\n"
      .. "Option 2:\n  Positional arguments (3 total):\n    * [1.0]\n    * 0.5\n    * 'b'\n"
      .. "  Keyword arguments: {}", e.message)
  end)

  it("tensors and Lua values mixed, booleans and tables with keys: specs match tensors, values match values", function()
    local f = tf.func(function(x, opts)
      if opts.double then return x * 2.0 end
      return x + opts.add
    end)
    f(tf.constant({ 1.0, 2.0 }), { double = true })
    f(tf.constant({ 1.0, 2.0 }), { double = false, add = 10 })
    local dir = tmpdir()
    sm.save(f, dir)
    local loaded = sm.load(dir)
    rm(dir)
    local g = loaded[f.name]
    helpers.tensor(g(tf.constant({ 3.0, 4.0 }), { double = true }), tf.float32, { 2 }, { 6.0, 8.0 })
    helpers.tensor(g(tf.constant({ 3.0, 4.0 }), { double = false, add = 10 }), tf.float32, { 2 }, { 13.0, 14.0 })
    -- a Lua list converts to the spec's tensor when no trace takes it as it is
    helpers.tensor(g({ 3.0, 4.0 }, { double = true }), tf.float32, { 2 }, { 6.0, 8.0 })
    local e = err_of(g, tf.constant({ 3.0, 4.0 }), { double = false, add = 11 })
    assert.are.equal("ValueError", e.type)
    assert.is_truthy(e.message:find("    * TensorSpec(shape=(2,), dtype=tf.float32, name='x')\n"
      .. "    * {'double': True}\n", 1, true), e.message)
    assert.is_truthy(e.message:find("    * {'add': 10, 'double': False}\n", 1, true), e.message)
    assert.is_truthy(e.message:find("Got:\n  Positional arguments (2 total):\n    * tf.Tensor(", 1, true), e.message)
    -- the traces by name take their tensor inputs only
    assert.is_truthy(err_of(g, tf.constant({ 1.0 }), { double = true }).message:find("^Could not find"))
  end)

  it("a trace with an input_signature keeps working as before (tf.func binding errors)", function()
    local f = tf.func(function(x) return x + 1.0 end, { input_signature = { tf.TensorSpec({ 2 }, tf.float32, "x") } })
    local dir = tmpdir()
    sm.save(f, dir)
    local loaded = sm.load(dir)
    rm(dir)
    helpers.tensor(loaded[f.name](tf.constant({ 1.0, 2.0 })), tf.float32, { 2 }, { 2.0, 3.0 })
    assert.are.equal("TypeError", err_of(loaded[f.name], tf.constant({ 1.0 })).type)
  end)

  it("refuses a trace whose argument is an object it cannot save, naming the function", function()
    local f = tf.func(function(m, x) return x * 2.0 end)
    f(setmetatable({}, {}), tf.constant(1.0))
    local e = err_of(sm.save, f, tmpdir())
    assert.are.equal("ValueError", e.type)
    assert.is_truthy(e.message:find("'" .. f.name .. "'", 1, true), e.message)
    assert.is_truthy(e.message:find("argument 1", 1, true), e.message)
  end)
end)

describe("tf.saved_model.save of a module with a tf.func never traced", function()
  it("saves it with no trace, warns as TF, and the loaded one explains when called", function()
    local M = tf.Module:extend("M")
    function M:init() self.v = tf.Variable(3.0, { name = "v" }) end
    M.__call = tf.func(function(self, x) return x * self.v end)
    M.other = tf.func(function(self, x) return x end)
    local m = M()
    m.forward = tf.func(function(x) return x + m.v end)
    m.forward(tf.constant(1.0))
    local dir = tmpdir()
    local real, written = io.stderr, {}
    io.stderr = { write = function(_, s) written[#written + 1] = s end }
    local ok, err = pcall(sm.save, m, dir)
    io.stderr = real
    assert(ok, tostring(err))
    assert.are.equal("WARNING: Found untraced functions such as __call, other while saving (showing 2 of 2). "
      .. "These functions will not be directly callable after loading.\n", table.concat(written))
    local loaded = sm.load(dir)
    rm(dir)
    helpers.tensor(loaded.forward(tf.constant(1.0)), tf.float32, {}, 4.0)
    assert.is_function(loaded.__call)
    local e = err_of(loaded.__call, tf.constant(1.0))
    assert.are.equal("ValueError", e.type)
    assert.is_truthy(e.message:find("^Found zero restored functions for caller function%."), e.message)
    assert.is_truthy(e.message:find("'__call'", 1, true), e.message)
    -- the object is callable as TF's loaded module with a __call__, and says the same
    assert.are.equal("ValueError", err_of(loaded, tf.constant(1.0)).type)
    assert.are.equal("ValueError", err_of(loaded.other, tf.constant(1.0)).type)
  end)

  it("a submodule's untraced method too, at its path", function()
    local Scale = tf.Module:extend("Scale")
    function Scale:init() self.k = tf.Variable(2.0) end
    Scale.__call = tf.func(function(self, x) return x * self.k end)
    local m = tf.Module()
    m.inner = Scale()
    local dir = tmpdir()
    sm.save(m, dir)
    local loaded = sm.load(dir)
    rm(dir)
    local e = err_of(loaded.inner, tf.constant(1.0))
    assert.are.equal("ValueError", e.type)
    assert.is_truthy(e.message:find("'inner.__call'", 1, true), e.message)
  end)
end)

describe("tf.saved_model.load of a version 1 directory", function()
  it("still loads: each trace takes its tensors, dispatched by spec", function()
    local f = tf.func(function(x) return x * 2.0 end)
    f(tf.constant({ 1.0, 2.0 }))
    f(tf.constant(3.0))
    local dir = tmpdir()
    sm.save(f, dir)
    -- what version 1 wrote: no "methods", no "inputs" in the structures
    local core = require("moonflow.core")
    local doc = core.json_decode(saved_json(dir))
    doc.version, doc.methods = 1, nil
    for _, fn in ipairs(doc.functions) do fn.structure.inputs = nil end
    local out = assert(io.open(dir .. "/saved_model.json", "w"))
    out:write(core.json_encode(doc))
    out:close()
    local loaded = sm.load(dir)
    rm(dir)
    helpers.tensor(loaded[f.name](tf.constant({ 1.0, 2.0 })), tf.float32, { 2 }, { 2.0, 4.0 })
    helpers.tensor(loaded[f.name](tf.constant(4.0)), tf.float32, {}, 8.0)
    assert.are.equal("ValueError", err_of(loaded[f.name], tf.constant({ true })).type)
  end)

  it("a version 2 'methods' entry naming no saved function is refused", function()
    local f = tf.func(function(x) return x end, { input_signature = { tf.TensorSpec({}, tf.float32) } })
    local dir = tmpdir()
    sm.save(f, dir)
    local text = saved_json(dir):gsub('"concrete": %[\n? *"', '"concrete": ["nope", "')
    local out = assert(io.open(dir .. "/saved_model.json", "w"))
    out:write(text)
    out:close()
    local e = err_of(sm.load, dir)
    rm(dir)
    assert.are.equal("InvalidArgumentError", e.type)
    assert.is_truthy(e.message:find("names a trace that is no saved function", 1, true), e.message)
  end)

  it("a newer version is a clear error naming it", function()
    local f = tf.func(function(x) return x end, { input_signature = { tf.TensorSpec({}, tf.float32) } })
    local dir = tmpdir()
    sm.save(f, dir)
    local text = saved_json(dir):gsub('"version": 2', '"version": 3')
    local out = assert(io.open(dir .. "/saved_model.json", "w"))
    out:write(text)
    out:close()
    local e = err_of(sm.load, dir)
    rm(dir)
    assert.is_truthy(e.message:find("version 3 is not supported (this moonflow reads 1 to 2)", 1, true), e.message)
  end)
end)
