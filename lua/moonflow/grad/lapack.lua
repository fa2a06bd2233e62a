-- lapack.lua — the gradients of the LAPACK-backed matrix ops
-- (core/ops/ops_lapack.c): inverse, determinant, solve and Cholesky, as
-- TF's linalg_grad.py. Rule conventions: rules.lua.

local core = require("moonflow.core")
local state = require("moonflow.state")
-- ops.lua's table with ops_math.lua's additions (tf.linalg)
local ops = require("moonflow.ops")
local shapes = require("moonflow.tensor.shape")
local dtypes = require("moonflow.tensor.dtypes")
local errors = require("moonflow.errors")

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

-- matrix_diag(x): x [..., k] on the diagonals of [..., k, k].
local function matrix_diag(x, k)
  return ops.expand_dims(x, -2) * ops.eye(k, nil, { dtype = core.dtype(x) })
end
-- x[..., :, :k] of a tensor of known rank r.
local function first_columns(x, r, k)
  local begin, size = {}, {}
  for i = 1, r do begin[i], size[i] = 0, -1 end
  size[r] = k
  return ops.slice(x, begin, size)
end
local function last_columns(x, r, from, k)
  local begin, size = {}, {}
  for i = 1, r do begin[i], size[i] = 0, -1 end
  begin[r], size[r] = from, k
  return ops.slice(x, begin, size)
end
local function t(x) return ops.linalg.matrix_transpose(x) end

-- linalg_grad.py _SvdGrad (Giles; Townsend for the reduced case): for s
-- alone u diag(grad_s) v^T; with the vectors, through the wide case (the
-- tall one transposed), NaN where singular values repeat, as TF's.
rules.Svd = function(n, dy)
  local a = n.inputs[1]
  local grad_s, grad_u, grad_v = dy[1], dy[2], dy[3]
  local sa = shapes.static(a)
  if not n.attrs.compute_uv then
    local _, u, v = ops.linalg.svd(a, false, true)
    return { mm(u * ops.expand_dims(grad_s, -2), v, false, true) }
  end
  local r = sa and #sa
  local m, nn = sa and sa[r - 1], sa and sa[r]
  if not m or m < 0 or nn < 0 then
    errors.raise("NotImplementedError", "SVD gradient has not been implemented for input with unknown inner "
      .. "matrix shape.", 0)
  end
  local s, u, v = n.outputs[1], n.outputs[2], n.outputs[3]
  local use_adjoint = m > nn
  if use_adjoint then
    m, nn = nn, m
    u, v = v, u
    grad_u, grad_v = grad_v, grad_u
  end
  local full = n.attrs.full_matrices
  if full and math.abs(m - nn) > 1 then
    errors.raise("NotImplementedError", "svd gradient is not implemented for abs(m - n) > 1 when full_matrices "
      .. "is True", 0)
  end
  local dt = core.dtype(a)
  local eye = ops.eye(m, nil, { dtype = dt })
  local s_mat = matrix_diag(s, m)
  local s2 = ops.square(s)
  local f = ops.math.reciprocal(ops.expand_dims(s2, -2) - ops.expand_dims(s2, -1) + eye) * (1 - eye)
  local s_inv_mat = matrix_diag(ops.math.reciprocal(s), m)
  local v1, grad_v1 = first_columns(v, r, m), first_columns(grad_v, r, m)
  local u_gu = mm(u, grad_u, true, false)
  local v_gv = mm(v1, grad_v1, true, false)
  local f_u, f_v = f * u_gu, f * v_gv
  local term1_nouv = matrix_diag(grad_s, m) + mm(f_u + t(f_u), s_mat) + mm(s_mat, f_v + t(f_v))
  local grad_a = mm(u, mm(term1_nouv, v1, false, true))
  if m ~= nn then
    local gv1t = t(grad_v1)
    local term2_nous = gv1t - mm(mm(gv1t, v1), v1, false, true)
    if full then
      local v2, grad_v2 = last_columns(v, r, m, nn - m), last_columns(grad_v, r, m, nn - m)
      term2_nous = term2_nous - mm(mm(v1, grad_v2, true, false), v2, false, true)
    end
    grad_a = grad_a + mm(mm(u, s_inv_mat), term2_nous)
  end
  if use_adjoint then grad_a = t(grad_a) end
  return { grad_a }
end

return rules
