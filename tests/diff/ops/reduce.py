"""References for tests/diff/ops/reduce.lua."""
import numpy as np
from opref import DT, Approx, LooseZero, axis_list, norm_axis, raise_if


def _axes(a, x):
    return tuple(axis_list(a.get("axis"), x.ndim))


def _sum_like(fn):
    def ref(a, x):
        ax = _axes(a, x)
        kd = bool(a.get("keepdims"))
        if x.dtype.kind == "f":
            w = x.astype(np.longdouble)
            n = max(1, int(np.prod([x.shape[i] for i in ax])))
            v = fn(w, axis=ax, keepdims=kd)
            scale = fn(np.abs(w), axis=ax, keepdims=kd) if fn is not np.prod else np.abs(v)
            if x.dtype == np.float64 and w.dtype != np.longdouble:
                return v
            return Approx(v, x.dtype, n + 1, scale)
        return fn(x, axis=ax, keepdims=kd).astype(x.dtype)
    return ref


def _mean(a, x):
    ax = _axes(a, x)
    kd = bool(a.get("keepdims"))
    n = int(np.prod([x.shape[i] for i in ax]))
    if x.dtype.kind == "f":
        w = x.astype(np.longdouble)
        v = np.sum(w, axis=ax, keepdims=kd) / n if n else np.sum(w, axis=ax, keepdims=kd) / 0.0
        scale = np.sum(np.abs(w), axis=ax, keepdims=kd) / max(n, 1)
        return Approx(v, x.dtype, max(n, 1) + 2, scale)
    # integer mean (TF's CASTING_SPECIALIZATION): int32 sums in int64, int64
    # in int64 (wrapping); C division truncates; an empty reduction gives
    # the sum's identity, 0
    if n == 0:
        return np.zeros(np.sum(x, axis=ax, keepdims=kd).shape, dtype=x.dtype)
    s = np.sum(x.astype(np.int64), axis=ax, keepdims=kd)
    q = np.abs(s) // n * np.sign(s)
    return q.astype(x.dtype)


def _extreme(fn, nanfn):
    def ref(a, x):
        ax = _axes(a, x)
        kd = bool(a.get("keepdims"))
        if any(x.shape[i] == 0 for i in ax):
            # the identity of the reduction: TF gives -inf/+inf (lowest/highest int)
            shape = [1 if i in ax else d for i, d in enumerate(x.shape)] if kd else \
                [d for i, d in enumerate(x.shape) if i not in ax]
            if x.dtype.kind == "f":
                ident = -np.inf if fn is np.max else np.inf
            else:
                info = np.iinfo(x.dtype)
                ident = info.min if fn is np.max else info.max
            return np.full(shape, ident, dtype=x.dtype)
        # NaN propagates (TF's Max/Min kernels)
        return LooseZero(fn(x, axis=ax, keepdims=kd).astype(x.dtype))
    return ref


def _logical(fn):
    def ref(a, x):
        return fn(x, axis=_axes(a, x), keepdims=bool(a.get("keepdims")))
    return ref


def _arg(fn):
    def ref(a, x):
        ax = norm_axis(a["axis"], x.ndim)
        raise_if(x.shape[ax] == 0)
        return fn(x, axis=ax).astype(DT[a["out"]])
    return ref


REF = {
    "reduce_sum": _sum_like(np.sum),
    "reduce_mean": _mean,
    "reduce_max": _extreme(np.max, np.nanmax),
    "reduce_min": _extreme(np.min, np.nanmin),
    "reduce_prod": _sum_like(np.prod),
    "reduce_any": _logical(np.any),
    "reduce_all": _logical(np.all),
    "argmax": _arg(np.argmax),
    "argmin": _arg(np.argmin),
}


def _t_axes(a, x):
    return axis_list(a.get("axis"), x.dim())


def _t_red(name):
    def ref(a, x):
        import torch
        ax = _t_axes(a, x)
        kd = bool(a.get("keepdims"))
        if not ax:
            return x
        if name == "prod":
            for i in sorted(ax, reverse=True):
                x = torch.prod(x, dim=i, keepdim=kd)
            return x
        return getattr(torch, name)(x, dim=ax, keepdim=kd)
    return ref


TORCH = {
    "reduce_sum": _t_red("sum"),
    "reduce_mean": _t_red("mean"),
    "reduce_max": _t_red("amax"),
    "reduce_min": _t_red("amin"),
    "reduce_prod": _t_red("prod"),
}
