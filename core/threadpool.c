#include "threadpool.h"

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

enum { MAX_THREADS = 16 };

/* The loop being run: workers pick part `w` of generation `gen`. */
static struct {
  pthread_mutex_t lock;     /* guards everything below */
  pthread_cond_t work;      /* a new generation was posted */
  pthread_cond_t done;      /* pending reached 0 */
  pthread_mutex_t busy;     /* held by the one caller running a loop */
  int nthreads;             /* caller included; 0 before creation */
  bool forked;              /* in a child of fork(): run inline */
  unsigned long gen;
  int parts, pending;
  int64_t bounds[MAX_THREADS + 1];
  mf_parallel_fn fn;
  void *ctx;
} pool = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .work = PTHREAD_COND_INITIALIZER,
    .done = PTHREAD_COND_INITIALIZER,
    .busy = PTHREAD_MUTEX_INITIALIZER,
};

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void *worker(void *arg) {
  int w = (int)(intptr_t)arg;
  unsigned long seen = 0;
  pthread_mutex_lock(&pool.lock);
  for (;;) {
    while (pool.gen == seen) pthread_cond_wait(&pool.work, &pool.lock);
    seen = pool.gen;
    if (w >= pool.parts) continue;
    mf_parallel_fn fn = pool.fn;
    void *ctx = pool.ctx;
    int64_t b = pool.bounds[w], e = pool.bounds[w + 1];
    pthread_mutex_unlock(&pool.lock);
    fn(ctx, b, e, w);
    pthread_mutex_lock(&pool.lock);
    if (--pool.pending == 0) pthread_cond_signal(&pool.done);
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
    if (pthread_create(&t, &attr, worker, (void *)(intptr_t)w) != 0) break;
    pool.nthreads++;
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  pthread_attr_destroy(&attr);
}

int mf_threadpool_size(void) {
  pthread_once(&once, create);
  return pool.nthreads;
}

int mf_parallel_for(int64_t n, int64_t min_part, int64_t align, mf_parallel_fn fn, void *ctx) {
  if (align < 1) align = 1;
  if (min_part < align) min_part = align;
  int parts = n / min_part < MAX_THREADS ? (int)(n / min_part) : MAX_THREADS;
  if (parts >= 2) {
    int size = mf_threadpool_size();
    if (parts > size) parts = size;
  }
  if (parts < 2 || pool.forked || pthread_mutex_trylock(&pool.busy) != 0) {
    fn(ctx, 0, n, 0);
    return 1;
  }
  pthread_mutex_lock(&pool.lock);
  /* Equal parts, boundaries rounded to `align`. */
  int64_t units = (n + align - 1) / align;
  pool.bounds[0] = 0;
  for (int p = 1; p < parts; p++) pool.bounds[p] = units * p / parts * align;
  pool.bounds[parts] = n;
  pool.parts = parts;
  pool.pending = parts - 1;
  pool.fn = fn;
  pool.ctx = ctx;
  pool.gen++;
  int64_t end0 = pool.bounds[1];
  pthread_cond_broadcast(&pool.work);
  pthread_mutex_unlock(&pool.lock);
  fn(ctx, 0, end0, 0);
  pthread_mutex_lock(&pool.lock);
  while (pool.pending > 0) pthread_cond_wait(&pool.done, &pool.lock);
  pthread_mutex_unlock(&pool.lock);
  pthread_mutex_unlock(&pool.busy);
  return parts;
}
