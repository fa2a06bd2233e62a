/* fastmath.h — exp, log, log1p, tanh and sigmoid for float32 and float64
 * as straight-line arithmetic the vectoriser can turn into SIMD code, and
 * FAST(f, x), which picks the version for x's type. Included by
 * ops_elementwise.c only, which the Makefile builds with the flags these
 * functions are written for (-O3 -fno-trapping-math -fno-math-errno
 * -ffp-contract=off); their accuracy is measured by tests/core/test_approx.c. */
#ifndef MF_FASTMATH_H
#define MF_FASTMATH_H

#include <math.h>
#include <stdint.h>
#include <string.h>

/* ==================================================================== */
/* exp, log, log1p, tanh, sigmoid: vectorisable approximations         */
/* ==================================================================== */

/* glibc's scalar tanhf costs 20-30 ns an element and its expf/logf 5 ns,
 * and a loop that calls them cannot use SIMD. These versions are straight
 * arithmetic on the element: no calls, no branches (both sides of a case
 * are computed and one is selected), integer work done on the bits of the
 * float, so the unary loops over them compile to SIMD code (the Makefile
 * builds this file with -O3 -fno-trapping-math; see SIMD_CLONES). They
 * follow Cephes (Stephen L. Moshier's library): a range reduction, then a
 * polynomial or rational approximation with Cephes's coefficients (float32
 * tanh excepted, see there). Their
 * error against glibc, measured by tests/core/test_approx.c (float32 over
 * every value with MF_APPROX_EXHAUSTIVE=1, float64 over samples):
 *   float32: exp, log <= 1 ulp; log1p, sigmoid <= 2 ulp; tanh <= 6 ulp
 *            (4.3e-7 absolutely: TF's kind of rational function, for speed);
 *   float64: exp, log1p, sigmoid <= 2 ulp; log, tanh <= 1 ulp over the
 *            test's 2^21 samples (it checks <= 2 ulp, log1p <= 3).
 * Special values are C99's: NaN gives NaN, exp(-inf) = 0, exp(+inf) = +inf
 * (and overflow to it), tanh(+-0) = +-0, tanh(+-inf) = +-1, log(+-0) =
 * -inf, log(x < 0) = NaN, log(+inf) = +inf; subnormal inputs and results
 * are exact IEEE arithmetic (no flush to zero).
 *
 * Floating-point contraction is off, so SIMD and scalar code round alike:
 * a loop gives the same bits for an element whatever the length or
 * alignment of the block it is in. */

static inline uint32_t bits_f32(float v) {
  uint32_t u;
  memcpy(&u, &v, sizeof u);
  return u;
}
static inline float f32_of(uint32_t u) {
  float v;
  memcpy(&v, &u, sizeof v);
  return v;
}
static inline uint64_t bits_f64(double v) {
  uint64_t u;
  memcpy(&u, &v, sizeof u);
  return u;
}
static inline double f64_of(uint64_t u) {
  double v;
  memcpy(&v, &u, sizeof v);
  return v;
}

/* Adding 1.5 * 2^(mantissa bits) rounds a value of magnitude below 2^22
 * (2^51) to an integer, which then sits in the low bits of the sum. */
#define ROUND_F32 0x1.8p23f
#define ROUND_F64 0x1.8p52

/* 2^k for an integer-valued k in [-126, 127] ([-1022, 1023]): its bits. */
static inline float pow2i_f32(float k) {
  return f32_of((bits_f32(k + ROUND_F32) - bits_f32(ROUND_F32) + 127u) << 23);
}
static inline double pow2i_f64(double k) {
  return f64_of((bits_f64(k + ROUND_F64) - bits_f64(ROUND_F64) + 1023u) << 52);
}

/* e^x = 2^k e^r with k = round(x / ln 2), r = x - k ln 2 in two parts (the
 * first product exact), e^r by Cephes's polynomial (expf.c) or rational
 * function (exp.c). 2^k is applied as two factors, so that a result near
 * overflow or in the subnormal range is one rounding of e^r's value. */
