-- autograph_programs.lua — a differential test of AutoGraph: seeded random
-- Lua functions of tensor arguments (if/elseif/else, while, repeat, numeric
-- and generic for, for-in tf.range and over a tensor, do blocks, break, goto continue,
-- nested functions, varargs, early returns; conditions on tensors and on
-- Lua values) run as plain Lua on eager tensors, traced by tf.func (a
-- first trace, a retrace for new shapes, a cached call with new values),
-- and under tf.config.run_functions_eagerly(true). All must give the same
-- values, or the trace must raise a typed error (not InternalError) whose
-- message names the line of the construct. A failing case prints its seed,
-- index and program.
--
-- Usage: moonflow tests/fuzz/autograph_programs.lua [count] [seed]
-- Prints TAP: one line per batch of programs, then a summary comment.

local tf = tf or require("moonflow")

local count = tonumber(arg and arg[1]) or 200
local seed = tonumber(arg and arg[2]) or 1
-- A third argument runs only that program (to reproduce a failure) and
-- prints its converted code.
local only = tonumber(arg and arg[3])

-- Program generation -----------------------------------------------------

local function generator(rng)
  local lines = {}
  local counters = {}      -- name -> its initial value (text)
  local unique = 0
  local helper = false     -- whether h(v, w) was defined

  local function pick(list) return list[rng(#list)] end
  local function chance(p) return rng(1000) <= p * 1000 end
  local function fresh(prefix)
    unique = unique + 1
    return prefix .. unique
  end
  local function emit(depth, text) lines[#lines + 1] = ("  "):rep(depth + 1) .. text end

  local TVARS = { "a", "b" }

  local function tvar() return pick(TVARS) end
  local function small() return tostring(rng(7) - 3) end

  -- An int32 scalar tensor expression (values stay small: no overflow).
  local function texpr()
    local forms = {
      function() return tvar() end,
      function() return ("%s + %s"):format(tvar(), tvar()) end,
      function() return ("%s - n"):format(tvar()) end,
      function() return ("%s + %s"):format(tvar(), small()) end,
      function() return ("(%s * 3) %% 101"):format(tvar()) end,
      function() return ("tf.maximum(%s, %s)"):format(tvar(), tvar()) end,
      function() return ("-%s"):format(tvar()) end,
      function() return ("%s + select(\"#\", ...)"):format(tvar()) end,
      function() return ("%s + (...)"):format(tvar()) end,
    }
    if helper then forms[#forms + 1] = function() return ("h(%s, %s)"):format(tvar(), tvar()) end end
    return pick(forms)()
  end

  -- A condition whose value is a traced tensor (when traced).
  local function tcond()
    local forms = {
      function() return ("%s > %s"):format(tvar(), tvar()) end,
      function() return ("%s < %s"):format(tvar(), small()) end,
      function() return ("%s >= n"):format(tvar()) end,
      function() return ("(%s %% 3) > 0"):format(tvar()) end,
      function() return ("not (%s <= %s)"):format(tvar(), small()) end,
      function() return ("%s > %s and %s < 4"):format(tvar(), small(), tvar()) end,
      function() return ("%s < 0 or n > 2"):format(tvar()) end,
    }
    return pick(forms)()
  end

  -- A condition on Lua values only.
  local function lcond()
    local forms = {
      function() return ("n > %d"):format(rng(4)) end,
      function() return "n % 2 == 0" end,
      function() return ("select(\"#\", ...) > %d"):format(rng(3)) end,
      function() return ("(...) < %d"):format(rng(5)) end,
    }
    return pick(forms)()
  end

  local function cond() if chance(0.6) then return tcond() end return lcond() end

  local block

  -- loop: nil outside loops, else {continue = bool} for the innermost one.
  local function statement(depth, loop, budget)
    local kinds = { "assign", "assign", "assign" }
    if depth < 5 then kinds[#kinds + 1] = "if"; kinds[#kinds + 1] = "if"; kinds[#kinds + 1] = "do" end
    if depth == 0 then kinds[#kinds + 1] = "lua_assign" end
    if budget > 1 then
      for _, k in ipairs({ "while", "repeat", "fornum", "forin", "range", "rows" }) do kinds[#kinds + 1] = k end
    end
    if loop then
      kinds[#kinds + 1] = "break"
      kinds[#kinds + 1] = "continue"
    end
    kinds[#kinds + 1] = "return"
    local kind = pick(kinds)
    if kind == "assign" then
      emit(depth, ("%s = %s"):format(tvar(), texpr()))
    elseif kind == "lua_assign" then
      emit(depth, ("n = (n * %d + %d) %% 7"):format(rng(3), rng(5)))
    elseif kind == "if" then
      emit(depth, ("if %s then"):format(cond()))
      block(depth + 1, loop, budget - 1, 2)
      local elseifs = rng(3) - 1
      for _ = 1, elseifs - 1 do
        emit(depth, ("elseif %s then"):format(cond()))
        block(depth + 1, loop, budget - 1, 2)
      end
      if chance(0.5) then
        emit(depth, "else")
        block(depth + 1, loop, budget - 1, 2)
      end
      emit(depth, "end")
    elseif kind == "do" then
      emit(depth, "do")
      block(depth + 1, loop, budget - 1, 2)
      emit(depth, "end")
    elseif kind == "break" then
      -- (TF refuses a tensor break or return in a Python loop, and so do
      -- Lua loops: keep those a minority of the programs)
      emit(depth, ("if %s then"):format((loop.lua and chance(0.8)) and lcond() or cond()))
      emit(depth + 1, ("%s = %s"):format(tvar(), texpr()))
      emit(depth + 1, "break")
      emit(depth, "end")
    elseif kind == "continue" then
      loop.continue = true
      emit(depth, ("if %s then goto continue end"):format(cond()))
    elseif kind == "return" then
      local c = (loop and loop.in_lua and chance(0.8)) and lcond() or cond()
      if chance(0.3) then
        emit(depth, ("if %s then return n, pair(%s, %s) end"):format(c, texpr(), texpr()))
      else
        emit(depth, ("if %s then return %s, %s, n end"):format(c, texpr(), texpr()))
      end
    else
      local lua_loop = kind == "fornum" or kind == "forin"
      local inner = { continue = false, lua = lua_loop, in_lua = lua_loop or (loop and loop.in_lua) }
      local c = fresh("c")
      local limit = rng(4)
      local function body()
        local start = #lines
        block(depth + 1, inner, budget - 1, 3)
        if inner.continue then emit(depth + 1, "::continue::") end
        return start
      end
      if kind == "while" then
        local tensor = chance(0.6)
        counters[c] = tensor and "tf.constant(0)" or "0"
        emit(depth, ("%s = %s"):format(c, counters[c]))
        local extra = chance(0.4) and (" and (" .. cond() .. ")") or ""
        emit(depth, ("while %s < %d%s do"):format(c, limit, extra))
        emit(depth + 1, ("%s = %s + 1"):format(c, c))
        body()
        emit(depth, "end")
      elseif kind == "repeat" then
        local tensor = chance(0.6)
        counters[c] = tensor and "tf.constant(0)" or "0"
        emit(depth, ("%s = %s"):format(c, counters[c]))
        emit(depth, "repeat")
        emit(depth + 1, ("%s = %s + 1"):format(c, c))
        body()
        local extra = chance(0.4) and (" or (" .. cond() .. ")") or ""
        emit(depth, ("until %s >= %d%s"):format(c, limit, extra))
      elseif kind == "fornum" then
        emit(depth, ("for %s = 1, %s do"):format(c, chance(0.3) and "n" or tostring(limit)))
        emit(depth + 1, ("%s = %s + %s"):format(tvar(), tvar(), c))
        body()
        emit(depth, "end")
      elseif kind == "forin" then
        emit(depth, ("for _, %s in ipairs({ %s }) do"):format(c, small() .. ", " .. small()))
        emit(depth + 1, ("%s = %s + %s"):format(tvar(), tvar(), c))
        body()
        emit(depth, "end")
      elseif kind == "range" then
        emit(depth, ("for %s in tf.range(%d) do"):format(c, limit))
        emit(depth + 1, ("%s = %s + %s"):format(tvar(), tvar(), c))
        body()
        emit(depth, "end")
      else
        emit(depth, ("for %s in %s do"):format(c, pick({ "x", "y" })))
        emit(depth + 1, ("%s = %s + %s"):format(tvar(), tvar(), c))
        body()
        emit(depth, "end")
      end
    end
  end

  function block(depth, loop, budget, max)
    for _ = 1, rng(max) do statement(depth, loop, budget) end
  end

  -- The program: a vararg function of two int32 vectors.
  local header = { "return function(x, y, ...)",
    "  local a = tf.reduce_sum(x)", "  local b = tf.reduce_max(y)", "  local n = select(\"#\", ...)",
    "  local function pair(v, w) return w, v + n end" }
  if chance(0.5) then
    helper = true
    header[#header + 1] = "  local function h(v, w)"
    if chance(0.5) then
      header[#header + 1] = "    if v > w then return v - w end"
    else
      header[#header + 1] = "    for i in tf.range(2) do if v > w then break end v = v + i end"
    end
    header[#header + 1] = "    return v + 1"
    header[#header + 1] = "  end"
  end
  block(0, nil, 3, 5)
  emit(0, "return a, b, n")
  local names = {}
  for c in pairs(counters) do names[#names + 1] = c end
  table.sort(names)
  -- Counters start with their type, so no branch or loop sees them nil.
  local inits = {}
  for i, c in ipairs(names) do inits[i] = counters[c] end
  if #names > 0 then
    header[#header + 1] = ("  local %s = %s"):format(table.concat(names, ", "), table.concat(inits, ", "))
  end
  for _, l in ipairs(lines) do header[#header + 1] = l end
  header[#header + 1] = "end"
  return table.concat(header, "\n")
end

-- Running ------------------------------------------------------------------

local function plain(v)
  if tf.is_tensor(v) then return v:numpy() end
  return v
end

local function describe_error(e)
  if type(e) == "table" and e.type then return e.type .. ": " .. tostring(e.message) end
  return tostring(e)
end

-- Runs fn(...) and returns ok, results-or-error (results as Lua data).
local function run(fn, ...)
  local r = table.pack(pcall(fn, ...))
  if not r[1] then return false, r[2] end
  local out = { n = r.n - 1 }
  for i = 2, r.n do out[i - 1] = plain(r[i]) end
  return true, out
end

local function same(a, b)
  if a.n ~= b.n then return false end
  for i = 1, a.n do
    if a[i] ~= b[i] and not (type(a[i]) == "number" and type(b[i]) == "number" and a[i] == b[i]) then
      return false
    end
  end
  return true
end

local function show(r)
  local parts = {}
  for i = 1, r.n do parts[i] = tostring(r[i]) end
  return "(" .. table.concat(parts, ", ") .. ")"
end

-- A trace may refuse a program, with a typed error naming a line.
local function acceptable_refusal(e)
  if type(e) ~= "table" or not e.type or e.type == "InternalError" then return false end
  return tostring(e.message):find("line %d+") ~= nil
end

local function vector(rng, len)
  local v = {}
  for i = 1, len do v[i] = rng(11) - 6 end
  return tf.constant(v, tf.int32)
end

local reasons = {}  -- why traces refused programs -> count

local function check(src, rng, index)
  local fn = assert(load(src, src, "t", _ENV))()
  local calls = {
    { vector(rng, 3), vector(rng, 2), 1, 2 },
    { vector(rng, 4), vector(rng, 3), 1, 2 },   -- new shapes: a retrace
    { vector(rng, 3), vector(rng, 2), 1, 2 },   -- the first trace, new values
    { vector(rng, 3), vector(rng, 2), 3 },      -- new Lua values: a retrace
  }
  -- Converting first, outside a trace: a program AutoGraph refuses to
  -- convert must say so with a typed error naming its line.
  local converted, why = pcall(require("moonflow.autograph").convert, fn)
  if not converted then
    if acceptable_refusal(why) then return nil, true end
    return "converting raised " .. describe_error(why)
  end
  -- (one name per program: TF's retracing warning counts calls per name)
  local f = tf.func(fn, { name = "program_" .. index })
  local refused = 0
  for k, args in ipairs(calls) do
    local ok_p, want = run(fn, table.unpack(args))
    local ok_t, got = run(f, table.unpack(args))
    if not tf.executing_eagerly() then return "the session was left in graph mode" end
    if not ok_p then
      if ok_t then return ("call %d: plain Lua raised %s but the trace returned %s"):format(k,
        describe_error(want), show(got)) end
    elseif not ok_t then
      if not acceptable_refusal(got) then
        return ("call %d: plain Lua returned %s but the trace raised %s"):format(k, show(want), describe_error(got))
      end
      refused = refused + 1
      local why = tostring(got.message):gsub("\n.*", ""):gsub("%d+", "N"):sub(1, 90)
      reasons[why] = (reasons[why] or 0) + 1
    elseif not same(want, got) then
      return ("call %d: plain Lua returned %s but the trace returned %s"):format(k, show(want), show(got))
    end
    if k == 1 and ok_p then
      tf.config.run_functions_eagerly(true)
      local ok_e, eager = run(tf.func(fn, { name = "eager_program_" .. index }), table.unpack(args))
      tf.config.run_functions_eagerly(false)
      if not ok_e then return "run_functions_eagerly raised " .. describe_error(eager) end
      if not same(want, eager) then
        return ("run_functions_eagerly returned %s, plain Lua %s"):format(show(eager), show(want))
      end
    end
  end
  return nil, refused > 0
end

-- math.random is reseeded per program, so each program is reproducible
-- from (seed, index) alone.
local function rng_for(s, index)
  math.randomseed(s, index)
  return function(n) return math.random(n) end
end

local passed, failed, refused = 0, 0, 0
local test = 0
local batch = 20
local batch_failures = {}
io.stderr:setvbuf("no")
for index = only or 1, only or count do
  local src = generator(rng_for(seed, index))
  if only then
    print(src)
    print(tf.autograph.to_code(assert(load(src, src, "t", _ENV))()))
  end
  if os.getenv("FUZZ_VERBOSE") then io.stderr:write(("program %d\n"):format(index)) end
  local ok, problem, was_refused = pcall(check, src, rng_for(seed, -index), index)
  if not ok then problem = "the harness raised " .. describe_error(problem) end
  if not tf.executing_eagerly() then
    print(("Bail out! seed %d index %d left the session in graph mode:\n%s"):format(seed, index, src))
    os.exit(1)
  end
  if problem then
    failed = failed + 1
    batch_failures[#batch_failures + 1] = ("seed %d index %d: %s\n%s"):format(seed, index, problem, src)
  else
    passed = passed + 1
    if was_refused then refused = refused + 1 end
  end
  if index % batch == 0 or index == count or only then
    test = test + 1
    local first = index - (index - 1) % batch
    if #batch_failures == 0 then
      print(("ok %d - programs %d..%d (seed %d) agree"):format(test, first, index, seed))
    else
      print(("not ok %d - programs %d..%d (seed %d): %d differ"):format(test, first, index, seed, #batch_failures))
      for _, text in ipairs(batch_failures) do
        print("# " .. text:gsub("\n", "\n# "))
      end
    end
    batch_failures = {}
  end
end
print(("1..%d"):format(test))
print(("# %d programs: %d agree (%d of them refused by the trace with a typed error), %d differ"):format(
  passed + failed, passed, refused, failed))
local why = {}
for k, v in pairs(reasons) do why[#why + 1] = { k, v } end
table.sort(why, function(p, q) return p[2] > q[2] end)
for i = 1, math.min(#why, 8) do print(("#   refused %d call(s): %s"):format(why[i][2], why[i][1])) end
os.exit(failed == 0 and 0 or 1)
