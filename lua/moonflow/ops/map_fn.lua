-- map_fn.lua — tf.map_fn (TF's map_fn.py) and tf.vectorized_map. elems (a
-- tensor or a nest of them) is unstacked on dimension 0 and fn runs on each
-- element; the results are stacked. Eagerly a Lua loop; while tracing ONE
-- tf.while_loop whose body gathers element i from the (captured) elems and
-- writes fn's result as row i of a buffer (TensorListSetItem, a
-- TensorArray's write), as TF builds it. The buffers are plain tensor loop
-- variables rather than TensorArrays, so the loop's gradient reaches
-- elems and fn's captures.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local options = require("moonflow.options")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local ops = require("moonflow.ops")
local nest = require("moonflow.nest")
local control = require("moonflow.ops.control")
local state = require("moonflow.state")
local raise = errors.raise

local map_fn = {}

local function static_shape(t)
  return t.shape and t.shape:as_list() or nil
end

-- elems' leaves as tensors, each at least 1-dimensional, with one common
-- (static) dimension 0.
local function elems_tensors(elems)
  local leaves, structure = nest.flatten_leaves(elems, "tf.map_fn's elems", 3)
  if leaves.n == 0 then
    raise("ValueError", "elems must be a Tensor or (possibly nested) sequence of Tensors. Got {}", 4)
  end
  local flat, n0 = {}, nil
  for i = 1, leaves.n do
    local mt = type(leaves[i]) == "table" and getmetatable(leaves[i])
    if mt and mt.__tf_composite then
      raise("TypeError", "tf.map_fn: elems holds a " .. tostring(mt.__name or "composite tensor")
        .. "; moonflow's map_fn maps dense tensors only (no ragged or sparse elems yet)", 4)
    end
    local t = ops.convert_to_tensor(leaves[i])
    local dims = static_shape(t)
    if dims and #dims == 0 then
      -- TF's two messages: one tensor, or a nest of them
      raise("ValueError", #leaves == 1 and "elems must be a 1+ dimensional Tensor, not a scalar"
        or "elements in elems must be 1+ dimensional Tensors, not scalars", 4)
    end
    local d = dims and dims[1]
    if math.type(d) == "integer" and d >= 0 then
      if n0 and n0 ~= d then
        raise("ValueError", ("Dimensions %d and %d are not compatible"):format(n0, d), 4)
      end
      n0 = n0 or d
    end
    flat[i] = t
  end
  return flat, structure, n0
end

