#include "graph.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "partial.h"

static uint64_t name_hash(const char *s) {
  uint64_t h = 1469598103934665603ull;
  while (*s) h = (h ^ (unsigned char)*s++) * 1099511628211ull;
  return h;
}

/* The name set's strings live in blocks freed with the set: a trace names
 * every node it makes, and a malloc and free per name was a good part of
 * its allocator time. */
typedef struct mf_name_block {
  struct mf_name_block *next;
  size_t used, size;
  char data[]; /* `size` bytes */
} mf_name_block;

enum { NAME_BLOCK_BYTES = 2048 };

static char *names_copy(mf_graph *g, const char *name) {
  size_t n = strlen(name) + 1;
  mf_name_block *b = g->name_blocks;
  if (!b || b->size - b->used < n) {
    size_t size = n > NAME_BLOCK_BYTES ? n : NAME_BLOCK_BYTES;
    if (!(b = mf_malloc(sizeof *b + size))) return NULL;
    b->next = g->name_blocks;
    b->used = 0;
    b->size = size;
    g->name_blocks = b;
  }
  char *copy = memcpy(b->data + b->used, name, n);
  b->used += n;
  return copy;
}

static void names_free(mf_graph *g) {
  for (mf_name_block *b = g->name_blocks, *next; b; b = next) {
    next = b->next;
    free(b);
  }
  free(g->names);
  free(g->names_next);
}

mf_status mf_graph_new(const char *name, mf_graph **out, mf_error *err) {
  mf_graph *g = mf_calloc(1, sizeof *g);
  if (!g || !(g->name = mf_strdup(name ? name : "graph")) || !(g->cache = mf_calloc(1, sizeof *g->cache))) {
    if (g) free(g->name);
    free(g);
    return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  }
  g->refcount = 1;
  g->last_stateful = -1;
  *out = g;
  return MF_OK;
}

void mf_graph_retain(mf_graph *g) { g->refcount++; }

/* Empties the executor's cache: what it planned no longer fits. */
static void cache_drop(mf_graph *g) {
  mf_graph_cache *c = g->cache;
  if (c->drop) c->drop(c->data);
  c->data = NULL;
  c->drop = NULL;
}

void mf_graph_release(mf_graph *g) {
  if (!g || --g->refcount > 0) return;
  size_t bytes = sizeof *g + (size_t)g->cap * sizeof(mf_node) + (size_t)g->names_cap * 48;
  for (int i = 0; i < g->nnodes; i++) {
    mf_node *n = &g->nodes[i];
    bytes += 64 + (size_t)n->nin * sizeof(mf_tensor_ref) + (size_t)n->nout * 64 +
             (n->attrs ? (size_t)n->attrs->n * sizeof(mf_attr) : 0);
    free(n->control);
    mf_attrs_free(n->attrs);
    for (int k = 0; k < n->nout; k++) mf_tensor_release(n->known[k]);
    for (int k = 0; n->partial && k < n->nout; k++) mf_partial_free(n->partial[k]);
    free(n->partial);
    free(n->name); /* and the arrays in its block */
  }
  bytes += mf_source_pool_bytes(g->sources);
  mf_source_pool_release(g->sources);
  cache_drop(g);
  free(g->cache);
  names_free(g);
  free(g->nodes);
  free(g->inputs);
  free(g->outputs);
  free(g->name);
  free(g->scope);
  free(g);
  mf_alloc_freed_graph(bytes);
}

/* The slot of `name` in the name set, or -1. */
static long name_slot(const mf_graph *g, const char *name) {
  if (!g->names_cap) return -1;
  size_t mask = (size_t)g->names_cap - 1;
  for (size_t i = name_hash(name) & mask;; i = (i + 1) & mask) {
    if (!g->names[i]) return -1;
    if (strcmp(g->names[i], name) == 0) return (long)i;
  }
}

static bool name_taken(const mf_graph *g, const char *name) { return name_slot(g, name) >= 0; }

