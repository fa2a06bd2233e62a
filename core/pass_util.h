/* pass_util.h — small predicates the optimisation passes share (passes.h
 * is their interface; graph.h's mf_graph_copy is how they build graphs). */
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
  for (int i = 0; i < n->attrs.n; i++)
    if (n->attrs.a[i].kind == MF_ATTR_CALLBACK) return false;
  return true;
}

static inline bool mf_pass_node_has_graphs(const mf_node *n) {
  for (int i = 0; i < n->attrs.n; i++)
    if (n->attrs.a[i].kind == MF_ATTR_GRAPH) return true;
  return false;
}

/* Cheap checks the pipeline makes before a pass: false when the pass would
 * change nothing (no node may fold; every node is needed), so the copy it
 * would make can be skipped. */
bool mf_pass_fold_has_work(const mf_graph *g);
bool mf_pass_prune_has_work(const mf_graph *g);

#endif
