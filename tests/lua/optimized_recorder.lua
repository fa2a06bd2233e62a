-- optimized_recorder.lua — the recording half of optimized_spec.lua, loaded
-- as busted's --helper in the child run of the other spec files:
--
--   MOONFLOW_BOTHWAYS_REPORT=FILE moonflow busted --helper=optimized_recorder.lua SPECS...
--
-- While the specs run it records every concrete function traced
-- (state.on_trace) and the arguments of its first calls (state.on_call, which
-- func.lua calls on every run of a trace while it is set). When the suite
-- ends it calls each recorded function again with the same arguments, once
-- with the graph optimiser off and once on, compares what comes back, and
-- writes a report (a Lua chunk returning a table) to FILE.
--
-- State: a graph only reaches the variables it is fed (its resource
-- arguments and captures), so each replay starts from the same state: those
-- variables are saved before and restored before each run, and the random
-- generators are reseeded (tf.random.set_seed resets every stream), so
-- random ops draw the same numbers both ways. Variable values after each
-- run are compared too. Two kinds of functions cannot be replayed
-- faithfully and are counted, by name, instead: those calling
-- tf.lua_function (host code whose state the replay cannot reset) and those
-- reading tf.timestamp (the clock moves). tf.print runs; only its outputs
-- are compared.

local core = require("moonflow.core")
local tf = rawget(_G, "tf") or require("moonflow")
local state = require("moonflow.state")

local REPORT = assert(os.getenv("MOONFLOW_BOTHWAYS_REPORT"), "MOONFLOW_BOTHWAYS_REPORT is not set")
local CALLS_PER_FUNCTION = 2
local SEED = 20240601

local traced = {}      -- every concrete function, in trace order
local calls = {}       -- {cf=, args=, n=, vars=}
local ncalls = {}      -- cf -> calls recorded

-- Plain tables are copied (a spec may change them after the call);
-- everything else (tensors, variables, objects) is kept as it is.
local function copy(v, seen)
  if type(v) ~= "table" or getmetatable(v) ~= nil then return v end
  seen = seen or {}
  if seen[v] then return seen[v] end
  local t = {}
  seen[v] = t
  for k, x in pairs(v) do t[k] = copy(x, seen) end
  return t
end

