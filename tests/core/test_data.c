/* test_data.c — core/data alone: datasets compose and count as TF's,
 * cursors are independent, a prefetch runs a producer thread over a pure
 * pipeline (and on the caller's thread over a host callback), iterators
 * dropped early stop their producers, and nothing leaks (run with
 * LeakSanitizer by tests/run.sh). */
#include <pthread.h>
#include <string.h>

#include "check.h"
#include "dataset.h"
#include "graph_test.h"
#include "data_test.h"
#include "passes.h"

/* Every element of a one-component int64 dataset, summed and counted. */
static void drain(mf_dataset *ds, int64_t *n, int64_t *sum) {
  mf_iterator *it = NULL;
  *n = *sum = 0;
  CHECK_OK(mf_dataset_make_iterator(ds, &it, NULL));
  for (;;) {
    mf_tensor *e[MF_DATA_MAX_COMPONENTS];
    bool end = false;
    mf_error err;
    if (mf_iterator_next(it, e, &end, &err) != MF_OK || end) break;
    for (int64_t i = 0; i < e[0]->size; i++) *sum += mf_tensor_get_i64(e[0], i);
    (*n)++;
    mf_release_all(ds->ncomp, e);
  }
  mf_iterator_free(it);
}

static void test_compose_and_count(void) {
  mf_dataset *r = NULL, *b = NULL, *rep = NULL, *t = NULL;
  CHECK_OK(mf_dataset_range(0, 10, 1, &r, NULL));
  CHECK_OK(mf_dataset_batch(r, 4, false, &b, NULL));
  CHECK(mf_dataset_cardinality(b) == 3);
  CHECK(b->spec[0].rank == 1 && b->spec[0].shape[0] == MF_UNKNOWN_DIM);
  CHECK_OK(mf_dataset_repeat(b, -1, &rep, NULL));
  CHECK(mf_dataset_cardinality(rep) == MF_CARDINALITY_INFINITE);
  CHECK_OK(mf_dataset_take(rep, 7, &t, NULL));
  CHECK(mf_dataset_cardinality(t) == 7);
  int64_t n, sum;
  drain(t, &n, &sum);
  CHECK(n == 7 && sum == 45 + 45 + 6); /* two epochs of 0..9, then {0..3} */
  mf_dataset_release(t);
  mf_dataset_release(rep);
  mf_dataset_release(b);
  mf_dataset_release(r);
}

/* A map whose function doubles its int64 input. */
static mf_dataset *doubled(mf_dataset *in) {
  mf_graph *f = new_graph();
  ref x = input(f, MF_INT64, 0, NULL, NULL);
  outputs(f, 1, REFS(op2(f, "AddV2", x, x)));
  mf_dataset *m = NULL;
  CHECK_OK(mf_dataset_map(in, f, 0, NULL, &m, NULL));
  mf_graph_release(f);
  return m;
}

static void test_prefetch_thread(void) {
  mf_dataset *r = NULL, *p = NULL;
  CHECK_OK(mf_dataset_range(0, 1000, 1, &r, NULL));
  mf_dataset *m = doubled(r);
  CHECK(m->threadable && !m->host);
  CHECK_OK(mf_dataset_prefetch(m, 3, &p, NULL));
  CHECK(mf_dataset_prefetch_threaded(p));
  int64_t n, sum;
  drain(p, &n, &sum);
  CHECK(n == 1000 && sum == 999 * 1000);
  /* Two cursors at once, one of them threaded: the map's function runs
   * for both. */
  mf_iterator *a = NULL, *b = NULL;
  CHECK_OK(mf_dataset_make_iterator(p, &a, NULL));
  CHECK_OK(mf_dataset_make_iterator(m, &b, NULL));
  int64_t sa = 0, sb = 0;
  for (int i = 0; i < 500; i++) {
    mf_tensor *e;
    bool end;
    mf_error err;
    CHECK(mf_iterator_next(a, &e, &end, &err) == MF_OK && !end);
    sa += mf_tensor_get_i64(e, 0);
    mf_tensor_release(e);
    CHECK(mf_iterator_next(b, &e, &end, &err) == MF_OK && !end);
    sb += mf_tensor_get_i64(e, 0);
    mf_tensor_release(e);
  }
  CHECK(sa == sb && sa == 499 * 500);
  mf_iterator_free(a); /* mid-way: its producer is stopped and joined */
  mf_iterator_free(b);
  mf_dataset_release(p);
  mf_dataset_release(m);
  mf_dataset_release(r);
}

static mf_status count_to_three(void *ud, int nin, mf_tensor **in, int nout, mf_tensor **out,
                                mf_error *err) {
  int *calls = ud;
  (void)nin, (void)in;
  int k = (*calls)++;
  MF_TRY(mf_tensor_scalar_bool(k < 3, &out[0], err));
  for (int i = 1; i < nout; i++) MF_TRY(mf_tensor_scalar_i64(MF_INT64, k, &out[i], err));
  return MF_OK;
}

