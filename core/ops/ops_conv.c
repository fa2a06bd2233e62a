/* ops_conv.c — 2-D convolution (NHWC input, HWIO filter) and its two
 * gradients, Conv2DBackpropInput and Conv2DBackpropFilter.
 *
 * All three are im2col + GEMM. A filter in HWIO order is already the
 * [kh*kw*in_c, out_c] matrix, so with the input's receptive fields laid out
 * as rows ("columns" matrix, [pixels, kh*kw*in_c]):
 *   forward          out     = cols x filter
 *   backprop input   cols    = out_backprop x filter^T, scattered back
 *                              into the input by col2im
 *   backprop filter  filter += cols^T x out_backprop, over every image
 * The columns matrix is built a chunk of output pixels at a time so its
 * scratch stays small and cache-resident (a 200x200x100 image with 3x3
 * filters would need 141 MB at once); each chunk is one GEMM, and the
 * interrupt flag is polled between chunks so Ctrl-C stops a large
 * convolution. A 1x1 filter with
 * unit strides and no padding needs no columns matrix: the input is one.
 * A float32 3x3 convolution with unit strides and dilations and enough
 * channels, and its input gradient (a convolution too), go to
 * conv_winograd.c instead (4x fewer multiplies), unless a value is not
 * finite. */
#include <stdlib.h>
#include <string.h>

#include "conv_winograd.h"
#include "interrupt.h"
#include "kernel_util.h"
#include "op.h"
#include "shape_fn.h"

/* Bytes of columns matrix per chunk. The chunk is written by im2col and
 * read at once by the GEMM, so it should stay in L2; measured on the guide's
 * case (K = 900 floats a row, ~580 rows a chunk), 1-2 MB runs 15-25% faster
 * than 8 MB and still gives each GEMM hundreds of rows. */
#define COL_BUDGET ((size_t)2 << 20)

enum padding { PAD_VALID, PAD_SAME, PAD_EXPLICIT };

/* Everything about one convolution's shape; unknown dims are -1 in infer. */
typedef struct conv_geom {
  int64_t n, ih, iw, ic; /* input, NHWC */
  int64_t kh, kw, oc;    /* filter, HWIO (its in-depth is ic) */
  int64_t oh, ow;        /* output spatial size */
  int64_t sh, sw, dh, dw;
  int64_t pad_top, pad_left;
} conv_geom;

typedef struct conv_attrs {
  int64_t sh, sw, dh, dw;
  enum padding padding;
  int64_t explicit_pads[4]; /* top, bottom, left, right */
} conv_attrs;

static mf_status read_attrs(const mf_op_call *c, conv_attrs *a, mf_error *err) {
  const char *op = c->op->name;
  const char *fmt = mf_attr_string(c->attrs, "data_format", "NHWC");
  if (strcmp(fmt, "NCHW") == 0)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "The %s op currently only supports the NHWC tensor format on CPU. The op "
                        "was given the format: NCHW [Op:%s]",
                        op, op);
  if (strcmp(fmt, "NHWC") != 0)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Value for attr 'data_format' of \"%s\" is not in the list of allowed "
                        "values: \"NHWC\", \"NCHW\" [Op:%s]",
                        fmt, op);

  const mf_attr *st = mf_attrs_find(c->attrs, "strides");
  const mf_attr *dl = mf_attrs_find(c->attrs, "dilations");
  int64_t s[4] = {1, 1, 1, 1}, d[4] = {1, 1, 1, 1};
  if (st) {
    if (st->u.ints.n != 4)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "Sliding window strides field must specify 4 dimensions [Op:%s]", op);
    memcpy(s, st->u.ints.v, sizeof s);
  }
  if (dl) {
    if (dl->u.ints.n != 4)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "Sliding window dilations field must specify 4 dimensions [Op:%s]", op);
    memcpy(d, dl->u.ints.v, sizeof d);
  }
  if (s[0] != 1 || s[3] != 1)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Current implementation does not yet support strides in the batch and "
                        "depth dimensions. [Op:%s]", op);
  if (d[0] != 1 || d[3] != 1)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Current implementation does not yet support dilations in the batch and "
                        "depth dimensions. [Op:%s]", op);
  /* The bound keeps (k - 1) * dilation and (out - 1) * stride in range. */
  if (s[1] <= 0 || s[2] <= 0 || s[1] > INT32_MAX || s[2] > INT32_MAX)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Row and column strides should be larger than 0. [Op:%s]", op);
  if (d[1] <= 0 || d[2] <= 0 || d[1] > INT32_MAX || d[2] > INT32_MAX)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Dilated rates should be larger than 0. [Op:%s]", op);
  a->sh = s[1], a->sw = s[2], a->dh = d[1], a->dw = d[2];

  const char *pad = mf_attr_string(c->attrs, "padding", NULL);
  if (!pad)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "%s requires the 'padding' attribute [Op:%s]", op, op);
  const mf_attr *ep = mf_attrs_find(c->attrs, "explicit_paddings");
  int nep = ep ? ep->u.ints.n : 0;
  if (strcmp(pad, "VALID") == 0) a->padding = PAD_VALID;
  else if (strcmp(pad, "SAME") == 0) a->padding = PAD_SAME;
  else if (strcmp(pad, "EXPLICIT") == 0) a->padding = PAD_EXPLICIT;
  else
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Value for attr 'padding' of \"%s\" is not in the list of allowed "
                        "values: \"SAME\", \"VALID\", \"EXPLICIT\" [Op:%s]",
                        pad, op);
  if (a->padding != PAD_EXPLICIT) {
    if (nep != 0)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "explicit_paddings attribute must be empty if the padding attribute "
                          "is not EXPLICIT [Op:%s]", op);
    return MF_OK;
  }
  if (nep != 8)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "explicit_paddings attribute must contain 8 values, but got: %d [Op:%s]",
                        nep, op);
  const int64_t *p = ep->u.ints.v;
  for (int i = 0; i < 8; i++)
    if (p[i] < 0 || p[i] > INT32_MAX)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "All elements of explicit_paddings must be nonnegative, got: %lld "
                          "[Op:%s]", (long long)p[i], op);
  if (p[0] || p[1] || p[6] || p[7])
    return mf_error_set(err, MF_ERR_UNIMPLEMENTED,
                        "Padding is not supported in the batch or depth dimensions [Op:%s]", op);
  memcpy(a->explicit_pads, p + 2, sizeof a->explicit_pads);
  return MF_OK;
}

