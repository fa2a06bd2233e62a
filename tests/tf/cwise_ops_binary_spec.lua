-- cwise_ops_binary_spec.lua — tensorflow/python/kernel_tests/math_ops/
-- cwise_ops_binary_test.py (BinaryOpTest, ComparisonOpTest), ported for
-- the binary ops moonflow has: add, subtract, multiply, truediv, floordiv,
-- mod and their operators, pow, atan2, igamma, igammac, zeta, polygamma,
-- the comparisons, and string concatenation.
--
-- Translation: _compareCpu runs the op eagerly and inside a tf.func
-- (T.eager_and_traced), with a tensor and a Lua value on either side (the
-- "op takes precedence over numpy operators" lines); assertAllClose is
-- T.equal with TF's 1e-6; NumPy's functions are computed in Lua doubles
-- (rounded to float32 for float32 inputs). _compareGradientX/Y is
-- T.check_jacobians of 1.1 * f, TF1's checker (delta 1e-3) with
-- _GRAD_TOL's 1e-3 (float32) and 1e-5 (float64). _compareGpu is the CPU
-- again: left out.
--
-- Differences, argued:
-- - special.gammainc, gammaincc, zeta and polygamma (TF runs their lines
--   only with SciPy): SciPy's values at the test's points, computed once
--   with scipy.special in float64 and written below.
-- - testFloatBasic's x1, x2 = np.random.randn(5, 6): tfhelpers' seeded
--   normal draws, with the same clamping away from the origin.
-- - testMismatchedDimensions is run_deprecated_v1 (graph construction's
--   ValueError "Dimensions must ..."): it runs inside a tf.func; eagerly
--   TF 2 (and moonflow) raise InvalidArgumentError "Incompatible shapes".
-- - dtypes moonflow lacks: float16, bfloat16, int8, int16, uint8, uint16,
--   uint32, uint64, complex64, complex128 (testBFloat16Basic,
--   testBfloat16Basic, testUint8Basic, testInt8Basic, testInt16Basic,
--   testUint16Basic, testUint32Basic, testUint64Basic, testComplex*,
--   testComplexPow*, the complex and float16 passes of the BCast and
--   comparison tests, testEqualQuantizeDType), and
--   testFloatVariableOverload's Variable * numpy array is Variable * Lua
--   table here. testPowNegativeExponentGpu and testFloorModfInfDenominator
--   need a GPU.
-- - _compareBCast's gradient checks run for float64 only (float32's are
--   the same rules at a coarser tolerance, and doubled the suite's time).
-- - also_compare_variables: a tf.Variable on either side, as TF.

local tf = tf or require("moonflow")
local T = require("tfhelpers")

local function f32(v) return (string.unpack("f", string.pack("f", v))) end

