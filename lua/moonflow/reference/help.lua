-- reference/help.lua — the help text of a value, one text for tf.help,
-- %help, Jupyter's inspect and docs/reference.md: its docstring (the
-- signature and what it does), then the Example: and Errors: blocks of its
-- entry in reference/examples/ when it has one.

local doc = require("moonflow.doc")
local examples = require("moonflow.reference.examples")

local help = {}

--- help.docstring(obj) -> the docstring part: doc.def's record, a
-- __help metamethod's text, a table of functions' names, or tostring.
function help.docstring(obj)
  local d = doc.get(obj)
  if d then return doc.render(d) end
  local mt = getmetatable(obj)
  if mt and mt.__help then return mt.__help(obj) end
  if type(obj) == "table" and mt == nil then
    local names = {}
    for k, v in pairs(obj) do
      if type(k) == "string" and k:sub(1, 1) ~= "_" and doc.get(v) then names[#names + 1] = k end
    end
    table.sort(names)
    if #names > 0 then return "A table of functions: " .. table.concat(names, ", ") end
  end
  if type(obj) == "function" then
    return "A Lua function without a docstring."
  end
  return tostring(obj)
end

--- help.name_of(obj) -> the first public name (in the reference's order)
-- whose value is obj, a function or table, or nil. Numbers and strings are
-- never looked up: a 1 is not tf.something because a constant is 1.
function help.name_of(obj)
  if type(obj) ~= "function" and type(obj) ~= "table" then return nil end
  -- required here: reference.lua walks tf, which is still being built
  -- while this module loads
  for _, e in ipairs(require("moonflow.reference").names()) do
    if rawequal(e.value, obj) then return e.name end
  end
  return nil
end

--- help.examples(obj [, name]) -> the Example:/Errors: block of name's
-- entry (the name obj was reached by, as typed) or, when that name has no
-- entry, of obj's public name; nil when neither has one.
function help.examples(obj, name)
  local block = name and examples.block(name)
  if block then return block end
  local public = help.name_of(obj)
  return public and examples.block(public) or nil
end

--- help.text(obj [, name]) -> the docstring and the examples block.
function help.text(obj, name)
  local text = help.docstring(obj)
  local block = help.examples(obj, name)
  if block then text = text .. "\n\n" .. block end
  return text
end

return help
