/* ops_lapack.c — the square-matrix ops of tf.linalg: MatrixInverse,
 * MatrixDeterminant, MatrixSolve and Cholesky, batched over leading dims,
 * float32 and float64.
 *
 * TensorFlow computes these with Eigen's partially pivoted LU (PartialPivLU)
 * and LLT; moonflow calls the same factorisations in LAPACK (getrf, getrs,
 * potrf), which libopenblas exports (reached through blas.h). LAPACK is
 * column-major: each matrix is copied transposed into scratch so the routines factor the matrix itself,
 * pivoting as Eigen does, and results are transposed back. TF's checks come
 * with them: an exact zero pivot is "not invertible", a failed LLT is "not
 * successful", and the determinant is sign * exp(sum log|u_ii|), TF's
 * SLogDet, not the product of the pivots. When moonflow's pool has
 * threads, OpenBLAS is held at one (gemm.c), so these run on one thread. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blas.h"
#include "interrupt.h"
#include "kernel_util.h"
#include "op.h"
#include "shape_fn.h"

/* ---- shared checks (TF's LinearAlgebraOp messages) ---- */

static mf_status check_float(mf_op_call *c, int from, int to, mf_error *err) {
  if (to - from > 1) MF_TRY(mf_infer_same_dtype(c, from, to, err));
  return mf_infer_check_dtype(c, from, mf_dtype_is_float, "float", err);
}

/* Input i is a (batch of) square matrices as far as its spec tells. */
static mf_status check_square(mf_op_call *c, int i, const char *not_square, mf_error *err) {
  const mf_spec *s = &c->in_specs[i];
  if (s->rank < 0) return MF_OK;
  if (c->building) {
    /* TF's MakeBatchSquareMatrix: its messages while a graph is built */
    MF_TRY(mf_sf_with_rank_at_least(s->rank, 2, err));
    MF_TRY(mf_sf_merge_dim(s->shape[s->rank - 2], s->shape[s->rank - 1], NULL, err));
  }
  if (s->rank < 2)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Input tensor %d must have rank >= 2, got %d [Op:%s]", i, s->rank,
                        c->op->name);
  int64_t r = s->shape[s->rank - 2], k = s->shape[s->rank - 1];
  if (r >= 0 && k >= 0 && r != k)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "%s [Op:%s]", not_square, c->op->name);
  return MF_OK;
}

/* The matrix order n and the number of matrices of a square input; false
 * when n is beyond what LAPACK's int can index (n * n elements). */
static bool square_dims(const mf_tensor *t, int *n, int64_t *batches) {
  int64_t order = t->shape[t->rank - 1];
  if (order > 46340) return false;
  *n = (int)order;
  *batches = order ? t->size / (order * order) : 0;
  return true;
}

static mf_status too_big(const mf_op_call *c, mf_error *err) {
  return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED,
                      "matrix dimensions beyond what LAPACK can index [Op:%s]", c->op->name);
}

/* dst (cols x rows, row-major) = transpose of src (rows x cols, row-major):
 * a row-major matrix to column-major and back. */
static void transpose(size_t es, const char *src, int64_t rows, int64_t cols, char *dst) {
  for (int64_t i = 0; i < rows; i++)
    for (int64_t j = 0; j < cols; j++) memcpy(dst + (size_t)(j * rows + i) * es, src + (size_t)(i * cols + j) * es, es);
}

/* LU of the column-major n x n matrix at a; info > 0 only reports an exact
 * zero pivot, which each op judges as TF does. */
static void getrf(const mf_blas *b, mf_dtype dt, int n, void *a, int *ipiv) {
  int info = 0;
  (void)mf_blas_threads(); /* holds OpenBLAS at one thread when moonflow's pool has several */
  if (dt == MF_FLOAT32)
    b->sgetrf_(&n, &n, a, &n, ipiv, &info);
  else
    b->dgetrf_(&n, &n, a, &n, ipiv, &info);
}

static double lu_diag(mf_dtype dt, const void *a, int n, int i) {
  return dt == MF_FLOAT32 ? ((const float *)a)[(size_t)i * n + i] : ((const double *)a)[(size_t)i * n + i];
}

