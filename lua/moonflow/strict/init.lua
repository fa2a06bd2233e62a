-- strict — nothing silent about names. Lua reads a missing field or global
-- as nil and goes on; Python raises. A TensorFlow user's typo
-- (`tf.nn.elux`), a name moonflow lacks (`{activation = tf.nn.elu}`
-- silently building a linear layer) or a Python habit (`None`, `True`)
-- would pass a nil on. Here the `tf` namespaces raise AttributeError on an
-- unknown name, and the session's globals raise NameError, each with the
-- closest existing name or the Lua way to write it.

local errors = require("moonflow.errors")
local options = require("moonflow.options")
local habits = require("moonflow.strict.python_habits")

local raise = errors.raise
-- Read on a miss only (issue 28: not at start).
local TF_NAMES_MODULE = "moonflow.strict.tf_names"

local strict = {}

-- The names a namespace makes on first use (strict.later): namespace ->
-- {name = loader}. A session parses Keras, tf.data, the string ops, ...
-- only when it touches them.
local later = setmetatable({}, { __mode = "k" })

-- t's string keys, and the names it has yet to make, without making them
-- (raw: a namespace's pairs would make them).
local function string_keys(t)
  local names = {}
  for k in next, t do
    if type(k) == "string" then names[#names + 1] = k end
  end
  for k in next, later[t] or {} do names[#names + 1] = k end
  -- Python's suggestion keeps the first closest name of the sorted dir():
  -- a tie ('reluu': 'relu' or 'relu6') goes to the first, not to hash order.
  table.sort(names)
  return names
end

-- The message for `path.name` missing from namespace `t`.
local function missing_attribute(t, path, name)
  local msg = ("module '%s' has no attribute '%s'"):format(path, name)
  -- The table of TensorFlow's names is read on a miss only.
  local known = require(TF_NAMES_MODULE)[path]
  if known and known[name] then
    return msg .. (": moonflow has no %s.%s yet (README.md, \"Limits\", lists what TensorFlow has "
      .. "and moonflow lacks)"):format(path, name)
  end
  local s = options.suggest(name, string_keys(t))
  if s then msg = msg .. (". Did you mean: '%s'?"):format(s) end
  return msg
end

local is_plain_namespace

-- The library's modules loaded so far stay the ones require answers, even
-- when package.loaded forgets them (busted's insulation restores it after
-- each file): a module loaded again would be a second copy with registries
-- of its own (keras/module.lua's classes), and the parts made earlier would
-- not be known to it.
local function pin_loaded()
  for name, m in next, package.loaded do
    if name:sub(1, 9) == "moonflow." and package.preload[name] == nil then
      package.preload[name] = function() return m end
    end
  end
end

-- Makes t's name k by its loader, if t has one for k: the value, stored
-- in t (a namespace made so is strict too); else nil.
local function make_later(t, path, k)
  local pending = later[t]
  local load = pending and pending[k]
  if load == nil then return nil end
  local v = load()
  pin_loaded()
  if is_plain_namespace(v) then strict.namespaces(v, path .. "." .. k) end
  rawset(t, k, v)
  pending[k] = nil
  return v
end

--- strict.namespace(t, path) -> t: reading a missing string key of `t`
-- raises AttributeError ("module 'tf.nn' has no attribute 'elux'. Did you
-- mean: 'elu'?"), as a Python module does, unless strict.later gave t a
-- loader for it. Writing stays allowed; pairs(t) lists every name, the
-- ones not yet made included (it makes them).
function strict.namespace(t, path)
  setmetatable(t, {
    __index = function(_, k)
      if type(k) ~= "string" then return nil end
      local v = make_later(t, path, k)
      if v ~= nil then return v end
      raise("AttributeError", missing_attribute(t, path, k), 2)
    end,
    __pairs = function()
      for _, k in ipairs(strict.pending(t)) do make_later(t, path, k) end
      return next, t, nil
    end,
    __name = "module '" .. path .. "'",
  })
  return t
end

--- strict.later(t, name, load) -> t: namespace t's `name` is made on first
-- use, by load() (a namespace it returns is made strict as tf's are).
-- Until then rawget(t, name) is nil; reading it, pairs(t) and tf.help
-- make it; completion and did-you-mean list it without making it.
function strict.later(t, name, load)
  later[t] = later[t] or {}
  later[t][name] = load
  return t
end

--- strict.pending(t) -> the sorted names namespace t has yet to make.
function strict.pending(t)
  local names = {}
  for k in next, later[t] or {} do names[#names + 1] = k end
  table.sort(names)
  return names
end

--- strict.is_namespace(t) -> true for a table strict.namespace made.
function strict.is_namespace(t)
  local mt = type(t) == "table" and getmetatable(t)
  return type(mt) == "table" and type(mt.__name) == "string" and mt.__name:sub(1, 8) == "module '"
end

-- A namespace is a plain table of names: no metatable of its own, and no
-- metamethods (a class or a metatable such as tf.DType is read by Lua and
-- the library for absent fields like __eq, and stays as it is).
function is_plain_namespace(v)
  if type(v) ~= "table" or getmetatable(v) ~= nil then return false end
  for k in pairs(v) do
    if type(k) == "string" and k:sub(1, 2) == "__" then return false end
  end
  return true
end

--- strict.namespaces(t, path): t and every namespace reachable from it
-- through string keys (tf.nn, tf.keras.layers, ...), made strict.
function strict.namespaces(t, path, seen)
  seen = seen or {}
  if seen[t] then return t end
  seen[t] = true
  for k, v in next, t do
    if type(k) == "string" and is_plain_namespace(v) then
      strict.namespaces(v, path .. "." .. k, seen)
    end
  end
  return strict.namespace(t, path)
end

-- Python names a TensorFlow user types by habit, and their Lua spelling.
local PYTHON_HINTS = {
  None = "Lua's None is nil (in a shape: tf.None)",
  True = "Lua's True is true", False = "Lua's False is false",
  len = "Lua's len(t) is #t for a table, tf.size(x) or x.shape[0] for a tensor",
  range = "Lua counts with `for i = 0, n - 1 do`; a tensor range is tf.range(n)",
  self = "inside a method defined with `function Class:method()`, self is the receiver",
  int = "math.tointeger(x) or tf.cast(x, tf.int32)", float = "tonumber(x) or tf.cast(x, tf.float32)",
  str = "tostring(x)", list = "a Lua table: {1, 2, 3}", dict = "a Lua table: {key = value}",
  isinstance = "tf.is_tensor(x), type(x) or getmetatable(x)",
  np = "a tensor's values are x:numpy(); NumPy itself is not in moonflow",
  numpy = "a tensor's values are x:numpy()",
  import = "moonflow's tf is already loaded; a Lua module is require(\"name\")",
  exit = "exit or quit alone on a line leaves the session",
}

--- strict.name_error(env, name) -> message for reading global `name`,
-- never assigned, of environment `env`.
function strict.name_error(env, name)
  local msg = ("name '%s' is not defined"):format(name)
  if PYTHON_HINTS[name] then
    return ("%s: %s (%s)"):format(msg, PYTHON_HINTS[name], habits.LESSON)
  end
  local names = string_keys(env)
  for k in pairs(_G) do
    if type(k) == "string" then names[#names + 1] = k end
  end
  local s = options.suggest(name, names)
  if s then msg = msg .. (". Did you mean: '%s'?"):format(s) end
  return msg
end

--- strict.globals(env, on): reading a global of `env` that was never
-- assigned raises NameError (on) or gives nil, as plain Lua (off). Only
-- the session's globals, never the library's.
function strict.globals(env, on)
  local mt = getmetatable(env)
  if mt == nil then
    mt = {}
    setmetatable(env, mt)
  end
  if on then
    mt.__index = function(t, k)
      if type(k) ~= "string" then return nil end
      raise("NameError", strict.name_error(t, k), 2)
    end
  else
    mt.__index = nil
  end
end

return strict
