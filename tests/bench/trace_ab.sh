#!/bin/sh
# trace_ab.sh — benchmark 4's tracing rows, this tree against an earlier
# commit, in one window of time: `make bench-trace-ab BASE=<rev> [AB_RUNS=N]`.
#
# On a shared machine the tracing rows move by half from one `make bench`
# to the next (a 100-op trace is a few hundred microseconds of cold code),
# so a figure against a figure recorded another day says little. This
# builds BASE in a worktree (build/trace_ab/<rev>, kept for the next run)
# and runs both programs in turn, N times each (default 15), one fresh
# process per sample, with run.sh's settings for the small-work sections:
#   warm   bench.lua's func section: 200 000 cached and eager calls, then
#          21 traces of a fresh tf.func of the 100-op chain (chain.lua);
#          the figure is the median of the last 20 (the row's own figure)
#   first  bench.lua's first section: the first trace in a process
# Both programs run this tree's bench.lua and chain.lua. Prints each
# side's median and best over the N processes, and the ratio of medians.
set -e
BASE=${1:?usage: trace_ab.sh BASE_REV [RUNS]}
RUNS=${2:-15}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build/release}
HEAD_BIN="$ROOT/$BUILD/moonflow"
[ -x "$HEAD_BIN" ] || { echo "trace_ab: $HEAD_BIN is missing; run 'make all' first" >&2; exit 1; }

rev=$(git -C "$ROOT" rev-parse --short --verify --quiet "$BASE^{commit}") ||
  { echo "trace_ab: '$BASE' names no commit of this repository" >&2; exit 2; }
WT="$ROOT/build/trace_ab/$rev"
if [ ! -x "$WT/build/release/moonflow" ]; then
  git -C "$ROOT" worktree remove --force "$WT" 2>/dev/null || rm -rf "$WT"
  git -C "$ROOT" worktree add --quiet --detach "$WT" "$rev"
  echo "trace_ab: building $rev in $WT" >&2
  make -C "$WT" --no-print-directory -j"$(nproc)" all >"$WT.build.log" 2>&1 ||
    { echo "trace_ab: building $rev failed (see $WT.build.log)" >&2; exit 1; }
fi
BASE_BIN="$WT/build/release/moonflow"

# sample BIN SECTION KEY: one process's figure in microseconds; a
# program that prints none (an older build this bench.lua does not fit)
# ends the comparison.
sample() {
  v=$(env -u MOONFLOW_NUM_THREADS OPENBLAS_NUM_THREADS=1 "$1" "$ROOT/tests/bench/bench.lua" "$2" 2>/dev/null |
    awk -v k="$3" '$1 == "@" && $2 == k { printf "%.1f\n", $3 * 1e6 }')
  [ -n "$v" ] || { echo "trace_ab: $1 printed no $3 (bench.lua $2)" >&2; exit 1; }
  echo "$v"
}

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
i=1
while [ "$i" -le "$RUNS" ]; do
  for side in base head; do
    if [ "$side" = base ]; then bin=$BASE_BIN; else bin=$HEAD_BIN; fi
    sample "$bin" func func.trace100.mf >>"$out/$side.warm"
    sample "$bin" first func.first100.mf >>"$out/$side.first"
  done
  i=$((i + 1))
done

# stats FILE -> "median best"
stats() { sort -n "$1" | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; print m, v[1] }'; }
head_rev=$(git -C "$ROOT" rev-parse --short HEAD)
echo "tracing rows, $RUNS interleaved processes each: $rev (base) against $head_rev (this tree)"
for row in warm first; do
  set -- $(stats "$out/base.$row") $(stats "$out/head.$row")
  awk -v row="$row" -v bm="$1" -v bb="$2" -v hm="$3" -v hb="$4" 'BEGIN {
    label = row == "warm" ? "trace + 1st call, warm" : "trace + 1st call, 1st in process"
    printf "%-34s base %8.0f us (best %6.0f)   head %8.0f us (best %6.0f)   head/base %.2f\n",
      label, bm, bb, hm, hb, hm / bm }'
done
