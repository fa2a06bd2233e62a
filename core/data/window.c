/* window.c — TF's WindowDataset: each element is a window of its input's
 * elements, one dataset per component (a variant scalar), as
 * window_dataset_op.cc builds them: a buffer filled to
 * (size - 1) * stride + 1 elements, every stride-th of them taken, then
 * shifted by shift (the elements between skipped when shift is longer
 * than the buffer). The datasets of a window are list datasets: the
 * tensors themselves, given in order. */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "dataset.h"

/* ---- the list dataset a window component is ---- */

typedef struct list_ds {
  mf_dataset base;
  int64_t n;
  mf_tensor **items; /* counted */
} list_ds;

typedef struct list_it {
  mf_iterator base;
  int64_t next;
} list_it;

static void list_drop(mf_dataset *ds) {
  list_ds *l = (list_ds *)ds;
  if (l->items) mf_release_all((int)l->n, l->items);
  free(l->items);
}

static mf_status list_next(mf_iterator *it, mf_tensor **out, bool *end, mf_error *err) {
  (void)err;
  list_it *c = (list_it *)it;
  const list_ds *l = (const list_ds *)it->ds;
  if (c->next == l->n) {
    *end = true;
    return MF_OK;
  }
  out[0] = l->items[c->next++];
  mf_tensor_retain(out[0]);
  return MF_OK;
}

static const mf_iterator_class list_it_class = {list_next, NULL};

static mf_status list_iterator(mf_dataset *ds, mf_iterator **out, mf_error *err) {
  return mf_iterator_alloc(&list_it_class, sizeof(list_it), ds, out, err);
}

static int64_t list_cardinality(const mf_dataset *ds) { return ((const list_ds *)ds)->n; }

/* TF's window datasets print as "Window". */
static const mf_dataset_class list_class = {MF_DATASET_VARIANT("Window"), list_iterator,
                                            list_cardinality, list_drop};

mf_status mf_dataset_list(int n, mf_tensor *const *items, const mf_spec *spec, mf_dataset **out,
                          mf_error *err) {
  MF_TRY(mf_dataset_alloc(&list_class, sizeof(list_ds), 1, spec, out, err));
  list_ds *l = (list_ds *)*out;
  l->items = mf_calloc((size_t)n + 1, sizeof *l->items);
  if (!l->items) {
    mf_dataset_release(*out);
    *out = NULL;
    return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  }
  for (int i = 0; i < n; i++) {
    mf_tensor_retain(items[i]);
    l->items[i] = items[i];
  }
  l->n = n;
  mf_data_note_variants(*out, n, items);
  return MF_OK;
}

/* ---- the window dataset ---- */

typedef struct window_ds {
  mf_dataset base;
  int64_t size, shift, stride, target; /* target: the buffer's full length */
  bool drop_remainder;
} window_ds;

/* The buffer holds whole elements, ncomp tensors each, oldest first, or
 * the error computing one gave: as TF, an error counts only when its
 * element is taken into a window (a stride may skip it). */
typedef struct window_it {
  mf_iterator base;
  mf_iterator *in; /* owned; NULL once the input is exhausted */
  mf_tensor **buf; /* cap elements * ncomp, counted (NULL for an error) */
  mf_error *errs;  /* cap entries: code MF_OK, or the element's error */
  int64_t n, cap;
} window_it;

static int in_ncomp(const mf_iterator *it) { return it->ds->inputs[0]->ncomp; }

/* Releases the non-NULL of n tensors. */
static void release_some(int64_t n, mf_tensor **ts) {
  for (int64_t i = 0; i < n; i++) mf_tensor_release(ts[i]);
}

static void window_it_drop(mf_iterator *it) {
  window_it *c = (window_it *)it;
  mf_iterator_free(c->in);
  if (c->buf) release_some(c->n * in_ncomp(it), c->buf);
  free(c->buf);
  free(c->errs);
}

static void end_input(window_it *c) {
  mf_iterator_free(c->in);
  c->in = NULL;
}

/* Reads input elements until the buffer holds target, or the input ends. */
static mf_status fill(window_it *c, const window_ds *d, int ncomp, mf_error *err) {
  while (c->in && c->n < d->target) {
    if (c->n == c->cap) {
      int64_t cap = c->cap ? c->cap * 2 : 8;
      if (cap > d->target) cap = d->target;
      mf_tensor **buf = realloc(c->buf, (size_t)(cap * ncomp) * sizeof *buf);
      if (buf) c->buf = buf;
      mf_error *errs = buf ? realloc(c->errs, (size_t)cap * sizeof *errs) : NULL;
      if (!errs) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
      c->errs = errs;
      c->cap = cap;
    }
    bool end = false;
    mf_tensor **slot = c->buf + c->n * ncomp;
    mf_error *e = &c->errs[c->n];
    mf_error_clear(e);
    if (mf_iterator_next(c->in, slot, &end, e) != MF_OK) {
      memset(slot, 0, (size_t)ncomp * sizeof *slot);
      if (e->status == MF_ERR_INTERRUPTED) return mf_error_set(err, e->status, "%s", e->message);
      c->n++;
    } else if (end) {
      end_input(c);
    } else {
      e->status = MF_OK;
      c->n++;
    }
  }
  return MF_OK;
}

