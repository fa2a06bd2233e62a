/* transforms.c — the datasets made from other datasets without a
 * function: TF's BatchDatasetV2, PaddedBatchDatasetV2, UnbatchDataset,
 * TakeDataset, SkipDataset, RepeatDataset, ZipDataset,
 * ConcatenateDataset, ShuffleDatasetV3 and CacheDatasetV2 (in memory).
 * Each is a class (cardinality, make_iterator) and a cursor (next). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "array_util.h"
#include "random.h"
#include "dataset.h"

/* A cursor over one upstream dataset: most transformations. */
typedef struct unary_it {
  mf_iterator base;
  mf_iterator *in; /* owned */
  int64_t count;   /* elements given (take, skip) or epochs done (repeat) */
  bool given;      /* repeat: this epoch gave an element */
} unary_it;

static void unary_drop(mf_iterator *it) { mf_iterator_free(((unary_it *)it)->in); }

static mf_status unary_iterator(const mf_iterator_class *cls, size_t size, mf_dataset *ds,
                                mf_iterator **out, mf_error *err) {
  MF_TRY(mf_iterator_alloc(cls, size, ds, out, err));
  mf_status s = mf_dataset_make_iterator(ds->inputs[0], &((unary_it *)*out)->in, err);
  if (s != MF_OK) {
    mf_iterator_free(*out);
    *out = NULL;
  }
  return s;
}

static mf_status unary_new(const mf_dataset_class *cls, size_t size, mf_dataset *in, int ncomp,
                           const mf_spec *spec, mf_dataset **out, mf_error *err) {
  MF_TRY(mf_dataset_alloc(cls, size, ncomp, spec, out, err));
  mf_dataset_add_input(*out, in);
  return MF_OK;
}

static int64_t input_cardinality(const mf_dataset *ds) {
  return mf_dataset_cardinality(ds->inputs[0]);
}

/* ---- batch ---- */

typedef struct batch_ds {
  mf_dataset base;
  int64_t size;
  bool drop_remainder;
  bool padded;
  mf_spec padded_shapes[MF_DATA_MAX_COMPONENTS];
  mf_tensor *padding[MF_DATA_MAX_COMPONENTS]; /* counted */
} batch_ds;

static int64_t batch_cardinality(const mf_dataset *ds) {
  const batch_ds *b = (const batch_ds *)ds;
  int64_t n = input_cardinality(ds);
  if (n < 0) return n;
  return b->drop_remainder ? n / b->size : n / b->size + (n % b->size != 0);
}

static void batch_drop(mf_dataset *ds) {
  batch_ds *b = (batch_ds *)ds;
  if (b->padded) mf_release_all(ds->ncomp, b->padding);
}

/* The padded batch of component k of elems[0..n): each element copied into
 * the top-left corner of a tensor of the padded shape filled with the
 * padding value. */
static mf_status pad_stack(const batch_ds *b, int k, int n, mf_tensor **elems, int ncomp,
                           mf_tensor **out, mf_error *err) {
  const mf_spec *ps = &b->padded_shapes[k];
  int rank = elems[k]->rank;
  int64_t shape[MF_MAX_RANK];
  shape[0] = n;
  for (int d = 0; d < rank; d++) {
    int64_t longest = 0;
    for (int i = 0; i < n; i++) {
      const mf_tensor *e = elems[i * ncomp + k];
      if (e->rank != rank)
        return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                            "All elements in a batch must have the same rank as the padded shape "
                            "for component%d: expected rank %d but got element with rank %d",
                            k, rank, e->rank);
      if (e->shape[d] > longest) longest = e->shape[d];
    }
    int64_t want = ps->rank == rank ? ps->shape[d] : -1;
    if (want >= 0 && longest > want)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "Attempted to pad to a smaller size than the input element.");
    shape[d + 1] = want >= 0 ? want : longest;
  }
  if (rank + 1 > MF_MAX_RANK)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "a batch of rank-%d elements exceeds rank %d",
                        rank, MF_MAX_RANK);
  mf_tensor *t;
  MF_TRY(mf_tensor_new(elems[k]->dtype, rank + 1, shape, &t, err));
  mf_status s = mf_tensor_fill(t, 0, t->size, b->padding[k], err);
  int64_t dst_strides[MF_MAX_RANK], src_strides[MF_MAX_RANK];
  mf_strides_of(rank + 1, shape, dst_strides);
  int64_t row = t->size / (n ? n : 1);
  for (int i = 0; s == MF_OK && i < n; i++) {
    const mf_tensor *e = elems[i * ncomp + k];
    if (e->size == 0) continue;
    mf_strides_of(rank, e->shape, src_strides);
    if (rank == 0) {
      int64_t one = 1;
      s = mf_copy_strided(t, i * row, &one, e, 0, &one, 1, &one, err);
    } else {
      s = mf_copy_strided(t, i * row, dst_strides + 1, e, 0, src_strides, rank, e->shape, err);
    }
  }
  if (s != MF_OK) {
    mf_tensor_release(t);
    return s;
  }
  *out = t;
  return MF_OK;
}

