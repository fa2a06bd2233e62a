/* ops_elementwise.c — elementwise ops: unary math, binary math and
 * comparisons with NumPy broadcasting, SelectV2, Cast and the elementwise
 * gradient helpers (ReluGrad, TanhGrad, ...).
 *
 * Per-op knowledge is one line in a table below: the dtypes an op accepts
 * and one C expression for its element. Macros instantiate that expression
 * as a loop per dtype; a per-op table of loops indexed by dtype is both what
 * the kernel calls and what inference checks the input dtype against, so
 * the two cannot disagree. Inside an expression:
 *   x            the element (unary); a, b the elements of inputs 0 and 1;
 *   T            their C type;
 *   U            the type in which integer arithmetic wraps (uint32_t for
 *                int32; T itself for floats): TensorFlow's integer kernels
 *                wrap on overflow, and signed overflow is undefined in C;
 *   NUM(f, x)    the helper f_<type> below, for the few ops whose integer
 *                and floating-point definitions differ.
 * <tgmath.h> makes sqrt, exp, floor, ... pick the float or double version
 * from their argument. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tgmath.h>

#include "alloc.h"
#include "broadcast.h"
#include "dtype_convert.h"
#include "elementwise.h"
#include "elementwise_loops.h"
#include "fastmath.h"
#include "kernel_util.h"
#include "op.h"
#include "partial.h"
#include "shape_fn.h"
#include "threadpool.h"

/* ---- numeric helpers where floats and integers differ ---- */

#define NUM(f, x) \
  _Generic((x), float: f##_float, double: f##_double, int32_t: f##_int32_t, int64_t: f##_int64_t)

static inline bool nan_float(float x) { return isnan(x); }
static inline bool nan_double(double x) { return isnan(x); }
static inline bool nan_never(int64_t x) {
  (void)x;
  return false;
}
#define IS_NAN(x) _Generic((x), float: nan_float, double: nan_double, default: nan_never)(x)

#define FLOAT_HELPERS(T)                                                               \
  static inline T abs_##T(T x) { return fabs(x); }                                     \
  /* ties to even in the default rounding mode, as TF's Round */                     \
  static inline T round_##T(T x) { return rint(x); }                                   \
  static inline T floordiv_##T(T x, T y) { return floor(x / y); }                      \
  /* Python's %: the result takes the divisor's sign */                               \
  static inline T floormod_##T(T x, T y) {                                             \
    T r = fmod(x, y);                                                                  \
    return r != 0 && (r < 0) != (y < 0) ? r + y : r;                                   \
  }                                                                                    \
  static inline T pow_##T(T x, T y) { return pow(x, y); }
FLOAT_HELPERS(float)
FLOAT_HELPERS(double)

/* Zero divisors and negative exponents are refused before the loop runs
 * (check_divisor, check_exponent); the guards here only keep a bypassed
 * check from trapping. x / -1 overflows for the minimum: it wraps like
 * negation does, and the remainder is 0. */
#define INT_HELPERS(T, U)                                                              \
  static inline T abs_##T(T x) { return x < 0 ? (T)-(U)x : x; }                        \
  static inline T round_##T(T x) { return x; }                                         \
  static inline T floordiv_##T(T x, T y) {                                             \
    if (y == 0) return 0;                                                              \
    if (y == -1) return (T)-(U)x;                                                      \
    T q = x / y;                                                                       \
    return q * y != x && (x < 0) != (y < 0) ? q - 1 : q;                               \
  }                                                                                    \
  static inline T floormod_##T(T x, T y) {                                             \
    if (y == 0 || y == -1) return 0;                                                   \
    T r = x % y;                                                                       \
    return r != 0 && (r < 0) != (y < 0) ? r + y : r;                                   \
  }                                                                                    \
  static inline T pow_##T(T x, T y) {                                                  \
    U r = 1, base = (U)x;                                                              \
    for (; y > 0; y >>= 1, base *= base)                                               \
      if (y & 1) r *= base;                                                            \
    return (T)r;                                                                       \
  }
INT_HELPERS(int32_t, uint32_t)
INT_HELPERS(int64_t, uint64_t)

/* exp, log, log1p, tanh, sigmoid as vectorisable code: fastmath.h. */

/* The other transcendental functions and the activations' elements:
 * elementwise_special.h. */
#include "elementwise_special.h"

/* The special functions of tf.math.special and the incomplete gamma
 * family: special_bessel.h, special_gamma.h. */
#include "special_bessel.h"
#include "special_gamma.h"
#include "special_misc.h"

/* Inference accepts the dtypes an op's loop table has an entry for. On a
 * miss, UNSUPPORTED returns the error naming the dtypes it does accept. */
#define UNSUPPORTED(c, i, loops, err)                                                  \
  do {                                                                                 \
    unsigned accepted_ = 0;                                                            \
    for (int dt_ = 0; dt_ < MF_DTYPE_COUNT; dt_++)                                     \
      accepted_ |= (unsigned)((loops)[dt_] != NULL) << dt_;                            \
    return mf_ew_unsupported_dtype(c, i, accepted_, err);                                    \
  } while (0)

/* ==================================================================== */
/* Unary ops                                                            */
/* ==================================================================== */

#define UNARY_LOOP(DT, CT, CU, NAME, EXPR)                                             \
  SIMD_CLONES static void NAME##_##DT(int64_t n, const void *vx, void *vz) {           \
    typedef CT T;                                                                      \
    typedef CU U __attribute__((unused));                                              \
    const T *restrict px = vx;                                                         \
    T *restrict z = vz;                                                                \
    for (int64_t i = 0; i < n; i++) {                                                  \
      T x = px[i];                                                                     \
      z[i] = (T)(EXPR);                                                                \
    }                                                                                  \
  }

static mf_status unary_infer(mf_op_call *c, const unary_loop *loops, mf_error *err) {
  mf_dtype dt = c->in_specs[0].dtype;
  if (!loops[dt]) UNSUPPORTED(c, 0, loops, err);
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  c->out_specs[0] = c->in_specs[0];
  return MF_OK;
}

static mf_status unary_kernel(mf_op_call *c, const unary_loop *loops, mf_error *err) {
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  mf_ew_unary_run(loops[c->in[0]->dtype], c->in[0], out);
  return MF_OK;
}

/* A unary op: its loops (made by LOOP_MACRO), inference by INFER, the
 * shared kernel; UNARY and UNARY_BOOL differ only in those two. */
