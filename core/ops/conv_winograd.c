#include "conv_winograd.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "blas.h"
#include "interrupt.h"
#include "kernel_util.h"
#include "threadpool.h"

/* Channels per vector step of the transforms: a fixed trip count the
 * compiler turns into whole SIMD registers (zero lanes past the end). */
enum { CB = 16 };

/* The transforms are compiled for wide vectors too, chosen at load time:
 * one machine always runs one version, so results do not change between
 * calls. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define CLONES
#endif

/* Scratch bytes per block and thread (transformed inputs + products): the
 * 36 GEMMs of a block then run from L2. */
#define BLOCK_BUDGET ((size_t)1 << 20)

/* Measured (one thread, CPU time, against the im2col path): 64x64 pixels
 * 16 -> 16 channels 1.6x faster, 12 -> 12 and 8 -> 8 1.2-1.5x slower (the
 * transforms work on 16 lanes); a 16x16 image 64 -> 64 (16 tiles) breaks
 * even, 8x8 (4 tiles) is 3x slower (the filter transform, 36 ic oc
 * values, is paid per call). */
bool mf_winograd_worth(const mf_winograd_geom *g) {
  int64_t tiles = g->n * ((g->oh + 3) / 4) * ((g->ow + 3) / 4);
  if (g->ic < 16 || g->oc < 16 || tiles < 32) return false;
  const char *e = getenv("TF_ENABLE_WINOGRAD_NONFUSED");
  return !(e && (strcmp(e, "0") == 0 || strcasecmp(e, "false") == 0));
}

/* Tiles per block: a fixed function of the channel counts, never of the
 * thread count, so a result does not depend on how blocks were shared. */
static int64_t block_tiles(const mf_winograd_geom *g) {
  int64_t t = (int64_t)(BLOCK_BUDGET / (36 * sizeof(float) * (size_t)(g->ic + g->oc)));
  return t < 16 ? 16 : t > 512 ? 512 : t;
}

/* ---- the three transforms, CB channels at a time ---- */

/* G g G^T of one 3x3 filter slice per channel lane: u[36][CB]. */
static void filter_tile(const float g[9][CB], float u[36][CB]) {
  float t[6][3][CB];
  for (int j = 0; j < 3; j++)
    for (int c = 0; c < CB; c++) {
      float a = g[j][c], b = g[3 + j][c], d = g[6 + j][c];
      t[0][j][c] = a / 4;
      t[1][j][c] = -(a + b + d) / 6;
      t[2][j][c] = -(a - b + d) / 6;
      t[3][j][c] = a / 24 + b / 12 + d / 6;
      t[4][j][c] = a / 24 - b / 12 + d / 6;
      t[5][j][c] = d;
    }
  for (int i = 0; i < 6; i++)
    for (int c = 0; c < CB; c++) {
      float a = t[i][0][c], b = t[i][1][c], d = t[i][2][c];
      float *r = u[i * 6];
      r[0 * CB + c] = a / 4;
      r[1 * CB + c] = -(a + b + d) / 6;
      r[2 * CB + c] = -(a - b + d) / 6;
      r[3 * CB + c] = a / 24 + b / 12 + d / 6;
      r[4 * CB + c] = a / 24 - b / 12 + d / 6;
      r[5 * CB + c] = d;
    }
}

/* B^T over six vectors s[k * stride] into o[k * ostride]. */
static inline void bt6(const float *s, size_t stride, float *o, size_t ostride) {
  for (int c = 0; c < CB; c++) {
    float d0 = s[c], d1 = s[stride + c], d2 = s[2 * stride + c], d3 = s[3 * stride + c],
          d4 = s[4 * stride + c], d5 = s[5 * stride + c];
    o[c] = 4 * d0 - 5 * d2 + d4;
    o[ostride + c] = -4 * d1 - 4 * d2 + d3 + d4;
    o[2 * ostride + c] = 4 * d1 - 4 * d2 - d3 + d4;
    o[3 * ostride + c] = -2 * d1 - d2 + 2 * d3 + d4;
    o[4 * ostride + c] = 2 * d1 - d2 - 2 * d3 + d4;
    o[5 * ostride + c] = 4 * d1 - 5 * d3 + d5;
  }
}

