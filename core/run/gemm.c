/* gemm.c — the one GEMM (mf_gemm, declared in kernel_util.h): OpenBLAS for
 * float32/float64, a plain loop for int32/int64; and who runs its threads.
 *
 * Threads. OpenBLAS has a pool of its own, whose threads poll for work
 * for about 0.1 s after each call; moonflow's pool (threadpool.h) polls
 * for 0.2 ms. Both at once fight over the same cores: on two cores, a
 * training step whose elementwise ops ran on moonflow's pool between
 * OpenBLAS's GEMMs ran slower on two threads than on one. And OpenBLAS's
 * own split of a 784x64 by 64x256 product gained 10% from a second thread
 * where two single-threaded halves gain 90%. So one pool runs everything:
 * when moonflow's pool has more than one thread, OpenBLAS is set to one
 * thread (once, for the process) and a large product is cut into panels
 * of rows or columns of C, each a single-threaded OpenBLAS call on a
 * thread of moonflow's pool. With one thread in moonflow's pool
 * (MOONFLOW_NUM_THREADS=1), OpenBLAS keeps the threads it was given.
 *
 * Cutting the product. Each panel is an independent call that packs its
 * own copy of the operand all panels share: cutting the rows of C shares
 * B, cutting the columns shares A. The longer side of C is cut, so the
 * shared operand is the smaller one (a 64x784 by 784x256 product cuts
 * B's 256 columns; its gradient 784x64 by 64x256 cuts A's 784 rows). */
#include <limits.h>
#include <pthread.h>
#include <string.h>

#include "blas.h"
#include "interrupt.h"
#include "kernel_util.h"
#include "threadpool.h"

/* Integer GEMM. Products accumulate in the unsigned twin of T so overflow
 * wraps (as TF's Eigen kernels do in practice) instead of being undefined.
 * i-p-j order keeps the inner loop on contiguous rows of B and C. */
#define DEFINE_INT_GEMM(NAME, T, U)                                                      \
  static mf_status NAME(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const T *a,    \
                        int64_t lda, const T *b, int64_t ldb, bool acc, T *c, int64_t ldc, \
                        mf_error *err) {                                                 \
    for (int64_t i = 0; i < m; i++) {                                                    \
      MF_TRY(mf_interrupt_check(err));                                                   \
      U *row = (U *)(c + i * ldc);                                                       \
      if (!acc)                                                                          \
        for (int64_t j = 0; j < n; j++) row[j] = 0;                                      \
      for (int64_t p = 0; p < k; p++) {                                                  \
        U av = (U)(ta ? a[p * lda + i] : a[i * lda + p]);                                \
        if (av == 0) continue;                                                           \
        if (tb)                                                                          \
          for (int64_t j = 0; j < n; j++) row[j] += av * (U)b[j * ldb + p];              \
        else                                                                             \
          for (int64_t j = 0; j < n; j++) row[j] += av * (U)b[p * ldb + j];              \
      }                                                                                  \
    }                                                                                    \
    return MF_OK;                                                                        \
  }
DEFINE_INT_GEMM(gemm_i32, int32_t, uint32_t)
DEFINE_INT_GEMM(gemm_i64, int64_t, uint64_t)
#undef DEFINE_INT_GEMM

static bool blas_int(int64_t v) { return v >= 0 && v <= INT_MAX; }

/* ---- threads ---- */

static pthread_once_t claim_once = PTHREAD_ONCE_INIT;

static void claim(void) {
  const mf_blas *b;
  mf_error err;
  /* a library that does not load fails the call that needs it, not this */
  if (mf_threadpool_size() > 1 && mf_blas_load(&b, &err) == MF_OK) b->openblas_set_num_threads(1);
}

int mf_blas_threads(void) {
  pthread_once(&claim_once, claim);
  int pool = mf_threadpool_size();
  return pool > 1 ? pool : 1;
}

/* Floating-point operations per nanosecond one thread is assumed to do,
 * to decide from a product's size alone whether threads pay (the pool
 * compares the estimate with the cost of sharing a loop out). About what
 * OpenBLAS's AVX2 kernel does on one core (106 GFLOP/s single precision). */
#define FLOPS_PER_NS_F32 100.0
#define FLOPS_PER_NS_F64 50.0

/* Rows or columns per panel are a multiple of this: OpenBLAS's kernels
 * work on strips of 4 to 16 rows and columns, and a panel edge elsewhere
 * leaves a ragged strip on both sides of it. */
enum { PANEL_ALIGN = 16 };

typedef struct gemm_job {
  const mf_blas *blas;
  bool dbl, ta, tb, rows; /* rows: panels are rows of C, else columns */
  int64_t m, n, k, lda, ldb, ldc;
  const char *a, *b;
  char *c;
  bool acc;
  int64_t cut;  /* C's rows (or columns) */
  int panels;   /* cut into this many panels, edges on multiples of PANEL_ALIGN */
} gemm_job;

/* Where panel p starts. */
static int64_t panel_edge(const gemm_job *j, int64_t p) {
  if (p >= j->panels) return j->cut;
  int64_t e = j->cut * p / j->panels;
  return (e + PANEL_ALIGN / 2) / PANEL_ALIGN * PANEL_ALIGN;
}

