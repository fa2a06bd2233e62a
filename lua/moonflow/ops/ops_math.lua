-- ops_math.lua — the math and linear-algebra wrappers of issue 17, each
-- built the way TF's Python builds it (clip_ops.py, nn_impl.py,
-- special_math_ops.py, linalg_ops.py), so a traced graph holds TF's ops.
-- It adds its functions to the tables of ops.lua (tf.math, tf.linalg,
-- tf.nn and the top level); tf.lua requires it once.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local options = require("moonflow.options")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local ops = require("moonflow.ops.ops")
local raise = errors.raise

local op = core.op
local H = state.H
local def = options.def
local to_tensor = ops.to_tensor

local rank_of = shapes.rank

-- clipping -------------------------------------------------------------------

-- TF's TensorShape.assert_is_compatible_with.
local function check_compatible(a, b)
  if not a.shape:is_compatible_with(b.shape) then
    raise("ValueError", ("Shapes %s and %s are incompatible"):format(tostring(a.shape), tostring(b.shape)), 4)
  end
end

-- TF's clip_ops.clip_by_value: Minimum then Maximum, refusing bounds that
-- would broadcast t to a bigger shape.
ops.clip_by_value = def(function(t, clip_value_min, clip_value_max, opts)
  t = to_tensor(t)
  local t_min = ops.minimum(t, clip_value_max)
  check_compatible(t, t_min)
  local t_max = ops.maximum(t_min, clip_value_min, { name = opts.name })
  check_compatible(t, t_max)
  return t_max
end, "tf.clip_by_value(t, clip_value_min, clip_value_max)",
"t with every element clipped to [clip_value_min, clip_value_max] (NaN stays NaN).",
{ required = 3, "name" })

local function tensor_list(t_list, fname)
  if type(t_list) ~= "table" or getmetatable(t_list) ~= nil then
    raise("TypeError", ("%s: `t_list` should be a sequence of tensors. Received %s."):format(fname,
      core.is_tensor(t_list) and "a tensor" or type(t_list)), 4)
  end
  return t_list
end

