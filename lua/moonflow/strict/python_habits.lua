-- python_habits.lua — Python typed at a Lua prompt. A TensorFlow user's
-- hands write `import tensorflow as tf`, `@tf.function` or
-- `tf.constant([1, 2, 3])` before their head switches language, and Lua
-- answers with a parse error near a token. The session asks `hint` for the
-- line that gives the habit away and adds the Lua way to write it, and the
-- lesson that lists the differences, to the error the cell raises.

local lexer = require("moonflow.autograph.lexer")

local habits = {}

--- Where a learner finds every difference (tutorials/13-from-python.md).
habits.LESSON = "lesson 13 lists the differences: %tutorial 13-from-python"

-- Python's block statements, whose line ends with a colon.
local BLOCK = { ["for"] = true, ["if"] = true, ["elif"] = true, ["else"] = true, ["while"] = true,
  ["with"] = true, ["try"] = true, ["except"] = true, ["finally"] = true }

local function block_colon(line)
  local word = line:match("^%s*(%a+)")
  return word and BLOCK[word] and line:find(":%s*$") ~= nil
end

-- Each rule: a test on one line of code (strings and comments blanked by
-- the lexer, quotes kept) and the Lua way; the first rule a line meets
-- gives the hint. `opens`: a line Lua reads as the start of a longer chunk
-- (`for i in range(3):` waits for a method name), which is Python even
-- when the cell is not yet complete Lua.
local RULES = {
  { function(l) return l:find("^%s*import%s+[%a_]") or l:find("^%s*from%s+[%a_][%w_.]*%s+import%s") end,
    "Lua has no import: tf is already loaded in moonflow (a script run by stock lua5.4 starts with "
      .. "local tf = require(\"moonflow\"))", opens = true },
  { function(l) return l:find("^%s*@[%a_]") end,
    "Lua has no decorators: write f = tf.func(function(x) ... end) (tf.func is tf.function)",
    opens = true },
  { function(l) return l:find("^%s*def%s+[%a_][%w_]*%s*%(") end,
    "a Lua function is function f(x) ... end, or local f = function(x) ... end", opens = true },
  { function(l) return l:find("^%s*class%s+[%a_]") end,
    "a class is Net = tf.Module:extend(\"Net\"), with function Net:init() ... end and "
      .. "function Net:__call(x) ... end", opens = true },
  { block_colon,
    "a Lua block ends with end, not a colon and indentation: for i = 0, 2 do ... end, "
      .. "if c then ... end, while c do ... end", opens = true },
  { function(l) return l:find("%f[%w_]lambda%f[^%w_]") end,
    "Lua's lambda v: v * v is function(v) return v * v end" },
  { function(l) return l:find("%*%*") end, "Lua's power is ^: 2 ^ 3, x ^ 2 for a tensor too" },
  { function(l) return l:find("!=") end, "Lua's not-equal is ~=" },
  { function(l) return l:find("^%s*#") end, "a Lua comment starts with --" },
  -- not after `{` or `,`: Lua's own `{[k] = v, [j] = w}`
  { function(l) return l:find("[=(]%s*%[") end,
    "a Lua list is written with braces: tf.constant({1, 2, 3}) (x[1] indexes as in Python)" },
  { function(l) return l:find("%f[%w_]f[\"']") end,
    "Lua has no f-strings: (\"%d items of %s\"):format(n, name), or \"x = \" .. tostring(x)" },
}

--- hint(code [, incomplete]) -> the Lua way for the first line of code
-- that reads as Python, or nil. incomplete: code Lua reads as the start of
-- a chunk, which only lines that open Python blocks give away.
function habits.hint(code, incomplete)
  -- the lexer blanks a first line starting with # (a script's #! line)
  if not incomplete and code:find("^%s*#[^!]") then return "a Lua comment starts with --" end
  local text = lexer.code_only(code)
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    for _, rule in ipairs(RULES) do
      if (rule.opens or not incomplete) and rule[1](line) then return rule[2] end
    end
  end
  return nil
end

--- hint_fstring(code, env) -> the f-string hint when code calls an f that
-- env does not hold with a string (f"..."), which Lua reads as a call.
function habits.hint_fstring(code, env)
  if rawget(env, "f") ~= nil then return nil end
  if not lexer.code_only(code):find("%f[%w_]f[\"']") then return nil end
  return RULES[#RULES][2]
end

--- with_hint(message, hint) -> message with the hint and the lesson.
function habits.with_hint(message, hint)
  return ("%s\n(Python habit? %s; %s)"):format(message, hint, habits.LESSON)
end

return habits
