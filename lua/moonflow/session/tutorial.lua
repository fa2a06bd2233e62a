-- tutorial.lua — the lessons in tutorials/ and the stepper that walks
-- through them, in the REPL and in Jupyter alike (%tutorial, magics/
-- tutorial.lua), and their rendering as notebooks (`make notebooks`).
--
-- A lesson is one Markdown file, tutorials/NN-name.md:
--
--   # Title                      the lesson's title (first level-1 heading)
--   prose ...                    Markdown, shown before the step that follows
--   ```lua                       a step: code run in the session as if typed
--   ```output                    optional, right after a step: what it prints
--                                (stdout and stderr, then the echo of a
--                                trailing expression, as the REPL shows it); a
--                                line "..." matches any number of lines and
--                                "<...>" any text within a line (timings)
--   ```output ±0.01              the same, where each number may differ by up
--                                to 0.01 (results that depend on the order a
--                                CPU's BLAS kernel sums in); the lesson's
--                                prose says so
--   ```exercise                  an exercise step: the learner's starting code
--   ```check                     hidden, after an exercise: Lua run in the
--                                session that returns true when the exercise
--                                is solved, else false or a message
--   ```solution / ```hint        hidden, after an exercise: a solution (used
--                                by the tests and %tutorial solution), a hint
--   ```predict                   optional, after a ```lua step (and its
--                                output): a question the learner answers
--                                before the step runs, then a last line
--                                "answer: TEXT" ("A | B" accepts either)
--
-- Other fenced blocks (```text, ```sh) are prose. Prose after the last
-- step becomes a last step with nothing to run.
--
-- The stepper's state (the lesson, the current step, edited code, passed
-- exercises) lives in this module, so in the session: it survives %reset
-- and is shared by every cell.
--
-- A lesson's code runs in the lesson's own environment table (its globals
-- fall back to the session's for reading), so a lesson never overwrites
-- what the learner made; the open lesson's environment is the global
-- `lesson` (lesson.x is the lesson's x).

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local doc = require("moonflow.doc")
local session_state = require("moonflow.state")
local session_module = require("moonflow.session")
local raise = errors.raise

local tutorial = {}

local HIDDEN = { check = true, solution = true, hint = true }
local FENCES = { lua = true, exercise = true, output = true, predict = true }
local LESSON_FILE = "^(%d%d%-[%w_%-]+)%.md$"

-- Finding lessons --------------------------------------------------------

local function host() return session_state.host end

local function listdir(dir)
  local h = host()
  if h and h.listdir then return h.listdir(dir) end
  local p = io.popen('ls -1 "' .. dir:gsub('"', '\\"') .. '" 2>/dev/null')
  if not p then return nil end
  local names = {}
  for line in p:lines() do names[#names + 1] = line end
  p:close()
  return #names > 0 and names or nil
end

local function has_lessons(dir)
  for _, name in ipairs(listdir(dir) or {}) do
    if name:match(LESSON_FILE) then return true end
  end
  return false
end

--- The directory of the lessons: $MOONFLOW_TUTORIALS, the source tree's
-- tutorials/ beside lua/, or PREFIX/share/moonflow/tutorials when installed.
tutorial.dir = doc.def(function()
  local env = os.getenv("MOONFLOW_TUTORIALS")
  if env and env ~= "" then return env end
  local path = package.searchpath("moonflow.session.tutorial", package.path)
  local lib = path and path:match("^(.*)/moonflow/session/tutorial%.lua$")
  if lib then
    for _, rel in ipairs({ "/../tutorials", "/../../moonflow/tutorials" }) do
      if has_lessons(lib .. rel) then return lib .. rel end
    end
  end
  raise("NotFoundError", "cannot find the tutorials directory; set MOONFLOW_TUTORIALS")
end, "tutorial.dir() -> path", [[
The directory that holds the lessons (NN-name.md): $MOONFLOW_TUTORIALS when
set, else tutorials/ of the source tree, else PREFIX/share/moonflow/tutorials.]])

local function read_file(path)
  local f, err = io.open(path, "rb")
  if not f then raise("NotFoundError", "cannot open " .. tostring(err)) end
  local text = f:read("a")
  f:close()
  return text
end

local function title_of(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  for line in f:lines() do
    local t = line:match("^#%s+(.-)%s*$")
    if t then
      f:close()
      return t
    end
  end
  f:close()
end

--- tutorial.list() -> {{name=, title=, path=}, ...} sorted by name.
tutorial.list = doc.def(function()
  local dir = tutorial.dir()
  local lessons = {}
  for _, file in ipairs(listdir(dir) or {}) do
    local name = file:match(LESSON_FILE)
    if name then
      local path = dir .. "/" .. file
      lessons[#lessons + 1] = { name = name, title = title_of(path) or name, path = path }
    end
  end
  table.sort(lessons, function(a, b) return a.name < b.name end)
  return lessons
end, "tutorial.list() -> {{name=, title=, path=}, ...}",
  "Every lesson in tutorial.dir(), sorted by name (01-tensors, 02-..., ...).")

--- The lesson entry a learner means by `query`: its full name ("03-retracing"),
-- its number ("3", "03"), or its name without the number ("retracing").
local function find(query)
  local lessons = tutorial.list()
  local n = tonumber(query)
  for _, l in ipairs(lessons) do
    local num, short = l.name:match("^(%d+)%-(.*)$")
    if l.name == query or short == query or (n and tonumber(num) == n) then return l end
  end
  for _, l in ipairs(lessons) do
    if l.name:find(query, 1, true) then return l end
  end
  raise("UsageError", ("no lesson named %q (%%tutorial lists them)"):format(query))
end

-- Parsing ----------------------------------------------------------------

local function trim_blank_lines(text)
  return (text:gsub("^%s*\n", ""):gsub("\n%s*$", ""):gsub("^%s+$", ""))
end

local function parse_error(name, line, message)
  raise("ValueError", ("%s.md:%d: %s"):format(name, line, message))
end

--- Attaches a closed fence to the lesson being built.
local function add_block(p, kind, body, line, tolerance)
  local last = p.steps[#p.steps]
  if kind == "lua" or kind == "exercise" then
    local step = { kind = kind == "lua" and "code" or "exercise", prose = trim_blank_lines(table.concat(p.prose, "\n")),
      code = body, line = line }
    if step.kind == "exercise" then
      p.exercises = p.exercises + 1
      step.exercise = p.exercises
    end
    p.steps[#p.steps + 1] = step
    p.prose = {}
  elseif kind == "output" then
    if not last or last.kind ~= "code" or last.output or #p.prose > 0 and table.concat(p.prose):find("%S") then
      parse_error(p.name, line, "an ```output block must follow a ```lua step directly")
    end
    last.output, last.output_line, last.output_tolerance = body, line, tolerance
  elseif kind == "predict" then
    if not last or last.kind ~= "code" or last.predict or #p.prose > 0 and table.concat(p.prose):find("%S") then
      parse_error(p.name, line, "a ```predict block must follow a ```lua step (or its ```output) directly")
    end
    local question, answer = body:match("^(.-)\n?answer:%s*([^\n]-)%s*$")
    if not question or question:match("^%s*$") or answer == "" then
      parse_error(p.name, line, "a ```predict block is a question, then a line \"answer: TEXT\"")
    end
    last.predict = { question = trim_blank_lines(question), answer = answer }
  elseif HIDDEN[kind] then
    if not last or last.kind ~= "exercise" or last[kind] then
      parse_error(p.name, line, ("a ```%s block must follow an ```exercise"):format(kind))
    end
    last[kind] = body
  end
