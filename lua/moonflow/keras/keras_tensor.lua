-- keras_tensor.lua — Keras's KerasTensor: the symbolic value of the
-- functional API (a shape with a None batch dimension and a dtype, no
-- value), printed as Keras 2 prints it, and the walks over nests of them
-- (a KerasTensor, or a list or table of them) the layers and models use.

local K = {}

local KerasTensor = { __name = "KerasTensor" }
KerasTensor.__index = KerasTensor

local function is_kt(x) return getmetatable(x) == KerasTensor end
K.is_keras_tensor = is_kt

local function is_plain(v) return type(v) == "table" and getmetatable(v) == nil end

-- KerasTensors in a nest (a KerasTensor or a list of them), flattened.
-- `seen` holds the lists on the walk: a list that contains itself is
-- walked once (a cycle is no nest, and must not overflow the C stack).
local function flatten(x, out, seen)
  out, seen = out or {}, seen or {}
  if is_kt(x) then
    out[#out + 1] = x
  elseif is_plain(x) and not seen[x] then
    seen[x] = true
    for _, v in ipairs(x) do flatten(v, out, seen) end
  end
  return out
end

local function is_symbolic(x, seen)
  if is_kt(x) then return true end
  seen = seen or {}
  if is_plain(x) and not seen[x] then
    seen[x] = true
    for _, v in ipairs(x) do if is_symbolic(v, seen) then return true end end
  end
  return false
end

local function spec_text(kt)
  return ("TensorSpec(shape=%s, dtype=tf.%s, name=%s)"):format(tostring(kt.shape), kt.dtype.name,
    kt.spec_name and ("'" .. kt.spec_name .. "'") or "None")
end

-- str(): KerasTensor(type_spec=..., name=..., description=...) as Keras 2 prints it.
KerasTensor.__tostring = function(kt)
  local layer = kt._node and kt._node.layer
  return ("KerasTensor(type_spec=%s, name='%s'%s)"):format(spec_text(kt), kt.name,
    layer and (", description=\"created by layer '%s'\""):format(layer.name) or "")
end
-- repr(): what the REPL shows.
KerasTensor.__repr = function(kt)
  local layer = kt._node and kt._node.layer
  return ("<KerasTensor: shape=%s dtype=%s%s>"):format(tostring(kt.shape), kt.dtype.name,
    layer and (" (created by layer '%s')"):format(layer.name) or "")
end

local function new_kt(shape, dtype, name, node, index, spec_name)
  return setmetatable({ shape = shape, dtype = dtype, name = name, _node = node, _index = index,
    spec_name = spec_name }, KerasTensor)
end

-- Replaces each KerasTensor of a nest by f(kt).
local function map(x, f)
  if is_kt(x) then return f(x) end
  if is_plain(x) then
    local out = {}
    for k, v in pairs(x) do out[k] = map(v, f) end
    return out
  end
  return x
end
K.map = map

K.new = new_kt
K.flatten = flatten
K.is_symbolic = is_symbolic
K.Node = { __name = "Node" } -- a node's metatable: module walks skip nodes

return K
