/* ops_pad.c — ops that pad a tensor: Pad (a constant border), MirrorPad
 * (a border mirrored from the input, REFLECT or SYMMETRIC) and its gradient
 * MirrorPadGrad (which folds a padded gradient back onto the input).
 *
 * As in ops_shape.c, paddings are an input tensor: infer computes the
 * padded shape when their values are known (Const or eager) and does all
 * validation; the kernels re-read the values their copy needs. */
#include <stdlib.h>
#include <string.h>

#include "array_util.h"
#include "op.h"
#include "shape_fn.h"

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

/* ---- MirrorPad, MirrorPadGrad ---- */

/* TF's kernels take tensors of rank 0 to 5 only (kMaxDims). */
enum { MIRROR_MAX_RANK = 5 };

extern const mf_op_def mf_op_MirrorPadGrad;

/* The mode attribute as TF's MirrorPadMode: the offset of the mirror from
 * the border, 1 for REFLECT (the border is not repeated), 0 for SYMMETRIC
 * (it is). The op's attr takes the upper-case names only; tf.pad
 * upper-cases what the user gives. */
static mf_status mirror_offset(const mf_op_call *c, int *offset, mf_error *err) {
  const char *mode = mf_attr_string(c->attrs, "mode", "");
  if (strcmp(mode, "REFLECT") == 0) *offset = 1;
  else if (strcmp(mode, "SYMMETRIC") == 0) *offset = 0;
  else
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "mode must be either REFLECT or SYMMETRIC.");
  return MF_OK;
}

/* The checks both kernels make before they read paddings' values (TF's
 * MirrorPadOp and MirrorPadGradOp, whose rank message differs by a comma). */
static mf_status mirror_check_ranks(mf_op_call *c, mf_error *err) {
  const mf_spec *x = &c->in_specs[0], *p = &c->in_specs[1];
  bool grad = c->op == &mf_op_MirrorPadGrad;
  if (x->rank > MIRROR_MAX_RANK)
    return mf_op_fail(c, err, MF_ERR_UNIMPLEMENTED, "inputs rank not in [0,%d]: %d",
                      MIRROR_MAX_RANK, x->rank);
  if ((p->rank >= 0 && p->rank != 2) || (p->rank == 2 && p->shape[1] >= 0 && p->shape[1] != 2))
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "paddings must be a matrix with 2 columns: %s", MF_SPEC_TEXT(p));
  if (x->rank >= 0 && p->rank == 2 && p->shape[0] >= 0 && p->shape[0] != x->rank)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "The first dimension of paddings must be the rank of inputs%s%s%s",
                      MF_SPEC_TEXT(p), grad ? " " : ", ", MF_SPEC_TEXT(x));
  return MF_OK;
}

/* TF's mirror limits on one dimension's paddings: REFLECT (offset 1) needs
 * each below `limit`, SYMMETRIC (offset 0) each at most `limit`; `what`
 * names the limit as each kernel does. */
static mf_status mirror_check_limit(mf_op_call *c, int offset, int64_t lo, int64_t hi, int64_t limit,
                                    const char *what, mf_error *err) {
  if (offset == 0 && (lo > limit || hi > limit))
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "paddings must be no greater than the %s: %lld, %lld greater than %lld", what,
                      (long long)lo, (long long)hi, (long long)limit);
  if (offset == 1 && (lo >= limit || hi >= limit))
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "paddings must be less than the %s: %lld, %lld not less than %lld", what,
                      (long long)lo, (long long)hi, (long long)limit);
  return MF_OK;
}

/* Reads paddings' values into v and makes the rank checks both kernels
 * share. *ready: the values and the input's rank are known (v then holds
 * 2 * rank values); else the caller declares an output of the input's
 * rank only. */
static mf_status mirror_paddings(mf_op_call *c, int64_t *v, bool *ready, mf_error *err) {
  const mf_spec *x = &c->in_specs[0];
  int n;
  bool known;
  MF_TRY(mf_input_ints(c, 1, v, MF_MAX_INT_INPUT, &n, &known, err));
  MF_TRY(mirror_check_ranks(c, err));
  *ready = known && x->rank >= 0;
  if (*ready && n != 2 * x->rank)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "paddings must be a matrix with 2 columns: %s",
                      MF_SPEC_TEXT(&c->in_specs[1]));
  return MF_OK;
}

