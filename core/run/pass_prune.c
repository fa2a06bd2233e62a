/* pass_prune.c — dead-node pruning. Kept: what the graph's outputs need,
 * every stateful or side-effecting node (variable reads and writes,
 * tf.print, lua_function, random ops) with everything it needs, and every
 * Placeholder (callers feed inputs by position, used or not); "needs"
 * follows inputs and control edges. Everything else is dropped. Kept nodes
 * keep their order, so stateful nodes keep program order. */
#include <stdlib.h>

#include "alloc.h"
#include "passes.h"

/* Marks needed[i] for every node the graph must keep; returns how many. */
static int mark_needed(const mf_graph *g, bool *needed) {
  extern const mf_op_def mf_op_Placeholder;
  int n = g->nnodes, count = 0;
  for (int i = 0; i < g->noutputs; i++) needed[g->outputs[i].node] = true;
  for (int i = 0; i < g->ninputs; i++) needed[g->inputs[i]] = true;
  for (int i = 0; i < n; i++) {
    const mf_node *nd = &g->nodes[i];
    if (nd->op == &mf_op_Placeholder ||
        (nd->op->flags & (MF_OP_STATEFUL | MF_OP_SIDE_EFFECTS | MF_OP_RANDOM)))
      needed[i] = true;
  }
  /* Inputs always name earlier nodes: one backward sweep reaches them all. */
  for (int i = n - 1; i >= 0; i--) {
    if (!needed[i]) continue;
    count++;
    const mf_node *nd = &g->nodes[i];
    for (int k = 0; k < nd->nin; k++) needed[nd->inputs[k].node] = true;
    for (int k = 0; k < nd->ncontrol; k++) needed[nd->control[k]] = true;
  }
  return count;
}

bool mf_pass_prune_has_work(const mf_graph *g) {
  bool *needed = mf_calloc((size_t)g->nnodes + 1, sizeof *needed);
  bool work = !needed || mark_needed(g, needed) < g->nnodes;
  free(needed);
  return work;
}

mf_status mf_pass_prune(mf_graph *g, mf_graph **out, mf_pass_stats *st, mf_error *err) {
  int n = g->nnodes;
  bool *needed = mf_calloc((size_t)n + 1, sizeof *needed);
  if (!needed) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  mark_needed(g, needed);
  mf_graph_copy c;
  mf_status s = mf_graph_copy_begin(g, &c, err);
  int pruned = 0;
  for (int i = 0; i < n && s == MF_OK; i++) {
    if (needed[i])
      s = mf_graph_copy_node(&c, i, err);
    else
      pruned++;
  }
  free(needed);
  if (s != MF_OK) {
    mf_graph_copy_abort(&c);
    return s;
  }
  MF_TRY(mf_graph_copy_finish(&c, out, err));
  if (st) {
    st->pruned += pruned;
    st->nodes_after = (*out)->nnodes;
  }
  return MF_OK;
}
