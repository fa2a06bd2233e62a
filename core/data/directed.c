/* directed.c — the datasets that pick among other datasets: TF's
 * DirectedInterleaveDataset (choose_from_datasets, sample_from_datasets:
 * a selector dataset of int64 scalars names the input each element comes
 * from, as directed_interleave_dataset_op.cc does it) and RandomDataset
 * (the seeded int64 stream sample_from_datasets draws its choices from). */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "dataset.h"
#include "random.h"

/* ---- directed interleave ---- */

typedef struct directed_ds {
  mf_dataset base; /* inputs[0]: the selector */
  int n;
  mf_dataset **data; /* counted */
  bool stop_on_empty;
} directed_ds;

typedef struct directed_it {
  mf_iterator base;
  mf_iterator *selector; /* owned; NULL once the end is reached */
  mf_iterator **data;    /* n, owned; NULL: exhausted */
  int active;
} directed_it;

static void directed_drop(mf_dataset *ds) {
  directed_ds *d = (directed_ds *)ds;
  for (int i = 0; d->data && i < d->n; i++) mf_dataset_release(d->data[i]);
  free(d->data);
}

static void reset_inputs(directed_it *c, int n) {
  mf_iterator_free(c->selector);
  c->selector = NULL;
  for (int i = 0; c->data && i < n; i++) {
    mf_iterator_free(c->data[i]);
    c->data[i] = NULL;
  }
  c->active = 0;
}

static void directed_it_drop(mf_iterator *it) {
  directed_it *c = (directed_it *)it;
  reset_inputs(c, ((const directed_ds *)it->ds)->n);
  free(c->data);
}

static mf_status directed_next(mf_iterator *it, mf_tensor **out, bool *end, mf_error *err) {
  directed_it *c = (directed_it *)it;
  const directed_ds *d = (const directed_ds *)it->ds;
  while (c->selector) {
    mf_tensor *pick;
    bool done;
    MF_TRY(mf_iterator_next(c->selector, &pick, &done, err));
    if (done) break;
    int64_t k = mf_tensor_get_i64(pick, 0);
    mf_tensor_release(pick);
    if (k < 0 || k >= d->n)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Selector index out of range: %lld >= %d",
                          (long long)k, d->n);
    if (!c->data[k]) continue; /* an exhausted input: pick again */
    MF_TRY(mf_iterator_next(c->data[k], out, &done, err));
    if (!done) return MF_OK;
    if (d->stop_on_empty) break;
    mf_iterator_free(c->data[k]);
    c->data[k] = NULL;
    if (--c->active == 0) break;
  }
  reset_inputs(c, d->n);
  *end = true;
  return MF_OK;
}

static const mf_iterator_class directed_it_class = {directed_next, directed_it_drop};

static mf_status directed_iterator(mf_dataset *ds, mf_iterator **out, mf_error *err) {
  const directed_ds *d = (const directed_ds *)ds;
  MF_TRY(mf_iterator_alloc(&directed_it_class, sizeof(directed_it), ds, out, err));
  directed_it *c = (directed_it *)*out;
  c->data = mf_calloc((size_t)d->n, sizeof *c->data);
  mf_status s = c->data ? mf_dataset_make_iterator(ds->inputs[0], &c->selector, err)
                        : mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  for (int i = 0; s == MF_OK && i < d->n; i++) s = mf_dataset_make_iterator(d->data[i], &c->data[i], err);
  c->active = d->n;
  if (s != MF_OK) {
    mf_iterator_free(*out);
    *out = NULL;
  }
  return s;
}

/* As TF: infinite when an input is, else unknown. */
static int64_t directed_cardinality(const mf_dataset *ds) {
  const directed_ds *d = (const directed_ds *)ds;
  for (int i = 0; i < d->n; i++)
    if (mf_dataset_cardinality(d->data[i]) == MF_CARDINALITY_INFINITE) return MF_CARDINALITY_INFINITE;
  return MF_CARDINALITY_UNKNOWN;
}

static const mf_dataset_class directed_class = {
    MF_DATASET_VARIANT("DirectedInterleaveDatasetOp::Dataset"), directed_iterator,
    directed_cardinality, directed_drop};

