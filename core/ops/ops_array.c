/* ops_array.c — ops that cut, flip and address tensors by index tuples:
 * Split, SplitV, ReverseV2, GatherNd, ScatterNd, TensorScatterUpdate and
 * TensorScatterAdd.
 *
 * Split and ReverseV2 are walks over the input (mf_tensor_region: a split
 * along axis 0 is a view, a reversal walks with negative strides). The *Nd
 * ops read their indices as [n, k] tuples that address the first k axes of
 * a [.., slice] tensor; one checker finds the first tuple outside the shape
 * and reports it with TF's text before anything is written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array_util.h"
#include "elementwise.h"
#include "op.h"
#include "shape_fn.h"

/* ---- Split, SplitV ---- */

/* The split axis (input `i`, a scalar) wrapped into [0, rank); *known is
 * false while the axis or the rank is unknown. */
static mf_status split_axis(mf_op_call *c, int i, const mf_spec *x, int64_t *axis, bool *known,
                            mf_error *err) {
  int n;
  MF_TRY(mf_infer_check_dtype(c, i, mf_dtype_is_integer, "int32 or int64", err));
  if (c->in_specs[i].rank > 0 && i == 2) {
    /* SplitV's kernel counts elements rather than checking the rank, and
     * says so in its own words (split_v_op.cc). */
    int64_t count = 1;
    for (int d = 0; d < c->in_specs[i].rank; d++)
      count = c->in_specs[i].shape[d] < 0 || count < 0 ? -1 : count * c->in_specs[i].shape[d];
    if (count >= 0 && count != 1)
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "split_dim_tensor must have exactly one element.");
  }
  if (c->in_specs[i].rank > 0)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "split_dim must be a scalar but has rank %d",
                      c->in_specs[i].rank);
  MF_TRY(mf_input_ints(c, i, axis, 1, &n, known, err));
  if (!*known || x->rank < 0) {
    *known = false;
    return MF_OK;
  }
  int64_t a = *axis;
  if (!mf_axis_wrap(&a, x->rank))
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "-input rank(-%d) <= split_dim < input rank (%d), but got %lld", x->rank,
                      x->rank, (long long)*axis);
  *axis = a;
  return MF_OK;
}

/* Declares `num` outputs shaped like x with dimension `axis` (-1: the axis
 * is unknown, so every dimension is) of size sizes[i] (NULL: unknown). */
static mf_status split_outputs(mf_op_call *c, const mf_spec *x, int num, int64_t axis,
                               const int64_t *sizes, mf_error *err) {
  MF_TRY(mf_op_call_set_nout(c, num, err));
  for (int i = 0; i < num; i++) {
    mf_spec *o = &c->out_specs[i];
    *o = *x;
    for (int d = 0; d < x->rank; d++)
      if (axis < 0 || d == axis) o->shape[d] = axis < 0 || !sizes ? MF_UNKNOWN_DIM : sizes[i];
  }
  return MF_OK;
}

/* Each output is a tensor the caller receives at once: beyond this many a
 * split would spend minutes before any caller could take them. */
enum { SPLIT_MAX_OUTPUTS = 1 << 20 };

static mf_status split_count(mf_op_call *c, int64_t num, mf_error *err) {
  if (num < 1)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "Value for attr 'num_split' of %lld must be at least minimum 1",
                      (long long)num);
  if (num > SPLIT_MAX_OUTPUTS)
    return mf_op_fail(c, err, MF_ERR_RESOURCE_EXHAUSTED,
                      "num_split = %lld: moonflow splits into at most %d outputs", (long long)num,
                      SPLIT_MAX_OUTPUTS);
  return MF_OK;
}

static mf_status split_num(mf_op_call *c, int64_t *num, mf_error *err) {
  *num = mf_attr_int(c->attrs, "num_split", 1);
  return split_count(c, *num, err);
}

