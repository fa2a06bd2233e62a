/* sgemm.c — the direct-OpenBLAS peer of benchmark 3 (tests/bench/run.sh).
 *
 *   sgemm N...
 *
 * For each N: C = A·B on N×N row-major float32 matrices with uniform values
 * in [0, 1), one cblas_sgemm call into a preallocated C, the best repeat (and
 * the median, and the best process CPU time) after a warm-up call (the same repeat counts as bench.lua's). The thread
 * count is OpenBLAS's own (OPENBLAS_NUM_THREADS), as for moonflow, which
 * links the same library; the line "@ sgemm.N.tT.cblas seconds" names it.
 * A 64×64 product is checked against a naive loop first, so a kernel that
 * computes wrong results on this processor is reported, not timed. */
#define _POSIX_C_SOURCE 200809L
#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

extern char *openblas_get_corename(void);
extern int openblas_get_num_threads(void);

static double clock_s(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static float *matrix(long n, unsigned *seed) {
  float *m = malloc((size_t)(n * n) * sizeof *m);
  if (!m) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  for (long i = 0; i < n * n; i++) m[i] = (float)rand_r(seed) / ((float)RAND_MAX + 1.0f);
  return m;
}

static int check(void) {
  enum { N = 64 };
  unsigned seed = 7;
  float *a = matrix(N, &seed), *b = matrix(N, &seed), *c = matrix(N, &seed);
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, N, N, N, 1.0f, a, N, b, N, 0.0f, c, N);
  double worst = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double s = 0;
      for (int k = 0; k < N; k++) s += (double)a[i * N + k] * b[k * N + j];
      worst = fmax(worst, fabs(s - c[i * N + j]));
    }
  free(a);
  free(b);
  free(c);
  return worst < 1e-3;
}

int main(int argc, char **argv) {
  int threads = openblas_get_num_threads();
  printf("# OpenBLAS core %s, %d threads\n", openblas_get_corename(), threads);
  if (!check()) {
    printf("# cblas_sgemm gives wrong results with this kernel: not timed\n");
    return 1;
  }
  for (int i = 1; i < argc; i++) {
    long n = atol(argv[i]);
    unsigned seed = 1;
    float *a = matrix(n, &seed), *b = matrix(n, &seed), *c = matrix(n, &seed);
    int reps = n <= 256 ? 15 : n <= 1024 ? 9 : 5;
    int inner = n <= 256 ? 20 : 1;
    double t[16], cpu[16];
    for (int r = -1; r < reps; r++) {
      double c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID), t0 = clock_s(CLOCK_MONOTONIC);
      for (int k = 0; k < inner; k++)
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)n, (int)n, (int)n, 1.0f, a,
                    (int)n, b, (int)n, 0.0f, c, (int)n);
      double t1 = clock_s(CLOCK_MONOTONIC), c1 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
      if (r >= 0) {
        t[r] = (t1 - t0) / inner;
        cpu[r] = (c1 - c0) / inner;
      }
    }
    qsort(t, (size_t)reps, sizeof t[0], cmp);
    qsort(cpu, (size_t)reps, sizeof cpu[0], cmp);
    printf("@ sgemm.%ld.t%d.cblas %.9g\n", n, threads, t[0]);
    printf("@ sgemm.%ld.t%d.cblas.median %.9g\n", n, threads, t[reps / 2]);
    printf("@ sgemm.%ld.t%d.cblas.cpu %.9g\n", n, threads, cpu[0]);
    free(a);
    free(b);
    free(c);
  }
  return 0;
}
