/* ops_shape.c — ops that rearrange a tensor or describe its shape:
 * Transpose, Reshape, ExpandDims, Squeeze, Tile, Shape, Size, Rank,
 * and BroadcastGradientArgs (which axes a broadcast op's gradient sums
 * over). (Ops that join tensors or take one apart, ConcatV2, Pack and
 * Unpack, live in ops_join.c; ops that make a tensor from a shape or a
 * range, BroadcastTo among them, in ops_generate.c; the padding ops, Pad,
 * MirrorPad and MirrorPadGrad, in ops_pad.c.)
 *
 * Axis, shape and permutation arguments are input tensors, as in TF. Infer
 * computes a static result shape when their values are known (Const or
 * eager) and leaves dimensions unknown otherwise; it does all validation.
 * Kernels run after infer on the same call, so they take the result shape
 * from out_specs and re-read only the integers their data walk needs. Pure
 * shape changes (Reshape, ExpandDims, Squeeze, Unpack along axis 0, identity
 * transposes) are views of the input. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array_util.h"
#include "op.h"
#include "partial.h"
#include "shape_fn.h"

/* Fails unless input i is a vector (when its rank is known). */
static mf_status check_vector(mf_op_call *c, int i, const char *what, mf_error *err) {
  const mf_spec *s = &c->in_specs[i];
  if (s->rank >= 0 && s->rank != 1)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "%s must be 1-D, not %s", what,
                      MF_SPEC_TEXT(s));
  return MF_OK;
}

/* ---- Transpose ---- */

extern const mf_op_def mf_op_Tile;

/* Input 1 of Transpose (perm) and Tile (multiples): one integer per
 * dimension of input 0. While its value is unknown this declares the
 * output — of known rank, unknown dimensions — and sets *known false. */
static mf_status per_dim_ints(mf_op_call *c, int64_t *v, int *n, bool *known, mf_error *err) {
  const mf_spec *x = &c->in_specs[0];
  bool tile = c->op == &mf_op_Tile;
  MF_TRY(mf_input_ints(c, 1, v, MF_MAX_INT_INPUT, n, known, err));
  MF_TRY(check_vector(c, 1, tile ? "multiples" : "perm", err));
  /* A multiples vector of known length must match the input's rank even
   * when its values are not known (TF's Tile shape function). */
  int len = mf_input_vector_length(c, 1);
  if (tile && !*known && x->rank >= 0 && len >= 0 && len != x->rank)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "Expected multiples argument to be a vector of length %d but got length %d",
                      x->rank, len);
  if (!*known) return mf_infer_output(c, x->dtype, x->rank >= 0 ? x->rank : mf_input_vector_length(c, 1),
                                      NULL, err);
  if (x->rank < 0 || *n == x->rank) return MF_OK;
  if (tile)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "Expected multiples argument to be a vector of length %d but got length %d",
                      x->rank, *n);
  return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                    "transpose expects a vector of size %d. But input(1) is a vector of size %d",
                    x->rank, *n);
}

/* The element count of a spec (NumElements), -1 when not known. */
static int64_t spec_elements(const mf_spec *s) {
  int64_t n = 1;
  if (s->rank < 0) return -1;
  for (int i = 0; i < s->rank; i++) {
    if (s->shape[i] == 0) return 0;
    if (s->shape[i] < 0 || __builtin_mul_overflow(n, s->shape[i], &n)) n = -1;
    if (n < 0) return -1;
  }
  return n;
}

static mf_status transpose_infer_eager(mf_op_call *c, mf_error *err);

/* Transpose while a graph is built: TF's TransposeShapeFn. It reads perm's
 * values but checks only their range (negatives count from the end); a
 * permutation that repeats an axis is the kernel's to refuse. */
