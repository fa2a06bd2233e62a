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
local string_ops = require("moonflow.ops.string")
local bitcast = require("moonflow.ops.bitcast")
local split = require("moonflow.ops.split")
local regex = require("moonflow.ops.regex")
local unicode = require("moonflow.ops.unicode")

local FAMILIES = {
  { "core", core_ops }, { "elementwise", elementwise }, { "generate", generate }, { "shape", shape_ops },
  { "join", join }, { "pad", pad }, { "index", index }, { "reduce", reduce }, { "random", random },
  { "nn", nn }, { "conv", conv }, { "pool", pool }, { "linalg", linalg }, { "lapack", lapack },
  { "einsum", einsum }, { "array", array }, { "sort", sort }, { "image", image }, { "string", string_ops },
  { "bitcast", bitcast },
  { "split", split }, { "regex", regex }, { "unicode", unicode },
}

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

for _, f in ipairs(FAMILIES) do
  local family, module = f[1], f[2]
  for ns, entries in pairs(module.namespaces) do
    for k, own in pairs(entries) do
      local public = math.type(k) == "integer" and own or k
      local fn = module[own]
      if fn == nil then error(("moonflow.ops: the %s family has no function %s"):format(family, own), 0) end
      bind(family, ns, public, fn)
    end
  end
end

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

--- The family modules, {name, module} in load order (for the tests).
ops.families = FAMILIES
ops.internal.families, ops.internal.join_namespaces = true, true

return ops
