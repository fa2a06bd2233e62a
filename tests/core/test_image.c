/* test_image.c — ResizeBilinear against TF's published results and an
 * independent double-precision version of its formula, ResizeBilinearGrad
 * as the adjoint of the resize, errors, and inference while the size is
 * unknown. */
#include "check.h"
#include "op_test.h"

static mf_attrs flags(bool align, bool half) {
  mf_attrs at;
  mf_attrs_init(&at);
  mf_attrs_set_bool(&at, "align_corners", align, NULL);
  mf_attrs_set_bool(&at, "half_pixel_centers", half, NULL);
  return at;
}

static mf_tensor *resize(mf_tensor *im, int64_t h, int64_t w, bool align, bool half,
                         mf_error *err) {
  mf_tensor *size = make_tensor(MF_INT32, 1, DIMS(2), (double[]){h, w}), *out = NULL;
  mf_attrs at = flags(align, half);
  run_op("ResizeBilinear", 2, (mf_tensor *[]){im, size}, &at, 1, &out, err);
  mf_attrs_free(&at);
  mf_tensor_release(size);
  return out;
}

static void test_resize_known_2x2(void) {
  mf_tensor *im = make_tensor(MF_FLOAT32, 4, DIMS(1, 2, 2, 1), (double[]){1, 2, 3, 4});
  mf_error err;
  struct {
    bool align, half;
    double want[9];
  } cases[] = {
      /* tf.image.resize(x, [3, 3]) */
      {false, true, {1, 1.5, 2, 2, 2.5, 3, 3, 3.5, 4}},
      /* tf.compat.v1.image.resize_bilinear(x, [3, 3]) */
      {false, false, {1, 5 / 3., 2, 7 / 3., 3, 10 / 3., 3, 11 / 3., 4}},
      /* ... align_corners=True */
      {true, false, {1, 1.5, 2, 2, 2.5, 3, 3, 3.5, 4}},
  };
  for (int i = 0; i < 3; i++) {
    mf_tensor *out = resize(im, 3, 3, cases[i].align, cases[i].half, &err);
    CHECK(shape_is(out, 4, DIMS(1, 3, 3, 1)) && out->dtype == MF_FLOAT32);
    for (int k = 0; out && k < 9; k++) CHECK_NEAR(mf_tensor_get_f64(out, k), cases[i].want[k], 1e-6);
    mf_tensor_release(out);
  }
  mf_tensor_release(im);
}

/* TF's formula written out again, in double, one output element at a time. */
static double reference(const mf_tensor *im, int64_t oh, int64_t ow, bool align, bool half,
                        int64_t b, int64_t y, int64_t x, int64_t c) {
  int64_t h = im->shape[1], w = im->shape[2], ch = im->shape[3];
  double pos[2], lerp[2];
  int64_t lo[2], hi[2], in[2] = {h, w}, out[2] = {oh, ow}, at[2] = {y, x};
  for (int d = 0; d < 2; d++) {
    double scale = align && out[d] > 1 ? (in[d] - 1.0) / (out[d] - 1.0) : (double)in[d] / out[d];
    pos[d] = half ? (at[d] + 0.5) * scale - 0.5 : at[d] * scale;
    lo[d] = (int64_t)fmax(floor(pos[d]), 0);
    hi[d] = (int64_t)fmin(ceil(pos[d]), in[d] - 1);
    lerp[d] = pos[d] - floor(pos[d]);
  }
#define PIX(yy, xx) mf_tensor_get_f64(im, ((b * h + (yy)) * w + (xx)) * ch + c)
  double top = PIX(lo[0], lo[1]) + (PIX(lo[0], hi[1]) - PIX(lo[0], lo[1])) * lerp[1];
  double bot = PIX(hi[0], lo[1]) + (PIX(hi[0], hi[1]) - PIX(hi[0], lo[1])) * lerp[1];
#undef PIX
  return top + (bot - top) * lerp[0];
}

