-- guides.lua — shared machinery of the specs that port TensorFlow's guides
-- (tests/guides/*_spec.lua). Loaded with require("guides"); tests/run.sh
-- passes --lpath for tests/guides, tests/tf and tests/lua.
--
-- A guide's check is one of three kinds:
--   * an ordinary check: it passes;
--   * a pending check (G.it with a key of pending.lua): a feature moonflow
--     lacks (custom gradients, Keras subclassing, ...). Its spec is written
--     and reported as a TAP SKIP naming why and the issue that brings it;
--     deleting its line in pending.lua switches it on;
--   * a known failure (G.fails): code that should work gives a wrong answer
--     or a silent nil today (KNOWN_FAILURES.md lists each). It is a check
--     like the others when MOONFLOW_GUIDES_STRICT=1; otherwise it runs
--     unreported and G.report says, as TAP comments, whether it still
--     fails, so that a fix in the library is noticed without breaking the
--     suite before the check is switched on.
--
-- busted insulates each spec file (package.loaded is restored after it),
-- so every file calls G.init with its own DSL functions.

local tf = rawget(_G, "tf") or require("moonflow")
local luassert = require("luassert")

local G = {}
G.tf = tf
G.pending = require("pending")
G.strict = os.getenv("MOONFLOW_GUIDES_STRICT") == "1"

local dsl, known, guide_name, used = nil, {}, nil, {}

--- G.init(guide, it, pending): the guide's title (as pending.lua names it)
-- and busted's DSL functions of the calling spec file.
function G.init(guide, it_fn, pending_fn)
  guide_name = guide
  dsl = { it = it_fn, pending = pending_fn }
  known, used = {}, {}
end

--- G.it(key, name, fn): a check that is pending while pending.lua lists
-- `key` without `on = true`; once its line is deleted (or switched on),
-- or with a nil key, it is an ordinary check.
function G.it(key, name, fn)
  local p = key ~= nil and G.pending[key] or nil
  if p ~= nil then used[key] = true end
  if p == nil or p.on then return dsl.it(name, fn) end
  dsl.pending(("%s [pending: %s; issue %s]"):format(name, p.why, tostring(p.issue)))
end

--- G.fails(section, name, fn): a known failure (see the header); section
-- names it in the report (in strict mode the enclosing describe does).
function G.fails(section, name, fn)
  if G.strict then return dsl.it(name, fn) end
  known[#known + 1] = { name = section .. ": " .. name, fn = fn }
end

--- Runs fn(...) with io.stderr muted (TF's warnings are checked where the
-- guide prints them; elsewhere they stay off the TAP stream).
function G.quiet(fn, ...)
  local saved = io.stderr
  io.stderr = { write = function(self) return self end, flush = function(self) return self end }
  local r = table.pack(pcall(fn, ...))
  io.stderr = saved
  if not r[1] then error(r[2], 0) end
  return table.unpack(r, 2, r.n)
end

--- Runs fn() and returns what it wrote to io.stderr, as one string.
function G.stderr_of(fn)
  local chunks = {}
  local saved = io.stderr
  io.stderr = {
    write = function(self, ...)
      for _, s in ipairs({ ... }) do chunks[#chunks + 1] = tostring(s) end
      return self
    end,
    flush = function(self) return self end,
  }
  local ok, err = pcall(fn)
  io.stderr = saved
  if not ok then error(err, 0) end
  return table.concat(chunks)
end

local function comment(text)
  -- One TAP comment per line; nothing here may start a line with "ok".
  for line in (text .. "\n"):gmatch("(.-)\n") do io.write("# ", line, "\n") end
end

--- G.report(): the spec file's last checks: its guide's pending entries
-- and known failures, written as TAP comments.
function G.report()
  local keys = {}
  for key, p in pairs(G.pending) do
    if p.guide == guide_name then keys[#keys + 1] = key end
  end
  table.sort(keys)
  dsl.it(guide_name .. ": the pending list (tests/guides/pending.lua) names a written check, a reason and an issue", function()
    for _, key in ipairs(keys) do
      local p = G.pending[key]
      luassert.is_true(used[key] == true, "pending.lua's '" .. key .. "' names no check of this guide")
      luassert.is_truthy(p.section and p.why and p.issue, "pending.lua's '" .. key .. "' lacks section, why or issue")
      if not p.on then
        comment(("pending: %s / %s: %s (issue %s)"):format(p.guide, p.section, p.why, tostring(p.issue)))
      end
    end
  end)
  if G.strict then return end
  dsl.it(guide_name .. ": known failures (KNOWN_FAILURES.md; MOONFLOW_GUIDES_STRICT=1 makes them checks)", function()
    for _, k in ipairs(known) do
      local ok, err = pcall(G.quiet, k.fn)
      if ok then
        comment(("known failure now passes, switch it on: %s / %s"):format(guide_name, k.name))
      else
        comment(("known failure: %s / %s: %s"):format(guide_name, k.name, tostring(err):match("^[^\n]*")))
      end
    end
  end)
end

--- The text print() would write for its arguments (Lua's tostring of each,
-- tab-separated): what the guide's print shows, with TF's None for nil.
function G.printed(...)
  local parts = table.pack(...)
  for i = 1, parts.n do
    parts[i] = parts[i] == nil and "None" or tostring(parts[i])
  end
  return table.concat(parts, " ", 1, parts.n)
end

return G
