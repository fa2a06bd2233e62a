/* ops_nn.c — neural-network building blocks over the last (class or
 * channel) axis: Softmax, LogSoftmax, the two softmax cross-entropy losses
 * (which also return the gradient, as TF's kernels do), BiasAdd and its
 * gradient BiasAddGrad. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "broadcast.h"
#include "interrupt.h"
#include "kernel_util.h"
#include "op.h"
#include "shape_fn.h"

/* Rows of long reductions between interrupt polls. */
#define POLL_ROWS 1024

/* Row kernels, defined once per float type. Every row is shifted by its
 * maximum before exponentiating so large logits cannot overflow; `fc`/`lc`
 * are column strides (0 when a cross-entropy operand broadcasts). */
#define DEFINE_ROW_KERNELS(SUF, T, EXP, LOG)                                                   \
  /* The row's maximum into *mx; returns sum(exp(x - max)). */                                 \
  static T row_max_sum_##SUF(const T *x, int64_t fc, int64_t n, T *mx) {                      \
    T m = x[0];                                                                                \
    for (int64_t j = 1; j < n; j++)                                                            \
      if (x[j * fc] > m) m = x[j * fc];                                                        \
    T sum = 0;                                                                                 \
    for (int64_t j = 0; j < n; j++) sum += EXP(x[j * fc] - m);                                 \
    *mx = m;                                                                                   \
    return sum;                                                                                \
  }                                                                                            \
  static mf_status softmax_rows_##SUF(const T *x, T *y, int64_t rows, int64_t n, bool log_out,  \
                                      mf_error *err) {                                         \
    for (int64_t i = 0; i < rows; i++, x += n, y += n) {                                       \
      if (i % POLL_ROWS == 0) MF_TRY(mf_interrupt_check(err));                                 \
      if (log_out) {                                                                           \
        T m, lse = LOG(row_max_sum_##SUF(x, 1, n, &m));                                        \
        for (int64_t j = 0; j < n; j++) y[j] = x[j] - m - lse;                                 \
      } else {                                                                                 \
        T m = x[0], sum = 0;                                                                   \
        for (int64_t j = 1; j < n; j++)                                                        \
          if (x[j] > m) m = x[j];                                                              \
        for (int64_t j = 0; j < n; j++) sum += y[j] = EXP(x[j] - m);                           \
        for (int64_t j = 0; j < n; j++) y[j] /= sum;                                           \
      }                                                                                        \
    }                                                                                          \
    return MF_OK;                                                                              \
  }                                                                                            \
  /* loss = sum(labels * (lse - shifted)); backprop = softmax - labels. */                     \
  static mf_status xent_rows_##SUF(const T *f, int64_t fr, int64_t fc, const T *l, int64_t lr, \
                                   int64_t lc, int64_t rows, int64_t n, T *loss, T *back,      \
                                   mf_error *err) {                                            \
    for (int64_t i = 0; i < rows; i++, back += n) {                                            \
      if (i % POLL_ROWS == 0) MF_TRY(mf_interrupt_check(err));                                 \
      const T *x = f + i * fr, *y = l + i * lr;                                                \
      loss[i] = 0;                                                                             \
      if (n == 0) continue;                                                                    \
      T m, sum = row_max_sum_##SUF(x, fc, n, &m), lse = LOG(sum);                              \
      for (int64_t j = 0; j < n; j++) {                                                        \
        T shifted = x[j * fc] - m;                                                             \
        loss[i] += y[j * lc] * (lse - shifted);                                                \
        back[j] = EXP(shifted) / sum - y[j * lc];                                              \
      }                                                                                        \
    }                                                                                          \
    return MF_OK;                                                                              \
  }                                                                                            \
  /* The same with one-hot labels given as (already checked) class indices. */                \
  static mf_status sparse_xent_rows_##SUF(const T *x, const mf_tensor *labels, int64_t rows,   \
                                          int64_t n, T *loss, T *back, mf_error *err) {        \
    for (int64_t i = 0; i < rows; i++, x += n, back += n) {                                    \
      if (i % POLL_ROWS == 0) MF_TRY(mf_interrupt_check(err));                                 \
      int64_t label = mf_tensor_get_i64(labels, i);                                            \
      T m, sum = row_max_sum_##SUF(x, 1, n, &m);                                               \
      loss[i] = LOG(sum) - (x[label] - m);                                                     \
      for (int64_t j = 0; j < n; j++) back[j] = EXP(x[j] - m) / sum - (j == label);            \
    }                                                                                          \
    return MF_OK;                                                                              \
  }
