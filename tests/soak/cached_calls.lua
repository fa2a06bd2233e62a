-- cached_calls.lua — a traced function called over and over with the same
-- signature runs its cached graph; memory must plateau. 200,000 calls
-- (argument 1 or $SOAK_CALLS); the resident set (VmRSS) after a warm-up of
-- a tenth of them and at the end may differ by at most 4 MB. Prints TAP;
-- exits non-zero on failure. Run by `make soak`.
--
-- Found: the fused elementwise kernel took 8 KB of aligned scratch per call
-- whatever the tensor size; freed between results that live until Lua
-- collects them, it fragmented glibc's heap (RSS 209 MB after 200,000
-- calls). Fixed in ops_fused.c: 34 MB. The rest (~6 MB per 100,000 calls)
-- was results waiting for the collector: each is a 64-byte userdata to Lua
-- but ~250 bytes of tensor in C, and only tensors of 4 KB or more were
-- reported to the collector, so garbage piled up (115,000 dead results
-- alive after 200,000 calls). Small tensors are now reported too
-- (lua/binding/tensor.c, mfL_account): 15 MB flat to 1,000,000 calls.
local tf = rawget(_G, "tf") or require("moonflow")

local CALLS = tonumber(arg and arg[1]) or tonumber(os.getenv("SOAK_CALLS")) or 200000
local BOUND_KB = 4 * 1024

local function rss_kb()
  local f = assert(io.open("/proc/self/status"))
  local s = f:read("a")
  f:close()
  return tonumber(s:match("VmRSS:%s*(%d+)"))
end

local f = tf.func(function(x) return x * 2 + 1 end)
local x = tf.constant({ 1.0, 2.0 })
local warm = CALLS // 10
local at_warm, curve = nil, {}
for i = 1, CALLS do
  f(x)
  if i == warm then at_warm = rss_kb() end
  if i % (CALLS // 10) == 0 then curve[#curve + 1] = ("%d:%dMB"):format(i, rss_kb() // 1024) end
end
local at_end = rss_kb()
print("# RSS by call: " .. table.concat(curve, " "))
local grew = at_end - at_warm
print(("%s 1 - %d cached calls of one traced function: RSS grew %d KB after the warm-up (bound %d KB)")
  :format(grew <= BOUND_KB and "ok" or "not ok", CALLS, grew, BOUND_KB))
print("1..1")
if grew > BOUND_KB then os.exit(1) end
