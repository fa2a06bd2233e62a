-- elementwise.lua — the elementwise ops as single-op cases, here for what
-- tests/diff/elementwise.lua (random programs of them, fused and not) does
-- not check: their gradients, against finite differences and PyTorch.
-- Values are checked too, with that test's NumPy rules (reference.py).

local F, N = gen.FLOATS, gen.NUMERIC
local ALL = { "float32", "float64", "int32", "int64", "bool" }

-- op: registry name; fn: the call; dtypes: value-case dtypes; domain: the
-- grad cases' values ("smooth", "positive", "nonzero"); grad: checked.
local UNARY = {
  { "Neg", tf.negative, N, "smooth", true }, { "Abs", tf.abs, N, "smooth", true },
  { "Sign", tf.sign, N, "smooth", true }, { "Square", tf.square, N, "smooth", true },
  { "Sqrt", tf.sqrt, F, "positive", true }, { "Rsqrt", tf.math.rsqrt, F, "positive", true },
  { "Exp", tf.exp, F, "smooth", true }, { "Log", tf.math.log, F, "positive", true },
  { "Log1p", tf.math.log1p, F, "positive", true }, { "Sin", tf.sin, F, "smooth", true },
  { "Expm1", tf.math.expm1, F, "smooth", true },
  { "Cos", tf.cos, F, "smooth", true }, { "Tanh", tf.tanh, F, "smooth", true },
  { "Sigmoid", tf.sigmoid, F, "smooth", true }, { "Round", tf.round, N, "smooth", false },
  { "Floor", tf.floor, F, "smooth", false }, { "Ceil", tf.math.ceil, F, "smooth", false },
  { "Reciprocal", tf.math.reciprocal, F, "nonzero", true }, { "Relu", tf.nn.relu, N, "smooth", true },
  { "LogicalNot", tf.logical_not, { "bool" }, nil, false },
  { "Sinh", tf.sinh, F, "smooth", true }, { "Cosh", tf.cosh, F, "smooth", true },
  { "Tan", tf.tan, F, "unit", true }, { "Asin", tf.asin, F, "unit", true }, -- (Tan: away from its poles)
  { "Acos", tf.acos, F, "unit", true }, { "Atan", tf.atan, F, "smooth", true },
  { "Asinh", tf.asinh, F, "smooth", true }, { "Acosh", tf.acosh, F, "above1", true },
  { "Atanh", tf.atanh, F, "unit", true }, { "Lgamma", tf.math.lgamma, F, "positive", true },
  { "Digamma", tf.math.digamma, F, "positive", true }, { "Erf", tf.math.erf, F, "smooth", true },
  { "Erfc", tf.math.erfc, F, "smooth", true }, { "Rint", tf.math.rint, F, "smooth", false },
  { "IsNan", tf.math.is_nan, F, nil, false }, { "IsInf", tf.math.is_inf, F, nil, false },
  { "IsFinite", tf.math.is_finite, F, nil, false },
  { "Softplus", tf.nn.softplus, F, "smooth", true }, { "Softsign", tf.nn.softsign, F, "smooth", true },
  { "Elu", tf.nn.elu, F, "smooth", true }, { "Selu", tf.nn.selu, F, "smooth", true },
  { "Relu6", tf.nn.relu6, N, "smooth", true },
  { "BesselI0", tf.math.bessel_i0, F, "smooth", true }, { "BesselI0e", tf.math.bessel_i0e, F, "smooth", true },
  { "BesselI1", tf.math.bessel_i1, F, "smooth", true }, { "BesselI1e", tf.math.bessel_i1e, F, "smooth", true },
  { "BesselK0", tf.math.special.bessel_k0, F, "positive", true },
  { "BesselK0e", tf.math.special.bessel_k0e, F, "positive", true },
  { "BesselK1", tf.math.special.bessel_k1, F, "positive", true },
  { "BesselK1e", tf.math.special.bessel_k1e, F, "positive", true },
  { "BesselJ0", tf.math.special.bessel_j0, F, "smooth", true },
  { "BesselJ1", tf.math.special.bessel_j1, F, "smooth", true },
  { "BesselY0", tf.math.special.bessel_y0, F, "positive", true },
  { "BesselY1", tf.math.special.bessel_y1, F, "positive", true },
  { "Dawsn", tf.math.special.dawsn, F, "smooth", true },
  { "Expint", tf.math.special.expint, F, "positive", true },
  { "FresnelCos", tf.math.special.fresnel_cos, F, "smooth", true },
  { "FresnelSin", tf.math.special.fresnel_sin, F, "smooth", true },
  { "Spence", tf.math.special.spence, F, "positive", true },
  { "Identity", tf.identity, ALL, "smooth", true },
}
local BINARY = {
  { "AddV2", tf.add, N, "smooth", true }, { "Sub", tf.subtract, N, "smooth", true },
  { "Mul", tf.multiply, N, "smooth", true }, { "RealDiv", tf.divide, F, "nonzero", true },
  { "FloorDiv", tf.math.floordiv, N, nil, false }, { "FloorMod", tf.math.floormod, N, "nonzero", true },
  { "Pow", tf.pow, N, "positive", true }, { "Maximum", tf.maximum, N, "smooth", true },
  { "Minimum", tf.minimum, N, "smooth", true },
  { "DivNoNan", tf.math.divide_no_nan, F, "nonzero", true },
  { "SquaredDifference", tf.math.squared_difference, N, "smooth", true },
  { "Equal", tf.equal, ALL, nil, false }, { "NotEqual", tf.not_equal, ALL, nil, false },
  { "Less", tf.less, N, nil, false }, { "LessEqual", tf.less_equal, N, nil, false },
  { "Greater", tf.greater, N, nil, false }, { "GreaterEqual", tf.greater_equal, N, nil, false },
  { "LogicalAnd", tf.logical_and, { "bool" }, nil, false },
  { "LogicalOr", tf.logical_or, { "bool" }, nil, false },
  { "Atan2", tf.atan2, F, "nonzero", true },
  { "TruncateDiv", tf.truncatediv, N, nil, false },
  { "TruncateMod", tf.truncatemod, N, nil, false },
  { "Xdivy", tf.math.xdivy, F, "nonzero", true }, { "Xlogy", tf.math.xlogy, F, "positive", true },
  { "Xlog1py", tf.math.xlog1py, F, "positive", true },
}
-- the gradient helpers, called as gradients call them; their own
-- gradients (second order) are checked too
local HELPERS = {
  { "ReluGrad", { "smooth", "smooth" } }, { "TanhGrad", { "smooth", "smooth" } },
  { "SigmoidGrad", { "smooth", "smooth" } }, { "SqrtGrad", { "positive", "smooth" } },
  { "RsqrtGrad", { "positive", "smooth" } },
  { "SoftplusGrad", { "smooth", "smooth" } }, { "SoftsignGrad", { "smooth", "smooth" } },
  { "EluGrad", { "smooth", "smooth" } }, { "SeluGrad", { "smooth", "smooth" } },
  { "Relu6Grad", { "smooth", "smooth" } },
}

