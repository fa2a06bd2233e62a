-- ragged_tensor_spec.lua — tf.RaggedTensor against TensorFlow's own tests
-- and guides, ported as far as moonflow's RaggedTensor goes:
-- tensorflow/python/ops/ragged/ ragged_constant_op_test.py (pylist cases),
-- ragged_tensor_test.py (the factory methods, their validation, the
-- accessors and to_tensor), ragged_concat_op_test.py (axis 0 and 1),
-- ragged_dispatch_test.py (elementwise ops), and the examples of the
-- guides "Introduction to Tensors" (Ragged Tensors, String tensors) and
-- "Ragged tensors" (overview, construction, tf.function).
--
-- Translation: values compare through to_list(); printed forms compare
-- with what TF prints. Row positions are 0-based, as everywhere in
-- moonflow. Left out, argued: SparseTensor conversions (moonflow has no
-- SparseTensor), uniform_row_length and ragged reductions / tf.tile /
-- tf.map_fn / tf.reverse on ragged tensors (beyond issue 28), int32 row
-- splits (moonflow's RaggedTensors keep int64 row splits, TF's default),
-- tf.io.decode_raw to uint8 (the dtype arrives with the dtypes work).

local tf = tf or require("moonflow")
local T = require("tfhelpers")

local function text(x) return tostring(x) end

describe("guide/tensor: Ragged Tensors, String tensors", function()
  it("a ragged list is not a tf.Tensor but a RaggedTensor", function()
    local ragged_list = { { 0, 1, 2, 3 }, { 4, 5 }, { 6, 7, 8 }, { 9 } }
    T.raises("ValueError", "non-rectangular", tf.constant, ragged_list)
    local r = tf.ragged.constant(ragged_list)
    assert.are.equal("<tf.RaggedTensor [[0, 1, 2, 3], [4, 5], [6, 7, 8], [9]]>", text(r))
    assert.are.equal("(4, None)", text(r.shape))
  end)

  it("tf.strings.split: a scalar gives a vector, a vector a RaggedTensor", function()
    assert.are.equal("tf.Tensor([b'Gray' b'wolf'], shape=(2,), dtype=string)",
      text(tf.strings.split(tf.constant("Gray wolf"), " ")))
    local t = tf.constant({ "Gray wolf", "Quick brown fox", "Lazy dog" })
    assert.are.equal("<tf.RaggedTensor [[b'Gray', b'wolf'], [b'Quick', b'brown', b'fox'], [b'Lazy', b'dog']]>",
      text(tf.strings.split(t)))
  end)

  it("to_number of a split, bytes_split, unicode_split and unicode_decode", function()
    assert.are.equal("tf.Tensor([  1.  10. 100.], shape=(3,), dtype=float32)",
      text(tf.strings.to_number(tf.strings.split(tf.constant("1 10 100"), " "))))
    assert.are.equal("tf.Tensor([b'D' b'u' b'c' b'k'], shape=(4,), dtype=string)",
      text(tf.strings.bytes_split(tf.constant("Duck"))))
    local duck = tf.constant("\xe3\x82\xa2\xe3\x83\x92\xe3\x83\xab \xf0\x9f\xa6\x86")
    assert.are.equal("tf.Tensor([b'\\xe3\\x82\\xa2' b'\\xe3\\x83\\x92' b'\\xe3\\x83\\xab' b' ' b'\\xf0\\x9f\\xa6\\x86'], "
      .. "shape=(5,), dtype=string)", text(tf.strings.unicode_split(duck, "UTF-8")))
    assert.are.equal("tf.Tensor([ 12450  12498  12523     32 129414], shape=(5,), dtype=int32)",
      text(tf.strings.unicode_decode(duck, "UTF-8")))
  end)
end)

