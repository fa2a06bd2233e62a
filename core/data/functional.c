/* functional.c — the datasets that run a function per element: TF's
 * MapDataset and FilterDataset. The function is a graph (traced by the
 * host once per element spec, as TF traces it) run through the executor
 * like every function body; it takes the element's components, then the
 * values it captured (TF's other_arguments). The function with its
 * captures and lock (mf_data_fn) is what nested.c's flat_map and
 * interleave run too. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "dataset.h"
#include "executor.h"

extern const mf_op_def mf_op_FusedElementwise;

typedef struct fn_ds {
  mf_dataset base;
  mf_data_fn fn;
} fn_ds;

/* One run of a function graph at a time: its plan is one per graph, and a
 * prefetch's producer and the host's thread may run it at once (through
 * one dataset, or two made from one graph: a traced MapDataset node makes
 * a dataset per run). A lock per graph, shared by the datasets that run
 * it, so runs of different graphs never wait on each other. */
typedef struct graph_lock {
  const mf_graph *g;
  long users;
  pthread_mutex_t m;
  struct graph_lock *next;
} graph_lock;

static pthread_mutex_t registry = PTHREAD_MUTEX_INITIALIZER;
static graph_lock *locks; /* the graphs of live map/filter datasets: few */

static graph_lock *graph_lock_take(const mf_graph *g) {
  pthread_mutex_lock(&registry);
  graph_lock *l = locks;
  while (l && l->g != g) l = l->next;
  if (!l && (l = mf_calloc(1, sizeof *l)) != NULL) {
    l->g = g;
    pthread_mutex_init(&l->m, NULL);
    l->next = locks;
    locks = l;
  }
  if (l) l->users++;
  pthread_mutex_unlock(&registry);
  return l;
}

static void graph_lock_drop(graph_lock *l) {
  if (!l) return;
  pthread_mutex_lock(&registry);
  if (--l->users == 0) {
    graph_lock **p = &locks;
    while (*p != l) p = &(*p)->next;
    *p = l->next;
    pthread_mutex_destroy(&l->m);
    free(l);
  }
  pthread_mutex_unlock(&registry);
}

typedef struct fn_it {
  mf_iterator base;
  mf_iterator *in;
} fn_it;

void mf_data_fn_drop(mf_data_fn *fn) {
  if (fn->captured) mf_release_all(fn->ncap, fn->captured);
  free(fn->captured);
  graph_lock_drop(fn->lock);
  if (fn->f) mf_graph_release(fn->f);
  memset(fn, 0, sizeof *fn);
}

mf_status mf_dataset_init_fn(mf_dataset **ds, mf_data_fn *fn, const mf_graph *f, int ncap,
                             mf_tensor *const *captured, mf_error *err) {
  mf_status s = mf_data_fn_init(fn, f, ncap, captured, err);
  if (s != MF_OK) {
    mf_dataset_release(*ds);
    *ds = NULL;
    return s;
  }
  (*ds)->threadable = (*ds)->threadable && mf_data_fn_threadable(fn);
  return MF_OK;
}

static void fn_drop(mf_dataset *ds) { mf_data_fn_drop(&((fn_ds *)ds)->fn); }

static void fn_it_drop(mf_iterator *it) { mf_iterator_free(((fn_it *)it)->in); }

mf_status mf_data_fn_run(const mf_data_fn *d, int ncomp, mf_tensor **elem, mf_tensor **out,
                        mf_error *err) {
  mf_tensor *args[MF_DATA_MAX_COMPONENTS + 64];
  mf_tensor **feeds = args;
  int nargs = ncomp + d->ncap;
  if (nargs > (int)(sizeof args / sizeof *args)) {
    feeds = mf_malloc((size_t)nargs * sizeof *feeds);
    if (!feeds) {
      mf_release_all(ncomp, elem);
      return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
    }
  }
  memcpy(feeds, elem, (size_t)ncomp * sizeof *feeds);
  if (d->ncap) memcpy(feeds + ncomp, d->captured, (size_t)d->ncap * sizeof *feeds);
  pthread_mutex_lock(&d->lock->m);
  mf_status s = mf_graph_run(d->f, nargs, feeds, out, err);
  pthread_mutex_unlock(&d->lock->m);
  mf_release_all(ncomp, elem);
  if (feeds != args) free(feeds);
  return s;
}

