#!/bin/sh
# run.sh CALLS SEED [LIMIT] — runs the API fuzzer and the op-argument
# fuzzer (api.lua, ops.lua) for CALLS calls each from SEED, as TAP. A
# process that crashes (signal, sanitizer report) or runs past LIMIT
# seconds (a hang inside C, which the per-call hook cannot stop) is a
# failure naming the call (--progress) and its replay command; the run
# then goes on after that call. Every call must return or raise a typed
# error (--strict): an untyped Lua error anywhere is a failure.
#
# Huge-but-valid sizes must fail fast: tensors over 256 MB are refused
# (MOONFLOW_MAX_TENSOR_BYTES) so a drawn 1e9-element request is a quick
# ResourceExhaustedError instead of seconds of page faults.
CALLS=${1:-1000}
SEED=${2:-1}
LIMIT=${3:-600}
BIN=${MOONFLOW_BIN:-build/release/moonflow}
DIR=$(dirname "$0")
# Absolute paths: the fuzzer runs in a scratch directory, so the files its
# calls write (a saved model into a drawn path such as "dtype") stay out of
# the checkout.
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
DIR=$(cd "$DIR" && pwd)
export MOONFLOW_MAX_TENSOR_BYTES=${MOONFLOW_MAX_TENSOR_BYTES:-256M}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for mode in api ops; do
  start=0
  while [ "$start" -lt "$CALLS" ]; do
    : >"$tmp/progress"
    mkdir -p "$tmp/cwd"
    (cd "$tmp/cwd" && timeout -k 5 "$LIMIT" "$BIN" "$DIR/api.lua" --mode "$mode" --seed "$SEED" \
      --start "$start" --count "$CALLS" --progress "$tmp/progress" --strict) >"$tmp/out" 2>"$tmp/err"
    rc=$?
    grep -E '^(not )?ok [0-9]+ - ' "$tmp/out" | sed "s/ - / - $mode: /"
    grep '^# ' "$tmp/err"
    grep -q '^not ok ' "$tmp/out" && status=1
    [ "$rc" -eq 0 ] && break
    index=$(cut -d' ' -f2 "$tmp/progress")
    [ -n "$index" ] || index=$start
    what="crashed (status $rc)"
    [ "$rc" -eq 124 ] && what="ran past ${LIMIT}s (a hang)"
    echo "not ok - $mode: call $index $what; replay: $BIN $DIR/api.lua --mode $mode --seed $SEED --index $index"
    grep -v '^# ' "$tmp/err" | tail -20 | sed 's/^/#   /'
    status=1
    start=$((index + 1))
  done
done
exit $status
