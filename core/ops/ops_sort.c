/* ops_sort.c — ops that order or accumulate along an axis: TopKV2 (what
 * tf.math.top_k, tf.sort and tf.argsort are built on, as in TF) and the
 * scans Cumsum and Cumprod.
 *
 * TopKV2 orders each row of the last axis by value, largest first, equal
 * values by position (TF's stable comparator), so a full-width top_k is a
 * stable descending sort. NaN has no order in TF's comparator; here it
 * ranks above every number, which keeps the sort total and deterministic.
 * The scans walk the input as [outer, n, inner] in the input's own dtype
 * (integers wrap, as TF's kernels do). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "array_util.h"
#include "op.h"

/* ---- TopKV2 ---- */

static mf_status top_k_infer(mf_op_call *c, mf_error *err) {
  const mf_spec *x = &c->in_specs[0];
  MF_TRY(mf_infer_check_dtype(c, 0, mf_dtype_is_numeric, "real numeric", err));
  MF_TRY(mf_infer_check_dtype(c, 1, mf_dtype_is_integer, "int32", err));
  if (c->in_specs[1].rank > 0)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "k must be scalar, got shape %s",
                      MF_SPEC_TEXT(&c->in_specs[1]));
  int64_t k = MF_UNKNOWN_DIM;
  int n;
  bool known;
  MF_TRY(mf_input_ints(c, 1, &k, 1, &n, &known, err));
  if (known && k < 0)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "Need k >= 0, got %lld", (long long)k);
  if (x->rank == 0)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "input must be >= 1-D, got shape %s",
                      MF_SPEC_TEXT(x));
  MF_TRY(mf_op_call_set_nout(c, 2, err));
  mf_spec o = *x;
  if (x->rank > 0) {
    int64_t cols = x->shape[x->rank - 1];
    if (known && cols >= 0 && cols < k)
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                        "input must have at least k columns. Had %lld, needed %lld",
                        (long long)cols, (long long)k);
    o.shape[x->rank - 1] = known ? k : MF_UNKNOWN_DIM;
  }
  c->out_specs[0] = o;
  o.dtype = MF_INT32;
  c->out_specs[1] = o;
  return MF_OK;
}

typedef struct fkey {
  double v;
  int32_t i;
} fkey;
typedef struct ikey {
  int64_t v;
  int32_t i;
} ikey;

/* Largest first, NaN above everything, then the lower position first. */
static int fkey_cmp(const void *pa, const void *pb) {
  const fkey *a = pa, *b = pb;
  bool na = isnan(a->v), nb = isnan(b->v);
  if (na != nb) return na ? -1 : 1;
  if (!na && a->v != b->v) return a->v > b->v ? -1 : 1;
  return (a->i > b->i) - (a->i < b->i);
}

static int ikey_cmp(const void *pa, const void *pb) {
  const ikey *a = pa, *b = pb;
  if (a->v != b->v) return a->v > b->v ? -1 : 1;
  return (a->i > b->i) - (a->i < b->i);
}

static mf_status top_k_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *x = c->in[0];
  mf_tensor *values, *indices;
  MF_TRY(mf_op_alloc_output(c, 0, &values, err));
  MF_TRY(mf_op_alloc_output(c, 1, &indices, err));
  int64_t cols = x->shape[x->rank - 1], k = values->shape[x->rank - 1];
  if (cols > INT32_MAX)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "Second dimension of flattened input must be <= INT_MAX, got %lld",
                      (long long)cols);
  int64_t rows = cols ? x->size / cols : 0;
  if (k == 0 || rows == 0) return MF_OK;
  bool flt = mf_dtype_is_float(x->dtype);
  void *keys;
  MF_TRY(mf_scratch_alloc((size_t)cols, flt ? sizeof(fkey) : sizeof(ikey), &keys, err));
  int32_t *oi = MF_DATA(indices, int32_t);
  size_t es = mf_dtype_size(x->dtype);
  const char *xb = mf_tensor_data(x);
  char *vb = mf_tensor_data(values);
  for (int64_t r = 0; r < rows; r++) {
    for (int64_t j = 0; j < cols; j++) {
      if (flt)
        ((fkey *)keys)[j] = (fkey){mf_tensor_get_f64(x, r * cols + j), (int32_t)j};
      else
        ((ikey *)keys)[j] = (ikey){mf_tensor_get_i64(x, r * cols + j), (int32_t)j};
    }
    qsort(keys, (size_t)cols, flt ? sizeof(fkey) : sizeof(ikey), flt ? fkey_cmp : ikey_cmp);
    for (int64_t j = 0; j < k; j++) {
      int32_t at = flt ? ((fkey *)keys)[j].i : ((ikey *)keys)[j].i;
      oi[r * k + j] = at;
      memcpy(vb + (size_t)(r * k + j) * es, xb + (size_t)(r * cols + at) * es, es);
    }
  }
  free(keys);
  return MF_OK;
}

