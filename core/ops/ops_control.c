/* ops_control.c — control flow: If/StatelessIf run one of two nested graphs,
 * While/StatelessWhile run a body graph while a cond graph says so. Both
 * take their branch/body graphs as attributes (built by tracing the Lua
 * functions given to tf.cond / tf.while_loop) and run them through the
 * same executor as every graph (mf_graph_run: planned on the first run).
 * TensorListSetItem is the dense row update TensorArray writes are made of
 * inside loops (TensorScatterUpdate lives with the other index-tuple ops in
 * ops_array.c). */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "executor.h"
#include "interrupt.h"
#include "op.h"

static const mf_graph *graph_attr(const mf_op_call *c, const char *name) {
  const mf_attr *a = mf_attrs_find(c->attrs, name);
  return a && a->kind == MF_ATTR_GRAPH ? a->u.graph : NULL;
}

static mf_status need_graph(const mf_op_call *c, const char *name, const mf_graph **g,
                            mf_error *err) {
  *g = graph_attr(c, name);
  if (!*g) return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "%s needs a '%s' graph", c->op->name, name);
  return MF_OK;
}

static const mf_spec *output_spec(const mf_graph *g, int i) {
  const mf_tensor_ref r = g->outputs[i];
  return &g->nodes[r.node].out_specs[r.index];
}

static const mf_spec *input_spec(const mf_graph *g, int i) {
  return &g->nodes[g->inputs[i]].out_specs[0];
}

/* The most specific spec both a and b fit. */
static void join_specs(const mf_spec *a, const mf_spec *b, mf_spec *out) {
  *out = *a;
  if (a->rank != b->rank) {
    out->rank = -1;
    return;
  }
  for (int i = 0; i < a->rank; i++)
    if (a->shape[i] != b->shape[i]) out->shape[i] = MF_UNKNOWN_DIM;
}

/* ---- If ---- */

static mf_status if_infer(mf_op_call *c, mf_error *err) {
  const mf_graph *t, *e;
  MF_TRY(need_graph(c, "then_branch", &t, err));
  MF_TRY(need_graph(c, "else_branch", &e, err));
  if (c->in_specs[0].rank > 0)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "the condition of %s must be a scalar",
                        c->op->name);
  int nfeeds = c->nin - 1;
  if (t->ninputs != nfeeds || e->ninputs != nfeeds || t->noutputs != e->noutputs)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "%s: branches take %d and %d inputs (given %d) and give %d and %d outputs",
                        c->op->name, t->ninputs, e->ninputs, nfeeds, t->noutputs, e->noutputs);
  MF_TRY(mf_op_call_set_nout(c, t->noutputs, err));
  for (int i = 0; i < t->noutputs; i++) {
    const mf_spec *a = output_spec(t, i), *b = output_spec(e, i);
    if (a->dtype != b->dtype)
      return mf_error_set(err, MF_ERR_TYPE,
                          "%s: output %d is %s in the true branch but %s in the false branch",
                          c->op->name, i, mf_dtype_name(a->dtype), mf_dtype_name(b->dtype));
    join_specs(a, b, &c->out_specs[i]);
  }
  return MF_OK;
}

static mf_status if_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *p = c->in[0];
  if (p->size != 1)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "the condition of %s must have one element",
                        c->op->name);
  bool take = mf_tensor_get_f64(p, 0) != 0;
  const mf_graph *g = graph_attr(c, take ? "then_branch" : "else_branch");
  return mf_graph_run(g, c->nin - 1, c->in + 1, c->out, err);
}

#define IF_OP(NAME, FLAGS, DOC)                                                          \
  const mf_op_def mf_op_##NAME = {                                                       \
      .name = #NAME, .input_names = "cond,input*", .min_inputs = 1, .max_inputs = -1,    \
      .attrs = {{"then_branch", MF_ATTR_GRAPH}, {"else_branch", MF_ATTR_GRAPH}},         \
      .infer = if_infer, .kernel = if_kernel, .flags = FLAGS, .doc = DOC,                \
      .tf_attrs = "Tcond:0 else_branch then_branch", /* no Tin, Tout, output_shapes */ \
  };
