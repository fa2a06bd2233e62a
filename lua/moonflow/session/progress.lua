-- progress.lua — tf.progress: a progress bar for long work a user starts
-- (training loops). In a terminal it redraws one line in place; in Jupyter
-- it is one display updated in place (update_display_data).

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local state = require("moonflow.state")
local doc = require("moonflow.doc")
local options = require("moonflow.options")
local display = require("moonflow.session.display")
local receiver = require("moonflow.receiver")
local raise = errors.raise

local WIDTH = 30
local MIN_INTERVAL = 0.1 -- seconds between redraws

local function bar_text(done, total, elapsed, label)
  local frac = total > 0 and math.min(done / total, 1) or 1
  local filled = math.floor(frac * WIDTH + 0.5)
  local rate = elapsed > 0 and done / elapsed or 0
  local eta = (rate > 0 and done < total) and (total - done) / rate or 0
  local head = ("%s[%s%s] %d/%d %d%%"):format(label and (label .. " ") or "",
    ("#"):rep(filled), ("."):rep(WIDTH - filled), done, total, math.floor(frac * 100 + 0.5))
  if done >= total then return ("%s %.1fs"):format(head, elapsed) end
  return ("%s  %.1fs elapsed  ~%.1fs left"):format(head, elapsed, eta)
end

local function bar_html(done, total, text)
  local pct = total > 0 and math.floor(math.min(done / total, 1) * 100 + 0.5) or 100
  return ('<div><progress value="%d" max="100" style="width:20em"></progress> <code>%s</code></div>')
    :format(pct, (text:gsub("&", "&amp;"):gsub("<", "&lt;")))
end

local progress = {}

local function frontend()
  return state.host and state.host.frontend or "terminal"
end

-- A bar: :update(done) redraws (throttled), :close() draws the final state.
local Bar = { __name = "ProgressBar" }
receiver.metatable(Bar, "bar")
Bar.__index = Bar

local function new_bar(total, label)
  local self = setmetatable({ total = total, done = 0, label = label, start = core.now(), last = -1 }, Bar)
  if frontend() == "jupyter" and display.display then
    local text = bar_text(0, total, 0, label)
    self.handle = display.display({ ["text/plain"] = text, ["text/html"] = bar_html(0, total, text) },
      { raw = true, display_id = true })
  end
  return self
end

function Bar:draw(final)
  local elapsed = core.now() - self.start
  local text = bar_text(self.done, self.total, elapsed, self.label)
  if self.handle then
    self.handle:update({ ["text/plain"] = text, ["text/html"] = bar_html(self.done, self.total, text) }, { raw = true })
  else
    -- Spaces over what a longer earlier redraw left on the line.
    local pad = (" "):rep(math.max((self.shown or 0) - #text, 0))
    self.shown = #text
    io.stderr:write("\r" .. text .. pad .. (final and "\n" or ""))
    if io.stderr.flush then io.stderr:flush() end
  end
  self.last = core.now()
end

function Bar:update(done)
  if type(done) ~= "number" then
    raise("TypeError", "bar:update(done): done must be a number, got " .. tostring(done), 2)
  end
  self.done = done
  if done < self.total and core.now() - self.last >= MIN_INTERVAL then self:draw(false) end
end

function Bar:close()
  if self.closed then return end
  self.closed = true
  self:draw(true)
end

progress.progress = options.def(function(what, opts)
  local items, total
  if math.type(what) == "integer" then
    if what < 0 then raise("ValueError", "tf.progress: the count must be >= 0, got " .. what, 1) end
    total = what
  elseif type(what) == "table" then
    items, total = what, #what
  else
    raise("TypeError", "tf.progress expects a count or a list, got " .. type(what), 1)
  end
  local bar = new_bar(total, opts.label)
  local i = 0
  return function()
    if i > 0 then bar:update(i) end
    i = i + 1
    if i > total then
      bar:close()
      return nil
    end
    if items then return i, items[i] end
    return i
  end, bar
end, "tf.progress(n_or_list [, {label=}])",
"An iterator with a progress bar: `for step in tf.progress(100) do ... end` (or over a list: "
.. "`for i, batch in tf.progress(batches)`). The terminal shows one line redrawn in place; "
.. "Jupyter one display updated in place.", { required = 1, "label" })

return progress
