/* ops_generate.c — ops that make a tensor from a shape, a value or a
 * range: Fill, ZerosLike, OnesLike, BroadcastTo, Range, LinSpace.
 *
 * As in ops_shape.c, shape and bound arguments are input tensors; infer
 * computes a static result shape when their values are known and does all
 * validation, and kernels take the result shape from out_specs. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "array_util.h"
#include "half.h"
#include "op.h"
#include "shape_fn.h"

/* Fails unless input i is a scalar (when its rank is known): TF's
 * "start must be a scalar, not shape [2]". */
static mf_status check_scalar(mf_op_call *c, int i, const char *name, mf_error *err) {
  const mf_spec *s = &c->in_specs[i];
  if (s->rank > 0)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "%s must be a scalar, not shape %s", name,
                      MF_SPEC_TEXT(s));
  return MF_OK;
}

/* ---- Fill, ZerosLike, OnesLike ---- */

static mf_status fill_infer(mf_op_call *c, mf_error *err) {
  int64_t v[MF_MAX_INT_INPUT];
  int n;
  bool known;
  if (c->building) {
    /* TF's Fill shape function: the ranks, then every dimension read as a
     * value, then (once they pass) the dims read as a shape. */
    MF_TRY(mf_sf_with_rank(c->in_specs[0].rank, 1, err));
    MF_TRY(mf_sf_with_rank(c->in_specs[1].rank, 0, err));
    MF_TRY(mf_input_ints(c, 0, v, MF_MAX_INT_INPUT, &n, &known, err));
    for (int i = 0; known && i < n; i++)
      if (v[i] < 0) return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Fill dimensions must be >= 0");
  }
  MF_TRY(mf_input_shape_ints(c, 0, v, MF_MAX_INT_INPUT, &n, &known, err));
  if (c->in_specs[0].rank >= 0 && c->in_specs[0].rank != 1)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "dims must be a vector, got shape %s",
                      MF_SPEC_TEXT(&c->in_specs[0]));
  if (c->in_specs[1].rank > 0)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "value must be a scalar, got shape %s",
                      MF_SPEC_TEXT(&c->in_specs[1]));
  mf_dtype dt = c->in_specs[1].dtype;
  if (!known) {
    /* TF's Fill: MakeShapeFromShapeTensor of dims, which reads what is
     * known of each element while a graph is built. */
    int rank;
    MF_TRY(mf_sf_shape_tensor(c, 0, &rank, v, MF_MAX_INT_INPUT, err));
    return mf_infer_output(c, dt, rank, rank < 0 ? NULL : v, err);
  }
  for (int i = 0; i < n; i++)
    if (v[i] < 0)
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "Dimension %lld must be >= 0",
                        (long long)v[i]);
  int64_t size;
  if (n <= MF_MAX_RANK) MF_TRY(mf_shape_size(n, v, &size, err));
  return mf_infer_output(c, dt, n, v, err);
}

static mf_status fill_with(mf_op_call *c, const mf_tensor *value, mf_error *err) {
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  return mf_tensor_fill(out, 0, out->size, value, err);
}

static mf_status fill_kernel(mf_op_call *c, mf_error *err) { return fill_with(c, c->in[1], err); }

const mf_op_def mf_op_Fill = {
    .name = "Fill", .input_names = "dims,value", .min_inputs = 2, .max_inputs = 2,
    .infer = fill_infer, .kernel = fill_kernel, .flags = 0,
    .doc = "A tensor of shape dims with every element equal to the scalar value.",
    .tf_attrs = "T:1 index_type:0",
};

extern const mf_op_def mf_op_OnesLike;

static bool zeros_like_ok(mf_dtype dt) { return dt != MF_RESOURCE && dt != MF_VARIANT; }

static mf_status like_infer(mf_op_call *c, mf_error *err) {
  if (c->op == &mf_op_OnesLike)
    MF_TRY(mf_infer_check_dtype(c, 0, mf_dtype_is_numeric_or_bool, "numeric or bool", err));
  else
    MF_TRY(mf_infer_check_dtype(c, 0, zeros_like_ok, "numeric, bool or string", err));
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  c->out_specs[0] = c->in_specs[0];
  return MF_OK;
}

static mf_status like_kernel(mf_op_call *c, mf_error *err) {
  mf_tensor *value;
  MF_TRY(mf_small_scalar(c->in[0]->dtype, c->op == &mf_op_OnesLike, &value, err));
  mf_status st = fill_with(c, value, err);
  mf_tensor_release(value);
  return st;
}