static void test_resize_against_formula(void) {
  unsigned seed = 21;
  const int64_t sizes[][2] = {{7, 11}, {3, 2}, {1, 1}, {16, 5}};
  for (int dt = 0; dt < 3; dt++) {
    mf_dtype d = dt == 0 ? MF_FLOAT32 : dt == 1 ? MF_FLOAT64 : MF_INT32;
    mf_tensor *im = random_tensor(d, 4, DIMS(2, 5, 6, 3), &seed);
    if (d == MF_INT32)
      for (int64_t i = 0; i < im->size; i++) mf_tensor_set_i64(im, i, i * 37 % 255);
    for (int s = 0; s < 4; s++)
      for (int mode = 0; mode < 3; mode++) {
        bool align = mode == 2, half = mode == 0;
        mf_error err;
        int64_t oh = sizes[s][0], ow = sizes[s][1];
        mf_tensor *out = resize(im, oh, ow, align, half, &err);
        CHECK(shape_is(out, 4, DIMS(2, oh, ow, 3)));
        double worst = 0;
        for (int64_t i = 0; out && i < out->size; i++) {
          int64_t c = i % 3, x = i / 3 % ow, y = i / 3 / ow % oh, b = i / 3 / ow / oh;
          double want = reference(im, oh, ow, align, half, b, y, x, c);
          worst = fmax(worst, fabs(mf_tensor_get_f64(out, i) - want) / fmax(1, fabs(want)));
        }
        CHECK(worst < 1e-5);
        mf_tensor_release(out);
      }
    mf_tensor_release(im);
  }
}

/* <resize(x), g> == <x, grad(g)>: the gradient is the resize's adjoint. */
static void test_resize_grad_adjoint(void) {
  unsigned seed = 4;
  for (int mode = 0; mode < 3; mode++) {
    bool align = mode == 2, half = mode == 0;
    for (int up = 0; up < 2; up++) {
      int64_t oh = up ? 9 : 3, ow = up ? 7 : 2;
      mf_tensor *x = random_tensor(MF_FLOAT64, 4, DIMS(2, 4, 5, 3), &seed);
      mf_tensor *g = random_tensor(MF_FLOAT32, 4, DIMS(2, oh, ow, 3), &seed);
      mf_error err;
      mf_tensor *y = resize(x, oh, ow, align, half, &err), *gx = NULL;
      mf_attrs at = flags(align, half);
      CHECK(run_op("ResizeBilinearGrad", 2, (mf_tensor *[]){g, x}, &at, 1, &gx, &err) == MF_OK);
      CHECK(shape_is(gx, 4, x->shape) && gx->dtype == MF_FLOAT64);
      double lhs = 0, rhs = 0;
      for (int64_t i = 0; y && i < y->size; i++) lhs += mf_tensor_get_f64(y, i) * mf_tensor_get_f64(g, i);
      for (int64_t i = 0; gx && i < x->size; i++) rhs += mf_tensor_get_f64(x, i) * mf_tensor_get_f64(gx, i);
      CHECK_NEAR(lhs, rhs, 1e-4);
      mf_tensor_release(x), mf_tensor_release(g), mf_tensor_release(y), mf_tensor_release(gx);
      mf_attrs_free(&at);
    }
  }
}

