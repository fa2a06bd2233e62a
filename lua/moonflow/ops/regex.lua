-- regex.lua — the regex family (core/ops/ops_regex.c):
-- tf.strings.regex_full_match and tf.strings.regex_replace. TF matches
-- with RE2, moonflow with PCRE2: the patterns RE2 takes mean the same;
-- PCRE2 also takes backreferences and lookaround, which RE2 refuses.

local core = require("moonflow.core")
local state = require("moonflow.state")
local dispatch = require("moonflow.tensor.dispatch")
local common = require("moonflow.ops.common")
local core_ops = require("moonflow.ops.core")

local op = core.op
local H = state.H
local op_def = common.op_def
local to_tensor = core_ops.to_tensor

local M = {}

local function mapped(x, fn)
  if dispatch.is_ragged(x) then return dispatch.map_flat_values(fn, x) end
  return fn(to_tensor(x))
end

local function string_arg(v)
  if core.is_tensor(v) then return v end
  return core_ops.constant(v)
end

M.regex_full_match = op_def("RegexFullMatch", function(input, pattern, opts)
  local p = string_arg(pattern)
  return mapped(input, function(t) return op(H.RegexFullMatch, { name = opts.name }, t, p) end)
end, "tf.strings.regex_full_match(input, pattern)",
"pattern is RE2 syntax (PCRE2 runs it); a bad pattern is InvalidArgumentError.", { required = 2, "name" })

M.regex_replace = op_def("RegexReplace", function(input, pattern, rewrite, replace_global, opts)
  local p, r = string_arg(pattern), string_arg(rewrite)
  local global = replace_global
  if global == nil then global = true end
  return mapped(input, function(t)
    return op(H.RegexReplace, { replace_global = global, name = opts.name }, t, p, r)
  end)
end, "tf.strings.regex_replace(input, pattern, rewrite [, replace_global])",
"In rewrite \\0 is the whole match, \\1..\\9 a group, \\\\ a backslash; replace_global (default true) "
.. "replaces every match, else the first.", { required = 3, positional = { "replace_global" }, "name" })

M.namespaces = { strings = { "regex_full_match", "regex_replace" } }

return M
