/* dtype_widen.h — the small and half dtypes through the kernels of wider
 * ones, in the one op-call path (op_registry.c).
 *
 * TF's CPU kernels for float16 and bfloat16 convert each element to float,
 * compute, and round the result back (Eigen::half); those for the small
 * integers compute in the type itself, wrapping. moonflow's numeric kernels
 * are written for float32/64 and int32/64, so an op listed here that TF
 * registers for a small dtype runs on its data inputs widened (float16,
 * bfloat16 -> float32; int8, int16, uint8, uint16 -> int32; uint32,
 * uint64 -> int64, uint64's ordering ops with a bias) and its outputs
 * narrowed back per op: wrapping modular
 * arithmetic and the float rounding give exactly the narrow type's result
 * (the exceptions are listed in the table's comments). Data-moving kernels
 * (reshape, concat, gather, ...) copy bytes and need none of this.
 *
 * An op that is not listed for a small dtype and whose own inference
 * refuses it fails as TF's kernel lookup fails: NotFoundError (see
 * mf_infer_dtype_refused). */
#ifndef MF_DTYPE_WIDEN_H
#define MF_DTYPE_WIDEN_H

#include <stdbool.h>

#include "op.h"

/* One call's plan: data inputs [from, to) of dtype `narrow` run as `wide`;
 * the outputs whose bit is set in `outs` go back to `narrow`. `biased`:
 * uint64 through int64 with each value's top bit flipped (both ways),
 * which keeps uint64's order for its comparisons and extremes. */
typedef struct mf_widen {
  mf_dtype narrow, wide;
  int from, to;
  unsigned outs;
  bool biased;
  /* uint64's division and Mean, which no wider kernel computes: inferred
   * as int64, computed by dtype_widen.c's own uint64 loops. */
  bool native;
  /* bit i: input i, inside [from, to), is not data (Conv2DBackpropFilter's
   * filter_sizes between its two data inputs) */
  unsigned skip;
} mf_widen;

/* Whether c (its input specs set) runs widened; false for every call
 * without a small or half dtype at a data input of a listed op. */
bool mf_widen_plan(const mf_op_call *c, mf_widen *w);

/* The op's inference, or its kernel, run widened by plan w. */
mf_status mf_widen_infer(mf_op_call *c, const mf_widen *w, mf_error *err);
mf_status mf_widen_kernel(mf_op_call *c, const mf_widen *w, mf_error *err);

/* The dtype a small or half dtype computes in (itself for the others). */
mf_dtype mf_dtype_wide(mf_dtype dt);

/* Whether c has an input of a small or half dtype: only such a call may
 * widen. Those dtypes come last in mf_dtype (dtype.h), so a call of the
 * common ones (float32, int32, ...) leaves the op-call path here, without
 * the walk of the table (about 80 instructions of a 3000-instruction
 * eager scalar add, issue 28). */
static inline bool mf_widen_may(const mf_op_call *c) {
  bool small = false;
  for (int i = 0; i < c->nin; i++) small |= c->in_specs[i].dtype >= MF_FLOAT16;
  return small;
}

#endif