static inline float exp_f32(float x) {
  float xc = x < -104.0f ? -104.0f : x > 89.0f ? 89.0f : x; /* NaN stays */
  float k = (xc * 0x1.715476p+0f + ROUND_F32) - ROUND_F32;
  float r = xc - k * 0.693359375f;
  r = r - k * -2.12194440e-4f;
  float p = (((((1.9875691500e-4f * r + 1.3981999507e-3f) * r + 8.3334519073e-3f) * r +
               4.1665795894e-2f) * r + 1.6666665459e-1f) * r + 5.0000001201e-1f) * (r * r) +
            r + 1.0f;
  float k1 = (k * 0.5f + ROUND_F32) - ROUND_F32;
  return p * pow2i_f32(k1) * pow2i_f32(k - k1);
}

static inline double exp_f64(double x) {
  double xc = x < -746.0 ? -746.0 : x > 710.0 ? 710.0 : x;
  double k = (xc * 0x1.71547652b82fep+0 + ROUND_F64) - ROUND_F64;
  double r = xc - k * 6.93145751953125e-1;
  r = r - k * 1.42860682030941723212e-6;
  double rr = r * r;
  double px = r * ((1.26177193074810590878e-4 * rr + 3.02994407707441961300e-2) * rr +
                   9.99999999999999999910e-1);
  double qx = ((3.00198505138664455042e-6 * rr + 2.52448340349684104192e-3) * rr +
               2.27265548208155028766e-1) * rr + 2.00000000000000000009e0;
  double p = 1.0 + 2.0 * (px / (qx - px));
  double k1 = (k * 0.5 + ROUND_F64) - ROUND_F64;
  return p * pow2i_f64(k1) * pow2i_f64(k - k1);
}

/* log x = e ln 2 + log(1 + f) with x = (1 + f) 2^e, 1 + f in [sqrt(1/2),
 * sqrt(2)); subnormals are scaled into the normal range first. Cephes's
 * logf.c polynomial and log.c rational function (its form for all e). */
static inline float log_f32(float x) {
  int sub = x < 0x1p-126f;
  uint32_t u = bits_f32(sub ? x * 0x1p23f : x);
  float m = f32_of((u & 0x007fffffu) | 0x3f000000u); /* [1/2, 1) */
  float e = (float)(int32_t)((u >> 23) & 0xffu) - (sub ? 149.0f : 126.0f);
  int lo = m < 0x1.6a09e6p-1f;
  e = lo ? e - 1.0f : e;
  float f = lo ? m + m - 1.0f : m - 1.0f;
  float z = f * f;
  float y = ((((((((7.0376836292e-2f * f - 1.1514610310e-1f) * f + 1.1676998740e-1f) * f -
                  1.2420140846e-1f) * f + 1.4249322787e-1f) * f - 1.6668057665e-1f) * f +
               2.0000714765e-1f) * f - 2.4999993993e-1f) * f + 3.3333331174e-1f) * f * z;
  y = y + -2.12194440e-4f * e;
  y = y + -0.5f * z;
  float res = (f + y) + 0.693359375f * e;
  res = x == INFINITY ? x : res;
  res = x < 0.0f ? NAN : res;
  res = x == 0.0f ? -INFINITY : res;
  return x != x ? x : res;
}

static inline double log_f64(double x) {
  int sub = x < 0x1p-1022;
  uint64_t u = bits_f64(sub ? x * 0x1p54 : x);
  double m = f64_of((u & 0x000fffffffffffffu) | 0x3fe0000000000000u); /* [1/2, 1) */
  /* the exponent field as a double, by the same trick as ROUND_F64 */
  double e = (f64_of(0x4330000000000000u | ((u >> 52) & 0x7ffu)) - 0x1p52) -
             (sub ? 1076.0 : 1022.0);
  int lo = m < 0x1.6a09e667f3bcdp-1;
  e = lo ? e - 1.0 : e;
  double f = lo ? m + m - 1.0 : m - 1.0;
  double z = f * f;
  double p = ((((1.01875663804580931796e-4 * f + 4.97494994976747001425e-1) * f +
                4.70579119878881725854e0) * f + 1.44989225341610930846e1) * f +
              1.79368678507819816313e1) * f + 7.70838733755885391666e0;
  double q = ((((f + 1.12873587189167450590e1) * f + 4.52279145837532221105e1) * f +
               8.29875266912776603211e1) * f + 7.11544750618563894466e1) * f +
             2.31251620126765340583e1;
  double y = f * (z * p / q);
  y = y - e * 2.121944400546905827679e-4;
  y = y - 0.5 * z;
  double res = (f + y) + e * 0.693359375;
  res = x == INFINITY ? x : res;
  res = x < 0.0 ? NAN : res;
  res = x == 0.0 ? -INFINITY : res;
  return x != x ? x : res;
}

