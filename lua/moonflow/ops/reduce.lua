-- reduce.lua — the reduce family (core/ops/ops_reduce.c): reductions over
-- axes (tf.reduce_sum, _mean, _max, _min, _prod, _any, _all), tf.argmax
-- and tf.argmin, and the norms TF's clip_ops.py builds on Sum:
-- tf.linalg.global_norm and tf.clip_by_global_norm.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local options = require("moonflow.options")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local common = require("moonflow.ops.common")
local core_ops = require("moonflow.ops.core")
local elementwise = require("moonflow.ops.elementwise")
local generate = require("moonflow.ops.generate")
local shape_ops = require("moonflow.ops.shape")
local join = require("moonflow.ops.join")
local dispatch = require("moonflow.tensor.dispatch")
local raise = errors.raise

local op = core.op
local H = state.H
local op_def = common.op_def
local to_tensor = core_ops.to_tensor
local rank_of = shapes.rank
local I32 = dtypes.int32

local M = {}

local function axis_tensor(x, axis)
  if axis == nil then
    local r = rank_of(x)
    if r then
      local all = {}
      for i = 0, r - 1 do all[#all + 1] = i end
      return all
    end
    return generate.range(0, shape_ops.rank(x), 1)
  end
  return axis
end

local function reduction(name, opname)
  local h = H[opname]
  return op_def(opname, function(x, axis, keepdims, opts)
    if type(x) == "table" and dispatch.is_ragged(x) then return dispatch.reduce(opname, x, axis, keepdims) end
    x = to_tensor(x)
    return op(h, { keep_dims = keepdims or false, name = opts.name, _dtypes = { nil, I32 } }, x,
      axis_tensor(x, axis))
  end, name .. "(x [, axis] [, keepdims] [, {name=}])", "axis: 0-based, a list of axes, or nil for all.",
  { required = 1, positional = { "axis", "keepdims" }, "name" })
end
local REDUCTIONS = { { "reduce_sum", "Sum" }, { "reduce_mean", "Mean" }, { "reduce_max", "Max" },
  { "reduce_min", "Min" }, { "reduce_prod", "Prod" }, { "reduce_any", "Any" }, { "reduce_all", "All" } }
local names = {}
for _, r in ipairs(REDUCTIONS) do
  M[r[1]] = reduction("tf." .. r[1], r[2])
  names[#names + 1] = r[1]
end

local function arg_reduction(name, opname)
  local h = H[opname]
  return op_def(opname, function(x, axis, output_type, opts)
    local out = output_type and dtypes.as_dtype(output_type) or dtypes.int64
    return op(h, { output_type = out, name = opts.name }, x, axis or 0)
  end, name .. "(x [, axis] [, output_type] [, {name=}])",
  "axis defaults to 0; the result is int64 unless output_type says otherwise.",
  { required = 1, positional = { "axis", "output_type" }, "name" })
end
M.argmax = arg_reduction("tf.argmax", "ArgMax")
M.argmin = arg_reduction("tf.argmin", "ArgMin")
names[#names + 1], names[#names + 2] = "argmax", "argmin"

-- norms ------------------------------------------------------------------------

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
    halves[#halves + 1] = M.reduce_sum(elementwise.multiply(elementwise.square(v), 0.5))
  end
  local half = M.reduce_sum(join.stack(halves))
  return elementwise.sqrt(elementwise.multiply(half, 2.0), { name = name or "global_norm" })
end

M.global_norm = options.def(function(t_list, opts)
  return global_norm(tensor_list(t_list, "tf.linalg.global_norm"), opts.name)
end, "tf.linalg.global_norm(t_list)", "sqrt(sum of every element squared) over a list of tensors.",
{ required = 1, "name" })

M.clip_by_global_norm = options.def(function(t_list, clip_norm, use_norm, opts)
  tensor_list(t_list, "tf.clip_by_global_norm")
  use_norm = use_norm and to_tensor(use_norm) or global_norm(t_list)
  local dt = core.dtype(use_norm)
  local clip = to_tensor(clip_norm, dt)
  local one = core_ops.constant(1.0, dt)
  local scale_for_finite = elementwise.multiply(clip, elementwise.minimum(elementwise.divide(one, use_norm),
    elementwise.divide(core_ops.constant(1.0, dt), clip)))
  -- A finite norm adds 0; inf or nan makes the scale nan, as in TF.
  local scale = elementwise.add(scale_for_finite, elementwise.subtract(use_norm, use_norm))
  local clipped = {}
  for i = 1, #t_list do
    local v = to_tensor(t_list[i])
    local s = core.dtype(v) == dt and scale or elementwise.cast(scale, core.dtype(v))
    clipped[i] = core_ops.identity(elementwise.multiply(v, s),
      { name = ("%s_%d"):format(opts.name or "clip_by_global_norm", i - 1) })
  end
  return clipped, use_norm
end, "tf.clip_by_global_norm(t_list, clip_norm [, use_norm])",
"The tensors scaled by clip_norm / max(global_norm, clip_norm), and the global norm (two results).",
{ required = 2, positional = { "use_norm" }, "name" })

-- reductions TF's math_ops.py composes from the ops above ------------------------

local SPEC = { required = 1, positional = { "axis", "keepdims" }, "name" }

-- reduce_logsumexp: log(sum(exp(x - m))) + m, m the max where it is
-- finite (else 0), held out of the gradient, as math_ops.reduce_logsumexp.
M.reduce_logsumexp = options.def(function(x, axis, keepdims, opts)
  x = to_tensor(x)
  local raw_max = M.reduce_max(x, axis, true)
  local my_max = core_ops.stop_gradient(elementwise.where(elementwise.is_finite(raw_max), raw_max,
    generate.zeros_like(raw_max)))
  local result = elementwise.log(M.reduce_sum(elementwise.exp(elementwise.subtract(x, my_max)), axis, keepdims))
  if not keepdims then my_max = shape_ops.reshape(my_max, shape_ops.shape(result)) end
  return elementwise.add(result, my_max, { name = opts.name or "ReduceLogSumExp" })
end, "tf.math.reduce_logsumexp(input_tensor [, axis] [, keepdims])",
"log(sum(exp(x))) over axis (0-based, a list, or nil for all), computed as TF does: the max is "
.. "subtracted first (where finite), so large values do not overflow.", SPEC)

local function variance(x, axis, keepdims, fname)
  if type(x) == "table" and dispatch.is_ragged(x) then return dispatch.reduce("Variance", x, axis, keepdims) end
  x = to_tensor(x)
  local means = M.reduce_mean(x, axis, true)
  local dt = core.dtype(means)
  if not dt.is_floating then
    raise("TypeError", ("Input must be either real or complex. Received integer type %s."):format(dt.name), 3)
  end
  return M.reduce_mean(elementwise.square(elementwise.subtract(x, means)), axis, keepdims)
end

M.reduce_variance = options.def(function(x, axis, keepdims, opts)
  local v = variance(x, axis, keepdims, "tf.math.reduce_variance")
  return opts.name and core_ops.identity(v, { name = opts.name }) or v
end, "tf.math.reduce_variance(input_tensor [, axis] [, keepdims])",
"The population variance over axis: mean((x - mean(x))^2), as math_ops.reduce_variance builds it. "
.. "Integer input is a TypeError.", SPEC)

M.reduce_std = options.def(function(x, axis, keepdims, opts)
  return elementwise.sqrt(variance(x, axis, keepdims, "tf.math.reduce_std"), { name = opts.name })
end, "tf.math.reduce_std(input_tensor [, axis] [, keepdims])",
"The population standard deviation over axis: sqrt(reduce_variance). Integer input is a TypeError.", SPEC)

-- TF's EuclideanNorm kernel is sqrt(sum(x * x)) in x's dtype: integers
-- square and sum with wrapping, and the square root is truncated.
M.reduce_euclidean_norm = options.def(function(x, axis, keepdims, opts)
  x = to_tensor(x)
  local dt = core.dtype(x)
  local sum = M.reduce_sum(elementwise.multiply(x, x), axis, keepdims)
  if dt.is_floating then return elementwise.sqrt(sum, { name = opts.name }) end
  if not dt.is_integer then
    raise("TypeError", ("tf.math.reduce_euclidean_norm: expected a numeric tensor, got %s"):format(dt.name), 2)
  end
  local root = elementwise.sqrt(elementwise.cast(sum, dtypes.float64))
  return elementwise.cast(root, dt, { name = opts.name })
end, "tf.math.reduce_euclidean_norm(input_tensor [, axis] [, keepdims])",
"sqrt(sum(x^2)) over axis (0-based, a list, or nil for all); for integers the root is truncated to the "
.. "input's dtype, as TF's EuclideanNorm kernel.", SPEC)

-- math_ops.count_nonzero_v2: NotEqual to zero, cast to int64, summed, cast
-- to dtype.
M.count_nonzero = options.def(function(x, axis, keepdims, dtype, opts)
  x = to_tensor(x)
  local dt = core.dtype(x)
  local zero = dt == dtypes.string and core_ops.constant("", dt) or dt == dtypes.bool
    and core_ops.constant(false) or core_ops.constant(0, dt)
  local nz = elementwise.cast(elementwise.not_equal(x, zero), dtypes.int64)
  local out = M.reduce_sum(nz, axis, keepdims)
  local to = dtype and dtypes.as_dtype(dtype) or dtypes.int64
  return to == dtypes.int64 and (opts.name and core_ops.identity(out, { name = opts.name }) or out)
    or elementwise.cast(out, to, { name = opts.name })
end, "tf.math.count_nonzero(input [, axis] [, keepdims] [, dtype])",
"The number of elements that are not zero (not false, not the empty string) over axis, as int64 "
.. "unless dtype says otherwise.", { required = 1, positional = { "axis", "keepdims", "dtype" }, "name" })

for _, k in ipairs({ "reduce_logsumexp", "reduce_variance", "reduce_std", "reduce_euclidean_norm",
  "count_nonzero" }) do
  names[#names + 1] = k
end

local tf_names = table.move(names, 1, #names, 1, {})
for i = #tf_names, 1, -1 do
  -- tf has reduce_logsumexp at the top level; the others in tf.math only.
  local k = tf_names[i]
  if k == "reduce_variance" or k == "reduce_std" or k == "reduce_euclidean_norm" or k == "count_nonzero" then
    table.remove(tf_names, i)
  end
end
tf_names[#tf_names + 1] = "clip_by_global_norm"
M.namespaces = {
  tf = tf_names,
  math = names,
  linalg = { "global_norm" },
}

return M
