-- array.lua — the array ops of issue 17: Split SplitV ReverseV2 GatherNd
-- ScatterNd TensorScatterUpdate TensorScatterAdd TopKV2 (top_k, sort,
-- argsort) Cumsum Cumprod. Out-of-range positions raise TF's
-- InvalidArgumentError; duplicate scatter indices add (their order is
-- open in TF: Approx in the reference).

local ALL = { "float32", "float64", "int32", "int64", "bool" }

local function data(r, g, shape, grad, dtypes)
  if grad then return g.rand(r, "float64", shape, "smooth") end
  return g.rand(r, r.pick(dtypes or ALL), shape, "any")
end

-- n index tuples of length k into shape (distinct unless dup), as a flat list.
local function tuples(r, shape, n, k, dup)
  local idx, seen = {}, {}
  local cells = 1
  for i = 1, k do cells = cells * shape[i] end
  for j = 1, n do
    local c = r.int(math.max(cells, 1))
    if not dup then
      local tries = 0
      while seen[c] and tries < 50 do c = r.int(cells); tries = tries + 1 end
    end
    seen[c] = true
    for i = k, 1, -1 do
      idx[(j - 1) * k + i] = shape[i] > 0 and c % shape[i] or 0 -- (0: out of range)
      c = shape[i] > 0 and c // shape[i] or 0
    end
  end
  return idx
end