static mf_status batch_next(mf_iterator *it, mf_tensor **out, bool *end, mf_error *err) {
  unary_it *c = (unary_it *)it;
  const batch_ds *b = (const batch_ds *)it->ds;
  int ncomp = it->ds->ncomp;
  int64_t cap = b->size < 1024 ? b->size : 1024;
  mf_tensor **elems = mf_malloc((size_t)(cap * ncomp + 1) * sizeof *elems);
  if (!elems) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  int64_t n = 0;
  mf_status s = MF_OK;
  bool in_end = false;
  while (n < b->size) {
    if (n == cap) {
      cap *= 2;
      mf_tensor **grown = mf_realloc(elems, (size_t)(cap * ncomp) * sizeof *elems);
      if (!grown) {
        s = mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
        break;
      }
      elems = grown;
    }
    s = mf_iterator_next(c->in, elems + n * ncomp, &in_end, err);
    if (s != MF_OK || in_end) break;
    n++;
  }
  if (s == MF_OK && (n == 0 || (b->drop_remainder && n < b->size))) {
    *end = true;
  } else if (s == MF_OK) {
    for (int k = 0; k < ncomp && s == MF_OK; k++) {
      if (b->padded) {
        s = pad_stack(b, k, (int)n, elems, ncomp, &out[k], err);
      } else {
        mf_tensor *col[1024];
        mf_tensor **column = n <= 1024 ? col : mf_malloc((size_t)n * sizeof *column);
        if (!column) {
          s = mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
          break;
        }
        for (int64_t i = 0; i < n; i++) column[i] = elems[i * ncomp + k];
        s = mf_data_stack((int)n, column, k, &out[k], err);
        if (column != col) free(column);
      }
      if (s != MF_OK) mf_release_all(k, out);
    }
  }
  mf_release_all((int)(n * ncomp), elems);
  free(elems);
  return s;
}

static const mf_iterator_class batch_it_class = {batch_next, unary_drop};

static mf_status batch_iterator(mf_dataset *ds, mf_iterator **out, mf_error *err) {
  return unary_iterator(&batch_it_class, sizeof(unary_it), ds, out, err);
}

static const mf_dataset_class batch_class = {MF_DATASET_VARIANT("BatchDatasetV2Op::Dataset"),
                                             batch_iterator, batch_cardinality, batch_drop};
static const mf_dataset_class padded_batch_class = {
    MF_DATASET_VARIANT("PaddedBatchDatasetV2Op::Dataset"), batch_iterator, batch_cardinality,
    batch_drop};

static mf_status batch_spec(const mf_dataset *in, int64_t size, bool drop, const mf_spec *shapes,
                            mf_spec *spec, mf_error *err) {
  for (int k = 0; k < in->ncomp; k++) {
    const mf_spec *e = shapes ? &shapes[k] : &in->spec[k];
    if (e->rank + 1 > MF_MAX_RANK)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "a batch of rank-%d elements exceeds rank %d",
                          e->rank, MF_MAX_RANK);
    spec[k].dtype = in->spec[k].dtype;
    spec[k].rank = e->rank < 0 ? -1 : e->rank + 1;
    spec[k].shape[0] = drop ? size : MF_UNKNOWN_DIM;
    for (int d = 0; d < e->rank; d++) spec[k].shape[d + 1] = e->shape[d];
  }
  return MF_OK;
}

mf_status mf_dataset_batch(mf_dataset *in, int64_t batch_size, bool drop_remainder,
                           mf_dataset **out, mf_error *err) {
  if (batch_size <= 0)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Batch size must be greater than zero.");
  mf_spec spec[MF_DATA_MAX_COMPONENTS];
  MF_TRY(batch_spec(in, batch_size, drop_remainder, NULL, spec, err));
  MF_TRY(unary_new(&batch_class, sizeof(batch_ds), in, in->ncomp, spec, out, err));
  batch_ds *b = (batch_ds *)*out;
  b->size = batch_size;
  b->drop_remainder = drop_remainder;
  return MF_OK;
}

