-- runtime.lua — what converted code calls (the `ag__` table). Each helper
-- looks at its values at trace time: a symbolic tensor condition or
-- iterable makes graph control flow (tf.cond, tf.while_loop); anything
-- else runs as the plain Lua statement it came from.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local dtypes = require("moonflow.tensor.dtypes")
local shapes = require("moonflow.tensor.shape")
local ops = require("moonflow.ops")
local tensors = require("moonflow.tensor.tensor")
local control_flow = require("moonflow.ops.control")
local state = require("moonflow.state")
local structure = require("moonflow.data.structure")
local iterators = require("moonflow.data.iterator")
local raise = errors.raise

local ag = {}

local function is_tensor(x) return core.is_tensor(x) end
local function is_symbolic(x) return core.is_symbolic(x) end
local function is_tensor_like(x)
  if core.is_tensor(x) then return true end
  local mt = getmetatable(x)
  return mt ~= nil and mt.__tf_tensor ~= nil
end
local value = tensors.value

-- In converted code a bool tensor is a condition: a traced one makes
-- graph control flow, an eager one counts by its value. Any other value —
-- numeric tensors included — has Lua's truth (only nil and false are
-- false), so idioms like `acc = acc and acc + x or x` keep their meaning.
local function is_bool_tensor(x)
  return core.is_tensor(x) and core.dtype(x) == dtypes.bool
end
local function is_graph_cond(x)
  return is_bool_tensor(x) and core.is_symbolic(x)
end

local function truth(x)
  if is_bool_tensor(x) then
    local _, _, shape = core.info(x)
    if #shape ~= 0 then
      raise("ValueError", "The truth value of a bool tensor with more than one element is ambiguous. "
        .. "Use tf.reduce_any or tf.reduce_all.", 3)
    end
    return core.element(x, 0)
  end
  return x ~= nil and x ~= false
end

-- Functions that converted code makes are converted already.
ag._made = setmetatable({}, { __mode = "k" })
function ag.mark(f)
  ag._made[f] = true
  return f
end

ag.pack = table.pack
function ag.unpack(t) return table.unpack(t, 1, t.n) end

-- `return f(x)` converted is `return ag__.ret(f(x))`: f(x) is then no tail
-- call, so the frame of the line that made f's ops is still on the stack
-- when they are traced (each node records its line: trace/node_source.lua).
function ag.ret(...) return ... end
-- Return values a loop carries: a plain list (a graph loop turns every
-- number in it into a tensor, a count field included).
function ag.pack_list(...) return { ... } end
function ag.unpack_list(t) return table.unpack(t) end

-- Comparisons: tensor ops when a tensor is involved (and the other side
-- is a tensor, number or string), Lua's operators otherwise.
local function numeric_peer(x)
  local t = type(x)
  return t == "number" or t == "string" or is_tensor_like(x)
