#!/bin/sh
# test_elementwise.sh — a bounded sample of the elementwise differential
# test (tests/diff/elementwise.lua): random programs of elementwise ops run
# eager, traced, traced unoptimised and traced with unknown dimensions,
# bitwise equal, and checked against NumPy under TF's rules. Seeds are
# fixed so a failure reproduces; `make diff-long` runs many more.
# Prints TAP.
ROOT=${MOONFLOW_ROOT:-$(pwd)}
BIN=${MOONFLOW_BIN:-$ROOT/build/release/moonflow}
COUNT=${MOONFLOW_DIFF_COUNT:-2000}
# The sanitizer build runs several times slower: a smaller sample.
[ "${MOONFLOW_SANITIZE:-0}" = 1 ] && COUNT=${MOONFLOW_DIFF_COUNT:-400}
cd "$ROOT" || exit 1
"$BIN" tests/diff/elementwise.lua --seed 1 --count "$COUNT" 2>/dev/null
