/* ops_shape.c — ops that rearrange a tensor or describe its shape:
 * Transpose, Reshape, ConcatV2, Pack, Unpack, ExpandDims, Squeeze, Tile,
 * Pad, BroadcastTo, Shape, Size, Rank, and BroadcastGradientArgs (which
 * axes a broadcast op's gradient sums over). (Ops that make a tensor from a shape
 * or a range live in ops_generate.c.)
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
#include "shape_fn.h"

/* A known dimension merged into `acc` (-1 = unknown so far); false when
 * both are known and differ. */
static bool merge_dim(int64_t *acc, int64_t d) {
  if (d < 0) return true;
  if (*acc < 0) *acc = d;
  return *acc == d;
}



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

/* The element count of a shape as TF's NumElements gives it: 0 when a
 * dimension is 0, else unknown (-1) when one is, else the product (-1 on
 * overflow, where TF's Multiply fails). With `unknown`: the product of the
 * known dimensions, and the index of the one unknown (-1 if none, -2 if
 * more than one), as SetOutputShapeForReshape counts them. */
static int64_t known_elements(int rank, const int64_t *d, int64_t *known, int *unknown) {
  int64_t n = 1, k = 1;
  bool any_unknown = false;
  *unknown = -1;
  for (int i = 0; i < rank; i++) {
    if (d[i] == 0) n = 0;
    if (d[i] < 0) {
      *unknown = *unknown == -1 ? i : -2;
      any_unknown = true;
    } else if (__builtin_mul_overflow(k, d[i], &k)) {
      k = -1;
    }
  }
  *known = k;
  return n == 0 ? 0 : any_unknown ? -1 : k;
}

/* Reshape while a graph is built: TF's SetOutputShapeForReshape. The
 * shape is read as a shape (a -1 is an unknown dimension); only a product
 * that cannot match, or a -1 that cannot divide evenly, fails here. Two
 * -1s and negative sizes are the kernel's to refuse, when the graph runs. */
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
    int64_t out_n = known_elements(rank, out, &out_known, &out_unknown);
    int64_t in_n = known_elements(x->rank, x->shape, &in_known, &in_unknown);
    if (out_n >= 0) out_known = out_n, out_unknown = -1;
    if (in_n >= 0) in_known = in_n, in_unknown = -1;
    if (out_known < 0 || in_known < 0)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "Negative dimension size caused by overflow when multiplying");
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

static mf_status reshape_kernel(mf_op_call *c, mf_error *err) {
  return mf_op_view_output(c, 0, c->in[0], err);
}

const mf_op_def mf_op_Reshape = {
    .name = "Reshape", .input_names = "tensor,shape", .min_inputs = 2, .max_inputs = 2,
    .infer = reshape_infer, .kernel = reshape_kernel, .flags = 0,
    .doc = "The same values in a new shape; one dimension may be -1 (inferred).",
    .tf_attrs = "T:0 Tshape:1",
};

/* ---- ConcatV2 and Pack: inputs joined along an axis of the result ---- */

/* Copies inputs [0, nvals) into the output along `axis`; Pack (`stack`)
 * sees each input with a size-1 dimension inserted there. */
static mf_status join_kernel(mf_op_call *c, int nvals, int axis, bool stack, mf_error *err) {
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  int64_t ostr[MF_MAX_RANK];
  mf_strides_of(out->rank, out->shape, ostr);
  int64_t pos = 0;
  for (int i = 0; i < nvals; i++) {
    const mf_tensor *x = c->in[i];
    int64_t shape[MF_MAX_RANK], xs[MF_MAX_RANK];
    for (int d = 0, k = 0; d < out->rank; d++)
      shape[d] = stack && d == axis ? 1 : x->shape[k++];
    mf_strides_of(out->rank, shape, xs);
    MF_TRY(mf_copy_strided(out, pos * ostr[axis], ostr, x, 0, xs, out->rank, shape, err));
    pos += shape[axis];
  }
  return MF_OK;
}

