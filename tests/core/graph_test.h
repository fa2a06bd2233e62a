/* graph_test.h — building and running small graphs with the core API, as
 * tracing does, for the tests of the graph passes and of fusion. Include
 * after check.h and op_test.h. */
#ifndef MF_GRAPH_TEST_H
#define MF_GRAPH_TEST_H

#include "executor.h"
#include "graph.h"

typedef mf_tensor_ref ref;
#define REFS(...) ((const ref[]){__VA_ARGS__})

/* Appends op `name` applied to `in`, inferred as tracing does (TF's shape
 * functions, known and partial input values passed along). Returns its
 * output 0 ({-1, 0} on failure). */
static inline ref add_op(mf_graph *g, const char *name, int nin, const ref *in, const mf_attrs *attrs) {
  const mf_op_def *op = mf_op_lookup(name);
  mf_spec specs[8];
  mf_tensor *vals[8];
  const mf_partial *partials[8];
  for (int k = 0; k < nin; k++) {
    specs[k] = g->nodes[in[k].node].out_specs[in[k].index];
    vals[k] = g->nodes[in[k].node].known[in[k].index];
    partials[k] = mf_graph_partial(g, in[k]);
  }
  mf_op_call c;
  mf_op_call_init(&c, op, nin, specs, vals, attrs);
  c.building = true;
  c.in_partial = partials;
  mf_error err;
  char unique[128];
  int id = -1;
  mf_status s = mf_op_infer(&c, &err);
  if (s == MF_OK) s = mf_graph_unique_name(g, op->name, unique, sizeof unique, &err);
  if (s == MF_OK) s = mf_graph_add_node(g, unique, &c, in, &id, &err);
  mf_op_call_free(&c);
  if (s != MF_OK) printf("#   add_op %s: %s\n", name, err.message);
  CHECK(s == MF_OK);
  return (ref){id, 0};
}

static inline ref op1(mf_graph *g, const char *name, ref a) { return add_op(g, name, 1, REFS(a), NULL); }
static inline ref op2(mf_graph *g, const char *name, ref a, ref b) {
  return add_op(g, name, 2, REFS(a, b), NULL);
}

/* A Const node holding t (stolen). */
static inline ref cnst(mf_graph *g, mf_tensor *t) {
  mf_attrs as;
  mf_attrs_init(&as);
  mf_attrs_set_tensor(&as, "value", t, NULL);
  mf_attrs_set_type(&as, "dtype", t->dtype, NULL);
  ref r = add_op(g, "Const", 0, NULL, &as);
  mf_attrs_free(&as);
  mf_tensor_release(t);
  return r;
}

/* A graph input of dtype dt and shape (rank -1: unknown); `known` (borrowed,
 * may be NULL) is the example value tracing would attach. */
static inline ref input(mf_graph *g, mf_dtype dt, int rank, const int64_t *shape, mf_tensor *known) {
  mf_attrs as;
  mf_attrs_init(&as);
  mf_attrs_set_type(&as, "dtype", dt, NULL);
  mf_attrs_set_shape(&as, "shape", rank, shape, NULL);
  const mf_op_def *op = mf_op_lookup("Placeholder");
  mf_op_call c;
  mf_op_call_init(&c, op, 0, NULL, NULL, &as);
  mf_op_infer(&c, NULL);
  if (known) {
    mf_tensor_retain(known);
    c.out_values[0] = known;
  }
  char unique[64];
  int id = -1;
  mf_graph_unique_name(g, "x", unique, sizeof unique, NULL);
  CHECK(mf_graph_add_node(g, unique, &c, NULL, &id, NULL) == MF_OK);
  mf_graph_add_input(g, id, NULL);
  mf_op_call_free(&c);
  mf_attrs_free(&as);
  return (ref){id, 0};
}

/* Sets the outputs, each through an Identity as traces end. */
static inline void outputs(mf_graph *g, int n, const ref *outs) {
  ref ids[16];
  for (int i = 0; i < n; i++) ids[i] = op1(g, "Identity", outs[i]);
  mf_graph_set_outputs(g, n, ids, NULL);
}

static inline mf_graph *new_graph(void) {
  mf_graph *g = NULL;
  CHECK_OK(mf_graph_new("g", &g, NULL));
  return g;
}

/* Runs g on feeds; fills outs (new references, NULL on failure). */
static inline mf_status run(mf_graph *g, int nfeeds, mf_tensor *const *feeds, mf_tensor **outs,
                     mf_error *err) {
  for (int i = 0; i < g->noutputs; i++) outs[i] = NULL;
  return mf_graph_run(g, nfeeds, feeds, outs, err);
}

static inline int count_op(const mf_graph *g, const char *name) {
  int n = 0;
  for (int i = 0; i < g->nnodes; i++) n += strcmp(g->nodes[i].op->name, name) == 0;
  return n;
}

#endif
