/* ops_index.c — ops that select or scatter elements by position: Slice,
 * StridedSlice, GatherV2, Where, OneHot, UnsortedSegmentSum (the gradient
 * of a gather).
 *
 * Positions are 0-based and negative ones count from the end where TF
 * allows them. Slices reduce to one (offset, strides, shape) walk over the
 * input, so contiguous slices (x[i], leading-axis ranges) are views and the
 * rest go through mf_copy_strided; gathers copy one contiguous block per
 * index. Bounds are checked before anything is written, with TF's
 * messages. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array_util.h"
#include "op.h"
#include "partial.h"
#include "shape_fn.h"

/* ---- Slice ---- */

static mf_status slice_infer_eager(mf_op_call *c, mf_error *err);

/* Slice while a graph is built: TF's SliceShape. It reads begin as a
 * shape (a -1 is unknown, a vector known in part gives what is known of
 * it) and takes the sizes as given, or when not all are known as a shape
 * too (a -1 among those is an unknown dimension): a slice past the end is
 * the kernel's to refuse, when the graph runs. */
static mf_status slice_shape_fn(mf_op_call *c, mf_error *err) {
  const mf_spec *x = &c->in_specs[0], *sb = &c->in_specs[1], *ss = &c->in_specs[2];
  MF_TRY(mf_infer_same_dtype(c, 1, 3, err));
  MF_TRY(mf_infer_check_dtype(c, 1, mf_dtype_is_integer, "int32 or int64", err));
  MF_TRY(mf_sf_with_rank(sb->rank, 1, err));
  MF_TRY(mf_sf_with_rank(ss->rank, 1, err));
  MF_TRY(mf_sf_merge(sb->rank, sb->shape, ss->rank, ss->shape, err));
  int64_t ndims = sb->rank == 1 && sb->shape[0] >= 0 ? sb->shape[0] : ss->rank == 1 ? ss->shape[0] : -1;
  if (ndims >= 0) MF_TRY(mf_sf_with_rank(x->rank, ndims, err));
  /* WithRank gives an input of unknown rank that rank */
  int xrank = x->rank >= 0 || ndims < 0 || ndims > MF_MAX_INT_INPUT ? x->rank : (int)ndims;
  int64_t b[MF_MAX_INT_INPUT], s[MF_MAX_INT_INPUT];
  int nb, ns;
  MF_TRY(mf_sf_shape_tensor(c, 1, &nb, b, MF_MAX_INT_INPUT, err));
  int64_t shape[MF_MAX_INT_INPUT];
  int rank;
  if (mf_infer_const_ints(c, 2, s, MF_MAX_INT_INPUT, &ns)) {
    MF_TRY(mf_sf_with_rank(nb, ns, err));
    for (int d = 0; d < ns; d++) {
      int64_t dim = x->rank > d ? x->shape[d] : -1, begin = nb > d ? b[d] : -1;
      if (s[d] < -1)
        return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                            "Out of bounds slicing on dimension %d of length %lld: sizes vector "
                            "cannot be < -1, but was %lld",
                            d, (long long)dim, (long long)s[d]);
      if (s[d] != -1) {
        shape[d] = s[d];
      } else if (dim < 0 || begin < 0) {
        shape[d] = -1;
      } else if (dim < begin) {
        return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                            "Negative dimension size caused by subtracting %lld from %lld",
                            (long long)begin, (long long)dim);
      } else {
        shape[d] = dim - begin;
      }
    }
    rank = ns;
  } else {
    /* Sizes not known: what MakeShapeFromShapeTensor makes of them (a -1
     * an unknown dimension), else the input's rank. */
    MF_TRY(mf_sf_shape_tensor(c, 2, &rank, shape, MF_MAX_INT_INPUT, err));
    if (rank >= 0) {
      MF_TRY(mf_sf_with_rank(nb, rank, err));
    } else {
      rank = xrank;
      for (int d = 0; d < rank && d < MF_MAX_INT_INPUT; d++) shape[d] = -1;
    }
  }
  if (rank > MF_MAX_RANK) return mf_infer_output(c, x->dtype, rank, NULL, err);
  MF_TRY(mf_infer_output(c, x->dtype, rank, rank >= 0 ? shape : NULL, err));
  mf_infer_defer_check(c, slice_infer_eager);
  return MF_OK;
}

