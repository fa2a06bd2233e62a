/* optimize.c — the optimisation pipeline (passes.h): constant folding,
 * algebraic simplification and common-subexpression elimination in one
 * sweep (each node tries the three steps in turn, pass_util.h), dead-node
 * pruning, then fusion of elementwise chains. Graphs nested in control-flow
 * nodes (cond branches, loop bodies) go through the same pipeline before
 * fusion, so a loop body runs its optimised form on every iteration; the
 * bodies fusion makes are left as they are. The graph given is never
 * modified: each stage makes a new graph. */
#include <string.h>

#include "pass_util.h"
#include "passes.h"

/* Folding, simplification and CSE as one copy of g. */
static mf_status rewrite(mf_graph *g, mf_graph **out, mf_pass_stats *st, mf_error *err) {
  mf_cse_table *t;
  mf_graph_copy c;
  MF_TRY(mf_cse_table_new(&t, err));
  mf_status s = mf_graph_copy_begin(g, &c, err);
  if (s != MF_OK) {
    mf_cse_table_free(t);
    return s;
  }
  for (int i = 0; i < g->nnodes && s == MF_OK; i++) {
    bool done;
    s = mf_pass_fold_step(&c, i, t, &done, err);
    if (s != MF_OK) break;
    if (done) {
      st->folded++;
      continue;
    }
    if (mf_pass_simplify_step(&c, i)) {
      st->simplified++;
      continue;
    }
    s = mf_pass_cse_step(t, &c, i, &done, err);
    st->merged += done;
  }
  mf_cse_table_free(t);
  if (s != MF_OK) {
    mf_graph_copy_abort(&c);
    return s;
  }
  return mf_graph_copy_finish(&c, out, err);
}

/* Replaces every nested graph of g (a graph this pipeline made, so not yet
 * shared) by its optimised copy; fused bodies excepted. */
static mf_status optimize_nested(mf_graph *g, mf_error *err) {
  extern const mf_op_def mf_op_FusedElementwise;
  for (int i = 0; i < g->nnodes; i++) {
    if (g->nodes[i].op == &mf_op_FusedElementwise) continue;
    mf_attrs *as = g->nodes[i].attrs;
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

/* Replaces *g by what `pass` makes of it (releasing the old one). */
static mf_status step(mf_status (*pass)(mf_graph *, mf_graph **, mf_pass_stats *, mf_error *),
                      mf_graph **g, mf_pass_stats *st, mf_error *err) {
  mf_graph *next;
  mf_status s = pass(*g, &next, st, err);
  mf_graph_release(*g);
  *g = s == MF_OK ? next : NULL;
  return s;
}

mf_status mf_graph_optimize(mf_graph *g, mf_graph **out, mf_pass_stats *st, mf_error *err) {
  mf_pass_stats stats;
  memset(&stats, 0, sizeof stats);
  stats.nodes_before = g->nnodes;
  mf_graph *cur = g;
  mf_graph_retain(cur);
  mf_status s = step(rewrite, &cur, &stats, err);
  /* cur is a copy from here on: optimize_nested may change it. */
  if (s == MF_OK && mf_pass_prune_has_work(cur)) s = step(mf_pass_prune, &cur, &stats, err);
  if (s == MF_OK) s = optimize_nested(cur, err);
  if (s == MF_OK) s = step(mf_pass_fuse_elementwise, &cur, &stats, err);
  if (s != MF_OK) {
    mf_graph_release(cur);
    return s;
  }
  stats.nodes_after = cur->nnodes;
  if (st) *st = stats;
  *out = cur;
  return MF_OK;
}