/* TF's PartialPivLU guard: the smallest |u_ii| must be above zero. */
static bool lu_invertible(mf_dtype dt, const void *a, int n) {
  for (int i = 0; i < n; i++)
    if (!(fabs(lu_diag(dt, a, n, i)) > 0)) return false;
  return true;
}

/* Solves (LU) X = B in place for B column-major n x nrhs. */
static void getrs(const mf_blas *bl, mf_dtype dt, int n, int nrhs, const void *lu,
                  const int *ipiv, void *b) {
  int info = 0;
  if (dt == MF_FLOAT32)
    bl->sgetrs_("N", &n, &nrhs, lu, &n, ipiv, b, &n, &info, 1);
  else
    bl->dgetrs_("N", &n, &nrhs, lu, &n, ipiv, b, &n, &info, 1);
}

/* ---- MatrixInverse and MatrixSolve: one LU, then getrs ---- */

static mf_status square_same_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(check_float(c, 0, 1, err));
  MF_TRY(check_square(c, 0, "Input matrix must be square.", err));
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  c->out_specs[0] = c->in_specs[0];
  return MF_OK;
}

/* X = op(A)^-1 B per matrix, op(A) = A or (adjoint) A^T; b == NULL solves
 * for the identity (the inverse). Row-major in and out. */
static mf_status lu_solve_kernel(mf_op_call *c, const mf_tensor *a, const mf_tensor *b,
                                 const char *singular, mf_error *err) {
  bool adjoint = mf_attr_bool(c->attrs, "adjoint", false);
  int n;
  int64_t batches;
  int64_t k = b ? b->shape[b->rank - 1] : a->shape[a->rank - 1];
  if (!square_dims(a, &n, &batches) || k > 46340) return too_big(c, err);
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  if (!batches || !k) return MF_OK;
  const mf_blas *blas;
  MF_TRY(mf_blas_load(&blas, err));
  size_t es = mf_dtype_size(a->dtype);
  char *lu = NULL, *x = NULL;
  int *ipiv = NULL;
  mf_status s = mf_scratch_alloc((size_t)n * n, es, (void **)&lu, err);
  if (s == MF_OK) s = mf_scratch_alloc((size_t)n * k, es, (void **)&x, err);
  if (s == MF_OK) s = mf_scratch_alloc((size_t)n, sizeof(int), (void **)&ipiv, err);
  for (int64_t bi = 0; s == MF_OK && bi < batches; bi++) {
    s = mf_interrupt_check(err);
    if (s != MF_OK) break;
    const char *am = (const char *)mf_tensor_data(a) + (size_t)(bi * n * n) * es;
    /* Row-major A read as column-major is A^T: the adjoint needs no copy-transpose. */
    if (adjoint)
      memcpy(lu, am, (size_t)n * n * es);
    else
      transpose(es, am, n, n, lu);
    getrf(blas, a->dtype, n, lu, ipiv);
    if (!lu_invertible(a->dtype, lu, n)) {
      s = mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "%s [Op:%s]", singular, c->op->name);
      break;
    }
    if (b) {
      transpose(es, (const char *)mf_tensor_data(b) + (size_t)(bi * n * k) * es, n, k, x);
    } else {
      memset(x, 0, (size_t)n * n * es);
      for (int i = 0; i < n; i++) {
        if (a->dtype == MF_FLOAT32)
          ((float *)x)[(size_t)i * n + i] = 1;
        else
          ((double *)x)[(size_t)i * n + i] = 1;
      }
    }
    getrs(blas, a->dtype, n, (int)k, lu, ipiv, x);
    transpose(es, x, k, n, (char *)mf_tensor_data(out) + (size_t)(bi * n * k) * es);
  }
  free(lu);
  free(x);
  free(ipiv);
  return s;
}

static mf_status inverse_kernel(mf_op_call *c, mf_error *err) {
  return lu_solve_kernel(c, c->in[0], NULL, "Input is not invertible.", err);
}