/* TF's GetWindowedOutputSize for one spatial dim: the output size and the
 * padding before it. An unknown input or filter size gives an unknown
 * output. */
static mf_status window(const mf_op_call *c, const conv_attrs *a, int dim, int64_t in, int64_t k,
                        int64_t *out, int64_t *pad_before, mf_error *err) {
  *out = -1;
  *pad_before = 0;
  if (in < 0 || k < 0) return MF_OK;
  int64_t s = dim ? a->sw : a->sh, d = dim ? a->dw : a->dh;
  if (k > 0 && k - 1 > (INT64_MAX / 4) / d)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "filter size %lld is too large [Op:%s]",
                        (long long)k, c->op->name);
  int64_t eff = k > 0 ? (k - 1) * d + 1 : 0;
  switch (a->padding) {
    case PAD_VALID: *out = (in - eff + s) / s; break;
    case PAD_SAME: {
      *out = (in + s - 1) / s;
      int64_t needed = (*out - 1) * s + eff - in;
      *pad_before = needed > 0 ? needed / 2 : 0;
      break;
    }
    case PAD_EXPLICIT:
      *pad_before = a->explicit_pads[2 * dim];
      *out = (in + *pad_before + a->explicit_pads[2 * dim + 1] - eff + s) / s;
      break;
  }
  if (*out < 0)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Computed output size would be negative: %lld [input_size: %lld, "
                        "effective_filter_size: %lld, stride: %lld] [Op:%s]",
                        (long long)*out, (long long)in, (long long)eff, (long long)s, c->op->name);
  return MF_OK;
}

/* Fills g from the input's NHWC dims and the filter's HWIO dims (either
 * entry may be -1) and the attributes; checks depths agree. */
static mf_status build_geom(const mf_op_call *c, const int64_t *in, const int64_t *filter,
                            conv_geom *g, mf_error *err) {
  conv_attrs a;
  MF_TRY(read_attrs(c, &a, err));
  *g = (conv_geom){.n = in[0], .ih = in[1], .iw = in[2], .ic = in[3] >= 0 ? in[3] : filter[2],
                   .kh = filter[0], .kw = filter[1], .oc = filter[3],
                   .sh = a.sh, .sw = a.sw, .dh = a.dh, .dw = a.dw};
  if (in[3] >= 0 && filter[2] >= 0 && in[3] != filter[2]) {
    /* While a graph is built: TF's Conv2DShapeImpl, its message. */
    if (c->building && filter[2] > 0 && in[3] % filter[2] != 0)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "Depth of input (%lld) is not a multiple of input depth of filter (%lld)",
                          (long long)in[3], (long long)filter[2]);
    if (filter[2] == 0 || in[3] % filter[2] != 0)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "input depth must be evenly divisible by filter depth: %lld vs %lld "
                          "[Op:%s]",
                          (long long)in[3], (long long)filter[2], c->op->name);
    return mf_error_set(err, MF_ERR_UNIMPLEMENTED,
                        "The %s op currently does not support grouped convolutions on the CPU. A "
                        "grouped convolution was attempted to be run because the input depth of "
                        "%lld does not match the filter input depth of %lld [Op:%s]",
                        c->op->name, (long long)in[3], (long long)filter[2], c->op->name);
  }
  MF_TRY(window(c, &a, 0, g->ih, g->kh, &g->oh, &g->pad_top, err));
  return window(c, &a, 1, g->iw, g->kw, &g->ow, &g->pad_left, err);
}

