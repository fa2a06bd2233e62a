/* ops_image.c — bilinear resizing of NHWC image batches (ResizeBilinear,
 * what tf.image.resize runs by default) and its gradient
 * (ResizeBilinearGrad).
 *
 * Both follow TF's CPU kernels to the float: per output row and column
 * a (lower, upper, lerp) triple is computed once in float arithmetic, with
 * either the legacy scaler (x * scale) or the half-pixel-centres one
 * ((x + 0.5) * scale - 0.5, what tf.image.resize uses); the forward pass
 * interpolates in float, the gradient scatters each incoming value to the
 * four source pixels with the same weights. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "interrupt.h"
#include "kernel_util.h"
#include "op.h"
#include "partial.h"

typedef struct interp {
  int64_t lower, upper;
  float lerp;
} interp;

/* TF's CalculateResizeScale. */
static float resize_scale(int64_t in, int64_t out, bool align_corners) {
  return align_corners && out > 1 ? (float)(in - 1) / (float)(out - 1) : (float)in / (float)out;
}

/* One weight triple per output position along an axis, in a fresh array
 * (caller frees). */
static mf_status axis_weights(int64_t in, int64_t out, bool align_corners, bool half_pixel,
                              interp **w, mf_error *err) {
  MF_TRY(mf_scratch_alloc((size_t)out, sizeof **w, (void **)w, err));
  float scale = resize_scale(in, out, align_corners);
  for (int64_t i = 0; i < out; i++) {
    float x = half_pixel ? ((float)i + 0.5f) * scale - 0.5f : (float)i * scale;
    float xf = floorf(x);
    int64_t lo = (int64_t)xf, hi = (int64_t)ceilf(x);
    (*w)[i] = (interp){.lower = lo > 0 ? lo : 0, .upper = hi < in - 1 ? hi : in - 1,
                       .lerp = x - xf};
  }
  return MF_OK;
}

static mf_status read_flags(const mf_op_call *c, bool *align, bool *half, mf_error *err) {
  *align = mf_attr_bool(c->attrs, "align_corners", false);
  *half = mf_attr_bool(c->attrs, "half_pixel_centers", false);
  if (*align && *half)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "If half_pixel_centers is True, align_corners must be False. [Op:%s]",
                        c->op->name);
  return MF_OK;
}

static mf_status check_4d(const mf_op_call *c, int i, const char *what, mf_error *err) {
  const mf_spec *s = &c->in_specs[i];
  if (s->rank < 0 || s->rank == 4) return MF_OK;
  char buf[160];
  mf_shape_debug(s->rank, s->shape, buf, sizeof buf);
  return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "%s must be 4-dimensional%s [Op:%s]", what,
                      buf, c->op->name);
}

/* Both weight tables for resizing [h, w] <-> [oh, ow]; frees on failure. */
static mf_status both_weights(const mf_op_call *c, int64_t h, int64_t w, int64_t oh, int64_t ow,
                              interp **ys, interp **xs, mf_error *err) {
  bool align, half;
  MF_TRY(read_flags(c, &align, &half, err));
  MF_TRY(axis_weights(h, oh, align, half, ys, err));
  mf_status s = axis_weights(w, ow, align, half, xs, err);
  if (s != MF_OK) free(*ys);
  return s;
}

/* ---- ResizeBilinear(images, size) ---- */

