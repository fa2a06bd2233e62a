#!/bin/sh
# test_reference.sh — docs/reference.md is the reference the library's
# docstrings make now (make docs writes it): a function added or a
# docstring changed without `make docs` fails here, with the difference.
# Prints TAP.
ROOT=${MOONFLOW_ROOT:-$(pwd)}
BIN=${MOONFLOW_BIN:-$ROOT/build/release/moonflow}
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.diff"' EXIT
if ! "$BIN" -e 'io.write(require("moonflow.reference").markdown())' >"$tmp" 2>&1 </dev/null; then
  echo "not ok 1 - the reference is made"
  sed 's/^/# /' "$tmp"
  exit 1
fi
echo "ok 1 - the reference is made"
if diff -u "$ROOT/docs/reference.md" "$tmp" >"$tmp.diff" 2>&1; then
  echo "ok 2 - docs/reference.md is current"
else
  echo "not ok 2 - docs/reference.md is current (run make docs)"
  head -40 "$tmp.diff" | sed 's/^/# /'
fi
# the entries tf.help documents: tf's functions, classes and constants
n=$(grep -c '^### tf\.' "$tmp")
if [ "$n" -gt 250 ]; then
  echo "ok 3 - the reference has $n entries"
else
  echo "not ok 3 - the reference has only $n entries"
fi
echo "1..3"
