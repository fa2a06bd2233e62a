/* pass_fuse.c — fusion of elementwise chains (passes.h).
 *
 * A group is a set of elementwise nodes with one result: its root, whose
 * output may be read anywhere; every other member's output is read only by
 * members and is not a graph output. The group becomes one FusedElementwise
 * node (ops_fused.c) that computes the root's value block by block, with no
 * full-size intermediates.
 *
 * Members: pure nodes (pass_util.h) flagged MF_OP_ELEMENTWISE with one
 * output, no control edges in or out, whose op has a block function for
 * its dtypes (mf_elementwise_fusable: no strings, no integer division,
 * which keeps its error), and whose output spec equals the root's (same
 * rank and dimensions; dtypes may differ: Cast and comparisons change it
 * inside a group). Every input of a member is either of that spec or a
 * scalar broadcast (one element of known rank no larger than the root's),
 * so the kernel reads each input whole or as one element.
 *
 * Groups are found in one sweep from the last node to the first: a node
 * joins the group of its readers when they all belong to one group (which
 * makes every member an ancestor of the root, so the fused node can stand
 * at the root's place without breaking the graph's order); otherwise it
 * starts a group of its own. Identity members cost nothing (the body reads
 * through them) and a group needs two other members to be worth a node.
 * Scalar and full-size Consts a group reads are copied into its body; the
 * outer Const stays only if something else reads it.
 *
 * The body: Placeholders for the group's external inputs (the fused node's
 * inputs, in order of first use), the absorbed Consts, the members in graph
 * order, one output. The fused node takes the root's name. Bodies are named
 * "<root>/fused_body"; the pass leaves such graphs alone, so optimising a
 * graph's nested graphs does not fuse a body again. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "elementwise.h"
#include "pass_util.h"
#include "passes.h"

extern const mf_op_def mf_op_Const, mf_op_Placeholder, mf_op_Identity, mf_op_FusedElementwise;

#define BODY_SUFFIX "/fused_body"

enum { MAX_STEP_INPUTS = 3 }; /* SelectV2 */

static bool same_shape(const mf_spec *a, const mf_spec *b) {
  if (a->rank != b->rank || a->rank < 0) return false;
  for (int i = 0; i < a->rank; i++)
    if (a->shape[i] != b->shape[i]) return false;
  return true;
}

/* One element, of a rank that broadcasting against `s` cannot enlarge. */
static bool broadcast_scalar(const mf_spec *in, const mf_spec *s) {
  if (in->rank < 0 || in->rank > s->rank) return false;
  for (int i = 0; i < in->rank; i++)
    if (in->shape[i] != 1) return false;
  return true;
}

static const mf_spec *spec_at(const mf_graph *g, mf_tensor_ref r) {
  return &g->nodes[r.node].out_specs[r.index];
}

/* Whether every input of node i can be read whole or as one element when
 * the group's values have spec s. */
static bool inputs_fit(const mf_graph *g, int i, const mf_spec *s) {
  const mf_node *nd = &g->nodes[i];
  for (int k = 0; k < nd->nin; k++) {
    const mf_spec *in = spec_at(g, nd->inputs[k]);
    if (in->dtype == MF_STRING || in->dtype == MF_RESOURCE || in->dtype == MF_VARIANT) return false;
    if (!same_shape(in, s) && !broadcast_scalar(in, s)) return false;
  }
  return true;
}

static bool is_const(const mf_graph *g, int i) {
  const mf_node *nd = &g->nodes[i];
  return nd->op == &mf_op_Const && nd->nout == 1 && nd->ncontrol == 0 &&
         mf_graph_const_value(g, (mf_tensor_ref){i, 0}) != NULL;
}

typedef struct fuse_info {
  const mf_graph *g;
  int n;
  int *first, *readers;   /* readers of node i's outputs: readers[first[i] .. first[i+1]) */
  bool *is_output;        /* a graph output: may only be a group's root */
  bool *control_dep;      /* another node's control dependency: never fused */
  bool *candidate;
  int *group;             /* group id (its root's node id), or -1 */
  int *ops;               /* per root: members other than Identity */
  bool *absorbed;         /* Consts every reader of which is fused */
  int *mfirst, *members;  /* per root: its members in node order, members[mfirst[r] .. mfirst[r+1]) */
} fuse_info;