const mf_op_def mf_op_TopKV2 = {
    .name = "TopKV2", .input_names = "input,k", .min_inputs = 2, .max_inputs = 2,
    .attrs = {{"sorted", MF_ATTR_BOOL}},
    .infer = top_k_infer, .kernel = top_k_kernel, .flags = 0,
    .doc = "The k largest values of each row of the last axis, largest first (equal values in "
           "order of position), and their int32 positions.",
    .tf_attrs = "T:0 sorted=true",
};

/* ---- Cumsum, Cumprod ---- */

static mf_status scan_axis(mf_op_call *c, const mf_spec *x, int64_t *axis, bool *known,
                           mf_error *err) {
  int n;
  MF_TRY(mf_infer_check_dtype(c, 0, mf_dtype_is_numeric, "numeric", err));
  if (c->in_specs[1].rank > 0)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "ScanOp: axis must be a scalar, not %s",
                      MF_SPEC_TEXT(&c->in_specs[1]));
  MF_TRY(mf_input_ints(c, 1, axis, 1, &n, known, err));
  if (!*known || x->rank < 0) return MF_OK;
  int64_t a = *axis;
  if (!mf_axis_wrap(&a, x->rank))
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "ScanOp: Expected scan axis in the range [%d, %d), but got %lld", -x->rank,
                      x->rank, (long long)*axis);
  *axis = a;
  return MF_OK;
}

static mf_status scan_infer(mf_op_call *c, mf_error *err) {
  const mf_spec *x = &c->in_specs[0];
  int64_t axis;
  bool known;
  MF_TRY(scan_axis(c, x, &axis, &known, err));
  return mf_infer_output(c, x->dtype, x->rank, x->shape, err);
}

/* y[i] = x[0] op ... op x[i] along the axis (exclusive: up to x[i-1],
 * starting from the identity; reverse: from the far end). */
static mf_status scan_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *x = c->in[0];
  mf_spec xs;
  mf_spec_of_tensor(x, &xs);
  int64_t axis;
  bool known;
  MF_TRY(scan_axis(c, &xs, &axis, &known, err));
  bool exclusive = mf_attr_bool(c->attrs, "exclusive", false);
  bool reverse = mf_attr_bool(c->attrs, "reverse", false);
  bool prod = strcmp(c->op->name, "Cumprod") == 0;
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  int64_t outer = 1, len = x->rank ? x->shape[axis] : 1, inner = 1;
  for (int d = 0; d < x->rank; d++) {
    if (d < axis) outer *= x->shape[d];
    else if (d > axis) inner *= x->shape[d];
  }
#define SCAN(T, U)                                                               \
  {                                                                              \
    const T *xv = mf_tensor_data(x);                                             \
    T *yv = mf_tensor_data(out);                                                 \
    for (int64_t o = 0; o < outer; o++)                                          \
      for (int64_t q = 0; q < inner; q++) {                                      \
        U acc = prod ? (U)1 : (U)0;                                              \
        for (int64_t s = 0; s < len; s++) {                                      \
          int64_t j = reverse ? len - 1 - s : s;                                 \
          int64_t at = (o * len + j) * inner + q;                                \
          if (exclusive) yv[at] = (T)acc;                                        \
          acc = prod ? (U)(acc * (U)xv[at]) : (U)(acc + (U)xv[at]);              \
          if (!exclusive) yv[at] = (T)acc;                                       \
        }                                                                        \
      }                                                                          \
  }                                                                              \
  break;
  switch (x->dtype) {
    case MF_FLOAT32: SCAN(float, float)
    case MF_FLOAT64: SCAN(double, double)
    case MF_INT32: SCAN(int32_t, uint32_t)
    case MF_INT64: SCAN(int64_t, uint64_t)
    default:
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "%s has no %s kernel", c->op->name,
                        mf_dtype_name(x->dtype));
  }
#undef SCAN
  return MF_OK;
}

const mf_op_def mf_op_Cumsum = {
    .name = "Cumsum", .input_names = "x,axis", .min_inputs = 2, .max_inputs = 2,
    .attrs = {{"exclusive", MF_ATTR_BOOL}, {"reverse", MF_ATTR_BOOL}},
    .infer = scan_infer, .kernel = scan_kernel, .flags = 0,
    .doc = "Running sums along axis (exclusive: each leaves out its own element; reverse: from "
           "the end).",
    .tf_attrs = "T:0 Tidx:1 exclusive=false reverse=false",
};

const mf_op_def mf_op_Cumprod = {
    .name = "Cumprod", .input_names = "x,axis", .min_inputs = 2, .max_inputs = 2,
    .attrs = {{"exclusive", MF_ATTR_BOOL}, {"reverse", MF_ATTR_BOOL}},
    .infer = scan_infer, .kernel = scan_kernel, .flags = 0,
    .doc = "Running products along axis (exclusive: each leaves out its own element; reverse: "
           "from the end).",
    .tf_attrs = "T:0 Tidx:1 exclusive=false reverse=false",
};
