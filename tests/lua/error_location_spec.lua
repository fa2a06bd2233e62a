-- error_location_spec.lua — an eager op's error names the user's line, as
-- Lua's own errors and traced errors do: in a script's main chunk, in a
-- chunk typed at the prompt (or piped to it), and inside a function.
local H = require("helpers")

local BIN = os.getenv("MOONFLOW_BIN") or arg[-1]

local function run(cmd)
  local p = assert(io.popen(cmd .. " 2>&1"))
  local out = p:read("a")
  p:close()
  return out
end

local function script(text)
  local path = os.tmpname() .. ".lua"
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
  return path
end

describe("an eager op error's location", function()
  local code = "local a = tf.ones({2})\nlocal b = tf.ones({3})\nlocal c = a + b\n"

  it("is the script's line when the op runs in its main chunk", function()
    local path = script(code)
    local out = run(H.shell_quote(BIN) .. " " .. H.shell_quote(path))
    os.remove(path)
    assert.truthy(out:find("InvalidArgumentError: Incompatible shapes: [2] vs. [3] [Op:AddV2]", 1, true), out)
    assert.truthy(out:find(path .. ":3: in main chunk", 1, true), out)
  end)

  it("is the chunk's line for code given on standard input", function()
    local path = script(code)
    local out = run(H.shell_quote(BIN) .. " < " .. H.shell_quote(path))
    os.remove(path)
    assert.truthy(out:find("stdin:3: in main chunk", 1, true), out)
  end)

  it("names the function's line and the caller's", function()
    local path = script("local function f(a)\n  return a + tf.ones({3})\nend\nprint(f(tf.ones({2})))\n")
    local out = run(H.shell_quote(BIN) .. " " .. H.shell_quote(path))
    os.remove(path)
    assert.truthy(out:find(path .. ":2: in local 'f'", 1, true), out)
    assert.truthy(out:find(path .. ":4: in main chunk", 1, true), out)
  end)

  it("leaves Lua's own messages as they are: they start with the line already", function()
    local path = script("x = 1\ny = x + nil\n")
    local out = run(H.shell_quote(BIN) .. " " .. H.shell_quote(path))
    os.remove(path)
    assert.truthy(out:find(path .. ":2: attempt to perform arithmetic on a nil value", 1, true), out)
    assert.falsy(out:find("stack traceback", 1, true), out)
  end)
end)
