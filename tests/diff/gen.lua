-- gen.lua — the seeded generator and the value helpers the op case tables
-- (tests/diff/ops/*.lua) build their inputs with. Everything follows from
-- (seed, case index) alone, so a failing case reruns by its number.

local gen = {}

-- splitmix64, the same on every machine. salt (default 7) keeps each
-- user's streams its own: elementwise.lua's programs were drawn with 1.
function gen.rng(seed, index, salt)
  local s = seed * 0x9E3779B97F4A7C15 + index * 0xBF58476D1CE4E5B9 + (salt or 7)
  local r = {}
  function r.next()
    s = s + 0x9E3779B97F4A7C15
    local z = s
    z = (z ~ (z >> 30)) * 0xBF58476D1CE4E5B9
    z = (z ~ (z >> 27)) * 0x94D049BB133111EB
    return z ~ (z >> 31)
  end
  function r.int(n) return (r.next() >> 1) % n end -- 0 .. n-1
  function r.range(lo, hi) return lo + r.int(hi - lo + 1) end -- lo .. hi
  function r.chance(p) return r.int(1000000) < p * 1000000 end
  function r.pick(t) return t[r.int(#t) + 1] end
  function r.unit() return (r.next() >> 11) * 2.0 ^ -53 end
  function r.uniform(lo, hi) return lo + (hi - lo) * r.unit() end
  return r
end

local SPECIAL_FLOATS = {
  0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.0, 100.0, -7.25,
  math.huge, -math.huge, 0 / 0, 1e30, -3e9, 1e-40, 65504.0, 88.7, -103.0,
}
local SPECIAL_INTS = { 0, 1, -1, 2, -2, 7, -7, 2147483647, -2147483648 }

gen.FLOATS = { "float32", "float64" }
gen.INTS = { "int32", "int64" }
gen.NUMERIC = { "float32", "float64", "int32", "int64" }

function gen.is_float(dt) return dt == "float32" or dt == "float64" end

-- One value of dtype dt. kind: "any" (specials: NaN, infinities, signed
-- zeros, extremes), "finite" (no NaN/inf, ties and zeros included),
-- "smooth" (continuous in [-2, 2]: no ties, away from kinks almost surely),
-- "positive" (continuous in [0.25, 3]), "small" (integers -5..5).
function gen.value(r, dt, kind)
  kind = kind or "any"
  if dt == "bool" then return r.chance(0.5) end
  if dt == "string" then
    local n = r.int(5)
    local s = {}
    for i = 1, n do s[i] = string.char(r.pick({ 97, 98, 99, 32, 0xC3 })) end
    local text = table.concat(s)
    -- only whole UTF-8 sequences: a lone 0xC3 gets its continuation byte
    return (text:gsub("\xC3", "\xC3\xA9"))
  end
  if not gen.is_float(dt) then
    if kind == "any" and r.chance(0.1) then
      local v = r.pick(SPECIAL_INTS)
      return v
    end
    if kind == "positive" then return r.range(1, 5) end
    return r.range(-5, 5)
  end
  if kind == "smooth" then return r.uniform(-2, 2) end
  if kind == "positive" then return r.uniform(0.25, 3) end
  if kind == "any" and r.chance(0.25) then return r.pick(SPECIAL_FLOATS) end
  local v = r.uniform(-1, 1) * r.pick({ 1, 4, 10 })
  if r.chance(0.3) then v = math.floor(v * 2 + 0.5) / 2 end -- ties
  if dt == "float32" then v = string.unpack("<f", string.pack("<f", v)) end
  return v
end

function gen.size(shape)
  local n = 1
  for _, d in ipairs(shape) do n = n * d end
  return n
end

-- A tensor description: what the driver builds the input from.
function gen.T(dtype, shape, values)
  assert(#values == gen.size(shape), "gen.T: values do not fill the shape")
  return { dtype = dtype, shape = shape, values = values }
end

function gen.rand(r, dtype, shape, kind)
  local v = {}
  for i = 1, gen.size(shape) do v[i] = gen.value(r, dtype, kind) end
  if dtype == "float32" then
    for i, x in ipairs(v) do
      if x == x and math.abs(x) < 3.5e38 then v[i] = string.unpack("<f", string.pack("<f", x)) end
    end
  end
  return gen.T(dtype, shape, v)
end

-- A random shape of the given rank; dims from {1..maxdim}, rarely 0.
function gen.shape(r, rank, maxdim, allow_empty)
  local s = {}
  for i = 1, rank do
    s[i] = r.range(1, maxdim or 4)
    if allow_empty ~= false and r.chance(0.04) then s[i] = 0 end
  end
  return s
end

-- Whether a case checks gradients: with probability p, and always in the
-- first round of entries (ops.lua sets gen.force_grad), so a small sample
-- still runs every gradient; the random draw is made either way, so a
-- case's inputs follow from (seed, index) alone.
-- Whether `traced`, the error of a traced run, is what TensorFlow raises
-- for the mistake `eager` (the eager run's error) reports. The same type
-- always is; beyond that, what TF finds while the graph is built: a shape
-- function's failure is ops._create_c_op's ValueError naming the node
-- ("... for '{{node add}} = AddV2[T=DT_FLOAT](x, y)' with input shapes:
-- [3], [4]."), and a dtype the op does not take is op_def_library's
-- TypeError, where the eager kernel raises InvalidArgumentError. Nothing
-- else may differ. Records are {err = type, message = tostring(error)}.
function gen.same_error(eager, traced)
  if eager.err == traced.err then return true end
  if eager.err ~= "InvalidArgumentError" then return false end
  local m = traced.message or ""
  if traced.err == "ValueError" then
    return m:find(" for '{{node ", 1, true) ~= nil and m:find("' with input shapes: ", 1, true) ~= nil
  end
  return traced.err == "TypeError" and (m:find("^TypeError: Input '.-' of '.-' Op has type ")
    or m:find("^TypeError: Tensors in list passed to '.-' of '.-' Op have types ")
    or m:find("^TypeError: Value passed to parameter '.-' has DataType ")) ~= nil
end

gen.force_grad = false
function gen.grad_case(r, p)
  local c = r.chance(p)
  return gen.force_grad or c
end

function gen.copy(t)
  local c = {}
  for k, v in pairs(t) do c[k] = v end
  return c
end

return gen
