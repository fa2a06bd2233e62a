-- session/init.lua (moonflow.session) — what a moonflow session does with
-- the cells it is given; the C side (lua/host/session.c) calls the
-- functions marked "C:" under a message handler that renders errors, with
-- interrupts armed.
--
-- A cell (a REPL entry, a notebook cell) is code, a %%cell magic, help
-- (`?name`, `name?`) or exit (`exit`, `quit`): session.cell_kind says
-- which, once for both hosts; session.cell answers help and exit and the
-- host presents them (lua/host/session.h, mf_session_run_cell).
--
-- Evaluation follows lua.c: `return <code>` is tried first so an expression
-- echoes its values; then the code as statements; a syntax error that ends
-- at <eof> means "incomplete, ask for more lines". Beyond lua.c, a cell
-- whose last top-level line(s) form an expression echoes it too
-- (x = 1 <newline> x + 1 shows 2), as notebooks do.
--
-- Every compiled chunk's text is kept in the host's sources under its chunk
-- name (debug.getinfo(f).source), so AutoGraph can read functions typed
-- interactively. Names are made unique ("=In[3]", then "=In[3]#2").
--
-- Magics: a line `%name args` runs require("moonflow.session.magics.name").run(args,
-- session); a cell starting `%%name args` runs its run_cell(args, body,
-- session). A magic file returns {doc = "...", run = fn [, run_cell = fn]}
-- and may use these session functions: load, run_cell, magic, magics,
-- user_globals, reset, describe, value_of, type_name, tensor_info, clock,
-- format_duration (documented below).

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local doc = require("moonflow.doc")
local state = require("moonflow.state")
local display = require("moonflow.session.display")
local lexer = require("moonflow.autograph.lexer")
local habits = require("moonflow.strict.python_habits")
local receiver = require("moonflow.receiver")
local variables = require("moonflow.tensor.variable")
local tf = require("moonflow")
local strict = require("moonflow.strict")

-- Loaded with the first help asked for (issue 28: not at start).
local HELP_MODULE = "moonflow.reference.help"
local host = state.host
local raise = errors.raise

local session = {}

local sources = host.sources
local initial_globals -- the globals before the first evaluation (%who, %reset)
local current = { chunkname = "=(eval)", echo = false }

local KEYWORDS = display.keywords
local metafield = display.metafield

local IDENTIFIER = "^[%a_][%w_]*$"
local MAX_SPLITS = 50 -- top-level lines tried as the start of a trailing expression

-- Compiling --------------------------------------------------------------

--- The first free name among chunkname, chunkname#2, ... ("@file" names
-- are file paths and are reused).
local function unique_name(chunkname)
  if chunkname:sub(1, 1) == "@" then return chunkname end
  local name, k = chunkname, 1
  while sources[name] ~= nil do
    k = k + 1
    name = chunkname .. "#" .. k
  end
  return name
end

local function is_incomplete(message)
  return message:sub(-5) == "<eof>"
end

