-- retraces.lua — one tf.func traced for 5,000 distinct signatures
-- (argument 1 or $SOAK_TRACES): the resident set (VmRSS) must stay under
-- 100 MB throughout, and once the function is dropped and collected it
-- must come back to within 16 MB of where it started. Prints TAP and the
-- RSS curve; exits non-zero on failure. Run by `make soak`.
local tf = rawget(_G, "tf") or require("moonflow")

local TRACES = tonumber(arg and arg[1]) or tonumber(os.getenv("SOAK_TRACES")) or 5000
local BOUND_KB = 100 * 1024
local GIVE_BACK_KB = 16 * 1024

local function rss_kb()
  local f = assert(io.open("/proc/self/status"))
  local s = f:read("a")
  f:close()
  return tonumber(s:match("VmRSS:%s*(%d+)"))
end

local function check(n, ok, what)
  print(("%s %d - %s"):format(ok and "ok" or "not ok", n, what))
  return ok
end

collectgarbage()
local at_start = rss_kb()
local peak, curve = at_start, { ("0:%dMB"):format(at_start // 1024) }
do
  local f = tf.func(function(x) return tf.reduce_sum(x * 2 + 1) end)
  for i = 1, TRACES do
    f(tf.zeros({ i }))
    if i % (TRACES // 10) == 0 then
      local r = rss_kb()
      if r > peak then peak = r end
      curve[#curve + 1] = ("%d:%dMB"):format(i, r // 1024)
    end
  end
  assert(f:experimental_get_tracing_count() == TRACES)
end
collectgarbage()
collectgarbage()
local at_end = rss_kb()
print("# RSS by trace: " .. table.concat(curve, " ") .. (" dropped:%dMB"):format(at_end // 1024))
local ok = check(1, peak <= BOUND_KB,
  ("%d retraces of one tf.func: peak RSS %d KB (bound %d KB)"):format(TRACES, peak, BOUND_KB))
ok = check(2, at_end - at_start <= GIVE_BACK_KB,
  ("dropping the function gives memory back: %d KB over the start (bound %d KB)")
    :format(at_end - at_start, GIVE_BACK_KB)) and ok
print("1..2")
if not ok then os.exit(1) end
