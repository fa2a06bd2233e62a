-- receiver.lua — the receiver check of every public method. A method
-- table (or metatable) made here guards each function stored in it, now
-- and later: a call whose receiver is not an object of the table's kind
-- (the Python habit `double.get_concrete_function(x)` instead of `:`)
-- raises TypeError "call get_concrete_function with ':'
-- (double:get_concrete_function(...))" instead of failing inside the
-- method on whatever the first argument was. The guard is a tail call, so
-- error levels inside the method still name the user's line.
--
-- Not guarded: private `_names` (the library's own calls), __gc, the
-- arithmetic metamethods (their operand of this kind may be either one;
-- their bodies take any operands and the binding types the rest: they run
-- per op), and __index, which the VM calls on every field read and
-- completion reads (its upvalues, its `k == "name"` tests): an __index
-- function checks its receiver itself (receiver.check). __eq is true only
-- between two objects of the kind.
--
-- Also here: the AttributeError of an unknown field, with a "did you
-- mean" from the object's public names.

local errors = require("moonflow.errors")
local doc = require("moonflow.doc")
local source = require("moonflow.source")
local state = require("moonflow.state")
local options = require("moonflow.options")
local habits = require("moonflow.strict.python_habits")
local raise = errors.raise

local receiver = {}

local guards = setmetatable({}, { __mode = "k" }) -- guard -> the function it guards

local UNGUARDED = { __gc = true, __mode = true, __name = true, __metatable = true, __index = true }
local OPERATORS = {}
for _, k in ipairs({ "__add", "__sub", "__mul", "__div", "__idiv", "__mod", "__pow", "__unm",
  "__concat", "__lt", "__le", "__band", "__bor", "__bxor", "__shl", "__shr", "__bnot" }) do
  OPERATORS[k] = true
end

local function type_name(v)
  local mt = getmetatable(v)
  local n = type(mt) == "table" and rawget(mt, "__name")
  if type(n) == "string" then return n end
  return type(v)
end

local function escape(s) return (s:gsub("%p", "%%%0")) end

-- The one expression written before `.name(` in text, or nil (none, or
-- different ones).
local function only_receiver(text, name)
  local found
  for r in text:gmatch("([%a_][%w_%.]*)%s*%.%s*" .. escape(name) .. "%s*[%(\"'{]") do
    if found and found ~= r then return nil end
    found = r
  end
  return found
end

-- The expression the user wrote before `.name(`, read from the calling
-- line ("x.shape" in `x.shape.as_list()`), or nil. `level` is the
-- guard's caller. A REPL cell `double.get_concrete_function(x)` runs as
-- `return double.get_concrete_function(x)`, a tail call that leaves no
-- caller frame: then the session's last compiled cell is read instead.
local function written_receiver(name, level)
  local guard_info = debug.getinfo(level, "t")
  if guard_info and guard_info.istailcall then
    local host = state.host
    local chunk = host and host.last_chunk
    local ok, text = pcall(source.text, chunk)
    return ok and type(text) == "string" and only_receiver(text, name) or nil
  end
  local info = debug.getinfo(level + 1, "Sl")
  if not info or info.what == "C" then return nil end
  local ok, line = pcall(source.line, info.source, info.currentline)
  if not ok or not line then return nil end
  return only_receiver(line, name)
end

--- Raises the TypeError of method `name` of `kind` (a short label such as
--- "shape") called with receiver `got`; `level` is the method's caller.
function receiver.fail(name, kind, display, got, level)
  local written = written_receiver(name, level + 1)
  local msg = ("call %s with ':' (%s:%s(...))"):format(name, written or kind, name)
  if not written then
    msg = msg .. ("; its receiver must be a %s, got %s"):format(display, type_name(got))
  end
  -- Python's obj.method(...) is the habit: say where the differences are
  raise("TypeError", ("%s (%s)"):format(msg, habits.LESSON), level + 1)
end

local function copy_doc(from, to)
  local d = doc.get(from)
  if not d then return end
  doc.def(to, d.signature, d.text)
  local nd = doc.get(to)
  for k, v in pairs(d) do nd[k] = v end
end

local function guard(fn, name, kind, display, is_a)
  local g
  if name == "__eq" then
    g = function(a, b)
      if not (is_a(a) and is_a(b)) then return false end
      return fn(a, b)
    end
  else
    g = function(self, ...)
      if not is_a(self) then receiver.fail(name, kind, display, self, 2) end
      return fn(self, ...)
    end
  end
  guards[g] = fn
  copy_doc(fn, g)
  return g
end

local function guarded(name, v)
  return type(name) == "string" and type(v) == "function"
    and not UNGUARDED[name] and not OPERATORS[name]
    and not (name:sub(1, 1) == "_" and name:sub(2, 2) ~= "_")
end

-- A guard stored again under another name (`T.__repr = T.__tostring`)
-- guards the same function under the new name.
local function unguarded(fn) return guards[fn] or fn end

--- fn guarded as method `name` of a kind (see receiver.table), or fn as
--- it is when `name` is not guarded (private, an operator, not a function).
function receiver.guard(fn, name, kind, display, is_a)
  if not guarded(name, fn) then return fn end
  return guard(unguarded(fn), name, kind, display, is_a)
end

--- Makes `t` a guarded method table: every public function in it, and
--- every one stored in it later, checks that its receiver satisfies
--- is_a. kind: the label messages use for an unnamed receiver ("shape");
--- display: the kind's name ("TensorShape"). Returns t.
function receiver.table(t, kind, display, is_a)
  for k, v in pairs(t) do
    if guarded(k, v) then rawset(t, k, guard(unguarded(v), k, kind, display, is_a)) end
  end
  return setmetatable(t, {
    __newindex = function(tt, k, v)
      if guarded(k, v) then v = guard(unguarded(v), k, kind, display, is_a) end
      rawset(tt, k, v)
    end,
  })
end

--- A metatable `mt` (its instances are the objects whose metatable is
--- mt) and method tables `...`, all guarded for its instances. Returns mt
--- and the method tables.
function receiver.metatable(mt, kind, ...)
  local display = rawget(mt, "__name") or kind
  local function is_a(x) return getmetatable(x) == mt end
  receiver.table(mt, kind, display, is_a)
  for i = 1, select("#", ...) do receiver.table((select(i, ...)), kind, display, is_a) end
  return mt, ...
end

--- For an __index function (or a hot method that checks inline): raises
--- the receiver TypeError of method `name` unless `x` is an instance of
--- the metatable `mt` (or is_a(x), when is_a is given).
function receiver.check(x, mt, name, kind, is_a)
  if is_a then
    if is_a(x) then return end
  elseif getmetatable(x) == mt then
    return
  end
  receiver.fail(name, kind, rawget(mt, "__name") or kind, x, 3)
end

--- True when `f` is a receiver guard.
function receiver.is_guard(f) return guards[f] ~= nil end

-- The __index of a class -------------------------------------------------

local indexes = setmetatable({}, { __mode = "k" }) -- __index function -> {tables, fields, extra}

--- receiver.index(mt, kind, spec) -> the __index function of mt's
--- instances, the stanza every class of the library needs. Reading k:
---   1. checks the receiver, as receiver.check(x, mt, "__index", kind,
---      spec.is_a) does (not with spec.unchecked);
---   2. spec.methods, a list of tables read raw in order: the first hit;
---   3. spec.fields, {name = function(obj) -> value}: computed fields
---      (a field may well be nil);
---   4. spec.other(obj, k) -> value | nil: any other key (an integer
---      index, a slice); it runs one level below __index;
---   5. a miss: nil with spec.open (a class whose instances keep their own
---      fields), else receiver.missing's AttributeError naming
---      spec.display (a string, or a function of the object; mt's __name
---      when absent) and the public names of methods, fields and spec.extra.
--- spec.bind(obj, v) -> value, when given, makes what a hit of step 2
--- returns (a tf.Module binds its class's tf.func methods to obj).
function receiver.index(mt, kind, spec)
  local tables, fields, other, bind = spec.methods or {}, spec.fields or {}, spec.other, spec.bind
  local is_a, checked, open, extra = spec.is_a, not spec.unchecked, spec.open, spec.extra
  local display = spec.display or rawget(mt, "__name") or kind
  local named = { fields, table.unpack(tables) }
  local n = #tables
  local function index(obj, k)
    if checked then receiver.check(obj, mt, "__index", kind, is_a) end
    for i = 1, n do
      local v = rawget(tables[i], k)
      if v ~= nil then
        if bind then return bind(obj, v) end
        return v
      end
    end
    local field = fields[k]
    if field then return field(obj) end
    if other then
      local v = other(obj, k)
      if v ~= nil then return v end
    end
    if open then return nil end
    return receiver.missing(obj, k, type(display) == "function" and display(obj) or display,
      named, extra, 2)
  end
  indexes[index] = { named, extra or {}, tables = tables, fields = fields }
  return index
end

--- The methods tables and the fields table (name -> getter) an __index
--- made by receiver.index reads, or nil for any other function: what the
--- API reference lists for a class.
function receiver.index_parts(fn)
  local known = indexes[fn]
  if not known then return nil end
  return known.tables, known.fields
end

--- The names an __index made by receiver.index answers (its methods,
--- fields and extra names, public or not), or nil for any other function:
--- what completion offers after `obj.`.
function receiver.index_names(fn)
  local known = indexes[fn]
  if not known then return nil end
  local names = {}
  for _, t in ipairs(known[1]) do
    for k in next, t do
      if type(k) == "string" then names[#names + 1] = k end
    end
  end
  table.move(known[2], 1, #known[2], #names + 1, names)
  return names
end

-- Unknown fields ----------------------------------------------------------

local function public_names(obj, tables, extra)
  local names, seen = {}, {}
  local function add(k)
    if type(k) == "string" and k:match("^[%a][%w_]*$") and not seen[k] then
      seen[k] = true
      names[#names + 1] = k
    end
  end
  if type(obj) == "table" then for k in next, obj do add(k) end end
  for _, t in ipairs(tables or {}) do for k in next, t do add(k) end end
  for _, k in ipairs(extra or {}) do add(k) end
  table.sort(names)
  return names
end

--- The miss of `obj[k]`: nil for a private `_name` (the library's own
--- optional fields), else AttributeError naming the closest public name
--- (fields of obj, keys of `tables`, names in `extra`). display: the
--- object's type name as TF prints it ("Function").
function receiver.missing(obj, k, display, tables, extra, level)
  if type(k) == "string" and k:sub(1, 1) == "_" then return nil end
  if type(k) ~= "string" then
    raise("TypeError", ("'%s' object is not subscriptable (key %s)"):format(display, tostring(k)),
      (level or 1) + 1)
  end
  local msg = ("'%s' object has no attribute '%s'"):format(display, k)
  local s = options.suggest(k, public_names(obj, tables, extra))
  if s then msg = msg .. (". Did you mean: '%s'?"):format(s) end
  raise("AttributeError", msg, (level or 1) + 1)
end

-- Library-internal: the tf table does not list this module.
receiver.internal = { internal = true, fail = true, table = true, metatable = true, is_guard = true,
  missing = true, guard = true, check = true, index = true, index_names = true }

return receiver
