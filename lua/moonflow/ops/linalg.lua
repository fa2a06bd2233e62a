-- linalg.lua — the linalg family (core/ops/ops_linalg.c): tf.matmul
-- (MatMul, or BatchMatMulV2 as TF's math_ops.matmul picks), and the
-- transposes of the last two dims TF's Python builds on Transpose:
-- tf.linalg.matrix_transpose and tf.linalg.adjoint.

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
local raise = errors.raise

local H = state.H
local binary = core.binary
local to_tensor = core_ops.to_tensor
local rank_of = shapes.rank

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

M.namespaces = {
  tf = { "matmul", "matrix_transpose" },
  linalg = { "matmul", "matrix_transpose", "adjoint" },
}

return M
