-- string_ops_spec.lua — TensorFlow's tests of the tf.strings ops, ported:
-- tensorflow/python/kernel_tests/strings_ops/ string_split_op_test.py,
-- string_length_op_test.py, regex_replace_op_test.py,
-- regex_full_match_op_test.py, substr_op_test.py, string_lower_op_test.py,
-- string_upper_op_test.py, string_strip_op_test.py,
-- string_to_number_op_test.py, as_string_op_test.py,
-- reduce_join_op_test.py, unicode_decode_op_test.py /
-- unicode_encode_op_test.py, and io_ops' decode_raw_op_test.py.
--
-- Translation: each case runs eagerly and inside a tf.func
-- (T.eager_and_traced); a RaggedTensor is compared through to_list(), as
-- assertAllEqual does. Strings are Lua strings (TF's bytes). TF's
-- graph-mode placeholders of unknown shape become tf.func input
-- signatures.
--
-- Left out, argued:
--   * string_ops.string_split (v1, SparseTensor result): moonflow has no
--     SparseTensor; its op, StringSplit, is checked through core.op below,
--     and tf.strings.bytes_split, which TF builds on it.
--   * the ICU cases (StringLower/StringUpper with encoding="utf-8" on
--     non-ASCII letters, unicode_decode's UTF-16/32 and windows-1252
--     encodings): moonflow maps ASCII letters only and converts UTF-8 only
--     (README, Limits).
--   * RE2-only refusals (backreferences are a bad pattern for RE2, a valid
--     one for PCRE2): moonflow accepts the larger PCRE2 language.

local tf = tf or require("moonflow")
local T = require("tfhelpers")
local core = require("moonflow.core")

local function plain(x)
  if type(x) == "table" and x.to_list then return x:to_list() end
  return T.plain(x)
end

-- assertAllEqual, eager and traced.
local function check(expected, fn, ...)
  T.eager_and_traced(fn, table.pack(...), function(mode, got)
    assert.are.same(expected, plain(got), mode)
  end)
end

describe("string_split_op_test.py", function()
  it("StringSplitOpTest.testStringSplit (the op's sparse result)", function()
    local idx, vals, shape = core.op("StringSplit", {}, tf.constant({ "pigs on the wing", "animals" }), tf.constant(" "))
    assert.are.same({ { 0, 0 }, { 0, 1 }, { 0, 2 }, { 0, 3 }, { 1, 0 } }, idx:numpy())
    assert.are.same({ "pigs", "on", "the", "wing", "animals" }, vals:numpy())
    assert.are.same({ 2, 4 }, shape:numpy())
  end)

  it("testStringSplitEmptyDelimiter (bytes)", function()
    local _, vals, shape = core.op("StringSplit", {}, tf.constant({ "hello", "hola", "\xF0\x9F\x98\x8E" }), tf.constant(""))
    assert.are.same({ "h", "e", "l", "l", "o", "h", "o", "l", "a", "\xf0", "\x9f", "\x98", "\x8e" }, vals:numpy())
    assert.are.same({ 3, 5 }, shape:numpy())
    check({ { "h", "o", "l", "a" }, { "\xf0", "\x9f", "\x98", "\x8e" } }, tf.strings.bytes_split,
      tf.constant({ "hola", "\xF0\x9F\x98\x8E" }))
  end)

  it("testStringSplitEmptyToken", function()
    local strings = { "", " a", "b ", " c", " ", " d ", "  e", "f  ", "  g  ", "  " }
    local idx, vals, shape = core.op("StringSplit", {}, tf.constant(strings), tf.constant(" "))
    assert.are.same({ { 1, 0 }, { 2, 0 }, { 3, 0 }, { 5, 0 }, { 6, 0 }, { 7, 0 }, { 8, 0 } }, idx:numpy())
    assert.are.same({ "a", "b", "c", "d", "e", "f", "g" }, vals:numpy())
    assert.are.same({ 10, 1 }, shape:numpy())
  end)

  it("testStringSplitOnSetEmptyToken", function()
    local strings = { "", " a", "b ", " c", " ", " d ", ". e", "f .", " .g. ", " ." }
    local _, vals, shape = core.op("StringSplit", {}, tf.constant(strings), tf.constant(" ."))
    assert.are.same({ "a", "b", "c", "d", "e", "f", "g" }, vals:numpy())
    assert.are.same({ 10, 1 }, shape:numpy())
  end)

  it("testStringSplitWithDelimitersTensor: a delimiter that is not a scalar", function()
    T.raises("InvalidArgumentError", "sep must be a scalar", core.op, "StringSplit", {},
      tf.constant({ "hello.cruel,world" }), tf.constant({ "a", "b" }))
    local _, vals = core.op("StringSplit", {}, tf.constant({ "hello.cruel,world", "hello cruel world" }),
      tf.constant(".,"))
    assert.are.same({ "hello", "cruel", "world", "hello cruel world" }, vals:numpy())
  end)

  it("testStringSplitWithNoSkipEmpty", function()
    local idx, vals, shape = core.op("StringSplit", { skip_empty = false }, tf.constant({ "#a", "b#", "#c#" }),
      tf.constant("#"))
    assert.are.same({ { 0, 0 }, { 0, 1 }, { 1, 0 }, { 1, 1 }, { 2, 0 }, { 2, 1 }, { 2, 2 } }, idx:numpy())
    assert.are.same({ "", "a", "b", "", "", "c", "" }, vals:numpy())
    assert.are.same({ 3, 3 }, shape:numpy())
  end)

  local V2 = {
    { "Simple", { "pigs on the wing", "animals" }, nil, nil, { { "pigs", "on", "the", "wing" }, { "animals" } } },
    { "MultiCharSeparator", { "1<>2<>3", "<><>4<>5<><>6<>" }, "<>", nil,
      { { "1", "2", "3" }, { "", "", "4", "5", "", "6", "" } } },
    { "SimpleSeparator", { "1,2,3", "4,5,,6," }, ",", nil, { { "1", "2", "3" }, { "4", "5", "", "6", "" } } },
    { "EmptySeparator", { "1 2 3", "  4  5    6  " }, nil, nil, { { "1", "2", "3" }, { "4", "5", "6" } } },
    { "EmptySeparatorEmptyInputString", { "" }, nil, nil, { {} } },
    { "SimpleSeparatorMaxSplit", { "1,2,3", "4,5,,6," }, ",", 1, { { "1", "2,3" }, { "4", "5,,6," } } },
    { "EmptySeparatorMaxSplit", { "1 2 3", "  4  5    6  " }, nil, 1, { { "1", "2 3" }, { "4", "5    6  " } } },
    { "ScalarInput", "1,2,3", ",", nil, { "1", "2", "3" } },
    { "Dense2DInput", { { "1,2,3", "4" }, { "5,6", "7,8,9" } }, ",", nil,
      { { { "1", "2", "3" }, { "4" } }, { { "5", "6" }, { "7", "8", "9" } } } },
  }
  for _, c in ipairs(V2) do
    it("StringSplitV2OpTest.testSplitV2 " .. c[1], function()
      check(c[5], function(x) return tf.strings.split(x, c[3], c[4]) end, tf.constant(c[2], tf.string))
    end)
  end

  it("testSplitV2 Ragged2DInput, Ragged3DInput, Ragged4DInputEmptySeparator", function()
    assert.are.same({ { { "1", "2", "3" }, { "4" } }, { { "5", "6" } } },
      tf.strings.split(tf.ragged.constant({ { "1,2,3", "4" }, { "5,6" } }), ","):to_list())
    assert.are.same({ { { { "1", "2", "3" }, { "4" } }, { { "5", "6" } } }, { { { "7", "8", "9" } } } },
      tf.strings.split(tf.ragged.constant({ { { "1,2,3", "4" }, { "5,6" } }, { { "7,8,9" } } }), ","):to_list())
    local r = tf.ragged.constant({ { { { "1 2 3", "4" }, { "5 6" } }, { { "7 8 9" } } }, { { { "" } } } })
    assert.are.same({ { { { { "1", "2", "3" }, { "4" } }, { { "5", "6" } } }, { { { "7", "8", "9" } } } }, { { { {} } } } },
      tf.strings.split(r):to_list())
  end)

  it("testSplitV2 EmptyInputVector", function()
    local r = tf.strings.split(tf.constant({}, tf.string))
    assert.are.same({}, r:to_list())
    assert.are.equal("(0, None)", tostring(r.shape))
  end)
end)

describe("string_length_op_test.py", function()
  it("testStringLength", function()
    check({ { { 1, 2 }, { 3, 4 }, { 5, 6 } } }, tf.strings.length,
      tf.constant({ { { "1", "12" }, { "123", "1234" }, { "12345", "123456" } } }))
  end)

  it("testUnit", function()
    local utf8 = tf.constant({ "H\xc3\x83llo", "\xf0\x9f\x98\x84" })
    check({ 6, 4 }, tf.strings.length, utf8)
    check({ 5, 1 }, function(x) return tf.strings.length(x, "UTF8_CHAR") end, utf8)
  end)

  it("testBadUnit", function()
    T.raises("InvalidArgumentError", "Value for attr 'unit' of \"XYZ\" is not in the list of allowed values",
      tf.strings.length, tf.constant("x"), "XYZ")
  end)

  it("testLegacyPositionalName (the unit positionally)", function()
    check({ 1 }, function(x) return tf.strings.length(x, "UTF8_CHAR") end, tf.constant({ "\xc3\xa9" }))
  end)
end)

describe("regex_replace_op_test.py", function()
  it("testRemovePrefix", function()
    check({ "foo", "bar", "foo", "baz", "qux", "ca:b" }, function(x)
      return tf.strings.regex_replace(x, "^(a:|b:)", "", false)
    end, tf.constant({ "a:foo", "a:bar", "a:foo", "b:baz", "b:qux", "ca:b" }))
  end)

  it("testRegexReplace", function()
    check({ "(aba)\n(aba)", "(abcda)bcde" }, function(x) return tf.strings.regex_replace(x, "a.*a", "(\\0)") end,
      tf.constant({ "aba\naba", "abcdabcde" }))
  end)

  it("testEmptyMatch", function()
    check({ "xaxbxcx", "x1x" }, function(x) return tf.strings.regex_replace(x, "", "x") end,
      tf.constant({ "abc", "1" }))
  end)

  it("testInvalidPattern", function()
    T.raises("InvalidArgumentError", "Invalid pattern", tf.strings.regex_replace, tf.constant({ "abc", "1" }),
      "A[", "x")
  end)

  it("testGlobal", function()
    check({ "abcabcabcabcabc", "abccabccabcc", "" }, function(x)
      return tf.strings.regex_replace(x, "ab", "abc", true)
    end, tf.constant({ "ababababab", "abcabcabc", "" }))
  end)

  it("testRewrite: groups, and a group the pattern lacks", function()
    check({ "b-a" }, function(x) return tf.strings.regex_replace(x, "(a)-(b)", "\\2-\\1") end, tf.constant({ "a-b" }))
    T.raises("InvalidArgumentError", "Rewrite schema requests 3 matches, but the regexp only has 2",
      tf.strings.regex_replace, tf.constant({ "a-b" }), "(a)-(b)", "\\3")
  end)
end)

describe("regex_full_match_op_test.py", function()
  it("testRegexFullMatch", function()
    check({ true, false }, function(x) return tf.strings.regex_full_match(x, "a.*a") end,
      tf.constant({ "abaaba", "abcdabcde" }))
  end)

  it("testRegexFullMatchTwoDims", function()
    check({ { false, true }, { false, true } }, function(x) return tf.strings.regex_full_match(x, "a.*a") end,
      tf.constant({ { "abcdabcde", "abaaba" }, { "abcdabcde", "abaaba" } }))
  end)

  it("testEmptyMatch", function()
    check({ false, false }, function(x) return tf.strings.regex_full_match(x, "") end, tf.constant({ "abc", "1" }))
  end)

  it("testInvalidPattern", function()
    T.raises("InvalidArgumentError", "Invalid pattern", tf.strings.regex_full_match, tf.constant({ "abc", "1" }),
      "A[")
  end)

  it("a pattern tensor that is not a scalar", function()
    T.raises("InvalidArgumentError", "Pattern must be scalar", tf.strings.regex_full_match, tf.constant({ "abc" }),
      tf.constant({ "a", "b" }))
  end)
end)

describe("substr_op_test.py", function()
  it("_testScalarString (BYTE and UTF8_CHAR)", function()
    check("ell", function(x) return tf.strings.substr(x, 1, 3) end, tf.constant("Hello"))
    check("ll", function(x) return tf.strings.substr(x, -3, 2) end, tf.constant("Hello"))
    check("\xc3\xa9ll", function(x) return tf.strings.substr(x, 1, 3, "UTF8_CHAR") end, tf.constant("H\xc3\xa9llo"))
  end)

  it("_testVectorStrings with a vector of positions", function()
    check({ "ell", "ood", "ay" }, function(x, p, l) return tf.strings.substr(x, p, l) end,
      tf.constant({ "Hello", "Good", "Day" }), tf.constant({ 1, 1, 1 }), tf.constant({ 3, 3, 3 }))
  end)

  it("_testMatrixStrings broadcasting positions over rows", function()
    check({ { "ell", "ood" }, { "ay", "igh" } }, function(x, p, l) return tf.strings.substr(x, p, l) end,
      tf.constant({ { "Hello", "Good" }, { "Day", "Night" } }), tf.constant({ 1, 1 }), tf.constant({ 3, 3 }))
  end)

  it("_testOutOfRangeError", function()
    T.raises("InvalidArgumentError", "pos 6 out of range for string b'Hello' at index 0", tf.strings.substr,
      tf.constant("Hello"), 6, 1)
    T.raises("InvalidArgumentError", "out of range", tf.strings.substr, tf.constant({ "ab", "abcd" }), -4, 1)
  end)

  it("_testMismatchPosLenShapes", function()
    T.raises("InvalidArgumentError", "pos and len should have the same shape", tf.strings.substr,
      tf.constant({ "Hello", "Good" }), tf.constant({ 1, 1 }), tf.constant({ 1 }))
  end)

  it("testInvalidUnit", function()
    T.raises("InvalidArgumentError", "is not in the list of allowed values", tf.strings.substr, tf.constant("x"), 0, 1,
      "BOGUS")
  end)
end)

describe("string_lower_op_test.py, string_upper_op_test.py, string_strip_op_test.py", function()
  it("testStringLower / testStringUpper", function()
    check({ "pigs on the wing", "animals" }, tf.strings.lower, tf.constant({ "Pigs on The Wing", "aNimals" }))
    check({ "PIGS ON THE WING", "ANIMALS" }, tf.strings.upper, tf.constant({ "Pigs on The Wing", "aNimals" }))
  end)

  it("testStringLowerEmpty / testStringUpperEmpty", function()
    check({ "" }, tf.strings.lower, tf.constant({ "" }))
    check({ "" }, tf.strings.upper, tf.constant({ "" }))
  end)

  it("test_string_strip", function()
    check({ "pigs on the wing", "animals" }, tf.strings.strip, tf.constant({ "pigs on the wing", "animals" }))
    check({ { "pigs on the wing", "animals" }, { "hello", "world" } }, tf.strings.strip,
      tf.constant({ { " pigs on the wing ", "animals  " }, { "hello ", "\n\tworld \r \n" } }))
    check({ "", "" }, tf.strings.strip, tf.constant({ " ", "" }))
  end)
end)

describe("string_to_number_op_test.py", function()
  it("testToFloat", function()
    T.eager_and_traced(tf.strings.to_number, { tf.constant({ "0", "3", "-1", "1.5", "3.40282e+38", "inf", "-inf" }) },
      function(_, got)
        local v = got:numpy()
        T.equal({ 0, 3, -1, 1.5, 3.40282e38 }, { v[1], v[2], v[3], v[4], v[5] }, 1e-6)
        assert.are.same({ math.huge, -math.huge }, { v[6], v[7] })
      end)
    T.raises("InvalidArgumentError", "StringToNumberOp could not correctly convert string: 10foobar",
      tf.strings.to_number, tf.constant({ "10foobar" }))
  end)

  it("testToInt32", function()
    check({ 0, 3, -1, -2147483648, 2147483647 }, function(x) return tf.strings.to_number(x, tf.int32) end,
      tf.constant({ "0", "3", "-1", "-2147483648", "2147483647" }))
    T.raises("InvalidArgumentError", "StringToNumberOp could not correctly convert string: 2.9",
      tf.strings.to_number, tf.constant({ "2.9" }), tf.int32)
    T.raises("InvalidArgumentError", "could not correctly convert string: 2147483648", tf.strings.to_number,
      tf.constant({ "2147483648" }), tf.int32)
  end)

  it("testToInt64", function()
    check({ 0, 3, -1, math.mininteger, math.maxinteger }, function(x) return tf.strings.to_number(x, tf.int64) end,
      tf.constant({ "0", "3", "-1", "-9223372036854775808", "9223372036854775807" }))
  end)
end)

describe("as_string_op_test.py", function()
  it("testFloat", function()
    local x = tf.constant({ 0, 1, -1, 0.5, 0.25, 0.125 }, tf.float32)
    check({ "0.000000", "1.000000", "-1.000000", "0.500000", "0.250000", "0.125000" }, tf.strings.as_string, x)
    check({ "0", "1", "-1", "0.5", "0.25", "0.125" }, function(t) return tf.strings.as_string(t, { shortest = true }) end, x)
    check({ "0.00e+00", "1.00e+00", "-1.00e+00", "5.00e-01", "2.50e-01", "1.25e-01" },
      function(t) return tf.strings.as_string(t, { scientific = true, precision = 2 }) end, x)
    check({ "  0.0", "  1.0", " -1.0", "  0.5", "  0.2", "  0.1" },
      function(t) return tf.strings.as_string(t, { width = 5, precision = 1 }) end, x)
    check({ "000.0", "001.0", "-01.0", "000.5", "000.2", "000.1" },
      function(t) return tf.strings.as_string(t, { width = 5, precision = 1, fill = "0" }) end, x)
    T.raises("InvalidArgumentError", "Cannot select both scientific and shortest notation",
      tf.strings.as_string, x, { scientific = true, shortest = true })
    T.raises("InvalidArgumentError", "Fill string must be one or fewer characters", tf.strings.as_string, x,
      { fill = "ab" })
  end)

  it("testInt", function()
    local x = tf.constant({ 0, 1, -1, 255, 1024 }, tf.int32)
    check({ "0", "1", "-1", "255", "1024" }, tf.strings.as_string, x)
    check({ "    0", "    1", "   -1", "  255", " 1024" }, function(t) return tf.strings.as_string(t, { width = 5 }) end, x)
    check({ "00000", "00001", "-0001", "00255", "01024" },
      function(t) return tf.strings.as_string(t, { width = 5, fill = "0" }) end, x)
    T.raises("InvalidArgumentError", "scientific and shortest format not supported for datatype int32",
      tf.strings.as_string, x, { scientific = true })
    T.raises("InvalidArgumentError", "precision not supported for datatype int32", tf.strings.as_string, x,
      { precision = 2 })
  end)

  it("testLargeInt", function()
    check({ "-9223372036854775808", "9223372036854775807" }, tf.strings.as_string,
      tf.constant({ math.mininteger, math.maxinteger }, tf.int64))
  end)

  it("testBool", function()
    check({ "false", "true" }, tf.strings.as_string, tf.constant({ false, true }))
  end)
end)

describe("reduce_join_op_test.py", function()
  it("testRankOne / testRankTwo / testRankFive-style axes", function()
    local words = tf.constant({ "this", "is", "a", "test" })
    check("thisisatest", function(x) return tf.strings.reduce_join(x, 0) end, words)
    check("this is a test", function(x) return tf.strings.reduce_join(x, 0, false, " ") end, words)
    local m = tf.constant({ { "this", "is", "a", "test" }, { "please", "do", "not", "panic" } })
    check({ "thisplease", "isdo", "anot", "testpanic" }, function(x) return tf.strings.reduce_join(x, 0) end, m)
    check({ "thisisatest", "pleasedonotpanic" }, function(x) return tf.strings.reduce_join(x, 1) end, m)
    check({ { "thisisatest" }, { "pleasedonotpanic" } }, function(x) return tf.strings.reduce_join(x, 1, true) end, m)
    check("thisisatestpleasedonotpanic", function(x) return tf.strings.reduce_join(x) end, m)
    check({ "thisisatest", "pleasedonotpanic" }, function(x) return tf.strings.reduce_join(x, -1) end, m)
  end)

  it("testInvalidReductionIndices", function()
    T.raises("InvalidArgumentError", "Invalid reduction dimension 2", tf.strings.reduce_join,
      tf.constant({ { "a" } }), 2)
    T.raises("InvalidArgumentError", "Duplicate reduction dimension 1", tf.strings.reduce_join,
      tf.constant({ { "a" } }), { 1, -1 })
  end)
end)

describe("unicode_decode_op_test.py, unicode_encode_op_test.py", function()
  it("testScalarDecode / testVectorDecode", function()
    check({ 72, 101, 108, 108, 111 }, function(x) return tf.strings.unicode_decode(x, "UTF-8") end,
      tf.constant("Hello"))
    check({ { 72, 101, 108, 108, 111 }, { 8364 }, {} }, function(x) return tf.strings.unicode_decode(x, "UTF-8") end,
      tf.constant({ "Hello", "\xe2\x82\xac", "" }))
  end)

  it("testErrorModes", function()
    local bad = tf.constant({ "\xfeA\xffB" })
    check({ { 65533, 65, 65533, 66 } }, function(x) return tf.strings.unicode_decode(x, "UTF-8") end, bad)
    check({ { 65, 66 } }, function(x) return tf.strings.unicode_decode(x, "UTF-8", "ignore") end, bad)
    check({ { 63, 65, 63, 66 } }, function(x) return tf.strings.unicode_decode(x, "UTF-8", "replace", 63) end, bad)
    T.raises("InvalidArgumentError", "Invalid formatting on input string", tf.strings.unicode_decode, bad, "UTF-8",
      "strict")
  end)

  it("testReplaceControlChars", function()
    check({ 65533, 65 }, function(x) return tf.strings.unicode_decode(x, "UTF-8", "replace", 65533, true) end,
      tf.constant("\x01A"))
  end)

  it("testBadEncoding", function()
    T.raises("InvalidArgumentError", "Could not create converter for input encoding: BAD", tf.strings.unicode_decode,
      tf.constant("x"), "BAD")
  end)

  it("unicode_split", function()
    check({ { "H", "\xc3\xa9", "\xe8\xaa\x9e" }, {} }, function(x) return tf.strings.unicode_split(x, "UTF-8") end,
      tf.constant({ "H\xc3\xa9\xe8\xaa\x9e", "" }))
  end)

  it("testStrictErrors / testReplaceErrors / testIgnoreErrors (encode)", function()
    local r = tf.ragged.constant({ { 72, 101, 108, 108, 111 }, { 8364 }, {} })
    check({ "Hello", "\xe2\x82\xac", "" }, function(x) return tf.strings.unicode_encode(x, "UTF-8") end, r)
    check("Hi", function(x) return tf.strings.unicode_encode(x, "UTF-8") end, tf.constant({ 72, 105 }))
    local bad = tf.constant({ 72, 1114112, 105 })
    check("H\xef\xbf\xbdi", function(x) return tf.strings.unicode_encode(x, "UTF-8") end, bad)
    check("Hi", function(x) return tf.strings.unicode_encode(x, "UTF-8", "ignore") end, bad)
    T.raises("InvalidArgumentError", "Code point is out of range for Unicode", tf.strings.unicode_encode, bad,
      "UTF-8", "strict")
  end)
end)

describe("decode_raw_op_test.py", function()
  it("testShapeInference / testToUint8-style values (int32, both byte orders)", function()
    check({ { 1, 2 } }, function(x) return tf.io.decode_raw(x, tf.int32) end, tf.constant({ "\1\0\0\0\2\0\0\0" }))
    check({ { 16777216 } }, function(x) return tf.io.decode_raw(x, tf.int32, false) end, tf.constant({ "\1\0\0\0" }))
  end)

  it("testToInt16-style errors", function()
    T.raises("InvalidArgumentError", "DecodeRaw requires input strings to all be the same size, but element 1 has size 8 != 4",
      tf.io.decode_raw, tf.constant({ "AAAA", "AAAAAAAA" }), tf.int32)
    T.raises("InvalidArgumentError", "Input to DecodeRaw has length 3 that is not a multiple of 4, the size of int32",
      tf.io.decode_raw, tf.constant({ "AAA" }), tf.int32)
  end)

  it("testToUint8, testToInt16 and testToFloat16 (the small dtypes)", function()
    local u8 = tf.io.decode_raw(tf.constant({ "A", "a" }), tf.uint8)
    assert.are.equal("tf.Tensor(\n[[65]\n [97]], shape=(2, 1), dtype=uint8)", tostring(u8))
    local i16 = tf.io.decode_raw(tf.constant({ "AaBC" }), tf.int16)
    assert.are.same({ { 24897, 17218 } }, i16:numpy())
    T.raises("InvalidArgumentError", "Input to DecodeRaw has length 3 that is not a multiple of 2, the size of int16",
      tf.io.decode_raw, tf.constant({ "abc" }), tf.int16)
    -- 1.0 and -2.0 as IEEE halves, little-endian: 0x3c00 and 0xc000.
    local f16 = tf.io.decode_raw(tf.constant({ "\0\60\0\192" }), tf.float16)
    assert.are.equal("tf.Tensor([[ 1. -2.]], shape=(1, 2), dtype=float16)", tostring(f16))
    T.raises("InvalidArgumentError", "Value for attr 'out_type' of uint32 is not in the list of allowed values",
      tf.io.decode_raw, tf.constant({ "abcd" }), tf.uint32)
  end)

  it("testEmptyStringInput", function()
    local got = tf.io.decode_raw(tf.constant({ "", "" }), tf.float64)
    assert.are.equal("(2, 0)", tostring(got.shape))
  end)
end)
