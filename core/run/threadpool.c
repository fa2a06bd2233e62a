#include "threadpool.h"

#include <sched.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"

enum { MAX_THREADS = 16, CHUNKS_PER_THREAD = 8 };


/* How long a worker that finished a loop keeps polling for the next one
 * before it sleeps, and how long a caller polls for its workers to finish.
 * Waking a sleeping thread took about 50 us on the 2-core KVM machines
 * this was measured on (a worker joined a 100 us loop when it was half
 * done), as long as a 256x256 GEMM takes on one core: without the poll, a
 * graph of such steps (a training step) ran on one core in effect.
 * OpenBLAS's own threads poll for about 0.1 s; this is far shorter, so an
 * idle session leaves the cores alone at once. */
#define SPIN_NS 200000.0

/* Longer than a sleeping worker takes to wake on a machine with cores to
 * spare. */
#define WOKEN_LATE_NS 1000000.0

/* The loop being run. Threads take chunks of `chunk` elements from `next`
 * until none is left; a worker that wakes late finds none and goes back to
 * waiting, so a busy CPU never holds the caller up for more than the chunk
 * its worker already took. */
static struct {
  pthread_mutex_t lock;     /* guards everything below but `next`, `gen`, `running` */
  pthread_cond_t work;      /* a new loop was posted */
  pthread_cond_t done;      /* running reached 0 */
  pthread_mutex_t busy;     /* held by the one caller running a loop */
  int nthreads;             /* caller included */
  bool forked;              /* in a child of fork(): run inline */
  unsigned long gen;        /* loops posted (atomic; written under `lock`) */
  bool open;                /* the posted loop still takes workers */
  int joined;               /* workers that took part */
  int sleepers;             /* workers blocked on `work` */
  int running;              /* workers still in it (atomic) */
  int64_t n, chunk;
  int64_t next;             /* the next chunk's start (atomic) */
  int backoff, skip;        /* loops to run inline after a slow one (under `busy`) */
  int background;           /* threads outside the pool computing ahead (atomic) */
  mf_parallel_fn fn;
  void *ctx;
} pool = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .work = PTHREAD_COND_INITIALIZER,
    .done = PTHREAD_COND_INITIALIZER,
    .busy = PTHREAD_MUTEX_INITIALIZER,
};

static pthread_once_t once = PTHREAD_ONCE_INIT;

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

/* One turn of a polling loop: pauses, and says whether to go on polling
 * (false once SPIN_NS have passed since the first turn; *until starts 0). */
static bool keep_polling(unsigned *turn, double *until) {
  cpu_relax();
  if ((++*turn & 255) != 0) return true;
  double t = now_ns();
  if (*until == 0) *until = t + SPIN_NS;
  return t <= *until;
}

/* Whether worker `index` (1, 2, ...) leaves its CPU to the threads
 * computing ahead: the last workers do, one per such thread. */
static bool stands_aside(int index) {
  return index >= pool.nthreads - __atomic_load_n(&pool.background, __ATOMIC_RELAXED);
}

/* Polls for a loop after `seen` to be posted; false when none came, or
 * when worker `index` must stand aside. */
static bool poll_posted(unsigned long seen, int index) {
  unsigned turn = 0;
  double until = 0;
  while (__atomic_load_n(&pool.gen, __ATOMIC_ACQUIRE) == seen)
    if (!keep_polling(&turn, &until) || stands_aside(index)) return false;
  return true;
}

/* Locks pool.lock, polling for it first: its holders keep it for a few
 * instructions, and a thread that blocks on it sleeps in the kernel and
 * wakes as slowly as from the condition variable. */
static void lock_polling(void) {
  unsigned turn = 0;
  double until = 0;
  while (pthread_mutex_trylock(&pool.lock) != 0)
    if (!keep_polling(&turn, &until)) {
      pthread_mutex_lock(&pool.lock);
      return;
    }
}

/* Waits until every worker that joined the loop has left it. */
static void wait_workers(void) {
  unsigned turn = 0;
  double until = 0;
  while (__atomic_load_n(&pool.running, __ATOMIC_ACQUIRE) > 0)
    if (!keep_polling(&turn, &until)) {
      pthread_mutex_lock(&pool.lock);
      while (__atomic_load_n(&pool.running, __ATOMIC_ACQUIRE) > 0)
        pthread_cond_wait(&pool.done, &pool.lock);
      pthread_mutex_unlock(&pool.lock);
    }
}

