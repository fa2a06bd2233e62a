/* kernel_util.h — helpers shared by the compute kernels (ops_linalg.c,
 * ops_conv.c, ops_nn.c, ops_image.c): the one GEMM, scratch memory, and
 * TensorFlow's way of printing shapes and broadcasting dimensions in
 * inference.
 *
 * The GEMM (gemm.c) is row-major throughout. float32/float64 go to
 * OpenBLAS (cblas_sgemm / cblas_dgemm); int32/int64 go to a plain loop that
 * wraps on overflow as TensorFlow's integer kernels do. When moonflow's
 * thread pool has more than one thread, it runs the GEMMs' threads and
 * OpenBLAS is set to one thread (see gemm.c for why). */
#ifndef MF_KERNEL_UTIL_H
#define MF_KERNEL_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dtype.h"
#include "error.h"

/* C[m,n] = op(A)[m,k] * op(B)[k,n], or C += that product when `accumulate`.
 * op(X) is X or its transpose; lda/ldb/ldc are the row strides (in
 * elements) of A, B and C as stored. Borrows everything; writes C only.
 * Fails with InvalidArgumentError for a dtype without a GEMM and
 * ResourceExhaustedError for dimensions beyond what BLAS can index.
 * Integer products poll the interrupt flag between rows. */
mf_status mf_gemm(mf_dtype dt, bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k,
                  const void *a, int64_t lda, const void *b, int64_t ldb, bool accumulate,
                  void *c, int64_t ldc, mf_error *err);

/* How many threads a BLAS-backed kernel (GEMM, Winograd, LAPACK) may share
 * its work over: moonflow's pool's size when above 1 (OpenBLAS is then
 * held at one thread, from the first call of this or mf_gemm on, and its
 * LAPACK routines run on one), else 1 (OpenBLAS's own threads, as many as
 * it was given, run inside each call). Call it before any OpenBLAS call. */
int mf_blas_threads(void);

/* count * elem bytes of 64-byte-aligned, uninitialised scratch memory, with
 * the product checked for overflow; free with free(). Never reported to the
 * allocation hook: scratch lives only while one kernel runs. */
mf_status mf_scratch_alloc(size_t count, size_t elem, void **out, mf_error *err);

/* TensorFlow's TensorShape::DebugString, used in its error messages:
 * "[2,3]", "[]", unknown dims as "?", unknown rank as "<unknown>". */
void mf_shape_debug(int rank, const int64_t *shape, char *buf, size_t n);

/* TF's SliceDebugString, in its index errors: the multi-index of flat
 * position `flat` in a tensor of `shape` — "" for a scalar, "[7]" for a
 * vector, "[0,1]" above. */
void mf_index_debug(int rank, const int64_t *shape, int64_t flat, char *buf, size_t n);

/* One dimension of a broadcast in shape inference, where -1 is unknown:
 * 1 yields to the other side, equal sizes agree, and an unknown side
 * facing a known size other than 1 must match it. False when the two known
 * sizes cannot broadcast. */
bool mf_broadcast_dim(int64_t a, int64_t b, int64_t *out);

#endif
