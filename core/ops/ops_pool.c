/* ops_pool.c — 2-D max and average pooling over NHWC images and their
 * gradients: MaxPool, MaxPoolGrad, MaxPoolGradGrad, AvgPool, AvgPoolGrad.
 *
 * The geometry is TF's (GetWindowedOutputSize): VALID keeps only whole
 * windows, SAME pads so that out = ceil(in / stride), the padding split
 * with the smaller half first. Padding never takes part in a result: a max
 * is taken over the window's real pixels, and an average divides by how
 * many real pixels the window covers (TF's CPU kernels do the same, so a
 * SAME average at a border is larger than a zero-padded one).
 *
 * MaxPool's gradient goes to one input per window: the first maximum in
 * row-major window order, as TF's CPU kernel (SpatialMaxPoolWithArgMaxHelper)
 * picks it, recomputed from orig_input by MaxPoolGrad; MaxPoolGradGrad
 * reads the gradient's gradient back from those same positions. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "interrupt.h"
#include "kernel_util.h"
#include "op.h"
#include "shape_fn.h"

typedef struct pool_geom {
  int64_t n, ih, iw, ch; /* input, NHWC */
  int64_t kh, kw, sh, sw;
  int64_t oh, ow, pad_top, pad_left;
} pool_geom;

/* The window of output (oy, ox), clipped to the image: rows [*y0, *y1),
 * columns [*x0, *x1). */
static void clip(const pool_geom *g, int64_t oy, int64_t ox, int64_t *y0, int64_t *y1,
                 int64_t *x0, int64_t *x1) {
  int64_t ys = oy * g->sh - g->pad_top, xs = ox * g->sw - g->pad_left;
  *y0 = ys > 0 ? ys : 0;
  *x0 = xs > 0 ? xs : 0;
  *y1 = ys + g->kh < g->ih ? ys + g->kh : g->ih;
  *x1 = xs + g->kw < g->iw ? xs + g->kw : g->iw;
}

static mf_status four_ints(const mf_op_call *c, const char *name, const char *field, int64_t *v,
                           mf_error *err) {
  const mf_attr *a = mf_attrs_find(c->attrs, name);
  if (!a)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "%s requires the '%s' attribute [Op:%s]",
                        c->op->name, name, c->op->name);
  if (a->u.ints.n != 4)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Sliding window %s field must specify 4 dimensions [Op:%s]", field,
                        c->op->name);
  memcpy(v, a->u.ints.v, 4 * sizeof *v);
  return MF_OK;
}

/* Reads ksize, strides, padding and data_format into g (kh..sw) and
 * whether the padding is SAME. */
static mf_status read_attrs(const mf_op_call *c, pool_geom *g, bool *same, mf_error *err) {
  const char *op = c->op->name;
  const char *fmt = mf_attr_string(c->attrs, "data_format", "NHWC");
  if (strcmp(fmt, "NCHW") == 0)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Default %s only supports NHWC on device type CPU (moonflow runs on the "
                        "CPU only; transpose to NHWC) [Op:%s]",
                        strncmp(op, "Max", 3) == 0 ? "MaxPoolingOp" : "AvgPoolingOp", op);
  if (strcmp(fmt, "NHWC") != 0)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Value for attr 'data_format' of \"%s\" is not in the list of allowed "
                        "values: \"NHWC\", \"NCHW\" [Op:%s]",
                        fmt, op);
  int64_t k[4], s[4];
  MF_TRY(four_ints(c, "ksize", "ksize", k, err));
  MF_TRY(four_ints(c, "strides", "stride", s, err));
  for (int i = 0; i < 4; i++) {
    if (k[i] <= 0 || k[i] > INT32_MAX)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "Sliding window ksize for dimension %d was %lld: it must be a positive "
                          "int32 value [Op:%s]",
                          i, (long long)k[i], op);
    if (s[i] <= 0 || s[i] > INT32_MAX)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "Sliding window stride for dimension %d was %lld: it must be a positive "
                          "int32 value [Op:%s]",
                          i, (long long)s[i], op);
  }
  if (k[0] != 1 || s[0] != 1)
    return mf_error_set(err, MF_ERR_UNIMPLEMENTED,
                        "Pooling is not yet supported on the batch dimension. [Op:%s]", op);
  if (k[3] != 1 || s[3] != 1)
    return mf_error_set(err, MF_ERR_UNIMPLEMENTED,
                        "moonflow pools over the spatial dimensions only: ksize and strides must "
                        "be 1 in the depth dimension, got %lld and %lld [Op:%s]",
                        (long long)k[3], (long long)s[3], op);
  g->kh = k[1], g->kw = k[2], g->sh = s[1], g->sw = s[2];
  const char *pad = mf_attr_string(c->attrs, "padding", NULL);
  if (!pad)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "%s requires the 'padding' attribute [Op:%s]", op, op);
  if (strcmp(pad, "SAME") != 0 && strcmp(pad, "VALID") != 0)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Value for attr 'padding' of \"%s\" is not in the list of allowed "
                        "values: \"SAME\", \"VALID\" [Op:%s]",
                        pad, op);
  *same = pad[0] == 'S';
  return MF_OK;
}

