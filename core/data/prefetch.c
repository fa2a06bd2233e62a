/* prefetch.c — TF's PrefetchDataset: elements computed ahead of the
 * consumer, up to a buffer of buffer_size. Over a threadable input (every
 * stage pure C: dataset.h) the iterator starts a producer thread of its
 * own, which pulls from the input and waits while the buffer is full;
 * the consumer waits only when it is empty. Elements, the end and an
 * error arrive in order. A pipeline with a host callback upstream (a
 * generator) cannot leave the host's thread: it is pulled on the calling
 * thread, one element per request. The producer stops and is joined when
 * the iterator is freed. With AUTOTUNE the buffer grows as TF's
 * PrefetchAutotuner grows it: from MF_PREFETCH_AUTOTUNE_BUFFER, doubled
 * each time the consumer finds it empty (it waited: the producer fell
 * behind, as a producer descheduled on a busy machine does), up to
 * MF_PREFETCH_AUTOTUNE_MAX.
 *
 * The consumer is a training step that must not wait, and on a machine
 * with few cores the producer shares them with the step's own threads:
 *  - Waking the producer each time an element was taken made the step
 *    wait about one element's time per step (4-16% of a step in the
 *    benchmark): Linux runs a woken thread on its waker's core and lets
 *    it preempt the waker, so the step, in its futex call, sat out the
 *    producer's whole next element. The producer runs as SCHED_BATCH (a
 *    woken batch thread does not preempt; it takes a free core or its
 *    turn), and is woken only once the buffer is down to half, to refill
 *    it in one go: one wake-up per several steps.
 *  - While it works it is counted in mf_threadpool_background, so an idle
 *    pool worker sleeps instead of polling and leaves it a core.
 *  - Each side waits on a condition of its own ("room", "ready"), and is
 *    signalled only when it does wait, after the lock is released. */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "dataset.h"
#include "threadpool.h"

typedef struct prefetch_ds {
  mf_dataset base;
  int64_t buffer_size;
  bool autotune;
} prefetch_ds;

typedef struct prefetch_it {
  mf_iterator base;
  mf_iterator *in; /* the producer's alone while it runs */
  bool threaded;
  pthread_t thread;
  pthread_mutex_t lock;
  pthread_cond_t room;    /* the producer's: the buffer has room again, or a stop */
  pthread_cond_t ready;   /* the consumer's: an element arrived, the end or an error */
  bool producer_waits;    /* on `room` */
  bool consumer_waits;    /* on `ready` */
  bool working;           /* counted in mf_threadpool_background */
  mf_tensor **ring;       /* cap elements of ncomp tensors (owned) */
  int64_t cap, head, count;
  int64_t limit;          /* elements the producer may buffer: cap, or less while autotuned */
  bool done;              /* the producer reached the end or an error */
  mf_status status;       /* of the error after the buffered elements */
  mf_error err;
  bool stop;              /* the consumer is gone */
} prefetch_it;

/* Under the lock: the producer counts as working (or not). */
static void set_working(prefetch_it *c, bool working) {
  if (c->working == working) return;
  c->working = working;
  mf_threadpool_background(working ? +1 : -1);
}

/* Under the lock: whether the waiting producer should be woken now (the
 * buffer is down to half its limit, or a stop); if so it counts as
 * working from here, so that a pool worker stands aside at once. */
static bool producer_wanted(prefetch_it *c) {
  if (!c->producer_waits || (!c->stop && c->count > c->limit / 2)) return false;
  c->producer_waits = false;
  set_working(c, !c->stop);
  return true;
}

static void *produce(void *arg) {
  prefetch_it *c = arg;
  int ncomp = c->base.ds->ncomp;
  mf_data_mark_producer();
  /* Without the policy (refused), it runs as any thread. */
  struct sched_param batch = {0};
  pthread_setschedparam(pthread_self(), SCHED_BATCH, &batch);
  mf_tensor *elem[MF_DATA_MAX_COMPONENTS];
  pthread_mutex_lock(&c->lock);
  set_working(c, true);
  for (;;) {
    while (c->count >= c->limit && !c->stop) {
      set_working(c, false);
      c->producer_waits = true;
      pthread_cond_wait(&c->room, &c->lock);
    }
    c->producer_waits = false;
    if (c->stop) break;
    set_working(c, true);
    pthread_mutex_unlock(&c->lock);
    bool end = false;
    mf_error err;
    mf_status s = mf_iterator_next(c->in, elem, &end, &err);
    pthread_mutex_lock(&c->lock);
    if (s != MF_OK || end) {
      c->done = true;
      c->status = s;
      if (s != MF_OK) c->err = err;
    } else {
      int64_t slot = (c->head + c->count) % c->cap;
      memcpy(c->ring + slot * ncomp, elem, (size_t)ncomp * sizeof *elem);
      c->count++;
    }
    if (c->done) break;
    bool wake = c->consumer_waits;
    c->consumer_waits = false;
    pthread_mutex_unlock(&c->lock);
    if (wake) pthread_cond_signal(&c->ready);
    pthread_mutex_lock(&c->lock);
  }
  set_working(c, false);
  bool wake = c->consumer_waits;
  c->consumer_waits = false;
  pthread_mutex_unlock(&c->lock);
  if (wake) pthread_cond_signal(&c->ready);
  return NULL;
}

