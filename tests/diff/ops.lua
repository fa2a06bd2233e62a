-- ops.lua — the differential test of every op in moonflow's registry.
--
-- The cases come from tables by family, tests/diff/ops/<family>.lua, one
-- entry per case kind:
--   { name = "reduce_sum",          -- the key of its NumPy/PyTorch reference
--     ops = { "Sum" },              -- the registry ops it covers: each must
--                                   -- appear in the graph its cases trace
--     gen = function(r, g) ... end, -- seeded inputs and attributes:
--                                   -- { inputs = {g.T(...), ...}, attrs = {...},
--                                   --   grad = true (check gradients) }
--     call = function(a, x, ...) return tf.reduce_sum(x, a.axis) end,
--     grad = { 1 },                 -- the inputs gradients are checked for
--                                   -- ("all": every input)
--     dynamic = false,              -- (optional) no unknown-dimension mode, and why
--     random = true,                -- (optional) a random op: see run_random
--   }
-- and their references from tests/diff/ops/<family>.py (REF[name]: NumPy
-- under TF's rules, see opref.py; TORCH[name]: PyTorch where it has the
-- op; GRAD[name]: the gradient where TF defines one the math does not, as
-- stop_gradient's). Adding an op is adding one entry to each; a new
-- family is a new pair of files. g.grad_case(r, p) decides gradient cases
-- (every entry has one in the first round of a run).
--
-- Each case runs eager; tf.func; tf.func with the optimiser off; and tf.func
-- over an input_signature with unknown dimensions. The four must agree bit
-- for bit or raise the same error type, but for what TF itself raises
-- otherwise while it builds a graph (gen.same_error): a shape function's
-- failure is a ValueError naming the node, a dtype the op refuses a
-- TypeError, where eagerly the kernel raises InvalidArgumentError. With grad, the tape's gradient of
-- sum(out * w) (w random) runs eager and traced, bit for bit, and goes with
-- the values to tests/diff/ops_reference.py, which checks the values
-- against NumPy, the gradients against central finite differences of the
-- NumPy reference in float64 and against PyTorch's autograd.
--
-- The registry walk fails for an op no entry covers unless EXCLUDED (near
-- the end of this file) says why it cannot be compared this way.
--
--   moonflow tests/diff/ops.lua [--seed S] [--count N] [--first I]
--                               [--only NAME] [--keep FILE]
-- Case i runs entry i mod (number of entries), so any count >= the number
-- of entries runs every entry. Prints TAP.

local tf = rawget(_G, "tf") or require("moonflow")
local core = package.loaded["moonflow.core"]

local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "tests/diff"
local gen = dofile(here .. "/gen.lua")

-- ---- options ----------------------------------------------------------

local opts = { seed = 1, count = 200, first = 0 }
do
  local i = 1
  while arg and arg[i] do
    local a = arg[i]
    if a == "--seed" or a == "--count" or a == "--first" then
      opts[a:sub(3)] = assert(math.tointeger(tonumber(arg[i + 1])), a)
      i = i + 1
    elseif a == "--keep" or a == "--only" then
      opts[a:sub(3)] = arg[i + 1]
      i = i + 1
    else
      error("unknown argument " .. a)
    end
    i = i + 1
  end
end

-- ---- the case tables ---------------------------------------------------------

local function families()
  local list = {}
  local p = io.popen(("ls %s/ops/*.lua"):format(here))
  for path in p:lines() do list[#list + 1] = path end
  p:close()
  table.sort(list)
  return list
end

local ENTRIES, BY_NAME = {}, {}
for _, path in ipairs(families()) do
  local family = path:match("([^/]+)%.lua$")
  local env = setmetatable({ tf = tf, core = core, gen = gen }, { __index = _G })
  local list = assert(loadfile(path, "t", env))()
  for _, e in ipairs(list) do
    assert(e.name and e.ops and e.gen and e.call, path .. ": an entry lacks name, ops, gen or call")
    assert(not BY_NAME[e.name], "two entries named " .. e.name)
    e.family = family
    BY_NAME[e.name] = e
    ENTRIES[#ENTRIES + 1] = e
  end
end
local RUN = ENTRIES
if opts.only then
  RUN = {}
  for name in opts.only:gmatch("[^,]+") do RUN[#RUN + 1] = assert(BY_NAME[name], "no entry " .. name) end
end

-- ---- running -------------------------------------------------------------------

local function make_input(d)
  local t = tf.constant(d.values, tf[d.dtype])
  return tf.reshape(t, d.shape)
end

local function flatten(v, out)
  if type(v) ~= "table" then
    out[#out + 1] = v
  else
    for _, e in ipairs(v) do flatten(e, out) end
  end
  return out
end

-- A call's results as a flat list of tensors (a Lua list such as
-- tf.unstack's is flattened in order).
local function results(...)
  local out = {}
  for i = 1, select("#", ...) do
    local v = select(i, ...)
    if core.is_tensor(v) then out[#out + 1] = v
    elseif type(v) == "table" then
      for _, e in ipairs(v) do out[#out + 1] = e end
    elseif v ~= nil then
      out[#out + 1] = tf.constant(v)
    end
  end
  return out
end

local function snapshot(t)
  local v = t:numpy()
  return { dtype = t.dtype.name, shape = t.shape:as_list(), values = flatten(v, {}) }
end

local function same_bits(a, b)
  if type(a) == "number" and type(b) == "number" then
    if a ~= a and b ~= b then return true end
    if math.type(a) ~= math.type(b) then return false end
    if math.type(a) == "integer" then return a == b end
    return string.pack("<d", a) == string.pack("<d", b)
  end
  return a == b
end

local function compare(want, got)
  if want.err or got.err then
    if want.err and got.err and gen.same_error(want, got) then return nil end
    return ("one raised %s, the other %s"):format(want.err and want.message or "nothing",
      got.err and got.message or "nothing")
  end
  if #want.outs ~= #got.outs then return ("%d results vs %d"):format(#want.outs, #got.outs) end
  for i, w in ipairs(want.outs) do
    local g = got.outs[i]
    if w == false or g == false then
      if w ~= g then return ("result %d: nil in one only"):format(i) end
    else
      if w.dtype ~= g.dtype then return ("result %d: dtype %s vs %s"):format(i, w.dtype, g.dtype) end
      if table.concat(w.shape, ",") ~= table.concat(g.shape, ",") then
        return ("result %d: shape (%s) vs (%s)"):format(i, table.concat(w.shape, ","), table.concat(g.shape, ","))
      end
      for k = 1, #w.values do
        if not same_bits(w.values[k], g.values[k]) then
          return ("result %d element %d: %s vs %s"):format(i, k - 1, tostring(w.values[k]), tostring(g.values[k]))
        end
      end
    end
  end
  return nil
end

local function run_mode(fn, xs)
  local res = table.pack(pcall(fn, table.unpack(xs, 1, xs.n or #xs)))
  if not res[1] then
    local e = res[2]
    return { err = tf.errors.is(e) and e.type or "raw Lua error", message = tostring(e) }
  end
  local outs = {}
  for i, t in ipairs(results(table.unpack(res, 2, res.n))) do outs[i] = snapshot(t) end
  return { outs = outs }
end

local function dynamic_signature(inputs)
  local sig = {}
  for i, d in ipairs(inputs) do
    local dims = {}
    for k = 1, #d.shape do dims[k] = tf.None end
    sig[i] = tf.TensorSpec(dims, tf[d.dtype])
  end
  return sig
end

local seen_ops = {} -- op type -> true, from every traced graph
local grads_run = {} -- entry name -> cases whose gradients were checked
local function note_graph(f, xs)
  local ok, cf = pcall(function() return f:get_concrete_function(table.unpack(xs, 1, xs.n or #xs)) end)
  if not ok then return end
  for _, o in ipairs(cf.graph:get_operations()) do seen_ops[o.type] = true end
  local ok2, og = pcall(function() return cf:optimized_graph() end)
  if ok2 and og and og.get_operations then
    for _, o in ipairs(og:get_operations()) do seen_ops[o.type] = true end
  end
end

local MODES = { "traced", "traced, optimiser off", "traced, unknown dimensions" }

-- Runs fn eager and every traced way; returns the eager record and the
-- disagreements.
local function run_ways(fn, xs, inputs, tag, dynamic, problems)
  local eager = run_mode(fn, xs)
  local was = tf.config.optimizer.is_enabled()
  for mode_index, mode in ipairs(MODES) do
    if mode ~= "traced, unknown dimensions" or dynamic then
      local fopts = { autograph = false, name = ("%s_%d"):format(tag, mode_index) }
      if mode == "traced, unknown dimensions" then fopts.input_signature = dynamic_signature(inputs) end
      local f = tf.func(fn, fopts)
      tf.config.optimizer.set_enabled(mode ~= "traced, optimiser off")
      local got = run_mode(f, xs)
      if mode_index == 1 and not got.err then note_graph(f, xs) end
      tf.config.optimizer.set_enabled(was)
      local why = compare(eager, got)
      if why then problems[#problems + 1] = ("%s: eager vs %s: %s"):format(tag, mode, why) end
    end
  end
  return eager
end

-- The gradient function: inputs then one weight per float result; returns
-- one gradient per entry.grad input (false: the tape gave none).
local function grad_inputs(e, ninputs)
  if e.grad ~= "all" then return e.grad end
  local all = {}
  for i = 1, ninputs do all[i] = i end
  return all
end

local function gradient_fn(e, a, ninputs, float_outs)
  local gidx = grad_inputs(e, ninputs)
  return function(...)
    local args = table.pack(...)
    local xs = { table.unpack(args, 1, ninputs) }
    local tape = tf.GradientTape()
    for _, i in ipairs(gidx) do tape:watch(xs[i]) end
    local outs = results(e.call(a, table.unpack(xs, 1, ninputs)))
    local loss
    for k, idx in ipairs(float_outs) do
      local term = tf.reduce_sum(outs[idx] * args[ninputs + k])
      loss = loss and loss + term or term
    end
    tape:stop()
    local sources = {}
    for k, i in ipairs(gidx) do sources[k] = xs[i] end
    local gs = tape:gradient(loss, sources)
    local out = {}
    for k = 1, #gidx do out[k] = gs[k] or tf.constant("none") end
    return table.unpack(out, 1, #gidx)
  end
end

local function describe(index, e, c)
  local lines = { ("  rerun: moonflow tests/diff/ops.lua --seed %d --first %d --count 1%s"):format(
    opts.seed, index, opts.only and (" --only " .. opts.only) or "") }
  lines[#lines + 1] = "  entry " .. e.name .. " (" .. e.family .. "), attrs " .. (c.attrs_text or "{}")
  for i, d in ipairs(c.inputs) do
    local vals = {}
    for k, v in ipairs(d.values) do
      if k > 12 then vals[#vals + 1] = "..." break end
      vals[#vals + 1] = type(v) == "number" and math.type(v) == "float" and ("%.9g"):format(v) or tostring(v)
    end
    lines[#lines + 1] = ("  x%d = %s (%s) {%s}"):format(i, d.dtype, table.concat(d.shape, ","),
      table.concat(vals, ", "))
  end
  return table.concat(lines, "\n")
end

-- A random op: the same seeds give the same numbers, eager and in a fresh
-- tf.func; a second call draws new ones. Returns the first eager draw.
local function run_random(fn, a, tag, problems)
  local xs = { n = 0 }
  local function seeded(f)
    tf.random.set_seed(a.global)
    local first = run_mode(f, xs)
    local second = run_mode(f, xs)
    return first, second
  end
  local e1, e2 = seeded(fn)
  local again = seeded(fn)
  local why = compare(e1, again)
  if why then problems[#problems + 1] = tag .. ": eager, the same seeds twice: " .. why end
  local f1 = tf.func(fn, { autograph = false, name = tag .. "_1" })
  local t1, t2 = seeded(f1)
  local t1again = seeded(tf.func(fn, { autograph = false, name = tag .. "_2" }))
  why = compare(t1, t1again)
  if why then problems[#problems + 1] = tag .. ": traced, the same seeds twice: " .. why end
  note_graph(f1, xs)
  for _, pair in ipairs({ { e1, e2, "eager" }, { t1, t2, "traced" } }) do
    local p, q = pair[1], pair[2]
    if not p.err and not q.err and #p.outs[1].values > 1 and not compare(p, q) then
      problems[#problems + 1] = tag .. ": " .. pair[3] .. ": a second call drew the same numbers"
    end
  end
  return e1
end

-- ---- the exchange with ops_reference.py -----------------------------------------------

local function json(v)
  local t = type(v)
  if t == "nil" then return "null" end
  if t == "boolean" then return tostring(v) end
  if t == "number" then
    if math.type(v) == "integer" then return tostring(v) end
    if v ~= v then return "NaN" end
    if v == math.huge then return "Infinity" end
    if v == -math.huge then return "-Infinity" end
    local text = ("%.17g"):format(v)
    return text:find("[.eEn]") and text or text .. ".0" -- a float stays one (-0.0 too)
  end
  if t == "string" then return ("%q"):format(v):gsub("\\\n", "\\n") end
  if t == "table" then
    if getmetatable(v) == core.dtype_metatable then return ("%q"):format(v.name) end
    if next(v) == nil or v[1] ~= nil then
      local parts = {}
      for i = 1, #v do parts[i] = json(v[i]) end
      return "[" .. table.concat(parts, ",") .. "]"
    end
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = k end
    table.sort(keys)
    local parts = {}
    for _, k in ipairs(keys) do parts[#parts + 1] = ("%q:%s"):format(tostring(k), json(v[k])) end
    return "{" .. table.concat(parts, ",") .. "}"
  end
  return ("%q"):format(tostring(v))
end

local function fmt_value(v, dtype)
  if type(v) == "boolean" then return v and "1" or "0" end
  if dtype == "string" then return "s" .. (v:gsub(".", function(ch) return ("%02x"):format(ch:byte()) end)) end
  if math.type(v) == "integer" then return tostring(v) end
  if v ~= v then return "nan" end
  return ("%a"):format(v)
end

local function fmt_tensor(s)
  local parts = { s.dtype, tostring(#s.shape) }
  for _, d in ipairs(s.shape) do parts[#parts + 1] = tostring(d) end
  parts[#parts + 1] = ":"
  for _, v in ipairs(s.values) do parts[#parts + 1] = fmt_value(v, s.dtype) end
  return table.concat(parts, " ")
end

-- ---- one case -----------------------------------------------------------------------

local function float_weights(r, outs)
  local idx, ws = {}, {}
  for i, o in ipairs(outs) do
    if gen.is_float(o.dtype) then
      idx[#idx + 1] = i
      ws[#ws + 1] = gen.rand(r, o.dtype, o.shape, "smooth")
    end
  end
  return idx, ws
end

local function run_case(index, f)
  local e = RUN[index % #RUN + 1]
  local r = gen.rng(opts.seed, index)
  gen.force_grad = index - opts.first < #RUN
  local c = e.gen(r, gen)
  gen.force_grad = false
  c.attrs = c.attrs or {}
  c.attrs_text = json(c.attrs)
  local a = c.attrs
  local xs = { n = #c.inputs }
  for i, d in ipairs(c.inputs) do xs[i] = make_input(d) end
  local fn = function(...) return e.call(a, ...) end
  local problems = {}
  local dynamic = e.dynamic == nil or e.dynamic == true
  local tag = ("%s_%d"):format(e.name, index)
  local eager
  if e.random then
    eager = run_random(fn, a, tag, problems)
  else
    eager = run_ways(fn, xs, c.inputs, tag, dynamic, problems)
  end
  if eager.err == "raw Lua error" then problems[#problems + 1] = "eager: " .. eager.message end
  f:write("case ", index, " ", e.name, "\n")
  f:write("attrs ", c.attrs_text, "\n")
  for _, d in ipairs(c.inputs) do f:write("in ", fmt_tensor(d), "\n") end
  if eager.err then
    f:write("err ", eager.err, "\n")
  else
    for _, o in ipairs(eager.outs) do f:write("out ", fmt_tensor(o), "\n") end
    if c.grad and e.grad then
      local idx, ws = float_weights(r, eager.outs)
      if #idx > 0 then
        local gxs = { n = #xs + #ws }
        for i = 1, #xs do gxs[i] = xs[i] end
        local ginputs = {}
        for i, d in ipairs(c.inputs) do ginputs[i] = d end
        for k, w in ipairs(ws) do
          gxs[#xs + k] = make_input(w)
          ginputs[#xs + k] = w
          f:write("w ", idx[k], " ", fmt_tensor(w), "\n")
        end
        grads_run[e.name] = (grads_run[e.name] or 0) + 1
        local gfn = gradient_fn(e, a, #xs, idx)
        local geager = run_ways(gfn, gxs, ginputs, tag .. "_grad", dynamic, problems)
        if geager.err then
          problems[#problems + 1] = "gradient raised " .. geager.message
        else
          for k, i in ipairs(grad_inputs(e, #xs)) do
            local gs = geager.outs[k]
            if gs.dtype == "string" then
              f:write("grad ", i, " none\n")
            else
              f:write("grad ", i, " ", fmt_tensor(gs), "\n")
            end
          end
        end
      end
    end
  end
  f:write("end\n")
  return e, c, problems
end

-- ---- main ------------------------------------------------------------------------

local n_test = 0
local function tap(ok, text, detail)
  n_test = n_test + 1
  print(("%s %d - %s"):format(ok and "ok" or "not ok", n_test, text))
  if detail then print((detail:gsub("[^\n]+", "# %0"))) end
end

-- Registry ops this test does not generate cases for, and why. Each is
-- covered elsewhere, named here.
local EXCLUDED = {
  FusedElementwise = "made by the optimiser from elementwise chains, never called: every optimised "
    .. "case of tests/diff/elementwise.lua runs it, bitwise against the unoptimised graph",
  If = "control flow over nested graphs, not a function of tensors alone: tf.cond and its gradient "
    .. "in tests/lua/autograph_spec.lua, call_gradient_spec.lua, gradcheck_spec.lua",
  StatelessIf = "as If",
  While = "control flow over nested graphs: tf.while_loop and its gradient in "
    .. "tests/lua/autograph_spec.lua, call_gradient_spec.lua, gradcheck_spec.lua",
  StatelessWhile = "as While",
  TensorListSetItem = "TensorArray's list update, meaningful only inside a While body: "
    .. "tests/lua/autograph_spec.lua and gradcheck_spec.lua (TensorArray)",
  Const = "graph plumbing with no computation: every traced case here has Const nodes",
  Placeholder = "graph plumbing with no computation: every traced case here has Placeholder nodes",
  NoOp = "no inputs, no outputs (control dependencies): tests/tf/backprop_spec.lua",
  ReadVariableOp = "variable state, not a function of its inputs: tests/lua/variable_spec.lua",
  AssignVariableOp = "variable state: tests/lua/variable_spec.lua",
  AssignAddVariableOp = "variable state: tests/lua/variable_spec.lua",
  AssignSubVariableOp = "variable state: tests/lua/variable_spec.lua",
  Timestamp = "the wall clock, different every run: tests/lua/ops_spec.lua",
  PrintV2 = "an effect (printing): tests/lua/printing_spec.lua and func_spec.lua (tf.print)",
  Assert = "an effect (raising), AutoGraph's loop check: tests/lua/autograph_spec.lua",
  EagerLuaFunc = "calls Lua from a graph: tests/lua/func_spec.lua and autograph_spec.lua",
}
-- tf.data (ops_data.c): a dataset op returns a variant (a pointer to a
-- dataset, no numbers to compare); its elements are compared with TF's in
-- tests/lua/data_spec.lua.
for _, name in ipairs({ "TensorSliceDataset", "TensorDataset", "RangeDataset", "BatchDatasetV2",
  "PaddedBatchDatasetV2", "UnbatchDataset", "TakeDataset", "SkipDataset", "RepeatDataset",
  "ZipDataset", "ConcatenateDataset", "ShuffleDataset", "CacheDataset", "PrefetchDataset", "MapDataset", "FilterDataset",
  "ReduceDataset", "DatasetCardinality", "GeneratorDataset", "TextLineDataset", "CSVDatasetV2", "AnonymousIteratorV3", "MakeIterator", "IteratorGetNext",
  "IteratorGetNextAsOptional", "OptionalNone", "OptionalHasValue", "OptionalGetValue" }) do
  EXCLUDED[name] = "a tf.data op: datasets and iterators are variants, not numbers; "
    .. "tests/lua/data_spec.lua checks their elements against TF's"
end
-- tf.io.decode_csv (DecodeCSV, ops_data.c): string parsing; its values and
-- TF's error messages are checked in tests/lua/data_spec.lua.
EXCLUDED.DecodeCSV = "CSV parsing of strings: tests/lua/data_spec.lua (tf.io.decode_csv) checks values and TF's errors"
-- The datasets of datasets (core/ops/ops_nested.c): variants as well;
-- their elements are checked against TF's ported kernel tests.
for _, name in ipairs({ "FlatMapDataset", "InterleaveDataset", "WindowDataset", "DirectedInterleaveDataset",
  "RandomDataset" }) do
  EXCLUDED[name] = "a tf.data op: datasets are variants, not numbers; tests/tf/{flat_map,interleave,window,"
    .. "choose_from_datasets}_spec.lua and tests/lua/data_nested_spec.lua check their elements against TF's"
end

local function walk_registry()
  local covered = {}
  for _, e in ipairs(ENTRIES) do
    for _, o in ipairs(e.ops) do covered[o] = covered[o] or e.name end
  end
  local missing, stale = {}, {}
  local registry = {}
  for _, d in ipairs(core.op_list()) do
    registry[d.name] = true
    if not covered[d.name] and not EXCLUDED[d.name] then missing[#missing + 1] = d.name end
  end
  for name in pairs(EXCLUDED) do
    if not registry[name] then stale[#stale + 1] = name end
  end
  for name, by in pairs(covered) do
    if not registry[name] then stale[#stale + 1] = name .. " (entry " .. by .. ")" end
  end
  table.sort(stale)
  return missing, stale
end

local missing, stale = walk_registry()
tap(#missing == 0, ("every op in the registry has differential cases or an argued exclusion (%d entries)")
  :format(#ENTRIES), #missing > 0 and ("no case for: " .. table.concat(missing, ", ")
  .. " (add its cases to tests/diff/ops/<family>.lua and its references to <family>.py, "
  .. "or argue an exclusion in tests/diff/ops.lua's EXCLUDED)") or nil)
tap(#stale == 0, "every op the case tables and exclusions name is in the registry",
  #stale > 0 and ("not in the registry: " .. table.concat(stale, ", ")) or nil)

local exchange = opts.keep or os.tmpname()
local f = assert(io.open(exchange, "w"))
local failures = 0
local ran = {} -- entry name -> cases run
local last = opts.first + opts.count - 1
for index = opts.first, last do
  local ok, e, c, problems = pcall(run_case, index, f)
  if not ok then
    failures = failures + 1
    tap(false, ("case %d (seed %d): the driver failed"):format(index, opts.seed), tostring(e))
  else
    ran[e.name] = (ran[e.name] or 0) + 1
    if #problems > 0 then
      failures = failures + 1
      tap(false, ("case %d (seed %d, %s): the ways disagree"):format(index, opts.seed, e.name),
        table.concat(problems, "\n") .. "\n" .. describe(index, e, c))
    end
  end
  if index % 50 == 0 then collectgarbage() end
end
f:close()
tap(failures == 0, ("%d cases: eager, traced, traced unoptimised and traced with unknown dimensions "
  .. "agree bitwise, values and gradients"):format(opts.count))

-- Every op an entry claims must have appeared in a graph its cases traced
-- (judged for entries with 10 cases or more: one case may be an invalid
-- one, which traces nothing).
local unseen = {}
for _, e in ipairs(RUN) do
  if (ran[e.name] or 0) >= 10 then
    for _, o in ipairs(e.ops) do
      if not seen_ops[o] then unseen[#unseen + 1] = o .. " (" .. e.name .. ")" end
    end
  end
end
tap(#unseen == 0, "every op the entries that ran claim appeared in a traced graph",
  #unseen > 0 and ("never traced: " .. table.concat(unseen, ", ")) or nil)

local py = io.popen(("/usr/bin/python3 %s/ops_reference.py < %s"):format(here, exchange), "r")
local out = py:read("a")
local _, _, status = py:close()
if not opts.keep then os.remove(exchange) end
local bad = 0
for line in out:gmatch("[^\n]+") do
  local index, why = line:match("^fail (%d+) (.*)$")
  if index then
    bad = bad + 1
    index = tonumber(index)
    local e = RUN[index % #RUN + 1]
    gen.force_grad = index - opts.first < #RUN
    local c = e.gen(gen.rng(opts.seed, index), gen)
    gen.force_grad = false
    c.attrs_text = json(c.attrs or {})
    tap(false, ("case %d (seed %d, %s): moonflow differs from the references"):format(index, opts.seed, e.name),
      why:gsub("\\n", "\n") .. "\n" .. describe(index, e, c))
  end
end
local checked = out:match("checked (%d+) values, (%d+) gradients")
local summary = out:match("checked [^\n]*") or "nothing"
tap(status == 0 and checked ~= nil and bad == 0,
  ("references: %s agree with NumPy (TF's rules), finite differences and PyTorch"):format(summary),
  (status ~= 0 or not checked) and ("ops_reference.py failed:\n" .. out) or nil)
-- What ran, per family (cases, of which with gradients), for RESULTS.md.
local fam, famg, names = {}, {}, {}
for _, e in ipairs(RUN) do
  if not fam[e.family] then names[#names + 1] = e.family end
  fam[e.family] = (fam[e.family] or 0) + (ran[e.name] or 0)
  famg[e.family] = (famg[e.family] or 0) + (grads_run[e.name] or 0)
end
table.sort(names)
local parts = {}
for _, n in ipairs(names) do parts[#parts + 1] = ("%s %d (%d with gradients)"):format(n, fam[n], famg[n]) end
print("# cases by family: " .. table.concat(parts, ", "))
print("1.." .. n_test)
