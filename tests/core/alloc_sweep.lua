-- alloc_sweep.lua — the workload test_alloc_sweep.c fails allocation in:
-- eager ops, a traced function with tf.cond and a while loop (first call
-- traces, later calls hit the cache), an optimiser step, a gradient, and a
-- saved model loaded and called. Returns a table of functions:
--   setup(dir)   saves the model the workload loads (run without failures)
--   run()        the workload; returns a string of its results
--   sweep(first, last, step) -> swept, bad
--     runs the workload with allocation n failing, for n = first, first +
--     step, ... up to last or until a run makes no failed allocation; after
--     each run the session must be eager, and a clean run must give the
--     reference results. `bad` lists what went wrong ("" when nothing).
local tf = rawget(_G, "tf") or require("moonflow")
local core = require("moonflow.core")
local sm = require("moonflow.io.saved_model")

local M = {}
local model_dir
local verbose = os.getenv("MOONFLOW_SWEEP_VERBOSE")

function M.setup(dir)
  model_dir = dir
  local Model = tf.Module:extend("SweepModel")
  function Model.init(self)
    self.w = tf.Variable(tf.constant({ 1.0, 2.0 }), { name = "w" })
  end
  local m = Model()
  m.apply = tf.func(function(x) return x * m.w + 1 end,
    { input_signature = { tf.TensorSpec({ 2 }, tf.float32, "x") } })
  sm.save(m, dir)
end

local function fmt(t)
  local v = t:numpy()
  if type(v) ~= "table" then return ("%.6g"):format(v) end
  local out = {}
  for i, x in ipairs(v) do out[i] = ("%.6g"):format(x) end
  return "{" .. table.concat(out, ",") .. "}"
end

function M.run()
  local r = {}
  -- eager ops
  local x = tf.constant({ { 1.0, 2.0 }, { 3.0, 4.0 } })
  local y = tf.matmul(x, x) + 1
  r[#r + 1] = fmt(tf.reduce_sum(tf.exp(y * 0.01)))
  -- a trace with cond and while, then cached calls
  local f = tf.func(function(a, n)
    local s = tf.cond(tf.reduce_sum(a) > 0, function() return a * 2 end, function() return -a end)
    local i = tf.constant(0)
    while i < n do
      s = s + 1
      i = i + 1
    end
    return tf.reduce_sum(s)
  end)
  local v2 = tf.constant({ 1.0, 2.0 })
  r[#r + 1] = fmt(f(v2, tf.constant(3)))
  r[#r + 1] = fmt(f(v2, tf.constant(4)))
  r[#r + 1] = fmt(f(-v2, tf.constant(1)))
  -- a gradient and an optimiser step
  local w = tf.Variable(tf.constant({ 0.5, -1.0 }))
  local opt = tf.keras.optimizers.SGD(0.1)
  local tape = tf.GradientTape()
  local loss
  do
    local t <close> = tape
    loss = tf.reduce_sum(w * w * 3)
  end
  local g = tape:gradient(loss, w)
  r[#r + 1] = fmt(g)
  opt:apply_gradients({ { g, w } })
  r[#r + 1] = fmt(w)
  -- a saved model loaded and called
  if model_dir then
    local m = sm.load(model_dir)
    r[#r + 1] = fmt(m.apply(tf.constant({ 3.0, 4.0 })))
  end
  return table.concat(r, " ")
end

local function typed_exhausted(e)
  return core.is_error(e) and e.type == "ResourceExhaustedError"
end

function M.sweep(first, last, step)
  local want = M.run()
  local bad, swept = {}, 0
  for n = first, last, step do
    collectgarbage()
    if verbose then io.stderr:write(("# failing allocation %d\n"):format(n)) end
    core.fail_alloc(n)
    local ok, e = pcall(M.run)
    local _, failed = core.fail_alloc(0)
    if not failed then
      if not ok then bad[#bad + 1] = ("n=%d: no failed allocation, yet: %s"):format(n, tostring(e)) end
      break
    end
    swept = swept + 1
    if not ok and not typed_exhausted(e) then
      bad[#bad + 1] = ("n=%d: %s: %s"):format(n, type(e), tostring(e))
    end
    if not tf.executing_eagerly() then
      bad[#bad + 1] = ("n=%d: left the session in graph mode"):format(n)
    end
    local ok2, got = pcall(M.run)
    if not ok2 or got ~= want then
      bad[#bad + 1] = ("n=%d: follow-up run gave %s, want %s"):format(n, tostring(got), want)
    end
    if #bad > 20 then break end
  end
  return swept, table.concat(bad, "\n")
end

return M
