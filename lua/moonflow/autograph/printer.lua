-- printer.lua — turns the AST of moonflow.autograph.parser back into Lua.
--
-- printer.print(node [, opts]) -> source text
--   node is a Block (a chunk), a statement or an expression. opts:
--     preserve_lines (default true): every node that carries `line` starts
--       on that line of the output whenever the output has not gone past it
--       yet (newlines are added to reach it); once past, printing goes on
--       on the current line, statements separated by "; ". Printed from a
--       parsed chunk, every statement and expression therefore keeps its
--       line, and Lua's error messages and debug.getinfo point at the
--       user's source even after AutoGraph rewrote it. Keywords that close
--       blocks (end, else, elseif, until) and binary operators follow their
--       optional position fields (endline, else_line, untilline, opline,
--       Function.linedefined and lastline) the same way, so debug.getinfo's
--       linedefined/lastlinedefined stay right too. Nodes without `line`
--       (made by the converter) are printed inline.
--     preserve_lines = false: one statement per line, indented.
--     indent (default "  "): one level of indentation.
--     ret_calls: every `return ..., f(...)` is printed `return ag__.ret(...,
--       f(...))` (AutoGraph's converted code: no tail calls, whose frames
--       Lua drops).
--   The output always parses back to the same tree: parentheses are added
--   where precedence or associativity needs them (Paren nodes, which
--   truncate f() and ... to one value, are always kept), a statement that
--   starts with '(' is preceded by ';', and a `return` that is not last in
--   its block is wrapped in do ... end. Numbers and strings are printed from
--   their original token text when they have one (String.text and
--   Number.text win over value: a converter changing a value must drop the
--   text), else from the value with escapes that survive any reader.
-- printer.quote(s) -> a double-quoted Lua literal for any byte string.
-- printer.number(v) -> a Lua expression for a number value (integer or
--   float, negative, inf and nan included).

local lexer = require("moonflow.autograph.lexer")
local parser = require("moonflow.autograph.parser")

local byte, format, rep, find = string.byte, string.format, string.rep, string.find
local count_lines = lexer.count_lines
local LEFT, RIGHT, UNARY = parser.LEFT_PRIORITY, parser.RIGHT_PRIORITY, parser.UNARY_PRIORITY
local keywords = lexer.keywords

local M = {}

local ESCAPES = { ["\n"] = "\\n", ["\r"] = "\\r", ["\t"] = "\\t", ['"'] = '\\"', ["\\"] = "\\\\" }
local function quote(s)
  -- control bytes become three-digit \ddd, so a following digit cannot
  -- extend the escape; bytes >= 128 are valid as they are
  return '"' .. s:gsub('[\0-\31"\\\127]', function(c)
    return ESCAPES[c] or format("\\%03d", byte(c))
  end) .. '"'
end
M.quote = quote

local function number(v)
  if math.type(v) == "integer" then
    if v == math.mininteger then return "(-0x7fffffffffffffff - 1)" end
    if v < 0 then return format("(-%d)", -v) end
    return format("%d", v)
  end
  if v ~= v then return "(0/0)" end
  if v == math.huge then return "1e9999" end
  if v == -math.huge then return "(-1e9999)" end
  local s = format("%.14g", v)
  if tonumber(s) ~= v then s = format("%.17g", v) end
  if tonumber(s) ~= v then s = format("%a", v) end
  if not find(s, "[.eEnN]") and not find(s, "0x", 1, true) then s = s .. ".0" end
  if v < 0 or (v == 0 and 1 / v < 0) then return "(" .. s .. ")" end
  return s
end
M.number = number

local function is_name(s)
  return type(s) == "string" and find(s, "^[A-Za-z_][A-Za-z0-9_]*$") ~= nil and not keywords[s]
end