/* The dims of a rank-4 spec (all -1 for unknown rank); fails with TF's
 * message for another rank. `sep` is what TF puts before the shape. */
static mf_status dims4(const mf_op_call *c, int i, const char *what, const char *sep,
                       int64_t *d, mf_error *err) {
  const mf_spec *s = &c->in_specs[i];
  for (int k = 0; k < 4; k++) d[k] = s->rank == 4 ? s->shape[k] : -1;
  if (s->rank < 0 || s->rank == 4) return MF_OK;
  char buf[160];
  mf_shape_debug(s->rank, s->shape, buf, sizeof buf);
  return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "%s must be 4-dimensional%s%s [Op:%s]", what,
                      sep, buf, c->op->name);
}

/* A shape given as a tensor (input_sizes / filter_sizes): its 4 values, or
 * while a graph is built what is known of them (TF's
 * MakeShapeFromShapeTensor), -1 where unknown. */
static mf_status sizes_input(mf_op_call *c, int i, const char *what, int64_t *d,
                             mf_error *err) {
  const mf_spec *s = &c->in_specs[i];
  if (!mf_dtype_is_integer(s->dtype))
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "%s must be an int32 tensor, got %s [Op:%s]",
                        what, mf_dtype_name(s->dtype), c->op->name);
  if (s->rank >= 0 && s->rank != 1)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "%s: %s input must be 1-dim, not %d [Op:%s]",
                        c->op->name, what, s->rank, c->op->name);
  for (int k = 0; k < 4; k++) d[k] = -1;
  int64_t v[4];
  int n;
  if (!c->in[i] && s->rank == 1 && s->shape[0] == 4) return mf_sf_shape_tensor(c, i, &n, d, 4, err);
  if (!c->in[i]) return MF_OK;
  if (!mf_infer_const_ints(c, i, v, 4, &n) || n != 4)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "%s: %s must have 4 elements, got %lld [Op:%s]", c->op->name, what,
                        (long long)c->in[i]->size, c->op->name);
  for (int k = 0; k < 4; k++) {
    if (v[k] < 0)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Dimension %lld must be >= 0 [Op:%s]",
                          (long long)v[k], c->op->name);
    d[k] = v[k];
  }
  return MF_OK;
}

/* The dims of out_backprop against what the geometry computes, as TF's
 * ConvBackpropComputeDimensions checks them. */
static mf_status check_out_backprop(const mf_op_call *c, const conv_geom *g, const int64_t *dy,
                                    mf_error *err) {
  const char *op = c->op->name;
  if (g->n >= 0 && dy[0] >= 0 && g->n != dy[0])
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "%s: input and out_backprop must have the same batch size. Input batch: "
                        "%lld, outbackprop batch: %lld, batch_dim: 0 [Op:%s]",
                        op, (long long)g->n, (long long)dy[0], op);
  const int64_t want[2] = {g->oh, g->ow}, in[2] = {g->ih, g->iw}, k[2] = {g->kh, g->kw};
  const int64_t s[2] = {g->sh, g->sw}, d[2] = {g->dh, g->dw};
  for (int i = 0; i < 2; i++)
    if (want[i] >= 0 && dy[1 + i] >= 0 && want[i] != dy[1 + i])
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "%s: Size of out_backprop doesn't match computed: actual = %lld, "
                          "computed = %lld spatial_dim: %d input: %lld filter: %lld output: %lld "
                          "stride: %lld dilation: %lld [Op:%s]",
                          op, (long long)dy[1 + i], (long long)want[i], i + 1, (long long)in[i],
                          (long long)k[i], (long long)dy[1 + i], (long long)s[i], (long long)d[i],
                          op);
  if (g->oc >= 0 && dy[3] >= 0 && g->oc != dy[3])
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "%s: filter and out_backprop must have the same out_depth: %lld vs %lld "
                        "[Op:%s]",
                        op, (long long)g->oc, (long long)dy[3], op);
  return MF_OK;
}

static mf_status check_floats(mf_op_call *c, int a, int b, mf_error *err) {
  MF_TRY(mf_infer_check_dtype(c, a, mf_dtype_is_float, "float", err));
  if (c->in_specs[a].dtype == c->in_specs[b].dtype) return MF_OK;
  return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                      "cannot compute %s as input #%d(zero-based) was expected to be a %s tensor "
                      "but is a %s tensor [Op:%s]",
                      c->op->name, b, mf_dtype_name(c->in_specs[a].dtype),
                      mf_dtype_name(c->in_specs[b].dtype), c->op->name);
}

