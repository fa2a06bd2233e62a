/* test_threadpool.c — the thread pool (threadpool.h): every element of a
 * loop is run exactly once, on chunk boundaries on the alignment, by no
 * more threads than the pool has; nested loops and loops from a second
 * thread run inline without losing work; loops one after the other (whose
 * workers poll) and loops after a pause (whose workers have gone to
 * sleep) both complete, and so do loops while workers stand aside for a
 * prefetch's producer; a loop whose cost is known decides from it; a
 * child of fork() runs its loops alone. */
#include "check.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "threadpool.h"

typedef struct cover {
  int hits[1 << 16];
  int aligned;           /* chunks with a boundary off the alignment */
  int max_part;
  int slow;              /* microseconds to spend per chunk */
  int64_t len;
} cover;

static void count_part(void *ctx, int64_t begin, int64_t end, int part) {
  (void)part;
  __atomic_fetch_add((int64_t *)ctx, end - begin, __ATOMIC_RELAXED);
}

static void cover_part(void *ctx, int64_t begin, int64_t end, int part) {
  cover *c = ctx;
  for (int64_t i = begin; i < end; i++) __atomic_fetch_add(&c->hits[i], 1, __ATOMIC_RELAXED);
  if (begin % 64 != 0 || (end % 64 != 0 && end != c->len))
    __atomic_fetch_add(&c->aligned, 1, __ATOMIC_RELAXED);
  int m = __atomic_load_n(&c->max_part, __ATOMIC_RELAXED);
  if (part > m) __atomic_store_n(&c->max_part, part, __ATOMIC_RELAXED);
  if (c->slow) {
    struct timespec ts = {0, (long)c->slow * 1000};
    nanosleep(&ts, NULL);
  }
  /* a loop started inside a loop neither waits for the pool nor misses work */
  int64_t inner = 0;
  mf_parallel_for(1 << 18, 1 << 10, 1, count_part, &inner);
  CHECK(inner == 1 << 18);
}

static void test_threadpool(void) {
  static cover c;
  int threads = mf_threadpool_size();
  CHECK(threads >= 1);
  const int64_t n = sizeof c.hits / sizeof c.hits[0];
  for (int slow = 0; slow <= 200; slow += 200) {
    for (int64_t len = 0; len <= n; len = len ? len * 4 : 1) {
      memset(&c, 0, sizeof c);
      c.slow = slow;
      c.len = len;
      int parts = mf_parallel_for(len, 1 << 10, 64, cover_part, &c);
      CHECK(parts >= 1 && parts <= threads && c.max_part < parts);
      /* below two parts' worth: one call, inline */
      if (len < 2 << 10) CHECK(parts == 1);
      bool once = true;
      for (int64_t i = 0; i < len; i++) once = once && c.hits[i] == 1;
      CHECK(once && c.aligned == 0);
      if (len == n) printf("# %lld elements, %d us a chunk: %d thread(s)\n", (long long)len, slow,
                          parts);
    }
  }
}

/* Counts the chunks a loop was cut into (part 0 only: inline runs). */
static void chunk_count(void *ctx, int64_t begin, int64_t end, int part) {
  (void)begin;
  (void)end;
  if (part == 0) (*(int *)ctx)++;
}

/* With a cost the caller keeps, a loop decides once: the first call
 * measures the cost per element, later calls whose work is under what
 * waking a worker costs run in one piece, untimed. */
static void test_threadpool_cost(void) {
  static cover c;
  const int64_t n = sizeof c.hits / sizeof c.hits[0];
  double cost = 0;
  memset(&c, 0, sizeof c);
  c.len = n;
  int parts = mf_parallel_for_cost(n, 1 << 10, 64, cover_part, &c, &cost);
  bool once = true;
  for (int64_t i = 0; i < n; i++) once = once && c.hits[i] == 1;
  CHECK(once && parts >= 1);
  /* measured on the first call whenever the pool ran it (a loaded
   * machine can make the pool skip loops and run them inline, unmeasured) */
  CHECK(mf_threadpool_size() == 1 || cost > 0 || parts == 1);
  /* a known, tiny cost: one inline call over the whole range */
  cost = 1e-6;
  int chunks = 0;
  CHECK(mf_parallel_for_cost(n, 1 << 10, 64, chunk_count, &chunks, &cost) == 1);
  CHECK(chunks == 1 && cost == 1e-6);
}

