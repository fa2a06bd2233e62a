/* test_data_nested.c — datasets of datasets (core/data/window.c,
 * nested.c): a window's elements are datasets of its components in TF's
 * order and cardinality; flat_map and interleave (over an identity
 * function of a window) give their inner elements in TF's order; an
 * iterator dropped mid-stream (inner iterators open, a window buffered)
 * frees everything, which LeakSanitizer checks (tests/run.sh); a prefetch
 * over them runs its producer thread and gives the same elements. */
#include <string.h>

#include "check.h"
#include "op_test.h"
#include "graph_test.h"
#include "dataset.h"
#include "data_test.h"

static mf_dataset *range(int64_t n) {
  mf_dataset *ds = NULL;
  CHECK_OK(mf_dataset_range(0, n, 1, &ds, NULL));
  return ds;
}

static mf_dataset *window(mf_dataset *in, int64_t size, int64_t shift, int64_t stride, bool drop) {
  mf_dataset *w = NULL;
  CHECK_OK(mf_dataset_window(in, size, shift, stride, drop, &w, NULL));
  return w;
}

/* Up to max int64 scalars of ds, written to vals; returns how many. */
static int drain(mf_dataset *ds, int64_t *vals, int max) {
  mf_iterator *it = NULL;
  mf_error err;
  if (mf_dataset_make_iterator(ds, &it, &err) != MF_OK) return -1;
  int n = 0;
  for (;;) {
    mf_tensor *t;
    bool end;
    if (mf_iterator_next(it, &t, &end, &err) != MF_OK) {
      printf("#   next: %s\n", err.message);
      n = -1;
      break;
    }
    if (end) break;
    if (n < max) vals[n] = mf_tensor_get_i64(t, 0);
    n++;
    mf_tensor_release(t);
  }
  mf_iterator_free(it);
  return n;
}

static bool equal(const int64_t *got, int n, const int64_t *want, int m) {
  if (n != m) {
    printf("#   %d elements, %d expected\n", n, m);
    return false;
  }
  for (int i = 0; i < n; i++)
    if (got[i] != want[i]) {
      printf("#   element %d is %lld, %lld expected\n", i, (long long)got[i], (long long)want[i]);
      return false;
    }
  return true;
}

#define WANT(...) ((const int64_t[]){__VA_ARGS__}), (int)(sizeof((const int64_t[]){__VA_ARGS__}) / sizeof(int64_t))

/* The windows of ds (one component), flattened; sizes[i]: window i's length. */
static int windows(mf_dataset *w, int64_t *vals, int64_t *sizes, int *nwin) {
  mf_iterator *it = NULL;
  CHECK_OK(mf_dataset_make_iterator(w, &it, NULL));
  int n = 0;
  *nwin = 0;
  for (;;) {
    mf_tensor *t;
    bool end;
    CHECK_OK(mf_iterator_next(it, &t, &end, NULL));
    if (end) break;
    mf_dataset *inner = mf_dataset_of(t);
    CHECK(inner != NULL && inner->ncomp == 1 && inner->spec[0].dtype == MF_INT64);
    int k = drain(inner, vals + n, 64 - n);
    CHECK(mf_dataset_cardinality(inner) == k);
    sizes[(*nwin)++] = k;
    n += k;
    mf_tensor_release(t);
  }
  mf_iterator_free(it);
  return n;
}