static mf_status slice_infer(mf_op_call *c, mf_error *err) {
  return c->building ? slice_shape_fn(c, err) : slice_infer_eager(c, err);
}

static mf_status slice_infer_eager(mf_op_call *c, mf_error *err) {
  const mf_spec *x = &c->in_specs[0], *sb = &c->in_specs[1], *ss = &c->in_specs[2];
  int64_t b[MF_MAX_INT_INPUT], s[MF_MAX_INT_INPUT];
  int nb, ns;
  bool kb, ks;
  MF_TRY(mf_infer_same_dtype(c, 1, 3, err));
  MF_TRY(mf_input_ints(c, 1, b, MF_MAX_INT_INPUT, &nb, &kb, err));
  MF_TRY(mf_input_ints(c, 2, s, MF_MAX_INT_INPUT, &ns, &ks, err));
  int64_t lb = sb->rank == 1 ? sb->shape[0] : -1, ls = ss->rank == 1 ? ss->shape[0] : -1;
  if ((sb->rank >= 0 && sb->rank != 1) || (ss->rank >= 0 && ss->rank != 1) ||
      (lb >= 0 && ls >= 0 && lb != ls) || (x->rank >= 0 && lb >= 0 && lb != x->rank) ||
      (x->rank >= 0 && ls >= 0 && ls != x->rank))
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "Expected begin and size arguments to be 1-D tensors of size %d, but got "
                      "shapes %s and %s instead.",
                      x->rank, MF_SPEC_TEXT(sb), MF_SPEC_TEXT(ss));
  int64_t rank = x->rank >= 0 ? x->rank : lb >= 0 ? lb : ls;
  if (rank < 0 || rank > MF_MAX_RANK)
    return mf_infer_output(c, x->dtype, rank > INT32_MAX ? INT32_MAX : (int)rank, NULL, err);
  int64_t shape[MF_MAX_RANK];
  for (int d = 0; d < rank; d++) {
    int64_t dim = x->rank >= 0 ? x->shape[d] : MF_UNKNOWN_DIM;
    if (kb && (b[d] < 0 || (dim >= 0 && b[d] > dim)))
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "Expected begin[%d] in [0, %lld], but got %lld",
                        d, (long long)dim, (long long)b[d]);
    shape[d] = MF_UNKNOWN_DIM;
    if (ks && s[d] != -1)
      shape[d] = s[d];
    else if (ks && kb && dim >= 0)
      shape[d] = dim - b[d];
    if (ks && (s[d] < -1 || (kb && dim >= 0 && shape[d] > dim - b[d])))
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "Expected size[%d] in [0, %lld], but got %lld",
                        d, (long long)(kb && dim >= 0 ? dim - b[d] : dim), (long long)s[d]);
  }
  return mf_infer_output(c, x->dtype, (int)rank, shape, err);
}

static mf_status slice_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *x = c->in[0];
  const mf_spec *o = &c->out_specs[0];
  int64_t b[MF_MAX_RANK], xs[MF_MAX_RANK], off = 0;
  int n;
  mf_infer_const_ints(c, 1, b, MF_MAX_RANK, &n);
  mf_strides_of(x->rank, x->shape, xs);
  for (int d = 0; d < x->rank; d++) off += b[d] * xs[d];
  return mf_tensor_region(x, off, o->rank, o->shape, xs, o->rank, o->shape, &c->out[0], err);
}

const mf_op_def mf_op_Slice = {
    .name = "Slice", .input_names = "input,begin,size", .min_inputs = 3, .max_inputs = 3,
    .infer = slice_infer, .kernel = slice_kernel, .flags = 0,
    .doc = "The block of the input starting at begin with extent size (-1: to the end).",
    .tf_attrs = "Index:1 T:0",
};

/* ---- StridedSlice ---- */

/* TF's ValidateStridedSliceOp, written once for inference and the kernel:
 * the sparse spec (begin/end/strides with ellipsis, new-axis and shrink
 * masks) expanded to one (begin, stride, size) per input dimension — the
 * walk — plus the final shape that adds new axes and drops shrunk ones. */
typedef struct ss_plan {
  int64_t begin[MF_MAX_RANK], stride[MF_MAX_RANK], size[MF_MAX_RANK];
  int final_rank;
  int64_t final_shape[2 * MF_MAX_INT_INPUT];
} ss_plan;

enum { SS_SHRINK = -1, SS_NEW_AXIS = -2 };

/* The sparse spec as given: begin, end and strides (known or not) and
 * the masks. */
