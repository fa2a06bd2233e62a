-- elementwise.lua — the differential test of moonflow's elementwise ops.
--
-- Each case is a random program built from a seed and an index alone: a
-- few input tensors (float32/float64/int32/int64/bool, shapes that
-- broadcast, size-1 and empty dimensions, NaN, infinities, signed zeros,
-- subnormals, integer extremes) and a DAG of elementwise ops from the
-- registry, with explicit tf.cast where dtypes differ (TensorFlow never
-- promotes) and Lua numbers mixed in as TF allows. The program is Lua
-- source, run four ways:
--   eager; tf.func (optimised); tf.func with the optimiser off; tf.func
--   over an input_signature whose dimensions are all unknown (optimised);
-- and the four must agree bit for bit (NaN matching NaN) or all raise the
-- same error type, but for what TF raises while it builds a graph
-- (gen.same_error: a shape function's ValueError, op_def_library's
-- TypeError, where the eager kernel raises InvalidArgumentError). Then every case, inputs and results, goes to NumPy
-- (tests/diff/reference.py) which computes what TensorFlow's documented
-- rules give and reports each difference.
--
--   moonflow tests/diff/elementwise.lua [--seed S] [--count N] [--first I]
--                                       [--large] [--keep FILE]
-- prints TAP (one line per block of cases, one per failure with the
-- program that failed and the command that reruns just that case).

local tf = rawget(_G, "tf") or require("moonflow")
local core = package.loaded["moonflow.core"]

local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "tests/diff"

-- ---- options ----------------------------------------------------------

local opts = { seed = 1, count = 200, first = 0, large = false }
do
  local i = 1
  while arg and arg[i] do
    local a = arg[i]
    if a == "--large" then
      opts.large = true
    elseif a == "--seed" or a == "--count" or a == "--first" or a == "--keep" then
      opts[a:sub(3)] = a == "--keep" and arg[i + 1] or assert(math.tointeger(tonumber(arg[i + 1])), a)
      i = i + 1
    else
      error("unknown argument " .. a)
    end
    i = i + 1
  end
end

-- ---- a seeded generator: gen.lua's, with this file's own stream ------------

local gen = dofile(here .. "/gen.lua")
local function rng_new(seed, index) return gen.rng(seed, index, 1) end

-- ---- the ops ----------------------------------------------------------------

local FLOAT = { float32 = true, float64 = true }
local INT = { int32 = true, int64 = true }
local NUMERIC = { float32 = true, float64 = true, int32 = true, int64 = true }
local BOOL = { bool = true }
local NUMERIC_BOOL = { float32 = true, float64 = true, int32 = true, int64 = true, bool = true }

