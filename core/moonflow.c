/* moonflow.c — the embedding API of moonflow.h over saved_model.h. */
#include "moonflow.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "saved_model.h"
#include "tensor.h"

mf_status mf_program_open(const char *dir, mf_program **out, mf_error *err) {
  return mf_saved_open(dir, out, err);
}

void mf_program_close(mf_program *p) { mf_saved_free(p); }

int mf_program_signature_count(const mf_program *p) { return p->nsigs; }
const char *mf_program_signature_name(const mf_program *p, int i) {
  return i >= 0 && i < p->nsigs ? p->sig_names[i] : NULL;
}
int mf_program_function_count(const mf_program *p) { return p->nfns; }
const char *mf_program_function_name(const mf_program *p, int i) {
  return i >= 0 && i < p->nfns ? p->fns[i].name : NULL;
}

static mf_status find(const mf_program *p, const char *name, int *f, mf_error *err) {
  *f = name ? mf_saved_find(p, name) : -1;
  if (*f < 0)
    return mf_error_set(err, MF_ERR_NOT_FOUND, "the saved program has no signature or function '%s'",
                        name ? name : "(null)");
  return MF_OK;
}

mf_status mf_program_arity(const mf_program *p, const char *name, int *nargs, int *nouts,
                           mf_error *err) {
  int f;
  MF_TRY(find(p, name, &f, err));
  *nargs = p->fns[f].nargs;
  *nouts = p->fns[f].nouts;
  return MF_OK;
}

mf_status mf_program_arg(const mf_program *p, const char *name, int i, const char **arg_name,
                         mf_dtype *dtype, int *rank, int64_t shape[8], mf_error *err) {
  int f;
  MF_TRY(find(p, name, &f, err));
  if (i < 0 || i >= p->fns[f].nargs)
    return mf_error_set(err, MF_ERR_OUT_OF_RANGE, "'%s' has no argument %d", name, i);
  mf_spec s;
  mf_saved_arg_spec(p, f, i, &s);
  if (arg_name) *arg_name = p->fns[f].arg_names[i];
  *dtype = s.dtype;
  *rank = s.rank;
  for (int k = 0; k < s.rank; k++) shape[k] = s.shape[k];
  return MF_OK;
}

const char *mf_program_output_name(const mf_program *p, const char *name, int i) {
  int f = name ? mf_saved_find(p, name) : -1;
  return f >= 0 && i >= 0 && i < p->fns[f].nouts ? p->fns[f].out_names[i] : NULL;
}

mf_status mf_program_call(const mf_program *p, const char *name, int nargs,
                          mf_tensor *const *args, mf_tensor ***outs, int *nout, mf_error *err) {
  int f;
  MF_TRY(find(p, name, &f, err));
  for (int i = 0; i < nargs; i++)
    if (!args[i]) return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "argument %d is NULL", i);
  int n = p->fns[f].nouts;
  mf_tensor **o = mf_calloc((size_t)n + 1, sizeof *o);
  if (!o) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  mf_status s = mf_saved_call(p, f, nargs, args, o, err);
  if (s != MF_OK) {
    free(o);
    return s;
  }
  *outs = o;
  *nout = n;
  return MF_OK;
}

mf_status mf_tensor_from_buffer(mf_dtype dtype, int rank, const int64_t *shape, const void *data,
                                size_t nbytes, mf_tensor **out, mf_error *err) {
  if ((unsigned)dtype >= MF_DTYPE_COUNT || dtype == MF_STRING || dtype == MF_RESOURCE ||
      dtype == MF_VARIANT)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "mf_tensor_from_buffer: not a numeric or bool dtype");
  if (rank < 0 || rank > MF_MAX_RANK)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "mf_tensor_from_buffer: rank %d", rank);
  int64_t count;
  MF_TRY(mf_shape_size(rank, shape, &count, err));
  if ((uint64_t)count > SIZE_MAX / 8 || (size_t)count * mf_dtype_size(dtype) != nbytes)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "mf_tensor_from_buffer: %zu bytes for %lld %s elements", nbytes,
                        (long long)count, mf_dtype_name(dtype));
  mf_tensor *t;
  MF_TRY(mf_tensor_new(dtype, rank, shape, &t, err));
  if (nbytes) memcpy(mf_tensor_data(t), data, nbytes);
  if (dtype == MF_BOOL)
    for (size_t i = 0; i < nbytes; i++) ((unsigned char *)mf_tensor_data(t))[i] = ((const unsigned char *)data)[i] != 0;
  *out = t;
  return MF_OK;
}

mf_dtype mf_tensor_dtype(const mf_tensor *t) { return t->dtype; }
int mf_tensor_rank(const mf_tensor *t) { return t->rank; }
int64_t mf_tensor_dim(const mf_tensor *t, int i) { return i >= 0 && i < t->rank ? t->shape[i] : -1; }

const void *mf_tensor_buffer(const mf_tensor *t, size_t *nbytes) {
  if (nbytes) *nbytes = (size_t)t->size * mf_dtype_size(t->dtype);
  return mf_tensor_data(t);
}

void mf_tensors_free(mf_tensor **ts, int n) {
  if (!ts) return;
  for (int i = 0; i < n; i++)
    if (ts[i]) mf_tensor_release(ts[i]);
  free(ts);
}