/* MirrorPad's kernel checks, as eager inference: TF's MirrorPadOp refuses
 * paddings that reach past the mirror (REFLECT: each < the dimension;
 * SYMMETRIC: each <= it). While paddings are unknown it declares an output
 * of the input's rank. */
static mf_status mirror_pad_infer_eager(mf_op_call *c, mf_error *err) {
  const mf_spec *x = &c->in_specs[0];
  int offset;
  MF_TRY(mirror_offset(c, &offset, err));
  int64_t v[MF_MAX_INT_INPUT];
  bool ready;
  MF_TRY(mirror_paddings(c, v, &ready, err));
  if (!ready) return mf_infer_output(c, x->dtype, x->rank, NULL, err);
  int64_t shape[MF_MAX_RANK];
  for (int i = 0; i < x->rank; i++) {
    int64_t lo = v[2 * i], hi = v[2 * i + 1], d = x->shape[i];
    if (lo < 0 || hi < 0)
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "paddings must be non-negative: %lld %lld",
                        (long long)lo, (long long)hi);
    if (d < 0) {
      shape[i] = MF_UNKNOWN_DIM;
      continue;
    }
    MF_TRY(mirror_check_limit(c, offset, lo, hi, d, "dimension size", err));
    if (__builtin_add_overflow(d, lo, &shape[i]) || __builtin_add_overflow(shape[i], hi, &shape[i]))
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "padded dimension %d overflows", i);
  }
  return mf_infer_output(c, x->dtype, x->rank, shape, err);
}

/* While a graph is built MirrorPad's shape function is Pad's (TF registers
 * MirrorPad with PadShapeFn); the mirror's limits are the kernel's. */
static mf_status mirror_pad_infer(mf_op_call *c, mf_error *err) {
  if (!c->building) return mirror_pad_infer_eager(c, err);
  MF_TRY(pad_infer(c, err));
  mf_infer_defer_check(c, mirror_pad_infer_eager);
  return MF_OK;
}

/* Where each padded position of one dimension reads from: the dimension's
 * three runs (before, the input, after) as (length, first source index,
 * source step). */
typedef struct mirror_runs {
  int64_t len[3], first[3], step[3];
} mirror_runs;

static void mirror_runs_of(int64_t d, int64_t lo, int64_t hi, int offset, mirror_runs *r) {
  r->len[0] = lo, r->first[0] = lo - 1 + offset, r->step[0] = -1;
  r->len[1] = d, r->first[1] = 0, r->step[1] = 1;
  r->len[2] = hi, r->first[2] = d - 1 - offset, r->step[2] = -1;
}

/* The output is 3^rank blocks (each dimension's before, middle and after
 * run), each a strided copy of the input whose mirrored dimensions walk
 * backwards: one mf_copy_strided per block, so strings are deep-copied as
 * everywhere else. */
static mf_status mirror_pad_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *x = c->in[0];
  int offset, n, r = x->rank;
  MF_TRY(mirror_offset(c, &offset, err));
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  if (out->size == 0) return MF_OK;
  int64_t v[2 * MF_MAX_RANK], os[MF_MAX_RANK], xs[MF_MAX_RANK];
  mf_infer_const_ints(c, 1, v, 2 * MF_MAX_RANK, &n);
  mf_strides_of(r, out->shape, os);
  mf_strides_of(r, x->shape, xs);
  mirror_runs runs[MF_MAX_RANK];
  for (int i = 0; i < r; i++) mirror_runs_of(x->shape[i], v[2 * i], v[2 * i + 1], offset, &runs[i]);
  int blocks = 1;
  for (int i = 0; i < r; i++) blocks *= 3;
  for (int b = 0; b < blocks; b++) {
    int64_t dims[MF_MAX_RANK], src[MF_MAX_RANK], dst_off = 0, src_off = 0;
    bool empty = false;
    for (int i = r - 1, k = b; i >= 0; i--, k /= 3) {
      int run = k % 3;
      const mirror_runs *m = &runs[i];
      dims[i] = m->len[run];
      empty |= dims[i] == 0;
      src[i] = m->step[run] * xs[i];
      src_off += m->first[run] * xs[i];
      dst_off += (run == 0 ? 0 : run == 1 ? m->len[0] : m->len[0] + m->len[1]) * os[i];
    }
    if (!empty) MF_TRY(mf_copy_strided(out, dst_off, os, x, src_off, src, r, dims, err));
  }
  return MF_OK;
}