typedef struct ss_spec {
  int64_t b[MF_MAX_INT_INPUT], e[MF_MAX_INT_INPUT], s[MF_MAX_INT_INPUT];
  int n; /* entries (strides') */
  bool kb, ke, ks;
  uint64_t begin_mask, end_mask, ellipsis, new_axis, shrink;
} ss_spec;

/* Reads the spec and makes TF's checks of it: begin, end and strides one
 * dtype, 1-D and of equal length; at most one ellipsis. */
static mf_status ss_spec_read(mf_op_call *c, ss_spec *q, mf_error *err) {
  int nb, ne;
  MF_TRY(mf_infer_same_dtype(c, 1, 4, err));
  MF_TRY(mf_input_ints(c, 1, q->b, MF_MAX_INT_INPUT - 1, &nb, &q->kb, err));
  MF_TRY(mf_input_ints(c, 2, q->e, MF_MAX_INT_INPUT - 1, &ne, &q->ke, err));
  MF_TRY(mf_input_ints(c, 3, q->s, MF_MAX_INT_INPUT - 1, &q->n, &q->ks, err));
  const mf_spec *sp = &c->in_specs[1];
  bool bad = false;
  for (int i = 1; i <= 3; i++) {
    if (sp[i - 1].rank >= 0 && sp[i - 1].rank != 1) bad = true;
    for (int j = 1; j <= 3; j++)
      if (sp[i - 1].rank == 1 && sp[j - 1].rank == 1 && sp[i - 1].shape[0] >= 0 &&
          sp[j - 1].shape[0] >= 0 && sp[i - 1].shape[0] != sp[j - 1].shape[0])
        bad = true;
  }
  if (bad)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "Expected begin, end, and strides to be 1D equal size tensors, but got "
                      "shapes %s, %s, and %s instead.",
                      MF_SPEC_TEXT(&sp[0]), MF_SPEC_TEXT(&sp[1]), MF_SPEC_TEXT(&sp[2]));
  q->begin_mask = (uint64_t)mf_attr_int(c->attrs, "begin_mask", 0);
  q->end_mask = (uint64_t)mf_attr_int(c->attrs, "end_mask", 0);
  q->ellipsis = (uint64_t)mf_attr_int(c->attrs, "ellipsis_mask", 0);
  q->new_axis = (uint64_t)mf_attr_int(c->attrs, "new_axis_mask", 0);
  q->shrink = (uint64_t)mf_attr_int(c->attrs, "shrink_axis_mask", 0);
  if (q->ellipsis & (q->ellipsis - 1))
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "Multiple ellipses in slice spec not allowed");
  return MF_OK;
}

/* The spec made dense: one (begin, end, stride) and mask bits per input
 * dimension, and where each dimension of the final shape comes from
 * (gather: an input dimension, SS_NEW_AXIS or SS_SHRINK). */
typedef struct ss_dense {
  int64_t begin[MF_MAX_RANK], end[MF_MAX_RANK], stride[MF_MAX_RANK];
  uint32_t begin_mask, end_mask, shrink;
  int gather[2 * MF_MAX_INT_INPUT];
  int ngather;
} ss_dense;

static mf_status ss_dense_make(mf_op_call *c, const ss_spec *q, int dims, ss_dense *d,
                               mf_error *err) {
  /* An ellipsis is implied at the end when none is given. */
  uint64_t ellipsis = q->ellipsis;
  int sparse = q->n, after_ellipsis = 0, full = 0;
  bool seen = false;
  for (int i = 0; i < sparse; i++) {
    if (seen && (q->new_axis >> i & 1)) after_ellipsis++;
    if (ellipsis >> i & 1) seen = true;
  }
  if (!seen) ellipsis |= (uint64_t)1 << sparse++;
  memset(d, 0, sizeof *d);
  for (int i = 0; i < sparse; i++) {
    if (ellipsis >> i & 1) {
      int next = dims - (sparse - i) + 1 + after_ellipsis;
      if (next > dims) next = dims;
      for (; full < next; full++) {
        d->stride[full] = 1;
        d->begin_mask |= 1u << full;
        d->end_mask |= 1u << full;
        d->gather[d->ngather++] = full;
      }
    } else if (q->new_axis >> i & 1) {
      d->gather[d->ngather++] = SS_NEW_AXIS;
    } else {
      /* TF names the scalar case apart: x[0] or x[:] of a scalar. */
      if (full == dims && dims == 0)
        return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "Attempting to slice scalar input.");
      if (full == dims)
        return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                          "Index out of range using input dim %d; input has only %d dims", full,
                          dims);
      d->begin[full] = q->kb ? q->b[i] : 0;
      d->end[full] = q->ke ? q->e[i] : 0;
      d->stride[full] = q->s[i];
      if (q->begin_mask >> i & 1) d->begin_mask |= 1u << full;
      if (q->end_mask >> i & 1) d->end_mask |= 1u << full;
      if (q->shrink >> i & 1) {
        d->gather[d->ngather++] = SS_SHRINK;
        d->shrink |= 1u << full;
      } else {
        d->gather[d->ngather++] = full;
      }
      full++;
    }
  }
  return MF_OK;
}