static mf_status transpose_shape_fn(mf_op_call *c, mf_error *err) {
  const mf_spec *x = &c->in_specs[0], *p = &c->in_specs[1];
  MF_TRY(mf_infer_check_dtype(c, 1, mf_dtype_is_integer, "int32 or int64", err));
  int64_t perm[MF_MAX_INT_INPUT];
  int n;
  bool known = mf_infer_const_ints(c, 1, perm, MF_MAX_INT_INPUT, &n);
  int64_t perm_elems = spec_elements(p);
  if (x->rank < 0 && perm_elems < 0 && !known) return mf_infer_output(c, x->dtype, -1, NULL, err);
  int64_t rank = x->rank >= 0 ? x->rank : perm_elems >= 0 ? perm_elems : n;
  /* One entry could mean a scalar or a vector: both come back as they are. */
  if (x->rank < 0 && rank < 2) return mf_infer_output(c, x->dtype, -1, NULL, err);
  MF_TRY(mf_sf_with_rank(p->rank, 1, err));
  MF_TRY(mf_sf_with_value(perm_elems, rank, err));
  if (rank > MF_MAX_RANK) return mf_infer_output(c, x->dtype, (int)rank, NULL, err);
  int64_t shape[MF_MAX_RANK];
  for (int i = 0; i < rank; i++) {
    shape[i] = MF_UNKNOWN_DIM;
    if (!known) continue;
    if (perm[i] >= rank || perm[i] <= -rank)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "perm dim %lld is out of range of input rank %lld", (long long)perm[i],
                          (long long)rank);
    if (x->rank >= 0) shape[i] = x->shape[perm[i] < 0 ? perm[i] + rank : perm[i]];
  }
  MF_TRY(mf_infer_output(c, x->dtype, (int)rank, shape, err));
  mf_infer_defer_check(c, transpose_infer_eager);
  return MF_OK;
}

static mf_status transpose_infer(mf_op_call *c, mf_error *err) {
  return c->building ? transpose_shape_fn(c, err) : transpose_infer_eager(c, err);
}

static mf_status transpose_infer_eager(mf_op_call *c, mf_error *err) {
  const mf_spec *x = &c->in_specs[0];
  int64_t perm[MF_MAX_INT_INPUT];
  int n;
  bool known;
  MF_TRY(per_dim_ints(c, perm, &n, &known, err));
  if (!known) return MF_OK;
  bool seen[MF_MAX_INT_INPUT] = {false};
  for (int i = 0; i < n; i++) {
    if (perm[i] < 0 || perm[i] >= n)
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "%lld is out of range [0 .. %d)",
                        (long long)perm[i], n);
    seen[perm[i]] = true;
  }
  for (int i = 0; i < n; i++) {
    if (seen[i]) continue;
    char list[256] = "";
    size_t used = 0;
    for (int k = 0; k < n && used < sizeof list; k++)
      used += (size_t)snprintf(list + used, sizeof list - used, "%s%lld", k ? "," : "",
                               (long long)perm[k]);
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "%d is missing from {%s}.", i, list);
  }
  int64_t shape[MF_MAX_INT_INPUT];
  for (int i = 0; i < n; i++) shape[i] = x->rank >= 0 ? x->shape[perm[i]] : MF_UNKNOWN_DIM;
  return mf_infer_output(c, x->dtype, n, shape, err);
}

static mf_status transpose_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *x = c->in[0];
  const mf_spec *o = &c->out_specs[0];
  int64_t perm[MF_MAX_RANK], xs[MF_MAX_RANK], walk[MF_MAX_RANK];
  int n;
  mf_infer_const_ints(c, 1, perm, MF_MAX_RANK, &n);
  mf_strides_of(x->rank, x->shape, xs);
  for (int i = 0; i < n; i++) walk[i] = xs[perm[i]];
  return mf_tensor_region(x, 0, o->rank, o->shape, walk, o->rank, o->shape, &c->out[0], err);
}

const mf_op_def mf_op_Transpose = {
    .name = "Transpose", .input_names = "x,perm", .min_inputs = 2, .max_inputs = 2,
    .infer = transpose_infer, .kernel = transpose_kernel, .flags = 0,
    .doc = "Permutes the dimensions of x: output dimension i is input dimension perm[i].",
    .tf_attrs = "T:0 Tperm:1",
};

/* ---- Reshape ---- */

static mf_status reshape_infer_eager(mf_op_call *c, mf_error *err);

/* The element count of a shape as SetOutputShapeForReshape takes it:
 * NumElements when that is known (0 when a dimension is 0, whatever the
 * others), else the product of the known dimensions (Multiply, which
 * fails past int64) and the index of the one unknown (-2 when there are
 * more: then nothing more is known). *unknown is -1 when none is. */
