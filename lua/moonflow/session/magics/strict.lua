-- %strict on|off: tf.config.set_strict_globals, the switch between a
-- NameError and Lua's silent nil for globals that were never assigned.

local tf = require("moonflow")
local errors = require("moonflow.errors")

return {
  doc = [[%strict on|off  a never-assigned global is a NameError (on) or nil, as plain Lua (off)
On by default in the REPL and in notebooks, so `tf.TensorSpec({None})` says that
Lua's None is nil instead of making a scalar spec; rawget(_G, "name") reads a
global that may be absent. Without an argument, says which is on.]],
  run = function(args)
    if args == "on" or args == "off" then
      tf.config.set_strict_globals(args == "on")
    elseif args ~= "" then
      errors.raise("UsageError", "usage: %strict on|off")
    end
    if tf.config.strict_globals("cell") then
      print("Strict globals are on: reading a global that was never assigned is a NameError.")
    else
      print("Strict globals are off: a global that was never assigned reads as nil.")
    end
  end,
}
