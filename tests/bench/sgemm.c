/* sgemm.c — the direct-OpenBLAS peer of benchmark 3 (tests/bench/run.sh).
 *
 *   sgemm N...                    OpenBLAS's kernel as the environment gives it
 *   sgemm --forced N...           the kernel OPENBLAS_CORETYPE names
 *   sgemm --forced --probe        check it, time one 512² product
 *
 * For each N: C = A·B on N×N row-major float32 matrices with uniform values
 * in [0, 1), one cblas_sgemm call into a preallocated C, the best repeat (and
 * the median, and the best process CPU time) after a warm-up call (the same
 * repeat counts as bench.lua's). The thread count is OpenBLAS's own
 * (OPENBLAS_NUM_THREADS). Lines "@ sgemm.N.tT.cblas seconds" without
 * --forced, "@ sgemm.N.tT.cblas.k.KERNEL seconds" with it; "@
 * sgemm.kernel.cblas KERNEL" names the kernel (a word, not a figure)
 * without --forced; with it the key does.
 *
 * A 64×64 product is checked against a naive loop first, so a kernel that
 * computes wrong results on this processor is reported, not timed (status
 * 1); one that crashes dies of its signal. --forced refuses (status 2) when
 * OpenBLAS loaded another kernel than OPENBLAS_CORETYPE names: it does not
 * offer that one (it detects instead), and the figure would be another
 * kernel's. run.sh probes each candidate kernel this way and times those
 * that verify: the best of them is "the best kernel the machine supports". */
#define _POSIX_C_SOURCE 200809L
#include <cblas.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
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

/* Best of ten 512² products, seconds: on a shared machine, enough for one
 * to run undisturbed. */
static double probe(void) {
  enum { N = 512 };
  unsigned seed = 1;
  float *a = matrix(N, &seed), *b = matrix(N, &seed), *c = matrix(N, &seed);
  double best = 1e30;
  for (int r = 0; r < 11; r++) {
    double t0 = clock_s(CLOCK_MONOTONIC);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, N, N, N, 1.0f, a, N, b, N, 0.0f, c, N);
    double t = clock_s(CLOCK_MONOTONIC) - t0;
    if (r > 0 && t < best) best = t; /* the first call warms up */
  }
  free(a);
  free(b);
  free(c);
  return best;
}

int main(int argc, char **argv) {
  int threads = openblas_get_num_threads();
  const char *core = openblas_get_corename();
  bool forced = false, probing = false;
  int first = 1;
  for (; first < argc && strncmp(argv[first], "--", 2) == 0; first++) {
    if (strcmp(argv[first], "--forced") == 0) forced = true;
    else if (strcmp(argv[first], "--probe") == 0) probing = true;
  }
  printf("# OpenBLAS core %s, %d threads\n", core, threads);
  const char *want = getenv("OPENBLAS_CORETYPE");
  if (forced && (!want || strcasecmp(want, core) != 0)) {
    printf("# OPENBLAS_CORETYPE=%s is not offered by this OpenBLAS (it loaded %s)\n",
           want ? want : "", core);
    return 2;
  }
  if (!check()) {
    printf("# cblas_sgemm gives wrong results with this kernel: not timed\n");
    return 1;
  }
  if (!forced) printf("@ sgemm.kernel.cblas %s\n", core);
  if (probing) {
    printf("@ probe.%s %.9g\n", core, probe());
    return 0;
  }
  char suffix[64] = "";
  if (forced) snprintf(suffix, sizeof suffix, ".k.%s", core);
  for (int i = first; i < argc; i++) {
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
    printf("@ sgemm.%ld.t%d.cblas%s %.9g\n", n, threads, suffix, t[0]);
    printf("@ sgemm.%ld.t%d.cblas%s.median %.9g\n", n, threads, suffix, t[reps / 2]);
    printf("@ sgemm.%ld.t%d.cblas%s.cpu %.9g\n", n, threads, suffix, cpu[0]);
    free(a);
    free(b);
    free(c);
  }
  return 0;
}
