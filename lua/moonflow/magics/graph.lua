-- %graph <expr> [args] [--optimized]: the graph of a trace, as text in a
-- terminal and as a picture (SVG) in Jupyter.

local tf = require("moonflow")
local target = require("moonflow.magic_target")

local USAGE = "usage: %graph <tf.func or concrete function> [args...] [--optimized]"

return {
  doc = [[%graph <expr> [args] [--optimized]  show the graph of a trace
With arguments (Lua expressions), the trace for those arguments (traced now if
needed); without, the most recent trace. --optimized shows the graph after the
executor's passes. In Jupyter the graph is drawn (SVG); in the terminal it is
listed one op per line.]],
  run = function(args)
    local optimized = false
    args = args:gsub("%s*%-%-optimized%f[%s%z]", function() optimized = true return "" end)
    local value, call_args, expr = target.parse(args, USAGE)
    local graph
    if getmetatable(value) == tf._Graph then
      graph = value
    else
      target.check_func(value, expr, USAGE)
      local cf = target.concrete(value, call_args)
      if not cf then
        print(("%s has not been traced yet: call it, or give arguments: %%graph %s tf.constant(1.0)"):format(expr, expr))
        return
      end
      graph = optimized and cf:optimized_graph() or cf.graph
    end
    tf.display(graph)
  end,
}
