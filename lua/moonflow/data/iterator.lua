-- iterator.lua — tf.data's iterator (TF's OwnedIterator, what iter(ds)
-- gives): an iterator variant made by AnonymousIteratorV3 and started by
-- MakeIterator, advanced by IteratorGetNext, which raises OutOfRangeError
-- at the end. it:get_next() is TF's get_next(); it:next() is Python's
-- next(it, None) in Lua's way: nil at the end. A loop `for x in it do`
-- walks what is left.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local doc = require("moonflow.doc")
local state = require("moonflow.state")
local receiver = require("moonflow.receiver")
local dtypes = require("moonflow.tensor.dtypes")
local ops = require("moonflow.ops")
local structure = require("moonflow.data.structure")

local H = state.H
local op = core.op

local M = {}

local Iterator = { __name = "OwnedIterator" }
local methods = {}
receiver.metatable(Iterator, "iterator", methods)

Iterator.__index = receiver.index(Iterator, "iterator", {
  methods = { methods },
  fields = {
    element_spec = function(it) return structure.element_spec(it._structure, it._specs) end,
  },
})

function Iterator.__tostring(it)
  return ("<tensorflow.python.data.ops.iterator_ops.OwnedIterator object element_spec=%s>")
    :format(structure.spec_text(it._structure, it._specs))
end

-- The attributes output_types / output_shapes (core/ops/ops_data.c): the
-- dtypes, and a row per component: its rank (-1 unknown) then dimensions.
local MAX_RANK = 8

local function spec_attrs(specs)
  local types, rows = {}, {}
  for i, spec in ipairs(specs) do
    types[i] = spec.dtype._enum
    local row = { spec.shape and #spec.shape or -1 }
    for d = 1, MAX_RANK do row[d + 1] = spec.shape and spec.shape[d] or 0 end
    rows[i] = row
  end
  return { output_types = ops.constant(types, dtypes.int64), output_shapes = ops.constant(rows, dtypes.int64) }
end

--- The attributes, as eager tensors even while tracing (attributes are
--- values, not graph inputs).
function M.spec_attrs(specs) return state.in_eager_scope(spec_attrs, specs) end

function M.new(variant, s, specs)
  local attrs = M.spec_attrs(specs)
  local handle = op(H.AnonymousIteratorV3, attrs)
  op(H.MakeIterator, {}, variant, handle)
  return setmetatable({ _handle = handle, _structure = s, _specs = specs, _attrs = attrs }, Iterator)
end

local function element(it, ...)
  return structure.pack(it._structure, { ... })
end

--- The element an optional from it:get_next_as_optional() holds (inside
--- a graph loop, where the optional is known to have one).
function M.optional_value(it, optional)
  return element(it, op(H.OptionalGetValue, it._attrs, optional))
end

local function is_end(e) return errors.is(e, "OutOfRangeError") end

methods.get_next = doc.def(function(it)
  return element(it, op(H.IteratorGetNext, it._attrs, it._handle))
end, "it:get_next()", "The next element; OutOfRangeError (\"End of sequence\") at the end.")

methods.next = doc.def(function(it)
  local r = table.pack(pcall(op, H.IteratorGetNext, it._attrs, it._handle))
  if r[1] then return element(it, table.unpack(r, 2, r.n)) end
  if is_end(r[2]) then return nil end
  error(r[2], 0)
end, "it:next()", "The next element, or nil at the end (Python's next(it, None)). Inside tf.func it is get_next: "
.. "the graph raises OutOfRangeError at the end when it runs.")

methods.get_next_as_optional = doc.def(function(it)
  return op(H.IteratorGetNextAsOptional, it._attrs, it._handle)
end, "it:get_next_as_optional()",
"The next element as an optional variant (OptionalHasValue / OptionalGetValue read it).")

--- The next element's values for a generic for: a tuple's items
--- unpacked, nothing at the end.
function M.next_values(it)
  local value = it:next()
  if value == nil then return nil end
  if it._structure.kind == "tuple" then return table.unpack(value, 1, #it._structure.items) end
  return value
end

function Iterator.__call(it)
  if core.tracing() then
    errors.raise("TypeError", "a `for` over a tf.data iterator while tracing runs as one graph loop "
      .. "through AutoGraph (tf.func's default); this loop was not converted (autograph = false, or "
      .. "a body with `return` or `goto`): call it:get_next() instead", 2)
  end
  return M.next_values(it)
end

M.Iterator = Iterator

return M
