/* elementwise_special.h — the elements of issue 28's elementwise ops that
 * are more than one expression: the transcendental functions computed in
 * the wider type, digamma, the Hurwitz zeta and polygamma, softplus, selu,
 * softsign, atan2, x log y, and C's truncating division. Included by
 * ops_elementwise.c only (after fastmath.h and <tgmath.h>, whose names
 * these use), compiled with its flags. */
#ifndef MF_ELEMENTWISE_SPECIAL_H
#define MF_ELEMENTWISE_SPECIAL_H

#include <stdbool.h>
#include <stdint.h>

/* C's division and remainder (toward zero), TF's TruncateDiv/TruncateMod
 * for integers; x / -1 wraps as above. Floats: trunc(x / y) and fmod.
 * Zero divisors are refused before the loop (check_divisor). */
#define TRUNC_HELPERS(T, U)                                                            \
  static inline T truncdiv_##T(T x, T y) {                                             \
    if (y == 0) return 0;                                                              \
    return y == -1 ? (T)-(U)x : x / y;                                                 \
  }                                                                                    \
  static inline T truncmod_##T(T x, T y) { return y == 0 || y == -1 ? 0 : x % y; }
TRUNC_HELPERS(int32_t, uint32_t)
TRUNC_HELPERS(int64_t, uint64_t)
static inline float truncmod_float(float x, float y) { return fmodf(x, y); }
static inline double truncmod_double(double x, double y) { return fmod(x, y); }
#define TRUNCMOD(a, b) \
  _Generic((a), float: truncmod_float, double: truncmod_double, int32_t: truncmod_int32_t, \
           int64_t: truncmod_int64_t)(a, b)
static inline float truncdiv_float(float x, float y) { return truncf(x / y); }
static inline double truncdiv_double(double x, double y) { return trunc(x / y); }
#define TRUNCDIV(a, b) \
  _Generic((a), float: truncdiv_float, double: truncdiv_double, int32_t: truncdiv_int32_t, \
           int64_t: truncdiv_int64_t)(a, b)

/* The other transcendental functions, where a vectorised polynomial is not
 * worth its code: float32 through the C library's double function, float64
 * through its long double one (x87 extended precision), each rounded once
 * to the result's type, so that both are within an ulp of the exact value
 * (the differential test's bounds, tests/diff/reference.py). The special
 * values are C99's. */
#define WIDE_HELPERS(f)                                                                \
  static inline float f##_w_float(float x) { return (float)f((double)x); }             \
  static inline double f##_w_double(double x) { return (double)f((long double)x); }
WIDE_HELPERS(sinh)
WIDE_HELPERS(cosh)
WIDE_HELPERS(tan)
WIDE_HELPERS(asin)
WIDE_HELPERS(acos)
WIDE_HELPERS(atan)
WIDE_HELPERS(asinh)
WIDE_HELPERS(acosh)
WIDE_HELPERS(atanh)
WIDE_HELPERS(erf)
WIDE_HELPERS(erfc)
WIDE_HELPERS(expm1)
WIDE_HELPERS(log1p)
#define WIDE(f, x) _Generic((x), float: f##_w_float, double: f##_w_double)(x)

/* lgamma through lgamma_r / lgammal_r: plain lgamma writes the global
 * signgam, and the kernels run on several threads. */
static inline float lgamma_w_float(float x) {
  int sign;
  return (float)lgamma_r((double)x, &sign);
}
static inline double lgamma_w_double(double x) {
  int sign;
  return (double)lgammal_r((long double)x, &sign);
}

/* digamma (psi), in long double for both: Cephes's psi.c as Eigen (and so
 * TF) computes it, with the asymptotic series taken further for long
 * double's precision: reflection psi(x) = psi(1 - x) - pi / tan(pi x) for
 * x <= 0, the recurrence psi(x) = psi(x + 1) - 1 / x up to x >= 10, then
 * log x - 1 / 2x - sum B_2k / (2k x^2k). Non-positive integers and -inf
 * give +inf, as Eigen's. */
/* Near digamma's positive zero x0 = 1.4616... the recurrence's sum and
 * logarithm cancel (to a few ulps of float64): there, its Taylor series
 * at x0, psi(x) = sum over k >= 1 of (-1)^(k+1) zeta(k + 1, x0) h^k with
 * h = x - x0 taken against x0 in two parts (x0 to 128 bits). */