local function values(r, g, dt, shape, domain, smooth)
  if not smooth then return g.rand(r, dt, shape, "any") end
  -- the open domains of asin, acos, atanh (-1, 1) and acosh (1, inf),
  -- away from their ends where finite differences lose their accuracy
  if domain == "unit" or domain == "above1" then
    local t = g.rand(r, dt, shape, "smooth")
    for i, v in ipairs(t.values) do t.values[i] = domain == "unit" and v * 0.4 or 1.25 + math.abs(v) end
    return t
  end
  if domain == "nonzero" then
    local t = g.rand(r, dt, shape, "positive")
    for i, v in ipairs(t.values) do if r.chance(0.5) then t.values[i] = -v end end
    return t
  end
  return g.rand(r, dt, shape, domain)
end

-- Two shapes that broadcast (or, rarely, that do not).
local function shapes2(r, g)
  local base = g.shape(r, r.range(0, 3), 3)
  local a, b = {}, {}
  for i, d in ipairs(base) do
    a[i] = r.chance(0.25) and 1 or d
    b[i] = r.chance(0.25) and 1 or d
  end
  if r.chance(0.3) then table.remove(b, 1) end
  if r.chance(0.05) and #a > 0 then a[1] = a[1] + 1; b[#b + 1] = nil end
  if r.chance(0.03) and #a > 0 and #b == #a and a[1] > 1 then b[1] = a[1] + 1 end -- incompatible
  return a, b
