-- strings: examples and errors for the reference (docs/reference.md and %help).
return {
  ["tf.strings.length"] = {
    example = [[
print(tf.strings.length(tf.constant({"hello", "h\xc3\xa9llo"})))
print(tf.strings.length(tf.constant("h\xc3\xa9llo"), "UTF8_CHAR"))
]],
    output = [[
tf.Tensor([5 6], shape=(2,), dtype=int32)
tf.Tensor(5, shape=(), dtype=int32)
]],
    errors = {
      { code = [[local _ = tf.strings.length(tf.constant("x"), "CHAR")]], type = "InvalidArgumentError", message = "is not in the list of allowed values" },
    },
  },
  ["tf.strings.join"] = {
    example = [[
print(tf.strings.join({tf.constant({"a", "b"}), tf.constant("!")}, "-"))
]],
    output = [[
tf.Tensor([b'a-!' b'b-!'], shape=(2,), dtype=string)
]],
    errors = {
      { code = [[local _ = tf.strings.join({tf.constant({"a", "b"}), tf.constant({"a", "b", "c"})})]], type = "InvalidArgumentError", message = "Input shapes do not match" },
    },
  },
  ["tf.strings.format"] = {
    example = [[
print(tf.strings.format("x={} y={}", {tf.constant({1, 2}), tf.constant(3)}))
]],
    output = [[
tf.Tensor(b'x=[1 2] y=3', shape=(), dtype=string)
]],
    errors = {
      { code = [[local _ = tf.strings.format("{} {}", {tf.constant(1)})]], type = "InvalidArgumentError", message = "num placeholders in template and num inputs must match" },
    },
  },
  ["tf.strings.lower"] = {
    example = [[
print(tf.strings.lower(tf.constant({"Pigs on The Wing", "aNimals"})))
]],
    output = [[
tf.Tensor([b'pigs on the wing' b'animals'], shape=(2,), dtype=string)
]],
    errors = {
      { code = [[local _ = tf.strings.lower(tf.constant(1))]], type = "InvalidArgumentError", message = "string" },
    },
  },
  ["tf.strings.upper"] = {
    example = [[
print(tf.strings.upper(tf.constant("Hello")))
]],
    output = [[
tf.Tensor(b'HELLO', shape=(), dtype=string)
]],
    errors = {
      { code = [[local _ = tf.strings.upper(tf.constant(1.5))]], type = "InvalidArgumentError", message = "string" },
    },
  },
  ["tf.strings.strip"] = {
    example = [[
print(tf.strings.strip(tf.constant({"  a b ", "\tc\n"})))
]],
    output = [[
tf.Tensor([b'a b' b'c'], shape=(2,), dtype=string)
]],
    errors = {
      { code = [[local _ = tf.strings.strip(tf.constant(true))]], type = "InvalidArgumentError", message = "string" },
    },
  },
  ["tf.strings.substr"] = {
    example = [[
print(tf.strings.substr(tf.constant("Hello"), 1, 3))
print(tf.strings.substr(tf.constant("h\xc3\xa9llo"), -4, 2, "UTF8_CHAR"))
]],
    output = [[
tf.Tensor(b'ell', shape=(), dtype=string)
tf.Tensor(b'\xc3\xa9l', shape=(), dtype=string)
]],
    errors = {
      { code = [[local _ = tf.strings.substr(tf.constant("Hello"), 6, 1)]], type = "InvalidArgumentError", message = "pos 6 out of range for string b'Hello' at index 0" },
    },
  },
  ["tf.strings.split"] = {
    example = [[
print(tf.strings.split(tf.constant("Gray wolf")))
print(tf.strings.split(tf.constant({"a,b,,c", "d"}), ","))
print(tf.strings.split(tf.constant("1 2 3"), " ", 1))
]],
    output = [=[
tf.Tensor([b'Gray' b'wolf'], shape=(2,), dtype=string)
<tf.RaggedTensor [[b'a', b'b', b'', b'c'], [b'd']]>
tf.Tensor([b'1' b'2 3'], shape=(2,), dtype=string)
]=],
    errors = {
      { code = [[local _ = tf.strings.split(tf.constant({"a"}), tf.constant({",", ";"}))]], type = "InvalidArgumentError", message = "sep must be a scalar" },
    },
  },
  ["tf.strings.bytes_split"] = {
    example = [[
print(tf.strings.bytes_split(tf.constant("Duck")))
print(tf.strings.bytes_split(tf.constant({"ab", "c"})))
]],
    output = [=[
tf.Tensor([b'D' b'u' b'c' b'k'], shape=(4,), dtype=string)
<tf.RaggedTensor [[b'a', b'b'], [b'c']]>
]=],
    errors = {
      { code = [[local _ = tf.strings.bytes_split(tf.constant(1))]], type = "InvalidArgumentError", message = "string" },
    },
  },
  ["tf.strings.to_number"] = {
    example = [[
print(tf.strings.to_number(tf.constant({"1.5", " 3 "})))
print(tf.strings.to_number(tf.constant("42"), tf.int64))
]],
    output = [[
tf.Tensor([1.5 3. ], shape=(2,), dtype=float32)
tf.Tensor(42, shape=(), dtype=int64)
]],
    errors = {
      { code = [[local _ = tf.strings.to_number(tf.constant("4x"))]], type = "InvalidArgumentError", message = "StringToNumberOp could not correctly convert string: 4x" },
    },
  },
  ["tf.strings.as_string"] = {
    example = [[
print(tf.strings.as_string(tf.constant({3.14159, 2.5}), 2))
print(tf.strings.as_string(tf.constant({7, 42}), {width = 4, fill = "0"}))
]],
    output = [[
tf.Tensor([b'3.14' b'2.50'], shape=(2,), dtype=string)
tf.Tensor([b'0007' b'0042'], shape=(2,), dtype=string)
]],
    errors = {
      { code = [[local _ = tf.strings.as_string(tf.constant({1}), 2)]], type = "InvalidArgumentError", message = "precision not supported for datatype int32" },
      { code = [[local _ = tf.strings.as_string(tf.constant({1.5}), {scientific = true, shortest = true})]], type = "InvalidArgumentError", message = "Cannot select both scientific and shortest notation" },
    },
  },
  ["tf.as_string"] = {
    example = [[
print(tf.as_string(tf.constant({true, false})))
]],
    output = [[
tf.Tensor([b'true' b'false'], shape=(2,), dtype=string)
]],
    errors = {
      { code = [[local _ = tf.as_string(tf.constant({1.5}), {fill = "ab"})]], type = "InvalidArgumentError", message = "Fill string must be one or fewer characters" },
    },
  },
  ["tf.strings.reduce_join"] = {
    example = [[
local t = tf.constant({{"a", "b"}, {"c", "d"}})
print(tf.strings.reduce_join(t))
print(tf.strings.reduce_join(t, 1, false, "-"))
]],
    output = [[
tf.Tensor(b'abcd', shape=(), dtype=string)
tf.Tensor([b'a-b' b'c-d'], shape=(2,), dtype=string)
]],
    errors = {
      { code = [[local _ = tf.strings.reduce_join(tf.constant({{"a"}}), 2)]], type = "InvalidArgumentError", message = "Invalid reduction dimension 2" },
    },
  },
  ["tf.strings.regex_full_match"] = {
    example = [[
print(tf.strings.regex_full_match(tf.constant({"abaaba", "abcdabcde"}), "a.*a"))
]],
    output = [[
tf.Tensor([ True False], shape=(2,), dtype=bool)
]],
    errors = {
      { code = [[local _ = tf.strings.regex_full_match(tf.constant("abc"), "A[")]], type = "InvalidArgumentError", message = "Invalid pattern: A[" },
    },
  },
  ["tf.strings.regex_replace"] = {
    example = [[
print(tf.strings.regex_replace(tf.constant("Text with <b>tags</b>"), "<[^>]+>", ""))
print(tf.strings.regex_replace(tf.constant("a-b"), "(a)-(b)", "\\2-\\1"))
]],
    output = [[
tf.Tensor(b'Text with tags', shape=(), dtype=string)
tf.Tensor(b'b-a', shape=(), dtype=string)
]],
    errors = {
      { code = [[local _ = tf.strings.regex_replace(tf.constant("abc"), "(", "x")]], type = "InvalidArgumentError", message = "Invalid pattern: (" },
      { code = [[local _ = tf.strings.regex_replace(tf.constant("abc"), "(b)", "\\2")]], type = "InvalidArgumentError", message = "Rewrite schema requests 2 matches" },
    },
  },
  ["tf.strings.unicode_decode"] = {
    example = [[
print(tf.strings.unicode_decode(tf.constant("h\xc3\xa9"), "UTF-8"))
print(tf.strings.unicode_decode(tf.constant({"ab", "\xff"}), "UTF-8"))
]],
    output = [=[
tf.Tensor([104 233], shape=(2,), dtype=int32)
<tf.RaggedTensor [[97, 98], [65533]]>
]=],
    errors = {
      { code = [[local _ = tf.strings.unicode_decode(tf.constant("\xff"), "UTF-8", "strict")]], type = "InvalidArgumentError", message = "Invalid formatting on input string" },
    },
  },
  ["tf.strings.unicode_encode"] = {
    example = [[
print(tf.strings.unicode_encode(tf.constant({104, 233}), "UTF-8"))
print(tf.strings.unicode_encode(tf.ragged.constant({{72, 105}, {8364}}), "UTF-8"))
]],
    output = [[
tf.Tensor(b'h\xc3\xa9', shape=(), dtype=string)
tf.Tensor([b'Hi' b'\xe2\x82\xac'], shape=(2,), dtype=string)
]],
    errors = {
      { code = [[local _ = tf.strings.unicode_encode(tf.constant({1114112}), "UTF-8", "strict")]], type = "InvalidArgumentError", message = "Code point is out of range for Unicode" },
    },
  },
  ["tf.strings.unicode_split"] = {
    example = [[
print(tf.strings.unicode_split(tf.constant("h\xc3\xa9"), "UTF-8"))
]],
    output = [[
tf.Tensor([b'h' b'\xc3\xa9'], shape=(2,), dtype=string)
]],
    errors = {
      { code = [[local _ = tf.strings.unicode_split(tf.constant("x"), "latin-1")]], type = "InvalidArgumentError", message = "Could not create converter for input encoding: latin-1" },
    },
  },
  ["tf.io.decode_raw"] = {
    example = [[
print(tf.io.decode_raw(tf.constant({"\1\0\0\0\2\0\0\0"}), tf.int32))
]],
    output = [=[
tf.Tensor([[1 2]], shape=(1, 2), dtype=int32)
]=],
    errors = {
      { code = [[local _ = tf.io.decode_raw(tf.constant({"abc"}), tf.int32)]], type = "InvalidArgumentError", message = "Input to DecodeRaw has length 3 that is not a multiple of 4" },
    },
  },
}
