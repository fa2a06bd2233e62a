-- math_special: examples and errors for the reference (docs/reference.md and %help).
return {
  ["tf.math.bessel_i0"] = {
    example = [[
print(tf.math.bessel_i0(tf.constant({-1.0, 0.0, 1.0, 2.0})))
]],
    output = [[
tf.Tensor([1.2660658 1.        1.2660658 2.2795854], shape=(4,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.bessel_i0(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "BesselI0 expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.bessel_i0e"] = {
    example = [[
print(tf.math.bessel_i0e(tf.constant({-1.0, 0.0, 1.0, 2.0})))
]],
    output = [[
tf.Tensor([0.4657596  1.         0.4657596  0.30850834], shape=(4,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.bessel_i0e(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "BesselI0e expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.bessel_i1"] = {
    example = [[
print(tf.math.bessel_i1(tf.constant({-1.0, 0.0, 1.0, 2.0})))
]],
    output = [[
tf.Tensor([-0.5651591  0.         0.5651591  1.5906368], shape=(4,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.bessel_i1(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "BesselI1 expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.bessel_i1e"] = {
    example = [[
print(tf.math.bessel_i1e(tf.constant({-1.0, 0.0, 1.0, 2.0})))
]],
    output = [[
tf.Tensor([-0.20791042  0.          0.20791042  0.21526928], shape=(4,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.bessel_i1e(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "BesselI1e expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.special.bessel_i0"] = {
    example = [[
print(tf.math.special.bessel_i0(tf.constant({0.0, 1.0})))
]],
    output = [[
tf.Tensor([1.        1.2660658], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.special.bessel_i0(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "BesselI0 expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.special.bessel_i0e"] = {
    example = [[
print(tf.math.special.bessel_i0e(tf.constant({0.0, 1.0})))
]],
    output = [[
tf.Tensor([1.        0.4657596], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.special.bessel_i0e(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "BesselI0e expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.special.bessel_i1"] = {
    example = [[
print(tf.math.special.bessel_i1(tf.constant({0.0, 1.0})))
]],
    output = [[
tf.Tensor([0.        0.5651591], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.special.bessel_i1(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "BesselI1 expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.special.bessel_i1e"] = {
    example = [[
print(tf.math.special.bessel_i1e(tf.constant({0.0, 1.0})))
]],
    output = [[
tf.Tensor([0.         0.20791042], shape=(2,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.special.bessel_i1e(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "BesselI1e expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.special.bessel_j0"] = {
    example = [[
print(tf.math.special.bessel_j0(tf.constant({0.5, 1.0, 2.0, 3.0})))
]],
    output = [[
tf.Tensor([ 0.9384698   0.7651977   0.22389078 -0.26005197], shape=(4,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.special.bessel_j0(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "BesselJ0 expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.special.bessel_j1"] = {
    example = [[
print(tf.math.special.bessel_j1(tf.constant({0.5, 1.0, 2.0, 3.0})))
]],
    output = [[
tf.Tensor([0.24226846 0.44005057 0.5767248  0.33905897], shape=(4,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.special.bessel_j1(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "BesselJ1 expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.special.bessel_y0"] = {
    example = [[
print(tf.math.special.bessel_y0(tf.constant({0.5, 1.0, 2.0, 3.0})))
]],
    output = [[
tf.Tensor([-0.44451874  0.08825696  0.5103757   0.37685   ], shape=(4,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.special.bessel_y0(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "BesselY0 expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.special.bessel_y1"] = {
    example = [[
print(tf.math.special.bessel_y1(tf.constant({0.5, 1.0, 2.0, 3.0})))
]],
    output = [[
tf.Tensor([-1.4714724  -0.7812128  -0.10703243  0.32467443], shape=(4,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.special.bessel_y1(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "BesselY1 expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.special.bessel_k0"] = {
    example = [[
print(tf.math.special.bessel_k0(tf.constant({0.5, 1.0, 2.0, 3.0})))
]],
    output = [[
tf.Tensor([0.92441905 0.42102444 0.11389387 0.03473951], shape=(4,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.special.bessel_k0(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "BesselK0 expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.special.bessel_k0e"] = {
    example = [[
print(tf.math.special.bessel_k0e(tf.constant({0.5, 1.0, 2.0, 3.0})))
]],
    output = [[
tf.Tensor([1.5241094  1.1444631  0.84156823 0.6977616 ], shape=(4,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.special.bessel_k0e(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "BesselK0e expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.special.bessel_k1"] = {
    example = [[
print(tf.math.special.bessel_k1(tf.constant({0.5, 1.0, 2.0, 3.0})))
]],
    output = [[
tf.Tensor([1.6564411  0.60190725 0.13986588 0.04015643], shape=(4,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.special.bessel_k1(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "BesselK1 expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.special.bessel_k1e"] = {
    example = [[
print(tf.math.special.bessel_k1e(tf.constant({0.5, 1.0, 2.0, 3.0})))
]],
    output = [[
tf.Tensor([2.7310097 1.6361535 1.0334768 0.8065635], shape=(4,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.special.bessel_k1e(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "BesselK1e expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.special.dawsn"] = {
    example = [[
print(tf.math.special.dawsn(tf.constant({-1.0, 0.0, 0.5, 2.0})))
]],
    output = [[
tf.Tensor([-0.5380795  0.         0.4244364  0.3013404], shape=(4,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.special.dawsn(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Dawsn expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.special.expint"] = {
    example = [[
print(tf.math.special.expint(tf.constant({0.5, 1.0, 2.0, -1.0})))
]],
    output = [[
tf.Tensor([0.4542199 1.8951178 4.954234        nan], shape=(4,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.special.expint(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Expint expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.special.fresnel_cos"] = {
    example = [[
print(tf.math.special.fresnel_cos(tf.constant({-1.0, 0.0, 0.5, 2.0})))
]],
    output = [[
tf.Tensor([-0.7798934   0.          0.49234423  0.4882534 ], shape=(4,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.special.fresnel_cos(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "FresnelCos expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.special.fresnel_sin"] = {
    example = [[
print(tf.math.special.fresnel_sin(tf.constant({-1.0, 0.0, 0.5, 2.0})))
]],
    output = [[
tf.Tensor([-0.43825915  0.          0.06473243  0.34341568], shape=(4,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.special.fresnel_sin(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "FresnelSin expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.special.spence"] = {
    example = [[
print(tf.math.special.spence(tf.constant({0.0, 0.5, 1.0, 2.0})))
]],
    output = [[
tf.Tensor([ 1.644934   0.5822405  0.        -0.822467 ], shape=(4,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.special.spence(tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Spence expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.xlog1py"] = {
    example = [[
print(tf.math.xlog1py(tf.constant({0.0, 2.0, 3.0}), tf.constant({-1.0, 1.0, 0.5})))
]],
    output = [[
tf.Tensor([0.        1.3862944 1.2163954], shape=(3,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.xlog1py(tf.constant({1.0}), tf.constant({1.0}, tf.float64))]], type = "InvalidArgumentError", message = "cannot compute Xlog1py as input #1(zero-based) was expected to be a float tensor but is a double tensor" },
    },
  },
  ["tf.math.zeta"] = {
    example = [[
print(tf.math.zeta(tf.constant({2.0, 3.0, 2.0}), tf.constant({1.0, 1.0, 2.0})))
]],
    output = [[
tf.Tensor([1.644934   1.2020569  0.64493406], shape=(3,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.zeta(tf.constant({2, 3}), tf.constant({1, 1}))]], type = "InvalidArgumentError", message = "Zeta expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.math.igamma"] = {
    example = [[
print(tf.math.igamma(tf.constant({0.5, 1.0, 2.0}), tf.constant({0.5, 1.0, 3.0})))
]],
    output = [[
tf.Tensor([0.6826895  0.63212055 0.8008517 ], shape=(3,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.igamma(tf.constant({1.0}), tf.constant({1.0}, tf.float64))]], type = "InvalidArgumentError", message = "cannot compute Igamma as input #1(zero-based) was expected to be a float tensor but is a double tensor" },
    },
  },
  ["tf.math.igammac"] = {
    example = [[
print(tf.math.igammac(tf.constant({0.5, 1.0, 2.0}), tf.constant({0.5, 1.0, 3.0})))
]],
    output = [[
tf.Tensor([0.3173105  0.36787945 0.19914827], shape=(3,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.igammac(tf.constant({1, 2}), tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Igammac expects a float32 or float64 tensor for input #0(zero-based), got int32" },
    },
  },
  ["tf.linalg.svd"] = {
    example = [[
local x = tf.constant({{3.0, 0.0}, {0.0, -4.0}})
local s, u, v = tf.linalg.svd(x)
print(s)
print(tf.matmul(u * s, v, {transpose_b = true}))
print(tf.linalg.svd(x, false, false))
]],
    output = [=[
tf.Tensor([4. 3.], shape=(2,), dtype=float32)
tf.Tensor(
[[ 3.  0.]
 [ 0. -4.]], shape=(2, 2), dtype=float32)
tf.Tensor([4. 3.], shape=(2,), dtype=float32)
]=],
    errors = {
      { code = [[tf.linalg.svd(tf.constant({1.0, 2.0}))]], type = "InvalidArgumentError", message = "Input tensor 0 must have rank >= 2, got 1" },
    },
  },
  ["tf.math.betainc"] = {
    example = [[
print(tf.math.betainc(tf.constant({0.5, 1.0, 2.0}), tf.constant({0.5, 2.0, 3.0}), tf.constant({0.25, 0.5, 0.9})))
print(tf.math.betainc(2.0, 3.0, tf.constant({0.0, 1.0, 1.5})))
]],
    output = [[
tf.Tensor([0.33333334 0.75       0.9963    ], shape=(3,), dtype=float32)
tf.Tensor([ 0.  1. nan], shape=(3,), dtype=float32)
]],
    errors = {
      { code = [[tf.math.betainc(tf.constant({1.0, 2.0}), tf.constant({1.0, 2.0, 3.0}), 0.5)]], type = "InvalidArgumentError", message = "Shapes of a and b are inconsistent: [2] vs. [3]" },
      { code = [[tf.math.betainc(tf.constant({1, 2}), tf.constant({1, 2}), tf.constant({1, 2}))]], type = "InvalidArgumentError", message = "Betainc expects a float32 or float64 tensor for input #0(zero-based), got int32" },
      { code = [[tf.math.betainc(tf.constant(1.0), tf.constant(1.0, tf.float64), 0.5)]], type = "InvalidArgumentError", message = "expected to be a float tensor but is a double tensor" },
    },
  },
}
