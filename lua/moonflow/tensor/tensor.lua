-- tensor.lua — the face of a tensor in Lua: fields (shape, dtype, ndim),
-- methods, operators with broadcasting and Lua numbers on either side,
-- 0-based indexing and NumPy slice strings, and TF's printed formats.
-- The userdata and its metatable come from the C binding; the same
-- metatable serves eager and symbolic tensors.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local doc = require("moonflow.doc")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local ops = require("moonflow.ops")
local graphs = require("moonflow.trace.graph")
local receiver = require("moonflow.receiver")
local raise = errors.raise

local binary, op = core.binary, core.op

-- TF's _SLICE_TYPE_ERROR: the TypeError of an index that is none of these.
local SLICE_TYPE_ERROR = "Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and "
  .. "scalar tf.int32/tf.int64 tensors are valid indices"

-- Python's repr of the offending index, as TF's message shows it.
local function index_repr(k)
  if core.is_tensor(k) then
    local m = getmetatable(k)
    return m.__repr(k)
  end
  if type(k) == "string" then return "'" .. k .. "'" end
  return tostring(k)
end

local function bad_index(k, level)
  raise("TypeError", SLICE_TYPE_ERROR .. ", got " .. index_repr(k), level + 1)
end

-- Parses a NumPy slice string ("1:-1", ":, ::2", "..., 0", "None, :")
-- into strided_slice arguments. "" is Python's empty tuple, x[()]. A step
-- of 0 is left to the op, whose InvalidArgumentError TF raises too.
local function parse_slice(spec)
  local begin, end_, strides = {}, {}, {}
  local masks = { begin_mask = 0, end_mask = 0, ellipsis_mask = 0, new_axis_mask = 0, shrink_axis_mask = 0 }
  if spec:match("^%s*$") then return begin, end_, strides, masks end
  local k = 0
  local function int(s, what)
    local n = tonumber(s)
    local v = math.tointeger(n)
    if v == nil and n ~= nil then bad_index(n, 4) end
    if v == nil then raise("ValueError", ("bad %s '%s' in slice '%s'"):format(what, s, spec), 4) end
    return v
  end
  for part in (spec .. ","):gmatch("%s*([^,]*),") do
    part = part:match("^%s*(.-)%s*$")
    local bit = 1 << k
    if part == "..." then
      masks.ellipsis_mask = masks.ellipsis_mask | bit
      begin[#begin + 1], end_[#end_ + 1], strides[#strides + 1] = 0, 0, 1
    elseif part == "None" or part == "newaxis" or part == "tf.newaxis" then
      masks.new_axis_mask = masks.new_axis_mask | bit
      begin[#begin + 1], end_[#end_ + 1], strides[#strides + 1] = 0, 0, 1
    elseif part:find(":", 1, true) then
      local a, b, c = part:match("^([^:]*):([^:]*):?([^:]*)$")
      if a == nil then raise("ValueError", ("bad slice '%s'"):format(spec), 3) end
      if a == "" then masks.begin_mask = masks.begin_mask | bit end
      if b == "" then masks.end_mask = masks.end_mask | bit end
      begin[#begin + 1] = a ~= "" and int(a, "start") or 0
      end_[#end_ + 1] = b ~= "" and int(b, "stop") or 0
      strides[#strides + 1] = c ~= "" and int(c, "step") or 1
    elseif part ~= "" then
      local i = int(part, "index")
      masks.shrink_axis_mask = masks.shrink_axis_mask | bit
      begin[#begin + 1], end_[#end_ + 1], strides[#strides + 1] = i, i + 1, 1
    else
      raise("ValueError", ("empty index in slice '%s'"):format(spec), 3)
    end
    k = k + 1
  end
  return begin, end_, strides, masks
end

-- A string key is a slice when it could only be one (digits, `:`, `,`,
-- `...`, None); other strings are field names.
local function looks_like_slice(k)
  return k:find("^[%s%d%-:,%.]*$") ~= nil or k:find("[:,]") ~= nil or k:find("None", 1, true) ~= nil
    or k:find("newaxis", 1, true) ~= nil
end

local tensors = {}

local mt = core.tensor_metatable
local H = state.H
-- The metamethods are the binding's hot path and type their operands in
-- C; the methods check their receiver.
local methods = receiver.table({}, "tensor", "Tensor", core.is_tensor)

--- A tensor-like value (a table whose metatable has __tf_tensor, such as
--- a tf.Variable) as its tensor; anything else as it is.
local function value(x)
  if type(x) == "table" then
    local m = getmetatable(x)
    if m and m.__tf_tensor then return m.__tf_tensor(x) end
  end
  return x
end
tensors.value = value

local function symbolic_text(t)
  local _, dtype, shape, name = core.info(t)
  return ("Tensor(\"%s\", shape=%s, dtype=%s)"):format(name, tostring(shapes.TensorShape(shape)), dtype.name)
end
tensors.symbolic_text = symbolic_text

local function not_a_boolean(t, what, level)
  raise("TypeError", symbolic_text(t) .. " is a symbolic tensor: a traced tensor cannot be used "
    .. "as a Lua boolean (" .. what .. "). Use tf.cond / tf.where, or let AutoGraph convert the "
    .. "`if`/`while` (tf.func's default).", level + 1)
end

-- The Lua boolean of an elementwise comparison, for ==, <, <=.
local function truth(t, what)
  if core.is_symbolic(t) then not_a_boolean(t, what, 3) end
  local _, _, shape = core.info(t)
  local n = 1
  for _, d in ipairs(shape) do n = n * d end
  if n ~= 1 then
    raise("ValueError", "The truth value of a tensor with more than one element is ambiguous. "
      .. "Use tf.reduce_any or tf.reduce_all, or the elementwise tf.equal / tf.less.", 3)
  end
  return core.element(t, 0)
end

local function compare(opname, what)
  local h = H[opname]
  return function(a, b)
    a, b = value(a), value(b)
    for _, x in ipairs({ a, b }) do
      if core.is_symbolic(x) then not_a_boolean(x, "comparison " .. what, 2) end
    end
    return truth(binary(h, a, b), what)
  end
end

local ADD, SUB, MUL = H.AddV2, H.Sub, H.Mul
local FLOORDIV, FLOORMOD, POW, NEG = H.FloorDiv, H.FloorMod, H.Pow, H.Neg
local A_ADD, A_SUB, A_MUL = { name = "add" }, { name = "sub" }, { name = "mul" }
local A_FLOORDIV, A_MOD, A_POW = { name = "floordiv" }, { name = "mod" }, { name = "pow" }
local A_DIV, A_NEG = { name = "truediv" }, { name = "Neg" }

-- The binary operators are C functions (core.operator): an eager op is
-- then one call from the Lua operator to the kernel.
local operator = core.operator
mt.__add = operator(ADD, A_ADD)
mt.__sub = operator(SUB, A_SUB)
mt.__mul = operator(MUL, A_MUL)
mt.__div = function(a, b) return ops.true_divide(value(a), value(b), A_DIV) end
mt.__idiv = operator(FLOORDIV, A_FLOORDIV)
mt.__mod = operator(FLOORMOD, A_MOD)
mt.__pow = operator(POW, A_POW)
mt.__unm = function(a) return op(NEG, A_NEG, a) end
mt.__concat = mt.__add
mt.__eq = compare("Equal", "==")
mt.__lt = compare("Less", "<")
mt.__le = compare("LessEqual", "<=")
tensors.operators = {
  "__add", "__sub", "__mul", "__div", "__idiv", "__mod", "__pow", "__unm", "__concat",
  "__eq", "__lt", "__le",
}

mt.__len = function(t)
  local _, _, shape = core.info(t)
  if shape == nil then raise("TypeError", "len() of a tensor with unknown rank", 2) end
  if #shape == 0 then raise("TypeError", "Scalar tensor has no `len()`", 2) end
  if shape[1] < 0 then raise("TypeError", "len() of a tensor whose first dimension is unknown (None)", 2) end
  return shape[1]
end

mt.__tostring = function(t)
  if core.is_symbolic(t) then return symbolic_text(t) end
  return core.format(t, "str")
end

mt.__repr = function(t)
  if core.is_symbolic(t) then
    local _, dtype, shape, name = core.info(t)
    return ("<tf.Tensor '%s' shape=%s dtype=%s>"):format(name, tostring(shapes.TensorShape(shape)), dtype.name)
  end
  return core.format(t, "repr")
end

mt.__mimebundle = function(t)
  return { ["text/plain"] = mt.__repr(t), ["text/html"] = tensors.html(t) }
end

local SLICE_DTYPES = { nil, dtypes.int32, dtypes.int32, dtypes.int32 }

local SLICE_DTYPES_64 = { nil, dtypes.int64, dtypes.int64, dtypes.int64 }

local INDEX_DTYPES = { [dtypes.int32] = true, [dtypes.int64] = true }

local function boolean_mask(t, mask) return ops.boolean_mask(t, mask) end

-- x[i]: row i of axis 0, for a Lua integer or a scalar int32/int64 tensor.
-- TF's _check_index turns away other dtypes and vectors with its
-- TypeError; the index is packed as TF packs it (stack([i])), so a tensor
-- of higher rank reaches the op and its InvalidArgumentError.
local function index(t, i, level)
  if not core.is_tensor(i) then
    return op(H.StridedSlice, { begin_mask = 0, end_mask = 0, ellipsis_mask = 0, new_axis_mask = 0,
      shrink_axis_mask = 1, name = "strided_slice", _dtypes = SLICE_DTYPES }, t, { i }, { i + 1 }, { 1 })
  end
  local _, dtype, shape = core.info(i)
  if dtype == dtypes.bool then return boolean_mask(t, i) end
  if not INDEX_DTYPES[dtype] or (shape and #shape == 1) then bad_index(i, level + 1) end
  -- The bounds share the index tensor's dtype (an int64 index, int64 strides).
  local bounds = dtype == dtypes.int64 and SLICE_DTYPES_64 or SLICE_DTYPES
  return op(H.StridedSlice, { begin_mask = 0, end_mask = 0, ellipsis_mask = 0, new_axis_mask = 0,
    shrink_axis_mask = 1, name = "strided_slice", _dtypes = bounds }, t,
    ops.stack({ i }), ops.stack({ i + 1 }), { 1 })
end

local function slice(t, spec)
  local b, e, s, masks = parse_slice(spec)
  masks.name = "strided_slice"
  masks._dtypes = SLICE_DTYPES
  return op(H.StridedSlice, masks, t, b, e, s)
end

local NEW_AXIS = { begin_mask = 0, end_mask = 0, ellipsis_mask = 0, new_axis_mask = 1,
  shrink_axis_mask = 0, name = "strided_slice", _dtypes = SLICE_DTYPES }

--- TF's Tensor.__getitem__ for one Lua key: an integer or scalar int
--- tensor (a row), a bool tensor or Lua boolean (tf.boolean_mask, as TF
--- does for a bool index), tf.newaxis, or a NumPy slice string. Returns
--- nil for a string that is not a slice (a field name); anything else is
--- TF's TypeError. `level` points the error at the caller.
function tensors.getitem(t, k, level)
  level = (level or 1) + 1
  if math.type(k) == "integer" or core.is_tensor(k) then return index(t, k, level) end
  if type(k) == "boolean" then return boolean_mask(t, k) end
  if k == shapes.newaxis then return op(H.StridedSlice, NEW_AXIS, t, { 0 }, { 0 }, { 1 }) end
  if type(k) == "string" then
    if looks_like_slice(k) then return slice(t, k) end
    return nil
  end
  bad_index(k, level)
end

local fields = {
  shape = function(t)
    local _, _, shape = core.info(t)
    return shapes.TensorShape(shape)
  end,
  dtype = function(t) return core.dtype(t) end,
  ndim = function(t)
    local _, _, shape = core.info(t)
    return shape and #shape or nil
  end,
  name = function(t)
    local _, _, _, name = core.info(t)
    return name
  end,
  device = function() return "/job:localhost/replica:0/task:0/device:CPU:0" end,
  graph = function(t)
    if not core.is_symbolic(t) then return nil end
    local _, _, _, _, g = core.info(t)
    return graphs.wrap(g)
  end,
  op = function(t)
    if not core.is_symbolic(t) then return nil end
    local _, _, _, _, g, node = core.info(t)
    return graphs.wrap(g):_operation(node)
  end,
  value_index = function(t)
    local _, _, _, _, _, _, idx = core.info(t)
    return idx
  end,
}

-- Iterating a tensor walks axis 0, as TF eager does: `for row in t do`
-- (the generic for calls the tensor: __call) and ipairs(t), which gives
-- row k-1 at Lua index k. A traced tensor whose first dimension is
-- unknown has no length to walk; AutoGraph's graph loop is the way.
local ipairs_step = ipairs({})
local row_of = setmetatable({}, { __mode = "k" }) -- row handed out -> {tensor, position}

local function row_count(t, how)
  local _, _, shape = core.info(t)
  if shape == nil or #shape == 0 then
    raise("TypeError", ("%s: cannot iterate over a %s tensor"):format(how,
      shape == nil and "unknown-rank" or "scalar"), 3)
  end
  if shape[1] < 0 then
    raise("TypeError", ("%s: cannot iterate over a traced tensor whose first dimension is unknown "
      .. "(None): its length is only known when the graph runs. Inside tf.func iterate with "
      .. "`for ... in x` (`for row in x do`) or `for i in tf.range(tf.shape(x)[0]) do`: AutoGraph "
      .. "makes them a graph loop"):format(how), 3)
  end
  return shape[1]
end

mt.__call = function(t, state, control)
  if state ~= nil then raise("TypeError", "'tf.Tensor' object is not callable", 2) end
  local k = 0
  local prev = control ~= nil and row_of[control]
  if prev and prev[1] == t then k = prev[2] + 1 end
  if k >= row_count(t, "for ... in x") then return nil end
  local row = index(t, k, 2)
  row_of[row] = { t, k }
  return row
end

mt.__index = function(t, k)
  local m = methods[k]
  if m then return m end
  local f = fields[k]
  if f then return f(t) end
  if math.type(k) == "integer" and debug.getinfo(2, "f").func == ipairs_step then
    if k > row_count(t, "ipairs(x)") then return nil end
    return index(t, k - 1, 2)
  end
  local r = tensors.getitem(t, k, 2)
  if r ~= nil then return r end
  -- A string that is neither a field nor a slice: Python's AttributeError
  -- of t.name (x[:2].assign(...) on a tensor is TF's example).
  return receiver.missing(t, k, core.is_symbolic(t) and "SymbolicTensor" or "EagerTensor",
    { methods, fields }, nil, 2)
end

mt.__newindex = function()
  raise("TypeError", "'tf.Tensor' object does not support item assignment: tensors are "
    .. "immutable; use tf.Variable for state", 2)
end

methods.numpy = doc.def(function(t) return core.numpy(t) end, "x:numpy()",
  "The value as Lua data: a number, boolean or string for a scalar, nested 1-based tables otherwise.")
methods.get_shape = doc.def(function(t) return fields.shape(t) end, "x:get_shape()", "Same as x.shape.")
for name, fn in pairs({ lt = "less", le = "less_equal", gt = "greater", ge = "greater_equal",
  eq = "equal", ne = "not_equal" }) do
  methods[name] = doc.def(function(a, b) return ops[fn](a, b) end, "x:" .. name .. "(y)",
    "Elementwise tf." .. fn .. "(x, y): a bool tensor.")
end

-- text/html for notebooks: a table with the shape and dtype.
local function html_escape(s)
  return (tostring(s):gsub("[&<>\"]", { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;" }))
end

function tensors.html(t)
  if core.is_symbolic(t) then return "<pre>" .. html_escape(mt.__repr(t)) .. "</pre>" end
  local _, dtype, shape = core.info(t)
  local head = ("<div><code>tf.Tensor</code> shape=%s dtype=%s</div>"):format(
    html_escape(tostring(shapes.TensorShape(shape))), dtype.name)
  if #shape > 2 or dtype == dtypes.resource then
    return head .. "<pre>" .. html_escape(core.format(t, "numpy")) .. "</pre>"
  end
  local rows = #shape == 0 and 1 or shape[1]
  local cols = #shape == 2 and shape[2] or (#shape == 1 and shape[1] or 1)
  if #shape == 1 then rows = 1 end
  local limit = 20
  local out = { head, '<table style="border-collapse:collapse">' }
  local function cell(i, j)
    local flat = #shape == 2 and i * cols + j or j
    local v = core.element(t, flat)
    -- a float as TF's repr prints the element (8.0, 0.1, 1e-08), not Lua's
    if dtype.is_floating then v = core.format(core.convert(v, dtype.name), "numpy_repr") end
    return "<td style=\"border:1px solid #ccc;padding:2px 6px;text-align:right\">" .. html_escape(v) .. "</td>"
  end
  local function indices(n)
    if n <= limit then
      local r = {}
      for i = 0, n - 1 do r[#r + 1] = i end
      return r
    end
    return { 0, 1, 2, false, n - 3, n - 2, n - 1 }
  end
  for _, i in ipairs(indices(rows)) do
    local tr = { "<tr>" }
    for _, j in ipairs(indices(cols)) do
      if i == false or j == false then tr[#tr + 1] = "<td>…</td>" else tr[#tr + 1] = cell(i, j) end
    end
    tr[#tr + 1] = "</tr>"
    out[#out + 1] = table.concat(tr)
  end
  out[#out + 1] = "</table>"
  return table.concat(out)
end

-- As TF's is_tensor, true for tf.Variables too (TF's variables are
-- tensors, core.Tensor): their metatable says so with __tf_is_tensor.
tensors.is_tensor = doc.def(function(x)
  if core.is_tensor(x) then return true end
  local m = type(x) == "table" and getmetatable(x)
  return type(m) == "table" and rawget(m, "__tf_is_tensor") == true
end, "tf.is_tensor(x)", "True when x is a tensor (eager or symbolic) or a tf.Variable, as in TF.")
tensors.is_symbolic_tensor = doc.def(function(x) return core.is_symbolic(x) end,
  "tf.is_symbolic_tensor(x)", "True when x is a symbolic tensor of a traced function.")
tensors.Tensor = mt

-- Library-internal (the other modules' view, not part of tf).
tensors.internal = { symbolic_text = true, value = true, operators = true, html = true, getitem = true,
  internal = true }

return tensors
