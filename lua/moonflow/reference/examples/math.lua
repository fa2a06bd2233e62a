-- math: examples and errors for the reference (docs/reference.md and %help).
return {
  ["tf.math.abs"] = {
    example = [[
print(tf.math.abs(tf.constant({-2, 3})))
]],
    output = [[
tf.Tensor([2 3], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.math.abs(tf.constant({"a"}))]], type = "InvalidArgumentError", message = "Abs expects a float32, float64, int32 or int64 tensor for input #0(zero-based), got string" },
    },
  },
  ["tf.math.acos"] = {
    example = [[
print(tf.math.acos(tf.constant({-1.0, 0.0, 1.0})))
]],
    output = [[
tf.Tensor([3.1415927 1.5707964 0.       ], shape=(3,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.acos(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Acos expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.acosh"] = {
    example = [[
print(tf.math.acosh(tf.constant({1.0, 2.0})))
]],
    output = [[
tf.Tensor([0.       1.316958], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.acosh(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Acosh expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.add"] = {
    example = [[
print(tf.math.add(tf.constant({1, 2}), tf.constant({10, 20})))
]],
    output = [[
tf.Tensor([11 22], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.math.add(tf.constant({1.0, 2.0}), tf.constant({1.0, 2.0, 3.0}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [2] vs. [3]" },
      { code = [[tf.math.add(tf.constant({1.0}), tf.constant({1}))]], type = "InvalidArgumentError", message = "cannot compute AddV2 as input #1(zero-based) was expected to be a float tensor but is a int32 tensor" },
    },
  },
  ["tf.math.asin"] = {
    example = [[
print(tf.math.asin(tf.constant({-1.0, 0.0, 1.0})))
]],
    output = [[
tf.Tensor([-1.5707964  0.         1.5707964], shape=(3,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.asin(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Asin expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.asinh"] = {
    example = [[
print(tf.math.asinh(tf.constant({0.0, 1.0})))
]],
    output = [[
tf.Tensor([0.        0.8813736], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.asinh(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Asinh expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.atan"] = {
    example = [[
print(tf.math.atan(tf.constant({0.0, 1.0})))
]],
    output = [[
tf.Tensor([0.        0.7853982], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.atan(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Atan expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.atan2"] = {
    example = [[
print(tf.math.atan2(tf.constant({1.0, -1.0}), tf.constant({1.0, 1.0})))
]],
    output = [[
tf.Tensor([ 0.7853982 -0.7853982], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.atan2(tf.constant({1.0, 2.0}), tf.constant({1.0, 2.0, 3.0}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [2] vs. [3]" },
    },
  },
  ["tf.math.atanh"] = {
    example = [[
print(tf.math.atanh(tf.constant({0.0, 0.5})))
]],
    output = [[
tf.Tensor([0.         0.54930615], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.atanh(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Atanh expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.ceil"] = {
    example = [[
print(tf.math.ceil(tf.constant({-1.5, 1.2})))
]],
    output = [[
tf.Tensor([-1.  2.], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.ceil(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Ceil expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.cos"] = {
    example = [[
print(tf.math.cos(tf.constant({0.0, 1.0})))
]],
    output = [[
tf.Tensor([1.        0.5403023], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.cos(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Cos expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.cosh"] = {
    example = [[
print(tf.math.cosh(tf.constant({0.0, 1.0})))
]],
    output = [[
tf.Tensor([1.        1.5430807], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.cosh(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Cosh expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.digamma"] = {
    example = [[
print(tf.math.digamma(tf.constant({1.0, 2.0})))
]],
    output = [[
tf.Tensor([-0.5772157   0.42278433], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.digamma(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Digamma expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.divide"] = {
    example = [[
print(tf.math.divide(tf.constant({1.0, 3.0}), tf.constant({2.0, 4.0})))
]],
    output = [[
tf.Tensor([0.5  0.75], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.divide(tf.constant({1.0, 2.0}), tf.constant({1.0, 2.0, 3.0}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [2] vs. [3]" },
    },
  },
  ["tf.math.divide_no_nan"] = {
    example = [[
print(tf.math.divide_no_nan(tf.constant({1.0, 2.0}), tf.constant({0.0, 4.0})))
]],
    output = [[
tf.Tensor([0.  0.5], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.divide_no_nan(tf.constant({1.0, 2.0}), tf.constant({1.0, 2.0, 3.0}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [2] vs. [3]" },
    },
  },
  ["tf.math.equal"] = {
    example = [[
print(tf.math.equal(tf.constant({1, 2}), tf.constant({1, 3})))
]],
    output = [[
tf.Tensor([ True False], shape=(2,), dtype=bool)
]],
    errors = {
      { code = [[tf.math.equal(tf.constant({1.0, 2.0}), tf.constant({1.0, 2.0, 3.0}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [2] vs. [3]" },
    },
  },
  ["tf.math.erf"] = {
    example = [[
print(tf.math.erf(tf.constant({0.0, 1.0})))
]],
    output = [[
tf.Tensor([0.        0.8427008], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.erf(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Erf expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.erfc"] = {
    example = [[
print(tf.math.erfc(tf.constant({0.0, 1.0})))
]],
    output = [[
tf.Tensor([1.        0.1572992], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.erfc(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Erfc expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.exp"] = {
    example = [[
print(tf.math.exp(tf.constant({0.0, 1.0})))
]],
    output = [[
tf.Tensor([1.        2.7182817], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.exp(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Exp expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.expm1"] = {
    example = [[
print(tf.math.expm1(tf.constant({0.0, 1.0})))
]],
    output = [[
tf.Tensor([0.        1.7182817], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.expm1(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Expm1 expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.floor"] = {
    example = [[
print(tf.math.floor(tf.constant({-1.5, 1.2})))
]],
    output = [[
tf.Tensor([-2.  1.], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.floor(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Floor expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.floordiv"] = {
    example = [[
print(tf.math.floordiv(tf.constant({7, -7}), tf.constant({2, 2})))
]],
    output = [[
tf.Tensor([ 3 -4], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.math.floordiv(tf.constant({1.0, 2.0}), tf.constant({1.0, 2.0, 3.0}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [2] vs. [3]" },
      { code = [[tf.math.floordiv(tf.constant({1}), tf.constant({0}))]], type = "InvalidArgumentError", message = "Integer division by zero" },
    },
  },
  ["tf.math.floormod"] = {
    example = [[
print(tf.math.floormod(tf.constant({7, -7}), tf.constant({3, 3})))
]],
    output = [[
tf.Tensor([1 2], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.math.floormod(tf.constant({1.0, 2.0}), tf.constant({1.0, 2.0, 3.0}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [2] vs. [3]" },
    },
  },
  ["tf.math.greater"] = {
    example = [[
print(tf.math.greater(tf.constant({1, 2}), tf.constant({1, 3})))
]],
    output = [[
tf.Tensor([False False], shape=(2,), dtype=bool)
]],
    errors = {
      { code = [[tf.math.greater(tf.constant({1.0, 2.0}), tf.constant({1.0, 2.0, 3.0}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [2] vs. [3]" },
    },
  },
  ["tf.math.greater_equal"] = {
    example = [[
print(tf.math.greater_equal(tf.constant({1, 2}), tf.constant({1, 3})))
]],
    output = [[
tf.Tensor([ True False], shape=(2,), dtype=bool)
]],
    errors = {
      { code = [[tf.math.greater_equal(tf.constant({1.0, 2.0}), tf.constant({1.0, 2.0, 3.0}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [2] vs. [3]" },
    },
  },
  ["tf.math.is_finite"] = {
    example = [[
print(tf.math.is_finite(tf.constant({1.0, 1 / 0, 0 / 0})))
]],
    output = [[
tf.Tensor([ True False False], shape=(3,), dtype=bool)
]],
    errors = {
      { code = [[tf.math.is_finite(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "IsFinite expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.is_inf"] = {
    example = [[
print(tf.math.is_inf(tf.constant({1.0, 1 / 0, -1 / 0})))
]],
    output = [[
tf.Tensor([False  True  True], shape=(3,), dtype=bool)
]],
    errors = {
      { code = [[tf.math.is_inf(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "IsInf expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.is_nan"] = {
    example = [[
print(tf.math.is_nan(tf.constant({1.0, 0 / 0})))
]],
    output = [[
tf.Tensor([False  True], shape=(2,), dtype=bool)
]],
    errors = {
      { code = [[tf.math.is_nan(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "IsNan expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.l2_normalize"] = {
    example = [[
print(tf.math.l2_normalize(tf.constant({3.0, 4.0})))
]],
    output = [[
tf.Tensor([0.6 0.8], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.l2_normalize(tf.constant({3, 4}))]], type = "TypeError", message = "Cannot convert 1e-12 to EagerTensor of dtype int32" },
    },
  },
  ["tf.math.less"] = {
    example = [[
print(tf.math.less(tf.constant({1, 2}), tf.constant({1, 3})))
]],
    output = [[
tf.Tensor([False  True], shape=(2,), dtype=bool)
]],
    errors = {
      { code = [[tf.math.less(tf.constant({1.0, 2.0}), tf.constant({1.0, 2.0, 3.0}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [2] vs. [3]" },
    },
  },
  ["tf.math.less_equal"] = {
    example = [[
print(tf.math.less_equal(tf.constant({1, 2}), tf.constant({1, 3})))
]],
    output = [[
tf.Tensor([ True  True], shape=(2,), dtype=bool)
]],
    errors = {
      { code = [[tf.math.less_equal(tf.constant({1.0, 2.0}), tf.constant({1.0, 2.0, 3.0}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [2] vs. [3]" },
    },
  },
  ["tf.math.lgamma"] = {
    example = [[
print(tf.math.lgamma(tf.constant({1.0, 3.0})))
]],
    output = [[
tf.Tensor([0.        0.6931472], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.lgamma(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Lgamma expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.log"] = {
    example = [[
print(tf.math.log(tf.constant({1.0, 2.0})))
]],
    output = [[
tf.Tensor([0.        0.6931472], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.log(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Log expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.log1p"] = {
    example = [[
print(tf.math.log1p(tf.constant({0.0, 1.0})))
]],
    output = [[
tf.Tensor([0.        0.6931472], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.log1p(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Log1p expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.log_sigmoid"] = {
    example = [[
print(tf.math.log_sigmoid(tf.constant({0.0, 1.0})))
]],
    output = [[
tf.Tensor([-0.6931472 -0.3132617], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.log_sigmoid(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Softplus expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.logical_and"] = {
    example = [[
print(tf.math.logical_and(tf.constant({true, true, false}), tf.constant({true, false, false})))
]],
    output = [[
tf.Tensor([ True False False], shape=(3,), dtype=bool)
]],
    errors = {
      { code = [[tf.math.logical_and(tf.constant({1, 0}), tf.constant({1, 1}))]], type = "InvalidArgumentError", message = "LogicalAnd expects a bool tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.logical_not"] = {
    example = [[
print(tf.math.logical_not(tf.constant({true, false})))
]],
    output = [[
tf.Tensor([False  True], shape=(2,), dtype=bool)
]],
    errors = {
      { code = [[tf.math.logical_not(tf.constant({1, 0}))]], type = "InvalidArgumentError", message = "LogicalNot expects a bool tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.logical_or"] = {
    example = [[
print(tf.math.logical_or(tf.constant({true, true, false}), tf.constant({true, false, false})))
]],
    output = [[
tf.Tensor([ True  True False], shape=(3,), dtype=bool)
]],
    errors = {
      { code = [[tf.math.logical_or(tf.constant({1, 0}), tf.constant({1, 1}))]], type = "InvalidArgumentError", message = "LogicalOr expects a bool tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.logical_xor"] = {
    example = [[
print(tf.math.logical_xor(tf.constant({true, true, false}), tf.constant({true, false, false})))
]],
    output = [[
tf.Tensor([False  True False], shape=(3,), dtype=bool)
]],
    errors = {
      { code = [[tf.math.logical_xor(tf.constant({1, 0}), tf.constant({1, 1}))]], type = "InvalidArgumentError", message = "LogicalOr expects a bool tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.maximum"] = {
    example = [[
print(tf.math.maximum(tf.constant({1.0, 5.0}), tf.constant({3.0, 2.0})))
]],
    output = [[
tf.Tensor([3. 5.], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.maximum(tf.constant({1.0, 2.0}), tf.constant({1.0, 2.0, 3.0}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [2] vs. [3]" },
    },
  },
  ["tf.math.minimum"] = {
    example = [[
print(tf.math.minimum(tf.constant({1.0, 5.0}), tf.constant({3.0, 2.0})))
]],
    output = [[
tf.Tensor([1. 2.], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.minimum(tf.constant({1.0, 2.0}), tf.constant({1.0, 2.0, 3.0}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [2] vs. [3]" },
    },
  },
  ["tf.math.mod"] = {
    example = [[
print(tf.math.mod(tf.constant({7, -7}), tf.constant({3, 3})))
]],
    output = [[
tf.Tensor([1 2], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.math.mod(tf.constant({1.0, 2.0}), tf.constant({1.0, 2.0, 3.0}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [2] vs. [3]" },
    },
  },
  ["tf.math.multiply"] = {
    example = [[
print(tf.math.multiply(tf.constant({1, 2}), tf.constant({10, 20})))
]],
    output = [[
tf.Tensor([10 40], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.math.multiply(tf.constant({1.0, 2.0}), tf.constant({1.0, 2.0, 3.0}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [2] vs. [3]" },
      { code = [[tf.math.multiply(tf.constant({1.0}), tf.constant({1}))]], type = "InvalidArgumentError", message = "cannot compute Mul as input #1(zero-based) was expected to be a float tensor but is a int32 tensor" },
    },
  },
  ["tf.math.negative"] = {
    example = [[
print(tf.math.negative(tf.constant({-2, 3})))
]],
    output = [[
tf.Tensor([ 2 -3], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.math.negative(tf.constant({"a"}))]], type = "InvalidArgumentError", message = "Neg expects a float32, float64, int32 or int64 tensor for input #0(zero-based), got string" },
    },
  },
  ["tf.math.not_equal"] = {
    example = [[
print(tf.math.not_equal(tf.constant({1, 2}), tf.constant({1, 3})))
]],
    output = [[
tf.Tensor([False  True], shape=(2,), dtype=bool)
]],
    errors = {
      { code = [[tf.math.not_equal(tf.constant({1.0, 2.0}), tf.constant({1.0, 2.0, 3.0}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [2] vs. [3]" },
    },
  },
  ["tf.math.polygamma"] = {
    example = [[
print(tf.math.polygamma(tf.constant({0.0, 1.0}), tf.constant({1.0, 1.0})))
]],
    output = [[
tf.Tensor([-0.5772157  1.644934 ], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.polygamma(tf.constant({1.0, 2.0}), tf.constant({1.0, 2.0, 3.0}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [2] vs. [3]" },
    },
  },
  ["tf.math.pow"] = {
    example = [[
print(tf.math.pow(tf.constant({2.0, 3.0}), tf.constant({3.0, 2.0})))
]],
    output = [[
tf.Tensor([8. 9.], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.pow(tf.constant({1.0, 2.0}), tf.constant({1.0, 2.0, 3.0}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [2] vs. [3]" },
    },
  },
  ["tf.math.reciprocal"] = {
    example = [[
print(tf.math.reciprocal(tf.constant({2.0, 4.0})))
]],
    output = [[
tf.Tensor([0.5  0.25], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.reciprocal(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Reciprocal expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.rint"] = {
    example = [[
print(tf.math.rint(tf.constant({-1.5, 0.5, 1.5, 2.7})))
]],
    output = [[
tf.Tensor([-2.  0.  2.  3.], shape=(4,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.rint(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Rint expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.round"] = {
    example = [[
print(tf.math.round(tf.constant({-1.5, 0.5, 1.5, 2.7})))
]],
    output = [[
tf.Tensor([-2.  0.  2.  3.], shape=(4,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.round(tf.constant({"a"}))]], type = "InvalidArgumentError", message = "Round expects a float32, float64, int32 or int64 tensor for input #0(zero-based), got string" },
    },
  },
  ["tf.math.rsqrt"] = {
    example = [[
print(tf.math.rsqrt(tf.constant({4.0, 16.0})))
]],
    output = [[
tf.Tensor([0.5  0.25], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.rsqrt(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Rsqrt expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.sigmoid"] = {
    example = [[
print(tf.math.sigmoid(tf.constant({0.0, 1.0})))
]],
    output = [[
tf.Tensor([0.5       0.7310586], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.sigmoid(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Sigmoid expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.sign"] = {
    example = [[
print(tf.math.sign(tf.constant({-2.5, 0.0, 3.0})))
]],
    output = [[
tf.Tensor([-1.  0.  1.], shape=(3,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.sign(tf.constant({"a"}))]], type = "InvalidArgumentError", message = "Sign expects a float32, float64, int32 or int64 tensor for input #0(zero-based), got string" },
    },
  },
  ["tf.math.sin"] = {
    example = [[
print(tf.math.sin(tf.constant({0.0, 1.0})))
]],
    output = [[
tf.Tensor([0.         0.84147096], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.sin(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Sin expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.sinh"] = {
    example = [[
print(tf.math.sinh(tf.constant({0.0, 1.0})))
]],
    output = [[
tf.Tensor([0.        1.1752012], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.sinh(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Sinh expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.softmax"] = {
    example = [[
print(tf.math.softmax(tf.constant({1.0, 1.0, 2.0})))
]],
    output = [[
tf.Tensor([0.21194156 0.21194156 0.57611686], shape=(3,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.softmax(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Softmax expects a float tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.softplus"] = {
    example = [[
print(tf.math.softplus(tf.constant({0.0, 1.0})))
]],
    output = [[
tf.Tensor([0.6931472 1.3132616], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.softplus(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Softplus expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.softsign"] = {
    example = [[
print(tf.math.softsign(tf.constant({-1.0, 3.0})))
]],
    output = [[
tf.Tensor([-0.5   0.75], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.softsign(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Softsign expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.sqrt"] = {
    example = [[
print(tf.math.sqrt(tf.constant({4.0, 2.0})))
]],
    output = [[
tf.Tensor([2.        1.4142135], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.sqrt(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Sqrt expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.square"] = {
    example = [[
print(tf.math.square(tf.constant({-2, 3})))
]],
    output = [[
tf.Tensor([4 9], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.math.square(tf.constant({"a"}))]], type = "InvalidArgumentError", message = "Square expects a float32, float64, int32 or int64 tensor for input #0(zero-based), got string" },
    },
  },
  ["tf.math.squared_difference"] = {
    example = [[
print(tf.math.squared_difference(tf.constant({1.0, 5.0}), tf.constant({3.0, 2.0})))
]],
    output = [[
tf.Tensor([4. 9.], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.squared_difference(tf.constant({1.0, 2.0}), tf.constant({1.0, 2.0, 3.0}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [2] vs. [3]" },
    },
  },
  ["tf.math.subtract"] = {
    example = [[
print(tf.math.subtract(tf.constant({1, 2}), tf.constant({10, 20})))
]],
    output = [[
tf.Tensor([ -9 -18], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.math.subtract(tf.constant({1.0, 2.0}), tf.constant({1.0, 2.0, 3.0}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [2] vs. [3]" },
    },
  },
  ["tf.math.tan"] = {
    example = [[
print(tf.math.tan(tf.constant({0.0, 1.0})))
]],
    output = [[
tf.Tensor([0.        1.5574077], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.tan(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Tan expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.tanh"] = {
    example = [[
print(tf.math.tanh(tf.constant({0.0, 1.0})))
]],
    output = [[
tf.Tensor([0.        0.7615941], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.tanh(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Tanh expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.truediv"] = {
    example = [[
print(tf.math.truediv(tf.constant({1, 3}), tf.constant({2, 4})))
]],
    output = [[
tf.Tensor([0.5  0.75], shape=(2,), dtype=float64)
]],
    errors = {
      { code = [[tf.math.truediv(tf.constant({1.0, 2.0}), tf.constant({1.0, 2.0, 3.0}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [2] vs. [3]" },
    },
  },
  ["tf.math.truncatediv"] = {
    example = [[
print(tf.math.truncatediv(tf.constant({7, -7}), tf.constant({2, 2})))
]],
    output = [[
tf.Tensor([ 3 -3], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.math.truncatediv(tf.constant({1.0, 2.0}), tf.constant({1.0, 2.0, 3.0}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [2] vs. [3]" },
    },
  },
  ["tf.math.truncatemod"] = {
    example = [[
print(tf.math.truncatemod(tf.constant({7, -7}), tf.constant({3, 3})))
]],
    output = [[
tf.Tensor([ 1 -1], shape=(2,), dtype=int32)
]],
    errors = {
      { code = [[tf.math.truncatemod(tf.constant({1.0, 2.0}), tf.constant({1.0, 2.0, 3.0}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [2] vs. [3]" },
    },
  },
  ["tf.math.xdivy"] = {
    example = [[
print(tf.math.xdivy(tf.constant({0.0, 2.0}), tf.constant({0.0, 4.0})))
]],
    output = [[
tf.Tensor([0.  0.5], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.xdivy(tf.constant({1.0, 2.0}), tf.constant({1.0, 2.0, 3.0}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [2] vs. [3]" },
    },
  },
  ["tf.math.xlogy"] = {
    example = [[
print(tf.math.xlogy(tf.constant({0.0, 2.0}), tf.constant({0.0, 1.0})))
]],
    output = [[
tf.Tensor([0. 0.], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.xlogy(tf.constant({1.0, 2.0}), tf.constant({1.0, 2.0, 3.0}))]], type = "InvalidArgumentError", message = "Incompatible shapes: [2] vs. [3]" },
    },
  },
}