#define UNARY_OP(NAME, DTYPES, EXPR, FLAGS, DOC, LOOP_MACRO, INFER)                     \
  DTYPES(LOOP_MACRO, NAME, EXPR)                                                       \
  static const unary_loop NAME##_loops[MF_DTYPE_COUNT] = {DTYPES(LOOP_ENTRY, NAME)};   \
  static mf_status NAME##_infer(mf_op_call *c, mf_error *err) {                        \
    return INFER(c, NAME##_loops, err);                                                \
  }                                                                                    \
  static mf_status NAME##_kernel(mf_op_call *c, mf_error *err) {                       \
    return unary_kernel(c, NAME##_loops, err);                                         \
  }                                                                                    \
  const mf_op_def mf_op_##NAME = {                                                     \
      .name = #NAME, .input_names = "x", .min_inputs = 1, .max_inputs = 1,             \
      .infer = NAME##_infer, .kernel = NAME##_kernel, .flags = FLAGS, .doc = DOC,      \
      .tf_attrs = TF_ATTRS_##DTYPES,                                                   \
  };
#define UNARY(NAME, DTYPES, EXPR, FLAGS, DOC) \
  UNARY_OP(NAME, DTYPES, EXPR, FLAGS, DOC, UNARY_LOOP, unary_infer)

/* TF's attributes of an elementwise op, by the dtypes it takes: T, but
 * the logical ops take bool only and have none; Equal and NotEqual (the
 * ops that also take bool) have incompatible_shape_error. */
#define TF_ATTRS_DT_FLOAT "T:0"
#define TF_ATTRS_DT_NUMERIC "T:0"
#define TF_ATTRS_DT_BOOL ""
#define TF_ATTRS_DT_NUMERIC_BOOL "T:0 incompatible_shape_error=true"

#define GRAD MF_OP_ELEMENTWISE
#define NOGRAD (MF_OP_ELEMENTWISE | MF_OP_NO_GRADIENT)

/* The table, one X-macro: UNARY(name, dtypes, element, flags, doc). It is
 * expanded into the ops here and into the block functions for fusion
 * (elementwise.h) at the end of this file. */
#define UNARY_OPS(UNARY)                                                                \
/*    name        dtypes      element                              flags */             \
UNARY(Neg,        DT_NUMERIC, (T)-(U)x,                            GRAD,                \
      "Returns -x elementwise.")                                                        \
UNARY(Abs,        DT_NUMERIC, NUM(abs, x)(x),                      GRAD,                \
      "Returns |x| elementwise.")                                                       \
UNARY(Sign,       DT_NUMERIC, IS_NAN(x) ? x : (x > 0) - (x < 0),   GRAD,                \
      "Returns -1, 0 or 1 by the sign of x (NaN stays NaN).")                           \
UNARY(Square,     DT_NUMERIC, (U)x * (U)x,                         GRAD,                \
      "Returns x * x elementwise.")                                                     \
UNARY(Sqrt,       DT_FLOAT,   sqrt(x),                             GRAD,                \
      "Returns the square root of x elementwise.")                                      \
UNARY(Rsqrt,      DT_FLOAT,   1 / sqrt(x),                         GRAD,                \
      "Returns 1 / sqrt(x) elementwise.")                                               \
UNARY(Exp,        DT_FLOAT,   FAST(exp, x),                        GRAD,                \
      "Returns e^x elementwise.")                                                       \
UNARY(Expm1,      DT_FLOAT,   expm1(x),                            GRAD,                \
      "Returns e^x - 1 elementwise, accurate for small x.")                             \
UNARY(Log,        DT_FLOAT,   FAST(log, x),                        GRAD,                \
      "Returns the natural logarithm of x elementwise.")                                \
UNARY(Log1p,      DT_FLOAT,   FAST(log1p, x),                      GRAD,                \
      "Returns log(1 + x) elementwise, accurate for small x.")                          \
UNARY(Sin,        DT_FLOAT,   sin(x),                              GRAD,                \
      "Returns sin(x) elementwise.")                                                    \
UNARY(Cos,        DT_FLOAT,   cos(x),                              GRAD,                \
      "Returns cos(x) elementwise.")                                                    \
UNARY(Tanh,       DT_FLOAT,   FAST(tanh, x),                       GRAD,                \
      "Returns tanh(x) elementwise.")                                                   \
UNARY(Sigmoid,    DT_FLOAT,   FAST(sigmoid, x),                    GRAD,                \
      "Returns 1 / (1 + exp(-x)) elementwise.")                                         \
UNARY(Round,      DT_NUMERIC, NUM(round, x)(x),                    NOGRAD,              \
      "Rounds x to the nearest integer elementwise, halves to even.")                   \
UNARY(Floor,      DT_FLOAT,   floor(x),                            NOGRAD,              \
      "Returns the largest integer not greater than x, elementwise.")                   \
UNARY(Ceil,       DT_FLOAT,   ceil(x),                             NOGRAD,              \
      "Returns the smallest integer not less than x, elementwise.")                     \
UNARY(Reciprocal, DT_FLOAT,   1 / x,                               GRAD,                \
      "Returns 1 / x elementwise.")                                                     \
UNARY(Relu,       DT_NUMERIC, x < 0 ? 0 : x,                       GRAD,                \
      "Returns max(x, 0) elementwise.")                                                 \
UNARY(LogicalNot, DT_BOOL,    !x,                                  NOGRAD,              \
      "Returns the logical negation of a bool tensor.")                                 \
UNARY(Sinh,       DT_FLOAT,   WIDE(sinh, x),                       GRAD,                \
      "Returns the hyperbolic sine of x elementwise.")                                  \
UNARY(Cosh,       DT_FLOAT,   WIDE(cosh, x),                       GRAD,                \
      "Returns the hyperbolic cosine of x elementwise.")                                \
UNARY(Tan,        DT_FLOAT,   WIDE(tan, x),                        GRAD,                \
      "Returns tan(x) elementwise.")                                                    \
UNARY(Asin,       DT_FLOAT,   WIDE(asin, x),                       GRAD,                \
      "Returns the inverse sine of x elementwise, in [-pi/2, pi/2] (NaN outside [-1, 1]).") \
UNARY(Acos,       DT_FLOAT,   WIDE(acos, x),                       GRAD,                \
      "Returns the inverse cosine of x elementwise, in [0, pi] (NaN outside [-1, 1]).") \
UNARY(Atan,       DT_FLOAT,   WIDE(atan, x),                       GRAD,                \
      "Returns the inverse tangent of x elementwise, in [-pi/2, pi/2].")                \
UNARY(Asinh,      DT_FLOAT,   WIDE(asinh, x),                      GRAD,                \
      "Returns the inverse hyperbolic sine of x elementwise.")                          \