/* One single-threaded OpenBLAS call for C's rows (or columns) [lo, hi). */
static void gemm_rows(const gemm_job *j, int64_t lo, int64_t hi) {
  size_t es = j->dbl ? sizeof(double) : sizeof(float);
  int64_t m = j->m, n = j->n;
  const char *a = j->a, *b = j->b;
  char *c = j->c;
  if (j->rows) {
    /* Row i of op(A) is row i of A, or column i of A stored transposed. */
    a += (size_t)(j->ta ? lo : lo * j->lda) * es;
    c += (size_t)(lo * j->ldc) * es;
    m = hi - lo;
  } else {
    b += (size_t)(j->tb ? lo * j->ldb : lo) * es;
    c += (size_t)lo * es;
    n = hi - lo;
  }
  enum CBLAS_TRANSPOSE opa = j->ta ? CblasTrans : CblasNoTrans;
  enum CBLAS_TRANSPOSE opb = j->tb ? CblasTrans : CblasNoTrans;
  if (j->dbl)
    j->blas->cblas_dgemm(CblasRowMajor, opa, opb, (int)m, (int)n, (int)j->k, 1.0,
                         (const double *)a, (int)j->lda, (const double *)b, (int)j->ldb,
                         j->acc ? 1.0 : 0.0, (double *)c, (int)j->ldc);
  else
    j->blas->cblas_sgemm(CblasRowMajor, opa, opb, (int)m, (int)n, (int)j->k, 1.0f,
                         (const float *)a, (int)j->lda, (const float *)b, (int)j->ldb,
                         j->acc ? 1.0f : 0.0f, (float *)c, (int)j->ldc);
}

/* Panels [p0, p1), each its own call even when one thread runs several:
 * OpenBLAS's kernels round differently at a panel's edges (its tiles of C
 * start there), so a product's bits depend on its panels, which depend on
 * its shape and the pool's size alone, never on how a run was scheduled. */
static void gemm_panels(void *ctx, int64_t p0, int64_t p1, int part) {
  const gemm_job *j = ctx;
  (void)part;
  for (int64_t p = p0; p < p1; p++) {
    int64_t lo = panel_edge(j, p), hi = panel_edge(j, p + 1);
    if (lo < hi) gemm_rows(j, lo, hi);
  }
}

/* Runs the product, in panels over moonflow's threads when it has several
 * and the product is large enough to pay for them. */
static void blas_gemm(gemm_job *j) {
  int threads = mf_blas_threads();
  j->rows = j->m >= j->n;
  j->cut = j->rows ? j->m : j->n;
  j->panels = threads;
  if (j->panels > j->cut / PANEL_ALIGN) j->panels = (int)(j->cut / PANEL_ALIGN);
  /* ns of work, from the flop count: whether threads pay is decided from
   * the shape alone, so the panels (and the bits) are too. */
  double ns = 2.0 * (double)j->m * (double)j->n * (double)j->k /
              (j->dbl ? FLOPS_PER_NS_F64 : FLOPS_PER_NS_F32);
  if (threads < 2 || j->panels < 2 || ns < MF_PARALLEL_WORTH_NS) {
    gemm_rows(j, 0, j->cut);
    return;
  }
  double per_panel = ns / (double)j->panels;
  mf_parallel_for_cost(j->panels, 1, 1, gemm_panels, j, &per_panel);
}

mf_status mf_gemm(mf_dtype dt, bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k,
                  const void *a, int64_t lda, const void *b, int64_t ldb, bool accumulate,
                  void *c, int64_t ldc, mf_error *err) {
  if (m == 0 || n == 0) return MF_OK;
  if (k == 0) {
    /* BLAS rejects lda = 0, and an empty sum is zero anyway. */
    if (!accumulate)
      for (int64_t i = 0; i < m; i++)
        memset((char *)c + (size_t)(i * ldc) * mf_dtype_size(dt), 0,
               (size_t)n * mf_dtype_size(dt));
    return MF_OK;
  }
  bool fits = blas_int(m) && blas_int(n) && blas_int(k) && blas_int(lda) && blas_int(ldb) &&
              blas_int(ldc);
  switch (dt) {
    case MF_FLOAT32:
    case MF_FLOAT64: {
      if (!fits) break;
      const mf_blas *blas;
      MF_TRY(mf_blas_load(&blas, err));
      gemm_job j = {.blas = blas, .dbl = dt == MF_FLOAT64, .ta = trans_a, .tb = trans_b, .m = m, .n = n,
                    .k = k, .lda = lda, .ldb = ldb, .ldc = ldc, .a = a, .b = b, .c = c,
                    .acc = accumulate};
      blas_gemm(&j);
      return MF_OK;
    }
    case MF_INT32:
      return gemm_i32(trans_a, trans_b, m, n, k, a, lda, b, ldb, accumulate, c, ldc, err);
    case MF_INT64:
      return gemm_i64(trans_a, trans_b, m, n, k, a, lda, b, ldb, accumulate, c, ldc, err);
    default:
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "no matrix multiply for %s tensors",
                          mf_dtype_name(dt));
  }
  return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED,
                      "matrix product of %lld x %lld by %lld x %lld is too large for BLAS",
                      (long long)m, (long long)k, (long long)k, (long long)n);
}
