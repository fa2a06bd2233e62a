#include "executor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "array_util.h"
#include "interrupt.h"
#include "node_run.h"
#include "profile.h"

extern const mf_op_def mf_op_Const;

typedef struct mf_plan {
  const mf_graph *g; /* borrowed: the graph owns the plan (its cache) */
  int nsteps;
  int *steps;        /* node ids, topological */
  int *slot_base;    /* per node: first value slot */
  int nslots;
  int *feed_of;      /* per node: index into feeds for Placeholders, else -1 */
  /* The needed Consts' values, taken once here instead of run as steps:
   * each run starts with const_val[i] in slot const_slot[i]. */
  int nconsts;
  int *const_slot;
  mf_tensor **const_val;
  /* after step s, release slots release[release_at[s] .. release_at[s+1]) */
  int *release_at;
  int *release;
  bool *planned;     /* per node: shapes static at plan time, inference skipped */
  /* Per planned node, its inputs' static specs side by side (from
   * in_spec_at[node]): a run whose inputs match them hands them to the
   * kernel as they are, instead of making each input's spec again. */
  mf_spec *in_specs;
  int *in_spec_at;
  mf_buffer_pool *pool;
  mf_tensor **slots; /* per value slot, all NULL between runs */
  mf_kernel_state *state; /* per node: what its kernel keeps between runs */
  bool running;      /* a run is under way (a host callback may run g again) */
} mf_plan;

static void plan_free(mf_plan *p) {
  if (!p) return;
  free(p->steps);
  free(p->slot_base);
  free(p->feed_of);
  for (int i = 0; i < p->nconsts; i++) mf_tensor_release(p->const_val[i]);
  free(p->const_slot);
  free(p->const_val);
  free(p->release_at);
  free(p->release);
  free(p->planned);
  free(p->in_specs);
  free(p->in_spec_at);
  free(p->slots);
  if (p->state)
    for (int i = 0; i < p->g->nnodes; i++)
      if (p->state[i].drop) p->state[i].drop(p->state[i].data);
  free(p->state);
  mf_buffer_pool_free(p->pool);
  free(p);
}

/* Whether inference could answer otherwise for node nd when it runs than
 * when the graph was built, though every shape is static: an integer input
 * as small as those inference reads (shapes, axes, bounds) whose value was
 * not known then. Its static output may rest on what tracing knew of it in
 * part (partial.h: tf.broadcast_to(v, {n}) of a (3,) v is (3,)), and only
 * inference checks such values (a slice's begin against its input): it
 * must run, so that a value that disagrees fails as TF's kernels fail.
 * Elementwise ops read no values. */
static bool reads_unknown_values(const mf_graph *g, const mf_node *nd) {
  if (nd->op->flags & MF_OP_ELEMENTWISE) return false;
  for (int k = 0; k < nd->nin; k++) {
    const mf_node *src = &g->nodes[nd->inputs[k].node];
    const mf_spec *s = &src->out_specs[nd->inputs[k].index];
    int64_t size;
    if (mf_dtype_is_integer(s->dtype) && !src->known[nd->inputs[k].index] &&
        mf_shape_size(s->rank, s->shape, &size, NULL) == MF_OK && size <= MF_MAX_INT_INPUT)
      return true;
  }
  return false;
}