static long double digamma_near_zero(long double x) {
  static const long double c[] = {
      0.9676722454476211704274448L,    -0.4427631689835921060928653L,   0.2584997609556510106244014L,
      -0.1639427054424065275042513L,   0.1078240506912623657571829L,    -0.07219956125645471092612178L,
      0.04880428816414310722509253L,   -0.0331611264748473592922584L,   0.02259764823221810465962483L,
      -0.01542476590494895913880032L,  0.01053879161661217538812405L,   -0.007204534386356868240970474L,
      0.004926781395729853446354266L,  -0.003369801655439328082792857L, 0.00230512632673492783693838L,
      -0.001576936771430197259270935L, 0.001078825201916296580691918L,  -0.0007380709389960051295660474L,
      0.0005049532658346020351773982L, -0.000345468025106307699555568L, 0.000236356015640270527923696L,
      -0.0001617062209197480344935831L, 0.0001106337276874741090408716L,
      -0.00007569179582195065919237709L, 0.00005178575795222080868993268L,
  };
  long double h = (x - 0xBB16C31AB5F1FB71P-63L) - -1.8257096315963484214601e-20L, r = 0;
  for (int k = (int)(sizeof c / sizeof c[0]) - 1; k >= 0; k--) r = (r + c[k]) * h;
  return r;
}

static long double digamma_ld(long double x) {
  if (x != x || x == INFINITY) return x;
  if (fabsl(x - 1.4616321449683623413L) < 0.25L) return digamma_near_zero(x);
  long double nz = 0;
  bool negative = x <= 0;
  if (negative) {
    long double p = floorl(x);
    if (p == x) return INFINITY;
    nz = x - p;
    if (nz != 0.5L) {
      if (nz > 0.5L) nz = x - (p + 1);
      nz = 3.14159265358979323846264338327950288L / tanl(3.14159265358979323846264338327950288L * nz);
    } else {
      nz = 0;
    }
    x = 1 - x;
  }
  long double w = 0;
  while (x < 10) {
    w += 1 / x;
    x += 1;
  }
  /* B_2k / 2k for k = 1..9 */
  static const long double b[] = {
      1.0L / 12, -1.0L / 120, 1.0L / 252, -1.0L / 240, 1.0L / 132, -691.0L / 32760,
      1.0L / 12, -3617.0L / 8160, 43867.0L / 14364,
  };
  long double z = 1 / (x * x), s = 0;
  for (int k = (int)(sizeof b / sizeof b[0]) - 1; k >= 0; k--) s = (s + b[k]) * z;
  long double y = logl(x) - 0.5L / x - s - w;
  return negative ? y - nz : y;
}
static inline float digamma_w_float(float x) { return (float)digamma_ld(x); }
static inline double digamma_w_double(double x) { return (double)digamma_ld(x); }

/* log(1 + e^x) as TF's softplus kernel: x itself above -log(eps) + 2
 * (where adding 1 changes nothing), e^x below log(eps) + 2 (where log1p
 * is the identity), else log1p(e^x); float32 through fastmath's float64
 * functions, float64 through the C library's long double ones. */
static inline float softplus_float(float x) {
  double e = exp_f64((double)x);
  float r = (float)log1p_f64(e);
  return x > 17.9424744f ? x : x < -17.9424744f ? (float)e : r;
}
static inline double softplus_double(double x) {
  long double e = expl((long double)x);
  double r = (double)log1pl(e);
  return x > 38.0436527 ? x : x < -38.0436527 ? (double)e : r;
}
#define SOFTPLUS(x) _Generic((x), float: softplus_float, double: softplus_double)(x)

/* atan2 and x log y as the unaries above: float32 in double (log y by
 * fastmath's, so x log y rounds once), float64 through long double atan2
 * and fastmath's double log. xlogy and xdivy are 0 where x is 0, whatever
 * y is (TF's kernels). */
