-- lapack.lua — the lapack family (core/ops/ops_lapack.c): the matrix
-- factorisations and what they give, per matrix of a batch:
-- tf.linalg.inv, det, solve and cholesky.

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

M.namespaces = { linalg = { "inv", "det", "solve", "cholesky" } }

return M
