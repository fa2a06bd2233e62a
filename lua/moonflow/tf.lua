-- tf.lua — assembles the `tf` table: the Lua face of moonflow. Positions
-- inside tensors are 0-based (x[0], axis=0, tf.range(3) = [0 1 2]); Lua
-- tables returned by :numpy() are ordinary 1-based tables.

local core = require("moonflow.core")
local doc = require("moonflow.doc")

local tf = {}
tf.__version__ = core.version
tf.doc = doc

local parts = {
  "dtypes", "errors", "shape", "config", "ops", "tensor", "variable", "print", "nest",
}
for _, name in ipairs(parts) do
  require("moonflow." .. name)(tf, doc)
end

-- Optional parts (tracing, gradients, control flow, display, ...) install
-- themselves when present.
for _, name in ipairs({ "func", "graph", "module", "lua_function", "gradient_rules", "tape", "tensor_array",
  "control_flow", "autograph",
  "keras", "progress" }) do
  local ok, part = pcall(require, "moonflow." .. name)
  if ok then
    part(tf, doc)
  elseif not tostring(part):find("module 'moonflow." .. name .. "' not found", 1, true) then
    error(part, 0)
  end
end

tf.display = require("moonflow.display").display

tf["function"] = tf.func
return tf