static void set_out(mf_op_call *c, mf_dtype dt, int64_t d0, int64_t d1, int64_t d2, int64_t d3) {
  c->out_specs[0] = (mf_spec){.dtype = dt, .rank = 4, .shape = {d0, d1, d2, d3}};
}

/* ---- the columns matrix ---- */

/* True when the input itself is the columns matrix. */
static bool is_direct(const conv_geom *g) {
  return g->kh == 1 && g->kw == 1 && g->sh == 1 && g->sw == 1 && g->pad_top == 0 &&
         g->pad_left == 0 && g->oh == g->ih && g->ow == g->iw;
}

/* Rows of the columns matrix for output pixels [p0, p0 + rows) of one
 * image: each row is the receptive field (kh, kw, ic), zeros where it hangs
 * over the padding. Byte copies, so one routine serves every dtype. */
static void im2col(const conv_geom *g, size_t es, const char *img, int64_t p0, int64_t rows,
                   char *col) {
  const size_t px = (size_t)g->ic * es, krow = (size_t)g->kw * px;
  int64_t oy = p0 / g->ow, ox = p0 % g->ow;
  for (int64_t r = 0; r < rows; r++) {
    int64_t iy0 = oy * g->sh - g->pad_top, ix0 = ox * g->sw - g->pad_left;
    for (int64_t ky = 0; ky < g->kh; ky++, col += krow) {
      int64_t iy = iy0 + ky * g->dh;
      if (iy < 0 || iy >= g->ih) {
        memset(col, 0, krow);
        continue;
      }
      const char *src = img + (size_t)(iy * g->iw) * px;
      if (g->dw == 1 && ix0 >= 0 && ix0 + g->kw <= g->iw) {
        memcpy(col, src + (size_t)ix0 * px, krow);
        continue;
      }
      for (int64_t kx = 0; kx < g->kw; kx++) {
        int64_t ix = ix0 + kx * g->dw;
        if (ix < 0 || ix >= g->iw) memset(col + kx * px, 0, px);
        else memcpy(col + kx * px, src + (size_t)ix * px, px);
      }
    }
    if (++ox == g->ow) ox = 0, oy++;
  }
}

/* The adjoint of im2col: adds each row's receptive field back into the
 * (zeroed) input gradient of one image. */
#define DEFINE_COL2IM(SUF, T)                                                        \
  static void col2im_##SUF(const conv_geom *g, const T *col, int64_t p0, int64_t rows, \
                           T *img) {                                                 \
    int64_t oy = p0 / g->ow, ox = p0 % g->ow;                                        \
    for (int64_t r = 0; r < rows; r++) {                                             \
      int64_t iy0 = oy * g->sh - g->pad_top, ix0 = ox * g->sw - g->pad_left;         \
      for (int64_t ky = 0; ky < g->kh; ky++) {                                       \
        int64_t iy = iy0 + ky * g->dh;                                               \
        for (int64_t kx = 0; kx < g->kw; kx++, col += g->ic) {                       \
          int64_t ix = ix0 + kx * g->dw;                                             \
          if (iy < 0 || iy >= g->ih || ix < 0 || ix >= g->iw) continue;              \
          T *dst = img + (iy * g->iw + ix) * g->ic;                                  \
          for (int64_t ch = 0; ch < g->ic; ch++) dst[ch] += col[ch];                 \
        }                                                                            \
      }                                                                              \
      if (++ox == g->ow) ox = 0, oy++;                                               \
    }                                                                                \
  }
DEFINE_COL2IM(f32, float)
DEFINE_COL2IM(f64, double)
#undef DEFINE_COL2IM

enum conv_pass { FORWARD, BACKPROP_INPUT, BACKPROP_FILTER };

/* Runs one pass over every image, a chunk of output pixels at a time.
 *   FORWARD:          x = input,      w = filter,  y = output (written)
 *   BACKPROP_INPUT:   x = input grad (written),  w = filter, y = out_backprop
 *   BACKPROP_FILTER:  x = input,  w = filter grad (written),  y = out_backprop */