static mf_status count_elements(int rank, const int64_t *d, int64_t *known, int *unknown,
                                mf_error *err) {
  *known = 1;
  *unknown = -1;
  for (int i = 0; i < rank; i++)
    if (d[i] == 0) {
      *known = 0;
      return MF_OK;
    }
  for (int i = 0; i < rank && *unknown != -2; i++) {
    if (d[i] < 0)
      *unknown = *unknown == -1 ? i : -2;
    else
      MF_TRY(mf_sf_multiply(*known, d[i], known, err));
  }
  return MF_OK;
}

/* Reshape while a graph is built: TF's SetOutputShapeForReshape. The
 * shape is read as a shape (a -1 is an unknown dimension, and a vector
 * known in part, partial.h, gives what is known of it: tf.stack({n, 37})
 * is [?,37]); only a product that cannot match, or a -1 that cannot
 * divide evenly, fails here. Two -1s and negative sizes are the kernel's
 * to refuse, when the graph runs. */
static mf_status reshape_shape_fn(mf_op_call *c, mf_error *err) {
  const mf_spec *x = &c->in_specs[0];
  int64_t out[MF_MAX_INT_INPUT];
  int rank;
  MF_TRY(mf_sf_shape_tensor(c, 1, &rank, out, MF_MAX_INT_INPUT, err));
  if (rank > MF_MAX_RANK)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "Reshape: the requested shape has too many dimensions: %d (moonflow's "
                      "tensors have at most %d)",
                      rank, MF_MAX_RANK);
  if (rank >= 0 && x->rank >= 0) {
    int64_t out_known, in_known;
    int out_unknown, in_unknown;
    MF_TRY(count_elements(rank, out, &out_known, &out_unknown, err));
    MF_TRY(count_elements(x->rank, x->shape, &in_known, &in_unknown, err));
    if (out_unknown == -2 || in_unknown == -2) {
      /* too many unknown dimensions: no more is known */
    } else if (in_unknown < 0 && out_unknown < 0) {
      if (in_known != out_known)
        return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                            "Cannot reshape a tensor with %lld elements to shape %s (%lld "
                            "elements)",
                            (long long)in_known, mf_shape_text_of(rank, out).s,
                            (long long)out_known);
    } else if (in_unknown < 0 && out_known > 0) {
      MF_TRY(mf_sf_divide_evenly(in_known, out_known, &out[out_unknown], err));
    } else if (out_unknown < 0 && in_unknown >= 0 && in_known != 0) {
      int64_t inferred;
      MF_TRY(mf_sf_divide_evenly(out_known, in_known, &inferred, err));
    }
  }
  MF_TRY(mf_infer_output(c, x->dtype, rank, rank >= 0 ? out : NULL, err));
  mf_infer_defer_check(c, reshape_infer_eager);
  return MF_OK;
}

/* TF's ReshapeOp: a -1 dimension is inferred from the input's size. When
 * the requested shape has a zero, zeros count in neither product, so
 * zeros(0, 6) reshaped to (0, -1, 3) still infers 2. */
static mf_status reshape_infer(mf_op_call *c, mf_error *err) {
  if (c->building) return reshape_shape_fn(c, err);
  return reshape_infer_eager(c, err);
}