static mf_status name_insert(mf_graph *g, const char *name, mf_error *err) {
  if ((g->names_used + 1) * 2 > g->names_cap) {
    int cap = g->names_cap ? g->names_cap * 2 : 16;
    char **fresh = mf_calloc((size_t)cap, sizeof *fresh);
    int *next = mf_calloc((size_t)cap, sizeof *next);
    if (!fresh || !next) {
      free(fresh);
      free(next);
      return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
    }
    for (int i = 0; i < g->names_cap; i++) {
      if (!g->names[i]) continue;
      size_t j = name_hash(g->names[i]) & (size_t)(cap - 1);
      while (fresh[j]) j = (j + 1) & (size_t)(cap - 1);
      fresh[j] = g->names[i];
      next[j] = g->names_next[i];
    }
    free(g->names);
    free(g->names_next);
    g->names = fresh;
    g->names_next = next;
    g->names_cap = cap;
  }
  size_t mask = (size_t)g->names_cap - 1;
  size_t i = name_hash(name) & mask;
  while (g->names[i]) i = (i + 1) & mask;
  if (!(g->names[i] = names_copy(g, name)))
    return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  g->names_next[i] = 0;
  g->names_used++;
  return MF_OK;
}

/* The name set of a graph mf_graph_shrink emptied, made again from its
 * nodes (only when a name is asked of it again). */
static mf_status names_rebuild(mf_graph *g, mf_error *err) {
  for (int i = 0; i < g->nnodes; i++) MF_TRY(name_insert(g, g->nodes[i].name, err));
  return MF_OK;
}

void mf_graph_shrink(mf_graph *g) {
  names_free(g);
  g->names = NULL;
  g->names_next = NULL;
  g->name_blocks = NULL;
  g->names_cap = g->names_used = 0;
  if (g->nnodes > 0 && g->nnodes < g->cap) {
    mf_node *nodes = mf_realloc(g->nodes, (size_t)g->nnodes * sizeof *nodes);
    if (nodes) { /* else it keeps its room */
      g->nodes = nodes;
      g->cap = g->nnodes;
    }
  }
}

mf_status mf_graph_unique_name(mf_graph *g, const char *base, char *buf, size_t n,
                               mf_error *err) {
  if (!g->names_cap && g->nnodes) MF_TRY(names_rebuild(g, err));
  /* base, then "base_k" for the first free k, as snprintf("%s_%d") would
   * write them (truncated to n), but by hand: a trace names many nodes
   * after one op ("mul", "mul_1", ...), and a snprintf per probe was most
   * of the time of tracing a long function. Probing starts past the k the
   * base's entry records as taken (names are never removed while the set
   * lives), so naming the k-th node after one op is not k probes. */
  size_t len = 0;
  if (n > 0) {
    len = strnlen(base, n - 1);
    memcpy(buf, base, len);
    buf[len] = '\0';
  }
  long slot = n > 0 ? name_slot(g, buf) : -1;
  if (slot < 0) return name_insert(g, buf, err);
  int k = g->names_next[slot] > 0 ? g->names_next[slot] : 1;
  for (;; k++) {
    char digits[12];
    int nd = 0;
    for (int v = k; v > 0; v /= 10) digits[nd++] = (char)('0' + v % 10);
    size_t pos = len;
    if (pos + 1 < n) buf[pos++] = '_';
    while (nd > 0 && pos + 1 < n) buf[pos++] = digits[--nd];
    buf[pos] = '\0';
    if (!name_taken(g, buf)) break;
  }
  char saved = buf[len];
  MF_TRY(name_insert(g, buf, err));
  /* The base's entry again (the insert may have grown the set). */
  buf[len] = '\0';
  slot = name_slot(g, buf);
  buf[len] = saved;
  if (slot >= 0 && k < INT_MAX) g->names_next[slot] = k + 1;
  return MF_OK;
}

