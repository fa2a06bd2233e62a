/* graph.h — a traced computation: nodes (op applications) with typed inputs,
 * attributes, unique TensorFlow-style names, control edges that keep
 * stateful ops in program order, and nested graphs (cond branches, loop
 * bodies) held as attributes.
 *
 * Nodes are appended in creation order, and an input always names an
 * earlier node, so the node array is a topological order. A graph is
 * refcounted (_retain/_release); nodes own their attrs, known values and
 * names. */
#ifndef MF_GRAPH_H
#define MF_GRAPH_H

#include "op.h"

typedef struct mf_tensor_ref {
  int node;
  int index;
} mf_tensor_ref;

typedef struct mf_node {
  char *name;
  const mf_op_def *op;
  int nin;
  mf_tensor_ref *inputs;
  int ncontrol;
  int *control;        /* nodes that must run before this one */
  mf_attrs attrs;
  int nout;
  mf_spec *out_specs;
  mf_tensor **known;   /* per output: value known at trace time (Const, folded), or NULL */
} mf_node;

typedef struct mf_graph {
  long refcount;
  char *name;
  int nnodes, cap;
  mf_node *nodes;
  /* name set for unique naming (open addressing; entries are node names) */
  char **names;
  int names_cap, names_used;
  int ninputs, inputs_cap;
  int *inputs;          /* Placeholder nodes, in call order */
  int noutputs;
  mf_tensor_ref *outputs;
  int last_stateful;    /* last stateful node added, -1 if none: the next depends on it */
  struct mf_plan *plan; /* made on first run by control-flow kernels; freed with the graph */
} mf_graph;

mf_status mf_graph_new(const char *name, mf_graph **out, mf_error *err);
void mf_graph_retain(mf_graph *g);
void mf_graph_release(mf_graph *g);

/* A unique node name from `base` ("add" -> "add", "add_1", ...), written to
 * buf. The name is reserved. */
mf_status mf_graph_unique_name(mf_graph *g, const char *base, char *buf, size_t n, mf_error *err);
/* Appends a node whose name was made unique already. Copies inputs and
 * attrs; takes the output specs and known values out of `c` (which must have
 * been inferred). Stateful ops get a control edge from the previous stateful
 * op. */
mf_status mf_graph_add_node(mf_graph *g, const char *unique_name, mf_op_call *c,
                            const mf_tensor_ref *inputs, int *node_out, mf_error *err);
mf_status mf_graph_add_control(mf_graph *g, int node, int dep, mf_error *err);
mf_status mf_graph_add_input(mf_graph *g, int node, mf_error *err);
mf_status mf_graph_set_outputs(mf_graph *g, int n, const mf_tensor_ref *outs, mf_error *err);
/* The node named `name`, or -1. */
int mf_graph_find(const mf_graph *g, const char *name);

#endif
