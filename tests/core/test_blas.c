/* test_blas.c — OpenBLAS loaded at first use (core/run/blas.h): first
 * uses from several threads at once all get the one library and right
 * products; the environment is left as it was (moonflow's choice is not
 * passed on to programs the process starts); the kernel is described.
 * The choice itself, the fallback and a user's OPENBLAS_CORETYPE are
 * tested through every way moonflow runs in tests/blas/test_blas.sh. */
#include "check.h"

#include <pthread.h>
#include <stdlib.h>

#include "blas.h"
#include "kernel_util.h"

enum { THREADS = 4, N = 48 };

typedef struct worker {
  float a[N * N], b[N * N], c[N * N];
  mf_status status;
  const mf_blas *blas;
} worker;

/* Each thread's first BLAS use is a product: whichever thread comes first
 * loads the library while the others wait for it. */
static void *first_use(void *p) {
  worker *w = p;
  mf_error err;
  w->status = mf_gemm(MF_FLOAT32, false, false, N, N, N, w->a, N, w->b, N, false, w->c, N, &err);
  if (w->status == MF_OK) w->status = mf_blas_load(&w->blas, &err);
  return NULL;
}

static void test_first_use_from_threads(void) {
  const char *was = getenv("OPENBLAS_CORETYPE");
  worker *w = calloc(THREADS, sizeof *w);
  pthread_t t[THREADS];
  unsigned seed = 5;
  for (int i = 0; i < THREADS; i++)
    for (int k = 0; k < N * N; k++) {
      seed = seed * 1103515245u + 12345u;
      w[i].a[k] = (float)(seed >> 16 & 0xff) / 256.0f - 0.5f;
      w[i].b[k] = (float)(seed >> 8 & 0xff) / 256.0f - 0.5f;
    }
  for (int i = 0; i < THREADS; i++) CHECK(pthread_create(&t[i], NULL, first_use, &w[i]) == 0);
  for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
  for (int i = 0; i < THREADS; i++) {
    CHECK(w[i].status == MF_OK);
    CHECK(w[i].blas != NULL && w[i].blas == w[0].blas);
    double worst = 0;
    for (int r = 0; r < N; r++)
      for (int c = 0; c < N; c++) {
        double s = 0;
        for (int k = 0; k < N; k++) s += (double)w[i].a[r * N + k] * w[i].b[k * N + c];
        worst = fmax(worst, fabs(s - w[i].c[r * N + c]));
      }
    CHECK(worst < 1e-4);
  }
  /* OPENBLAS_CORETYPE is as it was: moonflow sets it only while loading */
  const char *now = getenv("OPENBLAS_CORETYPE");
  CHECK((was == NULL) == (now == NULL));
  if (was && now) CHECK(strcmp(was, now) == 0);
  free(w);
}

static void test_describes_the_kernel(void) {
  mf_blas_info info;
  mf_error err;
  CHECK(mf_blas_describe(&info, &err) == MF_OK);
  const mf_blas *b;
  CHECK(mf_blas_load(&b, &err) == MF_OK);
  CHECK(strcmp(info.kernel, b->openblas_get_corename()) == 0);
  CHECK(info.reason[0] != '\0');
  CHECK(strstr(info.library, "openblas") != NULL);
  CHECK(info.seconds > 0 && info.seconds < 60);
  printf("# kernel %s (%s), %s, first use %.1f ms\n", info.kernel, info.reason, info.library,
         info.seconds * 1e3);
}

int main(void) {
  RUN(test_first_use_from_threads);
  RUN(test_describes_the_kernel);
  return CHECK_DONE();
}
