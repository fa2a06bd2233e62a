/* node_run.h — one node of a graph run on its own: the stepper's executor
 * (tf.debug.step runs a traced function node by node, with values a user
 * may have replaced) and the profiler's clock. It calls the op as the
 * executor and eager calls do (mf_op_execute), so a value stepped to is
 * the bits a call computes. */
#ifndef MF_NODE_RUN_H
#define MF_NODE_RUN_H

#include "graph.h"

/* Runs node `node` of g on inputs[0..nin) (borrowed; one per node input, in
 * order): outs receives the node's nout outputs as new references. A
 * Placeholder is not run (it has no kernel: its value is what was fed). */
mf_status mf_node_run(const mf_graph *g, int node, mf_tensor *const *inputs, mf_tensor **outs,
                      mf_error *err);

/* Appends " [[node NAME]] (made at lesson.lua:3: y = x * 2)" to err's
 * message, once (a nested graph's node names itself first). */
void mf_node_annotate_error(const mf_node *nd, mf_error *err);

#endif
