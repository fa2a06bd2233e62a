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

-- Messages are built only for a failure (and paths passed as a parent
-- and a key): formatting them for every element made large comparisons
-- take seconds.
local function fail(fmt, ...) luassert.is_true(false, fmt:format(...)) end

local function walk(e, a, path, tol)
  if type(e) == "table" then
    if type(a) ~= "table" then fail("at %s: expected a table, got %s", path(), tostring(a)) end
    for k, v in pairs(e) do
      walk(v, a[k], function() return path() .. "[" .. tostring(k) .. "]" end, tol)
    end
    for k in pairs(a) do
      if e[k] == nil then fail("at %s: unexpected key %s", path(), tostring(k)) end
    end
  elseif type(e) == "number" and math.type(e) == "float" and type(a) == "number" then
    if e ~= e then
      if a == a then fail("at %s: expected nan, got %s", path(), tostring(a)) end
    elseif not (math.abs(e - a) <= tol * math.max(1, math.abs(e))) then
      fail("at %s: expected %.9g, got %.9g", path(), e, a)
    end
  elseif e ~= a then
    luassert.are.equal(e, a, "at " .. path())
  end
end

local function named(text) return function() return text end end

-- assertAllEqual / assertAllClose: `expected` is plain Lua data; `actual`
-- may hold tensors and variables. Float expectations compare within `tol`
-- (default 1e-6, relative above 1); everything else compares exactly.
function T.equal(expected, actual, tol)
  walk(expected, T.plain(actual), named("value"), tol or 1e-6)
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
      walk(expected[i], T.plain(got[i]), named("result " .. i), 1e-6)
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

-- Gradient checking, as TF's gradient_checker_v2 ---------------------------

-- A deterministic generator for the values TF's tests draw with np.random
-- (those tests do not depend on the particular draws).
local seed = 20240611
local function uniform01()
  seed = (seed * 6364136223846793005 + 1442695040888963407) & 0x7fffffffffffffff
  return ((seed >> 11) & 0xfffffffff) / 0x1000000000
end

--- np.random.seed(n): restarts the generator, so that a case's draws do
-- not depend on the cases run before it.
function T.seed(n) seed = n end

local function count(shape)
  local n = 1
  for _, d in ipairs(shape) do n = n * d end
  return n
end
T.count_elements = count

--- A row-major flat list as nested Lua data of `shape` (what T.equal
-- compares; a scalar for shape {}).
function T.nest(flat, shape)
  local function build(offset, d)
    if d > #shape then return flat[offset + 1] end
    local stride = count({ table.unpack(shape, d + 1) })
    local row = {}
    for i = 0, shape[d] - 1 do row[i + 1] = build(offset + i * stride, d + 1) end
    return row
  end
  return build(0, 1)
end

-- A tensor of `shape` from a flat Lua list (row-major), as
-- constant_op.constant(values, shape=shape) makes one.
function T.tensor(values, shape, dtype)
  dtype = dtype or tf.float32
  if count(shape) == 0 then return tf.zeros(shape, dtype) end
  return tf.reshape(tf.constant(values, dtype), shape)
end

-- np.random.rand(*shape) / np.random.random_sample: uniform in [0, 1).
function T.rand_values(shape)
  local out = {}
  for i = 1, count(shape) do out[i] = uniform01() end
  return out
end
function T.rand(shape, dtype) return T.tensor(T.rand_values(shape), shape, dtype) end

-- np.random.randn(*shape): standard normal draws (Box-Muller).
function T.randn_values(shape)
  local out = {}
  for i = 1, count(shape) do
    local u1, u2 = uniform01(), uniform01()
    out[i] = math.sqrt(-2 * math.log(1 - u1)) * math.cos(2 * math.pi * u2)
  end
  return out
end
function T.randn(shape, dtype) return T.tensor(T.randn_values(shape), shape, dtype) end