end
local function compare(tf_name, lua_op)
  return function(a, b)
    -- Two Lua numbers (a loop counter's test): Lua's operator, at once.
    if type(a) == "number" and type(b) == "number" then return lua_op(a, b) end
    if (is_tensor_like(a) or is_tensor_like(b)) and numeric_peer(a) and numeric_peer(b) then
      return ops[tf_name](value(a), value(b))
    end
    local ta = type(a)
    if ta == type(b) and (ta == "number" or ta == "string") then return lua_op(a, b) end
    -- Lua's own error, at the user's line rather than this file's.
    local ok, r = pcall(lua_op, a, b)
    if ok then return r end
    if type(r) == "string" then error((r:gsub("^[^\n]-:%d+: ", "")), 2) end
    error(r, 0)
  end
end
ag.lt = compare("less", function(a, b) return a < b end)
ag.le = compare("less_equal", function(a, b) return a <= b end)
ag.gt = compare("greater", function(a, b) return a > b end)
ag.ge = compare("greater_equal", function(a, b) return a >= b end)
ag.eq = compare("equal", function(a, b) return a == b end)
ag.ne = compare("not_equal", function(a, b) return a ~= b end)

local function as_bool(x)
  x = value(x)
  if not core.is_tensor(x) then return ops.constant(x ~= nil and x ~= false) end
  if core.dtype(x) ~= dtypes.bool then return ops.cast(x, dtypes.bool) end
  return x
end

function ag.and_(a, b_fn)
  local v = value(a)
  if is_graph_cond(v) then return ops.logical_and(v, as_bool(b_fn())) end
  if truth(v) then return b_fn() end
  return a
end

function ag.or_(a, b_fn)
  local v = value(a)
  if is_graph_cond(v) then return ops.logical_or(v, as_bool(b_fn())) end
  if truth(v) then return a end
  return b_fn()
end

function ag.not_(a)
  local v = value(a)
  if is_graph_cond(v) then return ops.logical_not(v) end
  return not truth(v)
end

-- A condition used by a statement AutoGraph could not turn into graph
-- control flow: fine as a Lua value, a clear error as a traced tensor.
function ag.bool(c, line, kind, why)
  c = value(c)
  if is_graph_cond(c) then
    raise("TypeError", ("line %d: this `%s` has a traced tensor condition (%s) but cannot become %s: "
      .. "its body has %s. Make the loop a graph loop (`for i in tf.range(n)`, `while` on a tensor), "
      .. "restructure it, or make the condition a Lua value."):format(line, kind or "if",
      tensors.symbolic_text(c), kind == "while" and "tf.while_loop" or "tf.cond",
      why or "a `return`, `goto` or `break` AutoGraph cannot convert"), 2)
  end
  return truth(c)
end

-- Calls (ag.callee, ag.bind) convert the functions they call: they are
-- moonflow.autograph's (init.lua), which owns the conversion.

-- Carried values ---------------------------------------------------------

local function describe(v)
  if v == nil then return "nil" end
  if is_tensor(v) then
    local _, dtype, shape = core.info(v)
    return ("a %s tensor of shape %s"):format(dtype.name, tostring(shapes.TensorShape(shape)))
  end
  return ("the Lua %s %s"):format(type(v), tostring(v))
end

-- Both branches of a tensor `if` must leave every carried local defined
-- (and of one kind).
-- TF's wording first: "'i' must also be initialized in the else branch"
-- for a local the `if` creates, "'i' is None" for one it sets to nil (a
-- Lua nil is Python's None).
local function check_branch_values(names, line, a, b, before)
  for i, name in ipairs(names) do
    local x, y = a[i], b[i]
    if (x == nil) ~= (y == nil) or (x == nil and not name:match("^ag__")) then
      local lead
      if before[i] ~= nil or (x == nil and y == nil) then
        lead = ("'%s' is None (nil) after the %s"):format(name,
          x == nil and y == nil and "then- and else-branch" or (x == nil and "then-branch" or "else-branch"))
      else
        lead = ("'%s' must also be initialized in the %s branch"):format(name, x == nil and "main" or "else")
      end
      raise("ValueError", ("%s: local '%s' is %s after the then-branch but %s after the else-branch of "
        .. "the `if` at line %d (its condition is a tensor, so both branches are traced and both "
        .. "must define it). Initialize '%s' before the `if`."):format(lead, name,
        describe(x), describe(y), line, name), 4)
    end
  end
end

-- A loop's return values (ag__rv_*) have no value until a `return` runs,
-- but a graph cond or loop must carry a value of a fixed type from the
-- start. As TF does for undefined loop variables, trace the statement
-- once in a throwaway graph to learn their types, then start them at
-- zero of those types (never seen: the `return` flag is false then).
local function zero_like(v)
  if is_tensor(v) then
    local _, dtype, shape = core.info(v)
    local dims = {}
    for i, d in ipairs(shape or {}) do dims[i] = d < 0 and 0 or d end
    return ops.zeros(dims, dtype)
  elseif math.type(v) == "integer" then return 0
  elseif type(v) == "number" then return 0.0
  elseif type(v) == "boolean" then return false
  elseif type(v) == "table" then
    local z = {}
    for key, x in pairs(v) do z[key] = zero_like(x) end
    return z
  end
  return v
end

-- Fills the return values and flag in vals, in place; returns the set of
-- nil values the statement never assigns (with `all`: of every name; a
-- local of the user's that the body does assign stays nil, for
-- check_defined's error: TF asserts at run time that such a loop ran
-- once, moonflow asks for a value before the loop).
local function fill_undefined(names, vals, dry_run, all, created)
  local missing, absent = {}, {}
  for i, name in ipairs(names) do
    if vals[i] == nil and (all or name:match("^ag__rv_") or name:match("^ag__ret_")) then
      missing[#missing + 1] = i
    end
  end
  if #missing == 0 then return absent end
  core.trace_begin("autograph_undefined")
  local ok, outs = pcall(dry_run, vals)
  core.trace_abort()
  if not ok and created and type(outs) == "string" then
    -- The body read a local that is nil before the loop (Lua's own
    -- error): TF's typed error for a loop variable used undefined.
    local users = {}
    for _, i in ipairs(missing) do
      if not names[i]:match("^ag__") then users[#users + 1] = "'" .. names[i] .. "'" end
    end
    if #users > 0 then
      raise("ValueError", ("%s must be defined before the loop: it is nil before this graph loop "
        .. "and its body uses it before giving it a value (%s)"):format(table.concat(users, ", "), outs), 3)
    end
  end
  if not ok then error(outs, 0) end
  for _, i in ipairs(missing) do
    local assigned = false
    for _, out in ipairs(outs) do
      if out[i] ~= nil then
        assigned = true
        if vals[i] == nil and names[i]:match("^ag__re?[tv]_") then vals[i] = zero_like(out[i])
        elseif vals[i] == nil and created then
          -- TF's placeholder for a variable the loop creates: its value is
          -- never seen unless the loop runs, which an Assert checks.
          vals[i] = zero_like(out[i])
          -- TF relaxes a placeholder's unknown dimensions (its shape is
          -- what the first iteration gives, not the zeros standing in).
          if is_tensor(out[i]) then
            local _, _, shape = core.info(out[i])
            for _, d in ipairs(shape or {}) do
              if d < 0 then created.invariants[i] = shape break end
            end
          end
        end
        if created and not names[i]:match("^ag__ret_") and not created.seen[i] then
          created.seen[i] = true
          created[#created + 1] = names[i]:match("^ag__rv_") and "the return value" or ("'" .. names[i] .. "'")
        end
      end
    end
    if not assigned then absent[i] = true end
  end
  return absent
end

-- A loop over the carried values that are not absent: returns their
-- names and values, a wrapper making a function of all values into one
-- of the present ones (`lead` leading arguments pass as they are; a
-- `cond` returns its own value), and a function expanding results.
local function present_only(opts, vals, absent)
  local names, n = opts.names, #opts.names
  local keep = {}
  for i = 1, n do if not absent[i] then keep[#keep + 1] = i end end
  local pnames, pvals = {}, { n = #keep }
  for j, i in ipairs(keep) do pnames[j], pvals[j] = names[i], vals[i] end
  local function full(list)
    local all = {}
    for j, i in ipairs(keep) do all[i] = list[j] end
    return all
  end
  local function wrap(fn, lead, cond)
    return function(...)
      local args = table.pack(...)
      local all = full(table.move(args, lead + 1, args.n, 1, {}))
      local fargs = table.move(args, 1, lead, 1, {})
      for i = 1, n do fargs[lead + i] = all[i] end
      if cond then return fn(table.unpack(fargs, 1, lead + n)) end
      local out = table.pack(fn(table.unpack(fargs, 1, lead + n)))
      for i in pairs(absent) do
        if out[i] ~= nil then
          raise("ValueError", ("local '%s' is nil before the loop at line %d and only gets a value in "
            .. "some iterations; the loop runs in the graph, so every variable it assigns must have a "
            .. "value before it. Initialize '%s' before the loop."):format(names[i], opts.line, names[i]), 2)
        end
      end
      local res = {}
      for j, i in ipairs(keep) do res[j] = out[i] end
      return table.unpack(res, 1, #keep)
    end
  end
  local popts = {}
  for k, v in pairs(opts) do popts[k] = v end
  popts.names = pnames
  return popts, pvals, wrap, full
end

local function carried_to_outputs(vals, n)
  -- nil locals can't be graph values: pass a marker the branches keep.
  local out = {}
  for i = 1, n do out[i] = vals[i] end
  return out
end

function ag.if_stmt(c, then_fn, else_fn, opts, ...)
  -- A Lua boolean or nil (a comparison of Lua values): a plain `if`, with
  -- none of the bookkeeping a tensor condition needs.
  local tc = type(c)
  if tc == "boolean" or tc == "nil" then
    if c then return then_fn(...) end
    return else_fn(...)
  end
  local n = #opts.names
  local vals = table.pack(...)
  c = value(c)
  if not is_graph_cond(c) then
    if truth(c) then return then_fn(...) end
    return else_fn(...)
  end
  fill_undefined(opts.names, vals, function(v)
    return { table.pack(then_fn(table.unpack(v, 1, v.n))), table.pack(else_fn(table.unpack(v, 1, v.n))) }
  end)
  -- Trace each branch once to learn what it leaves in each local.
  local seen = {}
  local function branch(fn, which)
    return function()
      local out = table.pack(fn(table.unpack(vals, 1, vals.n)))
      seen[which] = out
      local defined = {}
      for i = 1, n do
        local v = out[i]
        if type(v) == "string" then
          raise("TypeError", ("local '%s' is the Lua string %q after a branch of the `if` at line %d; "
            .. "a tensor `if` can only carry tensors, numbers and booleans"):format(opts.names[i], v, opts.line), 3)
        end
        defined[i] = v
      end
      return table.unpack(carried_to_outputs(defined, n), 1, n)
    end
  end
  local ok, res = pcall(function()
    return table.pack(control_flow.cond(c, branch(then_fn, 1), branch(else_fn, 2)))
  end)
  if seen[1] and seen[2] then check_branch_values(opts.names, opts.line, seen[1], seen[2], vals) end
  if not ok then error(res, 0) end
  return table.unpack(res, 1, n)
end

function ag.if_return(c, then_fn, else_fn, opts, set, ...)
  c = value(c)
  if not is_graph_cond(c) then
    if truth(c) then return then_fn() end
    return else_fn()
  end
  local vals = table.pack(...)
  local function reset()
    if set then set(table.unpack(vals, 1, vals.n)) end
  end
  local counts = {}
  local function branch(fn, which)
    return function()
      reset()
      local out = table.pack(fn())
      counts[which] = out.n
      return table.unpack(out, 1, out.n)
    end
  end
  local ok, res = pcall(function() return table.pack(control_flow.cond(c, branch(then_fn, 1), branch(else_fn, 2))) end)
  reset()
  if not ok then
    if counts[1] and counts[2] and counts[1] ~= counts[2] then
      -- TF's wording first, then what moonflow saw.
      raise("ValueError", ("%s branch must also have a return statement: the `if` at line %d has a "
        .. "tensor condition, so both branches are traced, "
        .. "but the then-branch returns %d value(s) and the else-branch %d. Both must return the "
        .. "same values (a branch that falls off the end returns none)."):format(
        counts[1] > counts[2] and "else" or "main", opts.line, counts[1], counts[2]), 2)
    end
    error(res, 0)
  end
  return table.unpack(res, 1, res.n)
end

-- Loops -------------------------------------------------------------------

local function loop_var_names(opts)
  local names = {}
  for i, n in ipairs(opts.names) do
    names[i] = n:match("^ag__") and "the loop's break flag" or
      ("local '%s' (loop at line %d)"):format(n, opts.line)
  end
  return names
end

local function check_defined(opts, vals)
  for i, name in ipairs(opts.names) do
    if vals[i] == nil then
      raise("ValueError", ("local '%s' is nil before the loop at line %d, but the loop's condition is "
        .. "a tensor, so the loop runs in the graph and every variable it assigns must have a value "
        .. "before it. Initialize '%s' before the loop."):format(name, opts.line, name), 4)
    end
    if type(vals[i]) == "string" then
      raise("TypeError", ("local '%s' is a Lua string; a graph loop can only carry tensors, numbers "
        .. "and booleans (loop at line %d)"):format(name, opts.line), 4)
    end
  end
end

local graph_while

-- graph_while takes invariants per flat tensor: only when no loop
-- variable is a table is that the loop variable's index.
local function flat_invariants(invariants, loop_vars)
  if next(invariants) == nil then return nil end
  for i = 1, loop_vars.n do
    if type(loop_vars[i]) == "table" and not is_tensor(loop_vars[i]) then return nil end
  end
  return invariants
end

-- TF's check for variables a graph loop creates (undefined before it):
-- legal when the loop runs at least once, else InvalidArgumentError at
-- run time ("loop must iterate at least once to initialize ...").
local function assert_iterated(ran, created, line)
  core.op(state.H.Assert, { message = ("loop must iterate at least once to initialize %s (the loop "
    .. "at line %d runs in the graph, and its body gives %s its first value)"):format(
    table.concat(created, ", "), line, #created > 1 and "them" or "it") }, ran)
end

function graph_while(cond_fn, body_fn, opts, vals)
  local n = #opts.names
  local created = { seen = {}, invariants = {} }
  local absent = fill_undefined(opts.names, vals, function(v)
    -- The graph loop carries Lua numbers as tensors of unknown value: so
    -- does the dry run, or shapes it derives from them look static.
    local args = {}
    for i = 1, n do
      local x = v[i]
      if math.type(x) == "integer" then x = core.placeholder("dry_" .. i, dtypes.int32, {})
      elseif math.type(x) == "float" then x = core.placeholder("dry_" .. i, dtypes.float32, {}) end
      args[i] = x
    end
    return { table.pack(body_fn(table.unpack(args, 1, n))) }
  end, true, created)
  if next(absent) then
    local popts, pvals, wrap, full = present_only(opts, vals, absent)
    local outs = table.pack(graph_while(wrap(cond_fn, 0, true), wrap(body_fn, 0), popts, pvals))
    return table.unpack(full(outs), 1, n)
  end
  check_defined(opts, vals)
  local loop_vars = table.move(vals, 1, n, 1, {})
  local names = loop_var_names(opts)
  if #created > 0 then
    loop_vars[n + 1] = false
    names[n + 1] = "the loop's ran-once flag"
  end
  loop_vars.n = #names
  local outs = table.pack(control_flow.graph_while(function(...)
    return cond_fn(table.unpack(table.pack(...), 1, n))
  end, function(...)
    local out = table.pack(body_fn(table.unpack(table.pack(...), 1, n)))
    for i, name in ipairs(opts.names) do
      if out[i] == nil then
        raise("ValueError", ("local '%s' becomes nil in the body of the loop at line %d; a graph "
          .. "loop's variables must keep a value"):format(name, opts.line), 2)
      end
    end
    if #created > 0 then out[n + 1] = true end
    return table.unpack(out, 1, #names)
  end, loop_vars, { _names = names, _invariants = flat_invariants(created.invariants, loop_vars) }))
  if #created > 0 then assert_iterated(outs[n + 1], created, opts.line) end
  return table.unpack(outs, 1, n)
end

function ag.while_stmt(cond_fn, body_fn, opts, ...)
  local vals = table.pack(...)
  local n = #opts.names
  while true do
    local c = value(cond_fn(table.unpack(vals, 1, n)))
    if is_graph_cond(c) then
      -- From here on the loop is a graph loop (what already ran was
      -- unrolled while tracing).
      return graph_while(cond_fn, body_fn, opts, vals)
    end
    if not truth(c) then break end
    vals = table.pack(body_fn(table.unpack(vals, 1, n)))
  end
  return table.unpack(vals, 1, n)
end

-- A Lua loop's break flag: a traced tensor cannot stop a Lua loop (TF:
-- "break and return statements which depend on a TF condition are not
-- supported in Python for loops").
local function lua_loop_stops(v, line)
  v = value(v)
  if is_graph_cond(v) then
    raise("TypeError", ("line %d: a `break` or `return` that depends on a tensor condition cannot stop "
      .. "this Lua loop (a `for` over a Lua iterator or a numeric `for`, run while tracing). Make it a "
      .. "graph loop: `for i in tf.range(n) do`, `for x in tensor do` or a `while` on a tensor."):format(line), 3)
  end
  return truth(v)
end

-- `for names in exprs`: a tensor iterates over its rows in a graph loop;
-- anything else is Lua's generic for.
-- The element the dry run of a tensor `for` body sees: a placeholder of
-- the element's type when the tensor is statically empty (t[0] would fail
-- at trace time; TF fails such a loop only at run time, if it must).
local function first_element(t)
  local _, dtype, shape = core.info(t)
  if not shape or shape[1] ~= 0 then return t[ops.constant(0)] end
  local dims = {}
  for i = 2, #shape do dims[i - 1] = shape[i] < 0 and 0 or shape[i] end
  return ops.zeros(dims, dtype)
end

-- `for x in ds do` over a tf.data.Dataset (or an iterator of one) while
-- tracing: one graph loop over an iterator made in the graph, as TF's
-- AutoGraph builds it; the loop carries the next element as an optional
-- (the graph does not grow with the number of elements).

-- The element of ds as placeholders, for a throwaway trace of the body.
local function placeholder_element(ds)
  local flat = {}
  for i, spec in ipairs(ds._specs) do flat[i] = core.placeholder("element_" .. i, spec.dtype, spec.shape) end
  return structure.pack(ds._structure, flat)
end

-- The most specific shape both fit: dims kept where equal; nil (any
-- rank) when the ranks differ or one is unknown.
local function join_shapes(a, b)
  if a == nil or b == nil or #a ~= #b then return nil end
  local out = {}
  for i = 1, #a do out[i] = a[i] == b[i] and a[i] or -1 end
  return out
end

local function same_shape(a, b)
  if a == nil or b == nil then return a == b end
  if #a ~= #b then return false end
  for i = 1, #a do if a[i] ~= b[i] then return false end end
  return true
end

-- As TF's dataset loop (a reduce), the carried tensors' shapes relax until
-- the body keeps them: throwaway traces of the body find, per carried
-- value, the shape it needs (false: any rank), or nothing when none changes.
local function relaxed_shapes(ds, body_fn, n, vals, args)
  local inv, any = {}, false
  for _ = 1, 3 do
    core.trace_begin("autograph_dataset_shapes")
    local ok, outs = pcall(function()
      local a = table.pack(args(placeholder_element(ds)))
      for i = 1, n do
        local v = vals[i]
        if inv[i] ~= nil and is_tensor(v) then
          v = core.placeholder("carried_" .. i, core.dtype(v), inv[i] or nil)
        end
        a[a.n + i] = v
      end
      return table.pack(body_fn(table.unpack(a, 1, a.n + n)))
    end)
    core.trace_abort()
    if not ok then return nil end -- the real trace reports it
    local again = false
    for i = 1, n do
      if is_tensor(vals[i]) and is_tensor(outs[i]) then
        local _, _, before = core.info(vals[i])
        if inv[i] ~= nil then before = inv[i] or nil end
        local _, _, after = core.info(outs[i])
        local joined = join_shapes(before, after)
        if not same_shape(joined, before) then
          inv[i] = joined or false
          again, any = true, true
        end
      end
    end
    if not again then break end
  end
  return any and inv or nil
end

local function dataset_for(ds, body_fn, opts, vals, brk_index)
  local n = #opts.names
  local function args(element)
    if opts.nnames > 1 and ds._structure.kind == "tuple" then
      return table.unpack(element, 1, #ds._structure.items)
    end
    return element
  end
  local created = { seen = {}, invariants = {} }
  local absent = fill_undefined(opts.names, vals, function(v)
    local a = table.pack(args(placeholder_element(ds)))
    for i = 1, n do a[a.n + i] = v[i] end
    return { table.pack(body_fn(table.unpack(a, 1, a.n + n))) }
  end, true, created)
  if next(absent) then
    local popts, pvals, wrap, full = present_only(opts, vals, absent)
    local outs = table.pack(dataset_for(ds, wrap(body_fn, opts.nnames), popts, pvals, brk_index))
    return table.unpack(full(outs), 1, n)
  end
  check_defined(opts, vals)
  if #created > 0 then
    raise("ValueError", ("line %d: a loop over a dataset must not create %s: give it a value before "
      .. "the loop"):format(opts.line, table.concat(created, ", ")), 3)
  end
  local all = { nil }
  for i = 1, n do all[i + 1] = vals[i] end
  all.n = n + 1
  local relaxed = relaxed_shapes(ds, body_fn, n, vals, args)
  local invariants
  if relaxed then
    invariants = {}
    for i, shape in pairs(relaxed) do invariants[i + 1] = shape end
    all[1] = false -- a stand-in: flat_invariants refuses tables, the optional is a tensor
    invariants = flat_invariants(invariants, all)
  end
  -- A dataset gets an iterator made in the graph; an iterator (made before
  -- or passed in) gives what it has left.
  local it = getmetatable(ds) == iterators.Iterator and ds or ds:iter()
  all[1] = it:get_next_as_optional()
  local names = loop_var_names(opts)
  table.insert(names, 1, "the dataset's next element")
  local outs = table.pack(control_flow.graph_while(function(o, ...)
    local go = core.op(state.H.OptionalHasValue, {}, o)
    if brk_index then go = ops.logical_and(go, ops.logical_not(as_bool((select(brk_index, ...))))) end
    return go
  end, function(o, ...)
    local a = table.pack(args(iterators.optional_value(it, o)))
    local carried = table.pack(...)
    for i = 1, n do a[a.n + i] = carried[i] end
    local out = table.pack(body_fn(table.unpack(a, 1, a.n + n)))
    return it:get_next_as_optional(), table.unpack(out, 1, n)
  end, all, { _names = names, _invariants = invariants }))
  return table.unpack(outs, 2, n + 1)
end

function ag.for_stmt(iter, body_fn, opts, ...)
  local vals = table.pack(...)
  local n = #opts.names
  local brk_index
  for i, name in ipairs(opts.names) do if name == opts.brk then brk_index = i end end
  local first = value(iter[1])
  if core.tracing() and type(first) == "table" and (getmetatable(first) == iterators.Iterator
    or (getmetatable(first) and rawget(getmetatable(first), "__name") == "Dataset")) then
    return dataset_for(first, body_fn, opts, vals, brk_index)
  end
  if is_tensor(first) and core.tracing() then
    if opts.nnames ~= 1 then
      raise("ValueError", ("line %d: iterating over a tensor gives one value per step; "
        .. "use `for x in t do`"):format(opts.line), 2)
    end
    local t = first
    local created = { seen = {}, invariants = {} }
    local absent = fill_undefined(opts.names, vals, function(v)
      return { table.pack(body_fn(first_element(t), table.unpack(v, 1, n))) }
    end, true, created)
    if next(absent) then
      local popts, pvals, wrap, full = present_only(opts, vals, absent)
      local outs = table.pack(ag.for_stmt(iter, wrap(body_fn, 1), popts, table.unpack(pvals, 1, pvals.n)))
      return table.unpack(full(outs), 1, n)
    end
    local count = ops.shape(t)[0]
    local all = { ops.constant(0) }
    for i = 1, n do all[i + 1] = vals[i] end
    check_defined(opts, vals)
    local outs = table.pack(control_flow.graph_while(function(i, ...)
      local go = ops.less(i, count)
      if brk_index then go = ops.logical_and(go, ops.logical_not(as_bool((select(brk_index, ...))))) end
      return go
    end, function(i, ...)
      local out = table.pack(body_fn(t[i], ...))
      return i + 1, table.unpack(out, 1, n)
    end, (function() all.n = n + 1 return all end)(), { _names = (function()
      local names = loop_var_names(opts)
      table.insert(names, 1, "the loop index")
      return names
    end)() }))
    if #created > 0 then assert_iterated(ops.greater(outs[1], 0), created, opts.line) end
    return table.unpack(outs, 2, n + 1)
  end
  if is_tensor(first) then
    -- Eager tensor: iterate its rows in Lua.
    local count = #first
    for k = 0, count - 1 do
      vals = table.pack(body_fn(first[k], table.unpack(vals, 1, n)))
      if brk_index and lua_loop_stops(vals[brk_index], opts.line) then break end
    end
    return table.unpack(vals, 1, n)
  end
  local f, s, control = iter[1], iter[2], iter[3]
  while true do
    local items = table.pack(f(s, control))
    if items[1] == nil then break end
    control = items[1]
    local args = table.move(items, 1, opts.nnames, 1, {})
    for i = 1, n do args[opts.nnames + i] = vals[i] end
    vals = table.pack(body_fn(table.unpack(args, 1, opts.nnames + n)))
    if brk_index and lua_loop_stops(vals[brk_index], opts.line) then break end
  end
  return table.unpack(vals, 1, n)
end

-- A generic for AutoGraph could not convert: a tensor is iterated in Lua
-- (eagerly) or rejected with a clear error (while tracing).
function ag.iterate(line, first, ...)
  local v = value(first)
  if is_tensor(v) then
    if is_symbolic(v) then
      raise("TypeError", ("line %d: this `for` iterates over a traced tensor but cannot become a "
        .. "graph loop: its body uses `return` or `goto`. Restructure it."):format(line), 2)
    end
    local k, count = -1, #v
    return function()
      k = k + 1
      if k < count then return v[k] end
    end
  end
  return first, ...
end

return ag
