-- session_spec.lua — the session's Lua side, run inside the moonflow binary
-- (so `tf` is preloaded and a terminal session is live): display bundles,
-- the table renderer, evaluation, completeness, completion, inspection and
-- the magics dispatcher. Busted gives spec files their own environment, so
-- globals the session must see are set through _G.

local display = require("moonflow.session.display")
local session = require("moonflow.session")
local host = require("moonflow.host")

--- Runs fn with host.display and print captured; returns the bundles shown
-- and the printed text.
local function capture(fn)
  local shown, printed = {}, {}
  local saved_display, saved_print = host.display, _G.print
  host.display = function(bundle, kind, id)
    shown[#shown + 1] = { bundle = bundle, kind = kind, id = id }
  end
  _G.print = function(...)
    local parts = table.pack(...)
    for i = 1, parts.n do parts[i] = tostring(parts[i]) end
    printed[#printed + 1] = table.concat(parts, "\t", 1, parts.n)
  end
  local ok, err = pcall(fn)
  host.display, _G.print = saved_display, saved_print
  if not ok then error(err, 0) end
  return shown, table.concat(printed, "\n")
end

local function eval(code, echo)
  local status, message
  local shown, printed = capture(function()
    status, message = session.eval(code, "=(spec)", echo ~= false)
  end)
  return shown, printed, status, message
end

local function error_of(fn)
  local ok, err = pcall(fn)
  assert.is_false(ok)
  return err
end

describe("display.text", function()
  it("renders plain tables as Lua source", function()
    assert.are.equal("{1, 2, x = 3}", display.text({ 1, 2, x = 3 }))
    assert.are.equal("{}", display.text({}))
    assert.are.equal('{"a", [10] = 1.5, b = "c\\n", ["not ok"] = true}',
      display.text({ "a", b = "c\n", ["not ok"] = true, [10] = 1.5 }))
    assert.are.equal('{["end"] = 1}', display.text({ ["end"] = 1 }))
  end)

  it("nests, and survives cycles", function()
    local t = { 1, { 2, { 3 } } }
    t.self = t
    assert.are.equal("{1, {2, {3}}, self = <cycle>}", display.text(t))
  end)

  it("limits depth and length", function()
    local deep = {}
    local cur = deep
    for _ = 1, 10 do
      cur[1] = {}
      cur = cur[1]
    end
    cur[1] = 1
    assert.truthy(display.text(deep):find("{...}", 1, true))
    local long = {}
    for i = 1, 500 do long[i] = i end
    local text = display.text(long)
    assert.truthy(text:find("... (400 more)", 1, true))
  end)

  it("breaks long tables over lines", function()
    local t = {}
    for i = 1, 30 do t[i] = "item" .. i end
    local text = display.text(t)
    assert.truthy(text:find('^{\n  "item1",\n  "item2",'))
    assert.truthy(text:find('\n}$'))
  end)

  it("uses __repr, then __tostring, and tostring for other values", function()
    local repr = setmetatable({}, { __repr = function() return "<repr>" end,
      __tostring = function() return "str" end })
    local str = setmetatable({}, { __tostring = function() return "str" end })
    assert.are.equal("<repr>", display.text(repr))
    assert.are.equal("str", display.text(str))
    assert.are.equal("{<repr>, str}", display.text({ repr, str }))
    assert.are.equal("hello", display.text("hello"))
    assert.are.equal("1.5", display.text(1.5))
    assert.are.equal("nil", display.text(nil))
  end)
end)

describe("display.bundle", function()
  it("is text/plain for plain values", function()
    assert.are.same({ ["text/plain"] = "{1, 2}" }, display.bundle({ 1, 2 }))
  end)

  it("uses __mimebundle and fills in text/plain", function()
    local v = setmetatable({}, {
      __mimebundle = function() return { ["text/html"] = "<b>x</b>" } end,
      __repr = function() return "X" end,
    })
    assert.are.same({ ["text/html"] = "<b>x</b>", ["text/plain"] = "X" }, display.bundle(v))
  end)

  it("shows a float tensor's cells in its HTML table as TF's repr prints them", function()
    local cells = {}
    local html = display.bundle(tf.constant({ 8.0, 0.1, -0.0, 1e-8, 1 / 0, 123456789.0 }))["text/html"]
    for cell in html:gmatch("<td[^>]*>([^<]*)</td>") do cells[#cells + 1] = cell end
    assert.are.same({ "8.0", "0.1", "-0.0", "1e-08", "inf", "123456790.0" }, cells)
    cells = {}
    html = display.bundle(tf.constant({ { 1, 2 } }, tf.int32))["text/html"]
    for cell in html:gmatch("<td[^>]*>([^<]*)</td>") do cells[#cells + 1] = cell end
    assert.are.same({ "1", "2" }, cells)
    cells = {}
    html = display.bundle(tf.constant(0.1, tf.float64))["text/html"]
    for cell in html:gmatch("<td[^>]*>([^<]*)</td>") do cells[#cells + 1] = cell end
    assert.are.same({ "0.1" }, cells)
  end)

  it("joins several results like lua.c", function()
    local b = display.bundle_all(table.pack(1, "a", { 2 }))
    assert.are.equal("1\ta\t{2}", b["text/plain"])
  end)
end)

describe("tf.display", function()
  it("sends display_data to the host", function()
    local shown = capture(function() tf.display({ 1 }) end)
    assert.are.equal(1, #shown)
    assert.are.equal("data", shown[1].kind)
    assert.are.equal("{1}", shown[1].bundle["text/plain"])
  end)

  it("returns an updatable handle for a display_id", function()
    local handle
    local shown = capture(function()
      handle = tf.display("10%", { display_id = true })
      handle:update("20%")
    end)
    assert.are.equal(2, #shown)
    assert.are.equal("update", shown[2].kind)
    assert.are.equal(handle.display_id, shown[2].id)
    assert.are.equal("20%", shown[2].bundle["text/plain"])
  end)
end)

describe("session.eval", function()
  it("echoes an expression, and all its values", function()
    local shown = eval("1 + 1")
    assert.are.equal("2", shown[1].bundle["text/plain"])
    assert.are.equal("result", shown[1].kind)
    shown = eval("1, 2")
    assert.are.equal("1\t2", shown[1].bundle["text/plain"])
  end)

  it("echoes a trailing expression after statements", function()
    local shown = eval("spec_x = 20\nspec_x + 1")
    assert.are.equal("21", shown[1].bundle["text/plain"])
    shown = eval("spec_y = {\n  1,\n}\nspec_y")
    assert.are.equal("{1}", shown[1].bundle["text/plain"])
  end)

  it("shows nothing for statements or without echo", function()
    assert.are.equal(0, #eval("spec_z = 1"))
    assert.are.equal(0, #eval("1 + 1", false))
  end)

  it("reports incomplete chunks without running them", function()
    local _, _, status = eval("spec_w = 1\nfunction spec_f()")
    assert.are.equal("incomplete", status)
    assert.is_nil(rawget(_G, "spec_w"))
  end)

  it("raises SyntaxError for bad code", function()
    local err = error_of(function() eval("1 +* 2") end)
    assert.are.equal("SyntaxError", err.type)
  end)

  -- Python written at a Lua prompt: the error names the Lua way and the
  -- lesson that lists the differences, instead of Lua's bare parse error.
  it("answers Python habits with the Lua way and lesson 13", function()
    local cases = {
      { "import tensorflow as tf", "SyntaxError", "tf is already loaded" },
      { "from tensorflow import keras", "SyntaxError", "tf is already loaded" },
      { "@tf.function\nfunction f(x) return x end", "SyntaxError", "tf.func(function(x)" },
      { "x = tf.constant([1, 2, 3])", "SyntaxError", "{1, 2, 3}" },
      { "def f(x):\n  return x", "SyntaxError", "function f(x)" },
      { "for i in range(3):", "SyntaxError", "for i = 0, 2 do" },
      { "if x > 1:", "SyntaxError", "if c then" },
      { "class Net(tf.Module):", "SyntaxError", "tf.Module:extend" },
      { "y = 2 ** 3", "SyntaxError", "2 ^ 3" },
      { "ok = 1 != 2", "SyntaxError", "~=" },
      { "# a comment", "SyntaxError", "--" },
      { "sq = lambda v: v * v", "SyntaxError", "function(v) return v * v end" },
      { 'print(f"hi {spec_nothing}")', "SyntaxError", ":format" },
    }
    for _, c in ipairs(cases) do
      local err = error_of(function() eval(c[1]) end)
      assert.are.equal(c[2], err.type, c[1])
      assert.truthy(err.message:find(c[3], 1, true), c[1] .. " -> " .. err.message)
      assert.truthy(err.message:find("%tutorial 13-from-python", 1, true), c[1] .. " -> " .. err.message)
    end
    -- a Python name read where strict globals are on (cells at a prompt)
    local none = require("moonflow.strict").name_error({}, "None")
    assert.truthy(none:find("Lua's None is nil", 1, true), none)
    assert.truthy(none:find("%tutorial 13-from-python", 1, true), none)
    -- Lua that merely looks like it is left alone
    local _, _, status = eval("spec_t = {}\nspec_t[1] = 2")
    assert.is_nil(status)
    local _, _, status2 = eval("spec_s = ('%d items'):format(3)")
    assert.is_nil(status2)
    assert.are.equal("incomplete", select(3, eval("for i = 1, 2 do")))
    -- an f that is a function: f"..." is a Lua call
    eval("function spec_fq(s) return s .. '!' end")
    local shown = eval('spec_fq"hi"')
    assert.are.equal('hi!', shown[1].bundle["text/plain"])
  end)

  it("keeps every chunk's source under a unique name", function()
    eval("function spec_src(a)\n  return a\nend")
    local info = debug.getinfo(spec_src, "S")
    assert.truthy(info.source:find("^=%(spec%)"))
    assert.are.equal("function spec_src(a)\n  return a\nend", host.sources[info.source])
    eval("function spec_src2() end")
    assert.are_not.equal(info.source, debug.getinfo(spec_src2, "S").source)
  end)

  it("runs magic lines between code, keeping line numbers", function()
    local _, printed = eval("spec_m = 1\n%who\nspec_line = debug.getinfo(1, 'l').currentline")
    assert.truthy(printed:find("spec_m"))
    assert.are.equal(3, spec_line)
  end)

  it("rejects unknown magics with UsageError", function()
    local err = error_of(function() eval("%nosuchmagic") end)
    assert.are.equal("UsageError", err.type)
    assert.truthy(err.message:find("unknown magic %nosuchmagic", 1, true))
  end)

  it("times a whole cell with %%time", function()
    local shown, printed = eval("%%time\nspec_t = 0\nfor i = 1, 10 do spec_t = spec_t + i end\nspec_t")
    assert.truthy(printed:find("^Wall time: [%d.]+ %S*s$"))
    assert.are.equal("55", shown[1].bundle["text/plain"])
  end)

  it("%time shows the value of its expression", function()
    local shown, printed = eval("%time 6 * 7")
    assert.truthy(printed:find("Wall time:", 1, true))
    assert.are.equal("42", shown[1].bundle["text/plain"])
  end)

  it("%timeit prints median and spread", function()
    local _, printed = eval("%timeit -n 10 -r 3 spec_noop = 1")
    assert.truthy(printed:find("per loop %(median ± MAD of 3 runs, 10 loops each%)"))
  end)
end)

describe("session.cell_kind", function()
  it("knows help, exit, cell magics and code", function()
    assert.are.same({ "help", "tf.add", 0 }, { session.cell_kind("?tf.add") })
    assert.are.same({ "help", "tf.add", 0 }, { session.cell_kind("  tf.add?\n") })
    assert.are.same({ "help", "x:numpy", 1 }, { session.cell_kind("x:numpy??") })
    assert.are.same({ "help", "f", 1 }, { session.cell_kind("??f") })
    for _, exit in ipairs({ "exit", "quit", "exit()", "quit()", "  exit \n", "\tquit()\n\n" }) do
      assert.are.equal("exit", (session.cell_kind(exit)))
    end
    assert.are.same({ "magic", "time", "", "x = 1" }, { session.cell_kind("%%time\nx = 1") })
    for _, code in ipairs({ "x = 1", "exit = 1", "print(exit)", "exit(0)", "exit\nexit", "(exit)",
      "exits", "exit ()", "return exit", "for i = 1, 2 do\nexit\nend", "%who", "?", "??",
      "? tf.add", "?tf.add?", "???f", "f???", "?1x", "tf.add ?", "-- exit", "exit -- bye" }) do
      assert.are.equal("code", (session.cell_kind(code)), code)
    end
  end)
end)

describe("session.cell", function()
  local function cell(code)
    local out = {}
    local saved = host.write
    host.write = function(stream, text) out[#out + 1] = stream .. ":" .. text end
    local r = table.pack(pcall(session.cell, code, "=(spec)", true))
    host.write = saved
    if not r[1] then error(r[2], 0) end
    return table.concat(out), table.unpack(r, 2, r.n)
  end

  it("answers ?name with tf.help's text, and ?? adds a function's source", function()
    local out, kind, text = cell("?tf.add")
    assert.are.equal("", out)
    assert.are.equal("help", kind)
    assert.are.equal(session.describe(tf.add, "tf.add"), text)
    eval("function spec_helped(a)\n  return a\nend")
    _, kind, text = cell("spec_helped??")
    assert.are.equal("help", kind)
    assert.truthy(text:find("Source:\nfunction spec_helped(a)", 1, true))
  end)

  it("says so on stdout when the name is unknown", function()
    local out, kind, text = cell("no_such_name?")
    assert.are.equal("stdout:Object `no_such_name` not found.\n", out)
    assert.are.equal("help", kind)
    assert.is_nil(text)
  end)

  it("answers exit and quit without running anything", function()
    assert.are.equal("exit", select(2, cell("exit")))
    assert.are.equal("exit", select(2, cell(" quit() ")))
  end)

  it("runs anything else as session.eval does", function()
    local shown = capture(function() cell("spec_exit = 1\nspec_exit + 1") end)
    assert.are.equal("2", shown[1].bundle["text/plain"])
    assert.are.equal(1, rawget(_G, "spec_exit"))
    assert.are.equal("incomplete", select(2, cell("for i = 1, 2 do\nexit")))
    local err = error_of(function() cell("for i = 1, 2 do\nexit\nend") end)
    assert.are.equal("SyntaxError", err.type)
  end)
end)

describe("session.tensor_number_comparison", function()
  it("finds `tensor == number` in code, never in strings or comments", function()
    local env = { x = tf.constant(1), n = 1 }
    assert.are.same({ "x", "==", "1" }, { session.tensor_number_comparison("y = x == 1", env) })
    assert.are.same({ "x", "~=", "2" }, { session.tensor_number_comparison("2 ~= x", env) })
    assert.is_nil(session.tensor_number_comparison("n == 1", env))
    assert.is_nil(session.tensor_number_comparison("print('x == 1', \"x == 1\")", env))
    assert.is_nil(session.tensor_number_comparison("--[[\nx == 1\n]] y = 1 -- x == 1", env))
    assert.is_nil(session.tensor_number_comparison("s = [==[\nx == 1]==]", env))
  end)
end)

describe("session.is_complete", function()
  it("follows lua.c's rule, with an indent", function()
    assert.are.same({ "complete", "" }, { session.is_complete("x = 1") })
    assert.are.same({ "complete", "" }, { session.is_complete("1 + 1") })
    assert.are.same({ "incomplete", "  " }, { session.is_complete("function f()") })
    assert.are.same({ "incomplete", "    " },
      { session.is_complete("for i = 1, 3 do\n  if i then") })
    assert.are.same({ "incomplete", "  " }, { session.is_complete("t = {") })
    assert.are.equal("invalid", (session.is_complete("x = = 1")))
    assert.are.equal("complete", (session.is_complete("%who")))
    assert.are.equal("incomplete", (session.is_complete("%%time\nwhile true do")))
  end)

  it("takes help and exit cells as complete", function()
    assert.are.same({ "complete", "" }, { session.is_complete("tf.add?") })
    assert.are.same({ "complete", "" }, { session.is_complete("exit") })
  end)

  it("ignores keywords in strings and comments", function()
    assert.are.same({ "incomplete", "  " },
      { session.is_complete("function f() -- end\n  local s = 'end'") })
  end)
end)

describe("session.complete", function()
  it("completes globals and keywords", function()
    local m, from, to = session.complete("pri", 3)
    assert.are.same({ "print" }, m)
    assert.are.equal(0, from)
    assert.are.equal(3, to)
    assert.truthy(table.concat(session.complete("whi", 3), " "):find("while"))
  end)

  it("completes fields after a dot", function()
    local m, from = session.complete("x = string.up", 13)
    assert.are.same({ "upper" }, m)
    assert.are.equal(11, from)
    local tf_fields = session.complete("tf.", 3)
    assert.truthy(#tf_fields > 0)
  end)

  it("completes methods through __index tables and functions", function()
    local methods = { frob = function() end, size = 3 }
    _G.spec_obj = setmetatable({}, { __index = methods })
    assert.are.same({ "frob" }, session.complete("spec_obj:", 9))
    _G.spec_fobj = setmetatable({}, { __index = function(_, k) return methods[k] end })
    assert.are.same({ "frob", "size" }, session.complete("spec_fobj.", 10))
    _G.spec_str = "x"
    assert.are.same({ "upper" }, session.complete("spec_str:up", 11))
  end)

  it("offers exactly the public members of moonflow objects", function()
    _G.spec_x = tf.constant({ 1, 2 })
    _G.spec_v = tf.Variable(1.0)
    _G.spec_sh = _G.spec_x.shape
    _G.spec_f = tf.func(function(a) return a * 2 end)
    _G.spec_cf = _G.spec_f:get_concrete_function(_G.spec_x)
    _G.spec_g = _G.spec_cf.graph
    _G.spec_m = tf.Module()
    _G.spec_tp = tf.GradientTape()
    -- Names each object must offer after ':' (methods) and after '.'.
    local expected = {
      spec_x = { ":", { "numpy", "get_shape" }, ".", { "shape", "dtype", "numpy" } },
      spec_v = { ":", { "assign", "assign_add", "read_value", "numpy" }, ".", { "name", "shape", "assign" } },
      spec_sh = { ":", { "as_list", "num_elements" }, ".", { "rank", "dims", "as_list" } },
      spec_f = { ":", { "get_concrete_function", "experimental_get_tracing_count" }, ".", { "name" } },
      spec_cf = { ":", { "pretty_printed_signature" }, ".", { "graph", "inputs", "outputs" } },
      spec_g = { ":", { "get_operations", "as_graph_def" }, ".", { "inputs", "outputs", "name" } },
      spec_m = { ":", { "submodules", "trainable_variables" }, ".", { "name" } },
      spec_tp = { ":", { "gradient", "watch", "stop" }, "." , { "gradient" } },
    }
    for name, e in pairs(expected) do
      local obj = _G[name]
      for i = 1, #e, 2 do
        local sep, must = e[i], e[i + 1]
        local offered = session.complete(name .. sep, #name + 1)
        local set = {}
        for _, k in ipairs(offered) do
          set[k] = true
          assert.is_nil(k:match("^_"), name .. sep .. k .. " is private")
          local value = obj[k]
          assert.is_not_nil(value, name .. sep .. k .. " is offered but indexes to nil")
          if sep == ":" then assert.are.equal("function", type(value), name .. ":" .. k) end
        end
        for _, k in ipairs(must) do assert.is_true(set[k], name .. sep .. k .. " is not offered") end
        for _, k in ipairs({ "trace_begin", "graph_add_placeholder", "print", "ipairs", "_G", "None" }) do
          assert.is_nil(set[k], name .. sep .. k .. " is offered")
        end
      end
    end
    local fields = session.complete("spec_f.", 7)
    for _, k in ipairs(fields) do assert.is_nil(k:match("^_")) end
    -- A tape records from its creation: left on, it would send every
    -- later spec's tf.func calls down the taped path.
    _G.spec_tp:stop()
  end)

  it("completes magics at the start of a line", function()
    local m, from = session.complete("%ti", 3)
    assert.are.same({ "time", "timeit" }, m)
    assert.are.equal(1, from)
  end)
end)

describe("session.inspect", function()
  it("gives tf.help's docstring", function()
    local doc = require("moonflow.doc")
    local documented = doc.def(function() end, "spec_doc(x)", "A documented function.")
    _G.spec_documented = documented
    assert.truthy(session.inspect("spec_documented", 5, 0):find("A documented function.", 1, true))
    assert.truthy(session.inspect("spec_documented(1, ", 19, 0):find("spec_doc(x)", 1, true))
  end)

  it("falls back to the type and text", function()
    _G.spec_plain = { 1, 2 }
    assert.are.equal("spec_plain: table\n{1, 2}", session.inspect("spec_plain", 10, 0))
    assert.is_nil(session.inspect("no_such_name_here", 5, 0))
  end)
end)

describe("%who and %reset", function()
  it("list and remove user globals", function()
    eval("spec_who_var = 42")
    local _, printed = eval("%who")
    assert.truthy(printed:find("spec_who_var%s+number%s+42"))
    local saved = {}
    for _, name in ipairs(session.user_globals()) do saved[name] = _G[name] end
    local original_print = _G.print
    _G.print = function() end -- a global present at start: reset restores it
    assert.are.equal(#session.user_globals(), session.reset())
    assert.are.equal(original_print, _G.print)
    assert.is_nil(rawget(_G, "spec_who_var"))
    assert.is_not_nil(rawget(_G, "tf"))
    for name, v in pairs(saved) do _G[name] = v end
  end)
end)

describe("magic lines", function()
  it("accept a trailing -- comment", function()
    local saved = tf.config.functions_run_eagerly()
    local _, printed = eval("%eager on  -- every tf.func runs its Lua code")
    assert.truthy(printed:find("Eager mode is on", 1, true))
    assert.is_true(tf.config.functions_run_eagerly())
    _, printed = eval("%eager off -- back to graphs")
    assert.truthy(printed:find("Eager mode is off", 1, true))
    tf.config.run_functions_eagerly(saved)
    -- A "--" inside a string is not a comment.
    _, printed = eval('%time spec_dashes = "a -- b"')
    assert.are.equal("a -- b", _G.spec_dashes)
  end)

  it("%who PATTERN lists only the matching globals", function()
    eval("spec_wa = 1\nspec_wb = tf.constant(2)\nother_spec_w = 3")
    local _, printed = eval("%who spec_w*")
    assert.truthy(printed:find("spec_wa", 1, true))
    assert.truthy(printed:find("spec_wb", 1, true))
    assert.falsy(printed:find("other_spec_w", 1, true))
    _, printed = eval("%who Tensor")
    assert.truthy(printed:find("spec_wb", 1, true))
    assert.falsy(printed:find("spec_wa", 1, true))
    _, printed = eval("%who no_such_global_*")
    assert.are.equal("No user globals match no_such_global_*.", printed)
  end)

  it("%help lists the magics in aligned columns", function()
    local _, printed = eval("%help")
    local columns = {}
    for line in printed:gmatch("[^\n]+") do
      local usage, gap = line:match("^  (%%%S.-)(%s%s+)%S")
      if usage then columns[#columns + 1] = #usage + #gap end
    end
    assert.truthy(#columns >= 8)
    for _, c in ipairs(columns) do assert.are.equal(columns[1], c) end
  end)
end)

describe("tf.config.mark_trace_output", function()
  it("switches the [trace f#n] mark of output printed while tracing", function()
    local state = require("moonflow.state")
    local marks = {}
    local marked = tf.func(function(x)
      marks[#marks + 1] = state.trace_mark() or "none"
      return x
    end)
    marked(tf.constant(1))
    tf.config.mark_trace_output(false)
    local ok, err = pcall(marked, tf.constant({ 1, 2 }))
    tf.config.mark_trace_output(true)
    assert(ok, err)
    assert.truthy(marks[1]:match("^%[trace [%w_]+#1%]$"))
    assert.are.equal("none", marks[2])
  end)
end)

describe("session.format_duration", function()
  it("gives three significant digits in s, ms, µs or ns, never an exponent", function()
    assert.equal("1.23 ms", session.format_duration(1.234e-3))
    assert.equal("412 ns", session.format_duration(4.12e-7))
    assert.equal("2.5 s", session.format_duration(2.5))
    -- a spread (%timeit's MAD) far below the clock's resolution
    assert.equal("0.000 ns", session.format_duration(3.64e-14))
    assert.equal("0.500 ns", session.format_duration(5e-10))
    assert.equal("0.000 ns", session.format_duration(0))
  end)
end)

-- Two tf.funcs defined on one line typed at the prompt (the REPL's
-- session.eval) or in a cell (the kernel's session.cell): AutoGraph
-- converts each as itself, not both as the first.
describe("two functions on one line of a session chunk", function()
  it("are each their own function at the prompt", function()
    eval("spec_f1, spec_g1 = tf.func(function(x) return x + 1 end), tf.func(function(x) return x * 2 end)")
    local f, g = rawget(_G, "spec_f1"), rawget(_G, "spec_g1")
    assert.are.equal(4.0, f(tf.constant(3.0)):numpy())
    assert.are.equal(6.0, g(tf.constant(3.0)):numpy())
  end)

  it("are each their own function in a cell", function()
    capture(function()
      session.cell("spec_f2, spec_g2 = tf.func(function(x) if x > 0 then return x + 1 end return x end), "
        .. "tf.func(function(x) if x > 0 then return x * 2 end return x end)\n", "=(spec cell)", true)
    end)
    local f, g = rawget(_G, "spec_f2"), rawget(_G, "spec_g2")
    assert.are.equal(4.0, f(tf.constant(3.0)):numpy())
    assert.are.equal(6.0, g(tf.constant(3.0)):numpy())
    assert.are.equal(-3.0, g(tf.constant(-3.0)):numpy())
  end)
end)
