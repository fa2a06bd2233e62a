/* pass_cse.c — common-subexpression elimination. Two pure nodes
 * (pass_util.h) without control inputs that apply the same op to the same
 * inputs with equal attributes compute the same values: the later one is
 * dropped and its outputs stand for the earlier one's. Attributes are
 * compared by value — Const tensors by dtype, shape and bytes (strings by
 * content), so the many "mul/y" constants a trace makes become one —
 * except nested graphs, which are equal only when they are the same graph.
 * Nodes are visited in order and inputs compared after merging, so whole
 * duplicated chains merge in one sweep. Stateful, random and side-effecting
 * nodes are never merged: two reads of a variable may see different values. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "pass_util.h"
#include "passes.h"

enum { CSE_MAX_CONST = 1 << 20 }; /* larger Const values are not compared */

static uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * 1099511628211ull; }

static uint64_t hash_bytes(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) h = mix(h, b[i]);
  return h;
}

static bool tensor_comparable(const mf_tensor *t) {
  return t->size <= CSE_MAX_CONST;
}

static bool tensors_equal(const mf_tensor *a, const mf_tensor *b) {
  if (a == b) return true;
  if (a->dtype != b->dtype || !mf_shape_equal(a->rank, a->shape, b->rank, b->shape)) return false;
  if (a->dtype == MF_STRING) {
    const mf_string *x = MF_DATA(a, mf_string), *y = MF_DATA(b, mf_string);
    for (int64_t i = 0; i < a->size; i++)
      if (x[i].len != y[i].len || (x[i].len && memcmp(x[i].ptr, y[i].ptr, x[i].len) != 0))
        return false;
    return true;
  }
  return memcmp(mf_tensor_data(a), mf_tensor_data(b), (size_t)a->size * mf_dtype_size(a->dtype)) == 0;
}

static uint64_t hash_tensor(uint64_t h, const mf_tensor *t) {
  h = mix(h, (uint64_t)t->dtype);
  h = mix(h, (uint64_t)t->rank);
  for (int i = 0; i < t->rank; i++) h = mix(h, (uint64_t)t->shape[i]);
  /* The first elements are enough to spread the table. */
  int64_t n = t->size < 16 ? t->size : 16;
  if (t->dtype == MF_STRING) {
    const mf_string *s = MF_DATA(t, mf_string);
    for (int64_t i = 0; i < n; i++) h = hash_bytes(h, s[i].ptr, s[i].len);
    return h;
  }
  return hash_bytes(h, mf_tensor_data(t), (size_t)n * mf_dtype_size(t->dtype));
}

static bool attr_equal(const mf_attr *a, const mf_attr *b) {
  if (a->kind != b->kind) return false;
  switch (a->kind) {
    case MF_ATTR_INT: return a->u.i == b->u.i;
    case MF_ATTR_FLOAT: return memcmp(&a->u.f, &b->u.f, sizeof a->u.f) == 0;
    case MF_ATTR_BOOL: return a->u.b == b->u.b;
    case MF_ATTR_TYPE: return a->u.type == b->u.type;
    case MF_ATTR_INTS:
    case MF_ATTR_SHAPE:
      if (a->u.ints.n != b->u.ints.n) return false;
      for (int i = 0; i < a->u.ints.n; i++)
        if (a->u.ints.v[i] != b->u.ints.v[i]) return false;
      return true;
    case MF_ATTR_STRING: return strcmp(a->u.s, b->u.s) == 0;
    case MF_ATTR_TENSOR: return tensors_equal(a->u.tensor, b->u.tensor);
    case MF_ATTR_GRAPH: return a->u.graph == b->u.graph;
    case MF_ATTR_CALLBACK: return false;
  }
  return false;
}

static bool attrs_equal(const mf_attrs *a, const mf_attrs *b) {
  if (a->n != b->n) return false;
  for (int i = 0; i < a->n; i++) {
    const mf_attr *other = mf_attrs_find(b, a->a[i].name);
    if (!other || !attr_equal(&a->a[i], other)) return false;
  }
  return true;
}

/* Whether node n may be merged: pure, no control inputs, its Const value
 * (if any) small enough to compare. */
