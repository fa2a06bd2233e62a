#!/usr/bin/python3
"""reference.py — NumPy's side of the elementwise differential test.

Reads cases on stdin as tests/diff/elementwise.lua writes them:

    case <index>
    in x1 <dtype> <rank> <dims...> : <values...>
    op v5 <dtype> <Op> <operands...>     (operand: a value's name, or
                                          c:<dtype>:<Lua literal>)
    val v5 <dtype> <rank> <dims...> : <values...>   (moonflow's eager value)
    err <ErrorType>                                  (or: moonflow raised)
    end

Floats are C99 hex floats (Lua's %a), "nan", "inf"; ints are decimal; bools
0/1. Each case is evaluated with NumPy following TensorFlow's documented
rules, not NumPy's own where they differ:
  - no dtype promotion (the program casts explicitly);
  - integer FloorDiv/FloorMod by zero and integer Pow to a negative power
    raise InvalidArgumentError (checked over every element of the input,
    when the output is not empty); integer arithmetic wraps;
  - FloorDiv on floats is floor(x / y) (NumPy's floor_divide is not);
    FloorMod on floats is fmod adjusted to the divisor's sign;
  - Round is half to even; Cast of a float to an integer truncates, and
    NaN or a value out of range gives the minimum integer (x86, as NumPy);
  - exact operations (+ - * /, sqrt, comparisons, casts, ...) must match
    bit for bit; transcendental functions within the ulp bounds below,
    measured against the value computed in long double.
Prints "fail <index> <why>" per differing case and "checked <n>".
"""
import sys
import warnings

import numpy as np

warnings.simplefilter("ignore")
np.seterr(all="ignore")

DT = {"float32": np.float32, "float64": np.float64, "int32": np.int32, "int64": np.int64,
      "bool": np.bool_}

# Error bounds in ulps of the result's dtype against the exact value (long
# double), per op and dtype: the accuracy moonflow documents for its own
# approximations (ops_elementwise.c, checked against glibc by
# tests/core/test_approx.c) plus half an ulp for glibc's own rounding;
# glibc's sin/cos/pow are within 1 ulp; Rsqrt is 1 / sqrt(x), two roundings.
# Ops not listed are exact.
ULPS = {
    ("Exp", "float32"): 1.5, ("Exp", "float64"): 2.5,
    ("Log", "float32"): 1.5, ("Log", "float64"): 1.5,
    ("Log1p", "float32"): 2.5, ("Log1p", "float64"): 3.5,
    ("Expm1", "float32"): 1.0, ("Expm1", "float64"): 1.0,
    ("Tanh", "float32"): 6.5, ("Tanh", "float64"): 1.5,
    ("Sigmoid", "float32"): 2.5, ("Sigmoid", "float64"): 2.5,
    ("Sin", "float32"): 1.0, ("Sin", "float64"): 1.0,
    ("Cos", "float32"): 1.0, ("Cos", "float64"): 1.0,
    ("Pow", "float32"): 1.0, ("Pow", "float64"): 1.0,
    ("Rsqrt", "float32"): 1.5, ("Rsqrt", "float64"): 1.5,
}
# The ops computed in a wider type (float32 in double, float64 in long
# double) and rounded once: within an ulp. Xlogy's float64 log is
# fastmath's (<= 1 ulp), then a product.
for _op in ("Sinh", "Cosh", "Tan", "Asin", "Acos", "Atan", "Asinh", "Acosh", "Atanh", "Lgamma",
            "Digamma", "Erf", "Erfc", "Softplus", "Elu", "Atan2", "Polygamma", "Softsign", "Selu"):
    ULPS[(_op, "float32")] = ULPS[(_op, "float64")] = 1.0
ULPS[("Xlogy", "float32")], ULPS[("Xlogy", "float64")] = 1.0, 2.5
# The special functions (core/ops/special_*.h) are evaluated in long
# double and rounded once: float32 within an ulp; float64 within the
# measured error of Cephes's tables (stored as doubles) and the series.
for _op in ("BesselI0", "BesselI0e", "BesselI1", "BesselI1e", "BesselK0", "BesselK0e", "BesselK1",
            "BesselK1e", "BesselJ0", "BesselJ1", "BesselY0", "BesselY1", "Xlog1py", "Zeta", "Igamma",
            "Igammac", "IgammaGradA"):
    ULPS[(_op, "float32")], ULPS[(_op, "float64")] = 1.0, 4.0
