-- debug/init.lua (moonflow.debug) — tf.debug: see inside a traced function.
-- step runs one node at a time (debug/step.lua).

local doc = require("moonflow.doc")
local argcheck = require("moonflow.argcheck")
local options = require("moonflow.options")
local errors = require("moonflow.errors")
local step = require("moonflow.debug.step")
local trace_diff = require("moonflow.debug.trace_diff")
local profile = require("moonflow.debug.profile")

local debug_ns = {}

-- The options table of a *_with function: a table of known keys only
-- (nil is none); a misspelt key is a TypeError, never silently ignored.
local function checked(opts, fname, known)
  if opts == nil then return {} end
  argcheck.table(opts, fname, "opts")
  for k in pairs(opts) do
    local ok = false
    for _, n in ipairs(known) do ok = ok or k == n end
    if not ok then
      local msg = ("%s got an unexpected keyword argument '%s'"):format(fname, tostring(k))
      local s = options.suggest(k, known)
      if s then msg = msg .. (", did you mean '%s'?"):format(s) end
      errors.raise("TypeError", msg .. " Accepted options: " .. table.concat(known, ", ") .. ".", 3)
    end
  end
  return opts
end

debug_ns.step = doc.def(function(f, ...)
  return step.new(f, {}, ...)
end, "tf.debug.step(f, ...)", "A stepper over the graph f (a tf.func, traced for the arguments if "
  .. "needed, or a concrete function) runs for these arguments: stepper:next() runs one node and "
  .. "returns its step, continue() runs to a breakpoint (breakpoint(name | op type | line)), "
  .. "run_to(name | op type | line), break_on_nan(), value(name) the full tensor, set(name, value) "
  .. "replaces a value and runs again what read it, where() the node, its inputs and its line, back() "
  .. "and restart(); finish() returns what the call returns. If branches taken, While iterations and "
  .. "PartitionedCalls are stepped through.")

debug_ns.step_with = doc.def(function(opts, f, ...)
  return step.new(f, checked(opts, "tf.debug.step_with", { "optimized", "into_calls" }), ...)
end, "tf.debug.step_with(opts, f, ...)", "tf.debug.step with options: optimized = true steps the "
  .. "graph calls run (after the optimisation passes: a fused node is one step listing the nodes it "
  .. "stands for); into_calls = false runs a PartitionedCall as one step.")

debug_ns.trace_diff = doc.def(function(f, i, j)
  return trace_diff.diff(f, i, j)
end, "tf.debug.trace_diff(f [, i, j])", "What changed between traces #i and #j of tf.func f (default: the "
  .. "last trace against the closest earlier one): the argument paths whose types differ "
  .. "(`y[\"hi\"]: shape (3,) -> (4,)`, `n: Literal[2] -> Literal[3]`), the nodes added, removed and "
  .. "changed in shape, dtype or attributes, and the fix to consider. Prints as text with +/-; "
  .. "in Jupyter it draws both graphs together coloured by change.")

debug_ns.profile = doc.def(function(f, ...)
  return profile.run(f, {}, ...)
end, "tf.debug.profile(f, ...)", "Calls f (a tf.func, traced for the arguments if needed, or a concrete "
  .. "function) on the arguments 10 times with every node timed, and returns a profile: per node of "
  .. "the graph calls run, its self time, call count, the bytes of its outputs, the fused group it "
  .. "stands for and its line, sorted by time, then rolled up by name scope; in Jupyter the graph is "
  .. "drawn coloured by self time. Profiling off costs nothing.")

debug_ns.profile_with = doc.def(function(opts, f, ...)
  return profile.run(f, checked(opts, "tf.debug.profile_with", { "runs" }), ...)
end, "tf.debug.profile_with({runs = N}, f, ...)", "tf.debug.profile with N runs.")

return debug_ns
