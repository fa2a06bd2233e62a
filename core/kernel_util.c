#include "alloc.h"
#include "kernel_util.h"
#include "tensor.h"

#include <cblas.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interrupt.h"

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
  enum CBLAS_TRANSPOSE opa = trans_a ? CblasTrans : CblasNoTrans;
  enum CBLAS_TRANSPOSE opb = trans_b ? CblasTrans : CblasNoTrans;
  switch (dt) {
    case MF_FLOAT32:
      if (!fits) break;
      cblas_sgemm(CblasRowMajor, opa, opb, (int)m, (int)n, (int)k, 1.0f, a, (int)lda, b,
                  (int)ldb, accumulate ? 1.0f : 0.0f, c, (int)ldc);
      return MF_OK;
    case MF_FLOAT64:
      if (!fits) break;
      cblas_dgemm(CblasRowMajor, opa, opb, (int)m, (int)n, (int)k, 1.0, a, (int)lda, b,
                  (int)ldb, accumulate ? 1.0 : 0.0, c, (int)ldc);
      return MF_OK;
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

mf_status mf_scratch_alloc(size_t count, size_t elem, void **out, mf_error *err) {
  *out = NULL;
  if (elem && count > (SIZE_MAX - 63) / elem)
    return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED,
                        "OOM when allocating %zu elements of scratch memory", count);
  size_t nbytes = (count * elem + 63) & ~(size_t)63;
  if (nbytes == 0) nbytes = 64;
  if (mf_posix_memalign(out, 64, nbytes) != 0) {
    *out = NULL;
    return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED,
                        "OOM when allocating %zu bytes of scratch memory", nbytes);
  }
  return MF_OK;
}

void mf_index_debug(int rank, const int64_t *shape, int64_t flat, char *buf, size_t n) {
  if (n == 0) return;
  int64_t idx[MF_MAX_RANK];
  for (int d = rank - 1; d >= 0; d--) {
    idx[d] = shape[d] ? flat % shape[d] : 0;
    flat = shape[d] ? flat / shape[d] : 0;
  }
  size_t used = 0;
  buf[0] = '\0';
  for (int d = 0; d < rank && used < n; d++)
    used += (size_t)snprintf(buf + used, n - used, "%s%lld%s", d ? "," : "[", (long long)idx[d],
                             d == rank - 1 ? "]" : "");
}

void mf_shape_debug(int rank, const int64_t *shape, char *buf, size_t n) {
  if (n == 0) return;
  if (rank < 0) {
    snprintf(buf, n, "<unknown>");
    return;
  }
  size_t used = 0;
  buf[0] = '\0';
  for (int i = 0; i <= rank && used < n; i++) {
    const char *lead = i == 0 ? "[" : ",";
    int w = i == rank ? snprintf(buf + used, n - used, "%s]", i == 0 ? "[" : "")
            : shape[i] < 0 ? snprintf(buf + used, n - used, "%s?", lead)
                           : snprintf(buf + used, n - used, "%s%lld", lead, (long long)shape[i]);
    if (w < 0) return;
    used += (size_t)w;
  }
}

bool mf_broadcast_dim(int64_t a, int64_t b, int64_t *out) {
  if (a == 1) *out = b;
  else if (b == 1) *out = a;
  else if (a < 0) *out = b; /* b is unknown, or a known size != 1 that a must match */
  else if (b < 0) *out = a;
  else if (a == b) *out = a;
  else return false;
  return true;
}
