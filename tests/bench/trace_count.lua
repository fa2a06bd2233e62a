-- trace_count.lua — the tracing rows of benchmark 4 (bench.lua's func and
-- first sections) as fixed work, for instruction counts under callgrind,
-- which a loaded machine does not disturb as it does wall-clock time:
--
--   moonflow tests/bench/trace_count.lua warm N    the func section's cached and
--       eager calls (200000 each, fixed), then N traces of a fresh tf.func of
--       the 100-op chain: the count of N=101 minus that of N=1, over 100, is
--       one warm trace with its first call
--   moonflow tests/bench/trace_count.lua first N   N = 1 or 0: the first trace
--       in a process is the difference
--
-- NOGC=1 stops Lua's collector first (what is left is the trace's own work).
-- Run each under `valgrind --tool=callgrind` with MOONFLOW_NUM_THREADS=1
-- OPENBLAS_NUM_THREADS=1 (idle pool threads add noise) and take the totals.

local tf = tf or require("moonflow")

-- The 100-op elementwise chain of benchmark 4 (chain.lua, beside this file).
local chain = dofile((arg[0]:match("^(.*/)") or "./") .. "chain.lua")

local mode, n = arg[1], tonumber(arg[2])
assert((mode == "warm" or mode == "first") and n, "usage: trace_count.lua warm|first N")
if (os.getenv("NOGC") or "") ~= "" then collectgarbage("stop") end
if mode == "warm" then
  local x = tf.constant(1.0)
  local f = tf.func(function(v) return v + 1 end)
  local y = f(x)
  for _ = 1, 200000 do y = f(x) end
  for _ = 1, 200000 do y = x + 1 end
  assert(y:numpy() == 2.0)
end
local tiny = tf.constant({ 1.0, 2.0, 3.0, 4.0 })
for _ = 1, n do
  local g = tf.func(chain, { name = "chain100" })
  g(tiny)
end