/* Dimension i of the walk: canonical bounds (kb, ke: begin's and end's
 * values known) and the size walked. */
static mf_status ss_dim_walk(mf_op_call *c, const ss_dense *d, bool kb, bool ke, int i, int64_t dim,
                             ss_plan *p, mf_error *err) {
  int64_t stride = d->stride[i], begin = d->begin[i], end = d->end[i];
  bool shrink_i = d->shrink >> i & 1;
  if (stride == 0)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "strides[%d] must be non-zero", i);
  p->stride[i] = stride;
  p->begin[i] = 0;
  if (dim < 0) {
    p->size[i] = shrink_i ? 1 : MF_UNKNOWN_DIM;
    return MF_OK;
  }
  if (shrink_i && stride <= 0)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "only stride 1 allowed on non-range indexing.");
  bool masked[2] = {d->begin_mask >> i & 1, d->end_mask >> i & 1};
  int64_t lo = stride > 0 ? 0 : -1, hi = stride > 0 ? dim : dim - 1;
  int64_t *bound[2] = {&begin, &end};
  if (kb && ke) {
    if (shrink_i) {
      begin = begin < 0 ? dim + begin : begin;
      end = begin + 1;
      if (begin < 0 || begin >= dim)
        return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                          "slice index %lld of dimension %d out of bounds.", (long long)begin, i);
    } else {
      /* A masked bound is the far end in the walk's direction; a given
       * one counts from the end when negative and is clamped. */
      for (int k = 0; k < 2; k++) {
        int64_t v = *bound[k];
        if (masked[k])
          v = stride > 0 ? (k ? hi : lo) : (k ? lo : hi);
        else {
          v = v < 0 ? dim + v : v;
          v = v < lo ? lo : v > hi ? hi : v;
        }
        *bound[k] = v;
      }
    }
  }
  int64_t len;
  bool known_len = true;
  if (kb && ke)
    len = end - begin;
  else if (shrink_i)
    len = 1;
  else if (masked[0] && masked[1])
    len = stride < 0 ? -dim : dim;
  else
    known_len = false, len = 0;
  p->begin[i] = begin;
  if (!known_len)
    p->size[i] = MF_UNKNOWN_DIM;
  else if (len == 0 || (len < 0) != (stride < 0))
    p->size[i] = 0;
  else
    p->size[i] = len / stride + (len % stride != 0);
  return MF_OK;
}

/* *known is false when the strides or the input's rank are unknown: then
 * nothing about the result's rank is known either. */
static mf_status ss_plan_make(mf_op_call *c, const mf_spec *x, ss_plan *p, bool *known,
                              mf_error *err) {
  ss_spec q;
  MF_TRY(ss_spec_read(c, &q, err));
  *known = q.ks && x->rank >= 0;
  if (!*known) return MF_OK;
  ss_dense d;
  MF_TRY(ss_dense_make(c, &q, x->rank, &d, err));
  for (int i = 0; i < x->rank; i++) MF_TRY(ss_dim_walk(c, &d, q.kb, q.ke, i, x->shape[i], p, err));
  /* The final shape: new axes added, shrunk dimensions dropped. */
  p->final_rank = 0;
  for (int g = 0; g < d.ngather; g++) {
    if (d.gather[g] >= 0)
      p->final_shape[p->final_rank++] = p->size[d.gather[g]];
    else if (d.gather[g] == SS_NEW_AXIS)
      p->final_shape[p->final_rank++] = 1;
  }
  return MF_OK;
}