static void info_free(fuse_info *f) {
  free(f->first);
  free(f->readers);
  free(f->is_output);
  free(f->control_dep);
  free(f->candidate);
  free(f->group);
  free(f->ops);
  free(f->absorbed);
  free(f->mfirst);
  free(f->members);
}

/* The dtype a node's block function runs on: its data inputs'. */
static mf_dtype data_dtype(const mf_graph *g, const mf_node *nd) {
  if (nd->nin == 0) return MF_DTYPE_COUNT;
  return spec_at(g, nd->inputs[nd->op->min_inputs == 3 && nd->nin == 3 ? 1 : 0])->dtype;
}

static mf_status find_groups(fuse_info *f, mf_error *err) {
  const mf_graph *g = f->g;
  int n = f->n, nedges = 0;
  f->first = mf_calloc((size_t)n + 2, sizeof *f->first);
  f->is_output = mf_calloc((size_t)n + 1, sizeof *f->is_output);
  f->control_dep = mf_calloc((size_t)n + 1, sizeof *f->control_dep);
  f->candidate = mf_calloc((size_t)n + 1, sizeof *f->candidate);
  f->group = mf_malloc(((size_t)n + 1) * sizeof *f->group);
  f->ops = mf_calloc((size_t)n + 1, sizeof *f->ops);
  f->absorbed = mf_calloc((size_t)n + 1, sizeof *f->absorbed);
  if (!f->first || !f->is_output || !f->control_dep || !f->candidate || !f->group || !f->ops ||
      !f->absorbed)
    return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory while fusing");
  for (int i = 0; i < n; i++) {
    const mf_node *nd = &g->nodes[i];
    for (int k = 0; k < nd->nin; k++) f->first[nd->inputs[k].node + 1]++;
    nedges += nd->nin;
    for (int k = 0; k < nd->ncontrol; k++) f->control_dep[nd->control[k]] = true;
  }
  for (int i = 0; i < g->noutputs; i++) f->is_output[g->outputs[i].node] = true;
  for (int i = 0; i < n; i++) f->first[i + 1] += f->first[i];
  f->readers = mf_malloc(((size_t)nedges + 1) * sizeof *f->readers);
  int *fill = mf_calloc((size_t)n + 1, sizeof *fill);
  if (!f->readers || !fill) {
    free(fill);
    return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory while fusing");
  }
  for (int i = 0; i < n; i++) {
    const mf_node *nd = &g->nodes[i];
    for (int k = 0; k < nd->nin; k++) {
      int src = nd->inputs[k].node;
      f->readers[f->first[src] + fill[src]++] = i;
    }
  }
  free(fill);

  for (int i = 0; i < n; i++) {
    const mf_node *nd = &g->nodes[i];
    f->group[i] = -1;
    f->candidate[i] = (nd->op->flags & MF_OP_ELEMENTWISE) && mf_pass_node_is_pure(nd) &&
                      !mf_pass_node_has_graphs(nd) && nd->nout == 1 && nd->nin >= 1 &&
                      nd->ncontrol == 0 && nd->out_specs[0].rank >= 0 &&
                      mf_elementwise_fusable(nd->op, data_dtype(g, nd), nd->attrs);
  }
  /* From the last node to the first: join the readers' group, or start
   * one. */
  for (int i = n - 1; i >= 0; i--) {
    if (!f->candidate[i] || f->control_dep[i]) continue;
    const mf_spec *own = &g->nodes[i].out_specs[0];
    int join = -1;
    bool joinable = !f->is_output[i] && f->first[i + 1] > f->first[i];
    for (int r = f->first[i]; r < f->first[i + 1] && joinable; r++) {
      int gid = f->group[f->readers[r]];
      if (gid < 0 || (join >= 0 && gid != join)) joinable = false;
      join = gid;
    }
    const mf_spec *root = joinable ? &g->nodes[join].out_specs[0] : NULL;
    if (joinable && same_shape(own, root) && inputs_fit(g, i, root))
      f->group[i] = join;
    else if (inputs_fit(g, i, own))
      f->group[i] = i;
    if (f->group[i] >= 0 && g->nodes[i].op != &mf_op_Identity) f->ops[f->group[i]]++;
  }
  /* Groups of fewer than two ops are left as they are. */
  for (int i = 0; i < n; i++)
    if (f->group[i] >= 0 && f->ops[f->group[i]] < 2) f->group[i] = -1;
  /* Consts read only by fused nodes go into the bodies alone. */
  for (int i = 0; i < n; i++) {
    if (!is_const(g, i) || f->is_output[i] || f->control_dep[i] || f->first[i + 1] == f->first[i])
      continue;
    bool all = true;
    for (int r = f->first[i]; r < f->first[i + 1] && all; r++) all = f->group[f->readers[r]] >= 0;
    f->absorbed[i] = all;
  }
  /* Member lists per root, in node order. */
  f->mfirst = mf_calloc((size_t)n + 2, sizeof *f->mfirst);
  f->members = mf_malloc(((size_t)n + 1) * sizeof *f->members);
  if (!f->mfirst || !f->members) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  for (int i = 0; i < n; i++)
    if (f->group[i] >= 0) f->mfirst[f->group[i] + 1]++;
  for (int i = 0; i < n; i++) f->mfirst[i + 1] += f->mfirst[i];
  int *at = mf_calloc((size_t)n + 1, sizeof *at);
  if (!at) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  for (int i = 0; i < n; i++)
    if (f->group[i] >= 0) f->members[f->mfirst[f->group[i]] + at[f->group[i]]++] = i;
  free(at);
  return MF_OK;
}