mf_status mf_dataset_padded_batch(mf_dataset *in, int64_t batch_size, const mf_spec *padded_shapes,
                                  mf_tensor *const *padding_values, bool drop_remainder,
                                  mf_dataset **out, mf_error *err) {
  if (batch_size <= 0)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Batch size must be greater than zero.");
  for (int k = 0; k < in->ncomp; k++) {
    const mf_spec *e = &in->spec[k], *p = &padded_shapes[k];
    if (padding_values[k]->dtype != e->dtype || padding_values[k]->rank != 0)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "padding_values[%d] must be a scalar of dtype %s, got %s", k,
                          mf_dtype_name(e->dtype), mf_dtype_name(padding_values[k]->dtype));
    if (e->rank >= 0 && p->rank != e->rank) {
      char a[96], b[96];
      mf_spec_format(p, a, sizeof a);
      mf_spec_format(e, b, sizeof b);
      return mf_error_set(err, MF_ERR_VALUE,
                          "The padded shape %s is not compatible with the shape %s of the "
                          "corresponding input component.",
                          a, b);
    }
    for (int d = 0; d < p->rank && e->rank >= 0; d++)
      if (p->shape[d] >= 0 && e->shape[d] >= 0 && p->shape[d] < e->shape[d]) {
        char a[96], b[96];
        mf_spec_format(p, a, sizeof a);
        mf_spec_format(e, b, sizeof b);
        return mf_error_set(err, MF_ERR_VALUE,
                            "The padded shape %s is not compatible with the shape %s of the "
                            "corresponding input component.",
                            a, b);
      }
  }
  mf_spec shapes[MF_DATA_MAX_COMPONENTS], spec[MF_DATA_MAX_COMPONENTS];
  for (int k = 0; k < in->ncomp; k++) {
    shapes[k] = padded_shapes[k];
    /* A dimension padded to the longest is known when every element's is. */
    for (int d = 0; d < shapes[k].rank; d++)
      if (shapes[k].shape[d] < 0 && in->spec[k].rank == shapes[k].rank)
        shapes[k].shape[d] = in->spec[k].shape[d];
  }
  MF_TRY(batch_spec(in, batch_size, drop_remainder, shapes, spec, err));
  MF_TRY(unary_new(&padded_batch_class, sizeof(batch_ds), in, in->ncomp, spec, out, err));
  batch_ds *b = (batch_ds *)*out;
  b->size = batch_size;
  b->drop_remainder = drop_remainder;
  b->padded = true;
  for (int k = 0; k < in->ncomp; k++) {
    b->padded_shapes[k] = padded_shapes[k];
    mf_tensor_retain(padding_values[k]);
    b->padding[k] = padding_values[k];
  }
  return MF_OK;
}

/* ---- unbatch ---- */

typedef struct unbatch_it {
  unary_it u;
  mf_tensor *cur[MF_DATA_MAX_COMPONENTS]; /* the batch being split (owned) */
  int64_t rows, row;
} unbatch_it;

static void unbatch_drop(mf_iterator *it) {
  unbatch_it *c = (unbatch_it *)it;
  if (c->rows > 0) mf_release_all(it->ds->ncomp, c->cur);
  unary_drop(it);
}

static mf_status unbatch_next(mf_iterator *it, mf_tensor **out, bool *end, mf_error *err) {
  unbatch_it *c = (unbatch_it *)it;
  int ncomp = it->ds->ncomp;
  while (c->row >= c->rows) {
    if (c->rows > 0) mf_release_all(ncomp, c->cur);
    c->rows = c->row = 0;
    MF_TRY(mf_iterator_next(c->u.in, c->cur, end, err));
    if (*end) return MF_OK;
    int64_t rows = c->cur[0]->rank ? c->cur[0]->shape[0] : -1;
    for (int k = 0; k < ncomp; k++)
      if (c->cur[k]->rank < 1 || c->cur[k]->shape[0] != rows) {
        mf_release_all(ncomp, c->cur);
        return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                            "Input element must have a non-scalar value in each component, and "
                            "the components must have the same size in the 0th dimension.");
      }
    c->rows = rows > 0 ? rows : 0;
    if (c->rows == 0) mf_release_all(ncomp, c->cur);
  }
  for (int k = 0; k < ncomp; k++) {
    mf_status s = mf_data_row(c->cur[k], c->row, &out[k], err);
    if (s != MF_OK) {
      mf_release_all(k, out);
      return s;
    }
  }
  c->row++;
  return MF_OK;
}

