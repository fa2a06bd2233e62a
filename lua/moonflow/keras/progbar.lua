-- progbar.lua — Keras's progress line for fit and evaluate: "Epoch 1/3",
-- then "32/32 [==============================] - 0s 2ms/step - loss:
-- 0.2345 - accuracy: 0.9000" (verbose 1; redrawn in place in a terminal,
-- one display updated in place in Jupyter) or "32/32 - 0s - loss: ... -
-- 52ms/epoch - 2ms/step" (verbose 2, one line an epoch); verbose 0 is silent.

local core = require("moonflow.core")
local state = require("moonflow.state")
local display = require("moonflow.session.display")

local P = {}
local Bar = {}
Bar.__index = Bar

local WIDTH = 30

local function frontend() return state.host and state.host.frontend or "terminal" end

-- Keras's Progbar redraws its line in place ("\r") when stdout is a
-- terminal; into a pipe or a file each epoch's line is printed once.
-- Asked once, of the process's stdout (`test -t 1`).
local tty
function P.is_terminal()
  if tty == nil then
    local ok, res = pcall(os.execute, "test -t 1")
    tty = ok and res == true
  end
  return tty
end

-- Keras's Progbar._format_time.
local function per_unit(t, unit)
  if t >= 1 then return ("%.0fs/%s"):format(t, unit) end
  if t >= 1e-3 then return ("%.0fms/%s"):format(t * 1e3, unit) end
  return ("%.0fus/%s"):format(t * 1e6, unit)
end

-- The logs in Keras's order: loss, the metrics, then their val_ values.
local function ordered(logs, order)
  local keys, seen = {}, {}
  for _, k in ipairs(order or {}) do
    if logs[k] ~= nil then keys[#keys + 1] = k; seen[k] = true end
  end
  local rest = {}
  for k in pairs(logs) do if not seen[k] then rest[#rest + 1] = k end end
  table.sort(rest, function(a, b)
    local va, vb = a:match("^val_") ~= nil, b:match("^val_") ~= nil
    if va ~= vb then return vb end
    return a < b
  end)
  for _, k in ipairs(rest) do keys[#keys + 1] = k end
  return keys
end

local function metrics_text(logs, order)
  local parts = {}
  for _, k in ipairs(ordered(logs, order)) do
    local v = logs[k]
    if type(v) == "number" then
      parts[#parts + 1] = math.abs(v) > 1e-3 and (" - %s: %.4f"):format(k, v) or (" - %s: %.4e"):format(k, v)
    end
  end
  return table.concat(parts)
end
P.metrics_text = metrics_text

local function bar_text(self, done, logs, final)
  local n = self.total
  local digits = #tostring(n)
  local text = ("%" .. digits .. "d/%d [")
    :format(done, n)
  local frac = n > 0 and done / n or 1
  local filled = math.floor(WIDTH * frac)
  if filled > 0 then
    text = text .. ("="):rep(filled - 1) .. (done < n and ">" or "=")
  end
  text = text .. ("."):rep(WIDTH - filled) .. "]"
  local elapsed = core.now() - self.start
  local per = done > 0 and elapsed / done or 0
  if final or done >= n then
    text = text .. (" - %.0fs %s"):format(elapsed, per_unit(per, "step"))
  else
    local eta = per * (n - done)
    text = text .. (" - ETA: %s"):format(eta > 3600 and ("%d:%02d:%02d"):format(eta // 3600, (eta % 3600) // 60, eta % 60)
      or eta > 60 and ("%d:%02d"):format(eta // 60, eta % 60) or ("%.0fs"):format(eta))
  end
  return text .. metrics_text(logs, self.order)
end

function P.new(total, verbose, epoch, epochs, order)
  local self = setmetatable({ total = total, verbose = verbose or 0, start = core.now(), last = -1,
    order = order }, Bar)
  if self.verbose ~= 0 and epoch then print(("Epoch %d/%d"):format(epoch, epochs)) end
  if self.verbose == 1 and frontend() == "jupyter" and display.display then
    -- The display is a line of the cell's text: it ends with a newline,
    -- so what follows (the next "Epoch i/n") starts its own line.
    self.handle = display.display({ ["text/plain"] = bar_text(self, 0, {}) .. "\n" }, { raw = true, display_id = true })
  end
  return self
end

function Bar:update(done, logs)
  if self.verbose ~= 1 or done >= self.total then return end
  if core.now() - self.last < 0.1 then return end
  self.last = core.now()
  local text = bar_text(self, done, logs)
  if self.handle then
    self.handle:update({ ["text/plain"] = text .. "\n" }, { raw = true })
  elseif frontend() ~= "jupyter" and P.is_terminal() then
    self:redraw(text, "")
  end
end

-- The line drawn again over the previous one, padded where it is shorter.
function Bar:redraw(text, ending)
  local pad = (" "):rep(math.max(0, (self.width or 0) - #text))
  self.width = #text
  self.drawn = true
  io.stdout:write("\r", text, pad, ending)
  io.stdout:flush()
end

function Bar:finish(logs)
  if self.verbose == 0 then return end
  if self.verbose == 2 then
    local elapsed = core.now() - self.start
    print(("%d/%d - %.0fs%s - %s - %s"):format(self.total, self.total, elapsed, metrics_text(logs, self.order),
      per_unit(elapsed, "epoch"), per_unit(self.total > 0 and elapsed / self.total or 0, "step")))
    return
  end
  local text = bar_text(self, self.total, logs, true)
  if self.handle then
    self.handle:update({ ["text/plain"] = text .. "\n" }, { raw = true })
  elseif self.drawn then
    self:redraw(text, "\n")
  else
    print(text)
  end
end

return P
