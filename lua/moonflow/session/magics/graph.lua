-- %graph <expr> [args] [--optimized]: the graph of a trace, as text in a
-- terminal and as a picture (SVG) in Jupyter.

local tf = require("moonflow")
local core = require("moonflow.core")
local graphs = require("moonflow.trace.graph")
local target = require("moonflow.session.magic_target")

local USAGE = "usage: %graph <tf.func or concrete function> [args...] [--optimized]"

-- "12 ops -> 5 ops (folded 3, simplified 2, merged 1, pruned 1, fused 0)"
local function summary(st)
  return ("%d ops -> %d ops (folded %d, simplified %d, merged %d, pruned %d, fused %d)"):format(
    st.nodes_before, st.nodes_after, st.folded, st.simplified, st.merged, st.pruned, st.fused)
end

return {
  doc = [[%graph <expr> [args] [--optimized]  show the graph of a trace
With arguments (Lua expressions), the trace for those arguments (traced now if
needed); without, the most recent trace. --optimized shows the traced graph
and the graph calls run (after the optimisation passes) side by side, with a
line saying what the passes did ("12 ops -> 5 ops (folded 3, simplified 2,
merged 1, pruned 1, fused 0)"). In Jupyter graphs are drawn (SVG: name scopes
as boxes, those over 40 ops collapsed with the whole graph one click away;
ops nothing uses dashed); in the terminal they are listed one op per line.]],
  run = function(args)
    local optimized = false
    args = args:gsub("%s*%-%-optimized%f[%s%z]", function() optimized = true return "" end)
    local value, call_args, expr = target.parse(args, USAGE)
    local graph
    if getmetatable(value) == graphs.Graph then
      graph = value
    else
      target.check_func(value, expr, USAGE)
      local cf = target.concrete(value, call_args)
      if not cf then
        print(("%s has not been traced yet: call it, or give arguments: %%graph %s tf.constant(1.0)"):format(expr, expr))
        return
      end
      graph = cf.graph
      if optimized then
        local after, stats = cf:optimized_graph()
        tf.display(graphs.side_by_side(graph, after, summary(stats)))
        return
      end
    end
    if optimized then
      local handle, stats = core.optimize(value._handle)
      tf.display(graphs.side_by_side(graph, graphs.wrap(handle), summary(stats)))
      return
    end
    tf.display(graph)
  end,
}
