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


def _logsumexp(a, x):
    ax = _axes(a, x)
    kd = bool(a.get("keepdims"))
    w = x.astype(np.longdouble)
    n = max(1, int(np.prod([x.shape[i] for i in ax])))
    with np.errstate(all="ignore"):
        raw = np.max(w, axis=ax, keepdims=True) if w.size else np.full(
            [1 if i in ax else d for i, d in enumerate(x.shape)], -np.inf, dtype=np.longdouble)
        m = np.where(np.isfinite(raw), raw, 0)
        v = np.log(np.sum(np.exp(w - m), axis=ax, keepdims=kd)) + (m if kd else m.reshape(
            np.sum(w, axis=ax, keepdims=kd).shape))
    # exp, a sum of n terms, log and the add: relative to |result| + 1
    return Approx(v, x.dtype, n + 4, 1.0)


def _variance_of(a, x):
    ax = _axes(a, x)
    kd = bool(a.get("keepdims"))
    if x.dtype.kind != "f":
        raise_if(True, "TypeError")
    w = x.astype(np.longdouble)
    n = max(1, int(np.prod([x.shape[i] for i in ax])))
    with np.errstate(all="ignore"):
        m = np.sum(w, axis=ax, keepdims=True) / (n if w.size else 0.0)
        v = np.sum((w - m) ** 2, axis=ax, keepdims=kd) / (n if w.size else 0.0)
        scale = np.sum((np.abs(w) + np.abs(m)) ** 2, axis=ax, keepdims=kd) / n
    # the mean (n + 2 roundings), the differences, squares and their mean
    return _overflowed(v, _variance_in(x, ax, kd)), scale, 3 * n + 8


def _variance_in(x, ax, kd):
    """The variance computed in x's own dtype, as the kernels do."""
    with np.errstate(all="ignore"):
        m = np.mean(x, axis=ax, keepdims=True)
        return np.mean(np.square(x - m), axis=ax, keepdims=kd)


def _overflowed(exact, in_dtype):
    """exact, except where the dtype's own computation overflows (or makes
    NaN of infinities): there TF's value, which no rounding reaches."""
    bad = ~np.isfinite(in_dtype) & np.isfinite(exact)
    return np.where(bad, in_dtype.astype(np.longdouble), exact)


def _variance(a, x):
    v, scale, k = _variance_of(a, x)
    return Approx(v, x.dtype, k, scale)


def _std(a, x):
    v, scale, k = _variance_of(a, x)
    e = np.finfo(x.dtype).eps
    with np.errstate(all="ignore"):
        d = k * e * scale
        s = np.sqrt(v)
        # the variance's error d carried through the square root
        allowed = np.maximum(np.sqrt(v + d) - s, s - np.sqrt(np.maximum(v - d, 0))) + 2 * e * s
        allowed = np.where(np.isfinite(allowed), allowed, 0)
    return Approx(s, x.dtype, 1, (allowed / e).astype(np.float64))


def _euclidean_norm(a, x):
    ax = _axes(a, x)
    kd = bool(a.get("keepdims"))
    if x.dtype.kind == "f":
        w = x.astype(np.longdouble)
        n = max(1, int(np.prod([x.shape[i] for i in ax])))
        with np.errstate(all="ignore"):
            own = np.sqrt(np.sum(x * x, axis=ax, keepdims=kd))
            exact = _overflowed(np.sqrt(np.sum(w * w, axis=ax, keepdims=kd)), own)
        # squares below the dtype's least normal underflow, as in the kernel:
        # the norm may lose up to sqrt(n * tiny)
        tiny = np.finfo(x.dtype).tiny
        slack = np.sqrt(n * tiny) / (np.finfo(x.dtype).eps * (n + 3))
        return Approx(exact, x.dtype, n + 3, slack)
    # integers: x * x and the sum wrap in x's dtype; the root is truncated
    with np.errstate(all="ignore"):
        sq = np.sum(x * x, axis=ax, keepdims=kd, dtype=x.dtype)
        root = np.sqrt(sq.astype(np.float64))
    return _cast_float_to_int(root, x.dtype)


def _cast_float_to_int(v, dtype):
    """moonflow's (and TF's on x86) float-to-int cast: truncation, and the
    lowest integer for NaN and values out of range."""
    info = np.iinfo(dtype)
    t = np.trunc(v)
    bad = np.isnan(v) | (t < info.min) | (t >= 2.0 ** (info.bits - 1))
    return np.where(bad, info.min, np.where(bad, 0, t)).astype(dtype)


def _count_nonzero(a, x):
    return np.sum(x != 0, axis=_axes(a, x), keepdims=bool(a.get("keepdims"))).astype(np.int64)


REF = {
    "reduce_logsumexp": _logsumexp,
    "reduce_variance": _variance,
    "reduce_std": _std,
    "reduce_euclidean_norm": _euclidean_norm,
    "count_nonzero": _count_nonzero,
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


def _t_logsumexp(a, x):
    import torch
    ax = _t_axes(a, x)
    if not ax:
        return x
    return torch.logsumexp(x, dim=ax, keepdim=bool(a.get("keepdims")))


def _t_var(std):
    def ref(a, x):
        import torch
        ax = _t_axes(a, x)
        if not ax:
            return torch.zeros_like(x)
        fn = torch.std if std else torch.var
        return fn(x, dim=ax, unbiased=False, keepdim=bool(a.get("keepdims")))
    return ref


TORCH = {
    "reduce_logsumexp": _t_logsumexp,
    "reduce_variance": _t_var(False),
    "reduce_std": _t_var(True),
    "reduce_sum": _t_red("sum"),
    "reduce_mean": _t_red("mean"),
    "reduce_max": _t_red("amax"),
    "reduce_min": _t_red("amin"),
    "reduce_prod": _t_red("prod"),
}