static inline float atan2_w_float(float y, float x) { return (float)atan2((double)y, (double)x); }
static inline double atan2_w_double(double y, double x) {
  return (double)atan2l((long double)y, (long double)x);
}
#define ATAN2(a, b) _Generic((a), float: atan2_w_float, double: atan2_w_double)(a, b)
static inline float xlogy_float(float x, float y) {
  return x == 0 ? 0.0f : (float)((double)x * log_f64((double)y));
}
static inline double xlogy_double(double x, double y) { return x == 0 ? 0.0 : x * log_f64(y); }
#define XLOGY(a, b) _Generic((a), float: xlogy_float, double: xlogy_double)(a, b)

/* The Hurwitz zeta function zeta(s, q) = sum over k >= 0 of (k + q)^-s,
 * in long double by Cephes's zeta.c (Euler-Maclaurin summation), which is
 * what Eigen's zeta (TF's) computes; and polygamma(n, x) from it for
 * integer n >= 1: (-1)^(n+1) n! zeta(n + 1, x), digamma for n = 0, NaN
 * for other n (TF's Polygamma). */
static long double zeta_ld(long double s, long double q) {
  static const long double a[] = {
      12.0L, -720.0L, 30240.0L, -1209600.0L, 47900160.0L, -1.8924375803183791606e9L,
      7.47242496e10L, -2.950130727918164224e12L, 1.1646782814350067249e14L,
      -4.5979787224074726105e15L, 1.8152105401943546773e17L, -7.1661652561756670113e18L,
  };
  const long double eps = 0x1p-64L;
  if (s != s || q != q) return s + q;
  if (s == 1) return INFINITY;
  if (s < 1) return NAN;
  if (q == INFINITY) return 0;
  if (q <= 0) {
    if (q == floorl(q)) return INFINITY;
    if (s != floorl(s)) return NAN; /* q^-s would be complex */
    /* The summation below steps q up to 9 one by one: past this many
     * steps its rounding errors have swamped the value anyway. */
    if (q < -1e6L) return NAN;
  }
  long double sum = powl(q, -s), b = 0, w = q;
  int i = 0;
  while (i < 9 || w <= 9) {
    i++;
    w += 1;
    b = powl(w, -s);
    sum += b;
    if (fabsl(b / sum) < eps) return sum;
  }
  sum += b * w / (s - 1) - 0.5L * b;
  long double f = 1, k = 0;
  for (i = 0; i < 12; i++) {
    f *= s + k;
    b /= w;
    long double t = f * b / a[i];
    sum += t;
    if (fabsl(t / sum) < eps) break;
    k += 1;
    f *= s + k;
    b /= w;
    k += 1;
  }
  return sum;
}

static long double polygamma_ld(long double n, long double x) {
  if (n != floorl(n) || n < 0) return NAN;
  if (n == 0) return digamma_ld(x);
  long double sign = fmodl(n, 2) == 0 ? -1 : 1;
  return sign * expl(lgammal(n + 1)) * zeta_ld(n + 1, x);
}
static inline float polygamma_float(float n, float x) { return (float)polygamma_ld(n, x); }
static inline double polygamma_double(double n, double x) { return (double)polygamma_ld(n, x); }
#define POLYGAMMA(a, b) _Generic((a), float: polygamma_float, double: polygamma_double)(a, b)

/* SELU's constants (Klambauer et al.), as TF's kernel. */
#define SELU_ALPHA 1.6732632423543772848170429916717
#define SELU_SCALE 1.0507009873554804934193349852946

/* selu and softsign in the wider type (double for float32, long double
 * for float64), rounded once: within an ulp, where the element's own type
 * would round three times (the constant, expm1, the product). */
static inline float selu_float(float x) {
  double w = x;
  return (float)(w < 0 ? SELU_SCALE * SELU_ALPHA * expm1(w) : SELU_SCALE * w);
}
static inline double selu_double(double x) {
  long double w = x;
  return (double)(w < 0 ? 1.7580993408473768599402175208123L * expm1l(w)
                        : 1.0507009873554804934193349852946L * w);
}
#define SELU(x) _Generic((x), float: selu_float, double: selu_double)(x)
static inline float softsign_float(float x) { return (float)((double)x / (fabs((double)x) + 1)); }
static inline double softsign_double(double x) {
  long double w = x;
  return (double)(w / (fabsl(w) + 1));
}
#define SOFTSIGN(x) _Generic((x), float: softsign_float, double: softsign_double)(x)

#endif
