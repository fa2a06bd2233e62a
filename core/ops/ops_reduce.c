/* ops_reduce.c — reductions over axes given as an input tensor: Sum, Mean,
 * Max, Min, Prod (numeric), Any, All (bool); and ArgMax, ArgMin.
 *
 * One driver serves the seven reductions. As TF does, it first simplifies
 * the input: size-1 dimensions are dropped and neighbours merged into
 * alternating kept/reduced runs, so every reduction is a walk whose
 * innermost run is contiguous and is either folded into one accumulator
 * (innermost run reduced) or added element-wise into a row of them (kept).
 * What differs per op and dtype is a reducer — accumulator type, identity,
 * combine, finish — and one macro writes them all.
 *
 * Accumulators: float32 sums, means and products accumulate in double;
 * integer sums and products in uint64, which wraps exactly as TF's integer
 * kernels do without signed-overflow UB; an integer mean divides the 64-bit
 * sum, as TF does for int32. Over zero elements the result is the identity:
 * 0, 1, -inf/lowest for Max, +inf/highest for Min, NaN for a float Mean and
 * 0 for an integer one, false for Any, true for All. */
#include <math.h>
#include <stdlib.h>

#include "array_util.h"
#include "op.h"
#include "shape_fn.h"

typedef enum reduce_kind { R_SUM, R_MEAN, R_PROD, R_MAX, R_MIN, R_ANY, R_ALL, R_KINDS } reduce_kind;

typedef struct reducer {
  size_t acc_size;
  void (*init)(void *acc, int64_t n);
  /* across: fold x[0..n) into acc[0]; otherwise acc[j] (+)= x[j]. */
  void (*run)(void *acc, const void *x, int64_t n, bool across);
  /* y[i] = result of acc[i] over `count` input elements. */
  void (*finish)(const void *acc, void *y, int64_t n, int64_t count);
} reducer;

