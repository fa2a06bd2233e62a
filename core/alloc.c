#include "alloc.h"

#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static _Atomic int64_t count;
static _Atomic int64_t fail_at;  /* count value that fails; 0: none */
static _Atomic int sticky, failed;
static pthread_once_t env_once = PTHREAD_ONCE_INIT;

static void read_env(void) {
  const char *e = getenv("MOONFLOW_FAIL_ALLOC");
  if (e && *e) mf_alloc_fail_after(strtoll(e, NULL, 10), 0);
}

/* True when this allocation is to fail. */
static int inject(void) {
  pthread_once(&env_once, read_env);
  int64_t n = atomic_fetch_add(&count, 1) + 1;
  int64_t at = atomic_load(&fail_at);
  if (at == 0 || n < at || (n > at && !atomic_load(&sticky))) return 0;
  atomic_store(&failed, 1);
  return 1;
}

void mf_alloc_fail_after(int64_t n, int s) {
  pthread_once(&env_once, read_env);
  atomic_store(&sticky, s);
  atomic_store(&failed, 0);
  atomic_store(&fail_at, n > 0 ? atomic_load(&count) + n : 0);
}

int64_t mf_alloc_count(void) { return atomic_load(&count); }
int mf_alloc_failed(void) { return atomic_load(&failed); }

int mf_alloc_inject(void) { return inject(); }

#define TRIM_BYTES ((size_t)1 << 20)
static _Atomic size_t freed_since_trim;
/* Bytes of other frees that may still trim: earned by freeing graphs. */
static _Atomic long long trim_credit;

static void trim(void) {
  atomic_store(&freed_since_trim, 0);
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

void mf_alloc_note_freed(size_t n) {
  if (atomic_fetch_add(&freed_since_trim, n) + n < TRIM_BYTES || atomic_load(&trim_credit) <= 0)
    return;
  atomic_fetch_sub(&trim_credit, (long long)TRIM_BYTES);
  trim();
}

void mf_alloc_freed_graph(size_t n) {
  atomic_fetch_add(&trim_credit, 16 * (long long)n);
  if (atomic_fetch_add(&freed_since_trim, n) + n >= TRIM_BYTES) trim();
}

void *mf_malloc(size_t n) { return inject() ? NULL : malloc(n); }
void *mf_calloc(size_t c, size_t n) { return inject() ? NULL : calloc(c, n); }
void *mf_realloc(void *p, size_t n) { return inject() ? NULL : realloc(p, n); }

char *mf_strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *c = mf_malloc(n);
  if (c) memcpy(c, s, n);
  return c;
}

int mf_posix_memalign(void **out, size_t align, size_t n) {
  if (inject()) return 12; /* ENOMEM */
  return posix_memalign(out, align, n);
}
