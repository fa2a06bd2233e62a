#!/bin/sh
# test_rock.sh — the LuaRocks rockspec (moonflow-0.1.0-1.rockspec) with
# Debian's luarocks: `luarocks --lua-version 5.4 make --local` in the source
# tree (HOME a temporary directory, so the rock tree is too) builds and
# installs the rock, and stock lua5.4 with `luarocks path` requires moonflow
# from the rock tree, away from the source tree. Prints TAP.
# A sanitizer run skips it: the rock builds the release binaries.
ROOT=${MOONFLOW_ROOT:-$(pwd)}
if [ "${MOONFLOW_SANITIZE:-0}" = 1 ]; then
  echo "ok 1 - the LuaRocks rock # SKIP built by the release run only"
  echo "1..1"
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0
check() { # check NAME EXPECTED ACTUAL
  n=$((n + 1))
  if [ "$2" = "$3" ]; then
    echo "ok $n - $1"
  else
    failed=$((failed + 1))
    echo "not ok $n - $1"
    printf 'expected: %s\ngot:      %s\n' "$2" "$3" | sed 's/^/# /'
  fi
}
export HOME="$tmp/home"
mkdir -p "$HOME"
unset MOONFLOW_LUA_DIR MOONFLOW_ROOT LUA_PATH LUA_CPATH LUA_PATH_5_4 LUA_CPATH_5_4

(cd "$ROOT" && luarocks --lua-version 5.4 lint moonflow-0.1.0-1.rockspec) >"$tmp/log" 2>&1
check "luarocks lint accepts the rockspec" "0" "$?"
(cd "$ROOT" && luarocks --lua-version 5.4 make --local) >"$tmp/log" 2>&1
status=$?
check "luarocks make --local builds and installs the rock" "0" "$status"
[ "$status" = 0 ] || sed 's/^/# /' "$tmp/log"
check "luarocks list shows it" "yes" \
  "$(luarocks --lua-version 5.4 list --porcelain --local 2>/dev/null | grep -q '^moonflow	0.1.0-1' && echo yes)"
tree=$HOME/.luarocks
for f in lib/lua/5.4/moonflow.so share/lua/5.4/moonflow/tf.lua bin/moonflow; do
  check "the rock tree has $f" "yes" "$([ -e "$tree/$f" ] && echo yes)"
done
eval "$(luarocks --lua-version 5.4 path)"
check "lua5.4 -e 'require(\"moonflow\")' works from the rock tree" \
  "tf.Tensor([0 2 4], shape=(3,), dtype=int32)" \
  "$(cd "$tmp" && lua5.4 -e 'local tf = require("moonflow"); print(tf.range(3) * 2)' 2>&1)"
check "the module comes from the rock tree" "$tree/lib/lua/5.4/moonflow.so" \
  "$(cd "$tmp" && lua5.4 -e 'print(package.searchpath("moonflow", package.cpath))' 2>&1)"
check "the rock's program runs" "tf.Tensor([1. 1.], shape=(2,), dtype=float32)" \
  "$(cd "$tmp" && "$tree/bin/moonflow" -e 'print(tf.ones({2}))' 2>&1)"
(cd "$ROOT" && luarocks --lua-version 5.4 remove --local moonflow) >"$tmp/log" 2>&1
check "luarocks remove takes it away" "no" "$([ -e "$tree/lib/lua/5.4/moonflow.so" ] && echo yes || echo no)"
echo "1..$n"
[ "$failed" -eq 0 ]