const mf_op_def mf_op_ZerosLike = {
    .name = "ZerosLike", .input_names = "x", .min_inputs = 1, .max_inputs = 1,
    .infer = like_infer, .kernel = like_kernel, .flags = MF_OP_NO_GRADIENT,
    .doc = "Zeros (false, empty strings) in the shape and dtype of x.",
    .tf_attrs = "T:0",
};

const mf_op_def mf_op_OnesLike = {
    .name = "OnesLike", .input_names = "x", .min_inputs = 1, .max_inputs = 1,
    .infer = like_infer, .kernel = like_kernel, .flags = MF_OP_NO_GRADIENT,
    .doc = "Ones (true) in the shape and dtype of x.",
    .tf_attrs = "T:0",
};

/* ---- BroadcastTo ---- */

static mf_status broadcast_to_infer_eager(mf_op_call *c, mf_error *err);

/* BroadcastTo while a graph is built: TF's shape function, which merges
 * each input dimension above 1 with the target's, from the last (so it
 * fills a target dimension known in part: broadcast_to(v, {n, n}) of a (3,)
 * v is (None, 3)); what it cannot see (an unknown input dimension) is the
 * kernel's to refuse. */
static mf_status broadcast_to_shape_fn(mf_op_call *c, mf_error *err) {
  const mf_spec *x = &c->in_specs[0];
  MF_TRY(mf_infer_check_dtype(c, 1, mf_dtype_is_integer, "int32 or int64", err));
  int64_t out[MF_MAX_INT_INPUT];
  int rank;
  MF_TRY(mf_sf_shape_tensor(c, 1, &rank, out, MF_MAX_INT_INPUT, err));
  if (rank >= 0 && x->rank >= 0) {
    MF_TRY(mf_sf_with_rank_at_most(x->rank, rank, err));
    for (int i = 0; i < x->rank; i++) {
      int64_t in = x->shape[x->rank - 1 - i];
      if (in > 1) MF_TRY(mf_sf_merge_dim(in, out[rank - 1 - i], &out[rank - 1 - i], err));
    }
  }
  if (rank > MF_MAX_RANK) return mf_infer_output(c, x->dtype, rank, NULL, err);
  MF_TRY(mf_infer_output(c, x->dtype, rank, rank >= 0 ? out : NULL, err));
  mf_infer_defer_check(c, broadcast_to_infer_eager);
  return MF_OK;
}

static mf_status broadcast_to_infer(mf_op_call *c, mf_error *err) {
  return c->building ? broadcast_to_shape_fn(c, err) : broadcast_to_infer_eager(c, err);
}

static mf_status broadcast_to_infer_eager(mf_op_call *c, mf_error *err) {
  const mf_spec *x = &c->in_specs[0];
  int64_t v[MF_MAX_INT_INPUT];
  int n;
  bool known;
  MF_TRY(mf_input_shape_ints(c, 1, v, MF_MAX_INT_INPUT, &n, &known, err));
  if (c->in_specs[1].rank >= 0 && c->in_specs[1].rank != 1)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "shape must be 1-D, not %s",
                      MF_SPEC_TEXT(&c->in_specs[1]));
  if (!known) return mf_infer_output(c, x->dtype, mf_input_vector_length(c, 1), NULL, err);
  for (int i = 0; i < n; i++)
    if (v[i] < 0)
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "Dimension %lld must be >= 0",
                        (long long)v[i]);
  bool fits = x->rank <= n, compatible = true;
  for (int i = 0; x->rank >= 0 && i < x->rank; i++) {
    int64_t a = x->shape[x->rank - 1 - i], b = i < n ? v[n - 1 - i] : 1;
    if (a < 0 || a == b || a == 1) continue;
    fits = false;
    if (b != 1) compatible = false;
  }
  if (x->rank >= 0 && !compatible)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "Incompatible shapes: %s vs. %s",
                      MF_SPEC_TEXT(x), mf_shape_text_of(n, v).s);
  if (x->rank >= 0 && !fits)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "Unable to broadcast tensor of shape %s to tensor of shape %s",
                      MF_SPEC_TEXT(x), mf_shape_text_of(n, v).s);
  return mf_infer_output(c, x->dtype, n, v, err);
}

static mf_status broadcast_to_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *x = c->in[0];
  const mf_spec *o = &c->out_specs[0];
  int64_t xs[MF_MAX_RANK], walk[MF_MAX_RANK];
  mf_strides_of(x->rank, x->shape, xs);
  for (int d = 0; d < o->rank; d++) {
    int i = d - (o->rank - x->rank);
    walk[d] = i < 0 || x->shape[i] == 1 ? 0 : xs[i];
  }
  return mf_tensor_region(x, 0, o->rank, o->shape, walk, o->rank, o->shape, &c->out[0], err);
}

