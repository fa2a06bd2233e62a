"""References for tests/diff/ops/dtypes.lua: NumPy's casts on x86 (which
TF's Cast shares, float64 -> float16 going through float32 as Eigen's
half(double) does), ndarray.view for Bitcast, and NumPy's float16 and
wrapping integer arithmetic for the binary ops and reductions."""
import numpy as np
from opref import DT, Approx, LooseZero, norm_axis, raise_if


def _cast(a, x):
    dst = np.dtype(DT[a["dst"]])
    if dst == np.float16 and x.dtype not in (np.float16, np.float32, np.bool_):
        x = x.astype(np.float32)  # Eigen converts to half through float
    if dst == np.uint32 and x.dtype.kind == "f":
        # static_cast through the 64-bit conversion, as NumPy's scalar loop
        # (its SIMD loop gives other values out of range)
        return x.astype(np.int64).astype(np.uint32)
    return x.astype(dst)


def _bitcast(a, x):
    out = np.dtype(DT[a["type"]])
    i, o = x.dtype.itemsize, out.itemsize
    if i >= o:
        v = x.reshape(x.shape + (1,)).view(out)
        return v.reshape(x.shape) if i == o else v
    raise_if(x.ndim == 0 or x.shape[-1] != o // i)
    return np.ascontiguousarray(x).view(out).reshape(x.shape[:-1])


def _binary(fn):
    def ref(a, x, y):
        z = np.asarray(fn(x, y)).astype(np.bool_ if fn in (np.equal, np.less, np.greater_equal)
                                        else x.dtype)
        # which zero an extreme of -0 and 0 is, TF leaves to the kernel
        return LooseZero(z) if fn in (np.maximum, np.minimum) else z
    return ref


def _reduce(fn):
    def ref(a, x):
        ax = norm_axis(a["axis"], x.ndim)
        if x.dtype == np.float16 and fn is np.sum:
            w = x.astype(np.float64)
            return Approx(np.sum(w, axis=ax), np.float16, 1, np.sum(np.abs(w), axis=ax))
        if fn is np.sum:
            return np.sum(x, axis=ax, dtype=x.dtype)
        return LooseZero(fn(x, axis=ax))
    return ref


REF = {
    "dt_cast": _cast, "dt_bitcast": _bitcast,
    "dt_AddV2": _binary(np.add), "dt_Sub": _binary(np.subtract), "dt_Mul": _binary(np.multiply),
    "dt_Maximum": _binary(np.maximum), "dt_Minimum": _binary(np.minimum),
    "dt_Equal": _binary(np.equal), "dt_Less": _binary(np.less),
    "dt_GreaterEqual": _binary(np.greater_equal),
    "dt_Sum": _reduce(np.sum), "dt_Max": _reduce(np.max), "dt_Min": _reduce(np.min),
}


def _division(op):
    """TF's integer quotients and remainders: floor (Python's) or toward
    zero (C's); a zero divisor anywhere is InvalidArgumentError."""
    def ref(a, x, y):
        np.broadcast(x, y)
        if x.dtype == np.float16:
            with np.errstate(all="ignore"):
                if op == "FloorDiv":
                    return np.floor(x / y)  # the float16 quotient, then floor
                # which zero a remainder of 0 is (fmod's sign, NumPy's
                # divisor's) TF leaves to fmod
                return LooseZero(np.mod(x, y))
        raise_if(np.broadcast(x, y).size > 0 and np.any(y == 0))
        with np.errstate(all="ignore"):
            if op == "FloorDiv":
                z = np.floor_divide(x, y)
            elif op == "FloorMod":
                z = np.mod(x, y)
            elif op == "TruncateMod":
                z = np.fmod(x, y)
            else:
                q = np.floor_divide(x, y)
                z = q + ((np.mod(x, y) != 0) & ((x < 0) != (y < 0))).astype(q.dtype)
        return np.asarray(z).astype(x.dtype)
    return ref


def _mean(a, x):
    ax = norm_axis(a["axis"], x.ndim)
    n = x.shape[ax] if isinstance(ax, int) else int(np.prod([x.shape[i] for i in ax], dtype=np.int64))
    if x.dtype == np.uint64:
        s = np.sum(x, axis=ax, dtype=np.uint64)
        return s // np.uint64(n) if n else np.zeros_like(s)
    s = np.sum(x.astype(np.int64), axis=ax)
    q = np.abs(s) // n * np.sign(s) if n else np.zeros_like(s)  # C's division
    return np.asarray(q).astype(x.dtype)


def _range(a, s, l, d):
    dt = s.dtype
    if dt == np.float16:
        size = int(np.ceil(np.abs((l - s) / d)))  # float16 ops, each rounded
        out, v = [], s
        for _ in range(size):
            out.append(v)
            v = np.float16(v + d)
        return np.array(out, dtype=np.float16)
    return np.arange(int(s), int(l), int(d)).astype(dt)


REF.update({"dt_" + op: _division(op) for op in ("FloorDiv", "FloorMod", "TruncateDiv", "TruncateMod")})
REF["dt_Mean"] = _mean
REF["dt_Range"] = _range
