-- quiet_failures_spec.lua — three calls that used to do something silently
-- wrong instead of raising (found by the reference's error entries).

local tf = require("moonflow")

local function capture(stream, fn)
  local written, saved = {}, io[stream]
  io[stream] = { write = function(self, ...) for _, s in ipairs({ ... }) do written[#written + 1] = s end return self end,
    flush = function() end }
  local ok, err = pcall(fn)
  io[stream] = saved
  assert(ok, err)
  return table.concat(written)
end

describe("nothing silent", function()
  it("tf.progress with a negative count is a ValueError, not a bar at 0/-1", function()
    local ok, e = pcall(tf.progress, -1)
    assert.is_false(ok)
    assert.equals("ValueError", e.type)
    assert.truthy(e.message:find("-1", 1, true), e.message)
  end)

  it("tf.progress(0) is an empty loop", function()
    local n = 0
    capture("stderr", function() for _ in tf.progress(0) do n = n + 1 end end)
    assert.equals(0, n)
  end)

  it("a last table to tf.print naming only a mistyped option is a TypeError, not printed", function()
    local ok, e = pcall(tf.print, "x", { output_strem = 1 })
    assert.is_false(ok)
    assert.equals("TypeError", e.type)
    assert.truthy(e.message:find("output_stream", 1, true), e.message)
  end)

  it("tf.print still prints a table whose keys are not near an option", function()
    local out = capture("stdout", function() tf.print({ alpha = 1 }) end)
    assert.equals("{'alpha': 1}\n", out)
  end)

  it("tf.clear_output exists outside Jupyter and erases the terminal line as IPython does", function()
    assert.equals("function", type(tf.clear_output))
    local out = capture("stdout", function() tf.clear_output() end)
    assert.equals("\27[2K\r", out)
  end)
end)
