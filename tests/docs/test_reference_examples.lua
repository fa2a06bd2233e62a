-- test_reference_examples.lua — the reference's examples are true: every
-- entry of lua/moonflow/reference/examples/*.lua runs in a fresh session
-- (reference_example_run.lua, one process each) and prints exactly its
-- `output`; each of its `errors` raises that error type with a message
-- holding that text; every public name (the names docs/reference.md lists,
-- reference.names()) has an entry, and every entry names a public name.
-- MOONFLOW_REFERENCE_NAMESPACES=tf,tf.data,... limits the check that every
-- name has an entry to the names of those namespaces (docs/testing.md); by
-- default every name must have one. Prints TAP. Run by the program:
--   build/release/moonflow tests/docs/test_reference_examples.lua
local core = require("moonflow.core")
local reference = require("moonflow.reference")
local examples = require("moonflow.reference.examples")

local MARK = "--[[reference errors]]--"
local root = os.getenv("MOONFLOW_ROOT") or "."
local bin = os.getenv("MOONFLOW_BIN") or core.program_path()
local runner = root .. "/tests/docs/reference_example_run.lua"
local stderr_file = os.tmpname()

local n = 0
local failed = 0
local function report(ok, what, diag)
  n = n + 1
  if not ok then failed = failed + 1 end
  print(("%s %d - %s"):format(ok and "ok" or "not ok", n, what))
  if not ok and diag then
    for line in (diag .. "\n"):gmatch("([^\n]*)\n") do print("# " .. line) end
  end
end

local function quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

local function unescape(s)
  return (s:gsub("\\(.)", { n = "\n", t = "\t", ["\\"] = "\\" }))
end

local function namespace_of(name) return name:match("^(.*)%.[^.]+$") end

local function relative(path)
  return path:match("(lua/moonflow/reference/examples/[^/]+)$") or path
end

-- The file a missing name's entry belongs in: the file holding most of
-- its namespace's entries, or examples/<namespace after "tf", "_"-joined>.lua.
local function file_for(name, origin)
  local ns = namespace_of(name)
  local count, best = {}, nil
  for key, path in pairs(origin) do
    if namespace_of(key) == ns then
      count[path] = (count[path] or 0) + 1
      if not best or count[path] > count[best] or (count[path] == count[best] and path < best) then
        best = path
      end
    end
  end
  if best then return relative(best) end
  local area = ns == "tf" and "tf" or ns:gsub("^tf%.", ""):gsub("%.", "_"):lower()
  return ("lua/moonflow/reference/examples/%s.lua"):format(area)
end

local ok_load, entries, origin = pcall(examples.all)
report(ok_load, "the example files load (" .. #examples.files() .. " files)",
  not ok_load and tostring(entries) or nil)
if not ok_load then
  print("1.." .. n)
  os.exit(1)
end

-- Coverage, both ways.
local scope
if (os.getenv("MOONFLOW_REFERENCE_NAMESPACES") or "") ~= "" then
  scope = {}
  for ns in os.getenv("MOONFLOW_REFERENCE_NAMESPACES"):gmatch("[^,%s]+") do scope[ns] = true end
end
local public, missing = {}, {}
for _, e in ipairs(reference.names()) do
  public[e.name] = true
  if not entries[e.name] and (not scope or scope[namespace_of(e.name)]) then
    missing[#missing + 1] = ("%s: add its entry to %s"):format(e.name, file_for(e.name, origin))
  end
end
report(#missing == 0, ("every public name has a reference example%s (%d missing)"):format(
  scope and " (namespaces of MOONFLOW_REFERENCE_NAMESPACES only)" or "", #missing),
  table.concat(missing, "\n"))
-- A class's documented member (tf.RaggedTensor.from_row_splits), shown
-- under its class in the reference, may have an entry of its own.
local doc = require("moonflow.doc")
local function documented_member(key)
  local class, member = key:match("^(.*)%.([^.]+)$")
  if not (class and public[class]) then return false end
  local ok, m = pcall(function()
    local value = tf
    for part in class:gmatch("[^.]+") do
      if part ~= "tf" then value = value[part] end
    end
    return value[member]
  end)
  return ok and m ~= nil and doc.get(m) ~= nil
end

local keys = {}
for k in pairs(entries) do keys[#keys + 1] = k end
table.sort(keys)
local strays = {}
for _, k in ipairs(keys) do
  if not public[k] and not documented_member(k) then
    strays[#strays + 1] = ("%s (in %s) is not a public name: remove it or fix the key"):format(k, relative(origin[k]))
  end
end
report(#strays == 0, ("every reference example names a public name (%d not)"):format(#strays),
  table.concat(strays, "\n"))

-- Each entry in a fresh session.
for _, k in ipairs(keys) do
  local record, where = entries[k], relative(origin[k])
  -- stdout is what the example prints; stderr (a progress bar, a
  -- warning) is shown only when the entry fails
  local p = io.popen(("timeout 120 %s %s %s 2>%s"):format(quote(bin), quote(runner), quote(k), quote(stderr_file)))
  local text = p:read("a")
  p:close()
  local f = io.open(stderr_file)
  local stderr = f and f:read("a") or ""
  if f then f:close() end
  local tail = stderr ~= "" and "\nstderr:\n" .. stderr or ""
  local printed, rest = text:match("^(.-)" .. MARK:gsub("%p", "%%%0") .. "\n(.*)$")
  if not printed then
    report(false, k .. ": example runs (" .. where .. ")", text .. tail)
  else
    report(printed == record.output, k .. ": example prints its output (" .. where .. ")",
      ("expected:\n%s\ngot:\n%s"):format(record.output, printed) .. tail)
    local got = {}
    for i, t, m in rest:gmatch("(%d+)\t([^\t\n]*)\t([^\n]*)\n") do got[tonumber(i)] = { t, unescape(m) } end
    for i, e in ipairs(record.errors) do
      local g = got[i]
      local ok = g and g[1] == e.type and g[2]:find(e.message, 1, true) ~= nil
      report(ok, ("%s: errors[%d] raises %s (%s)"):format(k, i, e.type, where),
        g and ("code: %s\nexpected: %s containing %q\ngot: %s: %s"):format(e.code, e.type, e.message, g[1], g[2])
          or ("code: %s\nthe run stopped before it:\n%s"):format(e.code, rest .. tail))
    end
  end
end
os.remove(stderr_file)
print("1.." .. n)
os.exit(failed == 0 and 0 or 1)