static mf_status strided_slice_infer(mf_op_call *c, mf_error *err) {
  const mf_spec *x = &c->in_specs[0];
  ss_plan p;
  bool known;
  MF_TRY(ss_plan_make(c, x, &p, &known, err));
  if (!known) return mf_infer_output(c, x->dtype, -1, NULL, err);
  return mf_infer_output(c, x->dtype, p.final_rank, p.final_shape, err);
}

static mf_status strided_slice_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *x = c->in[0];
  mf_spec xs_spec;
  mf_spec_of_tensor(x, &xs_spec);
  ss_plan p;
  bool known;
  MF_TRY(ss_plan_make(c, &xs_spec, &p, &known, err));
  int64_t xs[MF_MAX_RANK], walk[MF_MAX_RANK], off = 0;
  mf_strides_of(x->rank, x->shape, xs);
  for (int d = 0; d < x->rank; d++) {
    off += p.begin[d] * xs[d];
    walk[d] = p.stride[d] * xs[d];
  }
  const mf_spec *o = &c->out_specs[0];
  return mf_tensor_region(x, off, x->rank, p.size, walk, o->rank, o->shape, &c->out[0], err);
}

const mf_op_def mf_op_StridedSlice = {
    .name = "StridedSlice", .input_names = "input,begin,end,strides", .min_inputs = 4,
    .max_inputs = 4,
    .attrs = {{"begin_mask", MF_ATTR_INT}, {"end_mask", MF_ATTR_INT},
              {"ellipsis_mask", MF_ATTR_INT}, {"new_axis_mask", MF_ATTR_INT},
              {"shrink_axis_mask", MF_ATTR_INT}},
    .infer = strided_slice_infer, .kernel = strided_slice_kernel,
    .partial = mf_partial_strided_slice, .flags = 0,
    .doc = "NumPy-style slicing: begin:end:stride per dimension, with ellipsis, new axes and "
           "single-index (shrinking) dimensions given as bit masks.",
    .tf_attrs = "Index:1 T:0 begin_mask=0 ellipsis_mask=0 end_mask=0 new_axis_mask=0 shrink_axis_mask=0",
};

/* ---- GatherV2 ---- */

/* The axis and batch_dims of a gather, checked against the ranks (and the
 * batch dimensions) TF checks. *known is false while the axis or a rank
 * is unknown. */
static mf_status gather_axes(mf_op_call *c, int64_t *axis, int64_t *batch_dims, bool *known,
                             mf_error *err) {
  const mf_spec *p = &c->in_specs[0], *ix = &c->in_specs[1];
  int n;
  MF_TRY(mf_infer_check_dtype(c, 1, mf_dtype_is_integer, "int32 or int64", err));
  /* While a graph is built: TF's GatherV2 shape function, its messages. */
  if (c->building) MF_TRY(mf_sf_with_rank_at_least(p->rank, 1, err));
  if (c->building) MF_TRY(mf_sf_with_rank(c->in_specs[2].rank, 0, err));
  if (c->in_specs[2].rank > 0)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "axis must be scalar");
  MF_TRY(mf_input_ints(c, 2, axis, 1, &n, known, err));
  if (p->rank == 0)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "params must be at least 1 dimensional");
  *batch_dims = mf_attr_int(c->attrs, "batch_dims", 0);
  if (p->rank < 0 || ix->rank < 0) *known = false;
  if (!*known) return MF_OK;
  int64_t bd = *batch_dims, a = *axis;
  if (bd != 0) {
    if (bd < -ix->rank || bd > ix->rank)
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                        "Expected batch_dims in the range [%d, %d], but got %lld", -ix->rank,
                        ix->rank, (long long)bd);
    if (bd < 0) bd += ix->rank;
    if (bd >= p->rank)
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                        "batch_dims (%lld) must be less than rank(params) (%d).", (long long)bd,
                        p->rank);
  }
  /* TF's shape function: params must have rank axis + 1 (or -axis); the
   * kernel, which is what TF 2 runs eagerly, says "Expected axis ...". */
  if (c->building && !mf_axis_wrap(&a, p->rank) && a > INT32_MIN && a <= INT32_MAX)
    return mf_sf_with_rank_at_least(p->rank, a < 0 ? -a : a + 1, err);
  if (!mf_axis_wrap(&a, p->rank))
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "Expected axis in the range [%d, %d), but got %lld", -p->rank, p->rank,
                      (long long)*axis);
  if (a < bd)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "batch_dims (%lld) must be less than or equal to axis (%lld).",
                      (long long)bd, (long long)a);
  for (int d = 0; d < bd; d++)
    if (p->shape[d] >= 0 && ix->shape[d] >= 0 && p->shape[d] != ix->shape[d])
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                        "params.shape[%d]: %lld should be equal to indices.shape[%d]: %lld", d,
                        (long long)p->shape[d], d, (long long)ix->shape[d]);
  *axis = a;
  *batch_dims = bd;
  return MF_OK;
}

