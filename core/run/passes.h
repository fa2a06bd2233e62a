/* passes.h — graph optimisation passes. Each pass reads a finished graph
 * and returns a NEW graph (the input is never modified: cf.graph stays the
 * graph as traced, what TF shows). Inputs and outputs of the graph keep
 * their order, so an optimised graph is fed and read exactly like the
 * original. Stateful and side-effecting nodes are never removed, folded,
 * merged or reordered (their control edges are kept).
 *
 * mf_graph_optimize runs the pipeline: constant folding, algebraic
 * simplification (x*1, x+0, double transpose, ...), common-subexpression
 * elimination, dead-node pruning, then fusion of elementwise chains. */
#ifndef MF_PASSES_H
#define MF_PASSES_H

#include "graph.h"

typedef struct mf_pass_stats {
  int nodes_before, nodes_after;
  int folded, simplified, merged, pruned, fused;
} mf_pass_stats;

mf_status mf_pass_fold_constants(mf_graph *g, mf_graph **out, mf_pass_stats *st, mf_error *err);
mf_status mf_pass_simplify(mf_graph *g, mf_graph **out, mf_pass_stats *st, mf_error *err);
mf_status mf_pass_cse(mf_graph *g, mf_graph **out, mf_pass_stats *st, mf_error *err);
mf_status mf_pass_prune(mf_graph *g, mf_graph **out, mf_pass_stats *st, mf_error *err);
mf_status mf_pass_fuse_elementwise(mf_graph *g, mf_graph **out, mf_pass_stats *st, mf_error *err);

/* The whole pipeline; *out is a new reference. st may be NULL. */
mf_status mf_graph_optimize(mf_graph *g, mf_graph **out, mf_pass_stats *st, mf_error *err);

#endif
