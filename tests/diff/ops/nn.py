"""References for tests/diff/ops/nn.lua."""
import numpy as np
from opref import Approx, TFError, norm_axis, raise_if

W = np.longdouble


def _mm(a, x, y):
    xa = np.swapaxes(x, -1, -2) if a["transpose_a"] else x
    yb = np.swapaxes(y, -1, -2) if a["transpose_b"] else y
    raise_if(xa.shape[-1] != yb.shape[-2])
    try:
        np.broadcast_shapes(xa.shape[:-2], yb.shape[:-2])
    except ValueError:
        raise TFError("InvalidArgumentError")
    if x.dtype.kind != "f":
        return np.matmul(xa.astype(np.int64), yb.astype(np.int64)).astype(x.dtype)
    v = np.matmul(xa.astype(W), yb.astype(W))
    scale = np.matmul(np.abs(xa).astype(W), np.abs(yb).astype(W))
    return Approx(v, x.dtype, xa.shape[-1] + 2, scale)


def _softmax_parts(x, axis):
    w = x.astype(W)
    m = np.max(w, axis=axis, keepdims=True)
    e = np.exp(w - m)
    s = np.sum(e, axis=axis, keepdims=True)
    return w, m, e, s


def _softmax(a, x):
    axis = norm_axis(a["axis"], x.ndim)
    if x.size == 0:
        return x.copy()
    w, m, e, s = _softmax_parts(x, axis)
    # exp(x - max) carries the rounding of x - max times |x - max|
    v = e / s
    return Approx(v, x.dtype, x.shape[axis] + 8, np.where(v == 0, 0, v * np.abs(w - m)))


def _log_softmax(a, x):
    axis = norm_axis(a["axis"], x.ndim)
    if x.size == 0:
        return x.copy()
    w, m, e, s = _softmax_parts(x, axis)
    v = (w - m) - np.log(s)
    # log of a sum near 1: an absolute error of n ulps, whatever the log's size
    return Approx(v, x.dtype, x.shape[axis] + 8, np.abs(w - m) + np.abs(np.log(s)) + 1)


def _xent(a, labels, logits):
    # the op broadcasts labels and logits (TF's BCast), e.g. [b, 1] labels
    try:
        labels, logits = np.broadcast_arrays(labels, logits)
    except ValueError:
        raise TFError("InvalidArgumentError")
    w, m, e, s = _softmax_parts(logits, -1)
    lse = np.log(s)
    v = np.sum(labels.astype(W) * (lse - (w - m)), axis=-1)
    scale = np.sum(np.abs(labels.astype(W)) * (np.abs(w - m) + np.abs(lse) + 1), axis=-1)
    return Approx(v, logits.dtype, logits.shape[-1] + 8, scale)


def _sparse_xent(a, labels, logits):
    c = logits.shape[-1]
    raise_if(labels.size and (labels.min() < 0 or labels.max() >= c))
    if labels.size == 0:
        return np.zeros(labels.shape, dtype=logits.dtype)
    w, m, e, s = _softmax_parts(logits.reshape(-1, c), -1)
    lse = np.log(s)[:, 0]
    picked = (w - m)[np.arange(labels.size), labels.reshape(-1)]
    lse, picked = lse.reshape(labels.shape), picked.reshape(labels.shape)
    v = lse - picked
    return Approx(v, logits.dtype, c + 8, np.abs(lse) + np.abs(picked) + 1)


def _bias_add(a, x, b):
    raise_if(x.shape[-1] != b.shape[0])
    return x + b


