-- progress_spec.lua — tf.progress in a terminal: one line redrawn in place,
-- and the finished bar leaves no stale estimate behind.

local progress = require("moonflow.session.progress")

--- What a terminal shows after text made of "\r"-separated redraws: each
-- redraw overwrites the line from its start, keeping what is past its end.
local function screen(text)
  local line = ""
  for part in (text .. "\r"):gmatch("([^\r]*)\r") do
    part = part:gsub("\n$", "")
    line = part .. line:sub(#part + 1)
  end
  return line
end

describe("tf.progress in a terminal", function()
  it("ends as 'n/n 100% time' with no estimate left on the line", function()
    local written, saved = {}, io.stderr
    io.stderr = { write = function(self, s) written[#written + 1] = s return self end }
    local ok, err = pcall(function()
      local iter, bar = progress.progress(5, { label = "train" })
      iter()
      iter()
      bar:draw(false) -- a redraw mid-way shows the estimate
      for _ in iter do end
    end)
    io.stderr = saved
    assert(ok, err)
    local text = table.concat(written)
    assert.truthy(text:find("left", 1, true), "a mid-way redraw shows the time left")
    local shown = screen(text)
    assert.truthy(shown:match("^train %[#+%] 5/5 100%% %d+%.%ds *$"), shown)
  end)
end)
