-- argcheck.lua — the argument checks public functions start with, so a
-- bad argument is a TypeError naming the function and the argument (and
-- what it got), never a Lua error from inside the library.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local raise = errors.raise

local argcheck = {}

local function got(v)
  local mt = getmetatable(v)
  local n = type(mt) == "table" and rawget(mt, "__name")
  if type(n) == "string" then return "a " .. n end
  if v == nil then return "nil" end
  return "a " .. type(v)
end

local function fail(fname, argname, want, v, level)
  raise("TypeError", ("%s: argument '%s' must be %s, got %s"):format(fname, argname, want, got(v)),
    (level or 2) + 1)
end
argcheck.fail = fail

--- v unless it is not a string: TypeError.
function argcheck.string(v, fname, argname)
  if type(v) ~= "string" then fail(fname, argname, "a string", v) end
  return v
end

--- v unless it is not a boolean: a TypeError (nil is not false here).
function argcheck.boolean(v, fname, argname)
  if type(v) ~= "boolean" then fail(fname, argname, "a boolean", v) end
  return v
end

--- v unless it is not a table (any table, with or without a metatable).
function argcheck.table(v, fname, argname)
  if type(v) ~= "table" then fail(fname, argname, "a table", v) end
  return v
end

--- True when v can be called: a function, or a value whose metatable has __call.
function argcheck.is_callable(v)
  if type(v) == "function" then return true end
  local mt = getmetatable(v)
  return type(mt) == "table" and rawget(mt, "__call") ~= nil and not core.is_tensor(v)
end

--- v unless it cannot be called.
function argcheck.callable(v, fname, argname)
  if not argcheck.is_callable(v) then fail(fname, argname, "a function", v) end
  return v
end

-- Library-internal: the tf table does not list this module.
argcheck.internal = { internal = true }

return argcheck
