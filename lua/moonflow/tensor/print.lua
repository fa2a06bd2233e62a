-- print.lua — tf.print: an op (StringFormat + PrintV2), so it prints every
-- time the graph runs, unlike Lua's print, which runs only while tracing.

local core = require("moonflow.core")
local state = require("moonflow.state")
local doc = require("moonflow.doc")
local options = require("moonflow.options")
local dtypes = require("moonflow.tensor.dtypes")
local errors = require("moonflow.errors")

local OPTION_KEYS = { output_stream = true, sep = true, ["end"] = true, summarize = true, name = true }

local function is_options(v)
  if type(v) ~= "table" or getmetatable(v) ~= nil or v[1] ~= nil then return false end
  for k in pairs(v) do
    if not OPTION_KEYS[k] then return false end
  end
  return next(v) ~= nil
end

local printing = {}

local H = state.H

-- The keys of a table that is not a plain list, in the order TF's nest
-- sorts a dict's keys (numbers first, numerically, then strings); nil for
-- a list, which prints as [a, b].
local function dict_keys(x)
  local n, keys, list = #x, {}, true
  for k in pairs(x) do
    keys[#keys + 1] = k
    if not (math.type(k) == "integer" and k >= 1 and k <= n) then list = false end
  end
  if list then return nil end
  table.sort(keys, function(a, b)
    local na, nb = type(a) == "number", type(b) == "number"
    if na ~= nb then return na end
    if na or type(a) == type(b) and type(a) == "string" then return a < b end
    return tostring(a) < tostring(b)
  end)
  return keys
end

-- A dict key as Python's repr shows it: strings quoted.
local function key_text(k)
  if type(k) == "string" then return "'" .. k .. "'" end
  return tostring(k)
end

-- Template text for one argument; tensors become MARK (replaced by the
-- placeholder once all literal text, dict keys included, is known) and
-- are collected.
local MARK = "\0"
local template_of

-- An element of a list or dict: a Lua string shows quoted, as in the
-- Python repr TF prints a structure with.
local function element_of(x, tensors, open)
  if type(x) == "string" then return key_text(x) end
  return template_of(x, tensors, open)
end

-- `open` holds the tables being printed: a table inside itself prints as
-- [...] or {...}, as Python's repr shows a recursive list or dict.
function template_of(x, tensors, open)
  if core.is_tensor(x) then
    tensors[#tensors + 1] = x
    return MARK
  end
  local mt = getmetatable(x)
  if mt and mt.__tf_tensor then
    tensors[#tensors + 1] = mt.__tf_tensor(x)
    return MARK
  end
  if type(x) == "table" and mt == nil then
    open = open or {}
    local keys = dict_keys(x)
    if open[x] then return keys and "{...}" or "[...]" end
    open[x] = true
    local parts = {}
    if not keys then
      for i = 1, #x do parts[i] = element_of(x[i], tensors, open) end
      open[x] = nil
      return "[" .. table.concat(parts, ", ") .. "]"
    end
    for i, k in ipairs(keys) do
      parts[i] = key_text(k) .. ": " .. element_of(x[k], tensors, open)
    end
    open[x] = nil
    return "{" .. table.concat(parts, ", ") .. "}"
  end
  return tostring(x)
end

-- A placeholder that occurs in none of the literal text (StringFormat has
-- no escape syntax).
local function placeholder_for(parts)
  local text = table.concat(parts, "\0")
  local p = "{}"
  local k = 0
  while text:find(p, 1, true) do
    k = k + 1
    p = "{" .. k .. "}"
  end
  return p
end

-- TF checks output_stream when tf.print is called, not when the op runs.
local function check_stream(stream)
  if stream == nil or type(stream) == "function" or io.type(stream) == "file" then return end
  local ok, write = pcall(function() return stream.write end)
  if ok and (type(write) == "function" or getmetatable(write) and getmetatable(write).__call) then return end
  errors.raise("ValueError", tostring(stream) .. " is not a valid output stream for tf.print: "
    .. "expected a Lua file, a function receiving the text, or an object with a write method")
end

local function sink(stream)
  check_stream(stream)
  if type(stream) == "function" then return stream end
  return function(text)
    local f = stream or io.stdout
    f:write(text)
    if f.flush then f:flush() end
  end
end

printing.print = options.def(function(...)
  local args = table.pack(...)
  local opts = {}
  if args.n > 0 and is_options(args[args.n]) then
    opts = args[args.n]
    args.n = args.n - 1
  end
  local tensors, parts, literal = {}, {}, {}
  for i = 1, args.n do
    local x = args[i]
    if core.is_tensor(x) or type(x) == "table" then
      parts[i] = x
    else
      parts[i] = tostring(x)
      literal[#literal + 1] = parts[i]
    end
  end
  for i = 1, args.n do
    if type(parts[i]) ~= "string" then
      parts[i] = template_of(parts[i], tensors)
      literal[#literal + 1] = (parts[i]:gsub(MARK, "\1"))
    end
  end
  local ph = placeholder_for(literal)
  for i = 1, args.n do parts[i] = parts[i]:gsub(MARK, ph) end
  local write = sink(opts.output_stream)
  local formatted
  local only = args.n == 1 and core.is_tensor(args[1]) and args[1]
  if only and core.dtype(only) == dtypes.string and #select(3, core.info(only)) == 0 then
    formatted = only -- a lone string scalar prints bare, as in TF
  else
    formatted = core.op(H.StringFormat, { template = table.concat(parts, opts.sep or " "),
      placeholder = ph, summarize = opts.summarize or 3 }, table.unpack(tensors))
  end
  core.op(H.PrintV2, { ["end"] = opts["end"] or "\n", name = opts.name,
    output_callback = function(t) write(core.element(t, 0)) end }, formatted)
end, "tf.print(... [, {output_stream=, sep=, end=, summarize=, name=}])",
"Prints its arguments each time it runs — inside a traced function, every time the graph runs "
.. "(Lua's print runs only while tracing). Tensors are shown as [1 2 3]; output_stream is a Lua "
.. "file (default io.stdout) or a function receiving the text. A last table naming one of these "
.. "options is the options (any other key in it is an error); a table naming none is printed.",
{ vararg = "some", "output_stream", "sep", "end", "summarize", "name" })

return printing
