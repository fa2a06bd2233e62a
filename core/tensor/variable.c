#include "alloc.h"
#include "array_util.h"
#include "variable.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Ids are unique in the process (sessions on several threads make
 * variables at once): atomic, not per session. */
static _Atomic int64_t next_variable_id = 1;

mf_status mf_variable_new(const char *name, mf_tensor *init, bool trainable, mf_variable **out,
                          mf_error *err) {
  mf_variable *v = mf_calloc(1, sizeof *v);
  char *nm = mf_strdup(name ? name : "Variable");
  if (!v || !nm) {
    free(v);
    free(nm);
    return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  }
  v->refcount = 1;
  v->id = atomic_fetch_add(&next_variable_id, 1);
  v->dtype = init->dtype;
  v->rank = init->rank;
  memcpy(v->shape, init->shape, sizeof v->shape);
  mf_tensor_retain(init);
  v->value = init;
  v->name = nm;
  v->trainable = trainable;
  *out = v;
  return MF_OK;
}

void mf_variable_retain(mf_variable *v) { v->refcount++; }

void mf_variable_release(mf_variable *v) {
  if (!v || --v->refcount > 0) return;
  mf_tensor_release(v->value);
  free(v->name);
  free(v);
}

mf_tensor *mf_variable_read(mf_variable *v) {
  mf_tensor_retain(v->value);
  return v->value;
}

bool mf_variable_accepts_shape(const mf_variable *v, int rank, const int64_t *shape) {
  if (v->rank < 0) return true;
  if (rank != v->rank) return false;
  for (int i = 0; i < rank; i++)
    if (v->shape[i] >= 0 && shape[i] != v->shape[i]) return false;
  return true;
}

mf_status mf_variable_assign(mf_variable *v, mf_tensor *t, mf_error *err) {
  if (t->dtype != v->dtype)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Trying to assign variable with wrong dtype. Expected %s got %s",
                        mf_dtype_kernel_name(v->dtype), mf_dtype_kernel_name(t->dtype));
  if (!mf_variable_accepts_shape(v, t->rank, t->shape))
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Trying to assign to variable with tensor with wrong shape. Expected %s got %s",
                        mf_shape_text_of(v->rank, v->shape).s, mf_shape_text_of(t->rank, t->shape).s);
  mf_tensor_retain(t);
  mf_tensor_release(v->value);
  v->value = t;
  return MF_OK;
}

mf_status mf_variable_set_shape(mf_variable *v, int rank, const int64_t *shape, mf_error *err) {
  const mf_tensor *t = v->value;
  bool fits = rank < 0 || rank == t->rank;
  for (int i = 0; fits && rank > 0 && i < rank; i++) fits = shape[i] < 0 || shape[i] == t->shape[i];
  if (!fits)
    return mf_error_set(err, MF_ERR_VALUE, "the shape %s does not fit the value's %s",
                        mf_shape_text_of(rank, shape).s, mf_shape_text_of(t->rank, t->shape).s);
  v->rank = rank;
  for (int i = 0; i < MF_MAX_RANK; i++) v->shape[i] = i < rank ? (shape[i] < 0 ? -1 : shape[i]) : 0;
  return MF_OK;
}
