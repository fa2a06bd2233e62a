#!/bin/sh
# test_run.sh — a program saved by a Lua script, run without Lua: by
# `moonflow run` (.npy in, .npy out, checked with NumPy) and by the C
# example examples/run_saved.c, built here from core/moonflow.h and
# libmoonflow.a alone. Prints TAP.
ROOT=${MOONFLOW_ROOT:-$(pwd)}
BUILD=${BUILD:-build/release}
BIN=${MOONFLOW_BIN:-$ROOT/$BUILD/moonflow}
LIB=$ROOT/$BUILD/libmoonflow.a
PY=/usr/bin/python3
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

"$BIN" -e "
local sm = require('moonflow.io.saved_model')
local m = tf.Module()
m.w = tf.Variable(tf.constant({{1.0, 2.0}, {3.0, 4.0}}), {name = 'w'})
m.predict = tf.func(function(x) return tf.nn.relu(tf.matmul(x, m.w) - 5.0) end,
  {input_signature = {tf.TensorSpec({tf.None, 2}, tf.float32, 'x')}})
sm.save(m, '$tmp/prog')
tf.io = require('moonflow.io.npy')
tf.io.write_npy('$tmp/want.npy', m.predict(tf.constant({{1.0, 1.0}, {2.0, 0.5}})))
" >"$tmp/log" 2>&1
check "a script saves the program" "" "$(cat "$tmp/log")"

$PY -c "import numpy as np; np.save('$tmp/x.npy', np.array([[1, 1], [2, 0.5]], np.float32))"
"$BIN" run "$tmp/prog" --input "x=$tmp/x.npy" --output "$tmp/out" >"$tmp/log" 2>&1
check "moonflow run exits 0" "0" "$?"
out=$($PY -c "import numpy as np; a = np.load('$tmp/out/output_0.npy'); b = np.load('$tmp/want.npy'); print(a.dtype, a.shape, np.array_equal(a, b), a.tolist())" 2>&1)
check "moonflow run writes the outputs moonflow computes" "float32 (2, 2) True [[0.0, 1.0], [0.0, 1.0]]" "$out"

out=$("$BIN" run "$tmp/prog" --signature predict --input "x=$tmp/x.npy" 2>&1 | head -1)
check "moonflow run prints outputs without --output" "output_0: tf.Tensor(" "$out"

$PY -c "import numpy as np; np.save('$tmp/bad.npy', np.zeros((2, 3), np.float32))"
out=$("$BIN" run "$tmp/prog" --input "x=$tmp/bad.npy" 2>&1; echo "rc=$?")
check "a wrong input shape: a clean error and status 1" "moonflow run: InvalidArgumentError: predict: argument 'x' is float32 (2, 3) but the function takes float32 (None, 2)
rc=1" "$out"

out=$("$BIN" run "$tmp/prog" --signature nope --input "x=$tmp/x.npy" 2>&1; echo "rc=$?")
check "an unknown signature is NotFoundError" "moonflow run: NotFoundError: the saved program has no signature or function 'nope'
rc=1" "$out"

# A tf.func defined on the module's class (the modules guide's
# `@tf.function def __call__`): saved, not dropped, and run by its name.
"$BIN" -e "
local sm = require('moonflow.io.saved_model')
local Scale = tf.Module:extend('Scale')
function Scale:init() self.k = tf.Variable(3.0, {name = 'k'}) end
Scale.__call = tf.func(function(self, x) return x * self.k end,
  {input_signature = {tf.TensorSpec({tf.None, 2}, tf.float32, 'x')}})
sm.save(Scale(), '$tmp/cls')
" >"$tmp/log" 2>&1
check "a module whose __call is a class-level tf.func saves" "" "$(cat "$tmp/log")"
"$BIN" run "$tmp/cls" --signature __call --input "x=$tmp/x.npy" --output "$tmp/cls_out" >"$tmp/log" 2>&1
check "moonflow run runs the class-level __call" "0" "$?"
out=$($PY -c "import numpy as np; print(np.load('$tmp/cls_out/output_0.npy').tolist())" 2>&1)
check "with the instance's variable" "[[3.0, 3.0], [6.0, 1.5]]" "$out"

# The C example, built from the public header and the library alone (with
# the sanitizers when the library has them).
SANFLAGS=
[ "${MOONFLOW_SANITIZE:-0}" = 1 ] && SANFLAGS="-fsanitize=address,undefined"
cc -std=c11 $SANFLAGS -I"$ROOT/core" "$ROOT/examples/run_saved.c" -Wl,--whole-archive "$LIB" -Wl,--no-whole-archive \
  $(pkg-config --libs jansson libpcre2-8) -lz -lm -lpthread -ldl -o "$tmp/run_saved" 2>"$tmp/log"
check "examples/run_saved.c builds against core/moonflow.h" "" "$(cat "$tmp/log")"
out=$("$tmp/run_saved" "$tmp/prog" 2>&1 | sort)
check "the example lists signatures" "predict(x: float32[-1,2]) -> 1 output
serving_default(x: float32[-1,2]) -> 1 output" "$out"
out=$("$tmp/run_saved" "$tmp/prog" serving_default 1,1,2,0.5 2>&1)
check "the example calls the program" "output_0: float32[2,2] 0 1 0 1" "$out"
out=$("$tmp/run_saved" "$tmp/nowhere" 2>&1; echo "rc=$?")
check "the example reports errors as status + message" "run_saved: NotFoundError: cannot open saved program '$tmp/nowhere': No such file or directory
rc=1" "$out"

# A function traced on Lua values (the modules guide calls its model with
# Lua lists): each trace has those values built into its graph, so outside
# Lua it is called with its tensor inputs only, here none; the Lua values
# are what the Lua loader matches calls against.
"$BIN" -e "
local sm = require('moonflow.io.saved_model')
local M = tf.Module:extend('M')
function M:init() self.k = tf.Variable(2.0, {name = 'k'}) end
M.__call = tf.func(function(self, x, scale) return tf.constant(x) * self.k * scale end)
local m = M()
m({{1.0, 2.0}}, 3)
m({{1.0, 2.0}, {3.0, 4.0}}, 1)
sm.save(m, '$tmp/lit')
" >"$tmp/log" 2>&1
check "a module traced on Lua values saves" "" "$(cat "$tmp/log")"
out=$("$BIN" run "$tmp/lit" 2>&1; echo "rc=$?")
check "moonflow run calls its first trace with no inputs: the Lua values are in the graph" "output_0: tf.Tensor([[ 6. 12.]], shape=(1, 2), dtype=float32)
rc=0" "$out"
out=$("$BIN" run "$tmp/lit" --signature __call_1 --output "$tmp/lit_out" >/dev/null 2>&1; $PY -c "import numpy as np; print(np.load('$tmp/lit_out/output_0.npy').tolist())" 2>&1)
check "and the second trace by its name" "[[2.0, 4.0], [6.0, 8.0]]" "$out"
out=$("$tmp/run_saved" "$tmp/lit" 2>&1 | sort)
check "the example lists them with no arguments" "__call() -> 1 output
serving_default() -> 1 output" "$out"

echo "1..$n"
[ "$failed" -eq 0 ]
