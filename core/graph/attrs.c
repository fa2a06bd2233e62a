#include "alloc.h"
#include "attrs.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "tensor.h"

void mf_attrs_init(mf_attrs *as) { as->n = 0; }

static void attr_clear(mf_attr *a) {
  switch (a->kind) {
    case MF_ATTR_STRING: free(a->u.s); break;
    case MF_ATTR_TENSOR: mf_tensor_release(a->u.tensor); break;
    case MF_ATTR_CALLBACK: mf_callback_release(a->u.cb); break;
    case MF_ATTR_GRAPH: mf_graph_release(a->u.graph); break;
    default: break;
  }
}

void mf_attrs_free(mf_attrs *as) {
  for (int i = 0; i < as->n; i++) attr_clear(&as->a[i]);
  as->n = 0;
}

/* Retains/copies what `a` points at, so two attrs may share it. */
static mf_status attr_share(mf_attr *a, mf_error *err) {
  switch (a->kind) {
    case MF_ATTR_STRING:
      a->u.s = mf_strdup(a->u.s);
      if (!a->u.s) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
      break;
    case MF_ATTR_TENSOR: mf_tensor_retain(a->u.tensor); break;
    case MF_ATTR_CALLBACK: mf_callback_retain(a->u.cb); break;
    case MF_ATTR_GRAPH: mf_graph_retain(a->u.graph); break;
    default: break;
  }
  return MF_OK;
}

mf_status mf_attrs_copy(mf_attrs *dst, const mf_attrs *src, mf_error *err) {
  dst->n = 0;
  for (int i = 0; i < src->n; i++) {
    dst->a[i] = src->a[i];
    mf_status s = attr_share(&dst->a[i], err);
    if (s != MF_OK) {
      mf_attrs_free(dst);
      return s;
    }
    dst->n = i + 1;
  }
  return MF_OK;
}

size_t mf_attrs_bytes(int n) { return offsetof(mf_attrs, a) + (size_t)n * sizeof(mf_attr); }

const mf_attr *mf_attrs_find(const mf_attrs *as, const char *name) {
  if (!as) return NULL;
  for (int i = 0; i < as->n; i++)
    if (strcmp(as->a[i].name, name) == 0) return &as->a[i];
  return NULL;
}

int64_t mf_attr_int(const mf_attrs *as, const char *name, int64_t dflt) {
  const mf_attr *a = mf_attrs_find(as, name);
  if (!a) return dflt;
  if (a->kind == MF_ATTR_INT) return a->u.i;
  if (a->kind == MF_ATTR_BOOL) return a->u.b;
  if (a->kind == MF_ATTR_FLOAT) return mf_f64_to_i64(a->u.f);
  return dflt;
}

bool mf_attr_bool(const mf_attrs *as, const char *name, bool dflt) {
  const mf_attr *a = mf_attrs_find(as, name);
  if (!a) return dflt;
  if (a->kind == MF_ATTR_BOOL) return a->u.b;
  if (a->kind == MF_ATTR_INT) return a->u.i != 0;
  return dflt;
}

mf_dtype mf_attr_type(const mf_attrs *as, const char *name, mf_dtype dflt) {
  const mf_attr *a = mf_attrs_find(as, name);
  return a && a->kind == MF_ATTR_TYPE ? a->u.type : dflt;
}

const char *mf_attr_string(const mf_attrs *as, const char *name, const char *dflt) {
  const mf_attr *a = mf_attrs_find(as, name);
  return a && a->kind == MF_ATTR_STRING ? a->u.s : dflt;
}

/* The slot for `name`: the existing one (cleared) or a new one. */
static mf_status attr_slot(mf_attrs *as, const char *name, mf_attr_kind kind, mf_attr **out,
                           mf_error *err) {
  if (strlen(name) >= MF_ATTR_NAME_MAX)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "attribute name '%s' is too long", name);
  for (int i = 0; i < as->n; i++) {
    if (strcmp(as->a[i].name, name) == 0) {
      attr_clear(&as->a[i]);
      as->a[i].kind = kind;
      *out = &as->a[i];
      return MF_OK;
    }
  }
  if (as->n == MF_ATTR_MAX)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT, "too many attributes (at most %d)",
                        MF_ATTR_MAX);
  mf_attr *a = &as->a[as->n++];
  strcpy(a->name, name);
  a->kind = kind;
  *out = a;
  return MF_OK;
}

