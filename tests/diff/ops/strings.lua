-- strings.lua — StringLength StringJoin StringFormat (the op tf.print
-- formats with; integer tensors, TF's summarised layout).

local function strings(r, g, shape)
  return g.rand(r, "string", shape)
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
}
