-- autograph_refs.lua — the Lua translations of the functions TensorFlow's
-- AutoGraph reference tests run (tensorflow/python/autograph/tests/), shared
-- by tests/tf/autograph_spec.lua (the cases that pass) and
-- tests/tf/failing/autograph_spec.lua (the ones that do not yet). The
-- translation notes are at the top of autograph_spec.lua.

local tf = tf or require("moonflow")

local R = {}

-- loop_basic_test.py ------------------------------------------------------
local function while_no_vars(n, v)
  v:assign(0)
  while v:read_value() < n do
    v:assign_add(1)
  end
  return v:read_value()
end

local function for_no_vars(l, v)
  v:assign(0)
  for _ in l do
    v:assign_add(1)
  end
  return v:read_value()
end

local function for_no_vars_list(l, v)
  v:assign(0)
  for _ in ipairs(l) do
    v:assign_add(1)
  end
  return v:read_value()
end

local function while_one_var(n)
  local i = 0
  while i < n do
    i = i * 10 + 1
  end
  return i
end

local function for_one_var(l)
  local i = 0
  for x in l do
    i = x
  end
  return i
end

local function for_one_var_list(l)
  local i = 0
  for _, x in ipairs(l) do
    i = x
  end
  return i
end

local function while_two_vars(n)
  local s = 0
  local i = 0
  while i < n do
    s = s * 10 + i
    i = i + 1
  end
  return s
end

local function for_two_vars(l)
  local s = 0
  for i in l do
    s = s * 10 + i
  end
  return s
end

local function for_two_vars_list(l)
  local s = 0
  for _, i in ipairs(l) do
    s = s * 10 + i
  end
  return s
end

local function while_creates_var(n)
  local i = 0
  local j
  while i < n do
    i = n + 1
    j = i + 1
  end
  return i, j
end

local function for_creates_var(l)
  local i
  for x in l do
    i = x
  end
  return i
end

local function for_creates_var_list(l)
  local i
  for _, x in ipairs(l) do
    i = x
  end
  return i
end

local function successive_while_loops(n1, n2)
  local s = 0
  local i = 0
  while i < n1 do
    s = s * 10 + i
    i = i + 1
  end
  i = 0
  while i < n2 do
    s = s * 10 + i
    i = i + 1
  end
  return s
end

local function nested_while_loops(n1, n2)
  local i = 0
  local l = tf.TensorArray(tf.int32, { size = 0, dynamic_size = true, element_shape = {} })
  while i < n1 do
    local j = 0
    local s = 0
    while j < n2 do
      s = s * 10 + i * j
      j = j + 1
    end
    l = l:write(i, s)
    i = i + 1
  end
  return l:stack()
end

local function nested_for_loops(m)
  local l = tf.TensorArray(tf.int32, { size = 0, dynamic_size = true, element_shape = {} })
  for i in m do
    local s = 0
    for j in i do
      s = s * 10 + j
    end
    l = l:write(l:size(), s)
  end
  return l:stack()
end

-- cond_basic_test.py ------------------------------------------------------
local function if_no_vars(c, v)
  v:assign(0)
  if c then
    v:assign_add(1)
  end
  return v:read_value()
end

local function if_else_no_vars(c, v)
  v:assign(0)
  if c then
    v:assign_add(1)
  else
    v:assign_add(2)
  end
  return v:read_value()
end

local function if_one_var(n)
  local i = 0
  if i < n then
    i = i + 1
  end
  return i
end

local function if_else_one_var(n)
  local i = 0
  if i < n then
    i = i + 1
  else
    i = i + 2
  end
  return i
end

local function if_two_vars(n)
  local i = 0
  local j = 1
  if i < n then
    i = i + 1
    j = j * 10
  end
  return i, j
end

local function if_else_two_vars(n)
  local i = 0
  local j = 1
  if i < n then
    i = i + 1
    j = j * 10
  else
    i = i + 2
    j = j * 20
  end
  return i, j
end

local function if_creates_var(c)
  local i
  if c then
    i = 1
  end
  return i
end

local function if_else_creates_var(c)
  local i
  if c then
    i = 1
  else
    i = 2
  end
  return i
end

local function else_creates_var(c)
  local i
  if c then
  else
    i = 2
  end
  return i
end

local function if_returns_none(c)
  local i = 0
  local j = 1
  if c then
    i = nil
    j = 2
  end
  return i, j
end

local function if_else_returns_none(c)
  local i, j
  if c then
    i = nil
    j = 1
  else
    i = nil
    j = 2
  end
  return i, j
