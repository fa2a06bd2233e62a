-- api.lua — a seeded fuzzer of moonflow's public surface.
--
--   moonflow tests/fuzz/api.lua [--mode api|ops] [--seed S] [--count N]
--            [--start I] [--index I] [--strict] [--private] [--verbose]
--            [--progress FILE]
--   moonflow tests/fuzz/api.lua COUNT SEED      (as `make fuzz` calls it)
--
-- tests/fuzz/run.sh runs both modes under a time limit and names the call
-- that crashed or hung (from --progress), then goes on after it.
--
-- mode api: every function reachable from the `tf` table (and `moonflow.core`)
-- and every method of tensors, variables, shapes, specs, tf.func objects,
-- concrete functions, graphs, operations, tapes, modules and TensorArrays,
-- called with random good and bad arguments (numbers, huge sizes, strings,
-- nil, tables, nested tables, tensors of random dtypes and shapes, functions,
-- wrong receivers). mode ops: every registered op through core.op with random
-- inputs and attributes (the raw op-call path under the Lua API).
--
-- Call I of seed S draws everything from a generator seeded by (S, I), so
-- `--index I` replays exactly that call in a fresh process. Each call must
-- return or raise a typed error (an error object, err.type set). The outcome
-- classes:
--   ok / typed        fine
--   untyped           a Lua error string or other untyped value
--   hang              the call ran past the per-call limit (2 s of CPU,
--                     checked by an instruction-count hook; a hang inside C,
--                     which the hook cannot see, is caught by the caller's
--                     `timeout` and named by --progress)
--   endless           the call ran past the limit while calling the
--                     generated functions over and over (tf.while_loop
--                     with a cond that is always true): the caller's own
--                     endless loop, counted but not a failure
-- Crashes and sanitizer reports end the process: the runner (run.sh) sees
-- the exit status and the progress file names the call.
--
-- Output: TAP on stdout ("ok"/"not ok" per invariant), a summary and the
-- untyped-error sites (file:line, message class, count, first index) on
-- stderr. With --strict (run.sh passes it) every untyped error is a
-- failure; without it only untyped errors raised by C functions (the
-- binding) fail, and the rest are listed.
local tf = rawget(_G, "tf") or require("moonflow")
local core = require("moonflow.core")

local opts = { mode = "api", seed = 1, count = 1000, start = 0, index = nil, strict = false, limit = 2 }
do
  local i, positional = 1, 0
  while i <= #arg do
    local a = arg[i]
    -- `api.lua COUNT SEED`, as `make fuzz` calls every fuzz script
    if tonumber(a) then
      positional = positional + 1
      opts[positional == 1 and "count" or "seed"] = tonumber(a)
    elseif a == "--strict" then opts.strict = true
    elseif a == "--private" then opts.private = true
    elseif a == "--verbose" then opts.verbose = true
    elseif a:match("^%-%-") then
      local k = a:sub(3)
      local v = arg[i + 1]
      i = i + 1
      opts[k] = tonumber(v) or v
    end
    i = i + 1
  end
end

-- ---- a small deterministic generator (xorshift64*), one per call ----

