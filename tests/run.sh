#!/bin/bash
# Runs every test suite. Each suite prints TAP ("ok N - ...", "not ok N -
# ..."); this script echoes them, counts them, and ends with one line
# "N passed, N failed". A suite that exits non-zero without reporting a
# failure counts as one failure, so a crash can never pass silently.
#
# Suites are independent processes (own temporary files, own ports), so
# they run side by side, MOONFLOW_TEST_JOBS at a time (default: one per
# core), longest first; each suite's report is printed whole when it ends.
BUILD=${BUILD:-build/release}
SANITIZE=${SANITIZE:-0}
export MOONFLOW_BIN="$PWD/$BUILD/moonflow"
export MOONFLOW_MODULE="$PWD/$BUILD/moonflow.so"
export MOONFLOW_SANITIZE="$SANITIZE"
export MOONFLOW_ROOT="$PWD"
export NO_COLOR=1
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-2}
if [ "$SANITIZE" = 1 ]; then
  # Lua programs exit through os.exit / signals in several tests; leaks are
  # checked by the C core tests, which run with detection on.
  # A small quarantine: freed tensor memory must not count against the
  # memory bounds the specs check (ASan's default holds 256 MB of it).
  export ASAN_OPTIONS="detect_leaks=0:abort_on_error=0:allocator_may_return_null=1:quarantine_size_mb=16"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
fi
PYTHON=/usr/bin/python3
JOBS=${MOONFLOW_TEST_JOBS:-$(nproc)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# No suite may hang a run: each gets a time limit (longer for sanitizer
# builds, which run several times slower); hitting it is a failure.
LIMIT=600
[ "$SANITIZE" = 1 ] && LIMIT=1500

# run_suite INDEX NAME COMMAND...: runs one suite, prints its report under
# a lock (reports never interleave) and leaves "passed failed" in
# $tmp/INDEX.count.
run_suite() {
  local index=$1 name=$2
  shift 2
  local out="$tmp/$index.out" start=$SECONDS status p f
  timeout -k 10 "$LIMIT" "$@" >"$out" 2>&1 </dev/null
  status=$?
  [ "$status" -eq 124 ] && echo "not ok - suite '$name' ran longer than ${LIMIT}s" >>"$out"
  p=$(grep -c '^ok ' "$out")
  f=$(grep -c '^not ok ' "$out")
  if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
    echo "not ok - suite '$name' exited with status $status" >>"$out"
    f=1
  fi
  {
    echo "# suite: $name"
    sed 's/^/  /' "$out"
    echo "# suite: $name took $((SECONDS - start)) s"
  } >"$tmp/$index.report"
  flock "$tmp/print.lock" cat "$tmp/$index.report"
  echo "$p $f" >"$tmp/$index.count"
}

suites=0
suite() {
  suites=$((suites + 1))
  while [ "$(jobs -pr | wc -l)" -ge "$JOBS" ]; do wait -n; done
  run_suite "$suites" "$@" &
}

# Longest first, so the short ones fill the gaps at the end.
for d in tests/jupyter tests/tutorials tests/docs; do
  ls "$d"/test_*.py >/dev/null 2>&1 && suite "$d" "$PYTHON" tests/tap.py "$d"
done
# optimized_spec replays every other spec's graphs, optimiser off and on:
# the longest Lua suite, so it runs on its own.
suite "lua api: optimised vs unoptimised graphs (busted)" "$MOONFLOW_BIN" /usr/bin/busted \
  --lpath="$PWD/tests/lua/?.lua" -o TAP tests/lua/optimized_spec.lua
# TensorFlow's own test files, ported (tests/tf/).
suite "tensorflow's tests (busted)" "$MOONFLOW_BIN" /usr/bin/busted --no-recursive \
  --lpath="$PWD/tests/tf/?.lua;$PWD/tests/lua/?.lua" -o TAP tests/tf
# TensorFlow's guides, ported with their printed outputs (tests/guides/).
suite "tensorflow's guides (busted)" "$MOONFLOW_BIN" /usr/bin/busted --no-recursive \
  --lpath="$PWD/tests/guides/?.lua;$PWD/tests/tf/?.lua;$PWD/tests/lua/?.lua" -o TAP tests/guides
suite "lua api (busted)" "$MOONFLOW_BIN" /usr/bin/busted --lpath="$PWD/tests/lua/?.lua" -o TAP \
  --exclude-pattern="^optimized_spec%.lua$" --exclude-pattern="^step_corpus_spec%.lua$" tests/lua
# step_corpus_spec steps every other spec's graphs node by node: on its own too.
suite "lua api: stepped vs called graphs (busted)" "$MOONFLOW_BIN" /usr/bin/busted \
  --lpath="$PWD/tests/lua/?.lua" -o TAP tests/lua/step_corpus_spec.lua
suite tests/repl "$PYTHON" tests/tap.py tests/repl
for t in tests/*/test_*.sh; do
  [ -f "$t" ] && suite "$t" sh "$t"
done
for t in "$BUILD"/tests/test_*; do
  [ -x "$t" ] && suite "core/$(basename "$t")" env ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 "$t"
done
wait

passed=0
failed=0
for i in $(seq 1 "$suites"); do
  if [ -f "$tmp/$i.count" ]; then
    read -r p f <"$tmp/$i.count"
  else
    echo "not ok - suite $i left no count"
    p=0 f=1
  fi
  passed=$((passed + p))
  failed=$((failed + f))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
