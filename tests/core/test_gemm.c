/* test_gemm.c — the one GEMM (gemm.c): products cut into panels of rows or
 * columns over the thread pool agree with a float64 sum (every transpose,
 * both float dtypes, accumulation, strides wider than the rows, panel
 * edges off the alignment); a product's bits depend on its shape alone,
 * not on whether the pool ran it or its caller did alone; and when the
 * pool has threads, OpenBLAS is held at one. */
#include "check.h"

#include <stdbool.h>
#include <stdlib.h>

#include "blas.h"
#include "kernel_util.h"
#include "threadpool.h"

static double urand(unsigned *seed) {
  *seed = *seed * 1103515245u + 12345u;
  return (double)((*seed >> 8) & 0xffff) / 65536.0 - 0.5;
}

/* A rows x cols matrix with row stride ld (>= cols), as float or double. */
static void *matrix(bool dbl, int64_t rows, int64_t ld, unsigned *seed) {
  size_t n = (size_t)(rows * ld);
  void *p = malloc((n ? n : 1) * (dbl ? sizeof(double) : sizeof(float)));
  for (size_t i = 0; i < n; i++) {
    double v = urand(seed);
    if (dbl) ((double *)p)[i] = v;
    else ((float *)p)[i] = (float)v;
  }
  return p;
}

static double at(bool dbl, const void *p, int64_t i) {
  return dbl ? ((const double *)p)[i] : (double)((const float *)p)[i];
}

/* Worst |C - (C0 if acc) - op(A) op(B)| over C, summed in double. */
static double product_error(bool dbl, bool ta, bool tb, int64_t m, int64_t n, int64_t k,
                            const void *a, int64_t lda, const void *b, int64_t ldb,
                            const void *c0, const void *c, int64_t ldc, bool acc) {
  double worst = 0;
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      double s = acc ? at(dbl, c0, i * ldc + j) : 0;
      for (int64_t p = 0; p < k; p++)
        s += at(dbl, a, ta ? p * lda + i : i * lda + p) *
             at(dbl, b, tb ? j * ldb + p : p * ldb + j);
      double d = fabs(at(dbl, c, i * ldc + j) - s);
      if (d > worst) worst = d;
    }
  return worst;
}

/* One product through mf_gemm against the double sum. Strides are wider
 * than the rows by `pad`, so a panel must step by the stride, not the width. */
static bool gemm_case(bool dbl, bool ta, bool tb, int64_t m, int64_t n, int64_t k, bool acc,
                      int64_t pad) {
  unsigned seed = (unsigned)(m * 7919 + n * 131 + k * 17 + ta * 3 + tb * 5 + acc);
  int64_t arows = ta ? k : m, acols = ta ? m : k, brows = tb ? n : k, bcols = tb ? k : n;
  int64_t lda = acols + pad, ldb = bcols + pad, ldc = n + pad;
  void *a = matrix(dbl, arows, lda, &seed), *b = matrix(dbl, brows, ldb, &seed);
  void *c = matrix(dbl, m, ldc, &seed), *c0 = matrix(dbl, m, ldc, &seed);
  size_t es = dbl ? sizeof(double) : sizeof(float);
  memcpy(c0, c, (size_t)(m * ldc) * es);
  mf_error err;
  bool ok = mf_gemm(dbl ? MF_FLOAT64 : MF_FLOAT32, ta, tb, m, n, k, a, lda, b, ldb, acc, c, ldc,
                    &err) == MF_OK;
  double tol = (dbl ? 1e-12 : 2e-6) * (double)(k + 1);
  double e = product_error(dbl, ta, tb, m, n, k, a, lda, b, ldb, c0, c, ldc, acc);
  /* the padding between rows is never written */
  for (int64_t i = 0; ok && i < m; i++)
    for (int64_t j = n; j < ldc; j++) ok = at(dbl, c, i * ldc + j) == at(dbl, c0, i * ldc + j);
  if (!ok || e > tol)
    printf("#   %s ta=%d tb=%d %lldx%lldx%lld acc=%d pad=%lld: error %g\n", dbl ? "f64" : "f32",
           ta, tb, (long long)m, (long long)n, (long long)k, acc, (long long)pad, e);
  free(a);
  free(b);
  free(c);
  free(c0);
  return ok && e <= tol;
}

