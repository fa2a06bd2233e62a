/* elementwise_loops.c — what runs the elementwise family's loops
 * (elementwise_loops.h): a unary loop or a cast over a tensor and a binary
 * loop over a broadcast walk, each in parts on the thread pool when large;
 * blocks of a fused program (elementwise.h: mf_elementwise_run); a
 * variable's in-place update (mf_elementwise_accumulate); and the error
 * naming the dtypes an op accepts. The loops themselves, one per op and
 * dtype, are expanded from the op tables in ops_elementwise.c. */
#include <stdio.h>
#include <string.h>

#include "broadcast.h"
#include "elementwise.h"
#include "elementwise_loops.h"
#include "threadpool.h"

/* ---- threaded runs ---- */

/* The cost per element of each op family's loop for one dtype, measured
 * once per thread by the first large call (mf_parallel_for_cost): later
 * calls decide from their element count whether threads pay. Keyed by the
 * loop's address; a loop whose slot another holds times each call, as
 * without a cache. Per thread, so no locking. */
enum { COST_SLOTS = 64 };
static _Thread_local struct {
  const void *key;
  double cost;
} loop_costs[COST_SLOTS];

static double *loop_cost(const void *key) {
  size_t h = ((uintptr_t)key >> 4) % COST_SLOTS;
  if (loop_costs[h].key == NULL) loop_costs[h].key = key;
  return loop_costs[h].key == key ? &loop_costs[h].cost : NULL;
}

/* A unary loop (or a cast) over a large tensor runs in parts on the thread
 * pool; each part is the same loop on a contiguous slice. */
typedef struct unary_job {
  unary_loop loop;
  const char *x;
  char *z;
  size_t in_size, out_size;
} unary_job;

static void unary_part(void *ctx, int64_t begin, int64_t end, int part) {
  (void)part;
  const unary_job *j = ctx;
  j->loop(end - begin, j->x + (size_t)begin * j->in_size, j->z + (size_t)begin * j->out_size);
}

void mf_ew_unary_run(unary_loop loop, const mf_tensor *x, mf_tensor *z) {
  unary_job j = {loop, mf_tensor_data(x), mf_tensor_data(z), mf_dtype_size(x->dtype),
                 mf_dtype_size(z->dtype)};
  mf_parallel_for_cost(z->size, MF_ELEMENTWISE_PARALLEL_MIN / 2, 64, unary_part, &j,
                       z->size >= MF_ELEMENTWISE_PARALLEL_MIN ? loop_cost((const void *)loop) : NULL);
}

/* A binary op over a large output runs in parts on the thread pool: slices
 * of its one run when the walk has a single run (same shapes, or a scalar
 * operand), else ranges of runs, each part walking from its first run. */
typedef struct binary_job {
  binary_loop loop;
  const char *a, *b;
  char *z;
  size_t in_size, out_size;
  mf_bcast it; /* at the first run; parts copy it */
} binary_job;

/* Moves a fresh walk (at run 0) to run r. */
static void bcast_seek(mf_bcast *it, int64_t r) {
  for (int d = 0; d < it->outer_rank; d++) {
    int64_t q = r / it->outer_shape[d], i = r - q * it->outer_shape[d];
    it->counter[d] = i;
    for (int k = 0; k < it->nin; k++) it->offset[k] += i * it->outer_stride[k][d];
    r = q;
  }
}

/* Runs [begin, end); false when a string loop ran out of memory. */
static bool binary_runs(const binary_job *j, int64_t begin, int64_t end) {
  mf_bcast it = j->it;
  bcast_seek(&it, begin);
  for (int64_t r = begin; r < end; r++, mf_bcast_next(&it))
    if (!j->loop(it.run, j->a + (size_t)it.offset[0] * j->in_size, it.step[0],
                 j->b + (size_t)it.offset[1] * j->in_size, it.step[1],
                 j->z + (size_t)(r * it.run) * j->out_size))
      return false;
  return true;
}

static void binary_part(void *ctx, int64_t begin, int64_t end, int part) {
  (void)part;
  (void)binary_runs(ctx, begin, end); /* numeric loops cannot fail */
}

static void binary_slice(void *ctx, int64_t begin, int64_t end, int part) {
  (void)part;
  const binary_job *j = ctx;
  const mf_bcast *it = &j->it;
  j->loop(end - begin, j->a + (size_t)(begin * it->step[0]) * j->in_size, it->step[0],
          j->b + (size_t)(begin * it->step[1]) * j->in_size, it->step[1],
          j->z + (size_t)begin * j->out_size);
}