describe("guide/ragged_tensor: overview", function()
  local digits = tf.ragged.constant({ { 3, 1, 4, 1 }, {}, { 5, 9, 2 }, { 6 }, {} })
  local words = tf.ragged.constant({ { "So", "long" }, { "thanks", "for", "all", "the", "fish" } })

  it("elementwise ops, concat, substr and indexing", function()
    assert.are.equal("<tf.RaggedTensor [[6, 4, 7, 4], [], [8, 12, 5], [9], []]>", text(tf.add(digits, 3)))
    assert.are.equal("<tf.RaggedTensor [[3, 1, 4, 1], [], [5, 9, 2], [6], [], [5, 3]]>",
      text(tf.concat({ digits, { { 5, 3 } } }, 0)))
    assert.are.equal("<tf.RaggedTensor [[b'So', b'lo'], [b'th', b'fo', b'al', b'th', b'fi']]>",
      text(tf.strings.substr(words, 0, 2)))
    assert.are.equal("tf.Tensor([3 1 4 1], shape=(4,), dtype=int32)", text(digits[0]))
    assert.are.equal("<tf.RaggedTensor [[6, 4, 7, 4], [], [8, 12, 5], [9], []]>", text(digits + 3))
    assert.are.equal("<tf.RaggedTensor [[4, 3, 7, 5], [], [10, 15, 9], [14], []]>",
      text(digits + tf.ragged.constant({ { 1, 2, 3, 4 }, {}, { 5, 6, 7 }, { 8 }, {} })))
    assert.are.equal("<tf.RaggedTensor [[7, 3, 9, 3], [], [11, 19, 5], [13], []]>",
      text(tf.ragged.map_flat_values(function(x) return x * 2 + 1 end, digits)))
    assert.are.same({ { 3, 1, 4, 1 }, {}, { 5, 9, 2 }, { 6 }, {} }, digits:to_list())
  end)

  it("constructing: from_value_rowids, from_row_lengths, from_row_splits", function()
    local want = "<tf.RaggedTensor [[3, 1, 4, 1], [], [5, 9], [2]]>"
    local values = { 3, 1, 4, 1, 5, 9, 2 }
    assert.are.equal(want, text(tf.RaggedTensor.from_value_rowids(values, { 0, 0, 0, 0, 2, 2, 3 })))
    assert.are.equal(want, text(tf.RaggedTensor.from_row_lengths(values, { 4, 0, 2, 1 })))
    assert.are.equal(want, text(tf.RaggedTensor.from_row_splits(values, { 0, 4, 4, 6, 7 })))
  end)

  it("what you can store: one dtype, one nesting depth", function()
    assert.are.equal("<tf.RaggedTensor [[b'Hi'], [b'How', b'are', b'you']]>",
      text(tf.ragged.constant({ { "Hi" }, { "How", "are", "you" } })))
    assert.are.equal("<tf.RaggedTensor [[[1, 2], [3]], [[4, 5]]]>", text(tf.ragged.constant({ { { 1, 2 }, { 3 } }, { { 4, 5 } } })))
    T.raises("ValueError", "all scalar values must have the same nesting depth", tf.ragged.constant,
      { "A", { "B", "C" } })
    T.raises({ "ValueError", "TypeError" }, nil, tf.ragged.constant, { { "one", "two" }, { 3, 4 } })
  end)

  it("shape, ragged_rank, dtype, row_splits, values, row_lengths, nrows", function()
    local rt = tf.ragged.constant({ { 1, 2 }, { 3 } })
    assert.are.equal("TensorShape([2, None])", getmetatable(rt.shape).__repr(rt.shape))
    assert.are.equal(1, rt.ragged_rank)
    assert.are.equal(tf.int32, rt.dtype)
    assert.are.same({ 0, 2, 3 }, rt.row_splits:numpy())
    assert.are.same({ 1, 2, 3 }, rt.values:numpy())
    assert.are.same({ 2, 1 }, rt:row_lengths():numpy())
    assert.are.equal(2, rt:nrows():numpy())
    local nested = tf.ragged.constant({ { { 1, 2 }, { 3 } }, { { 4, 5 } } })
    assert.are.equal(2, nested.ragged_rank)
    assert.are.same({ 1, 2, 3, 4, 5 }, nested.flat_values:numpy())
    assert.are.equal("(2, None, None)", text(nested.shape))
  end)

  it("to_tensor pads with zeros, default_value or to a shape", function()
    local rt = tf.ragged.constant({ { 9, 8, 7 }, {}, { 6, 5 } })
    assert.are.same({ { 9, 8, 7 }, { 0, 0, 0 }, { 6, 5, 0 } }, rt:to_tensor():numpy())
    assert.are.same({ { 9, 8, 7 }, { -1, -1, -1 }, { 6, 5, -1 } }, rt:to_tensor(-1):numpy())
    assert.are.same({ { 9, 8 }, { 0, 0 } }, rt:to_tensor(0, { 2, 2 }):numpy())
    assert.are.same({ { "a", "" } }, tf.ragged.constant({ { "a" }, {} }):to_tensor(nil, { 1, 2 }):numpy())
  end)
end)

