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
  {
    name = "roll", ops = { "Roll" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.4)
      local rank = r.range(r.chance(0.05) and 0 or 1, 3)
      local shape = g.shape(r, rank, 4, not grad)
      local n = r.range(1, 3)
      local shift, axis = {}, {}
      for i = 1, n do
        shift[i] = r.range(-6, 6)
        axis[i] = rank > 0 and r.range(-rank, rank - 1) or 0
      end
      if r.chance(0.05) then axis[1] = rank end -- out of range
      if r.chance(0.05) then shift[#shift + 1] = 1 end -- sizes differ
      return { inputs = { data(r, g, shape, grad) }, attrs = { shift = shift, axis = axis }, grad = grad }
    end,
    call = function(a, x) return tf.roll(x, a.shift, a.axis) end,
    grad = { 1 },
  },
  {
    name = "unique", ops = { "Unique" },
    gen = function(r, g)
      local n = r.range(0, 8)
      local dt = r.pick(ALL)
      local x = g.rand(r, dt, { n }, "any")
      -- repeats: copy earlier elements into later places
      for i = 2, n do if r.chance(0.4) then x.values[i] = x.values[r.range(1, i - 1)] end end
      if r.chance(0.05) then x = g.rand(r, dt, { 2, 2 }, "any") end -- not a vector
      return { inputs = { x }, attrs = { out = r.pick({ "int32", "int64" }) } }
    end,
    call = function(a, x) return tf.unique(x, tf[a.out]) end,
  },
  {
    name = "searchsorted", ops = { "LowerBound", "UpperBound" },
    gen = function(r, g)
      local dt = r.pick(gen.NUMERIC)
      local lead = r.chance(0.5) and {} or { r.range(1, 3) }
      -- (not 0: TF's reshape to [-1, 0] refuses an empty tensor, moonflow's
      -- Reshape does not yet; a difference of Reshape's, not of these ops)
      local n, m = r.range(1, 5), r.range(1, 4)
      local seq_shape, val_shape = g.copy(lead), g.copy(lead)
      seq_shape[#seq_shape + 1], val_shape[#val_shape + 1] = n, m
      local seq = g.rand(r, dt, seq_shape, "finite")
      for row = 0, (n > 0 and #seq.values // n or 0) - 1 do
        local part = {}
        for k = 1, n do part[k] = seq.values[row * n + k] end
        table.sort(part)
        for k = 1, n do seq.values[row * n + k] = part[k] end
      end
      local vals = g.rand(r, dt, val_shape, "finite")
      -- values equal to sequence elements: where the sides differ
      for i = 1, #vals.values do
        if #seq.values > 0 and r.chance(0.4) then vals.values[i] = seq.values[r.range(1, #seq.values)] end
      end
      return { inputs = { seq, vals }, attrs = { side = r.pick({ "left", "right" }), out = r.pick({ "int32", "int64" }),
        op = "searchsorted" } }
    end,
    call = function(a, s, v) return tf.searchsorted(s, v, a.side, tf[a.out]) end,
  },
  {
    name = "segment_sum", ops = { "SegmentSum" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.4)
      local n = r.range(0, 6)
      local shape = { n }
      for _ = 1, r.range(0, 2) do shape[#shape + 1] = r.range(0, 3) end
      local ids, cur = {}, r.range(0, 2)
      for i = 1, n do
        ids[i] = cur
        if r.chance(0.5) then cur = cur + r.range(1, 2) end
      end
      if n > 1 and r.chance(0.05) then ids[1], ids[n] = ids[n] + 1, ids[1] end -- not increasing
      if n > 0 and r.chance(0.03) then ids[1] = -1 end
      return { inputs = { data(r, g, shape, grad, gen.NUMERIC), g.T(r.pick(gen.INTS), { n }, ids) }, grad = grad }
    end,
    call = function(_, x, ids) return tf.math.segment_sum(x, ids) end,
    grad = { 1 },
  },
  {
    name = "bincount", ops = { "Bincount" },
    gen = function(r, g)
      local shape = g.shape(r, r.range(0, 2), 5, false)
      local arr = {}
      for i = 1, g.size(shape) do arr[i] = r.chance(0.02) and -1 or r.range(0, 6) end
      local a = { minlength = r.chance(0.3) and r.range(0, 9) or nil, maxlength = r.chance(0.3) and r.range(0, 5) or nil }
      local inputs = { g.T("int32", shape, arr) }
      if r.chance(0.4) then
        inputs[2] = g.rand(r, r.pick(gen.NUMERIC), shape, "finite")
      else
        a.dtype = r.pick({ "int32", "int64", "float32" })
      end
      return { inputs = inputs, attrs = a }
    end,
    call = function(a, arr, w)
      return tf.math.bincount(arr, w, a.minlength, a.maxlength, a.dtype and tf[a.dtype])
    end,
  },
  {
    name = "meshgrid", ops = { "Reshape", "Mul" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.4)
      local dt = grad and "float64" or r.pick(gen.NUMERIC)
      local inputs = {}
      for i = 1, r.range(2, 3) do inputs[i] = g.rand(r, dt, { r.range(grad and 1 or 0, 4) }, grad and "smooth" or "any") end
      return { inputs = inputs, attrs = { indexing = r.pick({ "xy", "ij" }) }, grad = grad }
    end,
    call = function(a, ...)
      local args = table.pack(...)
      args[args.n + 1] = { indexing = a.indexing }
      return { tf.meshgrid(table.unpack(args, 1, args.n + 1)) }
    end,
    grad = "all",
  },
  {
    name = "repeat", ops = { "Tile", "Reshape" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.4)
      local rank = r.range(1, 3)
      local shape = g.shape(r, rank, 3, false)
      local axis = r.chance(0.2) and nil or r.range(-rank, rank - 1)
      local reps
      if r.chance(0.4) then
        reps = r.range(0, 3)
      else
        local n = axis == nil and g.size(shape) or shape[axis % rank + 1]
        reps = {}
        for i = 1, n do reps[i] = r.range(0, 3) end
        if n == 1 then reps = reps[1] end
      end
      return { inputs = { data(r, g, shape, grad) }, attrs = { repeats = reps, axis = axis }, grad = grad }
    end,
    call = function(a, x) return tf["repeat"](x, a.repeats, a.axis) end,
    grad = { 1 },
  },
  {
    name = "add_n", ops = { "AddN" },
    gen = function(r, g)
      local grad = g.grad_case(r, 0.4)
      local shape = g.shape(r, r.range(0, 3), 4, not grad)
      local dt = grad and "float64" or r.pick(gen.NUMERIC)
      local inputs = {}
      for i = 1, r.range(2, 4) do inputs[i] = g.rand(r, dt, shape, grad and "smooth" or "any") end
      if r.chance(0.05) then inputs[2] = g.rand(r, dt, { 7 }, "any") end -- another shape
      return { inputs = inputs, grad = grad }
    end,
    call = function(_, ...) return tf.add_n({ ... }) end,
    grad = "all",
  },
}