static const mf_iterator_class unbatch_it_class = {unbatch_next, unbatch_drop};

static mf_status unbatch_iterator(mf_dataset *ds, mf_iterator **out, mf_error *err) {
  return unary_iterator(&unbatch_it_class, sizeof(unbatch_it), ds, out, err);
}

static int64_t unbatch_cardinality(const mf_dataset *ds) {
  int64_t n = input_cardinality(ds);
  if (n == MF_CARDINALITY_INFINITE || n == 0) return n;
  if (n < 0) return MF_CARDINALITY_UNKNOWN;
  int64_t rows = ds->inputs[0]->spec[0].shape[0];
  for (int k = 0; k < ds->ncomp; k++)
    if (ds->inputs[0]->spec[k].shape[0] >= 0) rows = ds->inputs[0]->spec[k].shape[0];
  return rows >= 0 ? n * rows : MF_CARDINALITY_UNKNOWN;
}

static const mf_dataset_class unbatch_class = {MF_DATASET_VARIANT("UnbatchDatasetOp::Dataset"),
                                               unbatch_iterator, unbatch_cardinality, NULL};

mf_status mf_dataset_unbatch(mf_dataset *in, mf_dataset **out, mf_error *err) {
  mf_spec spec[MF_DATA_MAX_COMPONENTS];
  for (int k = 0; k < in->ncomp; k++) {
    if (in->spec[k].rank == 0)
      return mf_error_set(err, MF_ERR_VALUE, "Cannot unbatch an input with scalar components.");
    spec[k] = in->spec[k];
    if (spec[k].rank > 0) {
      spec[k].rank--;
      memmove(spec[k].shape, spec[k].shape + 1, (size_t)spec[k].rank * sizeof spec[k].shape[0]);
    }
  }
  return unary_new(&unbatch_class, sizeof(mf_dataset), in, in->ncomp, spec, out, err);
}

/* ---- take, skip, repeat ---- */

typedef struct count_ds {
  mf_dataset base;
  int64_t count;
} count_ds;

static int64_t count_of(const mf_iterator *it) { return ((const count_ds *)it->ds)->count; }

static mf_status take_next(mf_iterator *it, mf_tensor **out, bool *end, mf_error *err) {
  unary_it *c = (unary_it *)it;
  int64_t count = count_of(it);
  if (count >= 0 && c->count >= count) {
    *end = true;
    return MF_OK;
  }
  MF_TRY(mf_iterator_next(c->in, out, end, err));
  if (!*end) c->count++;
  return MF_OK;
}

static mf_status skip_next(mf_iterator *it, mf_tensor **out, bool *end, mf_error *err) {
  unary_it *c = (unary_it *)it;
  int64_t count = count_of(it);
  int ncomp = it->ds->ncomp;
  /* skip(-1) skips everything, as TF's. */
  while (count < 0 || c->count < count) {
    MF_TRY(mf_iterator_next(c->in, out, end, err));
    if (*end) return MF_OK;
    mf_release_all(ncomp, out);
    c->count++;
  }
  return mf_iterator_next(c->in, out, end, err);
}

static mf_status repeat_next(mf_iterator *it, mf_tensor **out, bool *end, mf_error *err) {
  unary_it *c = (unary_it *)it;
  int64_t count = count_of(it);
  for (;;) {
    if (count >= 0 && c->count >= count) {
      *end = true;
      return MF_OK;
    }
    if (!c->in) MF_TRY(mf_dataset_make_iterator(it->ds->inputs[0], &c->in, err));
    MF_TRY(mf_iterator_next(c->in, out, end, err));
    if (!*end) {
      c->given = true;
      return MF_OK;
    }
    mf_iterator_free(c->in);
    c->in = NULL;
    /* An epoch that gave nothing ends the repetition (TF's: an empty
     * input repeated forever ends instead of spinning). */
    if (!c->given) return MF_OK;
    c->given = false;
    c->count++;
    *end = false;
  }
}

static const mf_iterator_class take_it_class = {take_next, unary_drop};
static const mf_iterator_class skip_it_class = {skip_next, unary_drop};
static const mf_iterator_class repeat_it_class = {repeat_next, unary_drop};

static mf_status take_iterator(mf_dataset *ds, mf_iterator **out, mf_error *err) {
  return unary_iterator(&take_it_class, sizeof(unary_it), ds, out, err);
}
static mf_status skip_iterator(mf_dataset *ds, mf_iterator **out, mf_error *err) {
  return unary_iterator(&skip_it_class, sizeof(unary_it), ds, out, err);
}
static mf_status repeat_iterator(mf_dataset *ds, mf_iterator **out, mf_error *err) {
  return mf_iterator_alloc(&repeat_it_class, sizeof(unary_it), ds, out, err);
}

