/* test_prefetch.c — a prefetch's producer thread (core/data/prefetch.c)
 * over a counting source: the buffer stays bounded and is refilled while
 * the consumer is away, elements and then an error arrive in order, an
 * iterator dropped mid-stream (the producer waiting for room, or in the
 * middle of an element) stops and joins its producer and frees its input,
 * and the thread pool's count of working producers goes back to zero.
 * Leaks are LeakSanitizer's (tests/run.sh). No timing is asserted: waits
 * poll a condition for up to seconds. */
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "dataset.h"
#include "threadpool.h"

/* The source: int64 scalars 0, 1, ..., n - 1, then the end, or an error in
 * place of element `fail_at`; an element takes `delay_ms`. It counts
 * what it was asked for, and checks at each pull that the producer never
 * holds more than `bound` elements the consumer has not taken. */
typedef struct counting {
  int64_t n, fail_at, bound;
  int delay_ms;
  long pulled, consumed, dropped; /* atomic */
  bool overran;
} counting;

typedef struct counting_ds {
  mf_dataset base;
  counting *c;
} counting_ds;

typedef struct counting_it {
  mf_iterator base;
  int64_t i;
} counting_it;

static void sleep_ms(int ms) {
  struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
  nanosleep(&t, NULL);
}

static mf_status counting_next(mf_iterator *it, mf_tensor **out, bool *end, mf_error *err) {
  counting_it *ci = (counting_it *)it;
  counting *c = ((counting_ds *)it->ds)->c;
  if (ci->i >= c->n) {
    *end = true;
    return MF_OK;
  }
  long ahead = __atomic_load_n(&c->pulled, __ATOMIC_SEQ_CST) - __atomic_load_n(&c->consumed, __ATOMIC_SEQ_CST);
  /* +1: the consumer may have taken an element and not counted it yet */
  if (ahead > c->bound + 1) c->overran = true;
  __atomic_add_fetch(&c->pulled, 1, __ATOMIC_SEQ_CST);
  if (c->delay_ms) sleep_ms(c->delay_ms);
  int64_t k = ci->i++;
  if (k == c->fail_at) return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "bad element %lld", (long long)k);
  return mf_tensor_scalar_i64(MF_INT64, k, &out[0], err);
}

static void counting_drop(mf_iterator *it) {
  __atomic_add_fetch(&((counting_ds *)it->ds)->c->dropped, 1, __ATOMIC_SEQ_CST);
}

static const mf_iterator_class counting_it_class = {counting_next, counting_drop};

static mf_status counting_iterator(mf_dataset *ds, mf_iterator **out, mf_error *err) {
  return mf_iterator_alloc(&counting_it_class, sizeof(counting_it), ds, out, err);
}

static int64_t counting_cardinality(const mf_dataset *ds) { return ((const counting_ds *)ds)->c->n; }

static const mf_dataset_class counting_class = {MF_DATASET_VARIANT("CountingDataset"), counting_iterator,
                                                counting_cardinality, NULL};

/* prefetch(buffer) over a counting source; *src is the source (released by the caller). */
static mf_dataset *prefetched(counting *c, int64_t buffer, mf_dataset **src) {
  mf_spec spec = {.dtype = MF_INT64, .rank = 0};
  mf_dataset *p = NULL;
  CHECK_OK(mf_dataset_alloc(&counting_class, sizeof(counting_ds), 1, &spec, src, NULL));
  ((counting_ds *)*src)->c = c;
  CHECK_OK(mf_dataset_prefetch(*src, buffer, &p, NULL));
  CHECK(mf_dataset_prefetch_threaded(p));
  return p;
}

/* Polls `cond` for up to 10 s. */
#define EVENTUALLY(cond)                                         \
  do {                                                           \
    for (int w_ = 0; w_ < 10000 && !(cond); w_++) sleep_ms(1);   \
    CHECK(cond);                                                 \
  } while (0)

static long load(long *p) { return __atomic_load_n(p, __ATOMIC_SEQ_CST); }

static int64_t take(mf_iterator *it, counting *c, bool *end, mf_status *s) {
  mf_tensor *e = NULL;
  mf_error err;
  *end = false;
  *s = mf_iterator_next(it, &e, end, &err);
  if (*s != MF_OK || *end) return -1;
  __atomic_add_fetch(&c->consumed, 1, __ATOMIC_SEQ_CST);
  int64_t v = mf_tensor_get_i64(e, 0);
  mf_tensor_release(e);
  return v;
}

static void test_bounded_and_refilled(void) {
  counting c = {.n = 1000, .fail_at = -1, .bound = 4};
  mf_dataset *src, *p = prefetched(&c, 4, &src);
  mf_iterator *it = NULL;
  CHECK_OK(mf_dataset_make_iterator(p, &it, NULL));
  /* alone, the producer fills the buffer and stops there */
  EVENTUALLY(load(&c.pulled) == 4);
  sleep_ms(20);
  CHECK(load(&c.pulled) == 4);
  bool end, ordered = true;
  mf_status s;
  for (int64_t k = 0; k < 40; k++) {
    ordered = ordered && take(it, &c, &end, &s) == k;
    /* while the consumer is away (a training step), the buffer is filled
     * again: at least half of it is ready, never more than all of it */
    if (k % 10 == 9) {
      EVENTUALLY(load(&c.pulled) - load(&c.consumed) >= 2);
      CHECK(load(&c.pulled) - load(&c.consumed) <= 4);
    }
  }
  CHECK(ordered);
  for (int64_t k = 40;; k++) {
    int64_t v = take(it, &c, &end, &s);
    if (end || s != MF_OK) break;
    ordered = ordered && v == k;
  }
  CHECK(ordered && s == MF_OK && end && load(&c.consumed) == 1000);
  CHECK(!c.overran);
  mf_iterator_free(it);
  CHECK(load(&c.dropped) == 1);
  CHECK(mf_threadpool_background(0) == 0);
  mf_dataset_release(p);
  mf_dataset_release(src);
}