/* One spatial dimension: output size and padding before, -1 when the
 * input size is unknown. */
static mf_status window(const mf_op_call *c, bool same, int dim, int64_t in, int64_t k, int64_t s,
                        int64_t *out, int64_t *pad, mf_error *err) {
  *out = -1, *pad = 0;
  if (in < 0) return MF_OK;
  if (same) {
    *out = (in + s - 1) / s;
    int64_t need = (*out - 1) * s + k - in;
    *pad = need > 0 ? need / 2 : 0;
    return MF_OK;
  }
  if (k > in && in > 0)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "ksize dimension %d (%lld) is larger than the input tensor dimension "
                        "(%lld) with VALID padding [Op:%s]",
                        dim + 1, (long long)k, (long long)in, c->op->name);
  *out = in >= k ? (in - k + s) / s : 0;
  return MF_OK;
}

/* The geometry for an input of NHWC dims `in` (entries may be -1). */
static mf_status build_geom(const mf_op_call *c, const int64_t *in, pool_geom *g, mf_error *err) {
  bool same = false;
  MF_TRY(read_attrs(c, g, &same, err));
  g->n = in[0], g->ih = in[1], g->iw = in[2], g->ch = in[3];
  MF_TRY(window(c, same, 0, g->ih, g->kh, g->sh, &g->oh, &g->pad_top, err));
  return window(c, same, 1, g->iw, g->kw, g->sw, &g->ow, &g->pad_left, err);
}

static mf_status dims4(const mf_op_call *c, int i, const char *what, int64_t *d, mf_error *err) {
  const mf_spec *s = &c->in_specs[i];
  for (int k = 0; k < 4; k++) d[k] = s->rank == 4 ? s->shape[k] : -1;
  if (s->rank < 0 || s->rank == 4) return MF_OK;
  char buf[160];
  mf_shape_debug(s->rank, s->shape, buf, sizeof buf);
  return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "%s must be 4-dimensional, got shape %s [Op:%s]",
                      what, buf, c->op->name);
}

static bool is_f32_f64(mf_dtype dt) { return dt == MF_FLOAT32 || dt == MF_FLOAT64; }

/* Inputs [from, to) are float32 or float64 and of one dtype. */
static mf_status check_floats(mf_op_call *c, int from, int to, mf_error *err) {
  MF_TRY(mf_infer_check_dtype(c, from, is_f32_f64, "float32 or float64", err));
  return mf_infer_same_dtype(c, from, to, err);
}

static void set_out(mf_op_call *c, mf_dtype dt, const int64_t *d) {
  c->out_specs[0] = (mf_spec){.dtype = dt, .rank = 4, .shape = {d[0], d[1], d[2], d[3]}};
}

