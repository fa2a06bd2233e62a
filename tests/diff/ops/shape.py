"""References for tests/diff/ops/shape.lua."""
import numpy as np
from opref import DT, TFError, axis_list, norm_axis, raise_if


def _transpose(a, x):
    perm = a.get("perm")
    if perm is None:
        perm = list(range(x.ndim))[::-1]
    # TF's TransposeOp: each entry in [0, rank), no negatives, no repeats
    raise_if(sorted(perm) != list(range(x.ndim)))
    return np.transpose(x, perm)


def _reshape(a, x):
    shape = list(a["shape"])
    known = int(np.prod([d for d in shape if d != -1]))
    if -1 in shape:
        raise_if(known == 0 or x.size % known != 0)
        shape[shape.index(-1)] = x.size // known
    raise_if(int(np.prod(shape)) != x.size)
    return x.reshape(shape)


def _reshape_by_shape(a, x):
    return _reshape({"shape": list(x.shape[:a["keep"]]) + [-1]}, x)


def _concat(a, *xs):
    rank = xs[0].ndim
    axis = norm_axis(a["axis"], rank)
    for x in xs:
        raise_if(x.ndim != rank or any(x.shape[i] != xs[0].shape[i] for i in range(rank) if i != axis))
    return np.concatenate(xs, axis=axis)


def _stack(a, *xs):
    # tf.stack checks the axis in Python, against the first value's rank + 1
    n = xs[0].ndim + 1
    if not -n <= a["axis"] < n:
        raise TFError("ValueError")
    axis = norm_axis(a["axis"], n)
    return np.stack(xs, axis=axis)


def _unstack(a, x):
    axis = norm_axis(a["axis"], x.ndim)
    return [np.take(x, i, axis=axis) for i in range(x.shape[axis])]


def _expand_dims(a, x):
    return np.expand_dims(x, norm_axis(a["axis"], x.ndim + 1))


def _squeeze(a, x):
    axis = a.get("axis")
    if axis is None or axis == []:
        return x.reshape([d for d in x.shape if d != 1])
    ax = axis_list(axis, x.ndim)
    raise_if(any(x.shape[i] != 1 for i in ax))
    return x.reshape([d for i, d in enumerate(x.shape) if i not in ax])


def _tile(a, x):
    m = a["multiples"]
    raise_if(len(m) != x.ndim)
    return np.tile(x, m) if x.ndim else x


def _pad(a, x):
    p = a["paddings"]
    # a Lua {} is a (0,) vector, not the (0, 2) matrix a scalar needs
    raise_if(x.ndim == 0 or len(p) != x.ndim or any(b < 0 or e < 0 for b, e in p))
    cv = a.get("constant_values")
    # TF's array_ops.pad: a number equal to 0 (-0.0 too) takes Pad, which
    # pads with +0; a tensor, or any other value, PadV2 with that value
    if cv is None or (not a.get("as_tensor") and cv == 0):
        cv = False if x.dtype == np.bool_ else 0
    if x.ndim == 0:
        return x
    return np.pad(x, p, constant_values=np.array(cv, dtype=x.dtype))


def _mirror_limits(a, dims, folded):
    """TF's MirrorPad and MirrorPadGrad kernels: a paddings row per
    dimension, each >= 0 and, for REFLECT, < the unpadded size (SYMMETRIC:
    <=); `dims` are the unpadded sizes, or the padded ones when folded."""
    p = a["paddings"]
    raise_if(len(p) != len(dims))
    reach = 1 if a["mode"].upper() == "REFLECT" else 0
    for d, (b, e) in zip(dims, p):
        raise_if(b < 0 or e < 0)
        size = d - b - e if folded else d
        raise_if(b > size - reach or e > size - reach)
    return p, reach


def _mirror_pad(a, x):
    # a Lua {} is a (0,) vector, not the (0, 2) matrix a scalar needs
    raise_if(x.ndim == 0)
    p, _ = _mirror_limits(a, x.shape, False)
    return np.pad(x, p, mode=a["mode"].lower())