-- The variables a call of cf can touch: its resource feeds.
local function variables_of(cf, args)
  local feeds = {}
  for i, t in ipairs(cf._types) do t:feeds(args[i], feeds) end
  for _, c in ipairs(cf._captures) do feeds[#feeds + 1] = c end
  local vars = {}
  for _, f in ipairs(feeds) do
    if core.is_tensor(f) and core.dtype(f) == tf.resource then
      local v = state.variable_by_id(core.variable_info(f))
      if v then vars[#vars + 1] = v end
    end
  end
  return vars
end

local previous_on_trace = state.on_trace
state.on_trace = function(fn, cf)
  traced[#traced + 1] = cf
  if previous_on_trace then previous_on_trace(fn, cf) end
end

state.on_call = function(cf, args)
  local n = ncalls[cf] or 0
  if n >= CALLS_PER_FUNCTION then return end
  ncalls[cf] = n + 1
  local count = #cf._types
  local kept = {}
  for i = 1, count do kept[i] = copy(args[i]) end
  local ok, vars = pcall(variables_of, cf, kept)
  calls[#calls + 1] = { cf = cf, args = kept, n = count, vars = ok and vars or {} }
end

-- Op types anywhere in a graph, nested graphs included.
local function op_types(handle, into, seen)
  into, seen = into or {}, seen or {}
  if seen[handle] then return into end
  seen[handle] = true
  for _, node in ipairs(core.graph_nodes(handle)) do
    into[node.type] = true
    for _, a in pairs(node.attrs) do
      if getmetatable(a) and getmetatable(a).__name == "GraphHandle" then op_types(a, into, seen) end
    end
  end
  return into
end

local EXCLUDED = { EagerLuaFunc = "lua_function", Timestamp = "timestamp",
  GeneratorDataset = "tf.data from_generator" }

-- Comparison -----------------------------------------------------------------

local ATOL, RTOL = 1e-6, 1e-5

local function close(a, b, exact)
  if a == b then return true end
  if type(a) ~= "number" or type(b) ~= "number" then return false end
  if a ~= a and b ~= b then return true end -- NaN both ways
  if exact then return false end
  return math.abs(a - b) <= ATOL + RTOL * math.abs(b)
end

local function same_numpy(a, b, exact)
  if type(a) ~= "table" or type(b) ~= "table" then return close(a, b, exact) end
  if #a ~= #b then return false end
  for i = 1, #a do
    if not same_numpy(a[i], b[i], exact) then return false end
  end
  return true
end

local function describe(v)
  if core.is_tensor(v) then return ("%s %s"):format(tostring(v.dtype), tostring(v.shape)) end
  return type(v)
end

-- nil when a and b (results of the two runs) agree, else why not.
local function difference(a, b, path)
  path = path or "result"
  if core.is_tensor(a) or core.is_tensor(b) then
    if not (core.is_tensor(a) and core.is_tensor(b)) then
      return ("%s: %s vs %s"):format(path, describe(a), describe(b))
    end
    if a.dtype ~= b.dtype or tostring(a.shape) ~= tostring(b.shape) then
      return ("%s: %s vs %s"):format(path, describe(a), describe(b))
    end
    if a.dtype == tf.resource then return nil end
    local exact = a.dtype ~= tf.float32 and a.dtype ~= tf.float64
    if not same_numpy(a:numpy(), b:numpy(), exact) then
      return ("%s: values differ (%s vs %s)"):format(path, tostring(a), tostring(b))
    end
    return nil
  end
  if type(a) == "table" and type(b) == "table" and getmetatable(a) == nil and getmetatable(b) == nil then
    for k, x in pairs(a) do
      local d = difference(x, b[k], path .. "." .. tostring(k))
      if d then return d end
    end
    for k in pairs(b) do
      if a[k] == nil then return ("%s.%s: missing unoptimised"):format(path, tostring(k)) end
    end
    return nil
  end
  if a ~= b then return ("%s: %s vs %s"):format(path, tostring(a), tostring(b)) end
  return nil
end

-- "InvalidArgumentError: ..." without the node that failed (folding and
-- merging may leave another node of the same computation to report it).
local function error_text(err)
  local text = core.is_error(err) and (err.type .. ": " .. err.message) or tostring(err)
  return (text:gsub(" %[%[node [^%]]*%]%]", ""))
end

-- Replay ------------------------------------------------------------------------

local function save(vars)
  local values = {}
  for i, v in ipairs(vars) do values[i] = v:read_value() end
  return values
end

local function restore(vars, values)
  for i, v in ipairs(vars) do v:assign(values[i]) end
end

-- One run of a recorded call with the optimiser on or off, from the saved
-- state: its results (or error) and the variables' values afterwards.
local function run_once(c, saved, optimize)
  restore(c.vars, saved)
  tf.random.set_seed(SEED)
  tf.config.optimizer.set_enabled(optimize)
  local results = table.pack(pcall(c.cf, table.unpack(c.args, 1, c.n)))
  tf.config.optimizer.set_enabled(true)
  local after = save(c.vars)
  if not results[1] then return { err = error_text(results[2]), vars = after } end
  return { results = { table.unpack(results, 2, results.n) }, n = results.n - 1, vars = after }
end

local function compare(c)
  local saved = save(c.vars)
  local off = run_once(c, saved, false)
  local on = run_once(c, saved, true)
  restore(c.vars, saved)
  if off.err or on.err then
    if off.err == on.err then return nil, true end
    return ("unoptimised: %s; optimised: %s"):format(off.err or "ok", on.err or "ok")
  end
  if off.n ~= on.n then return ("%d results unoptimised, %d optimised"):format(off.n, on.n) end
  for i = 1, off.n do
    local d = difference(off.results[i], on.results[i], "result " .. i)
    if d then return d end
  end
  for i, v in ipairs(c.vars) do
    local d = difference(off.vars[i], on.vars[i], "variable " .. v.name)
    if d then return d end
  end
  return nil
end

local function name_of(cf) return ("%s#%d"):format(cf.name, cf._number) end

local function replay()
  state.on_call, state.on_trace = nil, previous_on_trace
  tf.config.run_functions_eagerly(false)
  local report = {
    traced = #traced, calls = #calls, compared_calls = 0, failed_both_ways = 0,
    mismatches = {}, excluded = {}, excluded_calls = 0, nodes_before = 0, nodes_after = 0,
  }
  local compared, excluded = {}, {}
  for _, c in ipairs(calls) do
    local types = op_types(c.cf._graph)
    local why
    for op, what in pairs(EXCLUDED) do
      if types[op] then why = what end
    end
    -- An iterator from outside the graph moves with each run: the replay
    -- cannot put it back (one made in the graph starts afresh each run).
    if (types.IteratorGetNext or types.IteratorGetNextAsOptional) and not types.AnonymousIteratorV3 then
      why = "a tf.data iterator passed in"
    end
    if why then
      report.excluded_calls = report.excluded_calls + 1
      excluded[name_of(c.cf) .. " (" .. why .. ")"] = true
    else
      local ok, diff, both_failed = pcall(compare, c)
      if not ok then diff = "replay failed: " .. error_text(diff) end
      if diff then report.mismatches[#report.mismatches + 1] = name_of(c.cf) .. ": " .. diff end
      if both_failed then report.failed_both_ways = report.failed_both_ways + 1 end
      report.compared_calls = report.compared_calls + 1
      if not compared[c.cf] then
        compared[c.cf] = true
        local _, st = c.cf:optimized_graph()
        report.nodes_before = report.nodes_before + st.nodes_before
        report.nodes_after = report.nodes_after + st.nodes_after
      end
    end
  end
  report.compared_functions = 0
  for _ in pairs(compared) do report.compared_functions = report.compared_functions + 1 end
  for name in pairs(excluded) do report.excluded[#report.excluded + 1] = name end
  table.sort(report.excluded)
  return report
end

-- A Lua chunk returning the report.
local function serialize(v, indent)
  indent = indent or ""
  if type(v) == "table" then
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = k end
    table.sort(keys, function(a, b)
      if type(a) == type(b) then return a < b end
      return type(a) == "number"
    end)
    local parts = {}
    for _, k in ipairs(keys) do
      local key = type(k) == "number" and "" or ("[%q] = "):format(k)
      parts[#parts + 1] = indent .. "  " .. key .. serialize(v[k], indent .. "  ")
    end
    return "{\n" .. table.concat(parts, ",\n") .. "\n" .. indent .. "}"
  end
  if type(v) == "string" then return ("%q"):format(v) end
  return tostring(v)
end

require("busted").subscribe({ "suite", "end" }, function()
  local ok, report = pcall(replay)
  if not ok then report = { failed = error_text(report) } end
  local f = assert(io.open(REPORT, "w"))
  f:write("return ", serialize(report), "\n")
  f:close()
  return nil, true
end)