-- TF's clip_ops.global_norm: sqrt(2 * sum of L2Loss = sum(t^2)/2).
local function global_norm(t_list, name)
  local halves = {}
  for i = 1, #t_list do
    local v = to_tensor(t_list[i])
    halves[#halves + 1] = ops.reduce_sum(ops.multiply(ops.square(v), 0.5))
  end
  local half = ops.reduce_sum(ops.stack(halves))
  return ops.sqrt(ops.multiply(half, 2.0), { name = name or "global_norm" })
end

ops.linalg.global_norm = def(function(t_list, opts)
  return global_norm(tensor_list(t_list, "tf.linalg.global_norm"), opts.name)
end, "tf.linalg.global_norm(t_list)", "sqrt(sum of every element squared) over a list of tensors.",
{ required = 1, "name" })

ops.clip_by_global_norm = def(function(t_list, clip_norm, use_norm, opts)
  tensor_list(t_list, "tf.clip_by_global_norm")
  use_norm = use_norm and to_tensor(use_norm) or global_norm(t_list)
  local dt = core.dtype(use_norm)
  local clip = to_tensor(clip_norm, dt)
  local scale_for_finite = ops.multiply(clip, ops.minimum(ops.divide(ops.constant(1.0, dt), use_norm),
    ops.divide(ops.constant(1.0, dt), clip)))
  -- A finite norm adds 0; inf or nan makes the scale nan, as in TF.
  local scale = ops.add(scale_for_finite, ops.subtract(use_norm, use_norm))
  local clipped = {}
  for i = 1, #t_list do
    local v = to_tensor(t_list[i])
    local s = core.dtype(v) == dt and scale or ops.cast(scale, core.dtype(v))
    clipped[i] = ops.identity(ops.multiply(v, s), { name = ("%s_%d"):format(opts.name or "clip_by_global_norm", i - 1) })
  end
  return clipped, use_norm
end, "tf.clip_by_global_norm(t_list, clip_norm [, use_norm])",
"The tensors scaled by clip_norm / max(global_norm, clip_norm), and the global norm (two results).",
{ required = 2, positional = { "use_norm" }, "name" })

-- division, normalisation, moments -------------------------------------------

ops.math.divide_no_nan = def(function(x, y, opts)
  local tx = core.is_tensor(x) and core.dtype(x) or nil
  local ty = core.is_tensor(y) and core.dtype(y) or nil
  if tx and ty and tx ~= ty then
    raise("TypeError", ("`x` and `y` must have the same dtype, got %s != %s."):format(tx.name, ty.name), 2)
  end
  -- TF converts y first and x to y's dtype.
  if not tx and not ty then
    y = to_tensor(y)
    ty = core.dtype(y)
  end
  local dt = ty or tx
  x, y = to_tensor(x, dt), to_tensor(y, dt)
  if dt.is_integer then
    -- TF's _TRUEDIV_TABLE: integers divide as float64.
    x, y = ops.cast(x, dtypes.float64), ops.cast(y, dtypes.float64)
  end
  return op(H.DivNoNan, { name = opts.name }, x, y)
end, "tf.math.divide_no_nan(x, y)", "x / y elementwise, and 0 wherever y is 0 (integers divide as float64).",
{ required = 2, "name" })

ops.math.squared_difference = def(function(x, y, opts)
  return core.binary(H.SquaredDifference, x, y, { name = opts.name })
end, "tf.math.squared_difference(x, y)", "(x - y)^2 elementwise.", { required = 2, "name" })

-- TF's nn_impl.l2_normalize: x * rsqrt(max(sum(x^2, axis), epsilon)).
ops.math.l2_normalize = def(function(x, axis, epsilon, opts)
  x = to_tensor(x)
  if axis == nil then axis = opts.dim end
  local square_sum = ops.reduce_sum(ops.square(x), axis, true)
  local inv_norm = ops.math.rsqrt(ops.maximum(square_sum, epsilon or 1e-12))
  return ops.multiply(x, inv_norm, { name = opts.name })
end, "tf.math.l2_normalize(x [, axis] [, epsilon])",
"x divided by its L2 norm along axis (all axes by default), the squared norm floored at epsilon (1e-12).",
{ required = 1, positional = { "axis", "epsilon" }, "name", "dim" })
ops.nn.l2_normalize = ops.math.l2_normalize
ops.linalg.l2_normalize = ops.math.l2_normalize

-- TF's nn_impl.moments: the mean, then the mean squared difference from a
-- mean the gradient does not flow through (its contribution is zero).
ops.nn.moments = def(function(x, axes, shift, keepdims, opts)
  local _ = shift -- TF ignores it too ("Not used in the current implementation").
  x = to_tensor(x)
  if math.type(axes) == "integer" then axes = { axes } end
  local scope = opts.name and (opts.name .. "/") or ""
  local mean = ops.reduce_mean(x, axes, true, { name = scope .. "mean" })
  local variance = ops.reduce_mean(ops.math.squared_difference(x, ops.stop_gradient(mean)), axes, true,
    { name = scope .. "variance" })
  if not keepdims then
    mean, variance = ops.squeeze(mean, axes), ops.squeeze(variance, axes)
  end
  return mean, variance
end, "tf.nn.moments(x, axes [, shift] [, keepdims])",
"The mean and the (population) variance of x over axes (two results).",
{ required = 2, positional = { "shift", "keepdims" }, "name" })

-- linear algebra ----------------------------------------------------------------

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
    local rk = ops.rank(x)
    local i = ops.range(0, rk, 1)
    local last, before = ops.subtract(rk, 1), ops.subtract(rk, 2)
    perm = ops.where(ops.equal(i, last), before, ops.where(ops.equal(i, before), last, i))
  end
  return ops.transpose(x, perm, { name = name })
end

ops.linalg.matrix_transpose = def(function(a, conjugate, opts)
  local _ = conjugate -- real dtypes only: conjugation changes nothing
  return matrix_transpose(a, opts.name)
end, "tf.linalg.matrix_transpose(a [, conjugate])", "a with its last two dimensions swapped.",
{ required = 1, positional = { "conjugate" }, "name" })
ops.linalg.adjoint = def(function(matrix, opts) return matrix_transpose(matrix, opts.name) end,
  "tf.linalg.adjoint(matrix)", "The conjugate transpose of the last two dims (the transpose for real dtypes).",
  { required = 1, "name" })

ops.linalg.inv = def(function(input, adjoint, opts)
  return op(H.MatrixInverse, { adjoint = adjoint or false, name = opts.name }, input)
end, "tf.linalg.inv(input [, adjoint])",
"The inverse of each square matrix in the last two dims (of its transpose with adjoint); "
.. "InvalidArgumentError for a singular one.", { required = 1, positional = { "adjoint" }, "name" })

ops.linalg.det = def(function(input, opts)
  return op(H.MatrixDeterminant, { name = opts.name }, input)
end, "tf.linalg.det(input)", "The determinant of each square matrix in the last two dims.", { required = 1, "name" })

ops.linalg.solve = def(function(matrix, rhs, adjoint, opts)
  return op(H.MatrixSolve, { adjoint = adjoint or false, name = opts.name }, matrix, rhs)
end, "tf.linalg.solve(matrix, rhs [, adjoint])",
"X with matrix X = rhs per matrix of the batch (matrix^T X = rhs with adjoint); same batch dims, no broadcasting.",
{ required = 2, positional = { "adjoint" }, "name" })

ops.linalg.cholesky = def(function(input, opts)
  return op(H.Cholesky, { name = opts.name }, input)
end, "tf.linalg.cholesky(input)",
"The lower-triangular L with L L^T = input per matrix, reading the lower triangle; "
.. "InvalidArgumentError unless positive definite.", { required = 1, "name" })
ops.matrix_transpose = ops.linalg.matrix_transpose

-- tf.einsum ------------------------------------------------------------------------

-- Label characters in byte order (Python's sorted on str).
local function sorted_chars(set)
  local list = {}
  for ch in pairs(set) do list[#list + 1] = ch end
  table.sort(list, function(a, b) return a:byte() < b:byte() end)
  return table.concat(list)
end

-- TF's _einsum_v2_parse_and_resolve_equation: spaces dropped, and an
-- implicit output made explicit (the labels used once, sorted, after "..."
-- when an input has one).
local function resolve_equation(equation, n)
  equation = equation:gsub(" ", "")
  local lhs, arrow = equation:match("^([%a,%.]+)(.*)$")
  if not lhs or (arrow ~= "" and not arrow:match("^%->[%a%.]*$")) then
    raise("ValueError", "Indices have incorrect format. Received: " .. equation .. ".", 4)
  end
  local inputs = {}
  for term in (lhs .. ","):gmatch("([^,]*),") do inputs[#inputs + 1] = term end
  if #inputs ~= n then
    raise("ValueError", ('Got %d arguments for equation "%s", expecting %d.'):format(n, equation, #inputs), 4)
  end
  if arrow ~= "" then return equation, inputs, arrow:sub(3) end
  local counts, ellipsis = {}, false
  for _, term in ipairs(inputs) do
    if term:find("...", 1, true) then ellipsis = true end
    for ch in term:gmatch("%a") do counts[ch] = (counts[ch] or 0) + 1 end
  end
  local once = {}
  for ch, k in pairs(counts) do if k == 1 then once[ch] = true end end
  local output = (ellipsis and "..." or "") .. sorted_chars(once)
  return lhs .. "->" .. output, inputs, output
end

local function einsum_op(equation, operands, name)
  return op(H.Einsum, { equation = equation, name = name }, table.unpack(operands))
end

-- More than two operands: contracted left to right, each step keeping the
-- labels a later operand or the output still needs (TF asks opt_einsum
-- for an order; the values agree up to rounding).
local function einsum_chain(inputs, output, operands, name)
  local acc, acc_subs = operands[1], inputs[1]
  for i = 2, #operands do
    local later = output
    for j = i + 1, #inputs do later = later .. inputs[j] end
    local keep, seen = {}, {}
    local ellipsis = (acc_subs .. inputs[i]):find("...", 1, true) ~= nil
    if ellipsis then keep[1] = "..." end
    for ch in (acc_subs .. inputs[i]):gmatch("%a") do
      if not seen[ch] and later:find(ch, 1, true) then keep[#keep + 1] = ch end
      seen[ch] = true
    end
    local subs = i == #operands and output or table.concat(keep)
    acc = einsum_op(acc_subs .. "," .. inputs[i] .. "->" .. subs, { acc, operands[i] },
      i == #operands and name or nil)
    acc_subs = subs
  end
  return acc
end

ops.einsum = def(function(equation, ...)
  local args = table.pack(...)
  local opts = args[args.n]
  if type(opts) == "table" and not core.is_tensor(opts) and opts[1] == nil and next(opts) ~= nil then
    args.n = args.n - 1
  else
    opts = {}
  end
  if type(equation) ~= "string" then
    raise("TypeError", "tf.einsum: the equation must be a string, got a " .. type(equation), 2)
  end
  local _ = opts.optimize -- TF's contraction-order hint: moonflow's order is fixed
  local operands = {}
  for i = 1, args.n do operands[i] = to_tensor(args[i]) end
  local resolved, inputs, output = resolve_equation(equation, #operands)
  if #operands <= 2 then return einsum_op(resolved, operands, opts.name) end
  return einsum_chain(inputs, output, operands, opts.name)
end, "tf.einsum(equation, ...)",
"The contraction an Einstein-summation equation names: 'ij,jk->ik' (matmul), 'bij,bjk->bik', 'ij->ji', "
.. "'ii->' (trace), 'ii->i' (diagonal), 'i,j->ij' (outer), 'ij->j' (sum), '...ij->...ji'; implicit output allowed.",
{ required = 1, vararg = true, "optimize", "name" })
ops.linalg.einsum = ops.einsum

return ops
