/* dataset.c — what every dataset kind shares: allocation and counted
 * ownership, cursors, the helpers elements are made with (a row, a stack),
 * and TF's iterator resource and optional values. */
#include "dataset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "array_util.h"
#include "interrupt.h"

/* ---- datasets ---- */

static void dataset_free(void *obj) {
  mf_dataset *ds = obj;
  if (ds->cls->drop) ds->cls->drop(ds);
  for (int i = 0; i < ds->ninputs; i++) mf_dataset_release(ds->inputs[i]);
  free(ds->spec);
  free(ds);
}

mf_status mf_dataset_alloc(const mf_dataset_class *cls, size_t size, int ncomp,
                           const mf_spec *spec, mf_dataset **out, mf_error *err) {
  if (ncomp < 0 || ncomp > MF_DATA_MAX_COMPONENTS)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "a dataset element may have at most %d components, got %d",
                        MF_DATA_MAX_COMPONENTS, ncomp);
  mf_dataset *ds = mf_calloc(1, size);
  mf_spec *s = mf_malloc(((size_t)ncomp + 1) * sizeof *s);
  if (!ds || !s) {
    free(ds);
    free(s);
    return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  }
  if (ncomp) memcpy(s, spec, (size_t)ncomp * sizeof *s);
  /* The variant's free is the class's, found through the header. */
  mf_variant_init(&ds->v, &cls->variant);
  ds->cls = cls;
  ds->ncomp = ncomp;
  ds->spec = s;
  ds->threadable = true;
  *out = ds;
  return MF_OK;
}

void mf_dataset_add_input(mf_dataset *ds, mf_dataset *in) {
  mf_dataset_retain(in);
  ds->inputs[ds->ninputs++] = in;
  ds->host = ds->host || in->host;
  ds->threadable = ds->threadable && in->threadable;
}

void mf_dataset_retain(mf_dataset *ds) { mf_variant_retain(ds ? &ds->v : NULL); }

void mf_dataset_release(mf_dataset *ds) {
  if (ds) mf_variant_release(&ds->v);
}

/* Every dataset class's variant frees through dataset_free: the kinds
 * declare their classes with MF_DATASET_VARIANT(name). */
void mf_dataset_variant_free(void *obj) { dataset_free(obj); }

int64_t mf_dataset_cardinality(const mf_dataset *ds) { return ds->cls->cardinality(ds); }

void mf_data_note_variants(mf_dataset *ds, int n, mf_tensor *const *ts) {
  for (int i = 0; i < n; i++) {
    if (ts[i]->dtype != MF_VARIANT) continue;
    for (int64_t j = 0; j < ts[i]->size; j++) {
      mf_variant *v = MF_DATA(ts[i], mf_variant *)[j];
      if (!mf_variant_is_dataset(v)) continue;
      const mf_dataset *held = (const mf_dataset *)v;
      ds->host = ds->host || held->host;
      ds->threadable = ds->threadable && held->threadable;
    }
  }
}

mf_status mf_dataset_make_iterator(mf_dataset *ds, mf_iterator **out, mf_error *err) {
  return ds->cls->make_iterator(ds, out, err);
}

bool mf_variant_is_dataset(const mf_variant *v) {
  return v && v->type->free == mf_dataset_variant_free;
}

mf_dataset *mf_dataset_of(const mf_tensor *t) {
  if (!t || t->dtype != MF_VARIANT || t->size != 1) return NULL;
  mf_variant *v = MF_DATA(t, mf_variant *)[0];
  return mf_variant_is_dataset(v) ? (mf_dataset *)v : NULL;
}

static mf_status variant_scalar(mf_variant *v, mf_tensor **out, mf_error *err) {
  MF_TRY(mf_tensor_zeros(MF_VARIANT, 0, NULL, out, err));
  mf_variant_retain(v);
  MF_DATA(*out, mf_variant *)[0] = v;
  return MF_OK;
}

mf_status mf_dataset_to_tensor(mf_dataset *ds, mf_tensor **out, mf_error *err) {
  return variant_scalar(&ds->v, out, err);
}

/* ---- cursors ---- */