-- The signature's leaves as { dtype=, shape= } (shape nil when unknown),
-- from fn_output_signature (or dtype), else from elems' elements.
local function signature_of(sig, elems_flat, elems_structure)
  if sig == nil then
    local out = { n = #elems_flat }
    for i, t in ipairs(elems_flat) do
      local dims = static_shape(t)
      out[i] = { dtype = core.dtype(t), shape = dims and table.move(dims, 2, #dims, 1, {}) or nil }
    end
    return out, elems_structure
  end
  local leaves, structure = nest.flatten_leaves(sig, "tf.map_fn's fn_output_signature", 4)
  local out = { n = leaves.n }
  for i = 1, leaves.n do
    local s = leaves[i]
    if getmetatable(s) == getmetatable(shapes.TensorSpec({})) then
      out[i] = { dtype = s.dtype, shape = s.shape:as_list() }
    else
      local ok, dt = pcall(dtypes.as_dtype, s)
      if not ok then
        raise("TypeError", "tf.map_fn: fn_output_signature must be a dtype, a tf.TensorSpec or a nest of them; got "
          .. tostring(s), 4)
      end
      out[i] = { dtype = dt }
    end
  end
  return out, structure
end

-- fn's result as a flat list of tensors matching the signature.
local function result_flat(value, sig, sig_structure)
  local leaves, structure = nest.flatten_leaves(value, "tf.map_fn's fn output", 4)
  if not nest.same_structure(structure, sig_structure) or leaves.n ~= sig.n then
    raise("TypeError", "The two structures don't have the same nested structure: fn's output has "
      .. leaves.n .. " tensor(s), fn_output_signature " .. sig.n
      .. " (give fn_output_signature when fn's output differs from elems in structure or dtype)", 5)
  end
  local out = {}
  for i = 1, leaves.n do
    local v = leaves[i]
    if core.is_tensor(v) then
      if core.dtype(v) ~= sig[i].dtype then
        raise("InvalidArgumentError", ("TensorArray dtype is %s but Op is trying to write dtype %s")
          :format(sig[i].dtype.name, core.dtype(v).name), 5)
      end
    else
      v = ops.convert_to_tensor(v, sig[i].dtype)
    end
    out[i] = v
  end
  return out
end

local function element(elems_flat, structure, i)
  local rows = {}
  for k, t in ipairs(elems_flat) do rows[k] = ops.gather(t, i) end
  return nest.pack_leaves(structure, rows)
end

local function pack_results(cols, structure)
  return nest.pack_leaves(structure, cols)
end

-- Eagerly: fn per element, results stacked. With no elements fn runs once
-- on zeros of an element's shape to learn its results' shapes (the traced
-- form learns them from the body's trace), and the result is empty.
local function eager_map(fn, elems_flat, structure, n, sig, sig_structure)
  if n == 0 then
    local zeros = {}
    for k, t in ipairs(elems_flat) do
      local dims = static_shape(t)
      zeros[k] = ops.zeros(table.move(dims, 2, #dims, 1, {}), core.dtype(t))
    end
    local flat = result_flat(fn(nest.pack_leaves(structure, zeros)), sig, sig_structure)
    local cols = {}
    for k, t in ipairs(flat) do
      cols[k] = ops.zeros({ 0, table.unpack(static_shape(t)) }, core.dtype(t))
    end
    return pack_results(cols, sig_structure)
  end
  local rows = {}
  for i = 0, n - 1 do
    core.check_interrupt()
    rows[i + 1] = result_flat(fn(element(elems_flat, structure, i)), sig, sig_structure)
  end
  local cols = {}
  for k = 1, sig.n do
    local col = {}
    for i = 1, n do col[i] = rows[i][k] end
    cols[k] = ops.stack(col)
  end
  return pack_results(cols, sig_structure)
end

-- Traced: one tf.while_loop over (i, one buffer per result). Each buffer
-- is a plain tensor loop variable of shape [n, element...] written row by
-- row with TensorListSetItem (a TensorArray's write): the loop's gradient
-- reaches plain tensor loop variables, not a TensorArray's contents. A
-- result whose shape the signature leaves open (the default signature,
-- taken from elems, says nothing of fn's output shape) is shaped by fn's
-- output, traced once in a dropped graph for its static shape only.
-- fn's results' static shapes, from a trace of fn on an element's
-- placeholders in a nested graph of its own that is then dropped: the
-- outer graph gets no copy of fn's ops.
local function probe_shapes(fn, elems_flat, structure, sig, sig_structure)
  local out
  state.in_trace("map_fn_probe", nil, nil, function()
    local phs = {}
    for k, t in ipairs(elems_flat) do
      local dims = static_shape(t)
      phs[k] = core.placeholder("elem_" .. k, core.dtype(t), dims and table.move(dims, 2, #dims, 1, {}) or nil)
    end
    local flat = result_flat(fn(nest.pack_leaves(structure, phs)), sig, sig_structure)
    out = {}
    for k, t in ipairs(flat) do out[k] = static_shape(t) end
    return flat
  end)
  return out
end

local function traced_map(fn, elems_flat, structure, n, sig, sig_structure, name, explicit)
  local size = n or ops.shape(elems_flat[1])[0]
  local open = not explicit
  for k = 1, sig.n do
    local es = sig[k].shape
    if es == nil then open = true else
      for j = 1, #es do if es[j] == shapes.None or es[j] == -1 then open = true end end
    end
  end
  local probe = open and probe_shapes(fn, elems_flat, structure, sig, sig_structure)
  local shapes_of, all_known = {}, true
  for k = 1, sig.n do
    local es = probe and probe[k] or sig[k].shape
    local known = es ~= nil
    for j = 1, es and #es or 0 do if math.type(es[j]) ~= "integer" or es[j] < 0 then known = false end end
    shapes_of[k], all_known = es, all_known and known
  end
  -- A result with a dimension unknown until it runs goes to a TensorArray
  -- (its buffer takes the first write's shape); the loop's gradient can't
  -- reach a TensorArray's contents, so under a tape that is refused
  -- rather than a silent zero gradient.
  if not all_known and state.tapes_recording and state.tapes_recording() then
    raise("ValueError", "tf.map_fn inside tf.func: a gradient needs the static shape of fn's output, "
      .. "which is unknown here; give fn_output_signature a tf.TensorSpec with a full shape", 4)
  end
  local vars = { ops.constant(0) }
  for k = 1, sig.n do
    local es = shapes_of[k]
    if not all_known then
      vars[k + 1] = control.TensorArray(sig[k].dtype, size)
    elseif n then
      vars[k + 1] = ops.zeros({ n, table.unpack(es) }, sig[k].dtype)
    else
      vars[k + 1] = ops.zeros(#es == 0 and ops.reshape(size, { 1 })
        or ops.concat({ ops.reshape(size, { 1 }), ops.constant(es, dtypes.int32) }, 0), sig[k].dtype)
    end
  end
  local out = table.pack(control.while_loop(function(i) return ops.less(i, size) end, function(i, ...)
    local bufs = { ... }
    local flat = result_flat(fn(element(elems_flat, structure, i)), sig, sig_structure)
    for k = 1, sig.n do
      bufs[k] = all_known and core.op(state.H.TensorListSetItem, { resize = false }, bufs[k], i, flat[k])
        or bufs[k]:write(i, flat[k])
    end
    return i + 1, table.unpack(bufs, 1, sig.n)
  end, vars, { name = name or "map" }))
  local cols = table.move(out, 2, sig.n + 1, 1, {})
  if not all_known then
    for k = 1, sig.n do cols[k] = cols[k]:stack() end
  end
  return pack_results(cols, sig_structure)
end

-- parallel_iterations, swap_memory and infer_shape change nothing here
-- (iterations run in order), but a value of the wrong type is a TypeError.
local function check_flags(parallel_iterations, back_prop, swap_memory, infer_shape)
  if parallel_iterations ~= nil and math.type(parallel_iterations) ~= "integer" then
    raise("TypeError", "tf.map_fn: parallel_iterations must be an integer", 4)
  end
  for key, v in pairs({ back_prop = back_prop, swap_memory = swap_memory, infer_shape = infer_shape }) do
    if type(v) ~= "boolean" then raise("TypeError", "tf.map_fn: " .. key .. " must be a boolean", 4) end
  end
end

map_fn.map_fn = options.def(function(fn, elems, dtype, parallel_iterations, back_prop, swap_memory, infer_shape,
    name, opts)
  if back_prop == nil then back_prop = true end
  if infer_shape == nil then infer_shape = true end
  check_flags(parallel_iterations, back_prop, swap_memory or false, infer_shape)
  if type(fn) ~= "function" then
    raise("TypeError", "fn must be callable (a Lua function); got a " .. type(fn), 2)
  end
  if dtype ~= nil and opts.fn_output_signature ~= nil then
    raise("ValueError", "Only one of dtype and fn_output_signature may be given", 2)
  end
  local elems_flat, structure, n = elems_tensors(elems)
  local sig, sig_structure = signature_of(opts.fn_output_signature or dtype, elems_flat, structure)
  local result
  if not core.tracing() then
    if n == nil then n = ops.shape(elems_flat[1])[0]:numpy() end
    result = eager_map(fn, elems_flat, structure, n, sig, sig_structure)
  else
    result = traced_map(fn, elems_flat, structure, n, sig, sig_structure, name,
      opts.fn_output_signature ~= nil or dtype ~= nil)
  end
  if back_prop then return result end
  -- back_prop=false: as while_v2, the results stop the gradient.
  local leaves, rs = nest.flatten_leaves(result, "tf.map_fn's result", 1)
  for i = 1, leaves.n do leaves[i] = ops.stop_gradient(leaves[i]) end
  return nest.pack_leaves(rs, leaves)
end, "tf.map_fn(fn, elems [, {fn_output_signature=, dtype=, parallel_iterations=, back_prop=, "
  .. "swap_memory=, infer_shape=, name=}])",
"Applies fn to each element of elems unstacked on dimension 0 (elems a tensor or a nest, a Lua "
.. "list or dict table, of tensors with one common dimension 0; fn receives an element in the same "
.. "structure) and stacks the results. fn_output_signature (or its older name dtype): a dtype, a "
.. "tf.TensorSpec or a nest of them, needed when fn's output differs from elems in structure or "
.. "dtype. Eagerly a Lua loop; inside tf.func one While op whose body gathers element i from "
.. "the captured elems and writes fn's result as row i of a plain tensor loop variable (a "
.. "TensorArray's write; TensorArray contents would stop the loop's gradient). Differentiable: "
.. "gradients reach elems and fn's captures through the loop (traced, that needs fn's output "
.. "shape known statically: an output dimension unknown until run is a ValueError under a "
.. "tape). With no elements, eagerly fn runs once on zeros of an element's shape to learn its "
.. "output shape (the result has that shape after 0). "
.. "back_prop=false stops the gradient at the results (TF's while_v2); parallel_iterations, "
.. "swap_memory and infer_shape are accepted for TF's signature and change nothing (iterations "
.. "run in order).",
{ required = 2, positional = { "dtype", "parallel_iterations", "back_prop", "swap_memory", "infer_shape", "name" },
  "fn_output_signature" })

map_fn.vectorized_map = options.def(function(fn, elems, fallback_to_while_loop, warn, opts)
  -- Always the while-loop path: fallback_to_while_loop=false can't be
  -- honoured by refusing (no pfor), and warn has nothing to warn of.
  for key, v in pairs({ fallback_to_while_loop = fallback_to_while_loop, warn = warn }) do
    if v ~= nil and type(v) ~= "boolean" then
      raise("TypeError", "tf.vectorized_map: " .. key .. " must be a boolean", 2)
    end
  end
  if opts.fn_output_signature == nil then return map_fn.map_fn(fn, elems) end
  return map_fn.map_fn(fn, elems, { fn_output_signature = opts.fn_output_signature })
end, "tf.vectorized_map(fn, elems [, {fallback_to_while_loop=, warn=, fn_output_signature=}])",
"fn applied to each element of elems (unstacked on dimension 0) and the results stacked, as "
.. "tf.map_fn computes it: moonflow has no pfor vectorizer, so this is always TF's "
.. "fallback_to_while_loop path (the same values; no vectorized speed-up).",
{ required = 2, positional = { "fallback_to_while_loop", "warn" }, "fn_output_signature" })

map_fn.namespaces = { tf = { "map_fn", "vectorized_map" } }

return map_fn
