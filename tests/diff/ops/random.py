"""Distribution checks for tests/diff/ops/random.lua."""
import math

import numpy as np
from opref import DT, Check


def _ks(values, cdf):
    x = np.sort(values.astype(np.float64).reshape(-1))
    n = x.size
    if n == 0:
        return None
    f = cdf(x)
    d = max(np.max(np.arange(1, n + 1) / n - f), np.max(f - np.arange(0, n) / n))
    # P(D > limit) < 1e-7 for a correct generator (Dvoretzky-Kiefer-Wolfowitz)
    limit = math.sqrt(math.log(2 / 1e-7) / (2 * n))
    return None if d <= limit else "Kolmogorov-Smirnov distance %.4g > %.4g over %d values" % (d, limit, n)


def _checked(a, cdf, low=None, high=None):
    dt = DT[a["dtype"]]

    def check(got):
        if got.dtype != dt or list(got.shape) != a["shape"]:
            return "dtype %s shape %s, asked %s %s" % (got.dtype, got.shape, a["dtype"], a["shape"])
        if not np.isfinite(got).all():
            return "non-finite values"
        if low is not None and not ((got >= low) & (got < high)).all():
            return "values outside [%g, %g)" % (low, high)
        return _ks(got, cdf)
    return Check(check)


def _dropout(a):
    dt = DT[a["dtype"]]
    rate = a["rate"]

    def check(got):
        if got.dtype != dt or list(got.shape) != a["shape"]:
            return "dtype %s shape %s, asked %s %s" % (got.dtype, got.shape, a["dtype"], a["shape"])
        scale = dt(1.0 / (1.0 - rate))  # TF: 1 / (1 - rate) in Python floats, then x dtype
        kept = got != 0
        if not (got[kept] == scale).all():
            return "kept values are not 1 / (1 - rate) = %r" % scale
        n = got.size
        sd = math.sqrt(n * rate * (1 - rate))
        dropped = int(n - kept.sum())
        if abs(dropped - n * rate) > 6 * sd:  # binomial: 6 standard deviations
            return "%d of %d dropped at rate %g" % (dropped, n, rate)
        return None
    return Check(check)


_erf = np.vectorize(math.erf)
REF = {
    "random_normal": lambda a: _checked(a, lambda x: 0.5 * (1 + _erf(x / math.sqrt(2)))),
    "random_uniform": lambda a: _checked(a, lambda x: np.clip(x, 0, 1), 0.0, 1.0),
    "dropout": _dropout,
}


# The stateless ops: the same distributions (tests/diff/ops/random.lua).
def _phi(x):
    return 0.5 * (1 + _erf(x / math.sqrt(2)))


def _ints(a, low, high):
    dt = DT[a["dtype"]]

    def check(got):
        if got.dtype != dt or list(got.shape) != a["shape"]:
            return "dtype %s shape %s, asked %s %s" % (got.dtype, got.shape, a["dtype"], a["shape"])
        if low is not None and got.size and not ((got >= low) & (got < high)).all():
            return "values outside [%d, %d)" % (low, high)
        if got.size > 100 and (high is None or high - low > 1) and len(np.unique(got)) < 2:
            return "one value %d times" % got.size
        return None
    return Check(check)


REF.update({
    "stateless_uniform": REF["random_uniform"],
    "stateless_normal": REF["random_normal"],
    "stateless_truncated_normal": lambda a: _checked(
        a, lambda x: np.clip((_phi(x) - _phi(-2.0)) / (_phi(2.0) - _phi(-2.0)), 0, 1), -2.0, 2.0000001),
    "stateless_uniform_int": lambda a: _ints(a, a["minval"], a["maxval"]),
    "stateless_uniform_full_int": lambda a: _ints(a, None, None),
})
