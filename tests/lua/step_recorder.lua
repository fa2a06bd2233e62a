-- step_recorder.lua — the recording half of step_corpus_spec.lua, loaded
-- as busted's --helper in a child run of the other spec files:
--
--   MOONFLOW_STEP_REPORT=FILE moonflow busted --helper=step_recorder.lua SPECS...
--
-- It records every concrete function the specs call and the arguments of
-- its first call (state.on_call); when the suite ends it steps each one to
-- the end with tf.debug.step and calls it with the optimiser off (the graph
-- as traced, which the stepper steps), then steps the optimised graph and
-- calls it with the optimiser on, each from the same variable values and
-- random seed, and reports every call whose results differ in a single bit
-- or whose steps visit a node twice in one execution. Functions calling
-- tf.lua_function or reading tf.timestamp are left out (as in
-- optimized_recorder.lua: their state cannot be reset).

local core = require("moonflow.core")
local tf = rawget(_G, "tf") or require("moonflow")
local state = require("moonflow.state")

local REPORT = assert(os.getenv("MOONFLOW_STEP_REPORT"), "MOONFLOW_STEP_REPORT is not set")
local SEED = 20240601

local calls, seen = {}, {}

local function copy(v, memo)
  if type(v) ~= "table" or getmetatable(v) ~= nil then return v end
  memo = memo or {}
  if memo[v] then return memo[v] end
  local t = {}
  memo[v] = t
  for k, x in pairs(v) do t[k] = copy(x, memo) end
  return t
end

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

state.on_call = function(cf, args)
  if seen[cf] then return end
  seen[cf] = true
  local kept = {}
  for i = 1, #cf._types do kept[i] = copy(args[i]) end
  local ok, vars = pcall(variables_of, cf, kept)
  calls[#calls + 1] = { cf = cf, args = kept, n = #cf._types, vars = ok and vars or {} }
end

local function op_types(handle, into, memo)
  into, memo = into or {}, memo or {}
  if memo[handle] then return into end
  memo[handle] = true
  for _, node in ipairs(core.graph_nodes(handle)) do
    into[node.type] = true
    for _, a in pairs(node.attrs) do
      if getmetatable(a) and getmetatable(a).__name == "GraphHandle" then op_types(a, into, memo) end
    end
  end
  return into
end

local EXCLUDED = { EagerLuaFunc = true, Timestamp = true }

-- Every element exactly: floats in hexadecimal (%a tells -0.0 from 0.0).
local function exact(x)
  if type(x) == "table" then
    local parts = {}
    for i, e in ipairs(x) do parts[i] = exact(e) end
    return "[" .. table.concat(parts, " ") .. "]"
  end
  if math.type(x) == "float" then return x ~= x and "nan" or ("%a"):format(x) end
  return ("%q"):format(x)
end

-- Bit-exact text of a value.
local function bits(v)
  if core.is_tensor(v) then
    if v.dtype == tf.resource or tostring(v.dtype):find("variant") then return tostring(v.dtype) end
    return tostring(v.dtype) .. tostring(v.shape) .. exact(v:numpy())
  end
  if type(v) == "table" and getmetatable(v) == nil then
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = tostring(k) end
    table.sort(keys)
    local parts = {}
    for _, k in ipairs(keys) do parts[#parts + 1] = k .. "=" .. bits(v[k] or v[tonumber(k)]) end
    return "{" .. table.concat(parts, ",") .. "}"
  end
  return tostring(v)
end

local function error_text(err)
  local text = core.is_error(err) and (err.type .. ": " .. err.message) or tostring(err)
  return (text:gsub(" %[%[node [^%]]*%]%].*$", ""))
end

local function save(vars)
  local values = {}
  for i, v in ipairs(vars) do values[i] = v:read_value() end
  return values
end

local function restore(vars, values)
  for i, v in ipairs(vars) do v:assign(values[i]) end
end

-- nil when stepping c gives the call's bits, else why not; and the steps.
-- optimized: the graph calls run after the optimiser, against a call with
-- the optimiser on; else the graph as traced, against a call with it off.
local function compare(c, optimized)
  local saved = save(c.vars)
  restore(c.vars, saved)
  tf.random.set_seed(SEED)
  tf.config.optimizer.set_enabled(optimized)
  local called = table.pack(pcall(c.cf, table.unpack(c.args, 1, c.n)))
  tf.config.optimizer.set_enabled(true)
  local vars_called = save(c.vars)
  restore(c.vars, saved)
  tf.random.set_seed(SEED)
  local nsteps, twice = 0, nil
  local stepped = table.pack(pcall(function()
    local s = tf.debug.step_with({ optimized = optimized }, c.cf, table.unpack(c.args, 1, c.n))
    local visits = {}
    while true do
      local r = s:next()
      if not r then break end
      nsteps = nsteps + 1
      -- One execution of a graph is one frame: a node once per frame.
      -- Keyed by the frame itself, which this keeps alive: a frame's
      -- address (tostring) may be a collected earlier frame's.
      local seen_in = visits[r.frame] or {}
      visits[r.frame] = seen_in
      if seen_in[r.node] then twice = twice or r.graph .. "/" .. r.node end
      seen_in[r.node] = true
    end
    return table.unpack(s.results, 1, s.results.n)
  end))
  local vars_stepped = save(c.vars)
  restore(c.vars, saved)
  if twice then return "node visited twice in one execution: " .. twice, nsteps end
  if not called[1] or not stepped[1] then
    if not called[1] and not stepped[1] then return nil, nsteps, true end
    return ("call: %s; stepped: %s"):format(called[1] and "ok" or error_text(called[2]),
      stepped[1] and "ok" or error_text(stepped[2])), nsteps
  end
  if called.n ~= stepped.n then return ("%d results called, %d stepped"):format(called.n - 1, stepped.n - 1), nsteps end
  for i = 2, called.n do
    local a, b = bits(called[i]), bits(stepped[i])
    if a ~= b then return ("result %d: %s called, %s stepped"):format(i - 1, a:sub(1, 200), b:sub(1, 200)), nsteps end
  end
  for i, v in ipairs(c.vars) do
    if bits(vars_called[i]) ~= bits(vars_stepped[i]) then return "variable " .. v.name .. " differs", nsteps end
  end
  return nil, nsteps
end

local function replay()
  state.on_call = nil
  tf.config.run_functions_eagerly(false)
  local report = { calls = #calls, compared = 0, steps = 0, failed_both_ways = 0, excluded = 0, mismatches = {} }
  for _, c in ipairs(calls) do
    if next(op_types(c.cf._graph)) and (function()
      for op in pairs(op_types(c.cf._graph)) do if EXCLUDED[op] then return true end end
      return false
    end)() then
      report.excluded = report.excluded + 1
    else
      for _, optimized in ipairs({ false, true }) do
        local ok, diff, nsteps, both = pcall(compare, c, optimized)
        if not ok then diff = "replay failed: " .. error_text(diff) end
        if diff then
          report.mismatches[#report.mismatches + 1] = ("%s#%d%s: %s"):format(c.cf.name, c.cf._number,
            optimized and " (optimised)" or "", diff)
        end
        if both then report.failed_both_ways = report.failed_both_ways + 1 end
        report.steps = report.steps + (nsteps or 0)
      end
      report.compared = report.compared + 1
    end
  end
  return report
end

local function serialize(v)
  if type(v) == "table" then
    local parts = {}
    for k, x in pairs(v) do
      parts[#parts + 1] = (type(k) == "number" and "" or ("[%q] = "):format(k)) .. serialize(x)
    end
    return "{" .. table.concat(parts, ",\n") .. "}"
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