/* A^T over six vectors s[k * stride] into o[k * ostride] (four). */
static inline void at6(const float *s, size_t stride, float *o, size_t ostride) {
  for (int c = 0; c < CB; c++) {
    float m0 = s[c], m1 = s[stride + c], m2 = s[2 * stride + c], m3 = s[3 * stride + c],
          m4 = s[4 * stride + c], m5 = s[5 * stride + c];
    float p12 = m1 + m2, d12 = m1 - m2, p34 = m3 + m4, d34 = m3 - m4;
    o[c] = m0 + p12 + p34;
    o[ostride + c] = d12 + 2 * d34;
    o[2 * ostride + c] = p12 + 4 * p34;
    o[3 * ostride + c] = d12 + 8 * d34 + m5;
  }
}

/* n <= CB floats: a whole vector when n is CB (the common case), zero
 * lanes past n on loading. */
static inline void load_floats(float *dst, const float *src, int64_t n) {
  if (n == CB) {
    for (int c = 0; c < CB; c++) dst[c] = src[c];
    return;
  }
  for (int c = 0; c < CB; c++) dst[c] = c < n ? src[c] : 0.0f;
}

static inline void copy_floats(float *dst, const float *src, int64_t n) {
  if (n == CB) {
    for (int c = 0; c < CB; c++) dst[c] = src[c];
    return;
  }
  for (int64_t c = 0; c < n; c++) dst[c] = src[c];
}

/* ---- one convolution ---- */

typedef struct job {
  const mf_blas *blas;
  const mf_winograd_geom *g;
  const float *x;
  float *y;
  const float *u;     /* [36][ic][oc] transformed filter */
  float *scratch;     /* per part: v [36][T][ic], then m [36][T][oc] */
  size_t part_floats;
  int64_t tiles_w, tiles_img, tiles, block;
  int64_t vs, ms;     /* floats from one of the 36 matrices of v (m) to the next */
  float *flags;       /* per part: sum of value * 0 (NaN once one is not finite) */
} job;

/* B^T d B of the 6x6 patch of every tile in [t0, t0 + nt) into v. */
CLONES static void input_block(const job *j, int64_t t0, int64_t nt, float *v) {
  const mf_winograd_geom *g = j->g;
  float d[36][CB], r[36][CB];
  for (int64_t tl = 0; tl < nt; tl++) {
    int64_t t = t0 + tl, b = t / j->tiles_img, rest = t % j->tiles_img;
    int64_t iy0 = rest / j->tiles_w * 4 - g->pad_top, ix0 = rest % j->tiles_w * 4 - g->pad_left;
    for (int64_t c0 = 0; c0 < g->ic; c0 += CB) {
      int64_t nc = g->ic - c0 < CB ? g->ic - c0 : CB;
      for (int i = 0; i < 6; i++)
        for (int k = 0; k < 6; k++) {
          int64_t iy = iy0 + i, ix = ix0 + k;
          float *dst = d[i * 6 + k];
          if (iy < 0 || iy >= g->ih || ix < 0 || ix >= g->iw) {
            memset(dst, 0, sizeof d[0]);
            continue;
          }
          load_floats(dst, j->x + ((b * g->ih + iy) * g->iw + ix) * g->ic + c0, nc);
        }
      for (int k = 0; k < 6; k++) bt6(d[k], 6 * CB, r[k], 6 * CB); /* down columns */
      for (int i = 0; i < 6; i++) {
        float o[6][CB];
        bt6(r[i * 6], CB, o[0], CB); /* along rows */
        for (int k = 0; k < 6; k++)
          copy_floats(v + (i * 6 + k) * j->vs + tl * g->ic + c0, o[k], nc);
      }
    }
  }
}

