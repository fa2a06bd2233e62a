/* test_conv.c — Conv2D, Conv2DBackpropInput and Conv2DBackpropFilter
 * against naive loops (VALID/SAME/EXPLICIT padding, strides, dilations,
 * 1x1, chunked im2col), the backprops against finite differences, TF's
 * error messages, inference with unknown shapes, interruption, the
 * performance guide's 1x200x200x100 case, and the 3x3 stride-1 shapes of
 * the Winograd path (forward and input gradient against float64 sums,
 * non-finite values, TF_ENABLE_WINOGRAD_NONFUSED). */
#include <time.h>

#include "check.h"
#include "interrupt.h"
#include "op_test.h"

typedef struct cfg {
  int64_t n, h, w, ci, kh, kw, co, sh, sw, dh, dw;
  const char *padding;
  int64_t pads[4]; /* EXPLICIT: top, bottom, left, right */
} cfg;

/* The geometry, computed here independently of the kernel. */
static void geometry(const cfg *c, int64_t *oh, int64_t *ow, int64_t *pt, int64_t *pl) {
  int64_t in[2] = {c->h, c->w}, k[2] = {c->kh, c->kw}, s[2] = {c->sh, c->sw}, d[2] = {c->dh, c->dw};
  int64_t out[2], before[2];
  for (int i = 0; i < 2; i++) {
    int64_t eff = (k[i] - 1) * d[i] + 1;
    if (strcmp(c->padding, "SAME") == 0) {
      out[i] = (in[i] + s[i] - 1) / s[i];
      int64_t need = (out[i] - 1) * s[i] + eff - in[i];
      before[i] = need > 0 ? need / 2 : 0;
    } else if (strcmp(c->padding, "VALID") == 0) {
      out[i] = (in[i] - eff) / s[i] + 1;
      before[i] = 0;
    } else {
      before[i] = c->pads[2 * i];
      out[i] = (in[i] + c->pads[2 * i] + c->pads[2 * i + 1] - eff) / s[i] + 1;
    }
  }
  *oh = out[0], *ow = out[1], *pt = before[0], *pl = before[1];
}

static void set_attrs(const cfg *c, mf_attrs *at) {
  mf_attrs_init(at);
  mf_attrs_set_ints(at, "strides", 4, DIMS(1, c->sh, c->sw, 1), NULL);
  mf_attrs_set_ints(at, "dilations", 4, DIMS(1, c->dh, c->dw, 1), NULL);
  mf_attrs_set_string(at, "padding", c->padding, NULL);
  if (strcmp(c->padding, "EXPLICIT") == 0)
    mf_attrs_set_ints(at, "explicit_paddings", 8,
                      DIMS(0, 0, c->pads[0], c->pads[1], c->pads[2], c->pads[3], 0, 0), NULL);
}

/* Visits every (output, input, filter) index triple of the convolution. */
#define FOR_EACH_TAP(c, oh, ow, pt, pl, BODY)                                          \
  for (int64_t b = 0; b < (c)->n; b++)                                                 \
    for (int64_t oy = 0; oy < oh; oy++)                                                \
      for (int64_t ox = 0; ox < ow; ox++)                                              \
        for (int64_t ky = 0; ky < (c)->kh; ky++)                                       \
          for (int64_t kx = 0; kx < (c)->kw; kx++) {                                   \
            int64_t iy = oy * (c)->sh - pt + ky * (c)->dh;                             \
            int64_t ix = ox * (c)->sw - pl + kx * (c)->dw;                             \
            if (iy < 0 || iy >= (c)->h || ix < 0 || ix >= (c)->w) continue;            \
            for (int64_t ci = 0; ci < (c)->ci; ci++)                                   \
              for (int64_t co = 0; co < (c)->co; co++) {                               \
                int64_t xi = ((b * (c)->h + iy) * (c)->w + ix) * (c)->ci + ci;         \
                int64_t wi = ((ky * (c)->kw + kx) * (c)->ci + ci) * (c)->co + co;      \
                int64_t yi = ((b * oh + oy) * ow + ox) * (c)->co + co;                 \
                BODY;                                                                  \
              }                                                                        \
          }

