/* graph_io.c — graphs <-> JSON, validated on the way in (see graph_io.h). */
#include "graph_io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

#define BAD(...) mf_error_set(err, MF_ERR_INVALID_ARGUMENT, __VA_ARGS__)
/* Graph nesting (cond in while in ...) a saved file may use: bounded so a
 * hostile file cannot exhaust the stack. */
#define MAX_DEPTH 32
#define MAX_INPUTS 65536
#define MAX_NAME 256

/* ---- base64 ---- */

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static char *b64_encode(const unsigned char *p, size_t n) {
  char *o = mf_malloc((n + 2) / 3 * 4 + 1), *q = o;
  if (!o) return NULL;
  for (size_t i = 0; i < n; i += 3) {
    uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) |
                 (i + 2 < n ? p[i + 2] : 0);
    *q++ = b64[v >> 18 & 63];
    *q++ = b64[v >> 12 & 63];
    *q++ = i + 1 < n ? b64[v >> 6 & 63] : '=';
    *q++ = i + 2 < n ? b64[v & 63] : '=';
  }
  *q = 0;
  return o;
}

static int b64_val(char c) {
  const char *p = c ? strchr(b64, c) : NULL;
  return p ? (int)(p - b64) : -1;
}

/* Decodes exactly `want` bytes into out: the text must be the canonical
 * encoding of that many bytes (length and padding); false otherwise. */
static bool b64_decode(const char *s, size_t len, unsigned char *out, size_t want) {
  if (want > SIZE_MAX / 2 || len != (want + 2) / 3 * 4) return false;
  size_t pad = want % 3 ? 3 - want % 3 : 0, o = 0;
  for (size_t i = 0; i < len; i += 4) {
    int v[4];
    for (int k = 0; k < 4; k++) {
      bool tail = i + 4 == len && k >= 4 - (int)pad;
      if (tail != (s[i + k] == '=')) return false;
      v[k] = tail ? 0 : b64_val(s[i + k]);
      if (v[k] < 0) return false;
    }
    uint32_t x = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (uint32_t)v[2] << 6 | (uint32_t)v[3];
    unsigned char bytes[3] = {(unsigned char)(x >> 16), (unsigned char)(x >> 8), (unsigned char)x};
    for (int k = 0; k < 3 && o < want; k++) out[o++] = bytes[k];
  }
  return o == want;
}

/* ---- specs and tensors ---- */

static json_t *shape_json(int rank, const int64_t *shape) {
  if (rank < 0) return json_null();
  json_t *a = json_array();
  for (int i = 0; i < rank; i++) json_array_append_new(a, json_integer(shape[i]));
  return a;
}

static mf_status shape_from_json(const json_t *j, bool allow_unknown, int *rank, int64_t *shape,
                                 mf_error *err) {
  if (json_is_null(j) && allow_unknown) {
    *rank = -1;
    return MF_OK;
  }
  if (!json_is_array(j)) return BAD("a shape is not a list of integers");
  if (json_array_size(j) > MF_MAX_RANK) return BAD("a shape has rank above %d", MF_MAX_RANK);
  *rank = (int)json_array_size(j);
  for (int i = 0; i < *rank; i++) {
    json_t *d = json_array_get(j, (size_t)i);
    if (!json_is_integer(d)) return BAD("a shape holds a non-integer");
    shape[i] = json_integer_value(d);
    if (shape[i] < (allow_unknown ? -1 : 0)) return BAD("a shape holds dimension %lld", (long long)shape[i]);
  }
  return MF_OK;
}

/* Resource is a dtype of specs (variable handles fed to a graph), never of
 * saved tensor data. */
static mf_status dtype_from_json(const json_t *j, bool allow_resource, mf_dtype *dt, mf_error *err) {
  if (!json_is_string(j) || !mf_dtype_from_name(json_string_value(j), dt) ||
      (*dt == MF_RESOURCE && !allow_resource))
    return BAD("'%s' is not a dtype", json_is_string(j) ? json_string_value(j) : "?");
  return MF_OK;
}

