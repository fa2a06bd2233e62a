-- graph.lua — Graph and Operation objects over a traced graph (TF's
-- FuncGraph view): get_operations, inputs, outputs, captures, variables,
-- as_graph_def, to_dot, and a text rendering for terminals.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local doc = require("moonflow.doc")
local options = require("moonflow.options")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local receiver = require("moonflow.receiver")
local argcheck = require("moonflow.argcheck")
local node_source = require("moonflow.trace.node_source")
local raise = errors.raise

local graphs = {}

local Graph = { __name = "Graph" }
local Operation = { __name = "Operation" }
local gmethods, omethods = {}, {}
receiver.metatable(Graph, "graph", gmethods)
receiver.metatable(Operation, "operation", omethods)

-- One wrapper per graph handle and concrete function, made on demand.
local cache = setmetatable({}, { __mode = "k" })

local function nodes_of(g)
  if not g._nodes then g._nodes = core.graph_nodes(g._handle) end
  return g._nodes
end

function graphs.wrap(handle, cf)
  local key = cf or handle
  local g = cache[key]
  if g and g._handle == handle then return g end
  g = setmetatable({ _handle = handle, _cf = cf }, Graph)
  cache[key] = g
  return g
end

local function tensor_of(g, node, index)
  return core.graph_tensor(g._handle, node, index or 0)
end

-- A graph's computed fields, as TF's FuncGraph.
local graph_fields = {}

