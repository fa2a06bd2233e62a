-- trace_type.lua — TF's TraceType for Lua values. A tf.func computes the
-- type of each argument, finds the most specific traced concrete function
-- whose parameter types are supertypes of them, and traces a new one when
-- none is. Every type answers:
--   is_subtype_of(other)     dispatch ("does this call fit that trace?")
--   supertype(other)         most specific common supertype, or nil (reduce_retracing)
--   tostring                 as TF prints it (TensorSpec(...), Literal[2], ...)
--   placeholder(name, trace) the value the Lua function receives while tracing
--   feeds(value, out)        the tensors a call feeds to the graph for this parameter
--
-- Tensor -> TensorSpec (dtype + shape); tf.Variable -> VariableSpec (dtype,
-- shape, alias position); Lua number/string/boolean/nil -> Literal[value];
-- plain table -> its structure; __tf_tracing_type(self) -> the value it
-- returns, compared with ==; __tf_trace_type(self) -> the type it makes
-- (a tf.data.Dataset's DatasetSpec); anything else -> its identity, held
-- weakly.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local ops = require("moonflow.ops")
local variables = require("moonflow.tensor.variable")
local raise = errors.raise

local T = {}

local function lit_text(v)
  if type(v) == "string" then return ("'%s'"):format(v) end
  if v == nil then return "None" end
  return tostring(v)
end

-- Tensor ---------------------------------------------------------------
local Tensor = { kind = "tensor" }
Tensor.__index = Tensor
function Tensor.new(spec) return setmetatable({ spec = spec }, Tensor) end
function Tensor:is_subtype_of(o) return o.kind == "tensor" and self.spec:is_subtype_of(o.spec) end
function Tensor:supertype(o)
  if o.kind ~= "tensor" or self.spec.dtype ~= o.spec.dtype then return nil end
  return Tensor.new(self.spec:most_specific_common_supertype(o.spec))
end
function Tensor:__tostring() return tostring(self.spec) end
function Tensor:placeholder(name)
  return core.placeholder(name, self.spec.dtype, self.spec.shape._dims)
end
function Tensor:feeds(v, out)
  out[#out + 1] = core.is_tensor(v) and v or ops.to_tensor(v, self.spec.dtype)
end
function Tensor:accepts(v)
  -- get_concrete_function passes TensorSpecs for tensors of that spec.
  if getmetatable(v) == shapes.Spec then
    if v.dtype == self.spec.dtype and self.spec.shape:is_compatible_with(v.shape) then return true end
    return false, tostring(v)
  end
  if not core.is_tensor(v) then
    local mt = getmetatable(v)
    if mt and mt.__tf_tensor then
      v = mt.__tf_tensor(v)
    else
      -- A Lua value converts when it fits the spec's dtype.
      local ok, t = pcall(core.convert, v, self.spec.dtype)
      if not ok then return false, lit_text(v) end
      v = t
    end
  end
  if core.spec_matches(v, self.spec.dtype, self.spec.shape._dims, "compatible") then
    return true
  end
  local _, dtype, shape = core.info(v)
  return false, tostring(shapes.TensorSpec(shape, dtype))
end
T.Tensor = Tensor

-- Variable -------------------------------------------------------------
local Var = { kind = "variable" }
Var.__index = Var
function Var.new(v, alias)
  return setmetatable({ dtype = v.dtype, shape = v.shape, trainable = v.trainable, alias = alias,
    example = v }, Var)
end
function Var:is_subtype_of(o)
  return o.kind == "variable" and o.dtype == self.dtype and self.shape:is_subtype_of(o.shape)
    and o.alias == self.alias
end
function Var:supertype(o)
  if o.kind ~= "variable" or o.dtype ~= self.dtype or o.alias ~= self.alias then return nil end
  local s = Var.new(self.example, self.alias)
  s.shape = self.shape:most_specific_common_supertype(o.shape)
  return s
end
function Var:__tostring()
  -- TF prints the spec's Python repr: trainable=True, not Lua's true.
  return ("VariableSpec(shape=%s, dtype=%s, trainable=%s, alias_id=%d)"):format(
    tostring(self.shape), tostring(self.dtype), self.trainable and "True" or "False", self.alias)
end
function Var:placeholder(name)
  local handle = core.placeholder(name, dtypes.resource, {}, self.example.handle)
  return variables.proxy(self.example, handle)
end
function Var:feeds(v, out) out[#out + 1] = v.handle end
function Var:accepts(v)
  if variables.is_variable(v) and v.dtype == self.dtype and self.shape:is_compatible_with(v.shape) then
    return true
  end
  return false, tostring(v)
end
T.Variable = Var

-- Literal ----------------------------------------------------------------
local Literal = { kind = "literal" }
Literal.__index = Literal
function Literal.new(v) return setmetatable({ value = v }, Literal) end
function Literal:is_subtype_of(o) return o.kind == "literal" and o.value == self.value end
function Literal:supertype(o)
  if self:is_subtype_of(o) then return self end
  return nil
end
function Literal:__tostring() return "Literal[" .. lit_text(self.value) .. "]" end
function Literal:placeholder() return self.value end
function Literal:feeds() end
function Literal:accepts(v)
  if v == self.value then return true end
  return false, lit_text(v)
end
T.Literal = Literal

-- Object identity (held weakly) -------------------------------------------
local Object = { kind = "object" }
Object.__index = Object
function Object.new(v) return setmetatable({ ref = setmetatable({ v }, { __mode = "v" }),
  text = tostring(v) }, Object) end
function Object:get() return self.ref[1] end
function Object:is_subtype_of(o)
  return o.kind == "object" and self:get() ~= nil and rawequal(self:get(), o:get())
end
function Object:supertype(o)
  if self:is_subtype_of(o) then return self end
  return nil
end
function Object:__tostring() return "Object[" .. self.text .. "]" end
function Object:placeholder() return self:get() end
function Object:feeds() end
function Object:accepts(v)
  if rawequal(v, self:get()) then return true end
  return false, tostring(v)
end
T.Object = Object

-- __tf_tracing_type ---------------------------------------------------------
local Custom = { kind = "custom" }
Custom.__index = Custom
function Custom.new(v, value) return setmetatable({ value = value,
  ref = setmetatable({ v }, { __mode = "v" }) }, Custom) end
function Custom:is_subtype_of(o) return o.kind == "custom" and o.value == self.value end
function Custom:supertype(o)
  if self:is_subtype_of(o) then return self end
  return nil
end
function Custom:__tostring() return "Custom[" .. tostring(self.value) .. "]" end
function Custom:placeholder(_, _, arg) return arg end
function Custom:feeds() end
function Custom:accepts(v)
  local mt = getmetatable(v)
  if mt and mt.__tf_tracing_type and mt.__tf_tracing_type(v) == self.value then return true end
  return false, tostring(v)
end
T.Custom = Custom

-- Structures (plain tables) -------------------------------------------------
local Struct = { kind = "table" }
Struct.__index = Struct
function Struct.new(array, map, keys)
  return setmetatable({ array = array, map = map, keys = keys }, Struct)
end
local function same_shape(a, b)
  if b.kind ~= "table" or #a.array ~= #b.array or #a.keys ~= #b.keys then return false end
  for i, k in ipairs(a.keys) do
    if b.keys[i] ~= k then return false end
  end
  return true
end
function Struct:is_subtype_of(o)
  if not same_shape(self, o) then return false end
  for i, t in ipairs(self.array) do
    if not t:is_subtype_of(o.array[i]) then return false end
  end
  for _, k in ipairs(self.keys) do
    if not self.map[k]:is_subtype_of(o.map[k]) then return false end
  end
  return true
end
function Struct:supertype(o)
  if not same_shape(self, o) then return nil end
  local array, map = {}, {}
  for i, t in ipairs(self.array) do
    array[i] = t:supertype(o.array[i])
    if not array[i] then return nil end
  end
  for _, k in ipairs(self.keys) do
    map[k] = self.map[k]:supertype(o.map[k])
    if not map[k] then return nil end
  end
  return Struct.new(array, map, self.keys)
end
function Struct:__tostring()
  local parts = {}
  for i, t in ipairs(self.array) do parts[i] = tostring(t) end
  if #self.keys == 0 then return "List[" .. table.concat(parts, ", ") .. "]" end
  for _, k in ipairs(self.keys) do parts[#parts + 1] = ("['%s', %s]"):format(k, tostring(self.map[k])) end
  if #self.array == 0 then return "Dict[" .. table.concat(parts, ", ") .. "]" end
  return "Table[" .. table.concat(parts, ", ") .. "]"
end
function Struct:placeholder(name, trace, arg)
  local out = {}
  for i, t in ipairs(self.array) do out[i] = t:placeholder(name .. "_" .. i, trace, arg and arg[i]) end
  for _, k in ipairs(self.keys) do out[k] = self.map[k]:placeholder(name .. "_" .. k, trace, arg and arg[k]) end
  return out
end
function Struct:feeds(v, out)
  for i, t in ipairs(self.array) do t:feeds(v[i], out) end
  for _, k in ipairs(self.keys) do self.map[k]:feeds(v[k], out) end
end
function Struct:accepts(v)
  if type(v) ~= "table" or getmetatable(v) ~= nil then return false, tostring(v) end
  for i, t in ipairs(self.array) do
    local ok, got = t:accepts(v[i])
    if not ok then return false, got end
  end
  for _, k in ipairs(self.keys) do
    local ok, got = self.map[k]:accepts(v[k])
    if not ok then return false, got end
  end
  return true
end
T.Struct = Struct

-- Typing values ---------------------------------------------------------------

-- A table's non-list keys in a fixed order: numbers first (numerically),
-- then strings, then any other key by its text (TF's nest sorts a dict's
-- keys). The keys stay themselves, so {[6] = x} is read back as v[6].
local function key_before(a, b)
  local ta, tb = type(a), type(b)
  if ta ~= tb then
    if ta == "number" or tb == "number" then return ta == "number" end
    if ta == "string" or tb == "string" then return ta == "string" end
    return tostring(a) < tostring(b)
  end
  if ta == "number" or ta == "string" then return a < b end
  return tostring(a) < tostring(b)
end

local function map_keys(v, n)
  local keys = {}
  for k in pairs(v) do
    if not (math.type(k) == "integer" and k >= 1 and k <= n) then keys[#keys + 1] = k end
  end
  table.sort(keys, key_before)
  return keys
end
T.map_keys = map_keys

local function key_path(path, k)
  if type(k) == "string" and k:match("^[%a_][%w_]*$") then return path .. "." .. k end
  if type(k) == "string" then return ("%s[%q]"):format(path, k) end
  return ("%s[%s]"):format(path, tostring(k))
end

local type_of

-- A plain table's type. `aliases.open` holds the tables being typed (with
-- their path), so a table that contains itself is a TypeError naming the
-- cycle instead of a C stack overflow.
local function table_type(v, aliases, path)
  local open = aliases.open
  if open[v] then
    raise("TypeError", ("a tf.func argument cannot contain itself: %s refers back to %s "
      .. "(a self-referencing table, such as _G, has no trace type)"):format(path, open[v]))
  end
  open[v] = path
  local array, map = {}, {}
  local n = #v
  for i = 1, n do array[i] = type_of(v[i], aliases, ("%s[%d]"):format(path, i)) end
  local keys = map_keys(v, n)
  for _, k in ipairs(keys) do map[k] = type_of(v[k], aliases, key_path(path, k)) end
  open[v] = nil
  return Struct.new(array, map, keys)
end

-- `aliases` maps variable id -> alias position within one call.
function type_of(v, aliases, path)
  local tv = type(v)
  if tv == "userdata" and core.is_tensor(v) then
    local _, dtype, shape = core.info(v)
    return Tensor.new(shapes.TensorSpec(shape, dtype))
  end
  if tv == "number" or tv == "string" or tv == "boolean" or tv == "nil" then
    return Literal.new(v)
  end
  if tv == "table" then
    local mt = getmetatable(v)
    if mt == variables.metatable then
      local alias = aliases[v.id]
      if not alias then
        aliases.n = aliases.n + 1
        alias = aliases.n
        aliases[v.id] = alias
      end
      return Var.new(v, alias - 1)
    end
    if mt and mt.__tf_tracing_type then return Custom.new(v, mt.__tf_tracing_type(v)) end
    -- A type of the object's own making, with this file's interface
    -- (tf.data's DatasetSpec: data/spec.lua).
    if mt and mt.__tf_trace_type then return mt.__tf_trace_type(v) end
    if mt == nil then return table_type(v, aliases, path) end
  end
  return Object.new(v)
end

--- The trace types of a call's arguments.
function T.of_args(args, n)
  local aliases = { n = 0, open = {} }
  local types = {}
  for i = 1, n do types[i] = type_of(args[i], aliases, "argument " .. i) end
  return types
end

--- A type from an input_signature entry (TensorSpec or nested table of them).
function T.from_spec(s)
  if getmetatable(s) == shapes.Spec then return Tensor.new(s) end
  -- A composite's spec that is its own trace type (tf.RaggedTensorSpec).
  local mt = getmetatable(s)
  if type(mt) == "table" and rawget(mt, "__tf_type_spec") then return s end
  if type(s) == "table" and getmetatable(s) == nil then
    local array, map = {}, {}
    local n = #s
    for i = 1, n do array[i] = T.from_spec(s[i]) end
    local keys = map_keys(s, n)
    for _, k in ipairs(keys) do map[k] = T.from_spec(s[k]) end
    return Struct.new(array, map, keys)
  end
  raise("TypeError", "input_signature entries must be tf.TensorSpec or tf.RaggedTensorSpec (or tables of "
    .. "them), got " .. tostring(s))
end

-- A get_concrete_function argument's type: TensorSpecs, at any depth of
-- plain tables, stand for tensors of that spec.
local function concrete_type(a, aliases, path)
  if getmetatable(a) == shapes.Spec then return Tensor.new(a) end
  if type(a) ~= "table" or getmetatable(a) ~= nil then return type_of(a, aliases, path) end
  if aliases.open[a] then return type_of(a, aliases, path) end
  aliases.open[a] = path
  local array, map = {}, {}
  local n = #a
  for i = 1, n do array[i] = concrete_type(a[i], aliases, ("%s[%d]"):format(path, i)) end
  local keys = map_keys(a, n)
  for _, k in ipairs(keys) do map[k] = concrete_type(a[k], aliases, key_path(path, k)) end
  aliases.open[a] = nil
  return Struct.new(array, map, keys)
end

--- For get_concrete_function: TensorSpecs stand for tensors of that spec.
function T.of_concrete_args(args, n)
  local aliases = { n = 0, open = {} }
  local types = {}
  for i = 1, n do
    types[i] = concrete_type(args[i], aliases, "argument " .. i)
  end
  return types
end

function T.all_subtypes(types, of)
  if #types ~= #of then return false end
  for i = 1, #types do
    if not types[i]:is_subtype_of(of[i]) then return false end
  end
  return true
end

return T
