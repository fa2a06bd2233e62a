-- saved_model.lua — tf.saved_model.save / load and tf.train.Checkpoint: a
-- traced program as a directory that outlives its Lua source (the format:
-- docs/saved_model.md; the C side: core/graph/saved_model.c, core/graph/graph_io.c).
--
-- Saving takes each concrete function's graph as traced, its captures (a
-- tf.Variable's handle becomes a reference to a saved variable, any other
-- captured tensor a constant) and the nesting of its results. Loading
-- makes fresh tf.Variables from the saved values and, per saved function, a
-- tf.func (with the saved argument specs as input_signature, so calls are
-- checked with tf.func's errors) whose Lua body replays the saved graph node
-- by node through the op path (core.op): a call under a GradientTape is then
-- differentiated by the ordinary gradient rules, and the restored variables
-- train as any others.

local core = require("moonflow.core")
local doc = require("moonflow.doc")
local options = require("moonflow.options")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local variables = require("moonflow.tensor.variable")
local func = require("moonflow.trace.func")
local modules = require("moonflow.keras.module")
local functions = require("moonflow.io.functions")
local receiver = require("moonflow.receiver")
local tapes = require("moonflow.grad.tape")
local custom_gradient = require("moonflow.grad.custom_gradient")

local M = {}

local function raise(kind, msg) error(core.error(kind, msg), 3) end

-- ---- structures: nest.flatten's nodes as JSON and back ----

local function structure_out(s, where)
  if s.kind == "tensor" then return { kind = "tensor", index = s.index } end
  if s.kind == "nil" then return { kind = "nil" } end
  if s.kind == "table" then
    local array, map = {}, {}
    for i, x in ipairs(s.array) do array[i] = structure_out(x, where) end
    for i, k in ipairs(s.keys) do
      map[i] = { key = k, key_type = type(k), value = structure_out(s.map[k], where) }
    end
    return { kind = "table", array = array, map = map }
  end
  raise("ValueError", ("tf.saved_model.save: %s returns a %s, which cannot be saved"):format(where,
    s.kind == "ta" and "TensorArray" or s.kind))
end

local function pack(s, flat)
  if s.kind == "tensor" then return flat[s.index] end
  if s.kind == "nil" then return nil end
  local t = {}
  for i, x in ipairs(s.array or {}) do t[i] = pack(x, flat) end
  for _, e in ipairs(s.map or {}) do
    local k = e.key_type == "number" and tonumber(e.key) or e.key
    t[k] = pack(e.value, flat)
  end
  return t
end

-- ---- saving ----

-- The functions to save, as {name, f} sorted by name: obj itself (a
-- tf.func or concrete function), the `signatures` given (one function is
-- serving_default), or obj's tf.funcs, its class's methods bound to it
-- (functions.lua).
local function functions_of(obj, signatures)
  if func.is_func(obj) or func.is_concrete(obj) then return { { obj.name, obj, required = true } } end
  if signatures == nil then return functions.of(obj) end
  if func.is_func(signatures) or func.is_concrete(signatures) then
    signatures = { serving_default = signatures }
  end
  local out = {}
  for k, f in pairs(signatures) do
    if type(k) ~= "string" then
      raise("TypeError", ("tf.saved_model.save: signatures must map names to functions, got the key %s")
        :format(tostring(k)))
    end
    if not (func.is_func(f) or func.is_concrete(f)) then
      raise("TypeError", ("tf.saved_model.save: signature '%s' is a %s, not a tf.func or a concrete "
        .. "function"):format(k, type(f)))
    end
    if func.is_method(f) then
      raise("ValueError", ("tf.saved_model.save: signature '%s' is the method '%s' unbound (its first "
        .. "parameter is self): give it bound to the object whose traces to save, obj.%s, as TF "
        .. "saves a bound method"):format(k, f.name, f.name))
    end
    out[#out + 1] = { k, f, required = true }
  end
  table.sort(out, function(a, b) return a[1] < b[1] end)
  return out
end

-- The traces to save of a function: the object saved or a signature must
-- have one; a tf.func the object holds may have none (TF saves it so,
-- and warns): it is saved by name, and calling it after loading says why.
local function concretes_of(name, f, required, untraced)
  local cfs = functions.concretes(f)
  if not cfs then
    if not required then
      untraced[#untraced + 1] = name
      return {}
    end
    raise("ValueError", ("tf.saved_model.save: the tf.func '%s' has never been traced and has no "
      .. "input_signature, so it has no concrete function to save; call it once or give it an "
      .. "input_signature"):format(name))
  end
  return cfs
end

local function warn_untraced(names)
  if #names == 0 then return end
  local shown = table.move(names, 1, math.min(#names, 5), 1, {})
  io.stderr:write(("WARNING: Found untraced functions such as %s while saving (showing %d of %d). "
    .. "These functions will not be directly callable after loading.\n"):format(
    table.concat(shown, ", "), #shown, #names))
end

-- A Lua value of a trace's arguments as JSON: a float keeps its decimal
-- point (2.0), which JSON cannot say of infinities and NaN.
local function literal_out(v)
  if v == nil then return { kind = "nil" } end
  if math.type(v) == "float" and (v ~= v or v == math.huge or v == -math.huge) then
    return { kind = "literal", float = v ~= v and "nan" or (v > 0 and "inf" or "-inf") }
  end
  return { kind = "literal", value = v }
end

-- A trace's arguments (its parameter types, trace_type.lua) as TF's
-- structured input signature: tensors as the index of the graph argument
-- they feed, Lua values as themselves, plain tables as their structure.
local function inputs_out(t, where, counter)
  if t.kind == "tensor" then
    counter.n = counter.n + 1
    return { kind = "spec", index = counter.n }
  end
  if t.kind == "literal" then return literal_out(t.value) end
  if t.kind == "table" then
    local array, map = {}, {}
    for i, x in ipairs(t.array) do array[i] = inputs_out(x, where, counter) end
    for i, k in ipairs(t.keys) do
      if type(k) ~= "string" and type(k) ~= "number" then
        raise("ValueError", ("tf.saved_model.save: %s has a table key %s, which cannot be saved")
          :format(where, tostring(k)))
      end
      map[i] = { key = k, key_type = type(k), value = inputs_out(t.map[k], where, counter) }
    end
    return { kind = "table", array = core.json_array(array), map = core.json_array(map) }
  end
  local what = t.kind == "variable" and "a tf.Variable"
    or ("the object " .. (t.text or tostring(t.value)))
  raise("ValueError", ("tf.saved_model.save: %s is %s, which cannot be saved: a saved function "
    .. "takes tensors and Lua values (numbers, strings, booleans, tables of them)"):format(where, what))
end

local function inputs_of(cf, fname, nargs)
  local types, first = cf._types, cf._fn and cf._fn._method and 2 or 1
  local inputs, counter = {}, { n = 0 }
  for i = first, #types do
    inputs[#inputs + 1] = inputs_out(types[i], ("argument %d of '%s'"):format(i - first + 1, fname), counter)
  end
  if counter.n ~= nargs then
    raise("ValueError", ("tf.saved_model.save: '%s' takes %d tensors but its graph has %d arguments")
      :format(fname, counter.n, nargs))
  end
  return core.json_array(inputs)
end

local function file_name(i, name)
  return ("%d_%s.npy"):format(i, (name:gsub("[^%w_.-]", "_")):gsub("^%.", "_"))
end

-- Adds the variable of a resource handle to the saved list (once).
local function variable_index(state, handle)
  local id, name, _, _, trainable = core.variable_info(handle)
  local i = state.by_id[id]
  if i then return i end
  i = #state.variables
  state.by_id[id] = i
  local label = state.names[id] or name
  state.variables[i + 1] = { name = label, file = file_name(i, label), trainable = trainable,
    value = core.variable_value(handle) }
  return i
end

-- ---- custom gradients (tf.custom_gradient's IdentityN nodes) ----

-- Whether graph g holds a node with a gradient override.
local function has_custom_gradient(g)
  for _, n in ipairs(core.graph_nodes(g)) do
    if n.type == "IdentityN" and n.attrs._gradient_op_type then return true end
  end
  return false
end

-- The saved function of one custom gradient (custom_gradient.saved_gradients):
-- its arguments are the output gradients, then the forward tensors it
-- reads (fed, once loaded, with the tensors of that name in the
-- forward function's replay); its captures are the eager values and
-- variables it reads.
local function gradient_function(state, gname, found)
  local g = found.cf._graph
  local ins, gouts = core.graph_io(g)
  local nodes = core.graph_nodes(g)
  local new_ins, args, forward, captures, eager = {}, {}, {}, {}, {}
  for i = 1, found.nout do
    new_ins[i], args[i] = ins[i], nodes[ins[i] + 1].name
  end
  for j, c in ipairs(found.cf._captures) do
    local id = ins[found.nout + j]
    if core.is_symbolic(c) then
      new_ins[#new_ins + 1], args[#args + 1], forward[#forward + 1] = id, nodes[id + 1].name, c.name
    else
      eager[#eager + 1] = { id = id, c = c }
    end
  end
  for _, e in ipairs(eager) do
    new_ins[#new_ins + 1] = e.id
    local _, dtype = core.info(e.c)
    captures[#captures + 1] = dtype == dtypes.resource and { variable = variable_index(state, e.c) }
      or { value = e.c }
  end
  core.graph_set_io(g, new_ins, gouts)
  local outs, results = {}, {}
  for i = 1, #gouts do
    outs[i] = "output_" .. (i - 1)
    results[i] = { kind = "tensor", index = i }
  end
  local connected = {}
  for i, c in ipairs(found.connected) do connected[i] = c end
  return { name = gname, graph = g, args = args, captures = captures, outputs = outs,
    structure = core.json_encode({ gradient = true, results = core.json_array(results), n = #gouts,
      forward = core.json_array(forward), connected = core.json_array(connected), nout = found.nout }) }
end

-- The saved gradient functions of concrete function cf (saved as fname):
-- appended to the list `saved`; returns the list {node =, ["function"] =}
-- its structure names them by.
local function save_custom_gradients(state, cf, fname, saved)
  local list = {}
  for k, found in ipairs(custom_gradient.saved_gradients(cf)) do
    local gname = ("%s_gradient_%d"):format(fname, k)
    saved[#saved + 1] = gradient_function(state, gname, found)
    list[k] = { node = found.node, ["function"] = gname }
  end
  return core.json_array(list)
end

-- tf.saved_model.SaveOptions: TF's options of a save. moonflow reads
-- experimental_custom_gradients (default true, as TF's).
local SaveOptions = { __name = "SaveOptions" }
SaveOptions.__index = SaveOptions
SaveOptions.__tostring = function(o)
  return ("SaveOptions(experimental_custom_gradients=%s)"):format(o.experimental_custom_gradients and "True"
    or "False")
end
M.SaveOptions = options.def(function(opts)
  local o = setmetatable({ experimental_custom_gradients = true }, SaveOptions)
  if opts.experimental_custom_gradients ~= nil then
    o.experimental_custom_gradients = opts.experimental_custom_gradients
  end
  return o
end, "tf.saved_model.SaveOptions([{experimental_custom_gradients = true}])",
"Options of tf.saved_model.save: experimental_custom_gradients (default true) saves the gradient of each "
.. "tf.custom_gradient in the saved functions, so the loaded functions' gradients are the custom ones. "
.. "With false only the forward ops are saved (their IdentityN keeps its gradient override): as TF's, "
.. "the process that traced the function still finds the custom gradient in its registry (a grad_fn "
.. "reading forward tensors then fails, their trace having ended), and in a new process differentiating "
.. "the loaded function is TF's LookupError (No gradient defined for operation 'IdentityN').",
{ "experimental_custom_gradients", types = { experimental_custom_gradients = "boolean" } })

M.save = options.def(function(obj, dir, opts)
  -- a module, a plain table of tf.funcs, a tf.func or a concrete function
  if type(obj) ~= "table" and not (func.is_func(obj) or func.is_concrete(obj)) then
    raise("ValueError", ("Expected an object of type `Trackable`, such as `tf.Module` or a subclass of the "
      .. "`Trackable` class, for export. Got %s with type %s."):format(tostring(obj), type(obj)))
  end
  if type(dir) ~= "string" then raise("TypeError", "tf.saved_model.save: dir must be a string") end
  opts = opts or {}
  if opts.options ~= nil and getmetatable(opts.options) ~= SaveOptions then
    raise("TypeError", "tf.saved_model.save: options must be a tf.saved_model.SaveOptions, got "
      .. tostring(opts.options))
  end
  local keep_gradients = not opts.options or opts.options.experimental_custom_gradients
  -- A Keras model saves its call (keras/training.lua): __call and serving_default.
  if opts.signatures == nil and modules.is_module(obj) and obj._saved_model_signatures then
    opts = { signatures = obj:_saved_model_signatures(), options = opts.options }
  end
  local state = { variables = {}, by_id = {}, names = {} }
  if modules.is_module(obj) then
    for i, v in ipairs(obj:variables()) do
      state.names[core.variable_info(v.handle)] = v.name or ("variable_" .. i)
      variable_index(state, v.handle)
    end
  end
  local functions, signatures, seen, methods, untraced = {}, {}, {}, {}, {}
  for _, entry in ipairs(functions_of(obj, opts.signatures)) do
    local name, f = entry[1], entry[2]
    local method = { name = name, concrete = core.json_array({}) }
    methods[#methods + 1] = method
    for k, cf in ipairs(concretes_of(name, f, entry.required, untraced)) do
      local fname = k == 1 and name or (name .. "_" .. (k - 1))
      if seen[fname] then fname = fname .. "_" .. #functions end
      seen[fname] = true
      local g = cf._graph
      local ins = core.graph_io(g)
      local captures = {}
      for i, c in ipairs(cf._captures) do
        local _, dtype = core.info(c)
        if dtype == dtypes.resource then
          captures[i] = { variable = variable_index(state, c) }
        else
          captures[i] = { value = c }
        end
      end
      local nodes = core.graph_nodes(g)
      local args = {}
      for i = 1, #ins - #captures do args[i] = nodes[ins[i] + 1].name end
      local s = cf._structure
      local st = {}
      for i = 1, s.n do st[i] = structure_out(s[i], "'" .. fname .. "'") end
      local outs = {}
      local _, gouts = core.graph_io(g)
      for i = 1, #gouts do outs[i] = "output_" .. (i - 1) end
      local inputs = inputs_of(cf, fname, #args)
      local entry = { name = fname, graph = g, args = args, captures = captures, outputs = outs }
      functions[#functions + 1] = entry
      local grads = keep_gradients and has_custom_gradient(g) and save_custom_gradients(state, cf, fname, functions)
        or nil
      entry.structure = core.json_encode({ results = st, n = s.n, method = name, inputs = inputs,
        custom_gradients = grads })
      method.concrete[#method.concrete + 1] = fname
      if k == 1 and (opts.signatures or #functions == 1) then signatures[name] = fname end
    end
  end
  if not opts.signatures and #functions > 0 and not signatures.serving_default then
    signatures.serving_default = functions[1].name
  end
  core.saved_write(dir, { variables = state.variables, functions = functions, signatures = signatures,
    methods = core.json_encode(core.json_array(methods)) })
  warn_untraced(untraced)
end, "tf.saved_model.save(obj, dir [, {signatures = f or {name = f, ...}, options = tf.saved_model.SaveOptions{...}}])",
"Saves a tf.Module (its variables and the concrete functions of its tf.funcs: its fields, its "
.. "class's tf.func methods bound to it (`M.__call = tf.func(function(self, x) ... end)`: that "
.. "instance's traces), then its submodules' under their paths, `dense_1.__call`) or a tf.func "
.. "(its concrete functions) as a directory: saved_model.json (graphs, signatures, variable "
.. "list) and variables/*.npy. Each trace keeps its Lua-value arguments (numbers, strings, booleans, "
.. "tables of them): the loaded function takes them again. A tf.func of the object never traced "
.. "and without input_signature is saved with no trace, with TF's warning (calling it after "
.. "loading is a ValueError naming it); the object saved or a signature never traced is a "
.. "ValueError. signatures: a function (serving_default) or names to functions; a "
.. "method goes bound (m.f). tf.saved_model.load reads it back without the Lua source. options: "
.. "a tf.saved_model.SaveOptions; with experimental_custom_gradients (the default) each "
.. "tf.custom_gradient's gradient is traced and saved too, and the loaded function's gradient is the "
.. "custom one; with false it is not (see tf.saved_model.SaveOptions).",
{ "signatures", "options", required = 2, types = { signatures = "table", options = "table" } })

-- ---- loading ----

-- Runs a saved graph on feeds, one op at a time through core.op, so the
-- tape records every op and tracing rebuilds the graph.
local replay, override_gradient

-- A custom gradient's node replayed: the IdentityN, recorded by the tapes
-- with the saved gradient function, fed the output gradients and the
-- forward tensors it reads (by their names in this replay).
-- The gradient of a loaded node with a gradient override: its saved
-- gradient function, else (saved with experimental_custom_gradients =
-- false) the override traced in this process (TF's registry), else TF's
-- LookupError when differentiated, as TF's loaded model in a new process.
function override_gradient(n, op_type, grads)
  local saved = grads and grads[n.name]
  if saved then return saved end
  local registered = custom_gradient.registered(op_type)
  if registered then return registered end
  return function()
    error(core.error("LookupError", ("No gradient defined for operation '%s' (op type: %s)")
      :format(n.name, n.type)), 0)
  end
end

local function replay_custom(n, args, gradient, value_of)
  local outs = tapes.stop_recording(function()
    local attrs = { name = n.name }
    for a, v in pairs(n.attrs) do attrs[a] = v end
    return table.pack(core.op(n.type, attrs, table.unpack(args, 1, #n.inputs)))
  end)
  local outputs = table.move(outs, 1, outs.n, 1, {})
  if type(gradient) == "function" then
    tapes.record_custom(args, outputs, gradient)
    return outs
  end
  local saved = gradient
  tapes.record_custom(args, outputs, function(_, dys)
    local grad = saved()
    local feeds = table.move(dys, 1, grad.nout, 1, {})
    for _, name in ipairs(grad.forward) do feeds[#feeds + 1] = value_of(name) end
    local r = table.pack(grad.fn(table.unpack(feeds, 1, #feeds)))
    local out, j = {}, 0
    for k, c in ipairs(grad.connected) do
      if c then
        j = j + 1
        out[grad.nout + k] = r[j]
      end
    end
    return out
  end)
  return outs
end

function replay(nodes, ins, outs, feeds, grads)
  local vals = {}
  for k, id in ipairs(ins) do vals[id] = { feeds[k] } end
  local id_of
  local function value_of(name)
    if not id_of then
      id_of = {}
      for _, m in ipairs(nodes) do id_of[m.name] = m.id end
    end
    local node, idx = name:match("^(.*):(%d+)$")
    return vals[id_of[node]][tonumber(idx) + 1]
  end
  for _, n in ipairs(nodes) do
    if not vals[n.id] then
      local args = {}
      for k, ref in ipairs(n.inputs) do
        local idx = tonumber(ref:match(":(%d+)$"))
        args[k] = vals[n.input_nodes[k]][idx + 1]
      end
      local override = n.type == "IdentityN" and n.attrs._gradient_op_type
      if override then
        vals[n.id] = replay_custom(n, args, override_gradient(n, override, grads), value_of)
      elseif n.type == "PartitionedCall" or n.type == "StatefulPartitionedCall" then
        -- A call of a nested tf.func: its graph replayed in place, so the
        -- tape records its ops too.
        local f = n.attrs.f
        local f_ins, f_outs = core.graph_io(f)
        vals[n.id] = replay(core.graph_nodes(f), f_ins, f_outs, args)
      else
        local attrs = { name = n.name }
        for a, v in pairs(n.attrs) do attrs[a] = v end
        vals[n.id] = table.pack(core.op(n.type, attrs, table.unpack(args, 1, #n.inputs)))
      end
    end
  end
  local results = {}
  for i, r in ipairs(outs) do results[i] = vals[r[1]][r[2] + 1] end
  return results
end

-- The custom gradients of a saved function, by node name: each reads its
-- gradient function's entry (fn, and the structure's nout, forward and
-- connected) among the loaded ones (by_name) when first used.
local function custom_gradients_of(st, by_name)
  if not st.custom_gradients then return nil end
  local grads = {}
  for _, c in ipairs(st.custom_gradients) do
    local fname = c["function"]
    grads[c.node] = setmetatable({}, { __call = function()
      local b = by_name[fname]
      return { fn = b.fn, nout = b.st.nout, forward = b.st.forward, connected = b.st.connected }
    end })
  end
  return grads
end

local function load_function(f, loaded, by_name)
  local nodes = core.graph_nodes(f.graph)
  local ins, outs = core.graph_io(f.graph)
  local nargs = #f.args
  local sig = {}
  for i = 1, nargs do
    local spec = nodes[ins[i] + 1].outputs[1]
    sig[i] = shapes.TensorSpec(spec.shape, spec.dtype, f.args[i])
  end
  local st = f.structure and core.json_decode(f.structure) or { results = {}, n = 0 }
  local grads = custom_gradients_of(st, by_name)
  local fn = function(...)
    local feeds = table.pack(...)
    for k, c in ipairs(f.captures) do
      feeds[nargs + k] = c.variable and loaded[c.variable + 1].handle or c.value
    end
    local flat = replay(nodes, ins, outs, feeds, grads)
    local results = {}
    for i = 1, st.n do results[i] = pack(st.results[i], flat) end
    return table.unpack(results, 1, st.n)
  end
  -- tf.func names parameters after the Lua function's (its errors quote
  -- them): a wrapper with the saved argument names as parameters.
  local params, used = {}, {}
  for i = 1, nargs do
    local p = f.args[i]:gsub("[^%w_]", "_"):gsub("^(%d)", "_%1")
    if used[p] or p == "" or p == "fn" then p = "arg" .. i end
    used[p] = true
    params[i] = p
  end
  local list = table.concat(params, ", ")
  local named = load(("local fn = ...; return function(%s) return fn(%s) end"):format(list, list))(fn)
  return func.func(named, { input_signature = sig, name = f.name }), st, sig
end

-- ---- a loaded tf.func: its traces chosen by their arguments ----

local function literal_in(node)
  if node.float then return node.float == "nan" and 0 / 0 or (node.float == "inf" and math.huge or -math.huge) end
  return node.value
end

-- Does v fit the saved argument node? Tensors for specs go to out[index]
-- (a Lua value converted to the spec's dtype only when `convert`); Lua
-- values must be equal; tables must have the same keys (TF's
-- _concrete_function_callable_with).
local function fits(node, v, sig, convert, out)
  local kind = node.kind
  if kind == "spec" then
    local spec = sig[node.index]
    if not spec then return false end
    local mt = getmetatable(v)
    if type(mt) == "table" and rawget(mt, "__tf_tensor") then
      v = mt.__tf_tensor(v)
    elseif not core.is_tensor(v) then
      if not convert then return false end
      local ok, t = pcall(core.convert, v, spec.dtype)
      if not ok then return false end
      v = t
    end
    if not spec:is_compatible_with(v) then return false end
    out[node.index] = v
    return true
  end
  if kind == "nil" then return v == nil end
  if kind == "literal" then return v == literal_in(node) end
  if kind ~= "table" or type(v) ~= "table" or getmetatable(v) ~= nil then return false end
  local n = 0
  for _ in next, v do n = n + 1 end
  if n ~= #node.array + #node.map then return false end
  for i, x in ipairs(node.array) do
    if v[i] == nil and x.kind ~= "nil" then return false end
    if not fits(x, v[i], sig, convert, out) then return false end
  end
  for _, e in ipairs(node.map) do
    local x = v[e.key]
    if x == nil then return false end
    if not fits(e.value, x, sig, convert, out) then return false end
  end
  return true
end

-- Lua values as TF prints the Python values of its error (repr).
local function float_text(v)
  if v ~= v then return "nan" end
  if v == math.huge then return "inf" end
  if v == -math.huge then return "-inf" end
  -- The fewest digits that read back as v, then Python's layout:
  -- exponent form outside [1e-4, 1e16), else at least one decimal.
  local e
  for p = 1, 17 do
    e = ("%." .. (p - 1) .. "e"):format(v)
    if tonumber(e) == v then break end
  end
  local digits = #e:match("^-?([%d.]*)e"):gsub("%.", "")
  local exp = tonumber(e:match("e([-+]%d+)$"))
  if exp < -4 or exp >= 16 then return e end
  return ("%." .. math.max(digits - 1 - exp, 1) .. "f"):format(v)
end

local repr
local function table_repr(v)
  local n = #v
  local keys = {}
  for k in next, v do
    if not (math.type(k) == "integer" and k >= 1 and k <= n) then keys[#keys + 1] = k end
  end
  if #keys == 0 then
    local parts = {}
    for i = 1, n do parts[i] = repr(v[i]) end
    return "[" .. table.concat(parts, ", ") .. "]"
  end
  table.sort(keys, function(a, b)
    if type(a) ~= type(b) then return type(a) == "number" end
    if type(a) == "number" or type(a) == "string" then return a < b end
    return tostring(a) < tostring(b)
  end)
  local parts = {}
  for i = 1, n do parts[i] = i .. ": " .. repr(v[i]) end
  for _, k in ipairs(keys) do parts[#parts + 1] = repr(k) .. ": " .. repr(v[k]) end
  return "{" .. table.concat(parts, ", ") .. "}"
end

function repr(v)
  local tv = type(v)
  if v == nil then return "None" end
  if tv == "boolean" then return v and "True" or "False" end
  if math.type(v) == "float" then return float_text(v) end
  if tv == "string" then
    return "'" .. v:gsub("\\", "\\\\"):gsub("'", "\\'"):gsub("\n", "\\n") .. "'"
  end
  if tv == "table" and getmetatable(v) == nil then return table_repr(v) end
  return tostring(v)
end

-- A saved argument node as the value it stands for (specs as TensorSpecs).
local function node_value(node, sig)
  if node.kind == "spec" then return sig[node.index] end
  if node.kind == "literal" then return literal_in(node) end
  if node.kind ~= "table" then return nil end
  local t = {}
  for i, x in ipairs(node.array) do t[i] = node_value(x, sig) end
  for _, e in ipairs(node.map) do t[e.key] = node_value(e.value, sig) end
  return t
end

local function positional_text(values, n)
  local parts = {}
  for i = 1, n do parts[i] = repr(values[i]) end
  return ("Positional arguments (%d total):\n    * %s"):format(n, table.concat(parts, "\n    * "))
end

local function no_match(options, args)
  local lines = {}
  for i, o in ipairs(options) do
    local values = {}
    for k, node in ipairs(o.inputs) do values[k] = node_value(node, o.sig) end
    lines[i] = ("Option %d:\n  %s\n  Keyword arguments: {}"):format(i, positional_text(values, #o.inputs))
  end
  return ("Could not find matching concrete function to call loaded from the SavedModel. Got:\n  %s\n"
    .. "  Keyword arguments: {}\n\n Expected these arguments to match one of the following %d "
    .. "option(s):\n\n%s"):format(positional_text(args, args.n), #options, table.concat(lines, "\n\n"))
end

-- The loaded tf.func `name`: its traces (options), each with its saved
-- arguments (inputs) and the tf.func replaying its graph on the tensors
-- (fn). As TF's restored function: the first trace the arguments fit as
-- they are, else the first they fit once Lua values are converted to
-- tensors; none is TF's ValueError listing them; no trace at all (a
-- tf.func saved untraced) is TF's "Found zero restored functions".
local function restored(name, options)
  if #options == 0 then
    return function()
      error(core.error("ValueError", ("Found zero restored functions for caller function. ('%s' was "
        .. "saved without a trace: it had never been called and has no input_signature. Call it "
        .. "once, or give it an input_signature, before tf.saved_model.save.)"):format(name)), 2)
    end
  end
  if #options == 1 then
    -- One trace taking tensors only: the tf.func itself, whose errors
    -- are tf.func's binding errors.
    local o, plain = options[1], #options[1].inputs == #options[1].sig
    for i, node in ipairs(o.inputs) do plain = plain and node.kind == "spec" and node.index == i end
    if plain then return o.fn end
  end
  return function(...)
    local args = table.pack(...)
    for _, convert in ipairs({ false, true }) do
      for _, o in ipairs(options) do
        local tensors, ok = {}, args.n <= #o.inputs
        for i, node in ipairs(o.inputs) do
          if ok then ok = fits(node, args[i], o.sig, convert, tensors) end
        end
        if ok then return o.fn(table.unpack(tensors, 1, #o.sig)) end
      end
    end
    error(core.error("ValueError", no_match(options, args)), 2)
  end
end

-- A submodule's function, saved under its path ("dense_1.__call",
-- "layers.1.__call"), is also reached through that path: the tables on
-- the way are made (and listed in holders).
local function place(root, path, fn, holders)
  local parts = {}
  for part in path:gmatch("[^.]+") do parts[#parts + 1] = math.tointeger(tonumber(part)) or part end
  local t = root
  for i = 1, #parts - 1 do
    local next_t = rawget(t, parts[i])
    if next_t == nil then
      next_t = {}
      rawset(t, parts[i], next_t)
      holders[#holders + 1] = next_t
    end
    if type(next_t) ~= "table" then return end
    t = next_t
  end
  rawset(t, parts[#parts], fn)
end

M.load = doc.def(function(dir)
  if type(dir) ~= "string" then raise("TypeError", "tf.saved_model.load: dir must be a string") end
  local data = core.saved_read(dir)
  local obj = { signatures = {}, _variables = {} }
  for i, v in ipairs(data.variables) do
    obj._variables[i] = variables.Variable(v.value, { name = v.name, trainable = v.trainable })
  end
  local by_name = {}
  for _, f in ipairs(data.functions) do
    local lf, st, sig = load_function(f, obj._variables, by_name)
    by_name[f.name] = { fn = lf, st = st, sig = sig }
    -- a custom gradient's function is the loaded functions' business
    if not st.gradient then obj[f.name] = lf end
  end
  local methods = data.methods and core.json_decode(data.methods)
  if not methods then
    -- Version 1: the traces' structures name their tf.func.
    methods = {}
    local of = {}
    for _, f in ipairs(data.functions) do
      local method = by_name[f.name].st.method
      if method then
        if not of[method] then
          of[method] = { name = method, concrete = {} }
          methods[#methods + 1] = of[method]
        end
        table.insert(of[method].concrete, f.name)
      end
    end
  end
  local order = {}
  for _, m in ipairs(methods) do
    local options = {}
    for i, fname in ipairs(m.concrete) do
      local b = by_name[fname]
      local inputs = b.st.inputs
      if not inputs then
        inputs = {}
        for k = 1, #b.sig do inputs[k] = { kind = "spec", index = k } end
      end
      options[i] = { fn = b.fn, sig = b.sig, inputs = inputs }
    end
    obj[m.name] = restored(m.name, options)
    order[#order + 1] = m.name
  end
  for sig, fname in pairs(data.signatures) do obj.signatures[sig] = by_name[fname].fn end
  local holders = { obj }
  for _, method in ipairs(order) do
    if method:find(".", 1, true) then place(obj, method, obj[method], holders) end
  end
  for _, t in ipairs(holders) do
    local call = rawget(t, "__call")
    if call then
      -- A saved __call makes the loaded object callable, as TF's loaded
      -- module with a tf.function __call__.
      setmetatable(t, { __call = function(_, ...) return call(...) end })
    end
  end
  obj.variables = function() return table.move(obj._variables, 1, #obj._variables, 1, {}) end
  obj.trainable_variables = function()
    local out = {}
    for _, v in ipairs(obj._variables) do if v.trainable then out[#out + 1] = v end end
    return out
  end
  return obj
end, "tf.saved_model.load(dir)",
"Loads a directory written by tf.saved_model.save: an object whose fields are the saved functions "
.. "(tf.funcs checking their saved argument specs; a saved __call makes the object callable), with a `signatures` table and its variables "
.. "restored as tf.Variables (obj.variables(), obj.trainable_variables()) that train further: "
.. "gradients flow through the loaded functions.")

-- ---- tf.train.Checkpoint ----

local Checkpoint = { __name = "Checkpoint" }
receiver.metatable(Checkpoint, "checkpoint")
Checkpoint.__index = Checkpoint

-- The variables of the checkpoint's objects, as {key, variable} in a fixed
-- order: "name" for a variable, "name/i" for a module's i-th variable.
local function checkpoint_vars(ckpt)
  local keys = {}
  for k in pairs(ckpt._objects) do keys[#keys + 1] = k end
  table.sort(keys)
  local out = {}
  for _, k in ipairs(keys) do
    local o = ckpt._objects[k]
    if variables.is_variable(o) then
      out[#out + 1] = { k, o }
    elseif modules.is_module(o) then
      for i, v in ipairs(o:variables()) do out[#out + 1] = { k .. "/" .. i, v } end
    else
      raise("TypeError", ("tf.train.Checkpoint: '%s' is not a tf.Variable or tf.Module"):format(k))
    end
  end
  return out
end

Checkpoint.write = doc.def(function(self, path)
  local vars = {}
  for i, e in ipairs(checkpoint_vars(self)) do
    vars[i] = { name = e[1], file = file_name(i - 1, e[1]), trainable = e[2].trainable,
      value = core.variable_value(e[2].handle) }
  end
  core.saved_write(path, { variables = vars, functions = {}, signatures = {} })
  return path
end, "ckpt:write(path)", "Writes the checkpoint's variables to the directory `path` (saved_model.json + .npy files).")

-- A module saved with n variables and read into an instance that has
-- fewer (a Keras layer or model makes its variables on its first call)
-- would keep its fresh random weights: refused, never silent. TF defers
-- such a restore until the variables exist; moonflow asks for the call.
local function check_created(self, saved, path)
  for k, o in pairs(self._objects) do
    if modules.is_module(o) then
      local n, have = 0, #o:variables()
      while saved[k .. "/" .. (n + 1)] do n = n + 1 end
      if have < n then
        raise("FailedPreconditionError", ("tf.train.Checkpoint: '%s' has %d variable%s but the checkpoint at %s "
          .. "holds %d for it: its variables are made on its first call. Call it once (e.g. %s(x)) before "
          .. "ckpt:read: moonflow does not defer a restore until the variables exist."):format(
          k, have, have == 1 and "" or "s", path, n, k))
      end
    end
  end
end

Checkpoint.read = doc.def(function(self, path)
  local data = core.saved_read(path)
  local saved = {}
  for _, v in ipairs(data.variables) do saved[v.name] = v.value end
  check_created(self, saved, path)
  for _, e in ipairs(checkpoint_vars(self)) do
    local value = saved[e[1]]
    if not value then
      raise("NotFoundError", ("tf.train.Checkpoint: '%s' is not in the checkpoint at %s"):format(e[1], path))
    end
    e[2]:assign(value)
  end
  return self
end, "ckpt:read(path)",
"Restores the checkpoint's variables from the directory `path` (assign: shapes and dtypes must match). "
.. "A module whose variables are made on its first call (a Keras layer or model) must be called once "
.. "before: reading into it earlier is a FailedPreconditionError, never a silent no-op.")

M.Checkpoint = doc.def(function(objects)
  objects = objects or {}
  if type(objects) ~= "table" or getmetatable(objects) ~= nil then
    raise("TypeError", ("tf.train.Checkpoint expects a table {name = variable_or_module, ...}, got %s")
      :format(tostring(objects)))
  end
  -- refused when made, as TF's constructor does, not at the first write
  for k, o in pairs(objects) do
    if not (variables.is_variable(o) or modules.is_module(o)) then
      raise("ValueError", ("`Checkpoint` was expecting %s to be a trackable object (an object derived from "
        .. "`Trackable`), got %s. A checkpoint holds tf.Variables and tf.Modules."):format(tostring(k), tostring(o)))
    end
  end
  return setmetatable({ _objects = objects }, Checkpoint)
end, "tf.train.Checkpoint{name = variable_or_module, ...}",
"Variables alone, saved and restored: ckpt:write(path) / ckpt:read(path), for training stopped and resumed.")

return M