/* ---- building one body ---- */

typedef struct body_builder {
  const mf_graph *g;
  mf_graph *body;
  int *image;              /* per source node: its body node, or -1 (scratch over the group) */
  mf_tensor_ref *ext;      /* external inputs of the group, in order */
  int next;
} body_builder;

/* Appends a node to the body: op, inputs (body refs), attrs, one output of
 * spec `spec` (known value `known`, borrowed, or NULL). */
static mf_status body_add(mf_graph *body, const char *name, const mf_op_def *op, int nin,
                          const mf_tensor_ref *inputs, const mf_attrs *attrs, const mf_spec *spec,
                          mf_tensor *known, int *id, mf_error *err) {
  enum { MAX_IN = 8 };
  mf_spec in_specs[MAX_IN];
  mf_tensor *vals[MAX_IN] = {0};
  if (nin > MAX_IN) return mf_error_set(err, MF_ERR_INTERNAL, "fusion: %s has %d inputs", name, nin);
  for (int k = 0; k < nin; k++) in_specs[k] = body->nodes[inputs[k].node].out_specs[inputs[k].index];
  mf_op_call c;
  mf_op_call_init(&c, op, nin, in_specs, vals, attrs);
  char unique[512];
  mf_status s = mf_op_call_set_nout(&c, 1, err);
  if (s == MF_OK) {
    c.out_specs[0] = *spec;
    if (known) {
      mf_tensor_retain(known);
      c.out_values[0] = known;
    }
    s = mf_graph_unique_name(body, name, unique, sizeof unique, err);
  }
  if (s == MF_OK) s = mf_graph_add_node(body, unique, &c, inputs, id, err);
  mf_op_call_free(&c);
  return s;
}

/* The body ref for source tensor r read by a member: the member or
 * absorbed Const's image, the input of an Identity member, or a
 * Placeholder for an external tensor (made on first use). */
