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
  for _, name in ipairs(session.magics()) do
    local ok, magic = pcall(session.magic, name)
    local doc = ok and first_line(magic.doc) or "(cannot load: " .. tostring(magic) .. ")"
    lines[#lines + 1] = "  " .. doc
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
