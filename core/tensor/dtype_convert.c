#include "dtype_convert.h"

#include "half.h"

bool mf_dtype_is_convertible(mf_dtype dt) {
  return mf_dtype_is_any_float(dt) || mf_dtype_is_any_integer(dt) || dt == MF_BOOL;
}

/* An integer or bool element, sign- or zero-extended to 64 bits. */
static uint64_t int_bits(const void *d, mf_dtype dt, int64_t i) {
  switch (dt) {
    case MF_INT8: return (uint64_t)(int64_t)((const int8_t *)d)[i];
    case MF_INT16: return (uint64_t)(int64_t)((const int16_t *)d)[i];
    case MF_INT32: return (uint64_t)(int64_t)((const int32_t *)d)[i];
    case MF_INT64: return (uint64_t)((const int64_t *)d)[i];
    case MF_UINT8: return ((const uint8_t *)d)[i];
    case MF_UINT16: return ((const uint16_t *)d)[i];
    case MF_UINT32: return ((const uint32_t *)d)[i];
    case MF_UINT64: return ((const uint64_t *)d)[i];
    default: return ((const unsigned char *)d)[i] != 0; /* bool, read as a byte */
  }
}

/* A float element, exactly. */
static double float_value(const void *d, mf_dtype dt, int64_t i) {
  switch (dt) {
    case MF_FLOAT16: return mf_f16_to_f32(((const uint16_t *)d)[i]);
    case MF_BFLOAT16: return mf_bf16_to_f32(((const uint16_t *)d)[i]);
    case MF_FLOAT32: return ((const float *)d)[i];
    default: return ((const double *)d)[i];
  }
}

double mf_element_f64(const void *data, mf_dtype dt, int64_t i) {
  if (mf_dtype_is_any_float(dt)) return float_value(data, dt, i);
  uint64_t v = int_bits(data, dt, i);
  return dt == MF_UINT64 ? (double)v : (double)(int64_t)v;
}

static void put_bits(void *d, mf_dtype dt, int64_t i, uint64_t v) {
  switch (dt) {
    case MF_INT8: ((int8_t *)d)[i] = (int8_t)v; break;
    case MF_INT16: ((int16_t *)d)[i] = (int16_t)v; break;
    case MF_INT32: ((int32_t *)d)[i] = (int32_t)v; break;
    case MF_INT64: ((int64_t *)d)[i] = (int64_t)v; break;
    case MF_UINT8: ((uint8_t *)d)[i] = (uint8_t)v; break;
    case MF_UINT16: ((uint16_t *)d)[i] = (uint16_t)v; break;
    case MF_UINT32: ((uint32_t *)d)[i] = (uint32_t)v; break;
    case MF_UINT64: ((uint64_t *)d)[i] = v; break;
    default: ((bool *)d)[i] = v != 0; break;
  }
}

/* A float to an integer dtype's bits, as the x86 conversions give them
 * (and NumPy's astype there). */
static uint64_t float_to_int_bits(double v, mf_dtype dt) {
  switch (dt) {
    case MF_INT64:
    case MF_UINT32: return (uint64_t)mf_f64_to_i64(v); /* the 64-bit instruction, cut */
    /* in two ranges: below 2^63 (and NaN) the signed instruction, above
     * it the signed one on v - 2^63 with the top bit set back */
    case MF_UINT64:
      if (!(v >= 0x1p63)) return (uint64_t)mf_f64_to_i64(v);
      return (uint64_t)mf_f64_to_i64(v - 0x1p63) ^ 0x8000000000000000u;
    default: return (uint64_t)(int64_t)mf_f64_to_i32(v); /* the 32-bit instruction, cut */
  }
}

static void put_float(void *d, mf_dtype dt, int64_t i, double v) {
  switch (dt) {
    case MF_FLOAT16: ((uint16_t *)d)[i] = mf_f32_to_f16((float)v); break;
    case MF_BFLOAT16: ((uint16_t *)d)[i] = mf_f32_to_bf16((float)v); break;
    case MF_FLOAT32: ((float *)d)[i] = (float)v; break;
    default: ((double *)d)[i] = v; break;
  }
}

/* An integer's value as a float of dtype dt: rounded once to float for
 * float32 and the half types (Eigen converts through float), to double for
 * float64. */
static void put_int_as_float(void *d, mf_dtype dt, int64_t i, uint64_t v, bool is_unsigned) {
  if (dt == MF_FLOAT64) {
    ((double *)d)[i] = is_unsigned ? (double)v : (double)(int64_t)v;
    return;
  }
  float f = is_unsigned ? (float)v : (float)(int64_t)v;
  put_float(d, dt, i, f);
}

void mf_convert_elements(const void *src, mf_dtype sdt, void *dst, mf_dtype ddt, int64_t n) {
  bool from_float = mf_dtype_is_any_float(sdt), to_float = mf_dtype_is_any_float(ddt);
  bool from_unsigned = mf_dtype_is_unsigned(sdt) || sdt == MF_BOOL;
  for (int64_t i = 0; i < n; i++) {
    if (from_float) {
      double v = float_value(src, sdt, i);
      if (to_float)
        put_float(dst, ddt, i, v);
      else if (ddt == MF_BOOL)
        ((bool *)dst)[i] = v != 0;
      else
        put_bits(dst, ddt, i, float_to_int_bits(v, ddt));
    } else {
      uint64_t v = int_bits(src, sdt, i);
      if (to_float)
        put_int_as_float(dst, ddt, i, v, from_unsigned);
      else
        put_bits(dst, ddt, i, v);
    }
  }
}