json_t *mf_spec_to_json(const mf_spec *s) {
  return json_pack("{s:s, s:o}", "dtype", mf_dtype_name(s->dtype), "shape",
                   shape_json(s->rank, s->shape));
}

mf_status mf_spec_from_json(const json_t *j, mf_spec *out, mf_error *err) {
  if (!json_is_object(j)) return BAD("a spec is not an object");
  memset(out, 0, sizeof *out);
  MF_TRY(dtype_from_json(json_object_get(j, "dtype"), true, &out->dtype, err));
  return shape_from_json(json_object_get(j, "shape"), true, &out->rank, out->shape, err);
}

mf_status mf_tensor_to_json(const mf_tensor *t, json_t **out, mf_error *err) {
  if (t->dtype == MF_RESOURCE)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "a resource tensor cannot be saved");
  if (t->dtype == MF_VARIANT)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "a variant tensor (a dataset, an iterator) cannot be saved");
  json_t *j = json_pack("{s:s, s:o}", "dtype", mf_dtype_name(t->dtype), "shape",
                        shape_json(t->rank, t->shape));
  if (!j) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  if (t->dtype == MF_STRING) {
    json_t *a = json_array();
    const mf_string *s = mf_tensor_data(t);
    for (int64_t i = 0; i < t->size; i++) {
      char *e = b64_encode((const unsigned char *)s[i].ptr, s[i].len);
      json_array_append_new(a, json_string(e ? e : ""));
      free(e);
    }
    json_object_set_new(j, "strings", a);
  } else {
    char *e = b64_encode(mf_tensor_data(t), (size_t)t->size * mf_dtype_size(t->dtype));
    if (!e) {
      json_decref(j);
      return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
    }
    json_object_set_new(j, "data", json_string(e));
    free(e);
  }
  *out = j;
  return MF_OK;
}

mf_status mf_tensor_from_json(const json_t *j, mf_tensor **out, mf_error *err) {
  if (!json_is_object(j)) return BAD("a tensor is not an object");
  mf_dtype dt;
  int rank;
  int64_t shape[MF_MAX_RANK], count;
  MF_TRY(dtype_from_json(json_object_get(j, "dtype"), false, &dt, err));
  MF_TRY(shape_from_json(json_object_get(j, "shape"), false, &rank, shape, err));
  MF_TRY(mf_shape_size(rank, shape, &count, err));
  json_t *data = json_object_get(j, "data"), *strings = json_object_get(j, "strings");
  if (dt == MF_STRING) {
    if (!json_is_array(strings) || json_array_size(strings) != (size_t)count)
      return BAD("a string tensor of %lld elements has no list of as many strings",
                 (long long)count);
  } else {
    if (!json_is_string(data)) return BAD("a tensor has no base64 'data'");
    size_t len = json_string_length(data);
    if ((uint64_t)count > SIZE_MAX / 16 || len != ((size_t)count * mf_dtype_size(dt) + 2) / 3 * 4)
      return BAD("a %s tensor of shape with %lld elements has %zu base64 characters of data",
                 mf_dtype_name(dt), (long long)count, len);
  }
  mf_tensor *t;
  MF_TRY(mf_tensor_zeros(dt, rank, shape, &t, err));
  if (dt == MF_STRING) {
    mf_string *s = mf_tensor_data(t);
    for (int64_t i = 0; i < count; i++) {
      json_t *e = json_array_get(strings, (size_t)i);
      size_t len = json_is_string(e) ? json_string_length(e) : 1;
      unsigned char *b = mf_malloc(len / 4 * 3 + 1);
      const char *txt = json_is_string(e) ? json_string_value(e) : "";
      size_t n = len / 4 * 3;
      if (len >= 4 && txt[len - 1] == '=') n--;
      if (len >= 4 && txt[len - 2] == '=') n--;
      bool ok = b && json_is_string(e) && b64_decode(txt, len, b, n);
      mf_status st = ok ? mf_string_set(&s[i], (const char *)b, n, err) : BAD("a string element is not base64");
      free(b);
      if (st != MF_OK) {
        mf_tensor_release(t);
        return st;
      }
    }
  } else if (!b64_decode(json_string_value(data), json_string_length(data), mf_tensor_data(t),
                         (size_t)count * mf_dtype_size(dt))) {
    mf_tensor_release(t);
    return BAD("a %s tensor's data is not base64 of exactly %lld elements", mf_dtype_name(dt),
               (long long)count);
  }
  if (dt == MF_BOOL)
    for (int64_t i = 0; i < count; i++)
      if (((unsigned char *)mf_tensor_data(t))[i] > 1) {
        mf_tensor_release(t);
        return BAD("a bool tensor holds a byte other than 0 or 1");
      }
  *out = t;
  return MF_OK;
}

