/* threadpool.h — one process-wide pool of worker threads, for every
 * kernel that shares its work out: the large elementwise kernels
 * (ops_elementwise.c, ops_fused.c), the GEMMs (gemm.c: OpenBLAS is then
 * held at one thread, so two pools never compete for the cores) and the
 * Winograd convolution's blocks.
 *
 * The pool is created on first use with one thread per online CPU (the
 * caller counts as one; MOONFLOW_NUM_THREADS overrides the count, 1 turns
 * threading off). A parallel loop cuts [0, n) into chunks (several per
 * thread); the caller and the workers take chunks until none is left, and
 * the call returns when all are done. A worker that finished a loop polls
 * for the next one for 0.2 ms before it sleeps (waking a sleeping thread
 * costs tens of microseconds on a virtual machine), so a graph of many
 * parallel steps keeps its workers awake. A worker that is slow to wake
 * (asleep, or its CPU busy with another process) finds the chunks taken
 * and does nothing, so a loop is never held up for more than one chunk —
 * unless the worker loses its CPU in the middle of one; when that makes
 * the caller wait a quarter of the loop, the next 8, 16, ... loops run
 * inline before threads are tried again (a machine busy with other work).
 * Loops of fewer than 2 * min_part elements run inline with no
 * synchronisation at all, and so does a loop whose first chunk, timed on
 * the caller, shows the whole is not worth sharing (under about 10 us of
 * work).
 *
 * When the pool is already running a loop (a second thread calling in, or
 * a nested call), the new loop runs inline on its caller instead of
 * waiting. After fork() the child runs every loop inline. */
#ifndef MF_THREADPOOL_H
#define MF_THREADPOOL_H

#include <stdint.h>

/* Below this much work (ns), sharing a loop costs more than it saves: a
 * polling worker joins within a microsecond or two, a sleeping one tens
 * of microseconds later. */
#define MF_PARALLEL_WORTH_NS 10000.0

/* One chunk of a loop: elements [begin, end), run by thread `part` (0 is
 * the caller; below mf_threadpool_size()). A thread runs its chunks one
 * after the other, so per-part scratch needs no locking. */
typedef void (*mf_parallel_fn)(void *ctx, int64_t begin, int64_t end, int part);

/* Runs fn over [0, n) in chunks whose boundaries are multiples of `align`
 * (>= 1): fn(ctx, 0, n, 0) alone when n < 2 * min_part. Returns the number
 * of threads that took part (1 when it ran inline). */
int mf_parallel_for(int64_t n, int64_t min_part, int64_t align, mf_parallel_fn fn, void *ctx);

/* mf_parallel_for deciding once: *cost (ns per element, kept by the
 * caller for one kind of loop — a plan node, an op family; 0 when not yet
 * known) is measured on the first call that could use threads and then
 * decides every later call from n alone: a loop under about 10 us of work
 * runs inline in one piece, untimed; a larger one goes to the workers
 * without timing a first chunk. NULL: mf_parallel_for. */
int mf_parallel_for_cost(int64_t n, int64_t min_part, int64_t align, mf_parallel_fn fn, void *ctx,
                         double *cost);

/* A thread outside the pool that computes ahead of its consumer (a
 * prefetch's producer, core/data/prefetch.c) says when it starts working
 * (+1) and when it stops to wait (-1). While k such threads work, the last
 * k workers do not poll for the next loop: they sleep at once, and a
 * polling one goes to sleep, leaving their CPUs to those threads. A worker
 * polling between the loops of a training step otherwise holds the core
 * the producer needs, and the scheduler shares it between the two: the
 * producer fell behind a step it is faster than, and the step waited for
 * it. Loops still reach a sleeping worker (woken, tens of microseconds
 * late) and the caller, who always takes chunks. Returns the new count
 * (delta 0 reads it). */
int mf_threadpool_background(int delta);

/* Threads a loop may use, the caller included (creates the pool). */
int mf_threadpool_size(void);

#endif
