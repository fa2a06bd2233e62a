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
int mf_posix_memalign(void **out, size_t align, size_t n);
/* For memory handed out again from a cache instead of malloc (tensor.c's
 * small-block free lists): counts as an allocation, and nonzero when it is
 * the one to fail, so injected failures reach cached paths too. */
int mf_alloc_inject(void);

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