static mf_status map_next(mf_iterator *it, mf_tensor **out, bool *end, mf_error *err) {
  fn_it *c = (fn_it *)it;
  const fn_ds *d = (const fn_ds *)it->ds;
  mf_tensor *elem[MF_DATA_MAX_COMPONENTS];
  MF_TRY(mf_iterator_next(c->in, elem, end, err));
  if (*end) return MF_OK;
  return mf_data_fn_run(&d->fn, it->ds->inputs[0]->ncomp, elem, out, err);
}

static mf_status filter_next(mf_iterator *it, mf_tensor **out, bool *end, mf_error *err) {
  fn_it *c = (fn_it *)it;
  const fn_ds *d = (const fn_ds *)it->ds;
  int ncomp = it->ds->ncomp;
  for (;;) {
    MF_TRY(mf_iterator_next(c->in, out, end, err));
    if (*end) return MF_OK;
    mf_tensor *keep, *elem[MF_DATA_MAX_COMPONENTS];
    for (int k = 0; k < ncomp; k++) {
      mf_tensor_retain(out[k]);
      elem[k] = out[k];
    }
    mf_status s = mf_data_fn_run(&d->fn, ncomp, elem, &keep, err);
    if (s == MF_OK && (keep->dtype != MF_BOOL || keep->size != 1 || keep->rank != 0)) {
      s = mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Filter predicate `f` must return a scalar bool.");
      mf_tensor_release(keep);
    }
    if (s != MF_OK) {
      mf_release_all(ncomp, out);
      return s;
    }
    bool yes = MF_DATA(keep, bool)[0];
    mf_tensor_release(keep);
    if (yes) return MF_OK;
    mf_release_all(ncomp, out);
  }
}

static const mf_iterator_class map_it_class = {map_next, fn_it_drop};
static const mf_iterator_class filter_it_class = {filter_next, fn_it_drop};

static mf_status fn_iterator(const mf_iterator_class *cls, mf_dataset *ds, mf_iterator **out,
                             mf_error *err) {
  MF_TRY(mf_iterator_alloc(cls, sizeof(fn_it), ds, out, err));
  mf_status s = mf_dataset_make_iterator(ds->inputs[0], &((fn_it *)*out)->in, err);
  if (s != MF_OK) {
    mf_iterator_free(*out);
    *out = NULL;
  }
  return s;
}

static mf_status map_iterator(mf_dataset *ds, mf_iterator **out, mf_error *err) {
  return fn_iterator(&map_it_class, ds, out, err);
}
static mf_status filter_iterator(mf_dataset *ds, mf_iterator **out, mf_error *err) {
  return fn_iterator(&filter_it_class, ds, out, err);
}

static int64_t map_cardinality(const mf_dataset *ds) { return mf_dataset_cardinality(ds->inputs[0]); }
/* TF's FilterDataset never knows how many pass. */
static int64_t filter_cardinality(const mf_dataset *ds) {
  (void)ds;
  return MF_CARDINALITY_UNKNOWN;
}

static const mf_dataset_class map_class = {MF_DATASET_VARIANT("MapDatasetOp::Dataset"),
                                           map_iterator, map_cardinality, fn_drop};
static const mf_dataset_class filter_class = {MF_DATASET_VARIANT("FilterDatasetOp::Dataset"),
                                              filter_iterator, filter_cardinality, fn_drop};

mf_status mf_data_check_fn(const char *op, const mf_dataset *in, const mf_graph *f, int ncap,
                          mf_error *err) {
  if (f->ninputs != in->ncomp + ncap)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "%s: the function takes %d inputs, the element has %d components and %d "
                        "captured values",
                        op, f->ninputs, in->ncomp, ncap);
  for (int k = 0; k < in->ncomp; k++) {
    const mf_spec *want = &f->nodes[f->inputs[k]].out_specs[0];
    if (want->dtype != in->spec[k].dtype)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "%s: input #%d(zero-based) was expected to be a %s tensor but is a %s tensor",
                          op, k, mf_dtype_name(want->dtype), mf_dtype_name(in->spec[k].dtype));
  }
  return MF_OK;
}

