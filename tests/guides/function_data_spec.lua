-- function_data_spec.lua — TensorFlow's guide "Better performance with
-- tf.function" (tensorflow.org/guide/function), its tf.data parts, retold
-- in Lua with what they print: "Looping over Python data" (a loop over a
-- Lua table unrolls into the graph, a loop over a dataset is one graph
-- loop whatever the data's length) and, under "Known issues", the
-- iterator a tf.func advances (tf.print "Value: 1", "Value: 2", ...).
-- Graph sizes are moonflow's (its graphs are not TF's node for node); the
-- guide's point is checked: the table's graph grows with the data, the
-- dataset's does not.

local tf = tf or require("moonflow")
local H = require("helpers")
local G = require("guides")

G.init("Better performance with tf.function", it, pending)

local function measure_graph_size(f, ...)
  local g = f:get_concrete_function(...).graph
  return #g:get_operations()
end

describe("function guide: Looping over Python data", function()
  local train = tf.func(function(dataset)
    local loss = tf.constant(0)
    if getmetatable(dataset) == nil then
      for _, xy in ipairs(dataset) do
        local x, y = xy[1], xy[2]
        loss = loss + tf.abs(y - x) -- Some dummy computation.
      end
    else
      for x, y in dataset do
        loss = loss + tf.abs(y - x) -- Some dummy computation.
      end
    end
    return loss
  end)
  local small_data, big_data = {}, {}
  for i = 1, 3 do small_data[i] = { 1, 1 } end
  for i = 1, 10 do big_data[i] = { 1, 1 } end

  it("a loop over a Lua table unrolls: the graph grows with the data", function()
    local small, big = measure_graph_size(train, small_data), measure_graph_size(train, big_data)
    assert.is_true(big > small, ("%d nodes for 10 items, %d for 3"):format(big, small))
    assert.equal(0, train(small_data):numpy())
  end)

  it("a loop over a dataset is one graph loop: the same size for both", function()
    local function from_generator(data)
      return tf.data.Dataset.from_generator(function() return data end, { tf.int32, tf.int32 })
    end
    local ds = from_generator(small_data)
    assert.equal("<_FlatMapDataset element_spec=(TensorSpec(shape=<unknown>, dtype=tf.int32, name=None), "
      .. "TensorSpec(shape=<unknown>, dtype=tf.int32, name=None))>", tostring(ds))
    local small, big = measure_graph_size(train, ds), measure_graph_size(train, from_generator(big_data))
    assert.equal(small, big)
    assert.is_true(small < measure_graph_size(train, small_data))
    assert.equal(0, train(ds):numpy())
  end)
end)

describe("function guide: Known issues, iterators", function()
  it("a Lua iterator is read at trace time: Value: 1 three times", function()
    local buggy_consume_next = tf.func(function(iterator)
      tf.print("Value:", iterator())
    end)
    local items, k = { 1, 2, 3 }, 0
    local iterator = function()
      k = k + 1
      return items[k]
    end
    assert.are.same({ "Value: 1", "Value: 1", "Value: 1" }, H.capture(function()
      buggy_consume_next(iterator)
      -- This reuses the first value from the iterator, rather than consuming the next value.
      buggy_consume_next(iterator)
      buggy_consume_next(iterator)
    end))
  end)

  it("a tf.data iterator advances in the graph: Value: 1, 2, 3", function()
    local good_consume_next = tf.func(function(iterator)
      -- This is ok, iterator is a tf.data iterator
      tf.print("Value:", iterator:next())
    end)
    local ds = tf.data.Dataset.from_tensor_slices({ 1, 2, 3 })
    local iterator = ds:iter()
    assert.are.same({ "Value: 1", "Value: 2", "Value: 3" }, H.capture(function()
      good_consume_next(iterator)
      good_consume_next(iterator)
      good_consume_next(iterator)
    end))
  end)
end)

describe("function guide: lists", function()
  G.report()
end)
