-- trace/node_source.lua — the user's line on every traced node. The binding
-- records, for each node a trace makes, the chunk and line of the innermost
-- frame outside moonflow's own files (lua/binding/source.c); when a trace
-- ends, fill() adds that line's code and the Lua variable the value was
-- assigned to (`local y = x * 2` names the Mul "y"). %graph, op:source(),
-- the stepper and the executor's error messages read them.

local core = require("moonflow.core")
local source = require("moonflow.source")

local node_source = {}

-- moonflow's own chunks start with this ("@/.../lua/moonflow/").
local LIBRARY = debug.getinfo(1, "S").source:match("^(@.*/moonflow/)trace/[^/]*$")

-- Lines by chunk, kept while the chunk's text stays the same.
local lines_of = {}

local function lines(chunk)
  local text = source.text(chunk)
  if not text then return nil end
  local c = lines_of[chunk]
  if c and c.text == text then return c.lines end
  local ls = {}
  for l in (text .. "\n"):gmatch("([^\n]*)\n") do ls[#ls + 1] = l end
  lines_of[chunk] = { text = text, lines = ls }
  return ls
end

local MAX_TEXT = 100

--- The code of line `line` of `chunk` as a node shows it: trimmed, without
-- a trailing comment or a leading `local`; nil when the text is unknown.
function node_source.code(chunk, line)
  local ls = lines(chunk)
  local l = ls and ls[line]
  if not l then return nil end
  l = l:gsub("^%s+", ""):gsub("%s*%-%-[^\"']*$", ""):gsub("%s+$", ""):gsub("^local%s+", "")
  if #l > MAX_TEXT then l = l:sub(1, MAX_TEXT - 3) .. "..." end
  return l
end

--- The variables line `code` (node_source.code's form) assigns, "y" or
-- "a, b", or nil when it assigns none.
function node_source.assigned(code)
  if not code or code:match("^function%f[^%w_]") then return nil end
  local lhs, rest = code:match("^([%a_][%w_%.]*%s*[%w_%.,%s]-)%s*=(.?)")
  if not lhs or rest == "=" then return nil end
  for word in lhs:gmatch("[^,%s]+") do
    if not word:match("^[%a_][%w_%.]*$") or word:match("^and$") or word:match("^return$") then return nil end
  end
  return (lhs:gsub("%s*,%s*", ", "):gsub("%s+$", ""))
end

-- Code and names by chunk and line, for the runs of one trace.
local function line_info(memo, chunk, line)
  local key = chunk .. "\0" .. line
  local m = memo[key]
  if not m then
    local code = node_source.code(chunk, line)
    m = { code = code, names = node_source.assigned(code) }
    memo[key] = m
  end
  return m
end

--- Adds code and variable names to the nodes of graph `handle` that have
-- a line but no code yet. In a run of nodes made by one line, the last
-- op of each repetition is the value assigned (the others are parts of its
-- expression, or the Consts of its numbers).
function node_source.fill(handle)
  local memo = {}
  for _, r in ipairs(core.graph_source_runs(handle)) do
    local m = line_info(memo, r[4], r[5])
    if m.code then core.graph_set_source_run(handle, r[1], r[2], r[3], m.code, m.names) end
  end
end

--- "lesson.lua" for "@/path/lesson.lua", "stdin" for "=stdin".
function node_source.short(chunk)
  local c = chunk:sub(1, 1)
  if c == "@" then return chunk:match("([^/]*)$") end
  if c == "=" then return chunk:sub(2) end
  return "[string]"
end

--- The sources of graph `handle`'s nodes, by 0-based id + 1: {chunk=,
-- file=, line=, text=, name=} or false.
function node_source.of_graph(handle)
  local srcs = core.graph_sources(handle)
  for _, s in ipairs(srcs) do
    if s then s.file = node_source.short(s.chunk) end
  end
  return srcs
end

local function restore(prev) core.set_gradient_of(prev.text) end

--- While a tape's gradient rule for the op that made symbolic tensor `y`
-- runs (a `local x <close> = node_source.gradient_of(y)`), the nodes it
-- traces read "gradient of mul (y = x * 2)": the backward pass names the
-- forward nodes it differentiates. nil when y is no node of a trace.
function node_source.gradient_of(y)
  if not core.is_tensor(y) or not core.is_symbolic(y) then return nil end
  local info = table.pack(core.info(y))
  local handle, node = info[5], info[6]
  if not handle or not node then return nil end
  local src = core.graph_sources(handle)[node + 1]
  local name = info[4] and info[4]:match("^(.*):%d+$") or "?"
  -- The forward node's code is filled in when its trace ends: read it now.
  local code = src and (src.text or node_source.code(src.chunk, src.line))
  local text = code and ("gradient of %s (%s)"):format(name, code) or ("gradient of " .. name)
  return setmetatable({ text = core.set_gradient_of(text) }, { __close = restore })
end

if LIBRARY then core.set_source_library(LIBRARY, node_source.fill) end

return node_source