end

local entries = {}
for _, u in ipairs(UNARY) do
  local op, fn, dtypes, domain, grad = table.unpack(u)
  entries[#entries + 1] = {
    name = "ew_" .. op, ops = { op },
    gen = function(r, g)
      local smooth = grad and g.grad_case(r, 0.5)
      local dt = smooth and "float64" or r.pick(dtypes)
      return { inputs = { values(r, g, dt, g.shape(r, r.range(0, 3), 4, not smooth), domain, smooth) },
        attrs = { op = op }, grad = smooth }
    end,
    call = function(_, x) return fn(x) end,
    grad = grad and { 1 } or nil,
  }
end
for _, b in ipairs(BINARY) do
  local op, fn, dtypes, domain, grad = table.unpack(b)
  entries[#entries + 1] = {
    name = "ew_" .. op, ops = { op },
    gen = function(r, g)
      local smooth = grad and g.grad_case(r, 0.5)
      local dt = smooth and "float64" or r.pick(dtypes)
      local sa, sb = shapes2(r, g)
      local x = values(r, g, dt, sa, op == "Pow" and "positive" or "smooth", smooth)
      local y = values(r, g, dt, sb, op == "Pow" and "smooth" or domain, smooth)
      return { inputs = { x, y }, attrs = { op = op }, grad = smooth }
    end,
    call = function(_, x, y) return fn(x, y) end,
    grad = grad and { 1, 2 } or nil,
  }
