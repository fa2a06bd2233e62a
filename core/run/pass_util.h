/* pass_util.h — what the optimisation passes share beyond their interface
 * (passes.h): the predicates that decide which nodes a pass may touch, the
 * per-node steps the pipeline (optimize.c) combines into one sweep, and the
 * check that lets it skip pruning. graph.h's mf_graph_copy is how passes
 * build their graphs. */
#ifndef MF_PASS_UTIL_H
#define MF_PASS_UTIL_H

#include "graph.h"

/* Whether a node computes a function of its inputs and attributes alone:
 * not stateful, side-effecting or random, not a Placeholder (its value is
 * fed), and without host callbacks among its attributes. Only such nodes may
 * be folded, simplified away or merged. */
static inline bool mf_pass_node_is_pure(const mf_node *n) {
  extern const mf_op_def mf_op_Placeholder;
  if (n->op == &mf_op_Placeholder) return false;
  if (n->op->flags & (MF_OP_STATEFUL | MF_OP_SIDE_EFFECTS | MF_OP_RANDOM)) return false;
  for (int i = 0; i < n->attrs->n; i++)
    if (n->attrs->a[i].kind == MF_ATTR_CALLBACK) return false;
  return true;
}

static inline bool mf_pass_node_has_graphs(const mf_node *n) {
  for (int i = 0; i < n->attrs->n; i++)
    if (n->attrs->a[i].kind == MF_ATTR_GRAPH) return true;
  return false;
}

/* ---- per-node steps ----
 * Each pass is a sweep of its step over the source nodes, copying the
 * nodes the step leaves alone; the pipeline runs folding, simplification
 * and CSE as one sweep trying the three steps in turn (one graph copy
 * instead of three, and each step sees the others' results at once). */

typedef struct mf_cse_table mf_cse_table;
/* Places source node i as Consts when it folds; *done says whether it did.
 * With a CSE table, a value equal to a Const already in it is not placed
 * again, and new Consts are remembered in it. */
mf_status mf_pass_fold_step(mf_graph_copy *c, int i, mf_cse_table *t, bool *done, mf_error *err);
/* Lets source node i stand for a tensor of the copy when it computes
 * nothing new (x*1, Identity, ...); returns whether it did. */
bool mf_pass_simplify_step(mf_graph_copy *c, int i);
/* CSE's table of the copy's mergeable nodes. */
mf_status mf_cse_table_new(mf_cse_table **out, mf_error *err);
void mf_cse_table_free(mf_cse_table *t);
/* Places source node i: merged into an equal node of the copy (*merged) or
 * copied and remembered. */
mf_status mf_pass_cse_step(mf_cse_table *t, mf_graph_copy *c, int i, bool *merged, mf_error *err);
/* Remembers node `node` of the copy, placed by another step (a folded
 * Const), so later equal nodes merge into it. */
mf_status mf_cse_table_note(mf_cse_table *t, const mf_graph *dst, int node, mf_error *err);
/* The Const node of the copy in the table holding a value equal to
 * `value`, or -1. */
int mf_cse_table_find_const(const mf_cse_table *t, const mf_graph *dst, mf_tensor *value);

/* A cheap check the pipeline makes before pruning: false when every node is
 * needed, so the copy can be skipped. */
bool mf_pass_prune_has_work(const mf_graph *g);

#endif