static mf_status conv_run(enum conv_pass pass, const conv_geom *g, mf_dtype dt, char *x,
                          char *w, char *y, mf_error *err) {
  const size_t es = mf_dtype_size(dt);
  const int64_t pixels = g->oh * g->ow, k = g->kh * g->kw * g->ic;
  const int64_t in_img = g->ih * g->iw * g->ic, out_img = pixels * g->oc;
  const bool direct = is_direct(g);
  if (pass == BACKPROP_INPUT) memset(x, 0, (size_t)(g->n * in_img) * es);
  if (pass == BACKPROP_FILTER) memset(w, 0, (size_t)(k * g->oc) * es);
  if (pixels == 0 || g->n == 0) return MF_OK;

  int64_t chunk = pixels;
  char *col = NULL;
  if (!direct) {
    int64_t fit = k ? (int64_t)(COL_BUDGET / ((size_t)k * es)) : pixels;
    chunk = fit < 1 ? 1 : fit < pixels ? fit : pixels;
    MF_TRY(mf_scratch_alloc((size_t)(chunk * k), es, (void **)&col, err));
  }
  mf_status s = MF_OK;
  for (int64_t b = 0; b < g->n && s == MF_OK; b++) {
    char *xi = x + (size_t)(b * in_img) * es, *yi = y + (size_t)(b * out_img) * es;
    for (int64_t p0 = 0; p0 < pixels && s == MF_OK; p0 += chunk) {
      if ((s = mf_interrupt_check(err)) != MF_OK) break;
      int64_t rows = pixels - p0 < chunk ? pixels - p0 : chunk;
      char *ychunk = yi + (size_t)(p0 * g->oc) * es;
      char *cols = direct ? xi + (size_t)(p0 * k) * es : col;
      switch (pass) {
        case FORWARD:
          if (!direct) im2col(g, es, xi, p0, rows, col);
          s = mf_gemm(dt, false, false, rows, g->oc, k, cols, k, w, g->oc, false, ychunk, g->oc,
                      err);
          break;
        case BACKPROP_INPUT:
          s = mf_gemm(dt, false, true, rows, k, g->oc, ychunk, g->oc, w, g->oc, false, cols, k,
                      err);
          if (s != MF_OK || direct) break;
          if (dt == MF_FLOAT32) col2im_f32(g, (const float *)col, p0, rows, (float *)xi);
          else col2im_f64(g, (const double *)col, p0, rows, (double *)xi);
          break;
        case BACKPROP_FILTER:
          if (!direct) im2col(g, es, xi, p0, rows, col);
          s = mf_gemm(dt, true, false, k, g->oc, rows, cols, k, ychunk, g->oc, true, w, g->oc,
                      err);
          break;
      }
    }
  }
  free(col);
  return s;
}

/* ---- the Winograd path (conv_winograd.c) ---- */

static bool is_winograd(const conv_geom *g) {
  return g->kh == 3 && g->kw == 3 && g->sh == 1 && g->sw == 1 && g->dh == 1 && g->dw == 1;
}

/* The input gradient of a 3x3 stride-1 convolution is one too: dy
 * correlated with the filter turned half a turn, its in and out depths
 * swapped, with 2 - pad rows and columns of padding before. *done false:
 * not taken (too few channels, or a value not finite). */
static mf_status backprop_input_winograd(mf_op_call *c, const conv_geom *g, const float *w,
                                         const float *dy, float *dx, bool *done, mf_error *err) {
  mf_winograd_geom wg = {.n = g->n, .ih = g->oh, .iw = g->ow, .ic = g->oc, .oc = g->ic,
                         .oh = g->ih, .ow = g->iw, .pad_top = 2 - g->pad_top,
                         .pad_left = 2 - g->pad_left};
  *done = false;
  if (!mf_winograd_worth(&wg)) return MF_OK;
  float *flipped;
  MF_TRY(mf_scratch_alloc((size_t)(9 * g->ic * g->oc), sizeof(float), (void **)&flipped, err));
  for (int64_t k = 0; k < 9; k++)
    for (int64_t i = 0; i < g->ic; i++)
      for (int64_t o = 0; o < g->oc; o++)
        flipped[((8 - k) * g->oc + o) * g->ic + i] = w[(k * g->ic + i) * g->oc + o];
  mf_status s = mf_winograd_conv(&wg, dy, flipped, dx, c->state, done, err);
  free(flipped);
  return s;
}

/* ---- Conv2D ---- */

static mf_status conv2d_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(check_floats(c, 0, 1, err));
  for (int i = 0; c->building && i < 2; i++) MF_TRY(mf_sf_with_rank(c->in_specs[i].rank, 4, err));
  int64_t in[4], f[4];
  MF_TRY(dims4(c, 0, "input", "", in, err));
  MF_TRY(dims4(c, 1, "filter", ": ", f, err));
  conv_geom g;
  MF_TRY(build_geom(c, in, f, &g, err));
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  set_out(c, c->in_specs[0].dtype, g.n, g.oh, g.ow, g.oc);
  return MF_OK;
}

static mf_status conv2d_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *in = c->in[0], *f = c->in[1];
  conv_geom g;
  MF_TRY(build_geom(c, in->shape, f->shape, &g, err));
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  if (in->dtype == MF_FLOAT32 && is_winograd(&g)) {
    mf_winograd_geom wg = {.n = g.n, .ih = g.ih, .iw = g.iw, .ic = g.ic, .oc = g.oc, .oh = g.oh,
                           .ow = g.ow, .pad_top = g.pad_top, .pad_left = g.pad_left};
    bool done = false;
    if (mf_winograd_worth(&wg))
      MF_TRY(mf_winograd_conv(&wg, mf_tensor_data(in), mf_tensor_data(f), mf_tensor_data(out),
                              c->state, &done, err));
    if (done) return MF_OK;
  }
  return conv_run(FORWARD, &g, in->dtype, mf_tensor_data(in), mf_tensor_data(f),
                  mf_tensor_data(out), err);
}