end

local function else_returns_none(c)
  local i = 1
  local j = 1
  if c then
  else
    i = nil
    j = 2
  end
  return i, j
end

local function if_local_var(c)
  local i = 0
  if c then
    local j = 1
    i = j + 1
  end
  return i
end

local function if_else_local_var(c)
  local i = 0
  if c then
    local j = 1 -- luacheck: ignore
  else
    local j = 2
    i = j + 1
  end
  return i
end

local function if_locally_modified_var(c)
  local i = 0
  local j = 2
  if c then
    j = j + 1
    i = j + 1
  end
  return i
end

local function successive_ifs(n1, n2)
  local s = 0
  local i = 0
  if i < n1 then
    s = s * 10 + i
    i = i + 1
  end
  i = 0
  if i < n2 then
    s = s * 10 + i
    i = i + 1
  end
  return s
end

local function successive_if_elses(n1, n2)
  local s = 0
  local i = 0
  if i < n1 then
    s = s * 10 + i
    i = i + 1
  else
    s = s * 11 + i
    i = i + 2
  end
  i = 0
  if i < n2 then
    s = s * 10 + i
    i = i + 1
  else
    s = s * 11 + i
    i = i + 2
  end
  return s
end

local function nested_ifs(n1, n2)
  local i = 0
  local l = 0
  if i < n1 then
    local j = 0
    local s = 0
    if j < n2 then
      s = s * 10 + i * j
      j = j + 1
    end
    l = l * 1000 + s
    i = i + 1
  end
  return l
end

local function nested_if_temporarily_undefined_return(c1, c2)
  if c1 then
    if c2 then
      return 1
    end
  end
  return 2
end

local function nested_if_elses(n1, n2)
  local i = 0
  local l = 0
  if i < n1 then
    local j = 0
    local s = 0
    if j < n2 then
      s = s * 10 + i * j
      j = j + 1
    else
      s = s * 11 + i * j
      j = j + 2
    end
    l = l * 1000 + s
    i = i + 1
  else
    local j = 0
    local s = 0
    if j < n2 then
      s = s * 12 + i * j
      j = j + 3
    else
      s = s * 13 + i * j
      j = j + 4
    end
    l = l * 2000 + s
    i = i + 1
  end
  return l
end

-- early_return_test.py ----------------------------------------------------
local function return_with_default(x)
  if x > 0 then
    tf.print("x", x)
    return x
  end
  return x * x
end

local function return_dependent_on_local(c)
  local t = tf.constant(1)
  if c then
    return t
  end
  t = tf.stack({ t, t })
  return tf.reduce_sum(t)
end

local function return_possibly_undefined(x)
  if x > 0 then
    if x < 5 then
      return x
    end
  else
    return x * x * x
  end
end

local function nested_ifs_return(x)
  if x > 0 then
    if x < 5 then
      return x
    else
      return x * x
    end
  else
    return x * x * x
  end
end

local function possible_return_before_loop(c1, c2, n)
  if c1 then
    if c2 then
      return 1
    end
  end
  for _ = 0, n - 1 do
  end
  return 2
end

-- loop_control_flow_test.py -----------------------------------------------
local function continue_in_single_for(l)
  local s = 0
  for c in l do
    if c % 2 > 0 then
      goto continue
    end
    s = s + c
    ::continue::
  end
  return s
end

local function continue_in_single_for_list(l)
  local s = 0
  for _, c in ipairs(l) do
    if c % 2 > 0 then
      goto continue
    end
    s = s + c
    ::continue::
  end
  return s
end

local function continue_in_single_while(x)
  local s = 0
  while x > 0 do
    x = x - 1
    if x % 2 > 0 then
      goto continue
    end
    s = s + x
    ::continue::
  end
  return s
end

local function continue_in_inner_for(m)
  local s = 0
  for l in m do
    for c in l do
      if c % 2 > 0 then
        goto continue
      end
      s = s + c
      ::continue::
    end
  end
  return s
end

local function continue_in_inner_for_list(m)
  local s = 0
  for _, l in ipairs(m) do
    for _, c in ipairs(l) do
      if c % 2 > 0 then
        goto continue
      end
      s = s + c
      ::continue::
    end
  end
  return s
end

local function continue_in_inner_while(x, y)
  local s = 0
  while x > 0 do
    x = x - 1
    while y > 0 do
      y = y - 1
      if (x + y) % 2 > 0 then
        goto continue
      end
      s = s + x + y
      ::continue::
    end
  end
  return s
