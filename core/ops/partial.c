/* partial.c — partial values (partial.h): TF's ConstantPartialShape,
 * written as one rule per producer op (the shape functions read them
 * through shape_fn.h's mf_sf_shape_tensor). */
#include "partial.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "array_util.h"

mf_partial *mf_partial_new(int n) {
  mf_partial *p = mf_malloc(sizeof *p + (size_t)n * sizeof p->v[0]);
  if (!p) return NULL;
  p->n = n;
  p->of_shape = false;
  for (int i = 0; i < n; i++) p->v[i] = -1;
  return p;
}

mf_partial *mf_partial_clone(const mf_partial *p) {
  if (!p) return NULL;
  mf_partial *q = mf_malloc(sizeof *q + (size_t)p->n * sizeof q->v[0]);
  if (q) memcpy(q, p, sizeof *q + (size_t)p->n * sizeof q->v[0]);
  return q;
}

void mf_partial_free(mf_partial *p) { free(p); }

const mf_partial *mf_input_partial(const mf_op_call *c, int i) {
  return c->in_partial ? c->in_partial[i] : NULL;
}

/* What is known of vector input i element by element: its value, its
 * partial value, or (all unknown) its length. False when its length is not
 * known, or it is no integer vector of at most `cap` elements. */
static bool elements(const mf_op_call *c, int i, int64_t *v, int cap, int *n) {
  const mf_spec *s = &c->in_specs[i];
  if (!mf_dtype_is_integer(s->dtype) || s->rank != 1 || s->shape[0] < 0 || s->shape[0] > cap)
    return false;
  *n = (int)s->shape[0];
  const mf_partial *p = mf_input_partial(c, i);
  if (c->in[i] && c->in[i]->size == *n) {
    for (int k = 0; k < *n; k++) v[k] = mf_tensor_get_i64(c->in[i], k);
  } else if (p && p->n == *n) {
    memcpy(v, p->v, (size_t)*n * sizeof *v);
  } else {
    for (int k = 0; k < *n; k++) v[k] = -1;
  }
  return true;
}

/* Output 0 (an integer vector) is known as v[0..n) when some element is:
 * sets the call's partial value. */
static mf_status set_partial(mf_op_call *c, const int64_t *v, int n, bool of_shape,
                             mf_error *err) {
  const mf_spec *o = &c->out_specs[0];
  if (c->nout < 1 || c->out_values[0] || !mf_dtype_is_integer(o->dtype) || o->rank != 1 ||
      (o->shape[0] >= 0 && o->shape[0] != n))
    return MF_OK;
  bool informative = false;
  for (int k = 0; k < n; k++) informative = informative || v[k] != -1;
  if (!informative) return MF_OK;
  mf_partial *p = mf_partial_new(n);
  if (!p) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  memcpy(p->v, v, (size_t)n * sizeof *v);
  p->of_shape = of_shape;
  mf_partial_free(c->out_partials[0]);
  c->out_partials[0] = p;
  return MF_OK;
}

/* Output k is the integer scalar v (TF's TryInferFromShapes). */
static mf_status set_known_scalar(mf_op_call *c, int k, int64_t v, mf_error *err) {
  const mf_spec *o = &c->out_specs[k];
  if (c->out_values[k] || !mf_dtype_is_integer(o->dtype) || o->rank != 0 ||
      (o->dtype == MF_INT32 && v > INT32_MAX))
    return MF_OK;
  return mf_tensor_scalar_i64(o->dtype, v, &c->out_values[k], err);
}

/* ---- the producers ---- */

/* Shape: the input's dimensions (ConstantPartialShape's src_op == "Shape"). */
mf_status mf_partial_shape(mf_op_call *c, mf_error *err) {
  const mf_spec *x = &c->in_specs[0];
  if (x->rank < 0) return MF_OK;
  return set_partial(c, x->shape, x->rank, true, err);
}

/* Pack of scalars: each element whose value is known (negative ones say
 * nothing: TF's `size < 0 ? UnknownDim() : MakeDim(size)`). */
mf_status mf_partial_pack(mf_op_call *c, mf_error *err) {
  int64_t v[MF_PARTIAL_MAX];
  if (c->nin > MF_PARTIAL_MAX) return MF_OK;
  for (int i = 0; i < c->nin; i++) {
    const mf_tensor *t = c->in[i];
    v[i] = t && t->size == 1 && mf_dtype_is_integer(t->dtype) ? mf_tensor_get_i64(t, 0) : -1;
    if (v[i] < 0) v[i] = -1;
  }
  return set_partial(c, v, c->nin, false, err);
}

/* ConcatV2 of vectors: their elements in turn; nothing when the length of
 * one is not known (TF: an unknown shape). */
mf_status mf_partial_concat(mf_op_call *c, mf_error *err) {
  int64_t v[MF_PARTIAL_MAX];
  int n = 0;
  for (int i = 0; i < c->nin - 1; i++) {
    int len;
    if (!elements(c, i, v + n, MF_PARTIAL_MAX - n, &len)) return MF_OK;
    n += len;
  }
  return set_partial(c, v, n, false, err);
}

