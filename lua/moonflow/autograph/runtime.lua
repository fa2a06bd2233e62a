-- runtime.lua — what converted code calls (the `ag__` table). Each helper
-- looks at its values at trace time: a symbolic tensor condition or
-- iterable makes graph control flow (tf.cond, tf.while_loop); anything
-- else runs as the plain Lua statement it came from.

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local dtypes = require("moonflow.dtypes")
local shapes = require("moonflow.shape")
local ops = require("moonflow.ops")
local tensors = require("moonflow.tensor")
local control_flow = require("moonflow.control_flow")
local raise = errors.raise

local ag = {}

local function is_tensor(x) return core.is_tensor(x) end
local function is_symbolic(x) return core.is_symbolic(x) end
local function is_tensor_like(x)
  if core.is_tensor(x) then return true end
  local mt = getmetatable(x)
  return mt ~= nil and mt.__tf_tensor ~= nil
end
local function value(x)
  if type(x) == "table" then
    local mt = getmetatable(x)
    if mt and mt.__tf_tensor then return mt.__tf_tensor(x) end
  end
  return x
end

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

ag.pack = table.pack

-- Comparisons: tensor ops when a tensor is involved (and the other side
-- is a tensor, number or string), Lua's operators otherwise.
local function numeric_peer(x)
  local t = type(x)
  return t == "number" or t == "string" or is_tensor_like(x)
end
local function compare(tf_name, lua_op)
  return function(a, b)
    if (is_tensor_like(a) or is_tensor_like(b)) and numeric_peer(a) and numeric_peer(b) then
      return ops[tf_name](value(a), value(b))
    end
    return lua_op(a, b)
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
function ag.bool(c, line)
  c = value(c)
  if is_graph_cond(c) then
    raise("TypeError", ("line %d: this `if`/`while` has a traced tensor condition (%s) but cannot "
      .. "become tf.cond / tf.while_loop: its body uses `return`, `goto` or a `break` out of an "
      .. "enclosing Lua loop. Restructure it (assign a variable instead of returning), or make the "
      .. "condition a Lua value."):format(line, tensors.symbolic_text(c)), 2)
  end
  return truth(c)
end

-- Calls (ag.call, ag.invoke) convert the functions they call: they are
-- autograph.lua's, which owns the conversion.

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
local function check_branch_values(names, line, a, b)
  for i, name in ipairs(names) do
    local x, y = a[i], b[i]
    if (x == nil) ~= (y == nil) then
      raise("ValueError", ("local '%s' is %s after the then-branch but %s after the else-branch of "
        .. "the `if` at line %d (its condition is a tensor, so both branches are traced and both "
        .. "must define it). Initialize '%s' before the `if`."):format(name,
        describe(x), describe(y), line, name), 4)
    end
  end
end

local function carried_to_outputs(vals, n)
  -- nil locals can't be graph values: pass a marker the branches keep.
  local out = {}
  for i = 1, n do out[i] = vals[i] end
  return out
end

function ag.if_stmt(c, then_fn, else_fn, opts, ...)
  local n = #opts.names
  local vals = table.pack(...)
  c = value(c)
  if not is_graph_cond(c) then
    if truth(c) then return then_fn(...) end
    return else_fn(...)
  end
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
  if not ok then
    if seen[1] and seen[2] then check_branch_values(opts.names, opts.line, seen[1], seen[2]) end
    error(res, 0)
  end
  return table.unpack(res, 1, n)
end

function ag.if_return(c, then_fn, else_fn, opts)
  c = value(c)
  if not is_graph_cond(c) then
    if truth(c) then return then_fn() end
    return else_fn()
  end
  local counts = {}
  local function branch(fn, which)
    return function()
      local out = table.pack(fn())
      counts[which] = out.n
      return table.unpack(out, 1, out.n)
    end
  end
  local ok, res = pcall(function() return table.pack(control_flow.cond(c, branch(then_fn, 1), branch(else_fn, 2))) end)
  if not ok then
    if counts[1] and counts[2] and counts[1] ~= counts[2] then
      raise("ValueError", ("the `if` at line %d has a tensor condition, so both branches are traced, "
        .. "but the then-branch returns %d value(s) and the else-branch %d. Both must return the "
        .. "same values (a branch that falls off the end returns none)."):format(opts.line,
        counts[1], counts[2]), 2)
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

local function graph_while(cond_fn, body_fn, opts, vals)
  check_defined(opts, vals)
  local loop_vars = table.move(vals, 1, #opts.names, 1, {})
  loop_vars.n = #opts.names
  return control_flow.graph_while(cond_fn, function(...)
    local out = table.pack(body_fn(...))
    for i, name in ipairs(opts.names) do
      if out[i] == nil then
        raise("ValueError", ("local '%s' becomes nil in the body of the loop at line %d; a graph "
          .. "loop's variables must keep a value"):format(name, opts.line), 2)
      end
    end
    return table.unpack(out, 1, #opts.names)
  end, loop_vars, { _names = loop_var_names(opts) })
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

-- `for names in exprs`: a tensor iterates over its rows in a graph loop;
-- anything else is Lua's generic for.
function ag.for_stmt(iter, body_fn, opts, ...)
  local vals = table.pack(...)
  local n = #opts.names
  local brk_index
  for i, name in ipairs(opts.names) do if name == opts.brk then brk_index = i end end
  local first = value(iter[1])
  if is_tensor(first) and core.tracing() then
    if opts.nnames ~= 1 then
      raise("ValueError", ("line %d: iterating over a tensor gives one value per step; "
        .. "use `for x in t do`"):format(opts.line), 2)
    end
    local t = first
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
    return table.unpack(outs, 2, n + 1)
  end
  if is_tensor(first) then
    -- Eager tensor: iterate its rows in Lua.
    local count = #first
    for k = 0, count - 1 do
      vals = table.pack(body_fn(first[k], table.unpack(vals, 1, n)))
      if brk_index and truth(value(vals[brk_index])) then break end
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
    if brk_index and truth(value(vals[brk_index])) then break end
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
