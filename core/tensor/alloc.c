#include "alloc.h"

#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

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

/* ---- the large-block cache (alloc.h) ---- */

#ifdef __SANITIZE_ADDRESS__
#define BLOCK_SLOTS 0
#else
#define BLOCK_SLOTS MF_BLOCK_CACHE_SLOTS
#endif

/* slots[0] was given back first, slots[n - 1] last; stamp orders blocks
 * by when they were last handed out. */
static struct {
  pthread_mutex_t lock;
  int n;
  size_t bytes;
  uint64_t issued;
  struct {
    void *p;
    size_t n;
    uint64_t stamp;
  } slots[MF_BLOCK_CACHE_SLOTS + 1];
} blocks = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* A fork while another thread holds the lock would leave the child's copy
 * locked for good: the lock is taken around fork and released on both
 * sides (the child has only the forking thread). */
static pthread_once_t blocks_once = PTHREAD_ONCE_INIT;
static void blocks_unlock(void) { pthread_mutex_unlock(&blocks.lock); }
static void blocks_lock_raw(void) { pthread_mutex_lock(&blocks.lock); }
static void blocks_init(void) { pthread_atfork(blocks_lock_raw, blocks_unlock, blocks_unlock); }
static void blocks_lock(void) {
  pthread_once(&blocks_once, blocks_init);
  pthread_mutex_lock(&blocks.lock);
}

/* Drops slots [0, k) (the oldest) from the table; the caller frees them. */
static void blocks_shift(int k) {
  for (int i = 0; i < k; i++) blocks.bytes -= blocks.slots[i].n;
  memmove(blocks.slots, blocks.slots + k, (size_t)(blocks.n - k) * sizeof blocks.slots[0]);
  blocks.n -= k;
}

/* Under the lock: moves the oldest blocks, at least `want` bytes of them
 * (all when want is SIZE_MAX), to out[]; returns how many. */
static int blocks_evict(size_t want, void **out) {
  int k = 0;
  size_t got = 0;
  while (k < blocks.n && got < want) {
    out[k] = blocks.slots[k].p;
    got += blocks.slots[k++].n;
  }
  blocks_shift(k);
  return k;
}

static void free_all(void **p, int k) {
  for (int i = 0; i < k; i++) free(p[i]);
}

int mf_block_take(void **out, size_t n, uint64_t *stamp) {
  *out = NULL;
  void *evicted[MF_BLOCK_CACHE_SLOTS + 1];
  int k = 0;
  if (BLOCK_SLOTS && n >= MF_BLOCK_CACHE_MIN) {
    blocks_lock();
    *stamp = ++blocks.issued;
    int best = -1;
    for (int i = 0; i < blocks.n; i++)
      if (blocks.slots[i].n == n && (best < 0 || blocks.slots[i].stamp > blocks.slots[best].stamp))
        best = i;
    if (best >= 0) {
      int fail = inject();
      if (!fail) {
        *out = blocks.slots[best].p;
        blocks.bytes -= n;
        memmove(blocks.slots + best, blocks.slots + best + 1,
                (size_t)(blocks.n - best - 1) * sizeof blocks.slots[0]);
        blocks.n--;
      }
      blocks_unlock();
      return fail ? 12 /* ENOMEM */ : 0;
    }
    k = blocks_evict(n, evicted);
    blocks_unlock();
  } else {
    *stamp = 0;
  }
  free_all(evicted, k); /* before asking for more */
  return mf_posix_memalign(out, 64, n);
}

void mf_block_give(void *p, size_t n, uint64_t stamp) {
  if (!p) return;
  if (!BLOCK_SLOTS || n < MF_BLOCK_CACHE_MIN || n > MF_BLOCK_CACHE_BYTES) {
    free(p);
    return;
  }
  void *evicted[MF_BLOCK_CACHE_SLOTS + 1];
  int k = 0;
  blocks_lock();
  blocks.slots[blocks.n].p = p;
  blocks.slots[blocks.n].stamp = stamp;
  blocks.slots[blocks.n++].n = n;
  blocks.bytes += n;
  /* The newest block alone fits both bounds, so this stops before it. */
  size_t bytes = blocks.bytes;
  while (blocks.n - k > BLOCK_SLOTS || bytes > MF_BLOCK_CACHE_BYTES) {
    evicted[k] = blocks.slots[k].p;
    bytes -= blocks.slots[k++].n;
  }
  blocks_shift(k);
  blocks_unlock();
  free_all(evicted, k);
}

size_t mf_block_cache_bytes(void) {
  blocks_lock();
  size_t b = blocks.bytes;
  blocks_unlock();
  return b;
}

void mf_block_cache_drain(void) {
  void *evicted[MF_BLOCK_CACHE_SLOTS + 1];
  blocks_lock();
  int k = blocks_evict(SIZE_MAX, evicted);
  blocks_unlock();
  free_all(evicted, k);
}

static void trim(void) {
  mf_block_cache_drain();
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
#ifdef MADV_HUGEPAGE
  if (n >= MF_HUGE_PAGE_MIN && align <= MF_HUGE_PAGE) {
    int rc = posix_memalign(out, MF_HUGE_PAGE, n);
    /* Advice only: without transparent huge pages, or refused, the block
     * is as any other. */
    if (rc == 0) (void)madvise(*out, n, MADV_HUGEPAGE);
    return rc;
  }
#endif
  return posix_memalign(out, align, n);
}