static mf_status split_infer(mf_op_call *c, mf_error *err) {
  const mf_spec *x = &c->in_specs[1];
  int64_t axis, num;
  bool known;
  MF_TRY(split_num(c, &num, err));
  int n;
  if (c->building && x->rank >= 0 && mf_infer_const_ints(c, 0, &axis, 1, &n)) {
    /* TF's Split shape function: the axis by
     * MakeDimForScalarInputWithNegativeIndexing, the split by Divide. */
    if (c->in_specs[0].rank != 0)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Input must be scalar but has rank %d",
                          c->in_specs[0].rank);
    if (axis < -x->rank || axis >= x->rank)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "Dimension size, given by scalar input %lld must be in range [-%d, %d)",
                          (long long)axis, x->rank, x->rank);
    int64_t dim = x->shape[axis < 0 ? axis + x->rank : axis], part;
    if (mf_sf_divide_evenly(dim, num, &part, err) != MF_OK) {
      size_t len = strlen(err->message); /* TF_RETURN_WITH_CONTEXT_IF_ERROR */
      snprintf(err->message + len, sizeof err->message - len,
               "\n\tNumber of ways to split should evenly divide the split dimension");
      return err->status;
    }
  }
  MF_TRY(split_axis(c, 0, x, &axis, &known, err));
  if (!known) return split_outputs(c, x, (int)num, -1, NULL, err);
  int64_t dim = x->shape[axis];
  if (dim >= 0 && dim % num != 0)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "Number of ways to split should evenly divide the split dimension, but got "
                      "split_dim %lld (size = %lld) and num_split %lld",
                      (long long)axis, (long long)dim, (long long)num);
  MF_TRY(split_outputs(c, x, (int)num, axis, NULL, err));
  for (int i = 0; i < num; i++) c->out_specs[i].shape[axis] = dim >= 0 ? dim / num : MF_UNKNOWN_DIM;
  return MF_OK;
}

/* Output i is the block of x starting at `starts[i]` along axis. */
static mf_status split_kernel_common(mf_op_call *c, const mf_tensor *x, int64_t axis,
                                     const int64_t *starts, mf_error *err) {
  int64_t xs[MF_MAX_RANK];
  mf_strides_of(x->rank, x->shape, xs);
  for (int i = 0; i < c->nout; i++) {
    const mf_spec *o = &c->out_specs[i];
    int64_t n = 1;
    for (int d = 0; d < o->rank; d++) n *= o->shape[d];
    MF_TRY(mf_tensor_region(x, n ? starts[i] * xs[axis] : 0, o->rank, o->shape, xs, o->rank,
                            o->shape, &c->out[i], err));
  }
  return MF_OK;
}

static mf_status split_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *x = c->in[1];
  int64_t axis = mf_tensor_get_i64(c->in[0], 0);
  mf_axis_wrap(&axis, x->rank);
  int64_t *starts = malloc((size_t)c->nout * sizeof *starts);
  if (!starts) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  for (int i = 0; i < c->nout; i++) starts[i] = i * (x->shape[axis] / c->nout);
  mf_status s = split_kernel_common(c, x, axis, starts, err);
  free(starts);
  return s;
}

const mf_op_def mf_op_Split = {
    .name = "Split", .input_names = "split_dim,value", .min_inputs = 2, .max_inputs = 2,
    .attrs = {{"num_split", MF_ATTR_INT}},
    .infer = split_infer, .kernel = split_kernel, .flags = 0,
    .doc = "Splits value along split_dim into num_split equal parts.",
    .tf_attrs = "T:1 num_split",
};

/* TF's SplitV size rules for a split dimension of size `dim` (-1:
 * unknown): at most one -1, which takes what the others leave; the others
 * non-negative; the sum equal to dim (or within it, with a -1). Fills
 * sizes (the -1 resolved when dim is known). */
static mf_status splitv_sizes(mf_op_call *c, int64_t *sizes, int num, int64_t dim, mf_error *err) {
  int neg = -1;
  int64_t total = 0;
  for (int i = 0; i < num; i++) {
    if (sizes[i] == -1) {
      if (neg >= 0)
        return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "There can only be one -1 in the input.");
      neg = i;
    } else if (sizes[i] < 0) {
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "Split size at index %d must be >= 0. Got: %lld",
                        i, (long long)sizes[i]);
    } else if (__builtin_add_overflow(total, sizes[i], &total)) {
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "Split sizes overflow int64");
    }
  }
  if (dim < 0) return MF_OK;
  if ((neg < 0 && total != dim) || (neg >= 0 && total > dim))
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "Determined shape must either match input shape along split_dim exactly if "
                      "fully specified, or be less than the size of the input along split_dim if "
                      "not fully specified.  Got: %lld",
                      (long long)total);
  if (neg >= 0) sizes[neg] = dim - total;
  return MF_OK;
}

