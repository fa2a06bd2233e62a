-- lapack.lua — the lapack family (core/ops/ops_lapack.c): the matrix
-- factorisations and what they give, per matrix of a batch:
-- tf.linalg.inv, det, solve, cholesky and svd.

local core = require("moonflow.core")
local state = require("moonflow.state")
local common = require("moonflow.ops.common")

local op = core.op
local H = state.H
local op_def = common.op_def

local M = {}

M.inv = op_def("MatrixInverse", function(input, adjoint, opts)
  return op(H.MatrixInverse, { adjoint = adjoint or false, name = opts.name }, input)
end, "tf.linalg.inv(input [, adjoint])", "A singular matrix is an InvalidArgumentError.",
{ required = 1, positional = { "adjoint" }, "name" })

M.det = op_def("MatrixDeterminant", function(input, opts)
  return op(H.MatrixDeterminant, { name = opts.name }, input)
end, "tf.linalg.det(input)", nil, { required = 1, "name" })

M.solve = op_def("MatrixSolve", function(matrix, rhs, adjoint, opts)
  return op(H.MatrixSolve, { adjoint = adjoint or false, name = opts.name }, matrix, rhs)
end, "tf.linalg.solve(matrix, rhs [, adjoint])", "Same batch dims, no broadcasting.",
{ required = 2, positional = { "adjoint" }, "name" })

M.cholesky = op_def("Cholesky", function(input, opts)
  return op(H.Cholesky, { name = opts.name }, input)
end, "tf.linalg.cholesky(input)", "InvalidArgumentError unless positive definite.", { required = 1, "name" })

M.svd = op_def("Svd", function(tensor, full_matrices, compute_uv, opts)
  if compute_uv == nil then compute_uv = true end
  local s, u, v = op(H.Svd, { full_matrices = full_matrices or false, compute_uv = compute_uv, name = opts.name },
    tensor)
  if compute_uv then return s, u, v end
  return s
end, "tf.linalg.svd(tensor [, full_matrices] [, compute_uv])",
"Returns s, u, v (TF's order; v, not its transpose: tensor = u diag(s) v^T), or s alone when compute_uv is "
.. "false. The vectors' signs are LAPACK's (gesdd); TF's are Eigen's: each pair u_i, v_i may differ in sign.",
{ required = 1, positional = { "full_matrices", "compute_uv" }, "name" })

M.namespaces = { linalg = { "inv", "det", "solve", "cholesky", "svd" } }

return M
