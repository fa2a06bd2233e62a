/* npy.h — NumPy's .npy and .npz files, so data and checkpoints move between
 * moonflow and NumPy without a converter.
 *
 * Supported dtypes: float32 ('<f4'), float64 ('<f8'), int32 ('<i4'), int64
 * ('<i8') and bool ('|b1'), C order. Big-endian files ('>f4', ...) are read
 * and byte-swapped. Strings are refused both ways (TypeError naming the
 * dtype): moonflow strings are bytes, NumPy's '<U' is UTF-32 text, and a
 * silent re-encoding would not round-trip. Files are written as version 1.0
 * (2.0 when the header needs more than 65535 bytes); 1.0, 2.0 and 3.0 are
 * read.
 *
 * Reading validates everything (the files may come from anywhere): the magic,
 * the header dict (exactly the keys descr, fortran_order, shape), the shape
 * (non-negative, product without overflow, rank <= MF_MAX_RANK) and that the
 * bytes present are exactly shape x itemsize. Errors are status codes
 * (InvalidArgumentError for a malformed file, TypeError for a dtype moonflow
 * does not have, NotFoundError for a missing file). */
#ifndef MF_NPY_H
#define MF_NPY_H

#include <stddef.h>

#include "tensor.h"

/* The .npy bytes of t (malloc'd; the caller frees *out). */
mf_status mf_npy_encode(const mf_tensor *t, unsigned char **out, size_t *len, mf_error *err);
/* A tensor from .npy bytes. */
mf_status mf_npy_decode(const unsigned char *data, size_t len, mf_tensor **out, mf_error *err);

mf_status mf_npy_write(const char *path, const mf_tensor *t, mf_error *err);
mf_status mf_npy_read(const char *path, mf_tensor **out, mf_error *err);

/* The arrays of an .npz (a zip of .npy members, stored or deflated), in
 * archive order; names lose their ".npy" suffix as in numpy.load. The
 * caller frees with mf_npz_free. */
typedef struct mf_npz {
  int count;
  char **names;
  mf_tensor **tensors;
} mf_npz;
mf_status mf_npz_read(const char *path, mf_npz *out, mf_error *err);
void mf_npz_free(mf_npz *z);

/* Whole-file helpers shared with the saved-program loader. */
mf_status mf_file_read(const char *path, size_t limit, unsigned char **out, size_t *len,
                       mf_error *err);
mf_status mf_file_write(const char *path, const void *data, size_t len, mf_error *err);

#endif