#define SETTER(fn, type, KIND, field)                                              \
  mf_status fn(mf_attrs *as, const char *name, type v, mf_error *err) {            \
    mf_attr *a;                                                                    \
    MF_TRY(attr_slot(as, name, KIND, &a, err));                                    \
    a->u.field = v;                                                                \
    return MF_OK;                                                                  \
  }
SETTER(mf_attrs_set_int, int64_t, MF_ATTR_INT, i)
SETTER(mf_attrs_set_float, double, MF_ATTR_FLOAT, f)
SETTER(mf_attrs_set_bool, bool, MF_ATTR_BOOL, b)
SETTER(mf_attrs_set_type, mf_dtype, MF_ATTR_TYPE, type)
#undef SETTER

static mf_status set_int_list(mf_attrs *as, const char *name, mf_attr_kind kind, int n,
                              const int64_t *v, mf_error *err) {
  if (n > MF_ATTR_MAX_INTS)
    return mf_error_set(err, MF_ERR_INVALID_ARGUMENT,
                        "attribute '%s' has %d values (at most %d)", name, n, MF_ATTR_MAX_INTS);
  mf_attr *a;
  MF_TRY(attr_slot(as, name, kind, &a, err));
  a->u.ints.n = n;
  for (int i = 0; i < n; i++) a->u.ints.v[i] = v[i];
  return MF_OK;
}

mf_status mf_attrs_set_ints(mf_attrs *as, const char *name, int n, const int64_t *v,
                            mf_error *err) {
  return set_int_list(as, name, MF_ATTR_INTS, n, v, err);
}

mf_status mf_attrs_set_shape(mf_attrs *as, const char *name, int rank, const int64_t *dims,
                             mf_error *err) {
  return set_int_list(as, name, MF_ATTR_SHAPE, rank, dims, err);
}

mf_status mf_attrs_set_string(mf_attrs *as, const char *name, const char *s, mf_error *err) {
  char *copy = mf_strdup(s);
  if (!copy) return mf_error_set(err, MF_ERR_RESOURCE_EXHAUSTED, "out of memory");
  mf_attr *a;
  mf_status st = attr_slot(as, name, MF_ATTR_STRING, &a, err);
  if (st != MF_OK) {
    free(copy);
    return st;
  }
  a->u.s = copy;
  return MF_OK;
}

mf_status mf_attrs_set_tensor(mf_attrs *as, const char *name, mf_tensor *t, mf_error *err) {
  mf_attr *a;
  MF_TRY(attr_slot(as, name, MF_ATTR_TENSOR, &a, err));
  mf_tensor_retain(t);
  a->u.tensor = t;
  return MF_OK;
}

mf_status mf_attrs_set_callback(mf_attrs *as, const char *name, mf_callback *cb, mf_error *err) {
  mf_attr *a;
  MF_TRY(attr_slot(as, name, MF_ATTR_CALLBACK, &a, err));
  mf_callback_retain(cb);
  a->u.cb = cb;
  return MF_OK;
}

mf_status mf_attrs_set_graph(mf_attrs *as, const char *name, mf_graph *g, mf_error *err) {
  mf_attr *a;
  MF_TRY(attr_slot(as, name, MF_ATTR_GRAPH, &a, err));
  mf_graph_retain(g);
  a->u.graph = g;
  return MF_OK;
}

void mf_callback_retain(mf_callback *cb) { cb->refcount++; }

void mf_callback_release(mf_callback *cb) {
  if (!cb || --cb->refcount > 0) return;
  if (cb->free) cb->free(cb->ud);
  free(cb);
}