/* The sizes input, checked against num_split; *known false while unknown.
 * `sizes` holds num entries. */
static mf_status splitv_read(mf_op_call *c, int64_t num, int64_t *sizes, bool *known,
                             mf_error *err) {
  const mf_spec *sp = &c->in_specs[1];
  int64_t len = sp->rank == 1 ? sp->shape[0] : -1;
  MF_TRY(mf_infer_check_dtype(c, 1, mf_dtype_is_integer, "int32 or int64", err));
  if ((sp->rank >= 0 && sp->rank != 1) || (len >= 0 && len != num)) {
    int64_t elements = 1;
    for (int d = 0; d < sp->rank; d++)
      elements = sp->shape[d] < 0 || elements < 0 ? -1 : elements * sp->shape[d];
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "size of the split_tensor must be 1-D and have the same elements as outputs "
                      "got %d -D and %lld elements",
                      sp->rank, (long long)elements);
  }
  const mf_tensor *t = c->in[1];
  *known = t != NULL;
  for (int64_t i = 0; t && i < num; i++) sizes[i] = mf_tensor_get_i64(t, i);
  return MF_OK;
}

static mf_status splitv_infer(mf_op_call *c, mf_error *err) {
  const mf_spec *x = &c->in_specs[0];
  int64_t num = mf_attr_int(c->attrs, "num_split", -1), axis;
  bool kaxis, ksizes;
  if (num < 0 && c->in_specs[1].rank == 1) num = c->in_specs[1].shape[0];
  MF_TRY(split_count(c, num, err));
  MF_TRY(split_axis(c, 2, x, &axis, &kaxis, err));
  int64_t *sizes = malloc((size_t)num * sizeof *sizes);
  if (!sizes) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  mf_status s = splitv_read(c, num, sizes, &ksizes, err);
  if (s == MF_OK && ksizes) s = splitv_sizes(c, sizes, (int)num, kaxis ? x->shape[axis] : -1, err);
  if (s == MF_OK) s = split_outputs(c, x, (int)num, kaxis ? axis : -1, ksizes ? sizes : NULL, err);
  /* A -1 whose share is unknown stays unknown. */
  for (int i = 0; s == MF_OK && kaxis && ksizes && i < num; i++)
    if (sizes[i] < 0) c->out_specs[i].shape[axis] = MF_UNKNOWN_DIM;
  free(sizes);
  return s;
}

static mf_status splitv_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *x = c->in[0];
  int64_t axis = mf_tensor_get_i64(c->in[2], 0);
  mf_axis_wrap(&axis, x->rank);
  int64_t *starts = malloc((size_t)c->nout * sizeof *starts);
  if (!starts) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  int64_t at = 0;
  for (int i = 0; i < c->nout; i++) {
    starts[i] = at;
    at += c->out_specs[i].shape[axis];
  }
  mf_status s = split_kernel_common(c, x, axis, starts, err);
  free(starts);
  return s;
}

const mf_op_def mf_op_SplitV = {
    .name = "SplitV", .input_names = "value,size_splits,split_dim", .min_inputs = 3,
    .max_inputs = 3, .attrs = {{"num_split", MF_ATTR_INT}},
    .infer = splitv_infer, .kernel = splitv_kernel, .flags = 0,
    .doc = "Splits value along split_dim into parts of the given sizes (one may be -1: the rest).",
    .tf_attrs = "T:0 Tlen:1 num_split",
};

/* ---- ReverseV2 ---- */

/* The axes to flip, as a mask over x's dimensions; *known false while the
 * axes or the rank are unknown. */
static mf_status reverse_axes(mf_op_call *c, const mf_spec *x, bool *flip, bool *known,
                              mf_error *err) {
  int64_t axes[MF_MAX_INT_INPUT];
  int n;
  MF_TRY(mf_infer_check_dtype(c, 1, mf_dtype_is_integer, "int32 or int64", err));
  if (c->in_specs[1].rank >= 0 && c->in_specs[1].rank != 1)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "'dims' must be 1-dimension, not %d",
                      c->in_specs[1].rank);
  MF_TRY(mf_input_ints(c, 1, axes, MF_MAX_INT_INPUT, &n, known, err));
  if (!*known || x->rank < 0) {
    *known = false;
    return MF_OK;
  }
  for (int d = 0; d < x->rank; d++) flip[d] = false;
  for (int i = 0; i < n; i++) {
    int64_t a = axes[i];
    if (!mf_axis_wrap(&a, x->rank))
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                        "'axis'[%d] = %lld is out of valid range [0, %d", i, (long long)axes[i],
                        x->rank - 1);
    if (flip[a])
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "axis %lld specified more than once.",
                        (long long)a);
    flip[a] = true;
  }
  return MF_OK;
}

