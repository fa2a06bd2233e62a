#!/bin/sh
# test_reference_examples.sh — runs test_reference_examples.lua (every
# reference example and error entry, and the check that every public name
# has one) with this build's program. Prints TAP.
ROOT=${MOONFLOW_ROOT:-$(pwd)}
BIN=${MOONFLOW_BIN:-$ROOT/build/release/moonflow}
MOONFLOW_ROOT=$ROOT MOONFLOW_BIN=$BIN exec "$BIN" "$ROOT/tests/docs/test_reference_examples.lua" </dev/null