static mf_status body_ref(const fuse_info *f, body_builder *b, mf_tensor_ref r,
                          mf_tensor_ref *out, mf_error *err) {
  const mf_graph *g = f->g;
  if (b->image[r.node] >= 0 && r.index == 0) {
    *out = (mf_tensor_ref){b->image[r.node], 0};
    return MF_OK;
  }
  const mf_node *src = &g->nodes[r.node];
  if (is_const(g, r.node)) {
    mf_tensor *v = mf_graph_const_value(g, r);
    int id;
    MF_TRY(body_add(b->body, src->name, &mf_op_Const, 0, NULL, src->attrs, &src->out_specs[0], v,
                    &id, err));
    b->image[r.node] = id;
    *out = (mf_tensor_ref){id, 0};
    return MF_OK;
  }
  /* An external tensor: one Placeholder per distinct tensor. */
  for (int k = 0; k < b->body->ninputs; k++)
    if (b->ext[k].node == r.node && b->ext[k].index == r.index) {
      *out = (mf_tensor_ref){b->body->inputs[k], 0};
      return MF_OK;
    }
  char name[512];
  if (r.index == 0)
    snprintf(name, sizeof name, "%s", src->name);
  else
    snprintf(name, sizeof name, "%s_%d", src->name, r.index);
  const mf_spec *spec = &src->out_specs[r.index];
  mf_attrs as;
  mf_attrs_init(&as);
  mf_status s = mf_attrs_set_type(&as, "dtype", spec->dtype, err);
  if (s == MF_OK) s = mf_attrs_set_shape(&as, "shape", spec->rank, spec->shape, err);
  int id = -1;
  if (s == MF_OK) s = body_add(b->body, name, &mf_op_Placeholder, 0, NULL, &as, spec, NULL, &id, err);
  if (s == MF_OK) s = mf_graph_add_input(b->body, id, err);
  mf_attrs_free(&as);
  MF_TRY(s);
  b->ext[b->body->ninputs - 1] = r;
  *out = (mf_tensor_ref){id, 0};
  return MF_OK;
}

/* Builds the body of the group rooted at `root`. Placeholders come first:
 * the members' external inputs are gathered in a first walk. */
static mf_status build_body(const fuse_info *f, body_builder *b, int root, mf_error *err) {
  const mf_graph *g = f->g;
  char name[512];
  snprintf(name, sizeof name, "%s" BODY_SUFFIX, g->nodes[root].name);
  MF_TRY(mf_graph_new(name, &b->body, err));
  mf_tensor_ref tmp;
  /* pass 1: Placeholders, in order of first use */
  for (int m = f->mfirst[root]; m < f->mfirst[root + 1]; m++) {
    const mf_node *nd = &g->nodes[f->members[m]];
    for (int k = 0; k < nd->nin; k++) {
      mf_tensor_ref r = nd->inputs[k];
      if (f->group[r.node] == root || is_const(g, r.node)) continue;
      MF_TRY(body_ref(f, b, r, &tmp, err));
    }
  }
  /* pass 2: Consts and members */
  mf_tensor_ref ins[MAX_STEP_INPUTS];
  for (int m = f->mfirst[root]; m < f->mfirst[root + 1]; m++) {
    int i = f->members[m];
    const mf_node *nd = &g->nodes[i];
    if (nd->nin > MAX_STEP_INPUTS)
      return mf_error_set(err, MF_ERR_INTERNAL, "fusion: %s has %d inputs", nd->name, nd->nin);
    for (int k = 0; k < nd->nin; k++) MF_TRY(body_ref(f, b, nd->inputs[k], &ins[k], err));
    if (nd->op == &mf_op_Identity) {
      /* read through */
      b->image[i] = ins[0].node;
      continue;
    }
    int id;
    MF_TRY(body_add(b->body, nd->name, nd->op, nd->nin, ins, nd->attrs, &nd->out_specs[0], NULL,
                    &id, err));
    b->image[i] = id;
  }
  mf_tensor_ref out = {b->image[root], 0};
  return mf_graph_set_outputs(b->body, 1, &out, err);
}

/* Resets the builder's per-node scratch for the next group. */
static void builder_reset(const fuse_info *f, body_builder *b, int root) {
  for (int m = f->mfirst[root]; m < f->mfirst[root + 1]; m++) {
    const mf_node *nd = &f->g->nodes[f->members[m]];
    b->image[f->members[m]] = -1;
    for (int k = 0; k < nd->nin; k++) b->image[nd->inputs[k].node] = -1;
  }
  mf_graph_release(b->body);
  b->body = NULL;
}

