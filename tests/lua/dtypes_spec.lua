-- dtypes_spec.lua — the small and half dtypes (issue 28, "Dtypes"):
-- float16, bfloat16, int8, int16, uint8, uint16, uint32, uint64, made,
-- printed, cast, computed, traced and differentiated as TF does. Printed
-- forms and values are NumPy's (np.float16 arithmetic rounds each op's
-- float result to half, as Eigen::half does in TF's CPU kernels); the
-- ported cases name their TF test file.
local tf = tf or require("moonflow")
local H = require("helpers")

local function text(t) return tostring(t) end

describe("the dtype objects (dtypes_test.py)", function()
  it("exist under tf and tf.dtypes, with TF's names and the aliases", function()
    for _, name in ipairs({ "float16", "bfloat16", "int8", "int16", "uint8", "uint16", "uint32", "uint64" }) do
      assert.equals(name, tf[name].name)
      assert.equals(tf[name], tf.dtypes[name])
      assert.equals(tf[name], tf.as_dtype(name))
      assert.equals(tf[name], tf.dtypes.as_dtype(name))
    end
    assert.equals(tf.float16, tf.half)
    assert.equals(tf.float16, tf.as_dtype("half"))
    assert.equals("tf.float16", tostring(tf.float16))
  end)

  it("have TF's min, max and size (testMinMax)", function()
    assert.equals(-65504.0, tf.float16.min)
    assert.equals(65504.0, tf.float16.max)
    assert.equals(3.3895313892515355e38, tf.bfloat16.max)
    assert.same({ -128, 127 }, { tf.int8.min, tf.int8.max })
    assert.same({ -32768, 32767 }, { tf.int16.min, tf.int16.max })
    assert.same({ 0, 255 }, { tf.uint8.min, tf.uint8.max })
    assert.same({ 0, 65535 }, { tf.uint16.min, tf.uint16.max })
    assert.same({ 0, 4294967295 }, { tf.uint32.min, tf.uint32.max })
    assert.equals(2.0 ^ 64, tf.uint64.max)
    local sizes = { float16 = 2, bfloat16 = 2, int8 = 1, int16 = 2, uint8 = 1, uint16 = 2, uint32 = 4, uint64 = 8 }
    for name, size in pairs(sizes) do assert.equals(size, tf[name].size) end
  end)

  it("say which are floating, integer and unsigned (testIsUnsigned)", function()
    for _, name in ipairs({ "float16", "bfloat16" }) do
      assert.is_true(tf[name].is_floating)
      assert.is_false(tf[name].is_integer)
    end
    for _, name in ipairs({ "int8", "int16", "uint8", "uint16", "uint32", "uint64" }) do
      assert.is_true(tf[name].is_integer)
      assert.is_false(tf[name].is_floating)
    end
    for _, name in ipairs({ "uint8", "uint16", "uint32", "uint64" }) do assert.is_true(tf[name].is_unsigned) end
    for _, name in ipairs({ "int8", "int16", "int32", "int64", "float16", "float32" }) do
      assert.is_false(tf[name].is_unsigned)
    end
  end)

  it("refuse a name that is no dtype", function()
    H.raises("TypeError", "Cannot convert float17 to a dtype", tf.as_dtype, "float17")
  end)
end)

