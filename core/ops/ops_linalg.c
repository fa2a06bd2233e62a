/* ops_linalg.c — matrix products: MatMul (rank 2) and BatchMatMulV2
 * (batched, with broadcasting of the batch dimensions). Both go through
 * mf_gemm (kernel_util.h), which is OpenBLAS for float dtypes. */
#include <string.h>

#include "broadcast.h"
#include "interrupt.h"
#include "kernel_util.h"
#include "op.h"
#include "shape_fn.h"

/* "Matrix size-incompatible: In[0]: [2,3], In[1]: [2,2] [Op:MatMul]" */
static mf_status size_incompatible(const mf_op_call *c, mf_error *err) {
  char a[160], b[160];
  mf_shape_debug(c->in_specs[0].rank, c->in_specs[0].shape, a, sizeof a);
  mf_shape_debug(c->in_specs[1].rank, c->in_specs[1].shape, b, sizeof b);
  return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                      "Matrix size-incompatible: In[0]: %s, In[1]: %s [Op:%s]", a, b,
                      c->op->name);
}

/* The dtypes TF registers matrix-product kernels for on the CPU that
 * moonflow has. */
static mf_status check_operands(mf_op_call *c, mf_error *err) {
  MF_TRY(mf_infer_same_dtype(c, 0, 2, err));
  return mf_infer_check_dtype(c, 0, mf_dtype_is_numeric, "numeric", err);
}

/* ---- MatMul ---- */

static mf_status matmul_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(check_operands(c, err));
  /* While a graph is built: TF's MatMulShape, its messages. */
  for (int i = 0; c->building && i < 2; i++) MF_TRY(mf_sf_with_rank(c->in_specs[i].rank, 2, err));
  for (int i = 0; i < 2; i++) {
    const mf_spec *s = &c->in_specs[i];
    if (s->rank >= 0 && s->rank != 2) {
      char buf[160];
      mf_shape_debug(s->rank, s->shape, buf, sizeof buf);
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "In[%d] is not a matrix. Instead it has shape %s [Op:MatMul]", i, buf);
    }
  }
  bool ta = mf_attr_bool(c->attrs, "transpose_a", false);
  bool tb = mf_attr_bool(c->attrs, "transpose_b", false);
  const mf_spec *a = &c->in_specs[0], *b = &c->in_specs[1];
  int64_t m = a->rank == 2 ? a->shape[ta ? 1 : 0] : -1;
  int64_t ka = a->rank == 2 ? a->shape[ta ? 0 : 1] : -1;
  int64_t kb = b->rank == 2 ? b->shape[tb ? 1 : 0] : -1;
  int64_t n = b->rank == 2 ? b->shape[tb ? 0 : 1] : -1;
  if (c->building) MF_TRY(mf_sf_merge_dim(ka, kb, NULL, err));
  if (ka >= 0 && kb >= 0 && ka != kb) return size_incompatible(c, err);
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  c->out_specs[0] = (mf_spec){.dtype = a->dtype, .rank = 2, .shape = {m, n}};
  return MF_OK;
}

static mf_status matmul_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *a = c->in[0], *b = c->in[1];
  bool ta = mf_attr_bool(c->attrs, "transpose_a", false);
  bool tb = mf_attr_bool(c->attrs, "transpose_b", false);
  int64_t k = a->shape[ta ? 0 : 1];
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  return mf_gemm(a->dtype, ta, tb, out->shape[0], out->shape[1], k, mf_tensor_data(a),
                 a->shape[1], mf_tensor_data(b), b->shape[1], false, mf_tensor_data(out),
                 out->shape[1], err);
}

const mf_op_def mf_op_MatMul = {
    .name = "MatMul", .input_names = "a,b", .min_inputs = 2, .max_inputs = 2,
    .attrs = {{"transpose_a", MF_ATTR_BOOL}, {"transpose_b", MF_ATTR_BOOL}},
    .infer = matmul_infer, .kernel = matmul_kernel, .flags = 0,
    .tf_attrs = "T:0 grad_a=false grad_b=false transpose_a=false transpose_b=false",
    .doc = "Matrix product of two rank-2 tensors, optionally transposing either.",
};

/* ---- BatchMatMulV2 ---- */