static mf_status prefetch_next(mf_iterator *it, mf_tensor **out, bool *end, mf_error *err) {
  prefetch_it *c = (prefetch_it *)it;
  int ncomp = it->ds->ncomp;
  if (!c->threaded) return mf_iterator_next(c->in, out, end, err);
  pthread_mutex_lock(&c->lock);
  if (c->count == 0 && !c->done) {
    if (c->limit < c->cap) c->limit = c->limit * 2 < c->cap ? c->limit * 2 : c->cap;
    while (c->count == 0 && !c->done) {
      if (producer_wanted(c)) pthread_cond_signal(&c->room);
      c->consumer_waits = true;
      pthread_cond_wait(&c->ready, &c->lock);
    }
    c->consumer_waits = false;
  }
  mf_status s = MF_OK;
  if (c->count > 0) {
    memcpy(out, c->ring + c->head * ncomp, (size_t)ncomp * sizeof *out);
    c->head = (c->head + 1) % c->cap;
    c->count--;
  } else if (c->status != MF_OK) {
    s = c->status;
    if (err) *err = c->err;
    c->status = MF_OK; /* reported once; then the end */
  } else {
    *end = true;
  }
  bool wake = producer_wanted(c);
  pthread_mutex_unlock(&c->lock);
  if (wake) pthread_cond_signal(&c->room);
  return s;
}

static void prefetch_drop(mf_iterator *it) {
  prefetch_it *c = (prefetch_it *)it;
  if (c->threaded) {
    pthread_mutex_lock(&c->lock);
    c->stop = true;
    bool wake = producer_wanted(c);
    pthread_mutex_unlock(&c->lock);
    if (wake) pthread_cond_signal(&c->room);
    pthread_join(c->thread, NULL);
    for (int64_t i = 0; i < c->count; i++)
      mf_release_all(it->ds->ncomp, c->ring + ((c->head + i) % c->cap) * it->ds->ncomp);
    pthread_cond_destroy(&c->room);
    pthread_cond_destroy(&c->ready);
    pthread_mutex_destroy(&c->lock);
  }
  free(c->ring);
  mf_iterator_free(c->in);
}

static const mf_iterator_class prefetch_it_class = {prefetch_next, prefetch_drop};

bool mf_dataset_prefetch_threaded(const mf_dataset *ds) {
  return ds->inputs[0] && ds->inputs[0]->threadable && !ds->inputs[0]->host;
}

static mf_status prefetch_iterator(mf_dataset *ds, mf_iterator **out, mf_error *err) {
  const prefetch_ds *d = (const prefetch_ds *)ds;
  MF_TRY(mf_iterator_alloc(&prefetch_it_class, sizeof(prefetch_it), ds, out, err));
  prefetch_it *c = (prefetch_it *)*out;
  mf_status s = mf_dataset_make_iterator(ds->inputs[0], &c->in, err);
  if (s == MF_OK && mf_dataset_prefetch_threaded(ds)) {
    c->cap = d->autotune ? MF_PREFETCH_AUTOTUNE_MAX : d->buffer_size;
    c->limit = d->buffer_size;
    c->ring = mf_calloc((size_t)(c->cap * ds->ncomp) + 1, sizeof *c->ring);
    if (!c->ring) s = mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
    if (s == MF_OK) {
      pthread_mutex_init(&c->lock, NULL);
      pthread_cond_init(&c->room, NULL);
      pthread_cond_init(&c->ready, NULL);
      if (pthread_create(&c->thread, NULL, produce, c) == 0) {
        c->threaded = true;
      } else {
        pthread_cond_destroy(&c->room);
        pthread_cond_destroy(&c->ready);
        pthread_mutex_destroy(&c->lock);
      }
    }
  }
  if (s != MF_OK) {
    mf_iterator_free(*out);
    *out = NULL;
  }
  return s;
}

static int64_t prefetch_cardinality(const mf_dataset *ds) { return mf_dataset_cardinality(ds->inputs[0]); }

static const mf_dataset_class prefetch_class = {MF_DATASET_VARIANT("PrefetchDatasetOp::Dataset"),
                                                prefetch_iterator, prefetch_cardinality, NULL};

mf_status mf_dataset_prefetch(mf_dataset *in, int64_t buffer_size, mf_dataset **out,
                              mf_error *err) {
  bool autotune = buffer_size == -1;
  if (autotune) buffer_size = MF_PREFETCH_AUTOTUNE_BUFFER;
  if (buffer_size < 0)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "buffer_size must be greater than or equal to zero or set to -1 (AUTOTUNE).");
  MF_TRY(mf_dataset_alloc(&prefetch_class, sizeof(prefetch_ds), in->ncomp, in->spec, out, err));
  mf_dataset_add_input(*out, in);
  /* A buffer of 0 still runs ahead by one element, as TF's legacy behaviour. */
  ((prefetch_ds *)*out)->buffer_size = buffer_size ? buffer_size : 1;
  ((prefetch_ds *)*out)->autotune = autotune;
  return MF_OK;
}