static mf_status reshape_infer_eager(mf_op_call *c, mf_error *err) {
  const mf_spec *x = &c->in_specs[0];
  int64_t v[MF_MAX_INT_INPUT];
  int n;
  bool known;
  int len = mf_input_vector_length(c, 1);
  if (len > MF_MAX_RANK)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "Reshape: the requested shape has too many dimensions: %d (moonflow's "
                      "tensors have at most %d)",
                      len, MF_MAX_RANK);
  MF_TRY(mf_input_shape_ints(c, 1, v, MF_MAX_INT_INPUT, &n, &known, err));
  MF_TRY(check_vector(c, 1, "sizes input", err));
  int64_t size = -1;
  if (mf_spec_is_static(x)) MF_TRY(mf_shape_size(x->rank, x->shape, &size, err));
  if (!known) {
    int rank = mf_input_vector_length(c, 1);
    return mf_infer_output(c, x->dtype, rank, rank == 1 && size >= 0 ? &size : NULL, err);
  }
  int unknown = -1;
  int64_t product = 1;
  bool has_zero = false;
  for (int i = 0; i < n; i++) {
    if (v[i] == -1) {
      if (unknown >= 0)
        return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                          "Only one input size may be -1, not both %d and %d", unknown, i);
      unknown = i;
    } else if (v[i] < 0) {
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "Size %d must be non-negative, not %lld",
                        i, (long long)v[i]);
    } else if (v[i] == 0) {
      has_zero = true;
    } else if (product > INT64_MAX / v[i]) {
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                        "Shape has too many elements: more than 2**63 - 1");
    } else {
      product *= v[i];
    }
  }
  if (size >= 0) {
    if (unknown >= 0) {
      int64_t counted = 1;
      for (int d = 0; d < x->rank; d++)
        if (x->shape[d] > 0 || !has_zero) counted *= x->shape[d];
      if (counted % product != 0)
        return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                          "Input to reshape is a tensor with %lld values, but the requested shape "
                          "requires a multiple of %lld",
                          (long long)counted, (long long)product);
      v[unknown] = counted / product;
      if (!has_zero) product *= v[unknown];
    }
    if (has_zero) product = 0;
    if (product != size) {
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                        "Input to reshape is a tensor with %lld values, but the requested shape "
                        "has %lld",
                        (long long)size, (long long)product);
    }
  }
  return mf_infer_output(c, x->dtype, n, v, err);
}

/* Reshape, ExpandDims and Squeeze: the input's elements in the shape
 * infer gave, a view of its buffer. */
static mf_status view_kernel(mf_op_call *c, mf_error *err) {
  return mf_op_view_output(c, 0, c->in[0], err);
}

const mf_op_def mf_op_Reshape = {
    .name = "Reshape", .input_names = "tensor,shape", .min_inputs = 2, .max_inputs = 2,
    .infer = reshape_infer, .kernel = view_kernel, .flags = 0,
    .doc = "The same values in a new shape; one dimension may be -1 (inferred).",
    .tf_attrs = "T:0 Tshape:1",
};

/* ---- ExpandDims, Squeeze: views with size-1 dimensions added or removed ---- */

/* ExpandDims while a graph is built: TF's shape function. */
static mf_status expand_dims_shape_fn(mf_op_call *c, mf_error *err) {
  const mf_spec *x = &c->in_specs[0];
  MF_TRY(mf_infer_check_dtype(c, 1, mf_dtype_is_integer, "int32 or int64", err));
  int64_t dims[MF_MAX_INT_INPUT];
  int n;
  bool known = mf_infer_const_ints(c, 1, dims, MF_MAX_INT_INPUT, &n);
  if (c->in[1] && c->in[1]->size != 1)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "'dim' input must be a tensor with a single value");
  if (!known || x->rank < 0) return mf_infer_output(c, x->dtype, -1, NULL, err);
  int64_t dim = dims[0];
  if (dim < -x->rank - 1 || dim > x->rank)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "dim %lld not in the interval [%d, %d].",
                        (long long)dim, -x->rank - 1, x->rank);
  if (dim < 0) dim += x->rank + 1;
  if (x->rank + 1 > MF_MAX_RANK) return mf_infer_output(c, x->dtype, x->rank + 1, NULL, err);
  int64_t shape[MF_MAX_RANK];
  for (int i = 0, k = 0; i <= x->rank; i++) shape[i] = i == dim ? 1 : x->shape[k++];
  return mf_infer_output(c, x->dtype, x->rank + 1, shape, err);
}

static mf_status expand_dims_infer(mf_op_call *c, mf_error *err) {
  const mf_spec *x = &c->in_specs[0];
  if (c->building) return expand_dims_shape_fn(c, err);
  int64_t dim;
  int n;
  bool known;
  const mf_spec *ds = &c->in_specs[1];
  int64_t count;
  if (mf_spec_is_static(ds) && mf_shape_size(ds->rank, ds->shape, &count, NULL) == MF_OK &&
      count != 1)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "'dim' must be a tensor with a single value");
  MF_TRY(mf_input_ints(c, 1, &dim, 1, &n, &known, err));
  if (x->rank < 0) return mf_infer_output(c, x->dtype, -1, NULL, err);
  if (!known) return mf_infer_output(c, x->dtype, x->rank + 1, NULL, err);
  int64_t d = dim;
  if (!mf_axis_wrap(&d, x->rank + 1))
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "Tried to expand dim index %lld for tensor with %d dimensions.",
                      (long long)dim, x->rank);
  int64_t shape[MF_MAX_RANK + 1];
  for (int i = 0, k = 0; i <= x->rank; i++) shape[i] = i == d ? 1 : x->shape[k++];
  return mf_infer_output(c, x->dtype, x->rank + 1, shape, err);
}