/* A shape of TF's shape functions: rank -1 unknown, dims -1 unknown. */
typedef struct shp {
  int rank;
  int64_t d[MF_MAX_RANK];
} shp;

/* InferenceContext::Subshape(s, start, end), end INT64_MAX for "to the
 * end"; the callers have checked the rank, so no bound fails. */
static shp subshape(const mf_spec *s, int64_t start, int64_t end) {
  shp o = {.rank = -1};
  if (s->rank < 0) return o;
  if (start > s->rank) start = s->rank;
  if (end > s->rank) end = s->rank;
  if (start < 0) start += s->rank;
  if (end < 0) end += s->rank;
  o.rank = 0;
  for (int64_t i = start; i < end; i++) o.d[o.rank++] = s->shape[i];
  return o;
}

/* Merge(a, *acc) into *acc, with TF's messages. */
static mf_status merge_into(const shp *a, shp *acc, mf_error *err) {
  if (a->rank < 0) return MF_OK;
  if (acc->rank < 0) {
    *acc = *a;
    return MF_OK;
  }
  MF_TRY(mf_sf_merge(a->rank, a->d, acc->rank, acc->d, err));
  for (int i = 0; i < a->rank; i++)
    if (acc->d[i] < 0) acc->d[i] = a->d[i];
  return MF_OK;
}

static mf_status concat_infer_eager(mf_op_call *c, mf_error *err);

/* ConcatV2 while a graph is built: TF's ConcatShapeHelper. Inputs are
 * checked from the last, each against what the later ones made: the
 * dimensions before the axis and after it merged, the axis summed. */
static mf_status concat_shape_fn(mf_op_call *c, mf_error *err) {
  int nv = c->nin - 1;
  const mf_spec *in = c->in_specs;
  MF_TRY(mf_infer_same_dtype(c, 0, nv, err));
  MF_TRY(mf_infer_check_dtype(c, nv, mf_dtype_is_integer, "int32 or int64", err));
  MF_TRY(mf_sf_with_rank(in[nv].rank, 0, err));
  int64_t axis;
  int n;
  if (!mf_infer_const_ints(c, nv, &axis, 1, &n)) {
    int rank = -1;
    for (int i = 0; i < nv && rank < 0; i++) rank = in[i].rank;
    if (rank < 0) return mf_infer_output(c, in[0].dtype, -1, NULL, err);
    if (rank == 0)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "Can't concatenate scalars (use tf.stack instead)");
    for (int i = 0; i < nv; i++) MF_TRY(mf_sf_with_rank(in[i].rank, rank, err));
    return mf_infer_output(c, in[0].dtype, rank, NULL, err);
  }
  int64_t min_rank = axis < 0 ? -axis : axis + 1;
  if (min_rank > INT32_MAX)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Rank cannot exceed kint32max");
  shp before = {.rank = -1}, after = {.rank = -1};
  int64_t middle = 0;
  for (int i = nv - 1; i >= 0; i--) {
    MF_TRY(mf_sf_with_rank_at_least(in[i].rank, min_rank, err));
    shp b = subshape(&in[i], 0, axis);
    shp a = axis == -1 ? (shp){.rank = 0} : subshape(&in[i], axis + 1, INT64_MAX);
    int64_t m = in[i].rank < 0 ? -1 : in[i].shape[axis < 0 ? axis + in[i].rank : axis];
    if (i == nv - 1) {
      before = b, after = a, middle = m;
      continue;
    }
    MF_TRY(merge_into(&b, &before, err));
    if (middle >= 0 && m >= 0 && __builtin_add_overflow(middle, m, &middle))
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "Dimension size overflow from adding %lld and %lld", (long long)middle,
                          (long long)m);
    if (m < 0) middle = -1;
    MF_TRY(merge_into(&a, &after, err));
  }
  if (before.rank < 0 || after.rank < 0 || before.rank + 1 + after.rank > MF_MAX_RANK)
    return mf_infer_output(c, in[0].dtype, -1, NULL, err);
  int64_t shape[MF_MAX_RANK];
  int rank = 0;
  for (int i = 0; i < before.rank; i++) shape[rank++] = before.d[i];
  shape[rank++] = middle;
  for (int i = 0; i < after.rank; i++) shape[rank++] = after.d[i];
  MF_TRY(mf_infer_output(c, in[0].dtype, rank, shape, err));
  mf_infer_defer_check(c, concat_infer_eager);
  return MF_OK;
}