static mf_status plan_new(const mf_graph *g, mf_plan **out, mf_error *err) {
  mf_plan *p = mf_calloc(1, sizeof *p);
  int n = g->nnodes;
  bool *needed = mf_calloc((size_t)n + 1, sizeof *needed);
  int *last_use = NULL;
  if (!p || !needed) goto oom;
  p->g = g;
  for (int i = 0; i < g->noutputs; i++) needed[g->outputs[i].node] = true;
  for (int i = 0; i < n; i++)
    if (g->nodes[i].op->flags & (MF_OP_STATEFUL | MF_OP_SIDE_EFFECTS)) needed[i] = true;
  /* Propagate backwards: node ids are topological, so one reverse sweep
   * reaches every ancestor. */
  for (int i = n - 1; i >= 0; i--) {
    if (!needed[i]) continue;
    const mf_node *nd = &g->nodes[i];
    for (int k = 0; k < nd->nin; k++) needed[nd->inputs[k].node] = true;
    for (int k = 0; k < nd->ncontrol; k++) needed[nd->control[k]] = true;
  }
  p->steps = mf_malloc(((size_t)n + 1) * sizeof *p->steps);
  p->slot_base = mf_malloc(((size_t)n + 1) * sizeof *p->slot_base);
  p->feed_of = mf_malloc(((size_t)n + 1) * sizeof *p->feed_of);
  p->const_slot = mf_malloc(((size_t)n + 1) * sizeof *p->const_slot);
  p->const_val = mf_malloc(((size_t)n + 1) * sizeof *p->const_val);
  if (!p->steps || !p->slot_base || !p->feed_of || !p->const_slot || !p->const_val) goto oom;
  for (int i = 0; i < n; i++) {
    p->slot_base[i] = p->nslots;
    p->nslots += g->nodes[i].nout;
    p->feed_of[i] = -1;
    if (!needed[i]) continue;
    /* A Const's value is its attribute, the same on every run: held by
     * the plan, it costs a run nothing (a one-op call ran its `1` each
     * time). One without a value stays a step, whose kernel reports it. */
    const mf_attr *v = g->nodes[i].op == &mf_op_Const && g->nodes[i].nout == 1
                           ? mf_attrs_find(g->nodes[i].attrs, "value") : NULL;
    if (v && v->kind == MF_ATTR_TENSOR && v->u.tensor) {
      mf_tensor_retain(v->u.tensor);
      p->const_val[p->nconsts] = v->u.tensor;
      p->const_slot[p->nconsts++] = p->slot_base[i];
    } else {
      p->steps[p->nsteps++] = i;
    }
  }
  for (int i = 0; i < g->ninputs; i++) p->feed_of[g->inputs[i]] = i;
  /* Liveness: the last step reading each slot; graph outputs never die. */
  last_use = mf_malloc(((size_t)p->nslots + 1) * sizeof *last_use);
  if (!last_use) goto oom;
  for (int i = 0; i < p->nslots; i++) last_use[i] = -1;
  for (int s = 0; s < p->nsteps; s++) {
    const mf_node *nd = &g->nodes[p->steps[s]];
    for (int k = 0; k < nd->nin; k++)
      last_use[p->slot_base[nd->inputs[k].node] + nd->inputs[k].index] = s;
    /* Values nobody reads die right after they are made. */
    for (int k = 0; k < nd->nout; k++) {
      int slot = p->slot_base[p->steps[s]] + k;
      if (last_use[slot] < s) last_use[slot] = s;
    }
  }
  for (int i = 0; i < g->noutputs; i++)
    last_use[p->slot_base[g->outputs[i].node] + g->outputs[i].index] = p->nsteps;
  p->release_at = mf_calloc((size_t)p->nsteps + 2, sizeof *p->release_at);
  p->release = mf_malloc(((size_t)p->nslots + 1) * sizeof *p->release);
  if (!p->release_at || !p->release) goto oom;
  for (int i = 0; i < p->nslots; i++)
    if (last_use[i] >= 0 && last_use[i] < p->nsteps) p->release_at[last_use[i] + 1]++;
  for (int s = 0; s < p->nsteps; s++) p->release_at[s + 1] += p->release_at[s];
  int *fill = mf_calloc((size_t)p->nsteps + 1, sizeof *fill);
  if (!fill) goto oom;
  for (int i = 0; i < p->nslots; i++) {
    int s = last_use[i];
    if (s >= 0 && s < p->nsteps) p->release[p->release_at[s] + fill[s]++] = i;
  }
  free(fill);
  p->planned = mf_calloc((size_t)n + 1, sizeof *p->planned);
  p->pool = mf_buffer_pool_new();
  p->slots = mf_calloc((size_t)p->nslots + 1, sizeof *p->slots);
  p->state = mf_calloc((size_t)n + 1, sizeof *p->state);
  if (!p->planned || !p->pool || !p->slots || !p->state) goto oom;
  for (int i = 0; i < n; i++) {
    const mf_node *nd = &g->nodes[i];
    bool ok = nd->op->kernel != NULL && !nd->deferred;
    for (int k = 0; ok && k < nd->nout; k++) ok = mf_spec_is_static(&nd->out_specs[k]);
    for (int k = 0; ok && k < nd->nin; k++)
      ok = mf_spec_is_static(&g->nodes[nd->inputs[k].node].out_specs[nd->inputs[k].index]);
    p->planned[i] = ok && !reads_unknown_values(g, nd);
  }
  int nspecs = 0;
  p->in_spec_at = mf_malloc(((size_t)n + 1) * sizeof *p->in_spec_at);
  if (!p->in_spec_at) goto oom;
  for (int i = 0; i < n; i++) {
    p->in_spec_at[i] = nspecs;
    if (p->planned[i]) nspecs += g->nodes[i].nin;
  }
  p->in_specs = mf_malloc(((size_t)nspecs + 1) * sizeof *p->in_specs);
  if (!p->in_specs) goto oom;
  for (int i = 0; i < n; i++) {
    const mf_node *nd = &g->nodes[i];
    for (int k = 0; p->planned[i] && k < nd->nin; k++)
      p->in_specs[p->in_spec_at[i] + k] = g->nodes[nd->inputs[k].node].out_specs[nd->inputs[k].index];
  }
  free(last_use);
  free(needed);
  *out = p;
  return MF_OK;
oom:
  free(last_use);
  free(needed);
  plan_free(p);
  return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory while planning a graph");
}

