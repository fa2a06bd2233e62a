-- config.lua — tf.config (eager/traced switch, retracing explanations),
-- tf.executing_eagerly and tf.init_scope (tf.help is tf.lua's: it walks tf).

local core = require("moonflow.core")
local state = require("moonflow.state")
local doc = require("moonflow.doc")
local argcheck = require("moonflow.argcheck")
local errors = require("moonflow.errors")

local M = {}

local config = {}
M.config = config

config.run_functions_eagerly = doc.def(function(on)
  state.run_eagerly = on and true or false
end, "tf.config.run_functions_eagerly(bool)",
"Makes every tf.func run its Lua function eagerly (true) or traced (false), live.")

config.functions_run_eagerly = doc.def(function() return state.run_eagerly end,
  "tf.config.functions_run_eagerly()", "True when tf.func runs eagerly.")

config.mark_trace_output = doc.def(function(on)
  state.mark_trace_output = on and true or false
end, "tf.config.mark_trace_output(bool)",
"Whether print, while a tf.func is being traced, starts its line with \"[trace f#n] \" (the "
.. "function's name and trace number) so that trace-time output stands out. On by default.")

config.explain_retracing = doc.def(function(on)
  state.explain_retracing = on and true or false
end, "tf.config.explain_retracing(bool)",
"When on, every retrace writes to io.stderr why it happened: which parameter, what it was, "
.. "and which existing traces it failed to match.")

config.set_strict_globals = doc.def(function(on)
  argcheck.boolean(on, "tf.config.set_strict_globals", "on")
  state.strict_globals = on
  if state.on_strict_globals then state.on_strict_globals(on) end
end, "tf.config.set_strict_globals(bool)",
"Whether reading a global that was never assigned is a NameError (\"name 'None' is not defined: "
.. "Lua's None is nil\") instead of Lua's silent nil. On by default for cells typed at the REPL's "
.. "prompt or run in a notebook; off by default in scripts (`moonflow file.lua`), where a call at "
.. "the top opts in. The magic %strict on|off is the same switch. rawget(_G, name) reads a global "
.. "that may be absent without raising.")

config.strict_globals = doc.def(function(context)
  if state.strict_globals ~= nil then return state.strict_globals end
  return context ~= "script"
end, "tf.config.strict_globals([context])",
"True when a never-assigned global is a NameError in cells (context \"script\": in scripts).")

config.program_path = doc.def(function()
  local path = core.program_path()
  if not path then
    errors.raise("NotFoundError", "cannot find the moonflow program beside this library "
      .. "(build/<mode>/moonflow or PREFIX/bin/moonflow)")
  end
  return path
end, "tf.config.program_path() -> string",
"The path of the `moonflow` program of this build or install: the running program when it is "
.. "moonflow (the REPL, the kernel, a script), else the one beside the Lua module. Start "
.. "moonflow from Lua by this path (os.execute, io.popen): `make repl` does not put it on PATH.")

config.blas = doc.def(function() return core.blas_info() end,
  "tf.config.blas()",
  "The BLAS kernel in use and why: a table {kernel=, reason=, library=, config=, cpu=, seconds=}. "
  .. "kernel is OpenBLAS's name for it (\"SkylakeX\", \"Haswell\", ...); reason says who chose it: "
  .. "\"OPENBLAS_CORETYPE set by the user\", or moonflow from the CPU's features (cpu), checked "
  .. "against a reference product first (\"chosen for avx512f,...; verified\", or \"fell back "
  .. "from SkylakeX: self-check failed ...\"); library is the file loaded and seconds what the "
  .. "choice and loading cost. OpenBLAS loads at the first matrix op (or this call); set "
  .. "OPENBLAS_CORETYPE before that to choose the kernel yourself.")

-- tf.config.optimizer: whether traced functions run their graphs'
-- optimised copies (constant folding, simplification, common
-- subexpressions, pruning, fusion) or the graphs as traced.
local optimizer = {}
config.optimizer = optimizer

optimizer.set_enabled = doc.def(function(on)
  state.optimizer_enabled = on and true or false
end, "tf.config.optimizer.set_enabled(bool)",
"Makes every tf.func run the optimised copy of its graph (true, the default) or the graph as "
.. "traced (false), live. cf:optimized_graph() and %graph --optimized show the optimised copy.")

optimizer.get_enabled = doc.def(function() return state.optimizer_enabled end,
  "tf.config.optimizer.get_enabled()", "True when tf.func runs optimised graphs.")
optimizer.is_enabled = optimizer.get_enabled -- the name moonflow had before API.md's

M.executing_eagerly = doc.def(function() return not core.tracing() end,
  "tf.executing_eagerly()", "False while a tf.func is being traced, true otherwise.")

M.init_scope = doc.def(function(fn, ...)
  argcheck.callable(fn, "tf.init_scope", "fn")
  return state.in_eager_scope(fn, ...)
end, "tf.init_scope(fn, ...)",
"Runs fn(...) eagerly, outside any graph being traced, and returns its results.")

return M
