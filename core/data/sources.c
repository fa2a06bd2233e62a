/* sources.c — the datasets that start a pipeline from tensors or numbers:
 * TF's TensorSliceDataset (from_tensor_slices), TensorDataset
 * (from_tensors) and RangeDataset (range). */
#include <stdlib.h>
#include <string.h>

#include "dataset.h"

/* ---- tensors held by a source ---- */

typedef struct tensors_ds {
  mf_dataset base;
  mf_tensor *comps[MF_DATA_MAX_COMPONENTS]; /* counted */
  int64_t rows; /* slices: the common first dimension; tensors: 1 */
} tensors_ds;

typedef struct tensors_it {
  mf_iterator base;
  int64_t next;
} tensors_it;

static void tensors_drop(mf_dataset *ds) {
  tensors_ds *t = (tensors_ds *)ds;
  mf_release_all(ds->ncomp, t->comps);
}

static int64_t tensors_cardinality(const mf_dataset *ds) { return ((const tensors_ds *)ds)->rows; }

static mf_status slice_next(mf_iterator *it, mf_tensor **out, bool *end, mf_error *err) {
  tensors_it *c = (tensors_it *)it;
  tensors_ds *t = (tensors_ds *)it->ds;
  if (c->next >= t->rows) {
    *end = true;
    return MF_OK;
  }
  for (int i = 0; i < it->ds->ncomp; i++) {
    mf_status s = mf_data_row(t->comps[i], c->next, &out[i], err);
    if (s != MF_OK) {
      mf_release_all(i, out);
      return s;
    }
  }
  c->next++;
  return MF_OK;
}

static mf_status whole_next(mf_iterator *it, mf_tensor **out, bool *end, mf_error *err) {
  (void)err;
  tensors_it *c = (tensors_it *)it;
  tensors_ds *t = (tensors_ds *)it->ds;
  if (c->next >= 1) {
    *end = true;
    return MF_OK;
  }
  for (int i = 0; i < it->ds->ncomp; i++) {
    mf_tensor_retain(t->comps[i]);
    out[i] = t->comps[i];
  }
  c->next++;
  return MF_OK;
}

static const mf_iterator_class slice_it_class = {slice_next, NULL};
static const mf_iterator_class whole_it_class = {whole_next, NULL};

static mf_status slice_iterator(mf_dataset *ds, mf_iterator **out, mf_error *err) {
  return mf_iterator_alloc(&slice_it_class, sizeof(tensors_it), ds, out, err);
}

static mf_status whole_iterator(mf_dataset *ds, mf_iterator **out, mf_error *err) {
  return mf_iterator_alloc(&whole_it_class, sizeof(tensors_it), ds, out, err);
}

static const mf_dataset_class slice_class = {
    MF_DATASET_VARIANT("TensorSliceDatasetOp::Dataset"), slice_iterator, tensors_cardinality,
    tensors_drop};
static const mf_dataset_class tensors_class = {
    MF_DATASET_VARIANT("TensorDatasetOp::Dataset"), whole_iterator, tensors_cardinality,
    tensors_drop};

static mf_status tensors_new(const mf_dataset_class *cls, int n, mf_tensor *const *comps,
                             bool slices, int64_t rows, mf_dataset **out, mf_error *err) {
  mf_spec spec[MF_DATA_MAX_COMPONENTS] = {0};
  if (n > MF_DATA_MAX_COMPONENTS)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "a dataset element may have at most %d components, got %d",
                        MF_DATA_MAX_COMPONENTS, n);
  for (int i = 0; i < n; i++) {
    mf_spec_of_tensor(comps[i], &spec[i]);
    if (slices) {
      spec[i].rank--;
      memmove(spec[i].shape, spec[i].shape + 1, (size_t)spec[i].rank * sizeof spec[i].shape[0]);
    }
  }
  mf_dataset *ds;
  MF_TRY(mf_dataset_alloc(cls, sizeof(tensors_ds), n, spec, &ds, err));
  tensors_ds *t = (tensors_ds *)ds;
  for (int i = 0; i < n; i++) {
    mf_tensor_retain(comps[i]);
    t->comps[i] = comps[i];
  }
  t->rows = rows;
  mf_data_note_variants(ds, n, comps);
  *out = ds;
  return MF_OK;
}

mf_status mf_dataset_tensor_slice(int n, mf_tensor *const *components, mf_dataset **out,
                                  mf_error *err) {
  if (n < 1)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "TensorSliceDataset needs at least one component");
  for (int i = 0; i < n; i++)
    if (components[i]->rank < 1)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "All components must be at least 1-dimensional");
  int64_t rows = components[0]->shape[0];
  for (int i = 1; i < n; i++)
    if (components[i]->shape[0] != rows)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "All components must have the same size in the 0th dimension");
  return tensors_new(&slice_class, n, components, true, rows, out, err);
}

mf_status mf_dataset_tensors(int n, mf_tensor *const *components, mf_dataset **out,
                             mf_error *err) {
  return tensors_new(&tensors_class, n, components, false, 1, out, err);
}

/* ---- range ---- */

typedef struct range_ds {
  mf_dataset base;
  int64_t start, stop, step;
} range_ds;

typedef struct range_it {
  mf_iterator base;
  int64_t next;
} range_it;

static int64_t range_cardinality(const mf_dataset *ds) {
  const range_ds *r = (const range_ds *)ds;
  /* In unsigned arithmetic: the span of two int64s never overflows it. */
  if (r->step > 0) {
    if (r->stop <= r->start) return 0;
    return (int64_t)(((unsigned long long)(r->stop - r->start) + (unsigned long long)r->step - 1) /
                     (unsigned long long)r->step);
  }
  if (r->stop >= r->start) return 0;
  unsigned long long span = (unsigned long long)r->start - (unsigned long long)r->stop;
  unsigned long long st = (unsigned long long)(-(r->step + 1)) + 1;
  return (int64_t)((span + st - 1) / st);
}

static mf_status range_next(mf_iterator *it, mf_tensor **out, bool *end, mf_error *err) {
  range_it *c = (range_it *)it;
  const range_ds *r = (const range_ds *)it->ds;
  if ((r->step > 0 && c->next >= r->stop) || (r->step < 0 && c->next <= r->stop)) {
    *end = true;
    return MF_OK;
  }
  MF_TRY(mf_tensor_scalar_i64(MF_INT64, c->next, out, err));
  /* The next value past the end would overflow: stop there. */
  if (__builtin_add_overflow(c->next, r->step, &c->next)) c->next = r->step > 0 ? INT64_MAX : INT64_MIN;
  return MF_OK;
}

static const mf_iterator_class range_it_class = {range_next, NULL};

static mf_status range_iterator(mf_dataset *ds, mf_iterator **out, mf_error *err) {
  MF_TRY(mf_iterator_alloc(&range_it_class, sizeof(range_it), ds, out, err));
  ((range_it *)*out)->next = ((range_ds *)ds)->start;
  return MF_OK;
}

static const mf_dataset_class range_class = {MF_DATASET_VARIANT("RangeDatasetOp::Dataset"),
                                             range_iterator, range_cardinality, NULL};

mf_status mf_dataset_range(int64_t start, int64_t stop, int64_t step, mf_dataset **out,
                           mf_error *err) {
  if (step == 0) return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "step must be a non-zero integer.");
  mf_spec spec = {.dtype = MF_INT64, .rank = 0};
  MF_TRY(mf_dataset_alloc(&range_class, sizeof(range_ds), 1, &spec, out, err));
  range_ds *r = (range_ds *)*out;
  r->start = start;
  r->stop = stop;
  r->step = step;
  return MF_OK;
}