end

local function break_in_single_for(l)
  local s = 0
  for c in l do
    if c % 2 > 0 then
      break
    end
    s = s + c
  end
  return s
end

local function break_in_single_for_list(l)
  local s = 0
  for _, c in ipairs(l) do
    if c % 2 > 0 then
      break
    end
    s = s + c
  end
  return s
end

local function unconditional_return_in_single_for(l)
  local s = 0
  for c in l do
    s = s + c
    return s
  end
  return s
end

local function unconditional_return_in_single_for_list(l)
  local s = 0
  for _, c in ipairs(l) do
    s = s + c
    return s
  end
  return s
end

local function effectively_unconditional_return_in_single_for(l)
  local s = 0
  for c in l do
    s = s + c
    if c % 2 > 0 then
      return s
    else
      return -s
    end
  end
  return s
end

local function effectively_unconditional_return_in_single_for_list(l)
  local s = 0
  for _, c in ipairs(l) do
    s = s + c
    if c % 2 > 0 then
      return s
    else
      return -s
    end
  end
  return s
end

local function unconditional_return_in_single_while(x)
  local s = 0
  while x > 0 do
    x = x - 1
    s = s + x
    return s
  end
  return s
end

local function effectively_unconditional_return_in_single_while(x)
  local s = 0
  while x > 0 do
    x = x - 1
    s = s + x
    if x % 2 > 0 then
      return s
    else
      return -s
    end
  end
  return s
end

local function break_in_single_while(x)
  local s = 0
  while x > 0 do
    x = x - 1
    if x % 2 > 0 then
      break
    end
    s = s + x
  end
  return s
end

local function break_in_inner_for(m)
  local s = 0
  for l in m do
    for c in l do
      if c % 2 > 0 then
        break
      end
      s = s + c
    end
  end
  return s
end

local function break_in_inner_for_list(m)
  local s = 0
  for _, l in ipairs(m) do
    for _, c in ipairs(l) do
      if c % 2 > 0 then
        break
      end
      s = s + c
    end
  end
  return s
end

local function break_in_inner_while(x, y)
  local s = 0
  while x > 0 do
    x = x - 1
    while y > 0 do
      y = y - 1
      if ((x + y) % 2) == 0 then
        break
      end
      s = s + x + y
    end
  end
  return s
end

local function break_continue_in_inner_for(m)
  local s = 0
  for l in m do
    for c in l do
      if c % 2 > 0 then
        break
      else
        goto continue
      end
      s = s + c -- luacheck: ignore (unreachable, as in the TF original)
      ::continue::
    end
  end
  return s
end

local function break_continue_in_inner_for_list(m)
  local s = 0
  for _, l in ipairs(m) do
    for _, c in ipairs(l) do
      if c % 2 > 0 then
        break
      else
        goto continue
      end
      s = s + c -- luacheck: ignore (unreachable, as in the TF original)
      ::continue::
    end
  end
  return s
end

local function break_continue_in_inner_while(x, y)
  local s = 0
  while x > 0 do
    x = x - 1
    while y > 0 do
      y = y - 1
      if (x + y) % 2 > 0 then
        break
      else
        goto continue
      end
      s = s + x + y -- luacheck: ignore (unreachable, as in the TF original)
      ::continue::
    end
  end
  return s
end

local function break_followed_by_cond_in_single_while(x)
  while x > 0 do
    if x == 2 then
      break
    end
    if x > 0 then
      x = x - 1
    end
  end
  return x
end

local function multiple_breaks_in_single_while(n)
  local s = 1
  local i = 0
  while i < n do
    i = i + 1
    if i > 10 * n then
      break
    end
    if i == n then
      break
    end
    s = s * 10 + i
  end
  return i, s
end
-- nested_control_flow_test.py ---------------------------------------------
local function independent_ifs(x, y)
  local z = 0
  if x > 0 then
    if y > 0 then
      z = x + y
    end
  end
  return z
end

local function dependent_inner_if(x)
  local y = 0
  if x > 0 then
    y = -2 * x
    if y > 0 then
      x = -3 * x
    end
  else
    y = 4 * x
  end
  return x, y
end

local function dependent_imbalanced_inner_if(x)
  local y = 0
  if x > 0 then
    if x < 3 then
      y = -2 * x
      x = -3 * x
    end
  end
  return x, y
end

local function independent_inner_for(a, b)
  local p = 0
  for _ in a do
    local tmp = b
    for j in tmp do
      p = p + j
    end
  end
  return p
