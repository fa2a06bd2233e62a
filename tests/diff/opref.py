"""opref.py — what the reference modules (tests/diff/ops/*.py) share.

A reference is REF[name](a, *inputs): `a` the case's attributes (a dict
from JSON), inputs NumPy arrays in the case's dtypes. It returns the
results TensorFlow's rules give (one array, or a list), each either
  - a NumPy array of TF's result dtype: compared exactly (NaN matches NaN,
    the sign of zero counts unless wrapped in LooseZero), or
  - Approx(value, dtype, ulps, scale): within ulps * eps(dtype) * (|value| +
    scale), for results whose rounding TF leaves open (sums in any order,
    transcendental functions); scale is the magnitude of what was summed,
    so cancellation does not demand digits no order of summation has.
or raises TFError("InvalidArgumentError") (etc.) where TF raises.
For the finite-difference check REF is called again with the float inputs
in float64 and must then compute in float64.

TORCH[name](a, *tensors) computes the same with PyTorch (float inputs as
float64 tensors that require grad, integers as int64) and returns its
results; only float results enter the gradient comparison.
"""
import numpy as np

DT = {"float32": np.float32, "float64": np.float64, "int32": np.int32, "int64": np.int64,
      "bool": np.bool_, "string": object,
      # the small dtypes (issue 28); bfloat16 has no NumPy dtype here
      "float16": np.float16, "int8": np.int8, "int16": np.int16, "uint8": np.uint8,
      "uint16": np.uint16, "uint32": np.uint32, "uint64": np.uint64}


class TFError(Exception):
    pass


def raise_if(cond, kind="InvalidArgumentError"):
    if cond:
        raise TFError(kind)


class Approx:
    def __init__(self, value, dtype, ulps, scale=None):
        self.value = np.asarray(value, dtype=np.float64) if not isinstance(value, np.ndarray) \
            or value.dtype != np.longdouble else value
        self.dtype = np.dtype(dtype)
        self.ulps = ulps
        self.scale = 0 if scale is None else np.asarray(scale, dtype=np.float64)


class Check:
    """A result judged by a function (got -> None or why), for results
    with no one right value (random ops)."""
    def __init__(self, fn):
        self.fn = fn


class LooseZero:
    """An exact result whose zeros may have either sign."""
    def __init__(self, value):
        self.value = np.asarray(value)


def eps(dtype):
    return float(np.finfo(np.dtype(dtype)).eps)


def axis_list(axis, rank):
    """TF's axis argument (int, list or None) as sorted non-negative ints;
    InvalidArgumentError when one is out of range."""
    if axis is None:
        return list(range(rank))
    if isinstance(axis, int):
        axis = [axis]
    out = []
    for x in axis:
        raise_if(not -rank <= x < rank)
        out.append(x % rank)
    return sorted(set(out))


def norm_axis(axis, rank):
    raise_if(not -rank <= axis < rank)
    return axis % rank