-- name: the registry op (what reference.py computes); call: the Lua that
-- calls it, %1 %2 %3 the operands; dtypes: what it takes; result: "same",
-- "bool" or a dtype name; const: a Lua number may stand for operand 2.
local OPS = {
  { op = "Neg", call = "tf.negative(%1)", dtypes = NUMERIC },
  { op = "Neg", call = "(-%1)", dtypes = NUMERIC },
  { op = "Abs", call = "tf.abs(%1)", dtypes = NUMERIC },
  { op = "Sign", call = "tf.sign(%1)", dtypes = NUMERIC },
  { op = "Square", call = "tf.square(%1)", dtypes = NUMERIC },
  { op = "Sqrt", call = "tf.sqrt(%1)", dtypes = FLOAT },
  { op = "Rsqrt", call = "tf.math.rsqrt(%1)", dtypes = FLOAT },
  { op = "Exp", call = "tf.exp(%1)", dtypes = FLOAT },
  { op = "Log", call = "tf.math.log(%1)", dtypes = FLOAT },
  { op = "Log1p", call = "tf.math.log1p(%1)", dtypes = FLOAT },
  { op = "Expm1", call = "tf.math.expm1(%1)", dtypes = FLOAT },
  { op = "Sin", call = "tf.sin(%1)", dtypes = FLOAT },
  { op = "Cos", call = "tf.cos(%1)", dtypes = FLOAT },
  { op = "Tanh", call = "tf.tanh(%1)", dtypes = FLOAT },
  { op = "Sigmoid", call = "tf.sigmoid(%1)", dtypes = FLOAT },
  { op = "Round", call = "tf.round(%1)", dtypes = NUMERIC },
  { op = "Floor", call = "tf.floor(%1)", dtypes = FLOAT },
  { op = "Ceil", call = "tf.math.ceil(%1)", dtypes = FLOAT },
  { op = "Reciprocal", call = "tf.math.reciprocal(%1)", dtypes = FLOAT },
  { op = "Relu", call = "tf.nn.relu(%1)", dtypes = NUMERIC },
  { op = "LogicalNot", call = "tf.logical_not(%1)", dtypes = BOOL },
  { op = "Identity", call = "tf.identity(%1)", dtypes = NUMERIC_BOOL },
  { op = "Cast", call = "tf.cast(%1, tf.%T)", dtypes = NUMERIC_BOOL, cast = true },
  { op = "AddV2", call = "tf.add(%1, %2)", dtypes = NUMERIC, const = true },
  { op = "AddV2", call = "(%1 + %2)", dtypes = NUMERIC, const = true },
  { op = "Sub", call = "tf.subtract(%1, %2)", dtypes = NUMERIC, const = true },
  { op = "Sub", call = "(%1 - %2)", dtypes = NUMERIC, const = true },
  { op = "Mul", call = "tf.multiply(%1, %2)", dtypes = NUMERIC, const = true },
  { op = "Mul", call = "(%1 * %2)", dtypes = NUMERIC, const = true },
  { op = "RealDiv", call = "tf.divide(%1, %2)", dtypes = FLOAT, const = true },
  -- integers divide as float64 (TF's truediv)
  { op = "TrueDiv", call = "(%1 / %2)", dtypes = INT, result = "float64", const = true },
  { op = "FloorDiv", call = "tf.math.floordiv(%1, %2)", dtypes = NUMERIC, const = true },
  { op = "FloorDiv", call = "(%1 // %2)", dtypes = NUMERIC, const = true },
  { op = "FloorMod", call = "tf.math.floormod(%1, %2)", dtypes = NUMERIC, const = true },
  { op = "FloorMod", call = "(%1 % %2)", dtypes = NUMERIC, const = true },
  { op = "Pow", call = "tf.pow(%1, %2)", dtypes = NUMERIC, const = true },
  { op = "Maximum", call = "tf.maximum(%1, %2)", dtypes = NUMERIC, const = true },
  { op = "Minimum", call = "tf.minimum(%1, %2)", dtypes = NUMERIC, const = true },
  { op = "DivNoNan", call = "tf.math.divide_no_nan(%1, %2)", dtypes = FLOAT, const = true },
  { op = "SquaredDifference", call = "tf.math.squared_difference(%1, %2)", dtypes = NUMERIC, const = true },
  { op = "Equal", call = "tf.equal(%1, %2)", dtypes = NUMERIC_BOOL, result = "bool", const = true },
  { op = "NotEqual", call = "tf.not_equal(%1, %2)", dtypes = NUMERIC_BOOL, result = "bool", const = true },
  { op = "Less", call = "tf.less(%1, %2)", dtypes = NUMERIC, result = "bool", const = true },
  { op = "LessEqual", call = "tf.less_equal(%1, %2)", dtypes = NUMERIC, result = "bool", const = true },
  { op = "Greater", call = "tf.greater(%1, %2)", dtypes = NUMERIC, result = "bool", const = true },
  { op = "GreaterEqual", call = "tf.greater_equal(%1, %2)", dtypes = NUMERIC, result = "bool", const = true },
  { op = "LogicalAnd", call = "tf.logical_and(%1, %2)", dtypes = BOOL },
  { op = "LogicalOr", call = "tf.logical_or(%1, %2)", dtypes = BOOL },
  { op = "SelectV2", call = "tf.where(%1, %2, %3)", dtypes = NUMERIC_BOOL, select = true },
  -- gradient helpers, reached through the registry as gradients reach them
  { op = "ReluGrad", call = "core.op('ReluGrad', nil, %1, %2)", dtypes = NUMERIC },
  { op = "TanhGrad", call = "core.op('TanhGrad', nil, %1, %2)", dtypes = FLOAT },
  { op = "SigmoidGrad", call = "core.op('SigmoidGrad', nil, %1, %2)", dtypes = FLOAT },
  { op = "SqrtGrad", call = "core.op('SqrtGrad', nil, %1, %2)", dtypes = FLOAT },
  { op = "RsqrtGrad", call = "core.op('RsqrtGrad', nil, %1, %2)", dtypes = FLOAT },
  { op = "Sinh", call = "tf.sinh(%1)", dtypes = FLOAT },
  { op = "Cosh", call = "tf.math.cosh(%1)", dtypes = FLOAT },
  { op = "Tan", call = "tf.tan(%1)", dtypes = FLOAT },
  { op = "Asin", call = "tf.asin(%1)", dtypes = FLOAT },
  { op = "Acos", call = "tf.math.acos(%1)", dtypes = FLOAT },
  { op = "Atan", call = "tf.atan(%1)", dtypes = FLOAT },
  { op = "Asinh", call = "tf.asinh(%1)", dtypes = FLOAT },
  { op = "Acosh", call = "tf.acosh(%1)", dtypes = FLOAT },
  { op = "Atanh", call = "tf.atanh(%1)", dtypes = FLOAT },
  { op = "Lgamma", call = "tf.math.lgamma(%1)", dtypes = FLOAT },
  { op = "Digamma", call = "tf.math.digamma(%1)", dtypes = FLOAT },
  { op = "Erf", call = "tf.math.erf(%1)", dtypes = FLOAT },
  { op = "Erfc", call = "tf.math.erfc(%1)", dtypes = FLOAT },
  { op = "Rint", call = "tf.math.rint(%1)", dtypes = FLOAT },
  { op = "IsNan", call = "tf.math.is_nan(%1)", dtypes = FLOAT, result = "bool" },
  { op = "IsInf", call = "tf.math.is_inf(%1)", dtypes = FLOAT, result = "bool" },
  { op = "IsFinite", call = "tf.math.is_finite(%1)", dtypes = FLOAT, result = "bool" },
  { op = "Softplus", call = "tf.nn.softplus(%1)", dtypes = FLOAT },
  { op = "Softsign", call = "tf.math.softsign(%1)", dtypes = FLOAT },
  { op = "Elu", call = "tf.nn.elu(%1)", dtypes = FLOAT },
  { op = "Selu", call = "tf.nn.selu(%1)", dtypes = FLOAT },
  { op = "Relu6", call = "tf.nn.relu6(%1)", dtypes = NUMERIC },
  { op = "Atan2", call = "tf.atan2(%1, %2)", dtypes = FLOAT, const = true },
  { op = "TruncateDiv", call = "tf.truncatediv(%1, %2)", dtypes = NUMERIC, const = true },
  { op = "TruncateMod", call = "tf.truncatemod(%1, %2)", dtypes = NUMERIC, const = true },
  { op = "Xdivy", call = "tf.math.xdivy(%1, %2)", dtypes = FLOAT, const = true },
  { op = "Xlogy", call = "tf.math.xlogy(%1, %2)", dtypes = FLOAT, const = true },
  { op = "Xlog1py", call = "tf.math.xlog1py(%1, %2)", dtypes = FLOAT, const = true },
  { op = "BesselI0", call = "tf.math.bessel_i0(%1)", dtypes = FLOAT },
  { op = "BesselI0e", call = "tf.math.special.bessel_i0e(%1)", dtypes = FLOAT },
  { op = "BesselI1", call = "tf.math.special.bessel_i1(%1)", dtypes = FLOAT },
  { op = "BesselI1e", call = "tf.math.bessel_i1e(%1)", dtypes = FLOAT },
  { op = "BesselK0", call = "tf.math.special.bessel_k0(%1)", dtypes = FLOAT },
  { op = "BesselK0e", call = "tf.math.special.bessel_k0e(%1)", dtypes = FLOAT },
  { op = "BesselK1", call = "tf.math.special.bessel_k1(%1)", dtypes = FLOAT },
  { op = "BesselK1e", call = "tf.math.special.bessel_k1e(%1)", dtypes = FLOAT },
  { op = "BesselJ0", call = "tf.math.special.bessel_j0(%1)", dtypes = FLOAT },
  { op = "BesselJ1", call = "tf.math.special.bessel_j1(%1)", dtypes = FLOAT },
  { op = "BesselY0", call = "tf.math.special.bessel_y0(%1)", dtypes = FLOAT },
  { op = "BesselY1", call = "tf.math.special.bessel_y1(%1)", dtypes = FLOAT },
  { op = "Dawsn", call = "tf.math.special.dawsn(%1)", dtypes = FLOAT },
  { op = "Expint", call = "tf.math.special.expint(%1)", dtypes = FLOAT },
  { op = "FresnelCos", call = "tf.math.special.fresnel_cos(%1)", dtypes = FLOAT },
  { op = "FresnelSin", call = "tf.math.special.fresnel_sin(%1)", dtypes = FLOAT },
  { op = "Spence", call = "tf.math.special.spence(%1)", dtypes = FLOAT },
  { op = "SoftplusGrad", call = "core.op('SoftplusGrad', nil, %1, %2)", dtypes = FLOAT },
  { op = "SoftsignGrad", call = "core.op('SoftsignGrad', nil, %1, %2)", dtypes = FLOAT },
  { op = "EluGrad", call = "core.op('EluGrad', nil, %1, %2)", dtypes = FLOAT },
  { op = "SeluGrad", call = "core.op('SeluGrad', nil, %1, %2)", dtypes = FLOAT },
  { op = "Relu6Grad", call = "core.op('Relu6Grad', nil, %1, %2)", dtypes = NUMERIC },
}
for _, o in ipairs(OPS) do
  o.arity = o.select and 3 or select(2, o.call:gsub("%%%d", "")) -- operand count
end

-- Registry ops no case needs: fusion's own node (made by the optimiser
-- from the others, so every optimised case covers it).
local NOT_GENERATED = { FusedElementwise = true,
  -- Polygamma's first operand is an order, a small whole number: random
  -- programs feed it any value (orders of 2^31, whose exact reference
  -- takes mpmath minutes); tests/diff/ops/elementwise.lua checks it with
  -- orders 0..3, eager, traced, unoptimised and with unknown dimensions.
  Polygamma = true,
  -- The incomplete gamma family and zeta: their exact references (mpmath's
  -- gammainc, its derivative, Hurwitz zeta) at random programs' values
  -- (1e30, 3e9) take minutes each; tests/diff/ops/elementwise.lua checks
  -- them on their domains and at their special values, eager, traced,
  -- unoptimised and with unknown dimensions.
  Zeta = true, Igamma = true, Igammac = true, IgammaGradA = true }