def _same_pads(n, k, s, d):
    keff = (k - 1) * d + 1
    out = -(-n // s)
    total = max((out - 1) * s + keff - n, 0)
    return out, total // 2, total - total // 2


def _conv(a, x, f):
    raise_if(x.shape[3] != f.shape[2])
    s, d = a["stride"], a["dilation"]
    n, h, w, c = x.shape
    kh, kw, _, o = f.shape
    if a["padding"] == "SAME":
        oh, ph0, ph1 = _same_pads(h, kh, s, d)
        ow, pw0, pw1 = _same_pads(w, kw, s, d)
    else:
        # TF's GetWindowedOutputSize: C division (truncating), negative raises
        ph0 = ph1 = pw0 = pw1 = 0
        oh, ow = (int((n_ - ((k - 1) * d + 1) + s) / s) for n_, k in ((h, kh), (w, kw)))
        raise_if(oh < 0 or ow < 0)
    xp = np.pad(x.astype(W), ((0, 0), (ph0, ph1), (pw0, pw1), (0, 0)))
    ax = np.abs(xp)
    fw, af = f.astype(W), np.abs(f.astype(W))
    out = np.zeros((n, oh, ow, o), dtype=W)
    scale = np.zeros((n, oh, ow, o), dtype=W)
    for i in range(kh):
        for j in range(kw):
            rows = slice(i * d, i * d + (oh - 1) * s + 1, s)
            cols = slice(j * d, j * d + (ow - 1) * s + 1, s)
            if oh == 0 or ow == 0:
                continue
            out += np.einsum("nhwc,co->nhwo", xp[:, rows, cols, :], fw[i, j])
            scale += np.einsum("nhwc,co->nhwo", ax[:, rows, cols, :], af[i, j])
    return Approx(out, x.dtype, kh * kw * c + 2, scale)


def _depthwise(a, x, f):
    """Each input channel c convolved (as _conv) with filter[:, :, c, :]
    into output channels c * multiplier .. c * multiplier + multiplier - 1."""
    raise_if(x.shape[3] != f.shape[2])
    s, d = a["stride"], a["dilation"]
    n, h, w, c = x.shape
    kh, kw, _, m = f.shape
    if a["padding"] == "SAME":
        oh, ph0, ph1 = _same_pads(h, kh, s, d)
        ow, pw0, pw1 = _same_pads(w, kw, s, d)
    else:
        ph0 = ph1 = pw0 = pw1 = 0
        oh, ow = (int((n_ - ((k - 1) * d + 1) + s) / s) for n_, k in ((h, kh), (w, kw)))
        raise_if(oh < 0 or ow < 0)
    xp = np.pad(x.astype(W), ((0, 0), (ph0, ph1), (pw0, pw1), (0, 0)))
    fw = f.astype(W)
    out = np.zeros((n, oh, ow, c, m), dtype=W)
    scale = np.zeros((n, oh, ow, c, m), dtype=W)
    for i in range(kh):
        for j in range(kw):
            if oh == 0 or ow == 0:
                continue
            rows = slice(i * d, i * d + (oh - 1) * s + 1, s)
            cols = slice(j * d, j * d + (ow - 1) * s + 1, s)
            out += np.einsum("nhwc,cm->nhwcm", xp[:, rows, cols, :], fw[i, j])
            scale += np.einsum("nhwc,cm->nhwcm", np.abs(xp[:, rows, cols, :]), np.abs(fw[i, j]))
    return Approx(out.reshape(n, oh, ow, c * m), x.dtype, kh * kw + 2, scale.reshape(n, oh, ow, c * m))


def _conv_transpose(a, y, f):
    """The transpose of _conv's map from an input of shape a["out"]: each
    out_backprop element spread over the window it was computed from."""
    s = a["stride"]
    n, h, w, c = a["out"]
    kh, kw, fc, o = f.shape
    raise_if(fc != c or y.shape[3] != o or y.shape[0] != n)
    if a["padding"] == "SAME":
        oh, ph0, ph1 = _same_pads(h, kh, s, 1)
        ow, pw0, pw1 = _same_pads(w, kw, s, 1)
    else:
        ph0 = ph1 = pw0 = pw1 = 0
        oh, ow = (int((n_ - k + s) / s) for n_, k in ((h, kh), (w, kw)))
    raise_if(y.shape[1] != oh or y.shape[2] != ow)
    yw, fw = y.astype(W), f.astype(W)
    full = np.zeros((n, h + ph0 + ph1 + kh + s, w + pw0 + pw1 + kw + s, c), dtype=W)
    scale = np.zeros(full.shape, dtype=W)
    for i in range(kh):
        for j in range(kw):
            if oh == 0 or ow == 0:
                continue
            rows = slice(i, i + (oh - 1) * s + 1, s)
            cols = slice(j, j + (ow - 1) * s + 1, s)
            full[:, rows, cols, :] += np.einsum("nhwo,co->nhwc", yw, fw[i, j])
            scale[:, rows, cols, :] += np.einsum("nhwo,co->nhwc", np.abs(yw), np.abs(fw[i, j]))
    out = full[:, ph0:ph0 + h, pw0:pw0 + w, :]
    return Approx(out, y.dtype, kh * kw * o + 2, scale[:, ph0:ph0 + h, pw0:pw0 + w, :])


def _resize(a, x):
    oh, ow = a["size"]
    n, h, w, c = x.shape
    f32 = np.float32 if x.dtype == np.float32 else np.float64

    def axis(out_size, in_size):
        scale = f32(in_size) / f32(out_size)
        src = (np.arange(out_size, dtype=f32) + f32(0.5)) * scale - f32(0.5)
        lo = np.floor(src)
        lerp = src - lo
        lo_i = np.maximum(lo, 0).astype(np.int64)
        hi_i = np.minimum(np.ceil(src), in_size - 1).astype(np.int64)
        return lo_i, hi_i, lerp.astype(np.float64)

    ylo, yhi, yl = axis(oh, h)
    xlo, xhi, xl = axis(ow, w)
    # TF's order of operations (a + (b - a) * t, in the input's precision),
    # so infinities give NaN where TF's kernel does
    v = x.astype(f32)
    xl = xl.astype(f32)[None, None, :, None]
    yl = yl.astype(f32)[None, :, None, None]

    def lerp(p, q, t):
        return p + (q - p) * t

    top = lerp(v[:, ylo][:, :, xlo], v[:, ylo][:, :, xhi], xl)
    bot = lerp(v[:, yhi][:, :, xlo], v[:, yhi][:, :, xhi], xl)
    out = lerp(top, bot, yl)
    if x.dtype == np.float32:
        finite = np.abs(v[np.isfinite(v)])
        return Approx(out.astype(np.float64), np.float32, 8, float(np.max(finite)) if finite.size else 0)
    return out


REF = {
    "matmul": _mm, "batch_matmul": _mm, "softmax": _softmax, "log_softmax": _log_softmax,
    "softmax_cross_entropy": _xent, "sparse_softmax_cross_entropy": _sparse_xent,
    "bias_add": _bias_add, "conv2d": _conv, "resize_bilinear": _resize, "conv2d_transpose": _conv_transpose,
    "depthwise_conv2d": _depthwise,
}


def _torch():
    import torch
    return torch


def _t_mm(a, x, y):
    t = _torch()
    xa = x.transpose(-1, -2) if a["transpose_a"] else x
    yb = y.transpose(-1, -2) if a["transpose_b"] else y
    return t.matmul(xa, yb)


def _t_conv(a, x, f):
    t = _torch()
    F = t.nn.functional
    s, d = a["stride"], a["dilation"]
    n, h, w, c = x.shape
    kh, kw = f.shape[0], f.shape[1]
    xn = x.permute(0, 3, 1, 2)
    if a["padding"] == "SAME":
        _, ph0, ph1 = _same_pads(h, kh, s, d)
        _, pw0, pw1 = _same_pads(w, kw, s, d)
        xn = F.pad(xn, (pw0, pw1, ph0, ph1))
    return F.conv2d(xn, f.permute(3, 2, 0, 1).contiguous(), stride=s, dilation=d).permute(0, 2, 3, 1)


def _t_resize(a, x):
    F = _torch().nn.functional
    return F.interpolate(x.permute(0, 3, 1, 2), size=tuple(a["size"]), mode="bilinear",
                         align_corners=False).permute(0, 2, 3, 1)


TORCH = {
    "matmul": _t_mm, "batch_matmul": _t_mm,
    "softmax": lambda a, x: _torch().softmax(x, a["axis"]),
    "log_softmax": lambda a, x: _torch().log_softmax(x, a["axis"]),
    "softmax_cross_entropy": lambda a, l, x: -(l * _torch().log_softmax(x, -1)).sum(-1),
    "sparse_softmax_cross_entropy": lambda a, l, x: _torch().nn.functional.cross_entropy(
        x.reshape(-1, x.shape[-1]), l.reshape(-1), reduction="none").reshape(l.shape),
    "bias_add": lambda a, x, b: x + b,
    "conv2d": _t_conv,
    "resize_bilinear": _t_resize,
}