UNARY(Acosh,      DT_FLOAT,   WIDE(acosh, x),                      GRAD,                \
      "Returns the inverse hyperbolic cosine of x elementwise (NaN below 1).")          \
UNARY(Atanh,      DT_FLOAT,   WIDE(atanh, x),                      GRAD,                \
      "Returns the inverse hyperbolic tangent of x elementwise (+-inf at +-1).")        \
UNARY(Lgamma,     DT_FLOAT,   WIDE(lgamma, x),                     GRAD,                \
      "Returns log |Gamma(x)| elementwise.")                                            \
UNARY(Digamma,    DT_FLOAT,   WIDE(digamma, x),                    GRAD,                \
      "Returns digamma(x), the derivative of lgamma, elementwise.")                     \
UNARY(Erf,        DT_FLOAT,   WIDE(erf, x),                        GRAD,                \
      "Returns the Gauss error function of x elementwise.")                             \
UNARY(Erfc,       DT_FLOAT,   WIDE(erfc, x),                       GRAD,                \
      "Returns 1 - erf(x) elementwise, accurate where erf(x) is near 1.")               \
UNARY(Rint,       DT_FLOAT,   rint(x),                             NOGRAD,              \
      "Returns the integer nearest to x elementwise, halves to even.")                  \
UNARY(Softplus,   DT_FLOAT,   SOFTPLUS(x),                         GRAD,                \
      "Returns log(exp(x) + 1) elementwise.")                                           \
UNARY(Softsign,   DT_FLOAT,   SOFTSIGN(x),                         GRAD,                \
      "Returns x / (|x| + 1) elementwise.")                                             \
UNARY(Elu,        DT_FLOAT,   x < 0 ? WIDE(expm1, x) : x,          GRAD,                \
      "Returns the exponential linear unit: x if x >= 0, else exp(x) - 1.")             \
UNARY(Selu,       DT_FLOAT,   SELU(x),                             GRAD,                \
      "Returns the scaled exponential linear unit: scale * (x if x >= 0, else alpha * (exp(x) - 1)).") \
UNARY(Relu6,      DT_NUMERIC, x < 0 ? 0 : x > 6 ? 6 : x,           GRAD,                \
      "Returns min(max(x, 0), 6) elementwise.") \
UNARY(BesselI0,  DT_FLOAT,   SPECIAL(i0, x),                      GRAD,                \
      "Returns the modified Bessel function of the first kind of order 0, I0(x), elementwise.") \
UNARY(BesselI0e, DT_FLOAT,   SPECIAL(i0e, x),                     GRAD,                \
      "Returns the exponentially scaled modified Bessel function of order 0, e^-|x| I0(x), elementwise.") \
UNARY(BesselI1,  DT_FLOAT,   SPECIAL(i1, x),                      GRAD,                \
      "Returns the modified Bessel function of the first kind of order 1, I1(x), elementwise.") \
UNARY(BesselI1e, DT_FLOAT,   SPECIAL(i1e, x),                     GRAD,                \
      "Returns the exponentially scaled modified Bessel function of order 1, e^-|x| I1(x), elementwise.") \
UNARY(BesselK0,  DT_FLOAT,   SPECIAL(k0, x),                      GRAD,                \
      "Returns the modified Bessel function of the second kind of order 0, K0(x), elementwise (inf for x <= 0).") \
UNARY(BesselK0e, DT_FLOAT,   SPECIAL(k0e, x),                     GRAD,                \
      "Returns the exponentially scaled modified Bessel function of the second kind, e^x K0(x), elementwise.") \
UNARY(BesselK1,  DT_FLOAT,   SPECIAL(k1, x),                      GRAD,                \
      "Returns the modified Bessel function of the second kind of order 1, K1(x), elementwise (inf for x <= 0).") \
UNARY(BesselK1e, DT_FLOAT,   SPECIAL(k1e, x),                     GRAD,                \
      "Returns the exponentially scaled modified Bessel function of the second kind, e^x K1(x), elementwise.") \
UNARY(BesselJ0,  DT_FLOAT,   SPECIAL(j0, x),                      GRAD,                \
      "Returns the Bessel function of the first kind of order 0, J0(x), elementwise.") \
UNARY(BesselJ1,  DT_FLOAT,   SPECIAL(j1, x),                      GRAD,                \
      "Returns the Bessel function of the first kind of order 1, J1(x), elementwise.") \
UNARY(BesselY0,  DT_FLOAT,   SPECIAL(y0, x),                      GRAD,                \
      "Returns the Bessel function of the second kind of order 0, Y0(x), elementwise (-inf for x <= 0).") \
UNARY(BesselY1,  DT_FLOAT,   SPECIAL(y1, x),                      GRAD,                \
      "Returns the Bessel function of the second kind of order 1, Y1(x), elementwise (-inf for x <= 0).") \
UNARY(Dawsn,      DT_FLOAT,   SPECIAL(dawsn, x),                   GRAD,                \
      "Returns Dawson's integral, e^(-x^2) times the integral of e^(t^2) from 0 to x, elementwise.") \
UNARY(Expint,     DT_FLOAT,   SPECIAL(expint, x),                  GRAD,                \
      "Returns the exponential integral Ei(x) elementwise (NaN for x < 0).")            \
UNARY(FresnelCos, DT_FLOAT,   SPECIAL(fresnel_cos, x),             GRAD,                \
      "Returns the Fresnel cosine integral, the integral of cos(pi t^2 / 2) from 0 to x, elementwise.") \
UNARY(FresnelSin, DT_FLOAT,   SPECIAL(fresnel_sin, x),             GRAD,                \
      "Returns the Fresnel sine integral, the integral of sin(pi t^2 / 2) from 0 to x, elementwise.") \
UNARY(Spence,     DT_FLOAT,   SPECIAL(spence, x),                  GRAD,                \
      "Returns Spence's function, the integral of log(t) / (1 - t) from 1 to x, elementwise (NaN for x < 0).")

UNARY_OPS(UNARY)

/* Unary tests with a bool result: the same, with bool elements out. */
#define UNARY_BOOL_LOOP(DT, CT, CU, NAME, EXPR)                                        \
  SIMD_CLONES static void NAME##_##DT(int64_t n, const void *vx, void *vz) {           \
    typedef CT T;                                                                      \
    const T *restrict px = vx;                                                         \
    bool *restrict z = vz;                                                             \
    for (int64_t i = 0; i < n; i++) {                                                  \
      T x = px[i];                                                                     \
      z[i] = (EXPR);                                                                   \
    }                                                                                  \
  }

static mf_status unary_bool_infer(mf_op_call *c, const unary_loop *loops, mf_error *err) {
  MF_TRY(unary_infer(c, loops, err));
  c->out_specs[0].dtype = MF_BOOL;
  return MF_OK;
}