DEFINE_ROW_KERNELS(f32, float, expf, logf)
DEFINE_ROW_KERNELS(f64, double, exp, log)
#undef DEFINE_ROW_KERNELS

static mf_status check_float(mf_op_call *c, int i, mf_error *err) {
  return mf_infer_check_dtype(c, i, mf_dtype_is_float, "float", err);
}

static void shape_str(const mf_spec *s, char *buf, size_t n) {
  mf_shape_debug(s->rank, s->shape, buf, n);
}

/* ---- Softmax, LogSoftmax ---- */

extern const mf_op_def mf_op_LogSoftmax;

static mf_status softmax_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(check_float(c, 0, err));
  /* While a graph is built: TF's UnchangedShapeWithRankAtLeast(c, 1). */
  if (c->building) MF_TRY(mf_sf_with_rank_at_least(c->in_specs[0].rank, 1, err));
  if (c->in_specs[0].rank == 0)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "logits must have >= 1 dimension, got [] [Op:%s]", c->op->name);
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  c->out_specs[0] = c->in_specs[0];
  return MF_OK;
}

static mf_status softmax_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *x = c->in[0];
  mf_tensor *y;
  MF_TRY(mf_op_alloc_output(c, 0, &y, err));
  int64_t n = x->shape[x->rank - 1], rows = n ? x->size / n : 0;
  bool log_out = c->op == &mf_op_LogSoftmax;
  if (x->dtype == MF_FLOAT32)
    return softmax_rows_f32(mf_tensor_data(x), mf_tensor_data(y), rows, n, log_out, err);
  return softmax_rows_f64(mf_tensor_data(x), mf_tensor_data(y), rows, n, log_out, err);
}

const mf_op_def mf_op_Softmax = {
    .name = "Softmax", .input_names = "logits", .min_inputs = 1, .max_inputs = 1,
    .infer = softmax_infer, .kernel = softmax_kernel, .flags = 0,
    .doc = "exp(logits) / sum(exp(logits)) over the last axis.",
    .tf_attrs = "T:0",
};

const mf_op_def mf_op_LogSoftmax = {
    .name = "LogSoftmax", .input_names = "logits", .min_inputs = 1, .max_inputs = 1,
    .infer = softmax_infer, .kernel = softmax_kernel, .flags = 0,
    .doc = "logits - log(sum(exp(logits))) over the last axis.",
    .tf_attrs = "T:0",
};

/* ---- SoftmaxCrossEntropyWithLogits ---- */

/* features and labels broadcast against each other to a matrix, as TF's
 * kernel allows; dims (of rank 2) receive the broadcast shape. */
static mf_status xent_shape(const mf_op_call *c, int64_t *dims, mf_error *err) {
  const mf_spec *f = &c->in_specs[0], *l = &c->in_specs[1];
  int64_t out[MF_MAX_RANK];
  int r;
  dims[0] = dims[1] = -1;
  if (mf_broadcast_shape(f->rank, f->shape, l->rank, l->shape, &r, out, NULL, NULL) != MF_OK) {
    char a[160], b[160];
    shape_str(f, a, sizeof a);
    shape_str(l, b, sizeof b);
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "logits and labels must be broadcastable: logits_size=%s "
                        "labels_size=%s [Op:SoftmaxCrossEntropyWithLogits]",
                        a, b);
  }
  if (r == 2) {
    dims[0] = out[0];
    dims[1] = out[1];
    return MF_OK;
  }
  if (r < 0 && f->rank <= 2 && l->rank <= 2) return MF_OK; /* a rank is unknown */
  return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                      "logits and labels must be either 2-dimensional, or broadcasted to be "
                      "2-dimensional [Op:SoftmaxCrossEntropyWithLogits]");
}

static mf_status xent_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(mf_infer_same_dtype(c, 0, 2, err));
  MF_TRY(check_float(c, 0, err));
  int64_t dims[2];
  MF_TRY(xent_shape(c, dims, err));
  MF_TRY(mf_op_call_set_nout(c, 2, err));
  mf_dtype dt = c->in_specs[0].dtype;
  c->out_specs[0] = (mf_spec){.dtype = dt, .rank = 1, .shape = {dims[0]}};
  c->out_specs[1] = (mf_spec){.dtype = dt, .rank = 2, .shape = {dims[0], dims[1]}};
  return MF_OK;
}