/* Runs the three ops for one configuration and compares with naive loops. */
static void conv_case(const cfg *c, mf_dtype dt, double tol) {
  int64_t oh, ow, pt, pl;
  geometry(c, &oh, &ow, &pt, &pl);
  unsigned seed = (unsigned)(c->h * 31 + c->kh * 7 + c->sh + c->dh * 13);
  mf_tensor *x = random_tensor(dt, 4, DIMS(c->n, c->h, c->w, c->ci), &seed);
  mf_tensor *w = random_tensor(dt, 4, DIMS(c->kh, c->kw, c->ci, c->co), &seed);
  mf_tensor *dy = random_tensor(dt, 4, DIMS(c->n, oh, ow, c->co), &seed);
  mf_tensor *want_y = make_tensor(MF_FLOAT64, 4, DIMS(c->n, oh, ow, c->co), NULL);
  mf_tensor *want_dx = make_tensor(MF_FLOAT64, 4, x->shape, NULL);
  mf_tensor *want_dw = make_tensor(MF_FLOAT64, 4, w->shape, NULL);
  double *ry = mf_tensor_data(want_y), *rdx = mf_tensor_data(want_dx), *rdw = mf_tensor_data(want_dw);
  FOR_EACH_TAP(c, oh, ow, pt, pl, {
    ry[yi] += mf_tensor_get_f64(x, xi) * mf_tensor_get_f64(w, wi);
    rdx[xi] += mf_tensor_get_f64(dy, yi) * mf_tensor_get_f64(w, wi);
    rdw[wi] += mf_tensor_get_f64(dy, yi) * mf_tensor_get_f64(x, xi);
  });
  mf_attrs at;
  set_attrs(c, &at);
  mf_error err;
  mf_tensor *y = NULL, *dx = NULL, *dw = NULL;
  mf_tensor *xs = make_tensor(MF_INT32, 1, DIMS(4), NULL), *ws = make_tensor(MF_INT32, 1, DIMS(4), NULL);
  for (int i = 0; i < 4; i++) mf_tensor_set_i64(xs, i, x->shape[i]), mf_tensor_set_i64(ws, i, w->shape[i]);
  CHECK(run_op("Conv2D", 2, (mf_tensor *[]){x, w}, &at, 1, &y, &err) == MF_OK);
  if (y == NULL) printf("#   Conv2D: %s\n", err.message);
  CHECK(run_op("Conv2DBackpropInput", 3, (mf_tensor *[]){xs, w, dy}, &at, 1, &dx, &err) == MF_OK);
  CHECK(run_op("Conv2DBackpropFilter", 3, (mf_tensor *[]){x, ws, dy}, &at, 1, &dw, &err) == MF_OK);
  CHECK(shape_is(y, 4, want_y->shape) && y->dtype == dt);
  CHECK(shape_is(dx, 4, x->shape) && shape_is(dw, 4, w->shape));
  double e1 = max_abs_diff(y, want_y), e2 = max_abs_diff(dx, want_dx), e3 = max_abs_diff(dw, want_dw);
  CHECK(e1 <= tol && e2 <= tol && e3 <= tol);
  if (!(e1 <= tol && e2 <= tol && e3 <= tol))
    printf("#   %s %lldx%lld k%lld s%lld d%lld: errors %g %g %g\n", c->padding, (long long)c->h,
           (long long)c->w, (long long)c->kh, (long long)c->sh, (long long)c->dh, e1, e2, e3);
  mf_tensor *all[] = {x, w, dy, want_y, want_dx, want_dw, y, dx, dw, xs, ws};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) mf_tensor_release(all[i]);
  mf_attrs_free(&at);
}

static const cfg cases[] = {
    {.n = 2, .h = 5, .w = 6, .ci = 3, .kh = 3, .kw = 3, .co = 4, .sh = 1, .sw = 1, .dh = 1, .dw = 1, .padding = "VALID"},
    {.n = 1, .h = 5, .w = 6, .ci = 3, .kh = 3, .kw = 2, .co = 2, .sh = 1, .sw = 1, .dh = 1, .dw = 1, .padding = "SAME"},
    {.n = 2, .h = 7, .w = 8, .ci = 2, .kh = 3, .kw = 3, .co = 3, .sh = 2, .sw = 2, .dh = 1, .dw = 1, .padding = "SAME"},
    {.n = 1, .h = 9, .w = 10, .ci = 2, .kh = 4, .kw = 3, .co = 2, .sh = 2, .sw = 3, .dh = 1, .dw = 1, .padding = "VALID"},
    {.n = 1, .h = 9, .w = 8, .ci = 2, .kh = 3, .kw = 3, .co = 2, .sh = 1, .sw = 1, .dh = 2, .dw = 2, .padding = "SAME"},
    {.n = 1, .h = 9, .w = 8, .ci = 2, .kh = 2, .kw = 3, .co = 3, .sh = 2, .sw = 1, .dh = 3, .dw = 2, .padding = "VALID"},
    {.n = 3, .h = 4, .w = 5, .ci = 6, .kh = 1, .kw = 1, .co = 5, .sh = 1, .sw = 1, .dh = 1, .dw = 1, .padding = "VALID"},
    {.n = 1, .h = 4, .w = 5, .ci = 6, .kh = 1, .kw = 1, .co = 5, .sh = 2, .sw = 2, .dh = 1, .dw = 1, .padding = "SAME"},
    {.n = 1, .h = 5, .w = 5, .ci = 2, .kh = 3, .kw = 3, .co = 2, .sh = 2, .sw = 1, .dh = 1, .dw = 1, .padding = "EXPLICIT", .pads = {2, 0, 1, 3}},
    {.n = 1, .h = 2, .w = 2, .ci = 1, .kh = 3, .kw = 3, .co = 1, .sh = 1, .sw = 1, .dh = 1, .dw = 1, .padding = "SAME"},
};