static mf_status concat_infer(mf_op_call *c, mf_error *err) {
  return c->building ? concat_shape_fn(c, err) : concat_infer_eager(c, err);
}

static mf_status concat_infer_eager(mf_op_call *c, mf_error *err) {
  int nv = c->nin - 1;
  const mf_spec *in = c->in_specs;
  MF_TRY(mf_infer_same_dtype(c, 0, nv, err));
  if (in[nv].rank > 0)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "axis tensor should be a scalar integer, but got shape %s",
                      MF_SPEC_TEXT(&in[nv]));
  int64_t axis;
  int n;
  bool known;
  MF_TRY(mf_input_ints(c, nv, &axis, 1, &n, &known, err));
  int ref = -1; /* the first input of known rank: the one others are checked against */
  for (int i = 0; i < nv; i++) {
    if (in[i].rank < 0) continue;
    if (ref < 0) ref = i;
    if (in[i].rank != in[ref].rank)
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                        "ConcatOp : Ranks of all input tensors should match: shape[%d] = %s vs. "
                        "shape[%d] = %s",
                        ref, MF_SPEC_TEXT(&in[ref]), i, MF_SPEC_TEXT(&in[i]));
  }
  if (ref < 0) return mf_infer_output(c, in[0].dtype, -1, NULL, err);
  int rank = in[ref].rank;
  if (rank == 0)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "Can't concatenate scalars (use tf.stack instead)");
  if (!known) return mf_infer_output(c, in[0].dtype, rank, NULL, err);
  int64_t a = axis;
  if (!mf_axis_wrap(&a, rank))
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "ConcatOp : Expected concatenating dimensions in the range [%d, %d), but "
                      "got %lld",
                      -rank, rank, (long long)axis);
  int64_t shape[MF_MAX_RANK];
  for (int d = 0; d < rank; d++) shape[d] = MF_UNKNOWN_DIM;
  shape[a] = 0;
  for (int i = 0; i < nv; i++) {
    if (in[i].rank < 0) {
      shape[a] = MF_UNKNOWN_DIM;
      continue;
    }
    for (int d = 0; d < rank; d++) {
      if (d == a) continue;
      if (!merge_dim(&shape[d], in[i].shape[d]))
        return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                          "ConcatOp : Dimension %d in both shapes must be equal: shape[%d] = %s "
                          "vs. shape[%d] = %s",
                          d, ref, MF_SPEC_TEXT(&in[ref]), i, MF_SPEC_TEXT(&in[i]));
    }
    int64_t e = in[i].shape[a];
    if (shape[a] >= 0 && (e < 0 || __builtin_add_overflow(shape[a], e, &shape[a])))
      shape[a] = MF_UNKNOWN_DIM;
  }
  return mf_infer_output(c, in[0].dtype, rank, shape, err);
}

static mf_status concat_kernel(mf_op_call *c, mf_error *err) {
  int nv = c->nin - 1;
  int64_t axis = mf_tensor_get_i64(c->in[nv], 0);
  mf_axis_wrap(&axis, c->out_specs[0].rank);
  return join_kernel(c, nv, (int)axis, false, err);
}

const mf_op_def mf_op_ConcatV2 = {
    .name = "ConcatV2", .input_names = "values*,axis", .min_inputs = 2, .max_inputs = -1,
    .infer = concat_infer, .kernel = concat_kernel, .flags = 0,
    .doc = "Joins the values (all but the last input) along the axis given last.",
    .tf_attrs = "N:#-1 T:0 Tidx:-1",
};

/* Pack while a graph is built: TF's shape function, which merges the
 * inputs' shapes from the last, saying which input failed. */
