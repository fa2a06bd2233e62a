"""onnx_check.py — tf.onnx.export checked by Debian's python3-onnx: the model
passes onnx.checker.check_model(full_check=True) and onnx's reference
model, run by onnx_eval.py (NumPy, from the operator specs: Debian's onnx
1.12 has no reference evaluator and onnxruntime is not packaged), computes
what moonflow computes.
Prints TAP."""
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from onnx_eval import run_model  # noqa: E402

BIN = os.environ.get("MOONFLOW_BIN", "build/release/moonflow")
n = 0
failed = 0


def check(name, cond, detail=""):
    global n, failed
    n += 1
    print(("ok" if cond else "not ok") + f" {n} - {name}")
    if not cond:
        failed += 1
        for line in str(detail).splitlines()[:30]:
            print("# " + line)


def mf(code):
    r = subprocess.run([BIN, "-e", 'local onnx = require("moonflow.io.onnx")\nlocal io = require("moonflow.io.npy")\n' + code],
                       capture_output=True, text=True, timeout=120)
    return r.returncode, r.stdout + r.stderr


d = tempfile.mkdtemp()
rng = np.random.default_rng(0)

CASES = {
    "dense + relu + softmax (variables as initializers)": ("""
local w = tf.Variable(W)
local b = tf.Variable(B)
local f = tf.func(function(x) return tf.nn.softmax(tf.nn.relu(tf.matmul(x, w) + b)) end)
""", {"x": rng.standard_normal((3, 4)).astype(np.float32)},
        {"W": rng.standard_normal((4, 5)).astype(np.float32), "B": rng.standard_normal(5).astype(np.float32)}),
    "elementwise, comparisons, select, cast": ("""
local f = tf.func(function(x, y)
  local z = tf.exp(-tf.abs(x)) * tf.sqrt(tf.square(y) + 1.0) - tf.tanh(x) / (tf.sigmoid(y) + 0.5)
  local m = tf.where(x > y, z, tf.maximum(x, y))
  return m, tf.cast(x >= y, tf.int32), tf.minimum(x, 0.5) ^ 2.0
end)
""", {"x": rng.standard_normal((2, 3)).astype(np.float32), "y": rng.standard_normal((2, 3)).astype(np.float32)}, {}),
    "reductions and shape ops": ("""
local f = tf.func(function(x)
  local s = tf.reduce_sum(x, 1)
  local m = tf.reduce_mean(x, 0, {keepdims = true})
  local t = tf.transpose(tf.reshape(x, {3, 2, 2}), {1, 0, 2})
  local c = tf.concat({x, x * 2.0}, 0)
  return s, m, t, c, tf.reduce_max(x), tf.expand_dims(s, 0), tf.shape(c)
end)
""", {"x": rng.standard_normal((3, 4)).astype(np.float32)}, {}),
    "Conv2D (NHWC) with SAME padding and strides": ("""
local k = tf.Variable(K)
local f = tf.func(function(x) return tf.nn.conv2d(x, k, 2, "SAME") end)
""", {"x": rng.standard_normal((1, 5, 5, 2)).astype(np.float32)},
        {"K": rng.standard_normal((3, 3, 2, 4)).astype(np.float32)}),
    "cond becomes If": ("""
local f = tf.func(function(x, p)
  return tf.cond(p > 0, function() return x * 2.0 end, function() return -x end)
end)
""", {"x": np.array([1.0, -2.0], np.float32), "p": np.array(1, np.int32)}, {}),
    "while_loop becomes Loop": ("""
local f = tf.func(function(x)
  local i, acc = tf.while_loop(function(i, acc) return i < 5 end,
    function(i, acc) return i + 1, acc * 1.5 end, {tf.constant(0), x})
  return acc, i
end)
""", {"x": np.array([1.0, 2.0], np.float32)}, {}),
    "a tf.func called inside another is inlined": ("""
local w = tf.Variable(W)
local inner = tf.func(function(a) return tf.tanh(a) * w end)
local f = tf.func(function(x) return inner(x) + inner(x * 2.0) end)
""", {"x": np.array([1.0, -2.0], np.float32)}, {"W": np.array([0.5, 3.0], np.float32)}),
    "a module whose __call is a class-level tf.func (exported as the module)": ("""
local Dense = tf.Module:extend("Dense")
function Dense:init(w) self.w = tf.Variable(w) end
Dense.__call = tf.func(function(self, x) return tf.nn.relu(tf.matmul(x, self.w)) end)
local f = Dense(W)
""", {"x": rng.standard_normal((2, 3)).astype(np.float32)}, {"W": rng.standard_normal((3, 2)).astype(np.float32)}),
    "a tf.custom_gradient exports its forward computation": ("""
local log1pexp = tf.custom_gradient(function(x)
  local e = tf.exp(x)
  return tf.math.log(1 + e), function(dy) return dy * (1 - 1 / (1 + e)) end
end)
local f = tf.func(function(x) return log1pexp(x) * 2.0 end)
""", {"x": np.array([0.5, -1.0, 3.0], np.float32)}, {}),
    "float16 and uint8 (the small dtypes' ONNX codes)": ("""
local f = tf.func(function(x, u)
  local h = tf.cast(x, tf.float16)
  return h * h + tf.constant(0.5, tf.float16), u + tf.constant(3, tf.uint8), tf.cast(u, tf.int32)
end)
""", {"x": np.array([0.1, 1.5, 300.0], np.float32), "u": np.array([1, 200, 254], np.uint8)}, {}),
}