-- np.linspace(a, b, n) in dtype.
local function linspace(a, b, n, dtype)
  local out = {}
  for i = 0, n - 1 do
    local v = n == 1 and a or a + (b - a) * i / (n - 1)
    if dtype == tf.float32 then v = f32(v) elseif dtype.is_integer then v = math.tointeger(math.floor(v)) or v end
    out[#out + 1] = v
  end
  return out
end

local function map2(x, y, fn, dtype)
  local out = {}
  for i = 1, #x do
    local v = fn(x[i], y[i])
    if dtype == tf.float32 then v = f32(v) end
    out[i] = v
  end
  return out
end

-- NumPy's broadcasting of two flat row-major lists of shapes xs and ys.
local function broadcast(x, xs, y, ys, fn, dtype)
  local r = math.max(#xs, #ys)
  local px, py, shape = {}, {}, {}
  for i = 1, r do
    px[i] = xs[i - (r - #xs)] or 1
    py[i] = ys[i - (r - #ys)] or 1
    shape[i] = math.max(px[i], py[i])
    if px[i] == 0 or py[i] == 0 then shape[i] = 0 end
  end
  local n = 1
  for _, d in ipairs(shape) do n = n * d end
  local out = {}
  for k = 0, n - 1 do
    local rem, ix, iy, sx, sy = k, 0, 0, 1, 1
    local idx = {}
    for i = r, 1, -1 do
      idx[i] = rem % shape[i]
      rem = rem // shape[i]
    end
    for i = r, 1, -1 do
      ix = ix + (px[i] == 1 and 0 or idx[i]) * sx
      iy = iy + (py[i] == 1 and 0 or idx[i]) * sy
      sx, sy = sx * px[i], sy * py[i]
    end
    local v = fn(x[ix + 1], y[iy + 1])
    if dtype == tf.float32 then v = f32(v) end
    out[k + 1] = v
  end
  return out, shape
end

-- NumPy's functions on Lua numbers (integers stay integers).
local np = {
  add = function(a, b) return a + b end,
  subtract = function(a, b) return a - b end,
  multiply = function(a, b) return a * b end,
  true_divide = function(a, b) return a / b end,
  floor_divide = function(a, b)
    if math.type(a) == "integer" and math.type(b) == "integer" then return a // b end
    return math.floor(a / b)
  end,
  mod = function(a, b) return a % b end,
  power = function(a, b)
    if math.type(a) == "integer" and math.type(b) == "integer" then
      local r = 1
      for _ = 1, b do r = r * a end
      return r
    end
    return a ^ b
  end,
  arctan2 = function(a, b) return math.atan(a, b) end,
  less = function(a, b) return a < b end,
  less_equal = function(a, b) return a <= b end,
  greater = function(a, b) return a > b end,
  greater_equal = function(a, b) return a >= b end,
  equal = function(a, b) return a == b end,
  not_equal = function(a, b) return a ~= b end,
}

local ADD = function(x, y) return x + y end
local SUB = function(x, y) return x - y end
local MUL = function(x, y) return x * y end
local TRUEDIV = function(x, y) return x / y end
local FLOORDIV = function(x, y) return x // y end
local MOD = function(x, y) return x % y end

local function tensor(values, shape, dtype) return T.tensor(values, shape, dtype) end

-- _compareCpu: the op on tensors, and with a Lua value (x or y as nested
-- data) on either side; and on variables when asked.
local function compare_cpu(x, xs, y, ys, dtype, np_func, tf_func, variables)
  local want, shape = broadcast(x, xs, y, ys, np_func, dtype)
  local inx, iny = tensor(x, xs, dtype), tensor(y, ys, dtype)
  local function check(_, out)
    assert.are.same(shape, out.shape:as_list())
    if #want > 0 then T.equal(want, tf.reshape(out, { -1 }), 1e-6) end
  end
  T.eager_and_traced(function() return tf_func(inx, iny) end, {}, check)
  -- (a Lua table of an empty tensor, {{}, {}}, has lost its trailing
  -- dimensions, where a NumPy array keeps them: tensors only there)
  if #want == 0 then return end
  check("numpy left", tf_func(T.plain(inx), iny))
  check("numpy right", tf_func(inx, T.plain(iny)))
  if variables then
    check("variable left", tf_func(T.plain(inx), tf.Variable(iny)))
    check("variable right", tf_func(tf.Variable(inx), T.plain(iny)))
  end
end

local GRAD_TOL = { float32 = 1e-3, float64 = 1e-5 }

-- _compareGradientX / _compareGradientY (which = 1 or 2).
local function compare_gradient(x, xs, y, ys, dtype, tf_func, which)
  local tol = GRAD_TOL[dtype.name]
  local inx, iny = tensor(x, xs, dtype), tensor(y, ys, dtype)
  if which == 1 then
    T.check_jacobians(function(a) return 1.1 * tf_func(a, iny) end, { inx }, tol, tol, T.V1)
  else
    T.check_jacobians(function(b) return 1.1 * tf_func(inx, b) end, { iny }, tol, tol, T.V1)
  end
end

local NO_GRAD = { [FLOORDIV] = true, [tf.math.floordiv] = true, [tf.math.zeta] = true, [tf.math.polygamma] = true }
local Y_GRAD_ONLY = { [tf.math.zeta] = true, [tf.math.polygamma] = true }

-- _compareBoth.
local function compare_both(x, xs, y, ys, dtype, np_func, tf_func, variables)
  compare_cpu(x, xs, y, ys, dtype, np_func, tf_func, variables)
  if dtype.is_floating then
    if not NO_GRAD[tf_func] then
      compare_gradient(x, xs, y, ys, dtype, tf_func, 1)
      compare_gradient(x, xs, y, ys, dtype, tf_func, 2)
    end
    if Y_GRAD_ONLY[tf_func] then compare_gradient(x, xs, y, ys, dtype, tf_func, 2) end
  end
end

-- SciPy's values at testFloatBasic's points (see the header).
local A = { 0.10000000149011612, 0.23571428656578064, 0.37142857909202576, 0.5071428418159485, 0.6428571343421936,
  0.7785714268684387, 0.9142857193946838, 1.0499999523162842, 1.1857142448425293, 1.3214285373687744,
  1.4571428298950195, 1.5928571224212646, 1.7285714149475098, 1.8642857074737549, 2.0 }
local X = { 0.10000000149011612, 0.8071428537368774, 1.514285683631897, 2.221428632736206, 2.9285714626312256,
  3.635714292526245, 4.342857360839844, 5.050000190734863, 5.757143020629883, 6.464285850524902, 7.171428680419922,
  7.878571510314941, 8.585714340209961, 9.29285717010498, 10.0 }
local SCIPY = {
  gammainc = { 0.8275517582946788, 0.9145802410670556, 0.9453639295177135, 0.9641818818059661, 0.9762506772581057,
    0.984132162011734, 0.989336296798391, 0.9928002040256196, 0.9951202235106521, 0.9966819526052321,
    0.9977376309286944, 0.9984537480361408, 0.9989409854556606, 0.9992733573114684, 0.9995006007726127 },
  gammaincc = { 0.1724482417053208, 0.0854197589329446, 0.05463607048228649, 0.035818118194033875,
    0.02374932274189434, 0.015867837988265954, 0.010663703201609002, 0.007199795974380327, 0.0048797764893479464,
    0.0033180473947679572, 0.0022623690713055623, 0.0015462519638591392, 0.0010590145443394666,
    0.0007266426885316698, 0.0004993992273873336 },
  zeta = { 23.014577626478733, 15.081752141269206, 12.76030016663245, 9.266807416664907, 5.848909485015701,
    3.272384021352224, 1.6495748910702104, 0.7588707129322816, 0.32186185436086573, 0.12689426799499037,
    0.04681787600460167, 0.016256217382753985, 0.005337402859189839, 0.0016638379601337553,
    0.0004941886041194647 },
  polygamma = { -10.423754789263684, 2.268218095619059, -0.8090160035817687, 0.33958785465155045,
    -0.1520331804133181, 0.07046564157197126, -0.03337510697212443, 0.016043681934430884, -0.0077958990210709725,
    0.0038193176772066064, -0.001883217370936246, 0.0009334029846547907, -0.00046461600142827715,
    0.00023209956579616035, -0.0001162991023264644 },
}

-- A reference looked up by position: SciPy's value for the i-th pair.
local function table_func(values)
  local i = 0
  return function()
    i = i % #values + 1
    return values[i]
  end
end

local function special_lines(with_zeta)
  local s = { 1, 3, 5 }
  compare_both(A, s, X, s, tf.float32, table_func(SCIPY.gammainc), tf.math.igamma)
  compare_both(A, s, X, s, tf.float32, table_func(SCIPY.gammaincc), tf.math.igammac)
  if with_zeta then
    local x1 = {}
    for i, v in ipairs(X) do x1[i] = v + 1 end
    compare_both(x1, s, A, s, tf.float32, table_func(SCIPY.zeta), tf.math.zeta)
    local n = {}
    for i = 0, 14 do n[i + 1] = i + 0.0 end
    compare_both(n, s, X, s, tf.float32, table_func(SCIPY.polygamma), tf.math.polygamma)
  end
end

local function basic(dtype)
  local s = { 1, 3, 5 }
  local x, y = linspace(-5, 20, 15, dtype), linspace(20, -5, 15, dtype)
  local y1 = {}
  for i, v in ipairs(y) do y1[i] = dtype == tf.float32 and f32(v + 0.1) or v + 0.1 end
  compare_both(x, s, y, s, dtype, np.add, tf.add, dtype == tf.float32)
  compare_both(x, s, y, s, dtype, np.subtract, tf.subtract)
  compare_both(x, s, y, s, dtype, np.multiply, tf.multiply)
  compare_both(x, s, y1, s, dtype, np.true_divide, tf.math.truediv)
  compare_both(x, s, y1, s, dtype, np.floor_divide, tf.math.floordiv)
  compare_both(x, s, y, s, dtype, np.add, ADD)
  compare_both(x, s, y, s, dtype, np.subtract, SUB)
  compare_both(x, s, y, s, dtype, np.multiply, MUL)
  compare_both(x, s, y1, s, dtype, np.true_divide, TRUEDIV)
  compare_both(x, s, y1, s, dtype, np.floor_divide, FLOORDIV)
  compare_both(x, s, y, s, dtype, np.arctan2, tf.math.atan2)
  -- randn draws, kept away from the origin (atan2's gradient is flaky there)
  T.seed(7)
  local shape = dtype == tf.float32 and { 5, 6 } or { 7, 4 }
  local lim = dtype == tf.float32 and 0.05 or 0.5
  local x1, x2 = T.randn_values(shape), T.randn_values(shape)
  for _, v in ipairs({ x1, x2 }) do
    for i, e in ipairs(v) do
      if math.abs(e) < lim then e = e < 0 and -lim or lim end
      v[i] = dtype == tf.float32 and f32(e) or e
    end
  end
  compare_both(x1, shape, x2, shape, dtype, np.arctan2, tf.math.atan2)
  special_lines(dtype == tf.float32)
end

describe("cwise_ops_binary_test.py BinaryOpTest", function()
  it("testFloatBasic", function() basic(tf.float32) end)
  it("testDoubleBasic", function() basic(tf.float64) end)

  it("testFloatDifferentShapes", function()
    local x, y = { 1.0, 2.0, 3.0, 4.0 }, { 1.0, 2.0 }
    compare_both(y, { 2, 1 }, x, { 2, 2 }, tf.float32, np.arctan2, tf.math.atan2)
    local inx, iny = tensor(x, { 2, 2 }), tensor(y, { 2, 1 })
    local tape = tf.GradientTape({ persistent = true })
    tape:watch(inx)
    tape:watch(iny)
    local s = tf.reduce_sum(inx * iny)
    T.equal({ { 1, 1 }, { 2, 2 } }, tape:gradient(s, inx), 0)
    T.equal({ { 3 }, { 7 } }, tape:gradient(s, iny), 0)
  end)

  it("testFloatVariableOverload", function()
    local x, y = tf.constant({ { 1, 2 }, { 3, 4 } }), tf.constant({ { 1 }, { 2 } })
    T.equal({ { 1, 2 }, { 6, 8 } }, tf.Variable(x) * T.plain(y), 0)
    T.equal({ { 1, 2 }, { 6, 8 } }, T.plain(x) * tf.Variable(y), 0)
  end)

  it("testIgammaDomainEdgeCases", function()
    for _, dtype in ipairs({ tf.float32, tf.float64 }) do
      T.eager_and_traced(function()
        return tf.math.igamma(tf.constant({ -0.1, -1.0, 0.0, 0 / 0 }, dtype), tf.zeros({ 4 }, dtype)),
          tf.math.igamma(tf.constant({ 0.5, 1.0, 2.0 }, dtype), tf.zeros({ 3 }, dtype))
      end, {}, function(_, nan, zero)
        for _, v in ipairs(nan:numpy()) do assert.is_true(v ~= v, "NaN for a <= 0 or NaN at x = 0") end
        assert.are.same({ 0, 0, 0 }, zero:numpy())
      end)
    end
  end)

  for _, case in ipairs({ { "testInt32Basic", tf.int32, 1 }, { "testInt64Basic", tf.int64, 1 << 40 } }) do
    it(case[1], function()
      local dtype, scale = case[2], case[3]
      local x, y = {}, { 1, 2, 3, 4, 5, 6 }
      for i = 0, 5 do x[i + 1] = (1 + 2 * i) * scale end
      local s = { 1, 3, 2 }
      if dtype == tf.int32 then
        compare_both(x, s, y, s, dtype, np.add, tf.add)
        compare_both(x, s, y, s, dtype, np.add, ADD)
      end
      compare_both(x, s, y, s, dtype, np.subtract, tf.subtract)
      compare_both(x, s, y, s, dtype, np.multiply, tf.multiply)
      compare_both(x, s, y, s, dtype, np.true_divide, tf.math.truediv)
      compare_both(x, s, y, s, dtype, np.floor_divide, tf.math.floordiv)
      compare_both(x, s, y, s, dtype, np.mod, tf.math.mod)
      compare_both(x, s, y, s, dtype, np.subtract, SUB)
      compare_both(x, s, y, s, dtype, np.multiply, MUL)
      compare_both(x, s, y, s, dtype, np.true_divide, TRUEDIV)
      compare_both(x, s, y, s, dtype, np.floor_divide, FLOORDIV)
      compare_both(x, s, y, s, dtype, np.mod, MOD)
    end)
  end

  it("testStringComparison", function()
    local x = tf.constant({ { "abc", "bh" }, { "c", "" } })
    local y = tf.constant({ { "abc", "bh" }, { "def", "hi" } })
    assert.are.same({ { true, true }, { false, false } }, tf.equal(x, y):numpy())
    assert.are.same({ { false, false }, { true, true } }, tf.not_equal(x, y):numpy())
  end)

  it("testString", function()
    local function strings(prefix, rows, cols)
      local out = {}
      for i = 0, rows - 1 do
        for j = 0, cols - 1 do out[#out + 1] = rows == 1 and ("%s_%d"):format(prefix, j) or ("%s_%d_%d"):format(prefix, i, j) end
      end
      return out
    end
    local x, y, z, w = strings("x", 3, 3), strings("y", 3, 3), strings("z", 1, 3), { "w" }
    local function check(a, as, b, bs)
      local want, shape = broadcast(a, as, b, bs, function(p, q) return p .. q end, tf.string)
      local got = ADD(tensor(a, as, tf.string), tensor(b, bs, tf.string))
      assert.are.same(shape, got.shape:as_list())
      assert.are.same(want, T.flatten(got:numpy()))
    end
    check(x, { 3, 3 }, y, { 3, 3 })
    check(x, { 3, 3 }, z, { 1, 3 })
    check(x, { 3, 3 }, w, {})
    check(z, { 1, 3 }, w, {})
  end)

  -- _testBCastByFunc over float32, float64, int32, int64, both orders.
  local BCAST = {
    { { 1, 3, 2 }, { 1 } }, { { 1, 3, 2 }, { 2 } }, { { 1, 3, 2 }, { 3, 2 } }, { { 1, 3, 2 }, { 3, 1 } },
    { { 1, 3, 2 }, { 1, 3, 2 } }, { { 1, 3, 2 }, { 2, 3, 1 } }, { { 1, 3, 2 }, { 2, 1, 1 } },
    { { 1, 3, 2 }, { 1, 3, 1 } }, { { 2, 1, 5 }, { 2, 3, 1 } }, { { 2, 0, 5 }, { 2, 0, 1 } },
    { { 2, 3, 0 }, { 2, 3, 1 } }, { { 1, 3, 2 }, { 1, 3, 2 } }, { { 1, 1, 1, 1, 3, 2 }, { 1, 3, 2 } },
    { { 1, 3, 2, 1, 1 }, { 1 } }, { { 2, 3, 1, 1, 5 }, { 1 } }, { { 10, 3, 1, 2 }, { 3, 1, 2 } },
  }
  local FUNCS = {
    A = { { np.add, tf.add }, { np.add, ADD } },
    B = { { np.subtract, tf.subtract }, { np.subtract, SUB }, { np.power, tf.pow } },
    C = { { np.multiply, tf.multiply }, { np.multiply, MUL } },
    D = { { np.true_divide, tf.math.truediv }, { np.floor_divide, tf.math.floordiv }, { np.true_divide, TRUEDIV },
      { np.floor_divide, FLOORDIV } },
  }
  local function prod(s) local n = 1 for _, d in ipairs(s) do n = n * d end return n end
  -- _compareBCast: x = 1 + linspace(0, 5, prod(xs)) in dtype
  local function values(shape, dtype)
    local out = {}
    for i, v in ipairs(linspace(0, 5, prod(shape), tf.float64)) do
      v = 1 + v
      if dtype == tf.float32 then v = f32(v) elseif dtype.is_integer then v = math.tointeger(math.floor(v)) end
      out[i] = v
    end
    return out
  end
  for index, pair in ipairs(BCAST) do
    for _, letter in ipairs({ "A", "B", "C", "D" }) do
      it(("testBCast_%d%s"):format(index - 1, letter), function()
        for _, dtype in ipairs({ tf.float32, tf.float64, tf.int32, tf.int64 }) do
          for _, fn in ipairs(FUNCS[letter]) do
            for _, order in ipairs({ { pair[1], pair[2] }, { pair[2], pair[1] } }) do
              local xs, ys = order[1], order[2]
              local x, y = values(xs, dtype), values(ys, dtype)
              local np_func = fn[1]
              if dtype.is_integer and np_func == np.true_divide then
                -- integers divide as float64 (TF's truediv)
                local got = fn[2](tensor(x, xs, dtype), tensor(y, ys, dtype))
                assert.are.equal(tf.float64, got.dtype)
                T.equal((broadcast(x, xs, y, ys, np_func, tf.float64)), tf.reshape(got, { -1 }), 1e-6)
              elseif dtype.is_integer then
                local want = broadcast(x, xs, y, ys, np_func, dtype)
                T.equal(want, tf.reshape(fn[2](tensor(x, xs, dtype), tensor(y, ys, dtype)), { -1 }), 0)
              else
                compare_cpu(x, xs, y, ys, dtype, np_func, fn[2])
                if dtype == tf.float64 and fn[2] ~= FLOORDIV and fn[2] ~= tf.math.floordiv and prod(xs) > 0
                  and prod(ys) > 0 then
                  compare_gradient(x, xs, y, ys, dtype, fn[2], 1)
                  compare_gradient(x, xs, y, ys, dtype, fn[2], 2)
                end
              end
            end
          end
        end
      end)
    end
  end

  it("testMismatchedDimensions (graph construction: inside a tf.func)", function()
    for _, func in ipairs({ tf.add, tf.subtract, tf.multiply, tf.math.divide, ADD, SUB, MUL, TRUEDIV, FLOORDIV }) do
      local f = T.quiet(tf.func, function()
        return func(tf.constant({ 10.0, 20.0, 30.0 }), tf.constant({ { 40.0, 50.0 }, { 60.0, 70.0 } }))
      end)
      T.raises("ValueError", "Dimensions must", function() T.quiet(f) end)
    end
  end)

  it("testZeroPowGrad", function()
    for _, dtype in ipairs({ tf.float32, tf.float64 }) do
      local x = tf.constant(0.0, dtype)
      local y = tf.constant(2.0, dtype)
      local _, numeric = T.compute_gradient(function(b) return tf.pow(x, b) end, { y }, T.V1)
      local theoretical = T.compute_gradient(function(b) return tf.pow(x, b) end, { y }, T.V1)
      assert.are.equal(0, T.max_error(theoretical, numeric))
    end
  end)

  it("testAtan2SpecialValues", function()
    local inf, nan = math.huge, 0 / 0
    local pairs_ = { { 0.0, 0.0 }, { 0.0, -0.0 }, { -0.0, 0.0 }, { -0.0, -0.0 }, { 1.0, 0.0 }, { -1.0, 0.0 },
      { 1.0, -0.0 }, { -1.0, -0.0 }, { 0.0, 1.0 }, { 0.0, -1.0 }, { -0.0, 1.0 }, { -0.0, -1.0 }, { 1.2345, inf },
      { 1.2345, -inf }, { -4.321, inf }, { -4.125, -inf }, { inf, inf }, { inf, -inf }, { -inf, inf }, { -inf, -inf },
      { 1.0, nan }, { nan, 1.0 }, { nan, nan } }
    for _, dtype in ipairs({ tf.float32, tf.float64 }) do
      local x1, x2 = {}, {}
      for i, p in ipairs(pairs_) do
        x1[i], x2[i] = dtype == tf.float32 and f32(p[1]) or p[1], dtype == tf.float32 and f32(p[2]) or p[2]
      end
      local got = tf.math.atan2(tf.constant(x1, dtype), tf.constant(x2, dtype)):numpy()
      for i = 1, #x1 do
        local want = math.atan(x1[i], x2[i])
        if dtype == tf.float32 then want = f32(want) end
        if want ~= want then
          assert.is_true(got[i] ~= got[i], "NaN at " .. i)
        else
          -- assertAllClose, and the sign of a zero angle as NumPy's
          assert.is_true(math.abs(want - got[i]) <= 1e-6 * (1 + math.abs(want)), "element " .. i)
          if want == 0 then assert.are.equal(1 / want, 1 / got[i], "signed zero at " .. i) end
        end
      end
    end
  end)

  it("testPowNegativeExponentCpu", function()
    for _, dtype in ipairs({ tf.int32, tf.int64 }) do
      local msg = "Integers to negative integer powers are not allowed"
      T.raises("InvalidArgumentError", msg, tf.pow, tf.constant({ 5, 2 }, dtype), tf.constant({ -2, 3 }, dtype))
      T.raises("InvalidArgumentError", msg, tf.pow, tf.constant({ 5, 2 }, dtype), tf.constant({ 2, -3 }, dtype))
      T.raises("InvalidArgumentError", msg, tf.pow, tf.constant({ 5, 2 }, dtype), -3)
    end
  end)
end)

describe("cwise_ops_binary_test.py ComparisonOpTest", function()
  local FUNCS = { { np.less, tf.less }, { np.less_equal, tf.less_equal }, { np.greater, tf.greater },
    { np.greater_equal, tf.greater_equal }, { np.equal, tf.equal }, { np.not_equal, tf.not_equal } }
  local DTYPES = { tf.float32, tf.float64, tf.int32, tf.int64 }

  it("testScalarCompareScalar", function()
    for _, dtype in ipairs(DTYPES) do
      for _, x in ipairs({ -1, 0, 1 }) do
        for _, y in ipairs({ -1, 0, 1 }) do
          for _, f in ipairs(FUNCS) do
            local got = f[2](tf.cast(tf.constant({ x }), dtype), tf.cast(tf.constant({ y }), dtype))
            assert.are.equal(f[1](x, y), got:numpy()[1])
          end
        end
      end
    end
  end)

  local function compare(x, xs, y, ys, dtype, f)
    local want, shape = broadcast(x, xs, y, ys, f[1], tf.bool)
    local got = f[2](tensor(x, xs, dtype), tensor(y, ys, dtype))
    assert.are.same(shape, got.shape:as_list())
    assert.are.same(want, T.flatten(got:numpy()))
  end
  -- np.linspace(a, b, n).astype(dtype): integers truncate toward zero
  local function lin(a, b, n, dtype)
    local out = linspace(a, b, n, tf.float64)
    for i, v in ipairs(out) do
      if dtype == tf.float32 then out[i] = f32(v)
      elseif dtype.is_integer then out[i] = math.tointeger(v < 0 and math.ceil(v) or math.floor(v)) end
    end
    return out
  end

  it("testTensorCompareTensor", function()
    for _, dtype in ipairs(DTYPES) do
      for _, f in ipairs(FUNCS) do
        compare(lin(-15, 15, 6, dtype), { 1, 3, 2 }, lin(20, -10, 6, dtype), { 1, 3, 2 }, dtype, f)
      end
    end
  end)

  local SHAPES = { { { 1, 3, 2 }, { 1 } }, { { 1, 3, 2 }, { 2 } }, { { 1, 3, 2 }, { 3, 2 } }, { { 1, 3, 2 }, { 3, 1 } },
    { { 1, 3, 2 }, { 1, 3, 2 } }, { { 1, 3, 2 }, { 2, 3, 1 } }, { { 1, 3, 2 }, { 2, 1, 1 } },
    { { 1, 3, 2 }, { 1, 3, 1 } }, { { 2, 1, 5 }, { 2, 3, 1 } }, { { 2, 0, 5 }, { 2, 0, 1 } },
    { { 2, 3, 0 }, { 2, 3, 1 } } }
  for k, name in ipairs({ "Less", "LessEqual", "Greater", "GreaterEqual", "Equal", "NotEqual" }) do
    it("testBCast" .. name, function()
      for _, s in ipairs(SHAPES) do
        for _, dtype in ipairs(DTYPES) do
          local nx, ny = 1, 1
          for _, d in ipairs(s[1]) do nx = nx * d end
          for _, d in ipairs(s[2]) do ny = ny * d end
          local x, y = lin(-15, 15, nx, dtype), lin(20, -10, ny, dtype)
          compare(x, s[1], y, s[2], dtype, FUNCS[k])
          compare(y, s[2], x, s[1], dtype, FUNCS[k])
        end
      end
    end)
  end

  it("testShapeMismatch", function()
    for _, dtype in ipairs(DTYPES) do
      for _, f in ipairs(FUNCS) do
        local x = tf.cast(tf.reshape(tf.range(10), { 2, 5 }), dtype)
        local y = tf.cast(tf.reshape(tf.range(10), { 5, 2 }), dtype)
        T.raises("InvalidArgumentError", "Incompatible shapes", f[2], x, y)
      end
    end
  end)

  it("testEqualDType", function()
    for _, dtype in ipairs({ tf.float32, tf.float64, tf.int32, tf.int64, tf.bool }) do
      local x = tf.cast(tf.constant({ 0, 1, 2, 3, 4 }), dtype)
      local y = tf.cast(tf.constant({ 0, 1, 2, 3, 4 }), dtype)
      local eq, ne = tf.equal(x, y):numpy(), tf.not_equal(x, y):numpy()
      assert.are.same({ true, true, true, true, true }, eq)
      assert.are.same({ false, false, false, false, false }, ne)
    end
  end)
end)