/* A gradient's dims must be the forward output's, where both are known. */
static mf_status check_grad(const mf_op_call *c, const pool_geom *g, const int64_t *dy,
                            const char *what, mf_error *err) {
  const int64_t want[4] = {g->n, g->oh, g->ow, g->ch};
  for (int i = 0; i < 4; i++)
    if (want[i] >= 0 && dy[i] >= 0 && want[i] != dy[i])
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "Expected %s dimension %d to be %lld, got %lld (the pooled output's "
                          "shape) [Op:%s]",
                          what, i, (long long)want[i], (long long)dy[i], c->op->name);
  return MF_OK;
}

/* ---- kernels, one per dtype ---- */

/* Calls BODY for each output pixel of each image with its clipped window;
 * polls the interrupt flag once per image row. `in_px` and `out_px` index
 * the image's first input pixel and the output pixel. */
#define FOR_EACH_WINDOW(g, BODY)                                                  \
  for (int64_t b = 0; b < (g)->n; b++)                                            \
    for (int64_t oy = 0; oy < (g)->oh; oy++) {                                    \
      MF_TRY(mf_interrupt_check(err));                                            \
      for (int64_t ox = 0; ox < (g)->ow; ox++) {                                  \
        int64_t y0, y1, x0, x1;                                                   \
        clip(g, oy, ox, &y0, &y1, &x0, &x1);                                      \
        const int64_t img = b * (g)->ih * (g)->iw;                                \
        const int64_t out_px = (b * (g)->oh + oy) * (g)->ow + ox;                 \
        (void)img, (void)out_px;                                                  \
        BODY                                                                      \
      }                                                                           \
    }

/* The flat input index of each channel's first maximum in the window, in
 * best[0 .. ch), with val[0 .. ch) as scratch: all channels at once, each
 * pixel's channels contiguous (the vectoriser's loop), the first pixel's
 * value kept until a later one is greater (so a NaN first stays, and
 * later NaNs never win: the per-channel walk's rule). An empty window
 * gives -1. */
#define DEFINE_ARGMAX(SUF, T)                                                            \
  static void argmax_##SUF(const pool_geom *g, const T *x, int64_t img, int64_t y0,      \
                           int64_t y1, int64_t x0, int64_t x1, T *restrict val,          \
                           int64_t *restrict best) {                                     \
    const int64_t ch = g->ch;                                                            \
    if (y0 >= y1 || x0 >= x1) {                                                          \
      for (int64_t k = 0; k < ch; k++) best[k] = -1;                                     \
      return;                                                                            \
    }                                                                                    \
    const int64_t first = (img + y0 * g->iw + x0) * ch;                                  \
    for (int64_t k = 0; k < ch; k++) {                                                   \
      val[k] = x[first + k];                                                             \
      best[k] = first + k;                                                               \
    }                                                                                    \
    for (int64_t y = y0; y < y1; y++)                                                    \
      for (int64_t xx = y == y0 ? x0 + 1 : x0; xx < x1; xx++) {                          \
        const int64_t at = (img + y * g->iw + xx) * ch;                                  \
        const T *p = x + at;                                                             \
        for (int64_t k = 0; k < ch; k++) {                                               \
          bool more = p[k] > val[k];                                                     \
          val[k] = more ? p[k] : val[k];                                                 \
          best[k] = more ? at + k : best[k];                                             \
        }                                                                                \
      }                                                                                  \
  }

