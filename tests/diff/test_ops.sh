#!/bin/sh
# test_ops.sh — a bounded sample of the per-op differential test
# (tests/diff/ops.lua): every registry op's cases run eager, traced,
# traced unoptimised and traced with unknown dimensions, bitwise equal;
# values against NumPy under TF's rules; gradients against finite
# differences and PyTorch; and the registry walk that fails for an op with
# no case. Seeds are fixed so a failure reproduces; `make diff-long` runs
# many more. Prints TAP.
ROOT=${MOONFLOW_ROOT:-$(pwd)}
BIN=${MOONFLOW_BIN:-$ROOT/build/release/moonflow}
COUNT=${MOONFLOW_DIFF_OPS_COUNT:-2000}
# The sanitizer build runs several times slower: a smaller sample (still
# more cases than entries, so every entry runs).
if [ "${MOONFLOW_SANITIZE:-0}" = 1 ]; then
  COUNT=${MOONFLOW_DIFF_OPS_COUNT:-800}
fi
cd "$ROOT" || exit 1
# stderr: tf.func's retracing warnings (every case is a new function)
exec "$BIN" tests/diff/ops.lua --seed 1 --count "$COUNT" 2>/dev/null
