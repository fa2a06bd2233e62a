-- interleave_spec.lua — tensorflow/python/data/kernel_tests/
-- interleave_test.py (InterleaveTest), ported.
--
-- Translation: _interleave (the test's reference implementation, which
-- TF's own testPythonImplementation checks against fixed orders) and
-- _repeat are ported as Lua functions; cycle_length None sizes the cycle
-- by the CPUs this process may use, as the reference does (nproc here,
-- os.sched_getaffinity there). Each case runs eagerly and inside a
-- tf.func (the pipeline built and read in its trace). moonflow accepts
-- num_parallel_calls and computes elements in order, so every
-- num_parallel_calls combination gives the deterministic order.
-- testInterleaveDatasetError makes its bad elements with an out-of-range
-- gather in the map function (moonflow has no check_numerics).
--
-- Left out: testInterleaveSparse (sparse tensors),
-- testSloppyInterleaveDataset and testDeterminismConfiguration (options
-- deterministic = false and testing.sleep: moonflow is always
-- deterministic), and the checkpoint tests.

local tf = tf or require("moonflow")
local T = require("tfhelpers")
local H = require("helpers")
local D = require("data_nested_helpers")

-- The test's _interleave: the elements of `lists` in interleave order.
local function interleave(lists, cycle_length, block_length, num_parallel_calls)
  if cycle_length == nil then
    local cpus = D.cpu_count()
    if num_parallel_calls == nil then
      cycle_length = cpus
    elseif num_parallel_calls == tf.data.AUTOTUNE then
      cycle_length = (cpus + 2) // 3
    else
      cycle_length = math.min(num_parallel_calls, cpus)
    end
  end
  local queue, open, num_open, out = {}, {}, 0, {}
  for i, l in ipairs(lists) do queue[i] = { list = l, pos = 0 } end
  local function pop() return table.remove(queue, 1) end
  for i = 1, cycle_length do
    if #queue > 0 then
      open[i] = pop()
      num_open = num_open + 1
    else
      open[i] = false
    end
  end
  while num_open > 0 or #queue > 0 do
    for i = 1, cycle_length do
      if not open[i] then
        if #queue > 0 then
          open[i] = pop()
          num_open = num_open + 1
        end
      end
      if open[i] then
        for _ = 1, block_length do
          local it = open[i]
          if it.pos == #it.list then
            open[i] = false
            num_open = num_open - 1
            break
          end
          it.pos = it.pos + 1
          out[#out + 1] = it.list[it.pos]
        end
      end
    end
  end
  return out
end

-- _repeat: [[value] * value for value in np.tile(values, count)]
local function rep(values, count)
  local lists = {}
  for _ = 1, count do
    for _, v in ipairs(values) do
      local l = {}
      for k = 1, v do l[k] = v end
      lists[#lists + 1] = l
    end
  end
  return lists
end

local function flat(lists)
  local out = {}
  for _, l in ipairs(lists) do
    for _, v in ipairs(l) do out[#out + 1] = v end
  end
  return out
end

describe("interleave_test.InterleaveTest", function()
  it("testPythonImplementation (the reference order itself)", function()
    local cases = {
      { { 4, 5, 6 }, 1, 1, { 4, 4, 4, 4, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 4, 4, 4, 4, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6 } },
      { { 4, 5, 6 }, 2, 1, { 4, 5, 4, 5, 4, 5, 4, 5, 5, 6, 6, 4, 6, 4, 6, 4, 6, 4, 6, 5, 6, 5, 6, 5, 6, 5, 6, 5, 6, 6 } },
      { { 4, 5, 6 }, 2, 3, { 4, 4, 4, 5, 5, 5, 4, 5, 5, 6, 6, 6, 4, 4, 4, 6, 6, 6, 4, 5, 5, 5, 6, 6, 6, 5, 5, 6, 6, 6 } },
      { { 4, 5, 6 }, 7, 2, { 4, 4, 5, 5, 6, 6, 4, 4, 5, 5, 6, 6, 4, 4, 5, 5, 6, 6, 4, 4, 5, 5, 6, 6, 5, 6, 6, 5, 6, 6 } },
      { { 4, 0, 6 }, 2, 1, { 4, 4, 6, 4, 6, 4, 6, 6, 4, 6, 4, 6, 4, 4, 6, 6, 6, 6, 6, 6 } },
    }
    for _, case in ipairs(cases) do
      assert.same(case[4], interleave(rep(case[1], 2), case[2], case[3]))
    end
  end)

  it("testInterleaveDataset", function()
    local cases = {}
    local function add(values, cycles, blocks, parallel)
      for _, cycle in ipairs(cycles) do
        for _, block in ipairs(blocks) do
          for _, p in ipairs(parallel) do
            cases[#cases + 1] = { values = values, cycle = cycle ~= false and cycle or nil, block = block,
                                  parallel = p ~= false and p or nil }
          end
        end
      end
    end
    add({ 4, 5, 6 }, { 1 }, { 3 }, { false, 1 })
    add({ 4, 5, 6 }, { 2 }, { 1, 3 }, { false, 1, 2 })
    add({ 4, 5, 6 }, { 7 }, { 2 }, { false, 1, 3, 5, 7 })
    add({ 4, 5, 6, 7 }, { false }, { 3 }, { false, 1 })
    add({}, { 2 }, { 3 }, { false })
    add({ 0, 0, 0 }, { 2 }, { 3 }, { false })
    add({ 4, 0, 6 }, { 2 }, { 3 }, { false, 1, 2 })
    for _, case in ipairs(cases) do
      local function build()
        return tf.data.Dataset.from_tensor_slices(tf.constant(case.values, tf.int64, { #case.values }))
          :repeat_(2)
          :interleave(function(x) return tf.data.Dataset.from_tensors(x):repeat_(x) end,
            case.cycle, case.block, case.parallel)
      end
      D.produces_both(build, interleave(rep(case.values, 2), case.cycle, case.block, case.parallel))
    end
  end)

  it("testInterleaveDatasetError", function()
    -- elements 1, <error>, 2, <error>, 3 (check_numerics' NaNs in TF)
    local cases = {}
    for _, p in ipairs({ false, 1 }) do cases[#cases + 1] = { 1, 3, p } end
    for _, b in ipairs({ 1, 3 }) do
      for _, p in ipairs({ false, 1, 2 }) do cases[#cases + 1] = { 2, b, p } end
    end
    for _, p in ipairs({ false, 1, 3, 5, 7 }) do cases[#cases + 1] = { 7, 2, p } end
    local values = tf.constant({ 1.0, 2.0, 3.0 })
    for _, case in ipairs(cases) do
      local ds = tf.data.Dataset.from_tensor_slices(tf.constant({ 0, 9, 1, 9, 2 }, tf.int64))
        :map(function(i) return tf.gather(values, i) end)
        :interleave(tf.data.Dataset.from_tensors, case[1], case[2], case[3] or nil)
      local it = ds:iter()
      for _, want in ipairs({ 1, false, 2, false, 3 }) do
        if want then
          T.equal(want, it:get_next())
        else
          H.raises("InvalidArgumentError", nil, function() return it:get_next() end)
        end
      end
      H.raises("OutOfRangeError", nil, function() return it:get_next() end)
    end
  end)

  it("testInterleaveMap", function()
    local function build()
      local function interleave_fn(x)
        return tf.data.Dataset.from_tensors(x):map(function(y) return y + y end)
      end
      return tf.data.Dataset.range(100):interleave(interleave_fn, 5):interleave(interleave_fn, 5)
    end
    local expected = {}
    for x = 0, 99 do expected[x + 1] = 4 * x end
    D.produces_both(build, expected)
  end)

  it("testParallelInterleaveCached", function()
    local function build()
      return tf.data.Dataset.range(5):cache()
        :interleave(function(x) return tf.data.Dataset.from_tensors(x) end, 2, nil, 2)
    end
    D.produces_both(build, { 0, 1, 2, 3, 4 })
  end)

  it("testName", function()
    for _, p in ipairs({ false, 1 }) do
      local function build()
        return tf.data.Dataset.from_tensors(42):interleave(function(x) return tf.data.Dataset.from_tensors(x) end,
          { num_parallel_calls = p or nil, name = "interleave" })
      end
      D.produces_both(build, { 42 }, tf.int32)
    end
  end)

  it("testMapFuncMustReturnDataset", function()
    for _, p in ipairs({ false, 1 }) do
      H.raises("TypeError", "The `map_func` argument must return a `Dataset` object.", function()
        return tf.data.Dataset.from_tensors(42):interleave(function(x) return { x } end, nil, nil, p or nil)
      end)
    end
  end)
end)