/* A^T m A of every tile in [t0, t0 + nt) into y (the part inside the
 * output); returns the sum of every product and kept output times 0. */
CLONES static float output_block(const job *j, int64_t t0, int64_t nt, const float *m) {
  const mf_winograd_geom *g = j->g;
  float in[36][CB], r[24][CB], out[16][CB], nf[CB] = {0};
  for (int64_t tl = 0; tl < nt; tl++) {
    int64_t t = t0 + tl, b = t / j->tiles_img, rest = t % j->tiles_img;
    int64_t oy0 = rest / j->tiles_w * 4, ox0 = rest % j->tiles_w * 4;
    for (int64_t o0 = 0; o0 < g->oc; o0 += CB) {
      int64_t no = g->oc - o0 < CB ? g->oc - o0 : CB;
      for (int k = 0; k < 36; k++) {
        load_floats(in[k], m + k * j->ms + tl * g->oc + o0, no);
        for (int c = 0; c < CB; c++) nf[c] += in[k][c] * 0.0f;
      }
      for (int k = 0; k < 6; k++) at6(in[k], 6 * CB, r[k], 6 * CB); /* down columns */
      for (int i = 0; i < 4; i++) at6(r[i * 6], CB, out[i * 4], CB); /* along rows */
      for (int i = 0; i < 4 && oy0 + i < g->oh; i++)
        for (int k = 0; k < 4 && ox0 + k < g->ow; k++) {
          for (int c = 0; c < CB; c++) nf[c] += out[i * 4 + k][c] * 0.0f;
          copy_floats(j->y + ((b * g->oh + oy0 + i) * g->ow + ox0 + k) * g->oc + o0,
                      out[i * 4 + k], no);
        }
    }
  }
  float s = 0;
  for (int c = 0; c < CB; c++) s += nf[c];
  return s;
}

/* Blocks [b0, b1) on thread `part`. */
static void run_blocks(void *ctx, int64_t b0, int64_t b1, int part) {
  const job *j = ctx;
  const mf_winograd_geom *g = j->g;
  float *v = j->scratch + (size_t)part * j->part_floats;
  float *m = v + 36 * j->vs;
  for (int64_t blk = b0; blk < b1; blk++) {
    int64_t t0 = blk * j->block, nt = j->tiles - t0 < j->block ? j->tiles - t0 : j->block;
    input_block(j, t0, nt, v);
    for (int k = 0; k < 36; k++)
      j->blas->cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)nt, (int)g->oc,
                           (int)g->ic, 1.0f, v + k * j->vs, (int)g->ic, j->u + k * g->ic * g->oc,
                           (int)g->oc, 0.0f, m + k * j->ms, (int)g->oc);
    j->flags[part] += output_block(j, t0, nt, m);
  }
}

/* mf_parallel_for runs [0, n): a round's blocks start at base. */
typedef struct offset_job {
  const job *j;
  int64_t base;
} offset_job;

static void run_offset(void *ctx, int64_t b0, int64_t b1, int part) {
  const offset_job *oj = ctx;
  run_blocks((void *)oj->j, oj->base + b0, oj->base + b1, part);
}

/* The transformed filter, [36][ic][oc]. */
static void transform_filter(const mf_winograd_geom *g, const float *w, float *u) {
  float gt[9][CB], ut[36][CB];
  for (int64_t c = 0; c < g->ic; c++)
    for (int64_t o0 = 0; o0 < g->oc; o0 += CB) {
      int64_t no = g->oc - o0 < CB ? g->oc - o0 : CB;
      for (int k = 0; k < 9; k++) {
        memcpy(gt[k], w + (k * g->ic + c) * g->oc + o0, (size_t)no * sizeof(float));
        if (no < CB) memset(gt[k] + no, 0, (size_t)(CB - no) * sizeof(float));
      }
      filter_tile(gt, ut);
      for (int k = 0; k < 36; k++)
        memcpy(u + (k * g->ic + c) * g->oc + o0, ut[k], (size_t)no * sizeof(float));
    }
}