/* Row and column strides of t inside the broadcast [rows, cols] matrix. */
static void matrix_strides(const mf_tensor *t, int64_t *rs, int64_t *cs) {
  int64_t d0 = t->rank >= 2 ? t->shape[t->rank - 2] : 1;
  int64_t d1 = t->rank >= 1 ? t->shape[t->rank - 1] : 1;
  *rs = d0 == 1 ? 0 : d1;
  *cs = d1 == 1 ? 0 : 1;
}

static mf_status xent_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *f = c->in[0], *l = c->in[1];
  mf_tensor *loss, *back;
  MF_TRY(mf_op_alloc_output(c, 0, &loss, err));
  MF_TRY(mf_op_alloc_output(c, 1, &back, err));
  int64_t fr, fc, lr, lc, rows = back->shape[0], n = back->shape[1];
  matrix_strides(f, &fr, &fc);
  matrix_strides(l, &lr, &lc);
  if (f->dtype == MF_FLOAT32)
    return xent_rows_f32(mf_tensor_data(f), fr, fc, mf_tensor_data(l), lr, lc, rows, n,
                         mf_tensor_data(loss), mf_tensor_data(back), err);
  return xent_rows_f64(mf_tensor_data(f), fr, fc, mf_tensor_data(l), lr, lc, rows, n,
                       mf_tensor_data(loss), mf_tensor_data(back), err);
}

const mf_op_def mf_op_SoftmaxCrossEntropyWithLogits = {
    .name = "SoftmaxCrossEntropyWithLogits", .input_names = "features,labels",
    .min_inputs = 2, .max_inputs = 2,
    .infer = xent_infer, .kernel = xent_kernel, .flags = 0,
    .doc = "Softmax cross-entropy per row against label distributions; also returns its "
           "gradient.",
    .tf_attrs = "T:0",
};

/* ---- SparseSoftmaxCrossEntropyWithLogits ---- */

static mf_status sparse_xent_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(check_float(c, 0, err));
  MF_TRY(mf_infer_check_dtype(c, 1, mf_dtype_is_integer, "integer", err));
  const mf_spec *f = &c->in_specs[0], *l = &c->in_specs[1];
  char a[160], b[160];
  shape_str(f, a, sizeof a);
  shape_str(l, b, sizeof b);
  if (f->rank >= 0 && f->rank != 2)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "logits must be 2-D, but got shape %s "
                        "[Op:SparseSoftmaxCrossEntropyWithLogits]", a);
  if (l->rank >= 0 && l->rank != 1)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "labels must be 1-D, but got shape %s "
                        "[Op:SparseSoftmaxCrossEntropyWithLogits]", b);
  int64_t batch = f->rank == 2 ? f->shape[0] : -1, classes = f->rank == 2 ? f->shape[1] : -1;
  int64_t lbatch = l->rank == 1 ? l->shape[0] : -1;
  if (batch >= 0 && lbatch >= 0 && batch != lbatch)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "logits and labels must have the same first dimension, got logits "
                        "shape %s and labels shape %s [Op:SparseSoftmaxCrossEntropyWithLogits]",
                        a, b);
  if (batch < 0) batch = lbatch;
  if (classes == 0 && batch > 0)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Must have at least one class, but got logits shape %s "
                        "[Op:SparseSoftmaxCrossEntropyWithLogits]", a);
  MF_TRY(mf_op_call_set_nout(c, 2, err));
  c->out_specs[0] = (mf_spec){.dtype = f->dtype, .rank = 1, .shape = {batch}};
  c->out_specs[1] = (mf_spec){.dtype = f->dtype, .rank = 2, .shape = {batch, classes}};
  return MF_OK;
}

/* TF's message, which lists the label values (as many as fit). */
static mf_status bad_label(const mf_tensor *labels, int64_t bad, int64_t classes, mf_error *err) {
  char vals[700];
  size_t used = 0;
  vals[0] = '\0';
  for (int64_t i = 0; i < labels->size; i++) {
    int w = snprintf(vals + used, sizeof vals - used, "%s%lld", i ? " " : "",
                     (long long)mf_tensor_get_i64(labels, i));
    if (w < 0 || (size_t)w >= sizeof vals - used - 4) {
      snprintf(vals + used, sizeof vals - used, "...");
      break;
    }
    used += (size_t)w;
  }
  return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                      "Received a label value of %lld which is outside the valid range of [0, "
                      "%lld).  Label values: %s [Op:SparseSoftmaxCrossEntropyWithLogits]",
                      (long long)bad, (long long)classes, vals);
}