for _op in ("Dawsn", "FresnelCos", "FresnelSin", "Spence"):
    ULPS[(_op, "float32")], ULPS[(_op, "float64")] = 1.0, 4.0
# Ei's rational function below 2 is accurate in absolute terms: near its
# zero (x = 0.3725) the float64 relative error grows (64 ulps within 2e-4).
ULPS[("Expint", "float32")], ULPS[("Expint", "float64")] = 1.0, 64.0
# exp by fastmath (<= 1 ulp, float64 2), then a sum and a quotient
ULPS[("SoftplusGrad", "float32")], ULPS[("SoftplusGrad", "float64")] = 2.5, 3.5
# Ops whose zero results may differ in sign between TF's kernels and the
# formula here (IEEE leaves it to the order of operations).
LOOSE_ZERO_SIGN = {"Maximum", "Minimum", "Relu", "FloorMod", "ReluGrad", "SelectV2", "Relu6", "Relu6Grad",
                   "EluGrad", "SeluGrad", "Xdivy"}


class TFError(Exception):
    pass


def parse_value(s, dt):
    if dt == "bool":
        return s == "1"
    if dt in ("int32", "int64"):
        return int(s)
    if s in ("nan", "-nan"):
        return float("nan")
    return float.fromhex(s)


def parse_tensor(words):
    dt, rank = words[0], int(words[1])
    shape = tuple(int(w) for w in words[2:2 + rank])
    assert words[2 + rank] == ":"
    vals = [parse_value(w, dt) for w in words[3 + rank:]]
    return np.array(vals, dtype=DT[dt]).reshape(shape)


def literal(spec):
    _, dt, text = spec.split(":", 2)
    if text == "math.huge":
        v = float("inf")
    elif text == "(0/0)":
        v = float("nan")
    elif dt == "bool":
        v = text == "true"
    else:
        v = float(text) if dt.startswith("float") else int(text)
    return np.array(v, dtype=DT[dt])


def wide(x):
    """x in a type wide enough for the exact result of float ops."""
    return x.astype(np.longdouble)


def float_floordiv(a, b):
    return np.floor(a / b)


def float_floormod(a, b):
    r = np.fmod(a, b)
    return np.where((r != 0) & ((r < 0) != (b < 0)), r + b, r).astype(a.dtype)


def int_check(name, b, out_size, negative=False):
    if out_size == 0:
        return
    if negative and np.any(b < 0):
        raise TFError("InvalidArgumentError")
    if not negative and np.any(b == 0):
        raise TFError("InvalidArgumentError")


def cast(x, dt):
    to = DT[dt]
    if x.dtype.kind == "f" and dt in ("int32", "int64"):
        info = np.iinfo(to)
        t = np.trunc(x)
        bad = np.isnan(x) | (t < info.min) | (t > info.max) | (t == 2.0 ** (info.bits - 1))
        return np.where(bad, info.min, np.where(bad, 0, t).astype(to)).astype(to)
    return x.astype(to)


def _mp(f, x):
    """f (an mpmath function of one or two mpf) elementwise, exact in long
    double; a pole (ValueError or ZeroDivisionError) is +inf."""
    import mpmath
    mpmath.mp.dps = 30
    xs = [np.asarray(v) for v in (x if isinstance(x, tuple) else (x,))]
    shape = np.broadcast(*xs).shape
    flat = [np.broadcast_to(v, shape).reshape(-1) for v in xs]
    out = np.empty(int(np.prod(shape, dtype=np.int64)), dtype=np.longdouble)
    for i in range(out.size):
        vals = tuple(float(v[i]) for v in flat)
        if any(v != v for v in vals):
            out[i] = np.nan
            continue
        key = (f, vals)
        if key not in _MP_CACHE:
            try:
                r = f(*[mpmath.mpf(v) for v in vals])
            except (ValueError, ZeroDivisionError):
                r = mpmath.inf
            _MP_CACHE[key] = np.longdouble(mpmath.nstr(r, 25)) if mpmath.isfinite(r) else (
                np.nan if mpmath.isnan(r) else np.longdouble(float(r)))
        out[i] = _MP_CACHE[key]
    return out.reshape(shape)


# Values already computed (the random programs repeat their special values).
_MP_CACHE = {}


