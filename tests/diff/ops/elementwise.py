"""References for tests/diff/ops/elementwise.lua: the rules of
tests/diff/reference.py (TF's, with its ulp bounds), per op."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import reference  # noqa: E402
from opref import Approx, LooseZero, TFError, raise_if  # noqa: E402

BOOL_RESULT = {"Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual", "IsNan", "IsInf",
               "IsFinite"}


def _broadcastable(*xs):
    try:
        np.broadcast(*xs)
    except ValueError:
        raise TFError("InvalidArgumentError")


def _ew(op):
    def ref(a, *xs):
        if len(xs) > 1:
            _broadcastable(*xs)
        x = xs[1] if op == "SelectV2" else xs[0]
        dt = "bool" if op in BOOL_RESULT else a.get("to") if op == "Cast" else x.dtype.name
        if op == "Cast" and a.get("via"):
            xs = [reference.cast(xs[0], a["via"])]
        try:
            v = reference.evaluate(op, list(xs), dt)
        except reference.TFError as e:
            raise TFError(str(e))
        if isinstance(v, tuple):
            # an ulp bound against the exact value (computed in long double)
            return Approx(v[1], dt, reference.ULPS[(op, dt)] if dt != "float64" or
                          (op, dt) in reference.ULPS else 0.5)
        v = np.asarray(v).astype(reference.DT[dt])
        return LooseZero(v) if op in reference.LOOSE_ZERO_SIGN else v
    return ref


OPS = ["Neg", "Abs", "Sign", "Square", "Sqrt", "Rsqrt", "Exp", "Expm1", "Log", "Log1p", "Sin", "Cos",
       "Tanh", "Sigmoid", "Round", "Floor", "Ceil", "Reciprocal", "Relu", "LogicalNot", "Identity",
       "AddV2", "Sub", "Mul", "RealDiv", "FloorDiv", "FloorMod", "Pow", "Maximum", "Minimum",
       "DivNoNan", "SquaredDifference", "Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual", "LogicalAnd",
       "LogicalOr", "SelectV2", "Cast", "ReluGrad", "TanhGrad", "SigmoidGrad", "SqrtGrad",
       "RsqrtGrad",
       "Sinh", "Cosh", "Tan", "Asin", "Acos", "Atan", "Asinh", "Acosh", "Atanh", "Lgamma", "Digamma",
       "Erf", "Erfc", "Rint", "IsNan", "IsInf", "IsFinite", "Softplus", "Softsign", "Elu", "Selu",
       "Relu6", "Atan2", "TruncateDiv", "TruncateMod", "Xdivy", "Xlogy", "Polygamma",
       "SoftplusGrad", "SoftsignGrad", "EluGrad", "SeluGrad", "Relu6Grad",
       "BesselI0", "BesselI0e", "BesselI1", "BesselI1e", "BesselK0", "BesselK0e", "BesselK1",
       "BesselK1e", "BesselJ0", "BesselJ1", "BesselY0", "BesselY1", "Xlog1py", "Zeta", "Igamma",
       "Igammac", "IgammaGradA", "Dawsn", "Expint", "FresnelCos", "FresnelSin", "Spence"]
REF = {"ew_" + op: _ew(op) for op in OPS}


def _leaky(a, x, f=None):
    """LeakyRelu(x) and LeakyReluGrad(g, f) as TF's kernels: g * alpha
    (alpha rounded to the dtype) where the features are not above 0."""
    g = x
    f = x if f is None else f
    _broadcastable(g, f)
    alpha = np.array(a["alpha"], dtype=g.dtype)
    return np.where(f > 0, g, g * alpha)


REF["ew_LeakyRelu"] = lambda a, x: _leaky(a, x)
REF["ew_LeakyReluGrad"] = lambda a, g, f: _leaky(a, g, f)


def _bga(a, s0, s1):
    s0, s1 = [int(v) for v in s0], [int(v) for v in s1]
    n = max(len(s0), len(s1))
    p0 = [1] * (n - len(s0)) + s0
    p1 = [1] * (n - len(s1)) + s1
    r0, r1 = [], []
    for i in range(n):
        d0, d1 = p0[i], p1[i]
        raise_if(d0 != d1 and d0 != 1 and d1 != 1)
        if d0 == 1 and d1 == 1:
            r0.append(i)
            r1.append(i)
        elif d0 == 1:
            r0.append(i)
        elif d1 == 1:
            r1.append(i)
    dt = s0.dtype if hasattr(s0, "dtype") else None
    return [np.array(r0, dtype=a.get("_dt", "int32")), np.array(r1, dtype=a.get("_dt", "int32"))]


def _bga_typed(a, s0, s1):
    r = _bga(dict(a, _dt=s0.dtype.name), s0, s1)
    return r


REF["broadcast_gradient_args"] = _bga_typed
REF["stop_gradient"] = lambda a, x: x
REF["identity_n"] = lambda a, x, y: [x, y]
# the derivative TF defines, where it is not the math's
GRAD = {"stop_gradient": lambda a, inputs, ws: [np.zeros(inputs[0].shape)],
        # TF passes the gradient through a float cast (cast back); finite
        # differences would measure float32's rounding steps instead
        "ew_Cast": lambda a, inputs, ws: [ws[1].astype(np.float64)]}


def _t(fn):
    return lambda a, *xs: fn(*xs)


def _torch():
    import torch
    return torch


def _tref(name):
    def ref(a, *xs):
        t = _torch()
        table = {
            "Neg": t.neg, "Abs": t.abs, "Sign": t.sign, "Square": t.square, "Sqrt": t.sqrt,
            "Rsqrt": t.rsqrt, "Exp": t.exp, "Expm1": t.expm1, "Log": t.log, "Log1p": t.log1p, "Sin": t.sin,
            "Cos": t.cos, "Tanh": t.tanh, "Sigmoid": t.sigmoid, "Reciprocal": t.reciprocal,
            "Relu": t.relu, "Identity": lambda x: x, "AddV2": t.add, "Sub": t.sub, "Mul": t.mul,
            "RealDiv": t.div, "FloorMod": t.remainder, "Pow": t.pow, "Maximum": t.maximum,
            "Minimum": t.minimum, "SelectV2": t.where,
            "DivNoNan": lambda x, y: t.where(y == 0, t.zeros_like(x * y), x / t.where(y == 0, t.ones_like(y), y)),
            "SquaredDifference": lambda x, y: (x - y) * (x - y), "Cast": lambda x: x.to(t.float32).to(t.float64),
            "Sinh": t.sinh, "Cosh": t.cosh, "Tan": t.tan, "Asin": t.asin, "Acos": t.acos, "Atan": t.atan,
            "Asinh": t.asinh, "Acosh": t.acosh, "Atanh": t.atanh, "Lgamma": t.lgamma, "Digamma": t.digamma,
            "Erf": t.erf, "Erfc": t.erfc, "Softplus": t.nn.functional.softplus,
            "Softsign": t.nn.functional.softsign, "Elu": t.nn.functional.elu, "Selu": t.nn.functional.selu,
            "Relu6": t.nn.functional.relu6, "Atan2": t.atan2, "Xlogy": t.xlogy,
            "Xdivy": lambda x, y: t.where(x == 0, t.zeros_like(x * y), x / y),
        }
        return table[name](*xs)
    return ref


def _t_leaky(a, x):
    return _torch().nn.functional.leaky_relu(x, a["alpha"])


TORCH = {"ew_" + op: _tref(op) for op in
         ["Neg", "Abs", "Sign", "Square", "Sqrt", "Rsqrt", "Exp", "Expm1", "Log", "Log1p", "Sin", "Cos",
          "Tanh", "Sigmoid", "Reciprocal", "Relu", "Identity", "AddV2", "Sub", "Mul", "RealDiv",
          "FloorMod", "Pow", "Maximum", "Minimum", "SelectV2", "Cast", "DivNoNan", "SquaredDifference",
          "Sinh", "Cosh", "Tan", "Asin", "Acos", "Atan", "Asinh", "Acosh", "Atanh", "Lgamma", "Digamma",
          "Erf", "Erfc", "Softplus", "Softsign", "Elu", "Selu", "Relu6", "Atan2", "Xlogy", "Xdivy"]}
TORCH["stop_gradient"] = lambda a, x: x.detach()
TORCH["identity_n"] = lambda a, x, y: [x, y]
TORCH["ew_LeakyRelu"] = _t_leaky


def _betainc_value(a, b, x):
    """I_x(a, b) as Cephes's incbet defines it: NaN outside a > 0, b > 0,
    0 <= x <= 1 (and for an infinite a or b), 0 and 1 at the ends."""
    import mpmath
    if any(v != v for v in (a, b, x)) or a <= 0 or b <= 0 or x < 0 or x > 1:
        return mpmath.nan
    if x == 0:
        return mpmath.mpf(0)
    if x == 1:
        return mpmath.mpf(1)
    if mpmath.isinf(a) or mpmath.isinf(b):
        return mpmath.nan
    return mpmath.betainc(a, b, 0, x, regularized=True)


def _betainc(a, ta, tb, tx):
    """TF's Betainc: inputs that are not scalars must have one shape; within
    2 ulps (float32) and 4 (float64) of the exact value."""
    shapes = [t.shape for t in (ta, tb, tx) if t.ndim > 0]
    if any(s != shapes[0] for s in shapes):
        raise TFError("InvalidArgumentError")
    v = reference._mp(_betainc_value, (ta, tb, tx))
    return Approx(v, ta.dtype.name, 2.0 if ta.dtype == np.float32 else 4.0)


REF["ew_Betainc"] = _betainc
