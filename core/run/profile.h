/* profile.h — per-node times of graph runs (tf.debug.profile). While a
 * profile is installed on a thread (mf_profile_install), the executor
 * times every node it runs there, nested graphs' nodes included: a node's
 * total time, its self time (total less the nodes it ran inside it: an
 * If's branch, a While's body, a call's function), its call count and the
 * bytes of the outputs it made. With none installed the executor reads no
 * clock: one branch per run on a pointer it read once. */
#ifndef MF_PROFILE_H
#define MF_PROFILE_H

#include <stdint.h>

#include "graph.h"

typedef struct mf_profile_entry {
  const mf_graph *g; /* retained until mf_profile_clear */
  int node;
  int depth;         /* 0: a node of a graph run from outside the executor */
  int64_t calls, self_ns, total_ns, bytes;
} mf_profile_entry;

typedef struct mf_profile {
  mf_profile_entry *e; /* open addressing by (g, node); g NULL: free */
  int cap, n;
  int64_t *child;      /* the running node's time of nodes run inside it, or NULL */
  int depth;
  int64_t run_ns;      /* wall time of the runs made from outside the executor */
  int64_t runs;
} mf_profile;

/* The profile of this thread (NULL: not profiling). Installing replaces. */
void mf_profile_install(mf_profile *p);
mf_profile *mf_profile_installed(void);

/* Monotonic nanoseconds. */
int64_t mf_profile_now(void);

/* Adds one call of node `node` of g to p. */
mf_status mf_profile_record(mf_profile *p, const mf_graph *g, int node, int64_t self_ns,
                            int64_t total_ns, int64_t bytes, mf_error *err);

/* Frees p's table and releases its graphs (p itself is the caller's). */
void mf_profile_clear(mf_profile *p);

#endif