static mf_status pack_shape_fn(mf_op_call *c, mf_error *err) {
  const mf_spec *in = c->in_specs;
  MF_TRY(mf_infer_same_dtype(c, 0, c->nin, err));
  shp cur = {.rank = in[c->nin - 1].rank};
  memcpy(cur.d, in[c->nin - 1].shape, sizeof cur.d);
  for (int i = c->nin - 2; i >= 0; i--) {
    shp s = {.rank = in[i].rank};
    memcpy(s.d, in[i].shape, sizeof s.d);
    if (merge_into(&s, &cur, err) != MF_OK) {
      /* TF_RETURN_WITH_CONTEXT_IF_ERROR: the context on a new line */
      size_t len = strlen(err->message);
      snprintf(err->message + len, sizeof err->message - len,
               "\n\tFrom merging shape %d with other shapes.", i);
      return err->status;
    }
  }
  if (cur.rank < 0) return mf_infer_output(c, in[0].dtype, -1, NULL, err);
  int rank = cur.rank + 1;
  int64_t axis = mf_attr_int(c->attrs, "axis", 0), a = axis;
  if (!mf_axis_wrap(&a, rank))
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Invalid axis: %lld; must be in [%d,%d)",
                        (long long)axis, -rank, rank);
  if (rank > MF_MAX_RANK) return mf_infer_output(c, in[0].dtype, rank, NULL, err);
  int64_t shape[MF_MAX_RANK];
  for (int d = 0, k = 0; d < rank; d++) shape[d] = d == a ? c->nin : cur.d[k++];
  return mf_infer_output(c, in[0].dtype, rank, shape, err);
}

static mf_status pack_infer(mf_op_call *c, mf_error *err) {
  const mf_spec *in = c->in_specs;
  if (c->building) return pack_shape_fn(c, err);
  MF_TRY(mf_infer_same_dtype(c, 0, c->nin, err));
  int ref = -1;
  int64_t shape[MF_MAX_RANK + 1];
  for (int i = 0; i < c->nin; i++) {
    if (in[i].rank < 0) continue;
    bool same = ref < 0 || in[i].rank == in[ref].rank;
    if (ref < 0) {
      ref = i;
      for (int d = 0; d < in[i].rank; d++) shape[d] = MF_UNKNOWN_DIM;
    }
    for (int d = 0; same && d < in[i].rank; d++) same = merge_dim(&shape[d], in[i].shape[d]);
    if (!same)
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                        "Shapes of all inputs must match: values[%d].shape = %s != "
                        "values[%d].shape = %s",
                        ref, MF_SPEC_TEXT(&in[ref]), i, MF_SPEC_TEXT(&in[i]));
  }
  if (ref < 0) return mf_infer_output(c, in[0].dtype, -1, NULL, err);
  int rank = in[ref].rank + 1;
  int64_t axis = mf_attr_int(c->attrs, "axis", 0), a = axis;
  if (!mf_axis_wrap(&a, rank))
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "axis = %lld not in [%d, %d)",
                      (long long)axis, -rank, rank);
  memmove(&shape[a + 1], &shape[a], (size_t)(rank - 1 - a) * sizeof *shape);
  shape[a] = c->nin;
  return mf_infer_output(c, in[0].dtype, rank, shape, err);
}

static mf_status pack_kernel(mf_op_call *c, mf_error *err) {
  int64_t axis = mf_attr_int(c->attrs, "axis", 0);
  mf_axis_wrap(&axis, c->out_specs[0].rank);
  return join_kernel(c, c->nin, (int)axis, true, err);
}

const mf_op_def mf_op_Pack = {
    .name = "Pack", .input_names = "values*", .min_inputs = 1, .max_inputs = -1,
    .attrs = {{"axis", MF_ATTR_INT}},
    .infer = pack_infer, .kernel = pack_kernel, .flags = 0,
    .doc = "Stacks same-shaped tensors along a new axis (tf.stack).",
    .tf_attrs = "N:# T:0 axis=0",
};