const mf_op_def mf_op_ExpandDims = {
    .name = "ExpandDims", .input_names = "input,dim", .min_inputs = 2, .max_inputs = 2,
    .infer = expand_dims_infer, .kernel = view_kernel, .flags = 0,
    .doc = "Inserts a dimension of size 1 at index dim (negative counts from the end).",
    .tf_attrs = "T:0 Tdim:1",
};

static mf_status squeeze_infer(mf_op_call *c, mf_error *err) {
  const mf_spec *x = &c->in_specs[0];
  const mf_attr *dims = mf_attrs_find(c->attrs, "squeeze_dims");
  int nd = dims ? dims->u.ints.n : 0;
  if (x->rank < 0) return mf_infer_output(c, x->dtype, -1, NULL, err);
  /* While a graph is built TF's shape function checks every index's range
   * first, with its own message (the size checks read as the kernel's). */
  for (int i = 0; c->building && i < nd; i++)
    if (dims->u.ints.v[i] < -x->rank || dims->u.ints.v[i] >= x->rank)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "squeeze_dims[%d] not in [%d,%d).", i,
                          -x->rank, x->rank);
  bool drop[MF_MAX_RANK] = {false};
  for (int i = 0; i < nd; i++) {
    int64_t d = dims->u.ints.v[i];
    if (!mf_axis_wrap(&d, x->rank))
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                        "Tried to squeeze dim index %lld for tensor with %d dimensions.",
                        (long long)dims->u.ints.v[i], x->rank);
    if (x->shape[d] >= 0 && x->shape[d] != 1)
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                        "Can not squeeze dim[%lld], expected a dimension of 1, got %lld",
                        (long long)d, (long long)x->shape[d]);
    drop[d] = true;
  }
  for (int d = 0; nd == 0 && d < x->rank; d++) {
    /* Squeezing "every size-1 dimension" of an unknown one leaves the rank unknown. */
    if (x->shape[d] < 0) return mf_infer_output(c, x->dtype, -1, NULL, err);
    drop[d] = x->shape[d] == 1;
  }
  int64_t shape[MF_MAX_RANK];
  int rank = 0;
  for (int d = 0; d < x->rank; d++)
    if (!drop[d]) shape[rank++] = x->shape[d];
  return mf_infer_output(c, x->dtype, rank, shape, err);
}

const mf_op_def mf_op_Squeeze = {
    .name = "Squeeze", .input_names = "input", .min_inputs = 1, .max_inputs = 1,
    .attrs = {{"squeeze_dims", MF_ATTR_INTS}},
    .infer = squeeze_infer, .kernel = view_kernel, .flags = 0,
    .doc = "Removes size-1 dimensions: those listed in squeeze_dims, or all of them.",
    .tf_attrs = "T:0 squeeze_dims=[]",
};

/* ---- Tile ---- */

static mf_status tile_infer_eager(mf_op_call *c, mf_error *err);

/* Tile while a graph is built: TF's shape function, which reads multiples
 * as a shape (a -1 an unknown dimension, a vector known in part what is
 * known of it; negative multiples are the kernel's to refuse), each
 * dimension the Multiply of the input's and the multiple. */
