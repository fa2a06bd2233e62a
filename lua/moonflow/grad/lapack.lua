-- lapack.lua — the gradients of the LAPACK-backed matrix ops
-- (core/ops/ops_lapack.c): inverse, determinant, solve and Cholesky, as
-- TF's linalg_grad.py. Rule conventions: rules.lua.

local core = require("moonflow.core")
local state = require("moonflow.state")
-- ops.lua's table with ops_math.lua's additions (tf.linalg)
local ops = require("moonflow.ops")
local shapes = require("moonflow.tensor.shape")
local dtypes = require("moonflow.tensor.dtypes")

local H = state.H
local op = core.op
local rank_of = shapes.rank

-- op(a) op(b), op = transpose where asked: MatMul for matrices, else
-- BatchMatMulV2 (TF's math_ops.matmul).
local function mm(a, b, ta, tb)
  if rank_of(a) == 2 and rank_of(b) == 2 then
    return ops.matmul(a, b, { transpose_a = ta or false, transpose_b = tb or false })
  end
  return op(H.BatchMatMulV2, { adj_x = ta or false, adj_y = tb or false }, a, b)
end

local rules = {}

-- linalg_grad.py _MatrixInverseGrad
rules.MatrixInverse = function(n, dy)
  local ainv = n.outputs[1]
  local adj = n.attrs and n.attrs.adjoint or false
  return { -mm(ainv, mm(dy[1], ainv, adj, not adj), not adj) }
end

-- linalg_grad.py _MatrixDeterminantGrad: grad * det * inv(a)^T
rules.MatrixDeterminant = function(n, dy)
  local a, c = n.inputs[1], n.outputs[1]
  local a_adj_inv = ops.linalg.inv(a, true)
  local gc = ops.multiply(dy[1], c)
  local sc = shapes.static(c)
  local target
  if sc then
    target = table.move(sc, 1, #sc, 1, {})
    target[#target + 1], target[#target + 2] = 1, 1
  else
    target = ops.concat({ ops.shape(c), ops.constant({ 1, 1 }, dtypes.int32) }, 0)
  end
  return { ops.multiply(ops.reshape(gc, target), a_adj_inv) }
end

-- linalg_grad.py _MatrixSolveGrad
rules.MatrixSolve = function(n, dy)
  local a, c = n.inputs[1], n.outputs[1]
  local adj = n.attrs and n.attrs.adjoint or false
  local grad_b = ops.linalg.solve(a, dy[1], not adj)
  local grad_a = adj and -mm(c, grad_b, false, true) or -mm(grad_b, c, false, true)
  return { grad_a, grad_b }
end

-- linalg_grad.py _CholeskyGrad: l^-T ((l^T grad) masked to its lower
-- triangle with half its diagonal) l^-1, symmetrised. TF inverts l with
-- MatrixTriangularSolve; moonflow with MatrixInverse (same values up to
-- rounding), and applies matrix_set_diag / matrix_band_part as one mask.
rules.Cholesky = function(n, dy)
  local l = n.outputs[1]
  local dt = core.dtype(l)
  local sl = shapes.static(l)
  local num_rows = sl and sl[#sl] or ops.gather(ops.shape(l), ops.subtract(ops.rank(l), 1))
  local i = ops.range(0, num_rows, 1)
  local rows, cols = ops.expand_dims(i, 1), ops.expand_dims(i, 0)
  local mask = ops.add(ops.cast(ops.greater(rows, cols), dt), ops.multiply(ops.cast(ops.equal(rows, cols), dt), 0.5))
  local l_inverse = ops.linalg.inv(l)
  local middle = ops.multiply(mm(l, dy[1], true, false), mask)
  local grad_a = mm(mm(l_inverse, middle, true, false), l_inverse)
  grad_a = ops.add(grad_a, ops.linalg.adjoint(grad_a))
  return { ops.multiply(grad_a, 0.5) }
end

return rules