static mf_status resize_infer(mf_op_call *c, mf_error *err) {
  bool align, half;
  MF_TRY(read_flags(c, &align, &half, err));
  MF_TRY(mf_infer_check_dtype(c, 0, mf_dtype_is_numeric, "numeric", err));
  MF_TRY(check_4d(c, 0, "input", err));
  const mf_spec *im = &c->in_specs[0], *sz = &c->in_specs[1];
  if (sz->dtype != MF_INT32)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "cannot compute ResizeBilinear as input #1(zero-based) was expected to be "
                        "a int32 tensor but is a %s tensor [Op:ResizeBilinear]",
                        mf_dtype_name(sz->dtype));
  char buf[160];
  mf_shape_debug(sz->rank, sz->shape, buf, sizeof buf);
  if (sz->rank >= 0 && sz->rank != 1)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "shape_t must be 1-D%s [Op:ResizeBilinear]", buf);
  if (sz->rank == 1 && sz->shape[0] >= 0 && sz->shape[0] != 2)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "shape_t must have two elements%s [Op:ResizeBilinear]", buf);
  if (im->rank == 4 && (im->shape[1] == 0 || im->shape[2] == 0))
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "input image must be of non-zero size [Op:ResizeBilinear]");
  int64_t hw[2] = {-1, -1};
  int n;
  /* While tracing, the height and width known of a size that is not:
   * TF's tf.image.resize sets them on its result (constant_value_as_shape
   * of the size), where ResizeBilinear's shape function alone would not. */
  const mf_partial *p = mf_input_partial(c, 1);
  for (int k = 0; !c->in[1] && p && p->n == 2 && k < 2; k++) hw[k] = p->v[k] >= 0 ? p->v[k] : -1;
  if (mf_infer_const_ints(c, 1, hw, 2, &n) && (hw[0] <= 0 || hw[1] <= 0))
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "output dimensions must be positive [Op:ResizeBilinear]");
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  bool known = im->rank == 4;
  c->out_specs[0] = (mf_spec){.dtype = MF_FLOAT32, .rank = 4,
                              .shape = {known ? im->shape[0] : -1, hw[0], hw[1],
                                        known ? im->shape[3] : -1}};
  return MF_OK;
}

/* TF's compute_lerp, in float. */
static inline float lerp2(float tl, float tr, float bl, float br, float xl, float yl) {
  float top = tl + (tr - tl) * xl, bottom = bl + (br - bl) * xl;
  return top + (bottom - top) * yl;
}

#define DEFINE_RESIZE(SUF, T)                                                               \
  static mf_status resize_##SUF(const T *in, int64_t n, int64_t h, int64_t w, int64_t ch,   \
                                const interp *ys, int64_t oh, const interp *xs, int64_t ow, \
                                float *out, mf_error *err) {                                \
    for (int64_t b = 0; b < n; b++, in += h * w * ch) {                                     \
      MF_TRY(mf_interrupt_check(err));                                                      \
      for (int64_t y = 0; y < oh; y++) {                                                    \
        const T *top = in + ys[y].lower * w * ch, *bot = in + ys[y].upper * w * ch;         \
        for (int64_t x = 0; x < ow; x++, out += ch) {                                       \
          int64_t l = xs[x].lower * ch, r = xs[x].upper * ch;                               \
          for (int64_t k = 0; k < ch; k++)                                                  \
            out[k] = lerp2((float)top[l + k], (float)top[r + k], (float)bot[l + k],         \
                           (float)bot[r + k], xs[x].lerp, ys[y].lerp);                      \
        }                                                                                   \
      }                                                                                     \
    }                                                                                       \
    return MF_OK;                                                                           \
  }
DEFINE_RESIZE(f32, float)
DEFINE_RESIZE(f64, double)
DEFINE_RESIZE(i32, int32_t)
DEFINE_RESIZE(i64, int64_t)
#undef DEFINE_RESIZE

static mf_status resize_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *im = c->in[0];
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  int64_t n = im->shape[0], h = im->shape[1], w = im->shape[2], ch = im->shape[3];
  int64_t oh = out->shape[1], ow = out->shape[2];
  interp *ys, *xs;
  MF_TRY(both_weights(c, h, w, oh, ow, &ys, &xs, err));
  const void *src = mf_tensor_data(im);
  float *dst = mf_tensor_data(out);
  mf_status s;
  switch (im->dtype) {
    case MF_FLOAT32: s = resize_f32(src, n, h, w, ch, ys, oh, xs, ow, dst, err); break;
    case MF_FLOAT64: s = resize_f64(src, n, h, w, ch, ys, oh, xs, ow, dst, err); break;
    case MF_INT32: s = resize_i32(src, n, h, w, ch, ys, oh, xs, ow, dst, err); break;
    default: s = resize_i64(src, n, h, w, ch, ys, oh, xs, ow, dst, err); break;
  }
  free(ys);
  free(xs);
  return s;
}

const mf_op_def mf_op_ResizeBilinear = {
    .name = "ResizeBilinear", .input_names = "images,size", .min_inputs = 2, .max_inputs = 2,
    .attrs = {{"align_corners", MF_ATTR_BOOL}, {"half_pixel_centers", MF_ATTR_BOOL}},
    .infer = resize_infer, .kernel = resize_kernel, .flags = 0,
    .doc = "Resizes NHWC images to size = [height, width] by bilinear interpolation "
           "(float32 result).",
    .tf_attrs = "T:0 align_corners=false half_pixel_centers=false",
};

