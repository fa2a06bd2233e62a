"""References for tests/diff/ops/strings.lua."""
import numpy as np
from opref import raise_if


def _length(a, x):
    unit = a["unit"]
    raise_if(unit not in ("BYTE", "UTF8_CHAR"))
    f = (lambda s: len(s)) if unit == "BYTE" else (lambda s: len(s.decode("utf-8")))
    return np.array([f(s) for s in x.reshape(-1)], dtype=np.int32).reshape(x.shape)


def _join(a, *xs):
    shapes = {x.shape for x in xs if x.ndim > 0}
    raise_if(len(shapes) > 1)
    shape = shapes.pop() if shapes else ()
    sep = a["sep"].encode()
    out = np.empty(shape, dtype=object)
    for idx in np.ndindex(*shape):
        out[idx] = sep.join(x[()] if x.ndim == 0 else x[idx] for x in xs)
    return out


def _spacing(dim, ndims):
    if dim == ndims - 1:
        return " "
    return "\n" * (ndims - dim - 1) + " " * (dim + 1)


def _fmt(x, s):
    """TF's Tensor::SummarizeValue(s, print_v2) (tensor.cc): the limit is
    min(s, number of elements) (all of them for s < 0), taken at each end
    of every dimension, with '...' between when a dimension is longer."""
    if x.ndim == 0:
        return str(int(x))
    ends = x.size if s < 0 else min(s, x.size)
    flat = x.reshape(-1)
    out = []

    def one(dim, start):
        if dim == x.ndim:
            out.append(str(int(flat[start])))
            return
        out.append("[")
        n = x.shape[dim]
        per = int(np.prod(x.shape[dim + 1:]))
        for i in range(min(ends, n)):
            if i > 0:
                out.append(_spacing(dim, x.ndim))
            one(dim + 1, start + per * i)
        if n > 2 * ends:
            out.append(_spacing(dim, x.ndim))
            out.append("...")
        for i in range(max(ends, n - ends), n):
            out.append(_spacing(dim, x.ndim))
            one(dim + 1, start + per * i)
        out.append("]")

    one(0, 0)
    return "".join(out)


def _format(a, *xs):
    pieces = a["template"].split("{}")
    raise_if(len(pieces) - 1 != len(xs))
    out = pieces[0]
    for x, p in zip(xs, pieces[1:]):
        out += _fmt(x, a["summarize"]) + p
    r = np.empty((), dtype=object)
    r[()] = out.encode()
    return r


REF = {"string_length": _length, "string_join": _join, "string_format": _format}