static bool mergeable(const mf_node *n) {
  if (!mf_pass_node_is_pure(n) || n->ncontrol > 0 || n->nout == 0) return false;
  for (int i = 0; i < n->attrs->n; i++)
    if (n->attrs->a[i].kind == MF_ATTR_TENSOR && !tensor_comparable(n->attrs->a[i].u.tensor))
      return false;
  return true;
}

/* Hash of (op, inputs in the copy, attributes); order of attributes does
 * not matter. */
static uint64_t node_hash(const mf_node *n, const mf_tensor_ref *in) {
  uint64_t h = mix(1469598103934665603ull, (uint64_t)(uintptr_t)n->op);
  h = mix(h, (uint64_t)n->nin);
  for (int k = 0; k < n->nin; k++) h = mix(mix(h, (uint64_t)in[k].node), (uint64_t)in[k].index);
  uint64_t attrs = 0;
  for (int i = 0; i < n->attrs->n; i++) {
    const mf_attr *a = &n->attrs->a[i];
    uint64_t ha = hash_bytes(1469598103934665603ull, a->name, strlen(a->name));
    ha = mix(ha, (uint64_t)a->kind);
    switch (a->kind) {
      case MF_ATTR_INT: ha = mix(ha, (uint64_t)a->u.i); break;
      case MF_ATTR_FLOAT: ha = hash_bytes(ha, &a->u.f, sizeof a->u.f); break;
      case MF_ATTR_BOOL: ha = mix(ha, a->u.b); break;
      case MF_ATTR_TYPE: ha = mix(ha, (uint64_t)a->u.type); break;
      case MF_ATTR_INTS:
      case MF_ATTR_SHAPE:
        for (int k = 0; k < a->u.ints.n; k++) ha = mix(ha, (uint64_t)a->u.ints.v[k]);
        break;
      case MF_ATTR_STRING: ha = hash_bytes(ha, a->u.s, strlen(a->u.s)); break;
      case MF_ATTR_TENSOR: ha = hash_tensor(ha, a->u.tensor); break;
      case MF_ATTR_GRAPH: ha = mix(ha, (uint64_t)(uintptr_t)a->u.graph); break;
      case MF_ATTR_CALLBACK: break;
    }
    attrs += ha; /* order-independent */
  }
  return mix(h, attrs);
}

/* Whether dst node d (already in the copy) computes what node n with inputs
 * `in` (in the copy) would. */
static bool same_node(const mf_node *d, const mf_node *n, const mf_tensor_ref *in) {
  if (d->op != n->op || d->nin != n->nin || d->nout != n->nout || d->ncontrol > 0) return false;
  for (int k = 0; k < n->nin; k++)
    if (d->inputs[k].node != in[k].node || d->inputs[k].index != in[k].index) return false;
  return attrs_equal(d->attrs, n->attrs);
}

/* The mergeable nodes of the copy, by hash (open addressing, at most half
 * full). */
struct mf_cse_table {
  size_t cap, used;
  struct entry {
    uint64_t hash;
    int node; /* dst node + 1; 0: empty */
  } *slots;
  mf_tensor_ref *in;
  int in_cap;
};

mf_status mf_cse_table_new(mf_cse_table **out, mf_error *err) {
  mf_cse_table *t = mf_calloc(1, sizeof *t);
  if (t) t->cap = 64;
  if (t) t->slots = mf_calloc(t->cap, sizeof *t->slots);
  if (!t || !t->slots) {
    free(t);
    return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  }
  *out = t;
  return MF_OK;
}

void mf_cse_table_free(mf_cse_table *t) {
  if (!t) return;
  free(t->slots);
  free(t->in);
  free(t);
}

static mf_status table_insert(mf_cse_table *t, uint64_t hash, int node, mf_error *err) {
  if ((t->used + 1) * 2 > t->cap) {
    size_t cap = t->cap * 2;
    struct entry *slots = mf_calloc(cap, sizeof *slots);
    if (!slots) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
    for (size_t i = 0; i < t->cap; i++) {
      if (!t->slots[i].node) continue;
      size_t j = (size_t)t->slots[i].hash & (cap - 1);
      while (slots[j].node) j = (j + 1) & (cap - 1);
      slots[j] = t->slots[i];
    }
    free(t->slots);
    t->slots = slots;
    t->cap = cap;
  }
  size_t j = (size_t)hash & (t->cap - 1);
  while (t->slots[j].node) j = (j + 1) & (t->cap - 1);
  t->slots[j] = (struct entry){hash, node + 1};
  t->used++;
  return MF_OK;
}

