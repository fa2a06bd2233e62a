-- debug/step.lua (moonflow.debug.step) — tf.debug.step: runs a concrete
-- function's graph one node at a time, with every value kept, so a learner
-- can watch it execute. Each node runs through core.run_node (the same op
-- call the executor makes), so stepping to the end gives the bits a call
-- gives. Nested graphs are entered: the branch an If takes, a While's cond
-- and body once per iteration, a PartitionedCall's function (or stepped
-- over, {into_calls = false}).
--
-- A step is one node run; Placeholders (fed) and Consts (their values are
-- attributes) are values from the start, not steps.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local func = require("moonflow.trace.func")
local concrete = require("moonflow.trace.concrete")
local node_source = require("moonflow.trace.node_source")
local state = require("moonflow.state")
local ops = require("moonflow.ops")
local dtypes = require("moonflow.tensor.dtypes")
local graphs = require("moonflow.trace.graph")
local raise = errors.raise

local step = {}

local Stepper = { __name = "Stepper" }
Stepper.__index = Stepper

local IF = { If = true, StatelessIf = true }
local WHILE = { While = true, StatelessWhile = true }
local CALL = { PartitionedCall = true, StatefulPartitionedCall = true }

local function is_graph(v)
  local mt = getmetatable(v)
  return mt and mt.__name == "GraphHandle"
end

