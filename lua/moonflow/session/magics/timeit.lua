-- %timeit [-n N] [-r R] <statement>: median time per run over R repeats.

local errors = require("moonflow.errors")

local MIN_TIME = 0.2 -- a repeat runs at least this long (seconds)
local REPEATS = 5
local MAX_LOOPS = 1e9

local function usage()
  errors.raise("UsageError", "usage: %timeit [-n loops] [-r repeats] <statement>")
end

local function parse(args)
  local opts = {}
  while true do
    local flag, value, rest = args:match("^%-([nr])%s*(%d+)%s*(.*)$")
    if not flag then break end
    opts[flag] = tonumber(value)
    args = rest
  end
  if args == "" or (opts.n or 1) < 1 or (opts.r or 1) < 1 then usage() end
  return args, opts.n, opts.r or REPEATS
end

local function time_loops(session, f, loops)
  local start = session.clock()
  for _ = 1, loops do f() end
  return session.clock() - start
end

--- Loops per repeat: 1, 2, 5, 10, 20, 50, ... until a repeat takes MIN_TIME.
local function autorange(session, f)
  local base = 1
  while true do
    for _, k in ipairs({ 1, 2, 5 }) do
      local loops = base * k
      if time_loops(session, f, loops) >= MIN_TIME or loops >= MAX_LOOPS then return loops end
    end
    base = base * 10
  end
end

local function median(xs)
  local s = { table.unpack(xs) }
  table.sort(s)
  local n = #s
  return n % 2 == 1 and s[(n + 1) // 2] or (s[n // 2] + s[n // 2 + 1]) / 2
end

--- Median absolute deviation: the spread of the per-loop times.
local function mad(xs, m)
  local d = {}
  for i, x in ipairs(xs) do d[i] = math.abs(x - m) end
  return median(d)
end

return {
  doc = [[%timeit stmt  median time per run of stmt (loops picked so a repeat takes >= 0.2 s)
%timeit [-n loops] [-r repeats] <statement> compiles the statement once, picks
the number of loops (1, 2, 5, 10, ...) so that one repeat takes at least
0.2 s (or uses -n), runs 5 repeats (or -r) and prints the median time per
loop and the median absolute deviation (MAD) across repeats:
  12.3 µs ± 412 ns per loop (median ± MAD of 5 runs, 10000 loops each)]],
  run = function(args, session)
    local stmt, loops, repeats = parse(args)
    local f = session.load(stmt)
    loops = loops or autorange(session, f)
    local per_loop = {}
    for i = 1, repeats do per_loop[i] = time_loops(session, f, loops) / loops end
    local m = median(per_loop)
    print(("%s ± %s per loop (median ± MAD of %d run%s, %d loop%s each)"):format(
      session.format_duration(m), session.format_duration(mad(per_loop, m)),
      repeats, repeats == 1 and "" or "s", loops, loops == 1 and "" or "s"))
  end,
}
