/* optimize.c — the optimisation pipeline (passes.h): constant folding,
 * algebraic simplification, common-subexpression elimination, dead-node
 * pruning, then fusion of elementwise chains, each pass making a new graph
 * from the last. Graphs nested in control-flow nodes (cond branches, loop
 * bodies) go through the same pipeline before fusion, so a loop body runs
 * its optimised form on every iteration; the bodies fusion makes are left
 * as they are. The graph given is never modified. */
#include <string.h>

#include "pass_util.h"
#include "passes.h"

typedef mf_status (*pass_fn)(mf_graph *g, mf_graph **out, mf_pass_stats *st, mf_error *err);

/* The passes before fusion, each with a check that it has work (NULL:
 * always run): a pass with none is skipped rather than copying the graph. */
static const struct {
  pass_fn run;
  bool (*has_work)(const mf_graph *g);
} pipeline[] = {
    {mf_pass_fold_constants, mf_pass_fold_has_work},
    {mf_pass_simplify, NULL},
    {mf_pass_cse, NULL},
    {mf_pass_prune, mf_pass_prune_has_work},
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
    if (pipeline[i].has_work && !pipeline[i].has_work(cur)) continue;
    mf_graph *next;
    mf_status s = pipeline[i].run(cur, &next, &stats, err);
    mf_graph_release(cur);
    if (s != MF_OK) return s;
    cur = next;
  }
  /* optimize_nested changes cur: never the caller's graph (simplification
   * and CSE always run, so cur is a copy by now). */
  mf_status s = cur == g ? mf_error_set(err, MF_ERR_INTERNAL, "optimisation made no copy")
                         : optimize_nested(cur, err);
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
