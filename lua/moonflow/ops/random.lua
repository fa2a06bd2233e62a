-- random.lua — the random family (core/ops/ops_random.c): samples from
-- the session's random stream, tf.random.normal (RandomStandardNormal,
-- scaled and shifted) and tf.random.uniform (RandomUniform), and
-- tf.random.set_seed, which makes them reproducible; and the stateless
-- draws (tf.random.stateless_*, split, fold_in), whose values are a
-- function of the seed argument alone.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local dtypes = require("moonflow.tensor.dtypes")
local common = require("moonflow.ops.common")
local core_ops = require("moonflow.ops.core")
local elementwise = require("moonflow.ops.elementwise")
local options = require("moonflow.options")
local raise = errors.raise

local op = core.op
local H = state.H
local op_def = common.op_def
local to_tensor, shape_arg = core_ops.to_tensor, core_ops.shape_arg
local I32 = dtypes.int32

local M = {}

local function random_op(opname, shape, dtype, seed, opts)
  dtype = dtype and dtypes.as_dtype(dtype) or dtypes.float32
  return op(H[opname], { dtype = dtype.is_floating and dtype or dtypes.float32, seed = seed or 0, seed2 = 0,
    name = opts.name, _dtypes = { I32 } }, shape_arg(shape)), dtype
end

-- A distribution parameter: a Lua number, or a tensor of the sample's dtype.
local function number_or_tensor(v, like)
  if type(v) == "number" or core.is_tensor(v) then return v end
  return to_tensor(v, core.dtype(like))
end

M.normal = op_def("RandomStandardNormal", function(shape, mean, stddev, dtype, seed, opts)
  local want = dtype and dtypes.as_dtype(dtype)
  if want and not want.is_floating then
    raise("TypeError", ("Value passed to parameter 'dtype' has DataType %s not in list of allowed values: "
      .. "float32, float64"):format(want.name), 2)
  end
  local x
  x, dtype = random_op("RandomStandardNormal", shape, dtype, seed, opts)
  stddev, mean = number_or_tensor(stddev or 1, x), number_or_tensor(mean or 0, x)
  if stddev ~= 1 then x = x * stddev end
  if mean ~= 0 then x = x + mean end
  if dtype ~= core.dtype(x) then x = elementwise.cast(x, dtype) end
  return x
end, "tf.random.normal(shape [, {mean=, stddev=, dtype=, seed=, name=}])",
"Then scaled by stddev (default 1) and shifted by mean (default 0); float32 unless dtype says otherwise.",
{ required = 1, positional = { "mean", "stddev", "dtype", "seed" }, "name" })

M.uniform = op_def("RandomUniform", function(shape, minval, maxval, dtype, seed, opts)
  local x
  x, dtype = random_op("RandomUniform", shape, dtype, seed, opts)
  local lo, hi = number_or_tensor(minval or 0, x), number_or_tensor(maxval or 1, x)
  if dtype.is_integer then
    if maxval == nil then raise("ValueError", "Must specify maxval for integer dtype " .. dtype.name, 2) end
    local a, b = minval or 0, maxval
    if type(a) == "number" and type(b) == "number" and a >= b then
      raise("InvalidArgumentError", ("Need minval < maxval: %s >= %s"):format(
        math.tointeger(a) or a, math.tointeger(b) or b), 2)
    end
    return elementwise.cast(elementwise.floor(x * (hi - lo) + lo), dtype)
  end
  if hi - lo ~= 1 then x = x * (hi - lo) end
  if lo ~= 0 then x = x + lo end
  return x
end, "tf.random.uniform(shape [, {minval=, maxval=, dtype=, seed=, name=}])",
"Then scaled to [minval, maxval) (default [0, 1)); an integer dtype needs maxval.",
{ required = 1, positional = { "minval", "maxval", "dtype", "seed" }, "name" })

M.set_seed = options.def(function(seed)
  local n = math.tointeger(seed)
  if n == nil then raise("TypeError", "tf.random.set_seed: the seed must be an integer, got " .. tostring(seed), 2) end
  core.set_seed(n)
end,
  "tf.random.set_seed(seed)", "Makes the random ops that follow reproducible.", { required = 1 })

