/* ops_call.c — a call of one function's graph from another graph: TF's
 * PartitionedCall (a function without state) and StatefulPartitionedCall.
 * A tf.func called while another is traced keeps its own trace (its own
 * concrete function, retracing rules and input_signature) and is called
 * through one of these nodes instead of being inlined. The callee's graph
 * is the attribute `f` and runs through the same executor as every graph. */
#include <stdio.h>
#include <stdlib.h>

#include "executor.h"
#include "op.h"
#include "partial.h"

static const mf_graph *function_attr(const mf_op_call *c) {
  const mf_attr *a = mf_attrs_find(c->attrs, "f");
  return a && a->kind == MF_ATTR_GRAPH ? a->u.graph : NULL;
}

static const mf_spec *param_spec(const mf_graph *g, int i) {
  return &g->nodes[g->inputs[i]].out_specs[0];
}

/* The arguments must be what the callee was traced for: its dtypes, and
 * shapes compatible with its parameters'. */
static mf_status check_args(const mf_op_call *c, const mf_graph *f, bool shapes, mf_error *err) {
  if (f->ninputs != c->nin)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "%s of %s: the function takes %d inputs, %d given",
                        c->op->name, f->name, f->ninputs, c->nin);
  for (int i = 0; i < c->nin; i++) {
    const mf_spec *want = param_spec(f, i);
    if (c->in_specs[i].dtype != want->dtype)
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "%s of %s: input #%d(zero-based) was expected to be a %s tensor but is a %s tensor",
                          c->op->name, f->name, i, mf_dtype_name(want->dtype),
                          mf_dtype_name(c->in_specs[i].dtype));
    if (shapes && !mf_spec_fits(&c->in_specs[i], want, MF_FIT_COMPATIBLE)) {
      char a[96], b[96];
      mf_spec_format(&c->in_specs[i], a, sizeof a);
      mf_spec_format(want, b, sizeof b);
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "%s of %s: input #%d(zero-based) has shape %s, the function expects %s",
                          c->op->name, f->name, i, a, b);
    }
  }
  return MF_OK;
}

/* What is known of every value of the callee for these arguments. */
typedef struct known_values {
  mf_spec *specs;     /* per value slot */
  mf_tensor **values; /* per value slot: known value or NULL (owned) */
  mf_partial **partials; /* per value slot: partial value or NULL (owned) */
  int *base;          /* per node: its first slot */
  bool building;      /* the call is inferred while a graph is built: so is its body */
} known_values;

static int input_index(const mf_graph *f, int node) {
  for (int i = 0; i < f->ninputs; i++)
    if (f->inputs[i] == node) return i;
  return -1;
}

/* Infers node i of f from what is known of its inputs, as tracing does
 * (inference, then folding what is known; TF's shape functions and partial
 * values while a graph is built). Keeps the traced specs when that fails
 * or says less. */
static void refine_node(const mf_graph *f, int i, known_values *kv) {
  extern const mf_op_def mf_op_Placeholder;
  const mf_node *nd = &f->nodes[i];
  mf_spec *out = kv->specs + kv->base[i];
  for (int k = 0; k < nd->nout; k++) out[k] = nd->out_specs[k];
  if (nd->op == &mf_op_Placeholder || nd->nin > 16) return;
  mf_spec in_specs[16];
  mf_tensor *in_vals[16];
  const mf_partial *in_partials[16];
  for (int k = 0; k < nd->nin; k++) {
    int slot = kv->base[nd->inputs[k].node] + nd->inputs[k].index;
    in_specs[k] = kv->specs[slot];
    in_vals[k] = kv->values[slot];
    in_partials[k] = kv->partials[slot];
  }
  mf_op_call cc;
  mf_op_call_init(&cc, nd->op, nd->nin, in_specs, in_vals, nd->attrs);
  cc.building = kv->building;
  if (kv->building) cc.in_partial = in_partials;
  mf_error err;
  if (mf_op_infer(&cc, &err) == MF_OK && cc.nout == nd->nout) {
    if (mf_op_call_fold(&cc))
      for (int k = 0; k < cc.nout; k++) {
        mf_tensor_release(cc.out_values[k]);
        cc.out_values[k] = mf_op_call_take_output(&cc, k);
      }
    for (int k = 0; k < nd->nout; k++) {
      if (!mf_spec_fits(&cc.out_specs[k], &nd->out_specs[k], MF_FIT_SUBTYPE)) continue;
      out[k] = cc.out_specs[k];
      kv->values[kv->base[i] + k] = cc.out_values[k];
      cc.out_values[k] = NULL;
      kv->partials[kv->base[i] + k] = cc.out_partials[k];
      cc.out_partials[k] = NULL;
    }
  }
  mf_op_call_free(&cc);
}

