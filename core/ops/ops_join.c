/* ops_join.c — ops that join tensors along an axis or take one apart:
 * ConcatV2, Pack (tf.stack) and Unpack (tf.unstack).
 *
 * As in ops_shape.c, the axis of ConcatV2 is an input tensor: infer
 * computes a static result shape when its value is known, and while a
 * graph is built it is TF's shape function. The three are also what TF's
 * shape inference reads through when a shape argument is built of parts
 * (partial.h): ConcatV2 and Pack pass on what is known of their elements,
 * and Unpack of a tf.shape gives its known dimensions as constants. */
#include <stdio.h>
#include <string.h>

#include "array_util.h"
#include "op.h"
#include "partial.h"
#include "shape_fn.h"

/* A known dimension merged into `acc` (-1 = unknown so far); false when
 * both are known and differ. */
static bool merge_dim(int64_t *acc, int64_t d) {
  if (d < 0) return true;
  if (*acc < 0) *acc = d;
  return *acc == d;
}

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
    .infer = concat_infer, .kernel = concat_kernel, .partial = mf_partial_concat, .flags = 0,
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
    .infer = pack_infer, .kernel = pack_kernel, .partial = mf_partial_pack, .flags = 0,
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
    .infer = unpack_infer, .kernel = unpack_kernel, .partial = mf_partial_unpack, .flags = 0,
    .doc = "Splits a tensor along an axis into num tensors of one rank less (tf.unstack).",
    .tf_attrs = "T:0 axis=0 num",
};
