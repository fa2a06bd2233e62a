-- ragged_math.lua — math on tf.RaggedTensor as TF's ragged_math_ops.py and
-- ragged elementwise dispatch do it: the reductions (tf.reduce_sum, _mean,
-- _max, _min, _prod, _any, _all, tf.math.reduce_variance and _std over any
-- axis), the broadcasting of a dense
-- operand against a ragged one, tf.tile, tf.boolean_mask, tf.stack and
-- tf.ragged.range. Like the rest of
-- tensor/ragged.lua, every step is an op on the component tensors, so it
-- runs eagerly, traced and under a tape alike. tensor/ragged.lua passes
-- its internals in; this returns the functions ragged.lua's handlers and
-- tf.ragged names call, each taking the error level of its caller.
--
-- A reduction over a ragged axis is a segment reduction (TF's
-- unsorted_segment_<op>): Sum has its own op; Max, Min and Prod scatter each
-- segment into a row of a dense block padded with the op's identity, then
-- reduce the rows (the identity is what TF's kernels give an empty segment:
-- the dtype's lowest for Max, its highest for Min, 1 for Prod).

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local ops = require("moonflow.ops")
local raise = errors.raise

local I64 = dtypes.int64

return function(R)
  local out = {}
  local new, is_ragged, flat_values = R.new, R.is_ragged, R.flat_values
  local value_rowids, row_lengths, nrows, nvals = R.value_rowids, R.row_lengths, R.nrows, R.nvals
  local with_flat_values, last, vec, info = R.with_flat_values, R.last, R.vec, R.info

  local function zero_then(t) return ops.concat({ ops.constant({ 0 }, I64), t }, 0) end

  -- Reductions ---------------------------------------------------------------

  local DENSE = { Sum = "reduce_sum", Prod = "reduce_prod", Max = "reduce_max", Min = "reduce_min" }
  local function dense_reduce(kind, x, axis, keepdims) return ops[DENSE[kind]](x, axis, keepdims) end

  -- The value an empty segment reduces to, as TF's UnsortedSegment kernels.
  local function identity(kind, dtype)
    if kind == "Sum" then return 0 end
    if kind == "Prod" then return 1 end
    if dtype.is_floating and dtype.size == 8 then
      return kind == "Max" and -1.7976931348623157e308 or 1.7976931348623157e308
    end
    return kind == "Max" and dtype.min or dtype.max
  end

  -- out[j] = kind over data[i] with ids[i] == j, j < num (ids int64;
  -- `sorted` when ids never decrease).
  local function dense_segment(kind, data, ids, num, sorted)
    if kind == "Sum" then return ops.math.unsorted_segment_sum(data, ids, num) end
    local n = ops.size(ids, I64)
    local idx = ops.range(n, nil, nil, I64)
    if not sorted then
      -- ids * n + i orders by segment and keeps each segment's order.
      local order = ops.argsort(ops.add(ops.multiply(ids, n), idx))
      ids, data = ops.gather(ids, order), ops.gather(data, order)
    end
    local counts = ops.math.unsorted_segment_sum(ops.ones_like(ids), ids, num)
    local starts = ops.subtract(ops.math.cumsum(counts), counts)
    local pos = ops.subtract(idx, ops.gather(starts, ids))
    local width = ops.reduce_max(zero_then(counts))
    local dims = ops.concat({ ops.reshape(num, { 1 }), ops.reshape(width, { 1 }),
      ops.slice(ops.shape(data, I64), vec(1), vec(-1)) }, 0)
    local dtype = core.dtype(data)
    local block = ops.fill(dims, ops.constant(identity(kind, dtype), dtype))
    block = ops.tensor_scatter_nd_update(block, ops.stack({ ids, pos }, 1), data)
    return dense_reduce(kind, block, 1)
  end

  -- TF's _ragged_segment_aggregate: rows of a ragged `data` in one segment
  -- combine position by position (the output row is the longest of them).
  local function segment(kind, data, ids, num, sorted)
    if not is_ragged(data) then return dense_segment(kind, data, ids, num, sorted) end
    local out_lengths = ops.maximum(dense_segment("Max", row_lengths(data), ids, num, sorted), 0)
    local out_splits = zero_then(ops.math.cumsum(out_lengths))
    local rid = value_rowids(data)
    local within = ops.subtract(ops.range(nvals(data._values), nil, nil, I64), ops.gather(data._row_splits, rid))
    local to = ops.add(ops.gather(ops.gather(out_splits, ids), rid), within)
    return new(segment(kind, data._values, to, last(out_splits), false), out_splits)
  end

  -- keepdims: a dimension of 1 at axis 0 or 1.
  local function expand(x, axis)
    if not is_ragged(x) then return ops.expand_dims(x, axis) end
    if axis == 0 then return new(x, zero_then(ops.reshape(nrows(x), { 1 }))) end
    return new(x, ops.range(ops.add(nrows(x), 1), nil, nil, I64))
  end

  local function reduce_axis(kind, rt, axis, keepdims)
    if not is_ragged(rt) then return dense_reduce(kind, rt, axis, keepdims) end
    local out
    if axis == 0 then
      -- out[j] combines the j-th value of every row.
      local rid = value_rowids(rt)
      local ids = ops.subtract(ops.range(nvals(rt._values), nil, nil, I64), ops.gather(rt._row_splits, rid))
      out = segment(kind, rt._values, ids, ops.reduce_max(zero_then(row_lengths(rt))), false)
    elseif axis == 1 then
      out = segment(kind, rt._values, value_rowids(rt), nrows(rt), true)
    else
      return new(reduce_axis(kind, rt._values, axis - 1, keepdims), rt._row_splits)
    end
    return keepdims and expand(out, axis) or out
  end

  local PY_TYPE = { string = "str", boolean = "bool", table = "list", ["nil"] = "NoneType", number = "float" }

  -- TF's array_ops.get_positive_axis.
  local function positive_axis(a, ndims, name, level)
    if math.type(a) ~= "integer" then
      raise("TypeError", ("%s must be an int; got %s"):format(name, PY_TYPE[type(a)] or type(a)), level + 1)
    end
    if a >= 0 and a < ndims then return a end
    if a < 0 and a >= -ndims then return a + ndims end
    raise("ValueError", ("%s=%d out of bounds: expected %d<=%s<%d"):format(name, a, -ndims, name, ndims), level + 1)
  end

  local function rank_of(rt) return #R.shape_of(rt):as_list() end

  local reduce

  -- TF's ragged_reduce_aggregate for Sum, Prod, Max, Min.
  local function aggregate(kind, rt, axis, keepdims, level)
    if not is_ragged(rt) then return dense_reduce(kind, rt, axis, keepdims) end
    if axis == nil then
      local out = dense_reduce(kind, flat_values(rt), nil, keepdims)
      if keepdims then
        for _ = 1, R.ragged_rank(rt) do out = ops.expand_dims(out, 0) end
      end
      return out
    end
    if type(axis) == "table" and getmetatable(axis) == nil then
      if #axis == 0 then return rt end
      if #axis == 1 then return aggregate(kind, rt, axis[1], keepdims, level + 1) end
      local ndims, list = rank_of(rt), {}
      for i, a in ipairs(axis) do list[i] = positive_axis(a, ndims, ("axis[%d]"):format(i - 1), level + 1) end
      table.sort(list)
      local inner = aggregate(kind, rt, list[#list], keepdims, level + 1)
      list[#list] = nil
      return aggregate(kind, inner, list, keepdims, level + 1)
    end
    return reduce_axis(kind, rt, positive_axis(axis, rank_of(rt), "axis", level + 1), keepdims)
  end

  local function as_int32(x) return R.map_flat_values(function(v) return ops.cast(v, dtypes.int32) end, x) end
  local function as_bool(x)
    if is_ragged(x) then return R.map_flat_values(function(v) return ops.cast(v, dtypes.bool) end, x) end
    return ops.cast(x, dtypes.bool)
  end

  reduce = function(kind, rt, axis, keepdims, level)
    if core.is_tensor(axis) then
      if core.is_symbolic(axis) then raise("ValueError", "axis must be known at graph construction time.", level) end
      axis = core.numpy(axis)
    end
    if kind == "Mean" then
      -- TF's ragged reduce_mean: sum / count, as truediv (integers average as float64).
      local total = aggregate("Sum", rt, axis, keepdims, level)
      local ones = R.map_flat_values(ops.ones_like, rt)
      local count = aggregate("Sum", ones, axis, keepdims, level)
      if is_ragged(total) then return with_flat_values(total, ops.divide(flat_values(total), flat_values(count))) end
      return ops.divide(total, count)
    end
    if kind == "Variance" then
      -- TF's ragged reduce_variance: mean(x^2) - mean(x)^2, clipped at 0.
      local mean_of_square = reduce("Mean", ops.square(rt), axis, keepdims, level)
      local mean = reduce("Mean", rt, axis, keepdims, level)
      return ops.maximum(ops.subtract(mean_of_square, ops.square(mean)), 0)
    end
    if kind == "Any" then return as_bool(aggregate("Sum", as_int32(rt), axis, keepdims, level)) end
    if kind == "All" then return as_bool(aggregate("Prod", as_int32(rt), axis, keepdims, level)) end
    return aggregate(kind, rt, axis, keepdims, level)
  end

  -- ops/reduce.lua hands a RaggedTensor here (the op's TF name as kind, or
  -- Variance).
  out.reduce = function(kind, rt, axis, keepdims) return reduce(kind, rt, axis, keepdims, 5) end

  -- Broadcasting a dense operand ---------------------------------------------

  local function broadcast_error(dim, level)
    raise("InvalidArgumentError", ("Unable to broadcast: dimension size mismatch in dimension=%d"):format(dim),
      level + 1)
  end

  -- The outermost row of each flat value.
  local function outer_rowids(rt)
    local ids = value_rowids(rt)
    local v = rt._values
    while is_ragged(v) do
      ids = ops.gather(ids, value_rowids(v))
      v = v._values
    end
    return ids
  end

  -- A dense `t` against ragged `rt`: the dense operand for rt's flat values,
  -- or nil when t has a size other than 1 in a ragged dimension (then it is
  -- compared as uniform rows).
  local function dense_operand(rt, t, level)
    local _, _, tshape = info(t)
    local rank, rrank = rank_of(rt), R.ragged_rank(rt)
    local inner = rank - 1 - rrank
    if #tshape > rank then
      raise("InvalidArgumentError", ("Incompatible shapes: %s vs. %s"):format(tostring(R.shape_of(rt)),
        tostring(shapes.TensorShape(tshape))), level + 1)
    end
    if #tshape <= inner then return t end
    -- t's dimensions aligned with rt's: lead (rows), then the ragged ones.
    local lead = #tshape - inner - rrank -- 1 when t has a rows dimension
    local first_ragged = math.max(1, lead + 1)
    for d = first_ragged, #tshape - inner do
      if tshape[d] ~= 1 then return nil end
    end
    local nrow_dim = lead == 1 and tshape[1] or 1
    if nrow_dim == 1 then return ops.reshape(t, ops.slice(ops.shape(t, I64), vec(#tshape - inner), vec(-1))) end
    local n = R.static_len(rt._row_splits) - 1
    if nrow_dim >= 0 and n >= 0 and nrow_dim ~= n then broadcast_error(0, level + 1) end
    local rows = ops.reshape(t, ops.concat({ ops.constant({ -1 }, I64),
      ops.slice(ops.shape(t, I64), vec(#tshape - inner), vec(-1)) }, 0))
    return ops.gather(rows, outer_rowids(rt))
  end

  -- Every row of rt has the length of t's dimension 1 (eager check; in a
  -- graph TF's assert runs with the op).
  local function uniform_rows(rt, t, level)
    local _, _, tshape = info(t)
    if #tshape ~= rank_of(rt) or R.ragged_rank(rt) ~= 1 then broadcast_error(1, level + 1) end
    local lengths = row_lengths(rt)
    local n = R.static_len(rt._row_splits) - 1
    if n >= 0 and tshape[1] >= 0 and tshape[1] ~= n then broadcast_error(0, level + 1) end
    if R.eager(lengths) then
      for _, l in ipairs(core.numpy(lengths)) do
        if l ~= tshape[2] then broadcast_error(1, level + 1) end
      end
    end
    local dims = { -1 }
    for d = 3, #tshape do dims[#dims + 1] = tshape[d] end
    return ops.reshape(t, dims)
  end

  -- fn over the flat values of ragged `r` and the dense `t` (r on the left
  -- when `left`).
  out.broadcast = function(fn, r, t, left, level)
    local d = dense_operand(r, t, level + 1) or uniform_rows(r, t, level + 1)
    local v = flat_values(r)
    if left then return with_flat_values(r, fn(v, d)) end
    return with_flat_values(r, fn(d, v))
  end

  -- tf.tile ---------------------------------------------------------------------

  -- The ranges [starts[i], starts[i] + length i) end to end, the lengths
  -- given by `splits` (their int64 positions, for a gather).
  local function spans(starts, splits)
    local rid = value_rowids({ _row_splits = splits })
    return ops.add(ops.gather(starts, rid), ops.subtract(ops.range(last(splits), nil, nil, I64),
      ops.gather(splits, rid)))
  end

  -- Rows `idx` (an int64 vector) of v, in that order.
  local function gather_rows(v, idx)
    if not is_ragged(v) then return ops.gather(v, idx) end
    local starts = ops.gather(v._row_splits, idx)
    local lengths = ops.subtract(ops.gather(v._row_splits, ops.add(idx, 1)), starts)
    local splits = zero_then(ops.math.cumsum(lengths))
    return new(gather_rows(v._values, spans(starts, splits)), splits)
  end

  -- Each element of the vector x, m times in a row.
  local function repeat_each(x, m)
    return ops.gather(x, ops.floordiv(ops.range(ops.multiply(ops.size(x, I64), m), nil, nil, I64), m))
  end

  -- mult: one int64 scalar per dimension of rt.
  local function tile(rt, mult)
    if not is_ragged(rt) then return ops.tile(rt, ops.cast(ops.stack(mult), dtypes.int32)) end
    -- Dimensions 2 and on are the values' (whose dimension 0 is rt's 1, flattened).
    local inner = { ops.constant(1, I64) }
    for k = 3, #mult do inner[#inner + 1] = mult[k] end
    local values = tile(rt._values, inner)
    -- Dimension 1: each row's values mult[2] times over.
    local lengths, n = row_lengths(rt), nrows(rt)
    local starts = repeat_each(ops.slice(rt._row_splits, vec(0), ops.reshape(n, { 1 })), mult[2])
    values = gather_rows(values, spans(starts, zero_then(ops.math.cumsum(repeat_each(lengths, mult[2])))))
    local out = new(values, zero_then(ops.math.cumsum(ops.multiply(lengths, mult[2]))))
    -- Dimension 0: the rows mult[1] times over.
    return gather_rows(out, ops.floormod(ops.range(ops.multiply(n, mult[1]), nil, nil, I64), n))
  end

  out.tile = function(rt, multiples)
    local m = ops.cast(ops.convert_to_tensor(multiples), I64)
    local _, _, shape = info(m)
    local rank = rank_of(rt)
    if #shape ~= 1 or (shape[1] >= 0 and shape[1] ~= rank) then
      raise("InvalidArgumentError", ("Expected multiples argument to be a vector of length %d but got length %s")
        :format(rank, #shape == 1 and tostring(shape[1]) or "a rank " .. #shape .. " tensor"), 4)
    end
    local mult = {}
    for k = 1, rank do mult[k] = ops.gather(m, k - 1) end
    return tile(rt, mult)
  end

  -- tf.boolean_mask / tf.ragged.boolean_mask -------------------------------------

  local function rank_any(x)
    if is_ragged(x) then return rank_of(x) end
    local _, _, shape = info(x)
    return shape and #shape or nil
  end

  local function keep_rows(data, keep)
    return gather_rows(data, ops.reshape(ops.where(keep), { -1 }))
  end

  -- data and mask ragged, mask's splits those of data's outer levels.
  local function masked(data, mask, level)
    R.splits_match(data._row_splits, mask._row_splits, level + 1)
    if is_ragged(mask._values) then return new(masked(data._values, mask._values, level), data._row_splits) end
    local keep = mask._values
    local counts = ops.math.unsorted_segment_sum(ops.cast(keep, I64), value_rowids(data), nrows(data))
    return new(keep_rows(data._values, keep), zero_then(ops.math.cumsum(counts)))
  end

  -- TF's ragged_array_ops.boolean_mask.
  local function boolean_mask(data, mask, level)
    if not is_ragged(data) then data = ops.convert_to_tensor(data) end
    if not is_ragged(mask) then mask = ops.convert_to_tensor(mask) end
    if core.dtype(flat_values(mask)) ~= dtypes.bool then
      raise("ValueError", "mask must have dtype bool.", level + 1)
    end
    local mrank, drank = rank_any(mask), rank_any(data)
    if mrank == nil then raise("ValueError", "mask.shape.ndims must be known statically.", level + 1) end
    if mrank == 0 then raise("ValueError", "mask cannot be scalar.", level + 1) end
    if drank ~= nil and mrank > drank then
      raise("ValueError", "mask.shape.ndims must be less than or equal to data.shape.ndims.", level + 1)
    end
    if not is_ragged(mask) then
      if mrank == 1 then
        if not is_ragged(data) then return ops.boolean_mask(data, mask) end
        return keep_rows(data, mask)
      end
      mask = R.from_tensor(mask, mrank - 1)
    end
    if not is_ragged(data) then data = R.from_tensor(data, R.ragged_rank(mask)) end
    return masked(data, mask, level + 1)
  end

  out.boolean_mask = function(data, mask, axis, level)
    if axis ~= nil and axis ~= 0 then
      raise("ValueError", "axis must be None or 0 for a RaggedTensor data or mask", level + 1)
    end
    return boolean_mask(data, mask, level + 1)
  end

  -- tf.stack / tf.ragged.stack -------------------------------------------------

  local function stack(values, axis, level)
    if type(values) ~= "table" or getmetatable(values) ~= nil or #values == 0 then
      raise("ValueError", "tf.ragged.stack: values must be a non-empty Lua list of tensors or RaggedTensors",
        level + 1)
    end
    local list, rank = {}, nil
    for i, v in ipairs(values) do
      list[i] = is_ragged(v) and v or ops.convert_to_tensor(v)
      local r = rank_any(list[i])
      if rank and r and r ~= rank then
        raise("ValueError", ("all inputs must have the same rank: %d vs. %d"):format(rank, r), level + 1)
      end
      rank = rank or r
    end
    axis = positive_axis(axis or 0, rank + 1, "axis", level + 1)
    local k = #list
    if axis == 0 then
      -- Each input becomes one row.
      local lens, joined = {}, nil
      if rank == 1 then
        for i, t in ipairs(list) do lens[i] = ops.size(t, I64) end
        joined = ops.concat(list, 0)
      else
        for i, r in ipairs(list) do lens[i] = is_ragged(r) and nrows(r) or nvals(r) end
        joined = R.concat(list, 0)
      end
      return new(joined, zero_then(ops.math.cumsum(ops.stack(lens))))
    end
    if rank == 1 then return R.from_tensor(ops.stack(list, 1), 1) end
    local n
    for i, r in ipairs(list) do
      local m = is_ragged(r) and nrows(r) or nvals(r)
      if n and R.eager(n) and R.eager(m) and core.numpy(n) ~= core.numpy(m) then
        raise("InvalidArgumentError", ("Input tensors at index 0 and %d must have the same number of rows")
          :format(i - 1), level + 1)
      end
      n = n or m
    end
    if axis == 1 then
      -- Row i is the i-th row of every input, in order.
      local joined = R.concat(list, 0)
      local order = ops.reshape(ops.transpose(ops.reshape(ops.range(ops.multiply(n, k), nil, nil, I64),
        ops.stack({ ops.constant(k, I64), n }))), { -1 })
      return new(gather_rows(joined, order), ops.multiply(ops.range(ops.add(n, 1), nil, nil, I64), k))
    end
    -- Deeper: the inputs share their outer row splits; stack their values.
    local first = is_ragged(list[1]) and list[1] or R.from_tensor(list[1], 1)
    local inner = {}
    for i, r in ipairs(list) do
      r = is_ragged(r) and r or R.from_tensor(r, 1)
      R.splits_match(first._row_splits, r._row_splits, level + 1)
      inner[i] = r._values
    end
    local v = is_ragged(inner[1]) and stack(inner, axis - 1, level + 1) or ops.stack(inner, axis - 1)
    return new(v, first._row_splits)
  end

  out.stack = function(values, axis, level) return stack(values, axis, level + 1) end

  -- tf.ragged.range ------------------------------------------------------------

  local function range_arg(x, dtype, what, level)
    local t = ops.convert_to_tensor(x, dtype)
    local _, _, shape = info(t)
    if #shape > 1 then
      raise("ValueError", ("%s must be rank 0 or 1, got shape %s"):format(what, tostring(shapes.TensorShape(shape))),
        level + 1)
    end
    return t
  end

  local function infer_dtype(xs)
    local dt = dtypes.int32
    for _, x in ipairs(xs) do
      local t = core.is_tensor(x) and x or ops.convert_to_tensor(x)
      local d = core.dtype(t)
      if d.is_floating or (d == I64 and not dt.is_floating) then dt = d end
    end
    return dt
  end

  local function ragged_range(starts, limits, deltas, dtype, level)
    if limits == nil then starts, limits = 0, starts end
    deltas = deltas == nil and 1 or deltas
    dtype = dtype and dtypes.as_dtype(dtype) or infer_dtype({ starts, limits, deltas })
    local s = range_arg(starts, dtype, "starts", level + 1)
    local l = range_arg(limits, dtype, "limits", level + 1)
    local d = range_arg(deltas, dtype, "deltas", level + 1)
    -- The arguments broadcast to one vector, as TF's RaggedRange kernel.
    local sizes = {}
    for i, t in ipairs({ s, l, d }) do
      local _, _, shape = info(t)
      sizes[i] = #shape == 1 and shape[1] or nil
    end
    local n
    for _, k in ipairs({ sizes[1], sizes[2], sizes[3] }) do
      if k and k >= 0 then
        if n and n ~= k then
          raise("InvalidArgumentError", "starts, limits, and deltas must have the same shape", level + 1)
        end
        n = n or k
      end
    end
    local vector = sizes[1] or sizes[2] or sizes[3]
    if vector then
      local like = sizes[1] and s or (sizes[2] and l or d)
      local z = ops.zeros_like(like)
      s, l, d = ops.add(z, s), ops.add(z, l), ops.add(z, d)
    else
      s, l, d = ops.reshape(s, { 1 }), ops.reshape(l, { 1 }), ops.reshape(d, { 1 })
    end
    if R.eager(d) then
      for _, v in ipairs(core.numpy(d)) do
        if v == 0 then raise("InvalidArgumentError", "Requires delta != 0", level + 1) end
      end
    end
    -- Row i has ceil((l - s) / d) values, none when that is negative.
    local df = dtype.is_floating and dtype or dtypes.float64
    local span = ops.divide(ops.cast(ops.subtract(l, s), df), ops.cast(d, df))
    local lengths = ops.cast(ops.maximum(ops.ceil(span), 0), I64)
    local splits = zero_then(ops.math.cumsum(lengths))
    local rid = value_rowids({ _row_splits = splits })
    local k = ops.cast(ops.subtract(ops.range(last(splits), nil, nil, I64), ops.gather(splits, rid)), dtype)
    return new(ops.add(ops.gather(s, rid), ops.multiply(k, ops.gather(d, rid))), splits)
  end

  out.range = function(starts, limits, deltas, dtype, level)
    return ragged_range(starts, limits, deltas, dtype, level + 1)
  end

  return out
end