end
entries[#entries + 1] = {
  name = "ew_SelectV2", ops = { "SelectV2" },
  gen = function(r, g)
    local smooth = g.grad_case(r, 0.5)
    local dt = smooth and "float64" or r.pick(ALL)
    local sa, sb = shapes2(r, g)
    local sc = r.chance(0.5) and sa or sb
    return { inputs = { g.rand(r, "bool", sc), values(r, g, dt, sa, "smooth", smooth),
      values(r, g, dt, sb, "smooth", smooth) }, attrs = { op = "SelectV2" }, grad = smooth }
  end,
  call = function(_, c, x, y) return tf.where(c, x, y) end,
  grad = { 2, 3 },
}
entries[#entries + 1] = {
  name = "ew_Cast", ops = { "Cast" },
  gen = function(r, g)
    local smooth = g.grad_case(r, 0.3)
    local from = smooth and "float64" or r.pick(ALL)
    local to = smooth and "float64" or r.pick(ALL)
    if to == from and r.chance(0.8) then to = from == "int32" and "float32" or "int32" end -- a real Cast
    -- float64 to float64 is no Cast node in TF or here: go through float32
    -- values that float32 holds exactly, so the gradient is exact too
    local x = values(r, g, from, g.shape(r, r.range(0, 3), 4), "smooth", smooth)
    if smooth then
      for i, v in ipairs(x.values) do x.values[i] = string.unpack("<f", string.pack("<f", v)) end
    end
    return { inputs = { x }, attrs = { op = "Cast", to = to, via = smooth and "float32" or nil }, grad = smooth }
  end,
  call = function(a, x)
    if a.via then return tf.cast(tf.cast(x, tf[a.via]), tf[a.to]) end
    return tf.cast(x, tf[a.to])
  end,
  grad = { 1 },
}
-- LeakyRelu and its backprop, with their alpha attribute.
entries[#entries + 1] = {
  name = "ew_LeakyRelu", ops = { "LeakyRelu" },
  gen = function(r, g)
    local smooth = g.grad_case(r, 0.5)
    local dt = smooth and "float64" or r.pick(F)
    return { inputs = { values(r, g, dt, g.shape(r, r.range(0, 3), 4, not smooth), "smooth", smooth) },
      attrs = { op = "LeakyRelu", alpha = r.pick({ 0.2, 0.01, 0.5, 1.5, -0.25 }) }, grad = smooth }
  end,
  call = function(a, x) return tf.nn.leaky_relu(x, a.alpha) end,
  grad = { 1 },
}
entries[#entries + 1] = {
  name = "ew_LeakyReluGrad", ops = { "LeakyReluGrad" },
  gen = function(r, g)
    local smooth = g.grad_case(r, 0.5)
    local dt = smooth and "float64" or r.pick(F)
    local shape = g.shape(r, r.range(0, 3), 4)
    return { inputs = { values(r, g, dt, shape, "smooth", smooth), values(r, g, dt, shape, "smooth", smooth) },
      attrs = { op = "LeakyReluGrad", alpha = r.pick({ 0.2, 0.3 }) }, grad = smooth }
  end,
  call = function(a, x, y) return core.op("LeakyReluGrad", { alpha = a.alpha }, x, y) end,
  grad = { 1, 2 },
}
-- Polygamma's order: whole numbers (others give NaN), from 0 (digamma).
entries[#entries + 1] = {
  name = "ew_Polygamma", ops = { "Polygamma" },
  gen = function(r, g)
    local smooth = g.grad_case(r, 0.5)
    local dt = smooth and "float64" or r.pick(F)
    local sa, sb = shapes2(r, g)
    local n = g.rand(r, dt, sa, "smooth")
    -- (whole orders only in gradient cases: one NaN output, from another
    -- order, makes every finite difference NaN)
    for i = 1, #n.values do n.values[i] = (smooth or r.chance(0.9)) and r.range(0, 3) + 0.0 or n.values[i] end
    return { inputs = { n, values(r, g, dt, sb, "positive", smooth) }, attrs = { op = "Polygamma" }, grad = smooth }
  end,
  call = function(_, n, x) return tf.math.polygamma(n, x) end,
  grad = { 2 },
}
-- Zeta, Igamma, Igammac and IgammaGradA: both operands positive (the
-- domain and the gradient cases), and in value cases also the special
-- values (0, negative, infinite, NaN) that their edges are defined at.
-- Zeta's gradient is for q only, as TF's; IgammaGradA has none.
for _, s in ipairs({ { "Zeta", tf.math.zeta, { 2 } }, { "Igamma", tf.math.igamma, { 1, 2 } },
  { "Igammac", tf.math.igammac, { 1, 2 } },
  { "IgammaGradA", function(a, x) return core.op("IgammaGradA", nil, a, x) end } }) do
  local op, fn, grad = s[1], s[2], s[3]
  entries[#entries + 1] = {
    name = "ew_" .. op, ops = { op },
    gen = function(r, g)
      local smooth = grad and g.grad_case(r, 0.5)
      local dt = smooth and "float64" or r.pick(F)
      local sa, sb = shapes2(r, g)
      local a = values(r, g, dt, sa, "positive", true)
      local x = values(r, g, dt, sb, "positive", true)
      if op == "Zeta" then
        for i, v in ipairs(a.values) do a.values[i] = v + 1.25 end -- s > 1
      end
      if not smooth then
        local special = { 0.0, -1.0, 1.0, 0.5, 40.0, math.huge, -math.huge, 0 / 0 }
        for _, t in ipairs({ a, x }) do
          for i = 1, #t.values do if r.chance(0.15) then t.values[i] = r.pick(special) end end
        end
      end
      return { inputs = { a, x }, attrs = { op = op }, grad = smooth }
    end,
    call = function(_, a, x) return fn(a, x) end,
    grad = grad,
  }
