#include "alloc.h"
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

mf_status mf_variable_assign(mf_variable *v, mf_tensor *t, mf_error *err) {
  if (t->dtype != v->dtype)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Trying to assign a %s value to a %s variable '%s'",
                        mf_dtype_name(t->dtype), mf_dtype_name(v->dtype), v->name);
  if (!mf_shape_equal(t->rank, t->shape, v->rank, v->shape)) {
    char a[128], b[128];
    mf_shape_format(t->rank, t->shape, a, sizeof a);
    mf_shape_format(v->rank, v->shape, b, sizeof b);
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Cannot assign value of shape %s to variable '%s' of shape %s", a,
                        v->name, b);
  }
  mf_tensor_retain(t);
  mf_tensor_release(v->value);
  v->value = t;
  return MF_OK;
}
