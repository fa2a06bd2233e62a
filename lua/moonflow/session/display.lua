-- display.lua — how any value is shown: MIME bundles, the text rendering of
-- plain Lua tables, and tf.display.
--
-- A value's bundle comes from its metatable's __mimebundle(self) when it has
-- one (a table {["text/html"] = ..., ...}; text/plain is filled in when
-- missing). Otherwise the bundle is text only: __repr(self) when present
-- (tensors give TensorFlow's repr), tostring otherwise, except that a table
-- without __tostring/__name is rendered as Lua source: {1, 2, x = 3},
-- nested, cycle-safe and truncated when long.
--
-- In a session (REPL, Jupyter) bundles go to the host (`moonflow.host`);
-- used from a plain `require("moonflow")`, tf.display writes the text form
-- to io.stdout.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local doc = require("moonflow.doc")
local options = require("moonflow.options")
local state = require("moonflow.state")
local receiver = require("moonflow.receiver")
local lexer = require("moonflow.autograph.lexer")
local raise = errors.raise

local display = {}

local WIDTH = 80            -- a table that fits stays on one line
local MAX_DEPTH = 6         -- deeper tables show as {...}
local MAX_ENTRIES = 100     -- entries shown per table
local MAX_TOTAL = 2000      -- entries shown per rendering
local MAX_SORTED = 10000    -- larger tables keep next()'s key order

--- display.keywords: Lua's reserved words, as a set (the lexer's).
display.keywords = lexer.keywords
local KEYWORDS = display.keywords

local ESCAPES = { ["\n"] = "\\n", ["\t"] = "\\t", ["\r"] = "\\r", ['"'] = '\\"', ["\\"] = "\\\\" }

--- A string as a Lua literal in double quotes.
local function quote(s)
  local body = s:gsub('[%c"\\]', function(c)
    return ESCAPES[c] or ("\\%03d"):format(c:byte())
  end)
  return '"' .. body .. '"'
end

--- display.metafield(v, name): the metamethod `name` of v (raw, as Lua
-- itself looks them up), or nil.
function display.metafield(v, name)
  local mt = getmetatable(v)
  return type(mt) == "table" and rawget(mt, name) or nil
end
local metafield = display.metafield

--- True when v is a table displayed by the table renderer.
local function is_plain_table(v)
  return type(v) == "table" and not metafield(v, "__tostring") and not metafield(v, "__name")
    and not metafield(v, "__repr")
end

local TYPE_ORDER = { number = 1, string = 2 }

local function key_less(a, b)
  local ta, tb = TYPE_ORDER[type(a)] or 3, TYPE_ORDER[type(b)] or 3
  if ta ~= tb then return ta < tb end
  if ta < 3 then return a < b end
  return tostring(a) < tostring(b)
end

--- The length of t's sequence part 1..n (raw).
local function sequence_length(t)
  local n = 0
  while rawget(t, n + 1) ~= nil do n = n + 1 end
  return n
end