/* True when every input has the dtype and shape the plan saw (its static
 * specs, `want`). */
static bool inputs_as_planned(const mf_node *nd, const mf_spec *want, mf_tensor *const *vals) {
  for (int k = 0; k < nd->nin; k++)
    if (!mf_tensor_fits(vals[k], &want[k], MF_FIT_EXACT)) return false;
  return true;
}

static _Thread_local int64_t kernels_run;

int64_t mf_executor_kernels_run(void) { return kernels_run; }

static mf_status run_node(const mf_plan *p, const mf_node *nd, mf_tensor **slots,
                          mf_tensor **outs, mf_error *err) {
  const int *slot_base = p->slot_base;
  int id = (int)(nd - p->g->nodes);
  enum { INLINE = 16 };
  mf_spec specs_inline[INLINE];
  mf_tensor *vals_inline[INLINE];
  mf_spec *specs = NULL;
  mf_tensor **vals = nd->nin <= INLINE ? vals_inline : mf_malloc((size_t)nd->nin * sizeof *vals);
  mf_status s = MF_OK;
  if (!vals) {
    s = mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
    goto done;
  }
  for (int k = 0; k < nd->nin; k++) {
    vals[k] = slots[slot_base[nd->inputs[k].node] + nd->inputs[k].index];
    if (!vals[k]) {
      s = mf_error_set(err, MF_ERR_INTERNAL, "%s: input %d was not computed", nd->name, k);
      goto done;
    }
  }
  const mf_spec *planned = p->planned[id] ? p->in_specs + p->in_spec_at[id] : NULL;
  if (planned && !inputs_as_planned(nd, planned, vals)) planned = NULL;
  if (!planned) {
    specs = nd->nin <= INLINE ? specs_inline : mf_malloc((size_t)nd->nin * sizeof *specs);
    if (!specs) {
      s = mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
      goto done;
    }
    for (int k = 0; k < nd->nin; k++) mf_spec_of_tensor(vals[k], &specs[k]);
  }
  mf_op_call c;
  kernels_run++;
  mf_op_call_init(&c, nd->op, nd->nin, planned ? planned : specs, vals, nd->attrs);
  c.pool = p->pool;
  c.state = &p->state[id];
  if (planned)
    s = mf_op_execute_planned(&c, nd->nout, nd->out_specs, err);
  else
    s = mf_op_execute(&c, err);
  if (s == MF_OK)
    for (int k = 0; k < c.nout && k < nd->nout; k++) outs[k] = mf_op_call_take_output(&c, k);
  mf_op_call_free(&c);
  if (s != MF_OK) mf_node_annotate_error(nd, err);
done:
  if (specs && specs != specs_inline) free(specs);
  if (vals != vals_inline) free(vals);
  return s;
}

/* run_node timed into profile prof (profile.h): self time is the total
 * less the time of the nodes it ran inside it (nested graphs). */
static mf_status run_node_profiled(const mf_plan *p, const mf_node *nd, mf_tensor **slots,
                                   mf_tensor **outs, mf_profile *prof, mf_error *err) {
  int64_t child = 0, *outer = prof->child;
  prof->child = &child;
  prof->depth++;
  int64_t t0 = mf_profile_now();
  mf_status s = run_node(p, nd, slots, outs, err);
  int64_t total = mf_profile_now() - t0;
  prof->depth--;
  prof->child = outer;
  if (outer) *outer += total;
  int64_t bytes = 0;
  for (int k = 0; s == MF_OK && k < nd->nout; k++)
    if (outs[k]) bytes += outs[k]->size * (int64_t)mf_dtype_size(outs[k]->dtype);
  mf_status r = mf_profile_record(prof, p->g, (int)(nd - p->g->nodes), total - child, total, bytes, err);
  return s != MF_OK ? s : r;
}

