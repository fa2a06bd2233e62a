-- retracing.lua — TF's frequent-retracing warning: a detector per Lua
-- function definition counts the eager calls of its tf.funcs and which of
-- them traced; when most recent calls traced, it warns (twice at most)
-- with TF's text. func.lua reports each call; call_gradient.lua gives its
-- backward functions detectors of their own.

local core = require("moonflow.core")

local retracing = {}

local FREQUENT_TRACING_THRESHOLD = 5
local FREQUENT_TRACING_HISTORY = 10
local FREQUENT_TRACING_MAX_WARNINGS = 2

-- Frequent-retracing detector, shared by every tf.func of one Lua
-- function definition (so re-wrapping in a loop is caught too).
local detectors = {}

--- A detector of its own (a function no other tf.func shares).
-- fast_calls counts the calls Function.__call's C path ran (fastpath.c),
-- added to the others before the detector is read or added to.
function retracing.new()
  return { calls = 0, per_trace = {}, warnings = 0, fast_calls = core.counter() }
end

local counter_take = core.counter_take
local function called_without_tracing(d, n)
  if #d.per_trace == 0 then d.per_trace[1] = 0 end
  d.per_trace[#d.per_trace] = d.per_trace[#d.per_trace] + n
  d.calls = d.calls + n
end
local function flush(d)
  local n = counter_take(d.fast_calls)
  if n > 0 then called_without_tracing(d, n) end
end

--- The detector of fn's definition site.
function retracing.detector_for(fn)
  local info = debug.getinfo(fn, "S")
  local key = info.source .. ":" .. info.linedefined
  local d = detectors[key]
  if not d then
    d = retracing.new()
    detectors[key] = d
  end
  return d
end

--- An eager call that reused a trace.
function retracing.called_without_tracing(d)
  flush(d)
  called_without_tracing(d, 1)
end

--- An eager call that traced: warns as TF does when most recent calls did,
-- and says why this one traced (`why`, a function giving the reason).
function retracing.called_with_tracing(d, name, why)
  flush(d)
  d.calls = d.calls + 1
  d.per_trace[#d.per_trace + 1] = 1
  while #d.per_trace > 0 and d.calls - d.per_trace[1] > FREQUENT_TRACING_HISTORY do
    d.calls = d.calls - table.remove(d.per_trace, 1)
  end
  if d.warnings >= FREQUENT_TRACING_MAX_WARNINGS then return end
  if #d.per_trace >= FREQUENT_TRACING_THRESHOLD then
    d.warnings = d.warnings + 1
    io.stderr:write(("WARNING: %d out of the last %d calls to %s triggered tf.func retracing. "
      .. "Tracing is expensive and the excessive number of tracings could be due to (1) creating "
      .. "tf.func repeatedly in a loop, (2) passing tensors with different shapes, (3) passing "
      .. "Lua values instead of tensors. For (1), define your tf.func outside of the loop. For "
      .. "(2), tf.func has the reduce_retracing = true option that can avoid unnecessary "
      .. "retracing. For (3), pass tensors. tf.config.explain_retracing(true) and %%trace say "
      .. "why each retrace happened.%s\n"):format(#d.per_trace, d.calls, name,
      why and (" The latest retrace: " .. why() .. ".") or ""))
  end
end

return retracing
