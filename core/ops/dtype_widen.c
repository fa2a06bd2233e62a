#include "dtype_widen.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "dtype_convert.h"
#include "half.h"

/* Classes of small dtypes, by what a wider kernel computes exactly. */
enum {
  H = 1, /* float16, bfloat16: float32 then rounded, as Eigen::half */
  S = 2, /* int8, int16: int32, cut to the low bits */
  U = 4, /* uint8, uint16, uint32: int32 or int64 holds every value */
  L = 8, /* uint64: int64 has its bits, so only bit-exact ops (wrapping
          * +, -, *, equality, selection) run through it */
  ALL = H | S | U | L,
};

typedef struct widen_entry {
  const char *op;
  int from, to;    /* data inputs */
  unsigned classes;
  bool narrow_out; /* the outputs are data of the inputs' dtype */
} widen_entry;

/* The ops TF's CPU kernels register for the small dtypes, by class. */
static const widen_entry table[] = {
    /* unary math */
    {"Neg", 0, 1, H | S, true}, {"Abs", 0, 1, H | S, true}, {"Sign", 0, 1, H | S, true},
    {"Square", 0, 1, H | S | U, true}, {"Round", 0, 1, H | S, true},
    {"Relu", 0, 1, H | S | U, true}, {"Relu6", 0, 1, H | S | U, true},
    {"Sqrt", 0, 1, H, true}, {"Rsqrt", 0, 1, H, true}, {"Exp", 0, 1, H, true},
    {"Expm1", 0, 1, H, true}, {"Log", 0, 1, H, true}, {"Log1p", 0, 1, H, true},
    {"Sin", 0, 1, H, true}, {"Cos", 0, 1, H, true}, {"Tan", 0, 1, H, true},
    {"Tanh", 0, 1, H, true}, {"Sigmoid", 0, 1, H, true}, {"Floor", 0, 1, H, true},
    {"Ceil", 0, 1, H, true}, {"Rint", 0, 1, H, true}, {"Reciprocal", 0, 1, H, true},
    {"Sinh", 0, 1, H, true}, {"Cosh", 0, 1, H, true}, {"Asin", 0, 1, H, true},
    {"Acos", 0, 1, H, true}, {"Atan", 0, 1, H, true}, {"Asinh", 0, 1, H, true},
    {"Acosh", 0, 1, H, true}, {"Atanh", 0, 1, H, true}, {"Lgamma", 0, 1, H, true},
    {"Digamma", 0, 1, H, true}, {"Erf", 0, 1, H, true}, {"Erfc", 0, 1, H, true},
    {"Softplus", 0, 1, H, true}, {"Softsign", 0, 1, H, true}, {"Elu", 0, 1, H, true},
    {"Selu", 0, 1, H, true}, {"LeakyRelu", 0, 1, H, true},
    {"IsNan", 0, 1, H, false}, {"IsInf", 0, 1, H, false}, {"IsFinite", 0, 1, H, false},
    /* binary math and comparisons */
    {"AddV2", 0, 2, ALL, true}, {"Sub", 0, 2, ALL, true}, {"Mul", 0, 2, ALL, true},
    {"RealDiv", 0, 2, H, true}, {"DivNoNan", 0, 2, H, true},
    {"FloorDiv", 0, 2, H | S | U, true}, {"FloorMod", 0, 2, H | S | U, true},
    {"TruncateDiv", 0, 2, S | U, true}, {"TruncateMod", 0, 2, S | U, true},
    {"Pow", 0, 2, H | S, true}, {"Maximum", 0, 2, H | S | U, true},
    {"Minimum", 0, 2, H | S | U, true}, {"SquaredDifference", 0, 2, H, true},
    {"Atan2", 0, 2, H, true}, {"Xdivy", 0, 2, H, true}, {"Xlogy", 0, 2, H, true},
    {"Equal", 0, 2, ALL, false}, {"NotEqual", 0, 2, ALL, false},
    {"Less", 0, 2, H | S | U, false}, {"LessEqual", 0, 2, H | S | U, false},
    {"Greater", 0, 2, H | S | U, false}, {"GreaterEqual", 0, 2, H | S | U, false},
    {"SelectV2", 1, 3, ALL, true},
    /* gradients of the elementwise ops */
    {"ReluGrad", 0, 2, H, true}, {"Relu6Grad", 0, 2, H, true}, {"TanhGrad", 0, 2, H, true},
    {"SigmoidGrad", 0, 2, H, true}, {"SqrtGrad", 0, 2, H, true}, {"RsqrtGrad", 0, 2, H, true},
    {"SoftplusGrad", 0, 2, H, true}, {"SoftsignGrad", 0, 2, H, true},
    {"EluGrad", 0, 2, H, true}, {"SeluGrad", 0, 2, H, true}, {"LeakyReluGrad", 0, 2, H, true},
    /* reductions. Sum and Prod wrap like the narrow type; Mean of a small
     * integer divides the unwrapped sum (TF's wraps first): they differ
     * only when the sum overflows the narrow type. bfloat16 accumulates in
     * float and rounds once, as TF's reducers for it do (reduction_ops.h's
     * CASTING_SPECIALIZATION); float16's Sum, Mean and Prod accumulate in
     * float16 itself, as TF's do: half_reduce below. */
    {"Sum", 0, 1, ALL, true}, {"Prod", 0, 1, ALL, true}, {"Mean", 0, 1, H | S | U, true},
    {"Max", 0, 1, H | S | U, true}, {"Min", 0, 1, H | S | U, true},
    {"ArgMax", 0, 1, H | S | U, false}, {"ArgMin", 0, 1, H | S | U, false},
    {"Cumsum", 0, 1, H | S | U, true}, {"Cumprod", 0, 1, H | S | U, true},
    {"AddN", 0, -1, H | S | U | L, true},
    {"UnsortedSegmentSum", 0, 1, H | S | U, true}, {"SegmentSum", 0, 1, H | S | U, true},
    /* tensors made from a value or a shape */
    {"Fill", 1, 2, ALL, true}, {"ZerosLike", 0, 1, ALL, true}, {"OnesLike", 0, 1, ALL, true},
    /* linear algebra and the network ops (floats only) */
    {"MatMul", 0, 2, H, true}, {"BatchMatMulV2", 0, 2, H, true},
    {"Softmax", 0, 1, H, true}, {"LogSoftmax", 0, 1, H, true},
    {"BiasAdd", 0, 2, H | S | U, true}, {"BiasAddGrad", 0, 1, H | S | U, true},
    {"Conv2D", 0, 2, H, true}, {"Conv2DBackpropFilter", 0, 1, H, true},
};

