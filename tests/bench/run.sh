#!/bin/sh
# The benchmark suite: `make bench` (after `make all`), or by hand
#   BUILD=build/release sh tests/bench/run.sh
#
# Runs moonflow's benchmarks (bench.lua, through the $BUILD/moonflow program,
# or stock lua5.4 with the module $BUILD/moonflow.so when the program is not
# built) and, in the same run, their peers: NumPy and
# PyTorch from Debian (/usr/bin/python3, peer.py) and a direct cblas_sgemm
# call (sgemm.c, compiled here against the same OpenBLAS with the
# Makefile's flags). Ends with one table: each figure beside its peer, the
# ratio, the issue's target and whether it is met. The raw "@ key value"
# lines stay in $BUILD/bench/results.txt, stderr in $BUILD/bench/stderr.log.
# Speed goals are checked here, never by timed tests.
#
# Threads: moonflow's kernels (elementwise ops, fused programs, and the
# GEMMs of MatMul and Conv2D, cut into single-threaded OpenBLAS calls: see
# core/run/gemm.c) use its thread pool (core/run/threadpool.c: MOONFLOW_NUM_THREADS,
# one thread per core by default) where the work is large enough to win;
# OpenBLAS's own pool (OPENBLAS_NUM_THREADS) only when moonflow's has one
# thread, and in the direct cblas program. A section "at T threads" sets
# both to T, and PyTorch's torch.set_num_threads(T): the 16M add and the
# 1M chain (NumPy is single-threaded) and sgemm, conv2d and the MLP run at
# 1 and 2 threads. The small-work sections (scalar add, tf.func calls, the
# 16-element chain, tracing) run with moonflow's pool as a user gets it
# (MOONFLOW_NUM_THREADS unset) and OpenBLAS at 1: small work must not pay
# for threads; their peers run on one thread.
#
# The first trace in a process (section 4, "first"): BENCH_FIRST_RUNS
# fresh processes (default 7), each tracing and calling the 100-op
# function once; table.lua shows the best and the median.
#
# Steady-state allocations of a cached call: run.sh builds and runs
# tests/core/test_steady_alloc (a counting allocator around plan runs of
# unfused, fused and MatMul graphs) and reports its count.
#
# OpenBLAS's kernel: moonflow chooses its own when OPENBLAS_CORETYPE is
# unset, and respects it when set (core/run/blas.h); the header names the
# kernel moonflow runs and why. The GEMM rows compare moonflow with
# cblas_sgemm run with the best kernel the machine supports: each kernel of
# BENCH_KERNELS (default: every x86-64 kernel moonflow may choose, and Zen)
# is first probed in its own process (sgemm.c --forced --probe: a 64x64
# check, then a 512² product); those that verify, run under their own name
# and come within 3x of the fastest probe are timed in every round, and the
# table takes the fastest of them per row. An (info) row gives cblas_sgemm
# with the environment as it is (OpenBLAS's own choice when the variable is
# unset). PyTorch runs with the environment as it is. NumPy's command alone
# runs with OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset (they slow a
# current NumPy); its elementwise work does not touch BLAS, and it reports
# the kernel it loaded. Two "(info)" conv2d rows, also with both unset for
# those commands alone, show moonflow's own choice (and PyTorch's OpenBLAS's
# own). Nothing else changes either variable.
#
# End to end (benchmarks 10 and 11, in every round): lesson 14's model, one
# training epoch of its traced step, beside the same model in PyTorch
# (peer.py lesson14), at 1 and 2 threads; a Jupyter execute_request round
# trip beside Debian's ipykernel, and the REPL's start to its first prompt
# beside python3's and lua5.4's (e2e.py). The Lua floor of an eager op
# (benchmark 1) is floor.c, built here.
#
# Keras's fit (benchmark 12, in every round): lesson 16's model, one epoch of
# model:fit (its traced train_step, shuffle off) beside the same epoch of a
# hand-written tf.func step in the same process, and the same model in
# PyTorch (peer.py kerasfit), at 1 and 2 threads.
#
# Knobs: BENCH_ROUNDS (default 2), BENCH_FIRST_RUNS (7),
# BENCH_SECTION_TIMEOUT (seconds, 300), BENCH_KERNELS (above),
# BENCH_ONLY=gemm (the header, the probes and benchmark 3 alone) with
# BENCH_GEMM_SIZES (default "256 1024 2048"): a quick look at the GEMM rows.
# The whole suite took 1 min 46 s on a quiet 2-core machine before the
# sections for 2 threads, TorchScript and the first trace were added (about
# half a minute more), and 6 minutes at a load average of 5-8 from other
# processes.
set -u
BUILD=${BUILD:-build/release}
LIMIT=${BENCH_SECTION_TIMEOUT:-300}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
PY=/usr/bin/python3
BENCH=tests/bench
OUT="$ROOT/$BUILD/bench"
mkdir -p "$OUT"
RESULTS="$OUT/results.txt"
LOG="$OUT/stderr.log"
: >"$RESULTS"
: >"$LOG"
export LUA_CPATH="$ROOT/$BUILD/?.so;;"
export LC_ALL=C
start=$(date +%s)