/* Runs chunks of the current loop as part `part` until none is left. */
static void take_chunks(mf_parallel_fn fn, void *ctx, int64_t n, int64_t chunk, int part) {
  for (;;) {
    int64_t b = __atomic_fetch_add(&pool.next, chunk, __ATOMIC_RELAXED);
    if (b >= n) return;
    fn(ctx, b, b + chunk < n ? b + chunk : n, part);
  }
}

static void *worker(void *arg) {
  int index = (int)(intptr_t)arg;
  unsigned long seen = 0;
  for (;;) {
    /* Poll for the next loop for a while (waking costs tens of us), then
     * sleep until one is posted. */
    bool posted = poll_posted(seen, index);
    lock_polling();
    if (!posted) {
      pool.sleepers++;
      while (__atomic_load_n(&pool.gen, __ATOMIC_RELAXED) == seen)
        pthread_cond_wait(&pool.work, &pool.lock);
      pool.sleepers--;
    }
    seen = __atomic_load_n(&pool.gen, __ATOMIC_RELAXED);
    if (!pool.open || pool.joined + 1 >= pool.nthreads) {
      pthread_mutex_unlock(&pool.lock);
      continue;
    }
    int part = ++pool.joined;
    __atomic_add_fetch(&pool.running, 1, __ATOMIC_RELAXED);
    mf_parallel_fn fn = pool.fn;
    void *ctx = pool.ctx;
    int64_t n = pool.n, chunk = pool.chunk;
    pthread_mutex_unlock(&pool.lock);
    take_chunks(fn, ctx, n, chunk, part);
    /* The caller may be polling `running` or asleep on `done`: the signal
     * under the lock reaches it either way. */
    if (__atomic_sub_fetch(&pool.running, 1, __ATOMIC_RELEASE) == 0) {
      pthread_mutex_lock(&pool.lock);
      pthread_cond_signal(&pool.done);
      pthread_mutex_unlock(&pool.lock);
    }
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

/* The CPUs this process really has: those it may run on (a taskset, a
 * container's cpuset), bounded by its cgroup's CPU quota (a spawner's
 * cpu_limit), which the host's core count knows nothing of: 32 workers on
 * a 2-CPU quota are throttled in turn and run slower than 2. */
static long available_cpus(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0 && CPU_COUNT(&set) < n)
    n = CPU_COUNT(&set);
  int quota = mf_cgroup_cpu_limit("/sys/fs/cgroup", "/proc/self/cgroup");
  if (quota > 0 && quota < n) n = quota;
  return n;
}

static void create(void) {
  long n = available_cpus();
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

int mf_threadpool_background(int delta) { return __atomic_add_fetch(&pool.background, delta, __ATOMIC_RELAXED); }

int mf_threadpool_size(void) {
  pthread_once(&once, create);
  return pool.nthreads;
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
  if (threads < 2 || pool.forked || (known && *cost * (double)n < MF_PARALLEL_WORTH_NS) ||
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
    if (per_chunk * (double)(n - chunk) / (double)chunk < MF_PARALLEL_WORTH_NS) {
      if (chunk < n) fn(ctx, chunk, n, 0);
      pthread_mutex_unlock(&pool.busy);
      return 1;
    }
    first = chunk;
  }
  lock_polling();
  pool.fn = fn;
  pool.ctx = ctx;
  pool.n = n;
  pool.chunk = chunk;
  __atomic_store_n(&pool.next, first, __ATOMIC_RELAXED);
  pool.joined = 0;
  pool.open = true;
  __atomic_add_fetch(&pool.gen, 1, __ATOMIC_RELEASE);
  bool woke = pool.sleepers > 0;
  if (woke) pthread_cond_broadcast(&pool.work);
  pthread_mutex_unlock(&pool.lock);
  take_chunks(fn, ctx, n, chunk, 0);
  double t1 = now_ns();
  lock_polling();
  pool.open = false;
  int parts = pool.joined + 1;
  pthread_mutex_unlock(&pool.lock);
  wait_workers();
  /* A worker that lost its CPU in the middle of a chunk (other processes
   * want the cores) held this thread up: run the next loops inline, more
   * of them each time it happens again, then try again. A worker woken
   * from sleep joins late by its wake-up time, which says nothing of the
   * machine's load: only a wait well beyond that counts then (else a
   * backoff would leave the workers asleep for the next try, and so on). */
  double waited = now_ns() - t1;
  if (waited > 0.25 * (now_ns() - t0) && (!woke || waited > WOKEN_LATE_NS)) {
    pool.backoff = pool.backoff ? (pool.backoff < 1024 ? pool.backoff * 2 : 1024) : 8;
    pool.skip = pool.backoff;
  } else {
    pool.backoff = 0;
  }
  pthread_mutex_unlock(&pool.busy);
  return parts;
}
