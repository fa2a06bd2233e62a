-- helpers.lua — shared checks for the busted specs of the Lua API.
-- Loaded with require("helpers") (tests/run.sh passes --lpath tests/lua/?.lua).
-- Works under the moonflow binary (global `tf`) and stock lua5.4 + the module.

local tf = rawget(_G, "tf") or require("moonflow")
local luassert = require("luassert")

local H = {}

-- The REPL/Jupyter form of a value: its metatable's __repr.
function H.repr(x)
  local mt = getmetatable(x)
  luassert.is_truthy(mt and mt.__repr, "value has no __repr")
  return mt.__repr(x)
end

local function kinds_text(kinds)
  if type(kinds) == "table" then return table.concat(kinds, " or ") end
  return tostring(kinds)
end

local function kind_ok(kinds, t)
  if kinds == nil then return true end
  if type(kinds) == "string" then return t == kinds end
  for _, k in ipairs(kinds) do
    if t == k then return true end
  end
  return false
end

-- Checks that `err` is a moonflow error object: .type and .message strings,
-- tostring(err) == type .. ": " .. message.
function H.check_error_object(err)
  luassert.is_true(tf.errors.is(err),
    "expected a moonflow error object, got a " .. type(err) .. ": " .. tostring(err))
  luassert.are.equal("string", type(err.type))
  luassert.are.equal("string", type(err.message))
  luassert.is_true(#err.message > 0, "empty error message")
  luassert.are.equal(err.type .. ": " .. err.message, tostring(err))
end

-- Calls fn(...) and checks that it raises a moonflow error object whose type
-- is `kinds` (a type name or a list of accepted ones; nil = any type) and
-- whose message contains `text` (plain substring), when given.
-- Returns the error object.
function H.raises(kinds, text, fn, ...)
  local ok, err = pcall(fn, ...)
  luassert.is_false(ok, "expected a " .. kinds_text(kinds) .. " error, but the call succeeded"
    .. (ok and (" and returned " .. tostring(err)) or ""))
  H.check_error_object(err)
  luassert.is_true(kind_ok(kinds, err.type),
    "expected a " .. kinds_text(kinds) .. " error, got " .. tostring(err))
  if text then
    luassert.is_truthy(err.message:find(text, 1, true),
      "error message '" .. err.message .. "' does not contain '" .. text .. "'")
  end
  return err
end

-- Asserts that `actual` (a tensor, or a Lua number / nested table) equals
-- `expected` (a number or nested table) within `tol`, elementwise.
function H.close(expected, actual, tol)
  tol = tol or 1e-5
  if tf.is_tensor(actual) then actual = actual:numpy() end
  local function walk(e, a, path)
    if type(e) == "table" then
      luassert.are.equal("table", type(a), "at " .. path .. ": expected a table, got " .. tostring(a))
      luassert.are.equal(#e, #a, "at " .. path .. ": length")
      for i = 1, #e do walk(e[i], a[i], path .. "[" .. i .. "]") end
    else
      luassert.are.equal("number", type(a), "at " .. path .. ": expected a number, got " .. tostring(a))
      if e ~= e then
        luassert.is_true(a ~= a, "at " .. path .. ": expected nan, got " .. a)
      elseif e == math.huge or e == -math.huge then
        luassert.are.equal(e, a, "at " .. path)
      else
        local scale = math.max(1, math.abs(e))
        luassert.is_true(math.abs(e - a) <= tol * scale,
          ("at %s: expected %.9g, got %.9g (tol %g)"):format(path, e, a, tol))
      end
    end
  end
  walk(expected, actual, "value")
end

-- The exact value of a tensor as Lua data, with its dtype checked.
function H.value(t, dtype)
  luassert.is_true(tf.is_tensor(t), "expected a tensor, got " .. tostring(t))
  if dtype then luassert.are.equal(dtype, t.dtype, "dtype") end
  return t:numpy()
end

-- Asserts the dtype, shape (a Lua list) and exact value of a tensor.
function H.tensor(t, dtype, shape, expected)
  luassert.is_true(tf.is_tensor(t), "expected a tensor, got " .. tostring(t))
  luassert.are.equal(dtype, t.dtype, "dtype")
  luassert.are.same(shape, t.shape:as_list(), "shape")
  if expected ~= nil then luassert.are.same(expected, t:numpy(), "value") end
end

-- Like H.tensor but compares values with a tolerance.
function H.tensor_close(t, dtype, shape, expected, tol)
  H.tensor(t, dtype, shape)
  H.close(expected, t, tol)
end

-- Reads the process's resident set size in kB from /proc/self/status.
function H.rss_kb()
  local f = io.open("/proc/self/status", "r")
  if not f then return nil end
  local text = f:read("a")
  f:close()
  return tonumber(text:match("VmRSS:%s*(%d+)%s*kB"))
end

-- Calls tf.print(...) with its output captured through output_stream
-- (merged into a trailing options table when `opts` is given). Returns the
-- text and the list of chunks written.
function H.capture_print(...)
  local chunks = {}
  local args = table.pack(...)
  args[args.n + 1] = { output_stream = function(s) chunks[#chunks + 1] = s end }
  tf.print(table.unpack(args, 1, args.n + 1))
  return table.concat(chunks), chunks
end

function H.capture_print_opts(opts, ...)
  local chunks = {}
  local o = {}
  for k, v in pairs(opts) do o[k] = v end
  o.output_stream = function(s) chunks[#chunks + 1] = s end
  local args = table.pack(...)
  args[args.n + 1] = o
  tf.print(table.unpack(args, 1, args.n + 1))
  return table.concat(chunks), chunks
end

local function shell_quote(s)
  return "'" .. s:gsub("'", "'\\''") .. "'"
end
H.shell_quote = shell_quote

-- True when the suite runs against the ASan/UBSan build (tests/run.sh
-- exports MOONFLOW_SANITIZE=1).
function H.sanitized()
  return os.getenv("MOONFLOW_SANITIZE") == "1"
end

-- Runs Lua `code` in a fresh process with `tf` available: through
-- $MOONFLOW_BIN -e when the moonflow binary is there, else stock lua5.4
-- requiring the module (LUA_CPATH is inherited). `env` is a table of extra
-- environment variables. Returns the combined stdout+stderr and the exit
-- status.
function H.run_lua(code, env)
  local prefix = {}
  for k, v in pairs(env or {}) do prefix[#prefix + 1] = k .. "=" .. shell_quote(v) end
  -- Under the moonflow binary (global tf preloaded) the child is the same
  -- program: $MOONFLOW_BIN, else the interpreter running this suite.
  local global_tf = rawget(_G, "tf") ~= nil
  local bin = os.getenv("MOONFLOW_BIN")
  local f = bin and io.open(bin, "r")
  if f then f:close() elseif global_tf and arg and arg[-1] then bin = arg[-1] else bin = nil end
  local cmd
  if bin and (global_tf or os.getenv("MOONFLOW_SANITIZE") == "1") then
    cmd = shell_quote(bin) .. " -e " .. shell_quote(code)
  else
    -- stock lua5.4: the child finds the module where this process did
    prefix[#prefix + 1] = "LUA_CPATH=" .. shell_quote(package.cpath)
    prefix[#prefix + 1] = "LUA_PATH=" .. shell_quote(package.path)
    cmd = "lua5.4 -e " .. shell_quote('tf = require("moonflow") ' .. code)
  end
  if #prefix > 0 then cmd = "env " .. table.concat(prefix, " ") .. " " .. cmd end
  local p = assert(io.popen(cmd .. " 2>&1 </dev/null", "r"))
  local out = p:read("a")
  local _, _, status = p:close()
  return out, status
end

-- $ASAN_OPTIONS with `extra` appended.
function H.asan_options(extra)
  local cur = os.getenv("ASAN_OPTIONS")
  if cur and cur ~= "" then return cur .. ":" .. extra end
  return extra
end

H.tf = tf
-- Runs fn with Lua's print and io.stdout (tf.print's default sink)
-- captured; returns the captured lines.
function H.capture(fn)
  local lines, partial = {}, ""
  local saved_print, saved_stdout = print, io.stdout
  print = function(...)
    local parts = table.pack(...)
    for i = 1, parts.n do parts[i] = tostring(parts[i]) end
    lines[#lines + 1] = table.concat(parts, "\t", 1, parts.n)
  end
  io.stdout = {
    write = function(self, ...)
      for _, s in ipairs({ ... }) do
        partial = partial .. tostring(s)
        while partial:find("\n") do
          local line, rest = partial:match("^(.-)\n(.*)$")
          lines[#lines + 1] = line
          partial = rest
        end
      end
      return self
    end,
    flush = function(self) return self end,
  }
  local ok, err = pcall(fn)
  print, io.stdout = saved_print, saved_stdout
  if not ok then error(err, 0) end
  if partial ~= "" then lines[#lines + 1] = partial end
  return lines
end


-- The op types of a concrete function's graph, in creation order.
function H.op_types(cf)
  local types = {}
  for i, op in ipairs(cf.graph:get_operations()) do types[i] = op.type end
  return types
end

-- A value as Lua values: a tensor's numpy(), a nest's items so.
local function numpy_of(v)
  if tf.is_tensor(v) then return v:numpy() end
  local t = {}
  for k, x in pairs(v) do t[k] = numpy_of(x) end
  return t
end

--- Every element of a tf.data dataset as Lua values (tuples as lists).
function H.elements(ds)
  local out, it = {}, ds:iter()
  while true do
    local e = it:next()
    if e == nil then return out end
    out[#out + 1] = numpy_of(e)
  end
end

--- A dataset's cardinality as a Lua number.
function H.card(ds) return ds:cardinality():numpy() end

--- Asserts that work() leaves no core buffer behind: after one warm-up
-- run (caches, interned constants), three more runs end, once collected,
-- with as many buffers alive as before them.
function H.leaves_no_buffers(work)
  local core = require("moonflow.core")
  local function live()
    collectgarbage()
    collectgarbage()
    return core.live_buffers()
  end
  work()
  local before = live()
  for _ = 1, 3 do work() end
  luassert.equal(before, live())
end

return H
