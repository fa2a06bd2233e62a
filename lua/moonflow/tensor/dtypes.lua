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
  float16 = { is_floating = true, size = 2, min = -65504.0, max = 65504.0 },
  bfloat16 = { is_floating = true, size = 2, min = -3.3895313892515355e38, max = 3.3895313892515355e38 },
  int8 = { is_integer = true, size = 1, min = -128, max = 127 },
  int16 = { is_integer = true, size = 2, min = -32768, max = 32767 },
  uint8 = { is_integer = true, is_unsigned = true, size = 1, min = 0, max = 255 },
  uint16 = { is_integer = true, is_unsigned = true, size = 2, min = 0, max = 65535 },
  uint32 = { is_integer = true, is_unsigned = true, size = 4, min = 0, max = 4294967295 },
  -- 2^64 - 1 is past Lua's integers: the nearest float stands for it.
  uint64 = { is_integer = true, is_unsigned = true, size = 8, min = 0, max = 18446744073709551615.0 },
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
  dt.is_unsigned = p.is_unsigned or false
  dt.is_numeric = dt.is_floating or dt.is_integer
  dt.size = p.size
  dt.min = p.min
  dt.max = p.max
  dt.as_datatype_enum = dt._enum
  dtypes[dt.name] = dt
end
dtypes.double = dtypes.float64
dtypes.half = dtypes.float16
dtypes.DType = core.dtype_metatable

--- tf.as_dtype(x): a dtype from a dtype or its name.
dtypes.as_dtype = doc.def(function(x)
  if getmetatable(x) == core.dtype_metatable then return x end
  local dt = type(x) == "string" and dtypes[x]
  if getmetatable(dt) ~= core.dtype_metatable then
    raise("TypeError", "Cannot convert " .. tostring(x) .. " to a dtype", 1)
  end
  return dt
end, "tf.as_dtype(x)", "The dtype x names: a dtype itself, or a name such as \"float32\" "
  .. "(TF's aliases \"half\" and \"double\" too).")

-- The dtype names tf.dtypes publishes, besides DType and as_dtype.
dtypes.names = { "float16", "bfloat16", "float32", "float64", "int8", "int16", "int32", "int64",
  "uint8", "uint16", "uint32", "uint64", "bool", "string", "resource", "variant", "half", "double" }
dtypes.internal = { names = true, internal = true }

return dtypes
