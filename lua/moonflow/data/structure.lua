-- structure.lua — the element structure of tf.data (TF's data/util/
-- structure and nest): a dataset element is a nest of tensors, the core
-- sees its flat list of components. Lua lists are TF's tuples, tables
-- with string keys its dicts (keys sorted, as nest sorts them); a table
-- holding only Lua numbers, booleans or strings (at any depth) is one
-- tensor literal, as a Python list is. A structure records the nesting:
--   { kind = "tensor", index = i } | { kind = "tuple", items = {...} }
--   | { kind = "dict", keys = {sorted}, items = {key = s} }
--   | { kind = "dataset", index = i, structure = s, specs = specs }
-- and the specs list each component's { dtype =, shape = {dims, -1
-- unknown} | nil }. A dataset in an element (TF's DatasetSpec: what a
-- flat_map function returns, a window's elements) is one component, the
-- variant scalar holding it; its node keeps its own element structure.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local ops = require("moonflow.ops")
local shapes = require("moonflow.tensor.shape")
local variables = require("moonflow.tensor.variable")
local raise = errors.raise

local structure = {}

-- How datasets are told apart, taken apart and rebuilt: dataset.lua's
-- (it requires this module, so it registers them here).
local datasets = { is = function() return false end }

--- Registers dataset.lua's is(v), parts(ds) -> (variant, structure,
--- specs), wrap(variant, structure, specs) and spec(structure, specs).
function structure.register_dataset(hooks) datasets = hooks end

local function is_plain(v) return type(v) == "table" and getmetatable(v) == nil end

-- A table of Lua scalars only (nested lists of them): a tensor literal.
-- `open` holds the tables being looked at (a table inside itself is no literal).
local function is_literal(v, open)
  if not is_plain(v) then
    local t = type(v)
    return t == "number" or t == "boolean" or t == "string"
  end
  local n = #v
  if n == 0 then return next(v) == nil end
  open = open or {}
  if open[v] then return false end
  for k in pairs(v) do
    if math.type(k) ~= "integer" or k < 1 or k > n then return false end
  end
  open[v] = true
  for i = 1, n do
    if not is_literal(v[i], open) then
      open[v] = nil
      return false
    end
  end
  open[v] = nil
  return true
end

