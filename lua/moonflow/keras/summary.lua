-- summary.lua — model:summary(): Keras 2's table (layer_utils.print_summary):
-- "Model: name", the header, one row per layer (name (Class), output
-- shape, parameter count), totals with their memory size. A Sequential,
-- a subclassed or a chain-shaped functional model gets the 65-column
-- table; a functional model with branches the 98-column one with
-- "Connected to".

local shapes = require("moonflow.tensor.shape")
local base = require("moonflow.keras.base_layer")
local functional = require("moonflow.keras.functional")
local kt_mod = require("moonflow.keras.keras_tensor")

local S = {}

local function is_plain(v) return type(v) == "table" and getmetatable(v) == nil end

-- Python's repr of a shape tuple: (None, 3), (None,).
local function tuple(shape)
  local dims = shape:as_list()
  local parts = {}
  for i, d in ipairs(dims) do parts[i] = d == shapes.None and "None" or tostring(d) end
  if #parts == 1 then return "(" .. parts[1] .. ",)" end
  return "(" .. table.concat(parts, ", ") .. ")"
end

local function print_row(print_fn, fields, positions)
  local left = {}
  for i, f in ipairs(fields) do left[i] = tostring(f) end
  local function any() for _, s in ipairs(left) do if s ~= "" then return true end end return false end
  while any() do
    local line = ""
    for col = 1, #left do
      local start = col > 1 and positions[col - 1] or 0
      local space = col ~= #positions and 2 or 0
      local cutoff = positions[col] - start - space
      if col ~= #positions then cutoff = cutoff - 1 end
      local fit = left[col]:sub(1, cutoff)
      local best
      for _, cond in ipairs({ "),", "},", "],", "',", }) do
        local at = fit:find(cond, 1, true)
        if at then
          local c = at - 1 + #cond
          if best == nil or c < best then best = c end
        end
      end
      if best then
        cutoff = best
        fit = fit:sub(1, cutoff)
      end
      if col == 1 then line = line .. " " end
      line = line .. fit .. (" "):rep(space)
      left[col] = left[col]:sub(cutoff + 1)
      line = line .. (" "):rep(math.max(positions[col] - #line, 0))
    end
    print_fn(line)
  end
end

local function readable(bytes)
  local units = { "Byte", "KB", "MB", "GB", "TB", "PB" }
  for _, u in ipairs(units) do
    if bytes / 1024 < 1 then return ("%.2f %s"):format(bytes, u) end
    bytes = bytes / 1024
  end
  return ("%.2f %s"):format(bytes, units[#units])
end

local function count(vars)
  local n, bytes = 0, 0
  for _, v in ipairs(vars) do
    local k = shapes.num_elements(v.shape:as_list())
    n = n + k
    bytes = bytes + k * (v.dtype.size or 4)
  end
  return n, bytes
end

local function output_shape(model, layer)
  if not rawget(model, "_functional") then
    if getmetatable(model)._class_name == "Sequential" or rawget(model, "_sequential_shapes") then
      local s = rawget(model, "_sequential_shapes")
      return s and s[layer] or "multiple"
    end
    return "multiple"
  end
  local inbound = rawget(layer, "_inbound") or {}
  local outs = {}
  for _, node in ipairs(inbound) do outs[#outs + 1] = node.outputs end
  if #outs ~= 1 then return "multiple" end
  local o = outs[1]
  local text
  if functional.is_keras_tensor(o) then
    text = tuple(o.shape)
    if getmetatable(layer) == functional.InputLayer then text = "[" .. text .. "]" end
  else
    local parts = {}
    for i, kt in ipairs(o) do parts[i] = tuple(kt.shape) end
    text = "[" .. table.concat(parts, ", ") .. "]"
  end
  return text
end

-- Keras's sequential_like: no node with several inputs, no layer used twice.
local function sequential_like(model)
  if not rawget(model, "_functional") then return true end
  local uses = {}
  for _, node in ipairs(model._nodes) do
    local n = 0
    local inputs = node.inputs
    if is_plain(inputs) then n = #inputs else n = 1 end
    if n > 1 then return false end
    if uses[node.layer] then return false end
    uses[node.layer] = true
  end
  -- Two nodes at one depth (branches): more than one output, or a tensor used twice.
  local consumed = {}
  for _, node in ipairs(model._nodes) do
    local x = is_plain(node.inputs) and node.inputs[1] or node.inputs
    if consumed[x] then return false end
    consumed[x] = true
  end
  return not is_plain(model.outputs) or #model.outputs == 1
end

local function connections(model, layer)
  local out = {}
  for _, node in ipairs(rawget(layer, "_inbound") or {}) do
    for _, kt in ipairs(kt_mod.flatten(node.inputs)) do
      if functional.is_keras_tensor(kt) then
        local src = kt._node.layer
        out[#out + 1] = ("'%s[0][%d]'"):format(src.name, (kt._index or 1) - 1)
      end
    end
  end
  if #out == 0 then return "[]" end
  return "[" .. table.concat(out, ", ") .. "]"
end

function S.summary(model, print_fn)
  print_fn = print_fn or print
  local seq = sequential_like(model)
  local line_length, positions, header
  if seq then
    line_length = 65
    positions = { 29, 55, 65 }
    header = { "Layer (type)", "Output Shape", "Param #" }
  else
    line_length = 98
    positions = { 29, 58, 68, 98 }
    header = { "Layer (type)", "Output Shape", "Param #", "Connected to" }
  end
  print_fn(('Model: "%s"'):format(model.name))
  print_fn(("_"):rep(line_length))
  print_row(print_fn, header, positions)
  print_fn(("="):rep(line_length))
  for _, layer in ipairs(model:get_layers()) do
    if base.is_layer(layer) then
      local params
      if not layer.built and not rawget(layer, "_functional") then params = "0 (unused)" else params = layer:count_params() end
      local fields = { ("%s (%s)"):format(layer.name, getmetatable(layer)._class_name), output_shape(model, layer), params }
      if not seq then fields[4] = connections(model, layer) end
      print_row(print_fn, fields, positions)
      print_fn((" "):rep(line_length))
    end
  end
  print_fn(("="):rep(line_length))
  local tn, tb = count(model:trainable_variables())
  local nn, nb = count(model:non_trainable_variables())
  print_fn(("Total params: %d (%s)"):format(tn + nn, readable(tb + nb)))
  print_fn(("Trainable params: %d (%s)"):format(tn, readable(tb)))
  print_fn(("Non-trainable params: %d (%s)"):format(nn, readable(nb)))
  print_fn(("_"):rep(line_length))
end

return S