static void test_conv_float64(void) {
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) conv_case(&cases[i], MF_FLOAT64, 1e-12);
}

static void test_conv_float32(void) {
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) conv_case(&cases[i], MF_FLOAT32, 1e-5);
}

/* Big enough that the columns matrix is built in several chunks. */
static void test_conv_chunked(void) {
  cfg c = {.n = 2, .h = 64, .w = 70, .ci = 64, .kh = 3, .kw = 3, .co = 4, .sh = 1, .sw = 1,
           .dh = 1, .dw = 1, .padding = "SAME"};
  conv_case(&c, MF_FLOAT32, 1e-4);
}

/* Conv2D of x by w against the float64 sum, each output's error relative
 * to its own scale sum |x| |w| (what a direct sum's rounding is bounded
 * by). Non-finite references must be matched exactly (NaN by NaN). */
static double conv_rel_error(const cfg *c, mf_tensor *x, mf_tensor *w) {
  int64_t oh, ow, pt, pl;
  geometry(c, &oh, &ow, &pt, &pl);
  mf_tensor *ref = make_tensor(MF_FLOAT64, 4, DIMS(c->n, oh, ow, c->co), NULL);
  mf_tensor *scale = make_tensor(MF_FLOAT64, 4, DIMS(c->n, oh, ow, c->co), NULL);
  double *r = mf_tensor_data(ref), *sc = mf_tensor_data(scale);
  FOR_EACH_TAP(c, oh, ow, pt, pl, {
    double a = mf_tensor_get_f64(x, xi);
    double b = mf_tensor_get_f64(w, wi);
    r[yi] += a * b;
    sc[yi] += fabs(a * b);
  });
  mf_attrs at;
  set_attrs(c, &at);
  mf_error err;
  mf_tensor *y = NULL;
  double worst = INFINITY;
  if (run_op("Conv2D", 2, (mf_tensor *[]){x, w}, &at, 1, &y, &err) == MF_OK &&
      shape_is(y, 4, ref->shape)) {
    worst = 0;
    for (int64_t i = 0; i < y->size; i++) {
      double got = mf_tensor_get_f64(y, i), e;
      if (!isfinite(r[i])) e = (got == r[i] || (isnan(got) && isnan(r[i]))) ? 0 : INFINITY;
      else e = got == r[i] ? 0 : fabs(got - r[i]) / (sc[i] > 0 ? sc[i] : 1e-300);
      if (!(e <= worst)) worst = e;
    }
  }
  mf_tensor_release(y);
  mf_tensor_release(ref);
  mf_tensor_release(scale);
  mf_attrs_free(&at);
  return worst;
}

/* 3x3, stride 1, dilation 1 (the shapes a fast 3x3 path takes): odd sizes,
 * tiles that do not divide the output, batches, channel counts of 1 and
 * not multiples of 8, SAME and VALID. Each output within 2e-6 of its own
 * scale (float32 direct sums of 9 * 64 terms stay near 1e-7). */
static void test_conv_3x3_stride1(void) {
  static const cfg c3[] = {
      {.n = 1, .h = 42, .w = 37, .ci = 100, .co = 100, .padding = "VALID"},
      {.n = 2, .h = 23, .w = 21, .ci = 17, .co = 19, .padding = "SAME"},
      {.n = 3, .h = 15, .w = 14, .ci = 24, .co = 20, .padding = "VALID"},
      {.n = 1, .h = 31, .w = 29, .ci = 40, .co = 33, .padding = "SAME"},
      {.n = 2, .h = 13, .w = 11, .ci = 17, .co = 9, .padding = "SAME"},
      {.n = 2, .h = 9, .w = 10, .ci = 1, .co = 1, .padding = "VALID"},
      {.n = 1, .h = 5, .w = 3, .ci = 8, .co = 16, .padding = "SAME"},
      {.n = 1, .h = 3, .w = 3, .ci = 64, .co = 8, .padding = "VALID"},
      {.n = 5, .h = 22, .w = 18, .ci = 64, .co = 64, .padding = "SAME"},
      {.n = 1, .h = 2, .w = 9, .ci = 12, .co = 12, .padding = "SAME"},
  };
  for (size_t i = 0; i < sizeof c3 / sizeof *c3; i++) {
    cfg c = c3[i];
    c.kh = c.kw = 3, c.sh = c.sw = c.dh = c.dw = 1;
    unsigned seed = (unsigned)(17 + i);
    mf_tensor *x = random_tensor(MF_FLOAT32, 4, DIMS(c.n, c.h, c.w, c.ci), &seed);
    mf_tensor *w = random_tensor(MF_FLOAT32, 4, DIMS(3, 3, c.ci, c.co), &seed);
    double e = conv_rel_error(&c, x, w);
    CHECK(e <= 2e-6);
    printf("#   %s n%lld %lldx%lld %lld->%lld: max error / scale %.3g\n", c.padding,
           (long long)c.n, (long long)c.h, (long long)c.w, (long long)c.ci, (long long)c.co, e);
    /* inputs of one sign: no cancellation in the reference either */
    float *xd = mf_tensor_data(x);
    for (int64_t k = 0; k < x->size; k++) xd[k] = fabsf(xd[k]) * 1000.0f;
    e = conv_rel_error(&c, x, w);
    CHECK(e <= 2e-6);
    mf_tensor_release(x);
    mf_tensor_release(w);
  }
}