/* ---- Unpack ---- */

static mf_status unpack_infer(mf_op_call *c, mf_error *err) {
  const mf_spec *x = &c->in_specs[0];
  int64_t num = mf_attr_int(c->attrs, "num", -1);
  int64_t axis = mf_attr_int(c->attrs, "axis", 0), a = axis;
  if (x->rank >= 0 && !mf_axis_wrap(&a, x->rank))
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "axis = %lld not in [%d, %d)",
                      (long long)axis, -x->rank, x->rank);
  int64_t dim = x->rank >= 0 ? x->shape[a] : MF_UNKNOWN_DIM;
  if (num >= 0 && dim >= 0 && num != dim)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "Input shape axis %lld must equal %lld, got shape %s", (long long)a,
                      (long long)num, MF_SPEC_TEXT(x));
  if (num < 0) num = dim;
  if (num < 0) {
    char buf[160];
    mf_spec_format(x, buf, sizeof buf);
    return mf_error_set(err, MF_ERR_VALUE, "Cannot infer argument `num` from shape %s", buf);
  }
  if (num > INT32_MAX)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "cannot unstack into %lld outputs",
                      (long long)num);
  MF_TRY(mf_op_call_set_nout(c, (int)num, err));
  for (int i = 0; i < (int)num; i++) {
    mf_spec *o = &c->out_specs[i];
    *o = (mf_spec){.dtype = x->dtype, .rank = x->rank < 0 ? -1 : x->rank - 1};
    for (int d = 0, k = 0; d < x->rank; d++)
      if (d != a) o->shape[k++] = x->shape[d];
  }
  return MF_OK;
}

static mf_status unpack_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *x = c->in[0];
  int64_t a = mf_attr_int(c->attrs, "axis", 0);
  mf_axis_wrap(&a, x->rank);
  int64_t xs[MF_MAX_RANK], walk[MF_MAX_RANK];
  mf_strides_of(x->rank, x->shape, xs);
  for (int d = 0, k = 0; d < x->rank; d++)
    if (d != a) walk[k++] = xs[d];
  for (int i = 0; i < c->nout; i++) {
    const mf_spec *o = &c->out_specs[i];
    MF_TRY(mf_tensor_region(x, i * xs[a], o->rank, o->shape, walk, o->rank, o->shape, &c->out[i],
                            err));
  }
  return MF_OK;
}