bool mf_ew_binary_run(binary_loop loop, mf_tensor *const *in, mf_tensor *out) {
  /* Small numeric work whose operands are each the output's size or one
   * element (the scalar ops of eager code and of small graphs): one loop
   * call, without the broadcast walk's setup or the pool's cost model,
   * which were a tenth of an eager scalar add. Same loop, same bits. */
  int64_t n = out->size, na = in[0]->size, nb = in[1]->size;
  if (in[0]->dtype != MF_STRING && n < MF_ELEMENTWISE_PARALLEL_MIN / 2 && (na == n || na == 1) &&
      (nb == n || nb == 1))
    return loop(n, mf_tensor_data(in[0]), na == n, mf_tensor_data(in[1]), nb == n,
                mf_tensor_data(out));
  binary_job j = {
      .loop = loop,
      .a = mf_tensor_data(in[0]), .b = mf_tensor_data(in[1]), .z = mf_tensor_data(out),
      .in_size = mf_dtype_size(in[0]->dtype), .out_size = mf_dtype_size(out->dtype),
  };
  mf_bcast_init_tensors(&j.it, out, 2, in);
  /* Strings allocate and may fail: those stay on this thread. */
  if (in[0]->dtype == MF_STRING) return binary_runs(&j, 0, j.it.runs);
  if (j.it.runs == 1)
    mf_parallel_for_cost(j.it.run, MF_ELEMENTWISE_PARALLEL_MIN / 2, 64, binary_slice, &j,
                         j.it.run >= MF_ELEMENTWISE_PARALLEL_MIN ? loop_cost((const void *)j.loop)
                                                                 : NULL);
  else
    mf_parallel_for(j.it.runs, (MF_ELEMENTWISE_PARALLEL_MIN / 2 + j.it.run - 1) / j.it.run, 1,
                    binary_part, &j);
  return true;
}

/* ---- the dtypes an op accepts ---- */

mf_status mf_ew_unsupported_dtype(mf_op_call *c, int i, unsigned accepted, mf_error *err) {
  /* "float32, int32 or string", in enum order */
  char what[128] = "";
  int n = 0, total = __builtin_popcount(accepted);
  for (int dt = 0; dt < MF_DTYPE_COUNT; dt++) {
    if (!(accepted >> dt & 1)) continue;
    n++;
    size_t used = strlen(what);
    snprintf(what + used, sizeof what - used, "%s%s", n == 1 ? "" : n == total ? " or " : ", ",
             mf_dtype_name((mf_dtype)dt));
  }
  return mf_infer_dtype_refused(c, i, accepted, what, err);
}

/* ---- blocks of a fused program (elementwise.h) ---- */

/* out[1..n) = out[0]. */
static void fill_block(void *out, int64_t n, size_t size) {
  if (size == 1) {
    memset((char *)out + 1, *(const unsigned char *)out, (size_t)(n > 1 ? n - 1 : 0));
  } else if (size == 4) {
    uint32_t *o = out, v = o[0];
    for (int64_t i = 1; i < n; i++) o[i] = v;
  } else {
    uint64_t *o = out, v = o[0];
    for (int64_t i = 1; i < n; i++) o[i] = v;
  }
}

void mf_elementwise_run(const mf_elementwise_fn *fn, const void *const *in,
                        const int64_t *in_stride, void *out, int64_t n) {
  if (n <= 0) return;
  size_t size = mf_dtype_size(fn->out_dtype);
  switch (fn->kind) {
  case EW_UNARY:
  case EW_CAST:
    ((unary_loop)fn->loop)(in_stride[0] ? n : 1, in[0], out);
    if (!in_stride[0]) fill_block(out, n, size);
    break;
  case EW_BINARY:
    (void)((binary_loop)fn->loop)(n, in[0], in_stride[0] != 0, in[1], in_stride[1] != 0, out);
    break;
  case EW_SELECT:
    (void)((select_loop)fn->loop)(n, in[0], in_stride[0] != 0, in[1], in_stride[1] != 0, in[2],
                                  in_stride[2] != 0, out);
    break;
  case EW_COPY:
    memcpy(out, in[0], in_stride[0] ? (size_t)n * size : size);
    if (!in_stride[0]) fill_block(out, n, size);
    break;
  }
}

/* ---- in-place accumulation ---- */

/* x (+|-)= y in place: a variable's update (AssignAdd/SubVariableOp). */
#define ACCUMULATE(DT, T, U)                                                              \
  SIMD_CLONES static void accumulate_##DT(int sign, void *vx, const void *vy, int64_t n) { \
    T *restrict x = vx;                                                                   \
    const T *restrict y = vy;                                                             \
    if (sign > 0)                                                                         \
      for (int64_t i = 0; i < n; i++) x[i] = (T)((U)x[i] + (U)y[i]);                      \
    else                                                                                  \
      for (int64_t i = 0; i < n; i++) x[i] = (T)((U)x[i] - (U)y[i]);                      \
  }
ACCUMULATE(MF_FLOAT32, float, float)
ACCUMULATE(MF_FLOAT64, double, double)
ACCUMULATE(MF_INT32, int32_t, uint32_t)
ACCUMULATE(MF_INT64, int64_t, uint64_t)
#undef ACCUMULATE

bool mf_elementwise_accumulate(mf_dtype dt, int sign, void *x, const void *y, int64_t n) {
  switch (dt) {
    case MF_FLOAT32: accumulate_MF_FLOAT32(sign, x, y, n); return true;
    case MF_FLOAT64: accumulate_MF_FLOAT64(sign, x, y, n); return true;
    case MF_INT32: accumulate_MF_INT32(sign, x, y, n); return true;
    case MF_INT64: accumulate_MF_INT64(sign, x, y, n); return true;
    default: return false;
  }
}