static mf_status add_fused(const fuse_info *f, body_builder *b, mf_graph_copy *c, int root,
                           mf_error *err) {
  const mf_graph *g = f->g;
  MF_TRY(build_body(f, b, root, err));
  int nin = b->body->ninputs;
  mf_tensor_ref *ins = mf_malloc(((size_t)nin + 1) * sizeof *ins);
  mf_spec *specs = mf_malloc(((size_t)nin + 1) * sizeof *specs);
  mf_tensor **vals = mf_calloc((size_t)nin + 1, sizeof *vals);
  mf_status s = MF_OK;
  if (!ins || !specs || !vals) s = mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  for (int k = 0; k < nin && s == MF_OK; k++) {
    ins[k] = mf_graph_copy_ref(c, b->ext[k]);
    specs[k] = *spec_at(g, b->ext[k]);
    if (ins[k].node < 0)
      s = mf_error_set(err, MF_ERR_INTERNAL, "fusion: input %d of %s is not placed", k,
                       g->nodes[root].name);
  }
  mf_attrs as;
  mf_attrs_init(&as);
  if (s == MF_OK) s = mf_attrs_set_graph(&as, "body", b->body, err);
  mf_op_call call;
  mf_op_call_init(&call, &mf_op_FusedElementwise, nin, specs, vals, &as);
  char unique[512];
  int id = -1;
  if (s == MF_OK) s = mf_op_infer(&call, err);
  if (s == MF_OK) s = mf_graph_unique_name(c->dst, g->nodes[root].name, unique, sizeof unique, err);
  if (s == MF_OK) s = mf_graph_add_node(c->dst, unique, &call, ins, &id, err);
  mf_op_call_free(&call);
  mf_attrs_free(&as);
  free(ins);
  free(specs);
  free(vals);
  MF_TRY(s);
  c->image[root] = id;
  mf_graph_copy_alias(c, root, 0, (mf_tensor_ref){id, 0});
  return MF_OK;
}

static bool is_body(const mf_graph *g) {
  size_t n = strlen(g->name), k = strlen(BODY_SUFFIX);
  return n >= k && strcmp(g->name + n - k, BODY_SUFFIX) == 0;
}

mf_status mf_pass_fuse_elementwise(mf_graph *g, mf_graph **out, mf_pass_stats *st, mf_error *err) {
  fuse_info f = {.g = g, .n = g->nnodes};
  body_builder b = {.g = g};
  mf_graph_copy c;
  mf_status s = MF_OK;
  int fused = 0;
  if (!is_body(g)) s = find_groups(&f, err);
  if (s == MF_OK && !is_body(g)) {
    b.image = mf_malloc(((size_t)g->nnodes + 1) * sizeof *b.image);
    b.ext = mf_malloc(((size_t)g->nnodes * MAX_STEP_INPUTS + 1) * sizeof *b.ext);
    if (!b.image || !b.ext) s = mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
    for (int i = 0; i < g->nnodes && b.image; i++) b.image[i] = -1;
  }
  if (s == MF_OK) s = mf_graph_copy_begin(g, &c, err);
  if (s != MF_OK) {
    info_free(&f);
    free(b.image);
    free(b.ext);
    return s;
  }
  for (int i = 0; i < g->nnodes && s == MF_OK; i++) {
    if (f.group && f.group[i] >= 0) {
      fused++;
      if (f.group[i] != i) continue; /* a member: its root computes it */
      s = add_fused(&f, &b, &c, i, err);
      builder_reset(&f, &b, i);
      continue;
    }
    if (f.absorbed && f.absorbed[i]) continue;
    s = mf_graph_copy_node(&c, i, err);
  }
  if (b.body) mf_graph_release(b.body);
  info_free(&f);
  free(b.image);
  free(b.ext);
  if (s != MF_OK) {
    mf_graph_copy_abort(&c);
    return s;
  }
  MF_TRY(mf_graph_copy_finish(&c, out, err));
  if (st) {
    st->fused += fused;
    st->nodes_after = (*out)->nnodes;
  }
  return MF_OK;
}