describe("ragged_constant_op_test.py", function()
  local CASES = {
    { { { 1, 2 }, { 3, 4, 5 } }, nil, "<tf.RaggedTensor [[1, 2], [3, 4, 5]]>" },
    { { {}, { 1 } }, nil, "<tf.RaggedTensor [[], [1]]>" },
    { { { {}, {} }, { {} } }, nil, "<tf.RaggedTensor [[[], []], [[]]]>" },
    { { { 1.5 }, {} }, nil, "<tf.RaggedTensor [[1.5], []]>" },
    { { { true, false }, {} }, nil, "<tf.RaggedTensor [[True, False], []]>" },
    { { { { 1, 2 }, { 3, 4 } }, { { 5, 6 } } }, 1, "<tf.RaggedTensor [[[1, 2], [3, 4]], [[5, 6]]]>" },
  }
  for i, c in ipairs(CASES) do
    it("testRaggedConst case " .. i, function()
      local rt = tf.ragged.constant(c[1], nil, c[2])
      assert.are.equal(c[3], text(rt))
      if c[2] then assert.are.equal(c[2], rt.ragged_rank) end
    end)
  end

  it("an empty pylist is float32; ragged_rank 0 is a tf.Tensor", function()
    assert.are.equal(tf.float32, tf.ragged.constant({ {}, {} }).dtype)
    assert.is_true(tf.is_tensor(tf.ragged.constant({ 1, 2 })))
    assert.are.same({ { 1, 2 }, { 3, 4 } }, tf.ragged.constant({ { 1, 2 }, { 3, 4 } }, nil, 0):numpy())
  end)

  it("testRaggedConstError: ragged_rank too large", function()
    T.raises("ValueError", "ragged_rank must be nonnegative and less than 2", tf.ragged.constant,
      { { 1, 2 }, { 3 } }, nil, 2)
  end)

  it("bad ragged_rank, inner_shape or a list inside itself are typed errors (the API fuzzer found them)", function()
    T.raises("TypeError", "inner_shape must be a list of non-negative integers", tf.ragged.constant,
      { { 1, 2 }, { 3 } }, nil, nil, print)
    T.raises("TypeError", "ragged_rank must be an integer", tf.ragged.constant, { { 1, 2 }, { 3 } }, nil, "x")
    local loop = {}
    loop[1] = loop
    T.raises("ValueError", "pylist contains itself", tf.ragged.constant, loop)
  end)

  it("uniform inner dimensions are values dimensions (ragged_rank=1, shape (2, None, 2))", function()
    local rt = tf.ragged.constant({ { { 1, 2 }, { 3, 4 } }, { { 5, 6 } } }, nil, 1)
    assert.are.equal("(2, None, 2)", text(rt.shape))
    assert.are.same({ { 1, 2 }, { 3, 4 }, { 5, 6 } }, rt.values:numpy())
  end)
end)

describe("ragged_tensor_test.py: factories and their validation", function()
  it("testFromValueRowIdsWithExplicitNRows (trailing empty rows)", function()
    local rt = tf.RaggedTensor.from_value_rowids({ 1, 2, 3 }, { 0, 0, 2 }, 5)
    assert.are.same({ { 1, 2 }, {}, { 3 }, {}, {} }, rt:to_list())
    assert.are.same({ 0, 0, 2 }, rt:value_rowids():numpy())
  end)

  it("testFromRowSplits with nested splits", function()
    local rt = tf.RaggedTensor.from_nested_row_splits({ 1, 2, 3, 4, 5 }, { { 0, 2, 3 }, { 0, 2, 3, 5 } })
    assert.are.same({ { { 1, 2 }, { 3 } }, { { 4, 5 } } }, rt:to_list())
  end)

  it("testFactoryValidation: bad row splits, lengths and row ids", function()
    T.raises("InvalidArgumentError", "Arguments to from_row_splits do not form a valid RaggedTensor:zero",
      tf.RaggedTensor.from_row_splits, { 1, 2 }, { 1, 2 })
    T.raises("InvalidArgumentError", "Arguments to from_row_splits do not form a valid RaggedTensor:monotonic",
      tf.RaggedTensor.from_row_splits, { 1, 2 }, { 0, 2, 1, 2 })
    T.raises("InvalidArgumentError", "Arguments to _from_row_partition do not form a valid RaggedTensor",
      tf.RaggedTensor.from_row_splits, { 1, 2, 3 }, { 0, 2 })
    T.raises("ValueError", "must have rank 1", tf.RaggedTensor.from_row_splits, { 1, 2 }, { { 0, 2 } })
    T.raises("ValueError", "Shape () must have rank 1", tf.RaggedTensor.from_value_rowids, { 1, 2 }, tf.constant(0))
    T.raises("ValueError", "Shape (1, 2) must have rank 1", tf.RaggedTensor.from_value_rowids, { 1, 2 }, { { 0, 0 } })
    T.raises("InvalidArgumentError", "Arguments to from_row_lengths do not form a valid RaggedTensor:negative",
      tf.RaggedTensor.from_row_lengths, { 1, 2 }, { 3, -1 })
    T.raises("InvalidArgumentError", "Arguments to from_value_rowids do not form a valid RaggedTensor:monotonic",
      tf.RaggedTensor.from_value_rowids, { 1, 2 }, { 1, 0 })
    T.raises("InvalidArgumentError", "Arguments to from_value_rowids do not form a valid RaggedTensor:nrows",
      tf.RaggedTensor.from_value_rowids, { 1, 2 }, { 0, 3 }, 2)
  end)

  it("indexing rows (0-based, negative from the end) and its errors", function()
    local rt = tf.ragged.constant({ { "a", "b" }, {}, { "c" } })
    assert.are.same({ "a", "b" }, rt[0]:numpy())
    assert.are.same({ "c" }, rt[-1]:numpy())
    T.raises("InvalidArgumentError", "slice index 3 of dimension 0 out of bounds.", function() return rt[3] end)
    T.raises("AttributeError", "'RaggedTensor' object has no attribute 'nrow'", function() return rt.nrow end)
  end)

  it("printing bytes as Python does", function()
    assert.are.equal("<tf.RaggedTensor [[b\"it's\", b'a\\\\b'], [b'\\xff\\n']]>",
      text(tf.ragged.constant({ { "it's", "a\\b" }, { "\xff\n" } })))
  end)
end)

