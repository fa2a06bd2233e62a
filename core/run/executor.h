/* executor.h — runs graphs. A graph is planned on its first run (which
 * nodes are needed, in what order, when each value dies, which buffers can
 * be reused) and the plan is run many times; every run returns fresh
 * outputs. Stateful and side-effecting nodes are always run, in program
 * order (their control edges), and are never pruned.
 *
 * The executor is the one owner of plans: it keeps each graph's plan in the
 * graph's cache slot (graph.h), so every caller — the binding's graph
 * handles, control-flow kernels running their branches, fused-op fallbacks,
 * tests — shares it, and nobody else frees or holds one. A plan borrows its
 * graph (the graph frees the plan, never the other way round), and the
 * graph drops it whenever it changes. */
#ifndef MF_EXECUTOR_H
#define MF_EXECUTOR_H

#include "graph.h"

/* Runs g: feeds[i] feeds g->inputs[i] (borrowed); on success outputs
 * receives g->noutputs new references. Plans g on its first run
 * and after any change to it; later runs reuse the plan. */
mf_status mf_graph_run(const mf_graph *g, int nfeeds, mf_tensor *const *feeds,
                       mf_tensor **outputs, mf_error *err);

/* How many node kernels the executor has run on this thread, ever: a
 * probe for tests (a plan takes its Consts' values once, when it is made,
 * so a run runs only the other nodes). */
int64_t mf_executor_kernels_run(void);

#endif
