/* attrs.h — operation attributes: the non-tensor arguments of an op
 * (TF's "attrs": transpose_a, keepdims, dtype, axis lists, ...).
 *
 * An mf_attrs is a small value type: copy it with mf_attrs_copy and free it
 * with mf_attrs_free (strings, tensors, callbacks and graphs inside it are
 * owned / counted references). Lookups take a default so kernels read
 * optional attributes in one line. */
#ifndef MF_ATTRS_H
#define MF_ATTRS_H

#include <stdbool.h>
#include <stdint.h>

#include "dtype.h"
#include "error.h"

struct mf_tensor;
struct mf_graph;

typedef enum mf_attr_kind {
  MF_ATTR_INT,
  MF_ATTR_FLOAT,
  MF_ATTR_BOOL,
  MF_ATTR_TYPE,
  MF_ATTR_INTS,     /* up to MF_ATTR_MAX_INTS integers */
  MF_ATTR_SHAPE,    /* a shape with unknown dims (-1); n == -1: unknown rank */
  MF_ATTR_STRING,
  MF_ATTR_TENSOR,   /* Const values */
  MF_ATTR_CALLBACK, /* host-language functions (lua_function, print sinks) */
  MF_ATTR_GRAPH,    /* nested graphs: cond branches, loop bodies */
} mf_attr_kind;

#define MF_ATTR_MAX 12
/* Eight: a shape (MF_MAX_RANK), or two per dimension of a rank-4 tensor
 * (explicit_paddings). Every attribute of a graph node has room for them,
 * so more would cost each node in every trace. */
#define MF_ATTR_MAX_INTS 8
#define MF_ATTR_NAME_MAX 32

/* A function the host (the Lua binding) provides to ops that call back into
 * it. `fn` fills `out[0..nout)` with new references. Refcounted. */
typedef struct mf_callback {
  long refcount;
  mf_status (*fn)(void *ud, int nin, struct mf_tensor **in, int nout, struct mf_tensor **out,
                  mf_error *err);
  void (*free)(void *ud);
  void *ud;
} mf_callback;

typedef struct mf_attr {
  char name[MF_ATTR_NAME_MAX];
  mf_attr_kind kind;
  union {
    int64_t i;
    double f;
    bool b;
    mf_dtype type;
    struct {
      int n;
      int64_t v[MF_ATTR_MAX_INTS];
    } ints;
    char *s;
    struct mf_tensor *tensor;
    mf_callback *cb;
    struct mf_graph *graph;
  } u;
} mf_attr;

typedef struct mf_attrs {
  int n;
  mf_attr a[MF_ATTR_MAX];
} mf_attrs;

void mf_attrs_init(mf_attrs *as);
void mf_attrs_free(mf_attrs *as);
mf_status mf_attrs_copy(mf_attrs *dst, const mf_attrs *src, mf_error *err);
/* The bytes of an mf_attrs sized to n attributes (a graph node's, placed
 * in the node's allocation: the full struct is ~2 KB, which made each
 * trace cost tens of KB). Only a[0..n) exists: attributes in it may be
 * read and replaced, never added. Filled with mf_attrs_copy, emptied with
 * mf_attrs_free; its memory is its owner's. */
size_t mf_attrs_bytes(int n);

const mf_attr *mf_attrs_find(const mf_attrs *as, const char *name);
int64_t mf_attr_int(const mf_attrs *as, const char *name, int64_t dflt);
bool mf_attr_bool(const mf_attrs *as, const char *name, bool dflt);
mf_dtype mf_attr_type(const mf_attrs *as, const char *name, mf_dtype dflt);
const char *mf_attr_string(const mf_attrs *as, const char *name, const char *dflt);

/* Setters replace an attribute of the same name. Strings are copied;
 * tensors, callbacks and graphs are retained (borrowed from the caller). */
mf_status mf_attrs_set_int(mf_attrs *as, const char *name, int64_t v, mf_error *err);
mf_status mf_attrs_set_float(mf_attrs *as, const char *name, double v, mf_error *err);
mf_status mf_attrs_set_bool(mf_attrs *as, const char *name, bool v, mf_error *err);
mf_status mf_attrs_set_type(mf_attrs *as, const char *name, mf_dtype v, mf_error *err);
mf_status mf_attrs_set_ints(mf_attrs *as, const char *name, int n, const int64_t *v,
                            mf_error *err);
mf_status mf_attrs_set_shape(mf_attrs *as, const char *name, int rank, const int64_t *dims,
                             mf_error *err);
mf_status mf_attrs_set_string(mf_attrs *as, const char *name, const char *s, mf_error *err);
mf_status mf_attrs_set_tensor(mf_attrs *as, const char *name, struct mf_tensor *t,
                              mf_error *err);
mf_status mf_attrs_set_callback(mf_attrs *as, const char *name, mf_callback *cb, mf_error *err);
mf_status mf_attrs_set_graph(mf_attrs *as, const char *name, struct mf_graph *g, mf_error *err);

void mf_callback_retain(mf_callback *cb);
void mf_callback_release(mf_callback *cb);

#endif
