-- magic_target.lua — shared by %sig, %graph and %trace: splits "<expr> [args]"
-- and evaluates the expression (and the argument list) in the user's
-- globals (a lesson's own while a lesson step runs), resolving what it
-- names to a tf.func or a concrete function.

local errors = require("moonflow.errors")
local func = require("moonflow.trace.func")
local session = require("moonflow.session")

local raise = errors.raise

local target = {}

-- The end of the first expression: the first space outside brackets/quotes.
local function split(text)
  text = text:match("^%s*(.-)%s*$")
  local depth, quote = 0, nil
  for i = 1, #text do
    local c = text:sub(i, i)
    if quote then
      if c == quote and text:sub(i - 1, i - 1) ~= "\\" then quote = nil end
    elseif c == '"' or c == "'" then
      quote = c
    elseif c == "(" or c == "{" or c == "[" then
      depth = depth + 1
    elseif c == ")" or c == "}" or c == "]" then
      depth = depth - 1
    elseif c:match("%s") and depth == 0 then
      return text:sub(1, i - 1), text:sub(i + 1):match("^%s*(.-)$")
    end
  end
  return text, ""
end

local function eval_list(code)
  local f, err = load("return " .. code, "=(magic)", "t", session.env())
  if not f then raise("SyntaxError", err, 3) end
  return table.pack(f())
end

--- Parses "<expr> [args]" and returns (value, args table or nil, expr text).
function target.parse(text, usage)
  local expr, rest = split(text)
  if expr == "" then raise("UsageError", usage, 3) end
  local value = eval_list(expr)[1]
  local args = rest ~= "" and eval_list(rest) or nil
  return value, args, expr
end

--- The concrete function a magic should show: the one for `args`, else the
--- most recent trace; nil when there is none.
function target.concrete(value, args)
  if func.is_concrete(value) then return value end
  if func.is_func(value) then
    if args then return value:get_concrete_function(table.unpack(args, 1, args.n)) end
    local all = value:concrete_functions()
    return all[#all]
  end
  return nil
end

function target.check_func(value, expr, usage)
  if not func.is_func(value) and not func.is_concrete(value) then
    raise("TypeError", ("%s is a %s, not a tf.func or ConcreteFunction (%s)"):format(
      expr, type(value), usage), 3)
  end
end

return target