#define DEFINE_KERNELS(SUF, T)                                                            \
  DEFINE_ARGMAX(SUF, T)                                                                   \
  static mf_status max_pool_##SUF(const pool_geom *g, const T *x, T *y, mf_error *err) {  \
    FOR_EACH_WINDOW(g, {                                                                  \
      T *o = y + out_px * g->ch;                                                          \
      for (int64_t k = 0; k < g->ch; k++) o[k] = -(T)INFINITY;                            \
      for (int64_t yy = y0; yy < y1; yy++)                                                \
        for (int64_t xx = x0; xx < x1; xx++) {                                            \
          const T *p = x + (img + yy * g->iw + xx) * g->ch;                               \
          for (int64_t k = 0; k < g->ch; k++)                                             \
            if (p[k] > o[k]) o[k] = p[k];                                                 \
        }                                                                                 \
    })                                                                                    \
    return MF_OK;                                                                         \
  }                                                                                       \
  static mf_status max_pool_grad_##SUF(const pool_geom *g, const T *x, const T *dy, T *dx, \
                                       T *val, int64_t *best, mf_error *err) {            \
    memset(dx, 0, (size_t)(g->n * g->ih * g->iw * g->ch) * sizeof(T));                   \
    FOR_EACH_WINDOW(g, {                                                                  \
      argmax_##SUF(g, x, img, y0, y1, x0, x1, val, best);                                 \
      for (int64_t k = 0; k < g->ch; k++)                                                 \
        if (best[k] >= 0) dx[best[k]] += dy[out_px * g->ch + k];                          \
    })                                                                                    \
    return MF_OK;                                                                         \
  }                                                                                       \
  static mf_status max_pool_grad_grad_##SUF(const pool_geom *g, const T *x, const T *gg,  \
                                            T *out, T *val, int64_t *best, mf_error *err) { \
    FOR_EACH_WINDOW(g, {                                                                  \
      argmax_##SUF(g, x, img, y0, y1, x0, x1, val, best);                                 \
      for (int64_t k = 0; k < g->ch; k++)                                                 \
        out[out_px * g->ch + k] = best[k] >= 0 ? gg[best[k]] : 0;                         \
    })                                                                                    \
    return MF_OK;                                                                         \
  }                                                                                       \
  static mf_status avg_pool_##SUF(const pool_geom *g, const T *x, T *y, mf_error *err) {  \
    FOR_EACH_WINDOW(g, {                                                                  \
      T *o = y + out_px * g->ch;                                                          \
      for (int64_t k = 0; k < g->ch; k++) o[k] = 0;                                       \
      for (int64_t yy = y0; yy < y1; yy++)                                                \
        for (int64_t xx = x0; xx < x1; xx++) {                                            \
          const T *p = x + (img + yy * g->iw + xx) * g->ch;                               \
          for (int64_t k = 0; k < g->ch; k++) o[k] += p[k];                               \
        }                                                                                 \
      T count = (T)((y1 - y0) * (x1 - x0));                                               \
      for (int64_t k = 0; k < g->ch; k++) o[k] /= count;                                  \
    })                                                                                    \
    return MF_OK;                                                                         \
  }                                                                                       \
  static mf_status avg_pool_grad_##SUF(const pool_geom *g, const T *dy, T *dx,            \
                                       mf_error *err) {                                   \
    memset(dx, 0, (size_t)(g->n * g->ih * g->iw * g->ch) * sizeof(T));                   \
    FOR_EACH_WINDOW(g, {                                                                  \
      const T *d = dy + out_px * g->ch;                                                   \
      T count = (T)((y1 - y0) * (x1 - x0));                                               \
      for (int64_t yy = y0; yy < y1; yy++)                                                \
        for (int64_t xx = x0; xx < x1; xx++) {                                            \
          T *p = dx + (img + yy * g->iw + xx) * g->ch;                                    \
          for (int64_t k = 0; k < g->ch; k++) p[k] += d[k] / count;                       \
        }                                                                                 \
    })                                                                                    \
    return MF_OK;                                                                         \
  }
DEFINE_KERNELS(f32, float)
DEFINE_KERNELS(f64, double)
#undef DEFINE_KERNELS
#undef DEFINE_ARGMAX