/* Input i is a known integer vector of one element: sets *v. */
static bool one_int(const mf_op_call *c, int i, int64_t *v) {
  const mf_tensor *t = c->in[i];
  if (!t || t->rank != 1 || t->size != 1 || !mf_dtype_is_integer(t->dtype)) return false;
  *v = mf_tensor_get_i64(t, 0);
  return true;
}

/* Python's slice(start, stop, step).indices(n) applied to v[0..n): the
 * elements taken, into out. has_start/has_stop false: the bound is
 * omitted (a mask bit). */
static int python_slice(const int64_t *v, int n, bool has_start, int64_t start, bool has_stop,
                        int64_t stop, int64_t step, int64_t *out) {
  int64_t lo = step < 0 ? -1 : 0, hi = step < 0 ? n - 1 : n;
  int64_t b = has_start ? start : step < 0 ? hi : lo;
  int64_t e = has_stop ? stop : step < 0 ? lo : hi;
  if (has_start) {
    if (b < 0) b += n;
    b = b < lo ? lo : b > hi ? hi : b;
  }
  if (has_stop) {
    if (e < 0) e += n;
    e = e < lo ? lo : e > hi ? hi : e;
  }
  int m = 0;
  for (int64_t i = b; step > 0 ? i < e : i > e; i += step) out[m++] = v[i];
  return m;
}

/* StridedSlice. A single element of a Shape's output (shrink_axis_mask 1,
 * no other mask) is a constant where that dimension is known
 * (eval_const_tensor.cc TryInferFromShapes, GetSliceIndex). A
 * one-dimensional begin:end:stride slice with known bounds (masks: begin
 * and end only) takes the elements it selects of what is known of the
 * input (shape_refiner.cc PartialStridedSliceShape), counted as Python's
 * constant_value_as_shape slices them: TF's C++ refiner reads a masked end
 * as INT64_MAX whatever the stride's sign and refuses the negative strides
 * Python takes ([2::-1]). */
mf_status mf_partial_strided_slice(mf_op_call *c, mf_error *err) {
  int64_t begin_mask = mf_attr_int(c->attrs, "begin_mask", 0);
  int64_t end_mask = mf_attr_int(c->attrs, "end_mask", 0);
  int64_t others = mf_attr_int(c->attrs, "ellipsis_mask", 0) | mf_attr_int(c->attrs, "new_axis_mask", 0);
  int64_t shrink = mf_attr_int(c->attrs, "shrink_axis_mask", 0);
  const mf_partial *x = mf_input_partial(c, 0);
  int64_t b, e, s;
  if (shrink == 1 && begin_mask == 0 && end_mask == 0 && others == 0) {
    if (!x || !x->of_shape || !one_int(c, 1, &b) || b < -x->n || b >= x->n) return MF_OK;
    int64_t d = x->v[b < 0 ? b + x->n : b];
    return d >= 0 ? set_known_scalar(c, 0, d, err) : MF_OK;
  }
  if ((begin_mask & ~1) || (end_mask & ~1) || others || shrink) return MF_OK;
  bool has_b = !begin_mask, has_e = !end_mask;
  if ((has_b && !one_int(c, 1, &b)) || (has_e && !one_int(c, 2, &e)) || !one_int(c, 3, &s) ||
      s == 0)
    return MF_OK;
  int64_t v[MF_PARTIAL_MAX], out[MF_PARTIAL_MAX];
  int n;
  if (!elements(c, 0, v, MF_PARTIAL_MAX, &n)) return MF_OK;
  int m = python_slice(v, n, has_b, has_b ? b : 0, has_e, has_e ? e : 0, s, out);
  return set_partial(c, out, m, false, err);
}

/* Cast between integer types: the input's elements (TF: Cast to int32 or
 * int64 keeps the partial shape of its input). */
mf_status mf_partial_cast(mf_op_call *c, mf_error *err) {
  int64_t v[MF_PARTIAL_MAX];
  int n;
  if (!mf_input_partial(c, 0) || !elements(c, 0, v, MF_PARTIAL_MAX, &n)) return MF_OK;
  return set_partial(c, v, n, false, err);
}

/* Unpack along axis 0 of a Shape's output: the known dimensions are
 * constants (TryInferFromShapes: tf.unstack(tf.shape(x))[i]). */
mf_status mf_partial_unpack(mf_op_call *c, mf_error *err) {
  const mf_partial *x = mf_input_partial(c, 0);
  if (!x || !x->of_shape || mf_attr_int(c->attrs, "axis", 0) != 0 || x->n != c->nout) return MF_OK;
  for (int k = 0; k < c->nout; k++)
    if (x->v[k] >= 0) MF_TRY(set_known_scalar(c, k, x->v[k], err));
  return MF_OK;
}
