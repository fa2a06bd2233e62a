-- dtypes.lua — tf.float32 and friends. The dtype objects themselves are
-- made by the C binding (one per core dtype); this adds their Lua fields.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local doc = require("moonflow.doc")
local raise = errors.raise

local properties = {
  float32 = { is_floating = true, size = 4, min = -3.4028234663852886e38, max = 3.4028234663852886e38 },
  float64 = { is_floating = true, size = 8, min = -math.huge, max = math.huge },
  int32 = { is_integer = true, size = 4, min = -2147483648, max = 2147483647 },
  int64 = { is_integer = true, size = 8, min = math.mininteger, max = math.maxinteger },
  bool = { is_bool = true, size = 1 },
  string = { size = 0 },
  resource = { size = 8 },
}

local dtypes = {}

for _, dt in ipairs(core.dtypes) do
  local p = properties[dt.name] or {}
  dt.is_floating = p.is_floating or false
  dt.is_integer = p.is_integer or false
  dt.is_bool = p.is_bool or false
  dt.is_numeric = dt.is_floating or dt.is_integer
  dt.size = p.size
  dt.min = p.min
  dt.max = p.max
  dt.as_datatype_enum = dt._enum
  dtypes[dt.name] = dt
end
dtypes.double = dtypes.float64
dtypes.DType = core.dtype_metatable

--- tf.as_dtype(x): a dtype from a dtype or its name.
dtypes.as_dtype = doc.def(function(x)
  if getmetatable(x) == core.dtype_metatable then return x end
  local dt = type(x) == "string" and dtypes[x]
  if getmetatable(dt) ~= core.dtype_metatable then
    raise("TypeError", "Cannot convert " .. tostring(x) .. " to a dtype", 1)
  end
  return dt
end, "tf.as_dtype(x)", "The dtype x names: a dtype itself, or a name such as \"float32\".")

return dtypes
