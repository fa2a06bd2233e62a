-- module.lua — tf.Module: a base for objects that own variables.
-- tf.Module() makes a bare instance; tf.Module:extend("Dense") makes a class
-- whose call Dense(...) creates an instance and runs Dense.init(self, ...).
-- Metamethods set on a class (__call, __tostring) apply to its instances.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local doc = require("moonflow.doc")
local variables = require("moonflow.tensor.variable")
local receiver = require("moonflow.receiver")
local source = require("moonflow.source")
local func = require("moonflow.trace.func")
local raise = errors.raise

local modules = {}

local base_methods = {}

-- Finds variables through fields in TF's order (module.py's
-- _flatten_module): the module's own fields first, keys sorted, plain tables
-- flattened in place; then each submodule found there, depth first. A
-- Keras layer lists the weights it made first, in the order it made them
-- (its `_weights`: Dense's kernel before its bias), as Keras does.
local function sorted_keys(obj)
  local keys = {}
  for k in pairs(obj) do
    if type(k) == "string" or math.type(k) == "integer" then keys[#keys + 1] = k end
  end
  table.sort(keys, function(a, b)
    if type(a) == type(b) then return a < b end
    return type(a) == "number"
  end)
  return keys
end

local function own_leaves(obj, out, seen, pred, subs)
  local made = rawget(obj, "_weights")
  for _, v in ipairs(type(made) == "table" and made or {}) do
    if not seen[v] and pred(v) then out[#out + 1] = v end
    seen[v] = true
  end
  for _, k in ipairs(sorted_keys(obj)) do
    local v = rawget(obj, k)
    if variables.is_variable(v) then
      if not seen[v] and pred(v) then
        seen[v] = true
        out[#out + 1] = v
      end
    elseif type(v) == "table" and not seen[v] then
      if modules.is_module(v) then
        seen[v] = true
        subs[#subs + 1] = v
      elseif getmetatable(v) == nil then
        seen[v] = true
        own_leaves(v, out, seen, pred, subs)
      end
    end
  end
end

-- mods, when given, receives the submodules in the same order: a
-- module's own (keys sorted), then each one's, depth first.
local function collect(obj, out, seen, pred, mods)
  seen[obj] = true
  local subs = {}
  own_leaves(obj, out, seen, pred, subs)
  for _, m in ipairs(mods and subs or {}) do mods[#mods + 1] = m end
  for _, m in ipairs(subs) do collect(m, out, seen, pred, mods) end
  return out
end

base_methods.variables = doc.def(function(self)
  return collect(self, {}, {}, function() return true end)
end, "module:variables()", "The tf.Variables this module owns, found through its fields recursively.")

base_methods.trainable_variables = doc.def(function(self)
  return collect(self, {}, {}, function(v) return v.trainable end)
end, "module:trainable_variables()", "The trainable tf.Variables this module owns.")

base_methods.non_trainable_variables = doc.def(function(self)
  return collect(self, {}, {}, function(v) return not v.trainable end)
end, "module:non_trainable_variables()",
"The tf.Variables this module owns that are not trainable (a BatchNormalization's moving statistics).")

base_methods.submodules = doc.def(function(self)
  local mods = {}
  collect(self, {}, {}, function() return false end, mods)
  return mods
end, "module:submodules()", "The modules found through this module's fields, in TF's order: its own "
.. "(fields sorted by name, tables flattened in place), then each one's, depth first.")

local classes = setmetatable({}, { __mode = "k" })

local function is_module(x)
  local mt = getmetatable(x)
  return mt ~= nil and classes[mt] == true
end
modules.is_module = is_module

local function snake(name)
  return (name:gsub("(%l)(%u)", "%1_%2"):lower())
end

-- TF's module names: a Python identifier (module.py's valid_identifier).
local function check_name(name)
  if type(name) ~= "string" or not name:match("^[%a_][%w_]*$") then
    raise("ValueError", ("'%s' is not a valid module name. Module names must be valid Lua "
      .. "identifiers (e.g. a valid class name)."):format(tostring(name)), 3)
  end
  return name
end

-- Keras numbers its layers' names (dense, dense_1, ...: TF's
-- backend.unique_object_name); a class marked numbered (and its
-- subclasses) does too.
local numbered_classes = setmetatable({}, { __mode = "k" })
local counters = {}

local function is_numbered(class)
  while class do
    if numbered_classes[class] then return true end
    class = rawget(class, "_parent")
  end
  return false
end

local function default_name(class)
  local base = snake(class._class_name)
  if not is_numbered(class) then return base end
  counters[base] = (counters[base] or 0) + 1
  return counters[base] == 1 and base or (base .. "_" .. (counters[base] - 1))
end

-- A library class answers for the methods it inherits from library
-- classes under its own kind ("call fit with ':' (sequential:fit(...))"),
-- as it answers for its own: on its first instance it takes guarded
-- copies of its ancestors' methods and guards the ones it overrode (a
-- method defined over an inherited copy is stored raw). The methods
-- every module has (variables, ...) stay the modules' own.
local library_classes = setmetatable({}, { __mode = "k" })
local sealed = setmetatable({}, { __mode = "k" })
local SHARED = { variables = true, trainable_variables = true, non_trainable_variables = true,
  submodules = true, extend = true }

local function seal(class)
  sealed[class] = true
  local info = library_classes[class]
  local function guard(k, v) return receiver.guard(v, k, info.kind, info.name, info.is_a) end
  for k, v in pairs(class) do
    if type(k) == "string" and type(v) == "function" and not SHARED[k] and (k == "__call" or k:sub(1, 1) ~= "_") then
      rawset(class, k, guard(k, v))
    end
  end
  local anc = rawget(class, "_parent")
  while anc do
    if library_classes[anc] then
      for k, v in pairs(anc) do
        if type(k) == "string" and type(v) == "function" and not SHARED[k] and k:sub(1, 1) ~= "_"
          and rawget(class, k) == nil then
          rawset(class, k, guard(k, v))
        end
      end
    end
    anc = rawget(anc, "_parent")
  end
end

-- Every instance of a class is named after it, unnumbered, as TF's
-- tf.Module does; tf.Module{name = ...} names a bare instance.
local creation = setmetatable({}, { __mode = "k" })
local made = 0

local function instantiate(class, ...)
  if library_classes[class] and not sealed[class] then seal(class) end
  local self = setmetatable({ name = default_name(class) }, class)
  made = made + 1
  creation[self] = made
  if class._parent == nil then
    local opts = ...
    if type(opts) == "table" and getmetatable(opts) == nil and opts.name ~= nil then
      self.name = check_name(opts.name)
    end
  end
  if class.init then class.init(self, ...) end
  return self
end

-- The library's own classes (tf.Module, the Keras layers, optimizers and
-- losses: classes made by a chunk of the library's directory) check the
-- receiver of their methods (receiver.lua); a user's class is left as
-- its author wrote it (it may hold plain functions, `Class.new(...)`).
local function from_library(level)
  local info = debug.getinfo(level + 1, "S")
  return info ~= nil and source.in_library(info.source)
end

-- A tf.func method of the class (its first parameter is `self`) read
-- from an instance is bound to it, as Python binds a tf.function defined
-- in a class body: `m.f(x)` is `m:f(x)`, `m.f`'s input_signature leaves
-- self out, its traces and tracing count are m's (func.lua's bound
-- methods), and saving m finds it. An instance's own fields are not bound.
local function bind_method(obj, v)
  if func.is_method(v) then return v:_bind(obj) end
  return v
end

local function make_class(name, parent, library)
  local class = { _class_name = name, __name = name }
  local kind = snake(name)
  local function is_a(x)
    local mt = getmetatable(x)
    while type(mt) == "table" do
      if mt == class then return true end
      mt = rawget(mt, "_parent")
    end
    return false
  end
  -- An instance keeps its own fields; a miss reads the class, its
  -- ancestors, then the methods every module has, and is nil.
  local lookup, p = { class }, parent
  while p do
    lookup[#lookup + 1] = p
    p = p._parent
  end
  lookup[#lookup + 1] = base_methods
  class.__index = receiver.index(class, kind, { methods = lookup, is_a = is_a, open = true,
    unchecked = not library, bind = bind_method })
  class._parent = parent
  class.__tostring = parent and parent.__tostring or function(obj)
    return ("<%s '%s'>"):format(getmetatable(obj)._class_name, rawget(obj, "name") or "?")
  end
  class.__call = parent and parent.__call or nil
  classes[class] = true
  if library then
    class.__tostring = receiver.guard(class.__tostring, "__tostring", kind, name, is_a)
    library_classes[class] = { kind = kind, name = name, is_a = is_a }
  end
  class._is_a = is_a
  return setmetatable(class, {
    __newindex = function(c, k, v)
      if library then v = receiver.guard(v, k, kind, name, is_a) end
      rawset(c, k, v)
    end,
    __call = instantiate,
    __index = function(_, k)
      local p = parent
      while p do
        local v = rawget(p, k)
        if v ~= nil then return v end
        p = p._parent
      end
      return base_methods[k]
    end,
    __tostring = function() return "<class " .. name .. ">" end,
  })
end

local root = make_class("Module", nil, true)

--- Module:extend(name) -> a new class deriving from this one.
local function extend(parent, name)
  if type(name) ~= "string" then
    raise("TypeError", "Module:extend(name) needs a class name", 1)
  end
  return make_class(name, parent, from_library(2))
end
base_methods.extend = doc.def(extend, "tf.Module:extend(name)",
  "A class deriving from this one: Class(...) makes an instance and runs Class.init(self, ...).")
receiver.table(base_methods, "module", "Module", is_module)
base_methods.extend = receiver.guard(extend, "extend", "Module", "Module class",
  function(x) return classes[x] == true end)
rawset(root, "extend", base_methods.extend)

modules.Module = root

-- Library-internal (the other modules' view, not part of tf).
-- modules.numbered(class): instances get numbered names (for Keras layers).
function modules.numbered(class) numbered_classes[class] = true end
-- Library-internal: Keras's clear_session starts the numbering afresh.
function modules.reset_names()
  for k in pairs(counters) do counters[k] = nil end
end
-- Library-internal: Keras's unique_object_name: "input_1", "input_2", ...
-- (zero_based false) or "dense", "dense_1", ... on the layers' counters.
function modules.unique_name(base, zero_based)
  counters[base] = (counters[base] or 0) + 1
  local n = counters[base]
  if zero_based then return n == 1 and base or (base .. "_" .. (n - 1)) end
  return base .. "_" .. n
end
-- Library-internal: the order modules were made in (a model lists its
-- layers so, as Keras lists them in the order it tracked them).
function modules.created(obj) return creation[obj] or 0 end
-- Library-internal: the order io/functions.lua walks a module in too.
modules.sorted_keys = sorted_keys
modules.internal = { is_module = true, numbered = true, sorted_keys = true, internal = true, reset_names = true,
  unique_name = true, created = true }

return modules