/* Conv2DBackpropInput of dy by w against the float64 sum, each element's
 * error relative to its scale sum |dy| |w|. */
static double backprop_input_rel_error(const cfg *c, unsigned seed) {
  int64_t oh, ow, pt, pl;
  geometry(c, &oh, &ow, &pt, &pl);
  mf_tensor *w = random_tensor(MF_FLOAT32, 4, DIMS(c->kh, c->kw, c->ci, c->co), &seed);
  mf_tensor *dy = random_tensor(MF_FLOAT32, 4, DIMS(c->n, oh, ow, c->co), &seed);
  mf_tensor *ref = make_tensor(MF_FLOAT64, 4, DIMS(c->n, c->h, c->w, c->ci), NULL);
  mf_tensor *scale = make_tensor(MF_FLOAT64, 4, DIMS(c->n, c->h, c->w, c->ci), NULL);
  mf_tensor *xs = make_tensor(MF_INT32, 1, DIMS(4), (double[]){c->n, c->h, c->w, c->ci});
  double *r = mf_tensor_data(ref), *sc = mf_tensor_data(scale);
  FOR_EACH_TAP(c, oh, ow, pt, pl, {
    double a = mf_tensor_get_f64(dy, yi);
    double b = mf_tensor_get_f64(w, wi);
    r[xi] += a * b;
    sc[xi] += fabs(a * b);
  });
  mf_attrs at;
  set_attrs(c, &at);
  mf_error err;
  mf_tensor *dx = NULL;
  double worst = INFINITY;
  if (run_op("Conv2DBackpropInput", 3, (mf_tensor *[]){xs, w, dy}, &at, 1, &dx, &err) == MF_OK &&
      shape_is(dx, 4, ref->shape)) {
    worst = 0;
    for (int64_t i = 0; i < dx->size; i++) {
      double got = mf_tensor_get_f64(dx, i);
      double e = got == r[i] ? 0 : fabs(got - r[i]) / (sc[i] > 0 ? sc[i] : 1e-300);
      if (!(e <= worst)) worst = e;
    }
  }
  mf_tensor *all[] = {w, dy, ref, scale, xs, dx};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) mf_tensor_release(all[i]);
  mf_attrs_free(&at);
  return worst;
}

/* The input gradient of 3x3 stride-1 convolutions (a 3x3 convolution of
 * dy by the flipped filter): SAME, VALID and EXPLICIT padding, batches,
 * odd sizes and channel counts. Within 4e-6 of each element's scale: the
 * padding of the gradient's convolution is wider (2 where the forward
 * one's is 0), and a Winograd tile's error follows the magnitudes of its
 * whole patch, so the border elements, whose sums have fewer terms, see
 * more of it (2.4e-6 at most here, 1e-7 by direct sums). */
static void test_conv_3x3_backprop_input(void) {
  static const cfg c3[] = {
      {.n = 1, .h = 42, .w = 37, .ci = 100, .co = 100, .padding = "VALID"},
      {.n = 2, .h = 23, .w = 21, .ci = 17, .co = 19, .padding = "SAME"},
      {.n = 3, .h = 15, .w = 14, .ci = 24, .co = 20, .padding = "VALID"},
      {.n = 1, .h = 26, .w = 19, .ci = 18, .co = 33, .padding = "EXPLICIT", .pads = {2, 0, 1, 3}},
      {.n = 2, .h = 9, .w = 10, .ci = 1, .co = 3, .padding = "SAME"},
  };
  for (size_t i = 0; i < sizeof c3 / sizeof *c3; i++) {
    cfg c = c3[i];
    c.kh = c.kw = 3, c.sh = c.sw = c.dh = c.dw = 1;
    double e = backprop_input_rel_error(&c, (unsigned)(3 + i));
    CHECK(e <= 4e-6);
    printf("#   backprop input %s n%lld %lldx%lld %lld->%lld: max error / scale %.3g\n",
           c.padding, (long long)c.n, (long long)c.h, (long long)c.w, (long long)c.ci,
           (long long)c.co, e);
  }
}