def _mirror_pad_grad(a, dy):
    p, reach = _mirror_limits(a, dy.shape, True)
    out_shape = [d - b - e for d, (b, e) in zip(dy.shape, p)]
    # where each padded index folds to, per dimension (np.pad's mirror)
    maps = []
    for n, (b, e) in zip(out_shape, p):
        maps.append([b - 1 + reach - j for j in range(b)] + list(range(n))
                    + [n - 1 - reach - k for k in range(e)])
    out = np.zeros(out_shape, dtype=dy.dtype)
    with np.errstate(over="ignore"):
        for idx in np.ndindex(*dy.shape):  # row-major, as the kernel adds
            to = tuple(m[i] for m, i in zip(maps, idx))
            out[to] = out[to] + dy[idx]
    return out


def _broadcast_to(a, x):
    try:
        return np.broadcast_to(x, a["shape"]).copy()
    except ValueError:
        raise TFError("InvalidArgumentError")


def _shape_size_rank(a, x):
    dt = DT[a["out"]]
    return [np.array(x.shape, dtype=dt), np.array(x.size, dtype=dt), np.array(x.ndim, dtype=np.int32)]


def _fill(a, v):
    raise_if(any(d < 0 for d in a["dims"]))
    return np.full(a["dims"], v, dtype=v.dtype)


def _zeros_ones(a, x):
    return [np.zeros_like(x), np.ones_like(x)]


def _range(a, s, l, d):
    s, l, d = s[()], l[()], d[()]
    raise_if(d == 0)
    raise_if(s > l if d > 0 else s < l)
    if s.dtype.kind == "i":
        n = (abs(int(l) - int(s)) + abs(int(d)) - 1) // abs(int(d))
    else:
        n = int(np.ceil(np.abs((l - s) / d)))
    out = np.empty(n, dtype=s.dtype)
    v = s
    for i in range(n):  # TF accumulates: val += delta
        out[i] = v
        v = (v + d).astype(s.dtype) if hasattr(v, "astype") else v + d
    return out


def _linspace(a, s, e):
    n = a["num"]
    raise_if(n <= 0)
    s, e = s[()], e[()]
    out = np.empty(n, dtype=s.dtype)
    out[0] = s
    if n > 1:
        step = (e - s) / s.dtype.type(n - 1)
        for i in range(1, n - 1):
            out[i] = s + step * s.dtype.type(i)
        out[n - 1] = e
    return out


REF = {
    "transpose": _transpose, "reshape": _reshape, "reshape_by_shape": _reshape_by_shape,
    "concat": _concat, "stack": _stack,
    "unstack": _unstack, "expand_dims": _expand_dims, "squeeze": _squeeze, "tile": _tile,
    "pad": _pad, "mirror_pad": _mirror_pad, "mirror_pad_grad": _mirror_pad_grad,
    "broadcast_to": _broadcast_to, "shape_size_rank": _shape_size_rank,
    "fill": _fill, "zeros_ones_like": _zeros_ones, "range": _range, "linspace": _linspace,
}


def _torch():
    import torch
    return torch


TORCH = {
    "transpose": lambda a, x: x if x.dim() == 0 else x.permute(
        *([p % x.dim() for p in a["perm"]] if a.get("perm") is not None else list(range(x.dim()))[::-1])),
    "reshape": lambda a, x: x.reshape(a["shape"]),
    "reshape_by_shape": lambda a, x: x.reshape(list(x.shape[:a["keep"]]) + [-1]),
    "concat": lambda a, *xs: _torch().cat(xs, dim=a["axis"]),
    "stack": lambda a, *xs: _torch().stack(xs, dim=a["axis"]),
    "unstack": lambda a, x: list(_torch().unbind(x, dim=a["axis"])),
    "expand_dims": lambda a, x: x.unsqueeze(a["axis"]),
    "tile": lambda a, x: x.repeat(*a["multiples"]) if x.dim() else x,
    "pad": lambda a, x: _torch().nn.functional.pad(
        x, [v for pair in reversed(a["paddings"]) for v in pair],
        value=float(a.get("constant_values") or 0)) if x.dim() else x,
    "broadcast_to": lambda a, x: x.broadcast_to(a["shape"]),
    "fill": lambda a, v: v.expand(a["dims"]) if a["dims"] else v,
}
