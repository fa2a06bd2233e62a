-- reference_example_run.lua NAME — runs one reference entry in this fresh
-- session for test_reference_examples.lua: the example as a chunk (its
-- printed output goes to stdout as it is), then a marker line, then one
-- line per error entry: "<i>\t<type>\t<message>" (newlines escaped) of the
-- error its code raised, "<i>\tnone\t" when it raised none.
local MARK = "--[[reference errors]]--"
local name = assert(arg[1], "usage: moonflow reference_example_run.lua NAME")
local record = require("moonflow.reference.examples").all()[name]
if not record then error("no reference entry for " .. name) end

-- The session keeps the text of the chunks it runs (host.sources), as it
-- does for a cell: AutoGraph converts the example's functions from it.
local sources = require("moonflow.state").host.sources
local function compile(code, chunkname)
  sources["=" .. chunkname] = code
  return load(code, "=" .. chunkname, "t")
end

local function escape(s) return (tostring(s):gsub("\\", "\\\\"):gsub("\n", "\\n"):gsub("\t", "\\t")) end

local chunk, message = compile(record.example, name .. " example")
if chunk then
  local ok, err = pcall(chunk)
  if not ok then print("example raised: " .. tostring(err)) end
else
  print("example does not load: " .. message)
end
io.stdout:flush()
print(MARK)
for i, e in ipairs(record.errors) do
  local f, err = compile(e.code, name .. " errors[" .. i .. "]")
  local ok
  if f then ok, err = pcall(f) end
  if f and ok then
    print(("%d\tnone\t"):format(i))
  elseif type(err) == "userdata" or type(err) == "table" then
    local t = tf.errors.is(err) and err.type or "not a moonflow error"
    print(("%d\t%s\t%s"):format(i, t, escape(tf.errors.is(err) and err.message or err)))
  else
    print(("%d\t%s\t%s"):format(i, "not a moonflow error", escape(err)))
  end
  io.stdout:flush()
end