static mf_status sparse_xent_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *f = c->in[0], *l = c->in[1];
  int64_t rows = f->shape[0], n = f->shape[1];
  for (int64_t i = 0; i < l->size; i++) {
    int64_t v = mf_tensor_get_i64(l, i);
    if (v < 0 || v >= n) return bad_label(l, v, n, err);
  }
  mf_tensor *loss, *back;
  MF_TRY(mf_op_alloc_output(c, 0, &loss, err));
  MF_TRY(mf_op_alloc_output(c, 1, &back, err));
  if (f->dtype == MF_FLOAT32)
    return sparse_xent_rows_f32(mf_tensor_data(f), l, rows, n, mf_tensor_data(loss),
                                mf_tensor_data(back), err);
  return sparse_xent_rows_f64(mf_tensor_data(f), l, rows, n, mf_tensor_data(loss),
                              mf_tensor_data(back), err);
}

const mf_op_def mf_op_SparseSoftmaxCrossEntropyWithLogits = {
    .name = "SparseSoftmaxCrossEntropyWithLogits", .input_names = "features,labels",
    .min_inputs = 2, .max_inputs = 2,
    .infer = sparse_xent_infer, .kernel = sparse_xent_kernel, .flags = 0,
    .doc = "Softmax cross-entropy per row against integer class labels; also returns its "
           "gradient.",
    .tf_attrs = "T:0 Tlabels:1",
};

/* ---- BiasAdd, BiasAddGrad ---- */

/* The channel axis for data_format: last for NHWC (the default), 1 for
 * NCHW. -1 (and an error) for anything else. */
static mf_status channel_axis(const mf_op_call *c, int rank, int *axis, mf_error *err) {
  const char *fmt = mf_attr_string(c->attrs, "data_format", "NHWC");
  if (strcmp(fmt, "NHWC") == 0) *axis = rank - 1;
  else if (strcmp(fmt, "NCHW") == 0) *axis = 1;
  else
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Value for attr 'data_format' of \"%s\" is not in the list of allowed "
                        "values: \"NHWC\", \"NCHW\" [Op:%s]",
                        fmt, c->op->name);
  return MF_OK;
}

static mf_status check_at_least_2d(const mf_op_call *c, const mf_spec *s, mf_error *err) {
  if (s->rank < 0 || s->rank >= 2) return MF_OK;
  char a[160];
  shape_str(s, a, sizeof a);
  return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                      "Input tensor must be at least 2D: %s [Op:%s]", a, c->op->name);
}

static mf_status bias_add_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(mf_infer_same_dtype(c, 0, 2, err));
  MF_TRY(mf_infer_check_dtype(c, 0, mf_dtype_is_numeric, "numeric", err));
  const mf_spec *v = &c->in_specs[0], *b = &c->in_specs[1];
  char a[160], bs[160];
  shape_str(v, a, sizeof a);
  shape_str(b, bs, sizeof bs);
  if (c->building) {
    /* TF's BiasAddShape, its messages */
    bool nchw = strcmp(mf_attr_string(c->attrs, "data_format", "NHWC"), "NCHW") == 0;
    MF_TRY(mf_sf_with_rank_at_least(v->rank, nchw ? 3 : 2, err));
    MF_TRY(mf_sf_with_rank(b->rank, 1, err));
    if (v->rank >= 0 && b->rank == 1)
      MF_TRY(mf_sf_merge_dim(v->shape[nchw ? 1 : v->rank - 1], b->shape[0], NULL, err));
  }
  MF_TRY(check_at_least_2d(c, v, err));
  if (b->rank >= 0 && b->rank != 1)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Biases must be 1D: %s [Op:BiasAdd]", bs);
  int axis = -1;
  if (v->rank >= 0) MF_TRY(channel_axis(c, v->rank, &axis, err));
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  c->out_specs[0] = *v;
  if (axis < 0 || b->rank != 1) return MF_OK;
  int64_t ch = v->shape[axis], nb = b->shape[0];
  if (ch >= 0 && nb >= 0 && ch != nb)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Must provide as many biases as the last dimension of the input "
                        "tensor: %s vs. %s [Op:BiasAdd]",
                        bs, a);
  if (ch < 0) c->out_specs[0].shape[axis] = nb;
  return MF_OK;
}

/* Views t as [outer, channels, inner] around the channel axis. */
static mf_status channel_layout(const mf_op_call *c, const mf_tensor *t, int64_t *outer,
                                int64_t *ch, int64_t *inner, mf_error *err) {
  int axis;
  MF_TRY(channel_axis(c, t->rank, &axis, err));
  *outer = *inner = 1;
  for (int i = 0; i < axis; i++) *outer *= t->shape[i];
  for (int i = axis + 1; i < t->rank; i++) *inner *= t->shape[i];
  *ch = t->shape[axis];
  return MF_OK;
}

