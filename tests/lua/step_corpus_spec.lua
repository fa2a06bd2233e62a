-- step_corpus_spec.lua — for every concrete function the other spec files
-- call, stepping it to the end with tf.debug.step gives the bits calling it
-- gives (the graph as traced: the optimiser off), and each executed node is
-- visited once per execution of its graph; and stepping the optimised graph
-- gives the bits a call with the optimiser on gives. The other spec files run again
-- in a child busted process with step_recorder.lua as its helper.

local H = require("helpers")

local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "tests/lua"

-- Spec files left out of the child run: those that run the spec corpus
-- themselves (a child of a child), and those that trace nothing.
local LEFT_OUT = { ["optimized_spec.lua"] = true, ["step_corpus_spec.lua"] = true, ["memory_spec.lua"] = true,
  ["parser_spec.lua"] = true }

local function program()
  local bin = os.getenv("MOONFLOW_BIN")
  local f = bin and io.open(bin, "r")
  if f then
    f:close()
    return bin
  end
  return arg and arg[-1]
end

local function busted_script()
  local script = arg and arg[0]
  if script and script:match("busted$") then return script end
  return "/usr/bin/busted"
end

-- (the sanitizer build runs several times slower; the suite's own limit
-- is then 1500 s)
local CHILD_TIMEOUT = os.getenv("MOONFLOW_SANITIZE") == "1" and 1200 or 400

local function run_stepped()
  local p = assert(io.popen("ls " .. H.shell_quote(here) .. "/*_spec.lua"))
  local files = {}
  for line in p:lines() do
    if not LEFT_OUT[line:match("[^/]*$")] then files[#files + 1] = H.shell_quote(line) end
  end
  p:close()
  local out = os.tmpname()
  local cmd = { "timeout", tostring(CHILD_TIMEOUT), "env", "MOONFLOW_STEP_REPORT=" .. H.shell_quote(out),
    H.shell_quote(program()), H.shell_quote(busted_script()), "--lpath=" .. H.shell_quote(here .. "/?.lua"),
    "--helper=" .. H.shell_quote(here .. "/step_recorder.lua"), "-o", "TAP", table.concat(files, " ") }
  local pr = assert(io.popen(table.concat(cmd, " ") .. " >/dev/null 2>&1 </dev/null", "r"))
  pr:read("a")
  local _, _, status = pr:close()
  local chunk = loadfile(out)
  os.remove(out)
  assert(status ~= 124, ("the child run of the specs took over %d s"):format(CHILD_TIMEOUT))
  assert(chunk, "the child run of the specs wrote no report (status " .. tostring(status) .. ")")
  return chunk()
end

-- Inside another corpus run (optimized_spec's child) this file is one of
-- the specs, not a second corpus run.
local nested = os.getenv("MOONFLOW_BOTHWAYS_REPORT") or os.getenv("MOONFLOW_STEP_REPORT")

describe("stepping every function the specs call", function()
  it("gives the bits a call gives, each node once per execution", function()
    if nested then return end
    local r = run_stepped()
    assert.is_nil(r.failed)
    if #r.mismatches > 0 then
      error(("%d of %d calls differ:\n  %s"):format(#r.mismatches, r.compared,
        table.concat(r.mismatches, "\n  ", 1, math.min(#r.mismatches, 40))))
    end
    print(("# stepped %d calls, as traced and optimised (%d steps; %d failed the same way both ways); left out %d (lua_function, "
      .. "timestamp)"):format(r.compared, r.steps, r.failed_both_ways, r.excluded))
    assert.is_true(r.compared > 100, "only " .. r.compared .. " calls were stepped")
  end)
end)