/* TF_ENABLE_WINOGRAD_NONFUSED=0 (TF's switch for its GPU Winograd
 * convolutions) gives a 3x3 convolution a direct sum's accuracy. */
static void test_conv_winograd_switch(void) {
  cfg c = {.n = 1, .h = 42, .w = 37, .ci = 100, .co = 100, .kh = 3, .kw = 3, .sh = 1, .sw = 1,
           .dh = 1, .dw = 1, .padding = "VALID"};
  unsigned seed = 17;
  mf_tensor *x = random_tensor(MF_FLOAT32, 4, DIMS(c.n, c.h, c.w, c.ci), &seed);
  mf_tensor *w = random_tensor(MF_FLOAT32, 4, DIMS(3, 3, c.ci, c.co), &seed);
  double fast = conv_rel_error(&c, x, w);
  setenv("TF_ENABLE_WINOGRAD_NONFUSED", "false", 1);
  double direct = conv_rel_error(&c, x, w);
  setenv("TF_ENABLE_WINOGRAD_NONFUSED", "0", 1);
  double direct0 = conv_rel_error(&c, x, w);
  unsetenv("TF_ENABLE_WINOGRAD_NONFUSED");
  CHECK(direct <= 3e-7 && direct0 == direct);
  CHECK(fast > direct && fast <= 2e-6);
  printf("#   error / scale: %.3g Winograd, %.3g direct\n", fast, direct);
  mf_tensor_release(x);
  mf_tensor_release(w);
}

/* An infinity or NaN in the input reaches exactly the outputs whose
 * receptive field holds it, as in a direct sum: the others stay finite
 * and accurate. Same for an infinite filter tap. */
static void test_conv_3x3_nonfinite(void) {
  cfg c = {.n = 2, .h = 17, .w = 15, .ci = 20, .co = 18, .kh = 3, .kw = 3, .sh = 1, .sw = 1,
           .dh = 1, .dw = 1, .padding = "SAME"};
  unsigned seed = 5;
  mf_tensor *x = random_tensor(MF_FLOAT32, 4, DIMS(c.n, c.h, c.w, c.ci), &seed);
  mf_tensor *w = random_tensor(MF_FLOAT32, 4, DIMS(3, 3, c.ci, c.co), &seed);
  float *xd = mf_tensor_data(x), *wd = mf_tensor_data(w);
  xd[((0 * 17 + 5) * 15 + 6) * 20 + 3] = INFINITY;
  xd[((1 * 17 + 9) * 15 + 2) * 20 + 7] = NAN;
  xd[((1 * 17 + 0) * 15 + 14) * 20 + 0] = -INFINITY;
  CHECK(conv_rel_error(&c, x, w) <= 2e-6);
  xd[((0 * 17 + 5) * 15 + 6) * 20 + 3] = 1e30f; /* large but finite: products overflow */
  CHECK(conv_rel_error(&c, x, w) <= 2e-6);
  xd[((0 * 17 + 5) * 15 + 6) * 20 + 3] = 0.5f;
  xd[((1 * 17 + 9) * 15 + 2) * 20 + 7] = 0.5f;
  xd[((1 * 17 + 0) * 15 + 14) * 20 + 0] = 0.5f;
  wd[((1 * 3 + 2) * 20 + 4) * 18 + 5] = INFINITY;
  CHECK(conv_rel_error(&c, x, w) <= 2e-6);
  mf_tensor_release(x);
  mf_tensor_release(w);
}

/* sum(conv(x, w) * dy): the backprops are its gradients. */
static double objective(mf_tensor *x, mf_tensor *w, const mf_tensor *dy, const mf_attrs *at) {
  mf_tensor *y = NULL;
  mf_error err;
  if (run_op("Conv2D", 2, (mf_tensor *[]){x, w}, at, 1, &y, &err) != MF_OK) return NAN;
  double s = 0;
  for (int64_t i = 0; i < y->size; i++) s += mf_tensor_get_f64(y, i) * mf_tensor_get_f64(dy, i);
  mf_tensor_release(y);
  return s;
}