local function rng_for(seed, index)
  local s = (seed * 0x9E3779B1 + index * 0x85EBCA77 + 0x2545F491) & 0x7FFFFFFFFFFFFFFF
  if s == 0 then s = 1 end
  local R = {}
  function R.next()
    s = s ~ (s << 13)
    s = s ~ (s >> 7)
    s = s ~ (s << 17)
    return (s >> 11) & 0xFFFFFFFFFFFF
  end
  function R.int(n) return R.next() % n + 1 end -- 1..n
  function R.pick(t) return t[R.int(#t)] end
  function R.chance(p) return (R.next() % 10000) < p * 10000 end
  return R
end

-- ---- values ----

local DTYPES = { "float32", "float64", "int32", "int64", "bool", "string", "uint8" }
local HUGE = { 1e9, 1e12, 2 ^ 31, 2 ^ 31 - 1, 2 ^ 62, math.maxinteger, math.mininteger, -1, -2 ^ 31,
  1e308, -1e308, math.huge, -math.huge, 0 / 0, 3000000000 }
local STRINGS = { "", "x", "float32", "int32", "SAME", "VALID", "NHWC", "relu", "bilinear", "a\0b",
  "\xff\xfe", ("x"):rep(300), "nan", "1", "-1", "shape", "dtype", "name", "axis", "__index", "%s%s%n" }

local function rand_shape(R)
  local rank = R.int(4) - 1
  local s = {}
  for i = 1, rank do s[i] = R.int(4) - 1 end
  return s
end

local gen -- forward

local function rand_tensor(R)
  local dt = R.pick(DTYPES)
  local shape = rand_shape(R)
  local ok, t = pcall(function()
    if dt == "string" then return tf.fill(shape, "s") end
    if dt == "bool" then return tf.zeros(shape, tf.bool) end
    return tf.cast(tf.random.uniform(shape, 0, 5), tf[dt] or tf.float32)
  end)
  if ok then return t end
  return tf.constant(1.5)
end

local function rand_number(R)
  local k = R.int(6)
  if k == 1 then return R.pick(HUGE) end
  if k == 2 then return (R.next() % 7) - 2 end
  if k == 3 then return ((R.next() % 1000) - 500) / 7 end
  if k == 4 then return 0 end
  return R.int(3)
end

local function rand_table(R, depth)
  local k = R.int(6)
  if k == 1 then return rand_shape(R) end
  if k == 2 then return {} end
  if k == 3 then
    local t = {}
    for i = 1, R.int(3) do t[i] = gen(R, depth + 1) end
    return t
  end
  if k == 4 then
    -- an options table with plausible and random keys
    local keys = { "axis", "dtype", "name", "shape", "keepdims", "transpose_b", "input_signature",
      "padding", "strides", "seed", "reduce_retracing", "persistent", "units", "activation",
      "learning_rate", "maxval", "minval", "mean", "stddev", "size", "from_logits", "autograph" }
    local t = {}
    for _ = 1, R.int(3) do t[R.pick(keys)] = gen(R, depth + 1) end
    return t
  end
  if k == 5 then
    local t = {}
    t[1] = t -- a cycle
    t.x = gen(R, depth + 1)
    return t
  end
  return { { R.int(3), R.int(3) }, { R.int(3) } } -- ragged
end

-- Calls of the generated functions during the current call: a call
-- stopped at the time limit while the library was calling them over and
-- over (tf.while_loop with a cond that is always true) is the caller's
-- endless loop, not a hang of the library.
local callbacks = 0
local ENDLESS_CALLBACKS = 10000

local function rand_function(R)
  local v = R.int(4)
  if v == 1 then return function(...) callbacks = callbacks + 1; return ... end end
  if v == 2 then return function(x) callbacks = callbacks + 1; return x end end
  if v == 3 then return function() callbacks = callbacks + 1; return tf.constant(1.0) end end
  return function() callbacks = callbacks + 1; return true end
end

local SAMPLES -- filled below: makers of receivers

function gen(R, depth)
  depth = depth or 0
  local k = R.int(depth > 2 and 6 or 11)
  if k == 1 then return nil end
  if k == 2 then return rand_number(R) end
  if k == 3 then return R.pick(STRINGS) end
  if k == 4 then return R.chance(0.5) end
  if k == 5 then return rand_tensor(R) end
  if k == 6 then return tf[R.pick(DTYPES)] end
  if k == 7 then return rand_table(R, depth) end
  if k == 8 then return rand_function(R) end
  if k == 9 then return R.int(4) - 1 end
  if k == 10 then
    local s = R.pick(SAMPLES)
    local ok, v = pcall(s.make, R)
    if ok then return v end
    return nil
  end
  return rand_shape(R)
end

local function rand_args(R)
  local n = R.int(5) - 1
  local args = {}
  for i = 1, n do args[i] = gen(R, 0) end
  return args, n
end

-- ---- targets ----

local SKIP = {
  -- process and host effects: reading stdin, listing and writing files,
  -- the tape hook and tape count the session relies on
  ["tf.display"] = true, ["core.set_tape_hook"] = true, ["tf.progress"] = true,
  ["tf.io.write_npy"] = true, ["tf.saved_model.save"] = true, ["tf.train"] = true,
  ["tf.onnx.export"] = true, ["core.npy_write"] = true, ["core.saved_write"] = true,
  ["checkpoint:write"] = true,
  -- test switches that make later allocations fail on purpose
  ["core.lua_memory_limit"] = true, ["core.fail_alloc"] = true,
}

local targets = {}

-- Private names (a path part starting with one "_", such as
-- func:_callable) are internals; --private includes them.
local function private(name)
  for part in name:gmatch("[^.:]+") do
    if part:match("^_[^_]") then return true end
  end
  return false
end

local function add_target(name, fn, recv)
  if private(name) and not opts.private then return end
  for prefix in pairs(SKIP) do
    if name == prefix or name:sub(1, #prefix + 1) == prefix .. "." then return end
  end
  local info = debug.getinfo(fn, "S")
  targets[#targets + 1] = { name = name, fn = fn, recv = recv, c = info.what == "C" }
end

local function walk(t, path, depth, seen)
  if seen[t] or depth > 3 then return end
  seen[t] = true
  local keys = {}
  for k in pairs(t) do if type(k) == "string" then keys[#keys + 1] = k end end
  table.sort(keys)
  for _, k in ipairs(keys) do
    local v = rawget(t, k)
    if type(v) == "function" then add_target(path .. "." .. k, v)
    elseif type(v) == "table" and k ~= "__index" then walk(v, path .. "." .. k, depth + 1, seen) end
  end
  local idx = rawget(t, "__index")
  if type(idx) == "table" then walk(idx, path .. ".__index", depth + 1, seen) end
end

-- Methods of an object: the functions of its metatable, of an __index
-- table, or of the tables an __index function reaches through upvalues
-- (those only when indexing the object really answers them: an __index
-- closes over library modules too, whose functions are not methods).
local function methods_of(obj)
  local out, seen = {}, {}
  local function collect(t, answered)
    if type(t) ~= "table" or seen[t] then return end
    seen[t] = true
    for k, v in pairs(t) do
      if type(k) == "string" and type(v) == "function" and not out[k] then
        local ok, got = true, v
        if answered then ok, got = pcall(function() return obj[k] end) end
        if ok and rawequal(got, v) then out[k] = v end
      end
    end
  end
  local mt = getmetatable(obj)
  if type(mt) ~= "table" then return out end
  collect(mt)
  local idx = rawget(mt, "__index")
  if type(idx) == "table" then collect(idx)
  elseif type(idx) == "function" then
    for i = 1, 40 do
      local name, v = debug.getupvalue(idx, i)
      if not name then break end
      if type(v) == "table" and v ~= tf and v ~= core and v ~= _G then collect(v, true) end
    end
  end
  return out
end

SAMPLES = {
  { kind = "tensor", make = function(R) return rand_tensor(R) end },
  { kind = "variable", make = function() return tf.Variable(tf.ones({ 2, 2 })) end },
  { kind = "shape", make = function() return tf.TensorShape({ 2, 3 }) end },
  { kind = "spec", make = function() return tf.TensorSpec({ 2 }, tf.float32) end },
  { kind = "func", make = function() return tf.func(function(x) return tf.multiply(x, 2) end) end },
  { kind = "concrete", make = function()
    return tf.func(function(x) return tf.add(x, 1) end):get_concrete_function(tf.TensorSpec({ 2 }, tf.float32))
  end },
  { kind = "graph", make = function()
    return tf.func(function(x) return tf.add(x, 1) end):get_concrete_function(tf.constant({ 1.0 })).graph
  end },
  { kind = "operation", make = function()
    local g = tf.func(function(x) return x + 1 end):get_concrete_function(tf.constant({ 1.0 })).graph
    return g:get_operations()[1]
  end },
  { kind = "tape", make = function() return tf.GradientTape() end },
  { kind = "module", make = function() return tf.Module() end },
  { kind = "tensor_array", make = function() return tf.TensorArray(tf.float32, { size = 2 }) end },
  { kind = "dense", make = function() return tf.keras.layers.Dense(2) end },
  { kind = "sgd", make = function() return tf.keras.optimizers.SGD({ learning_rate = 0.1 }) end },
  { kind = "adam", make = function() return tf.keras.optimizers.Adam(0.1) end },
  { kind = "conv2d", make = function() return tf.keras.layers.Conv2D(2, 3) end },
  { kind = "sequential", make = function() return tf.keras.Sequential({ tf.keras.layers.Dense(2) }) end },
  { kind = "loss", make = function() return tf.keras.losses.SparseCategoricalCrossentropy() end },
  { kind = "checkpoint", make = function() return tf.train.Checkpoint({ v = tf.Variable(1.0) }) end },
}

local function build_targets()
  walk(tf, "tf", 0, {})
  walk(core, "core", 0, { [tf] = true })
  local probe = rng_for(0, 0)
  for _, s in ipairs(SAMPLES) do
    local ok, obj = pcall(s.make, probe)
    if ok and obj ~= nil then
      local names = {}
      for k in pairs(methods_of(obj)) do names[#names + 1] = k end
      table.sort(names)
      for _, k in ipairs(names) do
        add_target(s.kind .. ":" .. k, methods_of(obj)[k], s)
      end
      -- reading a field is a call too (__index)
      add_target(s.kind .. "[key]", function(o, key) return o[key] end, s)
    else
      io.stderr:write("# sample ", s.kind, " unavailable: ", tostring(obj), "\n")
    end
  end
end

-- ---- running one call ----

local function is_typed(e)
  if core.is_error(e) then return true end
  return type(e) == "table" and type(rawget(e, "type")) == "string"
end

local TIMEOUT = {}

-- A typed error's message, an untyped error's text.
local function describe(e)
  if type(e) == "table" then
    local ok, s = pcall(tostring, e)
    return ok and s or "<table>"
  end
  return tostring(e)
end

-- The class of an untyped error: its site (file:line) and its message with
-- values blurred, so one defect counts once.
local function classify(e)
  local s = describe(e)
  local site, msg = s:match("^([^:\n]+%.lua:%d+): (.*)$")
  if not site then site, msg = "?", s end
  site = site:gsub("^.*/lua/", "lua/")
  msg = msg:gsub("0x%x+", "0x?"):gsub("%-?%d+%.?%d*", "N"):gsub("'[^']*'", "'?'")
  msg = msg:sub(1, 120)
  return site, msg
end

local function reset_session()
  while core.trace_depth() > 0 do core.trace_abort() end
  core.tapes(math.mininteger)
  core.eager_scope(math.mininteger)
  pcall(tf.config.run_functions_eagerly, false)
end

local function make_call(R)
  local t = R.pick(targets)
  local args, n = rand_args(R)
  if t.recv then
    -- a method: the right receiver most of the time, a wrong one else
    local recv
    if R.chance(0.8) or t.name:sub(-5) == "[key]" then
      local ok, v = pcall(t.recv.make, R)
      recv = ok and v or nil
    else
      recv = gen(R, 0)
    end
    table.insert(args, 1, recv)
    n = n + 1
  end
  return t, args, n
end

local OPS
local ATTR_NAMES = { "T", "dtype", "axis", "keep_dims", "transpose_a", "transpose_b", "adj_x", "adj_y",
  "seed", "seed2", "shape", "N", "Tidx", "begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask",
  "shrink_axis_mask", "strides", "padding", "data_format", "out_type", "num", "depth", "perm",
  "squeeze_dims", "align_corners", "half_pixel_centers", "message", "summarize", "Tout", "size" }

local function make_op_call(R)
  OPS = OPS or core.op_list()
  local op = R.pick(OPS)
  local attrs = nil
  if R.chance(0.7) then
    attrs = {}
    for _ = 1, R.int(4) - 1 do
      local v = R.int(4) == 1 and tf[R.pick(DTYPES)] or gen(R, 1)
      attrs[R.pick(ATTR_NAMES)] = v
    end
  end
  local nin = op.min_inputs
  if op.max_inputs < 0 then nin = nin + R.int(3) - 1
  elseif R.chance(0.2) then nin = R.int(op.max_inputs + 2) - 1 end
  local args = { op.name, attrs }
  for i = 1, nin do
    args[2 + i] = R.chance(0.75) and rand_tensor(R) or gen(R, 1)
  end
  return { name = "core.op(" .. op.name .. ")", fn = core.op, c = true }, args, nin + 2
end

local function run_one(index)
  local R = rng_for(opts.seed, index)
  local ok0, t, args, n = pcall(opts.mode == "ops" and make_op_call or make_call, R)
  if not ok0 then return "setup", { name = "setup" }, t end
  local deadline = os.clock() + opts.limit
  callbacks = 0
  debug.sethook(function()
    if os.clock() > deadline then error(TIMEOUT, 0) end
  end, "", 10000)
  local ok, e = pcall(t.fn, table.unpack(args, 1, n))
  debug.sethook()
  reset_session()
  if ok then return "ok", t end
  if e == TIMEOUT or os.clock() > deadline then
    return callbacks >= ENDLESS_CALLBACKS and "endless" or "hang", t, e
  end
  if is_typed(e) then return "typed", t, e end
  return "untyped", t, e
end

-- ---- main ----

local function rss_kb()
  local f = io.open("/proc/self/status")
  if not f then return 0 end
  local s = f:read("a")
  f:close()
  return tonumber(s:match("VmRSS:%s*(%d+)")) or 0
end

local function main()
  if opts.mode == "api" then build_targets() end
  -- tf.print and friends write to stdout: keep TAP clean
  local real_print = print
  print = function() end -- luacheck: ignore
  local stdout_write = io.write
  io.write = function() return io.stdout end -- luacheck: ignore

  local first, last = opts.start, opts.count - 1
  if opts.index then first, last = opts.index, opts.index end
  local counts = { ok = 0, typed = 0, untyped = 0, hang = 0, setup = 0, endless = 0 }
  local sites, c_untyped, hangs, rss = {}, {}, {}, {}
  local progress = opts.progress and io.open(opts.progress, "w")
  for index = first, last do
    if progress then
      progress:seek("set")
      progress:write(("%d %d\n"):format(opts.seed, index))
      progress:flush()
    end
    local outcome, t, e = run_one(index)
    counts[outcome] = counts[outcome] + 1
    if opts.verbose or opts.index then
      io.stderr:write(("# %d %s: %s %s\n"):format(index, t.name, outcome, e and describe(e) or ""))
    end
    if outcome == "untyped" then
      local site, msg = classify(e)
      local key = site .. " | " .. msg
      local s = sites[key]
      if not s then
        s = { site = site, msg = msg, count = 0, index = index, target = t.name, c = t.c }
        sites[key] = s
      end
      s.count = s.count + 1
      if t.c then c_untyped[#c_untyped + 1] = { index = index, name = t.name, e = describe(e) } end
    elseif outcome == "hang" then
      hangs[#hangs + 1] = { index = index, name = t.name }
    end
    if index % math.max(500, (last - first + 1) // 20) == 0 then
      collectgarbage()
      rss[#rss + 1] = ("%d:%d"):format(index, rss_kb() // 1024)
    end
  end
  print = real_print -- luacheck: ignore
  io.write = stdout_write -- luacheck: ignore

  local err = io.stderr
  err:write(("# mode=%s seed=%d calls=%d ok=%d typed=%d untyped=%d hangs=%d setup=%d endless=%d\n"):format(
    opts.mode, opts.seed, last - first + 1, counts.ok, counts.typed, counts.untyped, counts.hang,
    counts.setup, counts.endless))
  err:write("# rss MB by call: ", table.concat(rss, " "), "\n")
  local list = {}
  for _, s in pairs(sites) do list[#list + 1] = s end
  table.sort(list, function(a, b) return a.count > b.count end)
  for _, s in ipairs(list) do
    err:write(("# untyped %5d  %-32s %s  [%s, --index %d]%s\n"):format(s.count, s.site, s.msg,
      s.target, s.index, s.c and " (C)" or ""))
  end

  local n = 0
  local function check(cond, what)
    n = n + 1
    print((cond and "ok " or "not ok ") .. n .. " - " .. what)
  end
  check(#hangs == 0, ("no call ran past %g s (%d did)%s"):format(opts.limit, #hangs,
    #hangs > 0 and (": first --index " .. hangs[1].index .. " " .. hangs[1].name) or ""))
  check(#c_untyped == 0, ("C functions raise only typed errors (%d untyped)%s"):format(#c_untyped,
    #c_untyped > 0 and (": first --index " .. c_untyped[1].index .. " " .. c_untyped[1].name .. ": "
      .. c_untyped[1].e) or ""))
  if opts.strict then
    check(counts.untyped == 0, ("every call succeeds or raises a typed error (%d untyped)"):format(
      counts.untyped))
  end
  print("1.." .. n)
  if progress then progress:close() end
end

main()
