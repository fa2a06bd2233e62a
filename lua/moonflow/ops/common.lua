-- common.lua — what every op family's wrappers share: the docstring of a
-- registry op's wrapper (its summary is the op's one-line `.doc` from the
-- C registry, so it is stated once), and the small argument helpers
-- (a tensor's static shape, a Lua list argument, the {name=} option).

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local doc = require("moonflow.doc")
local options = require("moonflow.options")
local raise = errors.raise

local common = {}

-- The registry's one-line docs, by op name.
local registry_doc = {}
for _, o in ipairs(core.op_list()) do registry_doc[o.name] = o.doc end

--- options.def for the wrapper of the registry op `opname`: the
--- docstring's summary is the op's registry doc, and `text` (nil or "" for
--- none) adds what is the Lua wrapper's own (defaults, Lua lists, 0-based
--- positions, what TF's Python adds). The record keeps both: .op, .lua_text.
function common.op_def(opname, fn, signature, text, spec)
  local summary = registry_doc[opname]
  if summary == nil or summary == "" then
    error("moonflow.ops: " .. signature .. " wraps " .. tostring(opname) .. ", which has no registry doc", 2)
  end
  local full = (text and text ~= "") and (summary .. " " .. text) or summary
  local wrapped = options.def(fn, signature, full, spec)
  local d = doc.get(wrapped)
  d.op, d.lua_text = opname, text or ""
  return wrapped
end

--- A list argument (a Lua table of tensors or values).
function common.check_list(v, fname, what, level)
  if type(v) == "table" and getmetatable(v) == nil then return v end
  raise("TypeError", ("%s: %s must be a Lua list, got a %s"):format(fname, what, type(v)), (level or 2) + 1)
end

--- The attributes {name=} of an options table, else `default`.
function common.name_opt(opts, default)
  if opts ~= nil and type(opts) ~= "table" then
    raise("TypeError", "expected an options table such as {name=} as the last argument, got a "
      .. type(opts), 3)
  end
  if opts and opts.name then return { name = opts.name } end
  return default
end

return common
