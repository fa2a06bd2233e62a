-- linalg.lua — the linalg family (core/ops/ops_linalg.c): tf.matmul
-- (MatMul, or BatchMatMulV2 as TF's math_ops.matmul picks), and the
-- transposes of the last two dims TF's Python builds on Transpose:
-- tf.linalg.matrix_transpose and tf.linalg.adjoint; and TF's composite
-- norms (linalg_ops.norm, clip_ops.clip_by_norm), built of reductions and
-- elementwise ops as TF builds them, so their gradients are those ops'
-- (tf.norm's at 0 is nan, as TF's).

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local options = require("moonflow.options")
local shapes = require("moonflow.tensor.shape")
local common = require("moonflow.ops.common")
local core_ops = require("moonflow.ops.core")
local elementwise = require("moonflow.ops.elementwise")
local generate = require("moonflow.ops.generate")
local shape_ops = require("moonflow.ops.shape")
local reduce = require("moonflow.ops.reduce")
local lapack = require("moonflow.ops.lapack")
local name_scopes = require("moonflow.trace.name_scope")
local raise = errors.raise

local H = state.H
local binary = core.binary
local to_tensor = core_ops.to_tensor
local rank_of = shapes.rank
local name_scope = name_scopes.name_scope

local M = {}

-- TF's adjoint_a / adjoint_b: the conjugate transpose, which for
-- moonflow's real dtypes is the transpose; asking for both is TF's error.
local function adjoint_or_transpose(opts, x)
  local t, adj = opts["transpose_" .. x], opts["adjoint_" .. x]
  if t and adj then
    raise("ValueError", ("Only one of `transpose_%s` and `adjoint_%s` can be True. Received `transpose_%s`=True, "
      .. "`adjoint_%s`=True."):format(x, x, x, x), 4)
  end
  return (t or adj) and true or false
end

M.matmul = common.op_def("MatMul", function(a, b, opts)
  a, b = to_tensor(a), to_tensor(b)
  local ta, tb = adjoint_or_transpose(opts, "a"), adjoint_or_transpose(opts, "b")
  local ra, rb = rank_of(a), rank_of(b)
  -- TF's matmul: BatchMatMul unless both ranks are known and at most 2.
  if not ra or not rb or ra > 2 or rb > 2 then
    return binary(H.BatchMatMulV2, a, b, { adj_x = ta, adj_y = tb, name = opts.name })
  end
  return binary(H.MatMul, a, b, { transpose_a = ta, transpose_b = tb, name = opts.name })
end, "tf.matmul(a, b [, {transpose_a=, transpose_b=, adjoint_a=, adjoint_b=, name=}])",
"OpenBLAS for floats; op BatchMatMulV2 when either has rank > 2. adjoint_a/adjoint_b are TF's "
.. "conjugate transposes, the transposes for real dtypes.",
{ required = 2, types = { transpose_a = "boolean", transpose_b = "boolean", adjoint_a = "boolean",
  adjoint_b = "boolean", name = "string" }, "transpose_a", "transpose_b", "adjoint_a", "adjoint_b", "name" })

-- transposes ---------------------------------------------------------------------

-- x with its last two dims swapped (TF's tf.linalg.matrix_transpose).
local function matrix_transpose(x, name)
  x = to_tensor(x)
  local r = rank_of(x)
  local perm
  if r then
    if r < 2 then
      raise("ValueError", ("Argument `a` should be a (batch) matrix with rank >= 2.  Received `a` = %s with shape: %s")
        :format(tostring(x), tostring(x.shape)), 3)
    end
    perm = {}
    for i = 0, r - 3 do perm[#perm + 1] = i end
    perm[#perm + 1], perm[#perm + 2] = r - 1, r - 2
  else
    local rk = shape_ops.rank(x)
    local i = generate.range(0, rk, 1)
    local last, before = elementwise.subtract(rk, 1), elementwise.subtract(rk, 2)
    perm = elementwise.where(elementwise.equal(i, last), before,
      elementwise.where(elementwise.equal(i, before), last, i))
  end
  return shape_ops.transpose(x, perm, { name = name })
end

M.matrix_transpose = options.def(function(a, conjugate, opts)
  local _ = conjugate -- real dtypes only: conjugation changes nothing
  return matrix_transpose(a, opts.name)
end, "tf.linalg.matrix_transpose(a [, conjugate])", "a with its last two dimensions swapped.",
{ required = 1, positional = { "conjugate" }, "name" })
M.adjoint = options.def(function(matrix, opts) return matrix_transpose(matrix, opts.name) end,
  "tf.linalg.adjoint(matrix)", "The conjugate transpose of the last two dims (the transpose for real dtypes).",
  { required = 1, "name" })

-- tf.norm ------------------------------------------------------------------

local INF = math.huge

-- Python's repr of the values TF's messages quote: 'fro', inf, [1, 2].
local function py_repr(v, seen)
  if type(v) == "string" then return "'" .. v .. "'" end
  if v == INF then return "inf" end
  if v == -INF then return "-inf" end
  if type(v) == "table" and getmetatable(v) == nil then
    seen = seen or {}
    if seen[v] then return "[...]" end -- Python's repr of a list inside itself
    seen[v] = true
    local parts = {}
    for i, x in ipairs(v) do parts[i] = py_repr(x, seen) end
    seen[v] = nil
    return "[" .. table.concat(parts, ", ") .. "]"
  end
  return tostring(v)
end
local function py_str(v)
  if type(v) == "string" then return v end
  return py_repr(v)
end

local AXIS_MSG = "'axis' must be None, an integer, or a tuple of 2 unique integers, got "

-- TF's checks of ord and axis (linalg_ops.norm): returns whether it is a
-- matrix norm and the axes reduced (nil: all).
local function norm_args(ord, axis)
  local is_list = type(axis) == "table" and getmetatable(axis) == nil
  if is_list and #axis == 2 then
    local a, b = axis[1], axis[2]
    if math.type(a) ~= "integer" or math.type(b) ~= "integer" or a == b then
      raise("ValueError", AXIS_MSG .. "(" .. py_repr(a) .. ", " .. py_repr(b) .. ")", 4)
    end
    if not (ord == "euclidean" or ord == "fro" or ord == 1 or ord == 2 or ord == INF) then
      raise("ValueError", "'ord' must be a supported matrix norm in ['euclidean', 'fro', 1, 2, inf], got "
        .. py_str(ord), 4)
    end
    return true, { a, b }
  end
  if axis ~= nil and math.type(axis) ~= "integer" then
    raise("ValueError", AXIS_MSG .. py_repr(axis), 4)
  end
  if not (ord == "euclidean" or (type(ord) == "number" and ord > 0)) then
    raise("ValueError", "'ord' must be a supported vector norm, got " .. py_str(ord), 4)
  end
  return false, axis ~= nil and { axis } or nil
end

-- The matrix 2-norm, the largest singular value, as linalg_ops.norm
-- computes it: the two axes moved last, Svd without vectors, its maximum
-- with both axes kept, moved back.
local function matrix_2_norm(x, axes)
  local r = rank_of(x)
  if not r then
    raise("ValueError", "tf.norm: the matrix 2-norm needs a tensor of known rank", 5)
  end
  local a, b = axes[1] < 0 and axes[1] + r or axes[1], axes[2] < 0 and axes[2] + r or axes[2]
  local before = {}
  for i = 0, r - 1 do
    if i ~= a and i ~= b then before[#before + 1] = i end
  end
  before[#before + 1], before[#before + 2] = a, b
  local after = {}
  for i, p in ipairs(before) do after[p + 1] = i - 1 end
  local s = lapack.svd(shape_ops.transpose(x, before), false, false)
  local m = reduce.reduce_max(elementwise.abs(s), -1, true)
  return shape_ops.transpose(shape_ops.expand_dims(m, -1), after)
end

-- The norm with every reduced axis kept (size 1), as TF computes it.
local function norm_kept(x, ord, matrix, axes)
  if ord == "euclidean" or ord == "fro" or ord == 2 then
    if matrix and ord == 2 then return matrix_2_norm(x, axes) end
    return elementwise.sqrt(reduce.reduce_sum(elementwise.multiply(x, x), axes, true))
  end
  local a = elementwise.abs(x)
  if ord == 1 then
    local r = reduce.reduce_sum(a, axes and axes[1] or nil, true)
    if matrix then r = reduce.reduce_max(r, axes[2], true) end
    return r
  end
  if ord == INF then
    if matrix then a = reduce.reduce_sum(a, axes[2], true) end
    return reduce.reduce_max(a, axes and axes[1] or nil, true)
  end
  -- general p-norms (p > 0)
  local p = core_ops.constant(ord, core.dtype(x))
  return elementwise.pow(reduce.reduce_sum(elementwise.pow(a, p), axes, true),
    elementwise.divide(core_ops.constant(1.0, core.dtype(x)), p))
end

M.norm = options.def(function(tensor, ord, axis, keepdims, opts)
  if ord == nil then ord = "euclidean" end
  local matrix, axes = norm_args(ord, axis)
  local scope <close> = name_scope(opts.name or "norm")
  local x = to_tensor(tensor)
  local r = norm_kept(x, ord, matrix, axes)
  if not keepdims then r = shape_ops.squeeze(r, axes) end
  return r
end, "tf.norm(tensor [, ord] [, axis] [, keepdims] [, {name=}])",
"TF's vector and matrix norms. ord: 'euclidean' (default), 'fro', 1, 2, math.huge (inf) or any p > 0 "
.. "for vectors; axis: nil (the whole tensor as a vector), an integer (vectors along it) or a pair {a, b} "
.. "(matrices over those two axes: 'fro'/'euclidean', 1, 2 (the largest singular value), math.huge); keepdims "
.. "keeps the reduced axes with size 1. Bad ord or axis is TF's ValueError. Built of Abs, Sum, Max, Sqrt, Pow "
.. "and Svd, so its gradient is theirs (nan at 0 for the euclidean norm, as TF's).",
{ required = 1, positional = { "ord", "axis", "keepdims" }, "name" })

-- TF's clip_ops.clip_by_norm: t * clip_norm / max(l2norm(t, axes), clip_norm),
-- with the two-tap where that keeps the gradient finite at t = 0.
M.clip_by_norm = options.def(function(t, clip_norm, axes, opts)
  local scope <close> = name_scope(opts.name or "clip_by_norm")
  local values = to_tensor(t)
  local dt = core.dtype(values)
  local l2sum = reduce.reduce_sum(elementwise.multiply(values, values), axes, true)
  local pred = elementwise.greater(l2sum, core_ops.constant(0, dt))
  local l2sum_safe = elementwise.where(pred, l2sum, generate.ones_like(l2sum))
  local l2norm = elementwise.where(pred, elementwise.sqrt(l2sum_safe), l2sum)
  local cn = to_tensor(clip_norm, dt)
  local intermediate = elementwise.multiply(values, cn)
  local vs, is = values.shape, intermediate.shape
  if not vs:is_compatible_with(is) then
    raise("ValueError", ("Shapes %s and %s are incompatible"):format(tostring(vs), tostring(is)), 2)
  end
  return core_ops.identity(elementwise.divide(intermediate, elementwise.maximum(l2norm, cn)))
end, "tf.clip_by_norm(t, clip_norm [, axes] [, {name=}])",
"t scaled so that its L2 norm (over axes, or the whole tensor) is at most clip_norm: t * clip_norm / "
.. "max(norm, clip_norm). clip_norm is a scalar (or broadcasts to the norm's shape without changing t's "
.. "shape: a shape change is TF's ValueError); the gradient at t = 0 is finite, as TF's.",
{ required = 2, positional = { "axes" }, "name" })

M.namespaces = {
  tf = { "matmul", "matrix_transpose", "norm", "clip_by_norm" },
  linalg = { "matmul", "matrix_transpose", "adjoint", "norm" },
}

return M