/* log1p x = log u * x / (u - 1) with u = 1 + x rounded (Goldberg's
 * correction for the rounding of u); x itself where u rounds to 1. */
static inline float log1p_f32(float x) {
  float u = 1.0f + x, d = u - 1.0f;
  float res = d == 0.0f ? x : log_f32(u) * (x / d);
  return x == INFINITY ? x : res;
}

static inline double log1p_f64(double x) {
  double u = 1.0 + x, d = u - 1.0;
  double res = d == 0.0 ? x : log_f64(u) * (x / d);
  return x == INFINITY ? x : res;
}

/* tanh, float32: x P(x^2) / Q(x^2), one rational function over the whole
 * range as Eigen (and so TensorFlow) computes it, with coefficients fitted
 * here for relative minimax error on [0, 9.2] (iteratively reweighted
 * least squares, Lawson's method, on 6000 Chebyshev points against
 * 40-digit tanh; 1.6e-9 in exact arithmetic;
 * the float evaluation brings it to <= 6 ulp, 4.3e-7 absolutely). Beyond
 * |x| = 9.02 tanh rounds to +-1. About 2.4x faster than the exp form that
 * float64 uses below (which was <= 1 ulp in float32). */
static inline float tanh_f32(float x) {
  float a = fabsf(x), c = a > 9.2f ? 9.2f : a, y = c * c;
  float p = ((((-1.1824341061009336e-11f * y + 3.0070110841945263e-08f) * y +
               2.779242931195429e-05f) * y + 0.0038576521144271835f) * y +
             0.13671392011734301f) * y + 0.99999999837560383f;
  float q = (((1.2723689177032625e-06f * y + 0.00039198206621058885f) * y +
              0.027206756374949324f) * y + 0.47004723784301905f) * y + 1.0f;
  float r = a >= 9.02f ? 1.0f : c * p / q;
  return copysignf(r, x); /* and tanh(-0) = -0 */
}

/* tanh, float64: Cephes's rational function (tanh.c) below |x| = 0.625,
 * else 1 - 2 / (e^2|x| + 1); the clamp is where tanh rounds to 1. */
static inline double tanh_f64(double x) {
  double ax = fabs(x), z = x * x;
  double p = (-9.64399179425052238628e-1 * z - 9.92877231001918586564e1) * z -
             1.61468768441708447952e3;
  double q = ((z + 1.12811678491632931402e2) * z + 2.23548839060100448583e3) * z +
             4.84406305325125486048e3;
  double small = x + x * z * (p / q);
  double e = exp_f64(2.0 * (ax > 20.0 ? 20.0 : ax));
  double big = 1.0 - 2.0 / (e + 1.0);
  return copysign(ax < 0.625 ? small : big, x); /* and tanh(-0) = -0 */
}

/* 1 / (1 + e^-x), from e = e^-|x| so that nothing overflows and a negative
 * x keeps its relative accuracy: 1 / (1 + e) or e / (1 + e). */
static inline float sigmoid_f32(float x) {
  float e = exp_f32(-fabsf(x)), d = 1.0f + e;
  return x >= 0.0f ? 1.0f / d : e / d;
}

static inline double sigmoid_f64(double x) {
  double e = exp_f64(-fabs(x)), d = 1.0 + e;
  return x >= 0.0 ? 1.0 / d : e / d;
}

/* The element of a float op through the functions above. */
#define FAST(f, x) _Generic((x), float: f##_f32, double: f##_f64)(x)

#endif
