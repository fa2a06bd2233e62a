#!/bin/sh
# test_blas.sh — the BLAS kernel moonflow chooses (core/run/blas.h), in the
# five ways moonflow runs: the program ($MOONFLOW_BIN -e, --version), stock
# lua5.4 with moonflow.so, the Jupyter kernel (kernel.py), `moonflow run` and
# a C program built from core/moonflow.h (examples/run_saved.c). Four
# environments each:
#   default   OPENBLAS_CORETYPE unset: the kernel cpuid's features call for
#             (read independently from /proc/cpuinfo), verified
#   fallback  MOONFLOW_BLAS_FAIL_CHECK names that kernel: its self-check
#             gives wrong results, the next kernel is chosen and says why
#   fault     the same with ":fault": the check dies of SIGSEGV in its child,
#             the process goes on (and leaves no core file)
#   user      OPENBLAS_CORETYPE=Haswell: respected, though the switch would
#             fail Haswell's check (a user's choice is not checked)
# In every one, matrix products (and an inverse, LAPACK) agree with a
# reference to a tolerance, never exact bits. `moonflow run` and the C
# program have no way to print the kernel: OpenBLAS's own OPENBLAS_VERBOSE=2
# line "Core: NAME" names the kernel it loaded (the last such line: the
# self-checks' children print theirs first). No binary links libopenblas.
# Prints TAP.
ROOT=${MOONFLOW_ROOT:-$(pwd)}
BUILD=${BUILD:-build/release}
BIN=${MOONFLOW_BIN:-$ROOT/$BUILD/moonflow}
MODULE=${MOONFLOW_MODULE:-$ROOT/$BUILD/moonflow.so}
LIB=$ROOT/$BUILD/libmoonflow.a
SANITIZE=${MOONFLOW_SANITIZE:-0}
PY=/usr/bin/python3
HERE=$ROOT/tests/blas
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0
check() { # check NAME EXPECTED ACTUAL
  n=$((n + 1))
  if [ "$2" = "$3" ]; then
    echo "ok $n - $1"
  else
    failed=$((failed + 1))
    echo "not ok $n - $1"
    printf 'expected: %s\ngot:      %s\n' "$2" "$3" | sed 's/^/# /'
  fi
}
matches() { # matches NAME EXTENDED-REGEX ACTUAL
  n=$((n + 1))
  if printf '%s\n' "$3" | grep -Eq "$2"; then
    echo "ok $n - $1"
  else
    failed=$((failed + 1))
    echo "not ok $n - $1"
    printf 'expected to match: %s\ngot: %s\n' "$2" "$3" | sed 's/^/# /'
  fi
}

# Each run starts from a clean slate: none of the variables set, whatever
# the host's environment holds; then the scenario's own.
clean() { env -u OPENBLAS_CORETYPE -u MOONFLOW_BLAS_FAIL_CHECK -u OPENBLAS_VERBOSE "$@"; }

# No binary names OpenBLAS as a library it needs: it is loaded at first use.
for f in "$BIN" "$MODULE"; do
  check "$(basename "$f") does not link libopenblas" "" \
    "$(readelf -d "$f" 2>&1 | grep NEEDED | grep -i blas)"
done

# The kernel the CPU's features call for, from /proc/cpuinfo (blas.c reads
# cpuid; this reads the kernel's view of it).
flags=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2) "
has() { case "$flags" in *" $1 "*) return 0 ;; esac; return 1; }
if has avx512f && has avx512bw && has avx512vl && has avx512dq; then
  # Cooperlake where the CPU has bfloat16, unless this OpenBLAS cannot be
  # forced to it (Debian's 0.3.21 on an Intel CPU it does not know)
  want_kernel="Cooperlake|SkylakeX"
  want_why="chosen for avx512f,avx512bw,avx512vl,avx512dq(,avx512_bf16)?; verified"
elif has avx2 && has fma; then
  want_kernel=Haswell
  want_why="chosen for avx2,fma; verified"
else
  want_kernel="Sandybridge|Prescott"
  want_why="chosen for (avx|sse3); verified"
