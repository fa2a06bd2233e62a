/* conv_winograd.h — float32 3x3 convolution, stride 1, dilation 1, NHWC
 * input and HWIO filter, by Winograd's F(4x4, 3x3) (ops_conv.c's fast path
 * for Conv2D).
 *
 * Each 4x4 tile of output pixels is computed from the 6x6 input patch
 * under it: the patch and the filter are transformed (B^T d B, G g G^T),
 * multiplied elementwise (summed over input channels: 36 GEMMs of
 * [tiles, in_c] x [in_c, out_c]) and transformed back (A^T m A). That is
 * 36 multiplies per tile and channel pair where a direct sum needs 144.
 * Tiles go in blocks whose scratch stays in cache. Blocks are shared out
 * over moonflow's pool when it has several threads (mf_blas_threads), each
 * thread running its GEMMs on one OpenBLAS thread; with one, everything
 * runs on the caller. A block's result does not depend on which thread ran
 * it.
 *
 * The transforms mix every value of a patch into every output of its tile,
 * so an infinity or NaN would spread to outputs a direct sum keeps finite:
 * when any input, filter tap or result is not finite, mf_winograd_conv
 * reports that it did nothing and the caller runs the direct path. */
#ifndef MF_CONV_WINOGRAD_H
#define MF_CONV_WINOGRAD_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "op.h"

typedef struct mf_winograd_geom {
  int64_t n, ih, iw, ic;   /* input, NHWC */
  int64_t oc;              /* filter [3, 3, ic, oc] */
  int64_t oh, ow;          /* output [n, oh, ow, oc] */
  int64_t pad_top, pad_left;
} mf_winograd_geom;

/* Whether the Winograd path pays for a 3x3 stride-1 convolution of these
 * sizes (enough channels that the GEMMs dominate the transforms), and is
 * not turned off: TF_ENABLE_WINOGRAD_NONFUSED=0 (or false), TF's own switch
 * for its GPU Winograd convolutions, sends every convolution to the direct
 * path. */
bool mf_winograd_worth(const mf_winograd_geom *g);

/* y = conv(x, w). *done is false (and y unspecified) when a value was not
 * finite: the caller then computes y another way. `state` (a graph node's
 * kernel state, or NULL) keeps the scratch memory between calls. */
mf_status mf_winograd_conv(const mf_winograd_geom *g, const float *x, const float *w, float *y,
                           mf_kernel_state *state, bool *done, mf_error *err);

#endif