static unsigned class_of(mf_dtype dt) {
  switch (dt) {
    case MF_FLOAT16:
    case MF_BFLOAT16: return H;
    case MF_INT8:
    case MF_INT16: return S;
    case MF_UINT8:
    case MF_UINT16:
    case MF_UINT32: return U;
    case MF_UINT64: return L;
    default: return 0;
  }
}

mf_dtype mf_dtype_wide(mf_dtype dt) {
  switch (class_of(dt)) {
    case H: return MF_FLOAT32;
    case S: return MF_INT32;
    case U: return dt == MF_UINT32 ? MF_INT64 : MF_INT32;
    case L: return MF_INT64;
    default: return dt;
  }
}

bool mf_widen_plan(const mf_op_call *c, mf_widen *w) {
  int small = -1;
  for (int i = 0; i < c->nin && small < 0; i++)
    if (class_of(c->in_specs[i].dtype)) small = i;
  if (small < 0) return false;
  for (size_t k = 0; k < sizeof table / sizeof table[0]; k++) {
    const widen_entry *e = &table[k];
    if (strcmp(e->op, c->op->name) != 0) continue;
    int to = e->to < 0 ? c->nin : e->to;
    mf_dtype dt = c->in_specs[small].dtype;
    if (small < e->from || small >= to || !(e->classes & class_of(dt))) return false;
    *w = (mf_widen){dt, mf_dtype_wide(dt), e->from, to, e->narrow_out};
    return true;
  }
  return false;
}

