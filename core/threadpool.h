/* threadpool.h — one process-wide pool of worker threads, for the large
 * elementwise kernels (ops_elementwise.c, ops_fused.c) and nothing else.
 *
 * The pool is created on first use with one thread per online CPU (the
 * caller counts as one; MOONFLOW_NUM_THREADS overrides the count, 1 turns
 * threading off). A parallel loop splits [0, n) into contiguous parts, runs
 * part 0 on the caller and the others on workers, and returns when all are
 * done. It never splits below `min_part` elements per part, so small
 * tensors run inline on the caller with no synchronisation at all.
 *
 * Only kernels that do no BLAS work use the pool, and a kernel runs on one
 * thread at a time, so the pool and OpenBLAS's own pool never compete for
 * the cores. When the pool is already running a loop (a second thread
 * calling in, or a nested call), the new loop runs inline on its caller
 * instead of waiting. After fork() the child runs every loop inline. */
#ifndef MF_THREADPOOL_H
#define MF_THREADPOOL_H

#include <stdint.h>

/* One part of a loop: elements [begin, end), `part` in 0 .. parts-1. */
typedef void (*mf_parallel_fn)(void *ctx, int64_t begin, int64_t end, int part);

/* Runs fn over [0, n) in at most mf_threadpool_size() parts of at least
 * `min_part` elements; every boundary is a multiple of `align` (>= 1).
 * Returns the number of parts used (1 when it ran inline). */
int mf_parallel_for(int64_t n, int64_t min_part, int64_t align, mf_parallel_fn fn, void *ctx);

/* Threads a loop may use, the caller included (creates the pool). */
int mf_threadpool_size(void);

#endif
