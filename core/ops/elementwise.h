/* elementwise.h — the elementwise ops as block functions, for fusion.
 *
 * Every elementwise op of ops_elementwise.c (unary and binary math,
 * comparisons, SelectV2, Cast) and Identity can compute a block of `n`
 * contiguous output elements from inputs that are either contiguous blocks
 * (stride 1) or one repeated element (stride 0, a broadcast scalar). That
 * is what the FusedElementwise kernel (ops_fused.c) runs a fused program
 * with, block by block, without full-size intermediates; and the whole
 * program can be compiled to run a chunk at a time (below). The per-op
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

/* x = x + y (sign > 0) or x - y (sign < 0) over n elements of dtype dt,
 * in place: the values AddV2's and Sub's kernels give, integers wrapping.
 * x and y must not overlap. False (nothing written) for dtypes other than
 * float32/64 and int32/64. */
bool mf_elementwise_accumulate(mf_dtype dt, int sign, void *x, const void *y, int64_t n);

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

/* ---- whole programs, a chunk at a time ----
 *
 * A fused program (ops_fused.c) is a list of steps over numbered values.
 * Compiled for chunks (mf_elementwise_chunk_compile), it runs all its
 * steps on one chunk of elements before the next (mf_elementwise_chunks):
 * each op is a loop of fixed length, which the compiler turns into
 * straight SIMD code for the CPU (x86-64 baseline, AVX2 or AVX-512, picked
 * once), and intermediates never leave L1. A program whose steps are all
 * arithmetic on one float dtype keeps its running value in registers (an
 * accumulator one chunk wide); others keep every value in a chunk of
 * scratch. Each op computes what its block function and kernel compute,
 * bit for bit: the same table in ops_elementwise.c, the same flags. */

/* Elements per chunk of scratch, and the most any program's chunk has. */
#define MF_ELEMENTWISE_CHUNK 128

/* One step of a program: value `out` = the op of values in[0..nin). */
typedef struct mf_elementwise_step {
  mf_elementwise_fn fn;   /* for blocks (mf_elementwise_run) */
  int chunk;              /* for chunks: mf_elementwise_chunk_code's code */
  bool keep;              /* out is read after the next step, or is the result */
  int nin;
  int in[3];              /* value ids; unused ones repeat in[0] */
  int out;
} mf_elementwise_step;

/* The chunk code of (op, dtype, attributes): true and *code > 0 when the
 * op has one (every op with a block function has), else false, *code 0. */
bool mf_elementwise_chunk_code(const mf_op_def *op, mf_dtype dt, const mf_attrs *attrs,
                               int *code);

/* A compiled program: ops over value ids (private encoding). */
typedef struct mf_chunk_op {
  int code;
  int in[3], out;
} mf_chunk_op;

/* Compiles steps[0..nsteps), each with a chunk code, into ops[] (room for
 * 3 * nsteps). Returns the number of ops; *kind says which interpreter
 * runs them, *len how many elements it takes per chunk (a power of two,
 * at most MF_ELEMENTWISE_CHUNK). */
int mf_elementwise_chunk_compile(const mf_elementwise_step *steps, int nsteps, mf_chunk_op *ops,
                                 int *kind, int *len);

/* A value whose pointer moves on by `bytes` after each chunk: an input
 * read, or the output written, in place in a full-size tensor. */
typedef struct mf_chunk_cursor {
  int value;
  int bytes;
} mf_chunk_cursor;

/* Runs a compiled program over nchunks chunks. ptr[v] is where value v's
 * chunk is: a full-size tensor's elements, or MF_ELEMENTWISE_CHUNK 8-byte
 * words of scratch, which a step's output shares with none of its inputs
 * (the program's output may be exactly an input's tensor). After each
 * chunk, ptr[move[m].value] += move[m].bytes; on return, ptr holds the
 * positions after the last chunk. */
void mf_elementwise_chunks(int kind, const mf_chunk_op *ops, int nops, char **ptr,
                           const mf_chunk_cursor *move, int nmove, int64_t nchunks);

/* Elementwise kernels split work over threads only from this many output
 * elements on (see threadpool.h). */
#define MF_ELEMENTWISE_PARALLEL_MIN 65536

#endif