#define DATA(t) mf_tensor_data(t)
#define DISPATCH(dt, NAME, ...) \
  ((dt) == MF_FLOAT32 ? NAME##_f32(__VA_ARGS__) : NAME##_f64(__VA_ARGS__))

#define POOL_ATTRS                                                            \
  {"ksize", MF_ATTR_INTS}, {"strides", MF_ATTR_INTS}, {"padding", MF_ATTR_STRING}, \
      {"data_format", MF_ATTR_STRING}

/* ---- MaxPool(input), AvgPool(value) ---- */

static mf_status pool_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(check_floats(c, 0, 1, err));
  int64_t in[4];
  MF_TRY(dims4(c, 0, "input", in, err));
  pool_geom g;
  MF_TRY(build_geom(c, in, &g, err));
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  set_out(c, c->in_specs[0].dtype, (const int64_t[]){g.n, g.oh, g.ow, g.ch});
  return MF_OK;
}

static mf_status pool_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *x = c->in[0];
  pool_geom g;
  MF_TRY(build_geom(c, x->shape, &g, err));
  mf_tensor *y;
  MF_TRY(mf_op_alloc_output(c, 0, &y, err));
  if (c->op->name[0] == 'M') return DISPATCH(x->dtype, max_pool, &g, DATA(x), DATA(y), err);
  return DISPATCH(x->dtype, avg_pool, &g, DATA(x), DATA(y), err);
}

const mf_op_def mf_op_MaxPool = {
    .name = "MaxPool", .input_names = "input", .min_inputs = 1, .max_inputs = 1,
    .attrs = {POOL_ATTRS},
    .infer = pool_infer, .kernel = pool_kernel, .flags = 0,
    .doc = "The maximum over each ksize window of an NHWC input (strides, SAME/VALID padding).",
    .tf_attrs = "T:0 data_format=\"NHWC\" explicit_paddings=[] ksize padding strides",
};

const mf_op_def mf_op_AvgPool = {
    .name = "AvgPool", .input_names = "value", .min_inputs = 1, .max_inputs = 1,
    .attrs = {POOL_ATTRS},
    .infer = pool_infer, .kernel = pool_kernel, .flags = 0,
    .doc = "The mean over each ksize window of an NHWC input; SAME padding counts real pixels only.",
    .tf_attrs = "T:0 data_format=\"NHWC\" ksize padding strides",
};

/* ---- MaxPoolGrad(orig_input, orig_output, grad) -> like orig_input;
 *      MaxPoolGradGrad(orig_input, orig_output, grad) -> like orig_output ---- */

static mf_status max_grad_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(check_floats(c, 0, 3, err));
  int64_t in[4], out[4], g3[4];
  MF_TRY(dims4(c, 0, "orig_input", in, err));
  MF_TRY(dims4(c, 1, "orig_output", out, err));
  MF_TRY(dims4(c, 2, "grad", g3, err));
  pool_geom g;
  MF_TRY(build_geom(c, in, &g, err));
  MF_TRY(check_grad(c, &g, out, "orig_output", err));
  bool gradgrad = strcmp(c->op->name, "MaxPoolGradGrad") == 0;
  if (gradgrad) {
    for (int i = 0; i < 4; i++)
      if (in[i] >= 0 && g3[i] >= 0 && in[i] != g3[i])
        return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                            "grad must have the shape of orig_input: dimension %d is %lld, not "
                            "%lld [Op:%s]",
                            i, (long long)g3[i], (long long)in[i], c->op->name);
  } else {
    MF_TRY(check_grad(c, &g, g3, "grad", err));
  }
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  set_out(c, c->in_specs[0].dtype, gradgrad ? (const int64_t[]){g.n, g.oh, g.ow, g.ch} : in);
  return MF_OK;
}

static mf_status max_grad_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *x = c->in[0], *gin = c->in[2];
  pool_geom g;
  MF_TRY(build_geom(c, x->shape, &g, err));
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  /* a window's running maxima and their indices, one per channel */
  void *val = mf_malloc((size_t)(g.ch > 0 ? g.ch : 1) * sizeof(double));
  int64_t *best = mf_malloc((size_t)(g.ch > 0 ? g.ch : 1) * sizeof *best);
  mf_status s = MF_OK;
  if (!val || !best)
    s = mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory in %s", c->op->name);
  else if (strcmp(c->op->name, "MaxPoolGradGrad") == 0)
    s = DISPATCH(x->dtype, max_pool_grad_grad, &g, DATA(x), DATA(gin), DATA(out), val, best, err);
  else
    s = DISPATCH(x->dtype, max_pool_grad, &g, DATA(x), DATA(gin), DATA(out), val, best, err);
  free(val);
  free(best);
  return s;
}

