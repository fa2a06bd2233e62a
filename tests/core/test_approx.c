/* test_approx.c — accuracy of the vectorisable exp, log, log1p, tanh and
 * sigmoid of fastmath.h (used by ops_elementwise.c) against the C library.
 *
 * float32 results are compared with glibc's double functions rounded to
 * float (correctly rounded but for rare double roundings), over 2^20 bit
 * patterns spread evenly over all floats plus dense ranges around 0, 1 and
 * the overflow points; MF_APPROX_EXHAUSTIVE=1 checks all 2^32 (minutes).
 * float64 results are compared with the long double functions over 2^21
 * random values. Errors are in units in the last place (ulp); the bounds
 * are what fastmath.h documents (float32 tanh is one rational
 * function, as TensorFlow's: <= 6 ulp, and within 1e-6 absolutely). Special values (+-0, +-inf, NaN,
 * subnormals, out of domain) are checked one by one, and the SIMD body and
 * scalar tail of each loop must give the same bits. Values go through the
 * ops' kernels (run_op) and through the block functions alike. */
#include "check.h"
#include "op_test.h"

#include <float.h>
#include <stdint.h>
#include <stdlib.h>

#include "elementwise.h"

typedef struct fn {
  const char *op;
  double (*ref)(double);
  long double (*refl)(long double);
  int64_t ulp32, ulp64; /* documented bounds */
} fn;

static double sigmoid_ref(double x) { return 1.0 / (1.0 + exp(-x)); }
static long double sigmoid_refl(long double x) { return 1.0L / (1.0L + expl(-x)); }

static const fn fns[] = {
    {"Exp", exp, expl, 1, 2},
    {"Log", log, logl, 1, 2},
    {"Log1p", log1p, log1pl, 2, 3},
    {"Tanh", tanh, tanhl, 6, 2},
    {"Sigmoid", sigmoid_ref, sigmoid_refl, 2, 2},
};

/* Floats in an order where neighbours differ by one ulp (-0 == +0). */
static int64_t ord32(float f) {
  int32_t i;
  memcpy(&i, &f, sizeof i);
  return i < 0 ? (int64_t)INT32_MIN - i : i;
}
static int64_t ord64(double f) {
  int64_t i;
  memcpy(&i, &f, sizeof i);
  return i < 0 ? INT64_MIN - i : i;
}

