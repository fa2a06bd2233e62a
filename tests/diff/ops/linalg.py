"""References for tests/diff/ops/linalg.lua (NumPy's LAPACK in float64)."""
import numpy as np
from opref import Approx, TFError, raise_if


def _sq(x):
    return x.astype(np.float64)


def _bound(x, v, n):
    # a few ulps per element of a well-conditioned solve
    return Approx(v, x.dtype, 64 * (n + 1), np.max(np.abs(v)) if v.size else 0)


def _inv(a, x):
    n = x.shape[-1]
    m = _sq(x)
    if a.get("adjoint"):
        m = np.swapaxes(m, -1, -2)
    if x.size == 0:
        return x.copy()
    try:
        v = np.linalg.inv(m)
    except np.linalg.LinAlgError:
        raise TFError("InvalidArgumentError")
    raise_if(not np.isfinite(v).all())
    return _bound(x, v, n)


def _det(a, x):
    n = x.shape[-1]
    m = _sq(x)
    v = np.linalg.det(m) if x.size else np.ones(x.shape[:-2])
    hadamard = np.prod(np.sqrt(np.sum(m * m, axis=-1)), axis=-1) if x.size else np.ones(x.shape[:-2])
    return Approx(v, x.dtype, 64 * (n + 1), hadamard)


def _solve(a, m, rhs):
    raise_if(rhs.shape[-2] != m.shape[-1] or rhs.shape[:-2] != m.shape[:-2])
    mm = _sq(m)
    if a.get("adjoint"):
        mm = np.swapaxes(mm, -1, -2)
    if rhs.size == 0 or m.size == 0:
        return np.zeros(rhs.shape, dtype=rhs.dtype)
    try:
        v = np.linalg.solve(mm, _sq(rhs))
    except np.linalg.LinAlgError:
        raise TFError("InvalidArgumentError")
    raise_if(not np.isfinite(v).all())
    return Approx(v, m.dtype, 64 * (m.shape[-1] + 1), np.max(np.abs(v)))


def _cholesky(a, x):
    if x.size == 0:
        return x.copy()
    m = _sq(x)
    # TF reads the lower triangle; its gradient is that of the symmetric
    # input, which is what differentiating chol((A + Aᵀ) / 2) gives
    m = (m + np.swapaxes(m, -1, -2)) / 2
    try:
        v = np.linalg.cholesky(m)
    except np.linalg.LinAlgError:
        raise TFError("InvalidArgumentError")
    return _bound(x, v, x.shape[-1])


def _labels_agree(eq, xs):
    """TF's einsum: a label has one size everywhere (NumPy would broadcast
    a 1); only ellipsis dimensions broadcast."""
    sizes = {}
    for subs, x in zip(eq.split("->")[0].split(","), xs):
        named = subs.replace("...", "")
        dims = x.shape[len(x.shape) - len(named):] if "..." in subs else x.shape
        if len(dims) != len(named):
            return False
        for ch, d in zip(named, dims):
            if sizes.setdefault(ch, d) != d:
                return False
    return True


def _einsum(a, *xs):
    eq = a["equation"]
    raise_if(not _labels_agree(eq, xs))
    try:
        if any(x.dtype.kind == "f" for x in xs):
            w = [x.astype(np.longdouble) for x in xs]
            v = np.einsum(eq, *w)
            scale = np.einsum(eq, *[np.abs(x) for x in w])
            terms = max(1, int(np.prod([x.size for x in xs])) // max(np.asarray(v).size, 1))
            return Approx(v, xs[0].dtype, terms + 2, scale)
        return np.einsum(eq, *[x.astype(np.int64) for x in xs]).astype(xs[0].dtype)
    except ValueError:
        raise TFError("InvalidArgumentError")


def _svd(a, x):
    """s (descending), and where the vectors are asked the input rebuilt
    from them and their Gram matrices (identities), within a few ulps per
    term of the largest singular value."""
    m, n = x.shape[-2], x.shape[-1]
    p = min(m, n)
    w = _sq(x)
    s = np.linalg.svd(w, compute_uv=False) if w.size else np.zeros(x.shape[:-2] + (p,))
    top = np.max(s) if s.size else 0
    ulps = 64 * (max(m, n) + 1)
    if not a.get("uv"):
        return Approx(s, x.dtype, ulps, top)
    um = m if a.get("full") else p
    vn = n if a.get("full") else p
    return [Approx(s, x.dtype, ulps, top), Approx(w, x.dtype, ulps, top),
            Approx(np.broadcast_to(np.eye(um), x.shape[:-2] + (um, um)), x.dtype, ulps, 1),
            Approx(np.broadcast_to(np.eye(vn), x.shape[:-2] + (vn, vn)), x.dtype, ulps, 1)]


REF = {"inv": _inv, "det": _det, "solve": _solve, "cholesky": _cholesky, "einsum": _einsum, "svd": _svd,
       "svd_full": _svd}


def _torch():
    import torch
    return torch


def _t_adj(a, m):
    return m.transpose(-1, -2) if a.get("adjoint") else m


TORCH = {
    "inv": lambda a, x: _torch().linalg.inv(_t_adj(a, x)),
    "det": lambda a, x: _torch().linalg.det(x),
    "solve": lambda a, m, r: _torch().linalg.solve(_t_adj(a, m), r),
    "cholesky": lambda a, x: _torch().linalg.cholesky((x + x.transpose(-1, -2)) / 2),
    "einsum": lambda a, *xs: _torch().einsum(a["equation"], *xs),
}