mf_status mf_iterator_alloc(const mf_iterator_class *cls, size_t size, mf_dataset *ds,
                            mf_iterator **out, mf_error *err) {
  mf_iterator *it = mf_calloc(1, size);
  if (!it) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  it->cls = cls;
  it->ds = ds;
  mf_dataset_retain(ds);
  *out = it;
  return MF_OK;
}

/* A prefetch's producer thread does not poll the interrupt flag between
 * elements: Ctrl-C is the session's, and the producer stops when its
 * iterator is freed. (The executor running a map function on it may still
 * take the flag; the consumer then gets that InterruptedError in order.) */
static _Thread_local bool on_producer;

void mf_data_mark_producer(void) { on_producer = true; }

mf_status mf_iterator_next(mf_iterator *it, mf_tensor **out, bool *end, mf_error *err) {
  *end = false;
  /* Each element pulled checks for an interrupt: a pipeline can spin in C
   * for long (a filter that rejects everything of a repeated input). */
  if (!on_producer) MF_TRY(mf_interrupt_check(err));
  return it->cls->next(it, out, end, err);
}

void mf_iterator_free(mf_iterator *it) {
  if (!it) return;
  if (it->cls->drop) it->cls->drop(it);
  mf_dataset_release(it->ds);
  free(it);
}

void mf_release_all(int n, mf_tensor **ts) {
  for (int i = 0; i < n; i++) {
    mf_tensor_release(ts[i]);
    ts[i] = NULL;
  }
}

/* ---- element helpers ---- */

mf_status mf_data_row(const mf_tensor *t, int64_t i, mf_tensor **out, mf_error *err) {
  int64_t row = t->shape[0] ? t->size / t->shape[0] : 0;
  return mf_tensor_view(t, t->rank - 1, t->shape + 1, (size_t)(i * row), out, err);
}

void mf_data_shape_text(int rank, const int64_t *shape, char *buf, size_t n) {
  size_t len = 0;
  len += (size_t)snprintf(buf + len, n - len, "[");
  for (int d = 0; d < rank && len < n; d++)
    len += (size_t)snprintf(buf + len, n - len, d ? ",%lld" : "%lld", (long long)shape[d]);
  if (len < n) snprintf(buf + len, n - len, "]");
}

mf_status mf_data_stack(int n, mf_tensor *const *ts, int comp, mf_tensor **out, mf_error *err) {
  const mf_tensor *first = ts[0];
  for (int i = 1; i < n; i++)
    if (!mf_shape_equal(first->rank, first->shape, ts[i]->rank, ts[i]->shape)) {
      char a[128], b[128];
      mf_data_shape_text(first->rank, first->shape, a, sizeof a);
      mf_data_shape_text(ts[i]->rank, ts[i]->shape, b, sizeof b);
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "Cannot batch tensors with different shapes in component %d. First "
                          "element had shape %s and element %d had shape %s.",
                          comp, a, i, b);
    }
  if (first->rank + 1 > MF_MAX_RANK)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "a batch of rank-%d elements exceeds rank %d",
                        first->rank, MF_MAX_RANK);
  int64_t shape[MF_MAX_RANK];
  shape[0] = n;
  memcpy(shape + 1, first->shape, (size_t)first->rank * sizeof *shape);
  MF_TRY(mf_tensor_new(first->dtype, first->rank + 1, shape, out, err));
  /* Tensors are contiguous: numbers are one memcpy each (a batch's
   * elements are small, the strided copy's setup was most of the cost);
   * strings and handles are copied by what they hold. */
  if (first->dtype != MF_STRING && first->dtype != MF_RESOURCE && first->dtype != MF_VARIANT) {
    size_t bytes = (size_t)first->size * mf_dtype_size(first->dtype);
    char *dst = mf_tensor_data(*out);
    for (int i = 0; i < n; i++) memcpy(dst + (size_t)i * bytes, mf_tensor_data(ts[i]), bytes);
    return MF_OK;
  }
  int64_t one = 1;
  for (int i = 0; i < n; i++) {
    int64_t len = first->size;
    mf_status s = mf_copy_strided(*out, i * len, &one, ts[i], 0, &one, 1, &len, err);
    if (s != MF_OK) {
      mf_tensor_release(*out);
      *out = NULL;
      return s;
    }
  }
  return MF_OK;
}

