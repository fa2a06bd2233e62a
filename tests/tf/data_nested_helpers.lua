-- data_nested_helpers.lua — what the ports of TF's tf.data kernel tests
-- (flat_map_spec, interleave_spec, window_spec) share: test_base's
-- assertDatasetProduces and getNext. TF runs each case eagerly and in a
-- graph; here "in a graph" is a tf.func that builds the pipeline in its
-- trace and reads every element there (AutoGraph's loop over the dataset
-- writing a TensorArray), as data_func_spec.lua does for map.
local tf = rawget(_G, "tf") or require("moonflow")
local T = require("tfhelpers")
local luassert = require("luassert")

local D = {}

-- Every element of ds as plain Lua values (tuples as lists).
function D.elements(ds)
  local out, it = {}, ds:iter()
  while true do
    local e = it:next()
    if e == nil then return out end
    out[#out + 1] = T.plain(e)
  end
end

-- The elements of the one-tensor dataset build() makes, read inside a
-- tf.func (the pipeline built in its trace): a list of Lua values.
function D.elements_in_func(build, dtype)
  local f = tf.func(function()
    local ta = tf.TensorArray(dtype or tf.int64, { size = 0, dynamic_size = true })
    for x in build() do ta = ta:write(ta:size(), x) end
    return ta:size(), ta:stack()
  end)
  -- A new tf.func per case: TF's frequent-retracing warning stays off the TAP stream.
  local n, stacked = T.quiet(f)
  if n:numpy() == 0 then return {} end
  local values = T.plain(stacked)
  return values
end

-- assertDatasetProduces: the elements in order, then OutOfRangeError at
-- every later get_next (TF checks twice).
function D.produces(ds, expected)
  local it = ds:iter()
  local got = {}
  for i = 1, #expected do
    local ok, e = pcall(it.get_next, it)
    if not ok then error(("element %d of %d: %s"):format(i, #expected, tostring(e)), 2) end
    got[i] = e
  end
  T.equal(expected, got)
  for _ = 1, 2 do
    local ok, e = pcall(it.get_next, it)
    luassert.is_false(ok, "an element past the end")
    luassert.are.equal("OutOfRangeError", e.type)
  end
end

-- The pipeline build() makes produces `expected` eagerly and, when it
-- gives one tensor per element, inside a tf.func too.
function D.produces_both(build, expected, dtype)
  D.produces(build(), expected)
  T.equal(expected, D.elements_in_func(build, dtype))
end

-- The number of CPUs this process may use (what TF's kernels size an
-- AUTOTUNE cycle by): nproc counts the affinity mask as
-- os.sched_getaffinity does.
function D.cpu_count()
  local p = io.popen("nproc")
  local n = tonumber(p:read("*l"))
  p:close()
  return n
end

return D