static float f32_of(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

/* The op on n floats through its kernel; the block function must agree. */
static mf_tensor *apply(const char *op, mf_dtype dt, const void *x, int64_t n) {
  mf_tensor *t = NULL, *out = NULL;
  mf_tensor_new(dt, 1, &n, &t, NULL);
  memcpy(mf_tensor_data(t), x, (size_t)n * mf_dtype_size(dt));
  mf_error err;
  CHECK_OK(run_op(op, 1, &t, NULL, 1, &out, &err));
  void *z = malloc((size_t)n * mf_dtype_size(dt) + 1);
  const void *in[1] = {x};
  CHECK(mf_elementwise_block(mf_op_lookup(op), dt, 1, in, (const int64_t[]){1}, z, n, NULL));
  CHECK(out && memcmp(z, mf_tensor_data(out), (size_t)n * mf_dtype_size(dt)) == 0);
  free(z);
  mf_tensor_release(t);
  return out;
}

typedef struct worst {
  int64_t ulp;
  double at, got, want;
  int nan_mismatch;
} worst;

static void compare32(const fn *f, const float *x, int64_t n, worst *w) {
  mf_tensor *out = apply(f->op, MF_FLOAT32, x, n);
  if (!out) return;
  const float *z = mf_tensor_data(out);
  for (int64_t i = 0; i < n; i++) {
    float want = (float)f->ref((double)x[i]);
    if (isnan(want) || isnan(z[i])) {
      if (isnan(want) != isnan(z[i]) && w->nan_mismatch++ < 3)
        printf("#   %s(%a): got %a, want %a\n", f->op, x[i], z[i], want);
      continue;
    }
    int64_t d = llabs(ord32(z[i]) - ord32(want));
    if (d > w->ulp) *w = (worst){d, x[i], z[i], want, w->nan_mismatch};
  }
  mf_tensor_release(out);
}

static void report(const char *what, const fn *f, const worst *w, int64_t bound) {
  printf("# %-8s %s: max %lld ulp at %a (got %.17g, want %.17g)\n", f->op, what,
         (long long)w->ulp, w->at, w->got, w->want);
  CHECK(w->ulp <= bound);
  CHECK(w->nan_mismatch == 0);
}

/* ---- float32 ---- */

static void test_float32_accuracy(void) {
  enum { N = 1 << 20 };
  float *x = malloc(N * sizeof *x);
  for (size_t k = 0; k < sizeof fns / sizeof fns[0]; k++) {
    worst w = {0};
    /* every 4096th bit pattern, offset so that both signs and all
     * exponents are met */
    for (uint32_t i = 0; i < N; i++) x[i] = f32_of(i * 4096u + (i % 4093u));
    compare32(&fns[k], x, N, &w);
    /* dense: around 0, 1, the overflow and underflow points of exp, and
     * the switch of tanh's formulas */
    const float centres[] = {0.0f, 1.0f, -1.0f, 88.7f, -87.3f, -103.9f, 0.625f, -0.625f,
                             9.0f, 1e-4f, 0.5f, 2.0f, 20.0f};
    for (size_t c = 0; c < sizeof centres / sizeof centres[0]; c++) {
      float v = centres[c];
      for (int i = 0; i < N / 2; i++) v = nextafterf(v, -INFINITY);
      for (int i = 0; i < N; i++, v = nextafterf(v, INFINITY)) x[i] = v;
      compare32(&fns[k], x, N, &w);
    }
    report("float32", &fns[k], &w, fns[k].ulp32);
  }
  free(x);
}

/* MF_APPROX_EXHAUSTIVE=1: every float32 (the bounds above came from this). */
static void test_float32_exhaustive(void) {
  const char *env = getenv("MF_APPROX_EXHAUSTIVE");
  if (!env || strcmp(env, "1") != 0) {
    printf("# skipped: set MF_APPROX_EXHAUSTIVE=1 to check all 2^32 floats\n");
    return;
  }
  enum { N = 1 << 22 };
  float *x = malloc(N * sizeof *x);
  for (size_t k = 0; k < sizeof fns / sizeof fns[0]; k++) {
    worst w = {0};
    for (uint64_t base = 0; base < (1ull << 32); base += N) {
      for (uint32_t i = 0; i < N; i++) x[i] = f32_of((uint32_t)(base + i));
      compare32(&fns[k], x, N, &w);
    }
    report("float32, all", &fns[k], &w, fns[k].ulp32);
  }
  free(x);
}

/* tanh within 1e-6 of libm's, absolutely, over a wide range. */
static void test_tanh_absolute(void) {
  enum { N = 200001 };
  float *x = malloc(N * sizeof *x);
  for (int i = 0; i < N; i++) x[i] = -50.0f + 100.0f * (float)i / (N - 1);
  mf_tensor *out = apply("Tanh", MF_FLOAT32, x, N);
  double worst = 0;
  for (int i = 0; out && i < N; i++) {
    double d = fabs((double)MF_DATA(out, float)[i] - tanh((double)x[i]));
    if (d > worst) worst = d;
  }
  printf("# Tanh float32: max absolute error %.3g on [-50, 50]\n", worst);
  CHECK(worst <= 1e-6);
  mf_tensor_release(out);
  free(x);
}

/* ---- float64 ---- */

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint64_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static void test_float64_accuracy(void) {
  enum { N = 1 << 18, ROUNDS = 8 };
  double *x = malloc(N * sizeof *x);
  const double scales[ROUNDS] = {0, 1, 4, 20, 800, 1e-6, 0.7, 745};
  for (size_t k = 0; k < sizeof fns / sizeof fns[0]; k++) {
    worst w = {0};
    for (int r = 0; r < ROUNDS; r++) {
      for (int i = 0; i < N; i++) {
        uint64_t u = next();
        if (scales[r] == 0) {
          memcpy(&x[i], &u, sizeof u); /* any bit pattern */
        } else {
          x[i] = ((double)(u >> 11) * 0x1p-53 * 2 - 1) * scales[r];
          if (k <= 1) x[i] = fabs(x[i]); /* log's domain */
        }
      }
      mf_tensor *out = apply(fns[k].op, MF_FLOAT64, x, N);
      const double *z = out ? mf_tensor_data(out) : NULL;
      for (int i = 0; z && i < N; i++) {
        double want = (double)fns[k].refl((long double)x[i]);
        if (isnan(want) || isnan(z[i])) {
          if (isnan(want) != isnan(z[i]) && w.nan_mismatch++ < 3)
            printf("#   %s(%a): got %a, want %a\n", fns[k].op, x[i], z[i], want);
          continue;
        }
        int64_t d = llabs(ord64(z[i]) - ord64(want));
        if (d > w.ulp) w = (worst){d, x[i], z[i], want, w.nan_mismatch};
      }
      mf_tensor_release(out);
    }
    report("float64", &fns[k], &w, fns[k].ulp64);
  }
  free(x);
}

/* ---- special values ---- */

typedef struct special {
  const char *op;
  double x, want; /* want NAN: any NaN */
  bool sign;      /* the sign of want must match (zeros) */
} special;

static void test_special_values(void) {
  const double tiny = 0x1p-140; /* subnormal in float32 */
  const special cases[] = {
      {"Exp", 0.0, 1, false}, {"Exp", -0.0, 1, false}, {"Exp", INFINITY, INFINITY, false},
      {"Exp", -INFINITY, 0, true}, {"Exp", NAN, NAN, false}, {"Exp", 1000, INFINITY, false},
      {"Exp", -1000, 0, true}, 
      {"Log", 0.0, -INFINITY, false}, {"Log", -0.0, -INFINITY, false}, {"Log", -1, NAN, false},
      {"Log", -INFINITY, NAN, false}, {"Log", INFINITY, INFINITY, false}, {"Log", NAN, NAN, false},
      {"Log", 1, 0, true},
      {"Log1p", 0.0, 0.0, true}, {"Log1p", -0.0, -0.0, true}, {"Log1p", -1, -INFINITY, false},
      {"Log1p", -2, NAN, false}, {"Log1p", INFINITY, INFINITY, false}, {"Log1p", NAN, NAN, false},
      {"Log1p", -INFINITY, NAN, false},
      {"Tanh", 0.0, 0.0, true}, {"Tanh", -0.0, -0.0, true}, {"Tanh", INFINITY, 1, false},
      {"Tanh", -INFINITY, -1, false}, {"Tanh", NAN, NAN, false}, {"Tanh", 100, 1, false},
      {"Tanh", -100, -1, false}, {"Tanh", tiny, tiny, true}, {"Tanh", -tiny, -tiny, true},
      {"Sigmoid", 0.0, 0.5, false}, {"Sigmoid", -0.0, 0.5, false},
      {"Sigmoid", INFINITY, 1, false}, {"Sigmoid", -INFINITY, 0, true},
      {"Sigmoid", NAN, NAN, false}, {"Sigmoid", 200, 1, false}, {"Sigmoid", -2000, 0, true},
  };
  for (int d = 0; d < 2; d++) {
    mf_dtype dt = d ? MF_FLOAT64 : MF_FLOAT32;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
      const special *c = &cases[i];
      /* repeated so the value goes through the SIMD body and the tail */
      float xf[9];
      double xd[9];
      for (int k = 0; k < 9; k++) {
        xf[k] = (float)c->x;
        xd[k] = c->x;
      }
      mf_tensor *out = apply(c->op, dt, d ? (void *)xd : (void *)xf, 9);
      for (int k = 0; out && k < 9; k++) {
        double got = mf_tensor_get_f64(out, k);
        bool ok = isnan(c->want) ? isnan(got) : got == c->want;
        if (ok && c->sign) ok = signbit(got) == signbit(c->want);
        if (!ok) {
          printf("#   %s %s(%g) = %g, want %g\n", mf_dtype_name(dt), c->op, c->x, got, c->want);
          CHECK(ok);
          break;
        }
      }
      mf_tensor_release(out);
    }
  }
  /* overflow and underflow points of float32 */
  float big[2] = {89.0f, -200.0f};
  mf_tensor *o = apply("Exp", MF_FLOAT32, big, 1), *sg = apply("Sigmoid", MF_FLOAT32, big + 1, 1);
  CHECK(o && isinf(MF_DATA(o, float)[0]));
  CHECK(sg && MF_DATA(sg, float)[0] == 0.0f);
  mf_tensor_release(o);
  mf_tensor_release(sg);
  /* subnormal results and arguments, float32 */
  float x[4] = {-100.0f, -103.0f, f32_of(1), f32_of(0x007fffff)};
  mf_tensor *e = apply("Exp", MF_FLOAT32, x, 2);
  CHECK(e && MF_DATA(e, float)[0] == (float)exp(-100.0) && MF_DATA(e, float)[0] < FLT_MIN);
  CHECK(e && MF_DATA(e, float)[1] == (float)exp(-103.0));
  mf_tensor *l = apply("Log", MF_FLOAT32, x + 2, 2);
  CHECK(l && MF_DATA(l, float)[0] == (float)log((double)f32_of(1)));
  CHECK(l && MF_DATA(l, float)[1] == (float)log((double)f32_of(0x007fffff)));
  mf_tensor_release(e);
  mf_tensor_release(l);
}