local function sorted_keys(t, n)
  local keys = {}
  for k in pairs(t) do
    if not (math.type(k) == "integer" and k >= 1 and k <= n) then keys[#keys + 1] = k end
  end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  return keys
end

--- Flattens a user value into (structure, flat tensors). `what` names the

--- The node of a plain non-empty table v whose items walk(item) makes: a
-- tuple when v is a list, else a dict over `keys` (default: v's keys in
-- the order of their text). Every walker of nests here shares it.
function structure.table_node(v, keys, walk)
  local n = #v
  if n > 0 then
    local items = {}
    for i = 1, n do items[i] = walk(v[i]) end
    return { kind = "tuple", items = items }
  end
  if not keys then
    keys = {}
    for k in pairs(v) do keys[#keys + 1] = k end
    table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  end
  local items = {}
  for _, k in ipairs(keys) do items[k] = walk(v[k]) end
  return { kind = "dict", keys = keys, items = items }
end

--- value in errors ("element", "the map function's result").
function structure.flatten(value, what, level)
  level = (level or 1) + 1
  local flat, open = {}, {}
  local function walk(v)
    if core.is_tensor(v) then
      flat[#flat + 1] = v
      return { kind = "tensor", index = #flat }
    end
    if datasets.is(v) then
      local variant, s, specs = datasets.parts(v)
      flat[#flat + 1] = variant
      return { kind = "dataset", index = #flat, structure = s, specs = specs }
    end
    if getmetatable(v) == variables.metatable then
      flat[#flat + 1] = v:read_value()
      return { kind = "tensor", index = #flat }
    end
    if is_literal(v) then
      flat[#flat + 1] = ops.constant(v)
      return { kind = "tensor", index = #flat }
    end
    if is_plain(v) and next(v) ~= nil then
      if open[v] then
        raise("TypeError", ("%s: a table contains itself"):format(what), level + 1)
      end
      open[v] = true
      local n = #v
      local keys = sorted_keys(v, n)
      if n > 0 and #keys > 0 then
        raise("TypeError", ("%s: a table is a tuple (a list) or a dict (string keys), not both")
          :format(what), level + 1)
      end
      local node = structure.table_node(v, keys, walk)
      open[v] = nil
      return node
    end
    raise("TypeError", ("%s: expected tensors, Lua numbers, booleans, strings or tables of them, "
      .. "got %s"):format(what, v == nil and "nil" or tostring(v)), level + 1)
  end
  local s = walk(value)
  return s, flat
end

--- Rebuilds the value of structure s from flat tensors.
function structure.pack(s, flat)
  if s.kind == "tensor" then return flat[s.index] end
  if s.kind == "dataset" then return datasets.wrap(flat[s.index], s.structure, s.specs) end
  local out = {}
  if s.kind == "tuple" then
    for i, item in ipairs(s.items) do out[i] = structure.pack(item, flat) end
  else
    for _, k in ipairs(s.keys) do out[k] = structure.pack(s.items[k], flat) end
  end
  return out
end

--- The values a function of the element is called with: a tuple's items
--- as separate arguments (TF unpacks tuples), anything else as one.
function structure.args(s, value)
  if s.kind == "tuple" then return table.unpack(value, 1, #s.items) end
  return value
end

--- The specs of flat tensors: {dtype=, shape=}.
function structure.specs_of(flat)
  local specs = {}
  for i, t in ipairs(flat) do
    local _, dtype, shape = core.info(t)
    specs[i] = { dtype = dtype, shape = shape }
  end
  return specs
end

local function tensor_spec(spec)
  local dims
  if spec.shape then
    dims = {}
    for i, d in ipairs(spec.shape) do dims[i] = d >= 0 and d or shapes.None end
  end
  return shapes.TensorSpec(dims, spec.dtype)
end

--- The element_spec value: the structure with a tf.TensorSpec per component.
function structure.element_spec(s, specs)
  if s.kind == "tensor" then return tensor_spec(specs[s.index]) end
  if s.kind == "dataset" then return datasets.spec(s.structure, s.specs) end
  local out = {}
  if s.kind == "tuple" then
    for i, item in ipairs(s.items) do out[i] = structure.element_spec(item, specs) end
  else
    for _, k in ipairs(s.keys) do out[k] = structure.element_spec(s.items[k], specs) end
  end
  return out
end

--- The element spec as Python prints it: TensorSpec(...), tuples in
--- parentheses ("(x,)" for one), dicts in braces with quoted keys.
function structure.spec_text(s, specs)
  if s.kind == "tensor" then return tostring(tensor_spec(specs[s.index])) end
  if s.kind == "dataset" then
    return ("DatasetSpec(%s, TensorShape([]))"):format(structure.spec_text(s.structure, s.specs))
  end
  local parts = {}
  if s.kind == "tuple" then
    for i, item in ipairs(s.items) do parts[i] = structure.spec_text(item, specs) end
    return "(" .. table.concat(parts, ", ") .. (#parts == 1 and ",)" or ")")
  end
  for i, k in ipairs(s.keys) do
    parts[i] = ("'%s': %s"):format(tostring(k), structure.spec_text(s.items[k], specs))
  end
  return "{" .. table.concat(parts, ", ") .. "}"
end

--- True when both structures nest alike (same kinds, lengths, keys).
function structure.same(a, b)
  if a.kind ~= b.kind then return false end
  if a.kind == "tensor" then return true end
  if a.kind == "dataset" then
    if not structure.same(a.structure, b.structure) or #a.specs ~= #b.specs then return false end
    for i, spec in ipairs(a.specs) do
      if spec.dtype ~= b.specs[i].dtype then return false end
    end
    return true
  end
  if a.kind == "tuple" then
    if #a.items ~= #b.items then return false end
    for i = 1, #a.items do
      if not structure.same(a.items[i], b.items[i]) then return false end
    end
    return true
  end
  if #a.keys ~= #b.keys then return false end
  for i, k in ipairs(a.keys) do
    if b.keys[i] ~= k or not structure.same(a.items[k], b.items[k]) then return false end
  end
  return true
end

--- Structure s with its component indices moved up by `offset` (zip).
function structure.shifted(s, offset)
  if s.kind == "tensor" then return { kind = "tensor", index = s.index + offset } end
  if s.kind == "dataset" then
    return { kind = "dataset", index = s.index + offset, structure = s.structure, specs = s.specs }
  end
  local items = {}
  for k, item in pairs(s.items) do items[k] = structure.shifted(item, offset) end
  return { kind = s.kind, keys = s.keys, items = items }
end

--- Counts the components of structure s.
function structure.count(s)
  if s.kind == "tensor" or s.kind == "dataset" then return 1 end
  local n = 0
  for _, item in pairs(s.items) do n = n + structure.count(item) end
  return n
end

--- A shape's text as TF's TensorShape prints it: "(None, 2)".
function structure.shape_text(shape)
  return tostring(shapes.TensorShape(shape and (function()
    local dims = {}
    for i, d in ipairs(shape) do dims[i] = d >= 0 and d or shapes.None end
    return dims
  end)() or nil))
end

return structure
