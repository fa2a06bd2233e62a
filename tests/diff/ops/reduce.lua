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

local NUM = gen.NUMERIC
return {
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