end

--- tutorial.parse(text [, name]) -> lesson
tutorial.parse = doc.def(function(text, name)
  name = name or "lesson"
  local p = { name = name, steps = {}, prose = {}, exercises = 0 }
  local title, fence, body, start, tolerance
  local n = 0
  for line in (text:gsub("\r\n", "\n") .. "\n"):gmatch("([^\n]*)\n") do
    n = n + 1
    if fence then
      if line:match("^```%s*$") then
        if fence == "prose" then
          p.prose[#p.prose + 1] = line
        else
          add_block(p, fence, table.concat(body, "\n"), start, tolerance)
        end
        fence = nil
      elseif fence == "prose" then
        p.prose[#p.prose + 1] = line
      else
        body[#body + 1] = line
      end
    else
      local info = line:match("^```%s*([%w_%-]*)%s*$")
      local margin = line:match("^```%s*output%s+±%s*([%d%.]+)%s*$")
      if margin then info = "output" end
      if info then
        fence, body, start, tolerance = info, {}, n, tonumber(margin)
        if not (FENCES[info] or HIDDEN[info]) then
          fence = "prose"
          p.prose[#p.prose + 1] = line
        end
      elseif not title and line:match("^#%s") then
        title = line:match("^#%s+(.-)%s*$")
      else
        p.prose[#p.prose + 1] = line
      end
    end
  end
  if fence then parse_error(name, start, "this fenced block is never closed") end
  local rest = trim_blank_lines(table.concat(p.prose, "\n"))
  if rest ~= "" then p.steps[#p.steps + 1] = { kind = "prose", prose = rest, line = n } end
  for _, step in ipairs(p.steps) do
    if step.kind == "exercise" and not step.check then
      parse_error(name, step.line, "an exercise needs a ```check block")
    end
  end
  return { name = name, title = title or name, steps = p.steps, exercises = p.exercises }
end, "tutorial.parse(text [, name]) -> lesson", [[
Parses a lesson's Markdown into {name=, title=, exercises=, steps={...}}; each
step has kind ("code", "exercise" or "prose"), prose, code, line (of its
fence), and output/output_line and predict={question=, answer=} (code
steps) or check/solution/hint and its exercise number (exercises). A malformed lesson raises ValueError naming the
file and line.]])

--- tutorial.load(name) -> lesson (parsed from its file)
tutorial.load = doc.def(function(query)
  local entry = find(query)
  local lesson = tutorial.parse(read_file(entry.path), entry.name)
  lesson.path = entry.path
  return lesson
end, "tutorial.load(name) -> lesson",
  "Finds a lesson by name, number or short name (\"03\", \"retracing\") and parses it.")

-- Running ----------------------------------------------------------------

--- tutorial.run_code(lesson, i, code [, session]) runs code as step i of
-- lesson, as if typed: magics work, a trailing expression is echoed.
--- tutorial.environment(lesson) -> the table lesson's code runs in
-- The stepper's state (see the header): environment() reads it too.
local state = {
  lesson = nil,   -- the lesson being stepped through
  index = 1,      -- the current step
  edits = {},     -- step -> the learner's code
  ran = {},       -- step -> true once run
  guessed = {},   -- step -> true once its prediction was made
}

-- Every lesson environment made (weakly): the global `lesson` holding one
-- is the stepper's to replace when another lesson opens; anything else in
-- it is the learner's.
local lesson_envs = setmetatable({}, { __mode = "k" })

tutorial.environment = doc.def(function(lesson)
  lesson = lesson or state.lesson
  if not lesson then raise("UsageError", "no lesson is open (%tutorial NAME opens one)") end
  if not lesson.env then
    lesson.env = setmetatable({}, { __index = _G, __name = "lesson environment" })
    lesson_envs[lesson.env] = true
  end
  return lesson.env
end, "tutorial.environment([lesson]) -> table", [[
The globals of a lesson's code (the open lesson's by default): a table of
its own whose reads fall back to the session's globals, so a lesson's
`x = ...` never replaces the learner's x. The open lesson's environment is
also the session global `lesson`, unless you made a global of that name.]])

tutorial.run_code = doc.def(function(lesson, i, code, session)
  session = session or session_module
  local how, message = session.eval(code, ("=%s[%d]"):format(lesson.name, i), true,
    tutorial.environment(lesson))
  if how == "incomplete" then raise("SyntaxError", message) end
end, "tutorial.run_code(lesson, i, code [, session])", [[
Runs code in the session as step i of lesson, the way the REPL runs a typed
chunk, in the lesson's environment (tutorial.environment): %magic lines work
and a trailing expression's value is shown. Errors are raised as usual,
named after the step ("01-tensors[3]:2: ...").]])

--- tutorial.check(lesson, i [, session]) -> passed, message
tutorial.check = doc.def(function(lesson, i)
  local step = lesson.steps[i]
  if not step or step.kind ~= "exercise" then raise("UsageError", ("step %d is not an exercise"):format(i)) end
  local f, err = load(step.check, ("=%s[check %d]"):format(lesson.name, step.exercise), "t",
    tutorial.environment(lesson))
  if not f then raise("SyntaxError", err) end
  local ok, result, message = session_module.lenient(pcall, f)
  if not ok then return false, tostring(result) end
  if result == true then return true end
  if type(result) == "string" then return false, result end
  return false, message or "the check did not pass"
end, "tutorial.check(lesson, i) -> passed, message", [[
Runs the hidden check of exercise step i in the lesson's environment (it
sees what the lesson defined and your globals). Returns true when it passes; else false and what is missing (the
check's message, or the error it raised).]])

-- The stepper ------------------------------------------------------------

local passed = {} -- lesson name -> {exercise number -> true}, for the session

local function out(...)
  print(...)
end

local RULE = "─"

local function styled(text, code)
  local h = host()
  if h and h.color then return ("\27[%sm%s\27[0m"):format(code, text) end
  return text
end

local function current_code(i)
  return state.edits[i] or state.lesson.steps[i].code
end

local function header(i)
  local lesson, step = state.lesson, state.lesson.steps[i]
  local what = step.kind == "exercise" and (" · exercise %d"):format(step.exercise) or ""
  local text = ("── %s · step %d of %d%s "):format(lesson.name, i, #lesson.steps, what)
  local width = math.max(0, 72 - (utf8.len(text) or #text))
  return styled(text .. RULE:rep(width), "1")
end

local function indent_code(code)
  local lines = {}
  for line in (code .. "\n"):gmatch("([^\n]*)\n") do lines[#lines + 1] = "    " .. line end
  return table.concat(lines, "\n")
end

local function commands_line(step, i)
  if step.predict and not state.guessed[i] then
    return styled("%tutorial guess ANSWER · run · next · back · edit · show · quit", "2")
  elseif step.kind == "exercise" then
    return styled("%tutorial run · edit · check · hint · next · back · quit", "2")
  elseif step.kind == "prose" then
    return styled("%tutorial next · back · quit", "2")
  end
  return styled("%tutorial run · next · back · edit · show · quit", "2")
end

local function show_step(i)
  local step = state.lesson.steps[i]
  out(header(i))
  if i == 1 then out(styled(state.lesson.title, "1")) out() end
  if step.prose ~= "" then
    out(step.prose)
    out()
  end
  if step.code then
    out(indent_code(current_code(i)) .. (state.edits[i] and "\n    -- (edited; %tutorial revert restores it)" or ""))
    out()
  end
  if step.predict then
    out(styled("Predict, then run: " .. step.predict.question, "1"))
    out()
  end
  out(commands_line(step, i))
end

local function require_lesson()
  if not state.lesson then
    raise("UsageError", "no lesson is open: %tutorial lists the lessons, %tutorial NAME starts one")
  end
  return state.lesson
end

local function exercise_done(lesson_name)
  local count = 0
  for _ in pairs(passed[lesson_name] or {}) do count = count + 1 end
  return count
end

--- tutorial.start(name) opens a lesson at its first step and shows it.
tutorial.start = doc.def(function(name)
  local lesson = tutorial.load(name)
  state.lesson, state.index, state.edits, state.ran, state.guessed = lesson, 1, {}, {}, {}
  local env = tutorial.environment(lesson)
  local previous = rawget(_G, "lesson")
  session_module.set_fallback(env)
  if previous == nil or lesson_envs[previous] then
    rawset(_G, "lesson", env)
  else
    out(styled("(your global `lesson` is kept: this lesson's names are in tutorial.environment())", "2"))
  end
  show_step(1)
end, "tutorial.start(name)", [[
Opens a lesson (%tutorial NAME) at its first step and shows it. The lesson's
code runs in its own environment, the global `lesson` (lesson.x is the x a
step defined), so your own globals are never replaced; while it is open,
what you type reads the lesson's names you have not defined yourself.]])

--- Moves by delta steps and shows the step reached.
local function move(delta)
  local lesson = require_lesson()
  local target = state.index + delta
  if target > #lesson.steps then
    out(("That was the last step of %s. %%tutorial lists the lessons."):format(lesson.name))
    return
  elseif target < 1 then
    out("This is the first step.")
    return
  end
  local left = lesson.steps[state.index]
  if delta > 0 and left.kind == "code" and not state.ran[state.index] then
    out(styled(("(step %d was not run; later steps may need what it defines: %%tutorial back, then run)")
      :format(state.index), "2"))
  end
  state.index = target
  show_step(target)
end

tutorial.next = doc.def(function() move(1) end, "tutorial.next()", "Shows the next step (%tutorial next).")
tutorial.prev = doc.def(function() move(-1) end, "tutorial.prev()", "Shows the previous step (%tutorial back).")

--- tutorial.go(n): shows step n of the open lesson.
tutorial.go = doc.def(function(n)
  local lesson = require_lesson()
  n = math.tointeger(tonumber(n))
  if not n or n < 1 or n > #lesson.steps then
    raise("UsageError", ("%s has steps 1 to %d"):format(lesson.name, #lesson.steps))
  end
  move(n - state.index)
end, "tutorial.go(n)", "Shows step n of the open lesson (%tutorial go N).")

tutorial.show = doc.def(function()
  require_lesson()
  show_step(state.index)
end, "tutorial.show()", "Shows the current step again (%tutorial show).")

--- Lower case, single spaces, no surrounding quotes or final full stop.
local function normal_answer(text)
  text = text:lower():gsub("%s+", " "):gsub("^ ", ""):gsub(" $", "")
  text = text:gsub("%.$", ""):gsub('^"(.*)"$', "%1"):gsub("^'(.*)'$", "%1")
  return text
end

--- tutorial.judge(step, guess) -> right, the expected answer
tutorial.judge = doc.def(function(step, guess)
  local expected = step.predict.answer
  local g = normal_answer(tostring(guess))
  local first = expected:gsub("%s*|.*$", "")
  for alternative in (expected .. "|"):gmatch("([^|]*)|") do
    if normal_answer(alternative) == g then return true, first end
  end
  return false, first
end, "tutorial.judge(step, guess) -> right, answer", [[
Compares a learner's prediction with a predict step's answer (case, spacing,
quotes and a final full stop ignored; "A | B" accepts either).]])

--- Says whether a guess was right; the step runs next, so the learner sees why.
local function verdict(step, guess)
  local right, answer = tutorial.judge(step, guess)
  if right then
    out(styled(("✓ Right: %s. Now watch it happen:"):format(answer), "32"))
  else
    out(styled(("✗ You said %s; it is %s. Run it and see why:"):format(guess, answer), "31"))
  end
end

--- Asks for the prediction through the host (the REPL's prompt, Jupyter's
-- input box); nil when the frontend cannot ask or the learner skips.
local function ask_prediction(step)
  local h = host()
  if not (h and h.input) then return nil end
  local ok, line = pcall(h.input, "Your prediction (Enter skips): ")
  if not ok or line == nil or not line:find("%S") then return nil end
  return line
end

--- tutorial.guess(text): records a prediction for the current step, says
-- whether it is right, then runs the step.
tutorial.guess = doc.def(function(text)
  local lesson = require_lesson()
  local step = lesson.steps[state.index]
  if not step.predict then raise("UsageError", "this step asks for no prediction: %tutorial run runs it") end
  if not text or not text:find("%S") then raise("UsageError", "usage: %tutorial guess ANSWER") end
  state.guessed[state.index] = true
  verdict(step, text)
  tutorial.run()
end, "tutorial.guess(answer)", [[
Answers the current step's "Predict, then run" question (%tutorial guess
ANSWER): says whether the prediction is right, then runs the step so you see
it happen.]])

--- tutorial.run(): runs the current step's code (as edited).
tutorial.run = doc.def(function()
  local lesson = require_lesson()
  local i = state.index
  local step = lesson.steps[i]
  if not step.code then
    out("This step has no code to run: %tutorial next")
    return
  end
  if step.predict and not state.guessed[i] then
    state.guessed[i] = true
    out(styled("Predict, then run: " .. step.predict.question, "1"))
    local guess = ask_prediction(step)
    if guess then
      verdict(step, guess)
    else
      out(styled("(no prediction: the answer is " .. select(2, tutorial.judge(step, "")) .. ")", "2"))
    end
  end
  state.ran[i] = true
  tutorial.run_code(lesson, i, current_code(i))
  if step.kind == "exercise" then out(styled("%tutorial check checks your solution", "2")) end
end, "tutorial.run()", [[
Runs the current step's code in the session (%tutorial run), as edited if
you edited it; its output and the value of a trailing expression show as if
you had typed it.]])

--- tutorial.edit(code): replaces the current step's code and runs it.
tutorial.edit = doc.def(function(code)
  local lesson = require_lesson()
  local i = state.index
  if not lesson.steps[i].code then raise("UsageError", "this step has no code to edit") end
  code = code:gsub("\n+$", "")
  if code == current_code(i) then
    out("(code unchanged)")
    return
  end
  state.edits[i] = code ~= lesson.steps[i].code and code or nil
  tutorial.run()
end, "tutorial.edit(code)", [[
Replaces the current step's code with code and runs it (%tutorial edit in the
REPL reads the new lines; in Jupyter, a cell starting with %%tutorial edit).]])

--- Reads replacement code from the host: lines until a lone ".".
local function read_edit()
  local h = host()
  local i = state.index
  out(("Editing step %d. Type the new code; a line with a single . ends it (. alone keeps the code)."):format(i))
  out(indent_code(current_code(i)))
  local lines = {}
  while true do
    local ok, line = pcall(h.input, "edit> ")
    if not ok then
      raise("UsageError", "this frontend cannot read lines here; start a cell with %%tutorial edit "
        .. "and put the new code below it")
    end
    if line == nil or line == "." then break end
    lines[#lines + 1] = line
  end
  if #lines == 0 then
    out("(code unchanged)")
    return
  end
  tutorial.edit(table.concat(lines, "\n"))
end

--- Restores the current step's original code.
local function revert()
  require_lesson()
  state.edits[state.index] = nil
  show_step(state.index)
end

local function exercise_step(lesson, k)
  for i, step in ipairs(lesson.steps) do
    if step.kind == "exercise" and step.exercise == k then return i end
  end
  raise("UsageError", ("%s has no exercise %s"):format(lesson.name, tostring(k)))
end

-- The exercise the last check was about ({lesson =, i =}): what a bare
-- %tutorial hint means when no lesson is open (a notebook's check cell
-- checks by name).
local last_checked

--- Reports a check's result and records a pass.
local function report(lesson, i)
  local step = lesson.steps[i]
  last_checked = { lesson = lesson, i = i }
  local ok, message = tutorial.check(lesson, i)
  if ok then
    passed[lesson.name] = passed[lesson.name] or {}
    passed[lesson.name][step.exercise] = true
    out(styled(("✓ Exercise %d of %s passed."):format(step.exercise, lesson.name), "32"))
    if exercise_done(lesson.name) >= lesson.exercises then
      out(("Lesson %s complete."):format(lesson.name))
    end
  else
    out(styled(("✗ Not yet: %s"):format(message), "31"))
    if step.hint then out(styled("(%tutorial hint gives a hint)", "2")) end
  end
  return ok
end

--- The exercise a bare %tutorial check means: the current step, else the
-- last exercise before it, else the next one.
local function nearest_exercise(lesson)
  for j = state.index, 1, -1 do
    if lesson.steps[j].kind == "exercise" then return j end
  end
  for j = state.index + 1, #lesson.steps do
    if lesson.steps[j].kind == "exercise" then return j end
  end
end

--- %tutorial check [NAME K]: checks an exercise and says how it went.
local function check_command(args)
  local name, k = args:match("^(%S+)%s+(%d+)$")
  if name then
    local lesson = tutorial.load(name)
    return report(lesson, exercise_step(lesson, tonumber(k)))
  end
  local lesson = require_lesson()
  local i = nearest_exercise(lesson)
  if not i then
    out(("%s has no exercise."):format(lesson.name))
    return
  end
  if i ~= state.index then out(("Checking exercise %d (step %d):"):format(lesson.steps[i].exercise, i)) end
  return report(lesson, i)
end

--- %tutorial hint|solution [NAME K]: exercise K of lesson NAME; else the
-- open lesson's nearest exercise; else, with no lesson open, the one last
-- checked.
local function hidden(kind, missing, args)
  local lesson, i
  local name, k = (args or ""):match("^(%S+)%s+(%d+)$")
  if name then
    lesson = tutorial.load(name)
    i = exercise_step(lesson, tonumber(k))
  elseif not state.lesson and last_checked then
    lesson, i = last_checked.lesson, last_checked.i
  else
    lesson = require_lesson()
    i = nearest_exercise(lesson)
  end
  local step = i and lesson.steps[i]
  if not step then
    out(("%s has no exercise."):format(lesson.name))
  elseif not step[kind] then
    out(missing)
  else
    out(kind == "solution" and indent_code(step.solution) or step.hint)
  end
end

--- tutorial.listing() -> the text of %tutorial without arguments.
local function listing()
  local lines = { "Lessons (%tutorial NAME starts one; NAME may be its number):" }
  for _, l in ipairs(tutorial.list()) do
    local mark = "  "
    if passed[l.name] and next(passed[l.name]) then mark = "✓ " end
    if state.lesson and state.lesson.name == l.name then mark = "▸ " end
    lines[#lines + 1] = ("  %s%-22s %s"):format(mark, l.name, l.title)
  end
  if state.lesson then
    lines[#lines + 1] = ""
    lines[#lines + 1] = ("Open: %s, step %d of %d (%%tutorial show)"):format(state.lesson.name, state.index,
      #state.lesson.steps)
  end
  return table.concat(lines, "\n")
end

local COMMANDS = {
  next = tutorial.next, n = tutorial.next,
  prev = tutorial.prev, back = tutorial.prev, p = tutorial.prev, b = tutorial.prev,
  run = tutorial.run, r = tutorial.run,
  show = tutorial.show, s = tutorial.show,
  revert = revert,
  hint = function(args) hidden("hint", "No hint for this exercise.", args) end,
  solution = function(args) hidden("solution", "No solution is written down for this exercise.", args) end,
  list = function() out(listing()) end,
  quit = function()
    if state.lesson then out(("Closed %s."):format(state.lesson.name)) end
    state.lesson = nil
    session_module.set_fallback(nil)
  end,
}
COMMANDS.q = COMMANDS.quit

--- tutorial.command(args): what %tutorial args does.
tutorial.command = doc.def(function(args)
  args = args or ""
  local word, rest = args:match("^(%S*)%s*(.-)%s*$")
  if word == "" then
    out(listing())
  elseif COMMANDS[word] then
    COMMANDS[word](rest)
  elseif word == "go" or word == "step" then
    tutorial.go(rest)
  elseif word == "guess" or word == "g" then
    tutorial.guess(rest)
  elseif word == "check" or word == "c" then
    check_command(rest)
  elseif word == "edit" or word == "e" then
    require_lesson()
    if rest ~= "" then tutorial.edit(rest) else read_edit() end
  elseif word == "start" then
    tutorial.start(rest)
  else
    tutorial.start(word)
  end
end, "tutorial.command(args)", [[
Runs a %tutorial command: (nothing) or list, NAME, next, back, run, show,
guess ANSWER, edit [code], revert, check [NAME K], hint [NAME K],
solution [NAME K], go N, quit.]])

--- tutorial.position() -> where the stepper is (for tests and tools).
tutorial.position = doc.def(function()
  if not state.lesson then return nil end
  return { lesson = state.lesson.name, step = state.index, steps = #state.lesson.steps,
    edited = state.edits[state.index] ~= nil }
end, "tutorial.position() -> {lesson=, step=, steps=, edited=} | nil",
  "Where the stepper is: the open lesson, the current step and whether its code was edited.")

-- Notebooks --------------------------------------------------------------

local array = core.json_array -- a table that is a JSON array even when empty
local NULL = core.json_null

--- Notebook source: a list of lines, each but the last ending in "\n".
local function source(text)
  local lines = {}
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do lines[#lines + 1] = line .. "\n" end
  lines[#lines] = lines[#lines]:sub(1, -2)
  return array(lines)
end

local function cell(kind, text, id, metadata)
  if kind == "markdown" then
    return { cell_type = "markdown", id = id, metadata = {}, source = source(text) }
  end
  return { cell_type = "code", execution_count = NULL, id = id, metadata = metadata or {},
    outputs = array({}), source = source(text) }
end

--- tutorial.notebook(lesson [, opts]) -> the .ipynb text of a lesson
tutorial.notebook = doc.def(function(lesson, opts)
  opts = opts or {}
  local cells = array({})
  local function add(kind, text, tag, metadata)
    cells[#cells + 1] = cell(kind, text, ("%s-%d-%s"):format(lesson.name, #cells + 1, tag), metadata)
  end
  add("markdown", "# " .. lesson.title .. "\n\nA moonflow lesson (`" .. lesson.name .. ".md`): run the "
    .. "cells in order. In a terminal, `%tutorial " .. lesson.name .. "` steps through the same lesson.", "title")
  for i, step in ipairs(lesson.steps) do
    if step.prose ~= "" then add("markdown", step.prose, "prose") end
    if step.kind == "code" then
      if step.predict then
        add("markdown", "**Predict, then run:** " .. step.predict.question, "predict" .. i)
      end
      add("code", step.code, "step" .. i, { moonflow = { step = i } })
      if step.predict then
        add("markdown", "<details><summary>Answer</summary>\n\n" .. step.predict.answer:gsub("%s*|.*$", "")
          .. "\n\n</details>", "answer" .. i)
      end
    elseif step.kind == "exercise" then
      add("code", opts.solutions and step.solution or step.code, "exercise" .. step.exercise)
      add("code", ("%%tutorial check %s %d"):format(lesson.name, step.exercise), "check" .. step.exercise)
    end
  end
  local nb = {
    cells = cells,
    metadata = {
      kernelspec = { display_name = "moonflow (Lua 5.4)", language = "lua", name = "moonflow" },
      language_info = { codemirror_mode = "lua", file_extension = ".lua", mimetype = "text/x-lua",
        name = "lua", pygments_lexer = "lua", version = "5.4" },
    },
    nbformat = 4,
    nbformat_minor = 5,
  }
  return core.json_encode(nb, 1) .. "\n"
end, "tutorial.notebook(lesson [, {solutions=}]) -> text", [[
Renders a parsed lesson as a Jupyter notebook (nbformat 4.5, moonflow
kernel): prose as Markdown cells, each step's code as a code cell (its
metadata moonflow.step is the step's number), each
exercise's starting code (or, with solutions=true, its solution) followed by
a cell `%tutorial check NAME K` that checks it.]])

--- tutorial.write_notebooks(outdir [, opts]) -> the paths written
tutorial.write_notebooks = doc.def(function(outdir, opts)
  local written, wanted = {}, nil
  if opts and opts.names then
    wanted = {}
    for _, name in ipairs(opts.names) do wanted[find(name).name] = true end
  end
  for _, entry in ipairs(tutorial.list()) do
    local lesson = (not wanted or wanted[entry.name]) and tutorial.load(entry.name)
    if lesson then
      local path = ("%s/%s.ipynb"):format(outdir, entry.name)
      local f, err = io.open(path, "wb")
      if not f then raise("NotFoundError", "cannot write " .. tostring(err)) end
      f:write(tutorial.notebook(lesson, opts))
      f:close()
      written[#written + 1] = path
    end
  end
  return written
end, "tutorial.write_notebooks(outdir [, {solutions=, names=}]) -> {paths}", [[
Writes outdir/NN-name.ipynb for every lesson, or for the lessons named in
names (make notebooks renders them all, then executes them); outdir must
exist.]])

return tutorial