describe("making and printing", function()
  it("prints float16 as NumPy prints np.float16", function()
    assert.equals("tf.Tensor(0.1, shape=(), dtype=float16)", text(tf.constant(0.1, tf.float16)))
    assert.equals("tf.Tensor(1.0, shape=(), dtype=float16)", text(tf.constant(1, tf.float16)))
    assert.equals("tf.Tensor([0.1 0.2 0.3], shape=(3,), dtype=float16)", text(tf.constant({ 0.1, 0.2, 0.3 }, tf.float16)))
    assert.equals("tf.Tensor([1.e-07 1.e-04 1.e+00], shape=(3,), dtype=float16)",
      text(tf.constant({ 1e-7, 1e-4, 1 }, tf.float16)))
    assert.equals("tf.Tensor(\n[[ 1.50e+00 -2.25e+00]\n [ 1.00e+03  1.00e-03]], shape=(2, 2), dtype=float16)",
      text(tf.constant({ { 1.5, -2.25 }, { 1000, 0.001 } }, tf.float16)))
    assert.equals("tf.Tensor([inf], shape=(1,), dtype=float16)", text(tf.constant({ 1e6 }, tf.float16)))
  end)

  it("prints bfloat16 as ml_dtypes' repr (the float, 6 significant digits)", function()
    assert.equals("tf.Tensor(0.100098, shape=(), dtype=bfloat16)", text(tf.constant(0.1, tf.bfloat16)))
    assert.equals("tf.Tensor([1 0.100098 3.5], shape=(3,), dtype=bfloat16)", text(tf.constant({ 1, 0.1, 3.5 }, tf.bfloat16)))
  end)

  it("prints the small integers, uint64 past int64 included", function()
    assert.equals("tf.Tensor([1 2], shape=(2,), dtype=uint8)", text(tf.constant({ 1, 2 }, tf.uint8)))
    assert.equals("tf.Tensor([-128  127], shape=(2,), dtype=int8)", text(tf.constant({ -128, 127 }, tf.int8)))
    local big = tf.bitcast(tf.constant({ -1, 5 }, tf.int64), tf.uint64)
    assert.equals("tf.Tensor([18446744073709551615                    5], shape=(2,), dtype=uint64)", text(big))
  end)

  it("refuses a Lua number the dtype cannot hold with TF's TypeError", function()
    H.raises("TypeError", "Cannot convert 300 to EagerTensor of dtype uint8", tf.constant, 300, tf.uint8)
    H.raises("TypeError", "Cannot convert -1 to EagerTensor of dtype uint32", tf.constant, { 1, -1 }, tf.uint32)
    H.raises("TypeError", "Cannot convert 128 to EagerTensor of dtype int8", tf.constant, 128, tf.int8)
    H.raises("TypeError", "Cannot convert 1.5 to EagerTensor of dtype int16", tf.constant, 1.5, tf.int16)
    assert.equals(65535, tf.constant(65535, tf.uint16):numpy())
  end)

  it("gives the values back to Lua", function()
    assert.same({ 0.099975585937500, 2.0 }, tf.constant({ 0.1, 2 }, tf.float16):numpy())
    assert.same({ 255, 0 }, tf.constant({ 255, 0 }, tf.uint8):numpy())
  end)
end)

describe("tf.cast (cast_op_test.py)", function()
  it("truncates floats to integers and wraps out of range as x86 and NumPy do", function()
    local x = tf.constant({ 300.7, -1.5, 1e10 })
    assert.same({ 44, 255, 0 }, tf.cast(x, tf.uint8):numpy())
    assert.same({ 44, -1, 0 }, tf.cast(x, tf.int8):numpy())
    assert.same({ 300, -1, 0 }, tf.cast(x, tf.int16):numpy())
    assert.same({ 300, 4294967295, 1410065408 }, tf.cast(x, tf.uint32):numpy())
  end)

  it("wraps integers to narrower integers", function()
    local x = tf.constant({ -1, 256, 65519, 70000 })
    assert.same({ 255, 0, 239, 112 }, tf.cast(x, tf.uint8):numpy())
    assert.same({ -1, 256, -17, 4464 }, tf.cast(x, tf.int16):numpy())
  end)

  it("rounds to float16 to nearest even, overflowing to inf (testSmallValues, testInfNan)", function()
    local h = tf.cast(tf.constant({ 65519, 65520, 1 + 2 ^ -11, 1 + 3 * 2 ^ -11, 2 ^ -25 }), tf.float16)
    assert.same({ 65504, math.huge, 1, 1 + 2 ^ -9, 0 }, h:numpy())
    local back = tf.cast(tf.constant({ 0.1, -2.5 }, tf.float16), tf.float32)
    assert.same({ 0.0999755859375, -2.5 }, back:numpy())
    assert.equals("tf.Tensor([nan], shape=(1,), dtype=float16)", text(tf.cast(tf.constant({ 0 / 0 }), tf.float16)))
  end)

  it("goes between every pair of the new dtypes and bool", function()
    local names = { "float16", "bfloat16", "int8", "int16", "uint8", "uint16", "uint32", "uint64", "bool",
      "float32", "float64", "int32", "int64" }
    for _, a in ipairs(names) do
      for _, b in ipairs(names) do
        local x = tf.cast(tf.constant({ 0, 1, 2 }), tf[a])
        local y = tf.cast(x, tf[b])
        assert.equals(b, y.dtype.name)
        local want = b == "bool" and { false, true, true } or (a == "bool" and { 0, 1, 1 } or { 0, 1, 2 })
        assert.same(want, y:numpy())
      end
    end
  end)
end)

