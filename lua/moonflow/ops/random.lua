-- random.lua — the random family (core/ops/ops_random.c): samples from
-- the session's random stream, tf.random.normal (RandomStandardNormal,
-- scaled and shifted) and tf.random.uniform (RandomUniform), and
-- tf.random.set_seed, which makes them reproducible.

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

M.namespaces = { random = { "normal", "uniform", "set_seed" } }

return M