#define UNARY_BOOL(NAME, DTYPES, EXPR, FLAGS, DOC) \
  UNARY_OP(NAME, DTYPES, EXPR, FLAGS, DOC, UNARY_BOOL_LOOP, unary_bool_infer)

/* The table of bool-valued unaries, as UNARY_OPS. */
#define UNARY_BOOL_OPS(UNARY)                                                           \
UNARY(IsNan,      DT_FLOAT,   x != x,                              NOGRAD,              \
      "Returns which elements of x are NaN.")                                           \
UNARY(IsInf,      DT_FLOAT,   fabs(x) == (T)INFINITY,              NOGRAD,              \
      "Returns which elements of x are +inf or -inf.")                                  \
UNARY(IsFinite,   DT_FLOAT,   fabs(x) < (T)INFINITY,               NOGRAD,              \
      "Returns which elements of x are neither infinite nor NaN.")

UNARY_BOOL_OPS(UNARY_BOOL)

/* ==================================================================== */
/* Binary ops with broadcasting                                         */
/* ==================================================================== */

/* The four step cases as separate loops, so each compiles to a tight loop
 * over contiguous memory with the repeated operand hoisted. */
#define BINARY_LOOP(FN, CT, CU, CR, EXPR)                                              \
  SIMD_CLONES static bool FN(int64_t n, const void *va, int sa, const void *vb, int sb,  \
                             void *vz) {                                               \
    typedef CT T;                                                                      \
    typedef CU U __attribute__((unused));                                              \
    const T *restrict pa = va, *restrict pb = vb;                                      \
    CR *restrict z = vz;                                                               \
    if (sa && sb) {                                                                    \
      for (int64_t i = 0; i < n; i++) {                                                \
        T a = pa[i], b = pb[i];                                                        \
        z[i] = (CR)(EXPR);                                                             \
      }                                                                                \
    } else if (sa) {                                                                   \
      T b = pb[0];                                                                     \
      for (int64_t i = 0; i < n; i++) {                                                \
        T a = pa[i];                                                                   \
        z[i] = (CR)(EXPR);                                                             \
      }                                                                                \
    } else if (sb) {                                                                   \
      T a = pa[0];                                                                     \
      for (int64_t i = 0; i < n; i++) {                                                \
        T b = pb[i];                                                                   \
        z[i] = (CR)(EXPR);                                                             \
      }                                                                                \
    } else {                                                                           \
      T a = pa[0], b = pb[0];                                                          \
      CR v = (CR)(EXPR);                                                               \
      for (int64_t i = 0; i < n; i++) z[i] = v;                                        \
    }                                                                                  \
    return true;                                                                       \
  }

#define RESULT_SAME(CT) CT
#define RESULT_TO_BOOL(CT) bool
#define RESULT_IS_BOOL_SAME false
#define RESULT_IS_BOOL_TO_BOOL true
#define BINARY_INST(DT, CT, CU, NAME, RESULT, EXPR) \
  BINARY_LOOP(NAME##_##DT, CT, CU, RESULT_##RESULT(CT), EXPR)

/* String loops, named in the `strings` column of the table. */
static inline bool bytes_equal(mf_string x, mf_string y) {
  return x.len == y.len && (x.len == 0 || memcmp(x.ptr, y.ptr, x.len) == 0);
}
BINARY_LOOP(str_equal, mf_string, mf_string, bool, bytes_equal(a, b))
BINARY_LOOP(str_not_equal, mf_string, mf_string, bool, !bytes_equal(a, b))

static bool str_concat(int64_t n, const void *va, int sa, const void *vb, int sb, void *vz) {
  const mf_string *pa = va, *pb = vb;
  mf_string *z = vz;
  for (int64_t i = 0; i < n; i++) {
    const mf_string *a = &pa[i * sa], *b = &pb[i * sb];
    char *p = mf_malloc(a->len + b->len + 1);
    if (!p) return false;
    if (a->len) memcpy(p, a->ptr, a->len);
    if (b->len) memcpy(p + a->len, b->ptr, b->len);
    p[a->len + b->len] = '\0';
    z[i] = (mf_string){p, a->len + b->len};
  }
  return true;
}

#define STRINGS(fn) [MF_STRING] = fn,
#define NO_STRINGS

/* Conditions on input values that TF's integer kernels refuse. */
typedef mf_status (*value_check)(const mf_op_call *c, mf_error *err);

typedef struct binary_info {
  bool bool_result;
  value_check check; /* or NULL */
  binary_loop loops[MF_DTYPE_COUNT];
} binary_info;

static mf_status binary_infer(mf_op_call *c, const binary_info *info, mf_error *err) {
  MF_TRY(mf_infer_same_dtype(c, 0, 2, err));
  mf_dtype dt = c->in_specs[0].dtype;
  if (!info->loops[dt]) UNSUPPORTED(c, 0, info->loops, err);
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  const mf_spec *x = &c->in_specs[0], *y = &c->in_specs[1];
  mf_spec *o = &c->out_specs[0];
  o->dtype = info->bool_result ? MF_BOOL : dt;
  /* While a graph is built: TF's BroadcastBinaryOpShapeFn, its message. */
  if (c->building)
    return mf_sf_broadcast(x->rank, x->shape, y->rank, y->shape, &o->rank, o->shape, err);
  return mf_broadcast_shape(x->rank, x->shape, y->rank, y->shape, &o->rank, o->shape,
                            c->op->name, err);
}

static mf_status binary_kernel(mf_op_call *c, const binary_info *info, mf_error *err) {
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  /* An empty output divides nothing, and otherwise every input element is
   * used, so checking all of them is exactly TF's condition. */
  if (info->check && out->size > 0) MF_TRY(info->check(c, err));
  if (!mf_ew_binary_run(info->loops[c->in[0]->dtype], c->in, out))
    return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory in %s", c->op->name);
  return MF_OK;
}

#define BINARY(NAME, DTYPES, STRING_LOOP, RESULT, EXPR, INPUTS, CHECK, FLAGS, DOC)      \
  DTYPES(BINARY_INST, NAME, RESULT, EXPR)                                              \
  static const binary_info NAME##_info = {                                             \
      .bool_result = RESULT_IS_BOOL_##RESULT, .check = CHECK,                          \
      .loops = {DTYPES(LOOP_ENTRY, NAME) STRING_LOOP}};                                \
  static mf_status NAME##_infer(mf_op_call *c, mf_error *err) {                        \
    return binary_infer(c, &NAME##_info, err);                                         \
  }                                                                                    \
  static mf_status NAME##_kernel(mf_op_call *c, mf_error *err) {                       \
    return binary_kernel(c, &NAME##_info, err);                                        \
  }                                                                                    \
  const mf_op_def mf_op_##NAME = {                                                     \
      .name = #NAME, .input_names = INPUTS, .min_inputs = 2, .max_inputs = 2,          \
      .infer = NAME##_infer, .kernel = NAME##_kernel, .flags = FLAGS, .doc = DOC,      \
      .tf_attrs = TF_ATTRS_##DTYPES,                                                   \
  };

