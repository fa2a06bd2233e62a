#!/bin/sh
# test_structure.sh — the Lua library's module structure (structure.lua):
# no tf._ side channel, requires first, luac -p, no require cycle, file sizes.
# Prints TAP.
ROOT=${MOONFLOW_ROOT:-$(pwd)}
MOONFLOW_ROOT="$ROOT" exec lua5.4 "$ROOT/tests/module/structure.lua"