describe("tf.saturate_cast", function()
  it("clips to the destination's range instead of wrapping", function()
    assert.same({ 0, 100, 255 }, tf.saturate_cast(tf.constant({ -300, 100, 300 }), tf.uint8):numpy())
    assert.same({ -128, 127 }, tf.saturate_cast(tf.constant({ -1e10, 1e10 }), tf.int8):numpy())
    assert.same({ 65504, -65504 }, tf.saturate_cast(tf.constant({ 1e5, -1e5 }), tf.float16):numpy())
  end)

  it("takes the bound below where float rounding passes it (int32's max in float32)", function()
    assert.same({ -2147483648, 3, 2147483520 }, tf.saturate_cast(tf.constant({ -1e10, 3.7, 1e10 }), tf.int32):numpy())
  end)

  it("is a cast where the source range fits", function()
    assert.same({ 1, 2 }, tf.saturate_cast(tf.constant({ 1, 2 }, tf.uint8), tf.int32):numpy())
  end)

  it("refuses a name that is no dtype", function()
    H.raises("TypeError", "Cannot convert int3 to a dtype", tf.saturate_cast, tf.constant(1), "int3")
  end)
end)

describe("tf.bitcast (bitcast_op_test.py)", function()
  it("keeps the shape between equal sizes (testSameSize)", function()
    assert.equals(1065353216, tf.bitcast(tf.constant(1.0), tf.int32):numpy())
    assert.equals(16640, tf.bitcast(tf.constant(2.5, tf.float16), tf.uint16):numpy())
  end)

  it("adds a last axis to a smaller type (testSmaller)", function()
    local x = tf.bitcast(tf.constant({ { 1, 2 } }, tf.int32), tf.uint8)
    assert.same({ 1, 2, 4 }, x.shape:as_list())
    assert.same({ { { 1, 0, 0, 0 }, { 2, 0, 0, 0 } } }, x:numpy())
  end)

  it("takes the last axis into a larger type (testLarger)", function()
    local x = tf.bitcast(tf.reshape(tf.range(16), { 4, 4 }) + tf.zeros({ 4, 4 }, tf.int32), tf.int32)
    assert.equals(4, x.shape:as_list()[2])
    local y = tf.bitcast(tf.cast(tf.reshape(tf.range(16), { 4, 4 }), tf.int8), tf.int32)
    assert.same({ 50462976, 117835012, 185207048, 252579084 }, y:numpy())
  end)

  it("makes a scalar's bytes a vector (testEmpty)", function()
    assert.same({ 1, 0, 0, 0 }, tf.bitcast(tf.constant(1, tf.int32), tf.int8):numpy())
  end)

  it("refuses a last axis of the wrong size as TF's kernel does (testErrors)", function()
    H.raises("InvalidArgumentError", "Cannot bitcast from 6 to 3", tf.bitcast, tf.zeros({ 1, 1 }, tf.int8), tf.int32)
  end)

  it("refuses bool and string inputs", function()
    H.raises("InvalidArgumentError", "got bool", tf.bitcast, tf.constant({ true }), tf.int8)
    H.raises("TypeError", "has DataType bool not in list of allowed values", tf.bitcast, tf.constant({ 1 }), tf.bool)
  end)

  it("says the shape error while tracing, as TF's shape function", function()
    local f = tf.func(function(x) return tf.bitcast(x, tf.int32) end)
    H.raises("ValueError", "Cannot bitcast from int8 to int32 due to shape. 3 does not match 4",
      function() return f(tf.zeros({ 2, 3 }, tf.int8)) end)
  end)
end)

