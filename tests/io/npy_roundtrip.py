"""npy_roundtrip.py — .npy/.npz between moonflow and Debian's NumPy, both
ways. Prints TAP. Run by test_npy.sh with MOONFLOW_BIN set."""
import os
import subprocess
import sys
import tempfile

import numpy as np

BIN = os.environ.get("MOONFLOW_BIN", "build/release/moonflow")
n = 0
failed = 0


def check(name, cond, detail=""):
    global n, failed
    n += 1
    if cond:
        print(f"ok {n} - {name}")
    else:
        failed += 1
        print(f"not ok {n} - {name}")
        for line in str(detail).splitlines():
            print("# " + line)


def mf(code):
    r = subprocess.run([BIN, "-e", 'local io = require("moonflow.io.npy")\n' + code],
                       capture_output=True, text=True, timeout=120)
    return r.returncode, r.stdout + r.stderr


d = tempfile.mkdtemp()
arrays = {
    "f32": np.arange(6, dtype=np.float32).reshape(2, 3) / 3,
    "f64": np.array([[1.5, -2.25], [np.inf, 1e300]], dtype=np.float64),
    "i32": np.array([-(2**31), 2**31 - 1, 7], dtype=np.int32),
    "i64": np.array([-(2**63), 2**63 - 1], dtype=np.int64),
    "bool": np.array([[True, False], [False, True]]),
    "scalar": np.array(3.5, dtype=np.float32),
    "empty": np.zeros((2, 0, 3), dtype=np.float64),
    "bigend": np.array([1.0, 2.5, -3.0], dtype=">f8"),
    "bigint": np.array([1, -2, 300000], dtype=">i4"),
    # the small and half dtypes (every bit pattern kept)
    "f16": np.array([0.1, -65504, np.inf, 6e-8, -0.0], dtype=np.float16),
    "i8": np.array([-128, 127, 0], dtype=np.int8),
    "i16": np.array([-32768, 32767], dtype=np.int16),
    "u8": np.array([[0, 255], [7, 128]], dtype=np.uint8),
    "u16": np.array([65535, 1], dtype=np.uint16),
    "u32": np.array([4294967295, 0], dtype=np.uint32),
    "u64": np.array([18446744073709551615, 5], dtype=np.uint64),
    "bigf16": np.array([1.5, -2.0], dtype=">f2"),
}
# numpy writes, moonflow reads, moonflow writes back, numpy compares.
for name, a in arrays.items():
    src = os.path.join(d, name + ".npy")
    back = os.path.join(d, name + ".back.npy")
    np.save(src, a)
    rc, out = mf(f'local t = io.read_npy("{src}")\nio.write_npy("{back}", t)\n'
                 f'print(t.dtype.name, #t.shape)')
    ok = rc == 0 and os.path.exists(back)
    b = np.load(back) if ok else None
    want = a.astype(a.dtype.newbyteorder("=")) if a.dtype.byteorder == ">" else a
    check(f"numpy -> moonflow -> numpy: {name}",
          ok and b.dtype == want.dtype and b.shape == want.shape and np.array_equal(b, want),
          out if not ok else f"{b!r} vs {want!r}")

# A value computed by moonflow reads in numpy with the same contents.
path = os.path.join(d, "made.npy")
rc, out = mf(f'io.write_npy("{path}", tf.reshape(tf.range(12), {{3, 4}}) * 2)')
check("moonflow-made tensor reads in numpy",
      rc == 0 and np.array_equal(np.load(path), np.arange(12).reshape(3, 4) * 2), out)

# Version 2.0 headers (numpy writes them when asked).
v2 = os.path.join(d, "v2.npy")
with open(v2, "wb") as f:
    np.lib.format.write_array(f, np.array([1, 2, 3], dtype=np.int64), version=(2, 0))
rc, out = mf(f'local t = io.read_npy("{v2}"); print(t.shape[0], t:numpy()[3])')
check("version 2.0 header reads", rc == 0 and out.split()[:2] == ["3", "3"], out)

# Fortran order, string and unsupported dtypes: clear errors.
for name, a, want in [("fortran", np.asfortranarray(np.ones((2, 3))), "Fortran order"),
                      ("unicode", np.array(["ab", "c"]), "string type"),
                      ("complex64", np.array([1, 2], dtype=np.complex64), "'<c8' has no moonflow dtype")]:
    p = os.path.join(d, name + ".npy")
    np.save(p, a)
    rc, out = mf(f'local ok, e = pcall(io.read_npy, "{p}"); print(ok, e.type, e.message)')
    check(f"{name} refused with a clear error", rc == 0 and out.startswith("false") and want in out, out)

rc, out = mf(f'local ok, e = pcall(io.write_npy, "{d}/s.npy", tf.constant("x")); print(ok, e.type)')
check("writing a string tensor is a TypeError", rc == 0 and out.split()[:2] == ["false", "TypeError"], out)

# Truncated data and a lying shape are InvalidArgumentError.
good = open(os.path.join(d, "f32.npy"), "rb").read()
for name, data in [("truncated data", good[:-1]), ("extra data", good + b"\0"),
                   ("truncated header", good[:20]), ("bad magic", b"X" + good[1:])]:
    p = os.path.join(d, "bad.npy")
    open(p, "wb").write(data)
    rc, out = mf(f'local ok, e = pcall(io.read_npy, "{p}"); print(ok, e.type)')
    check(f"{name} is an InvalidArgumentError",
          rc == 0 and out.split()[:2] == ["false", "InvalidArgumentError"], out)

# .npz, stored and deflated.
for fn, label in [(np.savez, "stored"), (np.savez_compressed, "deflated")]:
    p = os.path.join(d, label + ".npz")
    fn(p, w=np.arange(5, dtype=np.float32), b=np.array([[True], [False]]), s=np.int64(9))
    rc, out = mf(f'local z = io.read_npz("{p}")\n'
                 f'print(z.w:numpy()[5], z.b.shape[0], z.b.shape[1], z.s:numpy(), z.w.dtype.name)')
    check(f".npz ({label}) reads every member", rc == 0 and out.split() == ["4.0", "2", "1", "9", "float32"], out)

print(f"1..{n}")
sys.exit(1 if failed else 0)