static mf_status tile_shape_fn(mf_op_call *c, mf_error *err) {
  const mf_spec *x = &c->in_specs[0];
  MF_TRY(mf_infer_check_dtype(c, 1, mf_dtype_is_integer, "int32 or int64", err));
  int64_t m[MF_MAX_INT_INPUT];
  int rank;
  MF_TRY(mf_sf_shape_tensor(c, 1, &rank, m, MF_MAX_INT_INPUT, err));
  if (x->rank >= 0) {
    MF_TRY(mf_sf_with_rank(rank, x->rank, err));
    const mf_spec *ms = &c->in_specs[1];
    int64_t len = ms->rank == 1 ? ms->shape[0] : -1;
    MF_TRY(mf_sf_merge(1, &len, 1, (int64_t[]){x->rank}, err));
    if (rank < 0) {
      rank = x->rank; /* WithRank of an unknown shape: that many unknown dimensions */
      for (int i = 0; i < rank && i < MF_MAX_INT_INPUT; i++) m[i] = -1;
    }
  }
  if (rank < 0) return mf_infer_output(c, x->dtype, -1, NULL, err);
  MF_TRY(mf_sf_with_rank(x->rank, rank, err));
  if (rank > MF_MAX_RANK) return mf_infer_output(c, x->dtype, rank, NULL, err);
  int64_t shape[MF_MAX_RANK];
  for (int i = 0; i < rank; i++)
    MF_TRY(mf_sf_multiply(x->rank >= 0 ? x->shape[i] : -1, m[i], &shape[i], err));
  MF_TRY(mf_infer_output(c, x->dtype, rank, shape, err));
  mf_infer_defer_check(c, tile_infer_eager);
  return MF_OK;
}

static mf_status tile_infer(mf_op_call *c, mf_error *err) {
  return c->building ? tile_shape_fn(c, err) : tile_infer_eager(c, err);
}

static mf_status tile_infer_eager(mf_op_call *c, mf_error *err) {
  const mf_spec *x = &c->in_specs[0];
  int64_t m[MF_MAX_INT_INPUT];
  int n;
  bool known;
  MF_TRY(per_dim_ints(c, m, &n, &known, err));
  if (!known) return MF_OK;
  int64_t shape[MF_MAX_INT_INPUT], elements = 1;
  for (int i = 0; i < n; i++) {
    if (m[i] < 0)
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                        "Expected multiples[%d] >= 0, but got %lld", i, (long long)m[i]);
    int64_t d = x->rank >= 0 ? x->shape[i] : MF_UNKNOWN_DIM;
    if (m[i] == 0 || d == 0)
      shape[i] = 0;
    else if (d < 0)
      shape[i] = MF_UNKNOWN_DIM;
    else if (__builtin_mul_overflow(d, m[i], &shape[i]))
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                        "Tiling dimension %d of size %lld %lld times overflows", i, (long long)d,
                        (long long)m[i]);
    /* TF's TensorShape::AddDimWithStatus: a result whose element count
     * overflows int64 is an InvalidArgumentError, not an allocation
     * failure (shape_ops_test TileTest.testLargeTensor). */
    if (elements >= 0 && shape[i] >= 0) {
      int64_t next;
      if (__builtin_mul_overflow(elements, shape[i], &next))
        return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                          "Encountered overflow when multiplying %lld with %lld, result: -1",
                          (long long)elements, (long long)shape[i]);
      elements = next;
    } else {
      elements = -1;
    }
  }
  return mf_infer_output(c, x->dtype, n, shape, err);
}

static mf_status tile_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *x = c->in[0];
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  int64_t m[MF_MAX_RANK];
  int r;
  mf_infer_const_ints(c, 1, m, MF_MAX_RANK, &r);
  /* Each dimension walks as (repeat, extent): the repeat re-reads the same
   * input (stride 0) and jumps a whole extent in the output. */
  int64_t xs[MF_MAX_RANK], os[MF_MAX_RANK];
  int64_t dims[MF_COPY_MAX_DIMS], dst[MF_COPY_MAX_DIMS], src[MF_COPY_MAX_DIMS];
  mf_strides_of(r, x->shape, xs);
  mf_strides_of(r, out->shape, os);
  for (int i = 0; i < r; i++) {
    dims[2 * i] = m[i];
    dst[2 * i] = x->shape[i] * os[i];
    src[2 * i] = 0;
    dims[2 * i + 1] = x->shape[i];
    dst[2 * i + 1] = os[i];
    src[2 * i + 1] = xs[i];
  }
  return mf_copy_strided(out, 0, dst, x, 0, src, 2 * r, dims, err);
}

const mf_op_def mf_op_Tile = {
    .name = "Tile", .input_names = "input,multiples", .min_inputs = 2, .max_inputs = 2,
    .infer = tile_infer, .kernel = tile_kernel, .flags = 0,
    .doc = "Repeats the input multiples[i] times along each dimension i.",
    .tf_attrs = "T:0 Tmultiples:1",
};