#define REDUCER(NAME, T, ACC, INIT, COMBINE, FINISH)                            \
  static void NAME##_init(void *a, int64_t n) {                                 \
    ACC *acc = a;                                                               \
    for (int64_t i = 0; i < n; i++) acc[i] = (INIT);                            \
  }                                                                             \
  static void NAME##_run(void *a, const void *xv, int64_t n, bool across) {     \
    ACC *acc = a;                                                               \
    const T *x = xv;                                                            \
    if (across) {                                                               \
      ACC r = *acc;                                                             \
      for (int64_t j = 0; j < n; j++) COMBINE(r, x[j]);                         \
      *acc = r;                                                                 \
    } else {                                                                    \
      for (int64_t j = 0; j < n; j++) COMBINE(acc[j], x[j]);                    \
    }                                                                           \
  }                                                                             \
  static void NAME##_finish(const void *a, void *yv, int64_t n, int64_t count) { \
    const ACC *acc = a;                                                         \
    T *y = yv;                                                                  \
    (void)count;                                                                \
    for (int64_t i = 0; i < n; i++) y[i] = FINISH(acc[i], count);               \
  }                                                                             \
  static const reducer NAME = {sizeof(ACC), NAME##_init, NAME##_run, NAME##_finish};

#define ADD(a, x) ((a) += (x))
#define ADD_WRAP(a, x) ((a) += (uint64_t)(x))
#define MUL(a, x) ((a) *= (x))
#define MUL_WRAP(a, x) ((a) *= (uint64_t)(x))
/* NaN wins and stays (x > NaN is false), as tf.reduce_max propagates it. */
#define FMAX(a, x) ((a) = (x) > (a) || isnan(x) ? (x) : (a))
#define FMIN(a, x) ((a) = (x) < (a) || isnan(x) ? (x) : (a))
#define IMAX(a, x) ((a) = (x) > (a) ? (x) : (a))
#define IMIN(a, x) ((a) = (x) < (a) ? (x) : (a))
#define OR(a, x) ((a) = (a) || (x))
#define AND(a, x) ((a) = (a) && (x))

#define SAME(a, n) (a)
#define TO_F32(a, n) ((float)(a))
#define TO_I32(a, n) ((int32_t)(uint32_t)(a))
#define TO_I64(a, n) ((int64_t)(a))
/* Over nothing, a float mean is TF's quiet NaN (0/0 would be negative). */
#define MEAN_F32(a, n) ((n) > 0 ? (float)((a) / (double)(n)) : NAN)
#define MEAN_F64(a, n) ((n) > 0 ? (a) / (double)(n) : NAN)
#define MEAN_I32(a, n) ((int32_t)((int64_t)(a) / ((n) > 0 ? (n) : 1)))
#define MEAN_I64(a, n) ((int64_t)(a) / ((n) > 0 ? (n) : 1))

REDUCER(sum_f32, float, double, 0, ADD, TO_F32)
REDUCER(sum_f64, double, double, 0, ADD, SAME)
REDUCER(sum_i32, int32_t, uint64_t, 0, ADD_WRAP, TO_I32)
REDUCER(sum_i64, int64_t, uint64_t, 0, ADD_WRAP, TO_I64)
REDUCER(mean_f32, float, double, 0, ADD, MEAN_F32)
REDUCER(mean_f64, double, double, 0, ADD, MEAN_F64)
REDUCER(mean_i32, int32_t, uint64_t, 0, ADD_WRAP, MEAN_I32)
REDUCER(mean_i64, int64_t, uint64_t, 0, ADD_WRAP, MEAN_I64)
REDUCER(prod_f32, float, double, 1, MUL, TO_F32)
REDUCER(prod_f64, double, double, 1, MUL, SAME)
REDUCER(prod_i32, int32_t, uint64_t, 1, MUL_WRAP, TO_I32)
REDUCER(prod_i64, int64_t, uint64_t, 1, MUL_WRAP, TO_I64)
REDUCER(max_f32, float, float, -INFINITY, FMAX, SAME)
REDUCER(max_f64, double, double, -INFINITY, FMAX, SAME)
REDUCER(max_i32, int32_t, int32_t, INT32_MIN, IMAX, SAME)
REDUCER(max_i64, int64_t, int64_t, INT64_MIN, IMAX, SAME)
REDUCER(min_f32, float, float, INFINITY, FMIN, SAME)
REDUCER(min_f64, double, double, INFINITY, FMIN, SAME)
REDUCER(min_i32, int32_t, int32_t, INT32_MAX, IMIN, SAME)
REDUCER(min_i64, int64_t, int64_t, INT64_MAX, IMIN, SAME)
REDUCER(any_b, bool, bool, false, OR, SAME)
REDUCER(all_b, bool, bool, true, AND, SAME)

#define NUMERIC(P) \
  {[MF_FLOAT32] = &P##_f32, [MF_FLOAT64] = &P##_f64, [MF_INT32] = &P##_i32, [MF_INT64] = &P##_i64}
static const reducer *const reducers[R_KINDS][MF_DTYPE_COUNT] = {
    [R_SUM] = NUMERIC(sum),  [R_MEAN] = NUMERIC(mean), [R_PROD] = NUMERIC(prod),
    [R_MAX] = NUMERIC(max),  [R_MIN] = NUMERIC(min),   [R_ANY] = {[MF_BOOL] = &any_b},
    [R_ALL] = {[MF_BOOL] = &all_b},
};
#undef NUMERIC

extern const mf_op_def mf_op_Sum, mf_op_Mean, mf_op_Prod, mf_op_Max, mf_op_Min, mf_op_Any,
    mf_op_All, mf_op_ArgMax;

static reduce_kind kind_of(const mf_op_def *op) {
  const mf_op_def *const ops[R_KINDS] = {
      [R_SUM] = &mf_op_Sum, [R_MEAN] = &mf_op_Mean, [R_PROD] = &mf_op_Prod, [R_MAX] = &mf_op_Max,
      [R_MIN] = &mf_op_Min, [R_ANY] = &mf_op_Any,   [R_ALL] = &mf_op_All,
  };
  int k = 0;
  while (k < R_KINDS - 1 && ops[k] != op) k++;
  return (reduce_kind)k;
}

/* Which dimensions of input 0 the reduction_indices name. *known is false
 * while the axes (or the input's rank) are unknown. */
static mf_status reduce_axes(mf_op_call *c, bool *reduced, bool *known, mf_error *err) {
  int64_t ax[MF_MAX_INT_INPUT];
  int n;
  int rank = c->in_specs[0].rank;
  /* While a graph is built: TF's ReductionShape, its messages; it takes
   * repeated axes, which the kernel refuses when the graph runs. */
  if (c->building) MF_TRY(mf_sf_with_rank_at_most(c->in_specs[1].rank, 1, err));
  MF_TRY(mf_input_ints(c, 1, ax, MF_MAX_INT_INPUT, &n, known, err));
  if (rank < 0) *known = false;
  if (!*known) return MF_OK;
  for (int d = 0; d < rank; d++) reduced[d] = false;
  for (int i = 0; i < n; i++) {
    int64_t a = ax[i];
    if (!mf_axis_wrap(&a, rank) && c->building)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "Invalid reduction dimension %lld for input with %d dimensions.",
                          (long long)ax[i], rank);
    if (a < 0 || a >= rank)
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                        "Invalid reduction dimension (%lld for input with %d dimension(s)",
                        (long long)ax[i], rank);
    if (reduced[a] && c->building) c->deferred = true;
    if (reduced[a] && !c->building)
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                        "Invalid reduction arguments: Axes contains duplicate dimension: %lld",
                        (long long)a);
    reduced[a] = true;
  }
  return MF_OK;
}

