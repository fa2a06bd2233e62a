/* variable.h — a mutable slot holding a tensor: what tf.Variable and
 * resource handles point at.
 *
 * A variable is refcounted (_retain/_release). Its value is replaced, never
 * written in place, so tensors read from it stay valid after an assign.
 * Resource tensors (MF_RESOURCE) hold counted references to variables. */
#ifndef MF_VARIABLE_H
#define MF_VARIABLE_H

#include "tensor.h"

typedef struct mf_variable {
  long refcount;
  int64_t id;          /* unique per process: the resource id of trace types */
  mf_dtype dtype;
  int rank;
  int64_t shape[MF_MAX_RANK]; /* the variable's shape (fixed at creation) */
  mf_tensor *value;    /* owned; NULL until initialised */
  char *name;          /* owned */
  bool trainable;
} mf_variable;

/* Creates a variable holding a reference to `init` (borrowed; retained). */
mf_status mf_variable_new(const char *name, mf_tensor *init, bool trainable, mf_variable **out,
                          mf_error *err);
void mf_variable_retain(mf_variable *v);
void mf_variable_release(mf_variable *v);
/* Returns a new reference to the current value. */
mf_tensor *mf_variable_read(mf_variable *v);
/* Replace the value; `t` is borrowed. Checks dtype and shape. */
mf_status mf_variable_assign(mf_variable *v, mf_tensor *t, mf_error *err);

#endif