/* ---- Shape, Size, Rank ---- */

extern const mf_op_def mf_op_Shape, mf_op_Size, mf_op_Rank;

/* What Shape, Size or Rank yield for a tensor described by `s` (static for
 * Shape and Size, known rank for Rank), as a new tensor. */
static mf_status describe(const mf_op_call *c, const mf_spec *s, mf_tensor **out,
                          mf_error *err) {
  mf_dtype dt = c->out_specs[0].dtype;
  if (c->op == &mf_op_Rank) return mf_tensor_scalar_i64(MF_INT32, s->rank, out, err);
  if (c->op == &mf_op_Size) {
    int64_t n;
    MF_TRY(mf_shape_size(s->rank, s->shape, &n, err));
    if (dt == MF_INT32 && n > INT32_MAX)
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                        "Number of elements was larger than representable by 32-bit output type");
    return mf_tensor_scalar_i64(dt, n, out, err);
  }
  for (int i = 0; i < s->rank; i++)
    if (dt == MF_INT32 && s->shape[i] > INT32_MAX)
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                        "Shape output type is 32-bit  but dim %d is %lld", i,
                        (long long)s->shape[i]);
  int64_t len = s->rank;
  MF_TRY(mf_tensor_new(dt, 1, &len, out, err));
  for (int i = 0; i < s->rank; i++) mf_tensor_set_i64(*out, i, s->shape[i]);
  return MF_OK;
}

static mf_status describe_infer(mf_op_call *c, mf_error *err) {
  const mf_spec *x = &c->in_specs[0];
  mf_dtype dt = mf_attr_type(c->attrs, "out_type", MF_INT32);
  if (!mf_dtype_is_integer(dt))
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "Value for attr 'out_type' of %s is not in the list of allowed values: "
                      "int32, int64",
                      mf_dtype_name(dt));
  bool known;
  if (c->op == &mf_op_Shape) {
    int64_t len = x->rank;
    MF_TRY(mf_infer_output(c, dt, 1, &len, err));
    known = mf_spec_is_static(x);
  } else {
    MF_TRY(mf_infer_output(c, dt, 0, NULL, err));
    known = c->op == &mf_op_Rank ? x->rank >= 0 : mf_spec_is_static(x);
  }
  return known ? describe(c, x, &c->out_values[0], err) : MF_OK;
}

static mf_status describe_kernel(mf_op_call *c, mf_error *err) {
  mf_spec s;
  mf_spec_of_tensor(c->in[0], &s);
  return describe(c, &s, &c->out[0], err);
}

const mf_op_def mf_op_Shape = {
    .name = "Shape", .input_names = "input", .min_inputs = 1, .max_inputs = 1,
    .attrs = {{"out_type", MF_ATTR_TYPE}},
    .infer = describe_infer, .kernel = describe_kernel, .partial = mf_partial_shape,
    .flags = MF_OP_NO_GRADIENT,
    .doc = "The shape of the input as a 1-D integer tensor (out_type, default int32).",
    .tf_attrs = "T:0 out_type=DT_INT32",
};

const mf_op_def mf_op_Size = {
    .name = "Size", .input_names = "input", .min_inputs = 1, .max_inputs = 1,
    .attrs = {{"out_type", MF_ATTR_TYPE}},
    .infer = describe_infer, .kernel = describe_kernel, .flags = MF_OP_NO_GRADIENT,
    .doc = "The number of elements of the input as an integer scalar.",
    .tf_attrs = "T:0 out_type=DT_INT32",
};

const mf_op_def mf_op_Rank = {
    .name = "Rank", .input_names = "input", .min_inputs = 1, .max_inputs = 1,
    .infer = describe_infer, .kernel = describe_kernel, .flags = MF_OP_NO_GRADIENT,
    .doc = "The number of dimensions of the input as an int32 scalar.",
    .tf_attrs = "T:0",
};

/* ---- BroadcastGradientArgs ---- */

/* TF's BCast rule: an output axis is reduced for an input whose
 * (1-extended) dimension there is 1, including axes where every input is 1.
 * Fills out0/out1 (new references) with int vectors of s0's dtype. */
