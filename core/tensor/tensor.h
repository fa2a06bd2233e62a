/* tensor.h — the one tensor type: a dtype, a shape, and a view of a
 * refcounted buffer.
 *
 * Ownership rule, written once for every function in core/:
 *   - a function returning `mf_tensor *` or `mf_buffer *` returns a NEW
 *     reference; the caller releases it with mf_tensor_release /
 *     mf_buffer_release;
 *   - a function taking `mf_tensor *` borrows it, unless its comment says it
 *     steals the reference.
 * Tensors are immutable once a kernel has produced them (variables hold a
 * tensor and replace it on assignment), so views may share a buffer freely.
 * Data is always dense and row-major: a view is a (shape, element offset)
 * pair over the buffer, which makes reshape, x[i] and identity free. */
#ifndef MF_TENSOR_H
#define MF_TENSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dtype.h"
#include "error.h"

#define MF_MAX_RANK 8

typedef struct mf_buffer {
  long refcount;
  mf_dtype dtype;
  size_t count;   /* elements */
  size_t nbytes;
  void *data;     /* 64-byte aligned; strings/resources zero-initialised */
  void *block;    /* tensor.c's: the one block a small tensor shares, or NULL */
  uint64_t stamp; /* tensor.c's: alloc.h's block stamp of data */
} mf_buffer;

typedef struct mf_tensor {
  long refcount;
  mf_dtype dtype;
  int rank;
  int64_t shape[MF_MAX_RANK];
  int64_t size;   /* product of shape */
  mf_buffer *buf;
  size_t offset;  /* in elements, into buf */
  void *block;    /* tensor.c's: the one block a small tensor shares, or NULL */
} mf_tensor;

/* A buffer of `count` elements. Numeric data is uninitialised. */
mf_status mf_buffer_new(mf_dtype dt, size_t count, mf_buffer **out, mf_error *err);
void mf_buffer_retain(mf_buffer *b);
void mf_buffer_release(mf_buffer *b);

/* Product of a shape with overflow and negative-dimension checks. */
mf_status mf_shape_size(int rank, const int64_t *shape, int64_t *out, mf_error *err);

/* A fresh tensor with its own buffer (numeric contents uninitialised). */
mf_status mf_tensor_new(mf_dtype dt, int rank, const int64_t *shape, mf_tensor **out,
                        mf_error *err);
/* Like mf_tensor_new but zero-filled. */
mf_status mf_tensor_zeros(mf_dtype dt, int rank, const int64_t *shape, mf_tensor **out,
                          mf_error *err);
/* A view of `base`'s buffer with another shape, starting `offset` elements
 * into base's view. The caller guarantees it fits. */
mf_status mf_tensor_view(const mf_tensor *base, int rank, const int64_t *shape, size_t offset,
                         mf_tensor **out, mf_error *err);
/* Rank-0 constructors. */
mf_status mf_tensor_scalar_f64(mf_dtype dt, double v, mf_tensor **out, mf_error *err);
mf_status mf_tensor_scalar_i64(mf_dtype dt, int64_t v, mf_tensor **out, mf_error *err);
mf_status mf_tensor_scalar_bool(bool v, mf_tensor **out, mf_error *err);
mf_status mf_tensor_scalar_string(const char *s, size_t len, mf_tensor **out, mf_error *err);
/* A deep copy into a fresh buffer (strings duplicated). */
mf_status mf_tensor_copy(const mf_tensor *t, mf_tensor **out, mf_error *err);

void mf_tensor_retain(mf_tensor *t);
void mf_tensor_release(mf_tensor *t);

static inline void *mf_tensor_data(const mf_tensor *t) {
  return (char *)t->buf->data + t->offset * mf_dtype_size(t->dtype);
}
#define MF_DATA(t, type) ((type *)mf_tensor_data(t))

/* Element i (flat, row-major) as a double / int64 (numeric and bool). */
double mf_tensor_get_f64(const mf_tensor *t, int64_t i);
int64_t mf_tensor_get_i64(const mf_tensor *t, int64_t i);
/* Store a double / int64 into element i, converting to t's dtype. */
void mf_tensor_set_f64(mf_tensor *t, int64_t i, double v);
void mf_tensor_set_i64(mf_tensor *t, int64_t i, int64_t v);
/* Set string element i to a copy of `len` bytes. */
mf_status mf_string_set(mf_string *s, const char *p, size_t len, mf_error *err);

bool mf_shape_equal(int ra, const int64_t *a, int rb, const int64_t *b);
/* "(2, 3)", "()", "(2,)" into buf; unknown dims (< 0) as "None". */
void mf_shape_format(int rank, const int64_t *shape, char *buf, size_t n);

/* A pool of numeric buffers kept for reuse by exact size: the executor
 * returns the buffers of values that die (when nothing else holds them) and
 * takes new outputs from it, so a plan run many times stops allocating. */
typedef struct mf_buffer_pool mf_buffer_pool;
mf_buffer_pool *mf_buffer_pool_new(void);
void mf_buffer_pool_free(mf_buffer_pool *p);
/* Steals the reference to t. Keeps t's buffer when t is the only user of a
 * numeric buffer, else just releases t. */
void mf_buffer_pool_recycle(mf_buffer_pool *p, mf_tensor *t);
/* Lends t's buffer to the pool while t is still being read: an
 * elementwise op may then write its output into the buffer of an input that
 * dies at that op (same index in, same index out). Only a tensor that is
 * its whole buffer is lent, and only to an output of its byte size and
 * dtype width (so not to one it is broadcast into). Borrows t; the buffer
 * gains a reference the taker owns. Returns whether it was lent. */
bool mf_buffer_pool_lend(mf_buffer_pool *p, mf_tensor *t);
/* Takes back buffers lent and not taken. */
void mf_buffer_pool_unlend(mf_buffer_pool *p);
/* mf_tensor_new, taking a buffer of the right size from p when it has one. */
mf_status mf_tensor_new_pooled(mf_buffer_pool *p, mf_dtype dt, int rank, const int64_t *shape,
                               mf_tensor **out, mf_error *err);

/* Bytes held by live buffers right now (all threads). */
size_t mf_live_bytes(void);
/* How many buffers are alive right now (all threads): a leak shows here
 * even when the leaked tensor is tiny. Buffers kept by executor pools
 * count too. */
size_t mf_live_buffers(void);
/* The largest tensor buffer mf_buffer_new tries to allocate (bytes). */
size_t mf_tensor_byte_limit(void);

#endif