for name, (body, inputs, consts) in CASES.items():
    tag = str(n)
    args = []
    pre = []
    for k, v in list(inputs.items()) + list(consts.items()):
        p = os.path.join(d, f"{tag}_{k}.npy")
        np.save(p, v)
        pre.append(f'local {k} = io.read_npy("{p}")')
    call = ", ".join(inputs.keys())
    model = os.path.join(d, f"{tag}.onnx")
    code = "\n".join(pre) + body + f"""
local outs = table.pack(f({call}))
for i = 1, outs.n do io.write_npy("{d}/{tag}_out" .. (i - 1) .. ".npy", outs[i]) end
onnx.export(f, "{model}")
print(outs.n)
"""
    rc, out = mf(code)
    if rc != 0:
        check(f"{name}: exports", False, out)
        continue
    # the count printed last on stdout (stderr, after it, may hold a warning)
    nout = int([line for line in out.splitlines() if line.strip().isdigit()][-1])
    try:
        m = onnx.load(model)
        onnx.checker.check_model(m, full_check=True)
        check(f"{name}: check_model(full_check=True)", True)
    except Exception as e:  # noqa: BLE001
        check(f"{name}: check_model(full_check=True)", False, e)
        continue
    try:
        got = run_model(m, dict(inputs))
        want = [np.load(os.path.join(d, f"{tag}_out{i}.npy")) for i in range(nout)]
        same = len(got) == len(want) and all(
            g.shape == w.shape and g.dtype == w.dtype and np.allclose(g, w, rtol=1e-5, atol=1e-5)
            for g, w in zip(got, want))
        check(f"{name}: the ONNX model computes what moonflow does", same,
               "\n".join(f"{g!r}\nvs\n{w!r}" for g, w in zip(got, want)))
    except Exception as e:  # noqa: BLE001
        check(f"{name}: the ONNX model computes what moonflow does", False, e)

rc, out = mf('local f = tf.func(function(x) return tf.random.uniform({2}) + x end)\n'
             'f(tf.constant({1.0, 2.0}))\n'
             f'local ok, e = pcall(onnx.export, f, "{d}/bad.onnx") print(e.type, e.message)')
check("an op without ONNX translation is an error naming it",
      rc == 0 and "UnimplementedError" in out and "RandomUniform" in out, out)

rc, out = mf('local g = tf.custom_gradient(function(x) return x * 2.0, function(dy) return dy end end)\n'
             'local f = tf.func(function(x) return g(x) end)\n'
             'f(tf.constant({1.0, 2.0}))\n'
             f'onnx.export(f, "{d}/cg.onnx")')
check("a custom gradient's export says the gradient is not exported",
      rc == 0 and "WARNING: tf.onnx.export: 'f' uses tf.custom_gradient (1 node): ONNX has no gradients, "
      "so the model holds the forward computation only" in out, out)

print(f"1..{n}")
sys.exit(1 if failed else 0)