-- ---- stateless draws: the values are a function of (seed, shape, dtype) ----

-- TF's random_ops_util.convert_alg_to_int: the CPU kernels have Philox
-- (auto_select picks it); ThreeFry is XLA's alone.
local ALGS = { philox = 1, threefry = 2, auto_select = 3 }
local function check_alg(alg)
  if alg == nil then return end
  local id = type(alg) == "string" and ALGS[alg:lower()] or (math.type(alg) == "integer" and alg)
  if not id then
    raise("ValueError", ("Argument `alg` got unsupported value %s. Supported values are %s."):format(
      tostring(alg), "('philox', 'auto_select') or their integer ids (1, 3)"), 4)
  end
  if id ~= 1 and id ~= 3 then raise("InvalidArgumentError", ("Unsupported algorithm id: %d"):format(id), 4) end
end

-- The seed: a shape-[2] int32/int64 tensor or a Lua list of two integers.
local function seed_tensor(seed)
  if seed == nil then raise("TypeError", "missing required argument: 'seed'", 4) end
  local t = to_tensor(seed)
  local dt = core.dtype(t)
  if dt ~= dtypes.int32 and dt ~= dtypes.int64 then
    raise("TypeError", ("Value passed to parameter 'seed' has DataType %s not in list of allowed values: "
      .. "int32, int64"):format(dt.name), 4)
  end
  return t
end

local function stateless(opname, shape, seed, dtype, name, extra)
  return op(H[opname], { dtype = dtype, name = name, _dtypes = { I32 } },
    shape_arg(shape), seed_tensor(seed), table.unpack(extra or {}))
end

local FLOATS = "float16, bfloat16, float32, float64"
local function float_dtype(dtype)
  dtype = dtype and dtypes.as_dtype(dtype) or dtypes.float32
  if not dtype.is_floating then
    raise("TypeError", ("Value passed to parameter 'dtype' has DataType %s not in list of allowed values: %s")
      :format(dtype.name, FLOATS), 4)
  end
  return dtype
end

local DETERMINISTIC = " The same (seed, shape, dtype) gives the same values on every call, eagerly and in a "
  .. "tf.func, on every machine: Philox4x32-10 keyed from the seed as TF's StatelessRandomGetKeyCounter, "
  .. "with TF's conversions of its samples (alg 'philox' or 'auto_select')."

M.stateless_uniform = op_def("StatelessRandomUniform", function(shape, seed, minval, maxval, dtype, alg, opts)
  dtype = dtype and dtypes.as_dtype(dtype) or dtypes.float32
  check_alg(alg)
  if dtype.is_integer then
    if dtype ~= dtypes.int32 and dtype ~= dtypes.int64 then
      raise("TypeError", ("Value passed to parameter 'dtype' has DataType %s not in list of allowed values: "
        .. "int32, int64"):format(dtype.name), 2)
    end
    if (minval == nil) ~= (maxval == nil) then
      raise("ValueError", ("For integer `dtype` argument <dtype: '%s'>, argument `minval` and `maxval` must be "
        .. "both None or not None. Got `minval`=%s and `maxval`=%s."):format(dtype.name,
        minval == nil and "None" or tostring(minval), maxval == nil and "None" or tostring(maxval)), 2)
    end
    if minval == nil then return stateless("StatelessRandomUniformFullInt", shape, seed, dtype, opts.name) end
    return stateless("StatelessRandomUniformInt", shape, seed, dtype, opts.name,
      { to_tensor(minval, dtype), to_tensor(maxval, dtype) })
  end
  float_dtype(dtype)
  local x = stateless("StatelessRandomUniform", shape, seed, dtype, opts.name)
  local lo, hi = number_or_tensor(minval or 0, x), number_or_tensor(maxval or 1, x)
  if hi - lo ~= 1 then x = x * (hi - lo) end
  if lo ~= 0 then x = x + lo end
  return x
end, "tf.random.stateless_uniform(shape, seed [, {minval=, maxval=, dtype=, alg=, name=}])",
"Scaled to [minval, maxval) (default [0, 1)) for float16, bfloat16, float32 and float64; int32 and int64 take "
  .. "both minval and maxval (uniform in [minval, maxval)) or neither (the dtype's whole range)." .. DETERMINISTIC,
{ required = 2, positional = { "minval", "maxval", "dtype", "alg" }, "name" })