static mf_status reverse_infer(mf_op_call *c, mf_error *err) {
  const mf_spec *x = &c->in_specs[0];
  bool flip[MF_MAX_RANK], known;
  MF_TRY(reverse_axes(c, x, flip, &known, err));
  return mf_infer_output(c, x->dtype, x->rank, x->shape, err);
}

static mf_status reverse_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *x = c->in[0];
  mf_spec xs_spec;
  mf_spec_of_tensor(x, &xs_spec);
  bool flip[MF_MAX_RANK], known;
  MF_TRY(reverse_axes(c, &xs_spec, flip, &known, err));
  int64_t st[MF_MAX_RANK], off = 0;
  mf_strides_of(x->rank, x->shape, st);
  for (int d = 0; d < x->rank && x->size > 0; d++)
    if (flip[d]) {
      off += (x->shape[d] - 1) * st[d];
      st[d] = -st[d];
    }
  return mf_tensor_region(x, off, x->rank, x->shape, st, x->rank, x->shape, &c->out[0], err);
}

const mf_op_def mf_op_ReverseV2 = {
    .name = "ReverseV2", .input_names = "tensor,axis", .min_inputs = 2, .max_inputs = 2,
    .infer = reverse_infer, .kernel = reverse_kernel, .flags = 0,
    .doc = "The tensor with the order of elements along the listed axes reversed.",
    .tf_attrs = "T:0 Tidx:1",
};

/* ---- index tuples: GatherNd, ScatterNd, TensorScatterUpdate/Add ---- */

/* Every tuple of indices (a [.., k] tensor) must lie inside the first k
 * dimensions of `shape`; else TF's message naming the first that does not,
 * as "indices[0,1] = [7] does not index into <what> shape [3]". */
static mf_status nd_check(mf_op_call *c, const mf_tensor *ix, int rank, const int64_t *shape,
                          const char *what, mf_error *err) {
  int64_t k = ix->shape[ix->rank - 1], n = k ? ix->size / k : 0;
  for (int64_t r = 0; r < n && k > 0; r++)
    for (int64_t j = 0; j < k; j++) {
      int64_t v = mf_tensor_get_i64(ix, r * k + j);
      if (v >= 0 && v < shape[j]) continue;
      char where[160], tuple[256], shape_text[160];
      mf_index_debug(ix->rank - 1, ix->shape, r, where, sizeof where);
      size_t used = 0;
      tuple[0] = '\0';
      for (int64_t q = 0; q < k && used < sizeof tuple; q++)
        used += (size_t)snprintf(tuple + used, sizeof tuple - used, "%s%lld", q ? ", " : "",
                                 (long long)mf_tensor_get_i64(ix, r * k + q));
      mf_shape_debug(rank, shape, shape_text, sizeof shape_text);
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "indices%s = [%s] does not index into %s%s",
                        where, tuple, what, shape_text);
    }
  return MF_OK;
}

/* The flat element offset of tuple r's slice in a tensor of `shape`. */
static int64_t nd_offset(const mf_tensor *ix, int64_t r, int64_t k, const int64_t *shape,
                         int64_t slice) {
  int64_t off = 0;
  for (int64_t j = 0; j < k; j++) off = off * shape[j] + mf_tensor_get_i64(ix, r * k + j);
  return off * slice;
}

static int64_t prod_from(int rank, const int64_t *shape, int64_t from) {
  int64_t n = 1;
  for (int d = (int)from; d < rank; d++) n *= shape[d];
  return n;
}

