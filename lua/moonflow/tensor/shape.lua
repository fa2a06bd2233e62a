-- shape.lua — tf.TensorShape and tf.TensorSpec. A shape is a list of
-- dimensions (integers, or tf.None when unknown) or an unknown rank.
-- Positions inside a shape are 0-based like every position in a tensor:
-- x.shape[0] is the first dimension.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local doc = require("moonflow.doc")
local dtypes = require("moonflow.tensor.dtypes")
local receiver = require("moonflow.receiver")
local raise = errors.raise

local None = core.None

local shapes = {}

shapes.None = None
shapes.newaxis = None

local TensorShape = { __name = "TensorShape" }
local methods = {}
receiver.metatable(TensorShape, "shape", methods)

local function new_shape(dims)
  -- dims: a Lua list (integers or tf.None / negative = unknown), nil = unknown rank
  local s = { _dims = nil }
  if dims ~= nil and (type(dims) ~= "table" or getmetatable(dims) ~= nil) then
    raise("TypeError", "a TensorShape needs a list of dimensions or nil, got "
      .. tostring(dims), 2)
  end
  if dims ~= nil then
    local d = {}
    for i = 1, #dims do
      local v = dims[i]
      if v == None or v == nil or (math.type(v) == "integer" and v < 0) then
        d[i] = None
      elseif math.type(v) == "integer" or (type(v) == "number" and v == math.floor(v)) then
        d[i] = math.tointeger(v)
      else
        raise("TypeError", "a dimension must be an integer or tf.None, got " .. tostring(v), 2)
      end
    end
    s._dims = d
  end
  return setmetatable(s, TensorShape)
end

local function as_shape(x)
  if getmetatable(x) == TensorShape then return x end
  if x == nil then return new_shape(nil) end
  if type(x) == "table" then return new_shape(x) end
  if math.type(x) == "integer" then return new_shape({ x }) end
  raise("TypeError", "cannot make a TensorShape from " .. tostring(x), 2)
end

local function rank_of(s) return s._dims and #s._dims or nil end