static int64_t take_cardinality(const mf_dataset *ds) {
  int64_t n = input_cardinality(ds), count = ((const count_ds *)ds)->count;
  if (count < 0) return n;
  if (n == MF_CARDINALITY_INFINITE) return count;
  if (n == MF_CARDINALITY_UNKNOWN) return n;
  return n < count ? n : count;
}

static int64_t skip_cardinality(const mf_dataset *ds) {
  int64_t n = input_cardinality(ds), count = ((const count_ds *)ds)->count;
  if (n < 0) return n;
  if (count < 0) return 0;
  return n > count ? n - count : 0;
}

static int64_t repeat_cardinality(const mf_dataset *ds) {
  int64_t n = input_cardinality(ds), count = ((const count_ds *)ds)->count;
  if (count == 0 || n == 0) return 0;
  if (count < 0) return n == MF_CARDINALITY_UNKNOWN ? n : MF_CARDINALITY_INFINITE;
  if (n < 0) return n;
  return n * count;
}

static const mf_dataset_class take_class = {MF_DATASET_VARIANT("TakeDatasetOp::Dataset"),
                                            take_iterator, take_cardinality, NULL};
static const mf_dataset_class skip_class = {MF_DATASET_VARIANT("SkipDatasetOp::Dataset"),
                                            skip_iterator, skip_cardinality, NULL};
static const mf_dataset_class repeat_class = {MF_DATASET_VARIANT("RepeatDatasetOp::Dataset"),
                                              repeat_iterator, repeat_cardinality, NULL};

static mf_status count_new(const mf_dataset_class *cls, mf_dataset *in, int64_t count,
                           mf_dataset **out, mf_error *err) {
  MF_TRY(unary_new(cls, sizeof(count_ds), in, in->ncomp, in->spec, out, err));
  ((count_ds *)*out)->count = count;
  return MF_OK;
}

mf_status mf_dataset_take(mf_dataset *in, int64_t count, mf_dataset **out, mf_error *err) {
  return count_new(&take_class, in, count, out, err);
}
mf_status mf_dataset_skip(mf_dataset *in, int64_t count, mf_dataset **out, mf_error *err) {
  return count_new(&skip_class, in, count, out, err);
}
mf_status mf_dataset_repeat(mf_dataset *in, int64_t count, mf_dataset **out, mf_error *err) {
  return count_new(&repeat_class, in, count, out, err);
}

/* ---- zip, concatenate ---- */

typedef struct multi_ds {
  mf_dataset base;
  int n;
  mf_dataset *ins[MF_DATA_MAX_COMPONENTS]; /* counted */
} multi_ds;

typedef struct multi_it {
  mf_iterator base;
  mf_iterator *ins[MF_DATA_MAX_COMPONENTS]; /* owned (concatenate: one at a time) */
  int at;
} multi_it;

static void multi_drop(mf_dataset *ds) {
  multi_ds *m = (multi_ds *)ds;
  for (int i = 0; i < m->n; i++) mf_dataset_release(m->ins[i]);
}

static void multi_it_drop(mf_iterator *it) {
  multi_it *c = (multi_it *)it;
  for (int i = 0; i < ((multi_ds *)it->ds)->n; i++) mf_iterator_free(c->ins[i]);
}

static mf_status zip_next(mf_iterator *it, mf_tensor **out, bool *end, mf_error *err) {
  multi_it *c = (multi_it *)it;
  const multi_ds *m = (const multi_ds *)it->ds;
  int off = 0;
  for (int i = 0; i < m->n; i++) {
    mf_status s = mf_iterator_next(c->ins[i], out + off, end, err);
    if (s != MF_OK || *end) {
      mf_release_all(off, out);
      return s;
    }
    off += m->ins[i]->ncomp;
  }
  return MF_OK;
}

static mf_status concat_next(mf_iterator *it, mf_tensor **out, bool *end, mf_error *err) {
  multi_it *c = (multi_it *)it;
  const multi_ds *m = (const multi_ds *)it->ds;
  while (c->at < m->n) {
    if (!c->ins[c->at]) MF_TRY(mf_dataset_make_iterator(m->ins[c->at], &c->ins[c->at], err));
    MF_TRY(mf_iterator_next(c->ins[c->at], out, end, err));
    if (!*end) return MF_OK;
    mf_iterator_free(c->ins[c->at]);
    c->ins[c->at++] = NULL;
  }
  *end = true;
  return MF_OK;
}