/* Whether integer tensor t holds a zero (with `negative`: a value below
 * zero). Never for floats, whose kernels follow IEEE instead. */
static bool int_holds(const mf_tensor *t, bool negative) {
  if (!mf_dtype_is_integer(t->dtype)) return false;
  for (int64_t i = 0; i < t->size; i++) {
    int64_t v = t->dtype == MF_INT32 ? MF_DATA(t, int32_t)[i] : MF_DATA(t, int64_t)[i];
    if (negative ? v < 0 : v == 0) return true;
  }
  return false;
}

static mf_status check_divisor(const mf_op_call *c, mf_error *err) {
  if (!int_holds(c->in[1], false)) return MF_OK;
  return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Integer division by zero [Op:%s]",
                      c->op->name);
}

static mf_status check_exponent(const mf_op_call *c, mf_error *err) {
  if (!int_holds(c->in[1], true)) return MF_OK;
  return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                      "Integers to negative integer powers are not allowed [Op:%s]", c->op->name);
}

/* FloorMod keeps its gradient (TF defines one for floats); integer outputs
 * are never differentiated anyway. */
/* The table, one X-macro as UNARY_OPS above. */
#define BINARY_OPS(BINARY)                                                              \
/*     name           dtypes           strings               result   element           \
 *     inputs         check           flags */                                          \
BINARY(AddV2,         DT_NUMERIC,      STRINGS(str_concat),  SAME,    (U)a + (U)b,      \
       "x,y",         NULL,           GRAD,                                             \
       "Returns x + y elementwise with broadcasting; concatenates strings.")            \
BINARY(Sub,           DT_NUMERIC,      NO_STRINGS,           SAME,    (U)a - (U)b,      \
       "x,y",         NULL,           GRAD,                                             \
       "Returns x - y elementwise with broadcasting.")                                  \
BINARY(Mul,           DT_NUMERIC,      NO_STRINGS,           SAME,    (U)a * (U)b,      \
       "x,y",         NULL,           GRAD,                                             \
       "Returns x * y elementwise with broadcasting.")                                  \
BINARY(RealDiv,       DT_FLOAT,        NO_STRINGS,           SAME,    a / b,            \
       "x,y",         NULL,           GRAD,                                             \
       "Returns x / y elementwise with broadcasting (floating point only).")            \
BINARY(FloorDiv,      DT_NUMERIC,      NO_STRINGS,           SAME,    NUM(floordiv, a)(a, b), \
       "x,y",         check_divisor,  NOGRAD,                                           \
       "Returns floor(x / y) elementwise with broadcasting.")                           \
BINARY(FloorMod,      DT_NUMERIC,      NO_STRINGS,           SAME,    NUM(floormod, a)(a, b), \
       "x,y",         check_divisor,  GRAD,                                             \
       "Returns x - floor(x / y) * y elementwise: the sign of y, as Python's %.")       \
BINARY(Pow,           DT_NUMERIC,      NO_STRINGS,           SAME,    NUM(pow, a)(a, b), \
       "x,y",         check_exponent, GRAD,                                             \
       "Returns x ^ y elementwise with broadcasting.")                                  \
BINARY(Maximum,       DT_NUMERIC,      NO_STRINGS,           SAME,    a > b || IS_NAN(a) ? a : b, \
       "x,y",         NULL,           GRAD,                                             \
       "Returns max(x, y) elementwise with broadcasting (NaN wins).")                   \
BINARY(Minimum,       DT_NUMERIC,      NO_STRINGS,           SAME,    a < b || IS_NAN(a) ? a : b, \
       "x,y",         NULL,           GRAD,                                             \
       "Returns min(x, y) elementwise with broadcasting (NaN wins).")                   \
BINARY(DivNoNan,      DT_FLOAT,        NO_STRINGS,           SAME,    b == 0 ? (T)0 : a / b, \
       "x,y",         NULL,           GRAD,                                             \
       "Returns x / y elementwise with broadcasting, and 0 wherever y is 0.")           \
BINARY(SquaredDifference, DT_NUMERIC,  NO_STRINGS,           SAME,    (U)((U)a - (U)b) * (U)((U)a - (U)b), \
       "x,y",         NULL,           GRAD,                                             \
       "Returns (x - y)^2 elementwise with broadcasting.")                              \
BINARY(Equal,         DT_NUMERIC_BOOL, STRINGS(str_equal),   TO_BOOL, a == b,           \
       "x,y",         NULL,           NOGRAD,                                           \
       "Returns x == y elementwise with broadcasting, as bool.")                        \
BINARY(NotEqual,      DT_NUMERIC_BOOL, STRINGS(str_not_equal), TO_BOOL, a != b,         \
       "x,y",         NULL,           NOGRAD,                                           \
       "Returns x != y elementwise with broadcasting, as bool.")                        \
BINARY(Less,          DT_NUMERIC,      NO_STRINGS,           TO_BOOL, a < b,            \
       "x,y",         NULL,           NOGRAD,                                           \
       "Returns x < y elementwise with broadcasting, as bool.")                         \
BINARY(LessEqual,     DT_NUMERIC,      NO_STRINGS,           TO_BOOL, a <= b,           \
       "x,y",         NULL,           NOGRAD,                                           \
       "Returns x <= y elementwise with broadcasting, as bool.")                        \
BINARY(Greater,       DT_NUMERIC,      NO_STRINGS,           TO_BOOL, a > b,            \
       "x,y",         NULL,           NOGRAD,                                           \
       "Returns x > y elementwise with broadcasting, as bool.")                         \
BINARY(GreaterEqual,  DT_NUMERIC,      NO_STRINGS,           TO_BOOL, a >= b,           \
       "x,y",         NULL,           NOGRAD,                                           \
       "Returns x >= y elementwise with broadcasting, as bool.")                        \
BINARY(LogicalAnd,    DT_BOOL,         NO_STRINGS,           SAME,    a && b,           \
       "x,y",         NULL,           NOGRAD,                                           \
       "Returns x AND y elementwise with broadcasting.")                                \