fi

# The program: the line check.lua prints, and --version's.
program() { clean "$@" "$BIN" "$HERE/check.lua" 2>&1; }
out=$(program)
# A kernel this OpenBLAS cannot be forced to (Cooperlake in Debian's 0.3.21
# on an Intel CPU it does not know) is passed over first.
not_offered="(fell back from [A-Za-z]+: not offered by this OpenBLAS; )"
matches "default: the program chooses the kernel the CPU calls for, verified" \
  "^($want_kernel)\|$not_offered?$want_why\|right$" "$out"
default=${out%%|*}

# The scenarios: name, then the environment (as env arguments).
scenarios="default fallback fault user"
scenario_env() {
  case $1 in
    default) echo "" ;;
    fallback) echo "MOONFLOW_BLAS_FAIL_CHECK=$default" ;;
    fault) echo "MOONFLOW_BLAS_FAIL_CHECK=$default:fault" ;;
    user) echo "OPENBLAS_CORETYPE=Haswell MOONFLOW_BLAS_FAIL_CHECK=Haswell" ;;
  esac
}

for s in fallback fault user; do
  eval "line_$s=\$(cd \"\$tmp\" && program $(scenario_env $s))"
done
matches "fallback: a wrong self-check of $default falls back to the next kernel, and says so" \
  "^[A-Za-z]+\|$not_offered?fell back from $default: self-check failed \(wrong results\); chosen for [a-z0-9_,]+; (verified|unverified: every check failed)\|right$" \
  "$line_fallback"
case $line_fallback in "$default|"*) check "fallback: another kernel than $default" "not $default" "$default" ;; esac
matches "fault: a self-check that dies of SIGSEGV falls back, the process goes on" \
  "^[A-Za-z]+\|$not_offered?fell back from $default: self-check failed \(the check crashed\); chosen for [a-z0-9_,]+; (verified|unverified: every check failed)\|right$" \
  "$line_fault"
check "fault: the crashed check left no core file" "" "$(ls "$tmp" | grep -i core)"
check "user: OPENBLAS_CORETYPE=Haswell is respected, unchecked" \
  "Haswell|OPENBLAS_CORETYPE set by the user|right" "$line_user"
line_default=$out

# --version names the kernel and why.
for s in $scenarios; do
  eval "want=\$line_$s"
  k=${want%%|*}
  why=${want#*|}
  why=${why%|*}
  out=$(clean $(scenario_env $s) "$BIN" --version 2>&1 | sed -n 2p)
  case $out in
    "BLAS: OpenBLAS kernel $k ($why), /"*) check "$s: moonflow --version names $k and why" "" "" ;;
    *) check "$s: moonflow --version names $k and why" "BLAS: OpenBLAS kernel $k ($why), /..." "$out" ;;
  esac
done

# Stock lua5.4 with the module (an ASan module cannot load there: then the
# program's require, as tests/module/test_require.sh does).
if [ "$SANITIZE" = 1 ]; then
  lua_way="moonflow's require (sanitizer build)"
  stock() { clean "$@" "$BIN" -e "tf = nil; dofile('$HERE/check.lua')" 2>&1; }
else
  lua_way="stock lua5.4 + moonflow.so"
  stock() { clean "$@" LUA_CPATH="$(dirname "$MODULE")/?.so;;" lua5.4 "$HERE/check.lua" 2>&1; }
fi
for s in $scenarios; do
  eval "want=\$line_$s"
  check "$s: $lua_way: the same kernel, reason and right products" "$want" "$(stock $(scenario_env $s))"
done

# The Jupyter kernel.
for s in $scenarios; do
  eval "want=\$line_$s"
  check "$s: the Jupyter kernel: the same kernel, reason and right products" "$want" \
    "$(clean $(scenario_env $s) "$PY" "$HERE/kernel.py" 2>&1)"
done