static void test_error_after_the_elements_before_it(void) {
  counting c = {.n = 100, .fail_at = 7, .bound = 3};
  mf_dataset *src, *p = prefetched(&c, 3, &src);
  mf_iterator *it = NULL;
  CHECK_OK(mf_dataset_make_iterator(p, &it, NULL));
  bool end, ordered = true;
  mf_status s = MF_OK;
  for (int64_t k = 0; k < 7; k++) ordered = ordered && take(it, &c, &end, &s) == k;
  CHECK(ordered);
  mf_tensor *e = NULL;
  mf_error err;
  CHECK(mf_iterator_next(it, &e, &end, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(strcmp(err.message, "bad element 7") == 0);
  /* then the end: the producer stopped at the error */
  CHECK(mf_iterator_next(it, &e, &end, &err) == MF_OK && end);
  CHECK(load(&c.pulled) == 8);
  mf_iterator_free(it);
  CHECK(mf_threadpool_background(0) == 0);
  mf_dataset_release(p);
  mf_dataset_release(src);
}

static void test_dropped_while_waiting_for_room(void) {
  counting c = {.n = 1 << 30, .fail_at = -1, .bound = 2};
  mf_dataset *src, *p = prefetched(&c, 2, &src);
  mf_iterator *it = NULL;
  CHECK_OK(mf_dataset_make_iterator(p, &it, NULL));
  bool end;
  mf_status s;
  CHECK(take(it, &c, &end, &s) == 0);
  EVENTUALLY(load(&c.pulled) - load(&c.consumed) == 2);
  mf_iterator_free(it); /* two elements buffered, the producer asleep */
  CHECK(load(&c.dropped) == 1 && !c.overran);
  CHECK(mf_threadpool_background(0) == 0);
  mf_dataset_release(p);
  mf_dataset_release(src);
}

static void test_dropped_in_the_middle_of_an_element(void) {
  counting c = {.n = 1 << 30, .fail_at = -1, .bound = 64, .delay_ms = 30};
  mf_dataset *src, *p = prefetched(&c, -1, &src);
  mf_iterator *it = NULL;
  CHECK_OK(mf_dataset_make_iterator(p, &it, NULL));
  bool end;
  mf_status s;
  CHECK(take(it, &c, &end, &s) == 0);
  EVENTUALLY(load(&c.pulled) >= 2);
  /* the producer is (most likely) inside the source's next: the drop
   * waits for that element, frees it, and stops */
  CHECK(mf_threadpool_background(0) == 1);
  mf_iterator_free(it);
  CHECK(load(&c.dropped) == 1);
  CHECK(mf_threadpool_background(0) == 0);
  mf_dataset_release(p);
  mf_dataset_release(src);
}

/* Many consumers at once, each with its producer. */
typedef struct consumer {
  counting c;
  int64_t got;
  bool ordered;
} consumer;

static void *consume(void *arg) {
  consumer *k = arg;
  mf_dataset *src, *p = prefetched(&k->c, -1, &src);
  mf_iterator *it = NULL;
  CHECK_OK(mf_dataset_make_iterator(p, &it, NULL));
  k->ordered = true;
  for (;;) {
    bool end;
    mf_status s;
    int64_t v = take(it, &k->c, &end, &s);
    if (end || s != MF_OK) break;
    k->ordered = k->ordered && v == k->got;
    k->got++;
  }
  mf_iterator_free(it);
  mf_dataset_release(p);
  mf_dataset_release(src);
  return NULL;
}

static void test_consumers_side_by_side(void) {
  consumer k[4];
  pthread_t t[4];
  for (int i = 0; i < 4; i++) {
    k[i] = (consumer){.c = {.n = 3000 + i, .fail_at = -1, .bound = MF_PREFETCH_AUTOTUNE_MAX}};
    CHECK(pthread_create(&t[i], NULL, consume, &k[i]) == 0);
  }
  for (int i = 0; i < 4; i++) {
    pthread_join(t[i], NULL);
    CHECK(k[i].ordered && k[i].got == 3000 + i && !k[i].c.overran && k[i].c.dropped == 1);
  }
  CHECK(mf_threadpool_background(0) == 0);
}

int main(void) {
  RUN(test_bounded_and_refilled);
  RUN(test_error_after_the_elements_before_it);
  RUN(test_dropped_while_waiting_for_room);
  RUN(test_dropped_in_the_middle_of_an_element);
  RUN(test_consumers_side_by_side);
  return CHECK_DONE();
}
