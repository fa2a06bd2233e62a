/* source_pool.h — the node sources of a graph, one copy each.
 *
 * A trace records the user's line on every node (graph.h's mf_node_source);
 * a loop of ops on one line, or a chain of them, makes hundreds of nodes
 * with the same chunk, line, code and variable. The pool keeps each
 * distinct source once, with its strings shared between sources, in blocks
 * freed with the pool: recording a node's source costs a hash lookup, not
 * allocations. A graph owns its pool; a copy of the graph (the optimiser's
 * passes) shares it, so a copied node keeps the very same record.
 */
#ifndef MF_SOURCE_POOL_H
#define MF_SOURCE_POOL_H

#include <stddef.h>

/* Where user code made a node (set by the binding that traced it; the core
 * only keeps, copies and quotes it): the chunk as Lua names it ("@lesson.lua",
 * "=stdin"), the line, and once known the line's code ("y = x * 2") and the
 * Lua variable the value was assigned to ("y"). Owned by a pool, never
 * changed: a node whose source changes points to another record. */
typedef struct mf_node_source {
  const char *chunk;
  int line;
  const char *text; /* or NULL */
  const char *name; /* or NULL */
} mf_node_source;

typedef struct mf_source_pool mf_source_pool;

/* A new empty pool with one reference, or NULL when out of memory. */
mf_source_pool *mf_source_pool_new(void);
void mf_source_pool_retain(mf_source_pool *p);
void mf_source_pool_release(mf_source_pool *p);

/* The pool's record for (chunk, line, text, name) (text and name may be
 * NULL; chunk NULL reads "?"), added when new; NULL when out of memory. */
const mf_node_source *mf_source_pool_intern(mf_source_pool *p, const char *chunk, int line,
                                            const char *text, const char *name);

/* Bytes the pool holds (blocks and tables), for the graph's accounting. */
size_t mf_source_pool_bytes(const mf_source_pool *p);

#endif
