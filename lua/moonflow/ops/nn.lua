-- nn.lua — the nn family (core/ops/ops_nn.c): tf.nn.softmax and
-- log_softmax (along any axis, moved last as TF's _wrap_2d_function),
-- tf.nn.bias_add, the cross-entropy wrappers (which shape any rank for
-- the 2-D ops, as TF's nn_ops.py), and the network composites TF's
-- Python builds: tf.nn.moments (Mean), tf.math.l2_normalize (Sum, Rsqrt),
-- tf.nn.dropout (RandomUniform, a mask, a scale) and
-- tf.nn.embedding_lookup (a GatherV2, as TF's).

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
local index = require("moonflow.ops.index")
local reduce = require("moonflow.ops.reduce")
local random = require("moonflow.ops.random")
local raise = errors.raise

local op = core.op
local H = state.H
local op_def, name_opt, shape_of = common.op_def, common.name_opt, shapes.of
local to_tensor = core_ops.to_tensor
local rank_of = shapes.rank
local I32 = dtypes.int32

local M = {}

local function last_axis(fn, opname)
  return function(logits, axis, opts)
    -- An eager tensor axis is read as TF's constant_value reads it; a
    -- traced one stays an error (see softmax_op_spec's known differences).
    if core.is_tensor(axis) and not core.is_symbolic(axis) and axis.shape.rank == 0 then axis = axis:numpy() end
    if axis ~= nil and math.type(axis) ~= "integer" then
      raise("TypeError", "axis must be an integer, got " .. tostring(axis), 2)
    end
    local r = rank_of(logits) or rank_of(to_tensor(logits))
    logits = to_tensor(logits)
    if axis == nil or axis == -1 or (r and axis == r - 1) then
      return op(H[opname], name_opt(opts), logits)
    end
    if r and (axis < -r or axis >= r) then
      -- nn_ops.py's _wrap_2d_function check, raised before any op is built.
      raise("InvalidArgumentError", ("`dim` must be in the range [%d, %d) where %d is the number of dimensions "
        .. "in the input. Received: dim=%d"):format(-r, r, r, axis), 2)
    end
    if r == nil then
      -- Unknown rank: TF's _swap_axis of axis and the last one, the
      -- permutation computed in the graph (the identity when they agree).
      local rk = shape_ops.rank(logits)
      local a = axis < 0 and elementwise.add(rk, axis) or core_ops.constant(axis, I32)
      local last = elementwise.subtract(rk, 1)
      local i = generate.range(0, rk, 1)
      local swap = elementwise.where(elementwise.equal(i, a), last, elementwise.where(elementwise.equal(i, last), a, i))
      return shape_ops.transpose(op(H[opname], nil, shape_ops.transpose(logits, swap)), swap)
    end
    -- Move the axis last, apply, move it back.
    local perm = {}
    for i = 0, r - 1 do perm[#perm + 1] = i end
    local a = axis < 0 and r + axis or axis
    perm[a + 1], perm[r] = perm[r], perm[a + 1]
    local moved = shape_ops.transpose(logits, perm)
    return shape_ops.transpose(op(H[opname], nil, moved), perm)
  end
end
M.softmax = op_def("Softmax", last_axis(nil, "Softmax"), "tf.nn.softmax(logits [, axis])",
  "Here along axis, default the last (0-based; another axis is moved last and back, as TF does).",
  { required = 1, positional = { "axis" }, via = { name_opt }, "name" })
M.log_softmax = op_def("LogSoftmax", last_axis(nil, "LogSoftmax"), "tf.nn.log_softmax(logits [, axis])",
  "Here along axis, default the last (0-based; another axis is moved last and back, as TF does).",
  { required = 1, positional = { "axis" }, via = { name_opt }, "name" })

M.bias_add = op_def("BiasAdd", function(value, bias, data_format, opts)
  return op(H.BiasAdd, { name = opts.name, data_format = data_format }, value, bias)
end, "tf.nn.bias_add(value, bias [, data_format])",
"data_format 'NHWC' (the default: the last axis) or 'NCHW' (the second).",
{ required = 2, positional = { "data_format" }, types = { data_format = "string" }, "name" })


-- TF's Python wrapper (nn_ops.py softmax_cross_entropy_with_logits_v2_helper):
-- the op takes 2-D logits, so a class axis other than the last is moved
-- last, other ranks are flattened to 2-D (_flatten_outer_dims) and the cost
-- is reshaped to the logits' shape without that axis. Labels take the
-- logits' dtype, as TF casts them.
local function flatten_outer_dims(t)
  local last = index.slice(shape_ops.shape(t), shape_ops.reshape(shape_ops.rank(t) - 1, { 1 }), { 1 })
  return shape_ops.reshape(t, join.concat({ core_ops.constant({ -1 }, I32), last }, 0))
end

local function xent_nd(labels, logits, axis, name)
  local input_rank = shape_ops.rank(logits)
  if axis ~= -1 then
    local function move_dim_to_end(t)
      return shape_ops.transpose(t, join.concat({ generate.range(axis), generate.range(axis + 1, input_rank),
        core_ops.constant({ axis }, I32) }, 0))
    end
    logits, labels = move_dim_to_end(logits), move_dim_to_end(labels)
  end
  local input_shape = shape_ops.shape(logits)
  local cost = op(H.SoftmaxCrossEntropyWithLogits, { name = name }, flatten_outer_dims(logits),
    flatten_outer_dims(labels))
  return shape_ops.reshape(cost, index.slice(input_shape, { 0 }, shape_ops.reshape(input_rank - 1, { 1 })))
end

M.softmax_cross_entropy_with_logits = op_def("SoftmaxCrossEntropyWithLogits", function(labels, logits, axis, opts)
  labels, logits = to_tensor(labels), to_tensor(logits)
  if core.dtype(labels) ~= core.dtype(logits) then labels = elementwise.cast(labels, core.dtype(logits)) end
  axis = axis or -1
  if math.type(axis) ~= "integer" then
    raise("TypeError", "tf.nn.softmax_cross_entropy_with_logits: axis must be an integer, got " .. tostring(axis), 3)
  end
  local r = rank_of(logits)
  if r and axis < -1 then axis = axis + r end
  -- The op's second output (the backprop) stays internal.
  if r == 2 and (axis == -1 or axis == 1) then
    return (op(H.SoftmaxCrossEntropyWithLogits, { name = opts.name }, logits, labels))
  end
  return xent_nd(labels, logits, axis, opts.name)
end, "tf.nn.softmax_cross_entropy_with_logits(labels, logits [, axis])",
"Here per example, along axis (0-based, default the last), any rank (TF's wrapper transposes and reshapes); "
.. "the gradient output stays internal. Also takes {labels=, logits=, axis=}.",
{ positional = { "labels", "logits", "axis" }, types = { axis = "number" }, "name" })

-- TF's Python wrapper (nn_ops.py): the op takes 2-D logits; other ranks
-- are checked against the labels, flattened to 2-D and the cost reshaped
-- to the labels' shape.
M.sparse_softmax_cross_entropy_with_logits = op_def("SparseSoftmaxCrossEntropyWithLogits",
function(labels, logits, opts)
  labels, logits = core_ops.convert_to_tensor(labels), core_ops.convert_to_tensor(logits)
  local lr, gr = rank_of(labels), rank_of(logits)
  local function shape_text(x) return tostring(x.shape) end
  if gr == 0 then
    raise("ValueError", ("`logits` cannot be a scalar. Received logits=%s`"):format(tostring(logits)), 3)
  end
  if gr and lr and lr ~= gr - 1 then
    raise("ValueError", ("`labels.shape.rank` must equal `logits.shape.rank - 1`. Received: labels.shape=%s "
      .. "of rank %d and logits.shape=%s of rank %d"):format(shape_text(labels), lr, shape_text(logits), gr), 3)
  end
  local ls, gs = shape_of(labels), shape_of(logits)
  local function known(dims)
    for _, d in ipairs(dims) do if math.type(d) ~= "integer" or d < 0 then return false end end
    return true
  end
  if ls and gs and known(ls) and known(gs) then
    for i = 1, #ls do
      if ls[i] ~= gs[i] then
        raise("ValueError", ("`labels.shape` must equal `logits.shape` except for the last dimension. Received: "
          .. "labels.shape=%s and logits.shape=%s"):format(shape_text(labels), shape_text(logits)), 3)
      end
    end
  end
  -- The op's second output (the backprop) stays internal.
  if gr == 2 then return (op(H.SparseSoftmaxCrossEntropyWithLogits, { name = opts.name }, logits, labels)) end
  local labels_shape = shape_ops.shape(labels)
  local num_classes = index.gather(shape_ops.shape(logits), shape_ops.rank(logits) - 1)
  local flat_logits = shape_ops.reshape(logits, join.stack({ -1, num_classes }))
  local cost = op(H.SparseSoftmaxCrossEntropyWithLogits, { name = opts.name }, flat_logits,
    shape_ops.reshape(labels, { -1 }))
  return shape_ops.reshape(cost, labels_shape)
end, "tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits)",
"Here per example: integer class labels (0-based) of shape [d_0, ..., d_{r-1}] and logits "
.. "[d_0, ..., d_{r-1}, num_classes], any rank (TF's wrapper reshapes); the gradient output stays internal. "
.. "Also takes {labels=, logits=}.",
{ positional = { "labels", "logits" }, "name" })

-- TF's nn_impl.l2_normalize: x * rsqrt(max(sum(x^2, axis), epsilon)).
M.l2_normalize = options.def(function(x, axis, epsilon, opts)
  x = to_tensor(x)
  if axis == nil then axis = opts.dim end
  local square_sum = reduce.reduce_sum(elementwise.square(x), axis, true)
  local inv_norm = elementwise.rsqrt(elementwise.maximum(square_sum, epsilon or 1e-12))
  return elementwise.multiply(x, inv_norm, { name = opts.name })
end, "tf.math.l2_normalize(x [, axis] [, epsilon])",
"x divided by its L2 norm along axis (all axes by default), the squared norm floored at epsilon (1e-12).",
{ required = 1, positional = { "axis", "epsilon" }, "name", "dim" })

-- TF's nn_impl.moments: the mean, then the mean squared difference from a
-- mean the gradient does not flow through (its contribution is zero).
M.moments = options.def(function(x, axes, shift, keepdims, opts)
  local _ = shift -- TF ignores it too ("Not used in the current implementation").
  x = to_tensor(x)
  if math.type(axes) == "integer" then axes = { axes } end
  local scope = opts.name and (opts.name .. "/") or ""
  local mean = reduce.reduce_mean(x, axes, true, { name = scope .. "mean" })
  local variance = reduce.reduce_mean(elementwise.squared_difference(x, core_ops.stop_gradient(mean)), axes, true,
    { name = scope .. "variance" })
  if not keepdims then
    mean, variance = shape_ops.squeeze(mean, axes), shape_ops.squeeze(variance, axes)
  end
  return mean, variance
end, "tf.nn.moments(x, axes [, shift] [, keepdims])",
"The mean and the (population) variance of x over axes (two results).",
{ required = 2, positional = { "shift", "keepdims" }, "name" })

-- linear algebra ----------------------------------------------------------------



-- TF's _get_noise_shape: x's shape, or noise_shape with its None entries
-- taken from x.
local function noise_shape_of(x, noise_shape)
  if noise_shape == nil then
    local s = shapes.static(x)
    return s or shape_ops.shape(x)
  end
  if core.is_tensor(noise_shape) then return noise_shape end
  local is_shape = getmetatable(noise_shape) == shapes.Shape
  if not is_shape and (type(noise_shape) ~= "table" or getmetatable(noise_shape) ~= nil) then
    raise("TypeError", "tf.nn.dropout: noise_shape must be a list of dimensions, a TensorShape or an int32 "
      .. "tensor, got a " .. type(noise_shape), 4)
  end
  local dims = is_shape and noise_shape:as_list() or noise_shape
  local xs = x.shape:as_list()
  local out, dynamic = {}, false
  for i, d in ipairs(dims) do
    if d == shapes.None then
      if #dims == #xs and xs[i] ~= shapes.None then out[i] = xs[i]
      else out[i], dynamic = shape_ops.shape(x)[i - 1], true end
    else
      out[i] = d
    end
  end
  if dynamic then
    for i, d in ipairs(out) do if not core.is_tensor(d) then out[i] = core_ops.constant(d, dtypes.int32) end end
    return join.stack(out)
  end
  return out
end

M.dropout = options.def(function(x, rate, noise_shape, seed, opts)
  local is_number = type(rate) == "number"
  if is_number and (rate < 0 or rate >= 1) then
    raise("ValueError", ("`rate` must be a scalar tensor or a float in the range [0, 1). Received: rate=%s")
      :format(tostring(rate)), 2)
  end
  if not is_number and not core.is_tensor(rate) then
    raise("ValueError", ("`rate` must be a scalar tensor or a float in the range [0, 1). Received: rate=%s")
      :format(tostring(rate)), 2)
  end
  x = core_ops.convert_to_tensor(x)
  local dt = core.dtype(x)
  if not dt.is_floating then
    raise("ValueError", ("`x.dtype` must be a floating point tensor as `x` will be scaled. Received: x_dtype=%s")
      :format(dt.name), 2)
  end
  -- TF's fast path returns x itself for a Lua (Python) 0, after the checks.
  if is_number and rate == 0 then return x end
  local scaled
  if is_number then
    scaled = op(H.Mul, { name = opts.name }, x, core_ops.constant(1 / (1 - rate), dt))
  else
    local r = shapes.static(rate)
    if r and #r ~= 0 then
      raise("ValueError", ("Shape must be rank 0 but is rank %d for the dropout rate"):format(#r), 2)
    end
    if core.dtype(rate) ~= dt then rate = elementwise.cast(rate, dt) end
    scaled = elementwise.divide(x, core_ops.constant(1, dt) - rate)
  end
  local sample = random.uniform(noise_shape_of(x, noise_shape), { dtype = dt, seed = seed })
  local keep = elementwise.greater_equal(sample, rate)
  return elementwise.where(keep, scaled, core_ops.constant(0, dt))
end, "tf.nn.dropout(x, rate [, noise_shape] [, seed] [, {name=}])",
"Zeroes each element with probability rate and scales the others by 1 / (1 - rate), as TF: a "
.. "uniform sample from the session's random stream (tf.random.set_seed; seed as tf.random.uniform's), "
.. "kept where sample >= rate. noise_shape shares the mask along dimensions of size 1. The gradient "
.. "flows through the same mask. A rate of 0 (a number) returns x.",
{ required = 2, positional = { "noise_shape", "seed" }, "name" })

-- embedding_lookup ------------------------------------------------------------

-- TF's clip_by_norm over the embedding axes (_clip in embedding_ops).
local function clip_rows(emb, ids, max_norm)
  local er, ir = emb.shape.rank, ids.shape.rank
  if not er or not ir then
    raise("ValueError", "tf.nn.embedding_lookup: max_norm needs ids and params of known rank", 3)
  end
  local axes = {}
  for a = ir, er - 1 do axes[#axes + 1] = a end
  local l2 = elementwise.sqrt(reduce.reduce_sum(emb * emb, axes, true))
  local clip = core_ops.constant(max_norm, core.dtype(emb))
  return emb * clip / elementwise.maximum(l2, clip)
end

M.embedding_lookup = options.def(function(params, ids, max_norm, opts)
  if type(params) == "table" and getmetatable(params) == nil then
    if #params == 0 then raise("ValueError", "Need at least one param", 2) end
    -- TF2's strategy is "div": shard p holds a contiguous block of rows,
    -- so the shards in order are the whole table.
    params = #params == 1 and params[1] or join.concat(params, 0)
  end
  ids = core_ops.convert_to_tensor(ids)
  if not core.dtype(ids).is_integer then
    raise("TypeError", ("Value passed to parameter 'indices' has DataType %s not in list of allowed values: "
      .. "int16, int32, int64"):format(core.dtype(ids).name), 2)
  end
  local emb = op(H.GatherV2, { batch_dims = 0, name = opts.name or "embedding_lookup" }, params, ids, 0)
  if max_norm ~= nil then emb = clip_rows(emb, ids, max_norm) end
  return emb
end, "tf.nn.embedding_lookup(params, ids [, max_norm] [, {name=}])",
"Rows of params (a tensor, variable, or list of shards split as TF2's 'div' strategy) for integer ids, "
.. "0-based: a GatherV2 on axis 0, as TF. max_norm clips each embedding to that L2 norm. The gradient is "
.. "dense (params' shape, rows summed per id) where TF gives tf.IndexedSlices: the same numbers.",
{ required = 2, positional = { "max_norm" }, "name" })

-- The activations TF's nn_ops.py builds from other ops.

-- A float tensor of x: TF's gelu checks the dtype itself (a ValueError,
-- with its message), before any op sees the integers.
local function float_features(x)
  x = to_tensor(x)
  if not core.dtype(x).is_floating then
    raise("ValueError", ("`features.dtype` must be a floating point tensor.Received:features.dtype=<dtype: '%s'>")
      :format(core.dtype(x).name), 3)
  end
  return x
end

M.gelu = options.def(function(features, approximate, opts)
  local x = float_features(features)
  local dt = core.dtype(x)
  local c = function(v) return core_ops.constant(v, dt) end
  local named = { name = opts.name }
  if approximate then
    local inner = c(0.7978845608028654) * (x + c(0.044715) * elementwise.pow(x, c(3)))
    return elementwise.multiply(c(0.5) * x, c(1) + elementwise.tanh(inner), named)
  end
  return elementwise.multiply(c(0.5) * x, c(1) + elementwise.erf(x / c(1.4142135623730951)), named)
end, "tf.nn.gelu(features [, approximate])",
"The Gaussian error linear unit: x * P(X <= x) for X ~ N(0, 1), 0.5 x (1 + erf(x / sqrt 2)); with "
.. "approximate = true, 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))). Built from those ops, as TF's nn_ops.gelu.",
{ required = 1, positional = { "approximate" }, "name" })

M.silu = options.def(function(features, beta, opts)
  -- TF's silu does not check the dtype: integers reach Sigmoid, which refuses them.
  local x = to_tensor(features)
  local named = { name = opts.name }
  if beta == nil or beta == 1 or beta == 1.0 then return elementwise.multiply(x, elementwise.sigmoid(x), named) end
  return elementwise.multiply(x, elementwise.sigmoid(core_ops.constant(beta, core.dtype(x)) * x), named)
end, "tf.nn.silu(features [, beta])",
"The sigmoid linear unit (swish): x * sigmoid(beta * x), beta 1 by default. tf.nn.swish is the same function.",
{ required = 1, positional = { "beta" }, "name" })
M.swish = M.silu


M.namespaces = {
  nn = { "softmax", "log_softmax", "bias_add", "softmax_cross_entropy_with_logits",
    "sparse_softmax_cross_entropy_with_logits", "moments", "l2_normalize", "dropout", "embedding_lookup",
    "gelu", "silu", "swish" },
  math = { "softmax", "l2_normalize" },
  linalg = { "l2_normalize" },
}

return M