def _lgamma(x):
    import mpmath
    if x <= 0 and x == mpmath.floor(x):
        return mpmath.inf
    if mpmath.isinf(x):
        return mpmath.inf
    if x > 0:
        return mpmath.loggamma(x)
    # reflection: log|Gamma(x)| = log(pi / |sin(pi x)|) - log Gamma(1 - x)
    return mpmath.log(mpmath.pi / abs(mpmath.sinpi(x))) - mpmath.loggamma(1 - x)


def _digamma(x):
    """Eigen's digamma: +inf at the poles (non-positive integers, -inf)."""
    import mpmath
    if mpmath.isinf(x):
        return mpmath.inf
    if x <= 0 and x == mpmath.floor(x):
        return mpmath.inf
    return mpmath.digamma(x)


def _polygamma(n, x):
    import mpmath
    if n != mpmath.floor(n) or n < 0 or mpmath.isinf(n):
        return mpmath.nan
    if n == 0:
        return _digamma(x)
    if x == mpmath.inf:
        return mpmath.mpf(0)
    # Eigen's zeta is +inf at the poles (non-positive integers and -inf),
    # times polygamma's sign (-1)^(n+1)
    if x <= 0 and (mpmath.isinf(x) or x == mpmath.floor(x)):
        return mpmath.inf if int(n) % 2 == 1 else -mpmath.inf
    if x < -1e6:
        return mpmath.nan  # moonflow's zeta refuses the long summation there
    return mpmath.polygamma(int(n), x)


def _bessel(kind, n, scaled):
    """mpmath's Bessel function of `kind` (i, k, j, y) and order n; e^-|x|
    times it (i), e^x times it (k) when scaled. K and Y are +inf and -inf
    for x <= 0, as Eigen's (TF's); the limits at the infinities exact."""
    import mpmath

    def f(x):
        if kind in ("k", "y") and x <= 0:
            return mpmath.inf if kind == "k" else -mpmath.inf
        if mpmath.isinf(x):
            if kind == "i":
                return mpmath.mpf(0) if scaled else (x if n == 1 else mpmath.inf)
            return mpmath.mpf(0)
        if kind == "i":
            v = mpmath.besseli(n, x)
            return v * mpmath.exp(-abs(x)) if scaled else v
        if kind == "k":
            v = mpmath.besselk(n, x)
            return v * mpmath.exp(x) if scaled else v
        return mpmath.besselj(n, x) if kind == "j" else mpmath.bessely(n, x)
    return f


BESSEL = {"BesselI0": ("i", 0, False), "BesselI0e": ("i", 0, True), "BesselI1": ("i", 1, False),
          "BesselI1e": ("i", 1, True), "BesselK0": ("k", 0, False), "BesselK0e": ("k", 0, True),
          "BesselK1": ("k", 1, False), "BesselK1e": ("k", 1, True), "BesselJ0": ("j", 0, False),
          "BesselJ1": ("j", 1, False), "BesselY0": ("y", 0, False), "BesselY1": ("y", 1, False)}
_BESSEL_FNS = {op: _bessel(*spec) for op, spec in BESSEL.items()}


def _dawsn(x):
    import mpmath
    if mpmath.isinf(x):
        return mpmath.mpf(0)
    if abs(x) > 50:
        # the asymptotic series 1/2x sum (2k-1)!! / (2x^2)^k (erfi overflows)
        s, term = mpmath.mpf(0), mpmath.mpf(1)
        for k in range(1, 30):
            s += term
            term *= (2 * k - 1) / (2 * x * x)
        return s / (2 * x)
    return mpmath.sqrt(mpmath.pi) / 2 * mpmath.exp(-x * x) * mpmath.erfi(x)


def _expint(x):
    """Ei(x); NaN for x < 0 as TF's kernel (Cephes's ei)."""
    import mpmath
    if x < 0:
        return mpmath.nan
    if x == 0:
        return -mpmath.inf
    if mpmath.isinf(x):
        return mpmath.inf
    return mpmath.ei(x)


def _fresnel(sine):
    def f(x):
        import mpmath
        # TF's kernel (Cephes's fresnl) is +-1/2 past |x| = 36974, where
        # the value is still 1/2 -+ 1 / (pi x) away from it
        if abs(x) > 36974:
            return mpmath.mpf(0.5) if x > 0 else mpmath.mpf(-0.5)
        return mpmath.fresnels(x) if sine else mpmath.fresnelc(x)
    return f