/* Drops the first shift elements: buffered ones, then unread input ones. */
static mf_status shift_buffer(window_it *c, const window_ds *d, int ncomp, mf_error *err) {
  int64_t drop = d->shift < c->n ? d->shift : c->n;
  release_some(drop * ncomp, c->buf);
  memmove(c->buf, c->buf + drop * ncomp, (size_t)((c->n - drop) * ncomp) * sizeof *c->buf);
  memmove(c->errs, c->errs + drop, (size_t)(c->n - drop) * sizeof *c->errs);
  c->n -= drop;
  /* The elements skipped over: their errors are ignored, as TF ignores them. */
  mf_tensor *skip[MF_DATA_MAX_COMPONENTS];
  for (int64_t i = drop; c->in && i < d->shift; i++) {
    bool end = false;
    mf_error ignored;
    mf_status s = mf_iterator_next(c->in, skip, &end, &ignored);
    if (s == MF_ERR_INTERRUPTED) return mf_error_set(err, s, "%s", ignored.message);
    if (s != MF_OK) continue;
    if (end)
      end_input(c);
    else
      mf_release_all(ncomp, skip);
  }
  return MF_OK;
}

/* out[k]: a dataset of component k of the elements taken. */
static mf_status make_window(window_it *c, const window_ds *d, int ncomp, mf_tensor **out,
                             mf_error *err) {
  int64_t taken = 1 + (c->n - 1) / d->stride;
  for (int64_t i = 0; i < taken; i++) {
    const mf_error *e = &c->errs[i * d->stride];
    if (e->status != MF_OK) return mf_error_set(err, e->status, "%s", e->message);
  }
  mf_tensor **items = mf_malloc((size_t)taken * sizeof *items);
  if (!items) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  const mf_spec *spec = c->base.ds->inputs[0]->spec;
  mf_status s = MF_OK;
  int k = 0;
  for (; s == MF_OK && k < ncomp; k++) {
    for (int64_t i = 0; i < taken; i++) items[i] = c->buf[i * d->stride * ncomp + k];
    mf_dataset *w = NULL;
    s = mf_dataset_list((int)taken, items, &spec[k], &w, err);
    if (s == MF_OK) {
      s = mf_dataset_to_tensor(w, &out[k], err);
      mf_dataset_release(w);
    }
  }
  if (s != MF_OK) mf_release_all(k - 1, out);
  free(items);
  return s;
}

static mf_status window_next(mf_iterator *it, mf_tensor **out, bool *end, mf_error *err) {
  window_it *c = (window_it *)it;
  const window_ds *d = (const window_ds *)it->ds;
  int ncomp = in_ncomp(it);
  MF_TRY(fill(c, d, ncomp, err));
  if (c->n == 0 || (d->drop_remainder && c->n < d->target)) {
    *end = true;
    return MF_OK;
  }
  /* The window is shifted past even when it fails, as TF's is. */
  mf_status made = make_window(c, d, ncomp, out, err);
  mf_error shift_err;
  mf_status s = shift_buffer(c, d, ncomp, made == MF_OK ? err : &shift_err);
  if (made != MF_OK) return made;
  if (s != MF_OK) mf_release_all(ncomp, out);
  return s;
}

static const mf_iterator_class window_it_class = {window_next, window_it_drop};

static mf_status window_iterator(mf_dataset *ds, mf_iterator **out, mf_error *err) {
  MF_TRY(mf_iterator_alloc(&window_it_class, sizeof(window_it), ds, out, err));
  mf_status s = mf_dataset_make_iterator(ds->inputs[0], &((window_it *)*out)->in, err);
  if (s != MF_OK) {
    mf_iterator_free(*out);
    *out = NULL;
  }
  return s;
}

/* As TF's CardinalityInternal. */
static int64_t window_cardinality(const mf_dataset *ds) {
  const window_ds *d = (const window_ds *)ds;
  int64_t n = mf_dataset_cardinality(ds->inputs[0]);
  if (n < 0) return n;
  if (d->drop_remainder) return n < d->target ? 0 : (n - d->target) / d->shift + 1;
  return n / d->shift + (n % d->shift ? 1 : 0);
}

static const mf_dataset_class window_class = {MF_DATASET_VARIANT("WindowDatasetOp::Dataset"),
                                              window_iterator, window_cardinality, NULL};

mf_status mf_dataset_window(mf_dataset *in, int64_t size, int64_t shift, int64_t stride,
                            bool drop_remainder, mf_dataset **out, mf_error *err) {
  if (size <= 0)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Window size must be greater than zero.");
  if (shift <= 0)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Window shift must be greater than zero.");
  if (stride <= 0)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Window stride must be greater than zero.");
  int64_t target;
  if (__builtin_mul_overflow(size - 1, stride, &target) || __builtin_add_overflow(target, 1, &target))
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Window target buffer size overflow: (window_size=%lld - 1) * "
                        "window_stride=%lld + 1 is not representable.",
                        (long long)size, (long long)stride);
  mf_spec spec[MF_DATA_MAX_COMPONENTS];
  for (int k = 0; k < in->ncomp; k++) spec[k] = (mf_spec){.dtype = MF_VARIANT, .rank = 0};
  MF_TRY(mf_dataset_alloc(&window_class, sizeof(window_ds), in->ncomp, spec, out, err));
  window_ds *d = (window_ds *)*out;
  mf_dataset_add_input(*out, in);
  d->size = size;
  d->shift = shift;
  d->stride = stride;
  d->target = target;
  d->drop_remainder = drop_remainder;
  return MF_OK;
}
