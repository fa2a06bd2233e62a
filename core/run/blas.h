/* blas.h — moonflow's one door to BLAS and LAPACK: OpenBLAS, loaded with
 * dlopen at first use, and the kernel it runs, chosen before it loads.
 *
 * Why loaded at run time. OpenBLAS picks its kernel (Prescott, Haswell,
 * SkylakeX, ...) once, in its constructor, from OPENBLAS_CORETYPE or its
 * own CPU detection; Debian's 0.3.21 does not know newer CPUs and falls
 * back to the generic Prescott kernel, up to 10x slower. Linked as a
 * DT_NEEDED library it would initialise before any moonflow code runs, so
 * nothing moonflow decides could reach it. Loaded here instead, at the
 * first BLAS or LAPACK call (from any thread; once, pthread_once):
 *
 *   1. OPENBLAS_CORETYPE set (non-empty) in the environment: the user's
 *      choice, loaded as it is; nothing is checked or changed.
 *   2. Otherwise cpuid names the best kernels the CPU supports (AVX-512
 *      F/BW/VL/DQ: SkylakeX, Cooperlake first with AVX512_BF16; AVX2+FMA:
 *      Haswell, whatever the vendor; AVX: Sandybridge; else Prescott). Each
 *      candidate, best first, is tried in a forked child (the choice cannot
 *      be undone once the library is loaded): OPENBLAS_CORETYPE set there,
 *      OpenBLAS loaded, small sgemm and dgemm products compared with a
 *      naive loop. The first that loads under its own name and computes
 *      right is loaded in this process; wrong results, a fault or a hang
 *      move on to the next (AVX-512 -> AVX2 -> Prescott).
 *   3. OpenBLAS already in the process (a host program linked it): its
 *      choice stands, whatever it was.
 *
 * Test switch: MOONFLOW_BLAS_FAIL_CHECK=Name[,Name:fault...] makes the
 * self-check of each named kernel give wrong results (or, with ":fault",
 * die of SIGSEGV), so tests can watch the fallback.
 *
 * Programs embedding libmoonflow.a link -ldl (glibc < 2.34) and -lpthread,
 * never -lopenblas; libopenblas.so.0 must be installed at run time. */
#ifndef MF_BLAS_H
#define MF_BLAS_H

#include <cblas.h>
#include <stddef.h>

#include "error.h"

/* LAPACK's Fortran entry points (32-bit integers); the trailing size_t is
 * gfortran's hidden length of a character argument. */
typedef void mf_lapack_getrf_s(const int *m, const int *n, float *a, const int *lda, int *ipiv,
                               int *info);
typedef void mf_lapack_getrf_d(const int *m, const int *n, double *a, const int *lda, int *ipiv,
                               int *info);
typedef void mf_lapack_getrs_s(const char *trans, const int *n, const int *nrhs, const float *a,
                               const int *lda, const int *ipiv, float *b, const int *ldb,
                               int *info, size_t trans_len);
typedef void mf_lapack_getrs_d(const char *trans, const int *n, const int *nrhs, const double *a,
                               const int *lda, const int *ipiv, double *b, const int *ldb,
                               int *info, size_t trans_len);
typedef void mf_lapack_potrf_s(const char *uplo, const int *n, float *a, const int *lda,
                               int *info, size_t uplo_len);
typedef void mf_lapack_potrf_d(const char *uplo, const int *n, double *a, const int *lda,
                               int *info, size_t uplo_len);

typedef void mf_lapack_gesdd_s(const char *jobz, const int *m, const int *n, float *a,
                               const int *lda, float *s, float *u, const int *ldu, float *vt,
                               const int *ldvt, float *work, const int *lwork, int *iwork,
                               int *info, size_t jobz_len);
typedef void mf_lapack_gesdd_d(const char *jobz, const int *m, const int *n, double *a,
                               const int *lda, double *s, double *u, const int *ldu, double *vt,
                               const int *ldvt, double *work, const int *lwork, int *iwork,
                               int *info, size_t jobz_len);

/* Every BLAS, LAPACK and OpenBLAS function moonflow calls, resolved with
 * dlsym; the cblas ones have exactly cblas.h's types. */
typedef struct mf_blas {
  __typeof__(cblas_sgemm) *cblas_sgemm;
  __typeof__(cblas_dgemm) *cblas_dgemm;
  mf_lapack_getrf_s *sgetrf_;
  mf_lapack_getrf_d *dgetrf_;
  mf_lapack_getrs_s *sgetrs_;
  mf_lapack_getrs_d *dgetrs_;
  mf_lapack_potrf_s *spotrf_;
  mf_lapack_potrf_d *dpotrf_;
  mf_lapack_gesdd_s *sgesdd_;
  mf_lapack_gesdd_d *dgesdd_;
  __typeof__(openblas_set_num_threads) *openblas_set_num_threads;
  __typeof__(openblas_get_num_threads) *openblas_get_num_threads;
  __typeof__(openblas_get_corename) *openblas_get_corename;
  __typeof__(openblas_get_config) *openblas_get_config;
} mf_blas;

/* The functions, loading OpenBLAS (and choosing its kernel) at the first
 * call; any thread, any number of times. *out stays valid for the
 * process. FailedPreconditionError when the library or one of its
 * functions cannot be found (the message names it). */
mf_status mf_blas_load(const mf_blas **out, mf_error *err);

/* The kernel in use and why, once loaded (each call loads as above). All
 * strings are static. */
typedef struct mf_blas_info {
  const char *kernel;  /* openblas_get_corename(): "SkylakeX", "Haswell", ... */
  const char *reason;  /* "OPENBLAS_CORETYPE set by the user", "chosen for avx512f,...; verified",
                          "fell back from SkylakeX: self-check failed (...); ..." */
  const char *library; /* the file loaded */
  const char *config;  /* openblas_get_config() */
  const char *cpu;     /* the CPU's vendor and the features the choice read */
  double seconds;      /* what the first use cost: choice, self-checks and loading */
} mf_blas_info;

mf_status mf_blas_describe(mf_blas_info *out, mf_error *err);

#endif