def _spence(x):
    """Cephes's spence(x) = dilog(1 - x); NaN for x < 0, -inf at inf."""
    import mpmath
    if x < 0:
        return mpmath.nan
    if mpmath.isinf(x):
        return -mpmath.inf
    return mpmath.polylog(2, 1 - x)


MISC = {"Dawsn": _dawsn, "Expint": _expint, "FresnelCos": _fresnel(False), "FresnelSin": _fresnel(True),
        "Spence": _spence}


def _igamma_domain(a, x):
    """Eigen's special values of P(a, x): None where the series decides."""
    import mpmath
    if x < 0 or a <= 0:
        return mpmath.nan
    if x == 0:
        return mpmath.mpf(0)
    if mpmath.isinf(a):
        return mpmath.mpf(0)  # the factor x^a e^-x / Gamma(a) is NaN: 0
    if mpmath.isinf(x):
        return mpmath.mpf(1)
    return None


def _igamma(a, x):
    import mpmath
    v = _igamma_domain(a, x)
    return v if v is not None else mpmath.gammainc(a, 0, x, regularized=True)


def _igammac(a, x):
    import mpmath
    if x < 0 or a <= 0:
        return mpmath.nan
    v = _igamma_domain(a, x)
    return 1 - v if v is not None else mpmath.gammainc(a, x, mpmath.inf, regularized=True)


def _igamma_grad_a(a, x):
    import mpmath
    v = _igamma_domain(a, x)
    if v is not None:
        return v if mpmath.isnan(v) else mpmath.mpf(0)
    return mpmath.diff(lambda t: mpmath.gammainc(t, 0, x, regularized=True), a)


def _zeta(s, q):
    """Eigen's zeta(s, q): +inf at s = 1 and at the poles q = 0, -1, ...;
    NaN for s < 1 and where q^-s is complex."""
    import mpmath
    if s == 1:
        return mpmath.inf
    if s < 1:
        return mpmath.nan
    if q == mpmath.inf:
        return mpmath.mpf(0)
    if q <= 0:
        if q == mpmath.floor(q):
            return mpmath.inf
        if s != mpmath.floor(s) or q < -1e6:
            return mpmath.nan
    if mpmath.isinf(s):
        # Eigen's sum starts at q^-inf = 0 and is then 0 / 0 for q > 1
        return mpmath.nan if q > 1 else (mpmath.mpf(1) if q == 1 else mpmath.inf)
    return mpmath.zeta(s, q)


def _erf(x):
    import mpmath
    if abs(x) >= 10:  # erf rounds to +-1 in long double long before
        return mpmath.mpf(1 if x > 0 else -1)
    return mpmath.erf(x)


def _erfc(x):
    import mpmath
    if x >= 120:  # below long double's least value
        return mpmath.mpf(0)
    if x <= -10:
        return mpmath.mpf(2)
    return mpmath.erfc(x)


def _softplus(x):
    import mpmath
    if mpmath.isinf(x):
        return x if x > 0 else mpmath.mpf(0)
    return mpmath.log1p(mpmath.exp(x))


def trunc_div(a, b):
    """C's integer division (toward zero); x / -1 wraps as TF's."""
    with np.errstate(all="ignore"):
        r = np.fmod(a, np.where(b == 0, 1, b))
        q = (a - r) // np.where(b == 0, 1, b)
    return q.astype(a.dtype)


