-- gradient_rules_math.lua — the gradients of issue 17's math and
-- linear-algebra ops, as TF defines them (math_grad.py, linalg_grad.py).
-- gradient_rules.lua calls install with its rule table and two helpers:
-- unbroadcast (sums a gradient down to an input's shape where it
-- broadcast) and fully_equal (TF's _ShapesFullySpecifiedAndEqual).

local core = require("moonflow.core")
local state = require("moonflow.state")
-- ops.lua's table with ops_math.lua's additions (the rules call both)
local ops = require("moonflow.ops")
local shapes = require("moonflow.tensor.shape")
local dtypes = require("moonflow.tensor.dtypes")

local H = state.H
local op = core.op

local rank_of = shapes.rank

local function install(rules, unbroadcast, fully_equal)
  -- math_grad.py _DivNoNanGrad
  rules.DivNoNan = function(n, dy)
    local x, y = n.inputs[1], n.inputs[2]
    local dnn = ops.math.divide_no_nan
    return { unbroadcast(dnn(dy[1], y), x), unbroadcast(ops.multiply(dy[1], dnn(dnn(-x, y), y)), y) }
  end

  -- math_grad.py _SquaredDifferenceGrad
  -- (skip: gradient_rules.lua's binary ops)
  rules.SquaredDifference = function(n, dy, _, skip)
    local x, y = n.inputs[1], n.inputs[2]
    local gx = ops.multiply(ops.multiply(dy[1], 2), ops.subtract(x, y))
    if fully_equal(x, y, dy[1]) then return { gx, -gx } end
    return { not (skip and skip[1]) and unbroadcast(gx, x) or nil,
      not (skip and skip[2]) and unbroadcast(-gx, y) or nil }
  end

  -- op(a) op(b), op = transpose where asked: MatMul for matrices, else
  -- BatchMatMulV2 (TF's math_ops.matmul).
  local function mm(a, b, ta, tb)
    if rank_of(a) == 2 and rank_of(b) == 2 then
      return ops.matmul(a, b, { transpose_a = ta or false, transpose_b = tb or false })
    end
    return op(H.BatchMatMulV2, { adj_x = ta or false, adj_y = tb or false }, a, b)
  end

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

  -- Einsum: linalg_grad.py's _EinsumGrad, step for step. Labels a gradient
  -- sums away are taken in the order they appear (TF iterates a set).
  local ELL = "..."
  local function einsum(eq, ...) return op(H.Einsum, { equation = eq }, ...) end
  local function has_ell(subs) return subs:find(ELL, 1, true) ~= nil end

  -- Letters of subs not in any of the `others` strings, first appearance order.
  local function only_in(subs, others)
    local list, seen = {}, {}
    for ch in subs:gmatch("%a") do
      if not seen[ch] and not others:find(ch, 1, true) then list[#list + 1] = ch end
      seen[ch] = true
    end
    return list
  end

  local function without(subs, list)
    local drop = {}
    for _, ch in ipairs(list) do drop[ch] = true end
    return (subs:gsub("%a", function(ch) if drop[ch] then return "" end end))
  end

  local function distinct(subs)
    local set, k = {}, 0
    for ch in subs:gmatch(".") do
      if not set[ch] then set[ch], k = true, k + 1 end
    end
    return k
  end

  -- _GetAxisFromLabel: the axis of label in subs, negative after "...".
  local function axis_of(subs, label)
    local e = subs:find(ELL, 1, true)
    local head, tail = e and subs:sub(1, e - 1) or subs, e and subs:sub(e + 3) or nil
    local i = head:find(label, 1, true)
    if i then return i - 1 end
    i = tail and tail:find(label, 1, true)
    if i then return i - 1 - #tail end
    return nil
  end

  -- The size of axis ax (maybe negative) of x: a number when known.
  local function dim_of(x, ax)
    local sx = shapes.static(x)
    if sx then return sx[ax >= 0 and ax + 1 or #sx + ax + 1] end
    local shape = ops.shape(x)
    return ops.gather(shape, ax >= 0 and ax or ops.add(ops.size(shape), ax))
  end

  local function shape_arg(parts)
    for _, p in ipairs(parts) do
      if core.is_tensor(p) then
        local ts = {}
        for i, q in ipairs(parts) do ts[i] = core.is_tensor(q) and ops.cast(q, dtypes.int32) or ops.constant(q, dtypes.int32) end
        return ops.stack(ts)
      end
    end
    return parts
  end

  -- _GetGradReduced: the gradient of "input_subs -> output_subs" where the
  -- labels in `reduced` are summed away.
  local function grad_reduced(g, output_subs, input_subs, x, reduced)
    local reduced_subs = table.concat(reduced)
    local axes, dims = {}, {}
    for i, ch in ipairs(reduced) do
      axes[i] = axis_of(input_subs, ch)
      dims[i] = dim_of(x, axes[i])
    end
    local repeated = distinct(input_subs) + distinct(output_subs) < #input_subs + #output_subs
    local sx = shapes.static(x)
    if not repeated and without(input_subs, reduced) == output_subs and sx then
      -- A plain reduction: the gradient broadcast back along the reduced axes.
      local kept = table.move(sx, 1, #sx, 1, {})
      for _, ax in ipairs(axes) do kept[ax >= 0 and ax + 1 or #sx + ax + 1] = 1 end
      return ops.broadcast_to(ops.reshape(g, kept), sx)
    end
    -- Traces or transposes: prepend the reduced dims to the gradient, then
    -- one einsum back to the input's subscripts.
    local sg = shapes.static(g)
    local with_reduced, ones = {}, {}
    for i = 1, #dims do with_reduced[i], ones[i] = dims[i], 1 end
    local target, shaped
    if sg then
      for _, d in ipairs(sg) do with_reduced[#with_reduced + 1], ones[#ones + 1] = d, d end
      target, shaped = shape_arg(with_reduced), ones
    else
      local gs = ops.shape(g)
      target = ops.concat({ shape_arg(dims), gs }, 0)
      shaped = ops.concat({ ops.constant(ones, dtypes.int32), gs }, 0)
    end
    local b = ops.broadcast_to(ops.reshape(g, shaped), target)
    return einsum(reduced_subs .. output_subs .. "->" .. input_subs, b)
  end

  -- _GetGradWrt: the VJP of a two-operand einsum for one operand.
  local function grad_wrt(g, other, x, input_subs, other_subs, output_subs)
    local reduced = only_in(input_subs, output_subs .. other_subs)
    local left_subs = without(input_subs, reduced)
    local gr = einsum(output_subs .. "," .. other_subs .. "->" .. left_subs, g, other)
    if #reduced == 0 then return gr end
    return grad_reduced(gr, left_subs, input_subs, x, reduced)
  end

  -- _GetBcastSubshape: the axes "..." covers, as (start, count from the end).
  local function bcast_range(subs)
    local e = subs:find(ELL, 1, true)
    if not e then return 0, 0 end
    return e - 1, #subs - (e + 2)
  end

  -- Sums the gradient over the batch axes where x broadcast against y.
  local function unbroadcast_batch(gx, x, x_subs, y, y_subs)
    local xs, xe = bcast_range(x_subs)
    local ys, ye = bcast_range(y_subs)
    local sx, sy = shapes.static(x), shapes.static(y)
    local function batch(shape, s, e) return table.move(shape, s + 1, #shape - e, 1, {}) end
    if sx and sy then
      local bx, by = batch(sx, xs, xe), batch(sy, ys, ye)
      local r = math.max(#bx, #by)
      local axes = {}
      for i = 1, r do
        local dx, dy_ = bx[i - (r - #bx)], by[i - (r - #by)]
        if dx == nil or (dx == 1 and dy_ ~= nil and dy_ ~= 1) then axes[#axes + 1] = xs + i - 1 end
      end
      if #axes == 0 then return ops.reshape(gx, sx) end
      return ops.reshape(ops.reduce_sum(gx, axes), sx)
    end
    local function batch_shape(t, s, e)
      local shape = ops.shape(t)
      return ops.slice(shape, { s }, ops.reshape(ops.subtract(ops.size(shape), s + e), { 1 }))
    end
    local rx = op(H.BroadcastGradientArgs, nil, batch_shape(x, xs, xe), batch_shape(y, ys, ye))
    return ops.reshape(ops.reduce_sum(gx, ops.add(rx, xs)), ops.shape(x))
  end

  rules.Einsum = function(n, dy)
    local eq = n.attrs.equation
    local lhs, output_subs = eq:match("^(.-)%->(.*)$")
    local g = dy[1]
    if #n.inputs == 1 then
      local x = n.inputs[1]
      local reduced = only_in(lhs, output_subs)
      if #reduced == 0 then return { einsum(output_subs .. "->" .. lhs, g) } end
      return { grad_reduced(g, output_subs, lhs, x, reduced) }
    end
    local x_subs, y_subs = lhs:match("^(.-),(.*)$")
    if has_ell(output_subs) then
      if not has_ell(x_subs) then x_subs = x_subs .. ELL end
      if not has_ell(y_subs) then y_subs = y_subs .. ELL end
    end
    local x, y = n.inputs[1], n.inputs[2]
    local gx = grad_wrt(g, y, x, x_subs, y_subs, output_subs)
    local gy = grad_wrt(g, x, y, y_subs, x_subs, output_subs)
    if not has_ell(output_subs) then return { gx, gy } end
    local sx, sy = shapes.static(x), shapes.static(y)
    if sx and sy then
      local xs, xe = bcast_range(x_subs)
      local ys, ye = bcast_range(y_subs)
      local bx, by = table.move(sx, xs + 1, #sx - xe, 1, {}), table.move(sy, ys + 1, #sy - ye, 1, {})
      if #bx == #by and table.concat(bx, ",") == table.concat(by, ",") then return { gx, gy } end
    end
    return { unbroadcast_batch(gx, x, x_subs, y, y_subs), unbroadcast_batch(gy, y, y_subs, x, x_subs) }
  end
end

return { install = install }