const mf_op_def mf_op_BroadcastTo = {
    .name = "BroadcastTo", .input_names = "input,shape", .min_inputs = 2, .max_inputs = 2,
    .infer = broadcast_to_infer, .kernel = broadcast_to_kernel, .flags = 0,
    .doc = "Broadcasts the input to the given shape (NumPy rules).",
    .tf_attrs = "T:0 Tidx:1",
};

/* ---- Range, LinSpace ---- */

/* A float32 value rounded to float16 or bfloat16 (dt), as a float. */
static float to_half(mf_dtype dt, float v) {
  return dt == MF_FLOAT16 ? mf_f16_to_f32(mf_f32_to_f16(v)) : mf_bf16_to_f32(mf_f32_to_bf16(v));
}

/* TF's size for a half type: ceil(|(limit - start) / delta|), each step
 * computed in float and rounded to the type (Eigen::half's arithmetic). */
static double half_range_size(mf_dtype dt, float s, float l, float d) {
  return ceilf(to_half(dt, fabsf(to_half(dt, to_half(dt, l - s) / d))));
}

/* The dtypes TF's Range has CPU kernels for: the 32- and 64-bit numbers,
 * the half types and int8, int16, uint32 (its Tidx list); others are its
 * NotFoundError. */
static bool range_dtype(mf_dtype dt) {
  return mf_dtype_is_numeric(dt) || dt == MF_FLOAT16 || dt == MF_BFLOAT16 || dt == MF_INT8 ||
         dt == MF_INT16 || dt == MF_UINT32;
}

/* The length of range(start, limit, delta), with TF's checks. Integers are
 * measured in unsigned arithmetic so no span overflows; floats in their
 * own precision, as TF computes the size. */
static mf_status range_size(mf_op_call *c, int64_t *size, mf_error *err) {
  mf_dtype dt = c->in[0]->dtype;
  if (mf_dtype_is_any_integer(dt)) {
    int64_t s = mf_tensor_get_i64(c->in[0], 0), l = mf_tensor_get_i64(c->in[1], 0),
            d = mf_tensor_get_i64(c->in[2], 0);
    if (d == 0) return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "Requires delta != 0: 0");
    if (d > 0 ? s > l : s < l)
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                        "Requires start %s limit when delta %s 0: %lld/%lld", d > 0 ? "<=" : ">=",
                        d > 0 ? ">" : "<", (long long)s, (long long)l);
    uint64_t span = d > 0 ? (uint64_t)l - (uint64_t)s : (uint64_t)s - (uint64_t)l;
    uint64_t step = d > 0 ? (uint64_t)d : 0 - (uint64_t)d;
    uint64_t n = span / step + (span % step != 0);
    if (n > INT64_MAX)
      return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                        "Requires ((limit - start) / delta) <= 9223372036854775807");
    *size = (int64_t)n;
    return MF_OK;
  }
  double s = mf_tensor_get_f64(c->in[0], 0), l = mf_tensor_get_f64(c->in[1], 0),
         d = mf_tensor_get_f64(c->in[2], 0);
  if (d == 0) return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "Requires delta != 0: 0");
  if (d > 0 ? s > l : s < l)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "Requires start %s limit when delta %s 0: %g/%g", d > 0 ? "<=" : ">=",
                      d > 0 ? ">" : "<", s, l);
  double q = dt == MF_FLOAT32 ? (double)ceilf(fabsf(((float)l - (float)s) / (float)d))
             : dt == MF_FLOAT64 ? ceil(fabs((l - s) / d))
                                : half_range_size(dt, (float)s, (float)l, (float)d);
  if (!(q <= 9.2233720368547748e18))
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT,
                      "Requires ((limit - start) / delta) <= 9223372036854775807");
  *size = (int64_t)q;
  return MF_OK;
}

static mf_status range_infer(mf_op_call *c, mf_error *err) {
  static const char *const names[] = {"start", "limit", "delta"};
  MF_TRY(mf_infer_same_dtype(c, 0, 3, err));
  MF_TRY(mf_infer_check_dtype(c, 0, range_dtype, "numeric", err));
  for (int i = 0; i < 3; i++) MF_TRY(check_scalar(c, i, names[i], err));
  c->requested |= 7u; /* TF's Range shape function reads all three values */
  int64_t size = MF_UNKNOWN_DIM;
  if (c->in[0] && c->in[1] && c->in[2]) MF_TRY(range_size(c, &size, err));
  return mf_infer_output(c, c->in_specs[0].dtype, 1, &size, err);
}