def evaluate(op, args, dt):
    """The value of `op` on numpy args; ("approx", exact) for float results
    that are checked within an ulp bound."""
    is_float = dt in ("float32", "float64")
    a = args[0]
    b = args[1] if len(args) > 1 else None
    size = int(np.broadcast(*args).size) if len(args) > 1 else a.size
    if op == "Neg":
        return -a
    if op == "Abs":
        return np.abs(a)
    if op == "Sign":
        return np.sign(a)
    if op == "Square":
        return a * a
    if op == "Sqrt":
        return np.sqrt(a)
    if op == "Identity":
        return a
    if op == "Cast":
        return cast(a, dt)
    if op == "Rsqrt":
        return ("approx", 1 / np.sqrt(wide(a)))
    if op == "Exp":
        return ("approx", np.exp(wide(a)))
    if op == "Log":
        return ("approx", np.log(wide(a)))
    if op == "Log1p":
        return ("approx", np.log1p(wide(a)))
    if op == "Expm1":
        return ("approx", np.expm1(wide(a)))
    if op == "Sin":
        return ("approx", np.sin(wide(a)))
    if op == "Cos":
        return ("approx", np.cos(wide(a)))
    if op == "Tanh":
        return ("approx", np.tanh(wide(a)))
    if op == "Sigmoid":
        w = wide(a)
        return ("approx", 1 / (1 + np.exp(-w)))
    if op == "Round":
        return np.rint(a) if is_float else a
    if op == "Floor":
        return np.floor(a)
    if op == "Ceil":
        return np.ceil(a)
    if op == "Reciprocal":
        return np.array(1, dtype=a.dtype) / a
    if op == "Relu":
        return np.where(a < 0, np.zeros_like(a), a)
    if op == "LogicalNot":
        return ~a
    if op == "AddV2":
        return a + b
    if op == "Sub":
        return a - b
    if op == "Mul":
        return a * b
    if op == "RealDiv":
        return a / b
    if op == "TrueDiv":
        return a.astype(np.float64) / b.astype(np.float64)
    if op == "FloorDiv":
        if is_float:
            return float_floordiv(a, b)
        int_check(op, b, size)
        return np.floor_divide(a, b)
    if op == "FloorMod":
        if is_float:
            return float_floormod(a, b)
        int_check(op, b, size)
        return np.where(b == -1, np.zeros_like(a), np.mod(a, np.where(b == -1, 1, b)))
    if op == "Pow":
        if is_float:
            # long double for accuracy; C99's special values where an operand
            # is infinite or NaN (NumPy's long double pow gets pow(-inf, y)
            # wrong), from the dtype's own pow
            finite = np.isfinite(a) & np.isfinite(b)
            return ("approx", np.where(finite, np.power(wide(a), wide(b)),
                                       wide(np.power(a, b))))
        int_check(op, b, size, negative=True)
        return np.power(a, b)
    if op == "Maximum":
        return np.maximum(a, b)
    if op == "Minimum":
        return np.minimum(a, b)
    if op == "DivNoNan":
        return np.where(b == 0, np.zeros_like(a / b), a / b)
    if op == "SquaredDifference":
        return (a - b) * (a - b)
    if op == "Equal":
        return a == b
    if op == "NotEqual":
        return a != b
    if op == "Less":
        return a < b
    if op == "LessEqual":
        return a <= b
    if op == "Greater":
        return a > b
    if op == "GreaterEqual":
        return a >= b
    if op == "LogicalAnd":
        return a & b
    if op == "LogicalOr":
        return a | b
    if op == "SelectV2":
        return np.where(a, b, args[2])
    # gradient helpers, in the order of operations of their kernels
    if op == "ReluGrad":
        return np.where(b > 0, a, np.zeros_like(a))
    if op == "TanhGrad":
        one = np.array(1, dtype=a.dtype)
        return b * (one - a * a)
    if op == "SigmoidGrad":
        one = np.array(1, dtype=a.dtype)
        return b * a * (one - a)
    if op == "SqrtGrad":
        return b * np.array(0.5, dtype=a.dtype) / a
    if op == "RsqrtGrad":
        return b * np.array(-0.5, dtype=a.dtype) * (a * a * a)
    # the transcendental functions, exact in long double (mpmath where
    # NumPy has no long double version)
    if op == "Sinh":
        return ("approx", np.sinh(wide(a)))
    if op == "Cosh":
        return ("approx", np.cosh(wide(a)))
    if op == "Tan":
        return ("approx", np.tan(wide(a)))
    if op == "Asin":
        with np.errstate(invalid="ignore"):
            return ("approx", np.arcsin(wide(a)))
    if op == "Acos":
        with np.errstate(invalid="ignore"):
            return ("approx", np.arccos(wide(a)))
    if op == "Atan":
        return ("approx", np.arctan(wide(a)))
    if op == "Asinh":
        return ("approx", np.arcsinh(wide(a)))
    if op == "Acosh":
        with np.errstate(invalid="ignore"):
            return ("approx", np.arccosh(wide(a)))
    if op == "Atanh":
        with np.errstate(invalid="ignore", divide="ignore"):
            return ("approx", np.arctanh(wide(a)))
    if op == "Lgamma":
        return ("approx", _mp(_lgamma, a))
    if op == "Digamma":
        return ("approx", _mp(_digamma, a))
    if op == "Polygamma":
        return ("approx", _mp(_polygamma, (a, b)))
    if op in BESSEL:
        return ("approx", _mp(_BESSEL_FNS[op], a))
    if op in MISC:
        return ("approx", _mp(MISC[op], a))
    if op == "Igamma":
        return ("approx", _mp(_igamma, (a, b)))
    if op == "Igammac":
        return ("approx", _mp(_igammac, (a, b)))
    if op == "IgammaGradA":
        return ("approx", _mp(_igamma_grad_a, (a, b)))
    if op == "Zeta":
        return ("approx", _mp(_zeta, (a, b)))
    if op == "Xlog1py":
        with np.errstate(all="ignore"):
            w = wide(np.broadcast_to(a, np.broadcast(a, b).shape))
            return ("approx", np.where(w == 0, np.longdouble(0), w * np.log1p(wide(b))))
    if op == "Erf":
        return ("approx", _mp(_erf, a))
    if op == "Erfc":
        return ("approx", _mp(_erfc, a))
    if op == "Rint":
        return np.rint(a)
    if op == "IsNan":
        return np.isnan(a)
    if op == "IsInf":
        return np.isinf(a)
    if op == "IsFinite":
        return np.isfinite(a)
    if op == "Softplus":
        return ("approx", _mp(_softplus, a))
    if op == "Softsign":
        with np.errstate(invalid="ignore"):
            w = wide(a)
            return ("approx", w / (np.abs(w) + 1))
    if op == "Elu":
        w = wide(a)
        return ("approx", np.where(w < 0, np.expm1(w), w))
    if op == "Selu":
        w = wide(a)
        alpha = np.longdouble("1.6732632423543772848170429916717")
        scale = np.longdouble("1.0507009873554804934193349852946")
        return ("approx", np.where(w < 0, scale * alpha * np.expm1(w), scale * w))
    if op == "Relu6":
        return np.where(a < 0, np.zeros_like(a), np.where(a > 6, np.full_like(a, 6), a))
    if op == "Atan2":
        return ("approx", np.arctan2(wide(a), wide(b)))
    if op == "TruncateDiv":
        if is_float:
            with np.errstate(all="ignore"):
                return np.trunc(a / b)
        int_check(op, b, size)
        return trunc_div(a, b)
    if op == "TruncateMod":
        if is_float:
            with np.errstate(invalid="ignore"):
                return np.fmod(a, b)
        int_check(op, b, size)
        return np.where(b == -1, np.zeros_like(a), np.fmod(a, np.where(b == -1, 1, b)))
    if op == "Xdivy":
        with np.errstate(all="ignore"):
            return np.where(a == 0, np.zeros_like(a / b), a / b)
    if op == "Xlogy":
        with np.errstate(all="ignore"):
            w = wide(np.broadcast_to(a, np.broadcast(a, b).shape))
            return ("approx", np.where(w == 0, np.longdouble(0), w * np.log(wide(b))))
    # the activations' backprops, in the order of operations of their kernels
    if op == "SoftplusGrad":
        with np.errstate(over="ignore"):
            # where exp(-b) overflows the dtype, the kernel divides by inf
            own = np.exp(-b)
            exact = wide(a) / (np.exp(-wide(b)) + 1)
            return ("approx", np.where(np.isinf(own), wide(a / own), exact))
    if op == "SoftsignGrad":
        one = np.array(1, dtype=a.dtype)
        return a / ((one + np.abs(b)) * (one + np.abs(b)))
    if op == "EluGrad":
        one = np.array(1, dtype=a.dtype)
        return np.where(b < 0, a * (b + one), a)
    if op == "SeluGrad":
        sa = np.array(1.6732632423543772848170429916717 * 1.0507009873554804934193349852946, dtype=a.dtype)
        sc = np.array(1.0507009873554804934193349852946, dtype=a.dtype)
        return np.where(b < 0, a * (b + sa), a * sc)
    if op == "Relu6Grad":
        return np.where((b > 0) & (b < 6), a, np.zeros_like(a))
    raise ValueError("reference.py has no rule for " + op)


