-- dtypes.lua — the small and half dtypes (issue 28): Cast between every
-- pair (x86's and NumPy's rules), Bitcast (TF's shape rules), and the
-- binary ops and reductions TF's CPU kernels register for them: float16
-- computed per op in float and rounded back (np.float16, Eigen::half), the
-- integers wrapping (NumPy's integer ufuncs, TF's kernels). bfloat16 has
-- no NumPy dtype here: tests/lua/dtypes_spec.lua checks it.

local SMALL = { "float16", "int8", "int16", "uint8", "uint16", "uint32", "uint64" }
local CORE = { "float32", "float64", "int32", "int64", "bool" }
local NUMERIC = { "float16", "int8", "int16", "uint8", "uint16", "uint32", "uint64", "float32", "float64",
  "int32", "int64" }
local LIMITS = { int8 = { -128, 127 }, int16 = { -32768, 32767 }, uint8 = { 0, 255 }, uint16 = { 0, 65535 },
  uint32 = { 0, 4294967295 }, uint64 = { 0, 1 << 62 } }
local F16_SPECIAL = { 0.0, -0.0, 65504.0, -65504.0, 2.0 ^ -24, 2.0 ^ -14, 1.0, -1.0, 0.5, 2048.0,
  math.huge, -math.huge }

local function is_small(dt) return LIMITS[dt] ~= nil or dt == "float16" end

-- A value of small dtype dt, exact in it (float16: m * 2^e, |m| <= 2048).
local function small_value(r, dt)
  if dt == "float16" then
    if r.chance(0.2) then return r.pick(F16_SPECIAL) end
    return r.range(-2048, 2048) * 2.0 ^ r.range(-24, 4)
  end
  local lo, hi = LIMITS[dt][1], LIMITS[dt][2]
  if r.chance(0.2) then return r.pick({ lo, hi, 0, 1 }) end
  if r.chance(0.5) then return r.range(math.max(lo, -5), math.min(hi, 5)) end
  return r.range(lo, hi)
end

local function tensor(r, g, dt, shape, kind)
  if not is_small(dt) then return g.rand(r, dt, shape, kind) end
  local v = {}
  for i = 1, g.size(shape) do v[i] = small_value(r, dt) end
  return g.T(dt, shape, v)
end

local entries = {
  {
    name = "dt_cast", ops = { "Cast" },
    gen = function(r, g)
      local src = r.chance(0.6) and r.pick(SMALL) or r.pick(CORE)
      local dst = r.chance(0.6) and r.pick(SMALL) or r.pick(CORE)
      if not is_small(src) and not is_small(dst) then dst = r.pick(SMALL) end
      return { inputs = { tensor(r, g, src, g.shape(r, r.range(0, 2), 4), "any") }, attrs = { dst = dst } }
    end,
    call = function(a, x) return tf.cast(x, tf[a.dst]) end,
  },
  {
    name = "dt_bitcast", ops = { "Bitcast" },
    gen = function(r, g)
      local src, dst = r.pick(NUMERIC), r.pick(NUMERIC)
      local shape = g.shape(r, r.range(0, 2), 3)
      local ratio = tf[dst].size // tf[src].size
      if ratio > 1 and #shape > 0 and r.chance(0.8) then shape[#shape] = ratio end
      return { inputs = { tensor(r, g, src, shape, "finite") }, attrs = { type = dst } }
    end,
    call = function(a, x) return tf.bitcast(x, tf[a.type]) end,
  },
}

-- The binary ops, each over the small dtypes TF registers it for.
local BINARY = {
  { "AddV2", tf.add, SMALL }, { "Sub", tf.subtract, SMALL }, { "Mul", tf.multiply, SMALL },
  { "Maximum", tf.maximum, SMALL }, { "Minimum", tf.minimum, SMALL }, { "Equal", tf.equal, SMALL },
  { "Less", tf.less, SMALL }, { "GreaterEqual", tf.greater_equal, SMALL },
}
for _, b in ipairs(BINARY) do
  local op, fn, types = b[1], b[2], b[3]
  entries[#entries + 1] = {
    name = "dt_" .. op, ops = { op },
    gen = function(r, g)
      local dt = r.pick(types)
      local shape = g.shape(r, r.range(0, 2), 4)
      local other = r.chance(0.25) and {} or shape
      local x, y = tensor(r, g, dt, shape), tensor(r, g, dt, other)
      if r.chance(0.5) then x, y = y, x end
      return { inputs = { x, y } }
    end,
    call = function(_, x, y) return fn(x, y) end,
  }
end

-- Reductions: the integers wrap, float16 sums in float and rounds once.
local REDUCE = { { "Sum", tf.reduce_sum }, { "Max", tf.reduce_max }, { "Min", tf.reduce_min } }
for _, rd in ipairs(REDUCE) do
  local op, fn = rd[1], rd[2]
  entries[#entries + 1] = {
    name = "dt_" .. op, ops = { op },
    gen = function(r, g)
      local dt = r.pick(op == "Sum" and { "float16", "int8", "int16", "uint8", "uint16", "uint32" } or SMALL)
      local rank = r.range(1, 2)
      return { inputs = { tensor(r, g, dt, g.shape(r, rank, 4, false)) }, attrs = { axis = r.range(-rank, rank - 1) } }
    end,
    call = function(a, x) return fn(x, a.axis) end,
  }
end

-- Quotients and remainders of the integer types (uint64's computed in
-- uint64, the others widened; a zero divisor is InvalidArgumentError), and
-- FloorDiv and FloorMod of float16.
local INTS = { "int8", "int16", "uint8", "uint16", "uint32", "uint64" }
local DIVISION = { { "FloorDiv", tf.math.floordiv }, { "FloorMod", tf.math.floormod },
  { "TruncateDiv", tf.math.truncatediv }, { "TruncateMod", tf.math.truncatemod } }
for _, d in ipairs(DIVISION) do
  local op, fn = d[1], d[2]
  entries[#entries + 1] = {
    name = "dt_" .. op, ops = { op },
    gen = function(r, g)
      -- float16: FloorDiv floors the quotient rounded to float16, as TF's
      -- floor_div_real<Eigen::half> (two roundings, not floor in float)
      local half = (op == "FloorDiv" or op == "FloorMod") and r.chance(0.3)
      local dt = half and "float16" or r.pick(INTS)
      local shape = g.shape(r, r.range(0, 2), 4)
      local x, y = tensor(r, g, dt, shape), tensor(r, g, dt, r.chance(0.25) and {} or shape)
      if r.chance(0.8) then
        for i, v in ipairs(y.values) do if v == 0 then y.values[i] = 1 end end
      end
      return { inputs = { x, y } }
    end,
    call = function(_, x, y) return fn(x, y) end,
  }
end

-- Mean of the integer types: uint64's sum wraps, then divides (TF's
-- MeanReducer); the narrower ones divide the unwrapped sum (dtype_widen.c).
entries[#entries + 1] = {
  name = "dt_Mean", ops = { "Mean" },
  gen = function(r, g)
    local dt = r.pick(INTS)
    local rank = r.range(1, 2)
    return { inputs = { tensor(r, g, dt, g.shape(r, rank, 4, false)) }, attrs = { axis = r.range(-rank, rank - 1) } }
  end,
  call = function(a, x) return tf.reduce_mean(x, a.axis) end,
}

-- Range in the small dtypes TF's kernel takes: float16 sized and stepped
-- in float16 (each sum rounded), the integers exactly.
entries[#entries + 1] = {
  name = "dt_Range", ops = { "Range" },
  gen = function(r, g)
    local dt = r.pick({ "float16", "int8", "int16", "uint32" })
    local start, delta = r.range(0, 20), r.range(1, 7)
    if dt == "float16" then start, delta = start * 0.25, delta * 0.125 end
    local limit = start + delta * r.range(0, 12) + (dt == "float16" and 0.0625 or 0)
    return { inputs = { g.T(dt, {}, { start }), g.T(dt, {}, { limit }), g.T(dt, {}, { delta }) } }
  end,
  call = function(_, s, l, d) return tf.range(s, l, d, s.dtype) end,
}

return entries