static mf_status batch_matmul_infer(mf_op_call *c, mf_error *err) {
  MF_TRY(check_operands(c, err));
  const mf_spec *x = &c->in_specs[0], *y = &c->in_specs[1];
  /* While a graph is built: TF's BatchMatMulV2Shape, its messages. */
  for (int i = 0; c->building && i < 2; i++)
    MF_TRY(mf_sf_with_rank_at_least(c->in_specs[i].rank, 2, err));
  for (int i = 0; i < 2; i++)
    if (c->in_specs[i].rank >= 0 && c->in_specs[i].rank < 2)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "In[%d] ndims must be >= 2: %d [Op:BatchMatMulV2]", i,
                          c->in_specs[i].rank);
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  mf_spec *o = &c->out_specs[0];
  *o = (mf_spec){.dtype = x->dtype, .rank = -1};
  bool adj_x = mf_attr_bool(c->attrs, "adj_x", false);
  bool adj_y = mf_attr_bool(c->attrs, "adj_y", false);
  int64_t kx = x->rank >= 2 ? x->shape[x->rank - (adj_x ? 2 : 1)] : -1;
  int64_t ky = y->rank >= 2 ? y->shape[y->rank - (adj_y ? 1 : 2)] : -1;
  if (c->building) MF_TRY(mf_sf_merge_dim(kx, ky, NULL, err));
  if (kx >= 0 && ky >= 0 && kx != ky) return size_incompatible(c, err);
  if (x->rank < 0 || y->rank < 0) return MF_OK;
  int r;
  if (c->building)
    MF_TRY(mf_sf_broadcast(x->rank - 2, x->shape, y->rank - 2, y->shape, &r, o->shape, err));
  if (mf_broadcast_shape(x->rank - 2, x->shape, y->rank - 2, y->shape, &r, o->shape, NULL,
                         NULL) != MF_OK) {
    char a[160], b[160];
    mf_shape_debug(x->rank, x->shape, a, sizeof a);
    mf_shape_debug(y->rank, y->shape, b, sizeof b);
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "In[0] and In[1] must have compatible batch dimensions: %s vs. %s "
                        "[Op:BatchMatMulV2]",
                        a, b);
  }
  o->rank = r + 2;
  o->shape[r] = x->shape[x->rank - (adj_x ? 1 : 2)];
  o->shape[r + 1] = y->shape[y->rank - (adj_y ? 2 : 1)];
  return MF_OK;
}

/* Element strides of each batch dim of t's matrices, 0 where t broadcasts
 * (missing or size-1 dims), aligned to the output's batch rank r. */
static void batch_strides(const mf_tensor *t, int r, int64_t *strides) {
  int bt = t->rank - 2;
  int64_t s = t->shape[t->rank - 2] * t->shape[t->rank - 1];
  for (int i = r - 1; i >= 0; i--) {
    int it = i - (r - bt);
    int64_t d = it >= 0 ? t->shape[it] : 1;
    strides[i] = d == 1 ? 0 : s;
    s *= d;
  }
}

static mf_status batch_matmul_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *x = c->in[0], *y = c->in[1];
  bool adj_x = mf_attr_bool(c->attrs, "adj_x", false);
  bool adj_y = mf_attr_bool(c->attrs, "adj_y", false);
  mf_tensor *out;
  MF_TRY(mf_op_alloc_output(c, 0, &out, err));
  int r = out->rank - 2;
  int64_t m = out->shape[r], n = out->shape[r + 1];
  int64_t k = x->shape[x->rank - (adj_x ? 2 : 1)];
  int64_t sx[MF_MAX_RANK], sy[MF_MAX_RANK], idx[MF_MAX_RANK] = {0};
  batch_strides(x, r, sx);
  batch_strides(y, r, sy);
  int64_t batches = m && n ? out->size / (m * n) : 0;
  size_t es = mf_dtype_size(x->dtype);
  const char *xd = mf_tensor_data(x), *yd = mf_tensor_data(y);
  char *od = mf_tensor_data(out);
  int64_t xoff = 0, yoff = 0;
  for (int64_t bi = 0; bi < batches; bi++) {
    MF_TRY(mf_interrupt_check(err));
    MF_TRY(mf_gemm(x->dtype, adj_x, adj_y, m, n, k, xd + (size_t)xoff * es,
                   x->shape[x->rank - 1], yd + (size_t)yoff * es, y->shape[y->rank - 1], false,
                   od + (size_t)(bi * m * n) * es, n, err));
    /* Odometer over the batch index, moving both operands' offsets. */
    for (int d = r - 1; d >= 0; d--) {
      xoff += sx[d];
      yoff += sy[d];
      if (++idx[d] < out->shape[d]) break;
      xoff -= sx[d] * idx[d];
      yoff -= sy[d] * idx[d];
      idx[d] = 0;
    }
  }
  return MF_OK;
}

const mf_op_def mf_op_BatchMatMulV2 = {
    .name = "BatchMatMulV2", .input_names = "x,y", .min_inputs = 2, .max_inputs = 2,
    .attrs = {{"adj_x", MF_ATTR_BOOL}, {"adj_y", MF_ATTR_BOOL}},
    .tf_attrs = "T:0 adj_x=false adj_y=false grad_x=false grad_y=false",
    .infer = batch_matmul_infer, .kernel = batch_matmul_kernel, .flags = 0,
    .doc = "Batched matrix product over the last two dims, broadcasting the batch dims.",
};
