#!/bin/sh
# test_saved_model.sh — tf.saved_model.save in one process, load in a fresh
# one without the Lua source; signatures checked; gradients through loaded
# functions; tf.train.Checkpoint; tampered directories refused. Prints TAP.
ROOT=${MOONFLOW_ROOT:-$(pwd)}
BIN=${MOONFLOW_BIN:-$ROOT/build/release/moonflow}
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
run() { "$BIN" -e "local sm = require('moonflow.io.saved_model') $1" 2>&1; }

# The saving program (its source is not kept anywhere the loader sees).
cat >"$tmp/save.lua" <<'LUA'
local sm = require("moonflow.io.saved_model")
local Model = tf.Module:extend("Model")
function Model.init(self)
  self.w = tf.Variable(tf.constant({{1.0, 2.0}, {3.0, 4.0}}), {name = "w"})
  self.b = tf.Variable(tf.constant({0.5, -0.5}), {name = "b"})
  self.steps = tf.Variable(7, {name = "steps", trainable = false})
end
local m = Model()
m.predict = tf.func(function(x) return tf.matmul(x, m.w) + m.b end,
  {input_signature = {tf.TensorSpec({tf.None, 2}, tf.float32, "x")}})
m.pair = tf.func(function(x, k)
  local s = tf.cond(k > 0, function() return x * 2.0 end, function() return -x end)
  return {sum = tf.reduce_sum(s), both = {s, k}}
end)
m.pair(tf.constant({1.0, 2.0}), tf.constant(1))
m.untraced = 1
sm.save(m, arg[1])
print(m.predict(tf.constant({{1.0, 1.0}})):numpy()[1][2])
LUA
out=$("$BIN" "$tmp/save.lua" "$tmp/m" 2>&1)
check "save a module" "5.5" "$out"
rm "$tmp/save.lua"

out=$(run "local m = sm.load('$tmp/m') print(m.predict(tf.constant({{1.0, 1.0}})):numpy()[1][2])")
check "load in a fresh process: same result" "5.5" "$out"

out=$(run "local m = sm.load('$tmp/m') print(m.signatures.serving_default ~= nil, #m.variables(), #m.trainable_variables())")
check "signatures and variables restored" "true	3	2" "$out"

