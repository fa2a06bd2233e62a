-- options.lua — the one options checker. A public function declares, next
-- to its definition, the arguments it takes after its required ones: TF's
-- positional-or-keyword ones (`positional`, in TF's order) and the
-- keyword-only ones (the list part). options.def wraps the function with
-- the check generated from that declaration and records the declaration in
-- its docstring record (doc.get(fn).options), where the options sweep test
-- and the docstrings find it.
--
-- Declaration: { "name", ..., required = n, positional = {"axis", ...},
--                via = {helper, ...} (functions that read some of the keys),
--                vararg = true (the options are the last argument, if a table),
--                types = { key = "boolean", ... } (Lua types checked when given) }
-- Calls: f(req_1..req_n, pos_1..pos_k, opts); the options table may come
-- early (f(x, {axis = 1})), and any positional argument may be given in it.

local doc = require("moonflow.doc")
local errors = require("moonflow.errors")
local raise = errors.raise

local options = {}

-- Edit distance with a swap of two neighbours counting as one edit.
local function distance(a, b)
  local d = {}
  for i = 0, #a do d[i] = { [0] = i } end
  for j = 0, #b do d[0][j] = j end
  for i = 1, #a do
    for j = 1, #b do
      local cost = a:sub(i, i) == b:sub(j, j) and 0 or 1
      d[i][j] = math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
      if i > 1 and j > 1 and a:sub(i, i) == b:sub(j - 1, j - 1) and a:sub(i - 1, i - 1) == b:sub(j, j) then
        d[i][j] = math.min(d[i][j], d[i - 2][j - 2] + 1)
      end
    end
  end
  return d[#a][#b]
end

--- The accepted name closest to `key` (within a few edits), or nil.
function options.suggest(key, names)
  if type(key) ~= "string" then return nil end
  local best, best_d
  for _, n in ipairs(names) do
    local d = distance(key:lower(), n)
    if d <= math.max(2, #key // 3) and (best_d == nil or d < best_d) then best, best_d = n, d end
  end
  return best
end

local function is_plain(v)
  return type(v) == "table" and getmetatable(v) == nil
end

-- A table that can only be options: no list part, some string key.
local function looks_like_options(v)
  return is_plain(v) and v[1] == nil and next(v) ~= nil
end

-- The compiled form of a declaration: accepted names and where options go.
local function compile(spec, fname)
  local names, accepted = {}, {}
  for _, n in ipairs(spec.positional or {}) do names[#names + 1] = n end
  for _, n in ipairs(spec) do names[#names + 1] = n end
  for _, n in ipairs(names) do accepted[n] = true end
  local required = spec.required or 0
  -- An op's name is a string, as TF's (a name scope is made of it).
  local types = spec.types or {}
  if accepted.name and types.name == nil then
    types = setmetatable({ name = "string" }, { __index = types })
  end
  return {
    fname = fname, names = names, accepted = accepted, list = table.concat(names, ", "),
    positional = spec.positional or {}, from = required + 1,
    at = required + #(spec.positional or {}) + 1, vararg = spec.vararg, types = types,
  }
end

local function unknown_key(c, key, level)
  local msg
  if type(key) ~= "string" then
    msg = ("%s got a positional value inside its options table (key %s); options are name = value")
      :format(c.fname, tostring(key))
  else
    msg = ("%s got an unexpected keyword argument '%s'"):format(c.fname, key)
    local s = options.suggest(key, c.names)
    if s then msg = msg .. (", did you mean '%s'?"):format(s) end
  end
  raise("TypeError", msg .. " Accepted options: " .. c.list .. ".", level + 1)
end

-- For functions whose last argument may be a value (tf.print of a table):
-- a table is their options when it names at least one of them.
local function has_option(c, t)
  for k in pairs(t) do if c.accepted[k] then return true end end
  return false
end

local function check_keys(c, opts, level)
  for k, v in pairs(opts) do
    if not c.accepted[k] then unknown_key(c, k, level + 1) end
    local want = c.types[k]
    if want and type(v) ~= want then
      raise("TypeError", ("%s: option '%s' must be a %s, got a %s"):format(c.fname, k, want, type(v)), level + 1)
    end
  end
end

local function not_a_table(c, v, index, level)
  raise("TypeError", ("%s: argument %d is the options table {%s} (name = value), got a %s")
    :format(c.fname, index, c.list ~= "" and (c.list:gsub(", ", "=, ") .. "=") or "", type(v)), level + 1)
end

-- Normalises (...) into the body's arguments: required, positional (from
-- the options table when given there), then the options table (never nil).
local function normalise(c, offset, ...)
  local n = select("#", ...)
  -- The common call, every argument given and no options table: what the
  -- general path below returns, without its table of the arguments.
  local at = c.at + offset
  if n == at - 1 and not c.vararg then
    if at == 2 then
      local a = ...
      if n < c.from + offset or not looks_like_options(a) then return a, {} end
    elseif at == 3 then
      local a, b = ...
      if n < c.from + offset or not looks_like_options(b) then return a, b, {} end
    end
  end
  local args = { ... }
  if c.vararg then
    local last = args[n]
    if n > offset and looks_like_options(last) and (c.vararg ~= "some" or has_option(c, last)) then
      check_keys(c, last, 4)
      args[n] = last
    end
    return table.unpack(args, 1, n)
  end
  local at, from = c.at + offset, c.from + offset
  local opts
  if n >= at then
    if n > at then
      raise("TypeError", ("%s takes at most %d arguments (%d given); the options table {%s} comes last")
        :format(c.fname, at - offset, n - offset, c.list), 4)
    end
    opts = args[at]
    if opts ~= nil and not is_plain(opts) then not_a_table(c, opts, at - offset, 4) end
  elseif n >= from and looks_like_options(args[n]) then
    opts = args[n]
    args[n] = nil
  end
  if opts then
    check_keys(c, opts, 4)
    for i, name in ipairs(c.positional) do
      local v = opts[name]
      if v ~= nil then
        if args[from + i - 1] ~= nil then
          raise("TypeError", ("%s got multiple values for argument '%s'"):format(c.fname, name), 4)
        end
        args[from + i - 1] = v
      end
    end
  end
  args[at] = opts or {}
  return table.unpack(args, 1, at)
end

local function wrap(fn, spec, fname, offset)
  local c = compile(spec, fname)
  spec.impl = fn
  return function(...) return fn(normalise(c, offset, ...)) end
end

-- "[, {a=, b=}]": the options part of a signature, from the declaration.
local function signature_of(signature, spec)
  if signature:find("{", 1, true) then return signature end
  local names = {}
  for _, n in ipairs(spec.positional or {}) do names[#names + 1] = n .. "=" end
  for _, n in ipairs(spec) do names[#names + 1] = n .. "=" end
  if #names == 0 then return signature end
  return (signature:gsub("%)$", " [, {" .. table.concat(names, ", ") .. "}])", 1))
end

-- The docstring's options line, from the declaration.
local function options_text(text, spec)
  local names = {}
  for _, n in ipairs(spec.positional or {}) do names[#names + 1] = n .. "=" end
  for _, n in ipairs(spec) do names[#names + 1] = n .. "=" end
  if #names == 0 then return text end
  local line = "Options {" .. table.concat(names, ", ") .. "}"
  if spec.vararg then
    line = line .. " as the last argument"
  elseif spec.positional and #spec.positional > 0 then
    line = line .. "; " .. table.concat(spec.positional, ", ") .. " may also come positionally, in that order"
  end
  return (text ~= "" and text .. "\n" or "") .. line .. ". Any other key is a TypeError."
end

local function fname_of(signature)
  return signature:match("^([%w_%.:]+)") or "function"
end

--- Defines a public function with declared options: the docstring (whose
--- signature gains the options when it does not list them) and the check.
function options.def(fn, signature, text, spec)
  if spec == nil then return doc.def(fn, signature, text) end
  local wrapped = wrap(fn, spec, fname_of(signature), 0)
  doc.def(wrapped, signature_of(signature, spec), options_text(text, spec))
  doc.get(wrapped).options = spec
  return wrapped
end

--- Declares the options of a tf.Module class's constructor Class(...):
--- documents the class and checks the arguments before `init(self, ...)`.
function options.init(class, signature, text, spec, init)
  doc.def(class, signature_of(signature, spec), options_text(text, spec))
  doc.get(class).options = spec
  class.init = wrap(init, spec, fname_of(signature), 1)
  return class
end

-- Library-internal: the tf table does not list this module.
options.internal = { internal = true, suggest = true }

return options
