-- source_coverage.lua NAME — runs every code step of one lesson (as
-- run_lesson.lua does) and reports the nodes of every graph it traced that
-- carry no source line, for tests/tutorials/test_source_lines.py. Graph
-- plumbing no user line makes is not counted: Placeholders (arguments and
-- captures) and the Identity nodes a trace's end adds for its outputs.
-- Prints "nodes N missing M" then one line per missing node.

local core = require("moonflow.core")
local state = require("moonflow.state")
local tutorial = require("moonflow.session.tutorial")

local name = ...
local lesson = tutorial.load(assert(name, "usage: moonflow source_coverage.lua NAME"))

local graphs = {}
local previous = state.on_trace
state.on_trace = function(fn, cf)
  graphs[#graphs + 1] = cf._graph
  if previous then previous(fn, cf) end
end

for i, step in ipairs(lesson.steps) do
  if step.kind == "code" then pcall(tutorial.run_code, lesson, i, step.code) end
end

local function is_graph(v)
  local mt = getmetatable(v)
  return mt and mt.__name == "GraphHandle"
end

local total, missing, lines, seen = 0, 0, {}, {}
local function walk(handle, where)
  if seen[handle] then return end
  seen[handle] = true
  local nodes = core.graph_nodes(handle)
  local _, outs = core.graph_io(handle)
  local output = {}
  for _, r in ipairs(outs) do output[r[1]] = true end
  for i, n in ipairs(nodes) do
    if n.type ~= "Placeholder" and not (n.type == "Identity" and output[i - 1]) then
      total = total + 1
      if not n.source then
        missing = missing + 1
        lines[#lines + 1] = ("%s: %s (%s)"):format(where, n.name, n.type)
      end
    end
    for k, v in pairs(n.attrs) do
      if is_graph(v) then walk(v, where .. "/" .. n.name .. "/" .. k) end
    end
  end
end
for _, g in ipairs(graphs) do walk(g, "graph") end
print(("nodes %d missing %d"):format(total, missing))
for _, l in ipairs(lines) do print(l) end