describe("arithmetic in the small dtypes", function()
  it("computes float16 per op in float and rounds back, as np.float16", function()
    local h = tf.constant({ 1, 2, 3 }, tf.float16)
    assert.equals("tf.Tensor([0.3333 0.6665 1.    ], shape=(3,), dtype=float16)", text(h / 3))
    assert.equals("tf.Tensor([1.    1.414 1.732], shape=(3,), dtype=float16)", text(tf.sqrt(h)))
    assert.equals("tf.Tensor([0.1    0.2    0.2998], shape=(3,), dtype=float16)", text(h * 0.1))
    local a, b = tf.constant({ 0.1, 0.2, 0.3 }, tf.float16), tf.constant({ 0.2, 0.2, 0.2 }, tf.float16)
    assert.equals("tf.Tensor([0.2998 0.4    0.5   ], shape=(3,), dtype=float16)", text(a + b))
    assert.equals(math.huge, (tf.constant(65504, tf.float16) + 16):numpy())
  end)

  it("wraps the small integers on overflow, as TF's integer kernels", function()
    local u = tf.constant({ 200, 100 }, tf.uint8)
    assert.same({ 44, 200 }, (u + tf.constant({ 100, 100 }, tf.uint8)):numpy())
    assert.same({ 255, 155 }, (u - 201):numpy())
    assert.same({ -128, -127 }, (tf.constant({ 127, -128 }, tf.int8) + 1):numpy())
    assert.same({ 16, 0 }, (tf.constant({ 4, 256 }, tf.int16) * tf.constant({ 4, 256 }, tf.int16)):numpy())
  end)

  it("converts Lua numbers as TF converts Python scalars", function()
    local u = tf.constant({ 1, 2 }, tf.uint8)
    assert.same({ 2, 3 }, (u + 1):numpy())
    H.raises("TypeError", "Cannot convert 300 to EagerTensor of dtype uint8", function() return u + 300 end)
    H.raises("TypeError", "Cannot convert 1.5 to EagerTensor of dtype uint8", function() return u + 1.5 end)
  end)

  it("refuses mixed dtypes with TF's InvalidArgumentError (no promotion)", function()
    H.raises("InvalidArgumentError",
      "cannot compute AddV2 as input #1(zero-based) was expected to be a uint8 tensor but is a int8 tensor",
      function() return tf.constant(1, tf.uint8) + tf.constant(1, tf.int8) end)
    H.raises("InvalidArgumentError", "was expected to be a half tensor but is a float tensor",
      function() return tf.constant(1, tf.float16) * tf.constant(1.0) end)
  end)

  it("divides the 8- and 16-bit integers as float32, the 32- and 64-bit as float64 (truediv)", function()
    assert.equals("float32", (tf.constant({ 3 }, tf.uint8) / 2).dtype.name)
    assert.equals("float64", (tf.constant({ 3 }, tf.uint32) / 2).dtype.name)
    assert.same({ 1.5 }, (tf.constant({ 3 }, tf.int16) / 2):numpy())
  end)

  it("compares, takes extremes and reduces", function()
    local u = tf.constant({ 200, 3, 100 }, tf.uint8)
    assert.same({ true, false, false }, tf.greater(u, 100):numpy())
    assert.same({ 200, 100, 100 }, tf.maximum(u, 100):numpy())
    assert.equals(200, tf.reduce_max(u):numpy())
    assert.equals(47, tf.reduce_sum(u):numpy()) -- 303 wraps to 47
    assert.equals(0, tf.argmax(u):numpy())
    assert.equals(2, tf.reduce_mean(tf.constant({ 1, 2, 3 }, tf.float16)):numpy())
  end)

  -- TF's reduction_ops.h gives bfloat16 a float accumulator; Eigen::half
  -- keeps a half one (so two halves' mean overflows where float's would not).
  it("accumulates float16 reductions in float16 and bfloat16 ones in float, as TF's CPU kernels", function()
    assert.equals(math.huge, tf.reduce_mean(tf.constant({ 65504, 65504 }, tf.float16)):numpy())
    assert.equals(math.huge, tf.reduce_sum(tf.constant({ { 65504 }, { 65504 } }, tf.float16), 0):numpy()[1])
    assert.equals(59904, tf.reduce_sum(tf.constant({ 10000, 10000, 10000, 10000, 10000, 10000 }, tf.bfloat16)):numpy())
    assert.equals(2, tf.reduce_mean(tf.constant({ 1, 2, 3 }, tf.float16)):numpy())
    assert.same({ 0 / 0 ~= 0 / 0 }, { tf.reduce_mean(tf.zeros({ 0 }, tf.float16)):numpy() ~= tf.reduce_mean(tf.zeros({ 0 }, tf.float16)):numpy() })
  end)

  it("orders uint64 past int64's range (its top bit is no sign)", function()
    local big = tf.bitcast(tf.constant({ -1, 5, math.mininteger }, tf.int64), tf.uint64) -- 2^64-1, 5, 2^63
    assert.same({ false, true, false }, tf.less(big, tf.constant({ 7, 7, 7 }, tf.uint64)):numpy())
    assert.equals(0, tf.argmax(big):numpy())
    assert.equals(1, tf.argmin(big):numpy())
    assert.equals("tf.Tensor(18446744073709551615, shape=(), dtype=uint64)", tostring(tf.reduce_max(big)))
    local m = tf.minimum(big, tf.bitcast(tf.constant({ math.mininteger, math.mininteger, math.mininteger }, tf.int64), tf.uint64))
    assert.equals("tf.Tensor([9223372036854775808                   5 9223372036854775808], shape=(3,), dtype=uint64)",
      tostring(m))
    assert.same({ 5, math.mininteger, -1 }, tf.sort(big):numpy()) -- 5, 2^63, 2^64-1 as Lua sees their bits
  end)

  it("sorts (TopKV2; unsigned ascending as max - x, as TF's sort_ops)", function()
    assert.same({ 0, 1, 3, 255 }, tf.sort(tf.constant({ 3, 1, 255, 0 }, tf.uint8)):numpy())
    assert.same({ 3, 1, 0, 2 }, tf.argsort(tf.constant({ 3, 1, 255, 0 }, tf.uint16)):numpy())
    assert.same({ -128, 2, 3 }, tf.sort(tf.constant({ 3, -128, 2 }, tf.int8)):numpy())
    local v, i = tf.math.top_k(tf.constant({ 3, 1, 200 }, tf.uint8), 2)
    assert.same({ 200, 3 }, v:numpy())
    assert.equals("int32", i.dtype.name)
    assert.same({ 2, 0 }, i:numpy())
  end)

  it("moves bytes in the shape ops", function()
    local u = tf.constant({ { 1, 2 }, { 3, 4 } }, tf.uint8)
    assert.same({ { 1, 3 }, { 2, 4 } }, tf.transpose(u):numpy())
    assert.same({ 1, 2, 3, 4 }, tf.reshape(u, { -1 }):numpy())
    assert.same({ { 1, 2 }, { 3, 4 }, { 1, 2 }, { 3, 4 } }, tf.concat({ u, u }, 0):numpy())
    assert.same({ 3, 4 }, tf.gather(u, 1):numpy())
    local h = tf.constant({ 0.5, 1.5, 2.5 }, tf.bfloat16)
    assert.same({ 2.5, 1.5, 0.5 }, tf.reverse(h, { 0 }):numpy())
    assert.same({ 1.5, 2.5 }, tf.slice(h, { 1 }, { 2 }):numpy())
    assert.same({ { 0.5, 1.5, 2.5 }, { 0.5, 1.5, 2.5 } }, tf.stack({ h, h }):numpy())
  end)

  it("fails as TF's kernel lookup does for an op with no kernel for the dtype", function()
    H.raises("NotFoundError", "Could not find device for node: {{node Sqrt}} = Sqrt[T=DT_UINT8]",
      tf.sqrt, tf.constant({ 4 }, tf.uint8))
    -- (uint64's FloorDiv, here until TF's kernel for it was, is in
    -- dtype_kernels_spec.lua's table now: TruncateDiv of a half type has none)
    H.raises("NotFoundError", "TruncateDiv[T=DT_HALF]", tf.math.truncatediv, tf.constant({ 4 }, tf.float16),
      tf.constant({ 4 }, tf.float16))
    H.raises("NotFoundError", "Neg[T=DT_UINT8]", tf.negative, tf.constant({ 4 }, tf.uint8))
  end)
end)

describe("traced and under a tape", function()
  it("traces a function of float16 and uint8 with their own signatures", function()
    local f = tf.func(function(x) return x * x + 1 end)
    assert.same({ 2, 5 }, f(tf.constant({ 1, 2 }, tf.float16)):numpy())
    assert.same({ 2, 5 }, f(tf.constant({ 1, 2 }, tf.uint8)):numpy())
    local cf = f:get_concrete_function(tf.TensorSpec({ 2 }, tf.float16))
    assert.truthy(tostring(cf):find("TensorSpec(shape=(2,), dtype=tf.float16, name=None)", 1, true))
    assert.equals("TensorSpec(shape=(3,), dtype=tf.bfloat16, name=None)", tostring(tf.TensorSpec({ 3 }, tf.bfloat16)))
  end)

  it("gives the same float16 values traced as eagerly (no fusion in float32)", function()
    local fn = function(a, b) return (a + b) * a - b / a end
    local a, b = tf.constant({ 0.1, 0.7, 3.3 }, tf.float16), tf.constant({ 0.2, 0.9, 1.1 }, tf.float16)
    assert.same(fn(a, b):numpy(), tf.func(fn)(a, b):numpy())
  end)

  it("differentiates float16 in float16", function()
    local x = tf.Variable(tf.constant({ 1, 2, 3 }, tf.float16))
    local tape = tf.GradientTape()
    local y = tf.reduce_sum(x * x)
    tape:stop()
    local g = tape:gradient(y, x)
    assert.equals("float16", g.dtype.name)
    assert.same({ 2, 4, 6 }, g:numpy())
  end)
end)
