-- op_leaks_spec.lua — DESIGN.md house rule 3: the op path never longjmps
-- over C state it owns. Lua errors raised inside each hook the op path calls
-- (a tensor-like value's conversion, the gradient tape's hook, the interrupt
-- hook, a host function called by a kernel) must leave no tensor buffer
-- behind, and the session goes on working. core.live_buffers() counts the
-- buffers alive in the core.
local tf = tf or require("moonflow")
local core = require("moonflow.core")

local ROUNDS = 200

local function collect()
  collectgarbage("collect")
  collectgarbage("collect")
end

-- Live buffers after a full collection.
local function live()
  collect()
  return core.live_buffers()
end

-- A fresh tensor each time (its own buffer), held only by the caller.
local function fresh() return core.convert({ 1.5, 2.5, 3.5 }) end

-- A value the op path converts through its __tf_tensor metamethod.
local function tensor_like(fn) return setmetatable({}, { __tf_tensor = fn }) end

-- Runs fn ROUNDS times; every round must raise an error mentioning `text`.
local function raises_every_time(text, fn)
  for _ = 1, ROUNDS do
    local ok, err = pcall(fn)
    assert.is_false(ok)
    assert.is_truthy(tostring(err):find(text, 1, true), tostring(err))
  end
end

-- The session still computes after the errors.
local function still_works()
  local y = tf.constant({ 1, 2 }) + 1
  assert.are.same({ 2, 3 }, y:numpy())
end

describe("errors inside the op path's hooks leak nothing", function()
  it("a tensor-like value whose conversion raises", function()
    local base = live()
    local bad = tensor_like(function() error("conversion hook failed") end)
    raises_every_time("conversion hook failed", function()
      -- a tensor attribute and a Lua number to convert: C state the call
      -- would hold if it were acquired before the conversion
      return core.op("AddV2", { extra = fresh() }, 2.0, bad)
    end)
    assert.are.equal(base, live())
    still_works()
  end)

  it("a gradient tape hook that raises", function()
    local base = live()
    core.set_tape_hook(function() error("tape hook failed") end)
    core.tapes(1)
    local ok, err = pcall(raises_every_time, "tape hook failed", function()
      -- 2.0 is converted to a tensor the call owns until the tape sees it
      return core.op("AddV2", nil, fresh(), 2.0)
    end)
    core.tapes(-1)
    core.set_tape_hook(nil)
    assert(ok, err)
    assert.are.equal(base, live())
    still_works()
  end)

  it("the interrupt hook, firing at every call the op path makes", function()
    -- The session's interrupt hook is a call hook that raises; this one
    -- raises at the n-th call after it is set, for every n up to past the
    -- end of the op, so it fires at each point where the path calls Lua.
    local recorded = 0
    core.set_tape_hook(function() recorded = recorded + 1 end)
    core.tapes(1)
    local ok_like = tensor_like(function() return fresh() end)
    local base = live()
    local raised, finished = 0, false
    for n = 1, 40 do
      local calls = 0
      local ok = pcall(function()
        debug.sethook(function()
          calls = calls + 1
          if calls == n then error("interrupted by the hook") end
        end, "c")
        local r = core.op("AddV2", nil, 2.0, ok_like)
        debug.sethook()
        return r
      end)
      debug.sethook()
      if ok then finished = true else raised = raised + 1 end
    end
    core.tapes(-1)
    core.set_tape_hook(nil)
    assert.is_true(raised >= 3, "the hook raised only " .. raised .. " times")
    assert.is_true(finished, "the op never ran to its end")
    assert.is_true(recorded > 0)
    assert.are.equal(base, live())
    still_works()
  end)

  it("a host function (EagerLuaFunc) that raises inside a kernel", function()
    local base = live()
    raises_every_time("host function failed", function()
      return core.op("EagerLuaFunc", { func = function() error("host function failed") end,
        Tout = { tf.float32 } }, fresh())
    end)
    assert.are.equal(base, live())
    still_works()
  end)

  it("a symbolic tensor used out of scope", function()
    local f = tf.func(function(x) return x * 2 end)
    local leaked
    local g = tf.func(function(x)
      leaked = x + 1
      return x
    end)
    g(tf.constant(1.0))
    local base = live()
    raises_every_time("out of scope", function()
      return core.op("AddV2", { extra = fresh() }, 2.0, leaked)
    end)
    assert.are.equal(base, live())
    assert.are.equal(4.0, f(tf.constant(2.0)):numpy())
  end)
end)
