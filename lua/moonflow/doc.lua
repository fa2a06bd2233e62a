-- doc.lua — docstrings. Every public function registers its signature and
-- description here; tf.help, %help and Jupyter's inspect read them. The
-- wrapper of a registry op registers through ops/common.lua's op_def, whose
-- description starts with the op's one-line `.doc` from the C registry;
-- its record also keeps `op` (the op's name) and `lua_text` (the part
-- the wrapper adds).

local core = require("moonflow.core")

local docs = setmetatable({}, { __mode = "k" })

-- errors.lua documents itself here, so doc raises through core directly.
local function type_error(message) error(core.error("TypeError", message), 3) end

local doc = {}

--- Registers the docstring of `fn` and returns `fn`.
function doc.def(fn, signature, text)
  if fn == nil or fn ~= fn then
    type_error("tf.doc.def: argument 'fn' must be a value to document, got " .. tostring(fn))
  end
  if type(signature) ~= "string" then
    type_error("tf.doc.def: argument 'signature' must be a string, got a " .. type(signature))
  end
  if text ~= nil and type(text) ~= "string" then
    type_error("tf.doc.def: argument 'text' must be a string, got a " .. type(text))
  end
  docs[fn] = { signature = signature, text = text }
  return fn
end

--- The {signature=, text=} of `fn`, or nil.
function doc.get(fn)
  return docs[fn]
end

--- Formats a docstring record as help text.
function doc.render(d)
  if type(d) ~= "table" or type(d.signature) ~= "string" then
    type_error("tf.doc.render: argument 'd' must be a docstring record {signature=, text=}, got a " .. type(d))
  end
  if d.text and d.text ~= "" then
    return d.signature .. "\n\n" .. d.text
  end
  return d.signature
end

return doc
