/* graph.h — a traced computation: nodes (op applications) with typed inputs,
 * attributes, unique TensorFlow-style names, control edges that keep
 * stateful ops in program order, and nested graphs (cond branches, loop
 * bodies) held as attributes.
 *
 * Nodes are appended in creation order, and an input always names an
 * earlier node, so the node array is a topological order. A graph is
 * refcounted (_retain/_release); nodes own their attrs, known and partial
 * values and names.
 *
 * Running a graph is the executor's business (executor.h): the first run
 * plans the graph and the plan is kept for the next runs. The graph carries
 * a slot for it, `cache`, that only the executor reads or fills; graph.c
 * only empties it (through the function the executor left there) when the
 * graph changes (a node, a control edge, an input or the outputs added) or
 * dies, so a plan never outlives or misdescribes its graph. The slot is
 * behind a pointer because what it caches is not part of the graph's value:
 * a graph held const (a branch in an op's attributes) can still be run. */
#ifndef MF_GRAPH_H
#define MF_GRAPH_H

#include "op.h"
#include "source_pool.h"

typedef struct mf_tensor_ref {
  int node;
  int index;
} mf_tensor_ref;


typedef struct mf_node {
  char *name;          /* the start of one allocation that also holds the
                          attrs and the inputs, out_specs and known arrays
                          (graph.c's append_node): freeing the name frees them */
  const mf_op_def *op;
  int nin;
  mf_tensor_ref *inputs;
  int ncontrol;
  int *control;        /* nodes that must run before this one */
  mf_attrs *attrs;      /* sized to fit (mf_attrs_bytes), in the name's block:
                           replace, never add */
  int nout;
  mf_spec *out_specs;
  mf_tensor **known;   /* per output: value known at trace time (Const, folded), or NULL */
  mf_partial **partial; /* per output: what is known of it element by element
                           (partial.h), or NULL; NULL itself when no output has one */
  bool deferred;       /* its kernel's checks refuse the traced inputs (op.h's deferred):
                          inferred again at every run, never planned past inference */
  const mf_node_source *source; /* the user's line that made it (in the graph's
                                   source pool), or NULL */
} mf_node;

/* The executor's per-graph cache (see the overview). */
typedef struct mf_graph_cache {
  void *data;                /* owned through `drop`; NULL when empty */
  void (*drop)(void *data);
} mf_graph_cache;

typedef struct mf_graph {
  long refcount;
  char *name;
  int nnodes, cap;
  mf_node *nodes;
  /* name set for unique naming (open addressing; entries are node names);
   * names_next[i] > 0: every "names[i]_k" with k < names_next[i] is taken */
  char **names;
  int *names_next;
  int names_cap, names_used;
  struct mf_name_block *name_blocks; /* the set's strings, in bump blocks */
  int ninputs, inputs_cap;
  int *inputs;          /* Placeholder nodes, in call order */
  int noutputs;
  mf_tensor_ref *outputs;
  int last_stateful;    /* last stateful node added, -1 if none: the next depends on it */
  mf_graph_cache *cache; /* the executor's; emptied when the graph changes or dies */
  char *scope;          /* tf.name_scope's prefix for new op names ("a/b/"), or NULL */
  mf_source_pool *sources; /* the nodes' sources (made with the first; shared by copies) */
} mf_graph;

mf_status mf_graph_new(const char *name, mf_graph **out, mf_error *err);
void mf_graph_retain(mf_graph *g);
void mf_graph_release(mf_graph *g);

/* A unique node name from `base` ("add" -> "add", "add_1", ...), written to
 * buf. The name is reserved. */
/* Frees what only building needs (the name set, spare node room): a
 * finished graph (a trace, a copy) then costs what its nodes do. Naming
 * a node again rebuilds the set. */
void mf_graph_shrink(mf_graph *g);

mf_status mf_graph_unique_name(mf_graph *g, const char *base, char *buf, size_t n, mf_error *err);
/* mf_graph_unique_name of `base` under the graph's current name scope
 * ("gradient_tape/" + "mul" -> "gradient_tape/mul"): op names while
 * tracing. Placeholders keep unscoped names, as TF's do. */
mf_status mf_graph_scoped_name(mf_graph *g, const char *base, char *buf, size_t n, mf_error *err);
/* Sets the name scope prefix (NULL or "" for none); the old one is freed. */
mf_status mf_graph_set_scope(mf_graph *g, const char *prefix, mf_error *err);
/* Appends a node whose name was made unique already. Copies inputs and
 * attrs; takes the output specs, known and partial values out of `c` (which
 * must have been inferred). Stateful ops get a control edge from the
 * previous stateful op. */
mf_status mf_graph_add_node(mf_graph *g, const char *unique_name, mf_op_call *c,
                            const mf_tensor_ref *inputs, int *node_out, mf_error *err);