def ulp_of(x, dt):
    """The spacing of dtype dt at |x| (x exact, long double)."""
    t = DT[dt]
    r = np.abs(x).astype(t)
    r = np.where(np.isfinite(r), r, np.finfo(t).max)
    return np.spacing(r).astype(np.longdouble)


def check_value(name, op, dt, want, got):
    """None or why got (moonflow) is not want."""
    if got.shape != np.shape(want[1] if isinstance(want, tuple) else want):
        return "%s: shape %s, NumPy %s" % (name, got.shape, np.shape(want))
    if isinstance(want, tuple):
        exact = want[1]
        rounded = exact.astype(DT[dt])
        bound = ULPS[(op, dt)]
        g = got.astype(np.longdouble)
        both_nan = np.isnan(rounded) & np.isnan(got)
        same_inf = np.isinf(rounded) & (rounded == got)
        with np.errstate(all="ignore"):
            err = np.abs(g - exact) / ulp_of(exact, dt)
        ok = both_nan | same_inf | (np.isfinite(got) & np.isfinite(rounded) & (err <= bound))
        # a result that rounds to the largest finite value may overflow
        ok |= np.isinf(got) & (np.abs(exact) >= np.finfo(DT[dt]).max)
        if not ok.all():
            i = int(np.argmin(ok.reshape(-1)))
            return "%s (%s %s) element %d: %r, exact %r (%s ulp, bound %s)" % (
                name, op, dt, i, got.reshape(-1)[i], float(exact.reshape(-1)[i]),
                float(err.reshape(-1)[i]), bound)
        return None
    want = np.asarray(want)
    if want.dtype != got.dtype:
        return "%s: dtype %s, NumPy gives %s" % (name, got.dtype, want.dtype)
    w, g = want.reshape(-1), got.reshape(-1)
    if got.dtype.kind == "f":
        same = w == g
        if op not in LOOSE_ZERO_SIGN:
            same &= np.signbit(w) == np.signbit(g)
        same |= np.isnan(w) & np.isnan(g)  # any NaN: TF leaves sign and payload open
    else:
        same = w == g
    if not same.all():
        i = int(np.argmin(same))
        return "%s (%s %s) element %d: %r, NumPy under TF's rules %r" % (name, op, dt, i, g[i], w[i])
    return None


