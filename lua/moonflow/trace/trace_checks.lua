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

-- Why no earlier trace fit a call: which argument paths of the closest
-- earlier trace differ from this call's and how (`y: shape (3,) -> (4,)`).
-- The closest trace is the earlier one with the fewest differing paths,
-- the most recent on a tie; the search goes back from the most recent and
-- stops at a trace one path away (none can be closer), or after
-- SEARCH_LIMIT traces. Built only when asked for (trace_info, %trace,
-- explain_retracing, the frequent-retracing warning).
local SEARCH_LIMIT = 256
local LISTED = 3

local function shape_text(t) return tostring(t.spec and t.spec.shape or t.shape) end
local function dtype_name(t)
  local d = t.spec and t.spec.dtype or t.dtype
  return d.name or tostring(d)
end

-- A type in a difference: as TF prints it, a table in a word.
local function type_text(t)
  if t == nil then return "absent" end
  if t.kind == "table" then return "a table" end
  return tostring(t)
end

local function key_path(path, k)
  if type(k) == "string" then return ("%s[%q]"):format(path, k) end
  return ("%s[%s]"):format(path, tostring(k))
end

-- Appends to `out` each path under `path` where the call's type `new`
-- does not fit the trace's type `old`, with how they differ.
local function differences(old, new, path, out)
  if old ~= nil and new ~= nil and new:is_subtype_of(old) then return out end
  local what
  if old == nil or new == nil or old.kind ~= new.kind then
    what = type_text(old) .. " -> " .. type_text(new)
  elseif new.kind == "table" then
    local n = math.max(#old.array, #new.array)
    for i = 1, n do differences(old.array[i], new.array[i], ("%s[%d]"):format(path, i), out) end
    local keys, seen = {}, {}
    for _, k in ipairs(old.keys) do keys[#keys + 1], seen[k] = k, true end
    for _, k in ipairs(new.keys) do
      if not seen[k] then keys[#keys + 1] = k end
    end
    for _, k in ipairs(keys) do differences(old.map[k], new.map[k], key_path(path, k), out) end
    return out
  elseif new.kind == "tensor" or new.kind == "variable" then
    local parts = {}
    if dtype_name(old) ~= dtype_name(new) then
      parts[#parts + 1] = ("dtype %s -> %s"):format(dtype_name(old), dtype_name(new))
    end
    if shape_text(old) ~= shape_text(new) then
      parts[#parts + 1] = ("shape %s -> %s"):format(shape_text(old), shape_text(new))
    end
    if new.kind == "variable" and old.alias ~= new.alias then
      parts[#parts + 1] = ("alias_id %d -> %d"):format(old.alias, new.alias)
    end
    what = #parts > 0 and table.concat(parts, ", ") or (type_text(old) .. " -> " .. type_text(new))
  elseif new.kind == "object" then
    what = old:get() == nil and "the object traced with no longer exists"
      or ("a different object (%s -> %s)"):format(old.text, new.text)
  else
    what = type_text(old) .. " -> " .. type_text(new)
  end
  out[#out + 1] = path .. ": " .. what
  return out
end

local function differences_from(cf, names, types)
  local out = {}
  for i = 1, math.max(#types, #cf._types) do
    differences(cf._types[i], types[i], names[i] or cf._names[i], out)
  end
  return out
end

local function explain_now(names, types, pool, upto)
  if upto == 0 then return "first call" end
  local best, best_diffs
  for k = upto, math.max(1, upto - SEARCH_LIMIT + 1), -1 do
    local cf = pool[k]
    if cf then
      local diffs = differences_from(cf, names, types)
      if best == nil or #diffs < #best_diffs then best, best_diffs = cf, diffs end
      if #best_diffs <= 1 then break end
    end
  end
  if best == nil then return "no earlier trace" end
  local which = upto == 1 and ("trace #%d"):format(best._number)
    or ("closest earlier trace #%d (of %d)"):format(best._number, upto)
  if #best_diffs == 0 then
    -- It fits the types, but captured tensors of a trace no longer open.
    return which .. " fits, but it uses tensors of another trace that is no longer open"
  end
  local listed = table.concat(best_diffs, "; ", 1, math.min(#best_diffs, LISTED))
  if #best_diffs > LISTED then listed = listed .. ("; and %d more"):format(#best_diffs - LISTED) end
  return which .. " differs in " .. listed
end

--- The argument paths where concrete function `new`'s types differ from
-- `old`'s, each "path: how" (`y["hi"]: shape (3,) -> (4,)`): tf.debug.trace_diff.
function checks.signature_diff(old, new)
  return differences_from(old, new._names, new._types)
end

-- A reason computed on first use: {prefix, names, types, pool, upto}.
function checks.explain(names, types, pool, prefix)
  return { prefix = prefix, names = names, types = types, pool = pool, upto = #pool }
end

-- (tracing.lua may add a suffix after the text was first asked for.)
function checks.reason_text(r)
  if type(r) ~= "table" then return r end
  if not r.text then
    r.text = explain_now(r.names, r.types, r.pool, r.upto)
    r.names, r.types, r.pool = nil, nil, nil
  end
  return (r.prefix or "") .. r.text .. (r.suffix or "")
end

-- Library-internal (the other modules' view, not part of tf).
checks.internal = { internal = true }

return checks