local function uncovered_ops()
  local have, missing = {}, {}
  for _, o in ipairs(OPS) do have[o.op] = true end
  for _, d in ipairs(core.op_list()) do
    if d.elementwise and not have[d.name] and not NOT_GENERATED[d.name] then
      missing[#missing + 1] = d.name
    end
  end
  return missing
end

-- ---- values ------------------------------------------------------------------

local DTYPES = { "float32", "float64", "int32", "int64", "bool" }
local SPECIAL_FLOATS = {
  0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.0, 1e-3, 100.0, -7.25,
  math.huge, -math.huge, 0 / 0, 1e30, -3e9, 3e9, 2147483648.0, -2147483649.0,
  1e-40, 1e-310, 65504.0, 88.7, -103.0, 709.0, 1e300, 3.4e38,
}
local SPECIAL_INTS = { 0, 1, -1, 2, -2, 7, -7, 2147483647, -2147483648 }
local SPECIAL_INT64 = { 9223372036854775807, math.mininteger, 4294967296, -4294967297 }

local function float_value(r)
  if r.chance(0.3) then return r.pick(SPECIAL_FLOATS) end
  local v = (r.unit() * 2 - 1) * r.pick({ 1, 4, 10, 100 })
  if r.chance(0.3) then v = math.floor(v * 2 + 0.5) / 2 end -- halves: rounding ties
  return v
end

local function int_value(r, dt)
  if r.chance(0.1) then return r.pick(SPECIAL_INTS) end
  if dt == "int64" and r.chance(0.05) then return r.pick(SPECIAL_INT64) end
  if r.chance(0.05) then return r.int(200000) - 100000 end
  return r.int(11) - 5
end

local function value_of(r, dt)
  if dt == "bool" then return r.chance(0.5) end
  if FLOAT[dt] then return float_value(r) end
  return int_value(r, dt)
end

-- A Lua number standing for a tensor of dtype dt: its literal.
local function literal(r, dt)
  if dt == "bool" then return tostring(r.chance(0.5)) end
  if INT[dt] then return tostring(r.pick({ 0, 1, 2, 3, -1, -3, 5 })) end
  local v = r.pick({ 0.0, -0.0, 0.5, 1.0, 2.0, 2.5, -3.0, 1e30, math.huge, 0 / 0 })
  if v ~= v then return "(0/0)" end
  if v == math.huge then return "math.huge" end
  return ("%.17g"):format(v):gsub("^(-?%d+)$", "%1.0")
end

-- ---- programs -----------------------------------------------------------------

-- The broadcast shape every value of a case is a sub-shape of; inputs drop
-- leading dimensions and set others to 1.
local function base_shape(r)
  local rank = r.pick({ 0, 1, 1, 2, 2, 2, 3, 3, 4 })
  local s = {}
  -- 2, 4 and 8: ratios of dtype widths, where an input broadcast into a
  -- narrower result has the result's byte size (buffer reuse's hard case)
  for i = 1, rank do s[i] = r.pick({ 1, 2, 3, 4, 4, 5, 8 }) end
  if rank > 0 and r.chance(0.06) then s[r.int(rank) + 1] = 0 end
  if opts.large and rank >= 2 and r.chance(0.1) then s[1], s[2] = 300, 257 end
  return s
