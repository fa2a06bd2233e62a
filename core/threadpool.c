#include "threadpool.h"

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

enum { MAX_THREADS = 16, CHUNKS_PER_THREAD = 8 };

/* Below this much work left (estimated from the first chunk), waking a
 * worker costs more than it saves. */
#define WORTH_NS 50000.0

/* The loop being run. Threads take chunks of `chunk` elements from `next`
 * until none is left; a worker that wakes late finds none and goes back to
 * sleep, so a busy CPU never holds the caller up for more than the chunk
 * its worker already took. */
static struct {
  pthread_mutex_t lock;     /* guards everything below but `next` */
  pthread_cond_t work;      /* a new loop was posted */
  pthread_cond_t done;      /* running reached 0 */
  pthread_mutex_t busy;     /* held by the one caller running a loop */
  int nthreads;             /* caller included */
  bool forked;              /* in a child of fork(): run inline */
  unsigned long gen;        /* loops posted */
  bool open;                /* the posted loop still takes workers */
  int joined, running;      /* workers that took part / still in it */
  int64_t n, chunk;
  int64_t next;             /* the next chunk's start (atomic) */
  int backoff, skip;        /* loops to run inline after a slow one (under `busy`) */
  mf_parallel_fn fn;
  void *ctx;
} pool = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .work = PTHREAD_COND_INITIALIZER,
    .done = PTHREAD_COND_INITIALIZER,
    .busy = PTHREAD_MUTEX_INITIALIZER,
};

static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Runs chunks of the current loop as part `part` until none is left. */
static void take_chunks(mf_parallel_fn fn, void *ctx, int64_t n, int64_t chunk, int part) {
  for (;;) {
    int64_t b = __atomic_fetch_add(&pool.next, chunk, __ATOMIC_RELAXED);
    if (b >= n) return;
    fn(ctx, b, b + chunk < n ? b + chunk : n, part);
  }
}

static void *worker(void *arg) {
  (void)arg;
  unsigned long seen = 0;
  pthread_mutex_lock(&pool.lock);
  for (;;) {
    while (pool.gen == seen) pthread_cond_wait(&pool.work, &pool.lock);
    seen = pool.gen;
    if (!pool.open || pool.joined + 1 >= pool.nthreads) continue;
    int part = ++pool.joined;
    pool.running++;
    mf_parallel_fn fn = pool.fn;
    void *ctx = pool.ctx;
    int64_t n = pool.n, chunk = pool.chunk;
    pthread_mutex_unlock(&pool.lock);
    take_chunks(fn, ctx, n, chunk, part);
    pthread_mutex_lock(&pool.lock);
    if (--pool.running == 0) pthread_cond_signal(&pool.done);
  }
  return NULL;
}

/* The child of a fork has none of the workers: it runs loops inline. */
static void after_fork_child(void) {
  pthread_mutex_init(&pool.lock, NULL);
  pthread_mutex_init(&pool.busy, NULL);
  pthread_cond_init(&pool.work, NULL);
  pthread_cond_init(&pool.done, NULL);
  pool.forked = true;
  pool.nthreads = 1;
}

static void create(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  const char *env = getenv("MOONFLOW_NUM_THREADS");
  if (env && *env) n = strtol(env, NULL, 10);
  if (n < 1) n = 1;
  if (n > MAX_THREADS) n = MAX_THREADS;
  pool.nthreads = 1;
  if (n == 1) return;
  pthread_atfork(NULL, NULL, after_fork_child);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  /* Workers block every signal (they inherit the mask): a Ctrl-C reaches
   * a thread of the host, whose handler sets the interrupt flag. */
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  for (long w = 1; w < n; w++) {
    pthread_t t;
    if (pthread_create(&t, &attr, worker, NULL) != 0) break;
    pool.nthreads++;
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  pthread_attr_destroy(&attr);
}

int mf_threadpool_size(void) {
  pthread_once(&once, create);
  return pool.nthreads;
}

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

int mf_parallel_for(int64_t n, int64_t min_part, int64_t align, mf_parallel_fn fn, void *ctx) {
  return mf_parallel_for_cost(n, min_part, align, fn, ctx, NULL);
}

int mf_parallel_for_cost(int64_t n, int64_t min_part, int64_t align, mf_parallel_fn fn, void *ctx,
                         double *cost) {
  if (align < 1) align = 1;
  if (min_part < align) min_part = align;
  int threads = n >= 2 * min_part ? mf_threadpool_size() : 1;
  bool known = cost && *cost > 0;
  if (threads < 2 || pool.forked || (known && *cost * (double)n < WORTH_NS) ||
      pthread_mutex_trylock(&pool.busy) != 0) {
    fn(ctx, 0, n, 0);
    return 1;
  }
  if (pool.skip > 0) {
    pool.skip--;
    pthread_mutex_unlock(&pool.busy);
    fn(ctx, 0, n, 0);
    return 1;
  }
  /* Chunks: several per thread, so that the threads even out. */
  int64_t chunk = n / ((int64_t)threads * CHUNKS_PER_THREAD);
  chunk = (chunk + align - 1) / align * align;
  if (chunk < align) chunk = align;
  /* The first chunk runs here, timed: a loop not worth waking a worker for
   * (cheap elements, or a fast machine) finishes on this thread. */
  double t0 = now_ns();
  int64_t first = 0;
  if (!known) {
    fn(ctx, 0, chunk, 0);
    double per_chunk = now_ns() - t0;
    if (cost) *cost = per_chunk > 0 ? per_chunk / (double)chunk : 1e-9;
    if (per_chunk * (double)(n - chunk) / (double)chunk < WORTH_NS) {
      if (chunk < n) fn(ctx, chunk, n, 0);
      pthread_mutex_unlock(&pool.busy);
      return 1;
    }
    first = chunk;
  }
  pthread_mutex_lock(&pool.lock);
  pool.fn = fn;
  pool.ctx = ctx;
  pool.n = n;
  pool.chunk = chunk;
  __atomic_store_n(&pool.next, first, __ATOMIC_RELAXED);
  pool.joined = 0;
  pool.running = 0;
  pool.open = true;
  pool.gen++;
  pthread_cond_broadcast(&pool.work);
  pthread_mutex_unlock(&pool.lock);
  take_chunks(fn, ctx, n, chunk, 0);
  double t1 = now_ns();
  pthread_mutex_lock(&pool.lock);
  pool.open = false;
  while (pool.running > 0) pthread_cond_wait(&pool.done, &pool.lock);
  int parts = pool.joined + 1;
  pthread_mutex_unlock(&pool.lock);
  /* A worker that lost its CPU in the middle of a chunk (other processes
   * want the cores) held this thread up: run the next loops inline, more
   * of them each time it happens again, then try again. */
  double waited = now_ns() - t1;
  if (waited > 0.25 * (now_ns() - t0)) {
    pool.backoff = pool.backoff ? (pool.backoff < 1024 ? pool.backoff * 2 : 1024) : 8;
    pool.skip = pool.backoff;
  } else {
    pool.backoff = 0;
  }
  pthread_mutex_unlock(&pool.busy);
  return parts;
}