# moonflow's own program runs the Lua side when it is built; else stock
# lua5.4 with the module.
if [ -x "$BUILD/moonflow" ] && "$BUILD/moonflow" -e 'assert(tf)' </dev/null >/dev/null 2>&1; then
  LUA="$BUILD/moonflow"
elif [ -f "$BUILD/moonflow.so" ]; then
  LUA=lua5.4
else
  echo "bench: $BUILD/moonflow.so is missing; run 'make all' first" >&2
  exit 1
fi

echo "moonflow benchmark suite"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')," \
  "$(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-(unset)} OPENBLAS_L2_SIZE=${OPENBLAS_L2_SIZE:-(unset)}"
echo "Lua side run by: $LUA"
echo "moonflow's OpenBLAS kernel: $("$LUA" -e "local tf = tf or require('moonflow')
local b = tf.config.blas()
io.write(b.kernel, ' (', b.reason, '; first use ', ('%.0f ms'):format(b.seconds * 1e3), ')')" 2>&1)"
echo "figures: wall-clock time, best repeat after a warm-up; medians and CPU times in"
echo "  $RESULTS"
echo

# section LABEL COMMAND...: runs one benchmark process, keeps its "@" lines,
# shows its notes. A failure or a time-out leaves its figures "n/a".
section() {
  label=$1
  shift
  t0=$(date +%s)
  timeout "$LIMIT" "$@" >"$OUT/section.txt" 2>>"$LOG"
  status=$?
  grep '^@ ' "$OUT/section.txt" >>"$RESULTS"
  grep '^# ' "$OUT/section.txt" | sed 's/^# /    /'
  if [ "$status" -ne 0 ]; then
    echo "  $label: FAILED (status $status; see $LOG)"
    echo "# $label failed with status $status" >>"$LOG"
  else
    echo "  $label: $(($(date +%s) - t0)) s"
  fi
}

have_numpy=0
have_torch=0
[ -x "$PY" ] && "$PY" -c "import numpy" 2>/dev/null && have_numpy=1
[ -x "$PY" ] && "$PY" -c "import torch" 2>/dev/null && have_torch=1
[ "$have_numpy" = 1 ] || echo "  (python3-numpy is not installed: NumPy figures are n/a)"
[ "$have_torch" = 1 ] || echo "  (python3-torch is not installed: PyTorch figures are n/a)"

# The direct cblas program, with the Makefile's optimisation flags.
SGEMM="$OUT/sgemm"
if ! cc -std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra $(pkg-config --cflags openblas) \
  "$BENCH/sgemm.c" -o "$SGEMM" $(pkg-config --libs openblas) -lm 2>>"$LOG"; then
  echo "  (could not build $BENCH/sgemm.c: cblas figures are n/a; see $LOG)"
  SGEMM=false
fi

# The Lua floor of an eager op (benchmark 1): floor.c as the module
# bench_floor, found through LUA_CPATH.
if cc -std=c11 -O2 -shared -fPIC -Wall -Wextra $(pkg-config --cflags lua5.4) \
  "$BENCH/floor.c" -o "$OUT/bench_floor.so" 2>>"$LOG"; then
  export LUA_CPATH="$OUT/?.so;$LUA_CPATH"
else
  echo "  (could not build $BENCH/floor.c: the floor figure is n/a; see $LOG)"
fi

# mf THREADS SECTION ARGS...: one bench.lua process with moonflow's pool and
# OpenBLAS's at THREADS.
mf() {
  threads=$1
  shift
  echo env OPENBLAS_NUM_THREADS="$threads" MOONFLOW_NUM_THREADS="$threads" "$LUA" "$BENCH/bench.lua" "$@"
}
# mfd SECTION ARGS...: moonflow's pool as a user gets it, OpenBLAS at 1.
mfd() {
  echo env -u MOONFLOW_NUM_THREADS OPENBLAS_NUM_THREADS=1 "$LUA" "$BENCH/bench.lua" "$@"
}