def run_case(lines):
    """Each op is checked on moonflow's own values of its operands (so an
    approximation's last bit never spreads into what follows); when
    moonflow raised, NumPy's values flow through the program instead to
    find whether TF's rules raise too."""
    values, ops, got, err = {}, [], {}, None
    for words in lines:
        if words[0] == "in":
            values[words[1]] = parse_tensor(words[2:])
        elif words[0] == "op":
            ops.append(words[1:])
        elif words[0] == "val":
            got[words[1]] = parse_tensor(words[2:])
        elif words[0] == "err":
            err = words[1]
    if err:
        try:
            for name, dt, op, *operands in ops:
                args = [literal(o) if o.startswith("c:") else values[o] for o in operands]
                v = evaluate(op, args, dt)
                v = v[1] if isinstance(v, tuple) else v
                values[name] = np.asarray(v).astype(DT[dt])
        except TFError as e:
            return None if str(e) == err else "moonflow raised %s, TF's rules %s" % (err, e)
        return "moonflow raised %s, TF's rules give a result" % err
    problems = []
    for name, dt, op, *operands in ops:
        args = [literal(o) if o.startswith("c:") else got.get(o, values.get(o)) for o in operands]
        try:
            want = evaluate(op, args, dt)
        except TFError as e:
            problems.append("%s (%s): moonflow gives a result, TF's rules raise %s" % (name, op, e))
            break
        if not isinstance(want, tuple):
            want = np.asarray(want).astype(DT[dt])
        why = check_value(name, op, dt, want, got[name])
        if why:
            problems.append(why + " [operands: %s]" % ", ".join(
                "%s=%s" % (o, np.array2string(a.reshape(-1)[:6], separator=",")) for o, a in
                zip(operands, args)))
    return "; ".join(problems) or None


def main():
    checked = 0
    case, lines = None, []
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        if words[0] == "case":
            case, lines = int(words[1]), []
        elif words[0] == "end":
            checked += 1
            try:
                why = run_case(lines)
            except Exception as e:  # a reference bug names the case too
                why = "reference.py: %s: %s" % (type(e).__name__, e)
            if why:
                print("fail %d %s" % (case, why))
        else:
            lines.append(words)
    print("checked %d" % checked)


if __name__ == "__main__":
    main()
