-- name_scope.lua — tf.name_scope: a prefix for the names of the ops a
-- trace records ("gradient_tape/mul"), which is how TF groups a graph into
-- parts (forward, gradient, update) and how moonflow's pictures group and
-- collapse them. Python's `with tf.name_scope("x"):` is a to-be-closed
-- variable here: `local scope <close> = tf.name_scope("x")`. The stack of
-- scopes is the chain of `previous` prefixes; the graph holds the current
-- one (core.name_scope_set).

local core = require("moonflow.core")
local errors = require("moonflow.errors")
local doc = require("moonflow.doc")
local receiver = require("moonflow.receiver")
local raise = errors.raise

local M = {}

local NameScope = { __name = "tf.name_scope" }
local methods = {}

-- TF's rule for scope names (ops.py, _VALID_SCOPE_NAME_REGEX), and a
-- trailing "/" re-enters a scope by its full name.
local VALID = "^[%w%.][%w_%.%-/>]*$"

-- The prefix of the eager scopes open now ("outer/inner/", or ""): eager
-- ops have no names, but variables made eagerly take it (TF's
-- context.scope_name).
local eager_prefix = ""

local function close(scope)
  if not scope.closed then
    local graph = rawget(scope, "graph")
    if graph then
      core.name_scope_set(graph, rawget(scope, "previous"))
    else
      eager_prefix = rawget(scope, "previous")
    end
  end
  scope.closed = true
end

methods.close = doc.def(function(scope)
  if getmetatable(scope) ~= NameScope then
    raise("TypeError", "call close with ':' (scope:close())", 2)
  end
  close(scope)
end, "scope:close()", [[
Leaves the name scope (what the end of Python's `with` block does); a
`<close>` variable calls it on every way out of its block. Closing twice
does nothing.]])

NameScope.__close = close
-- A scope's own field is `name`; a missing one is an AttributeError.
NameScope.__index = receiver.index(NameScope, "name_scope", { methods = { methods }, unchecked = true,
  extra = { "name" }, display = "name_scope" })
NameScope.__tostring = function(scope) return ("<tf.name_scope '%s'>"):format(scope.name) end

M.name_scope = doc.def(function(name)
  if type(name) ~= "string" then
    raise("TypeError", ("tf.name_scope: name must be a string, got a %s"):format(type(name)), 2)
  end
  if name ~= "" and not name:match(VALID) then
    raise("ValueError", ("'%s' is not a valid scope name"):format(name), 2)
  end
  local graph = core.current_graph()
  if not graph then
    -- As TF's eager scopes: nested, "" leaves them all, a trailing "/"
    -- names the whole prefix; nothing is made unique.
    local full = name
    if name ~= "" and name:sub(-1) ~= "/" then full = eager_prefix .. name .. "/" end
    local scope = setmetatable({ name = full, previous = eager_prefix, closed = false }, NameScope)
    eager_prefix = full
    return scope
  end
  local previous = core.name_scope_set(graph, nil)
  local full
  if name == "" then
    full = nil
  elseif name:sub(-1) == "/" then
    full = name
  else
    full = core.graph_reserve_name(graph, (previous or "") .. name) .. "/"
  end
  core.name_scope_set(graph, full)
  return setmetatable({ name = full or "", graph = graph, previous = previous, closed = false }, NameScope)
end, "tf.name_scope(name) -> scope", [[
Opens a name scope: while it is open, the ops a trace records are named
under it ("forward/MatMul"), and graph pictures group them (%graph draws
each top-level scope as a box, collapsed when it is large). Python's
`with tf.name_scope("forward"):` is

    local scope <close> = tf.name_scope("forward")

(closed at the end of the enclosing block, errors included), or call
scope:close(). A name used twice in one graph becomes "forward_1"; a name
ending in "/" re-enters that exact scope; "" leaves every scope. scope.name
is the full prefix ("outer/forward/"). Outside a trace eager ops have no
names, but tf.Variables made under the scope are named under it
("outer/w:0"), as in TF.]])

--- The prefix names take here ("outer/inner/", or ""): the scope of the
--- graph being traced, else the eager scopes open.
function M.current_prefix()
  local graph = core.current_graph()
  if not graph then return eager_prefix end
  local prefix = core.name_scope_set(graph, nil)
  core.name_scope_set(graph, prefix)
  return prefix or ""
end

-- Library-internal: the tf table does not list this.
M.internal = { current_prefix = true, internal = true }

return M
