-- window_spec.lua — tensorflow/python/data/kernel_tests/window_test.py
-- (WindowTest), ported.
--
-- Translation: each case runs eagerly; those whose pipeline gives one
-- tensor per element also inside a tf.func (the pipeline built and read
-- in its trace: data_nested_helpers). NumPy's components are built from
-- the same Lua data (np.array(37.0) * arange is float64, kept so).
-- testWindowIgnoreErrors makes its bad elements with an out-of-range
-- gather in the map function (moonflow has no check_numerics): the
-- window must skip them exactly as TF skips check_numerics' NaN errors.
--
-- Left out: the sparse-tensor cases (testWindowSparse,
-- testWindowSparseWithDifferentDenseShapes, testNestedWindowSparse:
-- moonflow's datasets hold dense tensors) and WindowCheckpointTest
-- (iterator checkpoints).

local tf = tf or require("moonflow")
local T = require("tfhelpers")
local H = require("helpers")
local D = require("data_nested_helpers")

-- np.arange(7), np.array([[1, 2, 3]]) * np.arange(7)[:, np.newaxis],
-- np.array(37.0) * np.arange(7) as Lua lists.
local function components()
  local a, b, c = {}, {}, {}
  for k = 0, 6 do
    a[k + 1] = k
    b[k + 1] = { k, 2 * k, 3 * k }
    c[k + 1] = 37.0 * k
  end
  return a, b, c
end

describe("window_test.WindowTest", function()
  it("testWindowDataset", function()
    local cases = {}
    for _, size in ipairs({ 10, 14, 17 }) do
      for _, shift in ipairs({ 7, 14 }) do
        for _, stride in ipairs({ 1, 2, 6 }) do
          for _, drop in ipairs({ true, false }) do
            cases[#cases + 1] = { count = 20, size = size, shift = shift, stride = stride, drop = drop }
          end
        end
      end
    end
    for _, count in ipairs({ 0, 1 }) do
      for _, drop in ipairs({ true, false }) do
        cases[#cases + 1] = { count = count, size = 10, shift = 4, stride = 1, drop = drop }
      end
    end
    local a, b, c = components()
    local comps = { a, b, c }
    for _, case in ipairs(cases) do
      local size, shift, stride = case.size, case.shift, case.stride
      local ds = tf.data.Dataset.from_tensor_slices({ tf.constant(a, tf.int64), tf.constant(b, tf.int64),
        tf.constant(c, tf.float64) })
        :map(function(x, y, z) return tf.square(x), tf.square(y), tf.square(z) end)
        :repeat_(case.count)
        :window(size, shift, stride, case.drop)
        :flat_map(function(x, y, z)
          return tf.data.Dataset.zip(x:batch(size), y:batch(size), z:batch(size))
        end)
      -- [None] + list(c.shape[1:]) per component
      local spec = ds.element_spec
      assert.same({ tf.None }, spec[1].shape:as_list())
      assert.same({ tf.None, 3 }, spec[2].shape:as_list())
      assert.same({ tf.None }, spec[3].shape:as_list())

      local it = ds:iter()
      local function sq(v)
        if type(v) == "table" then
          local out = {}
          for i, x in ipairs(v) do out[i] = x * x end
          return out
        end
        return v * v
      end
      local n = case.count * 7
      local full = math.max(0, (n - ((size - 1) * stride + 1)) // shift + 1)
      for i = 0, full - 1 do
        local result = T.plain(it:get_next())
        for k = 1, 3 do
          for j = 0, size - 1 do
            T.equal(sq(comps[k][(i * shift + j * stride) % 7 + 1]), result[k][j + 1])
          end
        end
      end
      if not case.drop then
        local partial = n // shift + ((n % shift > 0) and 1 or 0) - full
        for i = 0, partial - 1 do
          local result = T.plain(it:get_next())
          local remaining = n - (full + i) * shift
          local elements = remaining // stride + ((remaining % stride > 0) and 1 or 0)
          for k = 1, 3 do
            for j = 0, elements - 1 do
              T.equal(sq(comps[k][((full + i) * shift + j * stride) % 7 + 1]), result[k][j + 1])
            end
          end
        end
      end
      H.raises("OutOfRangeError", nil, function() return it:get_next() end)
      H.raises("OutOfRangeError", nil, function() return it:get_next() end)
    end
  end)

  it("testWindowDatasetInvalid", function()
    for _, case in ipairs({ { 0, 3, 1 }, { 3, 0, 1 }, { 3, 3, 0 } }) do
      local size, shift, stride = case[1], case[2], case[3]
      H.raises("InvalidArgumentError", "must be greater than zero.", function()
        return tf.data.Dataset.range(10):map(function(x) return x end):repeat_(20)
          :window(size, shift, stride):flat_map(function(x) return x:batch(size) end)
      end)
    end
  end)

  it("testWindowDifferentNestedStructures", function()
    local ds = tf.data.Dataset.from_tensor_slices({ tf.constant({ 1, 2 }), tf.constant({ 3, 4 }) }):window(2)
    local x, y = ds:iter():get_next()
    x, y = table.unpack(x)
    T.equal({ 1, 2 }, D.elements(x))
    T.equal({ 3, 4 }, D.elements(y))
    ds = tf.data.Dataset.from_tensor_slices({ a = tf.constant({ 1, 2 }) }):window(2)
    local d = ds:iter():get_next()
    T.equal({ 1, 2 }, D.elements(d.a))
  end)

  it("testWindowShapeError", function()
    local function generator()
      return coroutine.wrap(function()
        coroutine.yield(tf.constant({ 1.0, 2.0, 3.0 }))
        coroutine.yield(tf.constant({ 4.0, 5.0, 6.0 }))
        coroutine.yield(tf.constant({ 7.0, 8.0, 9.0, 10.0 }))
      end)
    end
    local ds = tf.data.Dataset.from_generator(generator, tf.float32, { tf.None })
      :window(3, 1):flat_map(function(x) return x:batch(3) end)
    local it = ds:iter()
    H.raises("InvalidArgumentError", "Cannot batch tensors with different shapes in component 0. "
      .. "First element had shape [3] and element 2 had shape [4].", function() return it:get_next() end)
  end)

  it("testWindowIgnoreErrors", function()
    -- elements 1, <error>, 2, <error>, 3: the stride skips the errors
    local table3 = tf.constant({ 1.0, 2.0, 3.0 })
    local function build()
      return tf.data.Dataset.from_tensor_slices(tf.constant({ 0, 9, 1, 9, 2 }, tf.int64))
        :map(function(i) return tf.gather(table3, i) end)
        :window(2, 2, 2, true):flat_map(function(x) return x:batch(2) end)
    end
    D.produces_both(build, { { 1, 2 }, { 2, 3 } }, tf.float32)
  end)

  it("testNestedOutput", function()
    local ds = tf.data.Dataset.range(100)
    ds = tf.data.Dataset.zip(ds, ds):window(10)
    local i = 0
    for x, y in ds do
      local want = {}
      for k = i * 10, (i + 1) * 10 - 1 do want[#want + 1] = k end
      D.produces(x, want)
      D.produces(y, want)
      i = i + 1
    end
    assert.equal(10, i)
  end)

  it("testDropRemainderOutput", function()
    local function build()
      return tf.data.Dataset.range(100):window(30, nil, nil, true)
        :flat_map(function(x) return x:batch(30) end):batch(4)
    end
    local want = {}
    for x = 0, 2 do
      local row = {}
      for y = 0, 29 do row[y + 1] = y + 30 * x end
      want[x + 1] = row
    end
    D.produces(build(), { want })
  end)

  it("testName", function()
    local function build()
      return tf.data.Dataset.from_tensors(42):window(1, { name = "window" }):flat_map(function(x) return x end)
    end
    D.produces_both(build, { 42 }, tf.int32)
  end)
end)