IF_OP(If, MF_OP_STATEFUL, "Runs then_branch or else_branch on its inputs (branches with state).")
IF_OP(StatelessIf, 0, "Runs then_branch or else_branch on its inputs.")

/* ---- While ---- */

static mf_status while_infer(mf_op_call *c, mf_error *err) {
  const mf_graph *cond, *body;
  MF_TRY(need_graph(c, "cond", &cond, err));
  MF_TRY(need_graph(c, "body", &body, err));
  if (cond->ninputs != c->nin || body->ninputs != c->nin || body->noutputs != c->nin ||
      cond->noutputs != 1)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "%s: cond and body must take the %d loop variables, body must return them "
                        "and cond one boolean",
                        c->op->name, c->nin);
  MF_TRY(mf_op_call_set_nout(c, c->nin, err));
  for (int i = 0; i < c->nin; i++) {
    const mf_spec *inv = input_spec(body, i);
    if (inv->dtype != c->in_specs[i].dtype || output_spec(body, i)->dtype != inv->dtype)
      return mf_error_set(err, MF_ERR_TYPE, "%s: loop variable %d changes dtype (%s -> %s)",
                          c->op->name, i, mf_dtype_name(c->in_specs[i].dtype),
                          mf_dtype_name(output_spec(body, i)->dtype));
    c->out_specs[i] = *inv; /* the shape invariant */
  }
  return MF_OK;
}

static mf_status while_kernel(mf_op_call *c, mf_error *err) {
  const mf_graph *cond = graph_attr(c, "cond"), *body = graph_attr(c, "body");
  int n = c->nin;
  mf_tensor **vars = c->out; /* the loop state lives in the outputs */
  for (int i = 0; i < n; i++) {
    mf_tensor_retain(c->in[i]);
    vars[i] = c->in[i];
  }
  mf_tensor *next_inline[8];
  mf_tensor **next = n <= 8 ? next_inline : mf_calloc((size_t)n, sizeof *next);
  if (!next) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  mf_status s = MF_OK;
  for (;;) {
    mf_tensor *p = NULL;
    s = mf_interrupt_check(err);
    if (s == MF_OK) s = mf_graph_run(cond, n, vars, &p, err);
    if (s != MF_OK) break;
    bool go = p->size == 1 && mf_tensor_get_f64(p, 0) != 0;
    mf_tensor_release(p);
    if (!go) break;
    s = mf_graph_run(body, n, vars, next, err);
    if (s != MF_OK) break;
    for (int i = 0; i < n; i++) {
      mf_tensor_release(vars[i]);
      vars[i] = next[i];
    }
  }
  if (next != next_inline) free(next);
  return s;
}

#define WHILE_OP(NAME, FLAGS, DOC)                                                      \
  const mf_op_def mf_op_##NAME = {                                                      \
      .name = #NAME, .input_names = "input*", .min_inputs = 0, .max_inputs = -1,        \
      .attrs = {{"cond", MF_ATTR_GRAPH}, {"body", MF_ATTR_GRAPH},                       \
                {"parallel_iterations", MF_ATTR_INT}},                                  \
      .infer = while_infer, .kernel = while_kernel, .flags = FLAGS, .doc = DOC,         \
      .tf_attrs = "body cond parallel_iterations=10", /* no T, output_shapes */         \
  };
WHILE_OP(While, MF_OP_STATEFUL, "Runs body while cond holds (a body with state).")
WHILE_OP(StatelessWhile, 0, "Runs body on the loop variables while cond holds.")

/* ---- TensorListSetItem: TensorArray.write on a dense buffer ----
 * The buffer holds the rows: [rows, element...]. A fresh array of `size`
 * rows is the zero vector [size] (element shape not known yet); a write of
 * a non-scalar element into a rank-1 buffer fixes the element shape. With
 * `resize`, writing past the end grows the buffer with zero rows
 * (dynamic_size); without, it is an error. */

