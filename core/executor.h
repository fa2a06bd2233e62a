/* executor.h — runs graphs. A plan is made once per graph (which nodes are
 * needed, in what order, when each value dies) and run many times; every
 * run returns fresh outputs. Stateful and side-effecting nodes are always
 * run, in program order (their control edges), and are never pruned. */
#ifndef MF_EXECUTOR_H
#define MF_EXECUTOR_H

#include "graph.h"

typedef struct mf_plan mf_plan;

/* Plans `g` (retained by the plan). */
mf_status mf_plan_new(mf_graph *g, mf_plan **out, mf_error *err);
/* Plans `g` for g's own plan cache (g->plan): the plan does not retain g,
 * which would make a cycle; g frees it. */
mf_status mf_plan_new_cached(mf_graph *g, mf_error *err);
void mf_plan_free(mf_plan *p);
/* Runs the plan. feeds[i] feeds g->inputs[i] (borrowed); outputs receives
 * g->noutputs new references. */
mf_status mf_plan_run(mf_plan *p, int nfeeds, mf_tensor *const *feeds, mf_tensor **outputs,
                      mf_error *err);

#endif