/* A new tensor: t converted to dtype dt. */
static mf_status converted(const mf_tensor *t, mf_dtype dt, mf_tensor **out, mf_error *err) {
  MF_TRY(mf_tensor_new(dt, t->rank, t->shape, out, err));
  mf_convert_elements(mf_tensor_data(t), t->dtype, mf_tensor_data(*out), dt, t->size);
  return MF_OK;
}

/* The call's inputs as the wide op sees them, and what to put back. */
typedef struct widened {
  const mf_spec *specs;
  mf_tensor *const *in;
  mf_spec *wide_specs;
  mf_tensor **wide_in;
  int nin;
} widened;

enum { INLINE = 8 };

static void restore(mf_op_call *c, widened *s, mf_spec *spec_buf, mf_tensor **in_buf) {
  c->in_specs = s->specs;
  c->in = s->in;
  for (int i = 0; i < s->nin; i++) mf_tensor_release(s->wide_in[i]);
  if (s->wide_specs != spec_buf) free(s->wide_specs);
  if (s->wide_in != in_buf) free(s->wide_in);
}

/* Points c at widened copies of its data inputs (specs, and values where
 * present). The unchanged inputs are borrowed again (retained). */
static mf_status widen_inputs(mf_op_call *c, const mf_widen *w, widened *s, mf_spec *spec_buf,
                              mf_tensor **in_buf, mf_error *err) {
  *s = (widened){c->in_specs, c->in, spec_buf, in_buf, 0};
  if (c->nin > INLINE) {
    s->wide_specs = mf_calloc((size_t)c->nin, sizeof *s->wide_specs);
    s->wide_in = mf_calloc((size_t)c->nin, sizeof *s->wide_in);
    if (!s->wide_specs || !s->wide_in) {
      restore(c, s, spec_buf, in_buf);
      return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
    }
  }
  for (int i = 0; i < c->nin; i++) {
    s->wide_specs[i] = c->in_specs[i];
    s->wide_in[i] = NULL;
    s->nin = i + 1;
    mf_tensor *t = c->in ? c->in[i] : NULL;
    bool data = i >= w->from && i < w->to && c->in_specs[i].dtype == w->narrow;
    if (data) s->wide_specs[i].dtype = w->wide;
    if (!t) continue;
    if (data) {
      mf_status st = converted(t, w->wide, &s->wide_in[i], err);
      if (st != MF_OK) {
        restore(c, s, spec_buf, in_buf);
        return st;
      }
    } else {
      mf_tensor_retain(t);
      s->wide_in[i] = t;
    }
  }
  c->in_specs = s->wide_specs;
  c->in = s->wide_in;
  return MF_OK;
}

/* Replaces *t (a wide output) by its narrowed copy. */
static mf_status narrow_tensor(mf_tensor **t, mf_dtype dt, mf_error *err) {
  mf_tensor *n;
  MF_TRY(converted(*t, dt, &n, err));
  mf_tensor_release(*t);
  *t = n;
  return MF_OK;
}

mf_status mf_widen_infer(mf_op_call *c, const mf_widen *w, mf_error *err) {
  /* Mixed dtypes are refused before any is widened, in the narrow names. */
  if (w->to - w->from > 1) MF_TRY(mf_infer_same_dtype(c, w->from, w->to, err));
  mf_spec spec_buf[INLINE];
  mf_tensor *in_buf[INLINE];
  widened s;
  MF_TRY(widen_inputs(c, w, &s, spec_buf, in_buf, err));
  mf_status st = c->op->infer(c, err);
  restore(c, &s, spec_buf, in_buf);
  if (st != MF_OK || !w->narrow_out) return st;
  for (int i = 0; i < c->nout; i++) {
    if (c->out_specs[i].dtype != w->wide) continue;
    c->out_specs[i].dtype = w->narrow;
    if (c->out_values[i]) MF_TRY(narrow_tensor(&c->out_values[i], w->narrow, err));
  }
  return MF_OK;
}