/* ---- graphs out ---- */

static mf_status graph_json(const mf_graph *g, json_t **out, mf_error *err);

static mf_status attr_json(const mf_node *n, const mf_attr *a, json_t **out, mf_error *err) {
  json_t *v = NULL;
  const char *k = NULL;
  switch (a->kind) {
    case MF_ATTR_INT: k = "int"; v = json_integer(a->u.i); break;
    case MF_ATTR_FLOAT:
      k = "float";
      v = isfinite(a->u.f) ? json_real(a->u.f)
                           : json_string(isnan(a->u.f) ? "nan" : a->u.f > 0 ? "inf" : "-inf");
      break;
    case MF_ATTR_BOOL: k = "bool"; v = json_boolean(a->u.b); break;
    case MF_ATTR_TYPE: k = "type"; v = json_string(mf_dtype_name(a->u.type)); break;
    case MF_ATTR_INTS: k = "ints"; v = shape_json(a->u.ints.n, a->u.ints.v); break;
    case MF_ATTR_SHAPE: k = "shape"; v = shape_json(a->u.ints.n, a->u.ints.v); break;
    case MF_ATTR_STRING:
      k = "string";
      v = json_string(a->u.s);
      if (!v) return BAD("node '%s': attribute '%s' is not UTF-8 text", n->name, a->name);
      break;
    case MF_ATTR_TENSOR: k = "tensor"; MF_TRY(mf_tensor_to_json(a->u.tensor, &v, err)); break;
    case MF_ATTR_GRAPH: k = "graph"; MF_TRY(graph_json(a->u.graph, &v, err)); break;
    case MF_ATTR_CALLBACK:
      return BAD("node '%s' (%s) calls a host-language function (attribute '%s'): a graph "
                 "holding one cannot be saved, as in TensorFlow (tf.py_function)",
                 n->name, n->op->name, a->name);
  }
  if (!v) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  *out = json_pack("{s:o}", k, v);
  return MF_OK;
}

static json_t *ref_json(mf_tensor_ref r) { return json_pack("[i, i]", r.node, r.index); }

static mf_status graph_json(const mf_graph *g, json_t **out, mf_error *err) {
  json_t *nodes = json_array();
  json_t *j = json_pack("{s:s, s:o}", "name", g->name ? g->name : "", "nodes", nodes);
  for (int i = 0; i < g->nnodes; i++) {
    const mf_node *n = &g->nodes[i];
    json_t *ins = json_array(), *ctl = json_array(), *attrs = json_object(), *specs = json_array();
    for (int k = 0; k < n->nin; k++) json_array_append_new(ins, ref_json(n->inputs[k]));
    for (int k = 0; k < n->ncontrol; k++) json_array_append_new(ctl, json_integer(n->control[k]));
    for (int k = 0; k < n->nout; k++) json_array_append_new(specs, mf_spec_to_json(&n->out_specs[k]));
    json_t *node = json_pack("{s:s, s:s, s:o, s:o, s:o, s:o}", "name", n->name, "op", n->op->name,
                             "inputs", ins, "control", ctl, "attrs", attrs, "specs", specs);
    json_array_append_new(nodes, node);
    for (int k = 0; k < n->attrs->n; k++) {
      json_t *a = NULL;
      mf_status s = attr_json(n, &n->attrs->a[k], &a, err);
      if (s != MF_OK) {
        json_decref(j);
        return s;
      }
      json_object_set_new(attrs, n->attrs->a[k].name, a);
    }
  }
  json_t *ins = json_array(), *outs = json_array();
  for (int i = 0; i < g->ninputs; i++) json_array_append_new(ins, json_integer(g->inputs[i]));
  for (int i = 0; i < g->noutputs; i++) json_array_append_new(outs, ref_json(g->outputs[i]));
  json_object_set_new(j, "inputs", ins);
  json_object_set_new(j, "outputs", outs);
  *out = j;
  return MF_OK;
}