-- Nested Lua data (or a number) as a flat row-major list.
local function flatten(v, out)
  out = out or {}
  if type(v) == "table" then
    for _, e in ipairs(v) do flatten(e, out) end
  else
    out[#out + 1] = v
  end
  return out
end
T.flatten = flatten

-- f's gradient for its argument `param`, weighted by dy: what
-- backprop.gradients_function(f, [param])(*xs, dy=dy) gives. Traced, the
-- tape and f run inside a tf.func (one trace serves every row).
local function gradient_of(f, param, traced)
  local g = function(dy, ...)
    local xs = table.pack(...)
    local tape = tf.GradientTape()
    tape:watch(xs[param])
    local y = f(table.unpack(xs, 1, xs.n))
    tape:stop()
    return tape:gradient(y, xs[param], dy)
  end
  if traced then return tf.func(g) end
  return g
end

local function theoretical_jacobian(f, y, xs, param, traced)
  local x = xs[param]
  local xsize, yshape = count(x.shape:as_list()), y.shape:as_list()
  local ysize = count(yshape)
  local grad = gradient_of(f, param, traced)
  local rows = {}
  for row = 1, ysize do
    local onehot = {}
    for i = 1, ysize do onehot[i] = i == row and 1 or 0 end
    local g = grad(T.tensor(onehot, yshape, y.dtype), table.unpack(xs, 1, xs.n))
    local values = g and flatten(g:numpy()) or {}
    for i = 1, xsize do values[i] = values[i] or 0 end
    rows[row] = values
  end
  return rows
end

local function to_float32(v) return (string.unpack("f", string.pack("f", v))) end

local function numeric_jacobian(f, y, xs, param, delta)
  local x = xs[param]
  local shape, dtype = x.shape:as_list(), x.dtype
  local values = flatten(x:numpy())
  local ysize = count(y.shape:as_list())
  local rows = {}
  for row = 1, ysize do rows[row] = {} end
  local args = table.move(xs, 1, xs.n, 1, {})
  local function at(v)
    local copy = table.move(values, 1, #values, 1, {})
    copy[v.col] = v.value
    args[param] = T.tensor(copy, shape, dtype)
    return flatten(f(table.unpack(args, 1, xs.n)):numpy())
  end
  -- As NumPy computes (y_pos - y_neg) / scale: in y's dtype.
  local round = y.dtype == tf.float32 and to_float32 or function(v) return v end
  local scale = round(2 * delta)
  for col = 1, #values do
    local original = values[col]
    local pos = at({ col = col, value = original + delta })
    local neg = at({ col = col, value = original - delta })
    for row = 1, ysize do rows[row][col] = round(round(pos[row] - neg[row]) / scale) end
  end
  return rows
end

local function as_tensor(x)
  if tf.is_tensor(x) then return x end
  return tf.convert_to_tensor(x)
end

--- gradient_checker_v2.compute_gradient(f, xs, delta): the theoretical and
-- numeric Jacobians of y = f(xs...) for each x, as lists (one per x) of
-- rows (one per element of y). opts.traced computes the theoretical ones
-- with the tape inside a tf.func; opts.delta defaults to TF 2's 1/1024
-- (exact in binary floating point; the TF1 checker's is 1e-3: T.V1).
function T.compute_gradient(f, xs, opts)
  opts = opts or {}
  local delta = opts.delta or 1 / 1024
  local args = { n = #xs }
  for i = 1, #xs do args[i] = as_tensor(xs[i]) end
  local y = f(table.unpack(args, 1, args.n))
  local theoretical, numeric = {}, {}
  for param = 1, args.n do
    theoretical[param] = theoretical_jacobian(f, y, args, param, opts.traced)
    numeric[param] = numeric_jacobian(f, y, args, param, delta)
  end
  return theoretical, numeric
end

--- The TF1 checker's options (gradient_checker.compute_gradient_error):
-- its step is 1e-3.
T.V1 = { delta = 1e-3 }

--- Runs fn(...) with io.stderr muted and returns its results. The ported
-- cases make new tf.funcs for each check, which TF's frequent-retracing
-- warning rightly counts; it stays off the TAP stream.
function T.quiet(fn, ...)
  local saved_stderr = io.stderr
  io.stderr = { write = function(self) return self end }
  local r = table.pack(pcall(fn, ...))
  io.stderr = saved_stderr
  if not r[1] then error(r[2], 0) end
  return table.unpack(r, 2, r.n)
end

--- gradient_checker_v2.max_error: the largest elementwise gap.
function T.max_error(a, b)
  local err = 0
  for p = 1, #a do
    for r = 1, #a[p] do
      for c = 1, #a[p][r] do
        local d = math.abs(a[p][r][c] - b[p][r][c])
        if d ~= d then return math.huge end
        if d > err then err = d end
      end
    end
  end
  return err
end

--- assertLess(max_error(compute_gradient(f, xs)), tol), eagerly and with
-- the tape inside a tf.func (TF's run_in_graph_and_eager_modes): the two
-- must agree with the numeric Jacobian. Returns both errors.
function T.check_gradient(f, xs, tol, opts)
  local errs = {}
  for _, traced in ipairs({ false, true }) do
    local o = { delta = opts and opts.delta, traced = traced }
    local err = T.quiet(function() return T.max_error(T.compute_gradient(f, xs, o)) end)
    luassert.is_true(err < tol, ("%s gradient error %.3g is not below %g"):format(
      traced and "traced" or "eager", err, tol))
    errs[#errs + 1] = err
  end
  return errs[1], errs[2]
end

--- assertAllClose(jacob_t, jacob_n, rtol, atol) for each pair of the
-- Jacobians compute_gradient returns (|t - n| <= atol + rtol * |n|),
-- eagerly and with the tape inside a tf.func.
function T.check_jacobians(f, xs, rtol, atol, opts)
  for _, traced in ipairs({ false, true }) do
    local o = { delta = opts and opts.delta, traced = traced }
    local jt, jn = T.quiet(T.compute_gradient, f, xs, o)
    for p = 1, #jt do
      for r = 1, #jt[p] do
        for c = 1, #jt[p][r] do
          local t, n = jt[p][r][c], jn[p][r][c]
          -- Not (t - n within bounds), so a NaN fails. The message is
          -- built only for a failure: formatting one per element made
          -- large Jacobians take seconds.
          if not (math.abs(t - n) <= atol + rtol * math.abs(n)) then
            luassert.is_true(false, ("%s Jacobian of argument %d at [%d][%d]: theoretical %.9g, numeric %.9g"):format(
              traced and "traced" or "eager", p, r, c, t, n))
          end
        end
      end
    end
  end
end

--- Runs fn(...) eagerly, then as a tf.func, and hands the results to
-- check(mode, results...): TF's run_in_graph_and_eager_modes for tests
-- that compare values.
function T.eager_and_traced(fn, args, check)
  args = args or {}
  check("eager", fn(table.unpack(args)))
  check("traced", T.quiet(tf.func(fn), table.unpack(args)))
end

return T
