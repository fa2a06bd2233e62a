-- parser.lua — a Lua 5.4 parser producing the AST AutoGraph rewrites.
--
-- parser.parse(source [, chunkname]) -> Block, or nil and an error message
--   Parses a whole chunk. chunkname follows load(): it defaults to the source
--   itself, "=name" and "@file" print as name/file, anything else as
--   [string "..."]. Errors read exactly like Lua's own
--   ("name:LINE: message near 'token'"); incomplete input ends in
--   "near <eof>", which is how the REPL spots a continuation line. Besides
--   syntax, the compile-time checks of lparser.c are made too (goto/label
--   visibility and scope, break outside a loop, assignment to <const> or
--   <close> variables, attributes, '...' outside a vararg function), so a
--   chunk is accepted exactly when load() accepts it, save the limits on
--   upvalues (255 per function) and on nesting depth (about 200 C levels,
--   which depends on the caller's own depth), which are not checked; the
--   limit of 200 locals per function is.
-- parser.parse_expression(source [, chunkname]) -> expression node, or nil, err
--   One expression that must span the whole source ('...' is allowed).
-- parser.walk(node, pre [, post])
--   Visits node and every node below it in source order: pre(node, parent)
--   before the children (returning false skips them), post(node, parent)
--   after. Blocks, statements and expressions are visited; If clauses and
--   table fields are not nodes themselves, their parts are.
--
-- The AST. Every node has `tag` and, when it comes from source, `line` (the
-- line of its first token):
--   Block      {tag="Block", [1..n] = statements}; line is that of its first
--              statement, or of the token closing it when it is empty
--   Local      {names={{name=, attrib=nil|"const"|"close"}...}, exprs={}}
--   Set        {targets={Id|Index...}, exprs={}}
--   CallStat   {call=Call|Invoke}
--   Do         {body=Block}
--   While      {cond=, body=}
--   Repeat     {body=, cond=}   (cond is in the scope of body's locals)
--   If         {clauses={{cond=, body=, line=}...}, orelse=Block|nil}
--   Fornum     {var=, start=, stop=, step=|nil, body=}
--   Forin      {names={...}, exprs={}, body=}
--   FunctionStat {target=Id|Index chain (dot=true), method=nil|name,
--              func=Function} — func.params does not list self
--   LocalFunction {name=, func=}
--   Return     {exprs={}}   Break {}   Goto {name=}   Label {name=}
--   Nil True False Dots
--   Number     {text=original token, value=}
--   String     {value=decoded, text=original token (with quotes/brackets)}
--   Function   {params={names}, is_vararg=, body=Block, lastline=line of `end`,
--              linedefined=what debug.getinfo reports for it: the line of
--              `function` in a function statement, of '(' otherwise}
--   Table      {fields={{kind="pos", value=}, {kind="named", key="x", value=},
--              {kind="keyed", key=expr, value=}...}}
--   Binop      {op=, left=, right=}   Unop {op="not"|"-"|"#"|"~", expr=}
--   Id {name=}  Index {obj=, key=, dot=true for a.b (key is a String)}
--   Call {func=, args={}}   Invoke {obj=, method=, args={}}   Paren {expr=}
-- Extra position fields the printer uses to keep keywords on their lines
-- (all optional): Binop.opline (line of the operator, which is the line Lua
-- reports for arithmetic errors), endline on Do/While/If/Fornum/Forin (line
-- of `end`), If.else_line, Repeat.untilline.

local lexer = require("moonflow.autograph.lexer")

local format = string.format

local M = {}

-- lparser.c's priority table: {left, right}; right < left makes an
-- operator right-associative ('..' and '^').
local LEFT = {
  ["or"] = 1, ["and"] = 2,
  ["<"] = 3, [">"] = 3, ["<="] = 3, [">="] = 3, ["~="] = 3, ["=="] = 3,
  ["|"] = 4, ["~"] = 5, ["&"] = 6, ["<<"] = 7, [">>"] = 7,
  [".."] = 9, ["+"] = 10, ["-"] = 10,
  ["*"] = 11, ["/"] = 11, ["//"] = 11, ["%"] = 11,
  ["^"] = 14,
}
local RIGHT = {}
for op, p in pairs(LEFT) do RIGHT[op] = p end
RIGHT[".."], RIGHT["^"] = 8, 13
local UNARY_PRIORITY = 12
local UNOPS = { ["not"] = true, ["-"] = true, ["#"] = true, ["~"] = true }
M.LEFT_PRIORITY, M.RIGHT_PRIORITY, M.UNARY_PRIORITY = LEFT, RIGHT, UNARY_PRIORITY

local ParseError = {} -- metatable marking errors raised on purpose

local SPECIAL = { ["<name>"] = true, ["<string>"] = true, ["<number>"] = true, ["<eof>"] = true }
local function token2str(t)
  if SPECIAL[t] then return t end
  return "'" .. t .. "'"
end

-- Builds the parser for one token stream. Returns the entry points; all
-- state lives in upvalues so the hot paths are plain local accesses.
local function new_parser(toks, chunkid)
  local T, V, X, L, EL = toks.type, toks.value, toks.text, toks.line, toks.eline
  local near = lexer.near
  local i, tt = 1, T[1]

  local function raise(msg, line)
    error(setmetatable({ msg = chunkid .. ":" .. line .. ": " .. msg }, ParseError), 0)
  end
  local function lex_error(k)
    local where = X[k]
    raise(V[k] .. (where and " near " .. where or ""), EL[k])
  end
  -- Lua reports errors at ls->linenumber: the line where the current token ends.
  local function syntax_error(msg)
    local where = near(toks, i)
    raise(where and msg .. " near " .. where or msg, EL[i])
  end
  local function semerror(msg) raise(msg, EL[i]) end
  local function error_expected(t) syntax_error(token2str(t) .. " expected") end

  local function next_token()
    i = i + 1
    tt = T[i]
    if tt == "<error>" then lex_error(i) end
  end
  local function testnext(t)
    if tt == t then next_token(); return true end
    return false
  end
  local function check(t) if tt ~= t then error_expected(t) end end
  local function checknext(t)
    if tt ~= t then error_expected(t) end
    next_token()
  end
  local function check_match(what, who, where)
    if tt == what then next_token(); return end
    if where == EL[i] then error_expected(what) end
    syntax_error(format("%s expected (to close %s at line %d)", token2str(what), token2str(who), where))
  end
  local function str_checkname()
    if tt ~= "<name>" then error_expected("<name>") end
    local name = V[i]
    next_token()
    return name
  end
  local function block_follow(withuntil)
    return tt == "end" or tt == "<eof>" or tt == "else" or tt == "elseif"
      or (withuntil and tt == "until")
  end

  ---------------------------------------------------------------------------
  -- Scopes: the bookkeeping lparser.c does for locals, labels and gotos, kept
  -- only as far as it decides whether a chunk compiles.
  -- vars holds the declared locals of all open functions, innermost last
  -- (lparser.c's dyd->actvar); a function's own start at fs.firstlocal, and
  -- the first fs.nactvar of those are active (in scope), the rest declared
  -- by the statement being read.
  local vars, ndecl = {}, 0
  local labels, gotos = {}, {}  -- active labels, pending gotos
  local fs                      -- current function: {prev, firstlocal, nactvar,
                                -- firstlabel, is_vararg, linedefined, bl}
  local MAXVARS = 200

  local function nactvar() return fs.nactvar end

  local function declare(name, attrib)
    if ndecl + 1 - fs.firstlocal > MAXVARS then
      local where = fs.linedefined == 0 and "main function"
        or format("function at line %d", fs.linedefined)
      syntax_error(format("too many local variables (limit is %d) in %s", MAXVARS, where))
    end
    ndecl = ndecl + 1
    vars[ndecl] = { name = name, attrib = attrib }
  end
  local function activate(n) fs.nactvar = fs.nactvar + n end
  -- for loops keep hidden control variables in scope, as Lua does
  local function declare_hidden(n)
    for _ = 1, n do declare("(for state)") end
  end

  local function enterblock(isloop)
    fs.bl = { previous = fs.bl, isloop = isloop, nactvar = nactvar(),
              firstlabel = #labels, firstgoto = #gotos }
  end

  local function findlabel(name)
    for k = fs.firstlabel + 1, #labels do
      if labels[k].name == name then return labels[k] end
    end
  end

  local function jumpscopeerror(gt)
    local varname = vars[fs.firstlocal + gt.nactvar + 1].name
    semerror(format("<goto %s> at line %d jumps into the scope of local '%s'",
      gt.name, gt.line, varname))
  end

  local function undefgoto(gt)
    if gt.name == "break" then
      semerror(format("break outside loop at line %d", gt.line))
    end
    semerror(format("no visible label '%s' for <goto> at line %d", gt.name, gt.line))
  end

  -- Resolves the pending gotos of the current block that jump to `lb`.
  local function solvegotos(lb)
    local g = fs.bl.firstgoto + 1
    while g <= #gotos do
      local gt = gotos[g]
      if gt.name == lb.name then
        if gt.nactvar < lb.nactvar then jumpscopeerror(gt) end
        table.remove(gotos, g)
      else
        g = g + 1
      end
    end
  end

  local function createlabel(name, line, last)
    -- a label that ends its block sees the block's locals as already gone,
    -- which is what lets `goto continue` skip over local declarations
    local lb = { name = name, line = line, nactvar = last and fs.bl.nactvar or nactvar() }
    labels[#labels + 1] = lb
    solvegotos(lb)
  end

  local function newgoto(name, line)
    gotos[#gotos + 1] = { name = name, line = line, nactvar = nactvar() }
  end

  local function leaveblock()
    local bl = fs.bl
    ndecl = ndecl - (fs.nactvar - bl.nactvar)
    fs.nactvar = bl.nactvar
    if bl.isloop then createlabel("break", 0, false) end
    for k = #labels, bl.firstlabel + 1, -1 do labels[k] = nil end
    fs.bl = bl.previous
    if bl.previous then
      for g = bl.firstgoto + 1, #gotos do gotos[g].nactvar = bl.nactvar end
    elseif bl.firstgoto < #gotos then
      undefgoto(gotos[bl.firstgoto + 1])
    end
  end

  local function open_func(is_vararg, linedefined)
    fs = { prev = fs, firstlocal = ndecl, nactvar = 0, firstlabel = #labels,
           is_vararg = is_vararg, linedefined = linedefined }
    enterblock(false)
  end
  local function close_func()
    leaveblock()
    fs = fs.prev
  end

  -- check_readonly: assigning to a <const> or <close> local or upvalue
  local function check_readonly(target)
    if target.tag ~= "Id" then return end
    local name = target.name
    local f = fs
    while f do
      for k = f.firstlocal + f.nactvar, f.firstlocal + 1, -1 do
        local v = vars[k]
        if v.name == name then
          if v.attrib then semerror(format("attempt to assign to const variable '%s'", name)) end
          return
        end
      end
      f = f.prev
    end
  end

  ---------------------------------------------------------------------------
  -- Expressions
  local expr, block, statlist, statement

  local function explist()
    local list = { expr() }
    while tt == "," do
      next_token()
      list[#list + 1] = expr()
    end
    return list
  end

  local function parlist()
    local params, is_vararg = {}, false
    if tt ~= ")" then
      repeat
        if tt == "<name>" then
          params[#params + 1] = V[i]
          next_token()
          declare(params[#params])
        elseif tt == "..." then
          next_token()
          is_vararg = true
        else
          syntax_error("<name> or '...' expected")
        end
      until is_vararg or not testnext(",")
    end
    return params, is_vararg
  end

  -- body -> '(' parlist ')' block END. fline is the line of `function`,
  -- where the line check_match cites (Lua's linedefined).
  local function body(ismethod, fline, where)
    open_func(false, where)
    if ismethod then declare("self"); activate(1) end
    checknext("(")
    local params, is_vararg = parlist()
    activate(#params)
    fs.is_vararg = is_vararg
    checknext(")")
    local b = { tag = "Block" }
    statlist(b)
    b.line = b[1] and b[1].line or L[i]
    local lastline = L[i]
    check_match("end", "function", where)
    close_func()
    return { tag = "Function", line = fline, params = params, is_vararg = is_vararg,
             body = b, lastline = lastline, linedefined = where }
  end

  local function constructor()
    local line, where = L[i], EL[i]
    checknext("{")
    local fields = {}
    repeat
      if tt == "}" then break end
      if tt == "<name>" then
        local la = T[i + 1]
        if la == "<error>" then lex_error(i + 1) end -- luaX_lookahead raises it
        if la == "=" then
          local key = V[i]
          next_token()
          next_token()
          fields[#fields + 1] = { kind = "named", key = key, value = expr() }
        else
          fields[#fields + 1] = { kind = "pos", value = expr() }
        end
      elseif tt == "[" then
        next_token()
        local key = expr()
        checknext("]")
        checknext("=")
        fields[#fields + 1] = { kind = "keyed", key = key, value = expr() }
      else
        fields[#fields + 1] = { kind = "pos", value = expr() }
      end
    until not (testnext(",") or testnext(";"))
    check_match("}", "{", where)
    return { tag = "Table", line = line, fields = fields }
  end

  local function string_node()
    local node = { tag = "String", value = V[i], text = X[i], line = L[i] }
    next_token()
    return node
  end

  -- funcargs; `where` is the line the suffixed expression started on, which
  -- is what Lua's "')' expected (to close '(' at line N)" cites.
  local function funcargs(where)
    if tt == "(" then
      next_token()
      local args
      if tt == ")" then args = {} else args = explist() end
      check_match(")", "(", where)
      return args
    elseif tt == "{" then
      return { constructor() }
    elseif tt == "<string>" then
      return { string_node() }
    end
    syntax_error("function arguments expected")
  end

  local function primaryexp()
    if tt == "<name>" then
      local node = { tag = "Id", name = V[i], line = L[i] }
      next_token()
      return node
    elseif tt == "(" then
      local line, where = L[i], EL[i]
      next_token()
      local e = expr()
      check_match(")", "(", where)
      return { tag = "Paren", line = line, expr = e }
    end
    syntax_error("unexpected symbol")
  end

  local function fieldsel(obj)
    next_token() -- skip '.' or ':'
    local kline = L[i]
    local name = str_checkname()
    return { tag = "Index", line = obj.line, obj = obj,
             key = { tag = "String", value = name, line = kline }, dot = true }
  end

  local function suffixedexp()
    local where = EL[i]
    local e = primaryexp()
    local line = e.line
    while true do
      if tt == "." then
        e = fieldsel(e)
      elseif tt == "[" then
        next_token()
        local key = expr()
        checknext("]")
        e = { tag = "Index", line = line, obj = e, key = key }
      elseif tt == ":" then
        next_token()
        local name = str_checkname()
        e = { tag = "Invoke", line = line, obj = e, method = name, args = funcargs(where) }
      elseif tt == "(" or tt == "<string>" or tt == "{" then
        e = { tag = "Call", line = line, func = e, args = funcargs(where) }
      else
        return e
      end
    end
  end

  local function simpleexp()
    local t = tt
    local node
    if t == "<number>" then
      node = { tag = "Number", text = X[i], value = V[i], line = L[i] }
    elseif t == "<string>" then
      return string_node()
    elseif t == "nil" then
      node = { tag = "Nil", line = L[i] }
    elseif t == "true" then
      node = { tag = "True", line = L[i] }
    elseif t == "false" then
      node = { tag = "False", line = L[i] }
    elseif t == "..." then
      if not fs.is_vararg then syntax_error("cannot use '...' outside a vararg function") end
      node = { tag = "Dots", line = L[i] }
    elseif t == "{" then
      return constructor()
    elseif t == "function" then
      local fline = L[i]
      next_token()
      return body(false, fline, EL[i])
    else
      return suffixedexp()
    end
    next_token()
    return node
  end

  -- Nesting depth of statements and subexpressions, bounded like
  -- lparser.c's enterlevel (LUAI_MAXCCALLS), so deep input gets an error
  -- instead of exhausting the stack.
  local depth, MAXDEPTH = 0, 200
  local function enterlevel()
    depth = depth + 1
    if depth > MAXDEPTH then syntax_error("C stack overflow") end
  end

  -- subexpr: operators bind while their left priority exceeds `limit`.
  local function subexpr(limit)
    enterlevel()
    local e
    if UNOPS[tt] then
      local op, line = tt, L[i]
      next_token()
      e = { tag = "Unop", op = op, line = line, expr = subexpr(UNARY_PRIORITY) }
    else
      e = simpleexp()
    end
    local op = tt
    local left = LEFT[op]
    while left and left > limit do
      local opline = L[i]
      next_token()
      local right = subexpr(RIGHT[op])
      e = { tag = "Binop", op = op, line = e.line, opline = opline, left = e, right = right }
      op = tt
      left = LEFT[op]
    end
    depth = depth - 1
    return e
  end
  expr = function() return subexpr(0) end

  ---------------------------------------------------------------------------
  -- Statements. Each appends its node(s) to the block it is given.

  block = function()
    enterblock(false)
    local b = { tag = "Block" }
    statlist(b)
    b.line = b[1] and b[1].line or L[i]
    leaveblock()
    return b
  end

  statlist = function(b)
    while not block_follow(true) do
      if tt == "return" then
        statement(b)
        return -- 'return' must be the last statement
      end
      statement(b)
    end
  end

  local function test_then_block(clauses)
    local line = L[i]
    next_token() -- skip 'if' or 'elseif'
    local cond = expr()
    checknext("then")
    local b = block()
    clauses[#clauses + 1] = { cond = cond, body = b, line = line }
  end

  local function ifstat(line)
    local node = { tag = "If", line = line, clauses = {} }
    test_then_block(node.clauses)
    while tt == "elseif" do test_then_block(node.clauses) end
    if tt == "else" then
      node.else_line = L[i]
      next_token()
      node.orelse = block()
    end
    node.endline = L[i]
    check_match("end", "if", line)
    return node
  end

  local function whilestat(line)
    next_token()
    local cond = expr()
    enterblock(true)
    checknext("do")
    local b = block()
    local endline = L[i]
    check_match("end", "while", line)
    leaveblock()
    return { tag = "While", line = line, cond = cond, body = b, endline = endline }
  end

  local function forbody(nvars)
    checknext("do")
    enterblock(false) -- scope of the loop's declared variables
    activate(nvars)
    local b = block()
    leaveblock()
    return b
  end

  local function forstat(line)
    enterblock(true) -- loop scope: 'break' jumps to its end
    next_token()
    local name = str_checkname()
    local node
    if tt == "=" then
      declare_hidden(3)
      declare(name)
      next_token()
      local start = expr()
      checknext(",")
      local stop = expr()
      local step
      if testnext(",") then step = expr() end
      node = { tag = "Fornum", line = line, var = name, start = start, stop = stop, step = step }
      activate(3)
      node.body = forbody(1)
    elseif tt == "," or tt == "in" then
      local names = { name }
      declare_hidden(4)
      declare(name)
      while testnext(",") do
        names[#names + 1] = str_checkname()
        declare(names[#names])
      end
      checknext("in")
      local exprs = explist()
      node = { tag = "Forin", line = line, names = names, exprs = exprs }
      activate(4)
      node.body = forbody(#names)
    else
      syntax_error("'=' or 'in' expected")
    end
    node.endline = L[i]
    check_match("end", "for", line)
    leaveblock()
    return node
  end

  local function repeatstat(line)
    enterblock(true)  -- loop block
    enterblock(false) -- scope block: the condition sees the body's locals
    next_token()
    local b = { tag = "Block" }
    statlist(b)
    b.line = b[1] and b[1].line or L[i]
    local untilline = L[i]
    check_match("until", "repeat", line)
    local cond = expr()
    leaveblock()
    leaveblock()
    return { tag = "Repeat", line = line, body = b, cond = cond, untilline = untilline }
  end

  local function funcstat(line)
    next_token() -- skip 'function'
    local target = { tag = "Id", name = V[i], line = L[i] }
    str_checkname()
    while tt == "." do target = fieldsel(target) end
    local method
    if tt == ":" then
      next_token()
      method = str_checkname()
    end
    local func = body(method ~= nil, line, line)
    check_readonly(target)
    return { tag = "FunctionStat", line = line, target = target, method = method, func = func }
  end

  local function localstat(line)
    local names, toclose = {}, false
    repeat
      local name = str_checkname()
      declare(name)
      local attrib
      if testnext("<") then
        attrib = str_checkname()
        checknext(">")
        if attrib ~= "const" and attrib ~= "close" then
          semerror(format("unknown attribute '%s'", attrib))
        end
        if attrib == "close" then
          if toclose then semerror("multiple to-be-closed variables in local list") end
          toclose = true
        end
      end
      vars[ndecl].attrib = attrib
      names[#names + 1] = { name = name, attrib = attrib }
    until not testnext(",")
    local exprs = testnext("=") and explist() or {}
    activate(#names)
    return { tag = "Local", line = line, names = names, exprs = exprs }
  end

  local function exprstat(line)
    local e = suffixedexp()
    if tt == "=" or tt == "," then
      local targets = { e }
      while true do
        local tg = e.tag
        if tg ~= "Id" and tg ~= "Index" then syntax_error("syntax error") end
        check_readonly(e)
        if not testnext(",") then break end
        e = suffixedexp()
        targets[#targets + 1] = e
      end
      checknext("=")
      return { tag = "Set", line = line, targets = targets, exprs = explist() }
    end
    if e.tag ~= "Call" and e.tag ~= "Invoke" then syntax_error("syntax error") end
    return { tag = "CallStat", line = line, call = e }
  end

  local function statement1(b)
    local line, t = L[i], tt
    local node
    if t == ";" then
      next_token()
      return
    elseif t == "if" then
      node = ifstat(line)
    elseif t == "while" then
      node = whilestat(line)
    elseif t == "do" then
      next_token()
      local body_ = block()
      node = { tag = "Do", line = line, body = body_, endline = L[i] }
      check_match("end", "do", line)
    elseif t == "for" then
      node = forstat(line)
    elseif t == "repeat" then
      node = repeatstat(line)
    elseif t == "function" then
      node = funcstat(line)
    elseif t == "local" then
      next_token()
      if tt == "function" then
        local fline = L[i]
        next_token()
        local name = str_checkname()
        declare(name)
        activate(1)
        node = { tag = "LocalFunction", line = line, name = name }
        node.func = body(false, fline, EL[i])
      else
        node = localstat(line)
      end
    elseif t == "::" then
      next_token()
      local name = str_checkname()
      checknext("::")
      b[#b + 1] = { tag = "Label", line = line, name = name }
      -- like lparser.c, no-op statements after a label are read first, so
      -- a label followed only by them still counts as ending its block
      while tt == ";" or tt == "::" do statement(b) end
      local lb = findlabel(name)
      if lb then semerror(format("label '%s' already defined on line %d", name, lb.line)) end
      createlabel(name, line, block_follow(false))
      return
    elseif t == "return" then
      next_token()
      local exprs = {}
      if not (block_follow(true) or tt == ";") then exprs = explist() end
      testnext(";")
      node = { tag = "Return", line = line, exprs = exprs }
    elseif t == "break" then
      local gline = EL[i]
      next_token()
      newgoto("break", gline)
      node = { tag = "Break", line = line }
    elseif t == "goto" then
      next_token()
      local gline = EL[i]
      local name = str_checkname()
      if not findlabel(name) then newgoto(name, gline) end
      node = { tag = "Goto", line = line, name = name }
    else
      node = exprstat(line)
    end
    b[#b + 1] = node
  end

  statement = function(b)
    enterlevel()
    statement1(b)
    depth = depth - 1
  end

  local P = {}
  function P.chunk()
    if tt == "<error>" then lex_error(i) end
    open_func(true, 0)
    local b = { tag = "Block" }
    statlist(b)
    b.line = b[1] and b[1].line or L[i]
    check("<eof>")
    close_func()
    return b
  end
  function P.expression()
    if tt == "<error>" then lex_error(i) end
    open_func(true, 0)
    local e = expr()
    check("<eof>")
    return e
  end
  return P
end

local function run(entry, source, chunkname)
  if type(source) ~= "string" then
    error("parse: source must be a string, got " .. type(source), 3)
  end
  local p = new_parser(lexer.tokenize(source, entry == "expression"), lexer.chunkid(chunkname or source))
  local ok, res = pcall(p[entry])
  if ok then return res end
  if getmetatable(res) == ParseError then return nil, res.msg end
  error(res, 0) -- a bug in the parser: let it show
end

function M.parse(source, chunkname)
  return run("chunk", source, chunkname)
end

function M.parse_expression(source, chunkname)
  return run("expression", source, chunkname)
end

-- Children of each kind of node, in source order.
local function each(list, f, parent)
  for k = 1, #list do f(list[k], parent) end
end
local CHILDREN = {
  Block = function(n, f) each(n, f, n) end,
  Local = function(n, f) each(n.exprs, f, n) end,
  Set = function(n, f) each(n.targets, f, n); each(n.exprs, f, n) end,
  CallStat = function(n, f) f(n.call, n) end,
  Do = function(n, f) f(n.body, n) end,
  While = function(n, f) f(n.cond, n); f(n.body, n) end,
  Repeat = function(n, f) f(n.body, n); f(n.cond, n) end,
  If = function(n, f)
    for k = 1, #n.clauses do
      f(n.clauses[k].cond, n)
      f(n.clauses[k].body, n)
    end
    if n.orelse then f(n.orelse, n) end
  end,
  Fornum = function(n, f)
    f(n.start, n); f(n.stop, n)
    if n.step then f(n.step, n) end
    f(n.body, n)
  end,
  Forin = function(n, f) each(n.exprs, f, n); f(n.body, n) end,
  FunctionStat = function(n, f) f(n.target, n); f(n.func, n) end,
  LocalFunction = function(n, f) f(n.func, n) end,
  Return = function(n, f) each(n.exprs, f, n) end,
  Function = function(n, f) f(n.body, n) end,
  Table = function(n, f)
    for k = 1, #n.fields do
      local fld = n.fields[k]
      if fld.kind == "keyed" then f(fld.key, n) end
      f(fld.value, n)
    end
  end,
  Binop = function(n, f) f(n.left, n); f(n.right, n) end,
  Unop = function(n, f) f(n.expr, n) end,
  Index = function(n, f) f(n.obj, n); f(n.key, n) end,
  Call = function(n, f) f(n.func, n); each(n.args, f, n) end,
  Invoke = function(n, f) f(n.obj, n); each(n.args, f, n) end,
  Paren = function(n, f) f(n.expr, n) end,
}
M.CHILDREN = CHILDREN

function M.walk(node, pre, post)
  local function visit(n, parent)
    if pre == nil or pre(n, parent) ~= false then
      local children = CHILDREN[n.tag]
      if children then children(n, visit) end
    end
    if post then post(n, parent) end
  end
  visit(node, nil)
end

return M
