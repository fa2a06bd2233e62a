/* generator.c — TF's GeneratorDataset, what from_generator builds: each
 * element comes from a host callback (the Lua generator, as TF's comes
 * from a py_func), asked with the id of the iterator asking, so the host
 * runs one generator per iterator. Such a pipeline stays on the host's
 * thread (host, never threadable). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "dataset.h"

typedef struct gen_ds {
  mf_dataset base;
  mf_callback *next, *finish; /* counted; finish may be NULL */
  _Atomic int64_t ids;        /* the last iterator id given */
} gen_ds;

typedef struct gen_it {
  mf_iterator base;
  int64_t id;
  bool ended;
} gen_it;

static mf_status call(mf_callback *cb, int64_t id, int nout, mf_tensor **out, mf_error *err) {
  mf_tensor *idt;
  MF_TRY(mf_tensor_scalar_i64(MF_INT64, id, &idt, err));
  mf_status s = cb->fn(cb->ud, 1, &idt, nout, out, err);
  mf_tensor_release(idt);
  return s;
}

static mf_status gen_next(mf_iterator *it, mf_tensor **out, bool *end, mf_error *err) {
  gen_it *c = (gen_it *)it;
  gen_ds *d = (gen_ds *)it->ds;
  int ncomp = it->ds->ncomp;
  if (c->ended) {
    *end = true;
    return MF_OK;
  }
  mf_tensor *got[MF_DATA_MAX_COMPONENTS + 1] = {0};
  MF_TRY(call(d->next, c->id, ncomp + 1, got, err));
  mf_status s = MF_OK;
  if (got[0]->dtype != MF_BOOL || got[0]->size != 1) {
    s = mf_error_set(err, MF_ERR_INTERNAL, "the generator callback must first return a boolean");
  } else if (!MF_DATA(got[0], bool)[0]) {
    c->ended = true;
    *end = true;
  } else {
    for (int k = 0; s == MF_OK && k < ncomp; k++)
      if (!mf_data_fits(got[1 + k], &it->ds->spec[k])) {
        char a[96], b[96];
        mf_spec have;
        mf_spec_of_tensor(got[1 + k], &have);
        mf_spec_format(&have, a, sizeof a);
        mf_spec_format(&it->ds->spec[k], b, sizeof b);
        s = have.dtype != it->ds->spec[k].dtype
                ? mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                               "TypeError: `generator` yielded an element of type %s where an "
                               "element of type %s was expected.",
                               mf_dtype_name(have.dtype), mf_dtype_name(it->ds->spec[k].dtype))
                : mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                               "TypeError: `generator` yielded an element of shape %s where an "
                               "element of shape %s was expected.",
                               a, b);
      }
  }
  if (s == MF_OK && !*end) {
    for (int k = 0; k < ncomp; k++) out[k] = got[1 + k];
    mf_tensor_release(got[0]);
    return MF_OK;
  }
  mf_release_all(ncomp + 1, got);
  return s;
}

static void gen_it_drop(mf_iterator *it) {
  gen_ds *d = (gen_ds *)it->ds;
  mf_error err;
  if (d->finish) call(d->finish, ((gen_it *)it)->id, 0, NULL, &err);
}

static const mf_iterator_class gen_it_class = {gen_next, gen_it_drop};

static mf_status gen_iterator(mf_dataset *ds, mf_iterator **out, mf_error *err) {
  MF_TRY(mf_iterator_alloc(&gen_it_class, sizeof(gen_it), ds, out, err));
  ((gen_it *)*out)->id = atomic_fetch_add(&((gen_ds *)ds)->ids, 1) + 1;
  return MF_OK;
}

static int64_t gen_cardinality(const mf_dataset *ds) {
  (void)ds;
  return MF_CARDINALITY_UNKNOWN;
}

static void gen_drop(mf_dataset *ds) {
  gen_ds *d = (gen_ds *)ds;
  mf_callback_release(d->next);
  if (d->finish) mf_callback_release(d->finish);
}

static const mf_dataset_class gen_class = {MF_DATASET_VARIANT("GeneratorDatasetOp::Dataset"),
                                           gen_iterator, gen_cardinality, gen_drop};

mf_status mf_dataset_generator(mf_callback *next, mf_callback *finish, int ncomp,
                               const mf_spec *spec, mf_dataset **out, mf_error *err) {
  MF_TRY(mf_dataset_alloc(&gen_class, sizeof(gen_ds), ncomp, spec, out, err));
  gen_ds *d = (gen_ds *)*out;
  mf_callback_retain(next);
  d->next = next;
  if (finish) mf_callback_retain(finish);
  d->finish = finish;
  atomic_init(&d->ids, 0);
  (*out)->host = true;
  (*out)->threadable = false;
  return MF_OK;
}