/* ---- ResizeBilinearGrad(grads, original_image) ---- */

static mf_status resize_grad_infer(mf_op_call *c, mf_error *err) {
  bool align, half;
  MF_TRY(read_flags(c, &align, &half, err));
  if (c->in_specs[0].dtype != MF_FLOAT32)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "input_grad must be of type float, got %s [Op:ResizeBilinearGrad]",
                        mf_dtype_name(c->in_specs[0].dtype));
  MF_TRY(mf_infer_check_dtype(c, 1, mf_dtype_is_float, "float", err));
  MF_TRY(check_4d(c, 0, "input_grad", err));
  MF_TRY(check_4d(c, 1, "original_image", err));
  const mf_spec *g = &c->in_specs[0], *im = &c->in_specs[1];
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  bool gk = g->rank == 4, ik = im->rank == 4;
  /* TF takes batch and channels from the gradient, the spatial size from
   * the original image. */
  c->out_specs[0] = (mf_spec){.dtype = im->dtype, .rank = 4,
                              .shape = {gk ? g->shape[0] : -1, ik ? im->shape[1] : -1,
                                        ik ? im->shape[2] : -1, gk ? g->shape[3] : -1}};
  return MF_OK;
}

#define DEFINE_RESIZE_GRAD(SUF, T)                                                           \
  static mf_status resize_grad_##SUF(const float *g, int64_t n, int64_t oh, int64_t ow,      \
                                     int64_t ch, const interp *ys, const interp *xs,         \
                                     int64_t h, int64_t w, T *out, mf_error *err) {          \
    for (int64_t b = 0; b < n; b++, out += h * w * ch) {                                     \
      MF_TRY(mf_interrupt_check(err));                                                       \
      for (int64_t y = 0; y < oh; y++) {                                                     \
        float yl = ys[y].lerp, iyl = 1.0f - yl;                                              \
        T *top = out + ys[y].lower * w * ch, *bot = out + ys[y].upper * w * ch;              \
        for (int64_t x = 0; x < ow; x++, g += ch) {                                          \
          float xl = xs[x].lerp, ixl = 1.0f - xl;                                            \
          int64_t l = xs[x].lower * ch, r = xs[x].upper * ch;                                \
          for (int64_t k = 0; k < ch; k++) {                                                 \
            top[l + k] += (T)(g[k] * iyl * ixl);                                             \
            top[r + k] += (T)(g[k] * iyl * xl);                                              \
            bot[l + k] += (T)(g[k] * yl * ixl);                                              \
            bot[r + k] += (T)(g[k] * yl * xl);                                               \
          }                                                                                  \
        }                                                                                    \
      }                                                                                      \
    }                                                                                        \
    return MF_OK;                                                                            \
  }
DEFINE_RESIZE_GRAD(f32, float)
DEFINE_RESIZE_GRAD(f64, double)
#undef DEFINE_RESIZE_GRAD

static mf_status resize_grad_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *g = c->in[0];
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  memset(mf_tensor_data(out), 0, (size_t)out->size * mf_dtype_size(out->dtype));
  int64_t n = g->shape[0], oh = g->shape[1], ow = g->shape[2], ch = g->shape[3];
  int64_t h = out->shape[1], w = out->shape[2];
  if (out->size == 0 || g->size == 0) return MF_OK;
  interp *ys, *xs;
  MF_TRY(both_weights(c, h, w, oh, ow, &ys, &xs, err));
  mf_status s = out->dtype == MF_FLOAT32
                    ? resize_grad_f32(mf_tensor_data(g), n, oh, ow, ch, ys, xs, h, w,
                                      mf_tensor_data(out), err)
                    : resize_grad_f64(mf_tensor_data(g), n, oh, ow, ch, ys, xs, h, w,
                                      mf_tensor_data(out), err);
  free(ys);
  free(xs);
  return s;
}

const mf_op_def mf_op_ResizeBilinearGrad = {
    .name = "ResizeBilinearGrad", .input_names = "grads,original_image", .min_inputs = 2,
    .max_inputs = 2,
    .attrs = {{"align_corners", MF_ATTR_BOOL}, {"half_pixel_centers", MF_ATTR_BOOL}},
    .infer = resize_grad_infer, .kernel = resize_grad_kernel, .flags = MF_OP_NO_GRADIENT,
    .doc = "The gradient of ResizeBilinear with respect to its images.",
    .tf_attrs = "T:1 align_corners=false half_pixel_centers=false",
};