end

local function independent_inner_for_list(a, b)
  local p = 0
  for _ in ipairs(a) do
    local tmp = b
    for _, j in ipairs(tmp) do
      p = p + j
    end
  end
  return p
end

local function independent_inner_while(a, b)
  local p = 0
  while a > 0 do
    local tmp = b
    while tmp > 0 do
      p = p + 1
      tmp = tmp - 1
    end
    a = a - 1
  end
  return p
end

local function dependent_inner_for(a, b)
  local r = 1
  local s = 0
  for _ in a do
    r = r + s
    local tmp = b
    for j in tmp do
      s = s + j
    end
  end
  return r
end

local function dependent_inner_for_list(a, b)
  local r = 1
  local s = 0
  for _ in ipairs(a) do
    r = r + s
    local tmp = b
    for _, j in ipairs(tmp) do
      s = s + j
    end
  end
  return r
end

local function dependent_inner_while(a, b)
  local r = 1
  while a > 0 do
    r = r + 1
    local tmp = b
    while tmp > 0 do
      a = a - 1
      tmp = tmp - 1
    end
    a = a - 1
  end
  return r
end

local function if_in_for(a)
  local k = 0
  for i in a do
    if i % 2 > 0 then
      local j = i // 2
      k = k + j
    end
  end
  return k
end

local function if_in_for_list(a)
  local k = 0
  for _, i in ipairs(a) do
    if i % 2 > 0 then
      local j = i // 2
      k = k + j
    end
  end
  return k
end

-- `for i in range(n)` is a numeric for over a Lua number and a
-- `for i in tf.range(n)` loop over a tensor (AutoGraph makes that
-- distinction from the type of n in TF).
local function loop_initializing_invariant_variable(n)
  local a
  for i = 0, n - 1 do
    if i == 0 then
      a = 1
    else
      a = 2
    end
  end
  return a
end

local function loop_initializing_invariant_variable_tensor(n)
  local a
  for i in tf.range(n) do
    if i == 0 then
      a = 1
    else
      a = 2
    end
  end
  return a
end

local function loop_initializing_variant_variable_tensor(n)
  local a
  for i in tf.range(n) do
    if i == 0 then
      a = 1
    else
      a = a + 1
    end
  end
  return a
end

-- logical_expression_test.py ------------------------------------------------
local function composite_ors_with_callable(x, y, z)
  local z1 = function() return z end
  return x or y or z1()
end

local function composite_ors(x, y, z)
  return x or y or z
end

local function composite_ands(x, y, z)
  return x and y and z
end

local function composite_mixed(x, y, z)
  return x or y or z and y and z
end

local function equality(x, y)
  return x == y
end

local function inequality(x, y)
  return x ~= y
end

-- Python's chained `x == y == z` is `x == y and y == z`.
local function multiple_equality(x, y, z)
  return x == y and y == z
end

local function comparison(x, y, z)
  return x < y and y < z
end

-- call_to_user_function_test.py -------------------------------------------
local function function_1(x)
  return x * x * x
end

local function function_2(x)
  return -1 * x + 11
end

local function factory(n)
  if n == 1 then
    return function_1
  end
  return function_2
end

local function static_fn(x)
  local a = function_1(x)
  local b = function_2(x)
  return a + b
end

local function factory_dynamic_fn(x)
  local f = factory(1)
  local a = f(x)
  f = factory(2)
  local b = f(x)
  return a + b
end

local function param_dynamic_fn(f, x)
  return f(x)
end

local function variable_dynamic_fn(x)
  local f = function_1
  local a = f(x)
  f = function_2
  local b = f(x)
  return a + b
end

local function variable_dynamic_whitelisted_fn(x)
  local f = tf.identity
  return f(x)
end

-- loop_scoping_test.py ----------------------------------------------------
local function for_with_local_var(l)
  local s = 0
  for i in l do
    local x = i + 2
    s = s * 10 + x
  end
  return s
end

local function for_with_local_var_list(l)
  local s = 0
  for _, i in ipairs(l) do
    local x = i + 2
    s = s * 10 + x
  end
  return s
end

local function while_with_local_var(x)
  local s = 0
  while x > 0 do
    local y = x + 2
    s = s * 10 + y
    x = x - 1
  end
  return s
end