#define CONV_ATTRS                                                                 \
  {"strides", MF_ATTR_INTS}, {"padding", MF_ATTR_STRING},                          \
      {"explicit_paddings", MF_ATTR_INTS}, {"data_format", MF_ATTR_STRING},        \
      {"dilations", MF_ATTR_INTS}, {"use_cudnn_on_gpu", MF_ATTR_BOOL}

const mf_op_def mf_op_Conv2D = {
    .name = "Conv2D", .input_names = "input,filter", .min_inputs = 2, .max_inputs = 2,
    .attrs = {CONV_ATTRS},
    .infer = conv2d_infer, .kernel = conv2d_kernel, .flags = 0,
    .doc = "2-D convolution of an NHWC input with an HWIO filter (strides, SAME/VALID "
           "padding, dilations).",
    .tf_attrs = "T:0 data_format=\"NHWC\" dilations=[1,1,1,1] explicit_paddings=[] padding strides use_cudnn_on_gpu=true",
};

/* ---- Conv2DBackpropInput(input_sizes, filter, out_backprop) ---- */

static mf_status backprop_input_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(check_floats(c, 1, 2, err));
  int64_t in[4], f[4], dy[4];
  MF_TRY(sizes_input(c, 0, "input_sizes", in, err));
  MF_TRY(dims4(c, 1, "filter", ": ", f, err));
  MF_TRY(dims4(c, 2, "out_backprop", ": ", dy, err));
  if (in[0] < 0) in[0] = dy[0];
  conv_geom g;
  MF_TRY(build_geom(c, in, f, &g, err));
  MF_TRY(check_out_backprop(c, &g, dy, err));
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  set_out(c, c->in_specs[1].dtype, in[0], in[1], in[2], in[3] >= 0 ? in[3] : f[2]);
  return MF_OK;
}

static mf_status backprop_input_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *f = c->in[1], *dy = c->in[2];
  mf_tensor *dx;
  MF_TRY(mf_op_alloc_output(c, 0, &dx, err));
  conv_geom g;
  MF_TRY(build_geom(c, dx->shape, f->shape, &g, err));
  MF_TRY(check_out_backprop(c, &g, dy->shape, err));
  bool done = false;
  if (f->dtype == MF_FLOAT32 && is_winograd(&g))
    MF_TRY(backprop_input_winograd(c, &g, mf_tensor_data(f), mf_tensor_data(dy),
                                   mf_tensor_data(dx), &done, err));
  if (done) return MF_OK;
  return conv_run(BACKPROP_INPUT, &g, f->dtype, mf_tensor_data(dx), mf_tensor_data(f),
                  mf_tensor_data(dy), err);
}

const mf_op_def mf_op_Conv2DBackpropInput = {
    .name = "Conv2DBackpropInput", .input_names = "input_sizes,filter,out_backprop",
    .min_inputs = 3, .max_inputs = 3,
    .attrs = {CONV_ATTRS},
    .infer = backprop_input_infer, .kernel = backprop_input_kernel, .flags = 0,
    .doc = "The gradient of Conv2D with respect to its input.",
    .tf_attrs = "T:1 data_format=\"NHWC\" dilations=[1,1,1,1] explicit_paddings=[] padding strides use_cudnn_on_gpu=true",
};

/* ---- Conv2DBackpropFilter(input, filter_sizes, out_backprop) ---- */

static mf_status backprop_filter_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(check_floats(c, 0, 2, err));
  int64_t in[4], f[4], dy[4];
  MF_TRY(dims4(c, 0, "input", "", in, err));
  MF_TRY(sizes_input(c, 1, "filter_sizes", f, err));
  MF_TRY(dims4(c, 2, "out_backprop", ": ", dy, err));
  if (f[3] < 0) f[3] = dy[3];
  if (f[2] < 0) f[2] = in[3];
  conv_geom g;
  MF_TRY(build_geom(c, in, f, &g, err));
  MF_TRY(check_out_backprop(c, &g, dy, err));
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  set_out(c, c->in_specs[0].dtype, f[0], f[1], f[2], f[3]);
  return MF_OK;
}

static mf_status backprop_filter_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *x = c->in[0], *dy = c->in[2];
  mf_tensor *dw;
  MF_TRY(mf_op_alloc_output(c, 0, &dw, err));
  conv_geom g;
  MF_TRY(build_geom(c, x->shape, dw->shape, &g, err));
  MF_TRY(check_out_backprop(c, &g, dy->shape, err));
  return conv_run(BACKPROP_FILTER, &g, x->dtype, mf_tensor_data(x), mf_tensor_data(dw),
                  mf_tensor_data(dy), err);
}

