-- trace_checks.lua — what tf.func checks and explains around a trace:
-- tables passed as arguments that the function changed (TF's ValueError),
-- variable initial values computed from the arguments (lifted out of the
-- first trace, as TF does), and why no earlier trace fitted a call.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local raise = errors.raise

local checks = {}

-- The plain tables a trace's arguments are made of, each with its
-- contents, to find the ones the function changed (TF refuses that: the
-- trace would not match what later calls see).
function checks.snapshot(v, out)
  if type(v) ~= "table" or getmetatable(v) ~= nil or out[v] then return out end
  local copy = {}
  for k, x in pairs(v) do copy[k] = x end
  out[v] = copy
  for _, x in pairs(v) do checks.snapshot(x, out) end
  return out
end

local function modified(snap)
  for t, copy in pairs(snap) do
    for k, x in pairs(copy) do
      if not rawequal(rawget(t, k), x) then return true end
    end
    for k in pairs(t) do
      if copy[k] == nil then return true end
    end
  end
  return false
end

function checks.inputs_unmodified(fname, names, snaps)
  local changed = {}
  for i, snap in pairs(snaps) do
    if modified(snap) then changed[#changed + 1] = names[i] end
  end
  if #changed > 0 then
    table.sort(changed)
    raise("ValueError", ("%s() should not modify its Lua input arguments. Check if it modifies any "
      .. "tables or dicts passed as arguments. Modifying a copy is allowed. The following "
      .. "parameter(s) were modified: %s"):format(fname, table.concat(changed, ", ")), 0)
  end
end

-- TF lifts a variable's initial value out of the first trace even when it
-- is computed from the arguments (tf.Variable(2.0 * x)): here the value's
-- ops are run again eagerly on this call's arguments. Returns nil when the
-- value depends on anything else (captures, state, nested graphs).
function checks.lifter(types, targs, args)
  return function(sym)
    if not args then return nil end
    local nodes = core.graph_nodes(core.current_graph())
    local by_name, known = {}, {}
    for _, n in ipairs(nodes) do by_name[n.name] = n end
    for i, t in ipairs(types) do
      local a = args[i]
      if t.kind == "tensor" and core.is_tensor(targs[i]) and core.is_tensor(a) and not core.is_symbolic(a) then
        known[select(4, core.info(targs[i]))] = a
      end
    end
    local function eval(ref)
      if known[ref] then return known[ref] end
      local name = ref:match("^(.*):%d+$")
      local n = by_name[name]
      if not n or n.stateful or n.type == "Placeholder" or #n.control > 0 then error("not liftable", 0) end
      for _, v in pairs(n.attrs) do
        if type(v) == "userdata" and not core.is_tensor(v) then error("not liftable", 0) end
      end
      local ins = {}
      for k, r in ipairs(n.inputs) do ins[k] = eval(r) end
      local outs = table.pack(core.op(state.H[n.type], n.attrs, table.unpack(ins, 1, #n.inputs)))
      for k = 1, outs.n do known[name .. ":" .. (k - 1)] = outs[k] end
      if known[ref] == nil then error("not liftable", 0) end
      return known[ref]
    end
    local ok, v = pcall(eval, select(4, core.info(sym)))
    if ok and core.is_tensor(v) and not core.is_symbolic(v) then return v end
    return nil
  end
end

-- Why no earlier trace fit a call. Built only when asked for (trace_info,
-- %trace, explain_retracing), from at most the EXPLAIN_LIMIT latest traces
-- that existed when the call retraced: storing a text listing every
-- earlier trace with each retrace grew as n^2.
local EXPLAIN_LIMIT = 8

local function explain_now(names, types, pool, upto)
  if upto == 0 then return "first call" end
  local lines = {}
  local first = math.max(1, upto - EXPLAIN_LIMIT + 1)
  if first > 1 then lines[1] = ("%d earlier traces not listed"):format(first - 1) end
  for k = first, upto do
    local cf = pool[k]
    local why
    if cf == nil then
      why = "cleared"
    elseif #cf._types ~= #types then
      why = ("it takes %d parameters, this call has %d"):format(#cf._types, #types)
    else
      for i = 1, #types do
        if not types[i]:is_subtype_of(cf._types[i]) then
          why = ("parameter %s is %s, the trace expects %s (%s)"):format(names[i],
            tostring(types[i]), tostring(cf._types[i]), types[i]:why_not(cf._types[i]))
          break
        end
      end
    end
    lines[#lines + 1] = ("trace #%d: %s"):format(cf and cf._number or k, why or "?")
  end
  return "no existing trace fits: " .. table.concat(lines, "; ")
end

-- A reason computed on first use: {prefix, names, types, pool, upto}.
function checks.explain(names, types, pool, prefix)
  return { prefix = prefix, names = names, types = types, pool = pool, upto = #pool }
end

function checks.reason_text(r)
  if type(r) ~= "table" then return r end
  if not r.text then
    local text = explain_now(r.names, r.types, r.pool, r.upto)
    r.text = (r.prefix or "") .. text .. (r.suffix or "")
    r.names, r.types, r.pool = nil, nil, nil
  end
  return r.text
end

-- Library-internal (the other modules' view, not part of tf).
checks.internal = { internal = true }

return checks