const mf_op_def mf_op_Unpack = {
    .name = "Unpack", .input_names = "value", .min_inputs = 1, .max_inputs = 1,
    .attrs = {{"num", MF_ATTR_INT}, {"axis", MF_ATTR_INT}},
    .infer = unpack_infer, .kernel = unpack_kernel, .flags = 0,
    .doc = "Splits a tensor along an axis into num tensors of one rank less (tf.unstack).",
    .tf_attrs = "T:0 axis=0 num",
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

static mf_status view_kernel(mf_op_call *c, mf_error *err) {
  return mf_op_view_output(c, 0, c->in[0], err);
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
 * as a shape (a -1 an unknown dimension; negative multiples are the
 * kernel's to refuse). */
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
  for (int i = 0; i < rank; i++) {
    int64_t d = x->rank >= 0 ? x->shape[i] : -1;
    shape[i] = d == 0 || m[i] == 0 ? 0 : d < 0 || m[i] < 0 ? -1 : d * m[i];
    if (d > 0 && m[i] > 0 && __builtin_mul_overflow(d, m[i], &shape[i]))
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "Negative dimension size caused by overflow when multiplying %lld and "
                          "%lld",
                          (long long)d, (long long)m[i]);
  }
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

/* ---- Pad ---- */

static mf_status pad_infer(mf_op_call *c, mf_error *err) {
  const mf_spec *x = &c->in_specs[0], *p = &c->in_specs[1];
  if (c->nin == 3) {
    if (c->in_specs[2].dtype != x->dtype)
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                        "cannot compute Pad as input #2(zero-based) was expected to be a %s "
                        "tensor but is a %s tensor",
                        mf_dtype_name(x->dtype), mf_dtype_name(c->in_specs[2].dtype));
    if (c->in_specs[2].rank > 0)
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                        "constant_values must be a scalar. Shape of constant_values is %s",
                        MF_SPEC_TEXT(&c->in_specs[2]));
  }
  int64_t v[MF_MAX_INT_INPUT];
  int n;
  bool known;
  MF_TRY(mf_input_ints(c, 1, v, MF_MAX_INT_INPUT, &n, &known, err));
  if ((p->rank >= 0 && p->rank != 2) || (p->rank == 2 && p->shape[1] >= 0 && p->shape[1] != 2))
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "paddings must be a matrix with 2 columns: %s", MF_SPEC_TEXT(p));
  if (x->rank >= 0 && p->rank == 2 && p->shape[0] >= 0 && p->shape[0] != x->rank)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "The first dimension of paddings must be the rank of inputs%s, %s",
                      MF_SPEC_TEXT(p), MF_SPEC_TEXT(x));
  int rank = x->rank >= 0                            ? x->rank
             : p->rank == 2 && p->shape[0] >= 0 && p->shape[0] <= INT32_MAX ? (int)p->shape[0]
                                                                           : -1;
  if (!known || rank > MF_MAX_RANK) return mf_infer_output(c, x->dtype, rank, NULL, err);
  if (n != 2 * rank)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "paddings must be a matrix with 2 columns: %s", MF_SPEC_TEXT(p));
  int64_t shape[MF_MAX_RANK];
  for (int i = 0; i < rank; i++) {
    int64_t lo = v[2 * i], hi = v[2 * i + 1], d = x->rank >= 0 ? x->shape[i] : MF_UNKNOWN_DIM;
    if (lo < 0 || hi < 0)
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "Paddings must be non-negative: %lld %lld",
                        (long long)lo, (long long)hi);
    if (d < 0)
      shape[i] = MF_UNKNOWN_DIM;
    else if (__builtin_add_overflow(d, lo, &shape[i]) ||
             __builtin_add_overflow(shape[i], hi, &shape[i]))
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "padded dimension %d overflows", i);
  }
  return mf_infer_output(c, x->dtype, rank, shape, err);
}

static mf_status pad_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *x = c->in[0];
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  int64_t v[2 * MF_MAX_RANK], os[MF_MAX_RANK], xs[MF_MAX_RANK], off = 0;
  int n;
  mf_infer_const_ints(c, 1, v, 2 * MF_MAX_RANK, &n);
  mf_strides_of(out->rank, out->shape, os);
  mf_strides_of(x->rank, x->shape, xs);
  for (int i = 0; i < x->rank; i++) off += v[2 * i] * os[i];
  mf_tensor *zero = NULL;
  const mf_tensor *fill = c->nin == 3 ? c->in[2] : NULL;
  if (!fill) {
    MF_TRY(mf_small_scalar(x->dtype, 0, &zero, err));
    fill = zero;
  }
  mf_status st = mf_tensor_fill(out, 0, out->size, fill, err);
  mf_tensor_release(zero);
  MF_TRY(st);
  return mf_copy_strided(out, off, os, x, 0, xs, x->rank, x->shape, err);
}

const mf_op_def mf_op_Pad = {
    .name = "Pad", .input_names = "input,paddings,constant_values", .min_inputs = 2,
    .max_inputs = 3,
    .infer = pad_infer, .kernel = pad_kernel, .flags = 0,
    .doc = "Pads each dimension i with paddings[i][0] values before and paddings[i][1] after "
           "(constant_values, default zero).",
    .tf_attrs = "T:0 Tpaddings:1",
};

/* ---- BroadcastTo ---- */

static mf_status broadcast_to_infer_eager(mf_op_call *c, mf_error *err);

/* BroadcastTo while a graph is built: TF's shape function, which merges
 * each input dimension above 1 with the target's, from the last; what it
 * cannot see (an unknown input dimension) is the kernel's to refuse. */