static void test_window_order_and_cardinality(void) {
  int64_t vals[64], sizes[16];
  int nwin;
  mf_dataset *r = range(7);
  mf_dataset *w = window(r, 3, 2, 1, false);
  CHECK(w->ncomp == 1 && w->spec[0].dtype == MF_VARIANT && w->spec[0].rank == 0);
  int n = windows(w, vals, sizes, &nwin);
  CHECK(equal(vals, n, WANT(0, 1, 2, 2, 3, 4, 4, 5, 6, 6)));
  CHECK(equal(sizes, nwin, WANT(3, 3, 3, 1)));
  CHECK(mf_dataset_cardinality(w) == 4);
  mf_dataset_release(w);
  /* stride 2, drop_remainder: windows [0 2 4], [3 5 7]... of range(7) only the first fits */
  w = window(r, 3, 3, 2, true);
  n = windows(w, vals, sizes, &nwin);
  CHECK(equal(vals, n, WANT(0, 2, 4)));
  CHECK(mf_dataset_cardinality(w) == 1);
  mf_dataset_release(w);
  /* a shift longer than the buffer skips the elements between */
  w = window(r, 2, 5, 1, false);
  n = windows(w, vals, sizes, &nwin);
  CHECK(equal(vals, n, WANT(0, 1, 5, 6)));
  CHECK(mf_dataset_cardinality(w) == 2);
  mf_dataset_release(w);
  mf_dataset_release(r);
}