/* TF's shape inference through a function call: the callee's outputs as
 * far as these arguments (their shapes, their values known while
 * tracing) determine them. Fills c's output specs and known values;
 * without memory it keeps the traced specs. Only while a graph is built:
 * a run (the executor gives a buffer pool) needs no more than the specs. */
static void refine_outputs(mf_op_call *c, const mf_graph *f) {
  known_values kv = {.building = c->building};
  int nslots = 0;
  kv.base = malloc(((size_t)f->nnodes + 1) * sizeof *kv.base);
  if (!kv.base) return;
  for (int i = 0; i < f->nnodes; i++) {
    kv.base[i] = nslots;
    nslots += f->nodes[i].nout;
  }
  kv.specs = malloc(((size_t)nslots + 1) * sizeof *kv.specs);
  kv.values = calloc((size_t)nslots + 1, sizeof *kv.values);
  kv.partials = calloc((size_t)nslots + 1, sizeof *kv.partials);
  if (kv.specs && kv.values && kv.partials) {
    for (int i = 0; i < f->nnodes; i++) {
      int arg = input_index(f, i);
      refine_node(f, i, &kv);
      if (arg >= 0 && mf_spec_fits(&c->in_specs[arg], &f->nodes[i].out_specs[0], MF_FIT_SUBTYPE)) {
        kv.specs[kv.base[i]] = c->in_specs[arg];
        if (c->in[arg]) mf_tensor_retain(c->in[arg]);
        kv.values[kv.base[i]] = c->in[arg];
      }
    }
    for (int i = 0; i < f->noutputs; i++) {
      int slot = kv.base[f->outputs[i].node] + f->outputs[i].index;
      c->out_specs[i] = kv.specs[slot];
      c->out_values[i] = kv.values[slot];
      kv.values[slot] = NULL;
    }
  }
  for (int i = 0; kv.values && i < nslots; i++) mf_tensor_release(kv.values[i]);
  for (int i = 0; kv.partials && i < nslots; i++) mf_partial_free(kv.partials[i]);
  free(kv.values);
  free(kv.partials);
  free(kv.specs);
  free(kv.base);
}

static mf_status call_infer(mf_op_call *c, mf_error *err) {
  const mf_graph *f = function_attr(c);
  if (!f) return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "%s needs a function graph 'f'", c->op->name);
  /* While a graph is built (no buffer pool) the shapes must fit; a run
   * (the executor's pool) checks no shape, as the kernel. */
  MF_TRY(check_args(c, f, !c->pool, err));
  MF_TRY(mf_op_call_set_nout(c, f->noutputs, err));
  for (int i = 0; i < f->noutputs; i++) {
    mf_tensor_ref r = f->outputs[i];
    c->out_specs[i] = f->nodes[r.node].out_specs[r.index];
  }
  if (!c->pool) refine_outputs(c, f);
  return MF_OK;
}

/* As TF's call: no shape check beyond what the callee's kernels do (a
 * value of another shape than the trace's runs, as an eager call of a
 * concrete function does); the dtypes must be the trace's. */
/* As TF's call: no shape check beyond what the callee's kernels do (a
 * value of another shape than the trace's runs, as an eager call of a
 * concrete function does); the dtypes must be the trace's. */
static mf_status call_kernel(mf_op_call *c, mf_error *err) {
  const mf_graph *f = function_attr(c);
  MF_TRY(check_args(c, f, false, err)); /* c->in_specs are the values' here */
  return mf_graph_run(f, c->nin, c->in, c->out, err);
}

/* MF_OP_NO_GRADIENT: no tape records the node itself. A tf.func call
 * under a tape records the call with its gradient pair instead (the
 * forward variant that also returns the intermediates, and the backward
 * function: call_gradient.lua), as TF's tape records a function call. */
#define CALL_OP(NAME, FLAGS, DOC)                                                   \
  const mf_op_def mf_op_##NAME = {                                                  \
      .name = #NAME, .input_names = "args*", .min_inputs = 0, .max_inputs = -1,     \
      .attrs = {{"f", MF_ATTR_GRAPH}},                                              \
      .infer = call_infer, .kernel = call_kernel, .flags = FLAGS, .doc = DOC,       \
      .tf_attrs = CALL_TF_ATTRS,                                                    \
  };
/* TF's attributes but Tin and Tout, the lists of argument and result
 * types, which moonflow's call node does not keep. */
#define CALL_TF_ATTRS "config=\"\" config_proto=\"\" executor_type=\"\" f"
CALL_OP(PartitionedCall, MF_OP_NO_GRADIENT, "Calls the function graph f on its inputs (a function without state).")
CALL_OP(StatefulPartitionedCall, MF_OP_STATEFUL | MF_OP_NO_GRADIENT,
        "Calls the function graph f on its inputs (a function with state or side effects).")