BINARY(LogicalOr,     DT_BOOL,         NO_STRINGS,           SAME,    a || b,           \
       "x,y",         NULL,           NOGRAD,                                           \
       "Returns x OR y elementwise with broadcasting.")                                 \
/* Gradient helpers: a is what the forward op saw or produced, b the                    \
 * incoming gradient (ReluGrad takes them the other way round, as TF). */               \
BINARY(ReluGrad,      DT_NUMERIC,      NO_STRINGS,           SAME,    b > 0 ? a : 0,    \
       "gradients,features", NULL,           GRAD,                                      \
       "Relu's backprop: gradients where features > 0, else 0.")                        \
BINARY(TanhGrad,      DT_FLOAT,        NO_STRINGS,           SAME,    b * (1 - a * a),  \
       "y,dy",        NULL,           GRAD,                                             \
       "Tanh's backprop from its output y: dy * (1 - y^2).")                            \
BINARY(SigmoidGrad,   DT_FLOAT,        NO_STRINGS,           SAME,    b * a * (1 - a),  \
       "y,dy",        NULL,           GRAD,                                             \
       "Sigmoid's backprop from its output y: dy * y * (1 - y).")                       \
BINARY(SqrtGrad,      DT_FLOAT,        NO_STRINGS,           SAME,    b * (T)0.5 / a,   \
       "y,dy",        NULL,           GRAD,                                             \
       "Sqrt's backprop from its output y: dy * 0.5 / y.")                              \
BINARY(RsqrtGrad,     DT_FLOAT,        NO_STRINGS,           SAME,    b * (T)-0.5 * (a * a * a), \
       "y,dy",        NULL,           GRAD,                                             \
       "Rsqrt's backprop from its output y: dy * -0.5 * y^3.") \
BINARY(Atan2,         DT_FLOAT,        NO_STRINGS,           SAME,    ATAN2(a, b),      \
       "y,x",         NULL,           GRAD,                                             \
       "Returns the angle of the point (x, y), atan(y / x) in the right quadrant, elementwise.") \
BINARY(Polygamma,     DT_FLOAT,        NO_STRINGS,           SAME,    POLYGAMMA(a, b),  \
       "a,x",         NULL,           GRAD,                                             \
       "Returns the a-th derivative of digamma at x, elementwise (a a whole number, else NaN).") \
BINARY(TruncateDiv,   DT_NUMERIC,      NO_STRINGS,           SAME,    TRUNCDIV(a, b),   \
       "x,y",         check_divisor,  NOGRAD,                                           \
       "Returns x / y rounded toward zero (C's integer division), with broadcasting.")  \
BINARY(TruncateMod,   DT_NUMERIC,      NO_STRINGS,           SAME,    TRUNCMOD(a, b),   \
       "x,y",         check_divisor,  NOGRAD,                                           \
       "Returns the remainder of x / y toward zero (the sign of x), as C's % and fmod.") \
BINARY(Xdivy,         DT_FLOAT,        NO_STRINGS,           SAME,    a == 0 ? (T)0 : a / b, \
       "x,y",         NULL,           GRAD,                                             \
       "Returns 0 where x is 0, else x / y, with broadcasting.")                        \
BINARY(Xlogy,         DT_FLOAT,        NO_STRINGS,           SAME,    XLOGY(a, b),      \
       "x,y",         NULL,           GRAD,                                             \
       "Returns 0 where x is 0, else x * log(y), with broadcasting.")                   \
BINARY(Xlog1py,       DT_FLOAT,        NO_STRINGS,           SAME,    SPECIAL2(xlog1py, a, b), \
       "x,y",         NULL,           GRAD,                                          \
       "Returns 0 where x is 0, else x * log1p(y), with broadcasting.") \
BINARY(Zeta,          DT_FLOAT,        NO_STRINGS,           SAME,    SPECIAL2(zeta, a, b), \
       "x,q",         NULL,           GRAD,                                          \
       "Returns the Hurwitz zeta function, the sum over k >= 0 of (k + q)^-x, elementwise.") \
BINARY(Igamma,        DT_FLOAT,        NO_STRINGS,           SAME,    SPECIAL2(igamma, a, b), \
       "a,x",         NULL,           GRAD,                                          \
       "Returns the lower regularized incomplete gamma function P(a, x) elementwise.") \
BINARY(Igammac,       DT_FLOAT,        NO_STRINGS,           SAME,    SPECIAL2(igammac, a, b), \
       "a,x",         NULL,           GRAD,                                          \
       "Returns the upper regularized incomplete gamma function Q(a, x) = 1 - P(a, x) elementwise.") \
BINARY(IgammaGradA,   DT_FLOAT,        NO_STRINGS,           SAME,    SPECIAL2(igamma_grad_a, a, b), \
       "a,x",         NULL,           NOGRAD,                                        \
       "Returns the derivative of P(a, x) in a, elementwise (Igamma's gradient).") \
/* The activations' backprops (a the incoming gradient, b what the op saw       \
 * or produced), as TF's kernels compute them. */                               \
BINARY(SoftplusGrad,  DT_FLOAT,        NO_STRINGS,           SAME,    a / (FAST(exp, -b) + 1), \
       "gradients,features", NULL,    GRAD,                                             \
       "Softplus's backprop: gradients / (exp(-features) + 1).")                        \
BINARY(SoftsignGrad,  DT_FLOAT,        NO_STRINGS,           SAME,    a / ((1 + fabs(b)) * (1 + fabs(b))), \
       "gradients,features", NULL,    GRAD,                                             \
       "Softsign's backprop: gradients / (1 + |features|)^2.")                          \
BINARY(EluGrad,       DT_FLOAT,        NO_STRINGS,           SAME,    b < 0 ? a * (b + 1) : a, \
       "gradients,outputs", NULL,     GRAD,                                             \
       "Elu's backprop from its outputs: gradients * (outputs + 1) where outputs < 0.") \
BINARY(SeluGrad,      DT_FLOAT,        NO_STRINGS,           SAME,                      \
       b < 0 ? a * (b + (T)(SELU_SCALE * SELU_ALPHA)) : a * (T)SELU_SCALE,              \
       "gradients,outputs", NULL,     GRAD,                                             \
       "Selu's backprop from its outputs: gradients * (outputs + scale * alpha) below 0, else * scale.") \
BINARY(Relu6Grad,     DT_NUMERIC,      NO_STRINGS,           SAME,    b > 0 && b < 6 ? a : 0, \
       "gradients,features", NULL,    GRAD,                                             \
       "Relu6's backprop: gradients where 0 < features < 6, else 0.")

BINARY_OPS(BINARY)

