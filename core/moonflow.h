/* moonflow.h — running saved moonflow programs from C, without Lua.
 *
 *   mf_program *p;  mf_error err;
 *   if (mf_program_open("model_dir", &p, &err) != MF_OK) { puts(err.message); ... }
 *   mf_tensor *x;   mf_tensor_from_buffer(MF_FLOAT32, 2, (int64_t[]){1, 2}, data,
 *                                         sizeof data, &x, &err);
 *   mf_tensor **outs; int nout;
 *   mf_program_call(p, "serving_default", 1, &x, &outs, &nout, &err);
 *   ... mf_tensor_buffer(outs[0], &nbytes) ...
 *   mf_tensors_free(outs, nout); mf_tensor_release(x); mf_program_close(p);
 *
 * Every function returns a status (MF_OK, or TensorFlow's error class:
 * MF_ERR_INVALID_ARGUMENT, ...) and fills the caller's mf_error with a
 * message; nothing aborts. Link with libmoonflow.a (whole archive: ops
 * register through a table) and -ljansson -lpcre2-8 -lz -lm -lpthread -ldl; not
 * -lopenblas: moonflow loads libopenblas.so.0 (which must be installed)
 * with dlopen at its first matrix op, after choosing its kernel from the
 * CPU (core/run/blas.h; OPENBLAS_CORETYPE, when set, is respected). A
 * program that links OpenBLAS itself keeps OpenBLAS's own choice.
 * The directory format: docs/saved_model.md. This header includes only
 * error.h and dtype.h, which have no dependencies. */
#ifndef MOONFLOW_H
#define MOONFLOW_H

#include <stddef.h>
#include <stdint.h>

#include "tensor/dtype.h"
#include "error.h"

typedef struct mf_saved_program mf_program;
typedef struct mf_tensor mf_tensor;

mf_status mf_program_open(const char *dir, mf_program **out, mf_error *err);
void mf_program_close(mf_program *p);

/* Signatures (names -> functions) and functions, by index. */
int mf_program_signature_count(const mf_program *p);
const char *mf_program_signature_name(const mf_program *p, int i);
int mf_program_function_count(const mf_program *p);
const char *mf_program_function_name(const mf_program *p, int i);

/* The arguments and outputs of a signature or function `name`. Shapes use
 * -1 for unknown dimensions; *rank is -1 for an unknown rank. */
mf_status mf_program_arity(const mf_program *p, const char *name, int *nargs, int *nouts,
                           mf_error *err);
mf_status mf_program_arg(const mf_program *p, const char *name, int i, const char **arg_name,
                         mf_dtype *dtype, int *rank, int64_t shape[8], mf_error *err);
const char *mf_program_output_name(const mf_program *p, const char *name, int i);

/* Calls signature or function `name` on args (borrowed). *outs is a new
 * array of *nout new tensors: free with mf_tensors_free. */
mf_status mf_program_call(const mf_program *p, const char *name, int nargs,
                          mf_tensor *const *args, mf_tensor ***outs, int *nout, mf_error *err);

/* Tensors: made from a dense row-major buffer (copied; nbytes must equal
 * the shape's element count x the dtype's size; no string tensors here). */
mf_status mf_tensor_from_buffer(mf_dtype dtype, int rank, const int64_t *shape, const void *data,
                                size_t nbytes, mf_tensor **out, mf_error *err);
mf_dtype mf_tensor_dtype(const mf_tensor *t);
int mf_tensor_rank(const mf_tensor *t);
int64_t mf_tensor_dim(const mf_tensor *t, int i);
/* The elements, dense row-major; *nbytes set when not NULL. */
const void *mf_tensor_buffer(const mf_tensor *t, size_t *nbytes);
void mf_tensor_release(mf_tensor *t);
void mf_tensors_free(mf_tensor **ts, int n);

/* NumPy files (core/tensor/npy.h). */
mf_status mf_npy_read(const char *path, mf_tensor **out, mf_error *err);
mf_status mf_npy_write(const char *path, const mf_tensor *t, mf_error *err);

#endif
