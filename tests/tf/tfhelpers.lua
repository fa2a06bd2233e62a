-- tfhelpers.lua — shared checks for the specs ported from TensorFlow's own
-- test files (tests/tf/). Loaded with require("tfhelpers"); tests/run.sh
-- passes --lpath for tests/tf and tests/lua (this builds on helpers.lua).
--
-- TF's assertAllEqual / assertFunctionMatchesEager compare values, so these
-- helpers turn tensors and variables into plain Lua data (numbers, booleans,
-- strings, nested 1-based tables) before comparing.

local tf = rawget(_G, "tf") or require("moonflow")
local H = require("helpers")
local luassert = require("luassert")

local T = {}
T.tf = tf
T.raises = H.raises
T.capture = H.capture
T.capture_print = H.capture_print
T.capture_print_opts = H.capture_print_opts

local function is_variable(x)
  return type(x) == "table" and getmetatable(x) ~= nil and rawget(getmetatable(x), "__name") == "Variable"
end

-- A tensor or variable as plain Lua data; tables are converted elementwise.
function T.plain(x)
  if tf.is_tensor(x) or is_variable(x) then return x:numpy() end
  if type(x) == "table" then
    local out = {}
    for k, v in pairs(x) do out[k] = T.plain(v) end
    return out
  end
  return x
end
T.is_variable = is_variable

local function walk(e, a, path, tol)
  if type(e) == "table" then
    luassert.are.equal("table", type(a), ("at %s: expected a table, got %s"):format(path, tostring(a)))
    for k, v in pairs(e) do walk(v, a[k], path .. "[" .. tostring(k) .. "]", tol) end
    for k in pairs(a) do
      luassert.is_true(e[k] ~= nil, ("at %s: unexpected key %s"):format(path, tostring(k)))
    end
  elseif type(e) == "number" and math.type(e) == "float" and type(a) == "number" then
    if e ~= e then
      luassert.is_true(a ~= a, ("at %s: expected nan, got %s"):format(path, tostring(a)))
    else
      local scale = math.max(1, math.abs(e))
      luassert.is_true(math.abs(e - a) <= tol * scale,
        ("at %s: expected %.9g, got %.9g"):format(path, e, a))
    end
  else
    luassert.are.equal(e, a, "at " .. path)
  end
end

-- assertAllEqual / assertAllClose: `expected` is plain Lua data; `actual`
-- may hold tensors and variables. Float expectations compare within `tol`
-- (default 1e-6, relative above 1); everything else compares exactly.
function T.equal(expected, actual, tol)
  walk(expected, T.plain(actual), "value", tol or 1e-6)
end

-- Compares every returned value: `expected` is a list of the expected
-- results (use n= for trailing or embedded nils). A Lua function that ends
-- without `return` gives no values where Python gives None, so a missing
-- trailing result counts as nil.
function T.returns(expected, ...)
  local got = table.pack(...)
  local n = math.max(expected.n or #expected, got.n)
  for i = 1, n do
    if expected[i] == nil then
      luassert.is_nil(got[i], "result " .. i)
    else
      walk(expected[i], T.plain(got[i]), "result " .. i, 1e-6)
    end
  end
end

-- assertFunctionMatchesEager (autograph reference tests): the tf.func of
-- `fn` called with `args` (a table.pack'ed list) returns `expected` (the
-- values the plain Python function returns, listed per result). TF also
-- compares what both runs print; `expected_out`, when given, is the list of
-- lines the call must print (tf.print's output, captured from io.stdout).
function T.matches(fn, args, expected, expected_out)
  local f = tf.func(fn)
  local results
  -- Each case makes a new tf.func of the same Lua function, which TF's
  -- frequent-retracing warning rightly counts; keep it off the TAP stream.
  local saved_stderr = io.stderr
  io.stderr = { write = function(self) return self end }
  local ok, lines = pcall(T.capture, function() results = table.pack(f(table.unpack(args, 1, args.n or #args))) end)
  io.stderr = saved_stderr
  if not ok then error(lines, 0) end
  T.returns(expected, table.unpack(results, 1, results.n))
  if expected_out then luassert.are.same(expected_out, lines, "printed output") end
end

-- An int32 tensor, as the TF tests' _int_tensor.
function T.int_tensor(x) return tf.constant(x, tf.int32) end

-- The number of traces of a tf.func.
function T.count(f) return f:experimental_get_tracing_count() end

-- gradients_test.py's _COS_DERIVATIVES: cos and its first four derivatives.
T.COS_DERIVATIVES = {
  function(x) return tf.cos(x) end,
  function(x) return -tf.sin(x) end,
  function(x) return -tf.cos(x) end,
  function(x) return tf.sin(x) end,
  function(x) return tf.cos(x) end,
}

-- backprop.implicit_grad(f)()[0][0]: the gradient for the first watched variable.
function T.implicit_grad(f, ...)
  local tape = tf.GradientTape()
  local y = f(...)
  tape:stop()
  local vars = tape:watched_variables()
  return tape:gradient(y, vars)[1]
end

return T