const mf_op_def mf_op_MatrixInverse = {
    .name = "MatrixInverse", .input_names = "input", .min_inputs = 1, .max_inputs = 1,
    .attrs = {{"adjoint", MF_ATTR_BOOL}},
    .infer = square_same_infer, .kernel = inverse_kernel, .flags = 0,
    .doc = "The inverse of each square matrix in the last two dims (of its transpose with adjoint).",
    .tf_attrs = "T:0 adjoint=false",
};

static mf_status solve_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(check_float(c, 0, 2, err));
  MF_TRY(check_square(c, 0, "First input (lhs) must be a square matrix.", err));
  const mf_spec *a = &c->in_specs[0], *b = &c->in_specs[1];
  if (b->rank >= 0 && b->rank < 2)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Second input (rhs) must be a matrix. [Op:%s]",
                        c->op->name);
  if (a->rank >= 0 && b->rank >= 0) {
    if (a->rank != b->rank)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "All input tensors must have the same rank. [Op:%s]", c->op->name);
    for (int d = 0; d < a->rank - 2; d++)
      if (a->shape[d] >= 0 && b->shape[d] >= 0 && a->shape[d] != b->shape[d])
        return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                            "All input tensors must have the same outer dimensions. [Op:%s]",
                            c->op->name);
    int64_t ra = a->shape[a->rank - 2], rb = b->shape[b->rank - 2];
    if (ra >= 0 && rb >= 0 && ra != rb)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "Input matrix and rhs are incompatible. [Op:%s]", c->op->name);
  }
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  c->out_specs[0] = *b;
  if (a->rank >= 0 && b->rank >= 0)
    for (int d = 0; d < a->rank - 2; d++)
      if (c->out_specs[0].shape[d] < 0) c->out_specs[0].shape[d] = a->shape[d];
  return MF_OK;
}

static mf_status solve_kernel(mf_op_call *c, mf_error *err) {
  return lu_solve_kernel(c, c->in[0], c->in[1], "Input matrix is not invertible.", err);
}

const mf_op_def mf_op_MatrixSolve = {
    .name = "MatrixSolve", .input_names = "matrix,rhs", .min_inputs = 2, .max_inputs = 2,
    .attrs = {{"adjoint", MF_ATTR_BOOL}},
    .infer = solve_infer, .kernel = solve_kernel, .flags = 0,
    .doc = "X with matrix X = rhs (matrix^T X = rhs with adjoint), per matrix of the batch.",
    .tf_attrs = "T:0 adjoint=false",
};

/* ---- MatrixDeterminant ---- */

static mf_status det_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(check_float(c, 0, 1, err));
  MF_TRY(check_square(c, 0, "Input matrix must be square.", err));
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  const mf_spec *a = &c->in_specs[0];
  c->out_specs[0] = (mf_spec){.dtype = a->dtype, .rank = a->rank < 0 ? -1 : a->rank - 2};
  for (int d = 0; d < a->rank - 2; d++) c->out_specs[0].shape[d] = a->shape[d];
  return MF_OK;
}

/* TF's SLogDet, in the input's precision: sign from the pivots and the diagonal, magnitude
 * exp(sum log|u_ii|); a non-finite log makes the determinant 0 or inf. */
#define SLOGDET(NAME, T, ABS, LOG, EXP)                                                 \
  static T NAME(const T *lu, const int *ipiv, int n) {                                 \
    T sign = 1, log_abs = 0;                                                           \
    for (int i = 0; i < n; i++) {                                                      \
      T u = lu[(size_t)i * n + i];                                                     \
      if (ipiv[i] != i + 1) sign = -sign;                                              \
      log_abs += LOG(ABS(u));                                                          \
      sign *= u / ABS(u);                                                              \
    }                                                                                  \
    if (!isfinite(log_abs)) {                                                          \
      sign = 0;                                                                        \
      log_abs = log_abs > 0 ? INFINITY : -INFINITY;                                    \
    }                                                                                  \
    return sign * EXP(log_abs);                                                        \
  }
SLOGDET(slogdet_f, float, fabsf, logf, expf)
SLOGDET(slogdet_d, double, fabs, log, exp)