static mf_status gather_infer(mf_op_call *c, mf_error *err) {
  const mf_spec *p = &c->in_specs[0], *ix = &c->in_specs[1];
  int64_t axis, bd;
  bool known;
  MF_TRY(gather_axes(c, &axis, &bd, &known, err));
  if (!known) {
    int rank = p->rank >= 0 && ix->rank >= 0 && bd >= 0 ? p->rank - 1 + ix->rank - (int)bd : -1;
    return mf_infer_output(c, p->dtype, rank, NULL, err);
  }
  int64_t shape[2 * MF_MAX_RANK];
  int rank = 0;
  for (int d = 0; d < axis; d++) shape[rank++] = p->shape[d];
  for (int d = (int)bd; d < ix->rank; d++) shape[rank++] = ix->shape[d];
  for (int d = (int)axis + 1; d < p->rank; d++) shape[rank++] = p->shape[d];
  return mf_infer_output(c, p->dtype, rank, shape, err);
}

static mf_status gather_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *params = c->in[0], *ix = c->in[1];
  int64_t axis, bd;
  bool known;
  MF_TRY(gather_axes(c, &axis, &bd, &known, err));
  int64_t limit = params->shape[axis];
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  /* TF checks the indices only when something is copied: an empty result
   * (params empty outside the axis) is no error, whatever the indices. */
  for (int64_t i = 0; out->size > 0 && i < ix->size; i++) {
    int64_t v = mf_tensor_get_i64(ix, i);
    if (v < 0 || v >= limit) {
      char where[160];
      mf_index_debug(ix->rank, ix->shape, i, where, sizeof where);
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "indices%s = %lld is not in [0, %lld)",
                        where, (long long)v, (long long)limit);
    }
  }
  /* params as [batch, outer, limit, inner]; indices as [batch, per_batch]. */
  int64_t batch = 1, outer = 1, inner = 1, per_batch = 1, one = 1;
  for (int d = 0; d < params->rank; d++) {
    if (d < bd) batch *= params->shape[d];
    else if (d < axis) outer *= params->shape[d];
    else if (d > axis) inner *= params->shape[d];
  }
  for (int d = (int)bd; d < ix->rank; d++) per_batch *= ix->shape[d];
  /* Plain numbers are moved by memcpy directly: a gather of single
   * elements is one call per index, so the general walk would dominate. */
  bool plain = params->dtype != MF_STRING && params->dtype != MF_RESOURCE;
  size_t es = mf_dtype_size(params->dtype);
  char *obase = mf_tensor_data(out);
  const char *pbase = mf_tensor_data(params);
  int64_t dst = 0;
  for (int64_t b = 0; b < batch; b++)
    for (int64_t o = 0; o < outer; o++)
      for (int64_t j = 0; j < per_batch; j++, dst += inner) {
        int64_t src = ((b * outer + o) * limit + mf_tensor_get_i64(ix, b * per_batch + j)) * inner;
        if (plain)
          memcpy(obase + dst * (int64_t)es, pbase + src * (int64_t)es, (size_t)inner * es);
        else
          MF_TRY(mf_copy_strided(out, dst, &one, params, src, &one, 1, &inner, err));
      }
  return MF_OK;
}

const mf_op_def mf_op_GatherV2 = {
    .name = "GatherV2", .input_names = "params,indices,axis", .min_inputs = 3, .max_inputs = 3,
    .attrs = {{"batch_dims", MF_ATTR_INT}},
    .infer = gather_infer, .kernel = gather_kernel, .flags = 0,
    .doc = "Slices of params along axis at the given 0-based indices.",
    .tf_attrs = "Taxis:2 Tindices:1 Tparams:0 batch_dims=0",
};

/* ---- Where ---- */

static mf_status where_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(mf_infer_check_dtype(c, 0, mf_dtype_is_numeric_or_bool, "numeric or bool", err));
  int64_t shape[2] = {MF_UNKNOWN_DIM, c->in_specs[0].rank};
  return mf_infer_output(c, MF_INT64, 2, shape, err);
}

