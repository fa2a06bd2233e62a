-- reference/examples.lua — the examples and errors of the reference: one
-- data file per area under moonflow/reference/examples/ (tf.lua, data.lua,
-- math.lua, ...), each returning { ["tf.name"] = {example=, output=,
-- errors={{code=, type=, message=}, ...}} }. The files are found in the
-- directory beside this module, wherever the library is (source tree,
-- `make install`, a rock, the Debian package), so adding a file needs no
-- list edited. tf.help, %help and docs/reference.md render them;
-- tests/docs/test_reference_examples.lua runs them: `example` is Lua run
-- in a fresh session, `output` exactly what it prints (stdout), and each
-- error's `code` must raise that `type` with `message` in its message.
-- Keys are the full public names docs/reference.md lists; a constant may
-- have `errors = {}`.

local core = require("moonflow.core")
local errors = require("moonflow.errors")

local examples = {}

local function value_error(message) errors.raise("ValueError", message, 3) end

--- examples.dir() -> the directory holding the example files: the one
-- beside this module's own file.
function examples.dir()
  local source = debug.getinfo(1, "S").source
  local path = source:match("^@(.*)%.lua$")
  if not path then
    local found = package.searchpath("moonflow.reference.examples", package.path)
    path = found and found:match("^(.*)%.lua$")
  end
  if not path then
    errors.raise("NotFoundError", "cannot find moonflow/reference/examples/ along package.path")
  end
  return path
end

--- examples.files([dir]) -> the sorted paths of the example files (of
-- dir, default examples.dir()).
function examples.files(dir)
  dir = dir or examples.dir()
  local names, message = core.list_dir(dir)
  if not names then errors.raise("NotFoundError", message) end
  local files = {}
  for _, name in ipairs(names) do
    if name:match("^[%w_]+%.lua$") then files[#files + 1] = dir .. "/" .. name end
  end
  table.sort(files)
  return files
end

local function check_string(record, field, where)
  if type(record[field]) ~= "string" then
    value_error(("%s: field '%s' must be a string, got a %s"):format(where, field, type(record[field])))
  end
end

-- A record as the format says, or a ValueError naming the file and key.
local function check_record(record, where)
  if type(record) ~= "table" then
    value_error(("%s: the entry must be a table {example=, output=, errors=}, got a %s"):format(where, type(record)))
  end
  check_string(record, "example", where)
  check_string(record, "output", where)
  if type(record.errors) ~= "table" then
    value_error(("%s: field 'errors' must be a list (errors = {} for none), got a %s"):format(where, type(record.errors)))
  end
  for i, e in ipairs(record.errors) do
    local at = ("%s errors[%d]"):format(where, i)
    if type(e) ~= "table" then value_error(at .. ": must be a table {code=, type=, message=}") end
    check_string(e, "code", at)
    check_string(e, "type", at)
    check_string(e, "message", at)
  end
end

-- One file's table.
local function load_file(path)
  local chunk, message = loadfile(path, "t", setmetatable({}, { __index = _G }))
  if not chunk then value_error("cannot load " .. message) end
  local ok, t = pcall(chunk)
  if not ok then value_error(("%s: %s"):format(path, tostring(t))) end
  if type(t) ~= "table" then value_error(("%s must return a table of entries, got a %s"):format(path, type(t))) end
  return t
end

local cache

--- examples.all([dir]) -> { [name] = record }, every file merged, and
-- { [name] = file } (the path of the file each entry is in). A key in two
-- files, a key that is not a "tf." name or a record not in the format is a
-- ValueError naming the file(s). The library's own directory is read once;
-- another dir (a test's) every time.
function examples.all(dir)
  if cache and not dir then return cache.entries, cache.origin end
  local entries, origin = {}, {}
  for _, path in ipairs(examples.files(dir)) do
    local t = load_file(path)
    local keys = {}
    for k in pairs(t) do
      if type(k) ~= "string" or not k:match("^tf%.") then
        value_error(("%s: key %s is not a public name (\"tf.something\")"):format(path, tostring(k)))
      end
      keys[#keys + 1] = k
    end
    table.sort(keys)
    for _, k in ipairs(keys) do
      if origin[k] then
        value_error(("duplicate reference example for %s: in %s and in %s"):format(k, origin[k], path))
      end
      check_record(t[k], ("%s [%q]"):format(path, k))
      entries[k], origin[k] = t[k], path
    end
  end
  if not dir then cache = { entries = entries, origin = origin } end
  return entries, origin
end

local function indent(text, prefix)
  local lines = {}
  for line in (text:gsub("\n$", "") .. "\n"):gmatch("([^\n]*)\n") do
    lines[#lines + 1] = line == "" and (prefix:gsub("%s+$", "")) or prefix .. line
  end
  return table.concat(lines, "\n")
end

--- examples.render(record) -> the "Example:" block (the code, then what
-- it prints after "-->") and the "Errors:" block (each error's code, then
-- "--> type: message"), as tf.help and docs/reference.md show them.
function examples.render(record)
  local out = { "Example:", "", indent(record.example, "    ") }
  if record.output ~= "" then out[#out + 1] = indent(record.output, "    --> ") end
  if #record.errors > 0 then
    out[#out + 1] = ""
    out[#out + 1] = "Errors:"
    for _, e in ipairs(record.errors) do
      out[#out + 1] = ""
      out[#out + 1] = indent(e.code, "    ")
      -- the message is a part of the error's: "..." around it, but not
      -- after a sentence's full stop
      local tail = e.message:find("%.$") and "" or "..."
      out[#out + 1] = ("    --> %s: ...%s%s"):format(e.type, e.message, tail)
    end
  end
  return table.concat(out, "\n")
end

--- examples.block(name) -> the rendered block of the entry for name, or nil.
function examples.block(name)
  local record = examples.all()[name]
  return record and examples.render(record) or nil
end

return examples
