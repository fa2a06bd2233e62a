/* test_dtypes.c — the small and half dtypes: float16 and bfloat16 bit
 * patterns through float and back, their rounding, and the x86 conversion
 * rules of Cast (dtype_convert.h) against values NumPy gives. */
#include <stdlib.h>

#include "check.h"
#include "dtype_convert.h"
#include "format.h"
#include "half.h"
#include "tensor.h"

static uint16_t f16(float f) { return mf_f32_to_f16(f); }

/* Every float16 through float and back is itself (a NaN stays a NaN). */
static void test_float16_round_trips(void) {
  int bad = 0;
  for (uint32_t h = 0; h <= 0xffff; h++) {
    float f = mf_f16_to_f32((uint16_t)h);
    bool nan = (h & 0x7c00) == 0x7c00 && (h & 0x3ff);
    if (nan ? !isnan(f) || !((f16(f) & 0x7c00) == 0x7c00 && (f16(f) & 0x3ff)) : f16(f) != h) bad++;
  }
  CHECK(bad == 0);
}

static void test_float16_known_values(void) {
  CHECK(mf_f16_to_f32(0x3c00) == 1.0f);
  CHECK(mf_f16_to_f32(0x7bff) == 65504.0f);
  CHECK(mf_f16_to_f32(0x0001) == 0x1p-24f);
  CHECK(mf_f16_to_f32(0x0400) == 0x1p-14f);
  CHECK(mf_f16_to_f32(0x3555) == 0.333251953125f);
  CHECK(mf_f16_to_f32(0x7c00) == INFINITY && mf_f16_to_f32(0xfc00) == -INFINITY);
  CHECK(f16(-0.0f) == 0x8000);
  CHECK(f16(0.1f) == 0x2e66); /* np.float16(0.1).view(np.uint16) */
}

/* Round to nearest, ties to even, at every range. */
static void test_float16_rounding(void) {
  CHECK(f16(1.0f + 0x1p-11f) == 0x3c00);       /* tie: to the even 1.0 */
  CHECK(f16(1.0f + 3 * 0x1p-11f) == 0x3c02);   /* tie: to the even 1 + 2^-9 */
  CHECK(f16(1.0f + 0x1p-11f + 0x1p-20f) == 0x3c01);
  CHECK(f16(65519.0f) == 0x7bff);
  CHECK(f16(65520.0f) == 0x7c00);              /* the tie above the max: inf */
  CHECK(f16(-1e6f) == 0xfc00);
  CHECK(f16(0x1p-25f) == 0x0000);              /* half the smallest subnormal: to 0 */
  CHECK(f16(1.5f * 0x1p-25f) == 0x0001);
  CHECK(f16(3 * 0x1p-25f) == 0x0002);          /* tie between 1 and 2: to 2 */
  CHECK(f16(0x1p-14f - 0x1p-25f) == 0x0400);   /* rounds up into the normals */
  CHECK(isnan(mf_f16_to_f32(f16(NAN))));
}

static void test_bfloat16(void) {
  int bad = 0;
  for (uint32_t b = 0; b <= 0xffff; b++) {
    float f = mf_bf16_to_f32((uint16_t)b);
    if (!isnan(f) && mf_f32_to_bf16(f) != b) bad++;
    if (isnan(f) && !isnan(mf_bf16_to_f32(mf_f32_to_bf16(f)))) bad++;
  }
  CHECK(bad == 0);
  CHECK(mf_f32_to_bf16(1.0f) == 0x3f80);
  CHECK(mf_f32_to_bf16(0.1f) == 0x3dcd);
  CHECK(mf_f32_to_bf16(mf_bits_f32(0x3f808000u)) == 0x3f80); /* tie to even */
  CHECK(mf_f32_to_bf16(mf_bits_f32(0x3f818000u)) == 0x3f82);
  CHECK(mf_f32_to_bf16(mf_bits_f32(0x3f808001u)) == 0x3f81);
  CHECK(mf_f32_to_bf16(3.4e38f) == 0x7f80); /* rounds past the max: inf */
}

