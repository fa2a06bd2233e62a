-- init.lua — moonflow.ops, the one builder of tf's op namespaces. Each
-- family module (ops/<family>.lua, the wrappers of the ops of
-- core/ops/ops_<family>.c) returns its functions and, in `namespaces`,
-- where each is published: `tf` (the top level), `nn`, `math`, `linalg`,
-- `random`, `strings`, `image`, a dotted one such as `math.special`, and `lib` (library-internal helpers, kept
-- out of tf). An entry "name" publishes the family's function of that
-- name; public = "name" publishes it under another name (tf.mod for
-- floormod). This module composes them into one table: the top-level
-- names, one table per namespace, and `internal` naming the lib entries;
-- a name two families bind to different functions is refused. tf.lua
-- publishes it (and joins tf.keras's parts with join_namespaces); the
-- library's other modules require it for the ops.
-- (The control family, ops/control.lua, builds on the gradient tape,
-- which builds on these ops: it is published by tf.lua after them.)

local core_ops = require("moonflow.ops.core")
local elementwise = require("moonflow.ops.elementwise")
local generate = require("moonflow.ops.generate")
local shape_ops = require("moonflow.ops.shape")
local join = require("moonflow.ops.join")
local pad = require("moonflow.ops.pad")
local index = require("moonflow.ops.index")
local reduce = require("moonflow.ops.reduce")
local random = require("moonflow.ops.random")
local nn = require("moonflow.ops.nn")
local conv = require("moonflow.ops.conv")
local pool = require("moonflow.ops.pool")
local linalg = require("moonflow.ops.linalg")
local lapack = require("moonflow.ops.lapack")
local einsum = require("moonflow.ops.einsum")
local array = require("moonflow.ops.array")
local sort = require("moonflow.ops.sort")
local image = require("moonflow.ops.image")
local bitcast = require("moonflow.ops.bitcast")

local FAMILIES = {
  { "core", core_ops }, { "elementwise", elementwise }, { "generate", generate }, { "shape", shape_ops },
  { "join", join }, { "pad", pad }, { "index", index }, { "reduce", reduce }, { "random", random },
  { "nn", nn }, { "conv", conv }, { "pool", pool }, { "linalg", linalg }, { "lapack", lapack },
  { "einsum", einsum }, { "array", array }, { "sort", sort }, { "image", image },
  { "bitcast", bitcast },
}

-- The string families load on first use of what they publish (ops.strings,
-- ops.as_string, ops.io; tf.lua makes tf.strings, tf.as_string and
-- tf.io.decode_raw so), or of ops.families: a session without a string op
-- never parses them (issue 28's start-up figures).
local LATER = { "string", "split", "regex", "unicode" }
local FAMILY_MODULE = "moonflow.ops.%s"
-- Where they may publish: a name elsewhere would escape tf.lua's loaders.
local LATER_PUBLISH = { strings = true, tf = { as_string = true }, io = { decode_raw = true } }

local ops = { internal = { internal = true } }
local bound_by = {} -- "nn.relu" -> the family that bound it

local function bind(family, ns, public, fn)
  local into = ops
  if ns ~= "tf" and ns ~= "lib" then
    -- "math.special" is tf.math.special
    for part in ns:gmatch("[^.]+") do
      into[part] = into[part] or {}
      into = into[part]
    end
  end
  local path = (into == ops and "" or ns .. ".") .. public
  if into[public] ~= nil and into[public] ~= fn then
    error(("moonflow.ops: tf.%s is bound by the families %s and %s"):format(path, bound_by[path], family), 0)
  end
  into[public], bound_by[path] = fn, family
  if ns == "lib" then ops.internal[public] = true end
end

-- Binds a family's functions where its `namespaces` says; `allowed`, when
-- given, is where it may.
local function bind_family(family, module, allowed)
  for ns, entries in pairs(module.namespaces) do
    for k, own in pairs(entries) do
      local public = math.type(k) == "integer" and own or k
      local fn = module[own]
      if fn == nil then error(("moonflow.ops: the %s family has no function %s"):format(family, own), 0) end
      local where = allowed and allowed[ns]
      if allowed and not (where == true or (where and where[public])) then
        error(("moonflow.ops: the %s family loads on first use and may not publish %s.%s (ops/init.lua's "
          .. "LATER_PUBLISH, and tf.lua's loaders)"):format(family, ns, public), 0)
      end
      bind(family, ns, public, fn)
    end
  end
end

for _, f in ipairs(FAMILIES) do bind_family(f[1], f[2]) end

-- The keys of ops that load them: their namespaces and top-level names.
local LATER_KEYS = { families = true }
for ns, names in pairs(LATER_PUBLISH) do
  if ns ~= "tf" then LATER_KEYS[ns] = true end
end
for name in pairs(LATER_PUBLISH.tf) do LATER_KEYS[name] = true end

local function load_later()
  setmetatable(ops, nil)
  for _, family in ipairs(LATER) do
    local module = require(FAMILY_MODULE:format(family))
    FAMILIES[#FAMILIES + 1] = { family, module }
    bind_family(family, module, LATER_PUBLISH)
  end
  ops.families = FAMILIES
end

setmetatable(ops, {
  __index = function(t, k)
    if not LATER_KEYS[k] then return nil end
    load_later()
    return rawget(t, k)
  end,
})

--- A namespace table joined from two modules' parts (such as tf.keras
--- from keras/init.lua and keras/layers.lua): a new table with base's
--- fields, and each table of `extra` joined into base's table of that
--- name; a name the two bind to different values is refused.
function ops.join_namespaces(base, extra, what)
  local out = {}
  for k, v in pairs(base) do out[k] = v end
  for ns, t in pairs(extra) do
    local into = {}
    for k, v in pairs(out[ns] or {}) do into[k] = v end
    for k, v in pairs(t) do
      if into[k] ~= nil and into[k] ~= v then
        error(("moonflow.ops: %s.%s.%s is bound twice"):format(what, ns, k), 0)
      end
      into[k] = v
    end
    out[ns] = into
  end
  return out
end

--- The family modules, {name, module} in load order (for the tests;
-- reading it loads the string families).
ops.internal.families, ops.internal.join_namespaces = true, true

return ops
