-- trace_recursion_spec.lua — a tf.func that calls itself on a tensor never
-- reaches its stopping condition while being traced (the condition is a
-- tensor). Whatever stops it first (moonflow's depth limit, or Lua's C
-- stack when every level also traces a tf.cond branch), the error is a
-- RecursionError, as TF's, that names the function and the user's line,
-- and the session stays usable: no trace left open, no tape left behind.

local tf = tf or require("moonflow")
local state = require("moonflow.state")
local helpers = require("helpers")

-- The line of this file that holds `marker`.
local function line_of(marker)
  local n = 0
  for line in io.lines(debug.getinfo(1, "S").source:sub(2)) do
    n = n + 1
    if line:find(marker, 1, true) then return n end
  end
  error("no line holds " .. marker)
end

local SPEC = debug.getinfo(1, "S").short_src

-- The session after the error: eager, no trace open, the tapes as before,
-- and a new tf.func traces and runs (each a function of its own chunk:
-- tf.funcs of one definition share a frequent-retracing detector).
local usable_checks = 0
local function assert_usable(tapes_before)
  assert.is_true(tf.executing_eagerly())
  assert.are.equal(0, state.trace_depth())
  assert.are.equal(tapes_before, #state.tapes)
  usable_checks = usable_checks + 1
  local double = tf.func(load("return function(x) return x * 2 end", "=usable" .. usable_checks)(),
    { autograph = false })
  assert.are.equal(8, double(tf.constant(4)):numpy())
  local tape = tf.GradientTape()
  local x = tf.Variable(3.0)
  local y = double(x)
  tape:stop()
  assert.are.equal(2.0, tape:gradient(y, x):numpy())
end

-- The error names the function and where in the user's code it recursed.
local function assert_names_user_line(err, name, marker)
  local line = line_of(marker)
  assert.truthy(err.message:find("tf.func '" .. name .. "'", 1, true), err.message)
  assert.truthy(err.message:find("recursive tf.funcs are not supported", 1, true), err.message)
  assert.truthy(err.message:find(("%s:%d"):format(SPEC, line), 1, true),
    "the message names the user's line " .. line .. ": " .. err.message)
  assert.are.equal(line, err.line)
  assert.is_nil(err.message:find("stack overflow", 1, true), err.message)
  assert.is_nil(err.message:find("moonflow/trace/", 1, true), err.message)
end

describe("recursion on a tensor while tracing", function()
  it("an AutoGraph-converted `if` (a tf.cond per level) is a RecursionError naming the user's line", function()
    local r
    r = tf.func(function(n) if n > 0 then return r(n - 1) else return 1 end end) -- MARK:autograph
    local err = helpers.raises("RecursionError", nil, r, tf.constant(3))
    assert_names_user_line(err, "r", "MARK:autograph")
    assert_usable(0)
  end)

  it("a Lua `if` on a tensor (always true) is a RecursionError naming the user's line", function()
    local r
    r = tf.func(function(n)
      if tf.greater(n, 0) then
        local m = r(n - 1) -- MARK:lua_if
        return m
      end
      return 1
    end, { autograph = false })
    local err = helpers.raises("RecursionError", nil, r, tf.constant(3))
    assert_names_user_line(err, "r", "MARK:lua_if")
    assert_usable(0)
  end)

  -- A tail call (`return r(n - 1)`) of a tf.func calls Function.__call, a
  -- C function, which Lua runs without replacing the caller's frame: the
  -- error names the line of the call, as for any other call.
  it("a recursive tail call names the line of the call", function()
    local r
    r = tf.func(function(n)
      if tf.greater(n, 0) then return r(n - 1) end -- MARK:tail_call
      return 1
    end, { autograph = false })
    local err = helpers.raises("RecursionError", nil, r, tf.constant(3))
    assert_names_user_line(err, "r", "MARK:tail_call")
    assert.falsy(err.message:find("(its definition", 1, true), err.message)
    assert_usable(0)
  end)

  it("explicit tf.cond branches that recurse are a RecursionError naming the user's line", function()
    local r
    r = tf.func(function(n)
      local y = tf.cond(n:gt(0), function() local m = r(n - 1) return m end, function() return 1 end) -- MARK:cond
      return y
    end, { autograph = false })
    local err = helpers.raises("RecursionError", nil, r, tf.constant(3))
    assert_names_user_line(err, "r", "MARK:cond")
    assert.truthy(err.message:find("as deep as Lua's C stack allows", 1, true), err.message)
    assert_usable(0)
  end)

  it("under a recording tape the tape survives and still records", function()
    local r
    r = tf.func(function(n, x) if n > 0 then return r(n - 1, x * 2.0) else return x end end) -- MARK:tape
    local x = tf.Variable(1.0)
    local tape = tf.GradientTape()
    local err = helpers.raises("RecursionError", nil, r, tf.constant(3), x)
    assert_names_user_line(err, "r", "MARK:tape")
    assert.are.equal(1, #state.tapes)
    local y = x * 5.0
    tape:stop()
    assert.are.equal(5.0, tape:gradient(y, x):numpy())
    assert_usable(0)
  end)

  it("recursion on Lua values still terminates (one trace per level)", function()
    local r
    r = tf.func(function(n, x) if n > 0 then return r(n - 1, x + 1) else return x end end)
    assert.are.equal(4, r(4, tf.constant(0)):numpy())
  end)
end)