mf_status mf_graph_scoped_name(mf_graph *g, const char *base, char *buf, size_t n,
                               mf_error *err) {
  if (!g->scope) return mf_graph_unique_name(g, base, buf, n, err);
  char full[512];
  snprintf(full, sizeof full, "%s%s", g->scope, base);
  return mf_graph_unique_name(g, full, buf, n, err);
}

mf_status mf_graph_set_scope(mf_graph *g, const char *prefix, mf_error *err) {
  char *copy = NULL;
  if (prefix && *prefix && !(copy = strdup(prefix)))
    return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  free(g->scope);
  g->scope = copy;
  return MF_OK;
}

/* The graph's pool, made with its first source. */
static mf_source_pool *sources_of(mf_graph *g) {
  if (!g->sources) g->sources = mf_source_pool_new();
  return g->sources;
}

mf_status mf_graph_set_source(mf_graph *g, int node, const char *chunk, int line, mf_error *err) {
  mf_source_pool *p = sources_of(g);
  const mf_node_source *s = p ? mf_source_pool_intern(p, chunk, line, NULL, NULL) : NULL;
  if (!s) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  g->nodes[node].source = s;
  return MF_OK;
}

mf_status mf_graph_set_source_text(mf_graph *g, int node, const char *text, const char *name,
                                   mf_error *err) {
  const mf_node_source *s = g->nodes[node].source;
  if (!s) return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "node %s has no source line",
                              g->nodes[node].name);
  /* A node with a source belongs to a graph with a pool. */
  const mf_node_source *t = mf_source_pool_intern(g->sources, s->chunk, s->line, text, name);
  if (!t) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  g->nodes[node].source = t;
  return MF_OK;
}

mf_status mf_graph_set_source_range(mf_graph *g, int from, int to, const char *chunk, int line,
                                    const char *text, mf_error *err) {
  mf_source_pool *p = sources_of(g);
  const mf_node_source *s = p ? mf_source_pool_intern(p, chunk, line, text, NULL) : NULL;
  if (!s) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  for (int i = from; i <= to; i++)
    if (!g->nodes[i].source) g->nodes[i].source = s;
  return MF_OK;
}

bool mf_node_source_where(const mf_node *n, char *buf, size_t size) {
  const mf_node_source *s = n->source;
  if (!s || size == 0) return false;
  const char *chunk = s->chunk;
  if (*chunk == '@') {
    const char *slash = strrchr(chunk, '/');
    chunk = slash ? slash + 1 : chunk + 1;
  } else if (*chunk == '=') {
    chunk++;
  } else {
    chunk = "[string]";
  }
  if (s->text)
    snprintf(buf, size, "%s:%d: %s", chunk, s->line, s->text);
  else
    snprintf(buf, size, "%s:%d", chunk, s->line);
  return true;
}

/* Node source s of graph src as graph dst's: a copy shares its source's
 * pool (the record itself), another graph interns it in its own. */
static mf_status source_copy(const mf_graph *src, mf_graph *dst, const mf_node_source *s,
                             const mf_node_source **out, mf_error *err) {
  *out = NULL;
  if (!s) return MF_OK;
  if (!dst->sources) {
    dst->sources = src->sources;
    mf_source_pool_retain(dst->sources);
  }
  if (dst->sources == src->sources) {
    *out = s;
    return MF_OK;
  }
  if (!(*out = mf_source_pool_intern(dst->sources, s->chunk, s->line, s->text, s->name)))
    return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  return MF_OK;
}

int mf_graph_find(const mf_graph *g, const char *name) {
  for (int i = 0; i < g->nnodes; i++)
    if (strcmp(g->nodes[i].name, name) == 0) return i;
  return -1;
}

static size_t block_align(size_t at, size_t align) { return (at + align - 1) & ~(align - 1); }

/* Appends node *id: `name` copied (already reserved), inputs, attributes
 * and output specs copied, room for `ncontrol` control edges (none yet),
 * no known values. On failure the graph is as it was. */
