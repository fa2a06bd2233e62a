-- converter.lua — AutoGraph's source transformation for Lua. Given the AST
-- of a function (parser.lua), it rewrites:
--   if / elseif / else      -> ag__.if_stmt / ag__.if_return (tf.cond when
--                              the condition is a tensor, a plain `if` else)
--   while, repeat ... until -> ag__.while_stmt (tf.while_loop or Lua loop)
--   for names in exprs      -> ag__.for_stmt (a graph loop over a tensor's
--                              rows, or Lua's generic for)
--   comparisons, and/or/not -> ag__.lt / ag__.and_ / ... (tensor ops when an
--                              operand is a tensor, Lua semantics otherwise)
--   calls                   -> ag__.callee / ag__.bind (called Lua functions
--                              are converted too)
-- The runtime (runtime.lua) decides at trace time which way each statement
-- goes, so code whose conditions are Lua values behaves exactly as before.
-- Variables a branch or loop body assigns are carried explicitly: bodies
-- become functions that take them as parameters and return them. `break`
-- and `goto continue` in loops and `return` in branches are rewritten with
-- flags and by moving the statements that follow into the other branch.
-- Original nodes keep their `line`, so the printer (preserve_lines) puts
-- every original statement on its original line.

local converter = {}

local unique = 0
local function fresh(prefix)
  unique = unique + 1
  return ("ag__%s_%d"):format(prefix, unique)
end

-- AST construction ---------------------------------------------------------

local function Id(name) return { tag = "Id", name = name } end
local function Str(s) return { tag = "String", value = s } end
local function Num(n) return { tag = "Number", text = tostring(n), value = n } end
local function Call(f, args, line) return { tag = "Call", func = f, args = args, line = line } end
local function AG(name) return { tag = "Index", obj = Id("ag__"), key = Str(name), dot = true } end
local function agcall(name, args, line) return Call(AG(name), args, line) end
local function Block(stmts)
  local b = { tag = "Block" }
  for i, s in ipairs(stmts) do b[i] = s end
  return b
end
local function Func(params, body, vararg) return { tag = "Function", params = params, is_vararg = vararg or false, body = body } end
local function Return(exprs) return { tag = "Return", exprs = exprs } end
local function Lambda(expr) return Func({}, Block({ Return({ expr }) })) end
local function ids(names)
  local out = {}
  for i, n in ipairs(names) do out[i] = Id(n) end
  return out
end
local function strs(names)
  local fields = {}
  for i, n in ipairs(names) do fields[i] = { kind = "pos", value = Str(n) } end
  return { tag = "Table", fields = fields }
end

local function copy(node)
  if type(node) ~= "table" then return node end
  local c = {}
  for k, v in pairs(node) do c[k] = copy(v) end
  return c
end

local function stmts_of(block)
  local out = {}
  for i = 1, #block do out[i] = block[i] end
  return out
end

-- Analysis -------------------------------------------------------------------

-- Calls visit(node, parent_kind) for statements and expressions below node,
-- not entering nested functions.
local function each_stmt(block, visit, depth)
  depth = depth or 0
  for _, s in ipairs(block) do
    visit(s, depth)
    local t = s.tag
    if t == "Do" then each_stmt(s.body, visit, depth)
    elseif t == "While" or t == "Repeat" or t == "Fornum" or t == "Forin" then each_stmt(s.body, visit, depth + 1)
    elseif t == "If" then
      for _, c in ipairs(s.clauses) do each_stmt(c.body, visit, depth) end
      if s.orelse then each_stmt(s.orelse, visit, depth) end
    end
  end
end

-- Whether some statement of block (nested blocks included, not nested
-- functions) satisfies pred(statement, loop_depth).
local function any_stmt(block, pred)
  local found = false
  each_stmt(block, function(s, depth)
    if not found and pred(s, depth) then found = true end
  end)
  return found
end

-- Names a block assigns (Set to plain names) and does not declare itself,
-- in first-assignment order.
local function carried(blocks)
  local assigned, order, declared = {}, {}, {}
  for _, block in ipairs(blocks) do
    each_stmt(block, function(s)
      if s.tag == "Local" then
        for _, n in ipairs(s.names) do declared[n.name] = true end
      elseif s.tag == "LocalFunction" then
        declared[s.name] = true
      elseif s.tag == "Fornum" then
        declared[s.var] = true
      elseif s.tag == "Forin" then
        for _, n in ipairs(s.names) do declared[n] = true end
      elseif s.tag == "Set" then
        for _, t in ipairs(s.targets) do
          if t.tag == "Id" and not assigned[t.name] then
            assigned[t.name] = true
            order[#order + 1] = t.name
          end
        end
      elseif s.tag == "FunctionStat" and s.target.tag == "Id" and not s.method then
        if not assigned[s.target.name] then
          assigned[s.target.name] = true
          order[#order + 1] = s.target.name
        end
      end
    end)
  end
  local out = {}
  for _, n in ipairs(order) do
    if not declared[n] then out[#out + 1] = n end
  end
  return out
end

-- Whether a block can become the body of a function: no goto/label, no
-- break out of it, and returns only where `returns_ok` allows (tail).
local function wrappable(block, returns_ok)
  return not any_stmt(block, function(s, depth)
    return s.tag == "Goto" or s.tag == "Label" or (s.tag == "Break" and depth == 0)
      or (s.tag == "Return" and (not returns_ok or depth > 0))
  end)
end

-- What keeps a block from becoming a function, in words for an error
-- (in_loop: the block is a loop body, whose own breaks are fine).
local function blocker(block, in_loop)
  local why
  each_stmt(block, function(s, depth)
    if why then return end
    if s.tag == "Goto" or s.tag == "Label" then why = "a `goto` (other than `goto continue` to a trailing label)"
    elseif s.tag == "Break" and depth == 0 and not in_loop then
      why = ("a `%s` out of a Lua loop (numeric `for` or `for` over a Lua iterator; TF refuses it too)"):format(
        s.from_return and "return" or "break")
    elseif s.tag == "Return" then
      why = "a `return`" .. (in_loop and "" or " inside a Lua loop (numeric `for` or `for` over a Lua iterator)")
    end
  end)
  return why
end

-- Whether every path through a block ends with one of the terminators.
local function terminates(block, kinds)
  local last = block[#block]
  if not last then return false end
  if last.tag == "Return" then return kinds.ret end
  if last.tag == "Break" then return kinds.brk end
  if last.tag == "Goto" then return kinds.cont == last.name end
  if last.tag == "Do" then return terminates(last.body, kinds) end
  if last.tag == "If" then
    if not last.orelse then return false end
    for _, c in ipairs(last.clauses) do
      if not terminates(c.body, kinds) then return false end
    end
    return terminates(last.orelse, kinds)
  end
  return false
end

-- Returns inside loops (TF's return_statements converter): `return e` in a
-- loop body becomes `rv = e; ret = true; break`, and after the loop
-- `if ret then return rv end`, which the `if` conversion then handles like
-- any other return. Innermost loops first, so an inner loop's return
-- becomes a return in the outer loop's body.
local LOOPS = { While = true, Repeat = true, Fornum = true, Forin = true }

local function multi_valued(e)
  return e ~= nil and (e.tag == "Call" or e.tag == "Invoke" or e.tag == "Dots")
end

local function loop_returns(body)
  local found = {}
  each_stmt(body, function(x, depth)
    if x.tag == "Return" and depth == 0 then found[#found + 1] = x end
  end)
  return found
end

local lower_returns

local function lower_loop(s)
  local returns = loop_returns(s.body)
  if #returns == 0 then return { s } end
  -- One variable per returned value when every return gives the same
  -- number of values; else one packed table.
  local k, packed = #returns[1].exprs, false
  for _, r in ipairs(returns) do
    if #r.exprs ~= k or multi_valued(r.exprs[#r.exprs]) then packed = true end
  end
  local ret = fresh("ret")
  local rvs = {}
  if packed then rvs[1] = fresh("rv") else for i = 1, k do rvs[i] = fresh("rv") end end
  local function replace(block)
    local out = Block({})
    out.line = block.line
    for _, x in ipairs(block) do
      if x.tag == "Return" then
        local vals = packed and { agcall("pack_list", x.exprs) } or x.exprs
        if #rvs > 0 then out[#out + 1] = { tag = "Set", line = x.line, targets = ids(rvs), exprs = vals } end
        out[#out + 1] = { tag = "Set", line = x.line, targets = { Id(ret) }, exprs = { { tag = "True" } } }
        out[#out + 1] = { tag = "Break", line = x.line, from_return = true }
      else
        if x.tag == "If" then
          for _, c in ipairs(x.clauses) do c.body = replace(c.body) end
          if x.orelse then x.orelse = replace(x.orelse) end
        elseif x.tag == "Do" then
          x.body = replace(x.body)
        end
        out[#out + 1] = x
      end
    end
    return out
  end
  s.body = replace(s.body)
  local rv_names = {}
  for i, n in ipairs(rvs) do rv_names[i] = { name = n } end
  -- The flag starts nil, not false: a graph loop whose `return` never runs
  -- while tracing (a Lua condition) then carries neither flag nor values.
  local out = { { tag = "Local", line = s.line, names = { { name = ret } }, exprs = {} } }
  if #rvs > 0 then out[2] = { tag = "Local", line = s.line, names = rv_names, exprs = {} } end
  out[#out + 1] = s
  local result = packed and { agcall("unpack_list", { Id(rvs[1]) }) } or ids(rvs)
  out[#out + 1] = { tag = "If", line = s.line, clauses = { { cond = Id(ret), line = s.line,
    body = Block({ { tag = "Return", line = s.line, exprs = result } }) } } }
  return out
end

function lower_returns(block)
  local out = Block({})
  out.line = block.line
  for _, x in ipairs(block) do
    if x.tag == "If" then
      for _, c in ipairs(x.clauses) do c.body = lower_returns(c.body) end
      if x.orelse then x.orelse = lower_returns(x.orelse) end
      out[#out + 1] = x
    elseif x.tag == "Do" then
      x.body = lower_returns(x.body)
      out[#out + 1] = x
    elseif LOOPS[x.tag] then
      x.body = lower_returns(x.body)
      for _, y in ipairs(lower_loop(x)) do out[#out + 1] = y end
    else
      out[#out + 1] = x
    end
  end
  return out
end

-- Whether a block may leave by one of the terminators (a `return`,
-- `break` or `goto continue` of this level, in any branch).
local function may_exit(block, kinds)
  return any_stmt(block, function(x, depth)
    return depth == 0 and ((x.tag == "Return" and kinds.ret) or (x.tag == "Break" and kinds.brk)
      or (x.tag == "Goto" and kinds.cont == x.name))
  end)
end

-- Names a block declares at its own level.
local function declared_names(block)
  local names = {}
  for _, x in ipairs(block) do
    if x.tag == "Local" then for _, n in ipairs(x.names) do names[n.name] = true end
    elseif x.tag == "LocalFunction" then names[x.name] = true end
  end
  return names
end

-- Whether any of `names` is mentioned (as a name) anywhere in `nodes`.
local function mentions(nodes, names)
  local hit = false
  local function visit(node)
    if hit or type(node) ~= "table" then return end
    if (node.tag == "Id" and names[node.name]) or (node.tag == "Label" and names[node.name]) then hit = true end
    for k, v in pairs(node) do if k ~= "line" and type(v) == "table" then visit(v) end end
  end
  visit(nodes)
  return hit
end

-- `if a then A elseif b then B else C end` -> `if a then A else if b then B else C end end`
local function split_elseif(s)
  if #s.clauses == 1 then return s end
  local rest = { tag = "If", line = s.clauses[2].line or s.line, clauses = {}, orelse = s.orelse }
  for i = 2, #s.clauses do rest.clauses[i - 1] = s.clauses[i] end
  return { tag = "If", line = s.line, clauses = { s.clauses[1] }, orelse = Block({ split_elseif(rest) }) }
end

-- Moves the statements after an `if` with a terminating branch into its
-- other branches, recursively, so terminators end up last.
local function lift(block, kinds)
  local out = {}
  local stmts = stmts_of(block)
  local i = 1
  while i <= #stmts do
    local s = stmts[i]
    if s.tag == "If" then
      s = split_elseif(s)
      local then_b = s.clauses[1].body
      local else_b = s.orelse or Block({})
      local t1, t2 = terminates(then_b, kinds), terminates(else_b, kinds)
      -- A branch that only may leave (a nested `if`): what follows runs
      -- on its fall-through paths, so it moves into the branch too.
      local may = may_exit(then_b, kinds) or may_exit(else_b, kinds)
      if may and not (t1 or t2) and i < #stmts and kinds.guard then
        -- Copying what follows into both branches could grow the code
        -- exponentially; in a loop it runs under a guard on the exit flags
        -- instead (TF's break and continue converters).
        local rest = {}
        for k = i + 1, #stmts do rest[#rest + 1] = stmts[k] end
        s.clauses[1].body = lift(then_b, kinds)
        s.orelse = lift(else_b, kinds)
        out[#out + 1] = s
        out[#out + 1] = { tag = "If", line = s.line, orelse = nil,
          clauses = { { cond = kinds.guard(), line = s.line, body = lift(Block(rest), kinds) } } }
        return Block(out)
      end
      if (t1 or t2 or may) and i < #stmts then
        local rest = {}
        for k = i + 1, #stmts do rest[#rest + 1] = stmts[k] end
        local function extend(b)
          local nb = Block(stmts_of(b))
          for _, r in ipairs(copy(rest)) do nb[#nb + 1] = r end
          return nb
        end
        if not t1 then then_b = extend(then_b) end
        if not t2 then else_b = extend(else_b) end
        i = #stmts
      end
      s.clauses[1].body = lift(then_b, kinds)
      s.orelse = lift(else_b, kinds)
    elseif s.tag == "Do" and may_exit(s.body, kinds) then
      local rest = {}
      for k = i + 1, #stmts do rest[#rest + 1] = stmts[k] end
      -- What follows moves inside the block unless a local of the block
      -- would capture one of its names.
      local body = Block(stmts_of(s.body))
      if not mentions(rest, declared_names(body)) then
        for _, r in ipairs(rest) do body[#body + 1] = r end
        i = #stmts
      end
      s = { tag = "Do", line = s.line, endline = s.endline, body = lift(body, kinds) }
    end
    out[#out + 1] = s
    i = i + 1
  end
  return Block(out)
end

-- Rewrites `break` (and `goto cont`) at this loop's level: break sets the
-- flag; both end the branch (lift() has moved what followed).
local function rewrite_exits(block, flag, cont, cflag)
  local out = {}
  for _, s in ipairs(block) do
    if s.tag == "Break" and flag then
      out[#out + 1] = { tag = "Set", line = s.line, targets = { Id(flag) }, exprs = { { tag = "True" } } }
    elseif s.tag == "Goto" and s.name == cont and cflag then
      out[#out + 1] = { tag = "Set", line = s.line, targets = { Id(cflag) }, exprs = { { tag = "True" } } }
    elseif s.tag == "Goto" and s.name == cont then
      -- nothing: the rest of the body was moved into the other branch
    elseif s.tag == "Label" and s.name == cont then
      -- the continue label itself disappears
    else
      if s.tag == "If" then
        for _, c in ipairs(s.clauses) do c.body = rewrite_exits(c.body, flag, cont, cflag) end
        if s.orelse then s.orelse = rewrite_exits(s.orelse, flag, cont, cflag) end
      elseif s.tag == "Do" then
        s.body = rewrite_exits(s.body, flag, cont, cflag)
      end
      out[#out + 1] = s
    end
  end
  return Block(out)
end

local function uses_break(block)
  local found = false
  each_stmt(block, function(s, depth)
    if s.tag == "Break" and depth == 0 then found = true end
  end)
  return found
end

local function continue_label(block)
  local last = block[#block]
  if not last or last.tag ~= "Label" then return nil end
  local used = false
  each_stmt(block, function(s, depth)
    if s.tag == "Goto" and s.name == last.name and depth == 0 then used = true end
  end)
  return used and last.name or nil
end

-- The `goto`s in a loop body that leave it (target no label inside it),
-- as {name=, nested=} (nested: from inside an inner loop).
local function leaving_gotos(body)
  local found = {}
  local function walk(block, defined, nested)
    local here = setmetatable({}, { __index = defined })
    for _, x in ipairs(block) do
      if x.tag == "Label" then here[x.name] = true end
    end
    for _, x in ipairs(block) do
      if x.tag == "Goto" and not here[x.name] then found[#found + 1] = { name = x.name, nested = nested } end
      if x.tag == "Do" then walk(x.body, here, nested)
      elseif x.tag == "If" then
        for _, c in ipairs(x.clauses) do walk(c.body, here, nested) end
        if x.orelse then walk(x.orelse, here, nested) end
      elseif LOOPS[x.tag] then walk(x.body, here, true)
      end
    end
  end
  walk(body, {}, false)
  return found
end

-- Whether a loop body can become a function: no return, no label but a
-- trailing `::continue::`, and no goto leaving it but `goto continue` from
-- its own level.
local function loop_convertible(body)
  local cont = continue_label(body)
  local ok = true
  each_stmt(body, function(x, depth)
    if x.tag == "Return" then ok = false end
    if x.tag == "Label" and depth == 0 and x ~= body[#body] then ok = false end
  end)
  for _, g in ipairs(leaving_gotos(body)) do
    if g.nested or g.name ~= cont then ok = false end
  end
  if body[#body] and body[#body].tag == "Label" and not cont then ok = false end
  return ok
end

-- A body with its `goto continue` made structured (what follows each goto
-- moves into the other branch); breaks stay.
local function strip_continue(body)
  local cont = continue_label(body)
  if not cont or not loop_convertible(body) then return body end
  -- As in loop_parts, a guard on a flag local to the body where copying
  -- what follows into every branch would be needed.
  local cflag
  local kinds = { cont = cont }
  function kinds.guard()
    cflag = cflag or fresh("continue")
    return { tag = "Unop", op = "not", expr = Id(cflag) }
  end
  local out = rewrite_exits(lift(body, kinds), nil, cont, cflag)
  if cflag then
    table.insert(out, 1, { tag = "Local", line = body.line, names = { { name = cflag } }, exprs = { { tag = "False" } } })
  end
  return out
end

-- Conversion -------------------------------------------------------------------

local expr, block_of, convert_function

-- The local holding the `...` of the function being converted: its body
-- becomes several functions, where `...` would not be the caller's.
local varargs

-- The names the function being converted declares (parameters and locals
-- anywhere in it): a branch may take its own copy of these.
local fn_locals = {}

local COMPARE = { ["<"] = "lt", ["<="] = "le", [">"] = "gt", [">="] = "ge", ["=="] = "eq", ["~="] = "ne" }

local function exprs(list)
  local out = {}
  for i, e in ipairs(list or {}) do out[i] = expr(e) end
  return out
end

function expr(e)
  local t = e.tag
  if t == "Binop" then
    local name = COMPARE[e.op]
    if name then return agcall(name, { expr(e.left), expr(e.right) }, e.line) end
    if e.op == "and" or e.op == "or" then
      return agcall(e.op == "and" and "and_" or "or_", { expr(e.left), Lambda(expr(e.right)) }, e.line)
    end
    return { tag = "Binop", op = e.op, left = expr(e.left), right = expr(e.right), line = e.line }
  elseif t == "Unop" then
    if e.op == "not" then return agcall("not_", { expr(e.expr) }, e.line) end
    return { tag = "Unop", op = e.op, expr = expr(e.expr), line = e.line }
  elseif t == "Call" then
    -- The call itself stays in the user's chunk, so errors raised by the
    -- callee (error(), C functions) name the user's line.
    local f = e.func
    local what = { expr(f) }
    if f.tag == "Id" then what[2] = Str(f.name)
    elseif f.tag == "Index" and f.key.tag == "String" then what[2], what[3] = Str(f.key.value), Str("field") end
    return Call(agcall("callee", what, e.line), exprs(e.args), e.line)
  elseif t == "Invoke" then
    return Call(agcall("bind", { expr(e.obj), Str(e.method) }, e.line), exprs(e.args), e.line)
  elseif t == "Function" then
    -- Marked as made by converted code, so calling it never converts it
    -- again (its definition was converted with the rest).
    return agcall("mark", { convert_function(e) }, e.line)
  elseif t == "Index" then
    return { tag = "Index", obj = expr(e.obj), key = e.dot and e.key or expr(e.key), dot = e.dot, line = e.line }
  elseif t == "Paren" then
    return { tag = "Paren", expr = expr(e.expr), line = e.line }
  elseif t == "Dots" and varargs then
    return agcall("unpack", { Id(varargs) }, e.line)
  elseif t == "Table" then
    local fields = {}
    for i, f in ipairs(e.fields) do
      fields[i] = { kind = f.kind, key = f.kind == "keyed" and expr(f.key) or f.key, value = expr(f.value) }
    end
    return { tag = "Table", fields = fields, line = e.line }
  end
  return e
end

local function opts_table(names, line, extra)
  local fields = { { kind = "named", key = "names", value = strs(names) },
    { kind = "named", key = "line", value = Num(line or 0) } }
  for k, v in pairs(extra or {}) do fields[#fields + 1] = { kind = "named", key = k, value = v } end
  return { tag = "Table", fields = fields }
end

-- `names = f(...)` or `f(...)` as a statement.
local function assign_call(names, call_node, line)
  if #names == 0 then return { tag = "CallStat", call = call_node, line = line } end
  return { tag = "Set", targets = ids(names), exprs = { call_node }, line = line }
end

local function append_all(dst, src)
  for _, x in ipairs(src) do dst[#dst + 1] = x end
  return dst
end

local function body_fn(params, block, names)
  local b = Block(stmts_of(block))
  b[#b + 1] = Return(ids(names))
  return Func(params, b)
end

-- An `if` whose branches only assign variables: both become functions of
-- the carried variables.
local function convert_if(s, ctx)
  s = split_elseif(s)
  local c = s.clauses[1]
  local then_b, else_b = c.body, s.orelse or Block({})
  if not (wrappable(then_b, false) and wrappable(else_b, false)) then
    -- Not expressible as a graph cond; fine as long as the condition is a
    -- Lua value, a clear error otherwise.
    local why = blocker(then_b) or blocker(else_b) or "a `return`"
    local clauses = { { cond = agcall("bool", { expr(c.cond), Num(s.line or 0), Str("if"), Str(why) }),
      body = block_of(then_b, ctx), line = c.line } }
    return { { tag = "If", line = s.line, clauses = clauses, orelse = s.orelse and block_of(else_b, ctx) or nil } }
  end
  local names = carried({ then_b, else_b })
  -- The branches become functions: a `return` in them is not the caller's.
  local sub = { top = false }
  local call_node = agcall("if_stmt", append_all({ expr(c.cond),
    body_fn(names, block_of(then_b, sub), names), body_fn(names, block_of(else_b, sub), names),
    opts_table(names, s.line) }, ids(names)), s.line)
  return { assign_call(names, call_node, s.line) }
end

-- An `if` at the function's top level whose branches return.
local function convert_if_return(s, ctx)
  s = split_elseif(s)
  local c = s.clauses[1]
  local then_b, else_b = c.body, s.orelse or Block({})
  if not (wrappable(then_b, true) and wrappable(else_b, true)) then return convert_if(s, ctx) end
  local sub = { top = true }
  -- On a tensor both branches are traced, one after the other: the
  -- function's locals they assign are set back to their values before
  -- each (as TF's set_state), so one branch's assignments are not what the
  -- other sees.
  local names = {}
  for _, n in ipairs(carried({ then_b, else_b })) do
    if fn_locals[n] then names[#names + 1] = n end
  end
  local args = { expr(c.cond), Func({}, block_of(then_b, sub)), Func({}, block_of(else_b, sub)),
    opts_table({}, s.line) }
  if #names > 0 then
    local temps = {}
    for i = 1, #names do temps[i] = fresh("v") end
    args[#args + 1] = Func(temps, Block({ { tag = "Set", targets = ids(names), exprs = ids(temps) } }))
    append_all(args, ids(names))
  end
  local call_node = agcall("if_return", args, s.line)
  return { { tag = "Return", exprs = { call_node }, line = s.line } }
end

-- Loops: the body's exits become a flag, then the body and the condition
-- become functions of the carried variables.
local function loop_parts(body)
  local cont = continue_label(body)
  local has_break = uses_break(body)
  local flag = has_break and fresh("break") or nil
  local kinds = { brk = has_break, cont = cont }
  local cflag
  -- Guards: `not (break or continue)`; the continue flag exists only if a
  -- guard needs it, and is reset at the start of each iteration.
  function kinds.guard()
    if cont and not cflag then cflag = fresh("continue") end
    local e = flag and Id(flag)
    if cflag then e = e and { tag = "Binop", op = "or", left = e, right = Id(cflag) } or Id(cflag) end
    return { tag = "Unop", op = "not", expr = { tag = "Paren", expr = e } }
  end
  local lifted = lift(body, kinds)
  lifted = rewrite_exits(lifted, flag, cont, cflag)
  if cflag then
    table.insert(lifted, 1, { tag = "Set", line = body.line, targets = { Id(cflag) }, exprs = { { tag = "False" } } })
  end
  return lifted, flag, cflag
end

-- `local flag = false` before a loop, for each flag its body uses.
local function declare_flags(out, ...)
  for _, f in ipairs({ ... }) do
    if f then out[#out + 1] = { tag = "Local", names = { { name = f } }, exprs = { { tag = "False" } } } end
  end
end

-- A graph loop's break flag: declared false before the loop and carried
-- through it as a loop variable.
local function carry_break_flag(out, names, flag)
  out[#out + 1] = { tag = "Local", names = { { name = flag } }, exprs = { { tag = "False" } } }
  for _, n in ipairs(names) do if n == flag then return end end
  names[#names + 1] = flag
end

local function convert_while(s, ctx)
  if not loop_convertible(s.body) then
    return { { tag = "While", line = s.line, cond = agcall("bool", { expr(s.cond), Num(s.line or 0), Str("while"),
      Str(blocker(s.body, true) or "a `goto` or label") }),
      body = block_of(s.body, ctx) } }
  end
  local body, flag, cflag = loop_parts(s.body)
  local names = carried({ body })
  local cond = expr(s.cond)
  local out = {}
  declare_flags(out, cflag)
  if flag then
    carry_break_flag(out, names, flag)
    cond = agcall("and_", { agcall("not_", { Id(flag) }), Lambda(cond) })
  end
  local call_node = agcall("while_stmt", append_all({ Func(names, Block({ Return({ cond }) })),
    body_fn(names, block_of(body, ctx), names), opts_table(names, s.line, flag and { brk = Str(flag) }) },
    ids(names)), s.line)
  append_all(out, { assign_call(names, call_node, s.line) })
  return out
end

local function convert_repeat(s, ctx)
  -- repeat B until c  ==  local done = false; while not done do B; done = c end
  local done = fresh("done")
  local body = Block(stmts_of(strip_continue(s.body)))
  body[#body + 1] = { tag = "Set", targets = { Id(done) }, exprs = { s.cond }, line = s.cond.line }
  local w = { tag = "While", line = s.line, cond = { tag = "Unop", op = "not", expr = Id(done) }, body = body }
  local out = { { tag = "Local", names = { { name = done } }, exprs = { { tag = "False" } }, line = s.line } }
  return append_all(out, convert_while(w, ctx))
end

local function convert_forin(s, ctx)
  if not loop_convertible(s.body) then
    return { { tag = "Forin", line = s.line, names = s.names,
      exprs = { agcall("iterate", append_all({ Num(s.line or 0) }, exprs(s.exprs))) }, body = block_of(s.body, ctx) } }
  end
  local body, flag, cflag = loop_parts(s.body)
  -- The loop's own names are fresh locals in each iteration: assigning
  -- one changes only that iteration, so they are not carried.
  local names = {}
  for _, n in ipairs(carried({ body })) do
    local own = false
    for _, m in ipairs(s.names) do if m == n then own = true end end
    if not own then names[#names + 1] = n end
  end
  local out = {}
  declare_flags(out, cflag)
  if flag then carry_break_flag(out, names, flag) end
  local params = append_all(append_all({}, s.names), names)
  local call_node = agcall("for_stmt", append_all({ agcall("pack", exprs(s.exprs)),
    body_fn(params, block_of(body, ctx), names),
    opts_table(names, s.line, { nnames = Num(#s.names), brk = flag and Str(flag) or nil }) }, ids(names)), s.line)
  append_all(out, { assign_call(names, call_node, s.line) })
  return out
end

local function stmt(s, ctx, is_last)
  local t = s.tag
  if t == "If" then
    if ctx.top and is_last then return convert_if_return(s, ctx) end
    -- Not the function's last statement: its branches must fall through.
    return convert_if(s, { top = false })
  elseif t == "While" then return convert_while(s, { top = false })
  elseif t == "Repeat" then return convert_repeat(s, { top = false })
  elseif t == "Forin" then return convert_forin(s, { top = false })
  elseif t == "Fornum" then
    return { { tag = "Fornum", line = s.line, var = s.var, start = expr(s.start), stop = expr(s.stop),
      step = s.step and expr(s.step), body = block_of(strip_continue(s.body), { top = false }) } }
  elseif t == "Do" then
    return { { tag = "Do", line = s.line, body = block_of(s.body, { top = ctx.top and is_last }) } }
  elseif t == "Local" then
    return { { tag = "Local", line = s.line, names = s.names, exprs = exprs(s.exprs) } }
  elseif t == "Set" then
    return { { tag = "Set", line = s.line, targets = exprs(s.targets), exprs = exprs(s.exprs) } }
  elseif t == "CallStat" then
    return { { tag = "CallStat", line = s.line, call = expr(s.call) } }
  elseif t == "Return" then
    return { { tag = "Return", line = s.line, exprs = exprs(s.exprs) } }
  elseif t == "LocalFunction" then
    local func = convert_function(s.func)
    return { { tag = "LocalFunction", line = s.line, name = s.name, func = func },
      { tag = "CallStat", line = func.lastline or s.line, call = agcall("mark", { Id(s.name) }) } }
  elseif t == "FunctionStat" then
    local func = convert_function(s.func)
    local target = s.method and { tag = "Index", obj = s.target, key = Str(s.method), dot = true } or s.target
    return { { tag = "FunctionStat", line = s.line, target = s.target, method = s.method, func = func },
      { tag = "CallStat", line = func.lastline or s.line, call = agcall("mark", { copy(target) }) } }
  end
  return { s }
end

function block_of(block, ctx)
  local out = Block({})
  out.line = block.line
  for i, s in ipairs(block) do
    for _, x in ipairs(stmt(s, ctx, i == #block)) do out[#out + 1] = x end
  end
  return out
end

function convert_function(f)
  local body = lift(lower_returns(copy(f.body)), { ret = true })
  local outer, outer_locals = varargs, fn_locals
  varargs = f.is_vararg and fresh("varargs") or nil
  fn_locals = {}
  for _, p in ipairs(f.params) do fn_locals[p] = true end
  each_stmt(body, function(x)
    if x.tag == "Local" then for _, n in ipairs(x.names) do fn_locals[n.name] = true end
    elseif x.tag == "LocalFunction" then fn_locals[x.name] = true
    elseif x.tag == "Fornum" then fn_locals[x.var] = true
    elseif x.tag == "Forin" then for _, n in ipairs(x.names) do fn_locals[n] = true end end
  end)
  local converted = block_of(body, { top = true })
  fn_locals = outer_locals
  if varargs then
    table.insert(converted, 1, { tag = "Local", line = f.line, names = { { name = varargs } },
      exprs = { agcall("pack", { { tag = "Dots" } }) } })
  end
  varargs = outer
  return { tag = "Function", line = f.line, lastline = f.lastline, linedefined = f.linedefined, params = f.params,
    is_vararg = f.is_vararg, body = converted }
end

--- Converts a Function node; returns the new Function node.
converter.convert_function = convert_function

--- Every Function node of `ast` defined on lines [first, last] taking
--- nparams parameters (vararg or not), as a list of {node=, method=}:
--- method is whether it is a method (`function a:m`, whose node leaves the
--- implicit self out of its params). Several when functions share their
--- lines (`f, g = function(x) ... end, function(x) ... end`): debug info
--- tells them apart by neither.
function converter.find_functions(ast, first, last, nparams, vararg)
  local found = {}
  local function visit(node, implicit_self)
    if type(node) ~= "table" then return end
    -- linedefined is the line debug.getinfo reports (the parser records it).
    if node.tag == "Function" and (node.linedefined or node.line) == first
      and (node.lastline == nil or node.lastline == last)
      and #node.params + (implicit_self and 1 or 0) == nparams and node.is_vararg == vararg then
      found[#found + 1] = { node = node, method = implicit_self }
    end
    local is_method = node.tag == "FunctionStat" and node.method ~= nil
    for k, v in pairs(node) do
      if k ~= "line" and type(v) == "table" then visit(v, is_method and k == "func") end
    end
  end
  visit(ast, false)
  return found
end

--- The Function node of `ast` defined on lines [first, last] taking nparams
--- parameters (vararg or not), and whether it is a method; or nil. The
--- outermost when several are (find_functions lists them all).
function converter.find_function(ast, first, last, nparams, vararg)
  local found = converter.find_functions(ast, first, last, nparams, vararg)[1]
  if found then return found.node, found.method end
  return nil
end

--- The chunk that rebuilds a converted function: `ag__` and the original
--- function's upvalue names are locals of the chunk (joined to the
--- originals after loading), and it returns the converted function, which
--- the printer puts on its original lines.
-- Every `return f(...)` of the converted code becomes `return
-- ag__.ret(f(...))` (runtime.lua) when printed with the printer's
-- ret_calls: Lua's tail call would drop the frame of the returning line,
-- and each node traced records the line that made it
-- (trace/node_source.lua), the runtime's own returns (if_stmt, a loop's
-- condition) included. The printer does it as it prints each return (a
-- walk of its own over the converted tree cost a tenth of a first trace).
function converter.chunk(fnode, upvalues)
  local names = { { name = "ag__" } }
  local stmts = { { tag = "Local", names = names, exprs = { { tag = "Dots" } } } }
  if #upvalues > 0 then
    local locals = {}
    for i, n in ipairs(upvalues) do locals[i] = { name = n } end
    stmts[#stmts + 1] = { tag = "Local", names = locals, exprs = {} }
  end
  stmts[#stmts + 1] = Return({ fnode })
  return Block(stmts)
end

return converter