static const mf_iterator_class zip_it_class = {zip_next, multi_it_drop};
static const mf_iterator_class concat_it_class = {concat_next, multi_it_drop};

static mf_status zip_iterator(mf_dataset *ds, mf_iterator **out, mf_error *err) {
  MF_TRY(mf_iterator_alloc(&zip_it_class, sizeof(multi_it), ds, out, err));
  multi_ds *m = (multi_ds *)ds;
  multi_it *c = (multi_it *)*out;
  for (int i = 0; i < m->n; i++) {
    mf_status s = mf_dataset_make_iterator(m->ins[i], &c->ins[i], err);
    if (s != MF_OK) {
      mf_iterator_free(*out);
      *out = NULL;
      return s;
    }
  }
  return MF_OK;
}

static mf_status concat_iterator(mf_dataset *ds, mf_iterator **out, mf_error *err) {
  return mf_iterator_alloc(&concat_it_class, sizeof(multi_it), ds, out, err);
}

static int64_t zip_cardinality(const mf_dataset *ds) {
  const multi_ds *m = (const multi_ds *)ds;
  int64_t least = MF_CARDINALITY_INFINITE;
  for (int i = 0; i < m->n; i++) {
    int64_t n = mf_dataset_cardinality(m->ins[i]);
    if (n == MF_CARDINALITY_UNKNOWN) return n;
    if (n >= 0 && (least < 0 || n < least)) least = n;
  }
  return least;
}

static int64_t concat_cardinality(const mf_dataset *ds) {
  const multi_ds *m = (const multi_ds *)ds;
  int64_t a = mf_dataset_cardinality(m->ins[0]), b = mf_dataset_cardinality(m->ins[1]);
  if (a == MF_CARDINALITY_INFINITE || b == MF_CARDINALITY_INFINITE) return MF_CARDINALITY_INFINITE;
  if (a < 0 || b < 0) return MF_CARDINALITY_UNKNOWN;
  return a + b;
}

static const mf_dataset_class zip_class = {MF_DATASET_VARIANT("ZipDatasetOp::Dataset"),
                                           zip_iterator, zip_cardinality, multi_drop};
static const mf_dataset_class concat_class = {MF_DATASET_VARIANT("ConcatenateDatasetOp::Dataset"),
                                              concat_iterator, concat_cardinality, multi_drop};

mf_status mf_dataset_zip(int n, mf_dataset *const *ins, mf_dataset **out, mf_error *err) {
  mf_spec spec[MF_DATA_MAX_COMPONENTS];
  int ncomp = 0;
  if (n < 1 || n > MF_DATA_MAX_COMPONENTS)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "ZipDataset takes 1 to %d datasets, got %d",
                        MF_DATA_MAX_COMPONENTS, n);
  for (int i = 0; i < n; i++) {
    if (ncomp + ins[i]->ncomp > MF_DATA_MAX_COMPONENTS)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "a dataset element may have at most %d components", MF_DATA_MAX_COMPONENTS);
    memcpy(spec + ncomp, ins[i]->spec, (size_t)ins[i]->ncomp * sizeof *spec);
    ncomp += ins[i]->ncomp;
  }
  MF_TRY(mf_dataset_alloc(&zip_class, sizeof(multi_ds), ncomp, spec, out, err));
  multi_ds *m = (multi_ds *)*out;
  m->n = n;
  for (int i = 0; i < n; i++) {
    mf_dataset_retain(ins[i]);
    m->ins[i] = ins[i];
    (*out)->host = (*out)->host || ins[i]->host;
    (*out)->threadable = (*out)->threadable && ins[i]->threadable;
  }
  return MF_OK;
}

/* The most specific spec both fit, as TF's most_specific_compatible_type. */
static void spec_join(const mf_spec *a, const mf_spec *b, mf_spec *out) {
  *out = *a;
  if (a->rank != b->rank) {
    out->rank = -1;
    return;
  }
  for (int d = 0; d < a->rank; d++)
    if (a->shape[d] != b->shape[d]) out->shape[d] = MF_UNKNOWN_DIM;
}