static mf_status where_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *x = c->in[0];
  int64_t n = 0;
  for (int64_t i = 0; i < x->size; i++) n += mf_tensor_get_f64(x, i) != 0;
  int64_t shape[2] = {n, x->rank};
  mf_tensor *out;
  /* The row count is known only now, so the output is shaped here. */
  MF_TRY(mf_tensor_new(MF_INT64, 2, shape, &out, err));
  mf_tensor_release(c->out[0]);
  c->out[0] = out;
  int64_t *o = MF_DATA(out, int64_t), idx[MF_MAX_RANK] = {0};
  for (int64_t i = 0; i < x->size; i++) {
    if (mf_tensor_get_f64(x, i) != 0) {
      memcpy(o, idx, (size_t)x->rank * sizeof *idx);
      o += x->rank;
    }
    for (int d = x->rank - 1; d >= 0 && ++idx[d] == x->shape[d]; d--) idx[d] = 0;
  }
  return MF_OK;
}

const mf_op_def mf_op_Where = {
    .name = "Where", .input_names = "input", .min_inputs = 1, .max_inputs = 1,
    .infer = where_infer, .kernel = where_kernel, .flags = MF_OP_NO_GRADIENT,
    .doc = "The 0-based coordinates of the true (non-zero) elements, as int64 [n, rank].",
    .tf_attrs = "T:0",
};

/* ---- OneHot ---- */

static mf_status one_hot_infer(mf_op_call *c, mf_error *err) {
  const mf_spec *ix = &c->in_specs[0];
  MF_TRY(mf_infer_check_dtype(c, 0, mf_dtype_is_integer, "int32 or int64", err));
  MF_TRY(mf_infer_same_dtype(c, 2, 4, err));
  static const char *const names[] = {"depth", "on_value", "off_value"};
  for (int i = 1; i < 4; i++)
    if (c->in_specs[i].rank > 0)
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "%s must be a scalar, but got: %s",
                        names[i - 1], MF_SPEC_TEXT(&c->in_specs[i]));
  int64_t depth = MF_UNKNOWN_DIM;
  int n;
  bool known;
  MF_TRY(mf_input_ints(c, 1, &depth, 1, &n, &known, err));
  if (known && depth < 0)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "depth must be non-negative, got: %lld",
                      (long long)depth);
  mf_dtype dt = c->in_specs[2].dtype;
  if (ix->rank < 0) return mf_infer_output(c, dt, -1, NULL, err);
  int64_t axis = mf_attr_int(c->attrs, "axis", -1);
  if (axis != -1 && (axis < 0 || axis > ix->rank))
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "Expected axis to be -1 or between [0, %d).  But received: %lld",
                      ix->rank + 1, (long long)axis);
  if (axis == -1) axis = ix->rank;
  int64_t shape[MF_MAX_RANK + 1];
  for (int d = 0, k = 0; d <= ix->rank; d++) shape[d] = d == axis ? depth : ix->shape[k++];
  return mf_infer_output(c, dt, ix->rank + 1, shape, err);
}

static mf_status one_hot_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *ix = c->in[0];
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  MF_TRY(mf_tensor_fill(out, 0, out->size, c->in[3], err));
  int64_t axis = mf_attr_int(c->attrs, "axis", -1);
  if (axis == -1) axis = ix->rank;
  int64_t depth = mf_tensor_get_i64(c->in[1], 0), outer = 1, inner = 1;
  for (int d = 0; d < ix->rank; d++) *(d < axis ? &outer : &inner) *= ix->shape[d];
  /* out as [outer, depth, inner]; indices outside [0, depth) stay off. */
  for (int64_t o = 0; o < outer; o++)
    for (int64_t k = 0; k < inner; k++) {
      int64_t v = mf_tensor_get_i64(ix, o * inner + k);
      if (v >= 0 && v < depth)
        MF_TRY(mf_copy_strided(out, (o * depth + v) * inner + k, NULL, c->in[2], 0, NULL, 0,
                               NULL, err));
    }
  return MF_OK;
}

const mf_op_def mf_op_OneHot = {
    .name = "OneHot", .input_names = "indices,depth,on_value,off_value", .min_inputs = 4,
    .max_inputs = 4, .attrs = {{"axis", MF_ATTR_INT}},
    .infer = one_hot_infer, .kernel = one_hot_kernel, .flags = MF_OP_NO_GRADIENT,
    .doc = "on_value where the new axis (default last) equals the index, off_value elsewhere.",
    .tf_attrs = "T:2 TI:0 axis=-1",
};

