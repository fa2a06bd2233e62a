/* elementwise_loops.h — the elementwise family's loop machinery, shared by
 * ops_elementwise.c (the ops: their tables and element expressions, the
 * loops those expand into) and elementwise_loops.c (what runs the loops:
 * threading, broadcast walks, blocks for fusion, in-place accumulation).
 * Private to the family; elementwise.h is what other files use.
 *
 * Both files are built with the flags the Makefile gives the elementwise
 * loops (-O3, no FMA contraction, ...): a loop compiled in either computes
 * the same bits. */
#ifndef MF_ELEMENTWISE_LOOPS_H
#define MF_ELEMENTWISE_LOOPS_H

#include <stdbool.h>
#include <stdint.h>

#include "op.h"

/* ---- dtype sets: M(enum, C type, wrapping type, args...) per dtype ---- */

#define DT_FLOAT(M, ...) \
  M(MF_FLOAT32, float, float, __VA_ARGS__) M(MF_FLOAT64, double, double, __VA_ARGS__)
#define DT_INT(M, ...) \
  M(MF_INT32, int32_t, uint32_t, __VA_ARGS__) M(MF_INT64, int64_t, uint64_t, __VA_ARGS__)
#define DT_NUMERIC(M, ...) DT_FLOAT(M, __VA_ARGS__) DT_INT(M, __VA_ARGS__)
#define DT_BOOL(M, ...) M(MF_BOOL, bool, bool, __VA_ARGS__)
#define DT_NUMERIC_BOOL(M, ...) DT_NUMERIC(M, __VA_ARGS__) DT_BOOL(M, __VA_ARGS__)

/* The loops are compiled three times, for x86-64 (SSE2), x86-64-v3 (AVX2)
 * and x86-64-v4 (AVX-512, whose masks and 32 registers make the
 * transcendental loops ~1.7x faster again), and the CPU picks one when the
 * library loads (an ifunc). Contraction into FMA is off (ISO C mode;
 * -ffp-contract=off in the Makefile), so all give the same bits, NaN
 * payloads aside (checked over every float32). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__)
#define SIMD_CLONES \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define SIMD_CLONES
#endif

/* A table entry [dtype] = <op>_<dtype>. */
#define LOOP_ENTRY(DT, CT, CU, NAME) [DT] = NAME##_##DT,

/* ---- the loop kinds ---- */

/* n elements of x into z (a unary op, or a cast). */
typedef void (*unary_loop)(int64_t n, const void *x, void *z);

/* One run of a broadcast walk: n outputs, each input stepping by sa / sb
 * (1 or 0, see broadcast.h). False only when a string allocation fails. */
typedef bool (*binary_loop)(int64_t n, const void *a, int sa, const void *b, int sb, void *z);

/* SelectV2's: condition, then and else, each stepping by its step. */
typedef bool (*select_loop)(int64_t n, const bool *c, int sc, const void *t, int st,
                            const void *e, int se, void *z);

/* Which loop kind an op's block function is (mf_elementwise_fn.kind). */
enum { EW_UNARY = 1, EW_BINARY, EW_SELECT, EW_CAST, EW_COPY };

/* ---- running them ---- */

/* z = loop(x) over all of x (same element count), in parts on the thread
 * pool when large. */
void mf_ew_unary_run(unary_loop loop, const mf_tensor *x, mf_tensor *z);

/* out = loop(in[0], in[1]) broadcast to out's shape, in parts on the
 * thread pool when large (strings, which allocate, on this thread). False
 * when a string loop ran out of memory. */
bool mf_ew_binary_run(binary_loop loop, mf_tensor *const *in, mf_tensor *out);

/* Input i's dtype is not one the op's loop table has (bit d of accepted:
 * dtype d has a loop): the error naming those it does accept. */
mf_status mf_ew_unsupported_dtype(mf_op_call *c, int i, unsigned accepted, mf_error *err);

#endif