static void test_conv_finite_differences(void) {
  cfg c = {.n = 2, .h = 6, .w = 5, .ci = 2, .kh = 3, .kw = 2, .co = 3, .sh = 2, .sw = 1, .dh = 1,
           .dw = 2, .padding = "SAME"};
  int64_t oh, ow, pt, pl;
  geometry(&c, &oh, &ow, &pt, &pl);
  unsigned seed = 77;
  mf_tensor *x = random_tensor(MF_FLOAT64, 4, DIMS(c.n, c.h, c.w, c.ci), &seed);
  mf_tensor *w = random_tensor(MF_FLOAT64, 4, DIMS(c.kh, c.kw, c.ci, c.co), &seed);
  mf_tensor *dy = random_tensor(MF_FLOAT64, 4, DIMS(c.n, oh, ow, c.co), &seed);
  mf_tensor *xs = make_tensor(MF_INT32, 1, DIMS(4), (double[]){c.n, c.h, c.w, c.ci});
  mf_tensor *ws = make_tensor(MF_INT32, 1, DIMS(4), (double[]){c.kh, c.kw, c.ci, c.co});
  mf_attrs at;
  set_attrs(&c, &at);
  mf_tensor *dx = NULL, *dw = NULL;
  mf_error err;
  CHECK(run_op("Conv2DBackpropInput", 3, (mf_tensor *[]){xs, w, dy}, &at, 1, &dx, &err) == MF_OK);
  CHECK(run_op("Conv2DBackpropFilter", 3, (mf_tensor *[]){x, ws, dy}, &at, 1, &dw, &err) == MF_OK);
  const double h = 1e-6;
  double worst = 0;
  for (int which = 0; dx && dw && which < 2; which++) {
    mf_tensor *v = which ? w : x, *grad = which ? dw : dx;
    double *d = mf_tensor_data(v);
    for (int64_t i = 0; i < v->size; i++) {
      double keep = d[i];
      d[i] = keep + h;
      double up = objective(x, w, dy, &at);
      d[i] = keep - h;
      double down = objective(x, w, dy, &at);
      d[i] = keep;
      worst = fmax(worst, fabs((up - down) / (2 * h) - mf_tensor_get_f64(grad, i)));
    }
  }
  CHECK(worst < 1e-7);
  mf_tensor *all[] = {x, w, dy, xs, ws, dx, dw};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) mf_tensor_release(all[i]);
  mf_attrs_free(&at);
}

static mf_status conv_err(const char *op, int nin, mf_tensor **in, const mf_attrs *at, mf_error *err) {
  mf_tensor *y = NULL;
  mf_status s = run_op(op, nin, in, at, 1, &y, err);
  mf_tensor_release(y);
  return s;
}