out=$(run "local m = sm.load('$tmp/m')
local r = m.pair(tf.constant({1.0, 2.0}), tf.constant(1))
local r2 = m.pair(tf.constant({1.0, 2.0}), tf.constant(-1))
print(r.sum:numpy(), r.both[2]:numpy(), r2.sum:numpy())")
check "nested results and cond survive" "6.0	1	-3.0" "$out"

out=$(run "local m = sm.load('$tmp/m') local ok, e = pcall(m.predict, tf.constant({{1, 1}})) print(e.type, (e.message:match('^Binding inputs to tf.func failed') ~= nil))")
check "a call that does not fit the signature: TF's binding error" "TypeError	true" "$out"

out=$(run "local m = sm.load('$tmp/m')
local vars = m.trainable_variables()
for step = 1, 3 do
  local tape = tf.GradientTape()
  local loss = tf.reduce_sum(m.predict(tf.constant({{1.0, 2.0}})))
  tape:stop()
  local g = tape:gradient(loss, vars)
  for i, v in ipairs(vars) do v:assign_sub(g[i] * 0.5) end
end
print(m.predict(tf.constant({{1.0, 1.0}})):numpy()[1][1])")
# loss gradient: db = 1, dw = x^T: 3 steps of 0.5: b -1.5, w col sums -4.5 => 4.5 - 1.5 - 4.5
check "loaded variables train through the loaded function" "-1.5" "$out"

out=$(/usr/bin/python3 -c "import numpy as np, sys, glob; print(sorted(float(np.load(f).sum()) for f in glob.glob(sys.argv[1] + '/variables/*.npy')))" "$tmp/m" 2>&1)
check "numpy reads the saved variables" "[0.0, 7.0, 10.0]" "$out"

out=$(run "local f = tf.func(function(x) return x end) local ok, e = pcall(sm.save, f, '$tmp/none') print(e.type, e.message:match('never been traced') ~= nil)")
check "an untraced tf.func without input_signature is an error" "ValueError	true" "$out"

# A tf.func with two traces: the loaded function dispatches on the arguments.
out=$(run "local f = tf.func(function(x) return x * 2 end)
f(tf.constant({1.0, 2.0})) f(tf.constant(3))
sm.save(f, '$tmp/f2')")
out=$(run "local m = sm.load('$tmp/f2')
local name
for k, v in pairs(m) do if k ~= 'signatures' and k ~= '_variables' and type(v) == 'function' and k:sub(-2) ~= '_1' and k ~= 'variables' and k ~= 'trainable_variables' then name = k end end
print(m[name](tf.constant({1.0, 2.0})):numpy()[2], m[name](tf.constant(4)):numpy())
local ok, e = pcall(m[name], tf.constant({true}))
print(e.type, e.message:match('^Could not find matching concrete function') ~= nil)")
check "a loaded tf.func with two traces dispatches on the arguments" "4.0	8
ValueError	true" "$out"

# Checkpoints: write, change, read back.
out=$(run "local v = tf.Variable(tf.constant({1.0, 2.0}))
local ckpt = tf.Module() ckpt.v = v
local c = sm.Checkpoint{model = ckpt, step = tf.Variable(3)}
c:write('$tmp/ck')
v:assign(tf.constant({9.0, 9.0})) c._objects.step:assign(0)
c:read('$tmp/ck')
print(v:numpy()[2], c._objects.step:numpy())")
check "Checkpoint write/read restores variables" "2.0	3" "$out"

# Tampered directories: clean errors.
cp -r "$tmp/m" "$tmp/bad1"
sed -i 's/"file": "0_/"file": "..\/..\/0_/' "$tmp/bad1/saved_model.json"
out=$(run "local ok, e = pcall(sm.load, '$tmp/bad1') print(e.type)")
check "a variable path leaving the directory is refused" "InvalidArgumentError" "$out"

cp -r "$tmp/m" "$tmp/bad2"
f=$(ls "$tmp/bad2/variables" | head -1)
/usr/bin/python3 -c "import numpy as np, sys; np.save(sys.argv[1], np.zeros(5, np.float32))" "$tmp/bad2/variables/$f"
out=$(run "local ok, e = pcall(sm.load, '$tmp/bad2') print(e.type, e.message:match('says') ~= nil)")
check "a variable file of another shape is refused" "InvalidArgumentError	true" "$out"

cp -r "$tmp/m" "$tmp/bad3"
sed -i 's/"op": "MatMul"/"op": "EvilOp"/' "$tmp/bad3/saved_model.json"
out=$(run "local ok, e = pcall(sm.load, '$tmp/bad3') print(e.type, e.message:match('EvilOp') ~= nil)")
check "an unknown op is refused with its name" "NotFoundError	true" "$out"

# A tf.func calling another: the call node and the callee's graph are saved;
# the loaded function computes the same and differentiates through the call.
cat >"$tmp/save_calls.lua" <<'LUA'
local sm = require("moonflow.io.saved_model")
local m = tf.Module()
m.w = tf.Variable(3.0, {name = "w"})
local inner = tf.func(function(x) return x * x * m.w end)
m.outer = tf.func(function(x) return inner(x) + 1.0 end,
  {input_signature = {tf.TensorSpec({}, tf.float32, "x")}})
sm.save(m, arg[1])
LUA
"$BIN" "$tmp/save_calls.lua" "$tmp/calls" >/dev/null 2>&1
rm -f "$tmp/save_calls.lua"
out=$(grep -c '"op": "PartitionedCall"\|"op": "StatefulPartitionedCall"' "$tmp/calls/saved_model.json" 2>&1)
check "a call of a nested tf.func is saved as a call node" "1" "$out"
out=$(run "local m = sm.load('$tmp/calls') local x = tf.constant(2.0)
local tape = tf.GradientTape() tape:watch(x) local y = m.outer(x) tape:stop()
print(y:numpy(), tape:gradient(y, x):numpy())")
check "the loaded function calls it and differentiates through it" "13.0	12.0" "$out"

echo "1..$n"
[ "$failed" -eq 0 ]
