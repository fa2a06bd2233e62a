/* optimize.c — the optimisation pipeline (passes.h): constant folding,
 * algebraic simplification, common-subexpression elimination, dead-node
 * pruning, then fusion of elementwise chains, each pass making a new graph
 * from the last. Graphs nested in control-flow nodes (cond branches, loop
 * bodies) go through the same pipeline before fusion, so a loop body runs
 * its optimised form on every iteration; the bodies fusion makes are left
 * as they are. The graph given is never modified. */
#include <string.h>

#include "passes.h"

typedef mf_status (*pass_fn)(mf_graph *g, mf_graph **out, mf_pass_stats *st, mf_error *err);

static const pass_fn pipeline[] = {
    mf_pass_fold_constants,
    mf_pass_simplify,
    mf_pass_cse,
    mf_pass_prune,
};

/* Replaces every nested graph of g (a graph this pipeline made, so not yet
 * shared) by its optimised copy; fused bodies excepted. */
static mf_status optimize_nested(mf_graph *g, mf_error *err) {
  extern const mf_op_def mf_op_FusedElementwise;
  for (int i = 0; i < g->nnodes; i++) {
    if (g->nodes[i].op == &mf_op_FusedElementwise) continue;
    mf_attrs *as = &g->nodes[i].attrs;
    for (int k = 0; k < as->n; k++) {
      if (as->a[k].kind != MF_ATTR_GRAPH) continue;
      char name[MF_ATTR_NAME_MAX];
      memcpy(name, as->a[k].name, sizeof name);
      mf_graph *opt;
      MF_TRY(mf_graph_optimize(as->a[k].u.graph, &opt, NULL, err));
      mf_status s = mf_attrs_set_graph(as, name, opt, err);
      mf_graph_release(opt);
      MF_TRY(s);
    }
  }
  return MF_OK;
}

mf_status mf_graph_optimize(mf_graph *g, mf_graph **out, mf_pass_stats *st, mf_error *err) {
  mf_pass_stats stats;
  memset(&stats, 0, sizeof stats);
  stats.nodes_before = g->nnodes;
  mf_graph *cur = g;
  mf_graph_retain(cur);
  for (size_t i = 0; i < sizeof pipeline / sizeof pipeline[0]; i++) {
    mf_graph *next;
    mf_status s = pipeline[i](cur, &next, &stats, err);
    mf_graph_release(cur);
    if (s != MF_OK) return s;
    cur = next;
  }
  mf_status s = optimize_nested(cur, err);
  mf_graph *fused = NULL;
  if (s == MF_OK) s = mf_pass_fuse_elementwise(cur, &fused, &stats, err);
  mf_graph_release(cur);
  if (s != MF_OK) return s;
  cur = fused;
  stats.nodes_after = cur->nnodes;
  if (st) *st = stats;
  *out = cur;
  return MF_OK;
}
