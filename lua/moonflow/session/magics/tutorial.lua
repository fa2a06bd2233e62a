-- %tutorial: steps through the lessons in tutorials/ (session/tutorial.lua
-- holds the lessons' parser and the stepper's state).

local tutorial = require("moonflow.session.tutorial")
local session = require("moonflow.session")

return {
  doc = [[%tutorial [name|next|...]  step through a lesson (%help %tutorial lists the commands)
%tutorial               list the lessons (▸ open, ✓ an exercise passed)
%tutorial NAME          open a lesson at step 1 (NAME: 03-retracing, 3 or retracing)
%tutorial next | back   show the next / previous step (also n, p; go N jumps)
%tutorial run           run the step's code here, as if you had typed it
%tutorial show          show the step again
%tutorial edit          type new code for the step (lines until a lone "."), then run it;
                        in Jupyter: a cell "%%tutorial edit" with the new code below
%tutorial revert        give the step its original code back
%tutorial check         check the exercise (your globals are what it looks at)
%tutorial hint | solution | quit
Your own code typed between steps runs in the same session as the lessons'.]],
  run = function(args)
    tutorial.command(args)
  end,
  run_cell = function(args, body)
    if args:match("^%s*edit%s*$") or args:match("^%s*e%s*$") then
      tutorial.edit(body)
    else
      tutorial.command(args)
      if body:find("%S") then session.run_cell(body, 1) end
    end
  end,
}
