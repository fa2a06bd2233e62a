/* array_util.h — what the array-op families (ops_shape.c, ops_pad.c,
 * ops_join.c, ops_generate.c, ops_index.c, ops_reduce.c) share.
 *
 * Data movement has one primitive, mf_copy_strided: every kernel that
 * rearranges elements (transpose, concat, stack, tile, pad, broadcast,
 * slices, gathers, fills) describes its work as a walk over a shape with
 * one element stride per dimension on each side, and that walk copies
 * numbers by value, deep-copies strings (mf_string_set) and retains
 * resource handles. mf_tensor_region builds on it: a region that already
 * lies contiguously in its source becomes a view (tensors are immutable, so
 * sharing is safe), anything else a copy.
 *
 * The rest is the small print of inference: reading integer inputs (axes,
 * shapes, permutations) that may be unknown while tracing, declaring an
 * output, and failing with TensorFlow's text plus "[Op:Name]". */
#ifndef MF_ARRAY_UTIL_H
#define MF_ARRAY_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel_util.h"
#include "op.h"

/* Tile walks a rank-r input as 2r dimensions (repeat, extent). */
#define MF_COPY_MAX_DIMS (2 * MF_MAX_RANK)

/* Largest integer vector an op reads from an input (axes lists, perms,
 * begin/end/strides with new axes). */
#define MF_MAX_INT_INPUT 32

/* Fills err with the formatted message followed by " [Op:<op name>]" and
 * returns `st`. */
mf_status mf_op_fail(const mf_op_call *c, mf_error *err, mf_status st, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Row-major element strides of `shape`. */
void mf_strides_of(int rank, const int64_t *shape, int64_t *strides);

/* For every index i over `shape` (rank <= MF_COPY_MAX_DIMS):
 *   dst[dst_off + sum(i * dst_strides)] = src[src_off + sum(i * src_strides)]
 * Offsets and strides are in elements from each tensor's first element;
 * strides may be zero (broadcast, fill) or negative (reversed slices).
 * Both tensors have the same dtype; dst must be a fresh buffer the caller
 * owns. Fails only when copying a string runs out of memory. */
mf_status mf_copy_strided(mf_tensor *dst, int64_t dst_off, const int64_t *dst_strides,
                          const mf_tensor *src, int64_t src_off, const int64_t *src_strides,
                          int rank, const int64_t *shape, mf_error *err);

/* Sets dst[off .. off+n) to value's first element. */
mf_status mf_tensor_fill(mf_tensor *dst, int64_t off, int64_t n, const mf_tensor *value,
                         mf_error *err);

/* The elements of `src` walked by (off, strides) over `shape`, as a new
 * tensor of shape `out_shape` (same element count, row-major order): a view
 * when they are contiguous in src, else a copy. Returns a new reference. */
mf_status mf_tensor_region(const mf_tensor *src, int64_t off, int rank, const int64_t *shape,
                           const int64_t *strides, int out_rank, const int64_t *out_shape,
                           mf_tensor **out, mf_error *err);

/* Input i must be int32 or int64 (TF's Tidx/Tshape/...). When its value is
 * known, copies it to vals (at most `cap` values, else an error) and sets
 * *known; while tracing an unknown value leaves *known false. */
mf_status mf_input_ints(mf_op_call *c, int i, int64_t *vals, int cap, int *n, bool *known,
                        mf_error *err);
/* mf_input_ints for an input TF's shape function reads as a shape
 * (MakeShapeFromShapeTensor: Reshape's shape, Fill's dims): its error
 * message then shows the value as a partial shape. */
mf_status mf_input_shape_ints(mf_op_call *c, int i, int64_t *vals, int cap, int *n, bool *known,
                              mf_error *err);

/* Declares one output. shape NULL: every dimension unknown; rank -1:
 * unknown rank. Fails when rank exceeds MF_MAX_RANK. */
mf_status mf_infer_output(mf_op_call *c, mf_dtype dt, int rank, const int64_t *shape,
                          mf_error *err);

/* Output i as a view of `src` (offset 0) in the inferred shape: what
 * reshapes and identities return. */
mf_status mf_op_view_output(mf_op_call *c, int i, const mf_tensor *src, mf_error *err);

/* The length of vector input i when its shape says so, else -1. */
int mf_input_vector_length(const mf_op_call *c, int i);

/* A new rank-0 tensor of dtype `dt` holding 0 or 1 ("" for strings, a null
 * handle for resources): the identities ZerosLike/OnesLike fill with. */
mf_status mf_small_scalar(mf_dtype dt, int v, mf_tensor **out, mf_error *err);

/* TF's shape text ("[2,3]") as a value, for error messages:
 * mf_shape_text_of(r, dims).s lives until the end of the full expression. */
typedef struct mf_shape_text {
  char s[160];
} mf_shape_text;
static inline mf_shape_text mf_shape_text_of(int rank, const int64_t *shape) {
  mf_shape_text t;
  mf_shape_debug(rank, shape, t.s, sizeof t.s);
  return t;
}
#define MF_SPEC_TEXT(spec) (mf_shape_text_of((spec)->rank, (spec)->shape).s)

/* Wraps a possibly negative axis into [0, rank); false when it is outside
 * [-rank, rank). */
static inline bool mf_axis_wrap(int64_t *axis, int rank) {
  if (*axis < -(int64_t)rank || *axis >= rank) return false;
  if (*axis < 0) *axis += rank;
  return true;
}

static inline bool mf_dtype_is_bool(mf_dtype dt) { return dt == MF_BOOL; }
static inline bool mf_dtype_is_numeric_or_bool(mf_dtype dt) {
  return mf_dtype_is_numeric(dt) || dt == MF_BOOL;
}

#endif