static mf_status plan_run(mf_plan *p, int nfeeds, mf_tensor *const *feeds, mf_tensor **outputs,
                         mf_error *err) {
  const mf_graph *g = p->g;
  if (nfeeds != g->ninputs)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "graph %s takes %d inputs, %d were fed",
                        g->name, g->ninputs, nfeeds);
  mf_tensor **slots = p->slots;
  mf_status s = MF_OK;
  mf_profile *prof = mf_profile_installed(); /* NULL: no clock is read */
  for (int i = 0; i < p->nconsts; i++) {
    slots[p->const_slot[i]] = p->const_val[i];
    mf_tensor_retain(p->const_val[i]);
  }
  for (int st = 0; st < p->nsteps && s == MF_OK; st++) {
    int id = p->steps[st];
    const mf_node *nd = &g->nodes[id];
    if (p->feed_of[id] >= 0) {
      slots[p->slot_base[id]] = feeds[p->feed_of[id]];
      mf_tensor_retain(feeds[p->feed_of[id]]);
    } else {
      s = mf_interrupt_check(err);
      /* An elementwise op may write into an input that dies here. */
      bool lent = false;
      if (nd->op->flags & MF_OP_ELEMENTWISE) {
        for (int r = p->release_at[st]; r < p->release_at[st + 1]; r++) {
          mf_tensor *t = slots[p->release[r]];
          if (t && p->release[r] < p->slot_base[id]) lent |= mf_buffer_pool_lend(p->pool, t);
        }
      }
      if (s == MF_OK)
        s = prof ? run_node_profiled(p, nd, slots, slots + p->slot_base[id], prof, err)
                 : run_node(p, nd, slots, slots + p->slot_base[id], err);
      if (lent) mf_buffer_pool_unlend(p->pool);
    }
    for (int r = p->release_at[st]; r < p->release_at[st + 1]; r++) {
      mf_buffer_pool_recycle(p->pool, slots[p->release[r]]);
      slots[p->release[r]] = NULL;
    }
  }
  for (int i = 0; i < g->noutputs; i++) {
    mf_tensor *t = s == MF_OK ? slots[p->slot_base[g->outputs[i].node] + g->outputs[i].index] : NULL;
    if (t) mf_tensor_retain(t);
    outputs[i] = t;
  }
  for (int i = 0; i < p->nslots; i++) {
    mf_tensor_release(slots[i]);
    slots[i] = NULL;
  }
  if (s != MF_OK)
    for (int i = 0; i < g->noutputs; i++) {
      mf_tensor_release(outputs[i]);
      outputs[i] = NULL;
    }
  return s;
}

static void plan_drop(void *p) { plan_free(p); }

mf_status mf_graph_run(const mf_graph *g, int nfeeds, mf_tensor *const *feeds,
                       mf_tensor **outputs, mf_error *err) {
  mf_graph_cache *cache = g->cache;
  mf_plan *p = cache->drop == plan_drop ? cache->data : NULL;
  if (!p) {
    MF_TRY(plan_new(g, &p, err));
    if (cache->drop) cache->drop(cache->data);
    cache->data = p;
    cache->drop = plan_drop;
  }
  if (!p->running) {
    p->running = true;
    mf_profile *prof = mf_profile_installed();
    /* A run from outside the executor: its wall time, for the profile's total. */
    int64_t t0 = prof && !prof->child ? mf_profile_now() : 0;
    mf_status s = plan_run(p, nfeeds, feeds, outputs, err);
    if (t0) {
      prof->run_ns += mf_profile_now() - t0;
      prof->runs++;
    }
    p->running = false;
    return s;
  }
  /* g is already running further down the stack (a host callback runs it
   * again): its plan's pool is in use, so this run gets a plan of its own. */
  mf_plan *own;
  MF_TRY(plan_new(g, &own, err));
  mf_status s = plan_run(own, nfeeds, feeds, outputs, err);
  plan_free(own);
  return s;
}