static mf_status append_node(mf_graph *g, const char *name, const mf_op_def *op, int nin,
                             const mf_tensor_ref *inputs, const mf_attrs *attrs, int nout,
                             const mf_spec *specs, int ncontrol, int *id, mf_error *err) {
  cache_drop(g);
  if (g->nnodes == g->cap) {
    int cap = g->cap ? g->cap * 2 : 8;
    mf_node *nodes = mf_realloc(g->nodes, (size_t)cap * sizeof *nodes);
    if (!nodes) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
    g->nodes = nodes;
    g->cap = cap;
  }
  mf_node *n = &g->nodes[g->nnodes];
  memset(n, 0, sizeof *n);
  n->op = op;
  n->nin = nin;
  n->nout = nout;
  /* One block: the name, then the attributes and the arrays, each at its
   * alignment (a trace and every optimiser pass append nodes by the
   * hundred; one malloc each instead of five). Nodes never grow these. */
  size_t name_len = strlen(name) + 1;
  size_t at_attrs = block_align(name_len, _Alignof(mf_attrs));
  size_t at_specs = block_align(at_attrs + mf_attrs_bytes(attrs ? attrs->n : 0), _Alignof(mf_spec));
  size_t at_known = block_align(at_specs + (size_t)nout * sizeof(mf_spec), _Alignof(mf_tensor *));
  size_t at_inputs = block_align(at_known + (size_t)nout * sizeof(mf_tensor *), _Alignof(mf_tensor_ref));
  char *block = mf_malloc(at_inputs + (size_t)nin * sizeof(mf_tensor_ref));
  n->control = ncontrol ? mf_malloc((size_t)ncontrol * sizeof *n->control) : NULL;
  mf_status s = MF_OK;
  if (!block || (ncontrol && !n->control))
    s = mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  if (s == MF_OK) {
    n->attrs = (mf_attrs *)(block + at_attrs);
    n->attrs->n = 0;
    if (attrs) s = mf_attrs_copy(n->attrs, attrs, err);
  }
  if (s != MF_OK) {
    free(block);
    free(n->control);
    return s;
  }
  n->name = memcpy(block, name, name_len);
  n->out_specs = nout ? (mf_spec *)(block + at_specs) : NULL;
  n->known = nout ? memset(block + at_known, 0, (size_t)nout * sizeof(mf_tensor *)) : NULL;
  n->inputs = nin ? (mf_tensor_ref *)(block + at_inputs) : NULL;
  if (nin) memcpy(n->inputs, inputs, (size_t)nin * sizeof *inputs);
  if (nout) memcpy(n->out_specs, specs, (size_t)nout * sizeof *specs);
  *id = g->nnodes++;
  return MF_OK;
}

/* Gives node n the partial values `from` (nout entries, any NULL): taken
 * when `steal` (those of outputs whose values are known are dropped: the
 * value says more), else copied. A node with none keeps no array. */
static mf_status set_partials(mf_node *n, mf_partial **from, bool steal, mf_error *err) {
  bool any = false;
  for (int k = 0; k < n->nout; k++) {
    if (steal && n->known[k]) {
      mf_partial_free(from[k]);
      from[k] = NULL;
    }
    any = any || from[k];
  }
  if (!any) return MF_OK;
  n->partial = mf_calloc((size_t)n->nout, sizeof *n->partial);
  if (!n->partial) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  for (int k = 0; k < n->nout; k++) {
    n->partial[k] = steal ? from[k] : mf_partial_clone(from[k]);
    if (steal) from[k] = NULL;
    if (from[k] && !n->partial[k])
      return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  }
  return MF_OK;
}

const mf_partial *mf_graph_partial(const mf_graph *g, mf_tensor_ref r) {
  const mf_node *n = &g->nodes[r.node];
  return n->partial ? n->partial[r.index] : NULL;
}

