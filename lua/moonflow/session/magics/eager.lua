-- %eager on|off: tf.config.run_functions_eagerly.

local tf = require("moonflow")
local errors = require("moonflow.errors")

local function eager_now()
  local query = tf.config.functions_run_eagerly
  if query then return query() end
end

return {
  doc = [[%eager on|off  every tf.func runs eagerly (on) or traced as a graph (off)
Calls tf.config.run_functions_eagerly(true/false) and says which mode is on;
without an argument, says which mode is on.]],
  run = function(args)
    if args == "on" or args == "off" then
      tf.config.run_functions_eagerly(args == "on")
    elseif args ~= "" then
      errors.raise("UsageError", "usage: %eager on|off")
    end
    local on = eager_now()
    if on == nil then on = args == "on" end
    if on then
      print("Eager mode is on: tf.func functions run their Lua code directly, without tracing.")
    else
      print("Eager mode is off: tf.func functions are traced into graphs.")
    end
  end,
}
