/* data_kernel.c — the kernel helpers every dataset op shares (see
 * data_kernel.h). */
#include "data_kernel.h"

#include <stdio.h>
#include <string.h>

#include "array_util.h"

mf_status mf_data_op_failed(const mf_op_call *c, mf_status s, mf_error *err) {
  if (s == MF_OK || !err) return s;
  char msg[MF_ERROR_MESSAGE_MAX];
  snprintf(msg, sizeof msg, "%s", err->message);
  if (strstr(msg, " [Op:")) return s;
  return mf_error_set(err, s, "%s [Op:%s]", msg, c->op->name);
}

mf_status mf_data_op_variant_output(mf_op_call *c, mf_error *err) {
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  c->out_specs[0] = (mf_spec){.dtype = MF_VARIANT, .rank = 0};
  return MF_OK;
}

mf_status mf_data_op_need_dtype(const mf_op_call *c, int i, mf_dtype dt, const char *what,
                                mf_error *err) {
  if (c->in_specs[i].dtype == dt) return MF_OK;
  return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                      "%s: %s (input #%d) must be a %s tensor, got a %s tensor", c->op->name, what,
                      i, mf_dtype_name(dt), mf_dtype_name(c->in_specs[i].dtype));
}

mf_status mf_data_op_need_scalar(const mf_op_call *c, int i, mf_dtype dt, const char *what,
                                 mf_error *err) {
  MF_TRY(mf_data_op_need_dtype(c, i, dt, what, err));
  if (c->in_specs[i].rank > 0)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "%s must be a scalar", what);
  return MF_OK;
}

mf_status mf_data_op_input_dataset(const mf_op_call *c, int i, mf_dataset **ds, mf_error *err) {
  *ds = mf_dataset_of(c->in[i]);
  if (!*ds)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "input #%d must hold a dataset", i);
  return MF_OK;
}

mf_status mf_data_op_output(mf_op_call *c, mf_status made, mf_dataset *ds, mf_error *err) {
  if (made != MF_OK) return mf_data_op_failed(c, made, err);
  mf_tensor *t;
  mf_status s = mf_dataset_to_tensor(ds, &t, err);
  mf_dataset_release(ds);
  MF_TRY(s);
  c->out[0] = t;
  return MF_OK;
}

/* Tensors, not list attributes: an element may have more components
 * than a list attribute holds. */
mf_status mf_data_op_spec_attrs(const mf_op_call *c, int *n, mf_spec *spec, mf_error *err) {
  const mf_attr *types = mf_attrs_find(c->attrs, "output_types");
  const mf_attr *shapes = mf_attrs_find(c->attrs, "output_shapes");
  *n = -1;
  if (!types && !shapes) return MF_OK;
  if (!types || !shapes || types->kind != MF_ATTR_TENSOR || shapes->kind != MF_ATTR_TENSOR)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "%s: output_types and output_shapes go together, as tensors", c->op->name);
  const mf_tensor *t = types->u.tensor, *s = shapes->u.tensor;
  if (t->rank != 1 || t->size > MF_DATA_MAX_COMPONENTS || s->rank != 2 ||
      s->shape[0] != t->size || s->shape[1] != MF_MAX_RANK + 1)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "%s: malformed output_types/output_shapes",
                        c->op->name);
  for (int k = 0; k < t->size; k++) {
    int64_t dt = mf_tensor_get_i64(t, k), rank = mf_tensor_get_i64(s, k * (MF_MAX_RANK + 1));
    if (dt < 0 || dt >= MF_DTYPE_COUNT || rank < -1 || rank > MF_MAX_RANK)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "%s: malformed output_types/output_shapes",
                          c->op->name);
    spec[k].dtype = (mf_dtype)dt;
    spec[k].rank = (int)rank;
    for (int d = 0; d < rank; d++) spec[k].shape[d] = mf_tensor_get_i64(s, k * (MF_MAX_RANK + 1) + 1 + d);
  }
  *n = (int)t->size;
  return MF_OK;
}

const mf_graph *mf_data_op_fn(const mf_op_call *c, const char *name) {
  const mf_attr *a = mf_attrs_find(c->attrs, name);
  return a && a->kind == MF_ATTR_GRAPH ? a->u.graph : NULL;
}