static mf_status gather_nd_infer(mf_op_call *c, mf_error *err) {
  const mf_spec *p = &c->in_specs[0], *ix = &c->in_specs[1];
  MF_TRY(mf_infer_check_dtype(c, 1, mf_dtype_is_integer, "int32 or int64", err));
  if (p->rank == 0)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "params must be at least a vector");
  if (ix->rank == 0)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "indices must be at least a vector");
  if (ix->rank < 0 || ix->shape[ix->rank - 1] < 0 || p->rank < 0)
    return mf_infer_output(c, p->dtype, -1, NULL, err);
  int64_t k = ix->shape[ix->rank - 1];
  if (k > p->rank)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "index innermost dimension length must be <= params rank; saw: %lld vs. %d",
                      (long long)k, p->rank);
  int64_t shape[2 * MF_MAX_RANK];
  int rank = 0;
  for (int d = 0; d < ix->rank - 1; d++) shape[rank++] = ix->shape[d];
  for (int d = (int)k; d < p->rank; d++) shape[rank++] = p->shape[d];
  return mf_infer_output(c, p->dtype, rank, shape, err);
}

static mf_status gather_nd_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *p = c->in[0], *ix = c->in[1];
  int64_t k = ix->shape[ix->rank - 1], tuples = 1;
  for (int d = 0; d < ix->rank - 1; d++) tuples *= ix->shape[d];
  if (p->size == 0 && tuples > 0)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "Requested more than 0 entries, but params is empty.  Params shape: %s",
                      mf_shape_text_of(p->rank, p->shape).s);
  MF_TRY(nd_check(c, ix, p->rank, p->shape, "param shape ", err));
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  int64_t slice = prod_from(p->rank, p->shape, k), n = slice ? out->size / slice : 0, one = 1;
  bool plain = p->dtype != MF_STRING && p->dtype != MF_RESOURCE;
  size_t es = mf_dtype_size(p->dtype);
  for (int64_t r = 0; r < n; r++) {
    int64_t src = nd_offset(ix, r, k, p->shape, slice);
    if (plain)
      memcpy((char *)mf_tensor_data(out) + (size_t)(r * slice) * es,
             (const char *)mf_tensor_data(p) + (size_t)src * es, (size_t)slice * es);
    else
      MF_TRY(mf_copy_strided(out, r * slice, &one, p, src, &one, 1, &slice, err));
  }
  return MF_OK;
}

const mf_op_def mf_op_GatherNd = {
    .name = "GatherNd", .input_names = "params,indices", .min_inputs = 2, .max_inputs = 2,
    .infer = gather_nd_infer, .kernel = gather_nd_kernel, .flags = 0,
    .doc = "Elements or slices of params addressed by the index tuples in the last axis of "
           "indices.",
    .tf_attrs = "Tindices:1 Tparams:0",
};

/* The element count of a spec, or -1 while a dimension is unknown. */
static int64_t known_count(int rank, const int64_t *shape) {
  int64_t n = 1;
  for (int d = 0; d < rank; d++) {
    if (shape[d] < 0) return -1;
    n *= shape[d];
  }
  return rank < 0 ? -1 : n;
}

/* TF's scatter shape rules (ScatterNdShapeHelper): the target has rank at
 * least 1 and elements when tuples are given, and updates are
 * indices.shape[:-1] + shape[k:], with the TensorScatter ops' messages or
 * (scatter_nd) ScatterNd's. Unknown dimensions pass. */
static mf_status nd_update_shape(mf_op_call *c, const mf_spec *ix, const mf_spec *u, int rank,
                                 const int64_t *shape, bool scatter_nd, mf_error *err) {
  if (rank == 0)
    return scatter_nd ? mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                                   "Output must be at least 1-D, got shape: []")
                      : mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                                   "Shape must be at least rank 1 but is rank 0");
  if (ix->rank < 1 || u->rank < 0 || rank < 0) return MF_OK;
  int64_t nt = known_count(rank, shape), ni = known_count(ix->rank, ix->shape),
          nu = known_count(u->rank, u->shape);
  if (nt == 0 && (ni > 0 || nu > 0))
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "Indices and updates specified for empty %s", scatter_nd ? "output shape" : "input");
  int64_t k = ix->shape[ix->rank - 1];
  int batch = ix->rank - 1;
  if (k < 0) return MF_OK;
  if (k > rank)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "Output must have rank at least the index depth; indices.shape[-1] = %lld "
                      "but output rank is %d",
                      (long long)k, rank);
  bool ok = u->rank >= batch;
  for (int d = 0; ok && d < batch; d++)
    ok = ix->shape[d] < 0 || u->shape[d] < 0 || ix->shape[d] == u->shape[d];
  if (!ok)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "Dimensions [0,%d) of indices[shape=%s] = %s must match dimensions [0,%d) of "
                      "updates[shape=%s] = %s",
                      batch, MF_SPEC_TEXT(ix), mf_shape_text_of(batch, ix->shape).s, batch,
                      MF_SPEC_TEXT(u), mf_shape_text_of(u->rank < batch ? u->rank : batch, u->shape).s);
  ok = u->rank - batch == rank - k;
  for (int d = 0; ok && d < rank - k; d++) {
    int64_t a = shape[k + d], b = u->shape[batch + d];
    ok = a < 0 || b < 0 || a == b;
  }
  if (!ok)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "Dimensions [%lld,%d) of input[shape=%s] = %s must match dimensions [%d,%d) "
                      "of updates[shape=%s] = %s",
                      (long long)k, rank, mf_shape_text_of(rank, shape).s,
                      mf_shape_text_of(rank - (int)k, shape + k).s, batch, u->rank, MF_SPEC_TEXT(u),
                      mf_shape_text_of(u->rank - batch, u->shape + batch).s);
  return MF_OK;
}