mf_status mf_graph_add_node(mf_graph *g, const char *unique_name, mf_op_call *c,
                            const mf_tensor_ref *inputs, int *node_out, mf_error *err) {
  int id;
  MF_TRY(append_node(g, unique_name, c->op, c->nin, inputs, c->attrs, c->nout, c->out_specs, 0,
                     &id, err));
  mf_node *n = &g->nodes[id];
  n->deferred = c->deferred;
  for (int i = 0; i < c->nout; i++) {
    n->known[i] = c->out_values[i];
    c->out_values[i] = NULL;
  }
  /* The node is in the graph: on failure it stays there, without them. */
  MF_TRY(set_partials(n, c->out_partials, true, err));
  if (c->op->flags & (MF_OP_STATEFUL | MF_OP_SIDE_EFFECTS)) {
    if (g->last_stateful >= 0) MF_TRY(mf_graph_add_control(g, id, g->last_stateful, err));
    g->last_stateful = id;
  }
  *node_out = id;
  return MF_OK;
}

mf_status mf_graph_add_control(mf_graph *g, int node, int dep, mf_error *err) {
  cache_drop(g);
  mf_node *n = &g->nodes[node];
  int *c = mf_realloc(n->control, (size_t)(n->ncontrol + 1) * sizeof *c);
  if (!c) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  c[n->ncontrol++] = dep;
  n->control = c;
  return MF_OK;
}

mf_status mf_graph_add_input(mf_graph *g, int node, mf_error *err) {
  cache_drop(g);
  if (g->ninputs == g->inputs_cap) {
    int cap = g->inputs_cap ? g->inputs_cap * 2 : 8;
    int *in = mf_realloc(g->inputs, (size_t)cap * sizeof *in);
    if (!in) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
    g->inputs = in;
    g->inputs_cap = cap;
  }
  g->inputs[g->ninputs++] = node;
  return MF_OK;
}

mf_status mf_graph_set_inputs(mf_graph *g, int n, const int *nodes, mf_error *err) {
  cache_drop(g);
  g->ninputs = 0;
  for (int i = 0; i < n; i++) MF_TRY(mf_graph_add_input(g, nodes[i], err));
  return MF_OK;
}

mf_status mf_graph_set_outputs(mf_graph *g, int n, const mf_tensor_ref *outs, mf_error *err) {
  mf_tensor_ref *o = n ? mf_malloc((size_t)n * sizeof *o) : NULL;
  if (n && !o) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  if (n) memcpy(o, outs, (size_t)n * sizeof *o);
  cache_drop(g);
  free(g->outputs);
  g->outputs = o;
  g->noutputs = n;
  return MF_OK;
}

/* ---- copies ---- */

mf_tensor *mf_graph_const_value(const mf_graph *g, mf_tensor_ref r) {
  extern const mf_op_def mf_op_Const;
  if (r.node < 0 || r.node >= g->nnodes || r.index != 0) return NULL;
  const mf_node *n = &g->nodes[r.node];
  if (n->op != &mf_op_Const) return NULL;
  const mf_attr *v = mf_attrs_find(n->attrs, "value");
  return v && v->kind == MF_ATTR_TENSOR ? v->u.tensor : NULL;
}

mf_status mf_graph_copy_begin(const mf_graph *src, mf_graph_copy *c, mf_error *err) {
  memset(c, 0, sizeof *c);
  c->src = src;
  int n = src->nnodes, nslots = 0;
  c->image = mf_malloc(((size_t)n + 1) * sizeof *c->image);
  c->slot_base = mf_malloc(((size_t)n + 1) * sizeof *c->slot_base);
  if (!c->image || !c->slot_base) goto oom;
  for (int i = 0; i < n; i++) {
    c->image[i] = -1;
    c->slot_base[i] = nslots;
    nslots += src->nodes[i].nout;
  }
  c->refs = mf_malloc(((size_t)nslots + 1) * sizeof *c->refs);
  if (!c->refs) goto oom;
  for (int i = 0; i < nslots; i++) c->refs[i] = (mf_tensor_ref){-1, 0};
  mf_status s = mf_graph_new(src->name, &c->dst, err);
  if (s != MF_OK) {
    mf_graph_copy_abort(c);
    return s;
  }
  /* Room for every node and name up front: no regrowth while copying. */
  int names_cap = 64;
  while (names_cap < 2 * (n + 1)) names_cap *= 2;
  c->dst->nodes = mf_malloc(((size_t)n + 1) * sizeof *c->dst->nodes);
  c->dst->names = mf_calloc((size_t)names_cap, sizeof *c->dst->names);
  c->dst->names_next = mf_calloc((size_t)names_cap, sizeof *c->dst->names_next);
  if (!c->dst->nodes || !c->dst->names || !c->dst->names_next) goto oom;
  c->dst->cap = n + 1;
  c->dst->names_cap = names_cap;
  return MF_OK;
oom:
  mf_graph_copy_abort(c);
  return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory while copying a graph");
}