mf_status mf_graph_to_json(const mf_graph *g, json_t **out, mf_error *err) {
  return graph_json(g, out, err);
}

/* ---- graphs in ---- */

static mf_status graph_from(const json_t *j, int depth, mf_graph **out, mf_error *err);

static const mf_attr_def *declared(const mf_op_def *op, const char *name) {
  for (int i = 0; i < MF_ATTR_MAX && op->attrs[i].name; i++)
    if (strcmp(op->attrs[i].name, name) == 0) return &op->attrs[i];
  return NULL;
}

/* Names the node and attribute in err's message; keeps its status (an
 * allocation failure stays ResourceExhaustedError). */
static mf_status attr_error(mf_error *err, mf_status s, const char *node, const char *name) {
  char msg[MF_ERROR_MESSAGE_MAX];
  snprintf(msg, sizeof msg, "%s", err->message);
  return mf_error_set(err, s, "node '%s': attribute '%s': %s", node, name, msg);
}

static mf_status attr_from(const char *node, const mf_op_def *op, const char *name,
                           const json_t *j, int depth, mf_attrs *as, mf_error *err) {
  const mf_attr_def *d = declared(op, name);
  if (!d) return BAD("node '%s': %s has no attribute '%s'", node, op->name, name);
  static const char *kinds[] = {"int", "float", "bool", "type", "ints", "shape",
                                "string", "tensor", "callback", "graph"};
  const char *kind = kinds[d->kind];
  json_t *v = json_is_object(j) && json_object_size(j) == 1 ? json_object_get(j, kind) : NULL;
  if (!v)
    return BAD("node '%s': attribute '%s' of %s must be a {\"%s\": ...}", node, name, op->name, kind);
  switch (d->kind) {
    case MF_ATTR_INT:
      if (!json_is_integer(v)) break;
      return mf_attrs_set_int(as, name, json_integer_value(v), err);
    case MF_ATTR_FLOAT: {
      double f;
      if (json_is_number(v)) f = json_number_value(v);
      else if (json_is_string(v) && strcmp(json_string_value(v), "inf") == 0) f = INFINITY;
      else if (json_is_string(v) && strcmp(json_string_value(v), "-inf") == 0) f = -INFINITY;
      else if (json_is_string(v) && strcmp(json_string_value(v), "nan") == 0) f = NAN;
      else break;
      return mf_attrs_set_float(as, name, f, err);
    }
    case MF_ATTR_BOOL:
      if (!json_is_boolean(v)) break;
      return mf_attrs_set_bool(as, name, json_is_true(v), err);
    case MF_ATTR_TYPE: {
      mf_dtype dt;
      if (!json_is_string(v) || !mf_dtype_from_name(json_string_value(v), &dt)) break;
      return mf_attrs_set_type(as, name, dt, err);
    }
    case MF_ATTR_INTS: {
      int64_t vals[MF_ATTR_MAX_INTS];
      if (!json_is_array(v) || json_array_size(v) > MF_ATTR_MAX_INTS) break;
      int n = (int)json_array_size(v);
      for (int i = 0; i < n; i++) {
        if (!json_is_integer(json_array_get(v, (size_t)i))) return BAD("node '%s': attribute '%s' holds a non-integer", node, name);
        vals[i] = json_integer_value(json_array_get(v, (size_t)i));
      }
      return mf_attrs_set_ints(as, name, n, vals, err);
    }
    case MF_ATTR_SHAPE: {
      int rank;
      int64_t shape[MF_MAX_RANK];
      mf_status s = shape_from_json(v, true, &rank, shape, err);
      if (s != MF_OK) return attr_error(err, s, node, name);
      return mf_attrs_set_shape(as, name, rank, shape, err);
    }
    case MF_ATTR_STRING:
      if (!json_is_string(v) || strlen(json_string_value(v)) != json_string_length(v)) break;
      return mf_attrs_set_string(as, name, json_string_value(v), err);
    case MF_ATTR_TENSOR: {
      mf_tensor *t;
      mf_status s = mf_tensor_from_json(v, &t, err);
      if (s != MF_OK) return attr_error(err, s, node, name);
      s = mf_attrs_set_tensor(as, name, t, err);
      mf_tensor_release(t);
      return s;
    }
    case MF_ATTR_GRAPH: {
      if (depth >= MAX_DEPTH) return BAD("node '%s': graphs nested deeper than %d", node, MAX_DEPTH);
      mf_graph *g;
      mf_status s = graph_from(v, depth + 1, &g, err);
      if (s != MF_OK) {
        char msg[MF_ERROR_MESSAGE_MAX];
        snprintf(msg, sizeof msg, "%s", err->message);
        return mf_error_set(err, s, "in the graph '%s' of node '%s': %s", name, node, msg);
      }
      s = mf_attrs_set_graph(as, name, g, err);
      mf_graph_release(g);
      return s;
    }
    case MF_ATTR_CALLBACK:
      return BAD("node '%s': a host callback attribute ('%s') cannot be loaded", node, name);
  }
  return BAD("node '%s': attribute '%s' of %s is not a valid %s", node, name, op->name, kind);
}