const mf_op_def mf_op_MaxPoolGrad = {
    .name = "MaxPoolGrad", .input_names = "orig_input,orig_output,grad",
    .min_inputs = 3, .max_inputs = 3,
    .attrs = {POOL_ATTRS},
    .infer = max_grad_infer, .kernel = max_grad_kernel, .flags = 0,
    .doc = "The gradient of MaxPool: each window's gradient goes to its first maximum.",
    .tf_attrs = "T:0 data_format=\"NHWC\" explicit_paddings=[] ksize padding strides",
};

const mf_op_def mf_op_MaxPoolGradGrad = {
    .name = "MaxPoolGradGrad", .input_names = "orig_input,orig_output,grad",
    .min_inputs = 3, .max_inputs = 3,
    .attrs = {POOL_ATTRS},
    .infer = max_grad_infer, .kernel = max_grad_kernel, .flags = 0,
    .doc = "The gradient of MaxPoolGrad: grad (shaped as orig_input) read at each window's "
           "first maximum.",
    .tf_attrs = "T:0 data_format=\"NHWC\" ksize padding strides",
};

/* ---- AvgPoolGrad(orig_input_shape, grad) ---- */

static mf_status avg_grad_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(check_floats(c, 1, 2, err));
  const mf_spec *s = &c->in_specs[0];
  if (s->dtype != MF_INT32)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "orig_input_shape must be an int32 tensor, got %s [Op:%s]",
                        mf_dtype_name(s->dtype), c->op->name);
  if (s->rank >= 0 && (s->rank != 1 || (s->shape[0] >= 0 && s->shape[0] != 4)))
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "orig_input_shape must be 1-dimensional and 4 elements [Op:%s]",
                        c->op->name);
  int64_t in[4] = {-1, -1, -1, -1}, dy[4], v[4];
  int n;
  /* While a graph is built, what is known of it (TF: MakeShapeFromShapeTensor). */
  if (!c->in[0] && s->rank == 1 && s->shape[0] == 4) MF_TRY(mf_sf_shape_tensor(c, 0, &n, in, 4, err));
  if (c->in[0] && mf_infer_const_ints(c, 0, v, 4, &n) && n == 4)
    for (int k = 0; k < 4; k++) {
      if (v[k] < 0)
        return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Dimension %lld must be >= 0 [Op:%s]",
                            (long long)v[k], c->op->name);
      in[k] = v[k];
    }
  MF_TRY(dims4(c, 1, "grad", dy, err));
  pool_geom g;
  MF_TRY(build_geom(c, in, &g, err));
  MF_TRY(check_grad(c, &g, dy, "grad", err));
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  set_out(c, c->in_specs[1].dtype, in);
  return MF_OK;
}

static mf_status avg_grad_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *dy = c->in[1];
  mf_tensor *dx;
  MF_TRY(mf_op_alloc_output(c, 0, &dx, err));
  pool_geom g;
  MF_TRY(build_geom(c, dx->shape, &g, err));
  MF_TRY(check_grad(c, &g, dy->shape, "grad", err));
  return DISPATCH(dy->dtype, avg_pool_grad, &g, DATA(dy), DATA(dx), err);
}

const mf_op_def mf_op_AvgPoolGrad = {
    .name = "AvgPoolGrad", .input_names = "orig_input_shape,grad", .min_inputs = 2,
    .max_inputs = 2,
    .attrs = {POOL_ATTRS},
    .infer = avg_grad_infer, .kernel = avg_grad_kernel, .flags = 0,
    .doc = "The gradient of AvgPool: each window's gradient spread evenly over its real pixels.",
    .tf_attrs = "T:1 data_format=\"NHWC\" ksize padding strides",
};