end
-- Betainc: a, b and x each a scalar or of one shape (TF's kernel does not
-- broadcast; now and then one shape differs, TF's InvalidArgumentError);
-- a and b positive, x in (0, 1), and in value cases also the edges and
-- the values outside the domain (NaN there). The gradient is for x only.
entries[#entries + 1] = {
  name = "ew_Betainc", ops = { "Betainc" },
  gen = function(r, g)
    local smooth = g.grad_case(r, 0.5)
    local dt = smooth and "float64" or r.pick(F)
    local base = g.shape(r, r.range(1, 3), 3)
    local function shape()
      if r.chance(0.3) then return {} end
      if not smooth and r.chance(0.04) then
        local s = table.move(base, 1, #base, 1, {})
        s[1] = s[1] + 1
        return s
      end
      return base
    end
    local a = values(r, g, dt, shape(), "positive", true)
    local b = values(r, g, dt, shape(), "positive", true)
    local x = values(r, g, dt, shape(), "positive", true)
    for i, v in ipairs(x.values) do x.values[i] = v / (v + 1) end
    if not smooth then
      local special = { 0.0, -1.0, 1.0, 0.5, 1.5, 40.0, math.huge, 0 / 0 }
      for _, t in ipairs({ a, b, x }) do
        for i = 1, #t.values do if r.chance(0.15) then t.values[i] = r.pick(special) end end
      end
    end
    return { inputs = { a, b, x }, attrs = { op = "Betainc" }, grad = smooth }
  end,
  call = function(_, a, b, x) return tf.math.betainc(a, b, x) end,
  grad = { 3 },
}
for _, h in ipairs(HELPERS) do
  local op, domains = h[1], h[2]
  entries[#entries + 1] = {
    name = "ew_" .. op, ops = { op },
    gen = function(r, g)
      local smooth = g.grad_case(r, 0.5)
      local dt = smooth and "float64" or r.pick((op == "ReluGrad" or op == "Relu6Grad") and N or F)
      local shape = g.shape(r, r.range(0, 3), 4)
      return { inputs = { values(r, g, dt, shape, domains[1], smooth), values(r, g, dt, shape, domains[2], smooth) },
        attrs = { op = op }, grad = smooth }
    end,
    call = function(_, x, y) return core.op(op, nil, x, y) end,
    grad = { 1, 2 },
  }
end
entries[#entries + 1] = {
  name = "broadcast_gradient_args", ops = { "BroadcastGradientArgs" },
  gen = function(r, g)
    local a, b = shapes2(r, g)
    local dt = r.pick(gen.INTS)
    return { inputs = { g.T(dt, { #a }, a), g.T(dt, { #b }, b) } }
  end,
  call = function(_, s0, s1) return core.op("BroadcastGradientArgs", nil, s0, s1) end,
}
entries[#entries + 1] = {
  name = "stop_gradient", ops = { "StopGradient" },
  gen = function(r, g)
    local dt = r.pick(ALL)
    local smooth = g.grad_case(r, 0.5)
    if smooth then dt = "float64" end
    return { inputs = { g.rand(r, dt, g.shape(r, r.range(0, 3), 4), smooth and "smooth" or "any") }, grad = smooth }
  end,
  call = function(_, x) return tf.stop_gradient(x) end,
  grad = { 1 },
}
entries[#entries + 1] = {
  name = "identity_n", ops = { "IdentityN" },
  gen = function(r, g)
    local smooth = g.grad_case(r, 0.5)
    local d1, d2 = r.pick(ALL), r.pick(ALL)
    if smooth then d1, d2 = "float64", "float64" end
    local kind = smooth and "smooth" or "any"
    return { inputs = { g.rand(r, d1, g.shape(r, r.range(0, 3), 4), kind),
      g.rand(r, d2, g.shape(r, r.range(0, 3), 4), kind) }, grad = smooth }
  end,
  call = function(_, x, y) return tf.identity_n({ x, y }) end,
  grad = { 1, 2 },
}
return entries