static mf_status gradient_args(const mf_op_call *c, mf_tensor **out0, mf_tensor **out1,
                               mf_error *err) {
  const mf_tensor *s[2] = {c->in[0], c->in[1]};
  int64_t rank = s[0]->size > s[1]->size ? s[0]->size : s[1]->size;
  /* Both shapes 1-extended to `rank`, one after the other. */
  void *scratch;
  MF_TRY(mf_scratch_alloc(2 * (size_t)rank, sizeof(int64_t), &scratch, err));
  int64_t *dims[2] = {scratch, (int64_t *)scratch + rank}, count[2] = {0, 0};
  for (int k = 0; k < 2; k++)
    for (int64_t j = 0, pad = rank - s[k]->size; j < rank; j++) {
      dims[k][j] = j < pad ? 1 : mf_tensor_get_i64(s[k], j - pad);
      count[k] += dims[k][j] == 1;
    }
  mf_status st = MF_OK;
  for (int64_t j = 0; j < rank && st == MF_OK; j++) {
    int64_t d0 = dims[0][j], d1 = dims[1][j];
    if (d0 != d1 && d0 != 1 && d1 != 1) {
      char text[2][256];
      for (int k = 0; k < 2; k++)
        mf_shape_debug((int)s[k]->size, dims[k] + rank - s[k]->size, text[k], sizeof text[k]);
      st = mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Incompatible shapes: %s vs. %s [Op:BroadcastGradientArgs]", text[0],
                        text[1]);
    }
  }
  mf_tensor *r[2] = {NULL, NULL};
  for (int k = 0; k < 2 && st == MF_OK; k++) {
    st = mf_tensor_new(s[0]->dtype, 1, &count[k], &r[k], err);
    for (int64_t j = 0, n = 0; j < rank && st == MF_OK; j++)
      if (dims[k][j] == 1) mf_tensor_set_i64(r[k], n++, j);
  }
  free(scratch);
  if (st != MF_OK) {
    mf_tensor_release(r[0]);
    mf_tensor_release(r[1]);
    return st;
  }
  *out0 = r[0];
  *out1 = r[1];
  return MF_OK;
}

static mf_status gradient_args_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(mf_infer_same_dtype(c, 0, 2, err));
  MF_TRY(mf_infer_check_dtype(c, 0, mf_dtype_is_integer, "int32 or int64", err));
  for (int k = 0; k < 2; k++)
    if (c->in_specs[k].rank > 1 || c->in_specs[k].rank == 0)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "BroadcastGradientArgs expects shape vectors, got rank %d for input "
                          "#%d(zero-based) [Op:BroadcastGradientArgs]",
                          c->in_specs[k].rank, k);
  MF_TRY(mf_op_call_set_nout(c, 2, err));
  for (int k = 0; k < 2; k++)
    c->out_specs[k] = (mf_spec){.dtype = c->in_specs[0].dtype, .rank = 1, .shape = {-1}};
  /* Known shapes (eager, or static while tracing) give known results, so
   * gradient graphs of static shapes fold to constants. */
  if (!c->in[0] || !c->in[1]) return MF_OK;
  MF_TRY(gradient_args(c, &c->out_values[0], &c->out_values[1], err));
  for (int k = 0; k < 2; k++) c->out_specs[k].shape[0] = c->out_values[k]->size;
  return MF_OK;
}

static mf_status gradient_args_kernel(mf_op_call *c, mf_error *err) {
  if (c->out_values[0] && c->out_values[1]) {
    for (int k = 0; k < 2; k++) {
      mf_tensor_retain(c->out_values[k]);
      c->out[k] = c->out_values[k];
    }
    return MF_OK;
  }
  return gradient_args(c, &c->out[0], &c->out[1], err);
}

const mf_op_def mf_op_BroadcastGradientArgs = {
    .name = "BroadcastGradientArgs", .input_names = "s0,s1", .min_inputs = 2, .max_inputs = 2,
    .infer = gradient_args_infer, .kernel = gradient_args_kernel, .flags = MF_OP_NO_GRADIENT,
    .doc = "The axes to sum a broadcast op's gradient over for each input: (r0, r1).",
    .tf_attrs = "T:0",
};