/* ==================================================================== */
/* SelectV2: three-way broadcasting                                     */
/* ==================================================================== */

/* Same shapes and a scalar condition (one operand copied or repeated) are
 * the tight cases; the rest index by step. */
#define SELECT_LOOP(DT, CT, CU, unused)                                                \
  static bool select_##DT(int64_t n, const bool *c, int sc, const void *vt, int st,    \
                          const void *ve, int se, void *vz) {                          \
    const CT *restrict t = vt, *restrict e = ve;                                       \
    CT *restrict z = vz;                                                               \
    if (sc && st && se) {                                                              \
      for (int64_t i = 0; i < n; i++) z[i] = c[i] ? t[i] : e[i];                       \
    } else if (!sc) {                                                                  \
      const CT *src = c[0] ? t : e;                                                    \
      if (c[0] ? st : se)                                                              \
        for (int64_t i = 0; i < n; i++) z[i] = src[i];                                 \
      else                                                                             \
        for (int64_t i = 0; i < n; i++) z[i] = src[0];                                 \
    } else {                                                                           \
      for (int64_t i = 0; i < n; i++) z[i] = c[i] ? t[i * st] : e[i * se];            \
    }                                                                                  \
    return true;                                                                       \
  }
DT_NUMERIC_BOOL(SELECT_LOOP, )

static bool select_strings(int64_t n, const bool *c, int sc, const void *vt, int st,
                           const void *ve, int se, void *vz) {
  const mf_string *t = vt, *e = ve;
  mf_string *z = vz;
  for (int64_t i = 0; i < n; i++) {
    const mf_string *s = c[i * sc] ? &t[i * st] : &e[i * se];
    if (mf_string_set(&z[i], s->ptr, s->len, NULL) != MF_OK) return false;
  }
  return true;
}

static const select_loop select_loops[MF_DTYPE_COUNT] = {
    DT_NUMERIC_BOOL(LOOP_ENTRY, select) [MF_STRING] = select_strings,
};

static bool is_bool(mf_dtype dt) { return dt == MF_BOOL; }

static mf_status select_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(mf_infer_check_dtype(c, 0, is_bool, "bool", err));
  MF_TRY(mf_infer_same_dtype(c, 1, 3, err));
  mf_dtype dt = c->in_specs[1].dtype;
  if (!select_loops[dt]) UNSUPPORTED(c, 1, select_loops, err);
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  const mf_spec *cond = &c->in_specs[0], *t = &c->in_specs[1], *e = &c->in_specs[2];
  mf_spec *o = &c->out_specs[0];
  o->dtype = dt;
  /* While a graph is built: TF's SelectV2 shape function, which
   * broadcasts then with else, and the condition with that. */
  if (c->building) {
    MF_TRY(mf_sf_broadcast(t->rank, t->shape, e->rank, e->shape, &o->rank, o->shape, err));
    return mf_sf_broadcast(cond->rank, cond->shape, o->rank, o->shape, &o->rank, o->shape, err);
  }
  /* TF checks then/else first, then the condition against both. */
  char sc[160], st[160], se[160];
  mf_shape_debug(t->rank, t->shape, st, sizeof st);
  mf_shape_debug(e->rank, e->shape, se, sizeof se);
  if (mf_broadcast_shape(t->rank, t->shape, e->rank, e->shape, &o->rank, o->shape, NULL, NULL))
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "then %s and else %s must be broadcastable [Op:SelectV2]", st, se);
  if (mf_broadcast_shape(cond->rank, cond->shape, o->rank, o->shape, &o->rank, o->shape, NULL,
                         NULL) == MF_OK)
    return MF_OK;
  mf_shape_debug(cond->rank, cond->shape, sc, sizeof sc);
  return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                      "condition %s, then %s, and else %s must be broadcastable [Op:SelectV2]",
                      sc, st, se);
}

static mf_status select_kernel(mf_op_call *c, mf_error *err) {
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  select_loop loop = select_loops[out->dtype];
  size_t size = mf_dtype_size(out->dtype);
  const bool *cond = mf_tensor_data(c->in[0]);
  const char *t = mf_tensor_data(c->in[1]), *e = mf_tensor_data(c->in[2]);
  char *z = mf_tensor_data(out);
  mf_bcast it;
  mf_bcast_init_tensors(&it, out, 3, c->in);
  for (int64_t r = 0; r < it.runs; r++, mf_bcast_next(&it)) {
    if (!loop(it.run, cond + it.offset[0], it.step[0], t + (size_t)it.offset[1] * size, it.step[1],
              e + (size_t)it.offset[2] * size, it.step[2], z + (size_t)(r * it.run) * size))
      return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory in SelectV2");
  }
  return MF_OK;
}

const mf_op_def mf_op_SelectV2 = {
    .name = "SelectV2", .input_names = "condition,t,e", .min_inputs = 3, .max_inputs = 3,
    .infer = select_infer, .kernel = select_kernel, .flags = MF_OP_ELEMENTWISE,
    .tf_attrs = "T:1",
    .doc = "Picks t where condition is true, else e, broadcasting all three.",
};

/* ==================================================================== */
/* Cast                                                                 */
/* ==================================================================== */

/* The loops between the computing dtypes: elementwise_cast.inc. */
#include "elementwise_cast.inc"

static mf_status cast_infer(mf_op_call *c, mf_error *err) {
  const mf_attr *a = mf_attrs_find(c->attrs, "DstT");
  if (!a) return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Cast needs a 'DstT' attribute");
  mf_dtype src = c->in_specs[0].dtype, dst = a->u.type;
  if ((unsigned)dst >= MF_DTYPE_COUNT)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Cast: DstT is not a dtype");
  if (src != dst && !cast_loops[src][dst] &&
      !(mf_dtype_is_convertible(src) && mf_dtype_is_convertible(dst)))
    return mf_error_set(err, MF_ERR_UNIMPLEMENTED, "Cast %s to %s is not supported [Op:Cast]",
                        mf_dtype_name(src), mf_dtype_name(dst));
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  c->out_specs[0] = c->in_specs[0];
  c->out_specs[0].dtype = dst;
  return MF_OK;
}

static mf_status cast_kernel(mf_op_call *c, mf_error *err) {
  mf_tensor *x = c->in[0];
  /* Tensors are immutable, so a cast to the same dtype is the input. */
  if (c->out_specs[0].dtype == x->dtype) {
    mf_tensor_retain(x);
    c->out[0] = x;
    return MF_OK;
  }
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  cast_loop loop = cast_loops[x->dtype][out->dtype];
  /* The small and half dtypes: one loop for every pair, by element. */
  if (!loop)
    mf_convert_elements(mf_tensor_data(x), x->dtype, mf_tensor_data(out), out->dtype, x->size);
  else
    mf_ew_unary_run(loop, x, out);
  return MF_OK;
}

