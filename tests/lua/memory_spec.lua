-- memory_spec.lua — tensor memory is visible to Lua's collector, so eager
-- loops that drop their tensors stay bounded (DESIGN.md "Lua's side").
-- 3,000 iterations of 1 MiB tensors allocate ~3 GB in total; the process's
-- resident set (VmRSS of /proc/self/status) must stay under 600 MB.
local tf = tf or require("moonflow")
local H = require("helpers")

local LIMIT_KB = 600 * 1024
local N = 3000
local SIZE = 262144 -- float32 elements: 1 MiB

-- Runs body(i) N times, sampling RSS every 50 iterations; returns the peak.
local function peak_rss(body)
  local peak = H.rss_kb()
  for i = 1, N do
    body(i)
    if i % 50 == 0 then
      local r = H.rss_kb()
      if r > peak then peak = r end
    end
  end
  return math.max(peak, H.rss_kb())
end

local function mb(kb) return ("%.0f MB"):format(kb / 1024) end

describe("eager memory", function()
  it("can read VmRSS", function()
    local r = H.rss_kb()
    assert.is_number(r)
    assert.is_true(r > 0)
    -- a sanity check that the probe sees allocations: hold 64 MiB
    local held = {}
    for i = 1, 64 do held[i] = tf.zeros({ SIZE }) + 0 end
    assert.is_true(H.rss_kb() >= r + 32 * 1024, "RSS did not grow while holding 64 MiB of tensors")
    held = nil -- luacheck: ignore
    collectgarbage()
  end)

  it("stays bounded over 3,000 allocations of 1 MiB tensors (tf.zeros)", function()
    collectgarbage()
    local peak = peak_rss(function()
      local x = tf.zeros({ SIZE })
      assert(x.shape[0] == SIZE)
    end)
    assert.is_true(peak < LIMIT_KB, "peak RSS " .. mb(peak) .. " over 3,000 tf.zeros({262144})")
  end)

  it("stays bounded when each iteration also computes on the tensor", function()
    collectgarbage()
    local acc = 0
    local peak = peak_rss(function(i)
      local x = tf.zeros({ SIZE }) + i
      acc = acc + 1
      assert(x ~= nil)
    end)
    assert.are.equal(N, acc)
    assert.is_true(peak < LIMIT_KB, "peak RSS " .. mb(peak) .. " over 3,000 tf.zeros({262144}) + i")
  end)

  -- In incremental mode the collector's cost is a walk of Lua's heap per
  -- cycle, whatever the tensors weigh: counting every tensor byte as a Lua
  -- byte ran a cycle per heap-size of results (two per step of a small
  -- MLP). Results of 4 KiB and more run one full collection per 16 MiB (or
  -- per Lua heap, when that is larger). A finaliser that re-arms itself
  -- counts the cycles. (Generational mode: the next test.)
  it("runs the collector per 16 MiB of results, not per Lua-heap-size (incremental; 128 MiB: at most 16 cycles)", function()
    local was = collectgarbage("incremental")
    collectgarbage()
    local cycles = { n = 0 }
    local function arm()
      setmetatable({}, { __gc = function()
        cycles.n = cycles.n + 1
        if not cycles.stop then arm() end
      end })
    end
    arm()
    for _ = 1, 1024 do
      local x = tf.zeros({ 16384 }) + 1 -- two 64 KiB results
      assert(x ~= nil)
    end
    cycles.stop = true
    local n = cycles.n
    collectgarbage(was)
    collectgarbage()
    assert.is_true(n >= 1, "no collection over 128 MiB of results")
    assert.is_true(n <= 16, n .. " collector cycles over 128 MiB of 64 KiB results")
  end)

  it("stays bounded for tensors kept only in a Lua table that is replaced", function()
    collectgarbage()
    local keep = {}
    local peak = peak_rss(function(i)
      keep[i % 8 + 1] = tf.ones({ SIZE }) * 2
    end)
    keep = nil -- luacheck: ignore
    assert.is_true(peak < LIMIT_KB, "peak RSS " .. mb(peak) .. " with a ring of 8 live tensors")
  end)

  -- 512 eager 256 KiB results, each dropped at once, in the collector
  -- mode given: how many cycles a re-arming finaliser saw and the most
  -- tensor memory alive at once.
  local function drop_results(mode)
    local core = require("moonflow.core")
    local was = collectgarbage(mode)
    local a, b = tf.ones({ 256, 256 }), tf.ones({ 256, 256 })
    collectgarbage()
    local base = core.live_bytes()
    local cycles, counting = 0, true
    local function sentinel()
      setmetatable({}, { __gc = function()
        cycles = cycles + 1
        if counting then sentinel() end
      end })
    end
    sentinel()
    local peak = 0
    for _ = 1, 512 do
      local c = tf.matmul(a, b)
      assert(c.shape[0] == 256)
      peak = math.max(peak, core.live_bytes() - base)
    end
    counting = false
    collectgarbage(was)
    return cycles, peak
  end

  -- In generational mode (moonflow's, and the stock lua5.4's) a young
  -- collection, which walks only what is new, runs before the next result
  -- is made: a dropped result is freed by the next op, so its buffer comes
  -- back from the block cache still in the processor's cache.
  it("frees a dropped 256 KiB result by the next op in generational mode", function()
    local _, peak = drop_results("generational")
    assert.is_true(peak <= 3 * 2 ^ 18, ("%.2f MiB of results alive at once"):format(peak / 2 ^ 20))
  end)

  -- In incremental mode a cycle walks the whole Lua heap, so starting one
  -- every heap's worth of results (1.5-2 MB in a script: every few 256 KiB
  -- matmuls) cost a fifth of an eager 256x256 tf.matmul. One full
  -- collection per 16 MiB of results: 128 MiB start about 8 cycles (57
  -- before), and dead ones never hold more than that batch or so.
  it("collects 256 KiB results per 16 MiB in incremental mode, not a cycle every few results", function()
    local cycles, peak = drop_results("incremental")
    assert.is_true(cycles <= 16, cycles .. " collection cycles for 128 MiB of results")
    assert.is_true(peak < 24 * 2 ^ 20, ("%.1f MiB of tensors alive at once"):format(peak / 2 ^ 20))
  end)
end)