-- Python's `lambda i=i: i + i` binds the current i; a Lua closure over the
-- loop variable does the same (each iteration has its own local).
local function for_with_lambda_iter_local_var(l)
  local fns = {}
  local results = {}
  for _, i in ipairs(l) do
    fns[#fns + 1] = function() return i + i end
  end
  for _, f in ipairs(fns) do
    results[#results + 1] = f()
  end
  return results
end

local function for_initializes_local_var(l)
  local s = 0
  local x
  for _, i in ipairs(l) do
    if i == l[1] then
      x = 0
    else
      x = x + 1
    end
    s = s * 10 + x
  end
  return s
end

local function while_initializes_local_var(x)
  local s = 0
  local y
  while x > 0 do
    if x > 0 then
      y = 0
    else
      y = y + 1
    end
    s = s * 10 + y
    x = x - 1
  end
  return s
end

local function for_defines_var(l)
  local x
  for _, i in ipairs(l) do
    x = i + 2
  end
  return x
end

local function while_defines_var(x)
  local y
  while x > 0 do
    y = x + 2
    x = x - 1
  end
  return y
end

-- `range(n)` as a Lua list {0, ..., n-1}; a Python list passed through
-- unchanged (the `list` type of the tests).
local function range_list(n)
  local t = {}
  for i = 0, n - 1 do t[#t + 1] = i end
  return t
end

local function identity_list(l) return l end

local function for_defines_iterate(n, fn)
  local s = 0
  local i
  for x in fn(n) do
    i = x
    s = s * 10 + i
  end
  return i, s
end

local function for_defines_iterate_list(n, fn)
  local s = 0
  local i
  for _, x in ipairs(fn(n)) do
    i = x
    s = s * 10 + i
  end
  return i, s
end

local function for_reuses_iterate(n, fn)
  local i = 7
  local s = 0
  for x in fn(n) do
    i = x
    s = s * 10 + i
  end
  return i, s
end

local function for_reuses_iterate_list(n, fn)
  local i = 7
  local s = 0
  for _, x in ipairs(fn(n)) do
    i = x
    s = s * 10 + i
  end
  return i, s
end

local function for_alters_iterate(n, fn)
  local i = 7
  local s = 0
  for x in fn(n) do
    i = x
    i = 3 * i + 1
    s = s * 10 + i
  end
  return i, s
end

local function for_alters_iterate_list(n, fn)
  local i = 7
  local s = 0
  for _, x in ipairs(fn(n)) do
    i = x
    i = 3 * i + 1
    s = s * 10 + i
  end
  return i, s
end

-- loop_created_variables_test.py ------------------------------------------
local function while_creates_var_static_shape(n)
  local i = 0
  local v
  while i < n do
    v = tf.zeros({ 1, 2, 3 })
    i = i + 1
  end
  return v
end

local function while_creates_var_dynamic_shape_py_init_var(n)
  local i = 0
  local v
  while i < n do
    v = tf.range(i)
    i = i + 1
  end
  return v
end

local function while_creates_nested_var_static_shape(n)
  local i = 0
  local v
  while i < n do
    v = { a = tf.zeros({ 1, 2, 3 }), b = tf.ones({ 1, 2, 3 }) }
    i = i + 1
  end
  return v.a, v.b
end

R.while_no_vars = while_no_vars
R.for_no_vars = for_no_vars
R.for_no_vars_list = for_no_vars_list
R.while_one_var = while_one_var
R.for_one_var = for_one_var
R.for_one_var_list = for_one_var_list
R.while_two_vars = while_two_vars
R.for_two_vars = for_two_vars
R.for_two_vars_list = for_two_vars_list
R.while_creates_var = while_creates_var
R.for_creates_var = for_creates_var
R.for_creates_var_list = for_creates_var_list
R.successive_while_loops = successive_while_loops
R.nested_while_loops = nested_while_loops
R.nested_for_loops = nested_for_loops
R.if_no_vars = if_no_vars
R.if_else_no_vars = if_else_no_vars
R.if_one_var = if_one_var
R.if_else_one_var = if_else_one_var
R.if_two_vars = if_two_vars
R.if_else_two_vars = if_else_two_vars
R.if_creates_var = if_creates_var
R.if_else_creates_var = if_else_creates_var
R.else_creates_var = else_creates_var
R.if_returns_none = if_returns_none
R.if_else_returns_none = if_else_returns_none
R.else_returns_none = else_returns_none
R.if_local_var = if_local_var
R.if_else_local_var = if_else_local_var
R.if_locally_modified_var = if_locally_modified_var
R.successive_ifs = successive_ifs
R.successive_if_elses = successive_if_elses
R.nested_ifs = nested_ifs
R.nested_if_temporarily_undefined_return = nested_if_temporarily_undefined_return
R.nested_if_elses = nested_if_elses
R.return_with_default = return_with_default
R.return_dependent_on_local = return_dependent_on_local
R.return_possibly_undefined = return_possibly_undefined
R.nested_ifs_return = nested_ifs_return
R.possible_return_before_loop = possible_return_before_loop
R.continue_in_single_for = continue_in_single_for
R.continue_in_single_for_list = continue_in_single_for_list
R.continue_in_single_while = continue_in_single_while
R.continue_in_inner_for = continue_in_inner_for
R.continue_in_inner_for_list = continue_in_inner_for_list
R.continue_in_inner_while = continue_in_inner_while
R.break_in_single_for = break_in_single_for
R.break_in_single_for_list = break_in_single_for_list
R.unconditional_return_in_single_for = unconditional_return_in_single_for
R.unconditional_return_in_single_for_list = unconditional_return_in_single_for_list
R.effectively_unconditional_return_in_single_for = effectively_unconditional_return_in_single_for
R.effectively_unconditional_return_in_single_for_list = effectively_unconditional_return_in_single_for_list
R.unconditional_return_in_single_while = unconditional_return_in_single_while
R.effectively_unconditional_return_in_single_while = effectively_unconditional_return_in_single_while
R.break_in_single_while = break_in_single_while
R.break_in_inner_for = break_in_inner_for
R.break_in_inner_for_list = break_in_inner_for_list
R.break_in_inner_while = break_in_inner_while
R.break_continue_in_inner_for = break_continue_in_inner_for
R.break_continue_in_inner_for_list = break_continue_in_inner_for_list
R.break_continue_in_inner_while = break_continue_in_inner_while
R.break_followed_by_cond_in_single_while = break_followed_by_cond_in_single_while
R.multiple_breaks_in_single_while = multiple_breaks_in_single_while
R.independent_ifs = independent_ifs
R.dependent_inner_if = dependent_inner_if
R.dependent_imbalanced_inner_if = dependent_imbalanced_inner_if
R.independent_inner_for = independent_inner_for
R.independent_inner_for_list = independent_inner_for_list
R.independent_inner_while = independent_inner_while
R.dependent_inner_for = dependent_inner_for
R.dependent_inner_for_list = dependent_inner_for_list
R.dependent_inner_while = dependent_inner_while
R.if_in_for = if_in_for
R.if_in_for_list = if_in_for_list
R.loop_initializing_invariant_variable = loop_initializing_invariant_variable
R.loop_initializing_invariant_variable_tensor = loop_initializing_invariant_variable_tensor
R.loop_initializing_variant_variable_tensor = loop_initializing_variant_variable_tensor
R.composite_ors_with_callable = composite_ors_with_callable
R.composite_ors = composite_ors
R.composite_ands = composite_ands
R.composite_mixed = composite_mixed
R.equality = equality
R.inequality = inequality
R.multiple_equality = multiple_equality
R.comparison = comparison
R.function_1 = function_1
R.function_2 = function_2
R.factory = factory
R.static_fn = static_fn
R.factory_dynamic_fn = factory_dynamic_fn
R.param_dynamic_fn = param_dynamic_fn
R.variable_dynamic_fn = variable_dynamic_fn
R.variable_dynamic_whitelisted_fn = variable_dynamic_whitelisted_fn
R.for_with_local_var = for_with_local_var
R.for_with_local_var_list = for_with_local_var_list
R.while_with_local_var = while_with_local_var
R.for_with_lambda_iter_local_var = for_with_lambda_iter_local_var
R.for_initializes_local_var = for_initializes_local_var
R.while_initializes_local_var = while_initializes_local_var
R.for_defines_var = for_defines_var
R.while_defines_var = while_defines_var
R.range_list = range_list
R.identity_list = identity_list
R.for_defines_iterate = for_defines_iterate
R.for_defines_iterate_list = for_defines_iterate_list
R.for_reuses_iterate = for_reuses_iterate
R.for_reuses_iterate_list = for_reuses_iterate_list
R.for_alters_iterate = for_alters_iterate
R.for_alters_iterate_list = for_alters_iterate_list
R.while_creates_var_static_shape = while_creates_var_static_shape
R.while_creates_var_dynamic_shape_py_init_var = while_creates_var_dynamic_shape_py_init_var
R.while_creates_nested_var_static_shape = while_creates_nested_var_static_shape

return R