const mf_op_def mf_op_Cast = {
    .name = "Cast", .input_names = "x", .min_inputs = 1, .max_inputs = 1,
    .attrs = {{"DstT", MF_ATTR_TYPE}}, .partial = mf_partial_cast,
    .infer = cast_infer, .kernel = cast_kernel, .flags = MF_OP_ELEMENTWISE,
    .tf_attrs = "DstT SrcT:0 Truncate=false",
    .doc = "Converts x to the dtype DstT (float to int truncates; to bool is x != 0).",
};

/* LeakyRelu and LeakyReluGrad: elementwise_leaky.inc. */
#include "elementwise_leaky.inc"

/* Betainc, the three-input incomplete beta function: elementwise_betainc.inc. */
#include "elementwise_betainc.inc"

/* ==================================================================== */
/* Block functions for fusion (elementwise.h)                           */
/* ==================================================================== */

/* What each elementwise op computes a block with: its family and loop
 * table, from the same X-macro tables as the ops themselves. */

typedef struct ew_entry {
  const mf_op_def *op;
  int kind;
  const unary_loop *unary;   /* EW_UNARY */
  const binary_info *binary; /* EW_BINARY */
  bool bool_unary;           /* EW_UNARY with a bool result */
} ew_entry;

extern const mf_op_def mf_op_Identity;

#define UNARY_ENTRY(NAME, DTYPES, EXPR, FLAGS, DOC) \
  {&mf_op_##NAME, EW_UNARY, NAME##_loops, NULL, false},
#define BINARY_ENTRY(NAME, DTYPES, STRING_LOOP, RESULT, EXPR, INPUTS, CHECK, FLAGS, DOC) \
  {&mf_op_##NAME, EW_BINARY, NULL, &NAME##_info, false},
#define UNARY_BOOL_ENTRY(NAME, DTYPES, EXPR, FLAGS, DOC) \
  {&mf_op_##NAME, EW_UNARY, NAME##_loops, NULL, true},
/* In the order the chunk codes' rows are (elementwise_chunk.inc). */
static const ew_entry ew_entries[] = {
    UNARY_OPS(UNARY_ENTRY) BINARY_OPS(BINARY_ENTRY) UNARY_BOOL_OPS(UNARY_BOOL_ENTRY)
    {&mf_op_SelectV2, EW_SELECT, NULL, NULL, false},
    {&mf_op_Cast, EW_CAST, NULL, NULL, false},
    {&mf_op_Identity, EW_COPY, NULL, NULL, false},
};

/* An open-addressing index by op address, built once. */
enum { EW_SLOTS = 256 };
_Static_assert(sizeof ew_entries / sizeof ew_entries[0] * 2 <= EW_SLOTS, "grow EW_SLOTS");
static const ew_entry *ew_slots[EW_SLOTS];
static pthread_once_t ew_once = PTHREAD_ONCE_INIT;

static size_t ew_hash(const mf_op_def *op) {
  return (size_t)(((uint64_t)(uintptr_t)op >> 4) * 0x9e3779b97f4a7c15u >> 56); /* 8 bits */
}

static void ew_build_index(void) {
  for (size_t k = 0; k < sizeof ew_entries / sizeof ew_entries[0]; k++) {
    size_t i = ew_hash(ew_entries[k].op);
    while (ew_slots[i]) i = (i + 1) % EW_SLOTS;
    ew_slots[i] = &ew_entries[k];
  }
}

static const ew_entry *ew_find(const mf_op_def *op) {
  pthread_once(&ew_once, ew_build_index);
  for (size_t i = ew_hash(op);; i = (i + 1) % EW_SLOTS) {
    if (!ew_slots[i] || ew_slots[i]->op == op) return ew_slots[i];
  }
}

typedef void (*any_loop)(void);

bool mf_elementwise_resolve(const mf_op_def *op, mf_dtype dt, const mf_attrs *attrs,
                            mf_elementwise_fn *fn) {
  const ew_entry *e = ew_find(op);
  /* Only the dtypes the loops are written for: the small and half ones
   * compute through wider kernels (dtype_widen.h), never in a fused run. */
  if (!e || (unsigned)dt >= MF_DTYPE_COUNT || !(mf_dtype_is_numeric(dt) || dt == MF_BOOL))
    return false;
  *fn = (mf_elementwise_fn){.kind = e->kind, .in_dtype = dt, .out_dtype = dt};
  switch (e->kind) {
  case EW_UNARY:
    fn->loop = (any_loop)e->unary[dt];
    if (e->bool_unary) fn->out_dtype = MF_BOOL;
    break;
  case EW_BINARY:
    fn->loop = (any_loop)e->binary->loops[dt];
    if (e->binary->bool_result) fn->out_dtype = MF_BOOL;
    break;
  case EW_SELECT:
    fn->loop = (any_loop)select_loops[dt];
    break;
  case EW_CAST: {
    const mf_attr *a = mf_attrs_find(attrs, "DstT");
    if (!a || a->kind != MF_ATTR_TYPE || (unsigned)a->u.type >= MF_DTYPE_COUNT) return false;
    fn->out_dtype = a->u.type;
    if (fn->out_dtype == dt)
      fn->kind = EW_COPY;
    else
      fn->loop = (any_loop)cast_loops[dt][fn->out_dtype];
    break;
  }
  default:
    break;
  }
  return fn->kind == EW_COPY || fn->loop != NULL;
}

bool mf_elementwise_fusable(const mf_op_def *op, mf_dtype dt, const mf_attrs *attrs) {
  mf_elementwise_fn fn;
  if (!mf_elementwise_resolve(op, dt, attrs, &fn)) return false;
  /* TF's integer division and power kernels refuse some values: keep them
   * as nodes of their own, which raise that error. */
  const ew_entry *e = ew_find(op);
  return !(e->kind == EW_BINARY && e->binary->check && mf_dtype_is_integer(dt));
}

bool mf_elementwise_block(const mf_op_def *op, mf_dtype dt, int nin, const void *const *in,
                          const int64_t *in_stride, void *out, int64_t n, const mf_attrs *attrs) {
  mf_elementwise_fn fn;
  int want = op->min_inputs;
  if (!mf_elementwise_resolve(op, dt, attrs, &fn) || nin != want) return false;
  mf_elementwise_run(&fn, in, in_stride, out, n);
  return true;
}

/* Whole fused programs a chunk at a time, from the same tables. */
#include "elementwise_chunk.inc"