static void test_window_errors(void) {
  mf_dataset *r = range(3), *w = NULL;
  mf_error err;
  CHECK(mf_dataset_window(r, 0, 1, 1, false, &w, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(strcmp(err.message, "Window size must be greater than zero.") == 0);
  CHECK(mf_dataset_window(r, 2, 0, 1, false, &w, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(strcmp(err.message, "Window shift must be greater than zero.") == 0);
  CHECK(mf_dataset_window(r, 2, 1, -1, false, &w, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(strcmp(err.message, "Window stride must be greater than zero.") == 0);
  CHECK(mf_dataset_window(r, INT64_MAX, 1, 3, false, &w, &err) == MF_ERR_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "Window target buffer size overflow") != NULL);
  CHECK(w == NULL);
  mf_dataset_release(r);
}

/* f(x) = x over one variant scalar: each window's dataset as it is. */
static mf_graph *identity_fn(void) {
  mf_graph *g = new_graph();
  ref x = input(g, MF_VARIANT, 0, NULL, NULL);
  outputs(g, 1, REFS(x));
  return g;
}

static const mf_spec int64_scalar = {.dtype = MF_INT64, .rank = 0};

static mf_dataset *flat_map(mf_dataset *in, mf_graph *f) {
  mf_dataset *ds = NULL;
  CHECK_OK(mf_dataset_flat_map(in, f, 0, NULL, 1, &int64_scalar, &ds, NULL));
  return ds;
}

static mf_dataset *interleave(mf_dataset *in, mf_graph *f, int64_t cycle, int64_t block) {
  mf_dataset *ds = NULL;
  CHECK_OK(mf_dataset_interleave(in, f, 0, NULL, cycle, block, 0, 1, &int64_scalar, &ds, NULL));
  return ds;
}

static void test_flat_map_and_interleave_order(void) {
  int64_t vals[64];
  mf_graph *f = identity_fn();
  mf_dataset *r = range(8), *w = window(r, 3, 3, 1, false);
  mf_dataset *fm = flat_map(w, f);
  CHECK(equal(vals, drain(fm, vals, 64), WANT(0, 1, 2, 3, 4, 5, 6, 7)));
  CHECK(mf_dataset_cardinality(fm) == MF_CARDINALITY_UNKNOWN);
  /* windows [0 1 2] [3 4 5] [6 7]: two open at once, one element from each in turn */
  mf_dataset *il = interleave(w, f, 2, 1);
  CHECK(equal(vals, drain(il, vals, 64), WANT(0, 3, 1, 4, 2, 5, 6, 7)));
  mf_dataset_release(il);
  /* two elements from each in turn; a finished one is replaced in its slot */
  il = interleave(w, f, 2, 2);
  CHECK(equal(vals, drain(il, vals, 64), WANT(0, 1, 3, 4, 2, 5, 6, 7)));
  CHECK(mf_dataset_cardinality(il) == MF_CARDINALITY_UNKNOWN);
  mf_dataset_release(il);
  mf_dataset_release(fm);
  mf_dataset_release(w);
  mf_dataset_release(r);
  mf_graph_release(f);
}

static void test_interleave_errors(void) {
  mf_graph *f = identity_fn();
  mf_dataset *r = range(4), *w = window(r, 2, 2, 1, false), *ds = NULL;
  mf_error err;
  CHECK(mf_dataset_interleave(w, f, 0, NULL, 0, 1, 0, 1, &int64_scalar, &ds, &err) != MF_OK);
  CHECK(strcmp(err.message, "cycle_length must be greater than zero.") == 0);
  CHECK(mf_dataset_interleave(w, f, 0, NULL, 2, 0, 0, 1, &int64_scalar, &ds, &err) != MF_OK);
  CHECK(strcmp(err.message, "block_length must be greater than zero.") == 0);
  /* AUTOTUNE: as many open as there are CPUs, at least one */
  CHECK_OK(mf_dataset_interleave(w, f, 0, NULL, -1, 1, 0, 1, &int64_scalar, &ds, NULL));
  int64_t vals[8];
  CHECK(drain(ds, vals, 8) == 4);
  mf_dataset_release(ds);
  CHECK(mf_data_cpu_count() >= 1);
  mf_dataset_release(w);
  mf_dataset_release(r);
  mf_graph_release(f);
}

/* Dropped mid-stream: windows buffered, inner iterators open. */
static void test_dropped_mid_stream(void) {
  mf_graph *f = identity_fn();
  mf_dataset *r = range(100), *w = window(r, 5, 1, 2, true);
  mf_dataset *il = interleave(w, f, 3, 2);
  mf_iterator *it = NULL;
  CHECK_OK(mf_dataset_make_iterator(il, &it, NULL));
  for (int i = 0; i < 7; i++) {
    mf_tensor *t;
    bool end;
    CHECK_OK(mf_iterator_next(it, &t, &end, NULL));
    CHECK(!end);
    mf_tensor_release(t);
  }
  mf_iterator_free(it);
  mf_dataset_release(il);
  mf_dataset_release(w);
  mf_dataset_release(r);
  mf_graph_release(f);
}

static void test_prefetch_over_flat_map(void) {
  int64_t vals[64];
  mf_graph *f = identity_fn();
  mf_dataset *r = range(10), *w = window(r, 4, 4, 1, false), *fm = flat_map(w, f), *p = NULL;
  CHECK(fm->threadable);
  CHECK_OK(mf_dataset_prefetch(fm, 2, &p, NULL));
  CHECK(mf_dataset_prefetch_threaded(p));
  CHECK(equal(vals, drain(p, vals, 64), WANT(0, 1, 2, 3, 4, 5, 6, 7, 8, 9)));
  /* dropped while its producer waits for room */
  mf_iterator *it = NULL;
  CHECK_OK(mf_dataset_make_iterator(p, &it, NULL));
  mf_tensor *t;
  bool end;
  CHECK_OK(mf_iterator_next(it, &t, &end, NULL));
  CHECK(!end && mf_tensor_get_i64(t, 0) == 0);
  mf_tensor_release(t);
  mf_iterator_free(it);
  mf_dataset_release(p);
  mf_dataset_release(fm);
  mf_dataset_release(w);
  mf_dataset_release(r);
  mf_graph_release(f);
}

/* Ctrl-C stops a pipeline that would never end at the next element, and
 * it goes on after. */
static void test_interrupt(void) {
  mf_graph *f = identity_fn();
  mf_dataset *r = range(3), *rep = NULL;
  CHECK_OK(mf_dataset_repeat(r, -1, &rep, NULL));
  mf_dataset *w = window(rep, 2, 1, 1, true), *il = interleave(w, f, 2, 3);
  CHECK(mf_dataset_cardinality(w) == MF_CARDINALITY_INFINITE);
  check_interrupt_resumes(il);
  mf_dataset_release(il);
  mf_dataset_release(w);
  mf_dataset_release(rep);
  mf_dataset_release(r);
  mf_graph_release(f);
}

/* choose_from_datasets' kernel: picks in the selector's order, an
 * exhausted input skipped or ending everything; random's stream repeats
 * per iterator unless rerandomized. */
static void test_directed_and_random(void) {
  int64_t vals[64];
  mf_dataset *a = range(2), *b = NULL, *sel = NULL, *d = NULL;
  CHECK_OK(mf_dataset_range(10, 13, 1, &b, NULL));
  int64_t picks[] = {0, 1, 0, 0, 1, 1, 1};
  mf_tensor *p = NULL;
  CHECK_OK(mf_tensor_zeros(MF_INT64, 1, (int64_t[]){7}, &p, NULL));
  for (int i = 0; i < 7; i++) MF_DATA(p, int64_t)[i] = picks[i];
  CHECK_OK(mf_dataset_tensor_slice(1, &p, &sel, NULL));
  mf_dataset *data[] = {a, b};
  CHECK_OK(mf_dataset_directed_interleave(sel, 2, data, false, &d, NULL));
  CHECK(equal(vals, drain(d, vals, 64), WANT(0, 10, 1, 11, 12)));
  CHECK(mf_dataset_cardinality(d) == MF_CARDINALITY_UNKNOWN);
  mf_dataset_release(d);
  CHECK_OK(mf_dataset_directed_interleave(sel, 2, data, true, &d, NULL));
  CHECK(equal(vals, drain(d, vals, 64), WANT(0, 10, 1)));
  /* dropped mid-stream */
  mf_iterator *it = NULL;
  CHECK_OK(mf_dataset_make_iterator(d, &it, NULL));
  mf_tensor *e;
  bool end;
  CHECK_OK(mf_iterator_next(it, &e, &end, NULL));
  mf_tensor_release(e);
  mf_iterator_free(it);
  mf_dataset_release(d);
  mf_error err;
  CHECK(mf_dataset_directed_interleave(a, 1, data, false, &d, &err) == MF_OK);
  mf_dataset_release(d);
  CHECK(mf_dataset_directed_interleave(sel, 1, (mf_dataset *[]){sel}, false, &d, &err) == MF_OK);
  mf_dataset_release(d);

  mf_dataset *r = NULL, *t = NULL;
  CHECK_OK(mf_dataset_random(42, 0, false, &r, NULL));
  CHECK(mf_dataset_cardinality(r) == MF_CARDINALITY_INFINITE);
  CHECK_OK(mf_dataset_take(r, 5, &t, NULL));
  int64_t again[8];
  CHECK(drain(t, vals, 64) == 5 && drain(t, again, 8) == 5);
  CHECK(memcmp(vals, again, 5 * sizeof *vals) == 0);
  for (int i = 0; i < 5; i++) CHECK(vals[i] >= 0 && vals[i] < (1LL << 32));
  mf_dataset_release(t);
  mf_dataset_release(r);
  CHECK_OK(mf_dataset_random(42, 0, true, &r, NULL));
  CHECK_OK(mf_dataset_take(r, 5, &t, NULL));
  drain(t, vals, 64);
  drain(t, again, 8);
  CHECK(memcmp(vals, again, 5 * sizeof *vals) != 0);
  mf_dataset_release(t);
  mf_dataset_release(r);
  mf_tensor_release(p);
  mf_dataset_release(sel);
  mf_dataset_release(b);
  mf_dataset_release(a);
}

int main(void) {
  RUN(test_window_order_and_cardinality);
  RUN(test_window_errors);
  RUN(test_flat_map_and_interleave_order);
  RUN(test_interleave_errors);
  RUN(test_dropped_mid_stream);
  RUN(test_prefetch_over_flat_map);
  RUN(test_interrupt);
  RUN(test_directed_and_random);
  printf("1..%d\n", check_count);
  return check_failed ? 1 : 0;
}