/* Float to integer: truncation, and out of range what x86 gives (NumPy's
 * astype on x86 agrees, element by element: its SIMD loop for uint32
 * differs, so np.float32(1e10).astype(np.uint32) is the reference). */
static void test_float_to_int(void) {
  float x[4] = {300.7f, -1.5f, 1e10f, NAN};
  uint8_t u8[4];
  int8_t i8[4];
  uint32_t u32[4];
  uint64_t u64[4];
  mf_convert_elements(x, MF_FLOAT32, u8, MF_UINT8, 4);
  mf_convert_elements(x, MF_FLOAT32, i8, MF_INT8, 4);
  mf_convert_elements(x, MF_FLOAT32, u32, MF_UINT32, 4);
  mf_convert_elements(x, MF_FLOAT32, u64, MF_UINT64, 4);
  CHECK(u8[0] == 44 && u8[1] == 255 && u8[2] == 0 && u8[3] == 0);
  CHECK(i8[0] == 44 && i8[1] == -1 && i8[2] == 0 && i8[3] == 0);
  CHECK(u32[0] == 300 && u32[1] == 4294967295u && u32[2] == 1410065408u && u32[3] == 0);
  CHECK(u64[0] == 300 && u64[1] == UINT64_MAX && u64[2] == 10000000000u &&
        u64[3] == 0x8000000000000000u);
  double big[2] = {1.5e19, 1e20};
  mf_convert_elements(big, MF_FLOAT64, u64, MF_UINT64, 2);
  CHECK(u64[0] == 15000000000000000000u && u64[1] == 0);
}

static void test_int_conversions(void) {
  int32_t x[4] = {-1, 256, 65519, 70000};
  uint8_t u8[4];
  uint16_t h[4];
  int16_t i16[4];
  mf_convert_elements(x, MF_INT32, u8, MF_UINT8, 4);
  mf_convert_elements(x, MF_INT32, h, MF_FLOAT16, 4);
  mf_convert_elements(x, MF_INT32, i16, MF_INT16, 4);
  CHECK(u8[0] == 255 && u8[1] == 0 && u8[2] == 239 && u8[3] == 112);
  CHECK(h[0] == 0xbc00 && mf_f16_to_f32(h[1]) == 256.0f && h[2] == 0x7bff && h[3] == 0x7c00);
  CHECK(i16[0] == -1 && i16[1] == 256 && i16[2] == -17 && i16[3] == 4464);
  uint64_t m = UINT64_MAX;
  float f;
  double d;
  mf_convert_elements(&m, MF_UINT64, &f, MF_FLOAT32, 1);
  mf_convert_elements(&m, MF_UINT64, &d, MF_FLOAT64, 1);
  CHECK(f == 0x1p64f && d == 0x1p64);
  /* float64 to float16 goes through float32, as Eigen's half(double) */
  double tie = 1.0 + 0x1p-11 + 0x1p-40; /* rounds to 1 + 2^-11 in float: then to even */
  uint16_t out;
  mf_convert_elements(&tie, MF_FLOAT64, &out, MF_FLOAT16, 1);
  CHECK(out == 0x3c00);
}

/* NumPy's str of float16 arrays: their own shortest digits. */
static void test_float16_printing(void) {
  int64_t shape[1] = {3};
  mf_tensor *t;
  CHECK_OK(mf_tensor_new(MF_FLOAT16, 1, shape, &t, NULL));
  float v[3] = {0.1f, 1.0f / 3, 2.0f};
  mf_convert_elements(v, MF_FLOAT32, mf_tensor_data(t), MF_FLOAT16, 3);
  char *s = mf_format_tensor_str(t);
  CHECK(s && strcmp(s, "tf.Tensor([0.1    0.3333 2.    ], shape=(3,), dtype=float16)") == 0);
  if (s) printf("# %s\n", s);
  free(s);
  mf_tensor_release(t);
}

int main(void) {
  RUN(test_float16_round_trips);
  RUN(test_float16_known_values);
  RUN(test_float16_rounding);
  RUN(test_bfloat16);
  RUN(test_float_to_int);
  RUN(test_int_conversions);
  RUN(test_float16_printing);
  return CHECK_DONE();
}
