-- generator.lua — tf.data.Dataset.from_generator: elements from a Lua
-- generator, each asked by the core through a host callback (the
-- GeneratorDataset op's next_func), as TF's come from a py_func. A
-- pipeline with one stays on the session's thread; the tf.function
-- guide's point holds here too: every element is a call back into Lua.
--
-- The generator is a function called anew for each iteration; either it
-- yields the elements (coroutine.yield(x), as a Python generator yields),
-- or it returns an iterator function (nil at the end) or a Lua list.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local ops = require("moonflow.ops")
local structure = require("moonflow.data.structure")
local iterators = require("moonflow.data.iterator")
local raise = errors.raise

local M = {}

-- An element source over one run of the generator.
local function start(generator)
  local co = coroutine.create(generator)
  local iter
  return function()
    if iter then return iter() end
    if coroutine.status(co) == "dead" then return nil end
    local r = table.pack(coroutine.resume(co))
    if not r[1] then error(r[2], 0) end
    if coroutine.status(co) ~= "dead" then return table.unpack(r, 2, r.n) end
    local ret = r[2]
    if type(ret) == "function" then
      iter = ret
    elseif type(ret) == "table" and getmetatable(ret) == nil then
      local i = 0
      iter = function()
        i = i + 1
        return ret[i]
      end
    else
      return nil
    end
    return iter()
  end
end

-- The signature's structure and flat specs ({dtype=, shape=}).
local function signature(sig, level)
  local specs, open = {}, {}
  local function walk(v)
    if getmetatable(v) == shapes.Spec then
      local shape
      if v.shape.rank ~= nil then
        shape = {}
        for i, d in ipairs(v.shape:as_list()) do shape[i] = d == shapes.None and -1 or d end
      end
      specs[#specs + 1] = { dtype = v.dtype, shape = shape }
      return { kind = "tensor", index = #specs }
    end
    if type(v) == "table" and getmetatable(v) == nil and next(v) ~= nil and not open[v] then
      open[v] = true
      local node = structure.table_node(v, nil, walk)
      open[v] = nil
      return node
    end
    raise("TypeError", "output_signature must be a tf.TensorSpec or a (nested) table of them, got "
      .. tostring(v), level + 3)
  end
  return walk(sig), specs
end

local function yielded_error(fmt, ...)
  raise("InvalidArgumentError", "TypeError: `generator` " .. fmt:format(...), 3)
end

-- The flat components of a yielded value, converted to the signature's dtypes.
local function components(s, specs, value, sig_text)
  local flat = {}
  local function walk(node, v)
    if node.kind == "tensor" then
      local spec = specs[node.index]
      if core.is_tensor(v) then
        local dt = core.dtype(v)
        if dt ~= spec.dtype then
          yielded_error("yielded an element of type %s where an element of type %s was expected.",
            dt.name, spec.dtype.name)
        end
        flat[node.index] = v
        return
      end
      local ok, t = pcall(ops.convert_to_tensor, v, spec.dtype)
      if not ok then
        yielded_error("yielded an element that could not be converted to the expected type. The "
          .. "expected type was %s, but the yielded element was %s.", spec.dtype.name, tostring(v))
      end
      flat[node.index] = t
      return
    end
    local ok = type(v) == "table" and getmetatable(v) == nil
    if ok and node.kind == "tuple" then ok = #v == #node.items end
    if not ok then
      yielded_error("yielded an element that did not match the expected structure. The expected "
        .. "structure was %s, but the yielded element was %s.", sig_text, tostring(v))
    end
    if node.kind == "tuple" then
      for i, item in ipairs(node.items) do walk(item, v[i]) end
    else
      for _, k in ipairs(node.keys) do walk(node.items[k], v[k]) end
    end
  end
  walk(s, value)
  return flat
end

--- tf.data.Dataset.from_generator (see the docstring below).
function M.from_generator(new_dataset, generator, output_signature, name, level)
  if type(generator) ~= "function" then
    raise("TypeError", "`generator` must be a Python callable.", level + 1)
  end
  if output_signature == nil then
    raise("TypeError", "The `output_types` argument can not be None if `output_signature` is not "
      .. "specified.", level + 1)
  end
  local s, specs = signature(output_signature, level)
  local sig_text = structure.spec_text(s, specs)
  local runs = {}
  local ends = {}
  for i, spec in ipairs(specs) do
    ends[i] = spec.dtype == dtypes.string and ops.constant("") or ops.zeros({}, spec.dtype)
  end
  local function next_func(id)
    local key = core.numpy(id)
    local run = runs[key]
    if not run then
      run = start(generator)
      runs[key] = run
    end
    local values = table.pack(run())
    if values[1] == nil then
      runs[key] = nil
      return false, table.unpack(ends)
    end
    local value = values.n > 1 and { table.unpack(values, 1, values.n) } or values[1]
    return true, table.unpack(components(s, specs, value, sig_text))
  end
  local function finalize_func(id) runs[core.numpy(id)] = nil end
  local attrs = iterators.spec_attrs(specs)
  attrs.next_func, attrs.finalize_func, attrs.name = next_func, finalize_func, name
  local v = state.in_eager_scope(core.op, state.H.GeneratorDataset, attrs)
  return new_dataset(v, s, specs, "_FlatMapDataset")
end

M.doc = { "tf.data.Dataset.from_generator(generator, {output_signature=})",
  "A dataset whose elements a Lua generator gives: generator() is called for each iteration and "
  .. "either yields the elements (coroutine.yield(x), or several values: a tuple) or returns an "
  .. "iterator function (nil at the end) or a Lua list. output_signature (a tf.TensorSpec or a "
  .. "nest of them) gives the elements' structure, dtypes and shapes; a yielded element that "
  .. "does not fit is InvalidArgumentError \"TypeError: `generator` yielded ...\" when it is "
  .. "reached, as TF. Each element is a call back into Lua, on the session's thread (a prefetch "
  .. "of it runs there too)." }

return M