static mf_status bias_add_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *v = c->in[0], *b = c->in[1];
  int64_t outer, ch, inner;
  MF_TRY(channel_layout(c, v, &outer, &ch, &inner, err));
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  /* Integers add in their unsigned twin so overflow wraps. */
#define CASE(DT, T, U)                                                        \
  case DT: {                                                                  \
    const T *x = mf_tensor_data(v), *bias = mf_tensor_data(b);                \
    T *y = mf_tensor_data(out);                                               \
    for (int64_t o = 0; o < outer; o++) {                                     \
      if (o % POLL_ROWS == 0) MF_TRY(mf_interrupt_check(err));                \
      for (int64_t k = 0; k < ch; k++, x += inner, y += inner)                \
        for (int64_t i = 0; i < inner; i++) y[i] = (T)((U)x[i] + (U)bias[k]); \
    }                                                                         \
    break;                                                                    \
  }
  switch (v->dtype) {
    CASE(MF_FLOAT32, float, float)
    CASE(MF_FLOAT64, double, double)
    CASE(MF_INT32, int32_t, uint32_t)
    CASE(MF_INT64, int64_t, uint64_t)
    default: break;
  }
#undef CASE
  return MF_OK;
}

const mf_op_def mf_op_BiasAdd = {
    .name = "BiasAdd", .input_names = "value,bias", .min_inputs = 2, .max_inputs = 2,
    .attrs = {{"data_format", MF_ATTR_STRING}},
    .infer = bias_add_infer, .kernel = bias_add_kernel, .flags = 0,
    .doc = "Adds a 1-D bias along the channel (last, for NHWC) axis of value.",
    .tf_attrs = "T:0 data_format=\"NHWC\"",
};

static mf_status bias_add_grad_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(mf_infer_check_dtype(c, 0, mf_dtype_is_numeric, "numeric", err));
  const mf_spec *g = &c->in_specs[0];
  MF_TRY(check_at_least_2d(c, g, err));
  int axis = -1;
  if (g->rank >= 0) MF_TRY(channel_axis(c, g->rank, &axis, err));
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  c->out_specs[0] =
      (mf_spec){.dtype = g->dtype, .rank = 1, .shape = {axis >= 0 ? g->shape[axis] : -1}};
  return MF_OK;
}

static mf_status bias_add_grad_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *g = c->in[0];
  int64_t outer, ch, inner;
  MF_TRY(channel_layout(c, g, &outer, &ch, &inner, err));
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  /* Sums accumulate in double for floats (long reductions lose bits in
   * float32) and in the unsigned twin for integers (overflow wraps). */
#define CASE(DT, T, ACC)                                                  \
  case DT: {                                                              \
    ACC *acc;                                                             \
    MF_TRY(mf_scratch_alloc((size_t)ch, sizeof *acc, (void **)&acc, err)); \
    for (int64_t k = 0; k < ch; k++) acc[k] = 0;                          \
    const T *x = mf_tensor_data(g);                                       \
    for (int64_t o = 0; o < outer; o++) {                                 \
      mf_status st = o % POLL_ROWS ? MF_OK : mf_interrupt_check(err);     \
      if (st != MF_OK) {                                                  \
        free(acc);                                                        \
        return st;                                                        \
      }                                                                   \
      for (int64_t k = 0; k < ch; k++, x += inner)                        \
        for (int64_t i = 0; i < inner; i++) acc[k] += (ACC)x[i];          \
    }                                                                     \
    T *y = mf_tensor_data(out);                                           \
    for (int64_t k = 0; k < ch; k++) y[k] = (T)acc[k];                    \
    free(acc);                                                            \
    break;                                                                \
  }
  switch (g->dtype) {
    CASE(MF_FLOAT32, float, double)
    CASE(MF_FLOAT64, double, double)
    CASE(MF_INT32, int32_t, uint32_t)
    CASE(MF_INT64, int64_t, uint64_t)
    default: break;
  }
#undef CASE
  return MF_OK;
}

const mf_op_def mf_op_BiasAddGrad = {
    .name = "BiasAddGrad", .input_names = "out_backprop", .min_inputs = 1, .max_inputs = 1,
    .attrs = {{"data_format", MF_ATTR_STRING}},
    .infer = bias_add_grad_infer, .kernel = bias_add_grad_kernel, .flags = 0,
    .doc = "The gradient of BiasAdd for its bias: out_backprop summed over all but the "
           "channel axis.",
    .tf_attrs = "T:0 data_format=\"NHWC\"",
};
