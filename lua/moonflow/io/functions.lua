-- functions.lua — the tf.funcs an object holds, as tf.saved_model.save and
-- tf.onnx.export see them: its own fields, then the tf.func methods of its
-- class and the class's ancestors (a tf.Module class's `M.__call =
-- tf.func(function(self, x) ... end)`, or the __index tables of a plain Lua
-- class), the closest definition of a name winning. A method is taken
-- bound to the object (func.lua's bound methods), so only the object's own
-- traces are saved, as TF saves a bound tf.function. Then, under their
-- paths, the tf.funcs of the submodules and plain tables its fields hold,
-- as TF saves the whole object graph.

local func = require("moonflow.trace.func")
local modules = require("moonflow.keras.module")

local functions = {}

-- The tables a miss of obj[k] reads, nearest first.
local function classes_of(obj)
  local out = {}
  if modules.is_module(obj) then
    local cls = getmetatable(obj)
    while type(cls) == "table" do
      out[#out + 1] = cls
      cls = rawget(cls, "_parent")
    end
    return out
  end
  local mt = getmetatable(obj)
  local cls = type(mt) == "table" and rawget(mt, "__index")
  while type(cls) == "table" and #out < 32 do
    out[#out + 1] = cls
    local cmt = getmetatable(cls)
    cls = type(cmt) == "table" and rawget(cmt, "__index")
  end
  return out
end

-- obj's own tf.funcs (fields, then class methods bound to obj), as
-- {path, f} sorted by name.
local function own_functions(obj, prefix, out)
  local seen, names = {}, {}
  local function visit(t)
    for k, v in next, t do
      if type(k) == "string" and not seen[k] then
        seen[k] = true
        if func.is_func(v) then names[#names + 1] = k end
      end
    end
  end
  visit(obj)
  for _, cls in ipairs(classes_of(obj)) do visit(cls) end
  table.sort(names)
  for _, k in ipairs(names) do
    local f = rawget(obj, k)
    if f == nil then
      f = obj[k]
      if func.is_method(f) then f = f:_bind(obj) end
    end
    out[#out + 1] = { prefix .. k, f }
  end
end

local sorted_keys = modules.sorted_keys -- TF's order: keys sorted

-- What holds functions below obj: its submodules and plain tables (a
-- list of layers), as TF tracks a module's attributes, lists and dicts.
local function holds_functions(v)
  return type(v) == "table" and (modules.is_module(v) or getmetatable(v) == nil)
end

--- functions.of(obj) -> { {path, f}, ... }: obj's tf.funcs (its fields,
--- its class's methods bound to it) sorted by name, then those of what
--- its fields hold (submodules, plain tables), depth first, under their
--- paths ("dense_1.__call", "layers.1.__call"), each object once.
function functions.of(obj)
  local out, seen = {}, { [obj] = true }
  local function walk(t, prefix)
    own_functions(t, prefix, out)
    for _, k in ipairs(sorted_keys(t)) do
      local v = rawget(t, k)
      if holds_functions(v) and not seen[v] then
        seen[v] = true
        walk(v, prefix .. tostring(k) .. ".")
      end
    end
  end
  walk(obj, "")
  return out
end

--- The concrete functions of f to save or export: its traces (a bound
--- method's: its object's), else the one its input_signature gives; nil
--- when it has neither.
function functions.concretes(f)
  if func.is_concrete(f) then return { f } end
  local cfs = f:concrete_functions()
  if #cfs == 0 and f.input_signature then cfs = { f:get_concrete_function() } end
  if #cfs == 0 then return nil end
  return cfs
end

functions.internal = { internal = true, of = true, concretes = true }

return functions
