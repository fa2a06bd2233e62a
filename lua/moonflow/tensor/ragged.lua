-- ragged.lua — tf.RaggedTensor: rows of different lengths, as TF keeps
-- them: a tensor of values (or another RaggedTensor, for more ragged
-- dimensions) and an int64 vector of row splits (row i is
-- values[splits[i]:splits[i+1]]). It is a composite of its component
-- tensors (flat values, then the row splits from the outermost): a
-- tf.func traces it by its RaggedTensorSpec and receives placeholders for
-- the components; a traced function returns it as its components (nest's
-- composite hook). Every computation on it is an op on the components, so
-- it works eagerly and traced alike.

local core = require("moonflow.core")
local doc = require("moonflow.doc")
local errors = require("moonflow.errors")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local state = require("moonflow.state")
local ops = require("moonflow.ops")
local ragged_math = require("moonflow.tensor.ragged_math")
local raise = errors.raise

local M = {}
local I64 = dtypes.int64

local RT = { __name = "RaggedTensor" }
local handlers = { metatable = RT } -- state.ragged (tensor/dispatch.lua)

local function is_ragged(x) return getmetatable(x) == RT end
M.is_ragged = is_ragged

-- The receiver of a method or metamethod must be a RaggedTensor.
local function check(rt, what)
  if getmetatable(rt) ~= RT then
    raise("TypeError", ("%s needs a tf.RaggedTensor, got %s"):format(what, type(rt)), 3)
  end
  return rt
end

local function new(values, row_splits)
  return setmetatable({ _values = values, _row_splits = row_splits }, RT)
end

local function info(t)
  local symbolic, dtype, shape = core.info(t)
  return symbolic, dtype, shape
end

local function static_len(t)
  local _, _, shape = info(t)
  return shape and shape[1] or -1
end

local function eager(t) return core.is_tensor(t) and not core.is_symbolic(t) end

local function int64(x)
  local t = ops.convert_to_tensor(x)
  if core.dtype(t) ~= I64 then t = ops.cast(t, I64) end
  return t
end

local function flat_values(rt)
  while is_ragged(rt) do rt = rt._values end
  return rt
end

local function ragged_rank(rt)
  local n = 0
  while is_ragged(rt) do rt, n = rt._values, n + 1 end
  return n
end

