-- bench.lua — moonflow's side of the benchmark suite (tests/bench/run.sh).
--
--   moonflow tests/bench/bench.lua SECTION [ARGS...]
--   lua5.4 tests/bench/bench.lua SECTION [ARGS...]   (LUA_CPATH finding moonflow.so)
--
-- Each figure is printed as one line "@ key value" (seconds per operation,
-- bytes, or a count); lines starting with "#" are notes. run.sh collects the
-- "@" lines of every section and of the peers (peer.py, sgemm.c) and
-- table.lua prints them side by side. A timing is the best repeat after a
-- warm-up repeat ("key"), with the median beside it ("key.median"). Small
-- operations are timed in 41 repeats of about 5 ms each (enough calls that
-- the clock's resolution does not matter); large ones in 5-9 repeats of
-- one call. The best repeat is the primary figure because the machine may
-- be shared: other processes only ever add time, to moonflow and peers
-- alike, and short repeats give each side the same chance of a quiet one.
-- The process's CPU time is recorded too ("key.cpu"): on a loaded machine
-- it is the steadier figure for single-threaded work.
--
-- Threads: moonflow's own kernels (elementwise ops, fused programs) use its
-- thread pool (core/run/threadpool.c, MOONFLOW_NUM_THREADS, default one per
-- core) where the work is large enough, and BLAS-backed ops (MatMul,
-- Conv2D's GEMM) OpenBLAS's pool (OPENBLAS_NUM_THREADS). run.sh sets both
-- to the section's thread count, except for the small-work sections
-- (overhead, func, first), which run with moonflow's pool as a user gets
-- it: small work must not pay for it.

local tf = require("moonflow")
local core = require("moonflow.core")
local now = core.now

-- "@ key best", "@ key.median median", "@ key.cpu best-CPU-time" (or one
-- value: bytes, counts).
local function out(key, value, med, cpu)
  print(("@ %s %.9g"):format(key, value))
  if med then print(("@ %s.median %.9g"):format(key, med)) end
  if cpu then print(("@ %s.cpu %.9g"):format(key, cpu)) end
end
local function note(fmt, ...) print("# " .. fmt:format(...)) end

local function median(t)
  table.sort(t)
  local n = #t
  if n % 2 == 1 then return t[(n + 1) // 2] end
  return (t[n // 2] + t[n // 2 + 1]) / 2
end

-- Seconds per call of fn(): `inner` calls per repeat, `reps` repeats after
-- one warm-up repeat; returns the best repeat and the median of wall-clock
-- time, and the best repeat of the process's CPU time (os.clock: all its
-- threads, so comparable with wall time only where one thread works).
local function measure(fn, inner, reps)
  for _ = 1, inner do fn() end
  local times, best, cpu = {}, math.huge, math.huge
  for r = 1, reps do
    local c0, t0 = os.clock(), now()
    for _ = 1, inner do fn() end
    local t1, c1 = now(), os.clock()
    times[r] = (t1 - t0) / inner
    best = math.min(best, times[r])
    cpu = math.min(cpu, (c1 - c0) / inner)
  end
  return best, median(times), cpu
end

-- How many calls make one repeat last about `target` seconds.
local function calibrate(fn, target)
  local n = 1
  while true do
    local t0 = now()
    for _ = 1, n do fn() end
    local dt = now() - t0
    if dt >= target / 4 or n >= 1 << 24 then
      return math.max(1, math.floor(n * target / math.max(dt, 1e-9)))
    end
    n = n * 4
  end
end

local function auto(fn, target, reps)
  return measure(fn, calibrate(fn, target or 0.005), reps or 41)
end

-- The 100-op elementwise chain of benchmark 4 (chain.lua, beside this file).
local chain = dofile((arg[0]:match("^(.*/)") or "./") .. "chain.lua")

local function status_kb(field)
  local f = io.open("/proc/self/status", "r")
  if not f then return nil end
  local text = f:read("a")
  f:close()
  local kb = text:match(field .. ":%s*(%d+) kB")
  return kb and tonumber(kb) * 1024 or nil
end

-- Resets VmHWM to the current RSS (Linux >= 4.0); false if refused.
local function reset_peak()
  local f = io.open("/proc/self/clear_refs", "w")
  if not f then return false end
  local ok = f:write("5")
  ok = f:close() and ok
  return ok and true or false
end

local function full_gc()
  collectgarbage("collect")
  collectgarbage("collect")
end

local sections = {}

-- 1. eager overhead of one scalar add ----------------------------------------
function sections.overhead()
  local mode = collectgarbage("incremental")
  collectgarbage(mode)
  note("%s, Lua collector in %s mode", _VERSION, mode)
  local a, b = tf.constant(1.0), tf.constant(1.0)
  local c
  out("overhead.mf", auto(function() c = a + b end))
  assert(c:numpy() == 2.0)
  -- the floor: a C call that makes one userdata with a __gc (floor.c, built
  -- by run.sh), the least an op returning a new tensor object must do
  local ok, floor = pcall(require, "bench_floor")
  if ok then
    local new = floor.new
    out("overhead.floor", auto(function() c = new(a, b) end))
  else
    note("bench_floor is not built (%s): no floor figure", tostring(floor))
  end
end

-- 2. c = a + b on 16M float32, at THREADS threads of moonflow's pool -------
function sections.add16m(threads)
  local n = 16 * 1024 * 1024
  local a = tf.random.uniform({ n })
  local b = tf.random.uniform({ n })
  local c
  out(("add16m.t%s.mf"):format(threads), measure(function() c = a + b; c = nil end, 1, 9))
end

-- 3. sgemm ------------------------------------------------------------------
function sections.sgemm(threads, ...)
  -- the kernel moonflow chose (a word: table.lua shows it beside the figures)
  local blas = tf.config.blas()
  note("moonflow's OpenBLAS kernel: %s (%s)", blas.kernel, blas.reason)
  print(("@ sgemm.kernel.mf %s"):format(blas.kernel))
  for _, s in ipairs({ ... }) do
    local n = tonumber(s)
    local a = tf.random.uniform({ n, n })
    local b = tf.random.uniform({ n, n })
    local reps = n <= 256 and 15 or n <= 1024 and 9 or 5
    local inner = n <= 256 and 20 or 1
    local c
    out(("sgemm.%d.t%s.mf"):format(n, threads),
      measure(function() c = tf.matmul(a, b); c = nil end, inner, reps))
  end
end

-- 4. tf.func ------------------------------------------------------------------
function sections.func()
  -- a cached call of a one-op function, against the same op run eagerly
  local x = tf.constant(1.0)
  local f = tf.func(function(v) return v + 1 end)
  local y = f(x)
  assert(y:numpy() == 2.0)
  out("func.cached.mf", auto(function() y = f(x) end))
  out("func.eager1.mf", auto(function() y = x + 1 end))

  -- the first call (trace + plan + run) of a fresh 100-op function, warm:
  -- the process has traced it before (the library's modules are loaded,
  -- AutoGraph has converted the source), so each figure is the trace itself
  local tiny = tf.constant({ 1.0, 2.0, 3.0, 4.0 })
  local times, cpus = {}, {}
  local ops
  for r = 1, 21 do
    local g = tf.func(chain, { name = "chain100" })
    local c0, t0 = os.clock(), now()
    g(tiny)
    times[r], cpus[r] = now() - t0, os.clock() - c0
    if r == 1 then
      local cf = g:concrete_functions()[1]
      ops = #cf.graph:get_operations()
    end
  end
  table.remove(times, 1) -- the very first one also warms up the library
  table.remove(cpus, 1)
  local best = math.huge
  for _, t in ipairs(times) do best = math.min(best, t) end
  out("func.trace100.mf", median(times)) -- the median, as is: nothing subtracted
  out("func.trace100.mf.cpu", median(cpus))
  out("func.trace100.mf.best", best)
  note("the traced 100-op chain has %d graph nodes (placeholder, consts and ops)", ops)

  -- the 100-op chain on 16 elements: traced vs eager
  local small = tf.random.uniform({ 16 })
  local g = tf.func(chain)
  local r1, r2 = g(small), chain(small)
  local diff = tf.reduce_max(tf.abs(r1 - r2)):numpy()
  assert(diff < 1e-5, "traced and eager chains differ by " .. diff)
  out("chain16.traced", auto(function() r1 = g(small) end))
  out("chain16.eager", auto(function() r2 = chain(small) end))
end

-- 4. the first trace in a process: run.sh starts one process per sample.
-- Only `tf` is loaded; nothing has been traced and AutoGraph has not read
-- this file. The figure runs from just before the tf.func's first call to
-- its return (AutoGraph's conversion, the trace, the optimiser, the plan
-- and the run), so it leaves out the program's start and loading `tf`.
function sections.first()
  local tiny = tf.constant({ 1.0, 2.0, 3.0, 4.0 })
  local g = tf.func(chain, { name = "chain100" })
  local c0, t0 = os.clock(), now()
  local r = g(tiny)
  local t1, c1 = now(), os.clock()
  assert(tostring(r.shape) == "(4,)", tostring(r.shape))
  out("func.first100.mf", t1 - t0)
  out("func.first100.mf.cpu", c1 - c0)
end

-- 4. the 100-op chain on 1M elements, traced and eager, at THREADS threads
-- of moonflow's pool (run.sh sets MOONFLOW_NUM_THREADS)
function sections.chain1m(threads)
  local big = tf.random.uniform({ 1024 * 1024 })
  local g = tf.func(chain)
  local r1, r2 = g(big), chain(big)
  local diff = tf.reduce_max(tf.abs(r1 - r2)):numpy()
  assert(diff < 1e-5, "traced and eager chains differ by " .. diff)
  r1, r2 = nil, nil
  out(("chain1m.t%s.traced"):format(threads), measure(function() r1 = g(big); r1 = nil end, 1, 5))
  out(("chain1m.t%s.eager"):format(threads), measure(function() r2 = chain(big); r2 = nil end, 1, 5))
end

-- 5. the seed guide's conv2d ---------------------------------------------------
function sections.conv(threads, tag)
  local suffix = tag and "." .. tag or ""
  local x = tf.random.uniform({ 1, 200, 200, 100 })
  local w = tf.random.uniform({ 3, 3, 100, 100 })
  local f = tf.func(function(i, k) return tf.nn.conv2d(i, k, 1, "VALID") end)
  local y = tf.nn.conv2d(x, w, 1, "VALID")
  assert(tostring(y.shape) == "(1, 198, 198, 100)", tostring(y.shape))
  y = nil
  out(("conv.t%s.eager%s"):format(threads, suffix), measure(function()
    y = tf.nn.conv2d(x, w, 1, "VALID"); y = nil end, 1, 5))
  out(("conv.t%s.traced%s"):format(threads, suffix), measure(function() y = f(x, w); y = nil end, 1, 5))
end

-- 6. peak memory of the 1M-element chain --------------------------------------
-- RSS growth over one call: VmHWM is reset to the current RSS just before
-- the call and read after it. run.sh fixes glibc's mmap threshold, so every
-- 4 MiB buffer is a mapping of its own, returned when freed: the growth then
-- counts the buffers alive at once. "first" is the call that traces; the
-- figure is the worst of three cached calls. Eager is measured the same way,
-- for comparison (its intermediates live until Lua's collector frees them).
-- With TAG the keys end in .TAG (run.sh's run under glibc's defaults).
function sections.memory(tag)
  local suffix = tag and "." .. tag or ""
  local n = 1024 * 1024
  local x = tf.random.uniform({ n })
  local g = tf.func(chain)
  full_gc()
  if not reset_peak() then
    note("cannot reset VmHWM (/proc/self/clear_refs refused): memory figures skipped")
    return
  end
  local function growth(fn)
    full_gc()
    reset_peak()
    local base = status_kb("VmRSS")
    local r = fn()
    local peak = status_kb("VmHWM") - base
    r = nil
    return peak
  end
  out("mem.chain1m.traced.first" .. suffix, growth(function() return g(x) end))
  local worst = 0
  for _ = 1, 3 do worst = math.max(worst, growth(function() return g(x) end)) end
  out("mem.chain1m.traced" .. suffix, worst)
  out("mem.chain1m.eager" .. suffix, growth(function() return chain(x) end))
end

-- 7. one training step of a 784-256-10 MLP at batch 64 --------------------------
function sections.mlp(threads)
  if not tf.GradientTape then
    print("@ mlp.unavailable 1")
    note("tf.GradientTape is not yet available")
    return
  end
  local ok, err = pcall(function()
    tf.random.set_seed(1)
    local x = tf.random.normal({ 64, 784 })
    local labels = tf.cast(tf.random.uniform({ 64 }, { minval = 0, maxval = 10 }), tf.int32)
    local w1 = tf.Variable(tf.random.normal({ 784, 256 }, { stddev = 0.05 }))
    local b1 = tf.Variable(tf.zeros({ 256 }))
    local w2 = tf.Variable(tf.random.normal({ 256, 10 }, { stddev = 0.05 }))
    local b2 = tf.Variable(tf.zeros({ 10 }))
    local params = { w1, b1, w2, b2 }
    local function step(xb, yb)
      local tape = tf.GradientTape()
      local h = tf.nn.relu(tf.matmul(xb, w1) + b1)
      local logits = tf.matmul(h, w2) + b2
      local loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(yb, logits))
      tape:stop()
      local grads = tape:gradient(loss, params)
      for i, v in ipairs(params) do v:assign_sub(grads[i] * 0.01) end
      return loss
    end
    local traced = tf.func(step)
    traced(x, labels)
    out(("mlp.t%s.eager"):format(threads), auto(function() step(x, labels) end, 0.05, 9))
    out(("mlp.t%s.traced"):format(threads), auto(function() traced(x, labels) end, 0.05, 9))
  end)
  if not ok then
    print("@ mlp.failed 1")
    note("MLP step failed: %s", tostring(err))
  end
end

-- 10. lesson 14's model (tutorials/14-convolutions.md): one training epoch
-- (20 steps of 50 images) of its traced step on scikit-learn's digits -----
local DIGITS = "/usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz"

local function read_digits()
  local f = io.popen('gzip -dc "' .. DIGITS .. '" 2>/dev/null')
  local pixels, labels = {}, {}
  for line in f:lines() do
    local row = {}
    for v in line:gmatch("[^,]+") do row[#row + 1] = tonumber(v) end
    labels[#labels + 1] = table.remove(row)
    pixels[#pixels + 1] = row
  end
  f:close()
  if #pixels == 0 then return nil end
  return tf.reshape(tf.constant(pixels, tf.float32) / 16, { -1, 8, 8, 1 }), tf.constant(labels, tf.int32)
end

function sections.lesson14(threads)
  local images, digits = read_digits()
  if not images then
    print("@ lesson14.unavailable 1")
    note("scikit-learn's digits (%s) are not installed", DIGITS)
    return
  end
  tf.random.set_seed(0)
  local Net = tf.Module:extend("Net")
  function Net:init()
    self.conv = tf.keras.layers.Conv2D(16, 3, { padding = "same" })
    self.bn = tf.keras.layers.BatchNormalization({ momentum = 0.9 })
    self.pool = tf.keras.layers.MaxPooling2D()
    self.drop = tf.keras.layers.Dropout(0.25)
    self.flat = tf.keras.layers.Flatten()
    self.out = tf.keras.layers.Dense(10)
  end
  function Net:__call(x, training)
    local h = tf.nn.relu(self.bn(self.conv(x), training))
    h = self.drop(self.pool(h), training)
    return self.out(self.flat(h))
  end
  local net = Net()
  local opt = tf.keras.optimizers.Adam({ learning_rate = 0.01 })
  local step = tf.func(function(x, y)
    local tape = tf.GradientTape()
    local logits = net(x, true)
    local loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, logits))
    tape:stop()
    local vars = net:trainable_variables()
    local grads = tape:gradient(loss, vars)
    local gv = {}
    for i, v in ipairs(vars) do gv[i] = { grads[i], v } end
    opt:apply_gradients(gv)
    return loss
  end)
  -- the batches are sliced once: the figure is the training, as PyTorch's
  local xs, ys = {}, {}
  for b = 0, 19 do
    local rows = ("%d:%d"):format(50 * b, 50 * b + 50)
    xs[b + 1], ys[b + 1] = images[rows], digits[rows]
  end
  local loss
  local function epoch()
    for b = 1, 20 do loss = step(xs[b], ys[b]) end
    return loss:numpy()
  end
  epoch() -- traces
  out(("lesson14.t%s.mf"):format(threads), measure(epoch, 1, 15))
  note("lesson 14 epoch: final batch loss %.3f", epoch())
end

-- 12. Keras's fit (tutorials/16-keras-fit.md): lesson 16's model (Dense 32
-- relu, Dense 10 on the 64 pixels), one epoch of 30 batches of 50 digits
-- through model:fit (its traced train_step, shuffle off so every side does
-- the same work) beside the same epoch of a hand-written tf.func step ------
function sections.kerasfit(threads)
  local images, digits = read_digits()
  if not images then
    print("@ kerasfit.unavailable 1")
    note("scikit-learn's digits (%s) are not installed", DIGITS)
    return
  end
  local x, y = tf.reshape(images, { -1, 64 })[":1500"], digits[":1500"]
  local function make()
    tf.random.set_seed(0)
    return tf.keras.Sequential({ tf.keras.layers.Dense(32, { activation = "relu" }), tf.keras.layers.Dense(10) })
  end
  local loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(true)
  local model = make()
  model:compile({ optimizer = tf.keras.optimizers.Adam(0.01), loss = loss_fn, metrics = { "accuracy" } })
  local function fit_epoch()
    return model:fit(x, y, { epochs = 1, batch_size = 50, shuffle = false, verbose = 0 }).history.loss[1]
  end
  fit_epoch() -- traces
  out(("kerasfit.t%s.fit"):format(threads), measure(fit_epoch, 1, 15))
  note("fit epoch: loss %.3f", fit_epoch())
  local net = make()
  local opt = tf.keras.optimizers.Adam(0.01)
  local step = tf.func(function(xb, yb)
    local tape = tf.GradientTape()
    local loss = loss_fn(yb, net(xb, { training = true }))
    tape:stop()
    local vars = net:trainable_variables()
    local grads = tape:gradient(loss, vars)
    local gv = {}
    for i, v in ipairs(vars) do gv[i] = { grads[i], v } end
    opt:apply_gradients(gv)
    return loss
  end)
  local xs, ys = {}, {}
  for b = 0, 29 do
    local rows = ("%d:%d"):format(50 * b, 50 * b + 50)
    xs[b + 1], ys[b + 1] = x[rows], y[rows]
  end
  local loss
  local function hand_epoch()
    for b = 1, 30 do loss = step(xs[b], ys[b]) end
    return loss:numpy()
  end
  hand_epoch()
  out(("kerasfit.t%s.hand"):format(threads), measure(hand_epoch, 1, 15))
  note("hand-written epoch: final batch loss %.3f", hand_epoch())
end

-- 9. tf.data: an epoch of from_tensor_slices (60k x 64 float32) -> shuffle
-- -> map (a few elementwise ops) -> batch(64) -> prefetch, per element;
-- the same loop written by hand in Lua (a shuffled order, a gather per
-- batch, the same ops); and a traced training step fed by the prefetch:
-- the time it waits in get_next (the stall) per batch.
function sections.data()
  tf.random.set_seed(1)
  local n, width = 60000, 64
  local x = tf.random.uniform({ n, width })
  local function f(v) return tf.tanh(v * 2.0 + 1.0) * 0.5 end
  local ds = tf.data.Dataset.from_tensor_slices(x):shuffle(1024, { seed = 1 }):map(f):batch(64)
    :prefetch(tf.data.AUTOTUNE)
  local function epoch()
    for _ in ds do end
  end
  local best, med, cpu = measure(epoch, 1, 3)
  out("data.pipeline", best / n, med / n, cpu / n)
  local function by_hand()
    local order = {}
    for i = 1, n do order[i] = i - 1 end
    for i = n, 2, -1 do
      local j = math.random(i)
      order[i], order[j] = order[j], order[i]
    end
    for start = 1, n, 64 do
      local idx = tf.constant(table.move(order, start, math.min(start + 63, n), 1, {}))
      f(tf.gather(x, idx))
    end
  end
  best, med, cpu = measure(by_hand, 1, 3)
  out("data.by_hand", best / n, med / n, cpu / n)
  -- The training step: a small realistic model, an MLP 64 -> 256 -> 256 -> 10
  -- (ReLU) with softmax cross-entropy and SGD, traced. Its labels are a fixed
  -- linear teacher's argmax over the batch, so the pipeline stays the
  -- issue's (features only).
  local teacher = tf.random.normal({ width, 10 })
  local function dense(i, o)
    return tf.Variable(tf.random.normal({ i, o }, { stddev = math.sqrt(2 / i) })), tf.Variable(tf.zeros({ o }))
  end
  local w1, b1 = dense(width, 256)
  local w2, b2 = dense(256, 256)
  local w3, b3 = dense(256, 10)
  local params = { w1, b1, w2, b2, w3, b3 }
  local step = tf.func(function(b)
    local centred = b - tf.reduce_mean(b, { axis = 0 })
    local labels = tf.cast(tf.argmax(tf.matmul(centred, teacher), { axis = 1 }), tf.int32)
    local tape = tf.GradientTape()
    local h1 = tf.nn.relu(tf.matmul(b, w1) + b1)
    local h2 = tf.nn.relu(tf.matmul(h1, w2) + b2)
    local logits = tf.matmul(h2, w3) + b3
    local loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits))
    tape:stop()
    local grads = tape:gradient(loss, params)
    for i, v in ipairs(params) do v:assign_sub(grads[i] * 0.05) end
    return loss
  end)
  local fed = tf.data.Dataset.from_tensor_slices(x):shuffle(1024, { seed = 1 }):map(f)
    :batch(64, { drop_remainder = true }):prefetch(tf.data.AUTOTUNE)
  step(fed:iter():get_next())
  local stall, steps, first_loss, last_loss, t0 = 0, 0, nil, nil, now()
  local it = fed:iter()
  while true do
    local w0 = now()
    local b = it:next()
    stall = stall + (now() - w0)
    if b == nil then break end
    local loss = step(b)
    steps = steps + 1
    if steps == 1 then first_loss = loss:numpy() end
    last_loss = loss
  end
  local total = now() - t0
  out("data.stall_per_step", stall / steps)
  out("data.step", (total - stall) / steps)
  note("prefetch-fed training (MLP 64-256-256-10): %d steps, %.1f%% of the time waiting on the "
    .. "pipeline, loss %.3f -> %.3f", steps, 100 * stall / total, first_loss, last_loss:numpy())
end

local name = arg[1]
local section = sections[name]
if not section then
  io.stderr:write("usage: bench.lua overhead|add16m THREADS|sgemm THREADS N...|func|first|chain1m THREADS|conv THREADS [TAG]|memory [TAG]|mlp THREADS|data|lesson14 THREADS|kerasfit THREADS\n")
  os.exit(2)
end
section(table.unpack(arg, 2))
