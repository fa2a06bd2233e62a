"""References for tests/diff/ops/call.lua: the composites the inner
functions compute, in TF's order of operations."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import reference  # noqa: E402
from opref import Approx  # noqa: E402


def _call(a, x, y):
    # sin(x) * y + x: sin within its ulp bound, then two roundings
    s = np.sin(x.astype(np.longdouble))
    v = s * y + x
    return Approx(v, x.dtype, reference.ULPS[("Sin", x.dtype.name)] + 2,
                  np.abs(s * y) + np.abs(x))


def _call_stateful(a, x):
    w = x.astype(np.longdouble)
    return Approx(w * np.longdouble(1.5) - w * w, x.dtype, 2, np.abs(w * 1.5) + w * w)


REF = {"call": _call, "call_stateful": _call_stateful}


def _torch():
    import torch
    return torch


TORCH = {
    "call": lambda a, x, y: _torch().sin(x) * y + x,
    "call_stateful": lambda a, x: x * 1.5 - x * x,
}
