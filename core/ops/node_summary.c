/* node_summary.c — TF's graph-construction error (node_summary.h): the
 * texts of tensorflow/core/framework/shape_inference.cc (AttachContext,
 * DebugString), node_def_util.cc (SummarizeNodeDef, SummarizeAttrsHelper),
 * attr_value_util.cc (SummarizeAttrValue) and tensor.cc (SummarizeValue,
 * print_v2 = false), for the node moonflow was about to add. */
#include "node_summary.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "partial.h"

/* A bounded string: appends what fits, always terminated. */
typedef struct text {
  char *s;
  size_t cap, len;
} text;

static void put(text *t, const char *s) {
  size_t n = strlen(s);
  if (t->len + 1 >= t->cap) return;
  if (n > t->cap - 1 - t->len) n = t->cap - 1 - t->len;
  memcpy(t->s + t->len, s, n);
  t->len += n;
  t->s[t->len] = '\0';
}

static void putf(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(text *t, const char *fmt, ...) {
  char buf[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  put(t, buf);
}

/* EnumName_DataType. */
static const char *dt_enum(mf_dtype dt) {
  return dt == MF_VARIANT ? "DT_INVALID" : mf_dtype_enum_name(dt);
}

/* InferenceContext::DebugString of a shape ("?" for an unknown rank), or
 * PartialTensorShape::DebugString ("<unknown>") for a shape attribute. */
static void put_shape(text *t, int rank, const int64_t *dims, const char *unknown_rank) {
  if (rank < 0) {
    put(t, unknown_rank);
    return;
  }
  put(t, "[");
  for (int i = 0; i < rank; i++) {
    if (i) put(t, ",");
    if (dims[i] < 0) put(t, "?");
    else putf(t, "%lld", (long long)dims[i]);
  }
  put(t, "]");
}

/* ---- Tensor::SummarizeValue(max_entries, print_v2 = false) ---- */

static void put_element(text *t, const mf_tensor *v, int64_t i) {
  char buf[64];
  switch (v->dtype) {
    case MF_FLOAT32: mf_format_tf_float(MF_DATA(v, float)[i], true, buf, sizeof buf); break;
    case MF_FLOAT64: mf_format_tf_float(MF_DATA(v, double)[i], false, buf, sizeof buf); break;
    case MF_INT32:
    case MF_INT64: snprintf(buf, sizeof buf, "%lld", (long long)mf_tensor_get_i64(v, i)); break;
    case MF_BOOL: snprintf(buf, sizeof buf, "%d", MF_DATA(v, bool)[i] ? 1 : 0); break;
    case MF_STRING: {
      const mf_string *s = &MF_DATA(v, mf_string)[i];
      snprintf(buf, sizeof buf, "%.*s", (int)(s->len < 60 ? s->len : 60), s->ptr);
      break;
    }
    default: snprintf(buf, sizeof buf, "<ResourceHandle>"); break;
  }
  put(t, buf);
}

/* PrintOneDim: nested brackets for every axis but the last, elements
 * separated by spaces, "..." where the limit cuts a row. */
static void put_dim(text *t, const mf_tensor *v, int dim, int64_t limit, int64_t *index) {
  if (*index >= limit) return;
  int64_t count = v->shape[dim];
  if (dim == v->rank - 1) {
    for (int64_t i = 0; i < count; i++) {
      if (*index >= limit) {
        if (dim != 0) put(t, "...");
        return;
      }
      if (i > 0) put(t, " ");
      put_element(t, v, (*index)++);
    }
    return;
  }
  for (int64_t i = 0; i < count; i++) {
    bool open = *index < limit;
    if (open) put(t, "[");
    put_dim(t, v, dim + 1, limit, index);
    if (*index < limit || open) put(t, "]");
  }
}

static void put_values(text *t, const mf_tensor *v, int64_t max_entries) {
  int64_t limit = v->size < max_entries ? v->size : max_entries;
  if (v->rank == 0) {
    for (int64_t i = 0; i < limit; i++) put_element(t, v, i);
  } else {
    int64_t index = 0;
    put_dim(t, v, 0, limit, &index);
  }
  if (v->size > limit) put(t, "...");
}

/* ---- SummarizeAttrValue ---- */

/* SummarizeString: C-escaped in quotes, the middle of a long one elided. */
static void put_string(text *t, const char *s) {
  char esc[512];
  size_t n = 0;
  for (const unsigned char *p = (const unsigned char *)s; *p && n + 5 < sizeof esc; p++) {
    const char *e = *p == '\n' ? "\\n" : *p == '\r' ? "\\r" : *p == '\t' ? "\\t"
                    : *p == '"' ? "\\\"" : *p == '\'' ? "\\'" : *p == '\\' ? "\\\\" : NULL;
    if (e) n += (size_t)snprintf(esc + n, sizeof esc - n, "%s", e);
    else if (*p < 0x20 || *p >= 0x7f) n += (size_t)snprintf(esc + n, sizeof esc - n, "\\%03o", *p);
    else esc[n++] = (char)*p;
  }
  esc[n] = '\0';
  if (n >= 80) putf(t, "\"%.10s...%s\"", esc, esc + n - 10);
  else putf(t, "\"%s\"", esc);
}

static void put_attr_value(text *t, const mf_attr *a) {
  char buf[64];
  switch (a->kind) {
    case MF_ATTR_INT: putf(t, "%lld", (long long)a->u.i); break;
    case MF_ATTR_FLOAT:
      mf_format_tf_float(a->u.f, true, buf, sizeof buf); /* AttrValue.f is a float */
      put(t, buf);
      break;
    case MF_ATTR_BOOL: put(t, a->u.b ? "true" : "false"); break;
    case MF_ATTR_TYPE: put(t, dt_enum(a->u.type)); break;
    case MF_ATTR_INTS: {
      /* Lists of 15 and more keep their first 5 and last 5 around "...";
       * moonflow's hold at most MF_ATTR_MAX_INTS. */
      put(t, "[");
      for (int i = 0; i < a->u.ints.n; i++) putf(t, "%s%lld", i ? ", " : "", (long long)a->u.ints.v[i]);
      put(t, "]");
      break;
    }
    case MF_ATTR_SHAPE: put_shape(t, a->u.ints.n, a->u.ints.v, "<unknown>"); break;
    case MF_ATTR_STRING: put_string(t, a->u.s ? a->u.s : ""); break;
    case MF_ATTR_TENSOR: {
      /* Tensor::DebugString(3) */
      const mf_tensor *v = a->u.tensor;
      putf(t, "Tensor<type: %s shape: ", mf_dtype_kernel_name(v->dtype));
      put_shape(t, v->rank, v->shape, "<unknown>");
      put(t, " values: ");
      put_values(t, v, 3);
      put(t, ">");
      break;
    }
    case MF_ATTR_GRAPH: /* SummarizeFunc: a function's name and its (no) attrs */
      putf(t, "%s[]", a->u.graph && a->u.graph->name ? a->u.graph->name : "");
      break;
    case MF_ATTR_CALLBACK: put(t, "<Unknown AttrValue type>"); break;
  }
}

/* ---- the attributes TF's NodeDef holds (op.h's tf_attrs) ---- */

typedef struct entry {
  char name[MF_ATTR_NAME_MAX];
  char value[256];
} entry;

static int by_name(const void *a, const void *b) {
  return strcmp(((const entry *)a)->name, ((const entry *)b)->name);
}

/* Fills out[] with the node's attributes, sorted by name as
 * SummarizeAttrsHelper sorts them; returns how many. */
static int node_attrs(const mf_op_call *c, entry *out, int cap) {
  const char *spec = c->op->tf_attrs ? c->op->tf_attrs : c->nin > 0 ? "T:0" : "";
  int n = 0;
  for (const char *p = spec; *p && n < cap;) {
    while (*p == ' ') p++;
    size_t len = strcspn(p, " ");
    if (len == 0) break;
    char tok[128];
    snprintf(tok, sizeof tok, "%.*s", (int)len, p);
    p += len;
    entry *e = &out[n];
    text v = {e->value, sizeof e->value, 0};
    e->value[0] = '\0';
    char *rest = strpbrk(tok, ":=");
    char kind = rest ? *rest : '\0';
    if (rest) *rest++ = '\0';
    size_t name_len = strnlen(tok, sizeof e->name - 1);
    memcpy(e->name, tok, name_len);
    e->name[name_len] = '\0';
    const mf_attr *own = mf_attrs_find(c->attrs, tok);
    if (kind == ':' && rest[0] == '#') {
      putf(&v, "%d", c->nin - (rest[1] == '-' ? atoi(rest + 2) : 0));
    } else if (kind == ':') {
      int i = atoi(rest);
      if (i < 0) i += c->nin;
      if (i < 0 || i >= c->nin) continue;
      put(&v, dt_enum(c->in_specs[i].dtype));
    } else if (own) {
      put_attr_value(&v, own);
    } else if (kind == '=') {
      /* TF's default, lists written without spaces: "[1,1]" is "[1, 1]". */
      for (const char *q = rest; *q; q++) put(&v, *q == ',' ? ", " : (char[2]){*q, '\0'});
    } else {
      continue;
    }
    n++;
  }
  qsort(out, (size_t)n, sizeof *out, by_name);
  return n;
}

void mf_node_summary(const mf_graph *g, const char *name, const mf_op_call *c,
                     const mf_tensor_ref *inputs, char *buf, size_t n) {
  text t = {buf, n, 0};
  if (n) buf[0] = '\0';
  putf(&t, "{{node %s}} = %s[", name, c->op->name);
  entry attrs[MF_ATTR_MAX + 8];
  int na = node_attrs(c, attrs, (int)(sizeof attrs / sizeof attrs[0]));
  for (int i = 0; i < na; i++) {
    putf(&t, "%s%s=", i ? ", " : "", attrs[i].name);
    put(&t, attrs[i].value);
  }
  put(&t, "](");
  for (int i = 0; i < c->nin; i++) {
    const mf_tensor_ref r = inputs[i];
    if (i) put(&t, ", ");
    put(&t, r.node >= 0 && r.node < g->nnodes ? g->nodes[r.node].name : "?");
    if (r.index > 0) putf(&t, ":%d", r.index);
  }
  put(&t, ")");
}

/* Whether a known vector is a shape (ShapeRefiner's partial shape of a
 * known vector: -1 an unknown dimension, nothing below). */
static bool partial_shape(const mf_tensor *v) {
  if (!v || v->rank != 1 || (v->dtype != MF_INT32 && v->dtype != MF_INT64)) return false;
  for (int64_t i = 0; i < v->size; i++)
    if (mf_tensor_get_i64(v, i) < -1) return false;
  return true;
}

/* The shape input i holds when the shape function read it as one
 * (ConstantPartialShape's): its value, or while that is not known its
 * partial value (partial.h); false when neither is a shape of at most
 * `cap` dimensions. */
static bool shape_read(const mf_op_call *c, int i, int64_t *dims, int cap, int *rank) {
  if (i >= 32 || !(c->requested_shape >> i & 1)) return false;
  const mf_tensor *v = c->in[i];
  const mf_partial *p = mf_input_partial(c, i);
  if (v ? !partial_shape(v) || v->size > cap : !p || p->n > cap) return false;
  *rank = v ? (int)v->size : p->n;
  for (int k = 0; k < *rank; k++) {
    dims[k] = v ? mf_tensor_get_i64(v, k) : p->v[k];
    if (dims[k] < -1) return false;
  }
  return true;
}

mf_status mf_node_construction_error(const mf_graph *g, const char *name, const mf_op_call *c,
                                     const mf_tensor_ref *inputs, mf_error *err) {
  if (err->status != MF_ERR_INVALID_ARGUMENT) return err->status;
  char message[MF_ERROR_MESSAGE_MAX];
  snprintf(message, sizeof message, "%s", err->message);
  /* The eager tag: a graph's message names the node instead. */
  char *tag = strstr(message, " [Op:");
  for (char *next = tag; next; next = strstr(next + 1, " [Op:")) tag = next;
  if (tag && strchr(tag, ']') == message + strlen(message) - 1) *tag = '\0';

  text t = {err->message, sizeof err->message, 0};
  err->message[0] = '\0';
  put(&t, message);
  put(&t, " for '");
  char summary[MF_ERROR_MESSAGE_MAX];
  mf_node_summary(g, name, c, inputs, summary, sizeof summary);
  put(&t, summary);
  put(&t, "' with input shapes: ");
  for (int i = 0; i < c->nin; i++) {
    if (i) put(&t, ", ");
    put_shape(&t, c->in_specs[i].rank, c->in_specs[i].shape, "?");
  }
  /* The values the shape function read: as tensors, and as shapes. */
  int64_t dims[MF_MAX_RANK * 4];
  int rank;
  const char *lead = " and with computed input tensors: ";
  for (int i = 0; i < c->nin && i < 32; i++) {
    const mf_tensor *v = c->in[i];
    bool as_shape = shape_read(c, i, dims, (int)(sizeof dims / sizeof dims[0]), &rank);
    if (!v || as_shape || !(c->requested >> i & 1)) continue;
    putf(&t, "%sinput[%d] = <", lead, i);
    put_values(&t, v, 256);
    put(&t, ">");
    lead = ", ";
  }
  lead = " and with input tensors computed as partial shapes: ";
  for (int i = 0; i < c->nin && i < 32; i++) {
    if (!shape_read(c, i, dims, (int)(sizeof dims / sizeof dims[0]), &rank)) continue;
    putf(&t, "%sinput[%d] = ", lead, i);
    put_shape(&t, rank, dims, "?");
    lead = ",";
  }
  put(&t, ".");
  err->status = MF_ERR_VALUE;
  return MF_ERR_VALUE;
}