static mf_status reduce_infer(mf_op_call *c, mf_error *err) {
  reduce_kind k = kind_of(c->op);
  bool logical = k == R_ANY || k == R_ALL;
  MF_TRY(mf_infer_check_dtype(c, 0, logical ? mf_dtype_is_bool : mf_dtype_is_numeric,
                              logical ? "bool" : "numeric", err));
  const mf_spec *x = &c->in_specs[0];
  bool keep = mf_attr_bool(c->attrs, "keep_dims", false), known;
  bool reduced[MF_MAX_RANK];
  MF_TRY(reduce_axes(c, reduced, &known, err));
  if (!known) return mf_infer_output(c, x->dtype, keep ? x->rank : -1, NULL, err);
  int64_t shape[MF_MAX_RANK];
  int rank = 0;
  for (int d = 0; d < x->rank; d++)
    if (!reduced[d] || keep) shape[rank++] = reduced[d] ? 1 : x->shape[d];
  return mf_infer_output(c, x->dtype, rank, shape, err);
}

static mf_status reduce_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *x = c->in[0];
  bool reduced[MF_MAX_RANK], known;
  MF_TRY(reduce_axes(c, reduced, &known, err));
  /* Merge into alternating kept/reduced runs; `count` is how many inputs
   * meet in one output. */
  int64_t dims[MF_MAX_RANK], count = 1;
  bool red[MF_MAX_RANK];
  int nd = 0;
  bool any_reduced = false;
  for (int d = 0; d < x->rank; d++) {
    if (reduced[d]) count *= x->shape[d];
    if (x->shape[d] == 1) continue;
    if (nd > 0 && red[nd - 1] == reduced[d]) {
      dims[nd - 1] *= x->shape[d];
    } else {
      dims[nd] = x->shape[d];
      red[nd++] = reduced[d];
    }
    any_reduced |= reduced[d];
  }
  if (!any_reduced && x->size > 0) return mf_op_view_output(c, 0, x, err);
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  const reducer *r = reducers[kind_of(c->op)][x->dtype];
  void *acc;
  MF_TRY(mf_scratch_alloc((size_t)out->size, r->acc_size, &acc, err));
  r->init(acc, out->size);
  if (x->size > 0) {
    int64_t ostr[MF_MAX_RANK], s = 1;
    for (int i = nd - 1; i >= 0; i--) {
      ostr[i] = red[i] ? 0 : s;
      if (!red[i]) s *= dims[i];
    }
    const char *xp = mf_tensor_data(x);
    char *ap = acc;
    size_t xes = mf_dtype_size(x->dtype);
    int64_t idx[MF_MAX_RANK] = {0}, o = 0, inner = dims[nd - 1];
    for (int64_t i = 0;; i += inner) {
      r->run(ap + o * (int64_t)r->acc_size, xp + i * (int64_t)xes, inner, red[nd - 1]);
      int k = nd - 2;
      for (; k >= 0; k--) {
        o += ostr[k];
        if (++idx[k] < dims[k]) break;
        o -= ostr[k] * dims[k];
        idx[k] = 0;
      }
      if (k < 0) break;
    }
  }
  r->finish(acc, mf_tensor_data(out), out->size, count);
  free(acc);
  return MF_OK;
}

