-- nn_ops.lua — the tf.nn ops a small convolutional model reaches for after
-- conv2d: max_pool2d and avg_pool2d (MaxPool / AvgPool in the registry),
-- dropout (TF's composite: a uniform sample, a mask, a scale) and
-- embedding_lookup (a GatherV2, as TF's); and the cross-entropy wrappers,
-- which shape any rank for the 2-D ops. They join ops.nn, so tf.nn lists
-- them with the rest.

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

local nn = ops.nn
local I32 = dtypes.int32
local rank_of = shapes.rank

local function shape_of(x)
  local _, _, shape = core.info(x)
  return shape
end

local to_tensor = ops.to_tensor

-- TF's Python wrapper (nn_ops.py softmax_cross_entropy_with_logits_v2_helper):
-- the op takes 2-D logits, so a class axis other than the last is moved
-- last, other ranks are flattened to 2-D (_flatten_outer_dims) and the cost
-- is reshaped to the logits' shape without that axis. Labels take the
-- logits' dtype, as TF casts them.
local function flatten_outer_dims(t)
  local last = ops.slice(ops.shape(t), ops.reshape(ops.rank(t) - 1, { 1 }), { 1 })
  return ops.reshape(t, ops.concat({ ops.constant({ -1 }, I32), last }, 0))
end

local function xent_nd(labels, logits, axis, name)
  local input_rank = ops.rank(logits)
  if axis ~= -1 then
    local function move_dim_to_end(t)
      return ops.transpose(t, ops.concat({ ops.range(axis), ops.range(axis + 1, input_rank),
        ops.constant({ axis }, I32) }, 0))
    end
    logits, labels = move_dim_to_end(logits), move_dim_to_end(labels)
  end
  local input_shape = ops.shape(logits)
  local cost = op(H.SoftmaxCrossEntropyWithLogits, { name = name }, flatten_outer_dims(logits),
    flatten_outer_dims(labels))
  return ops.reshape(cost, ops.slice(input_shape, { 0 }, ops.reshape(input_rank - 1, { 1 })))
end

nn.softmax_cross_entropy_with_logits = def(function(labels, logits, axis, opts)
  labels, logits = to_tensor(labels), to_tensor(logits)
  if core.dtype(labels) ~= core.dtype(logits) then labels = ops.cast(labels, core.dtype(logits)) end
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
"Per-example cross-entropy between label distributions and softmax(logits) along axis (0-based, default the "
.. "last; any rank, as TF's wrapper transposes and reshapes). Also takes {labels=, logits=, axis=}.",
{ positional = { "labels", "logits", "axis" }, types = { axis = "number" }, "name" })

-- TF's Python wrapper (nn_ops.py): the op takes 2-D logits; other ranks
-- are checked against the labels, flattened to 2-D and the cost reshaped
-- to the labels' shape.
nn.sparse_softmax_cross_entropy_with_logits = def(function(labels, logits, opts)
  labels, logits = ops.convert_to_tensor(labels), ops.convert_to_tensor(logits)
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
  local labels_shape = ops.shape(labels)
  local num_classes = ops.gather(ops.shape(logits), ops.rank(logits) - 1)
  local flat_logits = ops.reshape(logits, ops.stack({ -1, num_classes }))
  local cost = op(H.SparseSoftmaxCrossEntropyWithLogits, { name = opts.name }, flat_logits, ops.reshape(labels, { -1 }))
  return ops.reshape(cost, labels_shape)
end, "tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits)",
"Per-example cross-entropy with integer class labels (0-based), labels of shape [d_0, ..., d_{r-1}] and "
.. "logits [d_0, ..., d_{r-1}, num_classes] (any rank, as TF's wrapper reshapes). Also takes {labels=, logits=}.",
{ positional = { "labels", "logits" }, "name" })


-- TF's _get_sequence for the 2-D pools: an int n -> {1, n, n, 1}, a list
-- of 1, 2 or 4 ints as TF reads it.
local function window_list(v, what, fname)
  if math.type(v) == "integer" then return { 1, v, v, 1 } end
  if type(v) == "table" and getmetatable(v) == nil then
    for _, d in ipairs(v) do
      if math.type(d) ~= "integer" then
        raise("TypeError", ("%s: %s must be integers, got %s"):format(fname, what, tostring(d)), 4)
      end
    end
    if #v == 1 then return { 1, v[1], v[1], 1 } end
    if #v == 2 then return { 1, v[1], v[2], 1 } end
    if #v == 4 then return v end
    local items = {}
    for i, d in ipairs(v) do items[i] = tostring(d) end
    raise("ValueError", ("%s should be of length 1, 2 or 4. Received: %s=[%s] of length %d")
      :format(what, what, table.concat(items, ", "), #v), 4)
  end
  raise("TypeError", ("%s: %s must be an integer or a list of integers, got a %s")
    :format(fname, what, type(v)), 4)
end

local function pool(opname, fname)
  return function(input, ksize, strides, padding, data_format, opts)
    if ksize == nil or strides == nil or padding == nil then
      local missing = {}
      for _, p in ipairs({ { "ksize", ksize }, { "strides", strides }, { "padding", padding } }) do
        if p[2] == nil then missing[#missing + 1] = "'" .. p[1] .. "'" end
      end
      raise("TypeError", ("%s() missing %d required positional argument%s: %s"):format(fname, #missing,
        #missing > 1 and "s" or "", table.concat(missing, " and ")), 3)
    end
    if type(padding) ~= "string" then
      raise("ValueError", ("%s: moonflow takes padding 'SAME' or 'VALID' (a string), got a %s")
        :format(fname, type(padding)), 3)
    end
    return op(H[opname], { ksize = window_list(ksize, "ksize", fname),
      strides = window_list(strides, "strides", fname), padding = padding:upper(),
      data_format = data_format or "NHWC", name = opts.name }, input)
  end
end

local POOL_SPEC = { required = 1, positional = { "ksize", "strides", "padding", "data_format" }, "name" }
nn.max_pool2d = def(pool("MaxPool", "tf.nn.max_pool2d"),
  "tf.nn.max_pool2d(input, ksize, strides, padding [, data_format] [, {name=}])",
  "The maximum over each ksize window of an NHWC batch; ksize and strides an integer or a list of 1, 2 "
  .. "or 4; padding 'SAME' or 'VALID' (padding never wins a max). data_format 'NHWC' only.", POOL_SPEC)
nn.avg_pool2d = def(pool("AvgPool", "tf.nn.avg_pool2d"),
  "tf.nn.avg_pool2d(input, ksize, strides, padding [, data_format] [, {name=}])",
  "The mean over each ksize window of an NHWC batch; with 'SAME' a window at the border averages its real "
  .. "pixels only, as TF does. data_format 'NHWC' only.", POOL_SPEC)
nn.max_pool = nn.max_pool2d
nn.avg_pool = nn.avg_pool2d

-- dropout -----------------------------------------------------------------

-- TF's _get_noise_shape: x's shape, or noise_shape with its None entries
-- taken from x.
local function noise_shape_of(x, noise_shape)
  if noise_shape == nil then
    local s = shapes.static(x)
    return s or ops.shape(x)
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
      else out[i], dynamic = ops.shape(x)[i - 1], true end
    else
      out[i] = d
    end
  end
  if dynamic then
    for i, d in ipairs(out) do if not core.is_tensor(d) then out[i] = ops.constant(d, dtypes.int32) end end
    return ops.stack(out)
  end
  return out
end

nn.dropout = def(function(x, rate, noise_shape, seed, opts)
  local is_number = type(rate) == "number"
  if is_number and (rate < 0 or rate >= 1) then
    raise("ValueError", ("`rate` must be a scalar tensor or a float in the range [0, 1). Received: rate=%s")
      :format(tostring(rate)), 2)
  end
  if not is_number and not core.is_tensor(rate) then
    raise("ValueError", ("`rate` must be a scalar tensor or a float in the range [0, 1). Received: rate=%s")
      :format(tostring(rate)), 2)
  end
  x = ops.convert_to_tensor(x)
  local dt = core.dtype(x)
  if not dt.is_floating then
    raise("ValueError", ("`x.dtype` must be a floating point tensor as `x` will be scaled. Received: x_dtype=%s")
      :format(dt.name), 2)
  end
  -- TF's fast path returns x itself for a Lua (Python) 0, after the checks.
  if is_number and rate == 0 then return x end
  local scaled
  if is_number then
    scaled = op(H.Mul, { name = opts.name }, x, ops.constant(1 / (1 - rate), dt))
  else
    local r = shapes.static(rate)
    if r and #r ~= 0 then
      raise("ValueError", ("Shape must be rank 0 but is rank %d for the dropout rate"):format(#r), 2)
    end
    if core.dtype(rate) ~= dt then rate = ops.cast(rate, dt) end
    scaled = ops.divide(x, ops.constant(1, dt) - rate)
  end
  local sample = ops.random.uniform(noise_shape_of(x, noise_shape), { dtype = dt, seed = seed })
  local keep = ops.greater_equal(sample, rate)
  return ops.where(keep, scaled, ops.constant(0, dt))
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
  local l2 = ops.sqrt(ops.reduce_sum(emb * emb, axes, true))
  local clip = ops.constant(max_norm, core.dtype(emb))
  return emb * clip / ops.maximum(l2, clip)
end

nn.embedding_lookup = def(function(params, ids, max_norm, opts)
  if type(params) == "table" and getmetatable(params) == nil then
    if #params == 0 then raise("ValueError", "Need at least one param", 2) end
    -- TF2's strategy is "div": shard p holds a contiguous block of rows,
    -- so the shards in order are the whole table.
    params = #params == 1 and params[1] or ops.concat(params, 0)
  end
  ids = ops.convert_to_tensor(ids)
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

return nn