/* The dst node equal to n with inputs `in`, or -1. */
static int table_find(const mf_cse_table *t, const mf_graph *dst, uint64_t hash, const mf_node *n,
                      const mf_tensor_ref *in) {
  for (size_t j = (size_t)hash & (t->cap - 1); t->slots[j].node; j = (j + 1) & (t->cap - 1)) {
    int d = t->slots[j].node - 1;
    if (t->slots[j].hash == hash && same_node(&dst->nodes[d], n, in)) return d;
  }
  return -1;
}

int mf_cse_table_find_const(const mf_cse_table *t, const mf_graph *dst, mf_tensor *value) {
  extern const mf_op_def mf_op_Const;
  mf_node n;
  mf_attrs as;
  memset(&n, 0, sizeof n);
  n.op = &mf_op_Const;
  n.nout = 1;
  n.attrs = &as;
  mf_attrs_init(&as);
  if (mf_attrs_set_tensor(&as, "value", value, NULL) != MF_OK ||
      mf_attrs_set_type(&as, "dtype", value->dtype, NULL) != MF_OK) {
    mf_attrs_free(&as);
    return -1;
  }
  int found = mergeable(&n) ? table_find(t, dst, node_hash(&n, NULL), &n, NULL) : -1;
  mf_attrs_free(&as);
  return found;
}

mf_status mf_cse_table_note(mf_cse_table *t, const mf_graph *dst, int node, mf_error *err) {
  const mf_node *d = &dst->nodes[node];
  if (!mergeable(d)) return MF_OK;
  uint64_t h = node_hash(d, d->inputs);
  if (table_find(t, dst, h, d, d->inputs) >= 0) return MF_OK;
  return table_insert(t, h, node, err);
}

mf_status mf_pass_cse_step(mf_cse_table *t, mf_graph_copy *c, int i, bool *merged, mf_error *err) {
  const mf_node *n = &c->src->nodes[i];
  *merged = false;
  if (!mergeable(n)) return mf_graph_copy_node(c, i, err);
  if (n->nin > t->in_cap) {
    mf_tensor_ref *grown = mf_realloc(t->in, (size_t)n->nin * sizeof *grown);
    if (!grown) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
    t->in = grown;
    t->in_cap = n->nin;
  }
  for (int k = 0; k < n->nin; k++) t->in[k] = mf_graph_copy_ref(c, n->inputs[k]);
  uint64_t h = node_hash(n, t->in);
  int found = table_find(t, c->dst, h, n, t->in);
  if (found >= 0) {
    for (int k = 0; k < n->nout; k++) mf_graph_copy_alias(c, i, k, (mf_tensor_ref){found, k});
    *merged = true;
    return MF_OK;
  }
  MF_TRY(mf_graph_copy_node(c, i, err));
  return table_insert(t, h, c->image[i], err);
}

mf_status mf_pass_cse(mf_graph *g, mf_graph **out, mf_pass_stats *st, mf_error *err) {
  mf_graph_copy c;
  mf_cse_table *t;
  MF_TRY(mf_cse_table_new(&t, err));
  mf_status s = mf_graph_copy_begin(g, &c, err);
  if (s != MF_OK) {
    mf_cse_table_free(t);
    return s;
  }
  int merged = 0;
  for (int i = 0; i < g->nnodes && s == MF_OK; i++) {
    bool m;
    s = mf_pass_cse_step(t, &c, i, &m, err);
    merged += m;
  }
  mf_cse_table_free(t);
  if (s != MF_OK) {
    mf_graph_copy_abort(&c);
    return s;
  }
  MF_TRY(mf_graph_copy_finish(&c, out, err));
  if (st) {
    st->merged += merged;
    st->nodes_after = (*out)->nnodes;
  }
  return MF_OK;
}