static void test_conv_errors(void) {
  mf_error err;
  mf_attrs at;
  cfg c = {.sh = 1, .sw = 1, .dh = 1, .dw = 1, .padding = "VALID"};
  set_attrs(&c, &at);
  mf_tensor *x = make_tensor(MF_FLOAT32, 4, DIMS(1, 2, 2, 3), NULL);
  mf_tensor *w3 = make_tensor(MF_FLOAT32, 4, DIMS(3, 3, 3, 1), NULL);
  mf_tensor *w2 = make_tensor(MF_FLOAT32, 4, DIMS(1, 1, 2, 1), NULL);
  mf_tensor *x3 = make_tensor(MF_FLOAT32, 3, DIMS(2, 2, 3), NULL);
  mf_tensor *xd = make_tensor(MF_FLOAT64, 4, DIMS(1, 2, 2, 3), NULL);
  mf_tensor *xi = make_tensor(MF_INT32, 4, DIMS(1, 2, 2, 3), NULL);
  mf_tensor *x1 = make_tensor(MF_FLOAT32, 4, DIMS(1, 1, 1, 3), NULL), *y = NULL;
  CHECK(conv_err("Conv2D", 2, (mf_tensor *[]){x1, w3}, &at, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "Computed output size would be negative: -1 [input_size: 1, "
                            "effective_filter_size: 3, stride: 1]"));
  /* a filter larger than a VALID input gives an empty output, as in TF */
  CHECK(run_op("Conv2D", 2, (mf_tensor *[]){x, w3}, &at, 1, &y, &err) == MF_OK);
  CHECK(shape_is(y, 4, DIMS(1, 0, 0, 1)));
  mf_tensor_release(y);
  CHECK(conv_err("Conv2D", 2, (mf_tensor *[]){x, w2}, &at, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "input depth must be evenly divisible by filter depth: 3 vs 2"));
  CHECK(conv_err("Conv2D", 2, (mf_tensor *[]){x3, w2}, &at, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "input must be 4-dimensional[2,2,3]"));
  CHECK(conv_err("Conv2D", 2, (mf_tensor *[]){xd, w3}, &at, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(conv_err("Conv2D", 2, (mf_tensor *[]){xi, xi}, &at, &err) == MF_ERR_INVALID_ARGUMENT);
  mf_attrs_set_string(&at, "data_format", "NCHW", NULL);
  CHECK(conv_err("Conv2D", 2, (mf_tensor *[]){x, w3}, &at, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "only supports the NHWC tensor format"));
  mf_attrs_set_string(&at, "data_format", "NHWC", NULL);
  mf_attrs_set_ints(&at, "strides", 2, DIMS(1, 1), NULL);
  CHECK(conv_err("Conv2D", 2, (mf_tensor *[]){x, w3}, &at, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "Sliding window strides field must specify 4 dimensions"));
  mf_attrs_set_ints(&at, "strides", 4, DIMS(2, 1, 1, 1), NULL);
  CHECK(conv_err("Conv2D", 2, (mf_tensor *[]){x, w3}, &at, &err) == MF_ERR_INVALID_ARGUMENT);
  mf_attrs_set_ints(&at, "strides", 4, DIMS(1, 0, 1, 1), NULL);
  CHECK(conv_err("Conv2D", 2, (mf_tensor *[]){x, w3}, &at, &err) == MF_ERR_INVALID_ARGUMENT);
  mf_attrs_set_ints(&at, "strides", 4, DIMS(1, 1, 1, 1), NULL);
  mf_attrs_set_ints(&at, "dilations", 4, DIMS(1, 0, 1, 1), NULL);
  CHECK(conv_err("Conv2D", 2, (mf_tensor *[]){x, w3}, &at, &err) == MF_ERR_INVALID_ARGUMENT);
  mf_attrs_set_ints(&at, "dilations", 4, DIMS(1, 1, 1, 1), NULL);
  mf_attrs_set_string(&at, "padding", "FULL", NULL);
  CHECK(conv_err("Conv2D", 2, (mf_tensor *[]){x, w3}, &at, &err) == MF_ERR_INVALID_ARGUMENT);

  /* out_backprop that does not match the geometry */
  mf_attrs_set_string(&at, "padding", "SAME", NULL);
  mf_tensor *xs = make_tensor(MF_INT32, 1, DIMS(4), (double[]){1, 2, 2, 3});
  mf_tensor *dy = make_tensor(MF_FLOAT32, 4, DIMS(1, 3, 2, 1), NULL);
  CHECK(conv_err("Conv2DBackpropInput", 3, (mf_tensor *[]){xs, w3, dy}, &at, &err) ==
        MF_ERR_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "Size of out_backprop doesn't match computed: actual = 3, computed = 2"));
  mf_tensor *bad_sizes = make_tensor(MF_INT32, 1, DIMS(3), (double[]){1, 2, 2});
  CHECK(conv_err("Conv2DBackpropInput", 3, (mf_tensor *[]){bad_sizes, w3, dy}, &at, &err) ==
        MF_ERR_INVALID_ARGUMENT);
  mf_tensor *neg = make_tensor(MF_INT32, 1, DIMS(4), (double[]){1, -2, 2, 3});
  CHECK(conv_err("Conv2DBackpropFilter", 3, (mf_tensor *[]){x, neg, dy}, &at, &err) ==
        MF_ERR_INVALID_ARGUMENT);
  mf_tensor *all[] = {x, x1, w3, w2, x3, xd, xi, xs, dy, bad_sizes, neg};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) mf_tensor_release(all[i]);
  mf_attrs_free(&at);
}

static void test_conv_infer_unknown(void) {
  mf_error err;
  mf_spec o[2];
  int n;
  mf_attrs at;
  cfg c = {.sh = 2, .sw = 2, .dh = 1, .dw = 1, .padding = "SAME"};
  set_attrs(&c, &at);
  mf_spec in[3] = {spec_of(MF_FLOAT32, 4, DIMS(-1, -1, -1, 3)), spec_of(MF_FLOAT32, 4, DIMS(3, 3, 3, 8))};
  CHECK(infer_op("Conv2D", 2, in, &at, o, 2, &n, &err) == MF_OK);
  CHECK(n == 1 && spec_is(&o[0], 4, DIMS(-1, -1, -1, 8)));
  in[0] = spec_of(MF_FLOAT32, 4, DIMS(-1, 33, 32, -1));
  CHECK(infer_op("Conv2D", 2, in, &at, o, 2, &n, &err) == MF_OK);
  CHECK(spec_is(&o[0], 4, DIMS(-1, 17, 16, 8)));
  in[0] = spec_of(MF_FLOAT32, -1, NULL);
  in[1] = spec_of(MF_FLOAT32, -1, NULL);
  CHECK(infer_op("Conv2D", 2, in, &at, o, 2, &n, &err) == MF_OK);
  CHECK(spec_is(&o[0], 4, DIMS(-1, -1, -1, -1)));
  /* backprops with their size inputs unknown while tracing */
  in[0] = spec_of(MF_INT32, 1, DIMS(4));
  in[1] = spec_of(MF_FLOAT32, 4, DIMS(3, 3, 5, 8));
  in[2] = spec_of(MF_FLOAT32, 4, DIMS(2, -1, -1, 8));
  CHECK(infer_op("Conv2DBackpropInput", 3, in, &at, o, 2, &n, &err) == MF_OK);
  CHECK(spec_is(&o[0], 4, DIMS(2, -1, -1, 5)));
  in[0] = spec_of(MF_FLOAT32, 4, DIMS(2, 10, 10, 5));
  in[1] = spec_of(MF_INT32, 1, DIMS(4));
  CHECK(infer_op("Conv2DBackpropFilter", 3, in, &at, o, 2, &n, &err) == MF_OK);
  CHECK(spec_is(&o[0], 4, DIMS(-1, -1, 5, 8)));
  mf_attrs_free(&at);
}