enum { ND_UPDATE, ND_ADD };

/* out (a fresh copy of the target) [tuple r] = or += updates row r. */
static mf_status nd_scatter(mf_op_call *c, mf_tensor *out, const mf_tensor *ix,
                            const mf_tensor *u, int mode, mf_error *err) {
  int64_t k = ix->shape[ix->rank - 1];
  int64_t slice = prod_from(out->rank, out->shape, k);
  int64_t n = slice ? u->size / slice : 0, one = 1;
  if (mode == ND_UPDATE) {
    for (int64_t r = 0; r < n; r++)
      MF_TRY(mf_copy_strided(out, nd_offset(ix, r, k, out->shape, slice), &one, u, r * slice, &one,
                             1, &slice, err));
    return MF_OK;
  }
#define ND_ADD_LOOP(T, U)                                                   \
  {                                                                         \
    T *y = mf_tensor_data(out);                                             \
    const T *x = mf_tensor_data(u);                                         \
    for (int64_t r = 0; r < n; r++) {                                       \
      int64_t o = nd_offset(ix, r, k, out->shape, slice);                   \
      for (int64_t e = 0; e < slice; e++)                                   \
        y[o + e] = (T)((U)y[o + e] + (U)x[r * slice + e]);                  \
    }                                                                       \
  }                                                                         \
  break;
  switch (out->dtype) {
    case MF_FLOAT32: ND_ADD_LOOP(float, float)
    case MF_FLOAT64: ND_ADD_LOOP(double, double)
    case MF_INT32: ND_ADD_LOOP(int32_t, uint32_t)
    case MF_INT64: ND_ADD_LOOP(int64_t, uint64_t)
    default:
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "%s has no %s kernel", c->op->name,
                        mf_dtype_name(out->dtype));
  }
#undef ND_ADD_LOOP
  return MF_OK;
}

/* ScatterNd(indices, updates, shape) */
static mf_status scatter_nd_infer(mf_op_call *c, mf_error *err) {
  const mf_spec *ix = &c->in_specs[0], *u = &c->in_specs[1];
  MF_TRY(mf_infer_check_dtype(c, 0, mf_dtype_is_integer, "int32 or int64", err));
  MF_TRY(mf_infer_check_dtype(c, 1, mf_dtype_is_numeric, "numeric", err));
  MF_TRY(mf_infer_check_dtype(c, 2, mf_dtype_is_integer, "int32 or int64", err));
  if (ix->rank == 0)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "indices must be at least a vector");
  int64_t shape[MF_MAX_INT_INPUT];
  int n;
  bool known;
  if (c->in_specs[2].rank >= 0 && c->in_specs[2].rank != 1)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "Shape must be rank 1 but is rank %d",
                      c->in_specs[2].rank);
  MF_TRY(mf_input_ints(c, 2, shape, MF_MAX_INT_INPUT, &n, &known, err));
  if (!known) {
    /* TF's ScatterNdShape: MakeShapeFromShapeTensor of shape, known in
     * part, checked against the indices and updates where it is known. */
    MF_TRY(mf_sf_shape_tensor(c, 2, &n, shape, MF_MAX_INT_INPUT, err));
    if (n >= 0 && n <= MF_MAX_RANK) MF_TRY(nd_update_shape(c, ix, u, n, shape, true, err));
    return mf_infer_output(c, u->dtype, n, n < 0 ? NULL : shape, err);
  }
  for (int d = 0; d < n; d++)
    if (shape[d] < 0)
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "shape[%d] must be non-negative, got %lld",
                        d, (long long)shape[d]);
  MF_TRY(nd_update_shape(c, ix, u, n, shape, true, err));
  return mf_infer_output(c, u->dtype, n, shape, err);
}