mf_status mf_graph_add_control(mf_graph *g, int node, int dep, mf_error *err);
mf_status mf_graph_add_input(mf_graph *g, int node, mf_error *err);
/* Replaces the inputs by nodes[0..n) (Placeholders, in call order). */
mf_status mf_graph_set_inputs(mf_graph *g, int n, const int *nodes, mf_error *err);
mf_status mf_graph_set_outputs(mf_graph *g, int n, const mf_tensor_ref *outs, mf_error *err);
/* Records that user code at chunk:line made node `node` (text and name
 * cleared); mf_graph_set_source_text adds the line's code and the variable
 * (either NULL). Neither changes what the graph computes. */
mf_status mf_graph_set_source(mf_graph *g, int node, const char *chunk, int line, mf_error *err);
mf_status mf_graph_set_source_text(mf_graph *g, int node, const char *text, const char *name,
                                   mf_error *err);
/* Nodes from..to that have no source yet get chunk:line and text (or NULL),
 * one record for all of them. */
mf_status mf_graph_set_source_range(mf_graph *g, int from, int to, const char *chunk, int line,
                                    const char *text, mf_error *err);
/* "lesson.lua:3: y = x * 2" (a file's chunk by its base name, "=stdin" as
 * "stdin"; no text: "lesson.lua:3") into buf; false when n has no source. */
bool mf_node_source_where(const mf_node *n, char *buf, size_t size);

/* The node named `name`, or -1. */
int mf_graph_find(const mf_graph *g, const char *name);

/* ---- copies: how the optimisation passes (passes.h) build a new graph ----
 *
 * A pass walks the source graph in node order and decides, for each node,
 * to copy it (inputs and control edges remapped into the copy), to replace
 * it by Const nodes holding its values (constant folding), or to drop it and
 * let its outputs stand for tensors already in the copy (x*1 -> x, merged
 * subexpressions). Nodes that are never placed are dropped (pruning).
 * Placed nodes keep their names, attributes, output specs, known and
 * partial values; a control edge on a dropped node becomes an edge on the
 * node its output now stands for. finish() gives the copy the source's
 * inputs (every Placeholder in g->inputs must have been copied) and
 * outputs, in order.
 *
 *   mf_graph_copy c;
 *   MF_TRY(mf_graph_copy_begin(g, &c, err));
 *   for (int i = 0; i < g->nnodes; i++) ... mf_graph_copy_node(&c, i, err) ...
 *   return mf_graph_copy_finish(&c, &out, err);   (aborts c on failure)
 */
typedef struct mf_graph_copy {
  const mf_graph *src;  /* borrowed */
  mf_graph *dst;        /* the copy being built (owned until finish) */
  int *image;           /* per source node: its node in dst, or -1 */
  int *slot_base;       /* per source node: its first entry in `refs` */
  mf_tensor_ref *refs;  /* per source output: the dst tensor it stands for ({-1, 0}: none) */
} mf_graph_copy;

mf_status mf_graph_copy_begin(const mf_graph *src, mf_graph_copy *c, mf_error *err);
/* Copies source node `node`; the nodes it reads from must be placed. */
mf_status mf_graph_copy_node(mf_graph_copy *c, int node, mf_error *err);
/* Output `index` of source node `node` becomes a Const holding `value`
 * (borrowed): output 0 keeps the node's name, others get "<name>/folded_<k>". */
mf_status mf_graph_copy_const(mf_graph_copy *c, int node, int index, mf_tensor *value,
                              mf_error *err);
/* Output `index` of source node `node` is not copied: it stands for `to`, a
 * tensor of the copy. */
void mf_graph_copy_alias(mf_graph_copy *c, int node, int index, mf_tensor_ref to);
/* The tensor of the copy that source tensor r stands for ({-1, 0}: none yet). */
mf_tensor_ref mf_graph_copy_ref(const mf_graph_copy *c, mf_tensor_ref r);
/* Sets the copy's inputs and outputs; *out is the copy (a new reference).
 * The tables of c are freed whether it succeeds or not. */
mf_status mf_graph_copy_finish(mf_graph_copy *c, mf_graph **out, mf_error *err);
/* Drops an unfinished copy. */
void mf_graph_copy_abort(mf_graph_copy *c);

/* The partial value of tensor r (borrowed), or NULL. */
const mf_partial *mf_graph_partial(const mf_graph *g, mf_tensor_ref r);

/* The value of tensor r when its node is a Const (borrowed), else NULL. Only
 * Const nodes count: a Placeholder's known value is an example, not a
 * constant. */
mf_tensor *mf_graph_const_value(const mf_graph *g, mf_tensor_ref r);

#endif