static mf_status ref_from(const mf_graph *g, const json_t *j, int limit, mf_tensor_ref *r,
                          mf_error *err) {
  if (!json_is_array(j) || json_array_size(j) != 2 || !json_is_integer(json_array_get(j, 0)) ||
      !json_is_integer(json_array_get(j, 1)))
    return BAD("a tensor reference is not [node, index]");
  json_int_t n = json_integer_value(json_array_get(j, 0)), i = json_integer_value(json_array_get(j, 1));
  if (n < 0 || n >= limit) return BAD("a tensor reference names node %lld, not an earlier node", (long long)n);
  if (i < 0 || i >= g->nodes[n].nout)
    return BAD("a tensor reference names output %lld of node '%s', which has %d", (long long)i,
               g->nodes[n].name, g->nodes[n].nout);
  r->node = (int)n;
  r->index = (int)i;
  return MF_OK;
}

static mf_status node_from(mf_graph *g, const json_t *j, int depth, mf_error *err) {
  int self = g->nnodes;
  if (!json_is_object(j)) return BAD("node %d is not an object", self);
  json_t *jname = json_object_get(j, "name"), *jop = json_object_get(j, "op");
  json_t *jin = json_object_get(j, "inputs"), *jctl = json_object_get(j, "control");
  json_t *jattrs = json_object_get(j, "attrs"), *jspecs = json_object_get(j, "specs");
  if (!json_is_string(jname) || json_string_length(jname) == 0 ||
      json_string_length(jname) > MAX_NAME || strlen(json_string_value(jname)) != json_string_length(jname))
    return BAD("node %d has no valid name", self);
  const char *name = json_string_value(jname);
  if (!json_is_string(jop)) return BAD("node '%s' has no op", name);
  const mf_op_def *op = mf_op_lookup(json_string_value(jop));
  if (!op)
    return mf_error_set(err, MF_ERR_NOT_FOUND, "node '%s': op '%s' is not registered in moonflow",
                        name, json_string_value(jop));
  if (!json_is_array(jin) || json_array_size(jin) > MAX_INPUTS) return BAD("node '%s': 'inputs' is not a list", name);
  if (!json_is_array(jctl) || json_array_size(jctl) > (size_t)self) return BAD("node '%s': 'control' is not a list of earlier nodes", name);
  if (!json_is_object(jattrs)) return BAD("node '%s': 'attrs' is not an object", name);
  if (!json_is_array(jspecs)) return BAD("node '%s': 'specs' is not a list", name);
  int nin = (int)json_array_size(jin);
  mf_tensor_ref *refs = mf_calloc((size_t)nin + 1, sizeof *refs);
  mf_spec *specs = mf_calloc((size_t)nin + 1, sizeof *specs);
  mf_tensor **vals = mf_calloc((size_t)nin + 1, sizeof *vals);
  const mf_partial **partials = mf_calloc((size_t)nin + 1, sizeof *partials);
  mf_attrs as;
  mf_attrs_init(&as);
  mf_op_call c;
  bool call_made = false;
  mf_status s = refs && specs && vals && partials ? MF_OK : mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  for (int k = 0; s == MF_OK && k < nin; k++) {
    s = ref_from(g, json_array_get(jin, (size_t)k), self, &refs[k], err);
    if (s != MF_OK) break;
    specs[k] = g->nodes[refs[k].node].out_specs[refs[k].index];
    vals[k] = g->nodes[refs[k].node].known[refs[k].index];
    partials[k] = mf_graph_partial(g, refs[k]);
  }
  const char *aname;
  json_t *aval;
  if (s == MF_OK && json_object_size(jattrs) > MF_ATTR_MAX) s = BAD("node '%s' has too many attributes", name);
  if (s == MF_OK)
    json_object_foreach(jattrs, aname, aval) {
      s = attr_from(name, op, aname, aval, depth, &as, err);
      if (s != MF_OK) break;
    }
  if (s == MF_OK) {
    mf_op_call_init(&c, op, nin, specs, vals, &as);
    /* Inferred as its trace was, by TF's shape functions (which a graph
     * import runs too), with what tracing knew element by element known
     * again: the loaded graph infers the shapes its trace did, and defers
     * the checks its trace deferred. */
    c.building = true;
    c.in_partial = partials;
    call_made = true;
    s = mf_op_infer(&c, err);
    /* What tracing computed from known values is computed again (the
     * folding rule tracing follows), so later nodes infer as they did. */
    if (s == MF_OK && mf_op_call_fold(&c))
      for (int k = 0; k < c.nout; k++) {
        mf_tensor_release(c.out_values[k]);
        c.out_values[k] = mf_op_call_take_output(&c, k);
      }
    if (s != MF_OK) {
      char msg[MF_ERROR_MESSAGE_MAX];
      snprintf(msg, sizeof msg, "%s", err->message);
      s = mf_error_set(err, s, "node '%s' (%s) does not check: %s", name, op->name, msg);
    }
  }
  if (s == MF_OK && json_array_size(jspecs) != (size_t)c.nout)
    s = BAD("node '%s' (%s) declares %zu outputs but has %d", name, op->name,
            json_array_size(jspecs), c.nout);
  for (int k = 0; s == MF_OK && k < c.nout; k++) {
    mf_spec saved;
    s = mf_spec_from_json(json_array_get(jspecs, (size_t)k), &saved, err);
    if (s == MF_OK && !mf_spec_fits(&saved, &c.out_specs[k], MF_FIT_COMPATIBLE)) {
      char a[128], b[128];
      mf_spec_format(&saved, a, sizeof a);
      mf_spec_format(&c.out_specs[k], b, sizeof b);
      s = BAD("node '%s' (%s): output %d is saved as %s %s but the op makes %s %s", name, op->name, k,
              mf_dtype_name(saved.dtype), a, mf_dtype_name(c.out_specs[k].dtype), b);
    }
  }
  if (s == MF_OK) {
    char unique[MAX_NAME + 16];
    s = mf_graph_unique_name(g, name, unique, sizeof unique, err);
    if (s == MF_OK && strcmp(unique, name) != 0) s = BAD("node name '%s' is used twice", name);
    int id;
    if (s == MF_OK) s = mf_graph_add_node(g, name, &c, refs, &id, err);
  }
  if (call_made) mf_op_call_free(&c);
  mf_attrs_free(&as);
  free(refs);
  free(specs);
  free(vals);
  free(partials);
  if (s != MF_OK) return s;
  /* Control edges as saved (add_node may have added the stateful chain's:
   * the saved list already holds it, so it is replaced). */
  mf_node *n = &g->nodes[self];
  n->ncontrol = 0;
  for (size_t k = 0; k < json_array_size(jctl); k++) {
    json_t *e = json_array_get(jctl, k);
    if (!json_is_integer(e) || json_integer_value(e) < 0 || json_integer_value(e) >= self)
      return BAD("node '%s': a control edge does not name an earlier node", name);
    MF_TRY(mf_graph_add_control(g, self, (int)json_integer_value(e), err));
  }
  return MF_OK;
}

