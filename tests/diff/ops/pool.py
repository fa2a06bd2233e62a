"""References for tests/diff/ops/pool.lua."""
import numpy as np
from opref import Approx, LooseZero, raise_if


def _dims(n, k, s, padding):
    if padding == "SAME":
        out = -(-n // s)
        total = max((out - 1) * s + k - n, 0)
        return out, total // 2
    # a window larger than a non-empty input raises (ops_pool.c's rule, after
    # TF's PoolParameters); otherwise GetWindowedOutputSize, C division
    raise_if(k > n > 0)
    out = int((n - k + s) / s)
    raise_if(out < 0)
    return out, 0


def _windows(a, x):
    n, h, w, c = x.shape
    (kh, kw), (sh, sw) = a["ksize"], a["strides"]
    oh, ph = _dims(h, kh, sh, a["padding"])
    ow, pw = _dims(w, kw, sw, a["padding"])
    for i in range(oh):
        for j in range(ow):
            r0, c0 = i * sh - ph, j * sw - pw
            rows = range(max(r0, 0), min(r0 + kh, h))
            cols = range(max(c0, 0), min(c0 + kw, w))
            yield i, j, rows, cols
    return


def _out_shape(a, x):
    n, h, w, c = x.shape
    oh, _ = _dims(h, a["ksize"][0], a["strides"][0], a["padding"])
    ow, _ = _dims(w, a["ksize"][1], a["strides"][1], a["padding"])
    return (n, oh, ow, c)


def _max_pool(a, x):
    out = np.zeros(_out_shape(a, x), dtype=x.dtype)
    for i, j, rows, cols in _windows(a, x):
        win = x[:, rows][:, :, cols]
        out[:, i, j, :] = np.max(win.reshape(x.shape[0], -1, x.shape[3]), axis=1) if win.size else -np.inf
    return LooseZero(out)


def _avg_pool(a, x):
    shape = _out_shape(a, x)
    out = np.zeros(shape, dtype=np.float64)
    scale = np.zeros(shape, dtype=np.float64)
    for i, j, rows, cols in _windows(a, x):
        win = x[:, rows][:, :, cols].astype(np.float64).reshape(x.shape[0], -1, x.shape[3])
        out[:, i, j, :] = np.mean(win, axis=1)
        scale[:, i, j, :] = np.mean(np.abs(win), axis=1)
    k = a["ksize"][0] * a["ksize"][1]
    if x.dtype == np.float64:
        return Approx(out, np.float64, k + 2, scale)
    return Approx(out, x.dtype, k + 2, scale)


def _max_pool_grad(a, x, dy):
    out = np.zeros(x.shape, dtype=np.float64)
    scale = np.zeros(x.shape, dtype=np.float64)  # overlapping windows add up
    for i, j, rows, cols in _windows(a, x):
        for b in range(x.shape[0]):
            for ch in range(x.shape[3]):
                win = x[b, rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1, ch] if len(rows) and len(cols) else None
                if win is None:
                    continue
                # the first maximum in row-major order gets the gradient
                r, c = np.unravel_index(int(np.argmax(win)), win.shape)
                out[b, rows[0] + r, cols[0] + c, ch] += dy[b, i, j, ch]
                scale[b, rows[0] + r, cols[0] + c, ch] += abs(float(dy[b, i, j, ch]))
    return Approx(out, x.dtype, 8, scale)


REF = {"max_pool": _max_pool, "avg_pool": _avg_pool, "max_pool_grad": _max_pool_grad}


def _torch():
    import torch
    return torch


def _t_pool(kind):
    def ref(a, x):
        t = _torch()
        F = t.nn.functional
        n, h, w, c = x.shape
        (kh, kw), (sh, sw) = a["ksize"], a["strides"]
        xn = x.permute(0, 3, 1, 2)
        if a["padding"] == "SAME":
            oh, ph = _dims(h, kh, sh, "SAME")
            ow, pw = _dims(w, kw, sw, "SAME")
            th, tw = max((oh - 1) * sh + kh - h, 0), max((ow - 1) * sw + kw - w, 0)
            pad = (pw, tw - pw, ph, th - ph)
            if kind == "max":
                xn = F.pad(xn, pad, value=-float("inf"))
                return F.max_pool2d(xn, (kh, kw), (sh, sw)).permute(0, 2, 3, 1)
            ones = F.pad(t.ones_like(xn), pad)
            s = F.avg_pool2d(F.pad(xn, pad), (kh, kw), (sh, sw), divisor_override=1)
            cnt = F.avg_pool2d(ones, (kh, kw), (sh, sw), divisor_override=1)
            return (s / cnt).permute(0, 2, 3, 1)
        f = F.max_pool2d if kind == "max" else F.avg_pool2d
        return f(xn, (kh, kw), (sh, sw)).permute(0, 2, 3, 1)
    return ref


TORCH = {"max_pool": _t_pool("max"), "avg_pool": _t_pool("avg")}
