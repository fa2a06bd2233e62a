/* special_gamma.h — the regularized incomplete gamma functions of TF's
 * Igamma, Igammac and IgammaGradA (the derivative of Igamma in a), the
 * Hurwitz zeta of Zeta, and x log1p(y) of Xlog1py. Igamma is Cephes's
 * igam.c (a power series below x = max(1, a), a continued fraction of
 * the complement above), with the derivative carried through both as
 * Eigen's igamma_generic_impl<DERIVATIVE> does: what TF's kernels compute.
 * Evaluated in long double for both float32 and float64, each rounded once.
 * Included by ops_elementwise.c only, after elementwise_special.h (whose
 * digamma_ld and zeta_ld these use). */
#ifndef MF_SPECIAL_GAMMA_H
#define MF_SPECIAL_GAMMA_H

#include <float.h>

/* x^a e^-x / Gamma(a), the factor before both expansions; 0 where it
 * underflows, which makes Igamma's value (and derivative) 0 or 1 there. */
static long double igamma_factor(long double a, long double x) {
  int sign;
  long double logax = a * logl(x) - x - lgammal_r(a, &sign);
  if (logax < -logl(LDBL_MAX) || logax != logax) return 0;
  return expl(logax);
}

/* Cephes's machep, big and biginv for long double. */
#define IG_EPS 0x1p-64L
#define IG_BIG 0x1p64L
#define IG_BIGINV 0x1p-64L

/* Q(a, x) by its continued fraction (x > 1 and x > a), and its derivative
 * in a when `derivative`. */
static long double igammac_cf(long double a, long double x, bool derivative) {
  if (isinf(x)) return 0;
  long double ax = igamma_factor(a, x);
  if (ax == 0) return 0;
  long double y = 1 - a, z = x + y + 1, c = 0;
  long double pkm2 = 1, qkm2 = x, pkm1 = x + 1, qkm1 = z * x;
  long double ans = pkm1 / qkm1;
  long double dpkm2 = 0, dqkm2 = 0, dpkm1 = 0, dqkm1 = -x;
  long double dans = (dpkm1 - ans * dqkm1) / qkm1;
  for (int i = 0; i < 2000; i++) {
    c += 1;
    y += 1;
    z += 2;
    long double yc = y * c;
    long double pk = pkm1 * z - pkm2 * yc, qk = qkm1 * z - qkm2 * yc;
    long double dpk = dpkm1 * z - pkm1 - dpkm2 * yc + pkm2 * c;
    long double dqk = dqkm1 * z - qkm1 - dqkm2 * yc + qkm2 * c;
    if (qk != 0) {
      long double prev = ans, dprev = dans;
      ans = pk / qk;
      dans = (dpk - ans * dqk) / qk;
      if (!derivative ? fabsl(prev - ans) <= IG_EPS * fabsl(ans) : fabsl(dans - dprev) <= IG_EPS) break;
    }
    pkm2 = pkm1, pkm1 = pk, qkm2 = qkm1, qkm1 = qk;
    dpkm2 = dpkm1, dpkm1 = dpk, dqkm2 = dqkm1, dqkm1 = dqk;
    if (fabsl(pk) > IG_BIG) {
      pkm2 *= IG_BIGINV, pkm1 *= IG_BIGINV, qkm2 *= IG_BIGINV, qkm1 *= IG_BIGINV;
      dpkm2 *= IG_BIGINV, dpkm1 *= IG_BIGINV, dqkm2 *= IG_BIGINV, dqkm1 *= IG_BIGINV;
    }
  }
  if (!derivative) return ans * ax;
  return ans * ax * (logl(x) - digamma_ld(a)) + dans * ax;
}

/* P(a, x) by its power series (x <= 1 or x <= a), or its derivative in a. */
static long double igamma_series(long double a, long double x, bool derivative) {
  long double ax = igamma_factor(a, x);
  if (ax == 0) return 0;
  ax /= a;
  long double r = a, c = 1, ans = 1, dc = 0, dans = 0;
  for (int i = 0; i < 2000; i++) {
    r += 1;
    long double term = x / r, dterm = -x / (r * r);
    dc = term * dc + dterm * c;
    dans += dc;
    c *= term;
    ans += c;
    if (!derivative ? c <= IG_EPS * ans : fabsl(dc) <= IG_EPS * fabsl(dans)) break;
  }
  if (!derivative) return ans * ax;
  return ans * ax * (logl(x) - digamma_ld(a + 1)) + dans * ax;
}

/* Igamma (P), its derivative in a, and Igammac (Q = 1 - P): NaN for
 * x < 0, a <= 0 and NaN, even where x is 0 (TF's kernel tests that before
 * Eigen's x == 0 shortcut: testIgammaDomainEdgeCases); P(a, 0) = 0. */
static long double igamma_any(long double a, long double x, bool derivative) {
  if (x < 0 || a <= 0 || a != a || x != x) return NAN;
  if (x == 0) return 0;
  if (x > 1 && x > a) {
    long double q = igammac_cf(a, x, derivative);
    return derivative ? -q : 1 - q;
  }
  return igamma_series(a, x, derivative);
}
static long double igamma_ld(long double a, long double x) { return igamma_any(a, x, false); }
static long double igamma_grad_a_ld(long double a, long double x) { return igamma_any(a, x, true); }
static long double igammac_ld(long double a, long double x) {
  if (x < 0 || a <= 0 || a != a || x != x) return NAN;
  if (x < 1 || x < a) return 1 - igamma_series(a, x, false);
  return igammac_cf(a, x, false);
}

/* x log1p(y), 0 where x is 0 whatever y is (TF's Xlog1py). */
static long double xlog1py_ld(long double x, long double y) { return x == 0 ? 0 : x * log1pl(y); }

#define LD_BINARY_HELPERS(f)                                                           \
  static inline float f##_s_float(float a, float b) { return (float)f##_ld(a, b); }    \
  static inline double f##_s_double(double a, double b) { return (double)f##_ld(a, b); }
LD_BINARY_HELPERS(igamma)
LD_BINARY_HELPERS(igammac)
LD_BINARY_HELPERS(igamma_grad_a)
LD_BINARY_HELPERS(xlog1py)
LD_BINARY_HELPERS(zeta)
#define SPECIAL2(f, a, b) _Generic((a), float: f##_s_float, double: f##_s_double)(a, b)

#endif