function graph_fields.inputs(g)
  local ins = core.graph_io(g._handle)
  local out = {}
  for i, node in ipairs(ins) do out[i] = tensor_of(g, node, 0) end
  -- TF appends a by-value capture's Const to graph.inputs too.
  for _, pair in ipairs(g._cf and g._cf._const_captures or {}) do out[#out + 1] = tensor_of(g, pair[2], 0) end
  return out
end

function graph_fields.outputs(g)
  local _, outs = core.graph_io(g._handle)
  local out = {}
  for i, r in ipairs(outs) do out[i] = tensor_of(g, r[1], r[2]) end
  return out
end

function graph_fields.name(g)
  local _, _, name = core.graph_io(g._handle)
  return name
end

-- {captured value, placeholder} pairs, as TF's graph.captures.
function graph_fields.captures(g)
  local result = {}
  local cf = g._cf
  if not cf then return result end
  local ins = core.graph_io(g._handle)
  local first = #ins - #cf._captures
  for i, c in ipairs(cf._captures) do
    result[i] = { c, tensor_of(g, ins[first + i], 0) }
  end
  -- Small eager tensors captured by value: {value, its Const}.
  for _, pair in ipairs(cf._const_captures or {}) do
    result[#result + 1] = { pair[1], tensor_of(g, pair[2], 0) }
  end
  return result
end

local function captured_variables(g, trainable_only)
  local result = {}
  local cf = g._cf
  if not cf then return result end
  for _, c in ipairs(cf._captures) do
    if core.dtype(c) == dtypes.resource then
      local v = state.variable_by_id(core.variable_info(c))
      if v and (not trainable_only or v.trainable) then result[#result + 1] = v end
    end
  end
  return result
end
function graph_fields.variables(g) return captured_variables(g, false) end
function graph_fields.trainable_variables(g) return captured_variables(g, true) end

Graph.__index = receiver.index(Graph, "graph", { methods = { gmethods }, fields = graph_fields,
  display = "FuncGraph" })

local function operation(g, id)
  g._ops = g._ops or {}
  local o = g._ops[id]
  if not o then
    o = setmetatable({ _graph = g, _node = nodes_of(g)[id + 1], _id = id }, Operation)
    g._ops[id] = o
  end
  return o
end

function gmethods._operation(g, id) return operation(g, id) end

--- The operation made last in the graph being built (handle: core's
-- current graph); an op without outputs, such as a traced assign, has no
-- tensor to ask for its .op.
function graphs.last_operation(handle)
  local g = graphs.wrap(handle)
  return operation(g, #nodes_of(g) - 1)
end

gmethods.get_operations = doc.def(function(g)
  local out = {}
  for i = 1, #nodes_of(g) do out[i] = operation(g, i - 1) end
  return out
end, "graph:get_operations()", "The graph's operations in creation order.")

gmethods.get_operation_by_name = doc.def(function(g, name)
  argcheck.string(name, "graph:get_operation_by_name", "name")
  for i, n in ipairs(nodes_of(g)) do
    if n.name == name then return operation(g, i - 1) end
  end
  raise("KeyError", ("The name '%s' refers to an Operation not in the graph."):format(name), 1)
end, "graph:get_operation_by_name(name)", "The operation with that name.")

gmethods.get_tensor_by_name = doc.def(function(g, name)
  argcheck.string(name, "graph:get_tensor_by_name", "name")
  local op, index = name:match("^(.*):(%d+)$")
  if not op then
    raise("ValueError", ("The name '%s' looks like an Operation name, not a Tensor name "
      .. "(tensor names look like 'op:0')."):format(name), 1)
  end
  local o = gmethods.get_operation_by_name(g, op)
  return tensor_of(g, o._id, tonumber(index))
end, "graph:get_tensor_by_name('op:0')", "The tensor with that name.")

-- GraphDef input names: "x" for output 0, "x:1" for others, "^x" for control.
local function def_input(name)
  return (name:gsub(":0$", ""))
end

local function attr_value(v)
  if core.is_tensor(v) then
    return { tensor = v, dtype = core.dtype(v), shape = shapes.TensorShape(select(3, core.info(v))) }
  end
  return v
end

gmethods.as_graph_def = doc.def(function(g)
  local nodes = {}
  for i, n in ipairs(nodes_of(g)) do
    local input = {}
    for k, name in ipairs(n.inputs) do input[k] = def_input(name) end
    for _, c in ipairs(n.control) do input[#input + 1] = "^" .. c end
    local attr = {}
    for k, v in pairs(n.attrs) do attr[k] = attr_value(v) end
    if n.outputs[1] and attr.T == nil and n.type ~= "Const" and n.type ~= "Placeholder" then
      attr.T = n.outputs[1].dtype
    end
    nodes[i] = { name = n.name, op = n.type, input = input, attr = attr }
  end
  return { node = nodes, versions = { producer = 1 } }
end, "graph:as_graph_def()",
"The graph as TF's GraphDef in Lua tables: {node = {{name=, op=, input={...}, attr={...}}, ...}}.")

local function spec_text(s)
  if not s then return "" end
  return ("%s %s"):format(s.dtype.name, tostring(shapes.TensorShape(s.shape)))
end

local function dot_escape(s) return (s:gsub('["\\]', "\\%0")) end

-- A graph handle held in an attribute (a While's cond and body, an If's
-- branches), not a tensor.
local function is_graph(v)
  return type(v) == "userdata" and not core.is_tensor(v) and (pcall(core.graph_io, v))
end

--- The nested graphs of a node, sorted by attribute name: {{name, handle,
-- label}}. A call node's function is labelled with the function's name
-- ("f = inner").
local function subgraphs(n)
  local out = {}
  local call = n.type == "PartitionedCall" or n.type == "StatefulPartitionedCall"
  for k, v in pairs(n.attrs) do
    if is_graph(v) then out[#out + 1] = { k, v, call and (k .. " = " .. select(3, core.graph_io(v))) or k } end
  end
  table.sort(out, function(a, b) return a[1] < b[1] end)
  return out
end

--- Placeholder name -> the name of the variable a concrete function
-- captured through it ("weight:0"), for the top-level graph of g.
local function captured_variables(g)
  local names = {}
  local ok, captures = pcall(function() return g.captures end)
  if not ok or type(captures) ~= "table" then return names end
  for _, c in ipairs(captures) do
    local value, placeholder = c[1], c[2]
    if core.is_tensor(value) and not core.is_symbolic(value) and core.dtype(value) == dtypes.resource then
      local found, v = pcall(function() return state.variable_by_id(core.variable_info(value)) end)
      if found and v and v.name then names[(placeholder.name:gsub(":%d+$", ""))] = v.name end
    end
  end
  return names
end

local MAX_CONST_TEXT = 24

--- A constant's value for a label: short ones in full, long ones as the
-- first values.
local function const_text(n)
  if n.type ~= "Const" or not core.is_tensor(n.attrs.value) then return nil end
  local ok, text = pcall(core.format, n.attrs.value, "print", 3)
  if not ok then return nil end
  text = text:gsub("%s+", " ")
  if #text > MAX_CONST_TEXT then text = text:sub(1, MAX_CONST_TEXT - 3) .. "..." end
  return text
end

-- Large graphs stay readable: a top-level name scope (tf.name_scope,
-- "gradient_tape/", the optimizer's "sgd/") is drawn as a box of its
-- own, and one of more than COLLAPSE_OVER ops as a single node.
local COLLAPSE_OVER = 40

--- node index -> its top-level name scope: the first part of a name
-- "scope/op" that no node is named after ("Mean/reduction_indices" is
-- Mean's constant, not a scope: Mean is a node).
local function scope_groups(nodes)
  local names = {}
  for _, n in ipairs(nodes) do names[n.name] = true end
  local group, order, size = {}, {}, {}
  for i, n in ipairs(nodes) do
    local top = n.name:match("^([^/]+)/")
    if top and not names[top] then
      group[i] = top
      if not size[top] then order[#order + 1] = top end
      size[top] = (size[top] or 0) + 1
    end
  end
  return group, order, size
end

--- node index -> true for ops whose results nothing uses: no consumer,
-- no control edge, not an output, not stateful (the optimiser prunes them).
local function unused_nodes(handle, nodes)
  local used, after = {}, {}
  for _, n in ipairs(nodes) do
    for _, src in ipairs(n.input_nodes) do used[src + 1] = true end
    for _, c in ipairs(n.control) do after[c] = true end
  end
  local _, outs = core.graph_io(handle)
  for _, r in ipairs(outs) do used[r[1] + 1] = true end
  local unused = {}
  for i, n in ipairs(nodes) do
    unused[i] = not used[i] and not after[n.name] and not n.stateful and n.type ~= "Placeholder"
      and #n.outputs > 0 or nil
  end
  return unused
end

--- "lesson.lua:3: y = x * 2" for a node's source.
local function source_where(src)
  local where = ("%s:%d"):format(node_source.short(src.chunk), src.line)
  return src.text and (where .. ": " .. src.text) or where
end

--- A node's DOT statement (label with type, constant value, variable).
local function dot_node(n, id, variables, unused)
  local fill = n.type == "Placeholder" and "#fff2cc" or n.type == "Const" and "#eeeeee"
    or n.stateful and "#f8d7da" or n.type == "Identity" and "#e2f0d9" or nil
  local src = n.source
  -- "y = Mul": the variable the user's line assigned (an unused op's
  -- label says so instead; its tooltip still has the line).
  local kind = src and src.name and not unused and (src.name .. " = " .. n.type) or n.type
  local label = n.name == kind and dot_escape(n.name) or (dot_escape(n.name) .. "\\n" .. dot_escape(kind))
  local value = const_text(n)
  if value then label = label .. "\\n" .. dot_escape(value) end
  if variables[n.name] then label = label .. "\\nvariable " .. dot_escape(variables[n.name]) end
  local style = ""
  if unused then
    label = label .. "\\n(unused)"
    style = ', style="rounded,dashed", color="#999999", fontcolor="#777777"'
  elseif fill then
    style = ', fillcolor="' .. fill .. '"'
  end
  -- The user's line that made it, as the node's tooltip (the SVG's title).
  if src then
    style = style .. (', tooltip="%s"'):format(dot_escape(source_where(src)))
  end
  return ('%s [label="%s"%s];'):format(id, label, style)
end

-- Emits the nodes and edges of one graph into lines, ids prefixed (n3,
-- n3_body_0, ...); a node with nested graphs becomes a cluster holding it
-- and one labelled cluster per nested graph. At the top level (view
-- given) name scopes become clusters, large ones one collapsed node, and
-- ops nothing uses are drawn dashed.
local function dot_graph(handle, prefix, indent, lines, variables, view)
  local nodes = core.graph_nodes(handle)
  variables = variables or {}
  local group, order, size, unused = {}, {}, {}, {}
  if view then
    group, order, size = scope_groups(nodes)
    unused = unused_nodes(handle, nodes)
  end
  local collapsed = {}
  for k, scope in ipairs(order) do
    if view.collapse and size[scope] > view.collapse then collapsed[scope] = ("%sscope%d"):format(prefix, k) end
  end
  local function id(i) return collapsed[group[i] or false] or prefix .. (i - 1) end
  local function emit(i, n, ind)
    local node = ind .. dot_node(n, prefix .. (i - 1), variables, unused[i])
    local subs = subgraphs(n)
    if #subs == 0 then
      lines[#lines + 1] = node
      return
    end
    local nid = prefix .. (i - 1)
    lines[#lines + 1] = ('%ssubgraph cluster_%s {'):format(ind, nid)
    lines[#lines + 1] = ('%s  label="%s"; style="rounded"; color="#7f8fa6";'):format(ind,
      dot_escape(n.name .. " (" .. n.type .. ")"))
    lines[#lines + 1] = "  " .. node
    for _, sub in ipairs(subs) do
      lines[#lines + 1] = ('%s  subgraph cluster_%s_%s {'):format(ind, nid, sub[1])
      lines[#lines + 1] = ('%s    label="%s"; style="dashed"; color="#999999";'):format(ind, dot_escape(sub[3]))
      dot_graph(sub[2], nid .. "_" .. sub[1] .. "_", ind .. "    ", lines)
      lines[#lines + 1] = ind .. "  }"
    end
    lines[#lines + 1] = ind .. "}"
  end
  for i, n in ipairs(nodes) do
    if not group[i] then emit(i, n, indent) end
  end
  for k, scope in ipairs(order) do
    if collapsed[scope] then
      lines[#lines + 1] = ('%s%s [label="%s/\\n%d ops (collapsed)", shape=box3d, fillcolor="#dde6f4"];'):format(
        indent, collapsed[scope], dot_escape(scope), size[scope])
    else
      lines[#lines + 1] = ('%ssubgraph cluster_%sscope%d {'):format(indent, prefix, k)
      lines[#lines + 1] = ('%s  label="%s/"; style="rounded,filled"; fillcolor="#f7f9fc"; color="#4a6fa5";')
        :format(indent, dot_escape(scope))
      for i, n in ipairs(nodes) do
        if group[i] == scope then emit(i, n, indent .. "  ") end
      end
      lines[#lines + 1] = indent .. "}"
    end
  end
  local seen, collapsed_id = {}, {}
  for _, cid in pairs(collapsed) do collapsed_id[cid] = true end
  local function edge(from, to, attrs)
    if from == to then return end -- inside a collapsed scope
    -- Edges into or out of a collapsed scope are drawn once per pair.
    local key = from .. ">" .. to
    if (collapsed_id[from] or collapsed_id[to]) and seen[key] then return end
    seen[key] = true
    lines[#lines + 1] = ('%s%s -> %s [%s];'):format(indent, from, to, attrs)
  end
  for i, n in ipairs(nodes) do
    for k, src in ipairs(n.input_nodes) do
      local out_index = tonumber(n.inputs[k]:match(":(%d+)$")) or 0
      local s = nodes[src + 1].outputs[out_index + 1]
      edge(id(src + 1), id(i), ('label="%s"'):format(dot_escape(spec_text(s))))
    end
    for _, c in ipairs(n.control) do
      for j, m in ipairs(nodes) do
        if m.name == c then edge(id(j), id(i), "style=dashed") end
      end
    end
  end
  return collapsed
end

--- The DOT text of g; collapse: the scope size above which a scope is one
-- node (false: never).
local function dot_text(g, collapse)
  local lines = { ("digraph \"%s\" {"):format(dot_escape(g.name)),
    '  rankdir=TB; node [shape=box, style="rounded,filled", fillcolor="#eef3fb", fontname="Helvetica", fontsize=11];',
    '  edge [fontname="Helvetica", fontsize=9, color="#555555"];',
    '  graph [fontname="Helvetica", fontsize=10];' }
  local collapsed = dot_graph(g._handle, "n", "  ", lines, captured_variables(g), { collapse = collapse })
  lines[#lines + 1] = "}"
  return table.concat(lines, "\n"), next(collapsed) ~= nil
end

gmethods.to_dot = options.def(function(g, opts)
  local collapse = COLLAPSE_OVER
  if opts.collapse ~= nil then
    local c = opts.collapse
    if type(c) ~= "boolean" and math.type(c) ~= "integer" then
      raise("TypeError", ("graph:to_dot: option 'collapse' must be an integer or a boolean, got a %s")
        :format(math.type(c) or type(c)), 3)
    end
    collapse = c == true and COLLAPSE_OVER or c
  end
  return (dot_text(g, collapse))
end, "graph:to_dot([{collapse=}])", "The graph in Graphviz DOT: ops as boxes (constants with their values), tensors as "
  .. "labelled edges, the bodies of While and If ops as nested labelled clusters, each top-level name scope "
  .. "(tf.name_scope; gradient_tape/, the optimizer's) as a box of its own, drawn as one node when it has more "
  .. "than collapse ops (default 40; false never collapses), ops nothing uses dashed.",
  { required = 1, "collapse" })

-- One line per op of a graph, then its nested graphs indented below it.
local function text_lines(handle, indent, lines, variables, top)
  local nodes = core.graph_nodes(handle)
  variables = variables or {}
  local unused = top and unused_nodes(handle, nodes) or {}
  local width = 4
  local shown
  for _, n in ipairs(nodes) do width = math.max(width, #n.name) end
  for i, n in ipairs(nodes) do
    local args = table.concat(n.inputs, ", ")
    local extra = {}
    for k, v in pairs(n.attrs) do
      if k ~= "value" and k ~= "dtype" and k ~= "shape" and k ~= "T" and k ~= "output_callback"
        and type(v) ~= "userdata" then
        local text = type(v) == "table" and getmetatable(v) == nil and "{" .. table.concat(v, ",") .. "}"
          or type(v) == "string" and ("%q"):format(v):gsub("\\\n", "\\n") or tostring(v)
        extra[#extra + 1] = k .. "=" .. text
      end
    end
    table.sort(extra)
    if n.type == "Const" and core.is_tensor(n.attrs.value) then
      local ok, text = pcall(core.format, n.attrs.value, "print", 3)
      if ok then extra[#extra + 1] = "value=" .. text:gsub("\n", " ") end
    end
    if variables[n.name] then extra[#extra + 1] = "variable=" .. variables[n.name] end
    local outs = {}
    for k, s in ipairs(n.outputs) do outs[k] = spec_text(s) end
    local control = (#n.control > 0 and ("  after " .. table.concat(n.control, ", ")) or "")
      .. (unused[i] and "  (unused)" or "")
    -- The user's line above the ops it made, as a listing interleaves
    -- source and code.
    local src = n.source
    local here = src and (src.chunk .. ":" .. src.line .. ":" .. (src.text or ""))
    if here and here ~= shown then
      lines[#lines + 1] = ("%s-- line %d%s"):format(indent, src.line, src.text and (": " .. src.text) or "")
    end
    shown = here
    lines[#lines + 1] = (indent .. "%-" .. width .. "s = %s(%s)%s  -> %s%s"):format(n.name, n.type, args,
      #extra > 0 and (" {" .. table.concat(extra, ", ") .. "}") or "", table.concat(outs, ", "), control)
    for _, sub in ipairs(subgraphs(n)) do
      lines[#lines + 1] = ("%s  %s: %d ops"):format(indent, sub[3], #core.graph_nodes(sub[2]))
      text_lines(sub[2], indent .. "    ", lines)
    end
  end
  return nodes
end

gmethods.text = doc.def(function(g)
  local nodes = nodes_of(g)
  local lines = { ("graph %s: %d ops"):format(g.name, #nodes) }
  text_lines(g._handle, "  ", lines, captured_variables(g), true)
  local ins, outs = core.graph_io(g._handle)
  local in_names, out_names = {}, {}
  for i, id in ipairs(ins) do in_names[i] = nodes[id + 1].name end
  for i, r in ipairs(outs) do out_names[i] = nodes[r[1] + 1].name .. ":" .. r[2] end
  lines[#lines + 1] = ("inputs: %s"):format(#in_names > 0 and table.concat(in_names, ", ") or "(none)")
  lines[#lines + 1] = ("outputs: %s"):format(#out_names > 0 and table.concat(out_names, ", ") or "(none)")
  return table.concat(lines, "\n")
end, "graph:text()", "A text rendering of the graph, one line per op (the bodies of While and If "
  .. "ops indented below them, ops nothing uses marked \"(unused)\"), for terminals.")

function Graph.__tostring(g)
  return ("<tf.Graph '%s' with %d ops>"):format(g.name, #nodes_of(g))
end
Graph.__repr = Graph.__tostring

--- The SVG of DOT text where the session can draw (its host's dot_to_svg:
-- Jupyter), else nil.
local function svg_of(dot)
  local host = state.host
  if not (host and host.dot_to_svg) then return nil end
  local ok, svg = pcall(host.dot_to_svg, dot)
  if not ok or not svg then return nil end
  -- Graphviz opens with an XML declaration, a DOCTYPE and a comment: an
  -- SVG inside HTML (a notebook, nbconvert's export) starts at <svg.
  return svg:match("<svg.*$") or svg
end

local function html_escape(s)
  return (s:gsub("[&<>]", { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;" }))
end
-- One drawing path for every picture the library shows (the stepper's,
-- the profile's, a trace diff's).
graphs.svg_of, graphs.html_escape = svg_of, html_escape

--- A graph's picture (large scopes collapsed), and whether a scope was
-- collapsed; nil where the session cannot draw.
local function picture(g)
  local dot, any_collapsed = dot_text(g, COLLAPSE_OVER)
  return svg_of(dot), any_collapsed
end

function Graph.__mimebundle(g)
  local bundle = { ["text/plain"] = gmethods.text(g) }
  -- Drawn where the session renders pictures (Jupyter); a terminal shows the text.
  local svg, any_collapsed = picture(g)
  if not svg then return bundle end
  bundle["image/svg+xml"] = svg
  -- The same SVG inline in text/html, which frontends and exporters prefer:
  -- Debian's nbconvert 6.5 exports an image/svg+xml output through an HTML
  -- sanitizer that leaves an empty <svg>, and text/html as it is. With a
  -- scope collapsed, the whole graph is one click away.
  local full = any_collapsed and svg_of((dot_text(g, false)))
  local expand = full and ("<details><summary>Expand every name scope of %s</summary>%s</details>")
    :format(html_escape(g.name), full) or ""
  bundle["text/html"] = ('<div class="moonflow-graph">%s%s</div>'):format(svg, expand)
  return bundle
end

--- graphs.side_by_side(before, after, caption) -> a displayable object:
-- the two graphs' pictures next to each other (Jupyter), or their texts one
-- after the other (terminals). %graph --optimized shows one.
function graphs.side_by_side(before, after, caption)
  local view = {}
  local function bundle()
    local text = ("%s\n\nbefore the optimiser:\n%s\n\nafter:\n%s"):format(caption, gmethods.text(before),
      gmethods.text(after))
    local out = { ["text/plain"] = text }
    local a, b = picture(before), picture(after)
    if a and b then
      out["text/html"] = ('<div class="moonflow-graph-compare"><p>%s</p><div style="display:flex;'
        .. 'gap:2em;align-items:flex-start"><div><p><b>before the optimiser</b> (%d ops)</p>%s</div>'
        .. '<div><p><b>after</b> (%d ops)</p>%s</div></div></div>'):format(html_escape(caption),
          #nodes_of(before), a, #nodes_of(after), b)
    end
    return out
  end
  return setmetatable(view, { __name = "GraphComparison", __mimebundle = bundle,
    __tostring = function() return bundle()["text/plain"] end })
end

-- Operations ------------------------------------------------------------

-- An operation's computed fields, as TF's Operation.
local operation_fields = {
  name = function(o) return o._node.name end,
  type = function(o) return o._node.type end,
  graph = function(o) return o._graph end,
  node_def = function(o) return o._graph:as_graph_def().node[o._id + 1] end,
}

function operation_fields.inputs(o)
  local n, out = o._node, {}
  for i, src in ipairs(n.input_nodes) do
    out[i] = tensor_of(o._graph, src, tonumber(n.inputs[i]:match(":(%d+)$")) or 0)
  end
  return out
end

function operation_fields.outputs(o)
  local out = {}
  for i = 1, #o._node.outputs do out[i] = tensor_of(o._graph, o._id, i - 1) end
  return out
end

function operation_fields.control_inputs(o)
  local out = {}
  for i, c in ipairs(o._node.control) do out[i] = o._graph:get_operation_by_name(c) end
  return out
end

Operation.__index = receiver.index(Operation, "operation", { methods = { omethods },
  fields = operation_fields, display = "Operation" })

--- op:source() -> {file=, chunk=, line=, text=, name=} or nil: the user's
-- line that made the operation ("lesson.lua", line 3, "y = x * 2", and "y",
-- the variable its value was assigned to), nil for ops no user line made.
function omethods.source(o)
  local src = o._node.source
  if not src then return nil end
  return { file = node_source.short(src.chunk), chunk = src.chunk, line = src.line, text = src.text,
    name = src.name }
end

function omethods.get_attr(o, name)
  local v = o._node.attrs[name]
  if v == nil then
    raise("ValueError", ("Operation '%s' has no attr named '%s'."):format(o._node.name, name), 1)
  end
  return v
end

function Operation.__tostring(o)
  return ("<tf.Operation '%s' type=%s>"):format(o._node.name, o._node.type)
end
Operation.__repr = Operation.__tostring
Operation.__eq = function(a, b) return a._graph._handle == b._graph._handle and a._id == b._id end

graphs.Graph = Graph
graphs.Operation = Operation

-- Library-internal (the other modules' view, not part of tf).
graphs.internal = { Graph = true, Operation = true, wrap = true, side_by_side = true, last_operation = true,
  svg_of = true, html_escape = true, internal = true }

return graphs