# A saved program with a MatMul (8x64 by 64x48) for `moonflow run` and C.
clean "$BIN" -e "
local sm = require('moonflow.io.saved_model')
local npy = require('moonflow.io.npy')
local seed = 3
local function r() seed = (seed * 1103515245 + 12345) % 2147483648; return (seed % 65536) / 32768 - 1 end
local w, x = {}, {}
for i = 1, 64 do w[i] = {} for j = 1, 48 do w[i][j] = r() end end
for i = 1, 8 do x[i] = {} for j = 1, 64 do x[i][j] = r() end end
local m = tf.Module()
m.w = tf.Variable(tf.constant(w), {name = 'w'})
m.predict = tf.func(function(x) return tf.matmul(x, m.w) end,
  {input_signature = {tf.TensorSpec({tf.None, 64}, tf.float32, 'x')}})
sm.save(m, '$tmp/prog')
npy.write_npy('$tmp/w.npy', tf.constant(w))
npy.write_npy('$tmp/x.npy', tf.constant(x))
" >"$tmp/log" 2>&1
check "a script saves a program with a MatMul" "" "$(cat "$tmp/log")"

# compare FILE: "right" when the values in FILE (.npy, or run_saved's
# printed line) are x.w within the tolerance.
compare() {
  "$PY" - "$tmp" "$1" <<'EOF'
import sys, numpy as np
tmp, f = sys.argv[1], sys.argv[2]
x, w = np.load(tmp + "/x.npy").astype(np.float64), np.load(tmp + "/w.npy").astype(np.float64)
want, mag = x @ w, np.abs(x) @ np.abs(w)
if f.endswith(".npy"):
    got = np.load(f).astype(np.float64)
else:
    line = open(f).read().split()
    assert line[:2] == ["output_0:", "float32[8,48]"], line[:2]
    got = np.array([float(v) for v in line[2:]]).reshape(8, 48)
err = np.max(np.abs(got - want) / (mag + 1))
print("right" if err < 1e-4 else "wrong by %g" % err)
EOF
}

# `moonflow run`.
for s in $scenarios; do
  eval "want=\$line_$s"
  rm -rf "$tmp/out"
  clean $(scenario_env $s) OPENBLAS_VERBOSE=2 "$BIN" run "$tmp/prog" --input "x=$tmp/x.npy" \
    --output "$tmp/out" >"$tmp/log" 2>&1
  check "$s: moonflow run loads ${want%%|*} and computes right" "Core: ${want%%|*} right" \
    "$(grep '^Core: ' "$tmp/log" | tail -1) $(compare "$tmp/out/output_0.npy" 2>&1)"
done

# A C program from the public header and the library alone: the link line
# core/moonflow.h documents, without -lopenblas.
SANFLAGS=
[ "$SANITIZE" = 1 ] && SANFLAGS="-fsanitize=address,undefined"
cc -std=c11 $SANFLAGS -I"$ROOT/core" "$ROOT/examples/run_saved.c" -Wl,--whole-archive "$LIB" \
  -Wl,--no-whole-archive $(pkg-config --libs jansson libpcre2-8) -lz -lm -lpthread -ldl \
  -o "$tmp/run_saved" >"$tmp/log" 2>&1
check "examples/run_saved.c links without -lopenblas" "" "$(cat "$tmp/log")"
check "the C program does not link libopenblas" "" \
  "$(readelf -d "$tmp/run_saved" 2>&1 | grep NEEDED | grep -i blas)"
xs=$("$PY" -c "import numpy as np; print(','.join('%.9g' % v for v in np.load('$tmp/x.npy').ravel()))")
for s in $scenarios; do
  eval "want=\$line_$s"
  clean $(scenario_env $s) OPENBLAS_VERBOSE=2 "$tmp/run_saved" "$tmp/prog" serving_default "$xs" \
    >"$tmp/c.txt" 2>"$tmp/log"
  check "$s: a C program embedding moonflow.h loads ${want%%|*} and computes right" \
    "Core: ${want%%|*} right" "$(grep '^Core: ' "$tmp/log" | tail -1) $(compare "$tmp/c.txt" 2>&1)"
done

echo "1..$n"
[ "$failed" -eq 0 ]
