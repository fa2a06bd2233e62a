-- autograph_parser.lua — fuzzes AutoGraph's front end (lexer, parser,
-- printer, converter) with real Lua and mutations of it. The corpus is the
-- library's own Lua files and the ported TF reference functions; each case
-- takes one file, applies one to three seeded mutations (a span deleted,
-- duplicated or moved, a token or stray byte inserted, a line swapped, the
-- text cut short) and checks:
--   1. parsing never raises: it returns an AST or (nil, message);
--   2. it agrees with Lua: what Lua's `load` compiles must parse; what the
--      parser accepts, Lua must compile, apart from the checks Lua's code
--      generator makes after parsing (a goto's label, `break` outside a
--      loop, assigning a <const>/<close> local, too many locals/upvalues),
--      which AutoGraph leaves to Lua's own load of the converted code;
--   3. printing the AST gives Lua that compiles, and parsing that again
--      prints the same text (the printer is a fixed point);
--   4. converting every function of the AST raises nothing untyped, and the
--      converted chunk compiles.
-- Nothing the corpus contains is ever run. Prints TAP: one line per block
-- of cases, one "not ok" per failure with its replay command.
--
--   moonflow tests/fuzz/autograph_parser.lua [--seed S] [--count N] [--index I] [--show]
-- (--index I runs case I alone; --show prints its mutated source).

local tf = rawget(_G, "tf") or require("moonflow")
local parser = require("moonflow.autograph.parser")
local printer = require("moonflow.autograph.printer")
local converter = require("moonflow.autograph.converter")

local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "tests/fuzz"
local root = here .. "/../.."

local opts = { seed = 1, count = 500 }
do
  local i = 1
  while arg and arg[i] do
    local a = arg[i]
    if a == "--show" then
      opts.show = true
    elseif a == "--seed" or a == "--count" or a == "--index" then
      opts[a:sub(3)] = assert(math.tointeger(tonumber(arg[i + 1])), a)
      i = i + 1
    else
      error("unknown argument " .. a)
    end
    i = i + 1
  end
end

-- ---- the corpus ----------------------------------------------------------