void mf_graph_copy_abort(mf_graph_copy *c) {
  free(c->image);
  free(c->slot_base);
  free(c->refs);
  mf_graph_release(c->dst);
  memset(c, 0, sizeof *c);
}

mf_tensor_ref mf_graph_copy_ref(const mf_graph_copy *c, mf_tensor_ref r) {
  if (r.node < 0 || r.node >= c->src->nnodes || r.index < 0 || r.index >= c->src->nodes[r.node].nout)
    return (mf_tensor_ref){-1, 0};
  return c->refs[c->slot_base[r.node] + r.index];
}

void mf_graph_copy_alias(mf_graph_copy *c, int node, int index, mf_tensor_ref to) {
  c->refs[c->slot_base[node] + index] = to;
}

/* The dst node a control edge on source node `dep` becomes: its copy, or
 * the node its first output stands for; -1 when it left nothing. */
static int control_image(const mf_graph_copy *c, int dep) {
  if (c->image[dep] >= 0) return c->image[dep];
  for (int k = 0; k < c->src->nodes[dep].nout; k++) {
    mf_tensor_ref r = c->refs[c->slot_base[dep] + k];
    if (r.node >= 0) return r.node;
  }
  return -1;
}

/* Appends a node to c->dst with the source node's name (or `name`), its
 * control edges remapped, and the given op, inputs, attributes and outputs
 * (specs copied; known values retained). Returns the new node's id. */
static mf_status copy_append(mf_graph_copy *c, const mf_node *from, const char *name,
                             const mf_op_def *op, int nin, const mf_tensor_ref *inputs,
                             const mf_attrs *attrs, int nout, const mf_spec *specs,
                             mf_tensor *const *known, int *id, mf_error *err) {
  mf_graph *g = c->dst;
  MF_TRY(name_insert(g, name, err));
  MF_TRY(append_node(g, name, op, nin, inputs, attrs, nout, specs, from->ncontrol, id, err));
  mf_node *n = &g->nodes[*id];
  n->deferred = from->deferred && op == from->op;
  for (int k = 0; k < from->ncontrol; k++) {
    int dep = control_image(c, from->control[k]);
    bool dup = dep < 0;
    for (int j = 0; !dup && j < n->ncontrol; j++) dup = n->control[j] == dep;
    if (!dup) n->control[n->ncontrol++] = dep;
  }
  for (int k = 0; k < nout; k++) {
    n->known[k] = known ? known[k] : NULL;
    if (n->known[k]) mf_tensor_retain(n->known[k]);
  }
  if (c->src->last_stateful >= 0 && from == &c->src->nodes[c->src->last_stateful])
    g->last_stateful = *id;
  /* The copy of a node holds what it held (a Const made in its place has
   * its value instead). */
  if (op == from->op && nout == from->nout && from->partial)
    MF_TRY(set_partials(n, from->partial, false, err));
  return source_copy(c->src, g, from->source, &n->source, err);
}

