-- debug/profile.lua (moonflow.debug.profile) — tf.debug.profile: runs a
-- concrete function N times with the executor timing every node (core
-- profile_start/stop, core/run/profile.h) and reports, per node of the
-- graph calls run (after the optimisation passes), its self time, call
-- count, the bytes of the outputs it made, the fused group it stands for
-- and the user's line that made it: a table sorted by time, a roll-up by
-- name scope, and the graph's picture coloured by self time (Jupyter).

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local graphs = require("moonflow.trace.graph")
local func = require("moonflow.trace.func")
local concrete = require("moonflow.trace.concrete")
local node_source = require("moonflow.trace.node_source")
local raise = errors.raise

local profile = {}

local Profile = { __name = "Profile" }
Profile.__index = Profile

local function is_graph(v)
  local mt = getmetatable(v)
  return mt and mt.__name == "GraphHandle"
end

local function body_names(n)
  for _, v in pairs(n.attrs) do
    if is_graph(v) then
      local names = {}
      for _, m in ipairs(core.graph_nodes(v)) do
        if m.type ~= "Placeholder" and m.type ~= "Identity" then names[#names + 1] = m.name end
      end
      return names
    end
  end
  return nil
end

local FUSED = { FusedElementwise = true }

local function scope_of(name) return name:match("^([^/]+)/") or "(top level)" end

--- Runs concrete function (or tf.func, traced for the arguments) `target`
-- opts.runs times (default 10, after one warm-up call) and returns a Profile.
function profile.run(target, opts, ...)
  local cf
  if concrete.is_concrete(target) then
    cf = target
  elseif func.is_func(target) or func.is_bound(target) then
    cf = target:get_concrete_function(...)
  else
    raise("TypeError", ("tf.debug.profile: expected a tf.func or a concrete function, got %s"):format(type(target)), 3)
  end
  local runs = opts.runs or 10
  if math.type(runs) ~= "integer" or runs < 1 then
    raise("ValueError", ("tf.debug.profile: runs must be a positive integer, got %s"):format(tostring(runs)), 3)
  end
  local args = table.pack(...)
  cf(table.unpack(args, 1, args.n)) -- warm: planned, optimised, caches filled
  local graph = cf:optimized_graph()
  local handle = state.optimizer_enabled and graph._handle or cf._graph
  local t0 = os.clock()
  core.profile_start()
  local ok, err = pcall(function()
    for _ = 1, runs do cf(table.unpack(args, 1, args.n)) end
  end)
  local entries, run_ns, nruns = core.profile_stop()
  local cpu = os.clock() - t0
  if not ok then error(err, 0) end
  -- Sources and fused groups of the graph's own nodes.
  local info = {}
  for _, n in ipairs(core.graph_nodes(handle)) do info[n.name] = n end
  local rows, self_total = {}, 0
  for _, e in ipairs(entries) do
    local n = e.depth == 0 and info[e.node] or nil
    local row = { node = e.node, type = e.type, graph = e.graph, nested = e.depth > 0, calls = e.calls,
      self = e.self_ns / 1e9, total = e.total_ns / 1e9, bytes = e.bytes,
      fused = n and FUSED[n.type] and body_names(n) or nil, source = n and n.source or nil }
    rows[#rows + 1] = row
    self_total = self_total + row.self
  end
  table.sort(rows, function(a, b)
    if a.self ~= b.self then return a.self > b.self end
    return a.node < b.node
  end)
  local scopes, order = {}, {}
  for _, r in ipairs(rows) do
    local s = r.nested and (r.graph .. " (nested)") or scope_of(r.node)
    if not scopes[s] then
      scopes[s] = { scope = s, self = 0, calls = 0, nodes = 0 }
      order[#order + 1] = scopes[s]
    end
    scopes[s].self = scopes[s].self + r.self
    scopes[s].calls = scopes[s].calls + r.calls
    scopes[s].nodes = scopes[s].nodes + 1
  end
  table.sort(order, function(a, b) return a.self > b.self end)
  return setmetatable({ name = graph.name, runs = runs, rows = rows, scopes = order, node_time = self_total,
    wall = run_ns / 1e9, graph_runs = nruns, cpu = cpu, _handle = handle }, Profile)
end

local function ms(s) return ("%.3f"):format(s * 1e3) end

local function bytes_text(b)
  if b >= 1 << 20 then return ("%.1f MiB"):format(b / (1 << 20)) end
  if b >= 1 << 10 then return ("%.1f KiB"):format(b / (1 << 10)) end
  return ("%d B"):format(b)
end

--- The profile as text: per node (self time, share, calls, bytes, fused
-- group, line) sorted by time, then the roll-up by name scope.
function Profile:text()
  local lines = { ("profile of %s: %d runs, %s ms in graph runs, %s ms in its nodes (%.1f%%)"):format(self.name,
    self.runs, ms(self.wall), ms(self.node_time), self.wall > 0 and 100 * self.node_time / self.wall or 0) }
  local width = 4
  for _, r in ipairs(self.rows) do width = math.max(width, #r.node) end
  lines[#lines + 1] = ("  %-" .. width .. "s  %-18s %10s %6s %7s %10s  %s"):format("node", "op", "self ms", "%", "calls",
    "bytes", "line / fused")
  for _, r in ipairs(self.rows) do
    local where = r.fused and ("fused: " .. table.concat(r.fused, ", "))
      or r.source and ("line %d%s"):format(r.source.line, r.source.text and (": " .. r.source.text) or "")
      or (r.nested and ("in " .. r.graph) or "")
    lines[#lines + 1] = ("  %-" .. width .. "s  %-18s %10s %5.1f%% %7d %10s  %s"):format(r.node, r.type, ms(r.self),
      self.node_time > 0 and 100 * r.self / self.node_time or 0, r.calls, bytes_text(r.bytes), where)
  end
  lines[#lines + 1] = "by name scope:"
  for _, s in ipairs(self.scopes) do
    lines[#lines + 1] = ("  %-30s %10s ms %5.1f%%  %d node%s"):format(s.scope, ms(s.self),
      self.node_time > 0 and 100 * s.self / self.node_time or 0, s.nodes, s.nodes == 1 and "" or "s")
  end
  return table.concat(lines, "\n")
end
Profile.__tostring = Profile.text

local function esc(s) return (tostring(s):gsub('["\\]', "\\%0"):gsub("\n", "\\n")) end

-- White to red by share of the slowest node's time.
local function heat(share)
  local g = math.floor(255 - 200 * share + 0.5)
  return ("#ff%02x%02x"):format(g, g)
end

--- The DOT of the graph calls run, each node coloured by its self time
-- (nodes with nested graphs by their total) and labelled with it.
function Profile:dot()
  local by = {}
  local max = 0
  for _, r in ipairs(self.rows) do
    if not r.nested then
      by[r.node] = r
      max = math.max(max, math.max(r.self, 0))
    end
  end
  local nodes = core.graph_nodes(self._handle)
  local lines = { ('digraph "%s" {'):format(esc(self.name)),
    '  rankdir=TB; node [shape=box, style="rounded,filled", fillcolor="#ffffff", fontname="Helvetica", fontsize=11];' }
  for i, n in ipairs(nodes) do
    local r = by[n.name]
    local label = n.name .. "\n" .. n.type
    local fill = "#f5f5f5"
    if r then
      label = label .. ("\n%s ms self, %d calls"):format(ms(r.self), r.calls)
      fill = heat(max > 0 and math.max(r.self, 0) / max or 0)
    end
    local tip = n.source and (', tooltip="%s:%d%s"'):format(esc(node_source.short(n.source.chunk)), n.source.line,
      n.source.text and (": " .. esc(n.source.text)) or "") or ""
    lines[#lines + 1] = ('  n%d [label="%s", fillcolor="%s"%s];'):format(i - 1, esc(label), fill, tip)
  end
  for i, n in ipairs(nodes) do
    for _, src in ipairs(n.input_nodes) do lines[#lines + 1] = ("  n%d -> n%d;"):format(src, i - 1) end
  end
  lines[#lines + 1] = "}"
  return table.concat(lines, "\n")
end

function Profile:__mimebundle()
  local text = self:text()
  local out = { ["text/plain"] = text }
  local svg = graphs.svg_of(self:dot())
  if svg then
    out["text/html"] = ('<div class="moonflow-profile"><pre>%s</pre>%s</div>'):format(graphs.html_escape(text), svg)
  end
  return out
end

return profile