-- The nodes a run of graph `nodes` needs, in order (0-based ids): the
-- outputs' ancestors and every stateful node's, as the executor plans.
local function needed_order(handle, nodes)
  local _, outs = core.graph_io(handle)
  local need = {}
  local by_name = {}
  for i, n in ipairs(nodes) do by_name[n.name] = i - 1 end
  for _, r in ipairs(outs) do need[r[1]] = true end
  for i, n in ipairs(nodes) do
    if n.stateful then need[i - 1] = true end
  end
  for i = #nodes, 1, -1 do
    if need[i - 1] then
      local n = nodes[i]
      for _, src in ipairs(n.input_nodes) do need[src] = true end
      for _, c in ipairs(n.control) do need[by_name[c]] = true end
    end
  end
  local order = {}
  for i = 1, #nodes do
    if need[i - 1] then order[#order + 1] = i - 1 end
  end
  return order
end

local function out_index(ref) return tonumber(ref:match(":(%d+)$")) or 0 end

-- What a frame needs of a graph, made once per graph (a loop's body is
-- entered once per iteration): its nodes, inputs, outputs, names, the
-- nodes a run needs in order and its Consts' values.
local layouts = setmetatable({}, { __mode = "k" })

local function layout_of(handle)
  local l = layouts[handle]
  if l then return l end
  local nodes = core.graph_nodes(handle)
  local ins, outs = core.graph_io(handle)
  l = { nodes = nodes, ins = ins, outs = outs, by_name = {}, order = {}, consts = {} }
  for i, n in ipairs(nodes) do l.by_name[n.name] = i - 1 end
  local fed = {}
  for _, id in ipairs(ins) do fed[id] = true end
  -- Consts are values before the first step (the executor's plan takes them once).
  for _, id in ipairs(needed_order(handle, nodes)) do
    if fed[id] then
      -- fed
    elseif nodes[id + 1].type == "Const" then
      l.consts[id] = table.pack(core.run_node(handle, id, {}))
    else
      l.order[#l.order + 1] = id
    end
  end
  layouts[handle] = l
  return l
end

-- A frame: one graph being run, its values by node id, the next node.
local function new_frame(handle, feeds, info)
  local l = layout_of(handle)
  local f = { handle = handle, nodes = l.nodes, values = {}, order = l.order, pos = 1, path = info.path,
    kind = info.kind, iteration = info.iteration, owner = info.owner, by_name = l.by_name, outs = l.outs }
  for id, v in pairs(l.consts) do f.values[id] = v end
  for k, id in ipairs(l.ins) do f.values[id] = { feeds[k] } end
  return f
end

local function frame_outputs(f)
  local outs = f.outs
  local r = {}
  for k, o in ipairs(outs) do r[k] = f.values[o[1]][o[2] + 1] end
  return r
end

local function inputs_of(f, n)
  local ins = {}
  for k, src in ipairs(n.input_nodes) do
    local v = f.values[src]
    ins[k] = v and v[out_index(n.inputs[k]) + 1]
    if ins[k] == nil then
      raise("InternalError", ("stepper: input %d of node %s has no value"):format(k, n.name))
    end
  end
  return ins
end

local function truthy(t) return t:numpy() ~= 0 and t:numpy() ~= false end

-- Whether any element of float tensor t is NaN or infinite.
local function has_nonfinite(t)
  if not core.is_tensor(t) then return false end
  local dt = tostring(t.dtype)
  if not (dt:find("float") or dt:find("half")) then return false end
  -- x * 0 is 0 for every finite x and NaN for NaN and the infinities.
  local z = ops.reduce_sum(ops.cast(t, dtypes.float64) * 0):numpy()
  return z ~= 0
end

--- Begins stepping: `target` is a tf.func (traced for args if needed) or
-- a concrete function; opts.optimized steps the graph calls run (after the
-- optimisation passes) instead of the graph as traced; opts.into_calls =
-- false runs PartitionedCalls as one step.
local function new(target, opts, ...)
  local cf
  if concrete.is_concrete(target) then
    cf = target
  elseif func.is_func(target) or func.is_bound(target) then
    cf = target:get_concrete_function(...)
  else
    raise("TypeError", ("tf.debug.step: expected a tf.func or a concrete function, got %s"):format(
      type(target)), 3)
  end
  local args = cf:_bind_call(...)
  local feeds = {}
  for i, v in ipairs(cf:_feeds_for(args)) do feeds[i] = v end
  for i = #cf._feeds, 1, -1 do cf._feeds[i] = nil end
  local handle = cf._graph
  if opts.optimized then handle = cf:optimized_graph()._handle end -- the graph calls run
  local s = setmetatable({ cf = cf, handle = handle, feeds = feeds, opts = opts, breakpoints = {},
    history = {}, count = 0 }, Stepper)
  s:restart()
  return s
end

--- stepper:restart(): back to before the first node (values dropped;
-- variables a run already assigned keep their new values).
function Stepper:restart()
  local name = graphs.wrap(self.cf._graph, self.cf).name
  self.frames = { new_frame(self.handle, self.feeds, { path = name, kind = "function" }) }
  self.count, self.done, self.results, self.last, self.nonfinite = 0, false, nil, nil, nil
  return self
end

-- A step record prints as its one-line description (step.describe).
local Step = { __name = "Step" }

-- A record of the step that ran node `id` of frame f.
local function record(self, f, id, extra)
  local n = f.nodes[id + 1]
  local rec = setmetatable({ number = self.count, node = n.name, type = n.type, graph = f.path, iteration = f.iteration,
    outputs = f.values[id], source = n.source or nil, frame = f, id = id }, Step)
  for k, v in pairs(extra or {}) do rec[k] = v end
  for _, t in ipairs(f.values[id] or {}) do
    if has_nonfinite(t) then rec.nonfinite = true end
  end
  self.last = rec
  return rec
end

-- Finishes the innermost frame: its outputs become its owner's.
local function finish_frame(self)
  local f = table.remove(self.frames)
  local outs = frame_outputs(f)
  local parent = self.frames[#self.frames]
  if not parent then
    self.frames[1] = f -- kept, finished, for where and the picture
    self.done = true
    self.outputs = outs
    self.results = table.pack(self.cf:_results(table.pack(table.unpack(outs))))
    return nil
  end
  local owner = f.owner
  local n = parent.nodes[owner.id + 1]
  if owner.kind == "if" or owner.kind == "call" then
    parent.values[owner.id] = outs
  elseif owner.kind == "cond" then
    if truthy(outs[1]) then
      owner.iteration = owner.iteration + 1
      self.frames[#self.frames + 1] = new_frame(n.attrs.body, owner.vars, { path = f.path:gsub("/cond$", "/body"),
        kind = "body", iteration = owner.iteration, owner = { kind = "body", id = owner.id, loop = owner } })
      return "continue"
    end
    parent.values[owner.id] = owner.vars
  elseif owner.kind == "body" then
    local loop = owner.loop
    loop.vars = outs
    self.frames[#self.frames + 1] = new_frame(n.attrs.cond, outs, { path = f.path:gsub("/body$", "/cond"),
      kind = "cond", iteration = loop.iteration, owner = loop })
    return "continue"
  end
  parent.pos = parent.pos + 1
  self.count = self.count + 1
  return record(self, parent, owner.id, { iterations = owner.kind == "cond" and owner.iteration or nil })
end

-- Enters node n (id) of frame f when it holds a graph to step through;
-- true when it did.
local function enter(self, f, id, n)
  local ins = inputs_of(f, n)
  local base = f.path .. "/" .. n.name
  if IF[n.type] then
    local take = truthy(ins[1])
    local branch = take and "then_branch" or "else_branch"
    self.frames[#self.frames + 1] = new_frame(n.attrs[branch], { table.unpack(ins, 2) },
      { path = base .. "/" .. branch, kind = branch, owner = { kind = "if", id = id } })
    return true
  elseif WHILE[n.type] then
    local loop = { kind = "cond", id = id, vars = ins, iteration = 0 }
    self.frames[#self.frames + 1] = new_frame(n.attrs.cond, ins, { path = base .. "/cond", kind = "cond",
      iteration = 0, owner = loop })
    return true
  elseif CALL[n.type] and self.opts.into_calls ~= false and is_graph(n.attrs.f) then
    self.frames[#self.frames + 1] = new_frame(n.attrs.f, ins, { path = base, kind = "call",
      owner = { kind = "call", id = id } })
    return true
  end
  return false