/* ---- UnsortedSegmentSum ---- */

static mf_status segment_sum_infer(mf_op_call *c, mf_error *err) {
  const mf_spec *data = &c->in_specs[0], *ids = &c->in_specs[1];
  MF_TRY(mf_infer_check_dtype(c, 0, mf_dtype_is_numeric, "numeric", err));
  MF_TRY(mf_infer_check_dtype(c, 1, mf_dtype_is_integer, "int32 or int64", err));
  if (c->in_specs[2].rank > 0)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "num_segments should be a scalar, not shape %s",
                      MF_SPEC_TEXT(&c->in_specs[2]));
  int64_t num = MF_UNKNOWN_DIM;
  int n;
  bool known;
  MF_TRY(mf_input_ints(c, 2, &num, 1, &n, &known, err));
  if (known && num < 0)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "Input num_segments == %lld must not be negative.", (long long)num);
  if (data->rank < 0 || ids->rank < 0) return mf_infer_output(c, data->dtype, -1, NULL, err);
  bool prefix = ids->rank <= data->rank;
  for (int d = 0; prefix && d < ids->rank; d++)
    prefix = data->shape[d] < 0 || ids->shape[d] < 0 || data->shape[d] == ids->shape[d];
  if (!prefix)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "data.shape = %s does not start with segment_ids.shape = %s",
                      MF_SPEC_TEXT(data), MF_SPEC_TEXT(ids));
  int64_t shape[MF_MAX_RANK + 1];
  int rank = 0;
  shape[rank++] = num;
  for (int d = ids->rank; d < data->rank; d++) shape[rank++] = data->shape[d];
  return mf_infer_output(c, data->dtype, rank, shape, err);
}

static mf_status segment_sum_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *data = c->in[0], *ids = c->in[1];
  int64_t num = mf_tensor_get_i64(c->in[2], 0);
  for (int64_t i = 0; i < ids->size; i++) {
    int64_t j = mf_tensor_get_i64(ids, i);
    if (j >= num) {
      char where[160];
      mf_index_debug(ids->rank, ids->shape, i, where, sizeof where);
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                        "segment_ids%s = %lld is out of range [0, %lld)", where, (long long)j,
                        (long long)num);
    }
  }
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  memset(mf_tensor_data(out), 0, (size_t)out->size * mf_dtype_size(out->dtype));
  int64_t inner = ids->size ? data->size / ids->size : 0;
  /* Negative ids are dropped, as TF's CPU kernel does. Integer sums wrap. */
#define SEGMENT_SUM(T, U)                                                   \
  {                                                                         \
    const T *x = mf_tensor_data(data);                                      \
    T *y = mf_tensor_data(out);                                             \
    for (int64_t i = 0; i < ids->size; i++) {                               \
      int64_t j = mf_tensor_get_i64(ids, i);                                \
      if (j < 0) continue;                                                  \
      for (int64_t k = 0; k < inner; k++)                                   \
        y[j * inner + k] = (T)((U)y[j * inner + k] + (U)x[i * inner + k]);  \
    }                                                                       \
  }                                                                         \
  break;
  switch (data->dtype) {
    case MF_FLOAT32: SEGMENT_SUM(float, float)
    case MF_FLOAT64: SEGMENT_SUM(double, double)
    case MF_INT32: SEGMENT_SUM(int32_t, uint32_t)
    case MF_INT64: SEGMENT_SUM(int64_t, uint64_t)
    default:
      return mf_error_set(err, MF_ERR_INTERNAL, "UnsortedSegmentSum has no %s kernel",
                          mf_dtype_name(data->dtype));
  }
#undef SEGMENT_SUM
  return MF_OK;
}

const mf_op_def mf_op_UnsortedSegmentSum = {
    .name = "UnsortedSegmentSum", .input_names = "data,segment_ids,num_segments",
    .min_inputs = 3, .max_inputs = 3,
    .infer = segment_sum_infer, .kernel = segment_sum_kernel, .flags = 0,
    .doc = "Sums the rows of data that share a segment id into row id of a [num_segments, ...] "
           "result.",
    .tf_attrs = "T:0 Tindices:1 Tnumsegments:2",
};