static mf_status range_kernel(mf_op_call *c, mf_error *err) {
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  int64_t n = out->size;
  switch (out->dtype) {
    /* Floats step by repeated addition, as TF's kernel (val += delta), so
     * its rounding errors add up the same way: tf.range(0, 1, 0.1)[7] is
     * 0.70000005 in TF, where 0 + 7 * 0.1 would round to 0.7. */
    case MF_FLOAT32: {
      float v = MF_DATA(c->in[0], float)[0], d = MF_DATA(c->in[2], float)[0];
      float *o = MF_DATA(out, float);
      for (int64_t i = 0; i < n; i++, v += d) o[i] = v;
      break;
    }
    case MF_FLOAT64: {
      double v = MF_DATA(c->in[0], double)[0], d = MF_DATA(c->in[2], double)[0];
      double *o = MF_DATA(out, double);
      for (int64_t i = 0; i < n; i++, v += d) o[i] = v;
      break;
    }
    /* The half types step in their own precision, each sum rounded. */
    case MF_FLOAT16:
    case MF_BFLOAT16: {
      mf_dtype dt = out->dtype;
      float v = (float)mf_tensor_get_f64(c->in[0], 0), d = (float)mf_tensor_get_f64(c->in[2], 0);
      uint16_t *o = mf_tensor_data(out);
      for (int64_t i = 0; i < n; i++, v = to_half(dt, v + d))
        o[i] = dt == MF_FLOAT16 ? mf_f32_to_f16(v) : mf_f32_to_bf16(v);
      break;
    }
    default: {
      /* start + i*delta stays in range, but i*delta alone may not: wrap. */
      uint64_t s = (uint64_t)mf_tensor_get_i64(c->in[0], 0);
      uint64_t d = (uint64_t)mf_tensor_get_i64(c->in[2], 0);
      for (int64_t i = 0; i < n; i++) mf_tensor_set_i64(out, i, (int64_t)(s + (uint64_t)i * d));
    }
  }
  return MF_OK;
}

const mf_op_def mf_op_Range = {
    .name = "Range", .input_names = "start,limit,delta", .min_inputs = 3, .max_inputs = 3,
    .infer = range_infer, .kernel = range_kernel, .flags = MF_OP_NO_GRADIENT,
    .doc = "The sequence start, start+delta, ... up to but excluding limit.",
    .tf_attrs = "Tidx:0",
};

static mf_status linspace_infer(mf_op_call *c, mf_error *err) {
  static const char *const names[] = {"start", "stop", "num"};
  MF_TRY(mf_infer_same_dtype(c, 0, 2, err));
  MF_TRY(mf_infer_check_dtype(c, 0, mf_dtype_is_float, "float", err));
  for (int i = 0; i < 3; i++) MF_TRY(check_scalar(c, i, names[i], err));
  int64_t num = MF_UNKNOWN_DIM;
  int n;
  bool known;
  MF_TRY(mf_input_ints(c, 2, &num, 1, &n, &known, err));
  if (known && num <= 0)
    return mf_op_fail(c, err, MF_ERR_INVALID_ARGUMENT, "Requires num > 0: %lld", (long long)num);
  return mf_infer_output(c, c->in_specs[0].dtype, 1, &num, err);
}

static mf_status linspace_kernel(mf_op_call *c, mf_error *err) {
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  int64_t n = out->size;
  /* In the dtype's own precision, with the last value exactly stop (TF). */
#define LINSPACE(T)                                                   \
  {                                                                   \
    T s = MF_DATA(c->in[0], T)[0], e = MF_DATA(c->in[1], T)[0];       \
    T *o = MF_DATA(out, T);                                           \
    T step = n > 1 ? (e - s) / (T)(n - 1) : 0;                        \
    for (int64_t i = 0; i < n; i++) o[i] = s + step * (T)i;           \
    if (n > 1) o[n - 1] = e;                                          \
  }
  if (out->dtype == MF_FLOAT32)
    LINSPACE(float)
  else
    LINSPACE(double)
#undef LINSPACE
  return MF_OK;
}

const mf_op_def mf_op_LinSpace = {
    .name = "LinSpace", .input_names = "start,stop,num", .min_inputs = 3, .max_inputs = 3,
    .infer = linspace_infer, .kernel = linspace_kernel, .flags = MF_OP_NO_GRADIENT,
    .doc = "num evenly spaced values from start to stop inclusive.",
    .tf_attrs = "T:0 Tidx:2",
};