static mf_status det_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *a = c->in[0];
  int n;
  int64_t batches;
  if (!square_dims(a, &n, &batches)) return too_big(c, err);
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  if (n == 0) batches = out->size; /* an empty matrix's determinant is 1 */
  size_t es = mf_dtype_size(a->dtype);
  char *lu = NULL;
  int *ipiv = NULL;
  mf_status s = MF_OK;
  const mf_blas *blas = NULL;
  if (n > 0 && batches > 0) {
    s = mf_blas_load(&blas, err);
    if (s == MF_OK) s = mf_scratch_alloc((size_t)n * n, es, (void **)&lu, err);
    if (s == MF_OK) s = mf_scratch_alloc((size_t)n, sizeof(int), (void **)&ipiv, err);
  }
  for (int64_t bi = 0; s == MF_OK && bi < batches; bi++) {
    s = mf_interrupt_check(err);
    if (s != MF_OK) break;
    bool f32 = a->dtype == MF_FLOAT32;
    if (n > 0) {
      transpose(es, (const char *)mf_tensor_data(a) + (size_t)(bi * n * n) * es, n, n, lu);
      getrf(blas, a->dtype, n, lu, ipiv);
    }
    if (f32)
      ((float *)mf_tensor_data(out))[bi] = n ? slogdet_f((const float *)lu, ipiv, n) : 1;
    else
      ((double *)mf_tensor_data(out))[bi] = n ? slogdet_d((const double *)lu, ipiv, n) : 1;
  }
  free(lu);
  free(ipiv);
  return s;
}

const mf_op_def mf_op_MatrixDeterminant = {
    .name = "MatrixDeterminant", .input_names = "input", .min_inputs = 1, .max_inputs = 1,
    .infer = det_infer, .kernel = det_kernel, .flags = 0,
    .doc = "The determinant of each square matrix in the last two dims (LU with partial pivoting).",
    .tf_attrs = "T:0",
};

/* ---- Cholesky ---- */

static mf_status cholesky_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *a = c->in[0];
  int n;
  int64_t batches;
  if (!square_dims(a, &n, &batches)) return too_big(c, err);
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  if (!batches) return MF_OK;
  const mf_blas *blas;
  MF_TRY(mf_blas_load(&blas, err));
  (void)mf_blas_threads(); /* as getrf */
  size_t es = mf_dtype_size(a->dtype);
  char *w = NULL;
  mf_status s = mf_scratch_alloc((size_t)n * n, es, (void **)&w, err);
  for (int64_t bi = 0; s == MF_OK && bi < batches; bi++) {
    s = mf_interrupt_check(err);
    if (s != MF_OK) break;
    /* Eigen's LLT reads the lower triangle; so does potrf('L') of the
     * column-major copy. */
    transpose(es, (const char *)mf_tensor_data(a) + (size_t)(bi * n * n) * es, n, n, w);
    int info = 0;
    if (a->dtype == MF_FLOAT32)
      blas->spotrf_("L", &n, (float *)w, &n, &info, 1);
    else
      blas->dpotrf_("L", &n, (double *)w, &n, &info, 1);
    if (info != 0) {
      s = mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                       "Cholesky decomposition was not successful. The input might not be valid. "
                       "[Op:Cholesky]");
      break;
    }
    char *o = (char *)mf_tensor_data(out) + (size_t)(bi * n * n) * es;
    transpose(es, w, n, n, o);
    for (int i = 0; i < n; i++) memset(o + (size_t)(i * n + i + 1) * es, 0, (size_t)(n - i - 1) * es);
  }
  free(w);
  return s;
}

const mf_op_def mf_op_Cholesky = {
    .name = "Cholesky", .input_names = "input", .min_inputs = 1, .max_inputs = 1,
    .infer = square_same_infer, .kernel = cholesky_kernel, .flags = 0,
    .doc = "The lower-triangular L with L L^T = input, per matrix (reads the lower triangle).",
    .tf_attrs = "T:0",
};

/* ---- Svd ---- */