static mf_status scatter_nd_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *ix = c->in[0], *u = c->in[1];
  const mf_spec *o = &c->out_specs[0];
  mf_tensor *out;
  MF_TRY(nd_check(c, ix, o->rank, o->shape, "shape ", err));
  MF_TRY(mf_tensor_zeros(u->dtype, o->rank, o->shape, &out, err));
  c->out[0] = out;
  return nd_scatter(c, out, ix, u, ND_ADD, err);
}

const mf_op_def mf_op_ScatterNd = {
    .name = "ScatterNd", .input_names = "indices,updates,shape", .min_inputs = 3,
    .max_inputs = 3, .infer = scatter_nd_infer, .kernel = scatter_nd_kernel, .flags = 0,
    .doc = "Zeros of the given shape with the updates added at the index tuples (repeated "
           "tuples add up).",
    .tf_attrs = "T:1 Tindices:0",
};

/* TensorScatterUpdate/Add(tensor, indices, updates) */
static mf_status tensor_scatter_infer(mf_op_call *c, mf_error *err) {
  const mf_spec *t = &c->in_specs[0], *ix = &c->in_specs[1], *u = &c->in_specs[2];
  MF_TRY(mf_infer_check_dtype(c, 1, mf_dtype_is_integer, "int32 or int64", err));
  if (t->dtype != u->dtype)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "cannot compute %s as input #2(zero-based) was expected to be a %s tensor "
                      "but is a %s tensor",
                      c->op->name, mf_dtype_name(t->dtype), mf_dtype_name(u->dtype));
  if (strcmp(c->op->name, "TensorScatterAdd") == 0)
    MF_TRY(mf_infer_check_dtype(c, 0, mf_dtype_is_numeric, "numeric", err));
  if (ix->rank == 0)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "indices must be at least a vector");
  MF_TRY(nd_update_shape(c, ix, u, t->rank, t->shape, false, err));
  return mf_infer_output(c, t->dtype, t->rank, t->shape, err);
}

static mf_status tensor_scatter_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *t = c->in[0], *ix = c->in[1], *u = c->in[2];
  mf_spec ts, is, us;
  mf_spec_of_tensor(t, &ts);
  mf_spec_of_tensor(ix, &is);
  mf_spec_of_tensor(u, &us);
  MF_TRY(nd_update_shape(c, &is, &us, ts.rank, ts.shape, false, err));
  MF_TRY(nd_check(c, ix, t->rank, t->shape, "shape ", err));
  mf_tensor *out;
  MF_TRY(mf_tensor_copy(t, &out, err));
  c->out[0] = out;
  return nd_scatter(c, out, ix, u, strcmp(c->op->name, "TensorScatterAdd") == 0 ? ND_ADD : ND_UPDATE,
                    err);
}

const mf_op_def mf_op_TensorScatterUpdate = {
    .name = "TensorScatterUpdate", .input_names = "tensor,indices,updates", .min_inputs = 3,
    .max_inputs = 3, .infer = tensor_scatter_infer, .kernel = tensor_scatter_kernel, .flags = 0,
    .doc = "A copy of tensor with the elements or slices at the index tuples replaced by updates.",
    .tf_attrs = "T:0 Tindices:1",
};

const mf_op_def mf_op_TensorScatterAdd = {
    .name = "TensorScatterAdd", .input_names = "tensor,indices,updates", .min_inputs = 3,
    .max_inputs = 3, .infer = tensor_scatter_infer, .kernel = tensor_scatter_kernel, .flags = 0,
    .doc = "A copy of tensor with updates added at the index tuples (repeated tuples add up).",
    .tf_attrs = "T:0 Tindices:1",
};

/* Rolling, unique values, sorted search, segment sums, counts and AddN. */
#include "array_lookup.inc"
