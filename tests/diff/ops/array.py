"""References for tests/diff/ops/array.lua."""
import numpy as np
from opref import Approx, norm_axis, raise_if


def _split(a, x):
    axis = norm_axis(a["axis"], x.ndim)
    d = x.shape[axis]
    s = a["split"]
    if isinstance(s, int):
        raise_if(s <= 0 or d % s != 0)
        sizes = [d // s] * s
    else:
        sizes = list(s)
        raise_if(sizes.count(-1) > 1)
        if -1 in sizes:
            rest = d - sum(v for v in sizes if v != -1)
            raise_if(rest < 0)
            sizes[sizes.index(-1)] = rest
        raise_if(sum(sizes) != d or any(v < 0 for v in sizes))
    out, at = [], 0
    for v in sizes:
        out.append(np.take(x, range(at, at + v), axis=axis))
        at += v
    return out


def _reverse(a, x):
    axes = a["axis"]
    raise_if(any(not -x.ndim <= v < x.ndim for v in axes))
    norm = [v % x.ndim for v in axes]
    raise_if(len(set(norm)) != len(norm))
    return np.flip(x, norm) if norm else x.copy()


def _gather_nd(a, p, i):
    k = i.shape[-1]
    flat = i.reshape(-1, k)
    # TF's DoGatherNd: "Requested more than 0 entries, but params is empty"
    raise_if(flat.shape[0] > 0 and p.size == 0)
    out = []
    for t in flat:
        raise_if(any(not 0 <= int(v) < p.shape[d] for d, v in enumerate(t)))
        out.append(p[tuple(int(v) for v in t)])
    shape = i.shape[:-1] + p.shape[k:]
    return np.array(out, dtype=p.dtype).reshape(shape)


def _scatter(t, i, u, add):
    k = i.shape[-1]
    flat = i.reshape(-1, k)
    upd = u.reshape((flat.shape[0],) + t.shape[k:])
    float_add = add and t.dtype.kind == "f"
    out = t.astype(np.float64 if float_add else t.dtype).copy()
    scale = np.abs(out).copy() if float_add else None
    for j, tup in enumerate(flat):
        pos = tuple(int(v) for v in tup)
        raise_if(any(not 0 <= v < t.shape[d] for d, v in enumerate(pos)))
        if add:
            out[pos] = out[pos] + upd[j]
            if float_add:
                scale[pos] = scale[pos] + np.abs(upd[j].astype(np.float64))
        else:
            out[pos] = upd[j]
    if float_add:
        # duplicates add in an order TF leaves open
        return Approx(out, t.dtype, flat.shape[0] + 1, scale)
    return out.astype(t.dtype)


def _scatter_nd(a, i, u):
    return _scatter(np.zeros(a["shape"], dtype=u.dtype), i, u, True)


def _order(x, descending):
    """TF's TopKV2 order along the last axis: NaN above every number,
    then by value, equal values in order of position (stable)."""
    if x.dtype.kind == "f":
        # NaN strictly above inf too: NaNs first, then by value (a stable
        # lexsort, last key first)
        nan = np.isnan(x)
        key = np.where(nan, 0, x if descending else -x)
        return np.lexsort((-key, ~nan), axis=-1)
    key = x.astype(np.float64) if descending else -x.astype(np.float64)
    return np.argsort(-key, axis=-1, kind="stable")


def _top_k(a, x):
    k = a["k"]
    raise_if(k < 0 or k > x.shape[-1])
    idx = _order(x, True)[..., :k]
    return [np.take_along_axis(x, idx, -1), idx.astype(np.int32)]


def _sorted(a, x, want_idx):
    axis = norm_axis(a["axis"], x.ndim)
    m = np.moveaxis(x, axis, -1)
    idx = _order(m, a["direction"] == "DESCENDING")
    if want_idx:
        return np.moveaxis(idx, -1, axis).astype(np.int32)
    return np.moveaxis(np.take_along_axis(m, idx, -1), -1, axis)


def _scan(prod):
    def ref(a, x):
        axis = norm_axis(a["axis"], x.ndim)
        m = np.moveaxis(x, axis, -1)
        if a["reverse"]:
            m = m[..., ::-1]
        f = x.dtype.kind == "f"
        w = m.astype(np.longdouble) if f else m
        if prod:
            c = np.cumprod(w, axis=-1, dtype=w.dtype)
            ident = 1
        else:
            c = np.cumsum(w, axis=-1, dtype=w.dtype)
            ident = 0
        scale = np.cumsum(np.abs(w), axis=-1) if f and not prod else np.abs(c)
        if a["exclusive"] and c.shape[-1]:
            pad = np.full(c.shape[:-1] + (1,), ident, dtype=c.dtype)
            c = np.concatenate([pad, c[..., :-1]], axis=-1)
            scale = np.concatenate([np.zeros_like(pad), scale[..., :-1]], axis=-1)
        if a["reverse"]:
            c, scale = c[..., ::-1], scale[..., ::-1]
        c, scale = np.moveaxis(c, -1, axis), np.moveaxis(scale, -1, axis)
        if f:
            return Approx(c, x.dtype, x.shape[axis] + 2, scale)
        return c.astype(x.dtype)
    return ref


def _roll(a, x):
    raise_if(len(a["shift"]) != len(a["axis"]) or x.ndim == 0)
    raise_if(any(not -x.ndim <= v < x.ndim for v in a["axis"]))
    return np.roll(x, a["shift"], [v % x.ndim for v in a["axis"]])


def _unique(a, x):
    raise_if(x.ndim != 1)
    ys, idx = [], []
    for v in x:
        for k, y in enumerate(ys):
            if y == v:  # NaN equals nothing; -0 equals 0
                idx.append(k)
                break
        else:
            idx.append(len(ys))
            ys.append(v)
    return [np.array(ys, dtype=x.dtype).reshape(len(ys)), np.array(idx, dtype=a["out"]).reshape(len(idx))]


def _searchsorted(a, s, v):
    s2 = s.reshape(-1, s.shape[-1])
    v2 = v.reshape(-1, v.shape[-1])
    raise_if(s2.shape[0] != v2.shape[0] and v2.size + s2.size > 0)
    out = np.zeros(v2.shape, dtype=a["out"])
    for b in range(v2.shape[0]):
        out[b] = np.searchsorted(s2[b], v2[b], side=a["side"])
    return out.reshape(v.shape)


def _segment_sum(a, x, ids):
    ids = [int(v) for v in ids]
    raise_if(any(v < 0 for v in ids))
    raise_if(any(ids[i] < ids[i - 1] for i in range(1, len(ids))))
    rows = ids[-1] + 1 if ids else 0
    out = np.zeros((rows,) + x.shape[1:], dtype=x.dtype)
    with np.errstate(all="ignore"):
        for i, j in enumerate(ids):
            out[j] = out[j] + x[i]
    return out


def _bincount(a, arr, w=None):
    flat = arr.reshape(-1)
    raise_if(np.any(flat < 0))
    size = int(flat.max()) + 1 if flat.size else 0
    if a.get("minlength") is not None:
        size = max(a["minlength"], size)
    if a.get("maxlength") is not None:
        size = min(a["maxlength"], size)
    dt = w.dtype if w is not None else np.dtype(a["dtype"])
    out = np.zeros(size, dtype=dt)
    wf = w.reshape(-1) if w is not None else None
    with np.errstate(all="ignore"):
        for i, v in enumerate(flat):
            if v < size:
                out[v] = out[v] + (wf[i] if wf is not None else 1)
    return out


def _add_n(a, *xs):
    raise_if(any(x.shape != xs[0].shape for x in xs))
    out = xs[0].copy()
    with np.errstate(all="ignore"):
        for x in xs[1:]:
            out = out + x
    return out


def _meshgrid(a, *xs):
    return list(np.meshgrid(*xs, indexing=a["indexing"]))


def _repeat(a, x):
    return np.repeat(x, a["repeats"], axis=a.get("axis"))


REF = {
    "meshgrid": _meshgrid, "repeat": _repeat,
    "roll": _roll, "unique": _unique, "searchsorted": _searchsorted, "segment_sum": _segment_sum,
    "bincount": _bincount, "add_n": _add_n,
    "split": _split, "reverse": _reverse, "gather_nd": _gather_nd,
    "scatter_nd": _scatter_nd,
    "tensor_scatter_nd_update": lambda a, t, i, u: _scatter(t, i, u, False),
    "tensor_scatter_nd_add": lambda a, t, i, u: _scatter(t, i, u, True),
    "top_k": _top_k,
    "sort": lambda a, x: _sorted(a, x, False),
    "argsort": lambda a, x: _sorted(a, x, True),
    "cumsum": _scan(False), "cumprod": _scan(True),
}


def _torch():
    import torch
    return torch


def _t_scatter(t, i, u, add):
    k = i.shape[-1]
    flat = i.reshape(-1, k)
    upd = u.reshape((flat.shape[0],) + tuple(t.shape[k:]))
    out = t.clone()
    for j in range(flat.shape[0]):
        pos = tuple(int(v) for v in flat[j])
        out[pos] = out[pos] + upd[j] if add else upd[j]
    return out


def _t_scan(prod):
    def ref(a, x):
        t = _torch()
        axis = a["axis"] % x.dim()
        m = x.flip(axis) if a["reverse"] else x
        c = t.cumprod(m, axis) if prod else t.cumsum(m, axis)
        if a["exclusive"]:
            ident = t.ones_like(c.narrow(axis, 0, 1)) if prod else t.zeros_like(c.narrow(axis, 0, 1))
            c = t.cat([ident, c.narrow(axis, 0, c.shape[axis] - 1)], axis) if c.shape[axis] else c
        return c.flip(axis) if a["reverse"] else c
    return ref


TORCH = {
    "roll": lambda a, x: _torch().roll(x, a["shift"], [v % x.dim() for v in a["axis"]]),
    "add_n": lambda a, *xs: sum(xs[1:], xs[0]),
    "meshgrid": lambda a, *xs: list(_torch().meshgrid(*xs, indexing=a["indexing"])),
    "repeat": lambda a, x: _torch().repeat_interleave(x, _torch().tensor(a["repeats"]), dim=a.get("axis"))
    if a.get("axis") is not None else _torch().repeat_interleave(x.reshape(-1), _torch().tensor(a["repeats"])),
    "split": lambda a, x: list(_torch().split(x, _split_sizes(a, x), a["axis"])),
    "reverse": lambda a, x: x.flip([v % x.dim() for v in a["axis"]]) if a["axis"] else x,
    "gather_nd": lambda a, p, i: _torch().stack([p[tuple(int(v) for v in t)] for t in i.reshape(-1, i.shape[-1])])
    .reshape(tuple(i.shape[:-1]) + tuple(p.shape[i.shape[-1]:])) if i.numel() else
    _torch().zeros(tuple(i.shape[:-1]) + tuple(p.shape[i.shape[-1]:]), dtype=p.dtype),
    "scatter_nd": lambda a, i, u: _t_scatter(_torch().zeros(a["shape"], dtype=u.dtype), i, u, True),
    "tensor_scatter_nd_update": lambda a, t, i, u: _t_scatter(t, i, u, False),
    "tensor_scatter_nd_add": lambda a, t, i, u: _t_scatter(t, i, u, True),
    "top_k": lambda a, x: [_torch().topk(x, a["k"], -1, sorted=True)[0]],
    "sort": lambda a, x: _torch().sort(x, dim=a["axis"], descending=a["direction"] == "DESCENDING", stable=True)[0],
    "cumsum": _t_scan(False), "cumprod": _t_scan(True),
}


def _split_sizes(a, x):
    return [int(v.shape[a["axis"] % x.dim()]) for v in _split(a, x.detach().numpy())]