-- A stateless normal draw, scaled by stddev and shifted by mean.
local function normal_like(opname, shape, seed, mean, stddev, dtype, alg, name)
  dtype = float_dtype(dtype)
  check_alg(alg)
  local x = stateless(opname, shape, seed, dtype, name)
  stddev, mean = number_or_tensor(stddev or 1, x), number_or_tensor(mean or 0, x)
  if stddev ~= 1 then x = x * stddev end
  if mean ~= 0 then x = x + mean end
  return x
end

M.stateless_normal = op_def("StatelessRandomNormal", function(shape, seed, mean, stddev, dtype, alg, opts)
  return normal_like("StatelessRandomNormal", shape, seed, mean, stddev, dtype, alg, opts.name)
end,
  "tf.random.stateless_normal(shape, seed [, {mean=, stddev=, dtype=, alg=, name=}])",
  "Scaled by stddev (default 1) and shifted by mean (default 0); float32 unless dtype says otherwise "
    .. "(float16, bfloat16, float32, float64). Normals come from Box-Muller on pairs of samples." .. DETERMINISTIC,
  { required = 2, positional = { "mean", "stddev", "dtype", "alg" }, "name" })

M.stateless_truncated_normal = op_def("StatelessTruncatedNormal", function(shape, seed, mean, stddev, dtype, alg, opts)
  return normal_like("StatelessTruncatedNormal", shape, seed, mean, stddev, dtype, alg, opts.name)
end,
  "tf.random.stateless_truncated_normal(shape, seed [, {mean=, stddev=, dtype=, alg=, name=}])",
  "Values beyond two standard deviations are drawn again (TF's rejection, each group of values from its own "
    .. "reserved samples); then scaled by stddev and shifted by mean." .. DETERMINISTIC,
  { required = 2, positional = { "mean", "stddev", "dtype", "alg" }, "name" })

M.stateless_split = op_def("StatelessRandomUniformFullInt", function(seed, num, alg, opts)
  local t = seed_tensor(seed)
  num = num or 2
  if math.type(num) ~= "integer" or num < 0 then
    raise("ValueError", ("num must be a non-negative integer, got %s"):format(tostring(num)), 2)
  end
  check_alg(alg)
  return stateless("StatelessRandomUniformFullInt", { num, 2 }, t, core.dtype(t), opts.name)
end, "tf.random.experimental.stateless_split(seed [, {num=, alg=, name=}])",
"Splits a seed into num new seeds (default 2), a [num, 2] tensor of the seed's dtype: TF's "
  .. "stateless_random_uniform over the dtype's range with that seed, so the same seed splits alike everywhere.",
{ required = 1, positional = { "num", "alg" }, "name" })

M.stateless_fold_in = op_def("StatelessRandomUniformFullInt", function(seed, data, alg, opts)
  if data == nil then raise("TypeError", "missing required argument: 'data'", 2) end
  check_alg(alg)
  local d = to_tensor(data)
  local dt = core.dtype(d)
  if dt ~= dtypes.int32 and dt ~= dtypes.int64 then
    raise("TypeError", ("Value passed to parameter 'dtype' has DataType %s not in list of allowed values: "
      .. "int32, int64"):format(dt.name), 2)
  end
  local first = stateless("StatelessRandomUniformFullInt", {}, seed, dt, opts.name)
  return to_tensor({ first, d })
end, "tf.random.experimental.stateless_fold_in(seed, data [, {alg=, name=}])",
"Folds an integer (data) into a seed: a new shape-[2] seed, [a draw over data's dtype from the seed, data], as TF's.",
{ required = 2, positional = { "alg" }, "name" })

M.namespaces = {
  random = { "normal", "uniform", "set_seed", "stateless_uniform", "stateless_normal", "stateless_truncated_normal",
    split = "stateless_split", fold_in = "stateless_fold_in" },
  ["random.experimental"] = { "stateless_split", "stateless_fold_in" },
}

return M
