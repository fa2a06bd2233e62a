/* broadcast.h — NumPy broadcasting, for shape inference and for kernels.
 *
 * Two pieces:
 *   - mf_broadcast_shape: the broadcast of two shapes as inference sees them
 *     (unknown dims -1, unknown rank -1), failing with TensorFlow's
 *     "Incompatible shapes: [2,3] vs. [4]" message;
 *   - mf_bcast: a plan that walks a dense row-major output in contiguous
 *     runs. Dimensions of size 1 are dropped and neighbouring dimensions
 *     that every input walks alike are merged, so equal shapes and
 *     scalar-vs-tensor become a single run, and [n,m] + [m] becomes n runs
 *     of m. Within a run each input either advances one element at a time
 *     (step 1) or repeats one element (step 0), which lets a kernel write
 *     each case as a tight loop with no per-element index math:
 *
 *       mf_bcast b;
 *       mf_bcast_init_tensors(&b, out, 2, in);
 *       for (int64_t r = 0; r < b.runs; r++, mf_bcast_next(&b))
 *         loop(b.run, x + b.offset[0], b.step[0], y + b.offset[1], b.step[1],
 *              z + r * b.run);
 *
 * Per-dimension rules and TF's shape printing live in kernel_util.h
 * (mf_broadcast_dim, mf_shape_debug); this file builds on them. */
#ifndef MF_BROADCAST_H
#define MF_BROADCAST_H

#include <stdint.h>

#include "tensor.h"

/* The broadcast of shapes a and b into (*rank, out): unknown rank if either
 * rank is unknown, else the larger rank with each dimension from
 * mf_broadcast_dim. On a mismatch fails with InvalidArgumentError
 * "Incompatible shapes: [2,3] vs. [4] [Op:<op>]" (no suffix when op is
 * NULL; err may be NULL to only test). `out` has room for MF_MAX_RANK. */
mf_status mf_broadcast_shape(int ra, const int64_t *a, int rb, const int64_t *b, int *rank,
                             int64_t *out, const char *op, mf_error *err);

#define MF_BCAST_MAX_INPUTS 4

typedef struct mf_bcast {
  int nin;
  int64_t run;                         /* elements per run */
  int64_t runs;                        /* number of runs; 0 when the output is empty */
  int step[MF_BCAST_MAX_INPUTS];       /* 1: input k advances within a run; 0: it repeats */
  int64_t offset[MF_BCAST_MAX_INPUTS]; /* element offset of the current run in input k */
  /* the odometer over the outer (merged) dims, innermost first */
  int outer_rank;
  int64_t outer_shape[MF_MAX_RANK];
  int64_t outer_stride[MF_BCAST_MAX_INPUTS][MF_MAX_RANK];
  int64_t counter[MF_MAX_RANK];
} mf_bcast;

/* Plans the walk over a dense output of shape (rank, shape) fed by `nin`
 * (<= MF_BCAST_MAX_INPUTS) dense inputs of shapes (in_rank[k],
 * in_shape[k]), each of which the caller has checked broadcasts to the
 * output. The offsets start at the first run. */
void mf_bcast_init(mf_bcast *b, int rank, const int64_t *shape, int nin, const int *in_rank,
                   const int64_t *const *in_shape);
/* The same, shapes taken from tensors (borrowed). */
void mf_bcast_init_tensors(mf_bcast *b, const mf_tensor *out, int nin, mf_tensor *const *in);

/* Moves the offsets to the next run (harmless after the last one). */
static inline void mf_bcast_next(mf_bcast *b) {
  for (int d = 0; d < b->outer_rank; d++) {
    if (++b->counter[d] < b->outer_shape[d]) {
      for (int k = 0; k < b->nin; k++) b->offset[k] += b->outer_stride[k][d];
      return;
    }
    b->counter[d] = 0;
    for (int k = 0; k < b->nin; k++)
      b->offset[k] -= b->outer_stride[k][d] * (b->outer_shape[d] - 1);
  }
}

#endif