local function scatter_case(r, g, dup, dtypes)
  local grad = g.grad_case(r, 0.4)
  local shape = g.shape(r, r.range(1, 3), 4, false)
  local k = r.range(1, #shape)
  local cells = 1
  for i = 1, k do cells = cells * shape[i] end
  local lead = r.chance(0.3) and { r.range(1, 2), r.range(0, 2) } or { r.range(0, math.min(4, cells)) }
  local n = g.size(lead)
  if not dup and n > cells then lead, n = { cells }, cells end
  local idx = tuples(r, shape, n, k, dup)
  if n > 0 and r.chance(0.05) then idx[1] = shape[1] end -- out of range
  local ishape = g.copy(lead)
  ishape[#ishape + 1] = k
  local ushape = g.copy(lead)
  for i = k + 1, #shape do ushape[#ushape + 1] = shape[i] end
  local dt = grad and "float64" or r.pick(dtypes or ALL)
  local kind = grad and "smooth" or "any"
  return { inputs = { g.rand(r, dt, shape, kind), g.T(r.pick(gen.INTS), ishape, idx), g.rand(r, dt, ushape, kind) },
    grad = grad }
end

local function scan(name, op, fn)
  return {
    name = name, ops = { op },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.4)
      local rank = r.range(1, 3)
      local x = data(r, g, g.shape(r, rank, 4), grad, gen.NUMERIC)
      if op == "Cumprod" and grad then x = g.rand(r, "float64", x.shape, "positive") end
      return { inputs = { x }, attrs = { axis = r.range(-rank - (r.chance(0.04) and 1 or 0), rank - 1),
        exclusive = r.chance(0.4), reverse = r.chance(0.4) }, grad = grad }
    end,
    call = function(a, x) return fn(x, a.axis, a.exclusive, a.reverse) end,
    grad = { 1 },
  }
end

local function sorter(name, fn)
  return {
    name = name, ops = { "TopKV2" },
    gen = function(r, g)
      local grad = name == "sort" and g.grad_case(r, 0.4)
      local rank = r.range(1, 3)
      -- no empty axis in gradient cases: TF's TopKV2 gradient reshapes to
      -- [-1, k], which fails for an empty tensor (moonflow's port too)
      return { inputs = { data(r, g, g.shape(r, rank, 5, not grad), grad, gen.NUMERIC) },
        attrs = { axis = r.range(-rank, rank - 1), direction = r.pick({ "ASCENDING", "DESCENDING" }) }, grad = grad }
    end,
    call = function(a, x) return fn(x, a.axis, a.direction) end,
    grad = { 1 },
    dynamic = false, -- sort needs the sorted axis' length (TF: k = shape[-1], static there too)
  }
end

return {
  {
    name = "split", ops = { "Split", "SplitV" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.4)
      local rank = r.range(1, 3)
      local shape = g.shape(r, rank, 4)
      local axis = r.range(-rank, rank - 1)
      local d = shape[axis % rank + 1]
      local split
      if r.chance(0.5) then
        local divisors = {}
        for k = 1, math.max(d, 1) do if d % k == 0 then divisors[#divisors + 1] = k end end
        split = r.pick(divisors)
        if r.chance(0.05) then split = d + 1 end -- does not divide
      else
        split = {}
        local left = d
        while left > 0 do
          local s = r.range(0, left)
          split[#split + 1] = s
          left = left - s
        end
        if #split == 0 or r.chance(0.2) then split[#split + 1] = 0 end
        if r.chance(0.3) then split[r.range(1, #split)] = -1; local sum = 0
          for _, s in ipairs(split) do if s > 0 then sum = sum + s end end
          if sum > d then split = { d } end
        end
        if r.chance(0.05) then split[#split + 1] = 1 end -- too long
      end
      return { inputs = { data(r, g, shape, grad) }, attrs = { split = split, axis = axis }, grad = grad }
    end,
    call = function(a, x) return tf.split(x, a.split, a.axis) end,
    grad = { 1 },
    dynamic = false, -- the number of results comes from the static dimension
  },
  {
    name = "reverse", ops = { "ReverseV2" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.4)
      local rank = r.range(0, 4)
      local axes = {}
      for i = 0, rank - 1 do if r.chance(0.5) then axes[#axes + 1] = r.chance(0.3) and i - rank or i end end
      if r.chance(0.05) then axes[#axes + 1] = rank end -- out of range
      if rank > 0 and r.chance(0.04) then axes[#axes + 1] = 0; axes[#axes + 1] = 0 end -- repeated
      return { inputs = { data(r, g, g.shape(r, rank, 4), grad) }, attrs = { axis = axes }, grad = grad }
    end,
    call = function(a, x) return tf.reverse(x, a.axis) end,
    grad = { 1 },
  },
  {
    name = "gather_nd", ops = { "GatherNd" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.4)
      local shape = g.shape(r, r.range(1, 3), 4)
      local k = r.range(1, #shape)
      local lead = g.shape(r, r.range(0, 2), 3)
      local n = g.size(lead)
      local idx = tuples(r, shape, n, k, true)
      for i = 1, #idx do if r.chance(0.02) then idx[i] = r.pick({ -1, shape[1] + 1 }) end end
      local ishape = g.copy(lead)
      ishape[#ishape + 1] = k
      return { inputs = { data(r, g, shape, grad), g.T(r.pick(gen.INTS), ishape, idx) }, grad = grad }
    end,
    call = function(_, p, i) return tf.gather_nd(p, i) end,
    grad = { 1 },
  },
  {
    name = "scatter_nd", ops = { "ScatterNd" },
    gen = function(r, g)
      local c = scatter_case(r, g, true, gen.NUMERIC)
      local t = table.remove(c.inputs, 1)
      return { inputs = c.inputs, attrs = { shape = t.shape }, grad = c.grad }
    end,
    call = function(a, i, u) return tf.scatter_nd(i, u, a.shape) end,
    grad = { 2 },
  },
  {
    name = "tensor_scatter_nd_update", ops = { "TensorScatterUpdate" },
    gen = function(r, g) return scatter_case(r, g, false) end,
    call = function(_, t, i, u) return tf.tensor_scatter_nd_update(t, i, u) end,
    grad = { 1, 3 },
  },
  {
    name = "tensor_scatter_nd_add", ops = { "TensorScatterAdd" },
    gen = function(r, g) return scatter_case(r, g, true, gen.NUMERIC) end,
    call = function(_, t, i, u) return tf.tensor_scatter_nd_add(t, i, u) end,
    grad = { 1, 3 },
  },
  {
    name = "top_k", ops = { "TopKV2" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.4)
      local rank = r.range(1, 3)
      local shape = g.shape(r, rank, 5, not grad)
      local n = shape[rank]
      -- k = 0 only in value cases (TF's gradient fails there, as above)
      return { inputs = { data(r, g, shape, grad, gen.NUMERIC) },
        attrs = { k = r.chance(0.05) and n + 1 or r.range(grad and 1 or 0, n) }, grad = grad }
    end,
    call = function(a, x) return tf.math.top_k(x, a.k) end,
    grad = { 1 },
  },
  sorter("sort", tf.sort),
  sorter("argsort", tf.argsort),
  scan("cumsum", "Cumsum", tf.math.cumsum),
  scan("cumprod", "Cumprod", tf.math.cumprod),
}