static void test_resize_errors(void) {
  mf_error err;
  mf_tensor *im = make_tensor(MF_FLOAT32, 4, DIMS(1, 2, 2, 1), NULL), *out;
  out = resize(im, 3, 3, true, true, &err);
  CHECK(!out && strstr(err.message, "If half_pixel_centers is True, align_corners must be False."));
  out = resize(im, 0, 3, false, true, &err);
  CHECK(!out && strstr(err.message, "output dimensions must be positive"));
  mf_tensor *size3 = make_tensor(MF_INT32, 1, DIMS(3), (double[]){1, 2, 3});
  CHECK(run_op("ResizeBilinear", 2, (mf_tensor *[]){im, size3}, NULL, 1, &out, &err) ==
        MF_ERR_INVALID_ARGUMENT);
  mf_tensor *size64 = make_tensor(MF_INT64, 1, DIMS(2), (double[]){2, 3});
  CHECK(run_op("ResizeBilinear", 2, (mf_tensor *[]){im, size64}, NULL, 1, &out, &err) ==
        MF_ERR_INVALID_ARGUMENT);
  mf_tensor *im3 = make_tensor(MF_FLOAT32, 3, DIMS(2, 2, 1), NULL);
  out = resize(im3, 3, 3, false, false, &err);
  CHECK(!out && strstr(err.message, "input must be 4-dimensional[2,2,1]"));
  mf_tensor *empty = make_tensor(MF_FLOAT32, 4, DIMS(1, 0, 2, 1), NULL);
  out = resize(empty, 3, 3, false, false, &err);
  CHECK(!out && err.status == MF_ERR_INVALID_ARGUMENT);
  mf_tensor *gi = make_tensor(MF_INT32, 4, DIMS(1, 2, 2, 1), NULL);
  CHECK(run_op("ResizeBilinearGrad", 2, (mf_tensor *[]){gi, im}, NULL, 1, &out, &err) ==
        MF_ERR_INVALID_ARGUMENT);
  mf_tensor *all[] = {im, size3, size64, im3, empty, gi};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) mf_tensor_release(all[i]);
}

static void test_resize_infer(void) {
  mf_error err;
  mf_spec o[2];
  int n;
  /* size unknown while tracing */
  mf_spec in[2] = {spec_of(MF_FLOAT32, 4, DIMS(-1, 100, 120, 3)), spec_of(MF_INT32, 1, DIMS(2))};
  CHECK(infer_op("ResizeBilinear", 2, in, NULL, o, 2, &n, &err) == MF_OK);
  CHECK(n == 1 && spec_is(&o[0], 4, DIMS(-1, -1, -1, 3)) && o[0].dtype == MF_FLOAT32);
  in[0] = spec_of(MF_FLOAT64, -1, NULL);
  in[1] = spec_of(MF_INT32, -1, NULL);
  CHECK(infer_op("ResizeBilinear", 2, in, NULL, o, 2, &n, &err) == MF_OK);
  CHECK(spec_is(&o[0], 4, DIMS(-1, -1, -1, -1)) && o[0].dtype == MF_FLOAT32);
  /* size known: a static output shape */
  mf_tensor *im = make_tensor(MF_INT32, 4, DIMS(2, 4, 4, 3), NULL);
  mf_tensor *size = make_tensor(MF_INT32, 1, DIMS(2), (double[]){50, 60});
  const mf_op_def *op = mf_op_lookup("ResizeBilinear");
  mf_spec specs[2];
  mf_spec_of_tensor(im, &specs[0]);
  mf_spec_of_tensor(size, &specs[1]);
  mf_op_call c;
  mf_op_call_init(&c, op, 2, specs, (mf_tensor *[]){NULL, size}, NULL);
  CHECK(mf_op_infer(&c, &err) == MF_OK && spec_is(&c.out_specs[0], 4, DIMS(2, 50, 60, 3)));
  mf_op_call_free(&c);
  mf_tensor_release(im);
  mf_tensor_release(size);
  mf_spec g[2] = {spec_of(MF_FLOAT32, 4, DIMS(-1, 8, 8, 3)), spec_of(MF_FLOAT64, 4, DIMS(-1, 4, 4, -1))};
  CHECK(infer_op("ResizeBilinearGrad", 2, g, NULL, o, 2, &n, &err) == MF_OK);
  CHECK(spec_is(&o[0], 4, DIMS(-1, 4, 4, 3)) && o[0].dtype == MF_FLOAT64);
}

int main(void) {
  RUN(test_resize_known_2x2);
  RUN(test_resize_against_formula);
  RUN(test_resize_grad_adjoint);
  RUN(test_resize_errors);
  RUN(test_resize_infer);
  return CHECK_DONE();
}
