-- reference.lua — the API reference, docs/reference.md, made from the
-- docstrings tf.help and %help show: one text in all three. `make docs`
-- writes the file; a test checks that the repository's copy is the one the
-- library makes, so a new function or a changed docstring shows up there.
--
-- It walks `tf` as a user reaches it: each namespace (tf, tf.nn,
-- tf.keras.layers, ...) gets a section; a documented function, its help;
-- a class (tf.Module, tf.keras.layers.Dense, ...), its help and its
-- documented methods; a constant (tf.float32, tf.None), its printed form.

local doc = require("moonflow.doc")
local help = require("moonflow.reference.help")
local receiver = require("moonflow.receiver")
local tf = require("moonflow")

local reference = {}

local public_keys = help.public_keys

-- The documented functions a class table holds, itself or through its
-- __index (a table, or receiver.index's function and its method tables):
-- {name, help} pairs, sorted; and its fields' names.
local function members_of(class)
  local found, seen, fields = {}, {}, {}
  local function scan(t)
    if type(t) ~= "table" then return end
    for _, k in ipairs(public_keys(t)) do
      local v = rawget(t, k)
      if not seen[k] and type(v) == "function" and doc.get(v) then
        seen[k] = true
        found[#found + 1] = { k, help.docstring(v) }
      end
    end
  end
  scan(class)
  local index = rawget(class, "__index")
  if type(index) == "function" then
    local tables, getters = receiver.index_parts(index)
    if not tables then
      -- a hand-written __index (the tensor's): the `methods` and `fields`
      -- tables it reads
      tables = {}
      for i = 1, 255 do
        local up, val = debug.getupvalue(index, i)
        if up == nil then break end
        if up == "methods" and type(val) == "table" then tables[#tables + 1] = val end
        if up == "fields" and type(val) == "table" then getters = val end
      end
    end
    for _, t in ipairs(tables) do scan(t) end
    fields = public_keys(getters or {})
  else
    scan(index)
  end
  table.sort(found, function(a, b) return a[1] < b[1] end)
  return found, fields
end

-- Markdown for one help text: its first line (the signature) as code, the
-- rest as it is written.
local function help_block(text)
  local signature, rest = text:match("^([^\n]*)\n\n(.*)$")
  if not signature then signature, rest = text, nil end
  local out = { "```", signature, "```" }
  if rest and rest ~= "" then out[#out + 1] = ""; out[#out + 1] = rest end
  return table.concat(out, "\n")
end

--- reference.names() -> every public name the reference documents, in its
-- order: a list of {name=, value=} (help.names of tf).
function reference.names()
  return help.names(tf)
end

-- Markdown for one entry: its help (as tf.help shows it: docstring, then
-- the example and errors), for a class also its fields and methods, for a
-- constant its printed form.
local function entry_markdown(name, v)
  local block = help.examples(v, name, tf)
  local function with_examples(text) return block and text .. "\n\n" .. block or text end
  if doc.get(v) then return help_block(with_examples(help.docstring(v))) end
  if type(v) == "table" then
    local methods, fields = members_of(v)
    local text = help.docstring(v)
    -- a class table without a docstring prints as an address
    if text:find("^table: ") then text = ("<class %s>"):format(rawget(v, "__name") or name:match("[^.]+$")) end
    local parts = { help_block(with_examples(text)) }
    if #fields > 0 then
      parts[#parts + 1] = "\nFields: " .. table.concat(fields, ", ") .. "."
    end
    for _, m in ipairs(methods) do
      parts[#parts + 1] = ("\n**%s**\n\n%s"):format(m[1], help_block(m[2]))
    end
    return table.concat(parts, "\n")
  end
  return with_examples(("`%s`"):format(tostring(v)))
end

local function anchor(text)
  return (text:lower():gsub("[^%w%-_ ]", ""):gsub(" ", "-"))
end

--- reference.markdown() -> the whole of docs/reference.md.
function reference.markdown()
  local sections = help.sections(tf)
  local out = {
    "# moonflow API reference",
    "",
    "Every name under `tf`, with the help `tf.help(x)` and `%help x` print: the",
    "signature (options in `{...}`; any other option key is a TypeError), then",
    "what it does, then an example (`-->` marks what it prints) and the errors",
    "it raises for bad input (`--> type: ...part of the message...`). Written by",
    "`make docs` from the library's docstrings and lua/moonflow/reference/examples/;",
    "tests check that this file is current and that every example prints what it",
    "shows. Guides: README.md and the lessons in tutorials/.",
    "",
    "## Namespaces",
    "",
  }
  for _, s in ipairs(sections) do
    out[#out + 1] = ("- [%s](#%s) (%d)"):format(s.path, anchor(s.path), #s.entries)
  end
  for _, s in ipairs(sections) do
    out[#out + 1] = ""
    out[#out + 1] = "## " .. s.path
    for _, e in ipairs(s.entries) do
      out[#out + 1] = ""
      out[#out + 1] = "### " .. e.name
      out[#out + 1] = ""
      out[#out + 1] = entry_markdown(e.name, e.value)
    end
  end
  return table.concat(out, "\n") .. "\n"
end

return reference