/* Scratch kept in a graph node's state between calls. */
typedef struct scratch_cache {
  float *buf;
  size_t floats;
} scratch_cache;

static void cache_drop(void *p) {
  scratch_cache *sc = p;
  if (sc) free(sc->buf);
  free(sc);
}

/* `floats` of scratch: the node's cached buffer (grown when too small), or
 * a fresh one that *owned says the caller frees. */
static mf_status get_scratch(mf_kernel_state *state, size_t floats, float **out, bool *owned,
                             mf_error *err) {
  scratch_cache *sc = state && state->drop == cache_drop ? state->data : NULL;
  if (!sc && state && !state->drop) {
    sc = calloc(1, sizeof *sc);
    if (sc) state->data = sc, state->drop = cache_drop;
  }
  *owned = sc == NULL;
  if (sc && sc->floats >= floats) {
    *out = sc->buf;
    return MF_OK;
  }
  MF_TRY(mf_scratch_alloc(floats, sizeof(float), (void **)out, err));
  if (sc) {
    free(sc->buf);
    sc->buf = *out;
    sc->floats = floats;
  }
  return MF_OK;
}

mf_status mf_winograd_conv(const mf_winograd_geom *g, const float *x, const float *w, float *y,
                           mf_kernel_state *state, bool *done, mf_error *err) {
  *done = true;
  const mf_blas *blas;
  MF_TRY(mf_blas_load(&blas, err));
  job j = {.blas = blas, .g = g, .x = x, .y = y, .block = block_tiles(g)};
  j.tiles_w = (g->ow + 3) / 4;
  j.tiles_img = j.tiles_w * ((g->oh + 3) / 4);
  j.tiles = g->n * j.tiles_img;
  if (j.tiles == 0 || g->oc == 0) return MF_OK;
  int64_t nblocks = (j.tiles + j.block - 1) / j.block;
  /* Threads: moonflow's pool's, as for any GEMM (OpenBLAS is then held at
   * one thread: gemm.c). */
  int threads = mf_blas_threads();
  bool parallel = threads > 1 && nblocks > 1;
  int parts = parallel ? threads : 1;
  /* The 36 matrices of a block, one cache line apart modulo 4 KiB: at a
   * multiple of 4 KiB, the rows a tile reads and writes would all fall in
   * one L1 set. */
  j.vs = (j.block * g->ic + 15) / 16 * 16 + 16;
  j.ms = (j.block * g->oc + 15) / 16 * 16 + 16;
  j.part_floats = (size_t)(36 * (j.vs + j.ms));
  size_t ufloats = (size_t)(36 * g->ic * g->oc);
  float *buf;
  bool owned;
  MF_TRY(get_scratch(state, ufloats + (size_t)parts * j.part_floats, &buf, &owned, err));
  float flags[64] = {0};
  j.flags = flags;
  j.u = buf;
  j.scratch = buf + ufloats;
  transform_filter(g, w, buf);
  mf_status s = MF_OK;
  /* Blocks in rounds, polling the interrupt flag between them. */
  const int64_t round = parallel ? 8 * (int64_t)parts : 4;
  for (int64_t b0 = 0; b0 < nblocks && s == MF_OK; b0 += round) {
    if ((s = mf_interrupt_check(err)) != MF_OK) break;
    int64_t nb = nblocks - b0 < round ? nblocks - b0 : round;
    offset_job oj = {&j, b0};
    if (parallel && nb > 1) mf_parallel_for(nb, 1, 1, run_offset, &oj);
    else run_blocks(&j, b0, b0 + nb, 0);
  }
  float bad = 0;
  for (int p = 0; p < parts; p++) bad += flags[p];
  if (bad != 0) *done = false; /* NaN compares unequal too */
  if (owned) free(buf);
  return s;
}
