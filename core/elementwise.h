/* elementwise.h — the elementwise ops as block functions, for fusion.
 *
 * Every elementwise op of ops_elementwise.c (unary and binary math,
 * comparisons, SelectV2, Cast) and Identity can compute a block of `n`
 * contiguous output elements from inputs that are either contiguous blocks
 * (stride 1) or one repeated element (stride 0, a broadcast scalar). That
 * is what the FusedElementwise kernel (ops_fused.c) runs a fused program
 * with, block by block, without full-size intermediates. The per-op
 * knowledge stays in ops_elementwise.c's one table: this header only names
 * the entry points.
 *
 * Dtypes: `dt` is the dtype of the op's data inputs — both inputs of a
 * binary op, x of a unary op and of Cast, t and e of SelectV2 (whose
 * condition is bool). The output has the dtype the op's inference gives:
 * bool for comparisons, attribute DstT for Cast, else dt.
 *
 * What blocks do not do: string ops, and the value checks of TF's integer
 * kernels (FloorDiv/FloorMod by zero, Pow to a negative integer power):
 * mf_elementwise_fusable says no to those, and a fused graph keeps them as
 * ordinary nodes so that their errors are raised as before. */
#ifndef MF_ELEMENTWISE_H
#define MF_ELEMENTWISE_H

#include <stdbool.h>
#include <stdint.h>

#include "op.h"

/* True when `op` on data inputs of dtype `dt` (with these attributes) has a
 * block function that computes exactly what its kernel does, with no error
 * to raise on any input value. */
bool mf_elementwise_fusable(const mf_op_def *op, mf_dtype dt, const mf_attrs *attrs);

/* Computes out[0..n) of `op` from nin inputs: input k is in[k] read with
 * in_stride[k] (1: n contiguous elements; 0: in[k][0] for every element).
 * out must not overlap any input. Borrows everything. False (nothing
 * written) when the op has no block function for dt (see above). */
bool mf_elementwise_block(const mf_op_def *op, mf_dtype dt, int nin, const void *const *in,
                          const int64_t *in_stride, void *out, int64_t n, const mf_attrs *attrs);

/* The same, split in two: resolve the (op, dtype, attributes) once, then
 * run blocks with no lookup. A resolved function is a small value, valid as
 * long as the op table (for ever). */
typedef struct mf_elementwise_fn {
  int kind;               /* private: the op's family */
  void (*loop)(void);     /* private: the family's loop for this dtype */
  mf_dtype in_dtype;      /* dt */
  mf_dtype out_dtype;     /* the output's dtype */
} mf_elementwise_fn;

bool mf_elementwise_resolve(const mf_op_def *op, mf_dtype dt, const mf_attrs *attrs,
                            mf_elementwise_fn *out);
void mf_elementwise_run(const mf_elementwise_fn *fn, const void *const *in,
                        const int64_t *in_stride, void *out, int64_t n);

/* Elementwise kernels split work over threads only from this many output
 * elements on (see threadpool.h). */
#define MF_ELEMENTWISE_PARALLEL_MIN 65536

#endif
