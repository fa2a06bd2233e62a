#include "graph.h"

#include "executor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t name_hash(const char *s) {
  uint64_t h = 1469598103934665603ull;
  while (*s) h = (h ^ (unsigned char)*s++) * 1099511628211ull;
  return h;
}

mf_status mf_graph_new(const char *name, mf_graph **out, mf_error *err) {
  mf_graph *g = calloc(1, sizeof *g);
  if (!g || !(g->name = strdup(name ? name : "graph"))) {
    free(g);
    return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  }
  g->refcount = 1;
  g->last_stateful = -1;
  *out = g;
  return MF_OK;
}

void mf_graph_retain(mf_graph *g) { g->refcount++; }

void mf_graph_release(mf_graph *g) {
  if (!g || --g->refcount > 0) return;
  for (int i = 0; i < g->nnodes; i++) {
    mf_node *n = &g->nodes[i];
    free(n->name);
    free(n->inputs);
    free(n->control);
    mf_attrs_free(&n->attrs);
    for (int k = 0; k < n->nout; k++) mf_tensor_release(n->known[k]);
    free(n->known);
    free(n->out_specs);
  }
  mf_plan_free(g->plan);
  for (int i = 0; i < g->names_cap; i++) free(g->names[i]);
  free(g->names);
  free(g->nodes);
  free(g->inputs);
  free(g->outputs);
  free(g->name);
  free(g);
}

static bool name_taken(const mf_graph *g, const char *name) {
  if (!g->names_cap) return false;
  size_t mask = (size_t)g->names_cap - 1;
  for (size_t i = name_hash(name) & mask;; i = (i + 1) & mask) {
    if (!g->names[i]) return false;
    if (strcmp(g->names[i], name) == 0) return true;
  }
}

static mf_status name_insert(mf_graph *g, const char *name, mf_error *err) {
  if ((g->names_used + 1) * 2 > g->names_cap) {
    int cap = g->names_cap ? g->names_cap * 2 : 64;
    char **fresh = calloc((size_t)cap, sizeof *fresh);
    if (!fresh) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
    for (int i = 0; i < g->names_cap; i++) {
      if (!g->names[i]) continue;
      size_t j = name_hash(g->names[i]) & (size_t)(cap - 1);
      while (fresh[j]) j = (j + 1) & (size_t)(cap - 1);
      fresh[j] = g->names[i];
    }
    free(g->names);
    g->names = fresh;
    g->names_cap = cap;
  }
  size_t mask = (size_t)g->names_cap - 1;
  size_t i = name_hash(name) & mask;
  while (g->names[i]) i = (i + 1) & mask;
  if (!(g->names[i] = strdup(name)))
    return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  g->names_used++;
  return MF_OK;
}

mf_status mf_graph_unique_name(mf_graph *g, const char *base, char *buf, size_t n,
                               mf_error *err) {
  snprintf(buf, n, "%s", base);
  for (int k = 1; name_taken(g, buf); k++) snprintf(buf, n, "%s_%d", base, k);
  return name_insert(g, buf, err);
}

int mf_graph_find(const mf_graph *g, const char *name) {
  for (int i = 0; i < g->nnodes; i++)
    if (strcmp(g->nodes[i].name, name) == 0) return i;
  return -1;
}

mf_status mf_graph_add_node(mf_graph *g, const char *unique_name, mf_op_call *c,
                            const mf_tensor_ref *inputs, int *node_out, mf_error *err) {
  if (g->nnodes == g->cap) {
    int cap = g->cap ? g->cap * 2 : 32;
    mf_node *nodes = realloc(g->nodes, (size_t)cap * sizeof *nodes);
    if (!nodes) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
    g->nodes = nodes;
    g->cap = cap;
  }
  mf_node *n = &g->nodes[g->nnodes];
  memset(n, 0, sizeof *n);
  n->op = c->op;
  n->name = strdup(unique_name);
  n->nin = c->nin;
  n->inputs = c->nin ? malloc((size_t)c->nin * sizeof *n->inputs) : NULL;
  n->nout = c->nout;
  n->out_specs = c->nout ? malloc((size_t)c->nout * sizeof *n->out_specs) : NULL;
  n->known = c->nout ? calloc((size_t)c->nout, sizeof *n->known) : NULL;
  mf_attrs_init(&n->attrs);
  mf_status s = MF_OK;
  if (!n->name || (c->nin && !n->inputs) || (c->nout && (!n->out_specs || !n->known)))
    s = mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  if (s == MF_OK && c->attrs) s = mf_attrs_copy(&n->attrs, c->attrs, err);
  if (s != MF_OK) {
    free(n->name);
    free(n->inputs);
    free(n->out_specs);
    free(n->known);
    return s;
  }
  if (c->nin) memcpy(n->inputs, inputs, (size_t)c->nin * sizeof *inputs);
  for (int i = 0; i < c->nout; i++) {
    n->out_specs[i] = c->out_specs[i];
    n->known[i] = c->out_values[i];
    c->out_values[i] = NULL;
  }
  int id = g->nnodes++;
  if (c->op->flags & (MF_OP_STATEFUL | MF_OP_SIDE_EFFECTS)) {
    if (g->last_stateful >= 0) MF_TRY(mf_graph_add_control(g, id, g->last_stateful, err));
    g->last_stateful = id;
  }
  *node_out = id;
  return MF_OK;
}

mf_status mf_graph_add_control(mf_graph *g, int node, int dep, mf_error *err) {
  mf_node *n = &g->nodes[node];
  int *c = realloc(n->control, (size_t)(n->ncontrol + 1) * sizeof *c);
  if (!c) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  c[n->ncontrol++] = dep;
  n->control = c;
  return MF_OK;
}

mf_status mf_graph_add_input(mf_graph *g, int node, mf_error *err) {
  if (g->ninputs == g->inputs_cap) {
    int cap = g->inputs_cap ? g->inputs_cap * 2 : 8;
    int *in = realloc(g->inputs, (size_t)cap * sizeof *in);
    if (!in) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
    g->inputs = in;
    g->inputs_cap = cap;
  }
  g->inputs[g->ninputs++] = node;
  return MF_OK;
}

mf_status mf_graph_set_outputs(mf_graph *g, int n, const mf_tensor_ref *outs, mf_error *err) {
  mf_tensor_ref *o = n ? malloc((size_t)n * sizeof *o) : NULL;
  if (n && !o) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  if (n) memcpy(o, outs, (size_t)n * sizeof *o);
  free(g->outputs);
  g->outputs = o;
  g->noutputs = n;
  return MF_OK;
}
