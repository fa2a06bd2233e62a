-- join.lua — the join family (core/ops/ops_join.c): tensors joined or
-- taken apart along an axis: tf.concat (ConcatV2), tf.stack (Pack),
-- tf.unstack (Unpack); and int_list, which packs a Lua list holding
-- tensors (an index or shape argument) into one vector.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local shapes = require("moonflow.tensor.shape")
local common = require("moonflow.ops.common")
local dispatch = require("moonflow.tensor.dispatch")
local core_ops = require("moonflow.ops.core")
local raise = errors.raise

local op = core.op
local H = state.H
local op_def, check_list, shape_of = common.op_def, common.check_list, shapes.of
local to_tensor = core_ops.to_tensor

local M = {}

local function values_list(values)
  if core.is_tensor(values) then return M.unstack(values) end
  return values
end

M.concat = op_def("ConcatV2", function(values, axis, opts)
  values = values_list(values)
  check_list(values, "tf.concat", "values")
  if dispatch.any_ragged(values) then return dispatch.concat(values, axis) end
  if #values == 0 then
    raise("ValueError", "List argument 'values' to 'ConcatV2' Op with length 0 shorter than minimum "
      .. "length 2.", 3)
  end
  local args = {}
  for i = 1, #values do args[i] = values[i] end
  args[#args + 1] = axis or 0
  local mask = (1 << #values) - 1
  return op(H.ConcatV2, { _typed = mask, name = opts.name or "concat" }, table.unpack(args))
end, "tf.concat(values, axis)", "values is a Lua list (or a tensor, unstacked); axis is 0-based.",
{ required = 1, positional = { "axis" }, "name" })

-- The static rank of a tensor, variable or Lua value (nil when unknown,
-- or for a table inside itself, which conversion then refuses).
local function value_rank(v, seen)
  if core.is_tensor(v) then
    local shape = shape_of(v)
    return shape and #shape
  end
  local mt = getmetatable(v)
  if mt and mt.__tf_tensor then return value_rank(mt.__tf_tensor(v)) end
  if type(v) == "table" and mt == nil then
    if v[1] == nil then return 1 end
    seen = seen or {}
    if seen[v] then return nil end
    seen[v] = true
    local inner = value_rank(v[1], seen)
    return inner and inner + 1
  end
  if type(v) == "number" or type(v) == "boolean" or type(v) == "string" then return 0 end
  return nil
end

M.stack = op_def("Pack", function(values, axis, opts)
  check_list(values, "tf.stack", "values")
  if dispatch.any_ragged(values) then return dispatch.stack(values, axis) end
  axis = axis or 0
  -- TF's stack checks the axis against the first value's static rank + 1.
  local rank = math.type(axis) == "integer" and value_rank(values[1])
  if rank then
    local n = rank + 1
    if axis < -n or axis >= n then
      raise("ValueError", ("Argument `axis` = %d not in range [%d, %d)"):format(axis, -n, n), 3)
    end
  end
  local mask = (1 << #values) - 1
  return op(H.Pack, { axis = axis or 0, _typed = mask, name = opts.name or "stack" }, table.unpack(values))
end, "tf.stack(values [, axis])", "values is a Lua list; axis (0-based) defaults to 0.",
{ required = 1, positional = { "axis" }, "name" })

M.unstack = op_def("Unpack", function(value, num, axis, opts)
  value = to_tensor(value)
  axis = axis or 0
  if math.type(axis) ~= "integer" then
    raise("TypeError", "tf.unstack: axis must be an integer, got " .. tostring(axis), 2)
  end
  if num == nil then
    -- TF's unstack: the axis checked against a known rank, num from its dimension.
    local shape = shape_of(value)
    if shape then
      if axis < -#shape or axis >= #shape then
        raise("ValueError", ("Argument `axis` = %d not in range [%d, %d)"):format(axis, -#shape, #shape), 3)
      end
      num = shape[(axis < 0 and #shape + axis or axis) + 1]
      if num < 0 then num = nil end
    end
    if num == nil then
      raise("ValueError", "Cannot infer argument `num` from shape " .. tostring(shapes.TensorShape(shape)), 3)
    end
  end
  return { op(H.Unpack, { num = num, axis = axis, name = opts.name or "unstack" }, value) }
end, "tf.unstack(value [, num] [, axis] [, {name=}])", "The result is a Lua list of tensors.",
{ required = 1, positional = { "num", "axis" }, "name" })

--- A list argument that holds tensors ({a, b} with a, b scalar tensors)
--- as one stacked vector; anything else as it is. Library-internal.
function M.int_list(v)
  if core.is_tensor(v) or type(v) ~= "table" then return v end
  for i = 1, #v do
    if core.is_tensor(v[i]) then
      local parts = {}
      for j = 1, #v do parts[j] = v[j] end
      return M.stack(parts)
    end
  end
  return v
end

M.namespaces = {
  tf = { "concat", "stack", "unstack" },
  lib = { "int_list" },
}

return M