static mf_status list_set_infer(mf_op_call *c, mf_error *err) {
  const mf_spec *buf = &c->in_specs[0], *item = &c->in_specs[2];
  if (buf->dtype != item->dtype)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "TensorArray dtype is %s but the value written is %s",
                        mf_dtype_name(buf->dtype), mf_dtype_name(item->dtype));
  if (c->in_specs[1].rank > 0)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "TensorArray index must be a scalar");
  MF_TRY(mf_op_call_set_nout(c, 1, err));
  mf_spec *o = &c->out_specs[0];
  o->dtype = buf->dtype;
  if (item->rank < 0 || item->rank + 1 > MF_MAX_RANK) {
    o->rank = -1;
    return MF_OK;
  }
  o->rank = item->rank + 1;
  bool fixed_rows = !mf_attr_bool(c->attrs, "resize", false) && buf->rank == o->rank;
  o->shape[0] = fixed_rows ? buf->shape[0] : MF_UNKNOWN_DIM;
  for (int i = 0; i < item->rank; i++) o->shape[i + 1] = item->shape[i];
  return MF_OK;
}

static mf_status list_set_kernel(mf_op_call *c, mf_error *err) {
  const mf_tensor *buf = c->in[0], *item = c->in[2];
  int64_t index = mf_tensor_get_i64(c->in[1], 0);
  bool resize = mf_attr_bool(c->attrs, "resize", false);
  bool fresh = buf->rank == 1 && item->rank != 0;
  int64_t rows = buf->rank > 0 ? buf->shape[0] : 0;
  if (!fresh) {
    bool same = buf->rank == item->rank + 1;
    for (int i = 0; same && i < item->rank; i++) same = buf->shape[i + 1] == item->shape[i];
    if (!same) {
      char a[128], b[128];
      mf_shape_format(item->rank, item->shape, a, sizeof a);
      mf_shape_format(buf->rank - 1, buf->shape + 1, b, sizeof b);
      return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                          "Could not write to TensorArray index %lld because the value shape is %s "
                          "which is incompatible with the TensorArray's element shape: %s",
                          (long long)index, a, b);
    }
  }
  if (index < 0) return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "TensorArray index %lld is negative", (long long)index);
  if (index >= rows && !resize)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "Tried to write to index %lld but array is not resizeable and size is: %lld",
                        (long long)index, (long long)rows);
  int64_t shape[MF_MAX_RANK];
  if (item->rank + 1 > MF_MAX_RANK)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "TensorArray elements have too many dimensions");
  shape[0] = index >= rows ? index + 1 : rows;
  for (int i = 0; i < item->rank; i++) shape[i + 1] = item->shape[i];
  mf_tensor *out;
  MF_TRY(mf_tensor_zeros(buf->dtype, item->rank + 1, shape, &out, err));
  size_t es = mf_dtype_size(buf->dtype);
  int64_t row = item->size;
  if (buf->dtype == MF_STRING) {
    mf_string *dst = MF_DATA(out, mf_string);
    const mf_string *old = MF_DATA(buf, mf_string), *src = MF_DATA(item, mf_string);
    mf_status s = MF_OK;
    for (int64_t e = 0; !fresh && e < rows * row && s == MF_OK; e++)
      s = mf_string_set(&dst[e], old[e].ptr, old[e].len, err);
    for (int64_t e = 0; e < row && s == MF_OK; e++)
      s = mf_string_set(&dst[index * row + e], src[e].ptr, src[e].len, err);
    if (s != MF_OK) {
      mf_tensor_release(out);
      return s;
    }
  } else {
    if (rows && !fresh) memcpy(mf_tensor_data(out), mf_tensor_data(buf), (size_t)(rows * row) * es);
    memcpy((char *)mf_tensor_data(out) + (size_t)(index * row) * es, mf_tensor_data(item), (size_t)row * es);
  }
  c->out[0] = out;
  return MF_OK;
}

const mf_op_def mf_op_TensorListSetItem = {
    .name = "TensorListSetItem", .input_names = "input_handle,index,item", .min_inputs = 3,
    .max_inputs = 3, .attrs = {{"resize", MF_ATTR_BOOL}, {"element_dtype", MF_ATTR_TYPE}},
    .infer = list_set_infer, .kernel = list_set_kernel, .flags = 0,
    .doc = "TensorArray.write: the list with row `index` set to item (growing it when resize is set).",
    .tf_attrs = "element_dtype resize=false",
};
