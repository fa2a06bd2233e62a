-- reference_examples_spec.lua — the reference's examples and errors
-- (lua/moonflow/reference/examples/*.lua): the loader finds every file
-- beside itself and merges them, refusing a name twice or a record out of
-- format; tf.help, %help, Jupyter's inspect and docs/reference.md show the
-- same Example:/Errors: text after the docstring. (Running every example
-- is tests/docs/test_reference_examples.lua.)
local examples = require("moonflow.reference.examples")
local help = require("moonflow.reference.help")
local reference = require("moonflow.reference")
local session = require("moonflow.session")

local function error_of(fn, ...)
  local ok, err = pcall(fn, ...)
  assert.is_false(ok)
  return err
end

-- A directory of example files, written from { [file] = text }.
local function example_dir(files)
  local dir = os.tmpname()
  os.remove(dir)
  assert(os.execute("mkdir " .. dir))
  for name, text in pairs(files) do
    local f = assert(io.open(dir .. "/" .. name, "w"))
    f:write(text)
    f:close()
  end
  return dir
end

local function remove_dir(dir) os.execute("rm -r " .. dir) end

local ENTRY = [[
return {
  ["tf.%s"] = {
    example = "print(1)\n",
    output = "1\n",
    errors = { { code = "tf.abs(nil)", type = "TypeError", message = "abs" } },
  },
}
]]

describe("the reference's example files", function()
  it("are found beside the loader, installed or not: every *.lua of reference/examples/", function()
    local dir = examples.dir()
    assert.truthy(dir:find("moonflow/reference/examples$"), dir)
    local names = {}
    for _, path in ipairs(examples.files()) do names[path:match("[^/]+$")] = true end
    assert.is_true(names["tf_math.lua"])
    assert.is_true(names["data.lua"])
  end)

  it("merge the files of a directory, a new file without any list edited", function()
    local dir = example_dir({ ["a.lua"] = ENTRY:format("abs"), ["b.lua"] = ENTRY:format("sign"),
      ["notes.txt"] = "not an example file" })
    local entries, origin = examples.all(dir)
    remove_dir(dir)
    assert.are.equal("print(1)\n", entries["tf.abs"].example)
    assert.are.equal("1\n", entries["tf.sign"].output)
    assert.truthy(origin["tf.sign"]:find("/b.lua$"))
  end)

  it("refuse a name given in two files with a ValueError naming both", function()
    local dir = example_dir({ ["a.lua"] = ENTRY:format("abs"), ["b.lua"] = ENTRY:format("abs") })
    local err = error_of(examples.all, dir)
    remove_dir(dir)
    assert.are.equal("ValueError", err.type)
    assert.truthy(err.message:find("duplicate reference example for tf.abs", 1, true), err.message)
    assert.truthy(err.message:find("/a.lua and in .*/b.lua"), err.message)
  end)

  it("refuse a key that is not a public name and a record out of format, naming the file", function()
    local dir = example_dir({ ["a.lua"] = 'return { abs = { example = "", output = "", errors = {} } }' })
    local err = error_of(examples.all, dir)
    remove_dir(dir)
    assert.are.equal("ValueError", err.type)
    assert.truthy(err.message:find("a.lua: key abs is not a public name", 1, true), err.message)

    dir = example_dir({ ["a.lua"] = 'return { ["tf.abs"] = { example = "print(1)", errors = {} } }' })
    err = error_of(examples.all, dir)
    remove_dir(dir)
    assert.are.equal("ValueError", err.type)
    assert.truthy(err.message:find("field 'output' must be a string, got a nil", 1, true), err.message)

    dir = example_dir({ ["a.lua"] = 'return { ["tf.abs"] = { example = "", output = "", errors = { { code = "x" } } } }' })
    err = error_of(examples.all, dir)
    remove_dir(dir)
    assert.truthy(err.message:find("errors[1]: field 'type' must be a string", 1, true), err.message)
  end)
end)

describe("help with the reference's example", function()
  local block = table.concat({
    "Example:",
    "",
    "    print(tf.abs(tf.constant({-2.25, 3.25})))",
    "    --> tf.Tensor([2.25 3.25], shape=(2,), dtype=float32)",
    "",
    "Errors:",
    "",
    "    tf.abs(tf.constant({true, false}))",
    "    --> InvalidArgumentError: ...Abs expects a float32, float64, int32 or int64 tensor for input...",
  }, "\n")

  it("tf.help prints the docstring, then the example with what it prints, then the errors", function()
    local text = tf.help(tf.abs)
    assert.truthy(text:find("^tf.abs%(x"), text)
    assert.are.equal(block, text:sub(-#block))
  end)

  it("a constant's help shows its example and no Errors: block when it has none", function()
    local text = tf.help(tf.float32)
    assert.truthy(text:find("Example:", 1, true), text)
    assert.is_nil(text:find("Errors:", 1, true))
  end)

  it("is never looked up for a number, a string or an undocumented value", function()
    assert.are.equal("-1", tf.help(-1)) -- tf.data.AUTOTUNE is -1, but -1 is not AUTOTUNE
    assert.is_nil(help.examples("float32", nil, tf))
    assert.is_nil(help.examples(function() end, "f", tf))
  end)

  it("%help and inspect show the entry of the name as typed, else of the value's public name", function()
    assert.are.equal(tf.help(tf.abs), session.describe(tf.abs, "tf.abs"))
    assert.truthy(session.inspect("tf.abs", 6, 0):find(block, 1, true))
    -- another name for the same function, without its own entry: tf.abs's
    assert.truthy(session.describe(tf.math.abs, "abs"):find(block, 1, true))
  end)

  it("docs/reference.md shows the same text for the name", function()
    local md = reference.markdown()
    local section = md:match("\n### tf%.abs\n(.-)\n### ")
    assert.truthy(section, "no tf.abs section")
    assert.truthy(section:find(block, 1, true), section)
  end)

  it("covers the names reference.names() lists: tf.data has no internal table among them", function()
    local names = {}
    for _, e in ipairs(reference.names()) do names[e.name] = true end
    assert.is_true(names["tf.abs"])
    assert.is_true(names["tf.data.Dataset.range"])
    assert.is_nil(names["tf.data.internal.is_dataset"])
    assert.are.equal("AttributeError", error_of(function() return tf.data.internal end).type)
  end)
end)
