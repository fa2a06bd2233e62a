-- nest.lua — nested structures of values (TF's nest): what a traced
-- function returns and what control flow carries. flatten() lists the
-- tensors of a value and describes its shape; pack() puts tensors back in
-- that shape. Leaves: tensors, TensorArrays (their buffer), tf.Variables
-- (their value), Lua numbers, strings and booleans (constants); nil stays
-- nil; plain tables recurse (list part in order, other keys sorted).

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local ops = require("moonflow.ops")
local variables = require("moonflow.tensor.variable")
local raise = errors.raise

local nest = {}

local function flatten(v, flat)
  if core.is_tensor(v) then
    flat[#flat + 1] = v
    return { kind = "tensor", index = #flat }
  end
  local tv = type(v)
  if v == nil then return { kind = "nil" } end
  if tv == "number" or tv == "boolean" or tv == "string" then
    flat[#flat + 1] = ops.constant(v)
    return { kind = "tensor", index = #flat }
  end
  if tv == "table" then
    local mt = getmetatable(v)
    -- A TensorArray (ops/control.lua) names the function that rebuilds it.
    if mt ~= nil and mt.__tf_array ~= nil then
      flat[#flat + 1] = v._buf
      return { kind = "ta", index = #flat, dtype = v.dtype, dynamic = v.dynamic_size,
        element_shape = v.element_shape, new = mt.__tf_array.new }
    end
    -- A composite tensor (tf.RaggedTensor) is its component tensors.
    if mt ~= nil and mt.__tf_composite ~= nil then
      local parts = mt.__tf_composite.components(v)
      local first = #flat + 1
      for _, t in ipairs(parts) do flat[#flat + 1] = t end
      return { kind = "composite", first = first, n = #parts, rebuild = mt.__tf_composite.rebuild,
        spec_text = mt.__tf_composite.spec_text }
    end
    if mt == variables.metatable then
      flat[#flat + 1] = v:read_value()
      return { kind = "tensor", index = #flat }
    end
    if mt == nil then
      local s = { kind = "table", array = {}, map = {}, keys = {} }
      local n = #v
      for i = 1, n do s.array[i] = flatten(v[i], flat) end
      for k, x in pairs(v) do
        if not (math.type(k) == "integer" and k >= 1 and k <= n) then
          s.keys[#s.keys + 1] = k
          s.map[k] = flatten(x, flat)
        end
      end
      table.sort(s.keys, function(a, b) return tostring(a) < tostring(b) end)
      return s
    end
  end
  raise("TypeError", "expected tensors, tf.Variables, TensorArrays, Lua numbers, strings, "
    .. "booleans or tables of them; got " .. tostring(v))
end

local function pack(s, flat)
  if s.kind == "tensor" then return flat[s.index] end
  if s.kind == "ta" then return s.new(s.dtype, flat[s.index], s.dynamic, s.element_shape) end
  if s.kind == "nil" then return nil end
  if s.kind == "composite" then return s.rebuild(table.move(flat, s.first, s.first + s.n - 1, 1, {})) end
  local t = {}
  for i, x in ipairs(s.array) do t[i] = pack(x, flat) end
  for _, k in ipairs(s.keys) do t[k] = pack(s.map[k], flat) end
  return t
end

--- A structure node for v, appending its tensors to flat.
nest.flatten = flatten
--- The value a structure node describes, from the flat tensors.
nest.pack = pack

--- flatten for a list of values (a function's results): flat, structure.
function nest.flatten_values(values)
  local flat, structure = {}, { n = values.n or #values }
  for i = 1, structure.n do structure[i] = flatten(values[i], flat) end
  return flat, structure
end

--- The values a flatten_values structure describes (multiple results).
function nest.pack_values(structure, flat)
  local out = {}
  for i = 1, structure.n do out[i] = pack(structure[i], flat) end
  return table.unpack(out, 1, structure.n)
end

-- The order flatten and flatten_leaves visit a plain table in: its list
-- part 1..#v, then its other keys sorted (TF sorts a dict's keys).
local function other_keys(v, n)
  local keys = {}
  for k in pairs(v) do
    if not (math.type(k) == "integer" and k >= 1 and k <= n) then keys[#keys + 1] = k end
  end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  return keys
end

--- TF's nest.flatten over any leaves: the leaves of v in flatten's order,
-- as a list with its length in .n (a nil leaf, a hole in a list, keeps its
-- place), and a structure node for pack_leaves. A plain table (no
-- metatable) is a structure; anything else (a tensor, a tf.Variable, a
-- number, nil) is a leaf, for the caller to check. A table that contains
-- itself is a ValueError naming `what`, raised at `level` above the caller
-- (a table met twice without a cycle is fine).
function nest.flatten_leaves(v, what, level)
  local flat, path, cyclic = { n = 0 }, {}, false
  local function walk(x)
    if type(x) ~= "table" or getmetatable(x) ~= nil then
      flat.n = flat.n + 1
      flat[flat.n] = x
      return { kind = "leaf", index = flat.n }
    end
    if path[x] then
      cyclic = true
      return { kind = "leaf", index = 0 }
    end
    path[x] = true
    local s = { kind = "table", array = {}, map = {}, keys = {} }
    local n = #x
    for i = 1, n do s.array[i] = walk(x[i]) end
    s.keys = other_keys(x, n)
    for _, k in ipairs(s.keys) do s.map[k] = walk(x[k]) end
    path[x] = nil
    return s
  end
  local structure = walk(v)
  if cyclic then raise("ValueError", what .. ": the table contains itself (a cycle)", (level or 1) + 1) end
  return flat, structure
end

--- The value a flatten_leaves structure describes, its leaves taken from
-- flat by position (TF's nest.pack_sequence_as).
function nest.pack_leaves(s, flat)
  if s.kind == "leaf" then return flat[s.index] end
  local t = {}
  for i, x in ipairs(s.array) do t[i] = nest.pack_leaves(x, flat) end
  for _, k in ipairs(s.keys) do t[k] = nest.pack_leaves(s.map[k], flat) end
  return t
end

--- Whether a flatten_leaves structure is a flat list (or a single leaf):
-- no keys and no nesting.
function nest.is_flat(s)
  if s.kind == "leaf" then return true end
  if #s.keys > 0 then return false end
  for _, x in ipairs(s.array) do
    if x.kind ~= "leaf" then return false end
  end
  return true
end

function nest.same_structure(a, b)
  if a.kind ~= b.kind then return false end
  if a.kind ~= "table" then return true end
  if #a.array ~= #b.array or #a.keys ~= #b.keys then return false end
  for i = 1, #a.array do
    if not nest.same_structure(a.array[i], b.array[i]) then return false end
  end
  for i, k in ipairs(a.keys) do
    if b.keys[i] ~= k or not nest.same_structure(a.map[k], b.map[k]) then return false end
  end
  return true
end

return nest