mf_status mf_dataset_directed_interleave(mf_dataset *selector, int n, mf_dataset *const *data,
                                         bool stop_on_empty, mf_dataset **out, mf_error *err) {
  const mf_spec *s = selector->spec;
  if (selector->ncomp != 1 || s->dtype != MF_INT64 || s->rank > 0)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "The selector input must be a dataset of scalar int64 elements.");
  if (n < 1) return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "At least one data input is needed.");
  for (int i = 1; i < n; i++) {
    bool same = data[i]->ncomp == data[0]->ncomp;
    for (int k = 0; same && k < data[0]->ncomp; k++) same = data[i]->spec[k].dtype == data[0]->spec[k].dtype;
    if (!same)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "All inputs must have the same output_dtypes. First input differs from "
                          "input %d",
                          i);
  }
  /* The most specific shape every input's elements fit. */
  int ncomp = data[0]->ncomp;
  mf_spec spec[MF_DATA_MAX_COMPONENTS];
  memcpy(spec, data[0]->spec, (size_t)ncomp * sizeof *spec);
  for (int i = 1; i < n; i++)
    for (int k = 0; k < ncomp; k++) {
      const mf_spec *o = &data[i]->spec[k];
      if (spec[k].rank < 0 || o->rank != spec[k].rank) {
        spec[k].rank = -1;
        continue;
      }
      for (int a = 0; a < o->rank; a++)
        if (spec[k].shape[a] != o->shape[a]) spec[k].shape[a] = MF_UNKNOWN_DIM;
    }
  MF_TRY(mf_dataset_alloc(&directed_class, sizeof(directed_ds), ncomp, spec, out, err));
  directed_ds *d = (directed_ds *)*out;
  mf_dataset_add_input(*out, selector);
  d->data = mf_calloc((size_t)n, sizeof *d->data);
  if (!d->data) {
    mf_dataset_release(*out);
    *out = NULL;
    return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  }
  for (int i = 0; i < n; i++) {
    mf_dataset_retain(data[i]);
    d->data[i] = data[i];
    (*out)->host = (*out)->host || data[i]->host;
    (*out)->threadable = (*out)->threadable && data[i]->threadable;
  }
  d->n = n;
  d->stop_on_empty = stop_on_empty;
  return MF_OK;
}

/* ---- random ---- */

typedef struct random_ds {
  mf_dataset base;
  uint64_t seed;
  bool rerandomize;
  _Atomic uint64_t iterations; /* iterators made: the stream of each, when rerandomizing */
} random_ds;

typedef struct random_it {
  mf_iterator base;
  uint64_t state;
} random_it;

static mf_status random_next(mf_iterator *it, mf_tensor **out, bool *end, mf_error *err) {
  (void)end;
  /* Values in [0, 2^32), as TF's RandomDataset draws them. */
  int64_t v = (int64_t)(mf_splitmix64(&((random_it *)it)->state) >> 32);
  return mf_tensor_scalar_i64(MF_INT64, v, &out[0], err);
}

static const mf_iterator_class random_it_class = {random_next, NULL};

static mf_status random_iterator(mf_dataset *ds, mf_iterator **out, mf_error *err) {
  random_ds *r = (random_ds *)ds;
  MF_TRY(mf_iterator_alloc(&random_it_class, sizeof(random_it), ds, out, err));
  uint64_t state = r->seed;
  if (r->rerandomize) {
    uint64_t k = r->iterations++;
    state ^= mf_splitmix64(&k);
  }
  ((random_it *)*out)->state = state;
  return MF_OK;
}

static int64_t random_cardinality(const mf_dataset *ds) {
  (void)ds;
  return MF_CARDINALITY_INFINITE;
}

static const mf_dataset_class random_class = {MF_DATASET_VARIANT("RandomDatasetOp::Dataset"),
                                              random_iterator, random_cardinality, NULL};

mf_status mf_dataset_random(int64_t seed, int64_t seed2, bool rerandomize, mf_dataset **out,
                            mf_error *err) {
  mf_spec spec = {.dtype = MF_INT64, .rank = 0};
  MF_TRY(mf_dataset_alloc(&random_class, sizeof(random_ds), 1, &spec, out, err));
  random_ds *r = (random_ds *)*out;
  uint64_t mix = (uint64_t)seed * 0x9E3779B97F4A7C15ULL ^ (uint64_t)seed2;
  r->seed = mf_splitmix64(&mix);
  r->rerandomize = rerandomize;
  return MF_OK;
}
