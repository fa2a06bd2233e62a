#include "dtype_widen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "broadcast.h"
#include "dtype_convert.h"
#include "half.h"

/* Classes of small dtypes, by what a wider kernel computes exactly. */
enum {
  H = 1, /* float16, bfloat16: float32 then rounded, as Eigen::half */
  S = 2, /* int8, int16: int32, cut to the low bits */
  U = 4, /* uint8, uint16, uint32: int32 or int64 holds every value */
  L = 8, /* uint64: int64 has its bits, so only bit-exact ops (wrapping
          * +, -, *, equality, selection) run through it */
  O = 16, /* uint64's ordering ops: through int64 with the top bit of each
           * value flipped, which orders as uint64 does */
  Q = 32, /* uint64's quotients and remainders, Mean, Relu and Relu6:
           * computed here in uint64 (uint64_division, uint64_mean,
           * uint64_relu), inferred as int64 */
  ALL = H | S | U | L,
};

typedef struct widen_entry {
  const char *op;
  int from, to;    /* data inputs */
  unsigned classes;
  unsigned outs;   /* bit i: output i is data of the inputs' dtype */
} widen_entry;

/* The ops TF's CPU kernels register for the small dtypes, by class. */
static const widen_entry table[] = {
    /* unary math */
    {"Neg", 0, 1, H | S, 1}, {"Abs", 0, 1, H | S, 1}, {"Sign", 0, 1, H | S, 1},
    {"Square", 0, 1, ALL, 1}, {"Round", 0, 1, H | S, 1},
    {"Relu", 0, 1, H | S | U | Q, 1}, {"Relu6", 0, 1, H | S | U | Q, 1},
    {"Sqrt", 0, 1, H, 1}, {"Rsqrt", 0, 1, H, 1}, {"Exp", 0, 1, H, 1},
    {"Expm1", 0, 1, H, 1}, {"Log", 0, 1, H, 1}, {"Log1p", 0, 1, H, 1},
    {"Sin", 0, 1, H, 1}, {"Cos", 0, 1, H, 1}, {"Tan", 0, 1, H, 1},
    {"Tanh", 0, 1, H, 1}, {"Sigmoid", 0, 1, H, 1}, {"Floor", 0, 1, H, 1},
    {"Ceil", 0, 1, H, 1}, {"Rint", 0, 1, H, 1}, {"Reciprocal", 0, 1, H, 1},
    {"Sinh", 0, 1, H, 1}, {"Cosh", 0, 1, H, 1}, {"Asin", 0, 1, H, 1},
    {"Acos", 0, 1, H, 1}, {"Atan", 0, 1, H, 1}, {"Asinh", 0, 1, H, 1},
    {"Acosh", 0, 1, H, 1}, {"Atanh", 0, 1, H, 1}, {"Lgamma", 0, 1, H, 1},
    {"Digamma", 0, 1, H, 1}, {"Erf", 0, 1, H, 1}, {"Erfc", 0, 1, H, 1},
    {"Softplus", 0, 1, H, 1}, {"Softsign", 0, 1, H, 1}, {"Elu", 0, 1, H, 1},
    {"Selu", 0, 1, H, 1}, {"LeakyRelu", 0, 1, H, 1},
    {"IsNan", 0, 1, H, 0}, {"IsInf", 0, 1, H, 0}, {"IsFinite", 0, 1, H, 0},
    /* binary math and comparisons */
    {"AddV2", 0, 2, ALL, 1}, {"Sub", 0, 2, ALL, 1}, {"Mul", 0, 2, ALL, 1},
    {"RealDiv", 0, 2, H, 1}, {"DivNoNan", 0, 2, H, 1},
    {"FloorDiv", 0, 2, H | S | U | Q, 1}, {"FloorMod", 0, 2, H | S | U | Q, 1},
    {"TruncateDiv", 0, 2, S | U | Q, 1}, {"TruncateMod", 0, 2, S | U | Q, 1},
    {"Pow", 0, 2, H | S, 1}, {"Maximum", 0, 2, H | S | U | O, 1},
    {"Minimum", 0, 2, H | S | U | O, 1}, {"SquaredDifference", 0, 2, H, 1},
    {"Atan2", 0, 2, H, 1}, {"Xdivy", 0, 2, H, 1}, {"Xlogy", 0, 2, H, 1},
    {"Equal", 0, 2, ALL, 0}, {"NotEqual", 0, 2, ALL, 0},
    {"Less", 0, 2, H | S | U | O, 0}, {"LessEqual", 0, 2, H | S | U | O, 0},
    {"Greater", 0, 2, H | S | U | O, 0}, {"GreaterEqual", 0, 2, H | S | U | O, 0},
    {"SelectV2", 1, 3, ALL, 1},
    /* gradients of the elementwise ops */
    {"ReluGrad", 0, 2, H, 1}, {"Relu6Grad", 0, 2, H, 1}, {"TanhGrad", 0, 2, H, 1},
    {"SigmoidGrad", 0, 2, H, 1}, {"SqrtGrad", 0, 2, H, 1}, {"RsqrtGrad", 0, 2, H, 1},
    {"SoftplusGrad", 0, 2, H, 1}, {"SoftsignGrad", 0, 2, H, 1},
    {"EluGrad", 0, 2, H, 1}, {"SeluGrad", 0, 2, H, 1}, {"LeakyReluGrad", 0, 2, H, 1},
    /* reductions. Sum and Prod wrap like the narrow type; Mean of a small
     * integer divides the unwrapped sum (TF's wraps first): they differ
     * only when the sum overflows the narrow type. bfloat16 accumulates in
     * float and rounds once, as TF's reducers for it do (reduction_ops.h's
     * CASTING_SPECIALIZATION); float16's Sum, Mean and Prod accumulate in
     * float16 itself, as TF's do: half_reduce below. */
    {"Sum", 0, 1, ALL, 1}, {"Prod", 0, 1, ALL, 1}, {"Mean", 0, 1, H | S | U | Q, 1},
    {"Max", 0, 1, H | S | U | O, 1}, {"Min", 0, 1, H | S | U | O, 1},
    {"ArgMax", 0, 1, H | S | U | O, 0}, {"ArgMin", 0, 1, H | S | U | O, 0},
    {"TopKV2", 0, 1, H | S | U | O, 1}, /* values narrow back, indices stay */
    {"Cumsum", 0, 1, ALL, 1}, {"Cumprod", 0, 1, ALL, 1},
    {"AddN", 0, -1, H | S | U | L, 1},
    {"UnsortedSegmentSum", 0, 1, ALL, 1}, {"SegmentSum", 0, 1, ALL, 1},
    /* Unique keys by equality, which every class's wider type keeps */
    {"Unique", 0, 1, ALL, 1}, /* y narrows back, idx stays int32 */
    /* tensors made from a value or a shape */
    {"Fill", 1, 2, ALL, 1}, {"ZerosLike", 0, 1, ALL, 1}, {"OnesLike", 0, 1, ALL, 1},
    /* linear algebra and the network ops (floats only) */
    {"MatMul", 0, 2, H, 1}, {"BatchMatMulV2", 0, 2, H, 1},
    {"Softmax", 0, 1, H, 1}, {"LogSoftmax", 0, 1, H, 1},
    {"BiasAdd", 0, 2, ALL, 1}, {"BiasAddGrad", 0, 1, ALL, 1},
    {"Conv2D", 0, 2, H, 1}, {"Conv2DBackpropInput", 1, 3, H, 1},
    {"Conv2DBackpropFilter", 0, 3, H, 1},
};