const mf_op_def mf_op_MirrorPad = {
    .name = "MirrorPad", .input_names = "input,paddings", .min_inputs = 2, .max_inputs = 2,
    .attrs = {{"mode", MF_ATTR_STRING}},
    .infer = mirror_pad_infer, .kernel = mirror_pad_kernel, .flags = 0,
    .doc = "Pads each dimension i with paddings[i][0] values before and paddings[i][1] after, "
           "mirrored from the input (mode REFLECT: without the border; SYMMETRIC: with it).",
    .tf_attrs = "T:0 Tpaddings:1 mode",
};

static bool is_grad_dtype(mf_dtype dt) { return mf_dtype_is_numeric(dt); }

/* MirrorPadGrad's kernel checks, as eager inference (TF's MirrorPadGradOp):
 * the input is a padded gradient, the output the size it folds back to,
 * which the paddings must fit as they fit MirrorPad's input. */
static mf_status mirror_pad_grad_infer_eager(mf_op_call *c, mf_error *err) {
  const mf_spec *x = &c->in_specs[0];
  int offset;
  MF_TRY(mirror_offset(c, &offset, err));
  MF_TRY(mf_infer_check_dtype(c, 0, is_grad_dtype, "numeric", err));
  int64_t v[MF_MAX_INT_INPUT];
  bool ready;
  MF_TRY(mirror_paddings(c, v, &ready, err));
  if (!ready) return mf_infer_output(c, x->dtype, x->rank, NULL, err);
  int64_t shape[MF_MAX_RANK];
  for (int i = 0; i < x->rank; i++) {
    int64_t lo = v[2 * i], hi = v[2 * i + 1], d = x->shape[i];
    if (lo < 0 || hi < 0)
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                        "Paddings must be non-negative: %lld, %lld", (long long)lo, (long long)hi);
    if (d < 0) {
      shape[i] = MF_UNKNOWN_DIM;
      continue;
    }
    /* lo + hi may overflow only for paddings no fold could fit. */
    int64_t sum, size;
    if (__builtin_add_overflow(lo, hi, &sum)) sum = INT64_MAX;
    size = d - sum;
    MF_TRY(mirror_check_limit(c, offset, lo, hi, size, "output dimension size", err));
    shape[i] = size;
  }
  return mf_infer_output(c, x->dtype, x->rank, shape, err);
}

/* While a graph is built: TF's MirrorPadGrad shape function. paddings
 * must be a matrix; its row count, when known, is the rank; known values
 * fold each dimension (Subtract refuses a negative result). */
static mf_status mirror_pad_grad_shape_fn(mf_op_call *c, mf_error *err) {
  const mf_spec *x = &c->in_specs[0], *p = &c->in_specs[1];
  MF_TRY(mf_infer_check_dtype(c, 1, mf_dtype_is_integer, "int32 or int64", err));
  MF_TRY(mf_sf_with_rank(p->rank, 2, err));
  if (p->rank < 0 || p->shape[0] < 0) return mf_infer_output(c, x->dtype, -1, NULL, err);
  int64_t rank = p->shape[0];
  MF_TRY(mf_sf_with_rank(x->rank, rank, err));
  MF_TRY(mf_sf_merge(2, p->shape, 2, (int64_t[]){rank, 2}, err));
  if (rank > MF_MAX_RANK) return mf_infer_output(c, x->dtype, (int)rank, NULL, err);
  int64_t v[MF_MAX_INT_INPUT];
  int n;
  if (!mf_infer_const_ints(c, 1, v, MF_MAX_INT_INPUT, &n) || n != 2 * rank)
    return mf_infer_output(c, x->dtype, (int)rank, NULL, err);
  int64_t shape[MF_MAX_RANK];
  for (int i = 0; i < rank; i++) {
    int64_t lo = v[2 * i], hi = v[2 * i + 1], d = x->rank >= 0 ? x->shape[i] : MF_UNKNOWN_DIM;
    if (lo < 0 || hi < 0)
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "Paddings must be non-negative");
    if (d < 0) {
      shape[i] = MF_UNKNOWN_DIM;
      continue;
    }
    int64_t sum;
    if (__builtin_add_overflow(lo, hi, &sum)) sum = INT64_MAX;
    if (d < sum)
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                        "Negative dimension size caused by subtracting %lld from %lld",
                        (long long)sum, (long long)d);
    shape[i] = d - sum;
  }
  MF_TRY(mf_infer_output(c, x->dtype, (int)rank, shape, err));
  mf_infer_defer_check(c, mirror_pad_grad_infer_eager);
  return MF_OK;
}