bool mf_data_fits(const mf_tensor *t, const mf_spec *s) {
  mf_spec have;
  mf_spec_of_tensor(t, &have);
  return mf_spec_fits(&have, s, MF_FIT_COMPATIBLE);
}

/* ---- the iterator resource ---- */

static void iterator_resource_free(void *obj) {
  mf_iterator_resource *r = obj;
  mf_iterator_free(r->it);
  free(r->spec);
  free(r);
}

static const mf_variant_type iterator_resource_type = {"IteratorResource", iterator_resource_free};

mf_status mf_iterator_resource_new(int ncomp, const mf_spec *spec, mf_iterator_resource **out,
                                   mf_error *err) {
  mf_iterator_resource *r = mf_calloc(1, sizeof *r);
  mf_spec *s = mf_malloc(((size_t)ncomp + 1) * sizeof *s);
  if (!r || !s) {
    free(r);
    free(s);
    return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  }
  if (ncomp) memcpy(s, spec, (size_t)ncomp * sizeof *s);
  mf_variant_init(&r->v, &iterator_resource_type);
  r->ncomp = ncomp;
  r->spec = s;
  *out = r;
  return MF_OK;
}

mf_iterator_resource *mf_iterator_resource_of(const mf_tensor *t) {
  if (!t || t->dtype != MF_VARIANT || t->size != 1) return NULL;
  mf_variant *v = MF_DATA(t, mf_variant *)[0];
  return v && v->type == &iterator_resource_type ? (mf_iterator_resource *)v : NULL;
}

mf_status mf_iterator_resource_start(mf_iterator_resource *r, mf_dataset *ds, mf_error *err) {
  if (ds->ncomp != r->ncomp)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Number of components does not match: expected %d types but got %d.",
                        r->ncomp, ds->ncomp);
  for (int i = 0; i < ds->ncomp; i++) {
    if (ds->spec[i].dtype != r->spec[i].dtype)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "Data type mismatch at component %d: expected %s but got %s.", i,
                          mf_dtype_name(r->spec[i].dtype), mf_dtype_name(ds->spec[i].dtype));
    if (!mf_spec_fits(&ds->spec[i], &r->spec[i], MF_FIT_COMPATIBLE)) {
      char a[96], b[96];
      mf_spec_format(&ds->spec[i], a, sizeof a);
      mf_spec_format(&r->spec[i], b, sizeof b);
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "Incompatible shapes at component %d: expected %s but got %s.", i, b, a);
    }
  }
  mf_iterator *it;
  MF_TRY(mf_dataset_make_iterator(ds, &it, err));
  mf_iterator_free(r->it);
  r->it = it;
  return MF_OK;
}

mf_status mf_iterator_resource_next(mf_iterator_resource *r, mf_tensor **out, bool *end,
                                    mf_error *err) {
  if (!r->it)
    return mf_error_set(err, MF_ERR_FAILED_PRECONDITION,
                        "GetNext() failed because the iterator has not been initialized. Ensure "
                        "that you have run the initializer operation for this iterator before "
                        "getting the next element.");
  return mf_iterator_next(r->it, out, end, err);
}

/* ---- optionals ---- */

static void optional_free(void *obj) {
  mf_optional *o = obj;
  if (o->n > 0) mf_release_all(o->n, o->values);
  free(o->values);
  free(o);
}

static const mf_variant_type optional_type = {"OptionalVariant", optional_free};

mf_status mf_optional_new(int n, mf_tensor **values, mf_optional **out, mf_error *err) {
  mf_optional *o = mf_calloc(1, sizeof *o);
  if (!o) {
    if (n > 0) mf_release_all(n, values);
    return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  }
  mf_variant_init(&o->v, &optional_type);
  o->n = n;
  if (n > 0) {
    o->values = mf_malloc((size_t)n * sizeof *o->values);
    if (!o->values) {
      mf_release_all(n, values);
      free(o);
      return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
    }
    memcpy(o->values, values, (size_t)n * sizeof *values);
  }
  *out = o;
  return MF_OK;
}

mf_optional *mf_optional_of(const mf_tensor *t) {
  if (!t || t->dtype != MF_VARIANT || t->size != 1) return NULL;
  mf_variant *v = MF_DATA(t, mf_variant *)[0];
  return v && v->type == &optional_type ? (mf_optional *)v : NULL;
}