mf_status mf_dataset_concatenate(mf_dataset *a, mf_dataset *b, mf_dataset **out, mf_error *err) {
  mf_spec spec[MF_DATA_MAX_COMPONENTS];
  bool same = a->ncomp == b->ncomp;
  for (int k = 0; same && k < a->ncomp; k++) same = a->spec[k].dtype == b->spec[k].dtype;
  if (!same) {
    char ta[256] = "", tb[256] = "";
    for (int k = 0; k < a->ncomp; k++)
      snprintf(ta + strlen(ta), sizeof ta - strlen(ta), "%s%s", k ? ", " : "", mf_dtype_name(a->spec[k].dtype));
    for (int k = 0; k < b->ncomp; k++)
      snprintf(tb + strlen(tb), sizeof tb - strlen(tb), "%s%s", k ? ", " : "", mf_dtype_name(b->spec[k].dtype));
    return mf_error_set(err, MF_ERR_TYPE,
                        "Incompatible dataset elements: the input dataset has component dtypes "
                        "(%s) and the dataset to concatenate has (%s).",
                        ta, tb);
  }
  for (int k = 0; k < a->ncomp; k++) spec_join(&a->spec[k], &b->spec[k], &spec[k]);
  MF_TRY(mf_dataset_alloc(&concat_class, sizeof(multi_ds), a->ncomp, spec, out, err));
  multi_ds *m = (multi_ds *)*out;
  m->n = 2;
  mf_dataset_retain(a);
  mf_dataset_retain(b);
  m->ins[0] = a;
  m->ins[1] = b;
  (*out)->host = a->host || b->host;
  (*out)->threadable = a->threadable && b->threadable;
  return MF_OK;
}

/* ---- shuffle ---- */

typedef struct shuffle_ds {
  mf_dataset base;
  int64_t buffer_size, seed, seed2;
  bool reshuffle;
  _Atomic int64_t epochs; /* iterators made: each reshuffles with another seed */
} shuffle_ds;

typedef struct shuffle_it {
  unary_it u;
  uint64_t rng;
  int64_t n, cap;
  mf_tensor **buf; /* n elements of ncomp tensors (owned) */
  bool in_end;
} shuffle_it;

static void shuffle_it_drop(mf_iterator *it) {
  shuffle_it *c = (shuffle_it *)it;
  mf_release_all((int)(c->n * it->ds->ncomp), c->buf);
  free(c->buf);
  unary_drop(it);
}

static mf_status shuffle_next(mf_iterator *it, mf_tensor **out, bool *end, mf_error *err) {
  shuffle_it *c = (shuffle_it *)it;
  const shuffle_ds *d = (const shuffle_ds *)it->ds;
  int ncomp = it->ds->ncomp;
  /* Fill the buffer, then give a random slot and refill it: TF's order. */
  while (!c->in_end && c->n < d->buffer_size) {
    if (c->n == c->cap) {
      int64_t cap = c->cap ? c->cap * 2 : 64;
      if (cap > d->buffer_size) cap = d->buffer_size;
      mf_tensor **grown = mf_realloc(c->buf, (size_t)(cap * ncomp) * sizeof *grown);
      if (!grown) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
      c->buf = grown;
      c->cap = cap;
    }
    MF_TRY(mf_iterator_next(c->u.in, c->buf + c->n * ncomp, &c->in_end, err));
    if (!c->in_end) c->n++;
  }
  if (c->n == 0) {
    *end = true;
    return MF_OK;
  }
  int64_t pick = (int64_t)(mf_splitmix64(&c->rng) % (uint64_t)c->n);
  memcpy(out, c->buf + pick * ncomp, (size_t)ncomp * sizeof *out);
  c->n--;
  memmove(c->buf + pick * ncomp, c->buf + c->n * ncomp, (size_t)ncomp * sizeof *out);
  return MF_OK;
}

static const mf_iterator_class shuffle_it_class = {shuffle_next, shuffle_it_drop};

static mf_status shuffle_iterator(mf_dataset *ds, mf_iterator **out, mf_error *err) {
  shuffle_ds *d = (shuffle_ds *)ds;
  MF_TRY(unary_iterator(&shuffle_it_class, sizeof(shuffle_it), ds, out, err));
  int64_t epoch = d->reshuffle ? atomic_fetch_add(&d->epochs, 1) : 0;
  uint64_t s = (uint64_t)d->seed * 0x9e3779b97f4a7c15ULL ^ (uint64_t)d->seed2;
  s ^= mf_splitmix64(&(uint64_t){(uint64_t)epoch + 0x632be59bd9b4e019ULL});
  ((shuffle_it *)*out)->rng = s;
  return MF_OK;
}

static const mf_dataset_class shuffle_class = {MF_DATASET_VARIANT("ShuffleDatasetOp::Dataset"),
                                               shuffle_iterator, input_cardinality, NULL};