# The candidate kernels for cblas_sgemm's best: each probed in its own
# process (a wrong result, a crash or another kernel under its name rules
# it out); the ones within 3x of the fastest probe are timed (Prescott,
# 6x slower than AVX-512 or AVX2 kernels, would only cost time).
KERNELS=
if [ "$SGEMM" != false ]; then
  probes=
  for k in ${BENCH_KERNELS:-Cooperlake SkylakeX Haswell Zen Sandybridge Prescott}; do
    env OPENBLAS_CORETYPE="$k" OPENBLAS_NUM_THREADS=1 "$SGEMM" --forced --probe >"$OUT/probe.txt" 2>>"$LOG"
    status=$?
    t=$(sed -n "s/^@ probe\.$k //p" "$OUT/probe.txt")
    case $status in
      0) probes="$probes $k:$t" ;;
      1) echo "  cblas kernel $k: wrong results, ruled out" ;;
      2) echo "  cblas kernel $k: not offered by this OpenBLAS" ;;
      *) echo "  cblas kernel $k: crashed (status $status), ruled out" ;;
    esac
  done
  fastest=$(for p in $probes; do echo "${p#*:}"; done | sort -g | head -1)
  for p in $probes; do
    k=${p%%:*}
    t=${p#*:}
    if awk -v t="$t" -v f="$fastest" 'BEGIN { exit !(t <= 3 * f) }'; then
      KERNELS="$KERNELS $k"
      echo "  cblas kernel $k: verified, 512² in $(awk -v t="$t" 'BEGIN { printf "%.2f ms", t * 1e3 }'), timed"
    else
      echo "  cblas kernel $k: verified, 512² in $(awk -v t="$t" 'BEGIN { printf "%.2f ms", t * 1e3 }'), over 3x the fastest: not timed"
    fi
  done
fi
GEMM_SIZES=${BENCH_GEMM_SIZES:-256 1024 2048}
# gemm_rows: benchmark 3, moonflow and every cblas peer, at 1 and 2 threads.
gemm_rows() {
  for t in 1 2; do
    section "3. moonflow tf.matmul, $t thread(s)" $(mf "$t" sgemm "$t" $GEMM_SIZES)
    section "3. direct cblas_sgemm, OpenBLAS's own kernel, $t thread(s)" \
      env OPENBLAS_NUM_THREADS="$t" "$SGEMM" $GEMM_SIZES
    for k in $KERNELS; do
      section "3. direct cblas_sgemm, $k, $t thread(s)" \
        env OPENBLAS_CORETYPE="$k" OPENBLAS_NUM_THREADS="$t" "$SGEMM" --forced $GEMM_SIZES
    done
  done
}
if [ "${BENCH_ONLY:-}" = gemm ]; then
  gemm_rows
  echo
  "$LUA" "$BENCH/table.lua" "$RESULTS"
  exit 0
fi

# The timed comparisons run in BENCH_ROUNDS rounds (default 2), moonflow
# and its peer one after the other within each, and table.lua keeps each
# figure's best round: load from other processes, which comes and goes,
# then weighs on both sides alike.
ROUNDS=${BENCH_ROUNDS:-2}
round=1
while [ "$round" -le "$ROUNDS" ]; do
  echo "round $round of $ROUNDS"
  section "1. moonflow scalar add" $(mfd overhead)
  for t in 1 2; do
    section "2. moonflow 16M add, $t thread(s)" $(mf "$t" add16m "$t")
  done
  [ "$have_numpy" = 1 ] && section "1,2,4. NumPy peers" \
    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OPENBLAS_NUM_THREADS=1 "$PY" "$BENCH/peer.py" numpy
  [ "$have_torch" = 1 ] && section "1,2,4. PyTorch peers" \
    env OPENBLAS_NUM_THREADS=1 "$PY" "$BENCH/peer.py" torch 2
  gemm_rows
  section "4. moonflow tf.func" $(mfd func)
  for t in 1 2; do
    section "4. moonflow 1M chain, $t thread(s)" $(mf "$t" chain1m "$t")
  done
  for t in 1 2; do
    section "5. moonflow conv2d, $t thread(s)" $(mf "$t" conv "$t")
    [ "$have_torch" = 1 ] && section "5. PyTorch conv2d, $t thread(s)" \
      env OPENBLAS_NUM_THREADS="$t" "$PY" "$BENCH/peer.py" conv "$t"
  done
  for t in 1 2; do
    section "10. moonflow lesson 14 epoch, $t thread(s)" $(mf "$t" lesson14 "$t")
    [ "$have_torch" = 1 ] && section "10. PyTorch lesson 14 epoch, $t thread(s)" \
      env OPENBLAS_NUM_THREADS="$t" "$PY" "$BENCH/peer.py" lesson14 "$t"
  done
  for t in 1 2; do
    section "12. moonflow Keras fit epoch and hand-written loop, $t thread(s)" $(mf "$t" kerasfit "$t")
    [ "$have_torch" = 1 ] && section "12. PyTorch lesson 16 epoch, $t thread(s)" \
      env OPENBLAS_NUM_THREADS="$t" "$PY" "$BENCH/peer.py" kerasfit "$t"
  done
  section "11. Jupyter round trip, moonflow and ipykernel" env MOONFLOW_BIN="$ROOT/$BUILD/moonflow" \
    "$PY" "$BENCH/e2e.py" kernel
  section "11. REPL start to first prompt" env MOONFLOW_BIN="$ROOT/$BUILD/moonflow" \
    "$PY" "$BENCH/e2e.py" repl
  round=$((round + 1))
done
# For information only (no verdict): conv2d with OPENBLAS_CORETYPE and
# OPENBLAS_L2_SIZE unset for these two commands alone (moonflow chooses its
# kernel, PyTorch's OpenBLAS its own), both sides on one thread. The keys
# end in ".native".
section "5. moonflow conv2d, OPENBLAS_CORETYPE unset" env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE \
  OPENBLAS_NUM_THREADS=1 MOONFLOW_NUM_THREADS=1 "$LUA" "$BENCH/bench.lua" conv 1 native
[ "$have_torch" = 1 ] && section "5. PyTorch conv2d, OPENBLAS_CORETYPE unset" \
  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OPENBLAS_NUM_THREADS=1 "$PY" "$BENCH/peer.py" conv 1 native
# glibc keeps freed memory for reuse, so an RSS figure would hide buffers
# that the allocator recycles: with a fixed mmap threshold every tensor
# buffer (4 MiB here) is its own mapping, returned when freed, and the peak
# RSS growth counts the buffers alive at once.
section "6. moonflow peak memory" env MALLOC_MMAP_THRESHOLD_=65536 OPENBLAS_NUM_THREADS=1 \
  "$LUA" "$BENCH/bench.lua" memory
# The same under stock lua5.4, whose lua.c switches the collector to
# generational mode, and under glibc's default malloc settings.
[ "$LUA" != lua5.4 ] && section "6. moonflow peak memory, stock lua5.4" \
  env MALLOC_MMAP_THRESHOLD_=65536 OPENBLAS_NUM_THREADS=1 lua5.4 "$BENCH/bench.lua" memory lua54
section "6. moonflow peak memory, glibc defaults" $(mfd memory glibc)
for t in 1 2; do
  section "7. moonflow MLP step, $t thread(s)" $(mf "$t" mlp "$t")
  if grep -q "^@ mlp\.t$t\.eager " "$RESULTS" && [ "$have_torch" = 1 ]; then
    section "7. PyTorch MLP step, $t thread(s)" env OPENBLAS_NUM_THREADS="$t" "$PY" "$BENCH/peer.py" mlp "$t"
  fi
done

# 9. tf.data: the pipeline, by hand, and PyTorch's DataLoader; moonflow's
# pool as a user gets it (the prefetch thread is the pipeline's own).
section "9. moonflow tf.data pipeline" $(mfd data)
if grep -q "^@ data\.pipeline " "$RESULTS" && [ "$have_torch" = 1 ]; then
  section "9. PyTorch DataLoader" env OPENBLAS_NUM_THREADS=1 "$PY" "$BENCH/peer.py" data
fi

# 4. The first trace in a process: one fresh process per sample.
FIRST=${BENCH_FIRST_RUNS:-7}
i=1
while [ "$i" -le "$FIRST" ]; do
  section "4. first trace in a process, $i of $FIRST" $(mfd first)
  i=$((i + 1))
done

# 8. Allocations on the steady-state path of a cached call: the counting
# test, built here when `make all` has not built it (make is a no-op when
# it is up to date).
STEADY="$BUILD/tests/test_steady_alloc"
sanitize=0
[ "$BUILD" = build/sanitize ] && sanitize=1
make --no-print-directory SANITIZE="$sanitize" "$STEADY" >>"$LOG" 2>&1
if [ -x "$STEADY" ]; then
  t0=$(date +%s)
  timeout "$LIMIT" "$STEADY" >"$OUT/steady.txt" 2>>"$LOG"
  status=$?
  # The test prints "#   CASE: N extra allocations" (over 20 calls) for a
  # failing case; a passing run made none.
  awk -v status="$status" '
    /^ok / { ok++ } /^not ok / { bad++ }
    / extra allocations$/ { n = $(NF - 2) / 20; if (n > worst) worst = n }
    END {
      printf "@ steady.cases %d\n@ steady.failed %d\n", ok + bad, bad
      if (status == 0 && !bad) print "@ steady.mallocs 0"
      else if (worst > 0) printf "@ steady.mallocs %g\n", worst
    }' "$OUT/steady.txt" >>"$RESULTS"
  echo "  8. steady-state allocations ($STEADY): $(($(date +%s) - t0)) s, status $status"
else
  echo "  8. steady-state allocations: could not build $STEADY (see $LOG)"
fi

echo
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg); total $(($(date +%s) - start)) s"
echo
"$LUA" "$BENCH/table.lua" "$RESULTS"
