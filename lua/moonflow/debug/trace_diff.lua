-- debug/trace_diff.lua (moonflow.debug.trace_diff) — what changed between
-- two traces of a tf.func: the argument paths whose types differ (the
-- reason it traced again), the nodes added, removed and changed (shape,
-- dtype, attributes, inputs), and the fix to consider. Text with +/- for a
-- terminal, and one picture of both graphs together coloured by change
-- where the session draws (Jupyter).

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local graphs = require("moonflow.trace.graph")
local func = require("moonflow.trace.func")
local checks = require("moonflow.trace.trace_checks")
local raise = errors.raise

local trace_diff = {}

local Diff = { __name = "TraceDiff" }
Diff.__index = Diff

local function spec_text(s)
  local dims = {}
  for i, d in ipairs(s.shape or {}) do dims[i] = d < 0 and "None" or tostring(d) end
  local shape = s.shape and ("(" .. table.concat(dims, ", ") .. (#dims == 1 and ",)" or ")")) or "<unknown>"
  return tostring(s.dtype.name or s.dtype) .. " " .. shape
end

local function attr_text(v)
  if type(v) == "table" and getmetatable(v) == nil then
    local parts = {}
    for i, x in ipairs(v) do parts[i] = attr_text(x) end
    return "{" .. table.concat(parts, ",") .. "}"
  end
  if core.is_tensor(v) then
    local ok, text = pcall(core.format, v, "print", 6)
    return ok and text:gsub("\n%s*", " ") or "tensor"
  end
  if type(v) == "userdata" then return nil end -- nested graphs: their own nodes
  return tostring(v)
end

-- What differs between node a (old) and b (new) of the same name, or nil.
local function node_change(a, b, names_a, names_b)
  local parts = {}
  if a.type ~= b.type then parts[#parts + 1] = ("op %s -> %s"):format(a.type, b.type) end
  local n = math.max(#a.outputs, #b.outputs)
  for k = 1, n do
    local sa, sb = a.outputs[k], b.outputs[k]
    if sa and sb then
      if tostring(sa.dtype.name or sa.dtype) ~= tostring(sb.dtype.name or sb.dtype) then
        parts[#parts + 1] = ("dtype %s -> %s"):format(tostring(sa.dtype.name or sa.dtype), tostring(sb.dtype.name or sb.dtype))
      end
      local ta, tb = spec_text(sa):match(" (.*)$"), spec_text(sb):match(" (.*)$")
      if ta ~= tb then parts[#parts + 1] = ("shape %s -> %s"):format(ta, tb) end
    end
  end
  local keys = {}
  for k in pairs(a.attrs) do keys[k] = true end
  for k in pairs(b.attrs) do keys[k] = true end
  local sorted = {}
  for k in pairs(keys) do sorted[#sorted + 1] = k end
  table.sort(sorted)
  for _, k in ipairs(sorted) do
    if k ~= "shape" and k ~= "dtype" and k ~= "T" then
      local x, y = attr_text(a.attrs[k]), attr_text(b.attrs[k])
      if x ~= y and not (x == nil and y == nil) then
        parts[#parts + 1] = ("%s %s -> %s"):format(k, x or "absent", y or "absent")
      end
    end
  end
  if table.concat(a.inputs, ",") ~= table.concat(b.inputs, ",") then
    parts[#parts + 1] = ("inputs (%s) -> (%s)"):format(table.concat(a.inputs, ", "), table.concat(b.inputs, ", "))
  end
  if #parts == 0 then return nil end
  return table.concat(parts, ", ")
end

-- The fixes to consider for the differing paths.
local function fixes(sig)
  local out, seen = {}, {}
  local function add(text)
    if not seen[text] then
      seen[text] = true
      out[#out + 1] = text
    end
  end
  for _, d in ipairs(sig) do
    if d:find(": shape ", 1, true) or d:find(", shape ", 1, true) then
      add("shapes differ: give tf.func an input_signature with None for the dimensions that vary, or "
        .. "reduce_retracing = true")
    end
    if d:find("dtype ", 1, true) then add("dtypes differ: convert the argument to one dtype before the call (tf.cast)") end
    if d:find("Literal[", 1, true) then
      add("a Lua value is part of the signature: each new value traces again; pass a tensor instead "
        .. "(tf.constant(n))")
    end
    if d:find("absent", 1, true) or d:find("a table", 1, true) then
      add("a table's length or keys differ: keep the table's structure the same from call to call")
    end
    if d:find("object", 1, true) or d:find("alias_id", 1, true) or d:find("Variable", 1, true) then
      add("a different object or variable: create it once, outside the function, and pass the same one")
    end
  end
  if #out == 0 then add("the arguments fit: the trace was made for another reason (see %trace)") end
  return out
end

local function all_nodes(handle) return core.graph_nodes(handle) end

-- The graph diff: {added = {node}, removed = {node}, changed = {{name=, what=}}}.
local function graph_diff(ha, hb)
  local a, b = all_nodes(ha), all_nodes(hb)
  local by_a, by_b = {}, {}
  for _, n in ipairs(a) do by_a[n.name] = n end
  for _, n in ipairs(b) do by_b[n.name] = n end
  local added, removed, changed = {}, {}, {}
  for _, n in ipairs(b) do
    if not by_a[n.name] then added[#added + 1] = n end
  end
  for _, n in ipairs(a) do
    if not by_b[n.name] then removed[#removed + 1] = n end
  end
  for _, n in ipairs(a) do
    local m = by_b[n.name]
    if m then
      local what = node_change(n, m)
      if what then changed[#changed + 1] = { name = n.name, type = m.type, what = what, node = m } end
    end
  end
  return { added = added, removed = removed, changed = changed, a = a, b = b }
end

local function index_of(cfs, cf)
  for i, c in ipairs(cfs) do
    if c == cf then return i end
  end
end

-- The trace closest to cfs[j] among the earlier ones (fewest differing paths).
local function closest(cfs, j)
  local best, best_n
  for i = j - 1, 1, -1 do
    local n = #checks.signature_diff(cfs[i], cfs[j])
    if not best or n < best_n then best, best_n = i, n end
  end
  return best
end

--- tf.debug.trace_diff(f [, i, j]) -> a TraceDiff: trace i of f against
-- trace j (numbers as %trace lists them); default: the last trace against
-- the closest earlier one.
function trace_diff.diff(f, i, j)
  if not func.is_func(f) then
    raise("TypeError", ("tf.debug.trace_diff: expected a tf.func, got %s"):format(type(f)), 3)
  end
  local cfs = f:concrete_functions()
  table.sort(cfs, function(x, y) return x._number < y._number end)
  if #cfs < 2 then
    raise("ValueError", ("%s has %d trace%s: trace_diff needs two"):format(f.name, #cfs, #cfs == 1 and "" or "s"), 3)
  end
  local function by_number(k)
    for _, c in ipairs(cfs) do
      if c._number == k then return c end
    end
    raise("ValueError", ("%s has no trace #%s (%%trace %s lists them)"):format(f.name, tostring(k), f.name), 4)
  end
  local old, new
  if i == nil and j == nil then
    new = cfs[#cfs]
    old = cfs[closest(cfs, #cfs)]
  else
    old, new = by_number(i), by_number(j)
  end
  local sig = checks.signature_diff(old, new)
  local g = graph_diff(old._graph, new._graph)
  return setmetatable({ name = f.name, old = old._number, new = new._number, signature = sig,
    added = g.added, removed = g.removed, changed = g.changed, fixes = fixes(sig), _g = g }, Diff)
end

--- The diff as text: the signature paths, then nodes with + (added), -
-- (removed) and ~ (changed), then the fixes.
function Diff:text()
  local lines = { ("%s: trace #%d -> trace #%d"):format(self.name, self.old, self.new), "signature:" }
  if #self.signature == 0 then lines[#lines + 1] = "  (the same)" end
  for _, d in ipairs(self.signature) do lines[#lines + 1] = "  " .. d end
  lines[#lines + 1] = "graph:"
  if #self.added + #self.removed + #self.changed == 0 then lines[#lines + 1] = "  (the same nodes)" end
  for _, n in ipairs(self.removed) do lines[#lines + 1] = ("- %s = %s"):format(n.name, n.type) end
  for _, n in ipairs(self.added) do lines[#lines + 1] = ("+ %s = %s"):format(n.name, n.type) end
  for _, c in ipairs(self.changed) do lines[#lines + 1] = ("~ %s = %s: %s"):format(c.name, c.type, c.what) end
  lines[#lines + 1] = "fix to consider:"
  for _, f in ipairs(self.fixes) do lines[#lines + 1] = "  " .. f end
  return table.concat(lines, "\n")
end

Diff.__tostring = Diff.text

local function esc(s) return (tostring(s):gsub('["\\]', "\\%0"):gsub("\n", "\\n")) end

--- The DOT of both graphs together: added nodes green, removed red (dashed),
-- changed orange, the rest plain.
function Diff:dot()
  local g = self._g
  local status, ids, nodes = {}, {}, {}
  for _, n in ipairs(g.a) do
    ids[n.name] = #nodes
    nodes[#nodes + 1] = n
  end
  for _, n in ipairs(self.removed) do status[n.name] = "removed" end
  for _, n in ipairs(self.added) do
    status[n.name] = "added"
    ids[n.name] = #nodes
    nodes[#nodes + 1] = n
  end
  local what = {}
  for _, c in ipairs(self.changed) do
    status[c.name] = "changed"
    what[c.name] = c.what
  end
  local lines = { ('digraph "%s" {'):format(esc(self.name)),
    '  rankdir=TB; node [shape=box, style="rounded,filled", fillcolor="#eef3fb", fontname="Helvetica", fontsize=11];' }
  local STYLE = { added = ', fillcolor="#c6efce", color="#2e7d32"', removed = ', fillcolor="#f8d7da", color="#c00000", style="rounded,filled,dashed"',
    changed = ', fillcolor="#ffe0b2", color="#e65100"' }
  for k, n in ipairs(nodes) do
    local st = status[n.name]
    local label = n.name .. "\n" .. n.type .. (st and ("\n" .. st) or "") .. (what[n.name] and ("\n" .. what[n.name]) or "")
    lines[#lines + 1] = ('  n%d [label="%s"%s];'):format(k - 1, esc(label), STYLE[st] or "")
  end
  local seen = {}
  local function edges(list)
    for _, n in ipairs(list) do
      for _, ref in ipairs(n.inputs) do
        local src = ref:match("^(.*):%d+$")
        local key = src .. ">" .. n.name
        if ids[src] and not seen[key] then
          seen[key] = true
          lines[#lines + 1] = ("  n%d -> n%d;"):format(ids[src], ids[n.name])
        end
      end
    end
  end
  edges(g.a)
  local b_nodes = {}
  for _, n in ipairs(g.b) do
    if ids[n.name] then b_nodes[#b_nodes + 1] = n end
  end
  edges(b_nodes)
  lines[#lines + 1] = "}"
  return table.concat(lines, "\n")
end

function Diff:__mimebundle()
  local text = self:text()
  local out = { ["text/plain"] = text }
  local svg = graphs.svg_of(self:dot())
  if svg then
    out["text/html"] = ('<div class="moonflow-trace-diff"><pre>%s</pre>%s</div>'):format(graphs.html_escape(text), svg)
  end
  return out
end

return trace_diff