/* Sums the indices of its chunks, so a lost or doubled element shows. */
typedef struct tally {
  int64_t sum;
  int max_part;
} tally;

static void tally_part(void *ctx, int64_t begin, int64_t end, int part) {
  tally *t = ctx;
  int64_t s = 0;
  for (int64_t i = begin; i < end; i++) s += i;
  __atomic_add_fetch(&t->sum, s, __ATOMIC_RELAXED);
  int m = __atomic_load_n(&t->max_part, __ATOMIC_RELAXED);
  if (part > m) __atomic_store_n(&t->max_part, part, __ATOMIC_RELAXED);
}

/* One loop of n elements; true when every element ran once. */
static bool tally_loop(int64_t n, double *cost) {
  tally t = {0, 0};
  int parts = mf_parallel_for_cost(n, 256, 16, tally_part, &t, cost);
  return t.sum == n * (n - 1) / 2 && parts >= 1 && parts <= mf_threadpool_size() &&
         t.max_part < parts;
}

/* Loops one after the other (the workers poll between them), of sizes
 * that do and do not share out, with costs unknown, known small and known
 * large. */
static void test_back_to_back(void) {
  unsigned seed = 7;
  bool all = true;
  double known = 1e3; /* 1 us an element: always worth sharing */
  for (int i = 0; i < 3000; i++) {
    seed = seed * 1103515245u + 12345u;
    int64_t n = (int64_t)(seed >> 8) % 20000;
    double unknown = 0, tiny = 1e-6;
    double *cost = i % 3 == 0 ? &unknown : i % 3 == 1 ? &tiny : &known;
    all = all && tally_loop(n, cost);
  }
  CHECK(all);
}

/* Loops with pauses longer than the workers poll: each finds them asleep. */
static void test_after_pauses(void) {
  bool all = true;
  double known = 1e3;
  for (int i = 0; i < 12; i++) {
    struct timespec ts = {0, 2 * 1000 * 1000};
    nanosleep(&ts, NULL);
    all = all && tally_loop(4096 + i, &known);
  }
  CHECK(all);
}

/* While threads outside the pool compute ahead (a prefetch's producer),
 * the workers standing aside still complete every loop: back to back,
 * and with the count changing under them. */
static void test_standing_aside(void) {
  CHECK(mf_threadpool_background(0) == 0);
  bool all = true;
  double known = 1e3;
  CHECK(mf_threadpool_background(+1) == 1);
  for (int i = 0; i < 500; i++) all = all && tally_loop(3000 + i, &known);
  for (int i = 0; i < 500; i++) {
    mf_threadpool_background(i % 2 ? -1 : +1);
    all = all && tally_loop(5000 + i, &known);
  }
  CHECK(mf_threadpool_background(-1) == 0);
  for (int i = 0; i < 500; i++) all = all && tally_loop(3000 + i, &known);
  CHECK(all);
}

/* Two threads calling in at once: one runs its loops on the pool, the
 * other inline whenever the pool is taken; neither loses work. */
static void *caller(void *arg) {
  bool *ok = arg;
  double known = 1e3;
  for (int i = 0; i < 1000; i++) *ok = *ok && tally_loop(1000 + i * 7, &known);
  return NULL;
}

static void test_two_callers(void) {
  bool ok[2] = {true, true};
  pthread_t t;
  CHECK(pthread_create(&t, NULL, caller, &ok[1]) == 0);
  caller(&ok[0]);
  pthread_join(t, NULL);
  CHECK(ok[0] && ok[1]);
}

/* A child of fork() has none of the workers: its loops run inline, whole. */
static void test_fork_child_inline(void) {
  double known = 1e3;
  CHECK(tally_loop(50000, &known)); /* the pool exists before the fork */
  pid_t pid = fork();
  if (pid == 0) {
    tally t = {0, 0};
    int parts = mf_parallel_for_cost(50000, 256, 16, tally_part, &t, &known);
    _exit(parts == 1 && t.sum == 50000LL * 49999 / 2 ? 0 : 1);
  }
  int status = 0;
  CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

int main(void) {
  RUN(test_threadpool);
  RUN(test_threadpool_cost);
  RUN(test_back_to_back);
  RUN(test_after_pauses);
  RUN(test_standing_aside);
  RUN(test_two_callers);
  RUN(test_fork_child_inline);
  return CHECK_DONE();
}
