/* variable.h — a mutable slot holding a tensor: what tf.Variable and
 * resource handles point at.
 *
 * A variable is refcounted (_retain/_release). Its value is replaced, or
 * updated in place only when nothing else holds it (ops_core.c), so tensors
 * read from it stay valid after an assign. Resource tensors (MF_RESOURCE)
 * hold counted references to variables.
 *
 * A variable's declared shape is what graphs know of it (ReadVariableOp's
 * inferred shape) and what assignments must be compatible with. It is the
 * initial value's shape unless relaxed (tf.Variable(x, {shape = ...}): TF's
 * `shape=tf.TensorShape(None)` lets values of any shape be assigned). */
#ifndef MF_VARIABLE_H
#define MF_VARIABLE_H

#include "tensor.h"

typedef struct mf_variable {
  long refcount;
  int64_t id;          /* unique per process: the resource id of trace types */
  mf_dtype dtype;
  int rank;                   /* declared rank; -1 unknown */
  int64_t shape[MF_MAX_RANK]; /* declared dimensions; -1 unknown */
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
/* Replace the value; `t` is borrowed. Checks the dtype, and the shape
 * against the declared one (TF's AssignVariableOp messages). */
mf_status mf_variable_assign(mf_variable *v, mf_tensor *t, mf_error *err);
/* Relaxes the declared shape to (rank, shape) (-1: unknown), which the
 * current value must be compatible with. */
mf_status mf_variable_set_shape(mf_variable *v, int rank, const int64_t *shape, mf_error *err);
/* True when a tensor of (rank, shape) may be assigned to v. */
bool mf_variable_accepts_shape(const mf_variable *v, int rank, const int64_t *shape);

#endif
