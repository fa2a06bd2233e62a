/* alloc.h — the core's allocation functions: libc's, counted, with a
 * test-only switch that makes the Nth allocation from now fail (SQLite's
 * fault injection). Every call site must then fail cleanly: a status
 * (ResourceExhaustedError), nothing leaked, the library usable after.
 * Memory from these is freed with free().
 *
 * Every core and binding allocation goes through these except ONNX export
 * (onnx_export.c) and the session/REPL layers. tests/core/test_alloc_sweep.c
 * fails each allocation of a representative Lua workload in turn. */
#ifndef MF_ALLOC_H
#define MF_ALLOC_H

#include <stddef.h>
#include <stdint.h>

void *mf_malloc(size_t n);
void *mf_calloc(size_t count, size_t n);
void *mf_realloc(void *p, size_t n);
char *mf_strdup(const char *s);
/* Blocks of MF_HUGE_PAGE_MIN bytes or more (tensor data, a convolution's
 * scratch) are aligned to MF_HUGE_PAGE and advised into transparent huge
 * pages, as NumPy does for its large arrays: the first touch of each
 * 2 MiB then costs one page fault, not 512. On the 2-core VM measured,
 * where a page fault is dear, taking and filling 64 MiB went from 175 ms
 * to 6 ms, and a 16M-element eager add from 190 ms to NumPy's time. */
#define MF_HUGE_PAGE ((size_t)2 << 20)
#define MF_HUGE_PAGE_MIN ((size_t)4 << 20)
int mf_posix_memalign(void **out, size_t align, size_t n);
/* For memory handed out again from a cache instead of malloc (tensor.c's
 * small-block free lists): counts as an allocation, and nonzero when it is
 * the one to fail, so injected failures reach cached paths too. */
int mf_alloc_inject(void);

/* Large blocks kept for reuse: tensor data (tensor.c) of
 * MF_BLOCK_CACHE_MIN bytes or more. glibc maps and unmaps such blocks, or
 * grows and trims its heap for them, so an eager loop dropping a 256 KiB
 * result each call paid the system calls, a zero-filled page fault per
 * 4 KiB touched and the TLB flushes of giving pages back: at 256x256 a
 * fifth of tf.matmul's time. The cache keeps the most recently freed blocks,
 * at most MF_BLOCK_CACHE_SLOTS of them and MF_BLOCK_CACHE_BYTES in all
 * (process-wide, under a lock), and a request it cannot serve first frees
 * the oldest blocks, at least as many bytes as it asks for, so the cache
 * never adds to a peak of resident memory. Under AddressSanitizer it keeps
 * nothing, so that a use after free is still caught. Of the cached
 * blocks of a size, the one handed out latest before comes back first: its
 * last user wrote it last, so it is the likeliest still in the processor's
 * cache (Lua's collector frees a loop's dead results together, in no order
 * of age that helps).
 *
 * Ownership: a block from mf_block_take(&p, n, &stamp) belongs to the
 * caller, who hands it back with mf_block_give(p, n, stamp), the same n and
 * stamp (or with free(), which only forgoes the reuse). A block is 64-byte
 * aligned, its contents are whatever its last user left, and a cached one
 * counts as an allocation and honours injected failures
 * (mf_alloc_fail_after) as malloc's do. */
#define MF_BLOCK_CACHE_MIN ((size_t)64 << 10)
#define MF_BLOCK_CACHE_BYTES ((size_t)16 << 20)
#define MF_BLOCK_CACHE_SLOTS 64
/* 0, or ENOMEM with *out NULL. */
int mf_block_take(void **out, size_t n, uint64_t *stamp);
void mf_block_give(void *p, size_t n, uint64_t stamp);
/* Bytes the cache holds now. */
size_t mf_block_cache_bytes(void);
/* Frees every cached block (a trim does this too). */
void mf_block_cache_drain(void);

/* Reports n bytes given back. glibc returns to the system only a free top
 * of its heap, so the small blocks of what was freed among live ones kept
 * their pages for good (5,000 traces dropped: 170 MB resident, 66 KB in
 * use). Past 1 MB reported since the last time, free pages go back
 * wherever they are (malloc_trim). A trim costs milliseconds on a
 * fragmented heap, so only freeing graphs (dropping functions and traces)
 * earns trims: mf_alloc_freed_graph may trim, and earns other frees
 * (mf_alloc_note_freed: Lua's sweeps, which free a dropped function's
 * tables) up to 16 times its bytes; an eager loop's garbage never trims. */
void mf_alloc_note_freed(size_t n);
void mf_alloc_freed_graph(size_t n);

/* Fails the nth allocation from now (1 = the next one) and every later one
 * while `sticky`, else only that one; n = 0 turns failures off. Also set
 * at start by $MOONFLOW_FAIL_ALLOC=N. Process-wide (a test switch). */
void mf_alloc_fail_after(int64_t n, int sticky);
/* Allocations made (counted whether or not failing is on). */
int64_t mf_alloc_count(void);
/* Whether an injected failure has happened since the last
 * mf_alloc_fail_after. */
int mf_alloc_failed(void);

#endif