end

-- The names of the nodes a fused node stands for (its body graph's ops).
local function fused_names(n)
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

-- The variables a node's inputs hold (resource handles), each with its
-- value before the node runs: {variable=, name=, before=}.
local function variables_read(ins)
  local out = {}
  for _, t in ipairs(ins) do
    if core.is_tensor(t) and tostring(core.dtype(t)):find("resource") then
      local ok, v = pcall(function() return state.variable_by_id(core.variable_info(t)) end)
      if ok and v then out[#out + 1] = { variable = v, name = v.name, before = v:read_value() } end
    end
  end
  return out
end

--- stepper:over() -> like next(), but a next node holding a graph (an If,
-- a While, a PartitionedCall) runs whole as one step instead of being entered.
function Stepper:over()
  if self.done then return nil end
  local f = self.frames[#self.frames]
  local id = f.order[f.pos]
  local n = id and f.nodes[id + 1]
  if not (n and (IF[n.type] or WHILE[n.type] or CALL[n.type])) then return self:next() end
  local ins = inputs_of(f, n)
  f.values[id] = table.pack(core.run_node(f.handle, id, ins))
  f.pos = f.pos + 1
  self.count = self.count + 1
  return record(self, f, id, { over = true })
end

--- stepper:next() -> the step record of the next node run, or nil at the
-- end (stepper.results then holds what the call returns).
function Stepper:next()
  if self.done then return nil end
  while true do
    local f = self.frames[#self.frames]
    if f.pos > #f.order then
      local r = finish_frame(self)
      if r ~= "continue" then return r end
    else
      local id = f.order[f.pos]
      local n = f.nodes[id + 1]
      if not enter(self, f, id, n) then
        local ins = inputs_of(f, n)
        local vars = variables_read(ins)
        f.values[id] = table.pack(core.run_node(f.handle, id, ins))
        for _, v in ipairs(vars) do v.after = v.variable:read_value() end
        f.pos = f.pos + 1
        self.count = self.count + 1
        local fused = not (IF[n.type] or WHILE[n.type] or CALL[n.type]) and fused_names(n) or nil
        return record(self, f, id, { fused = fused, variables = #vars > 0 and vars or nil })
      end
    end
  end
end

-- Whether step record r matches target: a node name, an op type, or a line.
local function matches(r, target)
  if type(target) == "number" then return r.source and r.source.line == target or false end
  return r.node == target or r.type == target
end

--- stepper:breakpoint(target): continue() stops after a node matching
-- target (a node name, an op type, or a line number) has run.
function Stepper:breakpoint(target)
  self.breakpoints[#self.breakpoints + 1] = target
  return self
end

--- stepper:continue() -> the step at a breakpoint, or nil at the end.
function Stepper:continue()
  while true do
    local r = self:next()
    if not r then return nil end
    for _, b in ipairs(self.breakpoints) do
      if matches(r, b) then return r end
    end
  end
end

--- stepper:run_to(target) -> the step that ran the first node matching
-- target (node name, op type or line), or nil when the run ended first.
function Stepper:run_to(target)
  while true do
    local r = self:next()
    if not r or matches(r, target) then return r end
  end
end

--- stepper:break_on_nan() -> the first step whose output holds a NaN or
-- an infinity, or nil when the run ends without one.
function Stepper:break_on_nan()
  while true do
    local r = self:next()
    if not r or r.nonfinite then return r end
  end
end

--- stepper:back() -> the previous step again (replays from the start:
-- nodes with side effects run again).
function Stepper:back()
  local target = math.max(self.count - 1, 0)
  self:restart()
  local r
  while self.count < target do r = self:next() end
  return r
end

-- The frame and id of the node named `name` with a value, innermost first.
local function find(self, name)
  local base, index = name, 0
  local b, k = name:match("^(.*):(%d+)$")
  if b then base, index = b, tonumber(k) end
  for i = #self.frames, 1, -1 do
    local f = self.frames[i]
    local id = f.by_name[base]
    if id and f.values[id] then return f, id, index end
  end
  for i = #self.frames, 1, -1 do
    if self.frames[i].by_name[base] then return self.frames[i], self.frames[i].by_name[base], index, true end
  end
  return nil
end

--- stepper:value(name) -> the full value of node `name` ("name:1" for its
-- second output), as a tensor.
function Stepper:value(name)
  local f, id, index, pending = find(self, name)
  if not f then raise("ValueError", ("no node named '%s' in the graphs being stepped"):format(name), 2) end
  if pending then raise("ValueError", ("node '%s' has not run yet"):format(name), 2) end
  local v = f.values[id][index + 1]
  if v == nil then raise("ValueError", ("node '%s' has no output %d"):format(name, index), 2) end
  return v
end

--- stepper:set(name, value) -> the names of the nodes run again: node
-- `name`'s output becomes value (same dtype and shape), and the nodes of its
-- graph that already ran on it are run again; those still to run see it.
function Stepper:set(name, value)
  local f, id, index, pending = find(self, name)
  if not f then raise("ValueError", ("no node named '%s' in the graphs being stepped"):format(name), 2) end
  if pending then raise("ValueError", ("node '%s' has not run yet: step to it first"):format(name), 2) end
  local old = f.values[id][index + 1]
  value = ops.convert_to_tensor(value, old.dtype)
  if tostring(value.shape) ~= tostring(old.shape) then
    raise("ValueError", ("set: node '%s' has shape %s, the value has %s"):format(name, tostring(old.shape),
      tostring(value.shape)), 2)
  end
  local vals = { table.unpack(f.values[id], 1, f.values[id].n or #f.values[id]) }
  vals[index + 1] = value
  vals.n = f.values[id].n
  f.values[id] = vals
  -- Nodes already run in this frame that read what changed.
  local changed, rerun = { [id] = true }, {}
  for p = 1, f.pos - 1 do
    local m = f.order[p]
    local n = f.nodes[m + 1]
    local dep = false
    for _, src in ipairs(n.input_nodes) do dep = dep or changed[src] end
    if dep then
      f.values[m] = table.pack(core.run_node(f.handle, m, inputs_of(f, n)))
      changed[m] = true
      rerun[#rerun + 1] = n.name
    end
  end
  if self.last and self.last.frame == f then self.last.outputs = f.values[self.last.id] end
  return rerun
end

local function short(t)
  if not core.is_tensor(t) then return tostring(t) end
  local ok, text = pcall(core.format, t, "print", 3)
  text = ok and text:gsub("\n%s*", " ") or "?"
  if #text > 60 then text = text:sub(1, 57) .. "..." end
  return text
end
step.short = short
step.nonfinite = has_nonfinite

--- stepper:where() -> a text: the node last run, its inputs' values, its
-- output, and the user's line that made it.
function Stepper:where()
  local r = self.last
  if not r then return "before the first node of " .. self.frames[1].path end
  local f = r.frame
  local n = f.nodes[r.id + 1]
  local lines = { ("step %d: %s (%s) in %s%s%s%s"):format(r.number, r.node, r.type, r.graph,
    r.iteration and (", iteration " .. r.iteration) or "",
    r.iterations and (", after %d iteration%s"):format(r.iterations, r.iterations == 1 and "" or "s") or "",
    r.nonfinite and "  NaN/Inf!" or "") }
  if r.fused then lines[#lines + 1] = "  fused: " .. table.concat(r.fused, ", ") end
  if r.source then
    lines[#lines + 1] = ("  made at %s:%d%s"):format(node_source.short(r.source.chunk), r.source.line,
      r.source.text and (": " .. r.source.text) or "")
  end
  for k, src in ipairs(n.input_nodes) do
    local v = f.values[src]
    lines[#lines + 1] = ("  in  %s = %s"):format(n.inputs[k], short(v and v[out_index(n.inputs[k]) + 1]))
  end
  for k, v in ipairs(f.values[r.id] or {}) do lines[#lines + 1] = ("  out %s:%d = %s"):format(r.node, k - 1, short(v)) end
  for _, v in ipairs(r.variables or {}) do
    lines[#lines + 1] = ("  variable %s: %s -> %s"):format(v.name, short(v.before), short(v.after))
  end
  return table.concat(lines, "\n")
end

--- stepper:finish() -> what the call returns: runs every remaining node.
function Stepper:finish()
  while self:next() do end
  return table.unpack(self.results, 1, self.results.n)
end

--- The step as one line: "step 3: mul = Mul -> [2 4]  (line 3: y = x * 2)".
function step.describe(r)
  if not r then return "end of the function" end
  local outs = {}
  for k, v in ipairs(r.frame and r.frame.values[r.id] or r.outputs or {}) do outs[k] = short(v) end
  local src = r.source and ("  (line %d%s)"):format(r.source.line, r.source.text and (": " .. r.source.text) or "")
    or ""
  local it = r.iteration and (" [iteration %d]"):format(r.iteration) or ""
  local fused = r.fused and (" fused: " .. table.concat(r.fused, ", ")) or ""
  if r.iterations then it = it .. (" (%d iteration%s)"):format(r.iterations, r.iterations == 1 and "" or "s") end
  return ("step %d: %s = %s -> %s%s%s%s%s"):format(r.number, r.node, r.type,
    #outs > 0 and table.concat(outs, ", ") or "(no outputs)", src,
    it, fused, r.nonfinite and "  NaN/Inf!" or "")
end

function Stepper:__tostring()
  if self.done then return ("<Stepper of %s: finished after %d steps>"):format(self.frames[1] and
    self.frames[1].path or "function", self.count) end
  return ("<Stepper of %s: %d steps run; %s>"):format(self.frames[1].path, self.count,
    self.last and step.describe(self.last) or "at the start")
end

Step.__tostring = step.describe
step.Stepper = Stepper
step.new = new

return step