static mf_status graph_from(const json_t *j, int depth, mf_graph **out, mf_error *err) {
  if (!json_is_object(j)) return BAD("a graph is not an object");
  json_t *jname = json_object_get(j, "name"), *nodes = json_object_get(j, "nodes");
  json_t *ins = json_object_get(j, "inputs"), *outs = json_object_get(j, "outputs");
  if (!json_is_string(jname) || !json_is_array(nodes) || !json_is_array(ins) || !json_is_array(outs))
    return BAD("a graph needs 'name', 'nodes', 'inputs' and 'outputs'");
  mf_graph *g;
  MF_TRY(mf_graph_new(json_string_value(jname), &g, err));
  mf_status s = MF_OK;
  for (size_t i = 0; s == MF_OK && i < json_array_size(nodes); i++)
    s = node_from(g, json_array_get(nodes, i), depth, err);
  for (size_t i = 0; s == MF_OK && i < json_array_size(ins); i++) {
    json_t *e = json_array_get(ins, i);
    json_int_t k = json_is_integer(e) ? json_integer_value(e) : -1;
    if (k < 0 || k >= g->nnodes || strcmp(g->nodes[k].op->name, "Placeholder") != 0)
      s = BAD("graph '%s': input %zu is not a Placeholder node", g->name, i);
    else
      s = mf_graph_add_input(g, (int)k, err);
  }
  mf_tensor_ref *refs = mf_calloc(json_array_size(outs) + 1, sizeof *refs);
  if (!refs && s == MF_OK) s = mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  for (size_t i = 0; s == MF_OK && i < json_array_size(outs); i++)
    s = ref_from(g, json_array_get(outs, i), g->nnodes, &refs[i], err);
  if (s == MF_OK) s = mf_graph_set_outputs(g, (int)json_array_size(outs), refs, err);
  free(refs);
  if (s != MF_OK) {
    mf_graph_release(g);
    return s;
  }
  *out = g;
  return MF_OK;
}