/* A map function the optimiser fused (as dataset.lua optimises map
 * functions) still lets a prefetch run a producer thread: the
 * FusedElementwise body is the node's own. */
static void test_fused_function_is_threadable(void) {
  mf_graph *f = new_graph();
  int64_t shape[1] = {64};
  ref x = input(f, MF_FLOAT32, 1, shape, NULL);
  outputs(f, 1, REFS(op2(f, "Mul", op1(f, "Tanh", op2(f, "AddV2", x, x)), x)));
  mf_graph *opt = NULL;
  CHECK_OK(mf_graph_optimize(f, &opt, NULL, NULL));
  bool fused = false;
  for (int i = 0; opt && i < opt->nnodes; i++) fused = fused || strcmp(opt->nodes[i].op->name, "FusedElementwise") == 0;
  CHECK(fused);
  CHECK(mf_data_graph_threadable(opt));
  mf_graph_release(opt);
  mf_graph_release(f);
}

/* AUTOTUNE's buffer grows while the consumer finds it empty: the ring
 * (allocated at its largest) still gives every element once, in order. */
static void test_prefetch_autotune(void) {
  mf_dataset *r = NULL, *p = NULL;
  CHECK_OK(mf_dataset_range(0, 5000, 1, &r, NULL));
  mf_dataset *m = doubled(r);
  CHECK_OK(mf_dataset_prefetch(m, -1, &p, NULL));
  CHECK(mf_dataset_prefetch_threaded(p));
  mf_iterator *it = NULL;
  CHECK_OK(mf_dataset_make_iterator(p, &it, NULL));
  int64_t want = 0;
  bool ordered = true;
  for (;;) {
    mf_tensor *t = NULL;
    bool end = false;
    CHECK_OK(mf_iterator_next(it, &t, &end, NULL));
    if (end) break;
    ordered = ordered && mf_tensor_get_i64(t, 0) == 2 * want;
    want++;
    mf_tensor_release(t);
  }
  CHECK(ordered && want == 5000);
  mf_iterator_free(it);
  mf_dataset_release(p);
  mf_dataset_release(m);
  mf_dataset_release(r);
}

static void test_host_callback_stays_on_the_caller(void) {
  int calls = 0;
  mf_callback cb = {1, count_to_three, NULL, &calls};
  mf_spec spec = {.dtype = MF_INT64, .rank = 0};
  mf_dataset *g = NULL, *p = NULL;
  CHECK_OK(mf_dataset_generator(&cb, NULL, 1, &spec, &g, NULL));
  mf_dataset *m = doubled(g);
  CHECK(m->host && !m->threadable);
  CHECK_OK(mf_dataset_prefetch(m, 2, &p, NULL));
  CHECK(!mf_dataset_prefetch_threaded(p));
  int64_t n, sum;
  drain(p, &n, &sum);
  CHECK(n == 3 && sum == 2 * (0 + 1 + 2));
  mf_dataset_release(p);
  mf_dataset_release(m);
  mf_dataset_release(g);
  CHECK(cb.refcount == 1);
}

static void test_generator_shape_check(void) {
  int calls = 0;
  mf_callback cb = {1, count_to_three, NULL, &calls};
  mf_spec spec = {.dtype = MF_INT64, .rank = 1, .shape = {2}};
  mf_dataset *g = NULL;
  CHECK_OK(mf_dataset_generator(&cb, NULL, 1, &spec, &g, NULL));
  mf_iterator *it = NULL;
  CHECK_OK(mf_dataset_make_iterator(g, &it, NULL));
  mf_tensor *e;
  bool end;
  mf_error err;
  CHECK(mf_iterator_next(it, &e, &end, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "yielded an element of shape () where an element of shape (2,) was expected"));
  mf_iterator_free(it);
  mf_dataset_release(g);
}

/* A pipeline that spins in C (a filter rejecting everything of a repeated
 * input would never end) stops at an interrupt, at the next element. */
static void test_interrupt(void) {
  mf_dataset *r = NULL, *rep = NULL;
  CHECK_OK(mf_dataset_range(0, 3, 1, &r, NULL));
  CHECK_OK(mf_dataset_repeat(r, -1, &rep, NULL));
  check_interrupt_resumes(rep);
  mf_dataset_release(rep);
  mf_dataset_release(r);
}

int main(void) {
  RUN(test_compose_and_count);
  RUN(test_prefetch_thread);
  RUN(test_fused_function_is_threadable);
  RUN(test_prefetch_autotune);
  RUN(test_host_callback_stays_on_the_caller);
  RUN(test_generator_shape_check);
  RUN(test_interrupt);
  printf("1..%d\n", check_count);
  return check_failed ? 1 : 0;
}
