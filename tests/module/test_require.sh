#!/bin/sh
# test_require.sh — the Lua C module from the stock interpreter (API.md
# "Getting the module"): with only LUA_CPATH pointing at the directory of
# $MOONFLOW_MODULE, `lua5.4` can require("moonflow"), tf.__version__ is a
# string, and a small computation prints the right text. Prints TAP.
#
# With MOONFLOW_SANITIZE=1 the module is built with ASan and a stock
# interpreter cannot load it (the ASan runtime must come first), so every
# check runs through $MOONFLOW_BIN's require("moonflow") instead: each run
# still asserts something real, and the plan says which way it went.
ROOT=${MOONFLOW_ROOT:-$(pwd)}
BUILD=${BUILD:-build/release}
MODULE=${MOONFLOW_MODULE:-$ROOT/$BUILD/moonflow.so}
BIN=${MOONFLOW_BIN:-$ROOT/$BUILD/moonflow}
SANITIZE=${MOONFLOW_SANITIZE:-0}

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() {
  n=$((n + 1))
  failed=$((failed + 1))
  echo "not ok $n - $1"
  shift
  for line in "$@"; do printf '%s\n' "$line" | sed 's/^/# /'; done
}

# check NAME EXPECTED CODE: runs CODE (Lua, with `tf` bound) and compares its
# whole output (stdout and stderr) with EXPECTED.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ "$SANITIZE" = 1 ]; then
  MODE="through $BIN (sanitizer build: a stock lua5.4 cannot load an ASan module)"
  run_lua() {
    (cd "$tmp" && env -u LUA_PATH -u LUA_PATH_5_4 -u LUA_CPATH -u LUA_CPATH_5_4 -u MOONFLOW_LUA_DIR \
      "$BIN" -e "local tf = require('moonflow'); $1") >"$tmp/out" 2>&1
  }
else
  MODE="from stock lua5.4 with only LUA_CPATH"
  CPATH_DIR=$(dirname "$MODULE")
  # Only LUA_CPATH is set ("dir/?.so" and nothing else: no ";;" default
  # path, no LUA_PATH, no MOONFLOW_LUA_DIR); run from an unrelated
  # directory so nothing is found relative to the source tree's cwd.
  run_lua() {
    (cd "$tmp" && env -u LUA_PATH -u LUA_PATH_5_4 -u LUA_CPATH_5_4 -u MOONFLOW_LUA_DIR \
      LUA_CPATH="$CPATH_DIR/?.so" lua5.4 -e "local tf = require('moonflow'); $1") >"$tmp/out" 2>&1
  }
fi

check() {
  name=$1
  expected=$2
  code=$3
  run_lua "$code"
  status=$?
  got=$(cat "$tmp/out")
  if [ "$status" -eq 0 ] && [ "$got" = "$expected" ]; then
    ok "$name ($MODE)"
  else
    not_ok "$name ($MODE)" "exit status $status" "expected:" "$expected" "got:" "$got"
  fi
}

echo "1..8"

if [ "$SANITIZE" != 1 ] && [ ! -f "$MODULE" ]; then
  not_ok "the module exists at $MODULE" "build it with make $BUILD/moonflow.so"
else
  check 'require("moonflow") returns the tf table, twice the same' \
    'table true' \
    'print(type(tf) .. " " .. tostring(require("moonflow") == tf))'
fi

check 'tf.__version__ is a version string' \
  'string true' \
  'print(type(tf.__version__) .. " " .. tostring(tf.__version__:match("^%d+%.%d+%.%d+") ~= nil))'

check 'a small computation prints TF text' \
  "tf.Tensor([2 3], shape=(2,), dtype=int32)
tf.Tensor(
[[ 7. 10.]
 [15. 22.]], shape=(2, 2), dtype=float32)
6.0" \
  'print(tf.constant({1, 2}) + 1)
   local m = tf.constant({{1, 2}, {3, 4}}, tf.float32)
   print(tf.matmul(m, m))
   print(tf.reduce_sum(tf.ones({2, 3})):numpy())'

check 'errors are typed objects' \
  'InvalidArgumentError: Integer division by zero [Op:FloorDiv]' \
  'local ok, e = pcall(function() return tf.constant(1) // 0 end)
   print(not ok and tf.errors.is(e) and tostring(e))'

# Lessons start `moonflow` by this path: make repl puts nothing on PATH.
check 'tf.config.program_path() is the moonflow program of this build' \
  "$(realpath "$BIN")" \
  'print(tf.config.program_path())'

check 'tf.print writes to stdout' \
  'Executing with 10' \
  'tf.print("Executing with", tf.constant(10))'

# The stock interpreter runs its collector in generational mode (lua.c
# switches to it); eager loops must stay bounded there too.
check 'an eager loop of 3,000 1 MiB tensors keeps VmRSS under 600 MB' \
  'bounded' \
  'local function rss()
     for l in io.lines("/proc/self/status") do
       local v = l:match("^VmRSS:%s*(%d+)") if v then return tonumber(v) end
     end
   end
   local peak = 0
   for i = 1, 3000 do
     local x = tf.zeros({262144}) + i
     if i % 50 == 0 then peak = math.max(peak, rss()) end
   end
   print(peak < 600 * 1024 and "bounded" or ("peak VmRSS " .. peak // 1024 .. " MB"))'

# The thread pool's workers outlive lua_close, which unloads C modules: a
# worker still polling for work in the module's code when the interpreter
# exited crashed it (two times in three, right after a matmul created the
# pool). The module is linked to stay loaded; 20 exits right after work
# must all be clean.
exits=0
for i in $(seq 1 20); do
  run_lua 'local m = tf.constant({{1, 2}, {3, 4}}, tf.float32)
           local y = tf.matmul(m, m) + tf.ones({2, 2})
           io.write(tostring(y:numpy()[2][2]))'
  status=$?
  [ "$status" -eq 0 ] && [ "$(cat "$tmp/out")" = "23.0" ] && exits=$((exits + 1))
done
if [ "$exits" -eq 20 ]; then
  ok "the interpreter exits cleanly right after work, 20 times in 20 ($MODE)"
else
  not_ok "the interpreter exits cleanly right after work, 20 times in 20 ($MODE)" \
    "$exits clean exits of 20; last output: $(cat "$tmp/out")"
fi

[ "$failed" -eq 0 ]