/* The inputs inside an entry's [from, to) that are not data (bit i):
 * Conv2DBackpropFilter's filter_sizes, between its two data inputs. */
static unsigned skipped_inputs(const char *op) {
  return strcmp(op, "Conv2DBackpropFilter") ? 0 : 1u << 1;
}

extern const mf_op_def mf_op_Sum, mf_op_RealDiv;

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
    bool biased = dt == MF_UINT64 && !(e->classes & L) && (e->classes & O);
    bool native = dt == MF_UINT64 && (e->classes & Q);
    if (small < e->from || small >= to || !(biased || native || (e->classes & class_of(dt))))
      return false;
    *w = (mf_widen){dt, mf_dtype_wide(dt), e->from, to, e->outs, biased, native,
                      skipped_inputs(e->op)};
    return true;
  }
  return false;
}

/* A new tensor: t converted to dtype dt; with `biased` (a uint64 and an
 * int64, either way), each value's top bit flipped too. */
static mf_status converted(const mf_tensor *t, mf_dtype dt, bool biased, mf_tensor **out,
                           mf_error *err) {
  MF_TRY(mf_tensor_new(dt, t->rank, t->shape, out, err));
  mf_convert_elements(mf_tensor_data(t), t->dtype, mf_tensor_data(*out), dt, t->size);
  uint64_t *v = mf_tensor_data(*out);
  for (int64_t i = 0; biased && i < t->size; i++) v[i] ^= 0x8000000000000000u;
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
    bool data = i >= w->from && i < w->to && !(w->skip >> i & 1) &&
                c->in_specs[i].dtype == w->narrow;
    if (data) s->wide_specs[i].dtype = w->wide;
    if (!t) continue;
    if (data) {
      mf_status st = converted(t, w->wide, w->biased, &s->wide_in[i], err);
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
static mf_status narrow_tensor(mf_tensor **t, const mf_widen *w, mf_error *err) {
  mf_tensor *n;
  MF_TRY(converted(*t, w->narrow, w->biased, &n, err));
  mf_tensor_release(*t);
  *t = n;
  return MF_OK;
}

/* mf_infer_same_dtype over the data inputs of a plan with skipped inputs:
 * each against the first, in TF's messages (the kernel's eagerly,
 * op_def_library's TypeError while a graph is built). */
static mf_status same_data_dtype(mf_op_call *c, const mf_widen *w, mf_error *err) {
  int first = -1;
  for (int i = w->from; i < w->to; i++) {
    if (w->skip >> i & 1) continue;
    if (first < 0) {
      first = i;
      continue;
    }
    mf_dtype a = c->in_specs[first].dtype, b = c->in_specs[i].dtype;
    if (a == b) continue;
    if (!c->building)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "cannot compute %s as input #%d(zero-based) was expected to be a %s "
                          "tensor but is a %s tensor [Op:%s]",
                          c->op->name, i, mf_dtype_kernel_name(a), mf_dtype_kernel_name(b),
                          c->op->name);
    char arg[64], arg0[64];
    mf_op_input_arg(c->op, i, c->nin, arg, sizeof arg);
    mf_op_input_arg(c->op, first, c->nin, arg0, sizeof arg0);
    return mf_error_set(err, MF_ERR_TYPE,
                        "Input '%s' of '%s' Op has type %s that does not match type %s of "
                        "argument '%s'.",
                        arg, c->op->name, mf_dtype_name(b), mf_dtype_name(a), arg0);
  }
  return MF_OK;
}

mf_status mf_widen_infer(mf_op_call *c, const mf_widen *w, mf_error *err) {
  /* Mixed dtypes are refused before any is widened, in the narrow names. */
  if (w->skip) MF_TRY(same_data_dtype(c, w, err));
  else if (w->to - w->from > 1) MF_TRY(mf_infer_same_dtype(c, w->from, w->to, err));
  mf_spec spec_buf[INLINE];
  mf_tensor *in_buf[INLINE];
  widened s;
  MF_TRY(widen_inputs(c, w, &s, spec_buf, in_buf, err));
  mf_status st = c->op->infer(c, err);
  restore(c, &s, spec_buf, in_buf);
  if (st != MF_OK) return st;
  for (int i = 0; i < c->nout && i < 32; i++) {
    if (!(w->outs >> i & 1) || c->out_specs[i].dtype != w->wide) continue;
    c->out_specs[i].dtype = w->narrow;
    if (c->out_values[i]) MF_TRY(narrow_tensor(&c->out_values[i], w, err));
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

/* uint64's FloorDiv, FloorMod, TruncateDiv and TruncateMod, as TF's
 * safe_floor_div and safe_div/safe_mod: unsigned, so floor and truncation
 * agree; a zero divisor anywhere is TF's InvalidArgumentError. */
static mf_status uint64_division(mf_op_call *c, mf_error *err) {
  const mf_tensor *y = c->in[1];
  const uint64_t *py = mf_tensor_data(y);
  for (int64_t i = 0; i < y->size; i++)
    if (py[i] == 0)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Integer division by zero [Op:%s]",
                          c->op->name);
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  bool mod = !strcmp(c->op->name, "FloorMod") || !strcmp(c->op->name, "TruncateMod");
  const uint64_t *px = mf_tensor_data(c->in[0]);
  uint64_t *z = mf_tensor_data(out);
  mf_bcast it;
  mf_bcast_init_tensors(&it, out, 2, c->in);
  for (int64_t r = 0; r < it.runs; r++, mf_bcast_next(&it)) {
    const uint64_t *a = px + it.offset[0], *b = py + it.offset[1];
    uint64_t *o = z + r * it.run;
    for (int64_t i = 0; i < it.run; i++) {
      uint64_t u = a[i * it.step[0]], v = b[i * it.step[1]];
      o[i] = mod ? u % v : u / v;
    }
  }
  return MF_OK;
}

/* uint64's Mean as TF's MeanReducer computes it: the sum in uint64
 * (wrapping, Sum's widened kernel: int64 holds uint64's bits), divided by
 * the count in uint64. An empty reduction gives 0. */
static mf_status uint64_mean(mf_op_call *c, const mf_widen *w, mf_error *err) {
  mf_widen sum = *w;
  sum.native = false;
  const mf_op_def *mean = c->op;
  c->op = &mf_op_Sum;
  mf_status st = mf_widen_kernel(c, &sum, err);
  c->op = mean;
  if (st != MF_OK) return st;
  mf_tensor *out = c->out[0];
  uint64_t count = out->size ? (uint64_t)(c->in[0]->size / out->size) : 0;
  uint64_t *z = mf_tensor_data(out);
  for (int64_t i = 0; i < out->size; i++) z[i] = count ? z[i] / count : 0;
  return MF_OK;
}

/* FloorDiv of a half type as TF's floor_div_real<Eigen::half>: floor of
 * the quotient rounded to the type (two ops, two roundings: 2047 / 682.5
 * is 2.99927 in float, 3 in float16, so 3), where floor in float32 first
 * would give 2. RealDiv's widened kernel, then floor in place (exact). */
static mf_status half_floor_div(mf_op_call *c, const mf_widen *w, mf_error *err) {
  const mf_op_def *floordiv = c->op;
  c->op = &mf_op_RealDiv;
  mf_status st = mf_widen_kernel(c, w, err);
  c->op = floordiv;
  if (st != MF_OK) return st;
  mf_tensor *out = c->out[0];
  uint16_t *z = mf_tensor_data(out);
  for (int64_t i = 0; i < out->size; i++)
    z[i] = w->narrow == MF_FLOAT16 ? mf_f32_to_f16(floorf(mf_f16_to_f32(z[i])))
                                   : mf_f32_to_bf16(floorf(mf_bf16_to_f32(z[i])));
  return MF_OK;
}

/* uint64's Relu (no value is below 0: the input) and Relu6 (min(x, 6)). */
static mf_status uint64_relu(mf_op_call *c, mf_error *err) {
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  const uint64_t *x = mf_tensor_data(c->in[0]);
  uint64_t *z = mf_tensor_data(out), cap = !strcmp(c->op->name, "Relu6") ? 6 : UINT64_MAX;
  for (int64_t i = 0; i < out->size; i++) z[i] = x[i] < cap ? x[i] : cap;
  return MF_OK;
}

mf_status mf_widen_kernel(mf_op_call *c, const mf_widen *w, mf_error *err) {
  if (w->native) {
    if (!strcmp(c->op->name, "Mean")) return uint64_mean(c, w, err);
    if (!strncmp(c->op->name, "Relu", 4)) return uint64_relu(c, err);
    return uint64_division(c, err);
  }
  if (class_of(w->narrow) == H && !strcmp(c->op->name, "FloorDiv")) return half_floor_div(c, w, err);
  if (half_reduction(c, w)) return half_reduce(c, err);
  mf_spec spec_buf[INLINE];
  mf_tensor *in_buf[INLINE];
  widened s;
  MF_TRY(widen_inputs(c, w, &s, spec_buf, in_buf, err));
  /* The kernel allocates its outputs by the specs: the wide dtype. */
  bool narrowed[INLINE] = {false};
  for (int i = 0; i < c->nout && i < INLINE; i++)
    if ((w->outs >> i & 1) && c->out_specs[i].dtype == w->narrow) {
      c->out_specs[i].dtype = w->wide;
      narrowed[i] = true;
    }
  mf_status st = c->op->kernel(c, err);
  restore(c, &s, spec_buf, in_buf);
  for (int i = 0; i < c->nout && i < INLINE; i++) {
    if (!narrowed[i]) continue;
    c->out_specs[i].dtype = w->narrow;
    if (st == MF_OK && c->out[i]) st = narrow_tensor(&c->out[i], w, err);
  }
  return st;
}
