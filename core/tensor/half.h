/* half.h — float16 and bfloat16 elements as TensorFlow's CPU kernels
 * convert them (Eigen::half, Eigen::bfloat16).
 *
 * Both are stored as their 16 bits. Widening to float is exact. Narrowing
 * from float rounds to nearest, ties to even, as Eigen does; a double is
 * narrowed through float, as Eigen's half(double) constructor does (so a
 * double can round twice, exactly as it does in TF). NaN stays NaN (quiet),
 * and the sign of zero and infinity is kept. */
#ifndef MF_HALF_H
#define MF_HALF_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

static inline uint32_t mf_f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

static inline float mf_bits_f32(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

static inline float mf_f16_to_f32(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
  if (exp == 0x1f) return mf_bits_f32(sign | 0x7f800000u | man << 13);
  if (exp != 0) return mf_bits_f32(sign | (exp + 112) << 23 | man << 13);
  /* subnormal (or zero): man * 2^-24, exact in float */
  float v = (float)man * 0x1p-24f;
  return sign ? -v : v;
}

static inline uint16_t mf_f32_to_f16(float f) {
  uint32_t u = mf_f32_bits(f);
  uint16_t sign = (uint16_t)(u >> 16 & 0x8000u);
  uint32_t a = u & 0x7fffffffu;
  if (a >= 0x7f800000u) /* inf, or NaN made quiet */
    return sign | (a > 0x7f800000u ? 0x7e00u | (uint16_t)((a >> 13) & 0x3ffu) : 0x7c00u);
  if (a >= 0x477ff000u) return sign | 0x7c00u; /* rounds to 65520 or more: inf */
  if (a < 0x38800000u) {
    /* below the smallest normal half: the subnormal nearest a * 2^24,
     * (exact in float), rounded ties-to-even by rintf */
    return sign | (uint16_t)rintf(mf_bits_f32(a) * 0x1p24f);
  }
  uint32_t mant_odd = (a >> 13) & 1u;
  a += 0xc8000fffu + mant_odd; /* rebias exponent (-112 << 23) and round */
  return sign | (uint16_t)(a >> 13);
}

static inline float mf_bf16_to_f32(uint16_t b) { return mf_bits_f32((uint32_t)b << 16); }

static inline uint16_t mf_f32_to_bf16(float f) {
  uint32_t u = mf_f32_bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)(u >> 16 | 0x0040u); /* quiet NaN */
  u += 0x7fffu + (u >> 16 & 1u);
  return (uint16_t)(u >> 16);
}

/* Whether the double d rounds to the float16 value ax (finite, >= 0): it
 * lies inside ax's rounding interval, a tie going to the even neighbour
 * (the bounds are exact in double). What NumPy's shortest float16 digits
 * must satisfy. */
static inline bool mf_f16_rounds_to(double d, double ax) {
  uint16_t h = mf_f32_to_f16((float)ax);
  double up = h >= 0x7bff ? 65520.0 * 2 - ax : mf_f16_to_f32((uint16_t)(h + 1));
  double down = h == 0 ? -(double)mf_f16_to_f32(1) : mf_f16_to_f32((uint16_t)(h - 1));
  double lo = (ax + down) / 2, hi = (ax + up) / 2;
  if (d > lo && d < hi) return true;
  return (d == lo || d == hi) && (h & 1) == 0;
}

#endif
