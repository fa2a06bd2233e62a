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


-- The walk of tf as a user reaches it, for the reference's sections and
-- for a value's public name ----------------------------------------------

--- help.public_keys(t) -> t's string keys not starting with "_", sorted.
function help.public_keys(t)
  local keys = {}
  for k in pairs(t) do
    if type(k) == "string" and k:sub(1, 1) ~= "_" then keys[#keys + 1] = k end
  end
  table.sort(keys)
  return keys
end

-- A namespace: a strict module table (strict.lua names its metatable
-- "module 'tf.x'") or a plain table of public names, holding no docstring
-- of its own; a table with a __name (a class's metatable) is a class.
local function is_namespace(v)
  if type(v) ~= "table" or doc.get(v) or rawget(v, "__name") ~= nil then return false end
  local mt = getmetatable(v)
  if mt == nil then return true end
  local name = rawget(mt, "__name")
  return type(name) == "string" and name:find("^module '") ~= nil
end

-- Collects the sections: {path, entries}, each entry {name=, value=}.
local function collect(t, path, sections, seen)
  if seen[t] then return end
  seen[t] = true
  local entries, subs = {}, {}
  for _, k in ipairs(help.public_keys(t)) do
    local v = rawget(t, k)
    local name = path .. "." .. k
    if is_namespace(v) then
      subs[#subs + 1] = { v, name }
    elseif doc.get(v) or type(v) ~= "function" then
      entries[#entries + 1] = { name = name, value = v }
    end
  end
  sections[#sections + 1] = { path = path, entries = entries }
  for _, s in ipairs(subs) do collect(s[1], s[2], sections, seen) end
end

--- help.sections(tf) -> the namespaces of tf in the reference's order,
-- each {path=, entries={{name=, value=}, ...}}: a documented function, a
-- class, a constant (namespaces are sections, not entries).
function help.sections(root)
  local sections = {}
  collect(root, "tf", sections, {})
  return sections
end

--- help.names(tf) -> every entry of help.sections(tf), in order.
function help.names(root)
  local names = {}
  for _, s in ipairs(help.sections(root)) do
    for _, e in ipairs(s.entries) do names[#names + 1] = e end
  end
  return names
end

--- help.name_of(obj, tf) -> the first public name (in the reference's
-- order) whose value is obj, a function or table, or nil. Numbers and
-- strings are never looked up: a 1 is not tf.something because a constant
-- is 1.
function help.name_of(obj, root)
  if type(obj) ~= "function" and type(obj) ~= "table" then return nil end
  for _, e in ipairs(help.names(root)) do
    if rawequal(e.value, obj) then return e.name end
  end
  return nil
end

--- help.examples(obj, name, tf) -> the Example:/Errors: block of name's
-- entry (the name obj was reached by, as typed; may be nil) or, when that
-- name has no entry, of obj's public name in tf; nil when neither has one.
function help.examples(obj, name, root)
  local block = name and examples.block(name)
  if block then return block end
  local public = help.name_of(obj, root)
  return public and examples.block(public) or nil
end

--- help.text(obj, tf) -> tf.help's text: the docstring, then the
-- examples block of obj's public name in tf.
function help.text(obj, root)
  local text = help.docstring(obj)
  local block = help.examples(obj, nil, root)
  if block then text = text .. "\n\n" .. block end
  return text
end

return help