TensorShape.__index = receiver.index(TensorShape, "shape", {
  methods = { methods },
  fields = { rank = rank_of, ndims = rank_of, dims = function(s) return s._dims end },
  -- s[i]: a dimension (negative from the end)
  other = function(s, k)
    if math.type(k) ~= "integer" then return nil end
    local d = s._dims
    if d == nil then
      raise("ValueError", "Cannot index a shape of unknown rank", 2)
    end
    local i = k < 0 and #d + k or k
    if i < 0 or i >= #d then
      raise("OutOfRangeError", ("index %d is out of range for a shape of rank %d"):format(k, #d), 2)
    end
    return d[i + 1]
  end,
})

function TensorShape.__newindex()
  raise("TypeError", "TensorShape is immutable", 1)
end

function TensorShape.__tostring(s)
  local d = s._dims
  if d == nil then return "<unknown>" end
  local parts = {}
  for i = 1, #d do parts[i] = tostring(d[i]) end
  if #d == 1 then return "(" .. parts[1] .. ",)" end
  return "(" .. table.concat(parts, ", ") .. ")"
end

-- A fully known shape converts to a tensor wherever one is expected
-- (tf.zeros(x.shape), tf.reduce_prod(x.shape)), as TF's
-- _tensor_shape_tensor_conversion_function: int32, or int64 when a
-- dimension does not fit; a partly known one is a ValueError.
TensorShape.__tf_tensor = function(s, dtype)
  local d = s._dims
  local known = d ~= nil
  for i = 1, known and #d or 0 do
    if d[i] == None then known = false end
  end
  if not known then
    raise("ValueError", ("Cannot convert a partially known TensorShape %s to a Tensor."):format(tostring(s)), 3)
  end
  if dtype ~= nil then
    dtype = dtypes.as_dtype(dtype)
    if dtype ~= dtypes.int32 and dtype ~= dtypes.int64 then
      raise("TypeError", "Cannot convert a TensorShape to dtype: " .. dtype.name, 3)
    end
  else
    dtype = dtypes.int32
    for i = 1, #d do
      if d[i] > dtypes.int32.max then dtype = dtypes.int64 end
    end
  end
  local dims = {}
  for i = 1, #d do dims[i] = d[i] end
  return core.convert(dims, dtype)
end

function TensorShape.__len(s)
  if s._dims == nil then
    raise("ValueError", "Cannot take the length of a shape with unknown rank.", 1)
  end
  return #s._dims
end

function TensorShape.__eq(a, b)
  if a._dims == nil or b._dims == nil then return a._dims == b._dims end
  if #a._dims ~= #b._dims then return false end
  for i = 1, #a._dims do
    if a._dims[i] ~= b._dims[i] then return false end
  end
  return true
end

function TensorShape.__repr(s)
  if s._dims == nil then return "TensorShape(None)" end
  local parts = {}
  for i = 1, #s._dims do parts[i] = tostring(s._dims[i]) end
  return "TensorShape([" .. table.concat(parts, ", ") .. "])"
end

--- The dimensions as a 1-based Lua list (tf.None for unknown ones).
methods.as_list = doc.def(function(s)
  if s._dims == nil then
    raise("ValueError", "as_list() is not defined on an unknown TensorShape.", 1)
  end
  return table.move(s._dims, 1, #s._dims, 1, {})
end, "shape:as_list()", "The dimensions as a Lua list; unknown dimensions are tf.None.")

methods.is_fully_defined = doc.def(function(s)
  if s._dims == nil then return false end
  for _, v in ipairs(s._dims) do
    if v == None then return false end
  end
  return true
end, "shape:is_fully_defined()", "True when the rank and every dimension are known.")

methods.num_elements = doc.def(function(s)
  if not methods.is_fully_defined(s) then return nil end
  local n = 1
  for _, v in ipairs(s._dims) do n = n * v end
  return n
end, "shape:num_elements()", "The number of elements, or nil when not fully defined.")

--- True when every dimension of `other` agrees with this one (unknowns agree with anything).
methods.is_compatible_with = doc.def(function(s, other)
  other = as_shape(other)
  if s._dims == nil or other._dims == nil then return true end
  if #s._dims ~= #other._dims then return false end
  for i = 1, #s._dims do
    local a, b = s._dims[i], other._dims[i]
    if a ~= None and b ~= None and a ~= b then return false end
  end
  return true
end, "shape:is_compatible_with(other)", "True when the two shapes could describe the same tensor.")

--- True when this shape is at least as specific as `other` and fits it:
--- (2, 3) is a subtype of (None, 3) and of <unknown>.
methods.is_subtype_of = doc.def(function(s, other)
  other = as_shape(other)
  if other._dims == nil then return true end
  if s._dims == nil or #s._dims ~= #other._dims then return false end
  for i = 1, #s._dims do
    local a, b = s._dims[i], other._dims[i]
    if b ~= None and a ~= b then return false end
  end
  return true
end, "shape:is_subtype_of(other)", "True when every tensor of this shape also has shape `other`.")

--- The most specific shape both this and `other` are subtypes of:
--- (3,) and (5,) -> (None,); ranks differ -> <unknown>.
methods.most_specific_common_supertype = doc.def(function(s, other)
  other = as_shape(other)
  if s._dims == nil or other._dims == nil or #s._dims ~= #other._dims then
    return new_shape(nil)
  end
  local d = {}
  for i = 1, #s._dims do
    local a, b = s._dims[i], other._dims[i]
    d[i] = a == b and a or None
  end
  return new_shape(d)
end, "shape:most_specific_common_supertype(other)",
"The most specific shape that both shapes fit: differing dimensions become None, differing ranks an unknown rank.")

shapes.TensorShape = doc.def(function(dims) return new_shape(dims) end,
  "tf.TensorShape(dims)", "A shape: a list of dimensions (integers or tf.None), or nil for an unknown rank.")
shapes.Shape = TensorShape
shapes.as_shape = as_shape

-- TensorSpec ------------------------------------------------------------

local TensorSpec = { __name = "TensorSpec" }
receiver.metatable(TensorSpec, "spec")
TensorSpec.__index = TensorSpec

local function spec_shape_text(spec)
  return tostring(spec.shape)
end

function TensorSpec.__tostring(spec)
  return ("TensorSpec(shape=%s, dtype=%s, name=%s)"):format(
    spec_shape_text(spec), tostring(spec.dtype),
    spec.name and ("'" .. spec.name .. "'") or "None")
end

function TensorSpec.__eq(a, b)
  return a.dtype == b.dtype and a.shape == b.shape and a.name == b.name
end

--- True when a tensor or spec `x` fits this spec.
function TensorSpec.is_compatible_with(spec, x)
  local dtype, shape
  local mt = getmetatable(x)
  if mt ~= TensorSpec and not core.is_tensor(x) and not (type(mt) == "table" and rawget(mt, "__tf_tensor")) then
    raise("TypeError", "TensorSpec.is_compatible_with expects a TensorSpec, a tensor or a tf.Variable, got "
      .. tostring(x), 2)
  end
  if getmetatable(x) == TensorSpec then
    dtype, shape = x.dtype, x.shape
  else
    dtype, shape = x.dtype, x.shape
  end
  return dtype == spec.dtype and spec.shape:is_compatible_with(shape)
end

function TensorSpec.is_subtype_of(spec, other)
  if getmetatable(other) ~= TensorSpec then return false end -- TF: a different type is never a subtype
  return spec.dtype == other.dtype and spec.shape:is_subtype_of(other.shape)
end

function TensorSpec.most_specific_common_supertype(spec, other)
  if getmetatable(other) ~= TensorSpec or spec.dtype ~= other.dtype then return nil end
  local s = setmetatable({ shape = spec.shape:most_specific_common_supertype(other.shape),
    dtype = spec.dtype, name = spec.name == other.name and spec.name or nil }, TensorSpec)
  return s
end

shapes.TensorSpec = doc.def(function(shape, dtype, name)
  if name ~= nil and type(name) ~= "string" then
    raise("TypeError", "tf.TensorSpec: name must be a string, got a " .. type(name), 1)
  end
  local dt = dtype and dtypes.as_dtype(dtype) or dtypes.float32
  if type(shape) == "table" and getmetatable(shape) == nil then
    for i = 1, #shape do
      local v = shape[i]
      if v ~= None and math.type(v) ~= "integer" then
        raise("TypeError", "TensorSpec shape entries must be integers or tf.None", 1)
      end
    end
  end
  return setmetatable({ shape = as_shape(shape), dtype = dt, name = name }, TensorSpec)
end, "tf.TensorSpec(shape, dtype [, name])",
"Describes a tensor: its shape (dimensions may be tf.None; nil shape = unknown rank) and dtype. "
.. "Used in input_signature and get_concrete_function.")
shapes.Spec = TensorSpec

--- The shape of tensor x as a Lua list, -1 for a dimension that is not
-- known, or nil when its rank is unknown (the one reader of core.info's
-- shape; the ops' and gradients' own copies should call it).
function shapes.of(x)
  local _, _, shape = core.info(x)
  return shape
end

--- The static shape of tensor x as a Lua list, or nil when its rank or a
-- dimension is unknown.
function shapes.static(x)
  local shape = shapes.of(x)
  if not shape then return nil end
  for _, d in ipairs(shape) do if d < 0 then return nil end end
  return shape
end

--- The rank of tensor x, or nil when it is unknown or x is not a tensor.
function shapes.rank(x)
  if not core.is_tensor(x) then return nil end
  local shape = shapes.of(x)
  return shape and #shape or nil
end

--- The number of elements of a static shape (a Lua list).
function shapes.num_elements(shape)
  local c = 1
  for _, d in ipairs(shape) do c = c * d end
  return c
end

-- Library-internal (the other modules' view, not part of tf).
shapes.internal = { Shape = true, Spec = true, as_shape = true, of = true, static = true, rank = true, num_elements = true,
  internal = true }

return shapes