const mf_op_def mf_op_Conv2DBackpropFilter = {
    .name = "Conv2DBackpropFilter", .input_names = "input,filter_sizes,out_backprop",
    .min_inputs = 3, .max_inputs = 3,
    .attrs = {CONV_ATTRS},
    .infer = backprop_filter_infer, .kernel = backprop_filter_kernel, .flags = 0,
    .doc = "The gradient of Conv2D with respect to its filter.",
    .tf_attrs = "T:0 data_format=\"NHWC\" dilations=[1,1,1,1] explicit_paddings=[] padding strides use_cudnn_on_gpu=true",
};

/* ---- DepthwiseConv2dNative and its two backprops ---- */

/* A depthwise convolution filters each input channel c by its own
 * [kh, kw] filters filter[:, :, c, m], m < multiplier, into output channel
 * c * multiplier + m. The geometry is Conv2D's with out depth ic * mult. */
static mf_status depthwise_geom(const mf_op_call *c, const int64_t *in, const int64_t *f,
                                conv_geom *g, mf_error *err) {
  if (in[3] >= 0 && f[2] >= 0 && in[3] != f[2])
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "%s: input and filter must have the same depth: %lld vs %lld [Op:%s]",
                        c->op->name, (long long)in[3], (long long)f[2], c->op->name);
  MF_TRY(build_geom(c, in, f, g, err));
  g->oc = g->ic >= 0 && f[3] >= 0 ? g->ic * f[3] : -1;
  return MF_OK;
}

enum { DW_FORWARD, DW_INPUT, DW_FILTER };

/* One loop nest for the three: for every output element and filter tap
 * inside the image, out += in * filter (forward), dx += dy * filter
 * (input backprop) or dfilter += in * dy (filter backprop). The target is
 * zeroed first; sums run in the tensor's dtype. */
#define DEPTHWISE_LOOP(T)                                                                    \
  {                                                                                          \
    const T *xin = x, *fil = filt, *dyv = y;                                                 \
    T *xo = (T *)x, *fo = (T *)filt, *yo = (T *)y;                                           \
    int64_t m = g->oc / (g->ic ? g->ic : 1);                                                 \
    for (int64_t b = 0; b < g->n; b++)                                                       \
      for (int64_t oy = 0; oy < g->oh; oy++)                                                 \
        for (int64_t ox = 0; ox < g->ow; ox++)                                               \
          for (int64_t i = 0; i < g->kh; i++) {                                              \
            int64_t iy = oy * g->sh - g->pad_top + i * g->dh;                                \
            if (iy < 0 || iy >= g->ih) continue;                                             \
            for (int64_t j = 0; j < g->kw; j++) {                                            \
              int64_t ix = ox * g->sw - g->pad_left + j * g->dw;                             \
              if (ix < 0 || ix >= g->iw) continue;                                           \
              int64_t xi = ((b * g->ih + iy) * g->iw + ix) * g->ic;                          \
              int64_t fi = (i * g->kw + j) * g->ic * m;                                      \
              int64_t yi = ((b * g->oh + oy) * g->ow + ox) * g->oc;                          \
              for (int64_t ch = 0; ch < g->ic; ch++)                                         \
                for (int64_t k = 0; k < m; k++) {                                            \
                  int64_t o = ch * m + k;                                                    \
                  if (mode == DW_FORWARD) yo[yi + o] += xin[xi + ch] * fil[fi + o];          \
                  else if (mode == DW_INPUT) xo[xi + ch] += dyv[yi + o] * fil[fi + o];       \
                  else fo[fi + o] += xin[xi + ch] * dyv[yi + o];                             \
                }                                                                            \
            }                                                                                \
          }                                                                                  \
  }

static void depthwise_run(int mode, const conv_geom *g, mf_dtype dt, const void *x,
                          const void *filt, const void *y) {
  if (dt == MF_FLOAT32)
    DEPTHWISE_LOOP(float)
  else
    DEPTHWISE_LOOP(double)
}
#undef DEPTHWISE_LOOP

static mf_status depthwise_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(check_floats(c, 0, 1, err));
  int64_t in[4], f[4];
  MF_TRY(dims4(c, 0, "input", ": ", in, err));
  MF_TRY(dims4(c, 1, "filter", ": ", f, err));
  conv_geom g;
  MF_TRY(depthwise_geom(c, in, f, &g, err));
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  set_out(c, c->in_specs[0].dtype, in[0], g.oh, g.ow, g.oc);
  return MF_OK;
}

static mf_status depthwise_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *in = c->in[0], *f = c->in[1];
  conv_geom g;
  MF_TRY(depthwise_geom(c, in->shape, f->shape, &g, err));
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  memset(mf_tensor_data(out), 0, (size_t)out->size * mf_dtype_size(out->dtype));
  depthwise_run(DW_FORWARD, &g, in->dtype, mf_tensor_data(in), mf_tensor_data(f),
                mf_tensor_data(out));
  return MF_OK;
}

