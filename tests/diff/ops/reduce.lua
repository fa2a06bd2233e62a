-- reduce.lua — reductions: Sum Mean Max Min Prod Any All ArgMax ArgMin.
-- Axes: nil (all), one (negative too), a list, out of range (TF's
-- InvalidArgumentError); keepdims; empty dimensions.

local function axis_arg(r, rank)
  local k = r.int(10)
  if k == 0 then return nil end
  if k == 1 and rank > 0 then
    local list = {}
    for i = 0, rank - 1 do if r.chance(0.5) then list[#list + 1] = i - (r.chance(0.3) and rank or 0) end end
    return list
  end
  if k == 2 then return r.pick({ rank, -rank - 1, 5 }) end -- out of range
  if rank == 0 then return nil end
  return r.range(-rank, rank - 1)
end

local function reduction(name, op, fn, dtypes, grad)
  return {
    name = name, ops = { op },
    gen = function(r, g)
      local dt = r.pick(dtypes)
      local rank = r.range(0, 3)
      local smooth = grad and g.grad_case(r, 0.4)
      local kind = smooth and (op == "Prod" and "positive" or "smooth") or "any"
      if smooth then dt = "float64" end
      return { inputs = { g.rand(r, dt, g.shape(r, rank, 4, not smooth), kind) },
        attrs = { axis = axis_arg(r, rank), keepdims = r.chance(0.3) }, grad = smooth }
    end,
    call = function(a, x) return tf[fn](x, a.axis, a.keepdims) end,
    grad = grad and { 1 } or nil,
  }
end

-- The reductions math_ops.py composes (no op of their own): the ops they
-- build must appear in the traced graph.
local function composite(name, ops, fn, dtypes, grad)
  local e = reduction(name, ops[1], fn, dtypes, grad)
  e.ops = ops
  e.call = function(a, x) return tf.math[fn](x, a.axis, a.keepdims) end
  return e
end

-- reduce_std over one element is sqrt(0): its gradient is NaN in TF (and
-- here), not the finite differences' 0, so those cases check values only.
local function reduced_count(shape, axis)
  local n, rank = 1, #shape
  local axes = axis == nil and {} or type(axis) == "table" and axis or { axis }
  if axis == nil then for i = 0, rank - 1 do axes[#axes + 1] = i end end
  for _, a in ipairs(axes) do
    local d = shape[(a % math.max(rank, 1)) + 1]
    if d then n = n * d end
  end
  return n
end
local function std_entry()
  local e = composite("reduce_std", { "Mean", "Square", "Sqrt" }, "reduce_std", gen.FLOATS, true)
  local base = e.gen
  e.gen = function(r, g)
    local case = base(r, g)
    if case.grad and reduced_count(case.inputs[1].shape, case.attrs.axis) < 2 then case.grad = false end
    return case
  end
  return e
end

local NUM = gen.NUMERIC
return {
  composite("reduce_logsumexp", { "Max", "Exp", "Sum", "Log", "IsFinite" }, "reduce_logsumexp", gen.FLOATS, true),
  composite("reduce_variance", { "Mean", "Square" }, "reduce_variance", NUM, true),
  std_entry(),
  composite("reduce_euclidean_norm", { "Mul", "Sum" }, "reduce_euclidean_norm", NUM, true),
  composite("count_nonzero", { "NotEqual", "Sum" }, "count_nonzero", { "float32", "float64", "int32", "int64", "bool" },
    false),
  reduction("reduce_sum", "Sum", "reduce_sum", NUM, true),
  reduction("reduce_mean", "Mean", "reduce_mean", NUM, true),
  reduction("reduce_max", "Max", "reduce_max", NUM, true),
  reduction("reduce_min", "Min", "reduce_min", NUM, true),
  reduction("reduce_prod", "Prod", "reduce_prod", NUM, true),
  reduction("reduce_any", "Any", "reduce_any", { "bool" }, false),
  reduction("reduce_all", "All", "reduce_all", { "bool" }, false),
  {
    name = "argmax", ops = { "ArgMax" },
    gen = function(r, g)
      local rank = r.range(1, 3)
      local dt = r.pick(gen.NUMERIC)
      -- NaN is left out: TF's CPU kernel (Eigen's argmax) gives no
      -- documented answer for it
      return { inputs = { g.rand(r, dt, g.shape(r, rank, 4, false), "finite") },
        attrs = { axis = r.range(-rank - (r.chance(0.1) and 1 or 0), rank - 1), out = r.pick({ "int32", "int64" }) } }
    end,
    call = function(a, x) return tf.argmax(x, a.axis, tf[a.out]) end,
  },
  {
    name = "argmin", ops = { "ArgMin" },
    gen = function(r, g)
      local rank = r.range(1, 3)
      local dt = r.pick(gen.NUMERIC)
      return { inputs = { g.rand(r, dt, g.shape(r, rank, 4, false), "finite") },
        attrs = { axis = r.range(-rank - (r.chance(0.1) and 1 or 0), rank - 1), out = r.pick({ "int32", "int64" }) } }
    end,
    call = function(a, x) return tf.argmin(x, a.axis, tf[a.out]) end,
  },
}
