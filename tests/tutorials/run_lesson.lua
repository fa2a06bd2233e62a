-- run_lesson.lua NAME — runs every step of one lesson in this (fresh)
-- session, the way %tutorial run does, for tests/tutorials/test_lessons.py.
--
-- Writes a record per step, each starting with a line that begins with
-- "\30" (ASCII RS, which no lesson prints):
--   \30step I LINE CODE_END OUTPUT_LINE TOLERANCE
--                                         then the expected output block
--   \30actual I                           then what the step printed
--   \30error I                            then the error it raised, if any
--   \30exercise I K                       an exercise: its starting code runs,
--   \30starter-check pass|fail MESSAGE    then the check (which must fail),
--   \30solution-check pass|fail MESSAGE   then the solution and the check
--   \30end                                the lesson ran to its end
-- Code steps without an output block expect no output at all.

local tutorial = require("moonflow.session.tutorial")

local name = ...
local lesson = tutorial.load(assert(name, "usage: moonflow run_lesson.lua NAME"))

local function mark(...)
  local parts = table.pack(...)
  for i = 1, parts.n do parts[i] = tostring(parts[i]) end
  io.write("\30", table.concat(parts, " ", 1, parts.n), "\n")
  io.stdout:flush()
end

local function count_lines(text)
  local _, n = text:gsub("\n", "")
  return n + 1
end

local function run(i, code)
  local ok, err = pcall(tutorial.run_code, lesson, i, code)
  io.stdout:flush()
  if not ok then
    mark("error", i)
    print(tostring(err))
  end
  return ok
end

local function check(label, i)
  local ok, message = tutorial.check(lesson, i)
  mark(label, ok and "pass" or "fail", ((message or ""):gsub("\n", " ")))
end

for i, step in ipairs(lesson.steps) do
  if step.kind == "code" then
    mark("step", i, step.line, step.line + count_lines(step.code) + 1, step.output_line or 0,
      step.output_tolerance or 0)
    if step.output then print(step.output) end
    mark("actual", i)
    run(i, step.code)
  elseif step.kind == "exercise" then
    mark("exercise", i, step.exercise)
    run(i, step.code)
    check("starter-check", i)
    if step.solution then run(i, step.solution) end
    check("solution-check", i)
  end
end
mark("end")