/* s, u, v of each M x N matrix, P = min(M, N): s [..., P] descending,
 * u [..., M, P] and v [..., N, P] (M x M and N x N with full_matrices);
 * without compute_uv, u and v are empty [0], as TF's kernel leaves them. */
static mf_status svd_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(check_float(c, 0, 1, err));
  const mf_spec *a = &c->in_specs[0];
  if (c->building && a->rank >= 0) MF_TRY(mf_sf_with_rank_at_least(a->rank, 2, err));
  if (a->rank >= 0 && a->rank < 2)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Input tensor 0 must have rank >= 2, got %d [Op:Svd]",
                        a->rank);
  bool uv = mf_attr_bool(c->attrs, "compute_uv", true);
  bool full = mf_attr_bool(c->attrs, "full_matrices", false);
  MF_TRY(mf_op_call_set_nout(c, 3, err));
  mf_spec *s = &c->out_specs[0], *u = &c->out_specs[1], *v = &c->out_specs[2];
  *s = *u = *v = (mf_spec){.dtype = a->dtype, .rank = -1};
  if (a->rank >= 0) {
    int r = a->rank;
    int64_t m = a->shape[r - 2], n = a->shape[r - 1];
    int64_t p = m < 0 || n < 0 ? (m == 0 || n == 0 ? 0 : -1) : (m < n ? m : n);
    s->rank = r - 1;
    u->rank = v->rank = r;
    for (int d = 0; d < r - 2; d++) s->shape[d] = u->shape[d] = v->shape[d] = a->shape[d];
    s->shape[r - 2] = p;
    u->shape[r - 2] = m;
    u->shape[r - 1] = full ? m : p;
    v->shape[r - 2] = n;
    v->shape[r - 1] = full ? n : p;
  }
  if (!uv) {
    *u = *v = (mf_spec){.dtype = a->dtype, .rank = 1};
    u->shape[0] = v->shape[0] = 0;
  }
  return MF_OK;
}

static void set_identity(mf_dtype dt, void *dst, int64_t n) {
  memset(dst, 0, (size_t)(n * n) * mf_dtype_size(dt));
  for (int64_t i = 0; i < n; i++) {
    if (dt == MF_FLOAT32)
      ((float *)dst)[i * n + i] = 1;
    else
      ((double *)dst)[i * n + i] = 1;
  }
}

static void set_nan(mf_dtype dt, void *dst, int64_t count) {
  for (int64_t i = 0; i < count; i++) {
    if (dt == MF_FLOAT32)
      ((float *)dst)[i] = NAN;
    else
      ((double *)dst)[i] = NAN;
  }
}

static bool all_finite(mf_dtype dt, const void *x, int64_t count) {
  for (int64_t i = 0; i < count; i++)
    if (!isfinite(dt == MF_FLOAT32 ? ((const float *)x)[i] : ((const double *)x)[i])) return false;
  return true;
}

/* One gesdd call (lwork = -1: the workspace query into *work). */
static int gesdd(const mf_blas *b, mf_dtype dt, char job, int m, int n, void *a, void *s, void *u,
                 int ldu, void *vt, int ldvt, void *work, int lwork, int *iwork) {
  int info = 0, lda = m > 1 ? m : 1;
  if (dt == MF_FLOAT32)
    b->sgesdd_(&job, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, iwork, &info, 1);
  else
    b->dgesdd_(&job, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, iwork, &info, 1);
  return info;
}

