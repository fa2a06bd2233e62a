/* onnx_export.c — moonflow graphs as ONNX protobuf (see onnx_export.h).
 * Field numbers are onnx.proto's: ModelProto {ir_version 1, producer_name 2,
 * producer_version 3, graph 7, opset_import 8}; OperatorSetIdProto {domain 1,
 * version 2}; GraphProto {node 1, name 2, initializer 5, input 11, output 12};
 * NodeProto {input 1, output 2, name 3, op_type 4, attribute 5};
 * AttributeProto {name 1, f 2, i 3, s 4, g 6, ints 8, type 20};
 * TensorProto {dims 1, data_type 2, name 8, raw_data 9}; ValueInfoProto
 * {name 1, type 2}; TypeProto {tensor_type 1}; TypeProto.Tensor {elem_type 1,
 * shape 2}; TensorShapeProto {dim 1}; Dimension {dim_value 1, dim_param 2}. */
#include "onnx_export.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a growable protobuf writer ---- */

typedef struct pb {
  unsigned char *p;
  size_t n, cap;
  bool oom;
} pb;

static void pb_raw(pb *b, const void *d, size_t n) {
  if (b->oom) return;
  if (b->n + n > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->n + n) cap *= 2;
    unsigned char *p = realloc(b->p, cap);
    if (!p) {
      b->oom = true;
      return;
    }
    b->p = p;
    b->cap = cap;
  }
  if (n) memcpy(b->p + b->n, d, n);
  b->n += n;
}
static void pb_varint(pb *b, uint64_t v) {
  unsigned char t[10];
  int n = 0;
  do {
    t[n++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
    v >>= 7;
  } while (v);
  pb_raw(b, t, (size_t)n);
}
static void pb_key(pb *b, int f, int wt) { pb_varint(b, (uint64_t)f << 3 | (uint64_t)wt); }
static void pb_int(pb *b, int f, int64_t v) {
  pb_key(b, f, 0);
  pb_varint(b, (uint64_t)v);
}
static void pb_bytes(pb *b, int f, const void *d, size_t n) {
  pb_key(b, f, 2);
  pb_varint(b, n);
  pb_raw(b, d, n);
}
static void pb_str(pb *b, int f, const char *s) { pb_bytes(b, f, s, strlen(s)); }
/* Appends child as field f and frees it. */
static void pb_msg(pb *b, int f, pb *child) {
  if (child->oom) b->oom = true;
  pb_bytes(b, f, child->p, child->n);
  free(child->p);
  memset(child, 0, sizeof *child);
}

/* ---- attributes (each appended to `a` as NodeProto field 5) ---- */

static void attr_int(pb *a, const char *name, int64_t v) {
  pb t = {0};
  pb_str(&t, 1, name);
  pb_int(&t, 20, 2);
  pb_int(&t, 3, v);
  pb_msg(a, 5, &t);
}
static void attr_ints(pb *a, const char *name, int n, const int64_t *v) {
  pb t = {0};
  pb_str(&t, 1, name);
  pb_int(&t, 20, 7);
  for (int i = 0; i < n; i++) pb_int(&t, 8, v[i]);
  pb_msg(a, 5, &t);
}
static void attr_str(pb *a, const char *name, const char *s) {
  pb t = {0};
  pb_str(&t, 1, name);
  pb_int(&t, 20, 3);
  pb_str(&t, 4, s);
  pb_msg(a, 5, &t);
}
static void attr_graph(pb *a, const char *name, pb *g) {
  pb t = {0};
  pb_str(&t, 1, name);
  pb_int(&t, 20, 5);
  pb_msg(&t, 6, g);
  pb_msg(a, 5, &t);
}

/* ---- the exporter ---- */

typedef struct ex {
  int opset;
  int counter;
} ex;

static int onnx_type(mf_dtype dt) {
  switch (dt) {
    case MF_FLOAT32: return 1;
    case MF_INT32: return 6;
    case MF_INT64: return 7;
    case MF_BOOL: return 9;
    case MF_FLOAT64: return 11;
    /* TensorProto.DataType's codes */
    case MF_UINT8: return 2;
    case MF_INT8: return 3;
    case MF_UINT16: return 4;
    case MF_INT16: return 5;
    case MF_FLOAT16: return 10;
    case MF_UINT32: return 12;
    case MF_UINT64: return 13;
    case MF_BFLOAT16: return 16;
    default: return 0;
  }
}

static char *fresh(ex *x, const char *what) {
  char buf[96];
  snprintf(buf, sizeof buf, "_%s_%d", what, x->counter++);
  return strdup(buf);
}

/* One NodeProto into graph gp; attrs (may be NULL) already field-5 encoded. */
static void node(ex *x, pb *gp, const char *op, int nin, const char *const *ins, int nout,
                 const char *const *outs, pb *attrs) {
  pb nd = {0};
  for (int i = 0; i < nin; i++) pb_str(&nd, 1, ins[i]);
  for (int i = 0; i < nout; i++) pb_str(&nd, 2, outs[i]);
  char name[64];
  snprintf(name, sizeof name, "%s_%d", op, x->counter++);
  pb_str(&nd, 3, name);
  pb_str(&nd, 4, op);
  if (attrs) {
    pb_raw(&nd, attrs->p, attrs->n);
    if (attrs->oom) nd.oom = true;
    free(attrs->p);
    memset(attrs, 0, sizeof *attrs);
  }
  pb_msg(gp, 1, &nd);
}
static void node1(ex *x, pb *gp, const char *op, const char *in, const char *out, pb *attrs) {
  node(x, gp, op, 1, &in, 1, &out, attrs);
}

static mf_status initializer(pb *gp, const char *name, const mf_tensor *t, mf_error *err) {
  int ty = onnx_type(t->dtype);
  if (!ty)
    return mf_error_set(err, MF_ERR_UNIMPLEMENTED, "ONNX export: a %s constant ('%s') is not supported",
                        mf_dtype_name(t->dtype), name);
  pb tp = {0};
  for (int i = 0; i < t->rank; i++) pb_int(&tp, 1, t->shape[i]);
  pb_int(&tp, 2, ty);
  pb_str(&tp, 8, name);
  pb_bytes(&tp, 9, mf_tensor_data(t), (size_t)t->size * mf_dtype_size(t->dtype));
  pb_msg(gp, 5, &tp);
  return MF_OK;
}

static char *const_i64(ex *x, pb *gp, int n, const int64_t *v, bool scalar, mf_error *err) {
  mf_tensor *t;
  int64_t shape[1] = {n};
  if (mf_tensor_new(MF_INT64, scalar ? 0 : 1, shape, &t, err) != MF_OK) return NULL;
  for (int i = 0; i < n; i++) MF_DATA(t, int64_t)[i] = v[i];
  char *name = fresh(x, "const");
  if (initializer(gp, name, t, err) != MF_OK) {
    free(name);
    name = NULL;
  }
  mf_tensor_release(t);
  return name;
}

static void value_info(pb *gp, int field, const char *name, const mf_spec *s, bool shape) {
  pb vi = {0}, tp = {0}, tt = {0};
  pb_str(&vi, 1, name);
  pb_int(&tt, 1, onnx_type(s->dtype));
  if (shape && s->rank >= 0) {
    pb sh = {0};
    for (int i = 0; i < s->rank; i++) {
      pb d = {0};
      if (s->shape[i] >= 0) {
        pb_int(&d, 1, s->shape[i]);
      } else {
        char p[64];
        snprintf(p, sizeof p, "%s_dim%d", name, i);
        pb_str(&d, 2, p);
      }
      pb_msg(&sh, 1, &d);
    }
    pb_msg(&tt, 2, &sh);
  }
  pb_msg(&tp, 1, &tt);
  pb_msg(&vi, 2, &tp);
  pb_msg(gp, field, &vi);
}

/* Integer values of a constant input (Const or folded). */
static bool const_ints(const mf_graph *g, mf_tensor_ref r, int64_t *v, int cap, int *n) {
  const mf_tensor *t = g->nodes[r.node].known ? g->nodes[r.node].known[r.index] : NULL;
  if (!t || !mf_dtype_is_integer(t->dtype) || t->size > cap) return false;
  *n = (int)t->size;
  for (int64_t i = 0; i < t->size; i++) v[i] = mf_tensor_get_i64(t, i);
  return true;
}

static mf_status emit_graph(ex *x, const mf_graph *g, pb *gp, char *const *in_names,
                            char **out_names, mf_error *err);

/* ---- one emitter per op ----
 *
 * An emitter writes node n of g into graph gp: ins are its input value
 * names, outs its output names, onnx the ONNX op its table entry names
 * (for the emitters several ops share). The table below maps each op that
 * has an ONNX form to its emitter; an op without an entry cannot be
 * exported (Placeholder and NoOp are emit_graph's own business). */

typedef struct emit {
  ex *x;
  const mf_graph *g;
  const mf_node *n;
  pb *gp;
  const char **ins;
  char **outs;
  const char *onnx;
} emit;

typedef mf_status (*emitter)(const emit *e, mf_error *err);

#define UNSUPPORTED(why)                                                                         \
  mf_error_set(err, MF_ERR_UNIMPLEMENTED, "ONNX export: op %s (node '%s') %s", e->n->op->name,    \
               e->n->name, why)

#define OUTS(e) ((const char *const *)(e)->outs)

/* The ONNX op of the same meaning, one input (Identity for the reads and
 * the gradient stop). */
static mf_status emit_unary(const emit *e, mf_error *err) {
  (void)err;
  node1(e->x, e->gp, e->onnx, e->ins[0], e->outs[0], NULL);
  return MF_OK;
}

/* IdentityN (a custom gradient's node): an Identity per output. ONNX has
 * no gradients, so only the forward computation is exported (onnx.lua says so). */
static mf_status emit_identity_n(const emit *e, mf_error *err) {
  (void)err;
  for (int k = 0; k < e->n->nout; k++) node1(e->x, e->gp, "Identity", e->ins[k], e->outs[k], NULL);
  return MF_OK;
}

/* The ONNX op of the same meaning, two inputs (BiasAdd: an Add, which
 * broadcasts the bias over the last dimension as TF does). */
static mf_status emit_binary(const emit *e, mf_error *err) {
  (void)err;
  node(e->x, e->gp, e->onnx, 2, e->ins, 1, OUTS(e), NULL);
  return MF_OK;
}

static mf_status emit_const(const emit *e, mf_error *err) {
  const mf_attr *val = mf_attrs_find(e->n->attrs, "value");
  return initializer(e->gp, e->outs[0], val->u.tensor, err);
}

static mf_status emit_square(const emit *e, mf_error *err) {
  (void)err;
  const char *in2[2] = {e->ins[0], e->ins[0]};
  node(e->x, e->gp, "Mul", 2, in2, 1, OUTS(e), NULL);
  return MF_OK;
}

static mf_status emit_rsqrt(const emit *e, mf_error *err) {
  (void)err;
  char *t = fresh(e->x, "sqrt");
  node1(e->x, e->gp, "Sqrt", e->ins[0], t, NULL);
  node1(e->x, e->gp, "Reciprocal", t, e->outs[0], NULL);
  free(t);
  return MF_OK;
}

static mf_status emit_not_equal(const emit *e, mf_error *err) {
  (void)err;
  char *t = fresh(e->x, "eq");
  const char *o[1] = {t};
  node(e->x, e->gp, "Equal", 2, e->ins, 1, o, NULL);
  node1(e->x, e->gp, "Not", t, e->outs[0], NULL);
  free(t);
  return MF_OK;
}

static mf_status emit_select(const emit *e, mf_error *err) {
  (void)err;
  node(e->x, e->gp, "Where", 3, e->ins, 1, OUTS(e), NULL);
  return MF_OK;
}

static mf_status emit_cast(const emit *e, mf_error *err) {
  pb a = {0};
  int ty = onnx_type(mf_attr_type(e->n->attrs, "DstT", MF_FLOAT32));
  if (!ty) return UNSUPPORTED("casts to a dtype ONNX export does not support");
  attr_int(&a, "to", ty);
  node1(e->x, e->gp, "Cast", e->ins[0], e->outs[0], &a);
  return MF_OK;
}

/* Softmax and LogSoftmax: TF's are over the last axis. */
static mf_status emit_softmax(const emit *e, mf_error *err) {
  (void)err;
  pb a = {0};
  attr_int(&a, "axis", -1);
  node1(e->x, e->gp, e->onnx, e->ins[0], e->outs[0], &a);
  return MF_OK;
}

/* MatMul and BatchMatMulV2: ONNX's MatMul has no transposes, so each
 * transposed input goes through a Transpose of its last two axes. */
static mf_status emit_matmul(const emit *e, mf_error *err) {
  const mf_node *n = e->n;
  pb a = {0};
  int64_t v[MF_MAX_RANK];
  bool ta = mf_attr_bool(n->attrs, "transpose_a", false) || mf_attr_bool(n->attrs, "adj_x", false);
  bool tb = mf_attr_bool(n->attrs, "transpose_b", false) || mf_attr_bool(n->attrs, "adj_y", false);
  char *t[2] = {NULL, NULL};
  const char *mm[2] = {e->ins[0], e->ins[1]};
  for (int k = 0; k < 2; k++) {
    if (!(k == 0 ? ta : tb)) continue;
    const mf_spec *s = &e->g->nodes[n->inputs[k].node].out_specs[n->inputs[k].index];
    if (s->rank < 2) return UNSUPPORTED("transposes an input of unknown rank");
    for (int d = 0; d < s->rank; d++) v[d] = d;
    v[s->rank - 2] = s->rank - 1;
    v[s->rank - 1] = s->rank - 2;
    attr_ints(&a, "perm", s->rank, v);
    t[k] = fresh(e->x, "transposed");
    node1(e->x, e->gp, "Transpose", e->ins[k], t[k], &a);
    mm[k] = t[k];
  }
  node(e->x, e->gp, "MatMul", 2, mm, 1, OUTS(e), NULL);
  free(t[0]);
  free(t[1]);
  return MF_OK;
}

/* Sum, Mean, Max, Min, Prod over constant axes. ReduceSum takes its axes
 * as an input from opset 13, the other reductions from opset 18 (before,
 * an attribute). */
static mf_status emit_reduce(const emit *e, mf_error *err) {
  const mf_node *n = e->n;
  pb a = {0};
  int64_t v[MF_MAX_RANK];
  int nv = 0;
  if (!const_ints(e->g, n->inputs[1], v, MF_MAX_RANK, &nv)) return UNSUPPORTED("has axes that are not constant");
  if (nv == 0) {
    node1(e->x, e->gp, "Identity", e->ins[0], e->outs[0], NULL);
    return MF_OK;
  }
  attr_int(&a, "keepdims", mf_attr_bool(n->attrs, "keep_dims", false));
  if (strcmp(e->onnx, "ReduceSum") == 0 || e->x->opset >= 18) {
    char *axes = const_i64(e->x, e->gp, nv, v, false, err);
    if (!axes) return err->status;
    const char *in2[2] = {e->ins[0], axes};
    node(e->x, e->gp, e->onnx, 2, in2, 1, OUTS(e), &a);
    free(axes);
  } else {
    attr_ints(&a, "axes", nv, v);
    node1(e->x, e->gp, e->onnx, e->ins[0], e->outs[0], &a);
  }
  return MF_OK;
}

static mf_status emit_reshape(const emit *e, mf_error *err) {
  pb a = {0};
  int64_t v[MF_MAX_RANK];
  int nv = 0;
  char *shape;
  if (const_ints(e->g, e->n->inputs[1], v, MF_MAX_RANK, &nv)) {
    if (!(shape = const_i64(e->x, e->gp, nv, v, false, err))) return err->status;
  } else {
    shape = fresh(e->x, "shape");
    attr_int(&a, "to", 7);
    node1(e->x, e->gp, "Cast", e->ins[1], shape, &a);
  }
  const char *in2[2] = {e->ins[0], shape};
  attr_int(&a, "allowzero", 1); /* TF: a 0 is a 0, not "copy" */
  node(e->x, e->gp, "Reshape", 2, in2, 1, OUTS(e), &a);
  free(shape);
  return MF_OK;
}

static mf_status emit_transpose(const emit *e, mf_error *err) {
  pb a = {0};
  int64_t v[MF_MAX_RANK];
  int nv = 0;
  if (!const_ints(e->g, e->n->inputs[1], v, MF_MAX_RANK, &nv)) return UNSUPPORTED("has a permutation that is not constant");
  attr_ints(&a, "perm", nv, v);
  node1(e->x, e->gp, "Transpose", e->ins[0], e->outs[0], &a);
  return MF_OK;
}

/* ExpandDims (ONNX Unsqueeze) and Squeeze, with their axes as a constant
 * input; no axes: a Squeeze of every size-1 axis. */
static mf_status emit_axes(const emit *e, int nv, const int64_t *v, mf_error *err) {
  if (nv == 0) {
    node1(e->x, e->gp, "Squeeze", e->ins[0], e->outs[0], NULL);
    return MF_OK;
  }
  char *axes = const_i64(e->x, e->gp, nv, v, false, err);
  if (!axes) return err->status;
  const char *in2[2] = {e->ins[0], axes};
  node(e->x, e->gp, e->onnx, 2, in2, 1, OUTS(e), NULL);
  free(axes);
  return MF_OK;
}

static mf_status emit_expand_dims(const emit *e, mf_error *err) {
  int64_t v[1];
  int nv = 0;
  if (!const_ints(e->g, e->n->inputs[1], v, 1, &nv)) return UNSUPPORTED("has an axis that is not constant");
  return emit_axes(e, nv, v, err);
}

static mf_status emit_squeeze(const emit *e, mf_error *err) {
  int64_t v[MF_ATTR_MAX_INTS + MF_MAX_RANK];
  const mf_attr *sd = mf_attrs_find(e->n->attrs, "squeeze_dims");
  int nv = sd ? sd->u.ints.n : 0;
  for (int k = 0; k < nv; k++) v[k] = sd->u.ints.v[k];
  return emit_axes(e, nv, v, err);
}

static mf_status emit_concat(const emit *e, mf_error *err) {
  const mf_node *n = e->n;
  pb a = {0};
  int64_t v[1];
  int nv = 0;
  if (!const_ints(e->g, n->inputs[n->nin - 1], v, 1, &nv) || nv != 1) return UNSUPPORTED("has an axis that is not constant");
  attr_int(&a, "axis", v[0]);
  node(e->x, e->gp, "Concat", n->nin - 1, e->ins, 1, OUTS(e), &a);
  return MF_OK;
}

/* ONNX's Shape is int64; TF's out_type may be int32. */
static mf_status emit_shape(const emit *e, mf_error *err) {
  (void)err;
  pb a = {0};
  char *t = fresh(e->x, "shape");
  node1(e->x, e->gp, "Shape", e->ins[0], t, NULL);
  attr_int(&a, "to", onnx_type(e->n->out_specs[0].dtype));
  node1(e->x, e->gp, "Cast", t, e->outs[0], &a);
  free(t);
  return MF_OK;
}

/* NHWC Conv2D as ONNX's NCHW Conv between transposes. */
static mf_status emit_conv2d(const emit *e, mf_error *err) {
  const mf_node *n = e->n;
  ex *x = e->x;
  pb a = {0};
  const char *fmt = mf_attr_string(n->attrs, "data_format", "NHWC");
  const char *pad = mf_attr_string(n->attrs, "padding", "VALID");
  if (strcmp(fmt, "NHWC") != 0) return UNSUPPORTED("uses a data_format other than NHWC");
  if (strcmp(pad, "SAME") != 0 && strcmp(pad, "VALID") != 0) return UNSUPPORTED("uses explicit padding");
  const mf_attr *st = mf_attrs_find(n->attrs, "strides"), *dl = mf_attrs_find(n->attrs, "dilations");
  char *xt = fresh(x, "nchw"), *ft = fresh(x, "oihw"), *yt = fresh(x, "conv");
  attr_ints(&a, "perm", 4, (const int64_t[]){0, 3, 1, 2});
  node1(x, e->gp, "Transpose", e->ins[0], xt, &a);
  attr_ints(&a, "perm", 4, (const int64_t[]){3, 2, 0, 1});
  node1(x, e->gp, "Transpose", e->ins[1], ft, &a);
  int64_t s2[2] = {st && st->u.ints.n == 4 ? st->u.ints.v[1] : 1, st && st->u.ints.n == 4 ? st->u.ints.v[2] : 1};
  int64_t d2[2] = {dl && dl->u.ints.n == 4 ? dl->u.ints.v[1] : 1, dl && dl->u.ints.n == 4 ? dl->u.ints.v[2] : 1};
  attr_ints(&a, "strides", 2, s2);
  attr_ints(&a, "dilations", 2, d2);
  attr_str(&a, "auto_pad", strcmp(pad, "SAME") == 0 ? "SAME_UPPER" : "VALID");
  const char *cin[2] = {xt, ft};
  const char *cout[1] = {yt};
  node(x, e->gp, "Conv", 2, cin, 1, cout, &a);
  attr_ints(&a, "perm", 4, (const int64_t[]){0, 2, 3, 1});
  node1(x, e->gp, "Transpose", yt, e->outs[0], &a);
  free(xt), free(ft), free(yt);
  return MF_OK;
}

/* A call of a function graph: its nodes inlined in the caller's. */
static mf_status emit_call(const emit *e, mf_error *err) {
  const mf_node *n = e->n;
  const mf_graph *f = mf_attrs_find(n->attrs, "f")->u.graph;
  char **fouts = calloc((size_t)f->noutputs + 1, sizeof *fouts);
  if (!fouts) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  mf_status s = emit_graph(e->x, f, e->gp, (char *const *)e->ins, fouts, err);
  for (int k = 0; s == MF_OK && k < f->noutputs && k < n->nout; k++) node1(e->x, e->gp, "Identity", fouts[k], e->outs[k], NULL);
  for (int k = 0; k < f->noutputs; k++) free(fouts[k]);
  free(fouts);
  return s;
}

/* One branch of an If as a subgraph attribute of a. */
static mf_status emit_branch(const emit *e, const char *which, pb *a, mf_error *err) {
  ex *x = e->x;
  const mf_graph *sub = mf_attrs_find(e->n->attrs, which)->u.graph;
  pb sg = {0};
  char bname[64];
  snprintf(bname, sizeof bname, "%s_%s_%d", e->n->name, which, x->counter++);
  pb_str(&sg, 2, bname);
  char **souts = calloc((size_t)sub->noutputs + 1, sizeof *souts);
  mf_status s = emit_graph(x, sub, &sg, (char *const *)(e->ins + 1), souts, err);
  for (int k = 0; s == MF_OK && k < sub->noutputs; k++) {
    /* each branch output through its own Identity: unique names */
    char *o = fresh(x, "branch_out");
    node1(x, &sg, "Identity", souts[k], o, NULL);
    mf_spec spec = sub->nodes[sub->outputs[k].node].out_specs[sub->outputs[k].index];
    value_info(&sg, 12, o, &spec, false);
    free(o);
  }
  for (int k = 0; k < sub->noutputs; k++) free(souts[k]);
  free(souts);
  if (s != MF_OK) {
    free(sg.p);
    return s;
  }
  attr_graph(a, which, &sg);
  return MF_OK;
}

/* If and StatelessIf as ONNX If, the condition cast to bool. */
static mf_status emit_if(const emit *e, mf_error *err) {
  const mf_node *n = e->n;
  ex *x = e->x;
  pb a = {0};
  const char *cond = e->ins[0];
  char *cast = NULL;
  const mf_spec *cs = &e->g->nodes[n->inputs[0].node].out_specs[n->inputs[0].index];
  if (cs->dtype != MF_BOOL) {
    cast = fresh(x, "cond");
    attr_int(&a, "to", 9);
    node1(x, e->gp, "Cast", cond, cast, &a);
    cond = cast;
  }
  const char *bn[2] = {"then_branch", "else_branch"};
  for (int b = 0; b < 2; b++) {
    mf_status s = emit_branch(e, bn[b], &a, err);
    if (s != MF_OK) {
      free(a.p);
      free(cast);
      return s;
    }
  }
  node(x, e->gp, "If", 1, &cond, n->nout, OUTS(e), &a);
  free(cast);
  return MF_OK;
}

/* The Loop's body: (iteration, condition, vars...) -> (condition,
 * vars...), the body graph then the cond graph on its results; added to
 * a as attribute "body". */
static mf_status emit_loop_body(const emit *e, const mf_graph *cg, const mf_graph *bg, pb *a,
                                mf_error *err) {
  const mf_node *n = e->n;
  ex *x = e->x;
  pb sg = {0};
  char bname[64];
  snprintf(bname, sizeof bname, "%s_body_%d", n->name, x->counter++);
  pb_str(&sg, 2, bname);
  char *iter = fresh(x, "iter"), *cin = fresh(x, "cond_in");
  mf_spec is = {.dtype = MF_INT64, .rank = 0}, bs = {.dtype = MF_BOOL, .rank = 0};
  value_info(&sg, 11, iter, &is, true);
  value_info(&sg, 11, cin, &bs, true);
  char **vars = calloc((size_t)n->nin + 1, sizeof *vars), **nv2 = calloc((size_t)n->nin + 1, sizeof *nv2);
  for (int k = 0; k < n->nin; k++) {
    vars[k] = fresh(x, "loop_var");
    value_info(&sg, 11, vars[k], &e->g->nodes[n->inputs[k].node].out_specs[n->inputs[k].index], false);
  }
  char *cnext = NULL;
  mf_status s = emit_graph(x, bg, &sg, vars, nv2, err);
  if (s == MF_OK) s = emit_graph(x, cg, &sg, nv2, &cnext, err);
  if (s == MF_OK) {
    char *co = fresh(x, "cond_out");
    attr_int(a, "to", 9);
    node1(x, &sg, "Cast", cnext, co, a);
    value_info(&sg, 12, co, &bs, true);
    free(co);
    for (int k = 0; k < n->nin; k++) {
      char *o = fresh(x, "loop_out");
      node1(x, &sg, "Identity", nv2[k], o, NULL);
      value_info(&sg, 12, o, &bg->nodes[bg->outputs[k].node].out_specs[bg->outputs[k].index], false);
      free(o);
    }
    attr_graph(a, "body", &sg);
  }
  free(sg.p);
  for (int k = 0; k < n->nin; k++) free(vars[k]), free(nv2[k]);
  free(vars), free(nv2), free(iter), free(cin), free(cnext);
  return s;
}

/* While and StatelessWhile as ONNX Loop: the first test outside it, each
 * later one at the end of the body. */
static mf_status emit_while(const emit *e, mf_error *err) {
  const mf_node *n = e->n;
  ex *x = e->x;
  pb a = {0};
  const mf_graph *cg = mf_attrs_find(n->attrs, "cond")->u.graph;
  const mf_graph *bg = mf_attrs_find(n->attrs, "body")->u.graph;
  if (cg->noutputs != 1 || bg->noutputs != n->nin) return UNSUPPORTED("has a cond or body of unexpected arity");
  char *c0 = NULL, *c0b = fresh(x, "cond0");
  mf_status s = emit_graph(x, cg, e->gp, (char *const *)e->ins, &c0, err);
  if (s != MF_OK) {
    free(c0), free(c0b);
    return s;
  }
  attr_int(&a, "to", 9);
  node1(x, e->gp, "Cast", c0, c0b, &a);
  s = emit_loop_body(e, cg, bg, &a, err);
  if (s == MF_OK) {
    const char **lin = calloc((size_t)n->nin + 3, sizeof *lin);
    lin[0] = "";
    lin[1] = c0b;
    for (int k = 0; k < n->nin; k++) lin[2 + k] = e->ins[k];
    node(x, e->gp, "Loop", n->nin + 2, lin, n->nout, OUTS(e), &a);
    free(lin);
  }
  free(c0), free(c0b);
  return s;
}

/* Each op with an ONNX form: its emitter, and the ONNX op for the
 * emitters several ops share. One entry per op; tests/core/
 * test_onnx_export.c checks that every name is a registered op. */
static const struct onnx_entry {
  const char *tf;
  emitter emit;
  const char *onnx;
} onnx_ops[] = {
    {"Neg", emit_unary, "Neg"},
    {"Abs", emit_unary, "Abs"},
    {"Sign", emit_unary, "Sign"},
    {"Sqrt", emit_unary, "Sqrt"},
    {"Exp", emit_unary, "Exp"},
    {"Log", emit_unary, "Log"},
    {"Sin", emit_unary, "Sin"},
    {"Cos", emit_unary, "Cos"},
    {"Tanh", emit_unary, "Tanh"},
    {"Sigmoid", emit_unary, "Sigmoid"},
    {"Floor", emit_unary, "Floor"},
    {"Ceil", emit_unary, "Ceil"},
    {"Reciprocal", emit_unary, "Reciprocal"},
    {"Relu", emit_unary, "Relu"},
    {"LogicalNot", emit_unary, "Not"},
    {"Round", emit_unary, "Round"},
    {"Identity", emit_unary, "Identity"},
    {"StopGradient", emit_unary, "Identity"},
    {"IdentityN", emit_identity_n, "Identity"},
    {"ReadVariableOp", emit_unary, "Identity"},
    {"AddV2", emit_binary, "Add"},
    {"Sub", emit_binary, "Sub"},
    {"Mul", emit_binary, "Mul"},
    {"RealDiv", emit_binary, "Div"},
    {"Pow", emit_binary, "Pow"},
    {"Maximum", emit_binary, "Max"},
    {"Minimum", emit_binary, "Min"},
    {"Equal", emit_binary, "Equal"},
    {"Less", emit_binary, "Less"},
    {"LessEqual", emit_binary, "LessOrEqual"},
    {"Greater", emit_binary, "Greater"},
    {"GreaterEqual", emit_binary, "GreaterOrEqual"},
    {"LogicalAnd", emit_binary, "And"},
    {"LogicalOr", emit_binary, "Or"},
    {"BiasAdd", emit_binary, "Add"},
    {"Const", emit_const, NULL},
    {"Square", emit_square, NULL},
    {"Rsqrt", emit_rsqrt, NULL},
    {"NotEqual", emit_not_equal, NULL},
    {"SelectV2", emit_select, NULL},
    {"Cast", emit_cast, NULL},
    {"Softmax", emit_softmax, "Softmax"},
    {"LogSoftmax", emit_softmax, "LogSoftmax"},
    {"MatMul", emit_matmul, NULL},
    {"BatchMatMulV2", emit_matmul, NULL},
    {"Sum", emit_reduce, "ReduceSum"},
    {"Mean", emit_reduce, "ReduceMean"},
    {"Max", emit_reduce, "ReduceMax"},
    {"Min", emit_reduce, "ReduceMin"},
    {"Prod", emit_reduce, "ReduceProd"},
    {"Reshape", emit_reshape, NULL},
    {"Transpose", emit_transpose, NULL},
    {"ExpandDims", emit_expand_dims, "Unsqueeze"},
    {"Squeeze", emit_squeeze, "Squeeze"},
    {"ConcatV2", emit_concat, NULL},
    {"Shape", emit_shape, NULL},
    {"Conv2D", emit_conv2d, NULL},
    {"PartitionedCall", emit_call, NULL},
    {"StatefulPartitionedCall", emit_call, NULL},
    {"If", emit_if, NULL},
    {"StatelessIf", emit_if, NULL},
    {"While", emit_while, NULL},
    {"StatelessWhile", emit_while, NULL},
    /* issue 28's unary math and activations: ONNX's operators of the same
     * definition (Selu's and Elu's default attributes are TF's constants;
     * Round rounds halves to even, as Rint) */
    {"Sinh", emit_unary, "Sinh"},
    {"Cosh", emit_unary, "Cosh"},
    {"Tan", emit_unary, "Tan"},
    {"Asin", emit_unary, "Asin"},
    {"Acos", emit_unary, "Acos"},
    {"Atan", emit_unary, "Atan"},
    {"Asinh", emit_unary, "Asinh"},
    {"Acosh", emit_unary, "Acosh"},
    {"Atanh", emit_unary, "Atanh"},
    {"Erf", emit_unary, "Erf"},
    {"Rint", emit_unary, "Round"},
    {"IsNan", emit_unary, "IsNaN"},
    {"IsInf", emit_unary, "IsInf"},
    {"Softplus", emit_unary, "Softplus"},
    {"Softsign", emit_unary, "Softsign"},
    {"Elu", emit_unary, "Elu"},
    {"Selu", emit_unary, "Selu"},
};

enum { ONNX_OPS = sizeof onnx_ops / sizeof onnx_ops[0] };

int mf_onnx_op_count(void) { return ONNX_OPS; }
const char *mf_onnx_op_name(int i) { return i >= 0 && i < ONNX_OPS ? onnx_ops[i].tf : NULL; }

/* Emits node i of g. ins: its input value names; outs: its output names. */
static mf_status emit_node(ex *x, const mf_graph *g, int i, pb *gp, const char **ins, char **outs,
                           mf_error *err) {
  const mf_node *n = &g->nodes[i];
  for (int k = 0; k < ONNX_OPS; k++)
    if (strcmp(n->op->name, onnx_ops[k].tf) == 0) {
      emit e = {x, g, n, gp, ins, outs, onnx_ops[k].onnx};
      return onnx_ops[k].emit(&e, err);
    }
  return mf_error_set(err, MF_ERR_UNIMPLEMENTED, "ONNX export: op %s (node '%s') %s", n->op->name,
                      n->name, "has no ONNX translation");
}

/* Emits g's nodes into gp; its inputs are the values in_names; writes
 * malloc'd names of its outputs to out_names. */
static mf_status emit_graph(ex *x, const mf_graph *g, pb *gp, char *const *in_names,
                            char **out_names, mf_error *err) {
  int prefix = x->counter++;
  char ***vals = calloc((size_t)g->nnodes + 1, sizeof *vals);
  if (!vals) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  mf_status s = MF_OK;
  for (int i = 0; s == MF_OK && i < g->nnodes; i++) {
    const mf_node *n = &g->nodes[i];
    vals[i] = calloc((size_t)n->nout + 1, sizeof **vals);
    if (strcmp(n->op->name, "Placeholder") == 0) {
      int k = -1;
      for (int j = 0; j < g->ninputs; j++)
        if (g->inputs[j] == i) k = j;
      if (k < 0) {
        s = mf_error_set(err, MF_ERR_UNIMPLEMENTED, "ONNX export: Placeholder '%s' is not a graph input", n->name);
        break;
      }
      vals[i][0] = strdup(in_names[k]);
      continue;
    }
    for (int k = 0; k < n->nout; k++) {
      char buf[512];
      snprintf(buf, sizeof buf, "s%d/%s:%d", prefix, n->name, k);
      vals[i][k] = strdup(buf);
    }
    const char *ins[64];
    if (n->nin > 64) {
      s = mf_error_set(err, MF_ERR_UNIMPLEMENTED, "ONNX export: node '%s' has too many inputs", n->name);
      break;
    }
    for (int k = 0; k < n->nin; k++) ins[k] = vals[n->inputs[k].node][n->inputs[k].index];
    if (n->nout == 0 && strcmp(n->op->name, "NoOp") == 0) continue;
    s = emit_node(x, g, i, gp, ins, vals[i], err);
  }
  for (int k = 0; s == MF_OK && k < g->noutputs; k++)
    out_names[k] = strdup(vals[g->outputs[k].node][g->outputs[k].index]);
  for (int i = 0; i < g->nnodes; i++) {
    for (int k = 0; vals[i] && k < g->nodes[i].nout; k++) free(vals[i][k]);
    free(vals[i]);
  }
  free(vals);
  return s;
}

mf_status mf_onnx_export(const mf_graph *g, int nargs, const char *const *arg_names, int ncaptures,
                         mf_tensor *const *captures, int opset, unsigned char **out, size_t *len,
                         mf_error *err) {
  if (opset < 17)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "ONNX export: opset %d is too old (17 or newer)", opset);
  if (nargs + ncaptures != g->ninputs)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "ONNX export: the graph takes %d inputs, not %d + %d",
                        g->ninputs, nargs, ncaptures);
  ex x = {opset, 0};
  pb gp = {0};
  pb_str(&gp, 2, g->name ? g->name : "moonflow");
  char **in_names = calloc((size_t)g->ninputs + 1, sizeof *in_names);
  char **outs = calloc((size_t)g->noutputs + 1, sizeof *outs);
  mf_status s = in_names && outs ? MF_OK : mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  for (int i = 0; s == MF_OK && i < g->ninputs; i++) {
    const mf_spec *sp = &g->nodes[g->inputs[i]].out_specs[0];
    if (i < nargs) {
      in_names[i] = strdup(arg_names[i]);
      if (!onnx_type(sp->dtype))
        s = mf_error_set(err, MF_ERR_UNIMPLEMENTED, "ONNX export: argument '%s' is %s", arg_names[i],
                         mf_dtype_name(sp->dtype));
      else
        value_info(&gp, 11, in_names[i], sp, true);
    } else {
      char buf[300];
      snprintf(buf, sizeof buf, "capture_%d/%s", i - nargs, g->nodes[g->inputs[i]].name);
      in_names[i] = strdup(buf);
      s = initializer(&gp, in_names[i], captures[i - nargs], err);
    }
  }
  if (s == MF_OK) s = emit_graph(&x, g, &gp, in_names, outs, err);
  for (int k = 0; s == MF_OK && k < g->noutputs; k++) {
    char o[32];
    snprintf(o, sizeof o, "output_%d", k);
    node1(&x, &gp, "Identity", outs[k], o, NULL);
    mf_spec sp = g->nodes[g->outputs[k].node].out_specs[g->outputs[k].index];
    value_info(&gp, 12, o, &sp, true);
  }
  for (int i = 0; in_names && i < g->ninputs; i++) free(in_names[i]);
  for (int k = 0; outs && k < g->noutputs; k++) free(outs[k]);
  free(in_names);
  free(outs);
  if (s != MF_OK) {
    free(gp.p);
    return s;
  }
  pb m = {0}, os = {0};
  pb_int(&m, 1, 8); /* IR version 8: opsets 17 and 18 */
  pb_str(&m, 2, "moonflow");
  pb_str(&m, 3, MF_VERSION);
  pb_msg(&m, 7, &gp);
  pb_str(&os, 1, "");
  pb_int(&os, 2, opset);
  pb_msg(&m, 8, &os);
  if (m.oom) {
    free(m.p);
    return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory writing the ONNX model");
  }
  *out = m.p;
  *len = m.n;
  return MF_OK;
}
