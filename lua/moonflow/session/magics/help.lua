-- %help [name]: a docstring (tf.help), a magic's doc, or the list of magics.

local tf = require("moonflow")

local function first_line(text)
  return (text or ""):match("^[^\n]*")
end

local function overview(session)
  local lines = {
    ("moonflow %s: TensorFlow's execution model, scripted in Lua 5.4."):format(
      tostring(tf.__version__)),
    "tf.help(value) returns a docstring; %help tf.func prints one. Tab completes names.",
    "",
    "Magics:",
  }
  -- A magic's first doc line is "usage  what it does": the usages make
  -- one column, padded to the widest.
  local rows, width = {}, 0
  for _, name in ipairs(session.magics()) do
    local ok, magic = pcall(session.magic, name)
    local line = ok and first_line(magic.doc) or "%" .. name .. "  (cannot load: " .. tostring(magic) .. ")"
    local usage, what = line:match("^(.-)%s%s+(.*)$")
    if not usage then usage, what = line, "" end
    rows[#rows + 1] = { usage, what }
    width = math.max(width, utf8.len(usage) or #usage)
  end
  for _, row in ipairs(rows) do
    local pad = (" "):rep(width - (utf8.len(row[1]) or #row[1]) + 2)
    lines[#lines + 1] = ("  %s%s%s"):format(row[1], pad, row[2])
  end
  return table.concat(lines, "\n")
end

return {
  doc = [[%help [name]   docstring of name (tf.range, x:numpy, %time); no name: this list
Prints tf.help(value) for a Lua expression, the doc of a magic (%help %time),
or, without a name, an overview and the list of magics.]],
  run = function(args, session)
    if args == "" then
      print(overview(session))
      return
    end
    local magic = args:match("^%%+([%a_][%w_]*)$")
    if magic then
      print(session.magic(magic).doc)
      return
    end
    local value = session.value_of((args:gsub(":", ".")))
    if value == nil then
      print(("%s is nil: nothing to describe."):format(args))
      return
    end
    print(session.describe(value, args))
  end,
}