mf_status mf_dataset_shuffle(mf_dataset *in, int64_t buffer_size, int64_t seed, int64_t seed2,
                             bool reshuffle, mf_dataset **out, mf_error *err) {
  if (buffer_size <= 0)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "buffer_size must be greater than zero.");
  MF_TRY(unary_new(&shuffle_class, sizeof(shuffle_ds), in, in->ncomp, in->spec, out, err));
  shuffle_ds *d = (shuffle_ds *)*out;
  d->buffer_size = buffer_size;
  d->seed = seed;
  d->seed2 = seed2;
  d->reshuffle = reshuffle;
  atomic_init(&d->epochs, 0);
  return MF_OK;
}

/* ---- cache (in memory) ---- */

typedef struct cache_ds {
  mf_dataset base;
  /* The elements, once one iterator has read the input to its end; later
   * iterators read them instead of the input (TF's MemoryCache). Written
   * once, by the first iterator to claim it, before `complete` is set. */
  mf_tensor **elems;
  int64_t n;
  _Atomic bool claimed, complete;
} cache_ds;

typedef struct cache_it {
  unary_it u;
  mf_tensor **elems; /* filling: what this iterator has read so far (owned) */
  int64_t n, cap;
  bool reading; /* reads the cache, not the input */
} cache_it;

static void cache_drop(mf_dataset *ds) {
  cache_ds *d = (cache_ds *)ds;
  if (d->elems) mf_release_all((int)(d->n * ds->ncomp), d->elems);
  free(d->elems);
}

static void cache_it_drop(mf_iterator *it) {
  cache_it *c = (cache_it *)it;
  if (!c->reading && c->elems) mf_release_all((int)(c->n * it->ds->ncomp), c->elems);
  if (!c->reading) free(c->elems);
  unary_drop(it);
}

static mf_status cache_next(mf_iterator *it, mf_tensor **out, bool *end, mf_error *err) {
  cache_it *c = (cache_it *)it;
  cache_ds *d = (cache_ds *)it->ds;
  int ncomp = it->ds->ncomp;
  if (c->reading) {
    if (c->n >= d->n) {
      *end = true;
      return MF_OK;
    }
    for (int k = 0; k < ncomp; k++) {
      out[k] = d->elems[c->n * ncomp + k];
      mf_tensor_retain(out[k]);
    }
    c->n++;
    return MF_OK;
  }
  MF_TRY(mf_iterator_next(c->u.in, out, end, err));
  if (*end) {
    bool expected = false;
    if (atomic_compare_exchange_strong(&d->claimed, &expected, true)) {
      d->elems = c->elems;
      d->n = c->n;
      c->elems = NULL;
      c->n = 0;
      atomic_store(&d->complete, true);
    }
    return MF_OK;
  }
  if (c->n == c->cap) {
    int64_t cap = c->cap ? c->cap * 2 : 64;
    mf_tensor **grown = mf_realloc(c->elems, (size_t)(cap * ncomp) * sizeof *grown);
    if (!grown) {
      mf_release_all(ncomp, out);
      return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
    }
    c->elems = grown;
    c->cap = cap;
  }
  for (int k = 0; k < ncomp; k++) {
    mf_tensor_retain(out[k]);
    c->elems[c->n * ncomp + k] = out[k];
  }
  c->n++;
  return MF_OK;
}

static const mf_iterator_class cache_it_class = {cache_next, cache_it_drop};

static mf_status cache_iterator(mf_dataset *ds, mf_iterator **out, mf_error *err) {
  cache_ds *d = (cache_ds *)ds;
  if (atomic_load(&d->complete)) {
    MF_TRY(mf_iterator_alloc(&cache_it_class, sizeof(cache_it), ds, out, err));
    ((cache_it *)*out)->reading = true;
    return MF_OK;
  }
  return unary_iterator(&cache_it_class, sizeof(cache_it), ds, out, err);
}

static const mf_dataset_class cache_class = {MF_DATASET_VARIANT("CacheDatasetOp::MemoryDataset"),
                                             cache_iterator, input_cardinality, cache_drop};

mf_status mf_dataset_cache(mf_dataset *in, mf_dataset **out, mf_error *err) {
  MF_TRY(unary_new(&cache_class, sizeof(cache_ds), in, in->ncomp, in->spec, out, err));
  atomic_init(&((cache_ds *)*out)->claimed, false);
  atomic_init(&((cache_ds *)*out)->complete, false);
  return MF_OK;
}