static mf_status broadcast_to_shape_fn(mf_op_call *c, mf_error *err) {
  const mf_spec *x = &c->in_specs[0];
  MF_TRY(mf_infer_check_dtype(c, 1, mf_dtype_is_integer, "int32 or int64", err));
  int64_t out[MF_MAX_INT_INPUT];
  int rank;
  MF_TRY(mf_sf_shape_tensor(c, 1, &rank, out, MF_MAX_INT_INPUT, err));
  if (rank >= 0 && x->rank >= 0) {
    MF_TRY(mf_sf_with_rank_at_most(x->rank, rank, err));
    for (int i = 0; i < x->rank; i++) {
      int64_t in = x->shape[x->rank - 1 - i];
      if (in > 1) MF_TRY(mf_sf_merge_dim(in, out[rank - 1 - i], &out[rank - 1 - i], err));
    }
  }
  if (rank > MF_MAX_RANK) return mf_infer_output(c, x->dtype, rank, NULL, err);
  MF_TRY(mf_infer_output(c, x->dtype, rank, rank >= 0 ? out : NULL, err));
  mf_infer_defer_check(c, broadcast_to_infer_eager);
  return MF_OK;
}

static mf_status broadcast_to_infer(mf_op_call *c, mf_error *err) {
  return c->building ? broadcast_to_shape_fn(c, err) : broadcast_to_infer_eager(c, err);
}

static mf_status broadcast_to_infer_eager(mf_op_call *c, mf_error *err) {
  const mf_spec *x = &c->in_specs[0];
  int64_t v[MF_MAX_INT_INPUT];
  int n;
  bool known;
  MF_TRY(mf_input_shape_ints(c, 1, v, MF_MAX_INT_INPUT, &n, &known, err));
  MF_TRY(check_vector(c, 1, "shape", err));
  if (!known) return mf_infer_output(c, x->dtype, mf_input_vector_length(c, 1), NULL, err);
  for (int i = 0; i < n; i++)
    if (v[i] < 0)
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "Dimension %lld must be >= 0",
                        (long long)v[i]);
  bool fits = x->rank <= n, compatible = true;
  for (int i = 0; x->rank >= 0 && i < x->rank; i++) {
    int64_t a = x->shape[x->rank - 1 - i], b = i < n ? v[n - 1 - i] : 1;
    if (a < 0 || a == b || a == 1) continue;
    fits = false;
    if (b != 1) compatible = false;
  }
  if (x->rank >= 0 && !compatible)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "Incompatible shapes: %s vs. %s",
                      MF_SPEC_TEXT(x), mf_shape_text_of(n, v).s);
  if (x->rank >= 0 && !fits)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "Unable to broadcast tensor of shape %s to tensor of shape %s",
                      MF_SPEC_TEXT(x), mf_shape_text_of(n, v).s);
  return mf_infer_output(c, x->dtype, n, v, err);
}

static mf_status broadcast_to_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *x = c->in[0];
  const mf_spec *o = &c->out_specs[0];
  int64_t xs[MF_MAX_RANK], walk[MF_MAX_RANK];
  mf_strides_of(x->rank, x->shape, xs);
  for (int d = 0; d < o->rank; d++) {
    int i = d - (o->rank - x->rank);
    walk[d] = i < 0 || x->shape[i] == 1 ? 0 : xs[i];
  }
  return mf_tensor_region(x, 0, o->rank, o->shape, walk, o->rank, o->shape, &c->out[0], err);
}

const mf_op_def mf_op_BroadcastTo = {
    .name = "BroadcastTo", .input_names = "input,shape", .min_inputs = 2, .max_inputs = 2,
    .infer = broadcast_to_infer, .kernel = broadcast_to_kernel, .flags = 0,
    .doc = "Broadcasts the input to the given shape (NumPy rules).",
    .tf_attrs = "T:0 Tidx:1",
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
    .infer = describe_infer, .kernel = describe_kernel, .flags = MF_OP_NO_GRADIENT,
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