static mf_status svd_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *a = c->in[0];
  mf_dtype dt = a->dtype;
  bool uv = mf_attr_bool(c->attrs, "compute_uv", true);
  bool full = mf_attr_bool(c->attrs, "full_matrices", false);
  int r = a->rank;
  int64_t m64 = a->shape[r - 2], n64 = a->shape[r - 1], batches = 1;
  for (int d = 0; d < r - 2; d++) batches *= a->shape[d];
  if (m64 > 46340 || n64 > 46340) return too_big(c, err);
  int m = (int)m64, n = (int)n64, p = m < n ? m : n;
  /* Row-major A is column-major A^T (N x M), whose SVD is V S U^T: LAPACK's
   * "u" of it is our v (transposed back), its "vt" is our u as it is. */
  int ucols = full ? m : p, vcols = full ? n : p;
  mf_tensor *so, *uo, *vo;
  MF_TRY(mf_op_alloc_output(c, 0, &so, err));
  MF_TRY(mf_op_alloc_output(c, 1, &uo, err));
  MF_TRY(mf_op_alloc_output(c, 2, &vo, err));
  size_t es = mf_dtype_size(dt);
  char *sd = mf_tensor_data(so), *ud = mf_tensor_data(uo), *vd = mf_tensor_data(vo);
  if (p == 0 || batches == 0) {
    for (int64_t bi = 0; uv && full && bi < batches; bi++) {
      set_identity(dt, ud + (size_t)(bi * m * m) * es, m);
      set_identity(dt, vd + (size_t)(bi * n * n) * es, n);
    }
    return MF_OK;
  }
  const mf_blas *blas;
  MF_TRY(mf_blas_load(&blas, err));
  (void)mf_blas_threads(); /* as getrf */
  char job = !uv ? 'N' : full ? 'A' : 'S';
  int ldu = n, ldvt = full ? m : p;
  char *w = NULL, *lu = NULL, *lvt = NULL, *work = NULL;
  int *iwork = NULL;
  mf_status s = mf_scratch_alloc((size_t)m * n, es, (void **)&w, err);
  if (s == MF_OK) s = mf_scratch_alloc((size_t)n * vcols, es, (void **)&lu, err);
  if (s == MF_OK) s = mf_scratch_alloc((size_t)ldvt * m, es, (void **)&lvt, err);
  if (s == MF_OK) s = mf_scratch_alloc((size_t)8 * p, sizeof(int), (void **)&iwork, err);
  int lwork = 0;
  if (s == MF_OK) {
    double q[1];
    float qf[1];
    gesdd(blas, dt, job, n, m, w, sd, lu, ldu, lvt, ldvt, dt == MF_FLOAT32 ? (void *)qf : (void *)q, -1,
          iwork);
    lwork = (int)(dt == MF_FLOAT32 ? qf[0] : q[0]) + 1;
    s = mf_scratch_alloc((size_t)lwork, es, (void **)&work, err);
  }
  for (int64_t bi = 0; s == MF_OK && bi < batches; bi++) {
    s = mf_interrupt_check(err);
    if (s != MF_OK) break;
    memcpy(w, (const char *)mf_tensor_data(a) + (size_t)(bi * m * n) * es, (size_t)m * n * es);
    char *sb = sd + (size_t)(bi * p) * es;
    char *ub = uv ? ud + (size_t)(bi * m * ucols) * es : NULL;
    char *vb = uv ? vd + (size_t)(bi * n * vcols) * es : NULL;
    int info = all_finite(dt, w, (int64_t)m * n) ? gesdd(blas, dt, job, n, m, w, sb, lu, ldu, lvt, ldvt, work, lwork, iwork) : -1;
    if (info != 0) {
      /* NaN or inf in the matrix (LAPACK refuses NaN and turns inf into
       * garbage), or no convergence: NaN throughout, as TF's CPU kernel. */
      set_nan(dt, sb, p);
      if (uv) {
        set_nan(dt, ub, (int64_t)m * ucols);
        set_nan(dt, vb, (int64_t)n * vcols);
      }
      continue;
    }
    if (uv) {
      memcpy(ub, lvt, (size_t)m * ucols * es);
      transpose(es, lu, vcols, n, vb);
    }
  }
  free(w);
  free(lu);
  free(lvt);
  free(work);
  free(iwork);
  return s;
}

const mf_op_def mf_op_Svd = {
    .name = "Svd", .input_names = "input", .min_inputs = 1, .max_inputs = 1,
    .attrs = {{"compute_uv", MF_ATTR_BOOL}, {"full_matrices", MF_ATTR_BOOL}},
    .infer = svd_infer, .kernel = svd_kernel, .flags = 0,
    .doc = "The singular values s (descending) and vectors u, v with input = u diag(s) v^T, per matrix.",
    .tf_attrs = "T:0 compute_uv=true full_matrices=false",
};