end

local function sub_shape(r, base)
  local drop = r.int(#base + 1)
  if r.chance(0.5) then drop = 0 end
  local s = {}
  for i = drop + 1, #base do s[#s + 1] = r.chance(0.3) and 1 or base[i] end
  return s
end

local function size_of(shape)
  local n = 1
  for _, d in ipairs(shape) do n = n * d end
  return n
end

local function broadcast(a, b)
  local out, ra, rb = {}, #a, #b
  local r = math.max(ra, rb)
  for i = 1, r do
    local da = a[ra - r + i] or 1
    local db = b[rb - r + i] or 1
    out[i] = da == 1 and db or da
  end
  return out
end

-- A program: inputs {dtype, shape, values}; nodes {dtype, shape, expr,
-- ref (what reference.py evaluates)}; the returned node names.
local function make_program(seed, index)
  local r = rng_new(seed, index)
  local base = base_shape(r)
  local prog = { inputs = {}, nodes = {}, lines = {}, index = index }
  local nodes = prog.nodes
  local used = {}
  local ninputs = 1 + r.int(3)
  for i = 1, ninputs do
    local dt = r.pick(DTYPES)
    local shape = sub_shape(r, base)
    local values = {}
    for k = 1, size_of(shape) do values[k] = value_of(r, dt) end
    prog.inputs[i] = { dtype = dt, shape = shape, values = values }
    nodes[i] = { name = "x" .. i, dtype = dt, shape = shape }
  end
  local function add(expr, ref, dt, shape)
    local n = #nodes + 1
    nodes[n] = { name = "v" .. n, dtype = dt, shape = shape }
    prog.lines[#prog.lines + 1] = ("  local v%d = %s"):format(n, expr)
    prog.refs = prog.refs or {}
    prog.refs[#prog.refs + 1] = ("v%d %s %s"):format(n, dt, ref)
    return n
  end
  -- node k as dtype dt: itself, or an explicit cast
  local function as_dtype(k, dt)
    if nodes[k].dtype == dt then return k end
    used[k] = true
    return add(("tf.cast(%s, tf.%s)"):format(nodes[k].name, dt), ("Cast %s"):format(nodes[k].name),
      dt, nodes[k].shape)
  end
  local function choose_dtype(o, k)
    if o.dtypes[nodes[k].dtype] then return nodes[k].dtype end
    local list = {}
    for _, d in ipairs(DTYPES) do
      if o.dtypes[d] then list[#list + 1] = d end
    end
    return r.pick(list)
  end
  local nops = 2 + r.int(7)
  for _ = 1, nops do
    local o = r.pick(OPS)
    local a = r.int(#nodes) + 1
    if r.chance(0.5) then a = #nodes end -- chains: deeper DAGs, more fusion
    local dt = choose_dtype(o, a)
    if o.cast then
      local to = r.pick(DTYPES)
      a = as_dtype(a, dt)
      used[a] = true
      add(o.call:gsub("%%1", nodes[a].name):gsub("%%T", to), ("Cast %s"):format(nodes[a].name),
        to, nodes[a].shape)
    elseif o.select then
      local c = as_dtype(r.int(#nodes) + 1, "bool")
      local x = as_dtype(a, dt)
      local y = as_dtype(r.int(#nodes) + 1, dt)
      used[c], used[x], used[y] = true, true, true
      local shape = broadcast(broadcast(nodes[c].shape, nodes[x].shape), nodes[y].shape)
      add(("tf.where(%s, %s, %s)"):format(nodes[c].name, nodes[x].name, nodes[y].name),
        ("SelectV2 %s %s %s"):format(nodes[c].name, nodes[x].name, nodes[y].name), dt, shape)
    elseif o.arity == 1 then
      a = as_dtype(a, dt)
      used[a] = true
      add(o.call:gsub("%%1", nodes[a].name), ("%s %s"):format(o.op, nodes[a].name),
        o.result == "bool" and "bool" or o.result or dt, nodes[a].shape)
    else
      a = as_dtype(a, dt)
      used[a] = true
      local result = o.result == "bool" and "bool" or o.result or dt
      if o.const and r.chance(0.25) then
        local lit = literal(r, dt)
        local first = r.chance(0.3)
        local expr = o.call:gsub("%%1", first and lit or nodes[a].name)
          :gsub("%%2", first and nodes[a].name or lit)
        local ref = first and ("%s c:%s:%s %s"):format(o.op, dt, lit, nodes[a].name)
          or ("%s %s c:%s:%s"):format(o.op, nodes[a].name, dt, lit)
        add(expr, ref, result, nodes[a].shape)
      else
        local b = as_dtype(r.int(#nodes) + 1, dt)
        used[b] = true
        local x, y = a, b
        if r.chance(0.5) then x, y = b, a end
        add(o.call:gsub("%%1", nodes[x].name):gsub("%%2", nodes[y].name),
          ("%s %s %s"):format(o.op, nodes[x].name, nodes[y].name), result,
          broadcast(nodes[x].shape, nodes[y].shape))
      end
    end
  end
  -- The results are the values nothing else reads, so the others die
  -- inside the graph (and their buffers are reused).
  prog.outputs = {}
  for k = ninputs + 1, #nodes do
    if not used[k] then prog.outputs[#prog.outputs + 1] = nodes[k].name end
  end
  prog.ninputs = ninputs
  local every = {}
  for k = ninputs + 1, #nodes do every[#every + 1] = nodes[k].name end
  prog.all_source = ("return function(%s)\n%s\n  return %s\nend\n"):format(
    table.concat((function()
      local p = {}
      for i = 1, ninputs do p[i] = "x" .. i end
      return p
    end)(), ", "), table.concat(prog.lines, "\n"), table.concat(every, ", "))
  local params = {}
  for i = 1, ninputs do params[i] = "x" .. i end
  prog.source = ("return function(%s)\n%s\n  return %s\nend\n"):format(table.concat(params, ", "),
    table.concat(prog.lines, "\n"), table.concat(prog.outputs, ", "))
  return prog
end

-- ---- running -------------------------------------------------------------------

local function make_inputs(prog)
  local xs = {}
  for i, inp in ipairs(prog.inputs) do
    xs[i] = tf.reshape(tf.constant(inp.values, tf[inp.dtype]), inp.shape)
  end
  return xs
end

local function flatten(v, out)
  if type(v) ~= "table" then
    out[#out + 1] = v
  else
    for _, e in ipairs(v) do flatten(e, out) end
  end
  return out
end

-- A result as comparable data: dtype, shape, flat values.
local function snapshot(t)
  return { dtype = t.dtype.name, shape = t.shape:as_list(), values = flatten(t:numpy(), {}) }
end

local function same_bits(a, b)
  if type(a) == "number" and type(b) == "number" then
    if a ~= a and b ~= b then return true end
    if math.type(a) ~= math.type(b) then return false end
    if math.type(a) == "integer" then return a == b end
    return string.pack("<d", a) == string.pack("<d", b)
  end
  return a == b
end

-- nil when equal, else a description of the first difference.
local function compare(want, got)
  if want.err or got.err then
    if want.err and got.err and gen.same_error(want, got) then return nil end
    return ("one raised %s, the other %s"):format(want.err or "nothing", got.err or "nothing")
  end
  if #want.outs ~= #got.outs then return "different numbers of results" end
  for i, w in ipairs(want.outs) do
    local g = got.outs[i]
    if w.dtype ~= g.dtype then return ("result %d: dtype %s vs %s"):format(i, w.dtype, g.dtype) end
    if table.concat(w.shape, ",") ~= table.concat(g.shape, ",") then
      return ("result %d: shape (%s) vs (%s)"):format(i, table.concat(w.shape, ","), table.concat(g.shape, ","))
    end
    for k = 1, #w.values do
      if not same_bits(w.values[k], g.values[k]) then
        return ("result %d element %d: %s vs %s"):format(i, k - 1, tostring(w.values[k]), tostring(g.values[k]))
      end
    end
  end
  return nil
end

local function run_mode(fn, xs)
  local res = table.pack(pcall(fn, table.unpack(xs)))
  if not res[1] then
    local e = res[2]
    return { err = tf.errors.is(e) and e.type or ("raw Lua error: " .. tostring(e)), message = tostring(e) }
  end
  local outs = {}
  for i = 2, res.n do outs[#outs + 1] = snapshot(res[i]) end
  return { outs = outs }
end

local function dynamic_signature(prog)
  local sig = {}
  for i, inp in ipairs(prog.inputs) do
    local dims = {}
    for k = 1, #inp.shape do dims[k] = tf.None end
    sig[i] = tf.TensorSpec(dims, tf[inp.dtype])
  end
  return sig
end

local MODES = { "traced", "traced, optimiser off", "traced, unknown dimensions" }

-- Runs one case every way; returns its record (eager results or error)
-- and a list of disagreements.
local function run_case(prog)
  local env = setmetatable({ tf = tf, core = core }, { __index = _G })
  local fn = assert(load(prog.source, "=case", "t", env))()
  local xs = make_inputs(prog)
  local eager = run_mode(fn, xs)
  local problems = {}
  local was = tf.config.optimizer.is_enabled()
  for mode_index, mode in ipairs(MODES) do
    -- Named per case (the retracing warning counts traces per name); the
    -- source is generated, so AutoGraph has nothing to convert.
    local fopts = { autograph = false, name = ("case_%d_%d"):format(prog.index, mode_index) }
    if mode == "traced, unknown dimensions" then fopts.input_signature = dynamic_signature(prog) end
    local f = tf.func(fn, fopts)
    tf.config.optimizer.set_enabled(mode ~= "traced, optimiser off")
    local got = run_mode(f, xs)
    tf.config.optimizer.set_enabled(was)
    local why = compare(eager, got)
    if why then problems[#problems + 1] = ("eager vs %s: %s"):format(mode, why) end
  end
  return eager, xs, problems
end

-- ---- the exchange with reference.py ----------------------------------------------

local function fmt_value(v)
  if type(v) == "boolean" then return v and "1" or "0" end
  if math.type(v) == "integer" then return tostring(v) end
  if v ~= v then return "nan" end
  return ("%a"):format(v)
end

local function fmt_tensor(dtype, shape, values)
  local parts = { dtype, tostring(#shape) }
  for _, d in ipairs(shape) do parts[#parts + 1] = tostring(d) end
  parts[#parts + 1] = ":"
  for _, v in ipairs(values) do parts[#parts + 1] = fmt_value(v) end
  return table.concat(parts, " ")
end

local function write_case(f, index, prog, xs, eager)
  f:write("case ", index, "\n")
  for i, x in ipairs(xs) do
    local s = snapshot(x)
    f:write("in x", i, " ", fmt_tensor(s.dtype, s.shape, s.values), "\n")
  end
  for _, line in ipairs(prog.refs or {}) do f:write("op ", line, "\n") end
  if eager.err then
    f:write("err ", eager.err, "\n")
  else
    -- every value, so that NumPy checks each op on moonflow's operands
    local env = setmetatable({ tf = tf, core = core }, { __index = _G })
    local all = run_mode(assert(load(prog.all_source, "=case", "t", env))(), xs)
    for i, o in ipairs(all.outs or {}) do
      f:write("val v", prog.ninputs + i, " ", fmt_tensor(o.dtype, o.shape, o.values), "\n")
    end
  end
  f:write("end\n")
end

-- ---- main ------------------------------------------------------------------------

local function describe_case(index, prog)
  local cmd = ("moonflow tests/diff/elementwise.lua --seed %d --first %d --count 1%s"):format(
    opts.seed, index, opts.large and " --large" or "")
  local lines = { "  rerun: " .. cmd }
  for i, inp in ipairs(prog.inputs) do
    local vals = {}
    for k, v in ipairs(inp.values) do
      if k > 12 then vals[#vals + 1] = "..." break end
      vals[#vals + 1] = type(v) == "number" and math.type(v) == "float" and ("%.9g"):format(v) or tostring(v)
    end
    lines[#lines + 1] = ("  x%d = %s (%s) {%s}"):format(i, inp.dtype, table.concat(inp.shape, ","),
      table.concat(vals, ", "))
  end
  for line in prog.source:gmatch("[^\n]+") do lines[#lines + 1] = "  " .. line end
  return table.concat(lines, "\n")
end

local n_test = 0
local function tap(ok, text, detail)
  n_test = n_test + 1
  print(("%s %d - %s"):format(ok and "ok" or "not ok", n_test, text))
  if detail then print((detail:gsub("[^\n]+", "# %0"))) end
end

local missing = uncovered_ops()
tap(#missing == 0, "every elementwise op in the registry has differential cases",
  #missing > 0 and ("no case for: " .. table.concat(missing, ", ")) or nil)

local exchange = opts.keep or os.tmpname()
local f = assert(io.open(exchange, "w"))
local failures = 0
local last = opts.first + opts.count - 1
for index = opts.first, last do
  local prog = make_program(opts.seed, index)
  local eager, xs, problems = run_case(prog)
  if eager.err and eager.err:match("^raw Lua error") then
    problems[#problems + 1] = "eager: " .. eager.message
  end
  if #problems > 0 then
    failures = failures + 1
    tap(false, ("case %d (seed %d): the four ways disagree"):format(index, opts.seed),
      table.concat(problems, "\n") .. "\n" .. describe_case(index, prog))
  end
  write_case(f, index, prog, xs, eager)
end
f:close()
tap(failures == 0, ("%d cases: eager, traced, traced unoptimised and traced with unknown "
  .. "dimensions agree bitwise"):format(opts.count))

-- NumPy's side: one process for the whole batch. (Programs are made again
-- from seed and index to describe a failure: keeping every one would grow
-- the heap, and collections with it.)
local py = io.popen(("/usr/bin/python3 %s/reference.py < %s"):format(here, exchange), "r")
local out = py:read("a")
local _, _, status = py:close()
if not opts.keep then os.remove(exchange) end
local bad = 0
for line in out:gmatch("[^\n]+") do
  local index, why = line:match("^fail (%d+) (.*)$")
  if index then
    bad = bad + 1
    index = tonumber(index)
    tap(false, ("case %d (seed %d): moonflow differs from NumPy under TF's rules"):format(index, opts.seed),
      why:gsub("\\n", "\n") .. "\n" .. describe_case(index, make_program(opts.seed, index)))
  end
end
local checked = out:match("checked (%d+)")
tap(status == 0 and checked ~= nil and bad == 0,
  ("%s cases agree with NumPy under TF's rules"):format(checked or "no"),
  (status ~= 0 or not checked) and ("reference.py failed:\n" .. out) or nil)
print("1.." .. n_test)
