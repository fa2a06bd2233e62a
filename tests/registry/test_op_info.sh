#!/bin/sh
# test_op_info.sh — the op facts the binding gives Lua (core.op_list()):
# changes_state_on_replay is a boolean on every entry, true on exactly the
# ops the registry flags MF_OP_CHANGES_ON_REPLAY (tests/core/test_registry.c
# lists them and says why). Prints TAP.
ROOT=${MOONFLOW_ROOT:-$(pwd)}
BUILD=${BUILD:-build/release}
BIN=${MOONFLOW_BIN:-$ROOT/$BUILD/moonflow}
cd "$ROOT" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/op_info.lua" <<'LUA'
local core = require("moonflow.core")
local expected = { AssignVariableOp = true, AssignAddVariableOp = true, AssignSubVariableOp = true,
  PrintV2 = true, EagerLuaFunc = true, RandomStandardNormal = true, RandomUniform = true,
  Timestamp = true, MakeIterator = true, IteratorGetNext = true, IteratorGetNextAsOptional = true }
local n, bad, wrong = 0, {}, {}
for _, op in ipairs(core.op_list()) do
  n = n + 1
  if type(op.changes_state_on_replay) ~= "boolean" then bad[#bad + 1] = op.name end
  if op.changes_state_on_replay ~= (expected[op.name] or false) then wrong[#wrong + 1] = op.name end
end
local t, failed = 0, 0
local function check(name, ok, detail)
  t = t + 1
  if not ok then failed = failed + 1 end
  print((ok and "ok " or "not ok ") .. t .. " - " .. name)
  if not ok then print("# " .. detail) end
end
check("core.op_list() lists ops", n > 0, "no ops")
check("every op's changes_state_on_replay is a boolean", #bad == 0, table.concat(bad, " "))
check("changes_state_on_replay is true on exactly the replay-changing ops", #wrong == 0,
  "wrong for: " .. table.concat(wrong, " "))
print("1.." .. t)
os.exit(failed == 0)
LUA
"$BIN" "$tmp/op_info.lua"