mf_status mf_data_fn_init(mf_data_fn *fn, const mf_graph *f, int ncap, mf_tensor *const *captured,
                          mf_error *err) {
  memset(fn, 0, sizeof *fn);
  fn->captured = mf_calloc((size_t)ncap + 1, sizeof *fn->captured);
  fn->lock = fn->captured ? graph_lock_take(f) : NULL;
  if (!fn->lock) {
    free(fn->captured);
    fn->captured = NULL;
    return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  }
  fn->f = (mf_graph *)f;
  mf_graph_retain(fn->f);
  fn->ncap = ncap;
  for (int i = 0; i < ncap; i++) {
    mf_tensor_retain(captured[i]);
    fn->captured[i] = captured[i];
  }
  return MF_OK;
}

/* A captured dataset (a flat_map function returning one made outside)
 * runs where the function's output runs. */
bool mf_data_fn_threadable(const mf_data_fn *fn) {
  if (!mf_data_graph_threadable(fn->f)) return false;
  for (int i = 0; i < fn->ncap; i++) {
    const mf_dataset *ds = mf_dataset_of(fn->captured[i]);
    if (ds && !ds->threadable) return false;
  }
  return true;
}

static mf_status fn_new(const mf_dataset_class *cls, mf_dataset *in, const mf_graph *f, int ncap,
                        mf_tensor *const *captured, int ncomp, const mf_spec *spec,
                        mf_dataset **out, mf_error *err) {
  MF_TRY(mf_dataset_alloc(cls, sizeof(fn_ds), ncomp, spec, out, err));
  fn_ds *d = (fn_ds *)*out;
  mf_dataset_add_input(*out, in);
  return mf_dataset_init_fn(out, &d->fn, f, ncap, captured, err);
}

/* A nested graph is a function other graphs may call too, its plan shared
 * with them, so a graph with one stays on the host's thread; except a
 * FusedElementwise's body (the optimiser's, as TF's Grappler optimises
 * dataset functions): the node's own, run under its graph's lock. */
bool mf_data_graph_threadable(const mf_graph *g) {
  const unsigned moving = MF_OP_STATEFUL | MF_OP_SIDE_EFFECTS | MF_OP_RANDOM | MF_OP_CHANGES_ON_REPLAY;
  for (int i = 0; i < g->nnodes; i++) {
    const mf_node *nd = &g->nodes[i];
    if (nd->op->flags & moving) return false;
    for (int k = 0; nd->attrs && k < nd->attrs->n; k++) {
      const mf_attr *a = &nd->attrs->a[k];
      if (a->kind == MF_ATTR_CALLBACK) return false;
      if (a->kind == MF_ATTR_GRAPH &&
          !(nd->op == &mf_op_FusedElementwise && mf_data_graph_threadable(a->u.graph)))
        return false;
    }
  }
  return true;
}

mf_status mf_dataset_map(mf_dataset *in, const mf_graph *f, int ncap, mf_tensor *const *captured,
                         mf_dataset **out, mf_error *err) {
  MF_TRY(mf_data_check_fn("MapDataset", in, f, ncap, err));
  if (f->noutputs < 1 || f->noutputs > MF_DATA_MAX_COMPONENTS)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "MapDataset: the function must return 1 to %d tensors, it returns %d",
                        MF_DATA_MAX_COMPONENTS, f->noutputs);
  mf_spec spec[MF_DATA_MAX_COMPONENTS];
  for (int i = 0; i < f->noutputs; i++) {
    mf_tensor_ref r = f->outputs[i];
    spec[i] = f->nodes[r.node].out_specs[r.index];
  }
  return fn_new(&map_class, in, f, ncap, captured, f->noutputs, spec, out, err);
}

mf_status mf_dataset_filter(mf_dataset *in, const mf_graph *pred, int ncap,
                            mf_tensor *const *captured, mf_dataset **out, mf_error *err) {
  MF_TRY(mf_data_check_fn("FilterDataset", in, pred, ncap, err));
  const mf_spec *r = pred->noutputs == 1 ? &pred->nodes[pred->outputs[0].node].out_specs[pred->outputs[0].index] : NULL;
  if (!r || r->dtype != MF_BOOL || r->rank > 0)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "Filter predicate `f` must return a scalar bool.");
  return fn_new(&filter_class, in, pred, ncap, captured, in->ncomp, in->spec, out, err);
}