--- Finds the last top-level line(s) of code that form an expression:
-- returns the function of `<before> return <expression>` and its text.
local function split_trailing(code, name, env)
  local starts = {}
  for p in code:gmatch("\n()[^%s(]") do starts[#starts + 1] = p end
  for i = #starts, math.max(1, #starts - MAX_SPLITS + 1), -1 do
    local p = starts[i]
    local suffix = code:sub(p)
    if load("return " .. suffix, name, "t") and load(code:sub(1, p - 1), name, "t") then
      local text = code:sub(1, p - 1) .. "return " .. suffix
      local f = load(text, name, "t", env)
      if f then return f, text end
    end
  end
end

--- Compiles code as lua.c does. Returns the function and the exact text
-- compiled, or nil, "incomplete" | "error", message.
local function compile(code, name, want_value)
  local env = current.env or _G
  local text = "return " .. code
  local f = load(text, name, "t", env)
  if f then return f, text end
  local err
  f, err = load(code, name, "t", env)
  if want_value or not f then
    local g, split = split_trailing(code, name, env)
    if g then return g, split end
  end
  if f then return f, code end
  return nil, is_incomplete(err) and "incomplete" or "error", err
end

--- Compiles code under a unique form of chunkname and keeps its text.
-- Returns the function, or nil, "incomplete" | "error", message.
local function compile_kept(code, chunkname, want_value)
  local name = unique_name(chunkname)
  local f, text, message = compile(code, name, want_value)
  if f then sources[name] = text end
  -- a cell `return v.method(x)` tail-calls: the method's error finds
  -- the cell's text here (receiver.lua)
  if f then host.last_chunk = name end
  return f, text, message
end

--- session.load(code) -> function
-- Compiles code in the current cell's name for a magic (%time stmt):
-- an expression returns its values. Raises SyntaxError.
function session.load(code)
  local f, _, message = compile_kept(code, current.chunkname, true)
  if not f then raise("SyntaxError", message) end
  return f
end

-- Magics -----------------------------------------------------------------

--- session.magic(name) -> the magic's module {doc=, run=, run_cell=}
-- Raises UsageError for a magic that does not exist.
function session.magic(name)
  local mod = "moonflow.session.magics." .. name
  if not name:match(IDENTIFIER)
    or (package.loaded[mod] == nil and package.preload[mod] == nil
        and not package.searchpath(mod, package.path)) then
    raise("UsageError", ("unknown magic %%%s (%%help lists the magics)"):format(name))
  end
  local magic = require(mod)
  if type(magic) ~= "table" then raise("TypeError", mod .. " must return {doc=, run=}") end
  return magic
end

--- session.magics() -> sorted names of every magic that can be loaded.
function session.magics()
  local names, seen = {}, {}
  local function add(n)
    if n and not seen[n] then
      seen[n] = true
      names[#names + 1] = n
    end
  end
  for template in package.path:gmatch("[^;]+") do
    local dir = template:match("^(.-)%?")
    for _, file in ipairs(dir and host.listdir(dir .. "moonflow/session/magics") or {}) do
      add(file:match("^([%a_][%w_]*)%.lua$"))
    end
  end
  for _, loaded in ipairs({ package.loaded, package.preload }) do
    for mod in pairs(loaded) do add(mod:match("^moonflow%.session%.magics%.([%a_][%w_]*)$")) end
  end
  table.sort(names)
  return names
end

--- args without a trailing Lua comment (`%eager on  -- why`): a "--"
-- at the start or after a space, outside a quoted string, and not an
-- option flag (`%graph f --optimized`: "--" then a letter).
local function strip_comment(args)
  local quote, i = nil, 1
  while i <= #args do
    local c = args:sub(i, i)
    if quote then
      if c == "\\" then i = i + 1 elseif c == quote then quote = nil end
    elseif c == '"' or c == "'" then
      quote = c
    elseif args:sub(i, i + 1) == "--" and (i == 1 or args:sub(i - 1, i - 1):match("%s"))
      and not args:sub(i + 2, i + 2):match("%a") then
      return (args:sub(1, i - 1):gsub("%s+$", ""))
    end
    i = i + 1
  end
  return args
end
session.strip_comment = strip_comment

local function run_line_magic(line, echo)
  local name, args = line:match("^%%([%a_][%w_]*)%s*(.-)%s*$")
  args = args and strip_comment(args)
  if not name then
    raise("UsageError", ("%s is not a magic: magics look like %%name args"):format(line))
  end
  local magic = session.magic(name)
  if type(magic.run) ~= "function" then
    raise("UsageError", ("%%%s is a cell magic: start the cell with %%%%%s"):format(name, name))
  end
  local results = table.pack(magic.run(args, session))
  if echo and results.n > 0 then display.result(results) end
end

-- Comparing a tensor with a number ------------------------------------------

-- Lua calls __eq only when both sides are tables or both userdata, so
-- `x == 1` for a tensor x is plain false, whatever x holds: the first
-- Python habit that gives a wrong answer silently. A cell comparing a
-- global the session can see to be a tensor or variable gets one warning.
local warned_eq = false

local function is_tensor_like(v)
  return core.is_tensor(v) or variables.is_variable(v)
end

local function lookup(env, path)
  local v = env
  for part in path:gmatch("[^.]+") do
    if type(v) ~= "table" then return nil end
    local ok, field = pcall(function() return v[part] end)
    if not ok then return nil end
    v = field
  end
  return v
end

--- The first `name == number` (or `~=`, either order) in code whose name
-- holds a tensor in env: name, operator, number.
local function tensor_number_comparison(code, env)
  local text = lexer.code_only(code)
  local NAME, NUM = "([%a_][%w_%.]*)", "(%-?%d[%w%.]*)"
  for name, op, num in text:gmatch(NAME .. "%s*([=~]=)%s*" .. NUM) do
    if is_tensor_like(lookup(env, name)) then return name, op, num end
  end
  for num, op, name in text:gmatch(NUM .. "%s*([=~]=)%s*" .. NAME) do
    if is_tensor_like(lookup(env, name)) then return name, op, num end
  end
end

session.tensor_number_comparison = tensor_number_comparison

local function warn_tensor_comparison(code)
  if warned_eq then return end
  local name, op, num = tensor_number_comparison(code, current.env or _G)
  if not name then return end
  warned_eq = true
  io.stderr:write(("WARNING: `%s %s %s` compares a tensor with a Lua number, which Lua never "
    .. "hands to the tensor: it is always %s, whatever %s holds. Compare the value, "
    .. "`%s:numpy() %s %s`, or elementwise, `tf.%s(%s, %s)`. (This warning is shown once.)\n")
    :format(name, op, num, op == "==" and "false" or "true", name, name, op, num,
      op == "==" and "equal" or "not_equal", name, num))
end

-- Cells ------------------------------------------------------------------

--- Splits a cell into code segments {first = line, text = ...} and magic
-- lines {magic = "%name args"}; blank code segments are dropped.
local function segments(code)
  if not (code:find("^%%") or code:find("\n%%")) then return { { first = 1, text = code } } end
  local segs, lines, first, lineno = {}, {}, 1, 0
  local function flush()
    local text = table.concat(lines, "\n")
    if text:find("%S") then segs[#segs + 1] = { first = first, text = text } end
    lines = {}
  end
  for line in (code .. "\n"):gmatch("([^\n]*)\n") do
    lineno = lineno + 1
    if line:match("^%%") then
      flush()
      segs[#segs + 1] = { magic = line }
    else
      if #lines == 0 then first = lineno end
      lines[#lines + 1] = line
    end
  end
  flush()
  return segs
end

--- Compiles every code segment (line numbers kept by padding); returns the
-- segments with their functions, or nil, "incomplete" | "error", message.
local function compile_segments(segs, line_offset, keep, echo)
  local compiled = {}
  for i, seg in ipairs(segs) do
    if seg.magic then
      compiled[i] = seg
    else
      local text = ("\n"):rep(line_offset + seg.first - 1) .. seg.text
      local want = echo and i == #segs
      local f, how, message
      if keep then
        f, how, message = compile_kept(text, current.chunkname, want)
      else
        f, how, message = compile(text, "=(check)", want)
      end
      if not f then
        return nil, (how == "incomplete" and i == #segs) and "incomplete" or "error", message
      end
      compiled[i] = { fn = f, text = seg.text }
    end
  end
  return compiled
end

--- session.run_cell(code [, line_offset]) -> nil | "incomplete", message
-- Runs code as a cell in the current context: magic lines, statements,
-- and the echo of a trailing expression. Nothing runs unless all of it
-- compiles. line_offset: lines before code in the cell (%%time's line).
function session.run_cell(code, line_offset)
  local echo = current.echo
  local compiled, how, message = compile_segments(segments(code), line_offset or 0, true, echo)
  if not compiled then
    local hint = habits.hint(code, how == "incomplete")
    if hint then raise("SyntaxError", habits.with_hint(message, hint)) end
    if how == "incomplete" then return "incomplete", message end
    raise("SyntaxError", message)
  end
  local fstring = habits.hint_fstring(code, current.env or _G)
  if fstring then
    raise("SyntaxError", habits.with_hint("f\"...\" calls a function f, which is not defined", fstring))
  end
  for i, seg in ipairs(compiled) do
    local last = echo and i == #compiled
    if seg.magic then
      run_line_magic(seg.magic, last)
    else
      local results = table.pack(seg.fn())
      warn_tensor_comparison(seg.text)
      if last and results.n > 0 then display.result(results) end
    end
  end
end

local CELL_MAGIC = "^%%%%([%a_][%w_]*)[ \t]*([^\n]*)\n?(.*)$"

-- Besides code (which may hold %magic lines) and a %%cell magic, a cell
-- may be one of two requests that are whole cells, never parts of code:
-- help, `?name` or `name?` (`??` adds a function's source), which is no
-- Lua anyway; and leaving, the cell `exit` or `quit`, optionally with
-- `()`, and nothing else but white space. So `exit = 1`, `print(exit)`,
-- `exit(0)` and an `exit` line inside a longer chunk stay code.
local EXIT = { exit = true, quit = true, ["exit()"] = true, ["quit()"] = true }

--- session.cell_kind(code) -> "exit" | "help", name, detail |
-- "magic", name, args, body | "code"
-- What a cell asks for: detail is 1 for `??`, else 0; a cell magic's
-- name, its arguments and the lines below it.
function session.cell_kind(code)
  local trimmed = code:match("^%s*(.-)%s*$")
  if EXIT[trimmed] then return "exit" end
  local lead, name, trail = trimmed:match("^(%??%??)([%a_][%w_%.:]*)(%??%??)$")
  if lead and (lead == "") ~= (trail == "") then
    return "help", name, math.max(#lead, #trail) - 1
  end
  local magic, args, body = code:match(CELL_MAGIC)
  if magic then return "magic", magic, args, body end
  return "code"
end

--- The code a cell runs: without its %%magic line, if it has one.
local function cell_body(code)
  local _, _, body = code:match(CELL_MAGIC)
  return body or code
end

--- Completeness of code without running it: "complete" | "incomplete" |
-- "invalid", and the message.
local function check(code)
  local compiled, how, message = compile_segments(segments(cell_body(code)), 0, false, true)
  if compiled then return "complete" end
  return how == "incomplete" and "incomplete" or "invalid", message
end

--- Records the globals present before the user's first code runs (so
-- what the host set up, like `arg`, is not the user's).
local function snapshot_globals()
  if initial_globals then return end
  initial_globals = {}
  for k, v in pairs(_G) do initial_globals[k] = v end
end

-- While a lesson is open, what the learner types reads the lesson's names
-- it has not defined itself (so `v * 2` works after a step made v) and
-- writes to the session's globals as always.
local fallback

-- Whether the code running now reads a never-assigned global as a
-- NameError (strict.lua): cells by default, scripts when they opt in.
local function strict_now()
  return current.strict ~= nil and tf.config.strict_globals(current.strict)
end

-- Names the session's code ever assigned, nil included: Lua forgets a
-- global set to nil (`result, gradient = f()` with gradient nil), Python
-- keeps it as None; only a name never assigned is a NameError.
local assigned = {}

local function missing_global(env, k)
  if type(k) == "string" and not assigned[k] and strict_now() then
    raise("NameError", strict.name_error(env, k), 3)
  end
end

-- The session's globals are _G: the library reads only Lua's own
-- globals, so only the user's code meets this. Installed by the first
-- cell, or by a script that opts in (tf.config.set_strict_globals): a
-- script that does not keeps a plain _G.
local function guard_globals()
  if getmetatable(_G) ~= nil then return end
  for k in pairs(_G) do assigned[k] = true end
  setmetatable(_G, {
    __index = missing_global,
    __newindex = function(t, k, v)
      assigned[k] = true
      rawset(t, k, v)
    end,
    __name = "session globals",
  })
end
state.on_strict_globals = function(on)
  if on then guard_globals() end
end

--- session.lenient(fn, ...) -> fn(...)'s results, with never-assigned
-- globals read as nil while fn runs: lesson checks test for nil.
function session.lenient(fn, ...)
  local running, saved = current, current.strict
  running.strict = nil
  local r = table.pack(pcall(fn, ...))
  running.strict = saved
  if not r[1] then error(r[2], 0) end
  return table.unpack(r, 2, r.n)
end

local prompt_env = setmetatable({}, {
  __index = function(env, k)
    local v = rawget(_G, k)
    if v == nil and fallback then v = fallback[k] end
    if v == nil then missing_global(env, k) end
    return v
  end,
  __newindex = function(_, k, v) _G[k] = v end,
  __name = "session globals",
})

--- session.set_fallback(t | nil): names the learner's code reads from t
-- when it has no global of that name (tutorial.lua: the open lesson).
function session.set_fallback(t)
  fallback = t
end

--- C: session.eval(code, chunkname, echo [, env]) -> nil | "incomplete", message
-- env: the table the code's globals live in (a lesson's own, tutorial.lua);
-- the session's globals when absent.
-- strict: "cell" for a cell typed at a prompt or run in a notebook
-- (session.cell), whose never-assigned globals are NameErrors by default.
function session.eval(code, chunkname, echo, env, strict_kind)
  snapshot_globals()
  current = { chunkname = chunkname, echo = echo, env = env or (fallback and prompt_env) or nil,
    strict = strict_kind }
  local kind, name, args, body = session.cell_kind(code)
  if kind ~= "magic" then return session.run_cell(code, 0) end
  -- The REPL sends a cell line by line: a cell magic takes the lines
  -- up to a blank one, as IPython's terminal does.
  if chunkname:match("^=stdin%[") and not code:find("\n%s*$") then
    return "incomplete", "a cell magic ends at a blank line"
  end
  args = strip_comment(args)
  local status, message = check(body)
  if status == "incomplete" then return status, message end
  local magic = session.magic(name)
  if type(magic.run_cell) ~= "function" then
    raise("UsageError", ("%%%%%s is not a cell magic (try %%%s on one line)"):format(name, name))
  end
  magic.run_cell(args, body, session)
end

--- C: session.cell(code, chunkname, echo) -> nil | "incomplete", message |
-- "help", text | "exit"
-- A cell typed at a prompt (session.cell_kind): help and exit are
-- answered here and presented by the host its own way; anything else runs
-- as session.eval runs it. Help on a name that holds nothing prints
-- "Object `name` not found." and gives no text.
function session.cell(code, chunkname, echo)
  local kind, name, detail = session.cell_kind(code)
  if kind == "exit" then return "exit" end
  if kind ~= "help" then
    guard_globals()
    return session.eval(code, chunkname, echo, nil, "cell")
  end
  local text = session.inspect(name, #name, detail)
  if not text then host.write("stdout", ("Object `%s` not found.\n"):format(name)) end
  return "help", text
end

--- C: session.run_file(path | nil, ...): runs a script (lua.c's dofile).
function session.run_file(path, ...)
  snapshot_globals()
  local name, text = "=stdin", nil
  if path then
    name = "@" .. path
    local file, err = io.open(path, "rb")
    if not file then raise("NotFoundError", "cannot open " .. err) end
    text = file:read("a")
    file:close()
  else
    text = io.stdin:read("a") or ""
  end
  local f, err
  if text:sub(1, 1) == "\27" and path then
    f, err = loadfile(path, "b")
  else
    text = text:gsub("^\239\187\191", ""):gsub("^#[^\n]*", "")
    f, err = load(text, name, "t")
    if f then sources[name] = text end
  end
  if not f then raise("SyntaxError", err) end
  current = { chunkname = name, echo = false, strict = "script" }
  return f(...)
end

--- session.env() -> the globals table the code being run sees: a lesson's
-- own environment while a lesson step runs, else _G (magics evaluate
-- their arguments in it).
function session.env()
  return current.env or _G
end

--- C: session.eval_expression(expr) -> the text/plain of its value(s)
function session.eval_expression(expr)
  local f, err = load("return " .. expr, "=(expression)", "t")
  if not f then raise("SyntaxError", err) end
  local results = table.pack(f())
  if results.n == 0 then return "" end
  return display.bundle_all(results)["text/plain"]
end

-- Completeness -----------------------------------------------------------

local NESTING = {
  ["function"] = 1, ["do"] = 1, ["then"] = 1, ["repeat"] = 1,
  ["end"] = -1, ["until"] = -1, ["elseif"] = -1,
  ["{"] = 1, ["("] = 1, ["}"] = -1, [")"] = -1,
}

--- How many blocks and brackets are open at the end of code (keywords in
-- strings and comments do not count: the lexer skips them). A first line
-- starting with '#' is code here (`#t`), not a script's "#!" line.
local function nesting(code)
  local toks = lexer.tokenize(code, true)
  local types, depth = toks.type, 0
  for k = 1, toks.n do depth = depth + (NESTING[types[k]] or 0) end
  return math.max(depth, 0)
end

--- C: session.is_complete(code) -> "complete" | "incomplete" | "invalid", indent
-- The REPL's continuation rule; indent is two spaces per open block.
function session.is_complete(code)
  local kind = session.cell_kind(code)
  if kind == "help" or kind == "exit" then return "complete", "" end
  local status = check(code)
  if status ~= "incomplete" then return status, "" end
  return status, ("  "):rep(nesting(cell_body(code)))
end

-- Values by name ---------------------------------------------------------

local function index(v, k)
  return v[k]
end

--- The value of a dotted name ("tf.math.add", "x:numpy" as "x.numpy"), or nil.
local function resolve(path)
  local v = _G
  for name in path:gmatch("[^%.:]+") do
    if not name:match(IDENTIFIER) then return nil end
    local ok, r = pcall(index, v, name)
    if not ok or r == nil then return nil end
    v = r
  end
  return v
end

--- session.type_name(v) -> "function", "tf.Tensor", ... (a metatable's
-- __name, with "moonflow." shown as "tf.").
function session.type_name(v)
  local name = metafield(v, "__name")
  if type(name) == "string" then return (name:gsub("^moonflow%.", "tf.")) end
  return type(v)
end

--- session.tensor_info(v) -> "shape=(2,) dtype=int32" for tensors and
-- variables (anything with a shape and a dtype), else nil.
function session.tensor_info(v)
  if getmetatable(v) == nil or type(v) == "string" then return nil end
  local ok_s, shape = pcall(index, v, "shape")
  local ok_d, dtype = pcall(index, v, "dtype")
  if not (ok_s and ok_d) or shape == nil or dtype == nil then return nil end
  local ok_n, dname = pcall(index, dtype, "name")
  return ("shape=%s dtype=%s"):format(tostring(shape),
    ok_n and type(dname) == "string" and dname or tostring(dtype))
end

--- session.value_of(expr) -> the first value of a Lua expression.
function session.value_of(expr)
  local f, err = load("return " .. expr, "=(help)", "t")
  if not f then raise("SyntaxError", err) end
  return (f())
end

--- The source text of a Lua function typed in this session or read from a file.
local function source_of(f)
  local info = debug.getinfo(f, "S")
  if not info or info.what ~= "Lua" then return nil end
  local text = sources[info.source]
  if not text and info.source:sub(1, 1) == "@" then
    local file = io.open(info.source:sub(2), "rb")
    text = file and file:read("a")
    if file then file:close() end
  end
  if not text then return nil end
  local lines, n = {}, 0
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    n = n + 1
    if n >= info.linedefined and n <= info.lastlinedefined then lines[#lines + 1] = line end
  end
  return table.concat(lines, "\n")
end

local MAX_DESCRIBE = 2000

--- session.describe(v, name [, detail]) -> text
-- tf.help's docstring of v when it has one (or a __help metamethod); else
-- name, type and what tf.help says of a function, or the value's text;
-- then the reference's example and errors of the name as typed (or of v's
-- public name). detail >= 1 adds a Lua function's source.
function session.describe(v, name, detail)
  -- the reference's examples load with the first help asked for
  local help = require(HELP_MODULE)
  local ok, text = pcall(help.docstring, v)
  local documented = doc.get(v) or metafield(v, "__help")
  if not (documented and ok and type(text) == "string" and text ~= "") then
    local shown = type(v) == "function" and ok and type(text) == "string" and text or display.text(v)
    if #shown > MAX_DESCRIBE then shown = shown:sub(1, MAX_DESCRIBE) .. " ..." end
    text = ("%s: %s\n%s"):format(name, session.type_name(v), shown)
  end
  -- the Example:/Errors: block of the name as typed (tf.help's own text)
  local block = help.examples(v, name, tf)
  if block then text = text .. "\n\n" .. block end
  local src = (detail or 0) >= 1 and type(v) == "function" and source_of(v)
  if src then text = text .. "\n\nSource:\n" .. src end
  return text
end

-- Completion -------------------------------------------------------------

-- A tensor's __call only iterates it (`for row in x`): not a method.
local function callable(v)
  return type(v) == "function" or (metafield(v, "__call") ~= nil and not core.is_tensor(v))
end

-- Names a tensor answers as slices (x["None"]), not members.
local NOT_MEMBERS = { None = true, newaxis = true }

local function add_keys(t, names, methods_only)
  for k, v in next, t do
    if type(k) == "string" and k:match(IDENTIFIER) and (not methods_only or callable(v)) then
      names[k] = true
    end
  end
end

--- Candidate names an __index function may answer: those a receiver.index
-- function says it answers, the keys of the tables it closes over (method
-- and field tables) and the names its source compares k with
-- (`k == "graph"`). Candidates are only proposals:
-- members() keeps those the object really answers.
local function add_index_candidates(fn, names)
  for _, name in ipairs(receiver.index_names(fn) or {}) do names[name] = true end
  for i = 1, 255 do
    local up, val = debug.getupvalue(fn, i)
    if up == nil then break end
    if type(val) == "table" and up ~= "_ENV" then add_keys(val, names, false) end
  end
  local info = debug.getinfo(fn, "S")
  local path = info.source:match("^@(.*)")
  local file = path and io.open(path)
  if not file then return end
  local n = 0
  for line in file:lines() do
    n = n + 1
    if n > info.lastlinedefined then break end
    if n >= info.linedefined then
      for name in line:gmatch("k == \"([%a_][%w_]*)\"") do names[name] = true end
    end
  end
  file:close()
end

--- The public field (or, with methods_only, method) names of v: the names
-- its own keys and its metatables' __index chain propose, kept when
-- indexing v with them really answers (a callable for methods), never a
-- private `_name` or a metamethod.
local function members(v, methods_only)
  local candidates, obj = {}, v
  for _ = 1, 10 do
    if type(obj) == "table" then add_keys(obj, candidates, false) end
    local mt = getmetatable(obj)
    if type(mt) ~= "table" then break end
    local idx = rawget(mt, "__index")
    if type(idx) == "function" then
      add_index_candidates(idx, candidates)
      break
    end
    if type(idx) ~= "table" or rawequal(idx, obj) then break end
    obj = idx
  end
  local names = {}
  for k in pairs(candidates) do
    if k:sub(1, 1) ~= "_" and not NOT_MEMBERS[k] then
      local ok, r = pcall(index, v, k)
      if ok and r ~= nil and (not methods_only or callable(r)) then names[k] = true end
    end
  end
  -- a namespace's names not yet made (tf.keras, ...): offered unmade,
  -- since making them would load what they hold
  if not methods_only and strict.is_namespace(v) then
    for _, k in ipairs(strict.pending(v)) do names[k] = true end
  end
  return names
end

--- session.members(v [, methods_only]) -> sorted public field/method names
-- of v, as completion after `v.` (`v:` with methods_only) offers them.
function session.members(v, methods_only)
  local out = {}
  for k in pairs(members(v, methods_only)) do out[#out + 1] = k end
  table.sort(out)
  return out
end

local function global_names()
  local names = {}
  add_keys(_G, names, false)
  for k in pairs(KEYWORDS) do names[k] = true end
  return names
end

local function matching(names, prefix)
  local out = {}
  local hidden = prefix:sub(1, 2) ~= "__"
  for name in pairs(names) do
    if name:sub(1, #prefix) == prefix and not (hidden and name:sub(1, 2) == "__") then
      out[#out + 1] = name
    end
  end
  table.sort(out)
  return out
end

--- C: session.complete(code, cursor) -> matches, start, end (byte offsets,
-- 0-based; the matches replace code[start, end)).
function session.complete(code, cursor)
  local before = code:sub(1, cursor)
  local magic = before:match("[^\n]*$"):match("^%%%%?([%w_]*)$")
  if magic then
    local names = {}
    for _, n in ipairs(session.magics()) do names[n] = true end
    return matching(names, magic), cursor - #magic, cursor
  end
  local chain = before:match("[%w_%.:]*$")
  local base, sep, partial = chain:match("^(.*)([%.:])([%w_]*)$")
  if not base then return matching(global_names(), chain), cursor - #chain, cursor end
  local v = base ~= "" and not base:find("[%.:]$") and resolve(base)
  if not v then return {}, cursor, cursor end
  return matching(members(v, sep == ":"), partial), cursor - #partial, cursor
end

-- Inspection -------------------------------------------------------------

--- The callee before the innermost "(" still open at the end of text.
local function open_call(text)
  local depth = 0
  for i = #text, 1, -1 do
    local c = text:sub(i, i)
    if c == ")" then depth = depth + 1 end
    if c == "(" then
      if depth == 0 then return text:sub(1, i - 1):match("([%a_][%w_%.:]*)%s*$") end
      depth = depth - 1
    end
  end
end

--- C: session.inspect(code, cursor, detail) -> text | nil
function session.inspect(code, cursor, detail)
  local before, after = code:sub(1, cursor), code:sub(cursor + 1)
  local name = before:match("[%w_%.:]*$") .. after:match("^[%w_]*")
  if not name:match("^[%a_]") then name = open_call(before) end
  if not name then return nil end
  local v = resolve(name)
  if v == nil then return nil end
  return session.describe(v, name, detail)
end

-- Globals ----------------------------------------------------------------

--- session.user_globals() -> sorted names of the globals defined since the
-- session started.
function session.user_globals()
  snapshot_globals()
  local names = {}
  for k in pairs(_G) do
    if initial_globals[k] == nil and type(k) == "string" then names[#names + 1] = k end
  end
  table.sort(names)
  return names
end

--- session.reset() -> how many user globals were removed. Globals present
-- at start (tf, the standard library) get their first values back.
function session.reset()
  local names = session.user_globals()
  for _, k in ipairs(names) do
    _G[k] = nil
    assigned[k] = nil
  end
  for k, v in pairs(initial_globals) do rawset(_G, k, v) end
  return #names
end

-- Helpers for magics -----------------------------------------------------

--- session.clock() -> monotonic seconds
session.clock = core.now

local UNITS = { { 1, "s" }, { 1e-3, "ms" }, { 1e-6, "µs" }, { 1e-9, "ns" } }

--- session.format_duration(seconds) -> "1.23 ms" (three significant digits;
-- below a nanosecond, three decimals of one, never an exponent)
function session.format_duration(t)
  if t >= 1000 then return ("%.0f s"):format(t) end
  if t < 1e-9 then return ("%.3f ns"):format(t / 1e-9) end
  for _, u in ipairs(UNITS) do
    if t >= u[1] then return ("%.3g %s"):format(t / u[1], u[2]) end
  end
end

--- C: session.start(): called once the state is ready (nothing to do:
-- the library took the host from the state module when it loaded).
function session.start() end

return session