#define REDUCE_OP(NAME, FLAGS, TF_ATTRS, DOC)                                           \
  const mf_op_def mf_op_##NAME = {                                                      \
      .name = #NAME, .input_names = "input,reduction_indices", .min_inputs = 2,         \
      .max_inputs = 2, .attrs = {{"keep_dims", MF_ATTR_BOOL}},                          \
      .infer = reduce_infer, .kernel = reduce_kernel, .flags = FLAGS, .doc = DOC,       \
      .tf_attrs = TF_ATTRS,                                                             \
  };
#define NUMERIC_ATTRS "T:0 Tidx:1 keep_dims=false"
#define LOGICAL_ATTRS "Tidx:1 keep_dims=false" /* bool only: no T */
REDUCE_OP(Sum, 0, NUMERIC_ATTRS, "Sum of the elements across the given axes.")
REDUCE_OP(Mean, 0, NUMERIC_ATTRS, "Mean of the elements across the given axes (integer division for ints).")
REDUCE_OP(Prod, 0, NUMERIC_ATTRS, "Product of the elements across the given axes.")
REDUCE_OP(Max, 0, NUMERIC_ATTRS, "Maximum of the elements across the given axes.")
REDUCE_OP(Min, 0, NUMERIC_ATTRS, "Minimum of the elements across the given axes.")
REDUCE_OP(Any, MF_OP_NO_GRADIENT, LOGICAL_ATTRS, "Logical or of the elements across the given axes.")
REDUCE_OP(All, MF_OP_NO_GRADIENT, LOGICAL_ATTRS, "Logical and of the elements across the given axes.")

/* ---- ArgMax, ArgMin ---- */

/* The dimension input, wrapped; *known false while it or the rank is
 * unknown. An empty reduction axis is the kernel's error only (in_kernel):
 * TF's shape function lets it through, so a traced call builds and fails
 * when it runs, with InvalidArgumentError, as eagerly. */
static mf_status arg_axis(mf_op_call *c, int64_t *axis, bool *known, bool in_kernel, mf_error *err) {
  const mf_spec *x = &c->in_specs[0];
  int n;
  if (c->in_specs[1].rank > 0)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "dim must be a scalar, but received tensor of shape: %s",
                      MF_SPEC_TEXT(&c->in_specs[1]));
  MF_TRY(mf_input_ints(c, 1, axis, 1, &n, known, err));
  if (x->rank < 0) *known = false;
  if (!*known) return MF_OK;
  int64_t given = *axis;
  if (!mf_axis_wrap(axis, x->rank))
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "Expected dimension in the range [%d, %d), but got %lld", -x->rank, x->rank,
                      (long long)given);
  if (in_kernel && x->shape[*axis] == 0)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "Reduction axis %lld is empty in shape %s",
                      (long long)given, MF_SPEC_TEXT(x));
  return MF_OK;
}

static mf_status arg_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(mf_infer_check_dtype(c, 0, mf_dtype_is_numeric_or_bool, "numeric or bool", err));
  mf_dtype out_type = mf_attr_type(c->attrs, "output_type", MF_INT64);
  if (!mf_dtype_is_integer(out_type))
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "Value for attr 'output_type' of %s is not in the list of allowed values: "
                      "int32, int64",
                      mf_dtype_name(out_type));
  const mf_spec *x = &c->in_specs[0];
  int64_t axis;
  bool known;
  MF_TRY(arg_axis(c, &axis, &known, false, err));
  if (!known) return mf_infer_output(c, out_type, x->rank > 0 ? x->rank - 1 : -1, NULL, err);
  int64_t shape[MF_MAX_RANK];
  for (int d = 0, k = 0; d < x->rank; d++)
    if (d != axis) shape[k++] = x->shape[d];
  return mf_infer_output(c, out_type, x->rank - 1, shape, err);
}