/* Sizes on both sides of the threshold for sharing out, cut by rows (m >=
 * n) and by columns, with edges on and off the panel alignment. */
static void test_products_match_sums(void) {
  static const int64_t shapes[][3] = {
      {1, 1, 1},     {3, 5, 7},      {64, 256, 784}, {784, 256, 64}, {257, 33, 300},
      {33, 257, 300}, {100, 100, 100}, {48, 500, 200}, {500, 17, 150}, {31, 31, 2000},
  };
  bool all = true;
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    for (int dbl = 0; dbl < 2; dbl++)
      for (int t = 0; t < 4; t++)
        all = all && gemm_case(dbl, t & 1, t >> 1, shapes[s][0], shapes[s][1], shapes[s][2],
                               (s + (size_t)t) % 2 == 1, (int64_t)(s % 3) * 5);
  CHECK(all);
}

/* The same product run by the pool and by its caller alone (a loop inside
 * a loop runs inline) has the same bits. */
typedef struct nested {
  int64_t m, n, k;
  const float *a, *b;
  float *c;
} nested;

static void product_inline(void *ctx, int64_t begin, int64_t end, int part) {
  (void)end;
  (void)part;
  const nested *j = ctx;
  if (begin != 0) return;
  mf_error err;
  CHECK(mf_gemm(MF_FLOAT32, false, false, j->m, j->n, j->k, j->a, j->k, j->b, j->n, false, j->c,
                j->n, &err) == MF_OK);
}

static void test_bits_depend_on_shape_only(void) {
  static const int64_t shapes[][3] = {{64, 256, 784}, {784, 256, 64}, {300, 300, 300}};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    int64_t m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
    unsigned seed = 11;
    float *a = matrix(false, m, k, &seed), *b = matrix(false, k, n, &seed);
    size_t bytes = (size_t)(m * n) * sizeof(float);
    float *c1 = malloc(bytes), *c2 = malloc(bytes), *c3 = malloc(bytes);
    mf_error err;
    CHECK(mf_gemm(MF_FLOAT32, false, false, m, n, k, a, k, b, n, false, c1, n, &err) == MF_OK);
    CHECK(mf_gemm(MF_FLOAT32, false, false, m, n, k, a, k, b, n, false, c2, n, &err) == MF_OK);
    nested j = {m, n, k, a, b, c3};
    /* two elements, one a part: the first runs on the caller, holding the pool */
    mf_parallel_for(2, 1, 1, product_inline, &j);
    CHECK(memcmp(c1, c2, bytes) == 0);
    CHECK(memcmp(c1, c3, bytes) == 0);
    free(a);
    free(b);
    free(c1);
    free(c2);
    free(c3);
  }
}

/* Two pools never share the cores: with threads of its own, moonflow holds
 * OpenBLAS at one. */
static void test_openblas_held_at_one(void) {
  int threads = mf_blas_threads();
  const mf_blas *blas;
  mf_error err;
  CHECK(mf_blas_load(&blas, &err) == MF_OK);
  if (!blas) return;
  if (mf_threadpool_size() > 1) {
    CHECK(threads == mf_threadpool_size());
    CHECK(blas->openblas_get_num_threads() == 1);
  } else {
    CHECK(threads == 1);
  }
  printf("# gemm threads %d, OpenBLAS threads %d\n", threads, blas->openblas_get_num_threads());
}

int main(void) {
  RUN(test_products_match_sums);
  RUN(test_bits_depend_on_shape_only);
  RUN(test_openblas_held_at_one);
  return CHECK_DONE();
}