mf_status mf_graph_from_json(const json_t *j, mf_graph **out, mf_error *err) {
  return graph_from(j, 0, out, err);
}

mf_status mf_graph_dump(const mf_graph *g, char **out, mf_error *err) {
  json_t *gj;
  MF_TRY(mf_graph_to_json(g, &gj, err));
  json_t *doc = json_pack("{s:s, s:i, s:o}", "format", "moonflow.graph", "version",
                          MF_GRAPH_FORMAT_VERSION, "graph", gj);
  char *s = doc ? json_dumps(doc, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
  json_decref(doc);
  if (!s) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  *out = s;
  return MF_OK;
}

mf_status mf_graph_parse(const char *text, size_t len, mf_graph **out, mf_error *err) {
  json_error_t je;
  json_t *doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
  if (!doc) return BAD("graph JSON does not parse: %s (line %d)", je.text, je.line);
  mf_status s;
  json_t *v = json_object_get(doc, "version");
  if (!json_is_string(json_object_get(doc, "format")) ||
      strcmp(json_string_value(json_object_get(doc, "format")), "moonflow.graph") != 0)
    s = BAD("not a moonflow graph document (no \"format\": \"moonflow.graph\")");
  else if (!json_is_integer(v) || json_integer_value(v) != MF_GRAPH_FORMAT_VERSION)
    s = mf_error_set(err, MF_ERR_UNIMPLEMENTED, "graph format version %lld is not supported (this moonflow reads %d)",
                     json_is_integer(v) ? (long long)json_integer_value(v) : -1LL, MF_GRAPH_FORMAT_VERSION);
  else
    s = mf_graph_from_json(json_object_get(doc, "graph"), out, err);
  json_decref(doc);
  return s;
}