/* A value's result does not depend on where it sits in a block: SIMD body
 * and scalar tail, any length and alignment. */
static void test_position_independent(void) {
  enum { N = 67 };
  float x[N];
  double xd[N];
  for (int i = 0; i < N; i++) xd[i] = x[i] = -8.0f + 16.0f * (float)((i * 37) % N) / N;
  for (size_t k = 0; k < sizeof fns / sizeof fns[0]; k++) {
    const mf_op_def *op = mf_op_lookup(fns[k].op);
    float full[N], part[N];
    double fulld[N], partd[N];
    const void *in[1] = {x};
    mf_elementwise_block(op, MF_FLOAT32, 1, in, (const int64_t[]){1}, full, N, NULL);
    in[0] = xd;
    mf_elementwise_block(op, MF_FLOAT64, 1, in, (const int64_t[]){1}, fulld, N, NULL);
    bool same = true;
    for (int off = 0; off < 9; off++)
      for (int len = 1; off + len <= N; len += 5) {
        in[0] = x + off;
        mf_elementwise_block(op, MF_FLOAT32, 1, in, (const int64_t[]){1}, part, len, NULL);
        in[0] = xd + off;
        mf_elementwise_block(op, MF_FLOAT64, 1, in, (const int64_t[]){1}, partd, len, NULL);
        same = same && memcmp(part, full + off, (size_t)len * sizeof *part) == 0 &&
               memcmp(partd, fulld + off, (size_t)len * sizeof *partd) == 0;
      }
    if (!same) printf("#   %s depends on the position in a block\n", fns[k].op);
    CHECK(same);
  }
}

int main(void) {
  RUN(test_float32_accuracy);
  RUN(test_float32_exhaustive);
  RUN(test_tanh_absolute);
  RUN(test_float64_accuracy);
  RUN(test_special_values);
  RUN(test_position_independent);
  return CHECK_DONE();
}
