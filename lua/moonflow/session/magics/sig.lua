-- %sig <expr>: the concrete-function signatures of a tf.func, one per trace.

local func = require("moonflow.trace.func")
local target = require("moonflow.session.magic_target")

local USAGE = "usage: %sig <tf.func or concrete function>"

return {
  doc = [[%sig <expr>  the signatures of every trace of a tf.func (or of one ConcreteFunction)
Each trace shows its input parameters and output type, numbered in the order
they were traced.]],
  run = function(args)
    local value, _, expr = target.parse(args, USAGE)
    target.check_func(value, expr, USAGE)
    if func.is_concrete(value) then
      print(tostring(value))
      return
    end
    local all = value:concrete_functions()
    if #all == 0 then
      print(("%s has not been traced yet: call it, or use %s:get_concrete_function(...)."):format(expr, expr))
      return
    end
    print(("%s: %d trace%s"):format(value.name, #all, #all == 1 and "" or "s"))
    for i, cf in ipairs(all) do
      if i > 1 then print() end
      print(("#%d %s"):format(cf:trace_info().number, cf:pretty_printed_signature():gsub("\n", "\n   ")))
    end
  end,
}
