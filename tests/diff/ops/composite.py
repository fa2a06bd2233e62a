"""References for tests/diff/ops/composite.lua."""
import numpy as np
from opref import Approx, LooseZero


def _clip(a, x):
    lo, hi = x.dtype.type(a["lo"]), x.dtype.type(a["hi"])
    return LooseZero(np.maximum(np.minimum(x, hi), lo))


def _mask(a, x, m):
    return x[m]


def _l2(a, x):
    axis = a["axis"] % x.ndim
    w = x.astype(np.longdouble)
    ss = np.sum(w * w, axis=axis, keepdims=True)
    v = w / np.sqrt(np.maximum(ss, np.longdouble(1e-12)))
    # where the sum of squares overflows x's dtype (as TF's ops compute it),
    # rsqrt gives 0 and the result is x * 0
    with np.errstate(all="ignore"):
        over = np.isinf(np.sum(x * x, axis=axis, keepdims=True)) & np.isfinite(ss)
        v = np.where(over, (x * x.dtype.type(0)).astype(np.longdouble), v)
    # rsqrt's bound, the sum's, one product
    return Approx(v, x.dtype, x.shape[axis] + 4)


def _moments(a, x):
    axes = tuple(a["axes"])
    kd = bool(a.get("keepdims"))
    w = x.astype(np.longdouble)
    n = int(np.prod([x.shape[i] for i in axes]))
    mean = np.mean(w, axis=axes, keepdims=True)
    var = np.mean((w - mean) ** 2, axis=axes, keepdims=kd)
    scale_m = np.mean(np.abs(w), axis=axes, keepdims=kd)
    # the squared differences from a rounded mean: their sum's error too
    scale_v = np.mean((np.abs(w) + np.abs(mean)) ** 2, axis=axes, keepdims=kd)
    mean_out = mean if kd else np.squeeze(mean, axis=axes)
    return [Approx(mean_out, x.dtype, n + 2, scale_m), Approx(var, x.dtype, 2 * n + 4, scale_v)]


REF = {"clip_by_value": _clip, "boolean_mask": _mask, "l2_normalize": _l2, "moments": _moments}


def _torch():
    import torch
    return torch


TORCH = {
    "clip_by_value": lambda a, x: _torch().clamp(x, a["lo"], a["hi"]),
    "boolean_mask": lambda a, x, m: x[m],
    "l2_normalize": lambda a, x: x / _torch().sqrt(_torch().clamp((x * x).sum(a["axis"], keepdim=True), min=1e-12)),
    "moments": lambda a, x: [x.mean(tuple(a["axes"]), keepdim=bool(a.get("keepdims"))),
                             x.var(tuple(a["axes"]), unbiased=False, keepdim=bool(a.get("keepdims")))],
}
