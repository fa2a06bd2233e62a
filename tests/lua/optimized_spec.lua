-- optimized_spec.lua — optimised graphs give the same results as
-- unoptimised ones: every graph of the test suite is run both ways.
--
-- The other spec files (those that trace functions) run again in a child
-- busted process with optimized_recorder.lua as its helper. The recorder
-- keeps every concrete function traced and the arguments of its first two
-- calls; when those specs are done it calls each one again with the same
-- arguments, optimiser off then on, from the same variable values and random
-- seed, and reports every difference in results or in variables written.
-- Functions traced but never called (get_concrete_function alone) have no
-- arguments to replay; the log line counts them. Stateful functions are
-- compared like the others (their variables are saved and restored around
-- each run, their random ops reseeded); only functions that call
-- tf.lua_function or read tf.timestamp are left out, and they are counted and
-- named in the report. Whether the child's own specs pass is their own
-- business (they run in the main suite too).
--
-- Then a few direct checks of the switch and of what the optimiser shows.

local H = require("helpers")
local tf = H.tf

local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "tests/lua"

-- The moonflow program running this suite (specs run under it).
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

-- Spec files that trace no function, left out of the child run: they
-- would only make it slower (memory_spec's eager loops slow down under the
-- recorder's larger Lua heap). The first test checks they still trace
-- nothing.
local UNTRACED = { ["memory_spec.lua"] = true, ["parser_spec.lua"] = true }

local function spec_files()
  local p = assert(io.popen("ls " .. H.shell_quote(here) .. "/*_spec.lua"))
  local files = {}
  for line in p:lines() do
    if not line:match("/optimized_spec%.lua$") then files[#files + 1] = line end
  end
  p:close()
  return files
end

local function other_specs()
  local files = {}
  for _, f in ipairs(spec_files()) do
    if not UNTRACED[f:match("[^/]*$")] then files[#files + 1] = f end
  end
  return files
end

-- Seconds the child run may take (the sanitizer build is several times
-- slower than the release build's ~6 s; tests/run.sh gives the whole Lua
-- suite 600 s, 1500 s under the sanitizer).
local CHILD_TIMEOUT = 400

local report

local function run_both_ways()
  if report then return report end
  local out = os.tmpname()
  local cmd = {
    "timeout", tostring(CHILD_TIMEOUT),
    "env", "MOONFLOW_BOTHWAYS_REPORT=" .. H.shell_quote(out),
    H.shell_quote(program()), H.shell_quote(busted_script()),
    "--lpath=" .. H.shell_quote(here .. "/?.lua"),
    "--helper=" .. H.shell_quote(here .. "/optimized_recorder.lua"), "-o", "TAP",
  }
  for _, f in ipairs(other_specs()) do cmd[#cmd + 1] = H.shell_quote(f) end
  local p = assert(io.popen(table.concat(cmd, " ") .. " >/dev/null 2>&1 </dev/null", "r"))
  p:read("a")
  local _, _, status = p:close()
  local chunk = loadfile(out)
  os.remove(out)
  assert(status ~= 124, ("the child run of the specs took over %d s (a graph that loops "
    .. "forever optimised?)"):format(CHILD_TIMEOUT))
  assert(chunk, "the child run of the specs wrote no report (status " .. tostring(status) .. ")")
  report = chunk()
  return report
end

describe("optimised graphs give the same results as unoptimised ones", function()
  it("leaves out only spec files that trace no function", function()
    for _, f in ipairs(spec_files()) do
      if UNTRACED[f:match("[^/]*$")] then
        local h = assert(io.open(f, "r"))
        local text = h:read("a")
        h:close()
        for _, word in ipairs({ "tf.func", "get_concrete_function", 'tf["function"]' }) do
          assert.is_nil(text:find(word, 1, true), f .. " uses " .. word .. ": run it both ways too")
        end
      end
    end
  end)

  it("for every graph the other spec files trace and call", function()
    local r = run_both_ways()
    assert.is_nil(r.failed)
    if #r.mismatches > 0 then
      error(("%d of %d calls differ:\n  %s"):format(#r.mismatches, r.compared_calls,
        table.concat(r.mismatches, "\n  ", 1, math.min(#r.mismatches, 40))))
    end
    -- What was covered, for the TAP log.
    print(("# traced %d concrete functions; compared %d of them on %d calls (%d failed the same "
      .. "way both ways); %d -> %d graph nodes; left out %d calls of %d functions (lua_function, "
      .. "timestamp); %d never called"):format(r.traced, r.compared_functions, r.compared_calls,
      r.failed_both_ways, r.nodes_before, r.nodes_after, r.excluded_calls, #r.excluded,
      r.traced - r.compared_functions - #r.excluded))
    assert.is_true(r.compared_functions > 100,
      "only " .. r.compared_functions .. " concrete functions were compared")
    assert.is_true(r.nodes_after < r.nodes_before)
  end)
end)

describe("tf.config.optimizer", function()
  after_each(function() tf.config.optimizer.set_enabled(true) end)

  it("is on by default and switches live", function()
    assert.is_true(tf.config.optimizer.get_enabled())
    assert.is_true(tf.config.optimizer.is_enabled())
    local f = tf.func(function(x) return x * 1 + tf.constant(2.0) * 3 end)
    local x = tf.constant({ 1.0, 2.0 })
    assert.are.same({ 7, 8 }, f(x):numpy())
    tf.config.optimizer.set_enabled(false)
    assert.is_false(tf.config.optimizer.get_enabled())
    assert.is_false(tf.config.optimizer.is_enabled())
    assert.are.same({ 7, 8 }, f(x):numpy())
    local cf = f:get_concrete_function(x)
    assert.are.same({ 7, 8 }, cf(x):numpy())
  end)

  it("leaves cf.graph as traced; cf:optimized_graph() shows what runs", function()
    local f = tf.func(function(x) return tf.identity(x * 1.0) + tf.constant(2.0) * 3 end)
    local cf = f:get_concrete_function(tf.TensorSpec({ 2 }, tf.float32))
    local types = {}
    for _, op in ipairs(cf.graph:get_operations()) do types[#types + 1] = op.type end
    assert.are.same({ "Placeholder", "Const", "Mul", "Identity", "Const", "Const", "Mul", "AddV2",
      "Identity" }, types)
    local g, stats = cf:optimized_graph()
    types = {}
    for _, op in ipairs(g:get_operations()) do types[#types + 1] = op.type end
    assert.are.same({ "Placeholder", "Const", "AddV2" }, types)
    assert.are.same({ nodes_before = 9, nodes_after = 3, folded = 1, simplified = 3, merged = 0,
      pruned = 3, fused = 0 }, stats)
    assert.are.equal(9, #cf.graph:get_operations())
    -- made once: what every call runs
    assert.are.equal(g._handle, cf:optimized_graph()._handle)
  end)

  it("never drops or reorders variable updates and prints", function()
    local v = tf.Variable(1.0)
    local lines = {}
    local f = tf.func(function(x)
      v:assign_add(x)
      tf.print("v is", v, { output_stream = function(s) lines[#lines + 1] = s end })
      v:assign(v * 2.0)
      local unused = v:read_value() * 0
      return x + 0
    end)
    assert.are.equal(1.0, f(tf.constant(1.0)):numpy())
    assert.are.equal(4.0, v:numpy())
    assert.are.equal(1, #lines)
    assert.truthy(lines[1]:find("v is 2", 1, true))
    local cf = f:concrete_functions()[1]
    local function stateful(g)
      local order = {}
      for _, op in ipairs(g:get_operations()) do
        if op.type:find("Variable") or op.type == "PrintV2" then order[#order + 1] = op.type end
      end
      return order
    end
    local traced, optimized = stateful(cf.graph), stateful(cf:optimized_graph())
    assert.are.same(traced, optimized)
    -- An update's result is read only where it is used (TF's unread variable).
    assert.are.same({ "AssignAddVariableOp", "ReadVariableOp", "PrintV2",
      "ReadVariableOp", "AssignVariableOp", "ReadVariableOp" }, optimized)
  end)
end)
