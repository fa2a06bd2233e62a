/* pass_fold.c — constant folding. A pure node (pass_util.h) whose inputs
 * are all Const nodes is computed once, now, and replaced by Const nodes
 * holding its outputs; so is a pure node whose outputs follow from its
 * input specs (Shape, Size and Rank of static shapes, which inference
 * knows; ZerosLike and OnesLike of static shapes, computed on zeros). Nodes are visited in order, so a
 * chain of constants folds in one sweep. The inputs a folded node no longer
 * reads are left for pruning.
 *
 * What may be computed ahead of the run is decided by the rule tracing
 * uses too (mf_op_call_may_fold, op.h: pure ops, size caps that keep huge
 * constants out of graphs). A node whose kernel fails (integer division by
 * zero, ...) is kept: it fails when the graph runs, as it would have. Nodes
 * with control inputs are never folded. */
#include <stdlib.h>

#include "alloc.h"
#include "pass_util.h"
#include "passes.h"

enum { FOLD_MAX_OUTPUTS = 16 };

/* A value fit to be held by a Const: small enough, not a resource, and not
 * a view that keeps a larger buffer alive (copied then). Steals *v. */
static bool keepable(mf_tensor **v) {
  mf_tensor *t = *v;
  if (!t || t->dtype == MF_RESOURCE || t->dtype == MF_VARIANT || t->size > MF_FOLD_MAX_ELEMENTS) return false;
  if (t->buf->count > (size_t)t->size) {
    mf_tensor *copy;
    if (mf_tensor_copy(t, &copy, NULL) != MF_OK) return false;
    mf_tensor_release(t);
    *v = copy;
  }
  return true;
}

/* Ops whose outputs depend on their inputs' dtypes and shapes alone: with
 * static input shapes they fold, computed on zero stand-ins. (Shape, Size
 * and Rank need no stand-ins: inference knows their values.) */
static bool shape_only(const mf_op_def *op) {
  extern const mf_op_def mf_op_ZerosLike, mf_op_OnesLike;
  return op == &mf_op_ZerosLike || op == &mf_op_OnesLike;
}

/* Whether node n of a source graph may fold: a foldable op (op.h), no
 * control inputs, and every input a Const (of g, read through the copy c when
 * one is given) or every output known while tracing. The values are then
 * recomputed from the Const inputs and the specs alone (tracing may have
 * known them from a Placeholder's example value, which is no constant). */
static bool may_fold(const mf_node *n, const mf_graph *g, const mf_graph_copy *c) {
  if (!mf_op_is_foldable(n->op, n->attrs) || n->ncontrol > 0 || n->nin == 0 || n->nout == 0 ||
      n->nout > FOLD_MAX_OUTPUTS)
    return false;
  bool all_const = true, all_static = true;
  for (int k = 0; k < n->nin; k++) {
    mf_tensor_ref r = c ? mf_graph_copy_ref(c, n->inputs[k]) : n->inputs[k];
    if (mf_graph_const_value(g, r)) continue;
    all_const = false;
    all_static = all_static && mf_spec_is_static(&g->nodes[r.node].out_specs[r.index]);
  }
  if (all_const || (shape_only(n->op) && all_static)) return true;
  for (int k = 0; k < n->nout; k++)
    if (!n->known[k]) return false;
  return true;
}

/* Computes the outputs of source node n when they are constants: fills
 * out[0..n->nout) with new references and returns true, or returns false
 * (nothing to release). */
