#!/bin/sh
# test_elementwise.sh — a bounded sample of the elementwise differential
# test (tests/diff/elementwise.lua): random programs of elementwise ops run
# eager, traced, traced unoptimised and traced with unknown dimensions,
# bitwise equal, and checked against NumPy under TF's rules; then a few
# with tensors large enough for the threaded kernels. Seeds are fixed so a
# failure reproduces; `make diff-long` runs many more. Prints TAP.
ROOT=${MOONFLOW_ROOT:-$(pwd)}
BIN=${MOONFLOW_BIN:-$ROOT/build/release/moonflow}
COUNT=${MOONFLOW_DIFF_COUNT:-5000}
LARGE=40
# The sanitizer build runs several times slower: a smaller sample.
if [ "${MOONFLOW_SANITIZE:-0}" = 1 ]; then
  COUNT=${MOONFLOW_DIFF_COUNT:-800}
  LARGE=8
fi
cd "$ROOT" || exit 1
status=0
"$BIN" tests/diff/elementwise.lua --seed 1 --count "$COUNT" 2>/dev/null || status=1
"$BIN" tests/diff/elementwise.lua --seed 1 --count "$LARGE" --large 2>/dev/null || status=1
exit $status