const mf_op_def mf_op_DepthwiseConv2dNative = {
    .name = "DepthwiseConv2dNative", .input_names = "input,filter", .min_inputs = 2,
    .max_inputs = 2, .attrs = {CONV_ATTRS},
    .infer = depthwise_infer, .kernel = depthwise_kernel, .flags = 0,
    .doc = "Depthwise 2-D convolution: each input channel convolved with its own filters "
           "(NHWC input, [kh, kw, in_channels, multiplier] filter).",
    .tf_attrs = "T:0 data_format=\"NHWC\" dilations=[1,1,1,1] explicit_paddings=[] padding strides",
};

static mf_status depthwise_input_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(check_floats(c, 1, 2, err));
  int64_t in[4], f[4], dy[4];
  MF_TRY(sizes_input(c, 0, "input_sizes", in, err));
  MF_TRY(dims4(c, 1, "filter", ": ", f, err));
  MF_TRY(dims4(c, 2, "out_backprop", ": ", dy, err));
  if (in[0] < 0) in[0] = dy[0];
  conv_geom g;
  MF_TRY(depthwise_geom(c, in, f, &g, err));
  MF_TRY(check_out_backprop(c, &g, dy, err));
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  set_out(c, c->in_specs[1].dtype, in[0], in[1], in[2], in[3] >= 0 ? in[3] : f[2]);
  return MF_OK;
}

static mf_status depthwise_input_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *f = c->in[1], *dy = c->in[2];
  mf_tensor *dx;
  MF_TRY(mf_op_alloc_output(c, 0, &dx, err));
  conv_geom g;
  MF_TRY(depthwise_geom(c, dx->shape, f->shape, &g, err));
  MF_TRY(check_out_backprop(c, &g, dy->shape, err));
  memset(mf_tensor_data(dx), 0, (size_t)dx->size * mf_dtype_size(dx->dtype));
  depthwise_run(DW_INPUT, &g, f->dtype, mf_tensor_data(dx), mf_tensor_data(f), mf_tensor_data(dy));
  return MF_OK;
}

const mf_op_def mf_op_DepthwiseConv2dNativeBackpropInput = {
    .name = "DepthwiseConv2dNativeBackpropInput", .input_names = "input_sizes,filter,out_backprop",
    .min_inputs = 3, .max_inputs = 3, .attrs = {CONV_ATTRS},
    .infer = depthwise_input_infer, .kernel = depthwise_input_kernel, .flags = 0,
    .doc = "The gradient of DepthwiseConv2dNative with respect to its input.",
    .tf_attrs = "T:1 data_format=\"NHWC\" dilations=[1,1,1,1] explicit_paddings=[] padding strides",
};

static mf_status depthwise_filter_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(check_floats(c, 0, 2, err));
  int64_t in[4], f[4], dy[4];
  MF_TRY(dims4(c, 0, "input", ": ", in, err));
  MF_TRY(sizes_input(c, 1, "filter_sizes", f, err));
  MF_TRY(dims4(c, 2, "out_backprop", ": ", dy, err));
  conv_geom g;
  MF_TRY(depthwise_geom(c, in, f, &g, err));
  MF_TRY(check_out_backprop(c, &g, dy, err));
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  set_out(c, c->in_specs[0].dtype, f[0], f[1], f[2] >= 0 ? f[2] : in[3], f[3]);
  return MF_OK;
}

static mf_status depthwise_filter_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *in = c->in[0], *dy = c->in[2];
  mf_tensor *df;
  MF_TRY(mf_op_alloc_output(c, 0, &df, err));
  conv_geom g;
  MF_TRY(depthwise_geom(c, in->shape, df->shape, &g, err));
  MF_TRY(check_out_backprop(c, &g, dy->shape, err));
  memset(mf_tensor_data(df), 0, (size_t)df->size * mf_dtype_size(df->dtype));
  depthwise_run(DW_FILTER, &g, in->dtype, mf_tensor_data(in), mf_tensor_data(df),
                mf_tensor_data(dy));
  return MF_OK;
}

const mf_op_def mf_op_DepthwiseConv2dNativeBackpropFilter = {
    .name = "DepthwiseConv2dNativeBackpropFilter", .input_names = "input,filter_sizes,out_backprop",
    .min_inputs = 3, .max_inputs = 3, .attrs = {CONV_ATTRS},
    .infer = depthwise_filter_infer, .kernel = depthwise_filter_kernel, .flags = 0,
    .doc = "The gradient of DepthwiseConv2dNative with respect to its filter.",
    .tf_attrs = "T:0 data_format=\"NHWC\" dilations=[1,1,1,1] explicit_paddings=[] padding strides",
};