/* float16 Sum, Mean and Prod as TF's CPU kernels compute them: Eigen's
 * reducers for Eigen::half keep a half accumulator, each step computed in
 * float and rounded back. The reduced elements of each output are taken in
 * row-major order, as Eigen's scalar loop takes them (its vectorised order
 * for long rows may differ in the last bits). Mean divides by the count as
 * a half. Output shape from inference; axes from input 1. */
static bool half_reduction(const mf_op_call *c, const mf_widen *w) {
  return w->narrow == MF_FLOAT16 &&
         (!strcmp(c->op->name, "Sum") || !strcmp(c->op->name, "Mean") ||
          !strcmp(c->op->name, "Prod"));
}

static mf_status half_reduce(mf_op_call *c, mf_error *err) {
  const mf_tensor *x = c->in[0], *axes = c->in[1];
  bool reduced[MF_MAX_RANK] = {false};
  for (int64_t k = 0; k < axes->size; k++) {
    int64_t a = mf_tensor_get_i64(axes, k);
    if (a < 0) a += x->rank;
    if (a >= 0 && a < x->rank) reduced[a] = true;
  }
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  /* each input dimension's step in the output (0 for a reduced one) */
  int64_t step[MF_MAX_RANK], s = 1, count = 1;
  for (int d = x->rank - 1; d >= 0; d--) {
    step[d] = reduced[d] ? 0 : s;
    if (!reduced[d]) s *= x->shape[d];
    else count *= x->shape[d];
  }
  bool prod = !strcmp(c->op->name, "Prod"), mean = !strcmp(c->op->name, "Mean");
  uint16_t *acc = mf_tensor_data(out);
  const uint16_t *in = mf_tensor_data(x);
  uint16_t init = prod ? 0x3c00 : 0;
  for (int64_t i = 0; i < out->size; i++) acc[i] = init;
  int64_t idx[MF_MAX_RANK] = {0}, o = 0;
  for (int64_t i = 0; i < x->size; i++) {
    float a = mf_f16_to_f32(acc[o]), v = mf_f16_to_f32(in[i]);
    acc[o] = mf_f32_to_f16(prod ? a * v : a + v);
    for (int d = x->rank - 1; d >= 0; d--) { /* the next index, row-major */
      o += step[d];
      if (++idx[d] < x->shape[d]) break;
      o -= step[d] * idx[d];
      idx[d] = 0;
    }
  }
  if (mean) {
    float n = mf_f16_to_f32(mf_f32_to_f16((float)count));
    for (int64_t i = 0; i < out->size; i++) acc[i] = mf_f32_to_f16(mf_f16_to_f32(acc[i]) / n);
  }
  return MF_OK;
}

mf_status mf_widen_kernel(mf_op_call *c, const mf_widen *w, mf_error *err) {
  if (half_reduction(c, w)) return half_reduce(c, err);
  mf_spec spec_buf[INLINE];
  mf_tensor *in_buf[INLINE];
  widened s;
  MF_TRY(widen_inputs(c, w, &s, spec_buf, in_buf, err));
  /* The kernel allocates its outputs by the specs: the wide dtype. */
  bool narrowed[INLINE] = {false};
  for (int i = 0; i < c->nout && i < INLINE; i++)
    if (w->narrow_out && c->out_specs[i].dtype == w->narrow) {
      c->out_specs[i].dtype = w->wide;
      narrowed[i] = true;
    }
  mf_status st = c->op->kernel(c, err);
  restore(c, &s, spec_buf, in_buf);
  for (int i = 0; i < c->nout && i < INLINE; i++) {
    if (!narrowed[i]) continue;
    c->out_specs[i].dtype = w->narrow;
    if (st == MF_OK && c->out[i]) st = narrow_tensor(&c->out[i], w->narrow, err);
  }
  return st;
}
