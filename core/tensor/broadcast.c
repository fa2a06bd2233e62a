#include "broadcast.h"

#include <string.h>

#include "kernel_util.h"

mf_status mf_broadcast_shape(int ra, const int64_t *a, int rb, const int64_t *b, int *rank,
                             int64_t *out, const char *op, mf_error *err) {
  if (ra < 0 || rb < 0) {
    *rank = -1;
    return MF_OK;
  }
  int r = ra > rb ? ra : rb;
  int64_t dims[MF_MAX_RANK];
  for (int i = 0; i < r; i++) {
    int ia = i - (r - ra), ib = i - (r - rb);
    if (!mf_broadcast_dim(ia >= 0 ? a[ia] : 1, ib >= 0 ? b[ib] : 1, &dims[i])) {
      char sa[160], sb[160];
      mf_shape_debug(ra, a, sa, sizeof sa);
      mf_shape_debug(rb, b, sb, sizeof sb);
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Incompatible shapes: %s vs. %s%s%s%s", sa,
                          sb, op ? " [Op:" : "", op ? op : "", op ? "]" : "");
    }
  }
  /* Written only on success, so out may alias a or b. */
  *rank = r;
  memcpy(out, dims, (size_t)r * sizeof *dims);
  return MF_OK;
}

void mf_bcast_init(mf_bcast *b, int rank, const int64_t *shape, int nin, const int *in_rank,
                   const int64_t *const *in_shape) {
  memset(b, 0, sizeof *b);
  b->nin = nin;
  b->run = 1;
  b->runs = 1;
  /* Kept dims, outermost first: the output's dims other than 1, with each
   * input's element stride along them (0 where the input broadcasts). */
  int n = 0;
  int64_t dim[MF_MAX_RANK], stride[MF_BCAST_MAX_INPUTS][MF_MAX_RANK];
  int64_t contig[MF_BCAST_MAX_INPUTS] = {0};
  for (int k = 0; k < nin; k++) contig[k] = 1;
  for (int i = rank - 1; i >= 0; i--) {
    if (shape[i] == 0) {
      b->runs = 0;
      return;
    }
    int64_t s[MF_BCAST_MAX_INPUTS];
    for (int k = 0; k < nin; k++) {
      int ik = i - (rank - in_rank[k]);
      int64_t d = ik >= 0 ? in_shape[k][ik] : 1;
      s[k] = d == 1 ? 0 : contig[k];
      contig[k] *= d;
    }
    if (shape[i] == 1) continue;
    /* Filled innermost first; reversed below. */
    dim[n] = shape[i];
    for (int k = 0; k < nin; k++) stride[k][n] = s[k];
    n++;
  }
  if (n == 0) return; /* one element */
  /* Merge dim j+1 (outer) into dim j (inner) when every input steps over
   * the pair as over one dim: its outer stride is its inner stride times
   * the inner size (which covers both contiguous and broadcast pairs). */
  int m = 0; /* merged dims, innermost first, in dim[0..m] */
  for (int j = 1; j < n; j++) {
    bool merge = true;
    for (int k = 0; k < nin && merge; k++) merge = stride[k][j] == stride[k][m] * dim[m];
    if (merge) {
      dim[m] *= dim[j];
      continue;
    }
    m++;
    dim[m] = dim[j];
    for (int k = 0; k < nin; k++) stride[k][m] = stride[k][j];
  }
  /* The innermost kept dim is the input's own last dim or a broadcast one,
   * so its stride is 1 or 0. */
  b->run = dim[0];
  for (int k = 0; k < nin; k++) b->step[k] = stride[k][0] != 0;
  b->outer_rank = m;
  for (int d = 0; d < m; d++) {
    b->outer_shape[d] = dim[d + 1];
    b->runs *= dim[d + 1];
    for (int k = 0; k < nin; k++) b->outer_stride[k][d] = stride[k][d + 1];
  }
}

void mf_bcast_init_tensors(mf_bcast *b, const mf_tensor *out, int nin, mf_tensor *const *in) {
  int ranks[MF_BCAST_MAX_INPUTS];
  const int64_t *shapes[MF_BCAST_MAX_INPUTS];
  for (int k = 0; k < nin; k++) {
    ranks[k] = in[k]->rank;
    shapes[k] = in[k]->shape;
  }
  mf_bcast_init(b, out->rank, out->shape, nin, ranks, shapes);
}
