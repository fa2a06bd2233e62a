-- %trace <expr>: every trace of a tf.func — its signature, when it
-- happened, how long tracing took, its op count, and why it was traced.

local tf = require("moonflow")
local func = require("moonflow.trace.func")
local target = require("moonflow.session.magic_target")

local errors = require("moonflow.errors")

local USAGE = "usage: %trace <tf.func>   or   %trace diff <tf.func> [i j]"
local DIFF_USAGE = "usage: %trace diff <tf.func> [i j]"

local function ms(seconds)
  if seconds < 1e-3 then return ("%.0f µs"):format(seconds * 1e6) end
  if seconds < 1 then return ("%.2f ms"):format(seconds * 1e3) end
  return ("%.2f s"):format(seconds)
end

return {
  doc = [[%trace <expr>  the traces of a tf.func and why each happened
For each trace: its number, the time it was traced, how long tracing took, the
number of ops in its graph, the reason (first call, or which argument paths of
the closest earlier trace differ and how: `y: shape (3,) -> (4,)`), and its
function type. The closest trace is the one with the fewest differing paths,
the most recent on a tie.
tf.config.explain_retracing(true) prints the reason as each retrace happens.
%trace diff <expr> [i j]: what changed between traces #i and #j (default: the
last against the closest earlier one): argument paths, nodes added (+),
removed (-) and changed (~), and the fix to consider (tf.debug.trace_diff);
in Jupyter both graphs drawn together, coloured by change.]],
  run = function(args)
    local rest = args:match("^%s*diff%s+(.*)$")
    if rest then
      -- %trace diff f [i j]: tf.debug.trace_diff, drawn where the session draws.
      -- the trace numbers as %trace lists them, "2 1" or "2, 1"
      local head, i, j = rest:match("^(.-)%s+(%d+)%s*,?%s*(%d+)%s*$")
      if head then rest = head end
      local value, extra, expr = target.parse(rest, DIFF_USAGE)
      if extra then errors.raise("UsageError", DIFF_USAGE) end
      target.check_func(value, expr, DIFF_USAGE)
      if not func.is_func(value) then
        errors.raise("TypeError", ("%s is a concrete function: %%trace diff compares the traces of a tf.func"):format(expr))
      end
      i, j = tonumber(i), tonumber(j)
      tf.display(tf.debug.trace_diff(value, i, j))
      return
    end
    local value, _, expr = target.parse(args, USAGE)
    target.check_func(value, expr, USAGE)
    local all = func.is_concrete(value) and { value } or value:concrete_functions()
    local name = value.name
    if #all == 0 then
      print(("%s has not been traced yet."):format(expr))
      return
    end
    local count = func.is_func(value) and value:experimental_get_tracing_count() or #all
    print(("%s: %d concrete function%s, traced %d time%s"):format(name, #all, #all == 1 and "" or "s",
      count, count == 1 and "" or "s"))
    for _, cf in ipairs(all) do
      local info = cf:trace_info()
      print(("#%d at %s, traced in %s, %d ops"):format(info.number, info.at, ms(info.seconds), info.ops))
      print("   why: " .. info.reason)
      print("   " .. tostring(cf.function_type))
    end
  end,
}
