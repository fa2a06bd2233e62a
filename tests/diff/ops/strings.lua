-- strings.lua — StringLength StringJoin StringFormat (the op tf.print
-- formats with; integer tensors, TF's summarised layout), and the string,
-- regex and unicode families of issue 28: case, strip, substr, splits
-- (the sparse result of the ops), numbers both ways, joins along axes,
-- raw bytes, regular expressions (against Python's re, RE2's replacement
-- rule written out), UTF-8 decoding and encoding (against Python's codec,
-- whose replacement of ill-formed sequences is ICU's).

local function strings(r, g, shape)
  return g.rand(r, "string", shape)
end

-- Strings drawn from a list.
local function picked(r, g, shape, list)
  local v = {}
  for i = 1, g.size(shape) do v[i] = r.pick(list) end
  return g.T("string", shape, v)
end

return {
  {
    name = "string_length", ops = { "StringLength" },
    gen = function(r, g)
      return { inputs = { strings(r, g, g.shape(r, r.range(0, 2), 3)) },
        attrs = { unit = r.pick({ "BYTE", "UTF8_CHAR", "BYTE", r.chance(0.1) and "CHAR" or "BYTE" }) } }
    end,
    call = function(a, x) return tf.strings.length(x, a.unit) end,
  },
  {
    name = "string_join", ops = { "StringJoin" },
    gen = function(r, g)
      local shape = g.shape(r, r.range(0, 2), 3)
      local xs = {}
      for i = 1, r.range(1, 3) do
        local s = shape
        if r.chance(0.3) then s = {} end
        if r.chance(0.03) and #shape > 0 then s = { shape[1] + 1 } end -- incompatible
        xs[i] = strings(r, g, s)
      end
      return { inputs = xs, attrs = { sep = r.pick({ "", "-", ", " }) } }
    end,
    call = function(a, ...) return tf.strings.join({ ... }, a.sep) end,
  },
  {
    name = "string_format", ops = { "StringFormat" },
    gen = function(r, g)
      local xs, parts = {}, {}
      for i = 1, r.range(0, 3) do
        xs[i] = g.rand(r, r.pick(gen.INTS), g.shape(r, r.range(0, 3), 7), "any")
        parts[#parts + 1] = r.pick({ "a", "", " x=" }) .. "{}"
      end
      parts[#parts + 1] = r.pick({ "", "!" })
      local template = table.concat(parts)
      if r.chance(0.05) then template = template .. "{}" end -- one placeholder too many
      return { inputs = xs, attrs = { template = template, summarize = r.pick({ 1, 2, 3, -1 }) } }
    end,
    call = function(a, ...)
      return core.op("StringFormat", { template = a.template, placeholder = "{}", summarize = a.summarize }, ...)
    end,
  },
  {
    name = "string_case", ops = { "StringLower", "StringUpper", "StringStrip" },
    gen = function(r, g)
      return { inputs = { picked(r, g, g.shape(r, r.range(0, 2), 3), { "Ab c", " XY\t", "é É", "", " \n" }) },
        attrs = { which = r.pick({ "lower", "upper", "strip" }) } }
    end,
    call = function(a, x) return tf.strings[a.which](x) end,
  },
  {
    name = "substr", ops = { "Substr" },
    gen = function(r, g)
      local shape = g.shape(r, r.range(0, 2), 3)
      local ps = r.chance(0.5) and {} or shape
      local pos = g.rand(r, "int32", ps, "small")
      local len = g.rand(r, "int32", ps, "small")
      return { inputs = { strings(r, g, shape), pos, len }, attrs = { unit = r.pick({ "BYTE", "UTF8_CHAR" }) } }
    end,
    call = function(a, x, p, l) return tf.strings.substr(x, p, l, a.unit) end,
  },
  {
    name = "string_split_v2", ops = { "StringSplitV2" },
    gen = function(r, g)
      local x = picked(r, g, { r.range(0, 4) }, { "a b  c", " ab ", "", "a,,b,", "abab", "b a\tb" })
      return { inputs = { x }, attrs = { sep = r.pick({ "", ",", "a", "ab", " " }), maxsplit = r.pick({ -1, 0, 1, 2 }) } }
    end,
    call = function(a, x)
      return core.op("StringSplitV2", { maxsplit = a.maxsplit }, x, tf.constant(a.sep))
    end,
  },
  {
    name = "string_split", ops = { "StringSplit" },
    gen = function(r, g)
      local x = picked(r, g, { r.range(0, 4) }, { "a b  c", " ab ", "", "a,,b,", "abé" })
      return { inputs = { x }, attrs = { delim = r.pick({ "", ",", " ,", "b" }), skip = r.chance(0.5) } }
    end,
    call = function(a, x)
      return core.op("StringSplit", { skip_empty = a.skip }, x, tf.constant(a.delim))
    end,
  },
  {
    name = "string_to_number", ops = { "StringToNumber" },
    gen = function(r, g)
      local x = picked(r, g, g.shape(r, r.range(0, 2), 3),
        { "1", "-2.5", " 3 ", "abc", "1e3", "", "7", "0.5", "inf", "12345678901", "0x10", "+4" })
      return { inputs = { x }, attrs = { out = r.pick({ "float32", "float64", "int32", "int64" }) } }
    end,
    call = function(a, x) return tf.strings.to_number(x, tf[a.out]) end,
  },
  {
    name = "as_string", ops = { "AsString" },
    gen = function(r, g)
      local dt = r.pick({ "int32", "int64", "float32", "float64", "bool" })
      local x = g.rand(r, dt, g.shape(r, r.range(0, 2), 3), dt:find("float") and "finite" or "small")
      local float = dt:find("float") ~= nil
      local attrs = { precision = -1, width = r.pick({ -1, -1, 0, 6 }), fill = r.pick({ "", "", "0", " ", "-", "+" }),
        scientific = false, shortest = false }
      if float or r.chance(0.05) then
        attrs.precision = r.pick({ -1, 0, 3 })
        local k = r.pick({ "f", "e", "g" })
        attrs.scientific, attrs.shortest = k == "e", k == "g"
        if r.chance(0.05) then attrs.scientific, attrs.shortest = true, true end
      end
      return { inputs = { x }, attrs = attrs }
    end,
    call = function(a, x)
      return tf.strings.as_string(x, a.precision, a.scientific, a.shortest, a.width, a.fill)
    end,
  },
  {
    name = "reduce_join", ops = { "ReduceJoin" },
    gen = function(r, g)
      local rank = r.range(1, 3)
      local axes = {}
      for d = 0, rank - 1 do
        if r.chance(0.5) then axes[#axes + 1] = r.chance(0.2) and d - rank or d end
      end
      if r.chance(0.03) then axes[#axes + 1] = rank end -- out of range
      return { inputs = { strings(r, g, g.shape(r, rank, 3)) },
        attrs = { axes = axes, keep = r.chance(0.5), sep = r.pick({ "", "-", ", " }) } }
    end,
    call = function(a, x) return tf.strings.reduce_join(x, a.axes, a.keep, a.sep) end,
  },
  {
    name = "decode_raw", ops = { "DecodeRaw" },
    gen = function(r, g)
      local width = r.pick({ 4, 8 })
      local n = r.range(0, 3) * width
      local shape = g.shape(r, r.range(0, 2), 3)
      local v = {}
      for i = 1, g.size(shape) do
        local len = r.chance(0.05) and n + 1 or n -- a length that does not fit
        local b = {}
        for k = 1, len do b[k] = string.char(r.range(0, 255)) end
        v[i] = table.concat(b)
      end
      return { inputs = { g.T("string", shape, v) },
        attrs = { out = width == 4 and "int32" or "int64", little = r.chance(0.5) } }
    end,
    call = function(a, x) return tf.io.decode_raw(x, tf[a.out], a.little) end,
  },
  {
    name = "regex_full_match", ops = { "RegexFullMatch" },
    gen = function(r, g)
      return { inputs = { strings(r, g, g.shape(r, r.range(0, 2), 3)) },
        attrs = { pattern = r.pick({ "a.*", "[ab ]+", "(a|b)c?", "é+", ".*", "", "a{2}", "(a" }) } }
    end,
    call = function(a, x) return tf.strings.regex_full_match(x, a.pattern) end,
  },
  {
    name = "regex_replace", ops = { "RegexReplace" },
    gen = function(r, g)
      return { inputs = { strings(r, g, g.shape(r, r.range(0, 2), 3)) },
        attrs = { pattern = r.pick({ "a", "b+", "a*", "(a)(b)?", " ", "é", "[" }),
          rewrite = r.pick({ "x", "\\1-", "", "[\\0]", "\\\\", "\\3" }), global = r.chance(0.7) } }
    end,
    call = function(a, x) return tf.strings.regex_replace(x, a.pattern, a.rewrite, a.global) end,
  },
  {
    name = "unicode_decode", ops = { "UnicodeDecode", "UnicodeDecodeWithOffsets" },
    gen = function(r, g)
      local x = picked(r, g, { r.range(0, 4) }, { "abc", "é語", "", "a\xffb", "\xc3", "\xe8\xaa", "\xed\xa0\x80x",
        "\xf0\x9f\x98\x80", "\x01a" })
      return { inputs = { x }, attrs = { errors = r.pick({ "replace", "ignore", "strict" }),
        replacement = r.pick({ 65533, 63 }), controls = r.chance(0.3), offsets = r.chance(0.5) } }
    end,
    call = function(a, x)
      return core.op(a.offsets and "UnicodeDecodeWithOffsets" or "UnicodeDecode", { input_encoding = "UTF-8",
        errors = a.errors, replacement_char = a.replacement, replace_control_characters = a.controls }, x)
    end,
  },
  {
    name = "unicode_encode", ops = { "UnicodeEncode" },
    gen = function(r, g)
      local n = r.range(0, 6)
      local v = {}
      for i = 1, n do v[i] = r.pick({ 97, 233, 35486, 128512, 0, 65, -1, 0xD800, 0x110000 }) end
      local splits, at = { 0 }, 0
      while at < n do
        at = math.min(n, at + r.range(0, 3))
        splits[#splits + 1] = at
      end
      return { inputs = { g.T("int32", { n }, v), g.T("int64", { #splits }, splits) },
        attrs = { errors = r.pick({ "replace", "ignore", "strict" }), replacement = r.pick({ 65533, 63 }) } }
    end,
    call = function(a, v, s)
      return core.op("UnicodeEncode", { output_encoding = "UTF-8", errors = a.errors,
        replacement_char = a.replacement }, v, s)
    end,
  },
}
