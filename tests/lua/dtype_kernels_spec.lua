-- dtype_kernels_spec.lua — the audit of (op, dtype) kernel pairs (issue 28,
-- "Dtypes"): for each op below and each small or half dtype, whether
-- TensorFlow's CPU kernels register it, and moonflow computing the op where
-- TF does (eagerly and in a tf.func, the values checked) and raising TF's
-- NotFoundError where TF has no kernel. The registrations, from TF's
-- kernel files (REGISTER_KERNEL_BUILDER / TF_CALL_* lists):
--   FloorDiv        cwise_op_floor_div.cc: every integer type, half, bfloat16
--   FloorMod        cwise_op_floor_mod.cc: every integer type, half, bfloat16
--   TruncateDiv     cwise_op_div.cc: the integer types only
--   TruncateMod     cwise_op_mod.cc: the integer types only
--   Sum, Mean, Max, Min   reduction_ops_*.cc: TF_CALL_REAL_NUMBER_TYPES
--   Relu, Relu6     relu_op.cc: TF_CALL_REAL_NUMBER_TYPES
--   Cumsum, Cumprod scan_ops.cc: TF_CALL_NUMBER_TYPES
--   SegmentSum, UnsortedSegmentSum   segment_reduction_ops_impl_*.cc:
--                   TF_CALL_REAL_NUMBER_TYPES
--   BiasAdd         bias_op.cc: TF_CALL_NUMBER_TYPES
--   (TF_CALL_REAL_NUMBER_TYPES: every integer type, uint64 included, and
--   half, bfloat16, float, double: register_types.h)
--   Range           sequence_ops.cc: half, bfloat16, int8, int16, uint32 of
--                   the small ones (its Tidx list); uint8, uint16, uint64 are
--                   refused by that list before any kernel is looked for,
--                   which moonflow reports as the missing kernel
--   Square          cwise_op_square.cc: bfloat16, int8, int16, uint8,
--                   uint16, uint32, uint64 (its second REGISTER7) and half
--   Unique          unique_op.cc: TF_CALL_REAL_NUMBER_TYPES
--   Abs, Neg, Sign  cwise_op_abs.cc, _neg, _sign: half, bfloat16, int8,
--                   int16 of the small ones (no unsigned type)
--   RandomStandardNormal, RandomUniform   random_op.cc: half, bfloat16
--   Conv2DBackpropInput, Conv2DBackpropFilter   conv_grad_*_ops.cc: half
--                   (and bfloat16, as Conv2D)
-- Values: small non-negative operands every dtype holds exactly, so each
-- result is the same number in every dtype (or its rounding to a half
-- type, computed here through float32 as TF's Eigen::half does).
local tf = tf or require("moonflow")
local H = require("helpers")

local SMALL = { "float16", "bfloat16", "int8", "int16", "uint8", "uint16", "uint32", "uint64" }
local HALF = { float16 = true, bfloat16 = true }
local INTS = { int8 = true, int16 = true, uint8 = true, uint16 = true, uint32 = true, uint64 = true }
local HALF_AND_SIGNED = { float16 = true, bfloat16 = true, int8 = true, int16 = true }
local ALL = {}
for _, d in ipairs(SMALL) do ALL[d] = true end

local function c(v, dt) return tf.constant(v, tf[dt]) end

-- Each row: the op, the dtypes TF registers a CPU kernel for, the call, and
-- the values it gives (numbers, as :numpy() reads them).
local ROWS = {
  { "FloorDiv", ALL, function(dt) return tf.math.floordiv(c({ 7, 9, 100 }, dt), c({ 2, 4, 7 }, dt)) end,
    { 3, 2, 14 } },
  { "FloorMod", ALL, function(dt) return tf.math.floormod(c({ 7, 9, 100 }, dt), c({ 2, 4, 7 }, dt)) end,
    { 1, 1, 2 } },
  { "TruncateDiv", INTS, function(dt) return tf.math.truncatediv(c({ 7, 9, 100 }, dt), c({ 2, 4, 7 }, dt)) end,
    { 3, 2, 14 } },
  { "TruncateMod", INTS, function(dt) return tf.math.truncatemod(c({ 7, 9, 100 }, dt), c({ 2, 4, 7 }, dt)) end,
    { 1, 1, 2 } },
  { "Sum", ALL, function(dt) return tf.reduce_sum(c({ { 7, 9 }, { 101, 3 } }, dt), 0) end, { 108, 12 } },
  { "Mean", ALL, function(dt) return tf.reduce_mean(c({ 7, 9, 101, 3 }, dt)) end, 30 },
  { "Max", ALL, function(dt) return tf.reduce_max(c({ 7, 9, 101, 3 }, dt)) end, 101 },
  { "Min", ALL, function(dt) return tf.reduce_min(c({ 7, 9, 101, 3 }, dt)) end, 3 },
  { "Relu", { float16 = true, bfloat16 = true, int8 = true, int16 = true, uint8 = true, uint16 = true,
    uint32 = true, uint64 = true }, function(dt) return tf.nn.relu(c({ 0, 7, 101 }, dt)) end, { 0, 7, 101 } },
  { "Relu6", ALL, function(dt) return tf.nn.relu6(c({ 0, 3, 7, 101 }, dt)) end, { 0, 3, 6, 6 } },
  { "Cumsum", ALL, function(dt) return tf.math.cumsum(c({ 7, 9, 101 }, dt)) end, { 7, 16, 117 } },
  { "Cumprod", ALL, function(dt) return tf.math.cumprod(c({ 1, 2, 3, 4 }, dt)) end, { 1, 2, 6, 24 } },
  { "UnsortedSegmentSum", ALL,
    function(dt) return tf.math.unsorted_segment_sum(c({ 7, 9, 101, 3 }, dt), tf.constant({ 0, 1, 0, 1 }), 2) end,
    { 108, 12 } },
  { "SegmentSum", ALL, function(dt) return tf.math.segment_sum(c({ 7, 9, 101, 3 }, dt), tf.constant({ 0, 0, 1, 1 })) end,
    { 16, 104 } },
  { "BiasAdd", ALL, function(dt) return tf.nn.bias_add(c({ { 1, 2 }, { 3, 4 } }, dt), c({ 5, 6 }, dt)) end,
    { { 6, 8 }, { 8, 10 } } },
  { "Square", ALL, function(dt) return tf.square(c({ 0, 3, 11 }, dt)) end, { 0, 9, 121 } },
  { "Unique", ALL, function(dt) return (tf.unique(c({ 7, 3, 7, 9, 3 }, dt))) end, { 7, 3, 9 } },
  { "Abs", HALF_AND_SIGNED, function(dt) return tf.abs(c({ 0, 3, 11 }, dt)) end, { 0, 3, 11 } },
  { "Neg", HALF_AND_SIGNED, function(dt) return tf.negative(tf.negative(c({ 0, 3, 11 }, dt))) end,
    { 0, 3, 11 } },
  { "Sign", HALF_AND_SIGNED, function(dt) return tf.sign(c({ 0, 3, 11 }, dt)) end, { 0, 1, 1 } },
  { "Range", { float16 = true, bfloat16 = true, int8 = true, int16 = true, uint32 = true },
    function(dt) return tf.range(1, 11, 3, tf[dt]) end, { 1, 4, 7, 10 } },
}

-- Calls f(dt) eagerly and traced; both must give `want`.
local function computes(f, dt, want)
  for _, g in ipairs({ f, tf.func(f) }) do
    local out = g(dt)
    assert.equals(tf[dt], out.dtype)
    assert.same(want, out:numpy())
  end
end

local function no_kernel(f, dt, op)
  for _, g in ipairs({ f, tf.func(f) }) do
    H.raises("NotFoundError", op, g, dt)
  end
end

describe("(op, dtype) pairs: a kernel exactly where TF's CPU kernels have one", function()
  for _, row in ipairs(ROWS) do
    local op, has, f, want = row[1], row[2], row[3], row[4]
    for _, dt in ipairs(SMALL) do
      it(("%s %s: %s"):format(op, dt, has[dt] and "computes" or "NotFoundError"), function()
        if has[dt] then computes(f, dt, want) else no_kernel(f, dt, op) end
      end)
    end
  end
end)

describe("uint64's kernels past int64's range", function()
  local big = tf.bitcast(tf.constant({ -1, math.mininteger, 7 }, tf.int64), tf.uint64)
  local function u64(t) return tf.bitcast(t, tf.int64):numpy() end

  it("divides as unsigned: FloorDiv and TruncateDiv, FloorMod and TruncateMod", function()
    local y = tf.constant({ 10, 3, 2 }, tf.uint64)
    -- (2^64 - 1) // 10, 2^63 // 3, 7 // 2; as int64 bits
    local q = { 1844674407370955161, 3074457345618258602, 3 }
    assert.same(q, u64(tf.math.floordiv(big, y)))
    assert.same(q, u64(tf.math.truncatediv(big, y)))
    assert.same({ 5, 2, 1 }, u64(tf.math.floormod(big, y)))
    assert.same({ 5, 2, 1 }, u64(tf.math.truncatemod(big, y)))
    assert.same({ 9223372036854775807, 4611686018427387904, 3 }, u64(big // tf.constant(2, tf.uint64)))
  end)

  it("refuses a zero divisor as TF's kernel does", function()
    H.raises("InvalidArgumentError", "Integer division by zero", tf.math.floordiv, big,
      tf.constant({ 1, 0, 1 }, tf.uint64))
    H.raises("InvalidArgumentError", "Integer division by zero", tf.math.truncatemod, big,
      tf.constant(0, tf.uint64))
  end)

  it("takes Mean as TF's MeanReducer: the sum wraps in uint64, then divides by the count", function()
    -- (2^64 - 1) + 2^63 + 7 wraps to 2^63 + 6; over 3
    assert.same(3074457345618258604, u64(tf.reduce_mean(big)))
    local two = tf.bitcast(tf.constant({ -1, -1 }, tf.int64), tf.uint64)
    assert.same(9223372036854775807, u64(tf.reduce_mean(two)))
    assert.same({ 1, 4 }, tf.reduce_mean(tf.constant({ { 1, 2 }, { 3, 5 } }, tf.uint64), 1):numpy())
  end)
end)

describe("FloorDiv in the half types", function()
  it("floors the quotient rounded to the type, as TF's floor_div_real<Eigen::half>", function()
    -- 2047 / 682.5 is 2.99927 in float32, 3 once rounded to float16
    local x, y = tf.constant({ 2047.0, -7.0, 7.0 }, tf.float16), tf.constant({ 682.5, 2.0, 0.0 }, tf.float16)
    for _, f in ipairs({ tf.math.floordiv, tf.func(tf.math.floordiv) }) do
      assert.same({ 3, -4, math.huge }, f(x, y):numpy())
    end
    assert.same({ 3, -4, math.huge }, tf.math.floordiv(tf.cast(x, tf.bfloat16), tf.cast(y, tf.bfloat16)):numpy())
  end)
end)

describe("Range in the half types", function()
  it("sizes and steps in the type itself, each sum rounded, as TF's kernel", function()
    -- 0.1 is 0.099975586 in float16: ten steps fill [0, 1), and the sums
    -- drift from k * 0.1 as each rounds to float16
    local r = tf.range(0, 1, 0.1, tf.float16)
    assert.same({ 10 }, r.shape:as_list())
    assert.equals("tf.Tensor([0.     0.1    0.2    0.2998 0.4    0.5    0.6    0.7    0.8003 0.9004], "
      .. "shape=(10,), dtype=float16)", tostring(r))
    -- 2049 is 2048 in float16: 8 elements, not 9
    assert.same({ 0, 256, 512, 768, 1024, 1280, 1536, 1792 }, tf.range(0, 2049, 256, tf.float16):numpy())
    assert.same({ 100, 93, 86 }, tf.range(100, 80, -7, tf.int8):numpy())
  end)
end)

describe("the random ops in float16 and bfloat16", function()
  local function round_to(x, dt) return tf.cast(tf.cast(x, dt), tf.float32):numpy() end

  it("normal: float32's Box-Muller draws, each rounded to the type", function()
    for _, dt in ipairs({ tf.float16, tf.bfloat16 }) do
      tf.random.set_seed(3)
      local h = tf.random.normal({ 6 }, 0, 1, dt, 1)
      tf.random.set_seed(3)
      local f = tf.random.normal({ 6 }, 0, 1, tf.float32, 1)
      assert.equals(dt, h.dtype)
      assert.same(round_to(f, dt), tf.cast(h, tf.float32):numpy())
    end
  end)

  it("uniform: in [0, 1), from the sample's low mantissa bits (TF's Uint16ToHalf)", function()
    for _, dt in ipairs({ tf.float16, tf.bfloat16 }) do
      tf.random.set_seed(5)
      local u = tf.random.uniform({ 64 }, 0, 1, dt, 2)
      assert.equals(dt, u.dtype)
      -- float16 has 10 mantissa bits, bfloat16 7: every value a multiple
      -- of 2^-10 or 2^-7
      local step = dt == tf.float16 and 1024 or 128
      for _, v in ipairs(u:numpy()) do
        assert.is_true(v >= 0 and v < 1, tostring(v))
        assert.equals(math.floor(v * step), v * step)
      end
      local s = tf.random.uniform({ 3 }, 2, 4, dt)
      for _, v in ipairs(s:numpy()) do assert.is_true(v >= 2 and v <= 4, tostring(v)) end
    end
  end)
end)

describe("Conv2D's gradients in the half types", function()
  it("Conv2DBackpropInput and Conv2DBackpropFilter: float32's results rounded", function()
    local x = tf.reshape(tf.range(1, 2 * 4 * 4 * 2 + 1, 1, tf.float32) / 16, { 2, 4, 4, 2 })
    local w = tf.reshape(tf.range(1, 3 * 3 * 2 * 3 + 1, 1, tf.float32) / 32, { 3, 3, 2, 3 })
    local function grads(dt)
      local xx, ww = tf.cast(x, dt), tf.cast(w, dt)
      local tape = tf.GradientTape()
      tape:watch(xx)
      tape:watch(ww)
      local y = tf.nn.conv2d(xx, ww, 1, "SAME")
      tape:stop()
      local g = tape:gradient(y, { xx, ww })
      return g[1], g[2]
    end
    local gx32, gw32 = grads(tf.float32)
    for _, dt in ipairs({ tf.float16, tf.bfloat16 }) do
      local gx, gw = grads(dt)
      assert.equals(dt, gx.dtype)
      assert.equals(dt, gw.dtype)
      -- the inputs are exact in both types and the sums small, so the
      -- float32 result rounded once is what the type gives
      assert.same(tf.cast(tf.cast(gx32, dt), tf.float32):numpy(), tf.cast(gx, tf.float32):numpy())
      assert.same(tf.cast(tf.cast(gw32, dt), tf.float32):numpy(), tf.cast(gw, tf.float32):numpy())
    end
  end)

  it("refuses mixed dtypes in Conv2DBackpropFilter's data inputs", function()
    local core = require("moonflow.core")
    H.raises("InvalidArgumentError", "was expected to be a half tensor but is a float tensor", core.op,
      "Conv2DBackpropFilter", { strides = { 1, 1, 1, 1 }, padding = "SAME" }, tf.zeros({ 1, 2, 2, 1 }, tf.float16),
      tf.constant({ 1, 1, 1, 1 }), tf.zeros({ 1, 2, 2, 1 }))
  end)
end)