local function read(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local text = f:read("a")
  f:close()
  return text
end

local corpus = {}
do
  local p = io.popen('ls "' .. root .. '"/lua/moonflow/*.lua "' .. root .. '"/lua/moonflow/*/*.lua "'
    .. root .. '"/lua/moonflow/session/magics/*.lua "' .. root .. '"/tests/tf/autograph_refs.lua 2>/dev/null')
  for path in p:lines() do
    local text = read(path)
    if text then corpus[#corpus + 1] = { path = path:gsub("^.*/lua/", "lua/"):gsub("^.*/tests/", "tests/"), text = text } end
  end
  p:close()
  table.sort(corpus, function(a, b) return a.path < b.path end)
  assert(#corpus > 20, "the corpus is the library's Lua files: run from the source tree")
end

-- ---- the seeded generator the differential test uses (tests/diff/gen.lua) ----

package.path = here .. "/../diff/?.lua;" .. package.path
local rng_new = require("gen").rng

-- ---- mutations -------------------------------------------------------------

local TOKENS = { "end", "then", "do", "else", "elseif", "(", ")", "{", "}", "[", "]", "local", "=", "==",
  "function", "return", "goto continue", "::continue::", "break", "--[[", "]]", "[[", '"', "'", "\\",
  "...", "..", ",", ";", ":", "#", "~", "//", "<const>", "<close>", "0x", "1e", "..=", "not", "and", "or",
  "\0", "\255", "\194", "--", "\n", "  ", "until", "repeat", "while", "for", "in", "if", "nil", "tf.range(3)" }

local function span(r, text)
  local a = r.int(#text + 1) + 1
  return a, math.min(#text, a + r.int(40))
end

local MUTATIONS = {
  function(r, t) local a, b = span(r, t) return t:sub(1, a - 1) .. t:sub(b + 1) end, -- delete
  function(r, t) local a, b = span(r, t) return t:sub(1, b) .. t:sub(a, b) .. t:sub(b + 1) end, -- duplicate
  function(r, t) -- move a span elsewhere
    local a, b = span(r, t)
    local piece, rest = t:sub(a, b), t:sub(1, a - 1) .. t:sub(b + 1)
    local at = r.int(#rest + 1)
    return rest:sub(1, at) .. piece .. rest:sub(at + 1)
  end,
  function(r, t) local at = r.int(#t + 1) return t:sub(1, at) .. " " .. r.pick(TOKENS) .. " " .. t:sub(at + 1) end,
  function(r, t) local at = r.int(#t + 1) return t:sub(1, at) .. string.char(r.int(256)) .. t:sub(at + 1) end,
  function(r, t) -- swap two lines
    local lines = {}
    for l in (t .. "\n"):gmatch("([^\n]*)\n") do lines[#lines + 1] = l end
    local i, j = r.int(#lines) + 1, r.int(#lines) + 1
    lines[i], lines[j] = lines[j], lines[i]
    return table.concat(lines, "\n")
  end,
  function(r, t) return t:sub(1, r.int(#t + 1)) end, -- cut short
}

--- Case index's source: an unmutated file one case in eight, else one to
--- three mutations of a file (a window of it, to keep cases small).
local function make_case(seed, index)
  local r = rng_new(seed, index)
  local file = corpus[r.int(#corpus) + 1]
  local text = file.text
  local what = file.path
  if r.int(8) ~= 0 then
    local a = r.int(math.max(1, #text - 3000)) + 1
    text = text:sub(a, a + 3000)
    what = what .. (" [%d..]"):format(a)
    for _ = 1, r.int(3) + 1 do text = MUTATIONS[r.int(#MUTATIONS) + 1](r, text) end
  end
  return text, what
end

-- ---- checks ----------------------------------------------------------------

-- What Lua's code generator rejects after a successful parse (lparser.c's
-- semantic checks): AutoGraph's parser builds the tree and leaves these to
-- Lua's own load of the converted code.
local SEMANTIC = { "no visible label", "break outside", "attempt to assign to const", "label '.-' already defined",
  "jumps into the scope", "too many local variables", "too many upvalues", "function or expression needs too many",
  "control structure too long", "multiple to%-be%-closed", "chunk has too many", "overflow" }

local function semantic(message)
  for _, p in ipairs(SEMANTIC) do
    if message:find(p) then return true end
  end
  return false
end

local function typed(e) return type(e) == "table" and e.type ~= nil end

local function compiles(text) return load(text, "=fuzz", "t") end

local function each_function(ast, f)
  parser.walk(ast, function(node)
    if type(node) == "table" and node.tag == "Function" then f(node) end
  end)
end

--- nil when the case passes, else what went wrong.
local function check(text)
  local ok, ast, perr = pcall(parser.parse, text, "=fuzz")
  if not ok then return "parser raised: " .. tostring(ast) end
  local lua_fn, lua_err = compiles(text)
  if lua_fn and not ast then return "Lua compiles it, the parser rejects it: " .. tostring(perr) end
  if not ast then return nil end
  if not lua_fn and not semantic(lua_err) then
    return "the parser accepts what Lua rejects: " .. tostring(lua_err)
  end
  local okp, printed = pcall(printer.print, ast)
  if not okp then return "printer raised: " .. tostring(printed) end
  if lua_fn then
    local _, perr2 = compiles(printed)
    if perr2 then return "the printed AST does not compile: " .. perr2 end
    local again = parser.parse(printed, "=fuzz")
    if not again then return "the printed AST does not parse again" end
    local twice = printer.print(again)
    if twice ~= printed then return "printing is not a fixed point" end
  end
  local failure
  each_function(ast, function(fnode)
    if failure then return end
    local okc, conv = pcall(converter.convert_function, fnode)
    if not okc then
      if not typed(conv) then failure = "converter raised an untyped error: " .. tostring(conv) end
      return
    end
    local okq, code = pcall(printer.print, converter.chunk(conv, {}))
    if not okq then
      failure = "printing the converted function raised: " .. tostring(code)
      return
    end
    if lua_fn then
      local _, cerr = compiles(code)
      if cerr and not semantic(cerr) then failure = "the converted function does not compile: " .. cerr end
    end
  end)
  return failure
end

-- ---- run -------------------------------------------------------------------

local function replay(index)
  return ("moonflow tests/fuzz/autograph_parser.lua --seed %d --index %d --show"):format(opts.seed, index)
end

local first, last = 0, opts.count - 1
if opts.index then first, last = opts.index, opts.index end
local n, failures, block, block_fail, parsed = 0, 0, 0, 0, 0
local BLOCK = 100
local function flush_block(upto)
  n = n + 1
  print(("%s %d - cases %d..%d (%d parsed)"):format(block_fail == 0 and "ok" or "not ok", n, block, upto, parsed))
  block, block_fail, parsed = upto + 1, 0, 0
end
block = first
for index = first, last do
  local text, what = make_case(opts.seed, index)
  if opts.show then io.stderr:write(text, "\n---\n") end
  -- A hang in the parser is a failure too: a hook bounds each case.
  local started = os.clock()
  debug.sethook(function()
    if os.clock() - started > 10 then error("case ran past 10 s (a hang)") end
  end, "", 100000)
  local ok, why = pcall(check, text)
  debug.sethook()
  if ok and why == nil and parser.parse(text, "=fuzz") then parsed = parsed + 1 end
  if not ok then why = "harness: " .. tostring(why) end
  if why then
    failures = failures + 1
    block_fail = block_fail + 1
    print(("# case %d (%s): %s"):format(index, what, (why:gsub("\n", " "))))
    print("#   replay: " .. replay(index))
  end
  if (index - first + 1) % BLOCK == 0 or index == last then flush_block(index) end
end
print("1.." .. n)
io.stderr:write(("autograph parser fuzz: %d cases from seed %d, %d failing\n"):format(last - first + 1, opts.seed,
  failures))
os.exit(failures == 0 and 0 or 1)
