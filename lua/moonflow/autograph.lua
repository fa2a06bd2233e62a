-- autograph.lua — tf.autograph: converts the Lua source of traced
-- functions (converter.lua) so that `if`, `while`, `repeat` and `for` on
-- tensors become graph control flow, and binds the converted function to
-- the original's upvalues and environment (assignments to upvalues are
-- seen by the rest of the program). Errors point at the user's lines: the
-- converted code keeps every original statement on its original line.

local core = require("moonflow.core")

return function(tf, doc)
  local parser = require("moonflow.autograph.parser")
  local printer = require("moonflow.autograph.printer")
  local converter = require("moonflow.autograph.converter")

  local autograph = {}
  tf.autograph = autograph

  local converted = setmetatable({}, { __mode = "k" }) -- fn -> converted fn
  local skip = setmetatable({}, { __mode = "k" })      -- do_not_convert
  local plans = {}                                     -- source key -> {code=, upvalues=} | {failed=}
  local warned = {}

  local library_dir = debug.getinfo(1, "S").source:match("^@(.*/)moonflow/[^/]*$")

  local function in_library(source)
    return library_dir ~= nil and source:sub(1, 1) == "@" and source:sub(2, #library_dir + 1) == library_dir
  end

  local function source_text(source)
    local host = tf._host
    if host and host.sources and host.sources[source] then return host.sources[source] end
    local c = source:sub(1, 1)
    if c == "@" then
      local f = io.open(source:sub(2), "r")
      if not f then return nil end
      local text = f:read("a")
      f:close()
      return text
    end
    if c == "=" then return nil end
    return source
  end

  local function upvalue_names(fn)
    local names = {}
    for i = 1, math.huge do
      local name = debug.getupvalue(fn, i)
      if name == nil then break end
      names[#names + 1] = name
    end
    return names
  end

  -- Parses and converts the function's source once per definition site.
  local function plan_for(fn, info)
    local key = ("%s:%d:%d:%d:%s"):format(info.source, info.linedefined, info.lastlinedefined,
      info.nparams, tostring(info.isvararg))
    local plan = plans[key]
    if plan then return plan end
    local text = source_text(info.source)
    if not text then
      plan = { failed = "its source is not available" }
    else
      local ast, err = parser.parse(text, info.source)
      if not ast then
        plan = { failed = "its source does not parse: " .. tostring(err) }
      else
        local fnode = converter.find_function(ast, info.linedefined, info.lastlinedefined, info.nparams,
          info.isvararg)
        if not fnode then
          plan = { failed = "its definition was not found in the source" }
        else
          local ups = {}
          for _, n in ipairs(upvalue_names(fn)) do
            if n ~= "_ENV" and n ~= "ag__" then ups[#ups + 1] = n end
          end
          local conv = converter.convert_function(fnode)
          plan = { code = printer.print(converter.chunk(conv, ups), { preserve_lines = true }),
            node = conv, upvalues = ups }
        end
      end
    end
    plans[key] = plan
    return plan
  end

  local ag

  local function env_of(fn)
    for i = 1, math.huge do
      local name, value = debug.getupvalue(fn, i)
      if name == nil then return _G end
      if name == "_ENV" then return value end
    end
  end

  local function convert_uncached(fn)
    local info = debug.getinfo(fn, "Su")
    if info.what ~= "Lua" or in_library(info.source) then return fn end
    -- Functions made by converted code (they see `ag__`) are converted
    -- already: their definitions were part of the converted source.
    for _, name in ipairs(upvalue_names(fn)) do
      if name == "ag__" then return fn end
    end
    local plan = plan_for(fn, info)
    if plan.failed then
      if not warned[plan] then
        warned[plan] = true
        io.stderr:write(("WARNING: AutoGraph could not transform the function at %s:%d (%s); it runs "
          .. "as is.\n"):format(info.short_src, info.linedefined, plan.failed))
      end
      return fn
    end
    local loader, err = load(plan.code, info.source, "t", env_of(fn))
    if not loader then
      error(core.error("InternalError", "AutoGraph produced code that does not compile: " .. err), 0)
    end
    local nf = loader(ag)
    -- Share the original's upvalues, so both see the same variables.
    local index = {}
    for i, name in ipairs(upvalue_names(fn)) do index[name] = i end
    for i, name in ipairs(upvalue_names(nf)) do
      local j = index[name]
      if j and name ~= "ag__" then debug.upvaluejoin(nf, i, fn, j) end
    end
    converted[nf] = nf
    return nf
  end

  local function convert(fn)
    local c = converted[fn]
    if c then return c end
    if skip[fn] then return fn end
    c = convert_uncached(fn)
    converted[fn] = c
    return c
  end

  ag = require("moonflow.autograph.runtime")(tf, convert)
  autograph._convert = convert
  autograph._runtime = ag

  autograph.to_code = doc.def(function(f)
    if tf._is_func(f) then f = f.lua_function end
    if type(f) ~= "function" then
      error(core.error("TypeError", "tf.autograph.to_code expects a function or a tf.func"), 2)
    end
    local info = debug.getinfo(f, "Su")
    if info.what ~= "Lua" then
      error(core.error("ValueError", "tf.autograph.to_code: a C function has no Lua source"), 2)
    end
    local plan = plan_for(f, info)
    if plan.failed then
      error(core.error("ValueError", "tf.autograph.to_code: cannot convert this function: " .. plan.failed), 2)
    end
    local line = tf._source_line(info.source, info.linedefined) or ""
    local base = line:match("function%s+[%w_%.:]-([%a_][%w_]*)%s*%(")
      or line:match("([%a_][%w_]*)%s*=%s*tf%s*[%.%[]") or line:match("([%a_][%w_]*)%s*=%s*function")
      or "fn"
    local name = "tf__" .. base
    local stat = { tag = "FunctionStat", target = { tag = "Id", name = name }, func = plan.node }
    return printer.print({ tag = "Block", stat }, { preserve_lines = false })
  end, "tf.autograph.to_code(f)",
  "The Lua source AutoGraph makes of f (a function or tf.func): control flow on tensors becomes "
  .. "ag__.if_stmt / ag__.while_stmt / ag__.for_stmt calls, comparisons ag__.lt and friends.")

  autograph.do_not_convert = doc.def(function(fn)
    skip[fn] = true
    return fn
  end, "tf.autograph.do_not_convert(fn)",
  "Marks fn so AutoGraph never converts it (when traced, or when called from converted code); returns fn.")
end