local function nested_splits(rt)
  local out = {}
  while is_ragged(rt) do
    out[#out + 1] = rt._row_splits
    rt = rt._values
  end
  return out
end

-- Row counts and lengths -------------------------------------------------

local function vec(n) return ops.constant({ n }, I64) end

local function nrows(rt) return ops.subtract(ops.size(rt._row_splits, I64), 1) end

local function nvals(v)
  if is_ragged(v) then return nrows(v) end
  return ops.gather(ops.shape(v, I64), 0)
end

local function row_lengths(rt)
  local s = rt._row_splits
  local n = nrows(rt)
  return ops.subtract(ops.slice(s, vec(1), ops.reshape(n, { 1 })), ops.slice(s, vec(0), ops.reshape(n, { 1 })))
end

local function last(s) return ops.gather(s, ops.subtract(ops.size(s, I64), 1)) end

local function value_rowids(rt)
  local s = rt._row_splits
  local tail = ops.slice(s, vec(1), ops.reshape(nrows(rt), { 1 }))
  return ops.searchsorted(tail, ops.range(last(s), nil, nil, I64), "right", I64)
end

-- Validation (eager; TF's assertions of ragged_tensor.py) ---------------

local function invalid(factory, what, level)
  raise("InvalidArgumentError", ("Arguments to %s do not form a valid RaggedTensor:%s"):format(factory, what),
    level + 1)
end

-- Row splits, lengths and value row ids are vectors: TF's ValueError.
local function check_vector(t, level)
  local _, _, shape = info(t)
  if shape and #shape ~= 1 then
    raise("ValueError", ("Shape %s must have rank 1"):format(tostring(shapes.TensorShape(shape))), level + 1)
  end
end

local function check_splits(splits, n_values, factory, level)
  check_vector(splits, level + 1)
  if not eager(splits) or (n_values ~= nil and not eager(n_values)) then return end
  local s = core.numpy(splits)
  if #s == 0 or s[1] ~= 0 then invalid(factory, "zero", level + 1) end
  for i = 2, #s do
    if s[i] < s[i - 1] then invalid(factory, "monotonic", level + 1) end
  end
  if n_values ~= nil and s[#s] ~= core.numpy(n_values) then
    raise("InvalidArgumentError", "Arguments to _from_row_partition do not form a valid RaggedTensor",
      level + 1)
  end
end

local function values_arg(values)
  if is_ragged(values) then return values end
  local t = ops.convert_to_tensor(values)
  local _, _, shape = info(t)
  if shape and #shape == 0 then raise("ValueError", "values must have rank >= 1, got a scalar", 4) end
  return t
end

-- Factories ----------------------------------------------------------------

local function from_row_splits(values, row_splits, validate)
  values = values_arg(values)
  row_splits = int64(row_splits)
  if validate ~= false then check_splits(row_splits, nvals(values), "from_row_splits", 3) end
  return new(values, row_splits)
end

local function from_row_lengths(values, row_lengths_, validate)
  values = values_arg(values)
  local lengths = int64(row_lengths_)
  check_vector(lengths, 3)
  if validate ~= false and eager(lengths) then
    for _, l in ipairs(core.numpy(lengths)) do
      if l < 0 then invalid("from_row_lengths", "negative", 2) end
    end
  end
  local splits = ops.concat({ ops.constant({ 0 }, I64), ops.math.cumsum(lengths) }, 0)
  if validate ~= false then check_splits(splits, nvals(values), "from_row_lengths", 2) end
  return new(values, splits)
end

local function from_value_rowids(values, value_rowids_, nrows_, validate)
  values = values_arg(values)
  local ids = int64(value_rowids_)
  check_vector(ids, 3)
  if nrows_ == nil then
    local n = ops.size(ids, I64)
    nrows_ = ops.where(ops.greater(n, 0), ops.add(ops.reduce_max(ids), 1), ops.constant(0, I64))
  end
  local n = int64(nrows_)
  if validate ~= false and eager(ids) and eager(n) then
    local v, prev = core.numpy(ids), 0
    for _, id in ipairs(v) do
      if id < prev then invalid("from_value_rowids", "monotonic", 2) end
      if id >= core.numpy(n) then invalid("from_value_rowids", "nrows", 2) end
      prev = id
    end
  end
  local splits = ops.searchsorted(ids, ops.range(ops.add(n, 1), nil, nil, I64), "left", I64)
  if validate ~= false then check_splits(splits, nvals(values), "from_value_rowids", 2) end
  return new(values, splits)
end

-- Python's repr of a to_list() element -------------------------------------

local function float_text(v)
  if v ~= v then return "nan" end
  if v == math.huge then return "inf" end
  if v == -math.huge then return "-inf" end
  for p = 1, 17 do
    local s = ("%." .. p .. "g"):format(v)
    if tonumber(s) == v then
      local mant, exp = s:match("^(-?[%d.]+)e([-+]%d+)$")
      if mant then
        local e = tonumber(exp)
        if e >= -4 and e < 16 then s = ("%." .. math.max(0, p - 1 - e) .. "f"):format(v)
        else return mant .. "e" .. (e < 0 and "-" or "+") .. ("%02d"):format(math.abs(e)) end
      end
      if not s:find("[.e]") then s = s .. ".0" end
      return s
    end
  end
  return ("%.17g"):format(v)
end

local function bytes_text(s)
  local quote = (s:find("'", 1, true) and not s:find('"', 1, true)) and '"' or "'"
  local out = s:gsub("[%c\\'\"\128-\255]", function(ch)
    if ch == "\\" then return "\\\\" end
    if ch == quote then return "\\" .. quote end
    if ch == "'" or ch == '"' then return ch end
    if ch == "\n" then return "\\n" end
    if ch == "\t" then return "\\t" end
    if ch == "\r" then return "\\r" end
    return ("\\x%02x"):format(ch:byte())
  end)
  return "b" .. quote .. out .. quote
end

local function element_text(v)
  local tv = type(v)
  if tv == "table" then
    local parts = {}
    for i = 1, #v do parts[i] = element_text(v[i]) end
    return "[" .. table.concat(parts, ", ") .. "]"
  end
  if tv == "string" then return bytes_text(v) end
  if tv == "boolean" then return v and "True" or "False" end
  if math.type(v) == "integer" then return tostring(v) end
  return float_text(v)
end
M.element_text = element_text

-- Conversions --------------------------------------------------------------

local function to_list(rt)
  local flat = flat_values(rt)
  if not eager(flat) then
    raise("ValueError", "RaggedTensor.to_list() is only supported in eager mode.", 3)
  end
  local function rows(r)
    local inner = is_ragged(r._values) and rows(r._values) or core.numpy(r._values)
    if not is_ragged(r._values) and type(inner) ~= "table" then inner = { inner } end
    local s, out = core.numpy(r._row_splits), {}
    for i = 1, #s - 1 do
      local row = {}
      for j = s[i] + 1, s[i + 1] do row[#row + 1] = inner[j] end
      out[i] = row
    end
    return out
  end
  return rows(rt)
end

-- The dense tensor of a ragged-rank-1 tensor whose values are dense,
-- padded with `default` to the widest row, or to `shape` (rows and row
-- width; a longer row is cut).
local function dense_of(rt, default, shape)
  local values = rt._values
  local _, dtype, vshape = info(values)
  local ids = value_rowids(rt)
  local pos = ops.subtract(ops.range(nvals(values), nil, nil, I64), ops.gather(rt._row_splits, ids))
  local rows, width = nrows(rt), ops.maximum(ops.reduce_max(ops.concat({ ops.constant({ 0 }, I64),
    row_lengths(rt) }, 0)), ops.constant(0, I64))
  if shape and shape[1] ~= nil and shape[1] ~= shapes.None then rows = ops.constant(shape[1], I64) end
  if shape and shape[2] ~= nil and shape[2] ~= shapes.None then width = ops.constant(shape[2], I64) end
  if shape then
    local keep = ops.logical_and(ops.less(ids, rows), ops.less(pos, width))
    values, ids, pos = ops.boolean_mask(values, keep), ops.boolean_mask(ids, keep), ops.boolean_mask(pos, keep)
  end
  local dims = { ops.reshape(rows, { 1 }), ops.reshape(width, { 1 }) }
  for d = 2, #vshape do dims[#dims + 1] = ops.slice(ops.shape(values, I64), vec(d - 1), vec(1)) end
  if default == nil then default = dtype == dtypes.string and "" or (dtype == dtypes.bool and false or 0) end
  local fill = ops.fill(ops.concat(dims, 0), ops.cast(ops.convert_to_tensor(default), dtype))
  return ops.tensor_scatter_nd_update(fill, ops.stack({ ids, pos }, 1), values)
end

local function to_tensor(rt, default_value, shape)
  local values = rt._values
  if is_ragged(values) then values = to_tensor(values, default_value, nil) end
  local dims = shape and shapes.as_shape(shape):as_list() or nil
  return dense_of(new(values, rt._row_splits), default_value, dims)
end

-- Row selection: rows [a, b) of rt (a, b int64 scalars).
local function slice_values(v, a, b)
  if is_ragged(v) then
    local s = ops.slice(v._row_splits, ops.reshape(a, { 1 }), ops.reshape(ops.add(ops.subtract(b, a), 1), { 1 }))
    local lo, hi = ops.gather(s, 0), last(s)
    return new(slice_values(v._values, lo, hi), ops.subtract(s, lo))
  end
  local _, _, shape = info(v)
  local begin = { ops.reshape(a, { 1 }) }
  local size = { ops.reshape(ops.subtract(b, a), { 1 }) }
  for _ = 2, #shape do
    begin[#begin + 1] = ops.constant({ 0 }, I64)
    size[#size + 1] = ops.constant({ -1 }, I64)
  end
  return ops.slice(v, ops.concat(begin, 0), ops.concat(size, 0))
end

local function row(rt, i)
  local n = static_len(rt._row_splits) - 1
  if math.type(i) ~= "integer" then
    raise("TypeError", "a RaggedTensor is indexed by an integer row (0-based), got " .. tostring(i), 3)
  end
  if n >= 0 and (i >= n or i < -n) then
    raise("InvalidArgumentError", ("slice index %d of dimension 0 out of bounds."):format(i), 3)
  end
  local at = i
  if i < 0 then at = ops.add(nrows(rt), i) end
  local a = ops.gather(rt._row_splits, at)
  local b = ops.gather(rt._row_splits, ops.add(at, 1))
  return slice_values(rt._values, a, b)
end

-- Shape and spec -------------------------------------------------------------

local function shape_of(rt)
  local dims = { static_len(rt._row_splits) >= 0 and static_len(rt._row_splits) - 1 or shapes.None }
  local v = rt._values
  while is_ragged(v) do
    dims[#dims + 1] = shapes.None
    v = v._values
  end
  dims[#dims + 1] = shapes.None
  local _, _, vshape = info(v)
  for d = 2, #(vshape or {}) do dims[#dims + 1] = vshape[d] >= 0 and vshape[d] or shapes.None end
  return shapes.TensorShape(dims)
end

-- The spec is its own trace type (trace/trace_type.lua's interface): an
-- input_signature entry and a get_concrete_function argument alike.
local Spec = { kind = "ragged", __name = "RaggedTensorSpec", __tf_type_spec = true }
Spec.__index = Spec

local function new_spec(shape, dtype, rank, splits_dtype)
  return setmetatable({ shape = shapes.as_shape(shape), dtype = dtypes.as_dtype(dtype or dtypes.float32),
    ragged_rank = rank, row_splits_dtype = splits_dtype or I64 }, Spec)
end

function Spec:__tostring()
  return ("RaggedTensorSpec(%s, %s, %d, %s)"):format(getmetatable(self.shape).__repr(self.shape), tostring(self.dtype),
    self.ragged_rank, tostring(self.row_splits_dtype))
end

local function dims_fit(a, b)
  local x, y = a._dims, b._dims
  if y == nil then return true end
  if x == nil or #x ~= #y then return false end
  for i = 1, #y do
    if y[i] ~= shapes.None and x[i] ~= y[i] then return false end
  end
  return true
end

function Spec:is_subtype_of(o)
  return o.kind == "ragged" and o.dtype == self.dtype and o.ragged_rank == self.ragged_rank
    and o.row_splits_dtype == self.row_splits_dtype and dims_fit(self.shape, o.shape)
end

function Spec:supertype(o)
  if o.kind ~= "ragged" or o.dtype ~= self.dtype or o.ragged_rank ~= self.ragged_rank then return nil end
  local x, y = self.shape._dims, o.shape._dims
  if x == nil or y == nil or #x ~= #y then
    return new_spec(shapes.as_shape(nil), self.dtype, self.ragged_rank, self.row_splits_dtype)
  end
  local dims = {}
  for i = 1, #x do dims[i] = x[i] == y[i] and x[i] or shapes.None end
  return new_spec(dims, self.dtype, self.ragged_rank, self.row_splits_dtype)
end

function Spec:placeholder(name)
  -- An unknown rank leaves the values' rank unknown too.
  local dims = self.shape._dims
  local vdims = dims and { -1 } or nil
  for d = self.ragged_rank + 2, dims and #dims or 0 do
    vdims[#vdims + 1] = dims[d] == shapes.None and -1 or dims[d]
  end
  local v = core.placeholder(name .. "_flat_values", self.dtype, vdims)
  local splits = {}
  for k = 1, self.ragged_rank do
    local n = (k == 1 and dims and dims[1] ~= shapes.None) and dims[1] + 1 or -1
    splits[k] = core.placeholder(name .. "_row_splits_" .. k, I64, { n })
  end
  for k = self.ragged_rank, 1, -1 do v = new(v, splits[k]) end
  return v
end

function Spec:feeds(v, out)
  out[#out + 1] = flat_values(v)
  for _, s in ipairs(nested_splits(v)) do out[#out + 1] = s end
end

local function spec_of(rt)
  return new_spec(shape_of(rt), core.dtype(flat_values(rt)), ragged_rank(rt), I64)
end

function Spec:accepts(v)
  if getmetatable(v) == Spec then return v:is_subtype_of(self), tostring(v) end
  if core.is_tensor(v) then
    local _, dtype, shape = info(v)
    return false, tostring(shapes.TensorSpec(shape, dtype))
  end
  if is_ragged(v) and spec_of(v):is_subtype_of(self) then return true end
  return false, is_ragged(v) and tostring(spec_of(v)) or tostring(v)
end
Spec.__tf_trace_type = function(s) return s end

RT.__tf_trace_type = function(rt) return spec_of(check(rt, "__tf_trace_type")) end

-- A traced function's result: its component tensors, rebuilt after.
RT.__tf_composite = {
  components = function(rt)
    local parts = { flat_values(rt) }
    for _, s in ipairs(nested_splits(rt)) do parts[#parts + 1] = s end
    return parts
  end,
  rebuild = function(parts)
    local v = parts[1]
    for k = #parts, 2, -1 do v = new(v, parts[k]) end
    return v
  end,
  -- The RaggedTensorSpec of the components' TensorSpecs (a signature's output).
  spec_text = function(specs)
    local outer = specs[2].shape:as_list()[1]
    local dims = { outer ~= shapes.None and outer - 1 or shapes.None }
    for _ = 2, #specs do dims[#dims + 1] = shapes.None end
    local inner = specs[1].shape:as_list()
    for d = 2, #inner do dims[#dims + 1] = inner[d] end
    return tostring(new_spec(dims, specs[1].dtype, #specs - 1, I64))
  end,
}

-- Printing -------------------------------------------------------------------

function RT.__tostring(rt)
  check(rt, "tostring")
  local flat = flat_values(rt)
  if eager(flat) then return "<tf.RaggedTensor " .. element_text(to_list(rt)) .. ">" end
  return ("tf.RaggedTensor(values=%s, row_splits=%s)"):format(tostring(rt._values), tostring(rt._row_splits))
end
RT.__repr = RT.__tostring

-- Elementwise ops, concat ---------------------------------------------------

local function with_flat_values(rt, v)
  if is_ragged(rt._values) then return new(with_flat_values(rt._values, v), rt._row_splits) end
  return new(v, rt._row_splits)
end

handlers.from_row_splits = function(values, splits) return new(values, splits) end
handlers.with_values = function(rt, values) return new(values, rt._row_splits) end

local function map_flat_values(fn, rt) return with_flat_values(rt, fn(flat_values(rt))) end
handlers.map_flat_values = map_flat_values

-- Row splits a and b are equal: eagerly now, in a graph when it runs (as
-- TF's assert_equal).
local function splits_match(a, b, level)
  if eager(a) and eager(b) then
    local p, q = core.numpy(a), core.numpy(b)
    local same = #p == #q
    for k = 1, #p do same = same and p[k] == q[k] end
    if not same then raise("InvalidArgumentError", "Inputs must have identical ragged splits", level + 1) end
  elseif not rawequal(a, b) then
    core.op(state.H.Assert, { message = "Inputs must have identical ragged splits" },
      ops.reduce_all(ops.equal(a, b)))
  end
end

local function same_splits(x, y)
  local a, b = nested_splits(x), nested_splits(y)
  if #a ~= #b then
    raise("ValueError", ("Ragged ranks must match: %d vs. %d"):format(#a, #b), 4)
  end
  for i = 1, #a do splits_match(a[i], b[i], 4) end
end

handlers.binary = function(fn, x, y)
  if is_ragged(x) and is_ragged(y) then
    same_splits(x, y)
    return with_flat_values(x, fn(flat_values(x), flat_values(y)))
  end
  local r, other, left = x, y, true
  if not is_ragged(x) then r, other, left = y, x, false end
  local t = ops.convert_to_tensor(other, core.dtype(flat_values(r)))
  local _, _, shape = info(t)
  if shape == nil then
    raise("ValueError", "a dense operand of unknown rank cannot broadcast against a RaggedTensor", 4)
  end
  if #shape > 0 then return handlers.broadcast(fn, r, t, left, 4) end
  if left then return with_flat_values(r, fn(flat_values(r), t)) end
  return with_flat_values(r, fn(t, flat_values(r)))
end

-- A dense tensor of rank >= 2 as a RaggedTensor of uniform rows, ragged
-- in its first `ragged_rank` inner dimensions (default all but the last).
local function from_tensor(t, rank)
  local _, _, shape = info(t)
  rank = rank or #shape - 1
  if rank == 0 then return t end
  local n, w = ops.gather(ops.shape(t, I64), 0), ops.gather(ops.shape(t, I64), 1)
  local dims = { -1 }
  for d = 3, #shape do dims[#dims + 1] = shape[d] end
  local inner = from_tensor(ops.reshape(t, dims), rank - 1)
  return new(inner, ops.multiply(ops.range(ops.add(n, 1), nil, nil, I64), w))
end
handlers.from_tensor = function(t) return from_tensor(t) end

local function as_ragged(x)
  if is_ragged(x) then return x end
  local t = ops.convert_to_tensor(x)
  local _, _, shape = info(t)
  if not shape or #shape < 2 then raise("ValueError", "tf.concat: a dense input of a ragged concat must have "
    .. "rank >= 2", 5) end
  return from_tensor(t, 1)
end

local function concat_rows(list)
  local values, splits, offset = {}, {}, nil
  for i, r in ipairs(list) do
    values[i] = r._values
    local s = r._row_splits
    if offset == nil then
      splits[#splits + 1] = s
    else
      splits[#splits + 1] = ops.add(ops.slice(s, vec(1), vec(-1)), offset)
    end
    offset = offset and ops.add(last(s), offset) or last(s)
  end
  local v
  if is_ragged(values[1]) then v = concat_rows(values) else v = ops.concat(values, 0) end
  return new(v, ops.concat(splits, 0))
end

-- Axis 1: row i of the result is row i of each input, in order.
local function concat_columns(list)
  local lengths, values, pos = {}, {}, {}
  for i, r in ipairs(list) do lengths[i] = row_lengths(r) end
  local total = lengths[1]
  for i = 2, #lengths do total = ops.add(total, lengths[i]) end
  local splits = ops.concat({ ops.constant({ 0 }, I64), ops.math.cumsum(total) }, 0)
  local before = ops.zeros_like(total)
  for i, r in ipairs(list) do
    local rid = value_rowids(r)
    local p = ops.subtract(ops.range(nvals(r._values), nil, nil, I64), ops.gather(r._row_splits, rid))
    values[i] = r._values
    pos[i] = ops.add(ops.add(ops.gather(splits, rid), ops.gather(before, rid)), p)
    before = ops.add(before, lengths[i])
  end
  local target = ops.concat(pos, 0)
  local order = ops.argsort(target)
  local v = is_ragged(values[1]) and nil or ops.gather(ops.concat(values, 0), order)
  if v == nil then raise("ValueError", "moonflow's tf.concat(axis=1) takes ragged rank 1 inputs", 4) end
  return new(v, splits)
end

handlers.concat = function(values, axis)
  local list = {}
  for i, v in ipairs(values) do list[i] = as_ragged(v) end
  local _, _, vs = info(flat_values(list[1]))
  local rank = ragged_rank(list[1]) + #(vs or { 0 })
  for i = 2, #list do
    if core.dtype(flat_values(list[i])) ~= core.dtype(flat_values(list[1])) then
      raise("InvalidArgumentError", "tf.concat: ragged inputs must have one dtype", 3)
    end
  end
  local a = axis or 0
  if a < 0 then a = a + rank end
  if a == 0 then return concat_rows(list) end
  if a == 1 then
    local n = static_len(list[1]._row_splits)
    for i = 2, #list do
      local m = static_len(list[i]._row_splits)
      if n >= 0 and m >= 0 and n ~= m then
        raise("InvalidArgumentError", ("Input tensors at index 0 (=x) and %d (=y) must have the same number "
          .. "of rows: %d vs. %d"):format(i - 1, n - 1, m - 1), 3)
      end
    end
    return concat_columns(list)
  end
  raise("ValueError", ("moonflow's tf.concat joins ragged tensors along axis 0 or 1, got axis %d"):format(axis), 3)
end

-- The operators and fields ----------------------------------------------------

local function operator(name)
  return function(a, b) return ops[name](a, b) end
end
RT.__add = operator("add")
RT.__sub = operator("subtract")
RT.__mul = operator("multiply")
RT.__div = operator("divide")
RT.__idiv = operator("floordiv")
RT.__mod = operator("floormod")
RT.__pow = operator("pow")
RT.__unm = function(a) return ops.negative(a) end
-- tensor <op> RaggedTensor: the tensor's operator hands the call here
-- (lua/binding/fastpath.c), with its op handle and attributes.
RT.__tf_binary = function(h, attrs, a, b)
  return handlers.binary(function(x, y) return core.binary(h, x, y, attrs) end, a, b)
end

local methods = {}

methods.nrows = doc.def(function(rt) return nrows(check(rt, "rt:nrows()")) end, "rt:nrows()",
  "The number of rows, an int64 scalar.")
methods.row_lengths = doc.def(function(rt) return row_lengths(check(rt, "rt:row_lengths()")) end, "rt:row_lengths()",
  "The length of each row, an int64 vector.")
methods.value_rowids = doc.def(function(rt) return value_rowids(check(rt, "rt:value_rowids()")) end, "rt:value_rowids()",
  "The row of each value, an int64 vector.")
methods.to_tensor = doc.def(function(rt, default_value, shape)
  return to_tensor(check(rt, "rt:to_tensor()"), default_value, shape)
end,
  "rt:to_tensor([default_value] [, shape])",
  "The dense tensor: rows padded with default_value (zero, false or \"\") to the widest row, or to shape "
  .. "(its known dimensions cut or pad the rows and their length).")
methods.to_list = doc.def(function(rt) return to_list(check(rt, "rt:to_list()")) end, "rt:to_list()",
  "The nested Lua lists of the values (eager only).")
methods.with_flat_values = doc.def(function(rt, v) return with_flat_values(check(rt, "rt:with_flat_values()"), v) end,
  "rt:with_flat_values(new_values)", "The same row splits over new flat values.")
methods.numpy = methods.to_list

-- TF's methods moonflow lacks: a typed error naming the reason, never nil.
local LACKING = {
  to_sparse = "moonflow has no SparseTensor (README.md, \"Limits\")",
}

local fields = {
  values = function(rt) return rt._values end,
  row_splits = function(rt) return rt._row_splits end,
  flat_values = flat_values,
  nested_row_splits = nested_splits,
  dtype = function(rt) return core.dtype(flat_values(rt)) end,
  shape = shape_of,
  ragged_rank = ragged_rank,
  row_splits_dtype = function() return I64 end,
}

function RT.__index(rt, k)
  check(rt, "RaggedTensor's __index")
  if math.type(k) == "integer" then return row(rt, k) end
  local f = fields[k]
  if f then return f(rt) end
  local m = methods[k]
  if m then return m end
  if LACKING[k] then
    raise("AttributeError", ("'RaggedTensor' object has no attribute '%s': %s"):format(k, LACKING[k]), 2)
  end
  raise("AttributeError", ("'RaggedTensor' object has no attribute '%s'"):format(tostring(k)), 2)
end

function RT.__len(rt)
  check(rt, "#")
  local n = static_len(rt._row_splits)
  if n < 0 then raise("TypeError", "len() of a RaggedTensor whose row count is unknown", 2) end
  return n - 1
end

-- tf.ragged.constant -----------------------------------------------------------

-- The depth of the scalars in a nested Lua list (nil when it holds none),
-- and how deep its lists nest.
-- `open` holds the lists being walked: a list inside itself has no depth.
local function depth_of(v, open)
  if type(v) ~= "table" or getmetatable(v) ~= nil then return 0, 0 end
  open = open or {}
  if open[v] then raise("ValueError", "pylist contains itself: a nested list must be finite", 4) end
  open[v] = true
  local d, nest = nil, 1
  for i = 1, #v do
    local e, n = depth_of(v[i], open)
    if n + 1 > nest then nest = n + 1 end
    if e ~= nil then
      if d ~= nil and d ~= e + 1 then raise("ValueError", "all scalar values must have the same nesting depth", 4) end
      d = e + 1
    end
  end
  open[v] = nil
  return d, nest
end

-- inner_shape: a list of non-negative integers, as TF's tuple of ints.
local function check_inner_shape(inner_shape)
  if inner_shape == nil then return end
  local ok = type(inner_shape) == "table" and getmetatable(inner_shape) == nil
  for i = 1, ok and #inner_shape or 0 do
    ok = ok and math.type(inner_shape[i]) == "integer" and inner_shape[i] >= 0
  end
  if not ok then
    raise("TypeError", ("inner_shape must be a list of non-negative integers, got %s"):format(tostring(inner_shape)), 4)
  end
end

local function constant(pylist, dtype, rank, inner_shape)
  check_inner_shape(inner_shape)
  if rank ~= nil and math.type(rank) ~= "integer" then
    raise("TypeError", ("ragged_rank must be an integer, got %s"):format(tostring(rank)), 3)
  end
  local depth, nest = depth_of(pylist)
  local inner = inner_shape and #inner_shape or 0
  if depth == nil then depth = nest + inner end
  if rank == nil then rank = math.max(0, depth - 1 - inner) end
  if depth == 0 or rank == 0 then return ops.constant(pylist, dtype) end
  if rank >= depth then
    raise("ValueError", ("ragged_rank must be nonnegative and less than %d (the rank of pylist), got %d")
      :format(depth, rank), 3)
  end
  -- Flatten `rank` levels, recording the row splits of each.
  local levels, items = {}, pylist
  for k = 1, rank do
    local splits, next_items = { 0 }, {}
    for _, it in ipairs(items) do
      for i = 1, #it do next_items[#next_items + 1] = it[i] end
      splits[#splits + 1] = #next_items
    end
    levels[k] = splits
    items = next_items
  end
  local values
  if #items == 0 then
    local dims = { 0 }
    for _, d in ipairs(inner_shape or {}) do dims[#dims + 1] = d end
    for _ = #dims + 1, depth - rank do dims[#dims + 1] = 0 end
    values = ops.zeros(dims, dtype or dtypes.float32)
  else
    values = ops.constant(items, dtype)
  end
  for k = rank, 1, -1 do values = new(values, ops.constant(levels[k], I64)) end
  return values
end

-- Public -----------------------------------------------------------------------

-- tf.RaggedTensor, the class: its factories, and the instances' __index
-- (whose methods and fields the reference lists).
local RaggedTensor = { __index = RT.__index }
RaggedTensor.from_row_splits = doc.def(function(values, row_splits, opts)
  return from_row_splits(values, row_splits, type(opts) == "table" and opts.validate or nil)
end, "tf.RaggedTensor.from_row_splits(values, row_splits [, {validate=}])",
"A RaggedTensor whose row i is values[row_splits[i]:row_splits[i+1]]; row_splits starts at 0, never "
.. "decreases and ends at the number of values (InvalidArgumentError otherwise).")
RaggedTensor.from_row_lengths = doc.def(function(values, row_lengths_, opts)
  return from_row_lengths(values, row_lengths_, type(opts) == "table" and opts.validate or nil)
end, "tf.RaggedTensor.from_row_lengths(values, row_lengths [, {validate=}])",
"A RaggedTensor whose rows take row_lengths[i] values each, in order; the lengths add up to the number "
.. "of values.")
RaggedTensor.from_value_rowids = doc.def(function(values, value_rowids_, nrows_, opts)
  return from_value_rowids(values, value_rowids_, nrows_, type(opts) == "table" and opts.validate or nil)
end, "tf.RaggedTensor.from_value_rowids(values, value_rowids [, nrows] [, {validate=}])",
"A RaggedTensor putting values[j] in row value_rowids[j] (sorted, 0-based); nrows defaults to the last "
.. "row id + 1 (trailing empty rows need it).")
RaggedTensor.from_tensor = doc.def(function(tensor, opts)
  local t = ops.convert_to_tensor(tensor)
  local _, _, shape = info(t)
  if shape == nil or #shape < 2 then
    raise("ValueError", "tf.RaggedTensor.from_tensor: tensor must have rank >= 2", 2)
  end
  local rank = type(opts) == "table" and opts.ragged_rank or 1
  if rank < 1 or rank >= #shape then
    raise("ValueError", ("ragged_rank must be greater than 0 and less than %d; got %d"):format(#shape, rank), 2)
  end
  return from_tensor(t, rank)
end, "tf.RaggedTensor.from_tensor(tensor [, {ragged_rank=}])",
"The RaggedTensor of a dense tensor (rank >= 2): every row keeps its full length; ragged_rank (default 1) "
.. "says how many dimensions become ragged.")
RaggedTensor.from_nested_row_splits = doc.def(function(flat, nested)
  if type(nested) ~= "table" or getmetatable(nested) ~= nil then
    raise("TypeError", "tf.RaggedTensor.from_nested_row_splits: nested_row_splits must be a Lua list of row "
      .. "splits, got " .. type(nested), 2)
  end
  local v = values_arg(flat)
  for k = #nested, 1, -1 do v = from_row_splits(v, nested[k]) end
  return v
end, "tf.RaggedTensor.from_nested_row_splits(flat_values, nested_row_splits)",
"A RaggedTensor of several ragged dimensions: the row splits listed from the outermost.")
setmetatable(RaggedTensor, { __tostring = function() return "<class 'tf.RaggedTensor'>" end,
  __name = "RaggedTensor class" })

M.RaggedTensor = RaggedTensor
-- TF's RaggedTensorSpec.__init__ checks.
local function spec_args(shape, ragged_rank_, row_splits_dtype)
  local s = shapes.as_shape(shape ~= shapes.None and shape or nil)
  local dims = s._dims
  if ragged_rank_ == nil then
    if dims == nil then
      raise("ValueError", ("Must specify ragged_rank or a shape with a known rank. Got None and %s"):format(
        tostring(s)), 4)
    end
    ragged_rank_ = #dims - 1
  end
  if math.type(ragged_rank_) ~= "integer" then
    raise("TypeError", ("Argument `ragged_rank` must be an int. Received %s."):format(tostring(ragged_rank_)), 4)
  end
  if ragged_rank_ < 0 then
    raise("ValueError", ("ragged_rank must be non-negative; got %d."):format(ragged_rank_), 4)
  end
  if dims ~= nil and ragged_rank_ >= #dims then
    raise("ValueError", ("Argument `ragged_rank` (%d) must be less than rank (%d)."):format(ragged_rank_, #dims), 4)
  end
  local sd = row_splits_dtype and dtypes.as_dtype(row_splits_dtype) or I64
  if sd ~= I64 and sd ~= dtypes.int32 then
    raise("ValueError", ("row_splits_dtype must be int32 or int64. Received %s."):format(tostring(sd)), 4)
  end
  return s, ragged_rank_, sd
end

M.RaggedTensorSpec = doc.def(function(shape, dtype, ragged_rank_, row_splits_dtype)
  if dtype ~= nil then dtype = dtypes.as_dtype(dtype) end
  local s, rank, sd = spec_args(shape, ragged_rank_, row_splits_dtype)
  return new_spec(s, dtype, rank, sd)
end, "tf.RaggedTensorSpec(shape [, dtype] [, ragged_rank] [, row_splits_dtype])",
"The type of a RaggedTensor (tf.func traces a RaggedTensor argument by it): shape with None for the ragged "
.. "dimensions, dtype (float32), ragged_rank (rank - 1), row_splits_dtype (int64).")

M.ragged = {
  map_flat_values = doc.def(function(op, rt, ...)
    if type(op) ~= "function" and not (getmetatable(op) or {}).__call then
      raise("TypeError", "tf.ragged.map_flat_values: op must be a function, got " .. type(op), 2)
    end
    local rest = table.pack(...)
    if not is_ragged(rt) then return op(rt, table.unpack(rest, 1, rest.n)) end
    return with_flat_values(rt, op(flat_values(rt), table.unpack(rest, 1, rest.n)))
  end, "tf.ragged.map_flat_values(op, rt, ...)",
  "rt with op applied to its flat values (the row splits stay): op(rt.flat_values, ...)."),
  constant = doc.def(function(pylist, dtype, ragged_rank_, inner_shape)
    if dtype ~= nil then dtype = dtypes.as_dtype(dtype) end
    return constant(pylist, dtype, ragged_rank_, inner_shape)
  end, "tf.ragged.constant(pylist [, dtype] [, ragged_rank] [, inner_shape])",
  "A RaggedTensor from nested Lua lists whose rows may differ in length; every scalar at one depth (ValueError "
  .. "otherwise); ragged_rank defaults to that depth - 1 (0 gives a tf.Tensor)."),
}

handlers.is_ragged = is_ragged
state.ragged = handlers

-- Reductions, broadcasting, tf.tile, tf.boolean_mask, tf.stack and
-- tf.ragged.range live in tensor/ragged_math.lua, built on these internals.
local rmath = ragged_math({
  new = new, is_ragged = is_ragged, flat_values = flat_values, nested_splits = nested_splits,
  ragged_rank = ragged_rank, value_rowids = value_rowids, row_lengths = row_lengths, nrows = nrows,
  nvals = nvals, with_flat_values = with_flat_values, map_flat_values = map_flat_values, last = last,
  vec = vec, info = info, eager = eager, static_len = static_len, shape_of = shape_of,
  splits_match = splits_match, from_tensor = from_tensor, concat = handlers.concat,
})

handlers.reduce = function(kind, rt, axis, keepdims) return rmath.reduce(kind, rt, axis, keepdims) end
handlers.broadcast = function(fn, r, t, left, level) return rmath.broadcast(fn, r, t, left, level + 1) end
handlers.tile = function(rt, multiples) return rmath.tile(rt, multiples) end
handlers.boolean_mask = function(data, mask, axis) return rmath.boolean_mask(data, mask, axis, 4) end
handlers.stack = function(values, axis) return rmath.stack(values, axis, 4) end

M.ragged.boolean_mask = doc.def(function(data, mask) return rmath.boolean_mask(data, mask, nil, 2) end,
  "tf.ragged.boolean_mask(data, mask)",
  "The values of data (a RaggedTensor or a tensor) where mask is true: a bool vector keeps whole rows; a "
  .. "RaggedTensor mask (or a dense one of rank >= 2) with data's outer row splits keeps values inside the "
  .. "rows, which shorten. A RaggedTensor results wherever data or mask is one.")
M.ragged.stack = doc.def(function(values, axis) return rmath.stack(values, axis, 2) end,
  "tf.ragged.stack(values [, axis])",
  "The tensors or RaggedTensors of `values` (one rank) stacked along a new axis (0-based, default 0) as a "
  .. "RaggedTensor: axis 0 makes each input one row (their lengths may differ); axis 1 puts the i-th rows "
  .. "of all inputs in row i.")
M.ragged.range = doc.def(function(starts, limits, deltas, dtype)
  return rmath.range(starts, limits, deltas, dtype, 2)
end, "tf.ragged.range(starts [, limits] [, deltas] [, dtype])",
"A RaggedTensor whose row i is tf.range(starts[i], limits[i], deltas[i]) (an empty row where that range is "
.. "empty); one argument gives the limits, from 0; scalars broadcast against vectors; deltas default to 1; "
.. "a zero delta is an InvalidArgumentError.")

M.internal = { is_ragged = true, element_text = true }

return M