static void test_conv_interrupt(void) {
  cfg c = {.sh = 1, .sw = 1, .dh = 1, .dw = 1, .padding = "SAME"};
  mf_attrs at;
  set_attrs(&c, &at);
  mf_tensor *x = make_tensor(MF_FLOAT32, 4, DIMS(2, 8, 8, 3), NULL);
  mf_tensor *w = make_tensor(MF_FLOAT32, 4, DIMS(3, 3, 3, 4), NULL);
  mf_error err;
  mf_interrupt_request();
  CHECK(conv_err("Conv2D", 2, (mf_tensor *[]){x, w}, &at, &err) == MF_ERR_INTERRUPTED);
  CHECK(conv_err("Conv2D", 2, (mf_tensor *[]){x, w}, &at, &err) == MF_OK); /* flag cleared */
  /* the same on the 3x3 Winograd path */
  mf_tensor *x8 = make_tensor(MF_FLOAT32, 4, DIMS(2, 16, 16, 16), NULL);
  mf_tensor *w8 = make_tensor(MF_FLOAT32, 4, DIMS(3, 3, 16, 16), NULL);
  mf_interrupt_request();
  CHECK(conv_err("Conv2D", 2, (mf_tensor *[]){x8, w8}, &at, &err) == MF_ERR_INTERRUPTED);
  CHECK(conv_err("Conv2D", 2, (mf_tensor *[]){x8, w8}, &at, &err) == MF_OK);
  mf_tensor_release(x8);
  mf_tensor_release(w8);
  mf_tensor_release(x);
  mf_tensor_release(w);
  mf_attrs_free(&at);
}

/* The performance guide's case: Conv2D(100, 3) over a 1x200x200x100 image,
 * VALID. Spot-checks outputs against the naive sum and reports the time. */
static void test_conv_guide_case(void) {
  cfg c = {.sh = 1, .sw = 1, .dh = 1, .dw = 1, .padding = "VALID"};
  mf_attrs at;
  set_attrs(&c, &at);
  unsigned seed = 1;
  mf_tensor *x = random_tensor(MF_FLOAT32, 4, DIMS(1, 200, 200, 100), &seed);
  mf_tensor *w = random_tensor(MF_FLOAT32, 4, DIMS(3, 3, 100, 100), &seed);
  mf_tensor *y = NULL;
  mf_error err;
  CHECK(run_op("Conv2D", 2, (mf_tensor *[]){x, w}, &at, 1, &y, &err) == MF_OK); /* warm up */
  mf_tensor_release(y);
  y = NULL;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  CHECK(run_op("Conv2D", 2, (mf_tensor *[]){x, w}, &at, 1, &y, &err) == MF_OK);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  CHECK(shape_is(y, 4, DIMS(1, 198, 198, 100)));
  const float *xd = mf_tensor_data(x), *wd = mf_tensor_data(w);
  for (int probe = 0; y && probe < 6; probe++) {
    int64_t oy = probe * 39, ox = 197 - probe * 31, co = probe * 17;
    double s = 0;
    for (int64_t ky = 0; ky < 3; ky++)
      for (int64_t kx = 0; kx < 3; kx++)
        for (int64_t ci = 0; ci < 100; ci++)
          s += (double)xd[((oy + ky) * 200 + ox + kx) * 100 + ci] *
               wd[((ky * 3 + kx) * 100 + ci) * 100 + co];
    CHECK_NEAR(mf_tensor_get_f64(y, (oy * 198 + ox) * 100 + co), s, 1e-3);
  }
  printf("# Conv2D 1x200x200x100 * 3x3x100x100 VALID: %.1f ms\n",
         (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6);
  mf_tensor_release(x);
  mf_tensor_release(w);
  mf_tensor_release(y);
  mf_attrs_free(&at);
}

int main(void) {
  RUN(test_conv_float64);
  RUN(test_conv_float32);
  RUN(test_conv_chunked);
  RUN(test_conv_3x3_stride1);
  RUN(test_conv_3x3_nonfinite);
  RUN(test_conv_winograd_switch);
  RUN(test_conv_3x3_backprop_input);
  RUN(test_conv_finite_differences);
  RUN(test_conv_errors);
  RUN(test_conv_infer_unknown);
  RUN(test_conv_interrupt);
  RUN(test_conv_guide_case);
  return CHECK_DONE();
}