static bool fold_values(const mf_graph_copy *c, const mf_node *n, mf_tensor **out) {
  if (!may_fold(n, c->dst, c)) return false;
  enum { INLINE = 16 };
  mf_spec specs_inline[INLINE];
  mf_tensor *vals_inline[INLINE];
  mf_spec *specs = n->nin <= INLINE ? specs_inline : mf_malloc((size_t)n->nin * sizeof *specs);
  mf_tensor **vals = n->nin <= INLINE ? vals_inline : mf_malloc((size_t)n->nin * sizeof *vals);
  bool ok = specs && vals, all_const = true;
  for (int k = 0; ok && k < n->nin; k++) {
    mf_tensor_ref r = mf_graph_copy_ref(c, n->inputs[k]);
    specs[k] = c->dst->nodes[r.node].out_specs[r.index];
    vals[k] = mf_graph_const_value(c->dst, r);
    if (!vals[k]) all_const = false;
  }
  /* Zero stand-ins for the inputs of shape-only ops (within the caps). */
  mf_tensor *stand_in[INLINE] = {NULL};
  if (ok && !all_const && shape_only(n->op) && n->nin <= INLINE) {
    all_const = true;
    for (int k = 0; all_const && k < n->nin; k++) {
      if (vals[k]) continue;
      int64_t size;
      all_const = mf_shape_size(specs[k].rank, specs[k].shape, &size, NULL) == MF_OK &&
                  size <= MF_FOLD_MAX_ELEMENTS && specs[k].dtype != MF_RESOURCE && specs[k].dtype != MF_VARIANT &&
                  mf_tensor_zeros(specs[k].dtype, specs[k].rank, specs[k].shape, &stand_in[k],
                                  NULL) == MF_OK;
      vals[k] = stand_in[k];
    }
  }
  int got = 0;
  if (ok) {
    mf_op_call call;
    mf_error err;
    mf_op_call_init(&call, n->op, n->nin, specs, vals, n->attrs);
    ok = mf_op_infer(&call, &err) == MF_OK && call.nout == n->nout;
    bool known = ok;
    for (int k = 0; known && k < call.nout; k++) known = call.out_values[k] != NULL;
    if (ok && !known) {
      /* Computed now: only from constants (the stand-ins count as such),
       * by the one folding rule. */
      ok = all_const && mf_op_call_fold(&call);
    }
    for (int k = 0; ok && k < call.nout; k++) {
      out[k] = known ? call.out_values[k] : call.out[k];
      if (known)
        call.out_values[k] = NULL;
      else
        call.out[k] = NULL;
      got = k + 1;
      ok = keepable(&out[k]) && out[k]->dtype == n->out_specs[k].dtype;
    }
    mf_op_call_free(&call);
  }
  if (!ok)
    for (int k = 0; k < got; k++) mf_tensor_release(out[k]);
  for (int k = 0; k < INLINE; k++) mf_tensor_release(stand_in[k]);
  if (specs != specs_inline) free(specs);
  if (vals != vals_inline) free(vals);
  return ok;
}

mf_status mf_pass_fold_step(mf_graph_copy *c, int i, mf_cse_table *t, bool *done, mf_error *err) {
  const mf_node *n = &c->src->nodes[i];
  mf_tensor *vals[FOLD_MAX_OUTPUTS];
  *done = fold_values(c, n, vals);
  if (!*done) return MF_OK;
  mf_status s = MF_OK;
  for (int k = 0; k < n->nout; k++) {
    int same = t && s == MF_OK ? mf_cse_table_find_const(t, c->dst, vals[k]) : -1;
    if (same >= 0) {
      mf_graph_copy_alias(c, i, k, (mf_tensor_ref){same, 0});
    } else if (s == MF_OK) {
      s = mf_graph_copy_const(c, i, k, vals[k], err);
      if (s == MF_OK && t) s = mf_cse_table_note(t, c->dst, c->dst->nnodes - 1, err);
    }
    mf_tensor_release(vals[k]);
  }
  return s;
}

mf_status mf_pass_fold_constants(mf_graph *g, mf_graph **out, mf_pass_stats *st, mf_error *err) {
  mf_graph_copy c;
  MF_TRY(mf_graph_copy_begin(g, &c, err));
  int folded = 0;
  for (int i = 0; i < g->nnodes; i++) {
    bool done;
    mf_status s = mf_pass_fold_step(&c, i, NULL, &done, err);
    if (s == MF_OK && !done) s = mf_graph_copy_node(&c, i, err);
    if (s != MF_OK) {
      mf_graph_copy_abort(&c);
      return s;
    }
    folded += done;
  }
  MF_TRY(mf_graph_copy_finish(&c, out, err));
  if (st) {
    st->folded += folded;
    st->nodes_after = (*out)->nnodes;
  }
  return MF_OK;
}