mf_status mf_graph_copy_node(mf_graph_copy *c, int node, mf_error *err) {
  const mf_node *from = &c->src->nodes[node];
  enum { INLINE = 16 };
  mf_tensor_ref inline_refs[INLINE] = {{0, 0}};
  mf_tensor_ref *ins = from->nin <= INLINE ? inline_refs : mf_malloc((size_t)from->nin * sizeof *ins);
  if (!ins) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  mf_status s = MF_OK;
  for (int k = 0; k < from->nin && s == MF_OK; k++) {
    ins[k] = mf_graph_copy_ref(c, from->inputs[k]);
    if (ins[k].node < 0)
      s = mf_error_set(err, MF_ERR_INTERNAL, "copying graph %s: input %d of node %s is not placed",
                       c->src->name, k, from->name);
  }
  int id = -1;
  if (s == MF_OK)
    s = copy_append(c, from, from->name, from->op, from->nin, ins, from->attrs, from->nout,
                    from->out_specs, from->known, &id, err);
  if (ins != inline_refs) free(ins);
  if (s != MF_OK) return s;
  c->image[node] = id;
  for (int k = 0; k < from->nout; k++) c->refs[c->slot_base[node] + k] = (mf_tensor_ref){id, k};
  return MF_OK;
}

mf_status mf_graph_copy_const(mf_graph_copy *c, int node, int index, mf_tensor *value,
                              mf_error *err) {
  extern const mf_op_def mf_op_Const;
  const mf_node *from = &c->src->nodes[node];
  char name[512];
  snprintf(name, sizeof name, "%s", from->name);
  for (int k = 0; index > 0 && (k == 0 || name_taken(c->src, name) || name_taken(c->dst, name)); k++) {
    if (k == 0)
      snprintf(name, sizeof name, "%s/folded_%d", from->name, index);
    else
      snprintf(name, sizeof name, "%s/folded_%d_%d", from->name, index, k);
  }
  mf_attrs as;
  mf_attrs_init(&as);
  mf_spec spec;
  mf_spec_of_tensor(value, &spec);
  mf_status s = mf_attrs_set_tensor(&as, "value", value, err);
  if (s == MF_OK) s = mf_attrs_set_type(&as, "dtype", value->dtype, err);
  int id = -1;
  mf_tensor *known[1] = {value};
  if (s == MF_OK)
    s = copy_append(c, from, name, &mf_op_Const, 0, NULL, &as, 1, &spec, known, &id, err);
  mf_attrs_free(&as);
  if (s != MF_OK) return s;
  if (index == 0) c->image[node] = id;
  c->refs[c->slot_base[node] + index] = (mf_tensor_ref){id, 0};
  return MF_OK;
}

mf_status mf_graph_copy_finish(mf_graph_copy *c, mf_graph **out, mf_error *err) {
  const mf_graph *src = c->src;
  mf_graph *dst = c->dst;
  mf_status s = MF_OK;
  for (int i = 0; i < src->ninputs && s == MF_OK; i++) {
    int node = c->image[src->inputs[i]];
    s = node >= 0 ? mf_graph_add_input(dst, node, err)
                  : mf_error_set(err, MF_ERR_INTERNAL, "copying graph %s: input %d was dropped",
                                 src->name, i);
  }
  mf_tensor_ref *outs = mf_malloc(((size_t)src->noutputs + 1) * sizeof *outs);
  if (s == MF_OK && !outs) s = mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  for (int i = 0; i < src->noutputs && s == MF_OK; i++) {
    outs[i] = mf_graph_copy_ref(c, src->outputs[i]);
    if (outs[i].node < 0)
      s = mf_error_set(err, MF_ERR_INTERNAL, "copying graph %s: output %d was dropped", src->name, i);
  }
  if (s == MF_OK) s = mf_graph_set_outputs(dst, src->noutputs, outs, err);
  free(outs);
  if (s != MF_OK) {
    mf_graph_copy_abort(c);
    return s;
  }
  c->dst = NULL;
  mf_graph_copy_abort(c);
  mf_graph_shrink(dst);
  *out = dst;
  return MF_OK;
}
