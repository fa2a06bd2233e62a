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

-- Lines by chunk, kept while the chunk's text stays the same: the ends
-- of the lines found so far (a trace asks for a few lines of a file; the
-- text is scanned only as far as the last line asked for), and the code
-- and variables of the lines asked for.
local lines_of = {}

-- The entry of lines_of for chunk's current text, or nil.
local function chunk_lines(chunk)
  local text = source.text(chunk)
  if not text then return nil end
  local c = lines_of[chunk]
  if c and c.text == text then return c end
  c = { text = text, ends = {}, code = {}, names = {} }
  lines_of[chunk] = c
  return c
end

-- Line `line` of entry c's text, or nil past its end.
local function line_of(c, line)
  if line < 1 then return nil end
  local ends, text = c.ends, c.text
  local n = #ends
  while n < line do
    local last = ends[n]
    if last and last > #text then return nil end
    n = n + 1
    ends[n] = text:find("\n", (last or 0) + 1, true) or #text + 1
  end
  return text:sub((ends[line - 1] or 0) + 1, ends[line] - 1)
end

local MAX_TEXT = 100

local function code_of_line(l)
  l = l:gsub("^%s+", ""):gsub("%s*%-%-[^\"']*$", ""):gsub("%s+$", ""):gsub("^local%s+", "")
  if #l > MAX_TEXT then l = l:sub(1, MAX_TEXT - 3) .. "..." end
  return l
end

--- The code of line `line` of `chunk` as a node shows it: trimmed, without
-- a trailing comment or a leading `local`; nil when the text is unknown.
function node_source.code(chunk, line)
  local c = chunk_lines(chunk)
  local l = c and line_of(c, line)
  return l and code_of_line(l)
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

--- Adds code and variable names to the nodes of graph `handle` that have
-- a line but no code yet: the binding walks the runs of nodes one line made
-- and asks for each line's code once (lua/binding/source.c's
-- graph_fill_sources says which node of a run gets the variable). A
-- chunk's text is read once per trace, and a line's code worked out once
-- while that text stays the same.
function node_source.fill(handle)
  local seen = {}
  core.graph_fill_sources(handle, function(chunk, line)
    local c = seen[chunk]
    if c == nil then
      c = chunk_lines(chunk) or false
      seen[chunk] = c
    end
    if not c then return nil end
    local code = c.code[line]
    if not code then
      local l = line_of(c, line)
      if not l then return nil end
      code = code_of_line(l)
      c.code[line], c.names[line] = code, node_source.assigned(code) or false
    end
    return code, c.names[line] or nil
  end)
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