/* First extremum along the middle of [outer, n, inner]; a NaN wins, as in
 * NumPy. */
#define ARG_LOOP(T, BETTER)                                          \
  {                                                                  \
    const T *xp = mf_tensor_data(x);                                 \
    for (int64_t o = 0; o < outer; o++)                              \
      for (int64_t k = 0; k < inner; k++) {                          \
        const T *p = xp + o * n * inner + k;                         \
        T best = p[0];                                               \
        int64_t at = 0;                                              \
        for (int64_t j = 1; j < n; j++) {                            \
          T v = p[j * inner];                                        \
          if (BETTER(v, best)) {                                     \
            best = v;                                                \
            at = j;                                                  \
          }                                                          \
        }                                                            \
        mf_tensor_set_i64(out, o * inner + k, at);                   \
      }                                                              \
  }                                                                  \
  break;
#define F_GT(v, b) ((v) > (b) || (isnan(v) && !isnan(b)))
#define F_LT(v, b) ((v) < (b) || (isnan(v) && !isnan(b)))
#define I_GT(v, b) ((v) > (b))
#define I_LT(v, b) ((v) < (b))

static mf_status arg_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *x = c->in[0];
  int64_t axis;
  bool known;
  MF_TRY(arg_axis(c, &axis, &known, true, err));
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  int64_t outer = 1, inner = 1, n = x->shape[axis];
  for (int d = 0; d < x->rank; d++) {
    if (d < axis) outer *= x->shape[d];
    if (d > axis) inner *= x->shape[d];
  }
  bool max = c->op == &mf_op_ArgMax;
  switch (x->dtype * 2 + max) {
    case MF_FLOAT32 * 2 + 1: ARG_LOOP(float, F_GT)
    case MF_FLOAT32 * 2: ARG_LOOP(float, F_LT)
    case MF_FLOAT64 * 2 + 1: ARG_LOOP(double, F_GT)
    case MF_FLOAT64 * 2: ARG_LOOP(double, F_LT)
    case MF_INT32 * 2 + 1: ARG_LOOP(int32_t, I_GT)
    case MF_INT32 * 2: ARG_LOOP(int32_t, I_LT)
    case MF_INT64 * 2 + 1: ARG_LOOP(int64_t, I_GT)
    case MF_INT64 * 2: ARG_LOOP(int64_t, I_LT)
    case MF_BOOL * 2 + 1: ARG_LOOP(bool, I_GT)
    case MF_BOOL * 2: ARG_LOOP(bool, I_LT)
    default:
      return mf_error_set(err, MF_ERR_INTERNAL, "%s has no %s kernel", c->op->name,
                          mf_dtype_name(x->dtype));
  }
  return MF_OK;
}

const mf_op_def mf_op_ArgMax = {
    .name = "ArgMax", .input_names = "input,dimension", .min_inputs = 2, .max_inputs = 2,
    .attrs = {{"output_type", MF_ATTR_TYPE}},
    .infer = arg_infer, .kernel = arg_kernel, .flags = MF_OP_NO_GRADIENT,
    .doc = "0-based index of the largest value along a dimension (first on ties).",
    .tf_attrs = "T:0 Tidx:1 output_type=DT_INT64",
};

const mf_op_def mf_op_ArgMin = {
    .name = "ArgMin", .input_names = "input,dimension", .min_inputs = 2, .max_inputs = 2,
    .attrs = {{"output_type", MF_ATTR_TYPE}},
    .infer = arg_infer, .kernel = arg_kernel, .flags = MF_OP_NO_GRADIENT,
    .doc = "0-based index of the smallest value along a dimension (first on ties).",
    .tf_attrs = "T:0 Tidx:1 output_type=DT_INT64",
};