static mf_status mirror_pad_grad_infer(mf_op_call *c, mf_error *err) {
  return c->building ? mirror_pad_grad_shape_fn(c, err) : mirror_pad_grad_infer_eager(c, err);
}

/* Adds the padded gradient's elements into the positions they were copied
 * from (in U, where integer sums wrap instead of overflowing): a walk over
 * the input with, per dimension, a table of the output index each padded
 * index folds to. */
#define FOLD_ADD(T, U)                                                             \
  do {                                                                             \
    const T *g = MF_DATA(dy, T);                                                   \
    T *o = MF_DATA(out, T);                                                        \
    for (int64_t e = 0; e < dy->size; e++) {                                       \
      o[dst] = (T)((U)o[dst] + (U)g[e]);                                          \
      for (int i = r - 1; i >= 0; i--) {                                           \
        dst -= map[i][idx[i]] * os[i];                                             \
        if (++idx[i] < dy->shape[i]) {                                             \
          dst += map[i][idx[i]] * os[i];                                           \
          break;                                                                   \
        }                                                                          \
        idx[i] = 0;                                                                \
        dst += map[i][0] * os[i];                                                  \
      }                                                                            \
    }                                                                              \
  } while (0)

static mf_status mirror_pad_grad_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *dy = c->in[0];
  int offset, n, r = dy->rank;
  MF_TRY(mirror_offset(c, &offset, err));
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  if (out->size == 0) return MF_OK;
  memset(mf_tensor_data(out), 0, (size_t)out->size * mf_dtype_size(out->dtype));
  int64_t v[2 * MF_MAX_RANK], os[MF_MAX_RANK], idx[MF_MAX_RANK] = {0}, *map[MF_MAX_RANK] = {0};
  int64_t total = 0, dst = 0;
  mf_infer_const_ints(c, 1, v, 2 * MF_MAX_RANK, &n);
  mf_strides_of(r, out->shape, os);
  for (int i = 0; i < r; i++) total += dy->shape[i];
  int64_t *table = malloc((size_t)(total > 0 ? total : 1) * sizeof *table);
  if (!table) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "MirrorPadGrad: out of memory");
  for (int64_t i = 0, at = 0; i < r; i++) {
    mirror_runs m;
    mirror_runs_of(out->shape[i], v[2 * i], v[2 * i + 1], offset, &m);
    map[i] = table + at;
    for (int run = 0, j = 0; run < 3; run++)
      for (int64_t k = 0; k < m.len[run]; k++) map[i][j++] = m.first[run] + k * m.step[run];
    at += dy->shape[i];
    dst += map[i][0] * os[i];
  }
  switch (dy->dtype) {
    case MF_FLOAT32: FOLD_ADD(float, float); break;
    case MF_FLOAT64: FOLD_ADD(double, double); break;
    case MF_INT32: FOLD_ADD(int32_t, uint32_t); break;
    case MF_INT64: FOLD_ADD(int64_t, uint64_t); break;
    default: break; /* inference admits the numeric dtypes only */
  }
  free(table);
  return MF_OK;
}
#undef FOLD_ADD

const mf_op_def mf_op_MirrorPadGrad = {
    .name = "MirrorPadGrad", .input_names = "input,paddings", .min_inputs = 2, .max_inputs = 2,
    .attrs = {{"mode", MF_ATTR_STRING}},
    .infer = mirror_pad_grad_infer, .kernel = mirror_pad_grad_kernel, .flags = 0,
    .doc = "Folds a MirrorPad'ed tensor back: each padded element is added to the input "
           "position it was mirrored from (MirrorPad's gradient).",
    .tf_attrs = "T:0 Tpaddings:1 mode",
};
