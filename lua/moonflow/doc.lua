-- doc.lua — docstrings. Every public function registers its signature and
-- description here; tf.help, %help and Jupyter's inspect read them.

local docs = setmetatable({}, { __mode = "k" })

local doc = {}

--- Registers the docstring of `fn` and returns `fn`.
function doc.def(fn, signature, text)
  docs[fn] = { signature = signature, text = text }
  return fn
end

--- The {signature=, text=} of `fn`, or nil.
function doc.get(fn)
  return docs[fn]
end

--- Formats a docstring record as help text.
function doc.render(d)
  if d.text and d.text ~= "" then
    return d.signature .. "\n\n" .. d.text
  end
  return d.signature
end

return doc
