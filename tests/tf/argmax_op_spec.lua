-- argmax_op_spec.lua — tensorflow/python/kernel_tests/math_ops/
-- argmax_op_test.py (ArgMaxTest), ported.
--
-- Translation: _testBothArg runs the op on the GPU and the CPU; here it
-- runs eagerly and inside a tf.func, checking TF's int64 default output
-- dtype, the values and that the static shape is NumPy's. NumPy's argmax /
-- argmin (the first position of the extreme along an axis) are computed in
-- Lua from the flat values. np.random.shuffle is a Fisher-Yates shuffle
-- driven by tfhelpers' fixed generator.
--
-- Every dtype of testTypes runs: float16, float32, float64, int16, int32,
-- int64, bfloat16, bool (np.arange(n).astype(float16 / bfloat16) rounds
-- the large values to the type, ties included, in Lua below).

local tf = tf or require("moonflow")
local T = require("tfhelpers")

local function shuffle(list)
  local u = T.rand_values({ #list })
  for i = #list, 2, -1 do
    local j = math.floor(u[i] * i) + 1
    list[i], list[j] = list[j], list[i]
  end
  return list
end

-- A non-negative integer v rounded to a float of `bits` mantissa bits
-- (10: float16, 7: bfloat16), to nearest, ties to even.
local function round_to(v, bits)
  local e = 1
  while v >= 2 ^ (bits + 1) * e do e = e * 2 end
  local q, r = v // e, v % e
  if r * 2 > e or (r * 2 == e and q % 2 == 1) then q = q + 1 end
  return q * e
end

local MANTISSA = { float16 = 10, bfloat16 = 7 }

-- np.arange(n).astype(dtype), shuffled: flat Lua values of `dtype`.
local function arange_as(n, dtype)
  local out = {}
  for i = 1, n do
    local v = i - 1
    if dtype == tf.bool then
      v = v ~= 0
    elseif not dtype.is_integer then
      v = (MANTISSA[dtype.name] and round_to(v, MANTISSA[dtype.name]) or v) + 0.0
    end
    out[i] = v
  end
  return out
end

local function as_number(v)
  if type(v) == "boolean" then return v and 1 or 0 end
  return v
end

-- NumPy's x.argmax(axis) / x.argmin(axis) of flat `values` of `shape`:
-- the flat result (0-based positions) and its shape.
local function np_arg(values, shape, axis, is_max)
  local rank = #shape
  if axis < 0 then axis = axis + rank end
  local d = axis + 1
  local outer, inner = 1, 1
  for i = 1, d - 1 do outer = outer * shape[i] end
  for i = d + 1, rank do inner = inner * shape[i] end
  local n = shape[d]
  local out, out_shape = {}, {}
  for i = 1, rank do if i ~= d then out_shape[#out_shape + 1] = shape[i] end end
  for o = 0, outer - 1 do
    for k = 0, inner - 1 do
      local base = o * n * inner + k
      local best, best_v = 0, as_number(values[base + 1])
      for j = 1, n - 1 do
        local v = as_number(values[base + j * inner + 1])
        if (is_max and v > best_v) or (not is_max and v < best_v) then best, best_v = j, v end
      end
      out[#out + 1] = best
    end
  end
  return out, out_shape
end

-- _testBothArg: tf.argmax / tf.argmin of x (flat `values` of `shape` and
-- `dtype`) along `axis` is NumPy's, int64, of NumPy's shape.
local function both_arg(values, shape, dtype, axis)
  local x = T.tensor(values, shape, dtype)
  for _, is_max in ipairs({ true, false }) do
    local method = is_max and tf.argmax or tf.argmin
    local expected, expected_shape = np_arg(values, shape, axis, is_max)
    T.eager_and_traced(function() return method(x, axis) end, {}, function(mode, y)
      assert.are.equal(tf.int64, y.dtype, mode)
      assert.are.same(expected_shape, y.shape:as_list(), mode)
      T.equal(expected, tf.reshape(y, { -1 }))
    end)
  end
end

local function test_basic(dtype)
  both_arg(shuffle(arange_as(200, dtype)), { 200 }, dtype, 0)
end

local function test_tie_breaking(dtype)
  local zeros = {}
  for i = 1, 200 do
    if dtype == tf.bool then zeros[i] = false else zeros[i] = 0 end
  end
  both_arg(zeros, { 200 }, dtype, 0)
  local m = { 0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 1 }
  local values = {}
  for i, v in ipairs(m) do
    if dtype == tf.bool then values[i] = v ~= 0
    elseif dtype.is_integer then values[i] = v
    else values[i] = v + 0.0 end
  end
  both_arg(values, { 3, 4 }, dtype, 1)
end

local function test_dim(dtype)
  local shape = { 3, 2, 4, 5, 6, 3, 7 }
  local values = shuffle(arange_as(T.count_elements(shape), dtype))
  for axis = -7, 6 do both_arg(values, shape, dtype, axis) end
end

describe("argmax_op_test.py", function()
  for _, dtype in ipairs({ tf.float16, tf.float32, tf.float64, tf.int16, tf.int32, tf.int64, tf.bfloat16,
    tf.bool }) do
    it("ArgMaxTest.testTypes (" .. dtype.name .. ")", function()
      T.seed(7)
      test_basic(dtype)
      test_tie_breaking(dtype)
      test_dim(dtype)
    end)
  end

  it("ArgMaxTest.testFloatInt32Output", function()
    T.seed(3)
    local values = T.randn_values({ 200 })
    for i, v in ipairs(values) do values[i] = (string.unpack("f", string.pack("f", 100 * v))) end
    local x = tf.constant(values, tf.float32)
    for _, is_max in ipairs({ true, false }) do
      local method = is_max and tf.argmax or tf.argmin
      local expected = np_arg(values, { 200 }, 0, is_max)[1]
      T.eager_and_traced(function() return method(x, { axis = 0, output_type = tf.int32 }) end, {},
        function(mode, y)
          assert.are.equal(tf.int32, y.dtype, mode)
          T.equal(expected, y)
        end)
    end
  end)

  it("ArgMaxTest.testEmpty", function()
    for _, op in ipairs({ tf.argmin, tf.argmax }) do
      T.raises("InvalidArgumentError", "Reduction axis 0 is empty in shape [0]", function()
        return op(tf.constant({}), 0)
      end)
      T.raises("InvalidArgumentError", "Reduction axis 0 is empty in shape [0]", function()
        return T.quiet(tf.func(function() return op(tf.constant({}), 0) end))
      end)
    end
  end)

  it("ArgMaxTest.testDefaultAxis", function()
    for _, op in ipairs({ tf.argmin, tf.argmax }) do
      T.eager_and_traced(function() return op({ 1 }) end, {}, function(mode, y)
        assert.are.same({}, y.shape:as_list(), mode)
        T.equal(0, y)
      end)
    end
  end)

  it("ArgMaxTest.testOutputEmpty", function()
    for _, op in ipairs({ tf.argmin, tf.argmax }) do
      T.eager_and_traced(function() return op(tf.zeros({ 1, 0, 2 }), { axis = -1 }) end, {},
        function(mode, y) assert.are.same({ 1, 0 }, y.shape:as_list(), mode) end)
    end
  end)
end)