describe("ragged_dispatch_test.py / ragged_concat_op_test.py", function()
  local x = tf.ragged.constant({ { 1, -2 }, { 3 } })

  it("unary and binary elementwise ops keep the row splits", function()
    assert.are.equal("<tf.RaggedTensor [[1, 2], [3]]>", text(tf.math.abs(x)))
    assert.are.equal("<tf.RaggedTensor [[1, 4], [9]]>", text(x * x))
    assert.are.equal("<tf.RaggedTensor [[-1, 2], [-3]]>", text(-x))
    assert.are.equal("<tf.RaggedTensor [[True, False], [True]]>", text(tf.greater(x, 0)))
    assert.are.equal("<tf.RaggedTensor [[0.5, -1.0], [1.5]]>", text(tf.cast(x, tf.float32) / 2))
  end)

  it("mismatched row splits are TF's InvalidArgumentError", function()
    T.raises("InvalidArgumentError", "Inputs must have identical ragged splits", function()
      return x + tf.ragged.constant({ { 1 }, { 2, 3 } })
    end)
  end)

  it("concat along axis 0 and axis 1", function()
    local a = tf.ragged.constant({ { 1, 2 }, { 3 } })
    local b = tf.ragged.constant({ { 4 }, {} })
    assert.are.same({ { 1, 2 }, { 3 }, { 4 }, {} }, tf.concat({ a, b }, 0):to_list())
    assert.are.same({ { 1, 2, 4 }, { 3 } }, tf.concat({ a, b }, 1):to_list())
    assert.are.same({ { 1, 2, 4 }, { 3 } }, tf.concat({ a, b }, -1):to_list())
    T.raises("InvalidArgumentError", "must have the same number of rows", tf.concat,
      { a, tf.ragged.constant({ { 1 } }) }, 1)
  end)
end)

describe("guide/ragged_tensor: tf.function", function()
  it("a RaggedTensor argument is traced by its RaggedTensorSpec", function()
    local f = tf.func(function(x) return x * 2 end)
    local a = tf.ragged.constant({ { 1, 2 }, { 3 } })
    assert.are.equal("<tf.RaggedTensor [[2, 4], [6]]>", text(f(a)))
    assert.are.equal("<tf.RaggedTensor [[10], [12, 14]]>", text(f(tf.ragged.constant({ { 5 }, { 6, 7 } }))))
    assert.are.equal(1, T.count(f))
    f(tf.ragged.constant({ { 1.5 }, {} })) -- another dtype: a new trace
    assert.are.equal(2, T.count(f))
    f(tf.ragged.constant({ { { 1 } }, { { 2 } } })) -- another ragged rank
    assert.are.equal(3, T.count(f))
    local sig = f:get_concrete_function(a):pretty_printed_signature()
    assert.is_truthy(sig:find("RaggedTensorSpec(TensorShape([2, None]), tf.int32, 1, tf.int64)", 1, true), sig)
  end)

  it("string ops on a RaggedTensor inside a tf.func", function()
    local f = tf.func(function(s) return tf.strings.length(tf.strings.split(s)) end)
    assert.are.same({ { 2, 1 }, { 3 } }, f(tf.constant({ "ab c", "def" })):to_list())
    assert.are.same({ { 1 }, {}, { 1, 1 } }, f(tf.constant({ "x", "", "y z" })):to_list())
  end)

  it("tf.RaggedTensorSpec prints as TF's", function()
    assert.are.equal("RaggedTensorSpec(TensorShape([2, None]), tf.int32, 1, tf.int64)",
      text(tf.RaggedTensorSpec({ 2, tf.None }, tf.int32)))
  end)
end)