--- The keys of t outside its sequence part, sorted numbers first, then strings.
local function other_keys(t, n)
  local keys = {}
  for k in next, t do
    if not (math.type(k) == "integer" and k >= 1 and k <= n) then keys[#keys + 1] = k end
  end
  if #keys <= MAX_SORTED then table.sort(keys, key_less) end
  return keys
end

local function render_key(k)
  if type(k) == "string" and k:match("^[%a_][%w_]*$") and not KEYWORDS[k] then return k end
  if type(k) == "string" then return "[" .. quote(k) .. "]" end
  return "[" .. tostring(k) .. "]"
end

local render

--- The rendered entries of table t ("1", "x = 3", "..."), within the budgets.
local function entries(t, state, depth, indent)
  local items, n = {}, sequence_length(t)
  local keys = other_keys(t, n)
  local total = n + #keys
  for i = 1, total do
    if #items >= MAX_ENTRIES or state.count >= MAX_TOTAL then
      items[#items + 1] = ("... (%d more)"):format(total - i + 1)
      break
    end
    state.count = state.count + 1
    if i <= n then
      items[#items + 1] = render(rawget(t, i), state, depth + 1, indent + 2)
    else
      local k = keys[i - n]
      items[#items + 1] = render_key(k) .. " = " .. render(rawget(t, k), state, depth + 1, indent + 2)
    end
  end
  return items
end

--- One value inside a table rendering: strings quoted, tables recursed.
function render(v, state, depth, indent)
  if type(v) == "string" then return quote(v) end
  if not is_plain_table(v) then return display.text(v) end
  if state.seen[v] then return "<cycle>" end
  if depth > MAX_DEPTH then return next(v) == nil and "{}" or "{...}" end
  state.seen[v] = true
  local items = entries(v, state, depth, indent)
  state.seen[v] = nil
  local line = "{" .. table.concat(items, ", ") .. "}"
  if indent + #line <= WIDTH and not line:find("\n", 1, true) then return line end
  local pad = "\n" .. (" "):rep(indent + 2)
  return "{" .. pad .. table.concat(items, "," .. pad) .. "\n" .. (" "):rep(indent) .. "}"
end

--- display.render_table(t) -> string
-- Lua-source text of a table: {1, 2, x = 3}; one line when it fits in 80
-- columns, else one entry per line. Sequence first, then the other keys
-- sorted; cycles show as <cycle>, depth beyond 6 as {...}, and more than 100
-- entries (2000 in all) as "... (N more)".
function display.render_table(t)
  return render(t, { seen = {}, count = 0 }, 1, 0)
end

--- display.text(v) -> string: the text/plain form of any value.
function display.text(v)
  local repr = metafield(v, "__repr")
  if repr then return tostring(repr(v)) end
  if is_plain_table(v) then return display.render_table(v) end
  return tostring(v)
end

--- display.bundle(v) -> {[mime] = string}: the MIME bundle of any value.
function display.bundle(v)
  local rich = metafield(v, "__mimebundle")
  if not rich then return { ["text/plain"] = display.text(v) } end
  local b = rich(v)
  if type(b) ~= "table" then
    raise("TypeError", "__mimebundle must return a table, got a " .. type(b))
  end
  local out = {}
  for mime, data in pairs(b) do out[mime] = data end
  out["text/plain"] = out["text/plain"] or display.text(v)
  return out
end

local function is_multiline(s) return s:find("\n", 1, true) ~= nil end

--- display.bundle_all(values) -> bundle: the bundle of a packed list of
-- results (table.pack). One value: its bundle. Several: their text forms
-- joined by tabs (as lua.c prints them), or by newlines when one of them
-- spans lines; text/html joined too when every value has it.
function display.bundle_all(values)
  if values.n == 1 then return display.bundle(values[1]) end
  local texts, htmls, multiline = {}, {}, false
  for i = 1, values.n do
    local b = display.bundle(values[i])
    texts[i] = b["text/plain"]
    htmls[i] = b["text/html"]
    multiline = multiline or is_multiline(texts[i])
  end
  local out = { ["text/plain"] = table.concat(texts, multiline and "\n" or "\t") }
  if #htmls == values.n then out["text/html"] = table.concat(htmls, "\n") end
  return out
end

local function session_host()
  return state.host
end

--- Sends a bundle to the host, or writes its text to io.stdout outside a session.
local function send(bundle, kind, id)
  local host = session_host()
  if host then return host.display(bundle, kind, id) end
  io.stdout:write(bundle["text/plain"], "\n")
end

--- display.result(values): shows the packed results of a trailing expression.
function display.result(values)
  send(display.bundle_all(values), "result")
end

local Handle = { __name = "DisplayHandle" }
receiver.metatable(Handle, "handle")
Handle.__index = Handle

local next_id = 0

local function new_display_id()
  next_id = next_id + 1
  return ("moonflow-%x-%x-%d"):format(os.time(), math.random(0, 0xffffff), next_id)
end

local function bundle_of(obj, raw)
  if not raw then return display.bundle(obj) end
  if type(obj) ~= "table" or type(obj["text/plain"]) ~= "string" then
    raise("TypeError", "tf.display{raw=true} wants a bundle with a \"text/plain\" string")
  end
  return obj
end

--- tf.display(obj [, opts]) -> handle | nil
display.display = options.def(function(obj, opts)
  local id = opts.display_id
  if id == true then id = new_display_id() end
  if id ~= nil and type(id) ~= "string" then
    raise("TypeError", "display_id must be a string or true")
  end
  send(bundle_of(obj, opts.raw), opts.update and "update" or "data", id)
  if id then return setmetatable({ display_id = id }, Handle) end
end, "tf.display(obj [, {display_id=, update=, raw=}])",
[[Shows obj: in Jupyter as rich output (its __mimebundle, e.g. text/html for
tensors, image/svg+xml for graphs), in the terminal as its text form (the
__repr metamethod, tostring, or a readable rendering of a plain table).
display_id = "name" (or true for a fresh one) makes an updatable display and
returns a handle whose :update(obj) replaces it in place (progress bars);
update = true updates the display with that id. raw = true: obj already is a
MIME bundle {["text/plain"] = ..., ["text/html"] = ...}.]], { required = 1, "display_id", "update", "raw" })

--- handle:update(obj): replaces the display in place.
Handle.update = options.def(function(self, obj, opts)
  send(bundle_of(obj, opts.raw), "update", self.display_id)
end, "handle:update(obj [, {raw=}])", "Replaces the display made with this handle's display_id.",
{ required = 2, "raw" })

Handle.__tostring = function(self)
  return ("<DisplayHandle display_id=%q>"):format(self.display_id)
end

--- tf.clear_output([wait]): only where the host can clear output (Jupyter).
-- A terminal has no cell to clear: IPython's clear_output then erases the
-- current line, which is what a progress line redrawn in place needs.
local function erase_line()
  io.stdout:write("\27[2K\r")
  if io.stdout.flush then io.stdout:flush() end
end

local host = state.host
display.clear_output = doc.def(host and host.clear_output or erase_line,
  "tf.clear_output([wait])",
  "Clears the cell's output so far (Jupyter; with wait = true, when new output arrives). In a terminal "
  .. "it erases the current line, as IPython does.")

return display
