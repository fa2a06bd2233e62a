-- %profile <f> [args] [--runs N]: per-node times of a tf.func's graph
-- (tf.debug.profile): a table in a terminal, the graph coloured by self
-- time in Jupyter.

local tf = require("moonflow")
local errors = require("moonflow.errors")
local target = require("moonflow.session.magic_target")

local USAGE = "usage: %profile <tf.func or concrete function> [args...] [--runs N]"

return {
  doc = [[%profile <expr> [args] [--runs N]  time every node of a tf.func's graph
Calls the function on args N times (default 10) with the executor timing each
node of the graph calls run (tf.debug.profile): per node its self time, share,
call count, the bytes of its outputs, the fused group it stands for and its
line, sorted by time, then rolled up by name scope. In Jupyter the graph is
drawn with each node coloured by its self time.]],
  run = function(args)
    local runs
    args = args:gsub("%s*%-%-runs[%s=]+(%S+)", function(n)
      runs = tonumber(n)
      if not runs then errors.raise("UsageError", USAGE) end
      return ""
    end)
    local value, call_args, expr = target.parse(args, USAGE)
    target.check_func(value, expr, USAGE)
    tf.display(tf.debug.profile_with({ runs = runs and math.tointeger(runs) or runs }, value,
      table.unpack(call_args or {}, 1, call_args and call_args.n or 0)))
  end,
}