-- Characters that would merge into one token when written side by side.
local IDENT = {}
for c = 0, 255 do IDENT[c] = find(string.char(c), "^[A-Za-z0-9_]") ~= nil end
local function need_space(a, b)
  if IDENT[a] and IDENT[b] then return true end
  if a == 45 and b == 45 then return true end               -- - -  (not a comment)
  if a == 91 and (b == 91 or b == 61) then return true end  -- [ [[long string]]
  if a == 46 and (b == 46 or IDENT[b]) then return true end -- 1. ..
  if a == 58 and b == 58 then return true end               -- : :
  return false
end

-- Does the printed statement start with '(' (so must be set off with ';')?
local function starts_with_paren(s)
  local e
  if s.tag == "CallStat" then e = s.call
  elseif s.tag == "Set" then e = s.targets[1]
  else return false end
  while true do
    local tag = e.tag
    if tag == "Call" then e = e.func
    elseif tag == "Invoke" or tag == "Index" then e = e.obj
    elseif tag == "Id" then return false
    else return true end -- a Paren, or anything that gets wrapped in one
  end
end

local function is_funcname(t)
  while t.tag == "Index" do
    if not (t.dot and t.key.tag == "String" and is_name(t.key.value)) then return false end
    t = t.obj
  end
  return t.tag == "Id"
end

local PREFIX = { Id = true, Index = true, Call = true, Invoke = true, Paren = true }

-- The values of `return ..., f(...)` printed as `return ag__.ret(..., f(...))`
-- (opts.ret_calls: converted code, whose returns must not be tail calls;
-- see converter.chunk), or the statement's own values.
local function no_tail_call(s)
  local exprs = s.exprs
  local last = exprs[#exprs]
  if last.tag ~= "Call" and last.tag ~= "Invoke" then return exprs end
  local f = last.func
  if last.tag == "Call" and f.tag == "Index" and f.obj and f.obj.name == "ag__" and f.key
    and f.key.value == "ret" then
    return exprs
  end
  local ag = { tag = "Index", obj = { tag = "Id", name = "ag__" }, key = { tag = "String", value = "ret" },
    dot = true }
  return { { tag = "Call", func = ag, args = exprs, line = last.line or s.line } }
end

function M.print(node, opts)
  opts = opts or {}
  local preserve = opts.preserve_lines ~= false
  local wrap_ret = opts.ret_calls
  local unit = opts.indent or "  "
  local buf, nb = {}, 0
  local cur = 1        -- line the output is on
  local depth = 0
  local lastc = nil    -- last byte written on this line (nil: at its start)
  local indents = {}

  local function indent(d)
    local s = indents[d]
    if not s then s = rep(unit, d); indents[d] = s end
    return s
  end

  local function raw(s)
    local c = byte(s, 1)
    if lastc and need_space(lastc, c) then nb = nb + 1; buf[nb] = " " end
    nb = nb + 1
    buf[nb] = s
    lastc = byte(s, -1)
  end
  -- a word: separated by a space unless at the start of a line or after
  -- an opening bracket
  local function word(s)
    if lastc and lastc ~= 32 and lastc ~= 40 and lastc ~= 91 and lastc ~= 123 then
      nb = nb + 1; buf[nb] = " "
    end
    nb = nb + 1
    buf[nb] = s
    lastc = byte(s, -1)
  end
  local function newline()
    nb = nb + 1
    buf[nb] = "\n" .. indent(depth)
    cur = cur + 1
    lastc = nil
  end
  -- Moves to `line` if it is still ahead; true if it moved. Lines that
  -- continue an expression are indented one level more (extra = 1).
  local function mark(line, extra)
    if preserve and line and line > cur then
      nb = nb + 1
      buf[nb] = rep("\n", line - cur) .. indent(depth + (extra or 0))
      cur = line
      lastc = nil
      return true
    end
    return false
  end
  -- A keyword that closes or splits a block (end, else, elseif, until).
  local function closer(kw, line)
    if preserve then mark(line) else newline() end
    word(kw)
  end

  local expr, block, stat

  local function exprlist(list)
    for k = 1, #list do
      if k > 1 then raw(", ") end
      expr(list[k])
    end
  end

  local function paren(e)
    raw("(")
    expr(e)
    raw(")")
  end

  local function prefix(e)
    if PREFIX[e.tag] then expr(e) else mark(e.line, 1); paren(e) end
  end

  local function funcbody(f, self_param)
    mark(f.linedefined, 1)
    raw("(")
    local params = f.params
    if self_param then raw("self"); if #params > 0 or f.is_vararg then raw(", ") end end
    for k = 1, #params do
      if k > 1 then raw(", ") end
      raw(params[k])
    end
    if f.is_vararg then
      if #params > 0 then raw(", ") end
      raw("...")
    end
    raw(")")
    block(f.body)
    closer("end", f.lastline)
  end

  local EXPR = {
    Nil = function() raw("nil") end,
    True = function() raw("true") end,
    False = function() raw("false") end,
    Dots = function() raw("...") end,
    Number = function(e) raw(e.text or number(e.value)) end,
    String = function(e)
      local text = e.text
      if text then
        raw(text)
        cur = cur + count_lines(text)
      else
        raw(quote(e.value))
      end
    end,
    Id = function(e) raw(e.name) end,
    Function = function(e) raw("function"); funcbody(e) end,
    Paren = function(e) paren(e.expr) end,
    Table = function(e)
      raw("{")
      local fields = e.fields
      for k = 1, #fields do
        if k > 1 then raw(", ") end
        local f = fields[k]
        if f.kind == "pos" then
          expr(f.value)
        elseif f.kind == "named" and is_name(f.key) then
          raw(f.key)
          raw(" = ")
          expr(f.value)
        else
          raw("[")
          if f.kind == "named" then raw(quote(f.key)) else expr(f.key) end
          raw("] = ")
          expr(f.value)
        end
      end
      raw("}")
    end,
    Index = function(e)
      prefix(e.obj)
      local key = e.key
      if e.dot and key.tag == "String" and is_name(key.value) then
        mark(key.line, 1)
        raw("." .. key.value)
      else
        raw("[")
        expr(key)
        raw("]")
      end
    end,
    Call = function(e)
      prefix(e.func)
      raw("(")
      exprlist(e.args)
      raw(")")
    end,
    Invoke = function(e)
      prefix(e.obj)
      raw(":" .. e.method .. "(")
      exprlist(e.args)
      raw(")")
    end,
    Unop = function(e)
      local op, operand = e.op, e.expr
      raw(op == "not" and "not " or op)
      -- every binary operator but '^' binds looser than a unary one
      if operand.tag == "Binop" and LEFT[operand.op] <= UNARY then paren(operand) else expr(operand) end
    end,
    Binop = function(e)
      local op, l, r = e.op, e.left, e.right
      local lp = LEFT[op]
      if (l.tag == "Binop" and lp > RIGHT[l.op]) or (l.tag == "Unop" and lp > UNARY) then
        mark(l.line, 1)
        paren(l)
      else
        expr(l)
      end
      if mark(e.opline, 1) then raw(op .. " ") else raw(" " .. op .. " ") end
      if r.tag == "Binop" and LEFT[r.op] <= RIGHT[op] then
        mark(r.line, 1)
        paren(r)
      else
        expr(r)
      end
    end,
  }

  expr = function(e)
    mark(e.line, 1)
    local f = EXPR[e.tag]
    if not f then error("printer: not an expression node: " .. tostring(e.tag), 0) end
    f(e)
  end

  local function funcname(t)
    if t.tag == "Id" then mark(t.line, 1); raw(t.name); return end
    funcname(t.obj)
    mark(t.key.line, 1)
    raw("." .. t.key.value)
  end

  local STAT = {
    Local = function(s)
      word("local")
      local names = s.names
      for k = 1, #names do
        if k == 1 then word(names[k].name) else raw(", " .. names[k].name) end
        if names[k].attrib then raw(" <" .. names[k].attrib .. ">") end
      end
      if #s.exprs > 0 then
        raw(" = ")
        exprlist(s.exprs)
      end
    end,
    Set = function(s)
      exprlist(s.targets)
      raw(" = ")
      exprlist(s.exprs)
    end,
    CallStat = function(s) expr(s.call) end,
    Do = function(s)
      word("do")
      block(s.body)
      closer("end", s.endline)
    end,
    While = function(s)
      word("while ")
      expr(s.cond)
      word("do")
      block(s.body)
      closer("end", s.endline)
    end,
    Repeat = function(s)
      word("repeat")
      block(s.body)
      closer("until", s.untilline)
      raw(" ")
      expr(s.cond)
    end,
    If = function(s)
      local clauses = s.clauses
      for k = 1, #clauses do
        local c = clauses[k]
        if k == 1 then word("if ") else closer("elseif", c.line); raw(" ") end
        expr(c.cond)
        word("then")
        block(c.body)
      end
      if s.orelse then
        closer("else", s.else_line)
        block(s.orelse)
      end
      closer("end", s.endline)
    end,
    Fornum = function(s)
      word("for")
      word(s.var)
      raw(" = ")
      expr(s.start)
      raw(", ")
      expr(s.stop)
      if s.step then
        raw(", ")
        expr(s.step)
      end
      word("do")
      block(s.body)
      closer("end", s.endline)
    end,
    Forin = function(s)
      word("for")
      word(table.concat(s.names, ", "))
      word("in ")
      exprlist(s.exprs)
      word("do")
      block(s.body)
      closer("end", s.endline)
    end,
    FunctionStat = function(s)
      local t = s.target
      if is_funcname(t) and (s.method == nil or is_name(s.method)) then
        word("function")
        raw(" ")
        funcname(t)
        if s.method then raw(":" .. s.method) end
        funcbody(s.func)
        return
      end
      -- a target function syntax cannot name: an assignment does the same
      if s.method then
        t = { tag = "Index", obj = t, key = { tag = "String", value = s.method } }
      end
      expr(t)
      raw(" = function")
      funcbody(s.func, s.method ~= nil)
    end,
    LocalFunction = function(s)
      word("local")
      mark(s.func.line, 1)
      word("function")
      word(s.name)
      funcbody(s.func)
    end,
    Return = function(s)
      word("return")
      if #s.exprs > 0 then
        raw(" ")
        exprlist(wrap_ret and no_tail_call(s) or s.exprs)
      end
    end,
    Break = function() word("break") end,
    Goto = function(s) word("goto"); word(s.name) end,
    Label = function(s) word("::" .. s.name .. "::") end,
  }

  stat = function(s, k, last)
    local moved
    if preserve then
      moved = mark(s.line)
    else
      if nb > 0 then newline() end
      moved = true
    end
    if k > 1 and (not moved or starts_with_paren(s)) then raw(";") end
    if lastc and lastc ~= 32 then raw(" ") end
    local f = STAT[s.tag]
    if not f then error("printer: not a statement node: " .. tostring(s.tag), 0) end
    if s.tag == "Return" and not last then
      -- 'return' must end its block; a do-block makes it one
      word("do")
      f(s)
      word("end")
    else
      f(s)
    end
  end

  local function statements(b)
    local n = #b
    for k = 1, n do stat(b[k], k, k == n) end
  end

  block = function(b)
    depth = depth + 1
    statements(b)
    depth = depth - 1
  end

  local tag = node.tag
  if tag == "Block" then
    statements(node)
  elseif STAT[tag] then
    stat(node, 1, true)
  else
    expr(node)
  end
  if not preserve and nb > 0 then nb = nb + 1; buf[nb] = "\n" end
  return table.concat(buf, "", 1, nb)
end

return M
